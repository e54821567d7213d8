"""The knowledge base and its lookup: codes first, then patterns, then wording.

Scoring (0-100, shown to users):

* a code found in the message that names the entry: +45;
* the entry's pattern matches: +40;
* shared wording (IDF-weighted cosine of word sets, variable parts removed): up to +15;
  an entry found by wording only needs :data:`MIN_WORDS` similarity to be listed at all,
  and then scores up to 30 (so it never outranks a code or pattern match);
* a generic scheme entry (code range, inner-error code, a tool's status-code list): -15 and
  at most 39, so any specific entry found by code or pattern comes first; UNCERTAIN: -3.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict, namedtuple
from collections.abc import Iterable, Iterator, Sequence

from dumpscope.core.knowledge.codes import extract_codes, range_keys, scheme_family
from dumpscope.core.knowledge.entry import Entry
from dumpscope.core.knowledge.family import detect_families
from dumpscope.core.knowledge.index import CompiledIndex, EntryTable, Postings
from dumpscope.core.knowledge.words import tokens

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from typing import Any

CODE_SCORE = 45.0
PATTERN_SCORE = 40.0
WORDS_SCORE = 15.0
WORDS_ONLY_SCORE = 30.0
GENERIC_PENALTY = 15.0
GENERIC_CAP = PATTERN_SCORE - 1.0
"""A generic entry never outranks a specific entry found by its code or pattern."""
UNCERTAIN_PENALTY = 3.0
MIN_WORDS = 0.3
"""Least word similarity for an entry found by wording alone."""
MAX_TEXT = 1 << 20
"""Only the first MiB of a message is examined (codes, words); patterns use windows."""
PARTIAL_SCORE = 24.0
"""The core phrase of an entry is present but its full pattern does not match."""
PARTIAL_ANCHOR = 12
"""Shortest anchor (of several words) that counts as a core phrase for a partial match."""
SHARED_CODE_LIMIT = 3
"""A code named by more specific entries than this is evidence of the family only."""
SHARED_CODE_SCORE = 10.0
CATEGORY_SCHEMES = frozenset({"trtb", "trt", "ort", "onnx"})
"""Schemes whose codes are categories shared by many different problems (TensorRT ``Error Code 4``,
onnx-tensorrt ``[8]``, onnxruntime status numbers, ``ValidationError``): family evidence only."""
FAMILY_SCORE = 29.0
"""A family-level entry (the tool was recognised): below any code or pattern match."""
FOREIGN_PATTERN_PENALTY = 30.0
"""A pattern of another tool than the one the message names (a generic Python error text)."""
LIBRARY_FAMILIES = frozenset({"onnx"})
"""Libraries whose messages appear inside other tools' logs: never foreign."""
FOREIGN_WORDS_FACTOR = 0.4
"""Wording alone found an entry of another tool than the one the message names."""


class Match(namedtuple("Match", "entry score reason captures codes via", defaults=((), (), ()))):
    """One ranked answer: the entry, why it matched and the parts captured from the message.

    * ``reason``: ``code``, ``pattern``, ``words`` or a ``+`` combination, strongest first;
    * ``captures``: named variable parts from the message (``op``, ``shape``, ``value``...), in order;
    * ``codes``: keys of the message's codes that named this entry or concern its tool;
    * ``via``: other tools the message names (a library error seen through a consumer: "also seen via").

    A named tuple rather than a dataclass: importing :mod:`dataclasses` was a fixed part of
    every ``dumpscope explain`` start.
    """

    __slots__ = ()
    entry: Entry
    score: float
    reason: str
    captures: tuple[tuple[str, str], ...]
    codes: tuple[str, ...]
    via: tuple[str, ...]

    @property
    def tool(self) -> str:
        return self.entry.tool

    @property
    def stage(self) -> str:
        return self.entry.stage

    @property
    def code(self) -> str:
        return self.entry.code

    @property
    def cause(self) -> str:
        return self.entry.cause

    @property
    def fix(self) -> str:
        return self.entry.fix

    @property
    def source(self) -> str:
        return self.entry.source

    @property
    def origin(self) -> str:
        return self.entry.origin

    @property
    def uncertain(self) -> bool:
        return self.entry.uncertain

    @property
    def op_names(self) -> tuple[str, ...]:
        """Captured values that name an operator (groups called ``op``, ``op2``...)."""
        return tuple(v for k, v in self.captures if k.rstrip("0123456789") == "op")

    def to_dict(self) -> dict[str, Any]:
        e = self.entry
        return {
            "tool": e.tool,
            "stage": e.stage,
            "code": e.code,
            "cause": e.cause,
            "fix": e.fix,
            "source": e.source,
            "score": self.score,
            "reason": self.reason,
            "captures": dict(self.captures),
            "origin": e.origin,
            "id": e.id,
            "family": e.family,
            "uncertain": e.uncertain,
            "generic": e.generic,
            "codes": list(self.codes),
            "via": list(self.via),
        }


