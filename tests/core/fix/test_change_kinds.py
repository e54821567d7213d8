"""The change kinds beyond a kept node: an input kept in float32, an input clipped, an int8 weight per
channel, an int8 calibration range.  Each on a small built model where it is the needed fix
(tests/support/models.py ``make_fix_case``), found by the search, and checked by an independent
computation: numpy's float16/bfloat16 storage for fp16/bf16, onnxruntime's own quantizer called directly
for int8; then written in each toolchain's terms and read back by the tool where it installs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import onnx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dumpscope.core.dumps import DumpError
from dumpscope.core.fix import find_fix
from dumpscope.core.fix.search import Change, changes_from_commands
from tests.support.models import make_fix_case

F16_MAX = 65504.0


def _dist(golden: np.ndarray, target: np.ndarray) -> float:
    """||t - g|| / ||g|| in float64; inf where a value is not finite."""
    g, t = np.asarray(golden, np.float64), np.asarray(target, np.float64)
    if not np.isfinite(t).all():
        return math.inf
    return float(np.linalg.norm(t - g) / np.linalg.norm(g))


def _f16(a: np.ndarray) -> np.ndarray:
    """float16 storage (inf beyond 65504, as fp16 hardware stores it), back in float32."""
    with np.errstate(over="ignore"):
        return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)


def _fix(tmp_path: Path, case: str, target: str, budget: int = 10):  # type: ignore[no-untyped-def]
    model, x = make_fix_case(tmp_path, case)
    result = find_fix(model, target, inputs=[f"x={x}"], budget=budget, use_diagnosis=False)
    return model, np.load(x), result


def _proofs_hold(result) -> None:  # type: ignore[no-untyped-def]
    """Found, 1-minimal, and each change's proof is a trial of the final set without it, failing."""
    assert result.found and result.minimal
    for n in result.needed:
        proof = result.trials[n.trial - 1]
        assert set(proof.changes) == set(result.changes) - {n.change} and not proof.passed


# ------------------------------------------------------------ fp16 / bf16: the graph input


def test_an_input_beyond_fp16_is_kept_in_float32(tmp_path: Path) -> None:
    _, x, result = _fix(tmp_path, "input-beyond-fp16", "fp16")
    _proofs_hold(result)
    assert result.changes == (Change("keep_input", "x"),)
    assert "reaches 1.2e+05, beyond float16's 65504" in result.reasons[result.changes[0]]
    # Independently: float16 storage of every tensor (numpy), the weight stored too, the input kept or not.
    s = _f16(np.float32(1e-5))
    golden = np.tanh(x.astype(np.float64) * 1e-5)
    kept = _f16(np.tanh(_f16(x * s)))
    rounded = _f16(np.tanh(_f16(_f16(x) * s)))
    assert _dist(golden, kept) <= 0.01 < _dist(golden, rounded)
    assert result.after.worst_output[1] == pytest.approx(_dist(golden, kept), rel=1e-3)
    assert result.before.worst_output[1] == pytest.approx(_dist(golden, rounded), rel=1e-3)


def test_an_input_whose_readers_overflow_too_is_clipped_to_the_fp16_range(tmp_path: Path) -> None:
    _, x, result = _fix(tmp_path, "input-slightly-beyond", "fp16")
    _proofs_hold(result)
    assert result.changes == (Change("clip_input", "x", -F16_MAX, F16_MAX),)
    assert "and so do the nodes reading it" in result.reasons[result.changes[0]]
    s = _f16(np.float32(1e-3))
    golden = np.maximum(x.astype(np.float64), 0) * 1e-3
    clipped = _f16(_f16(np.maximum(_f16(np.clip(_f16(x), -F16_MAX, F16_MAX)), 0)) * s)
    as_is = _f16(_f16(np.maximum(_f16(x), 0)) * s)
    assert _dist(golden, clipped) <= 0.01 and math.isinf(_dist(golden, as_is))
    assert result.after.worst_output[1] == pytest.approx(_dist(golden, clipped), rel=1e-3)
    assert math.isinf(result.before.worst_output[1])


