"""The compiled index of the built-in knowledge base: load it without parsing every entry.

``kb.jsonl`` stays the one source of truth (one JSON object per line, reviewed by hand).
``kb_index.json`` (package data, plain JSON, never pickle) is built from it by
``python -m dumpscope.core.knowledge.index`` and holds what a lookup needs before it
knows which entries matter: where each line starts, the postings of codes, words and
anchors, and per entry the literals every match of its pattern holds (``requires``, with a list of
alternatives for a branch, one of which every match holds: a pattern is compiled only when the text
holds them all).  An entry is parsed only when a lookup reaches it
(:class:`EntryTable`).  The ids and the ``requires`` lists are each stored as one string, a line per
entry (an entry's ``requires`` as compact JSON), decoded when first read: parsing them as JSON lists was
~0.7 ms of every ``explain``, which reads the ``requires`` of a few dozen entries and no id.

The index records the length and CRC-32 of the ``kb.jsonl`` it was built from; when the
file on disk differs (an edit without a rebuild), :func:`read_index` returns None and the
loader parses every line instead (slower, same answers).  A test keeps the shipped index
equal to a fresh build.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Iterator, Mapping, Sequence

from dumpscope.core.knowledge.entry import Entry, entry_from_dict, may_contain_all, pattern_requires

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from mmap import mmap
    from pathlib import Path
    from typing import Any

INDEX_FILE = "kb_index.json"
FORMAT = 6


class PackedLists(Mapping[str, list[int]]):
    """A JSON object whose values are lists of positions written as one string (``"3 17 204"``): a list
    is decoded when first read.  Parsing the index then builds a few thousand strings instead of tens of
    thousands of numbers and lists, and a lookup decodes only the lists of the words and anchors its
    message holds."""

    __slots__ = ("_decoded", "_raw")

    def __init__(self, raw: dict[str, str]) -> None:
        self._raw = raw
        self._decoded: dict[str, list[int]] = {}

    def __getitem__(self, key: str) -> list[int]:
        ids = self._decoded.get(key)
        if ids is None:
            packed = self._raw[key]
            ids = self._decoded[key] = [int(i) for i in packed.split()]
        return ids

    def __contains__(self, key: object) -> bool:
        return key in self._raw

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def _packed(table: dict[str, list[int]]) -> dict[str, str]:
    return {k: " ".join(map(str, ids)) for k, ids in table.items()}


RUNTIME_FAMILIES = frozenset({"runtime"})
"""Text any tool prints (C++ exceptions, signals, the OOM killer, CUDA errors, Python's and glibc's errors):
these entries answer first only when the message names no tool; inside a named tool's message they rank below
that tool's entries, even when a code (``cudaErrorNoKernelImageForDevice``) names them; and a tool's core
phrase found inside their text is no partial match of the tool."""


class Postings:
    """Which entries (by position) each code key, word and anchor names, and the entries tried always."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        data = data or {}
        self.by_key: Mapping[str, list[int]] = data.get("keys", {})
        self.by_word: Mapping[str, list[int]] = data.get("words", {})
        self.by_anchor: Mapping[str, list[int]] = data.get("anchors", {})
        self.always: list[int] = data.get("always", [])
        self.specific: dict[str, int] = data.get("specific", {})
        """How many specific (non-generic) entries name each code key."""
        self.families: dict[str, int] = data.get("families", {})
        """How many entries each family has (an index without it: none known, each family counts small)."""
        self.runtime_anchors: dict[str, int] = data.get("runtime_anchors", {})
        """How many entries of :data:`RUNTIME_FAMILIES` hold each anchor."""
        self.generic_words: frozenset[str] = frozenset(data.get("generic_words", ()))
        """Words of entries of :data:`GENERIC_FAMILIES` families or more (:func:`generic_words`)."""
        self.plain: set[int] = set(data.get("plain", ()))
        """Entries whose wording is too plain to find them by wording alone (:func:`plain_entries`)."""
        self._word_families: dict[str, set[str]] = {}
        self.common_words: Sequence[str] | None = data.get("common_words")
        """Words more entries hold than :data:`DISTINCT_DF` (:func:`common_words`), when the index holds them
        (None: computed from these postings when first asked, :meth:`common`)."""
        self._common: frozenset[str] | None = None
        self.norms: Sequence[float] | None = data.get("norms")
        """Each entry's wording norm as :func:`word_norms` computes it, when the index holds it (None:
        computed by the knowledge base)."""

    @classmethod
    def from_json(cls, raw: dict[str, Any], for_change: bool) -> Postings:
        """The postings of an index; the lists decoded (and copies) when a user entry is about to change
        them, else decoded when first read, with the index's norms (valid while nothing changes)."""
        tables = {name: raw.get(name, {}) for name in ("keys", "words", "anchors")}
        common = {
            "always": list(raw.get("always", [])),
            "specific": dict(raw.get("specific", {})),
            "families": dict(raw.get("families", {})),
            "runtime_anchors": dict(raw.get("runtime_anchors", {})),
            "generic_words": raw.get("generic_words", ()),
            "plain": raw.get("plain", ()),
        }
        if for_change:  # user entries change how many entries hold a word: the common words are recomputed
            decoded = {
                name: {k: [int(i) for i in v.split()] for k, v in t.items()} for name, t in tables.items()
            }
            return cls({**decoded, **common})
        return cls(
            {
                **{name: PackedLists(t) for name, t in tables.items()},
                **common,
                "norms": PackedFloats(norms) if isinstance(norms := raw.get("norms"), str) else norms,
                "common_words": raw.get("common_words"),
            }
        )

    def _lists(self, name: str) -> dict[str, list[int]]:
        """A table about to change (only those of :meth:`from_json` with ``for_change`` and of a build)."""
        table = getattr(self, name)
        assert isinstance(table, dict), "packed postings are read-only"
        self.norms = None
        self.common_words = self._common = None
        return table

    def add(self, i: int, e: Entry) -> None:
        """Post entry ``e`` at position ``i``."""
        by_key, by_word, by_anchor = self._lists("by_key"), self._lists("by_word"), self._lists("by_anchor")
        for k in e.keys:
            by_key.setdefault(k, []).append(i)
            self.specific[k] = self.specific.get(k, 0) + (not e.generic)
        for w in e.words:
            by_word.setdefault(w, []).append(i)
            self._word_families.setdefault(w, set()).add(e.family)
        if self.generic_words and _is_plain(e.words, self.generic_words):
            self.plain.add(i)  # a user entry among the index's: judged by the index's generic words
        for a in e.anchors:
            by_anchor.setdefault(a, []).append(i)
        if e.pattern and not e.anchors:
            self.always.append(i)
        self.families[e.family] = self.families.get(e.family, 0) + 1
        if e.family in RUNTIME_FAMILIES:
            for a in e.anchors:
                self.runtime_anchors[a] = self.runtime_anchors.get(a, 0) + 1

    def remove(self, i: int, e: Entry) -> None:
        """Take entry ``e`` (posted at ``i``) out again: a user entry replaces it."""
        by_key, by_word, by_anchor = self._lists("by_key"), self._lists("by_word"), self._lists("by_anchor")
        for k in e.keys:
            by_key[k].remove(i)
            self.specific[k] -= not e.generic
        for w in e.words:
            by_word[w].remove(i)
        for a in e.anchors:
            by_anchor[a].remove(i)
        if i in self.always:
            self.always.remove(i)
        self.plain.discard(i)
        self.families[e.family] = self.families.get(e.family, 1) - 1
        if e.family in RUNTIME_FAMILIES:
            for a in e.anchors:
                self.runtime_anchors[a] -= 1
                if not self.runtime_anchors[a]:
                    del self.runtime_anchors[a]

    def plain_positions(self) -> set[int]:
        """The entries too plain to be found by wording alone (:func:`plain_entries`): the index's (with
        the user entries posted over it), or, for postings built here, computed from their words."""
        if self.generic_words:
            return self.plain
        return set(plain_entries(self.by_word, generic_words(self._word_families)))

    def generic(self) -> frozenset[str]:
        """The words any tool prints (:func:`generic_words`): the index's, or computed from these postings."""
        return self.generic_words or generic_words(self._word_families)

    def common(self) -> frozenset[str]:
        """The words no entry counts as its distinctive term (:func:`common_words`): the index's, or computed
        from these postings (once: a lookup asks only when wording alone put a specific entry first)."""
        if self._common is None:
            stored = self.common_words
            self._common = frozenset(stored) if stored is not None else common_words(self.by_word)
        return self._common

    def as_json(self, entries: int) -> dict[str, Any]:
        """The index's form: lists packed into strings, words sorted, and the norms of ``entries``
        entries (computed over the sorted words, as a knowledge base would compute them)."""
        words = {w: ids for w, ids in sorted(self._lists("by_word").items())}
        generic = generic_words(self._word_families)
        return {
            "generic_words": sorted(generic),
            "plain": plain_entries(words, generic),
            "keys": _packed(self._lists("by_key")),
            "words": _packed(words),
            "anchors": _packed(self._lists("by_anchor")),
            "always": self.always,
            "specific": self.specific,
            "families": self.families,
            "runtime_anchors": self.runtime_anchors,
            "norms": " ".join(map(repr, word_norms(words, word_idf(words, entries), entries))),
            "common_words": sorted(common_words(words)),
        }


