"""The root cause RKNN-Toolkit2's own accuracy report points at, with the toolkit's own remedies.

``error_analysis.txt``'s "single" column is the vendor's per-layer replay: each layer run on the
simulator fed the *golden* inputs.  The layer whose single cosine is lowest is where the
simulator itself loses most, whatever it inherits; its single vs entire Euclidean distance says
how much of the row's error it introduces (:func:`dumpscope.core.vendor.rknn.origin`).

For an int8 build the class is quantisation; the evidence adds what the layer's simulator tensor
shows when the snapshot holds it: its values on an int8 grid (the step is the scale, which RKNN
does not write) and golden values beyond the grid's rails (clipped by the calibrated range).
The advice is RKNN's: hybrid quantisation (``hybrid_quantization_step1``/``step2``) naming the
layers to keep in float16, or another ``quantized_algorithm`` / ``quantized_method``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.diagnosis.verdict import RootCause
from dumpscope.core.dumps import TensorReadError
from dumpscope.core.names import display

#: Layers named for hybrid quantisation at most (the worst by their single cosine).
MAX_HYBRID = 5
#: A tensor whose values take at most this many levels, evenly spaced, is on an int8 grid.
INT8_LEVELS = 256
#: Fewer distinct values than this say nothing about a grid.
MIN_DISTINCT = 16
#: Every gap between neighbouring values is a whole number of steps to within this share of a step.
GRID_SLACK = 0.01
#: Largest tensor whose values are searched for a grid (elements).
MAX_GRID_VALUES = 1 << 24


def has_report(cmp: Comparison) -> bool:
    """The comparison carries RKNN's per-layer numbers (a snapshot, or an imported report)."""
    return "rknn_single_cos" in cmp.frame.columns and cmp.frame["rknn_single_cos"].is_not_null().any()


def _quantised(cmp: Comparison) -> bool:
    if cmp.target is not None:
        return cmp.target.meta.get("rknn_precision") == "int8"
    names = cmp.frame["name"].drop_nulls().to_list()
    return any(str(n).endswith("_int8") for n in names)


def _cos_warn(cmp: Comparison, band: str | None) -> float:
    """The cosine warn limit of a row's band (0.99 when the band has none)."""
    limit = cmp.thresholds.bands.get(band or "", {}).get("cosine_similarity")
    return limit.warn if limit is not None and limit.warn is not None else 0.99


def worst_single(frame: pl.DataFrame) -> pl.DataFrame:
    """The reported rows, worst single cosine first (ties: larger single distance, then earlier)."""
    rows = frame.with_row_index("_row").filter(pl.col("rknn_single_cos").is_not_null())
    return rows.sort(["rknn_single_cos", "rknn_single_euc", "_row"], descending=[False, True, False])


def hybrid_layers(cmp: Comparison, ranked: pl.DataFrame) -> list[str]:
    """The layers to keep in higher precision: those whose own (single) cosine leaves their band's
    warn limit, worst first (at most :data:`MAX_HYBRID`), else the worst one alone."""
    names = [
        str(r["target_name"] or r["name"])
        for r in ranked.iter_rows(named=True)
        if r["rknn_single_cos"] < _cos_warn(cmp, r["band"])
    ]
    return names[:MAX_HYBRID] or [str(ranked["target_name"][0] or ranked["name"][0])]


@dataclass(frozen=True)
class Grid:
    """The int8 grid a dequantised tensor's values sit on, and what its rails clip."""

    step: float
    levels: int
    low: float
    high: float
    clipped_high: int
    clipped_low: int
    golden_max: float
    golden_min: float
    size: int

    def sentence(self) -> str:
        text = (
            f"the simulator's values sit on an int8 grid: step {self.step:.6g} (the scale, which RKNN "
            f"does not write), {self.levels} of {INT8_LEVELS} levels over "
            f"[{self.low:.6g}, {self.high:.6g}]"
        )
        clipped = self.clipped_high + self.clipped_low
        if not clipped:
            return text + "; no golden value lies beyond its rails (the loss is rounding, not clipping)"
        parts = []
        if self.clipped_high:
            parts.append(f"{self.clipped_high} above the top rail (golden up to {self.golden_max:.6g})")
        if self.clipped_low:
            parts.append(f"{self.clipped_low} below the bottom rail (golden down to {self.golden_min:.6g})")
        share = 100.0 * clipped / self.size
        return text + f"; {clipped} golden values ({share:.3g}%) are clipped: " + ", ".join(parts)


