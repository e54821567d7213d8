"""The words dumpscope speaks: health words and the metric registry, defined once.

Every user of a health word (the judge, the CLI, the TUI) and every list of metrics
(the frame's columns, the msaccucmp CSV, the judge's messages, the panes) reads this
module.  Adding a metric is one :data:`METRICS` entry (plus its kernel code).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # pragma: no cover - Python 3.10

    class StrEnum(str, Enum):
        """A member is its value: equal to it, hashed as it, printed as it."""

        def __str__(self) -> str:
            return str(self.value)

        def __format__(self, format_spec: str) -> str:
            return format(str(self), format_spec)


class Health(StrEnum):
    """A row's health word (the frame's ``health`` column holds the plain strings)."""

    OK = "ok"
    WARN = "warn"
    FAIL = "fail"
    ERROR = "error"
    """Not compared: a side unreadable, shapes that cannot line up..."""
    UNMATCHED = "unmatched"
    PENDING = "pending"
    """Not computed yet (a comparison still filling)."""


HEALTHS: tuple[str, ...] = tuple(h.value for h in Health)
"""Health words of the engine, in a fixed order (the TUI codes a row by its position here)."""
UNHEALTHY: frozenset[str] = frozenset({Health.WARN.value, Health.FAIL.value, Health.ERROR.value})
"""Rows a user must look at."""
DIVERGENT: frozenset[str] = frozenset({Health.FAIL.value, Health.ERROR.value})
"""Rows that count as the comparison diverging (the first one is "first divergent")."""


def is_divergent(counts: Mapping[str, int]) -> bool:
    """Some row fails or could not be compared (``counts``: rows per health word): what exit
    code 1 and an "unhealthy" verdict mean."""
    return any(counts.get(h, 0) for h in DIVERGENT)


def divergent_rows(counts: Mapping[str, int]) -> int:
    """How many rows fail or could not be compared (``counts``: rows per health word)."""
    return sum(counts.get(h, 0) for h in DIVERGENT)


HEALTH_LABEL: dict[str, str] = {
    "ok": "✓ OK",
    "warn": "! WARN",
    "fail": "✗ FAIL",
    "error": "⚠ ERR",
    "unmatched": "– ONLY",
    "pending": "… wait",
}
"""Glyph + word: health must read without colour (16 colours, NO_COLOR, colour-blind users)."""
UNMATCHED_LABEL: dict[str, str] = {"golden": "– GOLD", "target": "– TRGT"}
"""An unmatched row says which side has the tensor (``– GOLD``: only in the golden dump)."""

#: How a three-way comparison's ``worse`` tells two rows of the same health apart (see
#: :mod:`~dumpscope.core.comparison.threeway`); here so that ``--worse`` is parsed without Polars.
WORSE_RULES: tuple[str, ...] = ("health", "magnitude")
MAGNITUDE_FACTOR = 2.0
"""``by="magnitude"``: one distance must be at least this many times the other to make a side worse."""


@dataclass(frozen=True)
class Metric:
    """One float column of the comparison frame.

    ``name`` is the frame column; ``short`` the label in verdict messages and tables,
    ``long`` the label in a detail pane; ``csv_name`` the msaccucmp result-CSV column
    (None when msaccucmp has none); ``fmt`` the format spec a table cell uses;
    ``higher_is_better`` the direction (larger cosine is better, larger error worse);
    ``group``: ``msaccucmp`` (its nine metrics), ``extra`` (ours), ``slice`` (the worst
    channel slice, :mod:`~dumpscope.core.comparison.slices`) or ``stat`` (per side).
    """

    name: str
    short: str
    long: str
    csv_name: str | None = None
    fmt: str = ".4g"
    higher_is_better: bool = False
    group: str = "extra"


def _stat(name: str) -> Metric:
    stat, _, side = name.partition("_")
    return Metric(name, name, f"{side} {stat}", fmt=".6g", group="stat")


#: Every metric, in the frame's column order (msaccucmp's nine in its CSV order first).
METRICS: tuple[Metric, ...] = (
    Metric("cosine_similarity", "cosine", "cosine similarity", "CosineSimilarity", ".6f", True, "msaccucmp"),
    Metric("max_absolute_error", "max abs error", "max abs error", "MaxAbsoluteError", group="msaccucmp"),
    Metric(
        "accumulated_relative_error",
        "acc. rel. error",
        "accum. rel error",
        "AccumulatedRelativeError",
        group="msaccucmp",
    ),
    Metric(
        "relative_euclidean_distance",
        "rel. distance",
        "relative distance",
        "RelativeEuclideanDistance",
        group="msaccucmp",
    ),
    Metric(
        "kullback_leibler_divergence", "KL", "KL divergence", "KullbackLeiblerDivergence", group="msaccucmp"
    ),
    Metric("mean_absolute_error", "mean abs error", "mean abs error", "MeanAbsoluteError", group="msaccucmp"),
    Metric("root_mean_square_error", "RMSE", "RMSE", "RootMeanSquareError", group="msaccucmp"),
    Metric("max_relative_error", "max rel. error", "max rel error", "MaxRelativeError", group="msaccucmp"),
    Metric(
        "mean_relative_error", "mean rel. error", "mean rel error", "MeanRelativeError", group="msaccucmp"
    ),
    Metric("sqnr_db", "SQNR dB", "SQNR dB", fmt=".3g", higher_is_better=True),
    Metric("within_tolerance", "within tolerance", "within tolerance", fmt=".4f", higher_is_better=True),
    Metric("mse", "MSE", "MSE (mean squared error)", fmt=".6f"),
    Metric("sgs_rmse", "RMSE (SigmaStar)", "RMSE (SigmaStar): Σ|target − golden| / Σ|golden|", fmt=".6f"),
    Metric(
        "slice_cosine",
        "worst-slice cosine",
        "worst slice cosine",
        fmt=".6f",
        higher_is_better=True,
        group="slice",
    ),
    Metric(
        "slice_relative_distance", "worst-slice rel. distance", "worst slice rel. distance", group="slice"
    ),
    *(_stat(f"{stat}_{side}") for side in ("golden", "target") for stat in ("min", "max", "mean", "std")),
)
METRIC: dict[str, Metric] = {m.name: m for m in METRICS}
"""Registry lookup by frame column."""
MSACCUCMP_CSV_NAMES: dict[str, str] = {m.csv_name: m.name for m in METRICS if m.csv_name}
"""msaccucmp's metric columns (CSV name -> frame column), in its CSV order."""


