"""Routing a message by its wording when no tool marker names its tool (issue h23c3).

* An entry that wording alone finds through a single distinctive word (every other word it shares with the
  message is a word any tool prints) is lowered (:data:`dumpscope.core.knowledge.kb.LONE_WORD_FACTOR`):
  TFLite's ``TfLiteGpuDelegate Init:`` entry shares only ``init`` with an RKLLM start-up log and was answered
  confidently for it.
* A message holding a few of one tool's own error-text 4-grams, too few to make a marker, brings that tool's
  card among the wording-only matches (:func:`dumpscope.core.knowledge.kb.wording_cue`,
  :data:`dumpscope.core.knowledge.kb.CUE_SCORE`), under the answer's floor: the closest tool, never a
  confident answer by itself.

The messages are written for these tests in the tools' public forms with made-up contents; none is copied
from the evaluation set."""

from __future__ import annotations

from pathlib import Path

import pytest

import dumpscope.core.knowledge.kb as kb_module
from dumpscope.core.knowledge import load_kb
from dumpscope.core.knowledge.answer import WORDS_FLOOR
from dumpscope.core.knowledge.family import source_gram_counts
from dumpscope.core.knowledge.kb import CUE_SCORE, LEANING_SCORE, LONE_WORD_FACTOR, wording_cue
from dumpscope.core.knowledge.words import tokens

NO_USER_DIR = Path("/nonexistent-dumpscope-test")

RKLLM_START = (
    "init start\nruntime version: 1.1.4, driver version: 0.9.8\ninvalid model magic\nload model file error!"
)
"""RKLLM's start-up lines (librkllmrt) with a model file that is no RKLLM model, its marker lines left out."""

QNN_ENUM = "Loading the context binary failed with _CONTEXT_ERROR_BINARY_VERSION"
"""A QNN error enum name (QnnContext.h's ``QNN_CONTEXT_ERROR_BINARY_VERSION``) printed without its ``QNN``
prefix, which is the tool's marker."""


@pytest.fixture(scope="module")
def kb():  # type: ignore[no-untyped-def]
    return load_kb(user_dir=NO_USER_DIR)


def _scores(kb, text: str) -> dict[str, tuple[float, str]]:  # type: ignore[no-untyped-def]
    return {m.entry.id: (m.score, m.reason) for m in kb.lookup(text, top=50)}


def test_constants_keep_their_order() -> None:
    assert 0 < LONE_WORD_FACTOR < 1
    assert CUE_SCORE < LEANING_SCORE < WORDS_FLOOR


def test_an_entry_sharing_one_distinctive_word_is_lowered_and_not_answered(kb, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    assert kb.named_families(RKLLM_START) == []
    answer = kb.answer(RKLLM_START)
    assert not answer.confident  # the wording is no tool's own: no confident answer
    lowered = _scores(kb, RKLLM_START)["tflite-gpu-delegate-init"]
    assert lowered[1] == "words"
    monkeypatch.setattr(kb_module, "LONE_WORD_FACTOR", 1.0)
    full = _scores(kb, RKLLM_START)["tflite-gpu-delegate-init"]
    assert lowered[0] == pytest.approx(full[0] * LONE_WORD_FACTOR, abs=0.2)
    # without the rule, "init" alone lifts TFLite's GPU delegate among the closest wording matches of the
    # RKLLM log (it was the best one, confidently so, with the KB of h23c3; RKNN's own runtime entries
    # added since share the log's other words and now rank first, as they should)
    assert full[0] > lowered[0]
    # (since s29c/s29f read the GPU delegate cards' status as their reason, the entry ranks 8th among the
    # log's wording matches with or without the rule; the rule's effect is the score above)
    assert "tflite-gpu-delegate-init" in [m.entry.id for m in kb.lookup(RKLLM_START, top=50)]


def test_an_entry_is_lowered_when_it_shares_fewer_than_two_words_any_tool_does_not_print(kb) -> None:  # type: ignore[no-untyped-def]
    words = tokens(RKLLM_START)
    sims, rare = kb._word_similarity(words)
    generic = kb._generic_words
    assert "failed" in generic and "init" not in generic
    assert rare == {w for w in words if w not in generic and w in kb._by_word}
    lone = {kb.entries[i].id for i in sims if len(kb.entries[i].words & rare) < 2}
    assert "tflite-gpu-delegate-init" in lone  # "init" alone
    assert len(lone) > 10 and len(lone) < len(sims)


def test_a_tools_own_wording_without_its_marker_names_it_closest(kb, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    assert kb.named_families(QNN_ENUM) == []
    assert source_gram_counts(QNN_ENUM.lower()).get("qualcomm", (0, 0))[0] == 1
    assert wording_cue(QNN_ENUM.lower()) == ("qualcomm",)
    answer = kb.answer(QNN_ENUM)
    assert not answer.confident
    assert answer.closest[0].startswith("Qualcomm")
    card = _scores(kb, QNN_ENUM)["family-qualcomm"]
    assert card == (CUE_SCORE, "words")
    monkeypatch.setattr(kb_module, "CUE_SCORE", 0.0)  # the cue is what brings the family card in at its score
    # Without the cue the card may still come first through a Qualcomm entry that wording alone found and
    # that shares none of its distinctive terms (KnowledgeBase.distinct_first), at that entry's score.
    without_cue = _scores(kb, QNN_ENUM)
    assert without_cue.get("family-qualcomm") != (CUE_SCORE, "words")
    assert all(score < CUE_SCORE for score, _ in without_cue.values())


def test_no_cue_without_own_wording_or_on_a_tie() -> None:
    assert wording_cue("something went wrong") == ()
    assert wording_cue("") == ()


def test_a_named_tool_takes_no_cue(kb) -> None:  # type: ignore[no-untyped-def]
    text = "Loading the context binary failed with QNN_CONTEXT_ERROR_BINARY_VERSION"
    assert "qualcomm" in kb.named_families(text)
    assert _scores(kb, text).get("family-qualcomm", (0.0, ""))[1] != "words"


ORT_LOAD = (
    "Error initializing model: Load model from /srv/models/frob.onnx failed: the widget could not be read"
)
"""onnxruntime's model-load envelope (InferenceSession::Load) around a made-up reason, its marker left out."""


def test_onnxruntimes_load_envelope_cues_onnxruntime(kb, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    assert kb.named_families(ORT_LOAD) == []
    assert "onnxruntime" not in source_gram_counts(ORT_LOAD.lower())  # the path breaks its 4-grams
    assert wording_cue(ORT_LOAD.lower()) == ("onnxruntime",)
    answer = kb.answer(ORT_LOAD)
    assert not answer.confident
    assert answer.closest[0].startswith("ONNX Runtime")
    assert _scores(kb, ORT_LOAD)["family-onnxruntime"] == (CUE_SCORE, "words")
    # a program logging that it starts loading a model, or another tool's "failed to load model from", is no
    # sign of onnxruntime
    assert wording_cue("info load model from /srv/models/frob.onnx") == ()
    assert "onnxruntime" not in wording_cue("failed to load model from /srv/models/frob.onnx")
