"""An entry whose ranking words are only words every tool prints is never found by its wording alone
(:func:`dumpscope.core.knowledge.index.plain_entries`): SigmaStar's ``Assertion `s32InputCount <= ((10000))'
failed`` ranks by ``assertion`` and ``failed`` (its identifier and number are variable parts), and took first
place for other tools' assertions (TensorRT, onnx, onnxsim, OpenVINO) when their markers were blanked.  It is
still found by its pattern.  An assertion line is found by the log scan by its form, not through an entry.

The messages are written for these tests in the tools' public forms with made-up contents; none is copied
from the evaluation set."""

from __future__ import annotations

import io
from pathlib import Path

from dumpscope.core.knowledge import KnowledgeBase, builtin_entries, entry_from_dict, load_kb, scan_log
from dumpscope.core.knowledge.index import GENERIC_FAMILIES, CompiledIndex
from dumpscope.core.knowledge.loader import builtin_index
from dumpscope.core.knowledge.scan import error_shaped

NO_USER_DIR = Path("/nonexistent-dumpscope-test")
SIGMASTAR = "sigmastar-assertion-inputcount-failed"
ASSERTION = "frob.cpp:42: int frob::run(): Assertion `nbDims <= kMaxDims' failed."
"""A C assertion of some tool (glibc's form) that has nothing to do with SigmaStar's input count."""


def _index() -> CompiledIndex:
    index = builtin_index()
    assert index is not None
    return index


def _ids(kb: KnowledgeBase, text: str) -> dict[str, str]:
    return {m.entry.id: m.reason for m in kb.lookup(text, top=50)}


def test_the_generic_words_come_from_the_kb_and_make_the_sigmastar_assertion_plain() -> None:
    kb = load_kb(user_dir=NO_USER_DIR)
    generic = _index().postings(for_change=False).generic_words
    assert {"failed", "error", "supported", "invalid"} <= generic
    assert "assertion" not in generic  # four tools' entries hold it: rare enough, but one word alone
    ids = kb.entries.ids  # type: ignore[attr-defined]
    plain = {ids[i] for i in kb._plain}
    assert SIGMASTAR in plain
    assert "tensorrt-error-code-4-internal-error" not in plain
    # every plain entry has fewer than two words that entries of under GENERIC_FAMILIES tools hold
    families: dict[str, set[str]] = {}
    for e in builtin_entries():
        for w in e.words:
            families.setdefault(w, set()).add(e.family)
    for e in builtin_entries():
        rare = {w for w in e.words if len(families[w]) < GENERIC_FAMILIES}
        assert (e.id in plain) == (bool(e.words) and len(rare) < 2), e.id


def test_another_tools_assertion_is_no_wording_match_of_the_sigmastar_entry() -> None:
    kb = load_kb(user_dir=NO_USER_DIR)
    assert SIGMASTAR not in _ids(kb, ASSERTION)
    kb._plain = frozenset()  # without the rule, the two plain words found it
    assert _ids(kb, ASSERTION).get(SIGMASTAR) == "words"


def test_the_sigmastar_entry_still_answers_its_own_assertion_by_its_pattern() -> None:
    kb = load_kb(user_dir=NO_USER_DIR)
    text = "sgs_convert: ./ipu_graph.cc:812: Assertion `s32InputCount <= ((10000))' failed."
    first = kb.lookup(text, top=3)[0]
    assert first.entry.id == SIGMASTAR
    assert first.reason.startswith("pattern")


def test_a_user_entry_of_plain_words_over_the_index_is_plain_as_in_a_full_build() -> None:
    raw = {
        "id": "user-plain",
        "tool": "Frob",
        "stage": "run",
        "cause": "c",
        "fix": "f",
        "source": "me",
        "family": "rknn",
        "pattern": "invalid input (?P<n>\\d+) failed",
    }
    user = entry_from_dict(raw, origin="user:test")
    fast = KnowledgeBase.from_index(_index(), [user])
    slow = KnowledgeBase([*builtin_entries(), user])
    assert fast._plain == slow._plain
    assert len(fast) - 1 in fast._plain  # "invalid", "input", "failed": every tool's words


def test_a_kb_of_few_tools_knows_no_plain_wording() -> None:
    raw = {
        "id": "one",
        "tool": "Frob",
        "stage": "run",
        "cause": "c",
        "fix": "f",
        "source": "me",
        "family": "rknn",
    }
    pattern = "frobnication stalled at (?P<n>\\d+)"
    kb = KnowledgeBase([entry_from_dict({**raw, "pattern": pattern}, origin="user:test")])
    assert kb._plain == frozenset()  # (a words-only match of one word is its own evidence there)
    assert _ids(kb, "frobnication went wrong") == {"one": "words"}


MSVC_DIALOG = [
    "Debug Assertion Failed!",
    "",
    "Program: C:\\tools\\frob\\bin\\frob_plugin.dll",
    "File: C:\\frob\\include\\vector",
    "Line: 42",
    "",
    "Expression: vector subscript out of range",
]


def test_msvc_assertions_are_an_error_form() -> None:
    assert error_shaped(MSVC_DIALOG)
    assert error_shaped(["Assertion failed: rank == 4, file frob.cpp, line 42"])
    assert not error_shaped(["[I] assertion failed count: 0"])


def test_the_scan_finds_an_msvc_assertion_by_its_form() -> None:
    noise = [f"[I] step {i}: loading weights from /models/net_{i}.bin" for i in range(5)]
    log = "\n".join([*noise, *MSVC_DIALOG, *noise]) + "\n"
    problems = scan_log(io.BytesIO(log.encode()), KnowledgeBase([]))
    assert len(problems) == 1
    assert "Debug Assertion Failed!" in problems[0].text


def test_the_scan_finds_an_assertion_line_split_in_two_by_its_form() -> None:
    """A logger's wrap at a space (``Debug Assertion`` / ``Failed!``): neither piece is an error form, the
    line joined back is, and no entry fits it."""
    noise = [f"[I] step {i}: loading weights from /models/net_{i}.bin" for i in range(5)]
    log = "\n".join([*noise, "Debug Assertion", "Failed!", *MSVC_DIALOG[1:], *noise]) + "\n"
    problems = scan_log(io.BytesIO(log.encode()), KnowledgeBase([]))
    assert [p.text for p in problems] == ["Debug Assertion Failed!"]
    assert problems[0].first_line_no == len(noise) + 1
