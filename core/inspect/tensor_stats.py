"""Element-level facts about one golden/target pair, for the UI's tensor pane.

The comparison frame already holds every metric; what it cannot hold is *where* the
tensors differ: histograms of the error and of each side's values, the first NaN/Inf
positions and the worst elements with their multi-dimensional index.  These are computed
for one selected pair at a time, in two streamed passes over row blocks of (possibly
memory-mapped) data in float64, so memory stays bounded by the block, not the tensor.

Positions are given in the golden tensor's index space, after the same alignment the
metrics use (:func:`dumpscope.core.comparison.shapes.align`: size-1 axes, NHWC/NCHW transposes).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from dumpscope.core.comparison.shapes import align

BLOCK = 1 << 20
"""Elements per streamed block."""


@dataclass(frozen=True)
class Histogram:
    counts: tuple[int, ...]
    edges: tuple[float, float]
    """Low and high edge of the whole range; the bins are of equal width."""


@dataclass(frozen=True)
class Element:
    index: tuple[int, ...]
    golden: float
    target: float
    abs_error: float


@dataclass(frozen=True)
class SideStats:
    nan_at: tuple[tuple[int, ...], ...]
    """Indices of the first few NaN, in flat order."""
    inf_at: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class TensorStats:
    golden: SideStats
    target: SideStats
    error_hist: Histogram | None
    """|target - golden| over positions finite on both sides (None when not comparable)."""
    golden_hist: Histogram | None
    target_hist: Histogram | None
    worst: tuple[Element, ...]
    """Largest |target - golden| first (finite positions only)."""
    note: str = ""
    """How the tensors were lined up, or why they could not be compared element-wise."""


def _blocks(*arrays: np.ndarray) -> Iterator[tuple[int, list[np.ndarray]]]:
    """(flat offset, the float64 block of each array) in C order, by row blocks of the first
    array's leading axis (the arrays have one shape; a 0-d array is one row)."""
    arrays = tuple(np.atleast_1d(x) for x in arrays)
    a = arrays[0]
    per_row = max(1, a.size // max(a.shape[0], 1))
    rows = max(1, BLOCK // per_row)
    for start in range(0, a.shape[0], rows):
        yield (
            start * per_row,
            [np.asarray(x[start : start + rows], dtype=np.float64).reshape(-1) for x in arrays],
        )


def _unravel(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The index in ``shape`` (a 0-d shape as one element) of flat position ``flat``."""
    return tuple(int(i) for i in np.unravel_index(flat, shape or (1,)))


def _first(
    mask: np.ndarray, offset: int, shape: tuple[int, ...], found: list[tuple[int, ...]], limit: int
) -> None:
    """Add the positions where ``mask`` holds (a block at ``offset``) to ``found``, up to ``limit`` in all."""
    if len(found) >= limit:
        return
    found.extend(_unravel(offset + int(flat), shape) for flat in np.flatnonzero(mask)[: limit - len(found)])


def _side(a: np.ndarray, positions: int) -> tuple[SideStats, float, float]:
    """NaN/Inf positions and the finite range of one side."""
    nan_at: list[tuple[int, ...]] = []
    inf_at: list[tuple[int, ...]] = []
    lo, hi = np.inf, -np.inf
    for offset, (block,) in _blocks(a):
        finite = np.isfinite(block)
        _first(np.isnan(block), offset, a.shape, nan_at, positions)
        _first(np.isinf(block), offset, a.shape, inf_at, positions)
        if finite.any():
            vals = block[finite]
            lo, hi = min(lo, float(vals.min())), max(hi, float(vals.max()))
    return SideStats(tuple(nan_at), tuple(inf_at)), lo, hi


def _hist(a: np.ndarray, lo: float, hi: float, bins: int) -> Histogram | None:
    if lo > hi:
        return None
    hi = hi if hi > lo else lo + 1.0
    counts = np.zeros(bins, dtype=np.int64)
    for _, (block,) in _blocks(a):
        counts += np.histogram(block[np.isfinite(block)], bins=bins, range=(lo, hi))[0]
    return Histogram(tuple(int(c) for c in counts), (lo, hi))


def _worst_errors(
    g: np.ndarray, t: np.ndarray, worst: int
) -> tuple[list[tuple[float, int, float, float]], float]:
    """The ``worst`` largest |target - golden| (a min-heap of (error, flat index, golden,
    target)), and the largest finite error (-inf: none).

    A position where the two sides disagree on being finite (NaN/Inf on one side, NaN vs
    Inf, Inf of opposite signs) counts as an infinite error, so non-finite positions are
    listed first; positions non-finite and equal on both sides are left out.
    """
    top: list[tuple[float, int, float, float]] = []
    err_max = -np.inf
    for offset, (gb, tb) in _blocks(g, t):
        err = _block_errors(gb, tb)
        if not err.size or err.max() < 0:
            continue
        err_max = max(err_max, _finite_max(err))
        _push_largest(top, err, offset, gb, tb, worst)
    return top, err_max


def _finite_max(err: np.ndarray) -> float:
    """The largest finite value (-inf: none)."""
    finite = err[np.isfinite(err)]
    return float(finite.max()) if finite.size else -np.inf


def _block_errors(gb: np.ndarray, tb: np.ndarray) -> np.ndarray:
    """|target - golden| of a block: inf where the sides disagree on finiteness, -1 where equal non-finite."""
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf: replaced just below
        err = np.abs(tb.astype(np.float64) - gb.astype(np.float64))
        bad = ~(np.isfinite(gb) & np.isfinite(tb))
        if bad.any():
            agree = bad & ((gb == tb) | (np.isnan(gb) & np.isnan(tb)))
            err[bad] = np.inf
            err[agree] = -1.0
    return err


def _push_largest(
    top: list[tuple[float, int, float, float]],
    err: np.ndarray,
    offset: int,
    gb: np.ndarray,
    tb: np.ndarray,
    worst: int,
) -> None:
    k = min(worst, err.size)
    for i in np.argpartition(err, err.size - k)[err.size - k :]:
        if err[i] >= 0:
            item = (float(err[i]), offset + int(i), float(gb[i]), float(tb[i]))
            (heapq.heappush if len(top) < worst else heapq.heappushpop)(top, item)


def _error_hist(g: np.ndarray, t: np.ndarray, err_max: float, bins: int) -> Histogram:
    """Histogram of |target - golden| over [0, err_max] at positions finite on both sides."""
    counts = np.zeros(bins, dtype=np.int64)
    hi = err_max if err_max > 0 else 1.0
    for _, (gb, tb) in _blocks(g, t):
        both = np.isfinite(gb) & np.isfinite(tb)
        counts += np.histogram(np.abs(tb[both] - gb[both]), bins=bins, range=(0.0, hi))[0]
    return Histogram(tuple(int(c) for c in counts), (0.0, hi))


def tensor_stats(
    golden: np.ndarray,
    target: np.ndarray,
    *,
    bins: int = 64,
    worst: int = 20,
    positions: int = 5,
    declared: tuple[str, str] | None = None,
) -> TensorStats:
    """Histograms, first NaN/Inf positions and the ``worst`` largest differences of a pair
    (lined up as its row is: ``declared``, the layouts the dumps declare, see
    :func:`~dumpscope.core.comparison.shapes.declared_layouts`)."""
    aligned = align(golden, target, declared)
    g, t = aligned.golden, aligned.target
    g_side, g_lo, g_hi = _side(g, positions)
    t_side, t_lo, t_hi = _side(t, positions)
    g_hist, t_hist = _hist(g, g_lo, g_hi, bins), _hist(t, t_lo, t_hi, bins)
    if aligned.error:
        return TensorStats(g_side, t_side, None, g_hist, t_hist, (), aligned.error)

    top, err_max = _worst_errors(g, t, worst)
    err_hist = _error_hist(g, t, err_max, bins) if err_max >= 0 else None
    shape = tuple(g.shape)
    elements = tuple(
        Element(_unravel(flat, shape), gv, tv, e)
        for e, flat, gv, tv in sorted(top, key=lambda item: (-item[0], item[1]))
    )
    return TensorStats(g_side, t_side, err_hist, g_hist, t_hist, elements, aligned.note)
