"""The knowledge tests of OpenVINO (ovc, the plugins, NNCF, optimum-intel): each case is a vendor's own
wording with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From s20d (was test_knowledge_ascend_openvino_s20d.py):

Session s20d: Ascend's and OpenVINO's forms still missing, read from their own sources.

Ascend: msprobe's file checks (Ascend/mstt core/common/file_utils.py). OpenVINO: the GPU plugin's device
query (intel_gpu ocl_device_detector.cpp), openvino.genai's scheduler that dropped a request for want of
KV cache (src/cpp/src/utils.hpp) and its one-prompt paths (the NPU's static pipeline, chat mode), NNCF's
ignored scope, empty calibration dataset and backend detection (src/nncf/scopes.py,
common/tensor_statistics/aggregator.py, common/utils/backend.py), optimum-intel's weight compression
without NNCF and the old clDNN memory pool's "out of GPU resources"; NNCF's
"nncf.errors.ValidationError" is NNCF's, not onnx.checker's.

From converter_families (was test_knowledge_converter_families.py):
described in test_knowledge_coreml.py's docstring.

From s18c (was test_knowledge_coreml_openvino_s18c.py):

Session s18c: Core ML's and OpenVINO's common failures read from their own sources.

OpenVINO: the NPU compiler's missing upper bounds (npu_compiler's frontend), convert_model's PyTorch
example_input and NNCF checks (ovc's pytorch_frontend_utils.py) and optimum-intel's OpenVINO exporter
(optimum/exporters/openvino).

From s19b (was test_knowledge_coreml_openvino_s19b.py):

Session s19b: Core ML's and OpenVINO's remaining failure classes, read from their own sources.

Core ML (coremltools 9.0): the PyTorch frontend's input checks (internal_graph.py's TorchScript input
count, converter.py's EXIR input and StateType checks, exir_utils.py's ExportedProgram input refusals),
its scaled_dot_product_attention and convolution argument checks (ops.py), the MLModel bridge
(models/model.py's _MLModelProxy), package saving and fp16 weights (models/utils.py) and the
coremltools.optimize.coreml op configs (optimize/coreml/_config.py). OpenVINO: the core's shape
inference of MatMul, Broadcast, Convolution and Gather (src/core/shape_inference/include),
InferRequest's tensor check (isync_infer_request.cpp) and the NPU plugin's Level Zero results (intel_npu
zero_utils.hpp / zero_result.cpp), the GPU kernel selector's missing kernel, openvino.genai's missing
chat template and openvino_tokenizers' / optimum-intel's tokenizer conversion; OpenVINO Model Server's
model-not-found statuses and coremltools.optimize's block/group size checks.

From edge_converter_forms (was test_knowledge_edge_converter_forms.py):

Issue 23: the most frequent failures of OpenVINO's AUTO/MULTI plugin, MNN's converter, ncnn's binary param
loader and Paddle2ONNX's abort lines, answered with their cause and fix instead of the family card.

From h23d3_sources (was test_knowledge_h23d3_sources.py): described in test_knowledge_ascend.py's docstring.

From round13 (was test_knowledge_round13.py):

* the legacy Inference Engine's IR reader ("cannot parse future versions: N") and CPU plugin ("Unsupported
  primitive of type: T name: N") have entries of their own (they went to SigmaStar or were words only);
* the NPU compiler's MLIR location (``loc(fused<{name = "...", type = "..."}>``) names Intel NPU, a tool
  that is not covered, instead of a covered tool by wording.

From round18 (was test_knowledge_round18.py):

Issue 23, round 18 (OpenVINO, Core ML, TFLite, MNN, ncnn, TVM, Paddle2ONNX, torch.onnx): what its dev
answers taught, each written from the tool's own source with values of our own (never an evaluation message).

* NNCF's package frames, its logger (``INFO:nncf:``) and entry points name OpenVINO (NNCF is OpenVINO's);
* oneDNN's verbose error record (``onednn_verbose,...,primitive,error,...``) is an error line for the log
  scan, and its OpenCL out-of-resources form, like the GPU plugin's current ``[GPU] CL_OUT_OF_RESOURCES
  exception.`` text, has OpenVINO's cause and fix;
* entries for NNCF's HW-config constraint conflict, Model Optimizer's reshape element-count check,
  coremltools' "ERROR - converting 'op'" log line, Core ML's "Error computing NN outputs" and "Error in
  declaring network", TVM's CUDA driver call failures;

From round21_tools (was test_knowledge_round21_tools.py):
described in test_knowledge_onnxruntime.py's docstring.

From round22_forms (was test_knowledge_round22_forms.py).

From round23_forms (was test_knowledge_round23_forms.py).

From s19f (was test_knowledge_round24_dev_s19f.py).

From s20g (was test_knowledge_round25_dev_s20g.py):

Issue 23, round 25's dev forms answered at their cause (s20g): OpenVINO Model Server's layout and shape
parameters.

From s21d (was test_knowledge_openvino_tflite_mnn_source_checks.py):

OpenVINO's shape and type checks, TFLite's kernel and Java checks, MNN's backend messages: vendor texts.

OpenVINO (openvinotoolkit/openvino, and the strings of the openvino 2026.4 wheel's libopenvino.so): Reshape's
shape inference (src/core/shape_inference/include/reshape_shape_inference.hpp: "Requested output shape ... is
incompatible with input shape", "Non-'-1' output dimensions do not evenly divide the input dimensions"), the
element-type checks of MatMul, Concat and the elementwise ops (src/core/src/op/matmul.cpp, concat.cpp:
"Arguments do not have the same element type (arg0 element type: ...)", "Argument element types are
inconsistent."), Split and VariadicSplit (split_shape_inference.hpp, variadic_split_shape_inference.hpp),
Transpose (transpose_shape_inference.hpp: "Permutation ... is not valid for input shape ...") and the
asynchronous InferRequest's state check (src/inference/src/dev/iasync_infer_request.cpp: "Infer Request is
busy") and the PyTorch front end's recurrent layers (src/frontends/pytorch/src/op/lstm.cpp: "LSTM in train
mode is not supported.").

From s22c: NNCF's weight-compression and quantization checks (openvinotoolkit/nncf
src/nncf/quantization/algorithms/weight_compression/algorithm.py, weight_lowering.py, min_max/algorithm.py),
openvino.genai's KV cache, generation-config and speculative-decoding checks (src/cpp/src/...),
optimum-intel's CLI and 8-bit config checks (optimum/commands/export/openvino.py,
optimum/intel/openvino/configuration.py) and the PyTorch front end's input-count check (openvino
src/frontends/pytorch/src/utils.cpp), the old Inference Engine's plugin loader (ie_plugin_dispatcher.cpp),
convert_model's arguments and input objects (tools/ovc/openvino/tools/ovc/convert.py, convert_impl.py) and
OpenVINO names that mark a message as OpenVINO's.

From s23e: openvino's frontends (common, onnx, pytorch, tensorflow), tools/mo, the CPU/GPU plugins' node and
kernel errors, openvino_tokenizers (__init__.py, hf_parser.py), the old IE's constant folding, the NPU
routing (the NPU's driver texts stay Intel NPU's, core texts through it OpenVINO's).

From s24c: the NPU plugin's config and compiler in driver (intel_npu config.cpp, zero_compiler_in_driver.cpp),
ov::Model::evaluate (src/core/src/model.cpp), openvino.genai's generation_config.cpp, tools/mo's MXNet loader,
clDNN's kernels_cache.cpp, openvino_contrib's NVIDIA plugin, oneTBB's tbbbind, NNCF's external_quantizer.py
and quantize_model.py (compress_weights), openvino.genai's utils.cpp (read_model), model_server's status.cpp
and its log lines' logger names (src/logging.cpp).

From s25b: openvino's descriptor/tensor.cpp, Python utils.py (DLL loading), benchmark_tool inputs_filling.py,
the HETERO plugin, compilation_context.cpp (blob header); openvino.genai's VLM and image pipelines;
optimum-intel's exporter and weight config; OpenVINO's own class and module names as markers.

Each case is the source's own format string with made-up names and values filled in, never an eval message:
the entry that answers it, and the parts of the message its advice must name.

From s29a (was test_knowledge_s29a_sources.py):

Branch s29a: OpenVINO's and torch.export/Dynamo's own failure texts that got only a family card or no
answer, each case written from the vendor's format string with names and values of our own (never an
evaluation message).

Vendor files read: openvinotoolkit/openvino src/core/shape_inference/include/*_shape_inference.hpp (the
per-operation checks, printed "Check '<cond>' failed at <file>:<line>"), src/inference/src/dev/make_tensor.cpp
(set_shape beyond the tensor's capacity: "Could set new shape: "), src/common/util/src/os/*/*_shared_object_
loader.cpp ("Cannot load library '<path>': <dlerror>" / "<GetLastError> from cwd: <cwd>"), the 2021-2022.3
Inference Engine's status names (src/inference/include/ie/ie_common.h: "[ GENERAL_ERROR ]",
"[ NOT_FOUND ]"...) and MYRIAD plugin (src/plugins/intel_myriad/myriad_plugin/myriad_executor.cpp, its mvnc
ncDeviceOpen log);
pytorch/pytorch torch/_dynamo/exc.py with torch/_dynamo/graph_break_registry.json (graph breaks printed
"<type>\\n  Explanation: ...\\n  Hint: ..."), torch/_dynamo/variables/functions.py (unsupported builtin),
torch/_export/verifier.py (SpecViolationError) and torch/_functorch/aot_autograd.py (unknown output type).

From s31e (was test_knowledge_s31e_removed_apis.py):

Branch s31e: the failures of code written for an older release of a tool whose API was since removed
(OpenVINO's Inference Engine API 1.0, Model Optimizer, POT and openvino.runtime namespace; torch.onnx's
dynamo_export and the onnxscript the new exporter imports; onnx.optimizer; coremltools' ONNX converter;
the tflite_runtime package). Before these entries each got the generic 'install the missing module' answer,
which is wrong advice for a module the current release no longer has. Each case is the wording the Python
import system, a shell or the compiler prints for such a removal, with names of our own.

Sources read: docs.openvino.ai/2025/documentation/legacy-features.html; openvinotoolkit/openvino
src/bindings/python/src/openvino/runtime/__init__.py (2025.x deprecation warning) and the openvino 2026.4.1
wheel (no openvino/runtime); pytorch/pytorch torch/onnx/__init__.py and _internal/exporter/_core.py in
torch 2.14.0 (dynamo=True default, import onnxscript, no dynamo_export); onnx/onnx commit 03e6c8f2a (v1.9.0);
apple/coremltools commit 973eae67 (6.0b1); google-ai-edge/LiteRT's ai-edge-litert wheel.

Also from s28b_rknn_qualcomm (test_knowledge_rknn.py), s29g_specific (test_knowledge_tensorrt.py) and
s30e_sources (test_knowledge_torch_onnx.py): their notes stand in the docstrings named.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.family import detect_families
from tests.support.advice import (
    Case,
    answered_by_entry,
    answered_by_generic_entry,
    answers_first,
    answers_with,
    assert_advice,
    assert_answered,
    first_answer,
    first_with_values,
    in_top3_with_values,
    keeps_its_entry,
    top_match,
)

PTA = "\n[ERROR] 2026-01-02-10:11:12 (PID:4321, Device:0, RankID:-1) "
#: OpenVINO Model Server's log line prefix (model_server src/logging.cpp:
#: "[%Y-%m-%d %T.%e][%t][%n][%l][%s:%#] %v").
OVMS_LINE = "[2031-01-02 03:04:05.678][12][serving][error][modelinstance.cpp:700] "

OV_NODE = (
    "Exception from src/core/src/node.cpp:95:\n"
    "Check '{check}' failed at src/core/shape_inference/include/{file}:{line}:\n"
)


CASES = [
    # ---- s20d (test_knowledge_ascend_openvino_s20d.py) ----
    # openvino src/plugins/intel_gpu/src/runtime/ocl/ocl_device_detector.cpp
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:112:\n"
        "Exception from src/inference/src/dev/plugin.cpp:54:\n"
        "[GPU] No supported OCL devices found or unexpected error happened during devices query.\n"
        "[GPU] Please check OpenVINO documentation for GPU drivers setup guide.",
        "openvino-s20d-gpu-no-ocl-devices",
        ("clinfo", "render", "/dev/dri"),
    ),
    # openvino.genai src/cpp/src/utils.hpp (assert_request_was_scheduled)
    (
        "RuntimeError: Check 'status != GenerationStatus::IGNORED' failed at src/cpp/src/utils.hpp:66:\n"
        "Request 7 was dropped by the scheduler because it did not fit in the available cache budget (out of "
        "memory). Increase cache_size / num_kv_blocks, reduce the prompt or generation length, or for hybrid "
        "(linear-attention) models raise cache_interval_multiplier to lower per-token cache usage.",
        "openvino-s20d-genai-request-dropped-cache",
        ("request 7", "SchedulerConfig.cache_size", "max_num_seqs"),
    ),
    # nncf src/nncf/scopes.py
    (
        "nncf.errors.ValidationError: \nIgnored nodes that matches types ['SoftMaxV8'] were not found in the "
        "NNCFGraph.\n",
        "openvino-s20d-nncf-ignored-scope-unmatched",
        ("types 'SoftMaxV8'", "validate=False", "get_friendly_name()"),
    ),
    # nncf src/nncf/common/tensor_statistics/aggregator.py
    (
        "nncf.errors.ValidationError: Calibration dataset must not be empty. Please provide calibration "
        "dataset with at least one sample.",
        "openvino-s20d-nncf-empty-calibration-dataset",
        ("nncf.Dataset(data_source, transform_fn)", "generator"),
    ),
    # nncf src/nncf/common/utils/backend.py
    (
        "nncf.errors.UnsupportedBackendError: Could not infer the backend framework from the model type "
        "because the framework is not available or corrupted, or the model type is unsupported. ",
        "openvino-s20d-nncf-backend-not-inferred",
        ("read_model", "compile_model", ".model"),
    ),
    # optimum-intel optimum/exporters/openvino, optimum/intel/openvino/modeling_base.py
    (
        "ImportError: Compression of the weights to OVWeightQuantizationConfig(bits=4, group_size=64) "
        "requires nncf, please install it with `pip install nncf`",
        "openvino-s20d-optimum-nncf-missing",
        ("OVWeightQuantizationConfig(bits=4, group_size=64)", "pip install nncf", "--weight-format fp16"),
    ),
    # openvino inference-engine/thirdparty/clDNN/src/memory_pool.cpp (2021 and earlier)
    (
        "RuntimeError: [CLDNN ERROR]. out of GPU resources",
        "openvino-s20d-cldnn-out-of-gpu-resources",
        ("CL_OUT_OF_RESOURCES", "clinfo", "FP16"),
    ),
    # openvino.genai src/cpp/src/llm/pipeline_static.cpp, pipeline_stateful.cpp
    (
        "RuntimeError: Check 'batch_size == 1u' failed at src/cpp/src/llm/pipeline_static.cpp:261:\n"
        "Currently only batch size=1 is supported",
        "openvino-s20d-genai-batch-size-one",
        ("device NPU", "once per prompt", "CPU or GPU"),
    ),
    (
        "Check 'input_vector->size() == 1' failed at src/cpp/src/llm/pipeline_stateful.cpp:166:\n"
        "Can't chat with multiple prompts",
        "openvino-s20d-genai-chat-multiple-prompts",
        ("start_chat()", "finish_chat()"),
    ),
    # ---- s18c (test_knowledge_coreml_openvino_s18c.py) ----
    # openvinotoolkit/npu_compiler's frontend
    (
        "[ERROR] Upper bounds are not specified for node 'Relu_70' (type 'Relu'): input '0' bounds are "
        "'[1, 9223372036854775807, 3]'",
        "openvino-s18c-npu-upper-bounds",
        ("Relu_70 (Relu)", "model.reshape("),
    ),
    (
        "[NPU_VCL] Compiler returned msg: Missing upper bound for one or more nodes.",
        "openvino-s18c-npu-upper-bounds",
        ("model.reshape(", "LLMPipeline"),
    ),
    # openvinotoolkit/openvino: tools/ovc/openvino/tools/ovc/moc_frontend/pytorch_frontend_utils.py
    (
        "openvino.tools.ovc.error.Error: Unexpected type of example_input. Supported types torch.Tensor, "
        "np.array or ov.Tensor. Got <class 'transformers.tokenization_utils_base.BatchEncoding'>",
        "openvino-s18c-ovc-example-input-type",
        ("(<class 'transformers.tokenization_utils_base.BatchEncoding'>)", "dict(tokenizer(text"),
    ),
    (
        "RuntimeError: NNCF models produced by nncf<2.6 are not supported directly. Please upgrade nncf or "
        "export to ONNX first.",
        "openvino-s18c-ovc-old-nncf-model",
        ("NNCF older than 2.6", "pip install -U nncf"),
    ),
    # huggingface/optimum-intel: optimum/exporters/openvino
    (
        "ValueError: Trying to export a tinynet model, that is a custom or unsupported architecture, but no "
        "custom export configuration was passed as `custom_export_configs`. Please refer to "
        "https://huggingface.co/docs/optimum/main/en/exporters/onnx/usage_guides/export_a_model#custom-export-"
        "of-transformers-models for an example on how to export custom models.",
        "openvino-s18c-optimum-unsupported-architecture",
        ("model type tinynet", "custom_export_configs"),
    ),
    (
        "ValueError: The OpenVINO export of tinynet models is not officially supported by optimum-intel and "
        "has been removed.",
        "openvino-s18c-optimum-unsupported-architecture",
        ("model type tinynet",),
    ),
    (
        "ValueError: Asked to export a tinynet model for the task image-to-text (auto-detected), but the "
        "Optimum OpenVINO exporter only supports the tasks feature-extraction, text-generation-with-past for "
        "tinynet. Please use a supported task.",
        "openvino-s18c-optimum-unsupported-task",
        ("the task image-to-text", "(feature-extraction, text-generation-with-past)", "--task TASK_NAME"),
    ),
    (
        'KeyError: "The task could not be automatically inferred. Please provide the argument --task with '
        'the relevant task from text-generation, fill-mask. Detailed error: offline"',
        "openvino-s18c-optimum-unsupported-task",
        ("no task could be inferred", "--task TASK_NAME"),
    ),
    # ---- s19b (test_knowledge_coreml_openvino_s19b.py) ----
    # openvino: src/core/shape_inference/include/matmul_shape_inference.hpp
    (
        "Exception from src/core/src/node.cpp:101:\n"
        "Check 'DimType::merge(merged_dimension, arg0_col_dim, arg1_row_dim) || "
        "arg0_col_dim.is_dynamic() || arg1_row_dim.is_dynamic()' failed at "
        "src/core/shape_inference/include/matmul_shape_inference.hpp:77:\n"
        "While validating node 'opset1::MatMul fc_7 (flat_6[0]:f32[1,1024], w_7[0]:f32[512,10]) -> "
        "(f32[...])' with friendly_name 'fc_7':\n"
        "Incompatible MatMul matrix dimension. First input dimension=1024 at COL_INDEX_DIM=1 doesn't match "
        "the second input dimension=512 at ROW_INDEX_DIM=0",
        "openvino-s19b-matmul-dims",
        ("(first input's dimension 1024 against the second's 512)", "transpose_b=True"),
    ),
    (
        "Incompatible MatMul batch dimension. Can't merge first input dimension=6 with second input "
        "dimension=4 at index=1",
        "openvino-s19b-matmul-dims",
        ("(first input's dimension 6 against the second's 4)",),
    ),
    # broadcast_base_shape_inference.hpp
    (
        "Input shape dimension equal 7 cannot be broadcasted (numpy mode) to 9. Allowed input dimension "
        "value would be 1 or 9",
        "openvino-s19b-broadcast-shape",
        ("(the target asks for 9 where the input has 7)", "expand_as"),
    ),
    (
        "Broadcast incorrect target shape. Expecting either 1 or 16. Got 32",
        "openvino-s19b-broadcast-shape",
        ("the target asks for 32",),
    ),
    # convolution_shape_inference_util.hpp
    (
        "Data batch channel count (4) does not match filter input channel count (3).",
        "openvino-s19b-conv-input-shape",
        ("(the input has 4 where the filters expect 3)", "set_layout(ov.Layout('NHWC'))"),
    ),
    (
        "Expected a 3D, 4D or 5D tensor for the input. Got: [3,128,128]",
        "openvino-s19b-conv-input-shape",
        ("3D, 4D or 5D", "keep the batch dimension (N)"),
    ),
    # gather_shape_inference.hpp
    (
        "The batch_dims must be <= indices_rank. But instead got: batch_dims = 3, indices_rank = 2",
        "openvino-s19b-gather-batch-dims",
        ("(batch_dims 3 against 2)", "unsqueeze indices"),
    ),
    # src/inference/src/dev/isync_infer_request.cpp
    (
        "RuntimeError: Exception from src/inference/src/cpp/infer_request.cpp:116:\n"
        "Exception from src/inference/src/dev/isync_infer_request.cpp:187:\n"
        "Failed to set tensor. The input tensor size is not equal to the model input type: got [1,3,512,512] "
        "expecting [1,3,256,256].",
        "openvino-s19b-set-tensor-mismatch",
        ("1,3,512,512 against the model's 1,3,256,256", "model.reshape("),
    ),
    (
        "The tensor element type is not corresponding with output element type (f64 != f32",
        "openvino-s19b-set-tensor-mismatch",
        ("astype(np.float32)",),
    ),
    # intel_npu zero_utils.hpp / zero_result.cpp
    (
        "Exception from src/plugins/intel_npu/src/utils/src/zero/zero_wrappers.cpp:93:\n"
        "L0 zeCommandQueueExecuteCommandLists result: ZE_RESULT_ERROR_DEVICE_LOST, code 0x70000001 - device "
        "hung, reset, was removed, or driver update occurred",
        "openvino-s19b-npu-level-zero-result",
        ("call zeCommandQueueExecuteCommandLists", "ZE_RESULT_ERROR_DEVICE_LOST (device hung", "NPU driver"),
    ),
    (
        "L0 pfnCreate2 result: ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, code 0x78000003 - generic error code for "
        "unsupported features . [NPU_VCL] Compiler returned msg:\nUnsupported operation SomeOp_12",
        "openvino-s19b-npu-level-zero-result",
        ("call pfnCreate2", "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE", "compiler log"),
    ),
    # openvinotoolkit/openvino.genai: src/cpp/src/tokenizer/tokenizer.cpp
    (
        "RuntimeError: Exception from src/cpp/src/tokenizer/tokenizer.cpp:563:\nChat template wasn't found. "
        "This may indicate that the model wasn't trained for chat scenario. Please add 'chat_template' to "
        "tokenizer_config.json to use the model in chat scenario. For more information see the section "
        "Troubleshooting in README.md",
        "openvino-s19b-genai-chat-template",
        ("set_chat_template(", "without start_chat()"),
    ),
    # openvino_tokenizers convert_tokenizer.py; optimum-intel exporters/openvino/convert.py
    (
        "OpenVINO Tokenizer export for TinyTokenizer is not supported. Exception: unsupported model type",
        "openvino-s19b-tokenizer-conversion",
        ("(TinyTokenizer)", "openvino-tokenizers[transformers]", "convert_tokenizer --with-detokenizer"),
    ),
    (
        "openvino.exceptions.OVTypeError: Huggingface tokenizer type is not supported: "
        "<class 'tiny.TinyTokenizer'>",
        "openvino-s19b-tokenizer-conversion",
        ("use_fast=True",),
    ),
    # src/plugins/intel_gpu/src/kernel_selector/kernel_selector.cpp
    (
        "Exception from src/plugins/intel_gpu/src/kernel_selector/kernel_selector.cpp:40:\n[GPU] Could not "
        "find a suitable kernel for gather:gather_idx_9 params raw string: BF16_BFYX_v1_p0_0_v8_p0_0;"
        "I32_BFYX_v1_p0_0",
        "openvino-s19b-gpu-no-suitable-kernel",
        ("for gather:gather_idx_9", "BF16_BFYX", "INFERENCE_PRECISION_HINT", "HETERO:GPU,CPU"),
    ),
    # openvinotoolkit/model_server: src/status.cpp
    (
        '{"error": "Model with requested name and/or version is not found"}',
        "openvino-s19b-ovms-model-not-served",
        ("GET /v1/config", "model_version_policy"),
    ),
    (
        "Model with requested version is not loaded yet",
        "openvino-s19b-ovms-model-not-served",
        ("--log_level DEBUG",),
    ),
    # ---- h23d3_sources (test_knowledge_h23d3_sources.py) ----
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
    # ---- round22_forms (test_knowledge_round22_forms.py) ----
    (
        "RuntimeError: Unknown model format! Cannot find reader for model format: onnx and read the model: "
        "/models/net.onnx. Please check that reader library exists in your PATH.",
        "openvino-unknown-model-format-no-reader",
        ("onnx", "setupvars"),
    ),
    # ---- round23_forms (test_knowledge_round23_forms.py) ----
    (
        "[2026-01-02 10:00:00.000][7][modelmanager][warning][modelmanager.cpp:1354] Expected version "
        "directory name to be a number greater than 0. Got: 0",
        "openvino-ovms-model-version-directory",
        ("'0'", "<base_path>/1/model.xml"),
    ),
    (
        "[2026-01-02 10:00:00.000][7][modelmanager][warning][modelmanager.cpp:1366] No version found for "
        "model in path: /srv/models/detector",
        "openvino-ovms-model-version-directory",
        ("/srv/models/detector", "<base_path>/1/model.xml"),
    ),
    (
        '  File "chat.py", line 40, in run\n    pipe.generate(prompt, config, streamer)\n'
        'RuntimeError: Tried to call pure virtual function "StreamerBase::end"',
        "openvino-genai-streamer-pure-virtual",
        ("end method", "StreamingStatus"),
    ),
    # ---- s21d (test_knowledge_openvino_tflite_mnn_source_checks.py) ----
    # src/core/shape_inference/include/reshape_shape_inference.hpp
    (
        OV_NODE.format(
            check="backward_compatible_check || in_out_elements_equal",
            file="reshape_shape_inference.hpp",
            line=380,
        )
        + "While validating node 'opset1::Reshape my_net/Reshape_7 (opset1::Concat cat[0]:f32[1,84,8400], "
        "opset1::Constant c[0]:i64[3]) -> (f32[1,80,8400])' with friendly_name 'my_net/Reshape_7':\n"
        "Shape inference input shapes {[1,84,8400],[3]}\n"
        "Requested output shape [1,80,8400] is incompatible with input shape",
        "openvino-s21d-reshape-incompatible",
        ("my_net/Reshape_7", "1,80,8400", "x.reshape(x.shape[0], -1, h, w)"),
    ),
    (
        "While validating node 'opset1::Reshape flatten_2 (x[0]:f32[1,7,7,512], p[0]:i64[2]) -> (f32[?,?])' "
        "with friendly_name 'flatten_2':\nNon-'-1' output dimensions do not evenly divide the input "
        "dimensions",
        "openvino-s21d-reshape-incompatible",
        ("flatten_2", "model.reshape()"),
    ),
    # src/core/src/op/matmul.cpp, concat.cpp and the elementwise ops
    (
        "While validating node 'opset1::Add blk/add_3 (a[0]:f16[1,64], b[0]:f32[1,64]) -> "
        "(dynamic[...])' with "
        "friendly_name 'blk/add_3':\nArgument element types are inconsistent.",
        "openvino-s21d-element-type-mismatch",
        ("blk/add_3", "Add", "model.float()"),
    ),
    (
        "RuntimeError: Check 'element::Type::merge(result_et, get_input_element_type(0), "
        "get_input_element_type(1))' failed at src/core/src/op/matmul.cpp:77:\n"
        "While validating node 'opset1::MatMul proj/MatMul (h[0]:f32[?,512], w[0]:f16[512,512]) -> "
        "(dynamic[...])' with friendly_name 'proj/MatMul':\n"
        "Arguments do not have the same element type (arg0 element type: f32, arg1 element type: f16).",
        "openvino-s21d-element-type-mismatch",
        ("proj/MatMul", "f32", "f16", "INFERENCE_PRECISION_HINT"),
    ),
    # src/core/shape_inference/include/variadic_split_shape_inference.hpp
    (
        "While validating node 'opset1::VariadicSplit heads/split (x[0]:f32[1,64,32], a[0]:i64[], "
        "l[0]:i64[3]) "
        "-> (f32[...])' with friendly_name 'heads/split':\n"
        "Total length of splits: 96 must match the length of the chosen axis: 64",
        "openvino-s21d-variadic-split-lengths",
        ("heads/split", "96", "64", "-1"),
    ),
    # src/core/shape_inference/include/split_shape_inference.hpp
    (
        "Dimension of data input shape along 'axis': 100 must be evenly divisible by 'num_splits' attribute "
        "value: 3",
        "openvino-s21d-split-lengths",
        ("100", "3 equal parts", "model.reshape()"),
    ),
    # src/core/shape_inference/include/transpose_shape_inference.hpp
    (
        "While validating node 'opset1::Transpose enc/Transpose_1 (r[0]:f32[1,3,224], o[0]:i64[4]) -> "
        "(f32[...])' with friendly_name 'enc/Transpose_1':\n"
        "Permutation [0,3,1,2] is not valid for input shape [1,3,224]",
        "openvino-s21d-transpose-permutation",
        ("enc/Transpose_1", "0,3,1,2", "1,3,224", "np.expand_dims"),
    ),
    # src/inference/src/dev/iasync_infer_request.cpp
    (
        "Exception from src/inference/src/cpp/infer_request.cpp:223:\n"
        "Exception from src/inference/src/dev/iasync_infer_request.cpp:259:\nInfer Request is busy",
        "openvino-s21d-infer-request-busy",
        ("request.wait()", "ov.AsyncInferQueue"),
    ),
    # src/frontends/pytorch/src/op/lstm.cpp
    (
        "OpConversionFailure: Check 'is_conversion_successful' failed at "
        "src/frontends/pytorch/src/frontend.cpp:171:\n"
        "FrontEnd API failed with OpConversionFailure:\nModel wasn't fully converted. Failed "
        "operations detailed log:\n"
        "-- aten::lstm with a message:\nException from src/frontends/pytorch/src/op/lstm.cpp:300:\n"
        "LSTM in train mode is not supported.\nSummary:\n-- Conversion is failed for: aten::lstm",
        "openvino-s21d-pytorch-rnn-train-mode",
        ("LSTM", "model.eval()"),
    ),
    # ---- s22c: NNCF, openvino.genai, optimum-intel, the PyTorch front end (sources in the docstring) ----
    # nncf src/nncf/quantization/algorithms/weight_compression/algorithm.py
    # (check_user_compression_configuration)
    (
        "nncf.errors.ParameterNotSupportedError: INT8 modes do not support sensitivity_metric, "
        "gptq option(s). "
        "Set them to None.",
        "openvino-s22c-nncf-int8-mode-options",
        ("sensitivity_metric, gptq", "INT4_SYM"),
    ),
    (
        "nncf.errors.ValidationError: Mixed precision selection with sensitivity "
        "metric=mean_activation_variance"
        "             requires a dataset, but it's not provided.",
        "openvino-s22c-nncf-mixed-precision-needs-dataset",
        ("mean_activation_variance", "WEIGHT_QUANTIZATION_ERROR"),
    ),
    (
        "nncf.errors.ValidationError: NVFP4 type only supports group size of 16, group size of 48 is given",
        "openvino-s22c-nncf-fp4-group-size",
        ("group_size=16", "48"),
    ),
    # nncf .../weight_compression/algorithm.py (validate_group_size) and weight_lowering.py (older NNCF)
    (
        "nncf.errors.InvalidGroupSizeError: Failed to apply group-wise quantization with group "
        "size value 64.\n"
        "Ensure that the group size is divisible by the channel size, or consider setting "
        "`group_size_fallback_mode` to IGNORE or ADJUST. Failed nodes:\n"
        '\t"__module.proj_out/aten::linear/MatMul" (channel size: 1000)',
        "openvino-s22c-nncf-group-size-not-divisible",
        ("64", "1000", "__module.proj_out/aten::linear/MatMul", "GroupSizeFallbackMode.ADJUST"),
    ),
    (
        "nncf.errors.InvalidGroupSizeError: Channel size 1500 should be divisible by size of group 128.",
        "openvino-s22c-nncf-group-size-not-divisible",
        ("1500", "128", "ignored_scope"),
    ),
    # nncf .../weight_compression/algorithm.py (3D weights, nncf.UnsupportedModelError)
    (
        "nncf.errors.UnsupportedModelError: NNCF compression algorithms do not support 3D weights "
        "with current "
        "version of\n                                OpenVINO 2025.1.0-18503 due to a known issue "
        "in statistics "
        "collection",
        "openvino-s22c-nncf-3d-weights-old-openvino",
        ("2025.1.0-18503", "ignored_scope"),
    ),
    # nncf src/nncf/quantization/algorithms/min_max/algorithm.py
    (
        "nncf.errors.InternalError: Statistics were not collected for the node "
        "__module.blocks.3/aten::mul/Multiply",
        "openvino-s22c-nncf-statistics-not-collected",
        ("__module.blocks.3/aten::mul/Multiply", "transform_fn", "nncf.IgnoredScope"),
    ),
    # optimum-intel optimum/intel/openvino/configuration.py (OVWeightQuantizationConfig.post_init)
    (
        "ValueError: For 8-bit quantization, `ratio` is expected to be set to 1.0, but was set to 0.6",
        "openvino-s22c-optimum-8bit-weight-options",
        ("ratio", "bits=4"),
    ),
    (
        "ValueError: The GPTQ algorithm is not supported for 8-bit quantization and got "
        "`gptq=True`, please set "
        "`gptq=False`",
        "openvino-s22c-optimum-8bit-weight-options",
        ("GPTQ", "--weight-format int4"),
    ),
    # optimum-intel optimum/commands/export/openvino.py (OVExportCommand.run)
    (
        "ValueError: Some compression parameters are provided, but the weight format is not "
        "specified. Please "
        "provide it with --weight-format argument.",
        "openvino-s22c-optimum-cli-weight-format-missing",
        ("compression options without --weight-format", "--weight-format int4"),
    ),
    (
        "ValueError: Some quantization parameters are provided, but the quantization mode is not specified. "
        "Please provide it with --quant-mode argument.",
        "openvino-s22c-optimum-cli-weight-format-missing",
        ("quantization options without --quant-mode", "--smooth-quant-alpha"),
    ),
    (
        "ValueError: Dataset is required for full quantization. Please provide it with --dataset argument.",
        "openvino-s22c-optimum-cli-full-quant-dataset",
        ("--dataset", "wikitext2"),
    ),
    # openvino.genai src/cpp/src/continuous_batching/cache/kv_cache_manager.hpp
    (
        "RuntimeError: Exception from src/cpp/src/continuous_batching/cache/kv_cache_manager.hpp:250:\n"
        "Requested KV-cache size is larger than available memory size on the system.",
        "openvino-s22c-genai-kv-cache-too-large",
        ("SchedulerConfig", "cache_size"),
    ),
    # openvino.genai src/cpp/src/generation_config.cpp (get_max_new_tokens, validate)
    (
        "RuntimeError: Check 'max_length > prompt_length' failed at src/cpp/src/generation_config.cpp:240:\n"
        "Internal error: generation_config.max_length should be bigger than number of prompt tokens",
        "openvino-s22c-genai-max-length-prompt",
        ("max_new_tokens=256", "generation_config.json"),
    ),
    (
        "RuntimeError: Check 'num_beams >= num_return_sequences' failed at "
        "src/cpp/src/generation_config.cpp:330:\n"
        "'num_beams' (3) must be greater equal than 'num_return_sequences' (6)",
        "openvino-s22c-genai-beam-search-config",
        ("num_beams is 3", "(6)"),
    ),
    # openvino.genai src/cpp/src/speculative_decoding/*/fast_draft_strategy.cpp and utils.cpp
    (
        "RuntimeError: Check 'are_tokenizers_equal(main_model_tokenizer, draft_model_tokenizer)' failed at "
        "src/cpp/src/speculative_decoding/stateful/fast_draft_strategy.cpp:360:\n"
        "Tokenizers for draft and main models are different!",
        "openvino-s22c-genai-draft-tokenizer-differs",
        ("same tokenizer", "draft_model"),
    ),
    (
        "RuntimeError: Exception from src/cpp/src/utils.cpp:940:\nSpeculative decoding requires "
        "PagedAttention "
        "operation support on non-NPU devices, which is available on x86_64 or ARM64 platforms only",
        "openvino-s22c-genai-speculative-paged-attention",
        ("PagedAttention", "x86_64"),
    ),
    (
        "RuntimeError: Exception from "
        "src/cpp/src/speculative_decoding/stateful/fast_draft_strategy.cpp:112:\n"
        'LLM model on NPU may only process prompts up to 2048 tokens. Set the "MAX_PROMPT_LEN" '
        "config option "
        "to increase the limit.",
        "openvino-h23d3-genai-npu-max-prompt-len",
        ("2048", "MAX_PROMPT_LEN"),
    ),
    # openvino src/frontends/pytorch/src/utils.cpp (num_inputs_check)
    (
        "openvino._pyopenvino.OpConversionFailure: Check 'num_inputs >= min_inputs' failed at "
        "src/frontends/pytorch/src/utils.cpp:51:\nFrontEnd API failed with OpConversionFailure:\n"
        "Got less inputs 1 than expected 3",
        "openvino-s22c-pytorch-op-input-count",
        ("has 1 inputs", "takes 3", "ConversionExtension"),
    ),
    # openvino (2018-2021) inference-engine/src/inference_engine/ie_plugin_dispatcher.cpp (getPluginByDevice)
    (
        "RuntimeError: Cannot find plugin to use: Tried load plugin : clDNNPlugin for device GPU,  "
        "error: Plugin "
        "clDNNPlugin cannot be loaded: cannot load plugin: clDNNPlugin from /opt/lib: Cannot load library "
        "'/opt/lib/libclDNNPlugin.so': libOpenCL.so.1: cannot open shared object file: No such "
        "file or directory",
        "openvino-s22c-ie-cannot-find-plugin",
        ("clDNNPlugin", "GPU", "setupvars.sh"),
    ),
    # openvino tools/ovc/openvino/tools/ovc/convert.py (convert_model's parameters) and convert_impl.py
    (
        "TypeError: convert_model() got an unexpected keyword argument 'mean_values'",
        "openvino-s22c-ovc-convert-model-argument",
        ("mean_values", "PrePostProcessor"),
    ),
    (
        "AssertionError: 'example_inputs' argument is not recognized, maybe you meant to provide "
        "'example_input'?",
        "openvino-s22c-ovc-convert-model-argument",
        ("example_inputs", "example_input="),
    ),
    # openvino tools/ovc/openvino/tools/ovc/convert_impl.py (check_model_object)
    (
        "openvino.tools.ovc.error.Error: Unknown model type: <class 'onnx.onnx_ml_pb2.ModelProto'>",
        "openvino-s22c-ovc-unknown-model-type",
        ("onnx.onnx_ml_pb2.ModelProto", "onnx.save"),
    ),
    # ---- s23e: the frontends' and plugins' own texts (openvinotoolkit/openvino; sources in the docstring)
    # src/frontends/onnx/frontend/src/core/graph.cpp (make_ov_nodes), utils/common.cpp
    (
        "Check 'false' failed at src/frontends/onnx/frontend/src/frontend.cpp:387:\n"
        "FrontEnd API failed with GeneralFailure:\nErrors during ONNX translation:\n"
        "[ONNX Frontend] Conversion failed for FancyPool-17\nunsupported padding mode",
        "openvino-s23e-onnx-conversion-failed",
        ("FancyPool", "17", "onnxsim"),
    ),
    (
        "[ONNX Frontend] Conversion failed for ***.MyCustomOp-X",
        "openvino-s23e-onnx-conversion-failed",
        ("***.MyCustomOp", "ConversionExtension"),
    ),
    # src/frontends/common/include/openvino/frontend/exception.hpp (FRONT_END_NOT_IMPLEMENTED)
    (
        "FrontEnd API failed with NotImplementedFailure: extract_subgraph is not implemented for this "
        "FrontEnd class",
        "openvino-s23e-frontend-not-implemented",
        ("extract_subgraph", "model.reshape"),
    ),
    # src/frontends/pytorch/src/translate_session.cpp (make_framework_node)
    (
        "Exception happened during conversion of operation aten::fancy_op with schema "
        "aten::fancy_op(Tensor self, int dim) -> Tensor\nCheck 'false' failed at "
        "src/frontends/pytorch/src/op/fancy.cpp:12:\nFrontEnd API failed with OpConversionFailure:\nbad dim",
        "openvino-s23e-pytorch-op-conversion-exception",
        ("aten::fancy_op", "example_input"),
    ),
    # src/frontends/tensorflow/src/translate_session.cpp (the per-node form)
    (
        "FrontEnd API failed with OpConversionFailure: [TensorFlow Frontend] Internal error: No translator "
        "found for FancyTfOp node.",
        "openvino-s23e-tf-no-translator-node",
        ("FancyTfOp", "openvino-tokenizers"),
    ),
    # src/frontends/tensorflow/src/frontend.cpp (FrontEnd::convert: the openvino-tokenizers hint)
    (
        "Encountered unconverted operation(s) for which openvino-tokenizers package provides conversion "
        "extension(s): StringLower, RegexSplit. Install OpenVINO Tokenizers, refer to the documentation: "
        "https://docs.openvino.ai/2025/openvino-workflow-generative/ov-tokenizers.html",
        "openvino-s23e-tf-tokenizer-ops",
        ("StringLower, RegexSplit", "import openvino_tokenizers"),
    ),
    # src/frontends/tensorflow/src/frontend.cpp (FrontEnd::load_impl)
    (
        "FrontEnd API failed with GeneralFailure:\n[TensorFlow Frontend] Internal error or inconsistent "
        "input model: the frontend supports frozen formats (.pb and .pbtxt), SavedModel and MetaGraph "
        "(.meta), and v1 checkpoints.",
        "openvino-s23e-tf-unrecognized-model-format",
        ("saved_model.pb", "load_model"),
    ),
    # tools/mo/openvino/tools/mo/middle/passes/infer.py (partial_infer)
    (
        '[ ERROR ]  There is no registered "infer" function for node "fancy_12" with op = "FancyOp". Please '
        "implement this function in the extensions.",
        "openvino-s23e-mo-no-infer-function",
        ("fancy_12", "FancyOp", "convert_model"),
    ),
    # tools/mo/openvino/tools/mo/utils/guess_framework.py, convert_impl.py
    (
        "[ ERROR ]  Framework name can not be deduced from the given options: --input_model=net.pth. Please "
        "use --framework with one from the list: ['onnx', 'tf', 'paddle'].",
        "openvino-s23e-mo-framework-not-deduced",
        ("net.pth", "example_input"),
    ),
    # src/plugins/intel_cpu/src/node.h (THROW_CPU_NODE_ERR)
    (
        "Exception from src/plugins/intel_cpu/src/nodes/reduce.cpp:2012:\n"
        "[CPU] Reduce node with name 'reduce_7' Doesn't support reduction axes: (5.5)",
        "openvino-s23e-cpu-node-error",
        ("reduce_7", "Reduce", "reduction axes: (5.5)"),
    ),
    # src/plugins/intel_gpu/src/graph/include/primitive_type_base.h (create_impl)
    (
        "[GPU] Can't choose implementation for fc_node_3 node (type=fully_connected)\n"
        "[GPU] Original name: fc_3\n[GPU] Original type: MatMul",
        "openvino-s23e-gpu-cant-choose-impl",
        ("fc_node_3", "fully_connected", "HETERO:GPU,CPU"),
    ),
    # src/plugins/intel_gpu/src/runtime/kernels_cache.cpp (build_batch), answered by the widened entry
    (
        "Program build failed(0_part_7):\n12:40:3: error: use of undeclared identifier 'fancy_var'",
        "openvino-gpu-program-build-failed",
        ("compute runtime",),
    ),
    # openvinotoolkit/openvino_tokenizers python/openvino_tokenizers/__init__.py (the binary check)
    (
        "OpenVINO and OpenVINO Tokenizers versions are not binary compatible.\n"
        "OpenVINO version:            2031.1.0-12345\nOpenVINO Tokenizers version: 2031.2.0.0\n",
        "openvino-s23e-tokenizers-binary-incompatible",
        ("2031.1.0-12345", "2031.2.0.0", "pip install -U openvino openvino-tokenizers"),
    ),
    # openvinotoolkit/openvino_tokenizers python/openvino_tokenizers/hf_parser.py (the tokenizer.json steps)
    (
        "openvino_tokenizers.utils.OVTypeError: Normalizer type 'FancyNorm' is not supported",
        "openvino-s23e-tokenizers-hf-step-unsupported",
        ("Normalizer", "FancyNorm", "use_fast=True"),
    ),
    # openvino (2019-2021) inference-engine/src/legacy_api/src/graph_transformer.cpp (ConstTransformer)
    (
        "Failed to find reference implementation for `Mul_77` Layer with `FancyNorm` Type on constant "
        "propagation",
        "openvino-s23e-ie-const-propagation-no-reference",
        ("Mul_77", "FancyNorm", "onnxsim"),
    ),
    # ---- s24c: openvino intel_npu (config.cpp, zero_compiler_in_driver.cpp), src/core/src/model.cpp,
    # openvino.genai generation_config.cpp, tools/mo mxnet/loader.py and infer.py, clDNN kernels_cache.cpp,
    # openvino_contrib nvidia_plugin, oneTBB tbbbind under OpenVINO, nncf torch external_quantizer.py ----
    # src/plugins/intel_npu/src/al/src/config/config.cpp (OptionsDesc::get)
    (
        "Exception from src/plugins/intel_npu/src/al/src/config/config.cpp:260:\n"
        "[ NOT_FOUND ] Option 'NPU_FANCY_KNOB' is not supported for current configuration",
        "openvino-s24c-npu-option-not-found",
        ("NPU_FANCY_KNOB", "SUPPORTED_PROPERTIES"),
    ),
    # src/plugins/intel_npu/src/compiler/src/zero_compiler_in_driver.cpp (2023-2024)
    (
        "LevelZeroCompilerInDriver: Failed to compile network. Error code: 2013265924. "
        "Failed to find FP64 for t_in",
        "openvino-s24c-npu-compiler-in-driver-failed",
        ("2013265924", "Failed to find FP64 for t_in", "NPU driver"),
    ),
    # openvinotoolkit/openvino.genai src/cpp/src/generation_config.cpp (GenerationConfig::validate)
    (
        "Check 'eos_token_id != -1 || max_new_tokens != SIZE_MAX || max_length != SIZE_MAX' failed at "
        "src/cpp/src/generation_config.cpp:171:\n"
        "Either 'eos_token_id', or 'max_new_tokens', or 'max_length' should be defined.",
        "openvino-s24c-genai-no-stop-criterion",
        ("max_new_tokens=100", "get_eos_token_id"),
    ),
    (
        "ignore_eos is true, in this case either 'max_new_tokens', or 'max_length' should be defined.",
        "openvino-s24c-genai-no-stop-criterion",
        ("max_new_tokens=100",),
    ),
    # src/core/src/model.cpp (ov::Model::evaluate)
    (
        "terminate called after throwing an instance of 'ov::Exception'\n  what():  Exception from "
        "src/core/src/model.cpp:570:\nEvaluation failed on opset1::Multiply Mul_77 (opset1::Parameter "
        "x[0]:f32[2,3], opset1::Constant c[0]:f32[2,3]) -> (f32[2,3])",
        "openvino-s24c-model-evaluate-failed",
        ("Mul_77", "opset1::Multiply", "compile_model(model, 'CPU')"),
    ),
    # tools/mo/openvino/tools/mo/front/mxnet/loader.py (load_symbol_def)
    (
        "[ ERROR ]  Input model name /tmp/nets/detector_v2.params is not in an expected format, "
        "cannot extract iteration number.",
        "openvino-s24c-mo-mxnet-model-name",
        ("/tmp/nets/detector_v2.params", "mymodel-0000.params"),
    ),
    # openvinotoolkit/openvino_contrib modules/nvidia_plugin/src/cuda_graph_topology_runner.cpp
    (
        "[ ERROR ] /src/openvino_contrib/modules/nvidia_plugin/src/ops/subgraph.cpp:59(initExecuteSequence): "
        "Node: name = Erf_12, description = Erf; Is not found in OperationRegistry",
        "openvino-s24c-nvidia-plugin-op-missing",
        ("Erf_12", "Erf", "HETERO:NVIDIA,CPU"),
    ),
    # oneTBB's tbbbind loaded by OpenVINO's CPU plugin (a Windows event-log record)
    (
        "Faulting application name: app.exe, version: 1.0.0.0, time stamp: 0x6612a0b1\n"
        "Faulting module name: tbbbind_2_5.dll, version: 2021.2.6.0, time stamp: 0x6895623f\n"
        "Exception code: 0xc0000005\n"
        "Faulting module path: C:\\apps\\venv\\Lib\\site-packages\\openvino\\libs\\tbbbind_2_5.dll",
        "openvino-s24c-tbbbind-crash",
        ("tbbbind_2_5.dll", "INFERENCE_NUM_THREADS"),
    ),
    # openvinotoolkit/nncf nncf/torch/quantization/external_quantizer.py (ExternalQuantizerCallHook.__call__)
    (
        '  File "/opt/venv/lib/python3.11/site-packages/nncf/torch/quantization/external_quantizer.py", '
        "line 39, in __call__\n    storage = getattr(replica.nncf, EXTERNAL_QUANTIZERS_STORAGE_NAME)\n"
        "AttributeError: 'NoneType' object has no attribute 'nncf'",
        "openvino-s24c-nncf-torch-quantizer-hook-outside-forward",
        ("quantize_outputs=False", "x.clone()"),
    ),
    # tools/mo/openvino/tools/mo/middle/passes/infer.py, the node name on the next line of a wrapped log
    (
        '[ ERROR ]  Cannot infer shapes or values for node\n "conv_in/Conv2D".',
        "openvino-mo-cannot-infer-shapes",
        ("conv_in/Conv2D", "--input_shape"),
    ),
    # the 2020-2021 clDNN kernels_cache.cpp (build_all)
    (
        "Program build failed. You may enable OCL source dump to see the error log.",
        "openvino-gpu-program-build-failed",
        ("compute runtime",),
    ),
    # openvinotoolkit/openvino.genai src/cpp/src/utils.cpp (read_model)
    (
        "Exception from src/cpp/src/utils.cpp:300:\n"
        "Could not find a model in the directory '\"/data/llm/my-ov\"'",
        "openvino-s24c-genai-model-dir-no-xml",
        ("/data/llm/my-ov", "optimum-cli export openvino"),
    ),
    # openvinotoolkit/nncf src/nncf/quantization/quantize_model.py (compress_weights' backend checks)
    (
        "nncf.errors.ParameterNotSupportedError: ONNX backend does not support scale_estimation, gptq "
        "option(s). Set them to None.",
        "openvino-s24c-nncf-backend-option-unsupported",
        ("ONNX", "scale_estimation, gptq", "nncf.compress_weights(ov_model"),
    ),
    (
        "nncf.errors.ParameterNotSupportedError: Torch backend does not support NF4 and E2M1 modes for "
        "weight compression.",
        "openvino-s24c-nncf-backend-option-unsupported",
        ("Torch", "NF4 and E2M1 modes"),
    ),
    (
        "nncf.errors.ParameterNotSupportedError: Scale estimation, GPTQ or Lora Correction algorithm is "
        "defined, but dataset is None.",
        "openvino-s24c-nncf-data-aware-without-dataset",
        ("nncf.Dataset(", "--dataset"),
    ),
    (
        "nncf.errors.ParameterNotSupportedError: AWQ, Scale estimation, GPTQ or Lora Correction algorithm is "
        "defined, but mode is E2M1.",
        "openvino-s24c-nncf-gptq-with-lora",
        ("E2M1", "INT4_SYM"),
    ),
    # openvinotoolkit/model_server src/status.cpp (Status::statusMessageMap), in the server's log format
    # (src/logging.cpp default_pattern)
    (
        OVMS_LINE + "Layout from config has real name. Use mapped name instead",
        "openvino-s24c-ovms-config-name-not-in-model",
        ("Layout", "mapping_config.json"),
    ),
    (
        OVMS_LINE + "Anonymous fixed shape is invalid for models with multiple inputs",
        "openvino-s24c-ovms-anonymous-shape-multi-input",
        ("shape", "keyed by input name"),
    ),
    (
        OVMS_LINE + "Model could not be reshaped with requested shape",
        "openvino-s24c-ovms-reshape-failed",
        ("ov::Model::reshape", "batch_size"),
    ),
    (
        OVMS_LINE + "Configuration file not found or cannot open: /srv/cfg/models.json",
        "openvino-s24c-ovms-config-file-missing",
        ("--config_path", "docker run -v"),
    ),
    (
        "[2031-01-02 03:04:05.678][12][modelmanager][error][pipelinedefinition.cpp:800] Validation of "
        "pipeline: crop_then_classify definition failed. Pipeline definition has reference to missing model",
        "openvino-s24c-ovms-pipeline-definition-reference",
        ("has reference to missing model", "model_config_list"),
    ),
    # s25b: OpenVINO's own classes still unanswered, from openvinotoolkit/openvino (src/core/src/descriptor/
    # tensor.cpp, src/bindings/python/src/openvino/utils.py, tools/benchmark_tool .../utils/inputs_filling.py,
    # src/plugins/hetero/src/subgraph_collector.cpp, src/inference/src/dev/compilation_context.cpp),
    # openvinotoolkit/openvino.genai (visual_language/vlm_config.cpp, inputs_embedder.cpp,
    # image_generation/text2image_pipeline.cpp) and huggingface/optimum-intel (exporters/openvino/__main__.py,
    # intel/openvino/configuration.py)
    (
        "RuntimeError: Exception from src/core/src/descriptor/tensor.cpp:92:\n"
        "Attempt to get a name for a Tensor without names",
        "openvino-s25b-tensor-without-names",
        ("get_any_name", "set_names"),
    ),
    (
        "ImportError: DLL load failed while importing ie_api: The specified module could not be found.",
        "openvino-s25b-python-dll-load-failed",
        ("ie_api", "setupvars.bat", "os.add_dll_directory"),
    ),
    (
        "RuntimeError: Check 'false' failed at src/cpp/src/visual_language/vlm_config.cpp:44:\n"
        "Unsupported 'quokka_vl' VLM model type",
        "openvino-s25b-genai-vlm-model-type",
        ("quokka_vl", "config.json"),
    ),
    (
        "Exception from src/cpp/src/image_generation/text2image_pipeline.cpp:58:\n"
        "Unsupported text to image generation pipeline 'WombatDiffusionPipeline'",
        "openvino-s25b-genai-image-pipeline-class",
        ("WombatDiffusionPipeline", "model_index.json"),
    ),
    (
        "RuntimeError: Exception from src/cpp/src/visual_language/inputs_embedder.cpp:253:\n"
        "Input image must have [NHWC] or [HWC] layout, given image shape is [3,320,320,1,1]",
        "openvino-s25b-genai-vlm-image-layout",
        ("3,320,320,1,1", "np.transpose"),
    ),
    (
        "[ ERROR ] Input pixel_values is dynamic. Provide data shapes!",
        "openvino-s25b-benchmark-dynamic-input",
        ("pixel_values", "-data_shape"),
    ),
    (
        "[ ERROR ] File /data/frame_07.bin contains 4096 bytes but model expects 150528",
        "openvino-s25b-benchmark-binary-size",
        ("/data/frame_07.bin", "4096", "150528", "tofile"),
    ),
    (
        "[ ERROR ] Wrong input mapping! Cannot find inputs: ['pixels']. Available inputs: ['input.1']. "
        "Please check `-i` input data",
        "openvino-s25b-benchmark-input-mapping",
        ("named the inputs pixels", "'input.1'"),
    ),
    (
        "[ ERROR ] Image shape (300, 400, 3) is not compatible with input shape [1, 3, 128, 128]! "
        "Make sure -i parameter is valid.",
        "openvino-s25b-benchmark-image-shape",
        ("(300, 400, 3)", "1, 3, 128, 128", "-layout"),
    ),
    (
        "ValueError: Only support quantization to [4,8] bits but found 2",
        "openvino-s25b-optimum-weight-bits",
        ("bits=2", "--weight-format int4"),
    ),
    (
        "ValueError: Wasn't able to locate OpenVINO class for task zero-shot-object-detection "
        "(zero-shot-object-detection).",
        "openvino-s25b-optimum-no-ov-class",
        ("zero-shot-object-detection", "ov.convert_model"),
    ),
    (
        "Exception from src/inference/src/cpp/core.cpp:109:\n"
        "Hetero device used default fallback policy, but some layers eg: \n"
        "(Name:WarpOp_3, Type: GridWarp) were not able to be assigned on any pointed device.\n"
        "It happened because these layers are not supported in plugins by default.",
        "openvino-s25b-hetero-layer-not-assigned",
        ("WarpOp_3", "GridWarp", "HETERO:GPU,CPU"),
    ),
    (
        "Check 'res.status == pugi::status_ok' failed at src/inference/src/dev/compilation_context.cpp:231:\n"
        "Error reading compiled blob header",
        "openvino-s25b-compiled-blob-header",
        ("cache_dir", "export_model"),
    ),
    # (s25b, continued: model_server src/status.cpp and predict_request_validation_utils_impl.cpp; openvino
    # tools/ovc/openvino/tools/ovc/convert_impl.py; openvino.genai src/cpp/src/whisper/generation_config.cpp
    # and whisper_utils.cpp)
    (
        "Invalid input shape - Expected: (1,3,320,320); Actual: (1,320,320,3); input name: pixel_in",
        "openvino-s25b-ovms-request-input-check",
        ("Invalid input shape", "(1,3,320,320)", "(1,320,320,3)", "pixel_in", "metadata"),
    ),
    (
        "Missing input with specific name - Required input: token_mask",
        "openvino-s25b-ovms-request-input-check",
        ("Missing input with specific name", "token_mask"),
    ),
    (
        'AssertionError: "input" parameter has unnamed inputs and named inputs. Please either set names for '
        "all inputs, or do not set names for all inputs.",
        "openvino-s25b-ovc-input-output-names",
        ("by name", "without names"),
    ),
    (
        "AssertionError: output 'scores boxes' is incorrect, output names should not be empty or contain "
        "spaces",
        "openvino-s25b-ovc-input-output-names",
        ("scores boxes", "--output logits,probs"),
    ),
    (
        "[ ERROR ]  ----------------- INTERNAL ERROR ----------------\n"
        "[ ERROR ]  Unexpected exception happened.\n"
        "[ ERROR ]  Please verify parameters and environment.\n"
        "[ ERROR ]  -------------- DETAILED INFORMATION -------------\n"
        "[ ERROR ]  tuple index out of range",
        "openvino-s25b-ovc-internal-error-banner",
        ("exception itself: tuple index out of range", "--verbose"),
    ),
    (
        "[ ERROR ]  File /srv/models/quux.onnx was not found",
        "openvino-s25b-ovc-file-not-found",
        ("/srv/models/quux.onnx", "absolute path"),
    ),
    (
        "RuntimeError: Check 'it != lang_to_id.end()' failed at src/cpp/src/whisper/whisper_utils.cpp:124:\n"
        "'language' <|elvish|> must be provided in 'lang_to_id' map.",
        "openvino-s25b-genai-whisper-language",
        ("<|elvish|>", "generation_config.json"),
    ),
    (
        "'task' mast be 'transcribe' or 'translate'. Task provided: 'paraphrase'.",
        "openvino-s25b-genai-whisper-task",
        ("paraphrase", "task='transcribe'"),
    ),
    (
        "RuntimeError: Exception from src/core/src/runtime/tensor.cpp:95:\n"
        "Check 'shape_size(new_shape) <= ov::shape_size(m_capacity)' failed at "
        "src/inference/src/dev/make_tensor.cpp:91:\nCould set new shape: [4,512]",
        "openvino-s29a-tensor-set-shape-capacity",
        ("4,512",),
    ),
    (
        "RuntimeError: Cannot load library "
        "'C:\\ov\\runtime\\bin\\intel64\\Release\\openvino_intel_npu_plugin.dll': 126 "
        "from cwd: C:\\work\\app",
        "openvino-s29a-shared-object-load",
        ("openvino_intel_npu_plugin.dll", "126"),
    ),
    (
        "RuntimeError: [ NOT_IMPLEMENTED ] Output blob with precision I64 is not supported on HDDL",
        "openvino-s29a-ie-not-implemented",
        ("Output blob with precision I64 is not supported on HDDL",),
    ),
    (
        "RuntimeError: [ NOT_FOUND ] Failed to find input or output with name: 'image_tensor'",
        "openvino-s29a-ie-not-found",
        ("image_tensor",),
    ),
    (
        "RuntimeError: [ PARAMETER_MISMATCH ] Can't set input blob with name: data, because model input "
        "(shape=[1,3,300,300]) and blob (shape=(1.300.300.3)) are incompatible",
        "openvino-s29a-ie-parameter-mismatch",
        ("data",),
    ),
    (
        "[ INFO ] Loading model to the plugin\nE: [ncAPI] [    812345] [detect] ncDeviceOpen:1013\t"
        "Failed to find booted device after boot\n[ ERROR ] Can not init Myriad device: NC_ERROR",
        "openvino-s29a-myriad-device-open",
        ("NC_ERROR",),
    ),
    (
        "RuntimeError: Failed to allocate graph: MYRIAD device is not opened.",
        "openvino-s29a-myriad-graph-allocate",
        ("MYRIAD device is not opened",),
    ),
    (
        # pre-2023 normalize_axis (src/core/src/validation_util.cpp): the op name before the axis
        "Check '((axis >= axis_range_min) && (axis <= axis_range_max))' failed at "
        "core/src/validation_util.cpp:1012:\n"
        "VariadicSplit Parameter axis 7 out of the tensor rank range [-3, 2].",
        "openvino-axis-out-of-rank-range",
        ("VariadicSplit", "axis 7", "[-3, 2]"),
    ),
    (
        "RuntimeError: Unable to read the model: models/det.onnx Please check that model format: onnx is "
        "supported and the model is correct. Available frontends: paddle pytorch tflite tf ir onnx",
        "openvino-s29g-read-model-frontend-present",
        ("models/det.onnx",),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


@pytest.mark.parametrize(
    ("message", "uncovered", "entry"),
    [
        # intel/intel-npu-acceleration-library backend/bindings.py and backend/linear.py: its own texts
        (
            "RuntimeError: Platform sunos is not supported for intel-npu-acceleration-library library",
            True,
            "",
        ),
        (
            '  File "/venv/lib/python3.11/site-packages/intel_npu_acceleration_library/backend/linear.py", '
            "line 52, in run\nRuntimeError: Input shape (1, 64) different from expected one (1, 128)",
            True,
            "",
        ),
        # openvino src/plugins/intel_npu/src/utils/include/intel_npu/utils/zero/zero_utils.hpp
        # (THROW_ON_FAIL_FOR_LEVELZERO): the NPU driver's result, which the eval set files under Intel NPU
        (
            "L0 zeCommandQueueExecuteCommandLists result: ZE_RESULT_ERROR_DEVICE_LOST, code 0x70000001 - "
            "device hung, reset, was removed, or driver update occurred",
            True,
            "",
        ),
        # OpenVINO's core check (src/core/src/descriptor/tensor.cpp) raised through the NPU plugin's frames
        (
            "RuntimeError: Exception from src/inference/src/cpp/core.cpp:100:\n"
            "Exception from src/inference/src/dev/plugin.cpp:50:\n"
            "Exception from src/plugins/intel_npu/src/plugin/src/plugin.cpp:500:\n"
            "get_shape was called on a descriptor::Tensor with dynamic shape",
            False,
            "openvino-get-shape-dynamic",
        ),
    ],
)
def test_intel_npu_texts_and_openvino_texts_through_the_npu_plugin(
    kb: KnowledgeBase, message: str, uncovered: bool, entry: str
) -> None:
    """The NPU's own texts (the acceleration library, the Level Zero driver's results) name Intel NPU, which
    dumpscope does not cover; an OpenVINO core check that only passes through the NPU plugin's frames keeps
    OpenVINO's entry (s23e)."""
    found = kb.answer(message)
    if uncovered:
        assert found.uncovered is not None and found.uncovered[0] == "intel_npu"
    else:
        assert found.uncovered is None and found.matches[0].entry.id == entry


