"""Issue 20 item 4: a target quantised by another tool is recognised, whatever made it.

Targets are made by onnxruntime's own quantiser (``quantize_dynamic``: DynamicQuantizeLinear +
ConvInteger/MatMulInteger; ``quantize_static``: QDQ) and run through onnxruntime; a plain
``{tensor}.npy`` copy of a dump keeps only the names (``_quantized``, ``_scale``, ``_zero_point``).
The scale and zero point the evidence quotes are checked against the target model's own tensors.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis.checks.quantisation import name_key
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.onnx.runner import dump_model

quantization = pytest.importorskip("onnxruntime.quantization")

OPSET, IR = 17, 8


def _model(tmp_path: Path) -> Path:
    rng = np.random.default_rng(0)
    w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)
    w[0, 0, 0, 0] = 150.0  # one outlier widens the weight's range: coarse 8-bit steps for every other weight
    m = rng.standard_normal((8 * 6 * 6, 10)).astype(np.float32) * np.float32(0.1)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("Reshape", ["r", "shape"], ["flat"], name="flatten"),
        helper.make_node("MatMul", ["flat", "m"], ["y"], name="fc"),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 6, 6])
    graph = helper.make_graph(
        nodes,
        "m",
        [x],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializer=[
            numpy_helper.from_array(w, "w"),
            numpy_helper.from_array(m, "m"),
            numpy_helper.from_array(np.array([1, -1], np.int64), "shape"),
        ],
    )
    path = tmp_path / "model.onnx"
    onnx.save_model(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR), str(path)
    )
    return path


class _Reader:
    def __init__(self, x: np.ndarray) -> None:
        self.left = [{"x": x}]

    def get_next(self) -> dict[str, np.ndarray] | None:
        return self.left.pop() if self.left else None


def _pair(tmp_path: Path, how: str) -> tuple[Path, Path, Path, Path]:
    """(golden dump, target dump, golden model, quantised model)."""
    model = _model(tmp_path)
    x = np.random.default_rng(1).standard_normal((1, 3, 6, 6)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    quantised = tmp_path / "quantised.onnx"
    if how == "dynamic":
        quantization.quantize_dynamic(str(model), str(quantised), weight_type=quantization.QuantType.QUInt8)
    else:
        quantization.quantize_static(
            str(model),
            str(quantised),
            _Reader(x),
            quant_format=quantization.QuantFormat.QDQ,
            activation_type=quantization.QuantType.QInt8,
            weight_type=quantization.QuantType.QInt8,
        )
    dump_model(model, tmp_path / "g", inputs={"x": tmp_path / "x.npy"})
    dump_model(quantised, tmp_path / "t", inputs={"x": tmp_path / "x.npy"})
    return tmp_path / "g", tmp_path / "t", model, quantised


def _initializer(model: Path, name: str) -> np.ndarray:
    return next(numpy_helper.to_array(i) for i in onnx.load(str(model)).graph.initializer if i.name == name)


def _plain(dump: Path, out: Path) -> Path:
    """The dump's tensors as ``{name}.npy`` files, no manifest ('/' and ':' spelled '_')."""
    out.mkdir()
    for f in dump.rglob("*.npy"):
        shutil.copy(f, out / f.name)
    return out


@pytest.mark.parametrize("plain", [False, True])
def test_a_quantize_dynamic_target_is_quantisation_with_its_scale(tmp_path: Path, plain: bool) -> None:
    golden, target, model, quantised = _pair(tmp_path, "dynamic")
    if plain:
        golden, target = _plain(golden, tmp_path / "gp"), _plain(target, tmp_path / "tp")
    # (the int8 preset: the corpus's rec-quantize-dynamic-int8-preset; one conv here stays in that band)
    diag = diagnose(compare(golden, target, model=model))
    top = diag.root_causes[0]
    assert top.cause == v.QUANTISATION and top.name in ("c", "y"), (top.name, top.cause)
    said = " ".join(top.evidence)
    assert "the target quantises" in said
    # the weight's scale quoted is the quantised model's own initializer
    weight = "w" if top.name == "c" else "m"
    scale = float(_initializer(quantised, f"{weight}_scale"))
    zero = int(_initializer(quantised, f"{weight}_zero_point"))
    hit = re.search(rf"'{weight}_quantized' is uint8, scale ([0-9.e+-]+), zero point (-?\d+)", said)
    assert hit and float(hit.group(1)) == pytest.approx(scale, rel=1e-3) and int(hit.group(2)) == zero
    assert ("DynamicQuantizeLinear" in said) != plain  # the op is known from a manifest only


def test_a_qdq_target_is_quantisation_with_its_range(tmp_path: Path) -> None:
    golden, target, model, quantised = _pair(tmp_path, "static")
    diag = diagnose(compare(golden, target, model=model))
    top = diag.root_causes[0]
    assert top.cause == v.QUANTISATION
    said = " ".join(top.evidence)
    hit = re.search(
        r"the target quantises the (?:input|output) '(\w+)' of '\w+' by QuantizeLinear: "
        r"'\w+_QuantizeLinear_Output' is int8, scale ([0-9.e+-]+), zero point (-?\d+); "
        r"the golden range \[([0-9.e+-]+), ([0-9.e+-]+)\] spans (\d+) of its 256 steps",
        said,
    )
    assert hit is not None, said
    name, scale = hit.group(1), float(_initializer(quantised, f"{hit.group(1)}_scale"))
    assert float(hit.group(2)) == pytest.approx(scale, rel=1e-3)
    assert int(hit.group(3)) == int(_initializer(quantised, f"{name}_zero_point"))
    value = np.load(next(golden.rglob(f"{name}.npy"))).astype(np.float64)  # the golden tensor, from its file
    assert float(hit.group(4)) == pytest.approx(value.min(), rel=1e-3, abs=1e-6)
    assert float(hit.group(5)) == pytest.approx(value.max(), rel=1e-3)
    assert int(hit.group(6)) == round((value.max() - value.min()) / scale)


def test_a_float_target_shows_no_quantisation(tmp_path: Path) -> None:
    model = _model(tmp_path)
    np.save(tmp_path / "x.npy", np.random.default_rng(1).standard_normal((1, 3, 6, 6)).astype(np.float32))
    np.save(tmp_path / "x2.npy", np.random.default_rng(2).standard_normal((1, 3, 6, 6)).astype(np.float32))
    dump_model(model, tmp_path / "g", inputs={"x": tmp_path / "x.npy"})
    dump_model(model, tmp_path / "t", inputs={"x": tmp_path / "x2.npy"})
    diag = diagnose(compare(tmp_path / "g", tmp_path / "t", model=model))
    assert all("the target quantises" not in e for c in diag.root_causes for e in c.evidence)


def test_name_key_matches_a_plain_file_name_to_its_tensor() -> None:
    assert name_key("/model.0/conv/Conv_output_0") == name_key("_model_0_conv_Conv_output_0")
    assert name_key("Clip%400_scale") == name_key("Clip@0_scale")
    assert name_key("a.b") != name_key("ab")
