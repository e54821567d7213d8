"""Pair the entries of an NPU msprobe rank with those of its bench (GPU/CPU) rank.

1. **User mapping first** (:class:`Mapping`, from msprobe's YAML files): ``data`` mapping
   (entry name -> name) pairs those entries outright; ``api`` mapping (NPU api -> bench
   api, e.g. ``NPU.npu_fusion_attention`` -> ``Functional.scaled_dot_product_attention``)
   and ``layer`` mapping (``Class: {npu_attr: bench_attr}``, applied to module path
   segments) rename the NPU side's keys and module paths before anything else.  A
   MindSpore ``Cell`` is a PyTorch ``Module``.
2. **Alignment** (``mode="aligned"``, the default): the two call lists are aligned as a
   whole (:mod:`.align`): one extra call of an API on one side shifts every later counter
   of that API, so equal names would pair different calls; the alignment pairs each call
   with the call that really corresponds, on the key, the tensors' dtypes and shapes, the
   enclosing module, the call site and the first input's statistics.  A pair whose names
   agree is ``exact``; one whose names differ is ``aligned`` (its :attr:`EntryPair.label`
   says which NPU call went with which bench call).  ``mode="exact"`` pairs equal names
   only, as msprobe's compare does without ``--fuzzy_match``.

Whatever is left is one-sided, with a reason: NPU-only ops (``NPU.*``, ``npu_*``), calls
of an API the other side never makes, or a call with no counterpart in the call order
(and by how much it shifts the later counters of its API).  Bench-only entries are listed
too (msprobe drops them silently).
"""

from __future__ import annotations

import bisect
import functools
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from dumpscope.core.comparison.msprobe.align import align, features
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
    """``exact`` (the names agree), ``aligned`` (re-aligned: the names differ) or ``mapping``."""

    @property
    def label(self) -> str:
        """The pairing column: ``exact``, ``mapping``, or for a re-aligned pair
        ``aligned: NPU Tensor.__mul__.11.forward ↔ bench Tensor.__mul__.10.forward``."""
        if self.how == "aligned":
            return f"aligned: NPU {self.npu.name} \u2194 bench {self.bench.name}"
        return self.how


@dataclass(frozen=True)
class Unmatched:
    entry: Entry
    side: str
    """``npu`` or ``bench``."""
    reason: str


#: The pairing modes: msprobe's plain name equality, or the alignment of the call lists.
MODES = ("aligned", "exact")


@dataclass
class Pairing:
    pairs: list[EntryPair] = field(default_factory=list)
    unmatched: list[Unmatched] = field(default_factory=list)
    mode: str = "aligned"

    def by_npu(self) -> dict[str, EntryPair]:
        return {p.npu.name: p for p in self.pairs}

    def counts(self) -> dict[str, int]:
        """Pairs by how they were made, and one-sided calls by side."""
        out = dict.fromkeys(("exact", "aligned", "mapping", "npu-only", "bench-only"), 0)
        for p in self.pairs:
            out[p.how] += 1
        for u in self.unmatched:
            out[f"{u.side}-only"] += 1
        return out


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


def pair_ranks(
    npu: MsprobeRank, bench: MsprobeRank, mapping: Mapping | None = None, mode: str = "aligned"
) -> Pairing:
    """Pair every entry of ``npu`` with one of ``bench`` (see the module docstring)."""
    if mode not in MODES:
        raise ValueError(f"unknown pairing {mode!r}: choose from {', '.join(MODES)}")
    mapping = mapping or Mapping()
    out = Pairing(mode=mode)
    npu_all, bench_all = _in_order(npu), _in_order(bench)
    npu_left, bench_left = _pair_by_data_mapping(npu_all, bench_all, mapping, out)
    prefixes = _prefix_map(npu, bench)
    npu_keys = [_mapped_key(e, mapping, prefixes) for e in npu_left]
    bench_keys = [_key(e) for e in bench_left]
    renames = bool(mapping.api or mapping.layer or prefixes)  # else every mapped key is the entry's own
    renamed = {e.name for e, k in zip(npu_left, npu_keys, strict=False) if k != _key(e)} if renames else set()
    if mode == "exact":
        found = _exact_indices(npu_left, npu_keys, bench_left)
    else:
        found = _aligned_indices(npu_left, npu_keys, bench_left, bench_keys, mapping, prefixes)
    for i, j in found:
        a, b = npu_left[i], bench_left[j]
        how = "mapping" if a.name in renamed else "exact" if a.name == b.name else "aligned"
        out.pairs.append(EntryPair(a, b, how))
    paired_i, paired_j = {i for i, _ in found}, {j for _, j in found}
    npu_rest = [e for i, e in enumerate(npu_left) if i not in paired_i]
    bench_rest = [e for j, e in enumerate(bench_left) if j not in paired_j]
    _list_unmatched(npu_rest, bench_rest, (npu_left, npu_keys), (bench_left, bench_keys), out)
    out.pairs.sort(key=lambda p: p.npu.order)
    return out


