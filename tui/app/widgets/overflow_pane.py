"""The overflow pane: hardware overflow records and dtype range checks of the selected row."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from dumpscope.tui.app.widgets.layer_rows import printable, short_dtype
from dumpscope.tui.app.widgets.row_facts_pane import (
    BAD,
    GOOD,
    UNKNOWN,
    RowFactsPane,
    index_text,
    muted,
    name_text,
    num,
    section,
)
from dumpscope.tui.app.widgets.summary_bar import styled

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.inspect.overflow import OverflowFacts, RangeFact
    from dumpscope.core.inspect.ranges import RangeFinding
    from dumpscope.core.vendor.opdebug import OpdebugTensor, OverflowRecord


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
        lines = [*_range_section(facts), Content(""), *_opdebug_section(facts, width)]
        return Content("\n").join(lines)


def _range_section(facts: OverflowFacts) -> list[Content]:
    """``Range checks``: one check per target tensor (or that there is none)."""
    lines: list[Content] = [section("Range checks")]
    lines += [line for fact in facts.ranges for line in _range_lines(fact)]
    if not facts.ranges:
        lines.append(muted("no target tensor to check"))
    return lines


def _opdebug_section(facts: OverflowFacts, width: int) -> list[Content]:
    """``Hardware overflow (Opdebug)``: the target op, its records, the linked op dump's tensors."""
    lines = [section("Hardware overflow (Opdebug)")]
    if facts.op_name:
        lines.append(muted(f"target op {name_text(facts.op_name)}"))
    for rec in facts.records:
        lines += _record_lines(rec)
    lines += _op_dump_lines(facts, width)
    if not facts.records:
        lines.append(
            muted(facts.opdebug_note or "none: hardware overflow records come with Ascend dumps only")
        )
    return lines


def _op_dump_lines(facts: OverflowFacts, width: int) -> list[Content]:
    """The op dump the records link to, with its tensors (nothing when none is linked)."""
    if not facts.op_file:
        return []
    head = styled("linked op dump: $file", file=name_text(facts.op_file.rsplit("/", 1)[-1]))
    return [head, *_tensor_table(facts.op_tensors, wide=width >= 56)]


def _range_label(fact: RangeFact) -> str:
    """``target float16`` or ``golden as int8 (scale .., zero point ..)``."""
    if fact.side == "target":
        return f"target {fact.dtype}"
    scale = f" (scale {num(fact.scale)}, zero point {fact.zero_point})" if fact.scale is not None else ""
    return f"golden as {fact.dtype}{scale}"


def _range_lines(fact: RangeFact) -> list[Content]:
    """One range check: unknown (its error), fits, or flagged with where the first values are."""
    target = fact.side == "target"
    label = _range_label(fact)
    if fact.error:
        return [
            Content(" ").join([UNKNOWN, styled("$label: $error", label=label, error=printable(fact.error))])
        ]
    finding = fact.finding
    assert finding is not None
    if not finding.flagged:
        return [_fits_line(finding, label, target)]
    return _flagged_lines(fact, finding, label, target)


def _fits_line(finding: RangeFinding, label: str, target: bool) -> Content:
    text = f"{label}: {'nothing saturated' if target else 'fits'} (max |x| {num(finding.max_abs)})"
    if finding.underflow:
        text += f"; {finding.underflow} flush to zero"
    return Content(" ").join([GOOD, styled("$text", text=text)])


def _flagged_lines(fact: RangeFact, finding: RangeFinding, label: str, target: bool) -> list[Content]:
    """A range check that failed: how many values and where the first ones are."""
    text = "; ".join(_flagged_parts(finding, target))
    out = [Content(" ").join([BAD, styled("[b]$label[/b]: $text", label=label, text=text)])]
    if fact.out_of_range_at:
        where = "saturated" if target else "beyond range"
        out.append(muted(f"    first {where} at {' '.join(index_text(i) for i in fact.out_of_range_at)}"))
    if fact.nonfinite_at:
        out.append(
            styled(
                "    [$error]first NaN/Inf at[/] $at", at=" ".join(index_text(i) for i in fact.nonfinite_at)
            )
        )
    return out


def _flagged_parts(finding: RangeFinding, target: bool) -> list[str]:
    """How many values are out of range (saturated on the target) and how many are NaN/Inf."""
    parts = []
    if finding.out_of_range:
        verb = "saturated at" if target else "reach or pass"
        parts.append(
            f"{finding.out_of_range} of {finding.size} {verb} ±{num(finding.high)} (max |x| "
            f"{num(finding.max_abs)})"
        )
    if finding.nan or finding.inf:
        parts.append(f"{finding.nan} NaN, {finding.inf} Inf")
    return parts


def _record_lines(rec: OverflowRecord) -> list[Content]:
    """One Opdebug record: unit, where and status, each set bit's meaning, the record file, the link note."""
    lines = [
        Content(" ").join(
            [
                BAD,
                styled(
                    f"[b]$unit[/b] $where status [b]{rec.status:#x}[/b]",
                    unit=rec.unit,
                    where=_record_where(rec),
                ),
            ]
        )
    ]
    lines += [styled(f"    [$error]{bit.mask:#x}[/] $meaning", meaning=bit.meaning) for bit in rec.bits]
    lines.append(muted(f"    record {name_text(rec.file.rsplit('/', 1)[-1])} ({rec.layout})"))
    if rec.link_note:
        lines.append(muted(f"    {rec.link_note}"))
    return lines


def _record_where(rec: OverflowRecord) -> str:
    """``task T stream S`` (and ``context C`` when recorded)."""
    where = f"task {rec.task_id} stream {rec.stream_id}"
    if rec.context_id is not None:
        where += f" context {rec.context_id}"
    return where


def _tensor_table(stats: tuple[OpdebugTensor, ...], *, wide: bool) -> list[Content]:
    """Inputs and outputs of the linked op dump; the shape column only when there is room."""
    head = f"  {'tensor':<9}{'dtype':<6}{'min':>10}{'max':>10}{'NaN':>5}{'Inf':>5}"
    return [
        styled("[b]$head[/b]", head=head + ("  shape" if wide else "")),
        *(_tensor_line(t, wide) for t in stats),
    ]


def _tensor_line(t: OpdebugTensor, wide: bool) -> Content:
    """One tensor: dtype, min, max, NaN and Inf counts (red when alarming); its error when unreadable."""
    if t.error:
        return styled("  $name [$warning]$error[/]", name=f"{t.name:<9}", error=printable(t.error))
    line = f"  {t.name:<9}{short_dtype(t.dtype):<6}{num(t.min):>10}{num(t.max):>10}{t.nan:>5}{t.inf:>5}"
    shape = "  " + "×".join(map(str, t.shape or ())) if wide else ""
    return styled("[$error]$line[/]" if _alarming(t) else "$line", line=line + shape)


def _alarming(t: OpdebugTensor) -> bool:
    """NaN or Inf values, or a float16 tensor at the edge of its range (|x| >= 65504)."""
    if t.nan or t.inf:
        return True
    return t.dtype == "float16" and t.max is not None and max(abs(t.max), abs(t.min or 0)) >= 65504
