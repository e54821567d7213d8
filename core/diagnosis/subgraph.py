"""Nodes cut out of the golden ONNX model and run alone on the CPU: what a replay runs.

:class:`ModelSource` reads the golden model once (lazily) per diagnosis: nodes by name and by
output, initializers, constants, and the model's name for a tensor of a several-run dump
(``frame5/attn/exp:0`` is the model's ``attn/exp:0``).  :func:`run_nodes` builds a model of some
nodes with their constants and runs it in onnxruntime, in float64 where every op allows it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.onnx.lazy import helper, numpy_helper, onnx


@dataclass
class ModelSource:
    """The golden model's nodes and constants, read once (lazily) per diagnosis."""

    path: Path
    _proto: onnx.ModelProto | None = None
    """The parsed model (the comparison's when it kept it; external data is read per tensor)."""
    _by_output: dict[str, onnx.NodeProto] = field(default_factory=dict)
    _by_name: dict[str, onnx.NodeProto] = field(default_factory=dict)
    _inits: dict[str, onnx.TensorProto] = field(default_factory=dict)
    _value_types: dict[str, int] = field(default_factory=dict)

    def proto(self) -> onnx.ModelProto:
        if self._proto is None:
            self._proto = onnx.load_model(str(self.path), load_external_data=False)
        if not self._by_output:
            self._index(self._proto.graph)
        return self._proto

    def _index(self, graph: onnx.GraphProto) -> None:
        """Nodes by name and by output, initializers and value types, read once."""
        self._inits = {t.name: t for t in graph.initializer}
        for node in graph.node:
            self._by_name.setdefault(node.name, node)
            self._by_output.update({o: node for o in node.output if o})
        for vi in (*graph.input, *graph.value_info, *graph.output):
            self._value_types[vi.name] = vi.type.tensor_type.elem_type

    def producer(self, tensor: str) -> onnx.NodeProto | None:
        self.proto()
        return self._by_output.get(tensor)

    def node(self, name: str) -> onnx.NodeProto | None:
        self.proto()
        return self._by_name.get(name)

    def initializer(self, name: str) -> onnx.TensorProto | None:
        self.proto()
        return self._inits.get(name)

    def is_constant(self, name: str) -> bool:
        """An initializer or the output of a ``Constant`` node."""
        return self.initializer(name) is not None or self.constant_node(name) is not None

    def run_prefix(self, name: str) -> tuple[str, str]:
        """``name`` as (run prefix, model tensor): a dump of several runs of the model prefixes each
        run's tensors (the streaming demo's ``frame5/``); the model tensor is the longest tail after a
        ``/`` that a node of the model produces ("" and ``name`` when no tail is)."""
        if self.producer(name) is not None:
            return "", name
        return _split_tail(name, lambda tail: self.producer(tail) is not None) or ("", name)

    def constant_node(self, name: str) -> onnx.NodeProto | None:
        node = self.producer(name)
        return node if node is not None and node.op_type == "Constant" and not node.domain else None

    def constant_value(self, name: str) -> np.ndarray | None:
        """A constant's golden value (initializer or ``Constant`` node), else None."""
        init = self.initializer(name)
        if init is not None:
            return numpy_helper.to_array(init, base_dir=str(self.path.parent))
        node = self.constant_node(name)
        if node is None:
            return None
        sess = _session(_model(self.proto(), [node], {}, [name], {}))
        return np.asarray(sess.run([name], {})[0])


def model_source(cmp: Comparison) -> ModelSource | None:
    """The golden model of a comparison (``--model``), when it is a readable file."""
    path = cmp.meta.model
    if not path or not Path(str(path)).is_file() or not cmp.has_tensors:
        return None
    return ModelSource(Path(str(path)), getattr(cmp.model_facts, "proto", None))


def _split_tail(name: str, known: Callable[[str], bool]) -> tuple[str, str] | None:
    """(prefix, tail) for the longest tail of ``name`` after a ``/`` that is ``known``, else None."""
    parts = name.split("/")
    for k in range(1, len(parts)):
        if known(tail := "/".join(parts[k:])):
            return "/".join(parts[:k]) + "/", tail
    return None


def model_tail(name: str, known: frozenset[str]) -> str:
    """The model's name for a dumped one: exact, else the longest name in ``known`` that it ends
    with after a ``/`` (dumps of several runs prefix names, e.g. ``frame5/``), else ``name``."""
    if name in known:
        return name
    found = _split_tail(name, known.__contains__)
    return found[1] if found else name


