"""core/ never imports the UI stack: every core module is imported, one after another, in one fresh
interpreter, and the first that pulls in Textual or Rich is named."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import dumpscope.core

CORE_MODULES = sorted(
    m.name for m in pkgutil.walk_packages(dumpscope.core.__path__, prefix="dumpscope.core.")
)

_PROBE = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
    bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))
    if bad:
        print(name, ','.join(bad))
        break
"""


def test_no_core_module_imports_the_ui() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, *CORE_MODULES], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "", f"pulls in UI modules: {out.stdout.strip()}"


def test_the_probe_names_a_module_that_imports_the_ui() -> None:
    """The probe itself works: a module that imports Rich is caught and named."""
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, "json", "rich.text"], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("rich.text rich"), out.stdout


def test_there_are_core_modules() -> None:
    assert "dumpscope.core.comparison.metrics" in CORE_MODULES
