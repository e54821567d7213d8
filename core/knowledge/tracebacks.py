"""The innermost failure of a Python traceback: its exception line(s) and the frame that raised it.

A vendor's Python wrapper (RKNN-Toolkit2's ``rknn.api`` ``load_onnx``/``build``/``export_rknn``,
coremltools' ``convert``, qai-hub's ``submit_compile_job``, torch_npu) prints its own step around a traceback
(``E build: Catch exception when building RKNN model!``, ``E build: Traceback (most recent call last):``,
``converter err: Traceback ...``).  What failed is said by the exception at the end of the traceback (and the
frame above it), not by the step that caught it: :func:`failures` gives that text so that the look-up can rank
what explains it before what only explains the wrapper (:func:`.kb.innermost_first`).

Python's own layout is read (``Traceback (most recent call last):``, ``  File "x.py", line N, in f``, the
frame's source line indented under it, then ``SomeError: message``), with whatever log prefix the
traceback's first line carries (``E build: ``, ``E ``, ``[time]: converter err: ``) stripped from the lines
that repeat it.
CANN's ``TraceBack (most recent call last):`` (capital B) is an error-message stack, not a Python traceback,
and is not read here.  A chained traceback (``During handling of the above exception...``) gives one failure
per traceback: the first is the innermost cause, each is kept.
"""

from __future__ import annotations

from dumpscope.core.lazyre import LazyPattern

HEADER = "Traceback (most recent call last):"
PY_FRAME = LazyPattern(r'\s{1,8}File "[^"\n]{1,400}", line \d{1,7}')
"""A Python traceback's frame line (``  File "x.py", line 12, in f``)."""
EXCEPTION_LINE = LazyPattern(r"(?:E\s+)?[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b")
"""The first line of a raised exception (``KeyError: 'x'``, ``onnx.onnx_cpp2py_export.checker.ValidationError:
...``), also behind RKNN's ``E `` prefix."""
_RAISED = LazyPattern(r"[A-Za-z_][\w.]{0,200}(?::\s|:?$)")
"""An exception line whose class is not named ``...Error`` (``torch._dynamo.exc.Unsupported: ...``)."""
_CHAIN = ("During handling of the above exception", "The above exception was the direct cause")
MAX_FRAMES_LINES = 400
MAX_FAILURE_LINES = 12
MAX_TRACEBACKS = 8


def failures(text: str) -> list[str]:
    """For each Python traceback in ``text`` (at most :data:`MAX_TRACEBACKS`), its innermost failure: the
    last frame line, then the exception line and the lines that continue it (up to a blank line, another
    traceback or :data:`MAX_FAILURE_LINES` lines), each without the traceback's log prefix.  [] when the
    text holds no traceback that reached its exception line."""
    if HEADER not in text:
        return []
    lines = text.splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        pos = line.find(HEADER)
        if pos < 0:
            continue
        found = _failure(lines[i + 1 : i + 1 + MAX_FRAMES_LINES + MAX_FAILURE_LINES], line[:pos])
        if found:
            out.append(found)
            if len(out) >= MAX_TRACEBACKS:
                break
    return out


def _failure(lines: list[str], prefix: str) -> str:
    """The innermost failure of one traceback whose lines follow its header (``""`` when none)."""
    last_frame = ""
    seen_frame = False
    for n, raw in enumerate(lines[:MAX_FRAMES_LINES]):
        line = _unprefixed(raw, prefix)
        if PY_FRAME.match(line):
            last_frame, seen_frame = line.strip(), True
            continue
        if not seen_frame or not line.strip():
            continue
        if line[:1].isspace() and not EXCEPTION_LINE.match(line.lstrip()):
            continue  # the frame's source line (``    x = f(y)``) or a caret line
        if not EXCEPTION_LINE.match(line) and not _RAISED.match(line):
            return ""
        body = [line.strip()]
        for more in lines[n + 1 : n + MAX_FAILURE_LINES]:
            rest = _unprefixed(more, prefix)
            if not rest.strip() or HEADER in rest or rest.startswith(_CHAIN) or PY_FRAME.match(rest):
                break
            body.append(rest.strip())
        return "\n".join([last_frame, *body])
    return ""


def _unprefixed(line: str, prefix: str) -> str:
    """``line`` without the traceback's log prefix (``E build: ``) when it starts with it."""
    if prefix.strip() and line.startswith(prefix):
        return line[len(prefix) :]
    return line


def traceback_end(lines: list[str]) -> int:
    """How many of ``lines`` reach the end of the first Python traceback that starts among them: up to and
    with its exception line and the lines that continue it (:func:`failures`' reading, log prefix and all);
    0 when no traceback there reaches its exception line.  A wrapper's card (``E build: Catch exception when
    building RKNN model!``, then the traceback) reads this far, so that the frame and the exception that say
    why are part of what it answers."""
    for i, line in enumerate(lines):
        pos = line.find(HEADER)
        if pos < 0:
            continue
        prefix = line[:pos]
        seen_frame = False
        rest = lines[i + 1 : i + 1 + MAX_FRAMES_LINES]
        for n, raw in enumerate(rest):
            body = _unprefixed(raw, prefix)
            if PY_FRAME.match(body):
                seen_frame = True
                continue
            if not seen_frame or not body.strip() or body[:1].isspace():
                continue
            if not EXCEPTION_LINE.match(body) and not _RAISED.match(body):
                return 0
            end = n + 1
            for more in rest[n + 1 : n + MAX_FAILURE_LINES]:
                tail = _unprefixed(more, prefix)
                if not tail.strip() or HEADER in tail or tail.startswith(_CHAIN) or PY_FRAME.match(tail):
                    break
                end += 1
            return i + 1 + end
        return 0
    return 0
