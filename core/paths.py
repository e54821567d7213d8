"""Where dumpscope keeps a user's own files: one folder, found one way.

The folder holds the key that signs ``--cache`` indexes (``cache-key``), the user's knowledge
base entries (``kb/*.jsonl``) and the UI's key map (``keymap.toml``).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["config_dir"]


def config_dir() -> Path:
    """``$DUMPSCOPE_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/dumpscope``, else ``~/.config/dumpscope``.

    ``~`` is expanded in both variables; an empty variable counts as unset; a relative
    ``$XDG_CONFIG_HOME`` is ignored, as the XDG spec says (it would change with the working
    folder).  The folder need not exist."""
    own = os.environ.get("DUMPSCOPE_CONFIG_DIR")
    if own:
        return Path(own).expanduser()
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or "").expanduser()
    base = xdg if xdg.is_absolute() else Path.home() / ".config"
    return base / "dumpscope"
