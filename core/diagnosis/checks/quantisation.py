"""Quantised targets: values off the integer grid, too few steps, or a range too wide for 8 bits."""

from __future__ import annotations

import numpy as np

from dumpscope.core.diagnosis.checks.base import (
    FEW_LEVELS,
    WIDE_RANGE,
    Check,
    CheckContext,
    Finding,
    RowCase,
)
from dumpscope.core.inspect.overflow import quant_params, row_ref
from dumpscope.core.inspect.ranges import RangeFinding, range_check
from dumpscope.core.names import display

#: Cause -> what to do about it.
ADVICE: dict[str, str] = {"quantisation": (
        "This layer loses too much to quantisation: recalibrate on more representative data, use per-channel "
        "scales, and give each input of a Concat its own scale (a tensor mixing ranges such as box coordinates "
        "and [0, 1] scores must not share one 8-bit scale), or keep the layer in a higher precision."
    ), "quantisation-wide": (
        "Quantise this layer in INT16 (SigmaStar IPU guide: a tensor whose range is wider than 20 loses too much in 8 bits; "
        "SigmaStar: input_config.ini [CONV_CONFIG] input_format=ALL_INT16, or INT16 for this convolution or the "
        "ones around a non-convolution op), or recalibrate on more representative data."
    )}


def quantised(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """A quantised target: values past its grid, too few levels used, or a range too wide for 8 bits."""
    q = quant_params(ctx.cmp, case.row)
    if q is None:
        return []
    r = case.values
    node = display(str(r["node_name"] or r["name"]))
    bounds = _bounds(r)
    return [
        *_off_grid(ctx, case.row, node, q),
        *_few_levels(node, q, bounds),
        *_wide_range(node, q, bounds, str(r["op_type"])),
    ]


def _bounds(r: dict[str, object]) -> tuple[float, float] | None:
    """The golden (min, max) of a frame row, when both are known."""
    lo, hi = r["min_golden"], r["max_golden"]
    return (lo, hi) if isinstance(lo, float) and isinstance(hi, float) else None


def _off_grid(ctx: CheckContext, row: int, node: str, q: tuple[float, int, str]) -> list[Finding]:
    """Golden values the integer grid (scale, zero point) cannot hold."""
    scale, zp, qdtype = q
    found = _grid_check(ctx.golden_of(row_ref(ctx.cmp, row)), q)
    if found is None or not found.out_of_range:
        return []
    return [Finding("quantisation", f"{node!r} quantised as {qdtype} (scale {scale:.4g}, zero point {zp}): {found.message}",
                    weight=0.2)]


def _grid_check(y: np.ndarray | None, q: tuple[float, int, str]) -> RangeFinding | None:
    """A float golden tensor checked against the integer grid ``q``; None for no float tensor or a bad grid."""
    if y is None or y.dtype.kind != "f":
        return None
    try:
        return range_check(y, q[2], q[0], q[1])
    except ValueError:
        return None


def _step(q: tuple[float, int, str]) -> str:
    return f"one {q[2]} step is {q[0]:.4g}"


def _few_levels(node: str, q: tuple[float, int, str], bounds: tuple[float, float] | None) -> list[Finding]:
    """Golden values so small that they use only a few steps of the grid."""
    top = max(abs(bounds[0]), abs(bounds[1])) if bounds else None
    if top is None or top <= 0 or top / q[0] >= FEW_LEVELS:
        return []
    return [Finding("quantisation",
                    f"{_step(q)} but the golden values of {node!r} reach only |x| {top:.4g}: {_used(top / q[0])}",
                    weight=0.25)]


def _used(steps: float) -> str:
    """How much of the grid ``steps`` steps use, in words."""
    return "every value rounds to zero" if steps < 0.5 else f"they use about {steps:.1f} steps"


def _wide_range(node: str, q: tuple[float, int, str], bounds: tuple[float, float] | None, op_type: str) -> list[Finding]:
    """A range too wide for 8 bits (try INT16), else a note for a quantised convolution."""
    width = bounds[1] - bounds[0] if bounds else None
    if width is not None and width > WIDE_RANGE:
        return [_too_wide(node, q, bounds, width)]  # type: ignore[arg-type]
    if op_type in ("Conv", "ConvTranspose"):
        return [Finding("quantisation", f"convolution {node!r} is {q[2]}-quantised ({_step(q)})", weight=0.05)]
    return []


def _too_wide(node: str, q: tuple[float, int, str], bounds: tuple[float, float], width: float) -> Finding:
    lo, hi = bounds
    return Finding(
        "quantisation-wide",
        f"golden range of {node!r} is [{lo:.4g}, {hi:.4g}] (width {width:.4g} > {WIDE_RANGE:g}) "
        f"but it is {q[2]}-quantised ({_step(q)}): try INT16 for it",
        weight=0.15,
    )


CHECK = Check("quantisation", quantised, ADVICE)
