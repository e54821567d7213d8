"""Overflow and fusion facts for one comparison row (what the TUI's side panes show).

Both functions are meant for the *selected* row only: they read at most that row's two
tensors and one op dump, and reuse what is expensive across calls - the Opdebug scan of a
target dump and the fusion groups of a graph or manifest are computed once and cached
(per target :class:`~dumpscope.core.dumps.Dump`, which every streamed snapshot of a
comparison shares; per graph file and its modification time).  Neither raises on odd
input: a missing file, a reopened comparison, an unreadable tensor or a name with
undecodable bytes becomes a ``note`` or an ``error`` string in the result.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from dumpscope.core.vendor import fusion
from dumpscope.core.vendor.atc_graph import AtcGraph, load_graph
from dumpscope.core.diagnosis.checks import quant_params
from dumpscope.core.dumps import Dump, DumpError, PerObject, TensorReadError, TensorRef
from dumpscope.core.names import display
from dumpscope.core.vendor.opdebug import OverflowRecord, RangeFinding, TensorStats, opdebug_index, range_check, tensor_stats
from dumpscope.core.vendor.traits import traits_of
from dumpscope.core.comparison.result import Comparison

#: How many positions of flagged elements a fact lists.
MAX_POSITIONS = 5
_CHUNK = 1 << 20



# ------------------------------------------------------------------------------- overflow


@dataclass(frozen=True)
class RangeFact:
    """One tensor checked against the range of the target's dtype."""

    side: str
    """``target`` (its own dtype: saturated values) or ``golden`` (would it fit the target dtype?)."""
    dtype: str
    """The dtype whose range was checked."""
    finding: RangeFinding | None = None
    out_of_range_at: tuple[tuple[int, ...], ...] = ()
    """Indices of the first elements at or past the range (saturated or overflowing)."""
    nonfinite_at: tuple[tuple[int, ...], ...] = ()
    """Indices of the first NaN/Inf elements."""
    scale: float | None = None
    zero_point: int = 0
    error: str | None = None
    """Why the check could not be made (unreadable tensor, dtype without a range...)."""

    @property
    def flagged(self) -> bool:
        return self.finding is not None and self.finding.flagged


@dataclass(frozen=True)
class OverflowFacts:
    row: int
    name: str
    op_name: str | None
    """The target op the row's tensor comes from (what Opdebug records name)."""
    records: tuple[OverflowRecord, ...] = ()
    """Decoded Opdebug records linked to that op, in time order."""
    op_file: str | None = None
    """The op dump the records are linked to."""
    op_tensors: tuple[TensorStats, ...] = ()
    """Inputs and outputs of that op dump (range, NaN/Inf)."""
    ranges: tuple[RangeFact, ...] = ()
    opdebug_note: str | None = None
    """What the Opdebug side has to say when it has no record for this op."""
    note: str | None = None
    """Set when nothing could be checked for this row (and why)."""

    @property
    def flagged(self) -> bool:
        return bool(self.records) or any(r.flagged for r in self.ranges)


def _ref(cmp: Comparison, row: int, side: str) -> TensorRef | None:
    if cmp.pairing is None or not 0 <= row < len(cmp.pairing.pairs):
        return None
    pair = cmp.pairing.pairs[row]
    return pair.golden if side == "golden" else pair.target


def first_positions(array: np.ndarray, test: Callable[[np.ndarray], np.ndarray], limit: int = MAX_POSITIONS) -> tuple[tuple[int, ...], ...]:
    """Indices (in the array's shape) of the first ``limit`` elements where ``test`` holds.

    Streams over the flat data in chunks and stops as soon as ``limit`` are found, so a
    large memory-mapped tensor is read only as far as needed.
    """
    flat = np.asarray(array).reshape(-1)
    found: list[int] = []
    for start in range(0, flat.size, _CHUNK):
        hits = np.flatnonzero(test(flat[start : start + _CHUNK].astype(np.float64, copy=False)))
        found.extend(int(h) + start for h in hits[: limit - len(found)])
        if len(found) >= limit:
            break
    shape = np.shape(array) or (1,)
    return tuple(tuple(int(i) for i in np.unravel_index(f, shape)) for f in found)


