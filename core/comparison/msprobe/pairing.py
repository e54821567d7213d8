"""Pair the entries of an NPU msprobe rank with those of its bench (GPU/CPU) rank.

Three passes, each on what the previous left over:

1. **Full name**, per counter-stripped key (``Functional.conv2d.forward``), when both sides
   have the same calls of that key: ``Functional.conv2d.3.forward`` <-> the same name.
2. **By order with the call counter stripped** (msprobe's fuzzy match): when one side has
   an extra call, every later counter of that key is shifted, so equal names would pair
   different calls.  The two sequences of a key are aligned on each call's signature
   (input/output dtypes and shapes) with :class:`difflib.SequenceMatcher`; aligned calls
   pair (``exact`` when the names happen to agree, else ``fuzzy``), the extra ones stay
   unmatched.
3. **User mapping** (:class:`Mapping`, from msprobe's YAML files): ``data`` mapping (entry
   or tensor name -> name), ``api`` mapping (NPU api -> bench api, e.g.
   ``NPU.npu_fusion_attention`` -> ``Functional.scaled_dot_product_attention``) and
   ``layer`` mapping (``Class: {npu_attr: bench_attr}``, applied to module path segments).

Whatever is left is listed with a reason: NPU-only ops (``NPU.*``, ``npu_*``), extra calls,
or no counterpart.  Bench-only entries are listed too (msprobe drops them silently).
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from dumpscope.core.formats.msprobe import Entry, MsprobeRank, split_name


@dataclass
class Mapping:
    """User name mappings, NPU side -> bench side."""

    data: dict[str, str] = field(default_factory=dict)
    """Entry or tensor record name -> name (msprobe ``-dm``)."""
    api: dict[str, str] = field(default_factory=dict)
    """NPU api (``prefix.api``, no counter) -> bench api (msprobe ``-am``)."""
    layer: dict[str, str] = field(default_factory=dict)
    """Module path segment -> segment, from ``Class: {npu_attr: bench_attr}`` (``-lm``)."""

    def record_name(self, npu_name: str) -> str | None:
        return self.data.get(npu_name)


@dataclass(frozen=True)
class EntryPair:
    npu: Entry
    bench: Entry
    how: str
    """``exact``, ``fuzzy`` or ``mapping``."""


@dataclass(frozen=True)
class Unmatched:
    entry: Entry
    side: str
    """``npu`` or ``bench``."""
    reason: str


@dataclass
class Pairing:
    pairs: list[EntryPair] = field(default_factory=list)
    unmatched: list[Unmatched] = field(default_factory=list)

    def by_npu(self) -> dict[str, EntryPair]:
        return {p.npu.name: p for p in self.pairs}


def load_mapping(path: str | Path) -> Mapping:
    """Read a msprobe data / api / layer mapping YAML (``yaml.safe_load``); the kind is
    told from the shape.  Raises ValueError with the reason on a file of no known shape."""
    import yaml  # a dependency only where a user mapping is given

    with Path(path).open(encoding="utf-8") as f:
        raw = yaml.safe_load(f)
    return mapping_from_obj(raw)


def mapping_from_obj(raw: object) -> Mapping:
    """Build a :class:`Mapping` from parsed YAML (see :func:`load_mapping`)."""
    out = Mapping()
    if isinstance(raw, list):  # api mapping: [{ms_api|npu_api: x, pt_api|bench_api: y}, ...]
        for item in raw:
            _api_item(item, out)
        return out
    if not isinstance(raw, dict):
        raise ValueError("mapping YAML must be a mapping or a list of api mappings")
    for key, value in raw.items():
        _mapping_item(str(key), value, out)
    return out


def _api_item(item: object, out: Mapping) -> None:
    if not isinstance(item, dict):
        raise ValueError(f"api mapping item is not a mapping: {item!r}")
    npu = item.get("npu_api") or item.get("ms_api")
    bench = item.get("bench_api") or item.get("pt_api")
    if not (isinstance(npu, str) and isinstance(bench, str)):
        raise ValueError(f"api mapping item needs npu_api/ms_api and bench_api/pt_api: {item!r}")
    out.api[npu] = bench


def _mapping_item(key: str, value: object, out: Mapping) -> None:
    if isinstance(value, dict):  # layer mapping: Class: {npu_attr: bench_attr}
        out.layer.update({str(k): str(v) for k, v in value.items()})
    elif isinstance(value, str) and _is_api_name(key) and _is_api_name(value):
        out.api[key] = value
    elif isinstance(value, str):
        out.data[key] = value
    else:
        raise ValueError(f"mapping value for {key!r} is neither a name nor a layer map")


def _is_api_name(name: str) -> bool:
    """``Functional.conv2d`` (prefix.api, no counter, no direction)."""
    parts = name.split(".")
    return len(parts) == 2 and not any(p.isdigit() for p in parts)


def signature(entry: Entry) -> tuple:
    """What aligns two calls of one key: the dtypes and shapes of its tensor records."""
    return tuple((r.suffix, r.dtype, r.shape) for r in entry.records if r.is_tensor)


def pair_ranks(npu: MsprobeRank, bench: MsprobeRank, mapping: Mapping | None = None) -> Pairing:
    """Pair every entry of ``npu`` with one of ``bench`` (see the module docstring)."""
    mapping = mapping or Mapping()
    out = Pairing()
    npu_left = _pair_by_key(list(npu.entries.values()), list(bench.entries.values()), _key, out)
    bench_left = _bench_leftovers(bench, out)
    npu_left = _pair_by_data_mapping(npu_left, bench_left, mapping, out)
    bench_left = _bench_leftovers(bench, out)
    prefixes = _prefix_map(npu, bench)
    mapped = {e.name: _mapped_key(e, mapping, prefixes) for e in npu_left}
    renamed = [e for e in npu_left if mapped[e.name] != _key(e)]
    kept = [e for e in npu_left if mapped[e.name] == _key(e)]
    npu_left = kept + _pair_by_key(renamed, bench_left, lambda e: mapped[e.name], out, how="mapping")
    _list_unmatched(npu_left, _bench_leftovers(bench, out), npu, bench, out)
    out.pairs.sort(key=lambda p: p.npu.order)
    return out


def _key(entry: Entry) -> str:
    return split_name(entry.name).key


#: A MindSpore ``Cell`` is a PyTorch ``Module``: the same module entry across frameworks.
_CROSS_FRAMEWORK_PREFIX = {"mindspore": {"Cell": "Module"}, "pytorch": {"Module": "Cell"}}


def _prefix_map(npu: MsprobeRank, bench: MsprobeRank) -> dict[str, str]:
    """NPU entry prefix -> the bench framework's, when the two sides are different frameworks."""
    if npu.framework == bench.framework:
        return {}
    mapped = _CROSS_FRAMEWORK_PREFIX.get(str(npu.framework), {})
    return mapped if str(bench.framework) in _CROSS_FRAMEWORK_PREFIX else {}


