"""Three-way compare: two targets (A and B) each against the same golden, side by side.

Examples: fp16 vs int8, two vendor releases, fusion on vs fusion off (Ascend's fusion exception detection: two
NPU dumps, each with its own ATC graph JSON, so fused ops line up with their unfused
originals on both sides).

``compare_three(golden, a, b)`` runs the ordinary two-way comparison twice (each side
with its own ``graph``), then joins the two frames on the golden tensor: one row per
golden tensor (plus each side's target-only tensors), in topological order.

Columns of :attr:`ThreeWay.frame`:

``index``, ``name``, ``op_type``, ``kind``
    The golden tensor (from A, else B).
``a_<col>`` / ``b_<col>`` for each of :data:`SIDE_COLUMNS`
    That side's target name, health, metrics, NaN/Inf counts and message.
``presence``
    Which dumps hold the tensor (:data:`PRESENCE`): ``all``, ``only in golden``, ``only in A``,
    ``only in B``, ``not in A``, ``not in B`` or ``only in A and B``.  The frame has one row per
    tensor of the union of the three dumps.
``b_over_a``
    B's relative Euclidean distance over A's (``28.0``: B is 28 times further from the golden);
    null when either side has no distance; ``inf`` when only A is exact.
``worse``
    Which side is worse on this row: ``A``, ``B``, ``=`` (the same) or ``""`` (not
    comparable: a side has no partner for the tensor, e.g. an intermediate that fusion
    absorbed).  The rule (:func:`worse_side`): the worse health wins (fail/error > warn >
    ok); on a tie between two unhealthy rows, the larger relative Euclidean distance is
    worse.  Two healthy rows are ``=`` by default: noise below the thresholds does not make a
    side worse.  With ``by="magnitude"`` two rows of the same health are told apart by their
    distances too, when one is at least ``factor`` times the other (teams comparing recipes:
    "B is 28x worse" while both pass).

``index`` is the golden tensor's topological index, the same number the two-way output of either
side prints (a target-only tensor keeps its side's index).

Filter semantics for a UI (documented here so the TUI and CLI agree): ``worse:A`` keeps
rows where ``worse == "A"``, ``worse:B`` where ``worse == "B"``, ``worse:=`` where both
sides are judged the same; :func:`worse_mask` implements it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from dumpscope.core.comparison.judge import Thresholds
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.dumps import Dump
from dumpscope.core.vocabulary import DIVERGENT, MAGNITUDE_FACTOR, WORSE_RULES, Health

__all__ = [
    "MAGNITUDE_FACTOR",
    "PRESENCE",
    "SIDE_COLUMNS",
    "WORSE_RULES",
    "WORSE_VALUES",
    "FusionBlame",
    "ThreeWay",
    "compare_three",
    "distance_ratio",
    "fused_culprit",
    "join_sides",
    "presence",
    "presence_label",
    "swapped",
    "union_a",
    "worse_mask",
    "worse_side",
]

#: Per-side columns carried into the three-way frame (prefixed ``a_`` / ``b_``).
SIDE_COLUMNS: tuple[str, ...] = (
    "target_name",
    "health",
    "cosine_similarity",
    "max_absolute_error",
    "relative_euclidean_distance",
    "nan_golden",
    "inf_golden",
    "nan_target",
    "inf_target",
    "message",
    "pairing",
    "side",
)
#: ``presence`` per (in golden, in A, in B).
PRESENCE: dict[tuple[bool, bool, bool], str] = {
    (True, True, True): "all",
    (True, False, True): "not in A",
    (True, True, False): "not in B",
    (True, False, False): "only in golden",
    (False, True, False): "only in A",
    (False, False, True): "only in B",
    (False, True, True): "only in A and B",
}
#: Values of the ``worse`` column.
WORSE_VALUES: tuple[str, ...] = ("A", "B", "=", "")
_KEY_COLUMNS: tuple[str, ...] = ("index", "name", "op_type", "kind")
_SEVERITY: dict[str, int] = {"ok": 0, "warn": 1, "fail": 2, "error": 2}


@dataclass(frozen=True)
class FusionBlame:
    """A tensor whose error appears only on one side, and the fused op that produced it there."""

    name: str
    """The golden (original) tensor."""
    side: str
    """``A`` or ``B``: the side where the row diverges while the other side is healthy."""
    target_op: str | None
    """That side's target op (the fused op when the row was paired through a graph)."""
    originals: tuple[str, ...] = ()
    """The original ops the fused op stands for (empty when it is not fused)."""
    passes: tuple[str, ...] = ()
    message: str = ""

    def sentence(self, labels: Sequence[str] = ("A", "B")) -> str:
        """One line a user reads: which op, fused from what, only on which side."""
        label = labels[0] if self.side == "A" else labels[1]
        op = self.target_op or self.name
        fused = f" (fused from {', '.join(self.originals)}" + (
            f"; passes {', '.join(self.passes)})" if self.passes else ")"
        )
        return f"{op}{fused if self.originals else ''} diverges only in {label}: {self.name}: {self.message}"


