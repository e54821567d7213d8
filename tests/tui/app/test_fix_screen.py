"""`F` in the explorer: the fix search on the loaded pair, its progress and its proof (Pilot)."""

from __future__ import annotations

import pytest

from dumpscope.core.comparison.pipeline import compare
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.screens.fix import FixScreen

SIZE = (140, 40)


@pytest.fixture(scope="module")
def demo_cmp(demo):  # type: ignore[no-untyped-def]
    return compare(demo.golden, demo.target, model=demo.model)


async def test_f_runs_the_fix_search_and_shows_the_proof(demo_cmp) -> None:  # type: ignore[no-untyped-def]
    from dumpscope.core.fix import fix_from_comparison
    from dumpscope.core.fix.report import report_lines

    app = DumpscopeApp(demo_cmp)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await pilot.pause(0.05)
            if app.diagnosis is not None:
                break
        assert app.diagnosis is not None
        await pilot.press("F")
        await pilot.pause(0.1)
        screen = app.screen
        assert isinstance(screen, FixScreen)
        for _ in range(600):  # each trial is a run of the model, off the UI thread
            await pilot.pause(0.1)
            if screen.lines:
                break
        shown = str(screen.query_one("#fix-proof").render())
        # the same search outside the app, from the same diagnosis: the screen shows exactly its proof
        expected = report_lines(fix_from_comparison(demo_cmp, app.diagnosis))
        assert screen.lines == expected
        assert any("proven 1-minimal" in line for line in expected)
        assert "proven 1-minimal" in shown and "without it (trial" in shown
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert not isinstance(app.screen, FixScreen)


async def test_f_on_a_pair_without_a_fix_target_says_why(demo) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(compare(demo.golden, demo.golden))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            if app.progress is None and app.comparison is not None:
                break
        await pilot.press("F")
        screen = app.screen
        assert isinstance(screen, FixScreen)
        for _ in range(100):
            await pilot.pause(0.05)
            if screen.lines:
                break
        assert screen.lines == [
            "no fix search for this pair: the target dump was made for no target; the fix search works "
            "for fp16, bf16, int8 (dumpscope dump --target ...)"
        ]
