"""Layout by values: ambiguous shapes (N=1, C=H=W; H == W) are decided by the data, and only
decisively (:func:`~dumpscope.core.comparison.shapes.decisive`): the best of several bad
candidates is never adopted, and the numbers on a row are those of the layout it names."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.metrics import compare_arrays
from dumpscope.core.comparison.shapes import (
    DECISIVE_COSINE,
    DECISIVE_MARGIN,
    MAX_CANDIDATES,
    RETRY_COSINE,
    _candidates,
    align,
    decisive,
    find_layout,
)


def _smooth(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    """Non-symmetric data, so a wrong layout really disagrees."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape).astype(np.float32)


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    """Float64 cosine, independent of the product's sampling."""
    a, b = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    return float(a @ b / np.sqrt((a @ a) * (b @ b)))


def test_square_nchw_vs_nhwc_of_equal_shapes_is_reported_not_applied() -> None:
    """Equal shapes are compared as declared; the decisive permutation is a layout mismatch."""
    nchw = _smooth((1, 8, 8, 8))
    nhwc = np.ascontiguousarray(nchw.transpose(0, 2, 3, 1))
    a = align(nchw, nhwc)
    assert a.target is nhwc and a.layout is None and a.note == ""
    assert a.permuted is not None and a.permuted.perm == (0, 3, 1, 2) and a.permuted.exact
    assert np.array_equal(a.permuted.apply(nhwc), nchw)
    others = [_cos(nchw, nhwc.transpose(p)) for p in _candidates(nchw.shape, nhwc.shape) if p != (0, 3, 1, 2)]
    assert max(others) < 0.5 and a.permuted.runner_up < 0.5


def test_same_shape_good_cosine_is_not_retried() -> None:
    g = _smooth((1, 8, 8, 8))
    t = g + np.float32(0.01) * _smooth((1, 8, 8, 8), 1)
    a = align(g, t)
    assert a.note == "" and a.target is t and a.permuted is None


def test_distinct_dims_are_not_retried() -> None:
    g = _smooth((1, 3, 5, 7))
    a = align(g, -g)  # poor cosine, but no other layout gives this shape
    assert a.note == "" and a.target.shape == g.shape and a.permuted is None


def test_unambiguous_transpose_still_by_shape() -> None:
    g = _smooth((1, 3, 5, 7))
    a = align(g, np.ascontiguousarray(g.transpose(0, 2, 3, 1)))
    assert "NHWC" in a.note and np.array_equal(a.target, g) and a.layout is not None
    assert a.layout.perm == (0, 3, 1, 2) and a.layout.declared == ""


def test_ambiguous_different_shapes_are_decided_by_values() -> None:
    g = _smooth((1, 4, 6, 6))  # target [1,6,6,4]: NHWC, or NHWC with H/W swapped
    t = np.ascontiguousarray(g.transpose(0, 3, 2, 1))
    a = align(g, t)
    assert "layout chosen by values" in a.note and str(a.layout.perm) in a.note and "equal values" in a.note
    assert np.array_equal(a.target, g)


def test_a_declared_layout_is_used_without_measuring() -> None:
    g = _smooth((1, 5, 5, 5))
    t = np.ascontiguousarray(g.transpose(0, 2, 3, 1))
    a = align(g, t, ("NCHW", "NHWC"))
    assert np.array_equal(a.target, g) and a.layout.declared and "declare" in a.note and a.permuted is None


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


# --- "decisive", and the best of bad candidates ---------------------------------------------


def test_decisive_rule() -> None:
    assert decisive([(False, -0.12), (False, -0.04)]) is None  # PP-OCRv4 det's ConvTranspose.1
    assert decisive([(False, 0.30), (False, 0.62)]) is None  # the HWC image read as NCHW, noisy
    assert decisive([(False, 0.2), (True, 1.0)]) == 1
    assert decisive([(True, 1.0), (True, 1.0)], confirm=lambda i: False) is None  # a sample of zeros
    assert decisive([(False, 0.5), (False, 0.9995)]) == 1
    near = 1 - DECISIVE_MARGIN * (1 - 0.9995) / 2  # the runner-up too close to the winner
    assert decisive([(False, near), (False, 0.9995)]) is None
    assert decisive([(False, 0.2), (False, DECISIVE_COSINE - 1e-3)]) is None


def _mixed(g: np.ndarray, a: float, b: float, seed: int) -> np.ndarray:
    """a*g + b*g with H/W swapped + noise: poor agreement in every layout."""
    noise = _smooth(g.shape, seed)
    return (a * g + b * g.transpose(0, 1, 3, 2) + noise).astype(np.float32)


def test_the_best_of_bad_candidates_is_never_adopted() -> None:
    """[1,24,32,32]: identity ~-0.12, H/W swap ~-0.04 (PP-OCRv4 det fp16, p2o.ConvTranspose.1)."""
    g = _smooth((1, 24, 32, 32), 3)
    t = _mixed(g, -0.12, -0.04, 4)
    assert _cos(g, t) < _cos(g, t.transpose(0, 1, 3, 2)) < 0  # the swap is the "best" of two bad ones
    a = align(g, t)
    assert a.layout is None and a.permuted is None and a.note == "" and a.target is t
    assert find_layout(g, t) is None
    m = compare_arrays(a.golden, a.target)
    assert m.cosine_similarity == pytest.approx(_cos(g, t), abs=1e-6)  # the numbers of the layout as declared


