"""``dumpscope open RESULT.parquet``: reopen a saved comparison in the terminal UI (no dumps needed)."""

from __future__ import annotations

import argparse
from pathlib import Path

from dumpscope.tui.commands.view import add_ui_arguments, check_theme, run_app

HELP = "reopen a saved comparison (.parquet) in the terminal UI"
DESCRIPTION = (
    "Open a comparison saved with `dumpscope compare --parquet` or the app's export (x).  "
    "The dumps are not needed; panes that need tensor data say so."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("result", type=Path, help="a .parquet file written by dumpscope")
    add_ui_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from dumpscope.tui.cli import UsageError

    if not args.result.is_file():
        raise UsageError(f"{args.result}: no such file")
    check_theme(args.theme)
    import polars as pl

    from dumpscope.core.session import Comparison
    from dumpscope.tui.app import DumpscopeApp

    try:
        comparison = Comparison.open(args.result)
    except (OSError, ValueError, pl.exceptions.PolarsError) as exc:
        raise UsageError(f"{args.result}: not a dumpscope result ({exc})") from exc
    return run_app(DumpscopeApp(comparison, theme=args.theme), args)
