"""Several runs of an Ascend raw-dump tree compared through the Python API, each on its own."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import dumpscope.core as ds
from dumpscope.core.comparison.runs import NoRunSelected, first_run
from dumpscope.core.formats import ascend_writer as aw


def _op(folder: Path, op: str, values: np.ndarray, ts: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    out = aw.RawTensor(values.astype(np.float16), 2, 2, values.shape)
    aw.write_dump(folder / f"Conv2D.{op}.1.2.{ts}", op, [out], dump_time=ts)


@pytest.fixture()
def tree(tmp_path: Path) -> tuple[Path, Path, np.ndarray]:
    """A golden folder and a 2-device x 2-step tree; device 1 step 1 scales convB 10x too far."""
    golden = tmp_path / "golden"
    golden.mkdir()
    a = np.linspace(-1, 1, 16, dtype=np.float32).reshape(4, 4)
    np.save(golden / "convA.npy", a)
    np.save(golden / "convB.npy", a * 3)
    root = tmp_path / "dump" / "20261123101010"
    for device in (0, 1):
        for step in (0, 1):
            folder = root / str(device) / "resnet" / "1" / str(step)
            _op(folder, "convA", a, 1000 + step)
            _op(folder, "convB", a * (30 if (device, step) == (1, 1) else 3), 2000 + step)
    return golden, tmp_path / "dump", a


def test_each_run_is_compared_alone_and_the_faulty_one_comes_first(tree) -> None:
    golden, dump, a = tree
    results = ds.compare_runs(golden, dump)
    assert results is not None
    assert [r.label for r in results] == ["step0/device0", "step0/device1", "step1/device0", "step1/device1"]
    for r in results:  # an independent check of every verdict: cosine of the convB pair in float64
        assert r.comparison is not None and r.error is None
        assert set(r.comparison.frame["name"]) == {"convA", "convB"}  # never merged (no "#2" names)
        bad = r.label == "step1/device1"
        assert (r.first_name == "convB") is bad and (r.first_name is None) is not bad
    scaled = (a * 30).astype(np.float16).astype(np.float64).ravel()
    ref = (a * 3).astype(np.float64).ravel()
    rel = np.abs(scaled - ref).max() / np.abs(ref).max()
    assert rel > 1  # the fault is far outside any preset: the verdict above must be a failure
    first = first_run(results)
    assert first is not None and first.label == "step1/device1"


def test_a_selection_narrows_and_an_empty_one_names_the_runs(tree) -> None:
    golden, dump, _ = tree
    results = ds.compare_runs(golden, dump, steps=[0])
    assert results is not None and [r.label for r in results] == ["step0/device0", "step0/device1"]
    assert first_run(results) is None
    with pytest.raises(NoRunSelected, match="present: step0/device0"):
        ds.compare_runs(golden, dump, devices=[5])


def test_a_plain_dump_is_not_a_tree_of_runs(tree) -> None:
    golden, _, _ = tree
    assert ds.compare_runs(golden, golden) is None
