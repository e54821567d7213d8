"""What a reader may open inside a dump folder, and how it walks one.

The rules every reader follows (the README section "What dumpscope reads and writes"):

* **Only files inside the dump folder are read.**  A path named by a file of the dump
  (``manifest.json``'s ``"file"``, ``mapping.csv``) is resolved; an absolute path, a
  ``..`` that climbs out, or a symbolic link whose target lies outside the folder is
  refused: that tensor's row says why, the rest of the dump is read.
* **Symbolic links inside a dump are followed only when they stay inside it.**  A link
  to a file elsewhere in the same dump is read like the file; a link leading outside
  is not followed and is reported; a link to a folder is never descended (no loops).
* **Only regular files are opened.**  A FIFO, socket or device node is skipped with a
  note, never opened (opening a FIFO would block forever).
* **Walks are bounded.**  Folders deeper than the reader's limit are not entered (and
  said); walking is iterative, so a folder nested thousands deep cannot overflow the
  stack.
* Text side files are read line by line with a per-line limit (:func:`read_csv_rows`),
  JSON with a size limit and deep nesting reported as an error (:func:`load_json`).
"""

from __future__ import annotations

import csv
import functools
import json
import operator
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Literal, TextIO, TypeVar, cast, overload

from dumpscope.core.dumps import DumpProblem

#: Lines of a side CSV (mapping.csv) longer than this are skipped with a note.
MAX_CSV_LINE = 64 << 10
#: A JSON side file (manifest.json) larger than this is refused.
MAX_JSON_BYTES = 256 << 20


P = TypeVar("P", Path, str)
"""How a walk gives its files (:func:`walk_files`)."""


def _real(path: Path | str) -> str:
    return os.path.realpath(path)


@functools.lru_cache(maxsize=64)
def _real_root(root: str) -> str:
    return os.path.realpath(root)


def is_inside(root: Path, path: Path) -> bool:
    """Whether ``path``, with every symbolic link resolved, lies inside ``root``."""
    return _real_inside(root, _real(path))


def _real_inside(root: Path, real: str) -> bool:
    """Whether the resolved path ``real`` lies inside ``root``."""
    real_root = _real_root(str(root))
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def _resolves_inside(root: Path, path: Path, real_dirs: dict[str, str] | None) -> bool:
    """:func:`is_inside`, resolving each folder once (``real_dirs``: folder -> its resolved path,
    kept by the caller for one pass over a dump's index): a file that is not itself a link
    resolves to its folder's real path plus its name.  A 100k-entry manifest made ~7
    ``lstat`` calls per entry, one for each level of the absolute path."""
    if real_dirs is None or path.name in ("", ".", "..") or os.path.islink(path):
        return is_inside(root, path)
    parent = str(path.parent)
    if parent not in real_dirs:
        real_dirs[parent] = _real(parent)
    return _real_inside(root, os.path.join(real_dirs[parent], path.name))


#: Special file types and what a note calls them (anything else not regular: "not a regular file").
_SPECIAL_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def _kind(mode: int) -> str:
    return next((name for is_kind, name in _SPECIAL_KINDS if is_kind(mode)), "not a regular file")


def regular_file_problem(root: Path, path: Path) -> str | None:
    """Why ``path`` must not be opened as a file of the dump at ``root`` (None: it may)."""
    try:
        return _outside_link_problem(root, path) or _mode_problem(os.stat(path).st_mode)
    except (OSError, ValueError) as exc:
        return f"cannot read: {getattr(exc, 'strerror', None) or exc}"


def _outside_link_problem(root: Path, path: Path) -> str | None:
    """A symbolic link whose target lies outside the dump folder is not followed."""
    if path.is_symlink() and not is_inside(root, path):
        return f"a symbolic link leading outside the dump folder (to {_real(path)}); not followed"
    return None


def _mode_problem(mode: int) -> str | None:
    return None if stat.S_ISREG(mode) else f"{_kind(mode)}; skipped, never opened"


