"""How far a patched target is from the *original* golden: the last step of the fix loop.

A patch (a Clip after a node, nodes kept in fp32) changes what the model computes.  A
target dumped from the patched model compared with a golden dumped from the same patched
model shows only that the target now follows the patched model; whether the fix is
complete is measured against the golden of the model as it was.  :func:`check_fix` reads
that comparison (the patched target against the original golden) and says, from its rows:

* how far the model's outputs are from the original golden, and which is farthest;
* which compared layer is farthest (health first, then relative distance);
* whether the fix is *complete* (every compared row within its band), *partial* (every
  output within its band, some intermediate layers not) or *incomplete* (an output is
  not, or no output was compared).

An output is a row whose tensor is a model output (``--model``) or one no node of the golden
dump's own graph reads (a per-frame dump's final outputs of every frame); without either,
the last compared row.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import polars as pl

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.names import display

COMPLETE, PARTIAL, INCOMPLETE = "complete", "partial", "incomplete"
_SEVERITY = {"ok": 0, "warn": 1, "fail": 2, "error": 3}
_LABEL = {"ok": "OK", "warn": "WARN", "fail": "FAIL", "error": "ERR"}


@dataclass(frozen=True)
class Distance:
    """One compared row's distance from the original golden (the comparison's own numbers)."""

    index: int
    name: str
    op_type: str | None
    health: str
    cosine: float | None
    relative_distance: float | None
    max_abs: float | None

    def text(self) -> str:
        """E.g. ``#72 'frame5/attn/exp:0' (Exp): FAIL, relative distance 0.9053, cosine 0.839468,
        max abs 1.832e+05``."""
        values = (
            ("relative distance", self.relative_distance, ".4g"),
            ("cosine", self.cosine, ".6f"),
            ("max abs", self.max_abs, ".4g"),
        )
        numbers = [f"{label} {v:{fmt}}" for label, v, fmt in values if v is not None]
        head = f"#{self.index} {display(self.name)!r} ({display(self.op_type or '?')}): {_LABEL[self.health]}"
        return head + (", " + ", ".join(numbers) if numbers else "")


@dataclass(frozen=True)
class FixCheck:
    """What the patched target is against the original golden (see the module docstring)."""

    verdict: str
    counts: Mapping[str, int]
    outputs: tuple[Distance, ...]
    worst_output: Distance | None
    worst_layer: Distance | None
    off: tuple[str, ...]
    """Names of the compared rows outside their band (WARN, FAIL or ERR), in row order."""
    patched_ok: int | None = None
    """How many of ``off`` are OK in the patched-golden comparison (None when it was not given)."""

    def sentences(self) -> list[str]:
        """The facts, one sentence each, then the verdict."""
        c = self.counts
        lines = [
            f"{sum(c.values())} compared rows: {c.get('ok', 0)} OK, {c.get('warn', 0)} WARN, "
            f"{c.get('fail', 0)} FAIL, {c.get('error', 0)} ERR"
        ]
        if self.worst_output is not None:
            ok = sum(d.health == "ok" for d in self.outputs)
            lines.append(f"outputs: {ok} of {len(self.outputs)} OK; farthest {self.worst_output.text()}")
        if self.worst_layer is not None:
            lines.append(f"farthest layer: {self.worst_layer.text()}")
        return [*lines, self.verdict_sentence()]

    def verdict_sentence(self) -> str:
        if self.verdict == COMPLETE:
            return (
                "the fix is complete: every compared row of the patched target is within its band of the "
                "original golden"
            )
        if self.verdict == INCOMPLETE:
            if self.worst_output is None:
                return "the fix is not verified: no model output was compared with the original golden"
            return (
                f"the fix is not complete: output {display(self.worst_output.name)!r} is "
                f"{_LABEL[self.worst_output.health]} against the original golden"
            )
        why = ""
        if self.patched_ok is not None and self.patched_ok == len(self.off):
            why = (
                " (each is OK against the patched model's own golden: the patch itself changes what they "
                "compute)"
            )
        return (
            f"the fix is partial: the outputs are within their band of the original golden, "
            f"{len(self.off)} intermediate row(s) are not{why}"
        )


def check_fix(original: Comparison, patched: Comparison | None = None) -> FixCheck:
    """The patched target against the original golden (``original``: golden of the unpatched model
    vs the patched target); ``patched``, the patched golden vs the same target, when at hand."""
    rows = _compared(original.frame)
    distances = [_distance(r) for r in rows.iter_rows(named=True)]
    outputs = tuple(d for d in distances if d.name in _output_names(original, rows))
    if not outputs and distances:
        outputs = (distances[-1],)
    off = tuple(d.name for d in distances if d.health != "ok")
    counts = {h: sum(d.health == h for d in distances) for h in _SEVERITY}
    if not outputs or any(d.health != "ok" for d in outputs):
        verdict = INCOMPLETE
    else:
        verdict = PARTIAL if off else COMPLETE
    return FixCheck(
        verdict,
        counts,
        outputs,
        _worst(outputs),
        _worst(distances),
        off,
        _ok_in(patched, off) if patched is not None else None,
    )


def _compared(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows compared on both sides (the summary line's OK/WARN/FAIL/ERR), in row order."""
    return frame.filter(pl.col("health").is_in(list(_SEVERITY)))


def _distance(r: Mapping[str, object]) -> Distance:
    op = r.get("op_type")
    op_type = str(op) if op is not None else None
    return Distance(
        int(str(r["index"])),
        str(r["name"]),
        op_type,
        str(r["health"]),
        _float(r.get("cosine_similarity")),
        _float(r.get("relative_euclidean_distance")),
        _float(r.get("max_absolute_error")),
    )


def _float(v: object) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _worst(ds: tuple[Distance, ...] | list[Distance]) -> Distance | None:
    """Health first, then the largest relative distance (an unmeasured one counts as largest)."""

    def key(d: Distance) -> tuple[int, float, int]:
        rel = d.relative_distance
        return (_SEVERITY[d.health], math.inf if rel is None or math.isnan(rel) else rel, -d.index)

    return max(ds, key=key) if ds else None


def _output_names(cmp: Comparison, rows: pl.DataFrame) -> set[str]:
    """The model's outputs among ``rows`` (see the module docstring)."""
    names = set(rows["name"].to_list())
    facts = cmp.model_facts
    declared = names & set(facts.graph_outputs) if facts is not None else set()
    read = _read_by_nodes(cmp)
    if read is None:
        return declared
    kinds = (
        dict(zip(rows["name"].to_list(), rows["kind"].to_list(), strict=False))
        if "kind" in rows.columns
        else {}
    )
    return declared | {n for n in names if n not in read and kinds.get(n, "activation") == "activation"}


def _read_by_nodes(cmp: Comparison) -> set[str] | None:
    """Every tensor a node of the golden dump's graph (its manifest's ``nodes``) reads; None without one."""
    manifest = cmp.golden.meta.get("manifest") if cmp.golden is not None else None
    nodes = manifest.get("nodes") if isinstance(manifest, dict) else None
    if not isinstance(nodes, list) or not nodes:
        return None
    return {str(i) for n in nodes if isinstance(n, dict) for i in n.get("inputs") or ()}


def _ok_in(patched: Comparison, names: tuple[str, ...]) -> int:
    """How many of ``names`` are OK rows of ``patched``."""
    ok = set(patched.frame.filter(pl.col("health") == "ok")["name"].to_list())
    return sum(n in ok for n in names)
