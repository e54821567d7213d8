"""The layer list: a line-API ScrollView over :class:`LayerRows`.

Only visible rows are rendered (``render_line`` is called per screen line), each row
is formatted once into a cached :class:`Strip`, a cursor move repaints just the old
and the new line, and filter/sort swap an index array (``view``) without touching
any widget.  This is what keeps 100k layers fluid where DataTable freezes (it
measures every cell on the event loop).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from dumpscope.core.vocabulary import UNHEALTHY as ALARMING
from dumpscope.tui.app.widgets.layer_names import elide
from dumpscope.tui.app.widgets.layer_rows import HEALTHS, LayerRows


@dataclass(frozen=True)
class Column:
    """One column of the list: ``cell(rows, pos, width)`` gives its text (at most ``width`` cells)."""

    id: str
    header: str
    width: int
    cell: Callable[[LayerRows, int, int], str]
    right: bool = False
    priority: int = 0
    """Columns with the highest priority number are dropped first when space runs out."""


def _fit(text: str, width: int, *, right: bool = False) -> str:
    """Exactly ``width`` cells (wide characters count double): cut with ``…`` (a cut is never
    silent: ``ConstantOfS…`` is not a name of its own), then pad."""
    if cell_len(text) > width:
        text = set_cell_size(text, width - 1) + "…" if width > 1 else set_cell_size(text, width)
    pad = " " * (width - cell_len(text))
    return pad + text if right else text + pad


def _number(column: str) -> Callable[[LayerRows, int, int], str]:
    """A number cell: :func:`~dumpscope.core.vocabulary.format_number` at the column's width."""
    return lambda rows, pos, width: rows.number(column, pos, width)


def _name(rows: LayerRows, pos: int, width: int) -> str:
    """The name, elided so rows stay apart (shared prefix, middle segments; never model.2 vs model.22)."""
    return elide(rows.text(pos)[0], width, rows.name_prefix)


_NAME_MIN = 20
_NAME_STEP = 8
"""`>` / `<` widen / narrow the name column by this much (other columns make room)."""
_OP_MAX = 12
_NUMBER_W = 8
"""Width of a number column: :func:`format_number` always fits 8 cells (``-1.2e-38``, ``934496``)."""
NANINF_HEADER = "nan/inf g|t"
_COLUMNS: tuple[Column, ...] = (
    Column("index", "#", 5, lambda r, p, w: _index_text(int(r.index[p])), right=True, priority=4),
    Column("name", "tensor", _NAME_MIN, _name),
    Column("op", "op", 12, lambda r, p, w: r.text(p)[1], priority=2),
    Column("shape", "shape", 14, lambda r, p, w: r.text(p)[2], priority=9),
    Column("dtype", "dtype", 7, lambda r, p, w: r.text(p)[3], priority=8),
    Column("cos", "cosine", _NUMBER_W, _number("cos"), right=True, priority=1),
    Column("max_abs", "max abs", _NUMBER_W, _number("max_abs"), right=True, priority=6),
    Column("rmse", "rmse", _NUMBER_W, _number("rmse"), right=True, priority=7),
    Column("naninf", NANINF_HEADER, len(NANINF_HEADER), lambda r, p, w: r.nan_inf(p), right=True, priority=3),
    Column("origin", "src", 3, lambda r, p, w: r.origin_label(p), priority=5),
    Column("health", "health", 6, lambda r, p, w: r.health_label(p), priority=0),
    Column("why", "why", 7, lambda r, p, w: r.rule_label(p), priority=2),
    Column("b_cos", "B cos", _NUMBER_W, _number("b_cos"), right=True, priority=1),
    Column("b_health", "B", 6, lambda r, p, w: r.b_health_label(p), priority=0),
    Column("worse", "worse", 5, lambda r, p, w: r.worse_label(p), priority=0),
)
_THREE_WAY_ONLY = frozenset({"b_cos", "b_health", "worse"})
"""Columns shown only for a three-way compare (side B next to side A)."""
#: SigmaStar pairs show the listing's MSE and RMSE (SigmaStar) instead of max abs / rmse.
_SIGMASTAR_COLUMNS: dict[str, Column] = {
    "max_abs": Column("mse", "MSE", _NUMBER_W, _number("mse"), right=True, priority=6),
    "rmse": Column("sgs_rmse", "RMSE(S)", _NUMBER_W, _number("sgs_rmse"), right=True, priority=4),
}


