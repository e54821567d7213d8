"""A folder of ncnn blobs a user extracted (BLOB.npy beside the .param), paired with an ONNX golden.

The fixture tests/data/ncnn/se-tiny is real pnnx + ncnn output (see its README)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.dumps import DumpError
from dumpscope.core.formats import open_dump
from dumpscope.core.onnx.runner import dump_model
from dumpscope.core.vendor import ncnn
from dumpscope.tui.cli.main import main
from tests.support.paths import DATA

TINY = DATA / "ncnn" / "se-tiny"
MODEL = TINY / "model.onnx"


@pytest.fixture
def golden(tmp_path: Path) -> Path:
    dump_model(MODEL, tmp_path / "g", inputs=[f"x={TINY / 'x.npy'}"])
    return tmp_path / "g"


def _rel(g: np.ndarray, b: np.ndarray) -> float:
    """Independent float64 relative distance."""
    g, b = g.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    return float(np.linalg.norm(g - b) / np.linalg.norm(g))


def _blob(name: str) -> np.ndarray:
    return np.load(TINY / "ncnn" / f"{name}.npy", allow_pickle=False)


def test_the_folder_is_recognised_by_its_param(tmp_path: Path) -> None:
    assert open_dump(TINY / "ncnn").format == "ncnn-blobs"
    plain = tmp_path / "plain"
    shutil.copytree(TINY / "ncnn", plain)
    (plain / "model.ncnn.param").unlink()
    assert open_dump(plain).format == "npy-dir"  # .npy files alone: a plain folder (see --graph)
    (plain / "model.ncnn.param").write_text("not ncnn\n")
    assert open_dump(plain).format == "npy-dir"  # a .param without the magic line is not ncnn's


def test_every_blob_is_paired_by_structure_or_explained(golden: Path) -> None:
    f = compare(golden, TINY / "ncnn", model=MODEL, workers=1).frame
    layers, bad = ncnn.read_param(TINY / "ncnn" / "model.ncnn.param")
    assert not bad
    both = f.filter(pl.col("side") == "both")
    only = f.filter(pl.col("side") == "target")
    # 15 blobs: 1 input, 11 computed, a Split's 2 copies and the Reshape's copy have no rows of their own
    assert sum(len(layer.outputs) for layer in layers) == 15
    assert sorted(both["name"]) == sorted(
        ["x", "r1", "gap", "se1r", "se2", "hs", "se", "c4", "ct", "ctb", "y"]
    )
    assert both.filter(pl.col("name") != "x")["pairing"].str.starts_with("name, structure:").all()
    g = open_dump(golden)
    by_tensor = {r["name"]: r for r in both.iter_rows(named=True)}
    for name, blob in (("r1", "1"), ("se", "10"), ("ct", "12"), ("ctb", "13"), ("y", "out0")):
        rel = _rel(g.tensors[name].load(), _blob(blob))  # independent check of the pairing
        assert rel < 0.01 and f"relative distance {rel:.5f}" in by_tensor[name]["pairing"]
    # the graph, not the values, tells the bias-free ConvTranspose from its scalar bias Add
    assert "op type ConvTranspose by its params" in by_tensor["ct"]["pairing"]
    assert "Convolution (+activation 1)" in by_tensor["r1"]["pairing"]  # Conv+BN+Relu: the Relu's output
    assert only["name"].to_list() == ["ncnn:8"]  # the x * 1.2 pnnx puts before the HardSigmoid
    rel = _rel(g.tensors["se2"].load() * np.float64(1.2), _blob("8"))  # independent
    assert (
        rel < 1e-5
        and "pnnx-made" in only["message"][0]
        and f"relative distance {rel:.5f}" in only["message"][0]
    )


def test_the_param_may_be_given_as_graph(tmp_path: Path, golden: Path) -> None:
    plain = tmp_path / "plain"
    shutil.copytree(TINY / "ncnn", plain)
    param = tmp_path / "model.ncnn.param"
    shutil.move(plain / "model.ncnn.param", param)
    a = compare(golden, TINY / "ncnn", model=MODEL, workers=1).frame
    b = compare(golden, plain, model=MODEL, graph=param, workers=1).frame
    cols = ["name", "side", "pairing", "relative_euclidean_distance"]
    assert a.select(cols).sort("name").equals(b.select(cols).sort("name"))


def test_without_the_model_it_says_what_is_needed(golden: Path) -> None:
    with pytest.raises(DumpError, match="pass --model MODEL.onnx"):
        compare(golden, TINY / "ncnn", workers=1)


def test_a_missing_a_broken_and_a_stray_file_each_cost_their_row(tmp_path: Path, golden: Path) -> None:
    nc = tmp_path / "nc"
    shutil.copytree(TINY / "ncnn", nc)
    (nc / "5.npy").unlink()  # the SE's first InnerProduct
    (nc / "12.npy").write_bytes(b"\x93NUMPY garbage")  # the ConvTranspose
    np.save(nc / "notes.npy", np.zeros(3, np.float32))  # no blob of that name
    cmp = compare(golden, nc, model=MODEL, workers=1)
    f = cmp.frame
    assert any("blob 5 of model.ncnn.param has no file" in w for w in cmp.meta.warnings)
    stray = f.filter(pl.col("name") == "ncnn:notes")
    assert stray.height == 1 and "not a blob of model.ncnn.param" in stray["message"][0]
    # the rest goes on: the layers after the missing and the broken blob still pair by structure
    both = f.filter(pl.col("side") == "both")
    assert {"se2", "hs", "se", "c4", "y"} <= set(both["name"])
    assert both.filter(pl.col("name") == "y")["health"][0] == "ok"
    assert both.filter(pl.col("name") == "ct")["health"][0] == "error"  # the broken file: its row only


def test_the_command_line_compares_the_folder(golden: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["compare", str(golden), str(TINY / "ncnn"), "--model", str(MODEL)])
    out = capsys.readouterr().out
    assert code == 0 and "ncnn:8" in out and "ctb" in out
