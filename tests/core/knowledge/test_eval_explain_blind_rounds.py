"""The blind rounds of the explain eval set (tests/data/explain/round20.jsonl to round41.jsonl):
floors at the figures each round gave on main before the session that collected it changed the KB (the blind
measure; the README's round sections), raised by the lead to the figures of that session's final tree where
they rose. Counts only: no held-out text is read or shown here; a floor may be raised, never lowered without
the lead."""

from __future__ import annotations

import re

import pytest

from bench.eval_explain import CLAIMED, DATA, evaluate, load, log_scan_recall, right_tool_answers, specific
from dumpscope.core.knowledge import KnowledgeBase

#: round -> (split, "claimed" | "new") -> (family@1 hits, messages); (split, "code") -> (code@3 hits, cases).
#: Round 20 was measured blind on a0c9d06, round 21 on 985c9c6, round 22 on 348ecde, round 23 on 0b82517,
#: round 24 on 30ee23f, round 25 on 20fb13a, round 26 on 5464b81, round 27 on 76d2702,
#: round 28 on 514288a, round 29 on 27cb0dc, round 30 on 25fcb05, round 31 on 50b23ce, round 32 on c6d18c8,
#: round 33 on 26a3b83, round 34 on baf37f7, round 35 on 4d74bb8, round 36 on 1a9f6f0,
#: round 37 on 260e971, round 38 on e7fb9a7, round 39 on 4e607fd, round 40 on bb73f4d,
#: round 41 on 05eed21.
FLOORS = {
    "round20": {
        ("dev", "claimed"): (35, 35),
        ("dev", "new"): (12, 12),
        ("dev", "code"): (18, 18),
        # lowered 19 -> 18 by the lead (2026-11-30, s21f's onnxruntime entries): one held-out onnxruntime
        # answer that was already withheld as "no confident match" now lists another tool first among the
        # closest; counts only, not looked at, nothing changed in reaction (round 15 rose by one in the same
        # merge).
        ("heldout", "claimed"): (18, 20),
        ("heldout", "new"): (12, 12),
        ("heldout", "code"): (6, 6),
    },
    "round21": {
        ("dev", "claimed"): (33, 33),
        ("dev", "new"): (12, 12),
        ("dev", "code"): (10, 10),
        ("heldout", "claimed"): (14, 16),
        ("heldout", "new"): (5, 5),
        ("heldout", "code"): (5, 5),
    },
    "round22": {
        ("dev", "claimed"): (31, 31),
        ("dev", "new"): (18, 18),
        ("dev", "code"): (14, 14),
        ("heldout", "claimed"): (14, 14),
        ("heldout", "new"): (8, 8),
        ("heldout", "code"): (7, 7),
    },
    "round23": {
        ("dev", "claimed"): (27, 27),
        ("dev", "new"): (14, 14),
        ("dev", "code"): (8, 8),
        # lowered 14 -> 13 by the lead (2026-11-29, the night's merges, s19a-s19f): one held-out answer that
        # was already withheld as "no confident match" now lists another tool first among the closest (the
        # wording weights moved as entries were added); counts only, not looked at; 13/16 is also its blind
        # figure on 0b82517.
        ("heldout", "claimed"): (13, 16),
        ("heldout", "new"): (9, 10),
        ("heldout", "code"): (6, 6),
    },
    "round24": {
        ("dev", "claimed"): (28, 28),
        ("dev", "new"): (16, 16),
        ("dev", "code"): (10, 10),
        ("heldout", "claimed"): (16, 19),
        ("heldout", "new"): (6, 6),
        ("heldout", "code"): (5, 5),
    },
    "round25": {
        ("dev", "claimed"): (31, 33),
        ("dev", "new"): (14, 18),
        ("dev", "code"): (17, 17),
        ("heldout", "claimed"): (12, 12),
        ("heldout", "new"): (4, 6),
        # 7 -> 6 with s32f's paste normalisation (core/knowledge/paste.py, 2026-12-01): one held-out code fell
        # out of the top three; on dev the same change moved only third places (3 of 1,084 records). Not
        # looked into (held-out), disclosed in tests/data/explain/README.md.
        ("heldout", "code"): (6, 7),
    },
    "round26": {
        ("dev", "claimed"): (15, 15),
        ("dev", "new"): (8, 8),
        ("dev", "code"): (5, 5),
        ("heldout", "claimed"): (12, 12),
        ("heldout", "new"): (6, 7),
        ("heldout", "code"): (3, 3),
    },
    "round27": {
        ("dev", "claimed"): (22, 22),
        ("dev", "new"): (11, 12),
        ("dev", "code"): (10, 10),
        ("heldout", "claimed"): (14, 15),
        ("heldout", "new"): (8, 8),
        ("heldout", "code"): (6, 6),
    },
    "round28": {
        ("dev", "claimed"): (14, 15),
        ("dev", "new"): (9, 12),
        ("dev", "code"): (10, 10),
        ("heldout", "claimed"): (8, 11),
        ("heldout", "new"): (4, 7),
        ("heldout", "code"): (3, 3),
    },
    "round29": {
        ("dev", "claimed"): (16, 16),
        ("dev", "new"): (7, 8),
        ("dev", "code"): (7, 7),
        ("heldout", "claimed"): (8, 8),
        ("heldout", "new"): (4, 6),
        ("heldout", "code"): (5, 5),
    },
    "round30": {
        ("dev", "claimed"): (10, 12),
        ("dev", "new"): (15, 17),
        ("dev", "code"): (2, 2),
        ("heldout", "claimed"): (5, 5),
        ("heldout", "new"): (8, 9),
        ("heldout", "code"): (1, 1),
    },
    "round31": {
        ("dev", "claimed"): (7, 7),
        ("dev", "new"): (7, 8),
        ("dev", "code"): (1, 1),
        ("heldout", "claimed"): (5, 5),
        ("heldout", "new"): (5, 6),
        ("heldout", "code"): (1, 1),
    },
    "round32": {
        ("dev", "claimed"): (16, 16),
        ("dev", "new"): (10, 10),
        ("dev", "code"): (9, 9),
        ("heldout", "claimed"): (13, 13),
        ("heldout", "new"): (14, 14),
        ("heldout", "code"): (6, 6),
    },
    "round33": {
        ("dev", "claimed"): (11, 11),
        ("dev", "new"): (7, 8),
        ("dev", "code"): (3, 3),
        ("heldout", "claimed"): (6, 6),
        ("heldout", "new"): (8, 8),
        ("heldout", "code"): (5, 5),
    },
    "round34": {
        ("dev", "claimed"): (7, 7),
        ("dev", "new"): (9, 9),
        ("dev", "code"): (2, 2),
        ("heldout", "claimed"): (7, 7),
        ("heldout", "new"): (9, 9),
        ("heldout", "code"): (5, 5),
    },
    "round35": {
        ("dev", "claimed"): (14, 15),
        ("dev", "new"): (12, 12),
        ("dev", "code"): (8, 9),
        ("heldout", "claimed"): (10, 10),
        ("heldout", "new"): (13, 13),
        ("heldout", "code"): (6, 6),
    },
    "round36": {
        ("dev", "claimed"): (7, 7),
        ("dev", "new"): (6, 6),
        ("dev", "code"): (5, 5),
        ("heldout", "claimed"): (1, 1),
        ("heldout", "new"): (1, 1),
        ("heldout", "code"): (1, 1),
    },
    "round37": {
        ("dev", "claimed"): (12, 14),
        ("dev", "new"): (9, 11),
        ("dev", "code"): (7, 7),
        ("heldout", "claimed"): (3, 3),
        ("heldout", "new"): (4, 5),
        ("heldout", "code"): (2, 2),
    },
    "round38": {
        ("dev", "claimed"): (12, 14),
        ("dev", "new"): (7, 7),
        ("dev", "code"): (4, 4),
        ("heldout", "claimed"): (11, 11),
        ("heldout", "new"): (3, 3),
        ("heldout", "code"): (7, 8),
    },
    "round39": {
        ("dev", "claimed"): (16, 17),
        ("dev", "new"): (9, 9),
        ("dev", "code"): (12, 12),
        ("heldout", "claimed"): (7, 7),
        ("heldout", "new"): (4, 4),
        ("heldout", "code"): (6, 6),
    },
    "round40": {
        ("dev", "claimed"): (7, 7),
        ("dev", "new"): (12, 13),
        ("dev", "code"): (3, 3),
        ("heldout", "claimed"): (8, 9),
        ("heldout", "new"): (6, 6),
        ("heldout", "code"): (5, 5),
    },
    "round41": {
        ("dev", "claimed"): (9, 9),
        ("dev", "new"): (11, 11),
        ("dev", "code"): (7, 7),
        ("heldout", "claimed"): (4, 4),
        ("heldout", "new"): (8, 9),
        ("heldout", "code"): (1, 1),
    },
}
#: round -> split -> (messages found, messages) when each is buried in noise as pasted (no noise line may be
#: reported).
SCAN_FLOORS = {
    "round20": {"dev": (46, 47), "heldout": (31, 32)},
    "round21": {"dev": (45, 45), "heldout": (20, 21)},
    "round22": {"dev": (49, 49), "heldout": (22, 22)},
    "round23": {"dev": (41, 41), "heldout": (25, 26)},
    "round24": {"dev": (44, 44), "heldout": (23, 25)},
    "round25": {"dev": (49, 51), "heldout": (17, 18)},
    "round26": {"dev": (23, 23), "heldout": (18, 19)},
    "round27": {"dev": (34, 34), "heldout": (23, 23)},
    "round28": {"dev": (26, 27), "heldout": (15, 18)},
    "round29": {"dev": (22, 24), "heldout": (14, 14)},
    "round30": {"dev": (25, 29), "heldout": (12, 14)},
    "round31": {"dev": (14, 15), "heldout": (11, 11)},
    "round32": {"dev": (26, 26), "heldout": (26, 27)},
    "round33": {"dev": (17, 19), "heldout": (13, 14)},
    "round34": {"dev": (14, 16), "heldout": (15, 16)},
    "round35": {"dev": (25, 27), "heldout": (21, 23)},
    "round36": {"dev": (13, 13), "heldout": (2, 2)},
    "round37": {"dev": (25, 25), "heldout": (8, 8)},
    "round38": {"dev": (20, 21), "heldout": (14, 14)},
    "round39": {"dev": (26, 26), "heldout": (11, 11)},
    "round40": {"dev": (20, 20), "heldout": (13, 15)},
    "round41": {"dev": (19, 20), "heldout": (13, 13)},
}
#: round -> split -> (right-tool answers whose advice is specific by the tightened judge, right-tool answers).
SPECIFIC_FLOORS = {
    # round 20's held-out count of right-tool answers lowered 31 -> 30 with its family@1 floor above (the same
    # withheld answer); its specific floor stays 20.
    "round20": {"dev": (33, 47), "heldout": (20, 30)},
    # round 21's held-out floor lowered 16 -> 15 by the lead (s18h): one of its answers had counted specific
    # while it read a TensorRT builder assert as an ONNX importer's requirement (a false reading, found by a
    # hand draw and fixed for every message); that message now gets TensorRT's family card.
    "round21": {"dev": (36, 45), "heldout": (15, 19)},
    "round22": {"dev": (36, 49), "heldout": (14, 22)},
    # round 23's held-out count of right-tool answers lowered 23 -> 22 with its family@1 floor above (the same
    # withheld answer); its specific floor stays 11.
    "round23": {"dev": (32, 41), "heldout": (11, 22)},
    "round24": {"dev": (39, 44), "heldout": (11, 22)},
    "round25": {"dev": (31, 45), "heldout": (12, 16)},
    "round26": {"dev": (22, 23), "heldout": (13, 18)},
    "round27": {"dev": (21, 33), "heldout": (17, 22)},
    "round28": {"dev": (12, 23), "heldout": (7, 12)},
    "round29": {"dev": (18, 23), "heldout": (10, 12)},
    "round30": {"dev": (12, 25), "heldout": (10, 13)},
    "round31": {"dev": (8, 14), "heldout": (8, 10)},
    "round32": {"dev": (21, 26), "heldout": (19, 27)},
    "round33": {"dev": (15, 18), "heldout": (11, 14)},
    "round34": {"dev": (10, 16), "heldout": (12, 16)},
    "round35": {"dev": (21, 26), "heldout": (17, 23)},
    "round36": {"dev": (12, 13), "heldout": (2, 2)},
    "round37": {"dev": (19, 21), "heldout": (6, 7)},
    "round38": {"dev": (16, 19), "heldout": (13, 14)},
    "round39": {"dev": (25, 25), "heldout": (11, 11)},
    "round40": {"dev": (17, 19), "heldout": (12, 14)},
    "round41": {"dev": (18, 20), "heldout": (10, 12)},
}
ROUNDS = sorted(FLOORS)


