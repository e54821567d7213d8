"""Drill-in view of one tensor: the tensor pane on the whole screen, with more detail."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer

from dumpscope.tui.app.widgets.tensor_pane import TensorPane

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison


class TensorScreen(Screen[None]):
    """Full-size tensor pane for one row; esc goes back to the list."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "app.pop_screen", "Back", id="tensor.back"),
    ]

    def __init__(self, comparison: Comparison, position: int) -> None:
        super().__init__()
        self._comparison, self._position = comparison, position

    def compose(self) -> ComposeResult:
        yield TensorPane(detail=True, id="tensor-detail")
        yield Footer()

    def on_mount(self) -> None:
        pane = self.query_one(TensorPane)
        pane.set_comparison(self._comparison)
        pane.show_row(self._position)
        pane.focus()
