"""Issue 23: a card (a code's or a tool's general advice) answered by the vendor's own wording of the
constraint the message states.

Every message below is written from the vendor's wording (CANN's ``OP_CHECK_*`` format strings in
``op_error_check.h``, onnx-tensorrt's importer ``ASSERT`` conditions, TensorRT's allocator message, the C++
runtime's and the dynamic loader's texts), with values of our own.  The card keeps its tool and code (the
code the message printed is still shown, and still among the codes of the answer); the cause and fix are
the clause's, with the message's values filled in."""

from __future__ import annotations

import re

import pytest

from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.answer import shown_code
from dumpscope.core.knowledge.clauses import ANY, CALL, CLAUSES, card_text, refine
from dumpscope.core.knowledge.entry import _check_user_pattern, pattern_requires
from dumpscope.core.knowledge.kb import Match, inner_first

_ACLNN = (
    "RuntimeError: call aclnn{op}GetWorkspaceSize failed, detail:EZ1001: [PID: 4242] "
    "2026-01-02-03:04:05.678.901 "
)


# (message, card id, clause id, code the answer must keep, values the advice must show)
CASES = [
    (
        _ACLNN.format(op="Mul") + "The x tensor cannot be larger than 8 dimensions.",
        "ascend-EZ1001",
        "aclnn-max-dim",
        "ascend:EZ1001",
        ("'x'", "8 dimensions"),
    ),
    (
        _ACLNN.format(op="Gelu") + "The input tensor must have at least 2 dimensions.",
        "ascend-EZ1001",
        "aclnn-min-dim",
        "ascend:EZ1001",
        ("'input'", "2 dimensions"),
    ),
    (
        "AclNN_Parameter_Error(EZ1001): Tensor other not implemented for DT_UINT16,\n"
        "should be in dtype support list [DT_FLOAT16,DT_FLOAT,DT_INT32,].",
        "ascend-EZ1001",
        "aclnn-dtype-not-supported",
        "ascend:EZ1001",
        ("'other'", "DT_UINT16", "[DT_FLOAT16,DT_FLOAT,DT_INT32,]"),
    ),
    (
        _ACLNN.format(op="Eq")
        + "promote dtype DT_COMPLEX64 should be in dtype support list [DT_FLOAT,DT_INT8].",
        "ascend-EZ1001",
        "aclnn-promoted-dtype-not-supported",
        "ascend:EZ1001",
        ("DT_COMPLEX64", "[DT_FLOAT,DT_INT8]"),
    ),
    (
        _ACLNN.format(op="Adam") + "Tensor grad expected dtype is DT_FLOAT but found DT_BF16.",
        "ascend-EZ1001",
        "aclnn-dtype-expected",
        "ascend:EZ1001",
        ("'grad'", "DT_FLOAT", "DT_BF16"),
    ),
    (
        _ACLNN.format(op="Lerp")
        + "Expected both tensors to have same dtype, but found start DT_FLOAT16 and end "
        "DT_FLOAT.",
        "ascend-EZ1001",
        "aclnn-dtype-not-same",
        "ascend:EZ1001",
        ("'start'", "'end'", "DT_FLOAT16"),
    ),
    (
        _ACLNN.format(op="Div") + "Result type DT_FLOAT can't be cast to the desired output type DT_INT32.",
        "ascend-EZ1001",
        "aclnn-result-cast",
        "ascend:EZ1001",
        ("DT_FLOAT", "DT_INT32"),
    ),
    (
        _ACLNN.format(op="Add")
        + "The size of tensor self [7,5,3] must match the size of tensor other [7,6,3].",
        "ascend-EZ1001",
        "aclnn-broadcast",
        "ascend:EZ1001",
        ("'self'", "[7,5,3]", "[7,6,3]"),
    ),
    (
        _ACLNN.format(op="Copy") + "Expected tensor for out to have same size as tensor for self, but [3,9] "
        "does not equal [9,3].",
        "ascend-EZ1001",
        "aclnn-shape-not-equal",
        "ascend:EZ1001",
        ("'out'", "[3,9]", "[9,3]"),
    ),
    (
        _ACLNN.format(op="Histc") + "Expected 1 dimension input, but got out with sizes [6,2].",
        "ascend-EZ1001",
        "aclnn-wrong-dimension",
        "ascend:EZ1001",
        ("'out'", "[6,2]", "1 dimensions"),
    ),
    (
        _ACLNN.format(op="ForeachAdd") + "The x1 tensorlist and x2 tensorlist must have the same number of "
        "tensors, but got 12 and 11.",
        "ascend-EZ1001",
        "aclnn-tensorlist-size",
        "ascend:EZ1001",
        ("'x1'", "12", "11"),
    ),
    (
        "In node 7 (importConvTranspose): UNSUPPORTED_NODE: Assertion failed: dims.nbDims >= 3 && "
        'dims.nbDims <= 5 && "TensorRT only supports 1D, 2D or 3D deconvolutions!"',
        None,
        "onnx-trt-rank",
        "trt:UNSUPPORTED_NODE",
        ("ConvTranspose", "dims.nbDims >= 3 && dims.nbDims <= 5"),
    ),
    (
        "ERROR: builtin_op_importers.cpp:4321 In function importLayerNorm:\n"
        '[8] Assertion failed: inputs.at(2).is_weights() && "Bias must be an initializer"',
        None,
        "onnx-trt-input-must-be-weights",
        "trt:UNSUPPORTED_NODE",
        ("inputs.at(2)", "LayerNorm"),
    ),
    (
        "[03/01/2026-10:11:12] [TRT] [E] 1: [defaultAllocator.cpp::allocate::31] Error Code 1: Cuda Runtime "
        "(Requested amount of GPU memory (2147483648 bytes) could not be allocated. There may not be enough "
        "free memory for allocation to succeed.)",
        "tensorrt-ErrorCode-UNSPECIFIED-ERROR-builder-1",
        "trt-gpu-memory",
        "trtb:1",
        ("2147483648 bytes",),
    ),
    (
        _ACLNN.format(op="Maximum") + "Shape of out should be [4,1,6], but current is [4,6].",
        "ascend-EZ1001",
        "aclnn-out-shape",
        "ascend:EZ1001",
        ("'out'", "[4,1,6]", "[4,6]"),
    ),
    (
        "In node 9 with name: /up/Resize_1 and operator: Resize (importResize): UNSUPPORTED_NODE: Assertion "
        "failed: !isDynamic(scalesDims): Dynamic shape for scales tensor is not supported.",
        None,
        "onnx-trt-static-shape",
        "trt:UNSUPPORTED_NODE",
        ("Resize", "/up/Resize_1", "!isDynamic(scalesDims)"),
    ),
    (
        "[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Failed to find kernel for Col2Im(18) (node:'c2i_4' "
        "ep:'DmlExecutionProvider'). Kernel not found",
        "onnxruntime-9-NOT-IMPLEMENTED",
        "ort-kernel-not-found",
        "ort:9",
        ("Col2Im", "c2i_4", "DmlExecutionProvider", "Col2Im(18)"),
    ),
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:77:\nCheck '_impl != nullptr' failed at "
        "src/core/src/any.cpp:96:\nAny was not initialized.",
        "family-openvino",
        "openvino-empty-any",
        "family:openvino",
        ("get_property",),
    ),
    (
        "2026-01-01 10:00:00.1 [E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] CUDA failure 2: "
        "out of memory ; GPU=0 ; hostname=h ; file=cuda_allocator.cc ; line=47 ; "
        "expr=cudaMalloc((void**)&p, size);",
        None,
        "cuda-out-of-memory",
        "family:onnxruntime",
        ("nvidia-smi",),
    ),
    (
        "/usr/include/c++/13/bits/stl_vector.h:1125: std::vector<_Tp, _Alloc>::reference std::vector<_Tp, "
        "_Alloc>::operator[](size_type) [with _Tp = long int; _Alloc = std::allocator<long int>; "
        "reference = long int&; size_type = long unsigned int]: Assertion '__n < this->size()' failed.\n"
        "[E:onnxruntime:Default] session load aborted",
        None,
        "libstdcxx-vector-subscript",
        "family:onnxruntime",
        ("std::vector of long int",),
    ),
    (
        "Non-zero status code returned while running Reshape node. Name:'head/Reshape_7' Status Message: "
        "/onnxruntime_src/onnxruntime/core/providers/cpu/tensor/reshape_helper.h:30 "
        "onnxruntime::ReshapeHelper::ReshapeHelper(const onnxruntime::TensorShape&, "
        "onnxruntime::TensorShapeVector&, bool) size != 0 && (input_shape_size % size) == 0 was false. The "
        "input tensor cannot be reshaped to the requested shape. Input shape:{2,96,7,7}, requested "
        "shape:{1,-1,4704}",
        "onnxruntime-non-zero-status-code-returned",
        "ort-reshape-size",
        None,
        ("head/Reshape_7", "{2,96,7,7}", "{1,-1,4704}"),
    ),
    (
        "[ONNXRuntimeError] : 11 : EP_FAIL : Non-zero status code returned while running TRTKernel_graph_x_9 "
        "node. Name:'TensorrtExecutionProvider_TRTKernel_graph_x_9_0' Status Message: TensorRT EP failed to "
        "create engine from network.",
        "onnxruntime-non-zero-status-code-returned",
        "ort-trt-ep-engine-build",
        "ort:11",
        ("TensorrtExecutionProvider_TRTKernel_graph_x_9_0", "trtexec"),
    ),
    (
        "[TRT] [E] IExecutionContext::enqueueV3: Error Code 7: Internal Error (/blocks.3/Add_1: Broadcast "
        "has incompatible dimensions: 96 != 48 && 96 != 1 && 48 != 1. Instruction: CHECK_BROADCAST 96 48.)",
        "tensorrt-ErrorCode-FAILED-EXECUTION-builder-7",
        "trt-runtime-broadcast",
        "trtb:7",
        ("/blocks.3/Add_1", "96", "48"),
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Load model from net.onnx failed: libnvinfer.so.11: cannot open "
        "shared object file: No such file or directory",
        "onnxruntime-1-FAIL",
        "shared-library-missing",
        "ort:1",
        ("libnvinfer.so.11",),
    ),
    (  # older releases print the C++ type; a message pasted from a title is cut short
        "InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Unexpected input data type. Actual: "
        "(N11onnxruntime17PrimitiveDataTypeIlEE) , expected: (N11onnxruntime17PrimitiveDataTypeI",
        "onnxruntime-2-INVALID-ARGUMENT",
        "ort-unexpected-input-type",
        "ort:2",
        ("N11onnxruntime17PrimitiveDataTypeIlEE", "<l> int64"),
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Load model from seg.onnx failed:vector::_M_range_check: __n (which "
        "is 5) >= this->size() (which is 2)",
        "onnxruntime-1-FAIL",
        "libstdcxx-vector-range-check",
        "ort:1",
        ("item 5", "holds 2", "check_model"),
    ),
    (  # cut short before the node's name
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from det.onnx failed:This is an invalid model. "
        "Type Error: Type 'tensor(int32)' of input parameter (max_boxes) of operator (NonMaxSuppression",
        "onnxruntime-10-INVALID-GRAPH",
        "ort-type-of-input-parameter",
        "ort:10",
        ("max_boxes", "NonMaxSuppression", "tensor(int32)", "get_schema('NonMaxSuppression')"),
    ),
]