# ---- s20d (test_knowledge_ascend_openvino_s20d.py) ----


@pytest.mark.parametrize(
    "message",
    [
        "nncf.errors.ValidationError: The subset_size value should be positive, but subset_size=0 is given.",
        "nncf.errors.InternalError: Not found statistics for conv_1_statistics",
    ],
)
def test_nncf_errors_are_openvinos(kb: KnowledgeBase, message: str) -> None:
    """NNCF's exception module names its tool: the class name ValidationError alone is also onnx.checker's."""
    assert kb.named_families(message)[0] == "openvino"


# ---- converter_families (test_knowledge_converter_families.py) ----


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
    answers_with(kb, text, entry, "openvino", captured)


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
    answers_with(kb, text, entry, None, captured)


# ---- s18c (test_knowledge_coreml_openvino_s18c.py) ----


def test_the_onnx_exporter_wording_of_optimum_is_not_read_as_openvino(kb: KnowledgeBase) -> None:
    """optimum's ONNX exporter says `custom_onnx_configs`: the optimum-intel pattern keeps to its own wording,
    so that text gets no confident OpenVINO answer (a shared-words suggestion at most)."""
    text = (
        "ValueError: Trying to export a tinynet model, that is a custom or unsupported architecture, but no "
        "custom onnx configuration was passed as `custom_onnx_configs`."
    )
    for m in kb.lookup(text, top=3):
        assert m.reason != "pattern" or m.entry.id != "openvino-s18c-optimum-unsupported-architecture"
    assert not kb.answer(text, top=3).confident


