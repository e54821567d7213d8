"""Statistics-mode comparison of paired msprobe entries, msprobe's columns and rules, and
a first-divergence answer that reasons along the call order and the module tree.

One row per NPU record (tensor or plain argument) of every entry, plus one row per
unmatched entry.  Columns named as msprobe names them:

* ``Max diff``, ``Min diff``, ``Mean diff``, ``L2norm diff``: NPU - bench;
* ``MaxRelativeErr`` ... ``NormRelativeErr``: ``|diff / bench| * 100`` (percent, as msprobe
  prints ``"x%"``), ``0`` when identical, ``inf`` when the bench value is 0; null when a
  statistic is missing.  :func:`msprobe_text` formats one as msprobe writes it;
* ``Result`` (``pass`` / ``warning`` / ``error`` / ``unmatched``) and ``Err_message``.

Error rules (msprobe's): the NPU Max/Min is NaN/Inf while the bench's is finite; the
entry's inputs have NormRelativeErr < 10 % but this output > 50 %; dtype or shape
mismatch; a plain argument that differs; md5 (CRC) mismatch.  Warning rule: an output's
NormRelativeErr more than 10x the largest of its entry's inputs.

msprobe's own first-difference rule (``-da``) flags an API when an output statistic's
relative error exceeds 50 % *as a "%" string*, so an Inf/NaN output is never flagged.
:func:`first_divergence` instead marks an entry *introduced* when its outputs are bad
(non-finite where the bench is finite, NormRelativeErr above ``bad``, or a CRC change)
while its inputs are good, *inherited* when the inputs an earlier call produced were bad
already, and *given* when its own inputs (model inputs, weights: produced by no earlier
call) already differ beyond the same bound, so the two runs were not fed the same data;
a jump is an output error at least 10x its inputs', drift is less.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from dumpscope.core.comparison.metrics import COUNT_COLUMNS, EXTRA_METRICS, MSACCUCMP_METRICS, compare_arrays
from dumpscope.core.comparison.msprobe import stat_columns
from dumpscope.core.comparison.msprobe.pairing import EntryPair, Mapping, Pairing
from dumpscope.core.comparison.msprobe.stat_columns import msprobe_text
from dumpscope.core.dumps import TensorReadError
from dumpscope.core.formats.msprobe import Entry, MsprobeRank, Record, load_tensor, split_name
from dumpscope.core.vocabulary import Health

STATS = ("Max", "Min", "Mean", "L2norm")
REL = ("MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr", "NormRelativeErr")
#: NormRelativeErr (percent) above which an output is "bad" for the divergence answer.
BAD_NORM_PERCENT = 5.0
#: Tensor mode: our full per-tensor metric set (msaccucmp's columns, SQNR, tolerance, NaN/Inf counts).
_TENSOR_METRICS = MSACCUCMP_METRICS + EXTRA_METRICS + COUNT_COLUMNS
#: APIs msprobe does not compare at all (their outputs are uninitialised memory or conversions).
NOT_COMPARED = frozenset({"empty", "empty_like", "numpy", "to", "setitem", "__setitem__"})
#: Collectives whose input-based rules msprobe skips (inputs and outputs are different shards).
NO_INPUT_RULES = frozenset(
    {"_reduce_scatter_base", "_all_gather_base", "all_to_all_single", "batch_isend_irecv"}
)
_SEVERITY = {"pass": 0, "warning": 1, "error": 2, "unmatched": 1}
#: msprobe's Result as the app's health word.
HEALTH = {"pass": "ok", "warning": "warn", "error": "fail", "unmatched": "unmatched"}


def beyond_bound() -> pl.Expr:
    """Beyond the bound of the first-divergence rule (NormRelativeErr > 5 %, new Inf/NaN, CRC change)
    while msprobe's own rules pass or only warn: the row fails here too, so the list, its
    first divergent row, the per-rank counts and the diagnosis agree."""
    judged = (pl.col("Result") != "error") & (pl.col("Result") != "unmatched")
    return judged & (pl.col("Deviation") > BAD_NORM_PERCENT)


def health() -> pl.Expr:
    """Each row's health: msprobe's Result, and ``fail`` beyond the divergence bound
    (:func:`beyond_bound`)."""
    msprobe = pl.col("Result").replace_strict(HEALTH, default="fail")
    return pl.when(beyond_bound()).then(pl.lit("fail")).otherwise(msprobe)


def failing_rows(frame: pl.DataFrame) -> int:
    """Rows whose :func:`health` is ``fail``: the one count of failing rows (CLI, summary, app)."""
    return int(frame.select((health() == Health.FAIL).sum()).item()) if frame.height else 0


def rel_err(npu: float | None, bench: float | None) -> float | None:
    """``|npu - bench| / |bench| * 100``; 0 when identical, inf when bench is 0."""
    if npu is None or bench is None:
        return None
    if npu == bench:
        return 0.0
    diff = npu - bench
    if bench == 0:
        return math.inf if not math.isnan(diff) else math.nan
    return abs(diff / bench) * 100.0


def _diff(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b


def _nonfinite(x: float | None) -> bool:
    return x is not None and not math.isfinite(x)


@dataclass
class _Row:
    npu: Record
    bench: Record | None
    pair: EntryPair
    _rels: tuple[float | None, ...] | None = None

    def rels(self) -> tuple[float | None, ...]:
        """The four relative errors (percent), computed once."""
        if self._rels is None:
            bench = self.bench.stats if self.bench is not None else (None,) * 4
            self._rels = tuple(rel_err(a, b) for a, b in zip(self.npu.stats, bench, strict=False))
        return self._rels

    def new_nonfinite(self) -> bool:
        """NPU Max/Min is NaN/Inf while the bench's is finite."""
        if self.bench is None:
            return False
        return any(
            _nonfinite(a) and b is not None and math.isfinite(b)
            for a, b in zip(self.npu.stats[:2], self.bench.stats[:2], strict=False)
        )

    def norm_rel(self) -> float | None:
        return self.rels()[3]

    def deviation(self) -> float:
        """For the divergence answer: inf when a non-finite value is new, else NormRelativeErr."""
        if self.new_nonfinite():
            return math.inf
        if (
            self.bench is not None
            and self.npu.md5
            and self.bench.md5
            and self.npu.md5 != self.bench.md5
            and self.npu.stats[3] is None
        ):
            return math.inf
        value = self.norm_rel()
        return 0.0 if value is None or math.isnan(value) else value


