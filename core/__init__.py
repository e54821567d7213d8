"""The dumpscope engine: formats, pairing, metrics, analysis.  No UI imports here.

Python API::

    from dumpscope.core import compare, compare_frame
    cmp = compare("golden/", "target/", model="model.onnx")   # a Comparison
    frame = compare_frame("golden/", "target/")                # the same Polars frame
    diag = diagnose(cmp)                                       # ranked root causes

Names are resolved lazily so that importing the package stays cheap.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Comparison", "Diagnosis", "Thresholds", "compare", "compare_frame", "compare_stream", "diagnose", "open_dump"]

_HOME = {
    "Comparison": "dumpscope.core.comparison.result",
    "compare": "dumpscope.core.comparison.pipeline",
    "compare_frame": "dumpscope.core.comparison.pipeline",
    "compare_stream": "dumpscope.core.comparison.pipeline",
    "Thresholds": "dumpscope.core.comparison.judge",
    "open_dump": "dumpscope.core.formats",
    "diagnose": "dumpscope.core.diagnosis.engine",
    "Diagnosis": "dumpscope.core.diagnosis.engine",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        import importlib

        return getattr(importlib.import_module(_HOME[name]), name)
    raise AttributeError(f"module 'dumpscope.core' has no attribute {name!r}")