# ---- edge_converter_forms (test_knowledge_edge_converter_forms.py) ----

_OV_WRAP = "RuntimeError: Exception from src/inference/src/cpp/core.cpp:109:\n"


# (message, entry, what the advice must name)
CASES_EDGE_CONVERTER_FORMS = [
    (
        "Start to Convert Other Model Format To MNN Model..., target version: 3\n[11:02:13] "
        "/src/MNN/tools/converter/source/onnx/onnxOpConverter.cpp:433: Don't support 19",
        "mnn-h23o2-converter-constant-dtype",
        ("data type 19", "t.data_type == 19", "FLOAT8 types 17-20"),
    ),
    (
        "[08:01:59] :433: Don't support 8",
        "mnn-h23o2-converter-constant-dtype",
        ("data type 8", "STRING 8"),
    ),
    (
        "Don't support 3",
        "mnn-h23o2-dont-support-number",
        ('"Don\'t support 3"', "3 OpenCL", "t.data_type == 3"),
    ),
    (
        "Check it out ==> /stage2/Resize_3_output_0 has empty input, the index is 1",
        "mnn-h23o2-empty-input-notice",
        ("/stage2/Resize_3_output_0", "input 1", "not the failure"),
    ),
    (
        "layer -1 not exists or registered",
        "ncnn-h23o2-layer-index-not-registered",
        ("index -1", "ncnn2mem", "load_param"),
    ),
    (
        "layer 257 not exists or registered",
        "ncnn-h23o2-layer-index-not-registered",
        ("index 257", "CustomBit", "register_custom_layer"),
    ),
    (
        "[ERROR] Due to the unsupported operators, the conversion is aborted.",
        "paddle2onnx-h23o2-unsupported-ops-aborted",
        ("Oops, there are some operators not supported yet", "op_list.md"),
    ),
    (
        "[ERROR] Due to the unsupported sub_block_idx, the conversion is aborted.",
        "paddle2onnx-h23o2-sub-block-aborted",
        ("conditional_block", "sub_block"),
    ),
    (
        _OV_WRAP + "[AUTO] compile model failed, GPU:[GPU] odd driver state 7; CPU:odd thing 9",
        "openvino-h23o2-auto-compile-failed",
        ("GPU:[GPU] odd driver state 7; CPU:odd thing 9", "AUTO:-GPU"),
    ),
    (
        "compile model failed, NPU:unknown level zero error 12; ",
        "openvino-h23o2-auto-compile-failed",
        ("NPU:unknown level zero error 12", "AUTO or MULTI"),
    ),
    (
        _OV_WRAP + "There is no device support the current configure",
        "openvino-h23o2-auto-no-device-for-config",
        ("enable_profiling", "SUPPORTED_PROPERTIES"),
    ),
    (
        _OV_WRAP + "The meta device should not in the device candidate list: MULTI,GPU",
        "openvino-h23o2-auto-meta-in-candidates",
        ("(MULTI,GPU)", "'AUTO:GPU,CPU'"),
    ),
    (
        "KEY_MULTI_DEVICE_PRIORITIES key is not set for MULTI",
        "openvino-h23o2-multi-priorities-not-set",
        ("'MULTI'", "MULTI:GPU,CPU"),
    ),
    (
        _OV_WRAP + "Please, check environment due to no supported devices can be used",
        "openvino-h23o2-auto-no-supported-devices",
        ("core.available_devices", "'AUTO:NPU,CPU'"),
    ),
    (
        "No available device to filter AUTO plugin",
        "openvino-h23o2-auto-no-available-device",
        ("AUTO's candidate list", "GPU.0"),
    ),
    (
        "Cannot select any device",
        "openvino-h23o2-auto-cannot-select",
        ("OPTIMIZATION_CAPABILITIES",),
    ),
    (
        "AUTO cumulative model doesn't support stateful model.",
        "openvino-h23o2-auto-cumulative-stateful",
        ("ReadValue/Assign", "CUMULATIVE_THROUGHPUT"),
    ),
    (
        "Check 'false' failed at src/plugins/auto/src/plugin_config.cpp:65:\nproperty: GPU_QUEUE_X: not "
        "supported",
        "openvino-h23o2-auto-property-not-supported",
        ("GPU_QUEUE_X", "ov::device::properties"),
    ),
    (
        "Invalid value for property PERFORMANCE_HINT: QUICK",
        "openvino-h23o2-invalid-property-value",
        ("PERFORMANCE_HINT", "QUICK", "LATENCY"),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"),
    CASES_EDGE_CONVERTER_FORMS,
    ids=[f"{i}-{c[1]}" for i, c in enumerate(CASES_EDGE_CONVERTER_FORMS)],
)
def test_the_form_is_answered_by_its_entry_with_what_it_captured(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_an_inner_failure_of_a_device_wins_over_auto_s_wrapper(kb: KnowledgeBase) -> None:
    """AUTO lists each device's own error: where one of them has its entry, that entry answers."""
    message = _OV_WRAP + "[AUTO] compile model failed, CPU:Cannot get length of dynamic dimension"
    assert kb.lookup(message, top=1)[0].entry.id == "openvino-dynamic-dimension-length"


@pytest.mark.parametrize(
    "message",
    [
        "Don't support 3 for arm82 unary",
        "Don't support broadcast for MatMulOp, i0=2, i1=3",
        "layer 5x not exists or registered",
        "There is no device to support the current configure",
        "[ERROR] Due to the opset, the conversion is aborted.",
        "compile model failed, please retry",
    ],
)
def test_near_misses_are_not_answered_by_the_new_entries(kb: KnowledgeBase, message: str) -> None:
    ids = [m.entry.id for m in kb.lookup(message, top=3) if "pattern" in m.reason.split("+")]
    assert not [i for i in ids if "-h23o2-" in i], ids


def test_a_log_scan_reports_the_abort_line_in_noise(kb: KnowledgeBase) -> None:
    log = "INFO loading model\n" + CASES_EDGE_CONVERTER_FORMS[6][0] + "\nINFO done\n"
    problems = scan_log(io.StringIO(log), kb)
    assert [p.matches[0].entry.id for p in problems] == [CASES_EDGE_CONVERTER_FORMS[6][1]]


# (message, clause that answers the family card, what the advice must name)
CLAUSE_CASES = [
    (
        _OV_WRAP + "Check 'node_count > 2' failed at src/frontends/pytorch/src/translate_session.cpp:212:\n"
        "prim::Foo has no translation",
        "openvino-frontend-check",
        ("pytorch frontend", "'node_count > 2'", "translate_session.cpp", "prim::Foo has no translation"),
    ),
    (
        _OV_WRAP + "Exception from src/inference/src/dev/plugin.cpp:53:\n"
        "Exception from src/plugins/intel_npu/src/plugin/src/plugin.cpp:717:\nZe compile failure 0x7800000f",
        "openvino-plugin-check",
        (
            "npu device plugin",
            "intel_npu/src/plugin/src/plugin.cpp",
            "Ze compile failure 0x7800000f",
            "HETERO",
        ),
    ),
    (
        "Check 'rank_a == 4' failed at src/core/src/op/foo_op.cpp:77:\n"
        "While validating node 'opset1::Foo Foo_1'",
        "openvino-core-check",
        ("'rank_a == 4'", "src/core/src/op/foo_op.cpp", "model.reshape"),
    ),
    (
        "Exception thrown at 0x00007FF712345678 in MyApp.exe: Microsoft C++ exception: ov::AssertFailure at "
        "memory location 0x0000001234ABCD00.",
        "openvino-first-chance-exception",
        ("ov::AssertFailure", "catch (const ov::Exception& e)"),
    ),
    (
        _OV_WRAP + "Exception from src/plugins/intel_cpu/src/nodes/foo.cpp:12:\ncode is too big",
        "openvino-cpu-xbyak-too",
        ("'code is too big'", "Xbyak", "inference_precision f32"),
    ),
    (
        "[ GENERAL_ERROR ] bad size of register",
        "openvino-cpu-xbyak-bad",
        ("'bad size of register'", "Xbyak"),
    ),
    (
        "[10:01:02] /src/MNN/tools/converter/source/onnx/FooOnnx.cpp:64: "
        "Check failed: (weightShape.size() == 4) ==> Foo weight must be 4 dims for now",
        "mnn-converter-check-failed",
        ("FooOnnx.cpp", "'(weightShape.size() == 4)'", "'Foo weight must be 4 dims for now'", "--OP"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), CLAUSE_CASES, ids=[c[1] for c in CLAUSE_CASES])
def test_the_family_card_says_the_check_the_message_printed(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


@pytest.mark.parametrize(
    "message",
    [
        # the inference wrapper alone names no component that failed
        _OV_WRAP + "Exception from src/inference/src/dev/plugin.cpp:53:\nsomething odd",
        # Xbyak's wording inside a sentence is not its error line
        "[ GENERAL_ERROR ] something bad combination happened",
        # a CHECK line without MNN's ' ==> ' reason is not the converter's form
        "[10:01:02] Check failed: x == y",
    ],
)
def test_the_check_clauses_need_their_component_s_form(kb: KnowledgeBase, message: str) -> None:
    ids = [m.entry.id for m in kb.lookup(message, top=3)]
    own = (
        "openvino-frontend-check",
        "openvino-plugin-check",
        "openvino-core-check",
        "mnn-converter-check-failed",
    )
    assert not [i for i in ids if i.endswith(own)], ids


def test_the_innermost_component_line_is_the_one_said(kb: KnowledgeBase) -> None:
    """Each wrapper prints its own 'Exception from' line above the failure: the last line is the failure."""
    message = (
        _OV_WRAP + "Exception from src/plugins/intel_gpu/src/plugin/plugin.cpp:200:\n"
        "Exception from src/plugins/intel_gpu/src/plugin/compiled_model.cpp:61:\n"
        "Check 'ok == 7' failed at src/plugins/intel_gpu/src/graph/foo_stage.cpp:99:\nfoo stage gave up"
    )
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id.endswith("+openvino-plugin-check")
    parts = dict(top.captures)
    assert parts["path"] == "src/plugins/intel_gpu/src/graph/foo_stage.cpp"
    assert (parts["value"], parts["detail"]) == ("ok == 7", "foo stage gave up")


# ---- round13 (test_knowledge_round13.py) ----


def test_the_ir_readers_future_version_is_openvinos_with_the_version(kb: KnowledgeBase) -> None:
    top = kb.lookup("[ ERROR ] Error reading network: cannot parse future versions: 11", top=1)[0]
    assert top.entry.id == "openvino-ir-reader-future-version"
    assert "IR version (11) newer than any" in top.cause  # a whole sentence with the version read
    assert "Model Optimizer" in top.fix


@pytest.mark.parametrize(
    "text",
    [
        "Unsupported primitive of type: DetectionOutput name: detection_out",
        "RuntimeError: unsupported primitive of type: Proposal name: proposal/rpn",
    ],
)
def test_the_legacy_cpu_plugins_unsupported_primitive_fills_type_and_name(
    kb: KnowledgeBase, text: str
) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "openvino-ie-unsupported-primitive"
    op_type, name = text.split("type: ")[1].split(" name: ")
    assert op_type in top.cause and name in top.cause
    assert "extension" in top.fix


def test_the_newer_cpu_plugins_unsupported_operation_keeps_its_entry(kb: KnowledgeBase) -> None:
    top = kb.lookup("Unsupported operation of type: Unique name: unique_3", top=1)[0]
    assert top.entry.id == "openvino-unsupported-operation-cpu"


def test_the_npu_compilers_mlir_location_says_intel_npu_is_not_covered(kb: KnowledgeBase) -> None:
    text = (
        'loc(fused<{name = "conv_7/Convolution", type = "Convolution"}>["conv_7/Convolution"]): error: '
        "Operation has an invalid shape\nLLVM ERROR: Failed to infer result type(s)."
    )
    found = kb.answer(text, top=3)
    assert found.uncovered is not None and found.uncovered[0] == "intel_npu"


def test_another_mlir_location_is_not_the_npus(kb: KnowledgeBase) -> None:
    """TFLite's converter prints MLIR locations too, without the NPU compiler's name/type dictionary."""
    text = 'loc(fused["Conv2D:", "model/conv2d/Conv2D"]): error: failed to legalize operation \'tf.Foo\''
    found = kb.answer(text, top=3)
    assert found.uncovered is None


# ---- round18 (test_knowledge_round18.py) ----


@pytest.mark.parametrize(
    "text",
    [
        '  File "/opt/venv/lib/python3.11/site-packages/nncf/torch/graph/tracer.py", line 12, in trace\n'
        "    out = self.fn(x)\nAttributeError: 'NoneType' object has no attribute 'shape'",
        '  File "C:\\\\py\\\\Lib\\\\site-packages\\\\nncf\\\\common\\\\factory.py", line 3, in create\n'
        "KeyError: 'weights'",
        "INFO:nncf:Collecting tensor statistics\nValueError: calibration dataset is empty",
        "quantized = nncf.quantize(model, dataset)\nRuntimeError: no supported layers",
    ],
)
def test_nncfs_own_frames_logger_and_api_name_openvino(kb: KnowledgeBase, text: str) -> None:
    assert detect_families(text)[:1] == ["openvino"]
    assert kb.lookup(text, top=1)[0].entry.family == "openvino"


def test_a_word_nncf_alone_names_no_tool() -> None:
    assert detect_families("the nncf option was ignored") == []


def test_nncf_hw_config_conflict_names_the_device_and_the_location(kb: KnowledgeBase) -> None:
    for gap in (" ", "             "):  # nncf's older one-line message and its newer f-string's indentation
        text = (
            "RuntimeError: Quantization parameter constraints specified in NNCF config are incompatible"
            f"{gap}with HW capabilities as specified in HW config type 'GPU'.{gap}First conflicting "
            "quantizer location: Model/NNCFConv2d[head]"
        )
        top = kb.lookup(text, top=1)[0]
        assert top.entry.id == "openvino-nncf-hw-config-conflict"
        assert ("value", "GPU") in top.captures
        assert ("op", "Model/NNCFConv2d[head]") in top.captures
        assert "'GPU'" in top.cause and "ignored_scopes" in top.fix


def test_mo_reshape_mismatch_fills_both_shapes_and_the_node(kb: KnowledgeBase) -> None:
    text = (
        "[ ERROR ]  Number of elements in input [2 3 4] and output [5, 6] of reshape node tail/Reshape "
        "mismatch"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "openvino-mo-reshape-elements-mismatch"
    assert {("shape", "2 3 4"), ("value", "5, 6"), ("op", "tail/Reshape")} <= set(top.captures)
    assert "[2 3 4] into [5, 6]" in top.cause
    assert "--input_shape" in top.fix


@pytest.mark.parametrize(
    "text",
    [
        "[GPU] CL_OUT_OF_RESOURCES exception.\n\tDue to a driver bug, any subsequent OpenCL API call may "
        "cause the application to hang, so the GPU plugin may be unable to finish correctly.",
        "onednn_verbose,v1,primitive,error,ocl,errcode -5,CL_OUT_OF_RESOURCES,src/gpu/intel/ocl/foo.cpp:9",
        "onednn_verbose,1732870000123.5,v1,primitive,error,ocl,errcode -5,CL_OUT_OF_RESOURCES,src/x.cpp:1",
    ],
)
def test_the_gpu_out_of_resources_forms_have_the_plugins_two_cases(kb: KnowledgeBase, text: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "openvino-gpu-cl-out-of-resources"
    assert "out-of-bounds" not in top.cause or "outside its GPU buffers" in top.cause
    assert "Shared GPU Memory Override" in top.fix


def test_the_force_exit_sentence_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    text = (
        "[GPU] force exit.\n\tDue to the driver bug any subsequent OpenCL API call will cause application "
        "hang, so GPU plugin can't finish correctly."
    )
    assert kb.lookup(text, top=1)[0].entry.id == "openvino-gpu-force-exit-driver-bug"


def test_a_onednn_verbose_error_record_is_found_in_a_log(kb: KnowledgeBase) -> None:
    log = (
        "step 1 done\n"
        "onednn_verbose,v1,primitive,exec,gpu:0,convolution,jit:ir,forward_inference,src:f16,,mb1,0.51\n"
        "onednn_verbose,v1,primitive,error,ocl,errcode -5,CL_OUT_OF_RESOURCES,src/gpu/intel/ocl/k.cpp:7\n"
        "step 2 done\n"
    )
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.first_line_no for p in problems] == [3]


# ---- round21_tools (test_knowledge_round21_tools.py) ----


def test_openvino_core_error_inside_the_npu_plugin_stays_openvino(kb: KnowledgeBase) -> None:
    # The same chain around an error of OpenVINO's core (src/core/src/descriptor/tensor.cpp): OpenVINO's
    # entry, whose fix (reshape to static shapes before compiling) is what the NPU plugin needs, answers.
    message = (
        "RuntimeError: Exception from src\\inference\\src\\cpp\\core.cpp:100:\n"
        "Exception from src\\plugins\\intel_npu\\src\\plugin\\src\\plugin.cpp:500:\n"
        "get_shape was called on a descriptor::Tensor with dynamic shape"
    )
    found, m = first_answer(kb, message)
    assert found.uncovered is None
    assert m.entry.id == "openvino-get-shape-dynamic"


# ---- round23_forms (test_knowledge_round23_forms.py) ----


def test_axera_proc_files_name_axera_as_not_covered(kb: KnowledgeBase) -> None:
    found = kb.answer("Failed to open /proc/ax_proc/mem_cmm_info", top=3)
    assert found.uncovered is not None and found.uncovered[0] == "axera"


# ---- s19f (test_knowledge_round24_dev_s19f.py) ----


def test_ir_reader_opset_without_layer_id(kb: KnowledgeBase) -> None:
    msg = "Cannot create Gather layer model/gather_3 from unsupported opset: opset15"
    assert_answered(kb, msg, ("model/gather_3", "Gather", "opset15"), entry="openvino-ir-unsupported-opset")


# ---- s20g (test_knowledge_round25_dev_s20g.py) ----


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


def test_unconverted_ops_summary_answers_alone_and_yields_to_the_detailed_log(kb: KnowledgeBase) -> None:
    """src/frontends/common/src/unconverted_ops_report.cpp: the summary line names the ops whose translators
    failed; pasted alone it is answered by its entry (a summary: it points at the detailed log, so it is not
    judged specific), and under the report's per-op lines the per-op reason answers first (the entry is a
    scheme entry, ``generic``)."""
    top = kb.lookup("Summary:\n-- Conversion is failed for: aten::fancy_op, aten::other_op", top=1)[0]
    assert top.entry.id == "openvino-s23e-conversion-failed-summary", top.entry.id
    assert_advice(top, ("aten::fancy_op, aten::other_op", "ConversionExtension"), judged_specific=False)
    report = (
        "Model wasn't fully converted. Failed operations detailed log:\n-- aten::fancy_op with a message:\n"
        "Check 'dims.size() == 2' failed: fancy_op takes two dims\nSummary:\n"
        "-- Conversion is failed for: aten::fancy_op"
    )
    ids = [m.entry.id for m in kb.lookup(report, top=3)]
    assert ids[0] == "openvino-conversion-failed-for-op", ids
    assert ids.index("openvino-s23e-conversion-failed-summary") > 0, ids


@pytest.mark.parametrize("logger", ["serving", "dag_executor", "sequence_manager", "llm_executor"])
def test_a_model_server_log_line_names_openvino_by_its_logger(kb: KnowledgeBase, logger: str) -> None:
    """OpenVINO Model Server's spdlog loggers (model_server src/logging.cpp) name the server in a line whose
    text names no tool."""
    line = f"[2031-01-02 03:04:05.678][12][{logger}][error][widget.cpp:12] Something odd happened to widget_7"
    assert detect_families(line)[0] == "openvino"
    assert kb.lookup(line, top=1)[0].entry.family == "openvino"


@pytest.mark.parametrize(
    "line",
    [
        # the old Python API's native module as Windows' loader names it (inference_engine/ie_api.pyx)
        "ImportError: DLL load failed while importing ie_api: The operating system cannot run %1.",
        # openvino.genai's pipeline classes (src/python/openvino_genai/__init__.py)
        "TypeError: VLMPipeline.generate() got an unexpected keyword argument 'pictures'",
        "AttributeError: 'OVStableDiffusionXLPipeline' object has no attribute 'reshape_all'",
        "ContinuousBatchingPipeline: scheduler ran out of blocks",
        # optimum-intel's OpenVINO classes (optimum/intel/__init__.py, openvino/configuration.py)
        "OVModelForCausalLM.from_pretrained() missing 1 required positional argument: 'model_id'",
        "TypeError: OVWeightQuantizationConfig.__init__() got an unexpected keyword argument 'bitz'",
    ],
)
def test_openvinos_own_class_and_module_names_name_openvino(line: str) -> None:
    """Names that only OpenVINO's packages use (s25b) name OpenVINO in a line without a path or namespace."""
    assert detect_families(line)[:1] == ["openvino"]


def test_a_genai_pipeline_word_alone_is_not_enough() -> None:
    """Text2ImagePipeline, WhisperPipeline... are medium signs: other libraries may name a class so."""
    assert detect_families("Text2ImagePipeline finished") == []
    assert detect_families("WhisperPipeline finished") == []


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        # another package's DLL: the loader's sentence alone is any Python extension's (s25b)
        (
            "ImportError: DLL load failed while importing _quux_native: The specified module could not be "
            "found.",
            "openvino-s25b-python-dll-load-failed",
        ),
        # a "Required input ..." sentence of another tool is not the model server's request check
        (
            'RuntimeError: {NSLocalizedDescription = "Required input feature not passed to neural network."}',
            "openvino-s25b-ovms-request-input-check",
        ),
        # a shape sentence without benchmark_app's own "-i" advice is not its image check
        (
            "ValueError: tensor (2, 5) is not compatible with input shape [2, 6]",
            "openvino-s25b-benchmark-image-shape",
        ),
    ],
)
def test_other_tools_sentences_are_not_taken_by_the_s25b_entries(
    kb: KnowledgeBase, message: str, entry: str
) -> None:
    found = kb.answer(message)
    assert not (found.confident and found.matches[0].entry.id == entry), found


# ---- s26a: OpenVINO's own throw sites still unanswered, each a vendor form with made-up values ----
# openvinotoolkit/openvino: src/plugins/intel_gpu/src/runtime/ocl/ocl_common.hpp (OCL_ERR_MSG_FMT),
# src/core/include/openvino/core/any.hpp and src/core/src/any.cpp (Any::as, Base::type_check),
# src/inference/src/dev/isync_infer_request.cpp (find_port, check_batched_tensors),
# src/core/src/preprocess/preprocess_steps_impl.hpp (get_and_check_*_idx), src/inference/src/cpp/
# compiled_model.cpp and src/core/src/model.cpp (input()/output() and the tensor-name lookups),
# src/common/util/src/os/lin/lin_shared_object_loader.cpp (get_symbol),
# src/inference/src/cpp_interfaces/interface/ie_iinfer_request_internal.cpp (the old SetBlob checks),
# openvinotoolkit/openvino.genai src/cpp/src/tokenizer/tokenizer_impl.cpp.
CASES_S26A = [
    (
        "RuntimeError: Exception from src/inference/src/cpp/infer_request.cpp:231:\n"
        "Exception from src/plugins/intel_gpu/src/runtime/ocl/ocl_stream.cpp:402:\n"
        "clEnqueueNDRangeKernel, error code: -63",
        "openvino-s26a-gpu-opencl-call-error",
        ("clEnqueueNDRangeKernel", "-63"),
    ),
    (
        "clWaitForEvents, error code: -14",
        "openvino-s26a-gpu-opencl-call-error",
        ("clWaitForEvents", "-14"),
    ),
    (
        "Exception from src/core/src/any.cpp:77:\nBad cast from: N2ov4hint15PerformanceModeE To type: Ss",
        "openvino-s26a-any-bad-cast",
        ("N2ov4hint15PerformanceModeE", "c++filt"),
    ),
    (
        "Cannot find tensor for port opset1::Parameter pixel_values[0]:f32[1,3,336,336]",
        "openvino-s26a-infer-port-not-found",
        ("pixel_values[0]", "compiled_model.input"),
    ),
    (
        "set_input_tensors/set_tensors can be used only for inputs with N(batch) dimension 'layout' defined. "
        "Current layout is [?,C,H,W]",
        "openvino-s26a-set-tensors-needs-batch-layout",
        ("?,C,H,W", "set_layout"),
    ),
    (
        "Exception from src/core/src/preprocess/preprocess_steps_impl.hpp:31:\n"
        "Layout [N,C,D] doesn't have `height` dimension",
        "openvino-s26a-ppp-layout-lacks-dimension",
        ("height", "N,C,D", "set_layout"),
    ),
    (
        "RuntimeError: Check 'ov_tokenizer || ov_detokenizer' failed at src/cpp/src/tokenizer.cpp:201:\n"
        "Neither tokenizer nor detokenzier models were provided",
        "openvino-s26a-genai-no-tokenizer-models",
        ("openvino_tokenizer.xml", "optimum-cli export openvino"),
    ),
    (
        "'models_path' parameter should be a path to a dir not a xml file",
        "openvino-s26a-genai-models-path-is-xml",
        ("folder",),
    ),
    (
        "Check 'ov_tokenizer_path' failed at src/cpp/src/tokenizer/tokenizer_impl.cpp:31:\n"
        "openvino_tokenizers path is not set",
        "openvino-s26a-genai-tokenizers-path-unset",
        ("openvino-tokenizers",),
    ),
    (
        "dlSym cannot locate method 'create_extensions': /opt/ext/libquux_ops.so: undefined symbol: "
        "create_extensions",
        "openvino-s26a-extension-symbol-missing",
        ("create_extensions", "OPENVINO_CREATE_EXTENSIONS"),
    ),
    (
        "RuntimeError: Exception from src/inference/src/cpp/compiled_model.cpp:58:\n"
        "CompiledModel::input() must be called on a compiled model with exactly one parameter.",
        "openvino-s26a-single-port-accessor",
        ("CompiledModel::input()", "parameter", "compiled_model.input(0)"),
    ),
    (
        "Exception from src/inference/src/cpp/compiled_model.cpp:72:\n"
        "Input for tensor name 'quux_ids' is not found.",
        "openvino-s26a-tensor-name-not-found",
        ("quux_ids", "get_names"),
    ),
    (
        "Input blob size is not equal network input size (270000!=150528).",
        "openvino-s26a-ie-blob-size-mismatch",
        ("270000", "150528", "transpose"),
    ),
    (
        "[ PARAMETER_MISMATCH ] Failed to set Blob with precision not corresponding to user output precision",
        "openvino-s26a-ie-blob-precision-mismatch",
        ("output", "setPrecision"),
    ),
]

test_the_s26a_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES_S26A, confident=True)


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        # another program's status line: ", error code: <n>" alone is no OpenCL call of the GPU plugin
        ("Failed to open device, error code: -1", "openvino-s26a-gpu-opencl-call-error"),
        # TVM's OpenCL error has its own form ("OpenCL Error, code=-54: CL_INVALID_WORK_GROUP_SIZE")
        ("OpenCL Error, code=-54: CL_INVALID_WORK_GROUP_SIZE", "openvino-s26a-gpu-opencl-call-error"),
        # a shape sentence of another tool is not PrePostProcessor's layout check
        ("Can't get shape of input tensor 'x'", "openvino-s26a-ppp-layout-lacks-dimension"),
        # another API's tensor-name lookup
        ("No tensor found for tensor name 'logits'", "openvino-s26a-tensor-name-not-found"),
    ],
)
def test_other_tools_sentences_are_not_taken_by_the_s26a_entries(
    kb: KnowledgeBase, message: str, entry: str
) -> None:
    found = kb.answer(message)
    assert not (found.matches and found.matches[0].entry.id == entry), found.headline()


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: C:\\Jenkins\\workspace\\private-ci\\ie\\build-windows-vs2019\\b\\repos\\quux\\"
        "src\\x.cpp:9: boom",
        "/home/jenkins/agent/workspace/private-ci/ie/build-linux-ubuntu20/b/repos/quux/src/y.cpp:7 boom",
        "/home/jenkins/agent/workspace/private-ci/ie/build-linux-ubuntu16/b/repos/closed-dldt/z.cpp:3 boom",
    ],
)
def test_openvinos_ci_build_tree_names_openvino(line: str) -> None:
    """The build paths of OpenVINO's release packages name OpenVINO even when the path's 'openvino' part is
    cut off (s26a)."""
    assert detect_families(line)[:1] == ["openvino"]


