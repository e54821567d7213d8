"""Health of each compared tensor: configurable bands, judged on the whole frame at once.

One absolute tolerance cannot serve every layer: RMSE > 0.1 on a tensor whose values
reach 300 is kernel noise, on a softmax it is a broken layer.  So the default preset
(``auto``) judges each row by *relative* metrics (cosine, relative Euclidean distance)
with bands chosen by the pair's precision: float32 targets (an optimised graph) must
agree to kernel noise, float16/bfloat16 targets to their rounding, quantised targets
to quantisation noise, and integer/bool tensors exactly.  The SigmaStar porting rule of thumb
(``COS < 0.99 or RMSE > 0.1``, SigmaStar) and msit's five thresholds are presets too.

Some findings are unhealthy whatever the thresholds: a position finite on one side
only (NaN/Inf where the other has a number), and an all-zero golden with a non-zero
target.  The row builder records them in ``hard_fail`` (and findings that make a row at
least a warning, such as an unexplained reshape, in ``hard_warn``).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from dumpscope.core.comparison.slices import DESTROYED
from dumpscope.core.vocabulary import DIVERGENT, HEALTHS, METRIC, METRICS, UNHEALTHY, Health

__all__ = [
    "DIVERGENT",
    "HEALTHS",
    "UNHEALTHY",
    "Limit",
    "Thresholds",
    "judge",
    "first_divergent",
    "health_counts",
]

if TYPE_CHECKING:  # polars is imported where frames are judged: `dumpscope --help` needs only PRESETS
    import polars as pl

#: Metrics where a larger value is better; for every other metric larger is worse.
HIGHER_IS_BETTER: frozenset[str] = frozenset(m.name for m in METRICS if m.higher_is_better)


@dataclass(frozen=True)
class Limit:
    """``warn``/``fail`` bounds of one metric (either may be None)."""

    warn: float | None = None
    fail: float | None = None

    def describe(self, metric: str) -> str:
        op = "<" if metric in HIGHER_IS_BETTER else ">"
        bounds = ((Health.WARN, self.warn), (Health.FAIL, self.fail))
        parts = [f"{k} {op} {v:g}" for k, v in bounds if v is not None]
        return ", ".join(parts) or "not judged"


Band = Mapping[str, Limit]

#: A channel slice with at least this relative distance is destroyed (the row fails).
SLICE_DESTROYED = DESTROYED


def _band(cos: Limit, red: Limit) -> dict[str, Limit]:
    """A float band: the whole tensor's bounds, and its worst channel slice failing when destroyed."""
    return {
        "cosine_similarity": cos,
        "relative_euclidean_distance": red,
        "slice_relative_distance": Limit(None, SLICE_DESTROYED),
    }


_REL: dict[str, Band] = {
    "fp32": _band(Limit(0.99999, 0.9999), Limit(1e-3, 1e-2)),
    "fp16": _band(Limit(0.9999, 0.999), Limit(0.01, 0.05)),
    "bf16": _band(Limit(0.999, 0.99), Limit(0.03, 0.1)),
    "int16": _band(Limit(0.9999, 0.999), Limit(0.01, 0.05)),
    "int8": _band(Limit(0.99, 0.95), Limit(0.1, 0.3)),
    "exact": {"max_absolute_error": Limit(None, 0.0)},
}
#: Seed 004 §3.2.5: "COS < 0.99 or RMSE > 0.1", where RMSE is SigmaStar's relative L1 error.
_SEED = {"cosine_similarity": Limit(None, 0.99), "sgs_rmse": Limit(None, 0.1)}
_MSIT = {
    "cosine_similarity": Limit(None, 0.99),
    "relative_euclidean_distance": Limit(None, 0.05),
    "kullback_leibler_divergence": Limit(None, 0.005),
    "root_mean_square_error": Limit(None, 1.0),
    "mean_relative_error": Limit(None, 1.0),
}