@pytest.mark.parametrize(("message", "card", "clause", "code", "values"), CASES, ids=[c[2] for c in CASES])
def test_a_card_is_answered_by_the_clause_of_its_message(
    kb: KnowledgeBase, message: str, card: str | None, clause: str, code: str | None, values: tuple[str, ...]
) -> None:
    top = kb.lookup(message, top=3)[0]
    assert top.entry.id.endswith(f"+{clause}")
    if card is not None:
        assert top.entry.id == f"{card}+{clause}"
    assert "pattern" in top.reason.split("+")
    assert not top.entry.generic and top.entry.level == ""
    if code is not None:
        assert code in top.codes  # the code the message printed stays with the answer
    advice = f"{top.cause} {top.fix}"
    for value in values:
        assert value in advice, value
    assert re.search(r"\{[a-z][a-z0-9_]*(?:\|[^{}]*)?\}", advice) is None  # no placeholder left
    assert kb.answer(message).confidence == "high"


def test_a_whole_unexpected_type_message_keeps_its_specific_entry(kb: KnowledgeBase) -> None:
    """The clause reads what the status card quotes when the message is cut short; the whole message is
    the specific entry's, which the clause never rewrites."""
    message = (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Unexpected input data type. Actual: (tensor(double)) , "
        "expected: (tensor(float16))"
    )
    matches = kb.lookup(message, top=5)
    assert matches[0].entry.id == "onnxruntime-INVALID-ARGUMENT-2"
    assert "tensor(double)" in matches[0].cause and "tensor(float16)" in matches[0].cause
    assert not any(m.entry.id.endswith("+ort-unexpected-input-type") for m in matches)  # said once


