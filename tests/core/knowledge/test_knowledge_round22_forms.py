"""Round 22's dev forms that got no entry, each given its cause and fix from the tool's own source, and the
rule that a process ending (a signal after a tool's own error line) ranks under what failed (issue 23).

Messages are written around the sentence each tool prints (its source is named in the entry) with made-up
names and values, not copied from the evaluation set.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.kb import is_process_ending
from tests.support.advice import assert_answered

CASES = [
    (
        "NotImplementedError: Unsupported ONNX ops of type: NonZero,ScatterND",
        "coreml-onnx-converter-unsupported-op-types",
        ("NonZero,ScatterND", "ct.convert"),
    ),
    (
        "Error: cannot resolve operator 'GatherND' with opsets: ai.onnx v13, com.microsoft v1",
        "onnxruntime-web-webgl-cannot-resolve-operator",
        ("GatherND", "ai.onnx v13, com.microsoft v1", "'wasm'"),
    ),
    (
        "RuntimeError: Unknown model format! Cannot find reader for model format: onnx and read the model: "
        "/models/net.onnx. Please check that reader library exists in your PATH.",
        "openvino-unknown-model-format-no-reader",
        ("onnx", "setupvars"),
    ),
    (
        "CL ERROR CODE : -5, info:ConvExecution",
        "mnn-opencl-cl-error-code",
        ("-5", "ConvExecution", "CL_OUT_OF_RESOURCES", "MNN_FORWARD_CPU"),
    ),
    (
        "RuntimeError: Can not find any available kernel info for: Default/MyOp-op7. "
        "Maybe the operator is not supported on Ascend platform.",
        "ascend-mindspore-no-available-kernel-info",
        ("Default/MyOp-op7", "CheckSupport"),
    ),
    (
        "TypeError: Can not select a valid kernel info for [Default/network/Gather-op12] in AI CORE or "
        "AI CPU kernel info candidates list: Kernel Info Candidates List: ...",
        "ascend-mindspore-no-valid-kernel-info",
        ("Default/network/Gather-op12", "float32"),
    ),
    (
        "[01/02/2024-10:00:00] [TRT] [E] 3: getPluginCreator could not find plugin: MyRoiAlign_TRT "
        "version: 2",
        "tensorrt-plugin-registry-creator-not-found",
        ("MyRoiAlign_TRT", "version 2", "init_libnvinfer_plugins"),
    ),
    (
        "[ShapeInferenceError] Cannot infer type and shape for node name lin_0. "
        "No opset import for domainai.onnx.ml optype LinearRegressor",
        "onnx-shape-inference-no-opset-import-for-domain",
        ("LinearRegressor", "'ai.onnx.ml'", "make_opsetid('ai.onnx.ml'"),
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: No opset import for domain 'my.custom.ops'",
        "onnx-ValidationError-4",
        ("'my.custom.ops'", "make_opsetid('my.custom.ops'"),
    ),
    (
        "terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'\n"
        "  what():  [TensorRT-LLM][ERROR] CUDA runtime error in cudaGetDeviceCount(&count): "
        "initialization error (/build/cpp/tensorrt_llm/common/cudaUtils.h:123)",
        "tensorrt-trtllm-cuda-runtime-error",
        ("cudaGetDeviceCount", "'initialization error'", "cudaUtils.h:123", "nvidia-smi"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), CASES, ids=[c[1] for c in CASES])
def test_round22_form_has_its_own_cause_and_fix(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_a_signal_after_a_tools_own_line_ranks_under_it(kb: KnowledgeBase) -> None:
    """ncnn printed why it failed, then the process died: the ncnn line answers, the signal comes after."""
    text = "[0 Mali-G610] bugsbn1=0 bugbilz=0\nvkCreateDevice failed -3\nSegmentation fault (core dumped)"
    ranked = kb.lookup(text, top=5)
    assert ranked[0].entry.id == "ncnn-h23o2-vulkan-call-failed"
    assert "runtime-segfault" in [m.entry.id for m in ranked]


def test_a_signal_alone_is_still_answered_as_a_signal(kb: KnowledgeBase) -> None:
    assert kb.lookup("Segmentation fault (core dumped)", top=1)[0].entry.id == "runtime-segfault"


def test_a_signal_stays_first_when_only_wording_or_a_card_names_a_tool(kb: KnowledgeBase) -> None:
    """Only a specific match found by pattern or code moves a process ending down: words prove nothing."""
    text = "the converter stopped while converting layers\nSegmentation fault"
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "runtime-segfault"


def test_process_endings_are_runtime_consequence_entries(kb: KnowledgeBase) -> None:
    """The signals, ``terminate called``, the heap check and the OOM killer are marked ``consequence``."""
    ending = {e.id for e in kb.entries if is_process_ending(e)}
    assert {"runtime-segfault", "runtime-abort", "runtime-terminate-called", "runtime-oom-killed"} <= ending


@pytest.mark.parametrize(
    "message",
    [
        "[E] 2: [x.cpp::f::1] Error Code 2: Internal Error ([Widget 3] requires int8 I/O but node can not be "
        "handled by Myelin. Operation is not supported.)",
        "the layer was folded away, so this operation is not supported",
    ],
)
def test_a_verb_after_node_or_op_is_never_captured_as_the_op(kb: KnowledgeBase, message: str) -> None:
    """Running English after the keyword ("node can not be handled") names no op: no answer may say that "can"
    or "was" is an operation the tool cannot convert."""
    for m in kb.lookup(message, top=5):
        assert not any(k == "op" and v.lower() in {"can", "was"} for k, v in m.captures), m.entry.id


def test_an_op_named_after_the_keyword_is_still_captured(kb: KnowledgeBase) -> None:
    text = "[E] 2: [x.cpp::f::1] Error Code 2: Internal Error (node Frobnicate_7 is not supported.)"
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+operator-is-not-supported"), top.entry.id
    assert ("op", "Frobnicate_7") in top.captures, top.captures
