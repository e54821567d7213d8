"""The ``fp16`` target recipe: fp16 hardware emulated by float16 *storage* on onnxruntime's CPU.

Every float initializer and Constant is rounded to float16 (values past +-65504 clamped, values
below the subnormal range flushed, both recorded), and every float node output and graph input
goes through ``Cast(to=FLOAT16)`` and back; ``bf16`` storage works the same way.  The whole
recipe is described in :mod:`dumpscope.core.onnx.targets`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from dumpscope.core.atomic import write_bytes
from dumpscope.core.onnx.graph import GraphFacts, fresh_name, used_names
from dumpscope.core.onnx.model_io import iter_tensors, write_model
from dumpscope.core.onnx.patch import kept_fp32_inputs, kept_fp32_nodes
from dumpscope.core.onnx.targets import (
    FP16_MAX,
    Prepared,
    control_flow_notes,
    copy_model,
    expose,
    golden_constants,
    held,
    tensor_loader,
    topo_sorted,
)

_FLOAT_TYPES = {TensorProto.FLOAT: "tensor(float)", TensorProto.DOUBLE: "tensor(double)"}


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
    run = copy_model(proto)
    g = run.graph
    prepared = Prepared(path=work / "fp16.onnx", facts=facts, fetch={}, notes=control_flow_notes(facts))
    keep = kept_fp32_nodes(proto)
    _store_weights_fp16(g, facts, prepared, work, source_dir, keep, half)
    for name, load in golden_constants(proto, facts, source_dir).items():
        prepared.constants.setdefault(name, load)
    casts = _Casts(used_names(g), half)
    _round_graph_inputs(g, facts, prepared, casts, kept_fp32_inputs(proto))
    _round_node_outputs(g, facts, prepared, casts, types, keep)
    del g.node[:]
    g.node.extend(casts.nodes)
    prepared.fetch = topo_sorted(prepared.fetch, facts)
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


def _round_graph_inputs(
    g: onnx.GraphProto,
    facts: GraphFacts,
    prepared: Prepared,
    casts: _Casts,
    keep: frozenset[str] = frozenset(),
) -> None:
    """Float graph inputs are fed under a new name and rounded to fp16 before any node reads them, except
    those kept in float32 (``keep``: their consumers read them as fed; not fetched, as no input is
    that the recipe leaves alone)."""
    for inp in g.input:
        elem = inp.type.tensor_type.elem_type
        if inp.name in facts.graph_inputs and elem in _FLOAT_TYPES and inp.name not in keep:
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
        prepared.constants[out] = held(stored)


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
