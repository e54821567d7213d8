"""Session s35f: the new families' own inner forms cue them when their markers are gone.

OpenVINO, TFLite, Paddle2ONNX, TVM, MNN, ncnn and Core ML print forms around a name, a number or a path
(a log location, a module path, an error's bracket or dictionary) that survive their markers being blanked
or never pasted: each counts as one of its tool's 4-grams for
:func:`dumpscope.core.knowledge.kb.wording_cue` (:data:`dumpscope.core.knowledge.inner_forms.INNER_CUES`, the
entries after the claimed tools').

The messages are written for these tests in the tools' public forms with made-up contents; none is copied
from the evaluation set.  The look-alikes are other tools' (or the same tools') near forms that must cue
nothing."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.inner_forms import INNER_CUES
from dumpscope.core.knowledge.kb import wording_cue
from tests.support.inner_forms import assert_cued_alone, cued

NEW_FAMILIES = ("openvino", "tflite", "paddle2onnx", "tvm", "mnn", "ncnn", "coreml")

INNER = [
    # OpenVINO's Model Optimizer: the replacer's id, then its class as Python prints it
    ("openvino", "\"frob_id\" (<class 'widgets.FrobReplacer'>): the widget stalled at node frob_3"),
    # OpenVINO's samples' log prefix, spaces inside the bracket
    ("openvino", "[ INFO ] Frobnicating the widget\nthe widget stalled"),
    # OpenVINO's 2021 Python API module in a Cython frame
    (
        "openvino",
        'File "frob.pyx", line 88, in frob.inference_engine.ie_api.IEWidget.frob\nthe widget stalled',
    ),
    # OpenVINO's NVIDIA plugin: file:line(function):
    ("openvino", "/src/frob/widget_plan.cpp:88(planWidgets): the widget stalled"),
    # OpenVINO Model Server's spdlog pattern: [level][file:line]
    ("openvino", "[2031-02-03 04:05:06.789][42][frob][warning][widget_manager.cpp:412] the widget stalled"),
    # TFLite's op resolver: '<OP>' version '<N>'
    ("tflite", "No frobnicator for 'FROB_2D' version '7'"),
    # TensorFlow's MLIR dialect in the converter's diagnostic
    ("tflite", "error: 'tf.Frob' op the widget stalled"),
    # Paddle2ONNX's mapper prefix [<op>: <var>.tmp_<N>]
    ("paddle2onnx", "[frob_widget: frob_widget_3.tmp_1] the widget stalled"),
    # Paddle2ONNX's model and parameters lines at the start of an export
    ("paddle2onnx", "Model file path: ./frob/widget.bin\nParameters file path: ./frob/widget.params"),
    # Paddle2ONNX's legacy Python exporter
    (
        "paddle2onnx",
        "Frob failed for node ['frob_0'] to onnx, which op_type is 'frob' with inputs: {'X': ['x']}",
    ),
    # Paddle2ONNX's Python op mappers in a traceback
    ("paddle2onnx", 'File "/x/op_mapper/nn.py", line 88, in opset_1\nthe widget stalled'),
    # TVM's FFI module
    ("tvm", "frob._ffi.base.FrobError: the widget stalled"),
    # TVM's C++ source tree in a check's location
    ("tvm", "[04:05:06] src/relay/frob/widget.cc:412: the widget stalled"),
    # TVM Relax's ONNX importer
    ("tvm", "Error converting operator FrobNot, with inputs: [R.frob(lv)]"),
    # TVM's object type check
    ("tvm", "Check failed: Expect frob.Widget but get FrobModule"),
    # MNN's converter: the operator in spaced brackets at the line's end
    ("mnn", "the widget stalled: [ FROB_WIDGET ]"),
    # MNN's OpenCL backend: code, then info:<kernel>
    ("mnn", "FROB CODE : -42, info:frob_widget_kernel"),
    # ncnn's failed blob look-up, then Try
    ("ncnn", 'find frob_7 failed\nTry\n    frob("in0", in0);'),
    # coremltools' progress bar in ops
    ("coreml", "Frobbing widgets:  50%|#####     | 4/8 [00:01<00:01, 3.50 ops/s]"),
    # coremltools' RuntimeError: an NSDictionary's description
    ("coreml", 'RuntimeError: {\n    FrobDescription = "the widget stalled";\n}'),
    # NSError's description
    ("coreml", 'Error Domain=com.frob.Widget Code=-7 "the widget stalled" UserInfo={}'),
    # Core ML's ML Program file in its parser's location
    ("coreml", "/tmp/frob.bundle/model.mil:12:4: the widget stalled"),
    # coremltools' MIL type check
    ("coreml", 'Op "frob_3" (op_type: frob) Input x="y" expects tensor but got list'),
]


@pytest.mark.parametrize(("family", "text"), INNER)
def test_a_new_tools_inner_form_cues_it_without_its_markers(
    kb: KnowledgeBase, family: str, text: str
) -> None:
    assert_cued_alone(kb, family, text, INNER_CUES)


def test_each_new_families_cue_is_tested() -> None:
    new = [form.pattern for family, _, form in INNER_CUES if family in NEW_FAMILIES]
    tested = {
        form.pattern
        for _, text in INNER
        for family, literal, form in INNER_CUES
        if family in NEW_FAMILIES and literal in text.lower() and form.search(text.lower())
    }
    assert len(new) == 23
    assert set(new) == tested


LOOK_ALIKES = [
    # Python logging's bracket has no spaces; OpenVINO's [ ERROR ] is a marker, not a cue
    "[INFO] the widget stalled",
    # a class in passing, no quoted replacer before it
    "got <class 'frob.Widget'> instead",
    # an opset version, not TFLite's quoted version
    "'FROB' opset version 13 is not supported",
    # other MLIR tools' dialects
    "error: 'tpu.Frob' op the widget stalled",
    "error: 'top.Frob' op the widget stalled",
    # a bracketed name that is no Paddle variable
    "[frob: widget] the widget stalled",
    # source trees of other tools (ncnn's src/layer, a runtime folder any project has)
    "src/runtime/frob.cc:12: the widget stalled",
    "src/layer/frob.cpp:12: the widget stalled",
    # _ffi inside a word
    "frob_ffi.base failed",
    # coremltools' own "Expect ... , but get" has a comma and a shape
    "Expect shape (1, 2) for gamma, but get shape (3,) instead",
    # a spaced bracket at a line's start (OpenVINO's log level), not after a colon
    "[ FROB ] the widget stalled",
    # info: followed by a space
    "status code: -36, info: frob",
    # Try not after a failed line
    "the widget stalled\nTry again later",
    # tqdm's default unit
    "Frobbing: 50%|#####     | 4/8 [00:01<00:01, 3.50it/s]",
    # JSON, not an NSDictionary's description
    '{\n    "key": "the widget stalled"\n}',
    # model.mil inside another name
    "frob_model.mil failed",
    "/tmp/model.military failed",
    # op_type in a dictionary
    "{'op_type': 'frob'} the widget stalled",
    # onnxruntime's kernel form and glog's location
    "Could not find an implementation for Frob(13) node with name 'frob_1'",
    "I0203 04:05:06.123 frob.cc:412] the widget stalled",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_of_the_new_inner_forms_cue_no_new_family(text: str) -> None:
    assert not set(cued(text, INNER_CUES)) & set(NEW_FAMILIES)
    assert not set(wording_cue(text.lower())) & set(NEW_FAMILIES)


def test_the_claimed_tools_forms_stay_their_own() -> None:
    # TensorRT's location and onnxruntime's, next to the new forms: no new family takes them
    assert wording_cue("[widgetplanner  planwidgets::417] frobnication stalled") == ("tensorrt",)
    assert wording_cue("frob_runner.cc:412 runfrob] the widget stalled") == ("onnxruntime",)
