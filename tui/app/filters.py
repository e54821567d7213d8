"""The filter language of the layer list: ``op:Conv health:fail relu cosine<0.999 #10-20``.

One table, :data:`FILTER_FIELDS`, maps each ``key:`` to how its values are read and
checked and to the predicate that selects rows; :data:`NUMERIC_KEYS` maps each metric a
comparison (``cosine<0.999``, ``rel>0.01``) may name to its frame column; :class:`Query`
parses a line against both and :meth:`LayerRows.mask
<dumpscope.tui.app.widgets.layer_rows.LayerRows.mask>` ANDs the predicates.  Adding a filter
key is one table entry (the help screen lists both tables).  Nothing here knows about Textual.
"""

from __future__ import annotations

import difflib
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from dumpscope.core.vocabulary import METRIC
from dumpscope.tui.app.widgets.layer_rows import HEALTH_ALIASES, HEALTH_CODE, ORIGIN_ALIASES, ORIGIN_CODE

if TYPE_CHECKING:
    from dumpscope.tui.app.widgets.layer_rows import LayerRows

Values = tuple[str, ...]
Predicate = Callable[["LayerRows"], np.ndarray]


class QueryError(ValueError):
    """A filter the user typed cannot be understood; the message says why."""


# -- reading the values of one key ---------------------------------------------------------
def _as_typed(token: str, values: Values) -> Values:
    return values


def _aliased(what: str, aliases: dict[str, Values]) -> Callable[[str, Values], Values]:
    """Values read through ``aliases`` (``bad`` = warn, fail, error); an unknown one is an error."""

    def read(token: str, values: Values) -> Values:
        unknown = [v for v in values if v not in aliases]
        if unknown:
            raise QueryError(f"unknown {what} {unknown[0]!r}; use one of {', '.join(aliases)}")
        return tuple(word for v in values for word in aliases[v])

    return read


_YES, _NO = ("yes", "true"), ("no", "false")


def _yes_no(token: str, values: Values) -> Values:
    if len(values) != 1 or values[0] not in _YES + _NO:
        raise QueryError(f"{token!r}: use fused:yes or fused:no")
    return ("yes",) if values[0] in _YES else ("no",)


# -- selecting rows ------------------------------------------------------------------------
def _column_in(column: str) -> Callable[[LayerRows, Values], np.ndarray]:
    def select(rows: LayerRows, values: Values) -> np.ndarray:
        return rows.search_frame[column].is_in(list(values)).to_numpy()

    return select


def _health_in(rows: LayerRows, values: Values) -> np.ndarray:
    return np.isin(rows.health, [HEALTH_CODE[v] for v in values])


def _origin_in(rows: LayerRows, values: Values) -> np.ndarray:
    return np.isin(rows.origin, [ORIGIN_CODE[v] for v in values])


def _fused_is(rows: LayerRows, values: Values) -> np.ndarray:
    return rows.fused if values == ("yes",) else ~rows.fused


def _dtype_in(rows: LayerRows, values: Values) -> np.ndarray:
    search, wanted = rows.search_frame, list(values)
    return (search["dtype"].is_in(wanted) | search["target_dtype"].is_in(wanted)).to_numpy()


_WORSE = {"a": "A", "b": "B", "=": "=", "same": "=", "none": "="}


def _worse_value(token: str, values: Values) -> Values:
    """``worse:A``, ``worse:B``, ``worse:=`` (the meaning :func:`core.comparison.threeway.worse_mask`
    documents)."""
    unknown = [v for v in values if v not in _WORSE]
    if unknown:
        raise QueryError(f"{token!r}: use worse:A, worse:B or worse:= (three-way compare)")
    return tuple(_WORSE[v] for v in values)


def _worse_is(rows: LayerRows, values: Values) -> np.ndarray:
    if rows.worse is None:  # a two-way comparison: no side is worse
        return np.zeros(rows.n, dtype=bool)
    return np.isin(rows.worse, list(values))


@dataclass(frozen=True)
class FilterField:
    """One ``key:`` of the filter language: how its values are read, and which rows they keep."""

    key: str
    read: Callable[[str, Values], Values]
    """``(token, lower-cased values) -> values``; raises :class:`QueryError` on a bad one."""
    select: Callable[[LayerRows, Values], np.ndarray]
    """``(rows, values) -> mask`` over frame positions."""
    help: str


