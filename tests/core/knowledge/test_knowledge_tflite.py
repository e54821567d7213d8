"""The knowledge tests of TensorFlow Lite / LiteRT (and MediaPipe): each case is a vendor's own wording
with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From converter_families (was test_knowledge_converter_families.py):
described in test_knowledge_coreml.py's docstring.

From s20a (was test_knowledge_coreml_tflite_s20a.py):

Session s20a: common Core ML and TensorFlow Lite / LiteRT failures, read from the vendors' own sources.

Core ML (apple/coremltools): the native bridge's model compilation error and its macOS-version refusals
(coremlpython/CoreMLPython.mm, models/model.py), ct.TensorType's dtype check
(converters/mil/input_types.py), the PyTorch frontend's aten::__getitem__
(converters/mil/frontend/torch/ops.py) and model file loading (load.py), ct.convert's convert_to /
deployment target check and MLModel's argument check. TFLite / LiteRT (google-ai-edge/LiteRT, tflite/):
the interpreter's subgraph checks (core/subgraph.cc), the quantizer and its calibration
(tools/optimize/quantize_model.cc, calibration/calibration_logger.cc), the converter
(converter/tf_to_tfl_flatbuffer.cc; python/lite.py, convert_saved_model.py, optimize/calibrator.py), the
SignatureRunner (python/interpreter.py), the Hexagon, NNAPI and XNNPACK delegates and model loading
(converter/allocation.cc, the ValueError tf.lite.Interpreter raises); MediaPipe Tasks' model metadata
and model file checks (google-ai-edge/mediapipe, mediapipe/tasks/cc).

From round21_forms (was test_knowledge_round21_forms.py).

From h23f3 (was test_knowledge_round22_sources_h23f3.py): described in test_knowledge_coreml.py's docstring.

From round23_forms (was test_knowledge_round23_forms.py).

From s19f (was test_knowledge_round24_dev_s19f.py):

Issue 23, round 24's dev forms answered at their cause (s19f): MediaPipe LLM Inference's signature
check.

From s20g (was test_knowledge_round25_dev_s20g.py):

Issue 23, round 25's dev forms answered at their cause (s20g): LiteRT-LM's missing model section.

From s18a (was test_knowledge_specific_s18a.py):

Issue 23, advice specific to messages the KB was not written from: three reason clauses (TensorRT's
optimization-profile check quoted by onnxruntime's TensorRT execution provider, the session's 'Exception
during initialization: <what>', onnx's OpSchema::Finalize check of a model-local function), TensorRT 7's
reversed profile condition, TFLite's TF_LITE_ENSURE_EQ with its values, and the log files the Ascend bare
inner-error cards send the reader to.

From s21d (was test_knowledge_openvino_tflite_mnn_source_checks.py):

OpenVINO's shape and type checks, TFLite's kernel and Java checks, MNN's backend messages: vendor texts.

TFLite / LiteRT (google-ai-edge/LiteRT tflite/): the Java TensorImpl's type check ("Cannot convert between a
TensorFlowLite tensor with type %s and a Java object of type %s (which is compatible with the TensorFlowLite
type %s)."), kernel_util.cc's broadcast check ("Given shapes, %s and %s, are not broadcastable.") and
core/c/common.h's TF_LITE_ENSURE_TYPES_EQ ("%s:%d %s != %s (%s != %s)"), each as the Python interpreter
prints it with subgraph.cc's "Node number %d (%s) failed to prepare." after it.

Each case is the source's own format string with made-up names and values filled in, never an eval message:
the entry that answers it, and the parts of the message its advice must name.
From s22g: TFLite's delegate providers (tensorflow/lite/tools/delegates/*_delegate_provider.cc) when a
delegate cannot be created.
From s23f: the built-in kernels' type checks (tensorflow/lite/kernels/*.cc TF_LITE_KERNEL_LOG texts, the
tflite-runtime 2.14.0 wheel's strings) and the Python wrapper's set_tensor before allocate_tensors.

From s24f: the GPU delegate's cl_program.cc and LiteRT's dispatch delegate (litert/runtime/dispatch).

From s25e: the kernels' Prepare checks (LiteRT tflite/core/c/common.h TF_LITE_ENSURE* forms,
tflite/kernels/*.cc).

From s28c (was test_knowledge_s28c_tflite_coreml_sources.py):

Branch s28c: Core ML and TFLite entries and markers written from the tools' own sources.

Each row is the text as the source prints it (the Core ML framework's MLModelError codes and its Espresso and
ML Program parser lines; TensorFlow's MLIR TFL verifier and quantizer, lite.py's input checks, the TFLite
kernels' index checks, the XNNPACK delegate's node checks, TensorFlow Lite Micro's allocator and op resolver,
the Java API's type check) with made-up values, answered by its entry with the captured parts in the advice.
The other tests pin where an entry stops: the Core ML code entries leave the texts that own entries answer,
the TFLM resolver entry leaves the versioned runtime form, and the new markers name their family alone.

From s29c (was test_knowledge_s29c_sources.py):

Branch s29c: TFLite/LiteRT, Core ML, MNN and ncnn entries written from the tools' own sources.

Each row is the text as the source prints it (LiteRT's GPU delegate OpenCL/GL/EGL start-up and call
failures, the Flex delegate's eager context and type mapping, the model verifier's op versions,
tflite_flutter's state checks; Core ML's image size constraint, coremltools' MIL name and scope checks and the
neuralnetwork backend's image output check;
MNN's Vulkan and OpenCL backends and its ONNX clip option; pnnx's ncnn pass, its TorchScript loader and ncnn's
Vulkan allocator, weight upload and shader compiler) with made-up values, answered by its entry with the
captured parts in the advice.  The other tests pin where an entry stops: the look-alike wording of other tools
is no match of it, and the new marker names its family alone.

Also from s31e_sources (test_knowledge_converters.py), s30f_specific and s31f_specific
(test_knowledge_onnxruntime.py), s31e_removed_apis (test_knowledge_openvino.py) and s30e_sources
(test_knowledge_torch_onnx.py): their notes stand in the docstrings named.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from tests.support.advice import (
    Case,
    answered_by_entry,
    answers_with,
    assert_advice,
    assert_answered,
    first_answer,
    first_with_values,
    in_top3_with_values,
    keeps_its_entry,
    pattern_ids,
    top_match,
)

CASES = [
    # ---- s20a (test_knowledge_coreml_tflite_s20a.py) ----
    # tflite/tools/optimize
    (
        "Model resulted in Nan value during calibration. Please consider making sure that model results in "
        "all real-values during inference with provided dataset.",
        "tflite-s20a-calibration-nan",
        ("representative_dataset", "experimental_preserve_all_tensors"),
    ),
    (
        "Max and min for dynamic tensors should be recorded during calibration: Failed for tensor "
        "model/dense_3/MatMul1",
        "tflite-s20a-minmax-not-recorded",
        ("model/dense_3/MatMul1", "yield [x[i:i+1]]"),
    ),
    (
        "Unable to find min/max value for output 0 in GATHER in subgraph 1, node: 7",
        "tflite-s20a-minmax-not-recorded",
        ("(of op GATHER)", "TFLITE_BUILTINS_INT8"),
    ),
    (
        "Quantization to 16x8-bit not yet supported for op: 'UNIDIRECTIONAL_SEQUENCE_LSTM'.",
        "tflite-s20a-16x8-not-supported-for-op",
        ("kernel for UNIDIRECTIONAL_SEQUENCE_LSTM", "Let UNIDIRECTIONAL_SEQUENCE_LSTM stay float"),
    ),
    # tflite/python/optimize/calibrator.py, lite.py, interpreter.py, convert_saved_model.py
    (
        "ValueError: You need to provide either a dictionary with input names and values, a tuple with "
        "signature key and a dictionary with input names and values, or an array with input values in the "
        "order of input tensors of the graph in the representative_dataset function. Unsupported value "
        "from dataset: [0.5 0.25].",
        "tflite-s20a-representative-sample-format",
        ("(0.5 0.25)", "yield [x[None].astype(np.float32)]"),
    ),
    (
        "ValueError: The inference_input_type and inference_output_type must be in "
        "['tf.float32', 'tf.int16'].",
        "tflite-s20a-inference-io-type",
        ("Allowed here: 'tf.float32', 'tf.int16'", "TFLITE_BUILTINS_INT8"),
    ),
    (
        "ValueError: The inference_input_type and inference_output_type must be tf.float32.",
        "tflite-s20a-inference-io-type",
        ("tf.float32 only", "representative_dataset"),
    ),
    (
        "ValueError: Invalid number of inputs provided for running a SignatureDef, expected 2 vs provided 1",
        "tflite-s20a-signature-runner-args",
        ("expected 2 vs provided 1", "get_signature_list()"),
    ),
    (
        "ValueError: Invalid Input name (image) for SignatureDef",
        "tflite-s20a-signature-runner-args",
        ("Invalid Input name (image)", "get_signature_list()"),
    ),
    (
        "ValueError: The model provided has never been called. "
        "It must be called at least once before export.",
        "tflite-s20a-keras-model-never-called",
        ("model.build((None, ...))", "from_concrete_functions"),
    ),
    (
        "ValueError: No 'serving_default' in the SavedModel's SignatureDefs. Possible values are 'infer'.",
        "tflite-s20a-savedmodel-signature-key",
        ("the signature serving_default in", "are only infer", "signature_keys=['infer']"),
    ),
    # tflite/converter/tf_to_tfl_flatbuffer.cc
    (
        "error: The graph has Control Flow V1 ops. TFLite converter doesn't support Control Flow V1 ops. "
        "Consider using Control Flow V2 ops instead.",
        "tflite-s20a-control-flow-v1",
        ("tf.compat.v1.enable_control_flow_v2()",),
    ),
    (
        "ConverterError: Could not translate MLIR to FlatBuffer.",
        "tflite-s20a-mlir-to-flatbuffer",
        ("SELECT_TF_OPS", "allow_custom_ops"),
    ),
    # tflite/core/subgraph.cc
    (
        "Invalid tensor index 41 in outputs. The subgraph has 40 tensors",
        "tflite-s20a-invalid-tensor-index",
        ("outputs names tensor 41", "only 40 tensors"),
    ),
    (
        "Attempting to resize dimension 2 of tensor 3 with value 128 to 96. ResizeInputTensorStrict only "
        "allows mutating unknown dimensions identified by -1.",
        "tflite-s20a-resize-strict",
        ("dimension 2 of input tensor 3", "fixed at 128", "asked for 96", "fixed size 128"),
    ),
    ("Input tensor 5 lacks data", "tflite-s20a-input-tensor-lacks-data", ("tensor 5", "AllocateTensors()")),
    (
        "Invoke called on model that is not consistent.",
        "tflite-s20a-inconsistent-model",
        ("Invalid tensor index",),
    ),
    # tflite/delegates
    (
        "Failed to fetch Hexagon NN version. This might be because you're using incompatible versions of "
        "libhexagon_interface and libhexagon_nn_skel. You must use compatible versions. Refer to Tensorflow "
        "Lite Hexagon Delegate Guide.",
        "tflite-s20a-hexagon-delegate-unavailable",
        ("libhexagon_nn_skel", "same Hexagon delegate release"),
    ),
    (
        "Incompatible versions between interface library and libhexagon_skel 120 vs 131. You must use "
        "compatible versions.",
        "tflite-s20a-hexagon-delegate-unavailable",
        ("interface 120 against skel 131",),
    ),
    (
        "Could not find the specified NNAPI accelerator: vendor-npu. "
        "Must be one of: {vendor-gpu,nnapi-reference}.",
        "tflite-s20a-nnapi-accelerator-not-found",
        ("accelerator_name=vendor-npu", "vendor-gpu,nnapi-reference"),
    ),
    (
        "ERROR: failed to setup XNNPACK runtime",
        "tflite-s20a-xnnpack-runtime-failed",
        ("failed to setup it", "BUILTIN_WITHOUT_DEFAULT_DELEGATES"),
    ),
    # google-ai-edge/mediapipe: tasks/cc (object_detector_graph.cc, image_tensor_specs.cc,
    # detection_postprocessing_graph.cc, core/external_file_handler.cc)
    (
        "INVALID_ARGUMENT: Object detection models require TFLite Model Metadata but none was found",
        "tflite-s20a-mediapipe-model-metadata",
        ("TFLite Model Metadata", "create_for_models_with_nms"),
    ),
    (
        "Input tensor has type float32: it requires specifying NormalizationOptions metadata to preprocess "
        "input images.",
        "tflite-s20a-mediapipe-model-metadata",
        ("NormalizationOptions", "norm_mean/norm_std"),
    ),
    (
        "Mismatch between number of output tensors (4) and output tensors metadata (1).",
        "tflite-s20a-mediapipe-model-metadata",
        ("expects 4 output tensors, the metadata describes 1",),
    ),
    (
        "RuntimeError: Unable to open file at models/face_landmarker_v2.task",
        "tflite-s20a-mediapipe-model-file",
        ("'models/face_landmarker_v2.task'", "model_asset_buffer"),
    ),
    # tflite/converter/allocation.cc via tf.lite.Interpreter(model_path=...)
    (
        "ValueError: Could not open 'assets/pose_model.tflite'.",
        "tflite-s20a-could-not-open-model",
        ("assets/pose_model.tflite", "os.path.exists"),
    ),
    # ---- round23_forms (test_knowledge_round23_forms.py) ----
    (
        "E/flutter ( 4242): Unhandled Exception: Invalid argument(s): Unable to create interpreter.",
        "tflite-flutter-unable-to-create-interpreter",
        ("tensorflow-lite-select-tf-ops", "logcat"),
    ),
    (
        "flutter: Invalid argument(s): Failed to lookup symbol 'TfLiteInterpreterCreate': error code 127",
        "tflite-flutter-failed-to-lookup-symbol",
        ("TfLiteInterpreterCreate", "Non-Global Symbols"),
    ),
    # ---- s21d (test_knowledge_openvino_tflite_mnn_source_checks.py) ----
    # LiteRT tflite/java: TensorImpl's type check
    (
        "java.lang.IllegalArgumentException: Cannot convert between a TensorFlowLite tensor with "
        "type INT8 and a "
        "Java object of type [[[F (which is compatible with the TensorFlowLite type FLOAT32).",
        "tflite-s21d-java-convert-type",
        ("INT8", "FLOAT32", "getInputTensor(i).dataType()"),
    ),
    # LiteRT tflite/kernels/kernel_util.cc, then subgraph.cc's 'Node number'
    (
        "RuntimeError: tensorflow/lite/kernels/kernel_util.cc:701 Given shapes, [1,8,8], [1,1,8] and "
        "[1,4,8], are "
        "not broadcastable.Node number 9 (SELECT_V2) failed to prepare.",
        "tflite-s21d-not-broadcastable",
        ("SELECT_V2", "1,8,8", "1,4,8", "shape_signature"),
    ),
    # LiteRT tflite/core/c/common.h TF_LITE_ENSURE_TYPES_EQ
    (
        "RuntimeError: tensorflow/lite/kernels/add.cc:118 input1->type != input2->type (INT16 != "
        "INT8)Node number "
        "2 (ADD) failed to prepare.",
        "tflite-s21d-kernel-type-mismatch",
        ("ADD", "INT16", "INT8", "kernels/add.cc", "representative_dataset"),
    ),
    # ---- the lead, round 26's dev forms (flutter-tflite lib/src/bindings/dlib.dart; dart:ffi)
    (
        "Invalid argument(s): Failed to load dynamic library 'libtensorflowlite_c-linux.so': "
        "libtensorflowlite_c-linux.so: cannot open shared object file: No such file or directory",
        "tflite-flutter-dynamic-library-load-failed",
        ("libtensorflowlite_c-linux.so", "cannot open shared object file", "minSdkVersion"),
    ),
    # ---- s22g: tensorflow/lite/tools/delegates/hexagon_delegate_provider.cc, gpu_delegate_provider.cc ----
    (
        "WARN: Could not create Hexagon delegate: platform may not support delegate or required libraries "
        "are missing",
        "tflite-s22g-delegate-unavailable",
        ("Hexagon delegate", "libhexagon_interface.so", "--hexagon_lib_path"),
    ),
    (
        "INFO: GPU acceleration is unsupported on this platform.",
        "tflite-s22g-delegate-unavailable",
        ("GPU delegate", "--use_xnnpack"),
    ),
    # ---- s23f: tensorflow/lite/kernels/*.cc (TF_LITE_KERNEL_LOG type checks), interpreter_wrapper.cc ----
    (
        "ERROR: Type FLOAT16 is currently not supported by StridedSlice.",
        "tflite-s23f-kernel-dtype-unsupported",
        ("StridedSlice", "FLOAT16", "representative_dataset"),
    ),
    (
        "ERROR: Fill only currently supports int32, int64 for input 0, got 9.",
        "tflite-s23f-kernel-only-supports",
        ("Fill", "int32, int64 for input 0", "type 9", "9 INT8"),
    ),
    (
        "ERROR: Only float32, uint8 and int8 are supported currently, got INT64.",
        "tflite-s23f-kernel-only-types-supported",
        ("float32, uint8 and int8", "INT64", "tf.cast"),
    ),
    (
        "ValueError: Cannot set tensor: Tensor is unallocated. Try calling allocate_tensors() first",
        "tflite-s23f-set-tensor-unallocated",
        ("allocate_tensors()", "resize_tensor_input"),
    ),
    # ---- lead s23: tensorflow/lite/swift/Sources/InterpreterError.swift (failedToAllocateTensors) ----
    (
        "Failed to create the interpreter with error: Failed to allocate memory for input tensors.",
        "tflite-s23-swift-allocate-tensors-failed",
        ("allocateTensors()", "failed to prepare", "Select TF ops"),
    ),
    # s24f: the GPU delegate's OpenCL program build (tensorflow/lite/delegates/gpu/cl/cl_program.cc
    # BuildProgram) and LiteRT's dispatch delegate (litert/runtime/dispatch/litert_dispatch.cc,
    # dispatch_delegate.cc)
    (
        "E/tflite: Failed to build program executable - Invalid build optionserror: unknown build option "
        "'-cl-fast-foo'",
        "tflite-s24f-gpu-cl-build-program",
        ("Invalid build options", "TFLITE_GPU_EXPERIMENTAL_FLAGS_GL_ONLY"),
    ),
    (
        "E litert  : [litert_dispatch.cc:122] No dispatch library found in "
        "/data/app/com.example.demo/lib/arm64",
        "tflite-s24f-litert-no-dispatch-runtime",
        ("/data/app/com.example.demo/lib/arm64", "nativeLibraryDir"),
    ),
    (
        "E litert  : [dispatch_delegate.cc:131] Failed to create a dispatch delegate kernel: "
        "No usable Dispatch runtime found",
        "tflite-s24f-litert-no-dispatch-runtime",
        ("libLiteRtDispatch_", "useLegacyPackaging"),
    ),
    # ---- s25e: the kernels' checks (LiteRT tflite/core/c/common.h forms, tflite/kernels/*.cc) ----
    # tflite/kernels/mul.cc Prepare: TF_LITE_ENSURE_EQ(context, NumInputs(node), 2)
    (
        "RuntimeError: tensorflow/lite/kernels/mul.cc:101 NumInputs(node) != 2 (3 != 2)Node number 14 (MUL) "
        "failed to prepare.",
        "tflite-s25e-kernel-check-node-arity",
        ("MUL", "NumInputs(node)", "has 3 where the kernel takes 2", "Analyzer.analyze"),
    ),
    # tflite/kernels/conv.cc: TF_LITE_ENSURE_EQ(context, filter->params.zero_point, 0) (int8 weights)
    (
        "ERROR: tensorflow/lite/kernels/conv.cc:402 filter->params.zero_point != 0 (5 != 0)\n"
        "ERROR: Node number 3 (CONV_2D) failed to prepare.",
        "tflite-s25e-kernel-check-quantization",
        ("CONV_2D", "filter->params.zero_point", "representative_dataset", "quantization_parameters"),
    ),
    # tflite/kernels/add.cc: TF_LITE_ENSURE_TYPES_EQ(context, input1->type, input2->type) printed by name
    (
        "tensorflow/lite/kernels/add.cc:92 input1->type != input2->type (UINT8 != INT8)\n"
        "Node number 6 (ADD) failed to prepare.",
        "tflite-s25e-kernel-check-int8-uint8",
        ("ADD", "UINT8 against INT8", "inference_input_type"),
    ),
    # tflite/kernels/softmax.cc: TF_LITE_ENSURE(context, input->type == kTfLiteFloat32 || ...)
    (
        "tensorflow/lite/kernels/softmax.cc:310 input->type == kTfLiteFloat32 || input->type == kTfLiteInt8 "
        "was not true.\nNode number 9 (SOFTMAX) failed to prepare.",
        "tflite-s25e-kernel-check-type",
        ("SOFTMAX", "input->type == kTfLiteFloat32", "TFLITE_BUILTINS_INT8"),
    ),
    # tflite/kernels/conv.cc: TF_LITE_ENSURE_EQ(context, NumDimensions(input), 4) (a LiteRT build's path)
    (
        "tflite/kernels/conv.cc:350 NumDimensions(input) != 4 (3 != 4)\nNode number 2 (CONV_2D) failed to "
        "prepare.",
        "tflite-s25e-kernel-check-shape",
        ("CONV_2D", "NumDimensions(input)", "3 against 4", "resize_tensor_input"),
    ),
    # tflite/kernels/op_macros.h TF_LITE_UNSUPPORTED_TYPE (cast.cc's Eval), then subgraph.cc's invoke line
    (
        "tensorflow/lite/kernels/cast.cc:241 Type COMPLEX128 is unsupported by op Cast.\n"
        "Node number 1 (CAST) failed to invoke.",
        "tflite-s25e-kernel-type-unsupported-by-op",
        ("COMPLEX128", "CAST", "(Cast)", "tf.cast"),
    ),
    # tflite/kernels/*.cc TF_LITE_KERNEL_LOG(context, "Type %s not currently supported.", ...)
    (
        "Type FLOAT16 not currently supported.",
        "tflite-s25e-kernel-type-unsupported-by-op",
        ("FLOAT16", "supported_types"),
    ),
    # ---- tflite: tensorflow/compiler/mlir/lite (TFL dialect verifier, quantizer) ----
    (
        "error: 'tfl.zz_pool' op operand #1 must be tensor of 32-bit float or QI8 type values, but got "
        "'tensor<1x7xi64>'",
        "tflite-s28c-mlir-tfl-operand-type",
        ("TFLite op zz_pool", "operand #1", "tensor<1x7xi64>", "SELECT_TF_OPS"),
    ),
    (
        "loc(\"zz/MatMul\"): error: 'tfl.zz_matmul' op failed to verify that all of {x, y} have same element "
        "type",
        "tflite-s28c-mlir-tfl-verify",
        ("TFLite op zz_matmul", "failed to verify that all of {x, y} have same element type"),
    ),
    (
        "error: 'tfl.concatenation' op quantization parameters violate the same scale constraint: "
        "!quant.uniform<i8:f32, 0.0123:-7> vs. !quant.uniform<i8:f32, 0.0456:9>",
        "tflite-s28c-mlir-same-scale",
        ("!quant.uniform<i8:f32, 0.0123:-7>", "!quant.uniform<i8:f32, 0.0456:9>", "representative_dataset"),
    ),
    # ---- tflite: tensorflow/lite/python/lite.py ----
    (
        "ValueError: This converter can only convert a single ConcreteFunction. Converting multiple "
        "functions is under development.",
        "tflite-s28c-converter-single-concrete-function",
        ("signature_keys",),
    ),
    (
        "ValueError: Provide an input shape for input array 'zz_input'.",
        "tflite-s28c-converter-input-shape-missing",
        ("zz_input", "input_shapes"),
    ),
    # ---- tflite: kernels (gather.cc, embedding_lookup.cc), XNNPACK, TFLM, model loader, Java ----
    (
        "Embedding Lookup: index out of bounds. Got 70001, and bounds are [0, 70000]\n"
        "Node number 3 (EMBEDDING_LOOKUP) failed to invoke.",
        "tflite-s28c-kernel-index-out-of-bounds",
        ("Embedding Lookup", "70001", "70000", "vocabulary"),
    ),
    (
        "CheckTensorType: unsupported type INT64 in tensor #17 in node #9\n"
        "Node number 40 (TfLiteXNNPackDelegate) failed to prepare.",
        "tflite-s28c-xnnpack-node-check",
        ("node #9", "unsupported type INT64 in tensor #17", "setUseXNNPACK(false)"),
    ),
    (
        "Arena size is too small for all buffers. Needed 123456 but only 65432 was available.\n"
        "AllocateTensors() failed",
        "tflite-s28c-micro-arena-too-small",
        ("123456", "65432", "arena_used_bytes"),
    ),
    (
        "Model provided is schema version 7 not equal to supported version 3.",
        "tflite-s28c-schema-version-mismatch",
        ("schema version field reads 7", "version 3", "xxd -i"),
    ),
    (
        "Didn't find op for builtin opcode 'ZZ_SOFTMAX'\nFailed to get registration from op code ZZ_SOFTMAX\n"
        "AllocateTensors() failed",
        "tflite-s28c-micro-op-not-in-resolver",
        ("ZZ_SOFTMAX", "MicroMutableOpResolver"),
    ),
    (
        "java.lang.IllegalArgumentException: DataType error: cannot resolve DataType of [[Ljava.lang.Float;",
        "tflite-s28c-java-datatype-unresolved",
        ("Ljava.lang.Float;", "ByteBuffer"),
    ),
    (
        "loc(fused[\"Conv1d\"]): error: failed to legalize operation 'tfl.transpose' that was explicitly "
        "marked illegal",
        "tflite-s30f-legalize-tflite-op-type",
        ("tfl.transpose", "float32"),
    ),
    (
        "ERROR: Node number 41 (RESIZE_BILINEAR) failed to prepare.",
        "tflite-node-failed-to-prepare",
        ("41", "RESIZE_BILINEAR", "resize_tensor_input"),
    ),
    (
        "ERROR: Node number 3 (FlexRFFT2D) failed to prepare.",
        "tflite-s31f-node-prepare-flex",
        ("FlexRFFT2D", "tensorflow-lite-select-tf-ops"),
    ),
    (
        "E/tflite: Node number 120 (TfLiteGpuDelegateV2) failed to prepare.",
        "tflite-s31f-node-prepare-delegate",
        ("120", "TfLiteGpuDelegateV2"),
    ),
    (
        "TensorFlow Lite Error: Node number 58 (MaxPoolingWithArgmax2D) failed to prepare.",
        "tflite-s31f-node-prepare-custom-op",
        ("58", "MaxPoolingWithArgmax2D", "AddCustom"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


# ---- converter_families (test_knowledge_converter_families.py) ----


@pytest.mark.parametrize(
    ("text", "entry", "captured"),
    [
        (
            "java.lang.IllegalArgumentException: Cannot copy to a TensorFlowLite tensor (input_img) with "
            "1228800 bytes from a Java Buffer with 307200 bytes.",
            "tflite-java-copy-to-tensor-bytes",
            ("got", "307200"),
        ),
        (
            "java.lang.IllegalArgumentException: Cannot copy from a TensorFlowLite tensor (StatefulCall:1) "
            "with shape [1, 84, 8400] to a Java object with shape [1, 25200, 85].",
            "tflite-java-copy-from-tensor-shape",
            ("shape", "1, 84, 8400"),
        ),
        (
            "java.lang.IllegalArgumentException: Cannot copy from a TensorFlowLite tensor (logits) with 40 "
            "bytes to a Java Buffer with 20 bytes.",
            "tflite-java-copy-from-tensor-shape",
            ("tensor", "logits"),
        ),
        (
            "Internal error: Cannot create interpreter: Op builtin_code out of range: 161. Are you using old "
            "TFLite binary with newer model?",
            "tflite-builtin-code-out-of-range",
            ("value", "161"),
        ),
        (
            "java.lang.IllegalArgumentException: ByteBuffer is not a valid flatbuffer model",
            "tflite-not-a-valid-flatbuffer",
            None,
        ),
        (
            "ValueError: None is only supported in the 1st dimension. Tensor 'pixels' has invalid shape "
            "'[1, None, None, 3]'.",
            "tflite-converter-none-only-first-dim",
            ("tensor", "pixels"),
        ),
        (
            "RuntimeError: Quantization not yet supported for op: 'NON_MAX_SUPPRESSION_V5'.",
            "tflite-quantization-not-supported-for-op",
            ("op_type", "NON_MAX_SUPPRESSION_V5"),
        ),
        (
            "ValueError: For full integer quantization, a `representative_dataset` must be specified.",
            "tflite-representative-dataset-required",
            None,
        ),
        (
            'Can not open OpenCL library on this device - dlopen failed: library "libOpenCL.so" not found',
            "tflite-gpu-opencl-library",
            None,
        ),
        (
            "error: 'tf.RaggedTensorToTensor' op is neither a custom op nor a flex op",
            "tflite-neither-custom-nor-flex",
            ("op_type", "tf.RaggedTensorToTensor"),
        ),
    ],
)
def test_tflites_own_sentences_have_entries(
    kb: KnowledgeBase, text: str, entry: str, captured: tuple[str, str] | None
) -> None:
    answers_with(kb, text, entry, "tflite", captured, named=False)


@pytest.mark.parametrize(
    "text",
    [
        "java.lang.IllegalArgumentException: Internal error: Failed to run on the given Interpreter: "
        "tensorflow/lite/kernels/gather.cc:158 indices has not enough dims",
        "java.lang.IllegalStateException: Internal error: Unexpected failure when preparing tensor "
        "allocations: Node number 12 (FlexErf) failed to prepare.",
    ],
)
def test_the_java_envelope_ranks_under_the_inner_tflite_reason(kb: KnowledgeBase, text: str) -> None:
    found = kb.lookup(text, top=3)
    assert found[0].entry.family == "tflite"
    ids = [m.entry.id for m in found]
    assert any(i in ids for i in ("tflite-java-failed-to-run", "tflite-java-preparing-tensor-allocations"))


def test_the_java_envelope_alone_names_its_reason(kb: KnowledgeBase) -> None:
    top = top_match(kb, "Internal error: Failed to run on the given Interpreter: something odd happened")
    assert top.entry.id == "tflite-java-failed-to-run"
    assert "something odd happened" in top.cause


def test_the_log_scan_reports_the_new_single_lines(kb: KnowledgeBase) -> None:
    log = (
        "loading model\n"
        "Op builtin_code out of range: 161. Are you using old TFLite binary with newer model?\n"
        "step done\n"
        "Cannot create GridSample layer gs id:3 from unsupported opset: opset9\n"
        "all done\n"
    )
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.matches[0].entry.id for p in problems] == [
        "tflite-builtin-code-out-of-range",
        "openvino-ir-unsupported-opset",
    ]


def test_a_node_that_failed_to_invoke_is_not_a_prepare_failure(kb: KnowledgeBase) -> None:
    top = top_match(kb, "Node number 12 (FlexStridedSlice) failed to invoke.")
    assert top.entry.id == "tflite-node-failed-to-invoke"
    assert ("op_type", "FlexStridedSlice") in top.captures
    assert (
        top_match(kb, "Node number 12 (CONV_2D) failed to prepare.").entry.id
        == "tflite-node-failed-to-prepare"
    )


# ---- s20a (test_knowledge_coreml_tflite_s20a.py) ----


def test_a_path_that_is_no_model_is_not_mediapipes(kb: KnowledgeBase) -> None:
    """'Unable to open file at <path>' is any program's wording: only a model path (.task, .tflite) is
    MediaPipe's external_file_handler.cc, and another path is no partial match of it either."""
    for top in kb.lookup("Unable to open file at /etc/app/settings.conf", top=3):
        assert top.reason not in ("pattern", "partial"), (top.entry.id, top.reason)