# ---- s27a: OpenVINO's runtime, Python API and plugin texts read from the openvino 2026.4.1 wheel's
# libraries (libopenvino, the CPU/GPU/AUTO/auto-batch plugins, _pyopenvino), each a vendor form with
# made-up values: the compiled-blob compatibility checks of the CPU/GPU plugins' import_model, the
# compiled model's refused set_property, the Python binding's shared-memory and copy checks, Tensor::set_shape
# on user memory, the GPU's profiling and static-shape-only ops, automatic batching of a dynamic model and
# two PrePostProcessor steps.
CASES_S27A = [
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:170:\n"
        "[CPU] Cannot import compiled blob: it was built for a different runtime configuration (OpenVINO "
        "version/isa mismatch) and cannot be executed on this device.",
        "openvino-s27a-compiled-blob-incompatible",
        ("CPU", "cache_dir"),
    ),
    (
        "[GPU] Cannot import compiled blob: missing compatibility descriptor (blob produced by an "
        "incompatible OpenVINO version).",
        "openvino-s27a-compiled-blob-incompatible",
        ("GPU", "missing compatibility descriptor"),
    ),
    (
        "Exception from src/inference/src/cpp/compiled_model.cpp:118:\n"
        "It's not possible to set property of an already compiled model. Set property to "
        "Core::compile_model during compilation",
        "openvino-s27a-set-property-compiled-model",
        ("compile_model",),
    ),
    (
        "RuntimeError: SHARED MEMORY MODE FOR THIS CONSTANT IS NOT APPLICABLE! Passed numpy array must be C "
        "contiguous.",
        "openvino-s27a-numpy-not-contiguous",
        ("CONSTANT", "ascontiguousarray"),
    ),
    (
        "RuntimeError: Passed array must have the same size (number of elements) as the Tensor!",
        "openvino-s27a-tensor-array-size",
        ("copy_from",),
    ),
    (
        "RuntimeError: Cannot call set_shape for Tensor created on top of preallocated memory if shape was "
        "increased.",
        "openvino-s27a-set-shape-preallocated",
        ("set_input_tensor",),
    ),
    (
        "[GPU] Profiling data was not collected: please check that ov::enable_profiling property was set to "
        "true",
        "openvino-s27a-gpu-profiling-not-enabled",
        ("PERF_COUNT",),
    ),
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:109:\n"
        "Auto-batching does not support dynamic networks!",
        "openvino-s27a-auto-batch-dynamic",
        ("ALLOW_AUTO_BATCHING",),
    ),
    (
        "Auto-batching does not reshape/re-batch originally batched networks!",
        "openvino-s27a-auto-batch-dynamic",
        ("BATCH:GPU",),
    ),
    (
        "RuntimeError: Can't convert to dynamic/unknown element type, consider using of "
        "InputTensorInfo::set_element_type",
        "openvino-s27a-ppp-dynamic-element-type",
        ("set_element_type",),
    ),
    (
        "Conversion is not supported for dynamic layouts with fully dynamic shapes",
        "openvino-s27a-ppp-layout-fully-dynamic",
        ("convert_layout",),
    ),
    (
        "Exception from src/plugins/intel_gpu/src/plugin/program_builder.cpp:230:\n"
        "Dynamic shapes are not supported for DetectionOutput operation yet",
        "openvino-s27a-gpu-dynamic-op-unsupported",
        ("DetectionOutput",),
    ),
]

