"""The knowledge tests of Core ML (coremltools, the Core ML runtime, Xcode's tools): each case is a
vendor's own wording with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From converter_families (was test_knowledge_converter_families.py):

Issue 23 (branch h23w): OpenVINO's, Core ML's and TFLite's own failure sentences, each written from the
tool's source (the IR reader, PartialShape, the PyTorch frontend's tracing, Model Optimizer's checks;
coremltools' models/model.py and utils.py, the Core ML framework's load failure; TFLite's Java API, op
resolver, converter and quantizer), tested with values of our own (never an evaluation message), and the
markers that name each tool only when the message itself carries that tool's wording.

From s18c (was test_knowledge_coreml_openvino_s18c.py):

Session s18c: Core ML's and OpenVINO's common failures read from their own sources.

Core ML: ct.convert's argument checks (coremltools/converters/_converters_entry.py: compute_precision,
outputs, inputs, enumerated shapes, source), the TensorFlow loaders (converters/mil/frontend/tensorflow*/
load.py, the topological sort), the MIL ops' type inference (pooling's ceil_mode,
spatial output sizes, binary ops' dtypes), coremltools.optimize's iOS18-only compression, and Core ML's
MLModelError codes (Apple's MLModelError.Code: featureType=1, io=3, parameters=7,
modelDecryptionKeyFetch=8, modelDecryption=9).

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
chat template and openvino_tokenizers' / optimum-intel's tokenizer conversion; and coremltools' load.py
refusal of a model that is neither TorchScript nor an ExportedProgram (an older entry, widened);
OpenVINO Model Server's model-not-found statuses and coremltools.optimize's block/group size checks; and
two Core ML framework runtime strings (MLMultiArray shape check, Espresso's ANE plan failure) from
public threads.

From coreml_sources (was test_knowledge_coreml_sources.py):

Core ML converter and loader messages written from coremltools' own source answer with their cause.

Each form is the format string of coremltools (``_deps/__init__.py``, ``converters/_converters_entry.py``,
``converters/mil/backend/mil/load.py``, ``converters/mil/input_types.py``, ``converters/mil/mil/builder.py``,
``converters/mil/frontend/torch/...``) filled with a value; none names the tool, so the entry itself must be
found.  Near misses (another tool's wording of the same idea) do not fire.

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
(converter/allocation.cc, the ValueError tf.lite.Interpreter raises).

From h23u2 (was test_knowledge_edge_vendor_wording_h23u2.py):
described in test_knowledge_converters.py's docstring.

From h23d3_sources (was test_knowledge_h23d3_sources.py): described in test_knowledge_ascend.py's docstring.

From round13 (was test_knowledge_round13.py):

* coremltools' predict binding ("value type not convertible") is Core ML's, not TFLite's;

From round18 (was test_knowledge_round18.py):

Issue 23, round 18 (OpenVINO, Core ML, TFLite, MNN, ncnn, TVM, Paddle2ONNX, torch.onnx): what its dev
answers taught, each written from the tool's own source with values of our own (never an evaluation message).

* entries for NNCF's HW-config constraint conflict, Model Optimizer's reshape element-count check,
  coremltools' "ERROR - converting 'op'" log line, Core ML's "Error computing NN outputs" and "Error in
  declaring network", TVM's CUDA driver call failures;

From round21_forms (was test_knowledge_round21_forms.py).

From round22_forms (was test_knowledge_round22_forms.py).

From h23f3 (was test_knowledge_round22_sources_h23f3.py):

Messages are written in our own words around the text each tool prints (its source named in the entry):
whisper.cpp's Core ML encoder loading, MediaPipe's LLM calculators refusing a model converted for the other
backend, onnxruntime-web's backend resolution without a WebGPU backend, and the Linux kernel refusing the
RKNPU driver its register window.

From round23_forms (was test_knowledge_round23_forms.py).

From s19f (was test_knowledge_round24_dev_s19f.py):

Issue 23, round 24's dev forms answered at their cause (s19f): Core ML's Espresso ANE failures (s19b's
entry), Xcode's model class generation, the spec validator's feature checks and an Objective-C selector
missing on an older OS.

From s20g (was test_knowledge_round25_dev_s20g.py):

Issue 23, round 25's dev forms answered at their cause (s20g): the CoreML execution provider's zero-
element input and onnxruntime-gpu's TensorRT plugin registration; Vision's image-input check, Core ML's
multi-array constraint, multifunction models and a class method missing on an older OS.

From s19a (was test_knowledge_torch_onnx_qualcomm_s19a.py).

From s21a (was test_knowledge_coreml_torch_onnx_onnx_source_classes.py):

Core ML, torch.onnx and onnx failure classes written from the vendors' own sources answer with their entry.

Each form is a format string of the tool's source, filled with made-up names, as the tool prints it:

* Core ML: apple/coremltools ``converters/mil/mil/ops/defs/iOS15/image_resizing.py``, ``iOS15/conv.py``,
  ``iOS15/tensor_transformation.py``, ``iOS18/transformers.py`` (type inference checks),
  ``converters/mil/frontend/torch/ops.py``, ``exir_utils.py``, ``dim_order_ops.py``, ``converter.py``,
  ``quantization_ops.py`` and ``converters/mil/mil/passes/pass_pipeline.py``, ``graph_pass.py``.

Each row: the text, the entry that must answer it, and the captured parts its advice must name.

From s22a: coremltools' compiled-model and compile_model macOS checks, multifunction names, feature names,
coremltools.optimize's pruning configs, unique-mode palettization, joint-compression order, and the TF
frontend's dynamic resize (models/, optimize/, converters/mil/frontend/tensorflow/ops.py).

From s23c: the MIL ops' index/axis bounds and cast dtype checks, OpLinearQuantizerConfig's dtype, the PyTorch
frontend's 64-bit input warning and topk's sort flag (coremltools e0e2f42: converters/mil/mil/ops/defs/,
optimize/coreml/_config.py, converters/mil/frontend/torch/converter.py and ops.py).

From s24f: coremltools e0e2f42 (type_mapping, torch ops, optimize, ops/helper), ANE, ExecuTorch's delegate.

From s25f: coremltools e0e2f42 (MIL ops rank/dtype/shape, program, backend), Core ML load, Python 3.14.

Also from s31e_removed_apis (test_knowledge_openvino.py), s28c_tflite_coreml_sources and s29c_sources
(test_knowledge_tflite.py) and s30e_sources (test_knowledge_torch_onnx.py): their notes stand in the
docstrings named.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.answer import answer
from tests.support.advice import (
    Case,
    answered_by_entry,
    answered_with_captures,
    answers_with,
    assert_advice,
    assert_answered,
    first_answer,
    first_with_values,
    in_top3_with_values,
    top_match,
)

CASES = [
    # ---- s18c (test_knowledge_coreml_openvino_s18c.py) ----
    # coremltools/converters/_converters_entry.py
    (
        "ValueError: Invalid value of the argument 'compute_precision': float16",
        "coreml-s18c-compute-precision",
        ("(float16)", "ct.precision.FLOAT16", "(not float16)"),
    ),
    (
        "ValueError: compute_precision is only supported for mlprogram target and must be None if "
        "target=='neuralnetwork'. Note that target may be implicitly set depending on the "
        "minimum_deployment_target. See minimum_deployment_target for more details.",
        "coreml-s18c-compute-precision",
        ("convert_to='mlprogram'", "ct.target.iOS15"),
    ),
    (
        "ValueError: 'bias' must be None or 0 for an output of ImageType",
        "coreml-s18c-outputs-argument",
        ("ct.ImageType(name=", "no shape, default_value, scale, bias"),
    ),
    (
        'ValueError: Either none or all the outputs must have the "name" argument specified',
        "coreml-s18c-outputs-argument",
        ("unique names",),
    ),
    (
        "ValueError: Duplicated inputs: ['pixel_values', 'pixel_values']",
        "coreml-s18c-inputs-argument",
        ("rename the duplicated pixel_values",),
    ),
    (
        "ValueError: Unknown type <class 'torch.Tensor'> for flattening into InputType.",
        "coreml-s18c-inputs-argument",
        ("not <class 'torch.Tensor'>", "ct.TensorType(name="),
    ),
    (
        "ValueError: Expected a single enumerated shape input for deployment targets below iOS 18, but found "
        "3. Please ensure only one input with EnumeratedShapes type is present.",
        "coreml-s18c-enumerated-shapes-count",
        ("3 inputs use ct.EnumeratedShapes", "ct.target.iOS18"),
    ),
    (
        "ValueError: Unable to determine the type of the model, i.e. the source framework. Please provide "
        'the value of argument "source", from one of ["tensorflow", "pytorch", "milinternal"].',
        "coreml-s18c-source-undetermined",
        ("source='pytorch'", "torch.jit.trace"),
    ),
    (
        'ValueError: Converter was called with source="tensorflow", but missing tensorflow package',
        "coreml-s18c-source-undetermined",
        ("(tensorflow) must import",),
    ),
    (
        'ValueError: Unrecognized value of argument "source": onnx. It must be one of ["auto", "tensorflow", '
        '"pytorch", "milinternal"].',
        "coreml-s18c-source-undetermined",
        ("(not onnx)", "no ONNX frontend"),
    ),
    # coremltools/converters/mil/frontend/tensorflow2/load.py
    (
        "ValueError: Input model path should be .h5/.hdf5 file or a directory, but got /data/net.onnx",
        "coreml-s18c-tf-model-load",
        ("(/data/net.onnx)", "SavedModel directory"),
    ),
    (
        "NotImplementedError: Only a single concrete function is supported.",
        "coreml-s18c-tf-model-load",
        ("get_concrete_function",),
    ),
    # coremltools/optimize/coreml/_quantization_passes.py
    (
        "ValueError: The per-grouped-channel palettization is supported since iOS18. Please re-convert your "
        "model with minimum_deployment_target set to at least ct.target.iOS18.",
        "coreml-s18c-compression-needs-ios18",
        ("The per-grouped-channel palettization is expressed", "minimum_deployment_target=ct.target.iOS18"),
    ),
    (
        "ValueError: Joint compression is only supported since iOS18. Please re-convert your model with "
        "minimum_deployment_target set to at least ct.target.iOS18.",
        "coreml-s18c-compression-needs-ios18",
        ("Joint compression is expressed",),
    ),
    # coremltools/converters/mil/mil/ops/defs: the ops' type inference
    (
        "ValueError: Incompatible primitive types in broadcast operation",
        "coreml-s18c-mil-broadcast-dtypes",
        ("mb.cast(x=y, dtype='fp32')",),
    ),
    (
        "ValueError: ceil_mode must be False when pad_type==same",
        "coreml-s18c-mil-pool-ceil-mode",
        ("ceil_mode=False", "F.pad("),
    ),
    (
        "ValueError: spatial dimension 0 has invalid output size -2",
        "coreml-s18c-mil-spatial-output-size",
        ("output size of -2 on spatial axis 0", "ct.RangeDim(lower_bound="),
    ),
    # coremltools/converters/mil/frontend/tensorflow/basic_graph_ops.py
    (
        "ValueError: Graph is not a DAG!",
        "coreml-s18c-tf-graph-not-dag",
        ("enable_control_flow_v2",),
    ),
    # Core ML's NSError (MLModelError.Code)
    (
        'Error Domain=com.apple.CoreML Code=1 "Feature input_1 is required but not specified." '
        "UserInfo={NSLocalizedDescription=Feature input_1 is required but not specified.}",
        "coreml-s18c-mlmodelerror-featuretype",
        ("MLModelError.featureType", "(Feature input_1 is required but not specified.)"),
    ),
    (
        'Error Domain=com.apple.CoreML Code=3 "Error opening file." UserInfo={NSLocalizedDescription=Error '
        "opening file.}",
        "coreml-s18c-mlmodelerror-io",
        ("MLModelError.io", "(Error opening file.)", ".mlmodelc"),
    ),
    (
        'Error Domain=com.apple.CoreML Code=7 "Parameter epochs is not supported" UserInfo={}',
        "coreml-s18c-mlmodelerror-parameters",
        ("MLModelError.parameters", "parameterDescriptionsByKey"),
    ),
    (
        'Error Domain=com.apple.CoreML Code=9 "Unable to decrypt model" UserInfo={}',
        "coreml-s18c-mlmodelerror-decryption",
        ("error code 9", "MLModel.load(contentsOf:)"),
    ),
    # ---- s19b (test_knowledge_coreml_openvino_s19b.py) ----
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
    # apple/coremltools: converters/mil/frontend/torch/load.py (the torch.export branch)
    (
        "TypeError: A PyTorch model must either be a .pt2 file, or an ExportedProgram object. Received: "
        "<class 'tiny.TinyNet'>",
        "coreml-pytorch-file-type",
        ("given <class 'tiny.TinyNet'>", "torch.export.export(model.eval()", "torch.jit.trace(model.eval()"),
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
    # ---- s20a (test_knowledge_coreml_tflite_s20a.py) ----
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
    # ---- h23u2 (test_knowledge_edge_vendor_wording_h23u2.py) ----
    (
        "RuntimeError: {\n\n NSLocalizedDescription = \"The size of the output layer 'scores_out' in the "
        'neural network does not match the number of classes in the classifier.";\n\n}',
        "coreml-nn-classifier-output-size-mismatch",
        ("scores_out", "ClassifierConfig", "predicted_probabilities_output"),
    ),
    (
        "ValueError: In op 'classify', number of classes must match the size of the tensor corresponding to "
        "'probabilities'.",
        "coreml-mil-classify-classes-mismatch",
        ("ClassifierConfig", "predicted_probabilities_output"),
    ),
    (
        "Strides of Conv needs to be product of at most 2 interleave factors",
        "coreml-conv-stride-interleave-factors",
        ("CPU_ONLY", "ct.target.iOS15"),
    ),
    (
        "BNNS Graph Compile: Function main has tensor cache_in as both an input and output. \n"
        "Inputs and outputs must be distinct, please add an explicit identity op.",
        "coreml-bnns-graph-input-is-output",
        ("cache_in", "mb.identity", "cache_in_out"),
    ),
    (
        "CoreML export failure: unexpected number of inputs for node input.7 (_convolution): 13",
        "coreml-torch-node-input-count",
        ("_convolution", "input.7", "13 inputs"),
    ),
    (
        "ValueError: node out.1 (upsample_nearest2d) got 4 input(s), expected [3]",
        "coreml-torch-node-input-count",
        ("upsample_nearest2d", "out.1", "4 inputs"),
    ),
    # ---- h23d3_sources (test_knowledge_h23d3_sources.py) ----
    # apple/coremltools converters/mil/frontend/torch/ops.py
    (
        'NotImplementedError: rounding mode "trunc" not supported in the "div" op',
        "coreml-h23d3-torch-op-form-unsupported",
        ('"trunc" not supported in the "div" op', "register_torch_op"),
    ),
    (
        "ValueError: divisor_override is not supported for avg_pool2d",
        "coreml-h23d3-torch-op-form-unsupported",
        ("divisor_override is not supported for avg_pool2d",),
    ),
    (
        "NotImplementedError: Dynamic scale factors are not supported for the upsample op "
        "upsample_bilinear2d_7",
        "coreml-h23d3-torch-needs-static-value",
        ("upsample_bilinear2d_7", "ct.EnumeratedShapes"),
    ),
    (
        "ValueError: The `dims` input for torch.tile must be static (tuple of ints).",
        "coreml-h23d3-torch-needs-static-value",
        ("torch.tile must be static", "ct.RangeDim"),
    ),
    # ct.convert and the torch converter's deployment-target checks
    (
        "ValueError: State model is supported only >= iOS18. Please update the minimum_deployment_target to "
        "at "
        "least coremltools.target.iOS18",
        "coreml-h23d3-needs-deployment-target",
        ("iOS18", "minimum_deployment_target", "macOS15"),
    ),
    (
        "ValueError: To use fp16 input, please set minimum deployment target to iOS16+",
        "coreml-h23d3-needs-deployment-target",
        ("iOS16", "macOS13"),
    ),
    (
        "ValueError: For mlprogram, inputs with infinite upper_bound is not allowed. Please set upper_bound "
        "to a "
        'positive value in "RangeDim()" for the "inputs" param in ct.convert().',
        "coreml-h23d3-rangedim-infinite-upper-bound",
        ("upper_bound", "ct.RangeDim(lower_bound=1"),
    ),
    (
        "ValueError: Number of outputs provided, 1, do not match the number of outputs detected in the "
        "model, 4.",
        "coreml-h23d3-outputs-count-mismatch",
        ("names 1 outputs", "returns 4", "exactly 4 entries"),
    ),
    (
        "ValueError: Incorrect weights shape for gru layer: Expected: 4. Received 6",
        "coreml-h23d3-rnn-weights-count",
        ("gru", "expected 4", "has 6", "flatten_parameters"),
    ),
    (
        "ValueError: einsum equation 'nqd,nkd->nqk' expects 2 inputs, got 1",
        "coreml-h23d3-einsum-equation",
        ("'nqd,nkd->nqk'", "(expects 2 inputs, got 1)", "torch.matmul"),
    ),
    (
        "RuntimeError: Unknown input 'epsilon_x' for op 'layer_norm'",
        "coreml-h23d3-mil-op-inputs",
        ("layer_norm", "epsilon_x", "MIL ops reference"),
    ),
    (
        "ValueError: prelu op: x must be rank 3 or 4 or 5, instead it is of rank 2",
        "coreml-h23d3-rank-limit",
        ("(2)", "unsqueeze"),
    ),
    # ---- round22_forms (test_knowledge_round22_forms.py) ----
    (
        "NotImplementedError: Unsupported ONNX ops of type: NonZero,ScatterND",
        "coreml-onnx-converter-unsupported-op-types",
        ("NonZero,ScatterND", "ct.convert"),
    ),
    # ---- round23_forms (test_knowledge_round23_forms.py) ----
    (
        "RuntimeError: {\n"
        '    NSLocalizedDescription = "Required input feature not passed to neural network.";\n}',
        "coreml-predict-required-input-not-passed",
        ("get_spec().description.input", "ct.TensorType(name="),
    ),
    (
        "Error: Unable to compute the prediction using ML Program. It can be an invalid input data or "
        "broken/unsupported model.",
        "coreml-mlprogram-unable-to-compute-prediction",
        ("CPU_ONLY", "compute_precision"),
    ),
    (
        "2026-01-01 10:00:00.000000+0000 Demo[101:2020] [coreml] Failure verifying inputs.",
        "coreml-failure-verifying-inputs",
        ("inputDescriptionsByName", "CVPixelBuffer"),
    ),
    # ---- s21a (test_knowledge_coreml_torch_onnx_onnx_source_classes.py) ----
    # Core ML (coremltools MIL op definitions, PyTorch frontend, passes)
    (
        'ValueError: input to the "resize_bilinear" op must have rank at least 3',
        "coreml-s21a-mil-op-input-spec",
        ("resize_bilinear",),
    ),
    (
        'ValueError: "crop_resize" op: input "boxes" must has shape [N, 4], but got (1, 7)',
        "coreml-s21a-mil-op-input-spec",
        ("crop_resize",),
    ),
    (
        'ValueError: input "transform_matrix" to the "affine" op must be a rank 2 tensor. Got '
        "rank 3 tensor of shape (1, 2, 6)",
        "coreml-s21a-mil-op-input-spec",
        ("affine",),
    ),
    (
        "ValueError: # of input channels 96 not divisible by groups 5",
        "coreml-s21a-mil-conv-channels",
        ("96", "5"),
    ),
    (
        "ValueError: C_in / groups = 64/2 != weight[1] (64)",
        "coreml-s21a-mil-conv-channels",
        (),
    ),
    (
        "ValueError: Reshape op supports only one dimension to be -1, but got 2 dimensions be -1.",
        "coreml-s21a-mil-reshape-target",
        (),
    ),
    (
        "ValueError: Invalid target shape in `reshape` op ((1, 512, 7, 7) to (1, 4096)).",
        "coreml-s21a-mil-reshape-target",
        ("(1, 4096)",),
    ),
    (
        "ValueError: query, key, value must have a same rank, got * query rank = 4 * key rank "
        "= 3 * value rank = 3",
        "coreml-s21a-mil-sdpa-qkv-shapes",
        ("query, key, value",),
    ),
    (
        "ValueError: key and mask must have a same sequence length, got * key sequence = 128 * "
        "mask sequence = 1",
        "coreml-s21a-mil-sdpa-qkv-shapes",
        ("key and mask", "sequence length"),
    ),
    (
        "ValueError: torchvision::deform_conv2d expects positive dilation.",
        "coreml-s21a-torchvision-op-form",
        ("deform_conv2d", "expects positive dilation"),
    ),
    (
        "ValueError: torchvision::roi_align currently expects boxes with shape [num_rois, 5].",
        "coreml-s21a-torchvision-op-form",
        ("roi_align", "[num_rois, 5]"),
    ),
    (
        "NotImplementedError: For symbolic shape input, the lowering for Torch `cumprod` op is not supported",
        "coreml-s21a-torch-lowering-static-only",
        ("cumprod",),
    ),
    (
        "NotImplementedError: For `_weight_int4pack_mm` op, we only support static case, where "
        "y_int4pack, group_size, y_scales_and_zeros are all known during compile time.",
        "coreml-s21a-torch-lowering-static-only",
        ("_weight_int4pack_mm",),
    ),
    (
        "NotImplementedError: Only 4 types of inputs handled yet: user input, parameter, "
        "constant, buffer. But got InputKind.TOKEN",
        "coreml-s21a-exir-element-not-handled",
        ("InputKind.TOKEN",),
    ),
    (
        "NotImplementedError: Core ML does not support non-contiguous dim order",
        "coreml-s21a-exir-element-not-handled",
        ("dim_order",),
    ),
    (
        "ValueError: The pass common::my_fusion is not registered.",
        "coreml-s21a-pass-pipeline-name",
        ("common::my_fusion",),
    ),
    (
        "NotImplementedError: The graph pass `common::const_elimination` doesn't support option `max_size`.",
        "coreml-s21a-pass-pipeline-name",
        ("common::const_elimination", "max_size"),
    ),
    (
        "ValueError: There are coreml compression related buffers registered in the torch "
        "model (with _COREML_ in the buffer's name) for dense1.weight, but the "
        "'compression_type' is not set. Please set it to indicate the type of compression used "
        "on the weight.",
        "coreml-s21a-torch-compression-buffers",
        ("dense1.weight", "finalize()"),
    ),
    (
        "ValueError: Missing lut in compression info. Please register a buffer for lut.",
        "coreml-s21a-torch-compression-buffers",
        ("lut",),
    ),
    (
        "ValueError: In encoder.fc1.weight, the `weight` should have same rank as `scale`, but "
        "got (64, 32) vs (64,)",
        "coreml-s21a-torch-compression-buffers",
        ("encoder.fc1.weight",),
    ),
    (
        "ValueError: Unsupported quantization range: -8 to 15.  CoreML only supports 4-bit and "
        "8-bit quantization.",
        "coreml-s21a-torch-quantized-op-params",
        ("-8", "15"),
    ),
    (
        "ValueError: quantization zero point must be const at compile time",
        "coreml-s21a-torch-quantized-op-params",
        ("zero point",),
    ),
    # ---- the lead, round 26's dev forms (Xcode's coremlc and xcrun; Core ML's ML Program loader)
    (
        "coremlc: Error: unable to read document: /Users/me/App/Resources/demo.mlmodel\n"
        "detail: validator error: unable to deserialize object",
        "coreml-coremlc-unable-to-read-document",
        ("/Users/me/App/Resources/demo.mlmodel", "unable to deserialize object", "git lfs pull"),
    ),
    (
        'xcrun: error: unable to find utility "coremlc", not a developer tool or in PATH',
        "coreml-xcrun-coremlcompiler-not-found",
        ("(coremlc)", "xcode-select -s /Applications/Xcode.app/Contents/Developer"),
    ),
    (
        "Error parsing MIL model: at /tmp/demo.mlmodelc/model.mil:3:17: Could not open "
        "/tmp/demo.mlmodelc/weights/weight.bin",
        "coreml-mil-weights-file-not-opened",
        ("/tmp/demo.mlmodelc/weights/weight.bin", "weights/weight.bin"),
    ),
    # ---- s22a: coremltools@e0e2f42 models/_compiled_model.py, models/utils.py (compile_model, _get_feature,
    # save_multifunction), models/model.py (function_name), models/compute_plan.py,
    # optimize/coreml/_config.py, optimize/coreml/_quantization_passes.py,
    # optimize/torch/pruning/_base_pruner.py, optimize/torch/palettization/palettizer.py,
    # converters/mil/frontend/tensorflow/ops.py
    (
        "Exception: Loading compiled Core ML models is only support on macOS 10.13 or higher.",
        "coreml-s22a-compiled-model-needs-macos",
        ("Loading compiled Core ML models", "10.13", "xcrun coremlcompiler compile"),
    ),
    (
        "ValueError: MLModelStructure is not supported.",
        "coreml-s22a-compiled-model-needs-macos",
        ("(MLModelStructure)", "libcoremlpython"),
    ),
    (
        "Exception: This model was not loaded with the Core ML Framework. Cannot get state.",
        "coreml-s19b-mlmodel-proxy-not-loaded",
        ("libcoremlpython",),
    ),
    (
        "ValueError: default_function_name decoder_step not found in the program. Available functions "
        "names are ['encoder_step']",
        "coreml-s22a-multifunction-function-name",
        ("(decoder_step)", "default_function_name", "desc.add_function"),
    ),
    (
        "ValueError: linear_quantize_weights is not supported for a multifunction model.",
        "coreml-s22a-multifunction-function-name",
        ("(linear_quantize_weights)",),
    ),
    (
        "RuntimeError: Model has been prepared for pruning. When running joint compression, first prepare "
        "quantizer/palettizer and then pruner, to ensure insertion of fake quantization layers does not "
        "remove pruning forward hooks.",
        "coreml-s22a-optimize-torch-joint-order",
        ("pruner.prepare(inplace=True)",),
    ),
    (
        "ValueError: Unique values in weight cannot be represented by 6 bits palettization.",
        "coreml-s22a-palettize-unique-too-many",
        ("6 bits", "mode='kmeans'"),
    ),
    (
        'ValueError: Invalid value of "minimum_sparsity_percentile": 1.5. Needs to be in [0, 1]',
        "coreml-s22a-pruner-value-range",
        ("minimum_sparsity_percentile", "1.5", "target_sparsity=0.75"),
    ),
    (
        'ValueError: "n_m_ratio" must be a tuple of two integers (n, m). n <= m. Got (4, 2)',
        "coreml-s22a-pruner-structured-options",
        ("(4, 2)", "n_m_ratio=(2, 4)"),
    ),
    (
        "ValueError: block sparsity or n:m pruning does not support op type gather.",
        "coreml-s22a-pruner-structured-options",
        ("(gather)", "op_type_configs"),
    ),
    (
        'ValueError: "ResizeNearestNeighbor" op: the second input, which is the output size, must be known '
        "statically. Consider setting minimum_deployment_target to iOS17 during conversion.",
        "coreml-s22a-tf-resize-size-static",
        ("(ResizeNearestNeighbor)", "ct.target.iOS17"),
    ),
    (
        "ValueError: Invalid model file path: 'export/net.onnx'.Expected a file with .mlpackage or "
        ".model extension. ",
        "coreml-s22a-compile-model-args",
        ("(export/net.onnx)", "get_compiled_model_path"),
    ),
    # converters/mil/frontend/torch/load.py (ct.convert(..., debug=True) lists the ops it cannot translate)
    (
        "the following model ops are IMPLEMENTED:\n  add\n  conv2d\nthe following model ops are MISSING:\n"
        "  grid_sampler_3d",
        "coreml-torch-op-not-implemented",
        ("grid_sampler_3d", "@register_torch_op"),
    ),
    (
        "Exception: Feature with name scores_out does not exist",
        "coreml-s22a-feature-name-not-found",
        ("(scores_out)", "ct.utils.rename_feature"),
    ),
    # converters/mil/mil/program.py (_check_program_opset), models/model.py (_verify_pil_image_modes,
    # _verify_input_name_exists)
    (
        'ValueError: Core ML only support core opset. Got unsupported op "assign_4" with type '
        '"torch_tensor_assign" of dialect namespace "torch".',
        "coreml-s22a-dialect-op-not-lowered",
        ("assign_4", "torch_tensor_assign", "(torch)", "ct.PassPipeline.DEFAULT"),
    ),
    (
        "TypeError: GRAYSCALE_FLOAT16 image input, 'depth', must be of type PIL.Image.Image with mode=='F'",
        "coreml-s22a-predict-image-input-type",
        ("'depth'", "GRAYSCALE_FLOAT16", "mode F"),
    ),
    (
        'KeyError: Provided key "pixels", in the input dict, does not match any of the model '
        "input name(s), which are: {'image_in'}",
        "coreml-s22a-predict-input-key",
        ("'pixels'", "{'image_in'}", "rename_feature"),
    ),
    # s23c: coremltools e0e2f42 converters/mil/mil/ops/defs/iOS17/scatter_gather.py and
    # iOS15/scatter_gather.py (type_inference), iOS15/elementwise_unary.py (cast),
    # optimize/coreml/_config.py (_normalize_dtype), frontend/torch/converter.py (convert_input's
    # int64/fp64 warning) and frontend/torch/ops.py (topk)
    (
        "IndexError: Indices is out of bounds for `gather_along_axis` node gather_ax_3. Expected indices "
        "between [0, 16), but got [[ 0 16]].",
        "coreml-s23c-mil-indices-out-of-bounds",
        ("gather_ax_3", "gather_along_axis", "[0, 16)", "(16)"),
    ),
    (
        '  File "/zz/coremltools/converters/mil/mil/ops/defs/iOS15/tensor_operation.py", line 9, '
        "in type_inference\nIndexError: Axis value 5 is out of bounds for concat node concat_9",
        "coreml-s23c-mil-axis-out-of-bounds",
        ("concat_9", "axis 5", "before the concat"),
    ),
    (
        "NotImplementedError: Parameter dtype of the cast operation can be one of the "
        "dict_keys(['int32', 'fp16', 'fp32', 'bool']). Provided int64",
        "coreml-s23c-cast-dtype-unsupported",
        ("dtype int64", "int32 instead of int64", "ct.target.iOS17"),
    ),
    (
        "ValueError: Invalid dtype int2. Only support int8/uint8/int4/uint4.",
        "coreml-s23c-linear-quantizer-dtype",
        ("dtype int2", "OpPalettizerConfig"),
    ),
    (
        "WARNING:coremltools:int64 dtype input token_ids down casted to int32.",
        "coreml-s23c-input-downcast",
        ("input token_ids", "name='token_ids'", "feed it int32"),
    ),
    (
        "Exception: For opset <= iOS16, only sorted=True supported for the topk",
        "coreml-s23c-topk-unsorted-before-ios16",
        ("up to iOS16", "sorted=True", "ct.target.iOS16"),
    ),
    # s24f: coremltools e0e2f42 (mil/types/type_mapping.py promote_dtypes; frontend/torch/ops.py's
    # "Conversion for torch.X with Y has not been implemented"; optimize/_utils.py and mil/ops/helper.py
    # deployment targets), the Core ML framework's ANE compiler line (apple/coreai-models#205, dev) and
    # ExecuTorch's Core ML delegate (backends/apple/coreml/runtime/delegate/backend_delegate.mm,
    # coreml_backend_delegate.mm)
    (
        "ValueError: dtypes needs to be a list/tuple of at least 1 element",
        "coreml-s24f-promote-dtypes-empty",
        ("empty list of tensors", "converting 'X' op", "torch.zeros(0, C)"),
    ),
    (
        "NotImplementedError: Conversion for torch.roll with negative shifts has not been implemented",
        "coreml-h23d3-torch-op-form-unsupported",
        ("Conversion for torch.roll with negative shifts has not been implemented", "@register_torch_op"),
    ),
    (
        "ValueError: Vector palettization (lut last dim > 1) is only supported in iOS18+. Please set the "
        "minimum_deployment_target to iOS18 or later.",
        "coreml-h23d3-needs-deployment-target",
        ("iOS18", "ct.target.iOS18"),
    ),
    (
        "ValueError: No available version for pixel_unshuffle in the coremltools.target.iOS15 opset. "
        "Please update the minimum_deployment_target to at least coremltools.target.iOS17",
        "coreml-h23d3-needs-deployment-target",
        ("iOS17",),
    ),
    (
        " ANECCompileOffline() failed: OSStatus=0, aneCompileStatus=7, statusdict={",
        "coreml-s24f-ane-compile-offline",
        ("aneCompileStatus=7", "OSStatus=0", ".cpuAndGPU"),
    ),
    (
        "[backend_delegate.mm:288] [Core ML] Model init failed "
        "The data couldn\u2019t be read because it is missing.\n"
        "[coreml_backend_delegate.mm:193] CoreMLBackend: Failed to init the model.",
        "coreml-s24f-executorch-model-init-failed",
        ("The data couldn\u2019t be read because it is missing.", "CoreMLPartitioner"),
    ),
    # coremltools e0e2f42 converters/mil/frontend/torch/ops.py (_cast_to, type_as)
    (
        "ValueError: Unsupported `to` op (hidden_4) with target dtype <class 'numpy.complex128'>",
        "coreml-s24f-torch-cast-unsupported-dtype",
        ("node hidden_4", "to complex128", "torch.view_as_real"),
    ),
    (
        "NotImplementedError: Tensor type complex64 cast is not supported.",
        "coreml-s24f-torch-cast-unsupported-dtype",
        ("to complex64",),
    ),
    # s25f: coremltools e0e2f42 (converters/mil/backend/mil/helper.py and load.py, mil/program.py,
    # mil/ops/defs/iOS15 normalization/pool/tensor_transformation/recurrent/tensor_operation/linear/conv,
    # iOS17/linear.py); Apple's Core ML framework (MLModel load); python/cpython#132139 (Python 3.14)
    (
        "NotImplementedError: Input zz_tokens has data type int64. "
        "ML Program models only support fp32 and int32 inputs.",
        "coreml-s25f-mlprogram-io-dtype",
        ("zz_tokens", "int64", "ct.TensorType"),
    ),
    (
        "ValueError: In op zz_conv_4. Input weight (zz_w_9) must be const or constexpr ops.",
        "coreml-s25f-mil-input-must-be-const",
        ("weight of zz_conv_4", "zz_w_9"),
    ),
    (
        "ValueError: Op zz_gather with an out of date version iOS15 is detected. "
        "Please use @mb.program(input_specs=..., opset_version=iOS17)",
        "coreml-s25f-mil-op-out-of-date-version",
        ("zz_gather", "opset_version=ct.target.iOS17"),
    ),
    (
        "ValueError: Input rank of l2_norm must be at least 3. Got 2",
        "coreml-s25f-mil-op-rank-check",
        ("l2_norm takes an input of rank 3", "@register_torch_op"),
    ),
    (
        "ValueError: The input rank of space_to_batch op must exactly be 3 or 4!",
        "coreml-s25f-mil-op-rank-check",
        ("space_to_batch", "3 or 4"),
    ),
    (
        "ValueError: Tensors in 'values' of the stack op (zz_stack_2) should share the same data type. "
        "Got ['fp32', 'int32'].",
        "coreml-s25f-mil-inputs-dtype-mismatch",
        ("zz_stack_2", "mb.cast"),
    ),
    (
        'ValueError: In op "matmul", when x and y are both non-const, their dtype need to match, '
        "but got x as fp16 and y as fp32",
        "coreml-s25f-mil-inputs-dtype-mismatch",
        ("fp16", "fp32", "matmul"),
    ),
    (
        "ValueError: iOS15 version of pooling layers do not support pad_type = `same_lower`",
        "coreml-s25f-ios15-same-lower-pad",
        ("version of pooling", "ct.target.iOS16"),
    ),
    (
        "ValueError: Op 'zz_fc_1' (linear op): Size of the last dimension of x, which is 320, "
        "does not match the last dimension of weights, which is 256",
        "coreml-s25f-mil-linear-matmul-shapes",
        ("zz_fc_1", "320", "256"),
    ),
    (
        "ValueError: Op zz_mm_3 (matmul): x (2, 5, 7), y (6, 4) are not broadcastable",
        "coreml-s25f-mil-linear-matmul-shapes",
        ("zz_mm_3", "(2, 5, 7)", "(6, 4)"),
    ),
    (
        "ValueError: Flexible shape model states are not supported!",
        "coreml-s25f-state-flexible-shape",
        ("ct.StateType", "fixed shape"),
    ),
    (
        'Error Domain=com.apple.CoreML Code=0 "Unable to extract model type from stream in compiled model: '
        'Error reading from archive." UserInfo={}',
        "coreml-s25f-compiled-model-type-unreadable",
        ("Error reading from archive.", "coremlcompiler compile"),
    ),
    (
        "CoreML: export failure 1.2s: 'typing.Union' object has no attribute '__module__' "
        "and no __dict__ for setting new attributes",
        "coreml-s25f-python314-union-attribute",
        ("sets __module__", "Python 3.13"),
    ),
    # Core ML's execution-plan failure with its model path wrapped over lines (as a phone's log shows it)
    (
        "Failed to build the model execution plan using a model architecture file\n"
        "'/private/var/mobile/zz/Documents/\nzz-models/Enc.mlmodelc/model.mil'\nwith error code: -9.",
        "coreml-execution-plan-failed",
        ("(error -9)", ".cpuOnly"),
    ),
    # ---- coreml: MLModelError.Code (MLModelError.h) ----
    (
        'Error Domain=com.apple.CoreML Code=0 "Failed to evaluate model 2 in pipeline" '
        "UserInfo={NSLocalizedDescription=Failed to evaluate model 2 in pipeline}",
        "coreml-s28c-mlmodelerror-generic",
        ("Failed to evaluate model 2 in pipeline", "CPU_ONLY"),
    ),
    (
        'Error Domain=com.apple.CoreML Code=5 "Custom model class ZzModel not found"',
        "coreml-s28c-mlmodelerror-custom",
        ("code 5", "Custom model class ZzModel not found", "MLCustomModel"),
    ),
    (
        'Error Domain=com.apple.CoreML Code=6 "Training input feature zz_label not found"',
        "coreml-s28c-mlmodelerror-update",
        ("zz_label", "MLUpdateTask"),
    ),
    (
        'Error Domain=com.apple.CoreML Code=11 "Prediction zz was cancelled"',
        "coreml-s28c-mlmodelerror-cancelled",
        ("Prediction zz was cancelled", "Task.isCancelled"),
    ),
    # ---- coreml: the ML Program runtime's async prediction, Espresso, the ML Program parser ----
    (
        'Error Domain=com.apple.CoreML Code=0 "Timeout occurred while computing the asynchronous prediction '
        'using ML Program." UserInfo={NSUnderlyingError=0x6000 {Error Domain=com.apple.CoreML Code=0 "E5RT: '
        'Submit Async failed for [3:1]"}}',
        "coreml-s28c-async-prediction-failed",
        ("Timeout occurred while computing", ".cpuAndGPU"),
    ),
    (
        '[espresso] [Espresso::handle_ex_plan] exception=Espresso exception: "Invalid state": reshape '
        "mismatching size: 2147483647 1 1 1 1 -> 12 7 99 1 1 status=-5\n"
        "[coreml] Error computing NN outputs -5",
        "coreml-s28c-espresso-exception",
        ("Invalid state", "reshape mismatching size: 2147483647 1 1 1 1 -> 12 7 99 1 1", "EnumeratedShapes"),
    ),
    (
        "coremlcompiler: error: Failed to parse the model specification. Error: Unable to parse ML Program: "
        "in operation zz_gather_3: Required param 'validate_indices' is missing",
        "coreml-s28c-mlprogram-parse-op",
        ("zz_gather_3", "Required param 'validate_indices' is missing", "minimum_deployment_target"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


# ---- converter_families (test_knowledge_converter_families.py) ----


def test_the_ir_extension_opset_advice_names_the_tokenizers_import(kb: KnowledgeBase) -> None:
    top = top_match(kb, "Cannot create CharsToBytes layer c2b id:9 from unsupported opset: extension")
    assert "import openvino_tokenizers" in top.fix


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        (
            "Exception: Model prediction is only supported on macOS version 10.13 or later.",
            "coreml-predict-needs-macos",
        ),
        ("Exception: Unable to load libmodelpackage. Cannot save spec", "coreml-libmodelpackage-not-loaded"),
        (
            "Exception: Unable to load libmodelpackage. Cannot make save spec.",
            "coreml-libmodelpackage-not-loaded",
        ),
        (
            "Exception: MLModel of type mlProgram cannot be loaded just from the model spec object. It also "
            "needs the path to the weights file.",
            "coreml-mlprogram-needs-weights-dir",
        ),
        (
            "Exception: For an ML Program, extension must be .mlpackage (not .bin). Please see the docs.",
            "coreml-mlprogram-save-extension",
        ),
        (
            "ValueError: coremltools.ComputeUnit.CPU_AND_NE is only available on macOS >= 13.0",
            "coreml-compute-units-cpu-and-ne",
        ),
        (
            'Error Domain=com.apple.CoreML Code=0 "Failed to build the model execution plan using a model '
            "architecture file '/var/m.mlmodelc/model.mil' with error code: -14.\"",
            "coreml-execution-plan-failed",
        ),
    ],
)
def test_coremls_own_sentences_have_entries(kb: KnowledgeBase, text: str, entry: str) -> None:
    top = top_match(kb, text)
    assert (top.entry.id, top.entry.family) == (entry, "coreml")


def test_the_execution_plan_code_is_shown(kb: KnowledgeBase) -> None:
    top = top_match(kb, "Failed to build the model execution plan using in-memory model with error code: -7.")
    assert ("value", "-7") in top.captures
    assert "-7" in top.cause


@pytest.mark.parametrize(
    ("text", "family"),
    [
        # each tool's own wording around a reason no entry has
        ('Error Domain=com.apple.CoreML Code=1 "weird thing went wrong"', "coreml"),
        ("MLMultiArray shape mismatch for feature 'x', got something odd", "coreml"),
        ("java.lang.IllegalArgumentException: Invalid input to TensorFlowLite tensor foo", "tflite"),
        ("Exception from src/inference/src/cpp/infer_request.cpp:231: something odd", "openvino"),
    ],
)
def test_a_tools_own_envelope_names_it(kb: KnowledgeBase, text: str, family: str) -> None:
    assert top_match(kb, text).entry.family == family


@pytest.mark.parametrize(
    "text",
    [
        'Error Domain=NSCocoaErrorDomain Code=260 "The file could not be opened."',
        "java.lang.IllegalArgumentException: Internal error: buffer is too small",
        "RuntimeError: shape is dynamic, cannot get static shape",
    ],
)
def test_the_same_envelopes_without_the_tool_are_not_lent_to_it(kb: KnowledgeBase, text: str) -> None:
    """No marker or pattern of these tools fires: at most a wording-only guess, never above low confidence."""
    found = answer(kb, text)
    if found.matches and found.matches[0].entry.family in ("coreml", "tflite", "openvino"):
        assert found.basis == "words" and found.confidence == "low"


@pytest.mark.parametrize(
    ("text", "entry", "captured"),
    [
        (
            "E5RT encountered an STL exception. msg = MILCompilerForANE error: failed to compile ANE model "
            "using ANEF. Error=_ANECompiler : ANECCompile() FAILED.",
            "coreml-e5rt-ane-compile-failed",
            None,
        ),
        (
            "E5RT encountered an STL exception. msg = Input: audio_features has unbounded dimension which is "
            "not supported.",
            "coreml-e5rt-unbounded-dimension",
            ("input", "audio_features"),
        ),
        (
            "E5RT encountered an STL exception. msg = unordered_map::at: key not found.",
            "coreml-e5rt-stl-exception",
            ("reason", "unordered_map::at: key not found"),
        ),
    ],
)
def test_the_core_ml_runtimes_own_log_line(
    kb: KnowledgeBase, text: str, entry: str, captured: tuple[str, str] | None
) -> None:
    answers_with(kb, text, entry, "coreml", captured)


def test_the_ane_failure_is_said_to_be_a_fallback_when_the_model_runs(kb: KnowledgeBase) -> None:
    top = top_match(kb, "MILCompilerForANE error: failed to compile ANE model using ANEF")
    assert top.entry.id == "coreml-e5rt-ane-compile-failed"
    assert "fallback" in top.fix


@pytest.mark.parametrize(
    ("text", "entry", "captured"),
    [
        (
            "ValueError: Incompatible dim 1 in shapes (1, 77, 768) vs. (1, 64, 768)",
            "coreml-mil-incompatible-broadcast-dim",
            ("other", "(1, 64, 768)"),
        ),
        (
            "ValueError: 'shape' must be provided in the 'inputs' argument for pytorch conversion",
            "coreml-torch-input-shape-required",
            None,
        ),
        (
            "ValueError: Model should be an instance of either torch.jit.ScriptModule or ExportedProgram",
            "coreml-torch-model-not-scriptmodule",
            None,
        ),
        (
            "ValueError: Input (image_in) provided is not found in given tensorflow graph. Placeholders in "
            "graph are: ['serving_default_image']",
            "coreml-tf-input-not-in-graph",
            ("input", "image_in"),
        ),
    ],
)
def test_coremltools_frontend_and_mil_checks(
    kb: KnowledgeBase, text: str, entry: str, captured: tuple[str, str] | None
) -> None:
    answers_with(kb, text, entry, "coreml", captured)


# ---- s18c (test_knowledge_coreml_openvino_s18c.py) ----


@pytest.mark.parametrize(
    "message",
    [
        'Error Domain=com.apple.CoreML Code=0 "Failed to build the model execution plan using a model '
        "architecture file '/tmp/x.mlmodelc/model.mil' with error code: -5.\"",
        'Error Domain=com.apple.CoreML Code=1 "Error in declaring network." UserInfo={}',
    ],
)
def test_a_code_card_yields_to_the_text_an_entry_of_its_own_explains(kb: KnowledgeBase, message: str) -> None:
    """The MLModelError code cards step aside for a description that a specific Core ML entry answers."""
    top = kb.lookup(message, top=1)[0]
    assert top.entry.family == "coreml"
    assert not top.entry.id.startswith("coreml-s18c-mlmodelerror-"), top.entry.id


# ---- s19b (test_knowledge_coreml_openvino_s19b.py) ----


def test_a_missing_native_module_stays_with_the_native_libs_entry(kb: KnowledgeBase) -> None:
    """The _MLModelProxy warning whose reason is the missing libcoremlpython module is the install entry's
    case (what is missing, and which wheels carry it), not the bridge entry's."""
    top = kb.lookup("Failed to load _MLModelProxy: No module named 'coremltools.libcoremlpython'", top=1)[0]
    assert top.entry.id == "coreml-h23v2-native-libs-missing"


