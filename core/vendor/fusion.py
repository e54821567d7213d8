"""Fusion maps from either source, in one place.

A target op that stands for several original ops (a fused Conv+Relu, a GELU kernel) is
described by

* an Ascend ATC graph JSON (:mod:`~dumpscope.core.vendor.atc_graph`), or
* the manifest of an onnxruntime-optimised target: its nodes carry ``fused_from``
  (written by :mod:`dumpscope.core.onnx.manifest`).

:func:`load_source` opens either file for the ``fusion`` command; :func:`fused_ops`
gives the diagnosis the multi-original ops of both; the grouping itself is
:func:`~dumpscope.core.vendor.groups.group_entries`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dumpscope.core.dumps import DumpError
from dumpscope.core.formats.safe_fs import load_json
from dumpscope.core.vendor.atc_graph import AtcGraph, fusion_maps, parse_graph, target_origins
from dumpscope.core.vendor.groups import (
    MANY_TO_MANY,
    MANY_TO_ONE,
    ONE_TO_MANY,
    ONE_TO_ONE,
    TARGET_ONLY,
    FusionEntry,
    FusionMap,
    group_entries,
    relation_counts,
)

__all__ = [
    "MANY_TO_MANY", "MANY_TO_ONE", "ONE_TO_MANY", "ONE_TO_ONE", "TARGET_ONLY", "FusionMap", "FusionSource",
    "NCHWC_DOMAIN", "blocked_layout_tensors", "fused_ops", "fusion_from_manifest", "fusion_maps",
    "load_source", "relation_counts",
]  # fmt: skip

#: Op name -> (its original ops, the fusion passes that made it).
FusedOps = dict[str, tuple[tuple[str, ...], tuple[str, ...]]]


@dataclass(frozen=True)
class FusionSource:
    """The fusion maps of one file, with what else it tells."""

    kind: str
    """``atc`` (an ATC graph JSON) or ``manifest`` (an optimised onnxruntime target)."""
    maps: list[FusionMap]
    origins: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Target tensor -> (golden node, output index); ATC graphs only."""
    problems: list[str] = field(default_factory=list)


def load_source(path: str | Path) -> FusionSource:
    """The fusion maps of an ATC graph JSON, a dumpscope manifest, or a dump folder holding one."""
    p = Path(path)
    if p.is_dir():
        p = p / "manifest.json"
    data = _read_json(p)
    if isinstance(data, dict) and data.get("format") == "dumpscope-manifest":
        return FusionSource("manifest", fusion_from_manifest(data))
    graph = parse_graph(data, p, consume=True)
    return FusionSource("atc", fusion_maps(graph), target_origins(graph), graph.problems)


def _read_json(p: Path) -> object:
    try:
        return load_json(p)
    except OSError as exc:
        raise DumpError(f"{p}: cannot read: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise DumpError(f"{p}: not valid JSON ({exc})") from exc


def fusion_from_manifest(manifest: dict[str, object]) -> list[FusionMap]:
    """Fusion groups of an optimised target from its manifest's ``nodes[].fused_from``.

    Nodes without ``fused_from`` were not rewritten and are not listed; a node whose
    ``fused_from`` is empty was added by the optimiser (target-only).
    """
    entries = (_fusion_entry(n) for n in _node_list(manifest.get("nodes")))
    return group_entries([e for e in entries if e is not None])


def _node_list(nodes: object) -> list[object]:
    """A manifest's nodes as a list; the ``{name: node}`` form gets each name into its node."""
    if isinstance(nodes, dict):
        return [dict(v, name=k) if isinstance(v, dict) else {"name": k} for k, v in nodes.items()]
    return nodes if isinstance(nodes, list) else []


def _fusion_entry(n: object) -> FusionEntry | None:
    """The entry of a rewritten node (None for one without ``fused_from`` or kept as is)."""
    if not isinstance(n, dict) or not isinstance(n.get("fused_from"), list):
        return None
    name = str(n.get("name", ""))
    originals = tuple(str(x) for x in n["fused_from"])
    if originals == (name,):
        return None  # kept as is
    return FusionEntry(name, str(n.get("op_type", "")), originals)


def fused_ops(atc: AtcGraph | None, manifest: Mapping[str, object] | None) -> FusedOps:
    """Every target op that stands for more than one original op, from both sources."""
    return _atc_fused(atc) | _manifest_fused(manifest)


def _atc_fused(atc: AtcGraph | None) -> FusedOps:
    ops = atc.ops if atc is not None else ()
    return {op.name: (op.effective_originals, op.passes) for op in ops if len(op.effective_originals) > 1}


def _manifest_fused(manifest: Mapping[str, object] | None) -> FusedOps:
    nodes = _manifest_nodes(manifest)
    return {
        str(n.get("name")): (tuple(str(o) for o in origin), ())
        for n in nodes
        if isinstance(origin := n.get("fused_from"), list) and len(origin) > 1
    }


def _manifest_nodes(manifest: Mapping[str, object] | None) -> list[dict[str, object]]:
    nodes = manifest.get("nodes") if manifest else None
    return [n for n in nodes if isinstance(n, dict)] if isinstance(nodes, list) else []


#: onnxruntime's NCHWc operator domain (ORT_ENABLE_ALL graphs on x86 CPUs).
NCHWC_DOMAIN = "com.microsoft.nchwc"
_BLOCKED = (
    "onnxruntime NCHWc blocked layout (an internal tensor of an ORT_ENABLE_ALL graph: channels in "
    "blocks of 8 or 16, padded; the model's tensor is the ReorderOutput that restores NCHW)"
)


def blocked_layout_tensors(nodes: Sequence[object]) -> dict[str, str]:
    """Tensor -> why it holds onnxruntime's NCHWc blocked layout, from a manifest's ``nodes``.

    An NCHWc op's outputs are blocked, ``ReorderOutput``'s excepted (it restores NCHW); so
    is the output of any other op fed a blocked tensor (onnxruntime runs ``Add``,
    ``Concat``, ``Reshape``... on the blocked copy and reorders only where a consumer
    needs NCHW).  Nodes are walked in their topological ``index``.
    """
    entries = sorted((n for n in nodes if isinstance(n, dict)), key=lambda n: _index(n.get("index")))
    blocked: set[str] = set()
    for n in entries:
        outputs = [str(o) for o in n.get("outputs") or ()]
        if n.get("op_type") == "ReorderOutput" and n.get("domain") == NCHWC_DOMAIN:
            continue
        if n.get("domain") == NCHWC_DOMAIN or any(str(i) in blocked for i in n.get("inputs") or ()):
            blocked.update(outputs)
    return dict.fromkeys(sorted(blocked), _BLOCKED)


def _index(value: object) -> int:
    return value if isinstance(value, int) else 1 << 62
