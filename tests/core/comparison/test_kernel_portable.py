"""The kernel a CPU without AVX-512, AVX2 or F16C runs: ``_kernel.c`` built with ``-DDUMPSCOPE_PORTABLE``
(the baseline loops alone, the portable half conversion) agrees with the build this machine runs.

The two builds differ only in how the compiler vectorises the same loops: every count, extreme and
maximum is the same bit for bit (no order to them), the sums within rounding of their order (the
tolerance test_kernel_pair.py holds the numpy fallback to), and KL within 1e-9 relative (each build is
within 1e-9 of the exact KL there).  Skipped where no C compiler or no Python headers are at hand.
"""

from __future__ import annotations

import importlib.util
import math
import shutil
import subprocess
import sysconfig
from pathlib import Path
from types import ModuleType

import ml_dtypes
import numpy as np
import pytest
import tomllib
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from dumpscope.core.comparison import metrics
from dumpscope.core.comparison.metrics import COUNT_COLUMNS, FLOAT_COLUMNS, KL_FLOOR, compare_arrays
from tests.support.paths import REPO

SOURCE = REPO / "core" / "comparison" / "_kernel.c"
#: Columns with no order to them: the same value from any vectorisation.
EXACT = ("max_absolute_error", "max_relative_error", "min_golden", "max_golden", "min_target", "max_target")
KL = "kullback_leibler_divergence"


