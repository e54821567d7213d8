"""The compiled finder (``_prefilter.c``): many needles found in one pass over a text.

``compiled`` is None when the extension was not built (no C compiler at install); every caller keeps the
Python form that finds the same (tests/core/knowledge/test_knowledge_compiled_finder.py checks both).
"""

from __future__ import annotations

try:
    import dumpscope.core.knowledge._prefilter as compiled
except ImportError:  # pragma: no cover - no C compiler at install
    compiled = None  # type: ignore[assignment]
