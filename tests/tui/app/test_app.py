"""The app driven by Pilot: keys, filter, sort, panes, export, help, keymap, loading, reopen."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from textual.widgets import Input

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.screens.tensor import TensorScreen
from dumpscope.tui.app.widgets.layer_list import LayerList
from dumpscope.tui.app.widgets.layer_rows import SORT_KEYS
from dumpscope.tui.app.widgets.tensor_pane import TensorPane
from screenshots.make import generated_frame
from tests.support.tui import SIZE, filter_by, pane_text, screen_text, settle, type_text


async def test_navigation_keys(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        lst = app.layer_list
        assert lst.selected == generated.first_divergent() and lst.has_focus  # it starts at the answer
        await pilot.press("g", "j", "j", "down")
        assert lst.selected == 3
        await pilot.press("k")
        assert lst.selected == 2
        await pilot.press("G")
        assert lst.selected == 599
        await pilot.press("g")
        assert lst.selected == 0
        await pilot.press("ctrl+d")
        page = lst.selected
        assert page > 20
        await pilot.press("pagedown", "ctrl+u")
        assert lst.selected == page
        await pilot.press("end", "home")
        assert lst.selected == 0
        await pilot.press("j")
        await settle(pilot)
        assert app.tensor_pane.position == 1
        assert generated.frame["name"][1] in pane_text(app.tensor_pane)


async def test_filter_search_and_clear(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await filter_by(pilot, "op:conv health:fail")
        frame = generated.frame
        expected = (
            frame.with_row_index("pos")
            .filter((pl.col("op_type") == "Conv") & (pl.col("health") == "fail"))["pos"]
            .to_list()
        )
        lst = app.layer_list
        assert lst.view.tolist() == expected
        assert lst.has_focus
        assert f"filter op:conv health:fail: {len(expected)} of 600" in screen_text(app)
        await pilot.press("j", "j")
        kept = lst.selected
        await pilot.press("escape")  # clears the filter, keeps the row
        assert lst.view.size == 600 and lst.selected == kept
        await pilot.press("n")  # the cleared filter is still the search
        assert lst.selected == expected[expected.index(kept) + 1]
        await pilot.press("N", "N")
        assert lst.selected == expected[expected.index(kept) - 1]


async def test_filter_escape_restores_and_errors_are_shown(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash")
        app.query_one("#filter", Input).value = "heath:"
        await type_text(pilot, "f")
        assert "did you mean health" in screen_text(app)
        assert app.view.query.text == "heath:"  # the last filter that parsed stays applied
        await pilot.press("escape")
        assert app.layer_list.view.size == 600
        assert app.layer_list.has_focus and not app.view.query
        await pilot.press("slash")
        await type_text(pilot, "re")
        assert app.layer_list.view.size < 600  # live as you type
        await pilot.press("escape")  # restores the filter from before `/`
        assert app.layer_list.view.size == 600


async def test_sort_cycle_and_reverse(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        lst = app.layer_list
        assert SORT_KEYS[app.view.sort_index].id == "cos"
        cos = generated.frame["cosine_similarity"].to_numpy()
        nonfinite = lst.rows.nonfinite  # NaN/Inf rows sort as the worst (issue 10 item 10)
        assert lst.selected is not None
        assert nonfinite[int(lst.view[0])] or cos[int(lst.view[0])] == np.nanmin(cos)
        assert "cosine▲" in screen_text(app)
        await pilot.press("S")
        assert cos[int(lst.view[0])] == np.nanmax(cos[~nonfinite])
        assert "cosine▼" in screen_text(app)
        for _ in range(len(SORT_KEYS) - 1):
            await pilot.press("s")
        assert lst.view.tolist() == list(range(600))


async def test_first_divergent_and_unhealthy_steps(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        first = generated.first_divergent()
        assert first is not None
        await pilot.press("f")
        assert app.layer_list.selected == first
        health = generated.frame["health"].to_list()
        unhealthy = [i for i, h in enumerate(health) if h in ("warn", "fail", "error")]
        await pilot.press("g", "right_square_bracket")
        assert app.layer_list.selected == unhealthy[0]
        await pilot.press("right_square_bracket")
        assert app.layer_list.selected == unhealthy[1]
        await pilot.press("left_square_bracket")
        assert app.layer_list.selected == unhealthy[0]
        # `f` clears a filter that hides the first divergent layer
        await filter_by(pilot, "health:ok")
        await pilot.press("f")
        assert app.layer_list.selected == first and not app.view.query


async def test_error_row_shows_its_message(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await filter_by(pilot, "health:error")
        await settle(pilot)
        assert "⚠ ERR" in screen_text(app)
        assert "target file truncated: 1024 of 4096 bytes" in pane_text(app.tensor_pane)


async def test_enter_drills_in_and_escape_returns(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "j", "enter")
        await settle(pilot)
        assert isinstance(app.screen, TensorScreen)
        assert generated.frame["name"][1] in pane_text(app.screen.query_one(TensorPane))
        await pilot.press("escape")
        assert isinstance(app.screen.query_one(LayerList), LayerList)
        assert app.layer_list.selected == 1


async def test_quit_returns(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_list_renders_only_visible_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = LayerList.render_line

    def counting(self: LayerList, y: int):  # type: ignore[no-untyped-def]
        calls.append(y)
        return original(self, y)

    monkeypatch.setattr(LayerList, "render_line", counting)
    big = Comparison.from_frame(generated_frame(100_000, seed=2))
    app = DumpscopeApp(big)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        height = app.layer_list.size.height
        assert 0 < len(calls) <= 3 * height
        assert max(calls) < height
        for _ in range(100):  # the diagnosis repaints the list once (its src column) when it lands
            if app.diagnosis is not None:
                break
            await pilot.pause(0.05)
        await pilot.pause()
        calls.clear()
        await pilot.press("j")
        await pilot.pause()
        assert len(calls) <= 4  # the old and the new cursor line (maybe twice)
        calls.clear()
        await pilot.press("G")
        await pilot.pause()
        assert app.layer_list.selected == 99_999
        assert len(calls) <= 2 * height


async def test_narrow_and_short_terminals_degrade(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=(70, 30)) as pilot:
        await settle(pilot)
        lst, pane = app.layer_list, app.tensor_pane
        assert pane.region.y > lst.region.y  # stacked under the list
        assert "✓ OK" in screen_text(app)
        await pilot.resize_terminal(70, 14)
        await pilot.pause()
        assert not pane.display or pane.region.height == 0
        await pilot.press("g", "j")
        assert lst.selected == 1


async def test_tab_moves_between_list_and_pane(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=(120, 24)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        pane = app.tensor_pane
        assert pane.has_focus
        await pilot.press("j", "j")
        assert (
            pane.scroll_y > 0 and app.layer_list.selected == generated.first_divergent()
        )  # j scrolls the pane
        await pilot.press("tab")
        assert app.layer_list.has_focus


async def test_odd_names_render_aligned_and_safe() -> None:
    """Control characters, markup-like text and wide characters in names cannot break a line."""
    from rich.cells import cell_len

    names = ["evil\x1b[31m\nname\u202e", "[b]not markup[/b]", "层/卷积:0", "a" * 300]
    frame = (
        generated_frame(8).head(4).with_columns(pl.Series("name", names), pl.Series("health", ["fail"] * 4))
    )
    app = DumpscopeApp(Comparison.from_frame(frame))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lines = screen_text(app).splitlines()
        rows = [line.split("▏")[0] for line in lines if "▏" in line and "✗ FAIL" in line.split("▏")[0]]
        assert len(rows) == 4
        assert not {"\x1b", "\u202e"} & set("".join(lines))
        assert any("[b]not markup[/b]" in row for row in rows)
        assert any("层/卷积:0" in row for row in rows)
        columns = {cell_len(row[: row.index("✗ FAIL")]) for row in rows}
        assert len(columns) == 1  # the health column lines up whatever the name holds
        assert "evil\\x1b[31m\\x0aname\\u202e" in pane_text(app.tensor_pane)  # escapes, as in every output


async def test_y_copies_the_tensor_name(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "j", "y")
        assert app.clipboard == generated.frame["name"][1]


async def test_progress_ticks_do_not_recount_the_table(
    generated: Comparison, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fill moves the count several times a second; the summary's health counts are taken once
    per streamed table (O(rows)), and a tick costs O(1)."""
    from dumpscope.tui.app import status

    counted: list[int] = []
    real = status.TableCounts.of.__func__  # type: ignore[attr-defined]

    def counting(cls, rows, cmp):  # type: ignore[no-untyped-def]
        counted.append(rows.n)
        return real(cls, rows, cmp)

    monkeypatch.setattr(status.TableCounts, "of", classmethod(counting))
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        before = len(counted)
        for done in range(1, 60):
            app.progress = (done, 600)  # what each Counted message does
        await pilot.pause(0.1)
        assert len(counted) == before  # 59 ticks, no recount
        assert "comparing 59/600" in str(app.query_one("#summary").render())
        newer = Comparison.from_frame(
            generated.frame.with_columns(health=pl.lit("fail")), meta=generated.meta
        )
        app.progress = None
        app._show_comparison(newer)  # a newer table: counted once more
        await pilot.pause(0.1)
        assert len(counted) == before + 1
        assert "FAIL 600" in str(app.query_one("#summary").render())


