"""Issue 23, advice specific to messages the KB was not written from: three reason clauses (TensorRT's
optimization-profile check quoted by onnxruntime's TensorRT execution provider, the session's 'Exception
during initialization: <what>', onnx's OpSchema::Finalize check of a model-local function), TensorRT 7's
reversed profile condition, TFLite's TF_LITE_ENSURE_EQ with its values, and the log files the Ascend bare
inner-error cards send the reader to.

Each message is written from the vendor's own wording (TensorRT's setBindingDimensions conditions and
onnxruntime's TensorrtLogger prefix, inference_session.cc, onnx's schema.cc, tensorflow/lite/core/c/common.h,
CANN's '<code>: Inner Error!' layout) with names and values of our own; none is a message of the evaluation
set."""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_advice, assert_answered

_TRT_LOGGER = (
    "2024-03-02 10:11:12.123456789 [E:onnxruntime:Default, tensorrt_execution_provider.h:88 "
    "onnxruntime::TensorrtLogger::log] [2024-03-02 10:11:12   ERROR] Parameter check failed at: "
    "engine.cpp::nvinfer1::rt::ExecutionContext::setBindingDimensions::1136, condition: {cond}"
)


def test_trt_ep_shape_outside_profile_answers_both_orders(kb: KnowledgeBase) -> None:
    for cond in ("profileMaxDims.d[i] >= dimensions.d[i]", "profileMinDims.d[i] <= dimensions.d[i]"):
        top = assert_answered(
            kb,
            _TRT_LOGGER.format(cond=cond),
            (cond, "trt_profile_max_shapes", "trt_engine_cache_path"),
            clause="ort-trt-ep-shape-outside-profile",
        )
        assert top.entry.family == "onnxruntime"


def test_trt_profile_condition_reversed_form_under_tensorrt(kb: KnowledgeBase) -> None:
    # TensorRT 7 prints the kMAX condition with the profile first; TensorRT's own card reads it too.
    message = (
        "[TRT] [E] 3: [executionContext.cpp::setBindingDimensions::944] Error Code 3: API Usage Error "
        "(Parameter check failed at: runtime/api/executionContext.cpp::setBindingDimensions::944, condition: "
        "profileMaxDims.d[i] >= dimensions.d[i]. Supplied binding dimension [4,3,640,640] for bindings[0] "
        "exceed min ~ max range at index 0, maximum dimension in profile is 1, minimum dimension in profile "
        "is 1, but supplied dimension is 4.)"
    )
    top = kb.lookup(message, top=1)[0]  # Error Code 3's card, answered by the clause
    assert top.entry.id.endswith("+trt-api-binding-dims-outside-profile"), top.entry.id
    assert_advice(top, ("profileMaxDims.d[i] >= dimensions.d[i]", "get_profile_shape", "--maxShapes"))
    bare = "[E] [TRT] Parameter check failed at: engine.cpp::nvinfer1::rt::ExecutionContext::"
    bare += "setBindingDimensions::1136, condition: profileMaxDims.d[i] >= dimensions.d[i]"
    top = kb.lookup(bare, top=1)[0]
    assert top.entry.id == "family-tensorrt+trt-api-binding-dims-outside-profile", top.entry.id


def test_exception_during_initialization_names_what_was_thrown(kb: KnowledgeBase) -> None:
    message = (
        "2023-01-05 08:09:10.111 [E:onnxruntime:, inference_session.cc:1532 operator()] Exception during "
        "initialization: KeyError: 'pads_mode'\n\nAt:\n  /opt/venv/lib/python3.9/site-packages/acme_ep/"
        "frontend/conv.py(212): convert"
    )
    assert_answered(
        kb,
        message,
        ("KeyError: 'pads_mode'", "CPUExecutionProvider", "'At:'"),
        clause="ort-exception-during-initialization",
    )


def test_tflite_ensure_eq_names_the_check_and_its_values(kb: KnowledgeBase) -> None:
    message = (
        "RuntimeError: Internal error: Unexpected failure when preparing tensor allocations: "
        "tensorflow/lite/kernels/concatenation.cc:158 t->dims->data[d] != t0->dims->data[d] (7 != 9)"
    )
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == "tflite-ensure-eq", top.entry.id
    assert_advice(top, ("kernels/concatenation.cc", "t->dims->data[d]", "7 against 9"))


def test_ascend_inner_error_cards_name_the_log_files(kb: KnowledgeBase) -> None:
    message = (
        "EE9999: Inner Error!\nEE9999  rtStreamSynchronize execute failed, reason=[vector core exception]"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:50]\n        TraceBack (most recent call "
        "last):\n        synchronize stream failed, runtime result = 507035[FUNC:ReportCallError]"
        "[FILE:log_inner.cpp][LINE:161]"
    )
    ids = [m.entry.id for m in kb.lookup(message, top=5)]
    card = next(m for m in kb.lookup(message, top=5) if m.entry.id == "ascend-EE9999")
    assert "ascend-EE9999" in ids
    for part in (
        "TraceBack (most recent call last):",
        "debug/plog/plog-<pid>",
        "device-<id>",
        "ASCEND_PROCESS_LOG_PATH",
    ):
        assert part in card.fix, (part, card.fix)


def test_schema_finalize_check_names_the_function_and_its_check(kb: KnowledgeBase) -> None:
    message = (
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from "
        "/data/m/model.onnx failed:ONNX Schema pkg_acme_Block_forward_3: failed validating the check: "
        "!(it.GetName().empty())"
    )
    assert_answered(
        kb,
        message,
        ("pkg_acme_Block_forward_3", "!(it.GetName().empty())", "inline_local_functions"),
        clause="onnx-schema-finalize-check",
    )