def member_path(
    root: Path, rel: object, real_dirs: dict[str, str] | None = None
) -> tuple[Path | None, str | None]:
    """``(path, None)`` for a file a dump's own index names, or ``(None, reason)``.

    ``rel`` must be a relative path that stays inside ``root`` once resolved; the checks
    of :data:`_MEMBER_CHECKS` run in order and the first that objects speaks.  A caller
    naming many files passes the same ``real_dirs`` dict each time: each folder is then
    resolved once (see :func:`_resolves_inside`).
    """
    if not isinstance(rel, str) or not rel:
        return None, f"the file field is {type(rel).__name__} {str(rel)[:60]!r}, not a relative path"
    why = name_problem(rel) or _link_out_problem(root, rel, real_dirs)
    return (None, why) if why is not None else (root / rel, None)


def name_problem(rel: str) -> str | None:
    """Why the relative name ``rel`` cannot name a file inside its folder, from the text alone
    (:data:`_MEMBER_CHECKS`: a NUL byte, an absolute path, a ``..`` that climbs out); None: it can."""
    for check in _MEMBER_CHECKS:
        why = check(_NO_ROOT, rel)
        if why is not None:
            return why
    return None


def _nul_problem(root: Path, rel: str) -> str | None:
    return "the file name holds a NUL byte; refused" if "\0" in rel else None


def _absolute_problem(root: Path, rel: str) -> str | None:
    if os.path.isabs(rel):
        return f"{rel[:200]!r} is an absolute path; only files inside the dump folder are read"
    return None


def _climbing_problem(root: Path, rel: str) -> str | None:
    """A path whose first component, once normalised, is ``..``."""
    if os.path.normpath(rel).split(os.sep, 1)[0] == "..":
        return f"{rel[:200]!r} leads outside the dump folder; refused"
    return None


def _link_out_problem(root: Path, rel: str, real_dirs: dict[str, str] | None = None) -> str | None:
    """A symbolic link on the way that leads out (a plain name needs no realpath unless it is a link)."""
    path = root / rel
    if os.sep not in os.path.normpath(rel) and not os.path.islink(path):
        return None
    if _resolves_inside(root, path, real_dirs):
        return None
    return f"{rel[:200]!r} goes through a symbolic link leading outside the dump folder; not followed"


_NO_ROOT = Path()
#: The checks of :func:`member_path` before the symbolic-link one (:func:`_link_out_problem`).
_MEMBER_CHECKS = (_nul_problem, _absolute_problem, _climbing_problem)


@dataclass
class Walk(Generic[P]):
    """The files a bounded walk found, and what it skipped (with the reason).  The files are
    :class:`~pathlib.Path` objects, or their text (``walk_files(..., text=True)``)."""

    files: list[P] = field(default_factory=list)
    skipped: list[DumpProblem] = field(default_factory=list)
    refused: dict[P, str] = field(default_factory=dict)
    """Files listed in ``files`` that must not be opened (a symbolic link leading out, a
    dangling one): the reader gives each a row with this reason, so the tensor is not lost."""
    entries: int = 0
    """Folder entries listed so far (files and folders)."""
    folders: int = 0
    """Folders listed so far (each once)."""
    cut_short: bool = False
    """The walk stopped at a bound (:data:`MAX_WALK_ENTRIES`, :data:`MAX_WALK_FOLDERS`): ``files``
    is not the whole folder."""

    def whole(self, root: Path) -> Walk[P]:
        """This walk, when it listed the whole folder; a DumpError (one line) when it was cut short:
        a reader never gives part of a folder as if it were all of it."""
        if self.cut_short:
            from dumpscope.core.dumps import DumpError

            raise DumpError(
                f"{root}: more than {self.folders - 1:,} folders ({self.entries:,} entries) "
                "within it, not a dump folder (give the dump's own folder)"
            )
        return self


