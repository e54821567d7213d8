"""Branch s27b: onnxruntime and torch.export / torch.onnx entries written from the tools' own sources.

Each row is the text as the source prints it (onnxruntime's Python binding and wrapper, its provider-option
parser, tensorprotoutils.cc, graph.cc, inference_session.cc, the C# binding's native entry point, the
NonMaxSuppression kernel; torch/_export/non_strict_utils.py, torch.onnx's dynamo exporter) with made-up
values, answered by its entry (or reason clause) with the captured parts in the advice.  The negative tests
pin where an entry stops: a step that succeeded, the same schema wording outside onnxruntime's envelope, and
the NMS wording of no tool.
"""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import answered_by_entry, assert_answered

CASES = [
    # ---- onnxruntime: Python API ----
    (
        "RuntimeError: Failed to find NodeArg with name: zz_pixels in the def list",
        "onnxruntime-s27b-iobinding-nodearg-not-found",
        ("zz_pixels", "get_inputs()"),
    ),
    (
        "ValueError: Model requires 27 inputs. Input Feed contains 2",
        "onnxruntime-s27b-feed-fewer-inputs",
        ("27 inputs", "2 entries", "past"),
    ),
    (
        "TypeError: run(): incompatible function arguments. The following argument types are supported:\n"
        "    1. (self: onnxruntime.capi.onnxruntime_pybind11_state.InferenceSession, arg0: List[str], arg1: "
        "Dict[str, object], arg2: onnxruntime.capi.onnxruntime_pybind11_state.RunOptions) -> List[object]",
        "onnxruntime-s27b-pybind-run-argument-types",
        ("run()", "InferenceSession", "numpy"),
    ),
    # ---- onnxruntime: provider options ----
    (
        "onnxruntime.capi.onnxruntime_pybind11_state.InvalidArgument: [ONNXRuntimeError] : 2 : "
        'INVALID_ARGUMENT : Unknown provider option: "zz_fp16_enable".',
        "onnxruntime-s27b-unknown-provider-option",
        ("'zz_fp16_enable'", "get_provider_options"),
    ),
    (
        '[ONNXRuntimeError] : 1 : FAIL : Failed to parse provider option "gpu_mem_limit": Failed to parse '
        'value: "3GB"',
        "onnxruntime-s27b-provider-option-parse-failed",
        ("'gpu_mem_limit'", "integer"),
    ),
    # ---- onnxruntime: model loading and graph resolution ----
    (
        "[ONNXRuntimeError] : 1 : FAIL : Load model from zz.onnx failed:tensorprotoutils.cc:872 "
        "UnpackTensor: the pre-allocated size does not match the raw data size, expected 4096, got 2048",
        "onnxruntime-s27b-unpack-tensor-size-mismatch",
        ("4096", "2048", "numpy_helper"),
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Node (zz_aten_3) output arg (zz_out_7) type inference failed",
        "onnxruntime-s27b-output-type-inference-failed",
        ("zz_aten_3", "zz_out_7", "value_info"),
    ),
    (
        "ai.onnxruntime.OrtException: Error code - ORT_INVALID_GRAPH - message: This is an invalid model. "
        "Error in Node:/zz/Unsqueeze : Node (/zz/Unsqueeze) has input size 2 not in range [min=1, max=1].",
        "onnxruntime-s27b-invalid-model-input-count",
        ("/zz/Unsqueeze", "2 inputs", "1 to 1", "version_converter"),
    ),
    (
        "[W:onnxruntime:, inference_session.cc:1978 Initialize] Serializing optimized model with Graph "
        "Optimization level greater than ORT_ENABLE_EXTENDED and the NchwcTransformer enabled. The generated "
        "model may contain hardware specific optimizations, and should only be used in the same environment "
        "the model was optimized in.",
        "onnxruntime-s27b-nchwc-serialize-warning",
        ("ORT_ENABLE_EXTENDED", "com.microsoft.nchwc"),
    ),
    # ---- onnxruntime: the C# binding ----
    (
        "System.EntryPointNotFoundException: Unable to find an entry point named 'OrtGetApiBase' in DLL "
        "'onnxruntime'.",
        "onnxruntime-s27b-csharp-ortgetapibase-entry-point",
        ("OrtGetApiBase", "System32", "runtimes/<rid>/native"),
    ),
    # ---- onnxruntime: static quantization's calibrator ----
    (
        '  File "/zz/site-packages/onnxruntime/quantization/calibrate.py", line 377, in collect_data\n'
        '    raise ValueError("No data is collected.")\nValueError: No data is collected.',
        "onnxruntime-s27b-quant-calibration-no-data",
        ("get_next()", "rewind()"),
    ),
    # ---- torch.export under torch.onnx.export(dynamo=True) ----
    (
        "ValueError: Found the following conflicts between user-specified ranges and inferred ranges from "
        "model tracing:\n- Received user-specified dim hint Dim.DYNAMIC(min=None, max=None), but export 0/1 "
        "specialized due to hint of 1 for dimension inputs['zz'].shape[0].",
        "torch-onnx-s27b-export-dim-hint-conflict",
        ("inputs['zz'].shape[0]", "size 2 or more"),
    ),
    (
        "Received user-specified dim hint Dim.DYNAMIC, but tracing inferred a static shape of 77 for "
        "dimension inputs['zz_tokens'].shape[1].",
        "torch-onnx-s27b-export-dim-hint-conflict",
        ("inputs['zz_tokens'].shape[1]", "77", "TORCH_LOGS"),
    ),
    (
        "- Received user-specified min/max range of [1, 8192], conflicting with the inferred min/max range "
        "of [1, 1024], for inputs['zz_ids'].shape[1].",
        "torch-onnx-s27b-export-dim-range-conflict",
        ("inputs['zz_ids'].shape[1]", "8192", "1024"),
    ),
    (
        "FutureWarning: torch.onnx.dynamo_export is deprecated since 2.7.0. Please use "
        "torch.onnx.export(..., dynamo=True) instead.",
        "torch-onnx-s27b-dynamo-export-deprecated",
        ("2.7.0", "dynamo=True"),
    ),
    (
        "[torch.onnx] Run decomposition... ✅\n[torch.onnx] Translate the graph into ONNX... ❌",
        "torch-onnx-s27b-dynamo-step-failed",
        ("Translate the graph into ONNX", "custom_translation_table"),
    ),
]

