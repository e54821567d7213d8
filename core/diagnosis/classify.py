"""Introduced vs inherited error, NaN/Inf origin, jump vs drift: vectorised over the frame.

Every row gets an ``origin``:

``clean``       the row is healthy;
``introduced``  the row is unhealthy, its worst input is in a better band (healthy, or one
                band better) and the error at least doubles here: this node made most of the
                error (also: a graph input or constant that already differs, a row that turns
                finite inputs into NaN/Inf, or multiplies its worst input's error by 10 or more);
``inherited``   the row's error is less than twice its worst input's: most of it came from
                upstream (a row that only crosses into a worse band this way, as a drift or a
                Split of the part of its input where the error is densest does, inherits);
``unknown``     not compared (unmatched, unreadable), or unhealthy with no known input or
                with an input that could not be compared.

The worst input is the input row with the highest health level, then the largest error.
Constants are judged apart: a node whose only bad input is a constant introduces its error.

**One scale per node.**  Healthy and unhealthy only compare where a row and its inputs are
judged in the same tolerance band.  Where the bands differ (a SigmaStar fixed.sim that keeps one
layer UINT8 among INT16 ones: the ``int8`` band tolerates a relative error of 0.1, ``int16``
only 0.01), the row and its flowing inputs are judged again in the strictest (most precise)
band among them (``judged_band``; ``judged_level`` is the row's level there): an 8-bit layer
that turns an error its INT16 input holds within 0.01 into 0.02 introduces it, although 0.02 is
within its own 8-bit band; and the INT16 layer after it, fed an error already past the INT16
band, inherits it instead of introducing it.  Rows of one band (every float16 run, every
all-8-bit run: the run's band covers them all) are judged as they are.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict, cast

import numpy as np
import polars as pl

from dumpscope.core.comparison.judge import PRECISION_ORDER, Thresholds, judge
from dumpscope.core.diagnosis.edges import Edges
from dumpscope.core.names import display
from dumpscope.core.vocabulary import Health

FrameLike = pl.DataFrame | pl.LazyFrame

#: Error growth (output error / worst input error) that counts as a new error at equal health.
AMPLIFY = 10.0
#: Error growth needed for a row in a worse band than its worst input (healthy or not) to count as introduced.
CROSSING = 2.0
LEVEL = {"ok": 0, "warn": 1, "fail": 2, "error": 2}
#: The health word of a level a row is judged to in another band.
LEVEL_WORD = {0: "ok", 1: "warn", 2: "fail"}
#: The comparison's worst channel-slice relative distance, when it measures one.
SLICE_ERROR = "slice_relative_distance"
ORIGINS = ("introduced", "inherited", "clean", "unknown")

CLASSIFY_SCHEMA: dict[str, pl.DataType] = {
    "row": pl.Int64(),
    "level": pl.Int64(),
    "error": pl.Float64(),
    "nonfinite": pl.Int64(),
    "inputs": pl.Int64(),
    "worst_input_row": pl.Int64(),
    "worst_input": pl.String(),
    "worst_input_health": pl.String(),
    "worst_input_error": pl.Float64(),
    "input_nonfinite": pl.Int64(),
    "bad_constant": pl.String(),
    "growth": pl.Float64(),
    "origin": pl.String(),
    "judged_band": pl.String(),
    "judged_level": pl.Int64(),
}


class ClassRow(TypedDict):
    """One row of :func:`classify`'s frame (:data:`CLASSIFY_SCHEMA`), as :func:`class_rows` reads it."""

    row: int
    level: int | None
    error: float | None
    nonfinite: int | None
    inputs: int | None
    worst_input_row: int | None
    worst_input: str | None
    worst_input_health: str | None
    worst_input_error: float | None
    input_nonfinite: int | None
    bad_constant: str | None
    growth: float | None
    origin: str | None
    judged_band: str | None
    """The strictest band among the row's and its inputs' when they differ (the row was judged again
    there)."""
    judged_level: int | None


def class_rows(frame: pl.DataFrame) -> list[ClassRow]:
    """The rows of a frame holding :data:`CLASSIFY_SCHEMA`'s columns (others may follow), typed."""
    return cast("list[ClassRow]", list(frame.iter_rows(named=True)))


