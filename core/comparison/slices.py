"""Per-slice metrics along the channel axis: damage that whole-tensor metrics hide.

A YOLO head concatenates box coordinates (0-316) and class scores (0-1); an int8
target that shares one scale across them destroys the class scores (relative error
0.56), yet the whole tensor reads cosine 0.9994, because the boxes dominate every sum.
So for a tensor with a channel axis (rank >= 3: axis 1, as NCHW / NCL / N,C,anchors)
each channel slice gets its own cosine and relative Euclidean distance, and the row
carries the worst of each plus the index of the slice with the worst distance.  The
judge reads them with the same bands as the whole-tensor metrics.

Cost: one float64 pass over the pair, channel block by channel block (memory bounded
by :data:`BLOCK` elements), only for rows that differ at all (an exact pair has no worse
slice), for activations (a weight's axis 1 is its input channels), and only where the
axis has 2..:data:`MAX_SLICES` slices of 2+ elements.

Judged (:mod:`judge`): a slice is *destroyed* when its relative distance reaches
:data:`~dumpscope.core.comparison.judge.SLICE_DESTROYED` (half of the slice's norm is
error), in every float band; the row fails.  Lesser slice damage is reported, not judged:
in fp16/int8 runs small channels carry relative errors of 0.05-0.3 inherited from
their larger neighbours, which is drift, not a fault.
Positions non-finite on either side are left out (the row already fails on them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["AXIS", "SliceMetrics", "slice_metrics"]

#: The channel axis sliced along.
AXIS = 1
#: More slices than this is not a channel axis (a sequence, a flattened map): not sliced.
MAX_SLICES = 4096
#: Elements handled at a time (memory bound).
BLOCK = 1 << 16
#: A slice with at least this relative distance is destroyed (see :mod:`judge`).
DESTROYED = 0.5


@dataclass(frozen=True)
class SliceMetrics:
    """The worst channel slice of a pair."""

    cosine: float | None
    """Lowest cosine over the slices (None when no slice has one)."""
    relative_distance: float
    """Largest ``||t_c - g_c|| / ||g_c||`` (``inf`` for an all-zero golden slice with a non-zero target)."""
    worst: int
    """Index along :data:`AXIS` of the slice with the largest relative distance."""
    slices: int


def sliceable(shape: tuple[int, ...]) -> bool:
    """A channel axis with 2..MAX_SLICES slices of at least two elements each."""
    if len(shape) < 3 or not 2 <= shape[AXIS] <= MAX_SLICES:
        return False
    return math.prod(shape) // max(1, shape[AXIS]) >= 2


#: Elements per channel run below which the kernel does not sum the golden's energy per slice
#: (a call per run: cheaper in one numpy pass then).
MIN_RUN = 64


def slice_layout(shape: tuple[int, ...]) -> tuple[int, int] | None:
    """``(channels, inner)`` of a shape :func:`slice_metrics` slices, for the metric kernel to sum
    the golden's energy per slice while it reads the pair (None: not sliceable, or runs too short)."""
    if not sliceable(shape):
        return None
    inner = math.prod(shape[AXIS + 1 :])
    return (shape[AXIS], inner) if inner >= MIN_RUN else None