def _in_order(rank: MsprobeRank) -> list[Entry]:
    return sorted(rank.entries.values(), key=lambda e: e.order)


#: Entry names taken apart, remembered (a pairing asks for each name's parts several times;
#: module names repeat for every call they enclose).  Bounded: a new dump refills it.
_parts = functools.lru_cache(maxsize=1 << 18)(split_name)


def _key(entry: Entry) -> str:
    return _parts(entry.name).key


def _counted(key: str, entry: Entry) -> str:
    """A key with the entry's call counter: the name a mapping gives the entry."""
    counter = _parts(entry.name).counter
    return key if counter is None else f"{key}#{counter}"


def _exact_indices(npu: list[Entry], npu_keys: list[str], bench: list[Entry]) -> list[tuple[int, int]]:
    """msprobe's plain pairing: equal (mapped) names."""
    where = {_counted(_key(e), e): j for j, e in enumerate(bench)}
    found = ((i, where.get(_counted(k, e))) for i, (e, k) in enumerate(zip(npu, npu_keys, strict=False)))
    return [(i, j) for i, j in found if j is not None]


def _aligned_indices(
    npu: list[Entry],
    npu_keys: list[str],
    bench: list[Entry],
    bench_keys: list[str],
    mapping: Mapping,
    prefixes: dict[str, str],
) -> list[tuple[int, int]]:
    """The alignment of the two call lists (:func:`.align.align`)."""
    npu_modules = [_module_name(e.parent, mapping, prefixes) for e in npu]
    bench_modules = [_module_name(e.parent, Mapping(), {}) for e in bench]
    fa, codes = features(npu, npu_keys, npu_modules)
    fb, _ = features(bench, bench_keys, bench_modules, codes)
    return align(fa, fb)


def _module_name(parent: str | None, mapping: Mapping, prefixes: dict[str, str]) -> str | None:
    """An enclosing module's name as the other side would write it (layer mapping, Cell -> Module)."""
    if parent is None:
        return None
    parts = _parts(parent)
    prefix = prefixes.get(parts.prefix, parts.prefix)
    return f"{prefix}.{_layer_path(parts.api, mapping)}.{parts.direction}#{parts.counter}"


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
    parts = _parts(entry.name)
    api = mapping.api.get(f"{parts.prefix}.{parts.api}")
    if api is not None:
        return f"{api}.{parts.direction}"
    prefix = (prefixes or {}).get(parts.prefix, parts.prefix)
    return f"{prefix}.{_layer_path(parts.api, mapping)}.{parts.direction}"


def _layer_path(path: str, mapping: Mapping) -> str:
    """A module path with the layer mapping's segments renamed."""
    return ".".join(mapping.layer.get(seg, seg) for seg in path.split(".")) if mapping.layer else path


def _group(entries: list[Entry], key) -> dict[str, list[Entry]]:
    groups: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        groups[key(e)].append(e)
    return groups


def _pair_by_data_mapping(
    npu: list[Entry], bench: list[Entry], mapping: Mapping, out: Pairing
) -> tuple[list[Entry], list[Entry]]:
    """The user's data mapping pairs entries outright; returns both sides' entries left."""
    if not mapping.data:
        return npu, bench
    by_name = {e.name: e for e in bench}
    left = []
    for e in npu:
        target = by_name.pop(mapping.data.get(e.name, ""), None)
        if target is None:
            left.append(e)
        else:
            out.pairs.append(EntryPair(e, target, "mapping"))
    taken = {p.bench.name for p in out.pairs}
    return left, [e for e in bench if e.name not in taken]


