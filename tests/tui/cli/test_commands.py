"""`dumpscope GOLDEN TARGET`, `dumpscope open` and the screenshots script, without a terminal."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.app import DumpscopeApp
from dumpscope.tui.app.feed import CompareRequest
from dumpscope.tui.cli import main as cli
from screenshots.make import generated_frame, generated_screenshots


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Record what would be run instead of taking over the terminal."""
    runs: list[dict[str, Any]] = []

    def fake_run(self: DumpscopeApp, *, mouse: bool = True) -> int:
        runs.append({"source": self._source, "mouse": mouse, "theme": self._theme_name})
        return 0

    monkeypatch.setattr(DumpscopeApp, "run", fake_run)
    return runs


def test_two_paths_open_the_app(tmp_path: Path, launched: list[dict[str, Any]]) -> None:
    (tmp_path / "g").mkdir()
    (tmp_path / "t").mkdir()
    model = tmp_path / "m.onnx"
    model.write_bytes(b"")
    code = cli.main(
        [
            str(tmp_path / "g"),
            str(tmp_path / "t"),
            "--model",
            str(model),
            "--no-mouse",
            "--theme",
            "ansi-dark",
            "--preset",
            "fp16",
        ]
    )
    assert code == 0
    (run,) = launched
    assert run["source"] == CompareRequest(tmp_path / "g", tmp_path / "t", model, "fp16")
    assert run["mouse"] is False and run["theme"] == "ansi-dark"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["view", "{tmp}/nope", "{tmp}/t"], "golden {tmp}/nope: no such file or directory"),
        (["{tmp}/t", "{tmp}/t", "--theme", "neon"], "unknown theme 'neon'"),
        (["{tmp}/t", "{tmp}/t", "--preset", "loose"], "invalid choice: 'loose'"),
        (["open", "{tmp}/missing.parquet"], "{tmp}/missing.parquet: no such file"),
        (["open", "{tmp}/t/junk.parquet"], "not a dumpscope result"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    launched: list[dict[str, Any]],
    argv: list[str],
    message: str,
) -> None:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "junk.parquet").write_bytes(b"PAR1 not really")
    code = cli.main([a.format(tmp=tmp_path) for a in argv])
    err = capsys.readouterr().err
    assert code == 2 and message.format(tmp=tmp_path) in err and len(err.strip().splitlines()) == 1
    assert launched == []


def test_open_reopens_a_saved_comparison(tmp_path: Path, launched: list[dict[str, Any]]) -> None:
    path = tmp_path / "r.parquet"
    Comparison.from_frame(generated_frame(50)).save(path)
    assert cli.main(["open", str(path)]) == 0
    (run,) = launched
    assert isinstance(run["source"], Comparison) and run["source"].frame.height == 50
    assert not run["source"].has_tensors and run["mouse"] is True


async def test_screenshots_script_writes_svgs(tmp_path: Path) -> None:
    written = await generated_screenshots(tmp_path)
    assert [p.name for p in written] == ["layers.svg", "filter-sort.svg", "help.svg"]
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("<svg") and "FAIL" in text


def test_the_screenshots_script_runs_from_the_repository_and_is_not_installed() -> None:
    """``python -m screenshots.make`` (the README's line) runs from the checkout; no package pyproject
    installs lives in ``screenshots/`` (a developer tool, not part of dumpscope)."""
    import subprocess

    import tomllib

    from tests.support.paths import REPO

    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    roots = setuptools["package-dir"]

    def folder(package: str) -> Path:
        parts = package.split(".")
        cut = max(n for n in range(1, len(parts) + 1) if ".".join(parts[:n]) in roots)
        return (REPO / roots[".".join(parts[:cut])]).joinpath(*parts[cut:]).resolve()

    installed = {folder(p) for p in setuptools["packages"]}
    assert (REPO / "tui" / "app").resolve() in installed  # the mapping is read right
    assert (REPO / "screenshots").resolve() not in installed
    done = subprocess.run(
        [sys.executable, "-m", "screenshots.make", "--help"], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0 and "usage: python -m screenshots.make" in done.stdout


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_demo_opens_the_app_on_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launched: list[dict[str, Any]]
) -> None:
    monkeypatch.setattr(sys, "stdin", _Terminal())
    monkeypatch.setattr(sys, "stdout", out := _Terminal())
    assert cli.main(["demo", "--out", str(tmp_path / "demo"), "--no-mouse"]) == 0
    (run,) = launched
    assert run["source"] == CompareRequest(
        tmp_path / "demo" / "golden", tmp_path / "demo" / "target", tmp_path / "demo" / "model.onnx"
    )
    assert run["mouse"] is False and "dumpscope compare" in out.getvalue()


def test_demo_prints_when_not_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], launched: list[dict[str, Any]]
) -> None:
    assert cli.main(["demo", "--out", str(tmp_path / "demo")]) == 0
    assert launched == [] and "frame5/attn/exp:0" in capsys.readouterr().out
