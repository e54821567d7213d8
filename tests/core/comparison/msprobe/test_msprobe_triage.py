"""msprobe tensor mode, triage first: dump.json's statistics at once, the suspect calls'
tensors opened first, and the last frame equal to the plain tensor-mode frame."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dumpscope.core.comparison.msprobe import triage
from dumpscope.core.comparison.msprobe.pairing import pair_ranks
from dumpscope.core.comparison.msprobe.statistics import compare_statistics
from dumpscope.core.formats.msprobe import read_rank
from tests.support.msprobe import entry, tensor, write_rank

CALLS, BAD = 40, 25


def _rank(root: Path, side: str) -> Path:
    """A chain of relu calls; on the NPU side every output from call 25 on is 50 % off."""
    rng = np.random.default_rng(11)
    data: dict[str, object] = {}
    files: dict[str, np.ndarray] = {}
    for k in range(CALLS):
        x = rng.standard_normal(256).astype(np.float32)
        y = np.maximum(x, 0) * (1.5 if side == "npu" and k >= BAD else 1.0)
        files[f"in{k}.npy"], files[f"out{k}.npy"] = x, y
        data[f"Functional.relu.{k}.forward"] = entry(
            [tensor(x, data_name=f"in{k}.npy")], [tensor(y, data_name=f"out{k}.npy")]
        )
    d = write_rank(root / side / "step0" / "rank0", data, task="tensor")
    (d / "dump_tensor_data").mkdir()
    for name, array in files.items():
        np.save(d / "dump_tensor_data" / name, array)
    return d


@pytest.fixture()
def pairing(tmp_path: Path):  # type: ignore[no-untyped-def]
    npu, bench = read_rank(_rank(tmp_path, "npu")), read_rank(_rank(tmp_path, "bench"))
    return pair_ranks(npu, bench, None), npu


def test_statistics_first_then_the_suspect_calls_then_the_rest(pairing) -> None:  # type: ignore[no-untyped-def]
    pairs, npu = pairing
    steps = list(triage.tensor_mode_triaged(pairs, rank=npu, workers=1, batch=1))
    first = steps[0]
    assert first.done == 0 and first.frame["cosine_similarity"].is_null().all()  # no tensor opened yet
    assert first.divergence is not None and first.divergence.entry == f"Functional.relu.{BAD}.forward"
    region = range(
        first.divergence.order - triage.REGION_BEFORE, first.divergence.order + triage.REGION_AFTER + 1
    )
    opened = steps[1].frame.filter(pl.col("cosine_similarity").is_not_null())
    assert opened.height == steps[1].done > 0
    assert all(o in region for o in opened["Order"].to_list())  # the suspect calls' tensors first
    assert steps[-1].done == steps[-1].total == 2 * CALLS
    assert_frame_equal(steps[-1].frame, compare_statistics(pairs, tensors=True))


def test_forked_workers_give_the_same_last_frame(pairing) -> None:  # type: ignore[no-untyped-def]
    from dumpscope.core.comparison import execution

    pairs, npu = pairing
    last = list(triage.tensor_mode_triaged(pairs, rank=npu, workers=2, batch=4))[-1]
    assert execution.MIN_PARALLEL_ROWS * 2 <= 2 * CALLS  # the pool really forks
    assert_frame_equal(last.frame, compare_statistics(pairs, tensors=True))


def test_without_divergence_the_order_is_worst_statistics_first() -> None:
    ruled = pl.DataFrame({"Order": [0, 1, 2, 3], "Deviation": [0.0, 7.0, None, 3.0]})
    assert triage.suspect_order(ruled, None) == [1, 3, 0, 2]


def test_one_tensor_mode_rank_on_two_workers_is_the_one_worker_report(tmp_path: Path) -> None:
    from dumpscope.core.comparison.msprobe.driver import compare_msprobe

    _rank(tmp_path, "npu"), _rank(tmp_path, "bench")
    [one] = compare_msprobe(tmp_path / "npu", tmp_path / "bench", workers=1).results
    [two] = compare_msprobe(
        tmp_path / "npu", tmp_path / "bench", workers=2
    ).results  # the rank's tensors on 2 processes
    assert_frame_equal(one.frame, two.frame)
    assert one.divergence == two.divergence and one.divergence.entry == f"Functional.relu.{BAD}.forward"
