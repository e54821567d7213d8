"""ONNX graph facts: topological order, producers and consumers, constants.

Pairing, ordering and the introduced-vs-inherited diagnosis all need the same few
facts about a model; :func:`load_graph` computes them once and never fails on a
messy graph: a cycle or an input nobody produces is recorded in
:attr:`GraphFacts.problems` and the nodes involved are still listed.

Only the top-level graph is described.  Nodes inside If/Loop/Scan bodies are not
listed (their tensors are not dumped either), but the outer-scope tensors a body
reads count as inputs of the control-flow node when ordering, so that node never
comes before the producers of what its bodies use.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.lazy import onnx
from dumpscope.core.onnx.model_io import attribute_graphs, text_names

CONTROL_FLOW_OPS = frozenset({"If", "Loop", "Scan"})


@dataclass(frozen=True)
class NodeFacts:
    """One node of the top-level graph."""

    name: str
    """``node.name``, or ``f"{op_type}_{index}"`` when empty (msit's rule); unique in the graph."""
    op_type: str
    index: int
    """Topological index (0..n-1)."""
    inputs: tuple[str, ...]
    """Input tensor names; empty (omitted optional) inputs are dropped."""
    outputs: tuple[str, ...]
    domain: str = ""


@dataclass(frozen=True)
class GraphFacts:
    """What the engine needs to know about a model's top-level graph."""

    nodes: tuple[NodeFacts, ...]
    """Topologically sorted (Kahn, stable with respect to file order)."""
    graph_inputs: tuple[str, ...]
    """Real inputs: graph inputs that are not initializers."""
    graph_outputs: tuple[str, ...]
    initializers: frozenset[str]
    constants: frozenset[str]
    """Outputs of ``Constant`` nodes."""
    producer: Mapping[str, NodeFacts]
    consumers: Mapping[str, tuple[NodeFacts, ...]]
    control_flow: tuple[str, ...]
    """Names of If/Loop/Scan nodes (tensors inside their bodies are not dumped)."""
    problems: tuple[str, ...] = ()
    _order: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)
    proto: onnx.ModelProto | None = field(default=None, repr=False, compare=False)
    """The parsed model (external data not loaded), kept so that a replay of a suspect node does
    not parse the file again; None for a model file above :data:`KEEP_PROTO_BYTES`."""

    def tensor_order(self) -> dict[str, int]:
        """Tensor name -> topological index of its producer (-1 for inputs and constants)."""
        return dict(self._order)


#: A model file above this size is not kept parsed (its weights would stay in memory).
KEEP_PROTO_BYTES = 512 * 1024 * 1024


def load_graph(model: str | Path | onnx.ModelProto) -> GraphFacts:
    """Graph facts of ``model`` (a path or a loaded proto).

    External data is never read: only the graph structure is needed, and weights
    of a large model would cost gigabytes.
    """
    proto = model if isinstance(model, onnx.ModelProto) else _read_structure(Path(model))
    facts = graph_facts(proto.graph)
    small = isinstance(model, onnx.ModelProto) or Path(model).stat().st_size <= KEEP_PROTO_BYTES
    return replace(facts, proto=proto) if small else facts


def _read_structure(path: Path) -> onnx.ModelProto:
    """The model at ``path`` without its external data (DumpError when missing or unreadable)."""
    if path.exists() and not path.is_file():  # a FIFO would block the read; a folder is no model
        raise DumpError(f"{path}: not a regular file (a folder, a FIFO or a device); not opened")
    try:
        return text_names(onnx.load_model(str(path), load_external_data=False))
    except FileNotFoundError:
        raise DumpError(f"{path}: no such file") from None
    except Exception as exc:  # noqa: BLE001 - protobuf raises DecodeError and friends
        raise DumpError(f"{path}: not a readable ONNX model ({type(exc).__name__}: {exc})") from None


def graph_facts(graph: onnx.GraphProto) -> GraphFacts:
    """Graph facts of an already loaded graph."""
    problems: list[str] = []
    initializers = frozenset(t.name for t in graph.initializer) | frozenset(
        t.values.name for t in graph.sparse_initializer
    )
    graph_inputs = tuple(i.name for i in graph.input if i.name not in initializers)
    nodes = _node_facts(list(graph.node), set(graph_inputs) | initializers, problems)
    producer, consumers = _links(nodes, problems)
    constants = frozenset(o for nf in nodes if _is_standard(nf, ("Constant",)) for o in nf.outputs)
    return GraphFacts(
        nodes=tuple(nodes),
        graph_inputs=graph_inputs,
        graph_outputs=tuple(o.name for o in graph.output),
        initializers=initializers,
        constants=constants,
        producer=MappingProxyType(producer),
        consumers=MappingProxyType({k: tuple(v) for k, v in consumers.items()}),
        control_flow=tuple(nf.name for nf in nodes if _is_standard(nf, CONTROL_FLOW_OPS)),
        problems=tuple(problems),
        _order=MappingProxyType(_tensor_order((*graph_inputs, *initializers), producer, constants)),
    )


