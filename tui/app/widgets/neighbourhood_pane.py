"""The neighbourhood pane: the graph around the selected row, drawn as text.

::

    inputs (3)
      ✓ #40 /m/Sub_output_0        0.999998  ·
      ✗ #41 /m/Exp_output_0        0.21      ·|i12
    ▶ this node: Where  #42 ...
    consumers (1)
      ✗ #43 /m/Softmax_output_0    0.3       ·|n8

Each tensor has its health glyph, cosine and NaN/Inf (golden|target).  `j`/`k` move a
marker over the listed tensors and `enter` moves the layer list there (the pane then
shows the new row's neighbourhood), so a user can walk the graph by keyboard.
The edges come from :mod:`dumpscope.core.inspect.neighbourhood` (manifest, ONNX model
or ATC graph).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message

from dumpscope.core.vocabulary import HEALTH_LABEL, format_number
from dumpscope.tui.app.widgets.layer_names import elide
from dumpscope.tui.app.widgets.layer_rows import side_nonfinite
from dumpscope.tui.app.widgets.row_facts_pane import RowFactsPane, muted, name_text, section
from dumpscope.tui.app.widgets.summary_bar import health_text, styled

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.inspect.neighbourhood import Neighbourhood


class NeighbourhoodPane(RowFactsPane["Neighbourhood"]):
    """Producers of the row's inputs, the row, and its consumers; enter moves the list there."""

    HEADING = "Neighbourhood"
    READING = "reading the graph around this row…"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "mark(1)", "Next tensor", show=False, id="neighbours.down"),
        Binding("k,up", "mark(-1)", "Previous tensor", show=False, id="neighbours.up"),
        Binding("enter", "go", "Move the list there", show=False, id="neighbours.go"),
    ]

    class GoTo(Message):
        """Move the layer list to frame row ``row``."""

        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.mark = 0
        """Index into :attr:`targets` of the marked tensor."""

    @property
    def targets(self) -> list[int]:
        """The rows the marker walks over: inputs, then consumers."""
        facts = self.facts
        return [] if facts is None else [*facts.inputs, *facts.consumers]

    def compute(self, comparison: Comparison, row: int) -> Neighbourhood:
        from dumpscope.core.inspect.neighbourhood import neighbourhood

        return neighbourhood(comparison, row)

    def on_row_facts_pane_facts_ready(self, message: RowFactsPane.FactsReady) -> None:
        self.mark = 0
        super().on_row_facts_pane_facts_ready(message)

    def action_mark(self, step: int) -> None:
        targets = self.targets
        if targets:
            self.mark = (self.mark + step) % len(targets)
            self._render_body()

    def action_go(self) -> None:
        targets = self.targets
        if targets:
            self.post_message(self.GoTo(targets[min(self.mark, len(targets) - 1)]))

    def render_facts(self, facts: Neighbourhood, width: int) -> Content:
        cmp = self.comparison
        if cmp is None:
            return muted("no comparison")
        if not facts.known and not facts.consumers:
            return muted(
                "no graph facts for this row: give the ONNX model (--model), the ATC graph (--graph) "
                "or dumps with a dumpscope manifest"
            )
        marked = self.targets[self.mark] if self.targets else None
        lines = [
            muted(f"{'':<10}{'tensor':<{_name_room(width)}} {'cosine':>8} {'nan/inf g|t':>11}"),
            section(f"inputs ({len(facts.inputs)})"),
        ]
        lines += [_tensor_line(cmp, r, r == marked, width) for r in facts.inputs]
        lines += [muted(f"  constant {name_text(n)}") for n in facts.constant_inputs]
        lines += [muted(f"  {name_text(n)} (not in the comparison)") for n in facts.unresolved]
        lines.append(_this_line(cmp, facts.row, width))
        lines.append(section(f"consumers ({len(facts.consumers)})"))
        lines += [_tensor_line(cmp, r, r == marked, width) for r in facts.consumers]
        lines.append(muted(f"edges from {facts.source} · j/k mark, enter moves the list"))
        return Content("\n").join(lines)


def _cells(cmp: Comparison, row: int) -> tuple[str, str, str, str, str]:
    """(health, ``#index``, name, cosine, NaN/Inf) of a frame row."""
    r = cmp.frame.row(row, named=True)
    known_g = r.get("nan_golden") is not None or r.get("inf_golden") is not None
    known_t = r.get("nan_target") is not None or r.get("inf_target") is not None
    golden = side_nonfinite(int(r.get("nan_golden") or 0), int(r.get("inf_golden") or 0), known_g)
    target = side_nonfinite(int(r.get("nan_target") or 0), int(r.get("inf_target") or 0), known_t)
    naninf = "·" if golden == target == "·" else f"{golden}|{target}"
    return (
        r.get("health") or "pending",
        f"#{r.get('index')}",
        name_text(r.get("name") or r.get("target_name")),
        format_number(r.get("cosine_similarity"), 8),
        naninf,
    )


def _tensor_line(cmp: Comparison, row: int, marked: bool, width: int) -> Content:
    """``▶ ✗ FAIL  #41 /m/Exp_output_0  cos 0.21  nan/inf ·|i12`` (``▶`` on the marked tensor)."""
    health, index, name, cosine, naninf = _cells(cmp, row)
    room = _name_room(width)
    glyph = HEALTH_LABEL.get(health, health)[:1]
    return Content.assemble(
        styled("$mark", mark="▶ " if marked else "  "),
        health_text(health, f"{glyph} "),
        styled("[b]$name[/b]" if marked else "$name", name=f"{index:>5} {elide(name, room):<{room}}"),
        styled("$rest", rest=f" {cosine:>8} {naninf:>11}"),
    )


def _name_room(width: int) -> int:
    """Cells left for the name: mark, glyph and index take 10, cosine 9, NaN/Inf 12, one spare."""
    return max(8, width - 10 - 9 - 12 - 1)


def _this_line(cmp: Comparison, row: int, width: int) -> Content:
    """The selected row itself, between its inputs and its consumers."""
    health, index, name, cosine, naninf = _cells(cmp, row)
    op = name_text(cmp.frame["op_type"][row] or "?")
    return Content.assemble(
        styled("[b $accent]this node:[/] [b]$op[/b] ", op=op),
        health_text(health),
        styled(" $index $cos $naninf", index=index, cos=f"cos {cosine}", naninf=f"nan/inf {naninf}"),
    )