def test_a_whole_type_error_keeps_its_specific_entry_and_is_said_once(kb: KnowledgeBase) -> None:
    message = (
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : This is an invalid model. Type Error: Type "
        "'tensor(int32)' of input parameter (max_boxes) of operator (NonMaxSuppression) in node (nms_3) is "
        "invalid."
    )
    matches = kb.lookup(message, top=5)
    assert not matches[0].entry.generic and "+" not in matches[0].entry.id
    assert not any(m.entry.id.endswith("+ort-type-of-input-parameter") for m in matches)


def test_the_code_the_message_printed_is_shown(kb: KnowledgeBase) -> None:
    top = kb.lookup(_ACLNN.format(op="Sum") + "The self tensor cannot be larger than 8 dimensions.", top=1)[0]
    assert shown_code(top) == "EZ1001"
    assert top.entry.tool == next(e.tool for e in kb.entries if e.id == "ascend-EZ1001")


def test_a_card_without_a_clause_keeps_its_own_advice(kb: KnowledgeBase) -> None:
    """A reason no clause knows: the card answers with its own text (which speaks of the code in general)."""
    top = kb.lookup(_ACLNN.format(op="Pow") + "exponent zq7 is not a thing this op wants.", top=1)[0]
    assert top.entry.id == "ascend-EZ1001"