class KnowledgeBase:
    """Entries plus the indexes that make a lookup cost about a millisecond."""

    def __init__(self, entries: Iterable[Entry], warnings: Sequence[str] = ()) -> None:
        self.entries: Sequence[Entry] = tuple(entries)
        self.warnings: tuple[str, ...] = tuple(warnings)
        postings = Postings()
        for i, e in enumerate(self.entries):
            postings.add(i, e)
        self._use(postings)

    @classmethod
    def from_index(cls, index: CompiledIndex, extra: Iterable[Entry] = (), warnings: Sequence[str] = ()) -> KnowledgeBase:
        """The built-in entries of a compiled index (parsed when first reached) plus ``extra``
        entries; an extra entry whose id is a built-in one replaces it in its place."""
        kb = cls.__new__(cls)
        kb.warnings = tuple(warnings)
        table, postings = index.table(), index.postings()
        position = {entry_id: i for i, entry_id in enumerate(table.ids)}
        for e in extra:
            i = position.setdefault(e.id, len(table))
            if i < len(table):
                postings.remove(i, table[i])
            table.put(i, e)
            postings.add(i, e)
        kb.entries = table
        kb._use(postings)
        return kb

    def _use(self, postings: Postings) -> None:
        """Take ``postings`` as the indexes and weigh each word (IDF) and entry (norm)."""
        self._by_key = postings.by_key
        self._by_word = postings.by_word
        self._by_anchor = postings.by_anchor
        self._always = postings.always
        self._specific = postings.specific
        n = max(1, len(self.entries))
        self._idf = {w: math.log(1 + n / len(ids)) for w, ids in self._by_word.items() if ids}
        self._norm = _norms(self._by_word, self._idf, len(self.entries))

    @property
    def user_entries(self) -> list[Entry]:
        """The entries that did not come with dumpscope (``--kb`` files and the user's folder)."""
        if isinstance(self.entries, EntryTable):
            return self.entries.extra()
        return [e for e in self.entries if e.origin != "builtin"]

    def __len__(self) -> int:
        return len(self.entries)

    def lookup(self, message: str, top: int = 5) -> list[Match]:
        """Ranked matches for a message (one line or a whole multi-line block).

        The tool is detected first, on the raw text.  The whole text, the inner message of
        an envelope and each line of a block are looked up; an entry keeps its best score.
        Generic entries (scheme, range, family level) take at most one of the first three places.
        """
        text = message[:MAX_TEXT]
        if not text.strip():
            return []
        families = self._families(text)
        all_codes = [c.key for c in extract_codes(text)]
        best: dict[int, Match] = {}
        for segment in segments(text):
            for i, match in self._lookup_segment(segment, families, all_codes):
                if i not in best or match.score > best[i].score:
                    best[i] = match
        ranked = sorted(best.values(), key=lambda r: (-r.score, r.entry.generic))
        return limit_generic(ranked, top)

    def _families(self, text: str) -> list[str]:
        """Families named by markers, then by the schemes of the codes found."""
        families = detect_families(text)
        for c in extract_codes(text):
            family = scheme_family(c.key)
            if family and family not in families:
                families.append(family)
        return families

    def _lookup_segment(self, text: str, families: list[str], all_codes: list[str]) -> Iterator[tuple[int, Match]]:
        """``(entry index, match)`` for every entry found in one segment (codes shown: the whole message's)."""
        lowered = text.lower()
        codes = [c.key for c in extract_codes(text)]
        code_hits, shared_hits = self._code_hits(codes, families)
        word_sim = self._word_similarity(tokens(text))
        candidates = self._candidates(lowered, code_hits, shared_hits, word_sim)
        for i in sorted(candidates):
            match = self._match(i, self.entries[i], text, lowered, code_hits, shared_hits, word_sim, families, all_codes)
            if match is not None:
                yield i, match

    def _candidates(
        self, lowered: str, code_hits: dict[int, list[str]], shared_hits: set[int], word_sim: dict[int, float]
    ) -> set[int]:
        """Entries worth a look: an anchor is in the text, a code names them, or their wording is close.

        One ``in`` test per distinct anchor replaces a Python-level visit of every entry.
        """
        found = {i for a, ids in self._by_anchor.items() if a in lowered for i in ids}
        found.update(code_hits, shared_hits, self._always)
        found.update(i for i, sim in word_sim.items() if sim >= MIN_WORDS)
        return found

    def _match(
        self,
        i: int,
        e: Entry,
        text: str,
        lowered: str,
        code_hits: dict[int, list[str]],
        shared_hits: set[int],
        word_sim: dict[int, float],
        families: list[str],
        all_codes: list[str],
    ) -> Match | None:
        """The match of entry ``i`` in one segment, or None."""
        m = e.search(text, lowered)
        hit = code_hits.get(i, ())
        sim = word_sim.get(i, 0.0)
        partial = m is None and _core_phrase_present(e, lowered)
        if m is None and not hit and not partial and sim < MIN_WORDS and i not in shared_hits:
            return None
        score, reason = _score(e, m is not None, bool(hit), i in shared_hits, sim, families)
        if partial and not hit:
            score, reason = _partial_score(e, sim, families), "partial"
        if score <= 0 and reason == "words":
            return None
        shown = tuple(dict.fromkeys([*hit, *_related_codes(e, all_codes)]))
        via = tuple(f for f in families if f != e.family) if e.family in families or m is not None else ()
        return Match(entry=e, score=score, reason=reason, captures=_captures(m), codes=shown, via=via)

    def _code_hits(self, codes: list[str], families: list[str]) -> tuple[dict[int, list[str]], set[int]]:
        """Entries named by a code (or its range, or a detected family), and entries named only by a shared code."""
        hits: dict[int, list[str]] = defaultdict(list)
        shared: set[int] = set()
        for key in codes:
            for k in (key, *range_keys(key)):
                for i in self._by_key.get(k, ()):
                    if _shared(k, self._specific[k]) and not self.entries[i].generic:
                        shared.add(i)
                    else:
                        hits[i].append(key)
        for family in families:
            for i in self._by_key.get(f"family:{family}", ()):
                hits[i].append(f"family:{family}")
        return hits, shared - set(hits)

    def _word_similarity(self, words: frozenset[str]) -> dict[int, float]:
        """IDF-weighted cosine between the message's words and each entry's wording."""
        known = [w for w in words if w in self._idf]
        if not known:
            return {}
        msg_norm = math.sqrt(sum(self._idf[w] ** 2 for w in known))
        shared: dict[int, float] = defaultdict(float)
        for w in known:
            weight = self._idf[w] ** 2
            for i in self._by_word[w]:
                shared[i] += weight
        return {i: s / (msg_norm * self._norm[i]) for i, s in shared.items()}


