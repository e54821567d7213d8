"""A run's tensors fetched in groups under a memory budget (``--max-memory``).

onnxruntime's Python API returns the requested outputs of a run together, so the node outputs are
fetched in groups whose estimated size (from shape inference with the inputs' real shapes) stays
under a budget; :class:`GroupSessions` gives each group its own session whose graph outputs are
only that group, so the runtime frees the other activations as usual.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import onnx
from onnx import helper

from dumpscope.core.atomic import write_bytes
from dumpscope.core.dumps import DumpError
from dumpscope.core.heap import map_large_blocks, trim_free_heap
from dumpscope.core.onnx.graph import GraphFacts, outer_scope_inputs
from dumpscope.core.onnx.inputs import ModelInput, np_dtype
from dumpscope.core.onnx.targets import Prepared, open_session

if TYPE_CHECKING:
    import onnxruntime as ort


UNKNOWN_SIZE = 1 << 20  # bytes assumed for a tensor shape inference could not size


def estimate_sizes(proto: onnx.ModelProto, facts: GraphFacts, inputs: Sequence[ModelInput]) -> dict[str, int]:
    """Bytes of each node output, from shape inference with the inputs' real shapes.

    A tensor shape inference cannot size gets the largest size among its node's
    inputs (right for elementwise ops, the common case), else 1 MiB.
    """
    known: dict[str, int] = {i.name: i.array.nbytes for i in inputs}
    _add_inferred_sizes(_with_input_shapes(proto, inputs), known)
    for node in facts.nodes:
        fallback = max((known.get(i, 0) for i in node.inputs), default=0) or UNKNOWN_SIZE
        for out in node.outputs:
            known.setdefault(out, fallback)
    return known


def _with_input_shapes(proto: onnx.ModelProto, inputs: Sequence[ModelInput]) -> onnx.ModelProto:
    """A copy of the model whose graph inputs declare the shapes of the data given to them."""
    graph = onnx.GraphProto()
    graph.CopyFrom(proto.graph)
    shapes = {i.name: i.array.shape for i in inputs}
    for vi in graph.input:
        if vi.name in shapes:
            _declare_shape(vi, shapes[vi.name])
    return helper.make_model(graph, opset_imports=proto.opset_import, ir_version=proto.ir_version)


def _declare_shape(vi: onnx.ValueInfoProto, shape: tuple[int, ...]) -> None:
    """Replace the declared shape of a graph input by ``shape``."""
    vi.type.tensor_type.ClearField("shape")
    for d in shape:
        vi.type.tensor_type.shape.dim.add().dim_value = d


def _add_inferred_sizes(model: onnx.ModelProto, known: dict[str, int]) -> None:
    """Bytes of every tensor shape inference gives a full static shape and a type."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False, data_prop=True)
        for vi in (*inferred.graph.value_info, *inferred.graph.output):
            size = _static_bytes(vi.type.tensor_type)
            if size is not None:
                known[vi.name] = size
    except Exception:  # noqa: BLE001 - inference is a best effort; sizes fall back in estimate_sizes
        pass


def _static_bytes(tt: onnx.TypeProto.Tensor) -> int | None:
    """Bytes of a tensor type with a known element type and only fixed dims, else None."""
    if not tt.elem_type or not tt.HasField("shape") or not all(d.HasField("dim_value") for d in tt.shape.dim):
        return None
    dims = [d.dim_value for d in tt.shape.dim]
    return int(np.prod(dims, dtype=np.int64)) * np_dtype(tt.elem_type).itemsize


def group_by_budget(names: Sequence[str], sizes: Mapping[str, int], budget: int) -> list[list[str]]:
    """Consecutive groups whose summed size stays under ``budget`` (a bigger tensor goes alone)."""
    groups: list[list[str]] = []
    current: list[str] = []
    total = 0
    for name in names:
        size = sizes.get(name, UNKNOWN_SIZE)
        if current and total + size > budget:
            groups.append(current)
            current, total = [], 0
        current.append(name)
        total += size
    if current:
        groups.append(current)
    return groups


def run_group(session: ort.InferenceSession, group: list[str], feeds: Mapping[str, np.ndarray]) -> list[Any]:
    try:
        return session.run(group, feeds)
    except Exception as exc:  # noqa: BLE001 - onnxruntime's pybind errors have no common base
        raise DumpError(
            f"onnxruntime failed while running the model: {str(exc).strip().splitlines()[0]}"
        ) from None


