"""The user keymap file (:mod:`dumpscope.tui.app.keymap`): reading, problems, config directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.tui.app.keymap import config_dir, load_keymap


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
    path.write_text('keymap = 3\n')
    assert load_keymap(path) == ({}, [f"{path}: [keymap] must be a table"])


def test_config_dir_honours_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path / "mine"))
    assert config_dir() == tmp_path / "mine"
    monkeypatch.delenv("DUMPSCOPE_CONFIG_DIR")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert config_dir() == tmp_path / "xdg" / "dumpscope"
