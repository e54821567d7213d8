"""An msprobe step/rank comparison as the app's :class:`Comparison`, with its module tree.

:func:`as_comparison` maps one :class:`RankResult` frame onto the comparison schema (one
row per NPU record: ``name`` the record, ``node_name`` its API/module entry, health
``ok``/``warn``/``fail``/``unmatched`` from msprobe's Result; msprobe's own columns are
kept after the schema's).  ``meta.msprobe`` holds plain JSON data, so a saved
comparison reopens with it:

* ``tree``: the module tree of construct.json (:func:`module_tree`): every entry's parent,
  call order, every node's worst health (a module takes its worst child's), and the
  first bad API call under every node, for walking down from the model;
* ``ranks``: the per-step/rank summary and which one diverges first.
"""

from __future__ import annotations

import polars as pl

from dumpscope.core.comparison.msprobe.driver import MsprobeReport, RankResult
from dumpscope.core.comparison.msprobe.statistics import BAD_NORM_PERCENT, failing_rows
from dumpscope.core.comparison.msprobe.statistics import beyond_bound as _diverges
from dumpscope.core.comparison.msprobe.statistics import health as _health
from dumpscope.core.comparison.result import Comparison, ComparisonMeta
from dumpscope.core.formats.msprobe import split_name

_SEVERITY = {"ok": 0, "unmatched": 1, "warn": 2, "fail": 3}
_KIND = {"input": "op_input", "parameters": "constant"}


def _rows(frame: pl.DataFrame) -> pl.DataFrame:
    """The comparison columns of an msprobe statistics frame (msprobe's columns follow)."""
    entry = pl.coalesce(pl.col("Entry"), pl.col("Bench Entry"))
    return frame.with_columns(
        pl.int_range(pl.len()).cast(pl.Int64).alias("index"),
        pl.coalesce(pl.col("NPU Name"), pl.col("Bench Name")).alias("name"),
        pl.col("NPU Name").alias("target_name"),
        entry.alias("node_name"),
        entry.map_elements(lambda e: split_name(e).api, return_dtype=pl.Utf8).alias("op_type"),
        pl.col("Role").replace_strict(_KIND, default="activation").alias("kind"),
        pl.col("Bench Dtype").alias("dtype"),
        pl.col("NPU Dtype").alias("target_dtype"),
        _health().alias("health"),
        _message().alias("message"),
        pl.col("Pairing").alias("pairing"),
        _shape("Bench Tensor Shape").alias("shape"),
        _shape("NPU Tensor Shape").alias("target_shape"),
        *[
            pl.col(f"{side} {stat}").alias(f"{stat}_{ours}")
            for side, ours in (("Bench", "golden"), ("NPU", "target"))
            for stat in ("min", "max", "mean")
        ],
        pl.when(pl.col("Pairing") == "bench-only")
        .then(pl.lit("golden"))
        .when(pl.col("Pairing") == "npu-only")
        .then(pl.lit("target"))
        .alias("side"),
    ).drop("NPU_Stack_Info")


def _shape(column: str) -> pl.Expr:
    """msprobe's shape text ``[32, 3, 224, 224]`` as a list of ints (null when it is not one)."""
    text = pl.col(column).str.strip_chars("[] ")
    dims = text.str.split(",").list.eval(pl.element().str.strip_chars().cast(pl.Int64, strict=False))
    return pl.when(text == "").then(pl.lit([], dtype=pl.List(pl.Int64))).otherwise(dims)


def _message() -> pl.Expr:
    """msprobe's Err_message, and why a row fails that msprobe's rules pass."""
    ours = pl.format(
        "NormRelativeErr {}% > {} % (the first-divergence bound; msprobe's rules pass it)",
        pl.col("NormRelativeErr").round_sig_figs(6),
        pl.lit(f"{BAD_NORM_PERCENT:g}"),
    )
    ours = (
        pl.when(pl.col("Deviation").is_infinite())
        .then(pl.lit("Inf/NaN (or a CRC change) where the bench has none"))
        .otherwise(ours)
    )
    theirs = pl.when(pl.col("Err_message") != "").then(pl.col("Err_message"))
    return (
        pl.when(_diverges())
        .then(pl.concat_str([theirs, ours], separator="; ", ignore_nulls=True))
        .otherwise(pl.col("Err_message"))
    )


