"""Weights that differ: a constant whose target copy is not the golden's, measured at the node reading it.

A differing constant is no root cause of its own (it computes nothing): it is evidence at
the node that consumes it.  How it differs is measured in float64 on the two dumps:

* **transposed** -- the target holds the golden values with their axes permuted;
* **sign-flipped channels** -- along one axis, some slices are the golden's negated and
  every other slice is equal;
* **scaled** -- the target is the golden times one factor (least squares, with the
  residual ``||t - s*g|| / ||t||``);
* otherwise how many elements changed, and the best single factor with its residual.

A reduced-float target's constant is compared with the golden as that dtype clamps and
flushes it: a clamped constant is the ``constants`` check's finding, not this one's.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from dumpscope.core.diagnosis.checks.base import Check, CheckContext, Finding, RowCase, read_tensor
from dumpscope.core.diagnosis.checks.quantisation import quantised_target
from dumpscope.core.inspect.overflow import row_ref
from dumpscope.core.names import display
from dumpscope.core.vocabulary import Health

#: Relative tolerance (to the tensor's largest |x|) within which two weights are equal.
EQUAL_RTOL = 1e-5
#: The least-squares residual below which a differing weight is "the golden times a factor".
SCALE_RESIDUAL = 1e-3
#: Axis permutations are tried only up to this rank (4! = 24 candidates).
MAX_PERMUTED_RANK = 4
#: A constant this small (an epsilon, a scale) is quoted value by value.
QUOTED = 4

_ADVICE_TAIL = (
    " Compare the converter's weight handling with the golden model: transposes (a MatMul/Gemm "
    "weight stored [in, out] vs [out, in], transB), folding (a BatchNorm or scale folded into "
    "the weight twice or not at all), weight quantisation (its scale and zero point); re-export "
    "the weights and compare the constant's dump with the golden's."
)
ADVICE: dict[str, str] = {
    "weights-scaled": (
        "The target's copy of this weight is the golden's times one factor: a scale folded twice or not at "
        "all (BatchNorm or a Mul folded into the Conv/MatMul weight), or a weight-quantisation scale applied "
        "wrongly. Fix the weights first: whether the kernel also differs shows once they agree."
        + _ADVICE_TAIL
    ),
    "weights-sign": (
        "Some output channels of this weight have their sign flipped in the target: a per-channel factor "
        "(a folded BatchNorm gamma, a negative scale) lost its sign in the conversion. Fix the weights "
        "first: "
        "whether the kernel also differs shows once they agree." + _ADVICE_TAIL
    ),
    "weights-transposed": (
        "The target holds this weight transposed: the converter's transpose of the weight (transB, an "
        "[in, out] layout, an NHWC kernel layout) is applied twice or not at all." + _ADVICE_TAIL
    ),
    "weights-differ": (
        "The target's copy of this constant (a weight, an epsilon, a scale) differs from the golden model's: "
        "the model was converted or quantised from other weights, or the converter rewrote them; compare "
        "the constant's value in both models." + _ADVICE_TAIL
    ),
}


@dataclass(frozen=True)
class WeightDiff:
    """How a target constant differs from the golden one (every number computed in float64)."""

    size: int
    changed: int
    """Elements further apart than :data:`EQUAL_RTOL` of the golden's largest |x|."""
    scale: float
    """The least-squares factor ``s`` minimising ``||t - s*g||``."""
    residual: float
    """``||t - s*g|| / ||t||`` (0 for an all-zero target)."""
    flipped: tuple[int, int, int] | None = None
    """(axis, slices sign-flipped, slices along that axis) when sign flips explain every change."""
    transposed: tuple[int, ...] | None = None
    """The axis order ``p`` with ``target == golden.transpose(p)``."""
    values: tuple[tuple[float, ...], tuple[float, ...]] | None = None
    """(golden, target) values of a constant of at most :data:`QUOTED` elements."""

    @property
    def cause(self) -> str:
        """The finding's cause: ``weights-transposed``, ``-sign``, ``-scaled`` or ``-differ`` (one value, an
        epsilon or a scale, shows no pattern)."""
        if self.size == 1:
            return "weights-differ"
        if self.transposed is not None:
            return "weights-transposed"
        if self.flipped is not None:
            return "weights-sign"
        if self.residual <= SCALE_RESIDUAL:
            return "weights-scaled"
        return "weights-differ"

    def words(self) -> str:
        """How it differs, in words, with the numbers."""
        quoted = ""
        if self.values is not None:
            golden, target = (", ".join(f"{x:.6g}" for x in side) for side in self.values)
            quoted = f"the target holds [{target}] where the golden holds [{golden}]"
            if self.size == 1:
                return quoted
            quoted += "; "
        return quoted + self._pattern()

    def _pattern(self) -> str:
        """The pattern of the change: a transpose, flipped channels, a factor, or the elements changed."""
        if self.transposed is not None:
            return f"the target holds the golden values transposed (axis order {self.transposed})"
        if self.flipped is not None:
            axis, count, total = self.flipped
            return (
                f"{count} of {total} channels along axis {axis} have their sign flipped, the others are "
                f"equal ({self.changed} of {self.size} elements changed)"
            )
        fit = f"least-squares factor {self.scale:.4g}, residual {self.residual:.2g}"
        if self.residual <= SCALE_RESIDUAL:
            return (
                f"the target is the golden times {self.scale:.4g} ({fit}; {self.changed} of {self.size} "
                "elements changed)"
            )
        return f"{self.changed} of {self.size} elements changed (no single factor explains it: {fit})"