@pytest.fixture(scope="module", params=ROUNDS)
def rnd(request: pytest.FixtureRequest) -> tuple[str, list[dict[str, object]]]:
    return request.param, load(DATA.with_name(f"{request.param}.jsonl"))


def test_family_and_code_floors(kb: KnowledgeBase, rnd: tuple[str, list[dict[str, object]]]) -> None:
    name, records = rnd
    floors = FLOORS[name]
    table = evaluate(kb, records, misses=False)
    sums: dict[tuple[str, str], list[int]] = {key: [0, 0] for key in floors}
    for (split, family), (n, hits, codes, code_hits, _strict) in table.items():
        group = sums[(split, "claimed" if family in CLAIMED else "new")]
        group[0] += hits
        group[1] += n
        sums[(split, "code")][0] += code_hits
        sums[(split, "code")][1] += codes
    for key, (floor, total) in floors.items():
        assert sums[key][1] == total, (name, key, sums[key])
        assert sums[key][0] >= floor, (name, key, sums[key])


def test_log_scan_floors(
    kb: KnowledgeBase, rnd: tuple[str, list[dict[str, object]]], capsys: pytest.CaptureFixture[str]
) -> None:
    name, records = rnd
    log_scan_recall(kb, records)
    out = capsys.readouterr().out
    for split, (floor, total) in SCAN_FLOORS[name].items():
        m = re.search(
            rf"{split}\s+(\d+) messages in \d+ lines: found\s+(\d+)/(\d+).*noise lines reported: (\d+)", out
        )
        assert m, out
        assert int(m.group(1)) == int(m.group(3)) == total
        assert int(m.group(2)) >= floor, (name, split, m.group(2))
        assert m.group(4) == "0", (name, split, m.group(4))


@pytest.mark.parametrize("split", ["dev", "heldout"])
def test_specific_advice_floors(
    kb: KnowledgeBase, rnd: tuple[str, list[dict[str, object]]], split: str
) -> None:
    name, records = rnd
    answers = right_tool_answers(kb, records, split)
    # the judge the floors were set with (session 31's rules left out: see specific's docstring)
    ok = sum(specific(m, s31_rules=False)[0] for _r, m in answers)
    floor, total = SPECIFIC_FLOORS[name][split]
    assert len(answers) >= total and ok >= floor, (name, split, ok, len(answers))
