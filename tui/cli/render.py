"""Terminal rendering of a comparison with Rich (the ``table`` output of the CLI)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from dumpscope.core.comparison.order import display_order
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.comparison.threeway import presence_label
from dumpscope.core.vendor.sigmastar import stage_line
from dumpscope.core.vocabulary import Health, format_number
from dumpscope.tui.app.widgets.layer_rows import HEALTH_LABEL, short_dtype
from dumpscope.tui.cli.safe import markup, plain

#: Style per health; the glyph and word come from the UI's labels (one wording for both),
#: so health reads in 16 colours, under NO_COLOR and for colour-blind users.
HEALTH_STYLE: dict[str, str] = {
    "ok": "green",
    "warn": "yellow",
    "fail": "bold red",
    "error": "bold magenta",
    "unmatched": "dim",
    "pending": "dim",
}


#: Line width for Rich output that is not going to a terminal (a pipe, a file): wide enough that
#: names and messages are not folded at a terminal's 80 columns.
PIPE_WIDTH = 240


def output_console(file: Any = None) -> Console:
    """A Console for stdout (or ``file``): the terminal's width on a terminal, :data:`PIPE_WIDTH`
    (and no colour) when piped or written to a file."""
    import sys

    stream = file or sys.stdout
    return (
        Console(file=stream) if stream.isatty() else Console(file=stream, width=PIPE_WIDTH, color_system=None)
    )


def fmt_metric(v: float | None, digits: int = 6) -> str:
    """A metric for the table, by the app's one number formatter (:func:`vocabulary.format_number`):
    the most digits that fit ``digits + 4`` characters (``·`` missing, ``NaN``, ``inf``/``-inf``)."""
    return format_number(v, digits + 4)


def _count(v: int | None) -> str:
    """A NaN/Inf count; ``?`` when the source did not record it (imported CSV rows)."""
    return "?" if v is None else str(v)


def nan_inf_text(r: dict[str, Any]) -> str:
    """NaN/Inf counts of both sides, ``golden target`` (a golden-only NaN must show)."""
    if r["side"] != "both":
        return ""
    return (
        f"{_count(r['nan_golden'])}/{_count(r['inf_golden'])} "
        f"{_count(r['nan_target'])}/{_count(r['inf_target'])}"
    )


def shown_rows(cmp: Comparison, limit: int | None) -> list[dict[str, Any]]:
    """The rows a table shows: activations first, constants after
    (:mod:`~dumpscope.core.comparison.order`)."""
    order = display_order(cmp.frame)
    if limit is not None:
        order = order[:limit]
    return cmp.frame[order].to_dicts() if len(order) else []


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
    table.add_column("NaN/Inf g t", justify="right", no_wrap=True)
    table.add_column("health", no_wrap=True)
    return table


def _cells(r: dict[str, Any], wide: bool, esc: Callable[[object], str] = markup) -> list[str | Text]:
    """One compared row as the table's cells (names escaped for the terminal by ``esc``)."""
    nan_inf = nan_inf_text(r)
    cells: list[str | Text] = [str(r["index"]), esc(r["name"]), esc(r["op_type"] or "")]
    if wide:
        shape = "×".join(str(d) for d in r["shape"]) if r["shape"] is not None else "?"
        cells += [shape, esc(f"{short_dtype(r['dtype'])}/{short_dtype(r['target_dtype'])}")]
    cells.append(metric_text(r, "cosine_similarity", 8))
    if wide:
        cells.append(metric_text(r, "max_absolute_error"))
    health = health_text(r["health"])
    if r.get("cached"):  # a --cache run: this row was served from the signed index, not computed now
        health.append(" (cached)", style="dim")
    cells += [metric_text(r, "relative_euclidean_distance"), nan_inf, health]
    return cells


def metric_text(r: dict[str, Any], column: str, digits: int = 6) -> str:
    """A metric cell: an imported value as its tool printed it (``1.000000``, that precision), else
    :func:`fmt_metric`."""
    printed = (r.get("printed") or {}).get(column)
    return str(printed) if printed else fmt_metric(r[column], digits)


def render_table(cmp: Comparison, console: Console | None = None, limit: int | None = 1000) -> None:
    """Print the layer table, a summary line and the first divergent layer."""
    console = console or Console()
    wide = console.width >= 118
    table = _table(wide)
    for r in shown_rows(cmp, limit):
        table.add_row(*_cells(r, wide))
    console.print(table)
    for text, style in _notes(cmp, limit):
        console.print(Text(text, style=style))
    console.print(summary_text(cmp))
    for w in _warnings(cmp):
        console.print(Text(f"warning: {plain(w)}", style="yellow"))


