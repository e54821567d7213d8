"""A pasted message read as its tool printed it: what a terminal, a forum or an editor did to it undone.

Users paste messages re-wrapped, re-spaced, quoted and escaped; an entry's pattern, written from one paste,
then misses the same message pasted another way and a card or another tool answers.  :func:`as_printed`
undoes, once per look-up, the forms that cannot be the tool's own text:

* CRLF line ends (a Windows terminal or editor) read as LF;
* a terminal's colour codes (``ESC[0;31m``, a log saved from a coloured terminal) removed, as the log scan
  removes them;
* a notebook cell's error output as an editor copies it (VS Code's JSON object of ``"name"``,
  ``"message"`` and ``"stack"``, an ``.ipynb`` file's ``"ename"``/``"evalue"``; :func:`_notebook_output`):
  each field's JSON string decoded (``\\"``, ``\\n``, the stack's ``\\u001b`` colour codes), the message
  said as Python's last line ``Name: message`` unless the stack holds it; a value that is no valid JSON
  string stays as pasted;
* Markdown's quote marks, ``> `` before every line (a reply quoting the message), removed when every line
  of the text carries them (one to three levels);
* HTML entities (``&lt; &gt; &amp; &quot; &apos; &nbsp;``, numeric ``&#39;`` ``&#x27;``) of a page's
  copy decoded; only complete entities with their ``;`` (``?a=1&para=2`` in a URL is left alone);
* typographic quotes (“ ” „ ‘ ’ ‚, an editor's or a forum's) read as straight ones: no pattern of the
  knowledge base holds one, and the tools print straight quotes (Core ML's own “model.mlmodelc”
  couldn’t is found by its other words either way);
* no-break, thin and other fixed-width spaces (a web page's copy) read as spaces, zero-width spaces
  removed;
* a run of spaces or tabs between two words read as one space when most gaps between words are such runs
  (a re-spaced paste, a column copied with its tabs, :func:`_respaced`; an occasional wide gap is the
  tool's own: aligned columns, the indentation after a per-line prefix, ``E build:   File "..."``, which
  a traceback's reading needs); indentation is kept.  Two patterns of the KB hold a literal double
  space: one accepts one space (`` ?``), the other's lookahead falls back to the line's end;
* a line cut by a terminal's hard wrap joined back (:func:`_cut`: a piece exactly as wide as a terminal,
  :data:`WRAP_WIDTHS`, ending in a letter or digit, the next piece going on in lower case or after one
  space, and starting no record), the log scan's rule made stricter: its own check, since a look-up does
  not import the scan's module, and stricter because a look-up has no fallback to the lines as pasted
  (the scan tries the joined line only when the line matches nothing): on the dev messages as pasted,
  33 lines of a terminal's width were followed by the tool's own next line (an indented frame, ``I rknn
  building``, ``[8] Assertion failed``, ``}``), which the scan's rule would have joined; this one joins
  the 2 real cuts among them.  A line's width is its width as pasted, its logger's header included (the
  terminal cut the line with it);
* a tool's bracketed tag spaced otherwise than its tool prints it read as printed (:data:`_TAGS`:
  onnxruntime's ``[E:onnxruntime:Default, x.cc:51 F]`` and ``[ONNXRuntimeError] : 2 : INVALID_ARGUMENT :``,
  its C# ``[ErrorCode:X]``, Ascend's ``[FUNC:f][FILE:x.cc][LINE:12]``, TensorRT's ``[x.cpp::f::12]``): the
  markers and patterns read the tag as printed, so one rewrite here serves all of them;
* a logger's header before each line removed (:func:`_without_log_headers`): the one grammar of generic
  loggers' headers, :data:`LOG_HEADER`, shared with the log scan (glog, Python logging, an ISO time stamp
  with or without brackets and then a level word, a CI runner's ``...1234567Z``, syslog's and journalctl's
  ``May 01 10:22:31 host prog[123]:``, torchrun's ``[rank0]:``, logcat's and Android Studio's), on any
  line, unless the header names a tool (logcat's ``E/tflite``, the QAIRT converters' ``- 230 - ERROR -``
  are the tool's own); then a prefix of another shape that every line holding anything starts with (two
  lines or more: :func:`_repeated_prefix`), ending at a separator after a time of day, or a column before
  `` | `` (Docker Compose's, ``kubectl logs --prefix``'s).  A prefix seen on one line only, or with
  neither a time nor a column, is kept, and so is a tool's own (``E RKNN:``, ``[TRT]``, ``[ERROR] GE(``,
  ``[E:onnxruntime:``: no grammar holds them and a repeated one that names a tool is kept).  The spaces
  after the headers go as wide as the narrowest of them: the rest is the message's indentation.

Not undone: an editor's word wrap (lines broken at the last space before 70-80 columns).  Joining a line
to the next where that next line's first word would not have fit (and it starts in lower case, the line
nearly full) took the word-wrapped form's changed records from 384 to 266, but joined 5 dev messages as
pasted that no wrap had broken (``...infer_request.cpp:224:`` + ``invalid unordered_map<K, T> key``,
``vkCreateDevice failed -4`` after a line of 74 characters): a look-up has no way back from a wrong join.

Measured with ``bench/paste_forms.py``: each form applied to the 1,044 dev records whose top entry is
found by its pattern, the records whose top entry changed (family changed), before -> after: hard wrap at
80 columns 392 (14) -> 149 (7); word wrap 384 (14) -> 386 (14); spaces doubled 878 (65) -> 5 (0); tabs
between words 882 (60) -> 5 (0); no-break spaces 883 (59) -> 0; CRLF 13 -> 0; Markdown quote 24 -> 0;
HTML entities 177 (13) -> 0; smart quotes 147 (12) -> 0; spaces collapsed 5 (0) both.  Dev family@1 and
code@3 of every file unchanged (1,080/1,084, 356/357).  Session s33c, on the 1,065 such records: a log
prefix on every line (``[2025-01-01 12:00:00,123] ERROR ``) 29 (1) -> 0, and per grammar Python logging
36 (1), a bracketed time 27, glog 35, logcat 31, Docker 25, journalctl 35, a CI runner 27 -> 0 each; tag
colons spaced 6 (1) -> 1 (an Objective-C selector's colons, ``+[MLModel compileModelAtURL: ...]``, which
no paste spaces), tags respaced as the dev pastes show them (``[ONNXRuntimeError]:1:FAIL:``,
``[x.cpp:: f::35]``) 6 -> 0; the other forms unchanged.  Of the 1,184 dev records as pasted (every file),
no top entry changed (96 of them carry a header this grammar reads); four changed below the top: two
places by wording swapped or replaced (a second and a third), a capture lost its torchrun prefix
(``[rank0]:   unsupported ...`` -> ``unsupported ...``), and the status entry of ``[ONNXRuntimeError]:1:
FAIL:`` is now found by its pattern too, with its reason.  Session u42, on the 1,145 such records: colour
codes around every line 57 (10) -> 0; a notebook's error output (VS Code's copy) 59 (3) -> 1 (a record that
already is one, escaped twice: no paste's form); the other forms unchanged.

A text that holds none of these forms is returned as it is (the same object), so its captures are the
user's exact text.  Where a form was undone, each captured part is shown as the user's text holds it when
it differs from it only by quotes, spaces and line ends (:func:`captures_as_pasted`: Apple's own
``couldn’t`` stays typographic); HTML entities stay decoded (the page's escaping, not the message's
text).
"""

