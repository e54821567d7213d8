"""The terminal UI on a three-way compare (seed 003: fusion on vs fusion off), driven by Pilot."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import CompareRequest
from dumpscope.tui.app.widgets.layer_list import LayerList
from tests.support.fusion_onoff import make_fusion_data  # noqa: E402


@pytest.fixture(scope="module")
def fusion(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_fusion_data(tmp_path_factory.mktemp("fusion_tui"))


async def _both_sides_in(pilot, app: DumpscopeApp) -> None:  # type: ignore[no-untyped-def]
    """Wait (up to 10 s) until the app holds both comparisons of the three-way compare."""
    for _ in range(200):
        await pilot.pause(0.05)
        if app.threeway is not None:
            return


def _lines(lst: LayerList) -> list[str]:
    height = min(lst.scrollable_content_region.height, int(lst.view.size) + 1)
    return ["".join(seg.text for seg in lst.render_line(y)) for y in range(height)]


async def test_golden_a_b_shows_both_sides_a_worse_column_and_filters_by_it(fusion) -> None:  # type: ignore[no-untyped-def]
    request = CompareRequest(
        fusion.golden, fusion.on, b=fusion.off, graph=fusion.graph_on, graph_b=fusion.graph_off
    )
    app = DumpscopeApp(request)
    async with app.run_test(size=(140, 30)) as pilot:
        await _both_sides_in(pilot, app)
        assert app.threeway is not None and app.rows is not None and app.rows.three_way
        await pilot.pause(0.2)
        lst = app.query_one(LayerList)
        header = _lines(lst)[0]
        assert "A cos" in header and "B cos" in header and "worse" in header
        await pilot.press("slash", *"worse:A", "enter")
        await pilot.pause(0.2)
        rows = _lines(lst)[1:]
        assert len(rows) == 1 and fusion.bad_op in "".join(
            app.rows.frame["target_name"].drop_nulls().to_list()
        )
        assert rows[0].rstrip().endswith("A")
        await pilot.press("escape")
        await pilot.press("slash", *"worse:B", "enter")
        await pilot.pause(0.2)
        assert lst.view.size == 0
        summary = str(app.query_one("#summary").render())
        assert "worse on 1" in summary and "worse on 0" in summary


async def test_the_app_tells_worse_by_the_rule_given_on_the_command_line(fusion) -> None:  # type: ignore[no-untyped-def]
    """``dumpscope GOLDEN A B --worse magnitude:3`` reaches the app's three-way compare: its ``worse``
    column is the one ``compare_three`` gives with that rule, computed apart."""
    from dumpscope.core.comparison.threeway import compare_three
    from dumpscope.tui.cli.commands import view
    from dumpscope.tui.cli.dispatch import read_options
    from dumpscope.tui.cli.main import build_parser

    parser, _commands = build_parser("view")
    args = parser.parse_args(
        ["view", str(fusion.golden), str(fusion.on), str(fusion.off), "--worse", "magnitude:3"]
    )
    opts, _ui, cmd = (read_options(group, args) for group in view.OPTIONS)
    request = view._request(opts, cmd)
    app = DumpscopeApp(request)
    async with app.run_test(size=(140, 30)) as pilot:
        await _both_sides_in(pilot, app)
        assert app.threeway is not None
        assert (app.threeway.meta.worse_by, app.threeway.meta.factor) == ("magnitude", 3.0)
        apart = compare_three(fusion.golden, fusion.on, fusion.off, worse_by="magnitude", factor=3.0)
        assert app.threeway.frame["worse"].to_list() == apart.frame["worse"].to_list()


async def test_the_list_shows_every_tensor_of_the_union_and_says_which_dumps_lack_it(tmp_path: Path) -> None:
    from tests.core.comparison.test_threeway import UNION, union_dumps

    g, a, b = union_dumps(tmp_path)
    app = DumpscopeApp(CompareRequest(g, a, b=b))
    async with app.run_test(size=(150, 30)) as pilot:
        await _both_sides_in(pilot, app)
        await pilot.pause(0.2)
        lst = app.query_one(LayerList)
        lines = {line.lstrip("▶ ").split()[1]: line for line in _lines(lst)[1:]}  # (cursor), #, name
        assert set(lines) == set(UNION)  # B's own tensor is listed too
        assert "– none" in lines["bonly"] and "– none" in lines["aonly"]  # the side that lacks it
        assert "– none" not in lines["conv1"]
        assert app.rows is not None
        assert lst.select_position(app.rows.name_index("bonly"))
        await pilot.pause(0.2)
        assert str(app.query_one("#cursor-name").render()).endswith("only in B")
        assert lst.select_position(app.rows.name_index("lost"))
        await pilot.pause(0.2)
        assert str(app.query_one("#cursor-name").render()).endswith("only in golden")


async def test_screenshots_include_three_way_and_no_color(tmp_path: Path) -> None:
    from screenshots.make import no_color_screenshots, three_way_screenshots

    written = await three_way_screenshots(tmp_path) + await no_color_screenshots(tmp_path)
    names = {p.name for p in written}
    assert {"three-way.svg", "three-way-worse.svg", "no-color.svg", "no-color-pane-focused.svg"} <= names
    three = (tmp_path / "three-way.svg").read_text()
    assert "worse" in three and "fp16" in three and "int8" in three
    import os

    assert "NO_COLOR" not in os.environ or os.environ["NO_COLOR"]  # restored as it was


async def _loaded(pilot, app) -> None:  # type: ignore[no-untyped-def]
    for _ in range(400):
        await pilot.pause(0.05)
        if app.threeway is not None and app.diagnosis is not None:
            break


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_b_switches_the_whole_screen_to_the_other_side(fusion, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """Counts, first divergent, verdict and panes describe the side on screen; b flips to B and back,
    on the same tensor, and B's own diagnosis names B's problem (here: none, fusion off is healthy)."""
    from dumpscope.core.comparison.pipeline import compare

    request = CompareRequest(
        fusion.golden, fusion.on, b=fusion.off, graph=fusion.graph_on, graph_b=fusion.graph_off
    )
    app = DumpscopeApp(request)
    async with app.run_test(size=size) as pilot:
        await _loaded(pilot, app)
        a_side = compare(fusion.golden, fusion.on, graph=fusion.graph_on)
        b_side = compare(fusion.golden, fusion.off, graph=fusion.graph_off)
        assert (
            app.comparison is not None
            and app.comparison.health_counts()["fail"] == a_side.health_counts()["fail"]
        )
        assert app.diagnosis is not None and not app.diagnosis.healthy
        first = app.layer_list.selected
        name = app.rows.name(first) if first is not None else None
        await pilot.press("b")
        await _loaded(pilot, app)
        assert app.threeway.labels[0] == "B"
        counts = app.comparison.health_counts()
        assert counts.get("fail", 0) == b_side.health_counts().get("fail", 0)
        assert app.diagnosis is not None and app.diagnosis.healthy == (b_side.first_divergent() is None)
        assert "showing B" in str(app.query_one("#summary").render())
        if name is not None and app.layer_list.selected is not None:
            assert app.rows.name(app.layer_list.selected) == name  # the same tensor on the other side
        header = _lines(app.query_one(LayerList))[0]
        assert "B" in header and "A" in header
        await pilot.press("b")
        await _loaded(pilot, app)
        assert (
            app.threeway.labels[0] == "A"
            and app.comparison.health_counts()["fail"] == a_side.health_counts()["fail"]
        )
