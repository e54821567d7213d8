"""Issue 23: message forms that had no entry of their tool, each from the vendor's own wording (OpenVINO's GPU
plugin force exit, TensorRT's CASK runner failure, coremltools' numpy type mapping, the older ONNX parser's
unsupported node, MNN's missing module outputs, onnx's duplicate metadata keys, TFLite's arena size check),
and entries that now name what they captured (onnx2ncnn's unsupported attribute, TensorRT's
no-supported-formats assertion; its internal-assertion entry also without the source location); names and
values are our own, none is a message of the evaluation set."""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from tests.support.advice import assert_answered

# (message, entry, what the advice must name)
CASES = [
    (
        "[GPU] force exit.\n\tDue to the driver bug any subsequent OpenCL API call will cause application "
        "hang, so GPU plugin can't finish correctly.\n\tPlease try to update the driver or reduce memory "
        "consumption (use smaller batch size, less streams, lower precision, etc)"
        "to avoid CL_OUT_OF_RESOURCES",
        "openvino-gpu-force-exit-driver-bug",
        ("CL_OUT_OF_RESOURCES", "ov::num_streams"),
    ),
    (
        "[03/02/2026-10:11:12] [TRT] [E] Cask Deconvolution Runner Execute Failure",
        "tensorrt-cask-runner-execute-failure",
        ("Deconvolution", "optimisation profile"),
    ),
    (
        '  File "coremltools/converters/mil/mil/types/type_mapping.py", line 469, in '
        "numpy_type_to_builtin_type\nTypeError: Unsupported numpy type: <class 'numpy.ulonglong'>.",
        "coreml-unsupported-numpy-type",
        ("numpy.ulonglong", "astype(np.int32)"),
    ),
    (
        "ERROR: /src/onnx2trt/ModelImporter.cpp:120 In function importNode:\n[8] No importer registered for "
        "op: NonMaxSuppression",
        "tensorrt-no-importer-registered-unsupported-node",
        ("NonMaxSuppression", "kUNSUPPORTED_NODE"),
    ),
    (
        "PipelineModule:: Can't find enough output from the model, finded is:\n[ boxes ] [ scores ] ",
        "mnn-pipeline-missing-output",
        ("boxes ] [ scores", "getInfo()->outputNames"),
    ),
    (
        "Unsupported squeeze axes !\nUnsupported squeeze axes !",
        "onnx2ncnn-unsupported-attribute",
        ("squeeze axes", "pnnx"),
    ),
    (
        "Error Code 2: Internal Error (Assertion !n->candidateRequirements.empty() failed. "
        "No supported formats for /head/Resize_2)",
        "tensorrt-no-supported-formats",
        ("/head/Resize_2", "precisionConstraints"),
    ),
    (
        "[E] Error Code 2: Internal Error (Assertion mNodes.size() <= kMaxNodes failed. )",
        "tensorrt-internal-assertion",
        ("Assertion mNodes.size() <= kMaxNodes", "polygraphy debug reduce"),
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: Your model has duplicate keys in metadata_props.",
        "onnx-checker-duplicate-metadata-keys",
        ("set_model_props",),
    ),
    (
        "tensorflow/lite/simple_memory_arena.cc:95 it->size != alloc.size (1536 != 512)\n"
        "ERROR: Failed to allocate tensors.",
        "tflite-arena-deallocate-size-mismatch",
        ("1536 bytes", "(512)", "AllocateTensors() after every ResizeInputTensor"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), CASES, ids=[c[1] for c in CASES])
def test_the_form_is_answered_by_its_entry_with_what_it_captured(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_the_newer_parser_s_plugin_fallback_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    """The parser that tries a plugin first says so; its line is not the older parser's hard failure."""
    message = "[TRT] [I] No importer registered for op: GridSample. Attempting to import as plugin."
    assert kb.lookup(message, top=1)[0].entry.id == "tensorrt-no-importer-registered-for-op"


@pytest.mark.parametrize("message", [c[0] for c in CASES[:2]], ids=["force-exit", "cask"])
def test_a_log_scan_reports_the_line_in_noise(kb: KnowledgeBase, message: str) -> None:
    log = "INFO loading model\n" + message + "\nINFO done\n"
    problems = scan_log(io.StringIO(log), kb)
    assert [p.matches[0].entry.id for p in problems] == [CASES[[c[0] for c in CASES].index(message)][1]]


def test_the_older_parser_s_unsupported_node_keeps_the_code_it_printed(kb: KnowledgeBase) -> None:
    """``[8]`` is the parser's ErrorCode kUNSUPPORTED_NODE: the entry that explains the line is keyed by that
    code, so the code stays among the answers (it does not push the code card out of the top three)."""
    message = CASES[3][0]
    top = kb.lookup(message, top=3)
    assert top[0].entry.id == "tensorrt-no-importer-registered-unsupported-node"
    assert "trt:UNSUPPORTED_NODE" in top[0].entry.keys
