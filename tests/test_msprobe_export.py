"""End to end on a real network exported to msprobe's layout (bench/msprobe_export.py):
the fault sits in step 1 / rank 1 only, and the answer must name that step, rank and call."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from dumpscope.core.comparison.msprobe.driver import compare_msprobe
from dumpscope.core.comparison.msprobe.pairing import pair_ranks
from dumpscope.core.comparison.msprobe.statistics import compare_statistics
from dumpscope.core.formats.msprobe import read_rank
from msprobe_helpers import entry, tensor, write_rank

BENCH = Path(__file__).resolve().parent.parent / "bench" / "msprobe_export.py"


def _exporter():
    spec = importlib.util.spec_from_file_location("msprobe_export", BENCH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["msprobe_export"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, object]:
    mod = _exporter()
    out = tmp_path_factory.mktemp("msprobe")
    mod.export(out, modes=("statistics",), steps=2, ranks=2, fault=(1, 1))
    return out / "statistics", mod


@pytest.mark.slow
def test_the_fault_is_found_in_the_right_step_rank_and_call(exported) -> None:
    root, mod = exported
    report = compare_msprobe(root / "npu", root / "bench")
    assert [r.label for r in report.results] == ["step0/rank0", "step0/rank1", "step1/rank0", "step1/rank1"]
    assert [r.divergence is not None for r in report.results] == [False, False, False, True]
    first = report.first
    assert first.label == "step1/rank1"
    # the faulty convolution, found independently from the model: the k-th Conv reads FAULT_WEIGHT
    convs = [n for n in mod.materialise_weights(mod.light_model("light_resnet50")).graph.node if n.op_type == "Conv"]
    k = next(i for i, n in enumerate(convs) if mod.FAULT_WEIGHT in n.input)
    div = first.divergence
    assert div.entry == f"Functional.conv2d.{k}.forward"
    assert div.kind == "introduced" and div.nonfinite and div.missed_by_msprobe
    assert div.local_inputs == (f"Functional.conv2d.{k}.forward.input.1",)
    assert div.module_path[-1] == "Module.layer3.1.Bottleneck.forward.0"


@pytest.mark.slow
def test_steps_and_ranks_are_selected_and_never_merged(exported) -> None:
    root, _ = exported
    report = compare_msprobe(root / "npu", root / "bench", steps=[1], ranks=[0])
    [only] = report.results
    assert only.label == "step1/rank0" and only.divergence is None and report.first is None
    full = compare_msprobe(root / "npu", root / "bench")
    for result in full.results:
        names = result.frame.filter(pl.col("NPU Name").is_not_null())["NPU Name"]
        assert names.n_unique() == names.len()  # one row per record: no other step/rank mixed in
    summary = full.summary()
    assert summary.height == 4 and summary["first divergence"].null_count() == 3


@pytest.mark.slow
def test_generated_pairing_exercises_fuzzy_and_npu_only(exported) -> None:
    root, _ = exported
    pairing = pair_ranks(read_rank(root / "npu" / "step0" / "rank0"), read_rank(root / "bench" / "step0" / "rank0"))
    unmatched = {u.entry.name: u.reason for u in pairing.unmatched}
    assert "NPU-only op" in unmatched["NPU.npu_format_cast.0.forward"]
    assert "extra call on the NPU side" in unmatched["Tensor.__add__.0.forward"]
    fuzzy = [p for p in pairing.pairs if p.how == "fuzzy"]
    assert len(fuzzy) == 16 and all(p.npu.name.startswith("Tensor.__add__") for p in fuzzy)


def test_missing_side_and_bad_rank_are_one_result_each(tmp_path) -> None:
    good = {"Functional.relu.0.forward": entry([tensor()], [tensor()])}
    for side in ("npu", "bench"):
        write_rank(tmp_path / side / "step0" / "rank0", good)
    write_rank(tmp_path / "npu" / "step0" / "rank1", good)
    write_rank(tmp_path / "npu" / "step0" / "rank2", {}, raw="{oops")
    write_rank(tmp_path / "bench" / "step0" / "rank2", good)
    report = compare_msprobe(tmp_path / "npu", tmp_path / "bench")
    by = {r.label: r for r in report.results}
    assert by["step0/rank0"].error is None and by["step0/rank0"].frame.height == 2
    assert "NPU side only" in by["step0/rank1"].error
    assert "unreadable JSON" in by["step0/rank2"].error


def test_tensor_mode_adds_our_metrics(tmp_path) -> None:
    x = np.linspace(-1, 1, 64, dtype=np.float32)
    y = x.copy()
    y[3] = np.inf
    for side, out in (("bench", x), ("npu", y)):
        d = write_rank(tmp_path / side / "step0" / "rank0", {"Functional.relu.0.forward": entry(
            [tensor(x, data_name="in.npy")], [tensor(out, data_name="out.npy")])}, task="tensor")
        (d / "dump_tensor_data").mkdir()
        np.save(d / "dump_tensor_data" / "in.npy", x)
        np.save(d / "dump_tensor_data" / "out.npy", out)
    [result] = compare_msprobe(tmp_path / "npu", tmp_path / "bench").results
    rows = {r["Role"]: r for r in result.frame.iter_rows(named=True)}
    assert rows["input"]["cosine_similarity"] == pytest.approx(1.0)
    assert rows["output"]["nonfinite_mismatch"] == 1
    assert result.divergence is not None and result.divergence.nonfinite


def test_plain_text_entry_point(tmp_path, capsys) -> None:
    from dumpscope.core.comparison.msprobe.driver import main

    same = {"Functional.relu.0.forward": entry([tensor()], [tensor()])}
    for side in ("npu", "bench"):
        write_rank(tmp_path / side / "step0" / "rank0", same)
    assert main([str(tmp_path / "npu"), str(tmp_path / "bench"), "--csv", str(tmp_path / "out")]) == 0
    assert "first divergence: none" in capsys.readouterr().out
    assert (tmp_path / "out" / "step0_rank0.csv").is_file()
    assert main([str(tmp_path / "npu"), str(tmp_path / "bench"), "--rank", "7"]) == 2