from __future__ import annotations

import json
import os
import re

from dumpscope.core.knowledge.family import detect_uncovered, family_evidence
from dumpscope.core.lazyre import LazyPattern

_ENTITY = LazyPattern(r"&(?:(lt|gt|amp|quot|apos|nbsp)|#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6}));")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'", "nbsp": " "}
_TYPOGRAPHIC = {
    **dict.fromkeys("\u201c\u201d\u201e", '"'),
    **dict.fromkeys("\u2018\u2019\u201a", "'"),
    **dict.fromkeys("\u00a0\u2002\u2003\u2007\u2009\u202f", " "),
    **dict.fromkeys("\u200b\ufeff", ""),
}
"""Typographic quotes as straight ones, fixed-width spaces as spaces, zero-width spaces removed."""
_TYPOGRAPHIC_TABLE = str.maketrans(_TYPOGRAPHIC)
_TYPOGRAPHIC_CHAR = LazyPattern("[" + "".join(_TYPOGRAPHIC) + "]")
_SPACE_RUN = LazyPattern(r"(?<=\S)(?: [ \t]+|\t[ \t]*)(?=\S)")
"""Spaces and tabs between two words, other than one space."""
_ONE_SPACE = LazyPattern(r"(?<=\S) (?=\S)")
"""One space between two words."""
_QUOTE_MARK = LazyPattern(r" {0,3}>(?!>>) ?")
"""Markdown's quote mark at a line's start (not Python's ``>>>`` prompt)."""
MAX_QUOTE_LEVELS = 3
WRAP_WIDTHS = frozenset({80, 100, 120, 132, 160, 200})
"""Terminal widths whose hard wraps are undone (the log scan's, :data:`.scan.WRAP_WIDTHS`)."""
MAX_WRAPPED = 8
"""Most pieces of one cut line joined back."""
_GOES_ON = LazyPattern(r"[a-z]| [a-z\"'#(]")
"""How the piece after a terminal's cut starts: the rest of a word, or the space the cut fell on and the
next word (the tool's own next line starts with a capital, a tag, a number, an indented frame or a list's
dash)."""
_RECORD_START = LazyPattern(
    r"\s{0,8}(?:\[(?:[A-Z]{1,8}|[IWEFVD]:\w{1,40})[\]:,]|[IWEF]\d{4} \d\d:|\[?\d{4}-\d\d-\d\d[ T-]\d\d:"
    r"|(?:DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL)\b|[EWIDF] [A-Z][A-Za-z]{1,20}:|\[rank\d{1,6}\]:"
    r"|[\w.-]{1,60}\[\d{1,7}\]: |Traceback \(|what\(\): |terminate called|File \"|at [\w.$<>]+\("
    r"|(?:[A-Za-z_][\w.]{0,80})?(?:Error|Exception|Warning): |\[[A-Za-z]{0,60}(?:Error|Exception)\]"
    r"|[A-Za-z_]\w{0,60}: )"
)
"""What a line after a terminal's cut never starts with: a log record's start (a tag, a level, a time stamp,
an exception, a stack frame, a ``name: `` label), the log scan's :data:`.scan._RECORD_START` in short."""


