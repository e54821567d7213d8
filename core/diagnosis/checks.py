"""Evidence for a candidate root cause: range, overflow, clamp, Opdebug, fusion and quantisation checks.

Each check looks at one candidate row and, where it needs numbers the frame does not
hold, reads the golden tensors of that node only (its output, its inputs, its
constants).  A check returns :class:`Finding` objects: a cause, one sentence with the
numbers behind it, and the fix it suggests (a ``dumpscope patch`` action when one fits).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

from dumpscope.core.diagnosis.edges import Edges
from dumpscope.core.dumps import TensorReadError, TensorRef
from dumpscope.core.names import display
from dumpscope.core.inspect.overflow import quant_params, row_ref
from dumpscope.core.inspect.ranges import range_check
from dumpscope.core.vendor.opdebug import OverflowRecord
from dumpscope.core.comparison.result import Comparison

#: Operators whose float16 output overflows for moderate inputs (exp(12) > 65504).
EXP_OPS = frozenset({"Exp"})
#: Reductions whose sum can pass the fp16 maximum although every addend fits.
SUM_OPS = frozenset({"ReduceSum", "ReduceSumSquare", "Sum", "ReduceL2", "ReduceLogSumExp"})
#: A tensor whose range is wider than this and is still 8-bit quantised
#: should be tried in INT16.
WIDE_RANGE = 20.0
#: A quantised tensor whose largest value spans fewer steps than this has lost its information.
FEW_LEVELS = 8.0
_FLOAT_TARGETS = {"float16": "float16", "bfloat16": "bfloat16"}


@dataclass(frozen=True)
class PatchAction:
    """A ``dumpscope patch`` action: keep a node in fp32, or clip a node's output."""

    node: str
    keep_fp32: bool = False
    clip: tuple[float, float] | None = None


@dataclass(frozen=True)
class Finding:
    cause: str
    """``overflow``, ``constant-range``, ``clamped``, ``opdebug``, ``fusion``, ``quantisation``."""
    text: str
    fixes: tuple[PatchAction, ...] = ()
    weight: float = 0.1
    """How much this evidence adds to the candidate's score."""


@dataclass
class CheckContext:
    """What the checks share: the comparison, its edges, and the vendor facts at hand."""

    cmp: Comparison
    edges: Edges
    clamped: Mapping[str, list[dict[str, object]]] = field(default_factory=dict)
    """Constant name -> the target manifest's fp16 clamp records for it."""
    opdebug: Mapping[str, list[OverflowRecord]] = field(default_factory=dict)
    """Target op name -> its decoded Opdebug records."""
    fused: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    """Target op name -> (original ops it replaces, fusion passes) for fused ops."""
    _cache: dict[str, np.ndarray | None] = field(default_factory=dict)

    def golden_of(self, ref: TensorRef | None) -> np.ndarray | None:
        """The golden data of a tensor (read once; None when unreadable)."""
        if ref is None:
            return None
        if ref.name not in self._cache:
            try:
                self._cache[ref.name] = np.asarray(ref.load())
            except TensorReadError:
                self._cache[ref.name] = None
        return self._cache[ref.name]


def _float_view(a: np.ndarray) -> np.ndarray | None:
    if a.dtype.kind in "biu" or a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        return a
    return None


def fp16_floor(x: float) -> float:
    """The largest float16 value not above ``x`` (a clip bound that survives fp16 storage)."""
    h = np.float16(x)
    if float(h) > x:
        h = np.nextafter(h, np.float16(-np.inf))
    return float(h)


def check_row(ctx: CheckContext, row: int) -> list[Finding]:
    """Every finding for the node producing ``row``."""
    frame = ctx.cmp.frame
    r = frame.row(row, named=True)
    findings: list[Finding] = []
    target_dtype = r["target_dtype"] or ""
    float_target = _FLOAT_TARGETS.get(target_dtype)
    node = r["node_name"]
    if float_target:
        findings += _float_range(ctx, row, r, float_target)
    findings += _constants(ctx, row, float_target)
    findings += _quantised(ctx, row, r)
    target = row_ref(ctx.cmp, row, "target")
    op = target.info.node_name if target is not None else None
    if op:
        findings += _opdebug(ctx, op)
        findings += _fusion(ctx, op, node)
    return findings


def _inputs_of(ctx: CheckContext, row: int) -> list[int]:
    e = ctx.edges.frame
    return e.filter((e["row"] == row) & ~e["constant"])["input_row"].to_list()


def _consumers_of(ctx: CheckContext, row: int) -> list[int]:
    e = ctx.edges.frame
    return e.filter(e["input_row"] == row)["row"].to_list()


