"""Issue 20 item 6: a layout fault inside the graph (a Reshape whose target output holds the
golden's values in another axis order) is a layout mismatch at that node, with the measured
agreement; and an image buffer fed HWC where the model reads NCHW is a layout mismatch at the
input.  Targets are modified models run through onnxruntime; each verdict is checked against
an independent float64 computation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.onnx.runner import dump_model

OPSET, IR = 17, 8
SHAPE = (1, 3, 4, 5)


def _model(nhwc_reshape: bool) -> onnx.ModelProto:
    """x -> Mul(w) -> Reshape[1,3,20] -> MatMul(m) -> y; the faulty copy reads the Mul's NCHW
    output as NHWC before its Reshape (a Transpose in front, the Reshape's output name kept)."""
    nodes = [helper.make_node("Mul", ["x", "w"], ["scaled"], name="scale")]
    if nhwc_reshape:
        nodes.append(
            helper.make_node("Transpose", ["scaled"], ["scaled_nhwc"], name="to_nhwc", perm=[0, 2, 3, 1])
        )
    nodes += [
        helper.make_node(
            "Reshape", ["scaled_nhwc" if nhwc_reshape else "scaled", "shape"], ["flat"], name="reshape"
        ),
        helper.make_node("MatMul", ["flat", "m"], ["y"], name="matmul"),
    ]
    rng = np.random.default_rng(0)
    inits = {
        "w": np.full((1, 3, 1, 1), 1.5, np.float32),
        "shape": np.array([1, 3, 20], np.int64),
        "m": rng.standard_normal((20, 7)).astype(np.float32),
    }
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(SHAPE))
    graph = helper.make_graph(
        nodes,
        "m",
        [x],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializer=[onnx.numpy_helper.from_array(a, n) for n, a in inits.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR)


def _dumps(tmp_path: Path, nhwc_reshape: bool, x_target: np.ndarray | None = None) -> tuple[Path, Path, Path]:
    x = np.random.default_rng(1).random(SHAPE).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "xt.npy", x if x_target is None else x_target(x))  # type: ignore[operator]
    golden, target = tmp_path / "golden.onnx", tmp_path / "target.onnx"
    onnx.save_model(_model(False), str(golden))
    onnx.save_model(_model(nhwc_reshape), str(target))
    dump_model(golden, tmp_path / "g", inputs={"x": tmp_path / "x.npy"})
    dump_model(target, tmp_path / "t", inputs={"x": tmp_path / "xt.npy"})
    return golden, tmp_path / "g", tmp_path / "t"


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    return float(a @ b / np.sqrt((a @ a) * (b @ b)))


def test_nhwc_data_reshaped_as_nchw_is_a_layout_mismatch_at_the_reshape(tmp_path: Path) -> None:
    model, g, t = _dumps(tmp_path, nhwc_reshape=True)
    gold, targ = np.load(g / "flat.npy"), np.load(t / "flat.npy")
    # independent: the same multiset of values; the target's buffer read as [20,3] is the golden transposed
    assert np.array_equal(np.sort(gold.ravel()), np.sort(targ.ravel())) and _cos(gold, targ) < 0.98
    assert np.array_equal(targ.reshape(20, 3).T.reshape(gold.shape), gold)
    diag = diagnose(compare(g, t, model=model))
    top = diag.root_causes[0]
    assert top.name == "flat" and top.cause == v.LAYOUT, (top.name, top.cause)
    text = " ".join(top.evidence)
    assert "axes permuted" in text and "equal values" in text and "read as [20, 3]" in text
    assert "axis order" in top.advice or "layout" in top.advice.lower()


def test_the_healthy_reshape_is_no_layout(tmp_path: Path) -> None:
    model, g, t = _dumps(tmp_path, nhwc_reshape=False)
    diag = diagnose(compare(g, t, model=model))
    assert diag.healthy and not diag.root_causes


def test_an_hwc_buffer_fed_as_nchw_is_a_layout_mismatch_at_the_input(tmp_path: Path) -> None:
    def hwc(x: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(x.shape)

    model, g, t = _dumps(tmp_path, nhwc_reshape=False, x_target=hwc)
    diag = diagnose(compare(g, t, model=model))
    top = diag.root_causes[0]
    assert top.name == "x" and top.cause == v.LAYOUT
    assert "equal values" in " ".join(top.evidence)


def test_an_input_that_only_half_matches_a_layout_is_preprocessing(tmp_path: Path) -> None:
    """An HWC buffer plus noise: cosine ~0.6 after the reorder; no layout is claimed."""

    def noisy_hwc(x: np.ndarray) -> np.ndarray:
        noise = np.random.default_rng(2).random(x.shape).astype(np.float32) - np.float32(0.5)
        hwc = np.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(x.shape)
        return (hwc + 1.5 * noise).astype(np.float32)

    model, g, t = _dumps(tmp_path, nhwc_reshape=False, x_target=noisy_hwc)
    x, xt = np.load(tmp_path / "x.npy"), np.load(tmp_path / "xt.npy")
    assert _cos(x, xt.reshape(4, 5, 3).transpose(2, 0, 1)[None]) < 0.95  # independent: no layout fits
    top = diagnose(compare(g, t, model=model)).root_causes[0]
    assert top.name == "x" and top.cause == v.PREPROCESSING
    assert "permuted" not in " ".join(top.evidence)
