"""The one-pass kernel (``_kernel.pair``): every type read in place and converted in C, the
moments as before bit for bit, KL from its fused pass within a stated float64 tolerance.

Tolerances stated here (and in the README):

* every metric but KL is bit for bit what the kernel gave before (main at 17ecea3), on the demo, where
  the kernel runs the clone those values were stored from (AVX-512; another clone within 2e-15 relative);
* KL is within 1e-9 relative (+1e-18 absolute) of an exact (50-digit) reference, where the old
  kernel was within ~3e-8: so it differs from main's KL by at most 5e-8 relative (+1e-18);
* the numpy fallback agrees with the kernel as both agree with test_metrics' float64 reference
  (2e-6 relative, 1e-9 absolute: the fallback's element-wise terms are float32 where the inputs
  allow), counts exactly.
"""

from __future__ import annotations

import hashlib
import json
import math
from decimal import Decimal, getcontext
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from dumpscope.core.comparison import metrics
from dumpscope.core.comparison.metrics import COUNT_COLUMNS, FLOAT_COLUMNS, KL_FLOOR, compare_arrays
from dumpscope.core.comparison.slices import slice_metrics
from tests.support.paths import DATA

needs_kernel = pytest.mark.skipif(metrics._kernel is None, reason="the compiled kernel is not built here")
MAIN = DATA / "kernel" / "demo_metrics_main.json"
KL = "kullback_leibler_divergence"


def _inputs_hash(golden: Path, target: Path) -> str:
    h = hashlib.sha256()
    for side in (golden, target):
        for f in sorted(side.rglob("*.npy")):
            h.update(f.read_bytes())
    return h.hexdigest()


def _avx512() -> bool:
    """Whether the kernel runs its ``avx512f`` clone (``target_clones`` picks it where the CPU has it)."""
    cpuinfo = Path("/proc/cpuinfo")
    return cpuinfo.exists() and " avx512f" in cpuinfo.read_text()


#: How far a float column may be from main's values on a CPU whose kernel clone is not the one they were
#: stored from (AVX-512): the avx2 and default clones vectorise the float64 sums in other widths, so the last
#: bits round otherwise (an AMD EPYC without AVX-512: at most 4 ulps, 4.7e-16 relative, on the demo).
OTHER_CLONE_RTOL = 0.0 if _avx512() else 2e-15


