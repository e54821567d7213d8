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
from dumpscope.core.diagnosis.checks.quantisation import Grid, dumped_grid, quantised_grid, read_names
from dumpscope.core.inspect.overflow import quant_params, row_ref
from dumpscope.core.inspect.ranges import dtype_range
from dumpscope.core.names import display

#: Cause -> what to do about it.
ADVICE: dict[str, str] = {
    "saturation": (
        "The target holds values exactly at its dtype's limit where the golden goes beyond: they saturate "
        "(are "
        "clipped) there. Bring the values into range before this node: rescale (normalise the input, fold a "
        "factor into a neighbouring op), run the node in a wider type, or, for a quantised tensor, "
        "calibrate a "
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
    found = held_all(ctx.cmp, case.row, golden, target)
    if found:
        return [_finding(node, found[0], golden.size)]
    return _quantised_inputs(ctx, case, node)[:1] if case.values["kind"] == "activation" else []


def _quantised_inputs(ctx: CheckContext, case: RowCase, node: str) -> list[Finding]:
    """The node's inputs whose quantised copy in the target dump (a QDQ graph's QuantizeLinear output) sits
    at its integer type's end where the golden input goes beyond the grid: the node reads saturated values
    (the float rows of a QDQ dump are the values before quantisation, so the clipping shows only there)."""
    target = ctx.cmp.target.tensors if ctx.cmp.target is not None else {}
    golden = ctx.cmp.golden.tensors if ctx.cmp.golden is not None else {}
    out = []
    for name in read_names(ctx, case.row):
        q, grid = dumped_grid(ctx, name), quantised_grid(ctx, name)
        if q is None or grid is None or not _static(grid):
            continue
        ints, gold = read_tensor(target.get(grid.quantised)), ctx.golden_of(golden.get(name))
        if ints is None or gold is None or ints.dtype.kind not in "iu" or gold.dtype.kind != "f":
            continue
        if ints.size != gold.size or not ints.size:
            continue
        scale, zp, _ = q
        low, high, _ = dtype_range(ints.dtype.name)
        rails = [Rail(ints.dtype.name, qv, (qv - zp) * scale, qv == high, scale / 2) for qv in (high, low)]
        flat, ref = ints.reshape(-1), np.asarray(gold, dtype=np.float64).reshape(-1)
        found = next((s for rail in rails if (s := _held(ref, flat, rail)) is not None), None)
        if found is not None:
            out.append(_input_finding(node, name, grid.quantised, found, ref.size))
    return out


def _static(grid: Grid) -> bool:
    """A grid with a fixed (calibrated) range: a QuantizeLinear's.  DynamicQuantizeLinear fits its grid to
    the target's own values each run, so a golden beyond it is an error inherited, not a saturation."""
    return grid.op == "QuantizeLinear" or (
        grid.op is None and grid.quantised.endswith("QuantizeLinear_Output")
    )


def _input_finding(node: str, name: str, quantised: str, s: Saturated, size: int) -> Finding:
    """The saturation of a quantised input: its integer copy at the rail where the golden goes beyond."""
    rail = s.rail
    text = (
        f"saturation at the input {display(name)!r} of {display(node)!r}: {s.at_rail} of {size} values of "
        "the "
        f"target's {rail.dtype} copy {display(quantised)!r} sit exactly at {rail.stored:g} (= "
        f"{rail.value:.6g}) "
        f"where the golden goes beyond it (golden reaches {s.golden_max:.6g}; {s.beyond} golden values past "
        f"the grid, {s.held} of them held at it): the node reads values clipped at the quantisation range"
    )
    return Finding("saturation", text, weight=0.4)


def held_all(cmp: Comparison, row: int, reference: np.ndarray, target: np.ndarray) -> list[Saturated]:
    """Every rail of ``row``'s target where the target is held while ``reference`` (the golden, or a replay
    on the target's inputs; float64, flat like ``target``) goes beyond it."""
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
