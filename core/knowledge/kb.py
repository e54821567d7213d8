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

import functools
import json
import math
import re
from collections import defaultdict, namedtuple
from collections.abc import Iterable, Iterator, Sequence

from dumpscope.core.knowledge import finder
from dumpscope.core.knowledge.clauses import (
    REASON_LINE_ID,
    answers_reason,
    envelope_reason_answered,
    is_code_card,
    is_envelope,
    last_resort_answered,
    refine,
    runtime_answered,
)
from dumpscope.core.knowledge.codes import (
    FoundCode,
    extract_codes,
    possible_extractors,
    printed_code,
    range_keys,
    scheme_family,
)
from dumpscope.core.knowledge.conditions import condition_answered  # s38a: a check's condition read
from dumpscope.core.knowledge.entry import Entry, literal_only
from dumpscope.core.knowledge.family import (
    MAX_TEXT,
    MEDIUM,
    SOURCE_COUNTS,
    detect_families,
    family_evidence,
    source_gram_counts,
    source_name_counts,
)
from dumpscope.core.knowledge.index import (
    PLAIN_WORDS,
    RUNTIME_FAMILIES,
    CompiledIndex,
    EntryTable,
    PackedFloats,
    Postings,
    StaleIndex,
    entries_of,
    word_idf,
    word_norms,
)
from dumpscope.core.knowledge.inner_forms import INNER_CUES
from dumpscope.core.knowledge.markers import component_unnamed
from dumpscope.core.knowledge.paste import as_printed, captures_as_pasted
from dumpscope.core.knowledge.tracebacks import failures
from dumpscope.core.knowledge.words import is_common_word, tokens
from dumpscope.core.lazyre import LazyPattern

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from typing import Any

    from dumpscope.core.knowledge.answer import Answer

NORMS_AT_ONCE = 600
"""Once the lookups of a knowledge base have read more entry norms than this, every norm is read at once, as a
list (~the cost of the index's former JSON list); before, only those asked for, each from its string.  A
one-line message reads 281-538 (the bench's three lines), a long paste ~5,000 (its worst three dev messages).
Callgrind, a regular install, E10001 line: 202.4M instructions reading all at once, 196.3M one by one; with
1,500 here, a 6 KB torch_npu traceback read 1,500 one by one first and cost 7M more than main in an editable
install.  The same numbers either way, so the same scores."""
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
PARTIAL_SCORE = 24.0
"""The core phrase of an entry is present but its full pattern does not match."""
PARTIAL_ANCHOR = 12
"""Shortest anchor (of several words) that counts as a core phrase for a partial match."""
SHARED_CODE_LIMIT = 3
"""A code named by more specific entries than this is evidence of the family only."""
SHARED_CODE_SCORE = 10.0
SUBCASE_PENALTY = 10.0
"""How much lower an entry found by its code alone scores when its cause speaks of parts its pattern
captures (:func:`speaks_of_parts`): it was written for one case of the code (``E89999``'s dtype mismatch
of two named inputs), and the message, which its pattern did not match, does not state that case.  Below
the code's other entries found the same way (CODE_SCORE + words), above a family card (FAMILY_SCORE)."""
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
LONE_WORD_FACTOR = 0.7
"""Wording alone found an entry through one distinctive word only: all other words it shares with the message
are generic ones (:data:`.index.GENERIC_FAMILIES`).  One rare word a message and an entry share (``init``,
``create``, ``runtime``) is weak evidence of that entry's tool; two or more say more, so such a match is
lowered below them (not left out: it is often still the right tool's).  Set on
``bench/eval_explain.py --blank-markers`` (dev messages with every marker and code blanked, their own
threads' entries hidden): first tool right claimed 326 -> 331 of 471, new 93 -> 94 of 175, confident and
wrong 37 -> 34 (one right confident answer, an onnx one, withheld); 0.5 gave 328, 0.85 329, leaving such
matches out entirely 290.  With the markers kept, no dev answer moved (every part, leave-source-out)."""
DISTINCT_SHARED = 1
"""Least number of an entry's distinctive terms (:data:`.index.DISTINCT_DF`) a message must share for that
entry, found by wording alone, to answer first (:meth:`KnowledgeBase.distinct_first`)."""
LEANING_SCORE = 15.0
"""The card of the family a message only leans to (:func:`leaning_family`): found as wording is, under the
answer's floor and the log scan's least wording score (a cue, not a marker: "no confident match", closest
tool that one), above any other tool's wording-only match lowered for it (at most 30 x 0.4)."""


class Match(namedtuple("Match", "entry score reason captures codes via printed", defaults=((), (), (), ()))):
    """One ranked answer: the entry, why it matched and the parts captured from the message.

    * ``reason``: ``code``, ``pattern``, ``words`` or a ``+`` combination, strongest first;
    * ``captures``: named variable parts from the message (``op``, ``shape``, ``value``...), in order;
    * ``codes``: keys of the message's codes that named this entry or concern its tool;
    * ``via``: other tools the message names (a library error seen through a consumer: "also seen via");
    * ``printed``: ``(key, code as the message prints it)`` for those codes (``0x8000042C``, an enum name).

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
    printed: tuple[tuple[str, str], ...]

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
        """The entry's cause with the parts captured from the message filled in (``{op}``, ``{value}``...)."""
        return fill(_rows_filled(self.entry.cause, self.captures), self.captures)

    @property
    def fix(self) -> str:
        """The entry's fix with the captured parts filled in."""
        return fill(_rows_filled(self.entry.fix, self.captures), self.captures)

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
        from dumpscope.core.knowledge.answer import confidence_of, shown_code

        e = self.entry
        confidence, basis = confidence_of(self)
        return {
            "tool": e.tool,
            "stage": e.stage,
            "code": e.code,
            "shown_code": shown_code(self),
            "cause": self.cause,
            "fix": self.fix,
            "source": e.source,
            "score": self.score,
            "reason": self.reason,
            "basis": basis,
            "confidence": confidence,
            "captures": dict(self.captures),
            "origin": e.origin,
            "id": e.id,
            "family": e.family,
            "uncertain": e.uncertain,
            "generic": e.generic,
            "consequence": e.consequence,
            "codes": list(self.codes),
            "via": list(self.via),
        }


_PLACEHOLDER = re.compile(r"( ?)(['\"(]?|--)\{([a-z][a-z0-9_]{0,20})(?:\|([^{}|]{0,200}))?\}(['\")]?)")
"""``{name}`` or ``{name|what to say without it}``, with the quote or parenthesis around it, if any, or the
``--`` of a command-line option (``--{option}``: ``--input_shape``, and the option's words without it)."""
MISSING: dict[str, str] = {
    "op": "the node",
    "op_name": "the node",
    "node": "the node",
    "layer": "the layer",
    "op_type": "the operator type",
    "optype": "the operator type",
    "type": "the type",
    "ops": "the operators",
    "input": "the input",
    "output": "the output",
    "tensor": "the tensor",
    "arg": "the argument",
    "value": "the value",
    "option": "the option",
    "dtype": "the data type",
    "shape": "the shape",
    "version": "the version",
    "path": "the file",
    "opset": "the opset",
    "domain": "the domain",
    "axis": "the axis",
    "index": "the index",
    "file": "the file",
    "lib": "the library",
    "name": "the name",
    "detail": "the details",
    "reason": "the reason",
    "call": "the call",
    "device": "the device",
    "attr": "the attribute",
    "package": "the package",
}
"""What a ``{name}`` placeholder says when the message did not carry that part and the entry gives no
``{name|...}`` text of its own (numbered names, ``op2``, read as their base name)."""
_CLOSES = {"'": "'", '"': '"', "(": ")"}


def fill(text: str, captures: tuple[tuple[str, str], ...]) -> str:
    """``text`` with each ``{name}`` replaced by the part of that name captured from the message.

    A part the message did not carry (the entry was found by its code or its wording, or the pattern's
    group is optional) is said in words: the entry's own ``{name|words}`` when it has them, else the
    :data:`MISSING` words of that name ("the node"), with the quotes around the placeholder dropped (and
    its parentheses, for those words); an empty
    ``{name|}`` drops the placeholder with its quotes or parentheses and the space before them.  The words
    fit the sentence around them: what it says just before or after is not said twice (``node {op}``,
    ``attribute {option|the attribute}``, ``its {input} input``), of two parts side by side that both are
    missing the first says it, brackets left empty go with their space, a preposition left before
    punctuation goes too (``for {a|}{b|};``), an empty part right before another gives it its space
    (``the {a|}{b|} section`` reads "the sampler section" when only ``b`` was captured), ``{api}`` glued
    to a name's start reads ``rknn_*``, and words that start a sentence start with a capital.  Captured
    parts are never changed, nor the text around them."""
    if "{" not in text:
        return text
    found = dict(captures)
    done = ""
    at = 0
    said_at = -1  # where in ``text`` the last part said in default words ended (-1: none)
    empty = False
    carried = ""  # the space of an empty part that the next part, right after it, takes ({a|}{b|})
    for m in _PLACEHOLDER.finditer(text):
        done += text[at : m.start()]
        space, before, name, words, after = m.groups()
        space, carried = (space or carried) if m.start() == at else space, ""
        value = found.get(name)
        adjacent = said_at == m.start()
        at = m.end()
        said_at = -1
        if value:
            done += f"{space}{before}{value}{after}"
            continue
        before, after = _brackets_kept(before, after, words, space, done)
        if words is None:
            done, words, said_at = _missing_words(name, done, text[at:], (space, before, after), adjacent, at)
        elif words and before != "(":
            done, words = _own_fit(done, words)
            space = space if done.strip() else ""
        if not words:
            done = _kind_with_article(done)
            glue = " " if space and done[-1:].isalnum() and text[at : at + 1].isalnum() else ""
            done += f"{glue}{before}\0{after}"
            empty = True
            carried = space if text[at : at + 1] == "{" and not (before or after) else ""
            continue
        done += f"{space}{before}{_capitalised(words, text[: m.start()] + space)}{after}"
    done += text[at:]
    return _tidy(done) if empty else done


ABSENCE = LazyPattern(
    r"\bnot (?:named|shown|given|printed|stated|listed)\b|\bno (?:reason|name|node|op) given\b",
    re.IGNORECASE,
)
"""Words that say the message did not carry a part (``node not named in the message``, ``not shown in this
message``, ``not named in this line``): true only when the whole message holds no value of that kind."""
PART_KINDS: dict[str, str] = {
    "op": "node",
    "op_name": "node",
    "node": "node",
    "node_name": "node",
    "layer": "node",
    "op_type": "op_type",
    "optype": "op_type",
    "shape": "shape",
    "path": "path",
    "file": "path",
}
"""The kind of value a part holds, for the parts whose kind a whole message labels in a way it can be read
back (:data:`KIND_FINDERS`)."""
KIND_FINDERS: dict[str, tuple[LazyPattern, ...]] = {
    "node": (
        LazyPattern(r"\bName:\s{0,2}'([^'\n]{1,200})'"),
        LazyPattern(r"\bnode name:\s{0,2}'?([^\s,)'\"]{1,200})", re.IGNORECASE),
        LazyPattern(r"\b[Nn]ode \(([^()\s]{1,200})\)"),
        LazyPattern(r"\b[Nn]ode '([^'\n]{1,200})'"),
    ),
    "op_type": (
        LazyPattern(r"\bOp \((\w{1,60})\)"),
        LazyPattern(r"\bop_type:\s{0,2}\"?(\w{1,60})"),
        LazyPattern(r"\boperator \((\w{1,60})\)"),
    ),
    "shape": (LazyPattern(r"(?<![\w\]])(\[-?\d{1,9}(?:,\s{0,2}-?\d{1,9}){1,7}\])"),),
    "path": (LazyPattern(r"(?<![\w/.])(/(?:[\w.+-]{1,100}/){1,30}[\w.+-]{1,100}\.\w{1,10})\b"),),
}
"""Where a whole message labels a value of a kind: a node by onnxruntime's ``Name:'...'``, onnx's ``node
name:``, ``Node (...)`` or ``node '...'``; an operator type by ``Op (...)``, ``op_type:`` or
``operator (...)``; a shape as a bracketed list of integers; a path as an absolute POSIX file path."""


def _placeholder_names(text: str) -> set[str]:
    return {m.group(3) for m in _PLACEHOLDER.finditer(text)}


CODE_FILE_SUFFIXES = (
    ".py",
    ".pyc",
    ".pyx",
    ".so",
    ".c",
    ".cc",
    ".cpp",
    ".cxx",
    ".cu",
    ".h",
    ".hpp",
    ".dll",
    ".dylib",
)
"""A path with one of these suffixes is the tool's own code (a traceback's frame, a library), never the
file a message's ``path`` part names (a model, a config): it is not read back as one."""


def found_in_message(kind: str, text: str) -> str:
    """The first value of ``kind`` (:data:`KIND_FINDERS`) that ``text`` labels, or "" (a path of the
    tool's own code, :data:`CODE_FILE_SUFFIXES`, is skipped)."""
    for finder_rx in KIND_FINDERS.get(kind, ()):
        for found in finder_rx.finditer(text):
            value = found.group(1).strip()
            if value and not (kind == "path" and value.lower().endswith(CODE_FILE_SUFFIXES)):
                return value
    return ""


