"""The compiled index of the built-in knowledge base: load it without parsing every entry.

``kb.jsonl`` stays the one source of truth (one JSON object per line, reviewed by hand).
``kb_index.json`` (package data, plain JSON, never pickle) is built from it by
``python -m dumpscope.core.knowledge.index`` and holds what a lookup needs before it
knows which entries matter: where each line starts, the postings of codes, words and
anchors, and per entry the literals every match of its pattern holds (``requires``, with a list of
alternatives for a branch, one of which every match holds: a pattern is compiled only when the text
holds them all).  An entry is parsed only when a lookup reaches it
(:class:`EntryTable`).

The index records the length and CRC-32 of the ``kb.jsonl`` it was built from; when the
file on disk differs (an edit without a rebuild), :func:`read_index` returns None and the
loader parses every line instead (slower, same answers).  A test keeps the shipped index
equal to a fresh build.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from dumpscope.core.knowledge.entry import Entry, entry_from_dict, pattern_requires

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from typing import Any

INDEX_FILE = "kb_index.json"
FORMAT = 3


class Postings:
    """Which entries (by position) each code key, word and anchor names, and the entries tried always."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        data = data or {}
        self.by_key: dict[str, list[int]] = data.get("keys", {})
        self.by_word: dict[str, list[int]] = data.get("words", {})
        self.by_anchor: dict[str, list[int]] = data.get("anchors", {})
        self.always: list[int] = data.get("always", [])
        self.specific: dict[str, int] = data.get("specific", {})
        """How many specific (non-generic) entries name each code key."""

    def add(self, i: int, e: Entry) -> None:
        """Post entry ``e`` at position ``i``."""
        for k in e.keys:
            self.by_key.setdefault(k, []).append(i)
            self.specific[k] = self.specific.get(k, 0) + (not e.generic)
        for w in e.words:
            self.by_word.setdefault(w, []).append(i)
        for a in e.anchors:
            self.by_anchor.setdefault(a, []).append(i)
        if e.pattern and not e.anchors:
            self.always.append(i)

    def remove(self, i: int, e: Entry) -> None:
        """Take entry ``e`` (posted at ``i``) out again: a user entry replaces it."""
        for k in e.keys:
            self.by_key[k].remove(i)
            self.specific[k] -= not e.generic
        for w in e.words:
            self.by_word[w].remove(i)
        for a in e.anchors:
            self.by_anchor[a].remove(i)
        if i in self.always:
            self.always.remove(i)

    def to_json(self) -> dict[str, Any]:
        return {
            "keys": self.by_key,
            "words": {w: ids for w, ids in sorted(self.by_word.items())},
            "anchors": self.by_anchor,
            "always": self.always,
            "specific": self.specific,
        }


class EntryTable(Sequence[Entry]):
    """The entries of a knowledge base, parsed from their ``kb.jsonl`` line (bytes, at byte offsets: the
    whole file is never decoded) on first access."""

    def __init__(
        self,
        text: bytes,
        offsets: list[int],
        ids: list[str],
        requires: list[list[str | list[str]]] | None = None,
    ) -> None:
        self._text = text
        self._offsets = offsets
        self._requires = requires
        self._entries: list[Entry | None] = [None] * len(ids)
        self.ids = list(ids)
        """Entry ids by position (known without parsing)."""
        self._put: list[int] = []

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, i: Any) -> Any:  # int -> Entry, slice -> tuple[Entry, ...]
        if isinstance(i, slice):
            return tuple(self[j] for j in range(len(self))[i])
        entry = self._entries[i]
        return entry if entry is not None else self._parse(i)

    def __iter__(self) -> Iterator[Entry]:
        return (self[i] for i in range(len(self)))

    def _parse(self, i: int) -> Entry:
        line = self._text[self._offsets[i] : self._offsets[i + 1]]
        raw = json.loads(line)
        if self._requires is not None and isinstance(raw, dict):
            raw["requires"] = self._requires[i]
        entry = entry_from_dict(raw, trusted=True)
        self._entries[i] = entry
        return entry

    def extra(self) -> list[Entry]:
        """The entries set with :meth:`put` (not from the indexed file), in position order."""
        return [self[i] for i in sorted(set(self._put))]

    def put(self, i: int, entry: Entry) -> None:
        """Set (``i < len``) or append (``i == len``) an already built entry."""
        self._put.append(i)
        if i == len(self._entries):
            self._entries.append(entry)
            self.ids.append(entry.id)
        else:
            self._entries[i] = entry
            self.ids[i] = entry.id


