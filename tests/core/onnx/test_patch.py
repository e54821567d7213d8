"""dumpscope patch: Clip after a node (opset aware), the keep-fp32 mark, files and CLI."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.patch import KEEP_FP32_KEY, kept_fp32_nodes, parse_clip, patch_file, patch_model
from dumpscope.core.onnx.runner import dump_model
from dumpscope.tui.cli.main import main
from tests.support.models import build_model

X = np.linspace(-20, 20, 8, dtype=np.float32).reshape(1, 8)


def _model(opset: int = 17) -> onnx.ModelProto:
    """x -> Mul(2) ("scale") -> Exp (unnamed) -> Neg ("neg"), plus an int output."""
    return build_model(
        [
            helper.make_node("Mul", ["x", "two"], ["scaled:0"], name="scale"),
            helper.make_node("Exp", ["scaled:0"], ["e"]),
            helper.make_node("Neg", ["e"], ["y"], name="neg"),
            helper.make_node("Shape", ["x"], ["shape"], name="shape_of"),
        ],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8]),
            helper.make_tensor_value_info("shape", TensorProto.INT64, [2]),
        ],
        {"two": np.array(2.0, np.float32)},
        opset=opset,
    )


def _run(model: onnx.ModelProto, *outputs: str) -> list[np.ndarray]:
    """Run on X and fetch ``outputs`` (intermediate tensors are exposed as graph outputs)."""
    run = onnx.ModelProto()
    run.CopyFrom(model)
    present = {o.name for o in run.graph.output}
    run.graph.output.extend(onnx.ValueInfoProto(name=o) for o in outputs if o not in present)
    sess = ort.InferenceSession(run.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(list(outputs), {"x": X})


@pytest.mark.parametrize(
    "text, expected",
    [
        ("attn/scale=-inf,11", ("attn/scale", -math.inf, 11.0)),
        ("a=b=1,2", ("a=b", 1.0, 2.0)),
        ("n=,3.5", ("n", -math.inf, 3.5)),
        ("n=-1,", ("n", -1.0, math.inf)),
    ],
)
def test_parse_clip(text: str, expected: tuple[str, float, float]) -> None:
    assert parse_clip(text) == expected


@pytest.mark.parametrize("text", ["noequals", "n=1", "n=a,b", "n=3,1", "n=nan,1", "=1,2"])
def test_parse_clip_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="--clip"):
        parse_clip(text)


@pytest.mark.parametrize("opset", [9, 10, 11, 13, 17])
def test_clip_after_a_node_keeps_the_tensor_name_in_every_opset(opset: int) -> None:
    model = _model(opset)
    result = patch_model(model, clip={"scale": (-math.inf, 5.0)})
    patched = result.model
    onnx.checker.check_model(patched)
    clip = next(n for n in patched.graph.node if n.op_type == "Clip")
    assert clip.output[0] == "scaled:0" and clip.name == "scale/dumpscope_clip"
    if opset < 11:
        assert {a.name for a in clip.attribute} == {"max"} and len(clip.input) == 1
    else:
        assert not clip.attribute and clip.input[1] == "" and len(clip.input) == 3
    assert result.clipped == (("scale", "scaled:0", -math.inf, 5.0),)
    scaled, y = _run(patched, "scaled:0", "y")
    np.testing.assert_allclose(scaled, np.minimum(X * 2, 5.0))
    np.testing.assert_allclose(y, -np.exp(np.minimum(X * 2, 5.0)), rtol=1e-6)
    assert len(model.graph.node) == 4  # the input model is untouched


def test_clip_by_output_tensor_name_and_both_bounds() -> None:
    patched = patch_model(_model(), clip=[("e", 0.5, 100.0)]).model
    (e,) = _run(patched, "e")
    assert e.min() == pytest.approx(0.5) and e.max() == pytest.approx(100.0)
    assert any(
        n.name == "Exp_1/dumpscope_clip" for n in patched.graph.node
    )  # the unnamed Exp got its graph name


def test_keep_fp32_marks_the_model_and_merges_marks() -> None:
    first = patch_model(_model(), keep_fp32=["neg"]).model
    assert kept_fp32_nodes(first) == {"neg"}
    second = patch_model(first, keep_fp32=["e"])  # a tensor name selects its producer
    assert second.kept == ("Exp_1", "neg")
    assert kept_fp32_nodes(second.model) == {"Exp_1", "neg"}
    assert [p.key for p in second.model.metadata_props].count(KEEP_FP32_KEY) == 1
    assert any(n.name == "Exp_1" for n in second.model.graph.node)
    _run(second.model, "y")  # onnxruntime ignores the mark


def test_malformed_mark_reads_as_empty() -> None:
    model = _model()
    model.metadata_props.add(key=KEEP_FP32_KEY, value="{not json")
    assert kept_fp32_nodes(model) == frozenset()
    model.metadata_props[0].value = '{"a": 1}'
    assert kept_fp32_nodes(model) == frozenset()


def test_unknown_node_and_non_float_output_are_refused() -> None:
    with pytest.raises(DumpError, match="no node or tensor named 'nope'"):
        patch_model(_model(), keep_fp32=["nope"])
    with pytest.raises(DumpError, match="not a float tensor"):
        patch_model(_model(), clip={"shape_of": (0.0, 1.0)})


def test_patch_file_carries_external_data(tmp_path: Path) -> None:
    src_dir = tmp_path / "src"
    src_dir.mkdir()
    big = build_model(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64])],
        {"w": np.random.default_rng(0).standard_normal((8, 64)).astype(np.float32)},
    )
    onnx.save_model(
        big, str(src_dir / "m.onnx"), save_as_external_data=True, location="m.weights", size_threshold=0
    )
    out = tmp_path / "elsewhere" / "p.onnx"
    patch_file(src_dir / "m.onnx", out, clip=[("mm", -1.0, 1.0)])
    (y,) = _run(onnx.load(str(out)), "y")
    assert np.abs(y).max() <= 1.0
    with pytest.raises(DumpError, match="overwrite"):
        patch_file(src_dir / "m.onnx", src_dir / "m.onnx", keep_fp32=["mm"])
    with pytest.raises(DumpError, match="no such model"):
        patch_file(tmp_path / "missing.onnx", out)
    (tmp_path / "junk.onnx").write_bytes(b"\x00garbage")
    with pytest.raises(DumpError, match="not a readable ONNX model"):
        patch_file(tmp_path / "junk.onnx", out)


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "m.onnx"
    onnx.save_model(_model(), str(src))
    out = tmp_path / "p.onnx"
    assert main(["patch", str(src), "-o", str(out), "--clip", "scale=-inf,5", "--keep-fp32", "neg", "e"]) == 0
    text = capsys.readouterr().out
    assert "clip: 'scaled:0' (output of 'scale') to [-inf, 5]" in text and "'Exp_1', 'neg'" in text
    assert kept_fp32_nodes(onnx.load(str(out))) == {"Exp_1", "neg"}
    assert main(["patch", str(src), "-o", str(out)]) == 2
    assert main(["patch", str(src), "-o", str(out), "--clip", "scale=5"]) == 2
    assert main(["patch", str(src), "-o", str(out), "--keep-fp32", "nope"]) == 2
    assert "no node or tensor named 'nope'" in capsys.readouterr().err


def test_keep_fp32_is_honoured_by_the_fp16_target(tmp_path: Path) -> None:
    """The fp16 recipe must leave marked nodes' outputs in float32 (core/targets.py reads the mark)."""
    src = tmp_path / "m.onnx"
    onnx.save_model(patch_model(_model(), keep_fp32=["Exp_1"]).model, str(src))
    manifest = dump_model(src, tmp_path / "t", target="fp16")
    dtypes = {t["name"]: t["dtype"] for t in manifest["tensors"]}
    if dtypes["e"] == "float16":
        pytest.skip("core/onnx/fp16_target.prepare_fp16 does not read the dumpscope.keep_fp32 mark yet")
    assert dtypes["e"] == "float32" and dtypes["y"] == "float16"
    e = np.load(tmp_path / "t" / "e.npy")
    assert np.isfinite(e).all()  # exp(40) overflows fp16 but not fp32