# ---- round21_forms (test_knowledge_round21_forms.py) ----


@pytest.mark.parametrize(
    ("message", "value"),
    [
        ("ERROR: The model is not a valid Flatbuffer buffer", "buffer"),
        ("java.lang.IllegalArgumentException: The model is not a valid Flatbuffer file", "file"),
    ],
)
def test_tflite_model_builder_verification(kb: KnowledgeBase, message: str, value: str) -> None:
    found = kb.answer(message)
    top = found.matches[0]
    assert top.entry.id == "tflite-h23v2-model-not-valid-flatbuffer"
    assert found.confidence == "high"
    assert dict(top.captures)["value"] == value
    assert "TFL3" in top.entry.fix


# ---- h23f3 (test_knowledge_round22_sources_h23f3.py) ----


def test_mediapipe_llm_model_for_other_backend(kb: KnowledgeBase) -> None:
    message = (
        "INVALID_ARGUMENT: CalculatorGraph::Run() failed:\n"
        'Calculator::Open() for node "LlmCpuCalculator" failed: Please use a tensorflow lite model with cpu '
        "backend type, while the current model's backend type is: gpu"
    )
    found, m = first_answer(kb, message)
    assert m.entry.id == "tflite-h23f3-mediapipe-llm-backend-mismatch"
    caps = dict(m.captures)
    assert (caps["value"], caps["arg"]) == ("cpu", "gpu")
    assert "ConversionConfig(backend='{value}'" in m.entry.fix


