"""One line with the diagnosis: the most likely root cause and the key that jumps to it.

``compute(cmp)`` runs :func:`dumpscope.core.diagnosis.engine.diagnose` in a thread worker and
shows the answer (a newer request drops an older one's); ``show(diagnosis)`` shows one
the caller already has.  ``v`` (binding id ``verdict.jump``), a click, or
:meth:`action_jump` posts :class:`VerdictBar.JumpTo` with the frame row of the root
cause (else of the first divergent layer) for the app to move its cursor there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from dumpscope.core.names import display
from dumpscope.tui.app.background import StaleGuard, run_in_background
from dumpscope.tui.app.widgets.layer_rows import printable
from dumpscope.tui.app.widgets.summary_bar import health_text, styled

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.diagnosis.engine import Diagnosis, RootCause

#: Words that mark the evidence sentence that best explains each cause (the first
#: evidence sentences are always the row's health and its origin; the one naming the
#: cause's numbers comes later).
CAUSE_WORDS: dict[str, tuple[str, ...]] = {
    "overflow": ("exceed", "maximum", "range", "clamp", "Opdebug", "constant"),
    "fusion": ("fuses",),
    "quantisation": ("error jumps here", "quantis", "INT16", "int8"),
    "nan-origin": ("first NaN/Inf",),
    "accumulated-precision-drift": ("drift", "gradual", "faithfully"),
    "pre-processing": ("graph input", "differ"),
    "layout-mismatch": ("permuted",),
    "operator-implementation": ("does not match the target",),
    "precision": ("does not match the target",),
    "weights-differ": ("weights differ:",),
}


def cause_evidence(cause: RootCause) -> str:
    """The one evidence sentence that says why, for a one-line verdict."""
    for word in CAUSE_WORDS.get(cause.cause, ()):
        for sentence in cause.evidence:
            if word.lower() in sentence.lower():
                return sentence
    return cause.evidence[1] if len(cause.evidence) > 1 else (cause.evidence[0] if cause.evidence else "")


def jump_row(diagnosis: Diagnosis | None) -> int | None:
    """The frame row ``v`` goes to: the top root cause, else the first divergent layer."""
    if diagnosis is None:
        return None
    if diagnosis.root_causes:
        return diagnosis.root_causes[0].row
    first = diagnosis.first_divergent
    row = first.get("row") if first else None
    return row if isinstance(row, int) else None


def verdict_text(diagnosis: Diagnosis) -> Content:
    """``✗ root cause: #72 frame5/attn/exp:0 (Exp) — overflow: …`` (or the healthy verdict)."""
    if diagnosis.healthy and not diagnosis.root_causes:
        return Content(" ").join(
            [health_text("ok", "✓"), styled("$text", text=printable(diagnosis.summary))]
        )  # the summary says "Healthy: ..."
    if not diagnosis.root_causes:
        return Content(" ").join(
            [health_text("fail", "✗"), styled("$text", text=printable(diagnosis.summary))]
        )  # "Unhealthy: ..."
    top = diagnosis.root_causes[0]
    head = "✗ root cause:" if not diagnosis.healthy else "! top warning:"
    return Content(" ").join(
        [
            health_text("fail" if not diagnosis.healthy else "warn", head),
            styled(
                "[b]#$index $name[/b] ($op) — [b]$cause[/b]: $why",
                index=str(top.index if top.index is not None else "?"),
                name=printable(display(top.name)),
                op=printable(top.op_type or "?"),
                cause=top.cause,
                why=printable(display(cause_evidence(top))),
            ),
        ]
    )


class VerdictBar(Widget, can_focus=True):
    """The top root cause on one line; ``v`` jumps to it."""

    DEFAULT_CSS = """
    VerdictBar {
        height: 1;
        layout: horizontal;
        padding: 0 1;
    }
    VerdictBar:focus { background-tint: $foreground 8%; }
    VerdictBar > #verdict-text { width: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
    VerdictBar > #verdict-key { width: auto; padding-left: 1; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "jump", "Root cause", id="verdict.jump"),
    ]

    class JumpTo(Message):
        """Move the layer list's cursor to frame row ``row``."""

        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    class Diagnosed(Message):
        """``compute`` finished: the diagnosis (or the problem).  It bubbles to the app."""

        def __init__(self, diagnosis: Diagnosis | None, problem: str | None, token: int) -> None:
            super().__init__()
            self.diagnosis, self.problem, self.token = diagnosis, problem, token

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.diagnosis: Diagnosis | None = None
        self._guard = StaleGuard()
        self._judged: tuple[int, int] | None = None

    def compose(self) -> ComposeResult:
        yield Static(styled("[$text-muted]no diagnosis yet[/]"), id="verdict-text")
        yield Static(id="verdict-key")

    def compute(self, comparison: Comparison, judged: tuple[int, int] | None = None) -> None:
        """Diagnose ``comparison`` off the UI thread, then show the verdict; ``judged`` = ``(done, total)``
        when the comparison was cancelled part way: the verdict then says it covers only those rows."""
        token = self._guard.begin()
        self._judged = judged
        self._set(styled("[$text-muted]… diagnosing[/]"), None)
        self._diagnose(comparison, token)

    def offer(self, done: int, total: int) -> None:
        """The comparison was cancelled: say so, and that `d` diagnoses the rows judged so far."""
        self._guard.invalidate()
        text = f"comparison cancelled at {done} of {total} rows: [b]d[/b] diagnoses the {done} judged so far"
        self._set(styled(f"[$warning]{text}[/]"), None)

    def show(self, diagnosis: Diagnosis | None) -> None:
        """Show ``diagnosis`` (None clears the bar)."""
        self._guard.invalidate()  # a diagnosis still being computed is now stale
        if diagnosis is None:
            self._set(styled("[$text-muted]no diagnosis yet[/]"), None)
        else:
            self._set(verdict_text(diagnosis), diagnosis)

    def _set(self, text: Content, diagnosis: Diagnosis | None) -> None:
        self.diagnosis = diagnosis
        self.query_one("#verdict-text", Static).update(text)
        key = self.query_one("#verdict-key", Static)
        key.update(styled("[b]v[/b] jump there") if jump_row(diagnosis) is not None else "")
        self.refresh_bindings()

    def _diagnose(self, comparison: Comparison, token: int) -> None:
        def compute() -> Diagnosis:
            from dumpscope.core.diagnosis.engine import diagnose

            return diagnose(comparison)

        run_in_background(self, compute, lambda diagnosis, problem: self.Diagnosed(diagnosis, problem, token))

    def on_verdict_bar_diagnosed(self, message: Diagnosed) -> None:
        if not self._guard.is_current(message.token):
            message.stop()  # a newer comparison is being diagnosed: nobody needs this one
            return
        if message.problem is not None:
            problem = printable(display(message.problem))
            self._set(styled("[$error]diagnosis failed:[/] $problem", problem=problem), None)
        else:
            self.show(message.diagnosis)
            if self._judged is not None and message.diagnosis is not None:
                done, total = self._judged
                partial = styled(
                    f"[$warning]{done} of {total} rows judged before the cancel:[/]"
                )  # first: never cut off
                self.query_one("#verdict-text", Static).update(
                    Content(" ").join([partial, verdict_text(message.diagnosis)])
                )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``v`` shows in the footer only when there is somewhere to jump."""
        if action == "jump":
            return True if jump_row(self.diagnosis) is not None else None
        return True

    def action_jump(self) -> None:
        row = jump_row(self.diagnosis)
        if row is not None:
            self.post_message(self.JumpTo(row))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.action_jump()