def metrics_in(group: str) -> tuple[str, ...]:
    """Frame columns of one group, in registry order."""
    return tuple(m.name for m in METRICS if m.group == group)


def format_number(value: float | None, width: int) -> str:
    """``value`` in at most ``width`` characters, with as many digits as fit.

    ``·`` for a missing value, ``NaN``, ``inf``/``-inf``; an exponent is written
    compactly (``1e-30``, ``9.3e5``).  A number that cannot fit at all (``width`` too
    small even for one digit and its exponent) is shown as ``#`` repeated.
    """
    if width < 1:
        return ""
    text = _special(value)
    if text is None:
        assert value is not None  # _special speaks for None
        text = _finite(float(value), width)
    return text if len(text) <= width else "#" * width


def _special(value: float | None) -> str | None:
    """The text of a missing, NaN or infinite value (None for a finite number)."""
    if value is None:
        return "·"
    value = float(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return None


def _finite(value: float, width: int) -> str:
    """The longest-precision rendering of a finite value that fits in ``width``."""
    shortest = _compact(repr(value).removesuffix(".0"))
    if len(shortest) <= width:
        return shortest
    for digits in range(min(width, 15), 0, -1):
        text = _compact(f"{value:.{digits}g}")
        if "e" in text and digits > 1:  # keep the digits that fit (3.40e-36, not 3.4e-36 beside 4-digit rows)
            text = _compact(f"{value:#.{digits}g}")
        if len(text) <= width:
            return _not_rounded_to_whole(value, text, width)
    return _compact(f"{value:.0e}")


def _not_rounded_to_whole(value: float, text: str, width: int) -> str:
    """A value that rounded to a whole number (0.99999999 -> ``1``) keeps its decimals
    (``1.000000``): a bare ``1`` would read as exact, a cosine of 1 as "identical"."""
    if "." in text or "e" in text or float(text) == value:
        return text
    decimals = width - len(text) - 1
    return f"{value:.{decimals}f}" if decimals >= 1 else text


def _compact(text: str) -> str:
    """Drop what an exponent does not need: ``1e+38`` -> ``1e38``, ``1e-05`` -> ``1e-5``."""
    if "e" not in text:
        return text
    mantissa, _, exp = text.partition("e")
    sign = "-" if exp.startswith("-") else ""
    return f"{mantissa}e{sign}{exp.lstrip('+-').lstrip('0') or '0'}"


@dataclass(frozen=True)
class CauseClass:
    """One class of root cause: ``slug`` is the JSON ``root_causes[].cause``, ``label`` the words."""

    slug: str
    label: str
    culprit: bool = True
    """False for the classes that name no single culprit node (accumulated drift)."""


#: Every root-cause class the diagnosis names (the order carries no meaning; look one up by slug in CAUSE).
CAUSE_CLASSES: tuple[CauseClass, ...] = (
    CauseClass("layout-mismatch", "layout mismatch"),
    CauseClass("operator-implementation", "operator implementation differs"),
    CauseClass("pre-processing", "pre-processing"),
    CauseClass("fusion", "fusion"),
    CauseClass("overflow", "overflow"),
    CauseClass("nan-origin", "NaN origin"),
    CauseClass("quantisation", "quantisation"),
    CauseClass("accumulated-precision-drift", "accumulated precision drift", culprit=False),
    CauseClass("precision", "reduced precision at this node"),
    CauseClass("not-compared", "not compared"),
    CauseClass("weights-differ", "weights differ"),
)
CAUSE: dict[str, CauseClass] = {c.slug: c for c in CAUSE_CLASSES}
"""Registry lookup by slug."""
LAYOUT = CAUSE["layout-mismatch"].slug
OPERATOR = CAUSE["operator-implementation"].slug
PREPROCESSING = CAUSE["pre-processing"].slug
FUSION = CAUSE["fusion"].slug
OVERFLOW = CAUSE["overflow"].slug
NAN_ORIGIN = CAUSE["nan-origin"].slug
QUANTISATION = CAUSE["quantisation"].slug
DRIFT = CAUSE["accumulated-precision-drift"].slug
PRECISION = CAUSE["precision"].slug
NOT_COMPARED = CAUSE["not-compared"].slug
#: A constant (a weight) whose target copy differs from the golden's: evidence at the node reading it.
WEIGHTS = CAUSE["weights-differ"].slug
#: The class of each kind of evidence a diagnosis check reports (``Finding.cause``).
FINDING_CLASS: dict[str, str] = {
    "overflow": OVERFLOW,
    "clamped": OVERFLOW,
    "constant-range": OVERFLOW,
    "opdebug": OVERFLOW,
    "saturation": OVERFLOW,
    "fusion": FUSION,
    "quantisation": QUANTISATION,
    "quantisation-wide": QUANTISATION,
    "quantisation-jump": QUANTISATION,
    "input-mismatch": PREPROCESSING,
    "weights-scaled": WEIGHTS,
    "weights-sign": WEIGHTS,
    "weights-transposed": WEIGHTS,
    "weights-differ": WEIGHTS,
}
