"""The error-lookup screen: type or paste a message, see ranked causes and fixes as you type.

Usable on its own (:class:`LookupApp`, what ``dumpscope explain`` without a message opens)
and from the main app, which pushes :class:`LookupScreen` and handles
:class:`LookupScreen.JumpToOp` to select the layer of a captured op name.

Lookups run in a thread worker (``exclusive``, so a new keystroke supersedes the previous
lookup) and a result is shown only if the input still holds the text it was computed for.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

if TYPE_CHECKING:
    from dumpscope.core.knowledge import KnowledgeBase, Match

MAX_RESULTS = 20
NEWLINE_MARK = " ⏎ "
"""How a line break of a pasted multi-line message shows in the one-line input."""
SUMMARY_LIMIT = 240
_ABBREVIATIONS = ("e.g", "i.e", "etc", "vs", "cf", "approx", "no", "fig", "incl")
_SENTENCE_END = re.compile(r"[.!?](?=\s)")


def message_text(value: str) -> str:
    """The message an input value stands for (line breaks of a paste restored)."""
    return value.replace(NEWLINE_MARK, "\n")


def first_sentence(text: str, limit: int = SUMMARY_LIMIT) -> str:
    """The first whole sentence of ``text`` (not cut at "e.g." or "i.e."), at most ``limit`` characters.

    A first sentence longer than ``limit`` is cut at a word boundary and ends with "...".
    """
    sentence = _first_sentence(text)
    if len(sentence) <= limit:
        return sentence
    return sentence[: limit - 3].rsplit(" ", 1)[0] + "..."


def _first_sentence(text: str) -> str:
    """``text`` up to the first sentence end that is not an abbreviation's dot (all of it if none)."""
    for m in _SENTENCE_END.finditer(text):
        if not _is_abbreviation(text, m):
            return text[: m.end()]
    return text


def _is_abbreviation(text: str, end: re.Match[str]) -> bool:
    """A dot after a known abbreviation ("e.g", "i.e", "etc") or a single letter is not a sentence end."""
    words = text[: end.start()].split()
    last = words[-1].lower().lstrip("(") if words else ""
    return end.group(0) == "." and (last in _ABBREVIATIONS or len(last) == 1)


class MessageInput(Input):
    """A one-line input that keeps a pasted multi-line message whole (line breaks shown as ⏎)."""

    def _on_paste(self, event: events.Paste) -> None:
        if "\n" not in event.text and "\r" not in event.text:
            super()._on_paste(event)
            return
        text = event.text.replace("\r\n", "\n").replace("\r", "\n").strip("\n").replace("\n", NEWLINE_MARK)
        selection = self.selection
        if selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *selection)
        event.stop()
        event.prevent_default()


def _status_text(query: str, matches: list[Match], kb_size: int) -> str:
    """The status line under the results."""
    if not query.strip():
        return f"{kb_size} known messages.  Type or paste an error message."
    if matches:
        return f"{len(matches)} match(es), best first.  enter: details  esc: back"
    from dumpscope.core.knowledge import user_kb_dir

    return f"No known cause.  Add your own entries in {user_kb_dir()}/*.jsonl."


def _highlight(results: OptionList, options: list[Option], option_id: str) -> None:
    """Move the highlight to the option with this id, if it is there."""
    index = next((k for k, o in enumerate(options) if o.id == option_id), None)
    if index is not None:
        results.highlighted = index


def _op_option(i: int, j: int, name: str) -> Option:
    label = Content.assemble(Content.from_markup("    [b $accent]→ go to layer[/]"), " " + name)
    return Option(label, id=f"op{i}.{j}")


def _match_head(m: Match) -> Content:
    """Badge, score, tool, code (as the message prints it), stage (and a user entry's origin) on one line."""
    from dumpscope.core.knowledge.answer import shown_code

    e = m.entry
    code = shown_code(m)
    colour, word = _badge(m)
    return Content.assemble(
        Content.from_markup(f"[b {colour}]{word}[/]"),
        Content.styled(f" {m.score:3.0f}  ", "bold"),
        Content.styled(e.tool, "bold"),
        f"  {code}  " if code else "  ",
        Content.styled(e.stage + ("" if e.origin == "builtin" else f"  [{e.origin}]"), "dim"),
    )


