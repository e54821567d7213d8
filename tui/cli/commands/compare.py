"""``dumpscope compare GOLDEN TARGET [B]``: the scriptable comparison (two- or three-way).

msaccucmp's spellings work too: ``-g GOLDEN -m TARGET``, ``-f`` fused graph, ``-cf``
fusion-off graph, ``-out DIR`` (writes ``result_<timestamp>.csv`` there), ``-r
start,end[,step]`` and ``-s i,j`` (rows by index or name).  ``-f`` is the vendor's graph
flag, so the output format is ``--format`` only.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from dumpscope.core.atomic import write_text
from dumpscope.core.vocabulary import is_divergent
from dumpscope.tui.cli.args import (
    ComparisonOptions,
    OutputOptions,
    add_comparison_arguments,
    exit_code,
    load_comparison,
    say_cache,
)
from dumpscope.tui.cli.errors import EXIT_OK, EXIT_UNHEALTHY, UsageError

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.comparison.threeway import ThreeWay

HELP = "compare two dumps (or two targets against one golden) and print or write per-layer metrics"
DESCRIPTION = (
    "Compare a golden dump with a target dump: one row per tensor in topological order with the "
    "ten msaccucmp metrics, SQNR, NaN/Inf counts and a health verdict. With a third dump B, compare "
    "TARGET (A) and B each against GOLDEN side by side; a 'worse' column says which side is worse. "
    "Fusion on vs off (msaccucmp -f/-cf): the fused op whose error appears only with fusion on is named. "
    "--format sigmastar prints SigmaStar's auto_dump_debug.sh listing (idx) name MSE COS RMSE) and takes "
    "the dumps in SigmaStar's order: SAMPLE (the model under test) first, BENCHMARK (the reference) second. "
    "Exit code 0 = all healthy, 1 = some row fails or could not be compared, 2 = usage or input error."
)
FORMATS = ("table", "csv", "json", "parquet", "markdown", "model-explorer", "sigmastar")


@dataclass(frozen=True)
class Options:
    """compare's own options (the dumps and how they are compared: :class:`ComparisonOptions`)."""

    format: str
    output: str | None
    output_dir: str | None
    """msaccucmp's ``-out DIR``."""
    rows: str | None
    """``-r START,END[,STEP]``."""
    select: str | None
    """``-s I,J|NAME``."""
    limit: int
    export_values: str | None
    one_row: bool
    worse: tuple[str, float] | str
    """Three-way: ``(rule, factor)`` (``--worse``)."""

    def __post_init__(self) -> None:
        if self.format == "parquet" and not self.output:  # before the dumps are looked at
            raise UsageError("--format parquet needs -o FILE")


#: What :func:`run` takes, read in this order from the command line.
OPTIONS = (Options, ComparisonOptions, OutputOptions)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_comparison_arguments(p, three_way=True)
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="table",
        help="output format (default: table; long-only: -f is msaccucmp's graph flag)",
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE instead of stdout (required for parquet)"
    )
    p.add_argument(
        "-out",
        "--output-dir",
        dest="output_dir",
        metavar="DIR",
        help="msaccucmp's -out: write result_<timestamp>.csv into DIR",
    )
    p.add_argument(
        "-r", "--range", dest="rows", metavar="START,END[,STEP]", help="only rows START..END (msaccucmp's -r)"
    )
    p.add_argument(
        "-s",
        "--select",
        metavar="I,J|NAME",
        help="only these rows, by index or tensor/op name (msaccucmp's -s)",
    )
    p.add_argument(
        "--limit", type=int, default=1000, metavar="N", help="table: show at most N rows (0 = all)"
    )
    p.add_argument(
        "--export-values",
        metavar="DIR",
        help="sigmastar: also write each listed tensor's values under "
        "DIR/Undefined_<benchmark>_DumpDebug_out/<n>/",
    )
    p.add_argument(
        "--one-row",
        action="store_true",
        help="sigmastar export: one value per line (SigmaStar's SAVE_ONE_ROW=1; the variable is honoured "
        "too)",
    )


def _sigmastar_notes(cmp, cmd: Options) -> None:  # type: ignore[no-untyped-def]
    """Which comparison this is (stderr: the listing itself stays SigmaStar's), and the export."""
    from dumpscope.core.vendor.sigmastar import stage_line

    line = stage_line(cmp.meta.stage)
    if line:
        print(f"dumpscope: {line}", file=sys.stderr)
    if cmd.export_values:
        _export_values(cmp, cmd)


def _export_values(cmp, cmd: Options) -> None:  # type: ignore[no-untyped-def]
    """The DumpDebug_out folders of per-layer values; problems go to stderr, one line each."""
    import os

    from dumpscope.core.report.sigmastar import export_values

    one_row = cmd.one_row or os.environ.get("SAVE_ONE_ROW") == "1"
    root, problems = export_values(cmp, cmd.export_values, one_row)
    for problem in problems:
        print(f"dumpscope: export: {problem}", file=sys.stderr)
    print(f"dumpscope: values written under {root}", file=sys.stderr)


