"""Progress in the phase it is in, and a cancel that can still be diagnosed: before any row is listed
the bar says the dumps are being opened (not ``comparing 0/0``); after esc the verdict offers `d`, which
diagnoses the judged rows and says the verdict covers only those -- at 80x24 and 120x40."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import polars as pl
import pytest

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import CompareRequest
from tests.support.tui import screen_text, settle

SIZES = [(80, 24), (120, 40)]


@pytest.fixture
def gated_compare(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """compare_stream that holds before its first table until the returned event is set (the opening
    phase), then fills a generated 200-row frame in 20 steps of 50 ms."""
    from dumpscope.core.comparison import pipeline as session
    from screenshots.make import generated_frame

    frame = generated_frame(200)
    opened = threading.Event()

    def stream(golden: Path, target: Path, **_: object):  # type: ignore[no-untyped-def]
        opened.wait(10)
        for done in (*range(0, 200, 10), 200):
            health = pl.Series([h if i < done else "pending" for i, h in enumerate(frame["health"])])
            yield session.Progress(done, 200, Comparison.from_frame(frame.with_columns(health=health)))
            time.sleep(0.05)

    monkeypatch.setattr(session, "compare_stream", stream)
    return opened


@pytest.mark.parametrize("size", SIZES)
async def test_the_opening_phase_is_named(gated_compare: threading.Event, size: tuple[int, int]) -> None:
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "opening the dumps" in text and "0/0" not in text and "OK 0" not in text
        gated_compare.set()
        while app.rows is None:
            await pilot.pause(0.05)
        await pilot.pause(0.1)
        assert "opening the dumps" not in screen_text(app)


@pytest.mark.parametrize("size", SIZES)
async def test_after_a_cancel_d_diagnoses_what_was_judged(
    gated_compare: threading.Event, size: tuple[int, int]
) -> None:
    gated_compare.set()
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=size) as pilot:
        while app.rows is None or app.rows.health_counts().get("pending", 0) == 200:
            await pilot.pause(0.05)
        await pilot.press("escape")
        await settle(pilot)
        text = screen_text(app)
        assert "comparison cancelled at" in text and "d diagnoses" in text
        assert app.diagnosis is None
        judged = 200 - app.rows.health_counts().get("pending", 0)
        await pilot.press("d")
        for _ in range(200):
            await settle(pilot)
            if app.diagnosis is not None:
                break
        assert app.diagnosis is not None
        assert "judged before the cancel" in screen_text(app)
        assert app._judged is None  # offered once
        assert judged > 0


async def test_at_80x24_a_filling_list_keeps_its_share(gated_compare: threading.Event) -> None:
    """The list is held to its rows only once the table is complete (it was held to its header when the
    fill started with no rows yet, and stayed one line high)."""
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)  # laid out, no row yet: the view is applied (as a key press would)
        app.view = app.view
        await pilot.pause(0.1)
        gated_compare.set()
        while app.rows is None or app.progress is not None:
            await pilot.pause(0.05)
        await settle(pilot)
        assert app.layer_list.size.height > 5 and int(app.layer_list.view.size) == 200


def test_the_counter_says_when_the_list_lags_it() -> None:
    """Counts come from the last table the list got, the counter from every batch: when the table lags,
    the bar says how many rows the list shows, so the two never silently disagree."""
    from dumpscope.tui.app.widgets.summary_bar import Summary, _count_parts

    def text(**kw: object) -> str:
        return " ".join(part.plain for part in _count_parts(Summary(**kw)))  # type: ignore[arg-type]

    lagging = text(counts={"ok": 90, "fail": 10, "pending": 900}, progress=(300, 1000))
    assert "comparing 300/1000; the list shows 100 so far" in lagging
    caught_up = text(counts={"ok": 280, "fail": 20, "pending": 700}, progress=(300, 1000))
    assert "comparing 300/1000 (esc cancels)" in caught_up and "so far" not in caught_up
    assert "opening the dumps" in text(progress=(0, 0))
