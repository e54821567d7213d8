"""Issue 20, item 7 in the real-model corpus: onnxruntime's own optimised graphs are healthy cases, a
golden tensor paired twice fails any case, and the corpus run counts false FAIL rows."""

from __future__ import annotations

from bench.realmodels.cases import CASES, OPTIMISED_CASES  # noqa: E402
from bench.realmodels.judge import Outcome, paired_twice  # noqa: E402
from bench.realmodels.run import false_fail_line, false_fail_rows  # noqa: E402


def test_optimised_graphs_with_inlined_activations_on_at_least_two_real_models() -> None:
    assert all(c in CASES and c.expect == "healthy" for c in OPTIMISED_CASES)
    for kind in ("-ort-all", "-ort-extended", "-ort-all-ascend-npy"):
        models = {c.model for c in OPTIMISED_CASES if c.name.endswith(kind)}
        assert len(models) >= 2, (kind, models)
    assert len({c.name for c in CASES}) == len(CASES)


def test_a_golden_tensor_paired_twice_is_found() -> None:
    rows = [
        {"name": "a", "target_name": "a", "side": "both"},
        {"name": "a", "target_name": "reshape_token_1", "side": "both"},
        {"name": "b", "target_name": "b", "side": "both"},
        {"name": "b", "target_name": None, "side": "golden"},
        {"name": "tok", "target_name": "tok", "side": "target"},
    ]
    assert paired_twice(rows) == ["a"]
    assert paired_twice(rows[2:]) == []


def test_the_false_fail_count_sums_the_healthy_cases_only() -> None:
    def outcome(case: str, expect: str, fails: int | None) -> Outcome:
        o = Outcome(case, "none", expect, [], "")
        o.fail_rows = fails
        return o

    outcomes = [
        outcome("a-ort-all", "healthy", 0),
        outcome("b-ort-all", "healthy", 7),
        outcome("fault", "culprit", 40),
        outcome("c-ort-all", "healthy", None),
    ]
    per_case = false_fail_rows(outcomes)
    assert per_case == {"a-ort-all": 0, "b-ort-all": 7, "c-ort-all": None}
    line = false_fail_line(per_case)
    assert line.startswith("false FAIL/ERR rows on identical (fp32-equivalent) runs: 7 in 3 case(s)")
    assert "b-ort-all: 7" in line and "no rows from ['c-ort-all']" in line
    assert (
        false_fail_line({"a": 0}) == "false FAIL/ERR rows on identical (fp32-equivalent) runs: 0 in 1 case(s)"
    )