def run(cmd: Options, opts: ComparisonOptions, output: OutputOptions) -> int:
    """Resolve the inputs, compare (three-way, per run, or one pair), write the output, exit code."""
    if opts.b is not None:
        return _run_three(opts, cmd)
    from dumpscope.tui.cli.runs import route

    routed = route(opts, output, "compare")  # msprobe trees, several-run Ascend trees
    if isinstance(routed, int):
        return routed
    cmp = _two_way(routed, cmd)
    _write(cmp, cmd)
    _after_output(cmp, routed, cmd)
    return exit_code(cmp)


def _two_way(opts: ComparisonOptions, cmd: Options) -> Comparison:
    """The pair's comparison, restricted by ``-r``/``-s``; SigmaStar's order and notes for ``--format
    sigmastar``."""
    sigmastar = cmd.format == "sigmastar"
    if sigmastar:  # auto_dump_debug.sh's order: SAMPLE (under test) first, then BENCHMARK
        opts = replace(opts, golden=opts.target, target=opts.golden)
    cmp = _selected(load_comparison(opts), cmd)
    if sigmastar:
        _sigmastar_notes(cmp, cmd)
    return cmp


def _after_output(cmp: Comparison, opts: ComparisonOptions, cmd: Options) -> None:
    """What follows the output: warnings on stderr (the table prints its own), ``-out DIR``, the fused
    culprit."""
    if cmd.format != "table" or cmd.output:
        print_warnings(cmp.warnings)
    say_cache(cmp.meta)  # where the --cache index is (or why it is not): always said
    if cmd.output_dir:
        _write_result_dir(cmp, cmd.output_dir)
    if opts.fusion:
        _print_fusion_culprit(cmp)


#: At most this many warnings are printed on stderr (then a count of the rest).
MAX_WARNINGS = 20


def print_warnings(warnings: list[str]) -> None:
    """The comparison's warnings on stderr, one line each (the table prints its own)."""
    from dumpscope.tui.cli.safe import plain

    for w in warnings[:MAX_WARNINGS]:
        print(f"dumpscope: warning: {plain(str(w))}", file=sys.stderr)
    if len(warnings) > MAX_WARNINGS:
        print(
            f"dumpscope: warning: … and {len(warnings) - MAX_WARNINGS} more (see the JSON/CSV rows)",
            file=sys.stderr,
        )


def _selected(cmp: Comparison, cmd: Options) -> Comparison:
    """``cmp`` restricted by ``-r``/``-s`` (the frame only; rows keep their indexes)."""
    if not cmd.rows and not cmd.select:
        return cmp
    from dumpscope.core.comparison.order import select_rows

    frame = select_rows(cmp.frame, _row_range(cmd), cmd.select)
    return replace(cmp, frame=frame, pairing=None, golden=None, target=None)


def _row_range(cmd: Options) -> range | None:
    """``-r START,END[,STEP]`` as rows (None without ``-r``; a malformed one is a usage error)."""
    from dumpscope.core.comparison.order import parse_range

    try:
        return parse_range(cmd.rows) if cmd.rows else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _command() -> str | None:
    return (
        "dumpscope compare " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else None
    )


def _write(cmp: Comparison, cmd: Options) -> None:
    """The comparison in ``--format``, to ``-o FILE`` or stdout."""
    _FORMAT_WRITERS.get(cmd.format, _write_rows)(cmp, cmd)


def _write_rows(cmp: Comparison, cmd: Options) -> None:
    """csv, json and sigmastar: streamed to stdout (no second copy of the rows as text) or to ``-o``."""
    from dumpscope.core.report import writers as report

    report.WRITERS[cmd.format](cmp, cmd.output or sys.stdout)


def _write_parquet(cmp: Comparison, cmd: Options) -> None:
    """The rows as Parquet into ``-o FILE`` (checked present by :func:`run`)."""
    from dumpscope.core.report import writers as report

    report.write_parquet(cmp, cmd.output)


def _write_markdown(cmp: Comparison, cmd: Options) -> None:
    """The shareable Markdown report, with the command that made it."""
    from dumpscope.core.report import writers as report

    if cmd.output:
        report.write_markdown(cmp, cmd.output, _command())
    else:
        sys.stdout.write(report.markdown_report(cmp, _command()))


def _write_table(cmp: Comparison, cmd: Options) -> None:
    """Rich on a terminal; the plain full-width layout when piped or written to a file."""
    from dumpscope.core.atomic import atomic_text
    from dumpscope.tui.cli.render import print_table

    limit = cmd.limit or None
    if cmd.output:
        with atomic_text(cmd.output) as out:  # a run cut short leaves no half-written file
            print_table(cmp, out, limit)
    else:
        print_table(cmp, None, limit)


def _write_model_explorer(cmp: Comparison, cmd: Options) -> None:
    import json

    from dumpscope.core.report.model_explorer import node_data

    write_text(json.dumps(node_data(cmp), indent=1, allow_nan=False) + "\n", cmd.output)


