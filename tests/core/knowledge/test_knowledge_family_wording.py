"""The order of wording-only matches by their family's wording score (kb.family_wording_order)."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge import kb as kb_module
from dumpscope.core.knowledge.kb import WORDS_FAMILY_DECAY, Match, family_wording_order


def _match(family: str, score: float, reason: str = "words", n: int = 0) -> Match:
    e = Entry(
        id=f"{family}-{n}",
        tool=family,
        stage="run",
        cause="c",
        fix="f",
        source="s",
        family=family,
        pattern="",
    )
    return Match(entry=e, score=score, reason=reason)


def _families(ranked: list[Match]) -> list[str]:
    return [m.entry.family for m in ranked]


def test_several_entries_of_one_tool_outweigh_a_slightly_better_single_one() -> None:
    ranked = [
        _match("mnn", 10.0),
        _match("ascend", 9.0, n=1),
        _match("ascend", 8.0, n=2),
        _match("ascend", 7.0),
    ]
    out = family_wording_order(ranked)
    assert 9.0 + WORDS_FAMILY_DECAY * 8.0 > 10.0  # the family score, computed apart
    assert _families(out) == ["ascend", "mnn", "ascend", "ascend"]  # only the first place moves
    assert [m.score for m in out] == [9.0, 10.0, 8.0, 7.0]  # scores are kept
    assert sorted(out, key=id) == sorted(ranked, key=id)


def test_a_single_entry_far_above_the_others_stays_first() -> None:
    ranked = [
        _match("mnn", 9.2),
        _match("ascend", 5.9, n=1),
        _match("ascend", 5.6, n=2),
        _match("ascend", 5.6),
    ]
    assert 5.9 + WORDS_FAMILY_DECAY * 5.6 + WORDS_FAMILY_DECAY**2 * 5.6 < 9.2
    assert family_wording_order(ranked) == ranked


def test_only_the_leading_wording_only_run_moves() -> None:
    ranked = [
        _match("tensorrt", 45.0, reason="pattern"),
        _match("mnn", 10.0),
        _match("ascend", 9.0, n=1),
        _match("ascend", 8.0, n=2),
    ]
    assert family_wording_order(ranked) == ranked
    tail = [
        _match("mnn", 10.0),
        _match("rknn", 29.0, reason="family"),
        _match("ascend", 9.0),
        _match("ascend", 8.0),
    ]
    assert family_wording_order(tail) == tail


def test_the_tools_own_error_wording_weighs_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 4-gram of a tool's own binaries (below a marker's count) adds to its family's score."""
    ranked = [_match("ascend", 10.0), _match("onnxruntime", 9.0, n=1)]
    assert family_wording_order(ranked, "some text") == ranked
    monkeypatch.setattr(kb_module, "source_gram_counts", lambda low: {"onnxruntime": (1, 0)})
    assert 9.0 + kb_module.WORDS_FAMILY_GRAM > 10.0
    assert _families(family_wording_order(ranked, "some text")) == ["onnxruntime", "ascend"]
    assert family_wording_order(ranked) == ranked  # no text, no grams


def test_the_wording_order_reads_the_source_grams_the_family_detection_just_read(kb: KnowledgeBase) -> None:
    """One look-up counts a message's 4-grams of the tools' own wording once (the markers' pass and the
    wording order read the same window; ~10 ms on a 100 KB paste), with the same counts as a fresh pass."""
    from dumpscope.core.knowledge import family

    text = "RuntimeError: 'fancy_op' not implemented.\n" + "a line of an unrelated log\n" * 200
    family._gram_counts.cache_clear()
    ranked = kb.lookup(text, top=5)
    assert [m.reason for m in ranked[:2]] == ["words", "words"]  # the wording order was reached
    info = family._gram_counts.cache_info()
    assert info.misses == 1 and info.hits >= 1
    low = text.lower()
    assert family.source_gram_counts(low) == dict(
        family._gram_counts.__wrapped__(low[: family.SOURCE_WINDOW])
    )