def _pair_records(pair: EntryPair, mapping: Mapping) -> Iterator[_Row]:
    bench = {r.suffix: r for r in pair.bench.records}
    by_name = {r.name: r for r in pair.bench.records}
    for rec in pair.npu.records:
        mapped = mapping.record_name(rec.name)
        yield _Row(rec, by_name.get(mapped) if mapped else bench.get(rec.suffix), pair)


def _entry_input_norm(rows: list[_Row]) -> float:
    """The largest NormRelativeErr (percent) of an entry's input and parameter tensors."""
    values = [r.deviation() for r in rows if r.npu.role in ("input", "parameters") and r.npu.is_tensor]
    return max(values, default=0.0)


def _errors(row: _Row, input_norm: float) -> list[str]:
    """msprobe's error rules for one row (empty: no error)."""
    npu, bench = row.npu, row.bench
    if bench is None:
        return [f"no bench record {npu.suffix} in {row.pair.bench.name}"]
    if npu.is_tensor != bench.is_tensor:
        return ["tensor on one side, plain value on the other"]
    if not npu.is_tensor:
        return (
            [f"argument differs: NPU {npu.value} vs bench {bench.value}"] if npu.value != bench.value else []
        )
    checks = (
        (row.new_nonfinite(), "NPU Max/Min is inf/nan while the bench is finite"),
        (npu.dtype != bench.dtype, f"dtype mismatch: NPU {npu.dtype} vs bench {bench.dtype}"),
        (
            npu.shape != bench.shape,
            f"shape mismatch: NPU {list(npu.shape or [])} vs bench {list(bench.shape or [])}",
        ),
        (
            bool(npu.md5 and bench.md5 and npu.md5 != bench.md5),
            f"md5 (CRC-32) differs: {npu.md5} vs {bench.md5}",
        ),
        (
            None not in (npu.requires_grad, bench.requires_grad) and npu.requires_grad != bench.requires_grad,
            f"requires_grad differs: NPU {npu.requires_grad} vs bench {bench.requires_grad}",
        ),
        (_norm_jump(row, input_norm), "input NormRelativeErr < 10% but output > 50%"),
    )
    return [message for failed, message in checks if failed]


