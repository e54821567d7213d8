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
    "1 = some row fails or could not be compared, 2 = usage or input error. "
    "--format sigmastar prints SigmaStar's auto_dump_debug.sh listing (idx) name MSE COS RMSE) and takes "
    "the dumps in SigmaStar's order: SAMPLE (the model under test) first, BENCHMARK (the reference) second."
)
FORMATS = ("table", "csv", "json", "parquet", "markdown", "sigmastar")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_comparison_arguments(p)
    p.add_argument("--format", "-f", choices=FORMATS, default="table", help="output format (default: table)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout (required for parquet)")
    p.add_argument("--limit", type=int, default=1000, metavar="N", help="table: show at most N rows (0 = all)")
    p.add_argument("--export-values", metavar="DIR",
                   help="sigmastar: also write each listed tensor's values under DIR/Undefined_<benchmark>_DumpDebug_out/<n>/")
    p.add_argument("--one-row", action="store_true",
                   help="sigmastar export: one value per line (SigmaStar's SAVE_ONE_ROW=1; the variable is honoured too)")


def _sigmastar_notes(cmp, args: argparse.Namespace) -> None:  # type: ignore[no-untyped-def]
    """Which comparison this is (stderr: the listing itself stays SigmaStar's), and the export."""
    from dumpscope.core.vendor.sigmastar import stage_line

    line = stage_line(cmp.meta.get("stage"))
    if line:
        print(f"dumpscope: {line}", file=sys.stderr)
    if args.export_values:
        _export_values(cmp, args)


def _export_values(cmp, args: argparse.Namespace) -> None:  # type: ignore[no-untyped-def]
    """The DumpDebug_out folders of per-layer values; problems go to stderr, one line each."""
    import os

    from dumpscope.core.report.sigmastar import export_values

    one_row = args.one_row or os.environ.get("SAVE_ONE_ROW") == "1"
    root, problems = export_values(cmp, args.export_values, one_row)
    for problem in problems:
        print(f"dumpscope: export: {problem}", file=sys.stderr)
    print(f"dumpscope: values written under {root}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from dumpscope.core.report import writers as report

    if args.format == "parquet" and not args.output:
        raise UsageError("--format parquet needs -o FILE")
    if args.format == "sigmastar":  # auto_dump_debug.sh's order: SAMPLE (under test) first, then BENCHMARK
        args.golden, args.target = args.target, args.golden
    cmp = load_comparison(args)
    if args.format == "sigmastar":
        _sigmastar_notes(cmp, args)
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
