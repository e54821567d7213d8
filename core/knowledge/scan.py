"""Scan a whole log (hundreds of MB) for known problems, streaming.

The log is read in binary chunks; a prefilter (a few dozen cue words and the shape of Ascend
codes) picks the few lines worth a full lookup, so noise lines cost one C pass per chunk
(core/knowledge/_prefilter.c; without it, one ``bytes.find`` pass per cue word) and nothing in
Python.  A line is a candidate when it
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
from typing import IO, NamedTuple, Protocol

from dumpscope.core.knowledge import finder
from dumpscope.core.knowledge.answer import (
    confidence_of,
    follows_of,
    matches_json,
    related_at,
    unnamed_generic_wording,
)
from dumpscope.core.knowledge.kb import KnowledgeBase, Match
from dumpscope.core.knowledge.paste import ANSI as _ANSI
from dumpscope.core.knowledge.paste import LOG_HEADER as _LOG_HEADER
from dumpscope.core.knowledge.paste import logcat as _logcat
from dumpscope.core.knowledge.tracebacks import EXCEPTION_LINE, PY_FRAME
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
OTHER_LANGUAGES = (
    "錯誤",
    "失敗",
    "異常",
    "不支援",
    "エラー",
    "오류",
    "에러",
    "실패",
    "ошибк",
    "Ошибк",
    "ОШИБК",
)
"""Error words of other languages than English and simplified Chinese (traditional Chinese and Japanese:
error, failure, exception, unsupported; Korean: error, failure; Russian: error's stem, in each case, since
only ASCII is lower-cased)."""
CUES: tuple[bytes, ...] = (
    b"error",
    b"fail",
    b"warn",
    b"except",
    b"fatal",
    b"assert",
    b"invalid",
    b"support",
    b"not ",
    b"not\n",
    b"not\r",
    b"retcode",
    b"traceback",
    b"cannot",
    b"unable",
    b"status code",
    b"expect",
    b"mismatch",
    b"abort",
    b"fault",
    b"overflow",
    b"<e>",
    b"[e]",
    b"[e:",
    b"e rknn",
    b"n't",
    b"check it out",  # MNNConvert's notice of an empty node input (the line before a conversion stops)
    b"no such",
    b"denied",
    b"illegal",
    b"killed",
    b"out of",
    b"exceed",
    b"undefined symbol",
    b"unrecognized",
    b"incompatible",
    b"incorrect",
    b"timed out",
    b"must",
    b"should",
    b"requir",
    b"please",
    b"differ",
    b"wrong",
    b"insufficient",
    b"rknn_err_",
    b"_status_",
    b"terminate called",
    b"unknown",  # Unknown opset 'X', unknown layer type
    b"missing",  # input 'x' is missing in 'feeds'
    b"need",  # a constraint like ``must``: Strides of Conv needs to be ...
    b"was called",  # an API called in a state it refuses: get_shape was called on a dynamic shape
    b"ignor",  # a converter dropping what it cannot write: pnnx's ``ignore <op> <name> param <key>=``
    "不支持".encode(),
    "异常".encode(),
    "错误".encode(),
    "失败".encode(),
    "无法".encode(),
    "报错".encode(),
    "出错".encode(),
    *(word.encode() for word in OTHER_LANGUAGES),
    b'", line ',
    b" != ",  # a failed comparison without an error word: TFLite's ``file.cc:82 a != b (15840 != 0)``
)
"""Lower-case words of which an error line carries at least one (besides a vendor code): each error word
(:data:`ERROR_WORDS`) holds one, and so do the constraint words of messages without an error word
(``... must be topologically sorted``, ``should be one of``, ``is required``, ``out of bounds``, ``please
set``, ``differ in rank``), and vendor codes without one (``RKNN_ERR_TIMEOUT``, ``CUDNN_STATUS_BAD_PARAM``).

All are found in one pass per chunk by the compiled prefilter (:class:`Prefilter`); without it each is
a ``bytes.find`` pass (one regex alternation of the words is slower still in ``re``), so every cue added
costs the fallback a pass."""
ASCEND_CODE = re.compile(rb"[EW][0-9A-Z]\d{4}\b")
WEAK_REASONS = ("words", "family")
SPECIFIC = ("code", "pattern")
"""Match reasons that name a specific entry (what a retried join of two reports must reach)."""
"""Matches that alone do not make a log line a problem unless it carries an error word."""
ERROR_WORDS = (
    "error",
    "fail",
    "exception",
    "fatal",
    "assert",
    "abort",
    "traceback",
    "not support",
    "unsupport",
    "cannot",
    "unable to",
    "could not",
    "status code",
    "expects",
    "overflow",
    "fault",
    "<e>",
    "[e]",
    "e rknn:",
    "can't",
    "no such",
    "denied",
    "illegal",
    "killed",
    "out of memory",
    "undefined symbol",
    "unrecognized",
    "unexpected",
    "incompatible",
    "incorrect",
    "not exist",
    "not registered",
    "not implemented",
    "n't support",
    "invalid",
    "mismatch",
    "out of range",
    "exceed",
    "not found",
    "not available",
    "not in available",
    "does not",
    "doesn't",
    "timed out",
    "不支持",
    "异常",
    "错误",
    "失败",
    "无法",
    "报错",
    "出错",
    *OTHER_LANGUAGES,
    '", line ',
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
    block: tuple[str, ...] = ()
    """Every line of the first occurrence's report (one line, or a multi-line block)."""
    follows: tuple[bool, ...] = ()
    """Per match, whether its line only follows from the error the first match explains (as
    :attr:`.answer.Answer.follows` says of a single message's answer)."""

    @property
    def confident(self) -> bool:
        """An entry answers the problem; when none does (``matches`` is empty) it is an error in a tool's
        own error form (:func:`error_shaped`) that no entry fits: "no confident match", never a guessed
        tool."""
        return bool(self.matches)

    def related(self, i: int) -> bool:
        """Whether the ``i``-th match (0 is the answer) is a related entry, not the answer
        (:func:`.answer.related_at`, as a single message's answer says it)."""
        return related_at(i, self.matches, self.follows)

    def to_dict(self) -> dict[str, object]:
        """The problem as ``explain --log --json`` prints it: each match with the fields a single message's
        answer gives it (``follows_first``, ``related``), and the first match's ``confidence`` and
        ``basis`` (``none`` and ``""`` for an error no entry fits)."""
        confidence, basis = confidence_of(self.matches[0]) if self.matches else ("none", "")
        return {
            "text": self.text,
            "first_line": self.first_line_no,
            "count": self.count,
            "line_numbers": self.line_numbers,
            "block": list(self.block),
            "confident": self.confident,
            "confidence": confidence,
            "basis": basis,
            "matches": matches_json(self.matches, self.follows),
        }


class Prefilter:
    """Finds the lines of a chunk worth a full lookup: a cue word or a code on the line.

    User entries add their longest anchor as an extra cue, so a user's own message is
    found in logs even when it carries none of the built-in cue words.
    """

    def __init__(self, kb: KnowledgeBase) -> None:
        extra = {max(e.anchors, key=len).encode() for e in kb.user_entries if e.anchors}
        self.cues: tuple[bytes, ...] = tuple(sorted(set(CUES) | {a for a in extra if a.isascii()}))
        self.ascii_cues = tuple(cue for cue in self.cues if cue.isascii())
        """The cues an ASCII chunk can hold (other languages' words are looked for only when it is not)."""

    def line_starts(self, buf: bytes) -> list[int]:
        """Sorted offsets of the starts of the selected lines of ``buf`` (one pass in C when it is built)."""
        if finder.compiled is not None:
            return finder.compiled.line_starts(buf, self.cues)
        return self.line_starts_by_find(buf)

    def line_starts_by_find(self, buf: bytes) -> list[int]:
        """:meth:`line_starts` without the compiled prefilter: one ``bytes.find`` pass per cue."""
        low = buf.lower()
        cues = self.ascii_cues if low.isascii() else self.cues
        hits = {start for cue in cues for start in _cue_line_starts(buf, low, cue)}
        hits.update(_code_line_starts(buf))
        return sorted(hits)


def _cue_line_starts(buf: bytes, low: bytes, cue: bytes) -> Iterator[int]:
    """Starts of the lines of ``buf`` whose lower-cased text (``low``) holds ``cue`` (each line once)."""
    pos = low.find(cue)
    while pos >= 0:
        yield buf.rfind(b"\n", 0, pos) + 1
        end = buf.find(b"\n", pos)
        if end < 0:
            return
        pos = low.find(cue, end)


