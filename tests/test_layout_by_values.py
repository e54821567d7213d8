"""Layout by values: ambiguous shapes (N=1, C=H=W; H == W) are decided by the data."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.metrics import compare_arrays
from dumpscope.core.comparison.shapes import MAX_CANDIDATES, RETRY_COSINE, _candidates, align


def _smooth(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    """Non-symmetric data, so a wrong layout really disagrees."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape).astype(np.float32)


def test_square_nchw_vs_nhwc_is_decided_by_values() -> None:
    nchw = _smooth((1, 8, 8, 8))
    nhwc = np.ascontiguousarray(nchw.transpose(0, 2, 3, 1))
    flat_cos = compare_arrays(nchw, nhwc).cosine_similarity
    assert flat_cos < 0.5  # by shape alone the row would fail
    a = align(nchw, nhwc)
    assert "layout chosen by values" in a.note and "(0, 3, 1, 2)" in a.note
    assert compare_arrays(a.golden, a.target).cosine_similarity == pytest.approx(1.0)
    assert not a.warn and not a.error


def test_same_shape_good_cosine_is_not_retried() -> None:
    g = _smooth((1, 8, 8, 8))
    t = g + np.float32(0.01) * _smooth((1, 8, 8, 8), 1)
    a = align(g, t)
    assert a.note == "" and a.target is t


def test_distinct_dims_are_not_retried() -> None:
    g = _smooth((1, 3, 5, 7))
    a = align(g, -g)  # poor cosine, but no other layout gives this shape
    assert a.note == "" and a.target.shape == g.shape


def test_unambiguous_transpose_still_by_shape() -> None:
    g = _smooth((1, 3, 5, 7))
    a = align(g, np.ascontiguousarray(g.transpose(0, 2, 3, 1)))
    assert "NHWC" in a.note and np.array_equal(a.target, g)


def test_hw_swap_with_h_equal_w() -> None:
    g = _smooth((1, 4, 6, 6))
    t = np.ascontiguousarray(g.transpose(0, 1, 3, 2))
    a = align(g, t)
    assert "(0, 1, 3, 2)" in a.note and np.array_equal(a.target, g)


def test_any_axes_permutation_of_distinct_shape() -> None:
    g = _smooth((2, 3, 4, 5))
    t = np.ascontiguousarray(g.transpose(3, 1, 0, 2))
    a = align(g, t)
    assert np.array_equal(a.target, g) and not a.warn


def test_squeezed_ambiguous_layout() -> None:
    g = _smooth((1, 6, 6, 6))
    t = np.ascontiguousarray(g[0].transpose(1, 2, 0))  # [6, 6, 6] HWC, no batch dim
    a = align(g, t)
    assert "layout chosen by values" in a.note
    assert compare_arrays(a.golden, a.target).cosine_similarity == pytest.approx(1.0)


def test_candidates_are_capped_and_start_with_identity() -> None:
    shape = (3, 3, 3, 3, 3)
    c = _candidates(shape, shape)
    assert c[0] == (0, 1, 2, 3, 4) and len(c) == MAX_CANDIDATES


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=4), st.data())
def test_any_permutation_is_recovered(dims: list[int], data: st.DataObject) -> None:
    shape = tuple(dims)
    g = _smooth(shape, len(dims))
    perm = data.draw(st.sampled_from(list(itertools.permutations(range(len(shape))))))
    t = np.ascontiguousarray(g.transpose(perm))
    a = align(g, t)
    assert not a.error
    # the kept layout is the true one, or one that already agreed past the retry bound
    cos = compare_arrays(a.golden, a.target).cosine_similarity
    assert g.size < 2 or cos == pytest.approx(1.0) or cos >= RETRY_COSINE
