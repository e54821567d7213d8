"""The app on a folder of ncnn blobs a user extracted: `dumpscope GOLDEN NCNN_DIR --model M` pairs them by
the graph's structure, each row saying how (tests/data/ncnn/se-tiny: real pnnx + ncnn output)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.core.onnx.runner import dump_model
from dumpscope.tui.app.app import CompareRequest, DumpscopeApp
from tests.support.paths import DATA as DATA_DIR
from tests.support.tui import SIZE, screen_text, settle

TINY = DATA_DIR / "ncnn" / "se-tiny"


async def test_an_ncnn_blob_folder_opens_paired_with_the_onnx_golden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dumpscope.tui.cli.commands import view
    from dumpscope.tui.cli.main import main

    dump_model(TINY / "model.onnx", tmp_path / "g", inputs=[f"x={TINY / 'x.npy'}"])
    opened: list[DumpscopeApp] = []
    monkeypatch.setattr(view, "run_app", lambda app, args: opened.append(app) or 0)  # no terminal in a test
    assert main([str(tmp_path / "g"), str(TINY / "ncnn"), "--model", str(TINY / "model.onnx")]) == 0
    request = opened[0]._source
    assert isinstance(request, CompareRequest)
    app = DumpscopeApp(request)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.comparison is not None
        f = app.comparison.frame
        ct = f.filter(f["name"] == "ct").row(0, named=True)
        assert ct["side"] == "both" and "op type ConvTranspose by its params" in ct["pairing"]
        assert ct["health"] == "ok"
        text = screen_text(app)
        assert "ncnn:8" in text and "ctb" in text  # the pnnx-made scalar row and the paired rows
