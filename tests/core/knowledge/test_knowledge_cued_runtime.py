"""Text any tool prints inside a message that cues a tool without naming it (issue h23, branch s18b).

A :data:`dumpscope.core.knowledge.index.RUNTIME_FAMILIES` entry (``std::bad_alloc``, ``Segmentation fault``,
``terminate called``, a libstdc++ range check) matches by its pattern wherever the text is printed.  Inside a
message whose markers name a tool it ranks under that tool's card; inside a message that names no tool but
cues one by the tool's own wording (:func:`dumpscope.core.knowledge.kb.wording_cue`, here onnxruntime's
``Load model from <path> failed:`` envelope), it now ranks just under the cued tool's card
(:data:`dumpscope.core.knowledge.kb.CUED_RUNTIME_GAP`): the tool's own matches come first, and the runtime
text is no longer shown confidently as the cause of a tool's failure.

The messages are written for these tests in onnxruntime's public forms (``InferenceSession::Load``'s
``"Load model from " << path << " failed:" << reason``) with made-up paths; none is copied from the
evaluation set."""

from __future__ import annotations

from pathlib import Path

import pytest

import dumpscope.core.knowledge.kb as kb_module
from dumpscope.core.knowledge import load_kb
from dumpscope.core.knowledge.answer import WORDS_FLOOR
from dumpscope.core.knowledge.kb import CUE_SCORE, CUED_RUNTIME_GAP, LEANING_SCORE, wording_cue

NO_USER_DIR = Path("/nonexistent-dumpscope-test")

ORT_BAD_ALLOC = (
    "Load model from /data/models/segmenter.onnx failed:std::bad_alloc\nSegmentation fault (core dumped)"
)
"""onnxruntime's load envelope around a C++ allocation failure, then the process's end; no marker."""

ORT_RANGE = (
    "Load model from ./weights/detector_fp16.onnx failed:vector::_M_range_check: __n (which is 3) >= "
    "this->size() (which is 3)"
)
"""The same envelope around libstdc++'s range check (an index past the end of one of onnxruntime's
vectors)."""

PLAIN_BAD_ALLOC = "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc"
"""The same failure with no tool's wording at all."""


@pytest.fixture(scope="module")
def kb():  # type: ignore[no-untyped-def]
    return load_kb(user_dir=NO_USER_DIR)


def test_the_gap_keeps_runtime_text_under_both_cues_and_the_floor() -> None:
    assert 0 < CUED_RUNTIME_GAP < CUE_SCORE < LEANING_SCORE < WORDS_FLOOR


def test_runtime_text_inside_a_cued_tools_message_ranks_under_the_tools_card(kb) -> None:  # type: ignore[no-untyped-def]
    assert kb.named_families(ORT_BAD_ALLOC) == []
    assert wording_cue(ORT_BAD_ALLOC.lower()) == ("onnxruntime",)
    ranked = kb.lookup(ORT_BAD_ALLOC, top=10)
    scores = {m.entry.id: m.score for m in ranked}
    assert scores["family-onnxruntime"] == CUE_SCORE
    for rid in ("runtime-bad-alloc", "runtime-segfault"):
        assert scores[rid] == CUE_SCORE - CUED_RUNTIME_GAP  # found by their patterns, ranked under the card
    assert ranked[0].entry.family == "onnxruntime"
    answer = kb.answer(ORT_BAD_ALLOC)
    assert not answer.confident  # wording only under the floor: withheld, onnxruntime closest
    assert answer.closest[0].startswith("ONNX Runtime")


def test_without_the_rule_the_runtime_text_was_the_confident_answer(kb, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(kb_module, "CUED_RUNTIME_GAP", -100.0)  # min(score, card + 100): no cap
    before = kb.answer(ORT_BAD_ALLOC)
    assert before.confident and before.matches[0].entry.family == "runtime"


def test_the_cued_tools_card_refined_by_the_range_check_answers(kb) -> None:  # type: ignore[no-untyped-def]
    answer = kb.answer(ORT_RANGE)
    assert answer.confident
    best = answer.matches[0]
    assert best.entry.family == "onnxruntime"  # the card, with the range check's clause
    assert "range" in best.entry.id and "__n" not in best.cause
    assert [m.entry.id for m in answer.matches[1:2]] == ["runtime-vector-range-check"]


def test_runtime_text_without_any_tools_wording_is_still_answered(kb) -> None:  # type: ignore[no-untyped-def]
    assert wording_cue(PLAIN_BAD_ALLOC.lower()) == ()
    answer = kb.answer(PLAIN_BAD_ALLOC)
    assert answer.confident and answer.matches[0].entry.family == "runtime"
    assert {m.entry.id for m in answer.matches} >= {"runtime-terminate-called", "runtime-bad-alloc"}


def test_a_named_tool_keeps_its_own_order(kb) -> None:  # type: ignore[no-untyped-def]
    named = "[ONNXRuntimeError] : 1 : FAIL : " + ORT_BAD_ALLOC
    assert kb.named_families(named) == ["onnxruntime"]
    answer = kb.answer(named)
    assert answer.confident and answer.matches[0].entry.family == "onnxruntime"


ORT_NODE_CUDA = (
    "while running Conv node. Name:'/backbone/stem/Conv' Status Message: CUDA error "
    "cudaErrorNoKernelImageForDevice:no kernel image is available for execution on the device"
)
"""onnxruntime's executor envelope (sequential_executor.cc: ``"... while running " << node.OpType() << " node.
Name:'" << node.Name() << "'"``) pasted without its ``Non-zero status code returned`` marker, around the CUDA
execution provider's error."""

ORT_NODE_ALLOC = "failed while running MatMul node. Name:'/decoder/MatMul_7' : std::bad_alloc"


def test_the_executor_envelope_cues_onnxruntime(kb) -> None:  # type: ignore[no-untyped-def]
    for text in (ORT_NODE_CUDA, ORT_NODE_ALLOC):
        assert kb.named_families(text) == []
        assert wording_cue(text.lower()) == ("onnxruntime",)
    assert wording_cue("while running the calibration, node name: conv1") == ()  # not the form


def test_the_executor_envelope_puts_onnxruntimes_cuda_entry_before_the_generic_one(kb, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    answer = kb.answer(ORT_NODE_CUDA)
    assert answer.confident
    ids = [m.entry.id for m in answer.matches]
    assert ids[0] == "onnxruntime-cuda-no-kernel-image"
    assert ids.index("runtime-cuda-no-kernel-image") > ids.index("family-onnxruntime")
    alloc = kb.answer(ORT_NODE_ALLOC)
    assert not alloc.confident and alloc.closest[0].startswith("ONNX Runtime")
    without_node = tuple(c for c in kb_module._ENVELOPE_CUES if c[2] is not kb_module._ORT_NODE)
    monkeypatch.setattr(kb_module, "_ENVELOPE_CUES", without_node)  # the form no cue: the generic text first
    # Without the cue the generic entry is not under onnxruntime's card; it still ranks under onnxruntime's
    # own sentence, found by its pattern (kb.runtime_under_own_sentence, branch s30c).
    uncued = [m.entry.id for m in kb.answer(ORT_NODE_CUDA).matches]
    assert uncued[0] == "onnxruntime-cuda-no-kernel-image"
    assert "runtime-cuda-no-kernel-image" in uncued
    assert "family-onnxruntime" not in uncued[:2]
    before = kb.answer(ORT_NODE_ALLOC)
    assert before.confident and before.matches[0].entry.id == "runtime-bad-alloc"
