"""Issue 23, TensorRT and onnxruntime from their own wording (branch h23x): one message per new entry,
written with names and values of our own from the wording of NVIDIA's "Understanding Error Messages" table,
the TensorRT lean runtime's strings and onnxruntime's sources (never an evaluation message).  Each must be
the top answer, carry the message's op/tensor/shape/value into its advice, and be judged specific by the
evaluation's judge; the envelope it used to be answered by stays below it."""

from __future__ import annotations

import io
import re

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase, scan_log

CASES = [
    (
        "[TRT] [E] 6: The engine plan file is not compatible with this version of TensorRT, "
        "expecting library "
        "version 10.1.0.27 got 10.4.0.26, please rebuild.",
        "tensorrt-plan-library-version-mismatch",
        {"version": "10.1.0.27", "version2": "10.4.0.26"},
    ),
    (
        "[TRT] [E] 6: The engine plan file is generated on an incompatible device, expecting compute 8.6 got "
        "compute 8.7, please rebuild.",
        "tensorrt-plan-incompatible-device",
        {"value": "8.6", "value2": "8.7"},
    ),
    (
        "[E] [TRT] 4: [runtime.cpp::deserializeCudaEngine::66] Error Code 4: Internal Error (Engine "
        "deserialization failed.)",
        "tensorrt-engine-deserialization-failed",
        {},
    ),
    (
        "[E] [TRT] 4: [graphShapeAnalyzer.cpp::analyzeShapes::2084] Error Code 4: Miscellaneous "
        "(IShuffleLayer "
        "/neck/flat/Reshape: reshape changes volume. Reshaping [2,64,9,9] to [2,4096].)",
        "tensorrt-reshape-changes-volume",
        {"op": "/neck/flat/Reshape"},
    ),
    (
        "[E] [TRT] 4: [shapeCompiler.cpp::evaluateShapeChecks::1180] Error Code 4: Internal Error "
        "(kMAX values "
        "for profile 1 violate shape constraints: IElementWiseLayer /blk3/Mul: dimensions not compatible)",
        "tensorrt-profile-violates-shape-constraints",
        {"value": "kMAX", "index": "1", "op": "/blk3/Mul"},
    ),
    (
        "[E] [TRT] 1: [caskUtils.cpp::trtSmToCask::171] Error Code 1: Internal Error (Unsupported "
        "SM: 0x1200)",
        "tensorrt-unsupported-sm",
        {"value": "0x1200"},
    ),
    (
        "[W] [TRT] CUDA initialization failure with error: 100. Please check your CUDA installation",
        "tensorrt-cuda-initialization-failure",
        {"value": "100"},
    ),
    (
        "[E] [TRT] Could not find scales for tensor /head/cls/Sigmoid_output_0.",
        "tensorrt-int8-calibration-no-scales",
        {"tensor": "/head/cls/Sigmoid_output_0"},
    ),
    (
        "[W] [TRT] Tensor /stem/act/Relu_output_0 is uniformly zero; network calibration failed.",
        "tensorrt-int8-tensor-uniformly-zero",
        {"tensor": "/stem/act/Relu_output_0"},
    ),
    (
        "[E] [TRT] 3: [executionContext.cpp::setInputShape::2068] Error Code 3: API Usage Error (Parameter "
        "check failed, condition: engineDims.d[i] == dims.d[i]. Static dimension mismatch while "
        "setting input "
        "shape for pixel_values. Set dimensions are [2,3,224,224]. Expected dimensions are [1,3,224,224].)",
        "tensorrt-static-dimension-mismatch-set-input-shape",
        {"input": "pixel_values"},
    ),
    (
        "[E] [TRT] GPU memory allocation failed during initialization of layer: /dec/attn/MatMul_2",
        "tensorrt-gpu-memory-insufficient-for-engine",
        {"layer": "/dec/attn/MatMul_2"},
    ),
    (
        "ERROR: Network needs native FP16 and platform does not have native FP16",
        "tensorrt-no-native-fp16",
        {},
    ),
    (
        "[E] [TRT] Builder was created on device different from current device.",
        "tensorrt-builder-on-other-device",
        {},
    ),
    (
        "[TRT] ERROR: Custom layer decode_boxes returned non-zero initialization",
        "tensorrt-plugin-nonzero-initialization",
        {"layer": "decode_boxes"},
    ),
    (
        "[TRT] ERROR: fc_out: bias weights has non-zero count but null values",
        "tensorrt-weights-count-values-mismatch",
        {"layer": "fc_out", "arg": "bias"},
    ),
    (
        "[E] [TRT] 3: [executionContext.cpp::setInputShape::2013] Error Code 3: API Usage Error "
        "(logits is not "
        "an input tensor. IExecutionContext::setInputShape can only be called for input tensors.)",
        "tensorrt-not-an-input-tensor",
        {"input": "logits"},
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : TensorRT input: /enc/Loop_output_1 has no shape "
        "specified. Please run "
        "shape inference on the onnx model first.",
        "onnxruntime-trt-ep-input-no-shape",
        {"input": "/enc/Loop_output_1"},
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Load model from net.onnx failed:Deserialize tensor enc.w3 failed."
        "tensorprotoutils.cc:1002 GetExtDataFromTensorProto External initializer: enc.w3 offset: 8192 size "
        "to read: 65536 given file_length: 40000 are out of bounds or can not be read in full.",
        "onnxruntime-external-data-out-of-bounds",
        {"tensor": "enc.w3", "value3": "40000"},
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Deserialize tensor dec.bias failed.GetFileLength for "
        "/srv/models/net.data failed:Invalid fd was supplied: -1",
        "onnxruntime-external-data-file-missing",
        {"tensor": "dec.bias", "path": "/srv/models/net.data"},
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running "
        "Reshape node. "
        "Name:'/tail/Reshape_7' Status Message: reshape_helper.h:39 i < "
        "input_shape.NumDimensions() was false. "
        "The dimension with value zero exceeds the dimension size of the input tensor.",
        "onnxruntime-non-zero-status-code-returned+ort-reshape-zero-past-rank",
        {"op": "/tail/Reshape_7"},
    ),
    (
        "[W:onnxruntime:, execution_frame.cc:870 VerifyOutputSizes] Expected shape from model of {1,25} does "
        "not match actual shape of {1,31} for output tokens",
        "onnxruntime-output-shape-differs-from-model",
        {"output": "tokens", "shape": "{1,25}"},
    ),
    (
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running Mul node. "
        "Name:'/att/Mul_4' Status Message: Shape mismatch attempting to re-use buffer. {4,77} != {4,93}. "
        "Validate usage of dim_value (values should be > 0) and dim_param",
        "onnxruntime-non-zero-status-code-returned+ort-buffer-reuse-shape-mismatch",
        {"op": "/att/Mul_4", "shape": "{4,77}"},
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : CUDA failure 35: CUDA driver version is insufficient for "
        "CUDA runtime "
        "version ; GPU=1 ; hostname=node7 ; file=cuda_execution_provider.cc ; line=290 ; "
        "expr=cudaSetDevice(info_.device_id);",
        "onnxruntime-1-FAIL+ort-cuda-call-failure",
        {"value": "35", "index": "1"},
    ),
    (
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Exception during initialization: "
        "tensorrt_execution_provider.cc:3310 TensorRT EP could not deserialize engine from cache: "
        "/var/trt/TensorrtExecutionProvider_TRTKernel_graph_net_77_0_0_sm89.engine",
        "onnxruntime-trt-ep-engine-cache-deserialize",
        {"path": "/var/trt/TensorrtExecutionProvider_TRTKernel_graph_net_77_0_0_sm89.engine"},
    ),
    (
        "[E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned "
        "while running "
        "TRTKernel_graph_net_77_0 node. Name:'TensorrtExecutionProvider_TRTKernel_graph_net_77_0_0' Status "
        "Message: TensorRT EP execution context enqueue failed.",
        "onnxruntime-trt-ep-enqueue-failed",
        {},
    ),
    (
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from cut.onnx failed:This is an invalid model. "
        "Graph output (feat_p4) does not exist in the graph.",
        "onnxruntime-graph-output-not-in-graph",
        {"output": "feat_p4"},
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running "
        "MatMul node. "
        "Name:'/cls/fc2/MatMul' Status Message: matmul_helper.h:142 Compute MatMul dimension mismatch",
        "onnxruntime-non-zero-status-code-returned+ort-matmul-dimension-mismatch",
        {"op": "/cls/fc2/MatMul"},
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Attempting to get index by a name which does not exist:mel_spec for "
        "node: /front/Conv_1",
        "onnxruntime-index-by-missing-name",
        {"tensor": "mel_spec", "op": "/front/Conv_1"},
    ),
]


