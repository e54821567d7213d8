"""bench/bench_fix.py's verdict: the issue's done-when, part by part, from a case's measured figures."""

from __future__ import annotations

import pytest

from bench.bench_fix import verdict


def _row(
    fix_set: int, modified: int, bisect: dict[str, object], *acmp: dict[str, object] | None
) -> dict[str, object]:
    fix = {"found": True, "minimal": True, "set": fix_set, "modified_trials": modified}
    own, faithful = (acmp + (None, None))[:2]
    return {"fix": fix, "bisect": bisect, "acmp": own, "acmp_faithful": faithful}


FOUND = {"found": True, "trials": 5, "set": 12}


@pytest.mark.parametrize(
    "row, fewer, no_larger, met",
    [
        # int8: no acmp; 3 modified runs against the bisection's 5
        (_row(2, 3, FOUND), True, None, True),
        # as many runs as the bisection is not fewer
        (_row(2, 5, FOUND), False, None, False),
        # a bisection that found nothing spent its trials for nothing
        (_row(2, 9, {"found": False, "trials": 4}), True, None, True),
        # acmp's own set fails on faithful fp16: only its faithfully judged search's set compares
        (
            _row(
                3,
                4,
                FOUND,
                {"set": 1, "meets_on_faithful_fp16": False},
                {"set": 4, "meets_on_faithful_fp16": True},
            ),
            True,
            True,
            True,
        ),
        # a smaller acmp set that meets the tolerance beats ours
        (_row(3, 4, FOUND, {"set": 2, "meets_on_faithful_fp16": True}), True, False, False),
        # acmp crashed both ways: nothing to compare, the other parts decide
        (_row(3, 4, FOUND, {"crashed": "x", "trials": 3}, {"crashed": "y", "trials": 80}), True, None, True),
    ],
)
def test_verdict_compares_like_with_like(row, fewer, no_larger, met) -> None:  # type: ignore[no-untyped-def]
    v = verdict(row)
    assert (v["fewer_trials"], v["set_vs_acmp"], v["met"]) == (fewer, no_larger, met)


def test_a_fix_not_proven_minimal_does_not_meet_it() -> None:
    row = _row(2, 3, FOUND)
    row["fix"]["minimal"] = False  # type: ignore[index]
    assert verdict(row)["met"] is False
