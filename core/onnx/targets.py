"""What onnxruntime runs for a golden or a hardware-free target dump.

A recipe turns the user's model into a :class:`Prepared` run: an ONNX file that
onnxruntime loads (written to a private work directory, never next to the user's
model), the tensors to fetch from it and, for each, the *original* tensor name it
is dumped under, so golden and target pair by name.

This module holds what every recipe shares (:class:`Prepared`, the model files, the
onnxruntime session) and the golden run; each target recipe has its module
(:mod:`~dumpscope.core.onnx.fp16_target`, :mod:`~dumpscope.core.onnx.int8_target`,
:mod:`~dumpscope.core.onnx.optimized_target`).

Recipes:

``golden``
    The model as is; every node output becomes a graph output.
``fp16``
    onnxruntime's CPU provider lacks float16 kernels for many operators, so fp16
    hardware is emulated by *storage* rounding instead of fp16 arithmetic: every
    float initializer and Constant is rounded to float16 (finite values beyond
    +-65504 are clamped and non-zero values below the fp16 subnormal range are
    flushed to 0 - both recorded in ``clamped``), and every float node output (and
    graph input) goes through ``Cast(to=FLOAT16)`` then ``Cast`` back for its
    consumers.  The float16 tensor is what gets dumped, as float16, under the
    original name.  Values beyond 65504 become inf exactly as on fp16 hardware, so
    overflow propagates like it does there.  Arithmetic inside an operator stays in
    float32 (real fp16 kernels accumulate in fp32 too on most accelerators), and
    graph input/output types are unchanged.  A node a ``--keep-fp32`` patch marks keeps its outputs
    in float32, and so do the weights only kept nodes read (a converter's block list does the same).
``int8``
    Static QDQ quantisation (``onnxruntime.quantization.quantize_static``,
    per-tensor, int8, MinMax) calibrated on the dump's own inputs.  For a quantised
    tensor ``X`` the ``DequantizeLinear`` output - the value its consumers actually
    see - is dumped under the name ``X``, with its scale and zero point.  Nodes a
    ``--keep-fp32`` patch marks are left in float (the quantiser's ``nodes_to_exclude``).
``optimized``
    onnxruntime's optimised graph (``ORT_ENABLE_EXTENDED``: fusions, constant
    folding; portable to any CPU).  Exposing every tensor as an output would block
    fusion, so the optimised model is saved first and its own tensors are dumped
    with optimisation disabled.  Each optimised node records the original nodes it
    replaced (``fused_from``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.graph import GraphFacts
from dumpscope.core.onnx.model_io import iter_tensors, write_model

if TYPE_CHECKING:
    import onnxruntime as ort

TARGETS: tuple[str, ...] = ("fp16", "int8", "optimized")
FP16_MAX = 65504.0


@dataclass
class Prepared:
    """One run to make with onnxruntime and how to name what it returns."""

    path: Path
    """The model file onnxruntime loads."""
    facts: GraphFacts
    """The graph whose nodes are reported (the optimised one for ``optimized``)."""
    fetch: dict[str, str]
    """True tensor name -> name of the graph output to fetch for it (topological order)."""
    data_dir: Path | None = None
    """Where the run model's external data lives when that is not next to ``path``."""
    feed_names: dict[str, str] = field(default_factory=dict)
    """True input name -> input name in ``path`` when they differ."""
    constants: dict[str, Callable[[], np.ndarray]] = field(default_factory=dict)
    """True name -> loader of a constant's value as this run uses it."""
    extra: dict[str, dict[str, object]] = field(default_factory=dict)
    """True name -> extra manifest fields (``quant``)."""
    fused_from: dict[str, list[str]] | None = None
    clamped: list[dict[str, object]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# ----------------------------------------------------------------- model files


def _external_location(t: onnx.TensorProto) -> str | None:
    if t.data_location != TensorProto.EXTERNAL:
        return None
    return next((e.value for e in t.external_data if e.key == "location"), None)


def external_data_dir(proto: onnx.ModelProto, source_dir: Path | None) -> Path | None:
    """The directory holding the model's external data files (checked), or None when it has none.

    onnxruntime and onnx refuse external data reached through symbolic links or
    outside the model's directory, so a run model that still refers to the user's
    weight files is loaded from bytes with this directory named explicitly.
    """
    refs = [(t.name, loc) for t in iter_tensors(proto.graph) if (loc := _external_location(t)) is not None]
    if not refs:
        return None
    if source_dir is None:
        raise DumpError(
            f"tensor {refs[0][0]!r} has external data {refs[0][1]!r} but the model has no directory"
        )
    missing = next(((name, loc) for name, loc in refs if not (source_dir / loc).is_file()), None)
    if missing is not None:
        raise DumpError(f"external data file {source_dir / missing[1]} (for tensor {missing[0]!r}) not found")
    return source_dir


def tensor_loader(t: onnx.TensorProto, base_dir: Path | None) -> Callable[[], np.ndarray]:
    """A loader for one initializer that reads external data only when called."""
    snapshot = onnx.TensorProto()
    snapshot.CopyFrom(t)
    base = str(base_dir) if base_dir is not None else ""
    return lambda: numpy_helper.to_array(snapshot, base_dir=base)


#: ``Constant`` attribute name -> its value as an array (string and sparse values are not dumped).
_CONSTANT_ATTRS: dict[str, Callable[[onnx.AttributeProto], np.ndarray]] = {
    "value": lambda a: numpy_helper.to_array(a.t),
    "value_float": lambda a: np.array(a.f, dtype=np.float32),
    "value_floats": lambda a: np.array(list(a.floats), dtype=np.float32),
    "value_int": lambda a: np.array(a.i, dtype=np.int64),
    "value_ints": lambda a: np.array(list(a.ints), dtype=np.int64),
}


def constant_value(node: onnx.NodeProto) -> np.ndarray | None:
    """The value of a ``Constant`` node, or None for string/sparse values we do not dump."""
    attr = next((a for a in node.attribute if a.name in _CONSTANT_ATTRS), None)
    return None if attr is None else _CONSTANT_ATTRS[attr.name](attr)


def expose(graph: onnx.GraphProto, names: list[str]) -> None:
    """Make every name in ``names`` a graph output (onnxruntime infers the types)."""
    present = {o.name for o in graph.output}
    for name in names:
        if name not in present:
            graph.output.append(onnx.ValueInfoProto(name=name))
            present.add(name)


# ----------------------------------------------------------------- onnxruntime


def open_session(
    path: Path,
    proto: onnx.ModelProto,
    *,
    data_dir: Path | None = None,
    optimize: str = "none",
    save_to: Path | None = None,
    arena: bool = True,
) -> ort.InferenceSession:
    """An onnxruntime CPU session; a model the runtime cannot run gives a one-line DumpError.

    ``data_dir``: where the model's external data lives when that is not next to ``path``.
    ``arena``: False frees each activation back to the allocator (bounded dumps; see
    :class:`~dumpscope.core.onnx.fetch_groups.GroupSessions`) instead of keeping the arena's
    high-water mark.
    """
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.enable_cpu_mem_arena = arena
    so.graph_optimization_level = {
        "none": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
        "extended": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
    }[optimize]
    if save_to is not None:
        so.optimized_model_filepath = str(save_to)
        so.add_session_config_entry(
            "session.optimized_model_external_initializers_file_name", f"{save_to.stem}.weights"
        )
        so.add_session_config_entry(
            "session.optimized_model_external_initializers_min_size_in_bytes", str(1 << 20)
        )
    source: str | bytes = str(path)
    if data_dir is not None:
        so.add_session_config_entry("session.model_external_initializers_file_folder_path", str(data_dir))
        source = path.read_bytes()  # small: the weights stay in data_dir
    try:
        return ort.InferenceSession(source, so, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own pybind exception types
        raise DumpError(runtime_error_message(proto, str(exc))) from None


def runtime_error_message(proto: onnx.ModelProto, error: str) -> str:
    """One line saying why onnxruntime refused a model, with the versions involved."""
    import onnxruntime as ort

    opsets = ", ".join(f"{o.domain or 'ai.onnx'} {o.version}" for o in proto.opset_import)
    versions = f"IR version {proto.ir_version}, opset {opsets}"
    if m := re.search(r"max supported IR version: (\d+)", error):
        why = f"it reads IR versions up to {m.group(1)}"
    elif m := re.search(r"support for domain (\S+) is till opset (\d+)", error):
        why = f"it supports {m.group(1)} opsets up to {m.group(2)}"
    else:
        why = re.sub(
            r"^(\[ONNXRuntimeError\] : \d+ : \w+ : )?(\S+:\d+ .*?\) )?", "", error.strip()
        ).splitlines()[0]
        return f"onnxruntime {ort.__version__} cannot load this model ({versions}): {why}"
    return f"onnxruntime {ort.__version__} cannot run this model ({versions}): {why}"


# ----------------------------------------------------------------- golden


def copy_model(proto: onnx.ModelProto) -> onnx.ModelProto:
    run = onnx.ModelProto()
    run.CopyFrom(proto)
    return run


def activation_names(facts: GraphFacts) -> list[str]:
    return [o for n in facts.nodes for o in n.outputs if o not in facts.constants]


def golden_constants(
    proto: onnx.ModelProto, facts: GraphFacts, source_dir: Path | None
) -> dict[str, Callable[[], np.ndarray]]:
    """Loaders for the initializers and Constant outputs that some node reads."""
    used = set(facts.consumers)
    out = {t.name: tensor_loader(t, source_dir) for t in proto.graph.initializer if t.name in used}
    for node in proto.graph.node:
        value = _used_constant(node, used)
        if value is not None:
            out[node.output[0]] = held(value)
    return out


def held(value: np.ndarray) -> Callable[[], np.ndarray]:
    """A loader of a value already in memory."""
    return lambda: value


def _used_constant(node: onnx.NodeProto, used: set[str]) -> np.ndarray | None:
    """The value of a standard ``Constant`` node whose output some node reads (else None)."""
    if node.op_type != "Constant" or node.domain or not node.output or node.output[0] not in used:
        return None
    return constant_value(node)


def control_flow_notes(facts: GraphFacts) -> list[str]:
    return [
        f"{n.op_type} node {n.name!r}: tensors inside its subgraphs are not dumped (only its outputs)"
        for n in facts.nodes
        if n.name in facts.control_flow
    ]


def prepare_golden(
    proto: onnx.ModelProto, facts: GraphFacts, work: Path, source_dir: Path | None
) -> Prepared:
    run = copy_model(proto)
    names = activation_names(facts)
    expose(run.graph, names)
    return Prepared(
        path=write_model(run, work / "golden.onnx"),
        facts=facts,
        fetch={n: n for n in names},
        data_dir=external_data_dir(proto, source_dir),
        constants=golden_constants(proto, facts, source_dir),
        notes=control_flow_notes(facts),
    )


def topo_sorted(fetch: dict[str, str], facts: GraphFacts) -> dict[str, str]:
    order = facts.tensor_order()
    return dict(sorted(fetch.items(), key=lambda kv: order.get(kv[0], -1)))
