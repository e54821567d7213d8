"""The emitted ``rknn_hybrid_quantization.cfg`` names only tensors RKNN-Toolkit2's own step-1 cfg lists
(step 2 refuses any other: ``Invalid operands name``), pinned against a cfg the real tool wrote
(tests/data/rknn/hybrid/; bench/rknn_hybrid_check.py has RKNN build a pasted file where it installs)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from dumpscope.core.fix.change import Change
from dumpscope.core.fix.emit import emit
from tests.support.paths import DATA

STEP1 = DATA / "rknn" / "hybrid" / "conv_bn_relu.quantization.cfg"


def _conv_bn_relu() -> onnx.ModelProto:
    """The graph the fixture's cfg was made from: x -> conv1 (c1) -> bn1 (bn1) -> relu1 (r1) -> conv2 (y)."""
    rng = np.random.default_rng(0)

    def init(name: str, shape: tuple[int, ...]) -> str:
        inits.append(numpy_helper.from_array((rng.random(shape) + 0.5).astype(np.float32), name))
        return name

    inits: list[onnx.TensorProto] = []
    bn = [init(n, (8,)) for n in ("s", "b", "m", "v")]
    nodes = [
        helper.make_node("Conv", ["x", init("w1", (8, 3, 3, 3))], ["c1"], name="conv1", pads=[1] * 4),
        helper.make_node("BatchNormalization", ["c1", *bn], ["bn1"], name="bn1"),
        helper.make_node("Relu", ["bn1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", init("w2", (4, 8, 3, 3))], ["y"], name="conv2", pads=[1] * 4),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 16, 16])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def _listed(cfg: str) -> set[str]:
    """The tensors under the step-1 cfg's ``quantize_parameters`` (4-space keys)."""
    return set(re.findall(r"^    (\S+):$", cfg.split("quantize_parameters:", 1)[1], re.M))


@pytest.mark.parametrize(
    ("keep", "named"),
    [
        (["conv1"], {"bn1": "float16"}),  # c1 is folded with the BN: the BN's output names the layer
        (["conv1", "bn1"], {"bn1": "float16"}),  # once, not twice
        (["relu1", "conv2"], {"r1": "float16", "y": "float16"}),
    ],
)
def test_the_emitted_names_are_tensors_the_step1_cfg_lists_and_paste_into_it(
    tmp_path: Path, keep: list[str], named: dict[str, str]
) -> None:
    yaml = pytest.importorskip("yaml")
    if not STEP1.is_file():
        pytest.skip(f"fixture {STEP1} absent")
    step1 = STEP1.read_text()
    assert step1.startswith("custom_quantize_layers: {}\n") and "c1" not in _listed(step1)
    emit(_conv_bn_relu(), [Change("keep", n) for n in keep], tmp_path, target="int8")
    emitted = (tmp_path / "rknn_hybrid_quantization.cfg").read_text()
    assert yaml.safe_load(emitted)["custom_quantize_layers"] == named
    assert set(named) <= _listed(step1)
    # pasted over the empty section as the file's comment says: the whole cfg is still RKNN's YAML
    merged = yaml.safe_load(step1.replace("custom_quantize_layers: {}\n", emitted, 1))
    assert merged["custom_quantize_layers"] == named
    assert set(merged["quantize_parameters"]) == _listed(step1)


@pytest.mark.parametrize(
    ("keep", "named"),
    [
        (["conv1"], ["bn1"]),  # c1 is not listed: the layer down its chain that is
        (["conv1", "bn1", "relu1"], ["bn1", "r1"]),
        (["conv2"], ["y"]),
    ],
)
def test_given_the_step1_cfg_each_name_is_a_layer_it_lists(
    tmp_path: Path, keep: list[str], named: list[str]
) -> None:
    yaml = pytest.importorskip("yaml")
    from dumpscope.core.fix.emit import rknn_step1_tensors

    if not STEP1.is_file():
        pytest.skip(f"fixture {STEP1} absent")
    listed = rknn_step1_tensors(STEP1)
    assert list(listed) == ["x", "bn1", "r1", "y", "x_int8", "y_int8"]  # the tool's own list, in its order
    assert listed["bn1"] == "int8" and listed["x"] == listed["y"] == "float32"
    emit(_conv_bn_relu(), [Change("keep", n) for n in keep], tmp_path, target="int8", rknn_tensors=listed)
    text = (tmp_path / "rknn_hybrid_quantization.cfg").read_text()
    assert list(yaml.safe_load(text)["custom_quantize_layers"]) == named
    assert ("'c1' is not listed (fused); named by the first one down its chain: 'bn1'" in text) == (
        "conv1" in keep
    )