def _mapped_key(entry: Entry, mapping: Mapping, prefixes: dict[str, str] | None = None) -> str:
    """The NPU entry's key under the user mapping (api, then layer segments) and the
    cross-framework module prefix."""
    parts = split_name(entry.name)
    api = mapping.api.get(f"{parts.prefix}.{parts.api}")
    if api is not None:
        return f"{api}.{parts.direction}"
    prefix = (prefixes or {}).get(parts.prefix, parts.prefix)
    path = ".".join(mapping.layer.get(seg, seg) for seg in parts.api.split(".")) if mapping.layer else parts.api
    return f"{prefix}.{path}.{parts.direction}"


def _group(entries: list[Entry], key) -> dict[str, list[Entry]]:  # type: ignore[no-untyped-def]
    groups: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        groups[key(e)].append(e)
    return groups


def _pair_by_key(npu: list[Entry], bench: list[Entry], key, out: Pairing, how: str | None = None) -> list[Entry]:  # type: ignore[no-untyped-def]
    """Pair within each key group; return the NPU entries left over."""
    bench_groups = _group(bench, _key)
    left: list[Entry] = []
    for k, calls in _group(npu, key).items():
        left += _align(calls, bench_groups.get(k, []), out, how)
    return left


def _align(npu: list[Entry], bench: list[Entry], out: Pairing, how: str | None) -> list[Entry]:
    """Pair two call sequences of one key; return the NPU calls left over."""
    if how is None and [e.name for e in npu] == [e.name for e in bench]:
        out.pairs += [EntryPair(a, b, "exact") for a, b in zip(npu, bench)]
        return []
    used = set()
    for i, j in _aligned_indices(npu, bench):
        a, b = npu[i], bench[j]
        out.pairs.append(EntryPair(a, b, how or ("exact" if a.name == b.name else "fuzzy")))
        used.add(i)
    return [e for i, e in enumerate(npu) if i not in used]