def _norm_jump(row: _Row, input_norm: float) -> bool:
    norm = row.norm_rel()
    return row.npu.role == "output" and norm is not None and input_norm < 10.0 and norm > 50.0


def _warnings(row: _Row, input_norm: float) -> list[str]:
    norm = row.norm_rel()
    if row.npu.role != "output" or norm is None or math.isnan(norm) or norm == 0:
        return []
    if norm > 10.0 * input_norm:
        return [f"output NormRelativeErr {msprobe_text(norm)} > 10x the inputs' {msprobe_text(input_norm)}"]
    return []


def _flat_rule(row: _Row) -> bool:
    """msprobe -da: an output statistic's relative error > 50 %, counted only when finite."""
    return row.npu.role == "output" and any(
        v is not None and math.isfinite(v) and v > 50.0 for v in row.rels()
    )


#: The key of a tensor-mode metric row that says why its tensors were not compared (then an error row).
TENSOR_ERROR = "_tensor_error"
#: One record's tensor-mode metrics (:data:`_TENSOR_METRICS`), and :data:`TENSOR_ERROR` when not compared.
MetricRow = dict[str, object]


def _tensor_metrics(row: _Row) -> MetricRow:
    """Our full metric set when both records name a tensor file (tensor mode).  A record
    naming no file on either side (statistics only) has no metrics; a file that cannot be
    read (missing, refused, truncated, not a tensor) makes the row an error that says why
    (:data:`TENSOR_ERROR`), never a silent pass."""
    empty: MetricRow = dict.fromkeys(_TENSOR_METRICS)
    if row.bench is None:
        return empty
    sides = (("NPU", row.npu), ("bench", row.bench))
    if all(r.data_path is None and r.error is None for _s, r in sides):
        return empty
    arrays: list[np.ndarray] = []
    why: list[str] = []
    for side, record in sides:
        try:
            arrays.append(load_tensor(record))
        except (TensorReadError, ValueError, OSError, MemoryError) as exc:
            if side == "bench" or record.error is None:  # the NPU record's own error is in the message
                why.append(f"{side} tensor not read: {exc}")
    try:
        metrics = compare_arrays(arrays[1], arrays[0]) if len(arrays) == 2 else None
    except (TensorReadError, ValueError) as exc:
        why.append(f"tensors not compared: {exc}")
    if why or metrics is None:
        return empty | ({TENSOR_ERROR: "; ".join(why)} if why else {})
    return {k: getattr(metrics, k, None) for k in _TENSOR_METRICS}


def _row_dict(row: _Row, input_norm: float, tensors: bool) -> dict[str, object]:
    npu = row.npu
    errors, warnings = _errors(row, input_norm), _warnings(row, input_norm)
    out = _names(row) | _stat_columns(row)
    out["Result"] = "error" if errors or npu.error else "warning" if warnings else "pass"
    out["Err_message"] = "; ".join(errors + warnings + ([npu.error] if npu.error else []))
    out["Deviation"] = row.deviation() if npu.is_tensor else (math.inf if errors else 0.0)
    out["msprobe -da flags"] = _flat_rule(row)
    out["NPU_Stack_Info"] = row.pair.npu.stack
    if tensors:
        metrics = _tensor_metrics(row)
        why = metrics.pop(TENSOR_ERROR, None)
        out.update(metrics)
        if why:
            said = out["Err_message"]
            out["Result"], out["Err_message"] = "error", "; ".join(str(m) for m in (said, why) if m)
    return out


def _names(row: _Row) -> dict[str, object]:
    npu, bench = row.npu, row.bench or Record("", "", "", "", False)
    return {
        "NPU Name": npu.name,
        "Bench Name": bench.name or None,
        "Entry": row.pair.npu.name,
        "Bench Entry": row.pair.bench.name,
        "Order": row.pair.npu.order,
        "Role": npu.role,
        "Pairing": row.pair.label,
        "Parent": row.pair.npu.parent,
        "NPU Dtype": npu.dtype,
        "Bench Dtype": bench.dtype,
        "NPU Tensor Shape": _shape_text(npu),
        "Bench Tensor Shape": _shape_text(bench),
        "NPU MD5": npu.md5,
        "Bench MD5": bench.md5,
    }


