"""s18e: the TensorRT and onnxruntime failure and warning classes users report most, answered by what the
tool's own wording says instead of an Error Code card or a family card.  Each message is the vendor's
wording (the strings of libnvinfer and its plugin registry, TensorRT's builder warnings, onnxruntime's C++
and Python sources) with names and values of our own; the advice must carry the layer, tensor, size or
version the message gave."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

CASES = [
    (
        "[TRT] [E] 1: [pluginV2Runner.cpp::load::300] Error Code 1: Serialization (Serialization assertion "
        "creator failed.Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin "
        "Registry)",
        "trt-plugin-creator-missing-at-load",
        ("init_libnvinfer_plugins", "deserialize_cuda_engine"),
    ),
    (
        "IPluginRegistry::getCreator: Error Code 4: API Usage Error (Cannot find plugin: GridWarp_TRT, "
        "version: 2, namespace:.)",
        "trt-plugin-registry-cannot-find",
        ("GridWarp_TRT", "version 2", "loadLibrary"),
    ),
    (
        "[TRT] [E] 4: [pluginV2Builder.cpp::makeRunner::519] Error Code 4: Internal Error (Internal error: "
        "plugin node blk3/attn/PLUGIN_V2_Fused_0 requires 8589934592 bytes of scratch space, but only "
        "1073741824 is available. Try increasing the workspace size with "
        "IBuilderConfig::setMemoryPoolLimit().",
        "trt-plugin-scratch-space",
        ("blk3/attn/PLUGIN_V2_Fused_0", "8589934592 bytes", "1073741824 bytes", "memPoolSize"),
    ),
    (
        "[TRT] [W] Some tactics do not have sufficient workspace memory to run. Increasing workspace size "
        "will "
        "enable more tactics, please check verbose output for requested sizes.",
        "trt-tactics-short-of-workspace",
        ("set_memory_pool_limit", "not a failure"),
    ),
    (
        "[TRT] [W] Weights [name=/neck/c3/Conv + /neck/c3/Relu.weight] had the following issues when "
        "converted to FP16:",
        "trt-fp16-weights-subnormal",
        ("/neck/c3/Conv + /neck/c3/Relu.weight", "--layerPrecisions"),
    ),
    (
        "[TRT] [W]  - Values less than smallest positive FP16 Subnormal value detected. Converting to FP16 "
        "minimum subnormalized value.",
        "trt-fp16-values-detected",
        ("Values less than smallest positive FP16 Subnormal value", "OBEY_PRECISION_CONSTRAINTS"),
    ),
    (
        "[TRT] [W] Running layernorm after self-attention in FP16 may cause overflow. Exporting the model to "
        "the latest available ONNX opset (later than opset 17) to use the INormalizationLayer, or forcing "
        "layernorm layers to run in FP32 precision can help with preserving accuracy.",
        "trt-layernorm-fp16-overflow",
        ("opset 17", "INormalizationLayer"),
    ),
    (
        "[TRT] [W] Missing scale and zero-point for tensor /head/cls/Sigmoid_output_0, expect fall back to "
        "non-int8 implementation for any layer consuming or producing given tensor",
        "trt-int8-missing-scale",
        ("/head/cls/Sigmoid_output_0", "set_dynamic_range"),
    ),
    (
        "[TRT] [E] 4: [graphShapeAnalyzer.cpp::analyzeShapes::1285] Error Code 4: Miscellaneous "
        "(IElementWiseLayer Mul_731: broadcast dimensions must be conformable)",
        "trt-broadcast-not-conformable",
        ("Mul_731", "neither is 1"),
    ),
    (
        "[TRT] [E] 3: (Unnamed Layer* 52) [Convolution]:kernel weights has count 1152 but 4608 was expected",
        "trt-kernel-weights-count",
        ("1152", "4608", "number of classes"),
    ),
    (
        "[TRT] [W] TensorRT was linked against cuDNN 8.9.2 but loaded cuDNN 8.6.0",
        "trt-linked-against-loaded",
        ("cuDNN 8.9.2", "cuDNN 8.6.0", "--tacticSources"),
    ),
    (
        "[TRT] [E] IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM 61 is not "
        "supported by this TensorRT release.)",
        "trt-target-sm-not-supported",
        ("SM 61", "support matrix"),
    ),
    (
        "[TRT] [W] CUDA lazy loading is not enabled. Enabling it can significantly reduce device memory "
        "usage "
        "and speed up TensorRT initialization.",
        "trt-lazy-loading-off",
        ("CUDA_MODULE_LOADING=LAZY",),
    ),
    (
        "2024-05-02 10:11:12.345 [W:onnxruntime:, session_state.cc:1166 VerifyEachNodeIsAssignedToAnEp] Some "
        "nodes were not assigned to the preferred execution providers which may or may not have an negative "
        "impact on performance. e.g. ORT explicitly assigns shape related ops to CPU to improve perf.",
        "ort-nodes-not-on-preferred-ep",
        ("log_severity_level",),
    ),
    (
        "[W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] 7 Memcpy nodes are added to the graph "
        "main_graph "
        "for CUDAExecutionProvider. It might have negative impact on performance (including unable to run "
        "CUDA graph). Set session_options.log_severity_level=1 to see the detail logs before this message.",
        "ort-memcpy-nodes-added",
        ("7 copies", "main_graph", "CUDAExecutionProvider", "IOBinding"),
    ),
    (
        "[W:onnxruntime:, graph.cc:1283 Graph] Initializer backbone.fc.bias appears in graph inputs and will "
        "not be treated as constant value/weight. This may prevent some of the graph optimizations, like "
        "const folding.",
        "ort-initializer-in-graph-inputs",
        ("backbone.fc.bias", "remove_initializer_from_input.py", "keep_initializers_as_inputs=False"),
    ),
    (
        "ValueError: This ORT build has ['TensorrtExecutionProvider', 'CUDAExecutionProvider', "
        "'CPUExecutionProvider'] enabled. Since ORT 1.9, you are required to explicitly set the providers "
        "parameter when instantiating InferenceSession.",
        "ort-providers-parameter-required",
        ("['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider']", "providers="),
    ),
    (
        "ImportError: DLL load failed while importing onnxruntime_pybind11_state: A dynamic link library "
        "(DLL) "
        "initialization routine failed.",
        "ort-pybind-dll-load-failed",
        ("A dynamic link library (DLL) initialization routine failed", "Visual C++ Redistributable"),
    ),
    (
        "RuntimeError: Input must be a list of dictionaries or a single numpy array for input "
        "'pixel_values'.",
        "ort-feed-not-numpy",
        ("pixel_values", ".numpy()"),
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : /onnxruntime_src/onnxruntime/core/optimizer/initializer.cc:43 "
        "onnxruntime::Initializer::Initializer(const onnx::TensorProto&, const std::filesystem::path&) "
        "!model_path.empty() was false. model_path must not be empty. Ensure that a path is provided when "
        "the "
        "model is created or loaded.",
        "ort-external-data-needs-model-path",
        ("external data file", "save_as_external_data=False"),
    ),
    (
        "[W:onnxruntime:, inference_session.cc:491 RegisterExecutionProvider] Having memory pattern enabled "
        "is "
        "not supported while using the DML Execution Provider. So disabling it for this session since it "
        "uses "
        "the DML Execution Provider.",
        "ort-dml-memory-pattern-off",
        ("enable_mem_pattern = False", "ORT_SEQUENTIAL"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), CASES, ids=[c[1] for c in CASES])
def test_the_class_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


def test_a_specific_entry_still_answers_before_a_warning_clause(kb: KnowledgeBase) -> None:
    """The FP16 clause's literal ``fp16`` is in many TensorRT messages: one a specific entry answers keeps "
    "it."""
    top = kb.lookup("[TRT] ERROR: Network needs native FP16 and platform does not have native FP16", top=1)[0]
    assert top.entry.id == "tensorrt-no-native-fp16"


