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
shapes cannot decide.  A layout a dump *declares* is used as declared (a SigmaStar
record's ``layout=NHWC``); else the candidate permutations (bounded: the dims matched as
multisets, at most :data:`MAX_CANDIDATES`) are scored on a strided sample and one is
adopted only when it is *decisive* (:func:`decisive`): equal values, or a high cosine
that every other candidate, the identity included, is clearly below.  The best of bad
candidates is never adopted: the pair is then compared as declared (or flat, warned).

A pair whose shapes are equal is always compared as it is: its shape is the layout it
declares.  When its values agree poorly (below :data:`RETRY_COSINE` on the sample) the
other axis orders are scored all the same, and a decisive one is reported on
:attr:`Aligned.permuted` (a layout mismatch), never silently applied -- so the same two
tensors give the same numbers from any container.

:func:`find_layout` is the one search the diagnosis and the replay use too: it also reads
the target's buffer in every order of the golden's axes (an NHWC buffer declared NCHW).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from dumpscope.core.dumps import TensorRef

#: Below this cosine (on the sample) a same-shape pair is retried in other layouts
#: (SigmaStar's compareAccuracy retries a square 4-D tensor transposed below 0.98).
RETRY_COSINE = 0.98
#: At most this many axis permutations are tried by values.
MAX_CANDIDATES = 24
#: Tensors of higher rank are not searched (7! permutations and up).
MAX_RANK = 6
#: Elements of the strided sample a layout is judged on.
SAMPLE = 4096

#: Decisive (see :func:`decisive`): values equal to this relative tolerance (float32 rounding
#: of a copy; NaN equal to NaN) ...
EXACT_RTOL = 1e-6
#: ... or a sampled cosine at least this high under the permutation (a layout fault under
#: fp16 rounding keeps ~0.99999, under int8 per-tensor quantisation ~0.999) ...
DECISIVE_COSINE = 0.99
#: ... with every other candidate, the identity included, at least this many times further
#: from the golden (1 - cosine): a clear winner, not the best of several bad ones.
DECISIVE_MARGIN = 10.0

_LAYOUTS: dict[int, tuple[tuple[tuple[int, ...], str], ...]] = {
    4: (
        ((0, 3, 1, 2), "target is NHWC, golden NCHW: compared after transposing the target to NCHW"),
        ((0, 2, 3, 1), "target is NCHW, golden NHWC: compared after transposing the target to NHWC"),
    ),
    5: (
        ((0, 4, 1, 2, 3), "target is NDHWC, golden NCDHW: compared after transposing the target"),
        ((0, 2, 3, 4, 1), "target is NCDHW, golden NDHWC: compared after transposing the target"),
    ),
    3: (((0, 2, 1), "the last two axes are swapped: compared after transposing the target"),),
    2: (((1, 0), "the target is transposed: compared after transposing it back"),),
}

#: The permutation taking a tensor stored in a declared 4-D layout to the other side's.
_DECLARED = {("NCHW", "NHWC"): (0, 3, 1, 2), ("NHWC", "NCHW"): (0, 2, 3, 1)}


@dataclass(frozen=True)
class Layout:
    """An axis order that lines the target up with the golden: the target's buffer read
    as ``stored`` (its own shape, unless searched in every order), then its axes
    permuted by ``perm``.  ``declared`` names the dump's declaration when no values were
    measured; otherwise ``exact``, ``cosine`` (sampled, under this order) and
    ``runner_up`` (the best sampled cosine of any other candidate, the identity included)
    are the measurement that made it decisive."""

    perm: tuple[int, ...]
    stored: tuple[int, ...]
    exact: bool = False
    cosine: float = 1.0
    runner_up: float | None = None
    candidates: int = 1
    declared: str = ""
    reread: bool = False
    """The buffer is read as ``stored``, not as the target's own shape."""

    def apply(self, target: np.ndarray) -> np.ndarray:
        """``target`` in the golden's layout (a view when the buffer allows)."""
        return np.transpose(np.reshape(target, self.stored), self.perm)

    def order(self) -> str:
        """The axis order in words: ``(0, 3, 1, 2)``, or read as a shape first."""
        if not self.reread:
            return str(self.perm)
        held = tuple(int(i) for i in np.argsort(self.perm))
        return f"{held} of the golden's axes, its buffer read as {list(self.stored)}"

    def agreement(self) -> str:
        """What was measured under this order, in words."""
        if self.declared:
            return f"declared by the dump ({self.declared})"
        how = "equal values" if self.exact else f"sampled cosine {self.cosine:.4f}"
        other = f", the next best {self.runner_up:.4f}" if self.runner_up is not None else ""
        return f"{how}{other}; {self.candidates} layouts tried"


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
    layout: Layout | None = None
    """The axis order applied to the target (None: compared as it is, squeezed or flat)."""
    permuted: Layout | None = None
    """Equal shapes compared as they are, whose values decisively match the golden only under
    this axis order: a layout mismatch (see the module docstring)."""


