"""``dumpscope GOLDEN TARGET``: open the terminal UI on two dumps (compared in the background)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dumpscope.tui.app.explorer import DumpscopeApp

HELP = "open the terminal UI on a golden and a target dump (the default command)"
DESCRIPTION = (
    "Compare GOLDEN and TARGET layer dumps in the terminal UI.  Rows fill in as they are "
    "compared (esc cancels); press ? in the app for every key.  `dumpscope A B` is short "
    "for `dumpscope view A B`."
)


def add_ui_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by every command that opens the app."""
    parser.add_argument("--no-mouse", action="store_true", help="do not capture the mouse (e.g. over SSH)")
    parser.add_argument("--theme", metavar="T", help="colour theme: textual-dark (default), ansi-dark (the terminal's 16 colours), nord...")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from dumpscope.tui.cli.commands.compare import add_comparison_arguments

    add_comparison_arguments(parser)  # the same inputs as `dumpscope compare`
    add_ui_arguments(parser)


def check_theme(theme: str | None) -> None:
    """Refuse an unknown theme before the terminal is taken over."""
    if theme is None:
        return
    from textual.theme import BUILTIN_THEMES

    from dumpscope.tui.cli.main import UsageError

    if theme not in BUILTIN_THEMES:
        raise UsageError(f"unknown theme {theme!r}; choose from {', '.join(sorted(BUILTIN_THEMES))}")


def run_app(app: DumpscopeApp, args: argparse.Namespace) -> int:
    """Run ``app`` honouring ``--no-mouse``; the app's return code is the exit code."""
    result = app.run(mouse=not args.no_mouse)
    return int(result or 0)


def run(args: argparse.Namespace) -> int:
    from dumpscope.tui.cli.main import UsageError

    for label, path in (("golden", args.golden), ("target", args.target), ("model", args.model), ("graph", args.graph)):
        if path is not None and not Path(path).exists():
            raise UsageError(f"{label} {path}: no such file or directory")
    check_theme(args.theme)
    from dumpscope.core.comparison.judge import Thresholds

    try:  # refuse a bad preset or threshold before the terminal is taken over
        Thresholds.from_preset(args.preset, args.threshold)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    from dumpscope.tui.app.explorer import CompareRequest, DumpscopeApp

    request = CompareRequest(Path(args.golden), Path(args.target), args.model and Path(args.model), args.preset,
                             args.graph and Path(args.graph), tuple(args.threshold))
    return run_app(DumpscopeApp(request, theme=args.theme), args)
