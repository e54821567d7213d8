"""Issue 15: ``dumpscope compare/diagnose`` on msprobe trees and on Ascend trees with several
steps/devices: each step/rank (step/device) is compared separately, never merged, and the
summary names the one that diverges first."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.formats import ascend_dump as ad
from dumpscope.core.formats import ascend_writer as aw
from dumpscope.core.formats.ascend_dump import discover_runs
from dumpscope.core.formats.ascend_tree import run_of, select_runs
from dumpscope.tui.cli.main import main
from tests.support.msprobe import entry, tensor, write_rank


def _stats_tree(root: Path, *, fault: tuple[int, str] | None, extra_call: bool = False) -> Path:
    """2 steps x 2 ranks of conv -> relu; ``fault`` puts an Inf into one conv output."""
    for step in (0, 1):
        for rank in ("rank0", "rank1"):
            x = np.linspace(-1, 1, 8).reshape(2, 4)
            y = x * 2
            bad = fault == (step, rank)
            out = tensor(stats=(np.inf, -1.0, 0.1, np.inf)) if bad else tensor(y)
            data: dict[str, object] = {}
            if extra_call:  # one more __add__ on this side shifts every later counter
                data["Tensor.__add__.0.forward"] = entry([tensor(x[:1])], [tensor(x[:1] + 0)])
            data |= {
                "Functional.conv2d.0.forward": entry([tensor(x)], [out]),
                f"Tensor.__add__.{1 if extra_call else 0}.forward": entry([tensor(y)], [tensor(y + 1)]),
                "Functional.relu.0.forward": entry([tensor(y + 1)], [tensor(np.maximum(y + 1, 0))]),
            }
            write_rank(root / f"step{step}" / rank, data)
    return root


@pytest.fixture()
def trees(tmp_path: Path) -> tuple[Path, Path]:
    bench = _stats_tree(tmp_path / "bench", fault=None)
    npu = _stats_tree(tmp_path / "npu", fault=(1, "rank1"), extra_call=True)
    return bench, npu


def test_msprobe_compare_json_is_one_object_per_step_rank(trees, capsys) -> None:
    bench, npu = trees
    assert main(["compare", str(bench), str(npu), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "msprobe" and out["first"] == "step1/rank1"
    assert [r["label"] for r in out["results"]] == [
        "step0/rank0",
        "step0/rank1",
        "step1/rank0",
        "step1/rank1",
    ]
    bad = out["results"][3]
    assert bad["first_divergence"]["entry"] == "Functional.conv2d.0.forward"
    assert bad["first_divergence"]["nonfinite"] is True
    # the shifted __add__ counter is re-aligned, not a false divergence, and the row says so
    assert all(r["first_divergence"] is None for r in out["results"][:3])
    pairing = {row["Entry"]: row["Pairing"] for row in out["results"][0]["rows"] if row["Entry"]}
    assert pairing["Tensor.__add__.1.forward"] == (
        "aligned: NPU Tensor.__add__.1.forward \u2194 bench Tensor.__add__.0.forward"
    )
    assert all(
        r["pairing"] == {"exact": 2, "aligned": 1, "mapping": 0, "npu-only": 1, "bench-only": 0}
        for r in out["results"]
    )


def test_msprobe_selection_and_exit_codes(trees, capsys) -> None:
    bench, npu = trees
    assert main(["compare", str(bench), str(npu), "--step", "0"]) == 0
    text = capsys.readouterr().out
    assert "step0/rank0" in text and "step1" not in text
    assert main(["compare", str(bench), str(npu), "--step", "1", "--rank", "1", "--format", "json"]) == 1
    assert [r["label"] for r in json.loads(capsys.readouterr().out)["results"]] == ["step1/rank1"]
    assert main(["compare", "-g", str(bench), "-m", str(npu), "--step", "0"]) == 0  # msaccucmp's spelling too
    capsys.readouterr()
    assert main(["compare", str(bench), str(npu), "--step", "9"]) == 2
    assert "no step/rank matches" in capsys.readouterr().err


def test_msprobe_diagnose_and_csv_per_rank(trees, tmp_path, capsys) -> None:
    bench, npu = trees
    assert main(["diagnose", str(bench), str(npu), "--rank", "1"]) == 1
    text = capsys.readouterr().out
    assert "first divergence:" in text and "conv2d.0" in text and "introduced" in text
    assert main(["diagnose", str(bench), str(npu), "--json"]) == 1
    diag = json.loads(capsys.readouterr().out)
    assert diag["first"] == "step1/rank1" and "rows" not in diag["results"][0]
    assert main(["compare", str(bench), str(npu), "--format", "csv", "-o", str(tmp_path / "csv")]) == 1
    assert sorted(p.name for p in (tmp_path / "csv").iterdir()) == [
        "step0_rank0.csv",
        "step0_rank1.csv",
        "step1_rank0.csv",
        "step1_rank1.csv",
    ]
    assert main(["compare", str(bench), str(npu), "--format", "csv"]) == 2  # four tables need a folder
    assert "needs -o FOLDER" in capsys.readouterr().err


def test_pairing_exact_keeps_msprobes_equal_names(trees, capsys) -> None:
    """``--pairing exact``: equal names only, as msprobe's compare without --fuzzy_match; the
    NPU's extra add then takes the bench's add.0 and nothing is re-aligned."""
    bench, npu = trees
    main(
        [
            "compare",
            str(bench),
            str(npu),
            "--pairing",
            "exact",
            "--step",
            "0",
            "--rank",
            "0",
            "--format",
            "json",
        ]
    )
    [result] = json.loads(capsys.readouterr().out)["results"]
    assert result["pairing"] == {"exact": 3, "aligned": 0, "mapping": 0, "npu-only": 1, "bench-only": 0}
    rows = {row["Entry"]: row for row in result["rows"] if row["Entry"]}
    assert rows["Tensor.__add__.0.forward"]["Bench Entry"] == "Tensor.__add__.0.forward"
    assert "exact pairing" in rows["Tensor.__add__.1.forward"]["Err_message"]
    assert main(["compare", str(bench), str(npu), "--pairing", "fuzzy"]) == 2


def test_the_per_rank_error_count_uses_the_apps_health_rule(tmp_path, capsys) -> None:
    """An output 20 % off while its input is equal: msprobe's rules only warn, the app marks the
    row failing (beyond the 5 % divergence bound); the CLI's per-rank count says the same."""
    x = np.linspace(0.5, 1, 8)
    for side, y in (("bench", x * 2), ("npu", x * 2.4)):
        call = {"Functional.relu.0.forward": entry([tensor(x)], [tensor(y)])}
        write_rank(tmp_path / side / "step0" / "rank0", call)
    from dumpscope.core.comparison.msprobe.driver import compare_msprobe
    from dumpscope.core.comparison.msprobe.view import as_comparison

    report = compare_msprobe(tmp_path / "npu", tmp_path / "bench")
    [r] = report.results
    assert r.frame["Result"].to_list() == ["pass", "warning"]
    app = as_comparison(report).frame
    assert app["health"].to_list() == ["ok", "fail"]
    assert main(["compare", str(tmp_path / "bench"), str(tmp_path / "npu"), "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["results"][0]["errors"] == 1 == r.failing
    assert report.summary()["errors"].to_list() == [1]


def test_msprobe_on_one_side_only_is_a_usage_error(trees, tmp_path, capsys) -> None:
    bench, _ = trees
    other = tmp_path / "plain"
    other.mkdir()
    np.save(other / "a.npy", np.zeros(3, np.float32))
    assert main(["compare", str(other), str(bench)]) == 2
    assert "not an msprobe dump" in capsys.readouterr().err


# ---------------------------------------------------------------- Ascend trees


def _op(folder: Path, op: str, values: np.ndarray, ts: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    out = aw.RawTensor(values.astype(np.float16), 2, 2, values.shape)
    aw.write_dump(folder / f"Conv2D.{op}.1.2.{ts}", op, [out], dump_time=ts)


@pytest.fixture()
def ascend_tree(tmp_path: Path) -> tuple[Path, Path]:
    golden = tmp_path / "golden"
    golden.mkdir()
    a = np.linspace(-1, 1, 16, dtype=np.float32).reshape(4, 4)
    np.save(golden / "convA.npy", a)
    np.save(golden / "convB.npy", a * 3)
    root = tmp_path / "dump" / "20261123101010"
    for device in (0, 1):
        for step in (0, 1):
            folder = root / str(device) / "resnet" / "1" / str(step)
            fault = (device, step) == (1, 1)
            _op(folder, "convA", a, 1000 + step)
            _op(folder, "convB", a * (30 if fault else 3), 2000 + step)
    return golden, tmp_path / "dump"


def test_ascend_runs_are_discovered_and_selected(ascend_tree) -> None:
    _, dump = ascend_tree
    runs = discover_runs(dump)
    assert [r.label for r in runs] == ["step0/device0", "step0/device1", "step1/device0", "step1/device1"]
    assert [r.label for r in select_runs(runs, [1], [0])] == ["step1/device0"]
    assert run_of(runs[0].path).step == 0


def test_ascend_reader_warns_when_a_tree_is_merged(ascend_tree) -> None:
    _, dump = ascend_tree
    opened = ad.open(dump)
    assert any("4 steps/devices" in p.message for p in opened.problems)
    assert "convA#2" in opened.tensors  # the merge itself is unchanged, but no longer silent


def test_ascend_tree_compares_each_run_and_names_the_first(ascend_tree, capsys) -> None:
    golden, dump = ascend_tree
    assert main(["compare", str(golden), str(dump), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "ascend-tree" and out["first"] == "step1/device1"
    assert len(out["results"]) == 4
    assert all(not any("#" in row["name"] for row in r["rows"]) for r in out["results"])
    bad = [r for r in out["results"] if r["first_divergence"]]
    assert [r["label"] for r in bad] == ["step1/device1"] and bad[0]["first_divergence"] == "convB"


def test_ascend_tree_selection_narrows_to_one_ordinary_compare(ascend_tree, capsys) -> None:
    golden, dump = ascend_tree
    assert main(["compare", str(golden), str(dump), "--step", "0", "--device", "1", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert isinstance(rows, list) and {r["name"] for r in rows} >= {"convA", "convB"}
    assert main(["compare", str(golden), str(dump), "--step", "1"]) == 1
    text = capsys.readouterr().out
    assert "step1/device1" in text and "first divergence:" in text
    assert main(["compare", str(golden), str(dump), "--device", "5"]) == 2
    assert "no step/device matches" in capsys.readouterr().err


def test_compare_msprobe_restores_the_garbage_collector(trees) -> None:
    import gc

    from dumpscope.core.comparison.msprobe.driver import compare_msprobe

    bench, npu = trees
    assert gc.isenabled()
    assert compare_msprobe(npu, bench).first.label == "step1/rank1"
    assert gc.isenabled()
    gc.disable()
    try:
        compare_msprobe(npu, bench, steps=[0])
        assert not gc.isenabled()  # a caller's own setting is kept
    finally:
        gc.enable()


def test_swapped_npu_and_bench_are_warned_about(tmp_path, capsys) -> None:
    x = np.linspace(-1, 1, 4)
    bench = {"Functional.relu.0.forward": entry([tensor(x)], [tensor(np.maximum(x, 0))])}
    npu = bench | {"NPU.npu_format_cast.0.forward": entry([tensor(x)], [tensor(x)])}
    write_rank(tmp_path / "bench" / "step0" / "rank0", bench)
    write_rank(tmp_path / "npu" / "step0" / "rank0", npu)
    assert main(["compare", str(tmp_path / "bench"), str(tmp_path / "npu")]) == 0
    assert "swapped" not in capsys.readouterr().err
    main(["compare", str(tmp_path / "npu"), str(tmp_path / "bench")])
    assert "were they swapped" in capsys.readouterr().err


def test_the_app_opens_one_ascend_run_or_asks_for_one(ascend_tree, monkeypatch, capsys) -> None:
    from dumpscope.tui.cli.commands import view

    opened: list[object] = []
    monkeypatch.setattr(view, "run_app", lambda app, args: opened.append(app._source) or 0)
    golden, dump = ascend_tree
    assert main(["view", str(golden), str(dump)]) == 2
    assert "4 steps/devices" in capsys.readouterr().err and not opened
    assert main(["view", str(golden), str(dump), "--step", "1", "--device", "1"]) == 0
    assert opened and str(opened[0].target).endswith("/1/resnet/1/1")


def test_msprobe_dumps_sharing_no_call_exit_1_and_say_so(tmp_path, capsys) -> None:
    write_rank(tmp_path / "gpu", {"Functional.relu.0.forward": entry([tensor()], [tensor()])})
    write_rank(tmp_path / "npu", {"Functional.gelu.0.forward": entry([tensor()], [tensor()])})
    assert main(["compare", str(tmp_path / "gpu" / "dump.json"), str(tmp_path / "npu" / "dump.json")]) == 1
    text = " ".join(capsys.readouterr().out.split())
    assert "nothing paired" in text and "1 of 1 step/ranks could not be compared" in text
