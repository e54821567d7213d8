"""Layout mismatch: a tensor that holds the golden values with its axes permuted.

A graph input fed in another layout (NHWC for NCHW, H and W swapped) is not a
pre-processing fault of the values but of the layout: the cause is *layout mismatch*.
The comparison may already have found the aligning permutation (a ``permutation``
column); otherwise, for the few rows asked about, it is searched here over every axis
order (at most 720 for six axes; inputs are small and read once).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.dumps import TensorReadError

#: Tensors with more axes are not searched (the number of orders grows factorially).
MAX_AXES = 6


def aligning_permutation(golden: np.ndarray, target: np.ndarray) -> tuple[int, ...] | None:
    """A non-identity axis order ``p`` with ``target.transpose(p)`` equal to ``golden``
    (NaN equal to NaN, float32 rounding tolerated), else None."""
    if golden.size != target.size or golden.ndim != target.ndim or not 1 < golden.ndim <= MAX_AXES:
        return None
    g = np.asarray(golden, dtype=np.float64)
    t = np.asarray(target, dtype=np.float64)
    identity = tuple(range(g.ndim))
    if g.shape == t.shape and np.allclose(t, g, rtol=1e-6, atol=0.0, equal_nan=True):
        return None  # already aligned: a permutation that also fits is a symmetry, not a layout
    for p in permutations(identity):
        if p == identity or tuple(t.shape[i] for i in p) != g.shape:
            continue
        if np.allclose(t.transpose(p), g, rtol=1e-6, atol=0.0, equal_nan=True):
            return p
    return None


def input_permutation(cmp: Comparison, row: int) -> tuple[int, ...] | None:
    """The axis order that aligns row ``row``'s target with its golden tensor, if one exists."""
    if "permutation" in cmp.frame.columns:
        known = cmp.frame["permutation"][row]
        if known is not None and len(known):
            return tuple(int(i) for i in known)
    try:
        golden, target = cmp.load_pair(row)
    except (TensorReadError, IndexError, AssertionError):
        return None
    if golden is None or target is None:
        return None
    return aligning_permutation(np.asarray(golden), np.asarray(target))
