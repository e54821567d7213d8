"""The CSV writer formats a column at a time; each cell must equal the per-value formatters
(:func:`_num` for metric cells, :func:`_extra_cell` for ours) on any mix of nulls, NaN/Inf,
non-ASCII names and one-sided rows."""

from __future__ import annotations

import csv
import io
import math

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.names import printable
from dumpscope.core.report.writers import (
    _CSV_METRICS,
    EXTRA_CSV_COLUMNS,
    MSACCUCMP_HEADER,
    _extra_cell,
    _num,
    write_csv,
)
from screenshots.make import generated_frame

values = st.one_of(
    st.none(), st.floats(allow_nan=True, allow_infinity=True), st.just(math.nan), st.just(-math.inf)
)
names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8) | st.just("层/卷积:0")


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(values, values, names, st.sampled_from(["both", "golden", "target"])),
        min_size=1,
        max_size=12,
    )
)
def test_every_cell_equals_the_per_value_formatters(rows) -> None:  # type: ignore[no-untyped-def]
    frame = (
        generated_frame(max(8, len(rows)), seed=1)
        .head(len(rows))
        .with_columns(
            pl.Series("cosine_similarity", [r[0] for r in rows], dtype=pl.Float64),
            pl.Series("max_golden", [r[1] for r in rows], dtype=pl.Float64),
            pl.Series("name", [r[2] for r in rows]),
            pl.Series("node_name", [r[2] for r in rows]),
            pl.Series("side", [r[3] for r in rows]),
        )
    )
    out = io.StringIO()
    write_csv(Comparison.from_frame(frame), out)
    header, *body = list(csv.reader(io.StringIO(out.getvalue())))
    assert header == [*MSACCUCMP_HEADER, *EXTRA_CSV_COLUMNS] and len(body) == len(rows)
    metric_at = {m: 9 + i for i, m in enumerate(_CSV_METRICS) if m is not None}
    extra_at = {c: len(MSACCUCMP_HEADER) + i for i, c in enumerate(EXTRA_CSV_COLUMNS)}
    for cells, r in zip(body, frame.iter_rows(named=True), strict=False):
        assert cells[metric_at["cosine_similarity"]] == _num(r["cosine_similarity"])
        for c in ("max_golden", "node_name", "nan_golden", "target_shape", "health"):
            assert cells[extra_at[c]] == _extra_cell(c, r[c])
        side, name = r["side"], printable(r["name"])  # a CSV holds printable names
        assert cells[5] == (name if side in ("both", "golden") else "*")
        assert cells[2] == {"both": printable(str(r["target_name"])), "target": name, "golden": "NaN"}[side]
