"""Filters that help: a bare word finds op types too, metric comparisons, unknown keys and values are
errors shown in the bar, and the last term completes -- unit checks and the app at 80x24 and 120x40."""

from __future__ import annotations

import polars as pl
import pytest
from textual.widgets import Input

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.filters import NUMERIC_KEYS, Query, QueryError, completion
from screenshots.make import generated_frame
from tests.support.tui import filter_by, screen_text, type_text

SIZES = [(80, 24), (120, 40)]


@pytest.fixture(scope="module")
def generated() -> Comparison:
    return Comparison.from_frame(generated_frame(500, seed=3), meta={"golden": "g", "target": "t"})


def test_comparisons_parse_to_frame_columns() -> None:
    q = Query.parse("cosine<0.999 rel>=1e-2 RMSE!=0 max_relative_error>5")
    assert q.comparisons == (
        ("cosine_similarity", "<", 0.999),
        ("relative_euclidean_distance", ">=", 0.01),
        ("root_mean_square_error", "!=", 0.0),
        ("max_relative_error", ">", 5.0),
    )
    assert q and not q.words


@pytest.mark.parametrize(
    ("text", "message"),
    [("cosin<0.5", "did you mean cosine"), ("cosine<abc", "not a number"), ("rel>", "not a number")],
)
def test_bad_comparisons_are_errors(text: str, message: str) -> None:
    with pytest.raises(QueryError, match=message):
        Query.parse(text)


def test_every_short_metric_key_names_a_column() -> None:
    from dumpscope.core.vocabulary import METRIC

    assert set(NUMERIC_KEYS.values()) <= set(METRIC)


def test_completion_of_the_last_term() -> None:
    assert completion("hea") == "health:"
    assert completion("op:Conv cosi") == "op:Conv cosine"
    assert completion("health:fail") is None and completion("") is None and completion("zzz") is None


def _expected(frame: pl.DataFrame, expr: pl.Expr) -> list[int]:
    return frame.with_row_index("pos").filter(expr)["pos"].to_list()


@pytest.mark.parametrize("size", SIZES)
async def test_a_bare_word_finds_op_types(generated: Comparison, size: tuple[int, int]) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=size) as pilot:
        await filter_by(pilot, "relu")
        frame = generated.frame
        names = pl.col("name").fill_null("").str.to_lowercase()
        expr = names.str.contains("relu", literal=True) | pl.col("op_type").fill_null(
            ""
        ).str.to_lowercase().str.contains("relu")
        expr |= pl.col("target_name").fill_null("").str.to_lowercase().str.contains("relu", literal=True)
        expected = _expected(frame, expr)
        assert expected and app.layer_list.view.tolist() == expected


@pytest.mark.parametrize("size", SIZES)
async def test_metric_comparisons_select_rows(generated: Comparison, size: tuple[int, int]) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=size) as pilot:
        await filter_by(pilot, "cosine<0.999 health:fail")
        frame = generated.frame
        expected = _expected(frame, (pl.col("cosine_similarity") < 0.999) & (pl.col("health") == "fail"))
        assert app.layer_list.view.tolist() == expected
        assert f"{len(expected)} of 500" in screen_text(app)


@pytest.mark.parametrize("size", SIZES)
async def test_unknown_keys_and_bad_values_are_errors_in_the_bar(
    generated: Comparison, size: tuple[int, int]
) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=size) as pilot:
        await pilot.press("slash")
        app.query_one("#filter", Input).value = "bogus:1 cosine<0.9"
        await pilot.pause()
        text = screen_text(app)
        assert "unknown filter field 'bogus'" in text
        assert app.layer_list.view.size == 500  # the bad filter was not applied
        app.query_one("#filter", Input).value = "cosine<x"
        await pilot.pause()
        assert "not a number" in screen_text(app)


async def test_a_name_with_a_colon_is_still_a_name_search(generated: Comparison) -> None:
    frame = generated.frame
    name = next(n for n in frame["name"].drop_nulls().to_list() if n)
    app = DumpscopeApp(generated)
    async with app.run_test(size=(120, 40)) as pilot:
        await filter_by(pilot, name[:6].lower())
        assert app.layer_list.view.size >= 1


async def test_right_arrow_accepts_the_completion(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash")
        await type_text(pilot, "hea")
        await pilot.pause(0.1)
        await pilot.press("right")
        assert app.query_one("#filter", Input).value == "health:"
