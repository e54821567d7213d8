"""One knowledge-base entry: schema, validation and the literal anchors of its pattern.

An entry is one known error message (or one family of them) with its cause and fix.
``pattern`` is a Python ``re`` pattern searched in a log line or a short block; named
groups (``(?P<op>...)``, ``(?P<shape>...)``...) are the variable parts shown to the user.

Matching many entries fast rests on *anchors*: literal strings that any text matching the
pattern must contain (lower-cased).  A cheap ``in`` test on anchors decides whether the
regular expression is worth running at all, and :mod:`dumpscope.core.knowledge.scan` adds each
user entry's longest anchor to the cue words its prefilter finds in whole logs.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable, Iterator, Sequence

from dumpscope.core.knowledge import forms
from dumpscope.core.knowledge.codes import keys_for_code
from dumpscope.core.knowledge.words import pattern_words, tokens
from dumpscope.core.lazyre import LazyPattern

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from typing import Any, TypeAlias

    # an item of Entry.requires: a literal, or a branch's alternatives (each a literal, or literals all held)
    Required: TypeAlias = "str | tuple[str | tuple[str, ...], ...]"

if sys.version_info >= (3, 11):
    import re._constants as _sre_c
    import re._parser as _sre_parse
else:  # pragma: no cover - Python 3.10
    import sre_constants as _sre_c
    import sre_parse as _sre_parse

STAGES = ("parse", "convert", "calibrate", "compile", "simulate", "run", "compare")
REQUIRED_TEXT = ("tool", "stage", "cause", "fix", "source")

#: Patterns run on at most this many characters around an anchor, so a pathological
#: line (a megabyte without newlines) costs a bounded time per entry.
WINDOW = 8192
#: How many anchor occurrences in one long text are tried before giving up.
MAX_WINDOWS = 8
#: Anchors shorter than this are too common to filter anything.
MIN_ANCHOR = 3


class EntryError(ValueError):
    """An entry does not follow the schema; the message says which field and why."""


#: Optional fields of an entry and their defaults (the required ones are id, tool, stage, cause, fix, source).
DEFAULTS: dict[str, object] = {
    "pattern": "",
    "code": "",
    "keys": (),
    "family": "",
    "group": "",
    "uncertain": False,
    "generic": False,
    "named_only": False,
    "consequence": False,
    "example": "",
    "level": "",
    "origin": "builtin",
    "anchors": (),
    "words": frozenset(),
    "requires": (),
}
FIELDS = ("id", "tool", "stage", "cause", "fix", "source", *DEFAULTS)
DERIVED = frozenset({"words", "requires"})
"""Fields computed from the others for speed: not part of an entry's equality."""


