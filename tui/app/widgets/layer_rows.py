"""The layer table as columns: extracted once from the comparison frame, read per visible row.

Nothing here knows about Textual.  :class:`LayerRows` holds numpy arrays and Python lists
pulled out of the Polars frame in a handful of vectorised calls, formats one row's cells
on demand (only visible rows are ever formatted), and computes the *view*: an index array
of frame positions after filtering (:class:`Query`) and sorting (:data:`SORT_KEYS`).
The widget never rebuilds anything when the view changes; it just reads another array.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from dumpscope.core import vocabulary
from dumpscope.core.names import printable  # noqa: F401 - the one escape, re-exported for the panes
from dumpscope.core.vocabulary import HEALTH_LABEL, HEALTHS, UNMATCHED_LABEL, Health, format_number

if TYPE_CHECKING:
    import polars as pl

    from dumpscope.core.comparison.judge import Thresholds
    from dumpscope.tui.app.filters import Query

ABSENT_LABEL = "– none"
"""Three-way: the health cell of a side that holds no such tensor (its comparison has no row for it)."""
CACHED_MARK = "↺"
"""``--cache``: between a health's glyph and word (``✓↺OK``) when the row was served from the index."""
HEALTH_CODE: dict[str, int] = {h: i for i, h in enumerate(HEALTHS)}
UNHEALTHY: frozenset[int] = frozenset(HEALTH_CODE[h] for h in vocabulary.UNHEALTHY)
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
    "bad": tuple(h for h in HEALTHS if h in vocabulary.UNHEALTHY),
    "unhealthy": tuple(h for h in HEALTHS if h in vocabulary.UNHEALTHY),
    "only": ("unmatched",),
    "wait": ("pending",),
}

_NUMBER_COLUMNS: dict[str, str] = {
    "cos": "cosine_similarity",
    "b_cos": "b_cosine_similarity",
    "max_abs": "max_absolute_error",
    "rmse": "root_mean_square_error",
    "rel": "relative_euclidean_distance",
    "mse": "mse",
    "sgs_rmse": "sgs_rmse",
}
"""List attribute -> frame column of the numbers the list shows."""

_DTYPE_SHORT = {
    "float64": "f64",
    "float32": "f32",
    "float16": "f16",
    "bfloat16": "bf16",
    "int64": "i64",
    "int32": "i32",
    "int16": "i16",
    "int8": "i8",
    "uint64": "u64",
    "uint32": "u32",
    "uint16": "u16",
    "uint8": "u8",
    "bool": "bool",
}


def short_dtype(dtype: str | None) -> str:
    """``float16`` -> ``f16``; unknown names pass through, missing ones become ``?``."""
    if not dtype:
        return "?"
    return _DTYPE_SHORT.get(dtype, dtype)


def count_text(count: int) -> str:
    """A NaN/Inf count in at most 4 characters: ``7``, ``812``, ``12k``, ``3M``."""
    for limit, suffix in ((1, ""), (1_000, "k"), (1_000_000, "M"), (1_000_000_000, "G")):
        if count < limit * 1000:
            return f"{count // limit}{suffix}"
    return "many"


def side_nonfinite(nan: int, inf: int, known: bool) -> str:
    """One side's NaN/Inf: ``·`` clean, ``?`` unknown (imported CSV), else ``n3``, ``i1``, ``n3i1``."""
    if not known:
        return "?"
    if not nan and not inf:
        return "·"
    return (f"n{count_text(nan)}" if nan else "") + (f"i{count_text(inf)}" if inf else "")


@dataclass(frozen=True)
class SortKey:
    """A column the list can be sorted by; ``worst_first`` is the direction `s` picks first."""

    id: str
    label: str
    descending: bool


SORT_KEYS: tuple[SortKey, ...] = (
    SortKey("order", "topological, constants last", False),
    SortKey("cos", "cosine", False),
    SortKey("max_abs", "max abs error", True),
    SortKey("rmse", "RMSE", True),
    SortKey("rel", "relative distance", True),
    SortKey("health", "health", True),
    SortKey("op", "op type", False),
    SortKey("name", "name", False),
)