# ---- coreml_sources (test_knowledge_coreml_sources.py) ----

FORMS = [
    (
        "Torch version 2.5.1 has not been tested with coremltools. You may run into unexpected errors. "
        "Torch 2.4.0 is the most recent version that has been tested.",
        "coreml-ctsrc-untested-package-version",
        {"package": "Torch", "version": "2.5.1", "version2": "2.4.0"},
    ),
    (
        "Input shape not fully specified by enumerated shapes or range dim! 1 will be used for dimension "
        "not specified instead.",
        "coreml-ctsrc-shape-not-specified-default-1",
        {},
    ),
    (
        "ValueError: Variable rank model inputs are not supported!",
        "coreml-ctsrc-variable-rank-input",
        {"arg": "inputs"},
    ),
    (
        "TypeError: Unrecognized value of argument 'minimum_deployment_target': iOS15. "
        "It needs to be a member of 'coremltools.target' enumeration. For example, coremltools.target.iOS13",
        "coreml-ctsrc-deployment-target-unrecognized",
        {"value": "iOS15"},
    ),
    (
        'ValueError: Fail to auto-determine the input name. Please specify the "name" parameter when use '
        '"inputs" in ct.convert().',
        "coreml-ctsrc-input-name-undetermined",
        {},
    ),
    (
        "ValueError: Provided image input 'pixels' is not one of the inputs of the MIL program",
        "coreml-ctsrc-image-input-not-in-program",
        {"input": "pixels"},
    ),
    (
        "NotImplementedError: Dynamic activation quantization is not supported in Core ML.",
        "coreml-ctsrc-dynamic-activation-quant",
        {},
    ),
    (
        "ValueError: Unknown type <class 'numpy.ndarray'> for conversion to InputType.",
        "coreml-ctsrc-unknown-input-type",
        {"type": "<class 'numpy.ndarray'>"},
    ),
    (
        "ValueError: State only support fp16 dtype. Got input var v_cache with dtype fp32.",
        "coreml-ctsrc-state-not-fp16",
        {"input": "v_cache", "dtype": "fp32"},
    ),
    ("ValueError: Cannot add const [None, 768]", "coreml-ctsrc-cannot-add-const", {"value": "None, 768"}),
    (
        'TypeError: The "compute_units" parameter must be of type: "coremltools.ComputeUnit".',
        "coreml-ctsrc-compute-units-type",
        {},
    ),
    (
        "ValueError: EnumeratedShapes should be take a list or tuple with len >= 2, got 1 instead",
        "coreml-ctsrc-enumerated-shapes-too-few",
        {"value": "1"},
    ),
    (
        # English any tool may print: answered where the message names coremltools (its frame)
        'File "/venv/lib/coremltools/converters/mil/input_types.py", line 420, in __init__\n'
        "ValueError: Default value 2048 is greater than maximum value (1024) for range",
        "coreml-ctsrc-rangedim-default-outside",
        {"value": "2048", "value2": "1024"},
    ),
    ("Unknown opset 'CoreML7'", "coreml-ctsrc-unknown-opset-coremlN", {"value": "7"}),
]


