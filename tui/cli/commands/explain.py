"""``dumpscope explain``: what an error message means and how to fix it."""

from __future__ import annotations

from dumpscope.core.names import json_safe
from dumpscope.tui.cli.errors import EXIT_OK, EXIT_UNHEALTHY, UsageError
from dumpscope.tui.cli.safe import plain

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    import argparse
    from pathlib import Path

    from dumpscope.core.knowledge import Entry, KnowledgeBase, Match, Problem
    from dumpscope.core.knowledge.answer import Answer

HELP = "explain a converter/runtime error message, or scan a whole log for known problems"
DESCRIPTION = (
    "Look an error message up in the knowledge base (Ascend ATC/GE/runtime/ACL/HCCL/torch_npu, SigmaStar, "
    "RKNN, TensorRT, ONNX Runtime, onnx, onnx-simplifier, fp16 converters, Qualcomm QNN/SNPE; at family "
    "level also OpenVINO, TFLite/LiteRT, MNN, ncnn/pnnx, Paddle2ONNX, torch.onnx, TVM, Core ML) and print "
    "the ranked "
    "causes and fixes with the variable parts captured from the message.  MESSAGE may be several "
    "lines (quote it) or - for stdin.  --log scans a whole log (- = stdin) and lists its distinct "
    "problems in order of first appearance.  Without MESSAGE or --log, opens the interactive lookup "
    "screen.  Your own entries: --kb FILE, or JSONL files in $DUMPSCOPE_CONFIG_DIR/kb/ "
    "(default ~/.config/dumpscope/kb/).  Exit 0 when something matched, 1 when nothing did, 2 on "
    "bad usage."
)


#: How many matches are shown unless ``--top`` says otherwise.
DEFAULT_TOP = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("message", nargs="?", metavar="MESSAGE", help="the error message (- reads stdin)")
    parser.add_argument("--log", metavar="FILE", help="scan a whole log file (- reads stdin)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument(
        "--top",
        type=int,
        default=DEFAULT_TOP,
        metavar="N",
        help=f"show the N best matches (default {DEFAULT_TOP})",
    )
    parser.add_argument(
        "--kb",
        action="append",
        default=[],
        metavar="FILE",
        help="extra knowledge-base JSONL file (repeatable)",
    )


class Options:
    """explain's options.  A plain class, not a dataclass as other commands' options are: importing
    ``dataclasses`` (and ``inspect`` behind it) would be ~10 ms of every explain start."""

    FIELDS = ("message", "log", "json", "top", "kb")
    """The arguments it is read from (:func:`dumpscope.tui.cli.dispatch.read_options`)."""

    def __init__(self, message: str | None, log: str | None, json: bool, top: int, kb: list[str]) -> None:
        self.message, self.log, self.json, self.top, self.kb = message, log, json, top, kb


#: What :func:`run` takes, read from the command line.
OPTIONS = (Options,)


def quick_arguments(argv: list[str]) -> dict[str, object] | None:
    """The arguments of ``explain MESSAGE``, with or without ``--json`` before or after it, as the parser of
    :func:`add_arguments` reads them, read without argparse (importing it, the gettext look-ups it makes for
    every parser and building the parsers were ~3 ms of an explain start); None for any other command line,
    which argparse reads.  A message starting with ``-`` is left to argparse too."""
    rest = [a for a in argv if a != "--json"]
    if len(rest) != 1 or len(argv) - len(rest) > 1 or rest[0].startswith("-"):
        return None
    return {"message": rest[0], "log": None, "json": len(argv) > 1, "top": DEFAULT_TOP, "kb": []}


def run(cmd: Options) -> int:
    _check_usage(cmd)
    if cmd.log is None and cmd.message is not None:
        return _explain_message(cmd.message, cmd)
    kb = _load_kb(cmd.kb)
    if cmd.log is not None:
        return _explain_log(cmd.log, kb, cmd)
    return _interactive(kb)


def _explain_message(message: str, cmd: Options) -> int:
    """One message answered, with the garbage collector paused: a bounded piece of work that leaves no
    garbage cycles to find, while the collector's passes over the objects the knowledge base has just
    built were ~2 ms of the command."""
    import gc

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        kb = _load_kb(cmd.kb, mapped=True)  # one message, then the process ends
        found = kb.answer(_message_text(message), top=cmd.top)
        _print_answer(found, cmd.json)
    finally:
        if was_enabled:
            gc.enable()
    return EXIT_OK if found.confident else EXIT_UNHEALTHY


def _check_usage(cmd: Options) -> None:
    """Refuse a bad combination of arguments (raises :class:`UsageError`)."""
    if cmd.top < 1:
        raise UsageError(f"--top must be at least 1, got {cmd.top}")
    if cmd.message is not None and cmd.log is not None:
        raise UsageError("give either MESSAGE or --log FILE, not both")
    for file in cmd.kb:
        _check_kb_file(file)


def _check_kb_file(file: str) -> None:
    """A ``--kb`` file must be a regular file (a FIFO would block the load)."""
    from pathlib import Path

    problem = _not_a_log(Path(file))
    if problem is not None:
        raise UsageError(
            f"--kb {file}: {problem.replace('log file', 'KB file').replace('--log -', 'a regular file')}"
        )


def _load_kb(extra: list[str], mapped: bool = False) -> KnowledgeBase:
    """The knowledge base with the user's files; each bad user line is one warning on stderr.  ``mapped``:
    the built-in file mapped, not copied (:func:`~dumpscope.core.knowledge.loader.builtin_index`)."""
    import sys

    from dumpscope.core.knowledge import load_kb

    kb = load_kb(extra=extra, mapped=mapped)
    for warning in kb.warnings:
        print(f"dumpscope: warning: {plain(warning)}", file=sys.stderr)
    return kb