def _same(a: object, b: object) -> bool:
    """Equal bit for bit (NaN equal to NaN, None to None); floats within :data:`OTHER_CLONE_RTOL`."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return True
        return a == b or abs(a - b) <= OTHER_CLONE_RTOL * abs(b)
    return a == b


#: Columns computed another way since main's values were stored, and how far (relative, absolute below 1)
#: they may be from them: the cosines from x.y summed directly (main derived it from |x|^2 + |y|^2 -
#: |x - y|^2: float64 sums, the slices' float32), a side's deviation over its finite values in two passes.
REDONE = {"cosine_similarity": 1e-12, "slice_cosine": 1e-6, "std_golden": 1e-12, "std_target": 1e-12}


def test_demo_metrics_are_mains_bit_for_bit_but_kl_within_its_old_rounding(demo) -> None:  # type: ignore[no-untyped-def]
    """`compare` on the demo gives, row by row, the metric columns main gave (stored at the start
    of this work): bit for bit, except KL within 5e-8 relative (main's own rounding error) and the
    columns computed another way since (:data:`REDONE`), within the rounding of main's way."""
    from dumpscope.core.comparison.pipeline import compare_frame

    stored = json.loads(MAIN.read_text())
    if _inputs_hash(demo.golden, demo.target) != stored["inputs_sha256"]:
        pytest.skip("the demo's dumps differ from those main was measured on (another onnxruntime build)")
    frame = compare_frame(demo.golden, demo.target)
    rows = {r["name"]: r for r in frame.iter_rows(named=True)}
    assert set(rows) == set(stored["rows"])
    kl_checked = 0
    for name, old in stored["rows"].items():
        for col, was in zip(stored["columns"], old, strict=True):
            now = rows[name][col]
            if isinstance(was, str):  # the JSON writer spells non-finite floats "inf", "nan"
                was = float(was)
            if col == KL and was is not None and now is not None:
                assert abs(now - was) <= 5e-8 * abs(was) + 1e-18, (name, now, was)
                kl_checked += 1
            elif col in REDONE and was is not None and now is not None:
                assert abs(now - was) <= REDONE[col] * max(1.0, abs(was)), (name, col, now, was)
            else:
                assert _same(now, was), (name, col, now, was)
    assert kl_checked > 50


def _exact_kl(golden: np.ndarray, target: np.ndarray) -> float:
    """msaccucmp's KL of the min-max normalised sides, each step in 50-digit decimals."""
    getcontext().prec = 50
    x = np.asarray(target, np.float64).ravel()
    y = np.asarray(golden, np.float64).ravel()
    keep = np.isfinite(x) & np.isfinite(y)

    def weights(v: np.ndarray) -> list[Decimal]:
        lo, hi = float(v.min()), float(v.max())
        # the kernel's float64 normalisation (one rounding each), then exact arithmetic
        p = (v - lo) * (1.0 / (hi - lo)) if hi > lo else v
        return [Decimal(float(w)) for w in np.maximum(p, KL_FLOOR)]

    a, b = weights(x[keep]), weights(y[keep])
    sa, sb = sum(a), sum(b)
    return float(sum(p / sa * ((p / sa) / (q / sb)).ln() for p, q in zip(a, b, strict=True)))


@needs_kernel
@settings(max_examples=40, deadline=None)
@given(
    golden=hnp.arrays(np.float32, st.integers(2, 400), elements=st.floats(-100, 100, width=32)),
    noise=st.sampled_from([1e-4, 1e-3, 1e-2, 0.3]),
    dtype=st.sampled_from([np.float16, np.float32, ml_dtypes.bfloat16, np.float64]),
    seed=st.integers(0, 2**16),
)
def test_kl_within_1e9_of_an_exact_reference(
    golden: np.ndarray, noise: float, dtype: type, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    target = (golden * (1 + noise * rng.standard_normal(golden.size))).astype(dtype)
    got = compare_arrays(golden, target).kullback_leibler_divergence
    want = _exact_kl(golden, target)
    assert got is not None
    if abs(want) < 2 * metrics.REL_EPS:  # the kernel reports a KL below eps64 as 0
        assert abs(got - want) <= 2 * metrics.REL_EPS, (got, want)
    else:
        assert abs(got - want) <= 1e-9 * abs(want) + 1e-18, (got, want)


TYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64]
FLOATS = [np.float16, np.float32, np.float64, ml_dtypes.bfloat16]
awkward = st.one_of(
    st.floats(-1e4, 1e4, width=32), st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0, 1e-30])
)


def _close(a: object, b: object, key: str = "") -> bool:
    """Counts exactly; floats as test_metrics holds both paths to its reference (the fallback
    takes element-wise differences and ratios in float32 where the inputs allow: 6e-8 each).
    A decibel column is the log of a ratio held to 2e-6 relative, so it is held to the same in
    absolute dB (10 log10(1 + 2e-6)): near 0 dB a relative tolerance on the log itself is no bound."""
    if a is None or b is None or isinstance(a, int):
        return a == b
    assert isinstance(a, float) and isinstance(b, float)
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return _same(a, b)
    if key.endswith("_db"):
        return math.isclose(a, b, rel_tol=2e-6, abs_tol=10 * math.log10(1 + 2e-6))
    return math.isclose(a, b, rel_tol=2e-6, abs_tol=1e-9)


@needs_kernel
@settings(max_examples=60, deadline=None)
@given(
    golden=hnp.arrays(np.float32, st.integers(1, 3000), elements=awkward),
    golden_type=st.sampled_from([*FLOATS, *TYPES]),
    target_type=st.sampled_from([*FLOATS, *TYPES]),
    chunk=st.sampled_from([7, 512, metrics.CHUNK]),
    seed=st.integers(0, 2**16),
)
# near 0 dB: the fallback's float32 differences move the log by 2e-7 dB, 2e-6 of the value itself
@example(np.array([2609.0, 1922.9044], np.float32), np.float32, np.int8, 7, 0)
def test_every_type_pair_agrees_with_the_numpy_fallback(
    golden: np.ndarray, golden_type: type, target_type: type, chunk: int, seed: int
) -> None:
    """Any two numeric types, several chunks, NaN/Inf anywhere: the kernel's conversion and
    sums agree with numpy's cast and float64 sums (counts exactly)."""
    rng = np.random.default_rng(seed)
    target = golden * (1 + 1e-3 * rng.standard_normal(golden.size).astype(np.float32))
    with np.errstate(all="ignore"):
        g = golden if golden_type in FLOATS else np.nan_to_num(golden, nan=0, posinf=9, neginf=-9)
        t = target if target_type in FLOATS else np.nan_to_num(target, nan=0, posinf=9, neginf=-9)
        g, t = g.astype(golden_type), t.astype(target_type)
    native = compare_arrays(g, t, chunk=chunk).as_dict()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(metrics, "_kernel", None)
        fallback = compare_arrays(g, t, chunk=chunk).as_dict()
    for key in (*FLOAT_COLUMNS, *COUNT_COLUMNS, "compared", "flags"):
        assert _close(native[key], fallback[key], key), (key, native[key], fallback[key])


