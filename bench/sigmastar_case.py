"""The SigmaStar proof case (issue 11): seed 004's workflow on a real CNN.

    python -m bench.sigmastar_case OUT_DIR [--screenshot]   # --screenshot: screenshots/sigmastar.svg

The model is PaddleOCR's PP-OCRv4 text detector (a MobileNetV3 backbone and a DB head,
real weights; ``ch_PP-OCRv4_det_infer.onnx`` from the pinned rapidocr-onnxruntime wheel,
see ``bench/realmodels/models.py``), run on a 64x64 image.  Everything is computed by onnxruntime:

* **framework**: the float model, every activation, graph optimisations off;
* **float.sim**: the same model with onnxruntime's graph optimisations on (fused
  kernels: float noise only);
* **fixed.sim**: the model with SigmaStar-style per-tensor fake quantisation --
  ``QuantizeLinear``/``DequantizeLinear`` after every activation (and the image
  input), uint8 asymmetric (SGS_U8) or int16 symmetric (SGS_S16, onnxruntime's
  ``com.microsoft`` int16 kernels).  The image input is uint8 (as fixed.sim takes
  it), every activation int16 except the root cause: one convolution whose input range
  is wider than 20 kept 8-bit (uint8 input and output, int8 per-tensor weights), the
  candidate that onnxruntime shows losing most.

The dumps are written with dumpscope's SigmaStar writer in SigmaStar's binary record
format, NHWC as SigmaStar lays 4-D tensors out (fixed.sim as ``dequantFixed`` float
records that keep their SGS type, scale and zero point), plus the framework dump as an
NCHW ``.npz`` (the framework's own layout, so the square tensor N=1, C=H=W is
ambiguous by shape).  Only this script (through ``bench.realmodels.models``) may touch
the network, to fetch the model wheel once.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

from dumpscope.core.formats.sigmastar import SgsTensor, write_sigmastar

MODEL_KEY = "ppocr-det"
#: The image size: at 64x64 several tensors are [1, 32, 32, 32] (N=1, C=H=W).
SIZE = 64
#: Wider than this and 8-bit is not enough (seed 004 §3.2.6).
WIDE = 20.0
#: Amplitude of the calibration set's noise images (the test image spans [-1, 1]).
CALIBRATION_AMPLITUDE = 4.0
#: All-8-bit case: how much wider than its values the root cause's calibrated range is (outliers in
#: the calibration set).
WIDEN = 32.0
_SKIP = {"Constant", "Shape", "Cast", "Slice", "Concat", "Identity", "Reshape"}


@dataclass
class Case:
    """Where the dumps are and what the truth is."""

    root: Path
    model: Path
    framework_bin: Path
    framework_npz: Path
    float_sim: Path
    fixed_sim: Path
    root_cause: str
    root_range: tuple[float, float]
    square: str
    """A tensor with N=1, C=H=W ("" when the model at this size has none)."""
    types: dict[str, str] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    layer: Layer8 | None = None


def _constant_tensors(model: onnx.ModelProto) -> set[str]:
    """Tensors computed from initializers and constants only (weights, not activations)."""
    const = {i.name for i in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Constant" or all(i in const for i in node.input if i):
            const.update(node.output)
    return const


def activations(model: onnx.ModelProto) -> list[tuple[str, onnx.NodeProto]]:
    """(tensor, producing node) of every activation, in graph order."""
    const = _constant_tensors(model)
    return [(n.output[0], n) for n in model.graph.node if n.op_type not in _SKIP and n.output[0] not in const]


def _run(model: onnx.ModelProto, names: list[str], x: np.ndarray, optimise: bool) -> dict[str, np.ndarray]:
    m = onnx.ModelProto()
    m.CopyFrom(model)
    have = {o.name for o in m.graph.output}
    for name in names:
        if name not in have:
            m.graph.output.append(helper.make_empty_tensor_value_info(name))
    so = ort.SessionOptions()
    so.graph_optimization_level = (
        ort.GraphOptimizationLevel.ORT_ENABLE_ALL if optimise else ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    )
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    outs = sess.run(names, {sess.get_inputs()[0].name: x})
    return dict(zip(names, outs, strict=False))


def image(height: int = SIZE, width: int = SIZE) -> np.ndarray:
    """A deterministic smooth 'photo', normalised as the model's pre-processing does ((x/255 - 0.5)/0.5)."""
    yy, xx = np.mgrid[0:height, 0:width] / np.array([height, width], dtype=np.float64)[:, None, None]
    rgb = np.stack([np.sin(6 * xx + 2 * yy), np.cos(5 * yy - 3 * xx), np.sin(9 * xx * yy + 1)])
    pixels = np.round((rgb * 0.5 + 0.5) * 255)
    return ((pixels / 255 - 0.5) / 0.5).astype(np.float32)[None]


