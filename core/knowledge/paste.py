"""A pasted message read as its tool printed it: what a terminal, a forum or an editor did to it undone.

Users paste messages re-wrapped, re-spaced, quoted and escaped; an entry's pattern, written from one paste,
then misses the same message pasted another way and a card or another tool answers.  :func:`as_printed`
undoes, once per look-up, the forms that cannot be the tool's own text:

* CRLF line ends (a Windows terminal or editor) read as LF;
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
  the 2 real cuts among them.

Not undone: an editor's word wrap (lines broken at the last space before 70-80 columns).  Joining a line
to the next where that next line's first word would not have fit (and it starts in lower case, the line
nearly full) took the word-wrapped form's changed records from 384 to 266, but joined 5 dev messages as
pasted that no wrap had broken (``...infer_request.cpp:224:`` + ``invalid unordered_map<K, T> key``,
``vkCreateDevice failed -4`` after a line of 74 characters): a look-up has no way back from a wrong join.

Measured with ``bench/paste_forms.py``: each form applied to the 1,044 dev records whose top entry is
found by its pattern, the records whose top entry changed (family changed), before -> after: hard wrap at
80 columns 392 (14) -> 149 (7); word wrap 384 (14) -> 386 (14); spaces doubled 878 (65) -> 5 (0); tabs
between words 882 (60) -> 5 (0); no-break spaces 883 (59) -> 0; CRLF 13 -> 0; Markdown quote 24 -> 0;
HTML entities 177 (13) -> 0; smart quotes 147 (12) -> 0; a log prefix on every line 28 (1) and tag
colons spaced 6 (1) unchanged; spaces collapsed 5 (0) both.  Dev family@1 and code@3 of every file
unchanged (1,080/1,084, 356/357).

A text that holds none of these forms is returned as it is (the same object), so its captures are the
user's exact text.  Where a form was undone, each captured part is shown as the user's text holds it when
it differs from it only by quotes, spaces and line ends (:func:`captures_as_pasted`: Apple's own
``couldn’t`` stays typographic); HTML entities stay decoded (the page's escaping, not the message's
text).
"""

from __future__ import annotations

import re

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


def as_printed(text: str) -> str:
    """``text`` with the forms of a paste undone (see the module docstring); ``text`` itself when it
    holds none."""
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    if ">" in text:
        text = _unquoted(text)
    if "&" in text:
        text = _ENTITY.sub(_entity, text)
    if not text.isascii() and _TYPOGRAPHIC_CHAR.search(text) is not None:
        text = text.translate(_TYPOGRAPHIC_TABLE)
    if ("  " in text or "\t" in text) and _respaced(text):
        text = _SPACE_RUN.sub(" ", text)
    return _hard_wraps_joined(text) if "\n" in text else text


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


def _hard_wraps_joined(text: str) -> str:
    """``text`` with the pieces of each line a terminal cut joined back."""
    lines = text.split("\n")
    if not any(len(line) in WRAP_WIDTHS for line in lines[:-1]):
        return text
    out = [lines[0]]
    pieces = 1
    for above, line in zip(lines, lines[1:], strict=False):
        if pieces < MAX_WRAPPED and _cut(above, line):
            out[-1] += line
            pieces += 1
        else:
            out.append(line)
            pieces = 1
    return "\n".join(out)


def _cut(above: str, line: str) -> bool:
    """``above`` is a piece of a line a terminal cut, ``line`` its next piece: ``above`` is exactly as wide
    as a terminal and ends in a letter or digit, ``line`` goes on with a lower-case word or one space and a
    word, a quote or a ``#`` (:data:`_GOES_ON`), and starts no record of its own (:data:`_RECORD_START`).
    On the dev messages as pasted, 33 of the lines of one of those widths were followed by the tool's own
    next line (an indented frame, ``I rknn building``, ``[8] Assertion failed``, ``}``): a cut falls
    inside a word or at a space, so the next piece goes on in lower case or after that space."""
    return (
        len(above) in WRAP_WIDTHS
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