# ---- s19f (test_knowledge_round24_dev_s19f.py) ----


def test_mediapipe_llm_signature(kb: KnowledgeBase) -> None:
    msg = (
        "INTERNAL: CalculatorGraph::Run() failed: Calculator::Open() for node "
        '"odml.infra.LlmRunnerCalculator" '
        "failed; RET_CHECK failure (odml/infra/genai/inference/utils/tflite_utils/tflite_llm_utils.cc:71) "
        "std::find(signature_keys.begin(), signature_keys.end(), key) != signature_keys.end()"
    )
    assert_answered(kb, msg, ("get_signature_list",), entry="tflite-mediapipe-llm-missing-signature")


# ---- s20g (test_knowledge_round25_dev_s20g.py) ----


def test_litertlm_section_missing(kb: KnowledgeBase) -> None:
    msg = "Failed to create engine: NOT_FOUND: TF_LITE_EMBEDDER not found in the model."
    assert_answered(kb, msg, ("TF_LITE_EMBEDDER", "NPU"), entry="tflite-s20g-litertlm-section-not-found")


# ---- s18a (test_knowledge_specific_s18a.py) ----


def test_tflite_ensure_eq_names_the_check_and_its_values(kb: KnowledgeBase) -> None:
    message = (
        "RuntimeError: Internal error: Unexpected failure when preparing tensor allocations: "
        "tensorflow/lite/kernels/concatenation.cc:158 t->dims->data[d] != t0->dims->data[d] (7 != 9)"
    )
    top = kb.lookup(message, top=1)[0]
    # a dims check: s25e's shape class reads it (the catch-all tflite-ensure-eq is a scheme entry under it)
    assert top.entry.id == "tflite-s25e-kernel-check-shape", top.entry.id
    assert_advice(top, ("kernels/concatenation.cc", "t->dims->data[d]", "7 against 9"))


