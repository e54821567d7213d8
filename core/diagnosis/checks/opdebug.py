"""Hardware overflow records (Ascend Opdebug) of the target op."""

from __future__ import annotations

from dumpscope.core.diagnosis.checks.base import (
    Check,
    CheckContext,
    Finding,
    RowCase,
)
from dumpscope.core.names import display
from dumpscope.core.vendor.opdebug import OverflowRecord

#: Cause -> what to do about it.
ADVICE: dict[str, str] = {
    "opdebug": "The hardware flagged this op: keep it in fp32 or clip its input, and read the decoded "
    "status bits."
}


def opdebug(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """Hardware overflow (Opdebug) records that name the row's target op."""
    op = case.target_op
    if not op:
        return []
    return [_record(rec, op) for rec in ctx.opdebug.get(op, [])]


def _record(rec: OverflowRecord, op: str) -> Finding:
    """One Opdebug record naming ``op``, with its decoded status bits."""
    bits = ", ".join(f"0x{b.mask:x} {b.meaning}" for b in rec.bits) or f"status 0x{rec.status:x}"
    return Finding(
        "opdebug",
        f"Opdebug record {display(rec.file.rsplit('/', 1)[-1])!r} ({rec.unit}, task {rec.task_id}, stream "
        f"{rec.stream_id}) names op {display(op)!r}: {bits}",
        weight=0.3,
    )


CHECK = Check("opdebug", opdebug, ADVICE)