@pytest.mark.parametrize(("text", "entry_id", "captures"), FORMS, ids=[f[1] for f in FORMS])
def test_the_coremltools_form_answers_with_its_values(
    kb: KnowledgeBase, text: str, entry_id: str, captures: dict[str, str]
) -> None:
    answer = kb.answer(text, top=3)
    top = answer.matches[0]
    assert top.entry.id == entry_id and answer.confidence == "high"
    got = dict(top.captures)
    for name, value in captures.items():
        assert got[name] == value
        assert value in top.cause + top.fix


@pytest.mark.parametrize(
    "text",
    [
        "ONNX opset version 19 has not been tested with this converter",  # not coremltools' sentence
        "Unknown opset 'ai.onnx.ml'",  # an ONNX domain, not a Core ML opset
        "Default value 3 is out of range",
        "Cannot add constant folding pass",
        "Variable rank inputs",
    ],
)
def test_near_misses_do_not_fire(kb: KnowledgeBase, text: str) -> None:
    ids = {m.entry.id for m in kb.lookup(text, top=5) if "pattern" in m.reason}
    assert not {f[1] for f in FORMS} & ids


def test_the_version_warning_ranks_under_the_error_after_it(kb: KnowledgeBase) -> None:
    """The warning says what may go wrong; the converter's error after it says what did."""
    text = (
        "Torch version 2.6.0 has not been tested with coremltools. You may run into unexpected errors. "
        "Torch 2.4.0 is the most recent version that has been tested.\n"
        "Converting PyTorch Frontend ==> MIL Ops:  42%\n"
        "RuntimeError: PyTorch convert function for op 'upsample_bicubic2d' not implemented."
    )
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert ids[:2] == ["coreml-torch-op-not-implemented", "coreml-ctsrc-untested-package-version"]


