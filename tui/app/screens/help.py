"""Help generated from the live bindings (the user's keymap included), and the list behind the palette."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static


@dataclass(frozen=True)
class KeyHelp:
    """One action: the node that runs it, its keys after the keymap, and what it does."""

    node: DOMNode
    action: str
    keys: tuple[str, ...]
    description: str
    id: str | None


def collect_bindings(nodes: list[DOMNode]) -> list[KeyHelp]:
    """Bindings of ``nodes`` (in order) with the app's keymap applied; one entry per action.

    Only bindings with an id are listed: those are ours and remappable; the ones a
    widget inherits (horizontal scrolling of a list that never scrolls sideways...) are noise.
    """
    found: dict[tuple[int, str], KeyHelp] = {}
    for node in nodes:
        bindings_map = node._bindings.copy()
        keymap = node.app._keymap
        if keymap:
            bindings_map.apply_keymap(keymap)
        for key, bindings in bindings_map.key_to_bindings.items():
            for binding in bindings:
                if not binding.description or not binding.id:
                    continue
                slot = (id(node), binding.action)
                display = node.app.get_key_display(binding.with_key(key))
                old = found.get(slot)
                keys = (old.keys if old else ()) + (display,)
                found[slot] = KeyHelp(node, binding.action, keys, binding.description, binding.id)
    return list(found.values())


class HelpScreen(ModalScreen[None]):
    """Every key of the focused context, grouped by where it applies."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close help", id="help.close"),
    ]

    def __init__(self, sections: list[tuple[str, list[KeyHelp]]]) -> None:
        super().__init__()
        self._sections = sections

    def compose(self) -> ComposeResult:
        lines: list[Content] = []
        for title, entries in self._sections:
            if not entries:
                continue
            lines.append(Content.from_markup("[b $accent]$title[/]", title=title))
            for entry in entries:
                lines.append(Content.from_markup(
                    "  [b]$keys[/b] $what[$text-muted]$ident[/]",
                    keys=f"{', '.join(entry.keys):<22}", what=f"{entry.description:<34}", ident=entry.id or ""))
            lines.append(Content(""))
        lines.append(Content.from_markup(
            "[$text-muted]Filter syntax: words match names; op:Conv  health:fail|warn|error|bad  "
            "kind:  side:  dtype:  #10-20 (indices). Keys can be remapped in keymap.toml by binding id.[/]"))
        with VerticalScroll(id="help-body"):
            yield Static(Content("\n").join(lines), id="help-text")
