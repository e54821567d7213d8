"""The layer table as columns: extracted once from the comparison frame, read per visible row.

Nothing here knows about Textual.  :class:`LayerRows` holds numpy arrays and Python lists
pulled out of the Polars frame in a handful of vectorised calls, formats one row's cells
on demand (only visible rows are ever formatted), and computes the *view*: an index array
of frame positions after filtering (:class:`Query`) and sorting (:data:`SORT_KEYS`).
The widget never rebuilds anything when the view changes; it just reads another array.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np


from dumpscope.core.vocabulary import HEALTH_LABEL, HEALTHS, UNMATCHED_LABEL

if TYPE_CHECKING:
    import polars as pl

    from dumpscope.tui.app.filters import Query

HEALTH_CODE: dict[str, int] = {h: i for i, h in enumerate(HEALTHS)}
UNHEALTHY: frozenset[int] = frozenset({HEALTH_CODE["warn"], HEALTH_CODE["fail"], HEALTH_CODE["error"]})
"""What `]`/`[` and `f` stop at (the engine's definition of divergent)."""
SEVERITY = np.array([0, 3, 5, 4, 2, 1], dtype=np.int8)
"""Sort rank by health code: fail > error > warn > unmatched > pending > ok."""

ORIGINS: tuple[str, ...] = ("", "introduced", "inherited", "clean", "unknown")
"""Where a row's error comes from (``diagnosis.classify``); "" until the diagnosis is in."""
ORIGIN_CODE: dict[str, int] = {o: i for i, o in enumerate(ORIGINS)}
ORIGIN_LABEL: tuple[str, ...] = ("", "NEW", "↓", "", "?")
"""``NEW``: the error starts at this node (its inputs are healthy); ``↓``: inherited from an input."""
ORIGIN_ALIASES: dict[str, tuple[str, ...]] = {
    **{o: (o,) for o in ORIGINS if o},
    "new": ("introduced",),
    "root": ("introduced",),
    "inherit": ("inherited",),
}

HEALTH_ALIASES: dict[str, tuple[str, ...]] = {
    **{h: (h,) for h in HEALTHS},
    "err": ("error",),
    "bad": ("warn", "fail", "error"),
    "unhealthy": ("warn", "fail", "error"),
    "only": ("unmatched",),
    "wait": ("pending",),
}

_DTYPE_SHORT = {
    "float64": "f64", "float32": "f32", "float16": "f16", "bfloat16": "bf16",
    "int64": "i64", "int32": "i32", "int16": "i16", "int8": "i8",
    "uint64": "u64", "uint32": "u32", "uint16": "u16", "uint8": "u8", "bool": "bool",
}


_CONTROL = {c: "\ufffd" for c in (*range(0x20), *range(0x7F, 0xA0))}


def printable(text: str) -> str:
    """A name safe to draw: control characters (newlines, ESC...) become U+FFFD."""
    return text.translate(_CONTROL)


def short_dtype(dtype: str | None) -> str:
    """``float16`` -> ``f16``; unknown names pass through, missing ones become ``?``."""
    if not dtype:
        return "?"
    return _DTYPE_SHORT.get(dtype, dtype)


def fmt_num(value: float, digits: int = 4) -> str:
    """Compact, width-stable number: ``0.99987``, ``1.2e-05``, ``inf``; NaN/missing as ``·``."""
    if math.isnan(value):
        return "·"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    mag = abs(value)
    if mag != 0 and (mag < 10 ** -(digits - 1) or mag >= 10**6):
        return f"{value:.{max(digits - 2, 1)}e}"
    return f"{value:.{digits}g}" if mag >= 1 else f"{value:.{digits}f}".rstrip("0").rstrip(".") or "0"


def fmt_cosine(value: float) -> str:
    """Cosine near 1 needs its nines: show 6 decimals, ``·`` when missing."""
    return "·" if math.isnan(value) else f"{value:.6f}"


@dataclass(frozen=True)
class SortKey:
    """A column the list can be sorted by; ``worst_first`` is the direction `s` picks first."""

    id: str
    label: str
    descending: bool


SORT_KEYS: tuple[SortKey, ...] = (
    SortKey("order", "topological", False),
    SortKey("cos", "cosine", False),
    SortKey("max_abs", "max abs error", True),
    SortKey("rmse", "RMSE", True),
    SortKey("rel", "relative distance", True),
    SortKey("health", "health", True),
    SortKey("op", "op type", False),
    SortKey("name", "name", False),
)


class LayerRows:
    """Columnar, display-ready copy of a comparison frame plus cached view orders."""

    def __init__(self, frame: pl.DataFrame) -> None:
        self._load(frame)

    sigmastar: bool = False
    """Both sides are SigmaStar dumps: the list shows SigmaStar's MSE and RMSE (set by the app)."""

    def _load(self, frame: pl.DataFrame) -> None:
        self.frame = frame
        self.n = frame.height
        self._extract_static(frame)
        self._extract_dynamic(frame)
        self._orders: dict[tuple[str, bool], np.ndarray] = {}
        self.origin = np.zeros(self.n, dtype=np.int8)
        self.fused = np.zeros(self.n, dtype=bool)
        """Rows whose op takes part in a fusion (``fused:yes``), once known."""

    def set_origin(self, origins: list[str | None]) -> None:
        """Introduced / inherited / clean per row, from the diagnosis (same row order)."""
        if len(origins) == self.n:
            self.origin = np.array([ORIGIN_CODE.get(o or "", 0) for o in origins], dtype=np.int8)

    def origin_label(self, pos: int) -> str:
        return ORIGIN_LABEL[self.origin[pos]]

    # -- extraction ------------------------------------------------------------------------
    def _extract_static(self, frame: pl.DataFrame) -> None:
        """Columns that do not change while metrics stream in.

        Display strings stay in Polars and are fetched per visible row (:meth:`text`), so
        a 100k-row table costs no Python loop; lower-cased search columns are built on
        the first filter or sort (:attr:`_search`).
        """
        import polars as pl

        def short(col: str) -> pl.Expr:
            return pl.col(col).replace(_DTYPE_SHORT).fill_null("?")

        self._text = frame.select(
            pl.col("name").fill_null(pl.col("target_name")).fill_null(""),
            pl.col("op_type").fill_null(""),
            pl.col("shape"),
            pl.col("target_shape"),
            pl.when(pl.col("target_dtype").is_null() | (pl.col("dtype") == pl.col("target_dtype")))
            .then(short("dtype"))
            .otherwise(short("dtype") + "→" + short("target_dtype"))
            .alias("dtypes"),
        )
        self.index = frame["index"].fill_null(-1).to_numpy()
        self.only_target = (frame["side"] == "target").fill_null(False).to_numpy()
        self.op_width = int(np.max(self._text["op_type"].str.len_chars().to_numpy(), initial=0))
        """Longest op type name (the list sizes its op column to it)."""
        self._search_frame: pl.DataFrame | None = None

    @property
    def _search(self) -> pl.DataFrame:
        """Lower-cased columns the filter and the name/op sorts read (built once, on demand)."""
        if self._search_frame is None:
            import polars as pl
            self._search_frame = self.frame.select(
                pl.col("name").fill_null(pl.col("target_name")).fill_null("").str.to_lowercase(),
                pl.col("target_name").fill_null("").str.to_lowercase().alias("tname"),
                *(pl.col(c).fill_null("").str.to_lowercase() for c in ("op_type", "kind", "side")),
                pl.col("dtype").fill_null("").str.to_lowercase(),
                pl.col("target_dtype").fill_null("").str.to_lowercase(),
            )
        return self._search_frame

    @property
    def search_frame(self) -> pl.DataFrame:
        """The lower-cased name/op/kind/side/dtype columns the filter predicates read."""
        return self._search

    def text(self, pos: int) -> tuple[str, str, str, str]:
        """(name, op type, shape, dtype pair) of one row, printable."""
        name, op, shape, tshape, dtypes = self._text.row(pos)
        shape_s = "×".join(map(str, shape)) if shape is not None else "?"
        if tshape is not None and tshape != shape:
            shape_s += "→" + "×".join(map(str, tshape))
        return printable(name), printable(op), shape_s, printable(dtypes)

    def name(self, pos: int) -> str:
        return printable(str(self._text["name"][pos]))

    def _extract_dynamic(self, frame: pl.DataFrame) -> None:
        """Metrics and health: re-read on every streamed update."""
        import polars as pl

        def floats(name: str) -> np.ndarray:
            return frame[name].cast(pl.Float64).fill_null(float("nan")).to_numpy()

        def ints(name: str) -> np.ndarray:
            if name not in frame.columns:  # a frame from an older or foreign source
                return np.zeros(frame.height, dtype=np.int64)
            return frame[name].fill_null(0).to_numpy()

        self.cos = floats("cosine_similarity")
        self.max_abs = floats("max_absolute_error")
        self.rmse = floats("root_mean_square_error")
        self.rel = floats("relative_euclidean_distance")
        nans = np.full(frame.height, np.nan)
        self.mse = floats("mse") if "mse" in frame.columns else nans  # SigmaStar's listing columns
        self.sgs_rmse = floats("sgs_rmse") if "sgs_rmse" in frame.columns else nans
        self.nan = ints("nan_target") + ints("nan_golden")
        self.inf = ints("inf_target") + ints("inf_golden")
        self.nan_g, self.inf_g = ints("nan_golden"), ints("inf_golden")
        # NaN/Inf in the target (or on one side only): the worst rows whatever their metrics,
        # which cover only the positions finite on both sides (issue 10 item 10)
        self.nonfinite = (ints("nonfinite_mismatch") + ints("nan_target") + ints("inf_target")) > 0
        codes = frame["health"].fill_null("pending").replace_strict(
            HEALTH_CODE, default=HEALTH_CODE["error"], return_dtype=pl.Int8
        )
        self.health = codes.to_numpy()
        self._unhealthy = np.isin(self.health, list(UNHEALTHY))

    def update(self, frame: pl.DataFrame) -> None:
        """Take a newer frame of the same comparison (same rows, more metrics filled in)."""
        if frame.height != self.n:
            self._load(frame)  # a different table: start over
            return
        self.frame = frame
        self._extract_dynamic(frame)
        self._orders = {k: v for k, v in self._orders.items() if k[0] in ("order", "op", "name")}

    # -- cells -----------------------------------------------------------------------------
    def nan_inf(self, pos: int) -> str:
        """``·`` when clean, else ``n3 i1`` (NaN / Inf counts over both sides)."""
        nan, inf = int(self.nan[pos]), int(self.inf[pos])
        if not nan and not inf:
            return "·"
        return " ".join(part for part in (f"n{nan}" if nan else "", f"i{inf}" if inf else "") if part)

    def health_label(self, pos: int) -> str:
        health = HEALTHS[self.health[pos]]
        if health == "unmatched":
            return UNMATCHED_LABEL["target" if self.only_target[pos] else "golden"]
        return HEALTH_LABEL[health]

    # -- views -----------------------------------------------------------------------------
    def mask(self, query: Query) -> np.ndarray:
        """Boolean mask over frame positions of the rows that match ``query`` (vectorised)."""
        mask = np.ones(self.n, dtype=bool)
        for predicate in query.predicates():
            mask &= predicate(self)
        return mask

    def sorted_positions(self, key: str, descending: bool) -> np.ndarray:
        """All frame positions ordered by ``key``; ties and missing values keep topological order."""
        cached = self._orders.get((key, descending))
        if cached is not None:
            return cached
        order: np.ndarray
        if key == "order":
            order = np.arange(self.n)
            order = order[::-1].copy() if descending else order
        elif key in ("cos", "max_abs", "rmse", "rel"):
            values = getattr(self, key).copy()
            values[self.nonfinite] = -np.inf if key == "cos" else np.inf  # NaN/Inf rows read as worst
            # argsort puts NaN last; negating keeps it last for the descending direction too.
            order = np.argsort(-values if descending else values, kind="stable")
        elif key == "health":
            rank = SEVERITY[self.health].astype(np.int16)
            order = np.argsort(-rank if descending else rank, kind="stable")
        else:
            import polars as pl
            column = "op_type" if key == "op" else "name"
            order = (
                self._search.select(pl.arg_sort_by(column, descending=descending, maintain_order=True))
                .to_series()
                .to_numpy()
            )
        self._orders[(key, descending)] = order
        return order

    def view(self, query: Query, key: str = "order", descending: bool = False) -> np.ndarray:
        """Frame positions to show, in display order."""
        order = self.sorted_positions(key, descending)
        if not query:
            return order
        shown: np.ndarray = order[self.mask(query)[order]]
        return shown

    def health_counts(self) -> dict[str, int]:
        counts = np.bincount(self.health.astype(np.intp), minlength=len(HEALTHS))
        return {h: int(c) for h, c in zip(HEALTHS, counts) if c}

    def first_unhealthy(self) -> int | None:
        """First frame position (topological) whose health is warn/fail/error, or None."""
        hits = np.flatnonzero(self._unhealthy)
        return int(hits[0]) if hits.size else None

    def next_in_view(self, view: np.ndarray, cursor: int, step: int, mask: np.ndarray) -> int | None:
        """View position of the next (step=+1) / previous (-1) row after ``cursor`` where ``mask`` holds."""
        hits = np.flatnonzero(mask[view])
        if not hits.size:
            return None
        if step > 0:
            i = np.searchsorted(hits, cursor, side="right")
            return int(hits[i]) if i < hits.size else None
        i = np.searchsorted(hits, cursor, side="left") - 1
        return int(hits[i]) if i >= 0 else None

    @property
    def unhealthy_mask(self) -> np.ndarray:
        return self._unhealthy
