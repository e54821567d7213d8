"""The lane for many small pairs: a task's tiny float tensors compared as columns, not rows.

A dump of tens of thousands of tiny tensors (16-256 values each) spent ~50 us of Python per
pair around a ~1 us kernel call: reading both sides, lining them up, finishing the metrics,
a dict per row.  Pairs whose readers already tell (before any data is read) that nothing
but the plain metrics can come out of them take this lane instead:

* both sides ``.npy`` data of one float32/float64 type in native order, C order, the same
  shape with no repeated dimension (so no layout can be chosen by values), at most
  :data:`~.metrics.SEGMENT_VALUES` values, no reader note, not a Reshape shape input, and not a
  channel-sliced activation;
* each side is read once straight into one buffer per dtype (offsets mark the pairs);
* :func:`~.metrics.segment_sums` runs the kernel over every pair in one call, and
  :func:`~.metrics.clean_columns` finishes the pairs without any finding as columns;
* a pair with a finding (NaN/Inf, an all-zero side, one element) leaves the lane with its
  arrays and metrics and is finished as a row by the caller; an unreadable side is its
  row's error, exactly as when read alone.

Every value is bit for bit what :func:`~.rows.compute_row` gives for the pair alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from dumpscope.core.comparison.metrics import (
    SEGMENT_DTYPES,
    SEGMENT_VALUES,
    PairMetrics,
    clean_columns,
    clean_segments,
    segment_metrics,
    segment_sums,
)
from dumpscope.core.comparison.pairing import Pair
from dumpscope.core.comparison.slices import sliceable
from dumpscope.core.dumps import TensorRef, dtype_name
from dumpscope.core.formats.npyfile import NpyLoader

if TYPE_CHECKING:
    from dumpscope.core.comparison.judge import Thresholds

__all__ = ["Leftover", "SmallLane", "lane_values", "small_dtype"]

#: Columns every clean small pair sets to the same value.
_CONSTANT: dict[str, object] = {
    "status": "computed",
    "notes": "",
    "hard_fail": "",
    "hard_warn": "",
    "worst_slice": None,
}


def small_dtype(p: Pair, has_spec: bool) -> np.dtype | None:
    """The float type of a pair this lane takes (see the module docstring), else None."""
    if has_spec or p.golden is None:
        return None
    g, t = _plain_loader(p.golden), _plain_loader(p.target)
    if g is None or t is None:
        return None
    return _shared_type(g, t, p.golden.info.kind)


def lane_values(p: Pair) -> int:
    """The values of a pair this lane takes (its golden's; see :func:`small_dtype`)."""
    loader = _plain_loader(p.golden)
    return loader.count if loader is not None else 0


def _shared_type(gl: NpyLoader, tl: NpyLoader, kind: str) -> np.dtype | None:
    """The sides' one segmentable float type, when they also share one simple shape."""
    same = gl.shape == tl.shape and gl.dtype == tl.dtype
    return gl.dtype if same and _segment_type(gl.dtype) and _simple_shape(gl.shape, kind) else None


def _segment_type(dtype: np.dtype) -> bool:
    return dtype in SEGMENT_DTYPES and dtype.isnative


def _plain_loader(ref: TensorRef | None) -> NpyLoader | None:
    """The loader of a readable C-order ``.npy`` tensor of 1..SEGMENT_VALUES values with no
    reader note (else None)."""
    loader = ref.loader if ref is not None and ref.error is None else None
    if not isinstance(loader, NpyLoader) or ref is None:
        return None
    plain = (
        not loader.fortran
        and 0 < loader.count <= SEGMENT_VALUES
        and not any(k == "note" for k, _v in ref.info.extra)
    )
    return loader if plain else None


def _simple_shape(shape: tuple[int, ...], kind: str) -> bool:
    """No repeated dimension (one layout only) and, for an activation, no channel slices."""
    return len(set(shape)) == len(shape) and not (kind == "activation" and sliceable(shape))


@dataclass
class Leftover:
    """A pair that left the lane: its position in the task, both sides read (as shaped
    arrays) and its metrics, to be finished as a row (it has a finding)."""

    pos: int
    golden: np.ndarray
    target: np.ndarray
    metrics: PairMetrics


@dataclass
class _Group:
    """The pairs of one dtype: both sides' values back to back, and where each pair starts."""

    golden: np.ndarray
    target: np.ndarray
    offsets: list[int] = field(default_factory=lambda: [0])
    pos: list[int] = field(default_factory=list)
    shapes: list[tuple[int, ...]] = field(default_factory=list)

    def add(self, pos: int, g: np.ndarray, t: np.ndarray) -> None:
        start, end = self.offsets[-1], self.offsets[-1] + g.size
        self.golden[start:end] = g.reshape(-1)
        self.target[start:end] = t.reshape(-1)
        self.offsets.append(end)
        self.pos.append(pos)
        self.shapes.append(g.shape)


@dataclass
class SmallLane:
    """A task's small pairs: :meth:`add` each (read at once), then :meth:`finish`."""

    groups: dict[np.dtype, _Group] = field(default_factory=dict)

    def reserve(self, dtype: np.dtype, values: int) -> None:
        """Room for ``values`` more values per side of ``dtype`` (call before any :meth:`add`)."""
        group = self.groups.get(dtype)
        size = values + (group.golden.size if group else 0)
        self.groups[dtype] = _Group(np.empty(size, dtype), np.empty(size, dtype))

    def add(self, pos: int, loaded: tuple[np.ndarray, np.ndarray]) -> None:
        """The pair at ``pos`` of the task, both sides just read (copied in before the next read)."""
        g, t = loaded
        self.groups[g.dtype].add(pos, g, t)

    def finish(
        self, th: Thresholds, row_of: Callable[[int], int]
    ) -> tuple[list[int], dict[str, list[object]], list[Leftover]]:
        """(row indices, their columns) of the clean pairs, and the pairs with a finding.

        ``th``: the thresholds (``rtol``/``atol``); ``row_of(pos)``: the row index of a task position.
        """
        rows: list[int] = []
        columns: dict[str, list[object]] = {}
        leftovers: list[Leftover] = []
        for group in self.groups.values():
            if group.pos:
                _finish_group(group, th, (rows, columns, leftovers), row_of)
        return rows, columns, leftovers


def _finish_group(
    group: _Group,
    th: Thresholds,
    into: tuple[list[int], dict[str, list[object]], list[Leftover]],
    row_of: Callable[[int], int],
) -> None:
    """One dtype's pairs: the kernel once, clean pairs as columns, the rest as leftovers."""
    rows, columns, leftovers = into
    offsets = np.array(group.offsets, dtype=np.int64)
    end = group.offsets[-1]
    golden, target = group.golden[:end], group.target[:end]
    sums, kls = segment_sums(golden, target, offsets, th.rtol, th.atol)
    clean = clean_segments(sums, np.diff(offsets).astype(np.float64))
    picked = np.flatnonzero(clean).tolist()
    _extend(columns, _clean_part(group, picked, sums[clean], [kls[k] for k in picked]))
    rows.extend(row_of(group.pos[k]) for k in picked)
    for k in np.flatnonzero(~clean).tolist():
        lo, hi, shape = group.offsets[k], group.offsets[k + 1], group.shapes[k]
        m = segment_metrics(sums[k], kls[k], golden[lo:hi], target[lo:hi])
        leftovers.append(
            Leftover(group.pos[k], golden[lo:hi].reshape(shape), target[lo:hi].reshape(shape), m)
        )


def _clean_part(
    group: _Group, picked: list[int], sums: np.ndarray, kls: list[float | None]
) -> dict[str, list[object]]:
    """Every column of the clean pairs ``picked`` (what :func:`~.rows.compute_row` sets)."""
    shapes = [group.shapes[k] for k in picked]
    name = dtype_name(group.golden.dtype)
    out = clean_columns(sums, kls)
    out["shape"], out["target_shape"] = [list(s) for s in shapes], [list(s) for s in shapes]
    out["dtype"] = out["target_dtype"] = [name] * len(picked)
    out["size"] = [group.offsets[k + 1] - group.offsets[k] for k in picked]
    out.update({key: [value] * len(picked) for key, value in _CONSTANT.items()})
    return out


def _extend(columns: dict[str, list[object]], part: dict[str, list[object]]) -> None:
    for key, values in part.items():
        columns.setdefault(key, []).extend(values)