#: The most folder entries one walk lists (files and folders together): a dump folder (one rank of one
#: step) is well under it; ``/``, ``/proc`` or a home folder is not, and is refused after this much.
MAX_WALK_ENTRIES = 1_000_000
#: The most folders one walk lists: dumps keep their files in few folders (per step, rank, device);
#: ``/`` holds some 60,000.
MAX_WALK_FOLDERS = 10_000
#: A sniffer's look into a folder: at most this many entries listed (cheap on ``/`` or ``/proc``).
SNIFF_ENTRIES = 20_000


@overload
def walk_files(
    root: Path,
    wanted: Callable[[str], bool],
    max_depth: int,
    *,
    skip_hidden: bool = ...,
    max_entries: int = ...,
    stop_after: int | None = ...,
    text: Literal[False] = ...,
) -> Walk[Path]: ...
@overload
def walk_files(
    root: Path,
    wanted: Callable[[str], bool],
    max_depth: int,
    *,
    skip_hidden: bool = ...,
    max_entries: int = ...,
    stop_after: int | None = ...,
    text: Literal[True],
) -> Walk[str]: ...
def walk_files(
    root: Path,
    wanted: Callable[[str], bool],
    max_depth: int,
    *,
    skip_hidden: bool = False,
    max_entries: int = MAX_WALK_ENTRIES,
    stop_after: int | None = None,
    text: bool = False,
) -> Walk[Path] | Walk[str]:
    """Regular files under ``root`` whose name ``wanted`` accepts, depth-first in name order.

    Iterative (no recursion), at most ``max_depth`` folders deep, never entering a
    symbolic link to a folder, each folder listed once.  A FIFO, socket or device is skipped
    with a note; a file symlink leading out (or dangling) is listed with its reason in
    ``refused``.  Bounded: after ``max_entries`` entries listed the walk stops with
    ``cut_short`` (a reader calls :meth:`Walk.whole`); a sniffer stops at ``stop_after`` files.
    ``text``: each file as the text of its path (``str(path)``, the same characters), no
    :class:`~pathlib.Path` made (~1 us a file, more than the reader's own ``stat``).
    """
    walker: _Walker[Path] | _Walker[str] = _Walker(root, wanted, max_depth, skip_hidden, text)
    stack: list[tuple[Path, int]] = [(root, 0)]
    walk = walker.walk
    while stack:
        stack.extend(walker.subfolders(*stack.pop()))
        if stop_after is not None and len(walk.files) >= stop_after:
            break
        if walk.entries > max_entries or walk.folders > MAX_WALK_FOLDERS:
            walk.cut_short = True
            break
    return walk


@dataclass
class _Walker(Generic[P]):
    """One bounded walk: lists a folder, records its entries in :attr:`walk`, returns where to go next."""

    root: Path
    wanted: Callable[[str], bool]
    max_depth: int
    skip_hidden: bool
    text: bool = False
    """The files as text (:func:`walk_files`)."""
    walk: Walk[P] = field(default_factory=Walk)

    def subfolders(self, folder: Path, depth: int) -> list[tuple[Path, int]]:
        """Record the entries of ``folder``; its subfolders to walk next (last first, for the stack)."""
        listing = self._listing(folder)
        if listing is None:
            return []
        names, kinds = listing
        base, wanted, hidden = os.path.join(folder, ""), self.wanted, self.skip_hidden
        child = cast("Callable[[str], P]", child_text_maker(folder) if self.text else _child_maker(folder))
        self.walk.files.extend(
            child(n)
            for n, k in zip(names, kinds, strict=True)
            if k == _FILE and wanted(n) and not (hidden and n[:1] == ".")
        )
        subdirs: list[str] = []
        if kinds.count(_FILE) < len(kinds):  # folders, links, FIFOs: each by its kind
            for name, kind in zip(names, kinds, strict=True):
                if hidden and name[:1] == ".":
                    continue
                if kind == _DIR:
                    subdirs.append(name)
                elif kind == _DIR_LINK:
                    self.walk.skipped.append(
                        DumpProblem(base + name, "a symbolic link to a folder; not followed")
                    )
                elif kind == _OTHER and wanted(name):
                    _visit_other(self.root, Path(base + name), self.walk, child(name))
        if subdirs and depth + 1 > self.max_depth:
            self.walk.skipped.append(
                DumpProblem(str(folder), f"folders nested deeper than {self.max_depth} levels; not read")
            )
            return []
        return [(Path(base + name), depth + 1) for name in reversed(subdirs)]

    def _listing(self, folder: Path) -> tuple[Sequence[str], bytes] | None:
        """The folder's names in order and their kinds; None (and a note) when it cannot be listed."""
        try:
            names, kinds = list_folder(folder)
        except OSError as exc:
            self.walk.skipped.append(
                DumpProblem(str(folder), f"cannot list the folder: {exc.strerror or exc}")
            )
            return None
        self.walk.entries += len(names)
        self.walk.folders += 1
        return names, kinds


