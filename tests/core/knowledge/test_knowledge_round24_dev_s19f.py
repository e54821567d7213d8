"""Issue 23, round 24's dev forms answered at their cause (s19f): Core ML's Espresso ANE failures (s19b's
entry), Xcode's model class generation, the spec validator's feature checks and an Objective-C selector
missing on an older OS; MediaPipe LLM Inference's signature check; onnxruntime-node's provider list, the C#
API's element-type check and the CANN execution provider's CannCall lines; RKLLM's model check; TensorRT's
lazily loaded libraries (and glibc 2.41's executable-stack refusal); QNN HTP's per-graph allocation limit;
ncnn's glslang built-ins and Vulkan results printed by name; protobuf's other DecodeError texts under
onnx.load.

Each message is written from the vendor's own wording (the sources each entry cites) with names and values
of our own; none is a message of the evaluation set."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_advice, assert_answered


def test_espresso_anecf_load_and_compile(kb: KnowledgeBase) -> None:
    load = (
        "2023-01-02 10:00:00.000000-0500 MyApp[12:34] [espresso] [Espresso::handle_ex_plan] exception=ANECF "
        "error: failed to load ANE model. Error=createProgramInstanceForModel: "
        "Program load failure (0x20004)\n"
        "2023-01-02 10:00:00.010000-0500 MyApp[12:34] [coreml] Error plan build: -1."
    )
    assert_answered(
        kb, load, ("failed to load ANE model", "CPU_AND_GPU"), entry="coreml-s19b-espresso-ane-plan-failed"
    )
    compile_ = (
        "MyApp[1:2] [espresso] [Espresso::handle_ex_plan] exception=ANECF error: "
        "ANECCompile(/tmp/x/) FAILED: "
        "err=(\n    CompilationFailure\n)"
    )
    assert_answered(kb, compile_, ("ANECCompile",), entry="coreml-s19b-espresso-ane-plan-failed")


def test_e5rt_ane_compile_across_lines(kb: KnowledgeBase) -> None:
    msg = (
        "E5RT encountered an STL exception. msg = MILCompilerForANE error:\n"
        "    failed to compile ANE model using ANEF. Error=_ANECompiler : ANECCompile() FAILED."
    )
    assert_answered(kb, msg, ("ANECCompile() FAILED",), entry="coreml-e5rt-ane-compile-failed")


def test_coremlcompiler_swift_version(kb: KnowledgeBase) -> None:
    msg = (
        'Error preparing CoreML model "Tiny.mlmodel" for code generation: '
        "coremlcompiler: Error: unrecognized "
        'Swift version "6.1".  Expected one of: 4.0, 4.2 or 5.0'
    )
    assert_answered(
        kb, msg, ("6.1", "4.0, 4.2 or 5.0", "SWIFT_VERSION"), entry="coreml-xcode-codegen-swift-version"
    )


def test_spec_validator_feature_type(kb: KnowledgeBase) -> None:
    msg = (
        "validator error: Description of multiarray feature 'scores_in' has an "
        "invalid or unspecified dataType. "
        "It must be specified as DOUBLE, FLOAT32 or INT32"
    )
    assert_answered(
        kb,
        msg,
        ("scores_in", "dataType", "DOUBLE, FLOAT32 or INT32"),
        entry="coreml-spec-validator-feature-type",
    )


def test_objc_selector_missing_on_older_os(kb: KnowledgeBase) -> None:
    msg = (
        "python[100:200] -[MLMultiArray getBytesWithHandler:]: unrecognized "
        "selector sent to instance 0x600001"
    )
    assert_answered(
        kb, msg, ("MLMultiArray", "getBytesWithHandler:"), entry="coreml-objc-unrecognized-selector"
    )


def test_mediapipe_llm_signature(kb: KnowledgeBase) -> None:
    msg = (
        "INTERNAL: CalculatorGraph::Run() failed: Calculator::Open() for node "
        '"odml.infra.LlmRunnerCalculator" '
        "failed; RET_CHECK failure (odml/infra/genai/inference/utils/tflite_utils/tflite_llm_utils.cc:71) "
        "std::find(signature_keys.begin(), signature_keys.end(), key) != signature_keys.end()"
    )
    assert_answered(kb, msg, ("get_signature_list",), entry="tflite-mediapipe-llm-missing-signature")


def test_onnxruntime_node_provider_not_compiled_in(kb: KnowledgeBase) -> None:
    msg = "Error: Invalid argument: sessionOptions.executionProviders[2] is unsupported: 'webnn'."
    assert_answered(kb, msg, ("executionProviders[2]", "'webnn'"), entry="onnxruntime-node-ep-unsupported")


def test_csharp_element_type(kb: KnowledgeBase) -> None:
    msg = (
        "Unhandled exception. Microsoft.ML.OnnxRuntime.OnnxRuntimeException: [ErrorCode:InvalidArgument] "
        "Tensor element data type discovered: Float metadata expected: Float16"
    )
    assert_answered(
        kb,
        msg,
        ("a Float tensor", "is Float16", "keep_io_types"),
        entry="onnxruntime-csharp-element-type-mismatch",
    )


def test_cann_ep_call_and_graph_parse(kb: KnowledgeBase) -> None:
    call = (
        "2024-01-01 00:00:00.1 [E:onnxruntime:Default, cann_call.cc:139 CannCall] CANN failure 507015: "
        "ACL_ERROR_RT_AICORE_EXCEPTION ; NPU=1 ; hostname=node7 ; expr=aclrtSynchronizeStream(stream);"
    )
    assert_answered(
        kb,
        call,
        ("aclrtSynchronizeStream", "507015", "ACL_ERROR_RT_AICORE_EXCEPTION"),
        entry="onnxruntime-cann-call-failure",
    )
    parse = (
        "[E:onnxruntime:Default, cann_call.cc:139 CannCall] CANNGRAPH failure -1: GRAPH_FAILED ; NPU=0 ; "
        "hostname=h ; expr=ge::aclgrphParseONNXFromMem(buf.data(), buf.size(), params, graph);"
    )
    assert_answered(
        kb,
        parse,
        ("aclgrphParseONNXFromMem", "atc --framework=5"),
        entry="onnxruntime-cann-graph-parse-failed",
    )


def test_rkllm_invalid_model(kb: KnowledgeBase) -> None:
    msg = (
        "I rkllm: rkllm-runtime version: 1.1.4, rknpu driver version: 0.9.7, "
        "platform: RK3576\nE rkllm: invalid rkllm model!"
    )
    assert_answered(kb, msg, ("export_rkllm", "target_platform"), entry="rkllm-invalid-model")


@pytest.mark.parametrize(
    ("msg", "entry", "named"),
    [
        (
            "[TRT] [E] 6: "
            "[libLoader.cpp::nvinfer1::rt::DynamicLibrary::Impl::Impl::294] Error Code 6: Internal "
            "Error (Unable to load library: libnvinfer_builder_resource.so.10.3.0)",
            "tensorrt-unable-to-load-library",
            ("libnvinfer_builder_resource.so.10.3.0", "LD_LIBRARY_PATH"),
        ),
        (
            "createInferBuilder: Error Code 6: API Usage Error (Unable to load library: "
            "libnvinfer_builder_resource.so.10.2.0: libnvinfer_builder_resource.so.10.2.0: cannot enable "
            "executable stack as shared object requires: Invalid argument)",
            "tensorrt-builder-resource-execstack",
            ("patchelf --clear-execstack libnvinfer_builder_resource.so.10.2.0", "glibc"),
        ),
    ],
)
def test_tensorrt_library_loading(kb: KnowledgeBase, msg: str, entry: str, named: tuple[str, ...]) -> None:
    assert_answered(kb, msg, named, entry=entry)


def test_glibc_execstack_alone_is_the_loader(kb: KnowledgeBase) -> None:
    msg = (
        "ImportError: libfoo_ext.so.2: cannot enable executable stack as shared "
        "object requires: Invalid argument"
    )
    top = kb.lookup(msg, top=1)[0]
    assert top.entry.id == "runtime-glibc-execstack"


def test_qnn_htp_allocation_limit(kb: KnowledgeBase) -> None:
    msg = (
        "0.0ms [ ERROR ] fa_alloc.cc:2813:ERROR:graph requires estimated allocation of 3999999 KB, limit is "
        "2097152 KB\n0.0ms [ ERROR ] graph_prepare.cc:742:ERROR:error during "
        "serialize: memory usage too large"
    )
    assert_answered(
        kb, msg, ("3999999 KB", "2097152 KB", "num_sharding"), entry="qualcomm-htp-graph-allocation-limit"
    )


def test_ncnn_glslang_and_vulkan_by_name(kb: KnowledgeBase) -> None:
    glslang = (
        "Unable to parse built-ins\nERROR: 0:3: '' :  syntax error, unexpected "
        "SAMPLER2D\nINTERNAL ERROR: Unable to parse built-ins"
    )
    assert_answered(kb, glslang, ("NCNN_SYSTEM_GLSLANG",), entry="ncnn-glslang-builtins-parse")
    vulkan = "vkCreateDevice failed  VK_ERROR_INCOMPATIBLE_DRIVER"
    assert_answered(
        kb, vulkan, ("vkCreateDevice", "VK_ERROR_INCOMPATIBLE_DRIVER"), entry="ncnn-h23o2-vulkan-call-failed"
    )


def test_protobuf_decode_errors_under_onnx_load(kb: KnowledgeBase) -> None:
    for reason in ("Wrong wire type in tag.", "Truncated message."):
        msg = f"    raise _DecodeError('{reason[:-1]}')\ngoogle.protobuf.message.DecodeError: {reason}"
        top = kb.lookup(msg, top=1)[0]
        assert top.entry.id == "onnx-load-protobuf-decode-error", (reason, top.entry.id)


def test_tensorrt_unsupported_sm_assertion(kb: KnowledgeBase) -> None:
    msg = "[F] [TRT] Assertion failed: Unsupported SM.\nC:\\src\\cuda\\caskUtils.cpp:80\nAborting..."
    top = kb.lookup(msg, top=1)[0]
    assert top.entry.id == "tensorrt-unsupported-sm"


# Two general fixes found by the hand draws of 2026-11-29 evening (disclosed in tests/data/explain/README.md):
# Torch-TensorRT's TORCHTRT_CHECK form has its own entry (the check's message is the reason), and the IR
# reader's unsupported-opset check printed without ' id:N' is read whole.


def test_torch_tensorrt_check_reads_the_checks_message(kb: KnowledgeBase) -> None:
    msg = (
        "RuntimeError: [Error thrown at core/conversion/converters/impl/shuffle.cpp:57] Expected in.nbDims "
        "== 4 to be true but got false\nShuffle converter expects 4-D input, got 3"
    )
    top = kb.lookup(msg, top=1)[0]
    assert top.entry.id == "tensorrt-torch-tensorrt-check-failed"
    # the check's message is captured as its reason: an envelope, ranked under any specific entry of
    # Torch-TensorRT that answers that line (test_knowledge_trt_ort_common_s18e, ..._s19d)
    assert_advice(
        top,
        ("in.nbDims == 4", "Shuffle converter expects 4-D input, got 3", "torch_executed_ops"),
        judged_specific=False,
    )


def test_ir_reader_opset_without_layer_id(kb: KnowledgeBase) -> None:
    msg = "Cannot create Gather layer model/gather_3 from unsupported opset: opset15"
    assert_answered(kb, msg, ("model/gather_3", "Gather", "opset15"), entry="openvino-ir-unsupported-opset")


def test_cann_runtime_feature_not_support(kb: KnowledgeBase) -> None:
    msg = (
        "EE9999: Inner Error!\n"
        "EE9999  get device msg feature can not support offline mode.[FUNC:GetDevMsg][FILE:api_impl.cc]\n"
        "        rtGetDevMsg execute failed, reason=[feature not support][FUNC:FuncErrorReason]"
        "[FILE:error_message_manage.cc][LINE:49]"
    )
    assert_answered(kb, msg, ("rtGetDevMsg", "207000", "npu-smi info"), entry="ascend-rt-feature-not-support")


def test_the_runtime_reason_entry_says_a_device_exception_only_for_one(kb: KnowledgeBase) -> None:
    top = kb.lookup("rtMalloc execute failed, reason=[memory allocation failed]", top=1)[0]
    assert top.entry.id == "ascend-sync-failed-reason"
    assert "any other reason is the runtime's own check of this call" in top.cause
    assert "memory allocation failed" in top.cause
