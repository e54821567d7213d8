"""What every reason-kind test asks of a line a kind reads
(tests/core/knowledge/test_knowledge_reason_kinds.py, test_knowledge_s36o.py)."""

from __future__ import annotations

import re

from dumpscope.core.knowledge.kb import fill
from dumpscope.core.knowledge.reason_kinds import reason_kind


def assert_reads_and_says(line: str, kind: str, values: dict[str, str]) -> None:
    """The line reads as ``kind`` with ``values``, and the kind's advice says every value it read."""
    read = reason_kind(line)
    assert read is not None, line
    assert read[0].name == kind
    assert dict(read[1]) == values
    text = fill(read[0].cause + " " + read[0].fix, read[1])
    assert not re.search(r"\{[a-z_0-9]+\}", text), text
    for value in values.values():  # every value read is said in the advice (cause or fix)
        assert value in text, (value, text)
