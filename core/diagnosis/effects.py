"""Measured effects: how much of a row's error each candidate cause explains.

A cause may rank only as high as what its effect explains.  The effects are measured by
replay (:mod:`~dumpscope.core.diagnosis.replay`):

* a finding about a constant (clamped, flushed, out of range): the node replayed on the
  golden inputs with the original constant and with the clamped/flushed one; the output's
  relative change against the row's error is the constant's *share*;
* a differing constant row: the same, with the target's own constant, for its unhealthy
  consumers;
* any other finding at a node whose replay matches the target explains nothing: the node
  computed faithfully what it was fed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeGuard

import numpy as np

from dumpscope.core.diagnosis.checks import Finding
from dumpscope.core.diagnosis.replay import Replay, Replayer, as_target_dtype, clamp_and_flush
from dumpscope.core.vocabulary import FINDING_CLASS, WEIGHTS

#: A constant whose replayed effect on the output is below this share of the row's error explains nothing.
NEGLIGIBLE_SHARE = 0.1
#: Consumers of a differing constant whose output is replayed with the target's constant.
MAX_CONSUMERS = 3


@dataclass(frozen=True)
class Measured(Finding):
    """A finding about a constant, with its replayed effect on the node's output."""

    share: float = 0.0
    """The constant's effect as a share of the row's error."""


def measured(
    f: Finding, replay: Replay | None, replayer: Replayer | None, row: int, err: float | None, dtype: str
) -> Finding:
    """``f`` with its measured effect (see the module docstring); unchanged when nothing can be measured."""
    if f.subject is None:
        return _unexplained(f) if replay is not None and replay.faithful else f
    effect = _subject_effect(f, replayer, row, err, dtype)
    return f if effect is None or err is None else _with_share(f, effect, err)


def _subject_effect(
    f: Finding, replayer: Replayer | None, row: int, err: float | None, dtype: str
) -> float | None:
    """The output's relative change when the node reads the constant ``f.subject`` as the target has it:
    the target's own copy for a weight that differs, else clamped and flushed as the target dtype does;
    None without a replayer, a row error to compare with, or a golden value."""
    subject = str(f.subject)
    if replayer is None or not (err or 0.0) > 0:
        return None
    golden = replayer.src.constant_value(subject)
    if golden is None:
        return None
    if FINDING_CLASS.get(f.cause) == WEIGHTS:
        return replayer.constant_effect(row, subject, _target_constant(replayer, subject, golden, dtype))
    return replayer.constant_effect(row, subject, clamp_and_flush(golden, dtype))


def _share(effect: float, err: float) -> float:
    """An effect as a share of the row's error ``err`` (at most 1; an infinite effect explains all of it)."""
    return min(1.0, effect / err) if math.isfinite(effect) else 1.0


def _unexplained(f: Finding) -> Finding:
    """A finding at a node that computes faithfully what it is fed: evidence, but no weight."""
    return replace(
        f,
        weight=0.0,
        fixes=(),
        text=f.text + "; but the replay of the node on the target's inputs "
        "matches the target: this does not explain the row's error",
    )


def _with_share(f: Finding, effect: float, err: float) -> Measured:
    """A constant finding with the share of the row's error its replayed effect explains."""
    share = _share(effect, err)
    said = f"; replayed, it moves the output by a relative {effect:.3g} against the row's error {err:.3g}"
    negligible = share < NEGLIGIBLE_SHARE
    return Measured(
        cause=f.cause,
        text=f.text + said + (": negligible" if negligible else ""),
        fixes=() if negligible else f.fixes,
        weight=0.0 if negligible else f.weight,
        subject=f.subject,
        share=share,
    )


def cause_share(findings: Sequence[Finding], replay: Replay | None, cause: str) -> float | None:
    """The share of the row's error a cause explains: the named constant's replayed effect,
    else the replay's (how far the target is from the faithful computation)."""
    shares = [f.share for f in findings if _explains(f, cause)]
    return max(shares) if shares else _replay_share(replay)


def _explains(f: Finding, cause: str) -> TypeGuard[Measured]:
    """A weighty measured finding of the class ``cause``."""
    return isinstance(f, Measured) and f.weight > 0 and FINDING_CLASS.get(f.cause) == cause


def _replay_share(replay: Replay | None) -> float | None:
    """How far the target is from the faithful replay, as a share of its error (None when unmeasured)."""
    if replay is None or replay.vs_target is None or not replay.target_error:
        return None
    return _share(replay.vs_target, replay.target_error)


def constant_row_share(
    replayer: Replayer, name: str, dtype: str, consumers: Sequence[tuple[int, float]]
) -> float | None:
    """A differing constant's share: the largest share of an unhealthy consumer's error (``consumers``:
    row and error) that the target's version of the constant alone explains; 0 without such consumers."""
    golden = replayer.src.constant_value(name)
    if golden is None:
        return None
    changed = _target_constant(replayer, name, golden, dtype)
    shares = [
        share
        for row, err in consumers[:MAX_CONSUMERS]
        if (share := _consumer_share(replayer, row, name, changed, err)) is not None
    ]
    if consumers and not shares:
        return None
    return max(shares, default=0.0)


def _consumer_share(replayer: Replayer, row: int, name: str, changed: np.ndarray, err: float) -> float | None:
    """The share of consumer ``row``'s error that reading ``changed`` for constant ``name`` explains."""
    effect = replayer.constant_effect(row, name, changed)
    return _share(effect, err) if effect is not None and err else None


def _target_constant(replayer: Replayer, name: str, golden: np.ndarray, dtype: str) -> np.ndarray:
    """The target's version of a constant: its dump when it has one that differs, else the golden
    value as the target dtype holds it."""
    changed = replayer.changed_constant(name)
    return changed if changed is not None else as_target_dtype(golden, dtype)
