"""Where the tests' data lives: the committed fixtures, the repository, and ``../shared`` beside it."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
#: Committed fixtures (tests/data).
DATA = TESTS / "data"
REPO = TESTS.parent
#: The team's shared folder beside the repository (seeds, samples); absent on a fresh clone.
SHARED = REPO.parent / "shared"


def product_sources() -> list[Path]:
    """The product's own Python files in the checkout: the top-level modules, ``core/`` and ``tui/``.

    Listed by what the product is, not by what to leave out, so a ``build/`` copy made by a non-editable
    ``pip install .`` (as CI does), a virtual environment or a cache folder is never mistaken for it.
    """
    top = sorted(REPO.glob("*.py"))
    return top + sorted(p for folder in ("core", "tui") for p in (REPO / folder).rglob("*.py"))