_CHILD_OF = getattr(Path, "_make_child_relpath", None)
"""pathlib's own way to name an entry of a listed folder (what ``Path.iterdir`` uses): the parent's
parsed parts plus the name, where ``Path(text)`` parses the whole path again: walking a folder of
100k ``.npy`` files took 0.55 CPU s, now 0.23-0.25 (the parent's serial time, twice per compare).
Private to pathlib, so looked up once, and the plain constructor is used where a Python lacks it."""


def _child_maker(folder: Path) -> Callable[[str], Path]:
    """A function naming an entry ``name`` of ``folder`` (a name from its listing: one part, no
    separator) as ``Path(os.path.join(folder, name))`` would, only cheaper (see :data:`_CHILD_OF`)."""
    if _CHILD_OF is not None and type(folder) is type(Path()):
        return functools.partial(_CHILD_OF, folder)
    base = os.path.join(folder, "")
    return lambda name: Path(base + name)


def child_text_maker(folder: Path) -> Callable[[str], str]:
    """A function giving ``str(folder / name)`` for an entry ``name`` of ``folder`` without making
    the Path (``Path(".") / name`` is ``name``: the only folder whose text is not its prefix)."""
    text = str(folder)
    return (os.path.join(text, "") if text != "." else "").__add__


#: Entry kinds of a listing (:func:`list_folder`): a folder, a symbolic link to a folder, a regular
#: file (known from the listing: no system call) and anything else (a file link, a FIFO...).
_DIR, _DIR_LINK, _FILE, _OTHER = range(4)
FOLDER, FOLDER_LINK, FILE, OTHER = (
    _DIR,
    _DIR_LINK,
    _FILE,
    _OTHER,
)  # (what callers of list_folder compare with)
_LISTINGS: ContextVar[dict[str, tuple[list[str], bytes]] | None] = ContextVar("listings", default=None)


@contextmanager
def shared_listings() -> Iterator[None]:
    """Within it (in this thread), each folder is listed once: every format's sniffer and the
    reader share :func:`list_folder`'s listing (a dump folder of 100k files was listed, sorted
    and classified a dozen times to open it).  Nested uses share the outer one; it is dropped
    at the end, so a later open sees the folder as it is then."""
    if _LISTINGS.get() is not None:
        yield
        return
    token = _LISTINGS.set({})
    try:
        yield
    finally:
        _LISTINGS.reset(token)


_NAME = operator.attrgetter("name")


def list_folder(folder: str | Path) -> tuple[list[str], bytes]:
    """The names in ``folder`` in name order and each one's kind (``_DIR``, ``_DIR_LINK``,
    ``_FILE``, ``_OTHER``), from one ``scandir`` (shared within :func:`shared_listings`).
    OSError when it cannot be listed."""
    cache, key = _LISTINGS.get(), os.fspath(folder)
    if cache is not None and key in cache:
        return cache[key]
    with os.scandir(folder) as it:
        entries = sorted(it, key=_NAME)  # (a C getter: a lambda per entry cost ~0.3 s at 100k entries)
    listing = [e.name for e in entries], bytes(map(_entry_kind, entries))
    if cache is not None:
        cache[key] = listing
    return listing


