"""Messages still queued when the app shuts down (a worker's table, a cursor move, a diagnosis) do nothing."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import Progressed
from dumpscope.tui.app.widgets.layer_list import LayerList


async def test_a_message_after_the_last_screen_is_gone_changes_nothing(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause(0.1)
        assert app.screen_stack
    assert not app.screen_stack  # the app has shut down: every screen is gone
    late = [
        (app._cursor_moved, LayerList.CursorMoved(3)),
        (app._activated, LayerList.Activated(3)),
        (app.on_dumpscope_app_progressed, Progressed(generated, 10, 10)),
        (app._filter_typed, Input.Changed(Input(), "fail")),
    ]
    for handler, message in late:
        handler(message)  # before, each of these raised IndexError on the empty screen stack
    assert app.comparison is not None  # what the app showed is kept, nothing new was shown


@pytest.mark.parametrize(
    "name", ["_cursor_moved", "_diagnosed_now", "on_worker_state_changed", "_verdict_jump"]
)
def test_each_screen_handler_checks_for_a_screen(name: str) -> None:
    """The guard is on the handler itself (``functools.wraps`` keeps its name and signature for Textual)."""
    handler = getattr(DumpscopeApp, name)
    assert handler.__wrapped__.__name__ == name
