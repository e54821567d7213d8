"""``dumpscope GOLDEN TARGET``: open the terminal UI on two dumps (compared in the background)."""

from __future__ import annotations

import argparse
from pathlib import Path

from dumpscope.tui.cli.args import add_comparison_arguments, add_ui_arguments, check_paths, check_theme, run_app, thresholds

HELP = "open the terminal UI on a golden and a target dump (the default command)"
DESCRIPTION = (
    "Compare GOLDEN and TARGET layer dumps in the terminal UI.  Rows fill in as they are "
    "compared (esc cancels); press ? in the app for every key.  `dumpscope A B` is short "
    "for `dumpscope view A B`."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_comparison_arguments(parser, three_way=True)  # the same inputs as `dumpscope compare`
    add_ui_arguments(parser)


def run(args: argparse.Namespace) -> int:
    check_paths(args)
    check_theme(args.theme)
    thresholds(args)  # refuse a bad preset or threshold before the terminal is taken over
    from dumpscope.tui.app.explorer import CompareRequest, DumpscopeApp
    from dumpscope.tui.cli.runs import msprobe_comparison, narrow_for_app

    msprobe = msprobe_comparison(args)  # msprobe trees: the step/rank diverging first, module pane `p`
    if msprobe is not None:
        return run_app(DumpscopeApp(msprobe, theme=args.theme), args)
    narrow_for_app(args)  # Ascend trees with several steps/devices: one run, never merged

    graph_b = args.graphs[1] if len(args.graphs) > 1 else None
    request = CompareRequest(Path(args.golden), Path(args.target), args.model and Path(args.model), args.preset,
                             args.graphs[0] and Path(args.graphs[0]), tuple(args.threshold),
                             b=args.b and Path(args.b), graph_b=graph_b and Path(graph_b),
                             stage=getattr(args, "stage", None), cache=getattr(args, "cache", False))
    return run_app(DumpscopeApp(request, theme=args.theme), args)
