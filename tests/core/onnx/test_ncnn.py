"""ncnn blobs (numbered by pnnx) paired with ONNX tensors by the graph's structure.

The fixture in tests/data/ncnn/ppocr-cls is real pnnx + ncnn output (see its README); the driver
(`dumpscope dump --target ncnn`) is run only where the ncnn and pnnx packages are installed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import polars as pl
import pytest
from onnx import TensorProto, helper

from dumpscope.core.formats import open_dump
from dumpscope.core.onnx.graph import load_graph
from dumpscope.core.onnx.runner import dump_model
from dumpscope.core.vendor import ncnn
from tests.support.models import build_model
from tests.support.paths import DATA as DATA_DIR

CLS = DATA_DIR / "ncnn" / "ppocr-cls"


def _rel(g: np.ndarray, b: np.ndarray) -> float:
    """Independent float64 relative distance."""
    g, b = g.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    return float(np.linalg.norm(g - b) / np.linalg.norm(g))


def _pair(model: Path, golden_dir: Path, blobs: dict[str, np.ndarray], param: Path) -> list[ncnn.BlobPairing]:
    golden = open_dump(golden_dir)
    sizes = {n: int(np.prod(r.info.shape)) for n, r in golden.tensors.items() if r.info.shape is not None}
    layers, bad = ncnn.read_param(param)
    assert not bad
    return ncnn.pair_blobs(
        layers,
        ncnn.graph_of(load_graph(model)),
        lambda b: blobs[b].size if b in blobs else None,
        sizes.get,
        blobs.get,
        lambda t: golden.tensors[t].load() if t in golden.tensors else None,
    )


# --- a hand-made graph: fusion, a Split, a shape-only layer --------------------------------------


def _small(tmp_path: Path) -> tuple[Path, Path]:
    """x -> Conv -> BatchNormalization -> Relu -> Add(r, r) -> y, and the ncnn graph pnnx makes of it."""
    rng = np.random.default_rng(1)
    w = (rng.standard_normal((4, 3, 3, 3)) * 0.5).astype(np.float32)
    bn = {k: rng.uniform(0.5, 1.5, 4).astype(np.float32) for k in ("s", "b", "m", "v")}
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["n"], name="bn"),
        helper.make_node("Relu", ["n"], ["r"], name="relu"),
        helper.make_node("Add", ["r", "r"], ["y"], name="add"),
    ]
    model = build_model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])],
        {"w": w, **bn},
    )
    path = tmp_path / "small.onnx"
    onnx.save_model(model, str(path))
    param = tmp_path / "small.ncnn.param"
    param.write_text(
        "7767517\n6 7\n"
        "Input in0 0 1 in0\n"
        "Convolution convrelu_0 1 1 in0 1 0=4 1=3 9=1\n"
        "Split splitncnn_0 1 2 1 2 3\n"
        "Reshape reshape_0 1 1 2 4 0=-1\n"
        "BinaryOp add_0 2 1 4 3 out0 0=0\n"
        "this line is broken\n"
    )
    return path, param


def test_fused_convolution_split_and_reshape_pair_by_structure(tmp_path: Path) -> None:
    model, param = _small(tmp_path)
    dump_model(model, tmp_path / "g")
    golden = open_dump(tmp_path / "g")
    r, y = golden.tensors["r"].load(), golden.tensors["y"].load()
    blobs = {
        "in0": golden.tensors["x"].load()[0],
        "1": r[0],
        "2": r[0],
        "3": r[0],
        "4": r[0].ravel(),
        "out0": y[0],
    }
    layers, bad = ncnn.read_param(param)
    assert len(layers) == 5 and len(bad) == 1 and "line 8" in bad[0]
    param.write_text("\n".join(param.read_text().splitlines()[:-1]) + "\n")
    got = {p.blob: p for p in _pair(model, tmp_path / "g", blobs, param)}
    assert got["in0"].tensor == "x"
    conv = got["1"]  # Conv+BN+Relu fused: the Relu's output, by op type (activation 1)
    assert conv.tensor == "r" and "Convolution (+activation 1)" in conv.how and "Relu 'r'" in conv.how
    assert got["2"].copy_of == "1" and got["3"].copy_of == "1" and got["2"].tensor is None
    assert got["4"].copy_of == "2" and "the very values of blob 2" in got["4"].how
    assert got["out0"].tensor == "y" and "BinaryOp" in got["out0"].how


def test_a_blob_whose_values_match_no_candidate_is_left_unpaired_with_the_distance(tmp_path: Path) -> None:
    model, param = _small(tmp_path)
    param.write_text("\n".join(param.read_text().splitlines()[:-1]) + "\n")
    dump_model(model, tmp_path / "g")
    golden = open_dump(tmp_path / "g")
    r = golden.tensors["r"].load()[0]
    wrong = np.full_like(r, 7.0)  # no ONNX tensor downstream holds these values
    blobs = {"in0": golden.tensors["x"].load()[0], "1": r, "2": r, "3": r, "4": wrong.ravel(), "out0": 2 * r}
    got = {p.blob: p for p in _pair(model, tmp_path / "g", blobs, param)}
    # the Reshape no longer copies its input: no op of its type downstream, and no value match
    assert got["4"].tensor is None and got["4"].copy_of is None
    assert "not paired" in got["4"].how and "away" in got["4"].how
    assert got["out0"].tensor == "y"  # looked for past the unpaired blob, from the tensors it came from


# --- real pnnx + ncnn output ---------------------------------------------------------------------


def _cls_model() -> Path:
    from bench.realmodels.models import ModelUnavailable, model_path

    try:
        return model_path("ppocr-cls")
    except ModelUnavailable as exc:
        pytest.skip(f"ppocr-cls model unavailable: {exc}")


def test_real_ppocr_cls_blobs_are_each_paired_or_explained(tmp_path: Path) -> None:
    model = _cls_model()
    dump_model(model, tmp_path / "g", inputs=[f"x={CLS / 'x.npy'}"])
    with np.load(CLS / "blobs.npz", allow_pickle=False) as npz:
        blobs = {k: npz[k] for k in npz.files}
    pairs = _pair(model, tmp_path / "g", blobs, CLS / "model.ncnn.param")
    layers, _bad = ncnn.read_param(CLS / "model.ncnn.param")
    assert [p.blob for p in pairs] == [b for layer in layers for b in layer.outputs]  # every blob once
    paired = [p for p in pairs if p.tensor is not None]
    copies = [p for p in pairs if p.copy_of is not None]
    unpaired = [p for p in pairs if p.tensor is None and p.copy_of is None]
    assert (len(paired), len(copies), len(unpaired)) == (109, 41, 10)
    assert len({p.tensor for p in paired}) == len(paired)  # one blob per ONNX tensor
    golden = open_dump(tmp_path / "g")
    far = []
    for p in paired:
        assert p.how.startswith("structure")
        if p.blob == "in0":
            continue
        rel = _rel(golden.tensors[p.tensor].load(), blobs[p.blob])  # independent check of every pairing
        if "values chose it" in p.how:
            assert rel < 0.05 and f"relative distance {rel:.5f}" in p.how, (p.blob, p.tensor, rel)
        else:  # the only candidate of its op type: paired by structure, its distance said
            assert "the only candidate" in p.how and f"relative distance {rel:.5f}" in p.how
            if rel >= 0.05:
                far.append(p.tensor)
    # at 16x32 the last MaxPool (2x2 over a map 1 row high) is where ncnn and onnxruntime part;
    # the InnerProduct after it is left unpaired (its two candidates are both far)
    assert far == ["pool2d_9.tmp_0", "pool2d_10.tmp_0", "softmax_0.tmp_0"]  # and what it feeds
    for p in unpaired:  # the mul(x, k) pnnx splits off a HardSigmoid, and one InnerProduct far from both
        assert p.how.startswith("not paired") and p.layer.type in ("BinaryOp", "InnerProduct")
        assert "away" in p.how


@pytest.mark.skipif(
    not all(__import__("importlib").util.find_spec(m) for m in ("ncnn", "pnnx")),
    reason="ncnn and pnnx are not installed (optional extra: pip install 'dumpscope[ncnn]')",
)
def test_dump_target_ncnn_writes_a_dump_paired_by_structure(tmp_path: Path) -> None:
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.onnx.vendor_targets import dump_vendor

    model = _cls_model()
    x = [f"x={CLS / 'x.npy'}"]
    record = dump_vendor(model, tmp_path / "t", target="ncnn", inputs=x)
    dump_model(model, tmp_path / "g", inputs=x)
    f = compare(tmp_path / "g", tmp_path / "t", model=model, workers=1).frame
    both = f.filter(pl.col("side") == "both")
    assert record["paired"] == both.height - 1  # the input is written from the saved file
    assert both.filter(pl.col("name") != "x")["pairing"].str.starts_with("name, structure:").all()
    only = f.filter(pl.col("side") == "target")
    assert only.height == record["unpaired"] and only["message"].str.contains("not paired").all()
