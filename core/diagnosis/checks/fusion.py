"""Fused target ops (an ATC graph or an optimised manifest says which originals they replace)."""

from __future__ import annotations

from dumpscope.core.diagnosis.checks.base import (
    Check,
    CheckContext,
    Finding,
    RowCase,
)
from dumpscope.core.names import display

#: Cause -> what to do about it.
ADVICE: dict[str, str] = {
    "fusion": (
        "Disable this fusion pattern and compare again (Ascend's fusion exception detection): set the pass "
        'to "off" in fusion_switch.cfg '
        "(GraphFusion / UBFusion), rebuild, dump, and compare the fusion-on and fusion-off dumps "
        "(msaccucmp compare -f ON.json -cf OFF.json); if accuracy recovers, keep the pass off and report it."
    )
}


def fusion(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """The row's target op fuses several original ops."""
    op = case.target_op
    fused = ctx.fused.get(op) if op else None
    if op is None or fused is None:
        return []
    originals, passes = fused
    by = f" by {', '.join(passes)}" if passes else ""
    return [
        Finding(
            "fusion",
            f"target op {display(op)!r} fuses {len(originals)} original ops ({_shown(originals)}){by}; its "
            "inputs are healthy, "
            "its output is not",
            weight=0.25,
        )
    ]


def _shown(originals: tuple[str, ...]) -> str:
    """The first six original ops, quoted (`...` when there are more)."""
    return ", ".join(repr(display(o)) for o in originals[:6]) + (" ..." if len(originals) > 6 else "")


CHECK = Check("fusion", fusion, ADVICE)