test_each_source_form_is_answered_by_its_entry = answered_by_entry(CASES, confident=True)


def test_the_nms_layout_check_is_answered_by_its_clause(kb: KnowledgeBase) -> None:
    message = (
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running "
        "NonMaxSuppression node. Name:'zz/nms' Status Message: boxes and scores should have same "
        "spatial_dimension."
    )
    assert_answered(
        kb, message, ("zz/nms", "spatial_dimension", "permute(0, 2, 1)"), clause="ort-nms-boxes-scores-shape"
    )


def test_the_nms_wording_alone_gains_no_confidence_from_the_clause(kb: KnowledgeBase) -> None:
    """Without onnxruntime's envelope only the wording (onnxruntime's own source 4-grams) names the tool: the
    clause refines that family card's advice and adds no confidence of its own (never a high answer)."""
    found = kb.answer("The boxes and scores should have same spatial_dimension.", top=3)
    assert found.confidence != "high"
    assert all(m.entry.family == "onnxruntime" for m in found.matches[:1])


def test_a_step_that_succeeded_is_no_failed_step(kb: KnowledgeBase) -> None:
    text = "[torch.onnx] Run decomposition... ✅\n[torch.onnx] Translate the graph into ONNX... ✅"
    matches = kb.lookup(text, top=3)
    assert matches[0].entry.id != "torch-onnx-s27b-dynamo-step-failed"
    assert all(
        "pattern" not in m.reason for m in matches if m.entry.id == "torch-onnx-s27b-dynamo-step-failed"
    )


def test_the_onnx_checkers_own_input_count_error_stays_onnxs(kb: KnowledgeBase) -> None:
    """Without onnxruntime's 'This is an invalid model' envelope the schema check is onnx's checker."""
    top = kb.lookup(
        "onnx.onnx_cpp2py_export.checker.ValidationError: Node (/zz/Unsqueeze) has input size 2 not in range "
        "[min=1, max=1].",
        top=1,
    )[0]
    assert top.entry.family == "onnx"