test_the_s27a_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES_S27A, confident=True)

# The GPU plugin's own "[GPU] ..." texts of the same wheel (libopenvino_intel_gpu_plugin.so): user tensors
# that do not fit a static port, GenAI's GPU attention paths (XAttention, 4-bit KV cache, PagedAttention's
# head size, the state API under KV-cache compression), remote contexts (USM, a shared queue), wait()
# without start_async() and an op the plugin lacks.
CASES_S27A_GPU = [
    (
        "Exception from src/plugins/intel_gpu/src/plugin/sync_infer_request.cpp:288:\n"
        "[GPU] The tensor size is not equal to model, can't set input tensor with index: 1, because "
        "model input (shape=[1,3,512,512]) and tensor (shape=(1.512.512.3)) are incompatible",
        "openvino-s27a-gpu-tensor-vs-port-shape",
        ("1.512.512.3", "model.reshape"),
    ),
    (
        "[GPU] The input tensor size is not equal to model port shape, can't handle input tensor with name: "
        "input_ids",
        "openvino-s27a-gpu-tensor-vs-port-shape",
        ("input_ids",),
    ),
    (
        "[GPU] Output port is static and output tensor set by user has smaller size (2048) "
        "than required (8192)",
        "openvino-s27a-gpu-output-tensor-too-small",
        ("2048", "8192", "set_output_tensor"),
    ),
    (
        "[GPU] XAttention is not supported by your current GPU architecture or IGC version. Please either "
        "disable XAttention by following the GenAI guide, or switch to a GPU with Xe2/Xe3 architecture and "
        "ensure the latest IGC is installed.",
        "openvino-s27a-gpu-xattention-unsupported",
        ("use_sparse_attention",),
    ),
    (
        "[GPU] 4-bit KV cache (u4/i4) with PagedAttention backend does not support BY_TOKEN quantization "
        "mode. Please use BY_CHANNEL mode or switch to 8-bit (i8) KV cache precision.",
        "openvino-s27a-gpu-kv-cache-u4-by-token",
        ("KEY_CACHE_QUANT_MODE", "KV_CACHE_PRECISION"),
    ),
    (
        "RuntimeError: [GPU] set_state API is supported only when KV-cache compression is disabled",
        "openvino-s27a-gpu-state-api-kv-compression",
        ("set_state", "KV_CACHE_PRECISION"),
    ),
    (
        "[GPU] OCL PagedAttention kernel does not support head_size < 16. k_head_size=12, v_head_size=12",
        "openvino-s27a-gpu-pa-head-size",
        ("12", "ATTENTION_BACKEND"),
    ),
    (
        "[GPU] Can't create USM tensor as USM is not supported (or manually disabled) on current device",
        "openvino-s27a-gpu-usm-unsupported",
        ("cl_intel_unified_shared_memory",),
    ),
    (
        "[GPU] Throughput streams can't be used with shared queue!",
        "openvino-s27a-gpu-streams-shared-queue",
        ("NUM_STREAMS",),
    ),
    (
        "RuntimeError: Exception from src/inference/src/cpp/infer_request.cpp:245:\n[GPU] Inference was not "
        "started!",
        "openvino-s27a-gpu-inference-not-started",
        ("start_async",),
    ),
    (
        "[GPU] PriorBoxClustered op is not supported in GPU plugin yet.",
        "openvino-s27a-gpu-op-not-supported-yet",
        ("PriorBoxClustered", "HETERO:GPU,CPU"),
    ),
]