def test_a_specific_entry_is_never_rewritten(kb: KnowledgeBase) -> None:
    """Only cards take a clause: an entry found by its own pattern keeps its advice even when the message
    also holds a clause's wording."""
    message = "Non-zero status code returned while running Conv node. Name:'c1' Status Message: CUDA error "
    "cudaErrorNoKernelImageForDevice:no kernel image is available for execution on the device"
    for m in kb.lookup(message, top=3):
        assert "+" not in m.entry.id or not m.entry.id.split("+")[0] == "onnxruntime-cuda-no-kernel-image"


def test_only_the_best_card_of_a_tool_is_answered_by_a_clause(kb: KnowledgeBase) -> None:
    ranked = kb.lookup(_ACLNN.format(op="Mul") + "The x tensor cannot be larger than 8 dimensions.", top=5)
    assert sum("+aclnn-max-dim" in m.entry.id for m in ranked) == 1


def test_a_trt_error_code_card_quotes_the_reason_and_asserts_no_other_cause(kb: KnowledgeBase) -> None:
    """Error Code 9 with a reason no entry knows: the reason leads (without its final period), then the card
    speaks of kINVALID_STATE in general; the DLA fallback advice is only for a reason that names DLA."""
    reason = "Setting zq7 after the context was created is not allowed."
    top = kb.lookup(f"[TRT] [E] 9: [runtime.cpp::f::12] Error Code 9: API Usage Error ({reason})", top=1)[0]
    assert top.entry.id == "tensorrt-ErrorCode-INVALID-STATE-builder-9+code-own-reason"
    assert top.cause.index(reason.rstrip(".")) < top.cause.index("kINVALID_STATE")
    assert "GPU fallback" not in top.fix.split("Only where the reason names DLA")[0]


