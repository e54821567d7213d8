"""Argument groups shared by several commands (so no command imports another's set-up).

Each function adds options to a parser; heavy modules are imported only inside the
functions that need them, and only for the sub-command being parsed.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from dumpscope.core.vocabulary import is_divergent
from dumpscope.tui.cli.errors import EXIT_OK, EXIT_UNHEALTHY, UsageError

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison, ComparisonMeta
    from dumpscope.tui.app.app import DumpscopeApp


def add_comparison_arguments(p: argparse.ArgumentParser, three_way: bool = False) -> None:
    """The inputs shared by compare, diagnose and the UI, with msaccucmp's spellings.

    ``-g``/``-m`` name the golden and the target ("my") dump as msaccucmp does, ``-f`` the
    fused graph (the vendor meaning, so ``--format`` is long-only) and ``-cf`` the graph
    of the fusion-off run; :func:`resolve_sides` turns either spelling into
    ``args.golden``, ``args.target``, ``args.b`` and ``args.graphs``.
    """
    from dumpscope.core.comparison.judge import PRESETS

    p.add_argument(
        "golden",
        nargs="?",
        help="golden (reference) dump: a directory of .npy files, an .npz, or a vendor dump",
    )
    p.add_argument("target", nargs="?", help="target dump to check against the golden")
    if three_way:
        p.add_argument(
            "b",
            nargs="?",
            metavar="B",
            help="a second target: three-way compare, A (TARGET) and B each against GOLDEN, side by side",
        )
        p.add_argument(
            "--worse",
            default="health",
            metavar="health|magnitude[:FACTOR]",
            type=_worse_rule,
            help="three-way: how 'worse' tells rows of the same health apart -- health (default: two "
            "passing rows are '='), or magnitude: the side whose relative distance is FACTOR "
            "(default 2) times the other's, passing or not",
        )
    p.add_argument("-g", "--golden", dest="golden_flag", metavar="DUMP", help="golden dump (msaccucmp's -g)")
    p.add_argument("-m", "--my-dump", dest="target_flag", metavar="DUMP", help="target dump (msaccucmp's -m)")
    p.add_argument(
        "--model", metavar="MODEL.onnx", help="ONNX model: gives the topological order and node names"
    )
    p.add_argument(
        "--graph",
        action="append",
        default=[],
        metavar="GRAPH.json",
        help="Ascend ATC graph JSON (atc --mode=1/5): pairs fused target ops with their golden originals; "
        "three-way: once per side (A then B)",
    )
    p.add_argument(
        "-f",
        "--fusion-rule-file",
        dest="fused_graph",
        metavar="GRAPH.json",
        help="msaccucmp's -f: the ATC graph JSON of the fused (fusion on) run",
    )
    p.add_argument(
        "-cf",
        "--close-fusion-rule-file",
        dest="unfused_graph",
        metavar="GRAPH.json",
        help="msaccucmp's -cf: the ATC graph JSON of the fusion-off run (fusion on vs off)",
    )
    p.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        default="auto",
        help="health thresholds: " + "; ".join(f"{k}: {v[0]}" for k, v in PRESETS.items()),
    )
    p.add_argument(
        "--stage",
        choices=("framework-float", "float-fixed", "fixed-offline"),
        help="SigmaStar: which comparison this is -- framework vs float.sim, float.sim vs "
        "fixed.sim, or fixed.sim vs offline/board log/output folders (default: told from the dumps)",
    )
    p.add_argument(
        "--threshold",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a threshold: METRIC=V (fail), METRIC.warn=V, BAND.METRIC.fail=V, rtol=V, atol=V",
    )
    p.add_argument(
        "--workers",
        type=int,
        metavar="N",
        default=None,
        help="worker processes that compute the metrics (default: every available core)",
    )
    p.add_argument(
        "--cache",
        action="store_true",
        help="keep per-tensor results in a signed index next to the target dump (or in --cache-dir; "
        "where is said on stderr, never elsewhere; a folder you cannot write in is refused), keyed by "
        "the files' content; a reopen only computes tensors whose content changed, and marks the rows "
        "it reused (cached)",
    )
    p.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="--cache, with the index kept in DIR instead of next to the target dump (a folder you can "
        "write in, e.g. when the dumps are someone else's)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="compute the rows on a Dask distributed scheduler's workers (pip install 'dumpscope[dask]'); "
        "the dumps' paths must be readable where the workers run",
    )
    p.add_argument(
        "--scheduler-timeout",
        type=_seconds,
        default=5.0,
        metavar="SECONDS",
        help="--scheduler: seconds to reach the scheduler before giving up with one line (default: 5)",
    )
    add_selection_arguments(p)  # msprobe step/rank trees and Ascend step/device trees


def _seconds(text: str) -> float:
    """``--scheduler-timeout``: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError(f"not a positive number of seconds: {text!r}")
    return value


