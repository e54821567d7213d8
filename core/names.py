"""Tensor names <-> file names.

Real tensor names contain ``/ . : @`` and worse.  Our own dumps store each tensor
under a *safe and reversible* file name: every byte outside ``[A-Za-z0-9_.~-]`` is
percent-encoded (``%`` itself too), a leading dot is encoded so no file is hidden,
and names too long for a file system are shortened with a hash (the manifest keeps
the true name, so nothing is lost).

Ascend tools instead *replace* ``.``, ``/``, ``\\`` and space by ``_`` (lossy); pairing
uses :func:`ascend_sanitise` to match such names.
"""

from __future__ import annotations

import re

from dumpscope.core.lazyre import LazyPattern

MAX_STEM = 180  # bytes; leaves room for suffixes under the usual 255-byte limit


def to_filename(name: str, suffix: str = ".npy") -> str:
    """Encode a tensor name as a file name that :func:`from_filename` reverses.

    Names longer than :data:`MAX_STEM` bytes once encoded are cut and tagged
    with a hash of the full name; they are not reversible from the file name
    alone, which is why every dump we write also has a manifest.
    """
    from urllib.parse import quote  # here: urllib (and ipaddress behind it) are no cost of an explain start

    # quote() keeps only letters, digits and "_.-~"; everything else becomes %XX.
    stem = quote(name, safe="", encoding="utf-8", errors="surrogateescape")
    if stem.startswith("."):
        stem = "%2E" + stem[1:]
    if not stem:
        stem = "%00empty"
    if len(stem) > MAX_STEM:
        import hashlib  # only for over-long names: not a cost of every start

        digest = hashlib.sha1(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]
        stem = f"{stem[: MAX_STEM - 20]}~{digest}"
    return stem + suffix


def from_filename(stem: str) -> str:
    """Reverse :func:`to_filename` (given the file name without its suffix)."""
    from urllib.parse import unquote

    if stem == "%00empty":
        return ""
    return unquote(stem, encoding="utf-8", errors="surrogateescape")


_ASCEND_RE = LazyPattern(r"[./\\ ]")


def ascend_sanitise(name: str) -> str:
    """The lossy replacement Ascend applies to op names in dump file names."""
    return _ASCEND_RE.sub("_", name)


def display(name: str) -> str:
    """Valid UTF-8 text for a name that may hold undecodable bytes (surrogate escapes).

    Undecodable bytes become ``\\xNN``, so two names that differ only in such bytes
    still read differently; Polars, JSON and terminals then accept the text.
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


#: What never reaches a reader raw: C0 controls, DEL, the C1 controls (``\x9b`` is a CSI) and the
#: bidirectional controls (U+061C, U+200E/F, U+202A-U+202E, U+2066-U+2069: "Trojan Source" reordering).
_UNPRINTABLE = "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
#: The same, keeping tab and newline (multi-line messages).
_UNPRINTABLE_LINES = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
_COMPILED: dict[str, re.Pattern[str]] = {}


def _class(source: str) -> re.Pattern[str]:
    """One of this module's character classes, compiled on first use: a class of non-Latin-1 characters
    costs ~0.3 ms to compile, and a command uses one or two of the three."""
    pattern = _COMPILED.get(source)
    if pattern is None:
        pattern = _COMPILED[source] = re.compile(source)
    return pattern


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, lines: bool = False) -> str:
    """:func:`display` of ``text`` with every control character shown as an escape: ``\\x1b``,
    ``\\x9b``, ``\\u202e``. The one form of a name (or a message) in every output meant to be read:
    the terminal table, CSV (to a terminal or a file), Markdown, the UI, stderr.  ``lines`` keeps
    tab and newline (messages).  JSON and Parquet keep the exact name instead (JSON's own escapes).
    Printable text comes back as it is."""
    if not text.isascii():
        text = display(text)
    elif _printable_ascii(text, lines):
        return text  # decided without compiling a class (~0.3 ms of every explain that printed its answer)
    pattern = _class(_UNPRINTABLE_LINES if lines else _UNPRINTABLE)
    return pattern.sub(_escape, text) if pattern.search(text) else text


def _printable_ascii(text: str, lines: bool) -> bool:
    """Whether an ASCII text holds none of the characters :func:`printable` escapes: in ASCII those are
    the C0 controls and DEL, exactly what ``str.isprintable`` refuses (tab and newline kept for ``lines``)."""
    return (text.replace("\t", "").replace("\n", "") if lines else text).isprintable()


#: What JSON's own escaping lets through raw when ``ensure_ascii=False``: DEL, C1, bidi controls.
_JSON_UNSAFE = "[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"


def json_safe(text: str) -> str:
    """JSON text written with ``ensure_ascii=False`` (readable CJK), with the characters JSON does
    not escape but a terminal acts on (C1 controls, bidi controls) as ``\\uXXXX``: still the same
    JSON value, since such characters can only stand inside its strings."""
    if text.isascii() and "\x7f" not in text:
        return text  # in ASCII only DEL is unsafe: decided without compiling the class
    unsafe = _class(_JSON_UNSAFE)
    return unsafe.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if unsafe.search(text) else text
