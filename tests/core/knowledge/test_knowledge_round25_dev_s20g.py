"""Issue 23, round 25's dev forms answered at their cause (s20g): onnx-tensorrt's uncaught attribute
lookup and TensorRT 7's constant-only Range; the CoreML execution provider's zero-element input and
onnxruntime-gpu's TensorRT plugin registration; HCCL's task timeout and MindX SDK's model execution over
AscendCL; LiteRT-LM's missing model section; Vision's image-input check, Core ML's multi-array
constraint, multifunction models and a class method missing on an older OS; MNN's model-buffer check;
OpenVINO Model Server's layout and shape parameters.

Each message is written from the vendor's own wording (the sources each entry cites) with names and
values of our own; none is a message of the evaluation set."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.answer import confidence_of
from tests.support.advice import assert_answered


def test_onnx_tensorrt_attribute_not_found(kb: KnowledgeBase) -> None:
    msg = (
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  Attribute not found: pads"
    )
    top = assert_answered(kb, msg, ("'pads'", "opset"), entry="tensorrt-s20g-onnx-attribute-not-found")
    assert top.entry.family == "tensorrt"


def test_attribute_not_found_alone_is_no_tensorrt_answer(kb: KnowledgeBase) -> None:
    """Other programs print 'Attribute not found: x' too; only the uncaught out_of_range form is
    the parser's pattern: the bare words are at most a partial match, and the answer says so."""
    top = kb.lookup("KeyError: Attribute not found: color", top=1)
    assert (
        not top
        or top[0].entry.id != "tensorrt-s20g-onnx-attribute-not-found"
        or (top[0].reason == "partial" and confidence_of(top[0])[0] != "high")
    )


def test_range_inputs_must_be_initializers(kb: KnowledgeBase) -> None:
    msg = (
        "ERROR: ModelImporter.cpp:162 In function parseGraph:\n[6] Invalid Node - Range_57\n"
        "All inputs to range should be initializers."
    )
    assert_answered(
        kb, msg, ("--fold-constants", "INT32"), entry="tensorrt-s20g-range-inputs-not-initializers"
    )


def test_coreml_ep_zero_element_input(kb: KnowledgeBase) -> None:
    msg = (
        "[E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code "
        "returned while running CoreML_1 node. Name:'CoreMLExecutionProvider_CoreML_1_0' "
        "Status Message: coreml_execution_provider.cc:190 operator() Input (cache_in) has a "
        "dynamic shape ({-1,8,32}) but the runtime shape ({0,8,32}) has zero elements. "
        "This is not supported by the CoreML EP."
    )
    assert_answered(
        kb,
        msg,
        ("'cache_in'", "{-1,8,32}", "{0,8,32}"),
        entry="onnxruntime-s20g-coreml-ep-zero-element-input",
    )


def test_tensorrt_plugins_not_registered(kb: KnowledgeBase) -> None:
    msg = (
        "EP Error /onnxruntime_src/onnxruntime/python/onnxruntime_pybind_state.cc:490 void "
        "onnxruntime::python::RegisterTensorRTPluginsAsCustomOps(PySessionOptions&, "
        "const ProviderOptions&) Please install TensorRT libraries as mentioned in the GPU "
        "requirements page, make sure they're in the PATH or LD_LIBRARY_PATH, and that your "
        "GPU is supported."
    )
    assert_answered(
        kb,
        msg,
        ("get_available_providers", "LD_LIBRARY_PATH"),
        entry="onnxruntime-s20g-tensorrt-plugins-not-loaded",
    )


def test_hccl_task_timeout(kb: KnowledgeBase) -> None:
    msg = (
        "EI9999: Inner Error!\nEI9999: The error from device(chipId:1, dieId:0), serial number "
        "is 4, hccl fftsplus task timeout occurred during task execution, stream_id:3, sq_id:3, "
        "task_id:900, stuck notify num:1, timeout:20min(default)."
        "[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo]"
    )
    assert_answered(kb, msg, ("20min", "HCCL_EXEC_TIMEOUT"), entry="ascend-s20g-hccl-task-timeout")


def test_mindx_model_infer_execute(kb: KnowledgeBase) -> None:
    msg = (
        "E20240301 08:00:00.000001  101 MxOmModelDesc.cpp:855] [507011][Error code unknown] "
        "Failed to model infer execute, details seen in CANN document.\n"
        "E20240301 08:00:00.000002  101 MxOmModelDesc.cpp:129] Model Infer failed."
    )
    top = assert_answered(
        kb,
        msg,
        ("507011", "ACL_ERROR_RT_MODEL_EXECUTE"),
        entry="ascend-s20g-mindx-model-infer-execute",
    )
    assert top.entry.family == "ascend"


def test_litertlm_section_missing(kb: KnowledgeBase) -> None:
    msg = "Failed to create engine: NOT_FOUND: TF_LITE_EMBEDDER not found in the model."
    assert_answered(kb, msg, ("TF_LITE_EMBEDDER", "NPU"), entry="tflite-s20g-litertlm-section-not-found")


@pytest.mark.parametrize(
    ("msg", "entry", "named"),
    [
        (
            'Error Domain=com.apple.vis Code=15 "The model does not have a valid input feature '
            'of type image" UserInfo={NSLocalizedDescription=The model does not have a valid '
            "input feature of type image}",
            "coreml-s20g-vision-needs-image-input",
            ("ct.ImageType",),
        ),
        (
            'RuntimeError: {\n    NSLocalizedDescription = "MultiArrayConstraint only allows '
            'MultiArrays";\n}',
            "coreml-s20g-multiarray-constraint",
            ("numpy array",),
        ),
        (
            "NSLocalizedDescription = \"`MLModelConfiguration`'s `.functionName` property must be "
            '`nil` unless the model type is ML Program.";',
            "coreml-s20g-function-name-needs-mlprogram",
            ("mlprogram", "save_multifunction"),
        ),
        (
            "2020-02-02 10:00:00.000 python[1:2] +[MLModel compileModelAtURL:error:]: "
            "unrecognized selector sent to class 0x7fff00000000",
            "coreml-objc-unrecognized-selector",
            ("MLModel", "compileModelAtURL:error:"),
        ),
    ],
)
def test_core_ml_runtime_forms(kb: KnowledgeBase, msg: str, entry: str, named: tuple[str, ...]) -> None:
    assert_answered(kb, msg, named, entry=entry)


def test_mnn_invalid_model_buffer(kb: KnowledgeBase) -> None:
    msg = "load ./models/llm.mnn ... Invalidate buffer to create MNN Module\nLoad Module Done!"
    assert_answered(kb, msg, ("MNNConvert", "git lfs"), entry="mnn-s20g-invalidate-buffer")


@pytest.mark.parametrize(
    ("msg", "param"),
    [
        (
            "[2024-01-01 00:00:00.000][7][modelmanager][error][modelconfig.cpp:90] "
            "Couldn't parse layout parameter",
            "layout",
        ),
        (
            "[2024-01-01 00:00:00.000][7][serving][error][server.cpp:186] "
            "ovms::ModelManager::Start() Error: The provided shape is in wrong format",
            "shape",
        ),
    ],
)
def test_ovms_parameter_format(kb: KnowledgeBase, msg: str, param: str) -> None:
    top = assert_answered(
        kb, msg, (f"the {param} parameter",), entry="openvino-s20g-ovms-parameter-wrong-format"
    )
    assert top.entry.family == "openvino"
