"""Where the tests' data lives: the committed fixtures, the repository, and ``../shared`` beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def bench_script(name: str) -> Any:
    """The module of the bench script ``bench/NAME.py``, loaded once (a script, not an installed
    package: CI installs the product without ``bench/``)."""
    import importlib.util
    import sys

    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
