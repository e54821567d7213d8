"""Metric kernels against an independent float64 reference, plus properties."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from dumpscope.core.comparison import metrics
from dumpscope.core.comparison.metrics import KL_FLOOR, MSACCUCMP_METRICS, REL_EPS, compare_arrays


@pytest.fixture(autouse=True, params=["native", "numpy"])
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs on the compiled kernel and on the numpy fallback."""
    if request.param == "numpy":
        monkeypatch.setattr(metrics, "_kernel", None)
    elif metrics._kernel is None:
        pytest.skip("the compiled kernel is not built here")
    return str(request.param)


def reference(golden: np.ndarray, target: np.ndarray) -> dict[str, float]:
    """The formulas of research/ascend.md §2.2, written plainly in float64 (x = target)."""
    x = np.asarray(target, dtype=np.float64).ravel()
    y = np.asarray(golden, dtype=np.float64).ravel()
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    d = x - y
    rel = np.where(np.abs(y) > REL_EPS, np.abs(d) / np.where(np.abs(y) > REL_EPS, np.abs(y), 1.0), 0.0)

    def norm(v: np.ndarray) -> np.ndarray:
        lo, hi = v.min(), v.max()
        p = (v - lo) / (hi - lo) if hi != lo else v
        return np.maximum(p, KL_FLOOR)

    px, py = norm(x), norm(y)
    px, py = px / px.sum(), py / py.sum()
    out = {
        "cosine_similarity": float(np.sum(x * y) / math.sqrt(np.sum(x * x) * np.sum(y * y))),
        "max_absolute_error": float(np.max(np.abs(d))),
        "accumulated_relative_error": float(rel.sum()),
        "relative_euclidean_distance": float(math.sqrt(np.sum(d * d) / np.sum(y * y))),
        "kullback_leibler_divergence": float(np.sum(px * np.log(px / py))),
        "mean_absolute_error": float(np.mean(np.abs(d))),
        "root_mean_square_error": float(math.sqrt(np.mean(d * d))),
        "max_relative_error": float(rel.max()),
        "mean_relative_error": float(rel.mean()),
        "mse": float(np.mean(d * d)),
        "sgs_rmse": float(np.sum(np.abs(d)) / np.sum(np.abs(y))),
        "mean_golden": float(y.mean()),
        "std_golden": float(y.std()),
        "mean_target": float(x.mean()),
        "std_target": float(x.std()),
    }
    return out


def assert_matches_reference(golden: np.ndarray, target: np.ndarray, **kw: object) -> None:
    m = compare_arrays(golden, target, **kw).as_dict()
    ref = reference(golden, target)
    for key, want in ref.items():
        got = m[key]
        assert got is not None, key
        # float32 element-wise terms carry 6e-8 relative error; sums are float64.
        assert math.isclose(got, want, rel_tol=2e-6, abs_tol=1e-9), (key, got, want)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64, ml_dtypes.bfloat16])
@pytest.mark.parametrize("size", [2, 1000, 70_001])
def test_matches_float64_reference(dtype: type, size: int) -> None:
    rng = np.random.default_rng(size)
    golden = rng.standard_normal(size).astype(np.float32) * 3
    target = (golden + rng.standard_normal(size).astype(np.float32) * 0.01).astype(dtype)
    assert_matches_reference(golden, target)


def test_chunking_does_not_change_results() -> None:
    rng = np.random.default_rng(1)
    golden = rng.standard_normal((7, 11, 13)).astype(np.float32)
    target = golden * 1.01 + 0.001
    whole = compare_arrays(golden, target, chunk=1 << 20).as_dict()
    tiny = compare_arrays(golden, target, chunk=17).as_dict()
    if metrics._kernel is not None:  # the kernel's own chunk floor: force several chunks
        big = np.tile(golden.ravel(), 300)
        several = compare_arrays(big, np.tile(target.ravel(), 300)).as_dict()
        one = compare_arrays(big, np.tile(target.ravel(), 300), chunk=1 << 22).as_dict()
        for key in MSACCUCMP_METRICS:
            assert math.isclose(several[key], one[key], rel_tol=1e-9, abs_tol=1e-12), key
    for key in MSACCUCMP_METRICS + ("sqnr_db", "within_tolerance", "std_golden"):
        assert math.isclose(whole[key], tiny[key], rel_tol=1e-9, abs_tol=1e-12), key


