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

What dumpscope writes: one result per tensor, keyed by its tensor name, by its node name
when that differs, and, for a tensor no node produces (a graph input, an initializer), by
``[value] NAME``, whose ``value`` is the state code :data:`HEALTH_CODE` (0 ok, 1 warn, 2 fail,
3 error, 4 golden only, 5 target only) and thresholds colouring exactly those six codes - our
verdicts, so the browser shows the same verdict as the table.  A golden-only tensor (fused away
or not dumped by the target) has its own state and colour, so it never looks like "no data"; a
target-only tensor is keyed by its target name (it colours the target's graph).  A node shows its
worst output (:data:`SEVERITY`: a failing output outranks a one-sided one).  Rows not computed
(pending) are left out.
"""

from __future__ import annotations

from typing import Any

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.names import display
from dumpscope.core.vocabulary import Health

__all__ = [
    "HEALTH_CODE",
    "HEALTH_COLOUR",
    "LEGEND",
    "SEVERITY",
    "VALUE_NODE_PREFIX",
    "node_data",
    "thresholds",
]

#: The id model-explorer-onnx gives the node of a graph input or initializer: ``[value] NAME``.
VALUE_NODE_PREFIX = "[value] "
#: The numeric value written per node.
HEALTH_CODE: dict[str, int] = {"ok": 0, "warn": 1, "fail": 2, "error": 3, "golden only": 4, "target only": 5}
#: Which state a node with several outputs shows: the most severe (one-sided is above ok, below warn).
SEVERITY: dict[str, int] = {"ok": 0, "golden only": 1, "target only": 1, "warn": 2, "fail": 3, "error": 4}
#: Background and text colours per state (readable on Model Explorer's white canvas).
HEALTH_COLOUR: dict[str, tuple[str, str]] = {
    "ok": ("#c8e6c9", "#1b5e20"),
    "warn": ("#fff59d", "#5d4037"),
    "fail": ("#ef9a9a", "#b71c1c"),
    "error": ("#ce93d8", "#4a148c"),
    "golden only": ("#cfd8dc", "#37474f"),
    "target only": ("#b3e5fc", "#01579b"),
}
LEGEND = "dumpscope health (0 ok, 1 warn, 2 fail, 3 error, 4 golden only, 5 target only)"


def thresholds() -> list[dict[str, Any]]:
    """One threshold item per health code, in increasing order."""
    return [
        {"value": code, "bgColor": HEALTH_COLOUR[h][0], "textColor": HEALTH_COLOUR[h][1]}
        for h, code in HEALTH_CODE.items()
    ]


def _keys(tensor: str, node: str | None) -> list[str]:
    """The node keys of one tensor: its name, then its node (the ``[value]`` node of a tensor no op
    produces)."""
    producer = display(node) if node else f"{VALUE_NODE_PREFIX}{display(tensor)}"
    return [display(tensor), producer] if producer != display(tensor) else [producer]


def _state(row: dict[str, Any]) -> tuple[str, str] | None:
    """``(state, tensor name)`` of a row: its health with its golden name; a one-sided row's side with the
    name that side has; None for a row with no verdict yet (pending)."""
    health = row["health"]
    if health == Health.UNMATCHED:
        side = "target only" if row.get("side") == "target" else "golden only"
        name = row["target_name"] if side == "target only" else row["name"]
        return (side, name) if name else None
    return (health, row["name"] or row["target_name"]) if health in HEALTH_CODE else None


def node_data(cmp: Comparison, name: str = LEGEND) -> dict[str, Any]:
    """The ``NodeDataProviderGraphData`` document for ``cmp`` (JSON-ready, no NaN)."""
    results: dict[str, dict[str, Any]] = {}
    shown: dict[str, str] = {}
    columns = [c for c in ("name", "target_name", "node_name", "health", "side") if c in cmp.frame.columns]
    for row in cmp.frame.select(columns).iter_rows(named=True):
        state = _state(row)
        if state is None:
            continue
        for key in _keys(state[1], row.get("node_name")):
            if key not in shown or SEVERITY[shown[key]] < SEVERITY[state[0]]:  # a node shows its worst output
                shown[key] = state[0]
                results[key] = {"value": HEALTH_CODE[state[0]]}
    return {"name": name, "results": results, "thresholds": thresholds()}
