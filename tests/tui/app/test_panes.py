"""The overflow and fusion panes and the verdict bar, each in a tiny host app (Pilot + snapshots)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Footer, Static

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.tui.app.widgets.fusion_pane import FusionPane
from dumpscope.tui.app.widgets.overflow_pane import OverflowPane
from dumpscope.tui.app.widgets.row_facts_pane import RowFactsPane
from dumpscope.tui.app.widgets.verdict_bar import VerdictBar
from tests.core.diagnosis.test_diagnose import write_dump
from tests.core.inspect.test_row_facts import ascend_case, atc_case, row_of

SnapCompare = Callable[..., bool]
EXP = "frame5/attn/exp:0"


@pytest.fixture(scope="module")
def demo_cmp(demo) -> Comparison:  # type: ignore[no-untyped-def]
    return compare(demo.golden, demo.target, model=demo.model)


class Host(App[None]):
    """One widget (or the three together), plus what the app would receive from them."""

    def __init__(self, *widgets: Widget, theme: str = "textual-dark") -> None:
        super().__init__()
        self.widgets = widgets
        self.theme = theme
        self.jumps: list[int] = []
        self.diagnosed = 0

    def compose(self) -> ComposeResult:
        yield from (w for w in self.widgets if isinstance(w, VerdictBar))
        with Horizontal():
            yield from (w for w in self.widgets if not isinstance(w, VerdictBar))
        yield Footer()

    def on_verdict_bar_jump_to(self, message: VerdictBar.JumpTo) -> None:
        self.jumps.append(message.row)

    def on_verdict_bar_diagnosed(self, message: VerdictBar.Diagnosed) -> None:
        self.diagnosed += 1


async def settle(pilot: Pilot[None]) -> None:
    """Past the panes' settle delay, their workers done and the answers drawn (a loaded box takes longer)."""
    await pilot.pause(0.15)
    for _ in range(200):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        panes = list(pilot.app.query(RowFactsPane))
        if all(p.is_settled and p._timer is None for p in panes):
            break
        await pilot.pause(0.02)


def body(pane: RowFactsPane[object]) -> str:
    return str(pane.query_one(".facts-body", Static).render())


def text_of(bar: VerdictBar) -> str:
    return " ".join(str(s.render()) for s in bar.query(Static))


# ----------------------------------------------------------------------------- overflow pane


async def test_overflow_pane_shows_the_range_checks_of_the_exp_row(demo_cmp: Comparison) -> None:
    pane = OverflowPane()
    async with Host(pane).run_test(size=(120, 40)) as pilot:
        pane.show(demo_cmp, row_of(demo_cmp, EXP))
        await settle(pilot)
        assert pane.is_settled and pane.facts is not None and pane.facts.flagged
        title = str(pane.query_one(".facts-title", Static).render())
        assert "Overflow · frame5/attn/exp:0" in title and "✗ FAIL" in title
        text = body(pane)
        assert "✗ target float16: 0 NaN, 1 Inf" in text and "first NaN/Inf at (0,0)" in text
        assert "golden as float16: 1 of 16 reach or pass ±65504" in text
        assert "hardware overflow records come with Ascend dumps only" in text


async def test_overflow_pane_shows_decoded_opdebug_records(tmp_path: Path) -> None:
    cmp = ascend_case(tmp_path)
    pane = OverflowPane()
    async with Host(pane).run_test(size=(120, 40)) as pilot:
        pane.show(cmp, row_of(cmp, "right"))
        await settle(pilot)
        text = body(pane)
        assert "AI Core task 7 stream 1 status 0x120" in text
        assert "0x20 floating-point compute overflow" in text and "0x100 FP32/INT32 -> FP16" in text
        assert "linked op dump: Mul.right.7.1.1700000000000050" in text
        assert "output.0 f16" in text and "65504" in text
        assert "4 of 4 saturated at ±65504" in text


