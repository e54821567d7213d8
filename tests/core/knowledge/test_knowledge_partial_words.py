"""Issue 23: an entry's core phrase counts as a partial match only where it stands as whole words.

The messages are written for this test from format strings: tf-coreml's converter
(tfcoreml/_tf_coreml_converter.py, ``_check_unsupported_ops``: ``NotImplementedError("Unsupported Ops of type:
%s" ...)``) and RKNN Toolkit2's own "E ... ERROR: unsupport <op> op in current" wording.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.kb import _whole_words_in


@pytest.mark.parametrize(
    ("anchor", "text", "whole"),
    [
        ("error: unsupport", "notimplementederror: unsupported ops of type: tile", False),
        ("error: unsupport", "e rknn: error: unsupport einsum op in current", True),
        ("error: unsupport", "error: unsupport", True),
        ("error: unsupport", "xerror: unsupport x; error: unsupport y", True),  # the second occurrence
        ("error: unsupport", "error: unsupported", False),
        ("[tensor]", "x[tensor]y", True),  # an anchor ending in punctuation cuts no word
    ],
)
def test_whole_words_in(anchor: str, text: str, whole: bool) -> None:
    assert _whole_words_in(anchor, text) is whole


def test_a_word_cut_in_two_is_no_partial_match(kb: KnowledgeBase) -> None:
    text = "NotImplementedError: Unsupported Ops of type: Einsum,Tile"
    assert not [m for m in kb.lookup(text, top=10) if m.reason == "partial" and m.entry.family == "rknn"]


def test_the_tools_own_wording_still_matches(kb: KnowledgeBase) -> None:
    ranked = kb.lookup("E RKNN: ERROR: unsupport Einsum op in current", top=3)
    assert ranked[0].entry.family == "rknn"
