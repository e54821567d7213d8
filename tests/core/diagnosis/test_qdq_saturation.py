"""Issue 20, item 5 on a QDQ target: a tensor whose int8 grid is too narrow holds its values at the grid's
dequantised end where the golden goes beyond -- saturation (class overflow), found from the quantised copy
and scale tensor the target dump holds beside it.  The target is a modified model run by onnxruntime;
every count is recomputed here in float64."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.onnx.runner import dump_model

RNG = np.random.default_rng(11)
W = RNG.standard_normal((4, 2, 3, 3)).astype(np.float32)
X = RNG.standard_normal((1, 2, 6, 6)).astype(np.float32)


def _model(scale: float | None) -> onnx.ModelProto:
    """x -> Conv -> y -> Relu -> out; with ``scale``, Relu reads y through an int8 QuantizeLinear /
    DequantizeLinear pair named as onnxruntime's quantiser names them (y_QuantizeLinear_Output, y_scale,
    y_zero_point, y_DequantizeLinear_Output)."""
    inits = [onnx.numpy_helper.from_array(W, "w")]
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", pads=[1, 1, 1, 1])]
    relu_in = "y"
    if scale is not None:
        inits += [
            onnx.numpy_helper.from_array(np.array(scale, np.float32), "y_scale"),
            onnx.numpy_helper.from_array(np.array(0, np.int8), "y_zero_point"),
        ]
        relu_in = "y_DequantizeLinear_Output"
        nodes += [
            helper.make_node("QuantizeLinear", ["y", "y_scale", "y_zero_point"], ["y_QuantizeLinear_Output"]),
            helper.make_node(
                "DequantizeLinear", ["y_QuantizeLinear_Output", "y_scale", "y_zero_point"], [relu_in]
            ),
        ]
    nodes.append(helper.make_node("Relu", [relu_in], ["out"], name="relu"))
    graph = helper.make_graph(
        nodes,
        "qdq",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 6])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)],
        initializer=inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_a_too_narrow_qdq_grid_is_saturation_at_its_rail(tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", X)
    onnx.save_model(_model(None), str(tmp_path / "golden.onnx"))
    dump_model(tmp_path / "golden.onnx", tmp_path / "g", inputs={"x": tmp_path / "x.npy"})
    golden_y = np.load(tmp_path / "g" / "y.npy").astype(np.float64)
    scale = float(np.abs(golden_y).max()) / 2 / 127  # the grid holds half the golden's range
    onnx.save_model(_model(scale), str(tmp_path / "target.onnx"))
    dump_model(tmp_path / "target.onnx", tmp_path / "t", inputs={"x": tmp_path / "x.npy"})
    ints = np.load(tmp_path / "t" / "y_QuantizeLinear_Output.npy")

    top = diagnose(compare(tmp_path / "g", tmp_path / "t", model=tmp_path / "golden.onnx")).root_causes[0]
    assert top.name == "out" and top.cause == v.OVERFLOW
    said = next(e for e in top.evidence if e.startswith("saturation at"))
    rail = 127 * scale
    past = golden_y > rail + scale / 2
    at = int(np.count_nonzero(ints == 127))
    held = int(np.count_nonzero(past & (ints.astype(np.float64) == 127)))
    assert held and held == int(past.sum())
    assert (
        f"saturation at the input 'y' of 'relu': {at} of {golden_y.size} values of the target's int8 copy "
        f"'y_QuantizeLinear_Output' sit exactly at 127 (= {rail:.6g}) where the golden goes beyond it "
        "(golden "
        f"reaches {golden_y[past].max():.6g}; {int(past.sum())} golden values past the grid, {held} of them "
        "held at it)"
    ) in said
    assert "saturate" in top.advice
