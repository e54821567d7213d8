"""A multi-line paste is answered on the line that states the cause, not on a line that only follows from it
(issue 23: ``consequence`` entries, :func:`dumpscope.core.knowledge.kb.consequences_last`).

The messages are written around the sentences TensorRT prints (each entry names its source) with made-up
names, versions and paths, not copied from the evaluation set.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.answer import shown_code
from dumpscope.core.knowledge.kb import is_process_ending
from tests.support.advice import assert_answered

CONSEQUENCES = (
    "tensorrt-engine-deserialization-failed",
    "tensorrt-engine-is-null",
    "tensorrt-torch-tensorrt-engine-build-failed",
    "tensorrt-network-must-have-at-least",
    "tensorrt-failed-to-parse-onnx-model",
    "tensorrt-python-engine-is-none",
    "ascend-build-graph-failed",
    "qualcomm-graph-finalize-failed",
    "coreml-error-computing-nn-outputs",
    "torch-npu-inner-error-reported-above",
    "coreml-error-declaring-network",
    "onnxruntime-web-cant-create-session",
    "onnxruntime-react-native-cant-create-session",
    "tflite-node-failed-to-prepare",
    "tflite-node-failed-to-invoke",
    # s26g: a wrapper's own line that names no cause (tflite_flutter, Polygraphy, onnxruntime's EP factory)
    "tflite-flutter-unable-to-create-interpreter",
    "tensorrt-s20e-polygraphy-engine-deserialize-failed",
    "tensorrt-s20e-polygraphy-execute-failed",
    "onnxruntime-ep-create-failed",
)


CASES = [
    (
        "[TRT] The engine plan file is not compatible with this version of TensorRT, expecting library "
        "version 10.1.0.27 got 10.0.1.6, please rebuild.\n[TRT] Engine deserialization failed.",
        "tensorrt-plan-library-version-mismatch",
        ("10.1.0.27", "10.0.1.6"),
        "tensorrt-engine-deserialization-failed",
    ),
    (
        "[TRT] Could not find any implementation for node /blocks.4/attn/MatMul_7.\n"
        "AttributeError: 'NoneType' object has no attribute 'create_execution_context'",
        "tensorrt-no-implementation-for-node",
        ("/blocks.4/attn/MatMul_7",),
        "tensorrt-python-engine-is-none",
    ),
    (
        "[E] [TRT] ModelImporter.cpp:726: ERROR: builtin_op_importers.cpp:4531 In function "
        "importFallbackPluginImporter:\n"
        '[8] Assertion failed: creator && "Plugin not found, are the plugin name, version, and namespace '
        'correct?"\nBuilding TensorRT engine failed',
        "tensorrt-getplugincreator-could-not-find-plugin",
        ("trt.init_libnvinfer_plugins",),
        "tensorrt-torch-tensorrt-engine-build-failed",
    ),
]


CASES += [
    (
        "[E:onnxruntime:, inference_session.cc:1530 operator()] Exception during initialization: Load model "
        "from model.onnx failed:Fatal error: ai.onnx:FastGelu(-1) is not a registered function/op\n"
        "Error: Can't create a session",
        "onnxruntime-op-not-registered-function",
        ("ai.onnx:FastGelu(-1)",),
        "onnxruntime-web-cant-create-session",
    ),
]


# s26g: the wrapper's line after the runtime's own (tflite_flutter's interpreter.dart, Polygraphy's
# EngineFromBytes, onnxruntime's CreateExecutionProviderInstance), with made-up op names and versions.
CASES += [
    (
        "E/tflite  ( 4242): Didn't find op for builtin opcode 'GELU' version '2'\n"
        "E/tflite  ( 4242): Registration failed.\n"
        "I/flutter ( 4242): Error while creating interpreter: "
        "Invalid argument(s): Unable to create interpreter.",
        "tflite-didnt-find-builtin-op",
        ("GELU",),
        "tflite-flutter-unable-to-create-interpreter",
    ),
    (
        "[E] [TRT] The engine plan file is not compatible with this version of TensorRT, expecting library "
        "version 10.3.0.26 got 10.1.0.27, please rebuild.\n"
        "[!] Could not deserialize engine. See log for details.",
        "tensorrt-plan-library-version-mismatch",
        ("10.3.0.26",),
        "tensorrt-s20e-polygraphy-engine-deserialize-failed",
    ),
    (
        "[E:onnxruntime:Default, provider_bridge_ort.cc:1992 TryGetProviderInfo_CUDA] "
        "[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: "
        "libcudnn.so.9: cannot open shared object file: No such file or directory\n"
        "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 CreateExecutionProviderInstance] Failed to "
        "create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*.",
        "onnxruntime-ep-library-load-failed",
        ("libcudnn.so.9", "libonnxruntime_providers_cuda.so"),
        "onnxruntime-ep-create-failed",
    ),
]


@pytest.mark.parametrize(("message", "entry", "named", "consequence"), CASES)
def test_the_cause_line_answers_and_the_consequence_line_follows(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...], consequence: str
) -> None:
    """The entry of the earlier line answers with its own captures; the consequence line's entry is still in
    the answer, under it (it says the line only follows from an earlier error)."""
    assert_answered(kb, message, named, entry=entry)
    ranked = [m.entry.id for m in kb.lookup(message, top=5)]
    assert consequence in ranked[1:], ranked


def test_a_cause_earlier_on_the_same_line_states_it(kb: KnowledgeBase) -> None:
    """A log that joins its messages without a newline (TFLite's Python ``RuntimeError``: the kernel's check,
    then ``Node number N (OP) failed to prepare.``, LiteRT tflite/core/subgraph.cc) is answered by the check's
    entry, the op read from the node's line; the node's line follows from it.  The same line, the other way
    round, moves nothing (a later failure is another one)."""
    message = (
        "RuntimeError: tensorflow/lite/kernels/pad.cc:117 NumDimensions(op_context.input) <= 5 was not "
        "true.Node number 21 (PAD) failed to prepare."
    )
    top = assert_answered(
        kb, message, ("PAD", "NumDimensions(op_context.input) <= 5"), entry="tflite-s25e-kernel-check-shape"
    )
    assert ("op_type", "PAD") in top.captures
    ranked = kb.lookup(message, top=5)
    assert "tflite-node-failed-to-prepare" in [m.entry.id for m in ranked[1:]]
    assert kb.follows_from(
        next(m for m in ranked if m.entry.id == "tflite-node-failed-to-prepare"), top, message
    )
    alone = kb.lookup("Node number 21 (PAD) failed to prepare.", top=1)[0]
    assert alone.entry.id == "tflite-node-failed-to-prepare"
    later = "Node number 21 (PAD) failed to prepare. " + message.split("RuntimeError: ")[1].split("Node")[0]
    assert kb.lookup(later, top=1)[0].entry.id == "tflite-node-failed-to-prepare"


def test_a_card_whose_reason_a_clause_answers_states_the_cause(kb: KnowledgeBase) -> None:
    """A code's card on the earlier line whose reason a clause answers (a plugin the registry lacks) states
    the cause: it is answered by that clause, the code shown as the message has it, and the consequence line
    (``Engine deserialization failed``) ranks under it."""
    message = (
        "[E] [TRT] 1: [pluginV2Runner.cpp::load::300] Error Code 1: Serialization (Serialization assertion "
        "creator failed.Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin "
        "Registry)\n[E] [TRT] 4: [runtime.cpp::deserializeCudaEngine::66] Error Code 4: Internal Error "
        "(Engine deserialization failed.)"
    )
    top = assert_answered(
        kb, message, ("init_libnvinfer_plugins",), clause="trt-plugin-creator-missing-at-load"
    )
    assert shown_code(top).startswith("Error Code 1")
    ranked = [m.entry.id for m in kb.lookup(message, top=5)]
    assert "tensorrt-engine-deserialization-failed" in ranked[1:], ranked


def test_a_session_that_could_not_be_created_follows_from_the_load_error(kb: KnowledgeBase) -> None:
    """onnxruntime-react-native's ``Can't create InferenceSession`` after onnxruntime's load error: the node
    the checker names answers, not the wrapper's sentence."""
    message = (
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from net.onnx failed:This is an invalid model. "
        'In Node, ("Up_3", Resize, "", -1) : ("a": tensor(float),) -> ("b": tensor(float),) , Error Node '
        "(Up_3) has input size 1 not in range [min=2, max=4].\nError: Can't create InferenceSession"
    )
    ranked = kb.lookup(message, top=5)
    assert ranked[0].entry.id != "onnxruntime-react-native-cant-create-session"
    assert "Up_3" in dict(ranked[0].captures).values()  # as the node or the op the schema check names
    assert "onnxruntime-react-native-cant-create-session" in [m.entry.id for m in ranked[1:]]


