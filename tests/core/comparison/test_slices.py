"""The per-slice sums in blocks of several whole rows (a weight's ``(out, in, 1, 1)``: thousands of
short rows) are bit for bit the sums of a block per row, and a constant side's statistics from its
value alone are bit for bit those read from its values.

The reference below is the per-row blocking on its own (one row of axis 0 and a run of channels per
einsum call, the rows added in order), written here independently of :mod:`slices`' blocking.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison import metrics, slices
from dumpscope.core.comparison.metrics import CHUNK, compare_arrays, constant_stats, side_stats


def _work(a: np.ndarray) -> type[np.floating]:
    return np.float32 if a.dtype.kind == "f" and a.dtype.itemsize <= 4 else np.float64


def _row_blocks(a3: np.ndarray):
    step = max(1, slices.BLOCK // a3.shape[2])
    for i in range(a3.shape[0]):
        for lo in range(0, a3.shape[1], step):
            yield i, slice(lo, lo + step)


def reference_energies(a3: np.ndarray) -> np.ndarray:
    out = np.zeros(a3.shape[1])
    for i, sl in _row_blocks(a3):
        block = np.asarray(a3[i, sl], dtype=_work(a3))
        with np.errstate(invalid="ignore", over="ignore"):
            part = np.einsum("ij,ij->i", block, block)
        if not np.isfinite(part).all():
            block = np.where(np.isfinite(block), block, 0)
            part = np.einsum("ij,ij->i", block, block, dtype=np.float64)
        out[sl] += part
    return out


def reference_error_energies(g3: np.ndarray, t3: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    work = np.promote_types(_work(g3), _work(t3))
    out, dots = np.zeros(g3.shape[1]), np.zeros(g3.shape[1])
    for i, sl in _row_blocks(g3):
        g, t = np.asarray(g3[i, sl], dtype=work), np.asarray(t3[i, sl], dtype=work)
        with np.errstate(invalid="ignore", over="ignore"):
            d = t - g
            part, dot = np.einsum("ij,ij->i", d, d), np.einsum("ij,ij->i", g, t)
        if not (np.isfinite(part).all() and np.isfinite(dot).all()):
            d[~np.isfinite(d)] = 0
            both = np.isfinite(g) & np.isfinite(t)
            part = np.einsum("ij,ij->i", d, d, dtype=np.float64)
            dot = np.einsum("ij,ij->i", np.where(both, g, 0), np.where(both, t, 0), dtype=np.float64)
        out[sl] += part
        dots[sl] += dot
    return out, dots


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 160),
    c=st.integers(1, 700),
    inner=st.sampled_from([1, 2, 3, 9, 49, 64, 100]),
    dtypes=st.sampled_from([("float32", "float16"), ("float32", "float32"), ("float64", "float32")]),
    scale=st.floats(-3, 3),
    holes=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_blocks_of_whole_rows_sum_as_a_block_per_row(
    n: int, c: int, inner: int, dtypes: tuple[str, str], scale: float, holes: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    if n * c * inner > 600_000:
        n = max(1, 600_000 // (c * inner))
    g = (rng.standard_normal((n, c, inner)) * 10**scale).astype(dtypes[0])
    t = (g + rng.standard_normal(g.shape) * 10 ** (scale - 2)).astype(dtypes[1])
    for k in range(holes):  # a NaN or an Inf in some row: that group's rows are summed one by one
        g.reshape(-1)[rng.integers(g.size)] = np.nan if k % 2 else np.inf
        t.reshape(-1)[rng.integers(t.size)] = -np.inf if k % 2 else np.nan
    assert same_bits(slices._energies(g), reference_energies(g))
    assert same_bits(slices._energies(t), reference_energies(t))
    got, want = slices._error_energies(g, t), reference_error_energies(g, t)
    assert same_bits(got[0], want[0]) and same_bits(got[1], want[1])


def test_whole_rows_are_grouped_only_where_a_row_is_short_and_contiguous() -> None:
    weight = np.zeros((2048, 512, 1, 1), np.float32).reshape(2048, 512, 1)
    pieces = list(slices._blocks(weight, weight.flags.c_contiguous))
    assert len(pieces) == 2048 * 512 // slices.BLOCK  # 16 blocks of 128 rows, not 2048 of one
    assert sum(rows for _sl, _i, rows in pieces) == 2048
    strided = np.zeros((512, 2048, 1), np.float32).transpose(1, 0, 2)
    assert all(rows == 1 for _sl, _i, rows in slices._blocks(strided, strided.flags.c_contiguous))
    activation = np.zeros((1, 64, 56 * 56), np.float32)
    assert all(rows == 1 for _sl, _i, rows in slices._blocks(activation))


def test_a_strided_pair_sums_as_before() -> None:
    rng = np.random.default_rng(3)
    g = rng.standard_normal((40, 300, 2)).astype(np.float32)[:, :, :1]  # not C-contiguous
    t = (g + 1e-3).astype(np.float16)
    assert same_bits(slices._energies(g), reference_energies(g))
    got, want = slices._error_energies(g, t), reference_error_energies(g, t)
    assert same_bits(got[0], want[0]) and same_bits(got[1], want[1])


@settings(max_examples=200, deadline=None)
@given(
    value=st.floats(allow_nan=False, allow_infinity=False, width=32).filter(lambda v: v != 0),
    n=st.integers(1, 5 * CHUNK + 7),
    dtype=st.sampled_from(["float16", "float32", "float64"]),
    chunk=st.sampled_from([CHUNK, 1000, 7]),
)
def test_constant_stats_are_the_read_ones(value: float, n: int, dtype: str, chunk: int) -> None:
    with np.errstate(over="ignore"):
        side = np.full(n, value, dtype=dtype)
    if not np.isfinite(side).all() or side[0] == 0:
        return  # (the float16 rounding of a float32 may overflow or flush to zero)
    want = side_stats(side, chunk)
    got = constant_stats(float(side[0]), n, chunk)
    assert [np.float64(v).tobytes() for v in got] == [np.float64(v).tobytes() for v in want]  # type: ignore[arg-type]


@pytest.mark.parametrize("kernel", [True, False], ids=["kernel", "numpy-fallback"])
def test_a_constant_side_gets_the_statistics_read_from_its_values(
    kernel: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through compare_arrays (the kernel, and numpy without it): a constant side's statistics (one
    value; zero too, which side_stats still reads) equal side_stats' bit for bit, and so do those of
    a side too flat for its moments (read from its values, as before)."""
    if not kernel:
        monkeypatch.setattr(metrics, "_kernel", None)
    rng = np.random.default_rng(1)
    flat = np.full(CHUNK, 1e6, np.float64) + rng.standard_normal(CHUNK) * 1e-7
    for golden in (
        np.full(3 * CHUNK + 11, 0.02, np.float32),
        np.full(100, -7.5, np.float64),
        np.zeros(5000, np.float32),
        np.full(777, 3, np.int16),
        flat,
    ):
        target = golden.astype(np.float16) if golden.dtype == np.float32 else golden + 0.0
        m = compare_arrays(golden, target)
        for side, got in (
            (golden, (m.min_golden, m.max_golden, m.mean_golden, m.std_golden)),
            (target, (m.min_target, m.max_target, m.mean_target, m.std_target)),
        ):
            want = side_stats(side)
            assert [np.float64(v).tobytes() for v in got] == [np.float64(v).tobytes() for v in want]
