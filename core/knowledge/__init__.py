"""Error-message knowledge base: what a converter or runtime error means and how to fix it.

Usage::

    from dumpscope.core.knowledge import load_kb, scan_log

    kb = load_kb()                      # built-in entries + ~/.config/dumpscope/kb/*.jsonl
    for m in kb.lookup("E10001: Value [NCWH] for parameter [--input_format] is invalid. Reason: ..."):
        print(m.score, m.reason, m.tool, m.code, m.cause, m.fix, dict(m.captures))

    with open("atc.log", "rb") as f:
        for problem in scan_log(f, kb):  # problem.confident is False for an error no entry fits
            cause = problem.matches[0].cause if problem.confident else "no confident match"
            print(problem.first_line_no, problem.count, problem.text, cause)

The data file ``kb.jsonl`` (package data) holds one JSON object per line with ``id, family,
tool, stage, code, keys, pattern, cause, fix, source, uncertain, generic`` (+ ``group``,
``example``, ``anchors``, ``words``, ``level``, ``named_only``, ``consequence``).  ``consequence: true`` marks
text that only follows from an earlier failure (``Engine deserialization failed``, a signal): in a paste it
ranks under the entry of an earlier line of its tool.  ``named_only: true`` marks an entry whose
pattern is text any tool prints (a bare Python ``KeyError``): the pattern counts only when the message
names the entry's tool; otherwise the entry is found by wording alone.  ``level: "family"`` marks the one
entry per tool that answers when the tool is recognised (:mod:`~dumpscope.core.knowledge.family`) but
nothing specific matches; code-range entries (``acl:5070xx``, ``ascend:EIxxxx``) answer codes
without an entry of their own.  ``anchors``, ``words`` and the complete ``keys`` are stored so
loading compiles and tokenises nothing (tests check they equal the computed ones).

Evaluation on real messages: ``bench/eval_explain.py`` (family@1 and code@3 per family on
the dev and held-out parts of ``tests/data/explain/messages.jsonl``).

User patterns with nested ambiguous repeats (``(a+)+``) are refused at load with a
``file:line`` warning.  Writing patterns (the test-suite enforces it on 1 MB adversarial lines): no unbounded
gap (``.*?``) -- use bounded ones (``[^\n]{0,120}?``), wrap "gap + the literal after it" in
an atomic group ``(?>...)`` so gaps never multiply, temper a gap with the pattern's head
(``(?:(?!Value)[^\n]){0,120}?``) so repeats of the head cannot restart it, and start a
pattern with a literal, not a capture.  Name the variable parts: ``(?P<op>...)`` (linkable
op names), ``shape``, ``dtype``, ``value``, ``path``, ``option``, ``input``, ``output``.
``anchors`` are what :func:`~dumpscope.core.knowledge.entry.pattern_anchors` computes.
"""

from __future__ import annotations

from dumpscope.core.knowledge.codes import FoundCode, extract_codes
from dumpscope.core.knowledge.entry import Entry, EntryError, entry_from_dict
from dumpscope.core.knowledge.kb import KnowledgeBase, Match
from dumpscope.core.knowledge.loader import builtin_entries, load_kb, user_kb_dir
from dumpscope.core.knowledge.words import normalise

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from dumpscope.core.knowledge.scan import Problem, scan_log

__all__ = [
    "Entry",
    "EntryError",
    "FoundCode",
    "KnowledgeBase",
    "Match",
    "Problem",
    "builtin_entries",
    "entry_from_dict",
    "extract_codes",
    "load_kb",
    "normalise",
    "scan_log",
    "user_kb_dir",
]


def __getattr__(name: str) -> object:
    """``scan_log`` and ``Problem`` are imported on first use: a one-message lookup never needs them."""
    if name in ("scan_log", "Problem"):
        from dumpscope.core.knowledge import scan

        return getattr(scan, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
