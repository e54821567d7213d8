"""Issue 14, the screen tells the truth: numbers, NaN/Inf of both sides, names, NO_COLOR, help, q.

Each test drives the real app with Pilot and reads what the terminal shows.
"""

from __future__ import annotations

import io

import polars as pl
import pytest
from rich.console import Console
from textual.pilot import Pilot

from dumpscope.core.comparison.pipeline import Comparison
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.widgets.layer_list import LayerList
from tests.support.paths import SHARED as SHARED_DIR

SHARED = SHARED_DIR  # shared/ sits beside the repo
MSIT_CSV = SHARED / "samples" / "ascend" / "msit_nan_case" / "result_20261121233557.csv"


def screen_text(app: DumpscopeApp) -> str:
    console = Console(
        width=app.size.width, height=app.size.height, file=io.StringIO(), record=True, force_terminal=True
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


EXTREMES = [1e-30, 65504.0, 934496.0, 1e38, float("inf"), float("-inf"), float("nan")]


def _extremes() -> Comparison:
    n = len(EXTREMES)
    frame = pl.DataFrame(
        {
            "index": list(range(n)),
            "name": [f"/net/extreme_{i}/Mul_output_0" for i in range(n)],
            "op_type": ["Mul"] * n,
            "side": ["both"] * n,
            "health": ["fail"] * n,
            "cosine_similarity": [0.5] * n,
            "max_absolute_error": EXTREMES,
            "root_mean_square_error": EXTREMES[::-1],
            "nan_golden": [3, 0, 0, 0, 0, 0, 0],
            "nan_target": [0, 0, 0, 0, 0, 0, 1],
            "inf_golden": [0] * n,
            "inf_target": [0, 0, 0, 0, 5, 0, 0],
        },
        schema_overrides={"max_absolute_error": pl.Float64, "root_mean_square_error": pl.Float64},
    )
    return Comparison.from_frame(frame, meta={"golden": "g", "target": "t"})


def list_lines(app: DumpscopeApp) -> list[str]:
    """The layer list's rows as drawn (header first), without the side pane."""
    lst = app.query_one(LayerList)
    height = min(lst.scrollable_content_region.height, int(lst.view.size) + 1)
    return ["".join(seg.text for seg in lst.render_line(y)) for y in range(height)]


async def settled_lines(pilot: Pilot[int]) -> list[str]:
    """The list's lines once it has laid out and drawn its rows (the CI box is slow)."""
    app = pilot.app
    assert isinstance(app, DumpscopeApp)
    for _ in range(100):
        await pilot.pause(0.05)
        lst = app.query_one(LayerList)
        if lst.view.size and lst.scrollable_content_region.height > 1:
            break
    return list_lines(app)


@pytest.mark.parametrize("width", [160, 100, 80])
async def test_extreme_numbers_render_whole(width: int) -> None:
    app = DumpscopeApp(_extremes())
    async with app.run_test(size=(width, 30)) as pilot:
        lines = await settled_lines(pilot)
    header, rows = lines[0], lines[1:]
    wanted = ["1e-30", "65504", "934496", "1e38", "inf", "-inf", "NaN"]
    assert len(rows) == len(wanted)
    for row, want in zip(rows, wanted, strict=False):
        cells = row.replace("▶", " ").split()
        if "max abs" in header:
            assert want in cells, (want, row)
        assert "#" not in row and "9.345e+0" not in row
    # a golden-only NaN is not "clean": both sides shown, golden first
    if "nan/inf" in header:
        assert "n3|·" in rows[0] and "·|n1" in rows[6] and "·|i5" in rows[4]


@pytest.mark.skipif(not MSIT_CSV.exists(), reason="needs ../shared/samples (the msit sample CSV)")
async def test_imported_rows_without_counts_show_a_question_mark() -> None:
    from dumpscope.core.comparison.imported import open_result

    app = DumpscopeApp(open_result(MSIT_CSV))
    async with app.run_test(size=(160, 30)) as pilot:
        lines = await settled_lines(pilot)
    row = next(line for line in lines if " layer_1 " in line)
    cells = row.split()
    assert "?" in cells and "0.000970" in cells and "0" not in cells[3:]  # max abs as msit printed it


async def test_names_keep_their_distinguishing_scope_and_the_full_name_is_in_the_status_line() -> None:
    names = [
        "/model.2/Sigmoid_output_0",
        "/model.22/Sigmoid_output_0",
        "/model.0/Constant_output_0",
        "/model.0/Constant_1_output_0",
        "/model.0/Constant_2_output_0",
    ]
    frame = pl.DataFrame(
        {
            "index": list(range(5)),
            "name": names,
            "op_type": ["Sigmoid"] * 2 + ["Constant"] * 3,
            "side": ["both"] * 5,
            "health": ["ok"] * 5,
            "cosine_similarity": [1.0] * 5,
        }
    )
    app = DumpscopeApp(Comparison.from_frame(frame, meta={"golden": "g", "target": "t"}))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.3)
        await pilot.press("j")
        await pilot.pause(0.2)
        text = screen_text(app)
        listed = [line for line in text.splitlines() if "/model." in line and "▶ /model" not in line]
        shown = [line.split()[1] if not line.startswith("▶") else line.split()[2] for line in listed[:5]]
        assert len(set(shown)) == 5, shown
        assert any(s.startswith("/model.2/") for s in shown) and any(
            s.startswith("/model.22/") for s in shown
        )
        assert "▶ /model.22/Sigmoid_output_0" in text  # the cursor row's full name
        lst = app.query_one(LayerList)
        before = lst._layout(lst.scrollable_content_region.width)[1].width
        await pilot.press("greater_than_sign")
        await pilot.pause(0.1)
        after = lst._layout(lst.scrollable_content_region.width)[1].width
        assert after > before


