"""Terminal safety: text that came from a file never reaches the terminal raw.

Tensor names, op types and messages read from dumps, graphs, logs and knowledge-base
files may hold control characters (``ESC]0;title BEL`` retitles the terminal, ``ESC[2J``
clears it, ``CSI`` moves the cursor) and Rich markup (``[/b]`` raises ``MarkupError``,
``[bold]x`` would render bold).  Every CLI text output passes such text through
:func:`plain` (for ``print`` and Rich ``Text``) or :func:`markup` (for strings Rich
parses as markup).  Ordinary text comes out unchanged.
"""

from __future__ import annotations

import re

from dumpscope.core.names import display

#: C0 controls except tab and newline, DEL, and the C1 controls (``\\x9b`` is a CSI).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _escape_control(match: re.Match[str]) -> str:
    return f"\\x{ord(match.group()):02x}"


def plain(text: object) -> str:
    """``text`` with undecodable bytes and control characters shown as ``\\xNN`` escapes."""
    return _CONTROL.sub(_escape_control, display(str(text)))


def markup(text: object) -> str:
    """:func:`plain`, with Rich markup escaped too: for strings Rich parses as markup."""
    from rich.markup import escape

    return escape(plain(text))
