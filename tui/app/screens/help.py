"""Help generated from the live bindings (the user's keymap included), and the list behind the palette."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.dom import DOMNode
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
        for key, binding in _listed_bindings(node):
            _add_key(found, node, key, binding)
    return list(found.values())


def _listed_bindings(node: DOMNode) -> list[tuple[str, Binding]]:
    """``(key, binding)`` of the node's described bindings with an id, the app's keymap applied."""
    bindings_map = node._bindings.copy()
    keymap = node.app._keymap
    if keymap:
        bindings_map.apply_keymap(keymap)
    return [
        (key, binding)
        for key, bindings in bindings_map.key_to_bindings.items()
        for binding in bindings
        if binding.description and binding.id
    ]


def _add_key(found: dict[tuple[int, str], KeyHelp], node: DOMNode, key: str, binding: Binding) -> None:
    """One more key for the node's action (the first key seen makes the entry)."""
    slot = (id(node), binding.action)
    display = node.app.get_key_display(binding.with_key(key))
    old = found.get(slot)
    keys = (old.keys if old else ()) + (display,)
    found[slot] = KeyHelp(node, binding.action, keys, binding.description, binding.id)


def filter_help() -> list[Content]:
    """The filter grammar, generated from :data:`~dumpscope.tui.app.filters.FILTER_FIELDS`."""
    from dumpscope.tui.app.filters import FILTER_FIELDS, NUMERIC_KEYS

    shorts = ", ".join(key for key in NUMERIC_KEYS if "_" not in key)
    lines = [
        Content.from_markup("[b $accent]Filter (/)[/]"),
        Content.from_markup(
            "  [b]$key[/b] $what", key=f"{'words':<22}", what="name or op type contains (either side's name)"
        ),
        Content.from_markup(
            "  [b]$key[/b] $what",
            key=f"{'cosine<0.999 rel>0.01':<22}",
            what=f"a metric compared (< <= > >= = !=): {shorts} or any column name",
        ),
        Content.from_markup(
            "  [b]$key[/b] $what", key=f"{'#N  #N-M':<22}", what="topological index or range"
        ),
    ]
    for field in FILTER_FIELDS.values():
        lines.append(
            Content.from_markup("  [b]$key[/b] $what", key=f"{field.key + ':':<22}", what=field.help)
        )
    lines.append(
        Content.from_markup(
            "  [$text-muted]terms are ANDed; a,b after a key means either; → completes a key[/]"
        )
    )
    return [*lines, Content("")]


def pane_help(app: App[object]) -> list[Content]:
    """The side panes `p` cycles through for this comparison, in order, each with what it shows."""
    from dumpscope.tui.app.panes import SIDE_PANES

    comparison = getattr(app, "comparison", None)
    lines = [Content.from_markup("[b $accent]Side panes (p cycles the ones with something to show)[/]")]
    for pane in SIDE_PANES:
        here = pane.useful(comparison)
        what = pane.help + ("" if here else " [nothing here for this comparison]")
        lines.append(Content.from_markup("  [b]$key[/b] $what", key=f"{pane.title:<22}", what=what))
    return [*lines, Content("")]


#: Textual's own bindings worth knowing (they have no id of ours), by action: what they do here.
BUILT_IN_ACTIONS: dict[str, str] = {
    "app.focus_next": "Focus the next pane (list, side pane)",
    "app.focus_previous": "Focus the previous pane",
}


def built_in_keys(app: App[object]) -> list[tuple[str, str]]:
    """(keys, what) of Textual's focus bindings and the command palette key, read from the live app."""
    from textual.screen import Screen

    found = [
        (app.get_key_display(b), BUILT_IN_ACTIONS[b.action])
        for b in Screen.BINDINGS
        if isinstance(b, Binding) and b.action in BUILT_IN_ACTIONS
    ]
    if app.ENABLE_COMMAND_PALETTE:
        key = app.get_key_display(Binding(app.COMMAND_PALETTE_BINDING, "command_palette"))
        found.append((key, "Command palette: every action by name"))
    return found


class HelpScreen(ModalScreen[None]):
    """Every key of the focused context, grouped by where it applies."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close help", id="help.close"),
        Binding("j,down", "scroll(1)", "Scroll down", show=False, id="help.down"),
        Binding("k,up", "scroll(-1)", "Scroll up", show=False, id="help.up"),
        Binding("ctrl+d,pagedown,space", "page(1)", "Page down", show=False, id="help.page_down"),
        Binding("ctrl+u,pageup", "page(-1)", "Page up", show=False, id="help.page_up"),
        Binding("g,home", "edge(0)", "Top", show=False, id="help.top"),
        Binding("G,end", "edge(1)", "Bottom", show=False, id="help.bottom"),
    ]

    def action_scroll(self, lines: int) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        body.scroll_relative(y=lines, animate=False)

    def action_page(self, direction: int) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        body.scroll_relative(y=direction * max(1, body.size.height - 1), animate=False)

    def action_edge(self, bottom: int) -> None:
        body = self.query_one("#help-body", VerticalScroll)
        (body.scroll_end if bottom else body.scroll_home)(animate=False)

    def __init__(self, sections: list[tuple[str, list[KeyHelp]]]) -> None:
        super().__init__()
        self._sections = sections

    def compose(self) -> ComposeResult:
        lines: list[Content] = [Content.from_markup("[b $accent]Focus and commands[/]")]
        lines += [
            Content.from_markup("  [b]$keys[/b] $what", keys=f"{keys:<22}", what=what)
            for keys, what in built_in_keys(self.app)
        ]
        lines.append(Content(""))
        for title, entries in self._sections:
            if not entries:
                continue
            lines.append(Content.from_markup("[b $accent]$title[/]", title=title))
            for entry in entries:
                lines.append(
                    Content.from_markup(
                        "  [b]$keys[/b] $what[$text-muted]$ident[/]",
                        keys=f"{', '.join(entry.keys):<22}",
                        what=f"{entry.description:<34}",
                        ident=entry.id or "",
                    )
                )
            lines.append(Content(""))
        lines += pane_help(self.app)
        lines += filter_help()
        lines.append(
            Content.from_markup("[$text-muted]Keys can be remapped in keymap.toml by binding id.[/]")
        )
        with VerticalScroll(id="help-body"):
            yield Static(Content("\n").join(lines), id="help-text")
