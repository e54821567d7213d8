"""The row table's columns: a number column first set by a scatter is built over zeroed pages,
and holds exactly what a scatter into an all-null column holds."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison import table
from dumpscope.core.comparison.table import RowTable

FLOATS = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True, width=64))
INTS = st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1))


def _bits(s: pl.Series) -> list[object]:
    """Each value's exact bits (NaN payloads and -0.0 included), None for a null."""
    if s.dtype == pl.Float64:
        raw = s.fill_null(0.0).to_numpy().view(np.int64)
    else:
        raw = s.fill_null(0).to_numpy()
    return [None if null else int(v) for v, null in zip(raw, s.is_null().to_numpy(), strict=True)]


@settings(max_examples=60, deadline=None)
@given(
    column=st.sampled_from(["cosine_similarity", "mean_absolute_error", "nan_golden", "worst_slice", "size"]),
    height=st.integers(1, 5000),
    data=st.data(),
)
def test_a_first_scatter_into_a_number_column_equals_a_scatter_into_nulls(
    column: str, height: int, data: st.DataObject
) -> None:
    values = FLOATS if table.FILL_TYPES[column] == pl.Float64 else INTS
    rows = data.draw(st.lists(st.integers(0, height - 1), unique=True, min_size=1, max_size=min(height, 40)))
    given_values = data.draw(st.lists(values, min_size=len(rows), max_size=len(rows)))
    series = pl.Series(column, given_values, dtype=table.FILL_TYPES[column])
    built = table._numeric_column(column, rows, series, height)
    expected = table._nulls(column, height).scatter(rows, series)
    assert built.dtype == expected.dtype and len(built) == height
    assert _bits(built) == _bits(expected)
    # and the column takes later scatters (the next chunk of rows) like any other
    again = built.scatter([0], pl.Series([None], dtype=table.FILL_TYPES[column]))
    assert again.null_count() == expected.scatter([0], pl.Series([None], dtype=expected.dtype)).null_count()


@settings(max_examples=60, deadline=None)
@given(
    column=st.sampled_from(["cosine_similarity", "max_relative_error", "nan_golden", "size"]),
    data=st.data(),
)
def test_a_number_column_whose_every_row_is_set_at_once_equals_a_scatter_into_nulls(
    column: str, data: st.DataObject
) -> None:
    """The usual case (a task set every row, in any order): built without a mask, same bits."""
    values = FLOATS if table.FILL_TYPES[column] == pl.Float64 else INTS
    height = data.draw(st.integers(1, 60))
    rows = data.draw(st.permutations(range(height)))
    given_values = data.draw(st.lists(values, min_size=height, max_size=height))
    series = pl.Series(column, given_values, dtype=table.FILL_TYPES[column])
    built = table._numeric_column(column, rows, series, height)
    expected = table._nulls(column, height).scatter(rows, series)
    assert built.dtype == expected.dtype and len(built) == height
    assert _bits(built) == _bits(expected)
    assert built.scatter(
        [0], pl.Series([None], dtype=built.dtype)
    ).null_count() == 1 + expected.null_count() - (expected[0] is None)


