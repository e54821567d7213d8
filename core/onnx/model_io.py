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


def text_names(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` with every name that is not valid UTF-8 made text, in place.

    Protobuf hands such a string field over as ``bytes`` (a hostile or corrupt model), which
    every name lookup would trip on; it becomes the text :func:`~dumpscope.core.names.display`
    shows for the same bytes in a file name (``\\xff``), so the model's names still match the
    dumps'.  Valid models are left as they are (one pass over the graph's names)."""
    for graph in _graphs(model.graph):
        for node in graph.node:
            for field in ("name", "op_type", "domain"):
                if isinstance(getattr(node, field), bytes):
                    setattr(node, field, _text(getattr(node, field)))
            for names in (node.input, node.output):
                if any(isinstance(n, bytes) for n in names):
                    names[:] = [_text(n) for n in names]
        for infos in (graph.input, graph.output, graph.value_info, graph.initializer):
            for info in infos:
                if isinstance(info.name, bytes):
                    info.name = _text(info.name)
    return model


def _text(value: str | bytes) -> str:
    return value if isinstance(value, str) else value.decode("utf-8", "backslashreplace")


def _graphs(graph: onnx.GraphProto) -> Iterator[onnx.GraphProto]:
    """``graph`` and every body inside it (iteratively: bodies nest)."""
    stack = [graph]
    while stack:
        g = stack.pop()
        yield g
        for node in g.node:
            for attr in node.attribute:
                stack.extend(attribute_graphs(attr))


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
        onnx.save_model(
            proto,
            str(tmp),
            save_as_external_data=True,
            all_tensors_to_one_file=True,
            location=location,
            size_threshold=1024,
        )
        os.replace(tmp.with_name(location), weights)  # both temporaries lie beside ``path``: one file system
    return path