def _scale6(v: float) -> float:
    """A scale that six decimals (SigmaStar's header ``s: %f``) hold exactly, never rounded down."""
    return max(math.ceil(v * 1e6) / 1e6, 1e-6)


def calibration(
    model: onnx.ModelProto, order: list[str], x: np.ndarray, images: int = 4
) -> dict[str, tuple[float, float]]:
    """Per-tensor (min, max) over a calibration set: the test image and ``images`` noise
    images of :data:`CALIBRATION_AMPLITUDE` times the normalised range (a set that is not
    representative: its ranges are wider than the test image's, which 16 bits absorb and
    8 bits do not)."""
    rng = np.random.default_rng(11)
    runs = [_run(model, order, x, optimise=False)]
    noise = (
        rng.uniform(-CALIBRATION_AMPLITUDE, CALIBRATION_AMPLITUDE, x.shape).astype(np.float32)
        for _ in range(images)
    )
    runs += [_run(model, order, n, optimise=False) for n in noise]
    return {n: (min(float(r[n].min()) for r in runs), max(float(r[n].max()) for r in runs)) for n in order}


def quant_params(a: np.ndarray | tuple[float, float], sgs_type: str) -> tuple[float, int]:
    """Per-tensor (scale, zero point) over a tensor's values or a calibrated (min, max):
    uint8 asymmetric with 0 exact, int16 symmetric."""
    lo, hi = (float(a.min()), float(a.max())) if isinstance(a, np.ndarray) else a
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if sgs_type == "SGS_S16":
        return _scale6(max(abs(lo), abs(hi)) / 32767), 0
    scale = _scale6((hi - lo) / 255)
    return scale, int(np.clip(round(-lo / scale), 0, 255))


