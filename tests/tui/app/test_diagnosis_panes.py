"""The diagnosis in the app: verdict bar, `v`, the introduced/inherited column, evidence, side panes."""

from __future__ import annotations

import pytest

from dumpscope.core.comparison.pipeline import compare
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.panes import SIDE_PANES
from dumpscope.tui.app.widgets.fusion_pane import FusionPane
from dumpscope.tui.app.widgets.overflow_pane import OverflowPane
from dumpscope.tui.app.widgets.verdict_bar import VerdictBar

SIZE = (140, 40)


@pytest.fixture(scope="module")
def demo_cmp(demo):  # type: ignore[no-untyped-def]
    return compare(demo.golden, demo.target)


async def _diagnosed(pilot, app: DumpscopeApp) -> None:  # type: ignore[no-untyped-def]
    for _ in range(100):
        await pilot.pause(0.05)
        if app.diagnosis is not None:
            return
    raise AssertionError("the diagnosis never arrived")


async def test_verdict_origin_column_and_evidence(demo_cmp) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(demo_cmp)
    async with app.run_test(size=SIZE) as pilot:
        await _diagnosed(pilot, app)
        await pilot.pause(0.2)
        bar_text = str(app.query_one("#verdict-text").render())
        assert "frame5/attn/exp:0" in bar_text and "overflow" in bar_text
        exp_row = int(demo_cmp.frame["name"].to_list().index("frame5/attn/exp:0"))
        assert app.rows is not None and app.rows.origin_label(exp_row) == "NEW"
        assert app.rows.origin_label(exp_row + 1) == "↓"
        await pilot.press("g")
        assert app.layer_list.selected == 0
        await pilot.press("v")
        await pilot.pause(0.3)
        assert app.layer_list.selected == exp_row
        title = str(app.tensor_pane.query_one("#pane-title").render())
        assert "root cause #1: overflow" in title and "ln(65504)" in title
        await pilot.press("slash")
        await pilot.press(*"origin:new")
        await pilot.press("enter")
        assert app.layer_list.view.tolist() == [exp_row]


async def test_p_cycles_the_side_panes(demo_cmp) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(demo_cmp)
    async with app.run_test(size=SIZE) as pilot:
        await _diagnosed(pilot, app)
        await pilot.press("f")
        for _ in range(4):  # `p` cycles the panes this comparison has something for; overflow is one
            await pilot.press("p")
            if app.side.current == "overflow":
                break
        assert app.side.current == "overflow"
        pane = app.query_one(OverflowPane)
        text = ""
        for _ in range(60):
            await pilot.pause(0.05)
            text = " ".join(str(w.render()) for w in pane.query("Static"))
            if "Range checks" in text:
                break
        assert "Range checks" in text and "Inf" in text and "65504" in text
        useful = [pane.id for pane in SIDE_PANES if pane.useful(demo_cmp)]
        assert (
            "modules" not in useful and "fusion" not in useful
        )  # no msprobe dump, no fused node in the fp16 demo
        await pilot.press("p")
        assert app.side.current == useful[(useful.index("overflow") + 1) % len(useful)]
        assert not app.query(FusionPane)  # never mounted: `p` skipped it


async def test_verdict_bar_does_not_take_focus(demo_cmp) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(demo_cmp)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("tab", "tab")
        assert not app.query_one(VerdictBar).has_focus


def test_origin_filter_words_are_checked() -> None:
    from dumpscope.tui.app.filters import Query, QueryError

    assert Query.parse("origin:new").fields == (("origin", ("introduced",)),)
    with pytest.raises(QueryError, match="unknown origin"):
        Query.parse("origin:sideways")