def add_selection_arguments(p: argparse.ArgumentParser) -> None:
    """``--step`` / ``--rank`` / ``--device`` / ``--mapping`` (msprobe and Ascend trees)."""
    p.add_argument(
        "--step",
        type=int,
        action="append",
        metavar="N",
        help="msprobe or Ascend tree: compare only step N (repeatable; default: each step separately)",
    )
    p.add_argument(
        "--rank",
        action="append",
        metavar="N",
        help="msprobe: compare only rank N (or proc{pid}; repeatable; default: each rank separately)",
    )
    p.add_argument(
        "--device",
        type=int,
        action="append",
        metavar="N",
        help="Ascend raw dump tree: compare only device N (repeatable; default: each separately)",
    )
    p.add_argument(
        "--mapping",
        metavar="FILE.yaml",
        help="msprobe: data/api/layer mapping YAML (NPU names -> bench names)",
    )
    p.add_argument(
        "--pairing",
        choices=("aligned", "exact"),
        default="aligned",
        help="msprobe: pair the calls that correspond by aligning the two call lists (default; "
        "a call one side made and the other did not shifts later counters), or 'exact': "
        "equal names only, as msprobe's compare without --fuzzy_match",
    )


def add_ui_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by every command that opens the app."""
    parser.add_argument("--no-mouse", action="store_true", help="do not capture the mouse (e.g. over SSH)")
    parser.add_argument(
        "--theme",
        metavar="T",
        help="colour theme: textual-dark (default), ansi-dark (the terminal's 16 colours), nord...",
    )


def check_theme(theme: str | None) -> None:
    """Refuse an unknown theme before the terminal is taken over."""
    if theme is None:
        return
    from textual.theme import BUILTIN_THEMES

    if theme not in BUILTIN_THEMES:
        raise UsageError(f"unknown theme {theme!r}; choose from {', '.join(sorted(BUILTIN_THEMES))}")


def check_paths(args: argparse.Namespace) -> None:
    """Refuse missing golden/target/model/graph paths before the terminal is taken over."""
    resolve_sides(args)
    named = [("golden", args.golden), ("target", args.target), ("B", args.b), ("model", args.model)]
    for label, path in [*named, *(("graph", g) for g in args.graphs)]:
        if path is not None and not Path(path).exists():
            raise UsageError(f"{label} {path}: no such file or directory")


def resolve_sides(args: argparse.Namespace) -> None:
    """Settle ``golden``, ``target``, ``b`` and ``graphs`` (one graph or None per target side).

    Positionals and ``-g``/``-m`` may not name the same side twice.  With ``-f`` and ``-cf``
    and two dumps (msaccucmp's fusion on vs off), the fusion-off dump is the reference and
    the fused dump the target, whichever of ``-g``/``-m`` names them: the graph whose op
    names the dump's files carry decides (:func:`~dumpscope.core.vendor.sides.graph_owner`).
    """
    if getattr(args, "_resolved", False):
        return
    _settle_dumps(args)
    graphs = _settle_graphs(args)
    if len(graphs) > (2 if args.b else 1):
        raise UsageError(
            "too many graphs: one per target side (--graph A.json [--graph B.json], or -f / -cf)"
        )
    args.graphs = (graphs + [None, None])[:2]
    args._resolved = True


def _settle_dumps(args: argparse.Namespace) -> None:
    """``golden``/``target``/``b`` from positionals or ``-g``/``-m`` (a side named twice is an error)."""
    args.golden = _one("golden", getattr(args, "golden_flag", None), args.golden)
    args.target = _one("target", getattr(args, "target_flag", None), args.target)
    args.b = getattr(args, "b", None)
    _snapshot_sides(args)
    missing = [label for label in ("golden", "target") if getattr(args, label) is None]
    if missing:
        raise UsageError(
            f"dumpscope {getattr(args, 'command', None) or 'compare'}: the following arguments are required: "
            f"{', '.join(missing)} (GOLDEN TARGET, or -g GOLDEN -m TARGET)"
        )


def _snapshot_sides(args: argparse.Namespace) -> None:
    """One vendor folder that holds both runs (an RKNN accuracy_analysis snapshot: golden/ and
    simulator/) stands for the pair: ``dumpscope SNAPSHOT`` compares its golden with its simulator."""
    if args.golden is None or args.target is not None or args.b is not None:
        return
    from dumpscope.core.formats.rknn_snapshot import snapshot_sides

    sides = snapshot_sides(args.golden)
    if sides is not None:
        args.golden, args.target = (str(p) for p in sides)


def _settle_graphs(args: argparse.Namespace) -> list[str]:
    """Every graph named, in side order; for fusion on vs off, the fused dump becomes the target."""
    args.fused_graph, args.unfused_graph = (
        getattr(args, "fused_graph", None),
        getattr(args, "unfused_graph", None),
    )
    args.graph = _graph_list(getattr(args, "graph", None))
    if args.unfused_graph and not args.fused_graph:
        raise UsageError("-cf (the fusion-off graph) goes with -f (the fused graph)")
    if args.b is None and args.fused_graph and args.unfused_graph:
        _fusion_sides(args)
        return [*args.graph, args.fused_graph]
    return [*args.graph, *(g for g in (args.fused_graph, args.unfused_graph) if g)]


def _graph_list(graph: str | list[str] | None) -> list[str]:
    """``--graph`` as a list (one string when set programmatically, a list from argparse, or none)."""
    return [graph] if isinstance(graph, str) else list(graph or [])


def invocation() -> str:
    """How to run dumpscope again from this shell: ``dumpscope`` when that is what runs now,
    else the path this process was started by, as typed (``.venv/bin/dumpscope`` after the
    README's install), else ``<python> -m dumpscope``."""
    import shlex
    import shutil

    argv0 = _started_as_dumpscope()
    if argv0 is None:
        return f"{shlex.quote(sys.executable)} -m dumpscope"
    on_path = shutil.which("dumpscope")
    if on_path and Path(on_path).resolve() == argv0.resolve():
        return "dumpscope"
    return shlex.quote(str(argv0))


def _started_as_dumpscope() -> Path | None:
    """The existing ``dumpscope`` script this process was started by (``sys.argv[0]``), else None."""
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is None or argv0.name != "dumpscope" or not argv0.exists():
        return None
    return argv0


def _one(label: str, flag: str | None, positional: str | None) -> str | None:
    if flag and positional:
        raise UsageError(f"the {label} dump is named twice ({positional} and {flag})")
    return flag or positional


def _fusion_sides(args: argparse.Namespace) -> None:
    """Fusion on vs off, two NPU dumps: the unfused run is the reference, the fused run the target."""
    from dumpscope.core.vendor.sides import graph_owner

    if graph_owner(args.fused_graph, (args.golden, args.target)) == 0:
        args.golden, args.target = args.target, args.golden


def thresholds(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The :class:`Thresholds` the shared arguments ask for (a bad one is a usage error)."""
    from dumpscope.core.comparison.judge import Thresholds

    try:
        return Thresholds.from_preset(args.preset, args.threshold)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def cache_option(args: argparse.Namespace) -> bool | str:
    """``cache=`` for :func:`compare`: ``--cache-dir DIR``, else whether ``--cache`` was given."""
    return getattr(args, "cache_dir", None) or bool(getattr(args, "cache", False))


def say_cache(meta: ComparisonMeta, label: str = "") -> None:
    """Where the ``--cache`` index was read and written (or why it was not): one line on stderr,
    always said when there is a cache."""
    if meta.cache:
        from dumpscope.tui.cli.safe import plain

        print(f"dumpscope: cache{f' ({label})' if label else ''}: {plain(meta.cache)}", file=sys.stderr)


def refuse_options(args: argparse.Namespace, options: tuple[str, ...], why: str) -> None:
    """A :class:`UsageError` naming the ``options`` given that do not apply here (``why``):
    an option is honoured or refused, never silently ignored."""
    given = [o for o in options if getattr(args, o.lstrip("-").replace("-", "_"), None) not in (None, False)]
    if given:
        raise UsageError(f"{' and '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to {why}")


def load_comparison(args: argparse.Namespace) -> Comparison:
    """Run the comparison described by the shared arguments (a ``--stage`` named in its meta)."""
    cmp = _run_comparison(args)
    if getattr(args, "stage", None):
        return replace(cmp, meta=replace(cmp.meta, stage=args.stage))
    return cmp


def _run_comparison(args: argparse.Namespace) -> Comparison:
    """Run the comparison described by the shared arguments, with progress on a terminal."""
    from dumpscope.core.comparison.pipeline import compare

    resolve_sides(args)
    th = thresholds(args)
    graph = args.graphs[0]
    if not sys.stderr.isatty():
        return compare(
            args.golden,
            args.target,
            model=args.model,
            graph=graph,
            thresholds=th,
            workers=getattr(args, "workers", None),
            cache=cache_option(args),
            scheduler=getattr(args, "scheduler", None),
            scheduler_timeout=getattr(args, "scheduler_timeout", 5.0),
        )
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn, TransferSpeedColumn

    bar = Progress(
        TextColumn("comparing {task.fields[rows]}"),
        BarColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        transient=True,
    )
    task = bar.add_task("comparing", total=None, rows="")
    bar.start()

    def progress(done: int, total: int) -> None:
        bar.update(task, rows=f"{done}/{total} rows")

    def progress_bytes(done: int, total: int) -> None:  # the bar runs on bytes: its speed is GB/s
        bar.update(task, completed=done, total=total)

    try:
        return compare(
            args.golden,
            args.target,
            model=args.model,
            graph=graph,
            thresholds=th,
            progress=progress,
            progress_bytes=progress_bytes,
            workers=getattr(args, "workers", None),
            cache=cache_option(args),
            scheduler=getattr(args, "scheduler", None),
            scheduler_timeout=getattr(args, "scheduler_timeout", 5.0),
        )
    finally:
        bar.stop()


def exit_code(cmp: Comparison) -> int:
    """:data:`EXIT_UNHEALTHY` when some row is ``fail`` or ``error``, else :data:`EXIT_OK`."""
    return exit_code_for(cmp.health_counts())


def exit_code_for(counts: dict[str, int]) -> int:
    """:func:`exit_code` from health counts already taken (a diagnosis holds them)."""
    return EXIT_UNHEALTHY if is_divergent(counts) else EXIT_OK


def run_app(app: DumpscopeApp, args: argparse.Namespace) -> int:
    """Run ``app`` honouring ``--no-mouse``; the app's return code is the exit code."""
    result = app.run(mouse=not args.no_mouse)
    return int(result or 0)


def _worse_rule(text: str) -> tuple[str, float]:
    """``--worse health`` / ``magnitude`` / ``magnitude:FACTOR`` -> ``(rule, factor)``."""
    from dumpscope.core.comparison.threeway import MAGNITUDE_FACTOR, WORSE_RULES

    rule, _, factor = text.partition(":")
    if rule not in WORSE_RULES or (factor and rule != "magnitude"):
        raise argparse.ArgumentTypeError(f"{text!r}: use health, magnitude or magnitude:FACTOR")
    try:
        value = float(factor) if factor else MAGNITUDE_FACTOR
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: FACTOR must be a number") from None
    if not value >= 1:
        raise argparse.ArgumentTypeError(f"{text!r}: FACTOR must be at least 1")
    return rule, value
