"""Quantised targets: values off the integer grid, too few steps, or a range too wide for 8 bits."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from urllib.parse import unquote

import numpy as np

from dumpscope.core.diagnosis.checks.base import (
    COARSE_GRID,
    FEW_LEVELS,
    JUMP_FACTOR,
    WIDE_RANGE,
    Check,
    CheckContext,
    Finding,
    RowCase,
    inputs_of,
    read_tensor,
)
from dumpscope.core.dumps import TensorRef
from dumpscope.core.inspect.overflow import quant_params, row_ref
from dumpscope.core.inspect.ranges import RangeFinding, range_check
from dumpscope.core.names import display

_WIDE_ADVICE = (
    "Quantise this layer in INT16 (SigmaStar IPU guide: a tensor whose range is wider than 20 loses too "
    "much in 8 bits; SigmaStar: input_config.ini [CONV_CONFIG] input_format=ALL_INT16, or INT16 for this "
    "convolution or the ones around a non-convolution op), or recalibrate on more representative data."
)
#: Cause -> what to do about it.
ADVICE: dict[str, str] = {
    "quantisation": (
        "This layer loses too much to quantisation: recalibrate on more representative data, use per-channel "
        "scales, and give each input of a Concat its own scale (a tensor mixing ranges such as box "
        "coordinates "
        "and [0, 1] scores must not share one 8-bit scale), or keep the layer in a higher precision."
    ),
    "quantisation-wide": _WIDE_ADVICE,
    "quantisation-jump": _WIDE_ADVICE,
}


def quantised(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """A quantised target: the integer grids its node reads (whatever tool made them), values past
    its grid, too few levels used, or a range too wide for 8 bits."""
    q = quant_params(ctx.cmp, case.row)
    if q is None:
        return target_grids(ctx, case)
    r = case.values
    node = display(str(r["node_name"] or r["name"]))
    bounds = _bounds(r)
    return [
        *_off_grid(ctx, case.row, node, q),
        *_few_levels(node, q, bounds),
        *_wide_range(node, q, bounds, str(r["op_type"])),
        *_jump(ctx, case.row, node, q, bounds),
    ]


def _jump(
    ctx: CheckContext, row: int, node: str, q: tuple[float, int, str], bounds: tuple[float, float] | None
) -> list[Finding]:
    """The error jumps here (:data:`JUMP_FACTOR` times its worst input's or more) at an 8-bit layer whose
    grid is too wide for its values: wider than :data:`WIDE_RANGE`, or spanning :data:`COARSE_GRID` times
    the golden range (most of its steps unused)."""
    growth = _growth(ctx, row)
    if growth is None or bounds is None or q[2] not in ("uint8", "int8"):
        return []
    before, after = growth
    width, levels = bounds[1] - bounds[0], 256
    used = width / q[0]
    wide, coarse = width > WIDE_RANGE, used * COARSE_GRID < levels
    if after < JUMP_FACTOR * before or not (wide or coarse):
        return []
    why = f"width {width:.4g} > {WIDE_RANGE:g}" if wide else f"width {width:.4g}"
    return [
        Finding(
            "quantisation-jump",
            f"the error jumps here {after / before:.3g}x over its worst input's ({before:.3g} -> "
            f"{after:.3g}) "
            f"where its {q[2]} grid is too wide for its values: golden range [{bounds[0]:.4g}, "
            f"{bounds[1]:.4g}] ({why}) on steps of {q[0]:.4g}, {used:.0f} of its {levels} steps used",
            weight=0.3,
        )
    ]


def _growth(ctx: CheckContext, row: int) -> tuple[float, float] | None:
    """(worst input's error, this row's error) as relative distances, when both are measured and positive."""
    err = ctx.cmp.frame["relative_euclidean_distance"]
    after = err[row]
    before = [err[i] for i in inputs_of(ctx, row)]
    before = [b for b in before if isinstance(b, float) and math.isfinite(b)]
    if not isinstance(after, float) or not math.isfinite(after) or not before or max(before) <= 0:
        return None
    return max(before), after


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
    return [
        Finding(
            "quantisation",
            f"{node!r} quantised as {qdtype} (scale {scale:.4g}, zero point {zp}): {found.message}",
            weight=0.2,
        )
    ]


def _grid_check(y: np.ndarray | None, q: tuple[float, int, str]) -> RangeFinding | None:
    """A float golden tensor checked against the integer grid ``q``; None for no float tensor or a bad
    grid."""
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
    return [
        Finding(
            "quantisation",
            f"{_step(q)} but the golden values of {node!r} reach only |x| {top:.4g}: {_used(top / q[0])}",
            weight=0.25,
        )
    ]


def _used(steps: float) -> str:
    """How much of the grid ``steps`` steps use, in words."""
    return "every value rounds to zero" if steps < 0.5 else f"they use about {steps:.1f} steps"


def _wide_range(
    node: str, q: tuple[float, int, str], bounds: tuple[float, float] | None, op_type: str
) -> list[Finding]:
    """A range too wide for 8 bits (try INT16: only for an 8-bit grid), else a note for a quantised
    convolution."""
    width = bounds[1] - bounds[0] if bounds else None
    if width is not None and width > WIDE_RANGE and q[2] in ("uint8", "int8"):
        return [_too_wide(node, q, bounds, width)]  # type: ignore[arg-type]  # width set: bounds too
    if op_type in ("Conv", "ConvTranspose"):
        return [
            Finding("quantisation", f"convolution {node!r} is {q[2]}-quantised ({_step(q)})", weight=0.05)
        ]
    return []


def _too_wide(node: str, q: tuple[float, int, str], bounds: tuple[float, float], width: float) -> Finding:
    lo, hi = bounds
    return Finding(
        "quantisation-wide",
        f"golden range of {node!r} is [{lo:.4g}, {hi:.4g}] (width {width:.4g} > {WIDE_RANGE:g}) "
        f"but it is {q[2]}-quantised ({_step(q)}): try INT16 for it",
        weight=0.15,
    )


# ----------------------------------------------------------------- quantised targets, whatever made them

#: Operators that quantise, dequantise or compute on integers (ONNX and onnxruntime's contrib ops).
QUANT_OPS = frozenset(
    {
        "QuantizeLinear",
        "DequantizeLinear",
        "DynamicQuantizeLinear",
        "MatMulInteger",
        "ConvInteger",
        "MatMulIntegerToFloat",
        "DynamicQuantizeMatMul",
        "DynamicQuantizeLSTM",
        "QGemm",
        "QAttention",
        "QLinearConv",
        "QLinearMatMul",
        "QLinearAdd",
        "QLinearMul",
        "QLinearSigmoid",
        "QLinearLeakyRelu",
        "QLinearConcat",
        "QLinearAveragePool",
        "QLinearGlobalAveragePool",
        "QLinearSoftmax",
        "QLinearReduceMean",
        "QLinearWhere",
    }
)
#: Names onnxruntime's quantiser gives the integer tensor of a float tensor ``base`` (``base`` + suffix),
#: beside ``base_scale`` and ``base_zero_point``.
QUANTISED_SUFFIXES = ("_quantized", "_QuantizeLinear_Output")
_INT_BITS = {"int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "int4": 4, "uint4": 4}


@dataclass(frozen=True)
class Grid:
    """A float tensor the target holds quantised: the integer tensor and its scale and zero point."""

    base: str
    quantised: str
    scale: str | None
    zero_point: str | None
    op: str | None
    """The target op that quantised it (None when known by its name only)."""


@dataclass(frozen=True)
class QuantisedTarget:
    """The quantisation a target dump shows: its quantisation ops and its integer grids."""

    ops: Mapping[str, int]
    """Quantisation op type -> tensors it produced in the target dump."""
    grids: Mapping[str, Grid]
    """:func:`name_key` of a float tensor -> its grid."""

    def grid(self, name: str) -> Grid | None:
        return self.grids.get(name_key(name))

    def ops_words(self) -> str:
        return ", ".join(f"{op} x{n}" for op, n in sorted(self.ops.items(), key=lambda kv: (-kv[1], kv[0])))


def name_key(name: str) -> str:
    """A tensor name as a plain file name may spell it: ``%40`` decoded, every run of other characters
    (``/``, ``.``, ``:``, ``@``) one ``_``."""
    return re.sub(r"[^0-9A-Za-z]+", "_", unquote(name))


def quantised_target(ctx: CheckContext) -> QuantisedTarget | None:
    """The target dump's quantisation (computed once per diagnosis); None when it shows none."""
    if "quantised_target" not in ctx.memo:
        target = ctx.cmp.target
        ctx.memo["quantised_target"] = _scan(target.tensors) if target is not None else None
    found = ctx.memo["quantised_target"]
    return found if isinstance(found, QuantisedTarget) else None


def _scan(refs: Mapping[str, TensorRef]) -> QuantisedTarget | None:
    """Quantisation ops and integer grids of a dump, from its ops (a manifest) or its names (a plain
    folder)."""
    quant = {n: r for n, r in refs.items() if r.info.op_type in QUANT_OPS or "quant" in n.lower()}
    if not quant:  # one pass over the names, no key built, for the float targets of most diagnoses
        return None
    ops = Counter(str(r.info.op_type) for r in quant.values() if r.info.op_type in QUANT_OPS)
    keyed = {name_key(n): n for n in refs if "scale" in n.lower() or "zero_point" in n.lower()}
    nodes = {r.info.node_name for r in quant.values() if r.info.op_type == "DynamicQuantizeLinear"}
    siblings = {
        (r.info.node_name, r.info.output_index): n for n, r in refs.items() if r.info.node_name in nodes
    }
    grids: dict[str, Grid] = {}
    for name, ref in quant.items():
        grid = _op_grid(name, ref, siblings) or _name_grid(name, ref, keyed)
        if grid is not None:
            grids.setdefault(name_key(grid.base), grid)
    return QuantisedTarget(dict(ops), grids) if ops or grids else None


def _integer(ref: TensorRef) -> bool:
    """An integer tensor, or one whose dtype is not recorded."""
    return ref.info.dtype is None or ref.info.dtype in _INT_BITS


def _op_grid(name: str, ref: TensorRef, siblings: Mapping[tuple[str | None, int], str]) -> Grid | None:
    """The grid a QuantizeLinear / DynamicQuantizeLinear output records (its node's inputs or outputs)."""
    info = ref.info
    if info.output_index != 0 or not info.node_inputs or not _integer(ref):
        return None
    if info.op_type == "QuantizeLinear" and len(info.node_inputs) >= 2:
        zp = info.node_inputs[2] if len(info.node_inputs) > 2 else None
        return Grid(info.node_inputs[0], name, info.node_inputs[1], zp, info.op_type)
    if info.op_type == "DynamicQuantizeLinear":
        return Grid(
            info.node_inputs[0],
            name,
            siblings.get((info.node_name, 1)),
            siblings.get((info.node_name, 2)),
            info.op_type,
        )
    return None


def _name_grid(name: str, ref: TensorRef, keyed: Mapping[str, str]) -> Grid | None:
    """The grid onnxruntime's quantiser names: ``base_quantized`` beside ``base_scale``
    (``base_zero_point``)."""
    suffix = next((s for s in QUANTISED_SUFFIXES if name_key(name).endswith(name_key(s))), None)
    if suffix is None or not _integer(ref):
        return None
    base = name_key(name)[: -len(name_key(suffix))]
    scale = keyed.get(base + "_scale")
    if scale is None:
        return None
    return Grid(base, name, scale, keyed.get(base + "_zero_point"), None)


def target_grids(ctx: CheckContext, case: RowCase) -> list[Finding]:
    """The tensors this node reads that the target holds quantised, with their scale and the golden range
    (one finding each, the first three)."""
    found = quantised_target(ctx)
    if found is None:
        return []
    node = display(str(case.values["node_name"] or case.values["name"]))
    out: list[Finding] = []
    for role, name, bounds in _read(ctx, case.row):
        grid = found.grid(name)
        text = _grid_text(ctx, grid, role, name, node, bounds) if grid is not None else None
        if text is not None:
            out.append(Finding("quantisation", text + ("" if out else _ops_clause(found)), weight=0.3))
        if len(out) == 3:
            break
    return out


def _read(ctx: CheckContext, row: int) -> Iterator[tuple[str, str, tuple[float, float] | None]]:
    """(role, golden name, golden range) of each tensor the node producing ``row`` reads, then of its output
    (a QDQ target quantises outputs; a fused activation's output is the only one left)."""
    e, frame = ctx.edges.frame, ctx.cmp.frame
    for r in e.filter((e["row"] == row) & ~e["constant"])["input_row"].to_list():
        yield "input", str(frame["name"][r]), _bounds(frame.row(r, named=True))
    for name in ctx.edges.constant_inputs.get(row, ()):
        yield "weight", name, _constant_bounds(ctx, name)
    for name in ctx.edges.unresolved.get(row, ()):
        yield "input", name, None
    yield "output", str(frame["name"][row]), _bounds(frame.row(row, named=True))


def _constant_bounds(ctx: CheckContext, name: str) -> tuple[float, float] | None:
    golden = ctx.cmp.golden
    data = ctx.golden_of(golden.tensors.get(name) if golden is not None else None)
    if data is None or data.size == 0 or data.dtype.kind != "f" or not np.isfinite(data).all():
        return None
    return float(data.min()), float(data.max())


def _grid_text(
    ctx: CheckContext, grid: Grid, role: str, name: str, node: str, bounds: tuple[float, float] | None
) -> str | None:
    """One quantised tensor in words: its dtype, scale, zero point and how the golden range fits it."""
    if ctx.cmp.target is None:
        return None
    refs = ctx.cmp.target.tensors
    scale = _small(refs.get(grid.scale) if grid.scale else None)
    if scale is None or scale.size == 0 or not np.isfinite(scale).all() or (scale <= 0).any():
        return None
    zp = _small(refs.get(grid.zero_point) if grid.zero_point else None)
    dtype = refs[grid.quantised].info.dtype or (str(zp.dtype) if zp is not None else "integer")
    made = f" by {grid.op}" if grid.op else ""
    head = (
        f"the target quantises the {role} {display(name)!r} of {node!r}{made}: "
        f"{display(grid.quantised)!r} is {dtype}"
    )
    if scale.size > 1:
        lo, hi = float(scale.min()), float(scale.max())
        return f"{head} with {scale.size} per-channel scales ({lo:.4g} to {hi:.4g})"
    s, z = float(scale.reshape(-1)[0]), int(zp.reshape(-1)[0]) if zp is not None and zp.size else 0
    return f"{head}, scale {s:.4g}, zero point {z}" + _range_clause(s, z, dtype, bounds)


def _range_clause(scale: float, zp: int, dtype: str, bounds: tuple[float, float] | None) -> str:
    """How the golden range fits the grid: the steps it spans, and what the grid clips."""
    bits = _INT_BITS.get(dtype)
    if bounds is None or bits is None:
        return ""
    lo, hi = bounds
    qmin = -(2 ** (bits - 1)) if dtype.startswith("int") else 0
    qmax = qmin + 2**bits - 1
    top, bottom = (qmax - zp) * scale, (qmin - zp) * scale
    said = (
        f"; the golden range [{lo:.4g}, {hi:.4g}] spans {(hi - lo) / scale:.0f} of its {2**bits} steps "
        f"(one step {scale:.4g})"
    )
    if hi > top * (1 + 1e-6) + scale or lo < bottom * (1 + 1e-6) - scale:
        said += f"; the grid holds only [{bottom:.4g}, {top:.4g}]: values beyond are clipped"
    return said


def output_step(ctx: CheckContext, row: int) -> tuple[float, str] | None:
    """(scale, integer dtype) of the grid the target holds ``row``'s tensor on, when it is one per-tensor
    scale: recorded on the tensor (a SigmaStar or RKNN record), else the quantised copy and scale tensor the
    target dump holds beside it (QDQ, DynamicQuantizeLinear); None otherwise."""
    q = quant_params(ctx.cmp, row) or dumped_grid(ctx, str(ctx.cmp.frame["name"][row]))
    return (q[0], q[2]) if q is not None else None


def dumped_grid(ctx: CheckContext, name: str) -> tuple[float, int, str] | None:
    """(scale, zero point, integer dtype) of the per-tensor grid the target dump holds float tensor ``name``
    on: its quantised copy beside a one-value scale tensor (QDQ, DynamicQuantizeLinear); None otherwise."""
    grid = quantised_grid(ctx, name)
    if grid is None or grid.scale is None:
        return None
    refs = ctx.cmp.target.tensors  # type: ignore[union-attr]  # a grid was read: there is a target
    scale = _small(refs.get(grid.scale))
    if scale is None or scale.size != 1 or not np.isfinite(scale).all() or float(scale.reshape(-1)[0]) <= 0:
        return None
    zp = _small(refs.get(grid.zero_point) if grid.zero_point else None)
    dtype = refs[grid.quantised].info.dtype or (str(zp.dtype) if zp is not None else None)
    if dtype not in _INT_BITS:
        return None
    return float(scale.reshape(-1)[0]), int(zp.reshape(-1)[0]) if zp is not None and zp.size else 0, dtype


def quantised_grid(ctx: CheckContext, name: str) -> Grid | None:
    """The quantised copy the target dump holds of float tensor ``name`` (None when it holds none)."""
    found = quantised_target(ctx)
    return found.grid(name) if found is not None else None


def read_names(ctx: CheckContext, row: int) -> list[str]:
    """The golden names of the tensors the node producing ``row`` reads (flowing inputs, then constants)."""
    return [name for role, name, _ in _read(ctx, row) if role != "output"]


def _ops_clause(found: QuantisedTarget) -> str:
    return f" (the target dump holds {found.ops_words()})" if found.ops else ""


def _small(ref: TensorRef | None) -> np.ndarray | None:
    """A scale or zero-point tensor's values (None when absent, unreadable or not numeric)."""
    data = read_tensor(ref)
    return data if data is not None and data.dtype.kind in "fiu" and data.size <= 1 << 16 else None


CHECK = Check("quantisation", quantised, ADVICE)
