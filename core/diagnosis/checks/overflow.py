"""Overflow in a reduced-float target: an Exp fed past ln(max), a sum or output past the range."""

from __future__ import annotations

import math
from dataclasses import dataclass

import ml_dtypes
import numpy as np

from dumpscope.core.diagnosis.checks.base import (
    EXP_OPS,
    SUM_OPS,
    Check,
    CheckContext,
    Finding,
    PatchAction,
    RowCase,
    consumers_of,
    float_view,
    fp16_floor,
    inputs_of,
)
from dumpscope.core.dumps import TensorRef
from dumpscope.core.inspect.overflow import row_ref
from dumpscope.core.inspect.ranges import range_check
from dumpscope.core.names import display

#: Cause -> what to do about it.
ADVICE: dict[str, str] = {
    "overflow": (
        "Clip the values before the overflowing op, or keep the op in fp32 (Ascend's Zipformer overflow "
        "case: a Clip before the exp). "
        "For a hand-written softmax, subtracting the row maximum before Exp removes the overflow without "
        "changing the result."
    )
}


@dataclass(frozen=True)
class _Row:
    """One candidate row of a reduced-float target, with what every overflow step needs."""

    ctx: CheckContext
    row: int
    node: str
    """The row's node (its tensor name when the node has none): what a fix patches."""
    target: str
    """The target dtype: ``float16`` or ``bfloat16``."""
    top: float
    """The target dtype's largest finite value."""

    def first_input(self) -> int | None:
        """The row of the node's first flowing input (None when it has none)."""
        first = inputs_of(self.ctx, self.row)[:1]
        return first[0] if first else None

    def golden(self, row: int | None) -> np.ndarray | None:
        """The golden tensor of frame row ``row`` (None for no row, or an unreadable tensor)."""
        return None if row is None else self.ctx.golden_of(row_ref(self.ctx.cmp, row))


#: Largest finite value of each reduced float target.
_TOP = {
    "float16": float(np.finfo(np.float16).max),
    "bfloat16": float(ml_dtypes.finfo(ml_dtypes.bfloat16).max),
}


