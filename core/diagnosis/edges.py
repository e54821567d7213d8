"""Which comparison rows feed which: the edges the diagnosis reasons over.

A row's inputs come from the best source at hand, per row:

1. the dump's own record of the producing node's inputs (our manifests'
   ``node_inputs``, held in :attr:`TensorInfo.node_inputs`);
2. the ONNX graph (:class:`~dumpscope.core.onnx.graph.GraphFacts`): the inputs of the node
   producing the golden tensor;
3. an Ascend ATC graph JSON: the ``input`` list (``"op:index"``) of the target op.

Several sources can be given (an ONNX model and an ATC graph); per row, the first input
list whose flowing inputs are all compared rows wins, else the first one known.

An input name resolves to a row by tensor name (golden or target side), then by
``(node, output index)`` on either side.  Inputs that are constants (initializers,
``Constant`` outputs, rows of kind ``constant``) are kept apart: a node whose only bad
input is a constant *introduces* its error (the constant is the evidence), it does not
inherit it.

The graphs themselves (:func:`graph_sources`): the one given to ``diagnose``, else those the
comparison was built with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from dumpscope.core.comparison.pairing import Pair
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.dumps import Dump, DumpError, TensorRef
from dumpscope.core.onnx.graph import GraphFacts, load_graph
from dumpscope.core.vendor.atc_graph import AtcGraph

#: A parsed graph that knows each node's inputs.
GraphSource = GraphFacts | AtcGraph

EDGE_SCHEMA: dict[str, pl.DataType] = {"row": pl.Int64(), "input_row": pl.Int64(), "constant": pl.Boolean()}


@dataclass(frozen=True)
class Edges:
    """Input edges between rows of a comparison frame."""

    frame: pl.DataFrame
    """``row``, ``input_row``, ``constant`` (the input is a constant)."""
    constant_inputs: Mapping[int, tuple[str, ...]]
    """Row -> names of its constant inputs (whether or not they are rows)."""
    unresolved: Mapping[int, tuple[str, ...]]
    """Row -> input names that match no row (not dumped, unmatched, or unknown)."""
    known: frozenset[int]
    """Rows whose inputs are known (from any source), even if none resolved."""
    source: str
    """Where the edges came from, for the report."""


def _split_ref(ref: str) -> tuple[str, int] | None:
    node, sep, idx = ref.rpartition(":")
    if sep and node and idx.isdigit():
        return node, int(idx)
    return None


class _Resolver:
    """Input names -> rows: by tensor name, then by ``node:index``; and which are constants."""

    def __init__(self, pairs: Sequence[Pair], constant_names: frozenset[str]) -> None:
        self.pairs = pairs
        self.constant_names = constant_names
        self.by_name: dict[str, int] = {}
        self.by_node: dict[tuple[str, int], int] = {}
        for i, p in enumerate(pairs):
            for ref in _sides(p):
                self._add(ref, i)

    def _add(self, ref: TensorRef, i: int) -> None:
        self.by_name.setdefault(ref.name, i)
        if ref.info.node_name and ref.info.kind != "op_input":
            self.by_node.setdefault((ref.info.node_name, ref.info.output_index), i)

    def resolve(self, name: str) -> int | None:
        j = self.by_name.get(name)
        if j is None and (split := _split_ref(name)) is not None:
            j = self.by_node.get(split)
        return j

    def input_of(self, name: str, row: int) -> tuple[int | None, bool]:
        """Input ``name`` of ``row``: the other row it resolves to (None when none, or only ``row``
        itself), and whether it is a constant."""
        j = self.resolve(name)
        return (j if j != row else None), self.is_constant(name, j)

    def is_constant(self, name: str, j: int | None) -> bool:
        """A constant by its name, or by row ``j``'s tensor (its name or its kind)."""
        if name in self.constant_names:
            return True
        ref = self._ref(j)
        return ref is not None and (ref.name in self.constant_names or ref.info.kind == "constant")

    def _ref(self, j: int | None) -> TensorRef | None:
        """Row ``j``'s tensor: the golden one, else the target's (None for no row)."""
        if j is None:
            return None
        return self.pairs[j].golden or self.pairs[j].target

    def compared(self, name: str, row: int) -> bool:
        """A flowing input that is another compared row (constants always qualify)."""
        j = self.resolve(name)
        if self.is_constant(name, j):
            return True
        return j is not None and j != row and len(_sides(self.pairs[j])) == 2


