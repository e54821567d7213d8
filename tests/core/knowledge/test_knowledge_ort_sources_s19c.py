"""s19c: onnxruntime's own checks that no entry or clause read yet, each answered from the wording of the code
that prints it (microsoft/onnxruntime's C++ kernels and session, its C API, the C#, Java and JavaScript
bindings, the quantization tool).  Every message is the vendor's wording with names and values of our own;
the advice must carry the node, tensor, name, size or version the message gave."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

_RUN = (
    "[ONNXRuntimeError] : {code} : {name} : Non-zero status code returned while running {op} node. "
    "Name:'{node}' "
)

CLAUSE_CASES = [
    (
        _RUN.format(code=2, name="INVALID_ARGUMENT", op="Slice", node="/dec/Slice_7")
        + "Status Message: slice_helper.h:130 FillVectorsFromInput Starts and axes shape mismatch",
        "ort-slice-input-lengths",
        ("/dec/Slice_7", "starts and axes", "one length"),
    ),
    (
        _RUN.format(code=2, name="INVALID_ARGUMENT", op="Slice", node="/head/Slice_2")
        + "Status Message: slice_helper.h:128 FillVectorsFromInput Ends must be a 1-D array",
        "ort-slice-input-rank",
        ("/head/Slice_2", "Ends input", "Unsqueeze"),
    ),
    (
        _RUN.format(code=2, name="INVALID_ARGUMENT", op="Slice", node="/rev/Slice")
        + "Status Message: 'step' value cannot be 0",
        "ort-slice-step-zero",
        ("/rev/Slice", "non-zero"),
    ),
    (
        _RUN.format(code=2, name="INVALID_ARGUMENT", op="Slice", node="/crop/Slice_1")
        + "Status Message: 'axes' has an axis outside of the tensor dimension count",
        "ort-slice-axes-invalid",
        ("/crop/Slice_1", "an axis outside of the tensor dimension count", "[-r, r-1]"),
    ),
    (
        _RUN.format(code=6, name="RUNTIME_EXCEPTION", op="Resize", node="/mask_up/Resize_1")
        + "Status Message: upsamplebase.h:334 ScalesValidation Scale value should be greater than 0.",
        "ort-resize-scale-not-positive",
        ("/mask_up/Resize_1", "output size / input size"),
    ),
    (
        _RUN.format(code=6, name="RUNTIME_EXCEPTION", op="Upsample", node="up_3")
        + "Status Message: upsamplebase.h:120 ScalesValidation scale >= 1 was false. Scale value should be "
        "greater than or equal to 1.",
        "ort-upsample-scale-below-one",
        ("up_3", "opset 11", "Resize"),
    ),
    (
        _RUN.format(code=6, name="RUNTIME_EXCEPTION", op="Resize", node="/fpn/Resize")
        + "Status Message: upsamplebase.h:139 ScalesValidation 'Linear' mode and 'Cubic' mode only "
        "support 2-D inputs ('Bilinear', 'Bicubic') or 4-D inputs with the corresponding outermost 2 scale "
        "values being 1 in the Resize operator",
        "ort-resize-linear-outer-scales",
        ("/fpn/Resize", "Linear", "[1, 1, 2, 2]"),
    ),
    (
        _RUN.format(code=6, name="RUNTIME_EXCEPTION", op="Cast", node="logits_cast")
        + "Status Message: bfc_arena.cc:359 AllocateRawInternal Available memory of 34603008 is smaller than "
        "requested bytes of 945815552",
        "ort-arena-memory-limit",
        ("logits_cast", "34603008 bytes", "945815552", "gpu_mem_limit"),
    ),
    (
        _RUN.format(code=1, name="FAIL", op="Conv", node="/stem/Conv")
        + "Status Message: MIOPEN failure 3: miopenStatusBadParm ; GPU=1 ; hostname=node7 ; "
        "expr=miopenFindConvolutionForwardAlgorithm(handle, x, w); ",
        "ort-rocm-call-failure",
        ("/stem/Conv", "MIOPEN", "miopenStatusBadParm", "GPU 1", "rocminfo"),
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Invalid Output Name:det_boxes",
        "ort-invalid-output-name",
        ("'det_boxes'", "session.get_outputs()"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), CLAUSE_CASES, ids=[c[1] for c in CLAUSE_CASES])
def test_a_kernel_or_session_check_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


def test_a_hip_failure_without_a_node_reads_as_a_node_not_named(kb: KnowledgeBase) -> None:
    top = assert_answered(
        kb,
        "HIP failure 2: out of memory ; GPU=0 ; hostname=box ; expr=hipMalloc((void**)&p, bytes); ",
        ("HIP", "out of memory", "hipMalloc"),
        clause="ort-rocm-call-failure",
    )
    assert "while a node ran" in top.cause


ENTRY_CASES = [
    (
        "The requested API version [22] is not available, only API versions [1, 17] are supported in this "
        "build. Current ORT Version is: 1.17.1",
        "onnxruntime-c-api-version-unavailable",
        ("version 22", "up to 17", "1.17.1", "System32"),
    ),
    (
        "The given version [16] is not supported, only version 1 to 13 is supported in this build.",
        "onnxruntime-c-api-version-unavailable",
        ("version 16", "up to 13"),
    ),
    (
        "System.DllNotFoundException: Unable to load DLL 'onnxruntime' or one of its dependencies: The "
        "specified module could not be found. (Exception from HRESULT: 0x8007007E)",
        "onnxruntime-dotnet-native-library-not-loaded",
        ("'onnxruntime'", "RuntimeIdentifier", "Visual C++"),
    ),
    (
        "Microsoft.ML.OnnxRuntime.OnnxRuntimeException: [ErrorCode:InvalidArgument] Output name: "
        "'scores_out' is not in the metadata",
        "onnxruntime-dotnet-name-not-in-metadata",
        ("'scores_out'", "OutputMetadata"),
    ),
    (
        "ai.onnxruntime.OrtException: Unknown input name pixel_values, expected one of [images, orig_size]",
        "onnxruntime-java-unknown-input-name",
        ("'pixel_values'", "images, orig_size"),
    ),
    (
        'Exception in thread "main" java.lang.RuntimeException: Failed to load onnx-runtime library',
        "onnxruntime-java-native-library-not-loaded",
        ("onnxruntime.native.path", "onnxruntime4j_jni"),
    ),
    (
        "Uncaught (in promise) Error: Tensor's size(1228800) does not match data length(1638400).",
        "onnxruntime-web-tensor-size-data-length",
        ("1228800", "1638400", "RGBA"),
    ),
    (
        "ValueError: Quantization parameters are not specified for param /backbone/Relu_3_output_0. In "
        "static mode quantization params for inputs and outputs of nodes to be quantized are required.",
        "onnxruntime-quantization-params-missing",
        ("/backbone/Relu_3_output_0", "rewind()", "nodes_to_exclude"),
    ),
    (
        "[W:onnxruntime:, model.cc:215 Model] ONNX Runtime only *guarantees* support for models stamped "
        "with opset version 7 or above for opset domain 'ai.onnx'. Please upgrade your model to opset 7 or "
        "higher. For now, this opset 5 model may run depending upon legacy support of some older opset "
        "version operators.",
        "onnxruntime-opset-below-7-guarantee",
        ("opset import is 5", "convert_version"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), ENTRY_CASES, ids=[c[1] for c in ENTRY_CASES])
def test_a_binding_or_tool_message_is_answered_by_its_entry(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_the_dotnet_load_failure_is_onnxruntime_not_a_coreml_library(kb: KnowledgeBase) -> None:
    """Before s19c this message was answered, confidently, by coremltools' missing native library entry."""
    answer = kb.answer(
        "Unable to load DLL 'onnxruntime' or one of its dependencies: The specified module could not be "
        "found."
    )
    assert answer.confident
    assert answer.matches[0].entry.family == "onnxruntime"
