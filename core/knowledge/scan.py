"""Scan a whole log (hundreds of MB) for known problems, streaming.

The log is read in binary chunks; one prefilter regex (every entry's literal anchors as a
trie, the code shapes and a few error words, over the lower-cased chunk) finds the few
lines worth a full lookup, so noise lines cost one pass of the regex engine and nothing
in Python.  Lines are decoded with ``errors="replace"``: any bytes are fine.

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
from dumpscope.core.knowledge.words import normalise

CHUNK = 4 << 20
MAX_LINE = 64 * 1024
"""Longest part of one line handed to the lookup (the rest of a monster line is ignored)."""
MAX_LINE_NUMBERS = 1000
"""Line numbers kept per problem (the count goes on)."""
ERROR_WORDS = ("error", "fail", "exception", "fatal", "assert", "abort", "traceback", "not support", "unsupport")
CODE_SHAPES = (
    rb"\b[ew][0-9a-z]\d{4}\b",
    rb"retcode",
    rb"onnxruntimeerror",
    rb"rknn_err",
)


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

    def to_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "first_line": self.first_line_no,
            "count": self.count,
            "line_numbers": self.line_numbers,
            "matches": [m.to_dict() for m in self.matches],
        }


def build_prefilter(kb: KnowledgeBase) -> re.Pattern[bytes]:
    """One bytes regex that finds every line any entry could match (lower-cased text)."""
    anchors: set[str] = set(ERROR_WORDS)
    for e in kb.entries:
        anchors.update(a for a in e.anchors if a.isascii())
    # An anchor that contains a shorter one adds nothing.
    kept = sorted(anchors, key=len)
    minimal: list[str] = []
    for a in kept:
        if not any(m in a for m in minimal):
            minimal.append(a)
    trie = _trie_regex([a.encode() for a in minimal])
    return re.compile(b"|".join([trie, *CODE_SHAPES]))


def _trie_regex(words: list[bytes]) -> bytes:
    """A regex matching any of ``words``, factored as a trie so alternation stays cheap."""
    tree: dict[int, dict] = {}
    for w in words:
        node = tree
        for byte in w:
            node = node.setdefault(byte, {})
        node[-1] = {}

    def emit(node: dict[int, dict]) -> bytes:
        if -1 in node and len(node) == 1:
            return b""
        alts = [re.escape(bytes([b])) + emit(child) for b, child in sorted(node.items()) if b != -1]
        body = alts[0] if len(alts) == 1 else b"(?:" + b"|".join(alts) + b")"
        if -1 in node:
            return b"(?:" + body + b")?"
        return body

    return emit(tree)


def _lines_of_interest(stream: IO[bytes], prefilter: re.Pattern[bytes]) -> Iterator[tuple[int, bytes]]:
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


def _select(buf: bytes, prefilter: re.Pattern[bytes], line_base: int) -> Iterator[tuple[int, bytes]]:
    low = buf.lower()
    counted_to, line_no, last_start = 0, line_base, -1
    for m in prefilter.finditer(low):
        start = buf.rfind(b"\n", 0, m.start()) + 1
        if start == last_start:
            continue
        last_start = start
        line_no += buf.count(b"\n", counted_to, start)
        counted_to = start
        end = buf.find(b"\n", m.end())
        yield line_no, buf[start : end if end >= 0 else len(buf)]


def scan_log(source: IO[bytes] | IO[str] | Iterable[str], kb: KnowledgeBase | None = None) -> list[Problem]:
    """Distinct known problems of a log in order of first appearance.

    ``source`` is a binary stream (best: files, stdin.buffer), a text stream or any
    iterable of lines.  Only lines with at least one match become problems.
    """
    if kb is None:
        from dumpscope.core.knowledge.loader import load_kb

        kb = load_kb()
    stream = _as_binary(source)
    prefilter = prefilter_for(kb)
    problems: dict[str, Problem] = {}
    for line_no, raw in _lines_of_interest(stream, prefilter):
        text = raw[:MAX_LINE].decode("utf-8", errors="replace").rstrip("\r\n")
        key = normalise(text)
        known = problems.get(key)
        if known is not None:
            known.count += 1
            if len(known.line_numbers) < MAX_LINE_NUMBERS:
                known.line_numbers.append(line_no)
            continue
        matches = kb.lookup(text, top=3)
        if not matches or all(m.reason == "words" for m in matches) and _is_noise(text):
            continue
        problems[key] = Problem(text=text.strip(), first_line_no=line_no, matches=matches, line_numbers=[line_no], key=key)
    return list(problems.values())


def _is_noise(text: str) -> bool:
    """A line found by wording only that carries no error word is not a problem."""
    low = text.lower()
    return not any(w in low for w in ERROR_WORDS)


_PREFILTERS: dict[int, tuple[KnowledgeBase, re.Pattern[bytes]]] = {}


def prefilter_for(kb: KnowledgeBase) -> re.Pattern[bytes]:
    """The prefilter of ``kb``, built once per knowledge base."""
    cached = _PREFILTERS.get(id(kb))
    if cached is None or cached[0] is not kb:
        cached = (kb, build_prefilter(kb))
        _PREFILTERS.clear()
        _PREFILTERS[id(kb)] = cached
    return cached[1]


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
