"""``dumpscope diagnose GOLDEN TARGET``: ranked root causes with evidence and advice."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import TYPE_CHECKING

from dumpscope.tui.cli.args import add_comparison_arguments, exit_code, load_comparison
from dumpscope.tui.cli.errors import UsageError
from dumpscope.tui.cli.safe import markup, plain

if TYPE_CHECKING:
    from rich.console import Console

    from dumpscope.core.diagnosis.engine import Diagnosis, RootCause

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
    p.add_argument("--limit", type=int, default=10, metavar="N", help="report at most N root causes (default 10)")
    p.add_argument("--no-replay", action="store_true",
                   help="do not replay suspect nodes on the CPU (with --model, each suspect node is run alone on the "
                        "target's inputs to tell an introduced error from an inherited one)")


def _replay_progress(done: int, total: int) -> None:
    """One self-overwriting stderr line while suspect nodes are replayed (a terminal only)."""
    width = 20
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\rreplaying suspect nodes [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    from dumpscope.core.atomic import atomic_text
    from dumpscope.core.diagnosis.engine import diagnose

    if args.limit < 1:
        raise UsageError("--limit must be at least 1")
    from dumpscope.tui.cli.runs import route

    routed = route(args, "diagnose")  # msprobe trees, Ascend trees with several steps/devices
    if routed is not None:
        return routed
    cmp = load_comparison(args)
    diag = diagnose(cmp, limit=args.limit, progress=_replay_progress if sys.stderr.isatty() else None,
                    replay=not args.no_replay)
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
    command = "dumpscope diagnose " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else None
    if args.json or args.markdown:
        if args.json:
            text = json.dumps(diag.to_json(), indent=1, allow_nan=False, default=str) + "\n"
        else:
            from dumpscope.core.diagnosis.markdown import markdown

            from pathlib import Path

            text = markdown(cmp, diag, command, base=Path(args.output).resolve().parent if args.output else None)
        if args.output:
            with atomic_text(args.output) as f:  # temp name + rename: never half-written
                f.write(text)
        else:
            sys.stdout.write(text)
        return exit_code(cmp)
    from dumpscope.tui.cli.render import output_console

    from dumpscope.core.vendor.sigmastar import stage_line

    stage = stage_line(cmp.meta.get("stage"))  # SigmaStar: which of seed 004's three comparisons
    if args.output:
        with atomic_text(args.output) as f:  # temp name + rename: never half-written
            console = output_console(f)
            if stage:
                console.print(stage, highlight=False)
            render(diag, console)
    else:
        console = output_console()
        if stage:
            console.print(stage, highlight=False)
        render(diag, console)
    return exit_code(cmp)


def render(diag: Diagnosis, console: Console) -> None:
    """The readable report: verdict, root causes with evidence and advice, findings."""
    from rich.panel import Panel
    from rich.text import Text

    style = "green" if diag.healthy else "red"
    word = "HEALTHY" if diag.healthy else "UNHEALTHY"
    console.print(Panel(Text(plain(diag.summary)), title=f"[bold {style}]{word}[/]", title_align="left", border_style=style,
                        expand=console.is_terminal))
    for w in diag.warnings:
        console.print(f"[yellow]! warning:[/] {markup(w)}")
    if not diag.root_causes:
        console.print("No node introduces an error." if diag.healthy else "No root-cause candidate (no input edges known).")
    for k, c in enumerate(diag.root_causes, 1):
        _render_cause(console, k, c)
    _render_findings(diag, console)


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
        console.print()
        console.print("[bold]Overflow and range findings[/]")
        for line in diag.overflow:
            console.print(f"   - {markup(line)}", highlight=False)
    if diag.quantisation:
        console.print()
        console.print("[bold]Quantisation loss[/] (SQNR lost against the worst input)")
        for q in diag.quantisation:
            int16 = "  -> try INT16" if q["int16_advised"] else ""
            console.print(
                f"   - #{q['row']} {markup(q['name'])} ({markup(q['op_type'] or '?')}): {q['sqnr_lost_db']:.3g} dB lost, "
                f"SQNR {q['sqnr_db']:.3g} dB{int16}",
                highlight=False,
            )
