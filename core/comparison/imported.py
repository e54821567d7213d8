"""Comparisons imported from another tool's results (msaccucmp/msit ``result_*.csv``).

The vendor module :mod:`dumpscope.core.vendor.msaccucmp_csv` reads the file into a
frame; this module makes it a :class:`Comparison` judged by our bands.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from dumpscope.core.comparison.judge import Thresholds, judge
from dumpscope.core.comparison.result import Comparison, ComparisonMeta
from dumpscope.core.vendor.msaccucmp_csv import METRIC_COLUMNS, read_result_csv


def open_result(path: str | Path, thresholds: Thresholds | None = None) -> Comparison:
    """A ``result_*.csv`` as a ready-made :class:`~dumpscope.core.comparison.result.Comparison`
    (no tensors), judged by our bands: rows msaccucmp could not compare are ``error``,
    and its blind spots (NaN metrics it reports as fine, a zero golden it reports as
    distance 0) fail with the reason."""
    th = thresholds if isinstance(thresholds, Thresholds) else Thresholds()
    frame = read_result_csv(path)
    bands = [
        th.band_for(d, t, False)
        for d, t in zip(frame["dtype"].to_list(), frame["target_dtype"].to_list(), strict=False)
    ]
    computed = pl.any_horizontal([pl.col(c).is_not_null() for c in METRIC_COLUMNS.values()])
    # msaccucmp's rows for ops with no dump on one side (Data, inserted ops) are unmatched, not errors.
    no_dump = pl.col("message").fill_null("").str.contains("no dump file", literal=True)
    status = (
        pl.when(computed)
        .then(pl.lit("computed"))
        .when(no_dump)
        .then(pl.lit("unmatched"))
        .otherwise(pl.lit("error"))
    )
    frame = frame.with_columns(
        band=pl.Series(bands, dtype=pl.String),
        status=status,
        health=pl.when(computed).then(pl.lit("pending")).otherwise(status),
        hard_fail=pl.col("blind_spot").fill_null(""),
        message=pl.col("message").fill_null("msaccucmp computed no metric for this row"),
        side=pl.when(computed | ~no_dump).then(pl.lit("both")).otherwise(pl.lit("golden")),
        golden_file=pl.lit(None, dtype=pl.String),
    )
    cmp = Comparison.from_frame(
        frame,
        meta=ComparisonMeta(
            golden=str(path),
            target=str(path),
            imported="msaccucmp/msit CSV",
            preset=th.preset,
            order="the CSV's Index",
        ),
        thresholds=th,
    )
    cmp.frame = judge(cmp.frame, th)
    return cmp


def open_rknn_report(path: str | Path, thresholds: Thresholds | None = None) -> Comparison:
    """RKNN-Toolkit2's ``error_analysis.txt`` as a ready-made comparison (no tensors): a row per layer
    in the simulator's order, the vendor's "entire" cosine as the row's cosine (judged by our bands,
    the int8 band for a quantised build), its four columns beside it (``rknn_*``), the origin its
    "single" column gives, and each blank row (a layer fused with the next) explained.  With the
    snapshot's golden/ and simulator/ folders, ``dumpscope SNAPSHOT`` computes our numbers beside them."""
    from dumpscope.core.vendor import rknn

    th = thresholds if isinstance(thresholds, Thresholds) else Thresholds()
    report = rknn.read_report(path)
    band = th.band_for("float32", "float32", rknn.precision(r.name for r in report.rows) == "int8")
    rows = []
    for r in report.rows:
        rows.append(
            {
                "index": r.position,
                "name": r.name,
                "target_name": r.name,
                "op_type": r.op_type,
                "kind": "input" if r.op_type == "Input" else "activation",
                "cosine_similarity": r.entire_cos,
                "band": band,
                "status": "unmatched" if r.blank else "computed",
                "health": "unmatched" if r.blank else "pending",
                "side": "both",
                "message": rknn.report_sentence(r, None, None) if r.blank else "",
                "notes": None if r.blank else _report_note(r),
                "printed": {"cosine_similarity": r.printed[0] if r.printed else None},
                "rknn_op": r.op_type,
                "rknn_entire_cos": r.entire_cos,
                "rknn_entire_euc": r.entire_euc,
                "rknn_single_cos": r.single_cos,
                "rknn_single_euc": r.single_euc,
                "rknn_fused_into": r.fused_into,
                "rknn_origin": rknn.origin(r),
                "rknn_q_zero": r.q_zero,
            }
        )
    frame = pl.DataFrame(
        rows,
        schema_overrides={
            "printed": pl.Struct({"cosine_similarity": pl.String()}),
            "rknn_fused_into": pl.String(),
            "rknn_origin": pl.String(),
        },
    )
    meta = ComparisonMeta(
        golden=str(path),
        target=str(path),
        imported="RKNN-Toolkit2 error_analysis.txt",
        preset=th.preset,
        order="the report's (the simulator's) order",
        warnings=tuple(report.problems),
    )
    cmp = Comparison.from_frame(frame, meta=meta, thresholds=th)
    cmp.frame = judge(cmp.frame, th)
    return cmp


def _report_note(row) -> str:
    """A reported row's vendor numbers in words (the row's message after our verdict)."""
    from dumpscope.core.vendor import rknn

    return rknn.report_sentence(row, None, None).replace(" (ours: cos - euc -)", "")
