"""Issue 13 in the terminal UI: a hostile keymap or KB folder is one note, never a traceback or a hang."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.app import DumpscopeApp
from screenshots.make import generated_frame


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    (folder / "kb").mkdir(parents=True)
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(folder))
    return folder


async def test_a_keymap_nested_50k_deep_is_one_note_and_the_app_runs(config: Path) -> None:
    (config / "keymap.toml").write_text("a = " + "[" * 50_000 + "]" * 50_000 + "\n")
    os.mkfifo(config / "kb" / "pipe.jsonl")  # and a FIFO where the lookup reads user entries
    app = DumpscopeApp(
        Comparison.from_frame(generated_frame(20, seed=1), meta={"golden": "g", "target": "t"})
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        notes = [str(n.message) for n in app._notifications]
        assert any("nested too deeply" in n for n in notes)
        await pilot.press("e")  # the error lookup reads the KB folder (with its FIFO) off the UI thread
        await pilot.press(*"segfault")
        for _ in range(100):
            await pilot.pause(0.1)
            if getattr(app.screen, "_kb", None) is not None:
                break
        assert any("pipe.jsonl" in w for w in app.screen._kb.warnings)  # skipped, never opened
        await pilot.press("escape", "q")
    assert app.return_code in (0, None)
