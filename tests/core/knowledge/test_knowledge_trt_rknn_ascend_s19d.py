"""Branch s19d: TensorRT's, Rockchip's and Ascend's message classes no entry covered, from their own sources.

* TensorRT: trtexec's option and shape checks (NVIDIA/TensorRT samples/common/sampleOptions.cpp,
  sampleEngines.cpp, sampleInference.cpp, samples/trtexec/trtexec.cpp), Polygraphy's runner and surgeon
  checks (tools/Polygraphy), DeepStream's Gst-nvinfer (sources/libs/nvdsinfer, gst-nvinfer), Torch-TensorRT's
  missing converters (core/conversion/conversion.cpp, dynamo _TRTInterpreter.py), and two
  builder reasons read out of an ``Error Code N`` card (a dynamic input without profile dimensions, a
  concatenation whose inputs disagree);
* RKNN: the rknn-toolkit2 2.5.0 wheel's librknn_api.so (the PC-side client of a connected board) and
  librknnc.so (the compiler and its simulator runtime);
* Ascend: vllm-ascend's device and extension checks, the AscendCL samples' model-load error, and CANN's
  plog line prefix as a marker.

Every message is the vendor's string as its source prints it, with made-up names and values, not an eval
message.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

CASES = [
    # --- trtexec ---
    (
        "[11/29/2026-10:00:00] [E] Static model does not take explicit shapes since the shape of inference "
        "tensors will be determined by the model itself",
        "tensorrt-s19d-trtexec-static-model-shapes",
        ("--minShapes", "dynamic_axes"),
    ),
    (
        "[E] The engine was built with static shapes for input tensor zz_pixels but the provided shapes do "
        "not match the static shapes!",
        "tensorrt-s19d-trtexec-static-engine-shape-mismatch",
        ("zz_pixels", "--shapes=zz_pixels:"),
    ),
    (
        '[E] Cannot find input tensor with name "zz_in" in the engine bindings! Please make sure the input '
        "tensor names are correct.",
        "tensorrt-s19d-trtexec-input-name-not-found",
        ('"zz_in"', "engine bindings", "polygraphy inspect model"),
    ),
    (
        "[E] Invalid tensor names found in --loadInputs flag.",
        "tensorrt-s19d-trtexec-shapes-invalid-names",
        ("--loadInputs",),
    ),
    ("[E] Set optimization profile failed. ", "tensorrt-s19d-trtexec-set-profile-failed", ("--useProfile",)),
    (
        "[E] Unable to create execution context. ",
        "tensorrt-s19d-trtexec-context-creation-failed",
        ("--allocationStrategy", "--maxShapes"),
    ),
    (
        "[E] Unknown option: --zzWorkspace 4096",
        "tensorrt-s19d-trtexec-unknown-option",
        ("--zzWorkspace", "--memPoolSize=workspace"),
    ),
    (
        "[E] stoi conversion failure: failed to parse minShapes/optShapes/maxShapes. Please double check "
        "your "
        "input string.",
        "tensorrt-s19d-trtexec-shape-spec-parse",
        ("minShapes/optShapes/maxShapes", "1x3x640x640"),
    ),
    (
        "[E] Multiple --minShapes/--optShapes/--maxShapes without --profile are not allowed. ",
        "tensorrt-s19d-trtexec-multiple-shapes-without-profile",
        ("--profile=0",),
    ),
    (
        "[E] Unknown memory pool: zzPool",
        "tensorrt-s19d-trtexec-unknown-memory-pool",
        ("zzPool", "workspace"),
    ),
    (
        "[E] Cannot find plugin creator getter symbol from plugin library: libzz_plugin.so",
        "tensorrt-s19d-trtexec-plugin-getter-missing",
        ("libzz_plugin.so", 'extern "C"', "nm -D libzz_plugin.so"),
    ),
    (
        "[E] The --output flag should not be used with ONNX models.",
        "tensorrt-s19d-trtexec-output-flag-onnx",
        ("--output",),
    ),
    (
        "[E] Shape tensor zz_dims has unexpected type FP16",
        "tensorrt-s19d-trtexec-shape-tensor-type",
        ("zz_dims", "FP16", "INT64"),
    ),
    (
        "[W] Dynamic dimensions required for input: zz_in, but no shapes were provided. Automatically "
        "overriding shape to: 1x3x1x1",
        "tensorrt-s19d-trtexec-dynamic-dims-defaulted",
        ("zz_in", "1x3x1x1", "--minShapes=zz_in:"),
    ),
    # --- Polygraphy ---
    (
        "[!] For input: zz_in, failed to set shape to: (1, 3, 999, 999)",
        "tensorrt-s19d-polygraphy-input-shape-set-failed",
        ("zz_in", "(1, 3, 999, 999)", "--trt-max-shapes"),
    ),
    (
        "[!] Input tensor: zz_in | Received unexpected dtype: float64.\nNote: Expected type: float32",
        "tensorrt-s19d-polygraphy-input-incompatible",
        ("zz_in", "float64", "float32"),
    ),
    (
        "[!] Input tensor: zz_in | Received incompatible shape: (1, 3, 64).\nNote: Expected a shape "
        "compatible "
        "with: BoundedShape([1, 3, 64, 64])",
        "tensorrt-s19d-polygraphy-input-shape-incompatible",
        ("zz_in", "(1, 3, 64)", "--input-shapes zz_in:"),
    ),
    (
        "[E] In node 3 (importZz): UNSUPPORTED_NODE: Assertion failed: zz\n[!] Could not parse ONNX "
        "correctly",
        "tensorrt-s19d-polygraphy-onnx-parse-failed",
        ("polygraphy surgeon sanitize",),
    ),
    (
        "[!] Tensor: /zz/block/Conv_output_0 does not exist in the model.",
        "tensorrt-s19d-polygraphy-tensor-not-in-model",
        ("/zz/block/Conv_output_0", "name:auto"),
    ),
    (
        "[!] Failed to set optimization profile to: 3",
        "tensorrt-s19d-polygraphy-profile-set-failed",
        ("profile 3",),
    ),
    # --- Torch-TensorRT ---
    (
        "RuntimeError: [Error thrown at core/conversion/conversion.cpp:109] Expected converter to be true "
        "but "
        "got false\nUnable to convert node: %y.1 : Tensor = aten::zz_op(%x.1) (conversion.AddLayer)\nSchema: "
        "aten::zz_op(Tensor self) -> (Tensor)\nConverter for aten::zz_op requested, but no such converter "
        "was "
        "found.",
        "tensorrt-s19d-torchtrt-ts-no-converter",
        ("aten::zz_op", "torch_executed_ops=['aten::zz_op']"),
    ),
    (
        "torch_tensorrt.dynamo.conversion._TRTInterpreter.UnsupportedOperatorException: Conversion of "
        "function "
        "torch._ops.aten.zz_op.default not currently supported!",
        "tensorrt-s19d-torchtrt-fx-conversion-unsupported",
        ("torch._ops.aten.zz_op.default", "torch_executed_ops"),
    ),
    # --- DeepStream Gst-nvinfer ---
    (
        "ERROR from primary_gie: Failed to create NvDsInferContext instance\nDebug info: "
        "gstnvinfer.cpp(809): "
        "gst_nvinfer_start (): /GstPipeline:pipeline/GstBin:primary_gie_bin/GstNvInfer:primary_gie:\n"
        "Config file path: /zz/config_infer_zz.txt, NvDsInfer Error: NVDSINFER_CUSTOM_LIB_FAILED",
        "tensorrt-s19d-deepstream-context-create-failed",
        ("/zz/config_infer_zz.txt", "NVDSINFER_CUSTOM_LIB_FAILED"),
    ),
    (
        "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::buildModel() "
        "<nvdsinfer_context_impl.cpp:2000> "
        "[UID = 1]: build engine file failed",
        "tensorrt-s19d-deepstream-build-engine-failed",
        ("onnx-file", "trtexec --onnx"),
    ),
    (
        "ERROR: Cannot access ONNX file '/zz/models/zz_det.onnx'",
        "tensorrt-s19d-deepstream-model-file-missing",
        ("'/zz/models/zz_det.onnx'", "config file's folder"),
    ),
    (
        "WARNING: Deserialize engine failed because file path: /zz/zz_b1_gpu0_fp16.engine open error",
        "tensorrt-s19d-deepstream-engine-open-error",
        ("/zz/zz_b1_gpu0_fp16.engine", "model-engine-file"),
    ),
    (
        "NvDsInferContext[UID 1]: Warning from NvDsInferContextImpl::deserializeEngineAndBackend() "
        "<nvdsinfer_context_impl.cpp:1900> [UID = 1]: deserialize engine from file :/zz/zz.engine failed",
        "tensorrt-s19d-deepstream-deserialize-engine-failed",
        ("Delete /zz/zz.engine",),
    ),
    (
        "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::parseBoundingBox() "
        "<nvdsinfer_context_impl_output_parsing.cpp:59> [UID = 1]: Could not find output bbox layer for "
        "parsing objects",
        "tensorrt-s19d-deepstream-output-layer-not-found",
        ("no bbox layer", "parse-bbox-func-name"),
    ),
    (
        "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::fillDetectionOutput() "
        "<nvdsinfer_context_impl_output_parsing.cpp:725> [UID = 1]: Failed to parse bboxes using custom "
        "parse "
        "function",
        "tensorrt-s19d-deepstream-custom-parse-failed",
        ("num-detected-classes",),
    ),
    (
        "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::initialize() "
        "<nvdsinfer_context_impl.cpp:1100> "
        "[UID = 1]: Could not open custom lib: libzz_parser.so: cannot open shared object file: No such file "
        "or "
        "directory",
        "tensorrt-s19d-deepstream-custom-lib-open",
        ("custom-lib-path", "ldd"),
    ),
    (
        "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::initialize() "
        "<nvdsinfer_context_impl.cpp:1053> "
        "[UID = 1]: Batch-size (16) more than maximum allowed batch-size (2)",
        "tensorrt-s19d-deepstream-batch-over-limit",
        ("(16)", "(2)", "at most 2"),
    ),
    # --- RKNN: connected-board client (librknn_api.so) ---
    (
        "E RKNNAPI: rknn_init,  server connect fail!  ret = -9(ERROR_PIPE)!",
        "rknn-s19d-api-server-connect-fail",
        ("-9(ERROR_PIPE)", "adb devices", "rknn_server"),
    ),
    (
        "E NPUTransfer(4321): Cannot connect to proxy: Connection refused",
        "rknn-s19d-api-server-connect-fail",
        ("Connection refused", "restart_rknn.sh"),
    ),
    (
        "E RKNNAPI: rknn_init,  recv(MsgLoadAck) fail, -9(ERROR_PIPE) != 12!",
        "rknn-s19d-api-msg-exchange-fail",
        ("rknn_init", "MsgLoadAck"),
    ),
    ("E RKNNAPI: RKNN VERSION UNMATCH!", "rknn-s19d-api-version-unmatch", ("librknnrt.so", "rknn_server")),
    (
        "E RKNNAPI: rknn_inputs_set,  inputs[1].buf wrong, buf = 0x7fzz, size = 4800 (attr.size = 1200), "
        "pass through = 0!",
        "rknn-s19d-api-input-buffer-size",
        ("input 1", "4800 bytes", "1200 bytes"),
    ),
    ("E RKNNAPI: rknn_inputs_set,  n_inputs = 1, expect 3!", "rknn-s19d-api-input-count", ("1 input", "(3)")),
    ("E RKNNAPI: rknn_run,  input 2 hasn't been seted!", "rknn-s19d-api-input-not-set", ("input 2",)),
    (
        "E RKNNAPI: Set input failed! only support uint8 dtype, please check your inputs of "
        "rknn.inference()!",
        "rknn-s19d-api-uint8-only",
        ("astype(np.uint8)",),
    ),
    (
        "E RKNNAPI: SET_CORE_MASK fail, ack = ACK_FAIL, expect = ACK_SUCC! Please confirm that it is called "
        "on "
        "multi-core NPU platforms!",
        "rknn-s19d-api-core-mask-single-core",
        ("NPU_CORE_AUTO", "ACK_FAIL"),
    ),
    (
        "W RKNNAPI: Input[1]:zz_mask n_dims = 2, mean_values and std_values is invalid!",
        "rknn-s19d-api-mean-std-ndims",
        ("zz_mask", "2 dimensions"),
    ),
    # --- RKNN: compiler and its runtime (librknnc.so) ---
    (
        "E RKNN: [10:00:00.000] Meet RKNN unsupport Operator: name = '/zz/ZzOp_3', type = ZzOp, it will be "
        "treated as a custom operator. Please call rknn_register_custom_ops in the RKNN C API to register "
        "the "
        "operator.",
        "rknn-s19d-compiler-unsupported-op-custom",
        ("ZzOp", "/zz/ZzOp_3", "rknn_register_custom_ops"),
    ),
    (
        "E RKNN: [10:00:00.000] Depthwise: Invalid kernel width of 11. Must be an integer in [1, 8]",
        "rknn-s19d-compiler-layer-param-range",
        ("Depthwise", "kernel width", "11", "[1, 8]"),
    ),
    (
        "E RKNN: [10:00:00.000] Layer configuration has exceeded hardware limitation",
        "rknn-s19d-compiler-hw-limit",
        ("input resolution",),
    ),
    (
        "E RKNN: [10:00:00.000] RK3588 library do not support generate RK3566/RK3568 rknn model, exit now",
        "rknn-s19d-compiler-target-library-mismatch",
        ("RK3566/RK3568", "target_platform"),
    ),
    (
        "E RKNN: [10:00:00.000] Conv: quantize parameter error, clip_truncate must >=0, plz make sure "
        "bias_scale > weight_scale * input_scale",
        "rknn-s19d-compiler-bias-scale",
        ("weight_scale * input_scale",),
    ),
    (
        "E RKNN: [10:00:00.000] dynamic shape parameter is invalid. onnx models(3) vs dynamic shape(1)!",
        "rknn-s19d-compiler-dynamic-shape-count",
        ("3 inputs", "3 shapes"),
    ),
    (
        "E RKNN: [10:00:00.000] invalid model path: ./zz.rknn, real_model_offset(0) + real_model_size(9999) "
        "> "
        "total_file_size(100)",
        "rknn-s19d-runtime-invalid-magic",
        ("./zz.rknn", "git lfs pull"),
    ),
    (
        "E RKNN: [10:00:00.000] failed to check rknpu hardware version: 0x0",
        "rknn-s19d-runtime-open-device",
        ("0x0", "/dev/dri/renderD129"),
    ),
    (
        "E RKNN: [10:00:00.000] the size of channel_mean, channel_std, channel_order must be equal",
        "rknn-s19d-compiler-mean-std-size",
        ("mean_values=[[0, 0, 0]]",),
    ),
    (
        "W RKNN: [10:00:00.000] Transpose will fallback to CPU, because input shape has exceeded the max "
        "limit, "
        "height(64) * width(9000) = 576000, required product no larger than 16384!",
        "rknn-s19d-compiler-transpose-cpu-fallback",
        ("64", "9000", "16384"),
    ),
    # --- Ascend ---
    (
        "WARNING 11-29 10:00:00 camem.py:67] Failed to import vllm_ascend_C:No module named "
        "'vllm_ascend.vllm_ascend_C'. Sleep mode will be disabled. ",
        "ascend-s19d-vllm-ascend-custom-op-import",
        ("set_env.sh",),
    ),
    (
        "ValueError: local_rank 5 is out of bounds for the available NPU devices: [0, 1]",
        "ascend-s19d-vllm-ascend-no-npu-visible",
        ("local rank 5", "0, 1", "ASCEND_RT_VISIBLE_DEVICES"),
    ),
    (
        "[ERROR]  load model from file failed, model file is ./zz_model/zz.om, errorCode is 145002",
        "ascend-s19d-acl-sample-load-model-failed",
        ("./zz_model/zz.om", "145002", "--soc_version"),
    ),
]

_IDS = [f"{c[1]}-{i}" for i, c in enumerate(CASES)]


@pytest.mark.parametrize(("message", "entry", "named"), CASES, ids=_IDS)
def test_vendor_text_answered_with_its_parts(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    top = kb.lookup(message, top=1)[0]
    # a card refined by a clause keeps its entry id before the '+'
    assert top.entry.id.split("+")[0] == entry, top.entry.id
    assert_answered(kb, message, named)
    assert kb.answer(message).confidence == "high"


CLAUSE_CASES = [
    (
        "[TRT] [E] 4: [network.cpp::validate::3000] Error Code 4: Internal Error (zz_images: dynamic input "
        "is "
        "missing dimensions in profile 1.)",
        "trt-dynamic-input-missing-profile-dims",
        ("zz_images", "profile 1", "set_shape('zz_images'"),
    ),
    (
        "[E] Error[4]: [graphShapeAnalyzer.cpp::processCheck::500] Error Code 4: Internal Error "
        "(/zz/Concat_7: "
        "dimensions not compatible for concatenation)",
        "trt-concat-dims-not-compatible",
        ("/zz/Concat_7", "multiple of the network's total stride"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), CLAUSE_CASES, ids=[c[1] for c in CLAUSE_CASES])
def test_error_code_card_answers_the_builder_reason(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    top = assert_answered(kb, message, named, clause=clause)
    assert top.entry.family == "tensorrt"
    assert "trtb:4" in top.entry.keys


def test_deepstream_status_capture_stops_at_the_status(kb: KnowledgeBase) -> None:
    message = (
        "ERROR from primary_gie: Failed to create NvDsInferContext instance\nDebug info: "
        "gstnvinfer.cpp(809): "
        "gst_nvinfer_start ():\nConfig file path: zz.txt, NvDsInfer Error: NVDSINFER_CONFIG_FAILED\n"
    )
    top = kb.lookup(message, top=1)[0]
    assert dict(top.captures) == {"file": "zz.txt", "value": "NVDSINFER_CONFIG_FAILED"}


@pytest.mark.parametrize(
    ("message", "family"),
    [
        # the nvinfer context's own prefix names DeepStream (a TensorRT element) without '[TRT]'
        (
            "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::zzStep() <nvdsinfer_context_impl.cpp:1> "
            "[UID = 1]: zz went wrong",
            "tensorrt",
        ),
        # CANN's plog prefix names the module and pid of GE / TBE, no other marker on the line
        (
            "[ERROR] GE(4321,zz.bin):2026-11-29-10:00:00.000.000 [zz_pass.cc:10]4321 Run: ErrorNo: "
            "-1(failed) "
            "zz failed",
            "ascend",
        ),
        ("[ERROR] TBE(4321,python):2026-11-29-10:00:00.000.000 zz step failed", "ascend"),
    ],
)
def test_tool_prefix_names_the_family(kb: KnowledgeBase, message: str, family: str) -> None:
    found = kb.answer(message)
    assert found.matches and found.matches[0].entry.family == family
