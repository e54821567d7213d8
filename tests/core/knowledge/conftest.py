"""The shipped knowledge base, as every knowledge test reads it (no user entries)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.core.knowledge import KnowledgeBase, load_kb


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    """The shipped entries only: a user folder that does not exist, so no ``~/.config`` entry is read."""
    return load_kb(user_dir=Path("/nonexistent-dumpscope-test"))
