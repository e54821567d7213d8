"""The user keymap: ``keymap.toml`` in the config directory remaps any binding by its id.

``binding.id = "key[,key...]"`` (or a list of keys), at the top level or under ``[keymap]``.
A broken file never stops the app: it is ignored with a note, and a bad entry costs only
that entry.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Collection
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

Keymap = dict[str, str]


def binding_ids() -> frozenset[str]:
    """The ids of every binding dumpscope's app, screens and widgets declare."""
    from textual.binding import Binding
    from textual.dom import DOMNode

    ids: set[str] = set()
    stack: list[type] = [DOMNode]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("dumpscope."):
            ids.update(b.id for b in getattr(cls, "BINDINGS", ()) if isinstance(b, Binding) and b.id)
    return frozenset(ids)


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


#: A keymap larger than this is not read (a real one is a few hundred bytes).
MAX_KEYMAP_BYTES = 1 << 20


def _read_table(path: Path) -> tuple[dict[str, object] | None, str | None]:
    """The keymap table of ``path``, or why it cannot be used (one line, never an exception)."""
    try:
        if path.stat().st_size > MAX_KEYMAP_BYTES:
            return None, f"{path}: ignored (over {MAX_KEYMAP_BYTES >> 10} KiB; a keymap is a few lines)"
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        return None, f"{path}: ignored (nested too deeply; a keymap is flat: binding.id = \"keys\")"
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return None, f"{path}: ignored ({str(exc)[:200]})"
    table = data.get("keymap", data)
    if not isinstance(table, dict):
        return None, f"{path}: [keymap] must be a table"
    return table, None


def _flat(table: dict[str, object]) -> list[tuple[str, object]]:
    """``(binding id, value)`` pairs; an unquoted dotted key (``app.quit = "Q"``, which TOML
    reads as a table ``app``) is joined back into its id, one level deep."""
    pairs: list[tuple[str, object]] = []
    for key, value in table.items():
        if isinstance(value, dict):
            pairs.extend((f"{key}.{sub}", v) for sub, v in value.items())
        else:
            pairs.append((key, value))
    return pairs


def load_keymap(path: Path | None = None, known: Collection[str] | None = None) -> tuple[Keymap, list[str]]:
    """Read ``keymap.toml``: ``binding.id = "key[,key...]"`` (top level or under ``[keymap]``).

    Returns the keymap and the problems found (one line each); a broken file never stops
    the app.  With ``known`` (the app's binding ids), an unknown id is a problem too.
    """
    path = path or config_dir() / "keymap.toml"
    if not path.is_file():
        return {}, []
    table, problem = _read_table(path)
    if table is None:
        return {}, [problem or f"{path}: ignored"]
    keymap: Keymap = {}
    problems: list[str] = []
    for binding_id, value in _flat(table):
        keys = _keys(value)
        if known is not None and binding_id not in known:
            problems.append(f"{path}: unknown binding id {str(binding_id)[:60]!r}; ignored")
        elif keys is None:
            problems.append(f"{path}: {binding_id!r} needs a key string like \"j,down\"")
        else:
            keymap[str(binding_id)] = keys
    return keymap, problems
