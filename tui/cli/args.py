"""The argument layer: argument groups shared by several commands, and the one reading of the parsed
command line into each command's typed options.

Each ``add_*`` function adds options to a parser; heavy modules are imported only inside the
functions that need them, and only for the sub-command being parsed.  A command module names the
option groups its ``run`` takes in ``OPTIONS`` (its own ``Options`` dataclass, and shared ones such as
:class:`ComparisonOptions` or :class:`UiOptions`); :func:`dumpscope.tui.cli.dispatch.run_command` reads
them once, in that order, so command modules read typed fields, never the parsed namespace (as
Polygraphy's argument groups do).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from dumpscope.core.vocabulary import MAGNITUDE_FACTOR, WORSE_RULES, is_divergent
from dumpscope.tui.cli.errors import EXIT_OK, EXIT_UNHEALTHY, UsageError

if TYPE_CHECKING:
    from dumpscope.core.comparison.judge import Thresholds
    from dumpscope.core.comparison.result import Comparison, ComparisonMeta
    from dumpscope.tui.app.app import DumpscopeApp

T = TypeVar("T")


def add_comparison_arguments(p: argparse.ArgumentParser, three_way: bool = False) -> None:
    """The inputs shared by compare, diagnose and the UI, with msaccucmp's spellings.

    ``-g``/``-m`` name the golden and the target ("my") dump as msaccucmp does, ``-f`` the
    fused graph (the vendor meaning, so ``--format`` is long-only) and ``-cf`` the graph
    of the fusion-off run; :meth:`ComparisonOptions.from_args` turns either spelling into
    its ``golden``, ``target``, ``b`` and ``graphs``.
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


@dataclass(frozen=True)
class UiOptions:
    """:func:`add_ui_arguments`' options, for every command that opens the app."""

    no_mouse: bool
    theme: str | None


def check_theme(theme: str | None) -> None:
    """Refuse an unknown theme before the terminal is taken over."""
    if theme is None:
        return
    from textual.theme import BUILTIN_THEMES

    if theme not in BUILTIN_THEMES:
        raise UsageError(f"unknown theme {theme!r}; choose from {', '.join(sorted(BUILTIN_THEMES))}")


@dataclass(frozen=True)
class ComparisonOptions:
    """The shared comparison arguments, read once from the parsed command line (:meth:`from_args`):
    the settled sides and what every comparison path (one pair, three-way, several runs, msprobe,
    the app) is given.  Never changed in place: a narrowed or swapped pair is a new value
    (:func:`dataclasses.replace`)."""

    golden: str
    target: str
    b: str | None = None
    graphs: tuple[str | None, str | None] = (None, None)
    """One graph or None per target side (A, B)."""
    fusion: bool = False
    """``-f`` and ``-cf`` both given: msaccucmp's fusion on vs off."""
    model: str | None = None
    preset: str = "auto"
    threshold: tuple[str, ...] = ()
    stage: str | None = None
    workers: int | None = None
    cache_flag: bool = False
    """``--cache`` given."""
    cache_dir: str | None = None
    scheduler: str | None = None
    scheduler_timeout: float = 5.0
    step: tuple[int, ...] | None = None
    device: tuple[int, ...] | None = None
    rank: tuple[str, ...] | None = None
    mapping: str | None = None
    pairing: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> ComparisonOptions:
        """Settle ``golden``, ``target``, ``b`` and ``graphs`` and read the other options.

        Positionals and ``-g``/``-m`` may not name the same side twice.  With ``-f`` and ``-cf``
        and two dumps (msaccucmp's fusion on vs off), the fusion-off dump is the reference and
        the fused dump the target, whichever of ``-g``/``-m`` names them: the graph whose op
        names the dump's files carry decides (:func:`~dumpscope.core.vendor.sides.graph_owner`).
        """
        golden, target, b = _settle_dumps(args)
        fused, unfused = getattr(args, "fused_graph", None), getattr(args, "unfused_graph", None)
        graphs, golden, target = _settle_graphs(
            _graph_list(getattr(args, "graph", None)), fused, unfused, b, golden, target
        )
        if len(graphs) > (2 if b else 1):
            raise UsageError(
                "too many graphs: one per target side (--graph A.json [--graph B.json], or -f / -cf)"
            )
        return cls(
            golden=golden,
            target=target,
            b=b,
            graphs=_two(graphs),
            fusion=bool(fused and unfused),
            model=getattr(args, "model", None),
            preset=getattr(args, "preset", "auto"),
            threshold=tuple(getattr(args, "threshold", None) or ()),
            stage=getattr(args, "stage", None),
            workers=getattr(args, "workers", None),
            cache_flag=bool(getattr(args, "cache", False)),
            cache_dir=getattr(args, "cache_dir", None),
            scheduler=getattr(args, "scheduler", None),
            scheduler_timeout=getattr(args, "scheduler_timeout", 5.0),
            step=_tuple(getattr(args, "step", None)),
            device=_tuple(getattr(args, "device", None)),
            rank=_tuple(getattr(args, "rank", None)),
            mapping=getattr(args, "mapping", None),
            pairing=getattr(args, "pairing", None),
        )

    @property
    def cache(self) -> bool | str:
        """``cache=`` for :func:`compare`: ``--cache-dir DIR``, else whether ``--cache`` was given."""
        return self.cache_dir or self.cache_flag

    def refuse(self, why: str) -> None:
        """A :class:`UsageError` naming ``--cache``, ``--cache-dir`` and ``--scheduler`` where given,
        which do not apply to ``why``: an option is honoured or refused, never silently ignored."""
        named = {"--cache": self.cache_flag, "--cache-dir": self.cache_dir, "--scheduler": self.scheduler}
        given = [o for o, value in named.items() if value not in (None, False)]
        if given:
            raise UsageError(
                f"{' and '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to {why}"
            )

    def thresholds(self) -> Thresholds:
        """The :class:`Thresholds` the options ask for (a bad one is a usage error)."""
        from dumpscope.core.comparison.judge import Thresholds

        try:
            return Thresholds.from_preset(self.preset, list(self.threshold))
        except ValueError as exc:
            raise UsageError(str(exc)) from None

    def check_paths(self) -> None:
        """Refuse missing golden/target/model/graph paths before the terminal is taken over."""
        named = [("golden", self.golden), ("target", self.target), ("B", self.b), ("model", self.model)]
        for label, path in [*named, *(("graph", g) for g in self.graphs)]:
            if path is not None and not Path(path).exists():
                raise UsageError(f"{label} {path}: no such file or directory")


