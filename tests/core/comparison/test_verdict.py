"""The typed verdict: kernel flags, the one hard-fail decision, and the renderers."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dumpscope.core.comparison.metrics import compare_arrays
from dumpscope.core.comparison.verdict import PairFlag, hard_failures, render_hard_fail

_values = st.one_of(st.floats(-1e6, 1e6, width=32), st.sampled_from([0.0, np.nan, np.inf, -np.inf]))


def test_flags_of_known_pairs() -> None:
    assert compare_arrays(np.zeros(4), np.ones(4)).flags == PairFlag.ALL_ZERO_GOLDEN
    assert compare_arrays(np.ones(4), np.zeros(4)).flags == PairFlag.ALL_ZERO_TARGET
    assert compare_arrays(np.array(1.0), np.array(2.0)).flags == PairFlag.SINGLE_ELEMENT
    assert compare_arrays(np.zeros(0), np.zeros(0)).flags == PairFlag.EMPTY | PairFlag.NOTHING_COMPARED
    m = compare_arrays(np.array([1.0, np.nan]), np.array([1.0, 2.0]))
    assert m.flags == PairFlag.PARTIAL_FINITE | PairFlag.NONFINITE_MISMATCH | PairFlag.GOLDEN_NONFINITE
    assert m.notes == ("metrics cover the 1 of 2 positions finite on both sides",)


def test_hard_fail_text_is_rendered_from_flags() -> None:
    m = compare_arrays(np.ones(3), np.array([1.0, np.inf, np.nan]))
    assert (
        render_hard_fail(m)
        == "2 positions are NaN/Inf on one side only (target NaN 1, Inf 1; golden NaN 0, Inf 0)"
    )
    assert render_hard_fail(compare_arrays(np.zeros(3), np.ones(3))) == "golden is all zero but target is not"
    # issue 10 item 9: an empty tensor on both sides is equal, not a failure
    assert render_hard_fail(compare_arrays(np.zeros(0), np.zeros(0))) == ""
    assert render_hard_fail(compare_arrays(np.full(2, np.nan), np.ones(2))) != ""
    assert render_hard_fail(compare_arrays(np.full(2, np.nan), np.full(2, np.nan))) == ""


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, st.integers(0, 6), elements=_values), st.data())
def test_verdict_matches_independent_rule(golden: np.ndarray, data: st.DataObject) -> None:
    """The hard-fail verdict equals the rule stated in plain numpy (float64)."""
    target = data.draw(arrays(np.float64, golden.shape, elements=_values))
    m = compare_arrays(golden, target)
    fg, ft = np.isfinite(golden), np.isfinite(target)
    both = fg & ft
    agree = (golden == target) | (np.isnan(golden) & np.isnan(target))
    differing_nonfinite = ~fg & ~ft & ~agree
    mismatch = bool((fg != ft).any() or differing_nonfinite.any())
    golden_zero = both.any() and golden.size > 1 and not golden[both].any() and target[both].any()
    nothing = golden.size > 0 and not both.any() and not mismatch and fg.all()  # empty = equal (issue 10)
    want = PairFlag.NONE
    if mismatch:
        want |= PairFlag.NONFINITE_MISMATCH
    if golden_zero:
        want |= PairFlag.ALL_ZERO_GOLDEN
    if nothing:
        want |= PairFlag.NOTHING_COMPARED
    assert hard_failures(m.flags) == want
    assert bool(render_hard_fail(m)) == bool(want)