def logcat(levels: str) -> str:
    """Android logcat's header of a line logged at one of ``levels`` (``V D I W E F``): the ``brief`` and
    ``time`` formats (``E/tag( 1234): ``, ``07-25 14:03:50.795 E/tag( 1234): ``) and ``threadtime``
    (``07-25 14:03:50.795  1234  1280 E tag     : ``)."""
    stamp = r"\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"
    return (
        rf"(?:{stamp}\s{{1,4}})?[{levels}]/[\w.$-]{{1,60}} {{0,12}}\( {{0,6}}\d{{1,7}}\): "
        rf"|{stamp} {{1,6}}\d{{1,7}} {{1,6}}\d{{1,7}} [{levels}] [^:\n]{{1,60}}?: "
    )


LOG_HEADER = LazyPattern(
    r"^\s{0,8}(?:"
    r"[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{1,6}\s{1,8}\d{1,8}\s{1,4}[\w./-]{1,120}:\d{1,6}\]\s?"  # glog
    r"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} {1,6}\d{1,7}-\d{1,7}"  # Android Studio's logcat:
    r"(?:/[\w.$?-]{1,120} [VDIWEFA]/[\w.$-]{1,60}: "  # pid-tid/package E/tag:
    r"| {1,6}\S{1,60} {1,40}[\w.$?-]{1,120} {1,40}[VDIWEFA] {1,4})"  # pid-tid tag package E
    r"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - [\w.]{1,80} - [A-Z]{4,8} - "  # Python logging's asctime
    r"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]{1,80}:"  # Python logging's default format
    r"|\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\]?\s{1,4}"  # ISO time,
    r"(?:(?:DEBUG|INFO|WARNING|ERROR|CRITICAL|FATAL)(?: -)?\s{1,4})?"  # a level (``ERROR:`` is a tool's)
    r"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [\w.-]{1,64} [\w./-]{1,64}(?:\[\d{1,7}\])?: "  # syslog
    r"|\[rank\d{1,6}\]:\s?"  # torchrun
    rf"|{logcat('VDIWEF')}"  # Android's logcat
    r"){1,4}"
)
"""The headers generic loggers write before each line: they name no tool (a tool's own prefix, such as
``E RKNN:`` or ``[E:onnxruntime:...]``, is kept).  The one grammar of the log scan (which looks a report
up again without them) and of :func:`as_printed` (a paste with one before each line)."""


def as_printed(text: str) -> str:
    """``text`` with the forms of a paste undone (see the module docstring); ``text`` itself when it
    holds none."""
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    if "\x1b" in text:
        text = ANSI.sub("", text)
    if '"message": "' in text or '"evalue": "' in text:
        text = _notebook_output(text)
    if ">" in text:
        text = _unquoted(text)
    if "&" in text:
        text = _ENTITY.sub(_entity, text)
    if not text.isascii() and _TYPOGRAPHIC_CHAR.search(text) is not None:
        text = text.translate(_TYPOGRAPHIC_TABLE)
    if ("  " in text or "\t" in text) and _respaced(text):
        text = _SPACE_RUN.sub(" ", text)
    if _TAG_CUE.search(text) is not None:
        text = _tags_as_printed(text)
    text, widths = _without_log_headers(text)
    return _hard_wraps_joined(text, widths) if "\n" in text else text


