"""A regular expression compiled when first used, not when its module is imported.

Python's ``re`` parses and compiles a pattern in Python code: a module-level ``re.compile`` costs 0.05-0.6 ms
of every start that imports the module, used or not.  ``dumpscope explain`` imports the knowledge modules
whole, and many of their patterns serve only some texts (a traceback, a ``key=value`` record, an execution
provider's name, a log scan): :class:`LazyPattern` leaves those to the texts that need them.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from typing import Any

_METHODS = ("search", "match", "fullmatch", "sub", "subn", "finditer", "findall", "split", "scanner")


class LazyPattern:
    """``re.compile(pattern, flags)`` on first use of any attribute a compiled pattern has (``search``,
    ``sub``, ``finditer``, ``groupindex``...).  The compiled pattern's methods are then kept on the object
    itself, so later calls cost what the compiled pattern's own do: no check, no extra call."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if it was not yet)."""
        rx: re.Pattern[str] | None = self.__dict__.get("_compiled")
        if rx is None:
            rx = re.compile(self.pattern, self._flags)
            self.__dict__.update({name: getattr(rx, name) for name in _METHODS}, _compiled=rx)
        return rx

    def __getattr__(self, name: str) -> Any:
        """Reached only for an attribute not kept yet (before the first use, or one like ``groupindex``)."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self._flags!r})"
