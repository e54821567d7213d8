"""What onnxruntime runs for a golden or a hardware-free target dump.

A recipe turns the user's model into a :class:`Prepared` run: an ONNX file that
onnxruntime loads (written to a private work directory, never next to the user's
model), the tensors to fetch from it and, for each, the *original* tensor name it
is dumped under, so golden and target pair by name.

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
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from dumpscope.core.atomic import write_bytes
from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.graph import GraphFacts, NodeFacts, fresh_name, graph_facts, used_names
from dumpscope.core.onnx.model_io import PROTO_LIMIT as _PROTO_LIMIT
from dumpscope.core.onnx.model_io import iter_tensors, write_model
from dumpscope.core.onnx.patch import kept_fp32_nodes

if TYPE_CHECKING:
    import onnxruntime as ort

TARGETS: tuple[str, ...] = ("fp16", "int8", "optimized")
FP16_MAX = 65504.0
_FLOAT_TYPES = {TensorProto.FLOAT: "tensor(float)", TensorProto.DOUBLE: "tensor(double)"}


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


def _copy(proto: onnx.ModelProto) -> onnx.ModelProto:
    run = onnx.ModelProto()
    run.CopyFrom(proto)
    return run


def _activation_names(facts: GraphFacts) -> list[str]:
    return [o for n in facts.nodes for o in n.outputs if o not in facts.constants]


def _golden_constants(
    proto: onnx.ModelProto, facts: GraphFacts, source_dir: Path | None
) -> dict[str, Callable[[], np.ndarray]]:
    """Loaders for the initializers and Constant outputs that some node reads."""
    used = set(facts.consumers)
    out = {t.name: tensor_loader(t, source_dir) for t in proto.graph.initializer if t.name in used}
    for node in proto.graph.node:
        value = _used_constant(node, used)
        if value is not None:
            out[node.output[0]] = _held(value)
    return out


def _held(value: np.ndarray) -> Callable[[], np.ndarray]:
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
    run = _copy(proto)
    names = _activation_names(facts)
    expose(run.graph, names)
    return Prepared(
        path=write_model(run, work / "golden.onnx"),
        facts=facts,
        fetch={n: n for n in names},
        data_dir=external_data_dir(proto, source_dir),
        constants=_golden_constants(proto, facts, source_dir),
        notes=control_flow_notes(facts),
    )


# ----------------------------------------------------------------- fp16


def to_fp16_storage(
    name: str, arr: np.ndarray, node_name: str | None, half: int = TensorProto.FLOAT16
) -> tuple[np.ndarray, list[dict[str, object]]]:
    """Round a float array to float16 storage; clamp records for what did not fit.  ``half=BFLOAT16``:
    bf16 storage (float32's range, 8 significant bits; float32 values returned), nothing to clamp."""
    if half == TensorProto.BFLOAT16:
        import ml_dtypes  # onnx's own dependency

        return np.asarray(arr).astype(ml_dtypes.bfloat16).astype(np.float32), []
    finite = np.isfinite(arr)
    stored = np.where(finite, np.clip(arr, -FP16_MAX, FP16_MAX), arr).astype(np.float16)
    flat, flat_stored = arr.reshape(-1), stored.reshape(-1)
    masks = (("clamp", finite & (np.abs(arr) > FP16_MAX)), ("flush", (arr != 0) & (stored == 0)))
    found = ((action, np.flatnonzero(mask)) for action, mask in masks)
    records = [
        _clamp_record(name, node_name, action, idx, flat, flat_stored) for action, idx in found if idx.size
    ]
    return stored, records


def _clamp_record(
    name: str, node_name: str | None, action: str, idx: np.ndarray, flat: np.ndarray, flat_stored: np.ndarray
) -> dict[str, object]:
    """One ``clamp``/``flush`` record: how many values, the largest, and up to three examples."""
    return {
        "name": name,
        "node_name": node_name,
        "count": int(idx.size),
        "max_abs": float(np.abs(flat[idx]).max()),
        "action": action,
        "examples": [[int(i), float(flat[i]), float(flat_stored[i])] for i in idx[:3]],
    }


def _set_tensor(t: onnx.TensorProto, arr: np.ndarray, work: Path, counter: list[int]) -> None:
    """Replace a tensor's data, keeping big data external (written into ``work``)."""
    if t.data_location == TensorProto.EXTERNAL:
        counter[0] += 1
        loc = f"dumpscope_tensor_{counter[0]}.bin"
        data = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<"), copy=False)
        write_bytes(data.reshape(-1).view(np.uint8), work / loc)
        del t.external_data[:]
        for key, value in (("location", loc), ("offset", "0"), ("length", str(data.nbytes))):
            t.external_data.add(key=key, value=value)
        return
    new = numpy_helper.from_array(arr, t.name)
    t.CopyFrom(new)


def prepare_fp16(
    proto: onnx.ModelProto,
    facts: GraphFacts,
    work: Path,
    source_dir: Path | None,
    types: Mapping[str, str],
    half: int = TensorProto.FLOAT16,
) -> Prepared:
    """The fp16-storage emulation described in the module docstring.

    ``types``: onnxruntime type strings (``tensor(float)``) of the node outputs and
    graph inputs, from a probe session.  ``half=BFLOAT16``: the same with bf16 storage (Cast to
    BFLOAT16 and back; the float32 value after the round trip is fetched).
    """
    run = _copy(proto)
    g = run.graph
    prepared = Prepared(path=work / "fp16.onnx", facts=facts, fetch={}, notes=control_flow_notes(facts))
    keep = kept_fp32_nodes(proto)
    _store_weights_fp16(g, facts, prepared, work, source_dir, keep, half)
    for name, load in _golden_constants(proto, facts, source_dir).items():
        prepared.constants.setdefault(name, load)
    casts = _Casts(used_names(g), half)
    _round_graph_inputs(g, facts, prepared, casts)
    _round_node_outputs(g, facts, prepared, casts, types, keep)
    del g.node[:]
    g.node.extend(casts.nodes)
    prepared.fetch = _topo_sorted(prepared.fetch, facts)
    expose(g, list(prepared.fetch.values()))
    write_model(run, prepared.path)
    return prepared


def _fp16_loader(
    load: Callable[[], np.ndarray], name: str, half: int = TensorProto.FLOAT16
) -> Callable[[], np.ndarray]:
    return lambda: to_fp16_storage(name, load(), None, half)[0]


def _store_weights_fp16(
    g: onnx.GraphProto,
    facts: GraphFacts,
    prepared: Prepared,
    work: Path,
    source_dir: Path | None,
    keep: frozenset[str] = frozenset(),
    half: int = TensorProto.FLOAT16,
) -> None:
    """Round every used float initializer to fp16 storage (clamps recorded); inline other external data.

    An initializer that only nodes kept in fp32 read stays float32, as a converter's block list
    (onnxconverter-common ``node_block_list``, ATC ``--keep_dtype``) leaves a blocked node's weights."""
    used = {name for name, readers in facts.consumers.items() if any(n.name not in keep for n in readers)}
    counter = [0]
    first_reader = {name: nodes[0].name for name, nodes in facts.consumers.items()}
    for t in iter_tensors(g):
        if t.data_location == TensorProto.EXTERNAL and not _rounded(t, used):
            _set_tensor(t, tensor_loader(t, source_dir)(), work, counter)  # the run model reads no user file
    for t in (t for t in g.initializer if _rounded(t, used)):
        load = tensor_loader(t, source_dir)
        stored, records = to_fp16_storage(t.name, load(), first_reader.get(t.name), half)
        prepared.clamped.extend(records)
        _set_tensor(t, stored.astype(helper.tensor_dtype_to_np_dtype(t.data_type)), work, counter)
        prepared.constants[t.name] = _fp16_loader(load, t.name, half)


def _rounded(t: onnx.TensorProto, used: set[str]) -> bool:
    """A float tensor some node reads: stored as fp16 by the recipe."""
    return t.data_type in _FLOAT_TYPES and t.name in used


class _Casts:
    """The rewritten node list, with fp16 round trips (Cast to float16 and back) inserted."""

    def __init__(self, taken: set[str], half: int = TensorProto.FLOAT16) -> None:
        self.taken = taken
        self.half = half
        self.nodes: list[onnx.NodeProto] = []

    def pair(self, src: str, dst: str, elem: int) -> str:
        """``src`` -> float16 -> ``dst`` (of type ``elem``); returns the name to fetch: the float16 tensor
        (bf16: ``dst``, the same values in float32, which onnxruntime hands to numpy)."""
        half = fresh_name(f"{dst}__dumpscope_fp16", self.taken)
        self.nodes.append(
            helper.make_node("Cast", [src], [half], to=self.half, name=fresh_name(f"{half}/cast", self.taken))
        )
        self.nodes.append(
            helper.make_node(
                "Cast", [half], [dst], to=elem, name=fresh_name(f"{dst}__dumpscope_back", self.taken)
            )
        )
        return half if self.half == TensorProto.FLOAT16 else dst


def _round_graph_inputs(g: onnx.GraphProto, facts: GraphFacts, prepared: Prepared, casts: _Casts) -> None:
    """Float graph inputs are fed under a new name and rounded to fp16 before any node reads them."""
    for inp in g.input:
        elem = inp.type.tensor_type.elem_type
        if inp.name in facts.graph_inputs and elem in _FLOAT_TYPES:
            raw = fresh_name(f"{inp.name}__dumpscope_in", casts.taken)
            prepared.feed_names[inp.name] = raw
            prepared.fetch[inp.name] = casts.pair(raw, inp.name, elem)
            inp.name = raw


def _round_node_outputs(
    g: onnx.GraphProto,
    facts: GraphFacts,
    prepared: Prepared,
    casts: _Casts,
    types: Mapping[str, str],
    keep: frozenset[str],
) -> None:
    """Every float node output is rounded to fp16 storage, except for nodes kept in fp32."""
    for node in g.node:
        casts.nodes.append(node)
        if node.op_type == "Constant" and not node.domain:
            _round_constant(node, facts, prepared, keep, casts.half)
            continue
        for i, out in enumerate(node.output):
            _round_output(node, i, out, prepared, casts, types, keep)


def _round_constant(
    node: onnx.NodeProto,
    facts: GraphFacts,
    prepared: Prepared,
    keep: frozenset[str] = frozenset(),
    half: int = TensorProto.FLOAT16,
) -> None:
    """A ``Constant`` node's value is stored as fp16 in place (no Cast pair: it is a constant), unless the
    Constant itself or every node reading it is kept in fp32."""
    readers = facts.consumers.get(node.output[0], ()) if node.output else ()
    if node.name in keep or (readers and all(n.name in keep for n in readers)):
        return
    if node.output and node.output[0] in facts.producer:
        _round_constant_node(node, facts.producer[node.output[0]].name, prepared, half)


def _round_output(
    node: onnx.NodeProto,
    i: int,
    out: str,
    prepared: Prepared,
    casts: _Casts,
    types: Mapping[str, str],
    keep: frozenset[str],
) -> None:
    if not out:
        return
    elem = _elem_of(types.get(out))
    if elem is None or node.name in keep:
        prepared.fetch[out] = out
        return
    raw = fresh_name(f"{out}__dumpscope_raw", casts.taken)
    node.output[i] = raw
    prepared.fetch[out] = casts.pair(raw, out, elem)


def _elem_of(ort_type: str | None) -> int | None:
    for elem, name in _FLOAT_TYPES.items():
        if ort_type == name:
            return elem
    return None


def _topo_sorted(fetch: dict[str, str], facts: GraphFacts) -> dict[str, str]:
    order = facts.tensor_order()
    return dict(sorted(fetch.items(), key=lambda kv: order.get(kv[0], -1)))


def _round_constant_node(
    node: onnx.NodeProto, node_name: str, prepared: Prepared, half: int = TensorProto.FLOAT16
) -> None:
    """Round a float ``Constant``'s value to fp16 storage in place (clamps recorded, value kept as a
    constant)."""
    out = node.output[0] if node.output else ""
    for attr in node.attribute:
        rounded = _round_constant_attr(attr, out, node_name, half)
        if rounded is None:
            continue
        stored, records = rounded
        prepared.clamped.extend(records)
        prepared.constants[out] = _held(stored)


def _round_constant_attr(
    attr: onnx.AttributeProto, out: str, node_name: str, half: int = TensorProto.FLOAT16
) -> tuple[np.ndarray, list[dict[str, object]]] | None:
    """The fp16-stored value and clamp records of a float ``value``/``value_float(s)`` attribute, else
    None."""
    if attr.name == "value" and attr.t.data_type in _FLOAT_TYPES:
        arr = numpy_helper.to_array(attr.t)
        stored, records = to_fp16_storage(out, arr, node_name, half)
        attr.t.CopyFrom(numpy_helper.from_array(stored.astype(arr.dtype), attr.t.name))
        return stored, records
    if attr.name in ("value_float", "value_floats"):
        return _round_float_attr(attr, out, node_name, half)
    return None


def _round_float_attr(
    attr: onnx.AttributeProto, out: str, node_name: str, half: int = TensorProto.FLOAT16
) -> tuple[np.ndarray, list[dict[str, object]]]:
    """``value_float`` / ``value_floats`` rounded to fp16 storage, written back as floats."""
    single = attr.name == "value_float"
    arr = np.array(attr.f if single else list(attr.floats), dtype=np.float32)
    stored, records = to_fp16_storage(out, arr, node_name, half)
    if single:
        attr.f = float(stored)
    else:
        del attr.floats[:]
        attr.floats.extend(float(v) for v in stored)
    return stored, records


# ----------------------------------------------------------------- int8


def _has_external_data(proto: onnx.ModelProto) -> bool:
    return any(t.data_location == TensorProto.EXTERNAL for t in iter_tensors(proto.graph))


def _scalar_or_list(arr: np.ndarray) -> float | int | list[float | int]:
    flat = arr.reshape(-1).tolist()
    return flat[0] if len(flat) == 1 else flat


def _quant_info(dq: onnx.NodeProto, inits: Mapping[str, onnx.TensorProto]) -> dict[str, object] | None:
    """Scale, zero point and integer dtype of a DequantizeLinear whose parameters are initializers."""
    scale_t = inits.get(dq.input[1]) if len(dq.input) > 1 else None
    if scale_t is None:
        return None
    zp_t = inits.get(dq.input[2]) if len(dq.input) > 2 and dq.input[2] else None
    zero_point, dtype = _zero_point(dq, zp_t, inits)
    return {
        "scale": _scalar_or_list(numpy_helper.to_array(scale_t)),
        "zero_point": zero_point,
        "dtype": dtype,
    }


def _zero_point(
    dq: onnx.NodeProto, zp_t: onnx.TensorProto | None, inits: Mapping[str, onnx.TensorProto]
) -> tuple[float | int | list[float | int], str]:
    """The zero point and the integer dtype: from the zero-point tensor, else 0 and the quantised input's
    type."""
    if zp_t is not None:
        return _scalar_or_list(numpy_helper.to_array(zp_t)), str(
            helper.tensor_dtype_to_np_dtype(zp_t.data_type)
        )
    x = inits.get(dq.input[0])
    return 0, str(helper.tensor_dtype_to_np_dtype(x.data_type)) if x is not None else "uint8"


def dequantized_sources(q: onnx.ModelProto, names: set[str]) -> dict[str, onnx.NodeProto]:
    """Original tensor name -> the DequantizeLinear node whose output its consumers now read.

    ``quantize_static`` (QDQ) turns an activation ``X`` into ``X -> QuantizeLinear ->
    DequantizeLinear -> consumers`` and an initializer ``W`` into ``W_quantized ->
    DequantizeLinear`` (whose output is usually named ``W`` again).
    """
    producer = {o: n for n in q.graph.node for o in n.output}
    inits = {t.name for t in q.graph.initializer}
    found: dict[str, onnx.NodeProto] = {}
    for node in q.graph.node:
        origin = _dequantized_origin(node, producer, inits, names)
        if origin in names:
            found.setdefault(origin, node)
    return found


def _dequantized_origin(
    node: onnx.NodeProto, producer: Mapping[str, onnx.NodeProto], inits: set[str], names: set[str]
) -> str | None:
    """The original tensor a DequantizeLinear node gives back (None for any other node)."""
    if node.op_type != "DequantizeLinear" or not node.input:
        return None
    src = node.input[0]
    q_node = producer.get(src)
    if q_node is not None and q_node.op_type == "QuantizeLinear":
        return q_node.input[0]
    if src not in inits:
        return None
    origin = src.removesuffix("_quantized")
    return origin if origin in names else node.output[0]


class _FeedReader:
    """A CalibrationDataReader over the dump's own inputs."""

    def __init__(self, feeds: list[dict[str, np.ndarray]]) -> None:
        self._feeds = feeds
        self._it = iter(feeds)

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._it, None)

    def rewind(self) -> None:
        self._it = iter(self._feeds)


