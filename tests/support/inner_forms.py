"""What every inner-form test asks of a cue (tests/core/knowledge/test_knowledge_inner_forms_*.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import source_gram_counts
from dumpscope.core.knowledge.kb import wording_cue

Cue = tuple[str, str, re.Pattern[str]]


def cued(text: str, cues: Iterable[Cue]) -> list[str]:
    """The families of ``cues`` whose literal and form ``text`` holds."""
    lowered = text.lower()
    return [family for family, literal, form in cues if literal in lowered and form.search(lowered)]


def assert_cued_alone(kb: KnowledgeBase, family: str, text: str, cues: Iterable[Cue]) -> None:
    """``text`` names no tool and holds none of ``family``'s 4-grams, yet its inner form cues ``family`` alone
    (among ``cues`` and in the ranking's wording cue) and ranks it first."""
    assert kb.named_families(text) == []
    assert family not in source_gram_counts(text.lower())  # none of its 4-grams survives the names
    assert cued(text, cues) == [family]
    assert wording_cue(text.lower()) == (family,)
    assert kb.lookup(text, top=1)[0].entry.family == family