@pytest.mark.parametrize(
    ("message", "clause", "named"),
    [
        (
            "[TRT] [E] 4: [concatenationNode.cpp::computeOutputExtents::30] Error Code 4: Internal Error "
            "(neck_cat_2: all concat input tensors must have the same dimensions except on the concatenation "
            "axis (1), but dimensions mismatched at index 2. Input 0 shape: [1,128,38,38], Input 1 shape: "
            "[1,256,37,37])",
            "trt-concat-dims-mismatch",
            ("neck_cat_2", "axis 1", "[1,128,38,38]", "[1,256,37,37]"),
        ),
        (
            "[TRT] [E] 9: [pluginV2Builder.cpp::reportPluginError::23] Error Code 9: Internal Error "
            "(RoiWarp_17: could not find any supported formats consistent with input/output data types)",
            "trt-no-format-for-types",
            ("RoiWarp_17", "supportsFormatCombination"),
        ),
    ],
    ids=["concat", "formats"],
)
def test_a_builder_shape_or_format_check_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


@pytest.mark.parametrize(
    ("message", "clause", "named"),
    [
        (
            "[TRT] [W] Using default stream in enqueueV3() may lead to performance issues due to additional "
            "calls to cudaStreamSynchronize() by TensorRT to ensure correct synchronization. Please use "
            "non-default stream instead.",
            "trt-default-stream",
            ("enqueueV3()", "execute_async_v3"),
        ),
        (
            "[TRT] [E] 1: [convolutionRunner.cpp::executeConv::465] Error Code 1: Cudnn "
            "(CUDNN_STATUS_ARCH_MISMATCH)",
            "trt-cudnn-status",
            ("CUDNN_STATUS_ARCH_MISMATCH", "--tacticSources=-CUDNN"),
        ),
        (
            "2024-03-01 10:00:00.1 [W:onnxruntime:, graph.cc:3553 CleanUnusedInitializersAndNodeArgs] "
            "Removing "
            "initializer 'head.anchor_grid'. It is not used by any node and should be removed from the "
            "model.",
            "ort-unused-initializer-removed",
            ("head.anchor_grid", "prune_graph"),
        ),
    ],
    ids=["default-stream", "cudnn-status", "unused-initializer"],
)
def test_a_runtime_or_load_notice_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


