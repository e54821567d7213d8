"""``--cache``/``--cache-dir``, ``--scheduler`` and ``--workers`` are honoured by every route that
takes them, or refused on one line (exit 2): never silently ignored.

The routes: a pair of dumps (compare, diagnose), a three-way compare, an Ascend tree of several
runs, msprobe trees (their own reader: no index, no scheduler; ``--workers`` honoured), and the
terminal UI (a pair and a three-way)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dumpscope.tui.cli.main import main
from tests.support.msprobe import entry, tensor, write_rank
from tests.support.tui import SIZE, settle
from tests.tui.cli.test_multi_run_cli import ascend_tree  # noqa: F401 - the fixture

UNREACHABLE = "tcp://127.0.0.1:1"


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own signing key and keymap (never the user's)."""
    config = tmp_path / "config"
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(config))
    return config


@pytest.fixture()
def dumps(tmp_path: Path) -> tuple[Path, Path, Path]:
    """Golden, target A (one failing layer) and target B (healthy), three layers each."""
    rng = np.random.default_rng(3)
    sides = [tmp_path / s for s in ("golden", "a", "b")]
    for side in sides:
        side.mkdir()
    for i in range(3):
        x = rng.standard_normal(40).astype(np.float32)
        np.save(sides[0] / f"layer_{i}.npy", x)
        np.save(sides[1] / f"layer_{i}.npy", -x if i == 2 else x)
        np.save(sides[2] / f"layer_{i}.npy", x)
    return sides[0], sides[1], sides[2]


@pytest.fixture()
def msprobe_trees(tmp_path: Path) -> tuple[Path, Path]:
    same = {"Functional.relu.0.forward": entry([tensor(np.ones(4))], [tensor(np.ones(4))])}
    for side in ("npu", "bench"):
        write_rank(tmp_path / side / "step0" / "rank0", same)
    return tmp_path / "bench", tmp_path / "npu"


def _cache_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("dumpscope: cache")]


# ---------------------------------------------------------------- msprobe: refused, --workers honoured


@pytest.mark.parametrize("command", ["compare", "diagnose", "view"])
@pytest.mark.parametrize(
    ("option", "said"),
    [("--cache", "--cache"), ("--cache-dir", "--cache-dir"), ("--scheduler", "--scheduler")],
)
def test_msprobe_refuses_what_it_cannot_honour(
    msprobe_trees: tuple[Path, Path],
    tmp_path: Path,
    command: str,
    option: str,
    said: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dumpscope.tui.cli.commands import view

    opened: list[object] = []
    monkeypatch.setattr(view, "run_app", lambda app, args: opened.append(app) or 0)
    value = {"--cache": [], "--cache-dir": [str(tmp_path)], "--scheduler": [UNREACHABLE]}[option]
    assert main([command, *map(str, msprobe_trees), option, *value]) == 2
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"dumpscope: {said} does not apply to msprobe dumps (their own reader compares them on this machine "
        "and keeps no index)"
    ]
    assert captured.out == "" and not opened and not list(tmp_path.rglob(".dumpscope-*"))