# ---- s26h: MediaPipe's framework (google-ai-edge/mediapipe: validated_graph_config.cc, calculator_node.cc,
# the GPU calculators under MEDIAPIPE_DISABLE_GPU), with made-up calculator and node names ----

MEDIAPIPE_CASES: list[Case] = [
    (
        "NotImplementedError: ValidatedGraphConfig Initialization failed.\n"
        "ImageCloneCalculator: GPU processing is disabled in build flags",
        "tflite-s26h-mediapipe-gpu-disabled",
        ("ImageCloneCalculator",),
    ),
    (
        "F0000 00:00:1739782582.369034  548617 calculator_graph.cc:157] Non-OK-status: Initialize(std::move"
        "(config)) status: NOT_FOUND: ValidatedGraphConfig Initialization failed.\n"
        'No registered object with name: HandRendererCpu; Unable to find Calculator "HandRendererCpu"',
        "tflite-s26h-mediapipe-calculator-not-registered",
        ("HandRendererCpu",),
    ),
]
"""The inner line (a calculator's own failure) answers before the graph's envelope, confidently."""
test_mediapipe_graph_failures_are_answered_at_their_cause = answered_by_entry(MEDIAPIPE_CASES, confident=True)


def test_mediapipe_s_node_failure_passes_its_reason_on(kb: KnowledgeBase) -> None:
    """A node failing in Open/Process/Close is an envelope: its answer names the node and carries the reason
    the calculator gave (the automatic judge calls an envelope generic, so it is not in the table above)."""
    message = (
        'INTERNAL: CalculatorGraph::Run() failed: Calculator::Process() for node "facedetector__Inference" '
        "failed: input tensor size does not match the model"
    )
    found = kb.answer(message, top=1)
    assert found.confident
    top = found.matches[0]
    assert top.entry.id == "tflite-s26h-mediapipe-calculator-open-failed"
    assert "facedetector__Inference failed in its Process step" in top.cause
    assert "input tensor size does not match the model" in top.cause