async def test_a_late_answer_for_a_row_the_user_left_is_dropped(demo_cmp: Comparison) -> None:
    pane = OverflowPane()
    async with Host(pane).run_test(size=(120, 40)) as pilot:
        exp, first = row_of(demo_cmp, EXP), row_of(demo_cmp, "frame0/attn/q:0")
        pane.show(demo_cmp, exp)
        pane.show(demo_cmp, first)  # the user moved on before the first answer came
        await settle(pilot)
        assert pane.facts is not None and pane.facts.row == first
        stale = pane.facts
        pane.post_message(RowFactsPane.FactsReady(-1, None, "an old request failed"))
        await pilot.pause()
        assert pane.facts is stale and "cannot check" not in body(pane)


async def test_holding_a_key_computes_only_where_the_cursor_rests(
    demo_cmp: Comparison, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dumpscope.core.inspect import overflow as row_facts

    asked: list[int] = []
    real = row_facts.overflow_facts

    def counting(cmp: Comparison, row: int) -> row_facts.OverflowFacts:
        asked.append(row)
        return real(cmp, row)

    monkeypatch.setattr(row_facts, "overflow_facts", counting)
    pane = OverflowPane()
    async with Host(pane).run_test(size=(120, 40)) as pilot:
        for row in range(20):  # key repeat: far faster than the settle delay
            pane.show(demo_cmp, row)
        title = str(pane.query_one(".facts-title", Static).render())
        assert demo_cmp.frame["name"][19] in title  # the title follows at once
        await settle(pilot)
        assert asked == [19] and pane.facts is not None and pane.facts.row == 19


async def test_overflow_pane_without_row_or_tensors(demo_cmp: Comparison, tmp_path: Path) -> None:
    demo_cmp.save(tmp_path / "c.parquet")
    reopened = Comparison.open(tmp_path / "c.parquet")
    pane = OverflowPane()
    async with Host(pane).run_test(size=(80, 24)) as pilot:
        pane.show(reopened, 0)
        await settle(pilot)
        assert "reopened from a saved file" in body(pane)
        pane.show(reopened, None)
        await settle(pilot)
        assert pane.is_settled and body(pane) == "no row selected"


async def test_a_failing_computation_is_shown_not_raised(
    demo_cmp: Comparison, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(_cmp: Comparison, _row: int) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr("dumpscope.core.inspect.overflow.overflow_facts", boom)
    pane = OverflowPane()
    async with Host(pane).run_test(size=(80, 24)) as pilot:
        pane.show(demo_cmp, 0)
        await settle(pilot)
        assert pane.is_settled and "cannot check this row: RuntimeError: boom" in body(pane)


# ----------------------------------------------------------------------------- fusion pane


async def test_fusion_pane_lists_the_group_with_each_ops_health(tmp_path: Path) -> None:
    g, t, graph = atc_case(tmp_path)
    cmp = compare(g, t, graph=graph)
    pane = FusionPane()
    async with Host(pane).run_test(size=(120, 40)) as pilot:
        pane.show(cmp, row_of(cmp, "Relu_2"))
        await settle(pilot)
        text = body(pane)
        assert "many-to-one · from ATC graph graph.json" in text
        assert "this row's op Conv_1 is the fused op" in text and "passes: ConvReluFusionPass" in text
        lines = text.splitlines()
        fused = lines[lines.index("Fused target op") + 1]
        assert (
            fused.startswith("▶ ✗ FAIL") and "Conv_1 (Conv2D)" in fused and fused.endswith("cos 1.000000")
        )  # format_number: not exactly 1
        originals = lines[lines.index("Original ops (2)") + 1 :]
        assert "– ONLY" in originals[0] and "Conv_1" in originals[0] and "golden only" in originals[0]
        assert originals[1].startswith("▶ ✗ FAIL") and "Relu_2" in originals[1]


async def test_fusion_pane_says_why_there_is_no_group(demo_cmp: Comparison) -> None:
    pane = FusionPane()
    async with Host(pane).run_test(size=(80, 24)) as pilot:
        pane.show(demo_cmp, row_of(demo_cmp, EXP))
        await settle(pilot)
        assert body(pane).startswith("not fused: target manifest")


# ----------------------------------------------------------------------------- verdict bar


async def test_verdict_bar_names_the_root_cause_and_v_jumps_there(demo_cmp: Comparison) -> None:
    bar = VerdictBar()
    app = Host(bar)
    async with app.run_test(size=(120, 40)) as pilot:
        bar.focus()
        await pilot.pause()
        assert not app.screen.active_bindings["v"].enabled  # nothing to jump to yet
        bar.compute(demo_cmp)
        await settle(pilot)
        text = text_of(bar)
        assert text.startswith("✗ root cause: #72 frame5/attn/exp:0 (Exp) — overflow: Exp input")
        assert "v jump there" in text and app.diagnosed == 1
        assert app.screen.active_bindings["v"].enabled
        await pilot.press("v")
        await pilot.click(VerdictBar)
        await pilot.pause()
        assert bar.diagnosis is not None
        assert app.jumps == [bar.diagnosis.root_causes[0].row] * 2 == [row_of(demo_cmp, EXP)] * 2


async def test_verdict_bar_healthy_and_failed_diagnoses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = write_dump(tmp_path / "g", [{"name": "a", "data": np.ones(4, np.float32)}])
    healthy = compare(g, g)
    bar = VerdictBar()
    app = Host(bar)
    async with app.run_test(size=(80, 24)) as pilot:
        bar.compute(healthy)
        await settle(pilot)
        assert text_of(bar).startswith(
            "✓ Healthy: every compared tensor"
        )  # said once, not "healthy: Healthy:"
        bar.focus()
        await pilot.press("v")
        assert app.jumps == []

        def boom(_cmp: Comparison) -> object:
            raise RuntimeError("graph unreadable")

        monkeypatch.setattr("dumpscope.core.diagnosis.engine.diagnose", boom)
        bar.compute(healthy)
        await settle(pilot)
        assert "diagnosis failed: RuntimeError: graph unreadable" in text_of(bar) and bar.diagnosis is None


async def test_a_stale_diagnosis_does_not_replace_a_newer_one(demo_cmp: Comparison) -> None:
    bar = VerdictBar()
    app = Host(bar)
    async with app.run_test(size=(120, 40)) as pilot:
        newer = diagnose(demo_cmp)
        bar.compute(demo_cmp)
        bar.show(newer)  # e.g. the app got a diagnosis of a newer comparison meanwhile
        await settle(pilot)
        assert bar.diagnosis is newer and app.diagnosed == 0


# ----------------------------------------------------------------------------- snapshots


def _together(cmp: Comparison, row: int, theme: str) -> Host:
    overflow, fusion, bar = OverflowPane(), FusionPane(), VerdictBar()
    app = Host(bar, overflow, fusion, theme=theme)

    async def start() -> None:
        overflow.show(cmp, row)
        fusion.show(cmp, row)
        bar.compute(cmp)
        bar.focus()

    app.call_after_refresh(start)
    return app


@pytest.mark.parametrize(("size", "theme"), [((120, 40), "textual-dark"), ((80, 24), "ansi-dark")])
def test_snapshot_demo(
    snap_compare: SnapCompare, demo_cmp: Comparison, size: tuple[int, int], theme: str
) -> None:
    app = _together(demo_cmp, row_of(demo_cmp, EXP), theme)
    assert snap_compare(app, run_before=settle, terminal_size=size)


def test_snapshot_fusion_no_color(
    snap_compare: SnapCompare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    g, t, graph = atc_case(tmp_path)
    cmp = compare(g, t, graph=graph)
    monkeypatch.setenv("NO_COLOR", "1")
    app = _together(cmp, row_of(cmp, "Relu_2"), "textual-dark")
    assert app.no_color
    assert snap_compare(app, run_before=settle, terminal_size=(120, 40))


def test_a_replay_the_evidence_states_is_not_repeated_in_the_pane() -> None:
    """The engine words a replay in its cause's terms; the pane adds its own line only when none states it."""
    from dumpscope.tui.app.findings import _replay_line

    class _Replay:
        def sentence(self) -> str:
            return "replay (float64) of 'exp' does not match the target"

    worded = [
        "introduced here",
        "replay (float64) of 'exp' does not match the target: the error is introduced here",
    ]
    assert _replay_line(_Replay(), worded) == ()
    assert _replay_line(_Replay(), ["introduced here"]) == (
        "replay: replay (float64) of 'exp' does not match the target",
    )
    assert _replay_line(None, []) == ()
