"""Code cards over a message that states its own reason (issue 23's hand-draw classes, s30a).

* a code-range or status card (TensorRT's ``Error Code N: <Category> (<reason>)``, onnxruntime's
  ``[ONNXRuntimeError] : N : NAME : <reason>``) whose reason nothing answered: the reason leads, whole, the
  fix starts from it (by its kind: an assertion, a parameter check, a limit, something unsupported), and what
  the card says of the code follows (:func:`.clauses.code_reason_answered`);
* an AscendCL code after the call that returned it, as torch_npu's wrappers spell the call
  (``c10_npu::acl::AclrtSynchronizeStreamWithTimeout``) or as torch_npu names the operator it ran (``OPS
  function error: Conv3D``): the call or the operator is named with the code's card.

Each example is a dev message or a vendor's own format with made-up values."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.clauses import CODE_REASON, MIN_REASON_WORDS, without_reason_sentence
from dumpscope.core.knowledge.kb import Match
from dumpscope.core.knowledge.markers import MARKERS
from dumpscope.core.knowledge.reason_kinds import OTHER_REASON_HINT, REASON_KINDS, reason_hint


def _top(kb: KnowledgeBase, text: str) -> Match:
    return kb.lookup(text, top=1)[0]


def _no_placeholder_left(m: Match) -> None:
    assert not re.search(r"\{[a-z_]+(?:\|[^{}]*)?\}", m.cause + m.fix), (m.cause, m.fix)


# --- a code card's own reason leads -----------------------------------------------------------------------

# dev round28.jsonl:19
TRT_ASSERT = (
    "[TensorRT] ERROR: 2: [graph.cpp::getDefinition::336] Error Code 2: Internal Error "
    "(Assertion mIndex >= 0 failed.symbol is not concrete)"
)
# dev round32.jsonl:8
TRT_LIMIT = (
    "Error[4]: [graphShapeAnalyzer.cpp::nvinfer1::builder::`anonymous-namespace'::ShapeAnalyzerImpl::"
    "processCheck::862] \nError Code 4: Internal Error (/TopK: K exceeds the maximum value allowed (3840).)"
)
# dev round13.jsonl:17
ORT_GRAPH = (
    "onnxruntime.capi.onnxruntime_pybind11_state.InvalidGraph: [ONNXRuntimeError] : 10 : INVALID_GRAPH : "
    "This is an invalidMul with domain_version of 13"
)


def test_a_trt_assertion_leads_its_error_code_card(kb: KnowledgeBase) -> None:
    top = _top(kb, TRT_ASSERT)
    assert top.entry.id == "tensorrt-ErrorCode-INTERNAL-ERROR-builder-2+code-own-reason"
    assert top.cause.startswith('The message states its own reason next to the code: "Assertion mIndex >= 0')
    assert top.cause.index("symbol is not concrete") < top.cause.index("kINTERNAL_ERROR")
    assert "looked up on its own" not in top.cause  # the card's sentence about the reason is not said twice
    assert top.fix.startswith("Start from that reason: an assertion is a check inside the tool's own code")
    assert "For the code in general: Read the parenthesised text" in top.fix
    assert "trtb:2" in top.codes and ("category", "Internal Error") in top.captures
    _no_placeholder_left(top)


def test_a_trt_limit_reason_points_the_fix_at_the_limit(kb: KnowledgeBase) -> None:
    top = _top(kb, TRT_LIMIT)
    assert top.entry.id == "tensorrt-ErrorCode-INVALID-CONFIG-builder-4+code-own-reason"
    assert '"/TopK: K exceeds the maximum value allowed (3840)"' in top.cause  # whole, no final period
    # the reason is of the over-limit kind with its two values read: what is over the limit, and the limit
    assert "The line says K exceeds a limit of this tool or target, 3840" in top.cause
    assert top.fix.startswith("Start from that reason: bring K under 3840:")
    _no_placeholder_left(top)


def test_an_onnxruntime_status_reason_leads_its_status_card(kb: KnowledgeBase) -> None:
    top = _top(kb, ORT_GRAPH)
    assert top.entry.id == "onnxruntime-10-INVALID-GRAPH+code-own-reason"
    assert top.cause.index("This is an invalidMul with domain_version of 13") < top.cause.index(
        "INVALID_GRAPH"
    )
    # the reason is of the op-at-opset kind (s32a): the op and its opset read, the fix acts on them
    assert top.fix.startswith("Start from that reason: make the opset and the runtime meet:")
    assert "Mul at opset 13" in top.fix
    assert "ort:10" in top.codes
    _no_placeholder_left(top)


def test_a_wrapped_status_keeps_its_card(kb: KnowledgeBase) -> None:
    """A status line wrapped after its first word ('Non-zero', fewer than MIN_REASON_WORDS words) is no
    reason to lead with: the status card answers as it did."""
    top = _top(kb, "Fail: [ONNXRuntimeError] : 1 : FAIL : Non-zero     \n   status code returned")
    assert "code-own-reason" not in top.entry.id


def test_an_entry_that_answers_the_reason_still_leads(kb: KnowledgeBase) -> None:
    """A reason an entry of its own knows (onnxruntime's type check) is answered by that entry, not by the
    status card with the reason quoted."""
    text = (
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Type Error: Type 'tensor(int32)' of input parameter "
        "(zq_shape) of operator (Reshape) in node (zq_node) is invalid."
    )
    top = _top(kb, text)
    assert top.entry.id == "onnxruntime-type-of-input-parameter-invalid"


def test_without_reason_sentence_drops_only_the_quoting_sentence() -> None:
    cause = "Code 4 (kX): shapes do not fit (a concat). The reason is in parentheses ({reason|}), read it."
    assert without_reason_sentence(cause) == "Code 4 (kX): shapes do not fit (a concat)."
    assert without_reason_sentence("No placeholder here. At all.") == "No placeholder here. At all."
    assert without_reason_sentence("Only ({reason}).") == "Only ({reason})."  # never empty


def test_each_reason_kind_has_its_hint() -> None:
    REASON_HINTS = [k for k in REASON_KINDS if not k.cause]  # noqa: N806 (the table's value-less rows)
    assert reason_hint("Assertion x > 0 failed") == REASON_HINTS[0].fix
    assert reason_hint("Parameter check failed, condition: dims.d[0] > 0") == REASON_HINTS[1].fix
    assert reason_hint("K exceeds the allowed range") == REASON_HINTS[2].fix
    assert reason_hint("the Zq thing is not supported in INT8") == REASON_HINTS[3].fix
    # a reason whose kind reads its values starts the fix with that kind's own (placeholders kept to fill)
    assert reason_hint("K exceeds the maximum value allowed (3840)").startswith("bring {what} under {limit}")
    assert reason_hint("zq words of no kind") == OTHER_REASON_HINT
    assert "{hint}" in CODE_REASON.fix and "{card_fix}" in CODE_REASON.fix and "{card}" in CODE_REASON.cause


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)


@settings(max_examples=40, deadline=None)
@given(words=st.lists(_WORD, min_size=MIN_REASON_WORDS, max_size=12), code=st.sampled_from([1, 3, 4, 9, 10]))
def test_any_reason_of_a_trt_error_code_leads_whole(kb: KnowledgeBase, words: list[str], code: int) -> None:
    """Property: whatever words the reason holds, the card quotes them whole and first, the code stays the
    message's, and no placeholder is left."""
    reason = "zq " + " ".join(words)
    top = _top(kb, f"[E] [TRT] {code}: [zq.cpp::zq::1] Error Code {code}: Internal Error ({reason})")
    assert top.entry.id.startswith("tensorrt-ErrorCode-") and top.entry.id.endswith("+code-own-reason")
    assert top.cause.startswith(f'The message states its own reason next to the code: "{reason}".')
    assert f"trtb:{code}" in top.codes
    _no_placeholder_left(top)


@settings(max_examples=30, deadline=None)
@given(words=st.lists(_WORD, min_size=MIN_REASON_WORDS, max_size=10))
def test_the_answer_is_the_same_each_time(kb: KnowledgeBase, words: list[str]) -> None:
    text = f"[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : zq {' '.join(words)}"
    first, second = _top(kb, text), _top(kb, text)
    assert (first.entry.id, first.cause, first.fix) == (second.entry.id, second.cause, second.fix)


# --- an AscendCL code after the call (or the operator) that returned it ------------------------------------

# dev messages.jsonl:211
SYNC_507001 = (
    "RuntimeError: copy_d2d:torch_npu/csrc/aten/common/CopyKernel.cpp:274 NPU function error: "
    "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507001"
)
# dev heldout2.jsonl:13 (a dev record of that file)
OPS_500002 = (
    "RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 OPS function error: "
    "Conv3D, error code is 500002"
)


def test_torch_npus_spelling_of_an_acl_call_is_named(kb: KnowledgeBase) -> None:
    top = _top(kb, SYNC_507001)
    assert top.entry.id == "ascend-acl-507001+ascend-call-returned-internal"
    assert top.cause.startswith("AclrtSynchronizeStreamWithTimeout returned 507001")
    assert "task scheduler" in top.cause  # the code's own card follows
    _no_placeholder_left(top)


def test_the_operator_torch_npu_ran_is_named(kb: KnowledgeBase) -> None:
    top = _top(kb, OPS_500002)
    assert top.entry.id == "ascend-500002+ascend-call-ops-function"
    assert top.cause.startswith("torch_npu ran the operator Conv3D")
    assert "ACL_ERROR_GE_FAILURE" in top.cause and "run Conv3D alone on the NPU" in top.fix
    _no_placeholder_left(top)


@pytest.mark.parametrize("code", ["507011", "507015", "507048"])
def test_an_acl_wrapper_call_keeps_the_codes_own_entry(kb: KnowledgeBase, code: str) -> None:
    """The call clause names the call over the code's own entry: its cause stays in the answer."""
    call = "c10_npu::acl::AclmdlRIExecuteAsync(model_ri_)"
    text = f"RuntimeError: NPU function error: {call}, error code is {code}"
    top = _top(kb, text)
    assert top.entry.id.endswith("+ascend-call-returned-internal")
    assert top.cause.startswith(f"AclmdlRIExecuteAsync returned {code}")
    assert f"acl:{code}" in top.codes


@settings(max_examples=30, deadline=None)
@given(name=st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=20))
def test_any_operator_torch_npu_names_is_named(kb: KnowledgeBase, name: str) -> None:
    # An op name that holds another tool's marker ("ZqNN" holds "qnn") is that tool's evidence, not this
    # test's subject: such names are left out.
    assume(not any(m in f"zq{name}".lower() for markers in MARKERS.values() for m, _ in markers))
    top = _top(kb, f"RuntimeError: InnerRun:x.cpp:1 OPS function error: Zq{name}, error code is 500002")
    assert top.entry.id == "ascend-500002+ascend-call-ops-function"
    assert f"operator Zq{name} " in top.cause


