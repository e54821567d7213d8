"""The app's view state: one immutable value; assigning it re-applies the list and the summary."""

from __future__ import annotations

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.filters import Query
from dumpscope.tui.app.view_state import ViewState
from dumpscope.tui.app.widgets.layer_rows import SORT_KEYS
from dumpscope.tui.app.widgets.summary_bar import SummaryBar
from screenshots.make import generated_frame


def test_view_state_steps() -> None:
    start = ViewState()
    assert start.sort_key is SORT_KEYS[0] and not start.moved_from_start
    by_rmse = start.sorted_by(next(i for i, k in enumerate(SORT_KEYS) if k.id == "rmse"))
    assert by_rmse.sort_key.id == "rmse" and by_rmse.descending and by_rmse.moved_from_start
    assert by_rmse.reversed().descending is False
    assert start.sorted_by(len(SORT_KEYS)) == start  # the `s` cycle wraps
    filtered = start.filtered(Query.parse("health:fail"))
    assert filtered.moved_from_start and filtered.sort_index == 0
    assert start == ViewState()  # steps never change the value they start from


async def test_assigning_the_view_refreshes_list_and_summary() -> None:
    cmp = Comparison.from_frame(generated_frame(200, seed=3))
    app = DumpscopeApp(cmp)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        fails = cmp.health_counts().get("fail", 0)
        app.view = app.view.filtered(Query.parse("health:fail"))
        await pilot.pause()
        assert app.layer_list.view.size == fails
        status = str(app.query_one(SummaryBar).content)
        assert f"filter health:fail: {fails} of {cmp.frame.height}" in status
        app.view = app.view.sorted_by(next(i for i, k in enumerate(SORT_KEYS) if k.id == "cos"))
        await pilot.pause()
        assert app.layer_list.sort_key == "cos" and app.layer_list.view.size == fails
        assert "sorted by cosine" in str(app.query_one(SummaryBar).content)
        app.view = ViewState()
        await pilot.pause()
        assert app.layer_list.view.size == cmp.frame.height and app.layer_list.sort_key == "order"
