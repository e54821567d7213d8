"""Independent replay of one node (onnxruntime, float32) to test what a diagnosis claims.

For the node dumpscope ranks first, the corpus replays it alone from the dump files:

* with the **target's** inputs and the golden constants: when that reproduces the
  target's output, the node faithfully computed what it was fed (its error is
  inherited or amplified); when it does not, the target computes it differently;
* with the golden inputs and the **target's** constants against the golden constants:
  the effect of a clamped/flushed/changed constant alone.

This is the check issue 10 item 4 asks the product to do; here it only grades answers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper

from bench.realmodels.numerics import rel_error

_FLOATS = ("float16", "float32", "float64", "bfloat16")


def _entries(dump: Path) -> dict[str, dict[str, Any]]:
    manifest = json.loads((dump / "manifest.json").read_text())
    return {e["name"]: e for e in [*manifest.get("tensors", []), *manifest.get("inputs", [])] if "file" in e}


def _node_model(model: onnx.ModelProto, node: onnx.NodeProto, feeds: dict[str, np.ndarray]) -> bytes:
    """A one-node model computing ``node`` from ``feeds`` (all graph inputs)."""
    inputs = [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
        for n, a in feeds.items()
    ]
    outputs = [helper.make_empty_tensor_value_info(o) for o in node.output if o]
    graph = helper.make_graph([node], "replay", inputs, outputs)
    one = helper.make_model(graph, opset_imports=list(model.opset_import), ir_version=model.ir_version)
    return one.SerializeToString()


def _run(model: onnx.ModelProto, node: onnx.NodeProto, feeds: dict[str, np.ndarray]) -> np.ndarray:
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(_node_model(model, node, feeds), so, providers=["CPUExecutionProvider"])
    return np.asarray(session.run([node.output[0]], feeds)[0])


def _feeds(
    node: onnx.NodeProto, dumps: dict[str, tuple[Path, dict]], golden_dtypes: dict[str, str]
) -> dict[str, np.ndarray]:
    """Each input of ``node`` from the dump chosen for its kind, in the golden dtype."""
    feeds = {}
    for name in [i for i in node.input if i]:
        dump, entries = dumps["constant" if golden_dtypes[name][1] == "constant" else "flowing"]
        arr = np.load(dump / entries[name]["file"], allow_pickle=False)
        dtype = golden_dtypes[name][0]
        feeds[name] = arr.astype(dtype) if arr.dtype.name in _FLOATS else arr
    return feeds


def _locate(
    model_file: Path, gt: dict, tt: dict, tensor: str
) -> tuple[onnx.ModelProto, onnx.NodeProto] | str:
    """The golden model and the node producing ``tensor``, or why it cannot be replayed."""
    entry = gt.get(tensor)
    if entry is None or tensor not in tt or not entry.get("node_name"):
        return f"{tensor!r} is not a node output in both dumps"
    model = onnx.load(str(model_file))
    node = next((n for n in model.graph.node if n.name == entry["node_name"] and tensor in n.output), None)
    if node is None or node.output[0] != tensor:
        return f"node of {tensor!r} not found in the golden model"
    if any(i and (i not in gt or i not in tt) for i in node.input):
        return "an input of the node is missing from a dump"
    return model, node


def replay(model_file: Path, golden: Path, target: Path, tensor: str) -> dict[str, Any]:
    """Replay the producer of ``tensor`` (see the module docstring); a dict of relative errors."""
    if not (golden / "manifest.json").is_file() or not (target / "manifest.json").is_file():
        return {"note": "plain .npy folders: no manifest to replay from"}
    gt, tt = _entries(golden), _entries(target)
    found = _locate(model_file, gt, tt, tensor)
    if isinstance(found, str):
        return {"note": found}
    model, node = found
    entry = gt[tensor]
    kinds = {
        n: (np.load(golden / gt[n]["file"], allow_pickle=False).dtype, gt[n].get("kind"))
        for n in node.input
        if n
    }
    g_out = np.load(golden / entry["file"], allow_pickle=False).astype(np.float64)
    t_out = np.load(target / tt[tensor]["file"], allow_pickle=False).astype(np.float64)
    both = {"golden": (golden, gt), "target": (target, tt)}
    try:
        fed_target = _run(
            model, node, _feeds(node, {"flowing": both["target"], "constant": both["golden"]}, kinds)
        )
        target_consts = _run(
            model, node, _feeds(node, {"flowing": both["golden"], "constant": both["target"]}, kinds)
        )
        plain = _run(
            model, node, _feeds(node, {"flowing": both["golden"], "constant": both["golden"]}, kinds)
        )
    except Exception as exc:  # noqa: BLE001 - onnxruntime's pybind errors have no common base
        return {"note": f"replay failed: {str(exc).splitlines()[0][:200]}"}
    facts = {
        "node": node.name,
        "op_type": node.op_type,
        "target_error": rel_error(g_out, t_out),
        "replay_with_target_inputs_vs_target": rel_error(t_out, fed_target.astype(np.float64)),
        "replay_with_target_inputs_error": rel_error(g_out, fed_target.astype(np.float64)),
        "constant_effect": rel_error(plain.astype(np.float64), target_consts.astype(np.float64)),
    }
    facts["says"] = verdict(facts)
    return facts


def verdict(facts: dict[str, Any]) -> str:
    """'constant' when the target's constants alone explain the error, 'introduced' when the node
    adds it (fed the target's inputs it stays much closer to the golden), else 'inherited'."""
    err = facts["target_error"]
    if err == 0:
        return "clean"
    if facts["constant_effect"] >= 0.5 * err:
        return "constant"
    return "introduced" if facts["replay_with_target_inputs_error"] < 0.5 * err else "inherited"
