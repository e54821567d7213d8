"""Dumps that hold several runs: msprobe ``step*/rank*`` trees and Ascend trees with several steps/devices.

``compare`` / ``diagnose`` call :func:`route` first.  It returns the options to run for an
ordinary pair of dumps (the usual path goes on), or runs the comparison itself and returns
its exit code:

* **msprobe** (sniffed on either side): :func:`compare_msprobe`, ``--mapping`` first,
  then the two call lists aligned (``--pairing exact``: equal names only, as msprobe),
  one comparison per selected step/rank, never merged, each with its own first
  divergence.  GOLDEN is the bench (GPU/CPU) dump, TARGET the
  NPU dump, as for every other format.
* **Ascend raw dump trees** (``{time}/{device}/{model}/{model_id}/{step}/``) with several
  steps or devices: each selected run is compared separately against the golden (or
  against the golden's run of the same step/device when the golden is such a tree too), by
  :mod:`dumpscope.core.comparison.runs` (the Python API: ``compare_runs``).  When the
  selection leaves exactly one run, its folder simply replaces the path.

Either way the summary says which run diverges first; JSON output carries one object per
run.  Exit codes as compare: 0 healthy, 1 some run diverges or could not be compared.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from dumpscope.tui.cli.errors import EXIT_OK, EXIT_UNHEALTHY, UsageError

if TYPE_CHECKING:
    from dumpscope.core.comparison.msprobe.driver import MsprobeReport, RankResult
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.comparison.runs import RunResult
    from dumpscope.core.formats.ascend_tree import AscendRun
    from dumpscope.tui.cli.args import ComparisonOptions, OutputOptions


def is_msprobe(path: str | Path) -> bool:
    """A msprobe rank directory or a tree of them (one directory listing or two)."""
    from dumpscope.core.formats import msprobe

    return msprobe.sniff(Path(path)) > 0


def _ranks(opts: ComparisonOptions) -> list[int | str] | None:
    values = opts.rank
    if not values:
        return None
    return [int(v) if v.isdigit() else v for v in values]


def _error_code(failed: bool) -> int:
    return EXIT_UNHEALTHY if failed else EXIT_OK


def route(opts: ComparisonOptions, out: OutputOptions, render: str) -> int | ComparisonOptions:
    """Run an msprobe or several-run Ascend comparison (``render``: ``compare`` or
    ``diagnose``) and return its exit code, or return the options the ordinary path runs
    with (an Ascend tree narrowed to one run: that run's folder)."""
    if is_msprobe(opts.target) or is_msprobe(opts.golden):
        return _run_msprobe(opts, out, render)
    return _route_ascend(opts, out, render)


# ---------------------------------------------------------------- msprobe


def msprobe_report(opts: ComparisonOptions) -> MsprobeReport:
    """The msprobe comparison the arguments ask for (bad input: a usage error)."""
    from dumpscope.core.comparison.msprobe.driver import compare_msprobe
    from dumpscope.core.dumps import DumpError

    for side, path in (("golden", opts.golden), ("target", opts.target)):
        if not is_msprobe(path):
            raise UsageError(f"{side} {path}: not an msprobe dump, but the other side is one")
    opts.refuse("msprobe dumps (their own reader compares them on this machine and keeps no index)")
    try:
        return compare_msprobe(
            opts.target,
            opts.golden,
            steps=list(opts.step) if opts.step is not None else None,
            ranks=_ranks(opts),
            mapping_path=opts.mapping,
            pairing=opts.pairing or "aligned",
            workers=opts.workers or 1,
        )
    except (DumpError, ValueError, OSError) as exc:
        raise UsageError(str(exc)) from None


def msprobe_comparison(opts: ComparisonOptions) -> Comparison | None:
    """For the app: the msprobe step/rank that diverges first (or the only/first one) as a
    Comparison with its module tree and per-rank summary; None when not msprobe."""
    if not (is_msprobe(opts.target) or is_msprobe(opts.golden)):
        return None
    from dumpscope.core.comparison.msprobe.view import as_comparison

    try:
        return as_comparison(msprobe_report(opts))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _msprobe_failed(report: MsprobeReport) -> bool:
    return any(r.divergence is not None or r.error is not None or _error_rows(r) for r in report.results)


def _error_rows(r: RankResult) -> int:
    """Failing rows by the app's rule (msprobe's errors and rows beyond the divergence bound)."""
    return r.failing


def swapped_sides(report: MsprobeReport) -> list[str]:
    """NPU-only ops (``NPU.*``, ``npu_*``) found on the bench (GOLDEN) side only: a sign
    that NPU and bench were given the other way round."""
    from dumpscope.core.formats.msprobe import split_name

    names = {
        u.entry.name
        for r in report.results
        if r.pairing is not None
        for u in r.pairing.unmatched
        if u.side == "bench"
    }
    return sorted(n for n in names if split_name(n).prefix == "NPU" or split_name(n).api.startswith("npu_"))


def _warn_swapped(report: MsprobeReport) -> None:
    found = swapped_sides(report)
    if found:
        print(
            f"dumpscope: warning: the GOLDEN side holds NPU-only ops ({', '.join(found[:3])}): GOLDEN is the "
            "bench (GPU/CPU) dump and TARGET the NPU dump - were they swapped?",
            file=sys.stderr,
        )


def _run_msprobe(opts: ComparisonOptions, out: OutputOptions, render: str) -> int:
    report = msprobe_report(opts)
    _warn_swapped(report)
    fmt = out.format
    if fmt == "json":
        _write_chunks(out, msprobe_json_text(report, rows=render == "compare"))
    elif fmt in ("csv", "parquet"):
        _write_frames(
            out, fmt, {r.label.replace("/", "_"): r.frame for r in report.results if r.frame is not None}
        )
    else:
        _print(out, lambda console: _render_msprobe(report, console, out.limit, render))
    return _error_code(_msprobe_failed(report))


def _jsonable(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def _divergence_json(r: RankResult) -> dict[str, object] | None:
    d = r.divergence
    if d is None:
        return None
    return {
        "entry": d.entry,
        "order": d.order,
        "kind": d.kind,
        "shape": d.shape,
        "input_deviation": _jsonable(d.input_deviation),
        "output_deviation": _jsonable(d.output_deviation),
        "nonfinite": d.nonfinite,
        "missed_by_msprobe": d.missed_by_msprobe,
        "module_path": list(d.module_path),
        "local_inputs": list(d.local_inputs),
        "bench_entry": d.bench_entry,
        "text": d.describe(),
    }


def _result_json(r: RankResult, rows: bool) -> dict[str, object]:
    out: dict[str, object] = {
        "step": r.step,
        "rank": r.rank,
        "label": r.label,
        "error": r.error,
        "entries": 0 if r.frame is None else r.frame.height,
        "errors": _error_rows(r),
        "pairing": r.pairing_counts or None,
        "first_divergence": _divergence_json(r),
        "problems": [f"{p.path}: {p.message}" for p in r.problems],
    }
    if rows and r.frame is not None:
        out["rows"] = list(_rows_json(r))
    return out


def _rows_json(r: RankResult) -> Iterator[dict[str, object]]:
    frame = r.frame.drop("NPU_Stack_Info")  # type: ignore[union-attr]
    return ({k: _jsonable(v) for k, v in row.items()} for row in frame.iter_rows(named=True))


def msprobe_json(report: MsprobeReport, rows: bool = True) -> dict[str, object]:
    """One object per step/rank (never merged) and the label of the one diverging first."""
    first = report.first
    return {
        "format": "msprobe",
        "first": first.label if first else None,
        "results": [_result_json(r, rows) for r in report.results],
    }


def msprobe_json_text(report: MsprobeReport, rows: bool = True) -> Iterator[str]:
    """:func:`msprobe_json` as ``json.dumps(..., indent=1)`` writes it, in pieces: one row at a
    time, never the whole text nor every row's dict at once (a 100k-entry dump has 300k rows)."""
    first = report.first
    head = json.dumps({"format": "msprobe", "first": first.label if first else None}, indent=1)
    yield head[:-2] + ',\n "results": ' + ("[" if report.results else "[]")
    for k, r in enumerate(report.results):
        text = json.dumps(_result_json(r, False), indent=1, allow_nan=False).replace("\n", "\n  ")
        yield ("\n  " if k == 0 else ",\n  ") + text[:-4]  # without its closing "\n  }"
        if rows and r.frame is not None:
            yield ',\n   "rows": '
            yield from _rows_text(_rows_json(r))
        yield "\n  }"
    yield ("\n ]" if report.results else "") + "\n}\n"


#: Where the rows of a result sit in ``json.dumps(indent=1)``: the list at depth 3, each row at 4.
_ROW_INDENT = " " * 4
#: A flat row laid out as ``indent=1`` lays it out, by the C encoder (``indent`` runs the Python one).
_ROW_MEMBERS = json.JSONEncoder(separators=(",\n" + _ROW_INDENT + " ", ": "), allow_nan=False).encode


def _rows_text(rows: Iterator[dict[str, object]]) -> Iterator[str]:
    """A JSON list of rows, laid out as ``json.dumps(indent=1)`` lays it out at that depth (each row
    is flat: scalars only, so the item separator is the only line break)."""
    first = True
    for row in rows:
        members = _ROW_MEMBERS(row)[1:-1]
        text = "{\n" + _ROW_INDENT + " " + members + "\n" + _ROW_INDENT + "}" if members else "{}"
        yield ("[\n" if first else ",\n") + _ROW_INDENT + text
        first = False
    yield "[]" if first else "\n" + " " * 3 + "]"


def _render_msprobe(report: MsprobeReport, console: object, limit: int, render: str) -> None:
    from rich.table import Table

    from dumpscope.tui.cli.safe import markup

    table = Table(title="msprobe: one comparison per step/rank (never merged)")
    for col in ("step/rank", "entries", "errors", "re-aligned", "one-sided", "first divergence"):
        table.add_column(col)
    for r in report.results:
        counts = r.pairing_counts
        one_sided = counts.get("npu-only", 0) + counts.get("bench-only", 0)
        table.add_row(
            r.label,
            str(0 if r.frame is None else r.frame.height),
            str(_error_rows(r)),
            str(counts.get("aligned", 0)),
            str(one_sided),
            markup(_rank_outcome(r)),
        )
    console.print(table)  # type: ignore[attr-defined]
    console.print(f"[bold]first divergence:[/] {_first_msprobe(report)}")  # type: ignore[attr-defined]
    if render == "diagnose":
        _render_bad_entries(report, console, limit)


def _rank_outcome(r: RankResult) -> str:
    """The step/rank's error, its first divergence, or ``no divergence``."""
    return r.error or (r.divergence.describe() if r.divergence else "no divergence")


def _first_msprobe(report: MsprobeReport) -> str:
    """The step/rank that diverges first and how (markup escaped), or ``none``."""
    from dumpscope.tui.cli.safe import markup

    first = report.first
    if first and first.divergence:
        return markup(first.label + ": " + first.divergence.describe())
    failed = sum(r.error is not None for r in report.results)
    return (
        f"none found, but {failed} of {len(report.results)} step/ranks could not be compared (above)"
        if failed
        else "none"
    )


def _render_bad_entries(report: MsprobeReport, console: object, limit: int) -> None:
    """diagnose: every bad forward call per step/rank, introduced or inherited."""
    from dumpscope.core.comparison.msprobe.statistics import bad_entries
    from dumpscope.tui.cli.safe import markup

    for r in report.results:
        if r.frame is None or r.divergence is None:
            continue
        console.print(f"\n[bold]{markup(r.label)}[/]")  # type: ignore[attr-defined]
        for k, d in enumerate(bad_entries(r.frame)[:limit], 1):
            console.print(f"  {k}. {markup(d.describe())}", highlight=False)  # type: ignore[attr-defined]


# ---------------------------------------------------------------- Ascend trees


def _ascend_runs(path: str | Path, opts: ComparisonOptions) -> list[AscendRun] | None:
    """The selected runs of an Ascend tree (:func:`~dumpscope.core.comparison.runs.ascend_runs`);
    a selection that leaves none is a usage error."""
    from dumpscope.core.comparison.runs import NoRunSelected, ascend_runs

    try:
        return ascend_runs(path, opts.step, opts.device)
    except NoRunSelected as exc:
        raise UsageError(str(exc)) from None


def _route_ascend(opts: ComparisonOptions, out: OutputOptions, render: str) -> int | ComparisonOptions:
    runs = _ascend_runs(opts.target, opts)
    if runs is None:
        return opts
    golden_runs = _ascend_runs(opts.golden, opts) or []
    if len(runs) == 1:
        return _narrowed(opts, runs[0], golden_runs)
    results = [_compare_run(opts, run, golden_runs) for run in runs]
    return _report_runs(out, results, render)


def _narrowed(opts: ComparisonOptions, run: AscendRun, golden_runs: list[AscendRun]) -> ComparisonOptions:
    """The options with the one run left as the target (and a golden tree's one run as the golden)."""
    golden = str(golden_runs[0].path) if len(golden_runs) == 1 else opts.golden
    return replace(opts, golden=golden, target=str(run.path))


def narrow_for_app(opts: ComparisonOptions) -> ComparisonOptions:
    """The app shows one comparison: an Ascend tree narrowed by ``--step``/``--device`` to
    one run opens that folder; several runs left is a usage error naming them (never merged)."""
    runs = _ascend_runs(opts.target, opts)
    if runs is None:
        return opts
    if len(runs) > 1:
        listed = ", ".join(r.label for r in runs[:8]) + (" ..." if len(runs) > 8 else "")
        raise UsageError(
            f"{opts.target}: {len(runs)} steps/devices ({listed}); the app shows one: add --step/--device, "
            "or run `dumpscope compare` to compare each and see which diverges first"
        )
    return _narrowed(opts, runs[0], _ascend_runs(opts.golden, opts) or [])


def _compare_run(opts: ComparisonOptions, run: AscendRun, golden_runs: list[AscendRun]) -> RunResult:
    """One run compared (:func:`~dumpscope.core.comparison.runs.compare_run`), where its
    ``--cache`` index is said at once."""
    from dumpscope.core.comparison.runs import compare_run
    from dumpscope.tui.cli.args import say_cache

    result = compare_run(
        opts.golden,
        run,
        golden_runs,
        model=opts.model,
        graph=opts.graphs[0],
        thresholds=opts.thresholds(),
        workers=opts.workers,
        cache=opts.cache,
        scheduler=opts.scheduler,
        scheduler_timeout=opts.scheduler_timeout,
    )
    if result.comparison is not None:
        say_cache(result.comparison.meta, run.label)
    return result


def runs_json(results: list[RunResult], rows: bool = True) -> dict[str, object]:
    """One object per step/device and the label of the one diverging first."""
    from dumpscope.core.comparison.runs import first_run

    first = first_run(results)
    return {
        "format": "ascend-tree",
        "first": first.label if first else None,
        "results": [_run_json(r, rows) for r in results],
    }


def _run_json(r: RunResult, rows: bool) -> dict[str, object]:
    """One step/device: where, its error, first divergent row and health counts (and ``rows``)."""
    from dumpscope.core.report.writers import frame_records

    item: dict[str, object] = {
        "step": r.run.step,
        "device": r.run.device,
        "label": r.label,
        "path": str(r.run.path),
        "error": r.error,
        "first_divergence": r.first_name,
        "health": r.comparison.health_counts() if r.comparison else None,
    }
    if rows and r.comparison is not None:
        item["rows"] = frame_records(r.comparison)
    return item


def _runs_failed(results: list[RunResult]) -> bool:
    from dumpscope.tui.cli.args import exit_code

    return any(
        r.error is not None or (r.comparison is not None and exit_code(r.comparison) != EXIT_OK)
        for r in results
    )


def _report_runs(out: OutputOptions, results: list[RunResult], render: str) -> int:
    fmt = out.format
    if fmt == "json":
        _write(
            out, json.dumps(runs_json(results, rows=render == "compare"), indent=1, allow_nan=False) + "\n"
        )
    elif fmt in ("csv", "parquet"):
        _write_frames(
            out,
            fmt,
            {
                r.label.replace("/", "_"): r.comparison.public_frame()
                for r in results
                if r.comparison is not None
            },
        )
    else:
        _print(out, lambda console: _render_runs(results, console))
    return _error_code(_runs_failed(results))


def _render_runs(results: list[RunResult], console: object) -> None:
    from rich.table import Table

    from dumpscope.tui.cli.safe import markup

    table = Table(title="Ascend dump tree: one comparison per step/device (never merged)")
    for col in ("step/device", "folder", "health", "first divergence"):
        table.add_column(col)
    for r in results:
        table.add_row(
            r.label, markup(str(r.run.path)), _health_counts(r), markup(r.error or r.first_name or "none")
        )
    console.print(table)  # type: ignore[attr-defined]
    console.print(f"[bold]first divergence:[/] {_first_run_text(results)}")  # type: ignore[attr-defined]


def _first_run_text(results: list[RunResult]) -> str:
    """The step/device that diverges first and its first divergent row (markup escaped), or ``none``."""
    from dumpscope.core.comparison.runs import first_run
    from dumpscope.tui.cli.safe import markup

    first = first_run(results)
    return markup(f"{first.label}: {first.first_name}") if first else "none"


def _health_counts(r: RunResult) -> str:
    """``fail 2, ok 40`` for a compared run, empty for one that could not be compared."""
    return (
        ", ".join(f"{k} {v}" for k, v in sorted(r.comparison.health_counts().items())) if r.comparison else ""
    )


# ---------------------------------------------------------------- output


def _write_chunks(out: OutputOptions, chunks: Iterable[str]) -> None:
    """Text in pieces to ``-o`` (atomically: :func:`dumpscope.core.atomic.atomic_text`) or to stdout."""
    from dumpscope.core.atomic import atomic_text

    if not out.output:
        sys.stdout.writelines(chunks)
        return
    with atomic_text(out.output) as fh:
        fh.writelines(chunks)


def _write(out: OutputOptions, text: str) -> None:
    from dumpscope.core.atomic import write_text

    write_text(text, out.output)


def _write_frames(out: OutputOptions, fmt: str, frames: dict[str, object]) -> None:
    """CSV/Parquet: one file per run in the folder ``-o`` (one run: to stdout or -o FILE)."""
    if _one_file(out, fmt, frames):
        frame = next(iter(frames.values()))
        _write_one(frame, fmt, out.output)
        return
    if not out.output:
        raise UsageError(
            f"{len(frames)} step/rank comparisons: --format {fmt} needs -o FOLDER (one file each)"
        )
    folder = Path(out.output)
    folder.mkdir(parents=True, exist_ok=True)
    for label, frame in frames.items():
        _write_one(frame, fmt, folder / f"{label}.{fmt}")


def _one_file(out: OutputOptions, fmt: str, frames: dict[str, object]) -> bool:
    """One run's frame goes to stdout (CSV) or to ``-o FILE`` (not an existing folder)."""
    to_file_or_stdout = fmt == "csv" or out.output
    return len(frames) == 1 and bool(to_file_or_stdout) and not (out.output and Path(out.output).is_dir())


def _write_one(frame: object, fmt: str, out: str | Path | None) -> None:
    from dumpscope.core.report.writers import write_frame

    frame = frame.drop([c for c in ("NPU_Stack_Info",) if c in frame.columns])  # type: ignore[attr-defined]
    write_frame(frame, fmt, out)  # type: ignore[arg-type]


def _print(out: OutputOptions, draw: object) -> None:
    from rich.console import Console

    if out.output:
        from dumpscope.core.atomic import atomic_text

        with atomic_text(out.output) as f:
            draw(Console(file=f, width=160))  # type: ignore[operator]
    else:
        draw(Console())  # type: ignore[operator]