def prepare_int8(
    proto: onnx.ModelProto,
    facts: GraphFacts,
    work: Path,
    source_dir: Path | None,
    feeds: list[dict[str, np.ndarray]],
) -> Prepared:
    """Static QDQ int8 quantisation calibrated on ``feeds`` (see the module docstring)."""
    q_path = work / "int8.onnx"
    _quantize(proto, source_dir, q_path, feeds, sorted(kept_fp32_nodes(proto)))
    q = onnx.load_model(str(q_path), load_external_data=False)
    prepared = Prepared(path=work / "int8_run.onnx", facts=facts, fetch={}, notes=control_flow_notes(facts))
    folded = _Int8Fetch(q, facts, _golden_constants(proto, facts, source_dir)).fill(prepared)
    if folded:
        prepared.notes.append(_folded_note(folded, facts))
    prepared.fetch = _topo_sorted(prepared.fetch, facts)
    expose(q.graph, list(prepared.fetch.values()))
    write_model(q, prepared.path)
    return prepared


def _quantize(
    proto: onnx.ModelProto,
    source_dir: Path | None,
    q_path: Path,
    feeds: list[dict[str, np.ndarray]],
    exclude: list[str] | None = None,
) -> None:
    """Write the QDQ int8 model to ``q_path`` (a quantizer failure is a one-line DumpError).

    ``exclude``: nodes left in float (``nodes_to_exclude``): those a ``--keep-fp32`` patch marked."""
    import logging

    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    reader_cls = type("FeedReader", (_FeedReader, CalibrationDataReader), {})
    float_model = _copy(proto)
    if external_data_dir(proto, source_dir) is not None:
        onnx.load_external_data_for_model(float_model, str(source_dir))
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # the quantizer warns on the root logger ("consider pre-processing")
    try:
        quantize_static(
            float_model,
            str(q_path),
            reader_cls(feeds),
            quant_format=QuantFormat.QDQ,
            per_channel=False,
            activation_type=QuantType.QInt8,
            weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=exclude or None,
            use_external_data_format=_has_external_data(proto) or proto.ByteSize() > _PROTO_LIMIT,
        )
    except DumpError:
        raise
    except Exception as exc:  # noqa: BLE001 - the quantizer raises anything from ValueError to ORT errors
        raise DumpError(f"int8 quantisation failed: {runtime_error_message(proto, str(exc))}") from None
    finally:
        root.setLevel(level)