GENERIC_FAMILIES = 10
"""A word that entries of this many tools (families, of 18) hold is a word any tool prints: 33 words of the
shipped KB (``failed``, ``error``, ``invalid``, ``supported``, ``input``, ``model``...), derived from the
KB's document frequencies across families, not listed by hand."""
PLAIN_WORDS = 2
"""An entry with fewer than this many distinct words that are not generic (:data:`GENERIC_FAMILIES`) is
never found by its wording alone (292 of 1723 shipped entries).  Both set on dev only,
``bench/eval_explain.py --blank-markers`` (646 dev messages, markers and codes blanked, own threads' entries
hidden): first tool right 398 -> 419, confident and wrong 49 -> 45, confident and right 253 -> 253; of the
settings tried (4-15 families, 1-3 words), 4/1 gave 403 (45 wrong), 8/2 415 (43), 9/2 412 (45), 12/2 410
(45), 8/3 389 (42); 10/2 is the highest first-tool count and lowers no family's confident-wrong count (one
torch_onnx first tool lost, 6 -> 5 of 12).  With the markers kept, no dev answer moved (every part)."""


def generic_words(word_families: Mapping[str, set[str]]) -> frozenset[str]:
    """The words that entries of :data:`GENERIC_FAMILIES` families or more hold (none in a KB of fewer
    tools: there, no wording is known to be every tool's)."""
    return frozenset(w for w, fams in word_families.items() if len(fams) >= GENERIC_FAMILIES)