def test_a_tensor_whose_chain_reaches_no_listed_layer_is_not_named_and_the_file_says_why(
    tmp_path: Path,
) -> None:
    yaml = pytest.importorskip("yaml")
    # each tensor after c1 has one reader, so conv1's chain reaches y; a list without y leaves it nowhere
    emit(
        _conv_bn_relu(),
        [Change("keep", "conv1")],
        tmp_path,
        target="int8",
        rknn_tensors={"x": "float32", "y": "float32"},
    )
    text = (tmp_path / "rknn_hybrid_quantization.cfg").read_text()
    assert yaml.safe_load(text)["custom_quantize_layers"] == {"y": "float16"}
    emit(_conv_bn_relu(), [Change("keep", "conv1")], tmp_path, target="int8", rknn_tensors={"x": "float32"})
    text = (tmp_path / "rknn_hybrid_quantization.cfg").read_text()
    assert yaml.safe_load(text)["custom_quantize_layers"] is None
    assert "RKNN's step-1 cfg lists no layer for 'c1'" in text


@pytest.mark.parametrize("dtype", ["int16", "int32"])
def test_a_layer_step1_left_int16_or_int32_is_not_named(tmp_path: Path, dtype: str) -> None:
    """Measured on YOLOv8n (RKNN-Toolkit2 2.5.0): step 2 refused '/model.22/Transpose_1_output_0' (int16 in
    its step-1 cfg) and '/model.22/Unsqueeze_12_output_0' (int32), and the graph input; it took int8 ones
    and the float32 graph output."""
    yaml = pytest.importorskip("yaml")
    listed = {"x": "float32", "bn1": "int8", "r1": dtype, "y": "float32"}
    keep = [Change("keep", n) for n in ("conv1", "relu1", "conv2")]
    emit(_conv_bn_relu(), keep, tmp_path, target="int8", rknn_tensors=listed)
    text = (tmp_path / "rknn_hybrid_quantization.cfg").read_text()
    assert yaml.safe_load(text)["custom_quantize_layers"] == {"bn1": "float16", "y": "float16"}
    assert f"RKNN's step-1 cfg has 'r1' as {dtype}, which step 2 refuses to name" in text


def test_a_file_that_is_not_a_step1_cfg_is_one_clear_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from dumpscope.tui.cli.main import main

    bad = tmp_path / "bad.cfg"
    bad.write_text("custom_quantize_layers: {}\n")
    model = tmp_path / "m.onnx"
    onnx.save(_conv_bn_relu(), model)
    args = ["fix", str(model), "--target", "int8", "--rknn-cfg", str(bad)]
    assert main([*args, "--emit", str(tmp_path / "e")]) == 2
    assert "no quantize_parameters mapping" in capsys.readouterr().err
    assert main(args) == 2  # read for --emit only
    assert "give --emit DIR too" in capsys.readouterr().err
    assert not (tmp_path / "e").exists()


def test_a_fifo_given_as_the_step1_cfg_is_never_opened(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Opening a FIFO for reading blocks until a writer comes: the cfg must be a regular file."""
    import os

    from dumpscope.tui.cli.main import main

    fifo = tmp_path / "step1.cfg"
    os.mkfifo(fifo)
    model = tmp_path / "m.onnx"
    onnx.save(_conv_bn_relu(), model)
    args = ["fix", str(model), "--target", "int8", "--rknn-cfg", str(fifo), "--emit", str(tmp_path / "e")]
    assert main(args) == 2
    assert "not a regular file; not opened" in capsys.readouterr().err
