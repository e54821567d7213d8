"""Issue 14, CLI half: three-way and fusion on/off from the command line, msaccucmp's flags,
piped output, constants after activations, the Model Explorer overlay, the reproduce path."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from dumpscope.core.comparison.order import display_order, parse_range, select_rows
from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.cli.main import main
from tests.support.fusion_onoff import FusionData, make_fusion_data  # noqa: E402


@pytest.fixture(scope="module")
def fusion(tmp_path_factory: pytest.TempPathFactory) -> FusionData:
    return make_fusion_data(tmp_path_factory.mktemp("fusion"))


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_three_way_table_says_which_side_is_worse(
    fusion: FusionData, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        [
            "compare",
            str(fusion.golden),
            str(fusion.on),
            str(fusion.off),
            "-f",
            str(fusion.graph_on),
            "-cf",
            str(fusion.graph_off),
        ],
        capsys,
    )
    assert code == 1
    header = out.splitlines()[0]
    assert (
        "fusion on cosine" in header and "fusion off cosine" in header and header.rstrip().endswith("worse")
    )
    relu1 = next(line for line in out.splitlines() if " relu1 " in line)
    assert relu1.rstrip().endswith("A") and "FAIL" in relu1
    assert (
        f"{fusion.bad_op} (fused from {', '.join(fusion.bad_originals)}; passes OnnxRuntimeFusion) diverges "
        "only in fusion on" in out
    )
    assert "worse rows: fusion on: 1, fusion off: 0" in out


def test_three_way_csv_has_both_sides_and_the_worse_column(
    fusion: FusionData, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "three.csv"
    code, _, _ = _run(
        [
            "compare",
            str(fusion.golden),
            str(fusion.on),
            str(fusion.off),
            "--graph",
            str(fusion.graph_on),
            "--graph",
            str(fusion.graph_off),
            "--format",
            "csv",
            "-o",
            str(out_file),
            "-out",
            str(tmp_path / "dir"),
        ],
        capsys,
    )
    frame = pl.read_csv(out_file)
    (saved,) = (tmp_path / "dir").glob("threeway_*.csv")
    assert pl.read_csv(saved).equals(frame)
    assert code == 1 and {"a_cosine_similarity", "b_cosine_similarity", "worse"} <= set(frame.columns)
    assert frame.filter(pl.col("worse") == "A")["name"].to_list() == ["relu1"]


@pytest.mark.parametrize("swap", [False, True])
def test_msaccucmp_fusion_command_line(
    fusion: FusionData, capsys: pytest.CaptureFixture[str], tmp_path: Path, swap: bool
) -> None:
    """Seed 003's command, verbatim flags: -m/-g either way round, -f fused graph, -cf unfused graph, -out
    DIR."""
    m, g = (fusion.on, fusion.off) if swap else (fusion.off, fusion.on)
    code, out, err = _run(
        [
            "compare",
            "-m",
            str(m),
            "-g",
            str(g),
            "-f",
            str(fusion.graph_on),
            "-cf",
            str(fusion.graph_off),
            "-out",
            str(tmp_path / "out"),
        ],
        capsys,
    )
    assert code == 1
    assert f"fusion: {fusion.bad_op} (fused from {', '.join(fusion.bad_originals)}" in out
    results = list((tmp_path / "out").glob("result_*.csv"))
    assert len(results) == 1 and "wrote" in err
    assert results[0].read_text().startswith("Index,OpType,NPUDump")


def test_format_is_long_only_and_f_is_a_graph(fusion: FusionData, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["compare", str(fusion.golden), str(fusion.on), "-f", "csv"], capsys)
    assert code == 2 and "csv" in err  # -f names a graph file: "csv" is not one
    code, out, _ = _run(
        ["compare", str(fusion.golden), str(fusion.on), "-f", str(fusion.graph_on), "--format", "csv"], capsys
    )
    assert code == 1 and out.startswith("Index,")


def test_range_and_select(fusion: FusionData, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["compare", str(fusion.off), str(fusion.on), "--graph", str(fusion.graph_on), "--format", "json"]
    _, out, _ = _run([*base, "-s", "relu2,pool"], capsys)
    assert sorted(r["GroundTruth"] if "GroundTruth" in r else r["name"] for r in json.loads(out)) == [
        "pool",
        "relu2",
    ]
    _, out, _ = _run([*base, "-r", "2,3"], capsys)
    assert {r["index"] for r in json.loads(out)} <= {2, 3}
    code, _, err = _run([*base, "-r", "5,1"], capsys)
    assert code == 2 and "range" in err


def test_parse_range_matches_msaccucmp() -> None:
    assert list(parse_range("1,5")) == [1, 2, 3, 4, 5]
    assert list(parse_range("0,10,5")) == [0, 5, 10]
    for bad in ("1", "a,b", "3,1", "1,4,0"):
        with pytest.raises(ValueError):
            parse_range(bad)
    frame = pl.DataFrame(
        {
            "index": [0, 1, 2],
            "name": ["a", "b", "c"],
            "target_name": ["x", None, "z"],
            "node_name": [None, None, None],
        },
        schema_overrides={"node_name": pl.String},
    )
    assert select_rows(frame, None, "z,1")["name"].to_list() == ["b", "c"]


def _long_names(tmp_path: Path) -> tuple[Path, Path]:
    g, t = tmp_path / "g", tmp_path / "t"
    g.mkdir()
    t.mkdir()
    rng = np.random.default_rng(0)
    for i in range(3):
        name = (
            f"model.backbone.stage_{i}.block_{i}.very_long_layer_name_that_wraps_at_eighty_columns.Conv_{i}"
        )
        a = rng.standard_normal(16).astype(np.float32)
        np.save(g / f"{name}.0.{1700000000000000 + i}.npy", a)
        np.save(t / f"{name}.0.{1700000000000000 + i}.npy", a + (0.5 if i == 2 else 0))
    return g, t


def test_piped_output_is_plain_and_full_width(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g, t = _long_names(tmp_path)
    code, out, _ = _run(["compare", str(g), str(t)], capsys)  # capsys: stdout is not a terminal
    lines = out.splitlines()
    assert code == 1 and "\x1b[" not in out
    rows = [
        line
        for line in lines
        if "very_long_layer_name_that_wraps_at_eighty_columns" in line and line.split()[0].isdigit()
    ]
    assert len(rows) == 3 and all(len(line) > 80 for line in rows)  # one line per row: nothing wrapped
    assert rows[2].endswith("✗ FAIL") and rows[0].endswith("✓ OK")  # the health column is whole
    assert lines[0].split()[:3] == ["#", "name", "op"]


def test_table_to_a_file_is_the_plain_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g, t = _long_names(tmp_path)
    main(["compare", str(g), str(t), "-o", str(tmp_path / "table.txt")])
    text = (tmp_path / "table.txt").read_text()
    assert (
        sum(
            "very_long_layer_name" in line and line.rstrip().endswith(("OK", "FAIL"))
            for line in text.splitlines()
        )
        == 3
    )


def test_constants_come_after_activations() -> None:
    frame = pl.DataFrame(
        {
            "index": list(range(5)),
            "name": ["w1", "w2", "conv", "w3", "relu"],
            "kind": ["constant", "constant", "activation", "constant", None],
            "side": ["both"] * 5,
            "health": ["ok"] * 5,
        }
    )
    order = display_order(frame)
    assert [frame["name"][int(i)] for i in order] == ["conv", "relu", "w1", "w2", "w3"]
    from dumpscope.tui.cli.render import plain_lines

    lines = plain_lines(Comparison.from_frame(frame))
    assert [line.split()[1] for line in lines[1:]] == ["conv", "relu", "w1", "w2", "w3"]


# --- Model Explorer -----------------------------------------------------------------


def check_model_explorer_node_data(doc: object) -> None:
    """Structural check of Model Explorer's ``NodeDataProviderGraphData``.

    Source: google-ai-edge/model-explorer, ``src/ui/src/components/visualizer/common/types.ts``
    (``NodeDataProviderGraphData``, ``NodeDataProviderResultData``, ``ThresholdItem``,
    ``GradientItem``) and ``src/server/package/src/model_explorer/node_data_builder.py``
    (``GraphNodeData``, ``NodeDataResult``: ``value: Num``), commit c0f8dbac5cf2.
    """
    optional_bools = {
        "hideInAggregatedStatsTable",
        "hideInChildrenStatsTable",
        "showExpandedSummaryOnGroupNode",
        "showLabelCountColumnsInChildrenStatsTable",
    }
    allowed = {"name", "results", "thresholds", "gradient", "hideAggregatedStats", *optional_bools}
    assert isinstance(doc, dict) and set(doc) <= allowed and "results" in doc
    assert "name" not in doc or isinstance(doc["name"], str)
    assert isinstance(doc["results"], dict)
    for key, result in doc["results"].items():
        assert isinstance(key, str) and isinstance(result, dict)
        assert set(result) <= {"value", "bgColor", "textColor"} and "value" in result
        assert isinstance(result["value"], (int, float)) and not isinstance(result["value"], bool)  # Num
        assert all(isinstance(result[c], str) for c in ("bgColor", "textColor") if c in result)
    for item in doc.get("thresholds", []):
        assert set(item) <= {"value", "bgColor", "textColor"} and {"value", "bgColor"} <= set(item)
        assert isinstance(item["value"], (int, float)) and isinstance(item["bgColor"], str)
    values = [t["value"] for t in doc.get("thresholds", [])]
    assert values == sorted(values)  # ranges are read in order: value <= threshold
    for item in doc.get("gradient", []):
        assert 0 <= item["stop"] <= 1
    assert all(isinstance(doc[k], bool) for k in optional_bools if k in doc)


def test_model_explorer_overlay_validates_and_colours_by_health(
    fusion: FusionData, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "overlay.json"
    code, _, _ = _run(
        [
            "compare",
            str(fusion.golden),
            str(fusion.on),
            "--graph",
            str(fusion.graph_on),
            "--format",
            "model-explorer",
            "-o",
            str(out),
        ],
        capsys,
    )
    doc = json.loads(out.read_text())  # strict JSON: no NaN
    check_model_explorer_node_data(doc)
    assert code == 1 and doc["results"]["relu1"]["value"] == 2 and doc["results"]["pool"]["value"] == 0
    colour = {t["value"]: t["bgColor"] for t in doc["thresholds"]}
    assert (
        len(set(colour.values())) == 6
    )  # ok, warn, fail, error, golden only, target only: each its own colour
    # conv1 was fused away in the target: golden-only, its own state, not "no data"
    assert doc["results"]["conv1"]["value"] == 4 and "golden only" in doc["name"]


def test_structural_checker_rejects_bad_documents() -> None:
    for bad in (
        {},
        {"results": {"a": {"value": "x"}}},
        {"results": {"a": {}}},
        {"results": {}, "thresholds": [{"value": 1}]},
        {"results": {}, "extra": 1},
    ):
        with pytest.raises(AssertionError):
            check_model_explorer_node_data(bad)


def test_reproduce_command_uses_the_path_that_works(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from dumpscope.tui.cli.args import invocation

    script = tmp_path / ".venv" / "bin" / "dumpscope"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(sys, "argv", [".venv/bin/dumpscope", "demo"])
    assert invocation() == ".venv/bin/dumpscope"
    monkeypatch.setenv("PATH", str(script.parent))
    script.chmod(0o755)
    assert invocation() == "dumpscope"
    monkeypatch.setattr(sys, "argv", ["/x/__main__.py"])
    assert invocation().endswith(" -m dumpscope")


def test_fp16_dump_prints_one_summary_line_and_the_detail_with_verbose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    consts = [
        numpy_helper.from_array(np.array([1e-9, 1.0, 1e-10], dtype=np.float32), f"tiny{i}") for i in range(5)
    ]
    consts.append(numpy_helper.from_array(np.array([1e6, 1.0, 2.0], dtype=np.float32), "huge"))
    nodes, prev = [], "x"
    for i, c in enumerate(consts):
        nodes.append(helper.make_node("Add", [prev, c.name], [f"a{i}"], f"add{i}"))
        prev = f"a{i}"
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [3])],
        consts,
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), tmp_path / "m.onnx")
    assert main(["dump", str(tmp_path / "m.onnx"), "-o", str(tmp_path / "t"), "--target", "fp16"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if "fp16:" in line]
    assert err == [
        "dumpscope: fp16: 1 value(s) in 1 constant(s) clamped to +-65504; --verbose lists them",
        "dumpscope: fp16: 10 value(s) in 5 constant(s) flushed to 0 (below the fp16 subnormal range); "
        "--verbose lists them",
    ]
    assert (
        main(["dump", str(tmp_path / "m.onnx"), "-o", str(tmp_path / "t"), "--target", "fp16", "--verbose"])
        == 0
    )
    err = [line for line in capsys.readouterr().err.splitlines() if "fp16:" in line]
    assert len(err) == 6 and any("constant 'huge'" in line for line in err)


def test_markdown_report_paths_are_relative_to_the_report(
    fusion: FusionData, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    report_dir = tmp_path / "reports"
    report_dir.mkdir()
    main(
        [
            "compare",
            str(fusion.golden),
            str(fusion.on),
            "--graph",
            str(fusion.graph_on),
            "--format",
            "markdown",
            "-o",
            str(report_dir / "r.md"),
        ]
    )
    text = (report_dir / "r.md").read_text()
    assert str(fusion.golden) not in text and "Paths are relative to this report's folder" in text
    golden_rel = os.path.relpath(fusion.golden, report_dir)
    assert (
        f"- golden: `{golden_rel}`" in text and (report_dir / golden_rel).resolve() == fusion.golden.resolve()
    )
    monkeypatch.chdir(fusion.golden.parent)
    main(["compare", str(fusion.golden), str(fusion.on), "--format", "markdown"])
    out = capsys.readouterr().out
    assert "- golden: `golden`" in out and "relative to the folder the command ran in" in out


def test_view_takes_msaccucmp_flags_and_opens_three_way(
    fusion: FusionData, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from dumpscope.tui.cli.commands import view

    opened: list[object] = []
    monkeypatch.setattr(view, "run_app", lambda app, args: opened.append(app) or 0)  # no terminal in a test
    code, _, _err = _run(
        [
            str(fusion.golden),
            str(fusion.on),
            str(fusion.off),
            "-f",
            str(fusion.graph_on),
            "-cf",
            str(fusion.graph_off),
        ],
        capsys,
    )
    request = opened[0]._source
    assert code == 0 and request.b == fusion.off and request.target == fusion.on
    assert request.graph == fusion.graph_on and request.graph_b == fusion.graph_off
    code, _, err = _run(
        [
            "view",
            "-g",
            str(fusion.golden),
            "-m",
            str(fusion.on),
            "-f",
            str(fusion.graph_on),
            "--theme",
            "no-such-theme",
        ],
        capsys,
    )
    assert code == 2 and "unknown theme" in err  # -g/-m/-f parsed; refused only for the theme


def test_a_closed_pipe_stops_quietly(tmp_path: Path) -> None:
    import subprocess

    g, t = _long_names(tmp_path)
    for i in range(300):
        np.save(g / f"extra_{i}.0.{1700000000100000 + i}.npy", np.ones(4, np.float32))
        np.save(t / f"extra_{i}.0.{1700000000100000 + i}.npy", np.ones(4, np.float32))
    proc = subprocess.run(
        f"{sys.executable} -m dumpscope compare {g} {t} | head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (
        proc.stdout.split()[:2] == ["#", "name"] and "Error" not in proc.stderr and "error" not in proc.stderr
    )


def test_three_way_on_a_terminal_is_a_rich_table(fusion: FusionData) -> None:
    from rich.console import Console

    from dumpscope.core.comparison.threeway import compare_three
    from dumpscope.tui.cli.render import render_threeway

    tw = compare_three(
        fusion.golden,
        fusion.on,
        fusion.off,
        graphs=(fusion.graph_on, fusion.graph_off),
        labels=("fusion on", "fusion off"),
    )
    for width in (80, 140):
        console = Console(width=width, record=True, color_system=None)
        render_threeway(tw, console)
        text = console.export_text()
        assert all(len(line) <= width for line in text.splitlines())
        relu1 = next(line for line in text.splitlines() if " relu1 " in line)
        assert "✗ FAIL" in relu1 and relu1.rstrip().endswith("A")
        assert ("rel. dist" in "\n".join(text.splitlines()[:4])) == (width >= 118)  # the header
        assert "diverges only in fusion on" in " ".join(text.split())


def test_diagnose_and_fusion_piped_are_not_folded_at_80_columns(
    fusion: FusionData, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(["diagnose", str(fusion.golden), str(fusion.on), "--graph", str(fusion.graph_on)], capsys)
    code, out, _ = _run(["fusion", str(fusion.graph_on)], capsys)
    assert code == 0 and "\x1b[" not in out
    assert any(len(line) > 80 or "fc_matmul_MatMulAddFusion" in line for line in out.splitlines())
    code, out, _ = _run(
        ["diagnose", str(fusion.golden), str(fusion.on), "--graph", str(fusion.graph_on)], capsys
    )
    advice = next(line for line in out.splitlines() if "advice:" in line)
    assert len(advice) > 80  # one line, not folded at a terminal's width


def test_a_three_way_parquet_is_not_opened_as_one_comparison(
    fusion: FusionData, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "three.parquet"
    _run(
        [
            "compare",
            str(fusion.golden),
            str(fusion.on),
            str(fusion.off),
            "--format",
            "parquet",
            "-o",
            str(saved),
        ],
        capsys,
    )
    assert pl.read_parquet(saved).filter(pl.col("worse") == "A").height >= 1
    code, out, err = _run(["open", str(saved), "--format", "table"], capsys)
    assert code == 2 and "three-way result" in err and "OK" not in out


def test_one_sided_tensors_have_their_own_states_and_a_node_shows_its_worst_output() -> None:
    import polars as pl

    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.report.model_explorer import HEALTH_CODE, node_data

    frame = pl.DataFrame(
        {
            "name": ["a", "b", None, "c"],
            "target_name": ["a", None, "t_fused", "c"],
            "node_name": ["n1", "n1", "fused_node", "n2"],
            "health": ["ok", "unmatched", "unmatched", "pending"],
            "side": ["both", "golden", "target", "both"],
        }
    )
    doc = node_data(Comparison.from_frame(frame))
    check_model_explorer_node_data(doc)
    results = {k: v["value"] for k, v in doc["results"].items()}
    assert results["a"] == HEALTH_CODE["ok"] and results["b"] == HEALTH_CODE["golden only"]
    assert results["t_fused"] == results["fused_node"] == HEALTH_CODE["target only"]
    assert (
        results["n1"] == HEALTH_CODE["golden only"]
    )  # its outputs: ok and golden-only; one-sided outranks ok
    assert "c" not in results and "n2" not in results  # pending: no verdict yet
