"""Fixtures for the UI's tests: no user configuration leaks in, and one generated comparison per module."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.core.comparison.result import Comparison
from screenshots.make import generated_frame


@pytest.fixture(autouse=True)
def _isolated_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No user keymap leaks into the tests (an empty folder of its own: a test's tmp_path stays the
    test's)."""
    config = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(config))
    return config


@pytest.fixture(scope="module")
def generated() -> Comparison:
    return Comparison.from_frame(generated_frame(600, seed=1), meta={"golden": "g_dir", "target": "t_dir"})