def _write_result_dir(cmp: Comparison, directory: str) -> None:
    """msaccucmp's ``-out``: ``DIR/result_<YYYYmmddHHMMSS>.csv`` (its result-file name)."""
    import time
    from pathlib import Path

    from dumpscope.core.atomic import atomic_text
    from dumpscope.core.report.writers import write_csv

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"result_{time.strftime('%Y%m%d%H%M%S')}.csv"
    with atomic_text(path, newline="", replace=False) as fh:  # a name planted in advance: refused
        write_csv(cmp, fh)
    print(f"wrote {path}", file=sys.stderr)


def _print_fusion_culprit(cmp: Comparison) -> None:
    from dumpscope.core.comparison.threeway import fused_culprit
    from dumpscope.tui.cli.safe import plain

    blame = fused_culprit(cmp)
    text = (
        blame.sentence(("fusion on", "fusion off"))
        if blame
        else "no fused op diverges between fusion on and off"
    )
    print(plain(f"fusion: {text}"))


def _run_three(opts: ComparisonOptions, cmd: Options) -> int:
    """A and B each against GOLDEN, side by side; exit 1 when either side has a failing row."""
    from dumpscope.core.comparison.threeway import compare_three

    b = opts.b
    assert b is not None, "run() goes three-way only with B"

    if cmd.format not in THREE_WAY_FORMATS:
        raise UsageError(
            f"--format {cmd.format} is for two-way comparisons; three-way writes table, csv, json or parquet"
        )
    labels = ("fusion on", "fusion off") if opts.fusion else ("A", "B")
    by, factor = cmd.worse if isinstance(cmd.worse, tuple) else (cmd.worse, 2.0)
    tw = compare_three(
        opts.golden,
        opts.target,
        b,
        model=opts.model,
        graphs=opts.graphs,
        labels=labels,
        thresholds=opts.thresholds(),
        worse_by=by,
        factor=factor,
        workers=opts.workers,
        cache=opts.cache,
        scheduler=opts.scheduler,
        scheduler_timeout=opts.scheduler_timeout,
    )
    for side, label in zip((tw.a, tw.b), tw.labels, strict=True):
        say_cache(side.meta, label)
    tw.frame = _selected_frame(tw.frame, cmd)
    _write_three(tw, cmd)
    if cmd.output_dir:
        _write_three_dir(tw, cmd.output_dir)
    return EXIT_UNHEALTHY if _three_unhealthy(tw) else EXIT_OK


#: The outputs a three-way comparison writes.
THREE_WAY_FORMATS = ("table", "csv", "json", "parquet")


def _three_unhealthy(tw: ThreeWay) -> bool:
    """Some row of A or of B is ``fail`` or ``error``."""
    return any(is_divergent(c.health_counts()) for c in (tw.a, tw.b))


def _write_three_dir(tw: ThreeWay, directory: str) -> None:
    """``-out DIR`` for a three-way compare: ``DIR/threeway_<YYYYmmddHHMMSS>.csv`` (the side-by-side
    frame)."""
    import time
    from pathlib import Path

    from dumpscope.core.report.writers import write_frame

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"threeway_{time.strftime('%Y%m%d%H%M%S')}.csv"
    write_frame(tw.frame, "csv", path, replace=False)  # a name planted in advance is refused, not replaced
    print(f"wrote {path}", file=sys.stderr)


def _selected_frame(frame, cmd: Options):  # type: ignore[no-untyped-def]
    if not cmd.rows and not cmd.select:
        return frame
    import polars as pl

    from dumpscope.core.comparison.order import select_rows

    rows = _row_range(cmd)
    tmp = frame.with_columns(target_name=pl.col("a_target_name"), node_name=pl.lit(None, pl.String))
    return select_rows(tmp, rows, cmd.select).drop("target_name", "node_name")


def _write_three(tw: ThreeWay, cmd: Options) -> None:
    """Parquet to ``-o``; Rich on a terminal; else the plain table, CSV or JSON text."""
    from dumpscope.core.report.writers import write_frame

    if cmd.format in ("parquet", "csv", "json"):
        write_frame(tw.frame, cmd.format, cmd.output)
        return
    if cmd.format == "table" and not cmd.output and sys.stdout.isatty():
        from rich.console import Console

        from dumpscope.tui.cli.render import render_threeway

        render_threeway(tw, Console(), cmd.limit or None)
        return
    from dumpscope.tui.cli.render import threeway_lines

    write_text("\n".join(threeway_lines(tw, cmd.limit or None)) + "\n", cmd.output)


#: ``--format`` -> writer of a two-way comparison (csv, json and sigmastar: :func:`_write_rows`).
_FORMAT_WRITERS: dict[str, Callable[[Comparison, Options], None]] = {
    "table": _write_table,
    "parquet": _write_parquet,
    "markdown": _write_markdown,
    "model-explorer": _write_model_explorer,
}
