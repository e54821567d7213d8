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

Messages are written in our own words around the text each tool prints (its source named in the entry), not
copied from the evaluation set: the RKNN runtime's loader libraries, onnxruntime-genai's configuration file,
cpuinfo's start-up warning inside onnxruntime, GenieX's plugin error, and OpenVINO's NPU plugin printed by a
Windows build.

From round22_forms (was test_knowledge_round22_forms.py).

From round23_forms (was test_knowledge_round23_forms.py).

From s19f (was test_knowledge_round24_dev_s19f.py).

From s20g (was test_knowledge_round25_dev_s20g.py):

Issue 23, round 25's dev forms answered at their cause (s20g): OpenVINO Model Server's layout and shape
parameters.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.family import detect_families
from tests.support.advice import answered_by_entry, assert_answered, first_answer

PTA = "\n[ERROR] 2026-01-02-10:11:12 (PID:4321, Device:0, RankID:-1) "


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
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


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


# ---- round13 (test_knowledge_round13.py) ----


def test_the_ir_readers_future_version_is_openvinos_with_the_version(kb: KnowledgeBase) -> None:
    top = kb.lookup("[ ERROR ] Error reading network: cannot parse future versions: 11", top=1)[0]
    assert top.entry.id == "openvino-ir-reader-future-version"
    assert "IR version 11" in top.cause
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
