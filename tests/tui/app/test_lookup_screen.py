"""The error-lookup screen, driven with Pilot, plus one snapshot (120x40, textual-dark)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from dumpscope.core.knowledge import KnowledgeBase, load_kb
from dumpscope.tui.app.screens.lookup import LookupApp, LookupScreen

SIZE = (120, 40)
THEME = "textual-dark"
OP_MESSAGE = (
    "E50059: In op[neck.fpn.conv_7], x channel should be equal to filter channel*groups, "
    "x shape is: [1,64,40,40], filter shape is: [128,32,3,3], groups is: [1]"
)
SnapCompare = Callable[..., bool]


@pytest.fixture(autouse=True)
def _deterministic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr(Input, "_toggle_cursor", lambda _self: None)


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_kb(user_dir=Path("/nonexistent-dumpscope-test"))


class Host(App[None]):
    """Stands in for the main app: pushes the screen and records JumpToOp."""

    def __init__(self, kb: KnowledgeBase, known_ops: Callable[[str], bool] | None = None) -> None:
        super().__init__()
        self.kb = kb
        self.known_ops = known_ops
        self.jumps: list[str] = []
        self.lookup_closed = False

    def compose(self) -> ComposeResult:
        yield Static("layer list")

    def on_mount(self) -> None:
        self.theme = THEME
        self.push_screen(LookupScreen(self.kb, known_ops=self.known_ops), callback=self._lookup_closed)

    def _lookup_closed(self, _result: None) -> None:
        self.lookup_closed = True

    def on_lookup_screen_jump_to_op(self, event: LookupScreen.JumpToOp) -> None:
        self.jumps.append(event.op_name)


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def type_message(pilot: Pilot[None], text: str) -> None:
    pilot.app.screen.query_one(Input).value = text
    await settle(pilot)


async def test_typing_shows_ranked_results(kb: KnowledgeBase) -> None:
    app = Host(kb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, LookupScreen)
        await pilot.press(*"retCode=0x26")
        await settle(pilot)
        assert screen.matches and screen.matches[0].entry.id == "ascend-507015-retCode-0x26"
        results = screen.query_one(OptionList)
        assert results.option_count == len(screen.matches)


async def test_expand_and_jump_to_op(kb: KnowledgeBase) -> None:
    app = Host(kb, known_ops=lambda name: name == "neck.fpn.conv_7")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_message(pilot, OP_MESSAGE)
        screen = app.screen
        assert isinstance(screen, LookupScreen)
        results = screen.query_one(OptionList)
        before = results.option_count
        await pilot.press("down")  # from the input to the results
        assert results.has_focus and results.highlighted == 0
        await pilot.press("enter")  # expand the best match
        await pilot.pause()
        assert results.option_count == before + 1  # one linkable op under it
        expanded = str(results.get_option_at_index(0).prompt)
        assert "cause" in expanded and "fix" in expanded and "op=neck.fpn.conv_7" in expanded
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.jumps == ["neck.fpn.conv_7"]
        await pilot.press("up", "enter")  # collapse again
        await pilot.pause()
        assert results.option_count == before


async def test_unknown_ops_are_not_links(kb: KnowledgeBase) -> None:
    app = Host(kb, known_ops=lambda _name: False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_message(pilot, OP_MESSAGE)
        results = app.screen.query_one(OptionList)
        before = results.option_count
        await pilot.press("down", "enter")
        await pilot.pause()
        assert results.option_count == before
        assert "not in the layer list: neck.fpn.conv_7" in str(results.get_option_at_index(0).prompt)


async def test_stale_results_are_dropped(kb: KnowledgeBase) -> None:
    app = Host(kb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_message(pilot, OP_MESSAGE)
        screen = app.screen
        assert isinstance(screen, LookupScreen)
        shown = screen.matches
        screen._show("an older query", kb.lookup("retCode=0x26"), len(kb))
        assert screen.matches == shown


async def test_escape_closes_and_printable_keys_type(kb: KnowledgeBase) -> None:
    app = Host(kb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("q", "j", "e")
        assert app.screen.query_one(Input).value == "qje"
        await pilot.press("escape")
        await pilot.pause()
        assert app.lookup_closed and not isinstance(app.screen, LookupScreen)


def test_no_printable_binding_is_priority() -> None:
    for binding in LookupScreen.BINDINGS:
        keys = binding.key.split(",")  # type: ignore[union-attr]
        assert not (binding.priority and any(len(k) == 1 for k in keys))  # type: ignore[union-attr]


async def test_standalone_app_loads_its_own_kb() -> None:
    app = LookupApp(message="rknn_init fail! ret=-6")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, LookupScreen)
        assert screen.matches and any("RKNN" in m.entry.code or "rknn" in m.entry.id for m in screen.matches)
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_value is None


def test_jump_to_op_is_a_message() -> None:
    msg = LookupScreen.JumpToOp("a/b:0")
    assert isinstance(msg, Message) and msg.op_name == "a/b:0"


def test_snapshot(snap_compare: SnapCompare, kb: KnowledgeBase) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await type_message(pilot, OP_MESSAGE)
        await pilot.press("down", "enter")
        await settle(pilot)

    assert snap_compare(Host(kb, known_ops=lambda n: True), terminal_size=SIZE, run_before=run_before)


# --- issue 12: pasted blocks, enter, whole-sentence summaries ---------------------------------

BLOCK = (
    "[INFO] starting conversion\n"
    "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n"
    "E10001: Value [NCWH] for parameter [--input_format] is invalid. Reason: expected NCHW or ND"
)


async def test_a_pasted_multiline_message_is_kept_whole(kb: KnowledgeBase) -> None:
    from textual import events

    from dumpscope.tui.app.screens.lookup import NEWLINE_MARK, message_text

    async with Host(kb).run_test(size=SIZE) as pilot:
        await settle(pilot)
        field = pilot.app.screen.query_one(Input)
        field.post_message(events.Paste(BLOCK))
        await settle(pilot)
        assert NEWLINE_MARK in field.value
        assert message_text(field.value) == BLOCK
        screen = pilot.app.screen
        assert isinstance(screen, LookupScreen)
        assert screen.matches and screen.matches[0].entry.code == "E10001"


async def test_enter_opens_the_best_match(kb: KnowledgeBase) -> None:
    async with Host(kb).run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_message(pilot, OP_MESSAGE)
        await pilot.press("enter")
        await settle(pilot)
        results = pilot.app.screen.query_one(OptionList)
        assert results.has_focus
        assert results.highlighted == 0
        first = results.get_option_at_index(0).prompt
        assert "cause" in str(first) and "fix" in str(first)


def test_summaries_are_whole_sentences() -> None:
    from dumpscope.tui.app.screens.lookup import first_sentence

    text = "An option was given a bad value, e.g. NCWH for --input_format. Read the Reason part."
    assert first_sentence(text) == "An option was given a bad value, e.g. NCWH for --input_format."
    long = "word " * 100
    cut = first_sentence(long, limit=50)
    assert cut.endswith("...") and len(cut) <= 50 and not cut[:-3].endswith("wor")