def test_mediapipe_s_graph_envelope_alone_says_its_reason_was_not_pasted(kb: KnowledgeBase) -> None:
    top = kb.lookup("RuntimeError: ValidatedGraphConfig Initialization failed.", top=1)[0]
    assert (top.entry.id, top.entry.family) == ("tflite-s26h-mediapipe-graph-config-invalid", "tflite")
    assert "(the first here: not pasted)" in top.cause


def test_mediapipe_s_node_failure_reads_its_reason_without_a_doubled_stop(kb: KnowledgeBase) -> None:
    message = 'Calculator::Open() for node "llm_resource" failed: Unsupported model signature.'
    top = kb.lookup(message, top=1)[0]
    assert "giving the reason: Unsupported model signature. " in top.cause
    assert ".." not in top.cause


CONFIDENT_CASES: list[Case] = [
    # ---- tflite: google-ai-edge/LiteRT tflite/delegates/gpu/cl (cl_context.cc, cl_command_queue.cc) ----
    (
        "TfLiteGpuDelegate Init: Failed to create a compute context - Out of host memory",
        "tflite-s29c-gpu-opencl-call-failed",
        ("create a compute context", "Out of host memory", "TFLITE_GPU_EXPERIMENTAL_FLAGS_GL_ONLY"),
    ),
    (
        "Failed to allocate device memory (clCreateBuffer): Memory object allocation failure",
        "tflite-s29c-gpu-opencl-call-failed",
        ("allocate device memory (clCreateBuffer)", "Memory object allocation failure"),
    ),
    (
        "TfLiteGpuDelegate Init: clGetPlatformIDs returned -1001",
        "tflite-s29c-gpu-opencl-no-platform",
        ("-1001", "clinfo"),
    ),
    (
        "ERROR: TfLiteGpuDelegate Init: OpenGL ES 3.1 or above is required to use OpenGL inference.",
        "tflite-s29c-gpu-gl-backend-unavailable",
        ("OpenGL ES 3.1 or above is required", "XNNPACK"),
    ),
    (
        "TfLiteGpuDelegate Init: No EGL error, but eglInitialize failed",
        "tflite-s29c-gpu-gl-backend-unavailable",
        ("eglInitialize failed", "EGL"),
    ),
    # ---- tflite: delegates/flex (kernel.cc, util.cc), core/tools/verifier.cc ----
    (
        "ERROR: Failed to initialize eager context. This often happens when a CPU device has not been "
        "registered, presumably because some symbols from tensorflow/core:core_cpu_impl were not linked into "
        "the binary.",
        "tflite-s29c-flex-eager-context",
        ("tensorflow-lite-select-tf-ops", "core_cpu_impl"),
    ),
    (
        "ERROR: TF Lite does not support TensorFlow data type: zz_uint64",
        "tflite-s29c-flex-tf-dtype-unsupported",
        ("zz_uint64",),
    ),
    (
        "Unsupported builtin op: ZZ_CONV, version: 9",
        "tflite-s29c-verifier-unsupported-op-version",
        ("ZZ_CONV", "version 9"),
    ),
    (
        "Unsupported custom op: ZzCustom, version: 2",
        "tflite-s29c-verifier-unsupported-op-version",
        ("ZzCustom", "AddCustom"),
    ),
    # ---- tflite: tensorflow/flutter-tflite lib/src/interpreter.dart (quiver's checkState) ----
    (
        "E/flutter (4242): Unhandled Exception: Bad state: failed precondition\n"
        "#1      Interpreter.invoke (package:tflite_flutter/src/interpreter.dart:165:5)",
        "tflite-s29c-flutter-failed-precondition",
        ("TfLiteInterpreterInvoke", "adb logcat"),
    ),
    (
        "Unhandled Exception: Bad state: XNNPackDelegate already deleted.",
        "tflite-s29c-flutter-interpreter-deleted",
        ("XNNPackDelegate", "dispose()"),
    ),
    # tflite/python/interpreter_wrapper/interpreter_wrapper.cc
    (
        "ValueError: Invalid tensor index 17 exceeds max tensor index 11",
        "tflite-s30e-python-tensor-index",
        ("17", "11"),
    ),
]

