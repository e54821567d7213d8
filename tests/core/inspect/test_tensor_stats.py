"""Element-level statistics behind the tensor pane (core/tensor_stats.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import dumpscope.core.inspect.tensor_stats as ts
from dumpscope.core.inspect.tensor_stats import tensor_stats


def _pair() -> tuple[np.ndarray, np.ndarray]:
    g = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = g.copy()
    t[1, 2, 3] += 5
    t[1, 0, 0] -= 2
    t[0, 1, 1] = np.inf
    t[0, 0, 2] = np.nan
    return g, t


def test_worst_elements_positions_and_histograms() -> None:
    g, t = _pair()
    s = tensor_stats(g, t, worst=4, bins=8)
    # issue 10 item 10: the non-finite positions first (an infinite error), then the largest differences
    assert [(e.index, e.golden, e.abs_error) for e in s.worst] == [
        ((0, 0, 2), 2.0, np.inf),
        ((0, 1, 1), 5.0, np.inf),
        ((1, 2, 3), 23.0, 5.0),
        ((1, 0, 0), 12.0, 2.0),
    ]
    assert np.isnan(s.worst[0].target) and s.worst[1].target == np.inf
    assert [(e.target, e.abs_error) for e in tensor_stats(g, t, worst=2).worst][1] == (np.inf, np.inf)
    assert s.target.nan_at == ((0, 0, 2),) and s.target.inf_at == ((0, 1, 1),)
    assert s.golden.nan_at == () and s.golden.inf_at == ()
    assert s.error_hist is not None and s.error_hist.edges == (0.0, 5.0)
    assert sum(s.error_hist.counts) == 22  # the two non-finite positions are left out
    assert (
        s.golden_hist is not None and sum(s.golden_hist.counts) == 24 and s.golden_hist.edges == (0.0, 23.0)
    )
    assert s.target_hist is not None and sum(s.target_hist.counts) == 22


def test_blocks_do_not_change_the_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    g, t = _pair()
    whole = tensor_stats(g, t, worst=3)
    monkeypatch.setattr(ts, "BLOCK", 5)
    assert repr(tensor_stats(g, t, worst=3)) == repr(whole)  # repr: a NaN element is not == itself


def test_layouts_are_aligned_like_the_metrics() -> None:
    rng = np.random.default_rng(0)
    g = rng.normal(size=(1, 3, 4, 5)).astype(np.float32)
    t = np.transpose(g, (0, 2, 3, 1)).copy()
    t[0, 1, 2, 0] += 3  # golden index (0, 0, 1, 2)
    s = tensor_stats(g, t, worst=1)
    assert s.worst[0].index == (0, 0, 1, 2) and s.worst[0].abs_error == pytest.approx(3, rel=1e-5)
    assert "NHWC" in s.note


def test_incomparable_shapes_keep_per_side_facts() -> None:
    s = tensor_stats(np.zeros(3, np.float32), np.array([1, np.nan, 2, 3], np.float32))
    assert s.error_hist is None and s.worst == () and "shape mismatch" in s.note
    assert s.target.nan_at == ((1,),) and s.target_hist is not None


def test_scalars_bools_ints_and_all_nan() -> None:
    assert tensor_stats(np.float32(1), np.float32(3)).worst[0].index == (0,)
    b = np.zeros((2, 2), dtype=bool)
    assert tensor_stats(b, ~b).worst[0].abs_error == 1.0
    assert tensor_stats(np.arange(4, dtype=np.int8), np.arange(4, dtype=np.int64)).error_hist is not None
    nan = np.full(4, np.nan, np.float32)
    s = tensor_stats(nan, nan)
    assert s.error_hist is None and s.golden_hist is None and s.worst == ()
    assert len(s.golden.nan_at) == 4


@settings(max_examples=40, deadline=None)
@given(
    arrays(
        np.float32,
        st.integers(1, 60),
        elements=st.one_of(st.floats(-1e6, 1e6, width=32), st.sampled_from([np.nan, np.inf, -np.inf])),
    )
)
def test_worst_is_the_true_maximum(g: np.ndarray) -> None:
    t = g[::-1].copy()
    s = tensor_stats(g, t, worst=3)
    both = np.isfinite(g) & np.isfinite(t)
    agree = ~both & ((g == t) | (np.isnan(g) & np.isnan(t)))
    disagree = int((~both & ~agree).sum())  # listed first, as infinite errors (issue 10 item 10)
    assert [e.abs_error for e in s.worst[: min(disagree, 3)]] == [np.inf] * min(disagree, 3)
    if not both.any():
        assert len(s.worst) == min(disagree, 3)
        return
    err = np.abs(t[both].astype(np.float64) - g[both].astype(np.float64))
    if disagree < 3:
        assert s.worst[disagree].abs_error == pytest.approx(err.max())
    assert [e.abs_error for e in s.worst] == sorted((e.abs_error for e in s.worst), reverse=True)
    assert s.error_hist is not None and sum(s.error_hist.counts) == both.sum()
