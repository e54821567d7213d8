"""Overflow facts for one comparison row (what the TUI's overflow pane shows).

Meant for the *selected* row only: it reads at most that row's two tensors and one op
dump.  The Opdebug scan of a target dump is done once per dump
(:func:`~dumpscope.core.vendor.opdebug.opdebug_index`, shared with the diagnosis).  It
never raises on odd input: a missing file, a reopened comparison, an unreadable tensor
or a name with undecodable bytes becomes a ``note`` or an ``error`` string in the result.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.dumps import Dump, TensorReadError, TensorRef
from dumpscope.core.inspect.ranges import RangeFinding, range_check
from dumpscope.core.names import display
from dumpscope.core.vendor.opdebug import (
    OpdebugIndex,
    OpdebugTensor,
    OverflowRecord,
    opdebug_index,
    tensor_stats,
)
from dumpscope.core.vendor.traits import traits_of

#: How many positions of flagged elements a fact lists.
MAX_POSITIONS = 5
_CHUNK = 1 << 20


def tensor_quant(ref: TensorRef | None) -> tuple[float, int, str] | None:
    """(scale, zero point, integer dtype) recorded on a quantised tensor, when per-tensor."""
    extra = dict(ref.info.extra) if ref is not None else {}
    grid = _grid(extra)
    return None if grid is None else (*grid, extra.get("quant_dtype", "int8"))


def _grid(extra: dict[str, str]) -> tuple[float, int] | None:
    """The recorded scale (positive, finite) and zero point, else None."""
    try:
        scale = float(extra["quant_scale"])
        zp = int(float(extra.get("quant_zero_point", "0")))
    except (KeyError, ValueError):
        return None
    return (scale, zp) if math.isfinite(scale) and scale > 0 else None


def quant_params(cmp: Comparison, row: int) -> tuple[float, int, str] | None:
    """(scale, zero point, integer dtype) of a row's quantised target tensor, when per-tensor."""
    return tensor_quant(row_ref(cmp, row, "target"))


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
    op_tensors: tuple[OpdebugTensor, ...] = ()
    """Inputs and outputs of that op dump (range, NaN/Inf)."""
    ranges: tuple[RangeFact, ...] = ()
    opdebug_note: str | None = None
    """What the Opdebug side has to say when it has no record for this op."""
    note: str | None = None
    """Set when nothing could be checked for this row (and why)."""

    @property
    def flagged(self) -> bool:
        return bool(self.records) or any(r.flagged for r in self.ranges)


def row_ref(cmp: Comparison, row: int, side: str = "golden") -> TensorRef | None:
    """The tensor behind one side of a frame row (None: a missing side, or no tensors)."""
    if cmp.pairing is None or not 0 <= row < len(cmp.pairing.pairs):
        return None
    pair = cmp.pairing.pairs[row]
    return pair.golden if side == "golden" else pair.target


def first_positions(
    array: np.ndarray, test: Callable[[np.ndarray], np.ndarray], limit: int = MAX_POSITIONS
) -> tuple[tuple[int, ...], ...]:
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


def _range_fact(
    ref: TensorRef | None, side: str, dtype: str, scale: float | None = None, zero_point: int = 0
) -> RangeFact:
    """One side's tensor checked against ``dtype`` (on a quantisation grid when ``scale`` is given),
    with the first flagged positions; an error fact when it cannot be checked."""
    array = _numeric(ref, side)
    if isinstance(array, str):
        return RangeFact(side, dtype, error=array)
    try:
        finding = range_check(array, dtype, scale, zero_point)
    except (ValueError, TypeError) as exc:
        return RangeFact(side, dtype, error=display(str(exc)))
    return RangeFact(side, dtype, finding, *_positions(array, finding), scale, zero_point)


def _numeric(ref: TensorRef | None, side: str) -> np.ndarray | str:
    """The tensor's data when it is numeric, else why not."""
    array = _loaded(ref, side)
    if isinstance(array, str) or array.dtype.kind in "biuf" or array.dtype.name == "bfloat16":
        return array
    return f"{side} dtype {array.dtype.name} has no numeric range"


def _loaded(ref: TensorRef | None, side: str) -> np.ndarray | str:
    """The tensor's data, else why it cannot be read."""
    if ref is None:
        return f"no {side} tensor for this row"
    try:
        return np.asarray(ref.load())
    except TensorReadError as exc:
        return display(str(exc))


Positions = tuple[tuple[int, ...], ...]


def _positions(array: np.ndarray, finding: RangeFinding) -> tuple[Positions, Positions]:
    """The first positions at or past the range, and the first NaN/Inf positions (each only when flagged)."""
    beyond = (
        first_positions(array, lambda c: np.isfinite(c) & ((c >= finding.high) | (c <= finding.low)))
        if finding.out_of_range
        else ()
    )
    nonfinite = first_positions(array, lambda c: ~np.isfinite(c)) if finding.nan or finding.inf else ()
    return beyond, nonfinite