class _Int8Fetch:
    """Where each original tensor of an int8 run comes from: a DequantizeLinear output, a golden
    constant, the tensor itself, or nowhere (folded away by the quantizer)."""

    def __init__(
        self, q: onnx.ModelProto, facts: GraphFacts, golden_consts: dict[str, Callable[[], np.ndarray]]
    ) -> None:
        self.facts = facts
        self.golden_consts = golden_consts
        self.q_inits = {t.name: t for t in q.graph.initializer}
        self.q_outputs = {o for n in q.graph.node for o in n.output if o}
        self.dq = dequantized_sources(q, set(facts.graph_inputs) | set(facts.consumers) | set(facts.producer))

    def fill(self, prepared: Prepared) -> list[str]:
        """Fill ``prepared``'s fetches, quant info and constants; returns the folded tensors' names."""
        names = (*self.facts.graph_inputs, *self.golden_consts, *_activation_names(self.facts))
        return [name for name in names if not self._place(name, prepared)]

    def _place(self, name: str, prepared: Prepared) -> bool:
        """Record where ``name`` comes from; False when it is an activation folded away."""
        node = self.dq.get(name)
        if node is not None and node.output[0] in self.q_outputs:
            self._fetch_dequantized(name, node, prepared)
        elif name in self.golden_consts:
            prepared.constants[name] = self.golden_consts[name]
        elif name in self.q_outputs:
            prepared.fetch[name] = name
        else:
            return name in self.facts.graph_inputs
        return True

    def _fetch_dequantized(self, name: str, node: onnx.NodeProto, prepared: Prepared) -> None:
        """``name`` is dumped from the DequantizeLinear output, with its scale and zero point when known."""
        prepared.fetch[name] = node.output[0]
        info = _quant_info(node, self.q_inits)
        if info is not None:
            prepared.extra[name] = {"quant": info}


