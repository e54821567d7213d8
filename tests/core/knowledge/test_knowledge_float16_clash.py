"""Issue 23: a float16/float type clash at load ranks the fp16 conversion's answer first, in any envelope.

The messages are written for this test from onnxruntime's format strings (onnxruntime/core/graph/graph.cc:
"Type parameter (T) of Optype (Op) bound to different types (tensor(a) and tensor(b) in node (n)." and
"Type (tensor(a)) of output arg (x) of node (n) does not match expected type (tensor(b)).", inside
include/onnxruntime/core/common/status.h's "[ONNXRuntimeError] : 1 : FAIL : ..." envelope), not copied from
an evaluation set.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.kb import FLOAT16_CLASH, float16_clash_first

ENVELOPE = "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : "
BOUND = (
    "Type Error: Type parameter (T) of Optype (Mul) bound to different types ({a} and {b} in node (mul_7)."
)
OUTPUT = (
    "Type Error: Type ({a}) of output arg (/blk/Cast_3_output_0) of node (/blk/Cast_3) does not match "
    "expected type ({b})."
)
F16, F32, I64 = "tensor(float16)", "tensor(float)", "tensor(int64)"

CLASHES = [
    ENVELOPE + "Load model from m.onnx failed:" + BOUND.format(a=F32, b=F16),
    ENVELOPE + "Load model from m.onnx failed:" + BOUND.format(a=F16, b=F32),
    ENVELOPE + "Load model from m.onnx failed:" + OUTPUT.format(a=F16, b=F32),
    "[ONNXRuntimeError] : 1 : FAIL : " + OUTPUT.format(a=F32, b=F16),
    "RuntimeError: [ONNXRuntimeError] : 1 : GENERAL ERROR : " + BOUND.format(a=F16, b=F32),
]


@pytest.fixture(scope="module")
def kb_without_float16_entries(kb: KnowledgeBase) -> KnowledgeBase:
    """The KB without float16's own entries (its family card stays): a clash no float16 entry was written
    for, as the leave-source-out mode ranks one."""
    return kb.without(i for i, e in enumerate(kb.entries) if e.family == "float16" and e.level != "family")


@pytest.mark.parametrize("text", CLASHES)
def test_a_float16_float_clash_answers_float16_first(text: str, kb: KnowledgeBase) -> None:
    assert kb.lookup(text, top=1)[0].entry.family == "float16"


@pytest.mark.parametrize("text", CLASHES)
def test_without_a_float16_entry_the_family_card_answers_before_the_runtime(
    text: str, kb_without_float16_entries: KnowledgeBase
) -> None:
    ranked = kb_without_float16_entries.lookup(text, top=5)
    first = ranked[0]
    # the family card, as it is or answered by the float16 clause of the clash it states
    assert first.entry.family == "float16"
    assert first.entry.level == "family" or first.entry.id.startswith("family-float16+float16-")
    # the runtime's own wording of the check is still offered, scored under the conversion's card
    assert any(m.entry.family == "onnxruntime" and m.score < first.score for m in ranked[1:])
    # the status code the envelope printed is still shown with the first answer
    if "[ONNXRuntimeError] : 1 :" in text:
        assert "ort:1" in first.codes


@pytest.mark.parametrize(
    "text",
    [
        "[ONNXRuntimeError] : 1 : FAIL : " + BOUND.format(a=I64, b=F32),
        "[ONNXRuntimeError] : 1 : FAIL : " + OUTPUT.format(a=F32, b=I64),
    ],
)
def test_a_clash_without_float16_is_the_runtimes(
    text: str, kb_without_float16_entries: KnowledgeBase
) -> None:
    assert kb_without_float16_entries.lookup(text, top=1)[0].entry.family == "onnxruntime"


def test_the_clash_needs_two_different_types() -> None:
    assert FLOAT16_CLASH.search(BOUND.format(a=F16, b=F32))
    assert FLOAT16_CLASH.search(OUTPUT.format(a=F32, b=F16))
    same = BOUND.format(a=F16, b=F16)
    m = FLOAT16_CLASH.search(same)
    assert m is not None and m.group("a") == m.group("b")  # matched, but not a clash of float16 and float


def test_same_types_move_nothing(kb_without_float16_entries: KnowledgeBase) -> None:
    text = "[ONNXRuntimeError] : 1 : FAIL : " + OUTPUT.format(a=F16, b=F16)
    ranked = kb_without_float16_entries.lookup(text, top=5)
    assert float16_clash_first(ranked, text) == ranked
    assert ranked[0].entry.family == "onnxruntime"


def test_nothing_moves_without_a_float16_match(kb: KnowledgeBase) -> None:
    text = "[ONNXRuntimeError] : 1 : FAIL : " + BOUND.format(a=F16, b=F32)
    others = [m for m in kb.lookup(text, top=10) if m.entry.family != "float16"]
    assert others and float16_clash_first(others, text) == others
