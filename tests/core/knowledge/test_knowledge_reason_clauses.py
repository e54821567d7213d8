"""Issue 23: a tool's family card answered by a reason clause (why something failed, in the wording the tools
share) when the message names what failed and why, and RKNN-Toolkit v1's node-matching failure.

Every message is written from the vendors' wording (OpenVINO's NODE_VALIDATION_CHECK, Model Optimizer's and
the Inference Engine's messages, onnx shape inference and version converter, the converters' "not supported"
lists) with names and values of our own; none is a message of the evaluation set.

Also from ort_trt_s29d (test_knowledge_tensorrt.py): their notes stand in the docstrings named.
"""

from __future__ import annotations

import re

import pytest

from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.clauses import CLAUSES, REASON, refine
from dumpscope.core.knowledge.kb import Match

_ORT = "Non-zero status code returned while running {op} node. Name:'{name}' Status Message: "

# (message, answered id, what the advice must name)
CASES = [
    (
        "openvino._pyopenvino.Exception: Exception from src/core/src/node.cpp:17:\n"
        "While validating node 'opset8::Gather gather_idx_5 (x[0]:f32{1,3,4}, idx[0]:i64{7}, axis[0]:i64{}) "
        "-> (f32?)' with friendly_name 'gather_idx_5':\nGather axis is out of the input's rank.",
        "family-openvino+openvino-node-validation",
        ("gather_idx_5", "Gather", "Gather axis is out of the input's rank.", "x[0]:f32{1,3,4}"),
    ),
    (
        "[ ERROR ]  Unexpected exception happened during extracting attributes for node net/tile_2.\n"
        "Original exception message: 'NoneType' object is not iterable",
        "family-openvino+openvino-mo-extracting-attributes",
        ("net/tile_2", "'NoneType' object is not iterable"),
    ),
    (
        "openvino: Cannot create ScatterUpdate layer /head/ScatterUpdate_3 id:118",
        "family-openvino+openvino-ie-cannot-create-layer",
        ("ScatterUpdate", "/head/ScatterUpdate_3", "same OpenVINO release"),
    ),
    (
        "[openvino] Unsupported operator: aten::fft_rfftn",
        "family-openvino+operator-unsupported",
        ("aten::fft_rfftn",),
    ),
    (
        "RKNN: E load_onnx: The following operators are not supported: ['ScatterElements', 'NonZero']",
        "family-rknn+operator-not-supported-list",
        ("'ScatterElements', 'NonZero'",),
    ),
    (
        "E RKNN: Unsupported data type: int64 for op Gather_12",
        "family-rknn+data-type-unsupported",
        ("int64", "int32 for indices"),
    ),
    ("TVM: data type float64 is not supported", "family-tvm+data-type-not-supported", ("float64",)),
    (
        "E RKNN: Transpose with input rank 6 is not supported, max rank is 4",
        "family-rknn+rank-not-supported",
        ("Transpose", "rank 6", "at most 4 dimensions"),
    ),
    (
        "[TRT] Unsupported input rank 7 for node /Softmax_3",
        "family-tensorrt+rank-unsupported",
        ("/Softmax_3", "rank 7"),
    ),
    # onnxruntime's run-time envelope: the kernel's own reason answers it, with the node it names
    (
        _ORT.format(op="Add", name="/blocks.3/Add_1")
        + "element_wise_ops.h:560 void onnxruntime::BroadcastIterator::Append(ptrdiff_t, ptrdiff_t) "
        "axis == 1 || axis == largest was false. "
        "Attempting to broadcast an axis by a dimension other than 1. 56 by 64",
        "onnxruntime-non-zero-status-code-returned+ort-broadcast-axis",
        ("/blocks.3/Add_1", "56 and 64", "dynamic_axes"),
    ),
    (
        _ORT.format(op="Concat", name="/neck/Concat_4")
        + "concat.cc:154 onnxruntime::ConcatBase::PrepareForCompute Non concat axis dimensions must match: "
        "Axis 3 has mismatched dimensions of 20 and 21",
        "onnxruntime-non-zero-status-code-returned+ort-concat-dims",
        ("/neck/Concat_4", "axis 3", "20 against 21", "total stride"),
    ),
    (
        _ORT.format(op="Gather", name="/emb/Gather")
        + "indices element out of data bounds, idx=32000 must be within the inclusive range [-32000,31999]",
        "onnxruntime-non-zero-status-code-returned+ort-gather-index-out-of-bounds",
        ("/emb/Gather", "index 32000", "[-32000, 31999]", "tokenizer"),
    ),
    (
        _ORT.format(op="MatMul", name="/head/MatMul")
        + "matmul_helper.h:142 onnxruntime::MatMulComputeHelper::Compute "
        "left operand cannot broadcast on dim 0",
        "onnxruntime-non-zero-status-code-returned+ort-matmul-broadcast",
        ("/head/MatMul", "dimension 0 of the left operand"),
    ),
    (
        _ORT.format(op="Conv", name="/stem/Conv")
        + "X num_dims does not match W num_dims. X: {1,3,224} W: {64,3,7,7}",
        "onnxruntime-non-zero-status-code-returned+ort-conv-input-rank",
        ("/stem/Conv", "{1,3,224}", "{64,3,7,7}", "np.expand_dims"),
    ),
    (
        _ORT.format(op="Expand", name="/Expand_7") + "invalid expand shape",
        "onnxruntime-non-zero-status-code-returned+ort-invalid-expand-shape",
        ("/Expand_7", "dynamic_axes"),
    ),
]


