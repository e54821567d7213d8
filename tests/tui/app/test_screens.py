"""The app's other screens and paths: help and keymap, palette, export, reopen, background loading."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.onnx.runner import dump_model
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import CompareRequest
from dumpscope.tui.app.screens.export import ExportScreen
from dumpscope.tui.app.screens.help import HelpScreen
from dumpscope.tui.app.screens.message import MessageScreen
from dumpscope.tui.app.widgets.layer_rows import SORT_KEYS
from dumpscope.tui.app.widgets.tensor_pane import TensorPane
from tests.support.models import make_chain_model
from tests.support.tui import SIZE, filter_by, pane_text, screen_text, settle, type_text


async def test_help_lists_bindings_with_the_user_keymap(
    generated: Comparison, _isolated_config: Path
) -> None:
    (_isolated_config / "keymap.toml").write_text('[keymap]\n"list.down" = "ctrl+n"\n"app.sort" = ["o"]\n')
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "ctrl+n", "ctrl+n")
        assert app.layer_list.selected == 2
        await pilot.press("o")
        assert SORT_KEYS[app.view.sort_index].id == "cos"
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "First divergent" in text and "list.down" in text and "^n" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_broken_keymap_does_not_stop_the_app(generated: Comparison, _isolated_config: Path) -> None:
    (_isolated_config / "keymap.toml").write_text("= nonsense")
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "j")
        assert app.layer_list.selected == 1


async def test_command_palette_runs_actions(generated: Comparison) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await type_text(pilot, "divergent")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert app.layer_list.selected == generated.first_divergent()


@pytest.mark.parametrize("fmt", ["parquet", "csv", "markdown"])
async def test_export_writes_with_the_cli_writers(generated: Comparison, tmp_path: Path, fmt: str) -> None:
    app = DumpscopeApp(generated)
    target = tmp_path / "out"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("x")
        assert isinstance(app.screen, ExportScreen)
        screen = app.screen
        index = {"csv": 0, "parquet": 1, "json": 2, "markdown": 3}[fmt]
        screen.query_one("RadioSet").query("RadioButton")[index].value = True
        await pilot.pause()
        box = screen.query_one("#export-path")
        assert box.value.startswith(str(Path.cwd() / "g_dir_vs_t_dir"))
        box.value = str(target.with_suffix(box.value[box.value.rfind(".") :]))
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, ExportScreen)
    written = list(tmp_path.glob("out.*"))
    assert len(written) == 1 and written[0].stat().st_size > 0
    if fmt == "parquet":
        assert Comparison.open(written[0]).frame.height == 600


async def test_export_of_a_filtered_view(generated: Comparison, tmp_path: Path) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await filter_by(pilot, "op:gemm")
        await pilot.press("x")
        screen = app.screen
        screen.query_one("RadioSet").query("RadioButton")[1].value = True
        await pilot.pause()
        screen.query_one("#export-path").value = str(tmp_path / "view.parquet")
        await pilot.press("enter")
        await settle(pilot)
    assert Comparison.open(tmp_path / "view.parquet").frame["op_type"].to_list() == ["Gemm"]


async def test_export_to_a_missing_directory_stays_open(generated: Comparison, tmp_path: Path) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("x")
        app.screen.query_one("#export-path").value = str(tmp_path / "nope" / "x.csv")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
        assert "no such directory" in screen_text(app)
        await pilot.press("escape")
        assert not isinstance(app.screen, ExportScreen)


async def test_reopened_comparison_says_tensors_are_missing(generated: Comparison, tmp_path: Path) -> None:
    generated.save(tmp_path / "r.parquet")
    app = DumpscopeApp(Comparison.open(tmp_path / "r.parquet"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "reopened from a saved file" in pane_text(app.tensor_pane)
        await pilot.press("f")
        assert app.layer_list.selected == generated.first_divergent()


@pytest.fixture(scope="module")
def chain_dumps(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("chain")
    model = make_chain_model(root)
    dump_model(model, root / "golden")
    dump_model(model, root / "target", target="fp16")
    return model, root / "golden", root / "target"


async def test_compares_in_the_background(chain_dumps: tuple[Path, Path, Path]) -> None:
    model, golden, target = chain_dumps
    app = DumpscopeApp(CompareRequest(golden, target, model))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.comparison is not None
        assert "pending" not in app.comparison.frame["health"].to_list()
        assert app.layer_list.view.size == app.comparison.frame.height
        text = screen_text(app)
        assert "enc/relu:0" in text and "comparing" not in text


async def test_unreadable_dump_shows_a_message_screen(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    app = DumpscopeApp(CompareRequest(tmp_path / "empty", tmp_path / "missing"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MessageScreen)
        text = screen_text(app)
        assert "Cannot compare these dumps" in text and "Traceback" not in text
        await pilot.press("q")


async def test_tensor_pane_reads_the_selected_pair(chain_dumps: tuple[Path, Path, Path]) -> None:
    model, golden, target = chain_dumps
    app = DumpscopeApp(CompareRequest(golden, target, model))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # y = Exp(relu): the largest fp16 rounding; the last activation (constants come after it)
        assert app.rows is not None
        app.layer_list.select_position(app.rows.name_index("y"))
        await settle(pilot)
        text = pane_text(app.tensor_pane)
        assert "|target − golden|" in text and "golden values" in text
        assert "worst 8 elements" in text and "(0,0)" in text  # y is [1, 8]: all eight, by index
        await pilot.press("enter")
        await settle(pilot)
        assert "worst 8 elements" in pane_text(app.screen.query_one(TensorPane))
        await pilot.press("slash", "f", "s")  # list keys are off on the detail screen
        assert app.screen is not app.main_screen
        await pilot.press("escape")
        assert app.screen is app.main_screen


@pytest.fixture
def slow_compare(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """compare_stream replaced by 20 steps of 50 ms over a generated 200-row frame; returns the steps run."""
    import polars as pl

    from dumpscope.core.comparison import pipeline as session
    from screenshots.make import generated_frame

    frame = generated_frame(200)
    steps: list[int] = []

    def slow_stream(golden: Path, target: Path, **_: object):  # type: ignore[no-untyped-def]
        for done in (*range(0, 200, 10), 200):
            steps.append(done)
            health = pl.Series([h if i < done else "pending" for i, h in enumerate(frame["health"])])
            yield session.Progress(done, 200, Comparison.from_frame(frame.with_columns(health=health)))
            time.sleep(0.05)

    monkeypatch.setattr(session, "compare_stream", slow_stream)
    return steps


async def test_escape_cancels_a_running_comparison(slow_compare: list[int]) -> None:
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=SIZE) as pilot:
        while app.rows is None:
            await pilot.pause(0.05)
        assert "comparing" in screen_text(app) and "… wait" in screen_text(app)  # pending rows show
        await pilot.press("escape")
        await settle(pilot)
        assert "comparison cancelled" in screen_text(app)
        assert (
            len(slow_compare) < 21 and app.rows is not None and app.rows.health_counts().get("pending", 0) > 0
        )


async def test_finished_comparison_lands_on_the_first_divergent_row(slow_compare: list[int]) -> None:
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert slow_compare[-1] == 200 and app.comparison is not None
        assert app.layer_list.selected == app.comparison.first_divergent()


async def test_no_landing_once_the_user_has_moved(slow_compare: list[int]) -> None:
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=SIZE) as pilot:
        while app.rows is None:
            await pilot.pause(0.05)
        await pilot.press("j", "j")
        await settle(pilot)
        assert slow_compare[-1] == 200 and app.layer_list.selected == 2


async def test_error_lookup_jumps_to_the_named_op(
    generated: Comparison, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`e` opens the lookup screen (another module); its JumpToOp(op_name) selects that op's row."""
    import sys
    import types

    from textual.message import Message
    from textual.screen import Screen

    class LookupScreen(Screen[None]):
        class JumpToOp(Message):
            def __init__(self, op_name: str) -> None:
                super().__init__()
                self.op_name = op_name

        def __init__(self, known_ops: Any = None) -> None:
            super().__init__()
            self.known_ops = known_ops

    module = types.ModuleType("dumpscope.tui.app.screens.lookup")
    module.LookupScreen = LookupScreen  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "dumpscope.tui.app.screens.lookup", module)
    node = generated.frame["node_name"][250]
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        screen = app.screen
        assert isinstance(screen, LookupScreen)
        assert screen.known_ops(node) and not screen.known_ops("no/such/op")
        assert screen.known_ops(node.replace("/", "_"))  # Ascend's sanitised spelling
        screen.post_message(LookupScreen.JumpToOp(node))
        await pilot.pause()
        assert app.screen is app.main_screen
        assert app.layer_list.selected == 250


