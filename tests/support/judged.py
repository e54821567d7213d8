"""The roles of bench/specific_dev_judged.jsonl's hand verdicts, one list for every test that checks
them (tests/core/knowledge/test_eval_explain_judge.py, test_eval_explain_specific.py): a session that
records verdicts under a new role adds it here."""

from __future__ import annotations

JUDGED_ROLES = frozenset(
    {
        "tuning",
        "validation",
        "s30f",
        "s31b",
        "s32b",
        "s32h-lso",
        "s35a",
        "s35h-lso",
        "s36o",
        "s36t",
        "s37a",
        "s37c",
        # s38a: the conditions of quoted checks read (lso draws 38101 before, 38102 after)
        "s38a",
        "s38c",
    }
)
