"""``dumpscope GOLDEN TARGET``: open the terminal UI on two dumps (compared in the background)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dumpscope.tui.cli.args import (
    ComparisonOptions,
    UiOptions,
    add_comparison_arguments,
    add_ui_arguments,
    check_theme,
    run_app,
)

if TYPE_CHECKING:
    from dumpscope.tui.app.feed import CompareRequest

HELP = "open the terminal UI on a golden and a target dump (the default command)"
DESCRIPTION = (
    "Compare GOLDEN and TARGET layer dumps in the terminal UI.  Rows fill in as they are "
    "compared (esc cancels); press ? in the app for every key.  `dumpscope A B` is short "
    "for `dumpscope view A B`."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_comparison_arguments(parser, three_way=True)  # the same inputs as `dumpscope compare`
    add_ui_arguments(parser)


@dataclass(frozen=True)
class Options:
    """The view's own options (the dumps: :class:`ComparisonOptions`; the terminal: :class:`UiOptions`)."""

    worse: tuple[str, float] | str
    """Three-way: ``(rule, factor)`` (``--worse``), as ``dumpscope compare GOLDEN A B`` takes it."""


#: What :func:`run` takes, read in this order from the command line.
OPTIONS = (ComparisonOptions, UiOptions, Options)


def run(opts: ComparisonOptions, ui: UiOptions, cmd: Options) -> int:
    opts.check_paths()
    check_theme(ui.theme)
    opts.thresholds()  # refuse a bad preset or threshold before the terminal is taken over
    from dumpscope.tui.app.app import DumpscopeApp
    from dumpscope.tui.cli.runs import msprobe_comparison, narrow_for_app

    msprobe = msprobe_comparison(opts)  # msprobe trees: the step/rank diverging first, module pane `p`
    if msprobe is not None:
        return run_app(DumpscopeApp(msprobe, theme=ui.theme), ui)
    opts = narrow_for_app(opts)  # Ascend trees with several steps/devices: one run, never merged
    _check_options(opts)
    return run_app(DumpscopeApp(_request(opts, cmd), theme=ui.theme), ui)


def _check_options(opts: ComparisonOptions) -> None:
    """A ``--cache`` folder this user cannot write in, or a ``--scheduler`` that cannot be reached:
    one line before the terminal is taken over (the app honours both)."""
    from dumpscope.core.comparison.cache import index_folder
    from dumpscope.core.comparison.execution import Scheduler

    if opts.cache:
        for target in (opts.target, opts.b):
            if target is not None:
                index_folder(target, opts.cache)
    if opts.scheduler is not None:
        Scheduler.of(opts.scheduler, opts.scheduler_timeout).reachable()


def _optional_path(value: str | None) -> Path | None:
    """``value`` as a Path; an unset (or empty) option as it is."""
    return value and Path(value)  # type: ignore[return-value]


def _request(opts: ComparisonOptions, cmd: Options) -> CompareRequest:
    """What the app compares: the dumps, model, graphs (one per target side), preset, thresholds, stage."""
    from dumpscope.tui.app.feed import CompareRequest

    return CompareRequest(
        Path(opts.golden),
        Path(opts.target),
        _optional_path(opts.model),
        opts.preset,
        _optional_path(opts.graphs[0]),
        opts.threshold,
        b=_optional_path(opts.b),
        graph_b=_optional_path(opts.graphs[1]),
        stage=opts.stage,
        cache=_optional_path(opts.cache_dir) or opts.cache_flag,
        workers=opts.workers,
        scheduler=opts.scheduler,
        scheduler_timeout=opts.scheduler_timeout,
        **({"worse": cmd.worse} if opts.b is not None else {}),  # a three-way rule: two dumps have no "worse"
    )