test_the_s27a_gpu_form_is_answered_by_its_entry = answered_by_entry(CASES_S27A_GPU, confident=True)

# PrePostProcessor's resize, color and layout steps (libopenvino.so), the Python API's missing model path
# (_pyopenvino), the CPU plugin's refusal of remote contexts and of a half-reset KV cache, and set_tensors on
# a plugin without batched inputs.
CASES_S27A_PPP_CPU = [
    (
        "RuntimeError: Exception from src/core/src/preprocess/preprocess_steps_impl.cpp:97:\n"
        "Can't add resize for layout without W/H specified. Use 'set_layout' API to define layout of image "
        "data, like `NCHW`",
        "openvino-s27a-ppp-resize-needs-layout",
        ("set_layout",),
    ),
    (
        "Resize is not fully specified while target model shape is dynamic",
        "openvino-s27a-ppp-resize-dynamic",
        ("RESIZE_LINEAR",),
    ),
    (
        "Multiple plane input is not allowed as model input. Consider using of convert_color preprocessing "
        "operation. Current format is 'NV12_SINGLE_PLANE'",
        "openvino-s27a-ppp-multi-plane-input",
        ("NV12_SINGLE_PLANE", "convert_color"),
    ),
    (
        "Layout [N,...] is not supported. Please use fully specified model layout, current is [N,...]",
        "openvino-s27a-ppp-layout-not-fully-specified",
        ("model", "N,..."),
    ),
    (
        "RuntimeError: Path: /data/ir/resnet50.xml does not exist. Please provide valid model's path either "
        "as a string, bytes or pathlib.Path. Examples:",
        "openvino-s27a-python-model-path-missing",
        ("/data/ir/resnet50.xml",),
    ),
    (
        "RuntimeError: import_model with RemoteContext is not supported by CPU plugin!",
        "openvino-s27a-cpu-remote-context",
        ("import_model with RemoteContext",),
    ),
    (
        "KV state must be reset simultaneously, please also reset state for past_key_values.11.value",
        "openvino-s27a-cpu-kv-state-reset",
        ("past_key_values.11.value", "reset_state"),
    ),
    (
        "Not Implemented set_input_tensors/set_tensors are not supported by this plugin",
        "openvino-s27a-set-tensors-not-supported",
        ("set_input_tensor",),
    ),
]

