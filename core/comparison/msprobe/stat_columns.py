"""Columnar statistics-mode comparison: records straight into columns, msprobe's rules as Polars expressions.

:func:`statistics_frame` gives exactly the frame of the per-record reference
(:func:`dumpscope.core.comparison.msprobe.statistics.compare_statistics_rows`), but one Python
pass only appends each paired record's fields to lists; the differences, relative
errors, error and warning rules, messages and the divergence deviation are computed by
Polars over whole columns.  See :mod:`dumpscope.core.comparison.msprobe.statistics` for what
every column means.
"""

from __future__ import annotations

import functools
import math

import polars as pl

from dumpscope.core.comparison.msprobe.pairing import EntryPair, Mapping, Pairing
from dumpscope.core.formats.msprobe import Record, split_name

STATS = ("Max", "Min", "Mean", "L2norm")
REL = ("MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr", "NormRelativeErr")
_NPU = [f"NPU {s.lower()}" for s in STATS]
_BENCH = [f"Bench {s.lower()}" for s in STATS]

#: What names a row of the statistics frame and its pair (name -> dtype): the first columns of both
#: the raw fields below and the finished frame (:mod:`dumpscope.core.comparison.msprobe.statistics`).
IDENTITY: dict[str, pl.DataType] = {
    "NPU Name": pl.Utf8(),
    "Bench Name": pl.Utf8(),
    "Entry": pl.Utf8(),
    "Bench Entry": pl.Utf8(),
    "Order": pl.Int64(),
    "Role": pl.Utf8(),
    "Pairing": pl.Utf8(),
    "Parent": pl.Utf8(),
    "NPU Dtype": pl.Utf8(),
    "Bench Dtype": pl.Utf8(),
    "NPU Tensor Shape": pl.Utf8(),
    "Bench Tensor Shape": pl.Utf8(),
}

#: Raw per-record fields gathered in the one Python pass (name -> dtype).
_RAW: dict[str, pl.DataType] = {
    **IDENTITY,
    "NPU MD5": pl.Utf8(),
    "Bench MD5": pl.Utf8(),
    **{c: pl.Float64() for c in _NPU + _BENCH},
    "NPU_Stack_Info": pl.Utf8(),
    "_suffix": pl.Utf8(),
    "_has_bench": pl.Boolean(),
    "_npu_tensor": pl.Boolean(),
    "_bench_tensor": pl.Boolean(),
    "_npu_value": pl.Utf8(),
    "_bench_value": pl.Utf8(),
    "_npu_grad": pl.Boolean(),
    "_bench_grad": pl.Boolean(),
    "_npu_error": pl.Utf8(),
    "_api": pl.Utf8(),
    "_bench_entry": pl.Utf8(),
}


@functools.lru_cache(maxsize=4096)
def _shape_str(shape: tuple[int, ...]) -> str:
    return str(list(shape))


def _shape_text(record: Record) -> str | None:
    return None if record.shape is None else _shape_str(record.shape)


_EMPTY = Record("", "", "", "", False)


def _record_values(npu: Record, bench: Record | None, pair: EntryPair, api: str) -> tuple[object, ...]:
    """One row of the raw columns, in :data:`_RAW` order."""
    b = bench or _EMPTY
    return (
        npu.name,
        b.name or None,
        pair.npu.name,
        pair.bench.name,
        pair.npu.order,
        npu.role,
        pair.label,
        pair.npu.parent,
        npu.dtype,
        b.dtype,
        _shape_text(npu),
        _shape_text(b),
        npu.md5,
        b.md5,
        *npu.stats,
        *(b.stats if bench is not None else (None,) * 4),
        pair.npu.stack,
        npu.suffix,
        bench is not None,
        npu.is_tensor,
        b.is_tensor,
        npu.value,
        b.value,
        npu.requires_grad,
        b.requires_grad,
        npu.error,
        api,
        pair.bench.name,
    )


def _pair_rows(pair: EntryPair, mapping: Mapping) -> list[tuple[object, ...]]:
    bench = {r.suffix: r for r in pair.bench.records}
    by_name = {r.name: r for r in pair.bench.records} if mapping.data else {}
    api = split_name(pair.npu.name).api
    out = []
    for rec in pair.npu.records:
        mapped = mapping.record_name(rec.name) if mapping.data else None
        out.append(_record_values(rec, by_name.get(mapped) if mapped else bench.get(rec.suffix), pair, api))
    return out


def raw_columns(pairing: Pairing, mapping: Mapping, job: int = 0) -> pl.DataFrame:
    """Every paired NPU record as one row of :data:`_RAW` (row-major tuples -> one frame);
    ``_job`` tells comparisons apart when several are ruled in one pass."""
    frames, rows = [], []
    for pair in pairing.pairs:
        rows += _pair_rows(pair, mapping)
        if len(rows) >= _ROWS_AT_ONCE:  # Python tuples cost ~10x their columns: a slice at a time
            frames.append(_raw_frame(rows))
            rows = []
    frames.append(_raw_frame(rows))
    frame = pl.concat(frames) if len(frames) > 1 else frames[0]
    return frame.with_columns(pl.lit(job, dtype=pl.Int64).alias("_job"))


