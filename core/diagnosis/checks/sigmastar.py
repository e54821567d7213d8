"""SigmaStar fixed.sim advice (SigmaStar IPU guide §3.2): what SigmaStar's own DumpDebug workflow
would tell a user about one candidate row.

* §3.2.6: a tensor whose range is wider than 20 and is still 8-bit quantised is the
  likely cause.  ``input_config.ini`` can only raise a *convolution's input* to INT16,
  so the advice names the convolution that consumes the tensor, or, when the consumer
  is not a convolution, the convolutions before and after it; it prints the whole-model
  test (``[CONV_CONFIG]`` ``input_format=ALL_INT16;``) and the per-layer form.
* §3.2.1: the first tensor differs.  Within half a step of the fixed.sim's input grid
  the difference *is* the quantised input (not pre-processing); beyond it, check the
  ``norm`` flag of ``image_preprocess`` and mean/std against ``input_config.ini``.
* §3.2.5: how the listing reads -- a jump of MSE, COS and RMSE together at one layer
  (the problem starts there), a slow decline (the first layer past COS < 0.99 or
  RMSE > 0.1 is the focus), or metrics oscillating around the thresholds (use the
  training-quantisation tool).

Only rows whose target is a SigmaStar record (it carries ``sgs_type``) are looked at.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl

from dumpscope.core.diagnosis.checks.base import (
    JUMP_FACTOR,
    WIDE_RANGE,
    Check,
    CheckContext,
    Finding,
    RowCase,
    consumers_of,
    inputs_of,
)
from dumpscope.core.inspect.overflow import row_ref, tensor_quant
from dumpscope.core.names import display
from dumpscope.core.vocabulary import Health

#: Seed 004 §3.2.5's rule of thumb.
SEED_COS, SEED_RMSE = 0.99, 0.1
#: How far (in ops) to look for the convolutions around a non-convolution op.
CONV_SEARCH_DEPTH = 4
WHOLE_MODEL_INI = "[CONV_CONFIG]\ninput_format=ALL_INT16;"
TRAINING_TOOL = (
    "use SigmaStar's training-quantisation tool (SGS_IPU_Toolchain/Scripts/calibrator/torch_calibrator.py) "
    "at "
    "its Q2 level (better precision; a GPU is recommended, training is slow without one), then compare again"
)

#: The findings' cause is ``quantisation``, whose advice (INT16, ALL_INT16) the quantisation check gives.
ADVICE: dict[str, str] = {}


def per_layer_ini(tensors: list[str]) -> str:
    """The per-layer form: the convolutions' input tensors listed in ``tensor_arrays``, one format each."""
    formats = ",".join("INT16" for _ in tensors)
    return f"[CONV_CONFIG]\ntensor_arrays={','.join(tensors)};\ninput_format={formats};"


def ini_text(tensors: list[str]) -> str:
    """Both snippets as one line of evidence (newlines shown as `` | ``)."""
    whole = WHOLE_MODEL_INI.replace("\n", " | ")
    layer = per_layer_ini(tensors).replace("\n", " | ")
    return f"input_config.ini, whole model: `{whole}`; per layer: `{layer}`"


def _extra(ctx: CheckContext, row: int, side: str = "target") -> dict[str, str]:
    ref = row_ref(ctx.cmp, row, side)
    return dict(ref.info.extra) if ref is not None else {}


def is_sigmastar_row(ctx: CheckContext, row: int) -> bool:
    """The row's target is a SigmaStar record."""
    return "sgs_type" in _extra(ctx, row)


def _eight_bit(ctx: CheckContext, row: int) -> str | None:
    """The row's SGS type when its target is 8-bit quantised."""
    q = tensor_quant(row_ref(ctx.cmp, row, "target"))
    return _extra(ctx, row).get("sgs_type") if q is not None and q[2] in ("uint8", "int8") else None


def _range(ctx: CheckContext, row: int) -> tuple[float, float] | None:
    """The golden (float) range of a row."""
    r = ctx.cmp.frame.row(row, named=True)
    lo, hi = r["min_golden"], r["max_golden"]
    return (lo, hi) if isinstance(lo, float) and isinstance(hi, float) else None


def _wide(ctx: CheckContext, row: int) -> tuple[float, float] | None:
    """The golden range when it is wider than 20 and the row is 8-bit quantised."""
    bounds = _range(ctx, row)
    if bounds is None or bounds[1] - bounds[0] <= WIDE_RANGE or _eight_bit(ctx, row) is None:
        return None
    return bounds


def is_conv(ctx: CheckContext, row: int) -> bool:
    """Produced by a convolution (the op type, else the op's name says so)."""
    r = ctx.cmp.frame.row(row, named=True)
    if r["op_type"]:
        return "conv" in str(r["op_type"]).lower()
    return bool(re.search(r"conv", str(r["node_name"] or r["name"]), re.IGNORECASE))


def _op(ctx: CheckContext, row: int) -> str:
    r = ctx.cmp.frame.row(row, named=True)
    return display(str(r["node_name"] or r["name"]))


