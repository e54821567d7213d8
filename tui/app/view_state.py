"""What the layer list shows: the filter and the sort (one immutable value the app watches)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from dumpscope.tui.app.filters import Query
from dumpscope.tui.app.widgets.layer_rows import SORT_KEYS, SortKey


@dataclass(frozen=True)
class ViewState:
    """The list's view: filter ``query``, sort column (index into :data:`SORT_KEYS`) and direction.

    The app holds one in a reactive attribute; assigning a new one re-applies the view and
    the summary line (no caller refreshes by hand).
    """

    query: Query = Query()
    sort_index: int = 0
    descending: bool = SORT_KEYS[0].descending

    @property
    def sort_key(self) -> SortKey:
        return SORT_KEYS[self.sort_index]

    def filtered(self, query: Query) -> ViewState:
        return replace(self, query=query)

    def sorted_by(self, index: int) -> ViewState:
        """Sorted by column ``index`` in its worst-first direction."""
        index %= len(SORT_KEYS)
        return replace(self, sort_index=index, descending=SORT_KEYS[index].descending)

    def reversed(self) -> ViewState:
        return replace(self, descending=not self.descending)

    @property
    def moved_from_start(self) -> bool:
        """A filter or a sort other than topological: the user has chosen a view."""
        return bool(self.query) or self.sort_index != 0
