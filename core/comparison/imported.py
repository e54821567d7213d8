"""Comparisons imported from another tool's results (msaccucmp/msit ``result_*.csv``).

The vendor module :mod:`dumpscope.core.vendor.msaccucmp_csv` reads the file into a
frame; this module makes it a :class:`Comparison` judged by our bands.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from dumpscope.core.comparison.judge import Thresholds, judge
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.vendor.msaccucmp_csv import METRIC_COLUMNS, read_result_csv


def open_result(path: str | Path, thresholds: Thresholds | None = None) -> Comparison:
    """A ``result_*.csv`` as a ready-made :class:`~dumpscope.core.comparison.result.Comparison`
    (no tensors), judged by our bands: rows msaccucmp could not compare are ``error``,
    and its blind spots (NaN metrics it reports as fine, a zero golden it reports as
    distance 0) fail with the reason."""
    th = thresholds if isinstance(thresholds, Thresholds) else Thresholds()
    frame = read_result_csv(path)
    bands = [th.band_for(d, t, False) for d, t in zip(frame["dtype"].to_list(), frame["target_dtype"].to_list())]
    computed = pl.any_horizontal([pl.col(c).is_not_null() for c in METRIC_COLUMNS.values()])
    # msaccucmp's rows for ops with no dump on one side (Data, inserted ops) are unmatched, not errors.
    no_dump = pl.col("message").fill_null("").str.contains("no dump file", literal=True)
    status = pl.when(computed).then(pl.lit("computed")).when(no_dump).then(pl.lit("unmatched")).otherwise(pl.lit("error"))
    frame = frame.with_columns(
        band=pl.Series(bands, dtype=pl.String),
        status=status,
        health=pl.when(computed).then(pl.lit("pending")).otherwise(status),
        hard_fail=pl.col("blind_spot").fill_null(""),
        message=pl.col("message").fill_null("msaccucmp computed no metric for this row"),
        side=pl.when(computed | ~no_dump).then(pl.lit("both")).otherwise(pl.lit("golden")),
        golden_file=pl.lit(None, dtype=pl.String),
    )
    cmp = Comparison.from_frame(frame, meta={"golden": str(path), "target": str(path), "imported": "msaccucmp/msit CSV",
                                               "preset": th.preset, "order": "the CSV's Index"}, thresholds=th)
    cmp.frame = judge(cmp.frame, th)
    return cmp
