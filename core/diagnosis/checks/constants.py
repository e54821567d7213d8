"""Constants a node reads that the target dtype cannot hold (clamped or out of range)."""

from __future__ import annotations

import numpy as np

from dumpscope.core.diagnosis.checks.base import (
    Check,
    CheckContext,
    Finding,
    PatchAction,
    RowCase,
    clamp_max_abs,
)
from dumpscope.core.inspect.ranges import range_check
from dumpscope.core.names import display

#: Cause -> what to do about it.
ADVICE: dict[str, str] = {
    "clamped": (
        "The fp16 conversion clamped a constant this node reads: keep the node in fp32, or rescale the "
        "constant so that it fits."
    ),
    "constant-range": (
        "A constant does not fit the target dtype: keep this node in fp32, or rescale the constant "
        "(fold the factor into a neighbouring op) so that it fits."
    ),
}


def constants(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """Constants the node reads: clamped by the fp16 conversion, or out of the target's range."""
    node = str(ctx.cmp.frame["node_name"][case.row] or ctx.cmp.frame["name"][case.row])
    out: list[Finding] = []
    for name in ctx.edges.constant_inputs.get(case.row, ()):
        out += _constant(ctx, case, name, node, out)
    return out


def _constant(ctx: CheckContext, case: RowCase, name: str, node: str, found: list[Finding]) -> list[Finding]:
    """One constant's findings: its clamp records, else (for a reduced-float target) its range."""
    clamped = [_clamped(name, rec, node) for rec in ctx.clamped.get(name, [])]
    if case.float_target is None or _reported(name, [*found, *clamped]):
        return clamped
    return clamped + _out_of_range(ctx, name, node, case.float_target)


def _reported(name: str, findings: list[Finding]) -> bool:
    """A clamp finding is already about this constant (by its subject, not by words in its text:
    a constant named ``x`` is not "reported" by another one's "largest |x|")."""
    return any(f.cause == "clamped" and f.subject == name for f in findings)


def _clamped(name: str, rec: dict[str, object], node: str) -> Finding:
    """The fp16 conversion clamped or flushed values of a constant the node reads."""
    action = "clamped" if rec.get("action") == "clamp" else "flushed"
    return Finding(
        "clamped",
        f"constant {display(name)!r}: the fp16 conversion {action} "
        f"{rec.get('count')} value(s) (largest |x| {clamp_max_abs(rec):.6g})",
        (PatchAction(node, keep_fp32=True),),
        weight=0.3,
        subject=name,
    )


def _out_of_range(ctx: CheckContext, name: str, node: str, target: str) -> list[Finding]:
    """A golden float constant the target dtype cannot hold."""
    data = _golden_floats(ctx, name)
    if data is None:
        return []
    found = range_check(data, target)
    if not found.out_of_range:
        return []
    return [
        Finding(
            "constant-range",
            f"constant {display(name)!r} feeding {display(node)!r}: {found.message}",
            (PatchAction(node, keep_fp32=True),),
            weight=0.3,
            subject=name,
        )
    ]


def _golden_floats(ctx: CheckContext, name: str) -> np.ndarray | None:
    """The golden dump's float tensor ``name`` (None when absent, unreadable or not float)."""
    golden = ctx.cmp.golden
    data = ctx.golden_of(golden.tensors.get(name) if golden is not None else None)
    return data if data is not None and data.dtype.kind == "f" else None


CHECK = Check("constants", constants, ADVICE)