test_the_vendor_form_is_answered_confidently_by_its_entry = answered_by_entry(CONFIDENT_CASES, confident=True)


FIRST_VALUE_CASES = [
    ("ERROR: No matching distribution found for tflite_runtime", "tflite-s31e-tflite-runtime-missing", {}),
    (
        "AttributeError: 'Functional' object has no attribute '_get_save_spec'. "
        "Did you mean: '_set_save_spec'?",
        "tflite-s31e-keras3-save-spec",
        {"value": "Functional"},
    ),
]

test_the_source_form_is_answered_with_its_values = in_top3_with_values(FIRST_VALUE_CASES)
test_the_entry_answers_first_with_its_values_quoted = first_with_values(FIRST_VALUE_CASES)


def test_the_micro_resolver_entry_leaves_the_versioned_runtime_form(kb: KnowledgeBase) -> None:
    """TFLM names the op alone; the full runtime names its version too, and that form means an old runtime,
    which the older entry answers."""
    versioned = (
        "Didn't find op for builtin opcode 'ZZ_CONV' version '9'. An older version of this builtin might be "
        "supported. Are you using an old TFLite binary with a newer model?"
    )
    assert kb.lookup(versioned, top=1)[0].entry.id == "tflite-didnt-find-builtin-op"
    top = kb.lookup("Didn't find op for builtin opcode 'ZZ_CONV'", top=1)[0]
    assert top.entry.id == "tflite-s28c-micro-op-not-in-resolver"
    assert dict(top.captures) == {"op_type": "ZZ_CONV"}


