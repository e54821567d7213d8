"""What ``explain`` answers: the ranked matches, how sure the answer is, or that it does not know.

A lookup (:meth:`KnowledgeBase.lookup`) always ranks something when any entry shares a word
with the message.  An answer adds the judgement a user needs before acting on it:

* **basis**: how the best match was found -- ``code`` (the message's own error code names the
  entry), ``pattern`` (the entry's message pattern matched), ``tool marker`` (the tool was
  recognised from its markers; its family-level entry answers), ``partial`` (the entry's core
  phrase is present but not its whole pattern), ``shared code`` (a code many entries share),
  ``words`` (wording alone);
* **confidence**: ``high`` (a specific entry by code or pattern), ``medium`` (the tool is sure,
  the cause generic: a family-level, scheme or range entry, a partial or shared-code match),
  ``low`` (wording alone);
* **no confident match**: a wording-only best match under :data:`WORDS_FLOOR` is withheld; the
  answer then names only the closest tools;
* **uncovered tool**: a message whose strongest markers are those of a tool dumpscope does not
  cover (Hailo, Vitis AI, Sophgo TPU-MLIR...) is answered "this is <tool>; not covered", keeping
  only matches that apply whatever the tool (generic runtime text, a quoted onnx error) found by
  code or pattern.

:data:`WORDS_FLOOR` was calibrated on the dev part of ``tests/data/explain/messages.jsonl`` and on
``tests/data/explain/unknown.jsonl`` (messages of uncovered tools and generic text); see
``bench/eval_explain.py``.
"""

from __future__ import annotations

from collections import namedtuple

from dumpscope.core.knowledge.entry import generic_wording
from dumpscope.core.knowledge.family import MAX_TEXT, detect_uncovered, strongest_covered
from dumpscope.core.knowledge.markers import MARKERS, STRONG, UNCOVERED
from dumpscope.core.knowledge.paste import as_printed

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from typing import Any

    from dumpscope.core.knowledge.kb import KnowledgeBase, Match

WORDS_FLOOR = 20.0
"""Least score of a wording-only best match that is still shown as an answer.  On the dev set the
right wording-only answers scored 26.0 and up, the wrong ones 15.9 and below, and every generic or
uncovered-tool text in ``unknown.jsonl`` that reached wording only scored under 20."""

#: Families whose entries stay relevant inside another (uncovered) tool's message when found by code
#: or pattern: libraries other tools embed, and generic runtime text.
EMBEDDED_FAMILIES = frozenset({"onnx", "runtime"})

_BASIS = {
    "code": "code",
    "pattern": "pattern",
    "family": "tool marker",
    "partial": "partial",
    "shared code": "shared code",
    "words": "words",
}


class Answer(namedtuple("Answer", "matches confidence basis uncovered closest follows", defaults=((),))):
    """The answer to one message.

    * ``matches``: the matches shown (empty when nothing is known or nothing is sure enough);
    * ``confidence``: ``high``, ``medium``, ``low``, or ``none`` (nothing shown);
    * ``basis``: how the best match was found (see the module docstring), "" when none;
    * ``uncovered``: ``(family, tool name)`` of an uncovered tool the message names, or None;
    * ``closest``: when the best match was withheld, the tools of the withheld matches, best first;
    * ``follows``: per shown match, whether its line only follows from the error the first answer explains
      (:func:`.kb.follows_from`: ``Engine deserialization failed`` under the plugin line before it).

    Every shown match after the first that does not follow from it is a related entry (:meth:`related`):
    another cause the message resembles, to read only if the first answer does not fit (a specific entry
    that wording alone found, under its tool's card, is one: :meth:`.kb.KnowledgeBase.distinct_first`).
    """

    __slots__ = ()
    matches: list[Match]
    confidence: str
    basis: str
    uncovered: tuple[str, str] | None
    closest: tuple[str, ...]
    follows: tuple[bool, ...]

    @property
    def confident(self) -> bool:
        """Something is shown as the answer (not withheld, not only "not covered")."""
        return bool(self.matches) and self.confidence != "none"

    def related(self, i: int) -> bool:
        """Whether the ``i``-th shown match (0 is the answer) is a related entry (:func:`related_at`)."""
        return related_at(i, self.matches, self.follows)

    def headline(self) -> str:
        """One line saying what kind of answer this is."""
        if self.uncovered is not None:
            return f"This message comes from {self.uncovered[1]}; that tool is not covered by dumpscope."
        if self.closest:
            return (
                "No confident match (wording only, under the floor); closest tools: "
                f"{', '.join(self.closest)}."
            )
        if not self.matches:
            return "No known cause for this message."
        return f"confidence: {self.confidence} (matched by {self.basis})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "confident": self.confident,
            "confidence": self.confidence,
            "basis": self.basis,
            "uncovered_tool": self.uncovered[1] if self.uncovered else None,
            "closest_tools": list(self.closest),
            "matches": matches_json(self.matches, self.follows),
        }


def follows_of(kb: KnowledgeBase, matches: list[Match], text: str) -> tuple[bool, ...]:
    """Per match of ``text``, whether its line only follows from the error the first match explains
    (:func:`.kb.follows_from`; never the first itself)."""
    return tuple(i > 0 and kb.follows_from(m, matches[0], text) for i, m in enumerate(matches))


def follows_at(i: int, follows: tuple[bool, ...]) -> bool:
    """Whether the ``i``-th match's line follows from the first answer's error (``follows``:
    :func:`follows_of`; False past its end)."""
    return i < len(follows) and follows[i]


def related_at(i: int, matches: list[Match], follows: tuple[bool, ...]) -> bool:
    """Whether the ``i``-th of ``matches`` (0 is the answer) is a related entry, not the answer: any after
    the first, except a line that follows from the first answer's error (``follows``, :func:`follows_of`)."""
    return 0 < i < len(matches) and not follows_at(i, follows)