FILTER_FIELDS: dict[str, FilterField] = {
    field.key: field
    for field in (
        FilterField("op", _as_typed, _column_in("op_type"), "op type, e.g. op:Conv,Relu"),
        FilterField("health", _aliased("health", HEALTH_ALIASES), _health_in, "health:fail, health:bad, ..."),
        FilterField("kind", _as_typed, _column_in("kind"), "tensor kind: activation, input, constant"),
        FilterField("side", _as_typed, _column_in("side"), "which dump has the tensor: both, golden, target"),
        FilterField("dtype", _as_typed, _dtype_in, "golden or target dtype, e.g. dtype:float16"),
        FilterField(
            "origin", _aliased("origin", ORIGIN_ALIASES), _origin_in, "origin:new where an error starts"
        ),
        FilterField("fused", _yes_no, _fused_is, "fused:yes rows that take part in a fusion"),
        FilterField(
            "worse", _worse_value, _worse_is, "worse:A, worse:B, worse:= which side is worse (three-way)"
        ),
    )
}
"""Every filter key, in the order the help lists them."""

NUMERIC_KEYS: dict[str, str] = {
    "cosine": "cosine_similarity",
    "cos": "cosine_similarity",
    "rel": "relative_euclidean_distance",
    "reldist": "relative_euclidean_distance",
    "maxabs": "max_absolute_error",
    "mae": "mean_absolute_error",
    "rmse": "root_mean_square_error",
    "kl": "kullback_leibler_divergence",
    "maxrel": "max_relative_error",
    "meanrel": "mean_relative_error",
    "accrel": "accumulated_relative_error",
    "sqnr": "sqnr_db",
    "within": "within_tolerance",
    "mse": "mse",
    "slicecos": "slice_cosine",
    "slicerel": "slice_relative_distance",
    **{m: m for m in METRIC},
}
"""Metric keys a numeric comparison may name (short forms first, then every frame column)."""
_COMPARE = re.compile(r"^([a-z_]+)(<=|>=|!=|<|>|=)(.*)$")
_OPERATORS: dict[str, Callable[[np.ndarray, float], np.ndarray]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "=": operator.eq,
    "!=": operator.ne,
}


def _numeric(token: str) -> tuple[str, str, float] | None:
    """``(column, operator, value)`` of a ``cosine<0.999`` token; None when the token is no comparison;
    :class:`QueryError` for an unknown metric or a value that is not a number."""
    m = _COMPARE.match(token.lower())
    if m is None:
        return None
    key, op, text = m.groups()
    if key not in NUMERIC_KEYS:
        near = difflib.get_close_matches(key, NUMERIC_KEYS, 1, 0.7)
        if near:
            raise QueryError(f"{token!r}: unknown metric {key!r}; did you mean {near[0]}?")
        return None  # a name search (names may hold '=' or '<'); Query.check flags it when nothing has it
    try:
        value = float(text)
    except ValueError:
        raise QueryError(f"{token!r}: {text!r} is not a number") from None
    return NUMERIC_KEYS[key], op, value


def _compare(column: str, op: str, value: float) -> Predicate:
    """Rows whose ``column`` compares true with ``value``; a row without the metric never matches."""

    def select(rows: LayerRows) -> np.ndarray:
        if column not in rows.frame.columns:
            return np.zeros(rows.n, dtype=bool)
        values = rows.frame[column].cast(float, strict=False).to_numpy()
        with np.errstate(invalid="ignore"):
            return _OPERATORS[op](values, value) & ~np.isnan(values)

    return select


# -- parsing a line ------------------------------------------------------------------------
def _index_range(token: str) -> tuple[int, int]:
    lo, _, hi = token[1:].partition("-")
    try:
        return int(lo), int(hi or lo)
    except ValueError:
        raise QueryError(f"{token!r}: expected #N or #N-M (topological index)") from None


def _field(token: str, key: str, value: str) -> tuple[str, Values]:
    """``(key, values)`` of a ``key:v1,v2`` token, read and checked by its table entry."""
    field = FILTER_FIELDS[key.lower()]
    values = tuple(v.lower() for v in value.split(",") if v)
    if not values:
        raise QueryError(f"{token!r}: nothing after '{key}:'")
    return field.key, field.read(token, values)


def _check_typo(token: str) -> None:
    """``relu:0`` is a tensor name, ``heath:fail`` a typo: only near-misses of a key are errors."""
    key, sep, value = token.partition(":")
    near = difflib.get_close_matches(key.lower(), FILTER_FIELDS, 1, 0.7) if sep and value else []
    if near:
        raise QueryError(f"unknown filter field {key!r}: did you mean {near[0]}:?")


