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


def make_fix_case(tmp_path: Path, case: str) -> tuple[Path, Path]:
    """A small model whose fix is one change of another kind than keeping a node, and its input (saved):

    ``input-beyond-fp16``: raw counts up to 1.2e5 (beyond float16's 65504), scaled by 1e-5 in the model,
    then Tanh; the input itself overflows as float16 (fix: keep the input in float32).
    ``input-slightly-beyond``: a sensor at 30000 with four readings at 66000, Relu, then x 1e-3; the input
    and the Relu overflow (fix: clip the input to the float16 range).
    ``bf16-offset``: ``x - 1000`` for x in [1000, 1001]: bfloat16 storage of x (a step of 4 there) wipes
    the fraction out before the subtraction (fix: keep the input in float32).
    ``int8-channel-spread``: a 1x1 Conv whose input channel 3 is dead (zeros) and whose weight there is 40
    in output channel 0, every other weight 0.2-1: one per-tensor weight scale leaves the others ~3
    levels (fix: that Conv per channel).
    ``int8-hot-pixel``: a dead pixel at -200 among [0, 1) values, Conv 1x1 (positive weights), Relu, Conv
    3x3: the input's min/max calibration is stretched by the pixel, which the Relu zeroes anyway (fix:
    the input's calibration range).
    ``int8-hot-pixel-travels``: a hot pixel at 300 in a corner, two 1x1 Convs, then the corner cropped
    away: the calibration (of the float model) stretches every activation's range on the way (fix: the
    three ranges, or two nodes left out of int8)."""
    rng = np.random.default_rng(0)
    vi = helper.make_tensor_value_info
    if case == "input-beyond-fp16":
        x = np.linspace(0, 1.2e5, 64, dtype=np.float32).reshape(1, 64)
        nodes = [
            helper.make_node("Mul", ["x", "s"], ["xs"], name="norm"),
            helper.make_node("Tanh", ["xs"], ["out"], name="act"),
        ]
        inits: dict[str, np.ndarray] = {"s": np.array(1e-5, np.float32)}
    elif case == "input-slightly-beyond":
        x = np.full((1, 64), 30000, np.float32)
        x[0, :4] = 66000
        nodes = [
            helper.make_node("Relu", ["x"], ["r"], name="relu"),
            helper.make_node("Mul", ["r", "s"], ["out"], name="scale"),
        ]
        inits = {"s": np.array(1e-3, np.float32)}
    elif case == "bf16-offset":
        x = (1000 + np.linspace(0, 1, 64, dtype=np.float32)).reshape(1, 64)
        nodes = [helper.make_node("Sub", ["x", "b"], ["out"], name="center")]
        inits = {"b": np.array(1000, np.float32)}
    elif case == "int8-channel-spread":
        w = (rng.uniform(0.2, 1.0, (16, 4, 1, 1)) * rng.choice([-1, 1], (16, 4, 1, 1))).astype(np.float32)
        w[0, 3] = 40
        x = rng.normal(size=(1, 4, 8, 8)).astype(np.float32)
        x[:, 3] = 0
        nodes = [helper.make_node("Conv", ["x", "w"], ["out"], name="conv")]
        inits = {"w": w}
    elif case == "int8-hot-pixel":
        x = rng.uniform(0, 1, (1, 1, 32, 32)).astype(np.float32)
        x[0, 0, 5, 5] = -200
        nodes = [
            helper.make_node("Conv", ["x", "w1"], ["y1"], name="conv1"),
            helper.make_node("Relu", ["y1"], ["r1"], name="relu"),
            helper.make_node("Conv", ["r1", "w2"], ["out"], name="conv2"),
        ]
        inits = {
            "w1": rng.uniform(0.5, 1, (4, 1, 1, 1)).astype(np.float32),
            "w2": rng.normal(size=(4, 4, 3, 3)).astype(np.float32),
        }
    elif case == "int8-hot-pixel-travels":
        x = rng.uniform(0, 1, (1, 1, 32, 32)).astype(np.float32)
        x[0, 0, 0, 0] = 300
        nodes = [
            helper.make_node("Conv", ["x", "w1"], ["y1"], name="conv1"),
            helper.make_node("Conv", ["y1", "w2"], ["y2"], name="conv2"),
            helper.make_node("Slice", ["y2", "st", "en", "ax"], ["crop"], name="crop"),
            helper.make_node("Relu", ["crop"], ["out"], name="act"),
        ]
        inits = {
            "w1": rng.uniform(0.5, 1, (4, 1, 1, 1)).astype(np.float32),
            "w2": rng.normal(size=(4, 4, 1, 1)).astype(np.float32),
            "st": np.array([1, 1], np.int64),
            "en": np.array([32, 32], np.int64),
            "ax": np.array([2, 3], np.int64),
        }
    else:
        raise ValueError(case)
    shapes = {"int8-channel-spread": [1, 16, 8, 8], "int8-hot-pixel": [1, 4, 30, 30]}
    shape = (shapes | {"int8-hot-pixel-travels": [1, 4, 31, 31]}).get(case, list(x.shape))
    out = [vi("out", TensorProto.FLOAT, shape)]
    model = build_model(nodes, [vi("x", TensorProto.FLOAT, list(x.shape))], out, inits)
    path = tmp_path / f"{case}.onnx"
    onnx.save_model(model, str(path))
    np.save(tmp_path / f"{case}.x.npy", x)
    return path, tmp_path / f"{case}.x.npy"