@pytest.mark.parametrize(("message", "entry_id", "found"), CASES, ids=[c[1] for c in CASES])
def test_each_message_form_gets_its_entry_with_the_captures_in_the_advice(
    kb: KnowledgeBase, message: str, entry_id: str, found: dict[str, str]
) -> None:
    top = kb.lookup(message, top=2)
    assert top[0].entry.id == entry_id
    captures = dict(top[0].captures)
    for name, value in found.items():
        assert captures.get(name, "").strip("[]") == value.strip("[]")
    advice = f"{top[0].cause} {top[0].fix}"
    for name in ("op", "tensor", "input", "output", "layer"):
        if name in found:
            assert found[name] in advice
    assert not re.search(r"\{[a-z][a-z0-9_]*(?:\|[^{}]*)?\}", advice)  # every placeholder filled
    assert not re.search(r"\s[,;:)]|\s\.(?:\s|$)", advice.replace(" ...", ""))  # no part left out
    assert specific(top[0]) == (True, "")


def test_a_version_mismatch_does_not_say_which_side_is_the_engine(kb: KnowledgeBase) -> None:
    """The runtime's wording does not say whether 'expecting' is the engine's version or its own (users'
    logs show both readings), so the advice names both versions and claims neither."""
    m = kb.lookup(CASES[0][0], top=1)[0]
    assert "10.1.0.27 and 10.4.0.26" in m.cause
    assert "one the engine's and one this runtime's" in m.cause


