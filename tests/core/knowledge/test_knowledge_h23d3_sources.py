"""Issue 23 (h23d3): causes and fixes read from the tools' own sources for Core ML (coremltools' torch
frontend, ct.convert and MIL checks), onnxruntime (the CPU kernels' shape checks, the CUDA EP), OpenVINO
(ov::Tensor, openvino.genai) with MSVC's map lookup, and MindSpore / MindSpore Lite on Ascend with the TBE
operators' checks.

Each case is the source's own format string with made-up names and values filled in, never an eval message:
the entry or clause that answers it, and the parts of the message its advice must name."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

ENVELOPE = (
    "[ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running {op} node. "
    "Name:'{name}' Status Message: "
)
"""onnxruntime's kernel envelope (core/framework/sequential_executor.cc) around a kernel's own message."""


def _ort(op: str, name: str, message: str) -> str:
    return ENVELOPE.format(op=op, name=name) + message


ENTRIES = [
    # apple/coremltools converters/mil/frontend/torch/ops.py
    (
        'NotImplementedError: rounding mode "trunc" not supported in the "div" op',
        "coreml-h23d3-torch-op-form-unsupported",
        ('"trunc" not supported in the "div" op', "register_torch_op"),
    ),
    (
        "ValueError: divisor_override is not supported for avg_pool2d",
        "coreml-h23d3-torch-op-form-unsupported",
        ("divisor_override is not supported for avg_pool2d",),
    ),
    (
        "NotImplementedError: Dynamic scale factors are not supported for the upsample op "
        "upsample_bilinear2d_7",
        "coreml-h23d3-torch-needs-static-value",
        ("upsample_bilinear2d_7", "ct.EnumeratedShapes"),
    ),
    (
        "ValueError: The `dims` input for torch.tile must be static (tuple of ints).",
        "coreml-h23d3-torch-needs-static-value",
        ("torch.tile must be static", "ct.RangeDim"),
    ),
    # ct.convert and the torch converter's deployment-target checks
    (
        "ValueError: State model is supported only >= iOS18. Please update the minimum_deployment_target to "
        "at "
        "least coremltools.target.iOS18",
        "coreml-h23d3-needs-deployment-target",
        ("iOS18", "minimum_deployment_target", "macOS15"),
    ),
    (
        "ValueError: To use fp16 input, please set minimum deployment target to iOS16+",
        "coreml-h23d3-needs-deployment-target",
        ("iOS16", "macOS13"),
    ),
    (
        "ValueError: For mlprogram, inputs with infinite upper_bound is not allowed. Please set upper_bound "
        "to a "
        'positive value in "RangeDim()" for the "inputs" param in ct.convert().',
        "coreml-h23d3-rangedim-infinite-upper-bound",
        ("upper_bound", "ct.RangeDim(lower_bound=1"),
    ),
    (
        "ValueError: Number of outputs provided, 1, do not match the number of outputs detected in the "
        "model, 4.",
        "coreml-h23d3-outputs-count-mismatch",
        ("names 1 outputs", "returns 4", "exactly 4 entries"),
    ),
    (
        "ValueError: Incorrect weights shape for gru layer: Expected: 4. Received 6",
        "coreml-h23d3-rnn-weights-count",
        ("gru", "expected 4", "has 6", "flatten_parameters"),
    ),
    (
        "ValueError: einsum equation 'nqd,nkd->nqk' expects 2 inputs, got 1",
        "coreml-h23d3-einsum-equation",
        ("'nqd,nkd->nqk'", "(expects 2 inputs, got 1)", "torch.matmul"),
    ),
    (
        "RuntimeError: Unknown input 'epsilon_x' for op 'layer_norm'",
        "coreml-h23d3-mil-op-inputs",
        ("layer_norm", "epsilon_x", "MIL ops reference"),
    ),
    (
        "ValueError: prelu op: x must be rank 3 or 4 or 5, instead it is of rank 2",
        "coreml-h23d3-rank-limit",
        ("(2)", "unsqueeze"),
    ),
    # openvinotoolkit/openvino.genai and openvino's ov::Tensor
    (
        "RuntimeError: Check 'm_ireq_queue_tokenizer' failed at "
        "src/cpp/src/tokenizer/tokenizer_impl.cpp:520:\n"
        "Either openvino_tokenizer.xml was not provided or it was not loaded correctly. Tokenizer::encode is "
        "not "
        "available",
        "openvino-h23d3-genai-tokenizer-missing",
        ("openvino_tokenizer.xml", "Tokenizer::encode", "convert_tokenizer"),
    ),
    (
        "Stateful LLM pipeline on NPU may only process prompts or hold chat history up to 512 tokens. 900 is "
        'passed.\n Set the "MAX_PROMPT_LEN" config option to increase the limit.',
        "openvino-h23d3-genai-npu-max-prompt-len",
        ("512 tokens", "passes 900", "MAX_PROMPT_LEN=900"),
    ),
    (
        "Both 'width' and 'height' must be divisible by 16",
        "openvino-h23d3-genai-image-size-divisible",
        ("(16)", "multiples of 16"),
    ),
    (
        "SD3Transformer2DModel::InferenceStaticBS1::compile: input tensor hidden_states shape is dynamic. "
        "Tensors "
        "must be reshaped to be static before compile is invoked.",
        "openvino-h23d3-genai-static-shape-before-compile",
        ("hidden_states", "pipe.reshape(num_images_per_prompt, height"),
    ),
    (
        "RuntimeError: Exception from src/core/src/runtime/itensor.cpp:54:\n"
        "Tensor data with element type bf16, is not representable as pointer to f32",
        "openvino-h23d3-tensor-data-type",
        ("holds bf16", "as f32", "compress_to_fp16=False"),
    ),
    (
        "RuntimeError: Exception from src/inference/src/cpp/infer_request.cpp:223:\n"
        "Can't set the input tensor with index: 0, because the model input (shape=[1,3,320,320]) and the "
        "tensor "
        "(shape=(1.3.300.300)) are incompatible",
        "openvino-tensor-shape-incompatible",
        ("(1.3.300.300)", "1,3,320,320", "model.reshape"),
    ),
    # mindspore-ai/mindspore and the MindSpore docs' CANN and MindSpore Lite troubleshooting guides
    (
        "[ERROR] DEVICE(4242,ffff0000,python):2025-01-01-00:00:00.000.000 "
        "[mindspore/ccsrc/plugin/device/ascend/"
        "hal/device/ascend_stream_manager.cc:321] SyncStream] Call runtime aclrtSynchronizeStreamWithTimeout "
        "error.",
        "ascend-h23d3-ms-sync-stream-failed",
        ("aclrtSynchronizeStreamWithTimeout", "mindspore.runtime.launch_blocking()", "Sync run failed"),
    ),
    (
        "[ERROR] DEVICE(5150,ffff0000,python):2025-01-01-00:00:00.000.000 [mindspore/ccsrc/runtime/device/"
        "kernel_runtime_manager.cc:138] WaitTaskFinishOnDevice] SyncStream failed, exception:The "
        "pointer[stream] "
        "is null.",
        "ascend-h23d3-ms-stream-null-card-occupied",
        ("The pointer[stream] is null", "npu-smi info", "less than half"),
    ),
    (
        "RuntimeError: Launch kernel failed, name:Default/network/MatMul-op77",
        "ascend-h23d3-ms-launch-kernel-failed",
        ("Default/network/MatMul-op77",),
    ),
    (
        "Out of Memory!!! Request memory size: 2147483648B, Memory Statistic:\nDevice HBM memory size: "
        "65536M",
        "ascend-h23d3-ms-out-of-memory",
        ("2147483648", "65536M", "max_device_memory"),
    ),
    (
        "Malloc device memory failed, free memory size is less than half of total memory size.Device 3 "
        "Device HBM "
        "total size:68719476736 Device HBM free size:1073741824 may be other processes occupying this card",
        "ascend-h23d3-ms-device-memory-half-used",
        ("device 3", "1073741824 of 68719476736", "python_multiprocessing=False"),
    ),
    (
        "MindSpore version 2.4.0 and Ascend AI software package (Ascend Data Center Solution)version 7.1 "
        "does not "
        "match, the version of software package expect one of ['7.5', '7.6']. Please refer to the match info "
        "on: "
        "https://www.mindspore.cn/install",
        "ascend-h23d3-ms-cann-version-mismatch",
        ("MindSpore 2.4.0", "first: 7.5", "CANN 7.1", "set_env.sh"),
    ),
    (
        "[mindspore/lite/tools/converter/converter_context.h:88] PrintOps] FMKTYPE: TFLITE, OP TYPE: "
        "MyCustomOp",
        "ascend-h23d3-mslite-unsupported-op",
        ("TFLITE", "MyCustomOp", "NodeParserRegistry"),
    ),
    (
        "[mindspore/lite/tools/converter/parser/caffe/caffe_model_parser.cc:310] ConvertLayers] parse node "
        "conv5_dw failed.",
        "ascend-h23d3-mslite-parse-node-failed",
        ("conv5_dw", "NodeParser"),
    ),
    (
        "WARNING [mindspore/lite/src/lite_model.cc:80] ConstructModel] model version is MindSpore Lite "
        "2.0.0, "
        "inference version is MindSpore Lite 2.3.1 not equal",
        "ascend-h23d3-mslite-version-not-equal",
        ("MindSpore Lite 2.0.0", "MindSpore Lite 2.3.1"),
    ),
    (
        "[mindspore/lite/src/common/tensor_util.cc:210] CheckTensorsInvalid] The shape of tensor contains "
        "negative "
        "dimension, check the model and assign the input shape with method Resize().",
        "ascend-h23d3-mslite-negative-dim",
        ("Resize()", "--inputShapes"),
    ),
]

CLAUSES = [
    # microsoft/onnxruntime core/providers/common.h, cpu kernels, cuda, python bindings
    (
        _ort("Softmax", "enc/attn/softmax", "axis -5 is not in valid range [-4,3]"),
        "ort-axis-out-of-range",
        ("enc/attn/softmax", "axis -5", "rank 4"),
    ),
    (
        _ort(
            "TopK", "det/topk", "k argument [1000] should not be greater than specified axis dim value [600]"
        ),
        "ort-topk-k-too-large",
        ("det/topk", "k = 1000", "only 600"),
    ),
    (
        _ort("Gemm", "cls/fc", "GEMM: Dimension mismatch, W: {10,2048} K: 512 N:10"),
        "ort-gemm-dimension-mismatch",
        ("cls/fc", "K is 512", "{10,2048}"),
    ),
    (
        _ort(
            "Conv",
            "backbone/conv1",
            "Input channels C is not equal to kernel channels * group. C: 1 kernel channels: 3 group: 1",
        ),
        "ort-conv-channels-group",
        ("backbone/conv1", "1 channels", "3 x 1"),
    ),
    (
        _ort("Transpose", "head/perm", "perm: [ 0 3 1 2 ] does not align with rank of input data: 3"),
        "ort-transpose-perm-rank",
        ("head/perm", "[0 3 1 2]", "rank 3"),
    ),
    (
        _ort("Squeeze", "pool/squeeze", "Dimension of input 0 must be 1 instead of 8. shape={8,256}"),
        "ort-squeeze-dim-not-one",
        ("pool/squeeze", "axis 0", "has 8"),
    ),
    (
        _ort(
            "LayerNormalization",
            "blk3/ln",
            "Size of X.shape()[axis:] == 1024. Size of scale and bias (if "
            "provided) must match this. Got scale size of 768 and bias size of 768",
        ),
        "ort-layernorm-scale-size",
        ("blk3/ln", "1024 elements", "scale has 768"),
    ),
    (
        _ort("Pad", "stem/pad", "Pads tensor size should be equal to twice the input dimension count "),
        "ort-pad-size",
        ("stem/pad", "input dimension count"),
    ),
    (
        _ort("Resize", "neck/up2", "Resize: input/output value's dimension mismatch"),
        "ort-resize-rank-mismatch",
        ("neck/up2", "Resize kernel"),
    ),
    (
        _ort("AveragePool", "gap", "kernel_shape num_dims is not compatible with X num_dims."),
        "ort-pool-kernel-rank",
        ("gap", "AveragePool"),
    ),
    (
        _ort("Range", "pos/range", "delta in Range operator can not be zero!"),
        "ort-range-delta-zero",
        ("pos/range",),
    ),
    (
        _ort("Gemm", "fc2", "Gemm: Invalid bias shape for broadcast"),
        "ort-gemm-bias-broadcast",
        ("fc2",),
    ),
    (
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running Mul node. "
        "Name:'mul_12' Status Message: CUDA error cudaErrorLaunchFailure:unspecified launch failure",
        "ort-cuda-kernel-error",
        ("cudaErrorLaunchFailure", "mul_12", "CUDA_LAUNCH_BLOCKING=1"),
    ),
    (
        "onnxruntime_pybind_state.cc:857 onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is "
        "set but "
        "CUDA wasnt able to be loaded. Please install the correct version of CUDA andcuDNN as mentioned in "
        "the GPU "
        "requirements page",
        "ort-cuda-path-not-loaded",
        ("cuDNN", "requirements table"),
    ),
    # MSVC's map lookup inside an OpenVINO exception chain: OpenVINO's card, read by the STL's own wording
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:109:\n"
        "Exception from src/inference/src/dev/plugin.cpp:53:\ninvalid unordered_map<K, T> key",
        "msvc-invalid-map-key",
        ("unordered_map::at()", "SUPPORTED_PROPERTIES"),
    ),
    # libc++'s map lookup under onnxruntime's session initialisation (an Android build): the card's own text
    (
        "E/onnxruntime: [E:onnxruntime:, inference_session.cc:1590 operator()] Exception during "
        "initialization: "
        "unordered_map::at: key not found",
        "stl-map-at-key-not-found",
        ("unordered_map::at()", "libc++", "Exception during initialization"),
    ),
    # Ascend CANN TBE error_manager_vector checks (MindSpore docs' CANN error cases)
    (
        "RuntimeError: ({'errCode': 'E80000', 'op_name': 'avg_pool_d', 'param_name': 'ksize[1]', "
        "'excepted_value': '1', 'real_value': '3'}, 'In op[avg_pool_d], the parameter[ksize[1]] should be , "
        "but "
        "actually is [3].')",
        "ascend-tbe-parameter-value",
        ("avg_pool_d", "ksize[1]", "is 3"),
    ),
    (
        "RuntimeError: ({'errCode': 'E80029', 'op_name': 'assign_add', 'param_name1': 'ref', 'param_name2': "
        "'value', 'error_detail': 'Shape of ref and value should be same'}, 'In op[assign_add], the shape of "
        "inputs[ref][value] are invalid, [Shape of ref and value should be same].')",
        "ascend-tbe-inputs-shape-invalid",
        ("assign_add", "ref and value", "Shape of ref and value should be same"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), ENTRIES, ids=[c[1] for c in ENTRIES])
def test_the_source_form_is_answered_by_its_entry(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


@pytest.mark.parametrize(("message", "clause", "named"), CLAUSES, ids=[c[1] for c in CLAUSES])
def test_the_source_form_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


def test_a_sync_line_yields_to_the_cann_error_printed_with_it(kb: KnowledgeBase) -> None:
    """MindSpore's stream-sync line is context: the AI Core error block after it answers first."""
    text = (
        "[ERROR] DEVICE(7,ffff,python):2025-01-01 [mindspore/ccsrc/plugin/device/ascend/hal/device/"
        "ascend_stream_manager.cc:321] SyncStream] Call runtime aclrtSynchronizeStreamWithTimeout error.\n"
        "EZ9999: Inner Error!\n        Aicore kernel execute failed, device_id=0, stream_id=3, "
        "report_stream_id=3, "
        "task_id=9, fault kernel_name=mul_0123456789_0__kernel0"
    )
    assert kb.lookup(text, top=1)[0].entry.id != "ascend-h23d3-ms-sync-stream-failed"


def test_the_bare_msvc_map_text_is_no_confident_tool_answer(kb: KnowledgeBase) -> None:
    """MSVC's 'invalid unordered_map<K, T> key' names no tool: the clause answers it only under a tool's card
    (the OpenVINO chain above), and alone it is no confident answer of any tool."""
    assert not kb.answer("RuntimeError: invalid unordered_map<K, T> key", top=3).confident


def test_an_ort_axis_message_of_another_tool_is_not_read_as_onnxruntime(kb: KnowledgeBase) -> None:
    """The axis clause is onnxruntime's: a message of no tool with the same words is not answered by it."""
    for m in kb.lookup("axis 3 is not in valid range [-2,1]", top=3):
        assert not m.entry.id.endswith("+ort-axis-out-of-range")