def _folded_note(folded: list[str], facts: GraphFacts) -> str:
    """The run's note naming (the first five of) the tensors the quantizer folded away, and the op types
    of the golden nodes that produced them (``BatchNormalization x3, Relu x2``): what was folded, not a
    guess."""
    shown = ", ".join(map(repr, folded[:5])) + (f" and {len(folded) - 5} more" if len(folded) > 5 else "")
    kinds = Counter(
        node.op_type if (node := facts.producer.get(name)) is not None else "?" for name in folded
    )
    ops = ", ".join(f"{op} x{n}" if n > 1 else op for op, n in kinds.most_common())
    return (
        f"{len(folded)} tensor(s) folded away by the quantizer (outputs of {ops}), not in the int8 dump: "
        f"{shown}"
    )


# ----------------------------------------------------------------- optimized


def fused_from(original: GraphFacts, optimized: GraphFacts) -> dict[str, list[str]]:
    """Optimised node name -> the original nodes it replaced, in original topological order.

    Those are the original nodes lying between the optimised node's inputs and
    outputs: walking back from its outputs through original producers, stopping at
    its inputs, and keeping only nodes that are reachable from those inputs (so
    folded weight sub-graphs do not count).  A node whose outputs are all new
    tensors maps to the original node of the same name, if any.
    """
    names = {n.name for n in original.nodes}
    known = set(original.producer) | set(original.graph_inputs) | original.initializers
    return {node.name: _replaced(node, original, names, known) for node in optimized.nodes}