#: Records turned into columns at once by :func:`raw_columns`.
_ROWS_AT_ONCE = 16384


def _raw_frame(rows: list[tuple[object, ...]]) -> pl.DataFrame:
    columns = list(zip(*rows, strict=False)) if rows else [()] * len(_RAW)
    return pl.DataFrame(
        {
            name: pl.Series(name, list(col), dtype=dtype, strict=False)
            for (name, dtype), col in zip(_RAW.items(), columns, strict=False)
        }
    )


# ---------------------------------------------------------------- expressions


def _rel(npu: pl.Expr, bench: pl.Expr) -> pl.Expr:
    """``|npu - bench| / |bench| * 100``; 0 when identical, inf when bench is 0 (NaN stays NaN)."""
    diff = npu - bench
    return (
        pl.when(npu.is_null() | bench.is_null())
        .then(None)
        .when((npu == bench) & npu.is_not_nan())
        .then(0.0)
        .when(bench == 0)
        .then(pl.when(diff.is_nan()).then(math.nan).otherwise(math.inf))
        .otherwise((diff / bench).abs() * 100.0)
    )


def _new_nonfinite() -> pl.Expr:
    """NPU Max/Min is NaN/Inf while the bench's is finite."""
    parts = [
        pl.col(n).is_not_null() & ~pl.col(n).is_finite() & pl.col(b).is_not_null() & pl.col(b).is_finite()
        for n, b in zip(_NPU[:2], _BENCH[:2], strict=False)
    ]
    return (pl.col("_has_bench") & (parts[0] | parts[1])).fill_null(False)


def _md5_differs() -> pl.Expr:
    n, b = pl.col("NPU MD5"), pl.col("Bench MD5")
    return ((n.str.len_bytes() > 0) & (b.str.len_bytes() > 0) & (n != b)).fill_null(False)


def _deviation() -> pl.Expr:
    norm = pl.col("NormRelativeErr")
    crc_only = pl.col("_has_bench") & _md5_differs() & pl.col("NPU l2norm").is_null()
    return (
        pl.when(pl.col("_new_nonfinite") | crc_only)
        .then(math.inf)
        .when(norm.is_null() | norm.is_nan())
        .then(0.0)
        .otherwise(norm)
    )


def _text(col: str) -> pl.Expr:
    """A column as Python's ``str()`` would print it (``None`` for null)."""
    return pl.col(col).cast(pl.Utf8).fill_null("None")


def _bool_text(col: str) -> pl.Expr:
    return pl.when(pl.col(col)).then(pl.lit("True")).otherwise(pl.lit("False"))


def _tensor_checks() -> list[tuple[pl.Expr, pl.Expr]]:
    """(failed, message) of msprobe's tensor error rules, in the reference's order."""
    n_grad, b_grad = pl.col("_npu_grad"), pl.col("_bench_grad")
    norm = pl.col("NormRelativeErr")
    return [
        (pl.col("_new_nonfinite"), pl.lit("NPU Max/Min is inf/nan while the bench is finite")),
        (
            _text("NPU Dtype") != _text("Bench Dtype"),
            pl.format("dtype mismatch: NPU {} vs bench {}", _text("NPU Dtype"), _text("Bench Dtype")),
        ),
        (
            pl.col("NPU Tensor Shape").fill_null("[]") != pl.col("Bench Tensor Shape").fill_null("[]"),
            pl.format(
                "shape mismatch: NPU {} vs bench {}",
                pl.col("NPU Tensor Shape").fill_null("[]"),
                pl.col("Bench Tensor Shape").fill_null("[]"),
            ),
        ),
        (_md5_differs(), pl.format("md5 (CRC-32) differs: {} vs {}", pl.col("NPU MD5"), pl.col("Bench MD5"))),
        (
            (n_grad != b_grad).fill_null(False),
            pl.format(
                "requires_grad differs: NPU {} vs bench {}",
                _bool_text("_npu_grad"),
                _bool_text("_bench_grad"),
            ),
        ),
        (
            (pl.col("Role") == "output")
            & norm.is_not_null()
            & norm.is_not_nan()
            & (pl.col("_input_norm") < 10.0)
            & (norm > 50.0),
            pl.lit("input NormRelativeErr < 10% but output > 50%"),
        ),
    ]


def _joined(checks: list[tuple[pl.Expr, pl.Expr]]) -> pl.Expr:
    """The messages of the failed checks joined by ``"; "`` (null when none failed)."""
    parts = [pl.when(failed.fill_null(False)).then(message) for failed, message in checks]
    joined = pl.concat_str(parts, separator="; ", ignore_nulls=True)
    return pl.when(joined == "").then(None).otherwise(joined)


def _errors() -> pl.Expr:
    """msprobe's error rules; the first three cases stop at one message, as msprobe does."""
    tensor = pl.col("_npu_tensor")
    return (
        pl.when(~pl.col("_has_bench"))
        .then(pl.format("no bench record {} in {}", pl.col("_suffix"), pl.col("_bench_entry")))
        .when(tensor != pl.col("_bench_tensor"))
        .then(pl.lit("tensor on one side, plain value on the other"))
        .when(~tensor)
        .then(
            pl.when(pl.col("_npu_value").fill_null("") != pl.col("_bench_value").fill_null("")).then(
                pl.format("argument differs: NPU {} vs bench {}", _text("_npu_value"), _text("_bench_value"))
            )
        )
        .otherwise(_joined(_tensor_checks()))
    )