@dataclass(frozen=True)
class ThreeWayMeta:
    """What a three-way comparison was built from, and the rule that says which side is worse."""

    golden: str | None = None
    a: str | None = None
    b: str | None = None
    graphs: tuple[str | None, str | None] = (None, None)
    labels: tuple[str, str] = ("A", "B")
    worse_by: str = "health"
    factor: float = MAGNITUDE_FACTOR


@dataclass
class ThreeWay:
    """Two comparisons against one golden, and their side-by-side frame."""

    a: Comparison
    b: Comparison
    frame: pl.DataFrame
    labels: tuple[str, str] = ("A", "B")
    meta: ThreeWayMeta = field(default_factory=ThreeWayMeta)

    def worse_counts(self) -> dict[str, int]:
        """How many rows each side is worse on (keys of :data:`WORSE_VALUES`)."""
        counts = dict.fromkeys(WORSE_VALUES, 0)
        for value, n in self.frame.group_by("worse").len().iter_rows():
            counts[str(value)] = int(n)
        return counts

    def only_on(self, side: str) -> pl.DataFrame:
        """Rows that diverge (fail/error) on ``side`` while the other side is ``ok`` or ``warn``."""
        mine, other = ("a", "b") if side == "A" else ("b", "a")
        return self.frame.filter(
            pl.col(f"{mine}_health").is_in(list(DIVERGENT))
            & pl.col(f"{other}_health").is_in([Health.OK, Health.WARN])
        )

    def blame(self, side: str = "A") -> list[FusionBlame]:
        """Every row diverging only on ``side``, in topological order, with its fused op named."""
        lookup = _FusionLookup.of(self.a if side == "A" else self.b)
        prefix = "a" if side == "A" else "b"
        return [
            lookup.blame(r["name"], side, r[f"{prefix}_target_name"], r[f"{prefix}_message"])
            for r in self.only_on(side).iter_rows(named=True)
        ]

    def first_blame(self, side: str = "A") -> FusionBlame | None:
        """The first row (topologically) whose error appears only on ``side``; a fused op first."""
        rows = self.blame(side)
        return next((b for b in rows if b.originals), rows[0] if rows else None)


def fused_culprit(cmp: Comparison) -> FusionBlame | None:
    """Two-way fusion on vs off (golden = the fusion-off run, target = the fused run): the first
    divergent row produced by a fused op, named with its originals (else the first divergent row)."""
    lookup = _FusionLookup.of(cmp)
    found = [
        lookup.blame(r["name"], "A", r["target_name"], r["message"])
        for r in cmp.frame.filter(pl.col("health").is_in(list(DIVERGENT))).iter_rows(named=True)
    ]
    return next((b for b in found if b.originals), found[0] if found else None)


