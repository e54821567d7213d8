"""Driving the real app with Pilot: the terminal size the tests use, the screen as text, waiting for
workers."""

from __future__ import annotations

import io

from rich.console import Console
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Input, Static
from textual.worker import WorkerCancelled

from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.widgets.layer_list import LayerList
from dumpscope.tui.app.widgets.tensor_pane import TensorPane

SIZE = (120, 40)


def screen_text(app: DumpscopeApp) -> str:
    """What the terminal shows, as plain text."""
    console = Console(
        width=app.size.width, height=app.size.height, file=io.StringIO(), record=True, force_terminal=True
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def pane_text(pane: TensorPane) -> str:
    """The tensor pane's text without markup (long names wrap on screen)."""
    return "\n".join(Content.from_markup(str(part.content)).plain for part in pane.query(Static))


def _lists_drawn(app: DumpscopeApp) -> bool:
    """Every layer list on screen that has rows has been laid out with room for them (on a loaded box
    the first layout can come after the workers are done: a screen read then shows no row)."""
    return all(
        not lst.view.size or lst.scrollable_content_region.height > 1 for lst in app.screen.query(LayerList)
    )


async def settle(pilot: Pilot[int]) -> None:
    """Let workers finish, the diagnosis start and end, the list lay out its rows and the pane catch up
    with the cursor; then wait until two screen reads in a row agree (on a loaded CI box a read could
    land between a relayout and its paint: a status line and no row names)."""
    app = pilot.app
    assert isinstance(app, DumpscopeApp)
    last = None
    for _ in range(100):
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:  # a worker replaced by a newer one (exclusive): the loop waits for the rest
            pass
        await pilot.pause(0.02)
        panes = app.screen.query(TensorPane)
        if (
            all(p.is_settled for p in panes)
            and not app.workers
            and not app.diagnosis_due
            and _lists_drawn(app)
        ):
            shown = screen_text(app)
            if shown == last:
                break
            last = shown
    await pilot.pause()


async def type_text(pilot: Pilot[int], text: str) -> None:
    for ch in text:
        await pilot.press("space" if ch == " " else ch)


async def filter_by(pilot: Pilot[int], text: str) -> None:
    """Open the filter box, put ``text`` in it (as a paste would) and press enter."""
    await pilot.press("slash")
    pilot.app.query_one("#filter", Input).value = text
    await pilot.pause()
    await pilot.press("enter")
