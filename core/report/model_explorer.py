"""Google Model Explorer node-data overlay: the comparison on the graph, in a browser.

Model Explorer (github.com/google-ai-edge/model-explorer) colours graph nodes from a
"node data" JSON file.  Its schema is ``NodeDataProviderGraphData`` in
``src/ui/src/components/visualizer/common/types.ts`` (Python twin: ``GraphNodeData`` in
``src/server/package/src/model_explorer/node_data_builder.py``)::

    {"name"?: str,
     "results": {<node key>: {"value": number, "bgColor"?: css, "textColor"?: css}},
     "thresholds"?: [{"value": number, "bgColor": css, "textColor"?: css}], ...}

A node key is a node id or any output tensor name of the node (the UI maps an output's
``tensor_name`` attribute to its node).  A threshold item colours values ``<= value`` not
claimed by an earlier item.

Checked in the real thing (``tests/test_model_explorer_real.py``, skipped without the
packages): ai-edge-model-explorer's own ``GraphNodeData`` reads the file strictly, and its
ONNX adapter (model-explorer-onnx) names an op node by the ONNX node name and a graph input
or initializer ``[value] NAME``; it records output names as ``__tensor_tag``, not
``tensor_name``, so on an ONNX graph only node ids match.

What dumpscope writes: one result per compared tensor, keyed by the golden tensor name,
by its node name when that differs, and, for a tensor no node produces (a graph input, an
initializer), by ``[value] NAME``, whose ``value`` is the health code
:data:`HEALTH_CODE` (0 ok, 1 warn, 2 fail, 3 error) and thresholds colouring exactly
those four codes - our health verdicts, so the browser shows the same verdict as the
table.  Rows without a partner (unmatched) or not computed are left out: Model Explorer
leaves such nodes uncoloured.
"""

from __future__ import annotations

from typing import Any

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.names import display

__all__ = ["HEALTH_CODE", "HEALTH_COLOUR", "VALUE_NODE_PREFIX", "node_data", "thresholds"]

#: The id model-explorer-onnx gives the node of a graph input or initializer: ``[value] NAME``.
VALUE_NODE_PREFIX = "[value] "
#: The numeric value written per node.
HEALTH_CODE: dict[str, int] = {"ok": 0, "warn": 1, "fail": 2, "error": 3}
#: Background and text colours per health (readable on Model Explorer's white canvas).
HEALTH_COLOUR: dict[str, tuple[str, str]] = {
    "ok": ("#c8e6c9", "#1b5e20"),
    "warn": ("#fff59d", "#5d4037"),
    "fail": ("#ef9a9a", "#b71c1c"),
    "error": ("#ce93d8", "#4a148c"),
}


def thresholds() -> list[dict[str, Any]]:
    """One threshold item per health code, in increasing order."""
    return [{"value": code, "bgColor": HEALTH_COLOUR[h][0], "textColor": HEALTH_COLOUR[h][1]}
            for h, code in HEALTH_CODE.items()]


def _keys(row: dict[str, Any]) -> list[str]:
    """The node keys of one row: its tensor name, then its node (the ``[value]`` node of a tensor no op produces)."""
    node = row.get("node_name")
    producer = display(node) if node else f"{VALUE_NODE_PREFIX}{display(row['name'])}"
    return [display(row["name"]), producer] if producer != display(row["name"]) else [producer]


def node_data(cmp: Comparison, name: str = "dumpscope health (0 ok, 1 warn, 2 fail, 3 error)") -> dict[str, Any]:
    """The ``NodeDataProviderGraphData`` document for ``cmp`` (JSON-ready, no NaN)."""
    results: dict[str, dict[str, Any]] = {}
    for row in cmp.frame.select("name", "node_name", "health").iter_rows(named=True):
        code = HEALTH_CODE.get(row["health"])
        if code is None:
            continue
        for key in _keys(row):
            if results.get(key, {}).get("value", -1) < code:  # a node shows its worst output
                results[key] = {"value": code}
    return {"name": name, "results": results, "thresholds": thresholds()}
