"""Patch an ONNX model with the fixes ``dumpscope diagnose`` advises, then verify by re-dumping.

The edits:

``clip``
    A ``Clip`` inserted after a node: the node's output is renamed
    ``{name}__dumpscope_preclip`` and the Clip writes the original name, so consumers
    and dumps keep pairing by name.  Opset aware: ``min``/``max`` are attributes before
    opset 11 and (optional) inputs from opset 11 on; an infinite bound is left out.
    A graph input is clipped too: the Clip, first in the graph, reads the input (fed under
    its own name) and writes ``{name}__dumpscope_clipped``, which its consumers now read.
``keep_fp32``
    Marks nodes to stay in float32 when a float16 target is made.  The mark lives in the
    model itself (``metadata_props`` key :data:`KEEP_FP32_KEY`, a JSON list of node
    names), so no manifest or side file is needed and onnxruntime ignores it.
    :func:`kept_fp32_nodes` reads it back: the fp16 target recipe leaves those nodes'
    outputs in float32.  Real converters take the same list under their own name
    (ATC ``--keep_dtype``, onnxconverter-common's ``node_block_list``).
``keep_inputs``
    Graph inputs the fp16/bf16 target recipe does not round (their consumers read them in
    float32): metadata key :data:`KEEP_INPUTS_KEY`, read by :func:`kept_fp32_inputs`.
``per_channel`` / ``ranges`` (int8)
    Nodes whose weight is quantised per channel, and tensors whose calibration range is
    given (``[low, high]`` instead of the calibration data's min/max): metadata key
    :data:`INT8_KEY` (``{"per_channel": [...], "ranges": {tensor: [low, high]}}``), read by
    :func:`int8_overrides`; the int8 recipe hands them to onnxruntime's quantizer as
    ``TensorQuantOverrides``.

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

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.graph import fresh_name, graph_facts, used_names

KEEP_FP32_KEY = "dumpscope.keep_fp32"
KEEP_INPUTS_KEY = "dumpscope.keep_fp32_inputs"
INT8_KEY = "dumpscope.int8"
_CHECK_LIMIT = 1 << 31
_CLIP_TYPES = {TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE, TensorProto.BFLOAT16}


@dataclass(frozen=True)
class PatchResult:
    model: onnx.ModelProto
    clipped: tuple[tuple[str, str, float, float], ...]
    """(node, tensor, low, high) per inserted Clip."""
    kept: tuple[str, ...]
    """Every node marked to stay in fp32 (earlier marks included)."""
    kept_inputs: tuple[str, ...] = ()
    """Every graph input marked to stay in fp32 (earlier marks included)."""
    per_channel: tuple[str, ...] = ()
    """Every node marked for per-channel int8 weights (earlier marks included)."""
    ranges: tuple[tuple[str, float, float], ...] = ()
    """Every tensor given an int8 calibration range (earlier marks included)."""
    clipped_inputs: tuple[str, ...] = ()
    """The graph inputs among ``clipped``."""


def parse_clip(text: str) -> tuple[str, float, float]:
    """``NODE=LO,HI`` -> (node, lo, hi); ``-inf``/``inf`` or an empty side leave that side open."""
    node, sep, bounds = text.rpartition("=")
    lo_text, comma, hi_text = bounds.partition(",")
    if not (sep and node and comma):
        raise ValueError(f"--clip {text!r}: expected NODE=LO,HI (e.g. attn/scale=-inf,11)")
    try:
        lo, hi = _bound(lo_text, -math.inf), _bound(hi_text, math.inf)
    except ValueError:
        raise ValueError(f"--clip {text!r}: bounds must be numbers (or -inf/inf)") from None
    if not lo <= hi:  # a NaN bound compares false too
        raise ValueError(f"--clip {text!r}: need LO <= HI")
    return node, lo, hi


def _bound(text: str, open_side: float) -> float:
    """One side of ``LO,HI``: a number, or ``open_side`` when empty (ValueError when not a number)."""
    return float(text) if text.strip() else open_side


def kept_fp32_nodes(model: onnx.ModelProto) -> frozenset[str]:
    """Node names a ``--keep-fp32`` patch marked (empty when none, or when the mark is malformed)."""
    value = _mark(model, KEEP_FP32_KEY)
    return frozenset() if value is None else _names_in(value)


def kept_fp32_inputs(model: onnx.ModelProto) -> frozenset[str]:
    """Graph inputs a ``keep_inputs`` patch marked to stay in float32 (empty when none or malformed)."""
    value = _mark(model, KEEP_INPUTS_KEY)
    return frozenset() if value is None else _names_in(value)


def int8_overrides(model: onnx.ModelProto) -> tuple[frozenset[str], dict[str, tuple[float, float]]]:
    """``(nodes quantised per channel, tensor -> calibration range)`` an int8 patch marked (empty when
    none; a malformed entry is left out)."""
    value = _mark(model, INT8_KEY)
    try:
        data = json.loads(value) if value is not None else {}
    except ValueError:
        data = {}
    data = data if isinstance(data, dict) else {}
    nodes = data.get("per_channel")
    per_channel = (
        frozenset(n for n in nodes if isinstance(n, str)) if isinstance(nodes, list) else frozenset()
    )
    ranges: dict[str, tuple[float, float]] = {}
    given = data.get("ranges")
    for tensor, bounds in given.items() if isinstance(given, dict) else ():
        if isinstance(bounds, list) and len(bounds) == 2 and all(isinstance(b, int | float) for b in bounds):
            lo, hi = float(bounds[0]), float(bounds[1])
            if math.isfinite(lo) and math.isfinite(hi) and lo <= hi:
                ranges[tensor] = (lo, hi)
    return per_channel, ranges


def _mark(model: onnx.ModelProto, key: str) -> str | None:
    return next((prop.value for prop in model.metadata_props if prop.key == key), None)


def _names_in(value: str) -> frozenset[str]:
    """The strings of the JSON list ``value`` (empty when it is not JSON or not a list)."""
    try:
        names = json.loads(value)
    except ValueError:
        return frozenset()
    return frozenset(n for n in names if isinstance(n, str)) if isinstance(names, list) else frozenset()


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
    """The element type of ``tensor``: declared in the graph, else from shape inference (None when
    unknown)."""
    declared = _declared_elem_type((*model.graph.value_info, *model.graph.output, *model.graph.input), tensor)
    if declared is not None:
        return declared
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
    except Exception:  # noqa: BLE001 - inference is a best effort; the caller says what it needs
        return None
    return _declared_elem_type(inferred.graph.value_info, tensor)


def _declared_elem_type(infos: Iterable[onnx.ValueInfoProto], tensor: str) -> int | None:
    """The tensor element type the first of ``infos`` named ``tensor`` declares."""
    return next(
        (
            vi.type.tensor_type.elem_type
            for vi in infos
            if vi.name == tensor and vi.type.HasField("tensor_type")
        ),
        None,
    )


def patch_model(
    model: onnx.ModelProto,
    *,
    keep_fp32: Iterable[str] = (),
    clip: Mapping[str, tuple[float, float]] | Iterable[tuple[str, float, float]] = (),
    keep_inputs: Iterable[str] = (),
    per_channel: Iterable[str] = (),
    ranges: Iterable[tuple[str, float, float]] = (),
) -> PatchResult:
    """A patched copy of ``model`` (the input is not modified); raises DumpError for an unknown node,
    tensor or graph input (see the module docstring for each edit)."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    clips = [(n, lo, hi) for n, (lo, hi) in clip.items()] if isinstance(clip, Mapping) else list(clip)
    patcher = _Patcher(out)
    keep = [patcher.node_name(patcher.resolve(n)) for n in keep_fp32]
    channel = [patcher.node_name(patcher.resolve(n)) for n in per_channel]
    inputs = [patcher.graph_input(n) for n in keep_inputs]
    ranged = {patcher.tensor(t): (lo, hi) for t, lo, hi in ranges}
    done = [patcher.clip(name, lo, hi) for name, lo, hi in clips]
    patcher.insert_clips()
    kept = sorted(kept_fp32_nodes(out) | set(keep))
    if keep:
        _set_mark(out, KEEP_FP32_KEY, kept)
    if inputs:
        _set_mark(out, KEEP_INPUTS_KEY, sorted(kept_fp32_inputs(out) | set(inputs)))
    if channel or ranged:
        old_channel, old_ranges = int8_overrides(out)
        all_ranges = {t: list(r) for t, r in sorted((old_ranges | ranged).items())}
        _set_mark(out, INT8_KEY, {"per_channel": sorted(old_channel | set(channel)), "ranges": all_ranges})
    final_channel, final_ranges = int8_overrides(out)
    return PatchResult(
        out,
        tuple(done),
        tuple(kept),
        tuple(sorted(kept_fp32_inputs(out))),
        tuple(sorted(final_channel)),
        tuple((t, lo, hi) for t, (lo, hi) in sorted(final_ranges.items())),
        tuple(t for _, t, _, _ in done if t in patcher.inputs),
    )