def _code_line_starts(buf: bytes) -> list[int]:
    """Starts of the lines that carry an Ascend code (``E10001``) at the start of a word."""
    return [
        buf.rfind(b"\n", 0, m.start()) + 1
        for m in ASCEND_CODE.finditer(buf)
        if _word_starts_at(buf, m.start())
    ]


def _word_starts_at(buf: bytes, pos: int) -> bool:
    """No letter, digit, ``_`` or ``-`` before ``pos``, an ANSI colour code (``ESC[31m``) not counting."""
    if pos == 0:
        return True
    if buf[pos - 1 : pos] == b"m" and _ANSI_TAIL.search(buf[max(0, pos - 12) : pos]):
        return True
    return not (buf[pos - 1 : pos].isalnum() or buf[pos - 1] in b"_-")


_ANSI_TAIL = re.compile(rb"\x1b\[[0-9;]{0,8}m\Z")


def _lines_of_interest(stream: _Reader, prefilter: Prefilter) -> Iterator[Selected]:
    """``(line number, line, wrapped)`` of every line the prefilter selects, streaming (see :func:`_select`).

    A line longer than ``4 * MAX_LINE`` bytes is judged by its head; the rest is skipped.
    """
    lines = _ChunkLines(prefilter)
    for block in iter(lambda: stream.read(CHUNK), b""):
        yield from lines.feed(block)
    yield from lines.finish()


class _ChunkLines:
    """Cuts a stream of chunks into whole lines for the prefilter, counting line numbers."""

    def __init__(self, prefilter: Prefilter) -> None:
        self.prefilter = prefilter
        self.line_base = 1
        """Number of the first line in the carried-over part."""
        self.carry = b""
        self.skipping = False
        """In the tail of a monster line whose head was already judged."""
        self.above: bytes | None = None
        """The last lines (:data:`LEAD`) of the lines already cut: those above the next chunk's first."""
        self.frames_next = False
        """The last line already cut was selected (or a frame): stack frames that follow are its."""

    def feed(self, block: bytes) -> Iterator[Selected]:
        """The selected lines completed by the next chunk."""
        if self.skipping:
            block = self._past_skipped_line(block)
        buf = self.carry + block
        cut = buf.rfind(b"\n")
        if cut < 0:
            yield from self._without_newline(buf)
            return
        whole, self.carry = buf[: cut + 1], buf[cut + 1 :]
        lines = whole.count(b"\n")
        last = 0
        for selected in _select(whole, self.prefilter, self.line_base, self.above, self.frames_next):
            last = selected[0]
            yield selected
        self.frames_next = last == self.line_base + lines - 1
        self.line_base += lines
        tail = _last_lines(whole, LEAD)
        if len(tail) < LEAD and self.above is not None:
            tail = self.above.split(b"\n")[len(tail) - LEAD :] + tail
        self.above = b"\n".join(tail)

    def _past_skipped_line(self, block: bytes) -> bytes:
        """What follows the end of the skipped line in ``block`` (nothing if it goes on)."""
        nl = block.find(b"\n")
        if nl < 0:
            return b""
        self.skipping, self.line_base, self.above, self.frames_next = False, self.line_base + 1, None, False
        return block[nl + 1 :]

    def _without_newline(self, buf: bytes) -> Iterator[Selected]:
        """A chunk that ends no line: keep it, or judge a monster line by its head and skip the rest."""
        if len(buf) > 4 * MAX_LINE:
            yield from _select(buf[:MAX_LINE], self.prefilter, self.line_base)
            self.carry, self.skipping = b"", True
        else:
            self.carry = buf

    def finish(self) -> Iterator[Selected]:
        """The last line when the stream does not end with a newline."""
        if self.carry and not self.skipping:
            yield from _select(self.carry, self.prefilter, self.line_base, self.above, self.frames_next)


def _last_lines(whole: bytes, n: int) -> list[bytes]:
    """The last ``n`` lines of ``whole`` (which ends with a newline), each cut to :data:`LONG_LINE`: what
    ``whole[:-1].rsplit(b"\\n", n)[-n:]`` gives, without copying the chunk."""
    lines: list[bytes] = []
    stop = len(whole) - 1
    for _ in range(n):
        nl = whole.rfind(b"\n", 0, stop)
        lines.append(whole[nl + 1 : min(stop, nl + 1 + LONG_LINE)])
        if nl < 0:
            break
        stop = nl
    return lines[::-1]


Selected = tuple[int, bytes, "tuple[int, bytes, int] | None", "bytes | None", "bytes | None"]
"""A selected line: its number, its bytes, when a terminal wrapped it ``(number of its last piece,
the pieces joined back, number of its first piece)``, the lines above it (:data:`LEAD` at most, None
at the start), and the line below it (None at the end of the chunk)."""

_FRAME_PATTERN = (
    r"[ \t]*(?:from: )?[\w.-]{1,120}\.(?:dll|exe|sys|so)/[\w./\\-]{1,300}\(\d{1,6}\)[ \t\r]*(?=\n|\Z)"
    r"|[ \t]*from: [^\s()]{1,300}\(\d{1,6}\)[ \t\r]*(?=\n|\Z)"  # WIL (DirectML): from: file.cpp(N)
    r"|[ \t]+at [\w$<>\[\]`]{1,200}(?:[./][\w$<>\[\]`]{1,200}){1,30} ?\("  # Java, C#, JavaScript
    r"|[ \t]*#\d{1,4} +0x[0-9a-fA-F]{1,16} in "  # gdb, sanitizers
)
_FRAME = re.compile(_FRAME_PATTERN)
"""A stack-frame line (Windows ``module.dll/file.cpp(N)`` and WIL's ``from: ...(N)``, an indented ``at
pkg.Class.method(``, gdb's ``#N 0x... in``): it belongs to the report above it, and its tool markers
(``onnxruntime.dll``) count for that report, its words not as error words.  Python's ``  File "..."``
frames are left to the traceback rules (after an unrelated line such a frame starts its own report)."""
_FRAME_BYTES = re.compile(_FRAME_PATTERN.encode())
_FRAME_HINT = re.compile(rb"from: |[ \t]at |#\d|\.(?:dll|exe|sys|so)/")
"""What a frame behind a header holds (the header is looked for only then)."""


LEAD = 3
"""Most lines above a report (not selected themselves) read with it when it matches nothing alone."""


def _lines_above(buf: bytes, start: int, first_above: bytes | None) -> bytes | None:
    """Up to :data:`LEAD` lines right above the line at ``start``, the last of ``first_above`` (the lines
    above ``buf``) among them when there are fewer in ``buf``; None when there is none."""
    top, found = start, 0
    while found < LEAD and top > 0:
        top = buf.rfind(b"\n", 0, top - 1) + 1
        found += 1
    own = buf[top : start - 1][-LEAD * LONG_LINE :] if found else None
    if found < LEAD and first_above is not None:
        more = b"\n".join(first_above.split(b"\n")[found - LEAD :])
        return more if own is None else more + b"\n" + own
    return own


def _frames_below(buf: bytes, start: int, head: bytes = b"") -> Iterator[tuple[int, bytes]]:
    """``(start, line)`` of the stack-frame lines from ``start`` on (at most :data:`MAX_BLOCK`), also behind
    the logger header or colour code that ``head`` (the report's line above them) starts with."""
    for _ in range(MAX_BLOCK):
        if start >= len(buf):
            return
        end = buf.find(b"\n", start)
        line = buf[start : end if end >= 0 else len(buf)]
        if not (
            _FRAME_BYTES.match(line)
            or (_FRAME_HINT.search(line) and _is_frame_of(_decoded(head), _decoded(line)))
        ):
            return
        yield start, line
        if end < 0:
            return
        start = end + 1


def _is_frame(line: str) -> bool:
    return _FRAME.match(line) is not None


