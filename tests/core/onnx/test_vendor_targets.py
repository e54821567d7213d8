"""`dumpscope dump --target rknn-int8|rknn-fp16|openvino-int8`: the vendor's own toolkit makes the target.

The toolkits are optional extras, never installed for the default test run: the missing-toolkit line
is always tested; the OpenVINO run skips without openvino/nncf; the RKNN driver is checked with a
stand-in for ``rknn.api`` that writes the real snapshot of tests/data/rknn (the toolkit itself,
~5.6 GB, lives in a venv of its own: tests/test_rknn_real.py holds what this driver made with it).
"""

from __future__ import annotations

import shutil
import sys
import types
from pathlib import Path

import numpy as np
import onnx
import polars as pl
import pytest
from onnx import TensorProto, helper

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.formats import open_dump
from dumpscope.core.onnx import vendor_targets
from dumpscope.core.onnx.runner import dump_model
from dumpscope.tui.cli.main import main
from tests.support.models import build_model
from tests.support.paths import DATA as DATA_DIR

SNAP = DATA_DIR / "rknn" / "int8" / "snapshot"


def _conv_model(tmp_path: Path) -> Path:
    """x[1,3,16,16] -> Conv -> Relu -> Conv -> Sigmoid -> y (seeded weights)."""
    rng = np.random.default_rng(3)
    w1 = (rng.standard_normal((8, 3, 3, 3)) * 0.4).astype(np.float32)
    w2 = (rng.standard_normal((4, 8, 3, 3)) * 0.2).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["conv1.out"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["conv1.out"], ["relu1.out"], name="relu1"),
        helper.make_node("Conv", ["relu1.out", "w2"], ["conv2.out"], name="conv2", pads=[1, 1, 1, 1]),
        helper.make_node("Sigmoid", ["conv2.out"], ["y"], name="sig"),
    ]
    model = build_model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 16, 16])],
        {"w1": w1, "w2": w2},
    )
    path = tmp_path / "conv.onnx"
    onnx.save_model(model, str(path))
    return path


@pytest.mark.parametrize(
    "target, words",
    [
        ("rknn-int8", ("RKNN-Toolkit2", "pip install 'dumpscope[rknn]'")),
        ("rknn-fp16", ("RKNN-Toolkit2", "pip install 'dumpscope[rknn]'")),
        ("openvino-int8", ("OpenVINO and NNCF", "pip install 'dumpscope[openvino]'")),
        ("openvino-fp16", ("OpenVINO", "pip install 'dumpscope[openvino]'")),
        ("ncnn", ("ncnn and pnnx", "pip install 'dumpscope[ncnn]'")),
    ],
)
def test_missing_toolkit_is_one_line_with_the_pip_command(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    target: str,
    words: tuple[str, str],
) -> None:
    monkeypatch.setattr(vendor_targets, "_installed", lambda module: False)
    out = tmp_path / "out"
    code = main(["dump", str(_conv_model(tmp_path)), "-o", str(out), "--target", target])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert all(w in err for w in words) and f"--target {target}" in err
    assert not out.exists()  # nothing written


def _fake_rknn(calls: list[tuple[str, object]]) -> types.ModuleType:
    """A stand-in for ``rknn.api`` that records the calls and writes the real fixture snapshot."""

    class RKNN:
        def __init__(self, verbose: bool = False) -> None:
            calls.append(("RKNN", verbose))

        def config(self, **kw: object) -> int:
            calls.append(("config", kw))
            return 0

        def load_onnx(self, **kw: object) -> int:
            calls.append(("load_onnx", kw))
            return 0

        def build(self, **kw: object) -> int:
            calls.append(("build", kw))
            dataset = kw.get("dataset")
            if dataset is not None:  # the calibration list names the saved inputs
                files = Path(str(dataset)).read_text().split()
                assert files and all(Path(f).is_file() for f in files)
            return 0

        def accuracy_analysis(self, inputs: list[str], output_dir: str, target: object) -> int:
            calls.append(("accuracy_analysis", (inputs, target)))
            for item in SNAP.iterdir():
                dest = Path(output_dir) / item.name
                shutil.copytree(item, dest) if item.is_dir() else shutil.copy(item, dest)
            return 0

        def release(self) -> None:
            calls.append(("release", None))

    api = types.ModuleType("rknn.api")
    api.RKNN = RKNN  # type: ignore[attr-defined]
    return api


