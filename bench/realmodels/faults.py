"""Injected faults: modified models and modified inputs, run through onnxruntime.

Every target of a fault case is produced by onnxruntime running a model or an input
that differs from the golden one in exactly one known place.  Dump numbers are never
edited, except :func:`nhwc_copy`, which only re-lays the golden files out the way an
NHWC vendor dump would store them (same values, transposed).
"""

from __future__ import annotations

import json
import shutil
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
    """A copy of the model at ``src`` where ``node`` has different attributes (an op implemented differently)."""
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


def set_constant(src: Path, dst: Path, tensor: str, value: float) -> Path:
    """A copy of the model where the Constant/initializer ``tensor`` holds ``value`` everywhere."""
    model = onnx.load(str(src))
    for init in model.graph.initializer:
        if init.name == tensor:
            arr = numpy_helper.to_array(init)
            init.CopyFrom(numpy_helper.from_array(np.full_like(arr, value), tensor))
            onnx.save(model, str(dst))
            return dst
    node = producer(model, tensor)
    arr = numpy_helper.to_array(node.attribute[0].t)
    _set_attr(node, "value", numpy_helper.from_array(np.full_like(arr, value), tensor))
    onnx.save(model, str(dst))
    return dst


def scale_constant(src: Path, dst: Path, tensor: str, factor: float) -> Path:
    """A copy of the model where the Constant/initializer ``tensor`` is multiplied by ``factor``."""
    model = onnx.load(str(src))
    for init in model.graph.initializer:
        if init.name == tensor:
            arr = numpy_helper.to_array(init)
            init.CopyFrom(numpy_helper.from_array((arr * factor).astype(arr.dtype), tensor))
            onnx.save(model, str(dst))
            return dst
    node = producer(model, tensor)
    arr = numpy_helper.to_array(node.attribute[0].t)
    _set_attr(node, "value", numpy_helper.from_array((arr * factor).astype(arr.dtype), tensor))
    onnx.save(model, str(dst))
    return dst


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
    model.graph.initializer.extend([numpy_helper.from_array(scale, f"{tensor}__scale"),
                                    numpy_helper.from_array(zero, f"{tensor}__zero")])
    model.graph.node.extend([
        helper.make_node("QuantizeLinear", [raw, f"{tensor}__scale", f"{tensor}__zero"], [q], name=f"{tensor}__Q"),
        helper.make_node("DequantizeLinear", [q, f"{tensor}__scale", f"{tensor}__zero"], [tensor], name=f"{tensor}__DQ"),
    ])
    onnx.save(model, str(dst))
    return dst


def optimised_model(src: Path, dst: Path) -> Path:
    """onnxruntime's extended-optimised graph of ``src`` (the graph a ``--target optimized`` dump runs)."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
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
    """Copy a golden dump, storing every 4-D float activation NHWC as an NHWC vendor would; return how many."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(golden, out)
    manifest = json.loads((out / "manifest.json").read_text())
    moved = 0
    for entry in manifest["tensors"]:
        if entry.get("kind") != "activation" or len(entry.get("shape", [])) != 4 or "float" not in entry.get("dtype", ""):
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


def plain_npy(dump: Path, out: Path) -> int:
    """Re-store a dump as a plain folder of ``{tensor}.npy`` files, '/' replaced by '_', no manifest.

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
        shutil.copyfile(dump / entry["file"], out / f"{entry['name'].replace('/', '_')}.npy")
        written += 1
    return written


def clip_after(src: Path, dst: Path, tensor: str, low: float, high: float) -> Path:
    """A copy of the model where ``tensor`` is clipped to [low, high] (a target that saturates there):
    its producer now writes ``<tensor>_unclipped`` and a ``Clip`` node named ``<tensor>_saturate``
    writes ``tensor``."""
    model = onnx.load(str(src))
    node = producer(model, tensor)
    node.output[list(node.output).index(tensor)] = f"{tensor}_unclipped"
    bounds = [numpy_helper.from_array(np.array(v, np.float32), f"{tensor}_saturate_{k}")
              for k, v in (("low", low), ("high", high))]
    model.graph.initializer.extend(bounds)
    clip = helper.make_node("Clip", [f"{tensor}_unclipped", *(b.name for b in bounds)], [tensor],
                            name=f"{tensor}_saturate")
    nodes = list(model.graph.node)
    nodes.insert(nodes.index(node) + 1, clip)
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    onnx.save(model, str(dst))
    return dst
