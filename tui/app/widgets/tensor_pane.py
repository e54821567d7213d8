"""The tensor pane: everything about the selected row.

What the comparison table already knows (shapes, dtypes, min/max/mean/std, NaN/Inf
counts, every metric and the band it is judged by, why the row is unhealthy) shows at
once.  What needs the tensors themselves (histograms, first NaN/Inf positions, the worst
elements) is read in a thread worker for the selected row only; a result for a row that
is no longer selected is dropped.  Rapid cursor moves are debounced so holding `j`
repaints the list only; the pane follows when the cursor rests.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from dumpscope.core.comparison.judge import metric_states
from dumpscope.core.names import display
from dumpscope.core.vocabulary import Health, format_number
from dumpscope.tui.app.background import Superseded, cancelled, run_in_background
from dumpscope.tui.app.widgets.histogram import bars
from dumpscope.tui.app.widgets.layer_rows import UNMATCHED_LABEL, printable
from dumpscope.tui.app.widgets.summary_bar import health_text, styled

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.inspect.tensor_stats import TensorStats

METRICS: tuple[tuple[str, str], ...] = (
    ("cosine_similarity", "cosine similarity"),
    ("max_absolute_error", "max abs error"),
    ("mean_absolute_error", "mean abs error"),
    ("root_mean_square_error", "RMSE"),
    ("relative_euclidean_distance", "relative distance"),
    ("accumulated_relative_error", "accum. rel error"),
    ("max_relative_error", "max rel error"),
    ("mean_relative_error", "mean rel error"),
    ("kullback_leibler_divergence", "KL divergence"),
    ("sqnr_db", "SQNR dB"),
    ("within_tolerance", "within tolerance"),
)
#: SigmaStar's listing metrics, shown when both sides are SigmaStar dumps.
SIGMASTAR_METRICS: tuple[tuple[str, str], ...] = (("mse", "MSE"), ("sgs_rmse", "RMSE (SigmaStar)"))
SIDE_ROWS: tuple[tuple[str, str], ...] = (
    ("min", "min"),
    ("max", "max"),
    ("mean", "mean"),
    ("std", "std"),
    ("nan", "NaN"),
    ("inf", "Inf"),
)
SETTLE_S = 0.08
"""The pane follows the cursor once it rests this long: holding `j` (key repeat ~30 ms)
repaints only the list, and the pane catches up when the key is let go."""


def _num(value: Any, width: int = 14) -> str:
    """A value in ``width`` cells through the app's one formatter (counts stay exact integers)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return format_number(None if value is None else float(value), width)


def _shape(value: Any) -> str:
    return "?" if value is None else "×".join(str(d) for d in value) or "scalar"


def _index(ix: Any) -> str:
    return "(" + ",".join(str(int(i)) for i in ix) + ")"


