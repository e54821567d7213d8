"""A tool's entry whose pattern is wording any tool prints answers by wording only where the message names
that tool (:func:`dumpscope.core.knowledge.entry.generic_wording`, :func:`.answer.unnamed_generic_wording`).

Messages here are written in our own words from the tools' public formats (not copied from the evaluation
set), so these tests check the rule, not a tuning on real messages.
"""

from __future__ import annotations

from collections import Counter

import pytest

import dumpscope.core.knowledge.kb as kb_module
from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.entry import generic_wording
from dumpscope.core.knowledge.kb import named_families
from dumpscope.core.knowledge.markers import MARKERS


@pytest.mark.parametrize(
    "pattern",
    [
        r"Cannot load input model: (?P<detail>[^\n]{1,200})",
        r"The following operators are not implemented: \[(?P<ops>[^\]\n]{1,400})\]",
        r"Type (?>(?P<dtype>(?:(?!Type)[^\n]){0,200}?)\) not supported\.)",
        r"KeyError: '(?P<output>[^'\n]{1,120})'",  # a Python exception's name is any tool's
        r"(?:Runtime not valid|Can't create runtime) for (?:this|that) session",
    ],
)
def test_plain_english_patterns_are_generic_wording(pattern: str) -> None:
    assert generic_wording(pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        r"Assertion `s32InputCount <= \(\(10000\)\)' failed",  # an identifier and digits
        r"QNN EP does not support (?P<op>\w+)",  # an ALL-CAPS name
        r"Failed to load library (?P<path>\S+)\.so",  # a file name
        r"std::out_of_range",  # a namespace
        r"opset_version <= (?P<v>\d+)",  # snake_case
        r"(?:Cannot load input model|failed at /src/\w+\.cc)",  # a path in one branch is enough
        "",
        "(",  # not a pattern at all
    ],
)
def test_patterns_with_a_tool_literal_are_not_generic_wording(pattern: str) -> None:
    assert not generic_wording(pattern)


def test_a_phrase_of_the_tools_own_markers_is_no_generic_wording() -> None:
    pattern = r"These Op Not Support: (?P<ops>[^\n]{1,200})"
    assert generic_wording(pattern)
    assert not generic_wording(pattern, ["these op not support"])
    assert generic_wording(pattern, ["these op no"]), "a marker cut inside a word is no phrase of the pattern"


def _own_markers(family: str) -> list[str]:
    return [literal for literal, _ in MARKERS.get(family, ())]


def test_the_entries_the_rule_marks(kb: KnowledgeBase) -> None:
    """The shipped entries the rule marks, per family: tools' specific entries whose literals are plain
    English (never a family card, generic runtime text, or onnx, which every tool embeds), among them the
    ones another tool's messages were answered with on the wording proxy."""
    marked = [
        e
        for e in kb.entries
        if e.level != "family"
        and e.family not in ("runtime", "onnx")
        and generic_wording(e.pattern, _own_markers(e.family))
    ]
    ids = {e.id for e in marked}
    assert {
        "openvino-mo-cannot-load-input-model",
        "tvm-opset-not-implemented",
        "tvm-pytorch-operators-not-implemented",
        "tflite-type-not-supported",
        "tensorrt-in-node-conv-conv-conv",
        "mnn-runtime-not-valid",
        "mnn-cant-create-runtime",
    } <= ids
    assert not ids & {
        "sigmastar-assertion-inputcount-failed",  # an identifier
        "qualcomm-qnn-ep-does-not-support",  # an ALL-CAPS name
        "mnn-these-op-not-support",  # MNN's own marker phrase
    }
    per_family = Counter(e.family for e in marked)
    assert len(per_family) >= 10 and sum(per_family.values()) < len(kb.entries) // 3, per_family