def weight_difference(golden: np.ndarray, target: np.ndarray) -> WeightDiff | None:
    """How ``target`` differs from ``golden`` (None when they are equal, or cannot be compared)."""
    g = np.asarray(golden, dtype=np.float64)
    t = np.asarray(target, dtype=np.float64)
    if g.size == 0 or g.size != t.size or not (np.isfinite(g).all() and np.isfinite(t).all()):
        return None
    tol = EQUAL_RTOL * max(float(np.abs(g).max()), float(np.abs(t).max()), np.finfo(np.float32).tiny)
    perm = _transposed(g, t, tol)
    if perm is not None and t.shape != g.shape:  # stored in another axis order: every element moved
        return _diff(g.transpose(perm), t, g.size, perm)
    t = t.reshape(g.shape)
    changed = int((np.abs(t - g) > tol).sum())
    if changed == 0:
        return None
    return _diff(g, t, changed, perm)


def _diff(g: np.ndarray, t: np.ndarray, changed: int, transposed: tuple[int, ...] | None) -> WeightDiff:
    """The measures of a differing pair of equal shape (``g`` already in the target's axis order)."""
    gg = float(np.dot(g.ravel(), g.ravel()))
    scale = float(np.dot(g.ravel(), t.ravel()) / gg) if gg > 0 else 0.0
    norm = float(np.linalg.norm(t))
    residual = float(np.linalg.norm(t - scale * g) / norm) if norm > 0 else 0.0
    tol = EQUAL_RTOL * max(float(np.abs(g).max()), float(np.abs(t).max()), np.finfo(np.float32).tiny)
    flipped = _flipped(g, t, tol) if transposed is None else None
    values = (tuple(g.ravel().tolist()), tuple(t.ravel().tolist())) if g.size <= QUOTED else None
    return WeightDiff(g.size, changed, scale, residual, flipped, transposed, values)


def _transposed(g: np.ndarray, t: np.ndarray, tol: float) -> tuple[int, ...] | None:
    """The axis order (not the identity) turning ``g`` into ``t`` exactly, if one does."""
    if not 2 <= g.ndim <= MAX_PERMUTED_RANK or sorted(g.shape) != sorted(t.shape):
        return None
    for perm in itertools.permutations(range(g.ndim)):
        if perm == tuple(range(g.ndim)):
            continue
        moved = g.transpose(perm)
        if moved.shape == t.shape and not np.array_equal(moved, g) and bool((np.abs(moved - t) <= tol).all()):
            return perm
    return None


def _flipped(g: np.ndarray, t: np.ndarray, tol: float) -> tuple[int, int, int] | None:
    """(axis, flipped, slices) for the first axis along which sign flips of whole slices explain every
    change."""
    for axis in range(g.ndim):
        n = g.shape[axis]
        if n < 2:
            continue
        gs, ts = np.moveaxis(g, axis, 0).reshape(n, -1), np.moveaxis(t, axis, 0).reshape(n, -1)
        same = (np.abs(ts - gs) <= tol).all(axis=1)
        negated = (np.abs(ts + gs) <= tol).all(axis=1) & ~same
        if negated.any() and bool((same | negated).all()):
            return axis, int(negated.sum()), n
    return None


# ----------------------------------------------------------------- the check


def weights(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """The node's constants whose target copy differs from the golden one, each measured."""
    node = display(str(case.values["node_name"] or case.values["name"]))
    out = []
    for crow in _unhealthy_constants(ctx, case.row):
        found = _finding(ctx, crow, node)
        if found is not None:
            out.append(found)
    return out


def _unhealthy_constants(ctx: CheckContext, row: int) -> list[int]:
    """Rows of the constants ``row``'s node reads that are judged warn or fail."""
    e = ctx.edges.frame
    rows = e.filter((e["row"] == row) & e["constant"])["input_row"].to_list()
    health = ctx.cmp.frame["health"]
    return [r for r in rows if r is not None and health[r] in (Health.WARN, Health.FAIL)]


def _finding(ctx: CheckContext, crow: int, node: str) -> Finding | None:
    """One differing constant as evidence at the node reading it (None when it does not differ as read)."""
    name = str(ctx.cmp.frame["name"][crow])
    if name in ctx.clamped:  # the fp16 conversion's own records: the constants check reports it
        return None
    quantised = quantised_target(ctx)
    if quantised is not None and quantised.grid(name) is not None:  # a quantised weight: not this check's
        return None
    golden, target = _side(ctx, crow, "golden"), _side(ctx, crow, "target")
    if golden is None or target is None:
        return None
    diff = weight_difference(_as_read(golden, str(ctx.cmp.frame["target_dtype"][crow] or "")), target)
    if diff is None:
        return None
    err = ctx.cmp.frame["relative_euclidean_distance"][crow]
    finite = isinstance(err, float) and math.isfinite(err)
    size = f"relative error {err:.3g}" if finite else "error not measured"
    text = f"weights differ: constant {display(name)!r} read by {node!r} ({size}): {diff.words()}"
    return Finding(diff.cause, text, weight=0.4, subject=name)


def _side(ctx: CheckContext, row: int, side: str) -> np.ndarray | None:
    """A constant row's data on one side, as floats (None when missing, unreadable or not numeric)."""
    ref = row_ref(ctx.cmp, row, side)
    data = ctx.golden_of(ref) if side == "golden" else read_tensor(ref)
    if data is None or data.dtype.kind not in "fiu":
        return None
    return data


def _as_read(golden: np.ndarray, dtype: str) -> np.ndarray:
    """The golden constant as a reduced-float target stores it (clamped, flushed, rounded); else as is."""
    from dumpscope.core.diagnosis.replay import as_target_dtype

    return as_target_dtype(golden, dtype) if golden.dtype.kind == "f" else golden


CHECK = Check("weights", weights, ADVICE)
