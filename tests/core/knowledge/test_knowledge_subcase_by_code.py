"""An entry written for one case of a code, found by the code alone, does not answer first (issue 23).

``ascend-E89999-dtype-mismatch`` explains E89999 when the message says two inputs' dtypes differ, naming
them; its cause speaks of those parts (``{dtype|one} and {dtype2|another}``).  A message printing E89999 for
another failure (a tiling check, a null pointer) matched it by the code only, and the answer then read
"inputs of different dtypes (one and another)": a case the message does not state, in default words.
Such a match is lowered by :data:`.kb.SUBCASE_PENALTY`: the code's other entries answer first."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.core.knowledge import load_kb
from dumpscope.core.knowledge.entry import Entry
from dumpscope.core.knowledge.kb import CODE_SCORE, FAMILY_SCORE, SUBCASE_PENALTY, speaks_of_parts

_KB = load_kb(user_dir=Path("/nonexistent-dumpscope-test"))
_BY_ID = {e.id: e for e in _KB.entries}

# Written for this test in the form CANN prints an operator's inner error (an "op[...]" line with
# [FUNC][FILE][LINE]); the check it states is no dtype mismatch.
_OTHER_E89999 = (
    "E89999: Inner Error!\n"
    "E89999: op[Gather], indices value 70000 is out of range [0, 32000)[FUNC:CheckIndices][FILE:gather.cc]"
    "[LINE:88]\n"
    "        TraceBack (most recent call last):\n"
    "        op[Gather], tiling failed.[FUNC:TilingGather][FILE:gather.cc][LINE:140]"
)


def _entry(cause: str) -> Entry:
    return Entry(
        id="t", tool="T", stage="run", cause=cause, fix="f", source="s", family="ascend", pattern="x"
    )


@pytest.mark.parametrize(
    ("cause", "speaks"),
    [
        ("inputs of different dtypes ({dtype|one} and {dtype2|another})", True),
        ("node {op} failed", True),
        ("Inspect the node{op|} in Netron", False),  # an empty part says nothing
        ("no parts at all", False),
    ],
)
def test_speaks_of_parts(cause: str, speaks: bool) -> None:
    assert speaks_of_parts(_entry(cause)) is speaks


def test_the_penalty_keeps_such_a_match_above_a_family_card_and_below_the_code_s_other_entries() -> None:
    assert FAMILY_SCORE < CODE_SCORE - SUBCASE_PENALTY < CODE_SCORE


def test_an_e89999_message_of_another_failure_is_not_answered_by_the_dtype_mismatch_case() -> None:
    top = _KB.lookup(_OTHER_E89999, top=3)
    assert top
    assert top[0].entry.id != "ascend-E89999-dtype-mismatch"
    assert "(one and another)" not in top[0].cause
    found = {m.entry.id: m for m in _KB.lookup(_OTHER_E89999, top=20)}
    if "ascend-E89999-dtype-mismatch" in found:
        assert found["ascend-E89999-dtype-mismatch"].reason == "code"


def test_the_dtype_mismatch_message_is_still_answered_by_its_case_with_its_parts() -> None:
    example = _BY_ID["ascend-E89999-dtype-mismatch"].example
    top = _KB.lookup(f"E89999: Inner Error!\n{example}", top=1)[0]
    assert top.entry.id == "ascend-E89999-dtype-mismatch"
    assert "pattern" in top.reason
    assert "DT_INT64" in top.cause or "DT_INT32" in top.cause


def test_every_case_entry_found_by_its_code_alone_scores_the_penalty_less() -> None:
    """Property over the KB: for each entry whose cause speaks of parts and that a code names, a line
    holding only one of its codes' printed forms never ranks it above the same code's entries that do not
    speak of parts, when such entries were found by that code too."""
    checked = 0
    for e in _KB.entries:
        if not (e.keys and speaks_of_parts(e)) or not e.code:
            continue
        line = e.code.split()[0].split("/")[0]
        matches = _KB.lookup(f"error {line}", top=50)
        by_code = [m for m in matches if m.reason == "code"]
        if not any(m.entry is e for m in by_code):
            continue
        checked += 1
        mine = next(m for m in by_code if m.entry is e)
        plain = [m for m in by_code if not speaks_of_parts(m.entry) and m.score >= CODE_SCORE]
        for other in plain:
            assert other.score > mine.score, (e.id, other.entry.id)
    assert checked >= 1
