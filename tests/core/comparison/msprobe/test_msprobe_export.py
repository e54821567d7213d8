"""End to end on a real network exported to msprobe's layout (bench/msprobe_export.py):
the fault sits in step 1 / rank 1 only, and the answer must name that step, rank and call."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from dumpscope.core.comparison.msprobe.driver import compare_msprobe
from dumpscope.core.comparison.msprobe.pairing import pair_ranks
from dumpscope.core.formats.msprobe import read_rank
from tests.support.msprobe import entry, tensor, write_rank
from tests.support.paths import REPO as REPO_DIR

BENCH = REPO_DIR / "bench" / "msprobe_export.py"


def _exporter():
    spec = importlib.util.spec_from_file_location("msprobe_export", BENCH)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["msprobe_export"] = mod
    spec.loader.exec_module(mod)
    return mod


#: Tensor mode saves ``.npy`` files for these blocks only (msprobe's ``list``), as a user would
#: for a dump this size: they hold an extra NPU call inside a repeated block and a fault.
TENSOR_BLOCKS = frozenset({"layer4.2", "layer4.3"})


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, object, dict]:
    """ResNet-50 through onnxruntime, 2 steps x 2 ranks, both modes, calls added on either side
    (start, middle, inside repeated blocks, two APIs), an API on one side only, three faults."""
    mod = _exporter()
    out = tmp_path_factory.mktemp("msprobe")
    info = mod.export(out, modes=("statistics", "tensor"), steps=2, ranks=2, tensor_modules=TENSOR_BLOCKS)
    return out, mod, info["truth"]


def _cell(result) -> tuple[int, int]:
    return result.step, int(result.rank.removeprefix("rank"))


def _scored(report, truth) -> list[tuple[str, int, int, str | None, str | None]]:
    """Per (step, rank): label, pairs right, pairs true, faulty call, first divergent call."""
    out = []
    for r in report.results:
        t = truth[_cell(r)]
        got = {p.npu.name: p.bench.name for p in r.pairing.pairs}
        right = sum(got.get(n) == b for n, b in t.pairs.items())
        out.append((r.label, right, len(t.pairs), t.fault, r.divergence.entry if r.divergence else None))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["statistics", "tensor"])
def test_every_call_pairs_with_its_counterpart_and_each_fault_is_named_first(exported, mode) -> None:
    """The acceptance corpus: in both modes and for each (step, rank), every true pair is made
    (counted), nothing else is paired, the one-sided calls are exactly the extra ones, and the
    first divergent call is the faulty one (none where the run is healthy)."""
    root, _, truth = exported
    report = compare_msprobe(root / mode / "npu", root / mode / "bench")
    assert [r.label for r in report.results] == ["step0/rank0", "step0/rank1", "step1/rank0", "step1/rank1"]
    scored = _scored(report, truth)
    print(
        f"\n{mode}: "
        + "; ".join(
            f"{lab} {right}/{total} pairs right, fault {fault}, found {found}"
            for lab, right, total, fault, found in scored
        )
    )
    for r, (label, right, total, fault, found) in zip(report.results, scored, strict=False):
        t = truth[_cell(r)]
        assert right == total == len(r.pairing.pairs), label
        assert sorted(u.entry.name for u in r.pairing.unmatched if u.side == "npu") == t.npu_only
        assert sorted(u.entry.name for u in r.pairing.unmatched if u.side == "bench") == t.bench_only
        assert found == fault, label
        if fault is not None:
            assert r.divergence.bench_entry == t.pairs[fault]  # the bench call it really corresponds to
        assert r.pairing.counts()["aligned"] >= 15  # the corpus really shifts counters
    assert truth[(0, 0)].fault is None and report.first.label == "step0/rank1"


@pytest.mark.slow
def test_steps_and_ranks_are_selected_and_never_merged(exported) -> None:
    root, _, _ = exported
    report = compare_msprobe(root / "statistics" / "npu", root / "statistics" / "bench", steps=[0], ranks=[0])
    [only] = report.results
    assert only.label == "step0/rank0" and only.divergence is None and report.first is None
    full = compare_msprobe(root / "statistics" / "npu", root / "statistics" / "bench")
    for result in full.results:
        names = result.frame.filter(pl.col("NPU Name").is_not_null())["NPU Name"]
        assert names.n_unique() == names.len()  # one row per record: no other step/rank mixed in
    summary = full.summary()
    assert summary.height == 4 and summary["first divergence"].null_count() == 1
    assert (summary["aligned"] >= 15).all() and summary["errors"].to_list()[0] == 0


@pytest.mark.slow
def test_without_construct_and_stack_json_every_call_still_pairs(exported, tmp_path) -> None:
    """msprobe at level L1 or with ``extra_info`` off writes no module tree and no stacks: the
    dtypes, shapes, first inputs' statistics and the call order still pair every call."""
    import shutil

    root, _, truth = exported
    bare = shutil.ignore_patterns("construct.json", "stack.json")
    shutil.copytree(root / "statistics", tmp_path / "bare", ignore=bare)
    report = compare_msprobe(tmp_path / "bare" / "npu", tmp_path / "bare" / "bench")
    for label, right, total, fault, found in _scored(report, truth):
        assert right == total and found == fault, label


