"""The layer table's column model: filter syntax, sort orders, cell formatting, histogram drawing."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.filters import Query, QueryError
from dumpscope.tui.app.widgets.histogram import bars, resample
from dumpscope.tui.app.widgets.layer_list import layout_columns
from dumpscope.tui.app.widgets.layer_names import common_prefix, elide
from dumpscope.tui.app.widgets.layer_rows import (
    HEALTH_CODE,
    LayerRows,
    count_text,
    short_dtype,
)
from screenshots.make import generated_frame


@pytest.fixture(scope="module")
def frame() -> pl.DataFrame:
    return generated_frame(700, seed=3)


@pytest.fixture(scope="module")
def rows(frame: pl.DataFrame) -> LayerRows:
    return LayerRows(Comparison.from_frame(frame).frame)


def test_filter_matches_a_vectorised_reference(rows: LayerRows, frame: pl.DataFrame) -> None:
    view = rows.view(Query.parse("op:conv health:fail BLOCK6"))
    expected = (
        frame.with_row_index("pos")
        .filter(
            (pl.col("op_type") == "Conv")
            & (pl.col("health") == "fail")
            & pl.col("name").str.to_lowercase().str.contains("block6", literal=True)
        )["pos"]
        .to_numpy()
    )
    assert view.size > 0
    np.testing.assert_array_equal(np.sort(view), expected)


def test_filter_by_side_kind_dtype_and_index(rows: LayerRows) -> None:
    assert rows.view(Query.parse("side:golden")).size == 1
    assert rows.view(Query.parse("health:only")).size == 2
    assert rows.view(Query.parse("kind:activation")).size == rows.n
    assert rows.view(Query.parse("dtype:float16")).size == rows.n
    np.testing.assert_array_equal(rows.view(Query.parse("#5-9")), np.arange(5, 10))


def test_target_name_is_searched_too(rows: LayerRows) -> None:
    assert rows.view(Query.parse("fused_cast")).size == 1


def test_sort_by_cosine_puts_worst_first_and_missing_last(rows: LayerRows) -> None:
    order = rows.sorted_positions("cos", False)
    # issue 10 item 10: rows with NaN/Inf in the target come first (worst), whatever their cosine
    bad = int(rows.nonfinite.sum())
    assert bad > 0 and rows.nonfinite[order[:bad]].all()
    values = rows.cos[order[bad:]]
    finite = values[~np.isnan(values)]
    assert np.all(np.diff(finite) >= 0)
    assert np.isnan(values[-3:]).all() and not np.isnan(values[-4])  # error + unmatched rows have no cosine
    reverse = rows.sorted_positions("cos", True)
    assert rows.cos[reverse[0]] == np.nanmax(rows.cos[~rows.nonfinite])
    assert np.isnan(rows.cos[reverse[-1]])


def test_sort_ties_keep_topological_order(rows: LayerRows) -> None:
    order = rows.sorted_positions("op", False)
    ops = [rows.text(int(p))[1].lower() for p in order]
    assert ops == sorted(ops)
    for op in set(ops):
        positions = [int(p) for p in order if rows.text(int(p))[1].lower() == op]
        assert positions == sorted(positions)


def test_sort_by_health_puts_fail_first(rows: LayerRows) -> None:
    order = rows.sorted_positions("health", True)
    assert rows.health[order[0]] == HEALTH_CODE["fail"]
    assert rows.health[order[-1]] == HEALTH_CODE["ok"]


def test_filter_then_sort_is_a_subset_in_sorted_order(rows: LayerRows) -> None:
    view = rows.view(Query.parse("op:relu"), "max_abs", True)
    assert np.all(np.diff(rows.max_abs[view][~np.isnan(rows.max_abs[view])]) <= 0)
    assert {rows.text(int(p))[1] for p in view} == {"Relu"}


def test_next_in_view_walks_a_mask(rows: LayerRows) -> None:
    view = np.arange(rows.n)
    mask = rows.unhealthy_mask
    first = rows.next_in_view(view, -1, 1, mask)
    assert first == rows.first_unhealthy()
    assert rows.next_in_view(view, first, -1, mask) is None
    last = int(np.flatnonzero(mask)[-1])
    assert rows.next_in_view(view, last, 1, mask) is None


def test_streamed_update_changes_health_but_keeps_text(frame: pl.DataFrame) -> None:
    pending = frame.with_columns(
        pl.lit("pending").alias("health"), pl.lit(None, pl.Float64).alias("cosine_similarity")
    )
    rows = LayerRows(pending)
    assert rows.health_counts() == {"pending": rows.n}
    assert math.isnan(rows.cos[0])
    text_before = rows.text(3)
    rows.update(frame)
    assert rows.health_counts()["fail"] > 0
    assert rows.cos[0] == pytest.approx(frame["cosine_similarity"][0])
    assert rows.text(3) == text_before


def test_text_of_odd_rows() -> None:
    frame = Comparison.from_frame(
        pl.DataFrame(
            {
                "index": [0, 1],
                "name": ["a@b/c.d:0 \ufffd", None],
                "target_name": [None, "only/in:target"],
                "shape": [[1, 2], None],
                "target_shape": [[2, 1], [3]],
                "dtype": ["float32", None],
                "target_dtype": ["bfloat16", "int8"],
                "health": ["fail", "unmatched"],
                "side": ["both", "target"],
                "nan_target": [2, 0],
                "inf_golden": [1, 0],
            }
        )
    ).frame
    rows = LayerRows(frame)
    name, _op, shape, dtypes = rows.text(0)
    assert name == "a@b/c.d:0 \ufffd"
    assert shape == "1×2→2×1" and dtypes == "f32→bf16"
    assert rows.text(1)[0] == "only/in:target"
    assert rows.nan_inf(0) == "i1|n2" and rows.nan_inf(1) == "·"


def test_nan_inf_shows_both_sides_and_unknown_counts() -> None:
    frame = Comparison.from_frame(
        pl.DataFrame(
            {
                "index": [0, 1, 2, 3],
                "name": ["golden_nan", "target_inf", "imported", "clean"],
                "nan_golden": [3, 0, None, 0],
                "inf_golden": [0, 0, None, 0],
                "nan_target": [0, 0, None, 0],
                "inf_target": [0, 2_500, None, 0],
            }
        )
    ).frame
    rows = LayerRows(frame)
    assert [rows.nan_inf(p) for p in range(4)] == ["n3|·", "·|i2k", "?", "·"]
    assert rows.naninf_width == 5
    assert [count_text(n) for n in (7, 999, 1000, 999_999, 12_000_000)] == ["7", "999", "1k", "999k", "12M"]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.5, "0.5"),
        (123.456, "123.456"),
        (1.2e-5, "1.2e-5"),
        (0.0, "0"),
        (None, "·"),
        (float("nan"), "NaN"),
        (float("inf"), "inf"),
        (-float("inf"), "-inf"),
        (2.5e7, "25000000"),
        (934496.0, "934496"),
        (0.9999991, "0.999999"),
    ],
)
def test_list_numbers_use_the_one_formatter(value: float | None, text: str) -> None:
    frame = Comparison.from_frame(
        pl.DataFrame(
            {"index": [0], "name": ["x"], "max_absolute_error": [value]},
            schema_overrides={"max_absolute_error": pl.Float64},
        )
    ).frame
    assert LayerRows(frame).number("max_abs", 0, 8) == text


def test_names_keep_what_tells_rows_apart() -> None:
    names = [
        "/model.2/Sigmoid_output_0",
        "/model.22/Sigmoid_output_0",
        "/model.0/Constant_output_0",
        "/model.0/Constant_1_output_0",
        "/model.0/Constant_2_output_0",
    ]
    prefix = common_prefix(names)
    for width in (16, 20, 24):
        shown = [elide(n, width, prefix) for n in names]
        assert all(len(s) <= width for s in shown)
        assert shown[0].startswith("/model.2/") and shown[1].startswith("/model.22/"), shown
    shown = [elide(n, 20, prefix) for n in names[2:]]
    assert len(set(shown)) == 3, shown
    assert elide("/a/b/c/d/Split_output_1", 16) == "…/d/Split_out…_1"
    assert elide("/layer2/block19/conv_0/Conv_output_0", 30) == "…/block19/conv_0/Conv_output_0"
    assert common_prefix(["/backbone/x/a", "/backbone/y/b"]) == len("/backbone/")
    assert elide("/backbone/stage1/Conv_output_0", 24, len("/backbone/")) == "…stage1/Conv_output_0"


def test_short_dtype() -> None:
    assert (
        short_dtype("bfloat16") == "bf16"
        and short_dtype("complex64") == "complex64"
        and short_dtype(None) == "?"
    )


def test_layout_drops_low_priority_columns_and_keeps_health() -> None:
    wide = [c.id for c in layout_columns(200, 4, 12)]
    assert wide[0] == "index" and wide[-2:] == ["health", "why"] and "shape" in wide
    narrow = [c.id for c in layout_columns(50, 4, 12)]
    assert "health" in narrow and "name" in narrow and "shape" not in narrow
    for width in (30, 60, 90, 140):
        cols = layout_columns(width, 4, 18)
        assert 2 + sum(c.width for c in cols) + len(cols) - 1 <= max(width, 2 + 22 + 6 + 1)


def test_histogram_bars() -> None:
    assert resample([1, 2, 3, 4], 2) == [3, 7]
    assert resample([1, 2], 5) == [1, 1, 2, 2]
    rows = bars([0, 1, 100, 10_000], 4, height=2)
    assert len(rows) == 2 and all(len(r) == 4 for r in rows)
    assert rows[1][0] == " " and rows[1][1] != " "  # an empty bucket stays empty, a tiny one shows
    assert rows[0][3] == "█"
    assert bars([], 10) == ["", "", ""]


def test_unmatched_rows_say_which_side(rows: LayerRows) -> None:
    labels = {rows.health_label(int(p)) for p in rows.view(Query.parse("health:only"))}
    assert labels == {"– GOLD", "– TRGT"}
    assert rows.health_label(0) == "✓ OK"


@settings(max_examples=150, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("ab:#-, op health kind side dtype fail bad 0123456789[]\\\\/.@\\t")),
        max_size=40,
    )
)
def test_any_filter_text_parses_or_says_why(rows: LayerRows, text: str) -> None:
    try:
        query = Query.parse(text)
    except QueryError as exc:
        assert str(exc)
        return
    view = rows.view(query, "cos", True)
    assert view.size <= rows.n and (view.size == 0 or 0 <= view.min() <= view.max() < rows.n)
