"""core/ never imports the UI stack: each core module is imported in a fresh interpreter."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import dumpscope.core

CORE_MODULES = sorted(
    m.name for m in pkgutil.walk_packages(dumpscope.core.__path__, prefix="dumpscope.core.")
)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_does_not_import_ui(module: str) -> None:
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')); "
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"{module} pulls in UI modules: {out.stdout.strip()}"


def test_there_are_core_modules() -> None:
    assert "dumpscope.core.comparison.metrics" in CORE_MODULES
