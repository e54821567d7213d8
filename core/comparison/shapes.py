"""Lining up a golden and a target tensor whose shapes differ.

A shape mismatch is a finding, not a crash.  Three cases can still be compared:

* the shapes differ only by size-1 dimensions (``[1, 1000]`` vs ``[1000]``): a pure
  reshape, compared as is;
* a standard layout transpose makes them equal (NHWC vs NCHW, NDHWC vs NCDHW, the
  last two axes of a 3-D tensor): the target is transposed to the golden layout and
  the row says so -- a layout mismatch is often *the* bug;
* the sizes are equal but no transpose explains the shapes: compared flat, and the row
  is at least a warning, because the numbers only mean something if it is a reshape.

Different sizes cannot be compared; the row is an error with both shapes.

Layout by values: when more than one axis permutation fits the shapes (a square
tensor, N=1 and C=H=W, is NCHW and NHWC at once; ``H == W`` allows an H/W swap) the
shapes cannot decide.  Then the candidate permutations (bounded: the dims matched as
multisets, at most :data:`MAX_CANDIDATES`) are tried on a strided sample, exact
equality first, else the best cosine, and the row says which one was used.  A pair
whose shapes are equal is only retried when its own cosine is poor (below
:data:`RETRY_COSINE`, SigmaStar's own retry rule), so the common case costs one
sampled dot product at most.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

#: Below this cosine (on the sample) a same-shape pair is retried in other layouts
#: (SigmaStar's compareAccuracy retries a square 4-D tensor transposed below 0.98).
RETRY_COSINE = 0.98
#: At most this many axis permutations are tried by values.
MAX_CANDIDATES = 24
#: Tensors of higher rank are not searched (7! permutations and up).
MAX_RANK = 6
#: Elements of the strided sample a layout is judged on.
SAMPLE = 4096

_LAYOUTS: dict[int, tuple[tuple[tuple[int, ...], str], ...]] = {
    4: (((0, 3, 1, 2), "target is NHWC, golden NCHW: compared after transposing the target to NCHW"),
        ((0, 2, 3, 1), "target is NCHW, golden NHWC: compared after transposing the target to NHWC")),
    5: (((0, 4, 1, 2, 3), "target is NDHWC, golden NCDHW: compared after transposing the target"),
        ((0, 2, 3, 4, 1), "target is NCDHW, golden NDHWC: compared after transposing the target")),
    3: (((0, 2, 1), "the last two axes are swapped: compared after transposing the target"),),
    2: (((1, 0), "the target is transposed: compared after transposing it back"),),
}


@dataclass(frozen=True)
class Aligned:
    golden: np.ndarray
    target: np.ndarray
    note: str = ""
    """What was done to line the tensors up (empty when the shapes were equal)."""
    warn: str = ""
    """Set when the comparison is only meaningful under an assumption."""
    error: str = ""
    """Set when the tensors cannot be compared at all."""


def _fmt(shape: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def align(golden: np.ndarray, target: np.ndarray) -> Aligned:
    """Line up two tensors: as they are, by a layout the shapes or the values imply, or flat."""
    if tuple(golden.shape) == tuple(target.shape):
        return _same_shape(golden, target)
    return _reshaped(golden, target, f"golden {_fmt(tuple(golden.shape))} vs target {_fmt(tuple(target.shape))}")


def _reshaped(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned:
    """Different shapes: an error for different sizes; else squeezed, a known layout, a layout
    the values choose, or flat."""
    if golden.size != target.size:
        return Aligned(golden, target, error=f"shape mismatch: {shapes} ({golden.size} vs {target.size} elements)")
    if _unit_free(golden.shape) == _unit_free(target.shape):
        return _squeezed(golden, target, shapes)
    return _known_layout(golden, target, shapes) or _by_values(golden, target, shapes) or _flat(golden, target, shapes)


def _unit_free(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The shape without its size-1 dims."""
    return tuple(d for d in shape if d != 1)