def _printed_columns(frame: pl.DataFrame) -> dict[str, list[str | None]]:
    """The ``printed`` texts of an imported table (column -> one text or None per row); {} otherwise."""
    import polars as pl

    if not isinstance(frame.schema.get("printed"), pl.Struct):
        return {}
    printed = frame["printed"].struct.unnest()
    return {column: printed[column].to_list() for column in printed.columns}


class LayerRows:
    """Columnar, display-ready copy of a comparison frame plus cached view orders."""

    def __init__(self, frame: pl.DataFrame) -> None:
        self._load(frame)

    sigmastar: bool = False
    """Both sides are SigmaStar dumps: the list shows SigmaStar's MSE and RMSE (set by the app)."""
    thresholds: Thresholds | None = None
    """The bounds that judged the rows (set by the app): the ``why`` column names the one a row breaks."""

    def _load(self, frame: pl.DataFrame) -> None:
        self.frame = frame
        self._rules: list[str] | None = None
        self.n = frame.height
        self._extract_static(frame)
        self._extract_dynamic(frame)
        self._orders: dict[tuple[str, bool], np.ndarray] = {}
        self.origin = np.zeros(self.n, dtype=np.int8)
        self.fused = np.zeros(self.n, dtype=bool)
        """Rows whose op takes part in a fusion (``fused:yes``), once known."""
        self.labels: tuple[str, str] = ("A", "B")
        self.b_cos: np.ndarray | None = None
        self.b_health: np.ndarray | None = None
        self.worse: np.ndarray | None = None
        self.b_side: np.ndarray | None = None
        self.presence: np.ndarray | None = None
        """Three-way only: per row ``A``, ``B``, ``=`` or ``""``
        (:func:`~dumpscope.core.comparison.threeway.worse_side`)."""

    def attach_b(self, frame: pl.DataFrame, labels: tuple[str, str] = ("A", "B")) -> None:
        """Side B of a three-way compare: ``frame`` is :attr:`ThreeWay.frame`; this table is side A.

        Each A row takes B's cosine and health and the ``worse`` verdict of its golden tensor
        (target-only rows match B's target-only rows by name).
        """
        import polars as pl

        def key(side: str) -> pl.Expr:
            return pl.when(pl.col(side).is_in(["target", "absent"])).then(pl.lit("target:")).otherwise(
                pl.lit("golden:")
            ) + pl.col("name")

        b = (
            frame.with_columns(_side=pl.coalesce("a_side", "b_side"))
            .select(
                key("_side").alias("_key"),
                "b_cosine_similarity",
                "b_health",
                "b_side",
                "worse",
                "presence",
            )
            .unique("_key", keep="first", maintain_order=True)
        )
        mine = self.frame.select(key("side").alias("_key")).join(
            b, on="_key", how="left", maintain_order="left"
        )
        self.labels = labels
        self.b_cos = mine["b_cosine_similarity"].cast(pl.Float64).to_numpy()
        self.missing["b_cosine_similarity"] = mine["b_cosine_similarity"].is_null().to_numpy()
        self.b_health = (
            mine["b_health"]
            .fill_null("unmatched")
            .replace_strict(HEALTH_CODE, default=HEALTH_CODE["error"], return_dtype=pl.Int8)
            .to_numpy()
        )
        self.b_side = mine["b_side"].fill_null("").to_numpy().astype(str)
        self.worse = mine["worse"].fill_null("").to_numpy().astype(str)
        self.presence = mine["presence"].fill_null("").to_numpy().astype(str)
        """Which dumps hold each row's tensor (:data:`~dumpscope.core.comparison.threeway.PRESENCE`)."""

    @property
    def three_way(self) -> bool:
        """Side B of a three-way compare is attached (:meth:`attach_b`)."""
        return self.worse is not None

    def b_health_label(self, pos: int) -> str:
        """Side B's health: a glyph and word, which dump holds an unmatched tensor, or
        :data:`ABSENT_LABEL` when side B's comparison has no row for it."""
        if self.b_health is None:
            return ""
        side = str(self.b_side[pos])
        if not side:
            return ABSENT_LABEL
        health = HEALTHS[self.b_health[pos]]
        return (
            UNMATCHED_LABEL.get(side, HEALTH_LABEL[health])
            if health == Health.UNMATCHED
            else HEALTH_LABEL[health]
        )

    def presence_text(self, pos: int) -> str:
        """Three-way: ``only in B`` / ``not in A`` ... with the sides' labels; "" when all hold it."""
        from dumpscope.core.comparison.threeway import presence_label

        return presence_label(str(self.presence[pos]) if self.presence is not None else None, self.labels)

    def worse_label(self, pos: int) -> str:
        """``A`` / ``B`` (that side is worse, by its label), ``=`` or blank (not comparable)."""
        if self.worse is None:
            return ""
        value = str(self.worse[pos])
        return {"A": self.labels[0], "B": self.labels[1]}.get(value, value)

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
        self.absent = (frame["side"] == "absent").fill_null(False).to_numpy()
        """Three-way: rows of a tensor this side does not hold (added so the list shows the union)."""
        self.op_width = int(np.max(self._text["op_type"].str.len_chars().to_numpy(), initial=0))
        """Longest op type name (the list sizes its op column to it)."""
        self._search_frame: pl.DataFrame | None = None
        self._name_prefix: int | None = None
        self.printed = _printed_columns(frame)
        """Imported rows (msaccucmp/msit CSV): frame column -> each row's value as the tool printed it."""

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

    @property
    def name_prefix(self) -> int:
        """Length of the path prefix every name shares (elided as ``…`` when a name does not fit)."""
        if self._name_prefix is None:
            from dumpscope.tui.app.widgets.layer_names import common_prefix

            self._name_prefix = common_prefix(self._text["name"].to_list())
        return self._name_prefix

    @property
    def naninf_width(self) -> int:
        """The widest NaN/Inf cell (only rows with a count or without counts are formatted)."""
        if self._naninf_width is None:
            odd = np.flatnonzero((self.nan + self.inf > 0) | ~self.counted_g | ~self.counted_t)
            self._naninf_width = max((len(self.nan_inf(int(p))) for p in odd), default=1)
        return self._naninf_width

    def name_index(self, name: str) -> int:
        """Frame position of the first row named ``name`` (golden name, else target name)."""
        hits = np.flatnonzero((self._text["name"] == name).to_numpy())
        if not hits.size:
            raise KeyError(name)
        return int(hits[0])

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
        self.missing = {
            c: frame[c].is_null().to_numpy() for c in _NUMBER_COLUMNS.values() if c in frame.columns
        }
        """Per number column: the value was never computed (shown ``·``, unlike a computed NaN)."""
        self.max_abs = floats("max_absolute_error")
        self.rmse = floats("root_mean_square_error")
        self.rel = floats("relative_euclidean_distance")
        nans = np.full(frame.height, np.nan)
        self.mse = floats("mse") if "mse" in frame.columns else nans  # SigmaStar's listing columns
        self.sgs_rmse = floats("sgs_rmse") if "sgs_rmse" in frame.columns else nans
        self.nan_g, self.inf_g = ints("nan_golden"), ints("inf_golden")
        self.nan_t, self.inf_t = ints("nan_target"), ints("inf_target")
        self.nan, self.inf = self.nan_g + self.nan_t, self.inf_g + self.inf_t
        self.counted_g = (frame["nan_golden"].is_not_null() | frame["inf_golden"].is_not_null()).to_numpy()
        self.counted_t = (frame["nan_target"].is_not_null() | frame["inf_target"].is_not_null()).to_numpy()
        """False where no count exists (msaccucmp/msit CSV rows): shown as ``?``, never as 0."""
        self._naninf_width: int | None = None
        # NaN/Inf in the target (or on one side only): the worst rows whatever their metrics,
        # which cover only the positions finite on both sides
        self.nonfinite = (ints("nonfinite_mismatch") + ints("nan_target") + ints("inf_target")) > 0
        codes = (
            frame["health"]
            .fill_null("pending")
            .replace_strict(HEALTH_CODE, default=HEALTH_CODE["error"], return_dtype=pl.Int8)
        )
        self.health = codes.to_numpy()
        self._unhealthy = np.isin(self.health, list(UNHEALTHY))
        self.cached = frame["cached"].fill_null(False).to_numpy() if "cached" in frame.columns else None
        """``--cache``: True where the row was served from the signed index (health ``✓↺OK``)."""

    def update(self, frame: pl.DataFrame) -> np.ndarray:
        """Take a newer frame of the same comparison (same rows, more metrics filled in).

        Returns the rows that changed, a mask over frame positions: a streamed row changes once,
        when it is computed (its health leaves ``pending``).  Every row, for a different table."""
        if frame.height != self.n:
            self._load(frame)  # a different table: start over
            return np.ones(self.n, dtype=bool)
        before = self.health
        self.frame = frame
        self._rules = None
        self._extract_dynamic(frame)
        self._orders = {k: v for k, v in self._orders.items() if k[0] in ("order", "op", "name")}
        changed: np.ndarray = before != self.health
        return changed

    # -- cells -----------------------------------------------------------------------------
    def number(self, column: str, pos: int, width: int) -> str:
        """The value of ``column`` (``cos``, ``max_abs``, ``rmse``, ``rel``) in ``width`` cells: the app's
        one formatter."""
        name = _NUMBER_COLUMNS[column]
        missing = self.missing.get(name)
        if missing is None or missing[pos]:  # not computed, or a column this table does not have
            return format_number(None, width)
        printed = self.printed[name][pos] if name in self.printed else None
        if printed and len(printed) <= width:  # an imported value, at the precision it was printed with
            return printed
        return format_number(float(getattr(self, column)[pos]), width)

    def nan_inf(self, pos: int) -> str:
        """NaN/Inf of both sides, ``golden|target``: ``·`` when both are clean, ``n3|·``
        for a golden-only NaN, ``?`` for a side with no counts (imported CSV rows)."""
        golden = side_nonfinite(int(self.nan_g[pos]), int(self.inf_g[pos]), bool(self.counted_g[pos]))
        target = side_nonfinite(int(self.nan_t[pos]), int(self.inf_t[pos]), bool(self.counted_t[pos]))
        if golden == target == "·":
            return "·"
        if golden == target == "?":
            return "?"
        return f"{golden}|{target}"

    def rule_label(self, pos: int) -> str:
        """What makes the row unhealthy, in a word (``nan/inf``, ``cos``, ``rel``...; "" for a healthy row):
        :func:`~dumpscope.core.comparison.judge.failing_rules`, computed once per frame, on first need."""
        if self._rules is None:
            from dumpscope.core.comparison.judge import Thresholds, failing_rules

            self._rules = failing_rules(self.frame, self.thresholds or Thresholds()).to_list()
        return self._rules[pos]

    def health_label(self, pos: int) -> str:
        health = HEALTHS[self.health[pos]]
        if health == Health.UNMATCHED:
            return (
                ABSENT_LABEL
                if self.absent[pos]
                else UNMATCHED_LABEL["target" if self.only_target[pos] else "golden"]
            )
        if self.cached is not None and self.cached[pos]:  # from the --cache index: ↺ between glyph and word
            return HEALTH_LABEL[health].replace(" ", CACHED_MARK, 1)
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
        if key == "order":  # activations first, constants after (the rule the CLI table shares)
            from dumpscope.core.comparison.order import display_order

            order = display_order(self.frame)
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
        return {h: int(c) for h, c in zip(HEALTHS, counts, strict=False) if c}

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