#: name -> (description, bands).  A single-band preset judges every row the same way.
PRESETS: dict[str, tuple[str, dict[str, Band]]] = {
    "auto": ("relative metrics, bands by the pair's precision (fp32/fp16/int16/bf16/int8/exact)", _REL),
    "seed": (
        "the SigmaStar rule of thumb: COS < 0.99 or RMSE (SigmaStar) > 0.1 fails",
        {"all": _SEED, "exact": _REL["exact"]},
    ),
    "msit": (
        "msit's analyser: COS < 0.99, RED > 0.05, KL > 0.005, RMSE > 1, mean rel. error > 1",
        {"all": _MSIT, "exact": _REL["exact"]},
    ),
    "fp32": ("every row judged as a float32 target", {"all": _REL["fp32"], "exact": _REL["exact"]}),
    "fp16": ("every row judged as a float16 target", {"all": _REL["fp16"], "exact": _REL["exact"]}),
    "bf16": ("every row judged as a bfloat16 target", {"all": _REL["bf16"], "exact": _REL["exact"]}),
    "int8": ("every row judged as a quantised target", {"all": _REL["int8"], "exact": _REL["exact"]}),
}


#: The absolute floor of each band: a row whose every difference is at most
#: this (``max_absolute_error <= floor``) does not FAIL on a relative metric (cosine,
#: relative distance...), it WARNs.  Two ulps of a unit-scale value in the band's
#: float type: a saturated Sigmoid (values <= 9.1e-6) that moved by 8.9e-8 reads a
#: relative distance of 0.04, yet no float32 kernel can do better on numbers that small
#: next to the 1.0 the op's range reaches.  Absolute metrics and hard failures (NaN/Inf,
#: all-zero golden) are never floored; integer (``exact``) and int8 bands have no floor
#: (a quantisation step has no fixed size).
ABS_FLOOR: dict[str, float] = {"fp32": 2 * 2.0**-23, "fp16": 2 * 2.0**-10, "bf16": 2 * 2.0**-7}
#: Metrics in units of the data: the floor does not apply to them.
_ABSOLUTE_METRICS = frozenset({"max_absolute_error", "mean_absolute_error", "root_mean_square_error"})

#: Bands from the most to the least precise.
PRECISION_ORDER = ("fp32", "fp16", "int16", "bf16", "int8")


def precision_band(dtypes: Iterable[str | None], quantised: bool = False, quant_band: str = "int8") -> str:
    """The band of the least precise float dtype among ``dtypes`` (``quant_band`` if quantised)."""
    names = {d for d in dtypes if d}
    if quantised:
        return quant_band
    if any(d in ("int8", "uint8", "int16", "uint16") for d in names):
        return "int8"
    if "bfloat16" in names:
        return "bf16"
    if "float16" in names:
        return "fp16"
    return "fp32"


