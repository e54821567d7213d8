"""Where dumpscope keeps a user's own files: one folder, found one way.

The folder holds the key that signs ``--cache`` indexes (``cache-key``), the user's knowledge
base entries (``kb/*.jsonl``) and the UI's key map (``keymap.toml``).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["config_dir", "config_dir_name"]


def config_dir() -> Path:
    """``$DUMPSCOPE_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/dumpscope``, else ``~/.config/dumpscope``.

    ``~`` is expanded in both variables; an empty variable counts as unset; a relative
    ``$XDG_CONFIG_HOME`` is ignored, as the XDG spec says (it would change with the working
    folder).  The folder need not exist."""
    from pathlib import Path  # here: importing pathlib (urllib and ipaddress behind it) is ~3 ms of a start

    return Path(config_dir_name())


def config_dir_name() -> str:
    """:func:`config_dir` as a string, found with :mod:`os.path` alone (the one place of the rule): a quick
    command that only asks whether something is there (``explain``: is there a ``kb`` folder of the user's own
    entries?) starts without pathlib.  A ``~user`` of no such user is left as written, not an error."""
    own = os.environ.get("DUMPSCOPE_CONFIG_DIR")
    if own:
        return os.path.expanduser(own)
    xdg = os.path.expanduser(os.environ.get("XDG_CONFIG_HOME") or "")
    base = xdg if os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "dumpscope")
