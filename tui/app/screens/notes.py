"""A modal list of notes about the comparison's inputs (unreadable files, different inputs...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static


class NotesScreen(ModalScreen[None]):
    """Shows ``notes`` one per paragraph; esc closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,w", "dismiss", "Close", id="notes.close"),
    ]

    def __init__(self, title: str, notes: Sequence[str]) -> None:
        super().__init__()
        self._title, self._notes = title, list(notes)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="notes-body"):
            yield Static(Content.from_markup("[b $warning]$title[/]", title=self._title))
            for note in self._notes:
                yield Static(Content(f"• {note}"), classes="note")
