"""Issue 23: specific entries where only a family card (or a code-range entry) answered.

Each message below is written from the wording in the tool's own source (the format string or check that
raises it), with values of our own, not copied from an evaluation message.  Each must be answered first by
its specific entry, found by its pattern, and the answer must carry what the message names (the op, the
shape, the pass, the sizes) in its cause or fix.
"""

from __future__ import annotations

import re

import pytest

from dumpscope.core.knowledge import KnowledgeBase

# (entry id, message from the source's wording, values the answer must show)
CASES = [
    (
        "openvino-reshape-minus-one-dim",
        "Exception from src/core/shape_inference/include/reshape_shape_inference.hpp:210:\n"
        "Check '!dim::is_empty(minus_one_dim)' failed at src/core/shape_inference/include/"
        "reshape_shape_inference.hpp:210:\nWhile validating node 'opset1::Reshape Reshape_87'",
        (),
    ),
    (
        "openvino-onnx-batchnorm-training-mode",
        "[ GENERAL_ERROR ] While validating ONNX node '<Node(BatchNormalization): bn_3>':\n"
        "Training mode of BatchNormalization is not supported.",
        (),
    ),
    (
        "openvino-onnx-frontend-convert-failed",
        "RuntimeError: Check 'false' failed at "
        "C:\\ov\\src\\frontends\\onnx\\frontend\\src\\frontend.cpp:151:\n"
        "FrontEnd API failed with GeneralFailure",
        (),
    ),
    (
        "openvino-ov-not-implemented-exception",
        "First-chance exception at 0x00007FFA1B2C3D4E in infer.exe: Microsoft C++ exception: "
        "ov::NotImplemented at memory location 0x00000055AA66BB70.",
        (),
    ),
    (
        "openvino-mo-emitting-attributes",
        "[ ERROR ]  Error while emitting attributes for layer Resize_212 (id = 87). It usually means that "
        "there is unsupported pattern around this node or unsupported combination of attributes.",
        ("Resize_212",),
    ),
    (
        "openvino-pool-window-larger-than-input",
        "Check 'window_dilated_dim <= data_padded_dilated_dim' failed at src/core/shape_inference/include/"
        "pooling_shape_inference_util.hpp:160:\nWhile validating node 'opset8::MaxPool pool5':\n"
        "Window after dilation has dimension (dim: 7) larger than the data shape after padding (dim: 4) "
        "at axis 1.",
        ("7", "4"),
    ),
    (
        "openvino-onnx-node-validation",
        "[ ERROR ]  While validating ONNX node '<Node(GridSample): /decoder/GridSample_4>':\n"
        "Unsupported mode",
        ("GridSample", "/decoder/GridSample_4"),
    ),
    (
        "openvino-gather-indices-not-integral",
        "RuntimeError: Check 'indices_et.is_dynamic() || indices_et.is_integral()' failed at "
        "src/core/src/op/one_hot.cpp:58:\nWhile validating node 'v1::OneHot OneHot_5':\n"
        "Indices must be integral element type.",
        (),
    ),
    (
        "openvino-mo-cannot-infer-shapes",
        '[ ERROR ]  Cannot infer shapes or values for node "head/strided_slice_4".\n'
        "[ ERROR ]  It can happen due to bug in custom shape infer function",
        ("head/strided_slice_4",),
    ),
    (
        "openvino-gpu-program-build-failed",
        "Exception from src/inference/src/dev/plugin.cpp:58:\n[GPU] ProgramBuilder build failed!\n"
        "Program build failed(0_part_3): error: undeclared identifier",
        (),
    ),
    (
        "onnxsim-optimizer-pass-assertion",
        "RuntimeError: /src/third_party/onnx-optimizer/onnxoptimizer/passes/eliminate_shape_gather.h:51: "
        "runTransform: Assertion `indices_val < dims.size()` failed.",
        ("eliminate_shape_gather",),
    ),
    (
        "onnxsim-parse-tensor-data-size",
        "/opt/onnxsim/third_party/onnx-optimizer/onnxoptimizer/passes/tensor_util.cc:60: ParseTensorData: "
        "Assertion `elem_cnt == (raw_data_size / sizeof(double))` failed.",
        ("double",),
    ),
    (
        "onnxsim-erase-output-still-used",
        "RuntimeError: /build/onnx/onnx/common/ir.h:1380: eraseOutput: "
        "Assertion `outputs_[i]->uses().empty()` failed.",
        (),
    ),
    (
        "tvm-symbolic-shape-memory-plan",
        "tvm.error.InternalError: Check failed: (pval != nullptr) is false: Cannot allocate memory symbolic "
        "tensor shape [T.Any(), 80, T.Any()]",
        ("T.Any(), 80, T.Any()",),
    ),
    (
        "tvm-layout-rank-mismatch",
        "[10:11:12] /tvm/src/tir/ir/data_layout.cc:290: Check failed: src_shape.size() == src_axis.size() "
        "(2 vs. 4) :",
        ("2", "4"),
    ),
    (
        "tvm-expect-expr-got-irmodule",
        "tvm._ffi.base.TVMError: Check failed: ObjectTypeChecker<RelayExpr>::Check(ptr): Expect relay.Expr "
        "but get IRModule",
        (),
    ),
    (
        "paddle2onnx-adaptive-pool-not-divisible",
        "Exception: Cannot convert adaptive pool with input_size: (1, 128, 25, 25), "
        "output_size: (1, 128, 7, 7)",
        ("(1, 128, 25, 25)", "(1, 128, 7, 7)"),
    ),
    (
        "mnn-converter-not-supported-op",
        "[12:00:01] /MNN/tools/converter/source/tflite/ReductionTflite.cpp:64: MNN Converter Not "
        "Supported!!! Reduction Op: ",
        ("Reduction",),
    ),
    (
        "torch-onnx-attribute-not-constant",
        'File "torch/onnx/symbolic.py", line 90, in _parse_arg\nRuntimeError: Failed to export an ONNX '
        "attribute, since it's not constant, please try to make things (e.g., kernel size) static "
        "if possible",
        (),
    ),
    (
        "onnxruntime-model-file-does-not-exist",
        "NoSuchFile: [ONNXRuntimeError] : 3 : NO_SUCHFILE : Load model from ./models/det.onnx failed:"
        "Load model ./models/det.onnx failed. File doesn't exist",
        ("./models/det.onnx",),
    ),
    (
        "onnxruntime-modelproto-no-graph",
        "Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from m.onnx failed:/onnxruntime/core/graph/"
        "model.cc:146 onnxruntime::Model::Model(onnx::ModelProto&&, ...) ModelProto does not have a graph.",
        (),
    ),
    (
        "onnxruntime-ort-format-verification-failed",
        "OrtException: Error code - ORT_FAIL - message: inference_session.cc:1520 "
        "onnxruntime::InferenceSession::LoadOrtModelWithLoader ORT model verification failed.",
        (),
    ),
    (
        "onnxruntime-unknown-model-file-format-version",
        "InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Failed to load model with error: "
        "Unknown model file format version.",
        (),
    ),
    (
        "onnxruntime-provider-not-available",
        "UserWarning: Specified provider 'DmlExecutionProvider' is not in available provider names."
        "Available providers: 'CPUExecutionProvider'",
        ("DmlExecutionProvider",),
    ),
    (
        "onnxruntime-trt-ep-decryption-library",
        "[ONNXRuntimeError] : 11 : EP_FAIL : TensorRT EP could not open shared library from ",
        (),
    ),
    (
        "onnxruntime-trt-ep-could-not-build-engine",
        "[ONNXRuntimeError] : 11 : EP_FAIL : TensorRT EP could not build engine for fused node: "
        "TensorrtExecutionProvider_TRTKernel_graph_main_graph_8712_3_0",
        ("TensorrtExecutionProvider_TRTKernel_graph_main_graph_8712_3_0",),
    ),
    (
        "onnxruntime-required-attribute-missing",
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : This is an invalid model. Error in Node:up_4 : "
        "Required attribute 'mode' is missing.",
        ("up_4", "mode"),
    ),
    (
        "onnx-version-converter-no-adapter",
        "RuntimeError: onnx/version_converter/BaseConverter.h:60: adapter_lookup: Assertion `false` failed: "
        "No Adapter From Version $11 for Resize",
        ("Resize",),
    ),
    (
        "onnx-invalid-axis-for-rank",
        "onnx.onnx_cpp2py_export.shape_inference.InferenceError: [ShapeInferenceError] (op_type:Concat, "
        "node name: cat_2): [TypeInferenceError] Invalid value of attribute 'axis'. Rank=1 Value=-3",
        ("axis", "-3"),
    ),
    (
        "onnx-mismatched-attribute-type",
        "onnx.onnx_cpp2py_export.checker.ValidationError: Mismatched attribute type in 'Constant_12 : value'",
        ("value",),
    ),
    (
        "float16-initializer-type-expected-float",
        "[ONNXRuntimeError] : 1 : FAIL : Type Error: Data in initializer 'layer1.0.bn1.running_var' has "
        "element type tensor(float16) but usage of initializer in graph expects tensor(float)",
        ("layer1.0.bn1.running_var", "tensor(float16)", "tensor(float)"),
    ),
    (
        "qualcomm-converter-dynamic-inputs-missing-shape",
        "RuntimeError: Missing command line inputs for dynamic inputs ['input_ids', 'attention_mask'] in the "
        "model.",
        ("--source_model_input_shape",),
    ),
    (
        "tensorrt-python-api-attribute-removed",
        "AttributeError: 'tensorrt_bindings.tensorrt.ICudaEngine' object has no attribute "
        "'get_binding_shape'",
        ("ICudaEngine", "get_binding_shape"),
    ),
    (
        "tensorrt-no-supported-formats",
        "[E] [TRT] 2: [optimizer.cpp::getFormatRequirements::4120] Error Code 2: Internal Error (Assertion "
        "!n->candidateRequirements.empty() failed. no supported formats)",
        (),
    ),
    (
        "tensorrt-invalid-binding-index",
        "[TRT] [E] 3: [engine.cpp::getUserRegion::1299] Error Code 3: API Usage Error (Parameter check "
        "failed at: call of getBindingDataType with invalid bindingIndex -1)",
        ("getBindingDataType", "-1"),
    ),
    # existing entries whose pattern missed the tool's own punctuation (quotes, spacing, end of line)
    (
        "onnx-ValidationError-8",
        "onnx.onnx_cpp2py_export.checker.ValidationError: Field 'elem_type' of 'tensor_type' is required "
        "but missing.",
        ("elem_type", "tensor_type"),
    ),
    (
        "coreml-torch-var-not-found",
        "ValueError: Torch var input.7 not found in context",
        ("input.7",),
    ),
    (
        "torch-onnx-symbolic-wrong-output-count",
        "RuntimeError: symbolic for topk produced an incorrect number of outputs(expected 2,but got 1)",
        ("topk",),
    ),
    (
        "tensorrt-python-engine-is-none",
        "AttributeError: 'NoneType' object has no attribute 'serialize'",
        ("serialize",),
    ),
    (
        "onnxruntime-INVALID-ARGUMENT-2",
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Unexpected input data type. Actual: (tensor(double)) , "
        "expected: (tensor(float))",
        ("tensor(double)", "tensor(float)"),
    ),
    (
        "onnxruntime-invalid-feed-input-name-images",
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Invalid Feed Input Name:input_image",
        ("input_image",),
    ),
    (
        "onnxruntime-nhwc-node-not-taken-by-ep",
        "Node 'conv_7' OpType:Conv with domain:com.ms.internal.nhwc was inserted using the NHWC format as "
        "requested by XnnpackExecutionProvider, but was not selected by that EP.",
        ("conv_7", "XnnpackExecutionProvider"),
    ),
    (
        "qualcomm-transport-layer-setup-failed",
        "QnnDsp <E> Transport layer setup failed: 14001",
        ("14001",),
    ),
    # issue 23, advice specific to the message: MNN's unsupported-op lists named in the advice
    (
        "mnn-not-supported-op",
        "Check failed: opConverter ==> MNN Converter NOT_SUPPORTED_OP: [ GridSample ]",
        ("GridSample",),
    ),
    (
        "mnn-not-supported-op",
        "MNN NOT_SUPPORTED_OP: ======>[ IteratorGetNext, QueueDequeueV2,  ]<======",
        ("IteratorGetNext, QueueDequeueV2",),
    ),
    (
        "mnn-these-op-not-support",
        "/src/MNN/tools/converter/source/common/writeFb.cpp:230: These Op Not Support: ONNX::FusedMatMul | "
        "ONNX::BiasGelu\nConverted Failed!",
        ("ONNX::FusedMatMul | ONNX::BiasGelu",),
    ),
    # issue 23: the inner message of onnxruntime's 'Non-zero status code' envelope answered by its own entry
    (
        "onnxruntime-dml-hresult",
        "Non-zero status code returned while running Trilu node. Name:'tril_12' Status Message: "
        "C:\\b\\onnxruntime\\core\\providers\\dml\\DmlExecutionProvider\\src\\MLOperatorAuthorImpl.cpp(2340)"
        "\\onnxruntime.dll!00007FF800000000: (caller: 00007FF800000001) Exception(2) tid(3c) 80070057 "
        "The parameter is incorrect.",
        ("tril_12", "Trilu", "80070057"),
    ),
    (
        "onnxruntime-cuda-no-kernel-image",
        "Non-zero status code returned while running LayerNormalization node. Name:'ln_f' Status Message: "
        "CUDA error cudaErrorNoKernelImageForDevice:no kernel image is available for execution on the device",
        ("ln_f", "LayerNormalization"),
    ),
    (
        "onnxruntime-s30f-cudnn-bad-param",
        "Non-zero status code returned while running Conv node. Name:'stem/conv'Status Message: \n"
        "CUDNN failure 3000: CUDNN_STATUS_NOT_SUPPORTED ; GPU=1 ; hostname=box ; file=conv.cc ; line=10 ; "
        "expr=cudnnConvolutionForward(...);",
        ("cudnnConvolutionForward", "CUDNN_STATUS_NOT_SUPPORTED"),
    ),
    (
        "onnxruntime-cublas-failure",
        "Non-zero status code returned while running Gemm node. Name:'head/fc' Status Message: "
        "CUBLAS failure 3: CUBLAS_STATUS_ALLOC_FAILED ; GPU=0 ; hostname=box ; file=gemm.cc ; line=9 ; "
        "expr=cublasGemmHelper()",
        ("head/fc", "CUBLAS_STATUS_ALLOC_FAILED"),
    ),
    (
        "onnxruntime-qnn-graph-execute-error",
        "Non-zero status code returned while running QNN_99_1 node. Name:'QNNExecutionProvider_QNN_99_1_0' "
        "Status Message: QNN graph execute error. Error code: 6001",
        ("QNNExecutionProvider_QNN_99_1_0", "6001"),
    ),
    (
        "onnxruntime-safeint-overflow",
        "Non-zero status code returned while running Expand node. Name:'expand_3' Status Message: "
        "/ort/onnxruntime/core/common/safeint.h:17 static void SafeIntExceptionHandler<onnxruntime::"
        "OnnxRuntimeException>::SafeIntOnOverflow() Integer overflow",
        ("expand_3", "Expand"),
    ),
    (
        "onnxruntime-scatternd-invalid-index",
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running GatherND "
        "node. Name:'gnd_1' Status Message: invalid indice found, indice = 12",
        ("gnd_1", "GatherND", "12"),
    ),
    # issue 23: TensorRT's ONNX-parser assertions answered by what the check needs
    (
        "tensorrt-assertion-convert-onnx-weights",
        "ERROR: ModelImporter.cpp:101 In function parseGraph:\n"
        "[8] Assertion failed: convertOnnxWeights(initializer, &weights, ctx)",
        ("convertOnnxWeights(initializer, &weights, ctx)",),
    ),
    (
        "tensorrt-assertion-tensor-not-found",
        "While parsing node number 17 [Gather]:\nERROR: ModelImporter.cpp:130 In function parseGraph:\n"
        "[5] Assertion failed: ctx->tensors().count(inputName)",
        ("Gather", "17"),
    ),
    (
        "tensorrt-network-must-have-at-least",
        "[TensorRT] ERROR: Network must have at least one output",
        ("EXPLICIT_BATCH",),
    ),
    # issue 23: fp16 conversion type clashes name the node to keep in float
    (
        "float16-io-type-mismatch",
        "Load model from m16.onnx failed:Type Error: Type (tensor(float16)) of output arg "
        "(/gen/RandomUniformLike_output_0) of node (/gen/RandomUniformLike) does not match expected type "
        "(tensor(float)).",
        ("/gen/RandomUniformLike", "node_block_list=['/gen/RandomUniformLike']"),
    ),
    (
        "float16-type-param-bound",
        "Type Error: Type parameter (T) of Optype (Mul) bound to different types (tensor(float) and "
        "tensor(float16) in node (mul_4).",
        ("Mul", "op_block_list=['Mul']"),
    ),
    (
        "float16-type-param-bound-no-optype",
        "Load model from m.onnx failed:Type Error: Type parameter (T) bound to different types "
        "(tensor(float16) and tensor(float) in node (Concat_7).",
        ("parameter T",),
    ),
    # issue 23: RKNN runtime codes and toolkit errors with their usual cause and fix
    (
        "rknn-no-npu-driver",  # the runtime's own line; the RKNN_ERR_FAIL code card follows it
        "E RKNN: failed to open rknpu module, need to insmod rknpu dirver!\n"
        "Exception: RKNN init failed. error code: RKNN_ERR_FAIL",
        ("rknpu",),
    ),
    (
        "rknn-query-struct-size",  # the runtime's own line; the RKNN_ERR_PARAM_INVALID code card follows it
        "E RKNN: rknn_query, info_len(100) < sizeof(rknn_input_output_num)(108)!\nrknn_query fail! ret=-5",
        ("rknn_api.h",),
    ),
    (
        "rknn-unsupport-onnx-opset-need",
        "E load_onnx: ValueError: Unsupport onnx opset 17, need <= 12!",
        ("opset_version=12", "17"),
    ),
    (
        "rknn-no-such-file-or-directory",
        "E FileNotFoundError: [Errno 2] No such file or directory: 'calib/dataset_coco.txt'",
        ("calib/dataset_coco.txt",),
    ),
    (
        "rknn-RKNN-ERR-MODEL-INVALID-6",
        "E RKNN: [10:01:02.003] Invalid RKNN model version 7\nE RKNN: rknn_init, load model failed!",
        ("version 7", "librknnrt.so"),
    ),
    # issue 23: Ascend runtime codes with their usual cause (capture mode, vector-core indices, HBM held,
    # device nodes) and TBE's Python import failure
    (
        "ascend-EC0010",
        "EC0010: 2026-01-02-03:04:05.006.007 Failed to import Python module [ModuleNotFoundError: No module "
        "named 'sympy'].",
        ("No module named 'sympy",),
    ),
    (
        "ascend-507011",
        "RuntimeError: synchronize:torch_npu/csrc/core/npu/NPUStream.cpp:10 NPU function error: "
        "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(stream()), error code is 507011",
        ("enforce_eager",),
    ),
    (
        "torch-npu-507035",
        "NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(stream()), "
        "error code is 507035\n"
        "[Error]: The vector core execution is abnormal.",
        ("ASCEND_LAUNCH_BLOCKING=1", "Embedding"),
    ),
    # issue 23: onnxruntime load/run type and rank checks, onnx's unset IR version
    (
        "onnxruntime-type-of-input-parameter-invalid",
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Type Error: Type 'tensor(int32)' of input parameter "
        "(expand_shape) of operator (Expand) in node (expand_7) is invalid.",
        ("expand_shape", "Expand", "expand_7", "tensor(int32)"),
    ),
    (
        "onnxruntime-batchnorm-scale-rank",
        "INVALID_ARGUMENT : Non-zero status code returned while running BatchNormalization node.\n"
        "Status Message: Invalid input scale: NumDimensions() != 2",
        ("spatial", "(2)"),
    ),
    (
        "onnx-ValidationError-6",
        "onnx.onnx_cpp2py_export.checker.ValidationError: "
        "The model does not have an ir_version set properly.",
        ("make_model",),
    ),
    (
        "onnxruntime-trt-ep-no-optimization-profile",
        "2021-01-02 03:04:05.6 [W:onnxruntime:Default, tensorrt_execution_provider.h:36 log] "
        "[2021-01-02 03:04:05   ERROR] Network has dynamic or shape inputs, "
        "but no optimization profile has been defined.",
        ("trt_profile_min_shapes",),
    ),
    (
        "qualcomm-aihub-operators-not-implemented",
        "2026-01-01 10:00:00,000 - 12 - ERROR - Encountered Error: "
        "The following operators are not implemented: ['aten::_upsample_bicubic2d_aa', 'aten::rms_norm']",
        ("aten::_upsample_bicubic2d_aa', 'aten::rms_norm",),
    ),
    (
        "ascend-507015",
        "RuntimeError: synchronize:torch_npu/csrc/core/npu/NPUStream.cpp:20 NPU function error: "
        "AclrtSynchronizeStreamWithTimeout(stream()), error code is 507015",
        ("ASCEND_LAUNCH_BLOCKING=1",),
    ),
    (
        "ascend-107020",
        "[W NPUStream.cpp:10] Warning: NPU warning, error code is 107020[Error]: .\nEE9999: Inner Error!\n"
        "EE9999  fftsplus task execute failed, dev_id=3, stream_id=2, task_id=10, context_id=1, thread_id=0, "
        "err_type=13[hccl fftsplus timeout]",
        ("HCCL_EXEC_TIMEOUT",),
    ),
    (
        "ascend-507046+ascend-call-returned-internal",
        "NPU function error: aclrtSynchronizeStreamWithTimeout(stream, timeout), error code is 507046",
        ("HCCL_EXEC_TIMEOUT",),
    ),
    (
        # s29g: the line that names the op answers; the finalize failure after it ranks under it.
        "qualcomm-s29g-htp-op-could-not-create",
        '[trace]  <E> "ScatterND" generated: could not create op\n'
        "[trace]  <E> Failed to finalize graph (id: 2) with err 1002",
        ("ScatterND", "enable_htp_fp16_precision"),
    ),
    (
        "ascend-acl-507048",
        "RuntimeError: operator():torch_npu/csrc/core/npu/NPUStream.cpp:5 NPU function error: "
        "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507048",
        ("HCCL_EXEC_TIMEOUT",),
    ),
    (
        "ascend-507899+ascend-call-returned-internal",
        "enable_peer_access:torch_npu/csrc/core/npu/NPUPeerToPeerAccess.cpp:39 NPU function error: "
        "aclrtDeviceEnablePeerAccess(dest_dev, enable_flag_value), error code is 507899",
        ("halDeviceEnableP2P", "device_map"),
    ),
    # issue 23: Core ML converter messages (rank limit, native blob writer, unknown TF input shape)
    (
        "coreml-rank-above-5",
        'ValueError: Core ML only supports tensors with rank <= 5. Layer "attn_split_heads", with type '
        '"reshape", outputs a rank 6 tensor.',
        ("attn_split_heads", "rank-6"),
    ),
    (
        "coreml-blobwriter-not-loaded",
        'File "coremltools/converters/mil/backend/mil/load.py", line 1, in load\n'
        "RuntimeError: BlobWriter not loaded",
        ("convert_to='neuralnetwork'",),
    ),
    (
        "coreml-tf-input-shape-unknown",
        "ValueError: Unable to determine the shape of input: image_tensor. Please provide its shape during "
        "conversion, using",
        ("name='image_tensor'",),
    ),
    (
        "tvm-pytorch-operators-not-implemented",
        "NotImplementedError: The following operators are not implemented: "
        "['aten::bucketize', 'aten::unflatten']",
        ("custom_convert_map", "aten::bucketize', 'aten::unflatten"),
    ),
    (
        "tensorrt-found-unsupported-datatype-when-importing",
        "Found unsupported datatype (11) when importing initializer: head.scale",
        ("head.scale", "11 = DOUBLE"),
    ),
    (
        "onnx-ValidationError-2",
        "onnx.onnx_cpp2py_export.checker.ValidationError: "
        "Graph must be in single static assignment (SSA) form, however 'feat_out' has been used as "
        "output names multiple times.",
        ("'feat_out'", "add_prefix"),
    ),
    (
        "onnxsim-the-shape-of-input-images",
        'The shape of input "pixel_values" has dynamic size, please set an input shape manually with '
        "--test-input-shape",
        ("--test-input-shape pixel_values:1,3,640,640",),
    ),
    # issue 23, fourth pass: OpenVINO and Core ML failures a family card answered; code tables that only
    # restated their code, now with the message's API, parameter, value, node and path in the advice
    (
        "openvino-tf-no-translator",
        "[TensorFlow Frontend] Internal error, no translator found for operation(s): StringLower, "
        "LookupTableImportV2\n",
        ("StringLower, LookupTableImportV2", "openvino-tokenizers"),
    ),
    (
        "openvino-failed-to-create-plugin",
        "Failed to create plugin /opt/ov/libopenvino_intel_npu_plugin.so for device NPU",
        ("NPU plugin library", "ldd /opt/ov/libopenvino_intel_npu_plugin.so"),
    ),
    ("openvino-cldnn-clgetplatformids", "[CLDNN ERROR]. clGetPlatformIDs error -1001", ("-1001", "clinfo")),
    (
        "coreml-predict-unavailable-warning",
        "model.py:120: RuntimeWarning: You will not be able to run predict() on this Core ML model. "
        "Underlying exception message was: Error compiling model: layer 'conv_9' is not supported.",
        ("layer 'conv_9' is not supported", "coremlcompiler"),
    ),
    (
        "ascend-EE1011",
        "EE1011: [PID: 12] aclrtMemcpy failed. Value 0 for parameter count is invalid. Reason: count must be "
        "greater than 0.",
        ("aclrtMemcpy failed because value 0 for parameter count", "Give count a value"),
    ),
    (
        "ascend-EZ0007",
        "EZ0007: OP[GatherV2_12] indices has incorrect dtype: [DT_UINT8], it should be [DT_INT32, DT_INT64].",
        ("Cast input indices of GatherV2_12 to one of DT_INT32, DT_INT64", "DT_UINT8"),
    ),
    (
        "ascend-E10005",
        "E10005: Value yes for parameter --enable_small_channel is invalid. The value must be either true or "
        "false.",
        ("enable_small_channel", "instead of yes"),
    ),
    (
        "ascend-E11017",
        "E11017: Failed to find node Conv_77 specified by --out_nodes.",
        ("instead of Conv_77",),
    ),
    (
        "ascend-EH0003",
        "EH0003: Path /data/models/resnet.om is invalid. Reason: No such file or directory.",
        ("Check that /data/models/resnet.om exists",),
    ),
    (
        "ascend-E70011",
        "E70011: In op[ReduceSum_4], the num of dimensions of input[x] should be in the range of [1, 8], but "
        "actually is [9].",
        ("Reshape input x of ReduceSum_4",),
    ),
    # s25a: the code card answered for the call that returned it (aclmdlExecute's datasets)
    (
        "ascend-100000+ascend-call-model-execute-dataset",
        "[ERROR] aclmdlExecute failed, errorCode is 100000",
        ("aclmdlDataset", "100000"),
    ),
    (
        "onnxruntime-providers-not-subset",
        "ValueError: ['OpenVINOExecutionProvider'] does not contain a subset of available providers "
        "['AzureExecutionProvider', 'CPUExecutionProvider']",
        ("OpenVINOExecutionProvider", "onnxruntime-openvino"),
    ),
    (
        "tensorrt-internal-assertion",
        "[E] [TRT] 2: [myelinBuilderUtils.cpp::getMyelinSupportType::1270] Error Code 2: Internal Error "
        "(Assertion ss.size() == 1 failed. )",
        (
            "'Assertion ss.size() == 1' at myelinBuilderUtils.cpp::getMyelinSupportType::1270",
            "--fold-constants",
        ),
    ),
    (
        "onnxruntime-dml-factory-hresult",
        "C:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\dml\\dml_provider_factory.cc(487)\\onnxruntime.dll!"
        "00007FFA00001111: (caller: 00007FFA00002222) Exception(1) tid(5c) 887A0004",
        ("HRESULT 887A0004", "device_id"),
    ),
    (
        "rknn-RKNN-ERR-TARGET-PLATFORM-UNMATCH-13",
        "E RKNN: rknn_init fail! ret=RKNN_ERR_TARGET_PLATFORM_UNMATCH",
        ("target_platform",),
    ),
    (
        "onnx-input-must-be-set-to-consumed",
        "onnx.onnx_cpp2py_export.checker.ValidationError: Input index 4 must be set to consumed for "
        "operator SpatialBN",
        ("SpatialBN", "input 4", "opset 7"),
    ),
    (
        "qualcomm-genie-config-missing-field",
        "Using libGenie.so version 2.3.0\n\nMissing sampler field: top-k\nERROR at line 12: Failed to "
        "create the dialog config.",
        ("'top-k'", '"sampler"'),
    ),
    (
        "qualcomm-qnn-no-valid-interface",
        '[ERROR] "Qnn getQnnInterface FAILED!"\nFailure to initialize model',
        ("QnnInterface_getProviders", "same QAIRT SDK release"),
    ),
    (
        "coreml-coremlc-protobuf-spec-unreadable",
        "coremlc: Error: Error reading protobuf spec. validator error: unable to deserialize object",
        ("specificationVersion", "git lfs pull"),
    ),
    (
        "tensorrt-torch-tensorrt-engine-build-failed",
        "RuntimeError: [Error thrown at core/conversion/conversionctx/ConversionCtx.cpp:162] Building "
        "TensorRT engine failed",
        ("workspace_size", "torch_executed_ops", "min_shape"),
    ),
    (
        "openvino-gpu-program-build-failed",
        "Check 'false' failed at src/plugins/intel_gpu/src/plugin/program.cpp:370:\nGPU program build "
        "failed!\n[GPU] clEnqueueNDRangeKernel, error code: -5",
        ("CL_OUT_OF_RESOURCES", "compile_model(model, 'CPU')"),
    ),
    (
        "openvino-ie-exception-unhandled",
        "Unhandled exception at 0x00007FF812345678 (in app.exe): Microsoft C++ Exception: InferenceEngine: : "
        "the details: : InferenceEngineException",
        ("plugins.xml",),
    ),
    (
        "qualcomm-fastrpc-farf-config-absent",
        "E/org.demo.seg: vendor/qcom/proprietary/commonsys-intf/adsprpc/src/log_config.c:262:Error 2: fopen "
        "failed for /data/local/tmp/dsp/org.demo.seg.farf. (No such file or directory)",
        ("/data/local/tmp/dsp/org.demo.seg.farf", "not why SNPE/QNN failed", "ADSP_LIBRARY_PATH"),
    ),
]


