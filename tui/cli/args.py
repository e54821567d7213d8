"""Argument groups shared by several commands (so no command imports another's set-up).

Each function adds options to a parser; heavy modules are imported only inside the
functions that need them, and only for the sub-command being parsed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dumpscope.tui.cli.errors import EXIT_OK, EXIT_UNHEALTHY, UsageError

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.tui.app.explorer import DumpscopeApp


def add_comparison_arguments(p: argparse.ArgumentParser) -> None:
    """The inputs shared by compare, diagnose and the UI."""
    from dumpscope.core.comparison.judge import PRESETS

    p.add_argument("golden", help="golden (reference) dump: a directory of .npy files, an .npz, or a vendor dump")
    p.add_argument("target", help="target dump to check against the golden")
    p.add_argument("--model", metavar="MODEL.onnx", help="ONNX model: gives the topological order and node names")
    p.add_argument("--graph", metavar="GRAPH.json",
                   help="Ascend ATC graph JSON (atc --mode=1/5): pairs fused target ops with their golden originals")
    p.add_argument("--preset", choices=sorted(PRESETS), default="auto",
                   help="health thresholds: " + "; ".join(f"{k}: {v[0]}" for k, v in PRESETS.items()))
    p.add_argument("--threshold", action="append", default=[], metavar="KEY=VALUE",
                   help="override a threshold: METRIC=V (fail), METRIC.warn=V, BAND.METRIC.fail=V, rtol=V, atol=V")
    add_selection_arguments(p)  # msprobe step/rank trees and Ascend step/device trees (issue 15)


def add_selection_arguments(p: argparse.ArgumentParser) -> None:
    """``--step`` / ``--rank`` / ``--device`` / ``--mapping`` (msprobe and Ascend trees)."""
    p.add_argument("--step", type=int, action="append", metavar="N",
                   help="msprobe or Ascend tree: compare only step N (repeatable; default: each step separately)")
    p.add_argument("--rank", action="append", metavar="N",
                   help="msprobe: compare only rank N (or proc{pid}; repeatable; default: each rank separately)")
    p.add_argument("--device", type=int, action="append", metavar="N",
                   help="Ascend raw dump tree: compare only device N (repeatable; default: each separately)")
    p.add_argument("--mapping", metavar="FILE.yaml",
                   help="msprobe: data/api/layer mapping YAML (NPU names -> bench names)")


def add_ui_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by every command that opens the app."""
    parser.add_argument("--no-mouse", action="store_true", help="do not capture the mouse (e.g. over SSH)")
    parser.add_argument("--theme", metavar="T", help="colour theme: textual-dark (default), ansi-dark (the terminal's 16 colours), nord...")


def check_theme(theme: str | None) -> None:
    """Refuse an unknown theme before the terminal is taken over."""
    if theme is None:
        return
    from textual.theme import BUILTIN_THEMES

    if theme not in BUILTIN_THEMES:
        raise UsageError(f"unknown theme {theme!r}; choose from {', '.join(sorted(BUILTIN_THEMES))}")


def check_paths(args: argparse.Namespace) -> None:
    """Refuse missing golden/target/model/graph paths before the terminal is taken over."""
    for label in ("golden", "target", "model", "graph"):
        path = getattr(args, label)
        if path is not None and not Path(path).exists():
            raise UsageError(f"{label} {path}: no such file or directory")


def thresholds(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The :class:`Thresholds` the shared arguments ask for (a bad one is a usage error)."""
    from dumpscope.core.comparison.judge import Thresholds

    try:
        return Thresholds.from_preset(args.preset, args.threshold)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def load_comparison(args: argparse.Namespace) -> Comparison:
    """Run the comparison described by the shared arguments, with progress on a terminal."""
    from dumpscope.core.comparison.pipeline import compare

    th = thresholds(args)
    if not sys.stderr.isatty():
        return compare(args.golden, args.target, model=args.model, graph=args.graph, thresholds=th)
    from rich.progress import Progress

    bar = Progress(transient=True)
    task = bar.add_task("comparing", total=None)
    bar.start()

    def progress(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    try:
        return compare(args.golden, args.target, model=args.model, graph=args.graph, thresholds=th, progress=progress)
    finally:
        bar.stop()


def exit_code(cmp: Comparison) -> int:
    """:data:`EXIT_UNHEALTHY` when some row is ``fail`` or ``error``, else :data:`EXIT_OK`."""
    counts = cmp.health_counts()
    return EXIT_UNHEALTHY if counts.get("fail", 0) or counts.get("error", 0) else EXIT_OK


def run_app(app: DumpscopeApp, args: argparse.Namespace) -> int:
    """Run ``app`` honouring ``--no-mouse``; the app's return code is the exit code."""
    result = app.run(mouse=not args.no_mouse)
    return int(result or 0)