def _common_length(a: str, b: str) -> int:
    """The length of the common beginning of ``a`` and ``b`` (a bisection of C-speed comparisons)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _is_frame_of(first: str, line: str) -> bool:
    """``line`` is a stack frame, bare or behind the logger header that ``first`` (its report's first line)
    starts with too (their common beginning up to a ``": "`` or ``"] "``: ``[rank0]: ``, a time stamp)."""
    if _FRAME.match(line) is not None:
        return True
    common = first[: _common_length(first, line)]
    cut = max(common.rfind(": "), common.rfind("] ")) + 2
    return cut >= 4 and _FRAME.match(line, cut) is not None


def _select(
    buf: bytes,
    prefilter: Prefilter,
    line_base: int,
    first_above: bytes | None = None,
    frames_first: bool = False,
) -> Iterator[Selected]:
    """``(line number, line, wrapped, above, below)`` of each selected line of ``buf``, and of the
    stack-frame lines right below one (:data:`_FRAME`: they carry no cue word, but belong to the report above
    them; with ``frames_first``, the line above ``buf`` was selected and frames at its start are its).
    ``above`` is the lines just above a selected line (``first_above``: the last lines above ``buf``): the
    context a report is read with when it matches nothing alone (:meth:`_Scan._with_lead`), and a line of
    another stream interleaved into a report (see :func:`_shared_header`); ``below`` is the line right below
    it (a message a logger split at a space, see :meth:`_Scan._split`).

    When the line is a piece of a line cut by a terminal's hard wrap (pieces exactly :data:`WRAP_WIDTHS`
    characters long), ``wrapped`` holds the pieces before and after it joined back: the scan looks the
    line up alone first and the joined line only when the line alone matches nothing, so a line that is
    merely as long as a terminal is never glued to the next one."""
    counted_to, line_no, last = 0, line_base, -1
    if frames_first:
        for frame_start, frame in _frames_below(buf, 0):
            line_no += 1 if last >= 0 else 0
            counted_to = last = frame_start
            yield line_no, frame, None, None, None
    for start in prefilter.line_starts(buf):
        if start <= last:  # a frame line already yielded
            continue
        line_no += buf.count(b"\n", counted_to, start)
        counted_to = start
        first, end = _unwrapped(buf, start)
        own_end = buf.find(b"\n", start)
        own = buf[start : own_end if own_end >= 0 else len(buf)]
        line = buf[first:end]
        pieces = line.count(b"\n")
        before = buf.count(b"\n", first, start)
        wrapped = (line_no + pieces - before, _join_pieces(line), line_no - before) if pieces else None
        above = _lines_above(buf, start, first_above)
        below_end = buf.find(b"\n", own_end + 1) if own_end >= 0 else -1
        below = (
            buf[own_end + 1 : below_end if below_end >= 0 else len(buf)][:LONG_LINE] if own_end >= 0 else None
        )
        yield line_no, own, wrapped, above, below
        last = start
        for frame_start, frame in _frames_below(buf, own_end + 1 if own_end >= 0 else len(buf), own):
            line_no += 1
            counted_to = last = frame_start
            yield line_no, frame, None, None, None


WRAP_WIDTHS = frozenset({80, 100, 120, 132, 160, 200})
"""Terminal widths whose hard wraps are undone: a line of exactly this many characters continues on
the next line."""
MAX_WRAPPED = 8
"""Most pieces of one wrapped line joined back."""


def _unwrapped(buf: bytes, start: int) -> tuple[int, int]:
    """``(first, end)`` of the wrapped line around the line at ``start``: the start of its first piece and
    the end of its last piece (the line itself when it is no piece of a wrapped line)."""
    first = start
    for _ in range(MAX_WRAPPED):
        if first == 0:
            break
        prev = buf.rfind(b"\n", 0, first - 1) + 1
        if not _wraps(buf[prev : first - 1], buf, first):
            break
        first = prev
    end = buf.find(b"\n", start)
    for _ in range(MAX_WRAPPED):
        if (
            end < 0
            or end + 1 >= len(buf)
            or not _wraps(buf[buf.rfind(b"\n", 0, end) + 1 : end], buf, end + 1)
        ):
            break
        end = buf.find(b"\n", end + 1)
    return first, len(buf) if end < 0 else end


def _wraps(piece: bytes, buf: bytes, below: int) -> bool:
    """``piece`` is a hard-wrapped piece whose line goes on at ``below`` in ``buf``: it is exactly as wide
    as a terminal, it does not end in a rule (``=====``, ``-----``: a banner as wide as the terminal), and
    the line below does not start a record of its own (a level marker, a time stamp, a logger's header,
    an exception: a terminal's cut falls anywhere in a line's text, never at a fresh log record) nor is
    redrawn with carriage returns (a progress bar: a fresh write); nor does a record logged at an
    informational level go on into a line that reads as an error of its own (:func:`_reads_as_error`)."""
    if not _wrap_width(piece) or _RULE_END.search(piece) is not None:
        return False
    end = buf.find(b"\n", below)
    line = buf[below : end if end >= 0 else len(buf)][:LONG_LINE].rstrip(b"\r")
    if b"\r" in line or _RECORD_START.match(_decoded(line[:RECORD_HEAD])) is not None:
        return False
    return not (_informational(_decoded(piece)) and _reads_as_error([_decoded(line)]))


_LOGCAT_ERROR = _logcat("EF")
"""Logcat's header at an error level (its messages of any tool run on Android: TFLite, MediaPipe, QNN)."""

_RULE_END = re.compile(rb"([^\w\s])\1{3}[\r]?\Z")
"""A line ending in a run of one punctuation character (a banner's rule)."""
_RECORD_START = re.compile(
    r"\s{0,8}(?:"
    r"\[(?:[A-Z]{1,8}|[IWEFVD]:\w{1,40})[\]:,]"  # [E] [INFO] [W:onnxruntime:...
    r"|[IWEF]\d{4} \d\d:\d\d:\d\d"  # glog, absl
    r"|\[?\d{4}-\d\d-\d\d[ T-]\d\d:\d\d"  # ISO time
    r"|\[\d\d/\d\d/\d{4}-\d\d:\d\d:\d\d\]"  # TensorRT's logger
    r"|(?:DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL)\b"
    r"|[EWIDF] [A-Z][A-Za-z]{1,20}:"  # E RKNN:
    r"|\[rank\d{1,6}\]:"
    rf"|{_logcat('VDIWEF')}"  # Android's logcat
    # a tool's tag, then its level: [TensorRT] ERROR:, [TensorRT-LLM][ERROR]
    r"|\[[A-Za-z][\w.-]{1,40}\] ?(?:\[[A-Z]{1,8}\]|(?:DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL)\b)"
    r"|Traceback \(most recent call last\)"
    r"|what\(\): |terminate called after throwing"  # a C++ runtime's report of an uncaught exception
    r"|[^\s:]{1,300}\.py:\d{1,7}: [A-Z]\w{0,60}Warning: "  # Python's warnings: path.py:12: UserWarning: ...
    r"|(?:[A-Za-z_][\w.]{0,80})?(?:Error|Exception|Warning): "
    r"|\[[A-Za-z]{0,60}(?:Error|Exception)\]"  # [ShapeInferenceError], [ONNXRuntimeError]
    r")"
)
"""The start of a log record (what the line after a terminal's hard wrap never starts with)."""
RECORD_HEAD = 400
"""How much of a line its record start is looked for in (a Python warning's path may be long)."""


def _wrap_width(piece: bytes) -> bool:
    """A piece exactly as wide as a terminal (a hard wrap, its line going on below)."""
    return len(piece) >= 80 and len(piece.rstrip(b"\r").decode("utf-8", errors="replace")) in WRAP_WIDTHS


def _join_pieces(line: bytes) -> bytes:
    """The pieces of a wrapped line joined back into one line."""
    return b"".join(piece.rstrip(b"\r") for piece in line.split(b"\n"))


def scan_log(source: IO[bytes] | IO[str] | Iterable[str], kb: KnowledgeBase | None = None) -> list[Problem]:
    """Distinct problems of a log in order of first appearance.

    ``source`` is a binary stream (best: files, stdin.buffer), a text stream or any
    iterable of lines.  Lines with at least one match become problems, and so do reports that no entry
    fits but that carry a tool's own error form (:func:`error_shaped`: ``[E]``, ``ERROR:``, glog's
    ``E1129``, a Python exception's line, ``terminate called after throwing``...): those are problems
    without matches ("no confident match", :attr:`Problem.confident`).  Consecutive
    lines of one report (an Ascend code repeated at the start of each line, indented
    TraceBack lines, a TensorRT parser's "While parsing node" + "In node" pair) are
    looked up together as one block.
    """
    scan = _Scan(kb if kb is not None else _default_kb())
    prefilter = Prefilter(scan.kb)
    for report in _blocks(_lines_of_interest(_as_binary(source), prefilter), prefilter.cues):
        scan.take(report)
    return list(scan.problems.values())


def _default_kb() -> KnowledgeBase:
    from dumpscope.core.knowledge.loader import load_kb

    return load_kb()


