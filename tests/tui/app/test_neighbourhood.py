"""The neighbourhood pane on the demo (an ONNX model and dumpscope manifests), driven by Pilot."""

from __future__ import annotations

import pytest
from textual.content import Content
from textual.widgets import Static

from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import CompareRequest
from dumpscope.tui.app.widgets.neighbourhood_pane import NeighbourhoodPane


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from dumpscope.core.onnx.demo import make_demo

    return make_demo(tmp_path_factory.mktemp("demo") / "demo")


async def _settled(pilot, pane: NeighbourhoodPane) -> str:  # type: ignore[no-untyped-def]
    for _ in range(200):
        await pilot.pause(0.05)
        if pane.is_settled and pane.facts is not None:
            break
    return "\n".join(
        Content.from_markup(str(s.content)).plain if isinstance(s.content, str) else s.content.plain
        for s in pane.query(Static)
    )


@pytest.mark.parametrize("with_model", [True, False])
async def test_neighbourhood_lists_producers_and_consumers_and_enter_moves_the_list(
    demo, with_model: bool
) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(CompareRequest(demo.golden, demo.target, demo.model if with_model else None))
    async with app.run_test(size=(160, 45)) as pilot:
        for _ in range(200):
            await pilot.pause(0.05)
            if app.progress is None and app.rows is not None:
                break
        while app.side.current != "neighbourhood":  # tensor -> overflow -> fusion -> neighbourhood
            await pilot.press("p")
        await pilot.pause(0.1)
        pane = app.query_one(NeighbourhoodPane)
        lst = app.layer_list
        start = lst.selected
        assert start is not None
        text = await _settled(pilot, pane)
        assert pane.facts is not None and pane.facts.row == start
        assert "this node:" in text and "inputs (" in text and "consumers (" in text
        assert pane.targets, text
        assert any(glyph in text for glyph in ("✓", "✗", "!", "⚠"))
        target = pane.targets[-1]
        pane.focus()
        await pilot.press("k")  # wrap round to the last listed tensor
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert lst.selected == target
        text = await _settled(pilot, pane)
        assert pane.facts.row == target and start in pane.targets
