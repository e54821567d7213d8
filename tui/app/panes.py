"""The side panes `p` cycles through, in order: one registration per pane.

The tensor pane is the first and is always mounted; every other pane is a widget mounted
on first use.  A pane that shows facts about the selected row subclasses
:class:`~dumpscope.tui.app.widgets.row_facts_pane.RowFactsPane` (the app calls its
``show(comparison, row)`` whenever the row or the comparison changes while it is shown).
Adding a pane is one widget plus one :func:`register_pane` call here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

from textual.widget import Widget

from dumpscope.tui.app.widgets.tensor_pane import TensorPane


@dataclass(frozen=True)
class SidePane:
    """A side pane: its widget id, the name the notification shows, and how to make it."""

    id: str
    title: str
    make: Callable[[str], Widget]
    """``make(id)`` -> the widget (called once, when the pane is first shown)."""


SIDE_PANES: list[SidePane] = []
"""Every side pane in `p` order; the first is shown at start."""


def register_pane(pane_id: str, title: str, make: Callable[[str], Widget]) -> SidePane:
    """Add a side pane at the end of the `p` cycle."""
    if any(p.id == pane_id for p in SIDE_PANES):
        raise ValueError(f"side pane {pane_id!r} is registered twice")
    pane = SidePane(pane_id, title, make)
    SIDE_PANES.append(pane)
    return pane


def pane(pane_id: str) -> SidePane:
    """The registered pane ``pane_id``."""
    return next(p for p in SIDE_PANES if p.id == pane_id)


def next_pane(current: str | None) -> SidePane:
    """The pane after ``current`` in the cycle (the first after the last or an unknown one)."""
    ids = [p.id for p in SIDE_PANES]
    index = ids.index(current) if current in ids else 0
    return SIDE_PANES[(index + 1) % len(SIDE_PANES)]


def _later(module: str, name: str) -> Callable[[str], Widget]:
    """``make`` for a pane that is not on the first frame: its module loads when the pane is
    first shown (the four of them and the lookup screen cost ~25 ms of start-up CPU, under the
    GIL the comparison thread needs)."""

    def make(pane_id: str) -> Widget:
        widget_class = getattr(import_module(f"dumpscope.tui.app.widgets.{module}"), name)
        return widget_class(id=pane_id)  # type: ignore[no-any-return]

    return make


register_pane("tensor", "tensor", lambda pane_id: TensorPane(id=pane_id))
register_pane("overflow", "overflow", _later("overflow_pane", "OverflowPane"))
register_pane("fusion", "fusion", _later("fusion_pane", "FusionPane"))
register_pane("modules", "msprobe modules", _later("module_tree_pane", "ModuleTreePane"))
register_pane("neighbourhood", "neighbourhood", _later("neighbourhood_pane", "NeighbourhoodPane"))