# dev round21.jsonl:16 (llama.cpp's CANN backend; the TraceBack names the runtime call and its reason)
RTS_107017 = (
    "CANN error: EL0003: [PID: 1445] 2025-10-21-03:40:09.141.920 The argument is invalid.\n"
    "        Solution: Try again with a valid argument.\n"
    "        TraceBack (most recent call last):\n"
    "        Convert memory address from virtual to dma physical failed, retCode=0x7020014."
    "[FUNC:MemcpyAsyncTaskInitV3][FILE:memory_task.cc][LINE:694]\n"
    "        rtMemcpyAsync execute failed, reason=[driver error:invalid handle]"
    "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
    "        [Call][Rts]call rts api [rtMemcpyAsync] failed, retCode is 107017"
    "[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n"
)


def test_the_runtime_call_and_its_reason_are_named_over_the_code_card(kb: KnowledgeBase) -> None:
    top = _top(kb, RTS_107017)
    assert top.entry.id == "ascend-acl-107017+ascend-call-rts-api"
    assert top.cause.startswith("The runtime call rtMemcpyAsync, which the AscendCL or framework call")
    assert "reason for it: driver error:invalid handle." in top.cause
    assert "aclrtMallocHost" in top.fix and "a runtime resource handle is invalid" in top.cause
    _no_placeholder_left(top)


