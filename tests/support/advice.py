"""The check every knowledge test of a message form makes: the entry that answered and its advice.

A family's table of vendor forms becomes its test with :func:`answered_by_entry`::

    CASES: list[Case] = [
        # the vendor file the form is written from
        ("the vendor's format string, with made-up values", "entry-id", ("a part the advice names",)),
    ]
    test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bench.eval_explain import specific

#: A ``{name}`` or ``{name|words}`` placeholder left in rendered advice.
PLACEHOLDER = re.compile(r"\{[a-z][a-z_0-9]*(?:\|[^{}]*)?\}")


def assert_advice(top: Any, named: tuple[str, ...] = (), judged_specific: bool = True) -> str:
    """``top`` (a :class:`~dumpscope.core.knowledge.kb.Match`)'s cause and fix hold each ``named`` part, no
    placeholder is left in them, and (unless ``judged_specific`` is false) the automatic judge calls the
    advice specific; returns the advice text."""
    advice = f"{top.cause} {top.fix}"
    for part in named:
        assert part in advice, (part, advice)
    assert PLACEHOLDER.search(advice) is None, advice
    if judged_specific:
        assert specific(top) == (True, "")
    return advice


def assert_answered(
    kb: Any, message: str, named: tuple[str, ...] = (), *, entry: str = "", clause: str = ""
) -> Any:
    """The best answer to ``message`` is ``entry`` (or, with ``clause``, a card answered by that reason
    clause: an id ending ``+clause``), with specific advice holding each ``named`` part; returns the match."""
    top = kb.lookup(message, top=1)[0]
    if entry:
        assert top.entry.id == entry, top.entry.id
    if clause:
        assert top.entry.id.endswith("+" + clause), top.entry.id
    assert_advice(top, named)
    return top


#: One row of a family's table: the message (a vendor form with made-up values), the entry that must answer
#: it, and the parts of the message its advice must name.
Case = tuple[str, str, tuple[str, ...]]


def answered_by_entry(cases: Sequence[Case], *, confident: bool = False) -> Callable[..., None]:
    """A test, parametrised over ``cases`` (ids ``<entry>-<row>``), that each message's best answer is its
    entry with specific advice naming each part (:func:`assert_answered`), and, with ``confident``, that the
    answer's confidence is high. Bind it to a ``test_`` name at module level so pytest collects it."""

    @pytest.mark.parametrize(
        ("message", "entry", "named"), list(cases), ids=[f"{c[1]}-{i}" for i, c in enumerate(cases)]
    )
    def test(kb: Any, message: str, entry: str, named: tuple[str, ...]) -> None:
        assert_answered(kb, message, named, entry=entry)
        if confident:
            assert kb.answer(message).confidence == "high"

    return test


def answered_with_captures(cases: Sequence[tuple[str, str, dict[str, str], str]]) -> Callable[..., None]:
    """A test over ``(message, entry id, captures, fix words)`` rows: the first answer is that entry, each
    named capture holds exactly its value, and the entry's fix holds the fix words."""

    @pytest.mark.parametrize(("message", "entry_id", "captures", "fix_words"), list(cases))
    def test(kb: Any, message: str, entry_id: str, captures: dict[str, str], fix_words: str) -> None:
        found = kb.answer(message)
        assert found.matches, found.headline()
        top = found.matches[0]
        assert top.entry.id == entry_id
        got = dict(top.captures)
        for name, value in captures.items():
            assert got[name] == value
        assert fix_words in top.entry.fix

    return test


def answered_first_with_values(cases: Sequence[tuple[str, str, tuple[str, ...]]]) -> Callable[..., None]:
    """A test over ``(entry id, message, shown)`` rows (ids: the entry id): the first answer is that
    entry's own pattern (no family card, no generic entry), its advice shows each value and fills every
    placeholder the message gave."""

    @pytest.mark.parametrize(("entry_id", "message", "shown"), list(cases), ids=[c[0] for c in cases])
    def test(kb: Any, entry_id: str, message: str, shown: tuple[str, ...]) -> None:
        top = kb.lookup(message, top=3)[0]
        assert top.entry.id == entry_id
        assert top.entry.level != "family" and not top.entry.generic
        assert "pattern" in top.reason
        text = f"{top.cause} {top.fix}"
        for value in shown:
            assert value in text
        placeholders = re.findall(r"\{(\w+)\}", f"{top.entry.cause} {top.entry.fix}")
        assert not [name for name in placeholders if f"<{name}>" in text]

    return test


