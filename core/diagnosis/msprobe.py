"""The diagnosis of an msprobe step/rank comparison: its first divergence, not generic guesses.

An msprobe statistics dump holds four numbers per tensor and no graph, so the generic
engine (edges, replays, range checks) has nothing to reason with and would name a
culprit from the absence of evidence.  Here the root cause is the first divergence that
:func:`~dumpscope.core.comparison.msprobe.statistics.bad_entries` finds along the call
order, the same answer ``dumpscope compare``/``diagnose`` print for the step/rank:

* **given**: the call's own inputs (model inputs, weights: produced by no earlier call)
  already differ. The row is that input, the class ``pre-processing``;
* **introduced** with Inf/NaN where the bench is finite: ``overflow``;
* **introduced** otherwise: ``operator-implementation`` for a jump, ``precision`` for drift;
* **inherited** (the producer was a module or backward call): ``operator-implementation``.
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.msprobe.statistics import BAD_NORM_PERCENT, Divergence, bad_entries
from dumpscope.core.comparison.msprobe.view import lineage
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.diagnosis.classify import Trend
from dumpscope.core.diagnosis.verdict import Diagnosis, RootCause, row_info
from dumpscope.core.vocabulary import DIVERGENT, is_divergent

#: The msprobe columns the diagnosis reads; a frame without them (an odd import) is not diagnosed here.
NEEDED = ("Entry", "Role", "Deviation", "Err_message", "msprobe -da flags", "NPU Name", "Order", "Result")

_ADVICE = {
    "given": (
        "The call computed what it was fed: {inputs} (a model input or weight, produced by no earlier "
        "call) already differs from the bench. Make both runs load the same data and weights (same "
        "checkpoint and step, same pre-processing, same seed) before suspecting this API."
    ),
    v.OVERFLOW: (
        "Inf/NaN appear in this call's output while the bench's is finite: a float16/bfloat16 overflow "
        "inside the op. Keep this API in float32 (exclude it from autocast / mixed precision) or rescale "
        "its inputs; dump it in tensor mode (msprobe's list or scope option) to see the values."
    ),
    v.OPERATOR: (
        "Its inputs match the bench but its output does not: the NPU computes this API differently. "
        "Statistics cannot say why: dump this API in tensor mode, or run msprobe's API accuracy checker "
        "(run_ut) on it to replay it alone."
    ),
    v.PRECISION: (
        "Its inputs match the bench and its output drifts: reduced precision in this API. Compare it in "
        "tensor mode, or keep it in float32 and see whether the drift goes."
    ),
}


def is_msprobe(cmp: Comparison) -> bool:
    """An msprobe step/rank comparison with its msprobe columns (see :mod:`..comparison.msprobe.view`)."""
    return cmp.meta.format == "msprobe" and all(c in cmp.frame.columns for c in NEEDED)


def diagnose_msprobe(cmp: Comparison) -> Diagnosis:
    """The step/rank's first divergence as the root cause (none when every output is within bounds)."""
    frame = cmp.frame
    counts = cmp.health_counts()
    healthy = not is_divergent(counts)
    found = [replace(d, module_path=_module_path(cmp, d.entry)) for d in bad_entries(frame)[:1]]
    causes = (_root_cause(frame, found[0], _label(cmp)),) if found else ()
    first = cmp.first_divergent()
    origin = _origins(frame, causes[0].row if causes else None)
    return Diagnosis(
        root_causes=causes,
        first_divergent=row_info(frame, origin, first) if first is not None else None,
        summary=_summary(cmp, found, healthy),
        classification=pl.DataFrame({"origin": origin}, schema={"origin": pl.Utf8}),
        trend=Trend("none", None),
        nan_origin=None,
        healthy=healthy,
        counts=counts,
        warnings=("msprobe statistics: four numbers per tensor and no graph, so nothing is replayed",),
    )


def _label(cmp: Comparison) -> str:
    info = cmp.meta.msprobe or {}
    return str(info.get("label", ""))


def _module_path(cmp: Comparison, entry: str) -> tuple[str, ...]:
    """The modules enclosing ``entry``, outermost first, from the module tree kept in ``meta``."""
    tree = (cmp.meta.msprobe or {}).get("tree")
    parents = tree.get("parents") if isinstance(tree, dict) else None
    return tuple(reversed(lineage(entry, parents)[1:])) if isinstance(parents, dict) else ()


def _cause(d: Divergence) -> str:
    if d.kind == "given":
        return v.PREPROCESSING
    if d.kind == "introduced" and d.nonfinite:
        return v.OVERFLOW
    return v.OPERATOR if d.kind == "inherited" or d.shape == "jump" else v.PRECISION


def _root_cause(frame: pl.DataFrame, d: Divergence, label: str) -> RootCause:
    """The divergence as a root cause, on the bad input row (given) or the worst output row."""
    row = _cause_row(frame, d)
    r = frame.row(row, named=True)
    cause = _cause(d)
    advice = _ADVICE["given" if d.kind == "given" else cause].format(inputs=", ".join(d.local_inputs))
    return RootCause(
        row=row,
        name=str(r["name"]),
        node_name=r["node_name"],
        op_type=r["op_type"],
        index=r["index"],
        kind=r["kind"],
        cause=cause,
        score=d.output_deviation,
        evidence=(f"{label}: {d.describe()}" if label else d.describe(),),
        advice=advice,
    )


def _cause_row(frame: pl.DataFrame, d: Divergence) -> int:
    """The worst of a ``given`` call's own differing inputs, else the call's worst output."""
    rows = frame.with_row_index("_row").filter(pl.col("Entry") == d.entry)
    wanted = (
        pl.col("NPU Name").is_in(list(d.local_inputs)) if d.kind == "given" else pl.col("Role") == "output"
    )
    hits = rows.filter(wanted).sort("Deviation", descending=True, nulls_last=True, maintain_order=True)
    return int((hits if hits.height else rows)["_row"][0])


def _origins(frame: pl.DataFrame, root: int | None) -> list[str | None]:
    """``introduced`` at the root-cause row, ``inherited`` at every other failing row after it."""
    failing = frame["health"].is_in(list(DIVERGENT)).to_list()
    return [
        None if root is None or not bad or i < root else ("introduced" if i == root else "inherited")
        for i, bad in enumerate(failing)
    ]


def _summary(cmp: Comparison, found: list[Divergence], healthy: bool) -> str:
    label = _label(cmp)
    where = f"{label}: " if label else ""
    if found:
        return f"{where}first divergence {found[0].describe()}"
    if healthy:
        return f"{where}every paired output within {BAD_NORM_PERCENT:g} % NormRelativeErr of the bench"
    return (
        f"{where}rows fail msprobe's rules, but no forward API output leaves {BAD_NORM_PERCENT:g} % "
        "NormRelativeErr"
    )
