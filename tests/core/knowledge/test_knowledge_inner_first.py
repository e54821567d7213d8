"""An envelope's inner message is answered by its own entry, with what the envelope named.

onnxruntime's ``Non-zero status code returned while running <Op> node. Name:'<node>' Status Message: <inner>``
carries the real failure in ``<inner>``; the envelope entry only says which node failed.  When an entry of
the same tool matches the inner message, it comes first, and it keeps the node the whole text named."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.kb import Match, inner_first

ENVELOPE = "Non-zero status code returned while running {op} node. Name:'{node}' Status Message: {inner}"


def test_inner_entry_first_and_envelope_second(kb: KnowledgeBase) -> None:
    text = ENVELOPE.format(
        op="Split", node="head/split_2", inner="Cannot split using values in 'split' attribute. Axis=1"
    )
    ranked = kb.lookup(text, top=3)
    assert [m.entry.id for m in ranked[:2]] == [
        "onnxruntime-split-sizes-mismatch",
        "onnxruntime-non-zero-status-code-returned",
    ]
    assert ranked[0].score > ranked[1].score
    assert ("op", "head/split_2") in ranked[1].captures


def test_envelope_alone_still_answers(kb: KnowledgeBase) -> None:
    """An inner message no entry knows leaves the envelope first (it still names the node)."""
    text = ENVELOPE.format(op="Mul", node="mul_9", inner="an inner text no entry knows zq7")
    top = kb.lookup(text, top=1)[0]
    # the envelope's card, leading with the reason nothing else answered (clauses.envelope_reason_answered)
    assert top.entry.id == "onnxruntime-non-zero-status-code-returned+envelope-inner-reason"
    assert ("op", "mul_9") in top.captures


def test_inner_match_keeps_the_node_the_whole_text_named(kb: KnowledgeBase) -> None:
    text = ENVELOPE.format(
        op="Resize", node="up_1", inner="no kernel image is available for execution on the device"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "onnxruntime-cuda-no-kernel-image"
    assert dict(top.captures)["op"] == "up_1" and "up_1" in top.cause


def _match(
    entry_id: str, family: str, score: float, reason: str, captures: tuple[tuple[str, str], ...]
) -> Match:
    entry = Entry(entry_id, "T", "run", "c", "f", "s", family=family, pattern="x")
    return Match(entry, score, reason, captures)


def test_only_an_envelope_of_the_same_tool_moves_below_a_pattern_match() -> None:
    envelope = _match("env", "onnxruntime", 52.0, "pattern", (("op", "n"), ("reason", "inner")))
    inner = _match("inner", "onnxruntime", 48.0, "pattern", ())
    other_tool = _match("other", "tensorrt", 60.0, "pattern", ())
    by_words = _match("words", "onnxruntime", 55.0, "words", ())
    scores = {m.entry.id: m.score for m in inner_first([envelope, inner, other_tool, by_words])}
    assert scores == {"env": 47.0, "inner": 48.0, "other": 60.0, "words": 55.0}
    alone = inner_first([envelope, other_tool])
    assert [m.score for m in alone] == [52.0, 60.0]  # no inner match of its tool: unchanged


FOREIGN_INNER = "EE9999: Inner Error!\nrtZqQuery execute failed, reason=[feature not support]"


def test_an_inner_message_of_another_tool_answers_before_the_envelope(kb: KnowledgeBase) -> None:
    """s24g: an execution provider's backend (CANN's runtime, rts error_message_manage.cc) printed the inner
    message: with no entry of onnxruntime for it, the other tool's entry found inside the envelope's
    ``Status Message:`` answers first, and the envelope, still naming the node, comes after it."""
    text = ENVELOPE.format(op="Conv", node="conv_zz", inner=FOREIGN_INNER)
    ranked = kb.lookup(text, top=3)
    assert ranked[0].entry.id == "ascend-rt-feature-not-support"
    assert ("arg", "rtZqQuery") in ranked[0].captures
    envelope = [m for m in ranked if m.entry.id == "onnxruntime-non-zero-status-code-returned"]
    assert envelope and ("op", "conv_zz") in envelope[0].captures


def test_another_tool_before_the_envelope_moves_nothing() -> None:
    """Only a match inside the envelope's inner message (from where its reason starts) moves it."""
    envelope = Entry(
        "env", "T", "run", "c", "f", "s", family="onnxruntime", pattern=r"Status Message: (?P<reason>[^\n]+)"
    )
    inner = Entry("inner", "T", "run", "c", "f", "s", family="ascend", pattern=r"rtZq\w+ execute failed")
    matches = [
        Match(envelope, 50.0, "pattern", (("reason", "EE9999: Inner Error!"),)),
        Match(inner, 46.0, "pattern", ()),
    ]
    after = "Status Message: EE9999: Inner Error!\nrtZqQuery execute failed"
    before = "rtZqQuery execute failed\nStatus Message: EE9999: Inner Error!"
    assert [m.score for m in inner_first(matches, after)] == [45.0, 46.0]
    assert [m.score for m in inner_first(matches, before)] == [50.0, 46.0]


