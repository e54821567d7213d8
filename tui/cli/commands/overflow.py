"""``dumpscope overflow PATH``: decode Ascend Opdebug overflow records."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from dumpscope.core.names import json_safe
from dumpscope.tui.cli.errors import EXIT_OK, EXIT_UNHEALTHY, UsageError
from dumpscope.tui.cli.safe import markup, plain

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from dumpscope.core.vendor.opdebug import OpdebugTensor, OverflowRecord, OverflowReport

HELP = "decode Ascend overflow (Opdebug) records and show the overflowing ops"
DESCRIPTION = (
    "Read every Opdebug.Node_OpDebug.* file under PATH (or one file, or msaccucmp's "
    "*.output.0.json), decode each set status bit, link the record to the op dump it names "
    "by task and stream id, and show that op's inputs and outputs.  Exit 1 when any overflow "
    "is recorded, 0 when none, 2 on unreadable input."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH", help="dump directory, Opdebug file or msaccucmp JSON")
    parser.add_argument("--json", action="store_true", help="print a JSON array of records")
    parser.add_argument("--no-stats", action="store_true", help="do not read the linked ops' tensors")
    parser.add_argument(
        "-n", "--top", type=int, metavar="N", help="only the first N records in time order (msaccucmp -n)"
    )


@dataclass(frozen=True)
class Options:
    path: str
    json: bool
    no_stats: bool
    top: int | None


#: What :func:`run` takes, read from the command line.
OPTIONS = (Options,)


def run(cmd: Options) -> int:
    """Check the arguments, scan the records, report problems, print JSON or the readable list."""
    from dumpscope.core.vendor import opdebug as overflow

    path = _checked(cmd)
    report = overflow.scan(path, with_stats=not cmd.no_stats)
    total = len(report.records)
    if cmd.top is not None:
        report.records = report.records[: cmd.top]
    _report_problems(report, path)
    if cmd.json:
        _print_json(report)
    else:
        _print_report(report, total)
    return EXIT_UNHEALTHY if report.records else EXIT_OK


def _checked(cmd: Options) -> Path:
    """PATH, once it exists and ``--top`` is at least 1 (else a usage error)."""
    path = Path(cmd.path)
    if not path.exists():
        raise UsageError(f"{path}: no such file or directory")
    if cmd.top is not None and cmd.top < 1:
        raise UsageError(f"--top must be at least 1, got {cmd.top}")
    return path


def _report_problems(report: OverflowReport, path: Path) -> None:
    """One stderr line per unreadable file; a usage error when no Opdebug file was read at all."""
    for file, message in report.problems:
        print(f"dumpscope: {plain(file)}: {plain(message)}", file=sys.stderr)
    if report.files:
        return
    if report.problems:
        raise UsageError(f"{path}: no readable overflow record")
    raise UsageError(f"{path}: no Opdebug.Node_OpDebug.* files (enable dump_debug in acl.json)")


def _print_json(report: OverflowReport) -> None:
    """``--json``: an array of the (shown) records."""
    import json

    text = json.dumps([r.to_json() for r in report.records], indent=2, ensure_ascii=False)
    sys.stdout.write(json_safe(text))
    sys.stdout.write("\n")


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.6g}"


def _print_report(report: OverflowReport, total: int) -> None:
    from dumpscope.tui.cli.render import output_console

    console = output_console()
    records, files = report.records, report.files
    if not records:
        console.print(f"OK: no overflow recorded in {files} Opdebug file(s)")
        return
    shown = f"; the first {len(records)} shown" if len(records) < total else ""
    same = (
        f" ({report.duplicates} record(s) of msaccucmp's parsed JSON are the same events, counted once)"
        if report.duplicates
        else ""
    )
    console.print(f"FAIL: {total} overflow record(s) in {files} Opdebug file(s){same}{shown}\n")
    for i, rec in enumerate(records, 1):
        _print_record(console, i, rec)


def _print_record(console: Console, i: int, rec: OverflowRecord) -> None:
    """One overflow record: the op, the set status bits, the files, the linked op's tensors."""
    from rich.text import Text

    console.print(
        Text(
            f"{i}. ✗ {_op_text(rec)}  ({plain(rec.unit)}, {_where(rec)}, status {rec.status:#x})",
            style="bold",
        )
    )
    for bit in rec.bits:
        console.print(f"   {bit.mask:>#8x}  {markup(bit.meaning)}", soft_wrap=True)
    for line in _file_lines(rec):
        console.print(Text(line, style="dim"), soft_wrap=True)
    if rec.tensors:
        console.print(_tensor_table(rec.tensors), "")


def _op_text(rec: OverflowRecord) -> str:
    """``[type] name`` of the linked op, or ``op not found``."""
    return f"[{plain(rec.op_type)}] {plain(rec.op_name)}" if rec.op_name else "op not found"


def _where(rec: OverflowRecord) -> str:
    """Task and stream (and context and thread, when recorded)."""
    where = plain(f"task {rec.task_id}, stream {rec.stream_id}")
    if rec.context_id is not None:
        where += plain(f", context {rec.context_id}, thread {rec.thread_id}")
    return where


def _file_lines(rec: OverflowRecord) -> list[str]:
    """The dim lines under a record: the link note, the record file (and timestamp), the op dump."""
    when = f" (timestamp {rec.timestamp})" if rec.timestamp is not None else ""
    lines = [f"   note: {plain(rec.link_note)}"] if rec.link_note else []
    lines.append(f"   record: {plain(rec.file)}{when}")
    if rec.op_file:
        lines.append(f"   op dump: {plain(rec.op_file)}")
    return lines


#: The linked op's tensor table: column -> justification (the numbers right-aligned).
_COLUMNS = {
    "tensor": "left",
    "shape": "left",
    "dtype": "left",
    "format": "left",
    "min": "right",
    "max": "right",
    "mean": "right",
    "NaN": "right",
    "Inf": "right",
}


def _tensor_table(tensors: list[OpdebugTensor]) -> Table:
    """The linked op's inputs and outputs: shape, dtype, format and value statistics."""
    from rich.table import Table

    table = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 1))
    for col, justify in _COLUMNS.items():
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for t in tensors:
        table.add_row(*_tensor_cells(t))
    return table


def _tensor_cells(t: OpdebugTensor) -> list[str | Text]:
    """One tensor's row; an unreadable tensor shows its error in red across the stats."""
    from rich.text import Text

    if t.error:
        return [markup(t.name), Text(plain(t.error), style="red"), "", "", "", "", "", "", ""]
    shape = "x".join(map(str, t.shape)) if t.shape else "scalar"
    return [
        markup(t.name),
        shape,
        markup(t.dtype or "-"),
        markup(t.format or "-"),
        _fmt(t.min),
        _fmt(t.max),
        _fmt(t.mean),
        str(t.nan),
        str(t.inf),
    ]