def _explain_log(log: str, kb: KnowledgeBase, cmd: Options) -> int:
    problems = _scan(log, kb)
    _print_problems(problems, cmd.json, cmd.top)
    return _exit_code([p for p in problems if p.confident])  # an error no entry fits matched nothing


def _exit_code(found: list[Match] | list[Problem]) -> int:
    """0 when something matched, 1 when nothing did (as documented)."""
    return EXIT_OK if found else EXIT_UNHEALTHY


def _message_text(message: str) -> str:
    """The message argument, or stdin for ``-``; an empty message is a usage error."""
    import sys

    if message == "-":
        message = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    if not message.strip():
        raise UsageError("the message is empty")
    return message


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


def _print_answer(found: Answer, as_json: bool) -> None:
    import json

    if as_json:
        print(json_safe(json.dumps(found.to_dict(), indent=2, ensure_ascii=False)))
        return
    print(plain(found.headline()))
    if not found.matches and found.uncovered is None:
        print("Add your own entry with --kb FILE (see --help).")
    from dumpscope.core.knowledge.answer import follows_at

    for rank, m in enumerate(found.matches, 1):
        follows = follows_at(rank - 1, found.follows)
        print(plain(format_match(m, rank, follows=follows, related=found.related(rank - 1))))


RELATED = "(related entry, not the answer: read it only if answer 1 does not fit)"
"""What a match after the first says under its header, unless its line follows from answer 1's error."""


def format_match(m: Match, rank: int, indent: str = "", follows: bool = False, related: bool = False) -> str:
    """A match as plain text: a header line, then cause, fix, captured parts, source; with ``follows``, the
    header says that its line follows from the error of the first answer; with ``related``, that it is a
    related entry, not the answer (:data:`RELATED`)."""
    from dumpscope.core.knowledge.answer import confidence_of, shown_code

    e = m.entry
    pad = indent + "   "
    confidence, _ = confidence_of(m)
    head = f"{indent}{rank}. {m.score:5.1f}  {e.tool}{_code_part(shown_code(m))}"
    lines = [f"{head}  ({e.stage}; matched by {m.reason}; confidence {confidence}){_flags(e)}"]
    if follows:
        lines.append(f"{pad}(this line follows from the error of answer 1)")
    elif related:
        lines.append(f"{pad}{RELATED}")
    lines += [f"{pad}cause: {m.cause}", f"{pad}fix:   {m.fix}"]
    lines += [f"{pad}{label}: {text}" for label, text in _found_parts(m) if text]
    lines.append(f"{pad}source: {e.source}")
    return "\n".join(lines)


def _code_part(code: str) -> str:
    return f" {code}" if code else ""


_FLAGS = (("uncertain", " UNCERTAIN"), ("generic", " generic"))


def _flags(e: Entry) -> str:
    """`` UNCERTAIN``, `` generic`` and the origin of a user entry, as the header shows them."""
    flags = "".join(word for name, word in _FLAGS if getattr(e, name))
    return flags + (f" [{e.origin}]" if e.origin != "builtin" else "")


def _found_parts(m: Match) -> list[tuple[str, str]]:
    """The optional lines of a match: captured parts, the message's codes, other tools named."""
    codes = [c for c in m.codes if not c.startswith("family:")]
    return [
        ("found", ", ".join(f"{k}={v}" for k, v in m.captures)),
        ("codes", ", ".join(codes)),
        ("also seen via", ", ".join(m.via)),
    ]


def _print_problems(problems: list[Problem], as_json: bool, top: int) -> None:
    if as_json:
        _print_problems_json(problems, top)
        return
    if not problems:
        print("No known problem in this log.")
    for p in problems:
        _print_problem(p, top)


def _print_problem(p: Problem, top: int) -> None:
    """One problem of a log: where it is, how often, and its best (at most two) matches."""
    print(f"line {p.first_line_no}{_times(p.count)} (lines {_where(p)}): {plain(p.text[:300])}{_more(p)}")
    from dumpscope.core.knowledge.answer import follows_at

    for rank, m in enumerate(p.matches[: min(top, 2)], 1):
        follows = follows_at(rank - 1, p.follows)
        print(plain(format_match(m, rank, indent="    ", follows=follows, related=p.related(rank - 1))))
    if not p.confident:
        print(f"    {NO_ENTRY_FITS}")
    print()


NO_ENTRY_FITS = "no confident match: an error in a tool's own error form that no entry fits (no tool guessed)"


def _print_problems_json(problems: list[Problem], top: int) -> None:
    import json

    out = [p.to_dict() for p in problems]
    for item in out:
        item["matches"] = item["matches"][:top]  # type: ignore[index]
    print(json_safe(json.dumps(out, indent=2, ensure_ascii=False)))


def _times(count: int) -> str:
    return f" x{count}" if count > 1 else ""


def _where(p: Problem) -> str:
    """The first line numbers of a problem (``...`` when there are more)."""
    return ", ".join(str(n) for n in p.line_numbers[:10]) + (", ..." if p.count > 10 else "")


def _more(p: Problem) -> str:
    return f"  (+{len(p.block) - 1} more lines of the same report)" if len(p.block) > 1 else ""


def _interactive(kb: KnowledgeBase) -> int:
    from dumpscope.tui.app.screens.lookup import LookupApp

    LookupApp(kb).run()
    return 0
