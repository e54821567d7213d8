"""Quantised targets: values off the integer grid, too few steps, or a range too wide for 8 bits."""

from __future__ import annotations

from dumpscope.core.diagnosis.checks.base import (
    FEW_LEVELS,
    WIDE_RANGE,
    Check,
    CheckContext,
    Finding,
    RowCase,
)
from dumpscope.core.inspect.overflow import quant_params, row_ref
from dumpscope.core.inspect.ranges import range_check
from dumpscope.core.names import display

#: Cause -> what to do about it.
ADVICE: dict[str, str] = {"quantisation": (
        "Quantise this layer in INT16 (seed 004: a tensor whose range is wider than 20 loses too much in 8 bits; "
        "SigmaStar: input_config.ini [CONV_CONFIG] input_format=ALL_INT16, or INT16 for this convolution or the "
        "ones around a non-convolution op), or recalibrate on more representative data."
    )}


def quantised(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """A quantised target: values past its grid, too few levels used, or a range too wide for 8 bits."""
    row, r = case.row, case.values
    q = quant_params(ctx.cmp, row)
    if q is None:
        return []
    scale, zp, qdtype = q
    node = str(r["node_name"] or r["name"])
    out: list[Finding] = []
    lo, hi = r["min_golden"], r["max_golden"]
    width = (hi - lo) if isinstance(lo, float) and isinstance(hi, float) else None  # type: ignore[operator]
    y = ctx.golden_of(row_ref(ctx.cmp, row))
    if y is not None and y.dtype.kind == "f":
        try:
            found = range_check(y, qdtype, scale, zp)
        except ValueError:
            found = None
        if found is not None and found.out_of_range:
            out.append(Finding(
                "quantisation",
                f"{display(node)!r} quantised as {qdtype} (scale {scale:.4g}, zero point {zp}): {found.message}",
                weight=0.2,
            ))
    step = f"one {qdtype} step is {scale:.4g}"
    top = max(abs(lo), abs(hi)) if isinstance(lo, float) and isinstance(hi, float) else None  # type: ignore[arg-type]
    if top is not None and top > 0 and top / scale < FEW_LEVELS:
        out.append(Finding(
            "quantisation",
            f"{step} but the golden values of {display(node)!r} reach only |x| {top:.4g}: "
            f"{'every value rounds to zero' if top / scale < 0.5 else f'they use about {top / scale:.1f} steps'}",
            weight=0.25,
        ))
    if width is not None and width > WIDE_RANGE:
        out.append(Finding(
            "quantisation",
            f"golden range of {display(node)!r} is [{lo:.4g}, {hi:.4g}] (width {width:.4g} > {WIDE_RANGE:g}) "
            f"but it is {qdtype}-quantised ({step}): try INT16 for it",
            weight=0.15,
        ))
    elif (r["op_type"] or "") in ("Conv", "ConvTranspose"):
        out.append(Finding("quantisation", f"convolution {display(node)!r} is {qdtype}-quantised ({step})", weight=0.05))
    return out


CHECK = Check("quantisation", quantised, ADVICE)