class _Patcher:
    """The edits of one :func:`patch_model` call on its copy ``out`` of the model."""

    def __init__(self, out: onnx.ModelProto) -> None:
        self.out = out
        self.index = _node_index(out)
        self.facts_names = {nf.name: nf for nf in graph_facts(out.graph).nodes}
        self.taken: set[str] | None = (
            None  # read at the first clip: after the --keep-fp32 nodes got their names
        )
        self.opset = _opset(out)
        self.inserted: dict[int, list[onnx.NodeProto]] = {}
        """Clips queued after the node of that file index (-1: before every node, a graph input's)."""
        init = {t.name for t in out.graph.initializer}
        self.inputs = [i.name for i in out.graph.input if i.name not in init]

    def resolve(self, name: str) -> int:
        """The file index of the node named ``name`` (or writing the tensor ``name``)."""
        if name not in self.index:
            known = ", ".join(sorted(self.facts_names)[:8])
            more = ", ..." if len(self.facts_names) > 8 else ""
            raise DumpError(f"no node or tensor named {name!r} in the model (nodes: {known}{more})")
        return self.index[name]

    def graph_input(self, name: str) -> str:
        """``name`` when it is a graph input (not an initializer), else a DumpError."""
        if name not in self.inputs:
            raise DumpError(f"no graph input named {name!r} (inputs: {', '.join(self.inputs) or 'none'})")
        return name

    def tensor(self, name: str) -> str:
        """``name`` when a node writes it or it is a graph input, else a DumpError."""
        if name in self.inputs:
            return name
        outputs = [o for o in self.out.graph.node[self.resolve(name)].output if o]
        return name if name in outputs else outputs[0]  # a node's name: its first output

    def node_name(self, i: int) -> str:
        """Node ``i``'s name; an unnamed node is given the name :func:`graph_facts` calls it by."""
        node = self.out.graph.node[i]
        if not node.name:
            outputs = tuple(o for o in node.output if o)
            node.name = next(n for n, nf in self.facts_names.items() if nf.outputs == outputs)
        return node.name

    def clip(self, name: str, lo: float, hi: float) -> tuple[str, str, float, float]:
        """Rename the output and queue a Clip that writes the original name; ``(node, tensor, lo, hi)``.
        A graph input (not a node's name or output) is clipped before every node (:meth:`clip_input`)."""
        taken = self._taken()
        if name not in self.index and name in self.inputs:
            return self.clip_input(name, lo, hi)
        i = self.resolve(name)
        owner = self.node_name(i)
        node = self.out.graph.node[i]
        tensor = name if name in node.output else next(o for o in node.output if o)
        elem = _elem_type(self.out, tensor) or TensorProto.FLOAT
        if elem not in _CLIP_TYPES:
            raise DumpError(f"--clip {name!r}: output {tensor!r} is not a float tensor")
        pre = fresh_name(f"{tensor}__dumpscope_preclip", taken)
        node.output[list(node.output).index(tensor)] = pre
        clip_name = fresh_name(f"{owner}/dumpscope_clip", taken)
        clip_node = _clip_node(self.out, clip_name, pre, tensor, lo, hi, elem, self.opset, taken)
        self.inserted.setdefault(i, []).append(clip_node)
        return owner, tensor, lo, hi

    def clip_input(self, name: str, lo: float, hi: float) -> tuple[str, str, float, float]:
        """Queue a Clip of the graph input ``name`` first in the graph, writing a new tensor that every node
        reading the input now reads; ``(clip node, input, lo, hi)``."""
        taken = self._taken()
        elem = _declared_elem_type(self.out.graph.input, name) or TensorProto.FLOAT
        if elem not in _CLIP_TYPES:
            raise DumpError(f"--clip {name!r}: input {name!r} is not a float tensor")
        clipped = fresh_name(f"{name}__dumpscope_clipped", taken)
        for node in self.out.graph.node:
            for k, i in enumerate(node.input):
                if i == name:
                    node.input[k] = clipped
        clip_name = fresh_name(f"{name}/dumpscope_clip", taken)
        clip_node = _clip_node(self.out, clip_name, name, clipped, lo, hi, elem, self.opset, taken)
        self.inserted.setdefault(-1, []).append(clip_node)
        return clip_name, name, lo, hi

    def _taken(self) -> set[str]:
        """Every name the model uses, read once (fresh names are added as they are made)."""
        if self.taken is None:
            self.taken = used_names(self.out.graph)
        return self.taken

    def insert_clips(self) -> None:
        """Put each queued Clip right after the node it clips (the graph stays topologically sorted)."""
        if not self.inserted:
            return
        nodes = list(self.out.graph.node)
        del self.out.graph.node[:]
        self.out.graph.node.extend(self.inserted.get(-1, []))
        for i, n in enumerate(nodes):
            self.out.graph.node.append(n)
            self.out.graph.node.extend(self.inserted.get(i, []))


