"""``dumpscope diagnose GOLDEN TARGET``: ranked root causes with evidence and advice."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dumpscope.core.atomic import write_text
from dumpscope.core.heap import trim_free_heap
from dumpscope.tui.cli.args import (
    ComparisonOptions,
    OutputOptions,
    add_comparison_arguments,
    exit_code_for,
    load_comparison,
    say_cache,
)
from dumpscope.tui.cli.errors import UsageError
from dumpscope.tui.cli.safe import markup, plain

if TYPE_CHECKING:
    from rich.console import Console

    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.diagnosis.engine import Diagnosis, RootCause
    from dumpscope.core.fix import FixResult

HELP = "name the root cause of a divergence, with the numbers behind it and the fix"
DESCRIPTION = (
    "Compare GOLDEN with TARGET, then reason over the result: for every node, its output error against "
    "the worst error among its inputs (introduced vs inherited), where NaN/Inf first appear, jump vs drift, "
    "golden values and constants out of the target dtype's range (fp16 clamps, Exp overflow, int8 scale), "
    "Opdebug records, fused ops, quantisation loss, and inputs that already differ.  Prints a ranked list "
    "of root causes with evidence and advice (including the `dumpscope patch` command when one applies).  "
    "Exit code as compare: 0 healthy, 1 some row fails or could not be compared, 2 usage or input error."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_comparison_arguments(p)
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the diagnosis as JSON")
    out.add_argument("--markdown", action="store_true", help="print a short shareable Markdown report")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument(
        "--limit", type=int, default=10, metavar="N", help="report at most N root causes (default 10)"
    )
    p.add_argument(
        "--no-replay",
        action="store_true",
        help="do not replay suspect nodes on the CPU (with --model, each suspect node is run alone on the "
        "target's inputs to tell an introduced error from an inherited one)",
    )

    p.add_argument(
        "--fix",
        action="store_true",
        help="then search for the smallest verified fix, seeded by this diagnosis (dumpscope fix on the "
        "model the dumps name, the target dump's --target fp16|int8, the golden dump's inputs); its proof "
        "follows the report (a 'fix' key with --json)",
    )
    p.add_argument(
        "--fix-budget", type=int, default=None, metavar="N", help="at most N fix trials (default as fix)"
    )


@dataclass(frozen=True)
class Options:
    """diagnose's own options (the dumps and how they are compared: :class:`ComparisonOptions`)."""

    json: bool
    markdown: bool
    output: str | None
    limit: int
    no_replay: bool
    fix: bool
    fix_budget: int | None

    def __post_init__(self) -> None:
        if self.limit < 1:  # before the dumps are looked at
            raise UsageError("--limit must be at least 1")


#: What :func:`run` takes, read in this order from the command line.
OPTIONS = (Options, ComparisonOptions, OutputOptions)