def _three_way_headers(labels: tuple[str, str], cols: list[Column]) -> list[Column]:
    """Name the sides by their labels: ``A cos`` / ``B cos``, ``A`` / ``B`` over the health columns."""
    a, b = labels
    headers = {"cos": f"{a} cos", "b_cos": f"{b} cos", "health": a, "b_health": b}
    return [
        Column(**{**c.__dict__, "header": headers[c.id][: c.width]}) if c.id in headers else c for c in cols
    ]


_SORT_COLUMN = {
    "order": "index",
    "cos": "cos",
    "max_abs": "max_abs",
    "rmse": "rmse",
    "health": "health",
    "op": "op",
    "name": "name",
}
_GAP = 1
_GUTTER = 2


def layout_columns(
    width: int,
    index_width: int,
    op_width: int,
    sigmastar: bool = False,
    naninf_width: int = 0,
    name_extra: int = 0,
    labels: tuple[str, str] | None = None,
) -> list[Column]:
    """The columns that fit in ``width`` cells; the name column takes what is left.

    ``sigmastar`` shows SigmaStar's MSE / RMSE instead of max abs / rmse; ``name_extra``
    widens the name column beyond its minimum (other columns drop out to make room);
    ``naninf_width`` is the widest NaN/Inf cell of the table; ``labels`` (three-way only)
    adds side B's cosine and health and the ``worse`` column.
    """
    fitted = {
        "index": max(index_width, 3),
        "op": max(2, min(op_width, _OP_MAX)),
        "naninf": max(len(NANINF_HEADER), naninf_width),
        "name": _NAME_MIN + max(0, name_extra),
    }
    base = [_SIGMASTAR_COLUMNS.get(c.id, c) for c in _COLUMNS] if sigmastar else list(_COLUMNS)
    cols = [
        Column(**{**c.__dict__, "width": fitted[c.id]}) if c.id in fitted else c
        for c in base
        if labels is not None or c.id not in _THREE_WAY_ONLY
    ]
    if labels is not None:
        cols = _three_way_headers(labels, cols)

    def used(cs: list[Column]) -> int:
        return _GUTTER + sum(c.width for c in cs) + _GAP * (len(cs) - 1)

    while used(cols) > width and any(c.priority for c in cols):
        worst = max(cols, key=lambda c: c.priority)
        cols.remove(worst)
    spare = max(0, width - used(cols))
    return [Column(**{**c.__dict__, "width": c.width + spare}) if c.id == "name" else c for c in cols]