@pytest.mark.slow
def test_one_sided_calls_say_why(exported) -> None:
    root, _, _ = exported
    pairing = pair_ranks(
        read_rank(root / "statistics" / "npu" / "step0" / "rank0"),
        read_rank(root / "statistics" / "bench" / "step0" / "rank0"),
    )
    reasons = {(u.side, u.entry.name): u.reason for u in pairing.unmatched}
    assert "NPU-only op" in reasons[("npu", "NPU.npu_format_cast.0.forward")]
    assert reasons[("npu", "Tensor.__add__.0.forward")].startswith(
        "NPU-only call: counters of later `Tensor.__add__` calls are shifted by one (Tensor.__add__.1.forward"
    )
    assert "bench-only: no NPU call of Tensor.float.forward" in reasons[("bench", "Tensor.float.0.forward")]
    assert any(side == "bench" and why.startswith("bench-only call: ") for (side, _), why in reasons.items())
    labels = [p.label for p in pairing.pairs if p.how == "aligned"]
    assert "aligned: NPU Tensor.__add__.1.forward \u2194 bench Tensor.__add__.0.forward" in labels


@pytest.mark.slow
def test_equal_names_pair_the_wrong_calls_on_this_corpus(exported) -> None:
    """msprobe's plain pairing (``--pairing exact``) on the same dumps: the shifted calls pair
    with the wrong partner and the healthy run is reported diverging: what the alignment fixes."""
    root, _, truth = exported
    report = compare_msprobe(root / "statistics" / "npu", root / "statistics" / "bench", pairing="exact")
    scored = _scored(report, truth)
    assert all(right < total for _, right, total, _, _ in scored)
    assert scored[0][4] is not None  # step0/rank0 is healthy, yet a wrong pair diverges


@pytest.mark.slow
def test_the_fault_is_found_in_the_right_step_rank_and_call(exported) -> None:
    root, mod, truth = exported
    report = compare_msprobe(root / "statistics" / "npu", root / "statistics" / "bench")
    first = {r.label: r for r in report.results}["step1/rank1"]
    # the faulty convolution, found independently from the model: the k-th Conv reads FAULT_WEIGHT
    convs = [
        n
        for n in mod.materialise_weights(mod.light_model("light_resnet50")).graph.node
        if n.op_type == "Conv"
    ]
    k = next(i for i, n in enumerate(convs) if mod.FAULT_WEIGHT in n.input)
    div = first.divergence
    assert div.entry == f"Functional.conv2d.{k}.forward" == truth[(1, 1)].fault
    # its weight (input 1, produced by no earlier call) overflowed on the NPU: the cause is given to the call
    assert div.kind == "given" and div.nonfinite and div.missed_by_msprobe
    assert div.local_inputs == (f"Functional.conv2d.{k}.forward.input.1",)
    assert "input.1): the two runs were not fed the same data or weights" in div.describe()
    assert div.module_path[-1] == "Module.layer3.1.Bottleneck.forward.0"