def row_errors(frame: pl.DataFrame, outputs: frozenset[str] = frozenset()) -> pl.DataFrame:
    """Per row: ``level`` (0 ok, 1 warn, 2 fail/error, null not compared), ``error`` (relative
    Euclidean distance, else 1 - cosine, or, for a Concat or one of the graph ``outputs``, the worst
    channel slice's relative distance when larger;
    +inf where NaN/Inf appear on one side only) and
    ``nonfinite`` (positions NaN/Inf on one side only)."""
    err = pl.coalesce(pl.col("relative_euclidean_distance"), 1.0 - pl.col("cosine_similarity"))
    if SLICE_ERROR in frame.columns:  # judged on the worst channel slice too ...
        # ... where a channel means something on its own: a Concat of different tensors, a graph output
        # (class scores next to box coordinates); a feature map's faint channel is drift, not a culprit.
        own = (pl.col("op_type") == "Concat") | pl.col("name").is_in(sorted(outputs))
        err = pl.when(own.fill_null(False)).then(pl.max_horizontal(err, pl.col(SLICE_ERROR))).otherwise(err)
    nonfinite = pl.col("nonfinite_mismatch").fill_null(0)
    return frame.select(
        pl.int_range(pl.len(), dtype=pl.Int64).alias("row"),
        _level(pl.col("health")).alias("level"),
        pl.when(nonfinite > 0).then(pl.lit(math.inf)).otherwise(err.cast(pl.Float64)).alias("error"),
        nonfinite.cast(pl.Int64).alias("nonfinite"),
    )


def _level(health: pl.Expr) -> pl.Expr:
    """:data:`LEVEL` of each health, null for the others (string comparisons: the kernels the
    comparison already ran, no mapping table over every row)."""
    level = pl.lit(None, pl.Int64)
    for name, value in reversed(LEVEL.items()):
        level = pl.when(health == name).then(pl.lit(value, pl.Int64)).otherwise(level)
    return level


def classify_frame(
    frame: pl.DataFrame,
    edges: Edges,
    outputs: frozenset[str] = frozenset(),
    thresholds: Thresholds | None = None,
) -> pl.DataFrame:
    """One row per frame row (same order) with the origin and the worst input; see the module doc.
    ``outputs``: the model's graph outputs (judged on their worst channel slice too); ``thresholds``:
    the bands the comparison was judged with (a row and its inputs in different bands are judged
    again in the strictest of them; without ``thresholds``, each row in its own band only)."""
    base = row_errors(frame, outputs).with_columns(
        frame["name"].alias("_name"), frame["kind"].alias("_kind"), frame["health"].alias("_health")
    )
    e = _aggregated(lambda edge_rows: _input_facts(edge_rows, base), edges.frame)
    e, judged = _one_scale(frame, e, thresholds)
    worst = _aggregated(_worst_inputs, e)
    bad_const = _aggregated(_bad_constants, e)
    out = base.hstack(_per_row(base["row"], worst, bad_const, judged).get_columns())
    level, in_level = pl.coalesce(pl.col("judged_level"), pl.col("level")), pl.col("_in_level")
    in_err = pl.col("worst_input_error")
    growth = (
        pl.when(in_err.is_infinite() & pl.col("error").is_infinite())
        .then(pl.lit(1.0))
        .when(in_err > 0)
        .then(pl.col("error") / in_err)
    )
    new_nonfinite = (pl.col("nonfinite") > 0) & (pl.col("input_nonfinite").fill_null(0) == 0)
    source_kind = pl.col("_kind").is_in(["input", "constant"])
    has_inputs = pl.col("inputs").fill_null(0) > 0
    origin = (
        pl.when(pl.col("level").is_null() | (pl.col("_health") == Health.ERROR))
        .then(pl.lit("unknown"))
        .when(level == 0)
        .then(pl.lit("clean"))
        .when(source_kind)
        .then(pl.lit("introduced"))
        .when(~has_inputs & pl.col("bad_constant").is_not_null())
        .then(pl.lit("introduced"))
        .when(~has_inputs)
        .then(pl.lit("unknown"))
        .when(in_level.is_null())
        .then(pl.lit("unknown"))
        # Crossing a band (ok to warn, warn to fail) with little growth is an inherited error reaching
        # the band's edge (a drift, or a slice of its input where the error is denser), not a new error.
        .when((in_level < level) & (growth.fill_null(math.inf) >= CROSSING))
        .then(pl.lit("introduced"))
        .when(new_nonfinite)
        .then(pl.lit("introduced"))
        .when(growth.fill_null(0.0) >= AMPLIFY)
        .then(pl.lit("introduced"))
        .otherwise(pl.lit("inherited"))
    )
    return out.with_columns(
        pl.col("inputs").fill_null(0),
        growth.alias("growth"),
        origin.alias("origin"),
    ).select(list(CLASSIFY_SCHEMA))