def test_identical_inputs_have_zero_error() -> None:
    a = np.linspace(-3, 7, 1001, dtype=np.float32)
    m = compare_arrays(a, a.copy())
    assert m.cosine_similarity == pytest.approx(1.0, abs=1e-12)
    assert m.max_absolute_error == 0 and m.root_mean_square_error == 0 and m.relative_euclidean_distance == 0
    assert m.kullback_leibler_divergence == 0
    assert m.sqnr_db == math.inf and m.within_tolerance == 1.0


def test_all_zero_golden_with_nonzero_target_is_a_mismatch() -> None:
    m = compare_arrays(np.zeros(10, np.float32), np.full(10, 100.0, np.float32))
    assert m.relative_euclidean_distance == math.inf  # msaccucmp says 0
    assert m.cosine_similarity is None
    assert any("golden is all zero" in n for n in m.notes)
    assert m.root_mean_square_error == 100.0


def test_all_zero_both_sides_is_identical() -> None:
    m = compare_arrays(np.zeros(5), np.zeros(5))
    assert m.cosine_similarity == 1.0 and m.relative_euclidean_distance == 0.0


def test_target_all_zero_has_cosine_zero() -> None:
    m = compare_arrays(np.ones(5), np.zeros(5))
    assert m.cosine_similarity == 0.0 and m.relative_euclidean_distance == 1.0


def test_scalar_is_compared_by_value_not_cosine_one() -> None:
    m = compare_arrays(np.array(2.0, np.float32), np.array(-2.0, np.float32))
    assert m.cosine_similarity is None
    assert m.max_absolute_error == 4.0 and m.relative_euclidean_distance == 2.0
    assert any("one element" in n for n in m.notes)


def test_nan_and_inf_are_counted_and_excluded() -> None:
    golden = np.arange(1, 11, dtype=np.float32)
    target = golden.copy()
    target[2] = np.nan
    target[5] = np.inf
    m = compare_arrays(golden, target)
    assert (m.nan_target, m.inf_target, m.nan_golden, m.inf_golden) == (1, 1, 0, 0)
    assert m.nonfinite_mismatch == 2
    assert m.compared == 8
    assert m.cosine_similarity == pytest.approx(1.0)
    assert m.within_tolerance == pytest.approx(0.8)


def test_matching_nonfinite_positions_are_agreement() -> None:
    golden = np.array([1.0, np.inf, np.nan, -np.inf, 2.0], np.float32)
    m = compare_arrays(golden, golden.copy())
    assert m.nonfinite_mismatch == 0 and m.within_tolerance == 1.0


def test_opposite_infinities_are_a_mismatch() -> None:
    m = compare_arrays(np.array([1.0, np.inf]), np.array([1.0, -np.inf]))
    assert m.nonfinite_mismatch == 1


def test_all_nan_target() -> None:
    m = compare_arrays(np.ones(100, np.float32), np.full(100, np.nan, np.float32))
    assert m.nan_target == 100 and m.nonfinite_mismatch == 100 and m.compared == 0
    assert m.cosine_similarity is None and m.within_tolerance == 0.0


def test_empty_tensor() -> None:
    m = compare_arrays(np.zeros((0, 3)), np.zeros((0, 3)))
    assert m.compared == 0 and "empty" in m.notes[0]


def test_size_mismatch_raises() -> None:
    with pytest.raises(ValueError, match="sizes differ"):
        compare_arrays(np.zeros(3), np.zeros(4))


def test_integer_and_bool_inputs() -> None:
    g = np.array([1, 2, 3, 4], np.int64)
    m = compare_arrays(g, np.array([1, 2, 3, 5], np.int64))
    assert m.max_absolute_error == 1.0
    b = compare_arrays(np.array([True, False]), np.array([True, True]))
    assert b.max_absolute_error == 1.0