class GroupSessions:
    """One onnxruntime session per fetch group, whose graph outputs are only that group.

    onnxruntime keeps every *graph output* alive until the end of a run, whichever
    outputs are fetched: with every node output exposed, one run holds all activations
    at once (1.7 GB for PP-OCRv4 det at 960x960, against 215 MB for a plain run), and
    fetching in groups changed nothing.  A session per group lets the runtime free all
    other activations as usual, so the peak is a plain run plus the group (the
    ``--max-memory`` budget).  The price: each group re-runs the graph up to its last
    tensor (the nodes it depends on), and each session is built anew (the full session is dropped first).
    """

    def __init__(self, prepared: Prepared, proto: onnx.ModelProto, full: ort.InferenceSession) -> None:
        self.prepared, self.proto = prepared, proto
        self.full: ort.InferenceSession | None = full
        self._model: onnx.ModelProto | None = None

    def __call__(self, group: list[str]) -> ort.InferenceSession:
        if self.full is not None and len(group) == len(self.prepared.fetch):
            return self.full  # one group: the session already open
        self.full = None
        map_large_blocks()
        trim_free_heap()  # the previous group's session and tensors are gone by now
        return open_session(self._write(group), self.proto, data_dir=self.prepared.data_dir, arena=False)

    def _write(self, group: list[str]) -> Path:
        """The run model with only ``group`` as graph outputs, beside it (its external data resolves)."""
        if self._model is None:
            self._model = onnx.load_model(str(self.prepared.path), load_external_data=False)
            self._outputs = {o.name: o for o in self._model.graph.output}
        model = onnx.ModelProto()
        model.CopyFrom(self._model)
        del model.graph.output[:]
        model.graph.output.extend(self._outputs[name] for name in group)
        kept = _ancestors(model.graph, group)
        del model.graph.node[:]
        model.graph.node.extend(kept)
        _drop_unread_constants(model.graph, kept, group)
        path = self.prepared.path.with_name(f"{self.prepared.path.stem}.group.onnx")
        write_bytes(model.SerializeToString(), path)
        return path


def _ancestors(graph: onnx.GraphProto, wanted: Sequence[str]) -> list[onnx.NodeProto]:
    """The nodes ``wanted`` depend on, in file order: a group's run skips the rest of the graph.

    Outer-scope tensors read by If/Loop/Scan bodies count as inputs.
    """
    producer = {out: k for k, node in enumerate(graph.node) for out in node.output if out}
    keep: set[int] = set()
    todo = [producer[name] for name in wanted if name in producer]
    while todo:
        k = todo.pop()
        if k not in keep:
            keep.add(k)
            todo += _producers_of(graph.node[k], producer)
    return [node for k, node in enumerate(graph.node) if k in keep]


def _drop_unread_constants(
    graph: onnx.GraphProto, kept: Sequence[onnx.NodeProto], group: Sequence[str]
) -> None:
    """Remove the initializers no kept node reads, and their graph inputs.

    A pruned node leaves its initializers behind (an int8 model's zero points, say), and
    onnxruntime refuses an IR-3 model holding an initializer no node reads ("Graph ctor
    should have created NodeArg for initializer"); in IR 3 each initializer is also a
    graph input, which goes with it.
    """
    read = {*group}
    for node in kept:
        read.update(i for i in node.input if i)
        read |= outer_scope_inputs(node)
    dropped = {t.name for t in graph.initializer if t.name not in read}
    dropped |= {t.values.name for t in graph.sparse_initializer if t.values.name not in read}
    if not dropped:
        return
    for field in (graph.initializer, graph.sparse_initializer, graph.input):
        keep = [t for t in field if _name_of(t) not in dropped]
        del field[:]
        field.extend(keep)


def _name_of(entry: Any) -> str:
    return entry.values.name if isinstance(entry, onnx.SparseTensorProto) else entry.name


def _producers_of(node: onnx.NodeProto, producer: Mapping[str, int]) -> list[int]:
    """Indices of the nodes making what ``node`` reads (its bodies' outer-scope reads included)."""
    return [producer[i] for i in {*node.input, *outer_scope_inputs(node)} if i in producer]