def _ranges(cmp: Comparison, row: int, target_dtype: str | None) -> tuple[RangeFact, ...]:
    """The target against its own dtype (saturation), the golden against the target's dtype."""
    golden, target = row_ref(cmp, row, "golden"), row_ref(cmp, row, "target")
    if target is None or not target_dtype:
        return ()
    out = (_range_fact(target, "target", target_dtype),)
    return out if golden is None else (*out, _golden_fact(cmp, row, golden, target_dtype))


def _golden_fact(cmp: Comparison, row: int, golden: TensorRef, target_dtype: str) -> RangeFact:
    """The golden against the target's grid (quantised), its float dtype, or why it cannot be judged."""
    quant = quant_params(cmp, row)
    if quant is not None:
        scale, zero_point, qdtype = quant
        return _range_fact(golden, "golden", qdtype, scale, zero_point)
    if target_dtype.startswith(("int", "uint")):
        return RangeFact(
            "golden",
            target_dtype,
            error=(
                f"the {target_dtype} target has no scale/zero point here: the golden range cannot be judged"
            ),
        )
    return _range_fact(golden, "golden", target_dtype)


def _opdebug(cmp: Comparison, op: str | None) -> tuple[tuple[OverflowRecord, ...], str | None]:
    """The Opdebug records naming ``op``, or what the Opdebug side says instead (None: the format has
    none)."""
    index = _scan(cmp.target)
    if not isinstance(index, OpdebugIndex):
        return (), index
    records = index.by_op.get(op, ()) if op else ()
    if records:
        return records, None
    return (), _none_names_op(index)


def _scan(target: Dump | None) -> OpdebugIndex | str | None:
    """The target dump's Opdebug scan, or why there is none (None: this format carries no
    hardware overflow records)."""
    if target is None or not traits_of(target).opdebug:
        return None
    if not target.meta.get("opdebug_files"):
        return (
            "no Opdebug files in the target dump (dump with dump_debug on to get hardware overflow records)"
        )
    return _read_scan(target)


def _read_scan(target: Dump) -> OpdebugIndex | str:
    """The (cached) scan of the target's Opdebug files, or why it failed."""
    index = opdebug_index(target)
    if index is None:
        return f"the target dump {display(str(target.path))} is no longer there"
    if index.error is not None:
        return f"Opdebug scan of {display(str(target.path))} failed: {index.error}"
    return index


def _none_names_op(index: OpdebugIndex) -> str:
    """What a scan with no record for the op read: files, unlinked records, unreadable files."""
    parts = [f"{index.files} Opdebug file(s) read; none names this op"]
    if index.unlinked:
        parts.append(f"{index.unlinked} record(s) could not be linked to an op dump")
    if index.problems:
        file, message = index.problems[0]
        parts.append(f"{len(index.problems)} unreadable ({display(f'{Path(file).name}: {message}')})")
    return "; ".join(parts)


def overflow_facts(cmp: Comparison, row: int) -> OverflowFacts:
    """Opdebug records of the row's target op, and range checks of the row's tensors."""
    frame = cmp.frame
    if not 0 <= row < frame.height:
        return OverflowFacts(row, "", None, note=f"row {row} is not in this comparison")
    r = frame.row(row, named=True)
    name = str(r["name"] or r["target_name"] or "")
    op = target_op(cmp, row)
    if not cmp.has_tensors:
        return OverflowFacts(
            row,
            name,
            op,
            note=(
                "this comparison was reopened from a saved file: no tensors or Opdebug records to check; "
                "open the dumps themselves for overflow facts"
            ),
        )
    return _checked(cmp, row, name, op, r["target_dtype"])


def target_op(cmp: Comparison, row: int) -> str | None:
    """The target op a row's target tensor comes from (None without a target tensor)."""
    target = row_ref(cmp, row, "target")
    return target.info.node_name if target is not None else None


def _checked(cmp: Comparison, row: int, name: str, op: str | None, target_dtype: str | None) -> OverflowFacts:
    """The facts of a row whose tensors can be read: Opdebug records, their op dump, range checks."""
    records, opdebug_note = _opdebug(cmp, op)
    op_file, op_tensors = _op_dump(records)
    ranges = _ranges(cmp, row, target_dtype)
    note = (
        None
        if records or ranges
        else "only the golden run has this tensor: there is no target dtype to check it against"
    )
    return OverflowFacts(row, name, op, records, op_file, op_tensors, ranges, opdebug_note, note)


def _op_dump(records: tuple[OverflowRecord, ...]) -> tuple[str | None, tuple[OpdebugTensor, ...]]:
    """The op dump the latest linked record points to, and its tensors' statistics."""
    op_file = next((rec.op_file for rec in reversed(records) if rec.op_file), None)
    return op_file, tensor_stats(Path(op_file)) if op_file else ()