def _sides(p: Pair) -> list[TensorRef]:
    """The tensors a pair has: golden then target, each when present."""
    return [ref for ref in (p.golden, p.target) if ref is not None]


@dataclass
class _EdgeLists:
    """The edges being built, column by column."""

    rows: list[int] = field(default_factory=list)
    inputs: list[int] = field(default_factory=list)
    consts: list[bool] = field(default_factory=list)
    constant_inputs: dict[int, tuple[str, ...]] = field(default_factory=dict)
    unresolved: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def add_row(self, i: int, names: Sequence[str], resolver: _Resolver) -> None:
        """The edges of row ``i`` from its input names."""
        cons: list[str] = []
        lost: list[str] = []
        for name in dict.fromkeys(names):
            j, const = resolver.input_of(name, i)
            if const:
                cons.append(name)
            if j is not None:
                self._edge(i, j, const)
            elif not const:
                lost.append(name)
        self._keep(i, cons, lost)

    def _keep(self, i: int, cons: list[str], lost: list[str]) -> None:
        """Row ``i``'s constant input names and the names that resolved to no other row, when any."""
        for names_of, found in ((self.constant_inputs, cons), (self.unresolved, lost)):
            if found:
                names_of[i] = tuple(found)

    def _edge(self, i: int, j: int, const: bool) -> None:
        """Row ``j`` (a constant or not) is an input of row ``i``."""
        self.rows.append(i)
        self.inputs.append(j)
        self.consts.append(const)

    def edges(self, known: set[int], sources: set[str]) -> Edges:
        """The edges built, with the rows whose inputs are known and where they came from."""
        frame = pl.DataFrame(
            {"row": self.rows, "input_row": self.inputs, "constant": self.consts}, schema=EDGE_SCHEMA
        )
        return Edges(
            frame,
            self.constant_inputs,
            self.unresolved,
            frozenset(known),
            ", ".join(sorted(sources)) or "none",
        )


def build_edges(cmp: Comparison, graphs: Sequence[GraphSource] = ()) -> Edges:
    """The input edges of every row of ``cmp`` (none when it has no pairing)."""
    if cmp.pairing is None:
        return Edges(pl.DataFrame(schema=EDGE_SCHEMA), {}, {}, frozenset(), "none (no tensors)")
    pairs = cmp.pairing.pairs
    listed = [
        (i, choices) for i, p in enumerate(pairs) if (choices := _input_names(p.golden, p.target, graphs))
    ]
    if not listed:  # no row knows its inputs: no name index over every row (100k unmatched rows)
        return _EdgeLists().edges(set(), set())
    resolver = _Resolver(pairs, _constant_names(cmp, graphs))
    lists = _EdgeLists()
    sources: set[str] = set()
    known: set[int] = set()
    for i, choices in listed:
        names, source = _chosen(choices, resolver, i)
        sources.add(source)
        known.add(i)
        lists.add_row(i, names, resolver)
    return lists.edges(known, sources)


def _chosen(choices: list[InputList], resolver: _Resolver, i: int) -> InputList:
    """The input list row ``i`` takes.  A fused target op's golden inputs are intermediates of its
    group, not compared: the first source whose flowing inputs are all compared rows wins."""
    return next(
        ((names, source) for names, source in choices if all(resolver.compared(n, i) for n in names)),
        choices[0],
    )


InputList = tuple[tuple[str, ...], str]