def _set_mark(out: onnx.ModelProto, key: str, value: object) -> None:
    """Replace the ``key`` mark of ``out`` by ``value`` in JSON."""
    props = [p for p in out.metadata_props if p.key != key]
    del out.metadata_props[:]
    out.metadata_props.extend(props)
    out.metadata_props.add(key=key, value=json.dumps(value))


def _clip_node(
    model: onnx.ModelProto,
    name: str,
    src: str,
    dst: str,
    lo: float,
    hi: float,
    elem: int,
    opset: int,
    taken: set[str],
) -> onnx.NodeProto:
    """The Clip ``src`` -> ``dst``: bounds as attributes before opset 11, as initializer inputs after."""
    if opset < 11:
        node = helper.make_node("Clip", [src], [dst], name=name)
        node.attribute.extend(
            helper.make_attribute(k, v)
            for k, v in (("max", hi), ("min", lo))
            if math.isfinite(v)  # make_node sorts
        )
        return node
    np_type = helper.tensor_dtype_to_np_dtype(elem)
    inputs = [
        src,
        *(_bound_input(model, f"{name}/{tag}", v, np_type, taken) for tag, v in (("min", lo), ("max", hi))),
    ]
    while inputs[-1] == "":
        inputs.pop()
    return helper.make_node("Clip", inputs, [dst], name=name)


