"""Histograms drawn with Unicode block characters (text only: works over SSH and in 16 colours).

The counts come from the engine; this module only resamples them to the width available
and draws bars ``height`` rows high with eighth-block precision.  Counts are drawn on a
log scale by default: an error histogram is nearly always one tall bar at zero and a long
thin tail, and the tail is the interesting part.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

_EIGHTHS = " ▁▂▃▄▅▆▇█"


def resample(counts: Sequence[int], width: int) -> list[int]:
    """Sum ``counts`` into ``width`` buckets; fewer counts are widened to whole multiples."""
    n = len(counts)
    if n <= width:
        return [int(c) for c in counts for _ in range(width // max(n, 1))]
    out = [0] * width
    for i, c in enumerate(counts):
        out[i * width // n] += int(c)
    return out


def bars(counts: Sequence[int], width: int, height: int = 3, *, log: bool = True) -> list[str]:
    """Rows of a vertical bar chart, top row first; every non-empty bucket shows at least ▁."""
    buckets = resample(counts, max(1, width))
    if not buckets:
        return [""] * height

    def scale(c: int) -> float:
        return math.log1p(c) if log else float(c)

    top = max(scale(c) for c in buckets)
    levels = [0 if c <= 0 or top <= 0 else max(1, round(scale(c) / top * height * 8)) for c in buckets]
    rows = []
    for row in range(height - 1, -1, -1):
        rows.append("".join(_EIGHTHS[max(0, min(8, lv - row * 8))] for lv in levels))
    return rows