def test_cuda_out_of_memory_stays_with_the_tool_neutral_clause(kb: KnowledgeBase) -> None:
    """The CUDA EP's call-failure clause leaves status 2 to the ``cuda-out-of-memory`` clause, which says
    more about memory; any other status of the same form is the CUDA EP clause's."""
    line = "; GPU=0 ; hostname=n1 ; file=cuda_allocator.cc ; line=52 ; expr=cudaMalloc((void**)&q, n);"
    assert kb.lookup(f"[E:onnxruntime:] CUDA failure 2: out of memory {line}", top=1)[0].entry.id.endswith(
        "+cuda-out-of-memory"
    )
    other = kb.lookup(f"[E:onnxruntime:] CUDA failure 700: an illegal memory access was encountered {line}")
    assert other[0].entry.id.endswith("+ort-cuda-call-failure")
    assert "cudaMalloc((void**)&q, n) on GPU 0 returned cudaError 700" in other[0].cause


def test_a_kernel_reason_pasted_without_its_envelope_still_gets_its_clause(kb: KnowledgeBase) -> None:
    """The three onnxruntime kernel reasons are clauses (the envelope's node is filled in); pasted alone, the
    line is onnxruntime's (its own wording) and the clause answers it without a node."""
    m = kb.lookup(
        "Shape mismatch attempting to re-use buffer. {8,12} != {8,15}. Validate usage of dim_value", top=1
    )
    assert m[0].entry.id.endswith("+ort-buffer-reuse-shape-mismatch")
    assert "{8,12} against {8,15}" in m[0].cause and "a node" in m[0].cause


def test_the_old_answers_stay_behind_the_specific_entry(kb: KnowledgeBase) -> None:
    """The envelope and code cards are still shown, below the entry that follows the message's reason."""
    reshape = [m.entry.id for m in kb.lookup(CASES[3][0], top=3)]
    assert reshape[0] == "tensorrt-reshape-changes-volume"
    assert "tensorrt-ErrorCode-INVALID-CONFIG-builder-4" in reshape
    ext = [m.entry.id for m in kb.lookup(CASES[18][0], top=3)]
    assert ext[0] == "onnxruntime-external-data-file-missing" and "onnxruntime-1-FAIL" in ext


@pytest.mark.parametrize("index", [0, 3, 16, 21])
def test_the_log_scan_reports_each_form_buried_in_a_log(kb: KnowledgeBase, index: int) -> None:
    message, entry_id, _ = CASES[index]
    log = "step 1 ok\nloading weights\n" + message + "\nshutting down\n"
    found = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.matches[0].entry.id for p in found if p.matches] == [entry_id]