_TAG_CUE = LazyPattern(
    r"\[(?:[VIWEF]: ?onnxruntime: |[VIWEF]: onnxruntime:|(?:FUNC|FILE|LINE|ErrorCode): "
    r"|ONNXRuntimeError\](?! : \d)"
    r"|[\w.-]{1,80}\.(?:cpp|cc|cu|h|hpp)::? )"
)
"""A tool's bracketed tag printed with other spacing than the tool's (a cue for :data:`_TAGS`)."""
_TAGS = (
    (LazyPattern(r"\[([VIWEF]): ?onnxruntime: ?([^,\]\n]{0,80}),\s{0,2}"), r"[\1:onnxruntime:\2, "),
    (
        LazyPattern(
            r"(?<=\[[VIWEF]:onnxruntime:)([^,\]\n]{0,80}, [\w.-]{1,80}\.(?:cc|cpp|h|hpp|cu)): (?=\d)"
        ),
        r"\1:",
    ),
    (LazyPattern(r"\[(FUNC|FILE|LINE|ErrorCode): "), r"[\1:"),
    (
        LazyPattern(
            r"\[ONNXRuntimeError\] ?: ?(\d{1,3}) ?: ?([A-Z_]{2,40}(?: [A-Z_]{2,40})?) ?:(?: |(?=\S))"
        ),
        r"[ONNXRuntimeError] : \1 : \2 : ",
    ),
    (
        LazyPattern(r"\[([\w.-]{1,80}\.(?:cpp|cc|cu|h|hpp))(::?) ?(\w{1,80})(::?) ?(\d{1,6})\]"),
        r"[\1\2\3\4\5]",
    ),
)
"""The tools' own bracketed tags as they print them, from a paste that spaced them otherwise: onnxruntime's
log tag (``[E:onnxruntime:Default, x.cc:51 F]``, pasted ``[E: onnxruntime: Default, x.cc: 51 F]``), its
status (``[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : ``, pasted ``[ONNXRuntimeError]:2:INVALID_ARGUMENT:``),
its C# exception's ``[ErrorCode:X]``, Ascend's ``[FUNC:f][FILE:x.cc][LINE:12]`` and TensorRT's and Myelin's
source location (``[runner.cpp::executeMyelinGraph::682]``, ``[cask.cpp:exec:972]``)."""


ANSI = LazyPattern(r"\x1b\[[0-9;]{0,8}[A-Za-z]")
"""A terminal's colour or cursor code (``ESC[0;31m``): a log saved from a coloured terminal holds them."""
_NOTEBOOK_FIELD = LazyPattern(
    r'^[ \t]*"(name|message|stack|ename|evalue)": ("(?:[^"\\\n]|\\.)*")[ \t]*,?[ \t]*$', re.MULTILINE
)
"""A field of a notebook's error output as an editor copies it (VS Code's ``name``/``message``/``stack``,
an ``.ipynb`` file's ``ename``/``evalue``), its value a JSON string."""


def _notebook_output(text: str) -> str:
    """``text`` with a notebook's error output read as Python printed it: each field's JSON string decoded
    (``\\"`` a quote, ``\\n`` a line end, the stack's colour codes removed), ``message`` said as
    ``Name: message`` unless the stack already holds it, ``name`` dropped; a field whose value is no valid
    JSON string stays as pasted."""
    fields = {_NOTEBOOK_KEY.get(m[1], m[1]): _json_string(m[2]) for m in _NOTEBOOK_FIELD.finditer(text)}
    said = _notebook_said(fields)
    if not said:
        return text
    return _NOTEBOOK_FIELD.sub(lambda m: said.get(_NOTEBOOK_KEY.get(m[1], m[1]), m[0]), text)


_NOTEBOOK_KEY = {"ename": "name", "evalue": "message"}
"""An ``.ipynb`` file's field names as VS Code's copy names them."""


def _notebook_said(fields: dict[str, str | None]) -> dict[str, str]:
    """What each notebook field whose value is a JSON string reads as."""
    stack = ANSI.sub("", fields.get("stack") or "")
    message = _exception_line(fields.get("name"), fields.get("message"), stack)
    said = {"name": "", "stack": stack, "message": message}
    return {key: said[key] for key, value in fields.items() if value is not None}