class LayerList(ScrollView, can_focus=True):
    """Keyboard-driven list of compared tensors (one row per tensor)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "layer-list--header",
        "layer-list--cursor",
        "layer-list--dim",
        "layer-list--alarm",
        *(f"layer-list--{h}" for h in HEALTHS),
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "cursor(1)", "Down", show=False, id="list.down"),
        Binding("k,up", "cursor(-1)", "Up", show=False, id="list.up"),
        Binding("ctrl+d,pagedown", "page(1)", "Page down", show=False, id="list.page_down"),
        Binding("ctrl+u,pageup", "page(-1)", "Page up", show=False, id="list.page_up"),
        Binding("g,home", "first", "First row", show=False, id="list.first"),
        Binding("G,end", "last", "Last row", show=False, id="list.last"),
        Binding("enter", "activate", "Details", show=False, id="list.activate"),
        Binding("greater_than_sign", "name_width(1)", "Wider name column", show=False, id="list.wider_names"),
        Binding(
            "less_than_sign", "name_width(-1)", "Narrower name column", show=False, id="list.narrower_names"
        ),
    ]

    class CursorMoved(Message):
        """The selected tensor changed (``position`` is a frame row, None for an empty view)."""

        def __init__(self, position: int | None) -> None:
            super().__init__()
            self.position = position

    class Activated(Message):
        """Enter on a row: drill into it."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.rows: LayerRows | None = None
        self.view: np.ndarray = np.zeros(0, dtype=np.int64)
        self.cursor = 0
        self.sort_key, self.sort_descending = "order", False
        self._columns: list[Column] = []
        self._cache: LRUCache[tuple[int, bool, int], Strip] = LRUCache(1024)
        self._last_posted: int | None = -1
        self.name_extra = 0
        """Cells the name column has beyond its minimum (`>` / `<`)."""

    # -- data ----------------------------------------------------------------------------
    def set_rows(self, rows: LayerRows, view: np.ndarray | None = None) -> None:
        """Show a new table (or a newer version of the same one)."""
        self.rows = rows
        self._invalidate()
        self.set_view(np.arange(rows.n) if view is None else view)

    def set_view(self, view: np.ndarray) -> None:
        """Show ``view`` (frame positions in display order); keep the selected row if it is there."""
        selected = self.selected
        self.view = view
        self.cursor = 0
        if selected is not None and view.size:
            hit = np.flatnonzero(view == selected)
            if hit.size:
                self.cursor = int(hit[0])
        self._update_virtual_size()
        self._scroll_cursor_into_view(center=True)
        self.refresh()
        self._post_cursor()

    def data_changed(self) -> None:
        """The rows' metrics changed in place (a streamed update): repaint visible lines."""
        self._invalidate()
        self.refresh()

    def rows_changed(self, changed: np.ndarray) -> None:
        """A streamed update changed the rows of mask ``changed``: forget their formatted lines, and
        repaint only when one of them is on screen or the columns' widths moved (a fill scrolls by
        thousands of rows the user does not see: they cost nothing until shown)."""
        old = self._columns
        self._invalidate()
        width = self.scrollable_content_region.width
        if self._layout(width) != old or bool(changed[self.on_screen()].any()):
            self.refresh()

    def on_screen(self) -> np.ndarray:
        """Frame positions of the rows the list shows now."""
        top = round(self.scroll_y)
        return self.view[top : top + max(0, self.scrollable_content_region.height - 1)]

    def _invalidate(self) -> None:
        self._cache.clear()
        self._columns = []

    @property
    def selected(self) -> int | None:
        """Frame position of the row under the cursor."""
        if not self.view.size:
            return None
        return int(self.view[min(self.cursor, self.view.size - 1)])

    def select_position(self, position: int) -> bool:
        """Put the cursor on frame row ``position`` if the current view shows it."""
        hit = np.flatnonzero(self.view == position)
        if not hit.size:
            return False
        self.move_cursor(int(hit[0]), center=True)
        return True

    # -- cursor --------------------------------------------------------------------------
    @property
    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 2)

    def move_cursor(self, target: int, *, center: bool = False) -> None:
        if not self.view.size:
            return
        target = max(0, min(int(target), self.view.size - 1))
        old = self.cursor
        self.cursor = target
        if not self._scroll_cursor_into_view(center=center):
            self.refresh_line(old + 1)
            self.refresh_line(target + 1)
        self._post_cursor()

    def _scroll_cursor_into_view(self, *, center: bool = False) -> bool:
        """Scroll so the cursor row is visible; True when the view scrolled."""
        visible = max(1, self.scrollable_content_region.height - 1)
        top = round(self.scroll_y)
        if top <= self.cursor < top + visible and not (center and self.cursor >= visible):
            return False
        if center:
            new_top = self.cursor - visible // 2
        elif self.cursor < top:
            new_top = self.cursor
        else:
            new_top = self.cursor - visible + 1
        new_top = max(0, min(new_top, self.view.size + 1 - self.scrollable_content_region.height))
        if new_top == top:
            return False
        self.scroll_to(y=new_top, animate=False, force=True)
        return True

    def _post_cursor(self) -> None:
        selected = self.selected
        if selected != self._last_posted:
            self._last_posted = selected
            self.post_message(self.CursorMoved(selected))

    def action_cursor(self, delta: int) -> None:
        self.move_cursor(self.cursor + delta)

    def action_page(self, direction: int) -> None:
        self.move_cursor(self.cursor + direction * self._page)

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(self.view.size - 1)

    def action_activate(self) -> None:
        if self.selected is not None:
            self.post_message(self.Activated(self.selected))

    def action_name_width(self, step: int) -> None:
        """Grow or shrink the name column (the lowest-priority columns give way)."""
        width = self.scrollable_content_region.width
        extra = max(0, self.name_extra + step * _NAME_STEP)
        extra = min(extra, max(0, width - _GUTTER - _NAME_MIN - 6 - _GAP))  # the health column always stays
        if extra != self.name_extra:
            self.name_extra = extra
            self._invalidate()
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        if event.y >= 1:
            self.move_cursor(round(self.scroll_y) + event.y - 1)
            if event.chain == 2:
                self.action_activate()

    # -- rendering -----------------------------------------------------------------------
    def on_resize(self, _event: events.Resize) -> None:
        self._invalidate()
        self._update_virtual_size()
        self._scroll_cursor_into_view()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._invalidate()

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, int(self.view.size) + 1)

    def _layout(self, width: int) -> list[Column]:
        if not self._columns and self.rows is not None:
            index = self.rows.index
            widest = max(len(str(int(index.min(initial=0)))), len(str(int(index.max(initial=0)))))
            self._columns = layout_columns(
                width,
                widest,
                self.rows.op_width,
                self.rows.sigmastar,
                self.rows.naninf_width,
                self.name_extra,
                self.rows.labels if self.rows.three_way else None,
            )
        return self._columns

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if self.rows is None:
            return Strip.blank(width, self.rich_style)
        if y == 0:
            return self._header(width)
        row = round(self.scroll_y) + y - 1
        if row >= self.view.size:
            return Strip.blank(width, self.rich_style)
        position = int(self.view[row])
        is_cursor = row == self.cursor
        key = (position, is_cursor, width)
        strip = self._cache.get(key)
        if strip is None:
            strip = self._render_row(position, is_cursor, width)
            self._cache[key] = strip
        return strip

    def _header(self, width: int) -> Strip:
        style = self.get_component_rich_style("layer-list--header")
        arrow = "▼" if self.sort_descending else "▲"
        sorted_col = _SORT_COLUMN.get(self.sort_key)
        cells = []
        for col in self._layout(width):
            label = col.header + (arrow if col.id == sorted_col and self.sort_key != "order" else "")
            cells.append(label.rjust(col.width) if col.right else label.ljust(col.width))
        text = " " * _GUTTER + (" " * _GAP).join(cells)
        return Strip([Segment(text, style)]).adjust_cell_length(width, style)

    def _render_row(self, position: int, is_cursor: bool, width: int) -> Strip:
        rows = self.rows
        assert rows is not None
        base = self.rich_style
        if is_cursor:
            base = base + self.get_component_rich_style("layer-list--cursor")
        health = HEALTHS[rows.health[position]]
        health_style = base + self.get_component_rich_style(f"layer-list--{health}", partial=True)
        dim = base + self.get_component_rich_style("layer-list--dim", partial=True)
        if health in ALARMING:  # bold without colour too: an unhealthy row is never the dimmest text
            base = base + self.get_component_rich_style("layer-list--alarm", partial=True)
        segments = [Segment("▶ " if is_cursor else "  ", base)]
        for i, col in enumerate(self._layout(width)):
            if i:
                segments.append(Segment(" " * _GAP, base))
            text = _fit(col.cell(rows, position, col.width), col.width, right=col.right)
            style = base
            if col.id in ("health", "cos", "why"):
                style = health_style
            elif col.id in ("b_health", "b_cos") and rows.b_health is not None:
                b_health = HEALTHS[rows.b_health[position]]
                style = base + self.get_component_rich_style(f"layer-list--{b_health}", partial=True)
            elif col.id in ("index", "shape", "dtype"):
                style = dim
            segments.append(Segment(text, style))
        return Strip(segments).adjust_cell_length(width, base)


def _index_text(index: int) -> str:
    """A row's topological index; ``·`` for a tensor without one (a constant: no producing node)."""
    return "·" if index < 0 else str(index)
