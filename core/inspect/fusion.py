"""Fusion facts for one comparison row (what the TUI's fusion pane shows).

The fusion groups come from the ATC graph the comparison was built with (parsed once by
``compare``), from the graph file of a reopened comparison (cached per path and
modification time), or from an optimised target's manifest (once per target dump).
Nothing raises on odd input: an unreadable graph becomes a ``note``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.dumps import Dump, DumpError, PerObject
from dumpscope.core.inspect.overflow import target_op
from dumpscope.core.names import display
from dumpscope.core.vendor import fusion
from dumpscope.core.vendor.atc_graph import AtcGraph, load_graph


@dataclass(frozen=True)
class OpFact:
    """An op of a fusion group and the comparison row that shows it, if any."""

    name: str
    op_type: str | None = None
    row: int | None = None
    index: int | None = None
    health: str | None = None
    cosine: float | None = None
    note: str | None = None


@dataclass(frozen=True)
class FusionFacts:
    row: int
    op_name: str | None
    """The op the row was looked up by (its target op, else its node)."""
    source: str | None = None
    """``ATC graph <path>`` or ``target manifest``."""
    relation: str | None = None
    passes: tuple[str, ...] = ()
    fused: tuple[OpFact, ...] = ()
    originals: tuple[OpFact, ...] = ()
    role: str | None = None
    """Whether the row's op is one of the ``fused`` ops or one of the ``originals``."""
    note: str | None = None
    """Why there is no group, or what to keep in mind about it."""


@dataclass(frozen=True)
class _Groups:
    source: str
    maps: tuple[fusion.FusionMap, ...]
    error: str | None = None


_GRAPHS: dict[tuple[str, int, int], _Groups] = {}
_GRAPHS_LOCK = threading.Lock()
_MANIFESTS: PerObject[_Groups] = PerObject()


def _graph_groups(path: str) -> _Groups:
    """Fusion groups of an ATC graph JSON, cached per (path, mtime, size)."""
    source = f"ATC graph {display(Path(path).name)}"
    try:
        st = Path(path).stat()
    except OSError as exc:
        return _Groups(source, (), f"cannot read the ATC graph {display(path)}: {exc.strerror or exc}")
    key = (path, st.st_mtime_ns, st.st_size)
    with _GRAPHS_LOCK:
        if key not in _GRAPHS:
            _GRAPHS[key] = _load_groups(source, path)
        return _GRAPHS[key]


def _load_groups(source: str, path: str) -> _Groups:
    """Parse the graph at ``path`` into fusion groups (an unreadable graph is an error, not a raise)."""
    try:
        return _Groups(source, tuple(fusion.fusion_maps(load_graph(path))))
    except DumpError as exc:
        return _Groups(source, (), display(str(exc)))


def _manifest_groups(target: Dump) -> _Groups:
    manifest = target.meta.get("manifest")
    maps = fusion.fusion_from_manifest(manifest) if isinstance(manifest, dict) else []
    return _Groups(_manifest_name(manifest), tuple(maps))


def _manifest_name(manifest: object) -> str:
    """The target manifest, named by the recipe that made the run (``fp16 target``, ``optimized target``)."""
    recipe = manifest.get("target") if isinstance(manifest, dict) else None
    return f"target manifest ({display(str(recipe))} target)" if recipe else "target manifest"


_PARSED: PerObject[_Groups] = PerObject()


def _parsed_groups(atc: AtcGraph) -> _Groups:
    """Fusion groups of the ATC graph a comparison was built with (parsed once, by compare)."""
    name = display(atc.path.name) if atc.path is not None else "graph JSON"
    return _PARSED.get(atc, lambda: _Groups(f"ATC graph {name}", tuple(fusion.fusion_maps(atc))))


def _sources(cmp: Comparison) -> list[_Groups]:
    """Where fusion groups come from: the ATC graph, then the target manifest (each when there is one)."""
    return _graph_source(cmp) + _manifest_source(cmp.target)


def has_fusion(cmp: Comparison) -> bool:
    """The comparison has fusion groups to show (an ATC graph's or an optimised target's), or a source of
    them that could not be read (its error is worth showing)."""
    return any(groups.maps or groups.error for groups in _sources(cmp))


def _graph_source(cmp: Comparison) -> list[_Groups]:
    """The ATC graph the comparison was built with (parsed), else the one its metadata names."""
    if cmp.atc is not None:
        return [_parsed_groups(cmp.atc)]
    graph = cmp.meta.graph
    return [_graph_groups(str(graph))] if graph else []