def _replay_progress(done: int, total: int) -> None:
    """One self-overwriting stderr line while suspect nodes are replayed (a terminal only)."""
    width = 20
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\rreplaying suspect nodes [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()


def run(cmd: Options, opts: ComparisonOptions, output: OutputOptions) -> int:
    """Resolve the inputs, compare, diagnose, then write JSON/Markdown or the readable report."""
    from dumpscope.tui.cli.runs import route

    routed = route(opts, output, "diagnose")  # msprobe, several-run Ascend trees
    if isinstance(routed, int):
        return routed
    cmp = load_comparison(routed)
    say_cache(cmp.meta)  # where the --cache index is (or why it is not): always said
    trim_free_heap()  # the comparison's temporaries: the diagnosis would not reuse their pages
    diag = _diagnose(cmp, cmd)
    fix = _fix(cmp, diag, cmd) if cmd.fix else None
    if cmd.json or cmd.markdown:
        write_text(_report_text(cmp, diag, cmd, fix), cmd.output)
    else:
        _write_readable(cmp, diag, cmd.output, fix)
    return exit_code_for(diag.counts)  # the diagnosis counted them: no second pass over the rows


def _fix(cmp: Comparison, diag: Diagnosis, cmd: Options) -> FixResult:
    """``--fix``: the fix search seeded by ``diag``, its trials on stderr."""
    from dumpscope.core.dumps import DumpError
    from dumpscope.core.fix import DEFAULT_BUDGET, fix_from_comparison

    budget = DEFAULT_BUDGET if cmd.fix_budget is None else cmd.fix_budget
    if budget < 1:
        raise UsageError("--fix-budget must be at least 1")

    def progress(i: int, total: int, what: str) -> None:
        print(f"fix: trial {i}/{total} {what}", file=sys.stderr, flush=True)

    try:
        return fix_from_comparison(cmp, diag, budget=budget, progress=progress)
    except DumpError as exc:
        raise UsageError(
            f"--fix: {exc}"
        ) from None  # the diagnosis counted them: no second pass over the rows


def _diagnose(cmp: Comparison, cmd: Options) -> Diagnosis:
    """The diagnosis, with a replay progress line on a terminal (cleared when done)."""
    from dumpscope.core.diagnosis.engine import diagnose

    tty = sys.stderr.isatty()
    diag = diagnose(
        cmp, limit=cmd.limit, progress=_replay_progress if tty else None, replay=not cmd.no_replay
    )
    if tty:
        sys.stderr.write("\r\033[K")
    return diag


def _report_text(cmp: Comparison, diag: Diagnosis, cmd: Options, fix: FixResult | None = None) -> str:
    """``--json`` or ``--markdown`` (images and links relative to the ``-o`` file's folder)."""
    if cmd.json:
        data = diag.to_json() | ({"fix": fix.to_json()} if fix is not None else {})
        return json.dumps(data, indent=1, allow_nan=False, default=str) + "\n"
    from pathlib import Path

    from dumpscope.core.diagnosis.markdown import markdown

    command = (
        "dumpscope diagnose " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else None
    )
    text = markdown(cmp, diag, command, base=Path(cmd.output).resolve().parent if cmd.output else None)
    return text + (_fix_markdown(fix) if fix is not None else "")


def _fix_markdown(fix: FixResult) -> str:
    from dumpscope.core.fix.report import report_lines

    return "\n## Fix\n\n```\n" + "\n".join(report_lines(fix)) + "\n```\n"


def _write_readable(
    cmp: Comparison, diag: Diagnosis, output: str | None, fix: FixResult | None = None
) -> None:
    """The readable report on stdout or into ``output`` (temp name + rename), SigmaStar's stage first."""
    from dumpscope.core.atomic import atomic_text
    from dumpscope.tui.cli.render import output_console

    if not output:
        _print_report(cmp, diag, output_console(), fix)
        return
    with atomic_text(output) as f:
        _print_report(cmp, diag, output_console(f), fix)


def _print_report(cmp: Comparison, diag: Diagnosis, console: Console, fix: FixResult | None = None) -> None:
    """Which of SigmaStar's three comparisons this is (when known), then :func:`render`."""
    from dumpscope.core.vendor.sigmastar import stage_line

    stage = stage_line(cmp.meta.stage)  # SigmaStar: which of the SigmaStar IPU guide's three comparisons
    if stage:
        console.print(stage, highlight=False)
    render(diag, console)
    if fix is not None:
        from dumpscope.core.fix.report import report_lines

        console.print()
        for line in report_lines(fix):
            console.print(line, markup=False, highlight=False)


def render(diag: Diagnosis, console: Console) -> None:
    """The readable report: verdict, root causes with evidence and advice, findings."""
    _render_verdict(diag, console)
    for w in diag.warnings:
        console.print(f"[yellow]! warning:[/] {markup(w)}")
    if not diag.root_causes:
        console.print(
            "No node introduces an error."
            if diag.healthy
            else "No root-cause candidate (no input edges known)."
        )
    for k, c in enumerate(diag.root_causes, 1):
        _render_cause(console, k, c)
    _render_findings(diag, console)


def _render_verdict(diag: Diagnosis, console: Console) -> None:
    """HEALTHY (green) or UNHEALTHY (red) around the one-paragraph summary."""
    from rich.panel import Panel
    from rich.text import Text

    style, word = ("green", "HEALTHY") if diag.healthy else ("red", "UNHEALTHY")
    console.print(
        Panel(
            Text(plain(diag.summary)),
            title=f"[bold {style}]{word}[/]",
            title_align="left",
            border_style=style,
            expand=console.is_terminal,
        )
    )


def _render_cause(console: Console, k: int, c: RootCause) -> None:
    """Root cause ``k``: what and where, the evidence, the advice and the commands that fix it."""
    console.print()
    console.print(
        f"[bold]{k}. {markup(c.name)}[/] ({markup(c.op_type or '?')}, node "
        f"{markup(c.node_name or '?')}, #{c.index})  [bold]{markup(c.cause)}[/]  score {c.score:.2f}"
    )
    for e in c.evidence:
        console.print(f"   - {markup(e)}", highlight=False)
    console.print(f"   [cyan]advice:[/] {markup(c.advice.split(' Patch and verify:')[0])}", highlight=False)
    for cmd in c.commands:
        console.print(f"   [cyan]$[/] {markup(cmd)}", highlight=False, soft_wrap=True)


def _render_findings(diag: Diagnosis, console: Console) -> None:
    """Overflow/range findings and quantisation loss, when there are any."""
    if diag.overflow:
        _section(
            console,
            "[bold]Overflow and range findings[/]",
            [f"   - {markup(line)}" for line in diag.overflow],
        )
    if diag.quantisation:
        _section(
            console,
            "[bold]Quantisation loss[/] (SQNR lost against the worst input)",
            [_quantisation_line(q) for q in diag.quantisation],
        )


def _section(console: Console, title: str, lines: list[str]) -> None:
    """A blank line, a bold title and its lines (markup already escaped)."""
    console.print()
    console.print(title)
    for line in lines:
        console.print(line, highlight=False)


def _quantisation_line(q: dict[str, Any]) -> str:
    """One row's SQNR lost against its worst input, and INT16 advice when it applies."""
    int16 = "  -> try INT16" if q["int16_advised"] else ""
    return (
        f"   - #{q['row']} {markup(q['name'])} ({markup(q['op_type'] or '?')}): {q['sqnr_lost_db']:.3g} dB "
        "lost, "
        f"SQNR {q['sqnr_db']:.3g} dB{int16}"
    )