def test_every_trt_error_code_card_quotes_its_reason(kb: KnowledgeBase) -> None:
    cards = [e for e in kb.entries if e.id.startswith("tensorrt-ErrorCode-") and "builder" in e.id]
    assert len(cards) >= 10
    for e in cards:
        assert "{reason" in e.cause, e.id


# --- ranking: a card or an envelope under the entry that explains more --------------------------------


def test_a_code_card_ranks_under_the_specific_entry_of_its_reason() -> None:
    card = Match(
        Entry("card", "T", "run", "c", "f", "s", family="ascend", keys=("ascend:EZ1001",)), 50.0, "code"
    )
    inner = Match(Entry("inner", "T", "run", "c", "f", "s", family="ascend", pattern="x y"), 42.0, "pattern")
    scores = {m.entry.id: m.score for m in inner_first([card, inner])}
    assert scores == {"card": 41.0, "inner": 42.0}


def test_an_envelope_ranks_under_the_card_of_an_exact_code() -> None:
    """``aclrtSetDevice ... failed: 507033`` and an ``EE1001 ... Reason:`` line after it: the exact numeric
    code's card answers first, the envelope that carried the reason second."""
    code_card = Match(
        Entry("507033", "T", "run", "c", "f", "s", family="ascend", keys=("acl:507033",)), 45.0, "code"
    )
    envelope = Match(
        Entry(
            "EE1001",
            "T",
            "run",
            "c",
            "f",
            "s",
            family="ascend",
            keys=("ascend:EE1001",),
            pattern="R: (?P<reason>.+)",
        ),
        91.0,
        "code+pattern",
        (("reason", "the context is a null pointer"),),
    )
    shared = Match(Entry("range", "T", "run", "c", "f", "s", family="ascend", generic=True), 30.0, "code")
    scores = {m.entry.id: m.score for m in inner_first([envelope, code_card, shared])}
    assert scores == {"EE1001": 44.0, "507033": 45.0, "range": 30.0}


def test_set_device_507033_is_answered_before_the_ee1001_line(kb: KnowledgeBase) -> None:
    message = (
        "[ERROR] aclrtSetDevice(deviceId) failed: 507033 (app.cpp:12)\n"
        "[ERROR] RecentErrMsg: [PID: 777] 2026-02-03-04:05:06.789.012 Invalid_Argument(EE1001): The argument "
        "is invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer."
    )
    ids = [m.entry.id for m in kb.lookup(message, top=3)]
    assert ids[0] == "ascend-acl-507033+ascend-call-returned-internal"  # the card, naming the call (s25a)
    assert "ascend-EE1001" in ids[:3]


def test_a_code_card_reads_its_own_lines_only(kb: KnowledgeBase) -> None:
    """A no-pattern code card's own text starts at its code and ends before a line with another code."""
    message = (
        "aclrtSetDevice failed: 507033\nEE1001: Reason: the x tensor cannot be larger than 8 dimensions."
    )
    card = next(m for m in kb.lookup(message, top=5) if m.entry.id.startswith("ascend-acl-507033"))
    assert card_text(card, message) == "aclrtSetDevice failed: 507033"
    assert (
        card.entry.id == "ascend-acl-507033+ascend-call-returned-internal"
    )  # its own line's call, not the next line's


def test_refine_leaves_matches_alone_when_no_clause_is_in_the_text() -> None:
    m = Match(
        Entry("fam", "T", "run", "c", "f", "s", family="onnxruntime", level="family", keys=("x:1",)),
        29.0,
        "family",
    )
    assert refine([m], "nothing a clause knows") == [m]


# --- the clauses themselves --------------------------------------------------------------------------


def _holds_literal(alternative: str | tuple[str, ...], literal: str) -> bool:
    """Whether a branch's alternative (a literal, or literals all held) holds ``literal``."""
    return literal in alternative if isinstance(alternative, str) else any(literal in a for a in alternative)


