"""The overflow pane: hardware overflow records and dtype range checks of the selected row.

:class:`RowFactsPane` is the shared machinery of the row panes (this one and the fusion
pane): ``show(cmp, row)`` paints the row's title at once and, once the cursor has rested
:data:`SETTLE_S` (holding `j` starts no work), computes the facts in a thread worker (the
newest request wins; a late answer for an older row is dropped) and renders them.  Subclasses say how to compute (a :mod:`dumpscope.core.inspect.row_facts` function) and how
to draw the result.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import get_current_worker

from dumpscope.core.names import display
from dumpscope.tui.app.widgets.layer_rows import printable, short_dtype
from dumpscope.tui.app.widgets.summary_bar import health_text, styled

if TYPE_CHECKING:
    from dumpscope.core.vendor.opdebug import OverflowRecord, TensorStats
    from dumpscope.core.inspect.overflow import OverflowFacts, RangeFact
    from dumpscope.core.comparison.pipeline import Comparison

F = TypeVar("F")

SETTLE_S = 0.08
"""Facts are computed once the cursor has rested this long (the tensor pane's rhythm)."""

#: Glyph + theme colour for a check: flagged, fine, or not judged.
BAD, GOOD, UNKNOWN = health_text("fail", "✗"), health_text("ok", "✓"), health_text("warn", "?")


def num(value: float | None, digits: int = 6) -> str:
    """A short number for narrow panes (``·`` for missing)."""
    if value is None:
        return "·"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}g}"


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
        self._token = 0
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
        self._token += 1
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
        title.update(Content("\n").join([
            Content("  ").join([styled(f"[b]{self.HEADING}[/b] · [b]$name[/b]", name=name), health_text(health)]),
            muted(" · ".join(x for x in (printable(r.get("op_type") or "?"), f"#{r.get('index')}",
                                          f"{short_dtype(r.get('dtype'))} → {short_dtype(r.get('target_dtype'))}") if x)),
        ]))
        body.update(muted(self.READING))
        if self._timer is None:
            self._timer = self.set_timer(SETTLE_S, self._start)
        else:
            self._timer.reset()

    def _start(self) -> None:
        self._timer = None
        if self.comparison is not None and self.row is not None:
            self._load(self.comparison, self.row, self._token)

    @work(thread=True, exclusive=True, exit_on_error=False)
    def _load(self, comparison: Comparison, row: int, token: int) -> None:
        worker = get_current_worker()
        try:
            facts, problem = self.compute(comparison, row), None
        except Exception as exc:  # noqa: BLE001 - a bug or odd data is shown in the pane, never raised
            facts, problem = None, f"{type(exc).__name__}: {exc}"
        if not worker.is_cancelled:
            self.post_message(self.FactsReady(token, facts, problem))

    def on_row_facts_pane_facts_ready(self, message: FactsReady) -> None:
        message.stop()
        if message.token != self._token:
            return  # an answer for a row the user has left
        body = self.query_one(".facts-body", Static)
        self._answered = True
        if message.problem is not None:
            body.update(styled("[$error]cannot check this row:[/] $problem", problem=printable(message.problem)))
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


class OverflowPane(RowFactsPane["OverflowFacts"]):
    """Decoded Opdebug records of the row's target op and range checks of its tensors."""

    HEADING = "Overflow"
    READING = "reading tensors and Opdebug records…"

    def compute(self, comparison: Comparison, row: int) -> OverflowFacts:
        from dumpscope.core.inspect.overflow import overflow_facts

        return overflow_facts(comparison, row)

    def render_facts(self, facts: OverflowFacts, width: int) -> Content:
        if facts.note:
            return muted(facts.note)
        lines: list[Content] = [section("Range checks")]
        lines += [line for fact in facts.ranges for line in _range_lines(fact)]
        if not facts.ranges:
            lines.append(muted("no target tensor to check"))
        lines += [Content(""), section("Hardware overflow (Opdebug)")]
        if facts.op_name:
            lines.append(muted(f"target op {name_text(facts.op_name)}"))
        for rec in facts.records:
            lines += _record_lines(rec)
        if facts.op_file:
            lines.append(styled("linked op dump: $file", file=name_text(facts.op_file.rsplit("/", 1)[-1])))
            lines += _tensor_table(facts.op_tensors, wide=width >= 56)
        if not facts.records:
            lines.append(muted(facts.opdebug_note or "none: hardware overflow records come with Ascend dumps only"))
        return Content("\n").join(lines)