def _flags() -> list[str]:
    """The compile flags pyproject.toml builds the kernel with."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    [ext] = [e for e in project["tool"]["setuptools"]["ext-modules"] if e["name"].endswith("._kernel")]
    return list(ext["extra-compile-args"])


@pytest.fixture(scope="module")
def portable(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    if metrics._kernel is None:
        pytest.skip("the compiled kernel is not built here")
    cc = shutil.which(str(sysconfig.get_config_var("CC") or "cc").split()[0]) or shutil.which("cc")
    include = Path(sysconfig.get_paths()["include"])
    if cc is None or not (include / "Python.h").exists():
        pytest.skip("no C compiler or no Python headers to build the portable kernel with")
    out = tmp_path_factory.mktemp("portable") / "_kernel.so"
    cmd = [
        cc,
        *_flags(),
        "-DDUMPSCOPE_PORTABLE",
        "-fPIC",
        "-shared",
        f"-I{include}",
        str(SOURCE),
        "-o",
        str(out),
    ]
    built = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if built.returncode != 0:
        pytest.skip(f"the portable kernel did not build here: {built.stderr[-300:]}")
    spec = importlib.util.spec_from_file_location("_kernel", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_portable_build_has_no_f16c(portable: ModuleType) -> None:
    """Asked for F16C, the portable build keeps its own conversion (the flag reads back off)."""
    assert portable.f16c(True) is False
    assert portable.f16c(True) is False


TYPES = [np.float16, np.float32, np.float64, ml_dtypes.bfloat16, np.int8, np.uint8, np.int16, np.int32]
awkward = st.one_of(
    st.floats(-1e4, 1e4, width=32),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0, 1e-30, 1e-40, 3.4028235e38, -3.4028235e38]),
)


def _agree(key: str, a: object, b: object, n: int = 1) -> bool:
    """Whether the two builds agree on column ``key`` of a pair of ``n`` elements: counts and extremes
    exactly, sums within their rounding (each build adds in its own order: its vector width)."""
    if a is None or b is None or isinstance(a, int) or key in EXACT:
        return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    assert isinstance(a, float) and isinstance(b, float)
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return a == b or (math.isnan(a) and math.isnan(b))
    if key == KL:
        # KL adds n terms p*log(p/q) of either sign: a sum that is 0 in exact arithmetic (two flat sides,
        # every ratio 1) keeps a rounding residue of a few eps per term, in each build's own order
        # (hypothesis: 5 equal bfloat16 values against 5 equal int8 ones gave 1.8e-15 and 2.7e-15)
        return abs(a - b) <= 2e-9 * abs(b) + 2 * metrics.REL_EPS * n
    if key.endswith("_db"):
        return math.isclose(a, b, rel_tol=2e-6, abs_tol=10 * math.log10(1 + 2e-6))
    return math.isclose(a, b, rel_tol=2e-6, abs_tol=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    golden=hnp.arrays(np.float32, st.integers(1, 3000), elements=awkward),
    golden_type=st.sampled_from(TYPES),
    target_type=st.sampled_from(TYPES),
    chunk=st.sampled_from([7, 512, metrics.CHUNK]),
    noise=st.sampled_from([1e-4, 1e-2, 0.3]),
    seed=st.integers(0, 2**16),
)
@example(  # two flat sides: an exact KL of 0, a rounding residue in each build's order
    golden=np.full(5, 8481, np.float32),
    golden_type=ml_dtypes.bfloat16,
    target_type=np.int8,
    chunk=7,
    noise=1e-4,
    seed=0,
)
def test_the_portable_build_gives_this_builds_metrics(
    portable: ModuleType,
    golden: np.ndarray,
    golden_type: type,
    target_type: type,
    chunk: int,
    noise: float,
    seed: int,
) -> None:
    """Every dtype pair, NaN/Inf, subnormals and the float32 extremes anywhere, several chunks."""
    rng = np.random.default_rng(seed)
    with np.errstate(all="ignore"):
        target = golden * (1 + noise * rng.standard_normal(golden.size).astype(np.float32))
        g = (
            golden
            if golden_type in (np.float32, np.float64)
            else np.nan_to_num(golden, nan=0, posinf=9, neginf=-9)
        )
        t = (
            target
            if target_type in (np.float32, np.float64)
            else np.nan_to_num(target, nan=0, posinf=9, neginf=-9)
        )
        if np.dtype(golden_type).kind == "i":
            g = np.clip(g, -100, 100)
        if np.dtype(target_type).kind in "iu":
            t = np.clip(t, 0 if np.dtype(target_type).kind == "u" else -100, 100)
        g, t = g.astype(golden_type), t.astype(target_type)
        here = compare_arrays(g, t, chunk=chunk).as_dict()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(metrics, "_kernel", portable)
            there = compare_arrays(g, t, chunk=chunk).as_dict()
    for key in (*FLOAT_COLUMNS, *COUNT_COLUMNS, "compared", "flags"):
        assert _agree(key, here[key], there[key], g.size), (key, here[key], there[key])


def test_every_half_converts_exactly_in_the_portable_build(portable: ModuleType) -> None:
    """All 65536 float16 bit patterns through the portable build's conversion, as test_kernel_pair
    checks the F16C one: each the float32 it stands for."""
    halves = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    exact = halves.astype(np.float32)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(metrics, "_kernel", portable)
        m = compare_arrays(exact, halves)
    assert m.max_absolute_error == 0.0 and m.compared == int(np.isfinite(exact).sum())
    assert (m.nan_target, m.inf_target, m.nonfinite_mismatch) == (
        int(np.isnan(exact).sum()),
        int(np.isinf(exact).sum()),
        0,
    )


@pytest.mark.parametrize("build", ["this", "portable"])
def test_a_kl_block_with_a_zero_weight_is_summed_position_by_position(
    portable: ModuleType, build: str
) -> None:
    """A floor of 0 leaves the golden's minimum at weight 0, so t = (a - b) / b there is infinite or
    NaN, which the series cannot take: the block is summed again one position at a time, each term
    a log1p(t), and is what float64 numpy's sum of those terms is (NaN: 0 log1p(0 / 0) there)."""
    kernel = metrics._kernel if build == "this" else portable
    assert kernel is not None
    rng = np.random.default_rng(3)
    golden = rng.standard_normal(1000)
    target = golden * (1 + 1e-3 * rng.standard_normal(1000))
    offsets = np.array([0, 1000], np.int64)
    lo_t, lo_g = target.min(), golden.min()
    params = np.array([lo_t, 1 / (target.max() - lo_t), lo_g, 1 / (golden.max() - lo_g)])
    sums = np.zeros(4)
    kernel.kl_segments(target, golden, offsets, params, 0.0, sums)
    a = (target - lo_t) * params[1]
    b = (golden - lo_g) * params[3]
    assert sums[0] == pytest.approx(a.sum(), rel=1e-12) and sums[1] == pytest.approx(b.sum(), rel=1e-12)
    assert sums[2] == pytest.approx((b - a).sum(), rel=1e-9, abs=1e-12)
    with np.errstate(all="ignore"):
        want = float(np.sum(a * np.log1p((a - b) / b)))
    assert not math.isfinite(want) and (sums[3] == want or (math.isnan(want) and math.isnan(sums[3])))
    # the same pair with the product's floor: finite, and within 1e-9 of the float64 sum of its terms
    kernel.kl_segments(target, golden, offsets, params, KL_FLOOR, sums := np.zeros(4))
    a, b = np.maximum(a, KL_FLOOR), np.maximum(b, KL_FLOOR)
    terms = a * np.log1p((a - b) / b)
    assert sums[3] == pytest.approx(math.fsum(terms), rel=1e-9, abs=1e-9 * math.fsum(np.abs(terms)))