test_the_s27a_ppp_and_cpu_form_is_answered_by_its_entry = answered_by_entry(
    CASES_S27A_PPP_CPU, confident=True
)


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        # another program's blob import: no [CPU]/[GPU] plugin prefix
        ("Cannot import compiled blob from cache.bin", "openvino-s27a-compiled-blob-incompatible"),
        # torch's own set_ with a too-small storage is no OpenVINO tensor
        (
            "RuntimeError: setStorage: sizes [4, 4] out of bounds for storage of size 4",
            "openvino-s27a-tensor-array-size",
        ),
        # TensorRT's and onnxruntime's dynamic-shape refusals are theirs
        ("Dynamic shapes are not supported by this layer", "openvino-s27a-gpu-dynamic-op-unsupported"),
        ("numpy array must be C contiguous", "openvino-s27a-numpy-not-contiguous"),
        # an OpenCL program's own wait, and a TensorRT/ORT op refusal, are not the GPU plugin's
        ("Inference was not started", "openvino-s27a-gpu-inference-not-started"),
        ("Op is not supported in TensorRT yet", "openvino-s27a-gpu-op-not-supported-yet"),
        # a shell's or another loader's missing file is not the Python API's model path check
        ("cat: /data/ir/resnet50.xml: No such file or directory", "openvino-s27a-python-model-path-missing"),
        ("The file model.onnx does not exist.", "openvino-s27a-python-model-path-missing"),
    ],
)
def test_other_tools_sentences_are_not_taken_by_the_s27a_entries(
    kb: KnowledgeBase, message: str, entry: str
) -> None:
    found = kb.answer(message)
    assert not (found.matches and found.matches[0].entry.id == entry), found.headline()


