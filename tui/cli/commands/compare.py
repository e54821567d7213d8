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
    from dumpscope.core.report import writers as report

    if args.format == "parquet" and not args.output:
        raise UsageError("--format parquet needs -o FILE")
    from dumpscope.tui.cli.runs import route

    routed = route(args, "compare")  # msprobe trees, Ascend trees with several steps/devices
    if routed is not None:
        return routed
    cmp = load_comparison(args)
    command = "dumpscope compare " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else None
    if args.format == "table":
        from rich.console import Console

        from dumpscope.tui.cli.render import render_table

        out = open(args.output, "w", encoding="utf-8") if args.output else None
        try:
            render_table(cmp, Console(file=out) if out else Console(), limit=args.limit or None)
        finally:
            if out:
                out.close()
    elif args.format == "parquet":
        report.write_parquet(cmp, args.output)
    elif args.output:
        if args.format == "markdown":
            report.write_markdown(cmp, args.output, command)
        else:
            report.WRITERS[args.format](cmp, args.output)
    else:
        sys.stdout.write(report.markdown_report(cmp, command) if args.format == "markdown" else report.to_text(cmp, args.format))
    return exit_code(cmp)