def _bound_input(model: onnx.ModelProto, base: str, value: float, np_type: np.dtype, taken: set[str]) -> str:
    """An initializer holding ``value`` (its name), or ``""`` (an omitted input) for an infinite bound."""
    if not math.isfinite(value):
        return ""
    init = fresh_name(base, taken)
    model.graph.initializer.append(numpy_helper.from_array(np.array(value, dtype=np_type), init))
    return init


def patch_file(
    src: str | Path,
    dst: str | Path,
    *,
    keep_fp32: Iterable[str] = (),
    clip: Iterable[tuple[str, float, float]] = (),
    keep_inputs: Iterable[str] = (),
    per_channel: Iterable[str] = (),
    ranges: Iterable[tuple[str, float, float]] = (),
) -> PatchResult:
    """Read ``src``, patch it (:func:`patch_model`), write ``dst`` (external data is carried over next to
    ``dst``)."""
    from dumpscope.core.onnx.model_io import write_model

    src, dst = Path(src), Path(dst)
    _check_paths(src, dst)
    result = patch_model(
        _read_model(src),
        keep_fp32=keep_fp32,
        clip=list(clip),
        keep_inputs=keep_inputs,
        per_channel=per_channel,
        ranges=ranges,
    )
    _validate(result.model)
    dst.parent.mkdir(parents=True, exist_ok=True)
    write_model(result.model, dst)
    return result


def _check_paths(src: Path, dst: Path) -> None:
    """The input exists and the output would not overwrite it."""
    if not src.is_file():
        raise DumpError(f"{src}: no such model file")
    if dst.resolve() == src.resolve():
        raise DumpError(f"{dst}: the output would overwrite the input model; choose another -o")


def _read_model(src: Path) -> onnx.ModelProto:
    """The model at ``src`` with its external data loaded (DumpError when either is unreadable)."""
    from dumpscope.core.onnx.model_io import iter_tensors, text_names

    try:
        model = onnx.load_model(str(src), load_external_data=False)
    except Exception as exc:  # noqa: BLE001 - protobuf raises DecodeError and friends
        raise DumpError(f"{src}: not a readable ONNX model ({type(exc).__name__})") from None
    if any(t.data_location == TensorProto.EXTERNAL for t in iter_tensors(model.graph)):
        try:  # onnx refuses a location that is absolute, climbs out, is a link or not a regular file
            onnx.load_external_data_for_model(model, str(src.parent))
        except (OSError, ValueError, onnx.checker.ValidationError) as exc:
            raise DumpError(f"{src}: cannot read its external data ({exc})") from None
    return text_names(model)


def _validate(model: onnx.ModelProto) -> None:
    """onnx's checker on the patched model (skipped over 2 GiB, which it refuses)."""
    if model.ByteSize() >= _CHECK_LIMIT:
        return
    try:
        onnx.checker.check_model(model)
    except onnx.checker.ValidationError as exc:
        raise DumpError(f"the patched model does not validate: {str(exc).splitlines()[0]}") from None
