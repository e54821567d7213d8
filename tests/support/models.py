"""Small, seeded ONNX models built with onnx.helper, shared by test modules (the fixtures are in conftest.py).

``build_model(nodes, inputs, outputs, initializers)`` returns a model; ``make_chain_model`` saves a small
model
with awkward tensor names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

#: IR version for fixture models: new enough for every op we use, old enough for the
#: installed onnxruntime (onnx.helper would stamp its own, newer, IR version).
FIXTURE_IR_VERSION = 8
FIXTURE_OPSET = 17

ModelBuilder = Callable[..., Path]


def build_model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[onnx.ValueInfoProto],
    outputs: Sequence[onnx.ValueInfoProto],
    initializers: Sequence[np.ndarray | tuple[str, np.ndarray]] | dict[str, np.ndarray] = (),
    *,
    opset: int = FIXTURE_OPSET,
    ir_version: int = FIXTURE_IR_VERSION,
) -> onnx.ModelProto:
    """A model from nodes, value infos and ``{name: array}`` initializers."""
    items = initializers.items() if isinstance(initializers, dict) else initializers
    inits = [numpy_helper.from_array(np.asarray(arr), name) for name, arr in items]  # type: ignore[misc]
    graph = helper.make_graph(list(nodes), "fixture", list(inputs), list(outputs), inits)
    return helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", opset)],
        ir_version=ir_version,
        producer_name="dumpscope-tests",
    )


def make_chain_model(tmp_path: Path, name: str = "chain.onnx") -> Path:
    """x[1,8] -> MatMul(w) -> Add(b) -> Relu -> Exp -> y, with names holding ``/ . : @``.

    The Add node is unnamed.  Weights are seeded and small.
    """
    rng = np.random.default_rng(7)
    w = (rng.standard_normal((8, 8)) * 0.5).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    nodes = [
        helper.make_node("MatMul", ["x", "enc/w.0"], ["enc/mm:0"], name="enc/MatMul"),
        helper.make_node("Add", ["enc/mm:0", "enc@b"], ["enc/add.out"]),
        helper.make_node("Relu", ["enc/add.out"], ["enc/relu:0"], name="enc/Relu"),
        helper.make_node("Exp", ["enc/relu:0"], ["y"], name="head.exp"),
    ]
    model = build_model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8])],
        {"enc/w.0": w, "enc@b": b},
    )
    path = tmp_path / name
    onnx.save_model(model, str(path))
    return path