def _replaced(node: NodeFacts, original: GraphFacts, names: set[str], known: set[str]) -> list[str]:
    """The original nodes one optimised node replaced (see :func:`fused_from`)."""
    inputs = set(node.inputs)
    outs = [o for o in node.outputs if o in original.producer]
    if not outs or not inputs & known:
        return [node.name] if node.name in names else []
    reached = _reached_from(inputs, _producers_back_to(outs, inputs, original), original)
    return [n.name for n in original.nodes if n.name in reached]


def _producers_back_to(outs: list[str], inputs: set[str], original: GraphFacts) -> set[str]:
    """Original nodes met walking back from ``outs`` through producers, stopping at ``inputs``."""
    between: set[str] = set()
    stack = list(outs)
    while stack:
        t = stack.pop()
        p = None if t in inputs else original.producer.get(t)
        if p is not None and p.name not in between:
            between.add(p.name)
            stack.extend(p.inputs)
    return between


def _reached_from(inputs: set[str], between: set[str], original: GraphFacts) -> set[str]:
    """The nodes of ``between`` reachable forward from ``inputs`` through original consumers."""
    reached: set[str] = set()
    frontier = list(inputs)
    while frontier:
        t = frontier.pop()
        for c in original.consumers.get(t, ()):
            if c.name in between and c.name not in reached:
                reached.add(c.name)
                frontier.extend(c.outputs)
    return reached