def _is_plain(words: frozenset[str], generic: frozenset[str]) -> bool:
    """Whether an entry of ``words`` has fewer than :data:`PLAIN_WORDS` words that are not ``generic``."""
    return bool(words) and len(words - generic) < PLAIN_WORDS


def plain_entries(by_word: Mapping[str, list[int]], generic: frozenset[str]) -> list[int]:
    """The entries (by position) whose wording is too plain to find them by wording alone (fewer than
    :data:`PLAIN_WORDS` distinct words that are not ``generic``): SigmaStar's ``Assertion `s32InputCount <=
    ((10000))' failed`` ranks by ``assertion`` and ``failed`` only, words TensorRT, onnx and onnxsim
    assertions print too.  Such an entry is still found by its pattern, code or core phrase."""
    if not generic:
        return []  # a KB of few tools (a test's, a user's alone): no wording is known to be plain
    with_words: set[int] = set()
    distinct: dict[int, int] = {}
    for w, ids in by_word.items():
        with_words.update(ids)
        if w not in generic:
            for i in ids:
                distinct[i] = distinct.get(i, 0) + 1
    return sorted(i for i in with_words if distinct.get(i, 0) < PLAIN_WORDS)


DISTINCT_DF = 8
"""A word that at most this many entries hold is a *distinctive term* of each of them (:func:`common_words`):
``fully``, ``finded``, ``quantizer``, ``instances``, an op's, API's or option's own name; a word more
entries hold (``layer``, ``kernel``, ``weights``, ``build``, ``engine``, ``resize``, and every generic
word: ``failed``, ``shape``, ``input``...) is not. A specific entry that wording alone put first, sharing
none of its distinctive terms with the message, does not answer it: its tool's card does
(:meth:`.kb.KnowledgeBase.distinct_first`). Set on issue s22f's dev tally (every dev message whose first
match was a specific entry found by wording alone): with the markers, 5 (all under the answer's floor; 1
fitted, the OpenVINO GPU program build); with markers and codes blanked (``--blank-markers``), 8 shown (7
fitted, 1 doubtful), all sharing a term of 6 entries or fewer. At 8, every shown one and the fitting one
keep their place, and the MNN pipeline-resize and DeepStream build-engine entries (sharing only ``resize``
of 13 entries, ``build`` and ``engine``) give way to their cards; at 6, ``program`` (7 entries) would
demote the fitting GPU one; at 10, ``weights`` (9) would count."""


