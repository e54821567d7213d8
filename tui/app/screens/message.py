"""A full-screen message for a failure that leaves nothing to show (e.g. a dump that cannot be read)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static


class MessageScreen(Screen[None]):
    """Says what went wrong in plain words; q or esc quits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape,enter", "app.quit", "Quit", id="message.quit"),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self._title, self._text = title, text

    def compose(self) -> ComposeResult:
        with Vertical(id="message-box"):
            yield Static(Content.from_markup("[b $error]$title[/]", title=self._title), id="message-title")
            yield Static(Content(self._text), id="message-text")
            yield Static(
                "[$text-muted]Press q to quit.  `dumpscope compare --debug ...` shows the details.[/]",
                id="message-hint",
            )