@pytest.mark.parametrize(("message", "answered", "named"), CASES, ids=[c[1] for c in CASES])
def test_a_family_card_is_answered_by_the_reason_the_message_states(
    kb: KnowledgeBase, message: str, answered: str, named: tuple[str, ...]
) -> None:
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == answered
    assert top.entry.level == "" and "pattern" in top.reason  # no longer the family card's text
    if answered.startswith("family-"):
        # the tool is still known by its markers only: medium confidence, and no log line is a problem
        # for this alone (an INFO line that lists unsupported ops is not reported by a scan)
        assert top.reason == "family+pattern"
        assert kb.answer(message).confidence == "medium"
    advice = f"{top.cause} {top.fix}"
    for part in named:
        assert part in advice, (part, advice)
    assert re.search(r"\{[a-z][a-z_0-9]*(?:\|[^{}]*)?\}", advice) is None  # every placeholder filled in


def test_a_reason_clause_never_answers_a_code_card() -> None:
    """A code card of a tool says what its code means; a tool-neutral reason clause does not replace it (the
    tool's own clauses still may)."""
    card = Match(
        Entry(
            "t-E1", "T", "run", "code E1 means x", "do y", "s", family="rknn", code="E1", keys=("rknn:E1",)
        ),
        45.0,
        "code",
    )
    text = "E1: Unsupported data type: int64 for op Gather_12"
    assert refine([card], text) == [card]
    family = Match(Entry("fam", "T", "run", "c", "f", "s", family="rknn", level="family"), 29.0, "family")
    assert refine([family], text)[0].entry.id == "fam+data-type-unsupported"


def test_reason_clauses_come_after_every_tool_clause() -> None:
    """A tool's own wording of a constraint is tried before the tool-neutral reasons."""
    scopes = [c.scope for c in CLAUSES]
    first = scopes.index(REASON)
    assert all(s == REASON for s in scopes[first:])


def test_rknn_v1_node_matching_failure_outranks_the_wrapper_lines_around_it(kb: KnowledgeBase) -> None:
    """Toolkit v1 prints 'Try match <node>:out0 failed, catch exception!' and then the wrapper 'Catch
    exception when loading ... model'; the answer is the node that no rule matched."""
    message = (
        "W Not match tensor GridSample_88:out0\n"
        "E Try match GridSample_88:out0 failed, catch exception!\n"
        "E Catch exception when loading onnx model: /data/model.onnx!\n"
        "E Traceback (most recent call last):"
    )
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == "rknn-v1-try-match-node-failed"
    assert ("layer", "GridSample_88") in top.captures
    assert "GridSample_88" in top.cause and "RKNN_OP_Support.md" in top.fix


def test_openvino_s_per_op_failure_outranks_the_summary_line_before_it(kb: KnowledgeBase) -> None:
    """OpenVINO's unconverted-ops report: 'Model wasn't fully converted.' only announces the per-op lines
    ('-- <op> with a message:' and the translator's reason); the answer names the op and the reason."""
    message = (
        "openvino._pyopenvino.OpConversionFailure: Check 'is_conversion_successful' failed at "
        "src/frontends/pytorch/src/frontend.cpp:160:\nFrontEnd API failed with OpConversionFailure:\n"
        "Model wasn't fully converted. Failed operations detailed log:\n-- aten::roll with a message:\n"
        "Check 'shifts.size() == dims.size()' failed: Roll takes as many shifts as dims\nSummary:\n"
        "-- Conversion is failed for: aten::roll"
    )
    ranked = kb.lookup(message, top=3)
    assert [m.entry.id for m in ranked[:2]] == [
        "openvino-conversion-failed-for-op",
        "openvino-model-not-fully-converted",
    ]
    top = ranked[0]
    assert "aten::roll" in top.cause and "Roll takes as many shifts as dims" in top.cause


