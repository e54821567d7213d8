"""The fusion pane: the fused target op of the selected row and the original ops it replaces.

Each op of the group is shown with the comparison row that holds it (health, cosine), so
a fused op that fails next to originals that are all healthy - the fusion itself broke
the numbers (Ascend's fusion exception detection) - reads at a glance.  The row's own op is marked ``▶``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from dumpscope.core.vocabulary import format_number
from dumpscope.tui.app.widgets.layer_rows import HEALTH_LABEL
from dumpscope.tui.app.widgets.row_facts_pane import RowFactsPane, muted, name_text, section
from dumpscope.tui.app.widgets.summary_bar import health_text, styled

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.inspect.fusion import FusionFacts, OpFact

#: Width of the health column (the longest label, ``– ONLY``, plus a space).
_HEALTH_W = max(len(label) for label in HEALTH_LABEL.values()) + 1


class FusionPane(RowFactsPane["FusionFacts"]):
    """The fusion group of the selected row's op, from the ATC graph or the target manifest."""

    HEADING = "Fusion"
    READING = "looking up the fusion group…"

    def compute(self, comparison: Comparison, row: int) -> FusionFacts:
        from dumpscope.core.inspect.fusion import fusion_facts

        return fusion_facts(comparison, row)

    def render_facts(self, facts: FusionFacts, width: int) -> Content:
        if facts.relation is None:
            return muted(facts.note or "not part of a fusion group")
        wide = width >= 60
        lines = [
            *_heading_lines(facts),
            Content(""),
            *_fused_section(facts, wide),
            Content(""),
            *_original_section(facts, wide),
        ]
        if facts.note:
            lines += [Content(""), styled("[$warning]$note[/]", note=facts.note)]
        return Content("\n").join(lines)


def _heading_lines(facts: FusionFacts) -> list[Content]:
    """The relation and where it comes from, the row's role in the group, the fusion passes."""
    role = "the fused op" if facts.role == "fused" else "one of the original ops"
    lines = [
        styled("[b]$relation[/b] · from $source", relation=facts.relation, source=facts.source or "?"),
        muted(f"this row's op {name_text(facts.op_name)} is {role}"),
    ]
    if facts.passes:
        lines.append(styled("passes: $passes", passes=", ".join(name_text(p) for p in facts.passes)))
    return lines


def _fused_section(facts: FusionFacts, wide: bool) -> list[Content]:
    """The fused target op(s) of the group, one line each."""
    title = section(f"Fused target op{'s' if len(facts.fused) != 1 else ''}")
    return [title, *(_op_line(op, facts.row, wide) for op in facts.fused)]


def _original_section(facts: FusionFacts, wide: bool) -> list[Content]:
    """The original ops the group replaces, or that the op exists on the target only."""
    lines = [
        section(f"Original ops ({len(facts.originals)})"),
        *(_op_line(op, facts.row, wide) for op in facts.originals),
    ]
    if not facts.originals:
        lines.append(muted("none: the op exists on the target only (a layout cast or an inserted op)"))
    return lines


def _op_line(op: OpFact, current: int, wide: bool) -> Content:
    """``▶ ✓ OK  #12  Conv_1 (Conv2D)  cos 0.99998`` - the op type and the note only when wide."""
    mark = "▶ " if op.row is not None and op.row == current else "  "
    index = f"#{op.index}" if op.index is not None else ""
    kind = f" ({name_text(op.op_type)})" if wide and op.op_type else ""
    return Content.assemble(
        mark,
        _health_cell(op),
        styled("$index $name", index=f"{index:>5}", name=name_text(op.name) + kind),
        styled("$cos", cos=_cosine_text(op)),
        muted(_note_text(op, wide)),
    )


def _health_cell(op: OpFact) -> Content:
    """The op's row health, padded to the column (``·`` for an op no row holds)."""
    if op.health is None:
        return muted(f"{'·':<{_HEALTH_W}}")
    return health_text(op.health, f"{HEALTH_LABEL.get(op.health, op.health):<{_HEALTH_W}}")


def _cosine_text(op: OpFact) -> str:
    """``  cos 0.99998`` for an op a compared row holds, else empty."""
    return f"  cos {format_number(op.cosine, 8)}" if op.cosine is not None else ""


def _note_text(op: OpFact, wide: bool) -> str:
    """The op's note: when wide, or always for an op no row holds (it says why)."""
    return f"  {op.note}" if op.note and (wide or op.row is None) else ""
