"""Reading and writing ONNX model protos: the helpers both target recipes and patches use."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from dumpscope.core.onnx.lazy import onnx

PROTO_LIMIT = 1_800_000_000
"""Protobuf refuses to serialise 2 GiB; a model above this is saved with external data."""


def iter_tensors(graph: onnx.GraphProto) -> Iterator[onnx.TensorProto]:
    """Every TensorProto of a graph: initializers and tensor attributes, bodies included."""
    yield from graph.initializer
    for node in graph.node:
        for attr in node.attribute:
            yield from _attribute_tensors(attr)


def _attribute_tensors(attr: onnx.AttributeProto) -> Iterator[onnx.TensorProto]:
    """The tensor an attribute holds, or every tensor of the graph(s) it holds."""
    if attr.type == onnx.AttributeProto.TENSOR:
        yield attr.t
    for g in attribute_graphs(attr):
        yield from iter_tensors(g)


def attribute_graphs(attr: onnx.AttributeProto) -> Iterable[onnx.GraphProto]:
    """The body (``GRAPH``) or bodies (``GRAPHS``) an attribute holds; none for other types."""
    if attr.type == onnx.AttributeProto.GRAPH:
        return (attr.g,)
    return attr.graphs if attr.type == onnx.AttributeProto.GRAPHS else ()


def write_model(proto: onnx.ModelProto, path: Path) -> Path:
    """Save ``proto`` as ``path``; a proto too big for protobuf is saved with external data next to it.

    The model (and its weights) are written through :mod:`dumpscope.core.atomic`: under a
    temporary name, then renamed (a run cut short leaves no half-written model at ``path``)."""
    import os

    from dumpscope.core.atomic import atomic_path

    if proto.ByteSize() <= PROTO_LIMIT:
        with atomic_path(path) as tmp:
            onnx.save_model(proto, str(tmp))
        return path
    location = f"{Path(path).stem}.weights"
    with atomic_path(Path(path).with_name(location)) as weights, atomic_path(path) as tmp:
        onnx.save_model(proto, str(tmp), save_as_external_data=True, all_tensors_to_one_file=True,
                        location=location, size_threshold=1024)
        os.replace(tmp.with_name(location), weights)  # both temporaries lie beside ``path``: one file system
    return path
