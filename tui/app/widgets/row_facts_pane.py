"""The base of the row panes (overflow, fusion, ...): facts about the selected row, computed
off the UI thread.

``show(cmp, row)`` paints the row's title at once and, once the cursor has rested
:data:`SETTLE_S` (holding `j` starts no work), computes the facts in a thread worker
(:func:`~dumpscope.tui.app.background.run_in_background`: the newest request wins; a late
answer for an older row is dropped) and renders them.  Subclasses say how to compute (a
:mod:`dumpscope.core.inspect.row_facts` function) and how to draw the result, then register
in :mod:`dumpscope.tui.app.panes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from dumpscope.core.names import display
from dumpscope.core.vocabulary import format_number
from dumpscope.tui.app.background import StaleGuard, run_in_background
from dumpscope.tui.app.widgets.layer_rows import printable, short_dtype
from dumpscope.tui.app.widgets.summary_bar import health_text, styled

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison

F = TypeVar("F")

SETTLE_S = 0.08
"""Facts are computed once the cursor has rested this long (the tensor pane's rhythm)."""

#: Glyph + theme colour for a check: flagged, fine, or not judged.
BAD, GOOD, UNKNOWN = health_text("fail", "✗"), health_text("ok", "✓"), health_text("warn", "?")


def num(value: float | None, width: int = 9) -> str:
    """A short number for narrow panes (the app's one formatter; ``·`` for missing)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return format_number(value, width)


def index_text(ix: tuple[int, ...]) -> str:
    return "(" + ",".join(str(i) for i in ix) + ")"


def name_text(name: str | None) -> str:
    """A dump name safe to draw: undecodable bytes as ``\\xNN``, control characters replaced."""
    return printable(display(name)) if name else "?"


def section(title: str) -> Content:
    return styled("[b $accent]$title[/]", title=title)


def muted(text: str) -> Content:
    return styled("[$text-muted]$text[/]", text=text)


class RowFactsPane(VerticalScroll, Generic[F], can_focus=True):
    """A scrollable pane of facts about one comparison row, computed off the UI thread."""

    DEFAULT_CSS = """
    RowFactsPane {
        height: 1fr;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    RowFactsPane > .facts-title { margin-bottom: 1; }
    RowFactsPane:focus { background-tint: $foreground 4%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "scroll_down", "Scroll down", show=False, id="facts.down"),
        Binding("k,up", "scroll_up", "Scroll up", show=False, id="facts.up"),
        Binding("ctrl+d,pagedown", "page_down", "Page down", show=False, id="facts.page_down"),
        Binding("ctrl+u,pageup", "page_up", "Page up", show=False, id="facts.page_up"),
    ]
    HEADING: ClassVar[str] = "Facts"
    READING: ClassVar[str] = "checking…"

    class FactsReady(Message):
        """The facts computed for request ``token`` (or why they could not be)."""

        def __init__(self, token: int, facts: object | None, problem: str | None) -> None:
            super().__init__()
            self.token, self.facts, self.problem = token, facts, problem

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.comparison: Comparison | None = None
        self.row: int | None = None
        self.facts: F | None = None
        """The facts on screen (None while computing or when no row is selected)."""
        self._guard = StaleGuard()
        self._answered = False
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(styled(f"[b]{self.HEADING}[/b]"), classes="facts-title")
        yield Static(muted("no row selected"), classes="facts-body")

    @property
    def is_settled(self) -> bool:
        """The answer for the current request is on screen (tests wait on this)."""
        return self.row is None or self._answered

    def show(self, comparison: Comparison | None, row: int | None) -> None:
        """Show ``row`` of ``comparison``; the facts follow from a worker."""
        self._guard.begin()
        self.comparison, self.row, self.facts, self._answered = comparison, row, None, False
        title, body = self.query_one(".facts-title", Static), self.query_one(".facts-body", Static)
        if comparison is None or row is None or not 0 <= row < comparison.frame.height:
            self.row = None
            title.update(styled(f"[b]{self.HEADING}[/b]"))
            body.update(muted("no row selected"))
            return
        r = comparison.frame.row(row, named=True)
        name = name_text(r.get("name") or r.get("target_name"))
        health = r.get("health") or "pending"
        title.update(
            Content("\n").join(
                [
                    Content("  ").join(
                        [styled(f"[b]{self.HEADING}[/b] · [b]$name[/b]", name=name), health_text(health)]
                    ),
                    muted(
                        " · ".join(
                            x
                            for x in (
                                printable(r.get("op_type") or "?"),
                                f"#{r.get('index')}",
                                f"{short_dtype(r.get('dtype'))} → {short_dtype(r.get('target_dtype'))}",
                            )
                            if x
                        )
                    ),
                ]
            )
        )
        body.update(muted(self.READING))
        if self._timer is None:
            self._timer = self.set_timer(SETTLE_S, self._start)
        else:
            self._timer.reset()

    def _start(self) -> None:
        self._timer = None
        if self.comparison is not None and self.row is not None:
            self._load(self.comparison, self.row, self._guard.token)

    def _load(self, comparison: Comparison, row: int, token: int) -> None:
        run_in_background(
            self,
            lambda: self.compute(comparison, row),
            lambda facts, problem: self.FactsReady(token, facts, problem),
        )

    def on_row_facts_pane_facts_ready(self, message: FactsReady) -> None:
        message.stop()
        if not self._guard.is_current(message.token):
            return  # an answer for a row the user has left
        body = self.query_one(".facts-body", Static)
        self._answered = True
        if message.problem is not None:
            body.update(
                styled("[$error]cannot check this row:[/] $problem", problem=printable(message.problem))
            )
            return
        self.facts = message.facts  # type: ignore[assignment]
        self._render_body()

    def _render_body(self) -> None:
        if self.facts is not None:
            width = max(24, self.scrollable_content_region.width)
            self.query_one(".facts-body", Static).update(self.render_facts(self.facts, width))

    def on_resize(self) -> None:
        self._render_body()  # tables pick their columns by width

    def compute(self, comparison: Comparison, row: int) -> F:
        """The facts for ``row`` (runs in a worker thread)."""
        raise NotImplementedError

    def render_facts(self, facts: F, width: int) -> Content:
        """The pane body for ``facts`` in ``width`` cells."""
        raise NotImplementedError
