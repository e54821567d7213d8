"""The C library's memory functions are found among the process's own symbols, once per name: no
``ldconfig`` subprocess per trim (two per comparison)."""

from __future__ import annotations

import platform
import subprocess

import pytest

from dumpscope.core import heap


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim and mallopt are glibc's")
def test_glibc_functions_are_found_without_a_subprocess(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_subprocess(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a subprocess was started to find the C library")

    monkeypatch.setattr(subprocess, "Popen", no_subprocess)
    heap.libc_function.cache_clear()
    try:
        trim = heap.libc_function("malloc_trim")
        assert trim is not None and heap.libc_function("mallopt") is not None
        assert heap.libc_function("malloc_trim") is trim  # looked up once
        assert trim(0) in (0, 1)  # glibc's malloc_trim: 1 when memory was handed back
        heap.trim_free_heap()
    finally:
        heap.libc_function.cache_clear()