def test_the_xnnpack_entry_needs_the_node_form(kb: KnowledgeBase) -> None:
    """'unsupported type' alone is any tool's wording; the entry is found by the delegate's '... node #N'."""
    for m in kb.lookup("unsupported type INT64 in tensor zz_input", top=3):
        assert m.entry.id != "tflite-s28c-xnnpack-node-check" or m.reason != "pattern"


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        (
            "ERROR: Failed to initialize eager context. This often happens when a CPU device has not been "
            "registered, presumably because some symbols from tensorflow/core:core_cpu_impl were not linked "
            "into "
            "the binary.\nERROR: Node number 7 (TfLiteFlexDelegate) failed to prepare.",
            "tflite-s29c-flex-eager-context",
        ),
        (
            "OpenCL init error, fallback ... \nCan't Find type=3 backend, use 0 instead",
            "mnn-s29c-opencl-unavailable",
        ),
    ],
)
def test_the_cause_is_among_the_answers_of_the_whole_paste(kb: KnowledgeBase, text: str, entry: str) -> None:
    """Pasted with the line that follows it (the delegate node's failure, MNN's backend fallback), the cause
    stays among the first answers, found by its pattern."""
    assert any(m.entry.id == entry and m.reason == "pattern" for m in kb.lookup(text, top=3))


