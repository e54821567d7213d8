"""Terminal safety: text that came from a file never reaches the terminal raw.

Tensor names, op types and messages read from dumps, graphs, logs and knowledge-base
files may hold control characters (``ESC]0;title BEL`` retitles the terminal, ``ESC[2J``
clears it, ``CSI`` moves the cursor) and Rich markup (``[/b]`` raises ``MarkupError``,
``[bold]x`` would render bold).  Every CLI text output passes such text through
:func:`plain` (for ``print`` and Rich ``Text``) or :func:`markup` (for strings Rich
parses as markup).  Ordinary text comes out unchanged.
"""

from __future__ import annotations

from dumpscope.core.names import printable


def plain(text: object) -> str:
    """``text`` with undecodable bytes, control and bidi characters shown as escapes
    (:func:`~dumpscope.core.names.printable`, keeping tab and newline)."""
    return printable(str(text), lines=True)


def markup(text: object) -> str:
    """:func:`plain`, with Rich markup escaped too: for strings Rich parses as markup."""
    from rich.markup import escape

    return escape(plain(text))
