"""One line above the layer list: health counts, the first divergent layer, unmatched per side, status."""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.markup import escape
from textual.widgets import Static

from dumpscope.tui.widgets.layer_rows import HEALTH_LABEL

HEALTH_VAR: dict[str, str] = {
    "ok": "$success",
    "warn": "$warning",
    "fail": "$error",
    "error": "$error",
    "unmatched": "$text-muted",
    "pending": "$text-disabled",
}
"""Theme variable per health (shared by every widget that colours a health word)."""


def health_markup(health: str, text: str | None = None) -> str:
    """Content markup for a health word in its theme colour, glyph included (reads without colour)."""
    label = escape(text if text is not None else HEALTH_LABEL.get(health, health))
    style = HEALTH_VAR.get(health, "$text")
    bold = " bold" if health in ("warn", "fail", "error") else ""
    return f"[{style}{bold}]{label}[/]"


@dataclass
class Summary:
    """What the bar shows; the app fills it in and calls :meth:`SummaryBar.show`."""

    counts: dict[str, int] = field(default_factory=dict)
    first_divergent: str | None = None
    unmatched_golden: int = 0
    unmatched_target: int = 0
    progress: tuple[int, int] | None = None
    status: str = ""
    """Filter/sort state or a transient note (already markup-escaped by the caller)."""


class SummaryBar(Static):
    """Counts per health with glyphs, the first divergent layer and what the view shows."""

    def show(self, summary: Summary) -> None:
        parts: list[str] = []
        for health in ("ok", "warn", "fail", "error", "pending"):
            count = summary.counts.get(health, 0)
            if count or health == "ok":
                parts.append(health_markup(health, f"{HEALTH_LABEL[health].strip()} {count}"))
        if summary.unmatched_golden or summary.unmatched_target:
            parts.append(
                health_markup(
                    "unmatched",
                    f"– only golden {summary.unmatched_golden} / only target {summary.unmatched_target}",
                )
            )
        line = "  ".join(parts)
        if summary.progress is not None:
            done, total = summary.progress
            line += f"  [$accent]comparing {done}/{total} (esc cancels)[/]"
        first = (
            f"first divergent: [b]{escape(summary.first_divergent)}[/b] (f)"
            if summary.first_divergent
            else "no divergent layer"
            if summary.progress is None
            else "first divergent: not yet found"
        )
        # The view's state goes first on the second line: a long tensor name may be cut, it may not.
        second = f"{summary.status}  [$text-muted]│[/] {first}" if summary.status else first
        self.update(f"{line}\n{second}")
