"""librknnrt's "failed to submit" is read with or without the "!" that some releases print after it."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase


@pytest.mark.parametrize("bang", ["!", ""])
def test_failed_to_submit_names_the_op_in_both_forms(kb: KnowledgeBase, bang: str) -> None:
    text = (
        f"E RKNN: [07:15:34.839] failed to submit{bang}, op id: 42, op name: Split:/Gather_64_2sl_2sp, "
        "flags: 0x5, task start: 8, task number: 2, run task counter: 0, int status: 0"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "rknn-failed-to-submit"
    assert dict(top.captures) == {"arg": "42", "op": "Split:/Gather_64_2sl_2sp"}
    assert "Split:/Gather_64_2sl_2sp" in top.cause


def test_another_submit_failure_is_no_pattern_match(kb: KnowledgeBase) -> None:
    """Without the op id and name the runtime prints, at most a partial match (medium confidence)."""
    found = [m for m in kb.lookup("failed to submit the job, op id unknown", top=5)]
    assert not any(m.entry.id == "rknn-failed-to-submit" and m.reason.startswith("pattern") for m in found)