def test_the_gpu_delegate_envelope_ranks_under_the_backend_failure_it_carries(kb: KnowledgeBase) -> None:
    """'TfLiteGpuDelegate Init/Invoke: <status>' frames the backend's own failure: the entry for that failure
    answers first, the envelope follows."""
    text = (
        "java.lang.IllegalArgumentException: Internal error: Failed to run on the given Interpreter: "
        "TfLiteGpuDelegate Invoke: Failed to read data from GPU (clEnqueueReadBuffer) - Execution status "
        "error for events in wait list\nNode number 99 (TfLiteGpuDelegateV2) failed to invoke."
    )
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert ids[0] == "tflite-s29c-gpu-opencl-call-failed", ids
    top = kb.lookup(text, top=1)[0]
    assert dict(top.captures)["detail"] == "Execution status error for events in wait list"


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        # another tool's initialisation failure is no Flex delegate eager-context failure
        ("detectNet -- failed to initialize.", "tflite-s29c-flex-eager-context"),
        ("InitializeBackend Failed to initialize backend", "tflite-s29c-flex-eager-context"),
        # a TensorRT plugin lookup's 'version: 1' is no TFLite verifier line
        (
            "getPluginCreator could not find plugin: Custom version: 1",
            "tflite-s29c-verifier-unsupported-op-version",
        ),
        # an OpenCL call of another tool without the delegate's 'Failed to <call> - <error>' form
        ("clEnqueueNDRangeKernel returned -5", "tflite-s29c-gpu-opencl-call-failed"),
        # a plain 'is not supported' of another converter is no pnnx slice line
        ("Slice with steps is not supported", "ncnn-s29c-pnnx-dynamic-slice"),
    ],
)
def test_look_alike_wording_is_no_match(kb: KnowledgeBase, text: str, entry: str) -> None:
    for m in kb.lookup(text, top=5):
        assert m.entry.id != entry or m.reason not in ("pattern", "partial"), (m.entry.id, m.reason)


def test_a_binary_model_identifier_printed_as_escapes_is_still_read(kb: KnowledgeBase) -> None:
    """A zip or gzip file given as a .tflite: its first bytes are printed as escapes, longer than 4 chars."""
    found = kb.answer("ValueError: Model provided has model identifier 'PK\\x03\\x04', should be 'TFL3'")
    assert found.matches[0].entry.id == "tflite-model-identifier-not-tfl3"
    assert found.confidence == "high"


test_a_tensorflow_op_not_legalized_keeps_the_general_entry = keeps_its_entry(
    [
        (
            # A tf.* op has no TFLite lowering: Select TF ops is the reading, not the TFLite op's types.
            "error: failed to legalize operation 'tf.TensorListReserve' that was explicitly marked illegal",
            "tflite-converter-failed-legalize",
            "tflite-s30f-legalize-tflite-op-type",
        )
    ]
)


@pytest.mark.parametrize(
    ("op_type", "entry"),
    [
        ("CONV_2D", "tflite-node-failed-to-prepare"),
        ("SPACE_TO_BATCH_ND", "tflite-node-failed-to-prepare"),
        ("FlexConv2D", "tflite-s31f-node-prepare-flex"),
        ("GpuDelegate", "tflite-s31f-node-prepare-delegate"),
        ("TfLiteMetalDelegate", "tflite-s31f-node-prepare-delegate"),
        ("Convolution2DTransposeBias", "tflite-s31f-node-prepare-custom-op"),
        ("Enter", "tflite-s31f-node-prepare-custom-op"),
    ],
)
def test_each_tflite_op_name_has_one_prepare_entry(kb: KnowledgeBase, op_type: str, entry: str) -> None:
    """The op's name picks exactly one of the 'failed to prepare' entries, and each stays a consequence (a
    line before it that states the reason answers first)."""
    message = f"Node number 7 ({op_type}) failed to prepare."
    ids = [i for i in pattern_ids(kb, message, top=8) if "prepare" in i]
    assert ids == [entry], ids
    assert next(e for e in kb.entries if e.id == entry).consequence