def matches_json(matches: list[Match], follows: tuple[bool, ...]) -> list[dict[str, Any]]:
    """``matches`` as ``--json`` prints them, a single message's answer and a scanned log's problem alike:
    each with ``follows_first`` and ``related``."""
    return [
        {
            **m.to_dict(),
            "follows_first": follows_at(i, follows),
            "related": related_at(i, matches, follows),
        }
        for i, m in enumerate(matches)
    ]


def answer(kb: KnowledgeBase, message: str, top: int = 5) -> Answer:
    """The answer to ``message``: ranked matches with their confidence, "not covered" or "no confident
    match".  The message is read as its tool printed it (:func:`.paste.as_printed`)."""
    matches = kb.lookup(message[:MAX_TEXT], top=max(top, 3))
    text = as_printed(message[:MAX_TEXT])
    lowered = text.lower()
    uncovered = _uncovered_tool(text, lowered)
    if uncovered is not None:
        kept = [m for m in matches if _applies_anywhere(m)][:top]
        return Answer(
            kept,
            confidence_of(kept[0])[0] if kept else "none",
            basis_of(kept[0]) if kept else "",
            uncovered,
            (),
        )
    if not matches:
        return Answer([], "none", "", None, ())
    best = matches[0]
    level, basis = confidence_of(best)
    if (level == "low" and best.score < WORDS_FLOOR) or unnamed_generic_wording(kb, best, text):
        return Answer([], "none", basis, None, _tools(matches))
    shown = matches[:top]
    return Answer(shown, level, basis, None, (), follows_of(kb, shown, text))


def unnamed_generic_wording(kb: KnowledgeBase, m: Match, text: str) -> bool:
    """Whether ``m`` is a tool's entry whose pattern is wording any tool prints
    (:func:`.entry.generic_wording`), found by wording alone in a message that does not name its tool
    (:meth:`.kb.KnowledgeBase.named_families`): which tool said it is not known, so the answer is withheld
    whatever its score.  A tool's family card, generic runtime text and the embedded libraries (onnx) are
    never such entries.

    Wording only, not a pattern or partial match: on ``bench/eval_explain.py --blank-markers`` (dev messages
    with every marker and code blanked, so no tool is ever named) withholding wording-only answers removed 18
    confident wrong answers (another tool's "Cannot load input model", "... not implemented", "Type ... not
    supported") for 8 right ones; withholding full pattern matches too would have removed 1 more wrong answer
    for 49 right ones (the tool's own sentences: "Could not find any implementation for node")."""
    e = m.entry
    if e.level == "family" or e.family in EMBEDDED_FAMILIES or basis_of(m) != "words":
        return False
    if not generic_wording(e.pattern, (literal for literal, _ in MARKERS.get(e.family, ()))):
        return False
    return e.family not in kb.named_families(text)


def confidence_of(m: Match) -> tuple[str, str]:
    """``(confidence, basis)`` of one match."""
    basis = basis_of(m)
    specific = not (m.entry.generic or m.entry.level == "family")
    if basis in ("code", "pattern") and specific:
        return "high", basis
    if basis == "words":
        return "low", basis
    return "medium", basis


def basis_of(m: Match) -> str:
    """How a match was found: its strongest reason, in the words the answer uses."""
    return _BASIS.get(m.reason.split("+", 1)[0], m.reason)


def _uncovered_tool(text: str, lowered: str) -> tuple[str, str] | None:
    """The uncovered tool the message names, when its markers are at least as strong as any covered tool's,
    or when two of its own markers name it (a plugin of a covered tool, such as OpenVINO's NPU plugin,
    prints the covered tool's frames around its own lines)."""
    found = detect_uncovered(text, lowered)
    if not found:
        return None
    family, evidence = found[0]
    covered = strongest_covered(text, lowered)
    if covered is not None and covered[:2] > evidence[:2] and evidence[1] < 2 * STRONG:
        return None
    return family, UNCOVERED[family][0]


def _applies_anywhere(m: Match) -> bool:
    """A match still worth showing inside an uncovered tool's message."""
    return m.entry.family in EMBEDDED_FAMILIES and basis_of(m) in ("code", "pattern")


def _tools(matches: list[Match]) -> tuple[str, ...]:
    """The tools of ``matches``, best first, one name per family (a card put before its entry by
    :meth:`.kb.KnowledgeBase.distinct_first` names the tool as the card does)."""
    names: dict[str, str] = {}
    for m in matches:
        names.setdefault(m.entry.family, m.entry.tool)
    return tuple(dict.fromkeys(names.values()))


def shown_code(m: Match) -> str:
    """The code to show for a match, as the message prints it.  The entry's own code when the message
    printed it so; the printed form when the message names the entry's code another way, with the entry's
    beside it unless only the case differs (``QNN_GRAPH_ERROR_FINALIZE_FAILED (6022)``, ``0x8000042C``);
    another code of the same tool exactly as printed, with the entry's code beside it (``E19010 (entry
    EZ9010)``; a range entry ``E1xxxx`` shows the message's ``E19010``)."""
    code = m.entry.code
    printed = dict(m.printed)
    own = [k for k in m.codes if k in m.entry.keys]
    if own:
        token = printed.get(own[0], "")
        if not code or not token or token in code:
            return code
        return token if token.lower() == code.lower() else f"{token} ({code})"
    shown = [printed.get(k, k.split(":", 1)[1]) for k in m.codes if ":" in k and not k.startswith("family:")]
    if not code or not shown:
        return code
    if m.entry.generic:
        return shown[0]
    return f"{shown[0]} (entry {code})"