def _without_plain_wording(kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> None:
    """These examples' entries are also too plain to be found by wording at all (``.index.plain_entries``:
    their words are every tool's), and share one distinctive word with the message (``implemented``: lowered
    under the answer's floor, ``.kb.LONE_WORD_FACTOR``); those rules are turned off here so that this one is
    the rule tested."""
    monkeypatch.setattr(kb, "_plain", frozenset())
    monkeypatch.setattr(kb_module, "LONE_WORD_FACTOR", 1.0)


@pytest.mark.parametrize(
    "text",
    [
        "RuntimeError: 'fancy_op' not implemented.",
        "Load model from /tmp/m.onnx failed: cannot load input model",
    ],
)
def test_generic_wording_is_not_a_confident_answer_without_its_tool_named(
    kb: KnowledgeBase, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _without_plain_wording(kb, monkeypatch)
    best = kb.lookup(text, top=1)[0]
    assert best.reason == "words" and generic_wording(best.entry.pattern)
    assert best.entry.family not in named_families(text)
    found = kb.answer(text)
    assert not found.confident and found.matches == []
    assert best.entry.tool in found.closest, "the tool is still named as the closest"


def test_generic_wording_still_answers_first_where_the_message_names_its_tool(kb: KnowledgeBase) -> None:
    """A family of fewer entries than :data:`.kb.WORDS_SIZE_REF` (OpenVINO, at 63 entries, has its
    wording-only scores scaled below its own family card's)."""
    text = "[Paddle2ONNX] paddle model failed in parsing: /tmp/m.pdmodel"
    assert "paddle2onnx" in named_families(text)
    found = kb.answer(text)
    assert found.confident and found.basis == "words"
    assert found.matches[0].entry.id == "paddle2onnx-parse-failed"
    assert generic_wording(found.matches[0].entry.pattern)


def test_a_tool_specific_pattern_is_untouched(kb: KnowledgeBase) -> None:
    """A pattern of the tool's own sentence still answers confidently with no marker: only wording-only
    matches of generic-wording entries are withheld."""
    text = "Could not find any implementation for node /conv1/Conv."
    assert named_families(text) == []
    found = kb.answer(text)
    assert found.confident and found.basis == "pattern"
    assert found.matches[0].entry.family == "tensorrt"
    specific = "Assertion `s32InputCount <= ((10000))' failed"
    answered = kb.answer(specific)
    assert answered.confident and answered.matches[0].entry.id == "sigmastar-assertion-inputcount-failed"


def test_the_answer_reads_the_tools_its_lookup_found_instead_of_scanning_the_text_again(
    kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule asks which tools the message names; the lookup has just found them (the markers' pass is
    the costliest part on a long paste), so it is not run a second time."""
    from dumpscope.core.knowledge.kb import _named

    _without_plain_wording(kb, monkeypatch)

    text = "RuntimeError: 'fancy_op' not implemented.\n" + "a line of an unrelated log\n" * 2000
    _named.cache_clear()
    found = kb.answer(text)
    assert not found.confident  # the rule was reached and withheld the answer
    info = _named.cache_info()
    assert info.misses == 1 and info.hits >= 1
    assert named_families(text) == [] and isinstance(named_families(text), list)


@pytest.mark.parametrize(
    ("line", "withheld"),
    [
        (
            "Load model from /tmp/m.onnx failed: cannot load input model",
            "openvino-mo-cannot-load-input-model",
        ),
        ("RuntimeError: 'fancy_op' not implemented.", "tvm-opset-not-implemented"),
    ],
)
def test_the_log_scan_withholds_generic_wording_as_the_answer_does(
    kb: KnowledgeBase, line: str, withheld: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log line and the same line given to ``explain`` get the same verdict: another tool's generic wording,
    the tool unnamed, names no tool in the scan either (before, the scan reported it at the wording floor).
    The scan's own floor for wording is lowered here, so that this rule is the one tested, whatever weights
    the KB's other entries give these words."""
    import dumpscope.core.knowledge.scan as scan

    _without_plain_wording(kb, monkeypatch)
    monkeypatch.setattr(scan, "LOG_WORDS_MIN", 10.0)
    log = ["INFO: step started"] * 5 + [line] + ["INFO: step done"] * 5

    def scanned() -> list[str]:
        problems = scan.scan_log(iter(f"{x}\n" for x in log), kb)
        return [m.entry.id for p in problems for m in p.matches]

    assert not kb.answer(line).confident
    assert withheld not in scanned()
    monkeypatch.setattr(scan, "unnamed_generic_wording", lambda *_: False)
    assert withheld in scanned(), "without the rule the scan names the tool: the test reaches the rule"


def test_the_log_scan_keeps_a_tools_own_pattern(kb: KnowledgeBase) -> None:
    import dumpscope.core.knowledge.scan as scan

    line = "ERROR: Cannot load input model: file /data/m.onnx is truncated"
    problems = scan.scan_log(iter(["INFO: a\n", f"{line}\n", "INFO: b\n"]), kb)
    assert [m.entry.id for p in problems for m in p.matches][:1] == ["openvino-mo-cannot-load-input-model"]