def test_another_tool_the_text_does_not_name_moves_nothing(kb: KnowledgeBase) -> None:
    """A line that only looks like another tool's (no marker or code of it) leaves the envelope first."""
    text = ENVELOPE.format(
        op="Conv", node="conv_zz", inner="rtZqQuery execute failed, reason=[feature not support]"
    )
    top = kb.lookup(text, top=1)[0].entry.id
    assert top.removesuffix("+envelope-inner-reason") == "onnxruntime-non-zero-status-code-returned"


@pytest.mark.parametrize(
    ("prefix", "op"),
    [("[ONNXRuntimeError] : 1 : FAIL : ", "LayerNormalization"), ("RUNTIME_EXCEPTION : ", "Loop")],
)
def test_an_envelope_cut_before_its_node_name_still_names_the_op(
    kb: KnowledgeBase, prefix: str, op: str
) -> None:
    """Without ``Name:'...' Status Message:`` the envelope is no envelope: its entry answers by its pattern
    before the code card, with the op type in the advice and the code card's code still shown."""
    text = f"{prefix}Non-zero status code returned while running {op} node."
    ranked = kb.lookup(text, top=3)
    top = ranked[0]
    # the envelope's entry, or (s25g) that entry answered by the clause of its op type (Loop: a subgraph node)
    assert top.entry.id.split("+")[0] == "onnxruntime-non-zero-status-code-returned"
    assert "pattern" in top.reason and ("arg", op) in top.captures
    assert op in top.cause and op in top.fix
    assert not any(name == "reason" for name, _ in top.captures)
    if "FAIL" in prefix:
        assert "ort:1" in {c for m in ranked for c in m.codes}


CATCH_ALL = "EZ9999: Inner Error!\nEZ9999: [PID: 3] 2026-01-01-00:00:00.000.000 {reason}"


def test_a_catch_all_ascend_code_answers_after_the_reason_its_block_carries(kb: KnowledgeBase) -> None:
    """hicann/opbase: under CANN's catch-all EZ9999 the block's own line says why; the entry that reads it
    answers first, the code card comes after it and the code stays in the answer."""
    ranked = kb.lookup(CATCH_ALL.format(reason="Op ZqOp does not has any binary."), top=3)
    assert ranked[0].entry.id == "ascend-s23b-aclnn-op-no-binary"
    assert ("op_type", "ZqOp") in ranked[0].captures
    assert "ascend:EZ9999" in ranked[0].codes
    assert "ascend-EZ9999" in [m.entry.id for m in ranked[1:]]


def test_a_catch_all_ascend_code_stays_first_without_a_reason_it_knows(kb: KnowledgeBase) -> None:
    top = kb.lookup(CATCH_ALL.format(reason="zq qv wx kj happened"), top=1)[0]
    assert top.entry.id == "ascend-EZ9999"