def _warning_mask() -> pl.Expr:
    norm = pl.col("NormRelativeErr")
    return (
        (pl.col("Role") == "output")
        & norm.is_not_null()
        & norm.is_not_nan()
        & (norm != 0)
        & (norm > 10.0 * pl.col("_input_norm"))
    ).fill_null(False)


def _flat_rule() -> pl.Expr:
    """msprobe -da: an output statistic's relative error > 50 %, counted only when finite."""
    over = [(pl.col(r).is_finite() & (pl.col(r) > 50.0)).fill_null(False) for r in REL]
    return (pl.col("Role") == "output") & pl.any_horizontal(over)


def _input_norm(no_input_rules: frozenset[str]) -> pl.Expr:
    """The largest deviation of an entry's input and parameter tensors (inf for collectives)."""
    is_input = pl.col("Role").is_in(["input", "parameters"]) & pl.col("_npu_tensor")
    largest = pl.when(is_input).then(pl.col("_tensor_dev")).max().over("_job", "Entry").fill_null(0.0)
    return pl.when(pl.col("_api").is_in(list(no_input_rules))).then(math.inf).otherwise(largest)


def msprobe_text(value: float | None) -> str:
    """A relative error as msprobe writes it: ``"12.5%"``, ``"0"``, ``"inf"``, ``"nan"``, ``"N/A"``."""
    if value is None:
        return "N/A"
    if value == 0:
        return "0"
    if math.isinf(value) or math.isnan(value):
        return str(value)
    return f"{value:.6g}%"


def _warning_messages(frame: pl.DataFrame) -> pl.Series:
    """The warning text, formatted in Python (as msprobe prints numbers) for the few warning rows."""

    def fmt(r: dict) -> str:
        return (
            f"output NormRelativeErr {msprobe_text(r['NormRelativeErr'])} > 10x "
            f"the inputs' {msprobe_text(r['_input_norm'])}"
        )

    values = (
        [
            fmt(r) if w else None
            for r, w in zip(
                frame.select("NormRelativeErr", "_input_norm").iter_rows(named=True),
                frame["_warning"],
                strict=False,
            )
        ]
        if frame["_warning"].any()
        else [None] * frame.height
    )
    return pl.Series("_warn_text", values, dtype=pl.Utf8)


def rules(raw: pl.DataFrame, not_compared: frozenset[str], no_input_rules: frozenset[str]) -> pl.DataFrame:
    """Differences, relative errors, msprobe's rules, Result, Err_message, Deviation, -da flags."""
    lazy = raw.lazy().with_columns(
        *[(pl.col(n) - pl.col(b)).alias(f"{s} diff") for s, n, b in zip(STATS, _NPU, _BENCH, strict=False)],
        *[_rel(pl.col(n), pl.col(b)).alias(r) for r, n, b in zip(REL, _NPU, _BENCH, strict=False)],
        _new_nonfinite().alias("_new_nonfinite"),
    )
    lazy = lazy.with_columns(_deviation().alias("_tensor_dev")).with_columns(
        _input_norm(no_input_rules).alias("_input_norm")
    )
    f = lazy.with_columns(
        _errors().alias("_errors"), _warning_mask().alias("_warning"), _flat_rule().alias("msprobe -da flags")
    ).collect()
    f = f.with_columns(_warning_messages(f))
    return _finish(f, not_compared)


def _finish(f: pl.DataFrame, not_compared: frozenset[str]) -> pl.DataFrame:
    # a record refused when it was read (a data_name leading out) is an error too
    has_error = pl.col("_errors").is_not_null() | pl.col("_npu_error").is_not_null()
    message = pl.concat_str(
        [pl.col("_errors"), pl.col("_warn_text"), pl.col("_npu_error")], separator="; ", ignore_nulls=True
    )
    skipped = pl.col("_api").is_in(list(not_compared))
    return (
        f.lazy()
        .with_columns(
            pl.when(skipped)
            .then(pl.lit("pass"))
            .when(has_error)
            .then(pl.lit("error"))
            .when(pl.col("_warning"))
            .then(pl.lit("warning"))
            .otherwise(pl.lit("pass"))
            .alias("Result"),
            pl.when(skipped)
            .then(
                pl.format(
                    "not compared: msprobe skips {} (uninitialised memory or a conversion)", pl.col("_api")
                )
            )
            .otherwise(message)
            .alias("Err_message"),
            pl.when(skipped)
            .then(0.0)
            .when(pl.col("_npu_tensor"))
            .then(pl.col("_tensor_dev"))
            .when(has_error)
            .then(math.inf)
            .otherwise(0.0)
            .alias("Deviation"),
            pl.when(skipped).then(False).otherwise(pl.col("msprobe -da flags")).alias("msprobe -da flags"),
        )
        .collect()
    )