async def test_no_color_marks_unhealthy_rows_and_the_focused_pane(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = DumpscopeApp(_extremes())
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause(0.3)
        lst = app.query_one(LayerList)
        strip = lst.render_line(2)
        assert any(
            seg.style is not None and (seg.style.bold or seg.style.reverse)
            for seg in strip
            if "extreme" in seg.text
        )
        header_focused = lst.render_line(0)
        await pilot.press("tab")
        await pilot.pause(0.1)
        assert not lst.has_focus
        lst._invalidate()
        header_blurred = lst.render_line(0)
        assert [s.style for s in header_focused] != [s.style for s in header_blurred]
        assert any(s.style is not None and s.style.reverse for s in header_focused)


async def test_help_lists_focus_palette_and_the_filter_grammar_and_q_quits_from_the_detail_screen() -> None:
    from textual.widgets import Static

    from dumpscope.tui.app.filters import FILTER_FIELDS
    from dumpscope.tui.app.screens.help import HelpScreen
    from dumpscope.tui.app.screens.tensor import TensorScreen

    app = DumpscopeApp(_extremes())
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.pause(0.2)
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help-text", Static).render())
        for needed in (
            "tab",
            "shift+tab",
            "^p",
            "Command palette",
            "origin:",
            "fused:",
            "#N-M",
            "list.wider_names",
        ):
            assert needed in help_text, needed
        assert all(f"{key}:" in help_text for key in FILTER_FIELDS)
        await pilot.press("escape")
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, TensorScreen)
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert not isinstance(app.screen, TensorScreen)
        await pilot.press("enter")
        await pilot.pause(0.2)
        await pilot.press("q")
        await pilot.pause(0.2)
    assert app.return_code is not None or not app.is_running


def test_root_cause_findings_carry_replay_evidence_when_the_diagnosis_has_it() -> None:
    from types import SimpleNamespace

    from dumpscope.tui.app.findings import findings_by_row

    cause = SimpleNamespace(
        row=1,
        cause="overflow",
        evidence=("Exp input too large", "row says this"),
        advice="clamp",
        commands=("dumpscope explain 1",),
        replay=SimpleNamespace(sentence=lambda: "the op replayed on golden inputs in fp16 gives inf"),
    )
    plain = SimpleNamespace(row=0, cause="drift", evidence=(), advice="look", commands=())
    found = findings_by_row(SimpleNamespace(root_causes=[cause, plain]), [None, "row says this"])  # type: ignore[arg-type]
    assert found[1] == (
        "root cause #1: overflow",
        "Exp input too large",
        "replay: the op replayed on golden inputs in fp16 gives inf",
        "advice: clamp",
        "dumpscope explain 1",
    )
    assert found[0] == ("root cause #2: drift", "advice: look")
