"""Layout mismatch: a tensor that holds the golden values with its axes permuted.

A graph input fed in another layout (NHWC for NCHW, H and W swapped) is not a
pre-processing fault of the values but of the layout: the cause is *layout mismatch*.
The comparison may already have found the aligning permutation (a ``permutation``
column); otherwise, for the few rows asked about, it is searched here over every axis
order (at most 720 for six axes; inputs are small and read once).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations

import numpy as np

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.dumps import TensorReadError

#: Tensors with more axes are not searched (the number of orders grows factorially).
MAX_AXES = 6


def aligning_permutation(golden: np.ndarray, target: np.ndarray) -> tuple[int, ...] | None:
    """A non-identity axis order ``p`` with ``target.transpose(p)`` equal to ``golden``
    (NaN equal to NaN, float32 rounding tolerated), else None."""
    if not _searchable(golden, target):
        return None
    g = np.asarray(golden, dtype=np.float64)
    t = np.asarray(target, dtype=np.float64)
    if g.shape == t.shape and _equal(t, g):
        return None  # already aligned: a permutation that also fits is a symmetry, not a layout
    return next((p for p in _reorders(t.shape, g.shape) if _equal(t.transpose(p), g)), None)


def _searchable(golden: np.ndarray, target: np.ndarray) -> bool:
    """Same size and number of axes, 2 to :data:`MAX_AXES` of them."""
    return golden.size == target.size and golden.ndim == target.ndim and 1 < golden.ndim <= MAX_AXES


def _equal(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal up to float32 rounding, NaN equal to NaN."""
    return bool(np.allclose(a, b, rtol=1e-6, atol=0.0, equal_nan=True))


def _reorders(have: tuple[int, ...], want: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """The non-identity axis orders turning shape ``have`` into ``want`` (lazily, in lexical order)."""
    identity = tuple(range(len(have)))
    return (p for p in permutations(identity) if p != identity and tuple(have[i] for i in p) == want)


def input_permutation(cmp: Comparison, row: int) -> tuple[int, ...] | None:
    """The axis order that aligns row ``row``'s target with its golden tensor, if one exists: the
    comparison's when it found one, else searched on the tensors."""
    known = _known_permutation(cmp, row)
    if known is not None:
        return known
    pair = _loaded_pair(cmp, row)
    return aligning_permutation(*pair) if pair is not None else None


def _known_permutation(cmp: Comparison, row: int) -> tuple[int, ...] | None:
    """The permutation the comparison recorded for ``row`` (None when it recorded none)."""
    known = cmp.frame["permutation"][row] if "permutation" in cmp.frame.columns else None
    return tuple(int(i) for i in known) if known is not None and len(known) else None


def _loaded_pair(cmp: Comparison, row: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Row ``row``'s golden and target tensors, None when either is missing or unreadable."""
    try:
        golden, target = cmp.load_pair(row)
    except (TensorReadError, IndexError, AssertionError):
        return None
    if golden is None or target is None:
        return None
    return np.asarray(golden), np.asarray(target)