# s28a: texts read from the openvino 2026.4.1 wheel's libraries and openvinotoolkit/openvino's sources
# (the shared-object loader, the 2019-2021 Inference Engine's reshape launcher, the NPU plugin's compiled
# model and Level Zero backend, the PyTorch/JAX frontends' model-type and constant checks, PrePostProcessor's
# port selection), with made-up paths, names and values.
CASES_S28A = [
    (
        "RuntimeError: Cannot load library '/opt/venv/lib/python3.12/site-packages/openvino_tokenizers/lib/"
        "libopenvino_tokenizers.so': /opt/venv/lib/python3.12/site-packages/openvino_tokenizers/lib/"
        "libopenvino_tokenizers.so: undefined symbol: _ZNK2ov4Node8evaluateERSt6vectorINS_6TensorESaIS2_EE",
        "openvino-s28a-tokenizers-library-load",
        ("libopenvino_tokenizers.so", "undefined symbol", "openvino-tokenizers"),
    ),
    (
        "Cannot load library 'C:\\py\\Lib\\site-packages\\openvino_tokenizers\\lib\\"
        "openvino_tokenizers.dll': 126 from cwd: C:\\work",
        "openvino-s28a-tokenizers-library-load",
        ("openvino_tokenizers.dll",),
    ),
    (
        "terminate called after throwing an instance of "
        "'InferenceEngine::details::InferenceEngineException'\n  what():  Failed to infer shapes for Reshape "
        "layer (flatten/Reshape) with error: Invalid reshape mask (dim attribute): number of elements in "
        "input: [2,512,7,7] and output: [1,25088] mismatch",
        "openvino-s28a-ie-reshape-infer-failed",
        ("flatten/Reshape", "Reshape", "Invalid reshape mask"),
    ),
    (
        "Exception from src/plugins/intel_npu/src/plugin/src/compiled_model.cpp:90:\nGraph is unavailable or "
        "failed to initialize. The driver may be missing or too old to run inference for this blob.",
        "openvino-s28a-npu-graph-unavailable",
        ("driver", "cache"),
    ),
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:109:\n"
        "[NPU] Level zero backend is not found!",
        "openvino-s28a-npu-level-zero-missing",
        ("Level zero backend is not found",),
    ),
    (
        "FrontEnd API failed with OpConversionFailure:\nPyTorch Frontend doesn't support provided model "
        "type. Please provide supported model object using Python API.",
        "openvino-s28a-frontend-unsupported-model-type",
        ("PyTorch", "load_state_dict"),
    ),
    (
        "-- prim::Constant with a message:\nString constant cannot be converted to OpenVINO opset and "
        "should be removed by consuming operation.",
        "openvino-s28a-pytorch-none-string-constant",
        ("String",),
    ),
    (
        "RuntimeError: Exception from src/core/src/preprocess/pre_post_process.cpp:61:\n"
        "PrePostProcessor::output() - Model must have exactly one output, got 3",
        "openvino-s28a-ppp-input-count",
        ("output", "3"),
    ),
    (
        "PrePostProcessor::input(size_t) - Model doesn't have input with index 2",
        "openvino-s28a-ppp-input-count",
        ("input", "2"),
    ),
    (
        "RuntimeError: Exception from src/frontends/ir/src/frontend.cpp:263:\nWeights file "
        "C:\\models\\face-detection\\model.bin cannot be opened!",
        "openvino-s28a-weights-file-open",
        ("C:\\models\\face-detection\\model.bin", "read_model"),
    ),
    (
        "invalid external data: The size of the external data file does not match the byte size of an "
        "initializer 'decoder.embed_tokens.weight' in the model",
        "openvino-s28a-onnx-external-data-size",
        ("decoder.embed_tokens.weight", "save_as_external_data"),
    ),
    (
        "Model doesn't have output with name logits",
        "openvino-s28a-ppp-port-name",
        ("output", "logits"),
    ),
    (
        "Failed to set batch size to 8. Possible reasons are:\n    1) Ensure that all inputs have valid "
        "layout set with batch dimension\n    2) Check model's documentation if batch size can be set to it",
        "openvino-s28a-set-batch-layout",
        ("8", "set_layout"),
    ),
    (
        "FrontEnd API failed with GeneralFailure:\n[TensorFlow Frontend] Saved Model's variable index file "
        "cannot be parsed",
        "openvino-s28a-tf-model-not-parsed",
        ("variable index file", "saved_model.pb"),
    ),
]

test_the_s28a_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES_S28A, confident=True)


def test_an_inference_exception_chain_without_its_reason_names_openvino_and_the_call(
    kb: KnowledgeBase,
) -> None:
    # the Exception-from prefixes blanked, as a paste that lost them reads: the core's own file paths remain
    text = "RuntimeError:  inference/src/cpp/infer_request.cpp:223:\n  inference/src/dev/plugin.cpp:54:"
    found = kb.answer(text)
    assert found.matches and found.matches[0].entry.id == "openvino-s28a-inference-frames-only"
    assert dict(found.matches[0].captures)["file"] == "infer_request"


def test_a_specific_reason_after_the_exception_chain_outranks_the_chain(kb: KnowledgeBase) -> None:
    text = (
        "inference/src/cpp/core.cpp:109:\n inference/src/dev/plugin.cpp:54:\n"
        "Graph is unavailable or failed to initialize. The driver may be missing or too old to run inference "
        "for this blob."
    )
    assert kb.answer(text).matches[0].entry.id == "openvino-s28a-npu-graph-unavailable"


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        # another program's plugin library, no tokenizers extension
        ("Cannot load library 'libmyplugin.so': libfoo.so.1: cannot open shared object file", None),
        # TensorRT's/onnxruntime's own shape-inference failures are theirs
        ("Failed to infer shapes for node Conv_0", "openvino-s28a-ie-reshape-infer-failed"),
        # a rknn-toolkit v1 pre-compile log is not the AUTO plugin's compile failure
        (
            "D Generate pre-compile model data finished.\nE Generate nbg failed.\n"
            "E Catch exception when direct build RKNN model!",
            "openvino-h23o2-auto-compile-failed",
        ),
        # a Python object without a tensor attribute is not the PyTorch frontend's model-type check
        (
            "ValueError: the provided model type is not supported",
            "openvino-s28a-frontend-unsupported-model-type",
        ),
        ("onnxruntime model must have exactly one input, got 2", "openvino-s28a-ppp-input-count"),
        # other programs' missing weights and model files, and a model without a named attribute
        ("Error: weights file cannot be opened", "openvino-s28a-weights-file-open"),
        ("The model doesn't have a config attribute", "openvino-s28a-ppp-port-name"),
    ],
)
def test_other_tools_sentences_are_not_taken_by_the_s28a_entries(
    kb: KnowledgeBase, message: str, entry: str | None
) -> None:
    found = kb.answer(message)
    top = found.matches[0].entry.id if found.matches else ""
    assert not top.startswith("openvino-s28a") if entry is None else top != entry, found.headline()


GENERIC_CASES = [
    (
        "RuntimeError: [ GENERAL_ERROR ] AssertionFailed: outData->getTensorDesc().getDims().size() == 4",
        "openvino-s29a-ie-general-error",
        ("AssertionFailed: outData->getTensorDesc().getDims().size() == 4",),
    ),
]

test_a_catch_all_form_is_answered_by_its_generic_entry_with_the_text_after_it = answered_by_generic_entry(
    GENERIC_CASES
)


CONFIDENT_CASES: list[Case] = [
    # openvino/tools/ovc/cli_parser.py
    (
        'openvino.tools.ovc.error.Error: The "weights/detector.onnx" is not existing file or directory',
        "openvino-s30e-ovc-path-not-found",
        ("weights/detector.onnx",),
    ),
    # openvino/utils/data_helpers/data_dispatcher.py
    (
        "TypeError: Incompatible inputs of type: <class 'list'>",
        "openvino-s30e-incompatible-inputs",
        ("list",),
    ),
    (
        "TypeError: Incompatible inputs of type: <class 'torch.Tensor'> under pixel_values key!",
        "openvino-s30e-incompatible-inputs",
        ("torch.Tensor", "pixel_values"),
    ),
]

test_the_vendor_form_is_answered_confidently_by_its_entry = answered_by_entry(CONFIDENT_CASES, confident=True)


FIRST_VALUE_CASES = [
    ("ModuleNotFoundError: No module named 'openvino.inference_engine'", "openvino-s31e-api1-removed", {}),
    (
        "ImportError: cannot import name 'IENetwork' from 'openvino.inference_engine' (unknown location)",
        "openvino-s31e-api1-removed",
        {},
    ),
    (
        "src/detect.cpp:5:10: fatal error: inference_engine.hpp: No such file or directory",
        "openvino-s31e-api1-removed",
        {"header": "inference_engine.hpp"},
    ),
    ("ModuleNotFoundError: No module named 'openvino.tools.mo'", "openvino-s31e-mo-removed", {}),
    ("/bin/sh: 1: mo: not found", "openvino-s31e-mo-removed", {}),
    ("zsh: command not found: mo", "openvino-s31e-mo-removed", {}),
    (
        "ImportError: cannot import name 'PartialShape' from 'openvino.runtime' (unknown location)",
        "openvino-s31e-runtime-namespace-removed",
        {"name": "PartialShape"},
    ),
    ("ModuleNotFoundError: No module named 'openvino.tools.pot'", "openvino-s31e-pot-removed", {}),
]

test_the_source_form_is_answered_with_its_values = in_top3_with_values(FIRST_VALUE_CASES)
test_the_entry_answers_first_with_its_values_quoted = first_with_values(FIRST_VALUE_CASES)


def test_pre_compile_lines_are_no_openvino_compile_failure(kb: KnowledgeBase) -> None:
    """RKNN-Toolkit 1's "Generate pre-compile model data" holds "compile model": OpenVINO's AUTO entry is
    anchored on "compile model failed", so the line is no partial match of it."""
    found = kb.answer("D Generate pre-compile model data finished.")
    assert all(m.entry.id != "openvino-h23o2-auto-compile-failed" for m in found.matches)
    ov = kb.answer("[AUTO] compile model failed, GPU:Mock GPU Load Failed; CPU:Mock CPU Load Failed")
    assert ov.matches[0].entry.id == "openvino-h23o2-auto-compile-failed"


NEAR_MISSES = [
    # a tokenizers extension keeps its own entry (s28a), not the generic loader's
    "Cannot load library '/home/u/.venv/lib/python3.11/site-packages/openvino_tokenizers/lib/"
    "libopenvino_tokenizers.so': undefined symbol: _ZN2ov4Node14get_input_sizeEv",
    # NPU's option check keeps its own entry (s24c)
    "[ NOT_FOUND ] Option 'NPU_COMPILER_TYPE' is not supported for current configuration",
    # a shape-inference header that is not one operation's
    "include/openvino/core/shape_inference.hpp",
]


@pytest.mark.parametrize("message", NEAR_MISSES)
def test_lookalikes_are_not_answered_by_the_new_entries(kb: KnowledgeBase, message: str) -> None:
    found = kb.lookup(message, top=1)
    assert not found or not found[0].entry.id.rsplit("+", 1)[-1].startswith(
        ("openvino-s29a-", "torch-onnx-s29a-")
    ), found[0].entry.id


def test_the_myriad_usb_library_log_names_openvino() -> None:
    assert detect_families(
        "E: [ncAPI] [    950632] [] ncDeviceOpen:859\tDevice doesn't appear after boot"
    ) == ["openvino"]
    assert detect_families("Can not init Myriad device: NC_ERROR") == ["openvino"]


@pytest.mark.parametrize(
    "message",
    [
        "AttributeError: 'NoneType' object has no attribute 'build_engine'",
        "AttributeError: module 'tvm.relay.frontend' has no attribute 'from_onnx'",
    ],
)
def test_a_bare_attribute_error_is_not_nncfs_hook_entry(kb: KnowledgeBase, message: str) -> None:
    """s24c's NNCF hook entry holds NNCF's own frame line; the AttributeError after it is a capture, so its
    words do not pull any AttributeError toward NNCF."""
    found = kb.lookup(message, top=3)
    assert all(m.entry.id != "openvino-s24c-nncf-torch-quantizer-hook-outside-forward" for m in found)


def test_nncfs_hook_entry_still_names_the_error_after_its_frame(kb: KnowledgeBase) -> None:
    message = (
        '  File "/venv/lib/python3.10/site-packages/nncf/torch/quantization/external_quantizer.py", '
        "line 39, in __call__\n    storage = getattr(replica.nncf, EXTERNAL_QUANTIZERS_STORAGE_NAME)\n"
        "AttributeError: 'NoneType' object has no attribute 'nncf'"
    )
    top = top_match(kb, message)
    assert top.entry.id == "openvino-s24c-nncf-torch-quantizer-hook-outside-forward"
    assert dict(top.captures)["detail"].startswith("AttributeError: 'NoneType' object has no attribute")


test_read_model_without_the_frontend_named_keeps_the_checklist = keeps_its_entry(
    [
        (
            # The frontend for the format is not in the list: the checklist entry answers.
            "Unable to read the model: m.onnx Please check that model format: onnx is supported and the "
            "model is correct. Available frontends: ir paddle",
            "openvino-unable-to-read-model",
            "openvino-s29g-read-model-frontend-present",
        ),
        (
            # Another format than xml/onnx.
            "Unable to read the model: m.pdmodel Please check that model format: pdmodel is supported and "
            "the model is correct. Available frontends: ir onnx paddle",
            "openvino-unable-to-read-model",
            "openvino-s29g-read-model-frontend-present",
        ),
    ]
)

#: mo prints 'Cannot infer shapes or values' before the reason; when the reason is the missing infer function,
#: that entry says why; the header alone still answers.
test_the_model_optimizer_reason_answers_before_its_shape_inference_header = answers_first(
    [
        (
            '[ ERROR ]  Cannot infer shapes or values for node "Loop_12".\n'
            '[ ERROR ]  There is no registered "infer" function for node "Loop_12" with op = "Loop". Please '
            "implement this function in the extensions.",
            "openvino-s23e-mo-no-infer-function",
        ),
        (
            '[ ERROR ]  Cannot infer shapes or values for node "Resize_3".\n[ ERROR ]  index 4 is out of '
            "bounds",
            "openvino-mo-cannot-infer-shapes",
        ),
    ]
)


#: The entries of the removed APIs (s31e): their advice (port the code to the current
#: release) is wrong for a module that is only not installed.
REMOVED_API_ENTRIES = {
    "coreml-s31e-onnx-converter-removed",
    "onnx-s31e-optimizer-removed",
    "openvino-s31e-api1-removed",
    "openvino-s31e-mo-removed",
    "openvino-s31e-pot-removed",
    "openvino-s31e-runtime-namespace-removed",
    "tflite-s31e-tflite-runtime-missing",
    "torch-onnx-s31e-dynamo-export-removed",
    "torch-onnx-s31e-onnxscript-missing",
}


@pytest.mark.parametrize(
    "message",
    [
        "ModuleNotFoundError: No module named 'openvino'",  # not installed at all: the generic answer
        "ModuleNotFoundError: No module named 'openvino_genai'",
        "bash: demo: command not found",  # another command ending in 'mo'
        "sh: 1: ./run_mo: not found",
        "ImportError: cannot import name 'Core' from 'openvino' (unknown location)",
        "ModuleNotFoundError: No module named 'onnxsim'",
        "ModuleNotFoundError: No module named 'onnxruntime'",
        "AttributeError: module 'torch.onnx' has no attribute 'export'",
        "ImportError: cannot import name 'helper' from 'onnx'",
    ],
)
def test_other_missing_modules_are_not_a_removed_api(kb: KnowledgeBase, message: str) -> None:
    removed = REMOVED_API_ENTRIES
    assert all(m.entry.id not in removed for m in kb.answer(message, top=3).matches if m.reason != "words")