@dataclass(frozen=True)
class _FusionLookup:
    """A side's fused ops (ATC graph or optimised-target manifest) and which op made each target tensor."""

    fused: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]
    producer: dict[str, str]
    """Target tensor -> the node that produced it, as the target dump records it."""

    @classmethod
    def of(cls, cmp: Comparison) -> _FusionLookup:
        from dumpscope.core.vendor.fusion import fused_ops

        manifest = cmp.target.meta.get("manifest") if cmp.target is not None else None
        fused = fused_ops(cmp.atc, manifest if isinstance(manifest, dict) else None)
        tensors = cmp.target.tensors.values() if cmp.target is not None else ()
        producer = {t.name: t.info.node_name for t in tensors if t.info.node_name in fused}
        return cls(fused, producer)

    def op(self, target_name: str | None) -> str | None:
        """The op a target tensor belongs to (``op:1`` / ``op.output.0`` names reduced; a manifest's
        producer)."""
        if not target_name:
            return None
        if target_name in self.producer:
            return self.producer[target_name]
        candidates = [target_name, *(target_name.rsplit(sep, 1)[0] for sep in (":", ".output.", "."))]
        return next((c for c in candidates if c in self.fused), target_name)

    def blame(self, name: str, side: str, target_name: str | None, message: str | None) -> FusionBlame:
        op = self.op(target_name)
        originals, passes = self.fused.get(op or "", ((), ()))
        return FusionBlame(name, side, op, tuple(originals), tuple(passes), message or "")


def worse_side(
    a_health: str | None,
    b_health: str | None,
    a_dist: float | None,
    b_dist: float | None,
    by: str = "health",
    factor: float = MAGNITUDE_FACTOR,
) -> str:
    """Which side is worse on one row (the rule in the module doc); scalar reference of :func:`join_sides`."""
    sa, sb = _SEVERITY.get(a_health or ""), _SEVERITY.get(b_health or "")
    if sa is None or sb is None:
        return ""
    if sa != sb:
        return "A" if sa > sb else "B"
    if by == "magnitude":
        return _by_magnitude(a_dist, b_dist, factor)
    return _by_distance(sa, a_dist, b_dist)


def _by_distance(severity: int, a_dist: float | None, b_dist: float | None) -> str:
    """Tie-break two equally unhealthy rows by relative distance (NaN is the worst distance)."""
    if severity == 0 or a_dist is None or b_dist is None:
        return "="
    a, b = _nan_last(a_dist), _nan_last(b_dist)
    return "=" if a == b else ("A" if a > b else "B")


def _by_magnitude(a_dist: float | None, b_dist: float | None, factor: float) -> str:
    """Two rows of the same health: the side whose distance is at least ``factor`` times the other's."""
    if a_dist is None or b_dist is None:
        return "="
    a, b = _nan_last(a_dist), _nan_last(b_dist)
    if b >= a * factor and b > a:
        return "B"
    if a >= b * factor and a > b:
        return "A"
    return "="


def distance_ratio(a_dist: pl.Expr, b_dist: pl.Expr) -> pl.Expr:
    """B's distance over A's: 1 when both are 0, ``inf`` when only A's is 0, null when either is missing."""
    both_zero = (a_dist == 0) & (b_dist == 0)
    return pl.when(both_zero).then(1.0).when(a_dist == 0).then(float("inf")).otherwise(b_dist / a_dist)


def _nan_last(v: float) -> float:
    return float("inf") if np.isnan(v) else v


def _side_frame(cmp: Comparison, prefix: str) -> pl.DataFrame:
    """One side's rows keyed by golden tensor (``_key``): golden/both rows by name, target-only rows apart."""
    f = cmp.frame.with_row_index("_pos")
    key = (
        pl.when(pl.col("side") == "target")
        .then(pl.lit("target:") + pl.col("name"))
        .otherwise(pl.lit("golden:") + pl.col("name"))
    )
    cols = [pl.col(c).alias(f"{prefix}_{c}") for c in SIDE_COLUMNS]
    keys = [pl.col(c).alias(f"{prefix}__{c}") for c in _KEY_COLUMNS]
    return f.select(key.alias("_key"), pl.col("_pos").alias(f"{prefix}__pos"), *keys, *cols).unique(
        "_key", keep="first", maintain_order=True
    )