def common_words(by_word: Mapping[str, Sequence[int]]) -> frozenset[str]:
    """The words more than :data:`DISTINCT_DF` entries hold: no entry's distinctive term (225 of the 2,664
    words of the 2,357 entries the rule was set on; 253 of 2,897 words of 2,532 entries now)."""
    return frozenset(w for w, ids in by_word.items() if len(ids) > DISTINCT_DF)


def word_idf(by_word: Mapping[str, list[int]], entries: int) -> dict[str, float]:
    """The IDF weight of every word some entry holds, among ``entries`` entries."""
    n = max(1, entries)
    return {w: math.log(1 + n / len(ids)) for w, ids in by_word.items() if ids}


def word_norms(by_word: Mapping[str, list[int]], idf: dict[str, float], entries: int) -> list[float]:
    """Each entry's IDF norm (its length as a word vector; 1 for an entry without words)."""
    squares = [0.0] * entries
    for w, ids in by_word.items():
        weight = idf.get(w, 0.0) ** 2
        for i in ids:
            squares[i] += weight
    return [math.sqrt(s) or 1.0 for s in squares]


class PackedFloats(Sequence[float]):
    """The index's entry norms: one string of the numbers as ``repr`` writes them (which ``float`` reads back
    exactly), split when first read, a number converted when read.  As a JSON list, parsing the 2,869 numbers
    was ~0.8 ms of every ``explain``, which reads the norms of the few dozen entries sharing its words."""

    __slots__ = ("_parts", "_raw")

    def __init__(self, raw: str) -> None:
        self._raw = raw
        self._parts: list[str] | None = None

    def __len__(self) -> int:
        return self._raw.count(" ") + 1 if self._raw else 0

    def floats(self) -> list[float]:
        """Every number, as a list (what the index's JSON list of numbers read as)."""
        return [float(p) for p in self._raw.split(" ")] if self._raw else []

    def __getitem__(self, i: Any) -> Any:  # int -> float; a slice -> list[float]
        parts = self._parts
        if parts is None:
            parts = self._parts = self._raw.split(" ") if self._raw else []
        if isinstance(i, slice):
            return [float(p) for p in parts[i]]
        return float(parts[i])


class PackedRequires(Sequence[list[str | list[str]]]):
    """The index's ``requires``: one line of compact JSON per entry, an entry's line decoded when first
    read (a lookup reads those of the few entries an anchor of its message reaches)."""

    __slots__ = ("_decoded", "_lines", "_raw")

    def __init__(self, raw: str) -> None:
        self._raw = raw
        self._lines: list[str] | None = None
        self._decoded: dict[int, list[str | list[str]]] = {}

    def __len__(self) -> int:
        return _line_count(self._raw)

    def __getitem__(self, i: Any) -> Any:  # int -> an entry's list; a slice is not needed
        found = self._decoded.get(i)
        if found is None:
            if self._lines is None:
                self._lines = self._raw.split("\n")
            found = self._decoded[i] = json.loads(self._lines[i])
        return found


def _line_count(packed: str) -> int:
    """How many lines a string of lines joined by newlines holds (0 for the empty string)."""
    return packed.count("\n") + 1 if packed else 0


