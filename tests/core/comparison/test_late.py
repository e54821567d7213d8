"""Headers read by the workers (:mod:`dumpscope.core.comparison.late`): the frame is the one
read with every header first, whatever the worker count, the bands decided after the rows."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dumpscope.core.comparison import execution
from dumpscope.core.comparison.execution import TaskResult
from dumpscope.core.comparison.late import deferred
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.comparison.sanity import DumpMismatch
from dumpscope.core.formats import npy_dir, open_dump
from dumpscope.core.formats.npy_dir import DEFERRED_META


@pytest.fixture()
def workers_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers read the headers of these small test files too (see :data:`npy_dir.DEFER_MIN_BYTES`)."""
    monkeypatch.setattr(npy_dir, "DEFER_MIN_BYTES", 0)


#: The channel-sliced activation whose worst slice depends on the band's floor (see :func:`_sliced`).
SLICED = "layer_010"


def _sliced(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A (1, 4, 64) activation: channel 3 tiny (~1e-4) and zeroed in the target (destroyed, but its
    RMS error is under the fp16 floor), channel 1 off by ~5e-3 (over it): the worst slice is #3 at
    the fp32 floor and #1 at the fp16 floor."""
    g = rng.standard_normal((1, 4, 64)).astype(np.float32)
    g[0, 3] *= 1e-4
    t = g.copy()
    t[0, 1] += (rng.standard_normal(64) * 5e-3).astype(np.float32)
    t[0, 3] = 0
    return g, t


def _write(root: Path, late_fp16: bool) -> tuple[Path, Path]:
    """A golden/target pair of float32 tensors read by name: unmatched tensors on both sides, a file
    that is no ``.npy``, a truncated one, the sliced activation; with ``late_fp16`` the target's
    last file (by time: the order of these names) is float16, which moves the run's band to fp16."""
    rng = np.random.default_rng(5)
    g, t = root / "golden", root / "target"
    g.mkdir()
    t.mkdir()
    clock = 1_700_000_000
    for i in range(24):
        name = f"layer_{i:03d}.npy"
        a, b = _sliced(rng) if f"layer_{i:03d}" == SLICED else (None, None)
        if a is None:
            a = rng.standard_normal((1, 3, 8, 8) if i % 2 else 300).astype(np.float32)
            b = a + (rng.standard_normal(a.shape) * 1e-4).astype(np.float32)
        if i == 23 and late_fp16:
            b = b.astype(np.float16)
        np.save(g / name, a)
        np.save(t / name, b)
        for side in (g, t):
            os.utime(side / name, ns=((clock + i) * 10**9,) * 2)
    (t / "layer_004.npy").write_bytes(b"not an npy file")
    data = (g / "layer_007.npy").read_bytes()
    (t / "layer_007.npy").write_bytes(data[: len(data) - 40])  # the header promises more
    np.save(g / "golden_only.npy", np.ones(5, np.float32))
    np.save(t / "target_only.npy", np.ones((2, 2), np.float16 if late_fp16 else np.float32))
    return g, t


def _eager(g: Path, t: Path, workers: int) -> pl.DataFrame:
    """The frame with every header read in this process first (opened dumps are used as given)."""
    return compare(open_dump(g), open_dump(t), workers=workers).frame


@pytest.mark.parametrize("late_fp16", [False, True])
@pytest.mark.usefixtures("workers_read")
def test_the_frame_is_the_eager_one_for_any_worker_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, late_fp16: bool
) -> None:
    monkeypatch.setattr(execution, "MIN_PARALLEL_ROWS", 1)
    monkeypatch.setattr(execution, "MIN_TASK_BYTES", 1)  # many small tasks, finishing out of order
    g, t = _write(tmp_path, late_fp16)
    expected = _eager(g, t, 1)
    for workers in (1, 2, 3):
        result = compare(g, t, workers=workers)
        assert deferred(result.golden, result.target), "the headers were left to the workers"
        assert_frame_equal(result.frame, expected)
    monkeypatch.setenv("DUMPSCOPE_WORKERS", "threads")  # where there is no fork: threads read them
    assert_frame_equal(compare(g, t, workers=2).frame, expected)
    row = expected.filter(pl.col("name") == SLICED).row(0, named=True)
    assert row["band"] == ("fp16" if late_fp16 else "fp32")
    assert set(expected["band"]) == {row["band"]}  # every row moved by the last file
    assert row["worst_slice"] == (1 if late_fp16 else 3)  # the floor decided it
    errors = expected.filter(pl.col("health") == "error")
    assert sorted(errors["name"]) == ["layer_004", "layer_007"]
    assert (expected["side"] != "both").sum() == 2


@pytest.mark.usefixtures("workers_read")
def test_the_infos_are_completed_as_an_eager_open_gives_them(tmp_path: Path) -> None:
    g, t = _write(tmp_path, late_fp16=True)
    result = compare(g, t, workers=2)
    for opened, eager in ((result.golden, open_dump(g)), (result.target, open_dump(t))):
        assert opened is not None and opened.meta[DEFERRED_META] is True
        assert [r.info for r in opened.tensors.values()] == [r.info for r in eager.tensors.values()]
        readable = [n for n, r in eager.tensors.items() if r.error is None]
        for name in readable[:3]:  # the deferred loaders still read the data afterwards
            np.testing.assert_array_equal(opened.tensors[name].load(), eager.tensors[name].load())


