"""Shape-spec tensors: compared by the shape they resolve to, not by their spelling.

A Reshape's ``shape`` input is an integer tensor where ``0`` means "copy this dim of
the data" and ``-1`` "whatever is left".  An optimised graph may spell the same
reshape ``[0, 1, -1, 120]`` where the golden computed ``[0, 1, 20, 120]``: the same
shape, yet an exact comparison of the two int64 vectors fails.  So a tensor known to
feed a Reshape's shape input is resolved on each side against the data tensor's shape
(``allowzero`` = 0, ONNX's default) and the resolved shapes are compared exactly.

Which tensors are shape specs, and of which data, comes from the graph: the model's
:class:`~dumpscope.core.onnx.graph.GraphFacts` when given, else the producing node's
inputs that the dumps' manifests record.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from dumpscope.core.dumps import Dump

if TYPE_CHECKING:
    from dumpscope.core.onnx.graph import GraphFacts

__all__ = ["ShapeSpec", "resolve", "shape_specs"]

#: spec tensor name -> the data tensor's shape (per side: golden, target)
ShapeSpec = tuple[tuple[int, ...] | None, tuple[int, ...] | None]


def _reshape_links(dump: Dump, facts: GraphFacts | None) -> list[tuple[str, str]]:
    """(data tensor, shape tensor) of every Reshape the graph or the manifest knows (the graph's first)."""
    return [*_graph_links(facts), *_manifest_links(dump)]


def _graph_links(facts: GraphFacts | None) -> list[tuple[str, str]]:
    if facts is None:
        return []
    return [(n.inputs[0], n.inputs[1]) for n in facts.nodes if _is_reshape(n.op_type, n.inputs)]


def _manifest_links(dump: Dump) -> list[tuple[str, str]]:
    return [
        (ref.info.node_inputs[0], ref.info.node_inputs[1])
        for ref in dump.tensors.values()
        if _is_reshape(ref.info.op_type, ref.info.node_inputs)
    ]


def _is_reshape(op_type: str | None, inputs: Sequence[str]) -> bool:
    """A Reshape node with its data and shape inputs."""
    return op_type == "Reshape" and len(inputs) >= 2


def _shape(dump: Dump, name: str) -> tuple[int, ...] | None:
    ref = dump.tensors.get(name)
    return None if ref is None or ref.info.shape is None else tuple(ref.info.shape)


def shape_specs(golden: Dump, target: Dump, facts: GraphFacts | None) -> dict[str, ShapeSpec]:
    """Golden tensor name -> (golden data shape, target data shape) for every Reshape shape input
    (the first Reshape reading it wins; the target's shape defaults to the golden's)."""
    specs: dict[str, ShapeSpec] = {}
    for data, spec in _reshape_links(golden, facts):
        g = _shape(golden, data)
        if g is not None:
            specs.setdefault(spec, (g, _shape(target, data) or g))
    return specs


def resolve(spec: np.ndarray, data_shape: tuple[int, ...]) -> np.ndarray | None:
    """The shape a Reshape ``spec`` gives ``data_shape`` (allowzero = 0), or None when it
    does not resolve (not a 1-D integer vector, a 0 past the data's rank, several -1,
    a size that does not divide)."""
    if not _int_vector(spec):
        return None
    dims = [int(d) for d in spec]
    if not _valid_dims(dims, len(data_shape)):
        return None
    return _fill([data_shape[i] if d == 0 else d for i, d in enumerate(dims)], math.prod(data_shape))


def _int_vector(spec: np.ndarray) -> bool:
    return spec.ndim == 1 and spec.dtype.kind in "iu"


def _valid_dims(dims: list[int], rank: int) -> bool:
    """At most one -1, nothing below it, and every 0 (copy a data dim) within the data's rank."""
    return (
        dims.count(-1) <= 1
        and all(d >= -1 for d in dims)
        and not any(d == 0 and i >= rank for i, d in enumerate(dims))
    )


def _fill(out: list[int], total: int) -> np.ndarray | None:
    """The dims with a -1 replaced by what is left of ``total`` elements; None when that does not divide."""
    if -1 in out:
        known = math.prod(d for d in out if d != -1)
        if known == 0 or total % known:
            return None
        out[out.index(-1)] = total // known
    return np.asarray(out, dtype=np.int64)
