"""`compare --graph`: an ATC graph JSON pairs fused target ops with the right golden tensor."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl

from dumpscope.core import compare_frame


def _op(
    name: str, type_: str, id_: int, originals: list[str], origin: str | None = None
) -> dict[str, object]:
    out_attr = (
        []
        if origin is None
        else [
            {"key": "_datadump_origin_name", "value": {"s": origin}},
            {"key": "_datadump_origin_output_index", "value": {"i": 0}},
        ]
    )
    return {
        "name": name,
        "type": type_,
        "id": id_,
        "input": [],
        "attr": [{"key": "_datadump_original_op_names", "value": {"list": {"s": originals}}}],
        "output_desc": [{"dtype": "DT_FLOAT16", "layout": "ND", "shape": {"dim": [8]}, "attr": out_attr}],
    }


def test_fused_op_is_compared_with_the_groups_output_not_an_intermediate(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    conv = rng.standard_normal(8).astype(np.float32)
    relu = np.maximum(conv, 0)
    g, t = tmp_path / "golden", tmp_path / "npu"
    g.mkdir()
    t.mkdir()
    for i, (name, arr) in enumerate(
        (("Conv_1", conv), ("Relu_2", relu), ("Mul_3", relu * 2), ("Add_4", relu + 1))
    ):
        np.save(g / f"{name}.0.{1700000000000000 + i}.npy", arr)
    # The NPU fused Conv_1 + Relu_2 into an op that kept the name Conv_1; it inserted a
    # TransData; it fused Mul_3 + Add_4 without recording which original it outputs.
    np.save(t / "Conv2D.Conv_1.1.1.1700000000000100.output.0.npy", relu.astype(np.float16))
    np.save(t / "TransData.trans_TransData_9.2.1.1700000000000101.output.0.npy", relu.astype(np.float16))
    np.save(t / "Mul.Mul_3.3.1.1700000000000102.output.0.npy", (relu + 1).astype(np.float16))
    graph = {
        "name": "m",
        "graph": [
            {
                "name": "g",
                "op": [
                    _op("Conv_1", "Conv2D", 1, ["Conv_1", "Relu_2"], origin="Relu_2"),
                    _op("trans_TransData_9", "TransData", 2, []),
                    _op("Mul_3", "Mul", 3, ["Mul_3", "Add_4"]),
                ],
            }
        ],
    }
    (tmp_path / "graph.json").write_text(json.dumps(graph))

    naive = compare_frame(g, t)
    assert (
        naive.filter(pl.col("name") == "Conv_1")["health"][0] == "fail"
    )  # the trap: compared with the intermediate

    frame = compare_frame(g, t, graph=tmp_path / "graph.json")
    rows = {r["name"]: r for r in frame.iter_rows(named=True)}
    assert rows["Relu_2"]["target_name"] == "Conv_1" and rows["Relu_2"]["health"] == "ok"
    assert rows["Relu_2"]["pairing"] == "graph origin"
    assert (
        rows["trans_TransData_9"]["health"] == "unmatched"
        and "target-only" in rows["trans_TransData_9"]["message"]
    )
    assert rows["Mul_3"]["side"] in ("golden", "target")
    fused = frame.filter((pl.col("side") == "target") & (pl.col("name") == "Mul_3"))
    assert fused.height == 1 and "intermediate" in fused["message"][0]
    assert rows["Conv_1"]["health"] == "unmatched"  # the golden intermediate has no target


def test_fused_rows_and_the_fused_filter(tmp_path: Path) -> None:
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.inspect.fusion import fused_rows
    from dumpscope.tui.app.filters import Query
    from dumpscope.tui.app.widgets.layer_rows import LayerRows

    test_fused_op_is_compared_with_the_groups_output_not_an_intermediate(tmp_path)  # builds the dumps
    cmp = compare(tmp_path / "golden", tmp_path / "npu", graph=tmp_path / "graph.json")
    mask = fused_rows(cmp)
    names = cmp.frame["name"].to_list()
    fused = {names[i] for i in range(len(names)) if mask[i]}
    assert {"Relu_2", "Conv_1", "Mul_3", "Add_4"} <= fused and "trans_TransData_9" not in fused
    rows = LayerRows(cmp.frame)
    rows.fused = mask
    assert set(rows.view(Query.parse("fused:yes")).tolist()) == {i for i in range(len(names)) if mask[i]}
    assert not set(rows.view(Query.parse("fused:no")).tolist()) & set(
        rows.view(Query.parse("fused:yes")).tolist()
    )