@pytest.mark.parametrize("threshold", [0, npy_dir.DEFER_MIN_BYTES])
def test_a_size_mismatch_is_still_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threshold: int
) -> None:
    """Two dumps whose names pair but whose sizes all differ: the same error as with every header
    first, whether the workers or the parent read the headers."""
    monkeypatch.setattr(npy_dir, "DEFER_MIN_BYTES", threshold)
    g, t = tmp_path / "golden", tmp_path / "target"
    g.mkdir()
    t.mkdir()
    for i in range(12):
        np.save(g / f"t{i}.npy", np.zeros(10 + i, np.float32))
        np.save(t / f"t{i}.npy", np.zeros(20 + i, np.float32))
    with pytest.raises(DumpMismatch) as first:
        _eager(g, t, 1)
    with pytest.raises(DumpMismatch) as after:
        compare(g, t, workers=2)
    assert str(after.value) == str(first.value)


@pytest.mark.usefixtures("workers_read")
def test_a_pair_by_a_looser_link_reads_every_header_first(tmp_path: Path) -> None:
    """A sanitised-name link is chosen by the shapes: that run opens again with its headers."""
    g, t = tmp_path / "golden", tmp_path / "target"
    g.mkdir()
    t.mkdir()
    for i in range(6):
        np.save(g / f"x{i}.npy", np.full(8, i, np.float32))
        np.save(t / f"x{i}.npy", np.full(8, i, np.float32))
    np.save(g / "blk.0.conv.npy", np.ones(4, np.float32))
    np.save(t / "blk_0_conv.npy", np.ones(4, np.float32))
    result = compare(g, t, workers=2)
    assert not deferred(result.golden, result.target)
    assert_frame_equal(result.frame, _eager(g, t, 2))
    assert "sanitised name" in result.frame["pairing"].to_list()


def test_small_files_have_their_headers_read_by_the_parent(tmp_path: Path) -> None:
    """Under :data:`npy_dir.DEFER_MIN_BYTES` a file's header is read at once, in the parent: the
    refs and the frame are the eager open's."""
    g, t = _write(tmp_path, late_fp16=True)
    result = compare(g, t, workers=2)
    assert not deferred(result.golden, result.target)
    assert_frame_equal(result.frame, _eager(g, t, 2))
    eager = open_dump(t)
    assert result.target is not None
    assert [(r.info, r.error) for r in result.target.tensors.values()] == [
        (r.info, r.error) for r in eager.tensors.values()
    ]
    assert result.pairing is not None
    assert all(p.ref is result.golden.tensors.get(p.name, p.ref) for p in result.pairing.pairs if p.golden)


def test_large_files_have_their_headers_read_by_the_workers(tmp_path: Path) -> None:
    g, t = tmp_path / "golden", tmp_path / "target"
    g.mkdir()
    t.mkdir()
    for i in range(20):
        a = np.full(40_000, i, np.float32)  # 160 KB a file
        np.save(g / f"x{i}.npy", a)
        np.save(t / f"x{i}.npy", a.astype(np.float16))
    result = compare(g, t, workers=2)
    assert deferred(result.golden, result.target)
    assert_frame_equal(result.frame, _eager(g, t, 2))
    assert set(result.frame["band"]) == {"fp16"}


def test_a_task_leaves_out_the_shapes_dtypes_and_size_its_headers_already_give() -> None:
    """The parent builds those identity columns from the header facts a task sends: values equal to
    them are left out, a column with any other value is sent whole (as are the other columns)."""
    from dumpscope.core.comparison.late import Facts, _without_header_facts

    facts: list[Facts] = [("float32", (2, 3), "float16", (2, 3)), ("float32", (4,), "float32", (4,))]

    def task(**changed: list[object]) -> TaskResult:
        values: dict[str, list[object]] = {
            "shape": [[2, 3], [4]],
            "target_shape": [[2, 3], [4]],
            "dtype": ["float32", "float32"],
            "target_dtype": ["float16", "float32"],
            "size": [6, 4],
            "cosine_similarity": [1.0, 0.5],
        }
        return TaskResult([7, 9], {**values, **changed})

    same = task()
    _without_header_facts(same, facts)
    assert list(same.values) == ["cosine_similarity"]
    other = task(target_shape=[[3, 2], [4]], dtype=["float32", "float64"])
    _without_header_facts(other, facts)
    assert set(other.values) == {"dtype", "target_shape", "cosine_similarity"}
    assert other.values["target_shape"] == [[3, 2], [4]]
    unread = task()
    _without_header_facts(unread, [facts[0], (None, None, None, None)])
    assert "shape" in unread.values and "size" in unread.values and "target_dtype" in unread.values
    resized = task(size=[6, 5])  # (no reader does this; the column is then the row's)
    _without_header_facts(resized, facts)
    assert set(resized.values) == {"size", "cosine_similarity"}
    gap = task(shape=[[2, 3], None])
    gap.absent = {"shape": [1]}  # the second row did not set it: only the first is compared
    _without_header_facts(gap, facts)
    assert "shape" not in gap.values and "shape" not in gap.absent