def test_a_torch_tensorrt_input_on_the_cpu_is_answered_with_the_device_it_was_on(kb: KnowledgeBase) -> None:
    """pytorch/TensorRT's execute_engine.cpp checks the device, then the type, of every input."""
    assert_answered(
        kb,
        "RuntimeError: [Error thrown at core/runtime/execute_engine.cpp:101] Expected inputs[i].is_cuda() to "
        "be true but got false\nExpected input tensors to have device cuda, found device cpu",
        ("device cpu", ".to('cuda')"),
        entry="tensorrt-torch-tensorrt-input-device-type",
    )
    assert_answered(
        kb,
        "Expected input tensors to have type Half, found type float",
        ("type float", "Half"),
        entry="tensorrt-torch-tensorrt-input-device-type",
    )


def test_a_quantizer_without_a_weight_type_is_answered_with_the_tensor(kb: KnowledgeBase) -> None:
    """onnxruntime.quantization's get_tensor_type, when shape inference gave the tensor no type."""
    assert_answered(
        kb,
        "RuntimeError: Unable to find data type for weight_name='/dec/blk2/ffn/MatMul_output_0'. "
        "shape_inference failed to return a type probably this node is from a different domain or using an "
        "input produced by such an operator. This may happen if you quantize a model already quantized.",
        ("/dec/blk2/ffn/MatMul_output_0", "DefaultTensorType", "preprocess"),
        entry="onnxruntime-quantization-weight-type-unknown",
    )


def test_a_duplicate_region_is_answered_with_the_tensor_it_named(kb: KnowledgeBase) -> None:
    assert_answered(
        kb,
        "[TRT] [E] 2: [checkSanity.cpp::checkSanity::107] Error Code 2: Internal Error (Assertion "
        "inserted.second failed. Found duplicate region name (Unnamed Layer* 88) [Constant]_output')",
        ("(Unnamed Layer* 88) [Constant]_output", "--fold-constants"),
        clause="trt-duplicate-region-name",
    )


def test_a_duplicate_region_name_stops_at_the_name(kb: KnowledgeBase) -> None:
    top = kb.lookup(
        "[TRT] [E] 2: [checkSanity.cpp::checkSanity::106] Error Code 2: Internal Error (Assertion "
        "regionNames.find(r->name) == regionNames.end() failed. Found duplicate region name "
        "/neck/Concat_3_output_0)",
        top=1,
    )[0]
    assert ("tensor", "/neck/Concat_3_output_0") in top.captures