def prepare_optimized(
    proto: onnx.ModelProto, facts: GraphFacts, work: Path, source_dir: Path | None
) -> Prepared:
    """onnxruntime's extended-optimised graph, dumped tensor by tensor (see the module docstring)."""
    float_path = write_model(_copy(proto), work / "float.onnx")
    opt_path = work / "optimized.onnx"
    open_session(
        float_path,
        proto,
        data_dir=external_data_dir(proto, source_dir),
        optimize="extended",
        save_to=opt_path,
    )
    opt = onnx.load_model(str(opt_path), load_external_data=False)
    # IR < 4 models list initializers as graph inputs; onnxruntime drops the ones it folded
    # away but keeps them as inputs, which would then be required feeds.
    kept = set(facts.graph_inputs) | {t.name for t in opt.graph.initializer}
    inputs = [i for i in opt.graph.input if i.name in kept]
    del opt.graph.input[:]
    opt.graph.input.extend(inputs)
    opt_facts = graph_facts(opt.graph)
    names = _activation_names(opt_facts)
    prepared = Prepared(
        path=work / "optimized_run.onnx",
        facts=opt_facts,
        fetch={n: n for n in names},
        constants=_golden_constants(opt, opt_facts, work),
        fused_from=fused_from(facts, opt_facts),
        notes=control_flow_notes(opt_facts),
    )
    expose(opt.graph, names)
    write_model(opt, prepared.path)
    return prepared