class _Scan:
    """The problems of a log so far, and the candidate lines known to match nothing."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.problems: dict[str, Problem] = {}
        self.unmatched: set[str] = set()
        self.previous: Report | None = None
        """The last report when it matched nothing."""
        self.unwrapped_to = 0
        """The last line of a wrapped line read whole: its pieces are not read again."""
        self.unwrapped_entries: frozenset[str] = frozenset()
        """The entries the last wrapped line was found as (its later pieces do not repeat them)."""
        self.head_skipped: dict[str, int] = {}
        """Problems that start below their report's informational first line (see
        :meth:`_below_informational_head`): their key, and how many lines below (a repeat counts there)."""
        self.unspecific: set[str] = set()
        """Reports known to match, but nothing specific (their key; bounded like ``unmatched``)."""
        self.unknown: tuple[str, bool, int] | None = None
        """The last report's problem when it is an error no entry fits (:meth:`_unknown`): its key, whether
        it was new and its line (it is taken back when that report is then found joined to the next one)."""

    def take(self, report: Report) -> None:
        """Count a repeat of a known problem, or look a new report up.

        The key covers every line of the report: two tracebacks (or two ``EZ9999: Inner Error!``
        reports) that share their first line but not their detail are different reports.  A report
        that matches nothing, right after another that matched nothing, is looked up once more joined
        to it (a message whose lines the grouping rules kept apart, such as an unindented detail line
        after a header without a colon); only a specific match (code or pattern) counts then.  A report
        with a line a terminal wrapped is looked up with that line joined back when it matches nothing
        as it is; the later pieces of that line then count only with a specific match of their own.  A
        report that matches nothing is looked up once more without the headers generic loggers write before
        each line (timestamps, glog's, Python logging's), whose words can drown a short message's."""
        line_no, block = report.start, report.lines
        if line_no <= self.unwrapped_to:  # a later piece of a wrapped line already read
            self._known(line_no, block, specific=True, besides=self.unwrapped_entries)
            return
        before, self.previous = self.previous, None
        unknown, self.unknown = self.unknown, None
        if report.unwrapped is not None:
            self.unwrapped_to, joined, joined_start = report.unwrapped
            found = self._unwrapped_known(line_no, block, joined, joined_start)
            self.unwrapped_entries = frozenset(m.entry.id for m in found.matches) if found else frozenset()
            if found:
                return
        elif self._known(line_no, block) or self._without_log_headers(line_no, block):
            return
        if before is not None and _may_join(before, report) and self._joined_to(before, report, unknown):
            return
        unread = _unread_above(before, report)
        if report.lead[1] + unread > 0 and self._with_lead(report, unread):
            return
        if self._split(report):
            return
        self.previous = report
        self.unknown = self._unknown(report)

    def _joined_to(self, before: Report, report: Report, unknown: tuple[str, bool, int] | None) -> bool:
        """Whether ``report``, joined to the report ``before`` it that matched nothing, is a problem (then the
        earlier one is taken back), or an error form split at a space that no entry fits (kept as such)."""
        block = report.lines
        if self._known(before.start, before.lines + block, specific=True):
            self._take_back(unknown)
            return True
        if _RECORD_START.match(block[0]) is not None:  # not one line split at a space (see :meth:`_split`)
            return False
        joined = [*before.lines[:-1], f"{before.lines[-1].rstrip()} {block[0].strip()}", *block[1:]]
        if _reads_as_error(joined) and self._known(
            before.start, joined, no_words=True, joined=True, needs=_joined_needs(before.lines[0])
        ):
            self._take_back(unknown)
            return True
        if unknown is None and not error_shaped(block) and error_shaped(joined):
            # an error form split at a space (``Debug Assertion`` / ``Failed!``): no entry fits it
            self.unknown = self._unknown(before._replace(last=report.last, lines=joined))
            return True
        return False

    def _unknown(self, report: Report) -> tuple[str, bool, int] | None:
        """A report that no entry fits, kept as a problem without matches when it carries a tool's own error
        form (:func:`error_shaped`): its key, whether it is new, its line (None when it is no error)."""
        if not error_shaped(report.lines):
            return None
        key = group_key("\n".join(report.lines)) + UNKNOWN_KEY
        if self._repeat(key, report.start):
            return key, False, report.start
        self.problems[key] = Problem(
            text=report.lines[0].strip(),
            first_line_no=report.start,
            matches=[],
            line_numbers=[report.start],
            key=key,
            block=tuple(line.strip() for line in report.lines),
        )
        return key, True, report.start

    def _take_back(self, unknown: tuple[str, bool, int] | None) -> None:
        """The last report was found joined to this one: it is no longer a problem of its own."""
        if unknown is None:
            return
        key, new, line_no = unknown
        if new:
            del self.problems[key]
            return
        known = self.problems[key]
        known.count -= 1
        if known.line_numbers[-1:] == [line_no]:
            known.line_numbers.pop()

    def _with_lead(self, report: Report, unread: int = 0) -> Problem | None:
        """A report at an error level (``ERROR``, ``[E]``, glog's ``E1128``) that matches nothing, looked up
        with the lines right above it that no problem holds (``Using libX.so version N`` ... then ``ERROR at
        line N: Failed to create ...``; ``unread``: the lines of the report right above it, which matched
        nothing, and those above that one): the tool those lines name counts for it, wording alone does
        not.  The problem still starts at the report's own first line."""
        head = report.lines[0]
        if _ERROR_LEVEL.search(head.lstrip()[:INFO_PREFIX]) is None:  # (a warning's context stays apart)
            return None
        if _is_noise(_BENIGN_ERROR_WORDS.sub(" ", _ERROR_LEVEL.sub(" ", head))):
            return None  # the level is its only error word (``[E] summary: 0 errors``)
        above, count = report.lead
        count += unread  # the lines of a report right above that matched nothing count as context too
        if above is None:
            return None
        lead = [text for text in map(_decoded, above.split(b"\n")[-min(count, LEAD) :]) if text.strip()]
        return self._known(report.start, [*lead, *report.lines], lead=len(lead)) if lead else None

    def _split(self, report: Report) -> Problem | None:
        """A report that matches nothing, looked up with its last line joined to the line below it, then with
        its first line joined to the line above it that no report holds, as one line (a logger wrapped the
        message at a space: ``layer Foo not`` / ``exists or registered``).  Only a match by code, pattern or
        a partial pattern counts (by the tool's markers too when the first piece is an error record itself),
        the line that would continue another never starts a record of its own (a level marker, a time stamp,
        an exception), and the joined report reads as an error (:func:`_reads_as_error`), or it states a
        broken rule without an error word (``Nodes in a graph must`` / ``be topologically sorted:``) and an
        entry's pattern or code matches it (:func:`_joined_rule_needs`: what a line read alone needs then).  A
        report below that the joined line took in then counts only with a specific match of another entry (as
        a wrapped line's later pieces do)."""
        below = _decoded(report.below).strip() if report.below is not None else ""
        if below and _RECORD_START.match(below) is None and not self._a_message_alone(below):
            lines = [*report.lines[:-1], f"{report.lines[-1].rstrip()} {below}"]
            needs = _joined_rule_needs(lines, report.lines[0])
            found = (
                None
                if not needs
                else self._known(report.start, lines, no_words=True, joined=True, needs=needs)
            )
            if found is not None:
                self.unwrapped_to = report.last + 1
                self.unwrapped_entries = frozenset(m.entry.id for m in found.matches)
                return found
        above, count = report.lead
        first = report.lines[0]
        if above is None or count < 1 or _RECORD_START.match(first) is not None:
            return None
        line = _decoded(above.rsplit(b"\n", 1)[-1]).strip()
        if not line or _RULE_END.search(line.encode()) is not None or _informational(line):
            return None  # nor a banner's title, nor an informational record (``[INFO] 16 layers fused``)
        joined = [f"{line} {first.lstrip()}", *report.lines[1:]]
        needs = _joined_rule_needs(joined, line)
        if not needs:
            return None
        return self._known(report.start - 1, joined, no_words=True, joined=True, needs=needs)

    def _a_message_alone(self, line: str) -> bool:
        """The line below a report is a message of its own, not the tail of a line a logger wrapped: an
        entry's pattern matches it alone (TensorRT's ``While parsing node number N [Op]:`` under an
        unrelated warning), so joining the report to it would only lend the report the line's match."""
        found = self.kb.lookup(line, top=1)
        return bool(found) and "pattern" in found[0].reason.split("+")

    def _without_log_headers(self, line_no: int, block: list[str]) -> Problem | None:
        """The report looked up with its lines' logger headers removed (None when it has none, or when it
        matches nothing without them either)."""
        bare = [_LOG_HEADER.sub("", line, count=1) for line in block]
        return self._known(line_no, bare) if bare != block else None

    def _unwrapped_known(
        self, line_no: int, block: list[str], joined: list[str], joined_start: int
    ) -> Problem | None:
        """A report with a wrapped line: as it is when that names a specific entry, else joined back when
        that does, else as it is, else joined back.  Joined back, it starts where its first piece does
        (``joined_start``: the wrapped line's start, when the report starts at a later piece)."""
        return (
            self._known(line_no, block, specific=True)
            or self._known(joined_start, joined, specific=True)
            or self._known(line_no, block)
            or self._known(joined_start, joined)
        )

    def _known(
        self,
        line_no: int,
        block: list[str],
        specific: bool = False,
        besides: frozenset[str] = frozenset(),
        lead: int = 0,
        no_words: bool = False,
        needs: tuple[str, ...] = (),
        joined: bool = False,
    ) -> Problem | None:
        """The problem the report is (a repeat is counted, a new one kept); None when it matches nothing
        (or, with ``specific``, nothing by code or pattern; or its best entry is one of ``besides``).
        ``lead``: how many of ``block``'s lines are context above the report (see :func:`_problem`);
        ``no_words``: a match by wording alone does not count; ``needs``: the reasons one of which a match
        must have (``pattern``, ``partial``, ``family``...) to count; ``joined``: the block is lines joined
        into one at a space (kept apart in the caches from the same lines read as lines: the group key does
        not tell them apart)."""
        key = group_key("\n".join(block)) + (SPLIT_KEY if joined else "")
        known = self.problems.get(key)
        if known is not None and known.matches[0].entry.id not in besides:
            self._repeat(key, line_no + self.head_skipped.get(key, 0))
            return known
        if known is not None or key in self.unmatched or (specific and key in self.unspecific):
            return None
        problem = self._new_problem(key, line_no, block, lead, no_words)
        if problem is None:
            if len(self.unmatched) < MAX_UNMATCHED:
                self.unmatched.add(key)
            return None
        if besides and problem.matches[0].entry.id in besides:
            return None
        if (specific and not _specific(problem)) or (needs and not _has_reason(problem, needs)):
            if len(self.unspecific) < MAX_UNMATCHED:
                self.unspecific.add(key)
            return None
        self.problems[key] = problem
        return problem

    def _new_problem(
        self, key: str, line_no: int, block: list[str], lead: int, no_words: bool
    ) -> Problem | None:
        """The problem a report not seen before is (see :func:`_problem`), started below an informational
        first line when the lines under it alone are that problem (:meth:`_below_informational_head`)."""
        problem = _problem(self.kb, key, line_no, block, lead, no_words)
        if problem is not None and not lead and len(block) > 1 and _informational(block[0]):
            problem = self._below_informational_head(problem, key, line_no, block, no_words)
        return problem

    def _below_informational_head(
        self, problem: Problem, key: str, line_no: int, block: list[str], no_words: bool
    ) -> Problem:
        """A report whose first line is an informational record (``INFO: Caveats ...:``) that took in the
        indented lines below it: when those lines alone are the same specific problem (another tool's error
        line that happens to be indented), the problem starts at them, not at the informational line (which
        is no error, and would be reported as one)."""
        if not _specific(problem):
            return problem
        rest = _problem(self.kb, key, line_no + 1, block[1:], 0, no_words)
        if rest is None or not _specific(rest) or rest.matches[0].entry.id != problem.matches[0].entry.id:
            return problem
        self.head_skipped[key] = 1
        return rest

    def _repeat(self, key: str, line_no: int) -> bool:
        """Whether ``key`` is a known problem (then this occurrence is counted)."""
        known = self.problems.get(key)
        if known is None:
            return False
        known.count += 1
        if len(known.line_numbers) < MAX_LINE_NUMBERS:
            known.line_numbers.append(line_no)
        return True