def _norms(by_word: dict[str, list[int]], idf: dict[str, float], n: int) -> list[float]:
    """Each entry's IDF norm (its length as a word vector; 1 for an entry without words)."""
    squares = [0.0] * n
    for w, ids in by_word.items():
        weight = idf.get(w, 0.0) ** 2
        for i in ids:
            squares[i] += weight
    return [math.sqrt(s) or 1.0 for s in squares]


def _shared(key: str, specific_entries: int) -> bool:
    """Whether a code only tells the family/scheme: a category code, or one many entries share."""
    return key.split(":", 1)[0] in CATEGORY_SCHEMES or specific_entries > SHARED_CODE_LIMIT


def _score(e: Entry, pattern: bool, code: bool, shared: bool, sim: float, families: list[str]) -> tuple[float, str]:
    """Score (0-100) and reason of one entry for one segment."""
    if e.level == "family":
        rank = families.index(e.family) if e.family in families else len(families)
        return round(max(FAMILY_SCORE - rank, 1.0), 1), "family"
    reasons = [r for r, on in (("code", code), ("pattern", pattern), ("shared code", shared and not code)) if on]
    score = CODE_SCORE * code + PATTERN_SCORE * pattern + SHARED_CODE_SCORE * (shared and not code)
    if reasons:
        score += WORDS_SCORE * sim
    else:
        reasons.append("words")
        score = WORDS_ONLY_SCORE * sim
    score = _foreign_adjusted(e, score, reasons, families)
    if e.generic:
        score = min(score - GENERIC_PENALTY, GENERIC_CAP)
    if e.uncertain:
        score -= UNCERTAIN_PENALTY
    return round(max(score, 0.0), 1), "+".join(reasons)


