"""A specific entry found by wording alone answers first only when the message shares one of its distinctive
terms (words at most :data:`dumpscope.core.knowledge.index.DISTINCT_DF` entries hold:
:meth:`dumpscope.core.knowledge.kb.KnowledgeBase.distinct_first`); sharing only words many entries hold
(``build``, ``engine``, ``failed``), its cause and fix are likely another check's of the same tool, and the
tool's card comes first, the entry below it.  A code, pattern or marker match is never affected.

The messages are written for these tests in the vendors' public forms with made-up contents; none is copied
from the evaluation set: TensorRT samples' build-failure line (``samples/sampleDynamicReshape``:
``... engine build failed.``) and onnx-tensorrt's Resize importer (``Resize scales must be an initializer!``,
reworded, and as its assertion prints it)."""

from __future__ import annotations

import json
from pathlib import Path

from dumpscope.core.knowledge import load_kb
from dumpscope.core.knowledge.index import (
    DISTINCT_DF,
    CompiledIndex,
    Postings,
    build_index,
    common_words,
)
from dumpscope.core.knowledge.kb import KnowledgeBase
from dumpscope.core.knowledge.loader import builtin_index

NO_USER_DIR = Path("/nonexistent-dumpscope-test")
KB = load_kb(user_dir=NO_USER_DIR)
BUILD_FAILED = "Engine build failed"
"""A TensorRT build failure in a sample's words: it shares ``engine``, ``build`` and ``failed`` with
DeepStream's nvinfer entry (``NvDsInferContextImpl::buildModel() ... build engine file failed``), none of
its own terms."""
DEEPSTREAM = "tensorrt-s19d-deepstream-build-engine-failed"
RESIZE = "tensorrt-resize-scales-must-be-an"


def _without_rule(text: str, top: int = 3) -> list[str]:
    kb = KB.without(())
    kb.distinct_first = lambda ranked, text: ranked  # type: ignore[method-assign]
    return [m.entry.id for m in kb.lookup(text, top=top)]


def test_a_words_match_sharing_no_distinctive_term_gives_its_tools_card_first() -> None:
    assert _without_rule(BUILD_FAILED)[0] == DEEPSTREAM  # without the rule, DeepStream's advice came first
    found = KB.lookup(BUILD_FAILED, top=3)
    assert [m.entry.id for m in found[:2]] == ["family-tensorrt", DEEPSTREAM]
    card, entry = found[0], found[1]
    assert card.reason == entry.reason == "words"  # no marker named TensorRT: as sure as the wording
    assert card.score == entry.score
    shared = entry.entry.words & {"engine", "build", "failed"}
    assert shared and not shared - KB._common_words()  # it shares words, none of them distinctive
    assert entry.entry.words - KB._common_words()  # it has terms of its own: nvdsinfercontextimpl, buildmodel


def test_the_answer_withholds_the_card_as_it_withheld_the_entry_and_names_the_tool_once() -> None:
    found = KB.answer(BUILD_FAILED)
    assert not found.confident  # under the floor, as the entry was
    assert found.closest[0] == KB.lookup(BUILD_FAILED, top=1)[0].entry.tool
    assert len(found.closest) == len(set(found.closest))
    assert sum("TensorRT" in tool for tool in found.closest) == 1  # the card's name, not also the entry's


def test_a_words_match_sharing_the_ops_own_term_keeps_its_entry_first() -> None:
    text = "The scales input of Resize must be an initializer"  # onnx-tensorrt's check, reworded
    first = KB.lookup(text, top=3)[0]
    assert first.entry.id == RESIZE
    assert first.reason == "words"
    assert "scales" in first.entry.words - KB._common_words()  # the input's own name: few entries hold it


def test_a_pattern_match_is_never_affected() -> None:
    text = 'Assertion failed: scales.is_weights() && "Resize scales must be an initializer!"'
    first = KB.lookup(text, top=3)[0]
    assert first.entry.id == RESIZE
    assert first.reason.startswith("pattern")
    assert _without_rule(text)[0] == RESIZE
    # the rule itself passes a first match found by its pattern through unchanged
    ranked = KB.lookup(text, top=5)
    assert KB.distinct_first(ranked, "unrelated words only") == ranked


def test_a_marker_match_is_never_affected() -> None:
    text = "TensorRT engine build failed"  # the tool named: its card answers by its marker
    first = KB.lookup(text, top=3)[0]
    assert first.entry.id == "family-tensorrt"
    assert first.reason == "family"


def test_common_words_are_those_more_than_distinct_df_entries_hold() -> None:
    by_word = {"rank": list(range(DISTINCT_DF + 1)), "gathernd": [0, 1], "axis": list(range(DISTINCT_DF))}
    assert common_words(by_word) == frozenset({"rank"})
    common = KB._common_words()
    assert {"failed", "shape", "input", "layer", "build", "engine"} <= common
    assert "initializer" in common  # many entries' checks name an initializer
    assert not {"scales", "nvdsinfercontextimpl", "finded"} & common


def test_the_index_round_trips_the_common_words_and_an_old_index_computes_them() -> None:
    index = builtin_index()
    assert index is not None
    stored = index.data["postings"]["common_words"]
    assert stored == sorted(stored)
    assert frozenset(stored) == KB._common_words()
    # a fresh build of the same text holds the same field, through JSON
    text = index.text[:].decode("utf-8")
    rebuilt = json.loads(json.dumps(build_index(text)))
    assert rebuilt["postings"]["common_words"] == stored
    # an index written before the field: computed from the postings, the same words
    old = json.loads(json.dumps(index.data))
    del old["postings"]["common_words"]
    postings = CompiledIndex(index.text, old).postings(for_change=False)
    assert postings.common_words is None
    assert postings.common() == frozenset(stored)
    # a knowledge base built from its entries (no index) computes the same words
    built = KnowledgeBase(KB.entries)
    assert built._common_words() == frozenset(stored)
    assert [m.entry.id for m in built.lookup(BUILD_FAILED, top=2)] == ["family-tensorrt", DEEPSTREAM]


def test_postings_that_change_recompute_their_common_words() -> None:
    index = builtin_index()
    assert index is not None
    postings = Postings.from_json(index.data["postings"], for_change=True)
    assert postings.common_words is None  # a user entry may change how many entries hold a word
    assert postings.common() == KB._common_words()
