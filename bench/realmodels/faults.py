"""Injected faults: modified models and modified inputs, run through onnxruntime.

Every target of a fault case is produced by onnxruntime running a model or an input
that differs from the golden one in exactly one known place.  Dump numbers are never
edited, except :func:`nhwc_copy`, which only re-lays the golden files out the way an
NHWC vendor dump would store them (same values, transposed).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper


def _node(model: onnx.ModelProto, name: str) -> onnx.NodeProto:
    """The node called ``name`` (KeyError when absent)."""
    for node in model.graph.node:
        if node.name == name:
            return node
    raise KeyError(f"no node {name!r} in the model")


def _set_attr(node: onnx.NodeProto, name: str, value: object) -> None:
    """Replace (or add) attribute ``name`` of ``node``."""
    kept = [a for a in node.attribute if a.name != name]
    del node.attribute[:]
    node.attribute.extend([*kept, helper.make_attribute(name, value)])


def set_attribute(src: Path, dst: Path, node: str, attrs: dict[str, object]) -> Path:
    """A copy of the model at ``src`` where ``node`` has different attributes (an op implemented
    differently)."""
    model = onnx.load(str(src))
    target = _node(model, node)
    for key, value in attrs.items():
        _set_attr(target, key, value)
    onnx.save(model, str(dst))
    return dst


def producer(model: onnx.ModelProto, tensor: str) -> onnx.NodeProto:
    """The node producing ``tensor``."""
    for node in model.graph.node:
        if tensor in node.output:
            return node
    raise KeyError(f"no producer of {tensor!r}")


def map_constant(src: Path, dst: Path, tensor: str, change: Callable[[np.ndarray], np.ndarray]) -> Path:
    """A copy of the model where the Constant/initializer ``tensor`` holds ``change(value)`` (same dtype)."""
    model = onnx.load(str(src))
    for init in model.graph.initializer:
        if init.name == tensor:
            arr = numpy_helper.to_array(init)
            init.CopyFrom(numpy_helper.from_array(np.asarray(change(arr)).astype(arr.dtype), tensor))
            onnx.save(model, str(dst))
            return dst
    node = producer(model, tensor)
    arr = numpy_helper.to_array(node.attribute[0].t)
    _set_attr(node, "value", numpy_helper.from_array(np.asarray(change(arr)).astype(arr.dtype), tensor))
    onnx.save(model, str(dst))
    return dst


def set_constant(src: Path, dst: Path, tensor: str, value: float) -> Path:
    """A copy of the model where the Constant/initializer ``tensor`` holds ``value`` everywhere."""
    return map_constant(src, dst, tensor, lambda arr: np.full_like(arr, value))


def scale_constant(src: Path, dst: Path, tensor: str, factor: float) -> Path:
    """A copy of the model where the Constant/initializer ``tensor`` is multiplied by ``factor``."""
    return map_constant(src, dst, tensor, lambda arr: arr * factor)


def flip_channels(src: Path, dst: Path, tensor: str, count: int) -> Path:
    """A copy of the model where the first ``count`` output channels (axis 0) of weight ``tensor`` change
    sign."""

    def flip(arr: np.ndarray) -> np.ndarray:
        out = arr.copy()
        out[:count] = -out[:count]
        return out

    return map_constant(src, dst, tensor, flip)


def layernorm_eps(model_file: Path) -> tuple[str, str, str]:
    """(eps constant, Add output, Sqrt output) of the first decomposed LayerNorm: Sqrt(var + eps)."""
    model = onnx.load(str(model_file), load_external_data=False)
    sqrt = next(n for n in model.graph.node if n.op_type == "Sqrt")
    add = producer(model, sqrt.input[0])
    inits = {i.name for i in model.graph.initializer}
    consts = {o for n in model.graph.node if n.op_type == "Constant" for o in n.output}
    eps = next(i for i in add.input if i in inits or i in consts)
    return eps, add.output[0], sqrt.output[0]


def quantise_output(src: Path, dst: Path, tensor: str, golden_value: np.ndarray) -> Path:
    """A copy of the model where ``tensor`` passes through int8 Q/DQ with one symmetric per-tensor scale.

    This is what a vendor's int8 export does to a Concat of wide box coordinates and
    [0, 1] class scores: the scale fits the widest input, the narrow one is destroyed.
    The dequantised value keeps the name ``tensor`` so it pairs with the golden.
    """
    model = onnx.load(str(src))
    node = producer(model, tensor)
    raw, q = f"{tensor}__float", f"{tensor}__int8"
    node.output[list(node.output).index(tensor)] = raw
    scale = np.array(float(np.abs(golden_value).max()) / 127.0, dtype=np.float32)
    zero = np.array(0, dtype=np.int8)
    model.graph.initializer.extend(
        [numpy_helper.from_array(scale, f"{tensor}__scale"), numpy_helper.from_array(zero, f"{tensor}__zero")]
    )
    model.graph.node.extend(
        [
            helper.make_node(
                "QuantizeLinear", [raw, f"{tensor}__scale", f"{tensor}__zero"], [q], name=f"{tensor}__Q"
            ),
            helper.make_node(
                "DequantizeLinear", [q, f"{tensor}__scale", f"{tensor}__zero"], [tensor], name=f"{tensor}__DQ"
            ),
        ]
    )
    onnx.save(model, str(dst))
    return dst


def optimised_model(src: Path, dst: Path, level: str = "extended") -> Path:
    """onnxruntime's own optimised graph of ``src``, saved with ``SessionOptions.optimized_model_filepath``:
    ``extended`` is the graph a ``--target optimized`` dump runs; ``all`` adds the NCHWc layout
    transform (blocked tensors, ReorderInput/ReorderOutput; specific to this machine's CPU)."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = {
        "extended": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
        "all": ort.GraphOptimizationLevel.ORT_ENABLE_ALL,
    }[level]
    so.optimized_model_filepath = str(dst)
    ort.InferenceSession(str(src), so, providers=["CPUExecutionProvider"])
    original = onnx.load(str(src), load_external_data=False)
    opt = onnx.load(str(dst))
    keep = {i.name for i in original.graph.input} | {t.name for t in opt.graph.initializer}
    inputs = [i for i in opt.graph.input if i.name in keep]
    del opt.graph.input[:]
    opt.graph.input.extend(inputs)
    onnx.save(opt, str(dst))
    return dst


