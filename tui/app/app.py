"""The dumpscope terminal UI: a keyboard-driven explorer of a golden/target layer comparison.

The app holds one :class:`~dumpscope.core.comparison.pipeline.Comparison` (or computes it in a worker
thread from two dumps, showing rows as they are compared: :mod:`.feed`), a :class:`LayerList` over it,
a tensor pane for the selected row and a summary line.  Every key is a binding with an
id, so ``keymap.toml`` can remap it and the help screen and the command palette list it.
Numbers come from :mod:`dumpscope.core`; this module only decides what to show.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial, wraps
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import numpy as np
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Input, Static
from textual.worker import Worker, WorkerState

from dumpscope.core.vendor.sigmastar import STAGES, both_sigmastar
from dumpscope.tui.app.collector import FullPassPause, freeze_at_exit
from dumpscope.tui.app.feed import (
    CompareRequest,
    Counted,
    LoadFailed,
    Progressed,
    ThreeWayReady,
    compare_three_way,
    stream_comparison,
)
from dumpscope.tui.app.filters import Query, QueryError
from dumpscope.tui.app.findings import findings_by_row
from dumpscope.tui.app.keymap import binding_ids, load_keymap
from dumpscope.tui.app.op_index import OpIndex
from dumpscope.tui.app.panes import SIDE_PANES, next_pane
from dumpscope.tui.app.status import TableCounts, cursor_line, view_notes, worse_note
from dumpscope.tui.app.view_state import ViewState
from dumpscope.tui.app.widgets.filter_suggester import FilterSuggester
from dumpscope.tui.app.widgets.footer import KeysFooter
from dumpscope.tui.app.widgets.layer_list import LayerList
from dumpscope.tui.app.widgets.layer_rows import SORT_KEYS, LayerRows
from dumpscope.tui.app.widgets.row_facts_pane import RowFactsPane
from dumpscope.tui.app.widgets.summary_bar import Summary, SummaryBar, styled
from dumpscope.tui.app.widgets.tensor_pane import TensorPane
from dumpscope.tui.app.widgets.verdict_bar import VerdictBar

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.comparison.threeway import ThreeWay
    from dumpscope.core.diagnosis.engine import Diagnosis
    from dumpscope.tui.app.screens.help import KeyHelp
    from dumpscope.tui.app.widgets.neighbourhood_pane import NeighbourhoodPane


_Handler = TypeVar("_Handler", bound=Callable[..., None])


def _while_shown(handler: _Handler) -> _Handler:
    """A message handler that does nothing once the app has no screen: a worker's table, a cursor move or
    a timer's result may still be queued while the app shuts down, and the widgets it updates are gone."""

    @wraps(handler)
    def shown_only(self: DumpscopeApp, *args: Any, **kwargs: Any) -> None:
        if self.screen_stack:
            handler(self, *args, **kwargs)

    return shown_only  # type: ignore[return-value]  # the same signature, by wraps


def _actions_provider() -> type[Any]:
    """The command palette's provider (its module and the help screen's load on first use)."""
    from dumpscope.tui.app.palette import ActionsProvider

    return ActionsProvider