@dataclass(frozen=True)
class Query:
    """A parsed filter: ``op:Conv health:fail relu`` = op is Conv AND health is fail AND name has "relu".

    ``origin:new`` keeps the rows where an error starts (once the diagnosis is in);
    ``fused:yes`` the rows that take part in a fusion (with an ATC graph or an optimised target).

    Values after ``field:`` may be comma lists (``op:Conv,Relu``); bare words are
    case-insensitive name substrings (the target name counts too), so ``relu:0`` searches
    names; ``#12`` or ``#10-20`` select topological indices.
    """

    words: tuple[str, ...] = ()
    fields: tuple[tuple[str, Values], ...] = ()
    index_range: tuple[int, int] | None = None
    text: str = ""
    comparisons: tuple[tuple[str, str, float], ...] = ()

    @classmethod
    def parse(cls, text: str) -> Query:
        words: list[str] = []
        fields: list[tuple[str, Values]] = []
        comparisons: list[tuple[str, str, float]] = []
        index_range: tuple[int, int] | None = None
        for token in text.split():
            key, sep, value = token.partition(":")
            if token.startswith("#") and len(token) > 1:
                index_range = _index_range(token)
            elif sep and key.lower() in FILTER_FIELDS:
                fields.append(_field(token, key, value))
            elif (comparison := _numeric(token)) is not None:
                comparisons.append(comparison)
            else:
                _check_typo(token)
                words.append(token.lower())
        return cls(tuple(words), tuple(fields), index_range, text.strip(), tuple(comparisons))

    def check(self, rows: LayerRows) -> None:
        """Raise :class:`QueryError` for a ``key:value`` word whose key is no filter field and that no
        layer name contains either (``bogus:1``): a name search that can only come back empty is a mistake."""
        for word in self.words:
            key, sep, value = word.partition(":")
            if sep and value and not partial_word(word)(rows).any():
                fields = ", ".join(FILTER_FIELDS)
                raise QueryError(
                    f"unknown filter field {key!r} (and no layer name contains {word!r}); fields: {fields}"
                )
            m = _COMPARE.match(word)
            if m is not None and not partial_word(word)(rows).any():
                shorts = ", ".join(k for k in NUMERIC_KEYS if "_" not in k)
                raise QueryError(
                    f"unknown metric {m.group(1)!r} (and no layer name contains {word!r}); metrics: {shorts}"
                )

    def predicates(self) -> list[Predicate]:
        """One row predicate per term (words, ``key:`` fields, the index range), to be ANDed."""
        found: list[Predicate] = [partial_word(word) for word in self.words]
        found += [_bound(FILTER_FIELDS[key].select, values) for key, values in self.fields]
        found += [_compare(*comparison) for comparison in self.comparisons]
        if self.index_range is not None:
            lo, hi = self.index_range
            found.append(lambda rows: (rows.index >= lo) & (rows.index <= hi))
        return found

    def __bool__(self) -> bool:
        return bool(self.words or self.fields or self.index_range or self.comparisons)


def partial_word(word: str) -> Predicate:
    """Rows whose name, target name or op type contains ``word`` (already lower-cased): ``resize`` finds
    the Resize layers whatever their names."""

    def select(rows: LayerRows) -> np.ndarray:
        search = rows.search_frame
        hit = search["name"].str.contains(word, literal=True) | search["tname"].str.contains(
            word, literal=True
        )
        return (hit | search["op_type"].str.contains(word, literal=True)).to_numpy()

    return select


def _bound(select: Callable[[LayerRows, Values], np.ndarray], values: Values) -> Predicate:
    return lambda rows: select(rows, values)


def completion(text: str) -> str | None:
    """``text`` with its last term completed to a filter key or metric (``hea`` -> ``health:``,
    ``cosi`` -> ``cosine``), or None when nothing completes it."""
    head, _, last = text.rpartition(" ")
    low = last.lower()
    if not low or any(c in low for c in ":<>=#"):
        return None
    keys = [f"{key}:" for key in FILTER_FIELDS] + [key for key in NUMERIC_KEYS if "_" not in key]
    found = next((key for key in keys if key.startswith(low) and key != low), None)
    return (
        None
        if found is None
        else f"{head} {last}{found[len(low) :]}".lstrip()
        if head
        else last + found[len(low) :]
    )
