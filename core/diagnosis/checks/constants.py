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
    node = str(ctx.cmp.frame["node_name"][case.row] or ctx.cmp.frame["name"][case.row])
    out: list[Finding] = []
    for name in ctx.edges.constant_inputs.get(case.row, ()):
        out += [_clamped(name, rec, node) for rec in ctx.clamped.get(name, [])]
        already = any(f.cause == "clamped" and display(name) in f.text for f in out)
        if case.float_target is not None and not already:
            out += _out_of_range(ctx, name, node, case.float_target)
    return out


def _clamped(name: str, rec: dict[str, object], node: str) -> Finding:
    """The fp16 conversion clamped or flushed values of a constant the node reads."""
    action = "clamped" if rec.get("action") == "clamp" else "flushed"
    return Finding(
        "clamped",
        f"constant {display(name)!r}: the fp16 conversion {action} "
        f"{rec.get('count')} value(s) (largest |x| {float(rec.get('max_abs') or 0):.6g})",  # type: ignore[arg-type]
        (PatchAction(node, keep_fp32=True),), weight=0.3, subject=name,
    )


def _out_of_range(ctx: CheckContext, name: str, node: str, target: str) -> list[Finding]:
    """A golden float constant the target dtype cannot hold."""
    golden = ctx.cmp.golden
    if golden is None or name not in golden.tensors:
        return []
    data = ctx.golden_of(golden.tensors[name])
    if data is None or data.dtype.kind != "f":
        return []
    found = range_check(data, target)
    if not found.out_of_range:
        return []
    return [Finding(
        "constant-range",
        f"constant {display(name)!r} feeding {display(node)!r}: {found.message}",
        (PatchAction(node, keep_fp32=True),), weight=0.3, subject=name,
    )]


CHECK = Check("constants", constants, ADVICE)
