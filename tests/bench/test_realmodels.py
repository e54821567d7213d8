"""Issue 10: dumpscope's verdicts on the real-model corpus (quick set) and the corpus's own checks.

The quick cases build real PP-OCR / Silero VAD dumps with an injected fault of known
root cause (``bench/realmodels``; wheels downloaded once with ``pip download`` and
cached) and assert that ``dumpscope diagnose --json`` names it.  Cases that fail today
for a bug issue 10 lists are ``xfail(strict=True)``: the fix flips them to pass, and
the strict marker then asks for the marker to go.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from bench.realmodels import judge as corpus_judge  # noqa: E402
from bench.realmodels import numerics  # noqa: E402
from bench.realmodels.build import Builder, BuildError  # noqa: E402
from bench.realmodels.cases import BY_NAME, CASES, CLASS_ALIASES, QUICK, Case  # noqa: E402
from bench.realmodels.models import ModelUnavailable, cache_root, model_path  # noqa: E402
from bench.realmodels.replay import replay  # noqa: E402
from bench.realmodels.replay import verdict as replay_verdict  # noqa: E402

#: Quick cases dumpscope gets wrong today, with the issue-10 item that fixes each.
KNOWN_WRONG: dict[str, str] = {}


@pytest.fixture(scope="module")
def builder() -> Builder:
    return Builder(cache_root() / "corpus")


def _built(case: Case, builder: Builder) -> tuple[Path, Path]:
    try:
        return case.build(builder, case)
    except ModelUnavailable as exc:
        pytest.skip(f"corpus model unavailable (no PyPI access?): {exc}")
    except BuildError as exc:
        pytest.fail(f"dumpscope dump failed on a corpus model: {exc}")


def _quick_params() -> list[object]:
    return [
        pytest.param(c, id=c.name, marks=[pytest.mark.xfail(strict=True, reason=KNOWN_WRONG[c.name])])
        if c.name in KNOWN_WRONG
        else pytest.param(c, id=c.name)
        for c in QUICK
    ]


@pytest.mark.slow
@pytest.mark.parametrize("case", _quick_params())
def test_dumpscope_names_the_truth(case: Case, builder: Builder) -> None:
    golden, target = _built(case, builder)
    outcome = corpus_judge.judge(case, golden, target)
    assert outcome.reasons == [], f"{case.name} ({case.how}): {outcome.reasons}; summary: {outcome.summary}"


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in QUICK if c.expect == "culprit"], ids=lambda c: c.name)
def test_the_injected_fault_is_where_the_case_says(case: Case, builder: Builder) -> None:
    """Independent of dumpscope: the truth tensor differs and (when it has inputs) its inputs do not."""
    golden, target = _built(case, builder)
    facts = corpus_judge.independent(case, golden, target)
    assert facts.get("tensor") in case.truth
    broken = facts["nonfinite_target"] > 0 or facts.get("rel_error", 0.0) > 1e-2
    assert broken, facts
    inputs = facts.get("inputs_rel_error")
    assert inputs is None or inputs < 5e-3, facts
    replayed = replay(model_path(case.model), golden, target, facts["tensor"])
    assert "note" in replayed or replayed["says"] in ("introduced", "constant"), replayed


@pytest.mark.parametrize(
    ("facts", "says"),
    [
        ({"target_error": 0.0, "constant_effect": 0.0, "replay_with_target_inputs_error": 0.0}, "clean"),
        (
            {"target_error": 12.5, "constant_effect": 12.5, "replay_with_target_inputs_error": 0.002},
            "constant",
        ),
        (
            {"target_error": 0.73, "constant_effect": 0.0, "replay_with_target_inputs_error": 0.0},
            "introduced",
        ),
        (
            {"target_error": 0.011, "constant_effect": 1e-3, "replay_with_target_inputs_error": 0.011},
            "inherited",
        ),
    ],
)
def test_replay_verdict(facts: dict[str, float], says: str) -> None:
    assert replay_verdict(facts) == says


def test_the_corpus_covers_every_class_of_issue_10() -> None:
    classes = {c.cls for c in CASES if c.expect == "culprit"}
    assert classes >= {
        "layout",
        "operator",
        "preprocessing",
        "fusion",
        "overflow",
        "nan",
        "quantisation",
        "weights",
    }
    assert {c.expect for c in CASES} == {"culprit", "healthy", "drift", "mismatch"}
    assert all(c.cls in CLASS_ALIASES for c in CASES)
    assert all(c.truth for c in CASES if c.expect == "culprit")
    assert len(BY_NAME) == len(CASES)


def test_the_corpus_holds_each_issue_20_fault_on_two_real_models() -> None:
    """Issue 20: weights x k, sign-flipped channels, recurrent weights, ... each on at least two models."""
    from bench.realmodels.cases import WEIGHT_CASES

    kinds = {"weight-x": set(), "signflip": set(), "recurrence": set()}  # type: dict[str, set[str]]
    for c in WEIGHT_CASES:
        for kind, models in kinds.items():
            if kind in c.name:
                models.add(c.model)
    assert all(len(models) >= 2 for models in kinds.values()), kinds


@pytest.mark.parametrize(
    ("cls", "cause", "expected"),
    [
        ("preprocessing", "input-mismatch", True),
        ("operator", "Operator implementation", True),
        ("operator", "optimisation", False),
        ("drift", "accumulated_precision drift", True),
        ("nan", "nan-inf", True),
    ],
)
def test_class_matching(cls: str, cause: str, expected: bool) -> None:
    assert corpus_judge.class_matches(cls, cause) is expected


def test_advice_rules_catch_ascend_advice_on_other_targets() -> None:
    case = BY_NAME["det-fusion-hardsigmoid"]
    causes = [{"name": "t", "advice": "set the pass to off in fusion_switch.cfg", "commands": []}]
    assert any("fusion_switch" in r for r in corpus_judge.check_advice(case, causes))
    assert (
        corpus_judge.check_advice(case, [{"name": "t", "advice": "disable this fusion", "commands": []}])
        == []
    )


_arrays = hnp.arrays(
    np.float32,
    hnp.array_shapes(min_dims=2, max_dims=4, min_side=1, max_side=4),
    elements=st.floats(-1e3, 1e3, width=32),
)


def test_layout_claims_are_counted_and_checked_against_the_files(tmp_path: Path) -> None:
    """The corpus counter: a claimed layout that the files support is decisive; the best of
    two bad orders (the PP-OCRv4 det ConvTranspose case) is counted as not decisive."""
    rng = np.random.default_rng(0)
    g = rng.standard_normal((1, 6, 8, 8))
    good = np.ascontiguousarray(g.transpose(0, 2, 3, 1))
    bad = -0.12 * g + -0.04 * g.transpose(0, 1, 3, 2) + rng.standard_normal(g.shape)
    rows = []
    for name, t, perm in (("good", good, "(0, 3, 1, 2)"), ("bad", bad, "(0, 1, 3, 2)")):
        np.save(tmp_path / f"{name}-g.npy", g)
        np.save(tmp_path / f"{name}-t.npy", t)
        rows.append(
            {
                "golden_file": str(tmp_path / f"{name}-g.npy"),
                "target_file": str(tmp_path / f"{name}-t.npy"),
                "message": f"layout chosen by values: target axes permuted {perm} (sampled cosine -0.04)",
            }
        )
    rows.append({"message": "cosine 0.5 < 0.9999"})
    assert corpus_judge.layout_claims(rows) == (2, 1)
    assert numerics.layout_is_decisive(g, good, (0, 3, 1, 2), 0.99, 10.0)
    assert not numerics.layout_is_decisive(g, bad, (0, 1, 3, 2), 0.99, 10.0)


@settings(max_examples=60, deadline=None)
@given(_arrays, st.randoms(use_true_random=False))
def test_aligning_permutation_undoes_any_transpose(arr: np.ndarray, rnd) -> None:
    perm = list(range(arr.ndim))
    rnd.shuffle(perm)
    moved = arr.transpose(perm)
    found = numerics.aligning_permutation(arr.astype(np.float64), moved.astype(np.float64))
    if found is None:
        assert np.array_equal(moved, arr) and moved.shape == arr.shape
    else:
        assert np.array_equal(moved.transpose(found), arr)


@settings(max_examples=60, deadline=None)
@given(_arrays, st.floats(0.5, 2.0))
def test_rel_error_and_cosine_against_float64_references(arr: np.ndarray, k: float) -> None:
    g = arr.astype(np.float64)
    t = g * k
    norm = float(np.sqrt(np.sum(g * g)))
    if norm > 0:
        assert numerics.rel_error(g, t) == pytest.approx(abs(k - 1.0), rel=1e-9, abs=1e-12)
        assert numerics.cosine(g, t) == pytest.approx(1.0, abs=1e-9)
    assert numerics.rel_error(g, g) == 0.0


def test_rel_error_sees_a_new_nan() -> None:
    g = np.ones(4)
    t = g.copy()
    t[2] = np.nan
    assert numerics.rel_error(g, t) == float("inf")
