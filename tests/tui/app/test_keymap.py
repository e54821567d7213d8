"""The user keymap file (:mod:`dumpscope.tui.app.keymap`): reading, problems, config directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.core.paths import config_dir
from dumpscope.tui.app.keymap import load_keymap


def test_keymap_file_problems_are_reported(tmp_path: Path) -> None:
    bad = tmp_path / "keymap.toml"
    bad.write_text("[keymap\n")
    keymap, problems = load_keymap(bad)
    assert keymap == {} and "ignored" in problems[0]
    bad.write_text('"list.down" = ""\n"list.up" = "K, up"\n')
    keymap, problems = load_keymap(bad)
    assert keymap == {"list.up": "K,up"} and "list.down" in problems[0]
    assert load_keymap(tmp_path / "missing.toml") == ({}, [])


def test_list_values_top_level_table_and_non_table(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    path.write_text('[keymap]\n"app.quit" = ["Q", " ctrl+q "]\n"app.help" = 3\n')
    keymap, problems = load_keymap(path)
    assert keymap == {"app.quit": "Q,ctrl+q"} and "app.help" in problems[0]
    path.write_text("keymap = 3\n")
    assert load_keymap(path) == ({}, [f"{path}: [keymap] must be a table"])


def test_config_dir_honours_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path / "mine"))
    assert config_dir() == tmp_path / "mine"
    monkeypatch.delenv("DUMPSCOPE_CONFIG_DIR")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_dir() == tmp_path / "xdg" / "dumpscope"


def test_a_keymap_nested_50k_deep_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "keymap.toml"
    path.write_text("a = " + "[" * 50_000 + "]" * 50_000 + "\n")
    assert load_keymap(path) == (
        {},
        [f'{path}: ignored (nested too deeply; a keymap is flat: binding.id = "keys")'],
    )
    path.write_bytes(b"# " + b"x" * (2 << 20))
    keymap, problems = load_keymap(path)
    assert keymap == {} and len(problems) == 1 and "KiB" in problems[0]


def test_unknown_binding_ids_are_reported_and_dotted_keys_joined(tmp_path: Path) -> None:
    from dumpscope.tui.app.app import DumpscopeApp  # noqa: F401 - declares the bindings
    from dumpscope.tui.app.keymap import binding_ids

    known = binding_ids()
    assert {"app.quit", "list.down"} <= known
    path = tmp_path / "keymap.toml"
    path.write_text('app.quit = "Q"\n"no.such" = "x"\n')
    keymap, problems = load_keymap(path, known)
    assert keymap == {"app.quit": "Q"}
    assert problems == [f"{path}: unknown binding id 'no.such'; ignored"]