# ---- s20a (test_knowledge_coreml_tflite_s20a.py) ----


def test_the_compile_error_names_coremls_own_reason(kb: KnowledgeBase) -> None:
    """CoreMLPython.mm wraps the framework's localizedDescription: the entry shows it and the way to see the
    compiler's whole output; with the reason captured it is an envelope, judged so."""
    message = 'RuntimeError: Error compiling model: "The file couldn’t be saved.".'
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == "coreml-s20a-error-compiling-model"
    assert dict(top.captures)["reason"] == "The file couldn’t be saved."
    named = ("The file couldn’t be saved.", "xcrun coremlcompiler compile", "skip_model_load")
    assert_advice(top, named, judged_specific=False)


def test_a_quantizer_config_dtype_is_not_the_tensortype_check(kb: KnowledgeBase) -> None:
    """optimize/coreml/_config.py's 'dtype=... is unsupported for OpLinearQuantizerConfig.' is the
    quantizer config's check, not ct.TensorType's."""
    tops = kb.lookup("ValueError: dtype=float64 is unsupported for OpLinearQuantizerConfig.", top=1)
    assert not tops or tops[0].entry.id != "coreml-s20a-tensortype-dtype-unsupported"


# ---- h23u2 (test_knowledge_edge_vendor_wording_h23u2.py) ----