def module_tree(frame: pl.DataFrame) -> dict[str, object]:
    """The construct.json hierarchy of a step/rank with every node's worst health.

    ``parents``: entry -> parent module (None at the top); ``order``: entries in call
    order; ``health``: node -> worst health of itself and everything under it;
    ``first_bad``: node -> the first API call under it (call order) whose health is
    ``fail`` (else ``warn``), the row to walk down to."""
    entries = (
        frame.filter(pl.col("Entry").is_not_null())
        .group_by("Entry", maintain_order=True)
        .agg(pl.col("Parent").first(), pl.col("Order").first(), _health().alias("health"))
    )
    rows = entries.sort("Order").to_dicts()
    parents: dict[str, str | None] = {str(row["Entry"]): row["Parent"] for row in rows}
    health: dict[str, str] = {}
    first: dict[str, dict[str, str]] = {"fail": {}, "warn": {}}
    for row in rows:
        _climb(str(row["Entry"]), max(row["health"], key=_severity), parents, health, first)
    for parent in {p for p in parents.values() if p is not None and p not in parents}:
        parents[parent] = None
    first_bad = first["warn"] | first["fail"]  # a failing call wins over a warning one
    return {"parents": parents, "order": list(parents), "health": health, "first_bad": first_bad}


def _severity(health: str) -> int:
    return _SEVERITY.get(health, 3)


def _climb(
    name: str,
    worst: str,
    parents: dict[str, str | None],
    health: dict[str, str],
    first: dict[str, dict[str, str]],
) -> None:
    """Raise ``name`` and every module above it to ``worst``; an API call that is the first
    failing (or warning) one under a module becomes that module's ``first`` of that kind."""
    firsts = first.get(worst) if _is_api(name) else None
    for node in lineage(name, parents):
        _raise(health, node, worst)
        if firsts is not None:
            firsts.setdefault(node, name)


def lineage(name: str, parents: dict[str, str | None]) -> list[str]:
    """``name`` and every module above it (a cycle stops the walk)."""
    out = [name]
    current = parents.get(name)
    while current is not None and current not in out:
        out.append(current)
        current = parents.get(current)
    return out


def _raise(health: dict[str, str], node: str, value: str) -> None:
    if _SEVERITY.get(value, 3) > _SEVERITY.get(health.get(node, "ok"), 0):
        health[node] = value
    health.setdefault(node, value)


def _is_api(name: str) -> bool:
    return split_name(name).prefix not in ("Module", "Cell")


def rank_summary(report: MsprobeReport) -> dict[str, object]:
    """Per step/rank: entries, errors, first divergence; and the one diverging first."""
    first = report.first
    return {"results": [_rank_row(r) for r in report.results], "first": first.label if first else None}


def _rank_row(r: RankResult) -> dict[str, object]:
    """One step/rank of :func:`rank_summary`."""
    return {
        "label": r.label,
        "step": r.step,
        "rank": r.rank,
        "problem": r.error,
        "errors": 0 if r.frame is None else failing_rows(r.frame),
        "pairing": r.pairing.counts() if r.pairing is not None else None,
        "first_divergence": r.divergence.describe() if r.divergence else None,
        "entry": r.divergence.entry if r.divergence else None,
    }


def as_comparison(report: MsprobeReport, result: RankResult | None = None) -> Comparison:
    """One step/rank of ``report`` (default: the one diverging first, else the first
    readable one) as a :class:`Comparison` for the app."""
    chosen = result or report.first or next((r for r in report.results if r.frame is not None), None)
    if chosen is None or chosen.frame is None:
        raise ValueError("no step/rank of this msprobe dump could be compared")
    meta = ComparisonMeta(
        format="msprobe",
        msprobe={"label": chosen.label, "tree": module_tree(chosen.frame), "ranks": rank_summary(report)},
    )
    return Comparison.from_frame(_rows(chosen.frame), meta=meta)
