"""Session s20a: common Core ML and TensorFlow Lite / LiteRT failures, read from the vendors' own sources.

Core ML (apple/coremltools): the native bridge's model compilation error and its macOS-version refusals
(coremlpython/CoreMLPython.mm, models/model.py), ct.TensorType's dtype check (converters/mil/input_types.py),
the PyTorch frontend's aten::__getitem__ (converters/mil/frontend/torch/ops.py) and model file loading
(load.py), ct.convert's convert_to / deployment target check and MLModel's argument check.
TFLite / LiteRT (google-ai-edge/LiteRT, tflite/): the interpreter's subgraph checks (core/subgraph.cc), the
quantizer and its calibration (tools/optimize/quantize_model.cc, calibration/calibration_logger.cc), the
converter (converter/tf_to_tfl_flatbuffer.cc; python/lite.py, convert_saved_model.py, optimize/calibrator.py),
the SignatureRunner (python/interpreter.py), the Hexagon, NNAPI and XNNPACK delegates and model loading
(converter/allocation.cc, the ValueError tf.lite.Interpreter raises); MediaPipe Tasks' model metadata and
model file checks (google-ai-edge/mediapipe, mediapipe/tasks/cc).

Each case is the source's own format string with made-up names and values filled in, never an eval message:
the entry that answers it, and the parts of the message its advice must name."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_advice, assert_answered

ENTRIES = [
    # coremlpython/CoreMLPython.mm
    (
        "RuntimeError: MLComputePlan is only available on macOS >= 14.4",
        "coreml-s20a-api-needs-newer-macos",
        ("MLComputePlan", "macOS 14.4"),
    ),
    (
        "RuntimeError: Stateful predictions using MLState are only supported on macOS >= 15.0",
        "coreml-s20a-api-needs-newer-macos",
        ("Stateful predictions using MLState", "macOS 15.0 or later"),
    ),
    (
        "RuntimeError: The 'functionName' property can only be set on macOS >= 15.0",
        "coreml-s20a-api-needs-newer-macos",
        ("'functionName' property", "function_name"),
    ),
    (
        "Exception: State functionality is only supported on macOS 15+",
        "coreml-s20a-api-needs-newer-macos",
        ("State functionality", "macOS 15"),
    ),
    # converters/_converters_entry.py, frontend/torch/load.py, models/model.py
    (
        "ValueError: If minimum deployment target is iOS15/macOS12/watchOS8/tvOS15 or higher, "
        "then 'convert_to' cannot be neuralnetwork. It must be 'mlprogram'",
        "coreml-s20a-neuralnetwork-target-too-new",
        ("convert_to='neuralnetwork'", "ct.target.iOS14"),
    ),
    (
        "ERROR - Could not load the PyTorch model. Got the following error:",
        "coreml-s20a-torch-model-file-not-loadable",
        ("torch.jit.load", "torch.jit.trace(model, example_input)"),
    ),
    (
        "TypeError: Expected model to be a .mlmodel file, .mlpackage file or a Model_pb2 object",
        "coreml-s20a-mlmodel-argument-type",
        ("pathlib.Path", "str(path)"),
    ),
    # converters/mil/input_types.py
    (
        "TypeError: dtype=torch.float16 is unsupported",
        "coreml-s20a-tensortype-dtype-unsupported",
        ("torch.float16 is not one of them", "dtype=np.float32"),
    ),
    (
        "TypeError: dtype=<class 'numpy.uint32'> is unsupported for inputs/outputs of the model",
        "coreml-s20a-tensortype-dtype-unsupported",
        ("numpy.uint32 is not one of them", "cast inside the model"),
    ),
    # converters/mil/frontend/torch/ops.py (getitem)
    (
        "AssertionError: Item selection is supported only on python list/tuple objects",
        "coreml-s20a-torch-getitem-non-list",
        ("aten::__getitem__", "torch.unbind"),
    ),
    (
        "AssertionError: Index into python list/tuple needs to be integer. Provided value: 2.5",
        "coreml-s20a-torch-getitem-non-list",
        ("(2.5)", "Python constant"),
    ),
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
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), ENTRIES, ids=[f"{e[1]}-{i}" for i, e in enumerate(ENTRIES)]
)
def test_the_source_form_is_answered_by_its_entry(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_the_compile_error_names_coremls_own_reason(kb: KnowledgeBase) -> None:
    """CoreMLPython.mm wraps the framework's localizedDescription: the entry shows it and the way to see the
    compiler's whole output; with the reason captured it is an envelope, judged so."""
    message = 'RuntimeError: Error compiling model: "The file couldn’t be saved.".'
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == "coreml-s20a-error-compiling-model"
    assert dict(top.captures)["reason"] == "The file couldn’t be saved."
    named = ("The file couldn’t be saved.", "xcrun coremlcompiler compile", "skip_model_load")
    assert_advice(top, named, judged_specific=False)


def test_a_path_that_is_no_model_is_not_mediapipes(kb: KnowledgeBase) -> None:
    """'Unable to open file at <path>' is any program's wording: only a model path (.task, .tflite) is
    MediaPipe's external_file_handler.cc, and another path is no partial match of it either."""
    for top in kb.lookup("Unable to open file at /etc/app/settings.conf", top=3):
        assert top.reason not in ("pattern", "partial"), (top.entry.id, top.reason)


def test_a_quantizer_config_dtype_is_not_the_tensortype_check(kb: KnowledgeBase) -> None:
    """optimize/coreml/_config.py's 'dtype=... is unsupported for OpLinearQuantizerConfig.' is the
    quantizer config's check, not ct.TensorType's."""
    tops = kb.lookup("ValueError: dtype=float64 is unsupported for OpLinearQuantizerConfig.", top=1)
    assert not tops or tops[0].entry.id != "coreml-s20a-tensortype-dtype-unsupported"