def _core_phrase_present(e: Entry, lowered: str) -> bool:
    """The entry's stable core phrase (a long anchor) is in the text although the pattern failed:
    the wording drifted around it, or the paste is partial."""
    return any(len(a) >= PARTIAL_ANCHOR and " " in a and a in lowered for a in e.anchors)


def _partial_score(e: Entry, sim: float, families: list[str]) -> float:
    """Score of a partial match: below a full pattern match, above wording alone."""
    score = _foreign_adjusted(e, PARTIAL_SCORE + WORDS_SCORE * sim, ["partial"], families)
    if e.generic:
        score = min(score - GENERIC_PENALTY, GENERIC_CAP)
    return round(max(score - UNCERTAIN_PENALTY * e.uncertain, 0.0), 1)


def _foreign_adjusted(e: Entry, score: float, reasons: list[str], families: list[str]) -> float:
    """Lower an entry of another tool than the one(s) the message names (not libraries, not code hits)."""
    if not families or e.family in families or e.family in LIBRARY_FAMILIES or "code" in reasons:
        return score
    if reasons == ["words"]:
        return score * FOREIGN_WORDS_FACTOR
    return score - FOREIGN_PATTERN_PENALTY


def _related_codes(e: Entry, codes: list[str]) -> list[str]:
    """The message's codes that concern this entry's tool (its schemes, or a scheme every tool prints)."""
    return [k for k in codes if scheme_family(k) in (e.family, "")]


_ENVELOPES = ("Status Message:", "RecentErrMsg:", "Message=", "what():")
MAX_SEGMENT_LINES = 40


def segments(text: str) -> list[str]:
    """What to look up: the whole text, each envelope's inner message, each non-blank line."""
    out = [text]
    for marker in _ENVELOPES:
        pos = text.find(marker)
        if pos > 0 and text[pos + len(marker) :].strip():
            out.append(text[pos + len(marker) :].strip())
    out.extend(record_fields(text))
    if "\n" in text:
        lines = [line for line in text.splitlines() if line.strip()]
        out.extend(lines[:MAX_SEGMENT_LINES])
    return list(dict.fromkeys(out))


MAX_RECORD = 64 * 1024
_KEY_VALUE = re.compile(r"(?:^|[;,]\s{0,4})([A-Za-z_][\w.]{0,40})\s{0,2}=\s{0,2}([^;\n]{1,400})")


def record_fields(text: str) -> list[str]:
    """The values of a structured record: a JSON object (op-support check results and the like)
    or a ``key=value; key=value`` line, each value as its own segment."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")) and len(stripped) <= MAX_RECORD:
        try:
            return [v for v in _json_strings(json.loads(stripped)) if len(v) > 3][:MAX_SEGMENT_LINES]
        except ValueError:
            return []
    if stripped.count("=") >= 2 and (";" in stripped or ", " in stripped):
        return [v.strip() for _, v in _KEY_VALUE.findall(stripped) if len(v.strip()) > 3][:MAX_SEGMENT_LINES]
    return []


def _json_strings(value: Any) -> Iterator[str]:
    """Every string in a parsed JSON value, depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _json_strings(v)


def limit_generic(ranked: list[Match], top: int, slots: int = 3) -> list[Match]:
    """``ranked`` cut to ``top`` with at most one generic entry among the first ``slots``."""
    head: list[Match] = []
    rest: list[Match] = []
    for m in ranked:
        generic = m.entry.generic or m.entry.level == "family"
        if len(head) < slots and not (generic and any(h.entry.generic or h.entry.level == "family" for h in head)):
            head.append(m)
        else:
            rest.append(m)
    return (head + rest)[: max(0, top)]


def _captures(m: Any) -> tuple[tuple[str, str], ...]:
    if m is None:
        return ()
    named = m.re.groupindex
    out: list[tuple[str, str]] = []
    for name, _idx in sorted(named.items(), key=lambda kv: kv[1]):
        value = m.group(name)
        if value is not None and value.strip():
            out.append((name, value.strip().strip("[]'\"").strip()))
    return tuple(out)