class Entry:
    """A curated (or user-supplied) error description; immutable.

    A plain slotted class rather than a dataclass: importing :mod:`dataclasses` (and with
    it :mod:`inspect`) was a fixed part of every ``dumpscope explain`` start.

    * ``keys``: normalised codes (``ascend:E10001``, ``acl:507015``, ``ts:0x26``, ``ort:10``,
      ``rknn:RKNN_ERR_FAIL``, ``trt:UNSUPPORTED_NODE``...) that identify this entry;
    * ``group``: entries of one tool that share a code on purpose name the code here;
    * ``generic``: a scheme entry (a whole code range, an "inner error" code): a specific
      entry for the same code ranks above it;
    * ``level``: ``family`` for a family-level entry (what any error of that tool means, how
      to get detail); ``context`` for what surrounds a failure without being it: a tool's step that
      caught an exception and printed it (a Python wrapper's ``Catch exception when building RKNN
      model``), a warning printed before the failure (coremltools' untested torch version): what it
      says, ranked like an envelope under any specific match of its tool (:func:`.clauses.is_envelope`);
    * ``consequence``: the entry's text only follows from an earlier failure and names none of its own
      (``Engine deserialization failed``, ``Assertion engine != nullptr failed``, ``Segmentation fault``):
      in a paste whose earlier line an entry of the same tool answers, it ranks under that entry
      (:func:`.kb.consequences_last`);
    * ``anchors``: lower-cased literals of which every match contains at least one; () =
      always try (stored in the built-in data file, where a test checks them; computed for
      user entries);
    * ``words``: tokens of the pattern and code wording for ranking (stored likewise); not
      part of equality;
    * ``requires``: what every match contains, all of it (:func:`pattern_requires`): each item a
      lower-cased literal, or a tuple of literals of which every match holds one (the alternatives of a
      branch); when one is missing the pattern is not compiled.  Stored in ``kb_index.json`` for the
      built-in entries, computed for user entries, () = no precheck; derived, so not part of equality.
    """

    __slots__ = (*FIELDS, "_regex")
    id: str
    tool: str
    stage: str
    cause: str
    fix: str
    source: str
    pattern: str
    code: str
    keys: tuple[str, ...]
    family: str
    group: str
    uncertain: bool
    generic: bool
    named_only: bool
    consequence: bool
    example: str
    level: str
    origin: str
    anchors: tuple[str, ...]
    words: frozenset[str]
    requires: tuple[Required, ...]
    _regex: re.Pattern[str] | None

    def __init__(
        self, id: str, tool: str, stage: str, cause: str, fix: str, source: str, **optional: object
    ) -> None:
        unknown = optional.keys() - DEFAULTS.keys()
        if unknown:
            raise TypeError(f"Entry() got unexpected fields: {', '.join(sorted(unknown))}")
        values = {"id": id, "tool": tool, "stage": stage, "cause": cause, "fix": fix, "source": source}
        for name, value in {**values, **DEFAULTS, **optional}.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_regex", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an Entry is immutable (cannot set {name!r})")

    def _compared(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in FIELDS if name not in DERIVED)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def __repr__(self) -> str:
        return f"Entry(id={self.id!r}, tool={self.tool!r}, code={self.code!r}, origin={self.origin!r})"

    @property
    def regex(self) -> re.Pattern[str] | None:
        """The compiled pattern (compiled on first use, from its stored form when there is one: most entries
        are never searched)."""
        if self._regex is None and self.pattern:
            object.__setattr__(self, "_regex", forms.compile(self.pattern))
        return self._regex

    def search(self, text: str, lowered: str | None = None) -> re.Match[str] | None:
        """Search the pattern in ``text``; ``lowered`` is ``text.lower()`` when the caller has it.

        Long texts are searched only in windows around the first anchor occurrences.
        """
        if not self.pattern:
            return None
        low = text.lower() if lowered is None else lowered
        if self.anchors and not any(a in low for a in self.anchors):
            return None  # decided without compiling the pattern
        if self.requires and not may_contain_all(low, self.requires):
            return None  # likewise: a literal every match holds is missing
        return self._search_windows(text, low)

    def _search_windows(self, text: str, low: str) -> re.Match[str] | None:
        """The compiled search: the whole text when short, else windows around the anchors."""
        rx = self.regex
        assert rx is not None
        if len(text) <= WINDOW:
            return rx.search(text)
        if not self.anchors:
            return rx.search(text, 0, WINDOW)
        return _first_in_windows(rx, text, _anchor_positions(low, self.anchors))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "family": self.family,
            "tool": self.tool,
            "stage": self.stage,
            "code": self.code,
            "keys": list(self.keys),
            "pattern": self.pattern,
            "cause": self.cause,
            "fix": self.fix,
            "source": self.source,
            "uncertain": self.uncertain,
            "generic": self.generic,
            "origin": self.origin,
            "anchors": list(self.anchors),
        }
        if self.group:
            out["group"] = self.group
        if self.example:
            out["example"] = self.example
        if self.level:
            out["level"] = self.level
        if self.named_only:
            out["named_only"] = True
        if self.consequence:
            out["consequence"] = True
        return out


CASE_FOLDS_ONTO_ASCII = "\u0131\u017f"
"""The characters that an ignore-case pattern's ASCII letter matches but that ``str.lower`` leaves
without that letter (dotless i, long s): a lower-cased text holding one may match a pattern without
holding its literals, so a text with one is never ruled out by :attr:`Entry.requires` (a test derives
this set from ``re`` over every code point)."""