class EntryTable(Sequence[Entry]):
    """The entries of a knowledge base, parsed from their ``kb.jsonl`` line (bytes, at byte offsets: the
    whole file is never decoded) on first access."""

    def __init__(
        self,
        text: bytes | mmap,
        offsets: list[int],
        ids: list[str] | str,
        requires: Sequence[list[str | list[str]]] | None = None,
        line_crcs: str | None = None,
    ) -> None:
        self._text = text
        self._offsets = offsets
        self._requires = requires
        self._line_crcs: str | list[str] | None = line_crcs
        """The CRC-32 of each entry's line, checked when the line is parsed (None: the whole file's was)."""
        self._entries: list[Entry | None] = [None] * (_line_count(ids) if isinstance(ids, str) else len(ids))
        self._ids: list[str] | str = ids if isinstance(ids, str) else list(ids)
        self._put: list[int] = []

    @property
    def ids(self) -> list[str]:
        """Entry ids by position (known without parsing; the index's packed ids split when first read)."""
        if isinstance(self._ids, str):
            self._ids = self._ids.split("\n") if self._ids else []
        return self._ids

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
        if self._line_crcs is not None:
            if isinstance(self._line_crcs, str):
                self._line_crcs = self._line_crcs.split(" ")
            if zlib.crc32(line) != int(self._line_crcs[i]):
                raise StaleIndex(f"line {i + 1} of kb.jsonl is not the line its index was built from")
        raw = json.loads(line)
        if self._requires is not None and isinstance(raw, dict):
            raw["requires"] = self._requires[i]
        entry = entry_from_dict(raw, trusted=True)
        self._entries[i] = entry
        return entry

    def may_match(self, i: int, lowered: str) -> bool:
        """Whether entry ``i``'s pattern may match a text (lower-cased) that holds one of its anchors,
        decided from its required literals without parsing the entry."""
        entry = self._entries[i]
        if entry is not None:
            return may_contain_all(lowered, entry.requires)
        return self._requires is None or may_contain_all(lowered, self._requires[i])

    def source(self) -> bytes:
        """The bytes of the file the entries are read from."""
        return bytes(self._text)

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


class StaleIndex(ValueError):
    """An entry's line differs from the line the index was built from (``kb.jsonl`` edited in place to the
    same length, without a rebuild), found when the line is parsed (:meth:`EntryTable._parse`)."""


class CompiledIndex:
    """A validated ``kb_index.json`` together with the ``kb.jsonl`` bytes it indexes; ``lines_checked``: only
    the length of the bytes was checked, and each line's CRC-32 is checked when it is parsed."""

    def __init__(self, text: bytes | mmap, data: dict[str, Any], lines_checked: bool = False) -> None:
        self.text = text
        self.data = data
        self.lines_checked = lines_checked

    def table(self) -> EntryTable:
        crcs = self.data["line_crcs"] if self.lines_checked else None
        return EntryTable(self.text, self.data["offsets"], self.data["ids"], self.requires(), crcs)

    def requires(self) -> Sequence[list[str | list[str]]]:
        """Each entry's ``requires`` (a literal, or a branch's alternatives as a list), by position."""
        requires = self.data["requires"]
        return PackedRequires(requires) if isinstance(requires, str) else requires

    def postings(self, for_change: bool = True) -> Postings:
        """The postings; decoded copies of the lists when a user entry is about to change them."""
        return Postings.from_json(self.data["postings"], for_change)


def entries_of(data: bytes) -> tuple[Entry, ...]:
    """Every entry of the bytes of a built-in ``kb.jsonl``, parsed as :func:`.loader.builtin_entries` parses
    them (a bad line raises)."""
    lines = data.decode("utf-8").splitlines()
    return tuple(
        entry_from_dict(json.loads(line), trusted=True)
        for line in lines
        if line.strip() and not line.lstrip().startswith("#")
    )


def fingerprint(source: bytes | mmap) -> dict[str, int]:
    """Length and CRC-32 of the bytes of a ``kb.jsonl``: what ties an index to its source."""
    return {"bytes": len(source), "crc32": zlib.crc32(source)}


