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


def _ort(nodes, x: np.ndarray, outs: list[str], inits: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The named outputs of a model run through onnxruntime on ``x`` (what an ncnn layer would compute)."""
    import onnxruntime as ort

    model = build_model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in outs],
        inits,
    )
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return dict(zip(outs, sess.run(outs, {"x": x}), strict=True))


def _conv_head(tmp_path: Path, tail: list, tail_inits: dict[str, np.ndarray]) -> tuple[Path, dict]:
    """x -> Conv (no bias) -> ``tail``; the model saved and its weights."""
    rng = np.random.default_rng(3)
    inits = {"w": (rng.standard_normal((4, 3, 3, 3)) * 0.5).astype(np.float32), **tail_inits}
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]), *tail]
    model = build_model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info(nodes[-1].output[0], TensorProto.FLOAT, None)],
        inits,
    )
    path = tmp_path / "m.onnx"
    onnx.save_model(model, str(path))
    return path, inits


def test_a_bias_free_convolution_is_the_bare_conv_even_when_values_cannot_tell(tmp_path: Path) -> None:
    """ppocr-det's last ConvTranspose: ncnn keeps its scalar bias Add apart (Deconvolution 5=0, then a
    BinaryOp), and an error inherited from upstream leaves both candidates far: the params decide."""
    tail = [
        helper.make_node("Add", ["c", "bias"], ["a"], name="add"),
        helper.make_node("Sigmoid", ["a"], ["y"], name="sig"),
    ]
    model, inits = _conv_head(tmp_path, tail, {"bias": np.array(-0.1, np.float32)})
    x = np.random.default_rng(4).standard_normal((1, 3, 8, 8)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    dump_model(model, tmp_path / "g", inputs=[f"x={tmp_path / 'x.npy'}"])
    # the target: the same graph on an input 30 % off (an inherited error), run through onnxruntime
    far = _ort(
        [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]), *tail],
        x * 1.3,
        ["c", "a", "y"],
        inits,
    )
    blobs = {"in0": x[0], "1": far["c"][0], "2": far["a"][0], "out0": far["y"][0]}
    param = tmp_path / "m.ncnn.param"
    param.write_text(
        "7767517\n4 4\nInput in0 0 1 in0\n"
        "Convolution conv_0 1 1 in0 1 0=4 1=3 4=1 5=0 6=108\n"
        "BinaryOp add_0 1 1 1 2 0=0 1=1 2=-0.1\n"
        "Sigmoid sig_0 1 1 2 out0\n"
    )
    got = {p.blob: p for p in _pair(model, tmp_path / "g", blobs, param)}
    golden = open_dump(tmp_path / "g")
    assert (
        _rel(golden.tensors["c"].load(), blobs["1"]) > 0.05
        and _rel(golden.tensors["a"].load(), blobs["1"]) > 0.05
    )
    assert (
        got["1"].tensor == "c"
        and got["1"].kind == "structure"
        and "op type Conv by its params" in got["1"].how
    )
    assert got["2"].tensor == "a" and "op type Add by its params" in got["2"].how
    assert got["out0"].tensor == "y"


def test_a_convolution_with_a_bias_is_its_fused_chains_last_node(tmp_path: Path) -> None:
    """Conv -> BatchNormalization fused into one Convolution (5=1): the graph picks the BN's output,
    not the values (both far here: an inherited error)."""
    rng = np.random.default_rng(5)
    bn = {k: rng.uniform(0.9, 1.1, 4).astype(np.float32) for k in ("s", "b", "m", "v")}
    tail = [helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["n"], name="bn")]
    model, inits = _conv_head(tmp_path, tail, bn)
    x = rng.standard_normal((1, 3, 8, 8)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    dump_model(model, tmp_path / "g", inputs=[f"x={tmp_path / 'x.npy'}"])
    far = _ort([helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]), *tail], x * 1.3, ["n"], inits)
    param = tmp_path / "m.ncnn.param"
    param.write_text(
        "7767517\n2 2\nInput in0 0 1 in0\nConvolution conv_0 1 1 in0 out0 0=4 1=3 4=1 5=1 6=108\n"
    )
    got = {p.blob: p for p in _pair(model, tmp_path / "g", {"in0": x[0], "out0": far["n"][0]}, param)}
    golden = open_dump(tmp_path / "g")
    assert min(_rel(golden.tensors[t].load(), far["n"]) for t in ("c", "n")) > 0.05
    assert got["out0"].tensor == "n" and "fused chain: the chain's last" in got["out0"].how


def test_the_scalar_pnnx_puts_before_a_hardsigmoid_is_explained_and_checked(tmp_path: Path) -> None:
    """pnnx writes ONNX HardSigmoid(alpha=0.2) as ncnn HardSigmoid(alpha=1/6) of x * 1.2."""
    tail = [helper.make_node("HardSigmoid", ["c"], ["y"], name="hs", alpha=0.2, beta=0.5)]
    model, inits = _conv_head(tmp_path, tail, {})
    x = np.random.default_rng(6).standard_normal((1, 3, 8, 8)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    dump_model(model, tmp_path / "g", inputs=[f"x={tmp_path / 'x.npy'}"])
    rewrite = [  # what ncnn computes, run through onnxruntime
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Mul", ["c", "k"], ["m"]),
        helper.make_node("HardSigmoid", ["m"], ["y"], alpha=1 / 6, beta=0.5),
    ]
    run = _ort(rewrite, x, ["c", "m", "y"], {**inits, "k": np.array(1.2, np.float32)})
    param = tmp_path / "m.ncnn.param"
    param.write_text(
        "7767517\n4 4\nInput in0 0 1 in0\n"
        "Convolution conv_0 1 1 in0 1 0=4 1=3 4=1 5=0 6=108\n"
        "BinaryOp mul_0 1 1 1 2 0=2 1=1 2=1.2\n"
        "HardSigmoid hs_0 1 1 2 out0 0=0.166666672 1=0.5\n"
    )
    blobs = {"in0": x[0], "1": run["c"][0], "2": run["m"][0], "out0": run["y"][0]}
    got = {p.blob: p for p in _pair(model, tmp_path / "g", blobs, param)}
    mul = got["2"]
    golden = open_dump(tmp_path / "g")
    rel = _rel(golden.tensors["c"].load() * np.float64(1.2), blobs["2"])
    assert rel < 1e-6 and mul.tensor is None and mul.kind == "pnnx-made"
    assert "'c' * 1.2" in mul.how and f"relative distance {rel:.5f}" in mul.how
    assert "HardSigmoid hs_0 (alpha 0.166667; 1.2 * 0.166667 = 0.2)" in mul.how and "'y'" in mul.how
    assert got["out0"].tensor == "y" and _rel(golden.tensors["y"].load(), blobs["out0"]) < 1e-6


def test_memorydata_named_after_an_onnx_constant_pairs_by_name(tmp_path: Path) -> None:
    """YOLOv8n's anchors: pnnx folds a constant subgraph into a MemoryData named after its tensor."""
    grid = np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2)
    nodes = [
        helper.make_node("Relu", ["g"], ["anchors"], name="fold"),  # depends on no input value
        helper.make_node("Add", ["x", "anchors"], ["y"], name="add"),
    ]
    model = build_model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 2, 2])],
        {"g": grid},
    )
    path = tmp_path / "m.onnx"
    onnx.save_model(model, str(path))
    x = np.random.default_rng(7).standard_normal((1, 3, 2, 2)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    dump_model(path, tmp_path / "g", inputs=[f"x={tmp_path / 'x.npy'}"])
    golden = open_dump(tmp_path / "g")
    if "anchors" not in golden.tensors:
        pytest.skip("this onnxruntime folded the constant away: no golden tensor to pair by name")
    param = tmp_path / "m.ncnn.param"
    param.write_text(
        "7767517\n4 4\nInput in0 0 1 in0\nMemoryData anchors 0 1 1 0=2 1=2 2=3\n"
        "MemoryData other_const 0 1 2 0=2 1=2 2=3\nBinaryOp add_0 2 1 in0 1 out0 0=0\n"
    )
    blobs = {"in0": x[0], "1": grid[0], "2": grid[0], "out0": golden.tensors["y"].load()[0]}
    got = {p.blob: p for p in _pair(path, tmp_path / "g", blobs, param)}
    assert (
        got["1"].tensor == "anchors"
        and got["1"].kind == "name"
        and "relative distance 0.00000" in got["1"].how
    )
    assert got["2"].tensor is None and got["2"].kind == "constant"  # no ONNX tensor of that name
    assert got["out0"].tensor == "y"


def test_candidates_the_values_cannot_tell_apart_are_decided_by_the_graph(tmp_path: Path) -> None:
    """YOLOv8n's SPPF (a MaxPool of a MaxPool...) leaves equal values two nodes apart: the next node wins."""
    nodes = [helper.make_node("Relu", [a], [b], name=b) for a, b in (("x", "r1"), ("r1", "r2"), ("r2", "r3"))]
    model = build_model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
        [helper.make_tensor_value_info("r3", TensorProto.FLOAT, [1, 2, 4, 4])],
    )
    path = tmp_path / "relus.onnx"
    onnx.save_model(model, str(path))
    x = np.random.default_rng(8).standard_normal((1, 2, 4, 4)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    dump_model(path, tmp_path / "g", inputs=[f"x={tmp_path / 'x.npy'}"])
    golden = open_dump(tmp_path / "g")
    r = golden.tensors["r1"].load()[0]
    assert np.array_equal(r, golden.tensors["r3"].load()[0])  # r1 = r2 = r3: the values cannot choose
    param = tmp_path / "relus.ncnn.param"
    param.write_text(
        "7767517\n4 4\nInput in0 0 1 in0\n"
        "ReLU relu_0 1 1 in0 1\nReLU relu_1 1 1 1 2\nReLU relu_2 1 1 2 out0\n"
    )
    got = {p.blob: p for p in _pair(path, tmp_path / "g", {"in0": x[0], "1": r, "2": r, "out0": r}, param)}
    assert [got[b].tensor for b in ("1", "2", "out0")] == ["r1", "r2", "r3"]
    assert got["1"].kind == "structure" and "cannot tell 3 of them apart" in got["1"].how
    assert "the graph chose the nearest, 1 node(s) on" in got["1"].how and "values chose" not in got["1"].how


def test_a_layernorm_reaches_past_eight_nodes_and_a_gemm_folds_its_bias(tmp_path: Path) -> None:
    """PP-OCR rec's SVTR neck: pnnx fuses a LayerNormalization decomposed into 9 ONNX nodes, and an
    ncnn Gemm (whose param 9 is K, not an activation) folds MatMul -> bias Add."""
    rng = np.random.default_rng(9)
    inits = {
        "two": np.array(2.0, np.float32),
        "eps": np.array(1e-5, np.float32),
        "gamma": rng.uniform(0.5, 1.5, 6).astype(np.float32),
        "beta": rng.standard_normal(6).astype(np.float32),
        "w": rng.standard_normal((6, 5)).astype(np.float32),
        "b": (rng.standard_normal(5) * 1e-3).astype(
            np.float32
        ),  # tiny: the values cannot tell MatMul from Add
    }
    ln = [
        ("ReduceMean", ["x"], "mu", {"axes": [-1]}),
        ("Sub", ["x", "mu"], "d", {}),
        ("Pow", ["d", "two"], "d2", {}),
        ("ReduceMean", ["d2"], "var", {"axes": [-1]}),
        ("Add", ["var", "eps"], "ve", {}),
        ("Sqrt", ["ve"], "sd", {}),
        ("Div", ["d", "sd"], "nrm", {}),
        ("Mul", ["nrm", "gamma"], "sc", {}),
        ("Add", ["sc", "beta"], "ln", {}),
        ("MatMul", ["ln", "w"], "mm", {}),
        ("Add", ["mm", "b"], "y", {}),
    ]
    nodes = [helper.make_node(op, ins, [out], name=out, **kw) for op, ins, out, kw in ln]
    model = build_model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 5])],
        inits,
        opset=17,
    )
    path = tmp_path / "ln.onnx"
    onnx.save_model(model, str(path))
    x = rng.standard_normal((1, 4, 6)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    dump_model(path, tmp_path / "g", inputs=[f"x={tmp_path / 'x.npy'}"])
    golden = open_dump(tmp_path / "g")
    param = tmp_path / "ln.ncnn.param"
    param.write_text(
        "7767517\n3 3\nInput in0 0 1 in0\nLayerNorm ln_0 1 1 in0 1 0=6 1=1.0e-5 2=1\n"
        "Gemm gemm_0 1 1 1 out0 10=4 2=0 3=1 4=0 5=1 6=1 7=4 8=5 9=6\n"
    )
    ln_out, y = golden.tensors["ln"].load()[0], golden.tensors["y"].load()[0]
    got = {p.blob: p for p in _pair(path, tmp_path / "g", {"in0": x[0], "1": ln_out, "out0": y}, param)}
    assert got["1"].tensor == "ln" and "LayerNorm after 'x' -> Add 'ln'" in got["1"].how  # 9 nodes on
    assert _rel(golden.tensors["mm"].load(), y) < 0.05  # the MatMul alone is as close: values cannot decide
    gemm = got["out0"]
    assert gemm.tensor == "y" and "fused chain: the chain's last" in gemm.how and "activation" not in gemm.how


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
    kinds = {k: sum(p.kind == k for p in pairs) for k in ncnn.KINDS}
    assert {k: n for k, n in kinds.items() if n} == {
        "input": 1,
        "structure": 72,
        "values": 37,
        "split": 32,
        "reshape": 9,
        "pnnx-made": 9,
    }  # every blob paired or explained, none left unpaired
    assert len({p.tensor for p in paired}) == len(paired)  # one blob per ONNX tensor
    graph = ncnn.graph_of(load_graph(model))
    golden = open_dump(tmp_path / "g")
    far = []
    for p in paired:
        assert p.how.startswith("structure")
        exact = p.layer.exact_ops()
        assert exact is None or graph.producer.get(p.tensor, ("", ""))[1] in exact or p.blob == "in0"
        if p.blob == "in0":
            continue
        rel = _rel(golden.tensors[p.tensor].load(), blobs[p.blob])  # independent check of every pairing
        assert f"relative distance {rel:.5f}" in p.how, (p.blob, p.tensor, rel)
        if p.kind == "values":
            assert rel < 0.05 and "values chose it" in p.how
        elif rel >= 0.05:  # the graph decided: the only candidate, or a fused chain's last node
            far.append(p.tensor)
            assert "the only candidate" in p.how or "fused chain: the chain's last" in p.how
    # at 16x32 the last MaxPool (2x2 over a map 1 row high) is where ncnn and onnxruntime part; what it
    # feeds inherits it: the InnerProduct (bias folded: MatMul -> Add) is the Add by the graph, not by values
    assert far == ["pool2d_9.tmp_0", "pool2d_10.tmp_0", "linear_1.tmp_1", "softmax_0.tmp_0"]
    hs = [p for p in pairs if p.kind == "pnnx-made"]  # x * 1.2 before each HardSigmoid (alpha 1/6)
    for p in hs:
        src = next(q for q in pairs if q.blob == p.layer.inputs[0])
        while src.copy_of is not None:  # a Split copy: the blob it copies
            src = next(q for q in pairs if q.blob == src.copy_of)
        k = float(p.layer.params["2"])
        rel = _rel(golden.tensors[src.tensor].load() * np.float64(k), blobs[p.blob])  # independent
        assert rel < 0.05 and f"relative distance {rel:.5f}" in p.how and "HardSigmoid" in p.how
        assert p.layer.type == "BinaryOp" and p.layer.params["0"] == "2"


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
    assert only.height == record["explained"] == record["kinds"]["pnnx-made"]  # the HardSigmoid scalars
    assert only["message"].str.contains("pnnx-made").all() and record["kinds"]["unpaired"] == 0