def test_an_hwc_image_that_is_not_the_golden_is_no_layout() -> None:
    """An HWC buffer declared NCHW whose values only half-agree (cosine 0.6 after the reorder)."""
    x = np.random.default_rng(5).random((1, 3, 16, 20)).astype(np.float32)
    hwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(x.shape)
    other = np.random.default_rng(6).random(x.shape).astype(np.float32)
    t = (hwc + 1.6 * (other - 0.5)).astype(np.float32)
    found = find_layout(x, t)
    assert found is None


def test_an_hwc_buffer_declared_nchw_is_found_exactly() -> None:
    x = np.random.default_rng(5).random((1, 3, 16, 20)).astype(np.float32)
    hwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(x.shape)
    found = find_layout(x, hwc)
    assert found is not None and found.exact and found.reread and found.stored == (16, 20, 3)
    assert np.array_equal(found.apply(hwc), x[0])
    assert found.order() == "(1, 2, 0) of the golden's axes, its buffer read as [16, 20, 3]"


def test_a_layout_under_fp16_rounding_is_decisive() -> None:
    g = _smooth((1, 8, 12, 12), 7)
    t = np.ascontiguousarray(g.transpose(0, 1, 3, 2)).astype(np.float16).astype(np.float32)
    a = align(g, t)
    assert a.permuted is not None and not a.permuted.exact and a.permuted.cosine > 0.9999
    assert a.permuted.runner_up < 1 - DECISIVE_MARGIN * (1 - a.permuted.cosine)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([(1, 4, 6, 6), (1, 5, 5, 5), (2, 3, 3), (1, 6, 6, 4)]))
def test_unrelated_tensors_never_get_a_layout(seed: int, shape: tuple[int, ...]) -> None:
    """Independent data agrees in no order: nothing is adopted, reported or found."""
    g = _smooth(shape, seed)
    t = _smooth(shape, seed + 1)
    a = align(g, t)
    assert a.permuted is None and a.layout is None and find_layout(g, t) is None


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=2, max_size=4), st.data())
def test_any_permutation_is_recovered(dims: list[int], data: st.DataObject) -> None:
    shape = tuple(dims)
    g = _smooth(shape, len(dims))
    perm = data.draw(st.sampled_from(list(itertools.permutations(range(len(shape))))))
    t = np.ascontiguousarray(g.transpose(perm))
    a = align(g, t)
    assert not a.error
    # compared in the true layout, or reported (equal shapes), or already agreeing past the retry bound
    cos = compare_arrays(a.golden, a.target).cosine_similarity
    fixed = a.permuted.apply(t) if a.permuted is not None else None
    assert (
        g.size < 2
        or cos == pytest.approx(1.0)
        or cos >= RETRY_COSINE
        or (fixed is not None and np.array_equal(fixed.reshape(g.shape), g))
    )


def test_an_undecided_nhwc_pair_is_compared_in_the_named_layout_with_a_warning() -> None:
    """[1,4,6,6] vs [1,6,6,4]: NHWC, or NHWC with H/W swapped; noisy values decide neither."""
    g = _smooth((1, 4, 6, 6), 8)
    t = np.ascontiguousarray(_mixed(g, 0.3, 0.0, 9).transpose(0, 2, 3, 1))
    a = align(g, t)
    assert "chosen by values" not in a.note and "NHWC" in a.note and a.warn and a.layout.perm == (0, 3, 1, 2)
    assert np.array_equal(a.target, t.transpose(0, 3, 1, 2))


def test_a_winner_on_the_sample_is_confirmed_on_the_whole_tensor() -> None:
    """Mostly zeros (a sample of zeros proves nothing): no order is adopted on the sample alone."""
    g = np.zeros((1, 8, 64, 64), np.float32)
    g[0, :, 0, 1:] = 1.0  # off the strided sample
    t = np.ascontiguousarray(g.transpose(0, 1, 3, 2))
    a = align(g, t)
    assert a.permuted is None or np.array_equal(a.permuted.apply(t), g)


def test_orders_that_only_move_size_one_axes_are_one_candidate() -> None:
    """ORT's optimised PP-OCRv4 rec: golden [1,1,8,20,15] vs target [1,20,1,8,15] (p2o.Slice.7)."""
    g = _smooth((1, 1, 8, 20, 15), 2)
    t = np.ascontiguousarray(g.transpose(0, 3, 1, 2, 4))
    assert len(_candidates(g.shape, t.shape)) == 1
    a = align(g, t)
    assert np.array_equal(a.target, g) and not a.warn


@settings(max_examples=60, deadline=None)
@given(
    shape=st.lists(st.integers(1, 40), min_size=1, max_size=4),
    transposed=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_the_layout_sample_takes_the_c_order_positions_of_any_view(
    shape: list[int], transposed: bool, seed: int
) -> None:
    """The sample that scores a layout is the elements at every ``size // SAMPLE``-th position in C
    order, whether read through a slice of a contiguous array or by index from a transposed view."""
    from dumpscope.core.comparison import shapes

    a = np.random.default_rng(seed).standard_normal(shape).astype(np.float16)
    view = a.T if transposed else a
    step = max(1, view.size // shapes.SAMPLE)
    want = [float(v) for v in np.asarray(view).ravel(order="C")[::step][: shapes.SAMPLE]]
    assert shapes._sample(view).tolist() == want