def test_the_row_table_uses_it_for_number_columns_only(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    calls: list[str] = []
    real = table._numeric_column
    monkeypatch.setattr(table, "_numeric_column", lambda c, *a: calls.append(c) or real(c, *a))
    t = RowTable([], [])
    t.height = 4
    t.scatter("mse", [1], pl.Series([0.5]))
    t.scatter("notes", [2], pl.Series(["x"]))
    t.scatter("mse", [3], pl.Series([1.5]))  # the column exists now: a plain scatter
    assert calls == ["mse"]
    assert t.series["mse"].to_list() == [None, 0.5, None, 1.5]  # type: ignore[union-attr]
    assert t.series["notes"].to_list() == [None, None, "x", None]  # type: ignore[union-attr]


@settings(max_examples=80, deadline=None)
@given(
    column=st.sampled_from(["cosine_similarity", "sqnr_db", "nan_golden", "worst_slice", "size"]),
    data=st.data(),
)
def test_a_flush_of_python_values_equals_the_polars_built_column(column: str, data: st.DataObject) -> None:
    """The flush takes a number column's Python values (and numpy scalars, as rows carry them)
    straight into its buffer: the same bits and nulls as a Polars series scattered into nulls."""
    is_float = table.FILL_TYPES[column] == pl.Float64
    scalar = FLOATS if is_float else INTS
    height = data.draw(st.integers(1, 80))
    rows = data.draw(st.lists(st.integers(0, height - 1), unique=True, min_size=1, max_size=height))
    given_values = data.draw(st.lists(scalar, min_size=len(rows), max_size=len(rows)))
    if data.draw(st.booleans()):  # as a kernel hands them over: numpy scalars
        kind = np.float64 if is_float else np.int64
        given_values = [None if v is None else kind(v) for v in given_values]
    t = RowTable([], [])
    t.height = height
    t.put(table.TaskResult(rows, {column: list(given_values)}))
    t.flush()
    expected = table._nulls(column, height).scatter(
        rows,
        pl.Series(
            column,
            [None if v is None else v.item() if isinstance(v, np.generic) else v for v in given_values],
            dtype=table.FILL_TYPES[column],
        ),
    )
    built = t.series[column]
    if all(v is None for v in given_values):  # nothing to store: the column stays all null, as it was
        assert built is None  # (a column stored as None is all null in the frame: RowTable.frame)
        return
    assert built is not None and built.dtype == expected.dtype and built.name == column
    assert _bits(built) == _bits(expected)


@settings(max_examples=80, deadline=None)
@given(
    column=st.sampled_from(["cosine_similarity", "sqnr_db", "nan_golden", "worst_slice", "size", "notes"]),
    data=st.data(),
)
def test_tasks_sent_with_number_arrays_fill_the_same_column_as_python_values(
    column: str, data: st.DataObject
) -> None:
    """A worker sends a number column whose values are all Python floats (or ints) as one array
    (:meth:`TaskResult.with_number_arrays`); tasks of arrays, of lists (a None among them), with
    rows that did not set the column, in any order, fill the same bits and nulls as the Python
    values put row by row."""
    scalar = st.just("x") if column == "notes" else FLOATS if table.FILL_TYPES[column] == pl.Float64 else INTS
    height = data.draw(st.integers(1, 60))
    order = data.draw(st.permutations(range(height)))
    cuts = sorted(data.draw(st.lists(st.integers(0, height), max_size=4)))
    tasks = [order[a:b] for a, b in zip([0, *cuts], [*cuts, height], strict=True) if b > a]
    plain, sent = RowTable([], []), RowTable([], [])
    plain.height = sent.height = height
    for t in (plain, sent):  # (the index column gives the frame its height)
        t.series["index"] = pl.Series("index", range(height), dtype=pl.Int64)
    for rows in tasks:
        values = data.draw(st.lists(scalar, min_size=len(rows), max_size=len(rows)))
        gaps = sorted(data.draw(st.sets(st.integers(0, len(rows) - 1))))
        plain.put(table.TaskResult(list(rows), {column: list(values)}, {column: gaps} if gaps else {}))
        packed = table.TaskResult(list(rows), {column: list(values)}, {column: gaps} if gaps else {})
        packed.with_number_arrays()
        if None not in values and column != "notes" and len(values):
            assert isinstance(packed.values[column], np.ndarray)
        sent.put(packed)
    a, b = plain.frame()[column], sent.frame()[column]
    assert a.dtype == b.dtype
    assert (a.to_list() == b.to_list()) if column == "notes" else (_bits(a) == _bits(b))


def test_values_numpy_would_convert_inexactly_go_through_polars() -> None:
    """An integer column handed floats or booleans is not converted by numpy (Polars decides)."""
    assert table._numbers("worst_slice", [1.5, 2.0]) is None
    assert table._numbers("worst_slice", [True, False]) is None
    assert table._numbers("worst_slice", [None, None]) is not None  # nothing set: an all-null column
    assert table._numbers("notes", ["x"]) is None  # not a number column


@given(st.lists(st.one_of(st.none(), st.sampled_from(["", "name", "é" * 6, "x" * 13, "exact name match"]))))
def test_a_shared_text_column_holds_its_values(values: list[str | None]) -> None:
    """Built straight (every distinct value short enough to sit in the view) or gathered from the
    distinct values: the same column."""
    built = table._shared_text("pairing", values)
    assert built.dtype == pl.String and built.name == "pairing" and built.to_list() == values
