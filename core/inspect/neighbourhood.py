"""The graph around one row: the producers of its node's inputs, the row, and its consumers.

Built on the same input edges the diagnosis reasons over
(:func:`~dumpscope.core.diagnosis.edges.build_edges`): a dumpscope manifest's recorded
node inputs, the ONNX model, or the ATC graph - whichever the comparison was made with.
The edges are built once per comparison and reused for every row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.diagnosis.edges import Edges
from dumpscope.core.dumps import PerObject

__all__ = ["Neighbourhood", "neighbourhood"]


@dataclass(frozen=True)
class Neighbourhood:
    """Rows around ``row`` (frame positions, topological order within each group)."""

    row: int
    inputs: tuple[int, ...] = ()
    """Rows that produce the inputs of the row's node (constants included when they are rows)."""
    consumers: tuple[int, ...] = ()
    """Rows whose node takes this row's tensor as an input."""
    constant_inputs: tuple[str, ...] = ()
    """Constant inputs by name (initializers, weights), whether or not they are rows."""
    unresolved: tuple[str, ...] = ()
    """Input names that match no row (not dumped, or not paired)."""
    known: bool = False
    """The row's inputs are known from some source (else: no graph facts for this row)."""
    source: str = "none"
    """Where the edges came from (``the ONNX graph``, ``the ATC graph``, ``the dump manifest``)."""


_EDGES: PerObject[Edges] = PerObject()


def _build(cmp: Comparison) -> Edges:
    from dumpscope.core.diagnosis.edges import build_edges, graph_sources

    return build_edges(cmp, graph_sources(cmp, None)[0])


def _edges(cmp: Comparison) -> Edges:
    """The comparison's input edges, built once (the graph facts it holds, or the one it names)."""
    return _EDGES.get(cmp, lambda: _build(cmp))


def neighbourhood(cmp: Comparison, row: int) -> Neighbourhood:
    """Producers, consumers and constant inputs of frame row ``row`` of ``cmp``."""
    edges = _edges(cmp)
    frame = edges.frame
    rows = frame["row"].to_numpy()
    inputs = frame["input_row"].to_numpy()
    producers = np.unique(inputs[rows == row])
    consumers = np.unique(rows[inputs == row])
    return Neighbourhood(
        row,
        tuple(int(r) for r in producers if r != row),
        tuple(int(r) for r in consumers if r != row),
        tuple(edges.constant_inputs.get(row, ())),
        tuple(edges.unresolved.get(row, ())),
        row in edges.known,
        edges.source,
    )