def _input_names(
    golden: TensorRef | None, target: TensorRef | None, graphs: Sequence[GraphSource]
) -> list[InputList]:
    """Every known input list of a row's producing node, best source first: the dump manifests',
    then each graph's."""
    found: list[InputList] = [
        (ref.info.node_inputs, "the dump manifest")
        for ref in (golden, target)
        if ref is not None and ref.info.node_inputs
    ]
    return found + [
        listed for graph in graphs if (listed := _graph_inputs(graph, golden, target)) is not None
    ]


def _graph_inputs(graph: GraphSource, golden: TensorRef | None, target: TensorRef | None) -> InputList | None:
    """The inputs one graph lists for the row's node (an ONNX graph by tensor, an ATC graph by target op)."""
    return (
        _onnx_inputs(graph, golden, target) if isinstance(graph, GraphFacts) else _atc_inputs(graph, target)
    )


def _onnx_inputs(graph: GraphFacts, golden: TensorRef | None, target: TensorRef | None) -> InputList | None:
    """The inputs of the ONNX node producing either side's tensor."""
    node = next(
        (graph.producer[r.name] for r in (golden, target) if r is not None and r.name in graph.producer), None
    )
    return (node.inputs, "the ONNX graph") if node is not None else None


def _atc_inputs(graph: AtcGraph, target: TensorRef | None) -> InputList | None:
    """The inputs an ATC graph lists for the target op."""
    if target is None or not target.info.node_name:
        return None
    refs = graph.inputs.get(target.info.node_name)
    return (refs, "the ATC graph") if refs is not None else None


def _constant_names(cmp: Comparison, graphs: Sequence[GraphSource]) -> frozenset[str]:
    """Names of the constants: those either dump marks as such, and every graph's initializers
    and ``Constant`` outputs."""
    names = _dump_constants(cmp.golden) | _dump_constants(cmp.target)
    for graph in [g for g in graphs if isinstance(g, GraphFacts)]:
        names |= graph.initializers | graph.constants
    return frozenset(names)


def _dump_constants(dump: Dump | None) -> set[str]:
    """The tensors a dump marks as constants."""
    if dump is None:
        return set()
    return {n for n, ref in dump.tensors.items() if ref.info.kind == "constant"}


def graph_sources(
    cmp: Comparison, graph: GraphFacts | str | Path | None
) -> tuple[list[GraphSource], AtcGraph | None]:
    """The graphs to take edges from, and the ATC graph (for fusion facts) if any.

    An explicit ``graph`` that cannot be read is an error.  By default the graph facts
    the comparison was built with are reused (parsed once per command); a reopened
    comparison has none, and no tensors, so no edges either.
    """
    if isinstance(graph, GraphFacts):
        return [graph], None
    if graph is not None:
        return _explicit_source(graph)
    if cmp.pairing is None:
        return [], None
    return _recorded_sources(cmp)


def _recorded_sources(cmp: Comparison) -> tuple[list[GraphSource], AtcGraph | None]:
    """The model and ATC graph the comparison was built with (parsed facts, else reread by path)."""
    model = cmp.model_facts or _reload(cmp.meta.model)
    atc = cmp.atc or _reload(cmp.meta.graph)
    recorded: list[GraphSource] = [g for g in (model, atc) if g is not None]
    return recorded, atc if isinstance(atc, AtcGraph) else None


def _reload(path: object) -> GraphSource | None:
    """A graph recorded by path only (a comparison built by hand); None when unreadable."""
    if not path:
        return None
    try:
        return _explicit_source(str(path))[0][0]
    except DumpError:
        return None


def _explicit_source(path: str | Path) -> tuple[list[GraphSource], AtcGraph | None]:
    """A graph given to ``diagnose`` itself: an ATC graph JSON or an ONNX model."""
    if str(path).lower().endswith(".json"):
        from dumpscope.core.vendor.atc_graph import load_graph as load_atc

        atc = load_atc(path)
        return [atc], atc
    return [load_graph(path)], None