def _entry_kind(entry: os.DirEntry[str]) -> int:
    """The entry's kind (from the listing's file type: no system call for the usual entries;
    a regular file, by far the most common entry of a dump, is told by its first question)."""
    try:
        if entry.is_file(follow_symlinks=False):
            return _FILE
        if entry.is_dir(follow_symlinks=False):
            return _DIR
        return _DIR_LINK if entry.is_symlink() and entry.is_dir() else _OTHER
    except OSError:
        return _OTHER


def _visit_other(root: Path, path: Path, walk: Walk[P], listed: P) -> None:
    """A symbolic link to a file (listed as ``listed``: the path as the walk gives its files;
    refused when it leads out) or a FIFO/socket/device (skipped)."""
    problem = regular_file_problem(root, path)
    if problem is None or path.is_symlink():
        walk.files.append(listed)
        if problem is not None:
            walk.refused[listed] = problem
    else:
        walk.skipped.append(DumpProblem(str(path), problem))


def read_csv_rows(path: Path, max_line: int = MAX_CSV_LINE) -> Iterator[tuple[int, list[str] | str]]:
    """``(line number, fields)`` per line of a small CSV, or ``(line number, reason)`` for a bad line.

    Reads line by line (memory bounded by ``max_line``); a line longer than that or one
    the csv module rejects is reported and skipped, the rest is read.
    """
    with open(path, "rb") as fh:
        for number, raw in enumerate(_bounded_lines(fh, max_line), start=1):
            if raw is None:
                yield number, f"line over {max_line // 1024} KiB; skipped"
                continue
            try:
                yield number, next(csv.reader([raw.decode("utf-8", "surrogateescape")]), [])
            except csv.Error as exc:
                yield number, f"not CSV ({exc}); skipped"


def _bounded_lines(fh, max_line: int) -> Iterator[bytes | None]:
    """Lines of ``fh`` without their end; None for a line longer than ``max_line`` (never held whole)."""
    while True:
        line = fh.readline(max_line + 1)
        if not line:
            return
        if len(line) > max_line and not line.endswith(b"\n"):
            _skip_rest_of_line(fh, line)
            yield None
            continue
        yield line.rstrip(b"\r\n")


def _skip_rest_of_line(fh, line: bytes) -> None:
    """Read past the end of an over-long line, 1 MiB at a time."""
    while line and not line.endswith(b"\n"):
        line = fh.readline(1 << 20)


def load_json(path: Path, max_bytes: int = MAX_JSON_BYTES) -> object:
    """Parse a JSON side file; raise ValueError with the reason (too big, too deep, not JSON...)."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise ValueError(f"{_kind(mode)}; not opened")
    size = os.stat(path).st_size
    if size > max_bytes:
        raise ValueError(f"{size} bytes, more than the {max_bytes >> 20} MiB dumpscope reads")
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        return json.loads(data.decode("utf-8", "surrogateescape"))
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _utf8_len(text: str) -> int:
    """The UTF-8 length of ``text`` (its length when it is ASCII: no copy)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True)
class StringSpan:
    """A JSON string :meth:`JsonStream.string_or_span` stepped over: its body's UTF-8 byte
    offset and length in the file, and whether it holds a backslash escape (then the body is
    JSON-decoded when read; without one it is the bytes themselves)."""

    offset: int
    length: int
    escaped: bool


class JsonTooDeep(ValueError):
    """A JSON value nested too deeply to decode; :meth:`JsonStream.value` skipped it whole."""


#: Characters :class:`JsonStream` reads at a time (more while one value is incomplete).
JSON_CHUNK = 1 << 20
_WS = re.compile(r"[ \t\n\r]*")
_STRUCTURE = re.compile(r'[\[\]{}"]')
_STRING_END = re.compile(r'["\\]')
_NUMBERS = (int, float)
#: A name without escapes and its colon, whole in the buffer; a comma followed by more of the object.
_PLAIN_KEY = re.compile(r'[ \t\n\r]*"([^"\\\x00-\x1f]*)"[ \t\n\r]*:')
_NEXT = re.compile(r'[ \t\n\r]*,(?=[ \t\n\r]*")')
#: What may follow a whole value.
_AFTER_VALUE = frozenset(" \t\n\r,]}:")