def _is_standard(nf: NodeFacts, op_types: Iterable[str]) -> bool:
    """A node of the default ONNX domain whose type is one of ``op_types``."""
    return nf.op_type in op_types and not nf.domain


def _tensor_order(
    sources: Iterable[str], producer: Mapping[str, NodeFacts], constants: frozenset[str]
) -> dict[str, int]:
    """Tensor -> topological index of its producer; -1 for inputs, initializers and constants."""
    order = dict.fromkeys(sources, -1)
    order.update((name, -1 if name in constants else nf.index) for name, nf in producer.items())
    return order


def _node_facts(raw: list[onnx.NodeProto], available: set[str], problems: list[str]) -> list[NodeFacts]:
    """The nodes in topological order, with unique names."""
    order = _kahn_order(raw, available, problems)
    names = _unique_names(raw, order)
    return [
        NodeFacts(
            name=names[file_idx],
            op_type=raw[file_idx].op_type,
            index=topo,
            inputs=tuple(i for i in raw[file_idx].input if i),
            outputs=tuple(o for o in raw[file_idx].output if o),
            domain=raw[file_idx].domain,
        )
        for topo, file_idx in enumerate(order)
    ]


def _links(
    nodes: list[NodeFacts], problems: list[str]
) -> tuple[dict[str, NodeFacts], dict[str, list[NodeFacts]]]:
    """Tensor -> its producer (the first; a second one is reported) and -> its consumers."""
    producer: dict[str, NodeFacts] = {}
    consumers: dict[str, list[NodeFacts]] = {}
    for nf in nodes:
        _add_producer(nf, producer, problems)
        for inp in dict.fromkeys(nf.inputs):
            consumers.setdefault(inp, []).append(nf)
    return producer, consumers


def _add_producer(nf: NodeFacts, producer: dict[str, NodeFacts], problems: list[str]) -> None:
    """Record ``nf`` as the producer of its outputs; an output already produced is reported."""
    for out in nf.outputs:
        if out in producer:
            problems.append(f"tensor {out!r} is produced by both {producer[out].name!r} and {nf.name!r}")
        else:
            producer[out] = nf


def outer_scope_inputs(node: onnx.NodeProto) -> set[str]:
    """Tensors a node's subgraphs read from the enclosing scope (empty for plain nodes)."""
    used: set[str] = set()
    for g in _subgraphs(node):
        used |= _free_names(g)
    return used


def _subgraphs(node: onnx.NodeProto) -> Iterator[onnx.GraphProto]:
    for attr in node.attribute:
        yield from attribute_graphs(attr)


def _free_names(graph: onnx.GraphProto) -> set[str]:
    """Names used in ``graph`` (and nested bodies) that it does not define itself."""
    defined = {i.name for i in graph.input} | {t.name for t in graph.initializer}
    defined |= {t.values.name for t in graph.sparse_initializer}
    used: set[str] = set()
    for n in graph.node:
        used.update(i for i in n.input if i)
        used |= outer_scope_inputs(n)
        defined.update(o for o in n.output if o)
    used.update(o.name for o in graph.output)
    return used - defined


def _kahn_order(nodes: list[onnx.NodeProto], available: set[str], problems: list[str]) -> list[int]:
    """File indices of ``nodes`` in topological order, smallest file index first among ready nodes.

    An input that no node produces and that is not a graph input or initializer is a
    *dangling* input: it is reported and treated as available.  Nodes left over by a
    cycle are reported and appended in file order.
    """
    deps = _dependencies(nodes, available, problems)
    order = _ready_order(deps)
    if len(order) < len(nodes):
        order += _cycle_leftovers(nodes, order, problems)
    return order


def _producers(nodes: list[onnx.NodeProto]) -> dict[str, int]:
    """Tensor name -> index of the first node producing it."""
    produced: dict[str, int] = {}
    for idx, n in enumerate(nodes):
        for o in n.output:
            if o:
                produced.setdefault(o, idx)
    return produced