def test_bf16_keeps_an_input_that_rounding_wipes_out(tmp_path: Path) -> None:
    import ml_dtypes

    _, x, result = _fix(tmp_path, "bf16-offset", "bf16")
    _proofs_hold(result)
    assert result.changes == (Change("keep_input", "x"),)
    # keeping the node first did not help (it reads the rounded input); the input was tried next
    assert [c.text("bf16") for t in result.trials for c in t.changes][:1] == ["keep 'center' in float32"]
    bf = lambda a: np.asarray(a, np.float32).astype(ml_dtypes.bfloat16).astype(np.float64)  # noqa: E731
    golden = x.astype(np.float64) - 1000
    kept = bf(x - np.float32(1000))
    assert _dist(golden, kept) <= 0.03 < _dist(golden, bf(bf(x) - 1000))
    assert result.after.worst_output[1] == pytest.approx(_dist(golden, kept), rel=1e-3)


# ------------------------------------------------------------ int8: onnxruntime's quantizer, called directly


def _quantised_run(model: Path, x: np.ndarray, tmp_path: Path, **options: object) -> np.ndarray:
    """The QDQ int8 model onnxruntime's quantize_static makes of ``model`` (MinMax on ``x``), run on ``x``."""
    import onnxruntime as ort
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.feeds = iter([{"x": x}])

        def get_next(self):  # type: ignore[no-untyped-def]
            return next(self.feeds, None)

    out = tmp_path / f"q{len(list(tmp_path.glob('q*.onnx')))}.onnx"
    quantize_static(
        str(model),
        str(out),
        Reader(),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QInt8,
        weight_type=QuantType.QInt8,
        **options,  # type: ignore[arg-type]
    )
    # Run as the QDQ graph says (each QuantizeLinear/DequantizeLinear pair rounds and clamps in float), not
    # through the int8 kernels the CPU provider fuses it into: on an x86 CPU without VNNI those saturate
    # (onnxruntime's quantization docs, U8S8). int8-channel-spread's per-channel model measured 0.18
    # through them on an AMD EPYC without VNNI, within 0.1 as its graph computes; the accelerator the fix
    # is for runs the QDQ model's arithmetic, not this host's kernels.
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(str(out), options, providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


def _golden(model: Path, x: np.ndarray) -> np.ndarray:
    import onnxruntime as ort

    return ort.InferenceSession(str(model), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def test_int8_weight_channels_that_spread_are_quantised_per_channel(tmp_path: Path) -> None:
    model, x, result = _fix(tmp_path, "int8-channel-spread", "int8")
    _proofs_hold(result)
    assert result.changes == (Change("per_channel", "conv"),)
    assert "45 x the median channel" in result.reasons[result.changes[0]]
    golden = _golden(model, x)
    per_tensor = _dist(golden, _quantised_run(model, x, tmp_path, per_channel=False))
    per_channel = _dist(golden, _quantised_run(model, x, tmp_path, per_channel=True))
    assert per_channel <= result.tolerance.output < per_tensor
    assert per_channel == pytest.approx(result.after.worst_output[1], rel=1e-6)
    assert result.before.worst_output[1] == pytest.approx(per_tensor, rel=1e-6)
    assert result.after.worst_output[1] == pytest.approx(per_channel, rel=1e-6)


def test_int8_input_with_an_outlier_gets_a_percentile_range(tmp_path: Path) -> None:
    model, x, result = _fix(tmp_path, "int8-hot-pixel", "int8")
    _proofs_hold(result)
    (change,) = result.changes
    from dumpscope.core.fix.candidates import PERCENTILE

    # Independently: the low and high percentiles as order statistics of the sorted input
    v = np.sort(x.reshape(-1).astype(np.float64))
    q = PERCENTILE / 100
    lo, hi = v[math.ceil((1 - q) * (v.size - 1))], v[math.floor(q * (v.size - 1))]
    assert (change.kind, change.node) == ("calibrate", "x") and (change.low, change.high) == (lo, hi)
    assert lo >= 0 and hi < 1  # the dead pixel is outside it
    golden = _golden(model, x)
    given = {"TensorQuantOverrides": {"x": [{"rmin": np.float32(lo), "rmax": np.float32(hi)}]}}
    ranged = _dist(golden, _quantised_run(model, x, tmp_path, extra_options=given))
    minmax = _dist(golden, _quantised_run(model, x, tmp_path))
    assert ranged <= 0.1 < minmax
    assert result.after.worst_output[1] == pytest.approx(ranged, rel=1e-6)


def test_a_hot_pixel_that_travels_gets_every_stretched_range_at_once(tmp_path: Path) -> None:
    """The pixel's range travels through the float model the calibration runs: no one change helps, every
    outlier-stretched activation calibrated at once does (the nodes stay quantised), each range proven
    needed; onnxruntime's quantizer, given those ranges directly, makes the same int8 model."""
    model, x, result = _fix(tmp_path, "int8-hot-pixel-travels", "int8", budget=16)
    _proofs_hold(result)
    assert [(c.kind, c.node) for c in result.changes] == [("calibrate", t) for t in ("x", "y1", "y2")]
    golden = _golden(model, x)
    ranges = {c.node: [{"rmin": np.float32(c.low), "rmax": np.float32(c.high)}] for c in result.changes}
    ranged = _dist(golden, _quantised_run(model, x, tmp_path, extra_options={"TensorQuantOverrides": ranges}))
    assert ranged <= 0.1 < _dist(golden, _quantised_run(model, x, tmp_path))
    assert result.after.worst_output[1] == pytest.approx(ranged, rel=1e-6)
    assert all(c.high < 300 for c in result.changes)  # the pixel (and what it makes) is outside each range


# ------------------------------------------------------------ the patch, and the diagnosis' advice


def test_patch_clips_a_graph_input_and_marks_the_rest(tmp_path: Path) -> None:
    import onnxruntime as ort

    from dumpscope.core.onnx.int8_target import tensor_quant_overrides
    from dumpscope.core.onnx.patch import int8_overrides, kept_fp32_inputs, patch_model

    path, xfile = make_fix_case(tmp_path, "input-slightly-beyond")
    model = onnx.load(path)
    patched = patch_model(
        model, clip=[("x", -5.0, 40000.0)], keep_inputs=["x"], per_channel=["scale"], ranges=[("r", 0, 9)]
    ).model
    onnx.checker.check_model(patched)
    first = patched.graph.node[0]
    assert first.op_type == "Clip" and first.input[0] == "x"
    assert patched.graph.node[1].input[0] == first.output[0]  # the Relu now reads the clipped input
    x = np.load(xfile)
    got = ort.InferenceSession(patched.SerializeToString()).run(None, {"x": x})[0]
    np.testing.assert_array_equal(got, np.maximum(np.clip(x, -5, 40000), 0) * np.float32(1e-3))
    assert kept_fp32_inputs(patched) == {"x"}
    assert int8_overrides(patched) == (frozenset({"scale"}), {"r": (0.0, 9.0)})
    assert tensor_quant_overrides(patched) == {"r": [{"rmin": 0.0, "rmax": 9.0}]}  # Mul has no weight axis
    with pytest.raises(DumpError, match="no graph input named 'y'"):
        patch_model(model, keep_inputs=["y"])
    assert kept_fp32_inputs(model) == frozenset() and int8_overrides(model) == (frozenset(), {})


def test_a_malformed_int8_mark_is_left_out() -> None:
    from onnx import helper

    from dumpscope.core.onnx.patch import INT8_KEY, int8_overrides

    model = helper.make_model(helper.make_graph([], "g", [], []))
    for value, want in (
        ("not json", (frozenset(), {})),
        (
            '{"per_channel": "conv", "ranges": {"a": [1, 0], "b": [0, "x"], "c": [-1, 2]}}',
            (frozenset(), {"c": (-1.0, 2.0)}),
        ),
    ):
        del model.metadata_props[:]
        model.metadata_props.add(key=INT8_KEY, value=value)
        assert int8_overrides(model) == want


def test_an_advised_clip_of_a_graph_input_is_a_clip_input() -> None:
    cmds = ["dumpscope patch m.onnx -o p.onnx --clip x=-inf,65504 --clip relu=0,9"]
    assert changes_from_commands(cmds, {"relu", "r"}, ("x",)) == [
        Change("clip_input", "x", -math.inf, 65504.0),
        Change("clip", "relu", 0.0, 9.0),
    ]


# ------------------------------------------------------------ each toolchain's terms, read back


def test_a_kept_input_is_its_readers_kept_and_onnxconverter_common_meets_the_tolerance(
    tmp_path: Path,
) -> None:
    """onnxconverter-common's own conversion of model.fixed.onnx with the emitted keywords: 'norm' reads the
    float32 input itself, where keep_io_types alone feeds it a Cast to float16 (inf beyond 65504); the
    conversion runs in onnxruntime within the tolerance.  (onnxruntime's CPU provider would not show the
    overflow of the other: it removes a float32 -> float16 -> float32 Cast pair, so that side is judged
    by the graph.)"""
    import onnxruntime as ort

    from dumpscope.core.fix.emit import FILES, emit

    f16 = pytest.importorskip("onnxconverter_common.float16")
    path, xfile = make_fix_case(tmp_path, "input-beyond-fp16")
    out = tmp_path / "e"
    assert [p.name for p in emit(onnx.load(path), [Change("keep_input", "x")], out)] == list(FILES)
    conf = json.loads((out / "onnxconverter_common.json").read_text())
    assert conf["node_block_list"] == ["norm"] and conf["keep_io_types"] is True
    assert conf["_comment"] == [
        "input 'x' kept in float32: its readers (norm) are listed as kept, so they compute from it in float32"
    ]
    fixed = onnx.load(out / "model.fixed.onnx")

    def norm_reads(model: onnx.ModelProto) -> tuple[str, int | None]:
        """What 'norm' reads first: the graph input itself, or a Cast's output (and the Cast's type)."""
        onnx.checker.check_model(model)
        norm = next(n for n in model.graph.node if n.name == "norm")
        cast = next((n for n in model.graph.node if norm.input[0] in n.output and n.op_type == "Cast"), None)
        return (norm.input[0], None) if cast is None else (cast.input[0], cast.attribute[0].i)

    kwargs = {k: v for k, v in conf.items() if k != "_comment"}
    assert norm_reads(f16.convert_float_to_float16(fixed, **kwargs)) == ("x", None)
    assert norm_reads(f16.convert_float_to_float16(fixed, keep_io_types=True)) == (
        "x",
        onnx.TensorProto.FLOAT16,
    )
    x = np.load(xfile)
    run = ort.InferenceSession(f16.convert_float_to_float16(fixed, **kwargs).SerializeToString())
    assert _dist(np.tanh(x.astype(np.float64) * 1e-5), run.run(None, {"x": x})[0]) <= 0.01
    assert (out / "atc_keep_dtype.cfg").read_text() == "norm\n"
    atc = (out / "atc_command.txt").read_text().splitlines()
    assert atc[0].startswith("atc --model=model.fixed.onnx --framework=5 ")
    assert "--precision_mode_v2=mixed_float16 --keep_dtype=atc_keep_dtype.cfg" in atc[0]
    assert atc[1].startswith("# input 'x' kept in float32: do not name it in --input_fp16_nodes")
    assert "--layerPrecisions=norm:fp32" in (out / "tensorrt_layer_precisions.txt").read_text()


def test_an_input_clip_is_in_the_fixed_model_and_every_list_says_so(tmp_path: Path) -> None:
    import configparser

    import onnxruntime as ort

    yaml = pytest.importorskip("yaml")
    from dumpscope.core.fix.emit import emit

    path, xfile = make_fix_case(tmp_path, "input-slightly-beyond")
    out = tmp_path / "e"
    emit(onnx.load(path), [Change("clip_input", "x", -F16_MAX, F16_MAX)], out)
    x = np.load(xfile)
    fixed = ort.InferenceSession(str(out / "model.fixed.onnx")).run(None, {"x": x})[0]
    np.testing.assert_array_equal(fixed, np.maximum(np.clip(x, -F16_MAX, F16_MAX), 0) * np.float32(1e-3))
    said = "input 'x' clipped to [-65504, 65504]"
    for name in ("onnxconverter_common.json", "nncf_ignored_scope.json", "onnxruntime_quantization.json"):
        notes = json.loads((out / name).read_text())["_comment"]
        assert len(notes) == 1 and ("clip input 'x'" in notes[0] or said in notes[0]), name
    for name in ("atc_command.txt", "tensorrt_layer_precisions.txt", "rknn_hybrid_quantization.cfg"):
        assert f"# {said}" in (out / name).read_text(), name
    assert (out / "atc_keep_dtype.cfg").read_text() == ""  # nothing kept
    ini = configparser.ConfigParser(comment_prefixes=("#",))
    ini.read_string((out / "sigmastar_input_config.ini").read_text())  # still parses, the note a comment
    assert said in (out / "sigmastar_input_config.ini").read_text()
    assert yaml.safe_load((out / "rknn_hybrid_quantization.cfg").read_text()) == {
        "custom_quantize_layers": None
    }


@pytest.mark.parametrize("case", ["int8-channel-spread", "int8-hot-pixel"])
def test_int8_changes_are_onnxruntime_quantizer_options_that_meet_the_tolerance(
    tmp_path: Path, case: str
) -> None:
    """The emitted quantize_static keywords, handed to onnxruntime's quantizer as they are (rmin/rmax as
    numpy.float32, as the file says), make an int8 model within the tolerance, as the trial found; the
    other toolchains' files say what they cannot express."""
    from dumpscope.core.fix.emit import INT8_HOST_NOTE, emit

    model, x, result = _fix(tmp_path, case, "int8")
    out = tmp_path / "e"
    emit(onnx.load(model), result.changes, out, "int8")
    conf = json.loads((out / "onnxruntime_quantization.json").read_text())
    # how the tolerance was checked (the QDQ graph as written, as _quantised_run below) and the host caveat
    assert conf["_comment"][-1] == INT8_HOST_NOTE and "reduce_range=True" in INT8_HOST_NOTE
    overrides = conf["extra_options"]["TensorQuantOverrides"]
    for entries in overrides.values():
        for o in entries:
            o.update({k: np.float32(o[k]) for k in ("rmin", "rmax") if k in o})
    kwargs = {k: v for k, v in conf.items() if k != "_comment"}
    assert kwargs["nodes_to_exclude"] == [] and kwargs["per_channel"] is False
    got = _dist(_golden(model, x), _quantised_run(model, x, tmp_path, **kwargs))
    assert got <= result.tolerance.output and got == pytest.approx(result.after.worst_output[1], rel=1e-6)
    (change,) = result.changes
    if change.kind == "per_channel":
        assert overrides == {"w": [{"axis": 0}]}
        assert "quantized_method='channel'" in (out / "rknn_hybrid_quantization.cfg").read_text()
    else:
        assert overrides == {"x": [{"rmin": change.low, "rmax": change.high}]}
        assert "quantized_algorithm='mmse'" in (out / "rknn_hybrid_quantization.cfg").read_text()
        assert "set_dynamic_range" in (out / "tensorrt_layer_precisions.txt").read_text()
    assert json.loads((out / "nncf_ignored_scope.json").read_text())["_comment"] == [
        f"{change.text('int8')}: NNCF's ignored_scope has no per-node setting for it; "
        "see onnxruntime_quantization.json"
    ]
    assert "# int8: ATC does not quantise" in (out / "atc_command.txt").read_text()


def test_every_kind_is_a_patch_option_and_the_patched_model_holds_it(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A fix as ``dumpscope patch`` options (what ``demo --fix`` runs): the command writes a model whose
    marks and Clips are the changes, and says each."""
    from dumpscope.core.fix.emit import patch_arguments
    from dumpscope.core.onnx.patch import int8_overrides, kept_fp32_inputs, kept_fp32_nodes
    from dumpscope.tui.cli.main import main

    path, _ = make_fix_case(tmp_path, "input-slightly-beyond")
    changes = [
        Change("keep", "scale"),
        Change("keep_input", "x"),
        Change("per_channel", "scale"),
        Change("clip_input", "x", -math.inf, 65504.0),
        Change("calibrate", "r", -1.5, 2.5),
    ]
    argv = patch_arguments(changes)
    assert argv == [
        "--keep-fp32", "scale", "--keep-fp32-input", "x", "--int8-per-channel", "scale",
        "--clip", "x=-inf,65504.0", "--int8-range", "r=-1.5,2.5",
    ]  # fmt: skip
    assert main(["patch", str(path), "-o", str(tmp_path / "p.onnx"), *argv]) == 0
    printed = capsys.readouterr().out
    assert (
        "clip: 'x' (graph input) to [-inf, 65504]" in printed
        and "int8 range: 'r' calibrated to [-1.5, 2.5]" in printed
    )
    patched = onnx.load(tmp_path / "p.onnx")
    assert kept_fp32_nodes(patched) == {"scale"} and kept_fp32_inputs(patched) == {"x"}
    assert int8_overrides(patched) == (frozenset({"scale"}), {"r": (-1.5, 2.5)})
    assert patched.graph.node[0].op_type == "Clip" and patched.graph.node[0].input[0] == "x"
    assert main(["patch", str(path), "-o", str(tmp_path / "q.onnx"), "--int8-range", "r=-inf,2"]) == 2
    assert "--int8-range 'r=-inf,2': both bounds must be finite" in capsys.readouterr().err


# ------------------------------------------------------------ the facts behind a proposal, in float64


@settings(max_examples=40, deadline=None)
@given(
    arrays(np.float32, st.integers(2, 400), elements=st.floats(-10, 10, width=32)),
    st.floats(50, 1e4),
)
def test_an_outlier_range_is_the_order_statistics_and_leaves_the_outlier_out(
    a: np.ndarray, spike: float
) -> None:
    from types import SimpleNamespace as NS

    from dumpscope.core.fix.candidates import PERCENTILE, SPREAD, _outliers

    a = a.copy()
    a[0] = spike
    ev = NS(golden={"t": a}, inputs=[], facts=NS(initializers=frozenset()))
    got = _outliers(ev, NS(name="n", inputs=("t",)))  # type: ignore[arg-type]
    v = np.sort(a.astype(np.float64))
    mags = np.sort(np.abs(v))
    typical = mags[math.floor(PERCENTILE / 100 * (v.size - 1))]
    if not (typical > 0 and mags[-1] >= SPREAD * typical):
        assert got == []
        return
    ((change, why),) = got
    lo, hi = (
        v[math.ceil((1 - PERCENTILE / 100) * (v.size - 1))],
        v[math.floor(PERCENTILE / 100 * (v.size - 1))],
    )
    assert (change.kind, change.node, change.low, change.high) == ("calibrate", "t", lo, hi)
    assert hi < spike and f"{mags[-1] / typical:.3g} x" in why


@settings(max_examples=40, deadline=None)
@given(arrays(np.float32, (6, 3, 2, 2), elements=st.floats(-5, 5, width=32)), st.floats(1, 100))
def test_a_channel_spread_is_the_largest_channel_over_the_median_channel(w: np.ndarray, big: float) -> None:
    from types import SimpleNamespace as NS

    from onnx import helper, numpy_helper

    from dumpscope.core.fix.candidates import SPREAD, _channel_spread

    w = w.copy()
    w[0, 0, 0, 0] = big
    proto = helper.make_model(helper.make_graph([], "g", [], [], [numpy_helper.from_array(w, "w")]))
    ev = NS(proto=proto, source_dir=None, facts=NS(initializers=frozenset({"w"})))
    got = _channel_spread(ev, NS(name="conv", op_type="Conv", inputs=("x", "w"), outputs=("y",)))  # type: ignore[arg-type]
    per = [max(abs(float(v)) for v in w[c].reshape(-1)) for c in range(6)]
    median = sorted(per)[2] / 2 + sorted(per)[3] / 2
    if not (median > 0 and max(per) >= SPREAD * median):
        assert got is None
        return
    change, why = got
    assert change == Change("per_channel", "conv")
    assert f"{max(per) / median:.3g} x the median channel" in why


def test_same_input_same_fix_with_the_new_kinds(tmp_path: Path) -> None:
    runs = [
        json.dumps(_fix(tmp_path / str(i), "int8-hot-pixel", "int8")[2].to_json(), sort_keys=True)
        for i in range(2)
        if (tmp_path / str(i)).mkdir() is None
    ]
    assert runs[0] == runs[1] and '"kind": "calibrate"' in runs[0] and '"reason": "' in runs[0]


def test_an_unknown_change_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown change kind 'unfuse'"):
        Change("unfuse", "conv")
