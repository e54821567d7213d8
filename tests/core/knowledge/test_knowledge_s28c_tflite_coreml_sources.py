"""Branch s28c: Core ML and TFLite entries and markers written from the tools' own sources.

Each row is the text as the source prints it (the Core ML framework's MLModelError codes and its Espresso and
ML Program parser lines; TensorFlow's MLIR TFL verifier and quantizer, lite.py's input checks, the TFLite
kernels' index checks, the XNNPACK delegate's node checks, TensorFlow Lite Micro's allocator and op resolver,
the Java API's type check) with made-up values, answered by its entry with the captured parts in the advice.
The other tests pin where an entry stops: the Core ML code entries leave the texts that own entries answer,
the TFLM resolver entry leaves the versioned runtime form, and the new markers name their family alone.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.kb import named_families
from tests.support.advice import Case, answered_by_entry

CASES: list[Case] = [
    # ---- coreml: MLModelError.Code (MLModelError.h) ----
    (
        'Error Domain=com.apple.CoreML Code=0 "Failed to evaluate model 2 in pipeline" '
        "UserInfo={NSLocalizedDescription=Failed to evaluate model 2 in pipeline}",
        "coreml-s28c-mlmodelerror-generic",
        ("Failed to evaluate model 2 in pipeline", "CPU_ONLY"),
    ),
    (
        'Error Domain=com.apple.CoreML Code=5 "Custom model class ZzModel not found"',
        "coreml-s28c-mlmodelerror-custom",
        ("code 5", "Custom model class ZzModel not found", "MLCustomModel"),
    ),
    (
        'Error Domain=com.apple.CoreML Code=6 "Training input feature zz_label not found"',
        "coreml-s28c-mlmodelerror-update",
        ("zz_label", "MLUpdateTask"),
    ),
    (
        'Error Domain=com.apple.CoreML Code=11 "Prediction zz was cancelled"',
        "coreml-s28c-mlmodelerror-cancelled",
        ("Prediction zz was cancelled", "Task.isCancelled"),
    ),
    # ---- coreml: the ML Program runtime's async prediction, Espresso, the ML Program parser ----
    (
        'Error Domain=com.apple.CoreML Code=0 "Timeout occurred while computing the asynchronous prediction '
        'using ML Program." UserInfo={NSUnderlyingError=0x6000 {Error Domain=com.apple.CoreML Code=0 "E5RT: '
        'Submit Async failed for [3:1]"}}',
        "coreml-s28c-async-prediction-failed",
        ("Timeout occurred while computing", ".cpuAndGPU"),
    ),
    (
        '[espresso] [Espresso::handle_ex_plan] exception=Espresso exception: "Invalid state": reshape '
        "mismatching size: 2147483647 1 1 1 1 -> 12 7 99 1 1 status=-5\n"
        "[coreml] Error computing NN outputs -5",
        "coreml-s28c-espresso-exception",
        ("Invalid state", "reshape mismatching size: 2147483647 1 1 1 1 -> 12 7 99 1 1", "EnumeratedShapes"),
    ),
    (
        "coremlcompiler: error: Failed to parse the model specification. Error: Unable to parse ML Program: "
        "in operation zz_gather_3: Required param 'validate_indices' is missing",
        "coreml-s28c-mlprogram-parse-op",
        ("zz_gather_3", "Required param 'validate_indices' is missing", "minimum_deployment_target"),
    ),
    # ---- tflite: tensorflow/compiler/mlir/lite (TFL dialect verifier, quantizer) ----
    (
        "error: 'tfl.zz_pool' op operand #1 must be tensor of 32-bit float or QI8 type values, but got "
        "'tensor<1x7xi64>'",
        "tflite-s28c-mlir-tfl-operand-type",
        ("tfl.zz_pool", "operand #1", "tensor<1x7xi64>", "SELECT_TF_OPS"),
    ),
    (
        "loc(\"zz/MatMul\"): error: 'tfl.zz_matmul' op failed to verify that all of {x, y} have same element "
        "type",
        "tflite-s28c-mlir-tfl-verify",
        ("tfl.zz_matmul", "failed to verify that all of {x, y} have same element type"),
    ),
    (
        "error: 'tfl.concatenation' op quantization parameters violate the same scale constraint: "
        "!quant.uniform<i8:f32, 0.0123:-7> vs. !quant.uniform<i8:f32, 0.0456:9>",
        "tflite-s28c-mlir-same-scale",
        ("!quant.uniform<i8:f32, 0.0123:-7>", "!quant.uniform<i8:f32, 0.0456:9>", "representative_dataset"),
    ),
    # ---- tflite: tensorflow/lite/python/lite.py ----
    (
        "ValueError: This converter can only convert a single ConcreteFunction. Converting multiple "
        "functions is under development.",
        "tflite-s28c-converter-single-concrete-function",
        ("signature_keys",),
    ),
    (
        "ValueError: Provide an input shape for input array 'zz_input'.",
        "tflite-s28c-converter-input-shape-missing",
        ("zz_input", "input_shapes"),
    ),
    # ---- tflite: kernels (gather.cc, embedding_lookup.cc), XNNPACK, TFLM, model loader, Java ----
    (
        "Embedding Lookup: index out of bounds. Got 70001, and bounds are [0, 70000]\n"
        "Node number 3 (EMBEDDING_LOOKUP) failed to invoke.",
        "tflite-s28c-kernel-index-out-of-bounds",
        ("Embedding Lookup", "70001", "70000", "vocabulary"),
    ),
    (
        "CheckTensorType: unsupported type INT64 in tensor #17 in node #9\n"
        "Node number 40 (TfLiteXNNPackDelegate) failed to prepare.",
        "tflite-s28c-xnnpack-node-check",
        ("node #9", "unsupported type INT64 in tensor #17", "setUseXNNPACK(false)"),
    ),
    (
        "Arena size is too small for all buffers. Needed 123456 but only 65432 was available.\n"
        "AllocateTensors() failed",
        "tflite-s28c-micro-arena-too-small",
        ("123456", "65432", "arena_used_bytes"),
    ),
    (
        "Model provided is schema version 7 not equal to supported version 3.",
        "tflite-s28c-schema-version-mismatch",
        ("schema version field reads 7", "version 3", "xxd -i"),
    ),
    (
        "Didn't find op for builtin opcode 'ZZ_SOFTMAX'\nFailed to get registration from op code ZZ_SOFTMAX\n"
        "AllocateTensors() failed",
        "tflite-s28c-micro-op-not-in-resolver",
        ("ZZ_SOFTMAX", "MicroMutableOpResolver"),
    ),
    (
        "java.lang.IllegalArgumentException: DataType error: cannot resolve DataType of [[Ljava.lang.Float;",
        "tflite-s28c-java-datatype-unresolved",
        ("Ljava.lang.Float;", "ByteBuffer"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


@pytest.mark.parametrize(
    "text",
    [
        'Error Domain=com.apple.CoreML Code=0 "Error computing NN outputs."',
        'Error Domain=com.apple.CoreML Code=0 "Error in declaring network."',
        'Error Domain=com.apple.CoreML Code=0 "Failed to build the model execution plan using a model '
        "architecture file '/zz/model.mil' with error code: -7.\"",
    ],
)
def test_a_code_entry_leaves_the_texts_their_own_entries_answer(kb: KnowledgeBase, text: str) -> None:
    """Code 0 is the framework's catch-all: a description that has its own entry is answered by that entry,
    and the generic code entry does not match it at all."""
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "coreml"
    assert top.entry.id != "coreml-s28c-mlmodelerror-generic"
    for m in kb.lookup(text, top=5):
        assert m.entry.id != "coreml-s28c-mlmodelerror-generic" or m.reason != "pattern"


def test_the_micro_resolver_entry_leaves_the_versioned_runtime_form(kb: KnowledgeBase) -> None:
    """TFLM names the op alone; the full runtime names its version too, and that form means an old runtime,
    which the older entry answers."""
    versioned = (
        "Didn't find op for builtin opcode 'ZZ_CONV' version '9'. An older version of this builtin might be "
        "supported. Are you using an old TFLite binary with a newer model?"
    )
    assert kb.lookup(versioned, top=1)[0].entry.id == "tflite-didnt-find-builtin-op"
    top = kb.lookup("Didn't find op for builtin opcode 'ZZ_CONV'", top=1)[0]
    assert top.entry.id == "tflite-s28c-micro-op-not-in-resolver"
    assert dict(top.captures) == {"op_type": "ZZ_CONV"}


def test_the_xnnpack_entry_needs_the_node_form(kb: KnowledgeBase) -> None:
    """'unsupported type' alone is any tool's wording; the entry is found by the delegate's '... node #N'."""
    for m in kb.lookup("unsupported type INT64 in tensor zz_input", top=3):
        assert m.entry.id != "tflite-s28c-xnnpack-node-check" or m.reason != "pattern"


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("zz.cc:12 MicroMutableOpResolver has no room for another op", "tflite"),
        ("E micro_interpreter.cc:88 zz", "tflite"),
        ("ERROR: Arena size is too small for all buffers", "tflite"),
        ("pip install ai-edge-torch failed: zz", "tflite"),
        ("import ai_edge_quantizer  # zz", "tflite"),
        ("Run() failed: odml.infra.ZzCalculator", "tflite"),
        ('[espresso] [Espresso::handle_ex_plan] exception=Espresso exception: "Zz": zz', "coreml"),
        ('Error Domain=com.apple.mlassetio Code=1 "zz"', "coreml"),
        ("zz Unable to parse ML Program: at zz", "coreml"),
        ("-[MLFeatureValue zz]: nil value", "coreml"),
    ],
)
def test_the_new_markers_name_their_family(text: str, family: str) -> None:
    assert named_families(text)[:1] == [family]


def test_espresso_alone_is_not_core_ml() -> None:
    """Android's UI test framework is also called Espresso: the bare word names no tool."""
    assert "coreml" not in named_families("androidx.test.espresso.NoMatchingViewException: zz")
