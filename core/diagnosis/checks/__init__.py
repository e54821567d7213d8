"""Diagnosis checks: evidence for a candidate root cause, one module per check.

Adding a check: write ``checks/<name>.py`` (a function, its ``ADVICE`` and
``CHECK = Check(...)``), import it, and add it to :data:`CHECKS` -- whose order is the
order findings are listed in.
"""

from __future__ import annotations

from dumpscope.core.diagnosis.checks import (
    constants,
    fusion,
    grid,
    opdebug,
    overflow,
    quantisation,
    saturation,
    sigmastar,
    weights,
)
from dumpscope.core.diagnosis.checks.base import (
    EXP_OPS,
    FEW_LEVELS,
    JUMP_FACTOR,
    SUM_OPS,
    WIDE_RANGE,
    Check,
    CheckContext,
    Finding,
    PatchAction,
    clamp_records,
    consumers_of,
    fp16_floor,
    row_case,
)
from dumpscope.core.inspect.overflow import quant_params, row_ref

#: The registry: every check, in the order its findings are listed.
CHECKS: tuple[Check, ...] = (
    overflow.CHECK,
    constants.CHECK,
    quantisation.CHECK,
    grid.CHECK,
    opdebug.CHECK,
    fusion.CHECK,
    sigmastar.CHECK,
    weights.CHECK,
    saturation.CHECK,
)

__all__ = [
    "CHECKS", "EXP_OPS", "FEW_LEVELS", "JUMP_FACTOR", "SUM_OPS", "WIDE_RANGE", "CheckContext", "Finding",
    "PatchAction",
    "advice", "check_row", "clamp_records", "consumers_of", "fp16_floor", "quant_params", "row_ref",
]  # fmt: skip


def check_row(ctx: CheckContext, row: int) -> list[Finding]:
    """Every finding of every registered check for the node producing ``row``."""
    case = row_case(ctx, row)
    return [finding for check in CHECKS for finding in check.run(ctx, case)]


def advice() -> dict[str, str]:
    """Cause -> advice text, from every registered check."""
    return {cause: text for check in CHECKS for cause, text in check.advice.items()}