async def test_health_reads_without_colour(generated: Comparison, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        text = screen_text(app)
        assert app.no_color
        assert "✗ FAIL" in text and "✓ OK" in text and "▶" in text


async def test_input_warnings_are_listed(generated: Comparison) -> None:
    from dumpscope.tui.app.screens.notes import NotesScreen

    cmp = Comparison.from_frame(
        generated.frame, meta={"warnings": ["golden: a.npy: truncated [sic]", "inputs differ: x"]}
    )
    app = DumpscopeApp(cmp)
    async with app.run_test(size=SIZE) as pilot:
        assert "2 input warnings (w)" in screen_text(app)
        await pilot.press("w")
        assert isinstance(app.screen, NotesScreen)
        assert "truncated [sic]" in screen_text(app)
        await pilot.press("escape")
        assert app.screen is app.main_screen


async def test_streamed_updates_do_not_reload_the_pane(
    slow_compare: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    reloads: list[int | None] = []
    original = TensorPane._render_row

    def counting(self: TensorPane, position: int | None, *, reload: bool) -> None:
        if reload:
            reloads.append(position)
        original(self, position, reload=reload)

    monkeypatch.setattr(TensorPane, "_render_row", counting)
    app = DumpscopeApp(CompareRequest(Path("g"), Path("t")))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
    assert len(slow_compare) == 21 and len(reloads) <= 3  # first row, then the landing on the answer


@pytest.mark.parametrize(("query", "check"), [("sort by RMSE", "rmse"), ("only failing", "health:fail")])
async def test_palette_sorts_and_filters(generated: Comparison, query: str, check: str) -> None:
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await type_text(pilot, query)
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.1)
        if check == "rmse":
            assert SORT_KEYS[app.view.sort_index].id == "rmse" and app.view.descending
        else:
            assert (
                app.view.query.text == "health:fail"
                and app.layer_list.view.size == generated.health_counts()["fail"]
            )


async def test_error_lookup_screen_links_to_the_layer(generated: Comparison) -> None:
    """The real lookup screen: an ONNX Runtime error naming a node jumps to that node's row."""
    from textual.widgets import Input

    from dumpscope.tui.app.screens.lookup import LookupScreen

    node = generated.frame["node_name"][250]
    message = (
        "[ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running Conv node. "
        f"Name:'{node}' Status Message: x"
    )
    app = DumpscopeApp(generated)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        screen = app.screen
        assert isinstance(screen, LookupScreen)
        screen.query_one(Input).value = message
        for _ in range(100):
            await pilot.pause(0.05)
            if screen.matches:
                break
        assert screen.matches and node in screen.matches[0].op_names
        await pilot.press("down", "enter")  # expand the best match: its op names become links
        await pilot.pause()
        await pilot.press("down", "enter")  # "→ go to layer"
        await pilot.pause()
        assert app.screen is app.main_screen
        assert app.layer_list.selected == 250
