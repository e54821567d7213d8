"""Seed 003's data without an NPU: a model run with onnxruntime fusion on and fusion off.

* golden: the model with every optimisation disabled, one ``.npy`` per node output
  (``Node.0.<ts>.npy``, the CPU-dump naming msaccucmp reads);
* fusion on: onnxruntime's extended-optimised graph (Conv+Relu fused, MatMul+Add fused
  into Gemm...), one Ascend-style ``Type.Op.id.1.<ts>.output.N.npy`` per optimised node,
  with an error injected into one fused op (a buggy fused kernel), and an ATC-style graph
  JSON built from onnxruntime's ``fused_from`` (our :mod:`atc_writer`);
* fusion off: every original op dumped under its own name (tiny noise), with its graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from dumpscope.core.onnx.graph import graph_facts
from dumpscope.core.onnx.optimized_target import fused_from
from dumpscope.core.vendor.atc_writer import GraphOp, write_graph


@dataclass(frozen=True)
class FusionData:
    golden: Path
    on: Path
    off: Path
    graph_on: Path
    graph_off: Path
    bad_op: str
    """The fused op (fusion-on side) whose output was corrupted."""
    bad_originals: tuple[str, ...]


def _model() -> onnx.ModelProto:
    rng = np.random.default_rng(3)
    w1 = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32) * 0.3, "w1")
    w2 = numpy_helper.from_array(rng.standard_normal((4, 4, 3, 3)).astype(np.float32) * 0.3, "w2")
    fc, bias = (
        numpy_helper.from_array(rng.standard_normal((64, 10)).astype(np.float32) * 0.1, "fc"),
        numpy_helper.from_array(rng.standard_normal(10).astype(np.float32), "bias"),
    )
    shape = numpy_helper.from_array(np.array([1, 64], dtype=np.int64), "shape")
    nodes = [
        helper.make_node("Conv", ["x", w1.name], ["c1"], "conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], "relu1"),
        helper.make_node("Conv", ["r1", w2.name], ["c2"], "conv2", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"], "relu2"),
        helper.make_node("MaxPool", ["r2"], ["p"], "pool", kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Reshape", ["p", "shape"], ["flat"], "flatten"),
        helper.make_node("MatMul", ["flat", "fc"], ["mm"], "fc_matmul"),
        helper.make_node("Add", ["mm", "bias"], ["y"], "fc_add"),
    ]
    graph = helper.make_graph(
        nodes,
        "fusion_demo",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])],
        [w1, w2, fc, bias, shape],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _run_all(model: onnx.ModelProto, feed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Every node output of ``model``, run with optimisations off (so nothing is fused away)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    have = {o.name for o in m.graph.output}
    for node in m.graph.node:
        m.graph.output.extend(helper.make_empty_tensor_value_info(o) for o in node.output if o not in have)
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(m.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    return dict(zip(names, sess.run(names, feed), strict=True))


def _optimise(model: onnx.ModelProto, work: Path) -> onnx.ModelProto:
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    opts.optimized_model_filepath = str(work / "optimised.onnx")
    ort.InferenceSession(model.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    return onnx.load(str(work / "optimised.onnx"))


def _op_name(node: onnx.NodeProto) -> str:
    """An op name as a dump file name can hold it (onnxruntime names fusions ``a/Fusion``)."""
    return node.name.replace("/", "_")


def _npu_dump(folder: Path, nodes: list[onnx.NodeProto], values: dict[str, np.ndarray]) -> None:
    folder.mkdir(parents=True)
    for i, node in enumerate(nodes):
        for k, out in enumerate(node.output):
            np.save(
                folder / f"{node.op_type}.{_op_name(node)}.{i + 1}.1.{1700000000000100 + i}.output.{k}.npy",
                values[out],
            )


def make_fusion_data(root: Path) -> FusionData:
    """Write golden, fusion-on and fusion-off dumps with their graphs under ``root``."""
    model = _model()
    feed = {"x": np.random.default_rng(0).standard_normal((1, 3, 8, 8)).astype(np.float32)}
    golden = _run_all(model, feed)
    (root / "golden").mkdir(parents=True)
    for i, node in enumerate(model.graph.node):
        np.save(root / "golden" / f"{node.name}.0.{1700000000000000 + i}.npy", golden[node.output[0]])
    original = graph_facts(model.graph)
    opt = _optimise(model, root)
    on_values = _run_all(opt, feed)
    origins = fused_from(original, graph_facts(opt.graph))
    multi = [n for n in opt.graph.node if len(origins.get(n.name, [])) > 1]
    bad = multi[0]
    on_values[bad.output[0]] = on_values[bad.output[0]] * 1.5 + 0.2  # the buggy fused kernel
    _npu_dump(root / "on", list(opt.graph.node), on_values)
    producer = {o: n.name for n in model.graph.node for o in n.output}
    write_graph(
        root / "on.json",
        [
            GraphOp(
                _op_name(n),
                n.op_type,
                tuple(origins.get(n.name) or [n.name]),
                tuple((producer[o], 0) if o in producer else None for o in n.output),
                ("OnnxRuntimeFusion",) * (len(origins.get(n.name, [])) > 1),
            )
            for n in opt.graph.node
        ],
    )
    noise = np.random.default_rng(1)
    off_values = {k: v + noise.standard_normal(v.shape).astype(v.dtype) * 1e-6 for k, v in golden.items()}
    _npu_dump(root / "off", list(model.graph.node), off_values)
    write_graph(
        root / "off.json", [GraphOp(n.name, n.op_type, (n.name,), ((n.name, 0),)) for n in model.graph.node]
    )
    return FusionData(
        root / "golden",
        root / "on",
        root / "off",
        root / "on.json",
        root / "off.json",
        _op_name(bad),
        tuple(origins[bad.name]),
    )