def _list_unmatched(
    npu_rest: list[Entry],
    bench_rest: list[Entry],
    npu: tuple[list[Entry], list[str]],
    bench: tuple[list[Entry], list[str]],
    out: Pairing,
) -> None:
    """One-sided calls with their reasons (``npu``/``bench``: every call the pairing saw, with
    its key)."""
    if not (npu_rest or bench_rest):
        return
    npu_key = dict(zip((e.name for e in npu[0]), npu[1], strict=False))
    bench_key = dict(zip((e.name for e in bench[0]), bench[1], strict=False))
    wanted = {npu_key[e.name] for e in npu_rest} | {bench_key[e.name] for e in bench_rest}
    npu_calls = _group([e for e, k in zip(*npu, strict=False) if k in wanted], lambda e: npu_key[e.name])
    bench_calls = _group(
        [e for e, k in zip(*bench, strict=False) if k in wanted], lambda e: bench_key[e.name]
    )
    of_npu = {p.npu.name: p.bench for p in out.pairs}
    of_bench = {p.bench.name: p.npu for p in out.pairs}
    for e in npu_rest:
        k = npu_key[e.name]
        why = _reason(e, "npu", k, npu_calls[k], bench_calls.get(k, []), of_npu, out.mode)
        out.unmatched.append(Unmatched(e, "npu", why))
    for e in bench_rest:
        k = bench_key[e.name]
        why = _reason(e, "bench", k, bench_calls[k], npu_calls.get(k, []), of_bench, out.mode)
        out.unmatched.append(Unmatched(e, "bench", why))


def _is_npu_only(entry: Entry) -> bool:
    parts = _parts(entry.name)
    return parts.prefix == "NPU" or parts.api.startswith(("npu_", "npu."))


_SIDE = {"npu": "NPU", "bench": "bench"}


def _reason(
    entry: Entry,
    side: str,
    key: str,
    own: list[Entry],
    other: list[Entry],
    partner: dict[str, Entry],
    mode: str,
) -> str:
    """Why ``entry`` (of ``side``) has no counterpart; ``own``/``other``: both sides' calls of its key."""
    other_side = "bench" if side == "npu" else "npu"
    if side == "npu" and _is_npu_only(entry):
        return (
            "NPU-only op (torch_npu fused/format op): no bench counterpart expected; "
            "map it with an api mapping to compare"
        )
    if not other:
        if side == "npu":
            return f"no bench call of {key}: add a data/api mapping if it has another name there"
        return f"bench-only: no NPU call of {key} (fused away on the NPU, or named otherwise: add a mapping)"
    if mode == "exact":
        return (
            f"no {_SIDE[other_side]} entry named {entry.name} (exact pairing: {len(own)} {_SIDE[side]} "
            f"calls of {key} against {len(other)}; --pairing aligned re-aligns shifted counters)"
        )
    api = key.rsplit(".", 1)[0]
    return f"{_SIDE[side]}-only call: {_shift(entry, own, partner, api)}"


def _shift(entry: Entry, own: list[Entry], partner: dict[str, Entry], api: str) -> str:
    """How a one-sided call leaves the counters of the later calls of its API."""
    start = bisect.bisect_right(own, entry.order, key=lambda e: e.order)
    later = next((own[k] for k in range(start, len(own)) if own[k].name in partner), None)
    if later is None:
        return f"no counterpart in the call order, and no later `{api}` call pairs"
    mine, theirs = _parts(later.name).counter, _parts(partner[later.name].name).counter
    if mine is None or theirs is None:
        nxt = partner[later.name].name
        return f"no counterpart in the call order (the next `{api}` call pairs with {nxt})"
    shift = mine - theirs
    if shift == 0:
        return (
            f"no counterpart in the call order; later `{api}` counters agree again (another call offsets it)"
        )
    words = {1: "one", 2: "two", 3: "three"}
    how = f"shifted by {words.get(abs(shift), str(abs(shift)))}" + (" (lower)" if shift < 0 else "")
    return f"counters of later `{api}` calls are {how} ({later.name} \u2194 {partner[later.name].name})"