def test_the_op_tiling_check_answers_before_the_line_that_reports_tiling_failed(kb: KnowledgeBase) -> None:
    """The op's own tiling check (its op_host *_tiling.cpp line) says why; nnopbase's 'do tiling failed'
    (level context) only says that tiling refused, and answers alone when no check line is printed."""
    text = CATCH_ALL.format(
        reason="Input y shape invalid, shape is not equal x shape."
        "[FUNC:CheckShapes][FILE:zq_norm_tiling.cpp][LINE:9]"
        "\n        TraceBack (most recent call last):\n       ZqNorm do tiling failed, ret is -1."
    )
    ranked = [m.entry.id for m in kb.lookup(text, top=3)]
    assert ranked[:3] == [
        "ascend-s23b-op-tiling-check",
        "ascend-s23b-aclnn-do-tiling-failed",
        "ascend-EZ9999",
    ]
    alone = kb.lookup(CATCH_ALL.format(reason="ZqNorm do tiling failed, ret is -1."), top=1)[0]
    assert alone.entry.id == "ascend-s23b-aclnn-do-tiling-failed" and ("op_type", "ZqNorm") in alone.captures


def test_a_check_read_back_ranks_under_the_entry_that_names_its_part(kb: KnowledgeBase) -> None:
    """torch_npu: a class entry that only reads the check's text back (its ``detail`` and ``ERR`` code) and an
    entry that names what failed match the same line: the naming entry answers first, the class entry next."""
    text = (
        "RuntimeError: Failed to find function aclrtZqQuery, Please upgrade CANN version.\n"
        "[ERROR] 2026-01-02-10:11:12 (PID:4321, Device:0, RankID:-1) ERR00100 PTA call acl api failed"
    )
    ranked = [m.entry.id for m in kb.lookup(text, top=3)]
    assert ranked[:2] == ["torch-npu-s20d-cann-function-missing", "torch-npu-s24a-check-cann-version"]


def test_a_code_card_goes_under_the_match_that_names_the_part_not_over_it(kb: KnowledgeBase) -> None:
    """The ERR code card is placed after the read-back class entry is moved under the naming match: the
    card then goes under the naming match instead of tying with it (it was placed under the class entry's
    score)."""
    text = (
        "RuntimeError: Failed to find function HcclZqResume, maybe you cann version is too low, "
        "please upgrade it\n"
        "[ERROR] 2026-01-02-10:11:12 (PID:4321, Device:0, RankID:-1) ERR02008 DIST resource not found"
    )
    ranked = kb.lookup(text, top=3)
    assert ranked[0].entry.id == "torch-npu-s20d-cann-function-missing"
    card = next(m for m in ranked if m.entry.id == "torch-npu-ERR02008")
    assert card.score < ranked[0].score


def test_a_code_card_stays_above_an_entry_of_another_code_found_by_its_wording() -> None:
    """A code card goes under its tool's pattern match only when that match could state this message's
    reason: an entry keyed to another code (507014's AI Core timeout, matched by the words 'aicore timeout' in
    a message that prints 507015) does not; an entry of no code does."""
    card = Match(
        Entry(
            "card",
            "T",
            "run",
            "c",
            "f",
            "s",
            family="ascend",
            code="507015",
            keys=("acl:507015",),
            level="code",
        ),
        49.0,
        "code+pattern",
        codes=("acl:507015",),
    )
    other_code = Match(
        Entry("other", "T", "run", "c", "f", "s", family="ascend", pattern="timeout", keys=("acl:507014",)),
        50.0,
        "pattern",
        codes=("acl:507015",),
    )
    assert [m.score for m in inner_first([card, other_code])] == [49.0, 50.0]
    assert [m.score for m in inner_first([card, other_code._replace(score=48.0)])] == [49.0, 48.0]
    no_code = Match(
        Entry("plain", "T", "run", "c", "f", "s", family="ascend", pattern="timeout"), 48.0, "pattern"
    )
    assert [m.score for m in inner_first([card, no_code])] == [47.0, 48.0]
