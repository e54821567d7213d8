"""``dumpscope explain``: what an error message means and how to fix it."""

from __future__ import annotations

import argparse

from dumpscope.tui.cli.errors import EXIT_OK, EXIT_UNHEALTHY, UsageError
from dumpscope.tui.cli.safe import plain

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from pathlib import Path

    from dumpscope.core.knowledge import KnowledgeBase, Match, Problem

HELP = "explain a converter/runtime error message, or scan a whole log for known problems"
DESCRIPTION = (
    "Look an error message up in the knowledge base (Ascend ATC/GE/runtime/ACL/HCCL/torch_npu, SigmaStar, "
    "RKNN, TensorRT, ONNX Runtime, onnx, onnx-simplifier, fp16 converters, Qualcomm QNN/SNPE; at family "
    "level also OpenVINO, TFLite/LiteRT, MNN, ncnn/pnnx, Paddle2ONNX, torch.onnx, TVM, Core ML) and print the ranked "
    "causes and fixes with the variable parts captured from the message.  MESSAGE may be several "
    "lines (quote it) or - for stdin.  --log scans a whole log (- = stdin) and lists its distinct "
    "problems in order of first appearance.  Without MESSAGE or --log, opens the interactive lookup "
    "screen.  Your own entries: --kb FILE, or JSONL files in $DUMPSCOPE_CONFIG_DIR/kb/ "
    "(default ~/.config/dumpscope/kb/).  Exit 0 when something matched, 1 when nothing did, 2 on "
    "bad usage."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("message", nargs="?", metavar="MESSAGE", help="the error message (- reads stdin)")
    parser.add_argument("--log", metavar="FILE", help="scan a whole log file (- reads stdin)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--top", type=int, default=5, metavar="N", help="show the N best matches (default 5)")
    parser.add_argument(
        "--kb", action="append", default=[], metavar="FILE", help="extra knowledge-base JSONL file (repeatable)"
    )


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from dumpscope.core.knowledge import load_kb

    if args.top < 1:
        raise UsageError(f"--top must be at least 1, got {args.top}")
    if args.message is not None and args.log is not None:
        raise UsageError("give either MESSAGE or --log FILE, not both")
    for file in args.kb:
        problem = _not_a_log(Path(file))
        if problem is not None:
            raise UsageError(f"--kb {file}: {problem.replace('log file', 'KB file').replace('--log -', 'a regular file')}")
    kb = load_kb(extra=args.kb)
    for warning in kb.warnings:
        print(f"dumpscope: warning: {plain(warning)}", file=sys.stderr)
    if args.log is not None:
        problems = _scan(args.log, kb)
        _print_problems(problems, args.json, args.top)
        return EXIT_OK if problems else EXIT_UNHEALTHY
    if args.message is None:
        return _interactive(kb)
    message = args.message
    if message == "-":
        message = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    if not message.strip():
        raise UsageError("the message is empty")
    matches = kb.lookup(message, top=args.top)
    _print_matches(matches, args.json)
    return EXIT_OK if matches else EXIT_UNHEALTHY


def _scan(log: str, kb: KnowledgeBase) -> list[Problem]:
    import sys
    from pathlib import Path

    from dumpscope.core.knowledge import scan_log

    if log == "-":
        return scan_log(sys.stdin.buffer, kb)
    path = Path(log)
    problem = _not_a_log(path)
    if problem is not None:
        raise UsageError(f"--log {log}: {problem}")
    with path.open("rb") as f:
        return scan_log(f, kb)


def _not_a_log(path: Path) -> str | None:
    """Why ``path`` is not read as a log (None: a regular file).  A FIFO or a device is never
    opened (it could block or never end): pipe it into ``--log -`` instead."""
    import os
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if stat.S_ISDIR(mode):
        return "is a folder, not a log file"
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"
        return f"is {kind}, not a regular file; not opened (pipe it in with --log - instead)"
    return None


def _print_matches(matches: list[Match], as_json: bool) -> None:
    import json

    if as_json:
        print(json.dumps([m.to_dict() for m in matches], indent=2, ensure_ascii=False))
        return
    if not matches:
        print("No known cause for this message.  Add your own entry with --kb FILE (see --help).")
        return
    for rank, m in enumerate(matches, 1):
        print(plain(format_match(m, rank)))


def format_match(m: Match, rank: int, indent: str = "") -> str:
    """A match as plain text: a header line, then cause, fix, captured parts, source."""
    e = m.entry
    code = f" {e.code}" if e.code else ""
    flags = "".join(
        [" UNCERTAIN" if e.uncertain else "", " generic" if e.generic else "", f" [{e.origin}]" if e.origin != "builtin" else ""]
    )
    lines = [f"{indent}{rank}. {m.score:5.1f}  {e.tool}{code}  ({e.stage}; matched by {m.reason}){flags}"]
    pad = indent + "   "
    lines.append(f"{pad}cause: {e.cause}")
    lines.append(f"{pad}fix:   {e.fix}")
    if m.captures:
        lines.append(f"{pad}found: " + ", ".join(f"{k}={v}" for k, v in m.captures))
    codes = [c for c in m.codes if not c.startswith("family:")]
    if codes:
        lines.append(f"{pad}codes: " + ", ".join(codes))
    if m.via:
        lines.append(f"{pad}also seen via: " + ", ".join(m.via))
    lines.append(f"{pad}source: {e.source}")
    return "\n".join(lines)


def _print_problems(problems: list[Problem], as_json: bool, top: int) -> None:
    import json

    if as_json:
        out = [p.to_dict() for p in problems]
        for item in out:
            item["matches"] = item["matches"][:top]  # type: ignore[index]
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return
    if not problems:
        print("No known problem in this log.")
        return
    for p in problems:
        where = ", ".join(str(n) for n in p.line_numbers[:10]) + (", ..." if p.count > 10 else "")
        times = f" x{p.count}" if p.count > 1 else ""
        more = f"  (+{len(p.block) - 1} more lines of the same report)" if len(p.block) > 1 else ""
        print(f"line {p.first_line_no}{times} (lines {where}): {plain(p.text[:300])}{more}")
        for rank, m in enumerate(p.matches[: min(top, 2)], 1):
            print(plain(format_match(m, rank, indent="    ")))
        print()


def _interactive(kb: KnowledgeBase) -> int:
    from dumpscope.tui.app.screens.lookup import LookupApp

    LookupApp(kb).run()
    return 0