def test_rknn_target_drives_the_toolkit_and_the_folder_reads_as_its_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[str, object]] = []
    monkeypatch.setattr(vendor_targets, "_installed", lambda module: True)
    monkeypatch.setitem(sys.modules, "rknn", types.ModuleType("rknn"))
    monkeypatch.setitem(sys.modules, "rknn.api", _fake_rknn(calls))
    out = tmp_path / "rk"
    code = main(["dump", str(_conv_model(tmp_path)), "-o", str(out), "--target", "rknn-int8"])
    assert code == 0 and f"`dumpscope {out}`" in capsys.readouterr().out
    steps = [name for name, _ in calls]
    assert steps == ["RKNN", "config", "load_onnx", "build", "accuracy_analysis", "release"]
    kw = dict(calls)
    assert kw["config"] == {"target_platform": "rk3588"}
    assert kw["load_onnx"]["inputs"] == ["x"] and kw["load_onnx"]["input_size_list"] == [[1, 3, 16, 16]]
    assert kw["build"]["do_quantization"] is True
    assert kw["accuracy_analysis"][1] is None  # the simulator, no board
    assert (out / "rknn_target.json").is_file() and (out / "inputs" / "x.npy").is_file()
    assert not (out / "inputs" / "rknn_dataset.txt").exists()
    assert open_dump(out).format == "rknn-snapshot" and open_dump(out).meta["rknn_side"] == "simulator"


def test_rknn_step_failure_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[str, object]] = []
    api = _fake_rknn(calls)
    api.RKNN.build = lambda self, **kw: -1  # type: ignore[attr-defined]
    monkeypatch.setattr(vendor_targets, "_installed", lambda module: True)
    monkeypatch.setitem(sys.modules, "rknn", types.ModuleType("rknn"))
    monkeypatch.setitem(sys.modules, "rknn.api", api)
    out = tmp_path / "rk"
    code = main(["dump", str(_conv_model(tmp_path)), "-o", str(out), "--target", "rknn-fp16"])
    err = capsys.readouterr().err
    assert code == 2 and "RKNN-Toolkit2 build failed (ret=-1)" in err and not out.exists()
    assert ("release", None) in calls


needs_openvino = pytest.mark.skipif(
    vendor_targets.missing_toolkit("openvino-int8") is not None,
    reason="openvino and nncf not installed (pip install 'dumpscope[openvino]')",
)


@needs_openvino
def test_openvino_int8_dump_pairs_by_onnx_names_with_fake_quantize_scales(tmp_path: Path) -> None:
    model = _conv_model(tmp_path)
    dump_model(model, tmp_path / "golden")
    record = vendor_targets.dump_vendor(
        model,
        tmp_path / "ov",
        target="openvino-int8",
        inputs=[f"x={tmp_path / 'golden' / 'inputs' / 'x.npy'}"],
    )
    assert any("add_outputs" in n for n in record["notes"])
    cmp = compare(tmp_path / "golden", tmp_path / "ov", model=model, workers=1)
    f = cmp.frame
    both = f.filter((pl.col("side") == "both") & (pl.col("kind") == "activation"))
    assert set(both["name"]) == {"conv1.out", "relu1.out", "conv2.out", "y"}
    assert (both["band"] == "int8").all() and (both["cosine_similarity"] > 0.99).all()
    target = open_dump(tmp_path / "ov")
    quant = dict(target.tensors["relu1.out"].info.extra)  # the FakeQuantize NNCF put before conv2
    scale = float(quant["quant_scale"])
    golden = open_dump(tmp_path / "golden").tensors["relu1.out"].load()
    assert 0 < scale and float(golden.max()) <= (255 + 0.5) * scale * 1.01  # its range covers the input
    x_golden = open_dump(tmp_path / "golden").tensors["x"].load()
    np.testing.assert_array_equal(target.tensors["x"].load(), x_golden)  # the very same input
    from dumpscope.core import vocabulary as v
    from dumpscope.core.diagnosis.advice import target_kind, vendor_remedy

    kind = target_kind(cmp)
    assert kind.toolkit == "openvino-int8"
    remedy = str(vendor_remedy(kind, v.QUANTISATION, "conv2"))
    assert "ignored_scope=nncf.IgnoredScope(names=['conv2'])" in remedy
    assert vendor_remedy(kind, v.LAYOUT, "conv2") is None
    assert target_kind(compare(tmp_path / "golden", tmp_path / "golden", workers=1)).toolkit is None


