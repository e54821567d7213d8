"""onnxruntime's own checks of the graph, the session, its kernels and its loaders, each answered from the
wording of the code that prints it:

* core/graph/graph.cc (a tensor name defined twice, a node name used twice);
* core/framework/sequential_executor.cc (a Run cancelled through RunOptions' terminate flag),
  execution_frame.cc (an output shape with a negative dimension), data_transfer_manager.cc (no provider
  copies between two devices, as an IOBinding to a GPU in a CPU-only session hits);
* core/session/inference_session.cc (ValidateOutputs: no output requested);
* core/platform/windows/dll_load_error.cc (the DLL a provider library depends on is missing);
* the kernels' input checks: Einsum (einsum_auxiliary_ops.cc), Resize/Upsample scales (upsamplebase.h),
  the transformer contrib operators' input ranks (contrib_ops/cpu/bert/*), SkipLayerNormalization
  (skip_layer_norm.cc), Conv's output size (conv_attributes.h);
* the CoreML execution provider's model compile (coreml/model/model.mm);
* onnxruntime-web: js/web/lib/wasm (an external data file that did not download, a second start of the
  WebAssembly runtime, its glue module not served where it looks);
* onnxruntime-genai: src/models/model.cpp (an unknown model type) and the troubleshooting page of its
  documentation (the Windows import failure).

Each message is the vendor's wording with names and values of our own, in the forms users paste: bare,
inside the Python ``[ONNXRuntimeError] : N : NAME :`` status, inside the run-time envelope that names the
node, and with a traceback around it.  The advice must carry what the message gave."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

_TRACEBACK = (
    'Traceback (most recent call last):\n  File "infer.py", line 31, in <module>\n'
    "    out = sess.run(None, feeds)\n"
    "onnxruntime.capi.onnxruntime_pybind11_state.Fail: "
)

ENTRY_CASES = [
    (
        "[ONNXRuntimeError] : 1 : FAIL : Load model from enc.onnx failed:This is an invalid model. "
        "Error: Duplicate definition of name (hidden_out_7).",
        "onnxruntime-graph-duplicate-tensor-name",
        ("hidden_out_7", "output_names"),
    ),
    (
        "This is an invalid model. Error: two nodes with same node name (blk3_cast_to_fp32).",
        "onnxruntime-graph-duplicate-node-name",
        ("blk3_cast_to_fp32", "ORT_ENABLE_BASIC"),
    ),
    (
        _TRACEBACK + "[ONNXRuntimeError] : 1 : FAIL : Exiting due to terminate flag being set to true.",
        "onnxruntime-run-terminated-by-run-options",
        ("RunOptions", "terminate = False"),
    ),
    (
        "Microsoft.ML.OnnxRuntime.OnnxRuntimeException: [ErrorCode:Fail] Exiting due to terminate flag "
        "being set "
        "to true.",
        "onnxruntime-run-terminated-by-run-options",
        ("RunOptionsUnsetTerminate",),
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running Expand "
        "node. "
        "Name:'/dec/Expand_4' Status Message: Tensor shape cannot contain any negative value",
        "onnxruntime-tensor-shape-negative",
        ("/dec/Expand_4", "Expand", "dynamic_axes"),
    ),
    (
        "Tensor shape cannot contain any negative value",
        "onnxruntime-tensor-shape-negative",
        ("negative dimension",),
    ),
    (
        "[E:onnxruntime:Default, provider_bridge_ort.cc:2251 onnxruntime::TryGetProviderInfo_CUDA] Error "
        "loading "
        '"D:\\env\\Lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll" which depends on '
        '"cudnn64_9.dll" which is missing. (Error 126: The specified module could not be found.)',
        "onnxruntime-windows-dll-dependency-missing",
        ("cudnn64_9.dll", "onnxruntime_providers_cuda.dll", "preload_dlls"),
    ),
    (
        'Error loading "onnxruntime_providers_tensorrt.dll" which depends on "nvinfer_10.dll" which depends '
        "on "
        '"cudart64_12.dll" which is missing. (Error 126)',
        "onnxruntime-windows-dll-dependency-missing",
        ("cudart64_12.dll", "onnxruntime_providers_tensorrt.dll"),
    ),
    (
        "RuntimeError: Error when binding input: There's no data transfer registered for copying tensors "
        "from "
        "Device:[DeviceType:1 MemoryType:0 DeviceId:0] to Device:[DeviceType:0 MemoryType:0 DeviceId:0]",
        "onnxruntime-no-data-transfer-registered",
        ("Device:[DeviceType:1 MemoryType:0 DeviceId:0]", "onnxruntime-gpu", "get_providers"),
    ),
    (
        "Ort::Exception: At least one output should be requested.",
        "onnxruntime-run-no-outputs-requested",
        ("GetOutputNameAllocated",),
    ),
    (
        "RuntimeError: Unsupported model_type in config.json: granitemoe_x",
        "onnxruntime-genai-unsupported-model-type",
        ("granitemoe_x", "onnxruntime_genai.models.builder"),
    ),
    (
        "ImportError: DLL load failed while importing onnxruntime_genai: A dynamic link library (DLL) "
        "initialization routine failed.",
        "onnxruntime-genai-dll-load-failed",
        ("A dynamic link library (DLL) initialization routine failed.", "vs2015_runtime", "CUDA_PATH"),
    ),
    (
        "Uncaught (in promise) Error: failed to load external data file: "
        "https://cdn.example.org/m/dec_q4.onnx_data",
        "onnxruntime-web-external-data-fetch-failed",
        ("https://cdn.example.org/m/dec_q4.onnx_data", "externalData"),
    ),
    (
        "Error: multiple calls to 'initWasm()' detected.",
        "onnxruntime-web-initwasm-concurrent",
        ("Promise.all", "InferenceSession.create"),
    ),
    (
        "Error: no available backend found. ERR: [wasm] TypeError: Failed to fetch dynamically imported "
        "module: "
        "http://localhost:3000/_next/static/chunks/ort-wasm-simd-threaded.jsep.mjs",
        "onnxruntime-web-wasm-module-not-served",
        ("http://localhost:3000/_next/static/chunks/ort-wasm-simd-threaded.jsep.mjs", "wasmPaths"),
    ),
]

CLAUSE_CASES = [
    (
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running Einsum "
        "node. "
        "Name:'/attn/Einsum_2' Status Message: /onnxruntime_src/onnxruntime/core/providers/cpu/math/"
        "einsum_utils/einsum_auxiliary_ops.cc:298 std::unique_ptr<onnxruntime::Tensor> onnxruntime::"
        "EinsumOp::MatMul(...) Einsum op: Input dimensions must be equal along an axis to be reduced across "
        "all "
        "inputs",
        "ort-einsum-reduced-dims",
        ("/attn/Einsum_2", "dynamic_axes"),
    ),
    (
        "Einsum op: Input dimensions must be equal along an axis to be reduced across all inputs",
        "ort-einsum-reduced-dims",
        ("subscript letter",),
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running Upsample "
        "node. "
        "Name:'up_blk_2' Status Message: Upsample: input tensor's dimension does not match the scales.",
        "ort-resize-scales-rank",
        ("up_blk_2", "Upsample", "[1, 1, sh, sw]"),
    ),
    (
        _TRACEBACK + "[ONNXRuntimeError] : 1 : FAIL : Resize: input tensor's dimension does not match the "
        "scales.",
        "ort-resize-scales-rank",
        ("Resize", "[1, 1, scale_h, scale_w]"),
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running "
        "MultiHeadAttention node. Name:'mha_layer_5' Status Message: Input 'query' is expected to have 3, "
        "4, or 5 "
        "dimensions, got 2",
        "ort-contrib-input-rank",
        ("mha_layer_5", "MultiHeadAttention", "'query'", "3, 4, or 5", "has 2"),
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running SkipLayerNormalization "
        "node. Name:'SkipLayerNorm_11' Status Message: input is expected to have 3 dimensions, got 2",
        "ort-contrib-input-rank",
        ("SkipLayerNorm_11", "'input'", "np.expand_dims"),
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running SkipLayerNormalization "
        "node. Name:'SkipLayerNorm_3' Status Message: skip is expected to have same shape as input",
        "ort-skip-layernorm-shape",
        ("SkipLayerNorm_3", "onnxruntime.transformers.optimizer"),
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running Conv node. "
        "Name:'/stem/conv3/Conv' Status Message: Invalid input shape: {1,64,2,2}",
        "ort-conv-output-size",
        ("/stem/conv3/Conv", "{1,64,2,2}", "kernel_shape"),
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Error compiling model compiler error:  Encountered an error while "
        "compiling a neural network model: validator error: Model output 'boxes' has a different shape than "
        "its "
        "corresponding return value to main.",
        "ort-coreml-ep-compile",
        ("Model output 'boxes' has a different shape", "ModelFormat", "CPUExecutionProvider"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), ENTRY_CASES)
def test_ort_checks_answered_by_entry(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


@pytest.mark.parametrize(("message", "clause", "named"), CLAUSE_CASES)
def test_ort_kernel_checks_answered_by_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)