def _two(graphs: list[str]) -> tuple[str | None, str | None]:
    padded: list[str | None] = [*graphs, None, None]
    return padded[0], padded[1]


def _tuple(values: list[T] | None) -> tuple[T, ...] | None:
    return tuple(values) if values is not None else None


@dataclass(frozen=True)
class OutputOptions:
    """Where and how a several-run (msprobe, Ascend tree) result is written, read once from
    ``compare``'s or ``diagnose``'s arguments."""

    format: str = "table"
    """``json``, ``csv``, ``parquet`` or ``table`` (``diagnose --markdown`` writes the table)."""
    output: str | None = None
    limit: int = 0

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> OutputOptions:
        if getattr(args, "json", False):
            fmt = "json"
        elif getattr(args, "markdown", False):
            fmt = "table"
        else:
            fmt = str(getattr(args, "format", "table"))
        return cls(fmt, getattr(args, "output", None), getattr(args, "limit", 0))


def _settle_dumps(args: argparse.Namespace) -> tuple[str, str, str | None]:
    """``golden``/``target``/``b`` from positionals or ``-g``/``-m`` (a side named twice is an error)."""
    golden = _one("golden", getattr(args, "golden_flag", None), getattr(args, "golden", None))
    target = _one("target", getattr(args, "target_flag", None), getattr(args, "target", None))
    b = getattr(args, "b", None)
    golden, target = _snapshot_sides(golden, target, b)
    missing = [label for label, side in (("golden", golden), ("target", target)) if side is None]
    if golden is None or target is None:
        raise UsageError(
            f"dumpscope {getattr(args, 'command', None) or 'compare'}: the following arguments are required: "
            f"{', '.join(missing)} (GOLDEN TARGET, or -g GOLDEN -m TARGET)"
        )
    return golden, target, b


def _snapshot_sides(golden: str | None, target: str | None, b: str | None) -> tuple[str | None, str | None]:
    """One vendor folder that holds both runs (an RKNN accuracy_analysis snapshot: golden/ and
    simulator/) stands for the pair: ``dumpscope SNAPSHOT`` compares its golden with its simulator."""
    if golden is None or target is not None or b is not None:
        return golden, target
    from dumpscope.core.formats.rknn_snapshot import snapshot_sides

    sides = snapshot_sides(golden)
    if sides is not None:
        return str(sides[0]), str(sides[1])
    return golden, target