def _float_range(ctx: CheckContext, row: int, r: dict[str, object], target: str) -> list[Finding]:
    out: list[Finding] = []
    top = float(ml_dtypes.finfo(target).max) if target == "bfloat16" else float(np.finfo(np.float16).max)
    op = r["op_type"] or ""
    node = str(r["node_name"] or r["name"])
    if op in EXP_OPS:
        for j in _inputs_of(ctx, row)[:1]:
            x = ctx.golden_of(row_ref(ctx.cmp, j))
            if x is None or _float_view(x) is None:
                continue
            limit = math.log(top)
            flat = x.reshape(-1).astype(np.float64, copy=False)
            over = int(np.count_nonzero(flat > limit))
            if not over:
                continue
            width = _reduction_width(ctx, row)
            hi = fp16_floor(math.log(top / width)) if target == "float16" else round(math.log(top / width), 2)
            producer = ctx.cmp.frame["node_name"][j]
            fixes = [PatchAction(n, keep_fp32=True) for n in (node, *_normalisers(ctx, row))]
            if producer:
                fixes.insert(0, PatchAction(str(producer), clip=(-math.inf, hi)))
            summed = f" (and {width} of them are summed downstream, so clip at {hi:.7g})" if width > 1 else ""
            out.append(Finding(
                "overflow",
                f"Exp input {display(str(ctx.cmp.frame['name'][j]))!r}: {over} of {flat.size} golden values exceed "
                f"ln({top:g}) = {limit:.4g} (max {float(np.nanmax(flat)):.4g}), so exp passes the {target} maximum "
                f"{top:g} and becomes inf{summed}",
                tuple(fixes), weight=0.3,
            ))
    y = ctx.golden_of(row_ref(ctx.cmp, row))
    if y is not None and _float_view(y) is not None and y.dtype.kind == "f":
        found = range_check(y, target)
        if found.out_of_range:
            what = "sum" if op in SUM_OPS else "output"
            out.append(Finding(
                "overflow",
                f"golden {what} of {display(node)!r}: {found.message}: it cannot be stored in {target}",
                (PatchAction(node, keep_fp32=True),), weight=0.25,
            ))
    return out


def _normalisers(ctx: CheckContext, row: int) -> list[str]:
    """Nodes that sum ``row`` and divide by that sum (a hand-written softmax): kept in fp32
    with the Exp, since the sum of exps overflows fp16 as surely as the exp did."""
    frame = ctx.cmp.frame
    consumers = _consumers_of(ctx, row)
    sums = [c for c in consumers if (frame["op_type"][c] or "") in SUM_OPS]
    divs = [c for c in consumers if c not in sums and any(c in _consumers_of(ctx, s) for s in sums)]
    return [str(frame["node_name"][c]) for c in (*sums, *divs) if frame["node_name"][c]]


def _reduction_width(ctx: CheckContext, row: int) -> int:
    """How many values of ``row`` a downstream sum adds up (1 when none does)."""
    frame = ctx.cmp.frame
    size = frame["size"][row] or 0
    widths = [
        int(size // frame["size"][c])
        for c in _consumers_of(ctx, row)
        if (frame["op_type"][c] or "") in SUM_OPS and frame["size"][c]
    ]
    return max([w for w in widths if w > 0], default=1)


def _constants(ctx: CheckContext, row: int, target: str | None) -> list[Finding]:
    out: list[Finding] = []
    names = ctx.edges.constant_inputs.get(row, ())
    node = str(ctx.cmp.frame["node_name"][row] or ctx.cmp.frame["name"][row])
    golden = ctx.cmp.golden
    for name in names:
        for rec in ctx.clamped.get(name, []):
            out.append(Finding(
                "clamped",
                f"constant {display(name)!r}: the fp16 conversion {'clamped' if rec.get('action') == 'clamp' else 'flushed'} "
                f"{rec.get('count')} value(s) (largest |x| {float(rec.get('max_abs') or 0):.6g})",  # type: ignore[arg-type]
                (PatchAction(node, keep_fp32=True),), weight=0.3,
            ))
        if target is None or golden is None or name not in golden.tensors:
            continue
        if any(f.cause == "clamped" and display(name) in f.text for f in out):
            continue
        data = ctx.golden_of(golden.tensors[name])
        if data is None or data.dtype.kind != "f":
            continue
        found = range_check(data, target)
        if found.out_of_range:
            out.append(Finding(
                "constant-range",
                f"constant {display(name)!r} feeding {display(node)!r}: {found.message}",
                (PatchAction(node, keep_fp32=True),), weight=0.3,
            ))
    return out


def _quantised(ctx: CheckContext, row: int, r: dict[str, object]) -> list[Finding]:
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


def _opdebug(ctx: CheckContext, op: str) -> list[Finding]:
    out = []
    for rec in ctx.opdebug.get(op, []):
        bits = ", ".join(f"0x{b.mask:x} {b.meaning}" for b in rec.bits) or f"status 0x{rec.status:x}"
        out.append(Finding(
            "opdebug",
            f"Opdebug record {display(rec.file.rsplit('/', 1)[-1])!r} ({rec.unit}, task {rec.task_id}, stream "
            f"{rec.stream_id}) names op {display(op)!r}: {bits}",
            weight=0.3,
        ))
    return out


def _fusion(ctx: CheckContext, op: str, node: object) -> list[Finding]:
    fused = ctx.fused.get(op)
    if fused is None:
        return []
    originals, passes = fused
    shown = ", ".join(repr(display(o)) for o in originals[:6]) + (" ..." if len(originals) > 6 else "")
    by = f" by {', '.join(passes)}" if passes else ""
    return [Finding(
        "fusion",
        f"target op {display(op)!r} fuses {len(originals)} original ops ({shown}){by}; its inputs are healthy, "
        "its output is not",
        weight=0.25,
    )]


def clamp_records(records: Iterable[object]) -> dict[str, list[dict[str, object]]]:
    """The manifest's ``clamped`` list grouped by constant name (malformed entries skipped)."""
    out: dict[str, list[dict[str, object]]] = {}
    for rec in records:
        if isinstance(rec, dict) and isinstance(rec.get("name"), str):
            out.setdefault(rec["name"], []).append(rec)
    return out
