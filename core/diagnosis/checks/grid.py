"""A float target tensor that lies on a quantisation grid (Q/DQ, fake-quantised) shared by parts
of very different ranges: the parts that get only a few steps of the shared scale are destroyed.

The grid is the target's quantisation scale when it records one, else it is read from the
target's own values (at most 256 distinct levels, every gap a multiple of the smallest).  The parts are the
inputs
of a Concat (each against its own golden range), else the slices along axis 1.  A YOLO head
concatenating box coordinates (0-316) and class scores (0-1) under one int8 scale gives the
scores less than one step: whole-tensor metrics hide it, this check names it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import polars as pl

from dumpscope.core.diagnosis.checks.base import (
    FEW_LEVELS,
    Check,
    CheckContext,
    Finding,
    RowCase,
    inputs_of,
    read_tensor,
)
from dumpscope.core.inspect.overflow import quant_params, row_ref
from dumpscope.core.names import display

#: At most this many distinct values make a grid (int8: 256).
MAX_LEVELS = 256
#: A tensor needs this many values per level before few distinct values mean anything.
VALUES_PER_LEVEL = 2
#: Elements read to find the grid.
MAX_ELEMENTS = 4_000_000

ADVICE: dict[str, str] = {}  # its findings are "quantisation": the quantisation check's advice applies


def shared_grid(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """Parts of a grid-valued float target that get fewer than :data:`FEW_LEVELS` steps."""
    step = _float_grid(ctx, case)
    if step is None:
        return []
    node = display(str(case.values["node_name"] or case.values["name"]))
    parts = _PARTS.get(str(case.values["op_type"]), _slice_parts)(ctx, case.row)
    starved = [(label, top) for label, top in parts if 0 < top / step < FEW_LEVELS]
    return [_starved(node, step, label, top) for label, top in starved[:3]]


def _starved(node: str, step: float, label: str, top: float) -> Finding:
    """One part whose values span only a few steps of the grid they share."""
    return Finding(
        "quantisation",
        f"the target values of {node!r} lie on one grid (step {step:.4g}, at most {MAX_LEVELS} levels): "
        f"{label} reaches only |x| {top:.4g}, {top / step:.2g} steps of the shared scale - its values are "
        "lost",
        weight=0.3,
    )


def _float_grid(ctx: CheckContext, case: RowCase) -> float | None:
    """The step of the grid the target lies on, when the golden does not (integer data lies on any grid)."""
    step = _step(ctx, case)
    golden = ctx.golden_of(row_ref(ctx.cmp, case.row))
    if step is None or golden is None or _on_grid(golden, step):
        return None
    return step


def _step(ctx: CheckContext, case: RowCase) -> float | None:
    """The grid step: the quantisation scale when the target records one, else read from a float
    target's values."""
    q = quant_params(ctx.cmp, case.row)
    if q is not None:
        return q[0] if q[0] > 0 else None
    if case.values["target_dtype"] not in ("float32", "float64"):
        return None
    return _grid_step(_target(ctx, case.row))


def _target(ctx: CheckContext, row: int) -> np.ndarray | None:
    """The row's target tensor when it is a float one of at most :data:`MAX_ELEMENTS` values."""
    data = read_tensor(row_ref(ctx.cmp, row, "target"))
    return data if data is not None and _small_floats(data) else None


def _small_floats(data: np.ndarray) -> bool:
    return data.dtype.kind == "f" and 0 < data.size <= MAX_ELEMENTS


def _grid_step(data: np.ndarray | None) -> float | None:
    """The step of the uniform grid the values lie on, or None when they do not."""
    levels = _levels(data)
    if levels is None:
        return None
    step = float(np.diff(levels).min())
    return step if step > 0 and _on_grid(levels, step) else None


def _levels(data: np.ndarray | None) -> np.ndarray | None:
    """The distinct finite values, when there are 3 to :data:`MAX_LEVELS` of them and enough values
    per level for that to mean anything."""
    if data is None:
        return None
    levels = np.unique(data[np.isfinite(data)].astype(np.float64))
    enough = 3 <= levels.size <= MAX_LEVELS and data.size >= VALUES_PER_LEVEL * levels.size
    return levels if enough else None


def _on_grid(values: np.ndarray, step: float) -> bool:
    """Do ``values`` (the golden) lie on a grid of ``step`` as well?"""
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return True
    ratio = (v - v.min()) / step
    return bool(np.allclose(ratio, np.round(ratio), rtol=0, atol=1e-2))


def _concat_parts(ctx: CheckContext, row: int) -> list[tuple[str, float]]:
    """Each Concat input by its golden range (the frame's min/max)."""
    frame = ctx.cmp.frame
    return [part for j in inputs_of(ctx, row) if (part := _range_part(frame, j)) is not None]


def _range_part(frame: pl.DataFrame, j: int) -> tuple[str, float] | None:
    """Input row ``j`` labelled with its golden range, and its largest |x| (None without a range)."""
    lo, hi = frame["min_golden"][j], frame["max_golden"][j]
    if lo is None or hi is None:
        return None
    return f"input {display(str(frame['name'][j]))!r} (golden range [{lo:.4g}, {hi:.4g}])", max(
        abs(lo), abs(hi)
    )


def _slice_parts(ctx: CheckContext, row: int) -> list[tuple[str, float]]:
    """Each slice along axis 1 by its golden largest |x| (only tensors with 2 to 1024 such slices)."""
    golden = ctx.golden_of(row_ref(ctx.cmp, row))
    if golden is None or not _sliced_floats(golden):
        return []
    tops = np.abs(np.moveaxis(golden.astype(np.float64), 1, 0).reshape(golden.shape[1], -1)).max(axis=1)
    return [(f"channel slice {k} along axis 1", float(t)) for k, t in enumerate(tops)]


def _sliced_floats(golden: np.ndarray) -> bool:
    """A float tensor of 2 to 1024 slices along axis 1."""
    return golden.ndim >= 2 and 2 <= golden.shape[1] <= 1024 and golden.dtype.kind == "f"


#: How a row's values split into parts: a Concat by its inputs, anything else by its channel slices.
_PARTS: dict[str, Callable[[CheckContext, int], list[tuple[str, float]]]] = {"Concat": _concat_parts}


CHECK = Check("grid", shared_grid, ADVICE)