async def test_a_streamed_table_repaints_only_rows_on_screen(generated: Comparison) -> None:
    """During a fill, rows computed off screen cost no repaint; once scrolled to, they show their new
    health."""
    pending = generated.frame.with_columns(health=pl.lit("pending"))
    app = DumpscopeApp(Comparison.from_frame(pending, meta=generated.meta))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        app.progress = (0, 600)  # a fill is under way: the list stays where the user is
        lst = app.query_one(LayerList)
        await pilot.pause(0.1)
        painted: list[int] = []
        original = LayerList.render_line

        def counting(self: LayerList, y: int):  # type: ignore[no-untyped-def]
            painted.append(y)
            return original(self, y)

        LayerList.render_line = counting  # type: ignore[method-assign]
        try:
            last = int(lst.view[-1])
            off_screen = pending.with_columns(
                health=pl.when(pl.int_range(pl.len()) == last)
                .then(pl.lit("fail"))
                .otherwise(pl.col("health"))
            )
            app._show_comparison(Comparison.from_frame(off_screen, meta=generated.meta))
            await pilot.pause(0.2)
            assert [y for y in painted if y > 0] == []  # nothing on screen changed
            first = int(lst.view[0])
            on_screen = off_screen.with_columns(
                health=pl.when(pl.int_range(pl.len()) == first).then(pl.lit("ok")).otherwise(pl.col("health"))
            )
            app._show_comparison(Comparison.from_frame(on_screen, meta=generated.meta))
            await pilot.pause(0.2)
            assert any(y > 0 for y in painted)
        finally:
            LayerList.render_line = original  # type: ignore[method-assign]
        await pilot.press("G")  # the row computed off screen shows its new health, not a stale line
        await pilot.pause(0.2)
        bottom = [line for line in screen_text(app).splitlines() if "▶" in line]
        assert bottom and "FAIL" in bottom[0]


async def test_tensor_pane_sides_fit_a_narrow_pane(generated: Comparison) -> None:
    """At 100 columns the side pane is ~36 cells: golden and target stay on one line each, never
    wrapped under the next label (a wrapped value reads as another row)."""
    from dumpscope.tui.app.widgets.layer_list import _fit as fit_cell
    from dumpscope.tui.app.widgets.tensor_pane import MIN_SIDE_WIDTH, _keep_end

    app = DumpscopeApp(generated)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        pane = app.tensor_pane
        width = pane.scrollable_content_region.width
        assert width < 2 * 16 + 8  # the case: the default 16-cell sides would not fit
        labelled = pane_text(pane).split("golden", 1)[1].splitlines()[1:7]
        assert [line.split()[0] for line in labelled] == ["shape", "dtype", "min", "max", "mean", "std"]
        assert all(len(line) <= width and len(line.split()) == 3 for line in labelled)
    assert _keep_end("1×256×1024×1024", MIN_SIDE_WIDTH) == "…24×1024" and _keep_end("1×3", 9) == "1×3"
    assert fit_cell("ConstantOfShape", 12) == "ConstantOfS…" and fit_cell("Add", 12) == "Add" + " " * 9
