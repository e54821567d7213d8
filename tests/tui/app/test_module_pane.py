"""Issue 15: the msprobe module pane (construct.json tree, worst child's health, walk down to
the first bad API) and the per-rank summary, driven by Pilot; plus one snapshot."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from textual.widgets import Input, Tree

from dumpscope.core.comparison.msprobe.driver import compare_msprobe
from dumpscope.core.comparison.msprobe.view import as_comparison, module_tree
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.widgets.module_tree_pane import ModuleTreePane
from dumpscope.tui.cli.args import ComparisonOptions
from dumpscope.tui.cli.runs import msprobe_comparison
from screenshots.make import SIZE, THEME
from tests.support.msprobe import entry, tensor, write_rank

CONSTRUCT = {
    "Functional.conv2d.0.forward": "Module.block.Block.forward.0",
    "Functional.relu.0.forward": "Module.block.Block.forward.0",
    "Module.block.Block.forward.0": "Module.net.Net.forward.0",
    "Functional.linear.0.forward": "Module.head.Head.forward.0",
    "Module.head.Head.forward.0": "Module.net.Net.forward.0",
}


def _rank(path: Path, bad: bool) -> Path:
    x = np.linspace(-1, 1, 6).reshape(2, 3)
    relu = tensor(stats=(np.inf, 0.0, 1.0, np.inf)) if bad else tensor(np.maximum(x, 0))
    data = {
        "Functional.conv2d.0.forward": entry([tensor(x)], [tensor(x * 2)]),
        "Functional.relu.0.forward": entry([tensor(x * 2)], [relu]),
        "Module.block.Block.forward.0": entry([tensor(x)], [relu]),
        "Functional.linear.0.forward": entry([relu], [relu]),
        "Module.head.Head.forward.0": entry([relu], [relu]),
    }
    return write_rank(path, data, construct=CONSTRUCT)


@pytest.fixture()
def dumps(tmp_path: Path) -> tuple[Path, Path]:
    for step in (0, 1):
        _rank(tmp_path / "bench" / f"step{step}" / "rank0", False)
        _rank(tmp_path / "npu" / f"step{step}" / "rank0", step == 1)
    return tmp_path / "bench", tmp_path / "npu"


def test_module_tree_takes_the_worst_child_and_names_the_first_bad_call(dumps) -> None:
    bench, npu = dumps
    report = compare_msprobe(npu, bench)
    cmp = as_comparison(report)
    info = cmp.meta.msprobe
    assert info["label"] == "step1/rank0" and info["ranks"]["first"] == "step1/rank0"
    tree = info["tree"]
    assert tree["parents"]["Module.net.Net.forward.0"] is None
    assert tree["health"]["Module.net.Net.forward.0"] == "fail"
    assert tree["health"]["Functional.conv2d.0.forward"] == "ok"
    assert tree["first_bad"]["Module.net.Net.forward.0"] == "Functional.relu.0.forward"
    assert tree["first_bad"]["Module.block.Block.forward.0"] == "Functional.relu.0.forward"
    healthy = module_tree(report.results[0].frame)
    assert healthy["health"]["Module.net.Net.forward.0"] == "ok" and not healthy["first_bad"]


def test_view_command_builds_the_msprobe_comparison(dumps) -> None:
    bench, npu = dumps
    cmp = msprobe_comparison(ComparisonOptions(str(bench), str(npu), step=(0,)))
    assert cmp is not None and cmp.meta.msprobe["label"] == "step0/rank0"
    assert set(cmp.frame["health"].unique()) == {"ok"}


async def _to_modules(pilot) -> ModuleTreePane:  # type: ignore[no-untyped-def]
    await pilot.pause()
    for _ in range(5):  # `p` cycles the panes with something to show; modules is one of them here
        if pilot.app.side.current == "modules":
            break
        await pilot.press("p")
        await pilot.pause()
    return pilot.app.query_one(ModuleTreePane)


async def test_walking_down_the_tree_moves_the_layer_list(dumps) -> None:
    bench, npu = dumps
    cmp = as_comparison(compare_msprobe(npu, bench))
    app = DumpscopeApp(cmp, theme=THEME)
    async with app.run_test(size=SIZE) as pilot:
        pane = await _to_modules(pilot)
        assert app.side.current == "modules"
        tree = pane.query_one(Tree)
        labels = [str(n.label) for n in tree.root.children]
        assert any("Module.net.Net.forward.0" in label for label in labels)
        tree.focus()
        tree.select_node(None)
        tree.move_cursor(tree.root.children[0])  # the model's top module: fail, first bad = relu
        await pilot.pause()
        row = app.layer_list.selected
        assert row is not None and cmp.frame["node_name"][row] == "Functional.relu.0.forward"
        assert pane.has_focus_within  # walking on keeps the focus in the tree


def test_module_pane_snapshot(dumps, snap_compare, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path))
    monkeypatch.setattr(Input, "_toggle_cursor", lambda _self: None)
    bench, npu = dumps
    app = DumpscopeApp(as_comparison(compare_msprobe(npu, bench)), theme=THEME)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await _to_modules(pilot)
        for _ in range(200):  # the verdict bar is filled off the UI thread: wait for it, not for a fixed time
            await pilot.app.workers.wait_for_complete()
            if pilot.app.diagnosis is not None:
                break
            await pilot.pause(0.05)
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=SIZE)


def test_the_diagnosis_of_an_msprobe_comparison_is_its_first_divergence(dumps) -> None:
    """The app's verdict bar, first divergent row and list agree with `dumpscope compare`'s answer:
    the generic engine (no tensors, no graph) would otherwise name a culprit from missing evidence."""
    from dumpscope.core.diagnosis.engine import diagnose
    from dumpscope.core.vocabulary import OVERFLOW

    bench, npu = dumps
    report = compare_msprobe(npu, bench)
    cmp = as_comparison(report)
    d = diagnose(cmp)
    [cause] = d.root_causes
    assert cause.node_name == report.first.divergence.entry == "Functional.relu.0.forward"
    assert cause.cause == OVERFLOW and cause.row == cmp.first_divergent() == d.first_divergent["row"]
    assert report.first.divergence.describe() in cause.evidence[0] and not d.healthy and not d.replays
    assert d.classification["origin"][cause.row] == "introduced"
    healthy = diagnose(as_comparison(report, report.results[0]))
    assert healthy.healthy and not healthy.root_causes and "within 5 %" in healthy.summary


def test_a_call_over_the_divergence_bound_fails_in_the_list_even_when_msprobe_passes_it(tmp_path) -> None:
    """Weights differing by 40 % pass msprobe's rules (its inputs differ too) but not ours: the
    row fails, says why, and the diagnosis points at the weight (pre-processing: not the same data)."""
    from dumpscope.core.diagnosis.engine import diagnose
    from dumpscope.core.vocabulary import PREPROCESSING

    x, w, w_bad = (1.0, 0.0, 0.5, 10.0), (0.1, -0.1, 0.0, 1.0), (0.14, -0.14, 0.0, 1.4)
    y, y_bad = (2.0, 0.0, 1.0, 20.0), (2.8, 0.0, 1.4, 28.0)
    write_rank(
        tmp_path / "bench",
        {"Functional.conv2d.0.forward": entry([tensor(stats=x), tensor(stats=w)], [tensor(stats=y)])},
    )
    write_rank(
        tmp_path / "npu",
        {"Functional.conv2d.0.forward": entry([tensor(stats=x), tensor(stats=w_bad)], [tensor(stats=y_bad)])},
    )
    cmp = as_comparison(compare_msprobe(tmp_path / "npu", tmp_path / "bench"))
    weight = cmp.frame["name"].to_list().index("Functional.conv2d.0.forward.input.1")
    assert cmp.frame["Result"][weight] == "pass" and cmp.frame["health"][weight] == "fail"
    assert "NormRelativeErr 40.0% > 5 %" in cmp.frame["message"][weight]
    assert cmp.frame["shape"][weight].to_list() == [2] and cmp.frame["max_target"][weight] == 0.14
    [cause] = diagnose(cmp).root_causes
    assert cause.row == weight == cmp.first_divergent() and cause.cause == PREPROCESSING


def test_the_ui_says_which_calls_were_re_aligned(tmp_path) -> None:
    """An extra NPU relu shifts the relu counters: the per-rank summary counts the re-aligned
    pair, and the row's facts in the tensor pane name both calls."""
    from dumpscope.tui.app.widgets.module_tree_pane import _summary
    from dumpscope.tui.app.widgets.tensor_pane import _row_facts

    x = np.linspace(0.5, 1.5, 6)
    write_rank(tmp_path / "bench", {"Functional.relu.0.forward": entry([tensor(x)], [tensor(x)])})
    write_rank(
        tmp_path / "npu",
        {
            "Functional.relu.0.forward": entry([tensor(x * 9)], [tensor(x * 9)]),
            "Functional.relu.1.forward": entry([tensor(x)], [tensor(x)]),
        },
    )
    cmp = as_comparison(compare_msprobe(tmp_path / "npu", tmp_path / "bench"))
    info = cmp.meta.msprobe["ranks"]
    assert info["results"][0]["pairing"]["aligned"] == 1
    assert "(1 re-aligned)" in _summary(info).plain
    row = cmp.frame.filter(cmp.frame["name"] == "Functional.relu.1.forward.output.0").row(0, named=True)
    assert _row_facts(row)[-1] == (
        "aligned: NPU Functional.relu.1.forward \u2194 bench Functional.relu.0.forward"
    )