def _range_fact(ref: TensorRef | None, side: str, dtype: str, scale: float | None = None, zero_point: int = 0) -> RangeFact:
    if ref is None:
        return RangeFact(side, dtype, error=f"no {side} tensor for this row")
    try:
        array = np.asarray(ref.load())
    except TensorReadError as exc:
        return RangeFact(side, dtype, error=display(str(exc)))
    if array.dtype.kind not in "biuf" and array.dtype.name != "bfloat16":
        return RangeFact(side, dtype, error=f"{side} dtype {array.dtype.name} has no numeric range")
    try:
        finding = range_check(array, dtype, scale, zero_point)
    except (ValueError, TypeError) as exc:
        return RangeFact(side, dtype, error=display(str(exc)))
    beyond: tuple[tuple[int, ...], ...] = ()
    nonfinite: tuple[tuple[int, ...], ...] = ()
    if finding.out_of_range:
        beyond = first_positions(array, lambda c: np.isfinite(c) & ((c >= finding.high) | (c <= finding.low)))
    if finding.nan or finding.inf:
        nonfinite = first_positions(array, lambda c: ~np.isfinite(c))
    return RangeFact(side, dtype, finding, beyond, nonfinite, scale, zero_point)


def _ranges(cmp: Comparison, row: int, target_dtype: str | None) -> tuple[RangeFact, ...]:
    """The target against its own dtype (saturation), the golden against the target's dtype."""
    golden, target = _ref(cmp, row, "golden"), _ref(cmp, row, "target")
    if target is None or not target_dtype:
        return ()
    out = [_range_fact(target, "target", target_dtype)]
    if golden is None:
        return tuple(out)
    quant = quant_params(cmp, row)
    if quant is not None:
        scale, zero_point, qdtype = quant
        out.append(_range_fact(golden, "golden", qdtype, scale, zero_point))
    elif target_dtype.startswith(("int", "uint")):
        out.append(RangeFact("golden", target_dtype, error=(
            f"the {target_dtype} target has no scale/zero point here: the golden range cannot be judged")))
    else:
        out.append(_range_fact(golden, "golden", target_dtype))
    return tuple(out)


def _opdebug(cmp: Comparison, op: str | None) -> tuple[tuple[OverflowRecord, ...], str | None]:
    target = cmp.target
    if target is None or not traits_of(target).opdebug:
        return (), None  # this format carries no hardware overflow records
    if not target.meta.get("opdebug_files"):
        return (), "no Opdebug files in the target dump (dump with dump_debug on to get hardware overflow records)"
    index = opdebug_index(target)
    if index is None:
        return (), f"the target dump {display(str(target.path))} is no longer there"
    if index.error is not None:
        return (), f"Opdebug scan of {display(str(target.path))} failed: {index.error}"
    records = index.by_op.get(op, ()) if op else ()
    if records:
        return records, None
    parts = [f"{index.files} Opdebug file(s) read; none names this op"]
    if index.unlinked:
        parts.append(f"{index.unlinked} record(s) could not be linked to an op dump")
    if index.problems:
        file, message = index.problems[0]
        parts.append(f"{len(index.problems)} unreadable ({display(f'{Path(file).name}: {message}')})")
    return (), "; ".join(parts)


def overflow_facts(cmp: Comparison, row: int) -> OverflowFacts:
    """Opdebug records of the row's target op, and range checks of the row's tensors."""
    frame = cmp.frame
    if not 0 <= row < frame.height:
        return OverflowFacts(row, "", None, note=f"row {row} is not in this comparison")
    r = frame.row(row, named=True)
    name = str(r["name"] or r["target_name"] or "")
    target = _ref(cmp, row, "target")
    op = target.info.node_name if target is not None else None
    if not cmp.has_tensors:
        return OverflowFacts(row, name, op, note=(
            "this comparison was reopened from a saved file: no tensors or Opdebug records to check; "
            "open the dumps themselves for overflow facts"))
    records, opdebug_note = _opdebug(cmp, op)
    op_file = next((rec.op_file for rec in reversed(records) if rec.op_file), None)
    op_tensors = tensor_stats(Path(op_file)) if op_file else ()
    ranges = _ranges(cmp, row, r["target_dtype"])
    note = None
    if not records and not ranges:
        note = "only the golden run has this tensor: there is no target dtype to check it against"
    return OverflowFacts(row, name, op, records, op_file, op_tensors, ranges, opdebug_note, note)