def absent_parts_filled(m: Match, text: str) -> Match:
    """``m`` with each part whose missing-part words would claim the message does not carry it
    (:data:`ABSENCE`: ``node not named in the message``) filled from the whole ``text`` where it does carry
    a value of that kind (:data:`KIND_FINDERS`: the node's ``Name:'...'`` on a line before the entry's
    match); ``m`` as it was otherwise (the claim is then true of the whole message)."""
    e = m.entry
    template = f"{e.cause}\n{e.fix}"
    captured = {k for k, v in m.captures if v}
    missing = [
        n for n in _placeholder_names(template) if n not in captured and n.rstrip("0123456789") in PART_KINDS
    ]
    if not missing:
        return m
    said = fill(template, m.captures)
    claims = len(ABSENCE.findall(said))
    if not claims:
        return m
    added: list[tuple[str, str]] = []
    for name in sorted(missing):
        probe = fill(template, (*m.captures, (name, "\x01")))
        if len(ABSENCE.findall(probe)) >= claims:
            continue  # this part's words claim nothing absent
        value = found_in_message(PART_KINDS[name.rstrip("0123456789")], text)
        if value:
            added.append((name, value))
    if not added:
        return m
    return m._replace(captures=(*m.captures, *added))


def _ends_name(done: str) -> bool:
    """Whether the text written so far ends inside a name (a letter, digit or underscore)."""
    return done[-1:].isalnum() or done[-1:] == "_"


def _brackets_kept(before: str, after: str, words: str | None, space: str, done: str) -> tuple[str, str]:
    """The quotes or brackets around a missing part that stay: ``--{option}`` loses its dashes ("--the
    option" is no option), quotes and the parentheses of default words go ('Conv_3' reads as a name; "the
    node" takes no quotes), a call's parentheses stay (``sizeof({dtype})``)."""
    if before == "--":
        return "", after
    if (
        before
        and _CLOSES[before] == after
        and (not words or before != "(")
        and not (before == "(" and not space and _ends_name(done))  # a call
    ):
        return "", ""
    return before, after


def _missing_words(
    name: str, done: str, rest: str, around: tuple[str, str, str], adjacent: bool, at: int
) -> tuple[str, str, int]:
    """``(done, words, said_at)`` for a part ``name`` the message did not carry and the entry gives no words
    for: ``rest`` is the text after it, ``around`` its space, opening and closing bracket, ``adjacent`` that
    the part before it, just before, was said in default words too (ending at ``at``, where this one ends)."""
    space, before, after = around
    if (not space and not before and _ends_name(done)) or rest[:1] == "_":
        return done, "*", -1  # rknn_{api}, {tensor}_out: a name's start or end, the rest not known
    if adjacent and not before and not after and not rest[:1].isalnum():
        return done, "", at  # "{tensor} {dtype}", "{seq} ({op})": the part before said it
    if before:  # an opening bracket closed further on: "index ({tensor} included"
        return done, _missing_of(name), -1
    code = _code_words(name, done, after + rest)
    if code is not None:
        return done, code, at  # "CUDA error {value}": the code is said to be not shown
    done, words = _default_fit(name, done, rest)
    if not words and rest[:1].isalnum():  # "{arg}s": a suffix needs its word
        words = _missing_of(name)
    return done, words, at if words else -1


def _missing_of(name: str) -> str:
    """:data:`MISSING`'s words for a part ``name`` (``op2`` read as ``op``)."""
    return MISSING.get(name.rstrip("0123456789"), _UNKNOWN)


def _capitalised(words: str, lead: str) -> str:
    """``words`` with a capital when ``lead``, the entry's text before them, ends a sentence or is empty."""
    if not lead.strip() or (
        lead.endswith(" ") and lead.rstrip()[-1:] in ".!?" and not re.search(_ABBREV, lead)
    ):
        return words[:1].upper() + words[1:]
    return words


_KIND_WORDS = frozenset(
    "node layer op operator input output tensor parameter option item argument file path type version opset"
    " attribute field variable initializer blob value library device method plugin function index domain flag"
    " number symbol operation kernel".split()
)
"""Words that already say what kind of part follows (``parameter {option}``): the part's own words would
repeat them."""
_DETERMINERS = frozenset("its their whose each every no another".split())
"""Words before a part that take its noun without "the" (``its {option} flag`` -> ``its option flag``)."""
# Patterns fill() uses only for a part the message did not carry: compiled on first use (re's cache), not at
# import, which every explain start pays.
_ABBREV = r"\b(?:e\.g|i\.e|etc|vs)\. $"
_NO_NOUN = r"['\"]?(?:=|[,;:.)]|$)"
_NEXT_WORD = r"[\s'\")]*([A-Za-z]+)(?!\w)"
_EMPTY = r" ?(?:\(\0+\)|\[\0+\]|'\0+'|\"\0+\")"
_STRANDED = r" (?:for|of|in|on|at|to|from|with|by|into)\0+(?=[,.;:)\]]| \(|$)"
_UNNAMED = r" (is|was)\0+(?=[,.;:)\]]|$)"
_UNKNOWN = "the part the message names"
_KIND_ONLY = r" \((?:type|node|op|operator|layer|input|output|index|name)\0+\)"
"""A bracket left holding only the kind word of a part the message did not carry (``(type {op_type})``): the
kinds that name a part alone, not those an entry keeps on purpose (``(opset {version|})``)."""


_OF_KIND = r" of (?:the )?(?:type|kind)\0+(?=[ ,.;:)]|$)"
"""``of type {op_type|}`` with no type: the phrase says nothing and goes (its article too)."""


_BARE_KIND = r"(?:^|[.!?:;] |\b(?i:for|of|in|on|at|to|from|with|by|into) )([A-Za-z]+)[ '\"]*$"
"""A kind word (``node``, ``Operator``) that ends the text so far right after a preposition or at a sentence's
start: ``for node {op|}`` or ``Node {op|} has`` without the part would read "for node" or "Node has"."""


def _kind_with_article(done: str) -> str:
    """``done`` with "the" before the kind word it ends with, where that word is bare (:data:`_BARE_KIND`)
    and a part after it says nothing: ``Node {op|} has`` -> "The node has", ``needed by node {node}`` ->
    "needed by the node"."""
    m = re.search(_BARE_KIND, done)
    if m is None or m.group(1).lower() not in _KIND_WORDS:
        return done
    start, kind = m.start(1), m.group(1)
    opens = not done[:start].strip() or done[:start].rstrip()[-1:] in ".!?"
    article = "The " if opens and kind[:1].isupper() else "the "
    return done[:start] + article + kind[:1].lower() + kind[1:] + done[m.end(1) :]


def _previous_word(done: str) -> str:
    last = done.rstrip(" '\"([\0").rsplit(None, 1)[-1:] or [""]
    return last[0].lower().lstrip("(['\"")


def _default_fit(name: str, done: str, rest: str) -> tuple[str, str]:
    """``(done, words)``: the text so far, its article fixed when it must be, and the words for a missing
    part ``name`` between ``done`` and ``rest``."""
    words = _default_words(name, done, rest)
    if not words:
        return done, words
    nxt = re.match(_NEXT_WORD, rest)
    kind = words.rsplit(None, 1)[-1]
    if nxt and nxt.group(1).lower() == kind:
        words = "the" if words.startswith("the ") else ""  # "the {input} input" says "input" once
    previous = _previous_word(done)
    if previous in _DETERMINERS or previous.endswith("'s"):
        words = words[4:] if words.startswith("the ") else ("" if words == "the" else words)
    elif words == "the" and previous == "the":
        words = ""
    elif previous in ("a", "an") and words.startswith("the "):
        words = words[4:]  # "(a --{option}=...)" -> "(an option=...)": no noun follows the article
        head = done.rstrip()
        done = head[: len(head) - len(previous)] + ("an" if words[:1] in "aeiou" else "a") + done[len(head) :]
    return done, words


def _own_fit(done: str, words: str) -> tuple[str, str]:
    """An entry's own words after the kind word they start with: ``Give attribute {option|the attribute}``
    -> ``Give the attribute``."""
    if not words.startswith("the "):
        return done, words
    kind = words.split(None, 2)[1]
    head = done.rstrip(" '\"")
    if not head.lower().endswith(kind) or not done[len(head) :].strip(" ") == "":
        return done, words
    cut = head[: len(head) - len(kind)].rstrip("\0")
    if _ends_name(cut):
        return done, words
    cut = cut.rstrip(" \0")
    if cut.lower().endswith((" the", " a", " an")) or cut.lower() in ("the", "a", "an"):
        cut = cut.rsplit(None, 1)[0] if " " in cut else ""  # "the {kind|}feature '{value|the feature}'"
    if cut.endswith("'s"):
        words = words[4:]  # "a class's method {call|the method}" -> "a class's method"
    elif head[len(head) - len(kind)].isupper() or head[len(cut) :].lstrip(" \0")[:1].isupper():
        words = "The" + words[3:]
    return cut + done[len(head) :], words


def _tidy(text: str) -> str:
    """``text`` with the marks of parts said by nothing (``\\0``) gone, with the empty brackets, a bracket
    left holding only a kind word, and the preposition they leave."""
    start = text.startswith("\0")
    text = re.sub(_KIND_ONLY, "", text)  # "node {node} (type {op_type})" -> "node", not "node (type)"
    text = re.sub(_OF_KIND, "", text)  # "operation {op|} of type {op_type|} (or" -> "the operation (or"
    text = re.sub(_STRANDED, "", re.sub(_EMPTY, "\0", text))
    text = re.sub(_UNNAMED, r" \1 not named in this line", text).replace("\0", "")
    return text[:1].upper() + text[1:] if start else text


_CODE_NOUNS = frozenset("error code status errno retcode".split())
"""Words after which a part is the number or name of a code (``CUDA error {value}``, ``exited with code
{value}``): a missing one is said to be not shown, never "error the value"."""
_RETURNING = frozenset("returned returns".split())
"""Verbs whose object is a returned code (``the driver returned {value}``)."""
_BEING = frozenset("is was".split())
"""Verbs whose complement is a value (``num_beams is {value}, and``): a missing one is said to be not shown
where nothing follows it in the sentence (``is {value} bytes`` keeps the default)."""
_CODE_PARTS = frozenset({"value", "arg", "code", "status", "errno", "ret", "err", "result"})
"""Parts that after :data:`_CODE_NOUNS` or :data:`_RETURNING` hold a code's number or name."""
NOT_SHOWN = "not shown in this message"
"""What is said of a code the message did not carry (its kind is the entry's own word before it)."""


_PHRASE_NEXT = frozenset("for in at from and but which while when before after on with or".split())
"""Words that may follow a code said not to be shown: they start a new phrase (``returned {value} for the
matrix product``), where a noun (``returns {value} tensors``) would belong to the part."""


def _ends_phrase(rest: str) -> bool:
    """Whether the text after a part starts a new phrase: punctuation, the end, or a word of
    :data:`_PHRASE_NEXT` (not a possessive ``'s`` nor a noun of the part's own)."""
    if rest.startswith("'s"):
        return False
    nxt = re.match(r" ([A-Za-z]+)", rest)
    return not rest[:1].isalnum() and (nxt is None or nxt.group(1).lower() in _PHRASE_NEXT)


def _code_words(name: str, before: str, rest: str) -> str | None:
    """Words for a missing code part right after a code noun or a returning verb, or None: "returned CUDA
    error (not shown in this message)", "the driver returned a code not shown in this message"; inside
    brackets already open, no second pair ("(error not shown in this message)")."""
    if name.rstrip("0123456789") not in _CODE_PARTS or not _ends_phrase(rest):
        return None
    previous = _previous_word(before).rsplit("::", 1)[-1]  # atb::Status {value}: a code noun
    if previous in _CODE_NOUNS:
        return NOT_SHOWN if before.count("(") > before.count(")") else f"({NOT_SHOWN})"
    if previous in _RETURNING:
        return f"a code {NOT_SHOWN}"
    if previous in _BEING and name.rstrip("0123456789") == "value" and re.match(_NO_NOUN, rest):
        return f"a value {NOT_SHOWN}"
    return None


def _default_words(name: str, before: str, rest: str) -> str:
    """:data:`MISSING`'s words for ``name`` where the text before it (``before``) does not already say what
    it is: ``node {op}`` -> ``node`` (not "node the node"), ``the {op_type}`` -> ``the operator type``."""
    words = _missing_of(name)
    previous = _previous_word(before)
    if previous == words.rsplit(None, 1)[-1] or previous in _KIND_WORDS:
        return ""
    if previous in ("a", "an") and not re.match(_NO_NOUN, rest):
        return ""  # "a {op_type} node" -> "a node"
    if previous == "the" and words.startswith("the "):
        return words[4:]
    return words


