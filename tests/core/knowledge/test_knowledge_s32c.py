"""Session s32c: onnxruntime's own inner forms cue it when its envelope is gone, and more uncovered tools.

* With ``[ONNXRuntimeError] : N : CODE :`` and its other markers blanked (or never pasted), what is left of
  onnxruntime's own text is the inner form its sources print around the node, the operator or the feed: each
  counts as one of its 4-grams for :func:`dumpscope.core.knowledge.kb.wording_cue` (``kb._ENVELOPE_CUES``).
* Arm NN, AMD MIGraphX, Apple MLX and other uncovered tools' markers (:data:`.markers.UNCOVERED`) name them.

The messages are written for these tests in the tools' public forms (their source strings) with made-up
contents; none is copied from the evaluation set."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import source_gram_counts
from dumpscope.core.knowledge.kb import wording_cue

ORT_INNER = [
    # graph.cc, InferAndVerifyTypeMatch: "Node (", name, ") Op (", type, ") ", onnx's reason
    "Fail: Node (blk_7/add_2) Op (Add) [widget] mismatched operands",
    # the same, pasted with its spaces lost
    "Fail:Node(blk_7)Op (Squeeze)[widget] the axes are odd",
    # graph.cc: the node input's type check ("Type Error:" left out: a marker)
    "'tensor(int8)' of input parameter (frob/shape) of operator (Frob) in node (frob_1) is invalid.",
    # the kernel look-up, as session_state.cc and graph_partitioner.cc (older) print it (their first words
    # are a marker)
    "Error: Frob(17) node with name '/frob/Frob_3'",
    "Error: the node frob_3:Frob(9)",
    # inference_session.cc: the feeds' rank, dimensions and element type (the sentences before them are
    # markers)
    "Error: pixel_frob Got: 3 Expected: 4",
    "Error: Actual: (tensor(int64)) , expected: (tensor(float))",
    # the log line's location (CodeLocation::ToString between ", " and "] ")
    "2031-02-03 04:05:06.123456789 [E:x:Default, frob_runner.cc:412 RunFrob] the widget stalled",
    # ORT_ENFORCE's exception
    "/src/core/framework/frob_planner.cc:88 void PlanFrob(int) widget_count > 0 was false. no widgets",
]


@pytest.mark.parametrize("text", ORT_INNER)
def test_onnxruntimes_inner_forms_cue_it_without_its_envelope(kb: KnowledgeBase, text: str) -> None:
    assert kb.named_families(text) == []
    assert "onnxruntime" not in source_gram_counts(text.lower())  # no 4-gram of its own survives the names
    assert wording_cue(text.lower()) == ("onnxruntime",)
    assert kb.lookup(text, top=1)[0].entry.family == "onnxruntime"


LOOK_ALIKES = [
    # glog's location has no function before the bracket
    "I0203 04:05:06.123 frob.cc:412] the widget stalled",
    # a plain comparison without onnxruntime's spacing
    "shape mismatch: got 3, expected 4",
    "Actual: 3 expected: 4",
    # an operator named in passing, with no version in brackets
    "the node Frob has no kernel",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_of_onnxruntimes_inner_forms_cue_nothing(text: str) -> None:
    assert wording_cue(text.lower()) == ()
