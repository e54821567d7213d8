"""What every diagnosis check shares: its findings, its context, and the registry.

Each check looks at one candidate row and, where it needs numbers the frame does not
hold, reads the golden tensors of that node only (its output, its inputs, its
constants).  A check returns :class:`Finding` objects: a cause, one sentence with the
numbers behind it, and the fix it suggests (a ``dumpscope patch`` action when one fits).

A check is one module of this package: a function ``(ctx, case) -> list[Finding]``, the
advice for each cause it reports, and ``CHECK = Check(name, function, ADVICE)``; the
package's ``CHECKS`` tuple registers it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.diagnosis.edges import Edges
from dumpscope.core.dumps import TensorReadError, TensorRef
from dumpscope.core.inspect.overflow import row_ref
from dumpscope.core.vendor.opdebug import OverflowRecord

#: Operators whose float16 output overflows for moderate inputs (exp(12) > 65504).
EXP_OPS = frozenset({"Exp"})
#: Reductions whose sum can pass the fp16 maximum although every addend fits.
SUM_OPS = frozenset({"ReduceSum", "ReduceSumSquare", "Sum", "ReduceL2", "ReduceLogSumExp"})
#: A tensor whose range is wider than this and is still 8-bit quantised
#: should be tried in INT16.
WIDE_RANGE = 20.0
#: A quantised tensor whose largest value spans fewer steps than this has lost its information.
FEW_LEVELS = 8.0
#: A metric "changes greatly" (seed 004 §3.2.5) when it grows by this factor from one layer to the next.
JUMP_FACTOR = 3.0
#: A grid whose span is this many times the golden values' range is too wide for them (too coarse).
COARSE_GRID = 4.0
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
    """``overflow``, ``constant-range``, ``clamped``, ``opdebug``, ``fusion``, ``quantisation``,
    ``quantisation-wide`` (a range too wide for 8 bits); its class: ``vocabulary.FINDING_CLASS``."""
    text: str
    fixes: tuple[PatchAction, ...] = ()
    weight: float = 0.1
    """How much this evidence adds to the candidate's score."""
    subject: str | None = None
    """The constant (tensor name) the finding is about, when it is about one: its effect is measured."""


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
    memo: dict[str, object] = field(default_factory=dict)
    """Facts a check computes once per diagnosis (e.g. the target dump's quantisation grids)."""

    def golden_of(self, ref: TensorRef | None) -> np.ndarray | None:
        """The golden data of a tensor (read once; None when unreadable)."""
        if ref is None:
            return None
        if ref.name not in self._cache:
            self._cache[ref.name] = read_tensor(ref)
        return self._cache[ref.name]


def float_view(a: np.ndarray) -> np.ndarray | None:
    if a.dtype.kind in "biu" or a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        return a
    return None


def fp16_floor(x: float) -> float:
    """The largest float16 value not above ``x`` (a clip bound that survives fp16 storage)."""
    h = np.float16(x)
    if float(h) > x:
        h = np.nextafter(h, np.float16(-np.inf))
    return float(h)


def inputs_of(ctx: CheckContext, row: int) -> list[int]:
    e = ctx.edges.frame
    return e.filter((e["row"] == row) & ~e["constant"])["input_row"].to_list()


def consumers_of(ctx: CheckContext, row: int) -> list[int]:
    e = ctx.edges.frame
    return e.filter(e["input_row"] == row)["row"].to_list()


@dataclass(frozen=True)
class RowCase:
    """The candidate row a check looks at."""

    row: int
    values: dict[str, object]
    """The frame row (column -> value)."""
    target_op: str | None
    """The target op producing the row's target tensor (None when unknown)."""
    float_target: str | None
    """``float16``/``bfloat16`` when the target tensor is a reduced float, else None."""


CheckFunction = Callable[[CheckContext, RowCase], list[Finding]]


@dataclass(frozen=True)
class Check:
    """One registered check and the advice for each cause it reports."""

    name: str
    run: CheckFunction
    advice: Mapping[str, str]


def row_case(ctx: CheckContext, row: int) -> RowCase:
    """What the checks need to know about a row, read once."""
    values = ctx.cmp.frame.row(row, named=True)
    target = row_ref(ctx.cmp, row, "target")
    return RowCase(
        row,
        values,
        target.info.node_name if target is not None else None,
        _FLOAT_TARGETS.get(values["target_dtype"] or ""),
    )


def clamp_records(records: Iterable[object]) -> dict[str, list[dict[str, object]]]:
    """The manifest's ``clamped`` list grouped by constant name (malformed entries skipped)."""
    out: dict[str, list[dict[str, object]]] = {}
    for rec in records:
        if isinstance(rec, dict) and isinstance(rec.get("name"), str):
            out.setdefault(rec["name"], []).append(rec)
    return out


def clamp_max_abs(rec: Mapping[str, object]) -> float:
    """The largest |x| a clamp record says was clamped (0 when it does not say)."""
    value = rec.get("max_abs") or 0
    return float(value) if isinstance(value, (int, float, str)) else 0.0


def read_tensor(ref: TensorRef | None) -> np.ndarray | None:
    """A tensor's data, or None when there is no tensor or it cannot be read (the row says why)."""
    if ref is None:
        return None
    try:
        return np.asarray(ref.load())
    except TensorReadError:
        return None