class KnowledgeBase:
    """Entries plus the indexes that make a lookup cost about a millisecond."""

    def __init__(self, entries: Iterable[Entry], warnings: Sequence[str] = ()) -> None:
        self.warnings: tuple[str, ...] = tuple(warnings)
        self._hold(tuple(entries))

    def _hold(self, entries: tuple[Entry, ...]) -> None:
        """Hold ``entries`` (parsed, in this order) with indexes built from them."""
        self.entries: Sequence[Entry] = entries
        postings = Postings()
        for i, e in enumerate(entries):
            postings.add(i, e)
        self._use(postings)

    @classmethod
    def from_index(
        cls, index: CompiledIndex, extra: Iterable[Entry] = (), warnings: Sequence[str] = ()
    ) -> KnowledgeBase:
        """The built-in entries of a compiled index (parsed when first reached) plus ``extra``
        entries; an extra entry whose id is a built-in one replaces it in its place."""
        kb = cls.__new__(cls)
        kb.warnings = tuple(warnings)
        extra = list(extra)
        table, postings = index.table(), index.postings(for_change=bool(extra))
        position = {entry_id: i for i, entry_id in enumerate(table.ids)} if extra else {}
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
        self._anchor_bytes: tuple[tuple[str, ...], tuple[bytes, ...]] | None = None
        """The anchors and their UTF-8, made on the first lookup (for the compiled finder)."""
        self._always = postings.always
        self._runtime_anchors = postings.runtime_anchors
        self._runtime_wording: dict[str, bool] = {}
        """:meth:`_runtime_worded` of each core phrase asked so far."""
        self._runtime_words: tuple[frozenset[str], ...] = ()
        """The words of each runtime anchor, made on the first :meth:`_runtime_worded` question."""
        self._specific = postings.specific
        self._idf: dict[str, float] = {}
        """The IDF weight of each word looked up so far (computed on first use: a message has few words)."""
        if postings.norms is None:
            self._norm: Sequence[float] = word_norms(
                self._by_word, word_idf(self._by_word, len(self.entries)), len(self.entries)
            )
        else:
            self._norm = postings.norms
        self._norm_reads = 0
        """How many entry norms the lookups have read from the index's string (:data:`NORMS_AT_ONCE`)."""
        self._words_factor = _words_factors(postings.families)
        self._plain: frozenset[int] = frozenset(postings.plain_positions())
        self._generic_words: frozenset[str] = postings.generic()
        self._common_words = postings.common  # computed (or read from the index) when first asked
        self._hidden: frozenset[int] = frozenset()

    @property
    def user_entries(self) -> list[Entry]:
        """The entries that did not come with dumpscope (``--kb`` files and the user's folder)."""
        if isinstance(self.entries, EntryTable):
            return self.entries.extra()
        return [e for e in self.entries if e.origin != "builtin"]

    def __len__(self) -> int:
        return len(self.entries)

    def without(self, hidden: Iterable[int]) -> KnowledgeBase:
        """A view of this KB that never answers with the entries at the positions ``hidden`` (the
        leave-source-out evaluation: a message ranked as if the entries written from its thread were not
        there).  The indexes are shared, not rebuilt: the other entries' word weights stay as they are."""
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view._hidden = frozenset(hidden)
        return view

    def answer(self, message: str, top: int = 5) -> Answer:
        """The answer to a message: ranked matches with how they were found and how sure they are,
        "this tool is not covered", or "no confident match" (see :mod:`.answer`)."""
        from dumpscope.core.knowledge.answer import answer

        try:
            return answer(self, message, top)
        except StaleIndex:
            self._parse_every_entry()
            return answer(self, message, top)

    def _parse_every_entry(self) -> None:
        """The index does not fit the file it indexes (:class:`.index.StaleIndex`: a line edited in place
        without a rebuild, found when it was parsed): from now on this knowledge base holds every entry of
        the file's bytes, parsed, with the user's entries over them, as :func:`.loader.load_kb` builds one
        without an index."""
        table = self.entries
        assert isinstance(table, EntryTable), "only an index's entries can be stale"
        merged = {e.id: e for e in entries_of(table.source())}
        merged.update((e.id, e) for e in table.extra())
        hidden = self._hidden  # positions: the same in the parsed table (the index's order, extras after)
        self._hold(tuple(merged.values()))
        self._hidden = hidden

    @staticmethod
    def follows_from(m: Match, cause: Match, text: str) -> bool:
        """Whether ``m``'s line only follows from the error ``cause`` explains (:func:`follows_from`)."""
        return follows_from(m, cause, text)

    @staticmethod
    def named_families(message: str) -> list[str]:
        """The families a message names (:func:`named_families`)."""
        return named_families(message[:MAX_TEXT])

    def lookup(self, message: str, top: int = 5) -> list[Match]:
        """Ranked matches for a message (one line or a whole multi-line block).

        The tool is detected first, on the raw text.  The whole text, the inner message of
        an envelope and each line of a block are looked up; an entry keeps its best score.
        Where wording alone found the best matches, the first place goes to the tool whose entries share the
        most of it (:func:`family_wording_order`).
        Generic entries (scheme, range, family level) take at most one of the first three places; the best
        card of each tool (a code's or a tool's general advice) is answered by the vendor's own wording of
        the constraint the message states, when it has one (:mod:`.clauses`); a card still first is answered
        by text any tool prints that its own part holds, found by its pattern
        (:func:`.clauses.runtime_answered`: the loader's ``invalid ELF header`` in a message naming RKNN).
        The message is read as its tool printed it (:func:`.paste.as_printed`: a paste's CRLF, quote marks,
        HTML entities, typographic quotes, doubled spaces and hard wraps undone), its captures shown as the
        paste holds them where that differs by quotes and spaces only (:func:`.paste.captures_as_pasted`).
        """
        pasted = message[:MAX_TEXT]
        text = as_printed(pasted)
        try:
            found = self._lookup(text, top)
        except StaleIndex:  # an entry's line differs from the index's: every entry parsed, then again
            self._parse_every_entry()
            found = self._lookup(text, top)
        return found if text is pasted else _captures_as_pasted(found, pasted)

    def _lookup(self, message: str, top: int) -> list[Match]:
        """:meth:`lookup` on this knowledge base as it is."""
        text = message[:MAX_TEXT]
        if not text.strip():
            return []
        named_found, found, codes_found, families_found = _named(text)
        named, all_codes, families = list(named_found), list(codes_found), list(families_found)
        leaning = () if families else leaning_family(text)
        lowered = text.lower()
        cue = () if families or leaning else wording_cue(lowered, text)
        parts = segments(text)
        # The whole text's codes are those _named found.  A segment inside the text (a line, an envelope's
        # inner message) holds only the anchors and code literals the whole text holds: it is tested for
        # those alone, not for every anchor and code extractor of the KB again.
        anchors = self._anchors_in(lowered)
        extractors = possible_extractors(text, lowered) if len(parts) > 1 else None
        best: dict[int, Match] = {}
        for k, segment in enumerate(parts):
            seg_lowered = lowered if k == 0 else segment.lower()
            inside = k == 0 or (segment in text and seg_lowered in lowered)
            for i, match in self._lookup_segment(
                segment,
                families,
                named,
                all_codes,
                leaning,
                found if k == 0 else extract_codes(segment, extractors if inside else None),
                seg_lowered,
                anchors if inside else None,
                cue,
            ):
                _keep_best(best, i, match)
        ranked = family_wording_order(
            sorted(
                float16_clash_first(
                    innermost_first(
                        inner_first(
                            narrower_first(
                                consequences_last(
                                    runtime_under_own_sentence(
                                        framed_runtime_under(list(best.values()), text),
                                        bool(families or leaning or cue),
                                        text,
                                    ),
                                    text,
                                ),
                                text,
                            ),
                            text,
                        ),
                        text,
                    ),
                    text,
                ),
                key=lambda r: (-r.score, r.entry.generic),
            ),
            text,
        )
        answers = self.distinct_first(
            self.reason_line_searched(
                envelope_reason_answered(
                    last_resort_answered(
                        runtime_answered(refine(limit_generic(ranked, len(ranked)), text), text), text
                    ),
                    text,
                ),
                text,
            ),
            text,
        )[: max(0, top)]
        answers = [condition_answered(absent_parts_filled(m, text), text) for m in answers]  # s38a
        printed: dict[str, str] = {}
        for c in found:
            printed.setdefault(c.key, printed_code(c, text))
        return [m._replace(printed=tuple((k, printed[k]) for k in m.codes if k in printed)) for m in answers]

    def reason_line_searched(self, matches: list[Match], text: str) -> list[Match]:
        """``matches`` with a first match that only quotes its message's reason line
        (:func:`.clauses.reason_line_answered`) replaced by what that line, looked up alone, is answered by:
        a specific entry of the same tool (or of text any tool prints) found there by its pattern, or the
        tool's card answered there by a clause (a kernel's check line that the whole log's ranking left under
        the card).  ``matches`` as it was when the line alone is answered by nothing more specific."""
        if not matches or not matches[0].entry.id.endswith("+" + REASON_LINE_ID):
            return matches
        card = matches[0]
        line = dict(card.captures).get("detail", "")
        if not line or line.strip() == text.strip():
            return matches
        inner = self._lookup(line, 1)
        if not inner:
            return matches
        first = inner[0]
        e = first.entry
        own = _own_sentence(first, ("pattern", "code"))
        if e.family not in (card.entry.family, *RUNTIME_FAMILIES) or not own:
            return matches
        if e.family in RUNTIME_FAMILIES:
            first = first._replace(score=card.score)
        return [first, *matches[1:]]

    def distinct_first(self, ranked: list[Match], text: str) -> list[Match]:
        """``ranked`` with its tool's card first when its first match is a specific entry that wording alone
        found and that shares none of its distinctive terms (:data:`.index.DISTINCT_DF`) with ``text``: the
        message and the entry share only words many entries hold (``rank``, ``kernel``, ``weights``,
        ``build``, ``engine``), so the entry's cause and fix are likely another check's of the same tool.  The
        card takes the entry's score and reason (``words``: the answer's floor withholds it as it would have
        withheld the entry); the entry stays below it, a related entry.  Unchanged: a first match found by a
        code, pattern, core phrase or marker, a card, a generic entry, text any tool prints (no card), an
        entry the answer withholds as wording any tool prints (:func:`.answer.unnamed_generic_wording`)."""
        if not ranked:
            return ranked
        first = ranked[0]
        e = first.entry
        if first.reason != "words" or e.level == "family" or e.generic or e.family in RUNTIME_FAMILIES:
            return ranked
        if DISTINCT_SHARED <= len((e.words - self._common_words()) & tokens(text)):
            return ranked
        card = next(
            (i for i in self._by_key.get(f"family:{e.family}", ()) if i not in self._hidden),
            None,
        )
        if card is None or self.entries[card].level != "family":
            return ranked
        from dumpscope.core.knowledge.answer import unnamed_generic_wording

        if unnamed_generic_wording(self, first, text):
            return ranked  # withheld whatever comes first: its tool is not known
        rest = [m for m in ranked if not (m.entry.level == "family" and m.entry.family == e.family)]
        return [Match(entry=self.entries[card], score=first.score, reason="words"), *rest]

    def _lookup_segment(
        self,
        text: str,
        families: list[str],
        named: list[str],
        all_codes: list[str],
        leaning: tuple[str, ...] = (),
        found: Iterable[FoundCode] | None = None,
        lowered: str | None = None,
        anchors: Iterable[str] | None = None,
        cue: tuple[str, ...] = (),
    ) -> Iterator[tuple[int, Match]]:
        """``(entry index, match)`` for every entry found in one segment (codes shown: the whole message's).

        ``named``: the families the markers name; ``families``: those plus the families of the codes found;
        ``leaning``: where none is, the family the message leans to (:func:`leaning_family`).  ``found``,
        ``lowered``: the segment's codes and lower-cased text when the caller has them; ``anchors``: the
        anchors it may hold (those a text around it holds), in the index's order (None: every anchor)."""
        codes = credible_codes(extract_codes(text) if found is None else found, named)
        code_hits, shared_hits = self._code_hits(codes, [*families, *leaning, *cue])
        seg = _Segment(
            text,
            text.lower() if lowered is None else lowered,
            code_hits,
            shared_hits,
            *self._word_similarity(tokens(text)),
            families,
            all_codes,
            leaning,
            cue=cue,
        )
        candidates, generic = self._candidates(
            seg, self._anchors_in(seg.lowered) if anchors is None else anchors
        )
        if generic:
            seg = seg._replace(generic=generic)
        for i in sorted(candidates):
            match = self._match(i, seg)
            if match is not None:
                yield i, match

    def _anchors_in(self, lowered: str) -> list[str]:
        """The KB's anchors that ``lowered`` holds, in the KB's order: one pass of the compiled finder over
        the text's UTF-8 (a substring of UTF-8 is a substring of the text), or one ``in`` per anchor."""
        if finder.compiled is None:
            return [a for a in self._by_anchor if a in lowered]
        if self._anchor_bytes is None:
            keys = tuple(self._by_anchor)
            needles = "\0".join(keys).encode("utf-8", "surrogatepass").split(b"\0") if keys else []
            if len(needles) != len(keys):  # an anchor holding a NUL
                needles = [a.encode("utf-8", "surrogatepass") for a in keys]
            self._anchor_bytes = keys, tuple(needles)
        keys, encoded = self._anchor_bytes
        return [keys[i] for i in finder.compiled.present(lowered.encode("utf-8", "surrogatepass"), encoded)]

    def _candidates(self, seg: _Segment, anchors: Iterable[str]) -> tuple[set[int], tuple[str, ...]]:
        """Entries worth a look: an anchor is in the text, a code names them, or their wording is close;
        and the anchors found that are text any tool prints (a runtime entry's: ``filenotfounderror: [errno
        2] no such file or directory: '``), inside which a tool's core phrase is no partial match of it.

        One ``in`` test per distinct anchor replaces a Python-level visit of every entry.  An entry found
        by an anchor alone, whose pattern cannot match (a required literal is missing) and whose core
        phrase is not in the text either, could only be found by evidence it does not have: it is left
        out before it is parsed.  ``anchors``: the KB's anchors, or those of them a text around the segment
        holds (in the same order).
        """
        by_anchor: set[int] = set()
        found: set[int] = set()
        generic: list[str] = []
        for a in anchors:
            if a in seg.lowered:
                (found if _is_core_phrase(a) else by_anchor).update(self._by_anchor[a])
                if a in self._runtime_anchors or self._runtime_worded(a):
                    generic.append(a)
        found.update(seg.code_hits, seg.shared_hits, self._always)
        found.update(i for i, sim in seg.word_sim.items() if sim >= MIN_WORDS)
        found.update(i for i in by_anchor - found if self._may_match(i, seg.lowered))
        return (found - self._hidden if self._hidden else found), tuple(generic)

    def _runtime_worded(self, anchor: str) -> bool:
        """Whether a tool's core phrase (:func:`_is_core_phrase`) says nothing but what a runtime entry's
        anchor says (:data:`RUNTIME_FAMILIES`; its words all among one such anchor's, session s37b): RKNN's
        ``no such file or directory: '`` is the C library's ``strerror`` that Python's ``[Errno 2]`` prints
        for any program, torch_npu's ``: undefined symbol:`` the dynamic loader's.  Found in a text, such a
        phrase is no partial match of the tool (its full pattern still is a match).  Kept per anchor."""
        known = self._runtime_wording.get(anchor)
        if known is None:
            if not self._runtime_words:
                self._runtime_words = tuple(_plain_words(a) for a in self._runtime_anchors)
            known = self._runtime_wording[anchor] = _words_within(anchor, self._runtime_words)
        return known

    def _may_match(self, i: int, lowered: str) -> bool:
        """Whether entry ``i``'s pattern may match (an unparsed entry of the index answers from its
        required literals; any other entry is searched)."""
        return not isinstance(self.entries, EntryTable) or self.entries.may_match(i, lowered)

    def _match(self, i: int, seg: _Segment) -> Match | None:
        """The match of entry ``i`` in one segment, or None."""
        e = self.entries[i]
        m = e.search(seg.text, seg.lowered)
        evidence = _evidence(i, e, m is not None, seg)
        if not evidence.found():
            return None
        score, reason = _ranked(e, evidence, seg.families)
        if e.level == "family" and e.family in seg.leaning:
            score, reason = LEANING_SCORE, "words"  # a cue of the tool, no marker: as sure as wording
        elif e.level == "family" and e.family in seg.cue:
            score, reason = CUE_SCORE, "words"  # a few of the tool's own words: a weaker cue still
        elif e.family in RUNTIME_FAMILIES and (seg.leaning or seg.cue):
            score = min(score, (LEANING_SCORE if seg.leaning else CUE_SCORE) - CUED_RUNTIME_GAP)
        elif reason == "words":
            if i in self._plain:
                return None  # its wording is words any tool prints: no evidence of this entry on its own
            if len(e.words & seg.rare) < PLAIN_WORDS:
                score *= LONE_WORD_FACTOR  # one distinctive word shared: weaker than two
            score = round(score * self._words_factor.get(e.family, 1.0), 1)
            if seg.leaning and e.family not in seg.leaning:
                score = round(score * FOREIGN_WORDS_FACTOR, 1)  # the message leans to another tool
        if score <= 0 and reason == "words":
            return None
        score = _part_of_family(e, score, reason, seg)
        codes = tuple(dict.fromkeys([*evidence.hit, *_related_codes(e, seg.all_codes)]))
        return Match(
            entry=e,
            score=score,
            reason=reason,
            captures=_captures(m),
            codes=codes,
            via=_via(e, m, seg.families),
        )

    def _code_hits(self, codes: list[str], families: list[str]) -> tuple[dict[int, list[str]], set[int]]:
        """Entries named by a code (or its range, or a detected family), and entries named only by a shared
        code."""
        hits: dict[int, list[str]] = defaultdict(list)
        shared: set[int] = set()
        for key in codes:
            for k in (key, *range_keys(key)):
                self._post_code(key, k, hits, shared)
        for family in families:
            for i in self._by_key.get(f"family:{family}", ()):
                hits[i].append(f"family:{family}")
        return hits, shared - set(hits)

    def _post_code(self, key: str, k: str, hits: dict[int, list[str]], shared: set[int]) -> None:
        """Entries that the key ``k`` (``key`` itself or one of its ranges) names: a hit, or shared-code
        evidence."""
        for i in self._by_key.get(k, ()):
            if _shared(k, self._specific[k]) and not self.entries[i].generic:
                shared.add(i)
            else:
                hits[i].append(key)

    def _word_similarity(self, words: frozenset[str]) -> tuple[dict[int, float], frozenset[str]]:
        """IDF-weighted cosine between the message's words and each entry's wording, and the message's words
        that some entry holds and that are not generic (:data:`LONE_WORD_FACTOR`)."""
        known = [w for w in words if self._weight(w)]
        if not known:
            return {}, frozenset()
        msg_norm = math.sqrt(sum(self._idf[w] ** 2 for w in known))
        rare = frozenset(w for w in known if w not in self._generic_words)
        shared = self._shared_weights(known)
        norm = self._norm
        if isinstance(norm, PackedFloats):
            self._norm_reads += len(shared)
            if self._norm_reads > NORMS_AT_ONCE:  # a long paste: read every number once, as a list
                norm = self._norm = norm.floats()
        return {i: s / (msg_norm * norm[i]) for i, s in shared.items()}, rare

    def _weight(self, w: str) -> float:
        """The IDF weight of word ``w`` (0.0 for a word no entry holds)."""
        idf = self._idf.get(w)
        if idf is None:
            ids = self._by_word.get(w)
            idf = self._idf[w] = math.log(1 + max(1, len(self.entries)) / len(ids)) if ids else 0.0
        return idf

    def _shared_weights(self, known: list[str]) -> dict[int, float]:
        """Per entry, the summed squared IDF of the words it shares with the message."""
        shared: dict[int, float] = defaultdict(float)
        for w in known:
            weight = self._idf[w] ** 2
            for i in self._by_word[w]:
                shared[i] += weight
        return shared