@needs_kernel
def test_every_half_converts_exactly_with_and_without_f16c() -> None:
    """All 65536 float16 bit patterns (subnormals, infinities, NaNs) against their float32
    values, through the F16C path and the portable one."""
    assert metrics._kernel is not None
    halves = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    exact = halves.astype(np.float32)
    was = metrics._kernel.f16c(True)
    try:
        for flag in (True, False):
            metrics._kernel.f16c(flag)
            m = compare_arrays(exact, halves)
            finite = int(np.isfinite(exact).sum())
            assert m.max_absolute_error == 0.0 and m.compared == finite
            assert (m.nan_target, m.inf_target) == (int(np.isnan(exact).sum()), int(np.isinf(exact).sum()))
            assert m.nonfinite_mismatch == 0 and m.within_tolerance == 1.0
    finally:
        metrics._kernel.f16c(was)


@needs_kernel
def test_a_leading_chunk_of_matched_nan_keeps_its_counts() -> None:
    """Chunks merge by adding: a first chunk with nothing compared (NaN on both sides) keeps its
    NaN counts when later chunks come (the Python merge used to replace them)."""
    golden = np.arange(1, 3001, dtype=np.float32)
    target = golden * np.float32(1.0001)
    golden[:1000] = target[:1000] = np.nan
    m = compare_arrays(golden, target, chunk=1000)
    assert (m.nan_golden, m.nan_target, m.compared) == (1000, 1000, 2000)
    assert m.within_tolerance == 1.0


@needs_kernel
def test_pair_refuses_a_buffer_that_does_not_match_its_count() -> None:
    assert metrics._kernel is not None
    a = np.ones(10, np.float32).view(np.uint8)
    with pytest.raises(ValueError):
        metrics._kernel.pair(a, a, 11, 11, False, 9, 1e-3, 1e-5, 64, KL_FLOOR)
    with pytest.raises(TypeError):  # float64 does not convert to float32 exactly
        metrics._kernel.pair(a, np.ones(10).view(np.uint8), 11, 12, False, 10, 1e-3, 1e-5, 64, KL_FLOOR)


def test_a_cosine_is_the_angle_when_one_norm_dwarfs_the_other() -> None:
    """Hypothesis found it: a golden of [1e-30, 0] against a target of [1, 0] is one direction (cosine
    1), yet the kernel read 0, deriving x.y as (|x|^2 + |y|^2 - |x - y|^2) / 2, which cancels when one
    side's norm is 1e30 times the other's.  Both paths and the channel slices, against float64 sums."""
    golden = np.array([1e-30, 0.0, 2e-30, 0.0], np.float32)
    target = np.array([1.0, 0.0, 2.0, 0.0], np.float32)
    g64, t64 = golden.astype(np.float64), target.astype(np.float64)
    reference = math.fsum(g64 * t64) / (math.sqrt(math.fsum(g64 * g64)) * math.sqrt(math.fsum(t64 * t64)))
    assert reference == pytest.approx(1.0)
    for kernel in (metrics._kernel, None):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(metrics, "_kernel", kernel)
            assert compare_arrays(golden, target).cosine_similarity == pytest.approx(reference, abs=1e-12)
    rng = np.random.default_rng(7)
    x = rng.standard_normal((1, 3, 64))
    g3, t3 = x.copy(), x * (1 + 1e-6 * rng.standard_normal(x.shape))
    g3[0, 0] *= 1e-30  # channel 0: the target is the golden times 1e30, the same direction
    worst = slice_metrics(g3, t3)
    assert worst is not None and worst.worst == 0 and worst.cosine == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize(
    ("values", "flat"),
    [([-111.0] * 13 + [-110.0] * 14, False), ([4294967185.0] * 20 + [4294967186.0] * 7, True)],
)
def test_a_side_flat_around_a_large_mean_has_its_true_deviation(values: list[float], flat: bool) -> None:
    """Hypothesis found it: a side of two neighbouring values around a mean far larger than their spread
    (27 values of -111 and -110 in float16; uint32 near 2**32) read a deviation of 0.5 on one path and 0
    on the other, E[x²] − E[x]² having cancelled.  Such a side is measured again in two passes, on both
    paths and in the small-tensor lane, against the float64 two-pass reference."""
    side = np.array(values)
    reference = math.sqrt(math.fsum((v - math.fsum(values) / len(values)) ** 2 for v in values) / len(values))
    rng = np.random.default_rng(0)
    golden = rng.standard_normal(side.size).astype(np.float32)
    for kernel in (metrics._kernel, None):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(metrics, "_kernel", kernel)
            m = compare_arrays(golden, side)
            assert m.std_target == pytest.approx(reference, rel=1e-9)
            assert compare_arrays(side, golden).std_golden == pytest.approx(reference, rel=1e-9)
    if metrics._kernel is not None:  # the lane that finishes many small pairs from their sums at once
        sums, _ = metrics.segment_sums(golden.astype(np.float64), side, np.array([0, side.size]))
        assert metrics.clean_segments(sums, np.array([side.size]))[0] == (not flat)  # flat: per-pair path