def _dependencies(nodes: list[onnx.NodeProto], available: set[str], problems: list[str]) -> list[set[int]]:
    """Per node, the nodes it waits for; dangling inputs and self-reads are reported."""
    produced = _producers(nodes)
    dangling: dict[str, str] = {}
    deps = [_waits_for(idx, n, available, produced, dangling, problems) for idx, n in enumerate(nodes)]
    problems += [
        f"input {t!r} of node {who!r} is produced by no node and is not a graph input"
        for t, who in dangling.items()
    ]
    return deps


def _waits_for(
    idx: int,
    n: onnx.NodeProto,
    available: set[str],
    produced: Mapping[str, int],
    dangling: dict[str, str],
    problems: list[str],
) -> set[int]:
    """The nodes node ``idx`` waits for; its dangling inputs go to ``dangling``, a self-read to
    ``problems``."""
    mine: set[int] = set()
    for t in _unavailable(n, available):
        p = produced.get(t)
        if p is None:
            dangling.setdefault(t, n.name or f"{n.op_type} #{idx}")
        elif p != idx:
            mine.add(p)
        else:
            problems.append(f"node {n.name or n.op_type!r} reads its own output {t!r}")
    return mine


def _unavailable(n: onnx.NodeProto, available: set[str]) -> list[str]:
    """What ``n`` (or one of its bodies) reads that is neither a graph input nor an initializer."""
    return [t for t in {i for i in n.input if i} | outer_scope_inputs(n) if t not in available]


def _ready_order(deps: list[set[int]]) -> list[int]:
    """Kahn's algorithm, smallest index first among ready nodes."""
    waiting = [len(d) for d in deps]
    dependants: list[list[int]] = [[] for _ in deps]
    for idx, d in enumerate(deps):
        for p in d:
            dependants[p].append(idx)
    ready = [idx for idx, w in enumerate(waiting) if w == 0]
    heapq.heapify(ready)
    order: list[int] = []
    while ready:
        idx = heapq.heappop(ready)
        order.append(idx)
        for child in dependants[idx]:
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, child)
    return order


def _cycle_leftovers(nodes: list[onnx.NodeProto], order: list[int], problems: list[str]) -> list[int]:
    """Nodes a cycle kept from running, in file order (reported)."""
    done = set(order)
    stuck = [idx for idx in range(len(nodes)) if idx not in done]
    shown = ", ".join(repr(nodes[i].name or nodes[i].op_type) for i in stuck[:5])
    more = f" and {len(stuck) - 5} more" if len(stuck) > 5 else ""
    problems.append(f"the graph has a cycle; nodes {shown}{more} are listed in file order")
    return stuck


def _unique_names(nodes: list[onnx.NodeProto], order: Iterable[int]) -> dict[int, str]:
    """File index -> unique node name.

    Named nodes keep their name (the first one, in topological order, when a name
    repeats); unnamed nodes get ``{op_type}_{topo_index}``; clashes get ``_1``, ``_2``...
    """
    topo_of = {file_idx: topo for topo, file_idx in enumerate(order)}
    taken: set[str] = set()
    result: dict[int, str] = {}
    pending: list[tuple[int, str]] = []
    for file_idx in sorted(topo_of, key=topo_of.__getitem__):
        name = nodes[file_idx].name
        if name and name not in taken:
            taken.add(name)
            result[file_idx] = name
        else:
            pending.append((file_idx, name or f"{nodes[file_idx].op_type}_{topo_of[file_idx]}"))
    result.update(_suffixed(pending, taken))
    return result


def _suffixed(pending: list[tuple[int, str]], taken: set[str]) -> dict[int, str]:
    """File index -> ``base`` or ``base_k`` with the smallest ``k`` not ``taken`` (recorded there)."""
    last: dict[str, int] = {}  # per base, the last suffix tried: 20k same-named nodes stay linear
    result: dict[int, str] = {}
    for file_idx, base in pending:
        k = last.get(base, 0)
        name = base if k == 0 else f"{base}_{k}"
        while name in taken:
            k += 1
            name = f"{base}_{k}"
        last[base] = k
        taken.add(name)
        result[file_idx] = name
    return result


def used_names(graph: onnx.GraphProto) -> set[str]:
    """Every tensor and node name a graph uses (to invent new ones that do not clash)."""
    names = {i.name for i in graph.input} | {t.name for t in graph.initializer}
    for n in graph.node:
        names.update(n.input)
        names.update(n.output)
        names.add(n.name)
    return names


def fresh_name(base: str, taken: set[str]) -> str:
    """``base``, made unique against ``taken`` (and recorded there)."""
    name = base
    while name in taken:
        name += "_"
    taken.add(name)
    return name
