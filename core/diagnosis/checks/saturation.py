"""Saturation: the target stops exactly at a dtype's limit where the golden goes beyond.

A target tensor holding values exactly at float16's 65504 (or bfloat16's maximum), or at
an integer type's end after its scale and zero point (an int8/uint8 quantisation rail),
at the positions where the golden goes past that limit, was clipped or saturated there:
an overflow, not an operator computing differently.  The finding counts the target values
at the rail and the golden values beyond it, and names the golden's largest value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.diagnosis.checks.base import (
    Check,
    CheckContext,
    Finding,
    PatchAction,
    RowCase,
    read_tensor,
)
from dumpscope.core.inspect.overflow import quant_params, row_ref
from dumpscope.core.inspect.ranges import dtype_range
from dumpscope.core.names import display

#: Cause -> what to do about it.
ADVICE: dict[str, str] = {
    "saturation": (
        "The target holds values exactly at its dtype's limit where the golden goes beyond: they saturate (are "
        "clipped) there. Bring the values into range before this node: rescale (normalise the input, fold a "
        "factor into a neighbouring op), run the node in a wider type, or, for a quantised tensor, calibrate a "
        "range (scale) that covers the golden's values."
    )
}
#: Float limits a float target may be clipped to (a saturating cast to a narrower type and back).
FLOAT_RAILS = ("float16", "bfloat16")
#: At least this share of the golden values beyond the limit sit exactly at it in the target.
HELD_SHARE = 0.5


@dataclass(frozen=True)
class Rail:
    """One limit of a dtype: where the target's values stop, in the target's and the golden's units."""

    dtype: str
    stored: float
    """The limit as the target stores it (65504.0; an int8 tensor's 127)."""
    value: float
    """The same limit in the golden's units (the dequantised end for a quantised tensor)."""
    up: bool
    """The top of the range (golden values above it are past it), else the bottom."""
    slack: float = 0.0
    """How far past ``value`` a golden value may be and still round onto the rail (half a step)."""


@dataclass(frozen=True)
class Saturated:
    """The golden values past a rail and the target values held at it there."""

    rail: Rail
    at_rail: int
    """Target values exactly at the rail (same sign)."""
    beyond: int
    """Golden values past the rail."""
    held: int
    """Golden values past the rail whose target value is exactly the rail."""
    golden_max: float
    """The golden's (or the replay's) largest value past the rail (its largest |x| on the rail's side)."""


def saturation(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """A target tensor held at a dtype's limit where its golden goes beyond (see the module docstring)."""
    pair = _pair(ctx, case.row)
    if pair is None:
        return []
    golden, target = pair
    node = str(case.values["node_name"] or case.values["name"])
    found = held_at(ctx.cmp, case.row, golden, target)
    return [_finding(node, found, golden.size)] if found is not None else []


def held_at(cmp: Comparison, row: int, reference: np.ndarray, target: np.ndarray) -> Saturated | None:
    """The first rail of ``row``'s target where the target is held while ``reference`` (the golden, or a
    replay on the target's inputs; float64, flat like ``target``) goes beyond it, else None."""
    found = held_all(cmp, row, reference, target)
    return found[0] if found else None


def held_all(cmp: Comparison, row: int, reference: np.ndarray, target: np.ndarray) -> list[Saturated]:
    """Every rail of ``row``'s target where it is held while ``reference`` goes beyond (see :func:`held_at`)."""
    return [s for rail in _rails(cmp, row, target) if (s := _held(reference, target, rail)) is not None]


def past(values: np.ndarray, rail: Rail) -> np.ndarray:
    """Where ``values`` (in the golden's units) go past ``rail`` (by more than its rounding slack)."""
    return values > rail.value + rail.slack if rail.up else values < rail.value - rail.slack


def _pair(ctx: CheckContext, row: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The golden (float64) and target tensors of ``row``, flat and of one size, else None."""
    golden = ctx.golden_of(row_ref(ctx.cmp, row))
    if golden is None or golden.dtype.kind != "f":
        return None
    loaded = read_tensor(row_ref(ctx.cmp, row, "target"))
    if loaded is None:
        return None
    target = loaded.reshape(-1)
    if target.size != golden.size or target.dtype.kind not in "fiu" or not target.size:
        return None
    return np.asarray(golden, dtype=np.float64).reshape(-1), target


def _rails(cmp: Comparison, row: int, target: np.ndarray) -> list[Rail]:
    """The limits the target's values may stop at: float16/bfloat16's largest value for a float
    tensor; the integer type's ends after scale and zero point for a quantised one."""
    quant = quant_params(cmp, row)
    if target.dtype.kind in "iu":
        if quant is None:
            return []
        scale, zp, _ = quant
        low, high, _ = dtype_range(target.dtype.name)
        return [Rail(target.dtype.name, q, (q - zp) * scale, q == high, scale / 2) for q in (high, low)]
    tops = [(dtype, dtype_range(dtype)[1]) for dtype in FLOAT_RAILS]
    return [Rail(dtype, sign * top, sign * top, sign > 0) for dtype, top in tops for sign in (1.0, -1.0)]


def _held(golden: np.ndarray, target: np.ndarray, rail: Rail) -> Saturated | None:
    """The golden values past ``rail`` and the target values held exactly at it, when most are."""
    beyond_at = past(golden, rail)
    beyond = int(np.count_nonzero(beyond_at))
    if not beyond:
        return None
    at = target == rail.stored
    held = int(np.count_nonzero(at & beyond_at))
    if held < max(1, math.ceil(HELD_SHARE * beyond)):
        return None
    extreme = float(np.max(golden[beyond_at])) if rail.up else float(np.min(golden[beyond_at]))
    return Saturated(rail, int(np.count_nonzero(at)), beyond, held, extreme)


def _finding(node: str, s: Saturated, size: int) -> Finding:
    """The saturation sentence: target values at the rail, golden values past it, the golden's extreme."""
    rail = s.rail
    where = f"{rail.stored:g}" if rail.stored == rail.value else f"{rail.stored:g} (= {rail.value:.6g})"
    text = (
        f"saturation at {display(node)!r}: {s.at_rail} of {size} target values sit exactly at the "
        f"{rail.dtype} limit {where} where the golden goes beyond it (golden reaches {s.golden_max:.6g}; "
        f"{s.beyond} golden values past the limit, {s.held} of them held at it): values are clipped at "
        "the dtype's range"
    )
    return Finding("saturation", text, (PatchAction(node, keep_fp32=True),), weight=0.4)


CHECK = Check("saturation", saturation, ADVICE)
