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
    # its weight (input 1, produced by no earlier call) overflowed on the NPU: the cause is given to the call
    assert div.kind == "given" and div.nonfinite and div.missed_by_msprobe
    assert div.local_inputs == (f"Functional.conv2d.{k}.forward.input.1",)
    assert "input.1): the two runs were not fed the same data or weights" in div.describe()
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


def test_two_dumps_named_differently_are_one_pair_as_msprobe_takes_them(tmp_path) -> None:
    """msprobe's compare takes two dump.json files: a user points at two rank folders (or the
    files) whatever their names; they are one pair, and the row says how they were paired."""
    s = (1.0, 0.0, 0.5, 10.0)
    write_rank(tmp_path / "gpu_run", {"Functional.relu.0.forward": entry([tensor(stats=s)], [tensor(stats=s)])})
    write_rank(tmp_path / "npu_run", {"Functional.relu.0.forward": entry([tensor(stats=s)], [tensor(stats=s)])})
    for npu, bench in ((tmp_path / "npu_run", tmp_path / "gpu_run"),
                       (tmp_path / "npu_run" / "dump.json", tmp_path / "gpu_run" / "dump.json")):
        [only] = compare_msprobe(npu, bench).results
        assert only.label == "npu_run" and only.error is None and only.frame.height == 2
        assert (only.frame["Result"] == "pass").all()
        assert any("bench gpu_run compared with NPU npu_run" in p.message for p in only.problems)


def test_one_step_on_each_side_pairs_rank_by_rank(tmp_path) -> None:
    good = {"Functional.relu.0.forward": entry([tensor()], [tensor()])}
    for rank in ("rank0", "rank1"):
        write_rank(tmp_path / "npu" / "step3" / rank, good)
        write_rank(tmp_path / "bench" / "step0" / rank, good)
    report = compare_msprobe(tmp_path / "npu", tmp_path / "bench")
    assert [r.label for r in report.results] == ["step3/rank0", "step3/rank1"]
    assert all(r.error is None and r.frame.height == 2 for r in report.results)
    assert "bench step0/rank1 compared with NPU step3/rank1" in report.results[1].problems[0].message
    # several steps on a side keep the strict step/rank pairing: nothing is guessed
    write_rank(tmp_path / "bench" / "step1" / "rank0", good)
    labels = {r.label: r.error for r in compare_msprobe(tmp_path / "npu", tmp_path / "bench").results}
    assert "bench side only" in labels["step0/rank0"] and "NPU side only" in labels["step3/rank0"]


def test_a_call_fed_different_data_is_given_not_introduced(tmp_path) -> None:
    """The first call's own input (the model input) differs by 40 %: the output differs because of
    it, which is not this call's fault; a 1 % weight difference is still introduced."""
    x, x_bad, w, w_near = (1.0, 0.0, 0.5, 10.0), (1.4, 0.0, 0.7, 14.0), (0.1, -0.1, 0.0, 1.0), (0.1, -0.1, 0.0, 1.01)
    y, y_bad = (2.0, 0.0, 1.0, 20.0), (9.0, 0.0, 4.0, 90.0)
    bench = {"Functional.conv2d.0.forward": entry([tensor(stats=x), tensor(stats=w)], [tensor(stats=y)])}
    fed = {"Functional.conv2d.0.forward": entry([tensor(stats=x_bad), tensor(stats=w)], [tensor(stats=y_bad)])}
    own = {"Functional.conv2d.0.forward": entry([tensor(stats=x), tensor(stats=w_near)], [tensor(stats=y_bad)])}
    for name, npu, kind in (("fed", fed, "given"), ("own", own, "introduced")):
        write_rank(tmp_path / name / "npu", npu)
        write_rank(tmp_path / name / "bench", bench)
        div = compare_msprobe(tmp_path / name / "npu", tmp_path / name / "bench").first.divergence
        assert div.entry == "Functional.conv2d.0.forward" and div.kind == kind
    assert div.local_inputs == ("Functional.conv2d.0.forward.input.1",)
