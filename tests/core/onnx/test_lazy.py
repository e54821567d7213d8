"""``core.onnx.lazy``: the module a :class:`LazyModule` stands for is imported at the first attribute
read, once, and kept (a graph's walk reads ``onnx.AttributeProto`` per attribute)."""

from __future__ import annotations

import importlib

import pytest

from dumpscope.core.onnx.lazy import LazyModule


def test_the_module_is_imported_at_the_first_read_and_then_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    imported: list[str] = []
    real = importlib.import_module

    def counting(name: str, package: str | None = None):  # type: ignore[no-untyped-def]
        imported.append(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", counting)
    lazy = LazyModule("json")
    assert imported == []  # nothing until an attribute is read
    assert lazy.dumps([1]) == "[1]"
    assert lazy.loads("2") == 2 and lazy.module() is real("json")
    assert imported == ["json"]


def test_a_missing_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        LazyModule("json").no_such_thing  # noqa: B018 - the read itself is the test
