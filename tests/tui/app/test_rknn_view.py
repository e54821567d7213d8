"""The app on an RKNN-Toolkit2 snapshot: `dumpscope SNAPSHOT` opens golden vs simulator, the vendor's
numbers beside ours."""

from __future__ import annotations

import pytest

from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import CompareRequest
from tests.support.paths import DATA as DATA_DIR
from tests.support.tui import SIZE, screen_text, settle

SNAP = DATA_DIR / "rknn" / "int8" / "snapshot"


async def test_one_snapshot_folder_opens_golden_vs_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    from dumpscope.tui.cli.commands import view
    from dumpscope.tui.cli.main import main

    opened: list[DumpscopeApp] = []
    monkeypatch.setattr(view, "run_app", lambda app, args: opened.append(app) or 0)  # no terminal in a test
    assert main([str(SNAP)]) == 0
    request = opened[0]._source
    assert isinstance(request, CompareRequest)
    assert (request.golden, request.target) == (SNAP / "golden", SNAP / "simulator")
    app = DumpscopeApp(request)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "hardswish_0.tmp_0" in text and "GlobalAveragePool@0_2c" in text
        assert app.comparison is not None
        row = app.comparison.frame.filter(app.comparison.frame["name"] == "hardswish_0.tmp_0").row(
            0, named=True
        )
        assert row["rknn_entire_cos"] == 0.99998 and row["rknn_cos_agrees"] is True


async def test_imported_report_opens_with_the_vendors_printed_numbers() -> None:
    from dumpscope.core.comparison.imported import open_rknn_report

    app = DumpscopeApp(open_rknn_report(SNAP / "error_analysis.txt"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "x_int8" in text and "0.99999" in text  # x_int8's entire cosine as RKNN printed it
        assert "hardswish_0.tmp_0" in text and "0.99998" in text


async def test_real_det_snapshot_made_by_dump_target_opens_with_glued_and_q_zero_rows() -> None:
    snap = DATA_DIR / "rknn" / "ppocr-det" / "int8" / "snapshot"
    app = DumpscopeApp(CompareRequest(golden=snap / "golden", target=snap / "simulator"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.comparison is not None
        f = app.comparison.frame
        concat = f.filter(f["name"] == "p2o.Concat.1").row(0, named=True)  # '2595.573490.99991' in the report
        assert concat["rknn_entire_euc"] == 2595.57349 and concat["rknn_single_cos"] == 0.99991
        zero = f.filter(f["name"] == "sigmoid_0.tmp_0_int8").row(0, named=True)
        assert zero["rknn_q_zero"] is True and zero["rknn_cos_agrees"] is True
        assert "x_int8" in screen_text(app)