def int8_grid(golden: np.ndarray, target: np.ndarray) -> Grid | None:
    """The int8 grid of ``target``'s values (evenly spaced, at most 256 levels), else None."""
    t = np.asarray(target, dtype=np.float64).ravel()
    g = np.asarray(golden, dtype=np.float64).ravel()
    if t.size == 0 or t.size > MAX_GRID_VALUES or t.size != g.size or not np.isfinite(t).all():
        return None
    levels = np.unique(t)
    if levels.size < MIN_DISTINCT or levels.size > INT8_LEVELS:
        return None
    gaps = np.diff(levels)
    step = float(gaps.min())
    steps = gaps / step
    span = int(round((levels[-1] - levels[0]) / step)) + 1
    if step <= 0 or np.abs(steps - np.round(steps)).max() > GRID_SLACK or span > INT8_LEVELS:
        return None
    finite = g[np.isfinite(g)]
    high, low = float(levels[-1]), float(levels[0])
    above, below = int((finite > high + step / 2).sum()), int((finite < low - step / 2).sum())
    return Grid(
        step,
        span,
        low,
        high,
        above,
        below,
        float(finite.max(initial=-math.inf)),
        float(finite.min(initial=math.inf)),
        int(t.size),
    )


def _grid_of(cmp: Comparison, row: int) -> Grid | None:
    if not cmp.has_tensors or cmp.pairing is None or row >= len(cmp.pairing.pairs):
        return None
    try:
        g, t = cmp.load_pair(row)
    except TensorReadError:
        return None
    return None if g is None or t is None else int8_grid(g, t)


def _numbers(r: dict[str, Any]) -> str:
    return (
        f"single cos {r['rknn_single_cos']:.5f} euc {r['rknn_single_euc']:.5f}, "
        f"entire cos {r['rknn_entire_cos']:.5f} euc {r['rknn_entire_euc']:.5f}"
    )


def _share(r: dict[str, Any]) -> str:
    entire, single = r["rknn_entire_euc"], r["rknn_single_euc"]
    if not entire:
        return ""
    pct = 100.0 * float(single) / float(entire)
    verdict = (
        "introduced at this layer" if r["rknn_origin"] == "introduced" else "mostly inherited from upstream"
    )
    return (
        f"; fed golden inputs it still makes {pct:.3g}% of its accumulated distance: the error is {verdict}"
    )


def _evidence(
    cmp: Comparison, r: dict[str, Any], row: int, ranked: pl.DataFrame, quantised: bool
) -> tuple[list[str], Grid | None]:
    name = display(str(r["target_name"] or r["name"]))
    lines = [
        f"RKNN's own per-layer replay (error_analysis.txt, 'single': each layer fed the golden inputs) "
        f"is worst at {name!r} ({r['rknn_op'] or r['op_type'] or '?'}): {_numbers(r)}{_share(r)}"
    ]
    fused = cmp.frame.filter(pl.col("rknn_fused_into") == (r["target_name"] or r["name"]))
    group = [str(n) for n in fused["name"]]
    if group:
        lines.append(f"RKNN reports it for its fused group: {', '.join(map(repr, group))} then {name!r}")
    others = [
        f"{display(str(o['target_name'] or o['name']))!r} {o['rknn_single_cos']:.5f}"
        for o in ranked.slice(1, 3).iter_rows(named=True)
    ]
    if others:
        lines.append("next worst single cosines: " + ", ".join(others))
    if "rknn_q_zero" in cmp.frame.columns:
        zero = cmp.frame.filter(pl.col("rknn_q_zero").fill_null(False))
        if zero.height:
            names = ", ".join(
                repr(display(str(t or n))) for t, n in zip(zero["target_name"], zero["name"], strict=True)
            )
            lines.append(
                f"RKNN prints q_zero (no cosine, no distance) at {names}: its mark for a simulator "
                "output that is all zero; those rows are outside the single-column ranking"
            )
    if r["cosine_similarity"] is not None and r.get("rknn_cos_agrees") is not None:
        agree = "prints as" if r.get("rknn_cos_agrees") else "differs from"
        ours = float(r["cosine_similarity"])
        lines.append(
            f"our cosine of this row {ours:.5f} {agree} the report's entire cosine {r['rknn_entire_cos']:.5f}"
        )
    grid = _grid_of(cmp, row) if quantised else None
    if grid is not None:
        lines.append(grid.sentence())
    elif quantised:
        lines.append(
            "scales and rails: not measured (RKNN writes no scales, and the snapshot holds no "
            "dequantised int8 values of this layer)"
        )
    return lines, grid