def build_index(text: str) -> dict[str, Any]:
    """The index of a ``kb.jsonl`` text (its lines must all be valid entries)."""
    offsets: list[int] = []
    ids: list[str] = []
    requires: list[list[str | list[str]]] = []
    crcs: list[str] = []
    postings = Postings()
    pos = 0
    lines = text.splitlines(keepends=True)
    for k, line in enumerate(lines):
        encoded = line.encode("utf-8")
        if line.strip() and not line.lstrip().startswith("#"):
            entry = entry_from_dict(json.loads(line), trusted=True)
            postings.add(len(ids), entry)
            offsets.append(pos)
            ids.append(entry.id)
            requires.append(_json_requires(entry.pattern))
            # what EntryTable reads: up to the next entry's start (blank and comment lines between included)
            following = b"".join(x.encode("utf-8") for x in _until_entry(lines, k + 1))
            crcs.append(str(zlib.crc32(encoded + following)))
        pos += len(encoded)  # byte offsets: an entry is read without decoding the file
    offsets.append(pos)  # only the next entry's start is used, so a trailing comment is harmless
    return {
        "format": FORMAT,
        "source": fingerprint(text.encode("utf-8")),
        "ids": _lines(ids, "an id"),
        "offsets": offsets,
        "requires": _lines([json.dumps(r, separators=(",", ":"), ensure_ascii=False) for r in requires], ""),
        "line_crcs": " ".join(crcs),
        "postings": postings.as_json(len(ids)),
    }


def _until_entry(lines: list[str], k: int) -> Iterator[str]:
    """The blank and comment lines from ``lines[k]`` up to the next entry's line."""
    for line in lines[k:]:
        if line.strip() and not line.lstrip().startswith("#"):
            return
        yield line


def _lines(items: list[str], what: str) -> str:
    """``items`` joined one per line (compact JSON never holds a raw newline; an id must not either)."""
    if any("\n" in item for item in items):
        raise ValueError(f"{what or 'an item'} holds a newline: it cannot be one line of the index")
    return "\n".join(items)


def _json_requires(pattern: str) -> list[Any]:
    """:func:`pattern_requires` as JSON holds it (a branch's alternatives as a list)."""
    if not pattern:
        return []
    return [
        r if isinstance(r, str) else [a if isinstance(a, str) else list(a) for a in r]
        for r in pattern_requires(pattern)
    ]


def read_index(source: bytes | mmap, raw: bytes, by_line: bool = False) -> CompiledIndex | None:
    """The index in ``raw`` if it was built from exactly ``source`` (the bytes of ``kb.jsonl``)
    and has the expected shape, else None.

    ``by_line`` (a process that answers one message and ends): only the length of ``source`` is checked
    now, and each entry's line when it is parsed (its CRC-32, :class:`StaleIndex` when it differs), instead
    of the CRC-32 of the whole 3.6 MB file (14M instructions, ~3 ms, of every ``explain``; a look-up parses
    about a hundred lines).  An edit that changes the file's length refuses the index as before; one that
    keeps it is found when an edited line is parsed (the knowledge base then parses every entry,
    :meth:`~.kb.KnowledgeBase.answer`).  Left unseen: an edit of the same length to lines the look-up never
    parses, whose stale postings may leave the edited entry out; a long-lived process checks the whole file.
    """
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not _well_formed(data):
        return None
    if by_line:
        if data["source"].get("bytes") != len(source):
            return None
    elif data["source"] != fingerprint(source):
        return None
    return CompiledIndex(source, data, lines_checked=by_line)


def _well_formed(data: object) -> bool:
    """The shape checks of an index (the fingerprint check is separate)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return False
    ids, offsets, postings = data.get("ids"), data.get("offsets"), data.get("postings")
    requires, crcs, source = data.get("requires"), data.get("line_crcs"), data.get("source")
    return (
        isinstance(ids, str)
        and isinstance(offsets, list)
        and len(offsets) == _line_count(ids) + 1
        and isinstance(requires, str)
        and _line_count(requires) == _line_count(ids)
        and isinstance(crcs, str)
        and (crcs.count(" ") + 1 if crcs else 0) == _line_count(ids)
        and isinstance(postings, dict)
        and isinstance(source, dict)
    )


def write_index(folder: Path) -> Path:
    """Rebuild ``kb_index.json`` beside ``kb.jsonl`` in ``folder``; returns its path."""
    text = (folder / "kb.jsonl").read_bytes().decode("utf-8")
    target = folder / INDEX_FILE
    from dumpscope.core.atomic import write_text  # only here: looking things up writes nothing

    write_text(json.dumps(build_index(text), separators=(",", ":")) + "\n", target)
    return target
