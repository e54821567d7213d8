"""Session s36b: more of the claimed tools' own inner forms cue them when their markers are gone.

torch_npu's error head and out-of-memory sentence, onnxruntime-web's and its Java binding's sources in a
stack, onnxruntime's execution providers' source folders, TensorRT 7's error line, its default layer names and
Torch-TensorRT's log prefix, Qualcomm's FastRPC sources, its converters' ONNX frontend, onnx's
schema registry and onnxsim's ``simplify`` frame: each counts as one of its tool's 4-grams for
:func:`dumpscope.core.knowledge.kb.wording_cue` (:data:`dumpscope.core.knowledge.inner_forms.INNER_CUES`, the
last entries).

The messages are written for these tests in the tools' public forms with made-up contents; none is copied
from the evaluation set.  The look-alikes are other tools' (or the same tools') near forms that must cue
nothing of these."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.inner_forms import INNER_CUES, ONNXSIM_SIMPLIFY_FRAME
from dumpscope.core.knowledge.kb import wording_cue
from tests.support.inner_forms import assert_cued_alone, cued

_S36B_END = next(n for n, (_, _, form) in enumerate(INNER_CUES) if form is ONNXSIM_SIMPLIFY_FRAME) + 1
S36B_CUES = INNER_CUES[_S36B_END - 12 : _S36B_END]  # this session's twelve, whatever later sessions append

INNER = [
    # torch_npu's error head: process, device and rank
    ("ascend", "[ERROR] 2031-02-03-04:05:06 (PID:4242, Device:3, RankID:-1) the widget stalled"),
    # torch_npu's caching allocator: the device named NPU before the capacity
    ("ascend", "Tried to allocate 2.00 GiB (NPU 3; 31.50 GiB total capacity; 30.00 GiB frobbed)"),
    # onnxruntime-web's own sources in a browser stack
    ("onnxruntime", "Uncaught Error: frob failed\n    at e.frob (proxy-wrapper.ts:88:12)"),
    # onnxruntime's Java binding in a Java stack
    ("onnxruntime", "FrobException: widget stalled\n\tat x.y.OrtSession.<init>(OrtSession.java:88)"),
    # an execution provider's source file and line
    ("onnxruntime", "/build/frob/providers/cuda/frob_widget.cc:88 the widget stalled"),
    # TensorRT 7's error line
    ("tensorrt", "../frob/widgetRunner.cpp (88) - Frob Error in planWidgets: 3 (WIDGET_STALLED)"),
    # TensorRT's default layer name's kind, its marker gone
    ("tensorrt", "(  7) [Shuffle]: the widget stalled"),
    # Torch-TensorRT's log prefix's end, then its sentence
    ("tensorrt", "ERROR: [Frob] - Unsupported operator: frob(Tensor self) -> Tensor"),
    # Qualcomm's FastRPC sources
    ("qualcomm", "E/frob: /src/mod_table.c:88: Error : the widget stalled"),
    # the QNN/SNPE ONNX frontend in a traceback
    ("qualcomm", 'File "/x/lib/python/frob/converters/onnx/onnx_to_ir.py", line 88, in frob\nwidget stalled'),
    # onnx's schema registry
    ("onnx", "Trying to register schema with name FrobWidget (domain: frob.widget version: 3) from x.cc"),
    # onnxsim's simplify frame and one of its own lines
    ("onnxsim", 'File "/x/frob/widget.py", line 88, in simplify\n    model_opt_bytes = c.simplify(\nFrob'),
]


@pytest.mark.parametrize(("family", "text"), INNER)
def test_a_claimed_tools_inner_form_cues_it_without_its_markers(
    kb: KnowledgeBase, family: str, text: str
) -> None:
    assert_cued_alone(kb, family, text, S36B_CUES)


def test_each_of_this_sessions_cues_is_tested() -> None:
    tested = {
        form.pattern
        for _, text in INNER
        for _, literal, form in S36B_CUES
        if literal in text.lower() and form.search(text.lower())
    }
    assert len(S36B_CUES) == 12
    assert {form.pattern for _, _, form in S36B_CUES} == tested
    claimed = {"ascend", "onnxruntime", "tensorrt", "qualcomm", "onnx", "onnxsim"}
    assert {family for family, _, _ in S36B_CUES} == claimed


LOOK_ALIKES = [
    # a pid alone, without torch_npu's device and rank
    "(PID:4242) the widget stalled",
    # CUDA's allocator names the GPU
    "Tried to allocate 2.00 GiB (GPU 0; 31.50 GiB total capacity; 30.00 GiB frobbed)",
    # another TypeScript file, and one of onnxruntime-web's names without a line
    "at frob (widget-wrapper.ts:88:12)",
    "see proxy-wrapper.ts for details",
    # a Java class whose name only ends like the binding's
    "at x.y.FrobSession.<init>(FrobSession.java:88)",
    # a link to an execution provider's file, no line; another project's providers folder
    "see [frob.cc](https://x/onnxruntime/core/providers/cuda/frob.cc)",
    "/src/providers/frobnet/frob.cc:88 the widget stalled",
    # a file and line in brackets without TensorRT 7's 'Error in'
    "frob.cpp (88) - the widget stalled",
    # a bracketed word that is no layer kind, and a layer kind with no closing bracket before it
    "(7) [Frobnicate]: the widget stalled",
    "[Shuffle]: the widget stalled",
    # a bracket's end and a dash before other words
    "[frob] - the widget stalled",
    # a C file that is not FastRPC's
    "/src/frob_table.c:88: Error : the widget stalled",
    # another converter's onnx frontend
    'File "/x/converters/onnx/frob_to_ir.py", line 88',
    # a schema in passing
    "the schema with name FrobWidget (domain: frob) is registered",
    # another tool's simplify function, and onnxsim's name in passing
    'File "/x/sympy/simplify.py", line 88, in simplify\n    expr = bottom_up(expr)',
    "in simplify: the widget stalled",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_of_this_sessions_inner_forms_cue_none_of_them(text: str) -> None:
    assert cued(text, S36B_CUES) == []


def test_the_earlier_forms_stay_their_own() -> None:
    # TensorRT's location and onnxruntime's, beside this session's forms
    assert wording_cue("[widgetplanner  planwidgets::417] frobnication stalled") == ("tensorrt",)
    assert wording_cue("frob_runner.cc:412 runfrob] the widget stalled") == ("onnxruntime",)
