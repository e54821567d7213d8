"""An entry's advice reads right whatever the message carried: every ``{name}`` it uses is a part its pattern
can capture, and a part the message did not carry (the entry found by its code or its words, an optional
group left empty) is said in words, never shown as a literal ``{op}`` or ``<op>`` (issue 23)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dumpscope.core.knowledge import load_kb
from dumpscope.core.knowledge.entry import Entry
from dumpscope.core.knowledge.kb import _PLACEHOLDER, MISSING, _captures, fill

_KB = load_kb(user_dir=Path("/nonexistent-dumpscope-test"))
_WITH_PLACEHOLDERS = [e for e in _KB.entries if _PLACEHOLDER.search(e.cause + e.fix)]


def _names(e: Entry) -> set[str]:
    return {m.group(3) for m in _PLACEHOLDER.finditer(e.cause + " " + e.fix)}


def _left_over(rendered: str, names: set[str]) -> list[str]:
    """Placeholders of ``names`` still in ``rendered``, as ``{name}``, ``{name|...}`` or ``<name>``."""
    return [
        m.group(0)
        for m in re.finditer(r"\{([a-z][a-z0-9_]*)(?:\|[^{}]*)?\}|<([a-z][a-z0-9_]*)>", rendered)
        if (m.group(1) or m.group(2)) in names
    ]


def test_entries_with_placeholders_are_many_and_each_has_an_example() -> None:
    assert len(_WITH_PLACEHOLDERS) > 50
    assert all(e.example and e.search(e.example) for e in _WITH_PLACEHOLDERS)


@pytest.mark.parametrize("entry", _WITH_PLACEHOLDERS, ids=lambda e: e.id)
def test_every_placeholder_is_a_group_of_the_pattern(entry: Entry) -> None:
    groups = set(re.compile(entry.pattern).groupindex)
    assert _names(entry) <= groups, f"{entry.id}: {_names(entry) - groups} are not captured by its pattern"


@pytest.mark.parametrize("entry", _WITH_PLACEHOLDERS, ids=lambda e: e.id)
def test_no_placeholder_survives_whatever_was_captured(entry: Entry) -> None:
    """The entry's own example (a message matching its pattern), then the same with each captured part
    missing in turn, then with nothing captured: no placeholder is left in the advice."""
    m = entry.search(entry.example)
    assert m is not None
    captured = _captures(m)
    names = _names(entry)
    cases = [captured, ()] + [tuple(c for c in captured if c[0] != name) for name, _ in captured]
    for captures in cases:
        for text in (entry.cause, entry.fix):
            rendered = fill(text, captures)
            assert not _left_over(rendered, names), (entry.id, captures, rendered)
            if not captures:  # a captured value may hold double spaces of its own
                assert "  " not in rendered.replace(".  ", ". ") or "  " in text, (entry.id, rendered)


def test_a_captured_part_is_filled_in_as_the_message_has_it() -> None:
    assert (
        fill("node '{op}' ({arg}) failed", (("op", "Conv_3"), ("arg", "Conv")))
        == "node 'Conv_3' (Conv) failed"
    )


def test_a_missing_part_is_said_in_words_without_its_quotes() -> None:
    assert fill("Keep '{op}' in float32.", ()) == "Keep the node in float32."
    assert fill("op {op} at {value}", (("op", "Conv_1"),)) == "op Conv_1 at the value"
    assert fill("no placeholders {", ()) == "no placeholders {"


def test_the_words_do_not_repeat_what_the_sentence_says() -> None:
    assert fill("could not map node {op} for the NPU", ()) == "could not map node for the NPU"
    assert fill("Keep the {op_type} in float32", ()) == "Keep the operator type in float32"


def test_an_entry_may_say_what_to_write_without_the_part() -> None:
    text = "No kernel for {op_type|this operator} (opset {arg|})"
    assert fill(text, (("op_type", "EyeLike"), ("arg", "9"))) == "No kernel for EyeLike (opset 9)"
    assert fill(text, ()) == "No kernel for this operator (opset)"
    assert fill("No kernel for {op_type|this operator}{arg|}.", ()) == "No kernel for this operator."
    assert fill("Run node {op|} ({arg|}) on the CPU", ()) == "Run node on the CPU"


def test_every_default_is_words_a_sentence_can_hold() -> None:
    assert all(
        words.startswith("the ") and "<" not in words and "{" not in words for words in MISSING.values()
    )


def test_an_entry_s_own_words_keep_their_parentheses() -> None:
    assert fill("model ({id|its id is printed}) failed", ()) == "model (its id is printed) failed"
    assert fill("model ({id}) failed", (("id", "3"),)) == "model (3) failed"
    assert fill("node '{op|the node named}' failed", ()) == "the node named failed"  # "node" said once


def test_an_article_or_a_kind_word_before_a_missing_part_keeps_the_sentence_whole() -> None:
    assert fill("The inputs of a {op_type} node differ", ()) == "The inputs of a node differ"
    assert fill("x shape {shape}, filter shape {shape2}).", ()) == "x shape, filter shape)."
    assert (
        fill("Value {value} for parameter {option} is invalid", ())
        == "The value for the parameter is invalid"
    )


def test_an_empty_part_right_before_another_gives_it_its_space() -> None:
    """s25d: alternatives of one pattern capture the same part under two names (``{key|}{key2|}``); the one
    the message carried keeps the space before the pair, whichever it is."""
    text = "the {section|}{section2|} section holds key {key|}{key2|}."
    assert (
        fill(text, (("section2", "sampler"), ("key2", "zz-seed"))) == "the sampler section holds key zz-seed."
    )
    assert fill(text, (("section", "dialog"), ("key", "zz"))) == "the dialog section holds key zz."
    assert fill("for {a|}{b|}; done", ()) == fill("for {a|}; done", ())


def test_a_placeholder_used_as_a_name_in_code_says_words_of_its_own() -> None:
    """A placeholder glued to code (``Class::{name}``, ``{name}()``) says its own words when nothing
    was captured (a partial or words-only match): the generic ones would read
    ``InferenceSession::the value()``."""
    glued = re.compile(r"(?:::|\w\.)\{[a-z][a-z0-9_]*\}|\{[a-z][a-z0-9_]*\}\(")
    bare = [(e.id, m.group(0)) for e in _KB.entries for m in glued.finditer(e.cause + " " + e.fix)]
    assert not bare
    entry = next(e for e in _KB.entries if e.id == "ortm2-unknown-exception-in-load-init")
    assert "InferenceSession's LoadWithLoader or Initialize step" in fill(entry.cause, ())
    assert "InferenceSession's Initialize step" in fill(entry.cause, (("value", "Initialize"),))
