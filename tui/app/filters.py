"""The filter language of the layer list: ``op:Conv health:fail relu #10-20``.

One table, :data:`FILTER_FIELDS`, maps each ``key:`` to how its values are read and
checked and to the predicate that selects rows; :class:`Query` parses a line against it
and :meth:`LayerRows.mask <dumpscope.tui.app.widgets.layer_rows.LayerRows.mask>` ANDs the
predicates.  Adding a filter key is one table entry (the help screen can list the table).
Nothing here knows about Textual.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

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
        FilterField("origin", _aliased("origin", ORIGIN_ALIASES), _origin_in, "origin:new where an error starts"),
        FilterField("fused", _yes_no, _fused_is, "fused:yes rows that take part in a fusion"),
    )
}
"""Every filter key, in the order the help lists them."""


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

    @classmethod
    def parse(cls, text: str) -> Query:
        words: list[str] = []
        fields: list[tuple[str, Values]] = []
        index_range: tuple[int, int] | None = None
        for token in text.split():
            key, sep, value = token.partition(":")
            if token.startswith("#") and len(token) > 1:
                index_range = _index_range(token)
            elif sep and key.lower() in FILTER_FIELDS:
                fields.append(_field(token, key, value))
            else:
                _check_typo(token)
                words.append(token.lower())
        return cls(tuple(words), tuple(fields), index_range, text.strip())

    def predicates(self) -> list[Predicate]:
        """One row predicate per term (words, ``key:`` fields, the index range), to be ANDed."""
        found: list[Predicate] = [partial_word(word) for word in self.words]
        found += [_bound(FILTER_FIELDS[key].select, values) for key, values in self.fields]
        if self.index_range is not None:
            lo, hi = self.index_range
            found.append(lambda rows: (rows.index >= lo) & (rows.index <= hi))
        return found

    def __bool__(self) -> bool:
        return bool(self.words or self.fields or self.index_range)


def partial_word(word: str) -> Predicate:
    """Rows whose name or target name contains ``word`` (already lower-cased)."""

    def select(rows: LayerRows) -> np.ndarray:
        search = rows.search_frame
        return (search["name"].str.contains(word, literal=True) | search["tname"].str.contains(word, literal=True)).to_numpy()

    return select


def _bound(select: Callable[[LayerRows, Values], np.ndarray], values: Values) -> Predicate:
    return lambda rows: select(rows, values)