def _settle_graphs(
    graph: list[str], fused: str | None, unfused: str | None, b: str | None, golden: str, target: str
) -> tuple[list[str], str, str]:
    """Every graph named, in side order, and the sides; for fusion on vs off, the fused dump
    becomes the target."""
    if unfused and not fused:
        raise UsageError("-cf (the fusion-off graph) goes with -f (the fused graph)")
    if b is None and fused and unfused:
        golden, target = _fusion_sides(fused, golden, target)
        return [*graph, fused], golden, target
    return [*graph, *(g for g in (fused, unfused) if g)], golden, target


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


def _fusion_sides(fused: str, golden: str, target: str) -> tuple[str, str]:
    """Fusion on vs off, two NPU dumps: the unfused run is the reference, the fused run the target."""
    from dumpscope.core.vendor.sides import graph_owner

    if graph_owner(fused, (golden, target)) == 0:
        return target, golden
    return golden, target


def say_cache(meta: ComparisonMeta, label: str = "") -> None:
    """Where the ``--cache`` index was read and written (or why it was not): one line on stderr,
    always said when there is a cache."""
    if meta.cache:
        from dumpscope.tui.cli.safe import plain

        print(f"dumpscope: cache{f' ({label})' if label else ''}: {plain(meta.cache)}", file=sys.stderr)


def load_comparison(opts: ComparisonOptions) -> Comparison:
    """Run the comparison the options describe (a ``--stage`` named in its meta)."""
    cmp = _run_comparison(opts)
    if opts.stage:
        return replace(cmp, meta=replace(cmp.meta, stage=opts.stage))
    return cmp


def _run_comparison(opts: ComparisonOptions) -> Comparison:
    """Run the comparison the options describe, with progress on a terminal."""
    from dumpscope.core.comparison.pipeline import compare

    def run(**progress: object) -> Comparison:
        return compare(
            opts.golden,
            opts.target,
            model=opts.model,
            graph=opts.graphs[0],
            thresholds=opts.thresholds(),
            workers=opts.workers,
            cache=opts.cache,
            scheduler=opts.scheduler,
            scheduler_timeout=opts.scheduler_timeout,
            **progress,  # type: ignore[arg-type]
        )

    if not sys.stderr.isatty():
        return run()
    bar = ProgressBar()
    try:
        return run(progress=bar.rows, progress_bytes=bar.bytes)
    finally:
        bar.stop()


class ProgressBar:
    """The comparison's progress on a terminal (rows done, GB/s, time left), shown from the first
    finished task: Rich is loaded then, once the rows are being computed (the workers are forked
    before anything for the output is loaded)."""

    def __init__(self) -> None:
        self.bar: Any = None
        self.task: Any = None

    def _shown(self) -> Any:
        if self.bar is None:
            from rich.progress import (
                BarColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
                TransferSpeedColumn,
            )

            self.bar = Progress(
                TextColumn("comparing {task.fields[rows]}"),
                BarColumn(),
                TransferSpeedColumn(),
                TimeRemainingColumn(),
                transient=True,
            )
            self.task = self.bar.add_task("comparing", total=None, rows="")
            self.bar.start()
        return self.bar

    def rows(self, done: int, total: int) -> None:
        self._shown().update(self.task, rows=f"{done}/{total} rows")

    def bytes(self, done: int, total: int) -> None:  # the bar runs on bytes: its speed is GB/s
        self._shown().update(self.task, completed=done, total=total)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def exit_code(cmp: Comparison) -> int:
    """:data:`EXIT_UNHEALTHY` when some row is ``fail`` or ``error``, else :data:`EXIT_OK`."""
    return exit_code_for(cmp.health_counts())


def exit_code_for(counts: dict[str, int]) -> int:
    """:func:`exit_code` from health counts already taken (a diagnosis holds them)."""
    return EXIT_UNHEALTHY if is_divergent(counts) else EXIT_OK


def run_app(app: DumpscopeApp, ui: UiOptions) -> int:
    """Run ``app`` honouring ``--no-mouse``; the app's return code is the exit code."""
    result = app.run(mouse=not ui.no_mouse)
    return int(result or 0)


def _worse_rule(text: str) -> tuple[str, float]:
    """``--worse health`` / ``magnitude`` / ``magnitude:FACTOR`` -> ``(rule, factor)``."""
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
