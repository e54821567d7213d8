"""The lookup's "go to layer" links, in the real app: a layer the message names jumps to its row; an op
type the message captures is never offered as a layer -- at 80x24 and 120x40."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList

from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.screens.lookup import LookupScreen
from tests.support.tui import settle

SIZES = [(80, 24), (120, 40)]


async def _lookup(pilot, app, message: str) -> LookupScreen:  # type: ignore[no-untyped-def]
    await pilot.press("e")
    for _ in range(100):
        await pilot.pause(0.05)
        if isinstance(app.screen, LookupScreen):
            break
    screen = app.screen
    assert isinstance(screen, LookupScreen)
    screen.query_one(Input).value = message
    for _ in range(100):
        await pilot.pause(0.05)
        if screen.query_one(OptionList).option_count:
            break
    return screen


@pytest.mark.parametrize("size", SIZES)
async def test_go_to_layer_jumps_to_the_named_row(demo_comparison, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(demo_comparison)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = await _lookup(
            pilot, app, "E19010: No parser is registered for Op [frame2/attn/exp, optype [ai.onnx::11::Exp]]."
        )
        results = screen.query_one(OptionList)
        await pilot.press("down", "enter")  # the results, expand the best match
        await pilot.pause(0.2)
        links = [
            i
            for i in range(results.option_count)
            if "go to layer" in str(results.get_option_at_index(i).prompt)
        ]
        assert len(links) == 1 and "frame2/attn/exp" in str(results.get_option_at_index(links[0]).prompt)
        for _ in range(links[0]):
            await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is app.main_screen
        row = app.layer_list.selected
        assert row is not None and demo_comparison.frame["node_name"][row] == "frame2/attn/exp"


async def test_an_op_type_is_not_offered_as_a_layer(demo_comparison) -> None:  # type: ignore[no-untyped-def]
    app = DumpscopeApp(demo_comparison)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = await _lookup(pilot, app, "Exp not supported yet!")  # ncnn's converter names the op *type*
        results = screen.query_one(OptionList)
        await pilot.press("down", "enter")
        await pilot.pause(0.2)
        prompts = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        assert not any("go to layer" in p for p in prompts)