def test_float16_working_conversion_is_exact_for_every_bit_pattern() -> None:
    """All 65,536 float16 values, subnormals, ±inf and NaN included, through the kernel's path."""
    from dumpscope.core.comparison.metrics import _chunks

    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    halves = bits.view(np.float16)
    # Independent decoding from the bit fields.
    sign = np.where(bits >> 15, -1.0, 1.0)
    exp = ((bits >> 10) & 0x1F).astype(np.int64)
    frac = (bits & 0x3FF).astype(np.float64)
    value = np.where(exp == 0, sign * frac * 2.0**-24, sign * (1 + frac / 1024) * 2.0 ** (exp - 15))
    value = np.where(exp == 31, np.where(frac == 0, sign * np.inf, np.nan), value)
    converted = np.concatenate(
        [x.copy() for x, _y in _chunks(np.zeros(65536, np.float32), halves, 4096, np.dtype(np.float32))]
    )
    # ...and through the whole kernel: each value compared with itself in float64.
    m = compare_arrays(value.astype(np.float64), halves)
    assert m.max_absolute_error == 0.0 and m.nonfinite_mismatch == 0
    assert converted.dtype == np.float32
    finite = ~np.isnan(value)
    assert np.array_equal(converted[finite].astype(np.float64), value[finite])
    assert np.isnan(converted[~finite]).all() and (~finite).sum() == 2046


finite_floats = st.floats(-1e4, 1e4, allow_nan=False, width=32)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, st.integers(2, 300), elements=finite_floats), st.floats(0.01, 100))
def test_cosine_is_scale_invariant(a: np.ndarray, scale: float) -> None:
    rng = np.random.default_rng(0)
    b = a + rng.standard_normal(a.size).astype(np.float32)
    assume(np.abs(a).max() > 1e-3 and np.abs(b).max() > 1e-3)
    c1 = compare_arrays(a, b).cosine_similarity
    c2 = compare_arrays(a, (b.astype(np.float64) * scale)).cosine_similarity
    assert c1 is not None and c2 is not None
    assert c1 == pytest.approx(c2, abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, st.integers(2, 300), elements=finite_floats))
def test_symmetric_metrics(a: np.ndarray) -> None:
    b = np.roll(a, 1)
    m1, m2 = compare_arrays(a, b), compare_arrays(b, a)
    for key in ("max_absolute_error", "mean_absolute_error", "root_mean_square_error"):
        assert getattr(m1, key) == pytest.approx(getattr(m2, key), rel=1e-9, abs=1e-12)
    if m1.cosine_similarity is not None and m2.cosine_similarity is not None:
        assert m1.cosine_similarity == pytest.approx(m2.cosine_similarity, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, st.integers(1, 200), elements=finite_floats))
def test_zero_error_on_identical_inputs(a: np.ndarray) -> None:
    m = compare_arrays(a, a.copy())
    assert m.max_absolute_error == 0 and m.nonfinite_mismatch == 0 and m.within_tolerance == 1.0


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(np.float32, st.integers(2, 200), elements=finite_floats),
    st.data(),
)
def test_nan_in_target_is_always_counted(a: np.ndarray, data: st.DataObject) -> None:
    pos = data.draw(st.integers(0, a.size - 1))
    t = a.copy()
    t[pos] = np.nan
    m = compare_arrays(a, t)
    assert m.nan_target == 1 and m.nonfinite_mismatch == 1 and m.compared == a.size - 1


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float32, st.integers(3, 200), elements=st.floats(-100, 100, width=32)))
def test_reference_agreement_on_random_pairs(a: np.ndarray) -> None:
    rng = np.random.default_rng(a.size)
    b = (a + rng.standard_normal(a.size) * 0.1).astype(np.float32)
    assume(np.abs(a).sum() > 1e-3 and np.ptp(a) > 1e-3 and np.ptp(b) > 1e-3)
    assert_matches_reference(a, b)


def test_kl_is_finite_when_distributions_differ_wildly() -> None:
    golden = np.linspace(0, 1, 1000, dtype=np.float32)
    target = golden[::-1].copy()
    assert_matches_reference(golden, target)
    m = compare_arrays(golden, target)
    assert m.kullback_leibler_divergence is not None and math.isfinite(m.kullback_leibler_divergence)
