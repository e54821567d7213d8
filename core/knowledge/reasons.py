"""The line of a message that states its own reason, for an answer that has only a card to give.

When nothing but a tool's family card answers a message (or a generic card that fits any failure of a
step), the message usually still says what failed in one line: an exception's text (``ValueError: The updates
tensor should have shape (11,). Got (4,)``), a ``Check failed: <cond>``, a ``<file>:<line> <cond>`` check,
an ``Error: ...`` line.  :func:`reason_line` picks that line: the most specific line that bears an error, not
a consequence of it (``Aborted (core dumped)``, ``Process finished with exit code 136``), not a summary that
only points elsewhere (``See console for info``), not a traceback's frame or header, not a progress bar.
What the line names is read out of it as it stands (:func:`named_parts`: the source file and line of a
check, a quoted name); nothing is inferred that the line does not say.
"""

from __future__ import annotations

from dumpscope.core.lazyre import LazyPattern

MAX_LINES = 400
"""Lines of a message read for its reason (a log's first lines: the rest is not looked at)."""
MIN_WORDS = 3
"""A reason line says at least this many words (``exec failed`` alone says only that a step failed)."""
MAX_REASON_LINE = 600
"""A reason line is quoted up to this many characters (cut at a space, with an ellipsis)."""

PREFIX = LazyPattern(
    r"^(?:[\w.-]{1,60}\s{1,40}\|\s{1,40})?"  # a container's name: ``immich_ml  |   ``
    r"(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})?Z?\]?:?\s{0,4})?"  # a timestamp
    r"(?:\s{0,20}\d{1,9}(?:\.\d{1,6})?ms\s{1,8})?"  # an elapsed time: ``  0.0ms ``
    r"(?:\[\s{0,2}(?:ERROR|FATAL|E|F|W|WARNING|error|fatal)\s{0,2}\]\s{0,4}|(?:ERROR|FATAL|Error):\s{1,4})?"
)
"""A log line's prefix before its own text: a container's name, a timestamp, an elapsed time, a level."""
CONSEQUENCE = LazyPattern(
    r"Traceback \(most recent call last\)|^\s*File \"|^\s*File [\w/\\.:-]{1,300}, line \d|^\s{0,8}at \S"
    r"|^\s*#\d{1,3}\s|^\s*\d{1,4}: \S|^\s*-{1,4}>|^\s*\d{1,7}\s{2,}|terminate called|^\s*what\(\):"
    r"|Aborted|core dumped|Segmentation fault|SIGSEGV|SIGABRT|SIGFPE|signal \d{1,2}\b|Process finished"
    r"|exit(?:ed)? (?:with )?(?:exit )?code|exit status|Fatal Python error|Program terminated"
    r"|See (?:the )?(?:console|log|above)|for more (?:info|details)|Please check|please check"
    r"|check the (?:detail )?log"
    r"|\d{1,3}%\|.{0,80}\||^\s*[\^~]{2,}\s*$|^\s*\.\.\.\s*$|^\s*[-=*#]{4,}\s*$|During handling of the above"
    r"|The above exception was|^\s*\w[\w.]{0,60}\(\)\s*$|<ipython-input-|in <module>"
    r"|(?:Exception|Error) (?:from|in|at) [^\s]{1,300}[:(]\d{1,7}\)?:?\s*$",
    0,
)
"""Lines that are no reason: a traceback's header and frames, a stack's numbered frames, how the process
ended (a signal, an exit code, ``terminate called``), a pointer to elsewhere (``see console``), a progress
bar, a rule of dashes."""
ERROR_BEARING = LazyPattern(
    r"\b\w{0,60}(?:Error|Exception|Failure)\b:?\s{0,4}\S|\bCheck failed\b|\bAssert(?:ion)?\b"
    r"|\bassert\w{0,10}\b|\bRET_CHECK\b|[^=!<>]\s(?:!=|==|<=|>=)\s\S|\bfail(?:ed|s|ure)?\b"
    r"|\bnot (?:supported|implemented|defined"
    r"|found|allowed|valid|a valid|registered|available|enough|match(?:ed|ing)?)\b|\bunsupported\b|\bcannot\b"
    r"|\bcan't\b|\bcould not\b|\bcouldn't\b|\bunable to\b|\binvalid\b|\bmismatch\w{0,3}\b|\bexpect(?:s|ed)\b"
    r"|\bmust\b|\bshould\b|\bno such\b|\bout of (?:range|bounds|memory)\b|\bexceed\w{0,3}\b|\bviolation\b"
    r"|\billegal\b|\bunknown\b|\bdoes not\b|\bdoesn't\b|\bhas no\b|\bno attribute\b|\bis not\b|\bare not\b"
    r"|\btoo (?:many|large|small|big|long)\b|\bmissing\b|\bwrong\b|\bunexpected\b|\bincompatible\b"
    r"|\brefused\b",
    0,
)
"""Wording that says something went wrong: an exception's name with its text, a check, a refusal."""
STRONG = LazyPattern(
    r"\b\w{0,60}(?:Error|Exception)\b:\s{0,4}\S|\bCheck failed\b|\bAssertion\b|\bRET_CHECK\b"
    r"|[^=!<>]\s(?:!=|==|<=|>=)\s\S|\[[^\]\n]{3,200}\][^\n]{0,40}(?:Internal|failed)",
    0,
)
"""The wording of a reason that states itself: an exception with its text, a failed check or assertion with
its condition."""
ONLY_FAILED = LazyPattern(r"^[^:]{0,120}?\b(?:failed|fails|error)\s*(?:\([^()\n]{0,60}\))?[.!]?$", 0)
"""A line that only says a step failed (``QNN UNET exec failed (uncond)``): no reason of its own."""
CHECK = LazyPattern(
    r"\bCheck failed\b|\bAssert(?:ion)?\b|\bRET_CHECK\b|[^=!<>]\s(?:!=|==|<=|>=)\s\S"
    r"|\[[^\]\n]{0,200}?(?:[!=<>]=|\(\)\]|!\w)|\bwas not true\b",
    0,
)
"""A line that states a checked condition (``Check failed: a == b``, ``[_status.ok()]``, ``x != y``).  A
bracket counts only when it holds a condition (a comparison, a call, a negation): a log line's
``[file.cc:894]`` is where it was printed, not a check."""
FILE_LINE = LazyPattern(
    r"(?P<file>(?:[\w.+-]{1,100}[/\\]){0,30}[\w.+-]{1,100}\.(?:cc|cpp|cxx|c|h|hpp|cu|py|mm|m))"
    r"(?:[:(,]| line )(?P<line>\d{1,7})\b"
)
"""A source file and line the reason line names (``export.cc:386``, ``sentence_piece.cpp(88)``)."""
QUOTED = LazyPattern(
    r"(?:^|[\s(:=,])(?:'(?P<a>[^'\n]{1,120})'|\"(?P<b>[^\"\n]{1,120})\"|`(?P<c>[^`\n]{1,120})`)"
)
"""A name the line quotes (``'exit'``, ``"q::ForceFormat_Crouton"``, ```<s>```)."""