def _problem(
    kb: KnowledgeBase, key: str, line_no: int, block: list[str], lead: int = 0, no_words: bool = False
) -> Problem | None:
    """The problem a report (one line or a block) is, or None when nothing strong enough matches.  With
    ``lead`` context lines first, a match by wording alone does not count and the error words must be the
    report's own; with ``no_words``, a match by wording alone does not count either."""
    text = "\n".join(block)
    matches = [
        m
        for m in kb.lookup(text, top=3)
        if m.reason != "words" or (m.score >= LOG_WORDS_MIN and not unnamed_generic_wording(kb, m, text))
    ]
    if lead or no_words:
        matches = [m for m in matches if m.reason != "words"]
    if not matches or _weak_noise(matches, "\n".join(block[lead:]), block[lead:]):
        return None
    return Problem(
        text=block[lead].strip(),
        first_line_no=line_no,
        matches=matches,
        line_numbers=[line_no],
        key=key,
        block=tuple(line.strip() for line in block),
        follows=follows_of(kb, matches, text),
    )


def _has_reason(problem: Problem, reasons: tuple[str, ...]) -> bool:
    """A match of the problem is found by one of ``reasons`` (its strongest reason)."""
    return any(m.reason.split("+", 1)[0] in reasons for m in problem.matches)


SPLIT_KEY = "\n\x00joined"
"""What ends the group key of a report read with a line joined to its neighbour (see :meth:`_Scan._split`)."""
UNKNOWN_KEY = "\n\x00unknown"
"""What ends the group key of a report no entry fits (see :meth:`_Scan._unknown`)."""
JOINED = ("code", "pattern", "partial")
"""What a line joined to its neighbour (a message split at a space) must be found by; and by its tool's
markers (``family``) too when its first piece is an error record of its own (see :func:`_error_record`)."""


def _may_join(before: Report, report: Report) -> bool:
    """Two reports that matched nothing may be one message the grouping kept apart: they are adjacent, not too
    long, and the first is no informational record (an onnxruntime verbose line above an ``[ERROR]`` line, an
    ``[INFO] 16 out of 100 layers fused`` above a message is no part of it)."""
    return (
        before.last + 1 == report.start
        and len(before.lines) + len(report.lines) <= MAX_BLOCK
        and not _informational(before.lines[0])
    )


def _joined_needs(first: str) -> tuple[str, ...]:
    """What a report joined to its neighbour must be found by (``first``: the joined line's first piece)."""
    return (*JOINED, "family") if _error_record(first) else JOINED


RULE = ("code", "pattern")
"""What a line joined to its neighbour that states a broken rule without an error word must be found by: what
such a line read alone is found by (a wording-only match never counts on a line without an error word)."""


def _joined_rule_needs(lines: list[str], first: str) -> tuple[str, ...]:
    """What a report joined to its neighbour at a space must be found by (``first``: the joined line's first
    piece): :func:`_joined_needs` when it reads as an error, :data:`RULE` when it carries no error word but is
    at no informational or warning level (a broken rule: ``must be topologically sorted``), nothing (never
    joined) otherwise."""
    if _reads_as_error(lines):
        return _joined_needs(first)
    text = "\n".join(lines)
    return () if _informational(text) or _warning_only(text) else RULE


def _reads_as_error(lines: list[str]) -> bool:
    """The lines carry an error word that is not a name or a count (``0 failures``), at no informational
    level: a report that may be a piece of an error message split over lines, not a benign line."""
    text = "\n".join(lines)
    return not (_is_noise(_BENIGN_ERROR_WORDS.sub(" ", text)) or _informational(text))


def _error_record(line: str) -> bool:
    """A line logged at an error level, or an exception's line (``InternalError: ...``, ``Error: ...``)."""
    text = line.lstrip()
    return _ERROR_LEVEL.search(text[:INFO_PREFIX]) is not None or _EXCEPTION_HEAD.match(text) is not None


_EXCEPTION_HEAD = re.compile(r"(?:[A-Za-z_][\w.]{0,80})?(?:Error|Exception)\s?:")


def error_shaped(lines: list[str]) -> bool:
    """A report that no entry fits is still an error when one of its lines carries a tool's own error form
    (:data:`_ERROR_FORM`: a severity prefix at the line's head, a Python exception's line or traceback, a C++
    runtime's ``terminate called after throwing`` / ``what():``, OpenVINO's ``Exception from src/`` and
    ``Check '...' failed at``, an assertion: glibc's, MSVC's ``Debug Assertion Failed!``) and its first line
    is no informational or warning record; a form inside a name or a count (``error_rate``, ``0 Error(s)``)
    or one followed by a number (``Error: 0.0002``, a metric) is none."""
    if _informational(lines[0]) or _warning_only(lines[0]):
        return False
    return any(_error_form(line) for line in lines)


def _unread_above(before: Report | None, report: Report) -> int:
    """How many lines right above ``report`` belong to the report before it that matched nothing (its lines
    and its own context above): they are read as ``report``'s context too (0 when none ends right above
    it)."""
    if before is None or before.last + 1 != report.start:
        return 0
    return len(before.lines) + before.lead[1]