def first_answer(kb: Any, message: str) -> tuple[Any, Any]:
    """``kb.answer(message)`` and its first match, asserting there is one."""
    found = kb.answer(message)
    assert found.matches, found.headline()
    return found, found.matches[0]


def top_match(kb: Any, text: str) -> Any:
    """The first of ``kb.lookup(text)``, asserting there is one."""
    found = kb.lookup(text, top=1)
    assert found, text
    return found[0]


def answers_with(
    kb: Any,
    text: str,
    entry: str,
    family: str | None,
    captured: tuple[str, str] | None,
    named: bool = True,
) -> None:
    """The top answer to ``text`` is ``entry`` (of ``family`` when given), with ``captured`` among its
    captures and, when ``named``, its value in the cause or the fix."""
    top = top_match(kb, text)
    assert top.entry.id == entry and family in (None, top.entry.family), (top.entry.id, top.entry.family)
    if captured:
        assert captured in top.captures
        assert not named or captured[1] in top.cause + top.fix


def in_top3_with_values(cases: Sequence[tuple[str, str, dict[str, str]]]) -> Callable[..., None]:
    """A test over ``(message, entry id, captures)`` rows: the answer is confident, the entry is among its
    top 3 and of the first answer's family (a context entry may stand under the code's own), and each named
    capture holds exactly its value. Bind it to a ``test_`` name at module level so pytest collects it."""

    @pytest.mark.parametrize(("message", "entry", "named"), list(cases))
    def test(kb: Any, message: str, entry: str, named: dict[str, str]) -> None:
        answer = kb.answer(message, top=3)
        assert answer.confident
        ids = [m.entry.id for m in answer.matches]
        assert entry in ids, ids
        match = answer.matches[ids.index(entry)]
        assert match.entry.family == answer.matches[0].entry.family
        captures = dict(match.captures)
        for name, value in named.items():
            assert captures.get(name) == value, (name, captures)

    return test


def answer_ids(kb: Any, message: str, top: int = 5) -> list[str]:
    """The ids of ``kb.answer(message, top=top)``'s matches, best first."""
    return [m.entry.id for m in kb.answer(message, top=top).matches]


def pattern_ids(kb: Any, message: str, top: int = 5) -> list[str]:
    """The entries whose own pattern matched ``message`` (not a ranking by shared words), best first."""
    return [m.entry.id for m in kb.answer(message, top=top).matches if "pattern" in m.reason.split("+")]


def entry_by_id(kb: Any, entry_id: str) -> Any:
    """The shipped entry ``entry_id`` (StopIteration when there is none)."""
    return next(e for e in kb.entries if e.id == entry_id)


def first_with_values(
    cases: Sequence[tuple[str, str, dict[str, str]]], *, unquoted: tuple[str, ...] = ()
) -> Callable[..., None]:
    """A test over ``(message, entry id, captures)`` rows (ids ``<entry>-<row>``): the first answer is that
    entry, each named capture holds exactly its value, and the advice quotes each value (but those of the
    capture names in ``unquoted``). Bind it to a ``test_`` name at module level so pytest collects it."""

    @pytest.mark.parametrize(
        ("message", "entry", "named"), list(cases), ids=[f"{c[1]}-{i}" for i, c in enumerate(cases)]
    )
    def test(kb: Any, message: str, entry: str, named: dict[str, str]) -> None:
        top = kb.answer(message, top=3).matches[0]
        assert top.entry.id == entry
        captures = dict(top.captures)
        for name, value in named.items():
            assert captures.get(name) == value, (name, captures)
            assert value in top.cause + top.fix or name in unquoted, (name, value)

    return test