class _Segment(
    namedtuple(
        "_Segment",
        "text lowered code_hits shared_hits word_sim rare families all_codes leaning generic cue",
        defaults=((), ()),
    )
):
    """One segment being looked up, with what the lookup learnt about it before visiting entries."""

    __slots__ = ()
    text: str
    lowered: str
    code_hits: dict[int, list[str]]
    shared_hits: set[int]
    word_sim: dict[int, float]
    rare: frozenset[str]
    """The segment's words that some entry holds and that are not generic (:func:`.index.generic_words`)."""
    families: list[str]
    all_codes: list[str]
    leaning: tuple[str, ...]
    generic: tuple[str, ...]
    """Anchors of text any tool prints (:data:`RUNTIME_FAMILIES`' entries) found in the segment."""
    cue: tuple[str, ...]
    """Where no tool is named and none leant to: the tool a few of its own error texts' words name
    (:func:`wording_cue`)."""


class _Evidence(namedtuple("_Evidence", "pattern hit shared sim partial")):
    """What ties one entry to one segment: its pattern matched, codes that name it, a shared code,
    wording similarity, its core phrase without the full pattern."""

    __slots__ = ()
    pattern: bool
    hit: tuple[str, ...] | list[str]
    shared: bool
    sim: float
    partial: bool

    def found(self) -> bool:
        return self.pattern or bool(self.hit) or self.partial or self.shared or self.sim >= MIN_WORDS


def _rows_filled(text: str, captures: tuple[tuple[str, str], ...]) -> str:
    """``text`` with its status-table rows filled (:func:`.code_tables.rows_filled`); the tables are
    imported only for a text that names one (~0.8 ms of every explain start otherwise)."""
    if "{row@" not in text and "{steps@" not in text:
        return text
    from dumpscope.core.knowledge.code_tables import rows_filled

    return rows_filled(text, captures)


def _captures_as_pasted(found: list[Match], pasted: str) -> list[Match]:
    """``found`` with each match's captures as the paste holds them (:func:`.paste.captures_as_pasted`)."""
    return [m._replace(captures=captures_as_pasted(m.captures, pasted)) if m.captures else m for m in found]


def _evidence(i: int, e: Entry, pattern: bool, seg: _Segment) -> _Evidence:
    partial = not pattern and _core_phrase_present(
        e, seg.lowered, () if e.family in RUNTIME_FAMILIES else seg.generic
    )
    return _Evidence(
        pattern, seg.code_hits.get(i, ()), i in seg.shared_hits, seg.word_sim.get(i, 0.0), partial
    )


BARE_NUMBER_SCHEMES = frozenset({"acl"})
"""Schemes whose codes are bare numbers after a word like "error" or "failed" (AscendCL's six
digits): any tool prints such numbers (sizes, counts), so they are codes only in a message that
names their tool, or names no tool at all."""


def credible_codes(found: Iterable[FoundCode], named: list[str]) -> list[str]:
    """Keys of the codes found, without bare numbers of a tool other than the one(s) the markers name."""
    return [c.key for c in found if _credible(c.key, named)]


def _credible(key: str, named: list[str]) -> bool:
    if not named or key.split(":", 1)[0] not in BARE_NUMBER_SCHEMES:
        return True
    return scheme_family(key) in named


def leaning_family(text: str) -> tuple[str, ...]:
    """The one family a message leans to where neither a marker nor a code names one: the single
    best-evidenced family whose evidence reaches :data:`MEDIUM` (a marker almost only it prints, or two of
    its own 4-grams), () when none does or two tie.  A weaker cue than a named tool's: it brings that
    family's card and lowers the other tools' wording-only matches as a named tool does
    (:data:`FOREIGN_WORDS_FACTOR`), but no other tool's pattern or code match is lowered for it."""
    evidence = sorted(family_evidence(text).items(), key=lambda kv: kv[1], reverse=True)
    if not evidence or evidence[0][1] < MEDIUM or (len(evidence) > 1 and evidence[1][1] == evidence[0][1]):
        return ()
    return (evidence[0][0],)


CUE_SCORE = 12.0
"""The card of the tool a message's wording cues (:func:`wording_cue`): ranked as a wording-only match, below
a leaning tool's (:data:`LEANING_SCORE`) and under the answer's floor, so it is at most the closest tool (or
the card a reason clause of that tool's own wording answers, :mod:`.clauses`).  Set on
``bench/eval_explain.py --blank-markers`` with :data:`LONE_WORD_FACTOR`: first tool right claimed 331 -> 338
of 471 (onnxruntime 102 -> 106 of 151, ascend, float16 and qualcomm +1), new 94 -> 95, confident and wrong 34
-> 34, right confident answers 201 -> 207 (the card refined by its tool's clause); 6 gave 337, 10 337, 14 339;
above :data:`LEANING_SCORE` it would outrank a stronger cue.  With the markers kept, no dev answer moved."""


CUED_RUNTIME_GAP = 1.0
"""Text any tool prints (a :data:`RUNTIME_FAMILIES` entry: ``Segmentation fault``, ``terminate called``, a
CUDA error, a missing shared object) in a message that names no tool but leans to one
(:func:`leaning_family`) or cues one by its own wording (:func:`wording_cue`): ranked this much under that
tool's card, as inside a message whose markers name the tool it ranks under the tool's card
(:func:`_foreign_adjusted`).  The tool printed it; which of its failures it was is in its own lines, so the
cued tool's matches come first, and with its card under the answer's floor the answer is withheld with that
tool closest rather than the process's ending shown as the cause."""


CUE_NAME = 1
"""What each of a tool's own compound names in the message (:func:`.family.source_name_counts`:
``getUserRegion``, ``allow_custom_ops``) counts for in :func:`wording_cue`: one 4-gram.  On
``bench/eval_explain.py --blank-markers`` (with :data:`WORDS_FAMILY_NAME`): first tool right claimed 584 ->
598 of 726, new 228 -> 232 of 345, confident and wrong 23 -> 22 and 11 -> 10; no dev answer moved from the
right tool.  Counted only from two names of one tool, 594 and 231; from one name and with names of 6, 9 or
10 characters (:data:`.family.NAME`), 599 and 236 but three or four answers moved from the right tool."""


def wording_cue(lowered: str, text: str = "") -> tuple[str, ...]:
    """The one tool whose own error texts' word 4-grams (:func:`.family.source_gram_counts`) the lower-cased
    text holds most of, when they are too few to make a marker (:data:`.family.SOURCE_COUNTS`): () when none
    holds any or two hold as many.  On the dev messages with their markers blanked, the tool with the most
    such 4-grams is the message's own 56 times in 68 when it holds one, 25 in 28 when two: a cue, weaker than
    :func:`leaning_family`'s, that brings the tool's card among the wording-only matches (:data:`CUE_SCORE`)
    and lowers no other tool's match.  A tool's envelope that leaves none of its 4-grams
    (:data:`_ENVELOPE_CUES`; the claimed tools' inner forms, :data:`.inner_forms.INNER_CUES`, session s32i)
    counts as one of them, and so does each of its own compound names in the text as written (``text``;
    :func:`.family.source_name_counts`, :data:`CUE_NAME` each)."""
    grams = {f: n for f, (n, _) in source_gram_counts(lowered).items() if f in SOURCE_COUNTS}
    for family, literal, form in _ENVELOPE_CUES + INNER_CUES:
        if literal in lowered and form.search(lowered):
            grams[family] = grams.get(family, 0) + 1
    for family, n in source_name_counts(text).items():  # an empty text holds no name
        if family in SOURCE_COUNTS:
            grams[family] = grams.get(family, 0) + CUE_NAME * n
    counts = sorted(((n, f) for f, n in grams.items()), reverse=True)
    if not counts or (len(counts) > 1 and counts[1][0] == counts[0][0]):
        return ()
    return (counts[0][1],)


_ORT_LOAD = LazyPattern(r"(?:^|[\s:\]])load model from [^\n]{1,400}? failed:")
"""onnxruntime's model-load envelope, ``Load model from <path> failed:<reason>`` (InferenceSession::Load,
onnxruntime/core/session/inference_session.cc: ``"Load model from "`` is a literal of its library, the
path and `` failed:`` follow): its own wording, but no 4-gram of it survives the path in between, so it counts
as one of onnxruntime's 4-grams for :func:`wording_cue` (in the lower-cased text).  Other programs log
``Load model from <path>`` when they start loading, never followed by `` failed:``; every dev message holding
the form is onnxruntime's (28) or a float16 model's that onnxruntime loads (4).  On
``bench/eval_explain.py --blank-markers``: onnxruntime first tool right 107 -> 111 of 151, nothing else
moved."""