class JsonStream:
    """A JSON text read incrementally: an object's members one at a time, each value decoded
    only once it is whole, so memory follows the largest value, not the file.

    ``begin_object()`` enters the top object; ``members()`` yields its keys and, after each,
    the caller takes the value with ``value()`` (decoded) or, when ``next_is("{")``, enters
    it with ``begin_object()`` and walks its own ``members()``.  A value nested too deeply
    for the decoder is skipped whole and :class:`JsonTooDeep` raised (the stream goes on);
    any other malformation (a file cut short included) is a ValueError that ends the stream.
    Bare ``NaN`` / ``Infinity`` / ``-Infinity`` are read as floats, as ``json.loads`` does.
    """

    def __init__(self, fh: TextIO, chunk: int = JSON_CHUNK) -> None:
        self._fh, self._chunk = fh, chunk
        self._buf, self._pos, self._done = "", 0, 0
        self._bytes_done = 0  # UTF-8 bytes of the text consumed before ``_buf`` (:meth:`byte_offset`)
        self._eof = False
        self._decoder = json.JSONDecoder()

    @property
    def offset(self) -> int:
        """Characters read and consumed so far (for messages)."""
        return self._done + self._pos

    def _more(self) -> bool:
        """Read more text after what is left unconsumed; False at the end of the file."""
        if self._eof:
            return False
        text = self._fh.read(max(self._chunk, len(self._buf) - self._pos))
        if not text:
            self._eof = True
            return False
        self._done += self._pos
        self._bytes_done += _utf8_len(self._buf[: self._pos])
        self._buf, self._pos = self._buf[self._pos :] + text, 0
        return True

    def byte_offset(self) -> int:
        """The UTF-8 byte offset of the next character in the file (what ``seek`` takes; the
        stream is read as UTF-8 text opened with ``newline=""``, so no line end is translated)."""
        return self._bytes_done + _utf8_len(self._buf[: self._pos])

    def _peek(self) -> str:
        """The next character that is not white space ('' at the end)."""
        while True:
            self._pos = _WS.match(self._buf, self._pos).end()  # type: ignore[union-attr]  # [ \t\n\r]* always matches
            if self._pos < len(self._buf):
                return self._buf[self._pos]
            if not self._more():
                return ""

    def next_is(self, char: str) -> bool:
        return self._peek() == char

    def _expect(self, char: str) -> None:
        found = self._peek()
        if found != char:
            raise ValueError(
                f"expected {char!r} at character {self.offset}, found {found[:1]!r}"
                if found
                else f"cut short at character {self.offset} (expected {char!r})"
            )
        self._pos += 1

    def begin_object(self) -> None:
        self._expect("{")

    def begin_array(self) -> None:
        self._expect("[")

    def items(self) -> Iterator[None]:
        """One step per element of the array just entered; the caller consumes each element."""
        if self._peek() == "]":
            self._pos += 1
            return
        while True:
            yield None
            found = self._peek()
            self._pos += 1
            if found == "]":
                return
            if found != ",":
                raise ValueError(
                    f"expected ',' or ']' at character {self.offset - 1}, found {found[:1]!r}"
                    if found
                    else f"cut short at character {self.offset}"
                )

    def at_end(self) -> bool:
        """Nothing but white space is left (after the top value: anything else is extra data)."""
        return self._peek() == ""

    def string_or_span(self, inline: int) -> str | StringSpan:
        """The next value, a string: decoded when it ends within ``inline`` characters, else
        stepped over without being held (read and dropped a chunk at a time) and returned as
        its place in the file (:class:`StringSpan`): a gigabyte of base64 costs one chunk."""
        if self._peek() != '"':
            raise ValueError(f"expected a string at character {self.offset}")
        while len(self._buf) - self._pos < inline + 2 and self._more():
            pass
        i, limit = self._pos + 1, min(len(self._buf), self._pos + inline + 2)
        while (m := _STRING_END.search(self._buf, i, limit)) is not None:
            if m.group() == '"':
                return self.value()  # type: ignore[return-value]  # a string token's value is a str
            i = m.end() + 1
        return self._span()

    def _span(self) -> StringSpan:
        """Step over the string whose opening quote is next; its body's place in the file."""
        self._pos += 1
        start, escaped, i = self.byte_offset(), False, self._pos
        while True:
            m = _STRING_END.search(self._buf, i)
            if m is not None and m.group() == '"':
                self._pos = m.start()
                length = self.byte_offset() - start
                self._pos = m.end()
                return StringSpan(start, length, escaped)
            if m is not None and m.end() < len(self._buf):
                escaped, i = True, m.end() + 1  # an escape: the character after it is not an end
                continue
            # the end of what is read (or an escape cut by it): what was scanned is dropped, read on
            escaped = escaped or m is not None
            self._pos = len(self._buf) if m is None else m.start()
            if not self._more():
                raise ValueError(f"cut short at character {self.offset} (in a string)")
            i = self._pos if m is None else self._pos + 2  # (the escape and its character)

    def members(self) -> Iterator[str]:
        """The keys of the object just entered; the caller consumes each value before the next key."""
        if self._peek() == "}":
            self._pos += 1
            return
        while True:
            yield self._key()
            m = _NEXT.match(self._buf, self._pos)  # the usual ", " between members, without _peek
            if m is not None:
                self._pos = m.end()
                continue
            found = self._peek()
            self._pos += 1
            if found == "}":
                return
            if found != ",":
                raise ValueError(
                    f"expected ',' or '}}' at character {self.offset - 1}, found {found[:1]!r}"
                    if found
                    else f"cut short at character {self.offset}"
                )

    def _key(self) -> str:
        """A member's name and its colon (a plain name by one regular expression)."""
        m = _PLAIN_KEY.match(self._buf, self._pos)
        if m is not None:
            self._pos = m.end()
            return m.group(1)
        key = self.value()
        if not isinstance(key, str):
            raise ValueError(f"expected a member name at character {self.offset}")
        self._expect(":")
        return key

    def value(self) -> object:
        """The next value, decoded (it is read whole first: a number at the end of what is
        read might go on)."""
        self._peek()
        while True:
            try:
                obj, end = self._decoder.raw_decode(self._buf, self._pos)
            except RecursionError:
                self._skip()
                raise JsonTooDeep("nested too deeply") from None
            except json.JSONDecodeError as exc:
                if self._more():
                    continue
                raise ValueError(f"{exc.msg} at character {self._done + exc.pos}") from None
            if (
                end == len(self._buf) or obj.__class__ in _NUMBERS and self._buf[end] not in _AFTER_VALUE
            ) and self._more():
                continue  # a number may go on past what is read ("1.5" of "1.5e3"): read on, decode again
            self._pos = end
            return obj

    def _skip(self) -> None:
        """Step over the array or object that starts here (strings honoured), however deep."""
        depth, i = 0, self._pos
        while True:
            m = _STRUCTURE.search(self._buf, i)
            if m is None:
                i = self._refill(len(self._buf))
                continue
            i, char = m.end(), m.group()
            if char == '"':
                i = self._skip_string(i)
                continue
            depth += 1 if char in "[{" else -1
            if depth == 0:
                self._pos = i
                return

    def _skip_string(self, i: int) -> int:
        """The index after the string whose body starts at ``i``."""
        while True:
            m = _STRING_END.search(self._buf, i)
            if m is None or m.group() == "\\" and m.end() >= len(self._buf):
                i = self._refill(len(self._buf) if m is None else m.start())
                continue
            if m.group() == '"':
                return m.end()
            i = m.end() + 1

    def _refill(self, i: int) -> int:
        """Read more for a scan stopped at ``i``; the same place afterwards (ValueError at the end)."""
        start = self._pos
        if not self._more():
            raise ValueError(f"cut short at character {self._done + len(self._buf)}")
        return i - start
