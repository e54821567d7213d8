"""The claimed tools' own failure strings (branch s32d): the coverage script and the entries it led to.

``bench/source_strings.py`` extracts the failure strings of onnx, onnxruntime, TensorRT's ONNX parser,
onnxsim and onnxconverter-common's float16 tools from local copies of their sources, renders each as a
message and asks the KB whether a specific entry answers it.  These tests run its extractors on small
sources written here and its scoring on the committed sample ``tests/data/source_strings/sample.jsonl``
(no wheel or checkout is needed), then check each entry written from the strings it found uncovered.

The messages below are written from the tools' format strings (the files each entry's ``source`` names)
with made-up names and values; none is copied from the evaluation set."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench.eval_explain import specific
from bench.source_strings import (
    binary_literals,
    coverage,
    cpp_calls,
    cpp_message,
    guess,
    main,
    onnx_strings,
    py_messages,
    trt_strings,
    verdict,
)
from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.answer import answer

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "tests" / "data" / "source_strings" / "sample.jsonl"

# ---------------------------------------------------------------- the extractors


def test_cpp_calls_split_top_level_arguments_and_keep_strings_whole() -> None:
    text = 'fail_shape_inference("Input ", i, " has rank ", f(a, b), " != ", rank); // fail_check("x y")'
    calls = list(cpp_calls(text, ("fail_shape_inference", "fail_check")))
    assert [(m, line) for m, line, _ in calls] == [("fail_shape_inference", 1)]  # the comment is not read
    assert calls[0][2] == ['"Input "', "i", '" has rank "', "f(a, b)", '" != "', "rank"]
    assert cpp_message(calls[0][2]) == "Input 4 has rank 7 != 4"


def test_cpp_message_joins_streamed_and_adjacent_literals() -> None:
    args = ['"The sizes input must be 1D. Sizes rank = " << inputs.at(3).weights().shape.nbDims << "."']
    assert cpp_message(args) == "The sizes input must be 1D. Sizes rank = 4."
    assert cpp_message(['"Cannot parse data " "from external tensors: "', "tp->ref_name()"]).startswith(
        "Cannot parse data from external tensors: /model/"
    )


def test_guess_fills_a_placeholder_by_the_name_of_what_fills_it() -> None:
    assert guess("node.op_type()") == "Resize"
    assert guess("shape.dim_size()") == "4"
    assert guess("input_shape") == "[1,3,224,224]"
    assert guess("std::to_string(tensor_proto.data_type())") == "16"
    assert guess("something_else") == "7"


def test_py_messages_read_raises_and_warnings_without_running_them(tmp_path: Path) -> None:
    src = tmp_path / "tool.py"
    src.write_text(
        "import warnings\n"
        "def f(path, name):\n"
        "    if not path:\n"
        "        raise ValueError('source_model_path does not exist: %s' % path)\n"
        "    warnings.warn(f'Duplicate provider {name} encountered, ignoring.')\n"
        "    raise RuntimeError('The model does not have input named \"{}\"'.format(name))\n"
        "    raise KeyError(name)\n",
        encoding="utf-8",
    )
    found = sorted(py_messages(src))
    assert found == [
        (4, "ValueError", "source_model_path does not exist: model.onnx"),
        (5, "UserWarning", "Duplicate provider /model/backbone/Conv_3_output_0 encountered, ignoring."),
        (6, "RuntimeError", 'The model does not have input named "/model/backbone/Conv_3_output_0"'),
    ]
    (tmp_path / "broken.py").write_text("def (:\n", encoding="utf-8")
    assert list(py_messages(tmp_path / "broken.py")) == []  # bad input is normal input


def test_binary_literals_keep_message_like_strings_only() -> None:
    blob = (
        b"\x00The input tensor cannot be reshaped to the requested shape. Input shape:\x00"
        b"Constrain input and output types to float tensors.\x00_ZN11onnxruntime6Tensor\x00"
        b"List of tensors for Sum.\x00short one\x00"
    )
    assert list(binary_literals(blob)) == [
        "The input tensor cannot be reshaped to the requested shape. Input shape:"
    ]


def test_onnx_and_trt_extractors_render_the_tools_envelopes(tmp_path: Path) -> None:
    defs = tmp_path / "onnx" / "onnx" / "defs" / "tensor"
    defs.mkdir(parents=True)
    (defs / "defs.cc").write_text(
        "ONNX_OPERATOR_SET_SCHEMA(\n    Concat,\n    13,\n    OpSchema()\n"
        '  fail_shape_inference("All inputs to Concat must have same rank. Input ", i, " has rank ",\n'
        '      shape.dim_size(), " != ", rank);\n',
        encoding="utf-8",
    )
    (rec,) = onnx_strings(tmp_path / "onnx")
    assert rec["family"] == "onnx" and rec["source"] == "onnx/onnx:onnx/defs/tensor/defs.cc:5"
    assert (
        "Inference error(s): (op_type:Concat, node name: /model/Concat_3): [ShapeInferenceError] "
        in (rec["message"])
    )
    trt = tmp_path / "trt"
    trt.mkdir()
    (trt / "onnxOpImporters.cpp").write_text(
        "DEFINE_BUILTIN_OP_IMPORTER(Where)\n{\n"
        "    ASSERT_NODE((cDims.nbDims == xDims.nbDims),\n"
        '        "The rank must match. Rank = " << cDims.nbDims << ".",\n'
        "        node, nodeIdx, ErrorCode::kINVALID_NODE);\n}\n",
        encoding="utf-8",
    )
    (rec,) = trt_strings(trt)
    assert rec["fmt"] == "Assertion failed: (cDims.nbDims == xDims.nbDims): The rank must match. Rank = 4."
    assert "ERROR: onnxOpImporters.cpp:3 In function importWhere:\n[6] Assertion failed" in rec["message"]


# ---------------------------------------------------------------- the scoring, on the committed sample


def _sample() -> list[dict[str, str]]:
    return [json.loads(x) for x in SAMPLE.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_the_sample_strings_written_for_land_on_their_entries(kb: KnowledgeBase) -> None:
    covered = [r for r in _sample() if r.get("covered_by")]
    assert len(covered) >= 20
    for r in covered:
        assert verdict(kb, r) == ("entry", r["covered_by"]), r["message"][-120:]


def test_coverage_counts_every_sample_string_once(kb: KnowledgeBase) -> None:
    records = _sample()
    table, gaps = coverage(kb, records)
    assert sum(sum(c.values()) for c in table.values()) == len(records)
    assert {f for f, c in table.items() if c} == {"onnx", "onnxruntime", "tensorrt", "onnxsim", "float16"}
    assert all(g["verdict"] != "entry" for g in gaps)
    assert len(gaps) == len(records) - sum(c["entry"] for c in table.values())


def test_a_catch_all_quote_is_not_counted_as_an_entry(kb: KnowledgeBase) -> None:
    """onnx-ValidationError-14 quotes any '[ShapeInferenceError] ...' text: the tool is right, the advice is
    the quoted line, so the script counts it as a card."""
    record = {
        "family": "onnx",
        "message": "onnx.onnx_cpp2py_export.shape_inference.InferenceError: [ShapeInferenceError] Inference "
        "error(s): (op_type:Gather, node name: /g): [ShapeInferenceError] Zorbly frobnication is unwired",
    }
    assert verdict(kb, record)[0] == "card"


def test_the_script_prints_its_table_from_extracted_strings(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--strings", str(SAMPLE)])
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["tool", "strings", "entry", "clause", "card", "other"]
    assert out[-1].split()[:2] == ["all", str(len(_sample()))]


# ---------------------------------------------------------------- the entries

ORT = "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : "
ORT_RUN = "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running {} node. "
ONNX_SI = "onnx.onnx_cpp2py_export.shape_inference.InferenceError: [ShapeInferenceError] Inference error(s): "
CHECKER = "onnx.onnx_cpp2py_export.checker.ValidationError: "
TRT = "[12/01/2026-10:00:00] [TRT] [E] ModelImporter.cpp:953: ERROR: onnxOpImporters.cpp:{} In function {}:\n"

CASES = [
    (
        ONNX_SI
        + "(op_type:Concat, node name: /head/Concat_4): [ShapeInferenceError] All inputs to Concat must "
        "have same rank. Input 2 has rank 3 != 4",
        "onnx-s32d-concat-rank-mismatch",
        {"op_type": "Concat", "node": "/head/Concat_4", "index": "2", "rank": "3", "value": "4"},
    ),
    (
        ORT
        + "Node (/enc/Concat_9) Op (Concat) [ShapeInferenceError] All inputs to Concat must have same rank. "
        "Input 1 has rank 0 != 1",
        "onnx-s32d-concat-rank-mismatch",
        {"name": "/enc/Concat_9", "op": "Concat", "index": "1", "rank": "0"},
    ),
    (
        ONNX_SI
        + "(op_type:Split, node name: /qkv/Split): [ShapeInferenceError] Sum of split values not equal "
        "to 'input' dim size on 'axis'. 'axis' dim size=192 sum of split values=256",
        "onnx-s32d-split-sum-mismatch",
        {"node": "/qkv/Split", "value": "192", "value2": "256"},
    ),
    (
        ORT + "Node (/Reshape_2) Op (Reshape) [ShapeInferenceError] Cannot parse data from external tensors. "
        "Please load external data into raw_data for tensor: onnx::Reshape_77",
        "onnx-s32d-external-tensor-not-loaded",
        {"tensor": "onnx::Reshape_77"},
    ),
    (
        ONNX_SI.replace("[ShapeInferenceError]", "[TypeInferenceError]") + "(op_type:Transpose, node name: "
        "/blk/Transpose): [TypeInferenceError] Attribute perm for Transpose has repeated value: 2",
        "onnx-s32d-transpose-perm-repeated",
        {"node": "/blk/Transpose", "value": "2"},
    ),
    (
        ONNX_SI
        + "(op_type:Range, node name: /pos/Range): [ShapeInferenceError] All inputs to 'Range' op must "
        "be of the same type",
        "onnx-s32d-range-input-types",
        {"op_type": "Range", "node": "/pos/Range"},
    ),
    (
        ONNX_SI
        + "(op_type:QLinearConv, node name: conv_q): [TypeInferenceError] weight and zero_point pair is "
        "expected to have same type in QLinearConv.",
        "onnx-s32d-qlinear-zero-point-type",
        {"node": "conv_q", "input": "weight"},
    ),
    (
        ONNX_SI
        + "(op_type:SequenceInsert, node name: seq_ins): [TypeInferenceError] Input type for input at "
        "index 1 is null. Type info is expected.",
        "onnx-s32d-sequence-input-type-null",
        {"node": "seq_ins", "index": "1"},
    ),
    (
        CHECKER
        + "Opset import for domain custom.ops in function op GeluFn is not compatible with the version "
        "imported by model. FunctionOp imports version 1 whereas model imports version 2",
        "onnx-s32d-function-opset-incompatible",
        {"domain": "custom.ops", "op": "GeluFn", "version": "1", "version2": "2"},
    ),
    (
        CHECKER
        + "Attribute 'keepdims' appeared multiple times.\n\n==> Context: Bad node spec for node. Name: "
        "/ReduceMean OpType: ReduceMean",
        "onnx-s32d-attribute-repeated",
        {"attr": "keepdims"},
    ),
    (
        CHECKER + "TensorProto ( tensor name: decoder.embed.weight) is stored externally but doesn't have a "
        "location.",
        "onnx-s32d-external-data-no-location",
        {"tensor": "decoder.embed.weight"},
    ),
    (
        CHECKER + "setting data_type field (tensor name: alpha_init) to UNDEFINED is not allowed",
        "onnx-s32d-data-type-undefined",
        {"tensor": "alpha_init", "option": "data_type"},
    ),
    (
        CHECKER + "NodeProto (name: dangling_cast, type: Cast) has zero input and zero output.",
        "onnx-s32d-node-zero-io",
        {"node": "dangling_cast", "op": "Cast"},
    ),
    (
        ORT_RUN.format("ReduceMin")
        + "Name:'/nms/ReduceMin' Status Message: Can't reduce on dim with value of 0 "
        "if 'keepdims' is false. Invalid output shape would be produced. input_shape:{0,80}",
        "onnxruntime-s32d-reduce-zero-dim",
        {"shape": "{0,80}"},
    ),
    (
        ORT + "Load model from det.onnx failed:Dilations dimensions should match kernel shape",
        "onnxruntime-s32d-conv-attr-vs-kernel",
        {"attr": "Dilations"},
    ),
    (
        ORT + "The pads attribute cannot be used simultaneously with auto_pad attribute",
        "onnxruntime-s32d-pads-with-auto-pad",
        {},
    ),
    (
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from loop.onnx failed:This is an invalid "
        "model. "
        "Error: the graph is not acyclic.",
        "onnxruntime-s32d-graph-not-acyclic",
        {},
    ),
    (
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from m.onnx failed:This is an invalid model. "
        "Tensor does not have type information.",
        "onnxruntime-s32d-tensor-no-type-info",
        {},
    ),
    (
        ORT
        + "Load model from r.onnx failed:Type Error: Shape of initializer head.bias does not match. {80} != "
        "{1000}",
        "onnxruntime-s32d-initializer-shape-mismatch",
        {"tensor": "head.bias", "shape": "{80}"},
    ),
    (
        ORT + "Load model from /srv/m.onnx failed:Absolute path not allowed for external data location",
        "onnxruntime-s32d-external-data-absolute-path",
        {},
    ),
    (
        "[12/01/2026-10:00:00] [TRT] [E] WeightsContext.cpp:203: ONNX initializer model.fc.weight cannot be "
        "imported into TensorRT!",
        "tensorrt-s32d-initializer-cannot-import",
        {"tensor": "model.fc.weight"},
    ),
    (
        TRT.format(310, "importBatchNormalization")
        + "[6] Assertion failed: (inputs.at(3).shape().nbDims == 1): "
        "The shape of the mean input must be (C, )",
        "tensorrt-s32d-batchnorm-param-rank",
        {"input": "mean"},
    ),
    (
        "ERROR: importerUtils.cpp:821 In function importMaxPool:\n"
        '[6] Assertion failed: !attrs.count("pads") && '
        '"Pads attribute should not be specified with SAME_LOWER or SAME_UPPER auto padding!"',
        "tensorrt-s32d-pads-with-same-autopad",
        {},
    ),
    (
        TRT.format(6043, "importWhere")
        + "[6] Assertion failed: (cDims.nbDims == yDims.nbDims): The rank of the "
        "condition input tensor must be the same of the input y tensor. Rank of the condition input "
        "tensor = 3, "
        "rank of the input y tensor = 1.",
        "tensorrt-s32d-where-condition-rank",
        {"input": "y", "rank": "3", "value": "1"},
    ),
    (
        TRT.format(1249, "importDepthToSpace")
        + "[8] Assertion failed: (inputs.at(0).shape().nbDims == 4): The "
        "input tensor must be in NCHW format.",
        "tensorrt-s32d-nchw-required",
        {},
    ),
    (
        TRT.format(4516, "importResize")
        + "[6] Assertion failed: (inputs.at(3).weights().shape.nbDims == 1): The "
        "sizes input must be 1D. Sizes rank = 2.",
        "tensorrt-s32d-resize-scales-rank",
        {"input": "sizes", "rank": "2"},
    ),
    (
        "ValueError: Input images was not found in graph inputs. Valid input names are: input.1,im_info",
        "onnxruntime-s32d-fix-shape-input-not-found",
        {"input": "images", "value": "input.1,im_info"},
    ),
    ("ValueError: Rank mismatch. Existing:3 Replacement:4", "onnxruntime-s32d-fix-shape-rank-mismatch", {}),
    (
        "ValueError: Can't replace existing fixed size of 640 with 320 for dimension 3",
        "onnxruntime-s32d-fix-shape-fixed-size",
        {"value": "640", "value2": "320", "index": "3"},
    ),
    ("ValueError: Unknown dtype 17", "onnxsim-s32d-unknown-dtype", {"dtype": "17"}),
    (
        "ValueError: source_model_path does not exist: /data/fp32/unet.onnx",
        "float16-s32d-amp-source-path-missing",
        {"path": "/data/fp32/unet.onnx"},
    ),
]


@pytest.mark.parametrize(
    ("message", "entry_id", "want"), CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)]
)
def test_each_source_string_entry_answers_its_message(
    kb: KnowledgeBase, message: str, entry_id: str, want: dict[str, str]
) -> None:
    ans = answer(kb, message, top=3)
    top = ans.matches[0]
    assert top.entry.id == entry_id, [m.entry.id for m in ans.matches]
    assert top.entry.family == entry_id.split("-", 1)[0]
    assert ans.confidence == "high"
    captures = dict(top.captures)
    assert {k: captures.get(k) for k in want} == want
    advice = f"{top.cause} {top.fix}"
    for value in want.values():
        assert value in advice, (value, advice)
    assert re.search(r"\{[a-z_]+\d?(?:\|[^{}]*)?\}", advice) is None, advice  # every placeholder filled
    assert specific(top) == (True, "")


def test_the_pads_entry_leaves_onnx_inference_text_to_onnx(kb: KnowledgeBase) -> None:
    """The same sentence is onnx's convPoolShapeInference text: under onnx's '[ShapeInferenceError]' it is not
    onnxruntime's answer."""
    text = ONNX_SI + "(op_type:Conv, node name: c1): [ShapeInferenceError] The pads attribute cannot be used "
    text += "simultaneously with auto_pad attribute"
    assert kb.lookup(text, top=1)[0].entry.family == "onnx"


def test_a_bare_unknown_dtype_phrase_of_another_tool_is_not_onnxsim(kb: KnowledgeBase) -> None:
    ranked = kb.lookup("TypeError: Unknown dtype object passed to tensor constructor", top=3)
    assert not any(m.entry.id == "onnxsim-s32d-unknown-dtype" and m.reason == "pattern" for m in ranked)
    shown = answer(kb, "TypeError: Unknown dtype object passed to tensor constructor", top=3)
    assert not shown.confident or shown.matches[0].entry.id != "onnxsim-s32d-unknown-dtype"
