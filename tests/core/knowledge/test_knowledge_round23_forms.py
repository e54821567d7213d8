"""Round 23's dev forms that got no entry, another tool's or only a family card, each given its cause and fix
from the tool's own source (issue 23), and the rule that protobuf's own decoding sentence names SigmaStar's
converter only where the message names SigmaStar.

Messages are written around the sentence each tool prints (its source is named in the entry) with made-up
names and values, not copied from the evaluation set.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

CASES = [
    (
        "RuntimeError: [Error thrown at core/util/trt_util.cpp:212] axis >= 0 && axis < d.nbDims "
        "ASSERT FAILED at core/util/trt_util.cpp:212, consider filing a bug: https://www.github.com/NVIDIA/Torch-TensorRT/issues\n"
        "    ERROR: Index to squeeze is out of bounds.",
        "tensorrt-torch-tensorrt-assert-failed",
        ("axis >= 0 && axis < d.nbDims", "core/util/trt_util.cpp:212", "torch_executed_ops"),
    ),
    (
        'Error converting operator BitShift, with inputs: [R.const(1, "int64"), lv7]',
        "tvm-relax-onnx-error-converting-operator",
        ("BitShift", "_get_convert_map"),
    ),
    (
        "[rank3]:[E1201 08:00:01.000000001 compiler_depend.ts:422] setup failed!\n"
        "Exception raised from OperationSetup at build/third_party/op-plugin/op_plugin/CMakeFiles/"
        "op_plugin_atb.dir/compiler_depend.ts:131 (most recent call first):",
        "ascend-torch-npu-atb-operation-setup-failed",
        ("nnal/atb/set_env.sh", "ASCEND_GLOBAL_LOG_LEVEL"),
    ),
    (
        "[Error: Can't load a model: Can't create InferenceSession]",
        "onnxruntime-react-native-cant-create-session",
        ("adb logcat", "documents directory"),
    ),
    (
        "[2026-01-02 10:00:00.000][7][modelmanager][warning][modelmanager.cpp:1354] Expected version "
        "directory name to be a number greater than 0. Got: 0",
        "openvino-ovms-model-version-directory",
        ("'0'", "<base_path>/1/model.xml"),
    ),
    (
        "[2026-01-02 10:00:00.000][7][modelmanager][warning][modelmanager.cpp:1366] No version found for "
        "model in path: /srv/models/detector",
        "openvino-ovms-model-version-directory",
        ("/srv/models/detector", "<base_path>/1/model.xml"),
    ),
    (
        '  File "chat.py", line 40, in run\n    pipe.generate(prompt, config, streamer)\n'
        'RuntimeError: Tried to call pure virtual function "StreamerBase::end"',
        "openvino-genai-streamer-pure-virtual",
        ("end method", "StreamingStatus"),
    ),
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
        "Failed to compile: Must use --truncate_64bit_io when input tensors have type int64.",
        "qualcomm-aihub-truncate-64bit-io",
        ("--truncate_64bit_io", "int32"),
    ),
    (
        '  File "convert.py", line 9, in main\n    m = onnx.load("net.onnx")\n'
        "google.protobuf.message.DecodeError: Protobuf decoding consumed too few bytes: 10 out of 51200",
        "onnx-load-protobuf-decode-error",
        ("git lfs pull", "checksum"),
    ),
    (
        "ai.onnxruntime.OrtException: Error code - ORT_INVALID_ARGUMENT - message: ONNX format model is not "
        "supported in this build.",
        "onnxruntime-minimal-build-onnx-format-not-supported",
        ("convert_onnx_models_to_ort", ".ort"),
    ),
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
    (
        "AttributeError: module 'tvm.relax.frontend' has no attribute 'onnx'",
        "tvm-relax-frontend-no-attribute-onnx",
        ("from tvm.relax.frontend.onnx import from_onnx", "pip install onnx"),
    ),
    (
        "E RKNNAPI: rknn_init,  driver open fail!  ret = -9(ERROR_NOT_SUPPORTED)!",
        "rknn-runtime-driver-open-fail",
        ("/sys/kernel/debug/rknpu/version", "--device /dev/dri"),
    ),
    (
        "ValueError: Message ONNX_REL_1_7.ModelProto exceeds maximum protobuf size of 2GB: 2400000000",
        "onnx-proto-exceeds-2gb",
        ("ModelProto", "2400000000"),
    ),
    (
        "2026-01-01 10:00:00.000000+0000 Demo[101:2020] [coreml] Failure verifying inputs.",
        "coreml-failure-verifying-inputs",
        ("inputDescriptionsByName", "CVPixelBuffer"),
    ),
    (
        "[ERROR] LITE(42,converter_lite):2026-01-01-10:00:00.000.000 [mindspore/lite/tools/anf_importer/"
        "import_from_mindir.cc:911] ReadOnnxFromBinary] Read onnx model file failed, which is not a matched "
        "onnx model",
        "ascend-mindspore-lite-converter-not-matched-model",
        ("--fmk=MINDIR", "mindspore.export"),
    ),
    (
        "OSError: /opt/app/lib/libfoo.so: invalid ELF header",
        "runtime-invalid-elf-header",
        ("/opt/app/lib/libfoo.so", "git lfs pull"),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)]
)
def test_round23_form_has_its_own_cause_and_fix(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_protobufs_decoding_sentence_is_sigmastars_only_where_sigmastar_is_named(kb: KnowledgeBase) -> None:
    """Python's protobuf prints the sentence for any truncated or foreign file; SigmaStar's reading of it (a
    file passed to the wrong ConvertTool sub-command) applies where the message names SigmaStar's tool."""
    text = "google.protobuf.message.DecodeError: Protobuf decoding consumed too few bytes"
    assert kb.lookup(text, top=1)[0].entry.id == "onnx-load-protobuf-decode-error"
    named = "python3 SGS_IPU_SDK/Scripts/ConvertTool/ConvertTool.py onnx --model_file net.onnx\n" + text
    assert kb.lookup(named, top=1)[0].entry.id == "sigmastar-google-protobuf-message-decodeerror-protobuf"


def test_axera_proc_files_name_axera_as_not_covered(kb: KnowledgeBase) -> None:
    found = kb.answer("Failed to open /proc/ax_proc/mem_cmm_info", top=3)
    assert found.uncovered is not None and found.uncovered[0] == "axera"
