"""SigmaStar's MSE and "RMSE" (a relative L1 error) against an independent float64 reference.

The reference is written from SGS_IPU_SDK's DumpDebug definitions (``compareAccuracy.c``
``compareNum()``, ``dump_debug.py``): sample = target, benchmark = golden,
MSE = Σ(s − b)²/N, RMSE = Σ|s − b| / Σ|b|.  It sums in exact rational-free ``math.fsum``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from dumpscope.core.comparison import metrics
from dumpscope.core.comparison.metrics import compare_arrays
from dumpscope.core.vocabulary import METRIC


@pytest.fixture(autouse=True, params=["native", "numpy"])
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs on the compiled kernel and on the numpy fallback."""
    if request.param == "numpy":
        monkeypatch.setattr(metrics, "_kernel", None)
    elif metrics._kernel is None:
        pytest.skip("the compiled kernel is not built here")
    return str(request.param)


def sgs_reference(sample: np.ndarray, benchmark: np.ndarray) -> tuple[float, float, float]:
    """(MSE, COS, RMSE) as SigmaStar's DumpDebug defines them, by exactly rounded sums."""
    s = [float(v) for v in np.asarray(sample, dtype=np.float64).ravel()]
    b = [float(v) for v in np.asarray(benchmark, dtype=np.float64).ravel()]
    mse = math.fsum((p - q) ** 2 for p, q in zip(s, b, strict=False)) / len(s)
    cos = math.fsum(p * q for p, q in zip(s, b, strict=False)) / math.sqrt(
        math.fsum(p * p for p in s) * math.fsum(q * q for q in b)
    )
    rmse = math.fsum(abs(p - q) for p, q in zip(s, b, strict=False)) / math.fsum(abs(q) for q in b)
    return mse, cos, rmse


finite = st.floats(-1e3, 1e3, width=32, allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, st.integers(2, 400), elements=finite), st.floats(0.0, 0.5))
def test_mse_and_sgs_rmse_match_the_reference(bench: np.ndarray, noise: float) -> None:
    rng = np.random.default_rng(bench.size)
    sample = (bench + rng.standard_normal(bench.size) * noise * (np.abs(bench) + 1)).astype(np.float32)
    assume(np.abs(bench).sum() > 1e-3)
    m = compare_arrays(bench, sample)  # golden = benchmark, target = sample
    mse, _, rmse = sgs_reference(sample, bench)
    # the numpy path forms float32 differences (correctly rounded: 6e-8 per term); sums are float64
    assert math.isclose(m.mse, mse, rel_tol=1e-6, abs_tol=1e-12)
    assert math.isclose(m.sgs_rmse, rmse, rel_tol=1e-6, abs_tol=1e-12)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float32, st.integers(2, 300), elements=finite), st.floats(0.01, 100))
def test_sgs_rmse_is_scale_invariant_and_mse_scales_quadratically(bench: np.ndarray, k: float) -> None:
    assume(np.abs(bench).sum() > 1e-2)
    sample = (bench * np.float32(1.1) + np.float32(0.5)).astype(np.float32)
    a = compare_arrays(bench.astype(np.float64), sample.astype(np.float64))
    b = compare_arrays(bench.astype(np.float64) * k, sample.astype(np.float64) * k)
    assert math.isclose(a.sgs_rmse, b.sgs_rmse, rel_tol=1e-9)
    assert math.isclose(b.mse, a.mse * k * k, rel_tol=1e-9, abs_tol=1e-300)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float32, st.integers(1, 300), elements=finite))
def test_identical_tensors_have_zero_mse_and_rmse(a: np.ndarray) -> None:
    m = compare_arrays(a, a.copy())
    assert m.mse == 0.0 and m.sgs_rmse == 0.0


def test_sgs_rmse_is_not_the_root_of_mse() -> None:
    """The seed listing's ``data`` row: MSE 0.028521 but RMSE 0.191048, nowhere near √MSE = 0.169."""
    bench = np.array([1.0, -2.0, 4.0, 0.5])
    sample = np.array([1.5, -2.0, 3.0, 0.5])
    m = compare_arrays(bench, sample)
    assert m.mse == pytest.approx((0.25 + 1.0) / 4)
    assert m.sgs_rmse == pytest.approx(1.5 / 7.5)
    assert m.sgs_rmse != pytest.approx(math.sqrt(m.mse))


def test_all_zero_benchmark() -> None:
    zero = np.zeros(8, dtype=np.float32)
    assert compare_arrays(zero, zero).sgs_rmse == 0.0
    assert compare_arrays(zero, zero + 1).sgs_rmse == math.inf


def test_nan_positions_are_left_out() -> None:
    bench = np.array([1.0, 2.0, np.nan, 4.0], dtype=np.float32)
    sample = np.array([1.0, 3.0, 5.0, 4.0], dtype=np.float32)
    m = compare_arrays(bench, sample)
    assert m.sgs_rmse == pytest.approx(1.0 / 7.0) and m.mse == pytest.approx(1.0 / 3.0)


def test_multi_chunk_sums_agree(kernel: str) -> None:
    rng = np.random.default_rng(3)
    bench = rng.standard_normal(200_003).astype(np.float32)
    sample = (bench + rng.standard_normal(bench.size).astype(np.float32) * 0.05).astype(np.float32)
    m = compare_arrays(bench, sample, chunk=4096)
    mse, cos, rmse = sgs_reference(sample, bench)
    assert math.isclose(m.mse, mse, rel_tol=1e-6)
    assert math.isclose(m.sgs_rmse, rmse, rel_tol=1e-6)
    assert math.isclose(m.cosine_similarity, cos, rel_tol=1e-9)


def test_registry_labels() -> None:
    assert METRIC["sgs_rmse"].short == "RMSE (SigmaStar)"
    assert METRIC["mse"].short == "MSE"
    assert not METRIC["sgs_rmse"].higher_is_better