def _warnings(cmp: Comparison) -> list[str]:
    """The first ten of the comparison's warnings (the table's footer; JSON/CSV carry them all)."""
    return cmp.warnings[:10]


def summary_text(cmp: Comparison) -> Text:
    """One line: the count of each health (glyph, count, word), then the first divergent row and why."""
    counts = cmp.health_counts()
    text = Text()
    for h in (Health.OK, Health.WARN, Health.FAIL, Health.ERROR, Health.UNMATCHED):
        if counts.get(h):
            glyph, _, word = HEALTH_LABEL[h].partition(" ")
            text.append(f"{glyph} {counts[h]} {word}  ", style=HEALTH_STYLE[h])
    _append_first_divergent(text, cmp)
    return text


def _append_first_divergent(text: Text, cmp: Comparison) -> None:
    """The first divergent row and why, or that there is none (green)."""
    first = cmp.first_divergent()
    if first is None:
        text.append("— no divergent layer", style="green")
        return
    r = cmp.frame.row(first, named=True)
    text.append(
        f"— first divergent: #{r['index']} {plain(r['name'])} ({plain(r['op_type'] or '?')}): "
        f"{plain(r['message'] or '')}"
    )


def _notes(cmp: Comparison, limit: int | None) -> list[tuple[str, str]]:
    """``(text, style)`` lines printed under the table, in a terminal and piped alike."""
    from dumpscope.core.comparison.order import is_constant

    notes = []
    if limit is not None and cmp.frame.height > limit:
        notes.append(
            (f"… {cmp.frame.height - limit} more rows (use --format csv/json/parquet for all)", "dim")
        )
    stage = stage_line(cmp.meta.stage)
    if stage:
        notes.append((stage, "bold"))
    n = int(is_constant(cmp.frame).sum())
    if n:
        notes.append((f"{n} constant rows are listed after the activations", "dim"))
    if "cached" in cmp.frame.columns and (served := int(cmp.frame["cached"].sum())):
        notes.append(
            (
                f"{served} rows marked (cached) were served from the --cache index (their files' "
                "content unchanged), not computed in this run",
                "dim",
            )
        )
    return notes


def plain_lines(cmp: Comparison, limit: int | None = 1000) -> list[str]:
    """The layer table as plain text at full width: every column whole, nothing wrapped.

    For piped output (a file, ``less``, ``grep``): a terminal's 80 columns do not apply.
    """
    header = [
        "#",
        "name",
        "op",
        "shape",
        "dtype g/t",
        "cosine",
        "max abs err",
        "rel. dist",
        "NaN/Inf g t",
        "health",
    ]
    rows = [[_plain_cell(c) for c in _cells(r, True, plain)] for r in shown_rows(cmp, limit)]
    widths = [max(len(x) for x in col) for col in zip(header, *rows, strict=True)]
    right = {0, 5, 6, 7, 8}
    lines = []
    for cells in (header, *rows):
        out = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        lines.append("  ".join(out).rstrip())
    return lines


def _plain_cell(cell: str | Text) -> str:
    return (cell.plain if isinstance(cell, Text) else cell).replace("\n", " ")


def render_plain(cmp: Comparison, out: Any, limit: int | None = 1000) -> None:
    """Print :func:`plain_lines`, the summary and warnings to the text stream ``out``."""
    lines = [*plain_lines(cmp, limit), *(text for text, _ in _notes(cmp, limit)), summary_text(cmp).plain]
    lines += [f"warning: {plain(w)}" for w in _warnings(cmp)]
    for line in lines:
        out.write(line + "\n")


def threeway_lines(tw: Any, limit: int | None = 1000) -> list[str]:
    """A three-way comparison as plain full-width text: A's and B's metrics side by side, a
    ``worse`` column, then a per-side summary and the op whose error appears on one side only."""
    a, b = tw.labels
    header = [
        "#",
        "name",
        f"{a} health",
        f"{a} cosine",
        f"{a} rel.dist",
        f"{b} health",
        f"{b} cosine",
        f"{b} rel.dist",
        f"{b}/{a}",
        "present",
        "worse",
    ]
    frame = tw.frame[display_order(tw.frame)]
    frame = frame if limit is None else frame.head(limit)
    rows = [_threeway_cells(r, tw.labels) for r in frame.iter_rows(named=True)]
    widths = [max(len(x) for x in col) for col in zip(header, *rows, strict=True)]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()
        for cells in (header, *rows)
    ]
    return lines + threeway_summary(tw)


