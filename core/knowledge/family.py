"""Which tool wrote a message: family detection from unmistakable markers, before any normalisation.

A marker is a lower-cased literal that only one tool prints: a log prefix (``e rknn:``,
``qnndsp <e>``, ``[e:onnxruntime:``, ``[trt]``), an API prefix (``rknn_init``, ``aclrt``,
``qnnbackend_``), a C++ namespace (``nvinfer1::``, ``ov::``, ``tflite::``) or a path inside
the tool's source tree (``onnxruntime/core/``, ``paddle2onnx``).  Paths are exactly what
:func:`~dumpscope.core.knowledge.words.normalise` blanks, which is why detection runs on
the raw text.  Detection is a handful of ``in`` tests per family: no regular expression.

The result ranks families by evidence: the sum of the weights of the markers found
(a strong marker weighs 3, a weak one 1), so a CUDA error quoted inside an onnxruntime
envelope still names onnxruntime first.
"""

from __future__ import annotations

STRONG = 3
WEAK = 1

#: family -> ((marker, weight), ...); markers are lower-case literals.
MARKERS: dict[str, tuple[tuple[str, int], ...]] = {
    "ascend": (
        ("atc run failed", STRONG), ("ascend", WEAK), ("aclrt", STRONG), ("aclnn", STRONG), ("acl error", STRONG),
        ("acl api failed", STRONG), ("torch_npu", STRONG), ("npu function error", STRONG), ("hccl", STRONG),
        ("hcom", WEAK), ("mindie", STRONG), ("[func:", STRONG), ("[file:", WEAK), ("retcode=0x", WEAK),
        ("errorno:", WEAK), ("tefusion", STRONG), ("aicore", STRONG), ("aicpu", STRONG),
        ("cann", WEAK), ("acl set device", STRONG), ("acl init", STRONG), ("pta call", STRONG),
        ("--soc_version", STRONG), ("om model", WEAK), ("npu-smi", STRONG), ("opp", WEAK), ("tbe", WEAK),
    ),
    "rknn": (
        ("e rknn:", STRONG), ("rknn_", STRONG), ("rknn.api", STRONG), ("rknn toolkit", STRONG), ("rknnlib", STRONG),
        ("rknpu", STRONG), ("rknnapi", STRONG), ("rknn", WEAK), ("load_onnx", WEAK), ("init_runtime", WEAK),
        ("rknn_op_support", STRONG), ("e load_onnx:", STRONG), ("e build:", STRONG), ("e init_runtime:", STRONG),
        ("e export_rknn:", STRONG), ("e config:", STRONG), ("e inference:", STRONG), ("w load_onnx:", STRONG), ("need <= 12", WEAK),
    ),
    "tensorrt": (
        ("[trt]", STRONG), ("nvinfer1::", STRONG), ("tensorrt", WEAK), ("trtexec", STRONG), ("modelimporter.cpp", STRONG),
        ("builtin_op_importers", STRONG), ("ibuilder::", STRONG), ("buildserializednetwork", STRONG),
        ("while parsing node number", STRONG), ("unnamed layer*", STRONG), ("foreignnode", STRONG),
        ("onnx-tensorrt", STRONG), ("onnxtrt_", STRONG), ("error code ", WEAK), ("engine could not be created", STRONG), ("create_execution_context", STRONG), ("deserialize_cuda_engine", STRONG),
        ("importmodel", WEAK), ("deserializeonnxmodel", STRONG), ("[e] error[", STRONG), ("tensorrt engine", STRONG),
    ),
    "onnxruntime": (
        ("[onnxruntimeerror]", STRONG), ("[e:onnxruntime:", STRONG), ("[w:onnxruntime:", STRONG),
        ("onnxruntime/core/", STRONG), ("onnxruntime\\core\\", STRONG), ("onnxruntime_pybind11_state", STRONG),
        ("onnxruntime::", STRONG), ("executionprovider", STRONG), ("com.ms.internal", STRONG), ("protobuf parsing failed", STRONG), ("non-zero status code returned", STRONG),
        ("onnxruntime", WEAK), ("ortstatus", STRONG), ("ort::", WEAK), ("[errorcode:", STRONG),
        ("inferencesession", WEAK), ("status message:", WEAK),
    ),
    "onnx": (
        ("onnx_cpp2py_export", STRONG), ("shapeinferenceerror", STRONG), ("validationerror", STRONG),
        ("onnx.checker", STRONG), ("check_model", WEAK), ("schemaerror", STRONG), ("no schema registered", STRONG),
        ("inferred shape and existing shape differ", STRONG), ("bad node spec", STRONG), ("infer_shapes", WEAK),
        ("onnx.helper", STRONG), ("ir_version", WEAK), ("opset", WEAK),
    ),
    "onnxsim": (
        ("onnxsim", STRONG), ("onnx-simplifier", STRONG), ("onnx_simplifier", STRONG), ("onnxoptimizer", STRONG),
        ("onnx-optimizer", STRONG), ("simplifying...", STRONG),
    ),
    "float16": (
        ("float16", WEAK), ("convert_float_to_float16", STRONG), ("keep_io_types", STRONG), ("onnxconverter_common", STRONG),
        ("tensor(float16)", STRONG), ("fp16", WEAK), ("float16.py", STRONG), ("auto_mixed_precision", STRONG),
    ),
    "qualcomm": (
        ("qnndsp", STRONG), ("<e>", WEAK), ("qnn", STRONG), ("snpe", STRONG), ("qairt", STRONG), ("qti.aisw", STRONG),
        ("hexagon", STRONG), ("htp", WEAK), ("dlc", WEAK), ("hexnn", STRONG), ("qnnbackend", STRONG),
    ),
    "sigmastar": (
        ("sigmastar", STRONG), ("sgs_", STRONG), ("sgs ipu", STRONG), ("calibrator", WEAK), ("ipu_sdk", STRONG),
        ("sgs_ipu", STRONG), ("simulator.py", WEAK), ("convert_tool", WEAK), ("ipu", WEAK),
    ),
    "openvino": (
        ("openvino", STRONG), ("ov::", STRONG), ("inferenceengine", STRONG), ("_pyopenvino", STRONG),
        ("src/inference/src", STRONG), ("src/core/", WEAK), ("src/frontends/", STRONG), ("ngraph", STRONG),
        ("model optimizer", STRONG), ("check '", WEAK), ("opconversionfailure", STRONG),
        ("return status -", WEAK), ("failed at src/", STRONG), ("ov_infer_request", STRONG),
    ),
    "tflite": (
        ("tflite", STRONG), ("tensorflow/lite", STRONG), ("tensorflow lite", STRONG), ("litert", STRONG),
        ("failed to prepare", STRONG), ("node number", WEAK), ("flex delegate", STRONG),
        ("delegate kernel", STRONG), ("allocatetensors", STRONG), ("allocate_tensors", STRONG), ("interpreter", WEAK),
    ),
    "mnn": (
        ("mnn", STRONG), ("mnnconvert", STRONG), ("not_supported_op", STRONG), ("these op not support", STRONG),
        ("writefb.cpp", STRONG), ("mnn converter", STRONG), ("tools/converter/source", STRONG), ("liteconverter.cpp", STRONG), ("tmpgraph.cpp", STRONG),
    ),
    "ncnn": (
        ("ncnn", STRONG), ("pnnx", STRONG), ("not exists or registered", STRONG), ("ncnn::", STRONG),
        (".param", WEAK), ("nihui", WEAK),
    ),
    "paddle2onnx": (
        ("paddle2onnx", STRONG), ("[paddle2onnx]", STRONG), ("oops, there are some operators not supported", STRONG),
        ("p2o.", STRONG), ("pdmodel", STRONG), ("paddle", WEAK),
    ),
    "torch_onnx": (
        ("torch.onnx", STRONG), ("unsupportedoperatorerror", STRONG), ("to onnx opset version", STRONG),
        ("symbolic_registry", STRONG), ("symbolic_opset", STRONG), ("torch/onnx/", STRONG), ("onnx export of", STRONG),
        ("symbolicvalueerror", STRONG), ("aten::", WEAK), ("prim::", WEAK), ("_run_symbolic_function", STRONG),
    ),
    "tvm": (
        ("tvm", STRONG), ("tvmerror", STRONG), ("relay", WEAK), ("relax", WEAK), ("opnotimplemented", STRONG),
        ("for frontend onnx", STRONG), ("check failed:", WEAK), ("internalerror:", WEAK), ("t.any()", STRONG),
        ("tvmfunccall", STRONG), ("check failed: (", STRONG), ("objecttypechecker", STRONG),
    ),
    "coreml": (
        ("coremltools", STRONG), ("coreml", STRONG), ("mlmodel", STRONG), ("mil ops", STRONG), ("mil_convert", STRONG),
        ("pytorch convert function for op", STRONG), ("ct.convert", STRONG), ("mlpackage", STRONG),
    ),
}


def family_evidence(text: str, lowered: str | None = None) -> dict[str, int]:
    """Evidence weight per family found in ``text`` (families without evidence are left out)."""
    low = text.lower() if lowered is None else lowered
    weights = {family: _weight(markers, low) for family, markers in MARKERS.items()}
    return {family: weight for family, weight in weights.items() if weight}


def _weight(markers: tuple[tuple[str, int], ...], low: str) -> int:
    """The summed weight of the markers present in the lower-cased text."""
    return sum(w for marker, w in markers if marker in low)


def detect_families(text: str, lowered: str | None = None) -> list[str]:
    """Families with strong enough evidence (one strong or three weak markers), best first."""
    evidence = family_evidence(text, lowered)
    ranked = sorted(evidence.items(), key=lambda kv: -kv[1])
    return [family for family, weight in ranked if weight >= STRONG]
