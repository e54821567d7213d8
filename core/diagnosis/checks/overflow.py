"""Overflow in a reduced-float target: an Exp fed past ln(max), a sum or output past the range."""

from __future__ import annotations

import math

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
ADVICE: dict[str, str] = {"overflow": (
        "Clip the values before the overflowing op, or keep the op in fp32 (seed 000: a Clip before the exp). "
        "For a hand-written softmax, subtracting the row maximum before Exp removes the overflow without "
        "changing the result."
    )}


def float_range(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """A reduced-float target: the Exp input past ln(max), or a golden output past the dtype's range."""
    if case.float_target is None:
        return []
    target = case.float_target
    top = float(ml_dtypes.finfo(target).max) if target == "bfloat16" else float(np.finfo(np.float16).max)
    op = case.values["op_type"] or ""
    node = str(case.values["node_name"] or case.values["name"])
    out: list[Finding] = []
    first = inputs_of(ctx, case.row)[:1]
    if op in EXP_OPS:
        out += [f for j in first for f in _exp_input(ctx, case.row, j, node, target, top)]
    if op in SOFTMAX_OPS:
        out += [f for j in first for f in _softmax_input(ctx, j, node, target, top)]
    if op in PRODUCT_OPS:
        out += _partial_sums(ctx, case.row, node, target, top)
    return out + _stored_output(ctx, case.row, node, op, target) + _fused_intermediates(ctx, case, target)


def _exp_input(ctx: CheckContext, row: int, j: int, node: str, target: str, top: float) -> list[Finding]:
    """Golden values of an Exp's input past ln(max): exp overflows to inf in the target dtype."""
    x = ctx.golden_of(row_ref(ctx.cmp, j))
    if x is None or float_view(x) is None:
        return []
    limit = math.log(top)
    flat = x.reshape(-1).astype(np.float64, copy=False)
    over = int(np.count_nonzero(flat > limit))
    if not over:
        return []
    width = _reduction_width(ctx, row)
    hi = fp16_floor(math.log(top / width)) if target == "float16" else round(math.log(top / width), 2)
    producer = ctx.cmp.frame["node_name"][j]
    fixes = [PatchAction(n, keep_fp32=True) for n in (node, *_normalisers(ctx, row))]
    if producer:
        fixes.insert(0, PatchAction(str(producer), clip=(-math.inf, hi)))
    summed = f" (and {width} of them are summed downstream, so clip at {hi:.7g})" if width > 1 else ""
    return [Finding(
        "overflow",
        f"Exp input {display(str(ctx.cmp.frame['name'][j]))!r}: {over} of {flat.size} golden values exceed "
        f"ln({top:g}) = {limit:.4g} (max {float(np.nanmax(flat)):.4g}), so exp passes the {target} maximum "
        f"{top:g} and becomes inf{summed}",
        tuple(fixes), weight=0.3,
    )]


#: Softmax kernels: a naive one (no row maximum subtracted) overflows like Exp.
SOFTMAX_OPS = frozenset({"Softmax", "LogSoftmax"})
#: Products whose partial sums can pass the target maximum although the output fits.
PRODUCT_OPS = frozenset({"MatMul", "Gemm"})
#: Largest multiply-accumulate count (m * k * n) bounded here by ``|A| @ |B|``.
MAX_MACS = 50_000_000


def _softmax_input(ctx: CheckContext, j: int, node: str, target: str, top: float) -> list[Finding]:
    """A softmax fed values past ln(max): exact kernels subtract the row maximum, a naive one overflows."""
    x = ctx.golden_of(row_ref(ctx.cmp, j))
    if x is None or x.dtype.kind != "f" or x.size == 0:
        return []
    limit = math.log(top)
    over = int(np.count_nonzero(np.asarray(x, dtype=np.float64) > limit))
    if not over:
        return []
    return [Finding(
        "overflow",
        f"softmax {display(node)!r}: {over} golden input values exceed ln({top:g}) = {limit:.4g}: a {target} "
        "kernel that does not subtract the row maximum overflows to inf",
        (PatchAction(node, keep_fp32=True),), weight=0.15,
    )]


def _partial_sums(ctx: CheckContext, row: int, node: str, target: str, top: float) -> list[Finding]:
    """A MatMul/Gemm whose partial sums (bounded by ``|A| @ |B|``) pass the target maximum."""
    operands = [ctx.golden_of(row_ref(ctx.cmp, j)) for j in _operand_rows(ctx, row)]
    if len(operands) != 2 or any(a is None or a.dtype.kind != "f" or a.ndim < 2 for a in operands):
        return []
    a, b = (np.asarray(x, dtype=np.float64) for x in operands)  # type: ignore[arg-type]
    if a.shape[-1] != b.shape[-2] or a.size * b.shape[-1] > MAX_MACS:
        return []
    bound = float(np.max(np.abs(a) @ np.abs(b), initial=0.0))
    if bound < top:
        return []
    return [Finding(
        "overflow",
        f"partial sums of {display(node)!r} can reach |x| {bound:.6g} (|A| @ |B|), beyond the {target} maximum "
        f"{top:g}, although the output may fit",
        (PatchAction(node, keep_fp32=True),), weight=0.2,
    )]


def _operand_rows(ctx: CheckContext, row: int) -> list[int]:
    """The rows of a product's first two inputs, constants included (a weight is an operand)."""
    e = ctx.edges.frame
    return e.filter(e["row"] == row)["input_row"].to_list()[:2]


def _fused_intermediates(ctx: CheckContext, case: RowCase, target: str) -> list[Finding]:
    """Golden outputs of the original ops a fused target op replaces that the target dtype cannot
    hold: the fused kernel computes them internally, in its own precision."""
    fused = ctx.fused.get(case.target_op) if case.target_op else None
    if not fused or ctx.cmp.golden is None:
        return []
    refs = [r for r in ctx.cmp.golden.tensors.values() if r.info.node_name in fused[0] and r.info.kind == "activation"]
    return [f for ref in refs for f in _intermediate(ctx, ref, str(case.target_op), target)]


def _intermediate(ctx: CheckContext, ref: TensorRef, op: str, target: str) -> list[Finding]:
    """One golden intermediate of a fused op that the target dtype cannot hold."""
    y = ctx.golden_of(ref)
    found = range_check(y, target) if y is not None and y.dtype.kind == "f" else None
    if found is None or not found.out_of_range:
        return []
    return [Finding(
        "overflow",
        f"intermediate {display(ref.name)!r} of fused op {display(op)!r}: {found.message}: "
        f"the fused kernel cannot hold it in {target}",
        weight=0.25,
    )]


def _stored_output(ctx: CheckContext, row: int, node: str, op: str, target: str) -> list[Finding]:
    """A golden output (or sum) the target dtype cannot store."""
    y = ctx.golden_of(row_ref(ctx.cmp, row))
    if y is None or float_view(y) is None or y.dtype.kind != "f":
        return []
    found = range_check(y, target)
    if not found.out_of_range:
        return []
    what = "sum" if op in SUM_OPS else "output"
    return [Finding(
        "overflow",
        f"golden {what} of {display(node)!r}: {found.message}: it cannot be stored in {target}",
        (PatchAction(node, keep_fp32=True),), weight=0.25,
    )]


def _normalisers(ctx: CheckContext, row: int) -> list[str]:
    """Nodes that sum ``row`` and divide by that sum (a hand-written softmax): kept in fp32
    with the Exp, since the sum of exps overflows fp16 as surely as the exp did."""
    frame = ctx.cmp.frame
    consumers = consumers_of(ctx, row)
    sums = [c for c in consumers if (frame["op_type"][c] or "") in SUM_OPS]
    divs = [c for c in consumers if c not in sums and any(c in consumers_of(ctx, s) for s in sums)]
    return [str(frame["node_name"][c]) for c in (*sums, *divs) if frame["node_name"][c]]


def _reduction_width(ctx: CheckContext, row: int) -> int:
    """How many values of ``row`` a downstream sum adds up (1 when none does)."""
    frame = ctx.cmp.frame
    size = frame["size"][row] or 0
    widths = [
        int(size // frame["size"][c])
        for c in consumers_of(ctx, row)
        if (frame["op_type"][c] or "") in SUM_OPS and frame["size"][c]
    ]
    return max([w for w in widths if w > 0], default=1)


CHECK = Check("overflow", float_range, ADVICE)
