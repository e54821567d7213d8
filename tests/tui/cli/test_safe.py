"""Terminal safety of every CLI text output: names and messages read from files never reach
the terminal raw (control characters become ``\\xNN``; Rich markup shows literally)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dumpscope.core.formats import ascend_writer as aw
from dumpscope.tui.cli.main import main
from dumpscope.tui.cli.safe import markup, plain

TITLE = "\x1b]0;pwned\x07"  # retitles the terminal
CLEAR = "\x1b[2J"  # clears the screen
CSI = "\x9b31m"  # the 8-bit CSI
HOSTILE = (f"{TITLE}title", f"{CLEAR}clear", f"{CSI}csi", "[/b]", "[bold]x", "cr\rret")


def _assert_safe(text: str) -> None:
    """No control character but newline and tab; the hostile parts shown escaped and literal."""
    bad = [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]
    assert not bad, f"raw control characters reached the terminal: {bad!r}"


def _assert_names_shown(text: str) -> None:
    assert "\\x1b]0;pwned\\x07title" in text
    assert "\\x1b[2Jclear" in text
    assert "\\x9b31mcsi" in text
    assert "[/b]" in text and "[bold]x" in text


# --- the helper ---


def test_plain_escapes_controls_and_keeps_ordinary_text() -> None:
    assert plain(TITLE) == "\\x1b]0;pwned\\x07"
    assert plain("a\rb\x7fc\x9bd") == "a\\x0db\\x7fc\\x9bd"
    assert plain("ok: conv1/Conv_0 × 3.5 — fine\n\tnext") == "ok: conv1/Conv_0 × 3.5 — fine\n\tnext"
    assert plain("bad\udcffbyte") == "bad\\xffbyte"  # undecodable bytes, as display() shows them
    assert plain(None) == "None"


def test_markup_escapes_tags_so_rich_prints_them_literally() -> None:
    from rich.console import Console

    console = Console(file=None, record=True, width=200, color_system=None)
    names = ["[/b]", "[bold]x", "[red]a[/red]", "a\\[b]", "[link=file:///etc]y"]
    for name in names:
        console.print(f"[b]{markup(name)}[/b]")
    assert console.export_text().splitlines() == names


@given(st.text())
def test_plain_output_never_holds_a_control_character(text: str) -> None:
    _assert_safe(plain(text))


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E, exclude_characters="\\")))
def test_plain_is_the_identity_on_printable_ascii(text: str) -> None:
    assert plain(text) == text


# --- every command, end to end through main([...]) ---


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich reads COLUMNS: wide enough that no table folds a name over two lines."""
    monkeypatch.setenv("COLUMNS", "400")


@pytest.fixture
def hostile_dumps(tmp_path: Path) -> tuple[Path, Path]:
    """An .npz pair whose tensor names are hostile (an .npz keeps any name as it is)."""
    rng = np.random.default_rng(0)
    golden = {name: rng.standard_normal(16).astype(np.float32) for name in HOSTILE}
    np.savez(tmp_path / "golden.npz", **golden)
    np.savez(tmp_path / "target.npz", **{k: -v for k, v in golden.items()})  # every row fails
    return tmp_path / "golden.npz", tmp_path / "target.npz"


@pytest.mark.parametrize("fmt", ["table"])
def test_compare_table(
    hostile_dumps: tuple[Path, Path], fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, target = hostile_dumps
    assert main(["compare", str(golden), str(target), "--format", fmt]) == 1
    out = capsys.readouterr().out
    _assert_safe(out)
    _assert_names_shown(out)


def test_diagnose_text(hostile_dumps: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    golden, target = hostile_dumps
    assert main(["diagnose", str(golden), str(target)]) == 1
    out = capsys.readouterr().out
    _assert_safe(out)
    assert "\\x1b]0;pwned\\x07title" in out or "[/b]" in out or "[bold]x" in out


def test_open_table(
    hostile_dumps: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden, target = hostile_dumps
    saved = tmp_path / "saved.parquet"
    assert main(["compare", str(golden), str(target), "--format", "parquet", "-o", str(saved)]) == 1
    assert main(["open", str(saved), "--format", "table"]) == 1
    out = capsys.readouterr().out
    _assert_safe(out)
    _assert_names_shown(out)


def _op(name: str, type_: str, id_: int, originals: list[str]) -> dict[str, object]:
    attr = [
        {
            "key": "_datadump_original_op_names",
            "value": {"list": {"s": originals, "val_type": "VT_LIST_STRING"}},
        }
    ]
    return {
        "name": name,
        "type": type_,
        "id": id_,
        "attr": attr,
        "output_desc": [{"dtype": "DT_FLOAT16", "attr": []}],
    }


def test_fusion_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ops = [
        _op(f"{TITLE}title", "Conv2D", 1, [f"{CLEAR}clear", "[/b]"]),
        _op("[bold]x", f"{CSI}csi", 2, ["a", "b"]),
    ]
    path = tmp_path / "graph.json"
    path.write_text(json.dumps({"name": "g", "graph": [{"name": "g", "op": ops}]}))
    assert main(["fusion", str(path), "--all"]) == 0
    out = capsys.readouterr().out
    _assert_safe(out)
    _assert_names_shown(out)


def test_overflow_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import struct

    x = np.full(4, 1.0, np.float16)
    aw.write_dump(
        tmp_path / "Mul.m.7.1.1700000000000050",
        f"{TITLE}title[/b]",
        [aw.RawTensor(x * 2, 2)],
        inputs=[aw.RawTensor(x, 2)],
    )
    buf = bytearray(2048)
    for off in (0, 128, 256):
        struct.pack_into("<6Q", buf, off, 0, 1, 7, 0, 0x1000, 0x2000)
    struct.pack_into("<3Q", buf, 1024, 0xABC, 3, 0x20)
    aw.write_dump(
        tmp_path / "Opdebug.Node_OpDebug.1.1.1700000000000100",
        "",
        [aw.RawTensor(np.frombuffer(bytes(buf), np.uint8), 4)],
    )
    assert main(["overflow", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    _assert_safe(out)
    assert "\\x1b]0;pwned\\x07title[/b]" in out


def test_explain_message_and_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path / "config"))
    kb = tmp_path / "mine.jsonl"
    entry = {
        "id": "mine-1",
        "tool": f"{TITLE}tool",
        "stage": "run",
        "pattern": "hostile marker",
        "cause": f"{CLEAR}cause [/b]",
        "fix": "[bold]x fix",
        "source": "test",
    }
    kb.write_text(json.dumps(entry) + "\n")
    assert main(["explain", "--kb", str(kb), f"hostile marker {CSI}"]) == 0
    out = capsys.readouterr().out
    _assert_safe(out)
    log = tmp_path / "run.log"
    log.write_text(f"noise\nhostile marker {TITLE} {CSI}\n")
    assert main(["explain", "--kb", str(kb), "--log", str(log)]) == 0
    out = capsys.readouterr().out
    _assert_safe(out)
    assert "\\x1b]0;pwned\\x07" in out and "\\x9b31m" in out
