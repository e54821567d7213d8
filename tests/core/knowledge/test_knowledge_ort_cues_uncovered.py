"""Session s32c: onnxruntime's own inner forms cue it when its envelope is gone, and more uncovered tools.

* With ``[ONNXRuntimeError] : N : CODE :`` and its other markers blanked (or never pasted), what is left of
  onnxruntime's own text is the inner form its sources print around the node, the operator or the feed: each
  counts as one of its 4-grams for :func:`dumpscope.core.knowledge.kb.wording_cue` (``kb._ENVELOPE_CUES``).
* Arm NN, AMD MIGraphX, Apple MLX and other uncovered tools' markers (:data:`.markers.UNCOVERED`) name them.

The messages are written for these tests in the tools' public forms (their source strings) with made-up
contents; none is copied from the evaluation set."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_uncovered, source_gram_counts, source_name_counts
from dumpscope.core.knowledge.kb import wording_cue
from dumpscope.core.knowledge.markers import UNCOVERED

S32C_UNCOVERED = {
    "ti_tidl",
    "arm_nn",
    "amd_migraphx",
    "apple_mlx",
    "kendryte_nncase",
    "tencent_tnn",
    "arm_ethos_u",
}
"""The uncovered tools session s32c named (TI TIDL and Arm NN were one "other_edge" family before)."""

ORT_INNER = [
    # graph.cc, InferAndVerifyTypeMatch: "Node (", name, ") Op (", type, ") ", onnx's reason
    "Fail: Node (blk_7/add_2) Op (Add) [widget] mismatched operands",
    # the same, pasted with its spaces lost
    "Fail:Node(blk_7)Op (Squeeze)[widget] the axes are odd",
    # graph.cc: the node input's type check ("Type Error:" left out: a marker)
    "'tensor(int8)' of input parameter (frob/shape) of operator (Frob) in node (frob_1) is invalid.",
    # the kernel look-up, as session_state.cc and graph_partitioner.cc (older) print it (their first words
    # are a marker)
    "Error: Frob(17) node with name '/frob/Frob_3'",
    "Error: the node frob_3:Frob(9)",
    # inference_session.cc: the feeds' rank, dimensions and element type (the sentences before them are
    # markers)
    "Error: pixel_frob Got: 3 Expected: 4",
    "Error: Actual: (tensor(int64)) , expected: (tensor(float))",
    # the log line's location (CodeLocation::ToString between ", " and "] ")
    "2031-02-03 04:05:06.123456789 [E:x:Default, frob_runner.cc:412 RunFrob] the widget stalled",
    # ORT_ENFORCE's exception
    "/src/core/framework/frob_planner.cc:88 void PlanFrob(int) widget_count > 0 was false. no widgets",
]


@pytest.mark.parametrize("text", ORT_INNER)
def test_onnxruntimes_inner_forms_cue_it_without_its_envelope(kb: KnowledgeBase, text: str) -> None:
    assert kb.named_families(text) == []
    assert "onnxruntime" not in source_gram_counts(text.lower())  # no 4-gram of its own survives the names
    assert wording_cue(text.lower()) == ("onnxruntime",)
    assert kb.lookup(text, top=1)[0].entry.family == "onnxruntime"


LOOK_ALIKES = [
    # glog's location has no function before the bracket
    "I0203 04:05:06.123 frob.cc:412] the widget stalled",
    # a plain comparison without onnxruntime's spacing
    "shape mismatch: got 3, expected 4",
    "Actual: 3 expected: 4",
    # an operator named in passing, with no version in brackets
    "the node Frob has no kernel",
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_of_onnxruntimes_inner_forms_cue_nothing(text: str) -> None:
    assert wording_cue(text.lower()) == ()


UNCOVERED_CASES = [
    # TI TIDL's importer (edgeai-tidl-tools): the word TIDL alone now names it
    ("ti_tidl", "Unsupported (import) TIDL layer type --- 0  op type --- Frob"),
    # Arm NN: the runtime's start line with its tools' error line, a backend ID, its source tree
    ("arm_nn", "ArmNN v20250500\nArmnn Error: the frob backend is unavailable"),
    ("arm_nn", "Layer of type Frob is not supported on requested backend GpuAcc (reason: see armnn::Frob)"),
    ("arm_nn", "not implemented [/build/armnn/src/backends/backendsCommon/FrobSupport.cpp:12]"),
    # AMD MIGraphX: its C API's error line, its exception class, its source tree
    ("amd_migraphx", "MIGraphX Error: /src/frob.cpp:12: parse_frob: Unknown operator: Frob"),
    (
        "amd_migraphx",
        "terminate called after throwing an instance of 'migraphx::version_1::exception'\n"
        "  what():  /src/include/migraphx/op/frob.hpp:72: inconsistent frobs",
    ),
    ("amd_migraphx", "/opt/AMDMIGraphX/src/include/migraphx/op/frob.hpp:72: inconsistent frobs"),
    # Apple MLX: its Metal backend's device errors, its modules
    ("apple_mlx", "RuntimeError: [metal::Device] Unable to load kernel frob_float16_bc32"),
    ("apple_mlx", "ValueError from mlx.core.frob: [frob] shapes do not agree"),
    ("apple_mlx", "python -m mlx_lm.generate failed: the frob is missing"),
    # Kendryte nncase
    ("kendryte_nncase", "at NnCase.Converter.K210.Converters.FrobConverter.Convert(Frob frob)"),
    ("kendryte_nncase", "cannot write frob.kmodel: the frob is too large"),
    # Tencent TNN: its namespace, source tree and Android log tag
    (
        "tencent_tnn",
        "E/tnn: tnn::Status tnn::FrobLayer::Init() [File source/tnn/layer/frob.cc][Line 12] bad frob",
    ),
    # Arm Ethos-U's Vela compiler
    ("arm_ethos_u", "Warning: FROB 'model/frob' is not supported on the NPU. Placing on CPU instead"),
    ("arm_ethos_u", "ethos-u-vela: the frob does not fit the Ethos-U55 SRAM"),
]


@pytest.mark.parametrize(("family", "message"), UNCOVERED_CASES)
def test_more_uncovered_tools_are_named(kb: KnowledgeBase, family: str, message: str) -> None:
    found = kb.answer(message)
    assert found.uncovered == (family, UNCOVERED[family][0])


def test_the_session_s_uncovered_tools_each_have_cases() -> None:
    assert {family for family, _ in UNCOVERED_CASES} == S32C_UNCOVERED <= set(UNCOVERED)


COVERED_NEIGHBOURS = [
    # TFLite's benchmark tool naming Arm NN's delegate it loads: TFLite's message
    (
        "tflite",
        "INFO: TfLiteArmnnDelegate: Created TfLite ArmNN delegate.\nFailed to apply EXTERNAL delegate.",
    ),
    # onnxruntime's MIGraphX execution provider: its name is onnxruntime's
    (
        "onnxruntime",
        "onnxruntime_pybind_state.cc:966 CreateExecutionProviderInstance Invalid MIGraphX EP option: "
        "migraphx_frob when using [('MIGraphXExecutionProvider', {})]",
    ),
    # Tenstorrent's ttnn:: holds tnn::
    ("tenstorrent", "TT_FATAL @ ttnn::operations::frob: the frob is odd"),
]


@pytest.mark.parametrize(("family", "message"), COVERED_NEIGHBOURS)
def test_neighbours_of_the_new_markers_keep_their_tool(kb: KnowledgeBase, family: str, message: str) -> None:
    found = kb.answer(message)
    said = found.uncovered[0] if found.uncovered else kb.lookup(message, top=1)[0].entry.family
    assert said == family


@pytest.mark.parametrize(
    "text", ["checkmodel failed: the frob is odd", "farm nn layer", "the frob of attnn::x was odd"]
)
def test_look_alikes_of_the_new_markers_name_no_uncovered_tool(text: str) -> None:
    assert detect_uncovered(text) == []


@pytest.mark.parametrize(
    "name",
    [
        "fill_any_like",
        "write_to_array",
        "tensor_array_to_tensor",
        "lod_array_length",
        "generate_proposals_v2",
    ],
)
def test_a_paddle_operator_type_names_no_tool(name: str) -> None:
    # OpenVINO's Paddle frontend is the only library read that spells these: a Paddle program's node type,
    # which Paddle2ONNX prints as well, is no OpenVINO name (bench/build_source_grams.py PADDLE_OPERATORS)
    assert source_name_counts(f"cannot convert '{name}_0', whose op_type is '{name}'") == {}
