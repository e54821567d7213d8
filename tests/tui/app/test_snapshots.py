"""Snapshot tests of the main screens at 120x40, theme textual-dark (pytest-textual-snapshot).

Accept an intended change with ``pytest tests/test_tui_snapshots.py --snapshot-update`` after
looking at ``snapshot_report.html``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.app import DumpscopeApp
from screenshots.make import SIZE, THEME, generated_frame

SnapCompare = Callable[..., bool]


@pytest.fixture(autouse=True)
def _deterministic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr(Input, "_toggle_cursor", lambda _self: None)


def make_app(rows: int = 400) -> DumpscopeApp:
    cmp = Comparison.from_frame(
        generated_frame(rows, seed=5), meta={"golden": "golden", "target": "target_fp16"}
    )
    return DumpscopeApp(cmp, theme=THEME)


async def _settle(pilot: Pilot[int]) -> None:
    await pilot.pause(0.1)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_main_screen_at_first_divergent(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), press=["wait:150", "f", "wait:150"], terminal_size=SIZE)


def test_filtered_and_sorted(snap_compare: SnapCompare) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await pilot.press("slash")
        pilot.app.query_one("#filter", Input).value = "op:conv health:fail"
        await pilot.press("enter", "s")
        await _settle(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_help_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), press=["wait:150", "question_mark"], terminal_size=SIZE)


def test_narrow_terminal(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), press=["wait:150", "G", "wait:150"], terminal_size=(80, 24))


def test_sixteen_colours(snap_compare: SnapCompare) -> None:
    """The terminal's own 16 colours (ansi-dark): health still reads by glyph and word."""
    cmp = Comparison.from_frame(
        generated_frame(400, seed=5), meta={"golden": "golden", "target": "target_fp16"}
    )
    assert snap_compare(
        DumpscopeApp(cmp, theme="ansi-dark"), press=["wait:150", "f", "wait:150"], terminal_size=SIZE
    )
