"""The fix search on the loaded pair (``F`` in the explorer): ``dumpscope diagnose --fix`` in a screen.

The search runs off the UI thread (each trial is a run of the model); every trial is shown as it starts,
then the proof (:func:`dumpscope.core.fix.report.report_lines`), one fact a line.  Esc closes the screen
and stops the search before its next trial.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static
from textual.worker import get_current_worker

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.diagnosis.engine import Diagnosis


class _Stopped(Exception):
    """The screen was closed: the search stops before its next trial."""


class FixScreen(ModalScreen[None]):
    """Runs the fix search seeded by the diagnosis on the pair's model, target and golden inputs."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close (stops the search)", id="fix.close"),
    ]

    def __init__(self, comparison: Comparison, diagnosis: Diagnosis | None) -> None:
        super().__init__()
        self._comparison, self._diagnosis = comparison, diagnosis
        self.lines: list[str] = []
        """The proof once the search is over (or the one line saying why there is none)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="fix-body"):
            yield Static(Content.from_markup("[b]Smallest verified fix[/] [dim](esc closes)[/]"))
            yield Static("starting the search ...", id="fix-progress")
            yield Static("", id="fix-proof")

    def on_mount(self) -> None:
        self._search()

    @work(thread=True, exclusive=True, group="fix", exit_on_error=False)
    def _search(self) -> None:
        from dumpscope.core.dumps import DumpError
        from dumpscope.core.fix import fix_from_comparison
        from dumpscope.core.fix.report import report_lines

        worker = get_current_worker()

        def progress(i: int, budget: int, what: str) -> None:
            if worker.is_cancelled:
                raise _Stopped
            self.app.call_from_thread(self._progress, f"trial {i}/{budget}: {what}")

        try:
            lines = report_lines(fix_from_comparison(self._comparison, self._diagnosis, progress=progress))
        except _Stopped:
            return
        except DumpError as exc:
            lines = [f"no fix search for this pair: {exc}"]
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show, lines)

    def _progress(self, text: str) -> None:
        self.query_one("#fix-progress", Static).update(Content(text))

    def _show(self, lines: list[str]) -> None:
        self.lines = lines
        self.query_one("#fix-progress", Static).update(Content("search done"))
        self.query_one("#fix-proof", Static).update(Content("\n".join(lines)))

    def action_close(self) -> None:
        self.workers.cancel_group(self, "fix")
        self.dismiss(None)