def fake_quant(
    model: onnx.ModelProto,
    types: dict[str, str],
    params: dict[str, tuple[float, int]],
    int8_weights: tuple[str, ...] = (),
) -> onnx.ModelProto:
    """The model with Q/DQ after every listed tensor (consumers and outputs see the
    dequantised value) and on the listed weights (int8, per-tensor symmetric)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    nodes = [n for w in int8_weights for n in _weight_qdq(w, m)]
    for node in m.graph.node:
        for i, name in enumerate(node.input):
            if name in int8_weights:
                node.input[i] = name + "__dq"
        produced = [o for o in node.output if o in types]
        for i, o in enumerate(node.output):
            if o in types:
                node.output[i] = o + "__float"
        nodes.append(node)
        nodes += [n for o in produced for n in _qdq(o + "__float", o, types[o], params[o], m)]
    graph_in = m.graph.input[0].name
    if graph_in in types:
        for node in nodes:
            for i, name in enumerate(node.input):
                if name == graph_in:
                    node.input[i] = graph_in + "__dq"
        nodes = _qdq(graph_in, graph_in + "__dq", types[graph_in], params[graph_in], m) + nodes
    del m.graph.node[:]
    m.graph.node.extend(nodes)
    return m


def constant_values(m: onnx.ModelProto) -> dict[str, np.ndarray]:
    """Initializers and ``Constant`` node outputs by name."""
    out = {i.name: onnx.numpy_helper.to_array(i) for i in m.graph.initializer}
    for node in m.graph.node:
        if node.op_type == "Constant":
            attr = next((a for a in node.attribute if a.name == "value"), None)
            if attr is not None:
                out[node.output[0]] = onnx.numpy_helper.to_array(attr.t)
    return out


def _weight_qdq(name: str, m: onnx.ModelProto) -> list[onnx.NodeProto]:
    """QuantizeLinear + DequantizeLinear of one weight initializer, int8 per-tensor symmetric."""
    w = constant_values(m)[name]
    scale = _scale6(float(np.abs(w).max()) / 127)
    m.graph.initializer.extend(
        [
            helper.make_tensor(name + "__wscale", TensorProto.FLOAT, [], [scale]),
            helper.make_tensor(name + "__wzp", TensorProto.INT8, [], [0]),
        ]
    )
    return [
        helper.make_node("QuantizeLinear", [name, name + "__wscale", name + "__wzp"], [name + "__q"]),
        helper.make_node(
            "DequantizeLinear", [name + "__q", name + "__wscale", name + "__wzp"], [name + "__dq"]
        ),
    ]


def _qdq(
    src: str, dst: str, sgs_type: str, qp: tuple[float, int], m: onnx.ModelProto
) -> list[onnx.NodeProto]:
    """QuantizeLinear + DequantizeLinear of one tensor (int16 through onnxruntime's com.microsoft kernels)."""
    scale, zp = qp
    dtype = TensorProto.INT16 if sgs_type == "SGS_S16" else TensorProto.UINT8
    s_name, z_name = dst + "__scale", dst + "__zp"
    m.graph.initializer.extend(
        [
            helper.make_tensor(s_name, TensorProto.FLOAT, [], [scale]),
            helper.make_tensor(z_name, dtype, [], [zp]),
        ]
    )
    domain = "com.microsoft" if sgs_type == "SGS_S16" else ""
    return [
        helper.make_node("QuantizeLinear", [src, s_name, z_name], [dst + "__q"], domain=domain),
        helper.make_node("DequantizeLinear", [dst + "__q", s_name, z_name], [dst], domain=domain),
    ]


def _nhwc(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a.transpose(0, 2, 3, 1)) if a.ndim == 4 else a


def _records(
    values: dict[str, np.ndarray],
    nodes: dict[str, str],
    order: list[str],
    inputs: dict[str, list[str]],
    types: dict[str, str] | None = None,
    params: dict[str, tuple[float, int]] | None = None,
) -> list[SgsTensor]:
    """Each op's ``//in`` records (its activation inputs) then its ``//out`` record, as the simulator dumps
    them."""
    out = []
    for k, name in enumerate(order):
        for j, src in enumerate(inputs.get(name, [])):
            out.append(_record(src, values, nodes[name], k, types, params, role="in", index=j))
        out.append(_record(name, values, nodes[name], k, types, params))
    return out


def _record(
    name: str,
    values: dict[str, np.ndarray],
    op: str,
    k: int,
    types: dict[str, str] | None,
    params: dict[str, tuple[float, int]] | None,
    role: str = "out",
    index: int = 0,
) -> SgsTensor:
    sgs_type = (types or {}).get(name, "float")
    scale, zp = (params or {}).get(name, (1.0, 0)) if sgs_type != "float" else (1.0, 0)
    return SgsTensor(
        name,
        _nhwc(values[name]).astype(np.float32),
        op,
        k,
        sgs_type=sgs_type,
        scale=scale,
        zero_point=zp,
        role=role,
        index=index,
        pad_bytes=(-values[name].size * 4) % 64,
    )


@dataclass(frozen=True)
class Layer8:
    """The root cause: a convolution whose input range is wider than 20, kept 8-bit
    (uint8 input and output, int8 per-tensor weights) while the rest is int16."""

    conv: str
    wide_input: str
    output: str
    weight: str


def conv_candidates(model: onnx.ModelProto, values: dict[str, np.ndarray], order: list[str]) -> list[Layer8]:
    """Convolutions past the stem whose input range exceeds 20 (weights constant)."""
    later = set(order[10:])
    consts = constant_values(model)
    out = []
    for node in model.graph.node:
        x = node.input[0] if node.input else ""
        if node.op_type == "Conv" and node.output[0] in later and x in values and node.input[1] in consts:
            if float(values[x].max() - values[x].min()) > WIDE:
                out.append(Layer8(node.name or node.output[0], x, node.output[0], node.input[1]))
    return out


def layer_types(order: list[str], layer: Layer8 | None, rest: str = "SGS_S16") -> dict[str, str]:
    """``rest`` (SGS_S16) everywhere but the 8-bit layer's input and output (SGS_U8)."""
    kept = {layer.wide_input, layer.output} if layer else set()
    return {n: ("SGS_U8" if n in kept else rest) for n in order}


def _relative_l1(a: np.ndarray, b: np.ndarray) -> float:
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    return float(np.abs(a64 - b64).sum() / np.abs(b64).sum())


def choose_layer(
    model: onnx.ModelProto,
    values: dict[str, np.ndarray],
    order: list[str],
    x: np.ndarray,
    ranges: dict[str, tuple[float, float]],
) -> Layer8:
    """The candidate whose 8-bit run (computed by onnxruntime) loses most at its own output."""
    best: tuple[float, Layer8] | None = None
    for layer in conv_candidates(model, values, order):
        types = layer_types(order, layer)
        params = {n: quant_params(ranges[n], types[n]) for n in (layer.wide_input, layer.output)}
        only = {n: types[n] for n in params}
        run = _run(fake_quant(model, only, params, (layer.weight,)), [layer.output], x, optimise=False)
        loss = _relative_l1(run[layer.output], values[layer.output])
        if best is None or loss > best[0]:
            best = (loss, layer)
    if best is None:
        raise RuntimeError("no convolution with an input range above 20 in the middle of the network")
    return best[1]


def build(out: Path, model_path: Path, size: tuple[int, int] = (SIZE, SIZE), rest: str = "SGS_S16") -> Case:
    """Write the four dumps and a truth file under ``out``; returns the case.

    ``rest="SGS_U8"``: every activation 8-bit, calibrated on the test image, but the root cause's input and
    output calibrated :data:`WIDEN` times too wide: one 8-bit layer whose range is far too wide among
    well-calibrated ones."""
    out.mkdir(parents=True, exist_ok=True)
    model = onnx.load(str(model_path))
    onnx.save(model, str(out / "model.onnx"))
    acts = activations(model)
    order = [n for n, _ in acts]
    nodes = {n: node.name or n for n, node in acts}
    x = image(*size)
    graph_in = model.graph.input[0].name
    framework = _run(model, order, x, optimise=False)
    floats = {n for n in order if framework[n].dtype == np.float32 and framework[n].size}  # no shape maths
    acts = [(n, node) for n, node in acts if n in floats]
    order = [n for n in order if n in floats]
    floatsim = _run(model, order, x, optimise=True)
    framework[graph_in] = floatsim[graph_in] = x
    nodes[graph_in] = graph_in
    order = [graph_in, *order]
    ranges = calibration(model, order[1:], x)
    ranges[graph_in] = (-1.0, 1.0)  # the image after (p/255 - 0.5)/0.5
    layer = choose_layer(model, framework, order[1:], x, ranges)
    if rest == "SGS_U8":  # the test image's own ranges everywhere, the root cause's WIDEN times too wide
        ranges = {**calibration(model, order[1:], x, images=0), graph_in: ranges[graph_in]}
        ranges.update(
            {n: (ranges[n][0] * WIDEN, ranges[n][1] * WIDEN) for n in (layer.wide_input, layer.output)}
        )
    root = layer.output
    types = layer_types(order[1:], layer, rest)
    types[graph_in] = "SGS_U8"
    params = {n: quant_params(ranges[n], types[n]) for n in order}
    fixed = _run(fake_quant(model, types, params, (layer.weight,)), order[1:], x, optimise=False)
    fixed[graph_in] = _dequantised_input(x, params[graph_in])
    square = next((n for n in order if framework[n].ndim == 4 and len(set(framework[n].shape[1:])) == 1), "")
    case = Case(
        out,
        out / "model.onnx",
        out / "framework" / "onnx_NHWC_outtensor_dump.bin",
        out / "framework.npz",
        out / "float_sim" / "sigma_outtensor_dump.bin",
        out / "fixed_sim" / "sigma_outtensor_dump.bin",
        root,
        (float(framework[root].min()), float(framework[root].max())),
        square,
        types,
        order,
    )
    for p in (case.framework_bin, case.float_sim, case.fixed_sim):
        p.parent.mkdir(parents=True, exist_ok=True)
    inputs = {n: [i for i in node.input if i in framework] for n, node in acts}
    write_sigmastar(case.framework_bin, _records(framework, nodes, order, {}), is_float=True, trailer=False)
    write_sigmastar(case.float_sim, _records(floatsim, nodes, order, inputs), is_float=True)
    write_sigmastar(case.fixed_sim, _records(fixed, nodes, order, inputs, types, params), is_float=True)
    np.savez(case.framework_npz, **{n: framework[n] for n in order})
    case.layer = layer
    truth = {
        "root_cause": root,
        "conv": layer.conv,
        "wide_input": layer.wide_input,
        "input_range": [float(framework[layer.wide_input].min()), float(framework[layer.wide_input].max())],
        "square": square,
        "types": types,
    }
    (out / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
    return case


def _dequantised_input(x: np.ndarray, qp: tuple[float, int]) -> np.ndarray:
    """The fixed.sim's uint8 image input, dequantised (onnxruntime's own Q/DQ of the input)."""
    m = helper.make_model(
        helper.make_graph(
            [
                helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
                helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"]),
            ],
            "qdq",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(x.shape))],
            [
                helper.make_tensor("s", TensorProto.FLOAT, [], [qp[0]]),
                helper.make_tensor("z", TensorProto.UINT8, [], [qp[1]]),
            ],
        ),
        opset_imports=[helper.make_opsetid("", 13)],
    )
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.realmodels.models import model_path

    args = list(sys.argv[1:] if argv is None else argv)
    shots = "--screenshot" in args
    args = [a for a in args if a != "--screenshot"]
    out = Path(args[0] if args else "sigmastar_case")
    case = build(out, model_path(MODEL_KEY))
    print(
        f"root cause {case.root_cause!r} range {case.root_range}; square tensor {case.square!r}; dumps "
        f"under {out}"
    )
    if shots:  # screenshots/sigmastar.svg, made by the app on this pair
        import asyncio

        from screenshots.make import sigmastar_screenshots

        for path in asyncio.run(sigmastar_screenshots(Path("screenshots"), case.float_sim, case.fixed_sim)):
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
