"""The user keymap: ``keymap.toml`` in the config directory remaps any binding by its id.

``binding.id = "key[,key...]"`` (or a list of keys), at the top level or under ``[keymap]``.
A broken file never stops the app: it is ignored with a note, and a bad entry costs only
that entry.
"""

from __future__ import annotations

import sys
from collections.abc import Collection
from pathlib import Path
from typing import TypeGuard

from dumpscope.core.paths import config_dir

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

Keymap = dict[str, str]


def binding_ids() -> frozenset[str]:
    """The ids of every binding dumpscope's app, screens and widgets declare."""
    from textual.binding import Binding

    return frozenset(
        b.id
        for cls in _dumpscope_classes()
        for b in getattr(cls, "BINDINGS", ())
        if isinstance(b, Binding) and b.id
    )


def _dumpscope_classes() -> list[type]:
    """Every loaded subclass of Textual's DOMNode defined in a ``dumpscope.`` module."""
    from textual.dom import DOMNode

    found: list[type] = []
    stack: list[type] = [DOMNode]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("dumpscope."):
            found.append(cls)
    return found


def _keys(value: object) -> str | None:
    """``"j, down"`` or ``["j", "down"]`` as ``"j,down"``; None when it is not a key string."""
    text = ",".join(value) if _is_key_list(value) else value
    if not isinstance(text, str) or not text.strip():
        return None
    return ",".join(k.strip() for k in text.split(",") if k.strip())


def _is_key_list(value: object) -> TypeGuard[list[str]]:
    """A TOML array of key strings (``["j", "down"]``)."""
    return isinstance(value, list) and all(isinstance(k, str) for k in value)


#: A keymap larger than this is not read (a real one is a few hundred bytes).
MAX_KEYMAP_BYTES = 1 << 20


class _Ignored(Exception):
    """Why a keymap file or entry is ignored (one line for the user)."""


def _read_table(path: Path) -> dict[str, object]:
    """The keymap table of ``path`` (:class:`_Ignored`, one line, when it cannot be used)."""
    data = _parse(path)
    table = data.get("keymap", data)
    if not isinstance(table, dict):
        raise _Ignored(f"{path}: [keymap] must be a table")
    return table


def _parse(path: Path) -> dict[str, object]:
    """The TOML document at ``path`` (at most :data:`MAX_KEYMAP_BYTES`; :class:`_Ignored` when unreadable)."""
    try:
        if path.stat().st_size > MAX_KEYMAP_BYTES:
            raise _Ignored(f"{path}: ignored (over {MAX_KEYMAP_BYTES >> 10} KiB; a keymap is a few lines)")
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        raise _Ignored(
            f'{path}: ignored (nested too deeply; a keymap is flat: binding.id = "keys")'
        ) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise _Ignored(f"{path}: ignored ({str(exc)[:200]})") from None


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
    try:
        table = _read_table(path)
    except _Ignored as exc:
        return {}, [str(exc)]
    return _entries(path, table, known)


def _entries(path: Path, table: dict[str, object], known: Collection[str] | None) -> tuple[Keymap, list[str]]:
    """The usable entries of the table, and one problem line per entry ignored."""
    keymap: Keymap = {}
    problems: list[str] = []
    for binding_id, value in _flat(table):
        try:
            keymap[str(binding_id)] = _entry_keys(path, binding_id, value, known)
        except _Ignored as exc:
            problems.append(str(exc))
    return keymap, problems


def _entry_keys(path: Path, binding_id: str, value: object, known: Collection[str] | None) -> str:
    """One entry's keys (:class:`_Ignored` for an unknown binding id or a value that is no key string)."""
    if known is not None and binding_id not in known:
        raise _Ignored(f"{path}: unknown binding id {str(binding_id)[:60]!r}; ignored")
    keys = _keys(value)
    if keys is None:
        raise _Ignored(f'{path}: {binding_id!r} needs a key string like "j,down"')
    return keys
