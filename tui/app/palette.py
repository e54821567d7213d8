"""The command palette (ctrl+p): every bound action, each sort column and the common filters."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from dumpscope.tui.app.screens.help import KeyHelp
from dumpscope.tui.app.widgets.layer_rows import SORT_KEYS


class PaletteHost(Protocol):
    """What the palette needs from the app: the bindings the help screen lists."""

    def key_help(self) -> list[KeyHelp]: ...


@dataclass(frozen=True)
class PaletteEntry:
    """One command palette line: what it says, which action it runs where, and its keys."""

    title: str
    action: str
    node: Any
    keys: str = ""


QUICK_FILTERS: tuple[tuple[str, str], ...] = (
    ("Show only unhealthy rows (warn, fail, error)", "health:bad"),
    ("Show only failing rows", "health:fail"),
    ("Show only rows that could not be compared", "health:error"),
    ("Show only unmatched tensors", "health:only"),
)


class ActionsProvider(Provider):
    """Command palette: every bound action, plus each sort column and the common filters."""

    def _entries(self) -> list[PaletteEntry]:
        app = cast(PaletteHost, self.app)
        entries = [PaletteEntry(e.description, e.action, e.node, ", ".join(e.keys)) for e in app.key_help()]
        entries += [PaletteEntry(f"Sort by {key.label}", f"sort_by({key.id!r})", app) for key in SORT_KEYS]
        entries += [PaletteEntry(title, f"filter_to({text!r})", app, text) for title, text in QUICK_FILTERS]
        return entries

    def _run(self, entry: PaletteEntry) -> None:
        self.app.call_later(self.app.run_action, entry.action, entry.node)

    async def discover(self) -> Hits:
        for entry in self._entries():
            yield DiscoveryHit(entry.title, partial(self._run, entry), help=entry.keys)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for entry in self._entries():
            score = matcher.match(entry.title)
            if score > 0:
                yield Hit(score, matcher.highlight(entry.title), partial(self._run, entry), help=entry.keys)