@dataclass(frozen=True)
class Thresholds:
    """Health bands plus the element tolerance used for ``within_tolerance``."""

    preset: str = "auto"
    bands: Mapping[str, Band] = field(default_factory=lambda: dict(_REL))
    rtol: float = 1e-3
    atol: float = 1e-5
    floors: Mapping[str, float] = field(default_factory=lambda: dict(ABS_FLOOR))
    """Absolute floor per band (see :data:`ABS_FLOOR`); bands of other presets have none."""

    @classmethod
    def from_preset(cls, name: str = "auto", overrides: Iterable[str] = ()) -> Thresholds:
        """A preset, adjusted by ``KEY=VALUE`` overrides.

        Keys: ``rtol``, ``atol``, ``METRIC`` (sets ``fail`` in every band),
        ``METRIC.warn``/``METRIC.fail``, or ``BAND.METRIC[.warn|.fail]``.
        """
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
        th = cls(preset=name, bands={b: dict(lims) for b, lims in PRESETS[name][1].items()})
        for item in overrides:
            th = th.with_override(item)
        return th

    def with_override(self, item: str) -> Thresholds:
        key, value = _parse_override(item)
        if key == "rtol":
            return replace(self, rtol=value)
        if key == "atol":
            return replace(self, atol=value)
        bands, metric, which = self._override_target(item, key)
        new = {b: dict(lims) for b, lims in self.bands.items()}
        for b in bands:
            old = new[b].get(metric, Limit())
            new[b][metric] = replace(old, **{which: value})
        # a bound the user sets is applied as given: no absolute floor softens it
        return replace(self, bands=new, floors={k: v for k, v in self.floors.items() if k not in bands})

    def _override_target(self, item: str, key: str) -> tuple[list[str], str, str]:
        """(bands, metric, ``warn``/``fail``) an override key names."""
        parts = key.split(".")
        which = parts.pop() if parts[-1] in (Health.WARN, Health.FAIL) else Health.FAIL.value
        bands = [b for b in self.bands if b != "exact"]
        if len(parts) == 2:
            if parts[0] not in self.bands:
                raise ValueError(
                    f"threshold {item!r}: unknown band {parts[0]!r} (bands: {', '.join(self.bands)})"
                )
            bands = [parts[0]]
            parts = parts[1:]
        if len(parts) != 1 or parts[0] not in METRIC:
            raise ValueError(f"threshold {item!r}: unknown metric {'.'.join(parts)!r}")
        return bands, parts[0], which

    def band_for(
        self,
        dtype: str | None,
        target_dtype: str | None,
        quantised: bool,
        run_band: str | None = None,
        quant_band: str = "int8",
    ) -> str:
        """Which band judges a pair: ``exact`` for integer/bool pairs, else the lower
        precision of the pair's own dtypes and ``run_band``, the precision of the target
        run as a whole (a float32 layer after float16 layers carries float16 error).
        ``quant_band`` is the band of a quantised pair (``int16`` for 16-bit records)."""
        exact = all(
            d is not None and (d.startswith(("int", "uint")) or d == "bool") for d in (dtype, target_dtype)
        )
        if exact and not quantised:
            return "exact"
        if "all" in self.bands:
            return "all"
        own = precision_band((dtype, target_dtype), quantised, quant_band)
        return max(own, run_band or "fp32", key=PRECISION_ORDER.index)

    def describe(self, metric: str, band: str | None = None) -> str:
        """Human text of the limits a metric is judged by (``not judged`` when none)."""
        bands = [band] if band else list(self.bands)
        texts = []
        for b in bands:
            lim = self.bands.get(b, {}).get(metric)
            if lim is not None:
                texts.append(lim.describe(metric) + ("" if band else f" ({b})"))
        return "; ".join(texts) or "not judged"


def _parse_override(item: str) -> tuple[str, float]:
    """``KEY=NUMBER`` -> (key, number); anything else is a ValueError."""
    key, sep, raw = item.partition("=")
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"threshold {item!r}: expected KEY=NUMBER") from None
    if not sep or math.isnan(value):
        raise ValueError(f"threshold {item!r}: expected KEY=NUMBER")
    return key.strip(), value


def judge(frame: pl.DataFrame, thresholds: Thresholds) -> pl.DataFrame:
    """Set ``health`` and ``message`` of every computed row (``status == "computed"``).

    Rows that are errors, unmatched or pending keep their health and message.  Only the
    computed rows are judged (a 100k-row dump of unmatched or unreadable tensors costs no
    100k-row string expressions), and only the columns the verdict reads are copied.
    """
    import polars as pl

    message = frame["message"]
    if message.null_count():
        frame = frame.with_columns(message.fill_null(""))
    computed = frame["status"] == "computed"
    count = computed.sum()
    if not count:
        return frame
    whole = count == frame.height  # (every row computed, the usual final frame: no gather, no scatter)
    rows = frame if whole else frame.filter(computed)
    present = rows["band"].unique().to_list() if "band" in frame.columns else None
    fail_reasons, warn_reasons = _reasons(thresholds, present)
    reasons = [
        _joined("hard_fail", fail_reasons).alias("_fail"),
        _joined("hard_warn", warn_reasons).alias("_warn"),
    ]
    verdict = _verdict(pl.col("_fail"), pl.col("_warn"))
    judged = rows.lazy().select(*reasons, "notes").select(*verdict).collect()  # one query, not two
    if whole:
        return frame.with_columns(judged["health"], judged["message"])
    at = computed.arg_true()
    return frame.with_columns(
        frame["health"].scatter(at, judged["health"]), frame["message"].scatter(at, judged["message"])
    )


