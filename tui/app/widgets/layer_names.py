"""Tensor names that fit a column and still tell rows apart.

A middle cut (``/model.2…/Sigmoid_output_0``) makes ``model.2`` and ``model.22`` alike
and three constants read the same.  Here a name that does not fit loses, in this order:
the path prefix every name of the table shares (``…``), then whole leading path segments
(``…/conv_0/Conv_output_0``: the scope nearest the op tells rows apart best), and last
the end of its last segment, keeping its parent whole - never a character cut inside a
scope, which is what made ``model.2`` and ``model.22`` alike.  The status line shows the
full name of the cursor row.
Nothing here knows about Textual; widths are in characters (names are printable).
"""

from __future__ import annotations

import os
import re

ELLIPSIS = "…"
_OUTPUT_INDEX = re.compile(r"[_:]0*[1-9][0-9]*$")
"""A trailing output index other than 0 (``_output_1``, ``:2``): kept when a name is cut."""


def common_prefix(names: list[str]) -> int:
    """Length of the path prefix (up to and including a ``/``) that all ``names`` share.

    Zero when fewer than two names, or when eliding it would save nothing worth a ``…``.
    """
    if len(names) < 2:
        return 0
    prefix = os.path.commonprefix(names)
    cut = prefix.rfind("/") + 1
    return cut if cut > len(ELLIPSIS) else 0


def elide(name: str, width: int, prefix: int = 0) -> str:
    """``name`` in at most ``width`` characters, keeping the parts that tell rows apart.

    ``prefix`` is :func:`common_prefix` of the table (dropped first, shown as ``…``).
    """
    short = _without_cut(name, width)
    if short is not None:
        return short
    body = ELLIPSIS + name[prefix:] if prefix else name
    if len(body) <= width:
        return body
    segments = body.split("/")
    return cut_middle(body, width) if len(segments) < 2 else _keep_segments(segments, width)


def _without_cut(text: str, width: int) -> str | None:
    """``text`` when it fits, its first characters when ``width`` is too small for a ``…``; else None."""
    if len(text) <= width:
        return text
    return text[:width] if width <= 2 else None


def _keep_segments(segments: list[str], width: int) -> str:
    """As many whole trailing segments as fit after ``…/``; else the parent whole and a cut last one."""
    kept = _trailing_segments(segments, width)
    return kept if kept is not None else _cut_last_segment(segments, width)


def _trailing_segments(segments: list[str], width: int) -> str | None:
    """The longest run of whole trailing segments (at least two) that fits after its lead, else None."""
    for start in range(1, len(segments) - 1):
        candidate = _lead(segments[:start]) + "/".join(segments[start:])
        if len(candidate) <= width:
            return candidate
    return None


def _lead(dropped: list[str]) -> str:
    """``/`` when nothing but the empty root before a leading ``/`` is dropped, else ``…/``."""
    text = "/".join(dropped)
    return "/" if not text.strip(ELLIPSIS) and not text.startswith(ELLIPSIS) else f"{ELLIPSIS}/"


def _cut_last_segment(segments: list[str], width: int) -> str:
    """The parent segment whole and the last one cut in the middle; else the last one alone, cut."""
    parent, tail = segments[-2], segments[-1]
    lead = "/" if not "/".join(segments[:-2]) else f"{ELLIPSIS}/"
    room = width - len(lead) - len(parent) - 1
    if parent and room >= 4:
        return f"{lead}{parent}/{cut_middle(tail, room)}"
    return cut_middle(f"{ELLIPSIS}/{tail}" if len(tail) + 2 < width else tail, width)


def cut_middle(text: str, width: int) -> str:
    """Keep the start (the node's name) and a non-zero output index (``Split_o…_1``)."""
    short = _without_cut(text, width)
    if short is not None:
        return short
    end = _output_index(text, width)
    return f"{text[: width - 1 - len(end)]}{ELLIPSIS}{end}"


def _output_index(text: str, width: int) -> str:
    """A trailing non-zero output index worth keeping: at most a third of the room, else ``""``."""
    match = _OUTPUT_INDEX.search(text)
    return match.group(0) if match and len(match.group(0)) <= (width - 1) // 3 else ""