def _fmt(shape: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def align(golden: np.ndarray, target: np.ndarray, declared: tuple[str, str] | None = None) -> Aligned:
    """Line up two tensors: as they are, by the layouts the dumps declare (``declared``: the
    golden's and the target's, e.g. ``("NCHW", "NHWC")``), by a layout the shapes or the
    values decisively imply, or flat."""
    by_declaration = _declared(golden, target, declared)
    if by_declaration is not None:
        return by_declaration
    if tuple(golden.shape) == tuple(target.shape):
        return _same_shape(golden, target)
    return _reshaped(
        golden, target, f"golden {_fmt(tuple(golden.shape))} vs target {_fmt(tuple(target.shape))}"
    )


def _declared(golden: np.ndarray, target: np.ndarray, declared: tuple[str, str] | None) -> Aligned | None:
    """The target transposed to the golden's layout when both are declared and differ (4-D)."""
    if declared is None or golden.ndim != 4 or target.ndim != 4:
        return None
    perm = _DECLARED.get(declared)
    if perm is None or tuple(target.shape[i] for i in perm) != tuple(golden.shape):
        return None
    layout = Layout(perm, tuple(target.shape), declared=f"golden {declared[0]}, target {declared[1]}")
    note = (
        f"target is {declared[1]}, golden {declared[0]} (as the dumps declare): "
        f"compared after transposing the target to {declared[0]}"
    )
    return Aligned(golden, layout.apply(target), note=note, layout=layout)


def declared_layouts(golden: TensorRef | None, target: TensorRef | None) -> tuple[str, str] | None:
    """The 4-D layouts two tensors' readers declare (a SigmaStar record's ``layout=NHWC``; a side
    that declares none is NCHW), None when neither declares one: :func:`align`'s ``declared``."""
    g, t = (_layout_of(ref) for ref in (golden, target))
    return (g or "NCHW", t or "NCHW") if g or t else None


def _layout_of(ref: TensorRef | None) -> str | None:
    """The layout a tensor's reader declares (its ``layout`` fact), None without one."""
    return next((str(v) for k, v in ref.info.extra if k == "layout"), None) if ref is not None else None


def _reshaped(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned:
    """Different shapes: an error for different sizes; else squeezed, a known layout, a layout
    the values decisively choose, or flat."""
    if golden.size != target.size:
        return Aligned(
            golden, target, error=f"shape mismatch: {shapes} ({golden.size} vs {target.size} elements)"
        )
    if _unit_free(golden.shape) == _unit_free(target.shape):
        return _squeezed(golden, target, shapes)
    return (
        _known_layout(golden, target, shapes)
        or _by_values(golden, target, shapes)
        or _conventional(golden, target, shapes)
        or _flat(golden, target, shapes)
    )


def _unit_free(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The shape without its size-1 dims."""
    return tuple(d for d in shape if d != 1)


def _known_layout(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned | None:
    """The target transposed when one axis order alone gives the golden's shape (NHWC -> NCHW...)."""
    gs, ts = tuple(golden.shape), tuple(target.shape)
    only = _candidates(gs, ts)
    if len(only) != 1:
        return None
    perm = only[0]
    text = dict(_LAYOUTS.get(len(gs), ())).get(
        perm, f"target axes permuted {perm}, the only order the shapes allow: compared after transposing it"
    )
    return Aligned(golden, np.transpose(target, perm), note=f"{text} ({shapes})", layout=Layout(perm, ts))


def _conventional(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned | None:
    """Several orders fit the shapes, the values decide none, and one is a named layout (NHWC
    for NCHW): compared in it, named, with a warning (never passed off as measured)."""
    gs, ts = tuple(golden.shape), tuple(target.shape)
    fits = _candidates(gs, ts)
    named = [(perm, text) for perm, text in _LAYOUTS.get(len(gs), ()) if perm in fits]
    if not named:
        return None
    perm, text = named[0]
    return Aligned(
        golden,
        np.transpose(target, perm),
        note=f"{text} ({shapes})",
        layout=Layout(perm, ts),
        warn=f"{len(fits)} layouts fit the shapes ({shapes}) and the values decide none: "
        f"compared in the usual one, {perm}",
    )


def _flat(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned:
    """Same size, no layout explains the shapes: compared flat, with a warning."""
    return Aligned(
        golden.reshape(-1),
        target.reshape(-1),
        note=f"{shapes}: same size, compared as flat arrays",
        warn=f"shapes differ ({shapes}) and no layout transpose explains it; numbers are valid only for a "
        "pure reshape",
    )


def _ambiguous(golden: np.ndarray, target: np.ndarray) -> bool:
    """Several axis orders fit the shapes and the values, as they are, agree poorly: retry by values."""
    return len(_candidates(golden.shape, target.shape)) > 1 and _sample_cosine(golden, target) < RETRY_COSINE


def _same_shape(golden: np.ndarray, target: np.ndarray) -> Aligned:
    """Equal shapes: compared as they are; a decisive other axis order is reported, not applied."""
    if not _ambiguous(golden, target):
        return Aligned(golden, target)
    return Aligned(golden, target, permuted=search(golden, target, _own_orders(golden, target)))


def _squeezed(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned:
    """Shapes equal but for size-1 dims: a reshape, retried by values when the rest is ambiguous."""
    g = golden.reshape(_unit_free(golden.shape))
    t = target.reshape(_unit_free(target.shape))
    found = _by_values(g, t, shapes) if _ambiguous(g, t) else None
    if found is not None:
        return found
    return Aligned(
        golden.reshape(-1), target.reshape(-1), note=f"shapes differ only by size-1 dimensions ({shapes})"
    )


def _candidates(gs: tuple[int, ...], ts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Axis permutations of the target that give the golden shape (identity first; capped)."""
    if not _permutable(gs, ts):
        return []
    fits = (perm for perm in _orders(len(ts)) if tuple(ts[i] for i in perm) == tuple(gs))
    return list(
        itertools.islice(_unique(fits, key=lambda perm: tuple(i for i in perm if ts[i] != 1)), MAX_CANDIDATES)
    )


def _permutable(gs: tuple[int, ...], ts: tuple[int, ...]) -> bool:
    """The same dims in some order, at most :data:`MAX_RANK` of them."""
    return len(gs) == len(ts) and sorted(gs) == sorted(ts) and len(ts) <= MAX_RANK


def _orders(rank: int) -> Iterator[tuple[int, ...]]:
    """Axis orders to try, best first: the identity, the named layouts, then every permutation."""
    known = [perm for perm, _ in _LAYOUTS.get(rank, ())]
    return itertools.chain([tuple(range(rank))], known, itertools.permutations(range(rank)))


def _unique(
    items: Iterable[tuple[int, ...]],
    key: Callable[[tuple[int, ...]], tuple[int, ...]] = tuple,
) -> Iterator[tuple[int, ...]]:
    """``items`` without repeats (by ``key``: orders that differ only in where size-1 axes go
    move no value and are one candidate), lazily, in order."""
    seen: set[tuple[int, ...]] = set()
    for item in items:
        if key(item) not in seen:
            seen.add(key(item))
            yield item


def _own_orders(golden: np.ndarray, target: np.ndarray) -> list[Layout]:
    """The candidates of the target's own shape: its axes permuted (identity first)."""
    ts = tuple(target.shape)
    return [Layout(p, ts) for p in _candidates(tuple(golden.shape), ts)]


def _buffer_orders(golden: np.ndarray) -> list[Layout]:
    """The candidates of a buffer in any order of the golden's axes: read as the golden's
    non-unit dims in order ``q``, then transposed back (identity first; at most
    :data:`MAX_CANDIDATES`).  ``stored`` is in the golden's squeezed shape."""
    dims = _unit_free(tuple(golden.shape))
    if not 1 < len(dims) <= MAX_RANK:
        return []
    orders = itertools.islice(itertools.permutations(range(len(dims))), MAX_CANDIDATES)
    return [
        Layout(tuple(int(i) for i in np.argsort(q)), tuple(dims[i] for i in q), reread=True) for q in orders
    ]


def _by_values(golden: np.ndarray, target: np.ndarray, shapes: str) -> Aligned | None:
    """The candidate layout the values decisively choose, or None (identity chosen: as it is)."""
    perms = _own_orders(golden, target)
    if not perms:
        return None
    found = search(golden, target, perms)
    if found is None:
        return None
    note = f"layout chosen by values: target axes permuted {found.perm} ({found.agreement()}, {shapes})"
    return Aligned(golden, found.apply(target), note=note, layout=found)


def find_layout(
    golden: np.ndarray, target: np.ndarray, declared: tuple[str, str] | None = None
) -> Layout | None:
    """The axis order in which ``target`` holds ``golden``'s values, when one is decisive and
    the comparison (:func:`align`, with the dumps' ``declared`` layouts) did not already
    apply it: a same-shape pair's :attr:`Aligned.permuted`, else the target's buffer read in
    every order of the golden's axes (an NHWC buffer declared NCHW), by the same scoring and
    rule.  None when the sizes differ, the pair as compared already agrees (sampled cosine at
    least :data:`RETRY_COSINE`), or no order is decisive."""
    aligned = align(golden, target, declared)
    if aligned.error or golden.size < 2:
        return None
    if aligned.permuted is not None:
        return aligned.permuted
    if _sample_cosine(aligned.golden, aligned.target.reshape(aligned.golden.shape)) >= RETRY_COSINE:
        return None
    return search(golden.reshape(_unit_free(tuple(golden.shape))), target, _buffer_orders(golden))


def search(golden: np.ndarray, target: np.ndarray, candidates: list[Layout]) -> Layout | None:
    """The decisive candidate (not the identity), scored on the sample and confirmed on the
    whole tensors, else None.  The numbers it carries are the whole tensors' when the
    sample's clear winner had to be confirmed."""
    if len(candidates) < 2:
        return None
    scores = [_score(golden, c.apply(target)) for c in candidates]
    whole: list[tuple[bool, float]] = []

    def confirm(i: int) -> bool:
        if scores[i][0]:
            return _exact(golden, candidates[i].apply(target))
        whole[:] = [(False, _whole_cosine(golden, c.apply(target))) for c in candidates]
        return decisive(whole) == i

    best = decisive(scores, confirm)
    if best is None or candidates[best].perm == tuple(range(len(candidates[best].perm))):
        return None  # as it is (or the buffer read in the golden's own order): nothing to adopt
    measured = whole or scores
    others = [cos for i, (_, cos) in enumerate(measured) if i != best]
    return replace(
        candidates[best],
        exact=scores[best][0] and not whole,
        cosine=measured[best][1],
        runner_up=max(others),
        candidates=len(candidates),
    )


def decisive(scores: list[tuple[bool, float]], confirm: Callable[[int], bool] | None = None) -> int | None:
    """The index of the candidate to adopt among ``scores`` ((equal on the sample, sampled
    cosine) per candidate, the identity first), or None when none is decisive.

    Decisive means one of:

    * **equal values**: the first candidate whose sample equals the golden's to
      :data:`EXACT_RTOL`.  A layout fault in a copy moves values, it does not change
      them; several equal candidates are symmetries of the data and give the same numbers.
    * **a clear winner**: the best sampled cosine is at least :data:`DECISIVE_COSINE`
      and every other candidate, the identity included, is at least
      :data:`DECISIVE_MARGIN` times further from 1.  A layout fault under fp16 or int8
      rounding keeps the permuted cosine near 1 while the wrong orders fall far below;
      data that no order explains (the best of bad candidates: -0.04 against -0.12, or
      0.62) has no such winner and is compared as declared.

    Either is then confirmed by ``confirm(i)`` on the whole tensors when given (a sample
    proves nothing alone: a sample of zeros is "equal" in every order).
    """
    for i, (equal, _cos) in enumerate(scores):
        if equal and (confirm is None or confirm(i)):
            return i
    if not scores:
        return None
    best = max(range(len(scores)), key=lambda i: (scores[i][1], -i))
    top = scores[best][1]
    if top < DECISIVE_COSINE:
        return None
    others = (cos for i, (_, cos) in enumerate(scores) if i != best)
    clear = all(cos < top and 1.0 - cos >= DECISIVE_MARGIN * (1.0 - top) for cos in others)
    return best if clear and (confirm is None or confirm(best)) else None


def _whole_cosine(golden: np.ndarray, target: np.ndarray) -> float:
    """:func:`_cosine` over every element (float64)."""
    return _cosine(np.asarray(golden, np.float64).reshape(-1), np.asarray(target, np.float64).reshape(-1))


def _exact(golden: np.ndarray, target: np.ndarray) -> bool:
    """Equal on the whole tensor to :data:`EXACT_RTOL`, NaN equal to NaN."""
    g = np.asarray(golden, np.float64).reshape(target.shape)
    return bool(np.allclose(np.asarray(target, np.float64), g, rtol=EXACT_RTOL, atol=0.0, equal_nan=True))


def _score(golden: np.ndarray, target: np.ndarray) -> tuple[bool, float]:
    """(equal on the sample to :data:`EXACT_RTOL`, sampled cosine): larger is a better alignment."""
    g, t = _sample(golden), _sample(target)
    return bool(np.allclose(t, g, rtol=EXACT_RTOL, atol=0.0, equal_nan=True)), _cosine(g, t)


def _sample(a: np.ndarray) -> np.ndarray:
    """A strided sample of ``a`` in C order (at most :data:`SAMPLE` elements), float64.

    Indexed through the (possibly transposed) view, so no candidate layout is copied whole.
    """
    step = max(1, a.size // SAMPLE)
    if a.flags.c_contiguous:  # the same positions, taken by a slice of the flat view (no index arrays)
        return np.asarray(a.reshape(-1)[::step][:SAMPLE], dtype=np.float64)
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