def _reasons(
    thresholds: Thresholds, bands: Collection[str | None] | None = None
) -> tuple[list[pl.Expr], list[pl.Expr]]:
    """The fail and warn reasons of every band (of ``bands`` only, when given: the bands of the rows
    judged): one text expression per bound (null where it holds, and for every row of another
    band, so a band no row has adds nothing to any text; building its ~20 Polars expressions
    in Python was over half of judging a one-band frame)."""
    fail_reasons: list[pl.Expr] = []
    warn_reasons: list[pl.Expr] = []
    for band, limits in thresholds.bands.items():
        if bands is not None and band not in bands:
            continue
        for metric, lim in limits.items():
            _bound_reasons(
                _BoundCheck(band, metric, thresholds.floors.get(band)), lim, fail_reasons, warn_reasons
            )
    return fail_reasons, warn_reasons


@dataclass(frozen=True)
class _BoundCheck:
    """One metric of one band, with the band's absolute floor (None: no floor)."""

    band: str
    metric: str
    floor: float | None

    def text(self, bound: float, floored: bool = False) -> pl.Expr:
        """``cos 0.91 < 0.99`` (plus the floor sentence for a bound the floor softens)."""
        import polars as pl

        name = METRIC[self.metric].short if self.metric in METRIC else self.metric
        op = "<" if self.metric in HIGHER_IS_BETTER else ">"
        tail = f" but every |diff| <= {self.floor:.3g} (the {self.band} absolute floor)" if floored else ""
        return pl.format(f"{name} {{}} {op} {bound:g}{tail}", _fmt(pl.col(self.metric)))

    def floored(self) -> pl.Expr | None:
        """Rows within the band's absolute floor (None: no floor, or a metric it does not soften)."""
        return _floored(self.floor) if self.metric not in _ABSOLUTE_METRICS else None

    def bad(self, bound: float) -> pl.Expr:
        """In this band and past ``bound``."""
        import polars as pl

        col = pl.col(self.metric)
        past = (col < bound) if self.metric in HIGHER_IS_BETTER else (col > bound)
        return (pl.col("band") == self.band) & past.fill_null(False)


def _bound_reasons(
    check: _BoundCheck, lim: Limit, fail_reasons: list[pl.Expr], warn_reasons: list[pl.Expr]
) -> None:
    """The reasons one limit adds: within the band's floor, a fail bound only warns (and
    says so) and a warn bound is not said; absolute metrics ignore the floor."""
    import polars as pl

    floored = check.floored()
    if lim.fail is not None:
        fail_reasons.append(_reason(check, lim.fail, floored))
        if floored is not None:
            warn_reasons.append(
                pl.when(check.bad(lim.fail) & floored).then(check.text(lim.fail, floored=True))
            )
    if lim.warn is not None:
        warn_reasons.append(_reason(check, lim.warn, floored))


def _reason(check: _BoundCheck, bound: float, floored: pl.Expr | None) -> pl.Expr:
    """The text of ``bound`` where a row is past it (and, with a floor, not within it)."""
    import polars as pl

    bad = check.bad(bound)
    return pl.when(bad if floored is None else bad & ~floored).then(check.text(bound))