def threeway_summary(tw: Any) -> list[str]:
    """How many rows each side is worse on, and per side the op whose error appears there only."""
    a, b = tw.labels
    counts = tw.worse_counts()
    lines = [
        f"worse rows: {a}: {counts['A']}, {b}: {counts['B']}, the same: {counts['=']}, "
        f"compared on one side only: {counts['']}"
    ]
    blames = (tw.first_blame(side) for side in ("A", "B"))
    return lines + [plain(blame.sentence(tw.labels)) for blame in blames if blame is not None]


def render_threeway(tw: Any, console: Console, limit: int | None = 1000) -> None:
    """A three-way comparison on a terminal: Rich, names folded (which dumps lack a tensor under its
    name), rel. distance only when wide."""
    wide = console.width >= 118
    table = _threeway_table(tw.labels, wide)
    frame = tw.frame[display_order(tw.frame)]
    for r in (frame if limit is None else frame.head(limit)).iter_rows(named=True):
        table.add_row(*_threeway_row(r, tw.labels, wide))
    console.print(table)
    for line in threeway_summary(tw):
        console.print(Text(line))


def _threeway_table(labels: tuple[str, str], wide: bool) -> Table:
    """The three-way table's columns: per side health, cosine (and rel. distance when wide), then
    ``worse``."""
    table = Table(box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False, padding=(0, 1))
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("name", overflow="fold", min_width=16)
    for label in labels:
        table.add_column(f"{label}\nhealth", no_wrap=True)
        table.add_column(f"{label}\ncosine", justify="right", no_wrap=True)
        if wide:
            table.add_column(f"{label}\nrel. dist", justify="right", no_wrap=True)
    if wide:  # B's distance over A's, beside the distances it is made of
        table.add_column(
            "B/A" if labels == ("A", "B") else "ratio", justify="right", no_wrap=True, max_width=9
        )
    table.add_column("worse", no_wrap=True)
    return table


def _threeway_row(r: dict[str, Any], labels: tuple[str, str], wide: bool) -> list[str | Text]:
    """One three-way row as Rich cells (the health styled, the worse side bold, the presence under the
    name)."""
    cells = _threeway_cells(r, labels)
    row: list[str | Text] = [cells[0], _name_and_presence(r["name"], cells[-2])]
    for k, p in ((2, "a"), (5, "b")):
        row += [health_text(r[f"{p}_health"]) if r[f"{p}_health"] else Text("–"), cells[k + 1]]
        row += [cells[k + 2]] if wide else []
    return [
        *row,
        *([cells[-3]] if wide else []),
        Text(cells[-1], style="bold" if cells[-1] in ("A", "B") else ""),
    ]


def _name_and_presence(name: str, present: str) -> str:
    """The name cell of the Rich three-way table, with ``(only in B)`` under it when a dump lacks the
    tensor."""
    return markup(name) + (f"\n[dim]({markup(present)})[/dim]" if present else "")


def _threeway_cells(r: dict[str, Any], labels: tuple[str, str] = ("A", "B")) -> list[str]:
    """#, name, per side health/cosine/rel. distance, worse, and which dumps lack the tensor
    (``only in B``, ``not in A``..., named by the sides' labels; blank when all three hold it)."""
    cells = [str(r["index"]), plain(r["name"])]
    for p in ("a", "b"):
        health = r[f"{p}_health"]
        cells += [
            HEALTH_LABEL.get(health, "–") if health else "–",
            fmt_metric(r[f"{p}_cosine_similarity"], 8),
            fmt_metric(r[f"{p}_relative_euclidean_distance"]),
        ]
    return [
        *cells,
        _ratio(r.get("b_over_a")),
        plain(presence_label(r.get("presence"), labels)),
        r["worse"] or "",
    ]


def _ratio(value: float | None) -> str:
    """B's distance over A's as ``28x`` (``·`` when a side has none)."""
    if value is None:
        return "·"
    return "inf" if value == float("inf") else f"{value:.3g}x"


def print_table(cmp: Comparison, out: Any = None, limit: int | None = 1000) -> None:
    """The layer table on ``out`` (default stdout): Rich on a terminal, :func:`render_plain`
    when piped or written to a file (no 80-column wrap, the health column whole)."""
    import sys

    stream = out or sys.stdout
    if stream.isatty():
        render_table(cmp, Console(file=stream), limit=limit)
    else:
        render_plain(cmp, stream, limit)