def slice_metrics(
    golden: np.ndarray,
    target: np.ndarray,
    floor: float = 0.0,
    error_energy: float | None = None,
    golden_energy: np.ndarray | None = None,
) -> SliceMetrics | None:
    """The worst slice of two equal-shape tensors along :data:`AXIS`.

    Only slices whose RMS error exceeds ``floor`` (the band's absolute floor) compete: a
    channel of values ~1e-8 that fp16 flushes to zero is "destroyed" relatively, yet moves
    nothing.  An all-zero golden slice (a dead channel) has no relative error to speak
    of and does not compete either.  None when the tensor is not sliceable or no slice
    competes.

    ``error_energy`` (the pair's whole sum of squared differences, known from the kernel)
    makes it a candidate test first: a slice can only reach :data:`DESTROYED` if its golden
    energy is at most ``error_energy / DESTROYED**2``; when no slice is that small, one
    cheap pass over the golden decides and None is returned.  ``golden_energy``: the golden's
    energy per slice already summed (in float64, by the metric kernel while it read the pair:
    :func:`slice_layout`), so that this test reads nothing; the slices that compete are
    then measured here as without it.
    """
    if golden.shape != target.shape or not sliceable(golden.shape):
        return None
    n, c = golden.shape[0], golden.shape[AXIS]
    g3, t3 = golden.reshape(n, c, -1), target.reshape(n, c, -1)
    known = golden_energy is not None and golden_energy.shape == (c,)
    first = golden_energy if golden_energy is not None and known else _energies(g3)
    if error_energy is not None and not (first[first > 0] <= error_energy / DESTROYED**2).any():
        return None
    sgg = _energies(g3) if known else first
    stt, (sdd, sgt) = _energies(t3), _error_energies(g3, t3)
    return _worst(sgg, stt, sdd, sgt, (np.sqrt(sdd / g3[0, 0].size / n) > floor) & (sgg > 0))


def _work(a: np.ndarray) -> type[np.floating]:
    return np.float32 if a.dtype.kind == "f" and a.dtype.itemsize <= 4 else np.float64