_STAT_COLUMNS = (
    ("Max", "Max diff", "MaxRelativeErr"),
    ("Min", "Min diff", "MinRelativeErr"),
    ("Mean", "Mean diff", "MeanRelativeErr"),
    ("Norm", "L2norm diff", "NormRelativeErr"),
)


def _dump(path: Path) -> dict:
    return json.loads((path / "dump.json").read_text(), parse_constant=float)["data"]


def _tensors(body: dict) -> dict[str, dict]:
    """``input.0`` / ``output.0`` -> tensor record of one dump.json entry (positional args only)."""
    out = {}
    for key, role in (("input_args", "input"), ("output", "output")):
        for i, arg in enumerate(body.get(key, [])):
            if isinstance(arg, dict) and "Max" in arg:
                out[f"{role}.{i}"] = arg
    return out


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["statistics", "tensor"])
def test_msprobe_numbers_hold_on_every_correctly_paired_call(exported, mode) -> None:
    """On every true pair, the statistics columns equal msprobe's definitions recomputed in
    float64 from the two dump.json files read as plain JSON (diff = NPU - bench; relative error
    = |diff / bench| x 100); in tensor mode the cosine equals a float64 cosine of the .npy files."""
    root, _, truth = exported
    report = compare_msprobe(root / mode / "npu", root / mode / "bench")
    checked = cosines = 0
    for r in report.results:
        s, k = _cell(r)
        npu = _dump(root / mode / "npu" / f"step{s}" / f"rank{k}")
        bench = _dump(root / mode / "bench" / f"step{s}" / f"rank{k}")
        rows = {row["NPU Name"]: row for row in r.frame.iter_rows(named=True) if row["NPU Name"]}
        for n_entry, b_entry in truth[(s, k)].pairs.items():
            b_tensors = _tensors(bench[b_entry])
            for suffix, a in _tensors(npu[n_entry]).items():
                row, b = rows[f"{n_entry}.{suffix}"], b_tensors[suffix]
                assert row["Bench Name"] == f"{b_entry}.{suffix}"
                for stat, col, rel in _STAT_COLUMNS:
                    x, y = float(a[stat]), float(b[stat])
                    if not (np.isfinite(x) and np.isfinite(y)):
                        continue
                    assert row[col] == pytest.approx(x - y, rel=1e-6, abs=1e-12)
                    want = 0.0 if x == y else (np.inf if y == 0 else abs((x - y) / y) * 100)
                    assert row[rel] == pytest.approx(want, rel=1e-6, abs=1e-9)
                checked += 1
                if mode == "tensor" and "data_name" in a and "data_name" in b:
                    d = root / mode / "npu" / f"step{s}" / f"rank{k}" / "dump_tensor_data"
                    e = root / mode / "bench" / f"step{s}" / f"rank{k}" / "dump_tensor_data"
                    x = np.load(d / a["data_name"]).astype(np.float64).ravel()
                    y = np.load(e / b["data_name"]).astype(np.float64).ravel()
                    if np.isfinite(x).all() and np.linalg.norm(x) > 0 and np.linalg.norm(y) > 0:
                        cos = float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y)))
                        assert row["cosine_similarity"] == pytest.approx(cos, abs=1e-6)
                        cosines += 1
    assert checked > 4 * 400
    assert mode == "statistics" or cosines > 100  # step1/rank1 is Inf downstream of its fault
    print(f"\n{mode}: {checked} paired tensor records checked, {cosines} cosines")


