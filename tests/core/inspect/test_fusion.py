"""Fusion mapping from ATC graph JSON and optimised-target manifests; the fusion command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.dumps import DumpError
from dumpscope.core.formats import ascend_dump as ad
from dumpscope.core.formats import ascend_writer as aw
from dumpscope.core.vendor import atc_graph as atc
from dumpscope.core.vendor import fusion
from dumpscope.tui.cli.main import main
from tests.support.paths import SHARED as SHARED_DIR

SAMPLES = SHARED_DIR / "samples" / "ascend"  # shared/ sits beside the repo
REAL = SAMPLES / "om_model_atc_mode1_Ascend310.json"
SYNTH = SAMPLES / "graph.json"
needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason="shared Ascend samples not present")


def _strs(key: str, values: list[str]) -> dict[str, object]:
    return {"key": key, "value": {"list": {"s": values, "val_type": "VT_LIST_STRING"}}}


def _out(
    origin: str | None = None, index: int = 0, fmt: str = "NCHW", shape: list[int] | None = None
) -> dict[str, object]:
    attr: list[dict[str, object]] = []
    if origin is not None:
        attr += [
            {"key": "_datadump_origin_name", "value": {"s": origin}},
            {"key": "_datadump_origin_output_index", "value": {"i": index}},
            {"key": "_datadump_origin_format", "value": {"s": fmt}},
        ]
    if shape is not None:
        attr.append({"key": "origin_shape", "value": {"list": {"i": shape}}})
    return {"dtype": "DT_FLOAT16", "layout": "NC1HWC0", "attr": attr}


def _op(
    name: str,
    type_: str,
    id_: int | None,
    originals: list[str] | None,
    outputs: list[dict[str, object]],
    **attrs: object,
) -> dict[str, object]:
    attr: list[dict[str, object]] = []
    if originals is not None:
        attr.append(_strs("_datadump_original_op_names", originals))
    if "passes" in attrs:
        attr.append(_strs("pass_name", attrs["passes"]))  # type: ignore[arg-type]
    if "ub" in attrs:
        attr.append({"key": "pass_name_ub", "value": {"s": attrs["ub"]}})
    if "l1" in attrs:
        attr.append({"key": "_L1_fusion_sub_graph_no", "value": {"i": attrs["l1"]}})
    op: dict[str, object] = {"name": name, "type": type_, "attr": attr, "output_desc": outputs}
    if id_ is not None:
        op["id"] = id_
    return op


def synthetic_graph() -> dict[str, object]:
    ops = [
        _op("net/out", "NetOutput", 9, [], []),
        _op("x", "Data", None, None, [_out()]),
        _op("trans_TransData_1", "TransData", 1, [], [_out("x")]),
        # Conv + BN + Relu fused: output reproduces Relu's output, not Conv's.
        _op(
            "conv1/fused",
            "Conv2D",
            2,
            ["conv1/Conv:0", "bn@1", "relu.1"],
            [_out("relu.1", 0, shape=[1, 8, 4, 4])],
            passes=["ConvBatchnormFusionPass"],
            ub="TbeConvEltwiseFusion",
        ),  # fmt: skip
        # Fused op whose outputs carry no origin attributes: no golden pairing is guessed.
        _op("mm_add", "MatMulV2", 3, ["MatMul_3", "Add_4"], [_out()]),
        # A split (one original, two device ops).
        _op("split/a", "SplitD", 4, ["Split_5"], [_out()]),
        _op("split/b", "ConcatD", 5, ["Split_5"], [_out("Split_5", 1)]),
        # A two-output op, plain one-to-one.
        _op("topk", "TopKV2", 6, ["TopK_6"], [_out(), _out()]),
        # L1 fusion joins ops with different originals.
        _op("l1_a", "Add", 7, ["A_7"], [_out("A_7")], l1=3),
        _op("l1_b", "Mul", 8, ["B_8"], [_out("B_8")], l1=3),
    ]
    return {"name": "synthetic", "graph": [{"name": "g", "op": ops}]}


@pytest.fixture
def graph(tmp_path: Path) -> Path:
    p = tmp_path / "graph.json"
    p.write_text(json.dumps(synthetic_graph()))
    return p


# --- real samples ---


@needs_samples
def test_real_atc_json_groups_and_target_only_ops() -> None:
    g = atc.load_graph(REAL)
    assert not g.problems
    assert atc.target_only(g) == {"trans_Cast_0", "trans_Cast_2", "trans_Cast_6", "trans_Cast_7"}
    maps = {m.fused: m for m in fusion.fusion_maps(g)}
    split = maps[("PartitionedCall_Gather_1221_const_data_2", "PartitionedCall_Gather_1221_gatherv2_3")]
    assert split.relation == fusion.ONE_TO_MANY and split.originals == ("Gather_1221",)
    assert maps[("Slice_1218",)].passes == ("ConstToAttrStridedSliceV2Fusion",)
    assert fusion.relation_counts(maps.values()) == {"one-to-one": 9, "target-only": 4, "one-to-many": 1}
    assert all(m.fused != ("Node_Output",) for m in maps.values())


@needs_samples
def test_real_atc_json_output_origins_and_order() -> None:
    origins = atc.target_origins(REAL)
    assert origins["Slice_1218"] == ("Slice_1218", 0)
    # The Const half of the split has no dump, so the GatherV2 output is the Gather output.
    assert origins["PartitionedCall_Gather_1221_gatherv2_3"] == ("Gather_1221", 0)
    assert origins["BatchMultiClassNMS_1203:3"] == ("BatchMultiClassNMS_1203", 3)
    assert not any(name.startswith("trans_Cast") for name in origins)
    order = atc.op_order(REAL)
    assert order["boxes_all"] == 0  # an input op without an id runs first
    assert order["trans_Cast_0"] < order["Slice_1218"] < order["trans_Cast_6"] < order["Node_Output"]
    assert sorted(order.values()) == list(range(len(order)))


@needs_samples
def test_synthetic_sample_graph_is_one_to_one_in_id_order() -> None:
    origins = atc.target_origins(SYNTH)
    assert origins == {"input0": ("input0", 0)} | {f"layer_{i}": (f"layer_{i}", 0) for i in range(20)}
    assert list(atc.op_order(SYNTH))[:3] == ["input0", "layer_0", "layer_1"]
    assert atc.target_only(SYNTH) == set()


# --- synthetic graph with every relation ---


def test_relations_passes_and_l1_groups(graph: Path) -> None:
    maps = {m.fused: m for m in fusion.fusion_maps(graph)}
    conv = maps[("conv1/fused",)]
    assert conv.relation == fusion.MANY_TO_ONE
    assert conv.originals == ("conv1/Conv:0", "bn@1", "relu.1")
    assert conv.passes == ("ConvBatchnormFusionPass", "TbeConvEltwiseFusion")
    assert maps[("split/a", "split/b")].relation == fusion.ONE_TO_MANY
    assert maps[("l1_a", "l1_b")].relation == fusion.MANY_TO_MANY
    assert maps[("trans_TransData_1",)].relation == fusion.TARGET_ONLY
    assert maps[("x",)].relation == fusion.ONE_TO_ONE
    assert not any("net/out" in m.fused for m in maps.values())


def test_fused_outputs_pair_with_the_original_that_produces_them(graph: Path) -> None:
    origins = atc.target_origins(graph)
    assert origins["conv1/fused"] == ("relu.1", 0)  # never the group's intermediate conv1/Conv:0
    assert "mm_add" not in origins  # many-to-one without origin attributes: no guess
    assert atc.unresolved_outputs(graph) == {"mm_add", "split/a"}
    assert "split/a" not in origins and origins["split/b"] == ("Split_5", 1)
    assert origins["topk"] == ("TopK_6", 0) and origins["topk:1"] == ("TopK_6", 1)
    assert "trans_TransData_1" not in origins and atc.target_only(graph) == {"trans_TransData_1"}
    assert atc.origin_formats(graph)["conv1/fused"] == "NCHW"
    g = atc.load_graph(graph)
    conv = next(op for op in g.ops if op.name == "conv1/fused")
    assert conv.outputs[0].origin_shape == (1, 8, 4, 4)
    assert [op.name for op in g.ops][:3] == ["x", "trans_TransData_1", "conv1/fused"]


def test_origin_names_match_the_dump_reader_names(graph: Path, tmp_path: Path) -> None:
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    two = [aw.RawTensor(np.zeros(3, np.float16), 2), aw.RawTensor(np.ones(3, np.float16), 2)]
    aw.write_dump(dumps / "TopKV2.topk.6.1.1700000000000001", "topk", two)
    names = set(ad.open(dumps).tensors)
    assert {"topk", "topk:1"} == names
    assert names <= set(atc.target_origins(graph))


def test_duplicate_names_and_malformed_ops_are_problems(tmp_path: Path) -> None:
    data = synthetic_graph()
    data["graph"][0]["op"] += [_op("topk", "TopKV2", 10, ["Other"], [_out()]), {"type": "Add"}, 7]  # type: ignore[index]
    g = atc.parse_graph(data)
    assert any("'topk' appears more than once" in p for p in g.problems)
    assert any("without a name" in p for p in g.problems)
    assert atc.target_origins(g)["topk"] == ("TopK_6", 0)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"name": "x"}', "not an ATC graph JSON"),
        ("[1, 2]", "not an ATC graph JSON"),
    ],
)
def test_unusable_graph_files(tmp_path: Path, content: str, message: str) -> None:
    p = tmp_path / "g.json"
    p.write_text(content)
    with pytest.raises(DumpError, match=message):
        atc.load_graph(p)
    with pytest.raises(DumpError, match="cannot read"):
        atc.load_graph(tmp_path / "missing.json")


# --- onnxruntime manifest ---


def test_fusion_from_manifest() -> None:
    manifest = {
        "format": "dumpscope-manifest",
        "nodes": [
            {"name": "Conv_0", "op_type": "FusedConv", "fused_from": ["Conv_0", "Relu_1"]},
            {"name": "Add_2", "op_type": "Add", "fused_from": ["Add_2"]},
            {"name": "Gelu_fused", "op_type": "Gelu", "fused_from": ["Div_3", "Erf_4", "Add_5", "Mul_6"]},
            {"name": "MatMul_7", "op_type": "MatMul"},
            {"name": "reorder", "op_type": "ReorderInput", "fused_from": []},
        ],
    }
    maps = fusion.fusion_from_manifest(manifest)
    assert [(m.fused, m.relation) for m in maps] == [
        (("Conv_0",), fusion.MANY_TO_ONE),
        (("Gelu_fused",), fusion.MANY_TO_ONE),
        (("reorder",), fusion.TARGET_ONLY),
    ]
    assert maps[1].originals == ("Div_3", "Erf_4", "Add_5", "Mul_6") and maps[1].op_types == ("Gelu",)
    assert fusion.fusion_from_manifest({"nodes": "junk"}) == []


# --- command ---


@needs_samples
@pytest.mark.parametrize("sample", [REAL, SYNTH])
def test_cli_prints_both_samples(
    sample: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["fusion", str(sample), "--outputs"]) == 0
    out = capsys.readouterr().out
    assert "op groups from the ATC graph" in out and "target output -> golden tensor" in out
    assert main(["fusion", str(sample), "--json", "--outputs", "--all"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["source"] == "atc" and doc["maps"] and doc["outputs"]
    if sample == REAL:
        assert doc["target_only"] == ["trans_Cast_0", "trans_Cast_2", "trans_Cast_6", "trans_Cast_7"]
        assert "* (target only)" in _text(["fusion", str(sample)], capsys)


def _text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def test_cli_reads_a_manifest_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = {
        "format": "dumpscope-manifest",
        "nodes": [{"name": "f", "op_type": "FusedConv", "fused_from": ["a", "b"]}],
    }
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    assert main(["fusion", str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["source"] == "manifest" and doc["maps"][0]["originals"] == ["a", "b"]


def test_cli_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.json").write_text("{")
    assert main(["fusion", str(tmp_path / "bad.json")]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["fusion", str(tmp_path / "nothing.json")]) == 2