_ORT_NODE = LazyPattern(r"while running [\w.:-]{1,80} node\. name:\s?'")
"""onnxruntime's executor envelope, ``Non-zero status code returned while running <OpType> node.
Name:'<node>' Status Message: <reason>`` (onnxruntime/core/framework/sequential_executor.cc:
``"Non-zero status code returned while running " << node.OpType() << " node. Name:'" << node.Name()``):
with its ``Non-zero status code returned`` marker left out, no 4-gram of the rest survives the operator
type in between, so the form counts as one of onnxruntime's 4-grams for :func:`wording_cue`, as its load
envelope does.  No other covered tool prints it (no entry of another tool holds it); every dev message
holding it is onnxruntime's (30).  On ``bench/eval_explain.py --blank-markers``: onnxruntime first tool
right 121 -> 125 of 162, confident and wrong 10 -> 7; nothing else moved."""


_ORT_NODE_OP = LazyPattern(r"\)\s?op \([\w.:]{1,64}\)")
"""onnxruntime's shape-inference envelope, ``Node (<name>) Op (<type>) <onnx's reason>`` (Graph::
InferAndVerifyTypeMatch, onnxruntime/core/graph/graph.cc: ``ORT_MAKE_STATUS(ONNXRUNTIME, FAIL, "Node (",
node.Name(), ") Op (", node.OpType(), ") ", ex.what())``; ``") Op ("`` is a literal of its library): the
node's name and type between its words leave no 4-gram.  The form is read from the name's closing bracket
on (the ``Node (`` before it may be lost to a marker ending on it, or to a paste that ate the spaces)."""

_ORT_TYPE_PARAM = LazyPattern(r"of input parameter \([^()\n]{0,200}\) of operator \(")
"""onnxruntime's type check of a node's input, ``Type Error: Type '<type>' of input parameter (<arg>) of
operator (<op>) in node (<name>) is invalid.`` (graph.cc, InferAndVerifyTypeMatch: the literals ``' of input
parameter (``, ``) of operator (``, ``) in node (``, ``) is invalid.`` of its library)."""

_ORT_KERNEL_NODE = LazyPattern(r"[a-z]\w{0,63}\(\d{1,3}\) node with name '")
"""onnxruntime's kernel look-up, ``Could not find an implementation for <OpType>(<version>) node with name
'<node>'`` (onnxruntime/core/framework/session_state.cc and the kernel-def-hash check beside it:
``node.OpType(), "(", node.SinceVersion(), ") node with name '", node.Name()``): the operator's type and opset
version in ``Type(N)`` before ``node with name '``."""

_ORT_OLD_KERNEL_NODE = LazyPattern(r"the node (?:[^\n:()]{1,200}:)?[a-z]\w{0,63}\(\d{1,3}\)")
"""The same look-up's older message, ``Could not find an implementation for the node [<name>:]<OpType>(<N>)``
(onnxruntime/core/framework/graph_partitioner.cc: ``"Could not find an implementation for the node "``, then
``node.Name() << ":"`` when it has one, ``node.OpType()`` and ``"(" << since_version << ")"``)."""

_ORT_TYPE_ID = LazyPattern(r"actual: \([^\n()]{1,200}(?:\([^\n()]{1,60}\))?\) ?, expected: \(")
"""onnxruntime's check of a feed's element type, ``Unexpected input data type. Actual: (<type>) , expected:
(<type>)`` (InferenceSession's input check, onnxruntime/core/session/inference_session.cc:
``"Unexpected input data type. Actual: (" + actual_name + ") , expected: (" + expected_name + ")"``), the
types as ``tensor(float)`` or, in older releases, C++ type names (``N11onnxruntime17PrimitiveDataType``)."""

_ORT_RANK = LazyPattern(r"got: \d{1,9} expected: \d{1,9}")
"""onnxruntime's check of a feed against the model's inputs, ``Invalid rank for input: <name> Got: <n>
Expected: <m> Please fix either the inputs/outputs or the model.`` and ``Got invalid dimensions for input:
<name> for the following indices index: <i> Got: <n> Expected: <m>`` (onnxruntime/core/session/
inference_session.cc, ValidateInputsOutputs: the literals ``" Got: "``, ``" Expected: "``)."""

_ORT_LOCATION = LazyPattern(r"\.(?:cc|h|cpp|cu):\d{1,5} [a-z_~][\w:~<>]{0,120}(?:\(\))?\] ")
"""onnxruntime's log line's location, ``[E:onnxruntime:<logger>, <file>.cc:<line> <Function>] <message>``
(onnxruntime/core/common/logging/sinks/ostream_sink.cc: ``", " << location.ToString() << "] "``, and
CodeLocation::ToString in include/onnxruntime/core/common/code_location.h: ``<file>:<line> <function>``): the
function's name after the line number and before the bracket (glog and the other tools' loggers put no
function there)."""

_ORT_ENFORCE = LazyPattern(
    r"\.(?:cc|h|cpp):\d{1,5} [a-z_~][\w:~<>]{0,120}(?:\(\))? [^\n]{1,200}? was false\."
)
"""onnxruntime's failed ``ORT_ENFORCE(<condition>, ...)``: ``<file>:<line> <function> <condition> was false.
<message>`` (include/onnxruntime/core/common/common.h: ORT_ENFORCE throws an OnnxRuntimeException at its
CodeLocation with ``#condition, " was false. "``; ``" was false. "`` is a literal of its library)."""

_ENVELOPE_CUES: tuple[tuple[str, str, LazyPattern], ...] = (
    ("onnxruntime", "load model from ", _ORT_LOAD),
    ("onnxruntime", "node. name:", _ORT_NODE),
    ("onnxruntime", "op (", _ORT_NODE_OP),
    ("onnxruntime", "of input parameter (", _ORT_TYPE_PARAM),
    ("onnxruntime", ") node with name '", _ORT_KERNEL_NODE),
    ("onnxruntime", "the node ", _ORT_OLD_KERNEL_NODE),
    ("onnxruntime", " expected: ", _ORT_RANK),
    ("onnxruntime", "actual: (", _ORT_TYPE_ID),
    ("onnxruntime", "] ", _ORT_LOCATION),
    ("onnxruntime", " was false.", _ORT_ENFORCE),
)
"""``(family, literal, form)``: a tool's envelope whose own words leave no 4-gram of its wording (a path or an
operator type in between), each found counting as one of that family's 4-grams for :func:`wording_cue` (the
literal, in the lower-cased text, is tested before the form).

Session s32c added onnxruntime's inner forms (``Node (..) Op (..)``, the type and kernel checks, the feed
checks' ``Got: N Expected: M`` and ``Actual: (..) , expected: (..)``, its log line's ``file.cc:N Function]``
location and ``ORT_ENFORCE``'s ``was false.``), each from its source: with the ``[ONNXRuntimeError] : N :``
envelope blanked they are what is left of onnxruntime's own.  Each holds in onnxruntime's dev messages only
(7, 3, 7, 4, 6, 7, 41 and 3 of them; no other tool's dev message or entry).  On ``bench/eval_explain.py
--blank-markers``: onnxruntime first tool right 178 -> 190 of 222 (claimed 608 -> 620 of 733), confident and
wrong 22 -> 22 and 11 -> 11; one CANN execution provider line moved away (its log location now ties an
Ascend API name: no cue); with the markers kept no dev answer moved.  Counting them in
:func:`family_wording_order` too moved nothing; as :data:`.markers.LOG_FORMS` markers (the location, the node
and the type forms, MEDIUM) they reached 191 but would weigh in every log the scan reads: not kept."""


def named_families(text: str) -> list[str]:
    """The families a message names: by their markers, then by the schemes of its credible codes."""
    return list(_named(text)[3])


@functools.lru_cache(maxsize=1)
def _named(text: str) -> tuple[tuple[str, ...], tuple[FoundCode, ...], tuple[str, ...], tuple[str, ...]]:
    """The families the markers name, the codes found, the credible codes' keys, and the families named
    (the markers' and the codes').  The last text's are kept: :func:`.answer.answer` asks which tools its
    message names after the lookup found them (on a 100 KB paste the markers' pass costs ~60 ms)."""
    named = detect_families(text)
    found = extract_codes(text)
    all_codes = credible_codes(found, named)
    return tuple(named), tuple(found), tuple(all_codes), tuple(_with_code_families(named, all_codes))


def _with_code_families(named: list[str], codes: list[str]) -> list[str]:
    """The families the markers name, then those of the schemes of the codes found."""
    families = list(named)
    for key in codes:
        family = scheme_family(key)
        if family and family not in families:
            families.append(family)
    return families


def _keep_best(best: dict[int, Match], i: int, match: Match) -> None:
    """An entry found in several segments keeps its best match, with the parts only another segment's match
    captured added after its own (the whole text names the node, the inner message alone does not)."""
    if i not in best:
        best[i] = match
        return
    kept, other = (match, best[i]) if match.score > best[i].score else (best[i], match)
    names = {name for name, _ in kept.captures}
    extra = tuple(c for c in other.captures if c[0] not in names)
    best[i] = kept._replace(captures=kept.captures + extra) if extra else kept


def _via(e: Entry, m: re.Match[str] | None, families: list[str]) -> tuple[str, ...]:
    """The other tools a message names, when the entry's own tool is among them or its pattern matched."""
    if e.family in families or m is not None:
        return tuple(f for f in families if f != e.family)
    return ()


WORDS_SIZE_REF = 50
WORDS_SIZE_EXP = 0.3


def _words_factors(sizes: dict[str, int]) -> dict[str, float]:
    """Per family, the factor of its wording-only scores: a family of many entries shares some words with
    any text by sheer number (the best of 656 Ascend entries against the best of 25 of another tool), so
    a family larger than :data:`WORDS_SIZE_REF` entries is scaled by ``(REF / size) ** EXP`` (set on dev
    messages with their tool markers blanked: 174 -> 190 of 309 named right by wording, none lost with
    the markers kept)."""
    return {f: min(1.0, (WORDS_SIZE_REF / n) ** WORDS_SIZE_EXP) for f, n in sizes.items() if n > 0}


WORDS_FAMILY_TOP = 3
WORDS_FAMILY_DECAY = 0.4
"""A family's wording score (:func:`family_wording_order`) is the score of its best wording-only match plus
DECAY times its second's plus DECAY squared times its third's (TOP of them).  Set on
``bench/eval_explain.py --blank-markers`` (dev messages with every marker and code blanked, their own
threads' entries hidden; 531 messages): first tool right 269 -> 292 (claimed 207 -> 224 of 380), answered
confidently 250 -> 247 (wrong 58 -> 55).  Of the settings tried (TOP 2-4, DECAY 0.2-0.5, and the plain mean of
the best three, which reached 308), the larger ones moved dev answers whose single best entry was far above
another tool's several middling ones (an MNN "Not Support OpType" line under three Ascend entries); DECAY 0.4
with TOP 3 is the largest that moved no dev answer (every dev part, leave-source-out).  The size factor
(:data:`WORDS_SIZE_EXP`) was re-fitted with this order: 0.15-0.2 reached 300-302 but moved a dev answer."""
WORDS_FAMILY_GRAM = 4.0
"""Added to a family's wording score per distinct 4-gram of its own binaries' error texts in the message
(:func:`.family.source_gram_counts`; at most :data:`WORDS_FAMILY_GRAMS` counted): below the count that makes
them a marker (:data:`.family.SOURCE_COUNTS`), the vendor's own wording is still a cue, used only to order
wording-only matches.  Set on the same proxy, after the order: 292 -> 297 of 531 (claimed 224 -> 229), 1, 2,
3, 6, 8 and 12 points giving 292, 293, 294, 297, 297 and 298; no dev answer moved, confident answers the
same (247)."""
WORDS_FAMILY_GRAMS = 2
WORDS_FAMILY_NAME = 4.0
"""Added to a family's wording score per distinct compound name of its own files in the message
(:func:`.family.source_name_counts`; at most :data:`WORDS_FAMILY_NAMES` counted), as a 4-gram adds
:data:`WORDS_FAMILY_GRAM`: a name of the tool's API is as much its own as a 4-gram of its error texts
(measured with :data:`CUE_NAME`)."""
WORDS_FAMILY_NAMES = 2


def family_wording_order(ranked: list[Match], text: str = "") -> list[Match]:
    """``ranked`` (best first) with the first place of its leading run of wording-only matches given to the
    best match of the family with the highest wording score (its best wording-only match's score plus the
    next ones' decayed by :data:`WORDS_FAMILY_DECAY`, plus :data:`WORDS_FAMILY_GRAM` per 4-gram of its own
    error texts in ``text``; between equals, the family named first in ``ranked``); the other matches keep
    their order.

    One entry sharing a few rare words with a message is weak evidence of its tool: several entries of one
    tool that each share some of the wording (its vocabulary) say more.  Only the order changes, never a
    score, and only among matches found by wording alone that come first: a code, pattern, partial or
    tool-marker match keeps its place above them.  The first match's score can only be lower than before, so
    the answer's floor (:data:`.answer.WORDS_FLOOR`) withholds as often or more, never less."""
    run = 0
    while run < len(ranked) and ranked[run].reason == "words":
        run += 1
    if run < 2 or WORDS_FAMILY_TOP < 2:
        return ranked
    per: dict[str, list[float]] = {}
    for m in ranked[:run]:
        per.setdefault(m.entry.family, []).append(m.score)
    grams = {f: n for f, (n, _) in source_gram_counts(text.lower()).items()} if text else {}
    names = source_name_counts(text) if text else {}
    key = {
        f: sum(s * WORDS_FAMILY_DECAY**n for n, s in enumerate(top[:WORDS_FAMILY_TOP]))
        + WORDS_FAMILY_GRAM * min(grams.get(f, 0), WORDS_FAMILY_GRAMS)
        + WORDS_FAMILY_NAME * min(names.get(f, 0), WORDS_FAMILY_NAMES)
        for f, top in per.items()
    }
    best = max(key, key=lambda f: key[f])  # the first family of the highest score (dicts keep their order)
    first = next(i for i in range(run) if ranked[i].entry.family == best)
    return [ranked[first], *ranked[:first], *ranked[first + 1 :]]


