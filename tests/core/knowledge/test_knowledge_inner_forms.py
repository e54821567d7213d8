"""Session s32i: the claimed tools' own inner forms cue them when their markers are gone.

With TensorRT's ``[TRT]``/``.cpp::``/``Error Code``, CANN's ``EZ9999``/``[ERROR] GE``, onnx's
``ValidationError``, QNN's ``QnnDsp <E>``/``Encountered Error``, RKNN's ``E load_onnx:`` and
onnx-optimizer's ``onnxoptimizer`` blanked (or never pasted), what is left of each tool's own text is the
inner form its sources print around a name, a number or a path: each counts as one of its 4-grams for
:func:`dumpscope.core.knowledge.kb.wording_cue` (:data:`dumpscope.core.knowledge.inner_forms.INNER_CUES`).

The messages are written for these tests in the tools' public forms with made-up contents; none is copied
from the evaluation set."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import source_gram_counts
from dumpscope.core.knowledge.kb import wording_cue

INNER = [
    # TensorRT's location [<file>.cpp::<function>::<line>] with its file part gone
    ("tensorrt", "[widgetPlanner  planWidgets::417] frobnication stalled"),
    # TensorRT's ErrorCode name after 'Error Code N' lost its marker
    ("tensorrt", "7: Internal Error (frobnicator mismatch)"),
    ("tensorrt", "3: API Usage Error (widget count is zero)"),
    # TensorRT's builder, no implementation found for a node
    ("tensorrt", "(Could not find any implementation for node frob_12.)"),
    # CANN's error manager head, then its log location with the thread id and function
    ("ascend", "[PID: 4242] widget frobnication stalled"),
    ("ascend", "[frob_planner.cc:88]4242 PlanFrob: widget stalled"),
    # onnx's shape inference and checker
    ("onnx", "Error: widget in dimension 2: (64) vs (32)"),
    ("onnx", "widget stalled\n\n==> Context: frob_3"),
    ("onnx", "Your model frob 12 is higher than the checker's (9)."),
    # QNN's HTP log location
    ("qualcomm", "frob_planner.cc:88:ERROR:widget stalled"),
    # RKNN-Toolkit's load_onnx shape check
    ("rknn", "ValueError: Invalid input_shape = [0, 3, 0, 0] for input 0!"),
    # onnx-optimizer's ONNX_ASSERT in one of its passes
    ("onnxsim", "/src/x/passes/frob_widgets.h:48: runFrob: Assertion `n > 0` failed."),
]


@pytest.mark.parametrize(("family", "text"), INNER)
def test_a_tools_inner_form_cues_it_without_its_markers(kb: KnowledgeBase, family: str, text: str) -> None:
    assert kb.named_families(text) == []
    assert family not in source_gram_counts(text.lower())  # none of its 4-grams survives the names
    assert wording_cue(text.lower()) == (family,)
    assert kb.lookup(text, top=1)[0].entry.family == family


LOOK_ALIKES = [
    # glog's location has no function
    "I0203 04:05:06.123 frob.cc:412] the widget stalled",
    # a C++ name in passing, not before a line number and bracket
    "std::vector::at threw",
    # an error number with a word that is no TensorRT error name
    "7: Widget Error (frobnicator mismatch)",
    # a pid in another shape, a dimension without the brackets
    "pid: 4242 stalled",
    "mismatch in dimension 2: 64 vs 32",
    # Python's logging with a line number (Qualcomm's converters print it, and so do many other programs)
    "2031-02-03 04:05:06,789 - 412 - widget stalled",
    # an assertion outside a passes folder
    "/src/x/frob_widgets.h:48: runFrob: Assertion `n > 0` failed.",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_of_the_inner_forms_cue_nothing(text: str) -> None:
    assert wording_cue(text.lower()) == ()


def test_onnxruntimes_location_stays_its_own() -> None:
    # one colon and a space before the function: onnxruntime's CodeLocation, neither TensorRT's nor CANN's
    assert wording_cue("frob_runner.cc:412 runfrob] the widget stalled") == ("onnxruntime",)