def test_tensorrt_s_parser_node_line_is_not_coremltools_input_count(kb: KnowledgeBase) -> None:
    """coremltools' input-count check has two exact forms; another tool's "node N (name): M" is neither."""
    shown = answer(kb, "In node 3 (importConv): 4 inputs given")
    assert not shown.matches or shown.matches[0].entry.id != "coreml-torch-node-input-count"


# ---- h23d3_sources (test_knowledge_h23d3_sources.py) ----

ENVELOPE = (
    "[ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running {op} node. "
    "Name:'{name}' Status Message: "
)


def _ort(op: str, name: str, message: str) -> str:
    return ENVELOPE.format(op=op, name=name) + message


CLAUSES = [
    # microsoft/onnxruntime core/providers/common.h, cpu kernels, cuda, python bindings
    (
        _ort("Softmax", "enc/attn/softmax", "axis -5 is not in valid range [-4,3]"),
        "ort-axis-out-of-range",
        ("enc/attn/softmax", "axis -5", "rank 4"),
    ),
    (
        _ort(
            "TopK", "det/topk", "k argument [1000] should not be greater than specified axis dim value [600]"
        ),
        "ort-topk-k-too-large",
        ("det/topk", "k = 1000", "only 600"),
    ),
    (
        _ort("Gemm", "cls/fc", "GEMM: Dimension mismatch, W: {10,2048} K: 512 N:10"),
        "ort-gemm-dimension-mismatch",
        ("cls/fc", "K is 512", "{10,2048}"),
    ),
    (
        _ort(
            "Conv",
            "backbone/conv1",
            "Input channels C is not equal to kernel channels * group. C: 1 kernel channels: 3 group: 1",
        ),
        "ort-conv-channels-group",
        ("backbone/conv1", "1 channels", "3 x 1"),
    ),
    (
        _ort("Transpose", "head/perm", "perm: [ 0 3 1 2 ] does not align with rank of input data: 3"),
        "ort-transpose-perm-rank",
        ("head/perm", "[0 3 1 2]", "rank 3"),
    ),
    (
        _ort("Squeeze", "pool/squeeze", "Dimension of input 0 must be 1 instead of 8. shape={8,256}"),
        "ort-squeeze-dim-not-one",
        ("pool/squeeze", "axis 0", "has 8"),
    ),
    (
        _ort(
            "LayerNormalization",
            "blk3/ln",
            "Size of X.shape()[axis:] == 1024. Size of scale and bias (if "
            "provided) must match this. Got scale size of 768 and bias size of 768",
        ),
        "ort-layernorm-scale-size",
        ("blk3/ln", "1024 elements", "scale has 768"),
    ),
    (
        _ort("Pad", "stem/pad", "Pads tensor size should be equal to twice the input dimension count "),
        "ort-pad-size",
        ("stem/pad", "input dimension count"),
    ),
    (
        _ort("Resize", "neck/up2", "Resize: input/output value's dimension mismatch"),
        "ort-resize-rank-mismatch",
        ("neck/up2", "Resize kernel"),
    ),
    (
        _ort("AveragePool", "gap", "kernel_shape num_dims is not compatible with X num_dims."),
        "ort-pool-kernel-rank",
        ("gap", "AveragePool"),
    ),
    (
        _ort("Range", "pos/range", "delta in Range operator can not be zero!"),
        "ort-range-delta-zero",
        ("pos/range",),
    ),
    (
        _ort("Gemm", "fc2", "Gemm: Invalid bias shape for broadcast"),
        "ort-gemm-bias-broadcast",
        ("fc2",),
    ),
    (
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running Mul node. "
        "Name:'mul_12' Status Message: CUDA error cudaErrorLaunchFailure:unspecified launch failure",
        "ort-cuda-kernel-error",
        ("cudaErrorLaunchFailure", "mul_12", "CUDA_LAUNCH_BLOCKING=1"),
    ),
    (
        "onnxruntime_pybind_state.cc:857 onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is "
        "set but "
        "CUDA wasnt able to be loaded. Please install the correct version of CUDA andcuDNN as mentioned in "
        "the GPU "
        "requirements page",
        "ort-cuda-path-not-loaded",
        ("cuDNN", "requirements table"),
    ),
    # MSVC's map lookup inside an OpenVINO exception chain: OpenVINO's card, read by the STL's own wording
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:109:\n"
        "Exception from src/inference/src/dev/plugin.cpp:53:\ninvalid unordered_map<K, T> key",
        "msvc-invalid-map-key",
        ("unordered_map::at()", "SUPPORTED_PROPERTIES"),
    ),
    # libc++'s map lookup under onnxruntime's session initialisation (an Android build): the card's own text
    (
        "E/onnxruntime: [E:onnxruntime:, inference_session.cc:1590 operator()] Exception during "
        "initialization: "
        "unordered_map::at: key not found",
        "stl-map-at-key-not-found",
        ("unordered_map::at()", "libc++", "Exception during initialization"),
    ),
    # Ascend CANN TBE error_manager_vector checks (MindSpore docs' CANN error cases)
    (
        "RuntimeError: ({'errCode': 'E80000', 'op_name': 'avg_pool_d', 'param_name': 'ksize[1]', "
        "'excepted_value': '1', 'real_value': '3'}, 'In op[avg_pool_d], the parameter[ksize[1]] should be , "
        "but "
        "actually is [3].')",
        "ascend-tbe-parameter-value",
        ("avg_pool_d", "ksize[1]", "is 3"),
    ),
    (
        "RuntimeError: ({'errCode': 'E80029', 'op_name': 'assign_add', 'param_name1': 'ref', 'param_name2': "
        "'value', 'error_detail': 'Shape of ref and value should be same'}, 'In op[assign_add], the shape of "
        "inputs[ref][value] are invalid, [Shape of ref and value should be same].')",
        "ascend-tbe-inputs-shape-invalid",
        ("assign_add", "ref and value", "Shape of ref and value should be same"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), CLAUSES, ids=[c[1] for c in CLAUSES])