def _manifest_source(target: Dump | None) -> list[_Groups]:
    """The target manifest's groups, only when the target has a manifest."""
    if target is None or not isinstance(target.meta.get("manifest"), dict):
        return []
    return [_MANIFESTS.get(target, lambda: _manifest_groups(target))]


def _find(
    maps: tuple[fusion.FusionMap, ...], names: list[tuple[str, str]]
) -> tuple[fusion.FusionMap, str] | None:
    """The group holding the first of ``(name, "fused" | "originals")`` that any group holds."""
    for name, attr in names:
        for m in maps:
            if name in getattr(m, attr):
                return m, attr
    return None


def _lookup_names(cmp: Comparison, row: int, r: dict[str, object]) -> list[tuple[str, str]]:
    """What to look the row up by, best first: its target op among fused ops, its golden
    node among original ops (a golden-only row is an original the target fused away)."""
    side = r["side"]
    out: list[tuple[object, str]] = [(target_op(cmp, row), "fused")]
    if side in ("both", "target"):
        out.append((r["target_name"], "fused"))
    own = "fused" if side == "target" else "originals"
    out += [(r["node_name"], own), (r["name"], own)]
    names = [(str(n), attr) for n, attr in out if n]
    return list(dict.fromkeys(names + [(display(n), attr) for n, attr in names]))


def _op_facts(
    frame: pl.DataFrame, names: tuple[str, ...], types: tuple[str, ...], side: str
) -> tuple[OpFact, ...]:
    """Each op with the frame row that shows it on ``side`` (``golden`` for original ops,
    ``target`` for fused ones); a compared row (both sides) is preferred."""
    shown = [display(n) for n in names]
    best = _best_rows(_candidate_rows(frame, shown, side), shown, side)
    return tuple(
        _op_fact(n, types[k] if k < len(types) and types[k] else None, best.get(n), side)
        for k, n in enumerate(shown)
    )


def _candidate_rows(frame: pl.DataFrame, shown: list[str], side: str) -> pl.DataFrame:
    """Frame rows that may show one of the ops on ``side``."""
    own = pl.col("name").is_in(shown) | pl.col("node_name").is_in(shown)
    if side == "golden":
        match = pl.col("side").is_in(["both", "golden"]) & own
    else:
        match = pl.col("target_name").is_in(shown) | ((pl.col("side") == "target") & own)
    return (
        frame.select(
            "node_name", "name", "target_name", "op_type", "index", "health", "cosine_similarity", "side"
        )
        .with_row_index("row")
        .filter(match)
    )


def _best_rows(rows: pl.DataFrame, shown: list[str], side: str) -> dict[str, dict[str, Any]]:
    """Op name -> the row showing it (the first compared row, else the first row)."""
    best: dict[str, dict[str, Any]] = {}
    for r in rows.iter_rows(named=True):
        keys = _row_keys(r, side)
        best.update({n: r for n in shown if n in keys and _better(r, best.get(n))})
    return best


def _row_keys(r: dict[str, Any], side: str) -> set[object]:
    """The op names a row shows on ``side``: a compared row's target op on the target side, else its node
    and name."""
    return {r["target_name"]} if side == "target" and r["side"] == "both" else {r["node_name"], r["name"]}


def _better(r: dict[str, Any], current: dict[str, Any] | None) -> bool:
    """Row ``r`` shows an op better than ``current``: the first row, or the first compared one."""
    return current is None or (r["side"] == "both" and current["side"] != "both")


#: The note of an op shown by a one-sided row.
_ONE_SIDED = {"golden": "golden only: the target has no output for it", "target": "target only: not compared"}


def _op_fact(name: str, op_type: str | None, hit: dict[str, Any] | None, side: str) -> OpFact:
    if hit is None:
        return OpFact(
            name,
            op_type,
            note="no golden dump of this op" if side == "golden" else "no target dump of this op",
        )
    return OpFact(
        name,
        op_type or hit["op_type"],
        int(hit["row"]),
        hit["index"],
        hit["health"],
        hit["cosine_similarity"],
        _ONE_SIDED.get(hit["side"]),
    )