def test_a_generic_line_before_moves_only_a_generic_consequence(kb: KnowledgeBase) -> None:
    """The parser's ``While parsing node number N`` (a scheme entry) states where the parse failed: it
    ranks above the generic summary lines after it (``Failed to parse onnx file``, ``engine != nullptr``)."""
    message = (
        'ERROR: [TRT]: ModelImporter.cpp:773: While parsing node number 31 [Einsum -> "out_9"]:\n'
        "ERROR: Failed to parse onnx file\nAssertion engine != nullptr failed"
    )
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == "tensorrt-while-parsing-node-number-conv"
    assert ("op_type", "Einsum") in top.captures


def test_a_consequence_line_alone_still_answers(kb: KnowledgeBase) -> None:
    """Without an earlier line that an entry explains, the consequence's own entry answers (its advice is
    where the reason is printed)."""
    top = kb.lookup("[TRT] Engine deserialization failed.", top=1)[0]
    assert top.entry.id == "tensorrt-engine-deserialization-failed"


def test_a_consequence_before_its_cause_is_not_moved(kb: KnowledgeBase) -> None:
    """Only a cause on an earlier line moves a consequence: a later line is another failure."""
    text = (
        "AttributeError: 'NoneType' object has no attribute 'create_execution_context'\n"
        "[TRT] Could not find any implementation for node /head/Conv_2."
    )
    alone = kb.lookup(text.split("\n")[0], top=1)[0]
    assert alone.entry.id == "tensorrt-python-engine-is-none"
    # its own score, whatever the later line's entry scores (word weights move as the KB grows): not moved
    scores = {m.entry.id: m.score for m in kb.lookup(text, top=3)}
    assert scores["tensorrt-python-engine-is-none"] == alone.score, scores
    # the same two lines the other way round: the cause is earlier, the consequence goes under it
    moved = {m.entry.id: m.score for m in kb.lookup("\n".join(reversed(text.split("\n"))), top=3)}
    assert moved["tensorrt-python-engine-is-none"] < moved["tensorrt-no-implementation-for-node"], moved


def test_another_tools_cause_does_not_move_a_consequence(kb: KnowledgeBase) -> None:
    """A cause must be of the consequence's own tool: an onnxruntime line before TensorRT's summary line does
    not move TensorRT's entry under it."""
    text = (
        "[ONNXRuntimeError] : 1 : FAIL : Load model from m.onnx failed:Fatal error: com.example:MyOp(-1) is "
        "not a registered function/op\n[TRT] Engine deserialization failed."
    )
    scores = {m.entry.id: m.score for m in kb.lookup(text, top=5)}
    assert scores.get("tensorrt-engine-deserialization-failed", 0) >= 50.0, scores


def test_consequence_entries_are_marked(kb: KnowledgeBase) -> None:
    """The summary lines named in the issue are ``consequence`` entries; a tool's own ones are no process
    ending (that rule is for text any tool prints)."""
    marked = {e.id: e for e in kb.entries if e.consequence}
    for name in CONSEQUENCES:
        assert name in marked, name
        assert not is_process_ending(marked[name])