# ------------------------------------------------------------------------------- fusion


@dataclass(frozen=True)
class OpFact:
    """An op of a fusion group and the comparison row that shows it, if any."""

    name: str
    op_type: str | None = None
    row: int | None = None
    index: int | None = None
    health: str | None = None
    cosine: float | None = None
    note: str | None = None


@dataclass(frozen=True)
class FusionFacts:
    row: int
    op_name: str | None
    """The op the row was looked up by (its target op, else its node)."""
    source: str | None = None
    """``ATC graph <path>`` or ``target manifest``."""
    relation: str | None = None
    passes: tuple[str, ...] = ()
    fused: tuple[OpFact, ...] = ()
    originals: tuple[OpFact, ...] = ()
    role: str | None = None
    """Whether the row's op is one of the ``fused`` ops or one of the ``originals``."""
    note: str | None = None
    """Why there is no group, or what to keep in mind about it."""


@dataclass(frozen=True)
class _Groups:
    source: str
    maps: tuple[fusion.FusionMap, ...]
    error: str | None = None


_GRAPHS: dict[tuple[str, int, int], _Groups] = {}
_GRAPHS_LOCK = threading.Lock()
_MANIFESTS: PerObject[_Groups] = PerObject()


def _graph_groups(path: str) -> _Groups:
    """Fusion groups of an ATC graph JSON, cached per (path, mtime, size)."""
    source = f"ATC graph {display(Path(path).name)}"
    try:
        st = Path(path).stat()
    except OSError as exc:
        return _Groups(source, (), f"cannot read the ATC graph {display(path)}: {exc.strerror or exc}")
    key = (path, st.st_mtime_ns, st.st_size)
    with _GRAPHS_LOCK:
        if key not in _GRAPHS:
            try:
                _GRAPHS[key] = _Groups(source, tuple(fusion.fusion_maps(load_graph(path))))
            except DumpError as exc:
                _GRAPHS[key] = _Groups(source, (), display(str(exc)))
        return _GRAPHS[key]


def _manifest_groups(target: Dump) -> _Groups:
    manifest = target.meta.get("manifest")
    maps = fusion.fusion_from_manifest(manifest) if isinstance(manifest, dict) else []
    return _Groups("target manifest (optimised onnxruntime run)", tuple(maps))


_PARSED: PerObject[_Groups] = PerObject()


def _parsed_groups(atc: AtcGraph) -> _Groups:
    """Fusion groups of the ATC graph a comparison was built with (parsed once, by compare)."""
    name = display(atc.path.name) if atc.path is not None else "graph JSON"
    return _PARSED.get(atc, lambda: _Groups(f"ATC graph {name}", tuple(fusion.fusion_maps(atc))))


def _sources(cmp: Comparison) -> list[_Groups]:
    out = []
    graph = cmp.meta.get("graph")
    if cmp.atc is not None:
        out.append(_parsed_groups(cmp.atc))
    elif graph:
        out.append(_graph_groups(str(graph)))
    if cmp.target is not None:
        target = cmp.target
        out.append(_MANIFESTS.get(target, lambda: _manifest_groups(target)))
    return out


def _find(maps: tuple[fusion.FusionMap, ...], names: list[tuple[str, str]]) -> tuple[fusion.FusionMap, str] | None:
    """The group holding the first of ``(name, "fused" | "originals")`` that any group holds."""
    for name, attr in names:
        for m in maps:
            if name in getattr(m, attr):
                return m, attr
    return None


def _lookup_names(cmp: Comparison, row: int, r: dict[str, object]) -> list[tuple[str, str]]:
    """What to look the row up by, best first: its target op among fused ops, its golden
    node among original ops (a golden-only row is an original the target fused away)."""
    target = _ref(cmp, row, "target")
    side = r["side"]
    out: list[tuple[object, str]] = [(target.info.node_name if target else None, "fused")]
    if side in ("both", "target"):
        out.append((r["target_name"], "fused"))
    own = "fused" if side == "target" else "originals"
    out += [(r["node_name"], own), (r["name"], own)]
    names = [(str(n), attr) for n, attr in out if n]
    return list(dict.fromkeys(names + [(display(n), attr) for n, attr in names]))