def test_an_f16_hint_on_a_cpu_without_fp16_is_refused_not_run_as_f32() -> None:
    refused = vendor_targets.precision_refusal(["FP32", "INT8", "BIN"], "f16")
    assert refused is not None and "no FP16 instructions" in refused and "f32 with f32" in refused
    assert "reports FP32, INT8, BIN" in refused and "not written" in refused
    assert vendor_targets.precision_refusal(None, "f16") is not None  # unknown: not trusted either
    assert vendor_targets.precision_refusal(["FP32", "BF16"], "f16") is not None  # BF16 is not FP16
    assert vendor_targets.precision_refusal(["FP32", "FP16"], "f16") is None


needs_openvino_runtime = pytest.mark.skipif(
    vendor_targets.missing_toolkit("openvino-fp16") is not None,
    reason="openvino not installed (pip install 'dumpscope[openvino]')",
)


@needs_openvino_runtime
def test_openvino_fp16_writes_nothing_on_a_cpu_without_fp16(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(vendor_targets, "_cpu_caps", lambda core: ["FP32", "INT8"])
    out = tmp_path / "ov16"
    code = main(["dump", str(_conv_model(tmp_path)), "-o", str(out), "--target", "openvino-fp16"])
    err = capsys.readouterr().err
    assert code == 2 and "f32 with f32" in err and not out.exists()


@needs_openvino_runtime
def test_openvino_fp16_runs_in_f16_where_the_cpu_has_it(tmp_path: Path) -> None:
    import openvino as ov

    caps = list(ov.Core().get_property("CPU", "OPTIMIZATION_CAPABILITIES"))
    if "FP16" not in caps:
        pytest.skip(f"this CPU reports no FP16 ({caps}): the refusal is tested above")
    model = _conv_model(tmp_path)
    dump_model(model, tmp_path / "golden")
    x = [f"x={tmp_path / 'golden' / 'inputs' / 'x.npy'}"]
    record = vendor_targets.dump_vendor(model, tmp_path / "ov", target="openvino-fp16", inputs=x)
    assert record["inference_precision"] == "f16" and "reports f16" in record["notes"][0]
    f = compare(tmp_path / "golden", tmp_path / "ov", model=model, workers=1).frame
    both = f.filter((pl.col("side") == "both") & (pl.col("kind") == "activation"))
    assert (
        set(both["name"]) == {"conv1.out", "relu1.out", "conv2.out", "y"} and (both["band"] == "fp16").all()
    )
    golden, target = open_dump(tmp_path / "golden"), open_dump(tmp_path / "ov")
    for name in ("conv1.out", "conv2.out"):  # f16 arithmetic, not f32: independent float64 distance
        g = golden.tensors[name].load().astype(np.float64)
        t = target.tensors[name].load().astype(np.float64)
        rel = float(np.linalg.norm(g - t) / np.linalg.norm(g))
        assert 1e-5 < rel < 1e-2, (name, rel)