def _aligned_indices(npu: list[Entry], bench: list[Entry]) -> Iterator[tuple[int, int]]:
    """Index pairs of calls aligned on their signatures; between two aligned stretches, a
    run of calls of equal length on both sides pairs by order (calls whose shapes differ
    are still the same calls, and their mismatch must be reported)."""
    matcher = difflib.SequenceMatcher(None, [signature(e) for e in npu], [signature(e) for e in bench], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            yield from zip(range(i1, i2), range(j1, j2))


def _bench_leftovers(bench: MsprobeRank, out: Pairing) -> list[Entry]:
    taken = {p.bench.name for p in out.pairs}
    return [e for e in bench.entries.values() if e.name not in taken]


def _pair_by_data_mapping(npu: list[Entry], bench: list[Entry], mapping: Mapping, out: Pairing) -> list[Entry]:
    by_name = {e.name: e for e in bench}
    left = []
    for e in npu:
        target = by_name.pop(mapping.data.get(e.name, ""), None)
        if target is None:
            left.append(e)
        else:
            out.pairs.append(EntryPair(e, target, "mapping"))
    return left


def _list_unmatched(npu_left: list[Entry], bench_left: list[Entry], npu: MsprobeRank, bench: MsprobeRank,
                    out: Pairing) -> None:
    npu_calls = _group(list(npu.entries.values()), _key)
    bench_calls = _group(list(bench.entries.values()), _key)
    for e in sorted(npu_left, key=lambda e: e.order):
        k = _key(e)
        out.unmatched.append(Unmatched(e, "npu", _npu_reason(e, len(bench_calls.get(k, [])), len(npu_calls[k]))))
    for e in sorted(bench_left, key=lambda e: e.order):
        k = _key(e)
        out.unmatched.append(Unmatched(e, "bench", _bench_reason(e, len(npu_calls.get(k, [])), len(bench_calls[k]))))


def _is_npu_only(entry: Entry) -> bool:
    parts = split_name(entry.name)
    return parts.prefix == "NPU" or parts.api.startswith(("npu_", "npu."))


def _npu_reason(entry: Entry, bench_calls: int, npu_calls: int) -> str:
    if _is_npu_only(entry):
        return "NPU-only op (torch_npu fused/format op): no bench counterpart expected; map it with an api mapping to compare"
    if bench_calls == 0:
        return f"no bench call of {_key(entry)}: add a data/api mapping if it has another name there"
    return f"extra call on the NPU side: {npu_calls} calls of {_key(entry)} against {bench_calls} on the bench"


def _bench_reason(entry: Entry, npu_calls: int, bench_calls: int) -> str:
    if npu_calls == 0:
        return f"bench-only: no NPU call of {_key(entry)} (fused away on the NPU, or named otherwise: add a mapping)"
    return f"extra call on the bench side: {bench_calls} calls of {_key(entry)} against {npu_calls} on the NPU"
