"""``onnx`` imported on first use.

Reading and comparing dumps without a model never touches onnx, yet the graph, model
helpers and replay modules sit on that path: importing onnx there cost ~12 MB of
resident memory and ~40 ms per command (measured on the 100k-entry manifest's peak RSS).
The first attribute read imports the real module (once: later reads find it in
``sys.modules``).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["LazyModule", "helper", "numpy_helper", "onnx"]


class LazyModule:
    """Stands for the module ``name``; imports it when an attribute is first read."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> object:
        return getattr(self._module or self.module(), attr)

    def module(self) -> ModuleType:
        """The real module (imported now if it was not yet; then kept: ``import_module`` costs
        microseconds a call, and a model's graph reads ``onnx.AttributeProto`` per attribute)."""
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return self._module


if TYPE_CHECKING:  # the type checker reads the real modules' types; nothing is imported at run time
    import onnx
    from onnx import helper, numpy_helper
else:
    onnx = LazyModule("onnx")
    helper = LazyModule("onnx.helper")
    numpy_helper = LazyModule("onnx.numpy_helper")