@pytest.mark.parametrize(("entry_id", "message", "shown"), CASES, ids=[c[0] for c in CASES])
def test_the_specific_entry_answers_first_with_the_message_values(
    kb: KnowledgeBase, entry_id: str, message: str, shown: tuple[str, ...]
) -> None:
    top = kb.lookup(message, top=3)[0]
    # the entry itself, or the entry under a call clause that names the call which returned its code
    assert top.entry.id == entry_id or top.entry.id.startswith(f"{entry_id}+ascend-call-")
    assert top.entry.level != "family" and not top.entry.generic
    assert "pattern" in top.reason or "code" in top.reason
    text = f"{top.cause} {top.fix}"
    for value in shown:
        assert value in text
    placeholders = re.findall(r"\{(\w+)\}", f"{top.entry.cause} {top.entry.fix}")
    assert not [name for name in placeholders if f"<{name}>" in text]  # every placeholder was filled


def test_each_case_is_an_entry_of_the_knowledge_base(kb: KnowledgeBase) -> None:
    ids = {e.id for e in kb.entries}
    assert {c[0].split("+")[0] for c in CASES} <= ids  # an entry, or an entry answered by a clause


def test_onnxsim_pass_name_is_the_one_to_skip(kb: KnowledgeBase) -> None:
    """The pass the assertion names is the one the fix tells onnxsim to skip, whichever pass it is."""
    for name in ("fuse_bn_into_conv", "eliminate_nop_pad", "fuse_consecutive_transposes"):
        message = f"/x/onnxoptimizer/passes/{name}.h:12: runTransform: Assertion `x` failed."
        top = kb.lookup(message, top=1)[0]
        assert top.entry.id == "onnxsim-optimizer-pass-assertion"
        assert f"--skip-optimizer {name}" in top.fix