def _stat_columns(row: _Row) -> dict[str, object]:
    nstats = row.npu.stats
    bstats = row.bench.stats if row.bench else (None,) * 4
    out: dict[str, object] = {
        f"{s} diff": _diff(a, b) for s, a, b in zip(STATS, nstats, bstats, strict=False)
    }
    out.update(dict(zip(REL, row.rels(), strict=False)))
    out.update({f"NPU {s.lower()}": v for s, v in zip(STATS, nstats, strict=False)})
    out.update({f"Bench {s.lower()}": v for s, v in zip(STATS, bstats, strict=False)})
    return out


def _not_compared(row: dict[str, object], api: str) -> dict[str, object]:
    """msprobe compares nothing for these APIs (uninitialised memory, conversions)."""
    return row | {
        "Result": "pass",
        "Deviation": 0.0,
        "msprobe -da flags": False,
        "Err_message": f"not compared: msprobe skips {api} (uninitialised memory or a conversion)",
    }


def _shape_text(record: Record | None) -> str | None:
    if record is None or record.shape is None:
        return None
    return str(list(record.shape))


def _unmatched_row(item, tensors: bool) -> dict[str, object]:
    out: dict[str, object] = {
        "NPU Name" if item.side == "npu" else "Bench Name": item.entry.name,
        "Entry": item.entry.name if item.side == "npu" else None,
        "Bench Entry": item.entry.name if item.side == "bench" else None,
        "Order": item.entry.order,
        "Pairing": f"{item.side}-only",
        "Parent": item.entry.parent,
        "Result": "unmatched",
        "Err_message": item.reason,
        "msprobe -da flags": False,
    }
    return out


_SCHEMA: dict[str, pl.DataType] = {
    **stat_columns.IDENTITY,
    **{f"{s} diff": pl.Float64() for s in STATS},
    **{r: pl.Float64() for r in REL},
    **{f"NPU {s.lower()}": pl.Float64() for s in STATS},
    **{f"Bench {s.lower()}": pl.Float64() for s in STATS},
    "NPU MD5": pl.Utf8(),
    "Bench MD5": pl.Utf8(),
    "Result": pl.Utf8(),
    "Err_message": pl.Utf8(),
    "Deviation": pl.Float64(),
    "msprobe -da flags": pl.Boolean(),
    "NPU_Stack_Info": pl.Utf8(),
}


def compare_statistics(
    pairing: Pairing, mapping: Mapping | None = None, *, tensors: bool = False
) -> pl.DataFrame:
    """The statistics frame of a pairing (see the module docstring).  With ``tensors``,
    records saved as ``.npy`` on both sides also get our per-tensor metrics.

    Columnar (:mod:`stat_columns`): records go straight into columns and msprobe's rules
    run as Polars expressions; :func:`compare_statistics_rows` is the per-record reference."""
    return compare_statistics_many([pairing], mapping, tensors=tensors)[0]


def compare_statistics_many(
    pairings: list[Pairing], mapping: Mapping | None = None, *, tensors: bool = False
) -> list[pl.DataFrame]:
    """:func:`compare_statistics` of several pairings (e.g. every rank of a step) with the
    rules run once over all their records, then split: one frame each, never merged."""
    mapping = mapping or Mapping()
    raw = pl.concat([stat_columns.raw_columns(p, mapping, job) for job, p in enumerate(pairings)])
    ruled = stat_columns.rules(raw, NOT_COMPARED, NO_INPUT_RULES)
    parts = (
        ruled.partition_by("_job", as_dict=True, maintain_order=True) if len(pairings) > 1 else {(0,): ruled}
    )  # one pairing: no copy
    empty = ruled.clear()
    return [_finish_frame(parts.get((job,), empty), p, mapping, tensors) for job, p in enumerate(pairings)]