@pytest.mark.parametrize("clause", CLAUSES, ids=[c.id for c in CLAUSES])
def test_a_clause_is_sound(kb: KnowledgeBase, clause) -> None:  # type: ignore[no-untyped-def]
    """Its patterns pass the checks of a user's pattern, its literal is in every match (so the prefilter never
    hides a match), its placeholders are its own groups or say what to write without them, its tools exist,
    and it names its source."""
    rx = re.compile(clause.pattern)
    for pattern in filter(None, (clause.pattern, clause.context)):
        _check_user_pattern(pattern)  # the checks a user's pattern passes: no catastrophic backtracking
    required = pattern_requires(clause.pattern)
    assert clause.literal == clause.literal.lower()
    assert any(
        clause.literal in r if isinstance(r, str) else all(_holds_literal(a, clause.literal) for a in r)
        for r in required
    ), (clause.literal, required)
    groups = set(rx.groupindex) | (set(re.compile(clause.context).groupindex) if clause.context else set())
    for name, words in re.findall(r"\{([a-z][a-z0-9_]*)(\|[^{}]*)?\}", clause.cause + clause.fix):
        # the card's own advice, put in by refine: its cause only by a call clause, its fix by any clause
        naming = name == "card_fix" or (clause.scope == CALL and name == "card")
        assert name in groups or words or naming, (clause.id, name)
    families = {e.family for e in kb.entries}
    assert all(f == ANY or f in families for f in clause.families)
    assert clause.source.strip()
    assert len(set(clause.id for clause in CLAUSES)) == len(CLAUSES)


def test_every_onnxruntime_status_card_captures_and_quotes_its_reason(kb: KnowledgeBase) -> None:
    """``[ONNXRuntimeError] : N : NAME : <reason>``: each status card reads the reason and quotes it, so a
    reason no entry knows is still shown with what the status means in general."""
    cards = [e for e in kb.entries if e.generic and any(k.startswith("ort:") for k in e.keys)]
    assert len(cards) >= 11
    for e in cards:
        assert "{reason" in e.cause, e.id
        assert e.regex is not None and "reason" in e.regex.groupindex, e.id


def test_a_status_reason_no_entry_knows_is_quoted_by_the_card(kb: KnowledgeBase) -> None:
    reason = "the zq7 feature is not in this build"
    top = kb.lookup(f"[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : {reason}", top=1)[0]
    assert top.entry.id == "onnxruntime-9-NOT-IMPLEMENTED+code-own-reason"
    assert top.cause.index(reason) < top.cause.index("NOT_IMPLEMENTED")
    assert "ort:9" in top.codes


def test_an_answered_card_takes_the_place_of_a_card_of_its_tool_above_it() -> None:
    """The card that ranks first holds no clause in its own lines; a lower card of the same tool does: the
    answered card takes the first card's place and score, the other follows."""
    text = "aclrtSetDevice failed: 507033\nEZ1001: The x tensor cannot be larger than 8 dimensions."
    codes = ("acl:507033", "ascend:EZ1001")
    first = Match(
        Entry("c507033", "T", "run", "c", "f", "s", family="ascend", code="507033", keys=("acl:507033",)),
        50.0,
        "code",
        (),
        codes,
    )
    lower = Match(
        Entry(
            "cEZ1001",
            "T",
            "run",
            "c",
            "f",
            "s",
            family="ascend",
            code="EZ1001",
            keys=("ascend:EZ1001",),
            pattern=r"\bEZ1001\b",
        ),
        40.0,
        "code",
        (),
        codes,
    )
    other_tool = Match(
        Entry("o", "T", "run", "c", "f", "s", family="tensorrt", pattern="x y"), 45.0, "pattern"
    )
    ranked = refine([first, other_tool, lower], text)
    assert [m.entry.id for m in ranked] == ["cEZ1001+aclnn-max-dim", "c507033", "o"]
    assert ranked[0].score == 50.0 and ranked[0].codes == codes


_CAPTURE_CODES = (107021, 107022, 107023, 107024, 107025, 107026, 107027, 107028, 107029, 107030, 107031)
_CAPTURE_CODES += (107032, 107033, 107034, 107036, 107037, 107038)