def _advice(layers: list[str], quantised: bool, clipped: bool) -> str:
    names = ", ".join(repr(display(n)) for n in layers)
    if not quantised:
        return (
            f"The fp16 build loses precision at {names}: keep the model's input range within float16 "
            "(rescale before this layer), or compare with the int8 build's report to tell the two apart; "
            "RKNN runs do_quantization=False models in float16 on the NPU."
        )
    first = (
        "the calibrated range clips this layer's values: calibrate on inputs that cover the real range "
        "(the dataset= of build), "
        if clipped
        else ""
    )
    return (
        f"Keep {names} in higher precision with RKNN's hybrid quantisation: "
        "rknn.hybrid_quantization_step1(dataset=...) writes MODEL.model, MODEL.data and "
        "MODEL.quantization.cfg; list these layers under custom_quantize_layers as float16 in the .cfg, "
        "then rknn.hybrid_quantization_step2(model_input='MODEL.model', data_input='MODEL.data', "
        "model_quantization_cfg='MODEL.quantization.cfg') and "
        f"export again. Or {first}rebuild with rknn.config(quantized_algorithm='mmse' "
        "(or 'kl_divergence'), quantized_method='channel') and a calibration dataset representative of "
        "the real inputs, and run accuracy_analysis again."
    )


def vendor_cause(cmp: Comparison) -> RootCause | None:
    """The root cause the vendor's single column names (None: no RKNN numbers, or every layer's own
    cosine within its band's warn limit)."""
    if not has_report(cmp):
        return None
    ranked = worst_single(cmp.frame)
    r = ranked.row(0, named=True)
    if r["rknn_single_cos"] >= _cos_warn(cmp, r["band"]):
        return None
    row = int(r["_row"])
    quantised = _quantised(cmp)
    layers = hybrid_layers(cmp, ranked)
    evidence, grid = _evidence(cmp, r, row, ranked, quantised)
    clipped = grid is not None and grid.clipped_high + grid.clipped_low > 0
    cause = v.QUANTISATION if quantised else v.PRECISION
    score = 1.0 - float(r["rknn_single_cos"])
    return RootCause(
        row=row,
        name=str(r["name"]),
        node_name=r["node_name"],
        op_type=r["rknn_op"] or r["op_type"],
        index=r["index"],
        kind=r["kind"],
        cause=cause,
        score=score,
        evidence=tuple(evidence),
        advice=_advice(layers, quantised, clipped),
    )


def report_summary(cmp: Comparison) -> str | None:
    """A sentence for the summary when the vendor's numbers name no culprit (None: they do, or none)."""
    if not has_report(cmp) or vendor_cause(cmp) is not None:
        return None
    r = worst_single(cmp.frame).row(0, named=True)
    return (
        f"RKNN's own per-layer replay finds every layer within its band (worst single cosine "
        f"{r['rknn_single_cos']:.5f} at {display(str(r['target_name'] or r['name']))!r})."
    )