def looked_up_with_captures(cases: Sequence[tuple[str, str, dict[str, str]]]) -> Callable[..., None]:
    """A test over ``(text, entry id, captures)`` rows: ``kb.lookup``'s first match is that entry (or a card
    of it refined by a reason clause, ``<entry>+<clause>``) and each named capture holds exactly its value."""

    @pytest.mark.parametrize(
        ("text", "entry_id", "captures"), list(cases), ids=[f"{c[1]}-{i}" for i, c in enumerate(cases)]
    )
    def test(kb: Any, text: str, entry_id: str, captures: dict[str, str]) -> None:
        m = kb.lookup(text, top=5)[0]
        assert m.entry.id.split("+")[0] == entry_id
        got = dict(m.captures)
        for name, value in captures.items():
            assert got[name] == value

    return test


def answered_by_generic_entry(cases: Sequence[Case]) -> Callable[..., None]:
    """A test over catch-all forms (ids: the entry id): the best answer is that generic entry, its advice
    holds each named part and no placeholder (the automatic judge is not asked: a generic entry's advice
    repeats the text after the status, which it does not count as specific)."""

    @pytest.mark.parametrize(("message", "entry", "named"), list(cases), ids=[c[1] for c in cases])
    def test(kb: Any, message: str, entry: str, named: tuple[str, ...]) -> None:
        top = top_match(kb, message)
        assert top.entry.id == entry and top.entry.generic
        assert_advice(top, named, judged_specific=False)

    return test


def answers_first(cases: Sequence[tuple[str, str]]) -> Callable[..., None]:
    """A test over ``(message, entry id)`` rows (ids: the entry id): the first of ``kb.answer``'s matches is
    that entry. Bind it to a ``test_`` name at module level so pytest collects it."""

    @pytest.mark.parametrize(("message", "entry"), list(cases), ids=[c[1] for c in cases])
    def test(kb: Any, message: str, entry: str) -> None:
        assert answer_ids(kb, message)[0] == entry

    return test


def answers_first_above(cases: Sequence[tuple[str, str, str]]) -> Callable[..., None]:
    """A test over ``(message, entry id, context entry id)`` rows (ids: the first entry's id): the entry that
    says why answers first and the one that only reports the outcome (a summary or consequence line, a
    code's card) stays among the answers below it."""

    @pytest.mark.parametrize(("message", "entry", "under"), list(cases), ids=[c[1] for c in cases])
    def test(kb: Any, message: str, entry: str, under: str) -> None:
        ids = answer_ids(kb, message)
        assert ids[0] == entry, ids
        assert under in ids[1:], ids

    return test


def keeps_its_entry(cases: Sequence[tuple[str, str, str]]) -> Callable[..., None]:
    """A test over ``(message, entry id, subcase id)`` rows (ids: the subcase id): a message the subcase
    was not written for is answered first by ``entry`` (the general entry or another case's), and the
    subcase's own pattern does not match it."""

    @pytest.mark.parametrize(("message", "entry", "subcase"), list(cases), ids=[c[2] for c in cases])
    def test(kb: Any, message: str, entry: str, subcase: str) -> None:
        assert answer_ids(kb, message)[0] == entry
        assert subcase not in pattern_ids(kb, message)

    return test


def not_among_answers(cases: Sequence[tuple[str, str]]) -> Callable[..., None]:
    """A test over ``(message, entry id)`` rows (ids ``<entry>-<row>``): a lookalike of the entry's text is
    not among the first three answers (shared words may rank the entry low in a lookup; it is never shown
    as an answer). Bind it to a ``test_`` name at module level so pytest collects it."""

    @pytest.mark.parametrize(
        ("message", "entry"), list(cases), ids=[f"{c[1]}-{i}" for i, c in enumerate(cases)]
    )
    def test(kb: Any, message: str, entry: str) -> None:
        assert entry not in answer_ids(kb, message, top=3)

    return test