@pytest.mark.parametrize("code", _CAPTURE_CODES)
def test_each_runtime_code_of_the_acl_error_table_has_its_entry(kb: KnowledgeBase, code: int) -> None:
    """The RUNTIME codes of CANN's aclError table (stream capture, task groups, aborts): a message that
    prints one is answered by that code's entry, not by the 1070xx range card."""
    top = kb.lookup(
        f"RuntimeError: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(stream), error code is {code}"
    )[0]
    # the code's entry, under the call clause that names the call which returned it
    assert top.entry.id == f"ascend-{code}+ascend-call-returned"
    assert "AclrtSynchronizeStreamWithTimeout returned" in top.cause
    assert f"{code}" in top.cause and not top.entry.generic


def test_a_bare_envelope_is_read_by_its_op_type_only_when_nothing_is_inside(kb: KnowledgeBase) -> None:
    """onnxruntime's run-time envelope with no Status Message (``is_bare_envelope``) is answered by a clause
    of its tool on its own lines, here the op type it names (s25g); with a Status Message the envelope reads
    the message's own reason instead, and an op type no clause knows keeps the envelope's own text."""
    bare = "Non-zero status code returned while running Reshape node. Name:'zz_r'"
    top = kb.lookup(bare, top=1)[0]
    assert top.entry.id == "onnxruntime-non-zero-status-code-returned+ort-bare-envelope-shape-data"
    assert ("op", "zz_r") in top.captures
    full = bare + " Status Message: zz words that no clause knows"
    top = kb.lookup(full, top=1)[0]
    assert "ort-bare-envelope" not in top.entry.id
    # the reason leads (clauses.envelope_reason_answered renders it as its 'detail')
    assert "zz words that no clause knows" in {v for k, v in top.captures if k in ("reason", "detail")}
    other = "Non-zero status code returned while running Conv node. Name:'zz_c' Status Message: "
    top = kb.lookup(other, top=1)[0]
    assert top.entry.id == "onnxruntime-non-zero-status-code-returned"
    assert ("op", "zz_c") in top.captures


# --- call clauses (s25a): what a code means for the AscendCL call that returned it ------------------------


def test_a_call_clause_answers_only_the_card_of_the_code_it_reads(kb: KnowledgeBase) -> None:
    """aclrtMalloc's out-of-memory clause reads 207001/200000 only: the same call with a device-task code is
    named by the internal rendering, which keeps the card's own advice after the call's name."""
    top = kb.lookup("aclrtMalloc(&zq, 64, ACL_MEM_MALLOC_HUGE_FIRST) call failed, error code: 507015", top=1)[
        0
    ]
    assert top.entry.id == "ascend-507015+ascend-call-returned-internal"
    assert dict(top.captures)["call"] == "aclrtMalloc" and dict(top.captures)["code"] == "507015"
    card = next(e for e in kb.entries if e.id == "ascend-507015")
    assert top.cause.startswith("aclrtMalloc returned 507015, an internal or device-side failure")
    assert card.cause in top.cause and card.fix in top.fix
    assert "acl:507015" in top.codes


def test_a_call_clause_never_answers_a_card_of_another_code() -> None:
    """The code read after the call must be the card's own: a 207001 card is not answered from a line whose
    code is 107000."""
    card = Match(
        Entry("c207001", "T", "run", "c", "f", "s", family="ascend", code="207001", keys=("acl:207001",)),
        50.0,
        "code",
    )
    assert refine([card], "aclrtMalloc(&zq, 0, 0) call failed, error code: 107000") == [card]
    answered = refine([card], "aclrtMalloc(&zq, 8, 0) call failed, error code: 207001")
    assert answered[0].entry.id == "c207001+ascend-call-malloc-out-of-memory"


