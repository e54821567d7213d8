"""The text lines around the layer list: the summary's counts and notes, the cursor row's full name.

:class:`TableCounts` is what the summary reads from one table (counted once per streamed table);
:func:`view_notes` and :func:`worse_note` add the filter, sort and three-way notes to its status;
:func:`cursor_line` is the line under the list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.content import Content

from dumpscope.tui.app.view_state import ViewState
from dumpscope.tui.app.widgets.layer_rows import LayerRows, printable
from dumpscope.tui.app.widgets.summary_bar import Summary, styled

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.comparison.threeway import ThreeWay


@dataclass(frozen=True)
class TableCounts:
    """What the summary reads from one table: health counts, the first divergent row and the
    unmatched tensors per side.  Computed once per streamed table (O(rows)), not on every
    progress tick, so a fill costs the UI O(rows) per table it shows and O(1) per count."""

    rows: LayerRows
    comparison: Comparison
    counts: dict[str, int]
    first_divergent: str | None
    unmatched: tuple[int, int]

    @classmethod
    def of(cls, rows: LayerRows, cmp: Comparison) -> TableCounts:
        first = None if cmp.meta.preview else cmp.first_divergent()  # a preview's order is not final
        named = None if first is None else f"#{int(rows.index[first])} {rows.name(first)}"
        sides = dict(cmp.frame.filter(cmp.frame["health"] == "unmatched")["side"].value_counts().iter_rows())
        return cls(
            rows, cmp, rows.health_counts(), named, (int(sides.get("golden", 0)), int(sides.get("target", 0)))
        )

    def is_for(self, rows: LayerRows, cmp: Comparison) -> bool:
        """Counted from this very table (a newer streamed table is a new Comparison object)."""
        return self.rows is rows and self.comparison is cmp

    def fill(self, summary: Summary) -> None:
        summary.counts, summary.first_divergent = self.counts, self.first_divergent
        summary.preview = bool(self.comparison.meta.preview)
        summary.unmatched_golden, summary.unmatched_target = self.unmatched


def cursor_line(rows: LayerRows, position: int) -> str:
    """``▶ name   target: its name there   only in B``: the full name(s) of a row and, in a
    three-way compare, which dumps lack its tensor."""
    frame = rows.frame
    name, target = frame["name"][position], frame["target_name"][position]
    parts = (
        f"▶ {printable(str(name or target or ''))}",
        _renamed(name, target),
        rows.presence_text(position),
    )
    return "   ".join(part for part in parts if part)


def _renamed(name: str | None, target: str | None) -> str:
    """``target: NAME`` when the target dump calls the tensor otherwise, else ""."""
    return f"target: {printable(str(target))}" if target and name and target != name else ""


def worse_note(threeway: ThreeWay) -> Content:
    """``showing A (b: B) · A worse on 3 · B worse on 12`` (filter with worse:A / worse:B)."""
    counts, (a, b) = threeway.worse_counts(), threeway.labels
    return styled(
        f"showing [b]$a[/b] (b: $b) · [b]$a[/b] worse on {counts['A']} · [b]$b[/b] worse on {counts['B']}"
        " (worse:A, worse:B)",
        a=a,
        b=b,
    )


def view_notes(view: ViewState, rows: LayerRows, shown: int) -> list[Content]:
    """What the filter keeps (``shown`` of all rows) and the sort, for the status line."""
    if view.query:
        notes = [styled(f"filter [b]$query[/b]: {shown} of {rows.n}", query=view.query.text)]
    else:
        notes = [styled(f"{rows.n} tensors")]
    if view.sort_key.id != "order" or view.descending:
        notes.append(
            styled(
                f"sorted by {view.sort_key.label} "
                f"{'▼' if view.descending else '▲'}{_nonfinite_place(view, rows)}"
            )
        )
    return notes


def _nonfinite_place(view: ViewState, rows: LayerRows) -> str:
    """Where a metric sort puts the rows with NaN/Inf in the target (they read as the worst value)."""
    if view.sort_key.id not in ("cos", "max_abs", "rmse", "rel") or not rows.nonfinite.any():
        return ""
    return f", NaN/Inf rows {'first' if view.descending == view.sort_key.descending else 'last'}"