def float_range(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """A reduced-float target: the Exp input past ln(max), or a golden output past the dtype's range."""
    if case.float_target is None:
        return []
    o = _Row(
        ctx,
        case.row,
        str(case.values["node_name"] or case.values["name"]),
        case.float_target,
        _TOP[case.float_target],
    )
    op = str(case.values["op_type"] or "")
    out = [f for ops, check in _BY_OP if op in ops for f in check(o)]
    return out + _stored_output(o, op) + _fused_intermediates(ctx, case, o.target)


def _exp_input(o: _Row) -> list[Finding]:
    """Golden values of an Exp's input past ln(max): exp overflows to inf in the target dtype."""
    j = o.first_input()
    x = o.golden(j)
    if j is None or x is None or float_view(x) is None:
        return []
    flat = x.reshape(-1).astype(np.float64, copy=False)
    over = int(np.count_nonzero(flat > math.log(o.top)))
    if not over:
        return []
    width, hi = _exp_clip(o)
    return [
        Finding(
            "overflow",
            _exp_sentence(o, j, flat, over, width, hi),
            _exp_fixes(o, j, hi),
            weight=0.3,
        )
    ]


def _exp_clip(o: _Row) -> tuple[int, float]:
    """How many exps a downstream sum adds up, and the clip bound keeping that sum in range."""
    width = _reduction_width(o.ctx, o.row)
    bound = math.log(o.top / width)
    return width, fp16_floor(bound) if o.target == "float16" else round(bound, 2)


def _exp_fixes(o: _Row, j: int, hi: float) -> tuple[PatchAction, ...]:
    """Clip the Exp input's producer at ``hi`` (when it has one), or keep the Exp and its normalisers in
    fp32."""
    producer = o.ctx.cmp.frame["node_name"][j]
    keep = [PatchAction(n, keep_fp32=True) for n in (o.node, *_normalisers(o.ctx, o.row))]
    clip = [PatchAction(str(producer), clip=(-math.inf, hi))] if producer else []
    return (*clip, *keep)


def _exp_sentence(o: _Row, j: int, flat: np.ndarray, over: int, width: int, hi: float) -> str:
    summed = f" (and {width} of them are summed downstream, so clip at {hi:.7g})" if width > 1 else ""
    return (
        f"Exp input {display(str(o.ctx.cmp.frame['name'][j]))!r}: {over} of {flat.size} golden values exceed "
        f"ln({o.top:g}) = {math.log(o.top):.4g} (max {float(np.nanmax(flat)):.4g}), so exp passes the "
        f"{o.target} "
        f"maximum {o.top:g} and becomes inf{summed}"
    )


#: Softmax kernels: a naive one (no row maximum subtracted) overflows like Exp.
SOFTMAX_OPS = frozenset({"Softmax", "LogSoftmax"})
#: Products whose partial sums can pass the target maximum although the output fits.
PRODUCT_OPS = frozenset({"MatMul", "Gemm"})
#: Largest multiply-accumulate count (m * k * n) bounded here by ``|A| @ |B|``.
MAX_MACS = 50_000_000


def _floats(x: np.ndarray | None) -> np.ndarray | None:
    """``x`` when it is a float tensor, else None."""
    return x if x is not None and x.dtype.kind == "f" else None


def _softmax_input(o: _Row) -> list[Finding]:
    """A softmax fed values past ln(max): exact kernels subtract the row maximum, a naive one overflows."""
    x = _floats(o.golden(o.first_input()))
    if x is None or x.size == 0:
        return []
    limit = math.log(o.top)
    over = int(np.count_nonzero(np.asarray(x, dtype=np.float64) > limit))
    if not over:
        return []
    return [
        Finding(
            "overflow",
            f"softmax {display(o.node)!r}: {over} golden input values exceed ln({o.top:g}) = {limit:.4g}: a "
            f"{o.target} "
            "kernel that does not subtract the row maximum overflows to inf",
            (PatchAction(o.node, keep_fp32=True),),
            weight=0.15,
        )
    ]


def _partial_sums(o: _Row) -> list[Finding]:
    """A MatMul/Gemm whose partial sums (bounded by ``|A| @ |B|``) pass the target maximum."""
    operands = _operands(o)
    if operands is None:
        return []
    a, b = operands
    bound = float(np.max(np.abs(a) @ np.abs(b), initial=0.0))
    if bound < o.top:
        return []
    return [
        Finding(
            "overflow",
            f"partial sums of {display(o.node)!r} can reach |x| {bound:.6g} (|A| @ |B|), beyond the "
            f"{o.target} maximum "
            f"{o.top:g}, although the output may fit",
            (PatchAction(o.node, keep_fp32=True),),
            weight=0.2,
        )
    ]


def _operands(o: _Row) -> tuple[np.ndarray, np.ndarray] | None:
    """A product's two golden float operands (at least 2-D, in float64) when they multiply within
    :data:`MAX_MACS`, else None."""
    operands = [_floats(o.golden(j)) for j in _operand_rows(o.ctx, o.row)]
    if len(operands) != 2 or any(x is None or x.ndim < 2 for x in operands):
        return None
    a, b = (np.asarray(x, dtype=np.float64) for x in operands)
    if a.shape[-1] != b.shape[-2] or a.size * b.shape[-1] > MAX_MACS:
        return None
    return a, b


def _operand_rows(ctx: CheckContext, row: int) -> list[int]:
    """The rows of a product's first two inputs, constants included (a weight is an operand)."""
    e = ctx.edges.frame
    return e.filter(e["row"] == row)["input_row"].to_list()[:2]


#: The op-specific overflow steps: an op of the family -> its step.
_BY_OP = ((EXP_OPS, _exp_input), (SOFTMAX_OPS, _softmax_input), (PRODUCT_OPS, _partial_sums))


def _fused_intermediates(ctx: CheckContext, case: RowCase, target: str) -> list[Finding]:
    """Golden outputs of the original ops a fused target op replaces that the target dtype cannot
    hold: the fused kernel computes them internally, in its own precision."""
    fused = ctx.fused.get(case.target_op) if case.target_op is not None else None
    if not fused or ctx.cmp.golden is None:
        return []
    refs = _original_outputs(ctx, fused[0])
    return [f for ref in refs for f in _intermediate(ctx, ref, str(case.target_op), target)]


def _original_outputs(ctx: CheckContext, originals: tuple[str, ...]) -> list[TensorRef]:
    """The golden activations the ``originals`` ops produce."""
    golden = ctx.cmp.golden.tensors.values() if ctx.cmp.golden is not None else ()
    return [r for r in golden if r.info.node_name in originals and r.info.kind == "activation"]


def _intermediate(ctx: CheckContext, ref: TensorRef, op: str, target: str) -> list[Finding]:
    """One golden intermediate of a fused op that the target dtype cannot hold."""
    y = _floats(ctx.golden_of(ref))
    if y is None:
        return []
    found = range_check(y, target)
    if not found.out_of_range:
        return []
    return [
        Finding(
            "overflow",
            f"intermediate {display(ref.name)!r} of fused op {display(op)!r}: {found.message}: "
            f"the fused kernel cannot hold it in {target}",
            weight=0.25,
        )
    ]


def _stored_output(o: _Row, op: str) -> list[Finding]:
    """A golden output (or sum) the target dtype cannot store."""
    y = _floats(o.golden(o.row))
    if y is None:
        return []
    found = range_check(y, o.target)
    if not found.out_of_range:
        return []
    what = "sum" if op in SUM_OPS else "output"
    return [
        Finding(
            "overflow",
            f"golden {what} of {display(o.node)!r}: {found.message}: it cannot be stored in {o.target}",
            (PatchAction(o.node, keep_fp32=True),),
            weight=0.25,
        )
    ]


def _normalisers(ctx: CheckContext, row: int) -> list[str]:
    """Nodes that sum ``row`` and divide by that sum (a hand-written softmax): kept in fp32
    with the Exp, since the sum of exps overflows fp16 as surely as the exp did."""
    frame = ctx.cmp.frame
    consumers = consumers_of(ctx, row)
    sums = [c for c in consumers if frame["op_type"][c] in SUM_OPS]
    return [
        str(frame["node_name"][c]) for c in (*sums, *_dividers(ctx, consumers, sums)) if frame["node_name"][c]
    ]


def _dividers(ctx: CheckContext, consumers: list[int], sums: list[int]) -> list[int]:
    """The ``consumers`` (not sums themselves) that also read one of the ``sums``."""
    return [c for c in consumers if c not in sums and any(c in consumers_of(ctx, s) for s in sums)]


def _reduction_width(ctx: CheckContext, row: int) -> int:
    """How many values of ``row`` a downstream sum adds up (1 when none does)."""
    frame = ctx.cmp.frame
    size = frame["size"][row] or 0
    widths = [
        int(size // frame["size"][c])
        for c in consumers_of(ctx, row)
        if frame["op_type"][c] in SUM_OPS and frame["size"][c]
    ]
    return max([w for w in widths if w > 0], default=1)


CHECK = Check("overflow", float_range, ADVICE)
