"""No advice is only a pointer to another entry.

A fix such as "See 'X' entry" or "Same as above." is shown alone (the other entry is not on screen, and
"above" means nothing outside the source file), so each entry carries the advice itself."""

from __future__ import annotations

import re

from dumpscope.core.knowledge import KnowledgeBase

POINTER = re.compile(r"^\s*(?:see\b|same as\b|as above\b|refer to\b)", re.IGNORECASE)


def test_the_pointer_pattern_finds_pointers() -> None:
    assert POINTER.search("See 'Could not find an implementation' entry.")
    assert POINTER.search("Same as above.")
    assert not POINTER.search("Seed the calibration set with real images.")


def test_no_fix_is_only_a_pointer_to_another_entry(kb: KnowledgeBase) -> None:
    pointers = [e.id for e in kb.entries if e.origin == "builtin" and POINTER.search(e.fix)]
    assert pointers == []