def _blocks(a3: np.ndarray, whole_rows: bool = True):
    """(channel slice, index of axis 0, rows of axis 0) pieces of at most about :data:`BLOCK`
    elements: one row and a run of channels, or, where a whole row is smaller than that (a weight's
    ``(out, in, 1, 1)``: a row of a few hundred values, thousands of rows) and ``whole_rows`` allows
    (C-contiguous tensors), several whole rows at once (see :func:`_rowwise`)."""
    n = a3.shape[0]
    rows = BLOCK // max(1, a3.shape[1] * a3.shape[2]) if whole_rows else 0
    if rows > 1 and n > 1:
        for i in range(0, n, rows):
            yield slice(None), i, min(rows, n - i)
        return
    step = max(1, BLOCK // a3.shape[2])
    for i in range(n):
        for lo in range(0, a3.shape[1], step):
            yield slice(lo, lo + step), i, 1


def _block(a3: np.ndarray, i: int, rows: int, sl: slice, work: type | np.dtype) -> np.ndarray:
    """The block of ``rows`` rows of axis 0 from ``i`` (channels ``sl``) in ``work``, 2-D (see
    :func:`_rowwise`)."""
    return _rowwise(np.asarray(a3[i, sl] if rows == 1 else a3[i : i + rows, sl], dtype=work))


def _rowwise(a: np.ndarray) -> np.ndarray:
    """A block as the 2-D ``(slices, inner)`` array whose rows einsum reduces: a block of one row of
    axis 0 as it is (as always), a block of several whole rows (C-contiguous) as one
    ``(rows * slices, inner)`` array, each of whose rows einsum reduces exactly as in a block of its
    own (the same contiguous inner loop; ``tests/core/comparison/test_slices.py`` checks it bit for
    bit against a block per row)."""
    return a if a.ndim == 2 else a.reshape(-1, a.shape[2])


def _add_rows(out: np.ndarray, sl: slice, part: np.ndarray, rows: int) -> None:
    """``out[sl] +=`` each row's part, in the order of axis 0: a channel's sum adds the rows in the
    same order, one at a time, whatever the blocks."""
    if rows == 1:
        out[sl] += part
        return
    for p in part.reshape(rows, -1):
        out[sl] += p


def _energies(a3: np.ndarray) -> np.ndarray:
    """Per-slice sum of squares of the finite values (einsum: no temporary array)."""
    out = np.zeros(a3.shape[1])
    for sl, i, rows in _blocks(a3, a3.flags.c_contiguous):
        part = _energy(_block(a3, i, rows, sl, _work(a3)), rows > 1)
        if part is not None:
            _add_rows(out, sl, part, rows)
            continue
        for k in range(i, i + rows):  # several rows, a NaN/Inf among them: each row on its own, as always
            one = _energy(_block(a3, k, 1, sl, _work(a3)))
            assert one is not None, "a single row is always summed"
            _add_rows(out, sl, one, 1)
    return out


def _energy(block: np.ndarray, fast_only: bool = False) -> np.ndarray | None:
    """Each row's sum of squares of its finite values (None, with ``fast_only``, when a row has a
    NaN/Inf: the caller redoes the rows one by one)."""
    with np.errstate(invalid="ignore", over="ignore"):
        part = np.einsum("ij,ij->i", block, block)
    if not np.isfinite(part).all():
        if fast_only:
            return None
        block = np.where(np.isfinite(block), block, 0)
        part = np.einsum("ij,ij->i", block, block, dtype=np.float64)
    return part


def _error_energies(g3: np.ndarray, t3: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-slice sums of (t - g)^2 (where the difference is finite) and of t * g (where both
    sides are finite), over each block while it is in cache."""
    work = np.promote_types(_work(g3), _work(t3))
    out, dots = np.zeros(g3.shape[1]), np.zeros(g3.shape[1])
    for sl, i, rows in _blocks(g3, g3.flags.c_contiguous and t3.flags.c_contiguous):
        both = _error_energy(_block(g3, i, rows, sl, work), _block(t3, i, rows, sl, work), rows > 1)
        if both is None:  # several rows, a NaN/Inf among them: each row on its own, as always
            for k in range(i, i + rows):
                one = _error_energy(_block(g3, k, 1, sl, work), _block(t3, k, 1, sl, work))
                assert one is not None, "a single row is always summed"
                _add_rows(out, sl, one[0], 1)
                _add_rows(dots, sl, one[1], 1)
            continue
        _add_rows(out, sl, both[0], rows)
        _add_rows(dots, sl, both[1], rows)
    return out, dots


def _error_energy(
    g: np.ndarray, t: np.ndarray, fast_only: bool = False
) -> tuple[np.ndarray, np.ndarray] | None:
    """Each row's sum of (t - g)^2 and of t * g over its finite positions (None, with ``fast_only``,
    when a row has a NaN/Inf: the caller redoes the rows one by one)."""
    with np.errstate(invalid="ignore", over="ignore"):
        d = t - g
        part, dot = np.einsum("ij,ij->i", d, d), np.einsum("ij,ij->i", g, t)
    if not (np.isfinite(part).all() and np.isfinite(dot).all()):
        if fast_only:
            return None
        d[~np.isfinite(d)] = 0
        both = np.isfinite(g) & np.isfinite(t)
        part = np.einsum("ij,ij->i", d, d, dtype=np.float64)
        dot = np.einsum("ij,ij->i", np.where(both, g, 0), np.where(both, t, 0), dtype=np.float64)
    return part, dot


def _worst(
    sgg: np.ndarray, stt: np.ndarray, sdd: np.ndarray, sgt: np.ndarray, above: np.ndarray
) -> SliceMetrics | None:
    """Worst cosine and relative distance over the slices ``above`` the floor.

    A slice whose target is all zero while its golden is not has cosine 0 (as a whole
    tensor has); a slice all zero on both sides has none.
    """
    if not above.any():
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        red = np.where(sgg > 0, np.sqrt(sdd / sgg), np.where(sdd > 0, np.inf, 0.0))
        norm = np.sqrt(sgg) * np.sqrt(stt)
        # from the dot product itself: (sgg + stt - sdd) / 2 cancels where one side's norm dwarfs the other's
        cos = np.where(norm > 0, sgt / norm, np.where(sgg > 0, 0.0, np.nan))
    red = np.where(above, red, -1.0)
    cos = np.where(above, cos, np.nan)
    defined = cos[~np.isnan(cos)]
    worst = int(np.argmax(red))
    low = float(np.clip(defined.min(), -1.0, 1.0)) if defined.size else None
    return SliceMetrics(low, float(red[worst]), worst, int(sgg.size))