def _error_form(line: str) -> bool:
    """The line carries an error form (:data:`_ERROR_FORM`) that is not a metric, a count or a name."""
    if _informational(line) or _warning_only(line):
        return False
    text = _BENIGN_ERROR_WORDS.sub(
        " ", _LOG_HEADER.sub("", _GROUP_BOX.sub("", line, count=1), count=1)
    ).lstrip()
    if _ERROR_FORM.search(text) is not None:
        return True
    if _FAILED_CHECK.match(_LOG_HEADER.sub("", line, count=1).lstrip()) is not None:
        return True
    if line[:1] not in (" ", "\t") and _FAILURE_PREDICATE.search(text) is not None:
        return True  # (an indented line is some record's detail: a checker's list of what it cannot run)
    if PY_FRAME.match(_GROUP_BOX.sub("  ", line, count=1)) is not None:
        return True  # a Python traceback's frame (its header and its exception line may be cut off)
    if _LEVEL_FORM.search(_BENIGN_ERROR_WORDS.sub(" ", line).lstrip()[:INFO_PREFIX]) is None:
        return False
    rest = _LEVEL_FORM.sub(" ", line)  # the level is the error, unless its error words are all counts
    return _is_noise(rest) or not _is_noise(_BENIGN_ERROR_WORDS.sub(" ", rest))  # (``[E] 0 errors``)


_GROUP_BOX = re.compile(r"^[ \t]{0,8}(?:\|[ \t]{1,4}){1,8}(?=\S)")
"""The box Python 3.11+ draws left of an exception group's sub-tracebacks (``  | RuntimeError: x``,
``  |   File "x.py", line 3``; traceback.py's ``_ExceptionPrintContext.indent``): the lines behind it read as
they would without it."""


def _warning_only(line: str) -> bool:
    """A line logged at a warning level (its head names a warning level before any error level)."""
    head = line.lstrip()[:INFO_PREFIX]
    warning = _WARNING.search(head)
    if warning is None:
        return False
    error = _ERROR_LEVEL.search(head)
    return error is None or warning.start() < error.start()


_LEVEL_FORM = re.compile(
    r"\[(?:E|F|ERROR|FATAL)\]"  # [E] (TensorRT, Polygraphy), [ERROR] (CANN's plog, many loggers)
    r"|\[[EF]:[\w-]{1,40}[:\]]"  # onnxruntime's [E:onnxruntime:...], [E:tool]
    r"|<[EF]>"  # QNN's <E>
    r"|\[ {0,2}(?:ERROR|FATAL) {0,2}\]"  # QNN's [ ERROR ]
    r"|^[EF] [A-Za-z][\w-]{1,20}:"  # E RKNN:
    r"|^E {1,8}(?=[A-Za-z])"  # E Catch exception when... (rknn-toolkit), pytest's E   ValueError: ...
    r"|^[EF]\d{4} \d\d:\d\d:\d\d"  # glog, absl
    r"|(?<![\w.=-])(?:ERROR|FATAL|CRITICAL)(?=:| -|\]| \S)"  # ERROR:, ERROR:root:, - ERROR -
    rf"|^(?:{_LOGCAT_ERROR})"  # logcat's E/tag(pid):
)
"""A severity at the head of a line (looked for in its first :data:`INFO_PREFIX` characters)."""
_ERROR_FORM = re.compile(
    r"^[A-Za-z_][\w.]{0,80}[a-z](?:Error|Exception)(?::[ \t]*\S|[ \t]*$)"  # ValueError: x, ValueError: 3 is
    r"|^(?:Error|Exception)(?::[ \t]*(?![\d.+-])\S|[ \t]*$)"  # Error: x (Error: 0.0002 is a metric)
    r"|\[[A-Za-z]{0,60}(?:Error|Exception)\]"  # [ONNXRuntimeError], [ShapeInferenceError]
    r"|^Traceback \(most recent call last\)"
    r"|terminate called after throwing|^what\(\): |\bwhat\(\): [A-Za-z]"
    r"|Exception from src/|\bCheck '[^'\n]{1,300}' failed at"
    r"|\bAssertion [`'\"][^\n]{1,300}[`'\"] failed"
    r"|^(?:Debug )?Assertion [Ff]ailed(?:!|: )"  # MSVC's CRT dialog; its assert(): ``Assertion failed: x``
    r"|\b(?:Unhandled|Uncaught) (?:[A-Za-z+]{1,40} )?(?:[A-Za-z]{0,40}Error|exception|Exception)\b"
    r"|\b(?i:fatal error)\b|\bLLVM ERROR: |Segmentation fault|\(core dumped\)"
    r"|\b[A-Z][A-Z0-9_]{1,30} ?\([^\n]{1,300}\) failed\b|\bCheck failed: "  # DCHECK(x) failed, glog's CHECK
    # a function that reports its own failure: ``vkCreateDevice failed``, ``Foo::init() failed``
    r"|^(?:[a-z]\w{0,60}[A-Z]\w{0,60}|[A-Za-z]\w{0,60}(?:::\w{1,60}){1,6})(?:\(\))? failed\b"
    r"|^[A-Za-z]\w{0,60}\(\) failed\b"
    # a compiler's or a runtime's ``error:`` (gcc/clang ``file.cc:3:5: error: x``, ``error: x``, a checker's
    # ``validator error: x``); a number after it is a metric (``train error: 0.02``)
    r"|^(?:[^\s:]{1,300}:\d{1,7}(?::\d{1,5})?: (?:fatal )?|[a-z][a-z-]{1,30} )?error: (?![\d.+-])\S"
    # an error that says what it was doing (``Error converting operator X``, ``Error while parsing``)
    r"|^Error (?:(?:convert|pars|load|creat|read|writ|compil|build|runn|execut|initializ|process|open|allocat"
    r"|import|export|sav|serializ|deserializ|call|invok|launch|prepar|evaluat|fetch|copy)ing"
    r"|while|when|during|occurr?ed)\b"  # (not ``Error handling: strict``, a setting)
    # PyTorch's c10 logging (``[E909 14:49:25.428620211 file.cpp:422] setup failed!``) and c10::Error's
    # ``Exception raised from <function> at <file>:<line>``
    r"|^\[[EF]\d{3,4} \d\d:\d\d:\d\d(?:\.\d{1,9})? [^\]\n]{1,200}:\d{1,6}\]"
    r"|^Exception raised from \S{1,200} at \S{1,400}:\d{1,6}"
    # a sentence that opens with a failure, behind its tool's tags (``[Frob] Unsupported op``)
    r"|^(?:\[[A-Za-z][\w.+-]{0,40}\][ \t]{0,4}){0,3}(?i:not support(?:ed)?|unsupported|fail(?:ed)? to"
    r"|cannot|can't|could not|couldn't|unable to|oops)\b"
    # an unknown or invalid thing named in quotes (``Unknown opset 'X'``, ``Invalid value 'x' for y``)
    r"|^(?:\[[A-Za-z][\w.+-]{0,40}\][ \t]{0,4}){0,3}(?:Unknown|Unrecognized|Unexpected|Invalid|Illegal)"
    r" [a-z][\w ]{0,40} ['\"`]"
    # a Python exception whose class is not named ...Error (``tvm.error.OpNotImplemented: ...``)
    r"|^[a-z_]\w{0,40}(?:\.\w{1,60}){1,8}\.[A-Z][A-Za-z0-9]{2,60}: (?![\d.+-])\S"
    # oneDNN's verbose error record, a CSV line under the runtimes that use it (src/common/verbose_msg.hpp:
    # the marker, an optional timestamp and format version, the API kind, then the log type ``error``)
    r"|\b(?:onednn|dnnl)_verbose,(?:[^,\n]{1,40},){0,2}(?:primitive|graph|ukernel|common),error,"
    # VS Code's debugger, an exception copied from its pop-up (``Exception has occurred: ImportError``, newer
    # versions add ``(note: full exception trace is shown but execution is paused at: <module>)``)
    r"|^Exception has occurred: [A-Za-z_][\w.]{0,80}(?:[ \t]{1,40}\(note: [^\n]{1,300}\))?[ \t\r]*$"
    r"|失败|错误|异常|不支持|无法|报错|出错"  # Chinese: failed, error, exception, unsupported, unable
    rf"|{'|'.join(OTHER_LANGUAGES)}"
)
"""What an error line of the tools looks like whatever it says (the message's own form, not its words)."""
_FAILED_CHECK = re.compile(
    r"[\w.+/\\:-]{0,300}\.(?:cc|cpp|cxx|c|h|hpp)(?:"
    r"\(\d{1,6}\) \[[^\]\n]{1,300}\] \S"  # sentencepiece's CHECK: ``file.cc(88) [cond] message``
    r"|:\d{1,6} [^\n]{1,400}\([^()\n]{1,100} (?:!=|==) [^()\n]{1,100}\)[ \t\r]*$"  # TF_LITE_ENSURE_EQ
    r")"
)
"""A C++ check that failed, reported at a line's head without an error word: its source location, then the
condition (sentencepiece's ``CHECK``: ``sentence_piece.cpp(88) [_status.ok()] Internal: ...``) or the two
sides compared and their values (TFLite's ``TF_LITE_ENSURE_EQ``: ``simple_memory_arena.cc:82 it->size !=
alloc.size (15840 != 0)``)."""
_FAILURE_PREDICATE = re.compile(
    r"(?i:\b(?:is|are) not (?:supported|implemented|registered)\b|\bnot supported yet\b"
    r"|\b(?:failed|fails) to\b|\b(?:does|do) not exist\b|\bnot exists?\b"
    r"|\bbut [^\s,;]{1,60} (?:was|were) expected\b)"
)
"""A sentence whose predicate is a failure (``Op Frob is not supported``, ``node 7 failed to prepare``,
``layer Frob not exists``): an error line of a tool that logs without a level, when it stands at a record's
head (not indented)."""