def test_naming_the_call_yields_to_another_cards_clause(kb: KnowledgeBase) -> None:
    """torch_npu's aclnn failure names the call and its code (161002) above the EZ1001 line that states the
    constraint: the constraint's clause answers, not the rendering that only names the call."""
    text = (
        "RuntimeError: zq:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:9 NPU function error: call "
        "aclnnMul failed, error code is 161002\n"
        "EZ1001: [PID: 1] The zq tensor cannot be larger than 8 dimensions."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+aclnn-max-dim"), top.entry.id


@pytest.mark.parametrize(
    "text",
    [
        "Unsupported operators listed below:\n  - aten::zq_op(Tensor self) -> (Tensor)",
        "Unsupported layers found: ZqOp",
    ],
)
def test_the_not_supported_clause_takes_no_english_word_for_the_op(kb: KnowledgeBase, text: str) -> None:
    """'Unsupported operators listed below' names no operator 'listed': a word of the sentence after a space
    is no op name (a false sentence, 'listed is an operation this tool cannot convert', before), while an op
    after a space or a colon still is."""
    for m in kb.lookup(text):
        assert ("op", "listed") not in m.captures and ("op", "found") not in m.captures
    top = kb.lookup("E RKNN: Unsupported op ZqOp", top=1)[0]
    assert top.entry.id.endswith("+operator-unsupported") and ("op", "ZqOp") in top.captures


# ---- the clause pass reads one tool's clauses once per part of the text (s26h): a text whose words find
# many cards of one tool (67 Ascend code cards for an OpenVINO GPU error's 'error code: -54') read every
# clause once per card, ~12 ms of a lookup; what it found for none is kept for the others ----

_MANY_CARDS = (
    "RuntimeError: Exception from src/inference/src/cpp/infer_request.cpp:223:\n"
    "Exception from src/plugins/intel_gpu/src/runtime/ocl/ocl_stream.cpp:310:\n"
    "clEnqueueNDRangeKernel, error code: -54"
)


_MANY_WORDING_CARDS = (
    "RuntimeError: Exception from src/inference/src/cpp/infer_request.cpp:223:\n"
    "Exception from src/plugins/intel_gpu/src/plugin/ops/stream.cpp:310:\n"
    "something in the plugins failed, error code: -54"
)
"""OpenVINO's exception frames with no entry's wording after them: only cards of one tool, found by their
words, each read by the clause pass (the GPU plugin's clEnqueue line of :data:`_MANY_CARDS` has its own
entry now, which leaves the clauses unread)."""


def _answers(kb: KnowledgeBase, texts: list[str]) -> list[list[tuple[str, str, str, float]]]:
    return [[(m.entry.id, m.cause, m.fix, m.score) for m in kb.lookup(t, top=5)] for t in texts]


def test_the_clause_pass_answers_the_same_when_it_reads_each_tool_once(
    kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every KB example (and the many-cards text) is answered the same with the clause pass that keeps what
    it found no clause for as with the one that reads the clauses again for every card."""
    from dumpscope.core.knowledge import clauses

    texts = [_MANY_CARDS, *(e.example for e in kb.entries if e.example)]
    kept = _answers(kb, texts)
    plain = clauses._refine_pass

    def every_card(matches: list[Match], text: str, done: set[str], naming: bool, unanswered: object = None):  # type: ignore[no-untyped-def]
        return plain(matches, text, done, naming, unanswered=None)

    monkeypatch.setattr(clauses, "_refine_pass", every_card)
    assert _answers(kb, texts) == kept


def test_the_clause_pass_reads_the_clauses_once_for_many_cards_of_one_tool(
    kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dumpscope.core.knowledge import clauses

    calls = {"n": 0}
    regex = clauses._regex

    def counted(pattern: str) -> re.Pattern[str]:
        calls["n"] += 1
        return regex(pattern)

    monkeypatch.setattr(clauses, "_regex", counted)
    matches = kb.lookup(_MANY_WORDING_CARDS, top=3)
    assert matches[0].entry.family == "openvino"
    once = calls["n"]
    assert once > 0
    calls["n"] = 0
    plain = clauses._refine_pass
    monkeypatch.setattr(
        clauses,
        "_refine_pass",
        lambda matches, text, done, naming, unanswered=None: plain(matches, text, done, naming, None),
    )
    kb.lookup(_MANY_WORDING_CARDS, top=3)
    assert calls["n"] > 10 * once