def fusion_facts(cmp: Comparison, row: int) -> FusionFacts:
    """The fusion group the row's op belongs to, with a row (health, cosine) for each op.

    From the ATC graph the comparison was made with (``meta.graph``), else the target
    manifest's ``fused_from``.  Always returns facts; ``note`` says why when there is no group.
    """
    if not 0 <= row < cmp.frame.height:
        return FusionFacts(row, None, note=f"row {row} is not in this comparison")
    names = _lookup_names(cmp, row, cmp.frame.row(row, named=True))
    op = names[0][0] if names else None
    sources = _sources(cmp)
    if not sources:
        return FusionFacts(row, op, note=_no_source(cmp))
    problems = [s.error for s in sources if s.error]
    found = _first_group(sources, names)
    if found is not None:
        return _group_facts(cmp.frame, row, op, *found, problems)
    return FusionFacts(row, op, note=_not_fused(sources, problems))


def _no_source(cmp: Comparison) -> str:
    """Why there are no fusion facts at all (and that a reopened comparison has no tensors)."""
    return _NO_SOURCE + ("" if cmp.has_tensors else _REOPENED)


def _first_group(
    sources: list[_Groups], names: list[tuple[str, str]]
) -> tuple[_Groups, tuple[fusion.FusionMap, str]] | None:
    """The first source with a group holding the row's op, and that group (None when none has)."""
    return next(((src, hit) for src in sources if (hit := _fusion_of(src, names)) is not None), None)


def _not_fused(sources: list[_Groups], problems: list[str]) -> str:
    """Why no group holds the op: the sources searched list none, and what could not be read."""
    searched = ", ".join(s.source for s in sources if not s.error)
    note = f"not fused: {searched} lists no fusion for this op" if searched else ""
    return "; ".join(p for p in [note, *problems] if p)


_NO_SOURCE = (
    "no fusion facts: give the ATC graph (--graph, atc --mode=1/5 JSON) or compare an optimised "
    "onnxruntime target whose manifest records fused_from"
)
_REOPENED = "; this comparison was reopened from a saved file"


def _fusion_of(src: _Groups, names: list[tuple[str, str]]) -> tuple[fusion.FusionMap, str] | None:
    """The group of a source holding the row's op, unless the op is only its own original."""
    hit = _find(src.maps, names)
    if hit is None:
        return None
    if _own_original(hit[0]):
        return None  # the op is its own original: not a fusion
    return hit


def _own_original(group: fusion.FusionMap) -> bool:
    """A one-to-one group whose op is its own original: no fusion."""
    return group.relation == fusion.ONE_TO_ONE and group.fused == group.originals


def _real_fusion(group: fusion.FusionMap) -> bool:
    """A group that fuses: neither an inserted op (TransData...) nor an op that is its own original."""
    return group.relation != fusion.TARGET_ONLY and not _own_original(group)


def _group_facts(
    frame: pl.DataFrame,
    row: int,
    op: str | None,
    src: _Groups,
    hit: tuple[fusion.FusionMap, str],
    problems: list[str],
) -> FusionFacts:
    group, attr = hit
    fused = _op_facts(frame, group.fused, group.op_types, "target")
    if op is not None:  # the viewed row is the dump of its own target op, whatever its tensor is called
        fused = tuple(_viewed(frame, row, f) if f.row is None and f.name == display(op) else f for f in fused)
    return FusionFacts(
        row,
        op,
        src.source,
        group.relation,
        group.passes,
        fused=fused,
        originals=_op_facts(frame, group.originals, (), "golden"),
        role="fused" if attr == "fused" else "original",
        note="; ".join(p for p in problems if p) or None,
    )


def _viewed(frame: pl.DataFrame, row: int, fact: OpFact) -> OpFact:
    """The fact of the op the viewed row's target tensor comes from: that row shows it."""
    r = frame.row(row, named=True)
    return OpFact(
        fact.name,
        fact.op_type or r["op_type"],
        row,
        r["index"],
        r["health"],
        r["cosine_similarity"],
        _ONE_SIDED.get(r["side"]),
    )


def fused_rows(cmp: Comparison) -> np.ndarray:
    """Boolean per frame row: the row's op takes part in a fusion (a fused target op, or an
    original op a fused op stands for), from the same sources as :func:`fusion_facts`."""
    names = {
        display(n)
        for src in _sources(cmp)
        for group in src.maps
        if _real_fusion(group)
        for n in (*group.fused, *group.originals)
    }
    frame = cmp.frame
    if not names:
        return np.zeros(frame.height, dtype=bool)
    wanted = list(names)
    hit = (
        pl.col("name").is_in(wanted) | pl.col("node_name").is_in(wanted) | pl.col("target_name").is_in(wanted)
    )
    return frame.select(hit.fill_null(False)).to_series().to_numpy()