def fused_activation_param(src: Path, dst: Path, node: str, params: list[float]) -> Path:
    """A copy of an optimised model where fused node ``node`` has other ``activation_params``."""
    return set_attribute(src, dst, node, {"activation_params": [float(p) for p in params]})


def save_input(arr: np.ndarray, path: Path) -> Path:
    """Write a model input (no pickles)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, np.ascontiguousarray(arr), allow_pickle=False)
    return path


def nhwc_copy(golden: Path, out: Path) -> int:
    """Copy a golden dump, storing every 4-D float activation NHWC as an NHWC vendor would; return how
    many."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(golden, out)
    manifest = json.loads((out / "manifest.json").read_text())
    moved = 0
    for entry in manifest["tensors"]:
        if (
            entry.get("kind") != "activation"
            or len(entry.get("shape", [])) != 4
            or "float" not in entry.get("dtype", "")
        ):
            continue
        path = out / entry["file"]
        arr = np.load(path, allow_pickle=False)
        if arr.shape[1] == arr.shape[3]:
            continue  # an NHWC copy would not be told apart by shape alone
        np.save(path, np.ascontiguousarray(arr.transpose(0, 2, 3, 1)), allow_pickle=False)
        entry["shape"] = list(arr.transpose(0, 2, 3, 1).shape)
        moved += 1
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return moved


def plain_npy(dump: Path, out: Path, spell: Callable[[str], str] = lambda n: n.replace("/", "_")) -> int:
    """Re-store a dump as a plain folder of ``{tensor}.npy`` files, '/' replaced by '_' (or as
    ``spell`` says), no manifest.

    This is how many vendor tools and hand-written hooks save tensors; the values are
    the dump's own.  Returns the number of files written.
    """
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    manifest = json.loads((dump / "manifest.json").read_text())
    written = 0
    for entry in [*manifest.get("inputs", []), *manifest.get("tensors", [])]:
        if "file" not in entry:
            continue
        shutil.copyfile(dump / entry["file"], out / f"{spell(entry['name'])}.npy")
        written += 1
    return written