def _finish_frame(
    frame: pl.DataFrame,
    pairing: Pairing,
    mapping: Mapping,
    tensors: bool,
    metrics: list[MetricRow] | None = None,
) -> pl.DataFrame:
    """One pairing's ruled rows: tensor metrics (``metrics``: one dict per raw row, already
    computed; default: computed here), the schema's columns, unmatched rows, call order."""
    schema = dict(_SCHEMA) | ({k: pl.Float64 for k in _TENSOR_METRICS} if tensors else {})
    if tensors:
        frame = _tensor_errors(
            frame.with_columns(metric_series(tensor_rows(pairing, mapping) if metrics is None else metrics))
        )
    frame = frame.select([pl.col(c).cast(t) for c, t in schema.items()])
    if not pairing.unmatched and frame["Order"].is_sorted():  # the call order already: no copy
        return frame
    unmatched = pl.DataFrame([_unmatched_row(u, tensors) for u in pairing.unmatched], schema=schema)
    return pl.concat([frame, unmatched]).sort("Order", nulls_last=True, maintain_order=True)


def records(pairing: Pairing, mapping: Mapping) -> list[_Row]:
    """Every paired record, in the order of the raw statistics columns."""
    return [row for pair in pairing.pairs for row in _pair_records(pair, mapping)]


def tensor_rows(pairing: Pairing, mapping: Mapping) -> list[MetricRow]:
    """Tensor mode: our per-tensor metrics, record by record (see :func:`records`)."""
    return [_tensor_metrics(row) for row in records(pairing, mapping)]


def metric_series(rows: list[MetricRow]) -> list[pl.Series]:
    """The metric columns of :func:`tensor_rows`-like rows, and why a row's tensors were not compared."""
    return [pl.Series(k, [r[k] for r in rows], dtype=pl.Float64) for k in _TENSOR_METRICS] + [
        pl.Series(TENSOR_ERROR, [r.get(TENSOR_ERROR) for r in rows], dtype=pl.Utf8)
    ]


def _tensor_errors(frame: pl.DataFrame) -> pl.DataFrame:
    """Rows whose tensor files could not be read become errors, the reason added to their message."""
    why = pl.col(TENSOR_ERROR)
    message = pl.concat_str([pl.col("Err_message"), why], separator="; ", ignore_nulls=True)
    return frame.with_columns(
        pl.when(why.is_not_null()).then(pl.lit("error")).otherwise(pl.col("Result")).alias("Result"),
        pl.when(why.is_not_null())
        .then(pl.when(pl.col("Err_message").fill_null("") == "").then(why).otherwise(message))
        .otherwise(pl.col("Err_message"))
        .alias("Err_message"),
    )


def ruled_statistics(pairing: Pairing, mapping: Mapping) -> pl.DataFrame:
    """msprobe's columns and rules for one pairing, one row per record of :func:`records`
    (no unmatched rows, no tensor metrics, raw order): what :func:`finish` completes."""
    return stat_columns.rules(stat_columns.raw_columns(pairing, mapping, 0), NOT_COMPARED, NO_INPUT_RULES)


def finish(ruled: pl.DataFrame, pairing: Pairing, mapping: Mapping, metrics: list[MetricRow]) -> pl.DataFrame:
    """The tensor-mode frame of :func:`ruled_statistics` with the given metric rows: with
    every row computed, the frame ``compare_statistics(..., tensors=True)`` returns."""
    return _finish_frame(ruled, pairing, mapping, True, metrics)


def compare_statistics_rows(
    pairing: Pairing, mapping: Mapping | None = None, *, tensors: bool = False
) -> pl.DataFrame:
    """The per-record reference of :func:`compare_statistics` (a dict per row, rules in
    Python): the same frame, kept as the independent check of the columnar path."""
    mapping = mapping or Mapping()
    rows: list[dict[str, object]] = []
    for pair in pairing.pairs:
        pair_rows = list(_pair_records(pair, mapping))
        api = split_name(pair.npu.name).api
        input_norm = math.inf if api in NO_INPUT_RULES else _entry_input_norm(pair_rows)
        rows += [_row_dict(r, input_norm, tensors) for r in pair_rows]
        if api in NOT_COMPARED:
            rows[len(rows) - len(pair_rows) :] = [
                _not_compared(r, api) for r in rows[len(rows) - len(pair_rows) :]
            ]
    rows += [_unmatched_row(u, tensors) for u in pairing.unmatched]
    schema = dict(_SCHEMA) | ({k: pl.Float64 for k in _TENSOR_METRICS} if tensors else {})
    return pl.DataFrame(rows, schema=schema).sort("Order", nulls_last=True, maintain_order=True)