@needs_kernel
@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(1, 2000),
    where=st.floats(0, 1),
    bad=st.sampled_from([math.nan, math.inf, -math.inf, None]),
    side=st.sampled_from(["golden", "target"]),
    extreme=st.sampled_from([3.4028235e38, -3.4028235e38, 1e-45, 0.0]),
    chunk=st.sampled_from([7, 512, metrics.CHUNK]),
    seed=st.integers(0, 2**16),
)
def test_one_nan_or_inf_anywhere_in_float32_is_counted_and_extremes_are_not(
    size: int, where: float, bad: float | None, side: str, extreme: float, chunk: int, seed: int
) -> None:
    """The float32 vectorised pass finds a chunk's NaN/Inf from its sums of squares (no per-element
    test): one bad value at any position of any chunk is counted and left out, exactly as the numpy
    fallback does; the largest and the smallest finite float32 are finite (their squares cannot
    overflow a double), so they are compared, not counted."""
    rng = np.random.default_rng(seed)
    golden = rng.standard_normal(size).astype(np.float32)
    target = (golden * (1 + 1e-3 * rng.standard_normal(size))).astype(np.float32)
    golden[int(where * (size - 1))] = target[int(where * (size - 1))] = extreme
    if bad is not None:
        (golden if side == "golden" else target)[int((1 - where) * (size - 1))] = bad
    native = compare_arrays(golden, target, chunk=chunk).as_dict()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(metrics, "_kernel", None)
        fallback = compare_arrays(golden, target, chunk=chunk).as_dict()
    for key in (*FLOAT_COLUMNS, *COUNT_COLUMNS, "compared", "flags"):
        assert _close(native[key], fallback[key], key), (key, native[key], fallback[key])
    assert native["compared"] == size - (bad is not None)


@needs_kernel
@settings(max_examples=40, deadline=None)
@given(
    golden=hnp.arrays(np.float32, st.integers(3, 2000), elements=st.floats(-100, 100, width=32)),
    noise=st.sampled_from([1e-4, 1e-3, 0.3]),
    bad=st.sampled_from([math.nan, math.inf]),
    seed=st.integers(0, 2**16),
)
def test_kl_with_a_nan_or_inf_is_the_kl_of_the_finite_positions(
    golden: np.ndarray, noise: float, bad: float, seed: int
) -> None:
    """The KL pass has two loops: one for a pair finite everywhere (no masks), one that leaves out
    the positions where either side is NaN/Inf.  Both within 1e-9 of the exact KL of the positions
    finite on both sides; the segmented pass takes the same loop as the per-pair pass (bit for bit)."""
    rng = np.random.default_rng(seed)
    target = (golden * (1 + noise * rng.standard_normal(golden.size))).astype(np.float16)
    for masked in (False, True):
        t = target.copy()
        if masked:
            t[rng.integers(t.size)] = bad
        got = compare_arrays(golden, t).kullback_leibler_divergence
        finite = int(np.isfinite(t.astype(np.float32)).sum())
        if finite < 2:
            continue
        want = _exact_kl(golden, t)
        assert got is not None
        if abs(want) < 2 * metrics.REL_EPS:
            assert abs(got - want) <= 2 * metrics.REL_EPS, (masked, got, want)
        else:
            assert abs(got - want) <= 1e-9 * abs(want) + 1e-18, (masked, got, want)
        g64, t64 = golden.astype(np.float64), t.astype(np.float64)
        [segment] = metrics.compare_segments(g64, t64, np.array([0, golden.size], np.int64))
        assert segment.kullback_leibler_divergence == compare_arrays(g64, t64).kullback_leibler_divergence


