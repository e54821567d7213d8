"""Lining up a golden and a target tensor whose shapes differ.

A shape mismatch is a finding, not a crash.  Three cases can still be compared:

* the shapes differ only by size-1 dimensions (``[1, 1000]`` vs ``[1000]``): a pure
  reshape, compared as is;
* a standard layout transpose makes them equal (NHWC vs NCHW, NDHWC vs NCDHW, the
  last two axes of a 3-D tensor): the target is transposed to the golden layout and
  the row says so -- a layout mismatch is often *the* bug;
* the sizes are equal but no transpose explains the shapes: compared flat, and the row
  is at least a warning, because the numbers only mean something if it is a reshape.

Different sizes cannot be compared; the row is an error with both shapes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_LAYOUTS: dict[int, tuple[tuple[tuple[int, ...], str], ...]] = {
    4: (((0, 3, 1, 2), "target is NHWC, golden NCHW: compared after transposing the target to NCHW"),
        ((0, 2, 3, 1), "target is NCHW, golden NHWC: compared after transposing the target to NHWC")),
    5: (((0, 4, 1, 2, 3), "target is NDHWC, golden NCDHW: compared after transposing the target"),
        ((0, 2, 3, 4, 1), "target is NCDHW, golden NDHWC: compared after transposing the target")),
    3: (((0, 2, 1), "the last two axes are swapped: compared after transposing the target"),),
    2: (((1, 0), "the target is transposed: compared after transposing it back"),),
}


@dataclass(frozen=True)
class Aligned:
    golden: np.ndarray
    target: np.ndarray
    note: str = ""
    """What was done to line the tensors up (empty when the shapes were equal)."""
    warn: str = ""
    """Set when the comparison is only meaningful under an assumption."""
    error: str = ""
    """Set when the tensors cannot be compared at all."""


def _fmt(shape: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def align(golden: np.ndarray, target: np.ndarray) -> Aligned:
    gs, ts = tuple(golden.shape), tuple(target.shape)
    if gs == ts:
        return Aligned(golden, target)
    shapes = f"golden {_fmt(gs)} vs target {_fmt(ts)}"
    if golden.size != target.size:
        return Aligned(golden, target, error=f"shape mismatch: {shapes} ({golden.size} vs {target.size} elements)")
    if tuple(d for d in gs if d != 1) == tuple(d for d in ts if d != 1):
        return Aligned(golden.reshape(-1), target.reshape(-1), note=f"shapes differ only by size-1 dimensions ({shapes})")
    if len(gs) == len(ts):
        for perm, text in _LAYOUTS.get(len(gs), ()):
            if tuple(ts[i] for i in perm) == gs:
                return Aligned(golden, np.transpose(target, perm), note=f"{text} ({shapes})")
    return Aligned(
        golden.reshape(-1),
        target.reshape(-1),
        note=f"{shapes}: same size, compared as flat arrays",
        warn=f"shapes differ ({shapes}) and no layout transpose explains it; numbers are valid only for a pure reshape",
    )