def nhwc_reshape(src: Path, dst: Path, node: str) -> Path:
    """A copy of the model whose Reshape ``node`` reads its 4-D NCHW data input as NHWC memory
    (a Transpose [0,2,3,1] in front of it; the Reshape's output keeps its name): a converter
    that lost track of the layout before a flatten."""
    model = onnx.load(str(src))
    reshape = _node(model, node)
    data = reshape.input[0]
    moved = f"{data}__as_nhwc"
    nodes = list(model.graph.node)
    at = nodes.index(reshape)
    nodes.insert(
        at, helper.make_node("Transpose", [data], [moved], name=f"{node}__as_nhwc", perm=[0, 2, 3, 1])
    )
    reshape.input[0] = moved


def clip_after(src: Path, dst: Path, tensor: str, low: float, high: float) -> Path:
    """A copy of the model where ``tensor`` is clipped to [low, high] (a target that saturates there):
    its producer now writes ``<tensor>_unclipped`` and a ``Clip`` node named ``<tensor>_saturate``
    writes ``tensor``."""
    model = onnx.load(str(src))
    node = producer(model, tensor)
    node.output[list(node.output).index(tensor)] = f"{tensor}_unclipped"
    bounds = [
        numpy_helper.from_array(np.array(v, np.float32), f"{tensor}_saturate_{k}")
        for k, v in (("low", low), ("high", high))
    ]
    model.graph.initializer.extend(bounds)
    clip = helper.make_node(
        "Clip", [f"{tensor}_unclipped", *(b.name for b in bounds)], [tensor], name=f"{tensor}_saturate"
    )
    nodes = list(model.graph.node)
    nodes.insert(nodes.index(node) + 1, clip)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    onnx.save(model, str(dst))
    return dst


def hwc_as_nchw(x: np.ndarray) -> np.ndarray:
    """An NCHW image's values laid out HWC and handed over as NCHW (same shape, same values)."""
    return np.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(x.shape)


def quantised_dynamic(src: Path, dst: Path) -> Path:
    """onnxruntime's own ``quantize_dynamic`` of the model (uint8 weights; activations quantised at run
    time)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(_initialized(src, dst)), str(dst), weight_type=QuantType.QUInt8)
    return dst


def _initialized(src: Path, dst: Path) -> Path:
    """A copy of the model whose Constant nodes are initializers (onnxruntime's quantiser wants its
    weights as initializers; Paddle exports write them as Constant nodes)."""
    model = onnx.load(str(src))
    consts = [
        n
        for n in model.graph.node
        if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value"
    ]
    for node in consts:
        model.graph.initializer.append(
            numpy_helper.from_array(numpy_helper.to_array(node.attribute[0].t), node.output[0])
        )
        model.graph.node.remove(node)
    out = dst.with_name(dst.stem + ".float.onnx")
    onnx.save(model, str(out))
    return out


class _Feeds:
    """A calibration data reader over the golden inputs (one batch)."""

    def __init__(self, feeds: dict[str, np.ndarray]) -> None:
        self._left = [feeds]

    def get_next(self) -> dict[str, np.ndarray] | None:
        return self._left.pop() if self._left else None


def quantised_static(src: Path, dst: Path, feeds: dict[str, Path]) -> Path:
    """onnxruntime's own ``quantize_static`` of the model in QDQ format (int8 per-tensor, calibrated on
    the golden inputs)."""
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static

    arrays = {name: np.load(path, allow_pickle=False) for name, path in feeds.items()}
    quantize_static(
        str(_initialized(src, dst)),
        str(dst),
        _Feeds(arrays),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QInt8,
        weight_type=QuantType.QInt8,
        calibrate_method=CalibrationMethod.MinMax,
    )
    return dst


def quantised_outputs(golden_model: Path, target_model: Path) -> tuple[str, ...]:
    """Outputs of the golden model's nodes that the quantiser rewrote in ``target_model``: produced there
    by another op type (``quantize_dynamic``'s ConvInteger/MatMulInteger chains end in a Mul or Add
    that keeps the name), or by a node reading a DequantizeLinear output (QDQ)."""
    golden = onnx.load(str(golden_model), load_external_data=False)
    target = onnx.load(str(target_model), load_external_data=False)
    made = {out: node for node in target.graph.node for out in node.output}
    dq = {out for node in target.graph.node if node.op_type == "DequantizeLinear" for out in node.output}
    found = []
    for node in golden.graph.node:
        for out in node.output:
            mine = made.get(out)
            if mine is not None and (mine.op_type != node.op_type or any(i in dq for i in mine.input)):
                found.append(out)
    return tuple(found)
