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

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dumpscope.core.knowledge.codes import extract_codes
from dumpscope.core.knowledge.entry import Entry
from dumpscope.core.knowledge.words import tokens

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


@dataclass(frozen=True)
class Match:
    """One ranked answer: the entry, why it matched and the parts captured from the message."""

    entry: Entry
    score: float
    reason: str
    """``code``, ``pattern``, ``words`` or a ``+`` combination, strongest first."""
    captures: tuple[tuple[str, str], ...] = ()
    """Named variable parts from the message (``op``, ``shape``, ``value``...), in order."""
    codes: tuple[str, ...] = ()
    """Keys of the message's codes that named this entry."""

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
        }


class KnowledgeBase:
    """Entries plus the indexes that make a lookup cost about a millisecond."""

    def __init__(self, entries: Iterable[Entry], warnings: Sequence[str] = ()) -> None:
        self.entries: tuple[Entry, ...] = tuple(entries)
        self.warnings: tuple[str, ...] = tuple(warnings)
        self._by_key: dict[str, list[int]] = defaultdict(list)
        self._by_word: dict[str, list[int]] = defaultdict(list)
        for i, e in enumerate(self.entries):
            for k in e.keys:
                self._by_key[k].append(i)
            for w in e.words:
                self._by_word[w].append(i)
        n = max(1, len(self.entries))
        self._idf = {w: math.log(1 + n / len(ids)) for w, ids in self._by_word.items()}
        self._norm = [math.sqrt(sum(self._idf[w] ** 2 for w in e.words)) or 1.0 for e in self.entries]

    def __len__(self) -> int:
        return len(self.entries)

    def lookup(self, message: str, top: int = 5) -> list[Match]:
        """Ranked matches for a message (one line or a whole multi-line block)."""
        text = message[:MAX_TEXT]
        if not text.strip():
            return []
        lowered = text.lower()
        codes = extract_codes(text)
        code_hits: dict[int, list[str]] = defaultdict(list)
        for c in codes:
            for i in self._by_key.get(c.key, ()):
                code_hits[i].append(c.key)
        word_sim = self._word_similarity(tokens(text))
        results: list[Match] = []
        for i, e in enumerate(self.entries):
            m = e.search(text, lowered)
            hit_codes = code_hits.get(i)
            sim = word_sim.get(i, 0.0)
            if m is None and not hit_codes and sim < MIN_WORDS:
                continue
            reasons: list[str] = []
            score = 0.0
            if hit_codes:
                reasons.append("code")
                score += CODE_SCORE
            if m is not None:
                reasons.append("pattern")
                score += PATTERN_SCORE
            if reasons:
                score += WORDS_SCORE * sim
            else:
                reasons.append("words")
                score = WORDS_ONLY_SCORE * sim
            if e.generic:
                score = min(score - GENERIC_PENALTY, GENERIC_CAP)
            if e.uncertain:
                score -= UNCERTAIN_PENALTY
            results.append(
                Match(
                    entry=e,
                    score=round(max(score, 0.0), 1),
                    reason="+".join(reasons),
                    captures=_captures(m),
                    codes=tuple(hit_codes or ()),
                )
            )
        results.sort(key=lambda r: (-r.score, r.entry.generic))
        return results[: max(0, top)]

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
