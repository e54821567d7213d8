"""What the UI costs the comparison while it fills in: the collector's full passes wait."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from dumpscope.tui.app.collector import PAUSED, FullPassPause
from dumpscope.tui.app.explorer import CompareRequest, DumpscopeApp
from test_tui_app import SIZE, _isolated_config, settle  # noqa: F401 - fixtures are found by name
from test_tui_screens import slow_compare  # noqa: F401


@pytest.fixture
def thresholds() -> tuple[int, int, int]:
    """The process's thresholds, restored after the test whatever it did."""
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*saved)


def test_pause_keeps_young_passes_and_resume_restores(thresholds: tuple[int, int, int]) -> None:
    pause = FullPassPause()
    pause.pause()
    pause.pause()  # twice: still the thresholds found first
    assert gc.get_threshold() == (700, 10, PAUSED) and pause.paused
    pause.resume()
    assert gc.get_threshold() == thresholds and not pause.paused
    pause.resume()  # idempotent: every way a fill ends may call it
    assert gc.get_threshold() == thresholds


def test_resume_without_pause_leaves_the_thresholds_alone(thresholds: tuple[int, int, int]) -> None:
    gc.set_threshold(500, 5, 5)
    FullPassPause().resume()
    assert gc.get_threshold() == (500, 5, 5)


async def test_full_passes_wait_while_the_comparison_fills(slow_compare: list[int],
                                                           thresholds: tuple[int, int, int]) -> None:
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=SIZE) as pilot:
        while app.rows is None:
            await pilot.pause(0.05)
        assert app.progress is not None and gc.get_threshold()[2] == PAUSED
        await settle(pilot)
        assert slow_compare[-1] == 200 and app.progress is None
        assert gc.get_threshold() == thresholds


async def test_cancel_and_quit_mid_fill_restore_the_thresholds(slow_compare: list[int],
                                                               thresholds: tuple[int, int, int]) -> None:
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=SIZE) as pilot:
        while app.rows is None:
            await pilot.pause(0.05)
        await pilot.press("escape")
        await settle(pilot)
        assert gc.get_threshold() == thresholds
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=SIZE) as pilot:
        while app.rows is None:
            await pilot.pause(0.05)
        assert gc.get_threshold()[2] == PAUSED
        await pilot.press("q")
    assert gc.get_threshold() == thresholds


async def test_a_loaded_comparison_does_not_touch_the_collector(thresholds: tuple[int, int, int]) -> None:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.tui.app.screenshots import generated_frame

    app = DumpscopeApp(Comparison.from_frame(generated_frame(50)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert gc.get_threshold() == thresholds