def _own_text(line: str) -> str:
    """``line`` without its log prefix (:data:`PREFIX`) and the spaces around it."""
    line = line.strip()
    found = PREFIX.match(line)
    return line[found.end() :].strip() if found else line


def reason_line(text: str) -> str:
    """The line of ``text`` that states the failure's own reason (without its log prefix), or "" when no line
    does: an exception with its text or a failed check or condition (:data:`STRONG`) first, else the first
    line that bears an error (:data:`ERROR_BEARING`); never a consequence, a pointer, a frame
    (:data:`CONSEQUENCE`), nor a line of fewer than :data:`MIN_WORDS` words.  Of Python exception lines the
    last one is the reason (a traceback ends with it); of other strong lines, the first (a log's first
    error is the cause, later ones its consequences)."""
    strong_first = ""
    exception_last = ""
    bearing = ""
    for raw in text.split("\n")[:MAX_LINES]:
        line = _own_text(raw)
        if len(line.split()) < MIN_WORDS or CONSEQUENCE.search(line):
            continue
        if STRONG.search(line):
            if _python_exception(line):
                exception_last = line
            elif not strong_first:
                strong_first = line
        elif not bearing and ERROR_BEARING.search(line) and not ONLY_FAILED.search(line):
            bearing = line
    found = exception_last or strong_first or bearing
    if len(found) <= MAX_REASON_LINE:
        return found
    return found[:MAX_REASON_LINE].rsplit(" ", 1)[0] + " ..."


_PY_EXCEPTION = LazyPattern(r"^(?:E\s{1,4})?[A-Za-z_][\w.]{0,100}(?:Error|Exception|Warning|Exit)?: \S")


def _python_exception(line: str) -> bool:
    """Whether ``line`` is a raised exception's line (``ValueError: ...``, ``x.ValidationError: ...``)."""
    found = _PY_EXCEPTION.match(line)
    return found is not None and ("Error" in line[: found.end()] or "Exception" in line[: found.end()])


def named_parts(line: str) -> tuple[tuple[str, str], ...]:
    """What ``line`` names as it stands: ``file`` and ``line`` of the source check it cites, ``value`` a name
    it quotes (the first)."""
    parts: list[tuple[str, str]] = []
    found = FILE_LINE.search(line)
    if found is not None:
        parts += [("file", found.group("file")), ("line", found.group("line"))]
    quoted = QUOTED.search(line)
    if quoted is not None:
        value = next(v for v in quoted.group("a", "b", "c") if v is not None).strip()
        if value and len(value.split()) <= 4:
            parts.append(("value", value))
    return tuple(parts)
