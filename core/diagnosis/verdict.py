"""What a diagnosis says: the ranked root causes and the facts around them (plain data, JSON-ready).

:func:`~dumpscope.core.diagnosis.engine.diagnose` builds a :class:`Diagnosis` for a
tensor comparison, :func:`~dumpscope.core.diagnosis.msprobe.diagnose_msprobe` for an
msprobe statistics comparison; the CLI, the report and the app read it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import singledispatch

import polars as pl

from dumpscope.core.diagnosis.classify import Trend
from dumpscope.core.diagnosis.replay import Replay
from dumpscope.core.names import display
from dumpscope.core.vocabulary import CAUSE


@dataclass(frozen=True)
class RootCause:
    row: int
    name: str
    node_name: str | None
    op_type: str | None
    index: int | None
    kind: str | None
    cause: str
    score: float
    evidence: tuple[str, ...]
    advice: str
    commands: tuple[str, ...] = ()
    replay: Replay | None = None
    """The replay of this row's node on the target's inputs (None when not replayed)."""
    effect: float | None = None
    """The share of the row's error this cause is measured to explain (replay or constant effect)."""

    @property
    def label(self) -> str:
        """The cause class in words (``vocabulary.CAUSE``)."""
        known = CAUSE.get(self.cause)
        return known.label if known else self.cause

    def to_json(self) -> dict[str, object]:
        return {
            "name": display(self.name),
            "node_name": None if self.node_name is None else display(self.node_name),
            "op_type": self.op_type,
            "index": self.index,
            "row": self.row,
            "kind": self.kind,
            "cause": self.cause,
            "score": self.score,
            "evidence": list(self.evidence),
            "advice": self.advice,
            "commands": list(self.commands),
            "class": self.label,
            "effect": self.effect,
            "replay": None if self.replay is None else self.replay.to_json(),
        }


@dataclass(frozen=True)
class Diagnosis:
    root_causes: tuple[RootCause, ...]
    first_divergent: dict[str, object] | None
    """The first fail/error row in topological order (with its origin), or None."""
    summary: str
    classification: pl.DataFrame
    """Per frame row: origin, worst input, error growth (see :func:`classify`)."""
    trend: Trend
    nan_origin: int | None
    overflow: tuple[str, ...] = ()
    """Range/overflow findings: clamp records, Opdebug records, out-of-range values."""
    quantisation: tuple[dict[str, object], ...] = ()
    """The layers that lose most to quantisation (SQNR lost against their worst input)."""
    warnings: tuple[str, ...] = ()
    edges_source: str = "none"
    healthy: bool = True
    counts: dict[str, int] = field(default_factory=dict)
    replays: dict[int, Replay] = field(default_factory=dict)
    """Frame row -> the replay of its node (suspects only): what the tensor pane shows."""

    def to_json(self) -> dict[str, object]:
        cleaned = _clean_dict(
            {
                "verdict": "healthy" if self.healthy else "unhealthy",
                "summary": self.summary,
                "root_causes": [c.to_json() for c in self.root_causes],
                "first_divergent": self.first_divergent,
                "trend": {
                    "kind": self.trend.kind,
                    "row": self.trend.row,
                    "slope_decades_per_layer": self.trend.slope,
                    "layers": self.trend.layers,
                    "error_before": self.trend.before,
                    "error_at": self.trend.after,
                },
                "nan_origin": self.nan_origin,
                "overflow": list(self.overflow),
                "quantisation": list(self.quantisation),
                "warnings": list(self.warnings),
                "edges": self.edges_source,
                "counts": self.counts,
                "replays": [{"row": row, **rep.to_json()} for row, rep in sorted(self.replays.items())],
            }
        )
        return {str(k): v for k, v in cleaned.items()}


@singledispatch
def _clean(value: object) -> object:
    """JSON-ready: non-finite floats as strings, names as valid text (other values as they are)."""
    return value


@_clean.register
def _json_float(value: float) -> float | str:
    """A finite float as it is; NaN and infinities by name (``nan``, ``inf``, ``-inf``)."""
    return value if math.isfinite(value) else str(value)


@_clean.register
def _clean_text(value: str) -> str:
    return display(value)


@_clean.register
def _clean_dict(value: dict) -> dict[object, object]:
    return {k: _clean(v) for k, v in value.items()}


@_clean.register(list)
@_clean.register(tuple)
def _clean_sequence(value: Sequence[object]) -> list[object]:
    return [_clean(v) for v in value]


def row_info(frame: pl.DataFrame, origin: Sequence[str | None] | pl.Series, row: int) -> dict[str, object]:
    """A frame row in words, for :attr:`Diagnosis.first_divergent` (``origin``: per frame row)."""
    r = frame.row(row, named=True)
    return {
        "row": row,
        "name": display(str(r["name"])),
        "node_name": None if r["node_name"] is None else display(r["node_name"]),
        "op_type": r["op_type"],
        "index": r["index"],
        "kind": r["kind"],
        "health": r["health"],
        "message": r["message"],
        "origin": origin[row],
    }