class TensorPane(VerticalScroll, can_focus=True):
    """Details of one comparison row; tensors read lazily off the UI thread."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "scroll_down", "Scroll down", show=False, id="pane.down"),
        Binding("k,up", "scroll_up", "Scroll up", show=False, id="pane.up"),
        Binding("ctrl+d,pagedown", "page_down", "Page down", show=False, id="pane.page_down"),
        Binding("ctrl+u,pageup", "page_up", "Page up", show=False, id="pane.page_up"),
    ]

    class StatsReady(Message):
        """Tensor-level statistics for ``position`` (or why they are unavailable)."""

        def __init__(self, position: int, stats: TensorStats | None, problem: str | None) -> None:
            """Exactly one of ``stats`` and ``problem`` is set."""
            super().__init__()
            self.position, self.stats, self.problem = position, stats, problem

    def __init__(self, *, detail: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.detail = detail
        """Full-screen mode: wider histograms and more worst elements."""
        self.comparison: Comparison | None = None
        self.position: int | None = None
        self._pending: int | None = None
        self._timer: Timer | None = None
        self.findings: dict[int, tuple[str, ...]] = {}
        """Diagnosis lines per frame row (root causes: evidence and advice)."""
        self.defer_reads = False
        """While set, a row is shown from the table but its tensors are not read (the app sets it
        while a comparison fills and the user has not moved: the row the list lands on by itself
        would otherwise cost a file read and two layout passes, under the GIL the comparison needs)."""
        self._deferred: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="pane-title")
        with Container(id="pane-numbers"):  # stacked in the side pane, side by side full-screen
            yield Static(id="pane-sides")
            yield Static(id="pane-metrics")
        yield Static(id="pane-tensors")

    def set_comparison(self, comparison: Comparison, *, render: bool = True) -> None:
        """A newer comparison (streamed update): re-show the current row from it (unless ``render`` is off:
        the next row shown reads it)."""
        changed = comparison is not self.comparison
        self.comparison = comparison
        if render and changed and self.position is not None:
            self._render_row(self.position, reload=False)

    def set_findings(self, findings: dict[int, tuple[str, ...]]) -> None:
        """What the diagnosis says about rows (shown under the row's title)."""
        self.findings = findings
        if self.position is not None:
            self._render_row(self.position, reload=False)

    def show_row(self, position: int | None) -> None:
        """Select ``position``; the pane refreshes when the cursor has rested :data:`SETTLE_S`."""
        self._pending = position
        if self._timer is None:
            self._timer = self.set_timer(SETTLE_S, self._flush)
        else:
            self._timer.reset()

    @property
    def is_settled(self) -> bool:
        """No refresh waiting for the cursor to rest (tests and screenshots wait on this)."""
        return self._timer is None

    def _flush(self) -> None:
        self._timer = None
        if self._pending != self.position or self._pending is None:
            self.position = self._pending
            self._render_row(self.position, reload=True)

    # -- rendering -----------------------------------------------------------------------
    def _render_row(self, position: int | None, *, reload: bool) -> None:
        title, sides, metrics, tensors = (
            self.query_one(f"#pane-{n}", Static) for n in ("title", "sides", "metrics", "tensors")
        )
        cmp = self.comparison
        if cmp is None or position is None or position >= cmp.frame.height:
            title.update("[$text-muted]no row selected[/]")
            for part in (sides, metrics, tensors):
                part.update("")
            return
        row = cmp.frame.row(position, named=True)
        title.update(self._title(row, self.findings.get(position, ())))
        sides.update(Content("\n").join([self._sides(row), *_quant_lines(cmp, position)]))
        metrics.update(self._metrics(cmp, row))
        if reload:
            self._start_tensors(cmp, row, position, tensors)

    def resume_reads(self) -> None:
        """Stop deferring reads; read the shown row's tensors if they were deferred."""
        self.defer_reads = False
        deferred, self._deferred = self._deferred, None
        cmp = self.comparison
        if self._timer is not None and self._pending != self.position:
            return  # the cursor is on its way to another row: that one is read when the pane gets there
        if (
            deferred is not None
            and deferred == self.position
            and cmp is not None
            and deferred < cmp.frame.height
        ):
            self._start_tensors(
                cmp, cmp.frame.row(deferred, named=True), deferred, self.query_one("#pane-tensors", Static)
            )

    def _start_tensors(self, cmp: Comparison, row: dict[str, Any], position: int, part: Static) -> None:
        """Read the row's tensors in the background, or say why there are none to read."""
        why = _no_tensors(cmp, row)
        if why is not None:
            part.update(f"[$text-muted]{why}[/]")
            return
        if self.defer_reads:
            self._deferred = position
            part.update("[$text-muted]tensors: read when the comparison completes, or when you move[/]")
            return
        part.update("[$text-muted]reading tensors…[/]")
        self._load(cmp, position)

    def _title(self, row: dict[str, Any], findings: tuple[str, ...] = ()) -> Content:
        lines = [
            _name_line(row),
            *_target_name_lines(row),
            styled("[$text-muted]$facts[/]", facts=" · ".join(f for f in _row_facts(row) if f)),
        ]
        if row.get("message"):
            lines.append(styled("[$warning]$message[/]", message=printable(row["message"])))
        lines += _finding_lines(findings)
        return Content("\n").join(lines)

    def _sides(self, row: dict[str, Any]) -> Content:
        """Shape, dtype and value statistics of the golden and the target side by side."""
        pairs = (
            ("shape", _shape(row.get("shape")), _shape(row.get("target_shape"))),
            ("dtype", printable(row.get("dtype") or "?"), printable(row.get("target_dtype") or "?")),
        )
        w = self._side_width()
        lines = [
            styled(f"[b]{'':<8}{'golden':>{w}}{'target':>{w}}[/b]"),
            *(
                styled("$line", line=f"{label:<8}{_keep_end(g_text, w):>{w}}{_keep_end(t_text, w):>{w}}")
                for label, g_text, t_text in pairs
            ),
            *(_side_stat_line(row, key, label, w) for key, label in SIDE_ROWS),
        ]
        return Content("\n").join(lines)

    def _side_width(self) -> int:
        """Cells per side column: 16 when the pane has room, else what fits on one line (a
        side pane beside the list is ~36 cells at 100 columns): a value never wraps under
        its label."""
        width = self.scrollable_content_region.width
        return SIDE_WIDTH if width <= 0 else max(MIN_SIDE_WIDTH, min(SIDE_WIDTH, (width - 8) // 2))

    def _metrics(self, cmp: Comparison, row: dict[str, Any]) -> Content:
        """Every metric of the row; the band it is judged by goes under it (panes are narrow)."""
        lines = [styled(f"[b]{'metric':<18}{'value':>14}[/b]")]
        from dumpscope.core.vendor.sigmastar import both_sigmastar

        shown = METRICS + (SIGMASTAR_METRICS if both_sigmastar(cmp.meta) else ())
        states = metric_states(row, cmp.thresholds) if row.get("health") in (Health.FAIL, Health.WARN) else {}
        lines += _nonfinite_rule_lines(row)
        for column, label in ((c, label) for c, label in shown if c in row):
            lines += _metric_lines(cmp, row, column, label, states.get(column))
        return Content("\n").join(lines)

    # -- tensors -------------------------------------------------------------------------
    def _load(self, cmp: Comparison, position: int) -> None:
        run_in_background(
            self,
            partial(_read_stats, cmp, position),
            lambda stats, problem: self.StatsReady(position, stats, problem),
            group="tensor-pane",
            explain=lambda exc: str(exc) or type(exc).__name__,
        )

    def on_tensor_pane_stats_ready(self, message: StatsReady) -> None:
        message.stop()
        if message.position != self.position:
            return  # the user moved on; a newer load is under way
        part = self.query_one("#pane-tensors", Static)
        if message.problem is not None:
            part.update(
                styled(
                    "[$error]cannot read tensors:[/] $problem", problem=printable(display(message.problem))
                )
            )
        elif message.stats is not None:
            part.update(self._tensors(message.stats))

    def _tensors(self, stats: TensorStats) -> Content:
        width = max(16, self.scrollable_content_region.width - 2)
        lines = [styled("[$text-muted]$note[/]", note=stats.note)] if stats.note else []
        lines += _histogram_lines(stats, width, 5 if self.detail else 3)
        lines += _nonfinite_lines(stats)
        lines += _worst_lines(stats, self.detail)
        return Content("\n").join(lines) if lines else styled("[$text-muted]no element-wise differences[/]")


def _no_tensors(cmp: Comparison, row: dict[str, Any]) -> str | None:
    """Why the row has no tensors to read (a reopened file, one side only), or None."""
    if not cmp.has_tensors:
        return (
            "Tensor data is not available: this comparison was reopened from a "
            "saved file. Open the dumps (dumpscope GOLDEN TARGET) for histograms and the "
            "worst elements."
        )
    if row.get("side") not in (None, "both"):
        return "Only one side has this tensor: nothing to compare element-wise."
    return None


def _name_line(row: dict[str, Any]) -> Content:
    """The row's name in bold and its health (``unmatched`` says which side has it)."""
    name = printable(row.get("name") or row.get("target_name") or "")
    health = row.get("health") or "pending"
    label = UNMATCHED_LABEL.get(row.get("side") or "") if health == Health.UNMATCHED else None
    return Content("  ").join([styled("[b]$name[/b]", name=name), health_text(health, label)])


def _target_name_lines(row: dict[str, Any]) -> list[Content]:
    """The target's tensor name when it differs from the golden one."""
    target_name = row.get("target_name")
    if target_name and target_name != row.get("name"):
        return [styled("target name: $name", name=printable(target_name))]
    return []


#: Cells of a side column in the tensor pane, and the least it shrinks to (9 = 8 digits + a space).
SIDE_WIDTH, MIN_SIDE_WIDTH = 16, 9


def _keep_end(text: str, width: int) -> str:
    """``text`` in ``width - 1`` cells (one space apart), its end kept: ``…224×224``."""
    return text if len(text) < width else "…" + text[len(text) - width + 2 :]


def _side_stat_line(row: dict[str, Any], key: str, label: str, width: int = SIDE_WIDTH) -> Content:
    """One statistic of both sides; NaN/Inf counts in red when the target has more than the golden."""
    g, t = row.get(f"{key}_golden"), row.get(f"{key}_target")
    line = f"{label:<8}{_num(g, width - 1):>{width}}{_num(t, width - 1):>{width}}"
    alarm = key in ("nan", "inf") and (t or 0) > (g or 0)
    return styled("[$error b]$line[/]" if alarm else "$line", line=line)


#: The mark beside a metric past its bound: glyph and theme colour (readable without colour too).
_STATE_MARK: dict[str, tuple[str, str]] = {"fail": ("✗", "$error"), "warn": ("!", "$warning")}


def _nonfinite_rule_lines(row: dict[str, Any]) -> list[Content]:
    """The non-finite rule, when it is what fails the row: the metrics then cover only the positions
    finite on both sides and may all be inside their bands."""
    n = row.get("nonfinite_mismatch") or 0
    if not n or row.get("health") not in (Health.FAIL, Health.WARN):
        return []
    text = (
        f"✗ {n} position{'s are' if n != 1 else ' is'} NaN/Inf on one side only (the metrics cover the rest)"
    )
    return [styled("[$error b]$text[/]", text=text)]


def _metric_lines(
    cmp: Comparison, row: dict[str, Any], column: str, label: str, state: str | None = None
) -> list[Content]:
    """A metric's value (``✗``/``!`` beside it when it is past a fail/warn bound of the row's band),
    and the band it is judged by (unless it is not judged)."""
    value = (row.get("printed") or {}).get(column) or _num(row[column], 14)  # imported: as printed
    glyph, colour = _STATE_MARK.get(state or "", (" ", ""))
    line = f"{label:<18}{value:>14} {glyph}"
    lines = [styled(f"[{colour} b]$line[/]" if colour else "$line", line=line)]
    band = _describe(cmp, column, row.get("band"))
    if band and band != "not judged":
        lines.append(styled("  [$text-muted]judged by: $band[/]", band=band))
    return lines


def _quant_lines(cmp: Comparison, position: int) -> list[Content]:
    """The records' quantisation (type, scale, zero point) per side, when a dump records it."""
    from dumpscope.core.vendor.sigmastar import quant_facts

    if cmp.pairing is None or position >= len(cmp.pairing.pairs):
        return []
    pair = cmp.pairing.pairs[position]
    sides = [quant_facts(ref.info if ref is not None else None) for ref in (pair.golden, pair.target)]
    if sides == [None, None]:
        return []
    none = ("·", "·", "·")
    g, t = (s or none for s in sides)
    return [
        styled("$line", line=f"{label:<8}{printable(a)[:15]:>16}{printable(b)[:15]:>16}")
        for label, a, b in zip(("qtype", "scale", "zero pt"), g, t, strict=False)
    ]


def _row_facts(row: dict[str, Any]) -> list[str]:
    """Op, node, index, kind, band and pairing of a row (empty strings for what is unknown)."""
    return [
        printable(row.get("op_type") or "?"),
        f"node {printable(row.get('node_name') or '?')}",
        f"#{row.get('index')}",
        row.get("kind") or "",
        f"band {row['band']}" if row.get("band") else "",
        _pairing_fact(str(row["pairing"])) if row.get("pairing") else "",
    ]


def _pairing_fact(pairing: str) -> str:
    """``paired by exact``; a re-aligned msprobe pair says itself which calls it joined."""
    return printable(pairing) if pairing.startswith("aligned:") else f"paired by {pairing}"


def _finding_lines(findings: tuple[str, ...]) -> list[Content]:
    """What the diagnosis says about the row: a bold head line, then bullets."""
    if not findings:
        return []
    return [
        styled("[b $error]$head[/]", head=printable(findings[0])),
        *(styled("• $line", line=printable(line)) for line in findings[1:]),
    ]


def _histogram_lines(stats: TensorStats, width: int, height: int) -> list[Content]:
    """Log-count histograms of the error and of both sides' values (empty ones left out)."""
    lines: list[Content] = []
    for title, hist in (
        ("|target − golden|", stats.error_hist),
        ("golden values", stats.golden_hist),
        ("target values", stats.target_hist),
    ):
        if hist is None or not sum(hist.counts):
            continue
        lo, hi = hist.edges
        lines.append(
            styled(
                f"[b]$title[/b]  [$text-muted]{_num(lo, 10)} … {_num(hi, 10)}  (log count)[/]", title=title
            )
        )
        lines.extend(styled("[$accent]$bars[/]", bars=row) for row in bars(hist.counts, width, height))
    return lines


def _nonfinite_lines(stats: TensorStats) -> list[Content]:
    """Where the first NaN / Inf of each side are."""
    lines: list[Content] = []
    for side in ("golden", "target"):
        s = getattr(stats, side)
        for kind in ("nan", "inf"):
            where = getattr(s, f"{kind}_at", ())
            if where:
                shown = " ".join(_index(ix) for ix in where)
                lines.append(styled(f"[$error]first {kind.upper()} in {side}:[/]  {shown}"))
    return lines


def _worst_lines(stats: TensorStats, detail: bool) -> list[Content]:
    """The worst elements as a table (full screen: 7 significant digits; the side pane fits ~42 cells)."""
    worst = stats.worst[: 20 if detail else 8]
    if not worst:
        return []
    w_ix, w_val = (14, 13) if detail else (10, 10)
    lines = [
        styled(f"[b]worst {len(worst)} elements[/b]"),
        styled(f"[b]{'index':<{w_ix}} {'golden':>{w_val}} {'target':>{w_val}} {'|diff|':>{w_val}}[/b]"),
    ]
    for item in worst:
        lines.append(
            Content(
                f"{_index(item.index):<{w_ix}} {_num(item.golden, w_val):>{w_val}} "
                f"{_num(item.target, w_val):>{w_val}} {_num(item.abs_error, w_val):>{w_val}}"
            )
        )
    return lines


def _describe(cmp: Comparison, metric: str, band: str | None) -> str:
    try:
        text = cmp.thresholds.describe(metric, band) if band else cmp.thresholds.describe(metric)
    except (KeyError, ValueError, AttributeError):
        return ""
    return text or ""


def _read_stats(cmp: Comparison, position: int) -> TensorStats:
    """Both sides' tensors of ``position`` and their statistics (in a worker thread)."""
    from dumpscope.core.comparison.shapes import declared_layouts
    from dumpscope.core.inspect.tensor_stats import tensor_stats

    golden, target = cmp.load_pair(position)
    if cancelled():
        raise Superseded
    if golden is None or target is None:
        raise ValueError("one side has no data for this row")
    pair = cmp.pairing.pairs[position] if cmp.pairing is not None else None
    return tensor_stats(golden, target, declared=declared_layouts(pair.golden, pair.target) if pair else None)