def join_sides(
    a: pl.DataFrame, b: pl.DataFrame, by: str = "health", factor: float = MAGNITUDE_FACTOR
) -> pl.DataFrame:
    """The three-way frame from two comparison frames (both against the same golden); ``by``/``factor``:
    how ``worse`` tells rows of the same health apart (:func:`worse_side`)."""
    if by not in WORSE_RULES:
        raise ValueError(f"worse by {by!r}: choose {' or '.join(WORSE_RULES)}")
    ca, cb = Comparison.from_frame(a), Comparison.from_frame(b)
    joined = _side_frame(ca, "a").join(
        _side_frame(cb, "b"), on="_key", how="full", coalesce=True, maintain_order="left_right"
    )
    keys = [
        pl.coalesce(f"a__{c}", f"b__{c}").alias(c) for c in _KEY_COLUMNS
    ]  # index: the golden graph's order
    # Topological order from the side that paired more golden tensors (fewer gaps to place).
    first, second = ("b", "a") if _unmatched(b) < _unmatched(a) else ("a", "b")
    order = pl.coalesce(f"{first}__pos", pl.col(f"{second}__pos") + 0.5)
    joined = joined.with_columns(*keys, _order=order).sort("_order", nulls_last=True, maintain_order=True)
    worse = [
        worse_side(a_health, b_health, a_dist, b_dist, by=by, factor=factor)
        for a_health, b_health, a_dist, b_dist in joined.select(
            "a_health", "b_health", "a_relative_euclidean_distance", "b_relative_euclidean_distance"
        ).iter_rows()
    ]
    side_cols = [f"{p}_{c}" for c in SIDE_COLUMNS for p in ("a", "b")]
    ratio = distance_ratio(pl.col("a_relative_euclidean_distance"), pl.col("b_relative_euclidean_distance"))
    joined = joined.with_columns(worse=pl.Series(worse, dtype=pl.String), presence=presence(), b_over_a=ratio)
    return joined.select(*_KEY_COLUMNS, *side_cols, "b_over_a", "worse", "presence")


def presence() -> pl.Expr:
    """The ``presence`` column from ``a_side`` / ``b_side`` (a side's row: ``both``, ``golden`` or
    ``target``; null where that side's comparison has no row for the tensor)."""

    def holds(side: str, values: tuple[str, ...]) -> pl.Expr:
        return pl.col(side).is_in(list(values)).fill_null(False).cast(pl.Int8)

    golden = (holds("a_side", ("both", "golden")) | holds("b_side", ("both", "golden"))).cast(pl.Int8)
    code = golden * 4 + holds("a_side", ("both", "target")) * 2 + holds("b_side", ("both", "target"))
    labels = {g * 4 + a * 2 + b: label for (g, a, b), label in PRESENCE.items()}
    return code.replace_strict(labels, default=None, return_dtype=pl.String)


def presence_label(value: str | None, labels: Sequence[str] = ("A", "B")) -> str:
    """A ``presence`` value as a reader sees it: the sides named by their labels (``only in
    fusion off``), blank when all three dumps hold the tensor (or the value is unknown)."""
    if value in (None, "", "all"):
        return ""
    sides = dict(zip(("A", "B"), labels, strict=False))
    return " ".join(sides.get(word, word) for word in str(value).split())


def swapped(tw: ThreeWay) -> ThreeWay:
    """The same three-way with its sides exchanged: B's comparison first (the TUI's side switch), the
    ``worse`` rule and labels kept (``worse == "A"`` then names the side shown first, B)."""
    frame = join_sides(tw.b.frame, tw.a.frame, by=tw.meta.worse_by, factor=tw.meta.factor)
    meta = replace(tw.meta, a=tw.meta.b, b=tw.meta.a, labels=(tw.labels[1], tw.labels[0]))
    return ThreeWay(tw.b, tw.a, frame, (tw.labels[1], tw.labels[0]), meta)


