"""``dumpscope open RESULT.parquet``: reopen a saved comparison in the terminal UI (no dumps needed)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from dumpscope.tui.cli.args import UiOptions, add_ui_arguments, check_theme, exit_code, run_app
from dumpscope.tui.cli.errors import UsageError

HELP = (
    "reopen a saved comparison (.parquet), or import an msaccucmp/msit result_*.csv or an RKNN "
    "error_analysis.txt, in the terminal UI"
)
DESCRIPTION = (
    "Open a comparison saved with `dumpscope compare --format parquet` or the app's export (x), or "
    "import an msaccucmp / msit result_*.csv as a ready-made comparison (judged by dumpscope's bands, "
    "with msaccucmp's blind spots flagged), or RKNN-Toolkit2's error_analysis.txt (its entire/single "
    "cosine and Euclidean columns; `dumpscope SNAPSHOT` computes ours beside them).  The dumps are not "
    "needed; panes that need tensor data say "
    "so.  --format prints it instead (table, csv, json, markdown)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "result",
        type=Path,
        help="a .parquet file written by dumpscope, an msaccucmp result_*.csv or an RKNN error_analysis.txt",
    )
    parser.add_argument(
        "--format",
        "-f",
        choices=("table", "csv", "json", "markdown"),
        help="print the result instead of opening the UI",
    )
    add_ui_arguments(parser)


@dataclass(frozen=True)
class Options:
    result: Path
    format: str | None
    """Print the result in this format instead of opening the UI."""


#: What :func:`run` takes, read in this order from the command line.
OPTIONS = (Options, UiOptions)


def run(cmd: Options, ui: UiOptions) -> int:
    if not cmd.result.is_file():
        raise UsageError(f"{cmd.result}: no such file")
    check_theme(ui.theme)
    import polars as pl

    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.dumps import DumpError

    try:
        if _is_rknn_report(cmd.result):
            from dumpscope.core.comparison.imported import open_rknn_report

            comparison = open_rknn_report(cmd.result)
        elif cmd.result.suffix.lower() == ".csv":
            from dumpscope.core.comparison.imported import open_result

            comparison = open_result(cmd.result)
        else:
            _refuse_three_way(cmd.result)
            comparison = Comparison.open(cmd.result)
    except DumpError as exc:
        raise UsageError(str(exc)) from exc
    except (OSError, ValueError, pl.exceptions.PolarsError) as exc:
        raise UsageError(f"{cmd.result}: not a dumpscope result ({exc})") from exc
    if cmd.format:
        return _print(comparison, cmd.format)
    from dumpscope.tui.app.app import DumpscopeApp

    return run_app(DumpscopeApp(comparison, theme=ui.theme), ui)


def _is_rknn_report(path: Path) -> bool:
    """An RKNN-Toolkit2 ``error_analysis.txt`` (told by its header, whatever its name)."""
    from dumpscope.core.vendor.rknn import is_report

    return path.suffix.lower() == ".txt" and is_report(path)


def _refuse_three_way(path: Path) -> None:
    """A three-way result (``compare GOLDEN A B --format parquet``) is not one comparison: opening it
    as one would show every row as OK, so say what it is instead."""
    import polars as pl

    if "worse" in pl.read_parquet_schema(path):
        raise UsageError(
            f"{path}: a three-way result (GOLDEN vs A vs B), not one comparison; read it with Polars "
            "(a_* and b_* columns, 'worse') or run `dumpscope compare GOLDEN A B` again"
        )


def _print(comparison, fmt: str) -> int:  # type: ignore[no-untyped-def]
    import sys

    from dumpscope.core.report import writers as report

    if fmt == "table":
        from dumpscope.tui.cli.render import print_table

        print_table(comparison)
    else:
        report.WRITERS[fmt](comparison, sys.stdout)  # streamed (markdown is one short report)
    return exit_code(comparison)