def _one_scale(
    frame: pl.DataFrame, e: pl.DataFrame, thresholds: Thresholds | None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The edges with each compared input's level judged in its consumer's common band (the strictest
    band of the consumer and its flowing, compared inputs), and per row whose inputs span other bands than
    its own: that ``judged_band`` and the row's ``judged_level`` in it (see the module doc).  Only the rows
    concerned are judged again (none in a run of one band)."""
    none = pl.DataFrame(schema={"row": pl.Int64, "judged_band": pl.String, "judged_level": pl.Int64})
    if thresholds is None or not e.height or not _judgeable(frame, thresholds):
        return e, none
    rank = frame["band"].replace_strict(
        {b: k for k, b in enumerate(PRECISION_ORDER)}, default=None, return_dtype=pl.Int64
    )
    ranks = pl.DataFrame({"_r": pl.int_range(frame.height, dtype=pl.Int64, eager=True), "_rank": rank})
    flowing = (
        e.filter(~pl.col("constant") & pl.col("in_level").is_not_null())
        .select("row", "input_row")
        .join(ranks.rename({"_r": "input_row", "_rank": "in_rank"}), on="input_row", how="left")
        .join(ranks.rename({"_r": "row", "_rank": "own_rank"}), on="row", how="left")
        .filter(pl.col("in_rank").is_not_null() & pl.col("own_rank").is_not_null())
    )
    mixed = flowing.group_by("row").agg(
        pl.min_horizontal(pl.col("in_rank").min(), pl.col("own_rank").first()).alias("_common"),
        (pl.col("in_rank") != pl.col("own_rank")).any().alias("_mixed"),
    )
    mixed = mixed.filter(pl.col("_mixed")).drop("_mixed")
    if not mixed.height:
        return e, none
    band_of = pl.col("_common").replace_strict(dict(enumerate(PRECISION_ORDER)), return_dtype=pl.String)
    # Who is judged again in which band: each mixed row, and each of its flowing inputs.
    asks = pl.concat(
        [
            mixed.select(pl.col("row").alias("_r"), band_of.alias("_band")),
            flowing.join(mixed, on="row").select(pl.col("input_row").alias("_r"), band_of.alias("_band")),
        ]
    ).unique(maintain_order=True)
    again = judge(frame[asks["_r"]].with_columns(asks["_band"].alias("band")), thresholds)
    levels = asks.with_columns(_level(pl.lit(again["health"])).alias("_again"))
    judged = mixed.select("row", band_of.alias("judged_band")).join(
        levels.rename({"_r": "row", "_band": "judged_band"}), on=["row", "judged_band"], how="left"
    )
    judged = judged.join(_frame_levels(frame), on="row", how="left").select(
        "row", "judged_band", pl.max_horizontal("_again", "_own").alias("judged_level")
    )
    e = (
        e.join(mixed.select("row", band_of.alias("_band")), on="row", how="left", maintain_order="left")
        .join(
            levels.rename({"_r": "input_row"}), on=["input_row", "_band"], how="left", maintain_order="left"
        )
        .with_columns(
            pl.when(pl.col("_again").is_not_null() & pl.col("in_level").is_not_null())
            .then(pl.max_horizontal("in_level", "_again"))
            .otherwise(pl.col("in_level"))
            .alias("in_level")
        )
        .with_columns(
            pl.when(pl.col("_again").is_not_null() & pl.col("in_level").is_not_null())
            .then(pl.col("in_level").replace_strict(LEVEL_WORD, return_dtype=pl.String))
            .otherwise(pl.col("in_health"))
            .alias("in_health")
        )
        .drop("_band", "_again")
    )
    return e, judged


def _judgeable(frame: pl.DataFrame, thresholds: Thresholds) -> bool:
    """The frame holds what judging its rows again reads (a frame imported from elsewhere may not)."""
    metrics = {m for band in PRECISION_ORDER for m in thresholds.bands.get(band, {})}
    needed = {"band", "status", "message", "hard_fail", "hard_warn", "notes", "max_absolute_error", *metrics}
    return needed <= set(frame.columns)


def _frame_levels(frame: pl.DataFrame) -> pl.DataFrame:
    """``row`` and ``_own``: each row's level in its own band."""
    return pl.DataFrame({"row": pl.int_range(frame.height, dtype=pl.Int64, eager=True)}).with_columns(
        frame.select(_level(pl.col("health")).alias("_own")).to_series()
    )


def _input_facts(edge_rows: FrameLike, base: pl.DataFrame) -> FrameLike:
    """Each edge with the facts of its input row."""
    facts = base.select(
        pl.col("row").alias("input_row"),
        # An input that could not be compared tells nothing about where the error came from.
        pl.when(pl.col("_health") != Health.ERROR).then(pl.col("level")).alias("in_level"),
        pl.col("error").alias("in_error"),
        pl.col("nonfinite").alias("in_nonfinite"),
        pl.col("_name").alias("in_name"),
        pl.col("_health").alias("in_health"),
    )
    if isinstance(edge_rows, pl.LazyFrame):
        return edge_rows.join(facts.lazy(), on="input_row", how="left")
    return edge_rows.join(facts, on="input_row", how="left")


def _worst_inputs(e: FrameLike) -> FrameLike:
    """Per row: its flowing (not constant) inputs' count, the worst one and its facts."""
    return (
        e.filter(~pl.col("constant"))
        .sort(["row", "in_level", "in_error"], descending=[False, True, True], nulls_last=True)
        .group_by("row", maintain_order=True)
        .agg(
            pl.len().cast(pl.Int64).alias("inputs"),
            pl.col("input_row").first().alias("worst_input_row"),
            pl.col("in_name").first().alias("worst_input"),
            pl.col("in_health").first().alias("worst_input_health"),
            pl.col("in_level").max().alias("_in_level"),
            pl.col("in_error").first().alias("worst_input_error"),
            pl.col("in_nonfinite").max().alias("input_nonfinite"),
        )
    )


def _bad_constants(e: FrameLike) -> FrameLike:
    """Per row: its first unhealthy constant input."""
    return (
        e.filter(pl.col("constant") & (pl.col("in_level").fill_null(0) > 0))
        .group_by("row", maintain_order=True)
        .agg(pl.col("in_name").first().alias("bad_constant"))
    )


def _aggregated(step: Callable[[FrameLike], FrameLike], rows: pl.DataFrame) -> pl.DataFrame:
    """``step(rows)``; for no rows, an empty frame of the schema it would have, without running it
    (a join or group-by even over nothing costs Polars' code pages: ~5 MB of peak memory)."""
    if rows.height:
        out = step(rows)
        assert isinstance(out, pl.DataFrame)  # eager in, eager out
        return out
    return pl.DataFrame(schema=step(rows.lazy()).collect_schema())


def _per_row(rows: pl.Series, *parts: pl.DataFrame) -> pl.DataFrame:
    """The columns of ``parts`` (keyed by ``row``) aligned with ``rows`` (null where a part has no
    such row), without the key.  Only the narrow key column goes through the joins: the row's
    own columns are not copied once per join (the peak memory of a 100k-row frame)."""
    aligned = rows.to_frame()
    for part in parts:
        aligned = (
            aligned.join(part, on="row", how="left", maintain_order="left")
            if part.height
            else _nulls_of(aligned, part)
        )
    return aligned.drop("row")


def _nulls_of(frame: pl.DataFrame, part: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with the columns of the empty ``part`` as typed nulls: Polars keeps such a
    column as one broadcast value, where a join would write every row (no row has inputs)."""
    return frame.with_columns(
        pl.lit(None, dtype).alias(name) for name, dtype in part.schema.items() if name != "row"
    )


def nan_origin(frame: pl.DataFrame, classes: pl.DataFrame) -> int | None:
    """The first row whose target has NaN/Inf the golden lacks while its inputs' targets had none."""
    new = (classes["nonfinite"] > 0) & (classes["input_nonfinite"].fill_null(0) == 0)
    hits = np.flatnonzero(new.to_numpy())
    return int(hits[0]) if hits.size else None


@dataclass(frozen=True)
class Trend:
    """How the error grows along the topological order: one jump, or a drift that accumulates."""

    kind: str
    """``jump`` (a sudden break at one layer), ``drift`` (a gradual decline), or ``none``."""
    row: int | None
    """Where it happens: the jump's row, or the first row leaving the band for a drift."""
    slope: float | None = None
    """Drift: decades of relative error gained per layer (least squares over log10)."""
    layers: int = 0
    """Drift: layers the fit spans."""
    before: float | None = None
    """The error just before ``row`` (the worst input's, or the previous layers')."""
    after: float | None = None
    """The error at ``row``."""

    def marks(self, row: int, *kinds: str) -> bool:
        """A trend of one of ``kinds`` happens at ``row``."""
        return self.kind in kinds and self.row == row

    def sentence(self, frame: pl.DataFrame) -> str:
        if self.kind == "none" or self.row is None:
            return "no layer leaves its band"
        where = f"#{frame['index'][self.row]} {display(str(frame['name'][self.row]))!r}"
        if self.kind == "jump":
            return (
                f"a sudden break (jump) at {where}: relative error {_num(self.before)} -> {_num(self.after)}"
            )
        return (
            f"a gradual decline (drift) over {self.layers} layers: relative error grows by "
            f"{_num(self.slope)} decades per layer and first leaves the band at {where} ({_num(self.after)})"
        )


def _num(v: float | None) -> str:
    if v is None:
        return "n/a"
    if math.isinf(v):
        return "NaN/Inf"
    return f"{v:.3g}"


#: Look-back window (layers) for the error before a suspected jump when no graph edges exist.
_WINDOW = 5


def trend(frame: pl.DataFrame, classes: pl.DataFrame) -> Trend:
    """Jump vs drift over computed activation rows in topological order."""
    act = _measured_activations(frame, classes)
    bad = act.filter(pl.col("level") > 0)
    if bad.height == 0:
        return Trend("none", None)
    first = class_rows(bad.head(1))[0]
    pos = act["row"].to_list().index(first["row"])
    errs = act["error"].to_numpy().astype(np.float64)
    after = float(first["error"] if first["error"] is not None else math.nan)  # never null here
    before = _error_before(first, errs, pos)
    if _sudden(first, before, after):
        return Trend("jump", int(first["row"]), before=before, after=after)
    slope, layers = _log_slope(errs[: pos + 1])
    # An error that does not grow along the layers is no drift: the first layer leaving the band is a jump.
    if slope is None or slope <= 0:
        return Trend("jump", int(first["row"]), before=before, after=after)
    return Trend("drift", int(first["row"]), slope=slope, layers=layers, before=before, after=after)


def _measured_activations(frame: pl.DataFrame, classes: pl.DataFrame) -> pl.DataFrame:
    """The classification of computed, judged activation rows with an error measure (an empty tensor,
    a row judged on its shape alone, shows no trend)."""
    act = classes.with_columns(frame["kind"].alias("_kind"), frame["status"].alias("_status")).filter(
        (pl.col("_kind") == "activation") & (pl.col("_status") == "computed") & pl.col("level").is_not_null()
    )
    return act.filter(pl.col("error").is_not_null() & ~pl.col("error").is_nan())


def _sudden(first: ClassRow, before: float, after: float) -> bool:
    """The first bad row breaks at once: NaN/Inf, nothing before it, or :data:`AMPLIFY` times the error
    before."""
    return math.isinf(after) or (first["nonfinite"] or 0) > 0 or before <= 0 or after / before >= AMPLIFY


def _error_before(first: ClassRow, errs: np.ndarray, pos: int) -> float:
    """The error just before the first bad row: its worst input's, else the largest of the previous
    layers'."""
    worst = first["worst_input_error"]
    if worst is not None and not math.isnan(worst):
        return float(worst)
    prev = errs[max(0, pos - _WINDOW) : pos]
    prev = prev[~np.isnan(prev)]
    return float(prev.max()) if prev.size else 0.0


def _log_slope(errs: np.ndarray) -> tuple[float | None, int]:
    """Least-squares slope of log10(error) over the layers (decades per layer), and the layers fitted."""
    finite = np.isfinite(errs) & (errs > 0)
    if finite.sum() < 3:
        return None, int(finite.sum())
    x = np.flatnonzero(finite).astype(np.float64)
    return float(np.polyfit(x, np.log10(errs[finite]), 1)[0]), int(finite.sum())
