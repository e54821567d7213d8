"""One folder for a user's own files (the ``--cache`` signing key, KB entries, the key map),
found one way: :func:`dumpscope.core.paths.config_dir`, used by every reader of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.core.comparison.cache import key_path
from dumpscope.core.knowledge import user_kb_dir
from dumpscope.core.paths import config_dir, config_dir_name
from tests.support.paths import REPO, product_sources


@pytest.fixture()
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("DUMPSCOPE_CONFIG_DIR", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def _every_user() -> list[Path]:
    """The folder as the cache key and the KB find it (the key map: the test after this one)."""
    return [key_path().parent, user_kb_dir().parent]


@pytest.mark.parametrize(
    ("own", "xdg", "want"),
    [
        ("{t}/mine", "{t}/xdg", "{t}/mine"),  # DUMPSCOPE_CONFIG_DIR first
        (None, "{t}/xdg", "{t}/xdg/dumpscope"),  # then XDG_CONFIG_HOME/dumpscope
        (None, None, "{t}/home/.config/dumpscope"),  # then ~/.config/dumpscope
        ("", "", "{t}/home/.config/dumpscope"),  # an empty variable counts as unset
        (None, "relative/xdg", "{t}/home/.config/dumpscope"),  # a relative XDG path is ignored (XDG spec)
        ("~/own", None, "{t}/home/own"),  # ~ expanded
        (None, "~/xdg", "{t}/home/xdg/dumpscope"),
    ],
)
def test_the_precedence_is_the_same_for_every_user_of_the_folder(
    env: pytest.MonkeyPatch, tmp_path: Path, own: str | None, xdg: str | None, want: str
) -> None:
    for name, value in (("DUMPSCOPE_CONFIG_DIR", own), ("XDG_CONFIG_HOME", xdg)):
        if value is not None:
            env.setenv(name, value.format(t=tmp_path))
    expected = Path(want.format(t=tmp_path))
    assert config_dir() == expected
    assert Path(config_dir_name()) == expected  # the string form explain's start reads, without pathlib
    assert _every_user() == [expected] * 2


def test_the_key_map_is_read_from_that_folder(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from dumpscope.tui.app.keymap import load_keymap

    env.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path / "mine"))
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "keymap.toml").write_text('[keymap]\n"app.quit" = "Q"\n')
    assert load_keymap() == ({"app.quit": "Q"}, [])


def test_no_other_module_reads_the_variables() -> None:
    """The lookup is written once: no other module of dumpscope names the variables."""
    named = sorted(
        str(p.relative_to(REPO))
        for p in product_sources()
        if any(v in p.read_text(encoding="utf-8") for v in ('"DUMPSCOPE_CONFIG_DIR"', '"XDG_CONFIG_HOME"'))
    )
    assert named == ["core/paths.py"]