_SPOKEN_PART = re.compile(r"\{[a-z][a-z0-9_]{0,20}(?:\|[^{}|]{1,200})?\}")
"""A part a text says in words when the message did not carry it: ``{name}`` or ``{name|words}`` (an
empty ``{name|}`` says nothing)."""


def _part_of_family(e: Entry, score: float, reason: str, seg: _Segment) -> float:
    """``score`` lowered where the entry was written for one part of what the message may be: one case of
    its code (found by the code alone, :data:`SUBCASE_PENALTY`), or a sibling component of the message's
    family that the message does not name (:func:`~dumpscope.core.knowledge.markers.component_unnamed`,
    weighed as foreign wording)."""
    if reason == "code" and speaks_of_parts(e):
        score = round(score - SUBCASE_PENALTY, 1)  # one case of the code, not the one the message states
    if (
        "pattern" not in reason
        and e.level != "family"
        and e.family in seg.families
        and component_unnamed(e.tool, seg.lowered)
    ):
        # a message of the family naming none of its components: a sibling component's entry is foreign
        score = round(score * FOREIGN_WORDS_FACTOR, 1)
    return score


def speaks_of_parts(e: Entry) -> bool:
    """Whether the entry's cause names parts its pattern captures (``inputs of different dtypes
    ({dtype|one} and {dtype2|another})``): found without its pattern, it would describe a case the message
    does not state, in default words."""
    return "{" in e.cause and _SPOKEN_PART.search(e.cause) is not None


def _shared(key: str, specific_entries: int) -> bool:
    """Whether a code only tells the family/scheme: a category code, or one many entries share."""
    return key.split(":", 1)[0] in CATEGORY_SCHEMES or specific_entries > SHARED_CODE_LIMIT


def _ranked(e: Entry, ev: _Evidence, families: list[str]) -> tuple[float, str]:
    """Score and reason: a partial match (core phrase only) unless a code names the entry."""
    if ev.partial and not ev.hit:
        return _partial_score(e, ev.sim, families), "partial"
    return _score(e, ev.pattern, bool(ev.hit), ev.shared, ev.sim, families)


def _score(
    e: Entry, pattern: bool, code: bool, shared: bool, sim: float, families: list[str]
) -> tuple[float, str]:
    """Score (0-100) and reason of one entry for one segment."""
    if e.level == "family":
        return _family_score(e, families), "family"
    if e.named_only and e.family not in families:
        pattern = False  # the pattern is any tool's text (a bare Python KeyError): its tool must be named
    reasons = _reasons(code, pattern, shared)
    score = _evidence_score(code, pattern, shared) + WORDS_SCORE * sim if reasons else WORDS_ONLY_SCORE * sim
    reasons = reasons or ["words"]
    score = _foreign_adjusted(e, score, reasons, families)
    return round(max(_penalised(e, score), 0.0), 1), "+".join(reasons)


def _family_score(e: Entry, families: list[str]) -> float:
    """A family-level entry: below any code or pattern match, one point less per better-evidenced family."""
    rank = families.index(e.family) if e.family in families else len(families)
    return round(max(FAMILY_SCORE - rank, 1.0), 1)


def _reasons(code: bool, pattern: bool, shared: bool) -> list[str]:
    """The strong reasons present, strongest first (a shared code only counts without a code hit)."""
    return [r for r, on in (("code", code), ("pattern", pattern), ("shared code", shared and not code)) if on]


def _evidence_score(code: bool, pattern: bool, shared: bool) -> float:
    return CODE_SCORE * code + PATTERN_SCORE * pattern + SHARED_CODE_SCORE * (shared and not code)


def _penalised(e: Entry, score: float) -> float:
    """A generic entry is lowered and capped below any specific code/pattern match; an uncertain one
    lowered."""
    if e.generic:
        score = min(score - GENERIC_PENALTY, GENERIC_CAP)
    if e.uncertain:
        score -= UNCERTAIN_PENALTY
    return score


def _core_phrase_present(e: Entry, lowered: str, generic: tuple[str, ...] = ()) -> bool:
    """The entry's stable core phrase (a long anchor) is in the text although the pattern failed:
    the wording drifted around it, or the paste is partial.  A pattern that is its literal alone failed
    only by letter case, which such a pattern means: that is no partial match.  Nor is a phrase found
    inside ``generic`` text any tool prints (Python's ``FileNotFoundError: [Errno 2] No such file or
    directory: '`` holds RKNN's calibration-list phrase ``no such file or directory: '``): it is that
    text's, no sign of the tool."""
    return (
        any(
            _is_core_phrase(a) and _whole_words_in(a, lowered) and not any(a in g for g in generic)
            for a in e.anchors
        )
        and literal_only(e.pattern) is None
    )


def _whole_words_in(anchor: str, lowered: str) -> bool:
    """Whether ``anchor`` is in the text with no word cut at either end: ``error: unsupport`` (RKNN's own
    wording) is no core phrase of ``NotImplementedError: Unsupported Ops``, where both end words are
    parts of longer words."""
    start = lowered.find(anchor)
    while start >= 0:
        end = start + len(anchor)
        cut_before = anchor[0].isalnum() and start > 0 and lowered[start - 1].isalnum()
        cut_after = anchor[-1].isalnum() and end < len(lowered) and lowered[end].isalnum()
        if not cut_before and not cut_after:
            return True
        start = lowered.find(anchor, start + 1)
    return False


def _is_core_phrase(anchor: str) -> bool:
    """An anchor long enough, and of several words, to count as an entry's core phrase.  A phrase of one
    content word ("not supported", "not implemented") is any tool's English, no core phrase.

    Kept per anchor (:data:`_CORE_PHRASES`): a pasted block asks it again for every segment and every entry
    holding the anchor (264 times, ~1.2 ms of tokenising, on a 12-line RKNN paste)."""
    known = _CORE_PHRASES.get(anchor)
    if known is None:
        known = _CORE_PHRASES[anchor] = (
            len(anchor) >= PARTIAL_ANCHOR and " " in anchor and len(tokens(anchor)) >= 2
        )
    return known


def _words_within(anchor: str, others: Iterable[frozenset[str]]) -> bool:
    """Whether ``anchor`` is a core phrase whose words are all among one of ``others`` (word sets)."""
    words = _plain_words(anchor) if _is_core_phrase(anchor) else frozenset()
    return bool(words) and any(words <= other for other in others)


def _plain_words(text: str) -> frozenset[str]:
    """Every word of ``text`` as written (quoted names and numbers kept: ``module 'tvm' has no attribute
    'relay'`` keeps its names, which :func:`.words.tokens` would blank)."""
    return frozenset(_WORD_RUN.findall(text))


_WORD_RUN = LazyPattern(r"\w+")


_CORE_PHRASES: dict[str, bool] = {}
""":func:`_is_core_phrase` of each anchor asked so far (a pure function of the anchor's text)."""


def _partial_score(e: Entry, sim: float, families: list[str]) -> float:
    """Score of a partial match: below a full pattern match, above wording alone."""
    score = _foreign_adjusted(e, PARTIAL_SCORE + WORDS_SCORE * sim, ["partial"], families)
    return round(max(_penalised(e, score), 0.0), 1)


def _foreign_adjusted(e: Entry, score: float, reasons: list[str], families: list[str]) -> float:
    """Lower an entry of another tool than the one(s) the message names (not libraries, not code hits)."""
    if not _is_foreign(e, reasons, families):
        return score
    if e.family in RUNTIME_FAMILIES:
        return min(
            score - FOREIGN_PATTERN_PENALTY, FAMILY_SCORE - 1.0
        )  # below even the named tool's family entry
    return score * FOREIGN_WORDS_FACTOR if reasons == ["words"] else score - FOREIGN_PATTERN_PENALTY


def _is_foreign(e: Entry, reasons: list[str], families: list[str]) -> bool:
    """Whether an entry is of another tool than the one(s) the message names.  A library's entry (an onnx
    checker text inside onnxsim's or onnxruntime's message) is never foreign by its pattern or code; found
    by wording alone inside a message that names another tool, it is as foreign as any other tool's."""
    if e.family in families or (e.family in LIBRARY_FAMILIES and (reasons != ["words"] or not families)):
        return False
    if not families:
        return e.named_only  # text any tool prints is this tool's only where the message names it
    return "code" not in reasons or e.family in RUNTIME_FAMILIES


def _related_codes(e: Entry, codes: list[str]) -> list[str]:
    """The message's codes that concern this entry's tool (its schemes, or a scheme every tool prints)."""
    return [k for k in codes if scheme_family(k) in (e.family, "")]


_ENVELOPES = ("Status Message:", "RecentErrMsg:", "Message=", "what():")
MAX_SEGMENT_LINES = 40


def segments(text: str) -> list[str]:
    """What to look up: the whole text, each envelope's inner message, each non-blank line."""
    out = [text, *_envelope_inners(text), *record_fields(text)]
    if "\n" in text:
        out.extend([line for line in text.splitlines() if line.strip()][:MAX_SEGMENT_LINES])
    return list(dict.fromkeys(out))


def _envelope_inners(text: str) -> Iterator[str]:
    """The inner message after each envelope marker (``Status Message:``, ``what():``...)."""
    for marker in _ENVELOPES:
        pos = text.find(marker)
        if pos > 0 and text[pos + len(marker) :].strip():
            yield text[pos + len(marker) :].strip()


MAX_RECORD = 64 * 1024
_KEY_VALUE = LazyPattern(r"(?:^|[;,]\s{0,4})([A-Za-z_][\w.]{0,40})\s{0,2}=\s{0,2}([^;\n]{1,400})")


