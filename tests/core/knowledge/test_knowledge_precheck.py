"""The literal precheck (``Entry.requires``): a pattern is compiled only when every literal that all of
its matches hold is in the text.  It must never change an answer, only skip work."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import KnowledgeBase, builtin_entries, load_kb
from dumpscope.core.knowledge.entry import CASE_FOLDS_ONTO_ASCII, Entry, entry_from_dict, pattern_requires
from dumpscope.core.knowledge.index import CompiledIndex
from dumpscope.core.knowledge.loader import builtin_index
from tests.support.paths import DATA

NO_USER_DIR = Path("/nonexistent-dumpscope-test")


def _all_messages() -> list[str]:
    """Every message of every evaluation file (dev and held-out: compared by result equality only, never
    printed)."""
    out: list[str] = []
    for path in sorted((DATA / "explain").glob("*.jsonl")):
        with path.open(encoding="utf-8") as f:
            out.extend(json.loads(line)["message"] for line in f if line.strip())
    return out


def _without_precheck() -> KnowledgeBase:
    """The built-in KB from its index, with every entry's ``requires`` left empty."""
    index = builtin_index()
    assert index is not None
    data = {**index.data, "requires": [[] for _ in index.requires()]}
    return KnowledgeBase.from_index(CompiledIndex(index.text, data))


def _result(kb: KnowledgeBase, message: str) -> tuple[object, ...]:
    answer = kb.answer(message, top=10)
    matches = tuple(
        (m.entry.id, m.score, m.reason, m.captures, m.codes, m.via) for m in kb.lookup(message, top=10)
    )
    return matches, answer.confident, answer.to_dict()


def test_the_precheck_changes_no_answer_on_any_evaluation_message() -> None:
    messages = _all_messages()
    assert len(messages) > 400
    fast, slow = load_kb(user_dir=NO_USER_DIR), _without_precheck()
    assert any(e.requires for e in fast.entries[:200])
    assert not any(e.requires for e in slow.entries[:200])
    differ = [i for i, message in enumerate(messages) if _result(fast, message) != _result(slow, message)]
    assert differ == [], f"{len(differ)} messages answered differently (by position: {differ[:10]})"


def test_the_precheck_spares_most_compilations_of_an_ascend_parameter_line() -> None:
    """The issue's slow case: an E10001 line reaches dozens of Ascend entries by its code."""
    message = (
        "E10001: Value [1,3,224] for parameter [--input_shape] is invalid. Reason: the shape is not 4-D."
    )
    fast, slow = load_kb(user_dir=NO_USER_DIR), _without_precheck()
    assert _result(fast, message) == _result(slow, message)
    compiled = [
        sum(e is not None and e._regex is not None for e in kb.entries._entries) for kb in (fast, slow)
    ]
    assert compiled[0] * 3 < compiled[1], compiled


def _holds(lowered: str, required: object) -> bool:
    """A literal is in the text; of a branch's alternatives (a list or tuple), one is: its literal, or
    each of its literals (an alternative of several)."""
    if isinstance(required, str):
        return required in lowered
    return any(a in lowered if isinstance(a, str) else all(x in lowered for x in a) for a in required)  # type: ignore[attr-defined]


def _as_json(required: object) -> object:
    """A ``requires`` item as the index stores it (tuples as lists)."""
    return required if isinstance(required, str) else [_as_json(a) for a in required]  # type: ignore[attr-defined]


def test_every_example_holds_its_entrys_required_literals() -> None:
    index = builtin_index()
    assert index is not None
    checked = branches = 0
    for entry, required in zip(builtin_entries(), index.requires(), strict=True):
        computed = [_as_json(r) for r in pattern_requires(entry.pattern)]
        assert computed == required if entry.pattern else required == []
        if entry.example and entry.search(entry.example):
            checked += 1
            branches += any(isinstance(r, list) for r in required)
            assert all(_holds(entry.example.lower(), r) for r in required), entry.id
    assert checked > 500
    assert branches > 50  # a branch's alternatives rule out what a common word alone cannot


def test_user_entries_get_their_required_literals_computed() -> None:
    raw = {"tool": "t", "stage": "run", "cause": "c", "fix": "f", "source": "s"}
    entry = entry_from_dict({**raw, "pattern": r"Failed to (?:load|open) model (?P<m>\S+) \(code 42\)"})
    assert entry.requires == (" (code 42)", " model ", "failed to ", ("load", "open"))
    assert entry.search("failed to open model a.onnx (code 42)") is None  # case-sensitive pattern
    assert entry.search("Failed to open model a.onnx (code 42)") is not None
    assert entry.search("Failed to open model a.onnx (code 41)") is None
    fresh = entry_from_dict({**raw, "pattern": entry.pattern})
    assert fresh.search("Failed to read model a.onnx (code 42)") is None
    assert fresh._regex is None  # decided by the literals alone: never compiled