def _badge(m: Match) -> tuple[str, str]:
    """(theme variable, glyph and word) for a match: readable without colour too."""
    if m.entry.uncertain:
        return "$warning", "? UNCERTAIN"
    if "code" in m.reason or "pattern" in m.reason:
        return ("$accent", "~ generic") if m.entry.generic else ("$success", "✓ " + m.reason)
    return "$warning", "~ words"


def _field(label: str, text: str, style: str = "") -> Content:
    """``  label   text`` with the label in bold, the text as is (never parsed as markup)."""
    return Content.assemble(
        "  ", Content.styled(f"{label:<7}", "bold"), Content.styled(text, style) if style else text
    )


class LookupScreen(Screen[None]):
    """Search-as-you-type over the error knowledge base."""

    DEFAULT_CSS = """
    LookupScreen { layout: vertical; }
    LookupScreen #lookup-title { padding: 0 1; text-style: bold; }
    LookupScreen #lookup-input { margin: 0 0; }
    LookupScreen #lookup-status { padding: 0 1; color: $text-muted; }
    LookupScreen #lookup-results { height: 1fr; }
    LookupScreen #lookup-results > .option-list--option { padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="lookup.close"),
        Binding("down", "focus_results", "Results", show=False, id="lookup.results"),
        Binding("ctrl+l", "focus_input", "Edit message", id="lookup.edit"),
    ]

    class JumpToOp(Message):
        """The user chose a captured op name: show that layer."""

        def __init__(self, op_name: str) -> None:
            super().__init__()
            self.op_name = op_name

    def __init__(
        self,
        kb: KnowledgeBase | None = None,
        *,
        message: str = "",
        known_ops: Callable[[str], bool] | None = None,
        top: int = MAX_RESULTS,
    ) -> None:
        super().__init__()
        self._kb = kb
        self._initial = message
        self._known_ops = known_ops
        self._top = top
        self._matches: list[Match] = []
        self._expanded: set[int] = set()
        self._shown_for: str | None = None
        self._open_when_shown = False

    def compose(self) -> ComposeResult:
        yield Static(
            "Error lookup: paste or type a message (Ascend, SigmaStar, RKNN, TensorRT, ONNX Runtime...)",
            id="lookup-title",
        )
        yield MessageInput(
            value=self._initial.replace("\n", NEWLINE_MARK),
            placeholder="e.g. E10001 ... or [ONNXRuntimeError] : 10 : INVALID_GRAPH  (multi-line pastes are "
            "kept whole)",
            id="lookup-input",
        )
        yield Static("", id="lookup-status")
        yield OptionList(id="lookup-results")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._set_status("Loading the knowledge base...")
        self._search(self._initial)

    # --- searching ---------------------------------------------------------------------

    @on(Input.Changed, "#lookup-input")
    def _input_changed(self, event: Input.Changed) -> None:
        self._search(event.value)

    @on(Input.Submitted, "#lookup-input")
    def _input_submitted(self, event: Input.Submitted) -> None:
        """``enter`` in the input opens the best match (once the results for this text are on show)."""
        if event.value == self._shown_for and self._matches:
            self._open_best()
        else:
            self._open_when_shown = True

    @work(thread=True, exclusive=True, group="lookup", exit_on_error=False)
    def _search(self, query: str) -> None:
        from textual.worker import get_current_worker

        kb = self._ensure_kb()
        text = message_text(query)
        matches = kb.lookup(text, top=self._top) if text.strip() else []
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show, query, matches, len(kb))

    def _ensure_kb(self) -> KnowledgeBase:
        if self._kb is None:
            from dumpscope.core.knowledge import load_kb

            self._kb = load_kb()
        return self._kb

    def _show(self, query: str, matches: list[Match], kb_size: int) -> None:
        if query != self.query_one(Input).value:
            return  # stale: the user typed on
        self._matches = matches
        self._shown_for = query
        self._expanded = set()
        self._rebuild()
        if self._open_when_shown and matches:
            self._open_best()
        self._open_when_shown = False
        self._set_status(_status_text(query, matches, kb_size))

    # --- results -------------------------------------------------------------------------

    def _rebuild(self, highlight: str | None = None) -> None:
        results = self.query_one("#lookup-results", OptionList)
        options = [o for i, m in enumerate(self._matches) for o in self._match_options(i, m)]
        results.set_options(options)
        if highlight is not None:
            _highlight(results, options, highlight)

    def _match_options(self, i: int, m: Match) -> list[Option]:
        """A match's row, and when expanded one "go to layer" row per operator it names that the model has."""
        options = [Option(self._render_match(m, i in self._expanded), id=f"r{i}")]
        if i in self._expanded:
            options += [_op_option(i, j, name) for j, name in enumerate(m.op_names) if self._is_known(name)]
        return options

    def _is_known(self, name: str) -> bool:
        """Whether the layer list has a layer of this name (never, without a layer list: a captured name
        may be an op type, and there is no row to go to)."""
        return self._known_ops is not None and self._known_ops(name)

    def _render_match(self, m: Match, expanded: bool) -> Content:
        head = _match_head(m)
        if not expanded:
            return Content("\n").join([head, Content("  " + first_sentence(m.cause))])
        return Content("\n").join([head, *self._details(m)])

    def _details(self, m: Match) -> list[Content]:
        """Cause, fix, captured parts (and operators the layer list lacks), source."""
        e = m.entry
        parts = [_field("cause", m.cause), _field("fix", m.fix)]
        if m.captures:
            parts += self._found_lines(m)
        parts.append(_field("source", e.source, "dim"))
        return parts

    def _found_lines(self, m: Match) -> list[Content]:
        lines = [_field("found", ", ".join(f"{k}={v}" for k, v in m.captures))]
        unknown = [n for n in m.op_names if not self._is_known(n)]
        if unknown and self._known_ops is not None:  # without a layer list there is nothing to be in
            lines.append(Content.styled("  not in the layer list: " + ", ".join(unknown), "dim"))
        return lines

    @on(OptionList.OptionSelected, "#lookup-results")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        if option_id.startswith("r"):
            index = int(option_id[1:])
            self._expanded ^= {index}
            self._rebuild(highlight=option_id)
        elif option_id.startswith("op"):
            i, j = (int(x) for x in option_id[2:].split("."))
            self.post_message(self.JumpToOp(self._matches[i].op_names[j]))

    # --- actions -------------------------------------------------------------------------

    def _open_best(self) -> None:
        """Expand the best match and move the focus to it."""
        self._expanded = {0}
        self._rebuild(highlight="r0")
        results = self.query_one("#lookup-results", OptionList)
        results.focus()

    def action_focus_results(self) -> None:
        results = self.query_one("#lookup-results", OptionList)
        if results.option_count:
            results.focus()
            if results.highlighted is None:
                results.highlighted = 0

    def action_focus_input(self) -> None:
        self.query_one(Input).focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def _set_status(self, text: str) -> None:
        self.query_one("#lookup-status", Static).update(Content(text))

    @property
    def matches(self) -> list[Match]:
        """The results on show (best first)."""
        return list(self._matches)


class LookupApp(App[None]):
    """``dumpscope explain`` with no message: the lookup screen on its own."""

    TITLE = "dumpscope explain"

    def __init__(self, kb: KnowledgeBase | None = None, message: str = "") -> None:
        super().__init__()
        self._kb = kb
        self._message = message

    def on_mount(self) -> None:
        self.push_screen(LookupScreen(self._kb, message=self._message), callback=lambda _result: self.exit())

    def on_lookup_screen_jump_to_op(self, event: LookupScreen.JumpToOp) -> None:
        self.notify(f"{event.op_name}: open a comparison (dumpscope GOLDEN TARGET) to jump to its layer.")
