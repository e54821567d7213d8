"""Two folders of many tiny tensors: the first judged rows are on screen while the whole dumps are still
being opened (the opening is held by a gate here), then the whole comparison replaces them, its final
table the same as ``compare()``'s."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core import compare
from dumpscope.core.comparison import pipeline
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import CompareRequest
from tests.support.tui import SIZE, screen_text, settle

TENSORS, HEAD = 40, 8


def _sides(root: Path) -> tuple[Path, Path]:
    """Float32 tensors and their float16 copies (what a float16 run would dump for them)."""
    rng = np.random.default_rng(3)
    g, t = root / "golden", root / "target"
    g.mkdir(), t.mkdir()
    for i in range(TENSORS):
        a = rng.standard_normal(int(rng.integers(4, 64))).astype(np.float32)
        np.save(g / f"layer{i:03d}.npy", a)
        np.save(t / f"layer{i:03d}.npy", a.astype(np.float16))
    return g, t


@pytest.fixture
def opening_gate(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The whole dumps' opening (``pipeline._prepare``) waits until the returned event is set."""
    gate, real = threading.Event(), pipeline._prepare

    def gated(*args, **kwargs):  # type: ignore[no-untyped-def]
        gate.wait(20)
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "_prepare", gated)
    monkeypatch.setattr(pipeline, "HEAD_ROWS", HEAD)
    monkeypatch.setattr(pipeline, "HEAD_FROM", HEAD)  # (a preview needs thousands of tensors by default)
    return gate


async def test_first_rows_appear_before_the_comparison_ends(
    tmp_path: Path, opening_gate: threading.Event
) -> None:
    g, t = _sides(tmp_path)
    app = DumpscopeApp(CompareRequest(g, t, workers=1))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            if app.rows is not None:
                break
            await pilot.pause(0.05)
        assert not opening_gate.is_set()  # (the whole dumps are not open yet)
        assert app.rows is not None and app.rows.n == HEAD and app.progress == (0, 0)
        assert app.rows.health_counts().get("ok") == HEAD
        await pilot.pause(0.1)
        text = screen_text(app)
        assert "layer000" in text and "opening the whole dumps" in text
        assert "first divergent: not known" in text  # nothing final is read from a preview
        opening_gate.set()
        for _ in range(400):
            if app.progress is None:
                break
            await pilot.pause(0.05)
        await settle(pilot)
        assert app.progress is None and app.comparison is not None
        assert app.comparison.frame.equals(compare(g, t, workers=1).frame)
        assert "opening the whole dumps" not in screen_text(app)


async def test_a_cancel_while_the_dumps_open_claims_nothing(
    tmp_path: Path, opening_gate: threading.Event
) -> None:
    """esc during the opening leaves the preview's rows, and says neither that no layer diverges nor
    offers to diagnose them."""
    g, t = _sides(tmp_path)
    app = DumpscopeApp(CompareRequest(g, t, workers=1))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            if app.rows is not None:
                break
            await pilot.pause(0.05)
        assert app.rows is not None and app.progress == (0, 0)
        await pilot.press("escape")
        opening_gate.set()
        await settle(pilot)
        text = screen_text(app)
        assert app.progress is None and app.rows.n == HEAD
        assert "first divergent: not known" in text and "no divergent layer" not in text
        assert "d diagnoses" not in text and app._judged is None


async def test_the_whole_dumps_open_after_the_preview_is_painted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening the whole dumps starts by reading a manifest whole (~0.2-0.3 s holding the GIL on 100k
    entries): the worker waits until the app has painted the preview, so that read cannot hold it back."""
    g, t = _sides(tmp_path)
    app = DumpscopeApp(CompareRequest(g, t, workers=1))
    painted_when_opened: list[bool] = []
    real = pipeline._prepare

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        painted_when_opened.append(app._preview_painted.is_set())
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "_prepare", recording)
    monkeypatch.setattr(pipeline, "HEAD_ROWS", HEAD)
    monkeypatch.setattr(pipeline, "HEAD_FROM", HEAD)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            if app.comparison is not None and app.progress is None and app.rows and app.rows.n == TENSORS:
                break
            await pilot.pause(0.05)
        await settle(pilot)
        assert app.rows is not None and app.rows.n == TENSORS
    assert painted_when_opened and all(painted_when_opened)
