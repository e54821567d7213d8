"""Scan a whole log (hundreds of MB) for known problems, streaming.

The log is read in binary chunks; a prefilter (a few cue words found with ``bytes.find``
and the shape of Ascend codes) picks the few lines worth a full lookup, so noise lines
cost a handful of C-speed passes and nothing in Python.  A line is a candidate when it
carries a cue (``error``, ``fail``, ``warn``, ``exception``, ``invalid``, ``not``...) or a
vendor code, which error lines of every supported tool do.  Lines are decoded with
``errors="replace"``: any bytes are fine.

Repeated messages are grouped by their normalised text (op names, numbers, paths, times
blanked) and listed in order of first appearance with their line numbers.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

from dumpscope.core.knowledge.kb import KnowledgeBase, Match
from dumpscope.core.knowledge.words import group_key

CHUNK = 4 << 20
MAX_LINE = 64 * 1024
"""Longest part of one line handed to the lookup (the rest of a monster line is ignored)."""
LOG_WORDS_MIN = 20.0
"""In a log, a match by wording alone must be this strong (half the word weight shared)."""
MAX_LINE_NUMBERS = 1000
MAX_BLOCK = 40
"""Most lines joined into one report block."""
MAX_UNMATCHED = 100_000
"""Distinct unmatched candidate lines remembered (so repeats are not looked up again)."""
"""Line numbers kept per problem (the count goes on)."""
CUES: tuple[bytes, ...] = (
    b"error", b"fail", b"warn", b"except", b"fatal", b"assert", b"invalid", b"support", b"not ",
    b"retcode", b"traceback",
)
"""Lower-case words of which an error line carries at least one (besides a vendor code).

Each is found with ``bytes.find`` (memchr speed); one regex alternation of many words
runs at a tenth of that speed in ``re``, which is why the list is short."""
ASCEND_CODE = re.compile(rb"[EW][0-9A-Z]\d{4}\b")
WEAK_REASONS = ("words", "family")
"""Matches that alone do not make a log line a problem unless it carries an error word."""
ERROR_WORDS = ("error", "fail", "exception", "fatal", "assert", "abort", "traceback", "not support", "unsupport")


@dataclass
class Problem:
    """One distinct problem of a log: its first occurrence, how often, where, what it is."""

    text: str
    """The first occurrence's line (decoded, at most :data:`MAX_LINE` characters)."""
    first_line_no: int
    matches: list[Match]
    count: int = 1
    line_numbers: list[int] = field(default_factory=list)
    key: str = ""
    block: tuple[str, ...] = ()
    """Every line of the first occurrence's report (one line, or a multi-line block)."""

    def to_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "first_line": self.first_line_no,
            "count": self.count,
            "line_numbers": self.line_numbers,
            "block": list(self.block),
            "matches": [m.to_dict() for m in self.matches],
        }


class Prefilter:
    """Finds the lines of a chunk worth a full lookup: a cue word or a code on the line.

    User entries add their longest anchor as an extra cue, so a user's own message is
    found in logs even when it carries none of the built-in cue words.
    """

    def __init__(self, kb: KnowledgeBase) -> None:
        extra = {max(e.anchors, key=len).encode() for e in kb.user_entries if e.anchors}
        self.cues: tuple[bytes, ...] = tuple(sorted(set(CUES) | {a for a in extra if a.isascii()}))

    def line_starts(self, buf: bytes) -> list[int]:
        """Sorted offsets of the starts of the selected lines of ``buf``."""
        low = buf.lower()
        hits: set[int] = set()
        for cue in self.cues:
            pos = low.find(cue)
            while pos >= 0:
                start = buf.rfind(b"\n", 0, pos) + 1
                hits.add(start)
                end = buf.find(b"\n", pos)
                if end < 0:
                    break
                pos = low.find(cue, end)
        for m in ASCEND_CODE.finditer(buf):
            if m.start() == 0 or not (buf[m.start() - 1 : m.start()].isalnum() or buf[m.start() - 1] in b"_-"):
                hits.add(buf.rfind(b"\n", 0, m.start()) + 1)
        return sorted(hits)