def test_the_source_form_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


def test_the_bare_msvc_map_text_is_no_confident_tool_answer(kb: KnowledgeBase) -> None:
    """MSVC's 'invalid unordered_map<K, T> key' names no tool: the clause answers it only under a tool's card
    (the OpenVINO chain above), and alone it is no confident answer of any tool."""
    assert not kb.answer("RuntimeError: invalid unordered_map<K, T> key", top=3).confident


def test_an_ort_axis_message_of_another_tool_is_not_read_as_onnxruntime(kb: KnowledgeBase) -> None:
    """The axis clause is onnxruntime's: a message of no tool with the same words is not answered by it."""
    for m in kb.lookup("axis 3 is not in valid range [-2,1]", top=3):
        assert not m.entry.id.endswith("+ort-axis-out-of-range")


# ---- round13 (test_knowledge_round13.py) ----


def test_coremltools_predict_refusing_a_value_is_core_mls(kb: KnowledgeBase) -> None:
    text = "Error: value type not convertible:\n[1 2 3]\nRuntimeError: value type not convertible"
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "coreml" and top.entry.id == "coreml-predict-value-type-not-convertible"
    assert "astype" in top.fix


# ---- round18 (test_knowledge_round18.py) ----


@pytest.mark.parametrize(
    ("text", "op"),
    [
        ("ERROR - converting 'pad' op (located at: 'backbone/stem/3'):", "pad"),
        ("\n\nERROR - converting 'int' op (located at: ''):\n", "int"),
    ],
)
def test_coremltools_op_conversion_log_names_the_op(kb: KnowledgeBase, text: str, op: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "coreml-torch-op-conversion-failed"
    assert ("op", op) in top.captures
    assert f"'{op}'" in top.cause and "register_torch_op" in top.fix


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("[coreml] Error computing NN outputs -5", "coreml-error-computing-nn-outputs"),
        (
            'Error Domain=com.apple.CoreML Code=0 "Error computing NN outputs." '
            "UserInfo={NSLocalizedDescription=Error computing NN outputs.}",
            "coreml-error-computing-nn-outputs",
        ),
        ("[coreml] Error in adding network -1.", "coreml-error-declaring-network"),
        (
            'MLModelAsset: load failed with error Error Domain=com.apple.CoreML Code=0 "Error in declaring '
            'network."',
            "coreml-error-declaring-network",
        ),
    ],
)
def test_core_ml_engine_failures_have_their_entries(kb: KnowledgeBase, text: str, entry: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == entry
    assert "CPU" in top.fix


# ---- round21_forms (test_knowledge_round21_forms.py) ----


def test_lfs_pointer_word_is_told_from_html_word(kb: KnowledgeBase) -> None:
    # The first word of a Git LFS pointer is named in the cause, so a pointer checked out in place of the file
    # is told apart from an HTML page.
    found = kb.answer(
        "Model.mlmodelc/coremldata.bin is not a valid .mlmodelc file because the first word (1936876918) is "
        "not recognizable."
    )
    text = found.matches[0].entry.cause
    assert "1936876918 is 'vers'" in text and "1329865020 is the text '<!DO'" in text


CAPTURE_CASES = [
    (
        "/var/app/Models/Encoder.mlmodelc/coremldata.bin is not a valid .mlmodelc file because the "
        "first word (1329865020) is not recognizable.",
        "coreml-h23v2-mlmodelc-first-word",
        {"arg": "coremldata.bin", "value": "1329865020"},
        "download it again",
    ),
    (
        "Error: Unable to load model: file:///var/app/Models/AudioEncoder.mlmodelc/. "
        "Compile the model with Xcode or `MLModel.compileModel(at:)`.",
        "coreml-h23v2-unable-to-load-compile-model",
        {"value": "file:///var/app/Models/AudioEncoder.mlmodelc/"},
        "MLModel.compileModel(at:)",
    ),
    (
        "CoreML: export failure 0.4s: No module named 'coremltools.libmilstoragepython'",
        "coreml-h23v2-native-libs-missing",
        {"value": "libmilstoragepython"},
        "macOS or Linux",
    ),
    (
        "CoreML: export failure: Unknown value for constant: ScriptObject <__torch__.torch.classes.xnnpack."
        "LinearOpContext>",
        "coreml-h23v2-xnnpack-scriptobject-constant",
        {"value": "xnnpack.LinearOpContext"},
        "optimize_for_mobile",
    ),
]


test_the_form_gets_its_entry_captures_and_fix_words = answered_with_captures(CAPTURE_CASES)


# ---- h23f3 (test_knowledge_round22_sources_h23f3.py) ----


def test_whisper_cpp_coreml_encoder_missing(kb: KnowledgeBase) -> None:
    message = (
        "whisper_init_state: loading Core ML model from '/opt/asr/ggml-medium-encoder.mlmodelc'\n"
        "whisper_init_state: failed to load Core ML model from '/opt/asr/ggml-medium-encoder.mlmodelc'\n"
        "error: failed to initialize whisper context"
    )
    found, m = first_answer(kb, message)
    assert m.entry.id == "coreml-h23f3-whisper-coreml-encoder-load"
    assert found.confidence == "high"
    assert dict(m.captures)["path"] == "/opt/asr/ggml-medium-encoder.mlmodelc"
    assert "generate-coreml-model.sh" in m.entry.fix and "WHISPER_COREML_ALLOW_FALLBACK" in m.entry.fix


def test_ultralytics_coreml_nms_pipeline_class_count(kb: KnowledgeBase) -> None:
    found, m = first_answer(kb, "CoreML: export failure ❌ 40.2s: 3 names found for nc=84")
    assert m.entry.id == "coreml-h23f3-ultralytics-nms-pipeline-names"
    assert found.confidence == "high"
    caps = dict(m.captures)
    assert (caps["value"], caps["arg"]) == ("3", "84")
    assert "nms=False" in m.entry.fix


def test_yolov5_training_names_check_is_not_the_export_pipeline(kb: KnowledgeBase) -> None:
    # train.py's check of the data yaml (names vs nc) is another class: the export entry does not claim it
    found = kb.answer("AssertionError: 3 names found for nc=4 dataset in data/custom.yaml")
    assert all(m.entry.id != "coreml-h23f3-ultralytics-nms-pipeline-names" for m in found.matches)


# ---- s19f (test_knowledge_round24_dev_s19f.py) ----


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


# ---- s20g (test_knowledge_round25_dev_s20g.py) ----


@pytest.mark.parametrize(
    ("msg", "entry", "named"),
    [
        (
            'Error Domain=com.apple.vis Code=15 "The model does not have a valid input feature '
            'of type image" UserInfo={NSLocalizedDescription=The model does not have a valid '
            "input feature of type image}",
            "coreml-s20g-vision-needs-image-input",
            ("ct.ImageType",),
        ),
        (
            'RuntimeError: {\n    NSLocalizedDescription = "MultiArrayConstraint only allows '
            'MultiArrays";\n}',
            "coreml-s20g-multiarray-constraint",
            ("numpy array",),
        ),
        (
            "NSLocalizedDescription = \"`MLModelConfiguration`'s `.functionName` property must be "
            '`nil` unless the model type is ML Program.";',
            "coreml-s20g-function-name-needs-mlprogram",
            ("mlprogram", "save_multifunction"),
        ),
        (
            "2020-02-02 10:00:00.000 python[1:2] +[MLModel compileModelAtURL:error:]: "
            "unrecognized selector sent to class 0x7fff00000000",
            "coreml-objc-unrecognized-selector",
            ("MLModel", "compileModelAtURL:error:"),
        ),
    ],
)
def test_core_ml_runtime_forms(kb: KnowledgeBase, msg: str, entry: str, named: tuple[str, ...]) -> None:
    assert_answered(kb, msg, named, entry=entry)


# ---- s19a (test_knowledge_torch_onnx_qualcomm_s19a.py) ----


def test_coreml_unsupported_fx_node_is_not_torch_onnx(kb: KnowledgeBase) -> None:
    """coremltools' 'Unsupported fx node X, kind Y' stays coremltools' (its marker keeps a trailing space so
    torch.onnx's 'Unsupported FX nodes:' is not read as Core ML)."""
    top = kb.lookup("NotImplementedError: Unsupported fx node zz_gelu, kind zz_gelu.default", top=1)[0]
    assert top.entry.id == "coreml-unsupported-fx-node"


def test_numpys_index_error_is_not_mils_axis_check(kb: KnowledgeBase) -> None:
    # s23c: MIL's "Axis value N is out of bounds for <op> node <name>" (named_only) is no answer to numpy's
    # "index N is out of bounds for axis 0 with size 0", which shares its phrase, when no tool is named
    numpy_text = "IndexError: index 3 is out of bounds for axis 0 with size 0"
    assert "coreml-s23c-mil-axis-out-of-bounds" not in [m.entry.id for m in kb.lookup(numpy_text, top=1)]
    # the same MIL text with its coremltools frame is answered by the entry (the CASES row above)
    mil_text = (
        'File "/zz/coremltools/converters/mil/mil/ops/defs/iOS15/x.py"\n'
        "IndexError: Axis value 4 is out of bounds for gather node g_1"
    )
    assert top_match(kb, mil_text).entry.id == "coreml-s23c-mil-axis-out-of-bounds"


def test_python314_union_text_without_core_ml_is_not_lent_to_it(kb: KnowledgeBase) -> None:
    """s25f: the Python 3.14 typing.Union attribute error is Core ML's only behind a Core ML export's name
    (the entry is named_only): bare, no Core ML answer is shown."""
    bare = (
        "AttributeError: 'typing.Union' object has no attribute '__module__' "
        "and no __dict__ for setting new attributes"
    )
    assert "coreml-s25f-python314-union-attribute" not in [m.entry.id for m in answer(kb, bare).matches]


CONFIDENT_CASES: list[Case] = [
    # ---- coreml: CoreML.framework MLImageSizeConstraint; coremltools MIL passes, block, nn backend ----
    (
        "Image size 1000 x 700 not in allowed set of image sizes",
        "coreml-s29c-image-size-not-allowed",
        ("1000 x 700", "EnumeratedShapes"),
    ),
    (
        "Image width (1000) is not in allowed range (224..512)",
        "coreml-s29c-image-size-not-allowed",
        ("1000", "224..512", "VNCoreMLRequest"),
    ),
    (
        "ValueError: Var names ['zz_input'] is used both as function's input and output",
        "coreml-s29c-var-names-input-and-output",
        ("'zz_input'", "rename_feature"),
    ),
    (
        "ValueError: Var %zz_loop_3 not visible in the block block7.",
        "coreml-s29c-var-not-visible-in-block",
        ("%zz_loop_3", "block7", "torch.jit.trace"),
    ),
    (
        "NotImplementedError: Image output 'zz_out' has symbolic dimensions in its shape",
        "coreml-s29c-nn-image-output-symbolic",
        ("zz_out", "mlprogram"),
    ),
    # coremltools/converters/mil/input_types.py (Shape.__init__)
    (
        "ValueError: Dimension cannot be None or -1. Use ct.RangeDim for runtime determined dimension. "
        "Dim 2: None See https://coremltools.readme.io/docs/flexible-inputs",
        "coreml-s30e-dimension-none-or-minus-one",
        ("2", "ct.RangeDim"),
    ),
]

test_the_vendor_form_is_answered_confidently_by_its_entry = answered_by_entry(CONFIDENT_CASES, confident=True)


FIRST_VALUE_CASES = [
    (
        "ModuleNotFoundError: No module named 'coremltools.converters.onnx'",
        "coreml-s31e-onnx-converter-removed",
        {},
    ),
]

test_the_source_form_is_answered_with_its_values = in_top3_with_values(FIRST_VALUE_CASES)
test_the_entry_answers_first_with_its_values_quoted = first_with_values(FIRST_VALUE_CASES)


@pytest.mark.parametrize(
    "text",
    [
        'Error Domain=com.apple.CoreML Code=0 "Error computing NN outputs."',
        'Error Domain=com.apple.CoreML Code=0 "Error in declaring network."',
        'Error Domain=com.apple.CoreML Code=0 "Failed to build the model execution plan using a model '
        "architecture file '/zz/model.mil' with error code: -7.\"",
    ],
)
def test_a_code_entry_leaves_the_texts_their_own_entries_answer(kb: KnowledgeBase, text: str) -> None:
    """Code 0 is the framework's catch-all: a description that has its own entry is answered by that entry,
    and the generic code entry does not match it at all."""
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "coreml"
    assert top.entry.id != "coreml-s28c-mlmodelerror-generic"
    for m in kb.lookup(text, top=5):
        assert m.entry.id != "coreml-s28c-mlmodelerror-generic" or m.reason != "pattern"