def _verdict(fail: pl.Expr, warn: pl.Expr) -> list[pl.Expr]:
    """``health`` and ``message`` of a computed row from ``fail`` (its hard failures and failed
    bounds, see :func:`_joined`) and ``warn`` (its hard warnings and warn bounds), then its notes.
    (:func:`judge` computes both texts once, as columns: each is read three times here, and an
    eager ``select`` evaluated the ~35 formatted reasons behind them three times, ~2/3 of the judging.)"""
    import polars as pl

    health = (
        pl.when(fail != "")
        .then(pl.lit(Health.FAIL.value))
        .when(warn != "")
        .then(pl.lit(Health.WARN.value))
        .otherwise(pl.lit(Health.OK.value))
    )
    reason = pl.when(fail != "").then(fail).otherwise(warn)
    notes = pl.col("notes").fill_null("")
    parts = [pl.when(reason != "").then(reason), pl.when(notes != "").then(notes)]
    message = pl.concat_str(parts, separator="; ", ignore_nulls=True).fill_null("")
    return [health.alias("health"), message.alias("message")]


def _joined(hard: str, reasons: list[pl.Expr]) -> pl.Expr:
    """The ``hard`` column's text then every reason that holds, ``; ``-joined ('' for none)."""
    import polars as pl

    text = pl.col(hard).fill_null("")
    return pl.concat_str(
        [pl.when(text != "").then(text), *reasons], separator="; ", ignore_nulls=True
    ).fill_null("")


def _floored(floor: float | None) -> pl.Expr | None:
    """Rows whose every difference is within the band's absolute floor (None: no floor)."""
    import polars as pl

    if floor is None:
        return None
    return (pl.col("max_absolute_error") <= floor).fill_null(False)


def _fmt(col: pl.Expr) -> pl.Expr:
    """Six significant digits, the way a user reads a metric."""
    import polars as pl

    return col.round_sig_figs(6).cast(pl.String)


def first_divergent(frame: pl.DataFrame) -> int | None:
    """Row position of the first ``fail``/``error`` row in frame (topological) order that is not a
    constant (a differing weight is evidence at the node reading it, which computes something);
    the first constant only when no other row diverges."""
    import polars as pl

    divergent = pl.col("health").is_in(list(DIVERGENT))
    if "kind" in frame.columns:
        computed = (pl.col("kind") != "constant").fill_null(True)
        hits = frame.select(pl.arg_where(divergent & computed)).to_series()
        if len(hits):
            return int(hits[0])
    hits = frame.select(pl.arg_where(divergent)).to_series()
    return int(hits[0]) if len(hits) else None


def health_counts(frame: pl.DataFrame) -> dict[str, int]:
    """Rows per health word (every word of :data:`HEALTHS`, zero when absent; any other value too).

    Counted by comparison with each word: a group-by over the column costs its hash tables and
    ~5 MB of Polars' code pages, the largest part of ``diagnose``'s memory beyond the comparison's
    on a 100k-row frame (measured).  Other values (none in a frame dumpscope made) are grouped."""
    health = frame["health"]
    counts = {word: int((health == word).sum()) for word in HEALTHS}
    return counts if sum(counts.values()) == frame.height else _grouped_counts(frame)


def _grouped_counts(frame: pl.DataFrame) -> dict[str, int]:
    """:func:`health_counts` by grouping (a frame with health values outside :data:`HEALTHS`, or nulls)."""
    counts = dict.fromkeys(HEALTHS, 0)
    for health, n in frame.group_by("health").len().iter_rows():
        counts[str(health)] = int(n)
    return counts


#: The word the layer list shows for a metric that makes a row unhealthy (at most 6 cells).
RULE_WORDS: dict[str, str] = {
    "cosine_similarity": "cos",
    "relative_euclidean_distance": "rel",
    "slice_relative_distance": "slice",
    "slice_cosine": "slice",
    "max_absolute_error": "maxabs",
    "mean_absolute_error": "mae",
    "root_mean_square_error": "rmse",
    "kullback_leibler_divergence": "kl",
    "max_relative_error": "maxrel",
    "mean_relative_error": "meanre",
    "accumulated_relative_error": "accrel",
    "sqnr_db": "sqnr",
    "within_tolerance": "tol",
    "mse": "mse",
    "sgs_rmse": "rmse",
}
RULE_NONFINITE = "nan/inf"


