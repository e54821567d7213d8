"""Issue 23 (branch h23w): OpenVINO's, Core ML's and TFLite's own failure sentences, each written from
the tool's source (the IR reader, PartialShape, the PyTorch frontend's tracing, Model Optimizer's checks;
coremltools' models/model.py and utils.py, the Core ML framework's load failure; TFLite's Java API, op
resolver, converter and quantizer), tested with values of our own (never an evaluation message), and the
markers that name each tool only when the message itself carries that tool's wording.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.answer import answer


def _top(kb: KnowledgeBase, text: str):  # type: ignore[no-untyped-def]
    found = kb.lookup(text, top=1)
    assert found, text
    return found[0]


def _answers_with(
    kb: KnowledgeBase,
    text: str,
    entry: str,
    family: str | None,
    captured: tuple[str, str] | None,
    named: bool = True,
) -> None:
    """The top answer to ``text`` is ``entry`` (of ``family`` when given), with ``captured`` among its
    captures and, when ``named``, its value in the cause or the fix."""
    top = _top(kb, text)
    assert top.entry.id == entry and family in (None, top.entry.family), (top.entry.id, top.entry.family)
    if captured:
        assert captured in top.captures
        assert not named or captured[1] in top.cause + top.fix


@pytest.mark.parametrize(
    ("text", "entry", "captured"),
    [
        (
            "Cannot create GridSample layer grid_sample_7 id:311 from unsupported opset: opset9",
            "openvino-ir-unsupported-opset",
            ("opset", "opset9"),
        ),
        (
            "Cannot create RegexSplit layer RegexSplit_88 id:5 from unsupported opset: extension",
            "openvino-ir-unsupported-opset",
            ("op_type", "RegexSplit"),
        ),
        (
            "Opset opset13 doesn't contain the operation with type: FancyNorm",
            "openvino-opset-does-not-contain-op",
            ("op_type", "FancyNorm"),
        ),
        ("RuntimeError: to_shape was called on a dynamic shape.", "openvino-to-shape-dynamic", None),
        (
            "RuntimeError: Couldn't get TorchScript module by tracing. With exception:\nbad output",
            "openvino-pytorch-tracing-failed",
            None,
        ),
        (
            '[ ERROR ]  Shape [ -1 320 320   3] is not fully defined for output 0 of "images". Use '
            "--input_shape with positive integers to override model input shapes.",
            "openvino-mo-shape-not-fully-defined",
            ("node", "images"),
        ),
        (
            "[ FRAMEWORK ERROR ]  Cannot load input model: Error parsing message with type "
            "'tensorflow.GraphDef'",
            "openvino-mo-cannot-load-input-model",
            None,
        ),
        (
            "Exception from src/inference/src/cpp/core.cpp:97: NotFound: Unsupported property MY_KEY by CPU "
            "plugin.",
            "openvino-unsupported-property",
            ("name", "MY_KEY"),
        ),
    ],
)
def test_openvinos_own_sentences_have_entries(
    kb: KnowledgeBase, text: str, entry: str, captured: tuple[str, str] | None
) -> None:
    _answers_with(kb, text, entry, "openvino", captured)


def test_the_ir_extension_opset_advice_names_the_tokenizers_import(kb: KnowledgeBase) -> None:
    top = _top(kb, "Cannot create CharsToBytes layer c2b id:9 from unsupported opset: extension")
    assert "import openvino_tokenizers" in top.fix


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        (
            "Exception: Model prediction is only supported on macOS version 10.13 or later.",
            "coreml-predict-needs-macos",
        ),
        ("Exception: Unable to load libmodelpackage. Cannot save spec", "coreml-libmodelpackage-not-loaded"),
        (
            "Exception: Unable to load libmodelpackage. Cannot make save spec.",
            "coreml-libmodelpackage-not-loaded",
        ),
        (
            "Exception: MLModel of type mlProgram cannot be loaded just from the model spec object. It also "
            "needs the path to the weights file.",
            "coreml-mlprogram-needs-weights-dir",
        ),
        (
            "Exception: For an ML Program, extension must be .mlpackage (not .bin). Please see the docs.",
            "coreml-mlprogram-save-extension",
        ),
        (
            "ValueError: coremltools.ComputeUnit.CPU_AND_NE is only available on macOS >= 13.0",
            "coreml-compute-units-cpu-and-ne",
        ),
        (
            'Error Domain=com.apple.CoreML Code=0 "Failed to build the model execution plan using a model '
            "architecture file '/var/m.mlmodelc/model.mil' with error code: -14.\"",
            "coreml-execution-plan-failed",
        ),
    ],
)
def test_coremls_own_sentences_have_entries(kb: KnowledgeBase, text: str, entry: str) -> None:
    top = _top(kb, text)
    assert (top.entry.id, top.entry.family) == (entry, "coreml")


def test_the_execution_plan_code_is_shown(kb: KnowledgeBase) -> None:
    top = _top(kb, "Failed to build the model execution plan using in-memory model with error code: -7.")
    assert ("value", "-7") in top.captures
    assert "-7" in top.cause


@pytest.mark.parametrize(
    ("text", "entry", "captured"),
    [
        (
            "java.lang.IllegalArgumentException: Cannot copy to a TensorFlowLite tensor (input_img) with "
            "1228800 bytes from a Java Buffer with 307200 bytes.",
            "tflite-java-copy-to-tensor-bytes",
            ("got", "307200"),
        ),
        (
            "java.lang.IllegalArgumentException: Cannot copy from a TensorFlowLite tensor (StatefulCall:1) "
            "with shape [1, 84, 8400] to a Java object with shape [1, 25200, 85].",
            "tflite-java-copy-from-tensor-shape",
            ("shape", "1, 84, 8400"),
        ),
        (
            "java.lang.IllegalArgumentException: Cannot copy from a TensorFlowLite tensor (logits) with 40 "
            "bytes to a Java Buffer with 20 bytes.",
            "tflite-java-copy-from-tensor-shape",
            ("tensor", "logits"),
        ),
        (
            "Internal error: Cannot create interpreter: Op builtin_code out of range: 161. Are you using old "
            "TFLite binary with newer model?",
            "tflite-builtin-code-out-of-range",
            ("value", "161"),
        ),
        (
            "java.lang.IllegalArgumentException: ByteBuffer is not a valid flatbuffer model",
            "tflite-not-a-valid-flatbuffer",
            None,
        ),
        (
            "ValueError: None is only supported in the 1st dimension. Tensor 'pixels' has invalid shape "
            "'[1, None, None, 3]'.",
            "tflite-converter-none-only-first-dim",
            ("tensor", "pixels"),
        ),
        (
            "RuntimeError: Quantization not yet supported for op: 'NON_MAX_SUPPRESSION_V5'.",
            "tflite-quantization-not-supported-for-op",
            ("op_type", "NON_MAX_SUPPRESSION_V5"),
        ),
        (
            "ValueError: For full integer quantization, a `representative_dataset` must be specified.",
            "tflite-representative-dataset-required",
            None,
        ),
        (
            'Can not open OpenCL library on this device - dlopen failed: library "libOpenCL.so" not found',
            "tflite-gpu-opencl-library",
            None,
        ),
        (
            "error: 'tf.RaggedTensorToTensor' op is neither a custom op nor a flex op",
            "tflite-neither-custom-nor-flex",
            ("op_type", "tf.RaggedTensorToTensor"),
        ),
    ],
)
def test_tflites_own_sentences_have_entries(
    kb: KnowledgeBase, text: str, entry: str, captured: tuple[str, str] | None
) -> None:
    _answers_with(kb, text, entry, "tflite", captured, named=False)


@pytest.mark.parametrize(
    "text",
    [
        "java.lang.IllegalArgumentException: Internal error: Failed to run on the given Interpreter: "
        "tensorflow/lite/kernels/gather.cc:158 indices has not enough dims",
        "java.lang.IllegalStateException: Internal error: Unexpected failure when preparing tensor "
        "allocations: Node number 12 (FlexErf) failed to prepare.",
    ],
)
def test_the_java_envelope_ranks_under_the_inner_tflite_reason(kb: KnowledgeBase, text: str) -> None:
    found = kb.lookup(text, top=3)
    assert found[0].entry.family == "tflite"
    ids = [m.entry.id for m in found]
    assert any(i in ids for i in ("tflite-java-failed-to-run", "tflite-java-preparing-tensor-allocations"))


def test_the_java_envelope_alone_names_its_reason(kb: KnowledgeBase) -> None:
    top = _top(kb, "Internal error: Failed to run on the given Interpreter: something odd happened")
    assert top.entry.id == "tflite-java-failed-to-run"
    assert "something odd happened" in top.cause


@pytest.mark.parametrize(
    ("text", "family"),
    [
        # each tool's own wording around a reason no entry has
        ('Error Domain=com.apple.CoreML Code=1 "weird thing went wrong"', "coreml"),
        ("MLMultiArray shape mismatch for feature 'x', got something odd", "coreml"),
        ("java.lang.IllegalArgumentException: Invalid input to TensorFlowLite tensor foo", "tflite"),
        ("Exception from src/inference/src/cpp/infer_request.cpp:231: something odd", "openvino"),
    ],
)
def test_a_tools_own_envelope_names_it(kb: KnowledgeBase, text: str, family: str) -> None:
    assert _top(kb, text).entry.family == family


@pytest.mark.parametrize(
    "text",
    [
        'Error Domain=NSCocoaErrorDomain Code=260 "The file could not be opened."',
        "java.lang.IllegalArgumentException: Internal error: buffer is too small",
        "RuntimeError: shape is dynamic, cannot get static shape",
    ],
)
def test_the_same_envelopes_without_the_tool_are_not_lent_to_it(kb: KnowledgeBase, text: str) -> None:
    """No marker or pattern of these tools fires: at most a wording-only guess, never above low confidence."""
    found = answer(kb, text)
    if found.matches and found.matches[0].entry.family in ("coreml", "tflite", "openvino"):
        assert found.basis == "words" and found.confidence == "low"


def test_the_log_scan_reports_the_new_single_lines(kb: KnowledgeBase) -> None:
    log = (
        "loading model\n"
        "Op builtin_code out of range: 161. Are you using old TFLite binary with newer model?\n"
        "step done\n"
        "Cannot create GridSample layer gs id:3 from unsupported opset: opset9\n"
        "all done\n"
    )
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.matches[0].entry.id for p in problems] == [
        "tflite-builtin-code-out-of-range",
        "openvino-ir-unsupported-opset",
    ]


@pytest.mark.parametrize(
    ("text", "entry", "captured"),
    [
        (
            "[GPU] Exceeded max size of memory object allocation: requested 5368709120 bytes, but max "
            "alloc size supported by device is 4294959104 bytes.Please try to reduce batch size or use lower "
            "precision.",
            "openvino-gpu-exceeded-max-alloc",
            ("limit", "4294959104"),
        ),
        (
            "Exceeded max size of memory object allocation: Requested 700000000 bytes but max alloc size is "
            "536870912 bytes",
            "openvino-gpu-exceeded-max-alloc",
            ("requested", "700000000"),
        ),
        (
            "Check 'layout.has_upper_bound()' failed at "
            "src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp:99:\n"
            "[GPU] Dynamic shape without upper bound tries to allocate",
            "openvino-gpu-dynamic-without-upper-bound",
            None,
        ),
        (
            "ERROR: Model provided has model identifier 'PK\x03\x04', should be 'TFL3'",
            "tflite-model-identifier-not-tfl3",
            None,
        ),
        (
            "Model provided must have at least 7 bytes to hold identifier.",
            "tflite-model-identifier-not-tfl3",
            None,
        ),
        (
            "ValueError: Failed to load delegate from edgetpu.dll",
            "tflite-failed-to-load-delegate",
            ("library", "edgetpu.dll"),
        ),
        (
            "NotImplementedError: Unsupported fx node aten_grid_sampler_3d, kind grid_sampler_3d",
            "coreml-unsupported-fx-node",
            ("op_type", "grid_sampler_3d"),
        ),
        (
            "ValueError: Torch op gelu already registered.",
            "coreml-torch-op-already-registered",
            ("op", "gelu"),
        ),
        (
            "TypeError: int8 dtype for inputs is only supported for deployment target >= iOS26",
            "coreml-io-dtype-needs-deployment-target",
            ("dtype", "int8"),
        ),
    ],
)
def test_allocation_identifier_delegate_and_registry_checks(
    kb: KnowledgeBase, text: str, entry: str, captured: tuple[str, str] | None
) -> None:
    _answers_with(kb, text, entry, None, captured)


@pytest.mark.parametrize(
    ("text", "entry", "captured"),
    [
        (
            "E5RT encountered an STL exception. msg = MILCompilerForANE error: failed to compile ANE model "
            "using ANEF. Error=_ANECompiler : ANECCompile() FAILED.",
            "coreml-e5rt-ane-compile-failed",
            None,
        ),
        (
            "E5RT encountered an STL exception. msg = Input: audio_features has unbounded dimension which is "
            "not supported.",
            "coreml-e5rt-unbounded-dimension",
            ("input", "audio_features"),
        ),
        (
            "E5RT encountered an STL exception. msg = unordered_map::at: key not found.",
            "coreml-e5rt-stl-exception",
            ("reason", "unordered_map::at: key not found."),
        ),
    ],
)
def test_the_core_ml_runtimes_own_log_line(
    kb: KnowledgeBase, text: str, entry: str, captured: tuple[str, str] | None
) -> None:
    _answers_with(kb, text, entry, "coreml", captured)


def test_the_ane_failure_is_said_to_be_a_fallback_when_the_model_runs(kb: KnowledgeBase) -> None:
    top = _top(kb, "MILCompilerForANE error: failed to compile ANE model using ANEF")
    assert top.entry.id == "coreml-e5rt-ane-compile-failed"
    assert "fallback" in top.fix


def test_a_node_that_failed_to_invoke_is_not_a_prepare_failure(kb: KnowledgeBase) -> None:
    top = _top(kb, "Node number 12 (FlexStridedSlice) failed to invoke.")
    assert top.entry.id == "tflite-node-failed-to-invoke"
    assert ("op_type", "FlexStridedSlice") in top.captures
    assert _top(kb, "Node number 12 (CONV_2D) failed to prepare.").entry.id == "tflite-node-failed-to-prepare"


@pytest.mark.parametrize(
    ("text", "entry", "captured"),
    [
        (
            "ValueError: Incompatible dim 1 in shapes (1, 77, 768) vs. (1, 64, 768)",
            "coreml-mil-incompatible-broadcast-dim",
            ("other", "(1, 64, 768)"),
        ),
        (
            "ValueError: 'shape' must be provided in the 'inputs' argument for pytorch conversion",
            "coreml-torch-input-shape-required",
            None,
        ),
        (
            "ValueError: Model should be an instance of either torch.jit.ScriptModule or ExportedProgram",
            "coreml-torch-model-not-scriptmodule",
            None,
        ),
        (
            "ValueError: Input (image_in) provided is not found in given tensorflow graph. Placeholders in "
            "graph are: ['serving_default_image']",
            "coreml-tf-input-not-in-graph",
            ("input", "image_in"),
        ),
    ],
)
def test_coremltools_frontend_and_mil_checks(
    kb: KnowledgeBase, text: str, entry: str, captured: tuple[str, str] | None
) -> None:
    _answers_with(kb, text, entry, "coreml", captured)