def record_fields(text: str) -> list[str]:
    """The values of a structured record: a JSON object (op-support check results and the like)
    or a ``key=value; key=value`` line, each value as its own segment."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")) and len(stripped) <= MAX_RECORD:
        return _json_fields(stripped)
    if _looks_like_key_values(stripped):
        return [v.strip() for _, v in _KEY_VALUE.findall(stripped) if len(v.strip()) > 3][:MAX_SEGMENT_LINES]
    return []


def _json_fields(text: str) -> list[str]:
    """The strings of a JSON text ([] when it does not parse)."""
    try:
        return [v for v in _json_strings(json.loads(text)) if len(v) > 3][:MAX_SEGMENT_LINES]
    except (ValueError, RecursionError):  # not JSON, or nested too deeply to walk
        return []


def _looks_like_key_values(text: str) -> bool:
    return text.count("=") >= 2 and (";" in text or ", " in text)


def _json_strings(value: Any) -> Iterator[str]:
    """Every string in a parsed JSON value, depth first."""
    if isinstance(value, str):
        yield value
        return
    for child in _json_children(value):
        yield from _json_strings(child)


def _json_children(value: Any) -> Any:
    """The values of an object or the items of an array (nothing for numbers, booleans, null)."""
    return value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()


def framed_runtime_under(matches: list[Match], text: str) -> list[Match]:
    """``matches`` with each match of text any tool prints (:data:`RUNTIME_FAMILIES`, found by its pattern)
    that a tool's own line quotes scored just under that tool's match: a specific entry of another family,
    found by its pattern, one of whose captured values holds the runtime text's whole match (TensorRT's
    ``[file::fn::line] Error Code 1: Cuda Runtime (an illegal memory access was encountered)`` captures the
    CUDA runtime's wording as the error it reports).  The tool printed that line and its entry says which of
    its calls failed; the runtime entry stays in the list under it.  Nothing moves when no tool's match
    quotes the runtime text (two lines side by side, the same wording matched by both, a family card, a code
    card, wording alone), and nothing moves up."""
    runtime = [m for m in matches if m.entry.family in RUNTIME_FAMILIES and "pattern" in m.reason.split("+")]
    if not runtime:
        return matches
    quoted = [
        (m.score, found.span(k))
        for m in matches
        if m.entry.family not in RUNTIME_FAMILIES
        and "pattern" in m.reason.split("+")
        and not (_is_generic(m) or m.entry.consequence)
        and (found := m.entry.search(text)) is not None
        for k in range(1, (found.re.groups or 0) + 1)
        if found.start(k) >= 0
    ]
    if not quoted:
        return matches
    out = []
    for m in matches:
        inner = m.entry.search(text) if m in runtime else None
        framing = [
            score for score, (a, b) in quoted if inner is not None and a <= inner.start() and inner.end() <= b
        ]
        out.append(_under(m, max(framing)) if framing else m)
    return out


def runtime_under_own_sentence(matches: list[Match], cued: bool, text: str) -> list[Match]:
    """``matches`` with every match of text any tool prints (:data:`RUNTIME_FAMILIES`) scored just under the
    best match of a tool's own sentence, in a message that names no tool, leans to none and cues none
    (``cued`` False): a specific entry of a tool found by its pattern or by its core phrase (a partial
    match), neither an envelope nor a consequence, whose text in the message is not wholly inside the text a
    runtime entry matched (:func:`_outside_runtime_text`: onnxruntime's CUDA entry matching a bare ``CUDA
    error: no kernel image ...`` is the CUDA runtime's sentence, no sign of onnxruntime). The tool's sentence
    says which of its steps failed (onnxruntime's ``Failed to load library <path> with error: ...``, pnnx's
    ``no attribute value``); the runtime text it carries or that follows it (the loader's ``cannot open
    shared object file``, ``Segmentation fault``) is what any program prints when that step fails, so the
    tool's entry answers and the runtime entry stays under it. Inside a message that names or cues a tool the
    runtime text ranks under that tool's card already (:func:`_foreign_adjusted`, :data:`CUED_RUNTIME_GAP`);
    where no tool's own sentence is found nothing moves, and nothing moves up. Set on ``bench/eval_explain.py
    --blank-markers``: five confident answers that named the runtime text of an onnxruntime, TensorRT or ncnn
    message now name the tool's entry."""
    if cued or not any(m.entry.family in RUNTIME_FAMILIES for m in matches):
        return matches
    runtime_spans = [
        span
        for m in matches
        if m.entry.family in RUNTIME_FAMILIES
        for span in (_span(m, text),)
        if span[0] >= 0
    ]
    cap = max(
        (
            m.score
            for m in matches
            if m.entry.family not in RUNTIME_FAMILIES
            and _own_sentence(m, ("pattern", "partial"))
            and _outside_runtime_text(m, text, runtime_spans)
        ),
        default=None,
    )
    if cap is None:
        return matches
    return [_under(m, cap) if m.entry.family in RUNTIME_FAMILIES else m for m in matches]


def _own_sentence(m: Match, found_by: tuple[str, ...]) -> bool:
    """Whether ``m`` is a tool's own sentence: a specific entry (no card, generic entry, envelope or
    consequence, none answered by a reason-line quote) first found by one of ``found_by``."""
    e = m.entry
    return m.reason.split("+", 1)[0] in found_by and not (
        _is_generic(m) or e.consequence or is_envelope(m) or e.id.endswith("+" + REASON_LINE_ID)
    )


def _outside_runtime_text(m: Match, text: str, runtime_spans: list[tuple[int, int]]) -> bool:
    """Whether ``m``'s text in the message (its pattern's match, or its core phrase for a partial match) is
    not wholly inside one of ``runtime_spans`` (the text runtime entries matched)."""
    if m.reason.split("+", 1)[0] == "pattern":
        start, end = _span(m, text)
    else:
        lowered = text.lower()
        phrase = next((a for a in m.entry.anchors if _is_core_phrase(a) and _whole_words_in(a, lowered)), "")
        start = lowered.find(phrase) if phrase else -1
        end = start + len(phrase)
    if start < 0:
        return False
    return not any(a <= start and end <= b for a, b in runtime_spans)


def is_process_ending(e: Entry) -> bool:
    """An entry of text that says how a process ended (a signal, ``terminate called``, a heap check, the OOM
    killer) and not what failed: a ``consequence`` entry of text any tool prints (:data:`RUNTIME_FAMILIES`);
    its own cause says the message carries none."""
    return e.consequence and e.family in RUNTIME_FAMILIES


def _ending_cap(matches: list[Match]) -> float | None:
    """The score a process ending (:func:`is_process_ending`: ``Segmentation fault`` after the lines a tool
    printed) is put just under: the best specific match of a tool found by its pattern or an exact code in
    the same text, which says what failed before the process died (``vkCreateDevice failed -4``, then
    ``Segmentation fault``).  None when there is none: wording alone, a family card or an envelope moves
    nothing."""
    return max(
        (
            m.score
            for m in matches
            if m.entry.family not in RUNTIME_FAMILIES
            and {"pattern", "code"}.intersection(m.reason.split("+"))
            and not _is_generic(m)
            and not is_envelope(m)
        ),
        default=None,
    )


def consequences_last(matches: list[Match], text: str) -> list[Match]:
    """``matches`` with each match of a consequence entry (``consequence``: a line that only follows from an
    earlier failure) scored just under what states that failure, in one pass over the matches:

    * a process ending (:func:`is_process_ending`, text any tool prints) under the best specific match of a
      tool found by its pattern or an exact code anywhere in the text (:func:`_ending_cap`);
    * any other consequence (``Engine deserialization failed``, ``Assertion engine != nullptr failed``,
      ``Building TensorRT engine failed``) under the best cause its tool states before it in the same
      paste (:func:`_states_cause_of`): an entry of the same tool found by its pattern on a line before
      the consequence's line (or earlier on its line: :func:`_printed_before`), specific, or a card whose
      own reason a clause answers; a generic entry that no clause answers (``While parsing node number
      N``) moves only a generic consequence. A plugin
      the registry lacks, then ``Engine deserialization failed``: the answer rests on the plugin's line,
      the consequence line stays in the answer under it. A consequence alone, or a paste in which nothing
      before it is explained by an entry of its tool, moves nothing.

    Both caps are read from the scores the matches came with (a moved consequence moves nothing else)."""
    if not any(m.entry.consequence for m in matches):
        return matches
    endings = any(is_process_ending(m.entry) for m in matches)
    cap = _ending_cap(matches) if endings else None
    causes = [(m, kind) for m in matches for kind in (_cause_kind(m, text),) if kind]
    if cap is None and not causes:
        return matches
    out = []
    for m in matches:
        if is_process_ending(m.entry):
            if cap is not None:
                m = _under(m, cap)
        elif m.entry.consequence and causes:
            earlier = [c.score for c, kind in causes if _states_cause_of(m, c, kind, text)]
            if earlier:
                m = _under(m, max(earlier))
        out.append(m)
    return out


def follows_from(m: Match, cause: Match, text: str) -> bool:
    """``m`` is a consequence line of ``text`` (``Engine deserialization failed``, a signal) that follows from
    the error ``cause`` explains: ``cause`` states a cause (:func:`_cause_kind`) on an earlier line, of the
    same tool (any tool for a process ending).  What ``explain`` says under such a match; under a family
    card, a wording match or a later line nothing is claimed."""
    return (
        m.entry.consequence
        and not cause.entry.consequence
        and _states_cause_of(m, cause, _cause_kind(cause, text), text)
    )


def _states_cause_of(m: Match, cause: Match, kind: str, text: str) -> bool:
    """A cause of that ``kind`` (:func:`_cause_kind`, "" for none) explains the consequence ``m``: its tool's
    (any tool's for a process ending; a generic cause only a generic consequence), on an earlier line."""
    if not kind:
        return False
    if not is_process_ending(m.entry) and (
        cause.entry.family != m.entry.family or (kind == "generic" and not m.entry.generic)
    ):
        return False
    return _printed_before(cause, m, text)


def _printed_before(cause: Match, m: Match, text: str) -> bool:
    """``cause`` is printed before ``m``: on an earlier line of ``text``, or earlier on the same line (a log
    that joins its messages without a newline: TFLite's Python ``RuntimeError`` holds the kernel's check and
    ``Node number N (OP) failed to prepare.`` on one line)."""
    line, other = _line_of(cause, text), _line_of(m, text)
    return line < other or (line == other and _start(cause, text) < _start(m, text))


def _cause_kind(m: Match, text: str) -> str:
    """How ``m`` may state the cause a consequence follows from: ``specific`` (a specific entry found by its
    pattern), ``answered`` (a card, found by its pattern, whose own reason a clause answers:
    :func:`.clauses.answers_reason`, as ``Error Code 1: Serialization (... IPluginCreator not found ...)``
    before ``Engine deserialization failed``), ``generic`` (a scheme entry found by its pattern that no
    clause answers), or "" (a family card, a consequence, a match not found by its pattern)."""
    if m.entry.consequence or m.entry.level == "family" or "pattern" not in m.reason.split("+"):
        return ""
    if is_envelope(m) or is_code_card(m) or m.entry.generic:
        if answers_reason(m, text):
            return "answered"
        return "generic" if m.entry.generic and not is_envelope(m) else ""
    return "specific"


def _line_of(m: Match, text: str) -> int:
    """The line of ``text`` on which ``m``'s pattern first matches (past the last line when it does not)."""
    start = _start(m, text)
    return text.count("\n", 0, start) if start < len(text) else text.count("\n") + 1


def inner_first(matches: list[Match], text: str = "") -> list[Match]:
    """``matches`` with each match that only carries a message another entry explains scored just under that
    entry (the best specific match of the same tool that explains more):

    * a code card (:func:`.clauses.is_code_card`: its advice is about its code in general), or an entry
      found by its code whose pattern did not match (:func:`_carries_code`), under the best match of its
      tool whose pattern matched: that entry answers the message's own reason, the card's code
      stays in the answer (every match of the tool keeps the message's codes);
    * an envelope (:func:`.clauses.is_envelope`: it captured the inner message as ``reason``, as
      onnxruntime's ``Status Message: ...`` or Ascend's ``EE1001 ... Reason: ...``) under the best match of
      its tool whose pattern matched or that an exact code of the message names (an ``aclrtSetDevice ...
      507033`` card before the ``EE1001`` line that carried its reason), or, with none of its tool,
      under the best specific pattern match of another tool inside its inner message
      (:func:`_inner_by_another_tool`);
    * a pattern match that captured nothing, on a line of ``text`` before the best pattern match of its tool
      that captured the op, node or layer that failed, under that match (:func:`_announces`: a summary that
      announces the lines after it, or a class entry that only read the check's text back); this one is
      applied first, so that a card goes under the naming match and not under the summary's score."""
    naming = _best_naming(matches, text)
    if naming:  # first, so that a card goes under the match that names the part, not under what it announced
        matches = [
            _under(m, naming[m.entry.family][0]) if _announces(m, naming, text) else m for m in matches
        ]
    inner = _best_specific(matches, ("pattern",))
    if inner:
        matches = [
            _under(m, inner[m.entry.family]) if _carries_code(m) and m.entry.family in inner else m
            for m in matches
        ]
    # an envelope goes under what states its reason, never under a line that only follows from it (TFLite's
    # 'Node number N (TfLiteGpuDelegateV2) failed to invoke' after the delegate's own status)
    carried = _best_specific([m for m in matches if not m.entry.consequence], ("pattern", "code"), cards=True)
    return [_under_carried(m, carried, matches, text) if is_envelope(m) else m for m in matches]


def _under_carried(m: Match, carried: dict[str, float], matches: list[Match], text: str) -> Match:
    """The envelope ``m`` under the best match of its tool that ``carried`` holds, else under the best
    specific pattern match of another tool found inside the inner message ``m`` captured
    (:func:`_inner_by_another_tool`); unchanged when there is neither."""
    if m.entry.family in carried:
        return _under(m, carried[m.entry.family])
    other = _inner_by_another_tool(m, matches, text)
    return m if other is None else _under(m, other)


def _inner_by_another_tool(m: Match, matches: list[Match], text: str) -> float | None:
    """The best score of a specific match of another tool that the text names (its markers or codes; not
    text any tool prints) found by its pattern at or after where the envelope ``m``'s captured ``reason``
    starts: the inner message was printed by that tool (CANN's ``EE9999`` lines inside onnxruntime's
    ``Status Message:``, which the eval set labels with both tools).  None when ``m`` captured no reason or
    no such match is there."""
    found = m.entry.search(text) if m.entry.pattern else None
    if found is None or "reason" not in found.re.groupindex or found.start("reason") < 0:
        return None
    start, names = found.start("reason"), set(named_families(text)) - {m.entry.family, *RUNTIME_FAMILIES}
    return max(
        (
            o.score
            for o in matches
            if o.entry.family in names
            and "pattern" in o.reason.split("+")
            and not (_is_generic(o) or is_envelope(o) or is_code_card(o))
            and _start(o, text) >= start
        ),
        default=None,
    )


def _carries_code(m: Match) -> bool:
    """A code card, or a specific entry found by the message's code while its own pattern did not match
    (``Invalid RKNN model version N``'s entry for a ``RKNN_ERR_MODEL_INVALID`` that an operator check
    caused): either says what the code means in general, not what this message reports."""
    if is_code_card(m):
        return True
    reasons = m.reason.split("+")
    return "code" in reasons and "pattern" not in reasons and bool(m.entry.pattern) and not _is_generic(m)


def innermost_first(matches: list[Match], text: str) -> list[Match]:
    """``matches`` with what explains a Python traceback's innermost failure (:func:`.tracebacks.failures`:
    the exception line and the frame that raised it) ranked first: every match scored above the best of them
    whose entry is not found in any failure is scored just under it.  A vendor wrapper's card (RKNN's
    ``Catch exception when building RKNN model``, a step's ``E build: Traceback``), the tool's family card and
    wording found in the frames say which step caught the exception, not why it was raised.

    Only a specific match found by its pattern counts as explaining the failure (not a family card, a scheme
    or range entry, a code card or an envelope that only carried it); without one nothing moves."""
    found = failures(text)
    if not found:
        return matches
    inside = [m for m in matches if _explains(m, found)]
    if not inside:
        return matches
    best = max(m.score for m in inside)
    kept = {id(m) for m in inside}
    return [m if id(m) in kept or m.score < best else _under(m, best) for m in matches]


def narrower_first(matches: list[Match], text: str) -> list[Match]:
    """``matches`` with each specific pattern match that a narrower one of its tool refines scored just under
    it: the narrower entry's pattern matched the same text (its match covers the other's) and read every part
    the other read and more (``Load model from <path>.pt failed: Protobuf parsing failed`` refines the
    checklist entry for any file that is not ONNX protobuf: the extension picks the cause).  A checklist
    entry then stays as the fallback for a message whose details pick none of its subcases."""
    spans = {id(m): _span(m, text) for m in matches if _is_subcase_candidate(m)}
    if len(spans) < 2:
        return matches
    by_id = {id(m): m for m in matches}
    best: dict[int, float] = {}
    for a in spans:
        for b in spans:
            if a != b and _refines(by_id[a], spans[a], by_id[b], spans[b]):
                best[b] = max(best.get(b, 0.0), by_id[a].score)
    return [_under(m, best[id(m)]) if id(m) in best else m for m in matches]


def _is_subcase_candidate(m: Match) -> bool:
    return (
        "pattern" in m.reason.split("+")
        and bool(m.entry.pattern)
        and not (_is_generic(m) or is_envelope(m) or is_code_card(m) or m.entry.consequence)
    )


def _span(m: Match, text: str) -> tuple[int, int]:
    found = m.entry.search(text)
    return (found.start(), found.end()) if found is not None else (-1, -1)


def _refines(a: Match, span_a: tuple[int, int], b: Match, span_b: tuple[int, int]) -> bool:
    """Whether ``a`` is a narrower case of ``b``: same tool, its match covers ``b``'s, it read each part ``b``
    read (``b`` read one at least: an entry that read nothing is found by its own literal wording, which says
    more than another entry's parts) with the same value, and at least one more."""
    if a.entry.family != b.entry.family or span_a[0] < 0 or span_b[0] < 0 or not b.captures:
        return False
    if a.entry.keys or b.entry.keys:
        return False  # a code's entries are ranked by their code and pattern (inner_first), not here
    covers = span_a[0] <= span_b[0] and span_b[1] <= span_a[1]
    extra = set(a.captures) - set(b.captures)
    # more parts that only read the check's own text back (its detail, its code) pick no case
    return covers and set(b.captures) < set(a.captures) and any(k not in _READ_BACK for k, _ in extra)


def _explains(m: Match, found: list[str]) -> bool:
    """Whether ``m`` is a specific pattern match whose pattern is found in one of the failures ``found``."""
    if "pattern" not in m.reason.split("+") or _is_generic(m) or is_envelope(m) or not m.entry.pattern:
        return False
    if is_code_card(m):
        return (
            False  # the exception's status code (RKNN_ERR_MODEL_INVALID): it names the failure, not its cause
        )
    return any(m.entry.search(f) is not None for f in found)


def _best_naming(matches: list[Match], text: str) -> dict[str, tuple[float, int]]:
    """Per family, the best score of a specific match found by its pattern (no card, no code entry) that
    captured what failed (an op, node, layer or tensor), and where in ``text`` its pattern matches."""
    best: dict[str, tuple[float, int]] = {}
    for m in matches:
        if m.reason != "pattern" or m.entry.keys or _is_generic(m) or is_envelope(m):
            continue
        if any(k.rstrip("0123456789") in NAME_CAPTURES for k, _ in m.captures):
            if m.score > best.get(m.entry.family, (0.0, 0))[0]:
                best[m.entry.family] = (m.score, _start(m, text))
    return best


def _announces(m: Match, naming: dict[str, tuple[float, int]], text: str) -> bool:
    """A specific match found by its pattern alone (no code) that captured nothing, on a line before the
    match of its tool that names what failed: a summary that announces the lines after it (``Model wasn't
    fully converted. Failed operations detailed log:`` before ``-- <op> with a message:``); or one that only
    read a check's own text back (:data:`_READ_BACK`: a class of torch_npu's checks, its ``detail`` and
    ``ERR`` code) where that match starts too: the match that names the part explains the same text more."""
    if m.entry.family not in naming or m.reason != "pattern" or m.entry.keys or _is_generic(m):
        return False
    start, named = _start(m, text), naming[m.entry.family][1]
    if m.captures and all(k in _READ_BACK for k, _ in m.captures):
        return start <= named
    return not m.captures and start < named


_READ_BACK = frozenset({"detail", "code"})
"""What a class entry captures when it reads a check's own text back (``torch-npu-s24a-check-*``)."""


def _start(m: Match, text: str) -> int:
    """Where ``m``'s pattern first matches ``text`` (its length when it does not)."""
    found = m.entry.search(text) if m.entry.pattern else None
    return found.start() if found is not None else len(text)


FLOAT16 = "float16"
FLOAT16_CLASH = LazyPattern(
    r"bound to different types \(tensor\((?P<a>float16|float)\) and tensor\((?P<b>float16|float)\)"
    r"|Type \(tensor\((?P<c>float16|float)\)\) of (?:output|input) arg \([^\n]{0,400}?\)"
    r" does not match expected type \(tensor\((?P<d>float16|float)\)\)"
)
"""onnxruntime's two type-clash wordings at model load (graph.cc: a type parameter bound to two types, a
declared output type that the operator does not produce) with float16 on one side and float on the other."""


def float16_clash_first(matches: list[Match], text: str) -> list[Match]:
    """``matches`` with the float16 family's best match first when the message is a float16/float type
    clash (:data:`FLOAT16_CLASH`) in whatever envelope it is printed: such a clash at load is left by an
    fp32-to-fp16 conversion (a Cast, an initializer or an op attribute the converter did not retype), so
    the conversion's entry, or its family card, answers before the runtime's wording of the check and its
    envelope, which are scored just under it.  The first float16 match shows the codes the message printed
    that those matches showed (the envelope's status code stays in the answer, as a code seen via the tool
    that printed it).  Without a float16 match nothing moves."""
    if "tensor(float16)" not in text or not any(_is_float16_clash(m) for m in FLOAT16_CLASH.finditer(text)):
        return matches
    own = [m for m in matches if m.entry.family == FLOAT16]
    if not own:
        return matches
    first = max(own, key=lambda m: m.score)
    passed = [m for m in matches if m.entry.family != FLOAT16 and m.score >= first.score]
    codes = tuple(dict.fromkeys([*first.codes, *(c for m in passed for c in m.codes)]))
    return [
        (m._replace(codes=codes) if m is first else m)
        if m.entry.family == FLOAT16 or m.score < first.score
        else _under(m, first.score)
        for m in matches
    ]


def _is_float16_clash(m: re.Match[str]) -> bool:
    """Whether the two types of a :data:`FLOAT16_CLASH` match differ (one float16, one float)."""
    pair = (m.group("a"), m.group("b")) if m.group("a") else (m.group("c"), m.group("d"))
    return pair[0] != pair[1]


def _best_specific(matches: list[Match], reasons: tuple[str, ...], cards: bool = False) -> dict[str, float]:
    """Per family, the best score of a specific match (no generic entry or envelope; a code card only with
    ``cards``) found by one of ``reasons`` (``code``: an exact code of the message, not a code many entries
    share).  An entry of another code than the message's (``507014``'s timeout entry, found by its wording
    in a message that prints 507015) states no reason of this message: it is left out."""
    best: dict[str, float] = {}
    for m in matches:
        found = set(m.reason.split("+"))
        if not found.intersection(reasons) or _is_generic(m) or is_envelope(m) or _of_another_code(m):
            continue
        if cards or not is_code_card(m):
            best[m.entry.family] = max(best.get(m.entry.family, 0.0), m.score)
    return best


def _of_another_code(m: Match) -> bool:
    """``m``'s entry is one of AscendCL return codes (``acl:``) none of which the message prints, while it
    prints one of its own: a call returns one aclError, so an entry of another states another failure.  Other
    schemes do not exclude each other so: RKNN's ``ret=-1`` (RKNN_ERR_FAIL) follows the -6 of an invalid
    model, Ascend's E19010 is printed as EZ9010 too."""
    own = {k for k in m.entry.keys if k.startswith("acl:")}
    printed = {k for k in m.codes if k.startswith("acl:")}
    return bool(own and printed) and not own & printed


def _under(m: Match, score: float) -> Match:
    return m._replace(score=min(m.score, score - 1.0))


def limit_generic(ranked: list[Match], top: int, slots: int = 3) -> list[Match]:
    """``ranked`` cut to ``top`` with at most one generic entry among the first ``slots``."""
    head: list[Match] = []
    rest: list[Match] = []
    for m in ranked:
        (head if _fits_head(m, head, slots) else rest).append(m)
    return (head + rest)[: max(0, top)]


def _fits_head(m: Match, head: list[Match], slots: int) -> bool:
    """Room at the head, and not a second generic (scheme, range, family-level) entry there."""
    return len(head) < slots and not (_is_generic(m) and any(_is_generic(h) for h in head))


def _is_generic(m: Match) -> bool:
    return m.entry.generic or m.entry.level == "family"


def _captures(m: Any) -> tuple[tuple[str, str], ...]:
    if m is None:
        return ()
    named = m.re.groupindex
    out: list[tuple[str, str]] = []
    for name, _idx in sorted(named.items(), key=lambda kv: kv[1]):
        value = m.group(name)
        if value is None or not value.strip():
            continue
        if name.rstrip("0123456789") in NAME_CAPTURES:
            value = name_value(m.string, *m.span(name))
        else:
            bare = value.strip().strip("'\"").strip()
            value = bare.strip("[]").strip()
            if value.count("[") != value.count("]"):
                value = bare  # an index that ends the value (``data[d]``) keeps its bracket
        if value and not is_common_word(name, value):
            out.append((name, value))
    return tuple(out)


NAME_CAPTURES = frozenset({"op", "op_type", "optype", "node", "layer", "tensor", "input", "output", "dtype"})
"""Captures that hold one name (an operator, node, tensor, type): shown as :func:`name_value` reads them."""
_CLOSING = {"(": ")", "[": "]", "{": "}"}
MAX_NAME = 400
"""Longest name a capture is extended to (a bracket group that never closes is not followed further)."""
_NAME_END_PUNCTUATION = ".,;:"


def name_value(text: str, start: int, end: int) -> str:
    """The name a capture ``text[start:end]`` starts, as the message has it: a bracket group opened in it
    is kept whole, spaces included (``{ForeignNode[(Unnamed Layer* 12) [Shuffle]...]}``), and so are
    TensorRT's fused names (``Conv_14 + PWN(Relu_15)``, ``(Unnamed Layer* 3) [Shuffle]``) and a list of
    one-word names inside the capture (``Resize, MaxUnpool``); trailing words
    (``Concat_3 due to ...``) and punctuation are dropped, quotes and one enclosing ``[...]`` removed.
    A group that does not close on the line (within :data:`MAX_NAME` characters) is cut where the capture
    ends."""
    while start < end and text[start].isspace():
        start += 1
    stop = _name_end(text, start, end, min(len(text), start + MAX_NAME))
    if stop is None:
        stop = _name_end(text, start, end, end) or end
    return _unwrapped(text[start:stop].rstrip(_NAME_END_PUNCTUATION + " \t"))


def _name_end(text: str, start: int, end: int, limit: int) -> int | None:
    """Where the name starting at ``start`` ends, reading up to ``limit``; None when a bracket group it
    opened is still open there."""
    depth: list[str] = []
    reading = False  # past the capture's end: inside a group it opened, or a fused name after " + "
    i = start
    while i < limit:
        step = _name_step(text, i, end, depth, reading)
        if step is None:
            break
        i, reading = step
    return None if depth else i


def _name_step(text: str, i: int, end: int, depth: list[str], reading: bool) -> tuple[int, bool] | None:
    """One step of :func:`_name_end` at ``text[i]``: the next position and whether it now reads past the
    capture's end, or None where the name ends (``depth``, the open bracket groups, is updated in place)."""
    ch = text[i]
    if not depth:
        if ch in ")]}" or (i >= end and not reading and not _joined(text, i)):
            return None
        if ch == " " and i < end and _listed(text, i, end):
            return i + 1, reading  # ", " inside the capture before another one-word item: a list of names
        if ch.isspace():
            if ch in "\r\n" or not _joined(text, i):
                return None
            return i + (3 if text.startswith(" + ", i) else 1), True
    elif ch in "\r\n":
        return None
    reading = reading or (i >= end and bool(depth))
    if ch in _CLOSING:
        depth.append(_CLOSING[ch])
    elif depth and ch == depth[-1]:
        depth.pop()
    return i + 1, reading


def _listed(text: str, i: int, end: int) -> bool:
    """The space at ``text[i]`` follows a comma and comes before another one-word item of the capture: a
    list of names (``Resize, MaxUnpool``), not a name followed by words (``Unfold, input size ...``)."""
    if i == 0 or text[i - 1] != ",":
        return False
    item = text[i + 1 : min(end, i + 1 + MAX_NAME)].split(",", 1)[0].strip()
    return bool(item) and not any(c.isspace() for c in item)


def _joined(text: str, i: int) -> bool:
    """The space at ``text[i]`` joins two parts of one TensorRT name: `` + `` before a fused layer's name,
    or the `` [Type]`` after ``(Unnamed Layer* 12)``."""
    if text.startswith(" + ", i):
        return i + 3 < len(text) and not text[i + 3].isspace()
    return text.startswith(" [", i) and i > 0 and text[i - 1] == ")"


def _unwrapped(value: str) -> str:
    """``value`` without surrounding quotes and one enclosing ``[...]`` pair."""
    value = value.strip("'\"` ")
    if (
        value.startswith("[")
        and value.endswith("]")
        and _name_end(value, 1, len(value) - 1, len(value)) == (len(value) - 1)
    ):
        value = value[1:-1].strip("'\" ")
    return value
