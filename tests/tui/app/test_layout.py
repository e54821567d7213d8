"""A layout that adapts: at 80x24 the list shrinks to its rows and the pane takes the rest, `p` cycles
only the panes with something to show (its name in the pane's title, no toast over the pane), and the
help names every pane and scrolls with j/k -- at 80x24 and 120x40."""

from __future__ import annotations

import pytest
from textual.containers import VerticalScroll

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.panes import SIDE_PANES, next_pane
from dumpscope.tui.app.screens.help import HelpScreen
from screenshots.make import generated_frame
from tests.support.tui import filter_by, screen_text, settle

SIZES = [(80, 24), (120, 40)]


def test_the_cycle_skips_panes_with_nothing_to_show(demo_comparison) -> None:  # type: ignore[no-untyped-def]
    useful = [p.id for p in SIDE_PANES if p.useful(demo_comparison)]
    assert useful[0] == "tensor" and "modules" not in useful  # no msprobe dump here
    assert "overflow" in useful  # the fp16 demo overflows
    seen, current = [], "tensor"
    for _ in range(len(useful)):
        current = next_pane(current, demo_comparison).id
        seen.append(current)
    assert set(seen) == set(useful) and seen[-1] == "tensor"
    bare = Comparison.from_frame(generated_frame(20, seed=1), meta={})
    assert next_pane("tensor", bare).id in {p.id for p in SIDE_PANES if p.useful(bare)}


@pytest.mark.parametrize("size", SIZES)
async def test_p_names_the_pane_in_its_title_and_covers_nothing(
    demo_comparison, size: tuple[int, int]
) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(demo_comparison)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        current = app.side.current
        assert current != "tensor"
        title = next(p.title for p in SIDE_PANES if p.id == current)
        assert app.side.border_title.startswith(title)
        assert not app._notifications  # no toast over the pane
        assert title in screen_text(app)


@pytest.mark.parametrize("size", SIZES)
async def test_help_names_the_panes_and_scrolls_with_j_and_k(demo_comparison, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(demo_comparison)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-text").render())
        for pane in SIDE_PANES:
            assert pane.title in text and pane.help[:20] in text
        body = app.screen.query_one("#help-body", VerticalScroll)
        assert body.scroll_y == 0
        await pilot.press("j", "j", "j")
        await pilot.pause()
        assert body.scroll_y == 3
        await pilot.press("k")
        await pilot.pause()
        assert body.scroll_y == 2


async def test_at_80x24_the_list_shrinks_to_a_short_filter(demo_comparison) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(demo_comparison)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        side_before = app.side.size.height
        list_before = app.layer_list.size.height
        await filter_by(pilot, "#0-1")
        await settle(pilot)
        shown = int(app.layer_list.view.size)
        assert 1 <= shown <= 2
        assert app.layer_list.size.height == shown + 1  # the header and the rows, nothing blank
        assert app.side.size.height > side_before + (list_before - shown - 1) - 2
        await pilot.press("escape")  # clear the filter: the list takes its share again
        await settle(pilot)
        assert app.layer_list.size.height == list_before
