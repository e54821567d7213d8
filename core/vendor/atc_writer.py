"""Write an ATC graph JSON (the ``atc --mode=1/5`` shape :mod:`.atc_graph` reads).

The inverse of :func:`~dumpscope.core.vendor.atc_graph.parse_graph` for the fields
dumpscope uses: op name, type, id, the original op names a fused op stands for, the
fusion passes, and per output the original tensor it reproduces.  For synthetic
fixtures (fusion on vs off without an NPU) and minimal reproductions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dumpscope.core.atomic import write_text

__all__ = ["GraphOp", "graph_document", "write_graph"]


@dataclass(frozen=True)
class GraphOp:
    """One op of the written graph."""

    name: str
    type: str
    originals: tuple[str, ...] | None = None
    """Original op names (``None``: attribute absent, the op is its own original)."""
    origins: tuple[tuple[str, int] | None, ...] = ((None),)
    """Per output: (original op, its output index) that the output reproduces, or None."""
    passes: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    """Data inputs as ``op:index``."""


def _attr_strings(key: str, values: Sequence[str]) -> dict[str, object]:
    return {"key": key, "value": {"list": {"s": list(values)}}}


def _output_desc(origin: tuple[str, int] | None) -> dict[str, object]:
    attr = (
        []
        if origin is None
        else [
            {"key": "_datadump_origin_name", "value": {"s": origin[0]}},
            {"key": "_datadump_origin_output_index", "value": {"i": origin[1]}},
        ]
    )
    return {"dtype": "DT_FLOAT", "layout": "ND", "attr": attr}


def _op(op: GraphOp, op_id: int) -> dict[str, object]:
    attr = [] if op.originals is None else [_attr_strings("_datadump_original_op_names", op.originals)]
    if op.passes:
        attr.append(_attr_strings("pass_name", op.passes))
    return {
        "name": op.name,
        "type": op.type,
        "id": op_id,
        "input": list(op.inputs),
        "attr": attr,
        "output_desc": [_output_desc(o) for o in op.origins],
    }


def graph_document(ops: Sequence[GraphOp], name: str = "graph") -> dict[str, object]:
    """The JSON document (ops get ids in the order given)."""
    return {"name": name, "graph": [{"name": name, "op": [_op(op, i + 1) for i, op in enumerate(ops)]}]}


def write_graph(path: str | Path, ops: Sequence[GraphOp], name: str = "graph") -> Path:
    """Write :func:`graph_document` to ``path``."""
    p = Path(path)
    write_text(json.dumps(graph_document(ops, name), indent=1), p)
    return p
