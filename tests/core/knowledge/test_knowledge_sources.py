"""Entries harvested from the newly claimed tools' own sources (issue 12, class "no entry at all").

Each case below is a message written here by filling a tool's format string (the throw/log
site named in the entry's ``source``) with values of our own; none comes from the evaluation
set.  The specific entry must answer first, above the tool's family-level entry.
"""

from __future__ import annotations

import json
from importlib import resources

import pytest

from dumpscope.core.knowledge import KnowledgeBase, extract_codes
from dumpscope.core.knowledge.codes import range_keys, scheme_family
from dumpscope.core.knowledge.family import detect_families

KB_TEXT = resources.files("dumpscope.core.knowledge").joinpath("kb.jsonl").read_text(encoding="utf-8")
RAW = [json.loads(line) for line in KB_TEXT.splitlines() if line.strip()]

NEW_FAMILIES = ("openvino", "tflite", "qualcomm", "mnn", "ncnn", "paddle2onnx", "torch_onnx", "tvm", "coreml")


FILLED = [
    # OpenVINO (src/inference, src/core, frontends, plugins)
    (
        "openvino-unable-to-read-model",
        "Unable to read the model: C:\\models\\det.onnx Please check that model format: onnx is supported "
        "and the model is correct. Available frontends: ir paddle",
    ),
    (
        "openvino-device-not-registered",
        'RuntimeError: Exception from src/inference/src/cpp/core.cpp:99:\nDevice with "NPU" name is not '
        "registered in the OpenVINO Runtime",
    ),
    (
        "openvino-incorrect-weights-bin",
        "Exception from src/frontends/ir/src/ir_deserializer.cpp:412:\nIncorrect weights in bin file!",
    ),
    (
        "openvino-tensor-shape-incompatible",
        "Can't set the input tensor with name: pixel_values, because the model input (shape=[1,3,384,384]) "
        "and the tensor (shape=(2.3.384.384)) are incompatible",
    ),
    ("openvino-legacy-precision-unspecified", "cannot estimate element if precision is MIXED"),
    # TFLite / LiteRT (kernels, interpreter, python wrapper, delegates, converter)
    (
        "tflite-ensure-eq",
        "ERROR: tensorflow/lite/kernels/conv.cc:371 input_channel % filter_input_channel != 0 (2 != 0)",
    ),
    (
        "tflite-ensure-not-true",
        "tensorflow/lite/kernels/gather.cc:125 params->batch_dims <= axis was not true.",
    ),
    (
        "tflite-set-tensor-dim-mismatch",
        "ValueError: Cannot set tensor: Dimension mismatch. Got 3 but expected 4 for input 2.",
    ),
    (
        "tflite-select-tf-ops-not-supported",
        "E/tflite: Select TensorFlow op(s), included in the given model, is(are) not supported by this "
        "interpreter.",
    ),
    (
        "tflite-didnt-find-builtin-op",
        "Didn't find op for builtin opcode 'GELU' version '2'. An older version of this builtin might be "
        "supported.",
    ),
    # Qualcomm SNPE / QNN
    (
        "snpe-1002",
        "error_code=1002; error_message=Layer parameter value is invalid. Layer conv_9: kernel 9x9; "
        "error_component=Model Validation; line_no=811; thread_id=4242",
    ),
    ("snpe-904", "Snpe_SNPEBuilder_Build failed: SNPE_ERRORCODE_DSP_STUB_NOT_PRESENT"),
    ("qualcomm-failed-to-load-skel", "0.4ms [ ERROR ] QnnDsp <E> Failed to load skel, error: 1002"),
    # MNN
    ("mnn-compute-shape-error", "Compute Shape Error for /backbone/Concat_7"),
    ("mnn-run-session-not-resized", "E/MNNJNI: Can't run session because not resized"),
    ("mnn-resize-error-for-type", "Resize error for type = Attention, name = attn_3"),
    # ncnn / pnnx
    ("ncnn-find-blob-failed", "find_blob_index_by_name output0 failed"),
    ("ncnn-load-model-inconsistent", "load_model error at layer 3, parameter file has inconsistent content."),
    ("pnnx-dynamic-no-inputshape2", "model has dynamic dimension size, but no inputshape2 specified"),
    # Paddle2ONNX
    (
        "paddle2onnx-requires-opset",
        "[Paddle2ONNX] Due to the operator: roi_align, requires opset_version >= 16.",
    ),
    ("paddle2onnx-cannot-find-attribute", "Cannot found attribute axis in op: flatten_contiguous_range"),
    (
        "paddle2onnx-legacy-mapping-node-error",
        "Exception: Error happened when mapping node ['pool2d_9'] to onnx, which op_type is 'pool2d' with "
        "inputs: {} and outputs: {}, specific error: ceil_mode",
    ),
    # torch.onnx
    (
        "torch-onnx-symbolic-wrong-output-count",
        "RuntimeError: symbolic for aten::topk produced an incorrect number of outputs (expected 3, but got "
        "2)",
    ),
    (
        "torch-onnx-unrecognized-namespace",
        "ONNX export failed on an operator with unrecognized namespace 'torchvision::deform_conv2d'.",
    ),
    (
        "torch-onnx-unsupported-in-opset",
        "torch.onnx.errors.SymbolicValueError: Unsupported: ONNX export of Resize in opset 9. Please try "
        "opset version 11.",
    ),
    # TVM
    (
        "tvm-reshape-not-compatible",
        "Check failed: oshape_sum == data_shape_sum (768 vs. 1536) : Input tensor shape and reshaped shape "
        "are not compatible",
    ),
    (
        "tvm-incompatible-broadcast",
        "Incompatible broadcast type TensorType([8, 16], float32) and TensorType([8, 3], float32)",
    ),
    ("tvm-opset-not-implemented", "NotImplementedError: opset version 13 of Split not implemented"),
    # Core ML (coremltools)
    ("coreml-torch-var-not-found", "ValueError: Torch var hidden_states.1 not found in context forward"),
    (
        "coreml-op-input-not-const",
        'ValueError: Op "slice_by_index_3" (op_type: slice_by_index) Input begin must be const at compile '
        "time",
    ),
    (
        "coreml-unable-to-load-framework",
        "Exception: Unable to load CoreML.framework. Cannot make predictions.",
    ),
]


