"""Where the tests' data lives: the committed fixtures, the repository, and ``../shared`` beside it."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
#: Committed fixtures (tests/data).
DATA = TESTS / "data"
REPO = TESTS.parent
#: The team's shared folder beside the repository (seeds, samples); absent on a fresh clone.
SHARED = REPO.parent / "shared"