@dataclass(frozen=True)
class Divergence:
    """Where a step/rank first diverges, and why."""

    entry: str
    order: int
    kind: str
    """``introduced`` (outputs bad, inputs good), ``inherited`` (inputs an earlier call
    produced were bad) or ``given`` (its own inputs, model inputs or weights, already differ)."""
    shape: str
    """``jump`` (output error >= 10x its inputs') or ``drift``."""
    input_deviation: float
    output_deviation: float
    nonfinite: bool
    """The outputs hold Inf/NaN where the bench is finite."""
    missed_by_msprobe: bool
    """msprobe's flat ``-da`` rule would not flag this entry."""
    module_path: tuple[str, ...]
    """The enclosing modules from construct.json, outermost first."""
    local_inputs: tuple[str, ...] = ()
    """Inputs no earlier call produced (weights, constants) that differ from the bench."""
    bench_entry: str | None = None
    """The bench call it was compared with, when its name differs (a re-aligned pair)."""

    def describe(self) -> str:
        where = " > ".join(self.module_path + (self.entry,))
        if self.bench_entry is not None and self.bench_entry != self.entry:
            where += f" (compared with bench {self.bench_entry}: counters shifted)"
        what = (
            "Inf/NaN output while the bench is finite"
            if self.nonfinite
            else f"output NormRelativeErr {msprobe_text(self.output_deviation)}"
        )
        note = " (msprobe's -da rule misses it)" if self.missed_by_msprobe else ""
        local = ", ".join(self.local_inputs)
        if self.kind == "given":
            return (
                f"{where}: its own inputs already differ ({local}): the two runs were not fed the same "
                f"data or weights; {what}{note}"
            )
        local = f"; its own inputs differ: {local}" if local else ""
        return (
            f"{where}: {self.kind} {self.shape}, {what}, upstream inputs "
            f"{msprobe_text(self.input_deviation)}{note}{local}"
        )


@dataclass
class _EntryDev:
    order: int
    upstream: float = 0.0
    """Largest deviation of the inputs that an earlier call produced (inherited)."""
    local: float = 0.0
    """Largest deviation of the inputs no earlier call produced (weights, constants, model inputs)."""
    output: float = 0.0
    nonfinite: bool = False
    flagged: bool = False
    local_names: list[str] = field(default_factory=list)
    bench_entry: str | None = None


_KEY_COLUMNS = ("NPU max", "NPU min", "NPU mean", "NPU l2norm", "NPU MD5")


def _stat_key() -> pl.Expr:
    """Identifies a tensor by its NPU statistics (and CRC): an input equal to an earlier
    output was produced upstream."""
    return pl.concat_str([pl.col(c).cast(pl.Utf8).fill_null("None") for c in _KEY_COLUMNS], separator="|")


def _classified(frame: pl.DataFrame) -> pl.DataFrame:
    """Paired rows with ``_out`` (an output), ``_up`` (an input some earlier output produced)
    and ``_value`` (the deviation), in frame order."""
    f = (
        frame.filter(pl.col("Result") != "unmatched")
        .with_row_index("_i")
        .with_columns(_stat_key().alias("_key"))
    )
    first_out = (
        f.filter(pl.col("Role") == "output").group_by("_key").agg(pl.col("_i").min().alias("_first_out"))
    )
    f = f.join(first_out, on="_key", how="left").sort("_i")
    is_out = pl.col("Role") == "output"
    return f.with_columns(
        is_out.alias("_out"),
        (~is_out & (pl.col("_first_out") < pl.col("_i")).fill_null(False)).alias("_up"),
        pl.col("Deviation").fill_null(0.0).alias("_value"),
    )


def _entry_devs(frame: pl.DataFrame) -> dict[str, _EntryDev]:
    """Per entry: worst output, upstream and local input deviations (columnar)."""
    out, up, value = pl.col("_out"), pl.col("_up"), pl.col("_value")
    local = ~out & ~up
    agg = (
        _classified(frame)
        .group_by("Entry", maintain_order=True)
        .agg(
            pl.col("Order").first(),
            pl.when(out).then(value).max().fill_null(0.0).alias("output"),
            (out & pl.col("Err_message").fill_null("").str.contains("inf/nan", literal=True))
            .any()
            .alias("nonfinite"),
            (out & pl.col("msprobe -da flags").fill_null(False)).any().alias("flagged"),
            pl.when(up).then(value).max().fill_null(0.0).alias("upstream"),
            pl.when(local).then(value).max().fill_null(0.0).alias("local"),
            pl.col("NPU Name").filter(local & (value > 0)).alias("names"),
            pl.col("Bench Entry").first().alias("bench"),
        )
    )
    return {
        str(r["Entry"]): _EntryDev(
            int(r["Order"]),
            r["upstream"],
            r["local"],
            r["output"],
            r["nonfinite"],
            r["flagged"],
            [str(n) for n in r["names"]],
            r["bench"],
        )
        for r in agg.iter_rows(named=True)
    }


