"""Terminal rendering of a comparison with Rich (the ``table`` output of the CLI)."""

from __future__ import annotations

import math
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.widgets.layer_rows import HEALTH_LABEL, short_dtype
from dumpscope.tui.cli.safe import markup, plain

#: Style per health; the glyph and word come from the UI's labels (one wording for both),
#: so health reads in 16 colours, under NO_COLOR and for colour-blind users.
HEALTH_STYLE: dict[str, str] = {
    "ok": "green", "warn": "yellow", "fail": "bold red", "error": "bold magenta", "unmatched": "dim", "pending": "dim",
}


def fmt_metric(v: float | None, digits: int = 6) -> str:
    if v is None:
        return "—"
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v != 0 and (abs(v) < 1e-4 or abs(v) >= 1e6):
        return f"{v:.{digits - 3}e}"
    return f"{v:.{digits}f}" if abs(v) < 10 else f"{v:.{max(digits - 3, 1)}f}"


def health_text(health: str) -> Text:
    return Text(HEALTH_LABEL.get(health, f"? {health}"), style=HEALTH_STYLE.get(health, ""))


def _table(wide: bool) -> Table:
    """The layer table's columns; an 80-column terminal gets the essential ones only."""
    table = Table(box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False, padding=(0, 1))
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("name", overflow="fold", min_width=16)
    table.add_column("op", no_wrap=True, max_width=14)
    if wide:
        table.add_column("shape", no_wrap=True, max_width=18)
        table.add_column("dtype g/t", no_wrap=True)
    table.add_column("cosine", justify="right", no_wrap=True)
    if wide:
        table.add_column("max abs err", justify="right", no_wrap=True)
    table.add_column("rel. dist", justify="right", no_wrap=True)
    table.add_column("NaN/Inf", justify="right", no_wrap=True)
    table.add_column("health", no_wrap=True)
    return table


def _cells(r: dict[str, Any], wide: bool) -> list[str | Text]:
    """One compared row as the table's cells (names escaped for the terminal)."""
    nan_inf = f"{r['nan_target'] or 0}/{r['inf_target'] or 0}" if r["side"] == "both" else ""
    cells: list[str | Text] = [str(r["index"]), markup(r["name"]), markup(r["op_type"] or "")]
    if wide:
        shape = "×".join(str(d) for d in r["shape"]) if r["shape"] is not None else "?"
        cells += [shape, markup(f"{short_dtype(r['dtype'])}/{short_dtype(r['target_dtype'])}")]
    cells.append(fmt_metric(r["cosine_similarity"], 8))
    if wide:
        cells.append(fmt_metric(r["max_absolute_error"]))
    cells += [fmt_metric(r["relative_euclidean_distance"]), nan_inf, health_text(r["health"])]
    return cells


def render_table(cmp: Comparison, console: Console | None = None, limit: int | None = 1000) -> None:
    """Print the layer table, a summary line and the first divergent layer."""
    console = console or Console()
    frame = cmp.frame
    wide = console.width >= 118
    table = _table(wide)
    shown = frame if limit is None else frame.head(limit)
    for r in shown.iter_rows(named=True):
        table.add_row(*_cells(r, wide))
    console.print(table)
    if limit is not None and frame.height > limit:
        console.print(f"[dim]… {frame.height - limit} more rows (use --format csv/json/parquet for all)[/dim]")
    console.print(summary_text(cmp))
    for w in (cmp.meta.get("warnings") or [])[:10]:  # type: ignore[union-attr]
        console.print(Text(f"warning: {plain(w)}", style="yellow"))


def summary_text(cmp: Comparison) -> Text:
    counts = cmp.health_counts()
    text = Text()
    for h in ("ok", "warn", "fail", "error", "unmatched"):
        if counts.get(h):
            glyph, _, word = HEALTH_LABEL[h].partition(" ")
            text.append(f"{glyph} {counts[h]} {word}  ", style=HEALTH_STYLE[h])
    first = cmp.first_divergent()
    if first is None:
        text.append("— no divergent layer", style="green")
    else:
        r = cmp.frame.row(first, named=True)
        text.append(f"— first divergent: #{r['index']} {plain(r['name'])} ({plain(r['op_type'] or '?')}): {plain(r['message'] or '')}")
    return text
