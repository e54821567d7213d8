"""Issue 13, vendor side files: ATC graph JSON, fusion groups, Opdebug, result CSVs are total and linear."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dumpscope.core.dumps import DumpError
from dumpscope.core.vendor import atc_graph
from dumpscope.core.vendor.fusion import load_source


def _graph(ops: list[dict[str, object]]) -> dict[str, object]:
    return {"name": "g", "graph": [{"name": "g", "op": ops}]}


def _orig(*names: str) -> list[dict[str, object]]:
    return [{"key": "_datadump_original_op_names", "value": {"list": {"s": list(names)}}}]


def test_graph_json_nested_100k_deep_is_a_dump_error(tmp_path: Path) -> None:
    p = tmp_path / "graph.json"
    p.write_text('{"graph": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(DumpError, match="nested too deeply"):
        load_source(p)
    with pytest.raises(DumpError, match="nested too deeply"):
        atc_graph.load_graph(p)


@pytest.mark.parametrize(
    "value",
    [
        {"s": 5},
        {"list": {"s": 5}},
        {"list": {"s": "ab"}},
        {"list": 3},
        {"i": 1e400},
        {"list": {"i": [1e400]}},
    ],
)
def test_odd_attribute_values_are_ignored_not_fatal(value: dict[str, object]) -> None:
    attrs = [
        {"key": k, "value": value}
        for k in ("_datadump_original_op_names", "pass_name", "_L1_fusion_sub_graph_no")
    ]
    out = [
        {
            "attr": [
                {"key": "origin_shape", "value": value},
                {"key": "_datadump_origin_output_index", "value": value},
            ]
        }
    ]
    g = atc_graph.parse_graph(_graph([{"name": "a", "type": "Add", "attr": attrs, "output_desc": out}]))
    assert [op.name for op in g.ops] == ["a"]
    assert atc_graph.fusion_maps(g)[0].fused == ("a",)


@pytest.mark.parametrize("ops", [5, "abc", {"x": 1}, None])
def test_a_graph_whose_op_list_is_not_a_list_has_no_ops(ops: object) -> None:
    data = {"graph": [{"name": "g", "op": ops}, {"name": "h", "op": [{"name": "b", "type": "Add"}]}]}
    assert [op.name for op in atc_graph.parse_graph(data).ops] == ["b"]


def test_a_20k_op_fusion_group_is_one_group_and_resolves_linearly(tmp_path: Path) -> None:
    # Quadratic before (group sizes counted once per member: 43 s); one group of 20k members now.
    n = 20_000
    ops = [
        {"name": f"f{i}", "type": "Add", "id": i, "attr": _orig("shared", f"o{i}"), "output_desc": [{}]}
        for i in range(n)
    ]
    p = tmp_path / "graph.json"
    p.write_text(json.dumps(_graph(ops)))
    src = load_source(p)
    assert len(src.maps) == 1 and len(src.maps[0].fused) == n
    assert atc_graph.unresolved_outputs(p) == {f"f{i}" for i in range(n)}


_CSV_HEAD = (
    "Index,OpType,NPUDump,DataType,Address,GroundTruth,DataType,TensorIndex,Shape,OpSequence,"
    "CosineSimilarity\n"
)


@pytest.mark.parametrize("index", ["inf", "-inf", "nan", "1e400"])
def test_a_result_csv_index_that_is_not_finite_is_a_one_line_error(tmp_path: Path, index: str) -> None:
    from dumpscope.core.vendor.msaccucmp_csv import read_result_csv

    p = tmp_path / "r.csv"
    p.write_text(_CSV_HEAD + f"{index},Add,a,float32,NaN,a,float32,a:output:0,[2],1,1.0\n")
    with pytest.raises(DumpError, match="line 2: Index .* is not a number"):
        read_result_csv(p)


def test_odd_result_csv_cells_are_row_values_not_crashes(tmp_path: Path) -> None:
    from dumpscope.core.vendor.msaccucmp_csv import read_result_csv

    p = tmp_path / "r.csv"
    p.write_text(_CSV_HEAD + "0,Add,a,float32,NaN,a,float32,a:output:0,[99999999999999999999999],inf,1.0\n")
    df = read_result_csv(p)
    assert df.height == 1 and df["shape"][0] is None and df["op_sequence"][0] is None


@pytest.mark.parametrize(
    "meta",
    [
        "[1, 2]",
        '{"meta": 5, "thresholds": "x"}',
        '{"thresholds": {"bands": 5}}',
        '{"thresholds": {"bands": {"fp32": {"cosine": [1]}}, "rtol": "x"}}',
        '"text"',
    ],
)
def test_odd_parquet_metadata_opens_with_defaults(tmp_path: Path, meta: str) -> None:
    import polars as pl

    from dumpscope.core.comparison.judge import Thresholds
    from dumpscope.core.comparison.result import Comparison

    p = tmp_path / "r.parquet"
    pl.DataFrame({"name": ["a"], "health": ["ok"]}).write_parquet(p, metadata={"dumpscope": meta})
    cmp = Comparison.open(p)
    assert cmp.frame["name"].to_list() == ["a"] and cmp.meta.reopened == str(p)
    assert cmp.thresholds.rtol == Thresholds().rtol