def _module_path(rank: MsprobeRank | None, entry: str) -> tuple[str, ...]:
    if rank is None:
        return ()
    path: list[str] = []
    current = rank.entries.get(entry)
    while current is not None and current.parent and current.parent not in path:
        path.append(current.parent)
        current = rank.entries.get(current.parent)
    return tuple(reversed(path))


def _is_leaf(name: str) -> bool:
    """API calls, not module aggregates or parameter gradients: where a fault is introduced."""
    parts = split_name(name)
    return parts.prefix not in ("Module", "Cell") and parts.direction in ("forward", "backward")


def _walk_order(item: tuple[str, _EntryDev]) -> tuple[bool, int]:
    """Forward calls first, in call order; backward calls after them (a training step's order)."""
    return split_name(item[0]).direction != "forward", item[1].order


def bad_entries(
    frame: pl.DataFrame, rank: MsprobeRank | None = None, bad: float = BAD_NORM_PERCENT
) -> list[Divergence]:
    """Every forward API call whose outputs are bad, in NPU call order, each classified.

    A call is ``introduced`` when every input is good (its own weights/constants may
    differ a little: they are named in ``local_inputs``), ``inherited`` when the inputs an
    earlier call produced were bad already, ``given`` when only its own inputs (model
    inputs, weights) were bad: the two runs were not fed the same data.  Module and backward entries are
    skipped (a module is as bad
    as its worst call, see :func:`module_health`); backward calls come after every
    forward call, so a forward divergence is always named first."""
    out = []
    for entry, d in sorted(_entry_devs(frame).items(), key=_walk_order):
        if not _is_leaf(entry) or d.output <= bad:
            continue
        kind = _origin(d, bad)
        shape = "jump" if d.output >= 10.0 * max(d.upstream, d.local if kind == "given" else 0.0) else "drift"
        out.append(
            Divergence(
                entry,
                d.order,
                kind,
                shape,
                d.upstream,
                d.output,
                d.nonfinite,
                not d.flagged,
                _module_path(rank, entry),
                tuple(d.local_names),
                d.bench_entry,
            )
        )
    return out


def _origin(d: _EntryDev, bad: float) -> str:
    """Where a bad output's error comes from: upstream calls, its own inputs, or this call."""
    if d.upstream > bad:
        return "inherited"
    return "given" if d.local > bad else "introduced"


def first_divergence(
    frame: pl.DataFrame, rank: MsprobeRank | None = None, bad: float = BAD_NORM_PERCENT
) -> Divergence | None:
    """The first bad forward API call in NPU call order (see :func:`bad_entries`); None
    when every paired output is within ``bad`` percent NormRelativeErr."""
    found = bad_entries(frame, rank, bad)
    return found[0] if found else None


def module_health(frame: pl.DataFrame, rank: MsprobeRank) -> dict[str, str]:
    """Worst ``Result`` of every entry and of every module above it (construct.json), for
    a collapsible tree: a module takes its worst child's health."""
    worst: dict[str, str] = {}
    for (entry,), group in frame.filter(pl.col("Entry").is_not_null()).group_by("Entry"):
        result = max(group["Result"].to_list(), key=lambda r: _SEVERITY.get(r, 0))
        for name in (str(entry),) + _module_path(rank, str(entry)):
            if _SEVERITY.get(result, 0) >= _SEVERITY.get(worst.get(name, "pass"), 0):
                worst[name] = result
    return worst


def entries_in_order(rank: MsprobeRank) -> list[Entry]:
    """The rank's entries in call order (dump.json order)."""
    return sorted(rank.entries.values(), key=lambda e: e.order)