def failing_rules(frame: pl.DataFrame, thresholds: Thresholds) -> pl.Series:
    """Per row, the rule that makes it unhealthy, in a word: ``nan/inf`` where positions are NaN/Inf on
    one side only (the metrics then cover the finite positions and may all be inside their bands), else
    the first metric past a fail bound, else past a warn bound (:data:`RULE_WORDS`; the same bounds and
    floors as :func:`judge`), ``error`` for a row that could not be compared, ``""`` for any other row
    (healthy, unmatched, pending, or unhealthy for a reason no metric shows: the message says it)."""
    import polars as pl

    conditions: list[tuple[pl.Expr, str]] = []
    if "nonfinite_mismatch" in frame.columns:
        conditions.append(((pl.col("nonfinite_mismatch").fill_null(0) > 0), RULE_NONFINITE))
    if "band" in frame.columns:
        conditions += _bound_conditions(thresholds, frame.columns)
    unhealthy = pl.col("health").is_in([Health.FAIL, Health.WARN])
    words = [pl.when(unhealthy & cond).then(pl.lit(word)) for cond, word in conditions]
    words.append(pl.when(pl.col("health") == Health.ERROR).then(pl.lit(Health.ERROR.value)))
    return frame.select(pl.coalesce(*words, pl.lit("")).alias("rule")).to_series()


def _bound_conditions(thresholds: Thresholds, columns: list[str]) -> list[tuple[pl.Expr, str]]:
    """``(row is past the bound, word)`` for every fail bound, then every warn bound, of every band."""
    fails: list[tuple[pl.Expr, str]] = []
    warns: list[tuple[pl.Expr, str]] = []
    for band, limits in thresholds.bands.items():
        for metric, lim in limits.items():
            if metric in columns:
                fail, warn = _past(thresholds, band, metric, lim)
                word = RULE_WORDS.get(metric, metric[:6])
                fails += [(fail, word)] if fail is not None else []
                warns += [(warn, word)] if warn is not None else []
    return fails + warns


def _past(
    thresholds: Thresholds, band: str, metric: str, lim: Limit
) -> tuple[pl.Expr | None, pl.Expr | None]:
    """``(fails, warns)``: a row of ``band`` past the fail bound of ``metric`` and not within the band's
    floor; past the warn bound (not within the floor), or past the fail bound within the floor (None:
    no such bound), exactly as :func:`_bound_reasons` words them."""
    check = _BoundCheck(band, metric, thresholds.floors.get(band))
    floored = check.floored()
    fail = warn = None
    if lim.fail is not None:
        bad = check.bad(lim.fail)
        fail = bad if floored is None else bad & ~floored
        warn = None if floored is None else bad & floored
    if lim.warn is not None:
        bad = check.bad(lim.warn)
        bad = bad if floored is None else bad & ~floored
        warn = bad if warn is None else warn | bad
    return fail, warn


def metric_states(row: Mapping[str, object], thresholds: Thresholds) -> dict[str, str]:
    """For one row (a frame row as a dict), ``metric -> "fail" | "warn"`` for every metric past a bound
    of the row's band (the bounds and floors of :func:`judge`); metrics within their bounds are absent."""
    import polars as pl

    band = str(row.get("band") or "")
    limits = thresholds.bands.get(band, {})
    metrics = [m for m in limits if isinstance(row.get(m), (int, float))]
    if not metrics:
        return {}
    columns = {
        "band": [band],
        "max_absolute_error": [row.get("max_absolute_error")],
        **{m: [row[m]] for m in metrics},
    }
    frame = pl.DataFrame(columns, schema_overrides={m: pl.Float64 for m in columns if m != "band"})
    states: dict[str, str] = {}
    for metric in metrics:
        fail, warn = _past(thresholds, band, metric, limits[metric])
        for level, cond in ((Health.FAIL.value, fail), (Health.WARN.value, warn)):
            if cond is not None and metric not in states and frame.select(cond).item():
                states[metric] = level
    return states