@pytest.mark.slow
def test_mindspore_cells_align_with_pytorch_modules(exported, tmp_path) -> None:
    """The NPU side written with MindSpore's names (``Cell.`` modules, ``framework: mindspore``):
    modules pair with the PyTorch bench's ``Module.`` entries and the shifted calls still align."""
    root, _, truth = exported
    src = root / "statistics" / "npu" / "step1" / "rank0"
    dst = tmp_path / "npu" / "step1" / "rank0"
    dst.mkdir(parents=True)
    rename = lambda text: text.replace('"Module.', '"Cell.')  # noqa: E731 - names only, never numbers
    body = json.loads(rename((src / "dump.json").read_text()), parse_constant=float)
    body["framework"] = "mindspore"
    (dst / "dump.json").write_text(json.dumps(body))
    for name in ("construct.json", "stack.json"):
        (dst / name).write_text(rename((src / name).read_text()))
    [r] = compare_msprobe(tmp_path / "npu", root / "statistics" / "bench", steps=[1], ranks=[0]).results
    want = {n.replace("Module.", "Cell.", 1): b for n, b in truth[(1, 0)].pairs.items()}
    assert {p.npu.name: p.bench.name for p in r.pairing.pairs} == want
    assert r.divergence.entry == truth[(1, 0)].fault


@pytest.mark.slow
def test_the_cli_labels_each_step_rank_with_its_own_first_divergence(exported, capsys) -> None:
    from dumpscope.core.comparison.msprobe.statistics import failing_rows
    from dumpscope.tui.cli.main import main

    root, _, truth = exported
    sides = [str(root / "statistics" / side) for side in ("bench", "npu")]
    assert main(["compare", *sides, "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    report = compare_msprobe(root / "statistics" / "npu", root / "statistics" / "bench")
    for item, r in zip(out["results"], report.results, strict=False):
        fault = truth[_cell(r)].fault
        assert (item["first_divergence"] or {}).get("entry") == fault, item["label"]
        assert item["errors"] == failing_rows(r.frame) and item["pairing"]["aligned"] >= 15
    assert out["first"] == "step0/rank1"


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
        d = write_rank(
            tmp_path / side / "step0" / "rank0",
            {
                "Functional.relu.0.forward": entry(
                    [tensor(x, data_name="in.npy")], [tensor(out, data_name="out.npy")]
                )
            },
            task="tensor",
        )
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
    write_rank(
        tmp_path / "gpu_run", {"Functional.relu.0.forward": entry([tensor(stats=s)], [tensor(stats=s)])}
    )
    write_rank(
        tmp_path / "npu_run", {"Functional.relu.0.forward": entry([tensor(stats=s)], [tensor(stats=s)])}
    )
    for npu, bench in (
        (tmp_path / "npu_run", tmp_path / "gpu_run"),
        (tmp_path / "npu_run" / "dump.json", tmp_path / "gpu_run" / "dump.json"),
    ):
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
    x, x_bad, w, w_near = (
        (1.0, 0.0, 0.5, 10.0),
        (1.4, 0.0, 0.7, 14.0),
        (0.1, -0.1, 0.0, 1.0),
        (0.1, -0.1, 0.0, 1.01),
    )
    y, y_bad = (2.0, 0.0, 1.0, 20.0), (9.0, 0.0, 4.0, 90.0)
    bench = {"Functional.conv2d.0.forward": entry([tensor(stats=x), tensor(stats=w)], [tensor(stats=y)])}
    fed = {
        "Functional.conv2d.0.forward": entry([tensor(stats=x_bad), tensor(stats=w)], [tensor(stats=y_bad)])
    }
    own = {
        "Functional.conv2d.0.forward": entry([tensor(stats=x), tensor(stats=w_near)], [tensor(stats=y_bad)])
    }
    for name, npu, kind in (("fed", fed, "given"), ("own", own, "introduced")):
        write_rank(tmp_path / name / "npu", npu)
        write_rank(tmp_path / name / "bench", bench)
        div = compare_msprobe(tmp_path / name / "npu", tmp_path / name / "bench").first.divergence
        assert div.entry == "Functional.conv2d.0.forward" and div.kind == kind
    assert div.local_inputs == ("Functional.conv2d.0.forward.input.1",)
