"""The Python API: help(dumpscope.core) documents compare, diagnose, explain, overflow, fusion, dump;
each returns typed objects or Polars frames."""

from __future__ import annotations

import inspect
import pydoc
import re
from pathlib import Path

import polars as pl

import dumpscope.core as ds
from tests.support.fusion_onoff import make_fusion_data  # noqa: E402

FUNCTIONS = ("compare", "compare_three", "diagnose", "explain", "overflow", "fusion", "dump")


def test_help_lists_every_public_function_with_its_parameters() -> None:
    text = pydoc.render_doc(ds, renderer=pydoc.plaintext)
    for name in FUNCTIONS:
        assert re.search(rf"^    {name}\(", text, re.M), f"help(dumpscope.core) does not list {name}"
        fn = getattr(ds, name)
        doc = inspect.getdoc(fn) or ""
        assert "Parameters:" in doc and "Returns" in doc
        for param in inspect.signature(fn).parameters:
            assert param in doc, f"{name}: parameter {param} is not documented"
        assert inspect.signature(fn).return_annotation not in (inspect.Signature.empty, "None", "Any")


def test_the_readme_example_runs(tmp_path: Path) -> None:
    data = make_fusion_data(tmp_path)
    cmp = ds.compare(data.golden, data.on, graph=data.graph_on)
    assert isinstance(cmp, ds.Comparison) and isinstance(cmp.frame, pl.DataFrame)
    failing = cmp.frame.filter(pl.col("health") == "fail").select("name", "cosine_similarity")
    assert failing["name"].to_list() == ["relu1"]
    diag = ds.diagnose(cmp)
    assert isinstance(diag, ds.Diagnosis) and diag.root_causes
    three = ds.compare_three(data.golden, data.on, data.off, graphs=(data.graph_on, data.graph_off))
    assert isinstance(three, ds.ThreeWay) and three.first_blame("A").target_op == data.bad_op
    source = ds.fusion(data.graph_on)
    assert any(len(m.originals) > 1 for m in source.maps)


def test_explain_overflow_and_dump(tmp_path: Path) -> None:
    matches = ds.explain("EZ9999: Inner Error! The error from device")
    assert isinstance(matches, list)
    report = ds.overflow(tmp_path)
    assert report.records == [] and report.files == 0
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"], "relu")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), tmp_path / "m.onnx")
    manifest = ds.dump(tmp_path / "m.onnx", tmp_path / "golden")
    assert isinstance(manifest, dict) and manifest.get("model_sha256")


def test_the_api_speaks_the_index_every_output_prints(demo) -> None:  # type: ignore[no-untyped-def]
    """``first_divergent()`` is a frame position; ``first_divergent_index()`` is the ``#`` of the CLI and
    UI."""
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.comparison.threeway import compare_three

    cmp = compare(demo.golden, demo.target, model=demo.model)
    row = cmp.first_divergent()
    assert row is not None and cmp.first_divergent_index() == cmp.frame["index"][row]
    tw = compare_three(demo.golden, demo.target, demo.target, model=demo.model)
    name = cmp.frame["name"][row]
    assert tw.frame.filter(tw.frame["name"] == name)["index"].to_list() == [cmp.first_divergent_index()]
