"""What the UI costs the comparison while it fills in: the collector's full passes wait."""

from __future__ import annotations

import gc
import time
from pathlib import Path

import pytest

from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.collector import PAUSED, FullPassPause
from dumpscope.tui.app.feed import CompareRequest
from tests.support.tui import SIZE, settle


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


async def test_full_passes_wait_while_the_comparison_fills(
    slower_compare: None, thresholds: tuple[int, int, int]
) -> None:
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=SIZE) as pilot:
        while app.rows is None:
            await pilot.pause(0.05)
        assert app.progress is not None and gc.get_threshold()[2] == PAUSED
        await settle(pilot)
        assert app.progress is None and "pending" not in app.comparison.frame["health"].to_list()
        assert gc.get_threshold() == thresholds


async def test_cancel_and_quit_mid_fill_restore_the_thresholds(
    slower_compare: None, thresholds: tuple[int, int, int]
) -> None:
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
    from screenshots.make import generated_frame

    app = DumpscopeApp(Comparison.from_frame(generated_frame(50)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert gc.get_threshold() == thresholds


# -- the footer -------------------------------------------------------------------------

from textual.app import App, ComposeResult  # noqa: E402
from textual.binding import Binding  # noqa: E402
from textual.widget import Widget  # noqa: E402
from textual.widgets import Footer  # noqa: E402

from dumpscope.tui.app.widgets.footer import KeysFooter  # noqa: E402


class _Pane(Widget, can_focus=True):
    def __init__(self, key: str, description: str, *, id: str) -> None:
        super().__init__(id=id)
        self._bindings.bind(key, "noop", description)

    def action_noop(self) -> None:
        pass


class _TwoPanes(App[None]):
    BINDINGS = [Binding("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield _Pane("a", "Alpha", id="one")
        yield _Pane("a", "Alpha", id="same")  # shows the same keys as "one"
        yield _Pane("b", "Beta", id="two")
        yield KeysFooter()


def _rebuilds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count Textual's footer rebuilds (what KeysFooter skips or lets through)."""
    counted: list[int] = []
    original = Footer.recompose

    async def counting(self: Footer) -> None:
        counted.append(1)
        await original(self)

    monkeypatch.setattr(Footer, "recompose", counting)
    return counted


def _footer_text(app: App[None]) -> str:
    return " ".join(str(w.render()) for w in app.query_one(KeysFooter).children)


async def test_footer_rebuilds_only_when_its_keys_change(monkeypatch: pytest.MonkeyPatch) -> None:
    rebuilds = _rebuilds(monkeypatch)
    app = _TwoPanes()
    async with app.run_test(size=(80, 10)) as pilot:
        app.query_one("#one").focus()
        await pilot.pause()
        start = len(rebuilds)
        assert "Alpha" in _footer_text(app) and "Quit" in _footer_text(app)
        app.query_one("#same").focus()  # a bindings change that shows the same keys
        await pilot.pause()
        assert len(rebuilds) == start
        app.query_one("#two").focus()  # other keys: rebuilt
        await pilot.pause()
        assert len(rebuilds) == start + 1
        assert "Beta" in _footer_text(app) and "Alpha" not in _footer_text(app)


async def test_the_explorer_footer_is_built_once_at_start(monkeypatch: pytest.MonkeyPatch) -> None:
    from dumpscope.core.comparison.result import Comparison
    from screenshots.make import generated_frame

    rebuilds = _rebuilds(monkeypatch)
    app = DumpscopeApp(Comparison.from_frame(generated_frame(50)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(rebuilds) == 1  # Textual's Footer rebuilt 6 times here (focus, screen resume, idle...)
        assert "Filter" in _footer_text(app) and "Quit" in _footer_text(app)


def test_the_heap_is_frozen_at_exit_once() -> None:
    """At exit the heap is frozen before the interpreter's last passes (atexit runs first, last registered
    first)."""
    import subprocess
    import sys

    script = (
        "import atexit, gc\n"
        # runs after the freeze
        "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"
        "from dumpscope.tui.app.collector import freeze_at_exit\n"
        "before = atexit._ncallbacks()\n"
        "freeze_at_exit(); freeze_at_exit()\n"
        "print('registered:', atexit._ncallbacks() - before)\n"
        "print('frozen before exit:', gc.get_freeze_count() > 0)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:3] == ["registered: 1", "frozen before exit: False", "frozen at exit: True"]


def test_what_the_first_frame_does_not_show_is_not_imported() -> None:
    """Help, the palette, the lookup screen and the side panes other than the tensor pane load on first
    use."""
    import subprocess
    import sys

    later = [
        "dumpscope.tui.app.screens.help",
        "dumpscope.tui.app.palette",
        "dumpscope.tui.app.screens.lookup",
        "dumpscope.tui.app.widgets.overflow_pane",
        "dumpscope.tui.app.widgets.fusion_pane",
        "dumpscope.tui.app.widgets.module_tree_pane",
        "dumpscope.tui.app.widgets.neighbourhood_pane",
    ]
    script = f"import sys\nimport dumpscope.tui.app.app\nprint([m for m in {later!r} if m in sys.modules])\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


async def test_lazily_loaded_pane_help_and_palette_work(thresholds: tuple[int, int, int]) -> None:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.tui.app.panes import SIDE_PANES
    from dumpscope.tui.app.screens.help import HelpScreen
    from screenshots.make import generated_frame

    app = DumpscopeApp(Comparison.from_frame(generated_frame(50)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for pane in [p for p in SIDE_PANES[1:] if p.useful(app.comparison)]:
            await pilot.press("p")
            await settle(pilot)
            assert app.side.current == pane.id and app.side.query(f"#{pane.id}")
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        assert type(app.screen).__name__ == "CommandPalette"
        providers = {p.__name__ for p in app.screen._provider_classes}  # type: ignore[attr-defined]
        assert "ActionsProvider" in providers


# -- the tensor pane while the comparison fills -------------------------------------------


@pytest.fixture
def slower_compare(monkeypatch: pytest.MonkeyPatch) -> None:
    """compare_stream replaced by 20 steps of 0.15 s over a generated 200-row frame (a fill that outlasts
    a key press and the pane's settling on a loaded machine; the app's exit cancels it)."""
    import polars as pl

    from dumpscope.core.comparison import pipeline as session
    from dumpscope.core.comparison.result import Comparison
    from screenshots.make import generated_frame

    frame = generated_frame(200)

    def slower_stream(golden: Path, target: Path, **_: object):  # type: ignore[no-untyped-def]
        for done in (*range(0, 200, 10), 200):
            health = pl.Series([h if i < done else "pending" for i, h in enumerate(frame["health"])])
            yield session.Progress(done, 200, Comparison.from_frame(frame.with_columns(health=health)))
            time.sleep(0.15)

    monkeypatch.setattr(session, "compare_stream", slower_stream)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """Every tensor read the pane starts: (row, whether the comparison was still filling)."""
    from dumpscope.tui.app.widgets import tensor_pane

    started: list[tuple[int, bool]] = []
    monkeypatch.setattr(tensor_pane, "_no_tensors", lambda cmp, row: None)  # the generated frame has no files
    monkeypatch.setattr(
        tensor_pane.TensorPane,
        "_load",
        lambda self, cmp, position: started.append((position, self.app.progress is not None)),
    )
    return started


async def test_the_landed_row_is_read_when_the_fill_completes(
    slower_compare: None, reads: list[tuple[int, bool]], thresholds: tuple[int, int, int]
) -> None:
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=SIZE) as pilot:
        while app.rows is None or not app.tensor_pane.is_settled or app.tensor_pane.position is None:
            await pilot.pause(0.05)
        assert app.progress is not None and reads == []
        assert "read when the comparison completes" in str(
            app.tensor_pane.query_one("#pane-tensors").render()
        )
        await settle(pilot)
        assert app.progress is None and "pending" not in app.comparison.frame["health"].to_list()
        assert reads and not any(filling for _row, filling in reads)
        assert reads[-1][0] == app.layer_list.selected


async def test_a_row_the_user_moves_to_is_read_at_once(
    slower_compare: None, reads: list[tuple[int, bool]], thresholds: tuple[int, int, int]
) -> None:
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=SIZE) as pilot:
        while app.rows is None:
            await pilot.pause(0.05)
        await pilot.press("j")
        while not app.tensor_pane.is_settled:
            await pilot.pause(0.02)
        assert app.progress is not None and reads == [(1, True)]
