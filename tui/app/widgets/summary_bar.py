"""One line above the layer list: health counts, the first divergent layer, unmatched per side, status."""

from __future__ import annotations

from dataclasses import dataclass, field

from textual.content import Content
from textual.widgets import Static

from dumpscope.core.vocabulary import UNHEALTHY, Health
from dumpscope.tui.app.widgets.layer_rows import HEALTH_LABEL

HEALTH_VAR: dict[str, str] = {
    "ok": "$success",
    "warn": "$warning",
    "fail": "$error",
    "error": "$error",
    "unmatched": "$text-muted",
    "pending": "$text-disabled",
}
"""Theme variable per health (shared by every widget that colours a health word)."""


def styled(template: str, **values: str) -> Content:
    """Content from markup whose ``$name`` slots take ``values`` verbatim.

    Tensor names, messages and filters come from users and dumps: put them in through
    variables, never by pasting them into markup (``[31m`` or a trailing backslash would
    be read as markup).
    """
    return Content.from_markup(template, **values)


def health_text(health: str, label: str | None = None) -> Content:
    """A health word in its theme colour, glyph included (it reads without colour too)."""
    style = HEALTH_VAR.get(health, "$text")
    bold = " bold" if health in UNHEALTHY else ""
    return styled(
        f"[{style}{bold}]$label[/]", label=label if label is not None else HEALTH_LABEL.get(health, health)
    )


@dataclass
class Summary:
    """What the bar shows; the app fills it in and calls :meth:`SummaryBar.show`."""

    counts: dict[str, int] = field(default_factory=dict)
    first_divergent: str | None = None
    unmatched_golden: int = 0
    unmatched_target: int = 0
    progress: tuple[int, int] | None = None
    preview: bool = False
    """The table is a preview of the first rows (see ``pipeline._head``): no first divergent is known."""
    status: list[Content] = field(default_factory=list)
    """Filter/sort state and transient notes."""


class SummaryBar(Static):
    """Counts per health with glyphs, the first divergent layer and what the view shows."""

    def show(self, summary: Summary) -> None:
        # The view's state goes first on the second line: a long tensor name may be cut, it may not.
        second = Content("  ").join([*summary.status, styled("[$text-muted]│[/]"), _first_divergent(summary)])
        # The bar's height is fixed: no layout pass (a re-layout of the screen costs ~0.1 s
        # per streamed update at 10k rows, taken from the comparison worker's time).
        self.update(Content("\n").join([Content("  ").join(_count_parts(summary)), second]), layout=False)


def _count_parts(summary: Summary) -> list[Content]:
    """Health counts (OK always), the unmatched counts, and the progress while comparing."""
    if summary.progress == (0, 0) and not summary.counts:  # nothing listed yet: say what is going on
        return [
            styled("[$accent]opening the dumps: listing files, reading headers, pairing… (esc cancels)[/]")
        ]
    parts = [
        health_text(health, f"{HEALTH_LABEL[health].strip()} {summary.counts.get(health, 0)}")
        for health in (Health.OK, Health.WARN, Health.FAIL, Health.ERROR, Health.PENDING)
        if summary.counts.get(health, 0) or health == "ok"
    ]
    if summary.unmatched_golden or summary.unmatched_target:
        parts.append(
            health_text(
                "unmatched",
                f"– only golden {summary.unmatched_golden} / only target {summary.unmatched_target}",
            )
        )
    if summary.progress == (0, 0):  # rows of a preview (see pipeline._head): the dumps are still opening
        parts.append(styled("[$accent]the first rows; opening the whole dumps… (esc cancels)[/]"))
    elif summary.progress is not None:
        done, total = summary.progress
        listed = total - summary.counts.get(Health.PENDING, 0)  # the table the list shows lags the counter
        behind = f"; the list shows {listed} so far" if summary.counts and 0 <= listed < done else ""
        parts.append(styled(f"[$accent]comparing {done}/{total}{behind} (esc cancels)[/]"))
    return parts


def _first_divergent(summary: Summary) -> Content:
    """The first divergent layer (``f`` jumps there), or that there is none (yet)."""
    if summary.preview:  # (a cancel while the dumps opened leaves only these rows: nothing is known)
        return styled("first divergent: not known (only the first rows are judged)")
    if summary.first_divergent:
        return styled("first divergent: [b]$name[/b] (f)", name=summary.first_divergent)
    return styled("no divergent layer" if summary.progress is None else "first divergent: not yet found")
