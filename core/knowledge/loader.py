"""Load the curated knowledge base (package data) and merge the user's own entries.

User entries come from ``<config>/kb/*.jsonl`` (``<config>``: :func:`dumpscope.core.paths.config_dir`,
``$DUMPSCOPE_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/dumpscope``, else ``~/.config/dumpscope``) and from
files given explicitly (``dumpscope explain --kb FILE``), in that order.  Same JSONL schema as the
built-in file.  Their ``origin`` is ``user:<file>``; an entry whose ``id`` equals an
earlier one replaces it (that is how a user corrects a built-in entry).  A bad line gives a
warning naming ``file:line`` and the rest still loads.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable
from functools import lru_cache

from dumpscope.core.knowledge.entry import Entry, EntryError, entry_from_dict
from dumpscope.core.knowledge.index import INDEX_FILE, CompiledIndex, read_index
from dumpscope.core.knowledge.kb import KnowledgeBase
from dumpscope.core.knowledge.package_data import package_buffer
from dumpscope.core.knowledge.package_data import package_bytes as _package_bytes
from dumpscope.core.paths import config_dir, config_dir_name

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from pathlib import Path

BUILTIN_FILE = "kb.jsonl"


def user_kb_dir() -> Path:
    """Where per-user KB files live: ``kb`` in :func:`~dumpscope.core.paths.config_dir` (the
    directory need not exist)."""
    return config_dir() / "kb"


@lru_cache(maxsize=1)
def builtin_entries() -> tuple[Entry, ...]:
    """The curated entries shipped with dumpscope (patterns are compiled on first use)."""
    lines = _package_bytes(BUILTIN_FILE).decode("utf-8").splitlines()
    entries, problems = parse_jsonl(lines, origin="builtin", label=BUILTIN_FILE, trusted=True)
    if problems:  # the test-suite keeps this from ever happening in a release
        raise RuntimeError("; ".join(problems))
    return tuple(entries)


@lru_cache(maxsize=2)
def builtin_index(mapped: bool = False) -> CompiledIndex | None:
    """The compiled index of the built-in file, or None when it is missing or stale
    (then every entry is parsed: slower, same answers).  ``mapped``: the built-in file is mapped into
    memory rather than read (:func:`~.package_data.package_buffer`: its few needed lines read in place,
    ~0.9 ms less than copying its 3.6 MB, and each checked when parsed rather than the whole file's CRC-32
    taken at start, :func:`~.index.read_index`'s ``by_line``), for a process that answers one message and ends
    (``explain MESSAGE``); a long-lived one (the UI, a log scan, a library user) keeps a copy of the bytes,
    which an edit of the file in place cannot change under it."""
    try:
        raw = _package_bytes(INDEX_FILE)
    except OSError:
        return None
    if mapped:  # and its lines checked as they are parsed, not the whole file now (read_index's by_line)
        return read_index(package_buffer(BUILTIN_FILE), raw, by_line=True)
    return read_index(_package_bytes(BUILTIN_FILE), raw)


def parse_jsonl(
    lines: Iterable[str], origin: str, label: str, trusted: bool = False
) -> tuple[list[Entry], list[str]]:
    """Entries of a JSONL text and one ``label:line: reason`` warning per bad line."""
    entries: list[Entry] = []
    problems: list[str] = []
    for number, line in enumerate(lines, 1):
        if _is_blank_or_comment(line):
            continue
        entry, problem = _parse_line(line, origin, trusted)
        if entry is None:
            problems.append(f"{label}:{number}: {problem}")
        else:
            entries.append(entry)
    return entries, problems


def _is_blank_or_comment(line: str) -> bool:
    return not line.strip() or line.lstrip().startswith("#")


def _parse_line(line: str, origin: str, trusted: bool) -> tuple[Entry | None, str]:
    """The entry of one JSONL line, or None and why not."""
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON ({exc.msg})"
    except RecursionError:
        return None, "JSON nested too deeply"
    try:
        return entry_from_dict(raw, origin=origin, trusted=trusted), ""
    except EntryError as exc:
        return None, str(exc)


#: A user KB file larger than this is skipped (the built-in KB is well under 1 MiB).
MAX_USER_FILE = 64 << 20


def read_user_file(path: Path) -> tuple[list[Entry], list[str]]:
    """Entries of one user file; an unreadable file is one warning, never an exception.

    Only a regular file is opened: a FIFO or device in the KB folder (which would block
    ``explain`` and the TUI forever) is skipped with a warning, as is a file over
    :data:`MAX_USER_FILE` bytes.
    """
    try:
        refusal = _refusal(path, os.stat(path))
        if refusal:
            return [], [refusal]
        data = path.read_bytes()
    except OSError as exc:
        return [], [f"{path}: cannot read ({exc.strerror or exc})"]
    text = data.decode("utf-8", errors="replace")
    return parse_jsonl(text.splitlines(), origin=f"user:{path}", label=str(path))


def _refusal(path: Path, st: os.stat_result) -> str:
    """Why a user KB file is not opened ("" when it is read)."""
    if not stat.S_ISREG(st.st_mode):
        return f"{path}: not a regular file (a FIFO, device or folder); skipped, never opened"
    if st.st_size > MAX_USER_FILE:
        return (
            f"{path}: {st.st_size} bytes, more than the {MAX_USER_FILE >> 20} MiB a KB file may have; skipped"
        )
    return ""


def load_kb(
    extra: Iterable[str | os.PathLike[str]] = (), user_dir: Path | None = None, mapped: bool = False
) -> KnowledgeBase:
    """The built-in KB merged with the user's directory and the ``extra`` files.

    ``user_dir`` defaults to :func:`user_kb_dir`; warnings are on ``kb.warnings``; ``mapped``: see
    :func:`builtin_index` (only for a process that answers one message and ends).
    """
    user, warnings = _user_entries(extra, user_dir)
    index = builtin_index(mapped=True) if mapped else builtin_index()
    if index is not None:
        return KnowledgeBase.from_index(index, user, warnings=warnings)
    merged: dict[str, Entry] = {e.id: e for e in builtin_entries()}
    merged.update((e.id, e) for e in user)
    return KnowledgeBase(merged.values(), warnings=warnings)


def _user_entries(
    extra: Iterable[str | os.PathLike[str]], user_dir: Path | None
) -> tuple[list[Entry], list[str]]:
    """Entries of the user's folder (sorted by file name) then of the ``extra`` files, and the warnings."""
    extra = list(extra)
    if user_dir is None and not extra and not os.path.isdir(os.path.join(config_dir_name(), "kb")):
        return [], []  # no folder of the user's and no file given: pathlib is not imported (~3 ms of a start)
    from pathlib import Path

    directory = user_kb_dir() if user_dir is None else user_dir
    files = sorted(directory.glob("*.jsonl")) if directory.is_dir() else []
    entries: list[Entry] = []
    warnings: list[str] = []
    for path in [*files, *(Path(p) for p in extra)]:
        found, problems = read_user_file(path)
        entries.extend(found)
        warnings.extend(problems)
    return entries, warnings