def test_a_summary_that_captured_nothing_ranks_under_the_match_of_its_tool_that_names_the_node() -> None:
    """Only a line before the naming match is a summary of it; a specific line after it keeps its score
    (OpenVINO's 'Training mode of BatchNormalization is not supported.' after 'While validating ONNX
    node')."""
    from dumpscope.core.knowledge.kb import inner_first

    wrapper = Match(Entry("t-wrap", "T", "run", "c", "f", "s", family="rknn", pattern="x"), 50.0, "pattern")
    naming = Match(
        Entry("t-node", "T", "run", "c", "f", "s", family="rknn", pattern="y"),
        45.0,
        "pattern",
        captures=(("layer", "Conv_3"),),
    )
    other = Match(Entry("o-wrap", "O", "run", "c", "f", "s", family="tvm", pattern="z"), 60.0, "pattern")
    ranked = {m.entry.id: m.score for m in inner_first([wrapper, naming, other], "x summary\ny Conv_3\nz")}
    assert ranked == {"t-wrap": 44.0, "t-node": 45.0, "o-wrap": 60.0}  # another tool's match is left alone
    ranked = {m.entry.id: m.score for m in inner_first([wrapper, naming, other], "y Conv_3\nx detail\nz")}
    assert ranked == {"t-wrap": 50.0, "t-node": 45.0, "o-wrap": 60.0}


KERNEL_REASONS = [
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running LSTM node. "
        "Name:'/enc/lstm/LSTM' Status Message: Input X must have 3 dimensions only. Actual:{1,1,1,128,64}",
        "ort-rnn-input-rank",
        ("/enc/lstm/LSTM", "{1,1,1,128,64}", "[seq_length, batch_size, input_size]"),
    ),
    (
        "[E:onnxruntime:, sequential_executor.cc:514 ExecuteKernel] Non-zero status code returned while "
        "running Pad node. Name:'/up/Pad_3' Status Message: Cannot use 'reflect' mode to pad dimension with "
        "a value of 0. Input shape:{0,64,32}",
        "ort-pad-mode-empty-dim",
        ("/up/Pad_3", "'reflect'", "{0,64,32}", "mode='constant'"),
    ),
    (
        "Non-zero status code returned while running GatherND node. Name:'/head/GatherND_2' Status Message: "
        "last dimension of indices must not be larger than rank of input tensor",
        "ort-gathernd-index-depth",
        ("/head/GatherND_2", "index_select", "batch_dims"),
    ),
    (
        "[E] Error[9]: [standardEngineBuilder.cpp::buildEngine::2427] Error Code 9: Internal Error ((Unnamed "
        "Layer* 17) [Shuffle]: at most one dimension may be inferred)",
        "trt-shuffle-two-inferred-dims",
        ("(Unnamed Layer* 17) [Shuffle]", "more than one -1", "BatchNorm1d"),
    ),
]


@pytest.mark.parametrize(("text", "clause", "named"), KERNEL_REASONS, ids=[c[1] for c in KERNEL_REASONS])
def test_a_kernel_or_layer_reason_is_read_with_its_values(
    kb: KnowledgeBase, text: str, clause: str, named: tuple[str, ...]
) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+" + clause), top.entry.id
    advice = top.cause + " " + top.fix
    for part in named:
        assert part in advice, (part, advice)
    assert "{" + "op" not in advice and "  " not in advice


def test_a_kernel_reason_without_its_node_reads_whole(kb: KnowledgeBase) -> None:
    """The status card alone (no executor envelope, so no node): the clause reads without a node's name."""
    text = (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : last dimension of indices must not be larger than rank "
        "of input tensor"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+ort-gathernd-index-depth"), top.entry.id
    assert top.cause.startswith("GatherND node got indices") and "of that node" in top.fix


def test_the_shuffle_clause_does_not_read_other_tools_wording(kb: KnowledgeBase) -> None:
    text = "ValueError: At most one dimension may be inferred. (Parameter 'shape')"
    for m in kb.lookup(text, top=3):
        assert not m.entry.id.endswith("+trt-shuffle-two-inferred-dims"), m.entry.id
