"""The diagnosis checks registry: one module + one registration per check."""

from __future__ import annotations

import pytest

from dumpscope.core.diagnosis import checks
from dumpscope.core.diagnosis.checks.base import Check, CheckContext, Finding, RowCase
from dumpscope.core.diagnosis.engine import ADVICE


def test_every_check_is_registered_with_its_advice() -> None:
    causes = {cause for c in checks.CHECKS for cause in c.advice}
    assert causes == {
        "overflow",
        "clamped",
        "constant-range",
        "quantisation",
        "quantisation-wide",
        "opdebug",
        "fusion",
        "quantisation-jump",
        "weights-scaled",
        "weights-sign",
        "weights-transposed",
        "weights-differ",
        "saturation",
    }
    assert all(ADVICE[cause] == text and text for cause, text in checks.advice().items())


def test_findings_keep_the_historic_order() -> None:
    """Findings are listed overflow, constants, quantisation, shared grid, Opdebug, fusion, SigmaStar,
    differing weights, then saturation (the diagnosis ranks by them)."""
    order = [
        "overflow",
        "constants",
        "quantisation",
        "grid",
        "opdebug",
        "fusion",
        "sigmastar",
        "weights",
        "saturation",
    ]
    assert [c.name for c in checks.CHECKS] == order


def test_a_registered_check_runs_for_every_checked_row(demo, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from dumpscope.core.comparison.pipeline import compare

    seen: list[int] = []

    def probe(ctx: CheckContext, case: RowCase) -> list[Finding]:
        seen.append(case.row)
        return [Finding("probe", f"row {case.row} probed")] if case.row == seen[0] else []

    monkeypatch.setattr(checks, "CHECKS", (*checks.CHECKS, Check("probe", probe, {"probe": "probe advice"})))
    found = checks.check_row(
        CheckContext(compare(demo.golden, demo.target, model=demo.model), _no_edges()), 3
    )
    assert seen == [3] and found[-1].text == "row 3 probed"


def _no_edges():  # type: ignore[no-untyped-def]
    import polars as pl

    from dumpscope.core.diagnosis.edges import EDGE_SCHEMA, Edges

    return Edges(pl.DataFrame(schema=EDGE_SCHEMA), {}, {}, frozenset(), "none")


def test_a_constant_is_reported_by_its_own_clamp_finding_only() -> None:
    """A clamp on constant 'w' mentions "largest |x|": that must not hide the range check of a constant
    named 'x'."""
    from dumpscope.core.diagnosis.checks.constants import _clamped, _reported

    clamp_w = _clamped("w", {"action": "clamp", "count": 3, "max_abs": 1e6}, "conv")
    assert "|x|" in clamp_w.text
    assert _reported("w", [clamp_w])
    assert not _reported("x", [clamp_w])
