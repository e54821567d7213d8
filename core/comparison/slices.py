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
#: Elements converted to float64 at a time.
BLOCK = 1 << 16


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


def slice_metrics(golden: np.ndarray, target: np.ndarray, floor: float = 0.0) -> SliceMetrics | None:
    """The worst slice of two equal-shape tensors along :data:`AXIS`.

    Only slices whose RMS error exceeds ``floor`` (the band's absolute floor) compete: a
    channel of values ~1e-8 that fp16 flushes to zero is "destroyed" relatively, yet moves
    nothing.  An all-zero golden slice (a dead channel) has no relative error to speak
    of and does not compete either.  None when the tensor is not sliceable or no slice
    competes.
    """
    if golden.shape != target.shape or not sliceable(golden.shape):
        return None
    n, c = golden.shape[0], golden.shape[AXIS]
    g3, t3 = golden.reshape(n, c, -1), target.reshape(n, c, -1)
    sgg, stt, sdd = (np.zeros(c) for _ in range(3))
    step = max(1, BLOCK // g3.shape[2])
    for i in range(n):
        for lo in range(0, c, step):
            _accumulate(g3[i, lo : lo + step], t3[i, lo : lo + step], sgg[lo : lo + step], stt[lo : lo + step], sdd[lo : lo + step])
    per_slice = golden.size // golden.shape[AXIS]
    return _worst(sgg, stt, sdd, (np.sqrt(sdd / per_slice) > floor) & (sgg > 0))


def _accumulate(g: np.ndarray, t: np.ndarray, sgg: np.ndarray, stt: np.ndarray, sdd: np.ndarray) -> None:
    """Add one block's per-slice sums of g*g, t*t and (t-g)^2; non-finite positions left out.

    Element-wise work in float32 for float32-or-narrower data (a square or difference of
    float32 values is correctly rounded to 6e-8), each slice's sum pairwise (numpy's
    ``add.reduce`` along a contiguous axis) and accumulated across blocks in float64: the
    sums agree with a float64 reference to ~1e-6 relative, ample for a verdict at 0.5.
    """
    work = np.float32 if max(g.dtype.itemsize, t.dtype.itemsize) <= 4 and g.dtype.kind == t.dtype.kind == "f" else np.float64
    g = np.asarray(g, dtype=work)
    t = np.asarray(t, dtype=work)
    with np.errstate(invalid="ignore", over="ignore"):
        d = t - g
        bad = ~np.isfinite(d)
        if bad.any():
            g, t = np.where(bad, 0, g), np.where(bad, 0, t)
            d[bad] = 0
        for out, a in ((sgg, g), (stt, t), (sdd, d)):
            out += np.add.reduce(np.square(a, dtype=work), axis=-1, dtype=np.float64 if work is np.float64 else None)


def _worst(sgg: np.ndarray, stt: np.ndarray, sdd: np.ndarray, above: np.ndarray) -> SliceMetrics | None:
    """Worst cosine and relative distance over the slices ``above`` the floor.

    A slice whose target is all zero while its golden is not has cosine 0 (as a whole
    tensor has); a slice all zero on both sides has none.
    """
    if not above.any():
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        red = np.where(sgg > 0, np.sqrt(sdd / sgg), np.where(sdd > 0, np.inf, 0.0))
        norm = np.sqrt(sgg) * np.sqrt(stt)
        cos = np.where(norm > 0, (sgg + stt - sdd) / 2.0 / norm, np.where(sgg > 0, 0.0, np.nan))
    red = np.where(above, red, -1.0)
    cos = np.where(above, cos, np.nan)
    defined = cos[~np.isnan(cos)]
    worst = int(np.argmax(red))
    low = float(np.clip(defined.min(), -1.0, 1.0)) if defined.size else None
    return SliceMetrics(low, float(red[worst]), worst, int(sgg.size))
