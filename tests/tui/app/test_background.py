"""The background-work helper and the side-pane registry of the app package."""

from __future__ import annotations

import threading

import pytest
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Static

from dumpscope.tui.app import panes
from dumpscope.tui.app.background import StaleGuard, Superseded, run_in_background
from dumpscope.tui.app.widgets.module_tree_pane import ModuleTreePane
from dumpscope.tui.app.widgets.row_facts_pane import RowFactsPane
from dumpscope.tui.app.widgets.tensor_pane import TensorPane


def test_stale_guard_only_the_newest_token_counts() -> None:
    guard = StaleGuard()
    first = guard.begin()
    second = guard.begin()
    assert not guard.is_current(first) and guard.is_current(second)
    guard.invalidate()
    assert not guard.is_current(second)


class Answer(Message):
    def __init__(self, token: int, result: object, problem: str | None) -> None:
        super().__init__()
        self.token, self.result, self.problem = token, result, problem


class Worker(Static):
    def __init__(self) -> None:
        super().__init__()
        self.guard = StaleGuard()
        self.shown: list[tuple[object, str | None]] = []

    def ask(self, compute) -> None:  # type: ignore[no-untyped-def]
        token = self.guard.begin()
        run_in_background(self, compute, lambda result, problem: Answer(token, result, problem))

    def on_answer(self, message: Answer) -> None:
        if self.guard.is_current(message.token):
            self.shown.append((message.result, message.problem))


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Worker()


async def _settle(app: App[None], pilot) -> None:  # type: ignore[no-untyped-def]
    """Until every worker has finished (a cancelled one too) and its message was handled."""
    for _ in range(250):
        if all(worker.is_finished for worker in app.workers):
            break
        await pilot.pause(0.02)
    await pilot.pause()


async def test_late_answers_are_dropped_and_failures_become_problems() -> None:
    app = Host()
    async with app.run_test() as pilot:
        w = app.query_one(Worker)
        gate = threading.Event()

        def slow() -> str:
            gate.wait(5)
            return "old"

        w.ask(slow)
        w.ask(lambda: "new")  # supersedes the slow one (exclusive worker, newer token)
        gate.set()
        await _settle(app, pilot)
        assert w.shown == [("new", None)]

        def broken() -> str:
            raise KeyError("x")

        w.ask(broken)
        await _settle(app, pilot)
        assert w.shown[-1] == (None, "KeyError: 'x'")

        def gives_up() -> str:
            raise Superseded

        w.ask(gives_up)
        await _settle(app, pilot)
        assert len(w.shown) == 2  # no answer at all


def test_the_registry_cycles_the_useful_panes_most_useful_first() -> None:
    ids = [p.id for p in panes.SIDE_PANES]
    assert ids == ["tensor", "neighbourhood", "fusion", "overflow", "modules"]
    assert panes.next_pane("tensor").id == "tensor"  # no comparison yet: only the tensor pane has anything
    assert panes.next_pane(None).id == "tensor"
    assert isinstance(panes.pane("tensor").make("t"), TensorPane)
    # the row panes; the msprobe module pane (issue 15) shows a tree, not facts about the row
    row_panes = [p for p in panes.SIDE_PANES[1:] if p.id != "modules"]
    assert [p.id for p in row_panes] == ["neighbourhood", "fusion", "overflow"]
    assert all(isinstance(p.make(p.id), RowFactsPane) for p in row_panes)
    assert isinstance(panes.pane("modules").make("m"), ModuleTreePane)


def test_a_pane_registers_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(panes, "SIDE_PANES", list(panes.SIDE_PANES))
    added = panes.register_pane("extra", "extra", lambda pane_id: Static(id=pane_id))
    before = panes.SIDE_PANES[-2].id  # the last pane registered before this one
    assert panes.SIDE_PANES[-1] is added and panes.next_pane(before).id == "extra"
    with pytest.raises(ValueError, match="registered twice"):
        panes.register_pane("extra", "again", lambda pane_id: Static(id=pane_id))