def _op_facts(frame: pl.DataFrame, names: tuple[str, ...], types: tuple[str, ...], side: str) -> tuple[OpFact, ...]:
    """Each op with the frame row that shows it on ``side`` (``golden`` for original ops,
    ``target`` for fused ones); a compared row (both sides) is preferred."""
    shown = [display(n) for n in names]
    own = pl.col("name").is_in(shown) | pl.col("node_name").is_in(shown)
    if side == "golden":
        match = pl.col("side").is_in(["both", "golden"]) & own
    else:
        match = pl.col("target_name").is_in(shown) | ((pl.col("side") == "target") & own)
    rows = (
        frame.select("node_name", "name", "target_name", "op_type", "index", "health", "cosine_similarity", "side")
        .with_row_index("row")
        .filter(match)
    )
    best: dict[str, dict[str, Any]] = {}
    for r in rows.iter_rows(named=True):
        keys = {r["target_name"]} if side == "target" and r["side"] == "both" else {r["node_name"], r["name"]}
        for n in shown:
            if n in keys and (n not in best or (r["side"] == "both" and best[n]["side"] != "both")):
                best[n] = r
    out = []
    for k, n in enumerate(shown):
        op_type = types[k] if k < len(types) and types[k] else None
        hit = best.get(n)
        if hit is None:
            out.append(OpFact(n, op_type, note="no golden dump of this op" if side == "golden" else "no dump of this op"))
            continue
        note = None
        if hit["side"] == "golden":
            note = "golden only: the target has no output for it"
        elif hit["side"] == "target":
            note = "target only: not compared"
        out.append(OpFact(n, op_type or hit["op_type"], int(hit["row"]), hit["index"], hit["health"],
                          hit["cosine_similarity"], note))
    return tuple(out)


def fusion_facts(cmp: Comparison, row: int) -> FusionFacts:
    """The fusion group the row's op belongs to, with a row (health, cosine) for each op.

    From the ATC graph the comparison was made with (``meta["graph"]``), else the target
    manifest's ``fused_from``.  Always returns facts; ``note`` says why when there is no group.
    """
    frame = cmp.frame
    if not 0 <= row < frame.height:
        return FusionFacts(row, None, note=f"row {row} is not in this comparison")
    r = frame.row(row, named=True)
    names = _lookup_names(cmp, row, r)
    op = names[0][0] if names else None
    sources = _sources(cmp)
    if not sources:
        return FusionFacts(row, op, note=(
            "no fusion facts: give the ATC graph (--graph, atc --mode=1/5 JSON) or compare an optimised "
            "onnxruntime target whose manifest records fused_from"
            + ("; this comparison was reopened from a saved file" if not cmp.has_tensors else "")))
    problems = [s.error for s in sources if s.error]
    for src in sources:
        hit = _find(src.maps, names)
        if hit is None:
            continue
        group, attr = hit
        if group.relation == fusion.ONE_TO_ONE and group.fused == group.originals:
            continue  # the op is its own original: not a fusion
        return FusionFacts(
            row, op, src.source, group.relation, group.passes,
            fused=_op_facts(frame, group.fused, group.op_types, "target"),
            originals=_op_facts(frame, group.originals, (), "golden"),
            role="fused" if attr == "fused" else "original", note="; ".join(problems) or None,
        )
    searched = ", ".join(s.source for s in sources if not s.error)
    note = f"not fused: {searched} lists no fusion for this op" if searched else ""
    return FusionFacts(row, op, note="; ".join(p for p in [note, *problems] if p))


def fused_rows(cmp: Comparison) -> np.ndarray:
    """Boolean per frame row: the row's op takes part in a fusion (a fused target op, or an
    original op a fused op stands for), from the same sources as :func:`fusion_facts`."""
    names: set[str] = set()
    for src in _sources(cmp):
        for group in src.maps:
            if group.relation == fusion.TARGET_ONLY or (
                group.relation == fusion.ONE_TO_ONE and group.fused == group.originals
            ):
                continue  # an inserted op (TransData...) or an op that is its own original
            names.update(display(n) for n in (*group.fused, *group.originals))
    frame = cmp.frame
    if not names:
        return np.zeros(frame.height, dtype=bool)
    wanted = list(names)
    hit = pl.col("name").is_in(wanted) | pl.col("node_name").is_in(wanted) | pl.col("target_name").is_in(wanted)
    return frame.select(hit.fill_null(False)).to_series().to_numpy()