def _known_layout(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned | None:
    """A named layout transpose (NHWC -> NCHW...) when it is the only axis order the shapes allow."""
    gs, ts = tuple(golden.shape), tuple(target.shape)
    if len(_candidates(gs, ts)) != 1:
        return None
    return next((Aligned(golden, np.transpose(target, perm), note=f"{text} ({shapes})")
                 for perm, text in _LAYOUTS.get(len(gs), ()) if tuple(ts[i] for i in perm) == gs), None)


def _flat(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned:
    """Same size, no layout explains the shapes: compared flat, with a warning."""
    return Aligned(
        golden.reshape(-1),
        target.reshape(-1),
        note=f"{shapes}: same size, compared as flat arrays",
        warn=f"shapes differ ({shapes}) and no layout transpose explains it; numbers are valid only for a pure reshape",
    )


def _ambiguous(golden: np.ndarray, target: np.ndarray) -> bool:
    """Several axis orders fit the shapes and the values, as they are, agree poorly: retry by values."""
    return len(_candidates(golden.shape, target.shape)) > 1 and _sample_cosine(golden, target) < RETRY_COSINE


def _same_shape(golden: np.ndarray, target: np.ndarray) -> Aligned:
    """Equal shapes: as they are, unless a repeated dim allows another layout and the values agree poorly."""
    if not _ambiguous(golden, target):
        return Aligned(golden, target)
    return _by_values(golden, target, f"golden and target {_fmt(golden.shape)}") or Aligned(golden, target)


def _squeezed(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned:
    """Shapes equal but for size-1 dims: a reshape, retried by values when the rest is ambiguous."""
    g = golden.reshape(_unit_free(golden.shape))
    t = target.reshape(_unit_free(target.shape))
    found = _by_values(g, t, shapes) if _ambiguous(g, t) else None
    if found is not None:
        return found
    return Aligned(golden.reshape(-1), target.reshape(-1), note=f"shapes differ only by size-1 dimensions ({shapes})")


def _candidates(gs: tuple[int, ...], ts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Axis permutations of the target that give the golden shape (identity first; capped)."""
    if not _permutable(gs, ts):
        return []
    fits = (perm for perm in _orders(len(ts)) if tuple(ts[i] for i in perm) == tuple(gs))
    return list(itertools.islice(_unique(fits), MAX_CANDIDATES))


def _permutable(gs: tuple[int, ...], ts: tuple[int, ...]) -> bool:
    """The same dims in some order, at most :data:`MAX_RANK` of them."""
    return len(gs) == len(ts) and sorted(gs) == sorted(ts) and len(ts) <= MAX_RANK


def _orders(rank: int) -> Iterator[tuple[int, ...]]:
    """Axis orders to try, best first: the identity, the named layouts, then every permutation."""
    known = [perm for perm, _ in _LAYOUTS.get(rank, ())]
    return itertools.chain([tuple(range(rank))], known, itertools.permutations(range(rank)))


def _unique(items: Iterable[tuple[int, ...]]) -> Iterator[tuple[int, ...]]:
    """``items`` without repeats, lazily, in order."""
    seen: set[tuple[int, ...]] = set()
    for item in items:
        if item not in seen:
            seen.add(item)
            yield item


def _by_values(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned | None:
    """The candidate layout that agrees best with the golden (exact first, else cosine), or None."""
    perms = _candidates(tuple(golden.shape), tuple(target.shape))
    if not perms:
        return None
    scored = [(_score(golden, np.transpose(target, p)), p) for p in perms]
    best_score, best = max(scored, key=lambda item: item[0])
    identity = tuple(range(target.ndim))
    if best == identity:
        return Aligned(golden, target)
    how = "equal values" if best_score[0] else f"sampled cosine {best_score[1]:.4f}"
    note = f"layout chosen by values: target axes permuted {best} ({how}; {len(perms)} layouts fit the shapes, {shapes})"
    return Aligned(golden, np.transpose(target, best), note=note)


def _score(golden: np.ndarray, target: np.ndarray) -> tuple[bool, float]:
    """(exactly equal on the sample, sampled cosine): larger is a better alignment."""
    g, t = _sample(golden), _sample(target)
    return bool(np.array_equal(g, t)), _cosine(g, t)


def _sample(a: np.ndarray) -> np.ndarray:
    """A strided sample of ``a`` in C order (at most :data:`SAMPLE` elements), float64.

    Indexed through the (possibly transposed) view, so no candidate layout is copied whole.
    """
    step = max(1, a.size // SAMPLE)
    positions = np.arange(0, a.size, step)[:SAMPLE]
    return np.asarray(a[np.unravel_index(positions, a.shape)], dtype=np.float64)


def _sample_cosine(golden: np.ndarray, target: np.ndarray) -> float:
    return _cosine(_sample(golden), _sample(target))


def _cosine(g: np.ndarray, t: np.ndarray) -> float:
    """Cosine of two float64 samples over positions finite on both (1.0 when undefined: nothing to retry)."""
    keep = np.isfinite(g) & np.isfinite(t)
    g, t = g[keep], t[keep]
    norm = math.sqrt(float(g @ g) * float(t @ t))
    return float(g @ t) / norm if norm > 0 else 1.0
