"""``dumpscope compare GOLDEN TARGET``: the scriptable comparison."""

from __future__ import annotations

import argparse
import shlex
import sys

HELP = "compare two dumps and print or write per-layer metrics"
DESCRIPTION = (
    "Compare a golden dump with a target dump: one row per tensor in topological order with the "
    "ten msaccucmp metrics, SQNR, NaN/Inf counts and a health verdict. Exit code 0 = all healthy, "
    "1 = some row fails or could not be compared, 2 = usage or input error. "
    "--format sigmastar prints SigmaStar's auto_dump_debug.sh listing (idx) name MSE COS RMSE) and takes "
    "the dumps in SigmaStar's order: SAMPLE (the model under test) first, BENCHMARK (the reference) second."
)
FORMATS = ("table", "csv", "json", "parquet", "markdown", "sigmastar")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_comparison_arguments(p)
    p.add_argument("--format", "-f", choices=FORMATS, default="table", help="output format (default: table)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout (required for parquet)")
    p.add_argument("--limit", type=int, default=1000, metavar="N", help="table: show at most N rows (0 = all)")
    p.add_argument("--export-values", metavar="DIR",
                   help="sigmastar: also write each listed tensor's values under DIR/Undefined_<benchmark>_DumpDebug_out/<n>/")
    p.add_argument("--one-row", action="store_true",
                   help="sigmastar export: one value per line (SigmaStar's SAVE_ONE_ROW=1; the variable is honoured too)")


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
    p.add_argument("--stage", choices=("framework-float", "float-fixed", "fixed-offline"),
                   help="SigmaStar (seed 004): which comparison this is -- framework vs float.sim, float.sim vs "
                        "fixed.sim, or fixed.sim vs offline/board log/output folders (default: told from the dumps)")
    p.add_argument("--threshold", action="append", default=[], metavar="KEY=VALUE",
                   help="override a threshold: METRIC=V (fail), METRIC.warn=V, BAND.METRIC.fail=V, rtol=V, atol=V")


def load_comparison(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """Run the comparison described by the shared arguments (a ``--stage`` named in its meta)."""
    cmp = _run_comparison(args)
    if getattr(args, "stage", None):
        cmp.meta["stage"] = args.stage
    return cmp


def _run_comparison(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """Run the comparison described by the shared arguments, with progress on a terminal."""
    from dumpscope.core.comparison.judge import Thresholds
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.tui.cli.main import UsageError

    try:
        th = Thresholds.from_preset(args.preset, args.threshold)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    progress = None
    if sys.stderr.isatty():
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
    return compare(args.golden, args.target, model=args.model, graph=args.graph, thresholds=th)


def exit_code(cmp) -> int:  # type: ignore[no-untyped-def]
    counts = cmp.health_counts()
    return 1 if counts.get("fail", 0) or counts.get("error", 0) else 0


def _sigmastar_notes(cmp, args: argparse.Namespace) -> None:  # type: ignore[no-untyped-def]
    """Which comparison this is (stderr: the listing itself stays SigmaStar's), and the export."""
    from dumpscope.core.vendor.sigmastar import stage_line

    line = stage_line(cmp.meta.get("stage"))
    if line:
        print(f"dumpscope: {line}", file=sys.stderr)
    if args.export_values:
        _export_values(cmp, args)


def _export_values(cmp, args: argparse.Namespace) -> None:  # type: ignore[no-untyped-def]
    """The DumpDebug_out folders of per-layer values; problems go to stderr, one line each."""
    import os

    from dumpscope.core.report.sigmastar import export_values

    one_row = args.one_row or os.environ.get("SAVE_ONE_ROW") == "1"
    root, problems = export_values(cmp, args.export_values, one_row)
    for problem in problems:
        print(f"dumpscope: export: {problem}", file=sys.stderr)
    print(f"dumpscope: values written under {root}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from dumpscope.core.report import writers as report
    from dumpscope.tui.cli.main import UsageError

    if args.format == "parquet" and not args.output:
        raise UsageError("--format parquet needs -o FILE")
    if args.format == "sigmastar":  # auto_dump_debug.sh's order: SAMPLE (under test) first, then BENCHMARK
        args.golden, args.target = args.target, args.golden
    cmp = load_comparison(args)
    if args.format == "sigmastar":
        _sigmastar_notes(cmp, args)
    command = "dumpscope compare " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 2 else None
    if args.format == "table":
        from rich.console import Console

        from dumpscope.tui.cli.render import render_table

        out = open(args.output, "w", encoding="utf-8") if args.output else None
        try:
            render_table(cmp, Console(file=out) if out else Console(), limit=args.limit or None)
        finally:
            if out:
                out.close()
    elif args.format == "parquet":
        report.write_parquet(cmp, args.output)
    elif args.output:
        if args.format == "markdown":
            report.write_markdown(cmp, args.output, command)
        else:
            report.WRITERS[args.format](cmp, args.output)
    else:
        sys.stdout.write(report.markdown_report(cmp, command) if args.format == "markdown" else report.to_text(cmp, args.format))
    return exit_code(cmp)
