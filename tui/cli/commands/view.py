"""``dumpscope GOLDEN TARGET``: open the terminal UI on two dumps (compared in the background)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from dumpscope.tui.cli.args import (
    add_comparison_arguments,
    add_ui_arguments,
    cache_option,
    check_paths,
    check_theme,
    run_app,
    thresholds,
)

if TYPE_CHECKING:
    from dumpscope.tui.app.app import CompareRequest

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
    from dumpscope.tui.app.app import DumpscopeApp
    from dumpscope.tui.cli.runs import msprobe_comparison, narrow_for_app

    msprobe = msprobe_comparison(args)  # msprobe trees: the step/rank diverging first, module pane `p`
    if msprobe is not None:
        return run_app(DumpscopeApp(msprobe, theme=args.theme), args)
    narrow_for_app(args)  # Ascend trees with several steps/devices: one run, never merged
    _check_options(args)
    return run_app(DumpscopeApp(_request(args), theme=args.theme), args)


def _check_options(args: argparse.Namespace) -> None:
    """A ``--cache`` folder this user cannot write in, or a ``--scheduler`` that cannot be reached:
    one line before the terminal is taken over (the app honours both)."""
    from dumpscope.core.comparison.cache import index_folder
    from dumpscope.core.comparison.execution import Scheduler

    cache = cache_option(args)
    if cache:
        for target in (args.target, args.b):
            if target is not None:
                index_folder(target, cache)
    if args.scheduler is not None:
        Scheduler.of(args.scheduler, args.scheduler_timeout).reachable()


def _optional_path(value: str | None) -> Path | None:
    """``value`` as a Path; an unset (or empty) option as it is."""
    return value and Path(value)  # type: ignore[return-value]


def _request(args: argparse.Namespace) -> CompareRequest:
    """What the app compares: the dumps, model, graphs (one per target side), preset, thresholds, stage."""
    from dumpscope.tui.app.app import CompareRequest

    graph_b = args.graphs[1] if len(args.graphs) > 1 else None
    return CompareRequest(
        Path(args.golden),
        Path(args.target),
        _optional_path(args.model),
        args.preset,
        _optional_path(args.graphs[0]),
        tuple(args.threshold),
        b=_optional_path(args.b),
        graph_b=_optional_path(graph_b),
        stage=getattr(args, "stage", None),
        cache=_optional_path(args.cache_dir) or bool(args.cache),
        workers=args.workers,
        scheduler=args.scheduler,
        scheduler_timeout=args.scheduler_timeout,
    )
