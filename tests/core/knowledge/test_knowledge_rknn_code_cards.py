"""RKNN's return-code cards (level ``code``: RKNN_ERR_*, ``rknn_init ... ret=-N``) say what a code means in
general: the runtime's own line before the failure (an operator it cannot run for a data type, the driver,
a struct size) answers first, and the code card stays in the answer after it."""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase


def test_rknn_init_failure_answers_with_the_data_type_line_before_it(kb: KnowledgeBase) -> None:
    """The return code's card (RKNN_ERR_FAIL) says what the code means in general: the runtime's own line
    before it, an operator it cannot run for a data type, answers first; the code stays in the answer."""
    text = (
        "I RKNN: [08:10:11.000] RKNN Runtime Information, librknnrt version: 1.5.2\n"
        "E RKNN: [08:10:11.123] Meet unsupported Cast, dtype = 7\n"
        "E RKNN: [08:10:11.124] rknn_init, load model failed!\nrknn_init fail! ret=-1"
    )
    found = kb.lookup(text, top=5)
    assert found[0].entry.id == "rknn-meet-unsupported-abc-dtype"
    assert dict(found[0].captures) == {"arg": "Cast", "dtype": "7"}
    assert "[Cast]" in found[0].cause and "float16" in found[0].fix
    assert any(m.entry.id == "rknn-RKNN-ERR-FAIL-1" for m in found)


def test_rknn_model_version_still_answers_a_failed_init(kb: KnowledgeBase) -> None:
    """The return code's card goes under the line that says why, not over it."""
    text = (
        "E RKNN: [02:59:59.949] Invalid RKNN model version 6\n"
        "E RKNN: [02:59:59.949] rknn_init, load model failed!\nrknn_init fail! ret=-1"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "rknn-RKNN-ERR-MODEL-INVALID-6"
    assert dict(top.captures)["version"] == "6"


def test_a_code_card_follows_the_line_that_says_why(kb: KnowledgeBase) -> None:
    """RKNN's return-code cards (level 'code') go under the runtime's own line, and stay in the answer."""
    text = (
        "E RKNN: failed to open rknpu module, need to insmod rknpu dirver!\n"
        "Exception: RKNN init failed. error code: RKNN_ERR_FAIL"
    )
    found = kb.lookup(text, top=3)
    assert [m.entry.id for m in found[:2]] == ["rknn-no-npu-driver", "rknn-RKNN-ERR-FAIL-1"]