@pytest.mark.parametrize(
    ("pattern", "required"),
    [
        (r"(?:Error Code 1: |Error\[1\]: )(?P<r>.{0,9})", ("error", (" code 1: ", "[1]: "))),
        (r"Invalid (?:Feed Input Name:|input name: )\S+", ("invalid ", ("feed input name:", "input name: "))),
        (r"x(?:abcd|zabcz|abc)y", ("abc",)),  # every alternative holds "abc": that literal alone
        (r"(?:foo|ba)bar", ("bar",)),  # "ba" is too short to rule anything out: no branch requirement
        (r"(?:foo|\d+)bar", ("bar",)),  # an alternative without a literal: none
        (r"pre(?:fix)?(?:abc|def)", ("pre", ("abc", "def"))),
        (r"(?:(?:one|two)|three)", (("one", "three", "two"),)),
        # an alternative of several literals needs them all: rknn_ alone no longer lets the pattern compile
        (
            r"(?:\bRKNN_ERR_TIMEOUT\b|rknn_\w{1,240}(?>[^\n]{0,120}?ret)\s{0,8}=\s{0,8}\-2\b)",
            ((("ret", "rknn_"), "rknn_err_timeout"),),
        ),
        (r"x(?:alpha\d+beta|alpha\d+beta\d+gamma)", ("beta", "xalpha")),  # the weaker alternative's, each
        (r"(?:E19999|Inner Error)\S* (?:unknown error occurred\.|xy)", (("e19999", "inner error"),)),
    ],
)
def test_a_mandatory_branch_requires_one_of_its_alternatives(
    pattern: str, required: tuple[object, ...]
) -> None:
    assert pattern_requires(pattern) == required


def test_a_paste_without_an_alternative_s_every_literal_leaves_its_pattern_uncompiled() -> None:
    """RKNN's return-code entries match ``RKNN_ERR_<NAME>`` or ``rknn_<call> ... ret = -N``: a paste that
    names rknn_init but holds neither the code's name nor ``ret`` cannot match them, and they stay
    uncompiled (12 compilations of a 12-line RKNN paste, ~1 ms), with the answer unchanged."""
    message = (
        "E RKNN: [02:59:59.949] Invalid RKNN model version 6\nE RKNN: [02:59:59.949] rknn_init, load model "
        "failed!\nException: RKNN init failed. error code: RKNN_ERR_FAIL"
    )
    fast, slow = load_kb(user_dir=NO_USER_DIR), _without_precheck()
    assert _result(fast, message) == _result(slow, message)
    table = fast.entries
    codes = [i for i, entry_id in enumerate(table.ids) if entry_id.startswith("rknn-RKNN-ERR-TIMEOUT")]
    assert codes and all(table._entries[i] is None or table._entries[i]._regex is None for i in codes)


def test_the_case_folds_onto_ascii_are_all_known() -> None:
    """Every non-ASCII character that an ignore-case ASCII letter matches either lowers to a text holding
    that letter or is in CASE_FOLDS_ONTO_ASCII (derived from ``re`` itself, over every code point)."""
    letters = re.compile("(?i)[a-z]")
    unknown = []
    for cp in range(0x80, 0x110000):
        ch = chr(cp)
        if letters.fullmatch(ch) and ch not in CASE_FOLDS_ONTO_ASCII:
            if not any(
                re.fullmatch(f"(?i){a}", ch) and a in ch.lower() for a in "abcdefghijklmnopqrstuvwxyz"
            ):
                unknown.append(hex(cp))
    assert unknown == []


def test_a_text_with_a_case_fold_is_never_ruled_out_by_the_precheck() -> None:
    pattern = r"(?i)missing input shape"
    assert pattern_requires(pattern) == ("missing input shape",)
    entry = Entry("t", "t", "run", "c", "f", "s", pattern=pattern, requires=pattern_requires(pattern))
    text = "MI\u017f\u017fING INPUT SHAPE"  # long s: matches (?i)s, lowers to itself
    assert re.search(pattern, text)
    assert entry.search(text) is not None
    assert entry.search("MISING INPUT SHAPE") is None


# --- soundness on generated patterns -------------------------------------------------------------

_WORD = st.text(alphabet="abcXYZ _-:[](){}.019", min_size=1, max_size=6)


def _lit(s: str) -> str:
    return re.escape(s)


_ATOM = st.one_of(
    _WORD.map(_lit),
    st.sampled_from([r"\d+", r"\w*", r"[A-Z]", r".{0,3}", r"\s", r"\b"]),
)


@st.composite
def _patterns(draw: st.DrawFn, depth: int = 2) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(["atom", "atom", "group", "optional", "branch", "plus"] if depth else ["atom"])
        )
        if kind == "atom":
            parts.append(draw(_ATOM))
            continue
        inner = draw(_patterns(depth - 1))
        if kind == "group":
            parts.append(f"({inner})")
        elif kind == "optional":
            parts.append(f"(?:{inner})?")
        elif kind == "plus":
            parts.append(f"(?:{inner}){{1,2}}")
        else:
            parts.append(f"(?:{inner}|{draw(_patterns(depth - 1))})")
    return "".join(parts)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_match_of_a_generated_pattern_holds_its_required_literals(data: st.DataObject) -> None:
    pattern = data.draw(st.sampled_from(["", "(?i)"])) + data.draw(_patterns())
    required = pattern_requires(pattern)
    text = data.draw(st.from_regex(pattern, fullmatch=True))
    assert re.fullmatch(pattern, text)
    lowered = text.lower()
    folded = any(c in lowered for c in CASE_FOLDS_ONTO_ASCII)
    assert folded or all(_holds(lowered, r) for r in required), (pattern, text, required)


@pytest.mark.parametrize("pattern", [r"a(?!bcd)", r"(?<=xyz)ab", r"x(?=hello)", r"(a)?(?(1)bcd|efg)"])
def test_assertions_and_conditionals_add_no_requirement(pattern: str) -> None:
    assert pattern_requires(pattern) == ()
