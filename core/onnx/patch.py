"""Patch an ONNX model with the fixes ``dumpscope diagnose`` advises, then verify by re-dumping.

Two edits:

``clip``
    A ``Clip`` inserted after a node: the node's output is renamed
    ``{name}__dumpscope_preclip`` and the Clip writes the original name, so consumers
    and dumps keep pairing by name.  Opset aware: ``min``/``max`` are attributes before
    opset 11 and (optional) inputs from opset 11 on; an infinite bound is left out.
``keep_fp32``
    Marks nodes to stay in float32 when a float16 target is made.  The mark lives in the
    model itself (``metadata_props`` key :data:`KEEP_FP32_KEY`, a JSON list of node
    names), so no manifest or side file is needed and onnxruntime ignores it.
    :func:`kept_fp32_nodes` reads it back: the fp16 target recipe leaves those nodes'
    outputs in float32.  Real converters take the same list under their own name
    (ATC ``--keep_dtype``, onnxconverter-common's ``node_block_list``).

Nodes are named as :func:`dumpscope.core.onnx.graph.load_graph` names them (unnamed nodes get
``{op_type}_{topological index}``); a node's output tensor name is accepted too.  An
unnamed node that gets a mark is given that name, so the mark refers to a real name.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from dumpscope.core.onnx.graph import fresh_name, graph_facts, used_names
from dumpscope.core.dumps import DumpError

KEEP_FP32_KEY = "dumpscope.keep_fp32"
_CHECK_LIMIT = 1 << 31
_CLIP_TYPES = {TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE, TensorProto.BFLOAT16}


@dataclass(frozen=True)
class PatchResult:
    model: onnx.ModelProto
    clipped: tuple[tuple[str, str, float, float], ...]
    """(node, tensor, low, high) per inserted Clip."""
    kept: tuple[str, ...]
    """Every node marked to stay in fp32 (earlier marks included)."""


def parse_clip(text: str) -> tuple[str, float, float]:
    """``NODE=LO,HI`` -> (node, lo, hi); ``-inf``/``inf`` or an empty side leave that side open."""
    node, sep, bounds = text.rpartition("=")
    lo_text, comma, hi_text = bounds.partition(",")
    if not sep or not node or not comma:
        raise ValueError(f"--clip {text!r}: expected NODE=LO,HI (e.g. attn/scale=-inf,11)")
    try:
        lo = float(lo_text) if lo_text.strip() else -math.inf
        hi = float(hi_text) if hi_text.strip() else math.inf
    except ValueError:
        raise ValueError(f"--clip {text!r}: bounds must be numbers (or -inf/inf)") from None
    if math.isnan(lo) or math.isnan(hi) or lo > hi:
        raise ValueError(f"--clip {text!r}: need LO <= HI")
    return node, lo, hi


def kept_fp32_nodes(model: onnx.ModelProto) -> frozenset[str]:
    """Node names a ``--keep-fp32`` patch marked (empty when none, or when the mark is malformed)."""
    for prop in model.metadata_props:
        if prop.key == KEEP_FP32_KEY:
            try:
                names = json.loads(prop.value)
            except ValueError:
                return frozenset()
            return frozenset(n for n in names if isinstance(n, str)) if isinstance(names, list) else frozenset()
    return frozenset()


def _opset(model: onnx.ModelProto) -> int:
    return next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 1)


def _node_index(model: onnx.ModelProto) -> dict[str, int]:
    """Unique node name (as :func:`graph_facts` gives it) or output tensor name -> file index."""
    facts = graph_facts(model.graph)
    by_outputs = {tuple(o for o in n.output if o): i for i, n in enumerate(model.graph.node)}
    index: dict[str, int] = {}
    for nf in facts.nodes:
        i = by_outputs.get(nf.outputs)
        if i is None:
            continue
        index[nf.name] = i
        for out in nf.outputs:
            index.setdefault(out, i)
    return index


def _elem_type(model: onnx.ModelProto, tensor: str) -> int | None:
    for vi in (*model.graph.value_info, *model.graph.output, *model.graph.input):
        if vi.name == tensor and vi.type.HasField("tensor_type"):
            return vi.type.tensor_type.elem_type
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
    except Exception:  # noqa: BLE001 - inference is a best effort; the caller says what it needs
        return None
    for vi in inferred.graph.value_info:
        if vi.name == tensor and vi.type.HasField("tensor_type"):
            return vi.type.tensor_type.elem_type
    return None




def patch_model(
    model: onnx.ModelProto,
    *,
    keep_fp32: Iterable[str] = (),
    clip: Mapping[str, tuple[float, float]] | Iterable[tuple[str, float, float]] = (),
) -> PatchResult:
    """A patched copy of ``model`` (the input is not modified); raises DumpError for an unknown node."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    clips = [(n, lo, hi) for n, (lo, hi) in clip.items()] if isinstance(clip, Mapping) else list(clip)
    index = _node_index(out)
    facts_names = {nf.name: nf for nf in graph_facts(out.graph).nodes}

    def resolve(name: str) -> int:
        if name not in index:
            known = ", ".join(sorted(facts_names)[:8])
            raise DumpError(f"no node or tensor named {name!r} in the model (nodes: {known}{', ...' if len(facts_names) > 8 else ''})")
        return index[name]

    def node_name(i: int) -> str:
        node = out.graph.node[i]
        if not node.name:
            node.name = next(n for n, nf in facts_names.items() if nf.outputs == tuple(o for o in node.output if o))
        return node.name

    keep = [node_name(resolve(n)) for n in keep_fp32]
    taken = used_names(out.graph)
    opset = _opset(out)
    inserted: dict[int, list[onnx.NodeProto]] = {}
    done: list[tuple[str, str, float, float]] = []
    for name, lo, hi in clips:
        i = resolve(name)
        owner = node_name(i)
        node = out.graph.node[i]
        tensor = name if name in node.output else next(o for o in node.output if o)
        elem = _elem_type(out, tensor) or TensorProto.FLOAT
        if elem not in _CLIP_TYPES:
            raise DumpError(f"--clip {name!r}: output {tensor!r} is not a float tensor")
        pre = fresh_name(f"{tensor}__dumpscope_preclip", taken)
        node.output[list(node.output).index(tensor)] = pre
        clip_name = fresh_name(f"{owner}/dumpscope_clip", taken)
        inserted.setdefault(i, []).append(_clip_node(out, clip_name, pre, tensor, lo, hi, elem, opset, taken))
        done.append((owner, tensor, lo, hi))
    if inserted:
        nodes = list(out.graph.node)
        del out.graph.node[:]
        for i, n in enumerate(nodes):
            out.graph.node.append(n)
            out.graph.node.extend(inserted.get(i, []))
    kept = sorted(kept_fp32_nodes(out) | set(keep))
    if keep:
        props = [p for p in out.metadata_props if p.key != KEEP_FP32_KEY]
        del out.metadata_props[:]
        out.metadata_props.extend(props)
        out.metadata_props.add(key=KEEP_FP32_KEY, value=json.dumps(kept))
    return PatchResult(out, tuple(done), tuple(kept))


