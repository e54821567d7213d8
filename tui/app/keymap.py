"""The user keymap: ``keymap.toml`` in the config directory remaps any binding by its id.

``binding.id = "key[,key...]"`` (or a list of keys), at the top level or under ``[keymap]``.
A broken file never stops the app: it is ignored with a note, and a bad entry costs only
that entry.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

Keymap = dict[str, str]


def config_dir() -> Path:
    """``$DUMPSCOPE_CONFIG_DIR`` or ``~/.config/dumpscope`` (XDG_CONFIG_HOME honoured)."""
    env = os.environ.get("DUMPSCOPE_CONFIG_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "dumpscope"


def _keys(value: object) -> str | None:
    """``"j, down"`` or ``["j", "down"]`` as ``"j,down"``; None when it is not a key string."""
    if isinstance(value, list) and all(isinstance(k, str) for k in value):
        value = ",".join(value)
    if not isinstance(value, str) or not value.strip():
        return None
    return ",".join(k.strip() for k in value.split(",") if k.strip())


def _read_table(path: Path) -> tuple[dict[str, object] | None, str | None]:
    """The keymap table of ``path``, or why it cannot be used."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return None, f"{path}: ignored ({exc})"
    table = data.get("keymap", data)
    if not isinstance(table, dict):
        return None, f"{path}: [keymap] must be a table"
    return table, None


def load_keymap(path: Path | None = None) -> tuple[Keymap, list[str]]:
    """Read ``keymap.toml``: ``binding.id = "key[,key...]"`` (top level or under ``[keymap]``).

    Returns the keymap and the problems found; a broken file never stops the app.
    """
    path = path or config_dir() / "keymap.toml"
    if not path.is_file():
        return {}, []
    table, problem = _read_table(path)
    if table is None:
        return {}, [problem or f"{path}: ignored"]
    keymap: Keymap = {}
    problems: list[str] = []
    for binding_id, value in table.items():
        keys = _keys(value)
        if keys is None:
            problems.append(f"{path}: {binding_id!r} needs a key string like \"j,down\"")
        else:
            keymap[str(binding_id)] = keys
    return keymap, problems