@pytest.mark.parametrize(("entry_id", "message"), FILLED, ids=[f"{i}:{e}" for i, (e, _) in enumerate(FILLED)])
def test_filled_source_format_answers_with_its_entry(kb: KnowledgeBase, entry_id: str, message: str) -> None:
    matches = kb.lookup(message, top=3)
    assert matches, message
    assert matches[0].entry.id == entry_id, [(m.entry.id, m.score, m.reason) for m in matches]


def test_each_new_family_has_cases_here() -> None:
    families = {next(r["family"] for r in RAW if r["id"] == entry_id) for entry_id, _ in FILLED}
    assert families == set(NEW_FAMILIES)


def test_every_entry_of_the_new_families_has_a_source_and_a_family() -> None:
    """Each entry names where it was read: a repository path (``owner/repo...: path``) or a document URL."""
    for raw in RAW:
        if raw["family"] not in NEW_FAMILIES:
            continue
        source = raw["source"].strip()
        assert raw["family"] and source, raw["id"]
        assert "http" in source or "/" in source, (raw["id"], source)


@pytest.mark.parametrize("family", NEW_FAMILIES)
def test_each_new_family_has_specific_entries(family: str) -> None:
    """Beyond the family-level entry, each tool has entries of its own messages (most from its sources)."""
    specific = [r for r in RAW if r["family"] == family and r.get("level") != "family" and r["pattern"]]
    assert len(specific) >= 10, (family, len(specific))


def test_harvested_entry_outranks_the_family_level_entry(kb: KnowledgeBase) -> None:
    """A message carrying an MNN marker answers with its own entry, above 'family-mnn'."""
    matches = kb.lookup("MNN: Error: can't find input: data_0", top=3)
    ids = [m.entry.id for m in matches]
    assert ids[0] == "mnn-cant-find-input"
    assert "family-mnn" in ids[1:]


# --- SNPE codes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            "error_code=304; error_message=Layer parameter is invalid; error_component=Dl Container;",
            "snpe:304",
        ),
        ("SNPE_ERRORCODE_NETWORK_EXECUTION_FAILED", "snpe:SNPE_NETWORK_EXECUTION_FAILED"),
        ("zdl::DlSystem::ErrorCode::SNPE_CONFIG_WRONG_INPUT_NAME", "snpe:SNPE_CONFIG_WRONG_INPUT_NAME"),
    ],
)
def test_snpe_codes_are_extracted(text: str, key: str) -> None:
    assert key in [c.key for c in extract_codes(text)]


def test_snpe_success_is_not_a_code() -> None:
    assert not [c for c in extract_codes("status SNPE_SUCCESS") if c.key.startswith("snpe:")]


def test_snpe_scheme_names_qualcomm_and_its_hundred_blocks() -> None:
    assert scheme_family("snpe:904") == "qualcomm"
    assert range_keys("snpe:904") == ["snpe:9xx"]
    assert range_keys("snpe:1009") == ["snpe:10xx"]
    assert range_keys("snpe:SNPE_DSP_STUB_NOT_PRESENT") == []


def test_snpe_name_and_number_pin_the_same_entry(kb: KnowledgeBase) -> None:
    by_number = kb.lookup("error_code=312; error_message=bad format; error_component=Dl Container;", top=1)
    by_name = kb.lookup("SNPE_ERRORCODE_DLCONTAINER_BAD_DNN_FORMAT_VERSION", top=1)
    assert by_number[0].entry.id == by_name[0].entry.id == "snpe-312"
    assert "snpe:312" in by_number[0].codes


def test_snpe_code_without_entry_falls_back_to_its_block(kb: KnowledgeBase) -> None:
    matches = kb.lookup(
        "error_code=915; error_message=quantization type; error_component=DSP Runtime;", top=3
    )
    assert matches[0].entry.id == "snpe-range-9xx"
    assert matches[0].entry.family == "qualcomm"


# --- markers learnt from the harvest ------------------------------------------------------


def test_read_model_failure_names_openvino_although_it_lists_other_frontends() -> None:
    text = (
        "Unable to read the model: net.bin Please check that model format: bin is supported and the model "
        "is correct. Available frontends: tflite paddle pytorch tf onnx ir"
    )
    assert detect_families(text)[0] == "openvino"