def _specific(problem: Problem) -> bool:
    """A problem found by a code or a pattern (not only by wording, the tool's markers or a partial)."""
    return any(m.reason.split("+", 1)[0] in SPECIFIC for m in problem.matches)


def _weak_noise(matches: list[Match], text: str, block: list[str]) -> bool:
    """Only weak matches (wording, the tool's family, also when a reason clause answers its family card) on a
    line without an error word, or whose error words are only names and counts (``retry_on_failure``,
    ``--error-limit``, ``0 errors``), or that its tool logged at an informational level (``[I]``, ``INFO``,
    glog's ``I1128``).  Stack frames (``at
    pkg.ErrorHandler.run(``) lend the report no error word, and a warning's frames no tool."""
    if not all(m.reason.split("+", 1)[0] in WEAK_REASONS for m in matches):
        return False
    own = [
        line for k, line in enumerate(block) if not (_is_frame_of(block[0], line) if k else _is_frame(line))
    ]
    if len(own) < len(block):
        if _WARNING.search(text.lstrip()[:INFO_PREFIX]) is not None:
            return True
        text = "\n".join(own)
    return _is_noise(_BENIGN_ERROR_WORDS.sub(" ", text)) or _informational(text)


_BENIGN_ERROR_WORDS = re.compile(
    r"(?<![\w-])(?:--?[a-z][a-z0-9]*(?:-[a-z0-9]+)+|--[a-z]+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w-])"
    r"|(?i:\b(?:0|no|zero)\s(?:errors?|failures?|fails|exceptions?)\b)"
    r"|(?:\b0|零|没有|无)\s?个?(?:错误|异常|失败)"  # 0 个错误: no errors
    r"|\b[A-Za-z_]\w*\.(?:ERROR|FATAL|CRITICAL)\b"
)
"""Error words that say nothing failed: inside a lower-case name (a ``snake_case`` key, a ``--flag``),
counted as none (``0 errors``), or a log level's constant (``Level.ERROR``, ``logging.ERROR``).  Upper-case
names (``RKNN_ERR_FAIL``) are codes and stay."""
_INFORMATIONAL = re.compile(
    r"\[(?:I|V|D|INFO|DEBUG|VERBOSE|TRACE)\]|\b(?:INFO|DEBUG|VERBOSE|TRACE)\b|^[IVD]\d{4} \d\d:\d\d:\d\d"
    rf"|\[[IV]:onnxruntime:|^(?:{_logcat('IVD')})"
)
_ERROR_LEVEL_PATTERN = (
    rf"\[(?:E|F|ERROR|FATAL)\]|\b(?:ERROR|FATAL|CRITICAL)\b|^[EF]\d{{4}} \d\d:|^(?:{_LOGCAT_ERROR})"
)
_ERROR_LEVEL = re.compile(_ERROR_LEVEL_PATTERN)
"""A line logged at an error level (``ERROR``, ``[E]``, glog's ``E1128``)."""
_SEVERE = re.compile(rf"{_ERROR_LEVEL_PATTERN}|\[(?:W|WARN|WARNING)\]|^W\d{{4}} \d\d:|^(?:{_logcat('W')})")
"""A line logged at an error or warning level."""
_WARNING = re.compile(
    rf"\[(?:W|WARN|WARNING)\]|\bWARN(?:ING)?\b|^W\d{{4}} \d\d:|(?i:warning:)|Warning\b|^(?:{_logcat('W')})"
)
"""A report's head at a warning level (its frames are a warning's, not a failure's)."""
INFO_PREFIX = 80
"""How far into a line its log level is looked for."""


def _informational(text: str) -> bool:
    """A line (the first of a report) its tool logged at an informational level, and no severe one."""
    head = text.lstrip()[:INFO_PREFIX]
    return _INFORMATIONAL.search(head) is not None and _SEVERE.search(head) is None


_CODE_PREFIX = re.compile(r"\s{0,4}([EW][0-9A-Z]\d{4}):")
_TRT_CONTINUES = ("While parsing node number", "In node", "In function")


def _continues(block: list[str], line: str) -> bool:
    """Whether ``line`` (the line right after ``block``) belongs to the same report.

    An indented line continues a report that announces more (a header ending in ``:`` or
    ``!``, an Ascend code, a traceback, a C++ ``throwing``) or one already running over
    several lines; after any other line it continues only when it carries no error word of
    its own.  So an indented error (QNN's ``     0.0ms [ ERROR ] ...``, a pasted ``  File
    "...", line N``) right after an unrelated log line starts its own report instead of
    being hidden under that line."""
    if len(block) >= MAX_BLOCK or not line.strip():
        return False
    if _same_code(block[0], line) or _trt_pair(block[-1], line) or _is_frame_of(block[0], line):
        return True
    if _is_traceback(block) and EXCEPTION_LINE.match(line.lstrip()):
        return True  # the exception that ends a traceback belongs to it
    if PY_FRAME.match(line) and not _in_python_frames(block):
        return False  # a traceback's frame after a line of another report starts its own report
    return _indented(line) and (
        len(block) > 1 or _opens(block[0]) or (_is_noise(line) and not _has_code(line))
    )


def _has_code(line: str) -> bool:
    """The line carries an Ascend code at the start of a word (a message of its own even without an error
    word: ``E19010: No parser is registered...``)."""
    data = line.encode("utf-8", errors="surrogateescape")
    return any(_word_starts_at(data, m.start()) for m in ASCEND_CODE.finditer(data))


def _in_python_frames(block: list[str]) -> bool:
    """The report is a Python traceback or its frames (a frame or a frame's source line continues it)."""
    return any(PY_FRAME.match(line) or "traceback" in line.lower() for line in block)


def _is_traceback(block: list[str]) -> bool:
    """A Python traceback whose frames are still being read (not yet ended by its exception line)."""
    return block[0].lstrip().startswith("Traceback (most recent call last)") and not EXCEPTION_LINE.match(
        block[-1].lstrip()
    )


def _opens(first: str) -> bool:
    """A report's first line that announces continuation lines."""
    low = first.lower()
    return (
        first.rstrip().endswith((":", "!"))
        or bool(_CODE_PREFIX.match(first))
        or "traceback" in low
        or "throwing" in low
    )


def _indented(line: str) -> bool:
    """An indented line, or Ascend's ``TraceBack`` continuation."""
    return line[:1] in (" ", "\t") or line.lstrip().startswith("TraceBack")


def _same_code(first: str, line: str) -> bool:
    """Both lines start with the same Ascend code (``E10001: ...``)."""
    a, b = _CODE_PREFIX.match(first), _CODE_PREFIX.match(line)
    return bool(a and b and a.group(1) == b.group(1))


def _trt_pair(last: str, line: str) -> bool:
    """TensorRT's parser: ``While parsing node number`` then ``In node`` / ``In function``."""
    return _TRT_CONTINUES[0] in last and any(t in line for t in _TRT_CONTINUES[1:])


class Report(NamedTuple):
    """Consecutive candidate lines of one report."""

    start: int
    last: int
    lines: list[str]
    unwrapped: tuple[int, list[str], int] | None = None
    """When a line of the report is a piece of a line a terminal wrapped: the number of the last piece,
    the report's lines with that line joined back, and the number of the line they start on (the first
    piece of the report's first line)."""
    lead: tuple[bytes | None, int] = (None, 0)
    """The lines right above the report as read (at most :data:`LEAD`), and how many lines above it no
    report holds (see :meth:`_Scan._with_lead`)."""
    below: bytes | None = None
    """The line right below the report as read (None at the end of a chunk; see :meth:`_Scan._split`)."""