def test_read_model_fix_names_the_format(kb: KnowledgeBase) -> None:
    top = kb.lookup(
        "Unable to read the model: net.pdmodel Please check that model format: pdmodel is supported and the "
        "model is correct. Available frontends: ir onnx",
        top=1,
    )[0]
    assert top.entry.id == "openvino-unable-to-read-model"
    assert "'pdmodel' format" in top.fix


@pytest.mark.parametrize(
    "message",
    [
        "[TRT] [E] 2: [virtualMemoryBuffer.cpp::resizePhysical::99] Error Code 2: OutOfMemory (no further "
        "information)",
        "[E] [TRT] safeRuntime.cpp (25) - Cuda Error in nvinfer1::internal::DefaultAllocator::allocate: "
        "2 (out of memory)",
    ],
)
def test_a_builder_out_of_memory_is_answered_before_error_code_2s_card(
    kb: KnowledgeBase, message: str
) -> None:
    """TensorRT's GPU memory failures at build time get the workspace advice, not the generic Error Code 2."""
    top = kb.lookup(message, top=2)[0]
    assert top.entry.id == "tensorrt-builder-gpu-out-of-memory"
    assert "--memPoolSize=workspace" in top.fix


def test_an_internal_assertion_of_error_code_2_is_not_called_out_of_memory(kb: KnowledgeBase) -> None:
    message = (
        "[TRT] 2: [builder.cpp::buildSerializedNetwork::619] "
        "Error Code 2: Internal Error (Assertion x failed. )"
    )
    assert kb.lookup(message, top=1)[0].entry.id != "tensorrt-builder-gpu-out-of-memory"


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        ("Nodes in a graph must be topologically sorted, however input 'feat_7' of node:", "'feat_7'"),
        ("onnx.checker.ValidationError: Nodes in a graph must be topologically sorted:", "input (onnx"),
    ],
)
def test_the_topological_sort_check_is_answered_with_or_without_the_input(
    kb: KnowledgeBase, message: str, shown: str
) -> None:
    """onnx's checker names the input on the same line or (in newer releases and in pastes cut there) after
    the colon: both are the sort check, and the advice reads whole without a name."""
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == "onnx-ValidationError" and "pattern" in top.reason
    assert shown in top.fix
    assert "''" not in f"{top.cause} {top.fix}"