def union_a(tw: ThreeWay) -> Comparison:
    """Side A's comparison plus one row per tensor only side B holds, so that a list over side A
    names every tensor of the union (the TUI's three-way list).

    The added rows are B's own rows (and B's pairs: the tensor can still be shown), marked
    ``side = "absent"`` (side A has no such tensor) with a message that says so.  A's rows keep
    their positions, so everything that reads side A's rows by position still does.
    """
    a, b = tw.a, tw.b
    extra = _only_in_b(a.frame, b.frame)
    if not extra.size:
        return a
    message = f"only in {tw.labels[1]}: neither the golden dump nor {tw.labels[0]} has this tensor"
    added = b.frame[extra].with_columns(side=pl.lit("absent"), message=pl.lit(message))
    frame = pl.concat([a.frame, added], how="diagonal_relaxed")
    pairing = None
    if a.pairing is not None and b.pairing is not None:
        pairing = replace(a.pairing, pairs=[*a.pairing.pairs, *(b.pairing.pairs[int(p)] for p in extra)])
    return replace(a, frame=frame, pairing=pairing)


def _only_in_b(a: pl.DataFrame, b: pl.DataFrame) -> np.ndarray:
    """Positions of B's target-only rows whose tensor side A does not hold either."""
    a_targets = a.filter(pl.col("side") == "target")["name"]
    mask = (b["side"] == "target") & ~b["name"].is_in(a_targets.implode())
    return np.flatnonzero(mask.fill_null(False).to_numpy())


def _unmatched(frame: pl.DataFrame) -> int:
    return int((frame["health"] == Health.UNMATCHED).sum())


def worse_mask(frame: pl.DataFrame, value: str) -> np.ndarray:
    """Boolean mask of ``worse:VALUE`` (``A``, ``B``, ``=``; case-insensitive; ``none`` = ``=``)."""
    wanted = {"a": "A", "b": "B", "=": "=", "none": "=", "same": "="}.get(value.strip().lower())
    if wanted is None:
        raise ValueError(f"worse:{value}: choose A, B or =")
    return (frame["worse"] == wanted).fill_null(False).to_numpy()


def compare_three(
    golden: str | Path | Dump,
    a: str | Path | Dump,
    b: str | Path | Dump,
    *,
    model: str | Path | None = None,
    graphs: Sequence[str | Path | None] = (None, None),
    labels: Sequence[str] = ("A", "B"),
    preset: str = "auto",
    thresholds: Thresholds | Sequence[str] | None = None,
    worse_by: str = "health",
    factor: float = MAGNITUDE_FACTOR,
    **options: Any,
) -> ThreeWay:
    """Compare two targets ``a`` and ``b`` each against ``golden``, side by side.

    Parameters:
        golden, a, b: dumps, as for :func:`compare` (e.g. fp16 vs int8, two releases,
            fusion on vs fusion off).
        model: the ONNX model (optional).
        graphs: an ATC graph JSON per side, ``(a_graph, b_graph)``; ``None`` for none.
        labels: names for the two sides in reports.
        preset, thresholds: as for :func:`compare`.
        worse_by, factor: ``"health"`` (default) or ``"magnitude"``: how rows of the same health are
            told apart (``magnitude``: a distance ``factor`` times the other's makes that side worse).
        options: passed to both :func:`compare` calls (``workers``, ``cache``, ``scheduler``,
            ``scheduler_timeout``); each side's ``meta.cache`` says where its index is.

    Returns a :class:`ThreeWay`: ``.frame`` (Polars) has ``a_*`` and ``b_*`` metric columns and
    a ``worse`` column (``A``, ``B``, ``=``, or empty when not comparable);
    ``.first_blame("A")`` names the (fused) op whose error appears only on side A.
    """
    from dumpscope.core.comparison.pipeline import compare

    ga, gb = (list(graphs) + [None, None])[:2]
    th = (
        thresholds if isinstance(thresholds, Thresholds) else Thresholds.from_preset(preset, thresholds or ())
    )
    ca = compare(golden, a, model=model, graph=ga, thresholds=th, **options)
    cb = compare(golden, b, model=model, graph=gb, thresholds=th, **options)
    frame = join_sides(ca.frame, cb.frame, by=worse_by, factor=factor)
    meta = ThreeWayMeta(
        golden=ca.meta.golden,
        a=ca.meta.target,
        b=cb.meta.target,
        graphs=(str(ga) if ga else None, str(gb) if gb else None),
        labels=(str(labels[0]), str(labels[1])),
        worse_by=worse_by,
        factor=factor,
    )
    return ThreeWay(ca, cb, frame, (str(labels[0]), str(labels[1])), meta)