def may_contain_all(low: str, required: Sequence[Any]) -> bool:
    """Whether a lower-cased text may match a pattern whose matches all hold ``required`` (an entry's
    :attr:`~Entry.requires`, or the index's JSON form of it: a branch's alternatives as a list, an
    alternative of several literals as a list inside it)."""
    if all(r in low if isinstance(r, str) else any(_holds_all(a, low) for a in r) for r in required):
        return True
    return not low.isascii() and any(c in low for c in CASE_FOLDS_ONTO_ASCII)


def _holds_all(alternative: str | Sequence[str], low: str) -> bool:
    """A branch's alternative is in the text: its literal, or each of its literals."""
    return alternative in low if isinstance(alternative, str) else all(a in low for a in alternative)


def _first_in_windows(rx: re.Pattern[str], text: str, starts: list[int]) -> re.Match[str] | None:
    """The first match in a :data:`WINDOW`-wide window centred on one of ``starts``."""
    for start in starts:
        lo = max(0, start - WINDOW // 2)
        m = rx.search(text, lo, lo + WINDOW)
        if m:
            return m
    return None


def _anchor_positions(low: str, anchors: tuple[str, ...]) -> list[int]:
    found: list[int] = []
    for a in anchors:
        pos = low.find(a)
        while pos >= 0 and len(found) < MAX_WINDOWS * len(anchors):
            found.append(pos)
            pos = low.find(a, pos + max(1, WINDOW // 2))
    return sorted(found)[:MAX_WINDOWS]


def entry_from_dict(raw: Any, origin: str = "builtin", trusted: bool = False) -> Entry:
    """Validate one JSON object and build an :class:`Entry` (raises :class:`EntryError`).

    ``trusted`` (the built-in file, which the test-suite checks) skips compiling the
    pattern and takes the stored ``anchors``: loading then costs no regex compilation.
    """
    pattern, code, keys = _validated(raw)
    if pattern and not trusted:
        _check_user_pattern(pattern)
    anchors, all_keys, words = _derived(raw, pattern, code, keys, trusted)
    requires = _required(raw, pattern, trusted)
    entry_id = raw.get("id") or _default_id(raw["tool"], code, pattern)
    return Entry(
        id=str(entry_id),
        tool=raw["tool"].strip(),
        stage=raw["stage"],
        cause=raw["cause"].strip(),
        fix=raw["fix"].strip(),
        source=raw["source"].strip(),
        pattern=pattern,
        code=code,
        keys=all_keys,
        family=str(raw.get("family", "")),
        group=str(raw.get("group", "")),
        uncertain=bool(raw.get("uncertain", False))
        or "UNCERTAIN" in f"{raw['cause']} {raw['fix']} {raw['source']}",
        generic=bool(raw.get("generic", False)),
        named_only=bool(raw.get("named_only", False)),
        consequence=bool(raw.get("consequence", False)),
        example=str(raw.get("example", "")),
        level=str(raw.get("level", "")),
        origin=origin,
        words=words,
        anchors=anchors,
        requires=requires,
    )


def _validated(raw: Any) -> tuple[str, str, list[str]]:
    """``(pattern, code, keys)`` of a raw entry after the schema checks (raises :class:`EntryError`)."""
    if not isinstance(raw, dict):
        raise EntryError("an entry must be a JSON object")
    _check_text_fields(raw)
    _check_stage(raw["stage"])
    pattern, code, keys = raw.get("pattern", ""), raw.get("code", ""), raw.get("keys", [])
    _check_field_types(pattern, code, keys)
    if not (pattern or keys or code):
        raise EntryError("an entry needs a pattern, a code or keys to be found")
    return pattern, code, keys


def _check_text_fields(raw: dict[str, Any]) -> None:
    """Every required text field is a non-empty string."""
    for name in REQUIRED_TEXT:
        value = raw.get(name)
        if not isinstance(value, str) or not value.strip():
            raise EntryError(f"field {name!r} is missing or empty")


def _check_stage(stage: str) -> None:
    if stage not in STAGES:
        raise EntryError(f"stage {stage!r} is not one of {', '.join(STAGES)}")


def _check_field_types(pattern: object, code: object, keys: object) -> None:
    """``pattern`` and ``code`` are strings, ``keys`` a list of strings."""
    if not isinstance(pattern, str) or not isinstance(code, str):
        raise EntryError("'pattern' and 'code' must be strings")
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise EntryError("'keys' must be a list of strings")


def _derived(
    raw: dict[str, Any], pattern: str, code: str, keys: list[str], trusted: bool
) -> tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]:
    """``(anchors, complete keys, words)``: stored in the built-in file (a test checks them), else
    computed."""
    stored = raw.get("anchors")
    if trusted and isinstance(stored, list):
        return tuple(str(a) for a in stored), tuple(keys), frozenset(raw.get("words", ()))
    anchors = pattern_anchors(pattern) if pattern else ()
    return anchors, tuple(sorted(set(keys) | set(keys_for_code(code)))), entry_words(pattern, code)


def _required(raw: dict[str, Any], pattern: str, trusted: bool) -> tuple[Required, ...]:
    """What every match holds: stored for a trusted entry (by the compiled index, a list of literals and
    lists of alternatives; () when the index gave none: no precheck, same answers), computed for any
    other."""
    if trusted:
        return tuple(
            r if isinstance(r, str) else tuple(map(_alternative, r)) for r in raw.get("requires", ())
        )
    return pattern_requires(pattern) if pattern else ()


def _alternative(a: str | list[str]) -> str | tuple[str, ...]:
    """A branch's alternative as :attr:`Entry.requires` holds it (the JSON form's list made a tuple)."""
    return a if isinstance(a, str) else tuple(a)


def entry_words(pattern: str, code: str) -> frozenset[str]:
    """The wording of an entry used for ranking: its pattern's literal words and its code's."""
    return pattern_words(pattern) | tokens(code)


def _check_user_pattern(pattern: str) -> None:
    """Compile ``pattern`` and reject shapes that backtrack catastrophically (raises :class:`EntryError`).

    Python's ``re`` cannot be interrupted, so a user pattern such as ``(a+)+$`` would hang a
    lookup; a repeat that contains an unbounded repeat (outside an atomic group) is refused, and
    so is a pattern whose matching time grows exponentially on short probes (``(a|a)*``).
    Slower exponentials (``(a|aa)+``) can still pass: a known limit of the probe.
    """
    try:
        rx = re.compile(pattern)
    except re.error as exc:
        raise EntryError(f"pattern does not compile: {exc}") from None
    if _nested_unbounded(_sre_parse.parse(pattern).data, outer=""):
        raise EntryError(
            "pattern can backtrack catastrophically (an unbounded repeat inside another repeat, "
            "like (a+)+); bound the inner repeat ({0,120}) or wrap it in an atomic group (?>...)"
        )
    if _grows_exponentially(rx, pattern):
        raise EntryError(
            "pattern can backtrack catastrophically (its matching time doubles with each extra "
            "character, e.g. overlapping alternatives under a repeat like (a|a)*); make the alternatives "
            "distinct"
        )


PROBE_SHORT, PROBE_LONG = 14, 18
"""Probe lengths: an exponential pattern takes 2**4 = 16 times longer on the long probe."""


def _grows_exponentially(rx: re.Pattern[str], pattern: str) -> bool:
    """Time the pattern on short failing strings made of its own literal characters.

    Each probe is tiny (about 2**18 backtracking steps for the worst patterns), so this
    check costs milliseconds even for a pattern it rejects.
    """
    chars = {ch for ch in pattern if ch.isalnum()} or {"a"}
    return any(_doubles(rx, ch) for ch in sorted(chars)[:8])


def _doubles(rx: re.Pattern[str], ch: str) -> bool:
    """Whether 4 more characters make a failing search 8x slower (2**4 = 16x for an exponential).

    Each length is timed three times and the fastest run counts: a busy machine stalls single
    runs, and a stall only ever adds time.
    """
    short = min(_probe_time(rx, ch * PROBE_SHORT + "\x00") for _ in range(3))
    long = min(_probe_time(rx, ch * PROBE_LONG + "\x00") for _ in range(3))
    return long > 0.002 and long > 8 * max(short, 1e-5)


def _probe_time(rx: re.Pattern[str], text: str) -> float:
    import time

    start = time.perf_counter()
    rx.search(text)
    return time.perf_counter() - start


def _nested_unbounded(seq: list[tuple[Any, Any]], outer: str) -> bool:
    """Whether a repeating repeat (``outer``: "", "bounded" or "unbounded") nests an ambiguous repeat.

    Inside a bounded repeat an unbounded one is refused; inside an unbounded repeat any
    repeat of variable length is (``(a{0,5})+`` is as bad as ``(a+)+``).  Atomic groups
    and possessive repeats cannot backtrack and are not entered.
    """
    return any(_item_is_ambiguous(op, av, outer) for op, av in seq)


def _item_is_ambiguous(op: Any, av: Any, outer: str) -> bool:
    """One parsed item of :func:`_nested_unbounded`."""
    if op in _REPEATS and op is not _POSSESSIVE:
        return _repeat_is_ambiguous(av, outer)
    return any(_nested_unbounded(list(seq), outer) for seq in _sub_sequences(op, av))


def _sub_sequences(op: Any, av: Any) -> list[Any]:
    """The item sequences a group or a branch holds (none for other items)."""
    if op is _SUB:
        return [av[3]]
    if op is _BRANCH:
        return list(av[1])
    return []


def _repeat_is_ambiguous(av: Any, outer: str) -> bool:
    """A repeat ``(lo, hi, body)`` that breaks the nesting rule, or whose body does."""
    lo, hi, body = av
    unbounded = hi == _sre_c.MAXREPEAT
    if _breaks_nesting(outer, unbounded, lo != hi):
        return True
    return _nested_unbounded(list(body), outer or _repeat_kind(unbounded, hi))


def _breaks_nesting(outer: str, unbounded: bool, variable: bool) -> bool:
    """An unbounded repeat in a bounded one, or any variable repeat in an unbounded one."""
    return (outer == "bounded" and unbounded) or (outer == "unbounded" and variable)


def _repeat_kind(unbounded: bool, hi: int) -> str:
    """What a repeat is to the repeats nested in it: ``unbounded``, ``bounded`` or "" (at most once)."""
    return "unbounded" if unbounded else "bounded" if hi > 1 else ""


def _default_id(tool: str, code: str, pattern: str) -> str:
    words = re.findall(r"[a-z0-9]+", f"{tool} {code or pattern}".lower())
    return "-".join(words[:8]) or "entry"


# --- anchors ----------------------------------------------------------------------------

_LIT = _sre_c.LITERAL
_SUB = _sre_c.SUBPATTERN
_BRANCH = _sre_c.BRANCH
_ATOMIC = _sre_c.ATOMIC_GROUP if hasattr(_sre_c, "ATOMIC_GROUP") else None
_REPEATS = tuple(
    getattr(_sre_c, n) for n in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT") if hasattr(_sre_c, n)
)
_POSSESSIVE = getattr(_sre_c, "POSSESSIVE_REPEAT", None)


@functools.cache
def literal_only(pattern: str) -> str | None:
    """The pattern's text (lower-cased) when it is nothing but a literal, matched case-sensitively; else None.

    Such a pattern cannot fail on text that holds its literal except by letter case, so the case is what
    it means (CANN's ``TraceBack (most recent call last):`` is not Python's ``Traceback``).  Kept per pattern:
    a lookup asks it of an entry in every segment that holds its core phrase, and parsing a pattern costs
    up to 0.1 ms."""
    try:
        parsed = _sre_parse.parse(pattern)
    except re.error:
        return None
    items: list[tuple[Any, Any]] = list(parsed.data)
    if parsed.state.flags & re.IGNORECASE or not all(op is _LIT for op, _ in items):
        return None
    return "".join(chr(av) for _, av in items).lower().strip()


_TOOL_SPECIFIC = LazyPattern(r"\d|_|::|->|[/\\`<>=#@$|{}]|\.[A-Za-z]\w|[a-z][A-Z]|\b[A-Z]{2,}\b")
"""What makes a pattern's literal text a tool's own: a digit, an identifier (``snake_case``, ``camelCase``, an
ALL-CAPS name, ``ns::name``), a path or file name (``/``, ``\\``, ``.cc``), an operator or code character."""
_EXCEPTION_NAME = LazyPattern(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:Error|Exception|Warning)\b")
"""A Python exception's name (``KeyError``, ``RuntimeError``): any tool raises it, no tool's literal."""


def generic_wording(pattern: str, markers: Iterable[str] = ()) -> bool:
    """Whether every literal of ``pattern`` (all its literal runs, in every branch, group and repeat) is
    plain English any tool prints: no digit, identifier, path, file name, ALL-CAPS name or code character
    (:data:`_TOOL_SPECIFIC`; Python exception names do not count, :data:`_EXCEPTION_NAME`).  ``Cannot load
    input model: (.+)``, ``The following operators are not implemented: \\[(.+)\\]`` and ``Type (.+)
    not supported.`` are; ``Assertion `s32InputCount <= ((10000))' failed`` is not.  Such a pattern
    matching, or its words shared, says what went wrong, not which tool said it (see
    :func:`.answer.answer`).  Nor is a pattern whose literals hold one of ``markers`` (the entry's own
    tool's marker literals, :data:`.markers.MARKERS`: the tool's distinctive phrases, ``these op not
    support``), as a whole phrase.  False for an empty or invalid pattern."""
    try:
        parsed = _sre_parse.parse(pattern)
    except re.error:
        return False
    text = " ".join(r for r in _literal_runs(list(parsed.data)) if r.strip())
    if not text or _TOOL_SPECIFIC.search(_EXCEPTION_NAME.sub(" ", text)):
        return False
    lowered = f" {text.lower()} "
    return not any(_whole_phrase_in(m.lower(), lowered) for m in markers)


def _whole_phrase_in(phrase: str, text: str) -> bool:
    """Whether ``phrase`` is in ``text`` with no word cut at either end."""
    return bool(phrase) and re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


def _literal_runs(seq: list[tuple[Any, Any]]) -> Iterator[str]:
    """Every run of literal characters of a parsed pattern, those of optional parts included."""
    run: list[str] = []
    for op, av in seq:
        if op is _LIT:
            run.append(chr(av))
            continue
        yield "".join(run)
        run = []
        if op is _BRANCH:
            for branch in av[1]:
                yield from _literal_runs(list(branch))
        elif op is _SUB:
            yield from _literal_runs(list(av[3]))
        elif _ATOMIC is not None and op is _ATOMIC:
            yield from _literal_runs(list(av))
        elif op in _REPEATS:
            yield from _literal_runs(list(av[2]))
    yield "".join(run)


def pattern_anchors(pattern: str) -> tuple[str, ...]:
    """Literal strings (lower-cased) of which any match of ``pattern`` contains one.

    Returns () when no such set is known (the pattern must then always be tried).
    Only sound facts are used: literal runs of mandatory items; a branch contributes one
    anchor per alternative, and only if every alternative has one.
    """
    try:
        parsed = _sre_parse.parse(pattern)
    except re.error:
        return ()
    if parsed.state.flags & re.IGNORECASE and any(ord(c) > 127 for c in pattern):
        return ()
    best = _best_anchor_set(parsed.data)
    return tuple(sorted(set(best))) if best else ()


def _best_anchor_set(seq: list[tuple[Any, Any]]) -> list[str] | None:
    """The best anchor set for a sequence: its longest literal run, or a branch's set."""
    candidates = [c for c in _anchor_candidates(seq) if c]
    return max(candidates, key=_anchor_rank) if candidates else None


def _anchor_candidates(seq: list[tuple[Any, Any]]) -> Iterator[list[str] | None]:
    """Anchor sets of a sequence's literal runs and of its mandatory groups, branches and repeats."""
    run: list[str] = []
    for op, av in seq:
        if op is _LIT:
            run.append(chr(av))
            continue
        yield _run_anchor(run)
        run = []
        yield _item_anchors(op, av)
    yield _run_anchor(run)


def _run_anchor(run: list[str]) -> list[str] | None:
    """A literal run as an anchor set of one, if it is long enough to filter anything."""
    text = "".join(run).lower().strip()
    return [text] if len(text) >= MIN_ANCHOR else None


def _item_anchors(op: Any, av: Any) -> list[str] | None:
    """The anchor set of one non-literal item (None when the item may match without text)."""
    if op is _BRANCH:
        return _branch_anchors(av[1])
    body = _mandatory_body(op, av)
    return _best_anchor_set(body) if body is not None else None


def _mandatory_body(op: Any, av: Any) -> list[tuple[Any, Any]] | None:
    """The items every match of a group, atomic group or repeat (at least once) goes through."""
    if op is _SUB:
        return list(av[3])
    if _ATOMIC is not None and op is _ATOMIC:
        return list(av)
    if op in _REPEATS and av[0] >= 1:
        return list(av[2])
    return None


def _branch_anchors(branches: Any) -> list[str] | None:
    """One anchor per alternative, only if every alternative has one."""
    alts = [_best_anchor_set(list(b)) for b in branches]
    if alts and all(alts):
        return [a for alt in alts if alt for a in alt]
    return None


def pattern_requires(pattern: str) -> tuple[Required, ...]:
    """What every match of ``pattern`` contains, all of it: lower-cased ASCII literals (of
    :data:`MIN_ANCHOR` characters or more), the literal runs of its mandatory items, then a tuple per
    mandatory branch whose every alternative holds such a literal (one literal per alternative: a match
    holds one of them).

    Where :func:`pattern_anchors` says "one of these", this says "each of these"; a text that lacks
    one cannot match, which a lookup decides before compiling the pattern.  () when none is known.
    """
    try:
        parsed = _sre_parse.parse(pattern)
    except re.error:
        return ()
    found = list(_required_items(parsed.data))
    runs = {r for r in found if isinstance(r, str)}
    literals = sorted(r for r in runs if not any(r != other and r in other for other in runs))
    branches = [r for r in dict.fromkeys(found) if not isinstance(r, str)]
    return (*literals, *branches)


def _required_items(seq: list[tuple[Any, Any]]) -> Iterator[Required]:
    """The literal runs of a sequence and of the groups and repeats every match goes through, and the
    alternatives of its mandatory branches."""
    run: list[str] = []
    for op, av in seq:
        if op is _LIT:
            run.append(chr(av))
            continue
        yield from _usable_run(run)
        run = []
        if op is _BRANCH:
            yield from _branch_requirement(av[1])
            continue
        body = _mandatory_body(op, av)
        if body is not None:
            yield from _required_items(body)
    yield from _usable_run(run)


def _branch_requirement(branches: Any) -> Iterator[Required]:
    """What every match through each alternative of a branch holds, when every alternative holds something:
    all of its required literals (``rknn_`` and ``ret`` for ``rknn_\\w+ ... ret = -2``, not the longer one
    alone), or the alternatives of a branch nested in it.  An alternative whose literals hold another
    alternative's is left out (a text holding it holds the other: ``rknn_err_timeout`` beside ``rknn_``
    alone).  The literals of the one alternative left, each required; else the tuple of the alternatives,
    each a literal or a tuple of the literals it holds all of."""
    alternatives: set[tuple[str, ...]] = set()
    for branch in branches:
        items = list(_required_items(list(branch)))
        literals = {r for r in items if isinstance(r, str)}
        if literals:
            alternatives.add(
                tuple(sorted(r for r in literals if not any(r != o and r in o for o in literals)))
            )
        elif items:  # only a nested branch: one of its alternatives
            alternatives.update((a,) if isinstance(a, str) else a for a in items[0])
        else:
            return
    kept = sorted(a for a in alternatives if not any(b != a and _implies(a, b) for b in alternatives))
    if len(kept) == 1:
        yield from kept[0]
    elif kept:
        yield tuple(a[0] if len(a) == 1 else a for a in kept)


def _implies(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """A text holding every literal of ``a`` holds every literal of ``b`` (each stands inside one of a's)."""
    return all(any(x in y for y in a) for x in b)


def _usable_run(run: list[str]) -> Iterator[str]:
    """A literal run, lower-cased, if it is ASCII (case folding of other scripts is left alone) and long
    enough to rule anything out."""
    text = "".join(run).lower()
    if len(text) >= MIN_ANCHOR and text.isascii():
        yield text


def _anchor_rank(c: list[str]) -> int:
    """Prefer few alternatives, then the shortest alternative being as long as possible."""
    shortest = min(len(a) for a in c)
    return shortest if len(c) == 1 else shortest - 2 * len(c)