class DumpscopeApp(App[int]):
    """Explore a comparison: layer list, tensor pane, summary, filter, export, lookup."""

    CSS_PATH = "app.tcss"
    TITLE = "dumpscope"
    COMMANDS: ClassVar[set[Any]] = App.COMMANDS | {_actions_provider}  # loaded when the palette opens
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (20, "-tall")]

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "filter", "Filter", id="app.filter"),
        Binding("n", "match(1)", "Next match", show=False, id="app.next_match"),
        Binding("N", "match(-1)", "Previous match", show=False, id="app.previous_match"),
        Binding("f", "first_divergent", "First divergent", id="app.first_divergent"),
        Binding("right_square_bracket", "unhealthy(1)", "Next unhealthy", id="app.next_unhealthy"),
        Binding(
            "left_square_bracket",
            "unhealthy(-1)",
            "Previous unhealthy",
            show=False,
            id="app.previous_unhealthy",
        ),
        Binding("s", "sort", "Sort", id="app.sort"),
        Binding("S", "reverse_sort", "Reverse sort", show=False, id="app.reverse_sort"),
        Binding("escape", "step_back", "Back / clear / cancel", show=False, id="app.back"),
        Binding("v", "verdict_jump", "Root cause", id="app.root_cause"),
        Binding("p", "next_pane", "Next side pane", show=False, id="app.next_pane"),
        Binding("d", "diagnose_judged", "Diagnose judged rows", id="app.diagnose_judged"),
        Binding("b", "switch_side", "Other side", id="app.switch_side"),
        Binding("e", "lookup", "Error lookup", id="app.lookup"),
        Binding("F", "find_fix", "Find the smallest fix", show=False, id="app.find_fix"),
        Binding("x", "export", "Export", show=False, id="app.export"),
        Binding("w", "warnings", "Input warnings", show=False, id="app.warnings"),
        Binding("y", "copy_name", "Copy tensor name", show=False, id="app.copy_name"),
        Binding("question_mark,f1", "help", "Help", id="app.help"),
        Binding("q", "quit", "Quit", id="app.quit"),
    ]

    view: reactive[ViewState] = reactive(ViewState(), always_update=True, init=False, repaint=False)
    """The list's filter and sort: assigning one re-applies the view (:meth:`watch_view`)."""
    progress: reactive[tuple[int, int] | None] = reactive(None, always_update=True, init=False, repaint=False)
    """``(done, total)`` while the comparison streams in, else None (the summary follows it)."""

    def __init__(
        self,
        source: Comparison | CompareRequest | ThreeWay,
        *,
        theme: str | None = None,
    ) -> None:
        super().__init__()
        self._source = source
        self._theme_name = theme
        self.comparison: Comparison | None = None
        self.rows: LayerRows | None = None
        self.search: Query = Query()
        self._cancelled = False
        self._preview_painted = threading.Event()
        """Set once a comparison's preview is on screen: the worker opens the whole dumps after it."""
        self._list_height: int | None = None
        """The list's height when it is held to its rows (narrow terminals, short views); None: its CSS
        share."""
        self._judged: tuple[int, int] | None = None
        """``(done, total)`` of a cancelled comparison not diagnosed yet (`d` diagnoses what was judged)."""
        self._filter_before: str = ""
        self._known_ops: OpIndex | None = None
        self._landed = False
        self._diagnosed: Comparison | None = None
        self.diagnosis_due = False
        """A complete comparison waits for its diagnosis to start (a timer after the first paint): the
        screen is still to change."""
        self.diagnosis: Diagnosis | None = None
        self._counts: TableCounts | None = None
        self.threeway: ThreeWay | None = None
        self._other_side: ThreeWay | None = None
        """The three-way with its sides exchanged, once `b` has built it (kept for the way back)."""
        """Set for a three-way compare: the list is side A with side B's columns beside it."""
        self._full_passes = FullPassPause()
        """The collector's full passes wait while a comparison fills in (see :mod:`.collector`)."""

    # -- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield SummaryBar(id="summary")
        verdict = VerdictBar(id="verdict")
        verdict.can_focus = False  # `v` works from anywhere; tab stays between the list and the pane
        yield verdict
        with Horizontal(id="main"):
            yield LayerList(id="layers")
            first = SIDE_PANES[0]
            with ContentSwitcher(initial=first.id, id="side") as side:
                side.border_title = f"{first.title} · p: next pane"
                yield first.make(first.id)  # the other panes mount on first use (`p`)
        yield Static(id="cursor-name", markup=False)
        yield Input(
            placeholder="filter: words  op:Conv  health:fail  cosine<0.999  rel>0.01  #10-20  (enter keeps, "
            "esc restores)",
            id="filter",
            suggester=FilterSuggester(),
        )
        yield KeysFooter()  # rebuilt only when the keys it shows change

    # -- view state ----------------------------------------------------------------------
    def watch_view(self) -> None:
        self._apply_view()

    def watch_progress(self) -> None:
        if (
            self.progress is None
        ):  # the fill is over, however it ended: the complete table first, then a full pass
            self.call_after_refresh(self._full_passes.resume)
            self.call_later(self.tensor_pane.resume_reads)  # after the final table reached the pane
        self._show_summary()

    def on_unmount(self) -> None:
        self._full_passes.resume()  # quit while filling: the process's collector as it was

    @property
    def main_screen(self) -> Screen[Any]:
        """The screen with the list (the bottom of the stack, whatever is pushed on top)."""
        return self.screen_stack[0]

    @property
    def layer_list(self) -> LayerList:
        return self.main_screen.query_one("#layers", LayerList)

    @property
    def tensor_pane(self) -> TensorPane:
        return self.main_screen.query_one("#tensor", TensorPane)

    @property
    def side(self) -> ContentSwitcher:
        return self.main_screen.query_one("#side", ContentSwitcher)

    @property
    def filter_box(self) -> Input:
        return self.main_screen.query_one("#filter", Input)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """List actions run only while the list's screen is in front (hidden from the footer otherwise)."""
        if action in _LIST_ACTIONS and self.screen is not self.main_screen:
            return False
        if action == "diagnose_judged":  # in the footer only after a cancel left rows undiagnosed
            return self._judged is not None
        if action == "switch_side":  # three-way only
            return self.threeway is not None
        return True

    def on_mount(self) -> None:
        freeze_at_exit()  # quitting skips the interpreter's last walk over the whole heap
        if self._theme_name:
            self.theme = self._theme_name
        keymap, problems = load_keymap(known=binding_ids())
        if keymap:
            self.set_keymap(keymap)
        for problem in problems:
            self.notify(problem, title="keymap", severity="warning", markup=False)
        self.layer_list.focus()
        if isinstance(self._source, CompareRequest):
            self._full_passes.pause()
            self.tensor_pane.defer_reads = True  # until the fill completes or the user moves
            self.progress = (0, 0)
            if self._source.b is not None:
                self._compare_three(self._source)
            else:
                self._compare(self._source)
        elif _is_three_way(self._source):  # (no import of core here: polars loads after the first paint)
            self._show_three_way(self._source)  # type: ignore[arg-type]
        else:
            self._show_comparison(self._source)  # type: ignore[arg-type]

    def _show_three_way(self, threeway: ThreeWay) -> None:
        """Side A as the list (every pane works on it), side B's cosine, health and ``worse`` beside it."""
        from dumpscope.core.comparison.threeway import union_a

        first_time = self.threeway is None
        self.threeway = threeway
        self.progress = None
        if not first_time:  # the other side's rows: a new table, counts, first divergent and diagnosis
            self.rows = None
            self.diagnosis = None
            self.main_screen.query_one(VerdictBar).show(None)
        self._show_comparison(union_a(threeway))  # side A's rows, then the tensors only B holds
        self.refresh_bindings()
        assert self.rows is not None
        self.rows.attach_b(threeway.frame, threeway.labels)
        self.layer_list.data_changed()
        self._show_summary()

    def action_switch_side(self) -> None:
        """Three-way: the whole screen (list, counts, first divergent, verdict, panes) on the other side;
        the side shown first is named first everywhere (``worse:A`` is the side on screen)."""
        from dumpscope.core.comparison.threeway import swapped

        if self.threeway is None:
            return
        selected = self.layer_list.selected
        name = self.rows.name(selected) if self.rows is not None and selected is not None else None
        other = self._other_side or swapped(self.threeway)
        self._other_side = self.threeway
        self._show_three_way(other)
        if name is not None and self.rows is not None:
            try:
                self.layer_list.select_position(
                    self.rows.name_index(name)
                )  # the same tensor, on the other side
            except KeyError:
                pass

    @work(thread=True, exclusive=True, group="compare", exit_on_error=False)
    def _compare_three(self, request: CompareRequest) -> None:
        """Both comparisons of a three-way compare, off the UI thread (shown when both are in)."""
        compare_three_way(self.post_message, request)

    @_while_shown
    def on_dumpscope_app_three_way_ready(self, message: ThreeWayReady) -> None:
        self._show_three_way(message.threeway)
        tw = message.threeway
        for side, label in zip((tw.a, tw.b), tw.labels, strict=True):  # where each --cache index is
            if side.meta.cache:
                self.notify(f"cache ({label}): {side.meta.cache}", title="--cache", timeout=6, markup=False)

    # -- data ----------------------------------------------------------------------------
    def _show_comparison(self, comparison: Comparison) -> None:
        first_time = self.rows is None
        self.comparison = comparison
        if self.rows is None or self.rows.n != comparison.frame.height:
            self.rows = LayerRows(comparison.frame)
            self.rows.sigmastar = both_sigmastar(comparison.meta)
            self.rows.thresholds = comparison.thresholds
            self._known_ops = None
            self.layer_list.set_rows(self.rows, self._view())
        else:
            self.layer_list.rows_changed(self.rows.update(comparison.frame))  # repaints only rows on screen
            if self.view.sort_key.id not in ("order", "op", "name") or self.view.query.fields:
                self.layer_list.set_view(self._view())
        if first_time or self.progress is None or self._selected_changed(comparison):
            self.tensor_pane.set_comparison(comparison)  # not per streamed update: only when its row changed
        if first_time:
            self.tensor_pane.show_row(self.layer_list.selected)
        if self.progress is None:
            self._fit_list_height()  # the table is complete: hold a short one to its rows
            self._land_on_first_divergent()
            if self._diagnosed is not comparison:  # complete: name the root cause (off the UI thread)
                self._diagnosed, self.diagnosis_due = comparison, True
                # after the first frames are drawn, so the worker does not compete with the first paint
                self.set_timer(0.2, partial(self._diagnose, comparison))
            self._show_side_pane()
        self._show_summary()

    def _selected_changed(self, comparison: Comparison) -> bool:
        """The selected row's health differs from what the tensor pane shows (it was computed meanwhile)."""
        pane, position = self.tensor_pane, self.layer_list.selected
        shown = pane.comparison
        if shown is None or position is None or position >= shown.frame.height:
            return True
        return bool(shown.frame["health"][position] != comparison.frame["health"][position])

    def _land_on_first_divergent(self) -> None:
        """Once the comparison is complete, start where the answer is, unless the user has moved on.

        "Moved on" is a filter, a sort or a cursor off the first row.
        """
        lst, cmp = self.layer_list, self.comparison
        if self._landed or cmp is None or self.view.moved_from_start or lst.cursor:
            return
        self._landed = True
        first = cmp.first_divergent()
        if first is not None:
            lst.select_position(first)

    def _view(self) -> np.ndarray:
        assert self.rows is not None
        view = self.view
        return self.rows.view(view.query, view.sort_key.id, view.descending)

    def _apply_view(self) -> None:
        if self.rows is not None:
            self.layer_list.sort_key, self.layer_list.sort_descending = (
                self.view.sort_key.id,
                self.view.descending,
            )
            self.layer_list.set_view(self._view())
        self._fit_list_height()
        self._show_summary()

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self._fit_list_height)  # the breakpoint classes may have changed

    def _fit_list_height(self) -> None:
        """Under the list (narrow terminals), the side pane takes the lines the list does not need: a
        filter that keeps three rows leaves the pane everything but four lines."""
        lst = self.layer_list
        needed = int(lst.view.size) + 1  # the header
        share = self.main_screen.query_one("#main").size.height * 3 // 5  # the list's 3fr of 3fr + 2fr
        narrow = self.main_screen.has_class("-narrow")
        wanted = (
            needed if narrow and self.rows is not None and self.progress is None and needed < share else None
        )
        if wanted != self._list_height:  # a style write lays the screen out again: only on a change
            self._list_height = wanted
            lst.styles.height = wanted

    def _show_summary(self, note: Content | None = None) -> None:
        summary = Summary(progress=self.progress)
        if self.rows is not None and self.comparison is not None:
            self._table_counts(self.rows, self.comparison).fill(summary)
        status = summary.status
        if self._cancelled and self.progress is None:
            status.append(styled("[$warning]comparison cancelled: rows left pending[/]"))
        if self.rows is not None:
            status += view_notes(self.view, self.rows, self.layer_list.view.size)
        if self.threeway is not None:
            status.append(worse_note(self.threeway))
        stage = STAGES.get(str(self.comparison.meta.stage)) if self.comparison is not None else None
        if stage:  # SigmaStar: which of the SigmaStar IPU guide's three comparisons this is
            status.append(styled("[b]$stage[/b]", stage=stage))
        warnings = self._warnings()
        if warnings:
            status.append(
                styled(f"[$warning]⚠ {len(warnings)} input warning{'s' if len(warnings) > 1 else ''} (w)[/]")
            )
        if note is not None:
            status.append(note)
        self.main_screen.query_one(SummaryBar).show(summary)

    def _table_counts(self, rows: LayerRows, cmp: Comparison) -> TableCounts:
        """The summary's counts of the table shown (cached: progress ticks only move the count)."""
        if self._counts is None or not self._counts.is_for(rows, cmp):
            self._counts = TableCounts.of(rows, cmp)
        return self._counts

    @work(thread=True, exclusive=True, group="compare", exit_on_error=False)
    def _compare(self, request: CompareRequest) -> None:
        """Run the comparison off the UI thread, the growing table posted as it fills."""
        self._preview_painted.clear()
        stream_comparison(self.post_message, request, self._preview_painted)

    def on_dumpscope_app_counted(self, message: Counted) -> None:
        """More rows compared (the table itself follows less often): the summary's count moves."""
        if self.progress is not None and message.done < message.total:
            self.progress = (message.done, message.total)

    @_while_shown
    def on_dumpscope_app_progressed(self, message: Progressed) -> None:
        from textual.css.query import NoMatches

        try:
            if message.comparison.meta.preview:  # the first rows: the whole dumps are still opening
                self.progress = (0, 0)
                self.call_after_refresh(self._preview_painted.set)
            else:
                self.progress = None if message.done >= message.total else (message.done, message.total)
            self._show_comparison(message.comparison)
        except NoMatches:  # the list screen's widgets are already gone: the app is closing
            return
        cache = message.comparison.meta.cache
        if cache and message.done >= message.total:  # where the --cache index is, or why it is not
            self.notify(f"cache: {cache} (↺: served from it)", title="--cache", timeout=6, markup=False)

    @_while_shown
    def on_dumpscope_app_load_failed(self, message: LoadFailed) -> None:
        from dumpscope.tui.app.screens.message import MessageScreen

        self.progress = None
        self.push_screen(MessageScreen("Cannot compare these dumps", message.text))

    @_while_shown
    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "compare" and event.state in (WorkerState.CANCELLED, WorkerState.SUCCESS):
            if event.state == WorkerState.CANCELLED:
                self._cancelled = True
                if self.progress not in (None, (0, 0)) and self.comparison is not None:  # (0, 0): a preview
                    self._judged = self.progress
                    self.main_screen.query_one(VerdictBar).offer(*self.progress)
                    self.refresh_bindings()
            self.progress = None

    def action_diagnose_judged(self) -> None:
        """After a cancel: diagnose the rows judged so far (the verdict says it covers only those)."""
        if self._judged is not None and self.comparison is not None:
            self._diagnosed = self.comparison
            self.main_screen.query_one(VerdictBar).compute(self.comparison, judged=self._judged)
            self._judged = None
            self.refresh_bindings()

    # -- selection -----------------------------------------------------------------------
    @on(LayerList.CursorMoved)
    @_while_shown
    def _cursor_moved(self, message: LayerList.CursorMoved) -> None:
        if self.comparison is not None:  # the newest streamed state, for the row it will show
            self.tensor_pane.set_comparison(self.comparison, render=False)
        self.tensor_pane.show_row(message.position)
        if self.layer_list.cursor or self.view.moved_from_start:  # the user moved: their row is read at once
            self.tensor_pane.resume_reads()  # (after show_row: the row being left is not read)
        self._show_side_pane()
        self._show_cursor_name(message.position)

    def _show_cursor_name(self, position: int | None) -> None:
        """The full name of the cursor row (the list may have elided it), the target's too when it differs."""
        text = cursor_line(self.rows, position) if self.rows is not None and position is not None else ""
        self.main_screen.query_one("#cursor-name", Static).update(
            text, layout=False
        )  # one line, fixed height

    def _show_side_pane(self) -> None:
        """The overflow and fusion panes work for the selected row only while shown."""
        current = self.side.current
        if current is None:
            return
        pane = self.side.query_one(f"#{current}")
        if isinstance(pane, RowFactsPane):
            pane.show(self.comparison, self.layer_list.selected)

    def _diagnose(self, comparison: Comparison) -> None:
        """Diagnose the complete comparison (a timer; it may fire while the app shuts down)."""
        if comparison is not self._diagnosed:
            return  # an older comparison's timer: the newer one's diagnosis is still due
        self.diagnosis_due = False
        if self.screen_stack:
            self.main_screen.query_one(VerdictBar).compute(comparison)
            self._mark_fused(comparison)

    def _mark_fused(self, comparison: Comparison) -> None:
        """Which rows take part in a fusion, for the ``fused:yes`` filter."""
        from dumpscope.core.inspect.fusion import fused_rows

        if self.rows is not None:
            self.rows.fused = fused_rows(comparison)
            if self.view.query.fields:
                self._apply_view()

    async def action_next_pane(self) -> None:
        """Cycle the side panes of :data:`SIDE_PANES` that have something to show for this comparison
        (each mounted when first shown); the pane's name goes in the side's title, not a toast over it."""
        new = next_pane(self.side.current, self.comparison)
        if not self.side.query(f"#{new.id}"):
            await self.side.mount(new.make(new.id))
        self.side.current = new.id
        self.side.border_title = f"{new.title} · p: {next_pane(new.id, self.comparison).title}"
        self._show_side_pane()

    @on(VerdictBar.Diagnosed)
    @_while_shown
    def _diagnosed_now(self, message: VerdictBar.Diagnosed) -> None:
        """Mark where errors start in the list and put the evidence in the tensor pane."""
        diagnosis = message.diagnosis
        if diagnosis is None or self.rows is None or self.comparison is not self._diagnosed:
            return
        self.diagnosis = diagnosis
        self.rows.set_origin(diagnosis.classification["origin"].to_list())
        self.layer_list.data_changed()
        self.tensor_pane.set_findings(findings_by_row(diagnosis, self.comparison.frame["message"].to_list()))

    @_while_shown
    def on_neighbourhood_pane_go_to(self, message: NeighbourhoodPane.GoTo) -> None:
        """Enter on a tensor of the neighbourhood pane: the list moves there (the pane follows)."""
        self._jump_to(message.row, "tensor")
        self.side.query_one("#neighbourhood").focus()

    @on(VerdictBar.JumpTo)
    @_while_shown
    def _verdict_jump(self, message: VerdictBar.JumpTo) -> None:
        self._jump_to(message.row, "root cause")

    def action_verdict_jump(self) -> None:
        self.main_screen.query_one(VerdictBar).action_jump()

    @on(LayerList.Activated)
    @_while_shown
    def _activated(self, message: LayerList.Activated) -> None:
        from dumpscope.tui.app.screens.tensor import TensorScreen

        if self.comparison is not None:
            self.push_screen(TensorScreen(self.comparison, message.position))

    def _jump_to(self, position: int | None, what: str) -> None:
        """Select frame row ``position``, clearing the filter when it hides that row."""
        if position is None:
            self.notify(f"no {what}", timeout=2, markup=False)
            return
        if not self.layer_list.select_position(position):
            self.filter_box.value = ""
            self.view = self.view.filtered(Query())
            self.layer_list.select_position(position)
            self.notify(f"filter cleared to show the {what}", timeout=2, markup=False)
        self.layer_list.focus()

    # -- actions -------------------------------------------------------------------------
    def action_filter(self) -> None:
        box = self.filter_box
        self._filter_before = self.view.query.text
        box.add_class("-active")
        box.value = self.view.query.text or self.search.text
        box.focus()

    @on(Input.Changed, "#filter")
    @_while_shown
    def _filter_typed(self, event: Input.Changed) -> None:
        self._set_query(event.value)

    @on(Input.Submitted, "#filter")
    @_while_shown
    def _filter_done(self, event: Input.Submitted) -> None:
        if self._set_query(event.value):
            event.input.remove_class("-active")
            self.layer_list.focus()

    def _set_query(self, text: str) -> bool:
        try:
            query = Query.parse(text)
            if self.rows is not None:
                query.check(self.rows)
        except QueryError as exc:
            self._show_summary(styled("[$error]$problem[/]", problem=str(exc)))
            return False
        if query:
            self.search = query
        self.view = self.view.filtered(query)
        return True

    def action_match(self, step: int) -> None:
        if self.rows is None or not self.search:
            self.notify("no search yet: press / and type", timeout=2)
            return
        lst = self.layer_list
        hit = self.rows.next_in_view(lst.view, lst.cursor, step, self.rows.mask(self.search))
        if hit is None:
            self.notify(
                f"no {'further' if step > 0 else 'earlier'} match for {self.search.text!r}",
                timeout=2,
                markup=False,
            )
        else:
            lst.move_cursor(hit)

    def action_first_divergent(self) -> None:
        if self.comparison is not None:
            self._jump_to(self.comparison.first_divergent(), "divergent layer")

    def action_unhealthy(self, step: int) -> None:
        if self.rows is None:
            return
        lst = self.layer_list
        hit = self.rows.next_in_view(lst.view, lst.cursor, step, self.rows.unhealthy_mask)
        if hit is None:
            self.notify(f"no {'next' if step > 0 else 'previous'} unhealthy layer in view", timeout=2)
        else:
            lst.move_cursor(hit)

    def action_sort(self) -> None:
        self.view = self.view.sorted_by(self.view.sort_index + 1)

    def action_sort_by(self, key: str) -> None:
        """Sort by the column ``key`` (a :data:`SORT_KEYS` id), worst first."""
        self.view = self.view.sorted_by(next(i for i, k in enumerate(SORT_KEYS) if k.id == key))

    def action_filter_to(self, text: str) -> None:
        """Apply the filter ``text`` as if typed after `/`."""
        self.filter_box.value = text
        self._set_query(text)

    def action_reverse_sort(self) -> None:
        self.view = self.view.reversed()

    def action_step_back(self) -> None:
        """Esc: leave the filter box, else cancel the comparison, else clear the filter, else refocus."""
        box = self.filter_box
        if box.has_focus:
            box.value = self._filter_before
            self._set_query(self._filter_before)
            box.remove_class("-active")
            self.layer_list.focus()
        elif self.progress is not None:
            self.workers.cancel_group(self, "compare")
        elif self.view.query:
            position = self.layer_list.selected
            box.value = ""
            self.view = self.view.filtered(Query())
            if position is not None:
                self.layer_list.select_position(position)
        elif not self.layer_list.has_focus:
            self.layer_list.focus()

    def _warnings(self) -> list[str]:
        return self.comparison.warnings if self.comparison is not None else []

    def action_warnings(self) -> None:
        from dumpscope.tui.app.screens.notes import NotesScreen

        warnings = self._warnings()
        if not warnings:
            self.notify("no warnings about the inputs", timeout=2)
            return
        self.push_screen(NotesScreen("What the readers and the pairing noticed", warnings))

    def action_copy_name(self) -> None:
        """Put the selected tensor's name on the clipboard (OSC 52: works over SSH too)."""
        position = self.layer_list.selected
        if self.rows is None or position is None:
            return
        name = str(self.rows.frame["name"][position] or self.rows.frame["target_name"][position] or "")
        self.copy_to_clipboard(name)
        self.notify(f"copied {name}", timeout=2, markup=False)

    def action_help(self) -> None:
        from dumpscope.tui.app.screens.help import HelpScreen

        self.push_screen(HelpScreen(self._help_sections()))

    def action_export(self) -> None:
        from dumpscope.tui.app.screens.export import ExportScreen

        if self.comparison is None:
            self.notify("nothing to export yet", timeout=2)
            return
        self.push_screen(
            ExportScreen(self.comparison, self.layer_list.view, self.view.query.text), callback=self._exported
        )

    def _exported(self, result: str | None) -> None:
        if result:
            self.notify(result, title="export", timeout=4, markup=False)

    def action_find_fix(self) -> None:
        """The fix search on this pair, seeded by its diagnosis (:mod:`~dumpscope.tui.app.screens.fix`)."""
        from dumpscope.tui.app.screens.fix import FixScreen

        if self.comparison is None or self.progress is not None:
            self.notify("the comparison is not complete yet", timeout=2)
            return
        self.push_screen(FixScreen(self.comparison, self.diagnosis))

    def action_lookup(self) -> None:
        try:
            from dumpscope.tui.app.screens.lookup import LookupScreen
        except ImportError:
            self.notify("error lookup is not installed in this build", severity="warning")
            return
        self.push_screen(LookupScreen(known_ops=lambda name: self._op_position(name) is not None))

    def _op_position(self, name: str) -> int | None:
        """First row whose node or tensor name is ``name`` (Ascend-sanitised spellings too)."""
        if self.comparison is None:
            return None
        if self._known_ops is None:
            self._known_ops = OpIndex(self.comparison.frame)
        return self._known_ops.position(name)

    @_while_shown
    def on_lookup_screen_jump_to_op(self, message: Any) -> None:
        """The lookup screen names an op: leave it and select that op's row."""
        op_name = str(getattr(message, "op_name", ""))
        position = self._op_position(op_name)
        if position is None:
            self.notify(f"{op_name!r} is not in this comparison", severity="warning", markup=False)
            return
        if self.screen is not self.screen_stack[0]:
            self.pop_screen()
        self._jump_to(position, f"op {op_name}")

    # -- help and palette ----------------------------------------------------------------
    def _help_sections(self) -> list[tuple[str, list[KeyHelp]]]:
        from dumpscope.tui.app.screens.help import collect_bindings

        return [
            ("Layer list", collect_bindings([self.layer_list])),
            ("Tensor pane", collect_bindings([self.tensor_pane])),
            *(
                (f"{p.title.capitalize()} pane", collect_bindings([w]))
                for p in SIDE_PANES[1:]
                for w in self.side.query(f"#{p.id}")
            ),
            ("Everywhere", collect_bindings([self])),
        ]

    def key_help(self) -> list[KeyHelp]:
        return [entry for _title, entries in self._help_sections() for entry in entries]


_LIST_ACTIONS = frozenset(
    {
        "filter",
        "match",
        "first_divergent",
        "unhealthy",
        "sort",
        "reverse_sort",
        "step_back",
        "export",
        "warnings",
        "copy_name",
        "sort_by",
        "filter_to",
        "verdict_jump",
        "next_pane",
    }
)


def _is_three_way(source: object) -> bool:
    """A :class:`~dumpscope.core.comparison.threeway.ThreeWay` (two comparisons side by side)."""
    return hasattr(source, "worse_counts") and hasattr(source, "b")