def _blocks(lines: Iterator[Selected], cues: tuple[bytes, ...]) -> Iterator[Report]:
    """Group consecutive candidate lines into reports."""
    grouper = _BlockGrouper()
    for line_no, raw, wrapped, above, below in lines:
        text = _text(raw, cues)
        yield from grouper.add(
            line_no,
            text,
            None if wrapped is None else (wrapped[0], _text(wrapped[1], cues), wrapped[2]),
            above,
            below,
        )
    yield from grouper.flush()


def _text(raw: bytes, cues: tuple[bytes, ...]) -> str:
    """A selected line as text: what of it is read (:func:`_readable`), decoded, colour codes removed."""
    text = _readable(raw, cues).decode("utf-8", errors="replace").rstrip("\r\n")
    return _ANSI.sub("", text) if "\x1b" in text else text


LONG_LINE = 8 * 1024
"""A line longer than this is looked up only around its cue words (a window of this size at each)."""
WINDOW_LEAD = 256
"""How far before a cue word a window starts (the tool's prefix or name before the error word)."""
MAX_WINDOWS = 4


def _readable(raw: bytes, cues: tuple[bytes, ...]) -> bytes:
    """What of one log line is looked up: the pieces of a line redrawn with carriage returns (a progress
    bar piped to a file) that carry a cue word, and of a long line the windows around its cue words,
    so a message written after kilobytes of data on its line is still read (at most :data:`MAX_LINE`)."""
    line = raw.rstrip(b"\r\n")
    if b"\r" in line:
        pieces = [p for p in line.split(b"\r") if _has_cue(p.lower(), cues) or _code_line_starts(p)]
        line = b"\n".join(pieces) if pieces else line
    if len(line) <= LONG_LINE:
        return line
    return b"\n".join(_windows(line, line.lower(), cues))[:MAX_LINE]


def _has_cue(low: bytes, cues: tuple[bytes, ...]) -> bool:
    return any(cue in low for cue in cues)


def _windows(line: bytes, low: bytes, cues: tuple[bytes, ...]) -> list[bytes]:
    """Up to :data:`MAX_WINDOWS` windows of a long line, each starting a little before a cue word or an
    Ascend code not yet inside an earlier window (the head of the line when it has neither)."""
    found: list[bytes] = []
    covered = 0
    while len(found) < MAX_WINDOWS:
        hits = [p for p in (low.find(cue, covered) for cue in cues) if p >= 0]
        code = next(
            (m.start() for m in ASCEND_CODE.finditer(line, covered) if _word_starts_at(line, m.start())), -1
        )
        hits += [code] if code >= 0 else []
        if not hits:
            break
        start = max(covered, min(hits) - WINDOW_LEAD)
        window = line[start : start + LONG_LINE]
        found.append(window.lstrip() if start else window)  # a cut inside a line is no indentation
        covered = start + LONG_LINE
    return found or [line[:LONG_LINE]]


class _BlockGrouper:
    """The report being gathered: its first line number, its lines, the number of the last one."""

    def __init__(self) -> None:
        self.start, self.last = 0, -2
        self.block: list[str] = []
        self.whole: list[str | None] = []
        """Per line, the wrapped line it is a piece of, joined back (None when it is no piece)."""
        self.whole_last = 0
        self.above: bytes | None = None
        """The lines above the report's first line (see :data:`Report.lead`), as read."""
        self.above_count = 0
        """How many lines lie between the report and the one before it."""
        self.below: bytes | None = None
        """The line below the report's last line (see :data:`Report.below`)."""
        self.whole_start = 0
        """Where the report starts with its wrapped lines joined back (before ``start`` when its first line
        is a later piece of a wrapped line)."""

    def add(
        self,
        line_no: int,
        text: str,
        wrapped: tuple[int, str, int] | None = None,
        above: bytes | None = None,
        below: bytes | None = None,
    ) -> Iterator[Report]:
        """Extend the report with the next candidate line, or close it and start a new one (``wrapped``:
        the number of the last piece, the joined line and the number of the first piece, when the line is
        a piece of a wrapped line; ``above``: the lines above it; ``below``: the line below it).

        Lines that all start with one logger header (``[2019-12-18 13:44:04Z]: converter err: ``) are
        grouped as they would be without it; a line of another stream between two of them (the same
        logger's ``converter std:`` line inside a traceback) then goes into the report too."""
        if not (self.block and self._next(line_no, self.block) and _continues(self.block, text)):
            header = _shared_header(self.block, text) if self.block and line_no <= self.last + 2 else ""
            bare = [line[len(header) :] if line.startswith(header) else line for line in self.block]
            if not (header and self._next(line_no, bare) and _continues(bare, text[len(header) :])):
                if line_no == self.last + 1:
                    self.below = None  # the line below is a report's own
                yield from self.flush()
                self.start = line_no
                self.whole_start = line_no if wrapped is None else wrapped[2]
                self.above, self.above_count = above, line_no - self.last - 1
            elif line_no == self.last + 2 and above is not None:
                self.block.append(_decoded(above.rsplit(b"\n", 1)[-1]))
                self.whole.append(None)
        self.block.append(text)
        self.below = below
        self.whole.append(None if wrapped is None else wrapped[1])
        if wrapped is not None:
            self.whole_last = max(self.whole_last, wrapped[0])
        self.last = line_no

    def _next(self, line_no: int, block: list[str]) -> bool:
        """Whether ``line_no`` follows the report (whose lines are ``block``): the next line, or inside a
        Python traceback the line after a frame's source line (which carries no cue and so never reaches
        the grouper)."""
        return line_no == self.last + 1 or (line_no == self.last + 2 and _is_traceback(block))

    def flush(self) -> Iterator[Report]:
        if self.block:
            unwrapped = None
            if any(w is not None for w in self.whole):
                joined = [t if w is None else w for t, w in zip(self.block, self.whole, strict=True)]
                unwrapped = (self.whole_last, joined, self.whole_start)
            yield Report(
                self.start, self.last, self.block, unwrapped, (self.above, self.above_count), self.below
            )
        self.block, self.whole, self.whole_last = [], [], 0


def _decoded(raw: bytes) -> str:
    """A line that is not selected, as text (decoded, colour codes removed)."""
    text = raw[:LONG_LINE].decode("utf-8", errors="replace").rstrip("\r")
    return _ANSI.sub("", text) if "\x1b" in text else text


HEADER_MIN = 12
"""Shortest logger header (:func:`_shared_header`) stripped when grouping."""


def _shared_header(block: list[str], line: str) -> str:
    """The logger header that the report's first line and ``line`` start with (the report's lines that
    have it are read without it): their common beginning up to its last ``": "`` or ``"] "``, when that
    is at least :data:`HEADER_MIN` characters and holds a digit (a time stamp, a pid); else ``""``."""
    first = block[0]
    if first[:HEADER_MIN] != line[:HEADER_MIN]:
        return ""
    common = first[: _common_length(first, line)]
    cut = max(common.rfind(": "), common.rfind("] ")) + 2
    header = common[:cut] if cut >= HEADER_MIN else ""
    return header if any(c.isdigit() for c in header) else ""


def _is_noise(text: str) -> bool:
    """A line found by wording only that carries no error word is not a problem."""
    low = text.lower()
    return not any(w in low for w in ERROR_WORDS)


class _Reader(Protocol):
    """What the scanner reads from: ``read(n)`` bytes, ``b""`` at the end."""

    def read(self, size: int, /) -> bytes: ...


class _LinesAsBinary(io.RawIOBase):
    """Adapts an iterable of text lines to the binary ``read`` the scanner uses."""

    def __init__(self, lines: Iterable[str | bytes]) -> None:
        self._it = iter(lines)
        self._buf = b""

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        self._fill(size)
        cut = len(self._buf) if size < 0 else size
        out, self._buf = self._buf[:cut], self._buf[cut:]
        return out

    def _fill(self, size: int) -> None:
        """Buffer lines until ``size`` bytes are there (all of them for ``size < 0``)."""
        while size < 0 or len(self._buf) < size:
            line = next(self._it, None)
            if line is None:
                break
            self._buf += _line_bytes(line)


def _line_bytes(line: str | bytes) -> bytes:
    """A line as bytes ending with a newline (text is UTF-8, lone surrogates kept)."""
    data = line.encode("utf-8", errors="surrogateescape") if isinstance(line, str) else line
    return data if data.endswith(b"\n") else data + b"\n"


def _as_binary(source: IO[bytes] | IO[str] | Iterable[str]) -> _Reader:
    buffer = getattr(source, "buffer", None)
    if buffer is not None:  # a text file or sys.stdin: read its bytes directly
        return buffer
    if isinstance(source, (io.RawIOBase, io.BufferedIOBase)):
        return source
    return _LinesAsBinary(source)  # text streams and line iterables
