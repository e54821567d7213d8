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
    "value", [{"s": 5}, {"list": {"s": 5}}, {"list": {"s": "ab"}}, {"list": 3}, {"i": 1e400}, {"list": {"i": [1e400]}}]
)
def test_odd_attribute_values_are_ignored_not_fatal(value: dict[str, object]) -> None:
    attrs = [{"key": k, "value": value} for k in ("_datadump_original_op_names", "pass_name", "_L1_fusion_sub_graph_no")]
    out = [{"attr": [{"key": "origin_shape", "value": value}, {"key": "_datadump_origin_output_index", "value": value}]}]
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
    ops = [{"name": f"f{i}", "type": "Add", "id": i, "attr": _orig("shared", f"o{i}"), "output_desc": [{}]} for i in range(n)]
    p = tmp_path / "graph.json"
    p.write_text(json.dumps(_graph(ops)))
    src = load_source(p)
    assert len(src.maps) == 1 and len(src.maps[0].fused) == n
    assert atc_graph.unresolved_outputs(p) == {f"f{i}" for i in range(n)}