def _range_lines(fact: RangeFact) -> list[Content]:
    target = fact.side == "target"
    scale = f" (scale {num(fact.scale)}, zero point {fact.zero_point})" if fact.scale is not None else ""
    label = f"target {fact.dtype}" if target else f"golden as {fact.dtype}{scale}"
    if fact.error:
        return [Content(" ").join([UNKNOWN, styled("$label: $error", label=label, error=printable(fact.error))])]
    finding = fact.finding
    assert finding is not None
    if not finding.flagged:
        text = f"{label}: {'nothing saturated' if target else 'fits'} (max |x| {num(finding.max_abs)})"
        if finding.underflow:
            text += f"; {finding.underflow} flush to zero"
        return [Content(" ").join([GOOD, styled("$text", text=text)])]
    parts = []
    if finding.out_of_range:
        verb = "saturated at" if target else "reach or pass"
        parts.append(f"{finding.out_of_range} of {finding.size} {verb} ±{num(finding.high)} (max |x| {num(finding.max_abs)})")
    if finding.nan or finding.inf:
        parts.append(f"{finding.nan} NaN, {finding.inf} Inf")
    out = [Content(" ").join([BAD, styled("[b]$label[/b]: $text", label=label, text="; ".join(parts))])]
    if fact.out_of_range_at:
        where = "saturated" if target else "beyond range"
        out.append(muted(f"    first {where} at {' '.join(index_text(i) for i in fact.out_of_range_at)}"))
    if fact.nonfinite_at:
        out.append(styled("    [$error]first NaN/Inf at[/] $at", at=" ".join(index_text(i) for i in fact.nonfinite_at)))
    return out


def _record_lines(rec: OverflowRecord) -> list[Content]:
    where = f"task {rec.task_id} stream {rec.stream_id}"
    if rec.context_id is not None:
        where += f" context {rec.context_id}"
    lines = [Content(" ").join([BAD, styled(f"[b]$unit[/b] $where status [b]{rec.status:#x}[/b]",
                                             unit=rec.unit, where=where)])]
    for bit in rec.bits:
        lines.append(styled(f"    [$error]{bit.mask:#x}[/] $meaning", meaning=bit.meaning))
    lines.append(muted(f"    record {name_text(rec.file.rsplit('/', 1)[-1])} ({rec.layout})"))
    if rec.link_note:
        lines.append(muted(f"    {rec.link_note}"))
    return lines


def _tensor_table(stats: tuple[TensorStats, ...], *, wide: bool) -> list[Content]:
    """Inputs and outputs of the linked op dump; the shape column only when there is room."""
    head = f"  {'tensor':<9}{'dtype':<6}{'min':>10}{'max':>10}{'NaN':>5}{'Inf':>5}"
    lines = [styled("[b]$head[/b]", head=head + ("  shape" if wide else ""))]
    for t in stats:
        if t.error:
            lines.append(styled("  $name [$warning]$error[/]", name=f"{t.name:<9}", error=printable(t.error)))
            continue
        line = f"  {t.name:<9}{short_dtype(t.dtype):<6}{num(t.min):>10}{num(t.max):>10}{t.nan:>5}{t.inf:>5}"
        shape = "  " + "×".join(map(str, t.shape or ())) if wide else ""
        alarm = t.nan or t.inf or (t.dtype == "float16" and t.max is not None and max(abs(t.max), abs(t.min or 0)) >= 65504)
        lines.append(styled("[$error]$line[/]" if alarm else "$line", line=line + shape))
    return lines