def _clip_node(
    model: onnx.ModelProto, name: str, src: str, dst: str, lo: float, hi: float, elem: int, opset: int, taken: set[str]
) -> onnx.NodeProto:
    if opset < 11:
        attrs = {k: v for k, v in (("min", lo), ("max", hi)) if math.isfinite(v)}
        return helper.make_node("Clip", [src], [dst], name=name, **attrs)
    np_type = helper.tensor_dtype_to_np_dtype(elem)
    inputs = [src]
    for tag, v in (("min", lo), ("max", hi)):
        if math.isfinite(v):
            init = fresh_name(f"{name}/{tag}", taken)
            model.graph.initializer.append(numpy_helper.from_array(np.array(v, dtype=np_type), init))
            inputs.append(init)
        else:
            inputs.append("")
    while inputs[-1] == "":
        inputs.pop()
    return helper.make_node("Clip", inputs, [dst], name=name)


def patch_file(
    src: str | Path, dst: str | Path, *, keep_fp32: Iterable[str] = (), clip: Iterable[tuple[str, float, float]] = ()
) -> PatchResult:
    """Read ``src``, patch it, write ``dst`` (external data is carried over next to ``dst``)."""
    from dumpscope.core.onnx.model_io import iter_tensors, write_model

    src, dst = Path(src), Path(dst)
    if not src.is_file():
        raise DumpError(f"{src}: no such model file")
    if dst.resolve() == src.resolve():
        raise DumpError(f"{dst}: the output would overwrite the input model; choose another -o")
    try:
        model = onnx.load_model(str(src), load_external_data=False)
    except Exception as exc:  # noqa: BLE001 - protobuf raises DecodeError and friends
        raise DumpError(f"{src}: not a readable ONNX model ({type(exc).__name__})") from None
    if any(t.data_location == TensorProto.EXTERNAL for t in iter_tensors(model.graph)):
        try:
            onnx.load_external_data_for_model(model, str(src.parent))
        except (OSError, ValueError) as exc:
            raise DumpError(f"{src}: cannot read its external data ({exc})") from None
    result = patch_model(model, keep_fp32=keep_fp32, clip=list(clip))
    try:
        if result.model.ByteSize() < _CHECK_LIMIT:  # the checker refuses protos over 2 GiB
            onnx.checker.check_model(result.model)
    except onnx.checker.ValidationError as exc:
        raise DumpError(f"the patched model does not validate: {str(exc).splitlines()[0]}") from None
    dst.parent.mkdir(parents=True, exist_ok=True)
    write_model(result.model, dst)
    return result
