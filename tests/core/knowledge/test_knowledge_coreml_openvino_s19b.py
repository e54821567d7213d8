"""Session s19b: Core ML's and OpenVINO's remaining failure classes, read from their own sources.

Core ML (coremltools 9.0): the PyTorch frontend's input checks (internal_graph.py's TorchScript input count,
converter.py's EXIR input and StateType checks, exir_utils.py's ExportedProgram input refusals), its
scaled_dot_product_attention and convolution argument checks (ops.py), the MLModel bridge
(models/model.py's _MLModelProxy), package saving and fp16 weights (models/utils.py) and the
coremltools.optimize.coreml op configs (optimize/coreml/_config.py).
OpenVINO: the core's shape inference of MatMul, Broadcast, Convolution and Gather
(src/core/shape_inference/include), InferRequest's tensor check (isync_infer_request.cpp) and the NPU
plugin's Level Zero results (intel_npu zero_utils.hpp / zero_result.cpp), the GPU kernel selector's missing
kernel, openvino.genai's missing chat template and openvino_tokenizers' / optimum-intel's tokenizer
conversion; and coremltools' load.py refusal of a model that is neither TorchScript nor an ExportedProgram
(an older entry, widened);
OpenVINO Model Server's model-not-found statuses and coremltools.optimize's block/group size checks; and two
Core ML framework runtime strings (MLMultiArray shape check, Espresso's ANE plan failure) from public threads.

Each case is the source's own format string with made-up names and values filled in, never an eval message:
the entry that answers it, and the parts of the message its advice must name."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

ENTRIES = [
    # coremltools/converters/mil/frontend/torch/internal_graph.py, converter.py
    (
        "ValueError: Number of TorchScript inputs (3) must match the user provided inputs (1).",
        "coreml-s19b-torch-input-count",
        ("(3, against 1 in inputs=[...])", "one ct.TensorType/ct.ImageType per forward() argument"),
    ),
    (
        "ValueError: inconsistent shape between EXIR input pixels shape (1, 3, 224, 224) and user specified "
        "input pixels shape (1, 3, 320, 320)",
        "coreml-s19b-torch-input-count",
        ("EXIR input pixels", "(1, 3, 224, 224)", "torch.export.Dim"),
    ),
    # converters/mil/frontend/torch/exir_utils.py
    (
        "ValueError: Core ML does not support size variables that are expressions of symbolic variables, but "
        "got 4*s1 in tensor tokens.",
        "coreml-s19b-exir-program-inputs",
        ("(4*s1 in tokens)", "torch.export.Dim"),
    ),
    (
        "ValueError: Core ML cannot handle user input mutation, because Core ML distinguishes input "
        "(immutable) and state (mutable). You have 2 options:\n1. If mutation is intentional and necessary "
        "to carry over, then please replace input with buffer by your torch model.register_buffer then "
        "re-export",
        "coreml-s19b-exir-program-inputs",
        ("ct.StateType", "x = x.clone()"),
    ),
    (
        "NotImplementedError: Core ML does not have general support for non-contiguous dim order",
        "coreml-s19b-exir-program-inputs",
        ("channels_last", ".contiguous()"),
    ),
    # converters/mil/frontend/torch/converter.py (_validate_states)
    (
        "ValueError: StateType named key_cache not provided or not found in the source torch model. Please "
        "make sure the name in 'ct.StateType(name=..., wrapped_type=ct.TensorType(...))' match the "
        "'named_buffers()' in the source torch model: ['kv.key_cache']",
        "coreml-s19b-statetype-buffer",
        ("(key_cache is not one)", "named_buffers()", "ct.target.iOS18"),
    ),
    (
        "ValueError: StateType shape (1, 4, 64) must match the torch buffer shape (1, 4, 128).",
        "coreml-s19b-statetype-buffer",
        ("((1, 4, 64) against (1, 4, 128))",),
    ),
    # models/model.py
    (
        "WARNING:coremltools:Failed to load _MLModelProxy: dlopen(/venv/coremltools/libcoremlpython.so, "
        "0x0002): tried: '/venv/coremltools/libcoremlpython.so' (mach-o file, but is an incompatible "
        "architecture (have 'arm64', need 'x86_64'))",
        "coreml-s19b-mlmodel-proxy-not-loaded",
        ("incompatible architecture", "native arm64", "import coremltools.libcoremlpython"),
    ),
    (
        "Exception: This model was not loaded or compiled with the Core ML Framework.",
        "coreml-s19b-mlmodel-proxy-not-loaded",
        ("(its import failed)", "on macOS"),
    ),
    # models/utils.py
    (
        "FileExistsError: The package_path is invalid because it's a non-empty directory: out/Tiny.mlpackage",
        "coreml-s19b-save-package-path",
        ("(out/Tiny.mlpackage)", "remove the old out/Tiny.mlpackage"),
    ),
    (
        "ValueError: Input/output names for ML Program must be of the format [a-zA-Z_][a-zA-Z0-9_]*. "
        "That is, it must start with a letter and only contain numerals, underscore or letters. "
        'Provided feature name, "img-in" does not satisfy these requirements.',
        "coreml-s19b-save-package-path",
        ("ct.utils.rename_feature", "[a-zA-Z_][a-zA-Z0-9_]*"),
    ),
    (
        "Exception: Model cannot be converted as it has weights that cannot be represented in half "
        "precision.",
        "coreml-s19b-fp16-weights-range",
        ("65504", "convert_to='mlprogram'"),
    ),
    # optimize/coreml/_config.py
    (
        'ValueError: Invalid value of "nbits" (7) for palettization. Supported "nbits" are '
        "(1, 2, 3, 4, 6, 8)",
        "coreml-s19b-optimize-op-config",
        ("(7)", "instead of 7", "OpPalettizerConfig(mode='kmeans', nbits=4"),
    ),
    (
        "ValueError: Only mode ('LINEAR_SYMMETRIC', 'LINEAR') supported for weight affine quantization. Got "
        'mode: "affine".',
        "coreml-s19b-optimize-op-config",
        ("(affine)", "OpLinearQuantizerConfig(mode='linear_symmetric'"),
    ),
    (
        "ValueError: Invalid dtype. Should be int4/8 or uint4/8, but got int16",
        "coreml-s19b-optimize-op-config",
        ("(int16)", "dtype int8, uint8, int4 or uint4"),
    ),
    # converters/mil/frontend/torch/ops.py
    (
        "ValueError: scaled_dot_product_attention op: attn_mask cannot be provided when is_causal is set to "
        "True.",
        "coreml-s19b-torch-sdpa-args",
        ("is_causal=True, not both",),
    ),
    (
        "NotImplementedError: A variable dropout probability is specified. Since Core ML does not support "
        "dropout yet, we cowardly refuse to convert it",
        "coreml-s19b-torch-sdpa-args",
        ("dropout_p=0.0", "model.eval()"),
    ),
    (
        "AssertionError: torch conv groups must be constant",
        "coreml-s19b-torch-conv-param-not-const",
        ("the conv's groups as constants",),
    ),
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
    # apple/coremltools: converters/mil/frontend/torch/load.py (the torch.export branch)
    (
        "TypeError: A PyTorch model must either be a .pt2 file, or an ExportedProgram object. Received: "
        "<class 'tiny.TinyNet'>",
        "coreml-pytorch-file-type",
        ("given <class 'tiny.TinyNet'>", "torch.export.export(model.eval()", "torch.jit.trace(model.eval()"),
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
    # apple/coremltools: optimize/torch/_utils/validation_utils.py, optimize/_utils.py
    (
        "tiny.block2.proj.weight: axis_length=100 is not divisible by group_size=32",
        "coreml-s19b-optimize-size-not-divisible",
        ("of tiny.block2.proj", "module_name_configs={'tiny.block2.proj': None}"),
    ),
    (
        "Invalid block_sizes; On 1th axis, the dim size 100 is not divisible by block size 32. Unable to "
        "perform structured quantization.",
        "coreml-s19b-optimize-size-not-divisible",
        ("op_name_configs", "per_channel granularity"),
    ),
    # Core ML framework runtime strings as public threads quote them (MNN#1672, coremltools#1106)
    (
        'Error Domain=com.apple.CoreML Code=0 "MultiArray shape (1 x 3 x 300 x 300) does not match the shape '
        '(1 x 3 x 256 x 256) specified in the model description"',
        "coreml-s19b-multiarray-shape-mismatch",
        ("given 1 x 3 x 300 x 300, the model takes 1 x 3 x 256 x 256", "multiArrayConstraint", "ct.RangeDim"),
    ),
    (
        "[espresso] [Espresso::handle_ex_plan] exception=ANECF error: failed to load ANE model. "
        "Error=createProgramInstanceForModel: Program load failure (0x20004)",
        "coreml-s19b-espresso-ane-plan-failed",
        ("reason: failed to load ANE model", ".cpuAndGPU", "bisect_model"),
    ),
    (
        "2024-01-02 10:11:12.131415+0100 TinyApp[100:200] [coreml] Error plan build: -1.",
        "coreml-s19b-espresso-ane-plan-failed",
        ("'Error plan build: -1'", "reason: none logged"),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), ENTRIES, ids=[f"{c[1]}-{i}" for i, c in enumerate(ENTRIES)]
)
def test_the_source_form_is_answered_by_its_entry(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_a_missing_native_module_stays_with_the_native_libs_entry(kb: KnowledgeBase) -> None:
    """The _MLModelProxy warning whose reason is the missing libcoremlpython module is the install entry's
    case (what is missing, and which wheels carry it), not the bridge entry's."""
    top = kb.lookup("Failed to load _MLModelProxy: No module named 'coremltools.libcoremlpython'", top=1)[0]
    assert top.entry.id == "coreml-h23v2-native-libs-missing"