def test_msprobe_honours_workers(msprobe_trees: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from dumpscope.core.comparison.msprobe import driver

    real, seen = driver.compare_msprobe, []

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(kwargs["workers"])
        return real(*args, **kwargs)

    monkeypatch.setattr(driver, "compare_msprobe", recording)
    assert main(["compare", *map(str, msprobe_trees), "--workers", "2", "--format", "json"]) == 0
    assert main(["compare", *map(str, msprobe_trees), "--format", "json"]) == 0
    assert seen == [2, 1]


# ---------------------------------------------------------------- three-way and Ascend trees: honoured


def test_a_three_way_compare_keeps_and_reuses_an_index_per_side(
    dumps: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, a, b = dumps
    where = tmp_path / "indexes"
    where.mkdir()
    argv = ["compare", str(golden), str(a), str(b), "--cache-dir", str(where), "--format", "json"]
    assert main(argv) == 1
    first = capsys.readouterr()
    indexes = {p.name.rsplit("-", 1)[1]: p for p in where.glob(".dumpscope-index-*.parquet")}
    assert len(indexes) == 2
    lines = _cache_lines(first.err)
    assert [line.split(": index ")[0] for line in lines] == ["dumpscope: cache (A)", "dumpscope: cache (B)"]
    assert all(line.endswith(": 0 of 3 rows reused, 3 computed") for line in lines), lines
    assert main(argv) == 1
    again = capsys.readouterr()
    assert json.loads(again.out) == json.loads(first.out)  # the same verdicts, served from the indexes
    assert all("3 rows reused" in line for line in _cache_lines(again.err)), again.err
    assert not list(a.glob(".dumpscope-*")) and not list(b.glob(".dumpscope-*"))


def test_a_three_way_compare_with_a_scheduler_it_cannot_use_is_one_line(
    dumps: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", *map(str, dumps), "--scheduler", UNREACHABLE, "--scheduler-timeout", "1"]) == 2
    captured = capsys.readouterr()
    [line] = captured.err.splitlines()
    assert line.startswith("dumpscope: --scheduler") and captured.out == ""


def test_an_ascend_tree_keeps_an_index_per_run(
    ascend_tree: tuple[Path, Path],  # noqa: F811 - the fixture
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    golden, dump = ascend_tree
    where = tmp_path / "indexes"
    where.mkdir()
    argv = ["compare", str(golden), str(dump), "--cache-dir", str(where), "--format", "json"]
    assert main(argv) == 1
    first = capsys.readouterr()
    labels = ["step0/device0", "step0/device1", "step1/device0", "step1/device1"]
    assert [line.split(": index ")[0] for line in _cache_lines(first.err)] == [
        f"dumpscope: cache ({label})" for label in labels
    ]
    assert len(list(where.glob(".dumpscope-index-*.parquet"))) == 4
    assert main(argv) == 1
    again = capsys.readouterr()
    assert json.loads(again.out)["first"] == json.loads(first.out)["first"] == "step1/device1"
    assert all("rows reused" in line and " 0 of " not in line for line in _cache_lines(again.err))


def test_an_ascend_tree_with_a_scheduler_it_cannot_use_is_one_line(
    ascend_tree: tuple[Path, Path],  # noqa: F811 - the fixture
    capsys: pytest.CaptureFixture[str],
) -> None:
    golden, dump = ascend_tree
    argv = ["compare", str(golden), str(dump), "--scheduler", UNREACHABLE, "--scheduler-timeout", "1"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    [line] = captured.err.splitlines()  # one line for the command, not an error row per run
    assert line.startswith("dumpscope: --scheduler") and captured.out == ""


def test_diagnose_says_where_the_index_is(
    dumps: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, a, _b = dumps
    assert main(["diagnose", str(golden), str(a), "--cache-dir", str(tmp_path), "--json", "--no-replay"]) == 1
    [line] = _cache_lines(capsys.readouterr().err)
    [index] = tmp_path.glob(".dumpscope-index-*.parquet")
    assert line == f"dumpscope: cache: index {index}: 0 of 3 rows reused, 3 computed"


# ---------------------------------------------------------------- the terminal UI: honoured


@pytest.mark.parametrize(
    "option", [["--scheduler", UNREACHABLE, "--scheduler-timeout", "1"], ["--cache-dir"]]
)
def test_the_ui_refuses_an_unusable_option_before_taking_the_terminal(
    dumps: tuple[Path, Path, Path],
    tmp_path: Path,
    option: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dumpscope.tui.cli.commands import view

    opened: list[object] = []
    monkeypatch.setattr(view, "run_app", lambda app, args: opened.append(app) or 0)
    if option == ["--cache-dir"]:
        option = ["--cache-dir", str(tmp_path / "missing")]
    assert main(["view", *map(str, dumps[:2]), *option]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"dumpscope: {option[0].removesuffix('-dir')}") and not opened


def test_the_ui_passes_every_option_on(
    dumps: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from dumpscope.tui.cli.commands import view

    opened: list[object] = []
    monkeypatch.setattr(view, "run_app", lambda app, args: opened.append(app._source) or 0)
    monkeypatch.setattr(view, "_check_options", lambda args: None)  # (nothing listens at the address)
    argv = ["view", *map(str, dumps[:2]), "--workers", "1", "--cache-dir", "/tmp"]
    assert main([*argv, "--scheduler", UNREACHABLE, "--scheduler-timeout", "2"]) == 0
    [request] = opened
    assert request.options() == {
        "cache": Path("/tmp"),
        "workers": 1,
        "scheduler": UNREACHABLE,
        "scheduler_timeout": 2.0,
    }


async def test_the_ui_keeps_the_index_in_the_cache_dir(
    dumps: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    from dumpscope.tui.app.app import DumpscopeApp
    from dumpscope.tui.app.feed import CompareRequest

    golden, a, b = dumps
    where = tmp_path / "indexes"
    where.mkdir()
    for request in (CompareRequest(golden, a, cache=where), CompareRequest(golden, a, b=b, cache=where)):
        app = DumpscopeApp(request)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert app.comparison is not None and "pending" not in app.comparison.frame["health"].to_list()
            for _ in range(100):  # the note comes with the last table, which may still be queued under load
                said = [n.message for n in app._notifications if n.title == "--cache"]
                if said:
                    break
                await pilot.pause(0.05)
            assert said and all(f"index {where}/" in m for m in said), said
    assert len(list(where.glob(".dumpscope-index-*.parquet"))) == 2  # a-vs-golden (both runs) and b
    assert not list(a.glob(".dumpscope-*")) and not list(b.glob(".dumpscope-*"))


async def test_the_ui_says_when_the_scheduler_cannot_be_used(dumps: tuple[Path, Path, Path]) -> None:
    from textual.widgets import Static

    from dumpscope.tui.app.app import DumpscopeApp
    from dumpscope.tui.app.feed import CompareRequest
    from dumpscope.tui.app.screens.message import MessageScreen

    app = DumpscopeApp(CompareRequest(dumps[0], dumps[1], scheduler=UNREACHABLE, scheduler_timeout=1.0))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MessageScreen)
        text = str(app.screen.query_one("#message-text", Static).render())
        assert "--scheduler" in text, text
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code is not None
