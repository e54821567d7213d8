"""Session s18c: Core ML's and OpenVINO's common failures read from their own sources.

Core ML: ct.convert's argument checks (coremltools/converters/_converters_entry.py: compute_precision,
outputs, inputs, enumerated shapes, source), the TensorFlow loaders (converters/mil/frontend/tensorflow*/
load.py, the topological sort), the MIL ops' type inference (pooling's ceil_mode,
spatial output sizes, binary ops' dtypes), coremltools.optimize's iOS18-only compression, and Core ML's
MLModelError codes (Apple's MLModelError.Code: featureType=1, io=3, parameters=7,
modelDecryptionKeyFetch=8, modelDecryption=9).
OpenVINO: the NPU compiler's missing upper bounds (npu_compiler's frontend), convert_model's PyTorch
example_input and NNCF checks (ovc's pytorch_frontend_utils.py) and optimum-intel's OpenVINO exporter
(optimum/exporters/openvino).

Each case is the source's own format string with made-up names and values filled in, never an eval message:
the entry that answers it, and the parts of the message its advice must name."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

ENTRIES = [
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
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), ENTRIES, ids=[f"{c[1]}-{i}" for i, c in enumerate(ENTRIES)]
)
def test_the_source_form_is_answered_by_its_entry(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


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