def _exception_line(name: str | None, value: str | None, stack: str) -> str:
    """Python's last line of a traceback, ``Name: value``; nothing when the stack already holds the value."""
    if not value or value in stack:
        return ""
    return f"{name}: {value}" if name else value


def _json_string(literal: str) -> str | None:
    """A JSON string literal's value (``None`` when it is not one)."""
    try:
        return str(json.loads(literal))
    except ValueError:
        return None


def _tags_as_printed(text: str) -> str:
    """``text`` with the tools' tags of :data:`_TAGS` spaced as their tools print them."""
    for pattern, printed in _TAGS:
        text = pattern.sub(printed, text)
    return text


_HEADER_CUE = LazyPattern(
    r"^[ \t]{0,8}(?:\[?\d|[A-Z][a-z]{2} [ \d]\d |[IWEF]\d{4} |[VDIWEF]/"
    r"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):|\[rank\d|[^\n|]{1,80} \| )",
    re.MULTILINE,
)
"""A line that may start with a logger's header (:data:`LOG_HEADER`) or a repeated prefix: a digit (a time
stamp), a month, glog's level and date, logcat's level, a level and a logger's name, torchrun's rank, a
column before `` | ``."""
_DIGIT = str.maketrans("123456789", "000000000")
_TIME_OF_DAY = LazyPattern(r"0?0:00:00")
_SEPARATOR = LazyPattern(r"(?:\]|:| \|) ")
HEADER_MIN = 8
"""Shortest repeated prefix (:func:`_repeated_prefix`) read as a logger's."""


def _without_log_headers(text: str) -> tuple[str, list[int]]:
    """``text`` without the logger's header before its lines (``text`` itself when it has none): each
    line's :data:`LOG_HEADER` that names no tool (:func:`_header_ends`), then a prefix every line that holds
    anything starts with (:func:`_repeated_prefix`); with the width of each line as pasted (a terminal's
    wrap cut the line with its header)."""
    pasted = text.split("\n")
    widths = [len(line) for line in pasted]
    if _HEADER_CUE.search(text) is None:
        return text, widths
    lines = [line[end:] for line, end in zip(pasted, _header_ends(pasted), strict=True)]
    cut = _repeated_prefix(lines)
    lines = [line[cut:] if line.strip() else line for line in lines]
    return (text if lines == pasted else "\n".join(lines)), widths


def _header_ends(lines: list[str]) -> list[int]:
    """Where each line's message starts after its :data:`LOG_HEADER` (0 without one, or when the header
    names a tool: logcat's ``E/tflite``, the QAIRT converters' ``- 230 - ERROR - ``, the tool's own).  The
    spaces after the headers are removed as wide as the narrowest of them: the rest is the message's
    indentation (a traceback's frame under a time stamp)."""
    named: dict[str, bool] = {}
    heads = [_header(line, named) for line in lines]
    gap = min((len(head) - len(head.rstrip()) for head in heads if head), default=0)
    return [len(head.rstrip()) + gap if head else 0 for head in heads]


def _header(line: str, named: dict[str, bool]) -> str:
    """The :data:`LOG_HEADER` ``line`` starts with; ``""`` without one, or when it names a tool
    (:func:`_named`, its cache ``named``)."""
    m = LOG_HEADER.match(line)
    return "" if m is None or _named(m.group(), named) else m.group()


MAX_HEADER_SHAPES = 16
"""Most header shapes of one paste read for a tool's name (:func:`_named`); a header of a further shape is
kept: each reading costs a pass of the markers (0.3 ms), and 16,000 logcat lines of as many tags took 5 s."""


def _named(head: str, named: dict[str, bool]) -> bool:
    """:func:`_names_tool`, cached in ``named`` per header shape (digits aside); True (the header is kept)
    for a shape beyond the first :data:`MAX_HEADER_SHAPES`."""
    shape = head.translate(_DIGIT)
    if shape not in named:
        named[shape] = len(named) >= MAX_HEADER_SHAPES or _names_tool(head)
    return named[shape]


def _names_tool(head: str) -> bool:
    """A tool's marker (covered or not) is in ``head``."""
    return bool(family_evidence(head)) or bool(detect_uncovered(head))