class CompiledIndex:
    """A validated ``kb_index.json`` together with the ``kb.jsonl`` bytes it indexes."""

    def __init__(self, text: bytes, data: dict[str, Any]) -> None:
        self.text = text
        self.data = data

    def table(self) -> EntryTable:
        return EntryTable(self.text, self.data["offsets"], self.data["ids"], self.data["requires"])

    def postings(self, for_change: bool = True) -> Postings:
        """The postings; copies of the lists when a user entry is about to change them."""
        raw = self.data["postings"]
        if not for_change:
            return Postings(raw)
        copied = {name: _copied(raw.get(name, {})) for name in ("keys", "words", "anchors")}
        return Postings(
            {**copied, "always": list(raw.get("always", [])), "specific": dict(raw.get("specific", {}))}
        )


def _copied(table: dict[str, list[int]]) -> dict[str, list[int]]:
    return {k: list(v) for k, v in table.items()}


def fingerprint(source: bytes) -> dict[str, int]:
    """Length and CRC-32 of the bytes of a ``kb.jsonl``: what ties an index to its source."""
    return {"bytes": len(source), "crc32": zlib.crc32(source)}


def build_index(text: str) -> dict[str, Any]:
    """The index of a ``kb.jsonl`` text (its lines must all be valid entries)."""
    offsets: list[int] = []
    ids: list[str] = []
    requires: list[list[str | list[str]]] = []
    postings = Postings()
    pos = 0
    for line in text.splitlines(keepends=True):
        if line.strip() and not line.lstrip().startswith("#"):
            entry = entry_from_dict(json.loads(line), trusted=True)
            postings.add(len(ids), entry)
            offsets.append(pos)
            ids.append(entry.id)
            requires.append(_json_requires(entry.pattern))
        pos += len(line.encode("utf-8"))  # byte offsets: an entry is read without decoding the file
    offsets.append(pos)  # only the next entry's start is used, so a trailing comment is harmless
    return {
        "format": FORMAT,
        "source": fingerprint(text.encode("utf-8")),
        "ids": ids,
        "offsets": offsets,
        "requires": requires,
        "postings": postings.to_json(),
    }


def _json_requires(pattern: str) -> list[str | list[str]]:
    """:func:`pattern_requires` as JSON holds it (a branch's alternatives as a list)."""
    return [r if isinstance(r, str) else list(r) for r in pattern_requires(pattern)] if pattern else []


def read_index(source: bytes, raw: bytes) -> CompiledIndex | None:
    """The index in ``raw`` if it was built from exactly ``source`` (the bytes of ``kb.jsonl``)
    and has the expected shape, else None."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not _well_formed(data) or data["source"] != fingerprint(source):
        return None
    return CompiledIndex(source, data)


def _well_formed(data: object) -> bool:
    """The shape checks of an index (the fingerprint check is separate)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return False
    ids, offsets, postings = data.get("ids"), data.get("offsets"), data.get("postings")
    requires = data.get("requires")
    return (
        isinstance(ids, list)
        and isinstance(offsets, list)
        and len(offsets) == len(ids) + 1
        and isinstance(requires, list)
        and len(requires) == len(ids)
        and isinstance(postings, dict)
    )


def write_index(folder: Path) -> Path:
    """Rebuild ``kb_index.json`` beside ``kb.jsonl`` in ``folder``; returns its path."""
    text = (folder / "kb.jsonl").read_bytes().decode("utf-8")
    target = folder / INDEX_FILE
    from dumpscope.core.atomic import write_text  # only here: looking things up writes nothing

    write_text(json.dumps(build_index(text), separators=(",", ":")) + "\n", target)
    return target
