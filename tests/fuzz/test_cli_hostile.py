"""Issue 13, command-line mistakes and hostile side inputs: usage errors (exit 2, one line), never a hang."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dumpscope.core import formats
from dumpscope.core.knowledge.loader import load_kb
from dumpscope.tui.cli.main import main

from .corpus import _manifest_unreadable, npy_dir


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err


def test_explain_log_on_a_fifo_is_refused_without_opening_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.mkfifo(tmp_path / "log")
    assert main(["explain", "--log", str(tmp_path / "log")]) == 2  # opening it would block forever
    err = _err(capsys)
    assert "is a FIFO" in err and "no such file" not in err


def test_explain_log_on_a_device_or_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["explain", "--log", "/dev/zero"]) == 2
    assert "is a device" in _err(capsys)
    assert main(["explain", "--log", str(tmp_path)]) == 2
    assert "is a folder" in _err(capsys)
    assert main(["explain", "--log", str(tmp_path / "none")]) == 2
    assert "no such file" in _err(capsys)


def test_a_fifo_in_the_user_kb_folder_is_skipped_with_a_warning(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "mine.jsonl")
    kb = load_kb(user_dir=tmp_path)
    assert any("mine.jsonl" in w and "not a regular file" in w for w in kb.warnings)
    assert len(kb.entries) > 0 if hasattr(kb, "entries") else True


def test_explain_with_a_fifo_in_the_kb_folder_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "kb").mkdir()
    os.mkfifo(tmp_path / "kb" / "pipe.jsonl")
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path))
    main(["explain", "Segmentation fault"])
    assert "pipe.jsonl: not a regular file" in _err(capsys)


def test_patch_into_a_folder_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from .run import _model

    model = _model(tmp_path)
    assert main(["patch", str(model), "-o", str(tmp_path), "--keep-fp32", "relu"]) == 2
    assert "is a folder" in _err(capsys)
    assert main(["patch", str(model), "-o", str(tmp_path / "p.onnx"), "--keep-fp32", "relu"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.onnx", "p.onnx"]  # no temporary left


def test_demo_out_on_a_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "f.txt").write_text("keep")
    assert main(["demo", "--out", str(tmp_path / "f.txt"), "--headless"]) == 2
    assert "is a file, not a folder" in _err(capsys)
    assert (tmp_path / "f.txt").read_text() == "keep"


def test_formats_lists_every_dump_format_with_its_sniff_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["formats", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    names = [f["name"] for f in listing["dumps"]]
    assert names == [n for n, _r in formats.describe()] and "npy-dir" in names and "msprobe" in names
    assert all(f["sniff"] for f in listing["dumps"] + listing["side files"])
    assert main(["formats"]) == 0
    assert "ascend-graph-json" in capsys.readouterr().out


def test_not_a_dump_points_at_the_formats_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "x.bin").write_bytes(b"junk")
    assert main(["compare", str(tmp_path / "x.bin"), str(tmp_path / "x.bin")]) == 2
    assert "dumpscope formats" in _err(capsys)


@pytest.mark.parametrize("fmt", ["json", "csv", "markdown", "table-file"])
def test_manifest_not_used_reaches_stderr_in_every_format(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, target = _manifest_unreadable(tmp_path)
    extra = ["-o", str(tmp_path / "out.txt")] if fmt == "table-file" else []
    assert main(["compare", str(golden), str(target), "--format", fmt.split("-")[0], *extra]) in (0, 1)
    err = _err(capsys)
    assert "dumpscope: warning: target:" in err and "manifest not used" in err


def test_many_warnings_are_capped_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g, t = npy_dir(tmp_path / "g"), npy_dir(tmp_path / "t")
    for i in range(30):
        os.mkfifo(t / f"pipe{i}.npy")  # each is skipped with a warning
    assert main(["compare", str(g), str(t), "--format", "json"]) == 0
    lines = [ln for ln in _err(capsys).splitlines() if ln.startswith("dumpscope: warning:")]
    assert len(lines) == 21 and lines[-1].endswith("and 10 more (see the JSON/CSV rows)")