def _name(ctx: CheckContext, row: int) -> str:
    return display(str(ctx.cmp.frame["name"][row]))


def _nearest_convs(ctx: CheckContext, row: int, step: Callable[[CheckContext, int], list[int]]) -> list[int]:
    """The first convolutions met walking from ``row`` through ``step`` (inputs_of or consumers_of)."""
    seen, frontier, found = {row}, [row], []
    for _ in range(CONV_SEARCH_DEPTH):
        nxt = [j for i in frontier for j in step(ctx, i) if j not in seen]
        seen.update(nxt)
        found = [j for j in nxt if is_conv(ctx, j)]
        if found:
            return found
        frontier = nxt
    return []


def _span(bounds: tuple[float, float]) -> str:
    return f"[{bounds[0]:.4g}, {bounds[1]:.4g}] (width {bounds[1] - bounds[0]:.4g} > {WIDE_RANGE:g})"


def wide_tensor(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """§3.2.6 on the row's own tensor: wide and 8-bit -> INT16 for the convolution(s) that consume it."""
    bounds = _wide(ctx, case.row)
    if bounds is None:
        return []
    tensor = _name(ctx, case.row)
    head = f"tensor {tensor!r} has range {_span(bounds)} and is still {_eight_bit(ctx, case.row)}"
    convs = [j for j in consumers_of(ctx, case.row) if is_conv(ctx, j)]
    if convs:
        where = "INT16 for the convolution that consumes it: " + ", ".join(repr(_op(ctx, j)) for j in convs)
        inputs = [tensor]
    else:
        before = [case.row] if is_conv(ctx, case.row) else _nearest_convs(ctx, case.row, inputs_of)
        around = before + _nearest_convs(ctx, case.row, consumers_of)
        if not around:
            where, inputs = (
                "INT16 for the convolutions before and after it (none found in the dump: see the model)",
                [tensor],
            )
        else:
            where = (
                "its consumer is not a convolution: INT16 for the convolutions before and after it: "
                + ", ".join(repr(_op(ctx, j)) for j in around)
            )
            inputs = [_conv_input(ctx, j) for j in around]
    return [
        Finding(
            "quantisation", f"{head} (SigmaStar IPU guide §3.2.6): {where}; {ini_text(inputs)}", weight=0.3
        )
    ]


def _conv_input(ctx: CheckContext, conv_row: int) -> str:
    """The first (activation) input tensor of a convolution row, as input_config.ini names it."""
    ins = inputs_of(ctx, conv_row)
    return _name(ctx, ins[0]) if ins else _name(ctx, conv_row)


def conv_with_wide_input(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """§3.2.6 on the row's producer: a convolution whose input is wide and still 8-bit."""
    if not is_conv(ctx, case.row):
        return []
    out = []
    for j in inputs_of(ctx, case.row):
        bounds = _wide(ctx, j)
        if bounds is not None:
            text = (
                f"convolution {_op(ctx, case.row)!r} reads {_name(ctx, j)!r}, range {_span(bounds)}, still "
                f"{_eight_bit(ctx, j)} (SigmaStar IPU guide §3.2.6): INT16 for this convolution; "
                f"{ini_text([_name(ctx, j)])}"
            )
            out.append(Finding("quantisation", text, weight=0.3))
    return out


def first_tensor(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """§3.2.1: the first tensor differs -- the quantised input, or the pre-processing."""
    if (
        inputs_of(ctx, case.row)
        or case.values["health"] not in (Health.WARN, Health.FAIL)
        or not _is_first(ctx, case.row)
    ):
        return []
    q = tensor_quant(row_ref(ctx.cmp, case.row, "target"))
    err = case.values["max_absolute_error"]
    name = _name(ctx, case.row)
    if q is not None and isinstance(err, float) and err <= q[0] / 2 * (1 + 1e-3) + 1e-6:
        return [
            Finding(
                "quantisation",
                (
                    f"first tensor {name!r} differs by at most {err:.4g}, within half a step ({q[0]:.4g}/2) "
                    "of the "
                    f"fixed.sim's {q[2]} input grid: this is its quantised input, not a pre-processing error"
                ),
                weight=0.05,
            )
        ]
    return [
        Finding(
            "input-mismatch",
            (
                f"the first tensor {name!r} already differs (SigmaStar IPU guide §3.2.1): check the "
                "pre-processing -- "
                "image_preprocess(path, norm) must normalise only when norm=True (float.sim gets the "
                "normalised image; "
                "fixed.sim and offline models take the uint8 image unnormalised), and the mean/std in the "
                "pre-processing "
                "file must equal those in input_config.ini"
            ),
            weight=0.3,
        )
    ]


def _is_first(ctx: CheckContext, row: int) -> bool:
    """The graph input, or the first compared row of the listing."""
    frame = ctx.cmp.frame
    if frame["kind"][row] == "input":
        return True
    both = np.flatnonzero((frame["side"] == "both").fill_null(False).to_numpy())
    return bool(both.size) and int(both[0]) == row


@dataclass(frozen=True)
class Reading:
    """How SigmaStar's listing reads (§3.2.5)."""

    kind: str
    """``jump``, ``decline``, ``oscillation`` or ``none``."""
    row: int | None
    text: str


def reading(frame: pl.DataFrame) -> Reading:
    """Jump, slow decline or oscillation over the paired, compared rows in listing order."""
    rows = np.flatnonzero(
        ((frame["side"] == "both") & (frame["status"] == "computed")).fill_null(False).to_numpy()
    )
    cos = frame["cosine_similarity"].fill_null(1.0).to_numpy()[rows]
    rmse = frame["sgs_rmse"].fill_null(0.0).to_numpy()[rows]
    mse = frame["mse"].fill_null(0.0).to_numpy()[rows]
    bad = (cos < SEED_COS) | (rmse > SEED_RMSE)
    if not bad.any():
        return Reading("none", None, "every layer passes COS >= 0.99 and RMSE <= 0.1")
    first = int(np.argmax(bad))
    jump = _jump(cos, rmse, mse, first)
    if jump is not None:
        return Reading("jump", int(rows[jump]), _jump_text(frame, rows, jump, cos, rmse, mse))
    if _oscillates(cos, rmse, bad, first):
        return Reading(
            "oscillation",
            int(rows[first]),
            (
                "the metrics oscillate around the thresholds (COS within 0.98-0.99, RMSE within 0.01-0.1) "
                "with no "
                f"single layer to blame (SigmaStar IPU guide §3.2.5): {TRAINING_TOOL}"
            ),
        )
    name = display(str(frame["name"][int(rows[first])]))
    return Reading(
        "decline",
        int(rows[first]),
        (
            "no sudden change: the metrics decline slowly (SigmaStar IPU guide §3.2.5); the first layer "
            "past COS < 0.99 or "
            f"RMSE > 0.1 is {name!r} (COS {cos[first]:.6f}, RMSE {rmse[first]:.6f}): look there first"
        ),
    )


def _grew(a: float, b: float) -> bool:
    """``b`` is :data:`JUMP_FACTOR` times ``a`` or more (from zero: any growth)."""
    return b > 0 and (a <= 0 or b >= JUMP_FACTOR * a)


def _jump(cos: np.ndarray, rmse: np.ndarray, mse: np.ndarray, first: int) -> int | None:
    """The layer at or before the first bad one where MSE, 1-COS and RMSE all grew greatly."""
    for i in range(max(first - 2, 1), first + 1):
        if _grew(1 - cos[i - 1], 1 - cos[i]) and _grew(rmse[i - 1], rmse[i]) and _grew(mse[i - 1], mse[i]):
            return i
    return None


def _jump_text(
    frame: pl.DataFrame, rows: np.ndarray, i: int, cos: np.ndarray, rmse: np.ndarray, mse: np.ndarray
) -> str:
    name = display(str(frame["name"][int(rows[i])]))
    return (
        f"MSE, COS and RMSE all change suddenly at {name!r} (SigmaStar IPU guide §3.2.5: the problem starts "
        "at this "
        f"layer): MSE {mse[i - 1]:.6f} -> {mse[i]:.6f}, COS {cos[i - 1]:.6f} -> {cos[i]:.6f}, "
        f"RMSE {rmse[i - 1]:.6f} -> {rmse[i]:.6f}"
    )


def _oscillates(cos: np.ndarray, rmse: np.ndarray, bad: np.ndarray, first: int) -> bool:
    """From the first bad layer on, the verdict flips often and the metrics stay near the thresholds."""
    tail_bad, tail_cos, tail_rmse = bad[first:], cos[first:], rmse[first:]
    flips = int(np.count_nonzero(tail_bad[1:] != tail_bad[:-1]))
    near = ((tail_cos >= 0.98) & (tail_cos < 0.995)) | ((tail_rmse >= 0.01) & (tail_rmse <= 0.12))
    return flips >= 3 and float(near.mean()) >= 0.6


def listing_reading(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """§3.2.5's reading, as evidence on the row it points at (oscillation: on every candidate)."""
    if "sgs_rmse" not in ctx.cmp.frame.columns:
        return []
    read = reading(ctx.cmp.frame)
    if read.kind == "oscillation" or (read.kind in ("jump", "decline") and read.row == case.row):
        return [Finding("quantisation", read.text, weight=0.15 if read.kind == "jump" else 0.05)]
    return []


def sigmastar(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """Every SigmaStar finding for one candidate row (none when its target is not a SigmaStar record)."""
    if not is_sigmastar_row(ctx, case.row):
        return []
    return [
        *wide_tensor(ctx, case),
        *conv_with_wide_input(ctx, case),
        *first_tensor(ctx, case),
        *listing_reading(ctx, case),
    ]


CHECK = Check("sigmastar", sigmastar, ADVICE)