def test_a_runtime_call_without_a_reason_line_says_so(kb: KnowledgeBase) -> None:
    text = "[Call][Rts]call rts api [rtZqCall] failed, retCode is 107017[FUNC:ReportCallError]"
    top = _top(kb, text)
    assert top.entry.id == "ascend-acl-107017+ascend-call-rts-api"
    assert "reason for it: none printed." in top.cause
    _no_placeholder_left(top)


# --- onnxruntime's 'system error number N': the errno read, the path filled ---------------------------------


def test_errno_13_is_permission_denied_with_the_path(kb: KnowledgeBase) -> None:
    text = (
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from "
        "/srv/zq/model.onnx failed:system error number 13"
    )
    top = _top(kb, text)
    assert top.entry.id == "onnxruntime-s30a-load-model-permission-denied"
    assert "EACCES, permission denied" in top.cause and "/srv/zq/model.onnx" in top.cause + top.fix
    bare = _top(kb, "[ONNXRuntimeError] : 1 : FAIL : system error number 13")
    assert bare.entry.id == "onnxruntime-s30a-load-model-permission-denied"
    _no_placeholder_left(bare)


@pytest.mark.parametrize("errno", ["1", "12", "24", "130", "131"])
def test_another_errno_keeps_the_general_entry_with_its_number_and_path(
    kb: KnowledgeBase, errno: str
) -> None:
    text = (
        f"[ONNXRuntimeError] : 1 : FAIL : Load model from C:\\m\\zq.onnx failed:system error number {errno}"
    )
    top = _top(kb, text)
    assert top.entry.id == "onnxruntime-s22e-load-model-system-error"
    assert f"errno) {errno}," in top.cause and "C:\\m\\zq.onnx" in top.cause
    _no_placeholder_left(top)
