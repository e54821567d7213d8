"""``dumpscope compare GOLDEN TARGET``: the scriptable comparison."""

from __future__ import annotations

import argparse
import shlex
import sys

from dumpscope.tui.cli.args import add_comparison_arguments, exit_code, load_comparison
from dumpscope.tui.cli.errors import UsageError

HELP = "compare two dumps and print or write per-layer metrics"
DESCRIPTION = (
    "Compare a golden dump with a target dump: one row per tensor in topological order with the "
    "ten msaccucmp metrics, SQNR, NaN/Inf counts and a health verdict. Exit code 0 = all healthy, "
    "1 = some row fails or could not be compared, 2 = usage or input error."
)
FORMATS = ("table", "csv", "json", "parquet", "markdown")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_comparison_arguments(p)
    p.add_argument("--format", "-f", choices=FORMATS, default="table", help="output format (default: table)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout (required for parquet)")
    p.add_argument("--limit", type=int, default=1000, metavar="N", help="table: show at most N rows (0 = all)")


def run(args: argparse.Namespace) -> int:
    from dumpscope.core.atomic import atomic_text
    from dumpscope.core.report import writers as report

    if args.format == "parquet" and not args.output:
        raise UsageError("--format parquet needs -o FILE")
    cmp = load_comparison(args)
    command = "dumpscope compare " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else None
    if args.format == "table":
        from rich.console import Console

        from dumpscope.tui.cli.render import render_table

        if args.output:
            with atomic_text(args.output) as out:  # a run cut short leaves no half-written file
                render_table(cmp, Console(file=out), limit=args.limit or None)
        else:
            render_table(cmp, Console(), limit=args.limit or None)
    elif args.format == "parquet":
        report.write_parquet(cmp, args.output)
    elif args.output:
        if args.format == "markdown":
            report.write_markdown(cmp, args.output, command)
        else:
            report.WRITERS[args.format](cmp, args.output)
    elif args.format == "markdown":
        sys.stdout.write(report.markdown_report(cmp, command))
    else:
        report.WRITERS[args.format](cmp, sys.stdout)  # streamed: no second copy of the rows as text
    if args.format != "table" or args.output:
        print_warnings(cmp.meta.get("warnings") or [])  # type: ignore[arg-type]
    return exit_code(cmp)


#: At most this many warnings are printed on stderr (then a count of the rest).
MAX_WARNINGS = 20


def print_warnings(warnings: list[str]) -> None:
    """The comparison's warnings on stderr, one line each (the table prints its own)."""
    from dumpscope.tui.cli.safe import plain

    for w in warnings[:MAX_WARNINGS]:
        print(f"dumpscope: warning: {plain(str(w))}", file=sys.stderr)
    if len(warnings) > MAX_WARNINGS:
        print(f"dumpscope: warning: … and {len(warnings) - MAX_WARNINGS} more (see the JSON/CSV rows)", file=sys.stderr)
