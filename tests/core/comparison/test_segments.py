"""The batched path for many small tensors: the same numbers and rows as one pair at a time.

``compare_segments`` runs the metric kernel over many pairs concatenated into one buffer;
``compute_rows`` computes a worker's whole task with it.  Both must give, bit for bit,
what ``compare_arrays`` / ``compute_row`` give pair by pair, and one bad file in a task
costs its own row only.
"""

from __future__ import annotations

import math
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from dumpscope.core.comparison import metrics, rows
from dumpscope.core.comparison.judge import Thresholds
from dumpscope.core.comparison.metrics import compare_arrays, compare_segments, segmentable
from dumpscope.core.comparison.pairing import pair_dumps
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.comparison.rows import RowContext, compute_row
from dumpscope.core.formats import open_dump

needs_kernel = pytest.mark.skipif(metrics._kernel is None, reason="the compiled kernel is not built here")

#: Finite values and the awkward ones (NaN, both infinities, zeros, huge and tiny values).
values = st.one_of(
    st.floats(-1e6, 1e6, width=32), st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0, 1e-30, 3e38])
)


def _same(a: object, b: object) -> bool:
    """Equal, NaN equal to NaN (bit for bit for floats: ``==`` plus the NaN case)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


def _segments(pairs: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    offsets = np.zeros(len(pairs) + 1, dtype=np.int64)
    np.cumsum([g.size for g, _t in pairs], out=offsets[1:])
    return np.concatenate([g for g, _t in pairs]), np.concatenate([t for _g, t in pairs]), offsets


@st.composite
def pair_lists(draw: st.DrawFn) -> list[tuple[np.ndarray, np.ndarray]]:
    """1-12 pairs of one float type, 1-300 elements each; targets near or far from the golden."""
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    out = []
    for _ in range(draw(st.integers(1, 12))):
        g = draw(hnp.arrays(dtype, st.integers(1, 300), elements=values))
        kind = draw(st.sampled_from(["near", "same", "other", "zero"]))
        if kind == "near":
            t = (g * dtype(1.001)).astype(dtype)
        elif kind == "same":
            t = g.copy()
        elif kind == "zero":
            t = np.zeros_like(g)
        else:
            t = draw(hnp.arrays(dtype, g.size, elements=values))
        out.append((g, t))
    return out


@needs_kernel
@settings(max_examples=150, deadline=None)
@given(pair_lists(), st.sampled_from([(1e-3, 1e-5), (0.0, 0.0), (0.05, 1e-3)]))
def test_segmented_kernel_equals_the_per_pair_path_bit_for_bit(
    pairs: list[tuple[np.ndarray, np.ndarray]], tol: tuple[float, float]
) -> None:
    golden, target, offsets = _segments(pairs)
    batched = compare_segments(golden, target, offsets, rtol=tol[0], atol=tol[1])
    assert len(batched) == len(pairs)
    for (g, t), m in zip(pairs, batched, strict=False):
        one = compare_arrays(g, t, rtol=tol[0], atol=tol[1]).as_dict()
        for key, value in m.as_dict().items():
            assert _same(value, one[key]), (key, value, one[key])


@needs_kernel
def test_segmented_kernel_matches_an_independent_float64_reference() -> None:
    rng = np.random.default_rng(7)
    pairs = [
        (g, (g + rng.standard_normal(g.size) * 1e-3).astype(np.float32))
        for g in (rng.standard_normal(n).astype(np.float32) for n in (16, 100, 256, 3))
    ]
    golden, target, offsets = _segments(pairs)
    for (g, t), m in zip(pairs, compare_segments(golden, target, offsets), strict=False):
        x, y = t.astype(np.float64), g.astype(np.float64)
        d = x - y
        assert m.cosine_similarity == pytest.approx(
            float(x @ y) / math.sqrt(float(x @ x) * float(y @ y)), rel=1e-12
        )
        assert m.max_absolute_error == pytest.approx(float(np.abs(d).max()), rel=1e-15)
        assert m.relative_euclidean_distance == pytest.approx(
            math.sqrt(float(d @ d) / float(y @ y)), rel=1e-12
        )
        assert m.mean_absolute_error == pytest.approx(float(np.abs(d).mean()), rel=1e-12)


@needs_kernel
def test_the_kernel_refuses_offsets_that_do_not_cover_the_buffers() -> None:
    a = np.ones(10, np.float32)
    out = np.empty((2, len(metrics.SEGMENT_FIELDS)))
    with pytest.raises(ValueError):
        metrics._kernel.moments_segments(a, a, np.array([0, 4, 9], np.int64), 1e-3, 1e-5, out)
    with pytest.raises(ValueError):
        metrics._kernel.moments_segments(a, a, np.array([0, 6, 4, 10], np.int64), 1e-3, 1e-5, out)


def test_segmentable_takes_only_small_pairs_of_one_float_type() -> None:
    f4 = np.ones(8, np.float32)
    assert segmentable(f4, f4) == (metrics._kernel is not None)
    assert not segmentable(f4, f4.astype(np.float64))
    assert not segmentable(f4.astype(np.float16), f4.astype(np.float16))
    assert not segmentable(f4[:0], f4[:0])
    big = np.ones(metrics.SEGMENT_VALUES + 1, np.float32)
    assert not segmentable(big, big)
    assert segmentable(big, big, metrics.CHUNK) == (metrics._kernel is not None)
    assert not segmentable(
        np.ones(metrics.CHUNK + 1, np.float32), np.ones(metrics.CHUNK + 1, np.float32), 1 << 20
    )


# ------------------------------------------------------------------ whole tasks


def _side(root: Path, count: int, noise: float) -> None:
    root.mkdir()
    rng = np.random.default_rng(1)
    for i in range(count):
        a = np.random.default_rng(i).standard_normal(int(rng.integers(16, 257))).astype(np.float32)
        if i % 7 == 3:
            a = a.reshape(2, -1) if a.size % 2 == 0 else a
        if i % 50 == 9:
            a = a.astype(np.float64)
        if i % 97 == 5:
            a[0] = np.nan
        np.save(
            root / f"t{i:04d}.npy", (a + noise * np.cos(np.arange(a.size)).reshape(a.shape)).astype(a.dtype)
        )


@pytest.fixture
def chunk_of_500(tmp_path: Path) -> tuple[Path, Path]:
    """500 tiny pairs; in the target: a truncated file, a bad header, a file deleted after the
    dump was opened (see the test; larger than the bytes a reader keeps), a float16 and a
    3-D sliceable pair."""
    g, t = tmp_path / "g", tmp_path / "t"
    _side(g, 500, 0.0)
    _side(t, 500, 1e-3)
    data = (t / "t0010.npy").read_bytes()
    (t / "t0010.npy").write_bytes(data[: len(data) - 9])  # truncated
    (t / "t0020.npy").write_bytes(b"\x93NUMPY\x01\x00\x10\x00{'descr': 'zz'}" + b"\0" * 64)  # bad header
    for side, noise in ((g, 0.0), (t, 0.5)):
        np.save(side / "t0030.npy", (np.arange(60, dtype=np.float16) + noise).reshape(3, 4, 5))
        np.save(side / "t0040.npy", (np.arange(2 * 3 * 8, dtype=np.float32) * (1 + noise)).reshape(2, 3, 8))
        np.save(
            side / "t0050.npy", np.linspace(0, 1 + noise, 3000, dtype=np.float32)
        )  # over 4 KB: read when compared
    return g, t


def test_a_whole_task_gives_the_rows_of_one_pair_at_a_time(chunk_of_500: tuple[Path, Path]) -> None:
    th = Thresholds.from_preset("auto", ())
    # opened twice: a small file's bytes are kept by its reader and used once
    each, whole = (pair_dumps(*(open_dump(p) for p in chunk_of_500)).pairs for _ in range(2))
    os.unlink(chunk_of_500[1] / "t0050.npy")  # gone between opening the dump and reading it
    part = list(range(len(whole)))
    assert len(part) == 500
    one_by_one = [compute_row(each[i], th, None, "fp32") for i in part]
    result = RowContext().compute(whole, th, ["fp32"] * len(whole)).batch(part)
    assert sorted(result.rows) == part
    by_row = dict(result)
    batched = [by_row[i] for i in part]
    for i, (a, b) in enumerate(zip(one_by_one, batched, strict=False)):
        assert a.keys() == b.keys(), i
        assert all(_same(a[k], b[k]) or (isinstance(a[k], list) and a[k] == b[k]) for k in a), (i, a, b)
    bad = {whole[i].name: batched[i] for i in part if batched[i].get("status") == "error"}
    assert set(bad) == {"t0010", "t0020", "t0050"}
    assert "truncated" in bad["t0010"]["message"] and "target unreadable" in bad["t0050"]["message"]
    assert sum(r.get("status") == "computed" for r in batched) == 497
    assert any(r.get("notes") for r in batched) and any(r.get("worst_slice") is not None for r in batched)


def test_compare_is_the_same_frame_for_one_and_two_workers(chunk_of_500: tuple[Path, Path]) -> None:
    one = compare(*chunk_of_500, workers=1).frame
    two = compare(*chunk_of_500, workers=2).frame
    assert one.equals(two, null_equal=True)
    assert one.filter(one["status"] == "error").height == 2


# ------------------------------------------------------------------ npz: stored members read whole


def _npz(folder: Path, out: Path, method: int = zipfile.ZIP_STORED) -> Path:
    with zipfile.ZipFile(out, "w", method) as z:
        for p in sorted(folder.glob("*.npy")):
            z.write(p, p.name)
    return out


def test_an_npz_gives_the_frame_of_the_same_npy_folder(
    chunk_of_500: tuple[Path, Path], tmp_path: Path
) -> None:
    g, t = chunk_of_500
    folder = compare(g, t, workers=1).frame
    stored = compare(_npz(g, tmp_path / "g.npz"), _npz(t, tmp_path / "t.npz"), workers=2).frame
    deflated = compare(
        _npz(g, tmp_path / "gd.npz", zipfile.ZIP_DEFLATED),
        _npz(t, tmp_path / "td.npz", zipfile.ZIP_DEFLATED),
        workers=1,
    ).frame
    files = ("golden_file", "target_file")
    assert stored.drop(files).equals(
        deflated.drop(files), null_equal=True
    )  # the one-read path changes nothing
    computed = [
        c
        for c in folder.columns
        if c
        not in (
            *files,
            "index",
            "message",
            "health",
            "status",
            "hard_fail",
            "shape",
            "dtype",
            "size",
            "target_shape",
            "target_dtype",
            "side",
            "pairing",
        )
    ]
    by_name = folder.filter(folder["status"] == "computed").select(computed).sort("name")
    assert (
        stored.filter(stored["status"] == "computed")
        .select(computed)
        .sort("name")
        .equals(by_name, null_equal=True)
    )
    loaders = {type(r.loader).__name__ for r in open_dump(tmp_path / "g.npz")}
    assert "StoredMember" in loaders  # the small stored members took the one-read path


def test_a_stored_member_with_a_bad_crc_or_header_costs_its_row_only(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for i in range(40):
        np.save(src / f"m{i:02d}.npy", np.linspace(0, 1, 50 + i, dtype=np.float32))
    archive = bytearray(_npz(src, tmp_path / "a.npz").read_bytes())
    with zipfile.ZipFile(tmp_path / "a.npz") as z:
        infos = {i.filename: i for i in z.infolist()}

    def data_at(name: str) -> int:  # the member's first byte of npy data in the archive
        info = infos[name]
        return (
            info.header_offset
            + 30
            + len(name)
            + int.from_bytes(archive[info.header_offset + 28 : info.header_offset + 30], "little")
        )

    archive[data_at("m05.npy") + 200] ^= 0xFF  # a flipped data byte: the CRC no longer matches
    archive[data_at("m07.npy") + 12 : data_at("m07.npy") + 17] = b"zzzzz"  # a broken npy header
    bad = tmp_path / "bad.npz"
    bad.write_bytes(bytes(archive))
    dump = open_dump(bad)
    assert len(dump.tensors) == 40
    for name in ("m05", "m07"):  # read the general way, which checks the CRC of a member read whole
        assert "Bad CRC-32" in (dump.tensors[name].error or ""), dump.tensors[name]
    assert sum(type(r.loader).__name__ == "StoredMember" for r in dump) >= 37
    frame = compare(tmp_path / "a.npz", bad, workers=1).frame
    ok = frame.filter(~frame["name"].is_in(["m05", "m07"]))
    assert ok["status"].unique().to_list() == ["computed"] and ok["max_absolute_error"].max() == 0.0
    assert frame.filter(frame["name"].is_in(["m05", "m07"]))["status"].to_list() == ["error", "error"]


@pytest.fixture
def varied(tmp_path: Path) -> tuple[Path, Path]:
    """Tiny pairs of every awkward kind: float16, big-endian, Fortran order, empty, scalar,
    repeated dimensions, integers, NaN/Inf, all-zero sides, a sliceable activation."""
    rng = np.random.default_rng(3)
    g, t = tmp_path / "g", tmp_path / "t"
    g.mkdir()
    t.mkdir()
    cases = {
        "f16": rng.standard_normal(40).astype(np.float16),
        "be": rng.standard_normal(30).astype(">f4"),
        "fortran": np.asfortranarray(rng.standard_normal((6, 7)).astype(np.float32)),
        "empty": np.zeros(0, np.float32),
        "scalar": np.float32(3.5),
        "square": rng.standard_normal((5, 5)).astype(np.float32),
        "int": np.arange(20, dtype=np.int32),
        "nan": np.array([1.0, np.nan, 2.0, np.inf], np.float32),
        "zero": np.zeros(12, np.float32),
        "slices": rng.standard_normal((1, 4, 3, 2)).astype(np.float32),
        "f64": rng.standard_normal(50),
        "plain": rng.standard_normal((3, 11)).astype(np.float32),
    }
    for name, a in cases.items():
        np.save(g / f"{name}.npy", a)
        noisy = a if a.dtype.kind == "i" or a.size == 0 else (a * a.dtype.type(1.01)).astype(a.dtype)
        np.save(t / f"{name}.npy", np.asfortranarray(noisy) if name == "fortran" else noisy)
    np.save(t / "zero.npy", np.ones(12, np.float32))
    return g, t


def test_the_batch_path_changes_no_value_of_the_frame(
    varied: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    laned: list[int] = []
    add = rows.SmallLane.add
    monkeypatch.setattr(
        rows.SmallLane, "add", lambda lane, pos, loaded: laned.append(pos) or add(lane, pos, loaded)
    )
    batched = compare(*varied, workers=1).frame
    assert len(laned) >= 4  # plain, f64, nan, zero (the last two leave the lane with a finding)
    monkeypatch.delattr(rows.Rows, "batch")  # the workers then compute one row at a time
    one_by_one = compare(*varied, workers=1).frame
    assert batched.equals(one_by_one, null_equal=True)
    assert batched.height == 12 and batched.filter(batched["status"] == "computed").height >= 10
