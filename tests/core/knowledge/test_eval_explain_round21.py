"""Round 21 of the explain eval set (tests/data/explain/round21.jsonl): floors at the figures measured on
main 985c9c6 before this session's changes to the KB (the blind measure; the README's round 21 section),
raised by the lead to the figures of the session's final tree where they rose (dev claimed, the log scan,
specific advice).
Counts only: no held-out text is read or shown here; a floor may be raised, never lowered without the lead."""

from __future__ import annotations

import re

import pytest

from bench.eval_explain import CLAIMED, DATA, evaluate, load, log_scan_recall, right_tool_answers, specific
from dumpscope.core.knowledge import KnowledgeBase

ROUND21 = DATA.with_name("round21.jsonl")

#: (split, "claimed" | "new") -> (family@1 hits, messages); (split, "code") -> (code@3 hits, cases).
FLOORS = {
    ("dev", "claimed"): (33, 33),
    ("dev", "new"): (12, 12),
    ("dev", "code"): (10, 10),
    ("heldout", "claimed"): (14, 16),
    ("heldout", "new"): (5, 5),
    ("heldout", "code"): (5, 5),
}
#: split -> (messages found, messages) when each is buried in noise as pasted (no noise line may be reported).
SCAN_FLOORS = {"dev": (45, 45), "heldout": (20, 21)}
#: split -> (right-tool answers whose advice is specific by the tightened judge, right-tool answers).
SPECIFIC_FLOORS = {"dev": (36, 45), "heldout": (16, 19)}


@pytest.fixture(scope="module")
def records() -> list[dict[str, object]]:
    return load(ROUND21)


def test_round21_family_and_code_floors(kb: KnowledgeBase, records: list[dict[str, object]]) -> None:
    table = evaluate(kb, records, misses=False)
    sums: dict[tuple[str, str], list[int]] = {key: [0, 0] for key in FLOORS}
    for (split, family), (n, hits, codes, code_hits, _strict) in table.items():
        group = sums[(split, "claimed" if family in CLAIMED else "new")]
        group[0] += hits
        group[1] += n
        sums[(split, "code")][0] += code_hits
        sums[(split, "code")][1] += codes
    for key, (floor, total) in FLOORS.items():
        assert sums[key][1] == total, (key, sums[key])
        assert sums[key][0] >= floor, (key, sums[key])


def test_round21_log_scan_floors(
    kb: KnowledgeBase, records: list[dict[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    log_scan_recall(kb, records)
    out = capsys.readouterr().out
    for split, (floor, total) in SCAN_FLOORS.items():
        m = re.search(
            rf"{split}\s+(\d+) messages in \d+ lines: found\s+(\d+)/(\d+).*noise lines reported: (\d+)", out
        )
        assert m, out
        assert int(m.group(1)) == int(m.group(3)) == total
        assert int(m.group(2)) >= floor, (split, m.group(2))
        assert m.group(4) == "0", (split, m.group(4))


@pytest.mark.parametrize("split", sorted(SPECIFIC_FLOORS))
def test_round21_specific_advice_floors(
    kb: KnowledgeBase, records: list[dict[str, object]], split: str
) -> None:
    answers = right_tool_answers(kb, records, split)
    ok = sum(specific(m)[0] for _r, m in answers)
    floor, total = SPECIFIC_FLOORS[split]
    assert len(answers) >= total and ok >= floor, (split, ok, len(answers))