def _lines_of_interest(stream: IO[bytes], prefilter: Prefilter) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` of every line the prefilter selects, streaming.

    A line longer than ``4 * MAX_LINE`` bytes is judged by its head; the rest is skipped.
    """
    line_base = 1  # number of the first line in `buf`
    carry = b""
    skipping = False
    while True:
        block = stream.read(CHUNK)
        if not block:
            if carry and not skipping:
                yield from _select(carry, prefilter, line_base)
            return
        if skipping:
            nl = block.find(b"\n")
            if nl < 0:
                continue
            block, skipping, line_base = block[nl + 1 :], False, line_base + 1
        buf = carry + block
        cut = buf.rfind(b"\n")
        if cut < 0:
            if len(buf) > 4 * MAX_LINE:
                yield from _select(buf[:MAX_LINE], prefilter, line_base)
                carry, skipping = b"", True
            else:
                carry = buf
            continue
        whole, carry = buf[: cut + 1], buf[cut + 1 :]
        yield from _select(whole, prefilter, line_base)
        line_base += whole.count(b"\n")


def _select(buf: bytes, prefilter: Prefilter, line_base: int) -> Iterator[tuple[int, bytes]]:
    counted_to, line_no = 0, line_base
    for start in prefilter.line_starts(buf):
        line_no += buf.count(b"\n", counted_to, start)
        counted_to = start
        end = buf.find(b"\n", start)
        yield line_no, buf[start : end if end >= 0 else len(buf)]


def scan_log(source: IO[bytes] | IO[str] | Iterable[str], kb: KnowledgeBase | None = None) -> list[Problem]:
    """Distinct known problems of a log in order of first appearance.

    ``source`` is a binary stream (best: files, stdin.buffer), a text stream or any
    iterable of lines.  Only lines with at least one match become problems.  Consecutive
    lines of one report (an Ascend code repeated at the start of each line, indented
    TraceBack lines, a TensorRT parser's "While parsing node" + "In node" pair) are
    looked up together as one block.
    """
    if kb is None:
        from dumpscope.core.knowledge.loader import load_kb

        kb = load_kb()
    problems: dict[str, Problem] = {}
    unmatched: set[str] = set()
    for line_no, block in _blocks(_lines_of_interest(_as_binary(source), Prefilter(kb))):
        key = group_key(block[0])
        known = problems.get(key)
        if known is not None:
            known.count += 1
            if len(known.line_numbers) < MAX_LINE_NUMBERS:
                known.line_numbers.append(line_no)
            continue
        if key in unmatched:
            continue
        text = "\n".join(block)
        matches = [m for m in kb.lookup(text, top=3) if m.reason != "words" or m.score >= LOG_WORDS_MIN]
        if not matches or all(m.reason in WEAK_REASONS for m in matches) and _is_noise(text):
            if len(unmatched) < MAX_UNMATCHED:
                unmatched.add(key)
            continue
        problems[key] = Problem(
            text=block[0].strip(),
            first_line_no=line_no,
            matches=matches,
            line_numbers=[line_no],
            key=key,
            block=tuple(line.strip() for line in block),
        )
    return list(problems.values())


_CODE_PREFIX = re.compile(r"\s{0,4}([EW][0-9A-Z]\d{4}):")
_TRT_CONTINUES = ("While parsing node number", "In node", "In function")


def _continues(block: list[str], line: str) -> bool:
    """Whether ``line`` (the line right after ``block``) belongs to the same report."""
    if len(block) >= MAX_BLOCK or not line.strip():
        return False
    if line[:1] in (" ", "\t") or line.lstrip().startswith("TraceBack"):
        return True
    first, this = _CODE_PREFIX.match(block[0]), _CODE_PREFIX.match(line)
    if first and this and first.group(1) == this.group(1):
        return True
    return _TRT_CONTINUES[0] in block[-1] and any(t in line for t in _TRT_CONTINUES[1:])


def _blocks(lines: Iterator[tuple[int, bytes]]) -> Iterator[tuple[int, list[str]]]:
    """Group consecutive candidate lines of one report: ``(first line number, lines)``."""
    start, last = 0, -2
    block: list[str] = []
    for line_no, raw in lines:
        text = raw[:MAX_LINE].decode("utf-8", errors="replace").rstrip("\r\n")
        if block and line_no == last + 1 and _continues(block, text):
            block.append(text)
        else:
            if block:
                yield start, block
            start, block = line_no, [text]
        last = line_no
    if block:
        yield start, block


def _is_noise(text: str) -> bool:
    """A line found by wording only that carries no error word is not a problem."""
    low = text.lower()
    return not any(w in low for w in ERROR_WORDS)


class _LinesAsBinary(io.RawIOBase):
    """Adapts an iterable of text lines to the binary ``read`` the scanner uses."""

    def __init__(self, lines: Iterable[str | bytes]) -> None:
        self._it = iter(lines)
        self._buf = b""

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        while size < 0 or len(self._buf) < size:
            try:
                line = next(self._it)
            except StopIteration:
                break
            data = line.encode("utf-8", errors="surrogateescape") if isinstance(line, str) else line
            self._buf += data if data.endswith(b"\n") else data + b"\n"
        if size < 0:
            out, self._buf = self._buf, b""
        else:
            out, self._buf = self._buf[:size], self._buf[size:]
        return out


def _as_binary(source: IO[bytes] | IO[str] | Iterable[str]) -> IO[bytes]:
    buffer = getattr(source, "buffer", None)
    if buffer is not None:  # a text file or sys.stdin: read its bytes directly
        return buffer  # type: ignore[no-any-return]
    if isinstance(source, (io.RawIOBase, io.BufferedIOBase)):
        return source  # type: ignore[return-value]
    if isinstance(source, io.TextIOBase):
        return _LinesAsBinary(source)  # type: ignore[return-value]
    return _LinesAsBinary(source)  # type: ignore[arg-type,return-value]
