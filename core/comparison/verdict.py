"""The typed facts of one compared pair, and the one function that reads a verdict from them.

The kernel (:mod:`metrics`) states what it found as :class:`PairFlag` flags; nothing
downstream matches prose.  :func:`hard_failures` decides which findings make a row
unhealthy whatever the thresholds, and the two renderers turn flags into the
``notes``/``hard_fail`` text shown to users -- the only place those words are written.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntFlag
from typing import Protocol


class PairFlag(IntFlag):
    """What the kernel found about one golden/target pair, beyond its numbers."""

    NONE = 0
    EMPTY = 1
    """The tensors have no element."""
    NOTHING_COMPARED = 2
    """No position is finite on both sides (also set for an empty pair)."""
    PARTIAL_FINITE = 4
    """Some, not all, positions are finite on both sides: the metrics cover those."""
    SINGLE_ELEMENT = 8
    """One element: compared by value, cosine is not defined."""
    ALL_ZERO_GOLDEN = 16
    """The golden is all zero but the target is not."""
    ALL_ZERO_TARGET = 32
    """The target is all zero but the golden is not."""
    NONFINITE_MISMATCH = 64
    """A position is NaN/Inf on one side only (or Inf of opposite signs)."""
    GOLDEN_NONFINITE = 128
    """The golden itself holds NaN or Inf."""


#: Findings that are unhealthy whatever the thresholds (besides "nothing comparable").
_ALWAYS_FAIL = PairFlag.NONFINITE_MISMATCH | PairFlag.ALL_ZERO_GOLDEN


class Counts(Protocol):
    """The counts the renderers quote (a :class:`~.metrics.PairMetrics` has them)."""

    flags: PairFlag
    size: int
    compared: int
    nonfinite_mismatch: int
    nan_golden: int
    inf_golden: int
    nan_target: int
    inf_target: int


def hard_failures(flags: PairFlag) -> PairFlag:
    """The findings that fail a row whatever the thresholds.

    Nothing compared fails the row only when no other finding explains it (a mismatch
    is reported instead; a non-finite golden is the user's reference, not a failure).
    """
    if flags & PairFlag.EMPTY:  # empty on both sides: equal (nothing differs), not a failure
        return PairFlag.NONE
    out = flags & _ALWAYS_FAIL
    unexplained = not flags & (PairFlag.NONFINITE_MISMATCH | PairFlag.GOLDEN_NONFINITE)
    if flags & PairFlag.NOTHING_COMPARED and unexplained:
        out |= PairFlag.NOTHING_COMPARED
    return out


def render_notes(m: Counts) -> tuple[str, ...]:
    """Facts a user must know to read the numbers, in the order they are shown."""
    flags = m.flags
    if flags & PairFlag.EMPTY:
        return ("empty on both sides: equal",)
    if flags & PairFlag.NOTHING_COMPARED:
        return ("no position is finite on both sides",)
    return (*_coverage(m), *(text for flag, text in _VALUE_NOTES if flags & flag))


def _coverage(m: Counts) -> list[str]:
    """How many positions the metrics cover, when not all."""
    if not m.flags & PairFlag.PARTIAL_FINITE:
        return []
    return [f"metrics cover the {m.compared} of {m.size} positions finite on both sides"]


_VALUE_NOTES: tuple[tuple[PairFlag, str], ...] = (
    (PairFlag.SINGLE_ELEMENT, "one element: compared by value (cosine is not defined)"),
    (PairFlag.ALL_ZERO_GOLDEN, "golden is all zero but target is not"),
    (PairFlag.ALL_ZERO_TARGET, "target is all zero but golden is not"),
)


def render_hard_fail(m: Counts) -> str:
    """The reasons a row fails whatever the thresholds ('' when there is none)."""
    flags = hard_failures(m.flags)
    return "; ".join(reason(m) for flag, reason in _HARD_REASONS if flags & flag)


def _mismatch_text(m: Counts) -> str:
    """NaN/Inf on one side only, with the counts on both sides."""
    n = m.nonfinite_mismatch
    return (
        f"{n} position{'s are' if n != 1 else ' is'} NaN/Inf on one side only "
        f"(target NaN {m.nan_target}, Inf {m.inf_target}; golden NaN {m.nan_golden}, Inf {m.inf_golden})"
    )


#: A hard failure's reason, in the order they are shown.
_HARD_REASONS: tuple[tuple[PairFlag, Callable[[Counts], str]], ...] = (
    (PairFlag.NONFINITE_MISMATCH, _mismatch_text),
    (PairFlag.ALL_ZERO_GOLDEN, lambda m: "golden is all zero but target is not"),
    (PairFlag.NOTHING_COMPARED, lambda m: "nothing could be compared"),
)
