"""The check every knowledge test of a message form makes: the entry that answered and its advice."""

from __future__ import annotations

import re
from typing import Any

from bench.eval_explain import specific

#: A ``{name}`` or ``{name|words}`` placeholder left in rendered advice.
PLACEHOLDER = re.compile(r"\{[a-z][a-z_0-9]*(?:\|[^{}]*)?\}")


def assert_advice(top: Any, named: tuple[str, ...] = (), judged_specific: bool = True) -> str:
    """``top`` (a :class:`~dumpscope.core.knowledge.kb.Match`)'s cause and fix hold each ``named`` part, no
    placeholder is left in them, and (unless ``judged_specific`` is false) the automatic judge calls the
    advice specific; returns the advice text."""
    advice = f"{top.cause} {top.fix}"
    for part in named:
        assert part in advice, (part, advice)
    assert PLACEHOLDER.search(advice) is None, advice
    if judged_specific:
        assert specific(top) == (True, "")
    return advice


def assert_answered(
    kb: Any, message: str, named: tuple[str, ...] = (), *, entry: str = "", clause: str = ""
) -> Any:
    """The best answer to ``message`` is ``entry`` (or, with ``clause``, a card answered by that reason
    clause: an id ending ``+clause``), with specific advice holding each ``named`` part; returns the match."""
    top = kb.lookup(message, top=1)[0]
    if entry:
        assert top.entry.id == entry, top.entry.id
    if clause:
        assert top.entry.id.endswith("+" + clause), top.entry.id
    assert_advice(top, named)
    return top