@needs_kernel
@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 3),
    channels=st.integers(2, 9),
    inner=st.integers(64, 700),
    golden_type=st.sampled_from([np.float32, np.float16, np.float64, np.int8]),
    target_type=st.sampled_from([np.float32, np.float16]),
    chunk=st.sampled_from([7, 100, 512, metrics.CHUNK]),
    bad=st.sampled_from([None, math.nan, math.inf]),
    seed=st.integers(0, 2**16),
)
def test_the_golden_energy_per_slice_is_the_float64_sum_of_its_finite_squares(
    n: int,
    channels: int,
    inner: int,
    golden_type: type,
    target_type: type,
    chunk: int,
    bad: float | None,
    seed: int,
) -> None:
    """The kernel sums the golden's squares per channel (axis 1 of (N, C, inner)) while it reads
    the pair, chunk by chunk (runs crossing chunks): each within 1e-12 of math.fsum over that
    channel's finite values, NaN/Inf left out; every other metric as without it, bit for bit."""
    rng = np.random.default_rng(seed)
    scale = 20 if golden_type is np.int8 else 1
    golden = (rng.standard_normal((n, channels, inner)) * scale).astype(golden_type)
    if bad is not None and golden.dtype.kind == "f":
        golden[rng.integers(n), rng.integers(channels), rng.integers(inner)] = bad
    target = (golden.astype(np.float64) * (1 + 1e-3 * rng.standard_normal(golden.shape))).astype(target_type)
    with np.errstate(all="ignore"):
        m = compare_arrays(golden, target, chunk=chunk, slices=(channels, inner))
        plain = compare_arrays(golden, target, chunk=chunk)
    assert m.golden_energy is not None and m.golden_energy.shape == (channels,)
    values = golden.astype(np.float64)
    for c in range(channels):
        finite = values[:, c][np.isfinite(values[:, c])]
        want = math.fsum(float(v) * float(v) for v in finite.ravel())
        assert m.golden_energy[c] == pytest.approx(want, rel=1e-12, abs=1e-300), (c, m.golden_energy[c], want)
    for key in (*FLOAT_COLUMNS, *COUNT_COLUMNS, "compared", "flags"):
        assert _same(m.as_dict()[key], plain.as_dict()[key]), key


@needs_kernel
@settings(max_examples=60, deadline=None)
@given(
    channels=st.integers(2, 12),
    inner=st.integers(64, 400),
    dead=st.sampled_from([None, 0, 1]),
    destroyed=st.sampled_from([None, 0, 1]),
    noise=st.sampled_from([1e-4, 1e-2, 0.3]),
    seed=st.integers(0, 2**16),
)
def test_the_worst_slice_is_the_same_with_the_kernels_golden_energy(
    channels: int, inner: int, dead: int | None, destroyed: int | None, noise: float, seed: int
) -> None:
    """slice_metrics' first test may take the golden's energy per slice from the kernel (float64)
    instead of its own float32 pass: the worst slice it finds is the same (a channel destroyed,
    a dead one, or none at all), measured the same way."""
    rng = np.random.default_rng(seed)
    golden = rng.standard_normal((1, channels, inner)).astype(np.float32)
    golden[0, 0] *= 1e-3  # a small channel: a candidate when the error is large enough
    target = (golden * (1 + noise * rng.standard_normal(golden.shape))).astype(np.float32)
    if dead is not None:
        golden[0, dead] = 0.0
    if destroyed is not None:
        target[0, destroyed] = rng.standard_normal(inner)
    m = compare_arrays(golden, target, slices=(channels, inner))
    assert m.root_mean_square_error is not None
    energy = m.root_mean_square_error**2 * m.compared
    with_kernel = slice_metrics(golden, target, 0.0, energy, m.golden_energy)
    alone = slice_metrics(golden, target, 0.0, energy)
    assert with_kernel == alone
