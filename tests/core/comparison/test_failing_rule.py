"""The reason a row fails is on the row: ``failing_rules``/``metric_states`` agree with the judge, the
list's ``why`` column names the rule, the detail view marks the metric (or the NaN/Inf rule) with a
glyph, and a metric sort says where NaN/Inf rows go -- on the real demo, at 80x24 and 120x40."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.judge import (
    RULE_NONFINITE,
    RULE_WORDS,
    Thresholds,
    failing_rules,
    judge,
    metric_states,
)
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.widgets.tensor_pane import TensorPane
from tests.support.tui import screen_text, settle

SIZES = [(80, 24), (120, 40)]
BANDS = ["fp32", "fp16", "bf16", "int8", "exact"]


@pytest.fixture(autouse=True)
def _isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path))


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
rows = st.fixed_dictionaries(
    {
        "band": st.sampled_from(BANDS),
        "cosine_similarity": st.one_of(st.none(), st.floats(min_value=-1, max_value=1)),
        "relative_euclidean_distance": st.one_of(st.none(), st.floats(min_value=0, max_value=3)),
        "max_absolute_error": st.one_of(st.none(), st.floats(min_value=0, max_value=1e-1)),
        "slice_relative_distance": st.one_of(st.none(), st.floats(min_value=0, max_value=3)),
    }
)


@settings(max_examples=200, deadline=None)
@given(st.lists(rows, min_size=1, max_size=20))
def test_rules_and_states_agree_with_the_judge(items: list[dict[str, object]]) -> None:
    """A computed row without hard findings fails iff a metric state is fail, warns iff a state is warn,
    and its rule word is the word of a metric in that state."""
    th = Thresholds()
    metrics = {
        m: pl.Float64
        for m in (
            "cosine_similarity",
            "relative_euclidean_distance",
            "max_absolute_error",
            "slice_relative_distance",
        )
    }
    frame = pl.DataFrame(items, schema_overrides={"band": pl.String, **metrics}).with_columns(
        pl.lit("computed").alias("status"),
        pl.lit("").alias("hard_fail"),
        pl.lit("").alias("hard_warn"),
        pl.lit("").alias("notes"),
        pl.lit("pending").alias("health"),
        pl.lit("").alias("message"),
        pl.lit(0).alias("nonfinite_mismatch"),
    )
    judged = judge(frame, th)
    words = failing_rules(judged, th).to_list()
    for row, word in zip(judged.iter_rows(named=True), words, strict=False):
        states = metric_states(row, th)
        health = row["health"]
        expected = "fail" if "fail" in states.values() else "warn" if states else "ok"
        assert health == expected, (row, states)
        if health == "ok":
            assert word == ""
        else:
            assert word in {RULE_WORDS[m] for m, s in states.items() if s == health} | (
                {RULE_WORDS[m] for m in states} if health == "warn" else set()
            ), (row, states, word)


def test_nonfinite_mismatch_is_the_rule_even_when_every_metric_is_inside() -> None:
    frame = pl.DataFrame(
        {
            "band": ["fp16"],
            "health": ["fail"],
            "cosine_similarity": [1.0],
            "relative_euclidean_distance": [0.0],
            "max_absolute_error": [0.0],
            "nonfinite_mismatch": [3],
        }
    )
    assert failing_rules(frame, Thresholds()).to_list() == [RULE_NONFINITE]
    assert metric_states(frame.row(0, named=True), Thresholds()) == {}


def _nonfinite_fail(cmp) -> int:  # type: ignore[no-untyped-def]
    frame = cmp.frame.with_row_index("pos")
    hit = frame.filter((pl.col("health") == "fail") & (pl.col("nonfinite_mismatch") > 0))
    assert hit.height, "the demo has fp16 overflows: NaN/Inf on the target only"
    return int(hit["pos"][0])


@pytest.mark.parametrize("size", SIZES)
async def test_the_list_and_the_detail_name_the_failing_rule(demo_comparison, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    pos = _nonfinite_fail(demo_comparison)
    app = DumpscopeApp(demo_comparison)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.layer_list.move_cursor(int(list(app.layer_list.view).index(pos)))
        await settle(pilot)
        assert app.rows is not None and app.rows.rule_label(pos) == RULE_NONFINITE
        line = next(line for line in screen_text(app).splitlines() if line.startswith("▶"))
        assert "✗ FAIL" in line and RULE_NONFINITE in line
        pane = app.screen.query(TensorPane).first()
        text = "\n".join(str(s.render()) for s in pane.query("Static"))
        assert "NaN/Inf on one side only" in text and "✗" in text


async def test_a_metric_past_its_bound_is_marked_in_the_detail(tmp_path: Path) -> None:
    """A row that fails on its metrics alone (fusion on: relu1's cosine 0.9926 < 0.9999, no NaN/Inf): the
    list names the metric and the detail view marks it with a glyph."""

    from dumpscope.core.comparison.pipeline import compare
    from tests.support.fusion_onoff import make_fusion_data

    data = make_fusion_data(tmp_path / "fusion")
    cmp = compare(data.golden, data.on, graph=data.graph_on)
    frame = cmp.frame.with_row_index("pos")
    row = frame.filter((pl.col("health") == "fail") & (pl.col("nonfinite_mismatch").fill_null(0) == 0))
    pos = int(row["pos"][0])
    states = metric_states(cmp.frame.row(pos, named=True), cmp.thresholds)
    assert states.get("cosine_similarity") == "fail"
    app = DumpscopeApp(cmp)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.layer_list.move_cursor(int(list(app.layer_list.view).index(pos)))
        await settle(pilot)
        assert app.rows is not None and app.rows.rule_label(pos) == "cos"
        pane = app.screen.query(TensorPane).first()
        text = "\n".join(str(s.render()) for s in pane.query("Static"))
        cosine = next(line for line in text.splitlines() if line.startswith("cosine similarity"))
        assert cosine.rstrip().endswith("✗")


@pytest.mark.parametrize("size", SIZES)
async def test_a_metric_sort_says_where_nonfinite_rows_go(demo_comparison, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(demo_comparison)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        app.action_sort_by("cos")
        await settle(pilot)
        assert "NaN/Inf rows first" in screen_text(app)
        await pilot.press("S")
        await settle(pilot)
        assert "NaN/Inf rows last" in screen_text(app)