def _repeated_prefix(lines: list[str]) -> int:
    """The length of a logger's prefix that each of two or more lines starts with (each line that holds
    anything): the same shape on each (digits aside), ending at its first separator (``] ``, ``: ``,
    `` | ``) after a time of day, or a column before `` | `` (Docker's and kubectl's service name); 0 when
    there is none, or when the prefix names a tool (its own tag: ``E RKNN:``, ``[TRT]``, ``[ERROR] GE(``)."""
    carried = [line.translate(_DIGIT) for line in lines if line.strip()]
    if len(carried) < 2:
        return 0
    common = os.path.commonprefix(carried)
    for sep in _SEPARATOR.finditer(common):
        head = common[: sep.end()]
        if len(head) >= HEADER_MIN and (sep.group() == " | " or _TIME_OF_DAY.search(head) is not None):
            return 0 if _names_tool(head) else sep.end()
    return 0


def _respaced(text: str) -> bool:
    """Most gaps between two words are wider than one space or hold a tab: the paste re-spaced the whole
    text.  An occasional wide gap is the tool's (aligned columns, the indentation after a per-line
    prefix: ``E build:   File "..."``) and stays."""
    wide = len(_SPACE_RUN.findall(text))
    return wide > 0 and wide >= len(_ONE_SPACE.findall(text))


def _entity(m: re.Match[str]) -> str:
    """The character an HTML entity stands for (the entity as written when it names none)."""
    if m.group(1):
        return _NAMED[m.group(1)]
    code = int(m.group(2), 10) if m.group(2) else int(m.group(3), 16)
    return chr(code) if _printable(code) else m.group()


def _printable(code: int) -> bool:
    """A code point a message may hold: a tab, a line end or any character but a control or a surrogate."""
    return code in (0x09, 0x0A) or (0x20 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF)


def _unquoted(text: str) -> str:
    """``text`` without Markdown's quote marks when every line that holds anything carries one."""
    for _ in range(MAX_QUOTE_LEVELS):
        lines = text.split("\n")
        if not all(_QUOTE_MARK.match(line) or not line.strip() for line in lines):
            break
        text = "\n".join(_QUOTE_MARK.sub("", line, count=1) for line in lines)
    return text


def _hard_wraps_joined(text: str, widths: list[int]) -> str:
    """``text`` with the pieces of each line a terminal cut joined back (``widths``: each line's width as
    the terminal showed it, a logger's header included when one was removed since)."""
    lines = text.split("\n")
    if not any(width in WRAP_WIDTHS for width in widths[:-1]):
        return text
    out = [lines[0]]
    pieces = 1
    for above, line, width in zip(lines, lines[1:], widths, strict=False):
        if pieces < MAX_WRAPPED and _cut(above, line, width):
            out[-1] += line
            pieces += 1
        else:
            out.append(line)
            pieces = 1
    return "\n".join(out)


def _cut(above: str, line: str, width: int) -> bool:
    """``above`` is a piece of a line a terminal cut, ``line`` its next piece: ``above`` is exactly as wide
    as a terminal and ends in a letter or digit, ``line`` goes on with a lower-case word or one space and a
    word, a quote or a ``#`` (:data:`_GOES_ON`), and starts no record of its own (:data:`_RECORD_START`).
    On the dev messages as pasted, 33 of the lines of one of those widths were followed by the tool's own
    next line (an indented frame, ``I rknn building``, ``[8] Assertion failed``, ``}``): a cut falls
    inside a word or at a space, so the next piece goes on in lower case or after that space."""
    return (
        width in WRAP_WIDTHS
        and above[-1:].isalnum()
        and _GOES_ON.match(line) is not None
        and _RECORD_START.match(line) is None
    )


_PASTED = {
    "'": "['\u2018\u2019\u201a]",
    '"': '["\u201c\u201d\u201e]',
    " ": "[ \t\u00a0\u2002\u2003\u2007\u2009\u202f]+",
    "\n": "\r?\n",
}
"""What a character of the printed text may have been in the paste (a run of spaces is one space)."""


def captures_as_pasted(captures: tuple[tuple[str, str], ...], pasted: str) -> tuple[tuple[str, str], ...]:
    """``captures`` read from :func:`as_printed`'s text, each as ``pasted`` holds it when it is there with
    other quotes, spaces or line ends only (the first such place); else as captured."""
    return tuple((name, _as_pasted(value, pasted)) for name, value in captures)


def _as_pasted(value: str, pasted: str) -> str:
    if not value or value in pasted:
        return value
    found = re.search("".join(_PASTED.get(ch) or re.escape(ch) for ch in value), pasted)
    return found.group() if found is not None else value
