"""Constants a node reads that the target dtype cannot hold (clamped or out of range)."""

from __future__ import annotations

from dumpscope.core.diagnosis.checks.base import (
    Check,
    CheckContext,
    Finding,
    PatchAction,
    RowCase,
)
from dumpscope.core.inspect.ranges import range_check
from dumpscope.core.names import display

#: Cause -> what to do about it.
ADVICE: dict[str, str] = {"clamped": (
        "The fp16 conversion clamped a constant this node reads: keep the node in fp32, or rescale the "
        "constant so that it fits."
    ), "constant-range": (
        "A constant does not fit the target dtype: keep this node in fp32, or rescale the constant "
        "(fold the factor into a neighbouring op) so that it fits."
    )}


def constants(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """Constants the node reads: clamped by the fp16 conversion, or out of the target's range."""
    row, target = case.row, case.float_target
    out: list[Finding] = []
    names = ctx.edges.constant_inputs.get(row, ())
    node = str(ctx.cmp.frame["node_name"][row] or ctx.cmp.frame["name"][row])
    golden = ctx.cmp.golden
    for name in names:
        for rec in ctx.clamped.get(name, []):
            out.append(Finding(
                "clamped",
                f"constant {display(name)!r}: the fp16 conversion {'clamped' if rec.get('action') == 'clamp' else 'flushed'} "
                f"{rec.get('count')} value(s) (largest |x| {float(rec.get('max_abs') or 0):.6g})",  # type: ignore[arg-type]
                (PatchAction(node, keep_fp32=True),), weight=0.3,
            ))
        if target is None or golden is None or name not in golden.tensors:
            continue
        if any(f.cause == "clamped" and display(name) in f.text for f in out):
            continue
        data = ctx.golden_of(golden.tensors[name])
        if data is None or data.dtype.kind != "f":
            continue
        found = range_check(data, target)
        if found.out_of_range:
            out.append(Finding(
                "constant-range",
                f"constant {display(name)!r} feeding {display(node)!r}: {found.message}",
                (PatchAction(node, keep_fp32=True),), weight=0.3,
            ))
    return out


CHECK = Check("constants", constants, ADVICE)