def subgraph_inputs(nodes: Sequence[onnx.NodeProto]) -> list[str]:
    """Inputs of ``nodes`` that none of them produces, in first-use order."""
    made = {o for n in nodes for o in n.output if o}
    return list(dict.fromkeys(i for n in nodes for i in n.input if i and i not in made))


def _model(
    proto: onnx.ModelProto,
    nodes: Sequence[onnx.NodeProto],
    feeds: Mapping[str, np.ndarray],
    outputs: Sequence[str],
    consts: Mapping[str, np.ndarray],
) -> bytes:
    """A model computing ``outputs`` of ``nodes`` from ``feeds`` (graph inputs) and ``consts``."""
    inputs = [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
        for n, a in feeds.items()
    ]
    inits = [numpy_helper.from_array(np.asarray(a), n) for n, a in consts.items()]
    graph = helper.make_graph(
        list(nodes),
        "replay",
        inputs,
        [helper.make_empty_tensor_value_info(o) for o in outputs],
        initializer=inits,
    )
    one = helper.make_model(graph, opset_imports=list(proto.opset_import), ir_version=proto.ir_version)
    return one.SerializeToString()


class _Session(Protocol):
    """The part of ``onnxruntime.InferenceSession`` a replay uses (onnxruntime ships no types)."""

    def run(self, output_names: list[str], input_feed: Mapping[str, np.ndarray], /) -> list[np.ndarray]: ...


def _session(model: bytes) -> _Session:
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 4
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.intra_op_num_threads = 1
    return ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])


def _widen(arrays: Mapping[str, np.ndarray], wide: bool) -> dict[str, np.ndarray]:
    """float32 arrays as float64 when ``wide`` (others unchanged)."""
    return {n: a.astype(np.float64) if wide and a.dtype == np.float32 else a for n, a in arrays.items()}


def _constants(
    src: ModelSource,
    nodes: Sequence[onnx.NodeProto],
    feeds: Mapping[str, np.ndarray],
    consts: Mapping[str, np.ndarray],
) -> tuple[list[onnx.NodeProto], dict[str, np.ndarray]]:
    """The ``Constant`` nodes to copy and the initializer values (``consts`` overriding) ``nodes`` read."""
    wanted = [n for n in subgraph_inputs(nodes) if n not in feeds]
    values = _initializer_values(src, wanted)
    values.update(consts)
    kept = [c for n in wanted if n not in values and (c := src.constant_node(n)) is not None]
    return kept, values


def _initializer_values(src: ModelSource, names: Iterable[str]) -> dict[str, np.ndarray]:
    """The golden values of those of ``names`` that are initializers."""
    return {
        n: value
        for n in names
        if src.initializer(n) is not None and (value := src.constant_value(n)) is not None
    }


def run_nodes(
    src: ModelSource,
    nodes: Sequence[onnx.NodeProto],
    feeds: Mapping[str, np.ndarray],
    output: str,
    consts: Mapping[str, np.ndarray] | None = None,
) -> tuple[np.ndarray, str]:
    """Run ``nodes`` alone on ``feeds`` (golden constants unless ``consts`` overrides some):
    in float64 when every op allows it, else float32.  Raises on a failing session."""
    proto = src.proto()
    kept, values = _constants(src, nodes, feeds, consts or {})
    failure: Exception | None = None
    for wide in (True, False):
        try:
            return _run_once(proto, [*kept, *nodes], feeds, output, values, wide)
        except Exception as exc:  # noqa: BLE001 - onnxruntime's pybind errors have no common base
            failure = exc
    raise RuntimeError(str(failure).splitlines()[0][:200] if failure else "replay failed")


def _run_once(
    proto: onnx.ModelProto,
    nodes: Sequence[onnx.NodeProto],
    feeds: Mapping[str, np.ndarray],
    output: str,
    values: Mapping[str, np.ndarray],
    wide: bool,
) -> tuple[np.ndarray, str]:
    """One session over ``nodes``: in float64 when ``wide``, else as fed; its output and precision."""
    model = _model(proto, nodes, _widen(feeds, wide), [output], _widen(values, wide))
    out = _session(model).run([output], _widen(feeds, wide))[0]
    return np.asarray(out), "float64" if wide else "float32"
