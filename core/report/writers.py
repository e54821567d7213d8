"""Writers for a comparison: msaccucmp-compatible CSV, JSON, Parquet and a Markdown report.

The same writers serve the CLI (``dumpscope compare --format ...``) and the UI's export.
(The terminal table is drawn by ``dumpscope.tui.cli.render``: core does not import Rich.)
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

import polars as pl

from dumpscope.core.atomic import atomic_path, atomic_text
from dumpscope.core.comparison.result import CACHED_COLUMN, Comparison
from dumpscope.core.names import display, printable
from dumpscope.core.vocabulary import MSACCUCMP_CSV_NAMES, UNHEALTHY, Health

_METRIC_HEADER = list(MSACCUCMP_CSV_NAMES)
_METRIC_HEADER.insert(_METRIC_HEADER.index("KullbackLeiblerDivergence") + 1, "StandardDeviation")
#: msaccucmp's result_*.csv header (as CANN's msaccucmp writes it), without its optional columns.
MSACCUCMP_HEADER: tuple[str, ...] = (
    "Index",
    "OpType",
    "NPUDump",
    "DataType",
    "Address",
    "GroundTruth",
    "DataType",
    "TensorIndex",
    "Shape",
    *_METRIC_HEADER,
    "CompareFailReason",
)
#: Our columns after msaccucmp's, in the CSV.
EXTRA_CSV_COLUMNS: tuple[str, ...] = (
    "health",
    "index",
    "node_name",
    "kind",
    "target_shape",
    "sqnr_db",
    "within_tolerance",
    "nan_golden",
    "nan_target",
    "inf_golden",
    "inf_target",
    "nonfinite_mismatch",
    "min_golden",
    "max_golden",
    "mean_golden",
    "std_golden",
    "min_target",
    "max_target",
    "mean_target",
    "std_target",
    "band",
    "pairing",
)
#: The frame column behind each metric cell (None: the StandardDeviation cell).
_CSV_METRICS = tuple(MSACCUCMP_CSV_NAMES.get(h) for h in _METRIC_HEADER)


def _num(v: object) -> str:
    """A metric cell: NaN when absent (as msaccucmp writes), 9 significant digits otherwise."""
    if v is None:
        return "NaN"
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return f"{v:.9g}"
    return str(v)


def _shape(v: Iterable[object] | None) -> str:
    return "NaN" if v is None else "[" + ",".join(str(d) for d in v) + "]"


def _std_cell(*vals: float | None) -> str:
    """msaccucmp's ``(mean;std),(mean;std)`` cell from mean/std of the target ("my output"), then the
    golden."""
    if any(v is None for v in vals):
        return "NaN"
    mt, st, mg, sg = (f"{v:.3f}" for v in vals)
    return f"({mt};{st}),({mg};{sg})"


def write_csv(cmp: Comparison, out: str | Path | TextIO) -> None:
    """msaccucmp's column order first (so existing scripts keep working), then ours."""

    def rows(f: TextIO) -> None:
        w = csv.writer(f)
        w.writerow([*MSACCUCMP_HEADER, *EXTRA_CSV_COLUMNS, *_cached_header(cmp.frame)])
        w.writerows(zip(*_csv_columns(cmp.frame), strict=False))

    if isinstance(out, (str, Path)):
        with atomic_text(out, newline="") as f:
            rows(f)
    else:
        rows(out)


def _csv_columns(frame: pl.DataFrame) -> list[list[object]]:
    """The CSV's cells a column at a time (no dict per row: 20k rows cost ~0.2 s less):
    msaccucmp's cells, then ours."""
    col = lambda c: frame[c].to_list()  # noqa: E731 - a local shorthand
    npu, truth = _name_cells(col("side"), col("name"), col("target_name"))
    cells = [
        col("index"),
        _or_nan(col("op_type")),
        npu,
        _or_nan(col("target_dtype")),
        ["NaN"] * frame.height,
        truth,
        _or_nan(col("dtype")),
        [f"{n}:output:0" for n in npu],
        [_shape(v) for v in col("shape")],
    ]
    stats = [col(c) for c in ("mean_target", "std_target", "mean_golden", "std_golden")]
    cells += [
        [_std_cell(*v) for v in zip(*stats, strict=False)] if m is None else _metric_cells(frame[m])
        for m in _CSV_METRICS
    ]
    cells.append([m or "" for m in col("message")])
    cells += [_extra_cells(frame[c]) for c in EXTRA_CSV_COLUMNS]
    if _cached_header(frame):
        cells.append(["true" if v else "false" for v in col(CACHED_COLUMN)])
    return cells


def _cached_header(frame: pl.DataFrame) -> list[str]:
    """The last CSV column of a ``--cache`` run: whether the row was served from the index."""
    return [CACHED_COLUMN] if CACHED_COLUMN in frame.columns else []


def _metric_cells(column: pl.Series) -> list[str]:
    """:func:`_num` over a column; a float column without a call per cell (``NaN`` for null and NaN,
    ``inf``/``-inf`` and 9 significant digits as the format writes them)."""
    if column.dtype.is_float():
        return ["NaN" if v is None or v != v else f"{v:.9g}" for v in column.to_list()]
    return [_num(v) for v in column.to_list()]


def _extra_cells(column: pl.Series) -> list[str]:
    """:func:`_extra_cell` over a column, by its type (empty for null)."""
    if column.name == "target_shape":
        return [_shape(v) for v in column.to_list()]
    if column.dtype.is_float():
        return ["" if v is None else "NaN" if v != v else f"{v:.9g}" for v in column.to_list()]
    if column.dtype == pl.String:
        return ["" if v is None else printable(v) for v in column.to_list()]
    if column.dtype.is_integer():
        return ["" if v is None else str(v) for v in column.to_list()]
    name = column.name
    return [_extra_cell(name, v) for v in column.to_list()]


def _name_cells(
    side: list[str], name: list[str], target_name: list[str | None]
) -> tuple[list[str], list[str]]:
    """msaccucmp's NPUDump and GroundTruth cells: ``NaN`` / ``*`` where a side has no tensor."""
    npu = [
        _text(t if s == "both" else (n if s == "target" else "NaN"))
        for s, n, t in zip(side, name, target_name, strict=False)
    ]
    truth = [_text(n) if s in ("both", "golden") else "*" for s, n in zip(side, name, strict=False)]
    return npu, truth


def _text(v: object) -> str:
    """:func:`printable` of ``str(v)``: a CSV cell holds what a terminal may show."""
    return printable(str(v))


def _or_nan(values: list[object]) -> list[object]:
    return [v or "NaN" for v in values]


def _extra_cell(column: str, v: object) -> str:
    if column == "target_shape":
        return _shape(v if isinstance(v, list) else None)
    if v is None:
        return ""
    return _num(v) if isinstance(v, float) else printable(str(v))


def _json_value(v: object) -> object:
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, str):
        return display(v)
    return v


def frame_records(cmp: Comparison) -> list[dict[str, object]]:
    """Row objects with snake_case keys; non-finite floats become "inf"/"-inf"/"nan"."""
    return list(iter_records(cmp))


def iter_records(cmp: Comparison) -> Iterator[dict[str, object]]:
    """:func:`frame_records` one row at a time (memory: one row, not the whole list)."""
    for r in cmp.public_frame().iter_rows(named=True):
        yield {k: _json_value(v) for k, v in r.items()}


def json_chunks(cmp: Comparison) -> Iterator[str]:
    """The text of ``json.dumps(frame_records(cmp), indent=1)`` row by row, then a newline.

    Streamed: a 100k-row comparison never holds its whole JSON text (nor a list of row
    dicts); the bytes are the same as the one-shot form.
    """
    first = True
    for record in iter_records(cmp):
        yield ("[\n " if first else ",\n ") + indented_json(record, 1)
        first = False
    yield "[]\n" if first else "\n]\n"


def indented_json(value: object, level: int = 0) -> str:
    """``json.dumps(value, indent=1, allow_nan=False)`` as it reads at nesting ``level``.

    The same text, several times faster: ``json`` drops to its pure-Python encoder whenever
    ``indent`` is set, while this formats containers here and every scalar with the C one.
    """
    if isinstance(value, dict) and value:
        pad = "\n" + " " * (level + 1)
        items = (f"{pad}{_SCALAR(str(k))}: {indented_json(v, level + 1)}" for k, v in value.items())
        return "{" + ",".join(items) + "\n" + " " * level + "}"
    if isinstance(value, (list, tuple)) and value:
        pad = "\n" + " " * (level + 1)
        return "[" + ",".join(pad + indented_json(v, level + 1) for v in value) + "\n" + " " * level + "]"
    return _SCALAR(value)


_SCALAR = json.JSONEncoder(allow_nan=False).encode


def write_json(cmp: Comparison, out: str | Path | TextIO) -> None:
    if isinstance(out, (str, Path)):
        with atomic_text(out) as fh:
            fh.writelines(json_chunks(cmp))
    else:
        out.writelines(json_chunks(cmp))


def write_parquet(cmp: Comparison, out: str | Path) -> None:
    with atomic_path(out) as tmp:
        cmp.save(tmp)


def printable_strings(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with every text cell :func:`printable` (for CSV: what a terminal may show)."""
    texts = [c for c, t in frame.schema.items() if t == pl.String]
    if not texts:
        return frame
    return frame.with_columns(pl.col(c).map_elements(printable, return_dtype=pl.String) for c in texts)


def write_frame(frame: pl.DataFrame, fmt: str, out: str | Path | None, replace: bool = True) -> None:
    """A plain frame (per-step/rank runs, three-way, msprobe) as ``csv``, ``json`` or ``parquet`` to
    ``out`` (a path, ``-``; None: standard output). CSV names are :func:`printable`; JSON keeps the
    exact text with JSON's ASCII escapes; Parquet the exact values.  ``replace=False``: an existing
    ``out`` is refused, not replaced (msaccucmp's timestamped ``-out`` names)."""
    from dumpscope.core.atomic import atomic_binary

    if fmt == "parquet":
        with atomic_path(out or "-", replace=replace) as tmp:
            frame.write_parquet(tmp)
    elif fmt == "csv" and out:
        with atomic_binary(out, replace=replace) as fh:
            printable_strings(frame).write_csv(fh)
    elif fmt == "csv":
        sys.stdout.write(printable_strings(frame).write_csv())
    else:
        rows = [{k: _json_value(v) for k, v in r.items()} for r in frame.iter_rows(named=True)]
        with atomic_text(out or "-", replace=replace) as fh:
            fh.write(indented_json(rows) + "\n")


#: The health words a Markdown summary counts, in its column order.
_TABLE_HEALTHS = (Health.OK, Health.WARN, Health.FAIL, Health.ERROR, Health.UNMATCHED)


def _md_escape(text: str) -> str:
    return printable(text).replace("|", "\\|")


def _cosine_worst_first() -> pl.Expr:
    """Cosine as a sort key where NaN/Inf in the target (or on one side only) is the worst:
    the cosine of such a row covers only the positions finite on both sides."""
    nonfinite = (
        pl.col("nonfinite_mismatch").fill_null(0)
        + pl.col("nan_target").fill_null(0)
        + pl.col("inf_target").fill_null(0)
    ) > 0
    return pl.when(nonfinite).then(-3.0).otherwise(pl.col("cosine_similarity").fill_null(-2.0))


def worst_rows(cmp: Comparison, n: int = 10) -> pl.DataFrame:
    """The ``n`` rows a reader should look at first: failures, then lowest cosine."""
    rank = pl.col("health").replace_strict(
        {"error": 0, "fail": 1, "warn": 2}, default=3, return_dtype=pl.Int8
    )
    return (
        cmp.frame.with_row_index("_row")
        .filter(pl.col("health").is_in(list(UNHEALTHY)))
        .sort([rank, _cosine_worst_first(), "_row"])
        .head(n)
    )


def markdown_report(
    cmp: Comparison, command: str | None = None, worst: int = 10, base: str | Path | None = None
) -> str:
    """A short shareable report: inputs, verdict counts, first divergent layer, worst rows.

    Paths are written relative to ``base`` (the report's folder when it is a file; the
    current directory otherwise) and the report says so: no absolute local path leaks
    into a report that is shared.
    """
    sections = (
        _md_inputs(cmp, Path(base) if base is not None else None),
        _md_counts(cmp),
        _md_first(cmp),
        _md_warnings(cmp),
        _md_worst(cmp, worst),
        _md_unmatched(cmp),
        _md_reproduce(command),
    )
    return "\n".join(line for section in sections for line in section) + "\n"


def relative_path(path: object, base: Path | None) -> str:
    """``path`` relative to ``base`` (default: the current directory); as given when not a path."""
    import os

    if not isinstance(path, (str, Path)) or not str(path):
        return str(path)
    try:
        return Path(os.path.relpath(Path(path).resolve(), (base or Path.cwd()).resolve())).as_posix()
    except ValueError:  # another drive on Windows
        return str(path)


def _md_inputs(cmp: Comparison, base: Path | None) -> list[str]:
    meta = cmp.meta
    where = "this report's folder" if base is not None else "the folder the command ran in"
    lines = [
        "# dumpscope comparison",
        "",
        f"Paths are relative to {where}.",
        "",
        f"- golden: `{relative_path(meta.golden, base)}` ({meta.golden_format})",
        f"- target: `{relative_path(meta.target, base)}` ({meta.target_format})",
    ]
    if meta.model:
        lines.append(f"- model: `{relative_path(meta.model, base)}`")
    return lines + [f"- preset: `{meta.preset}`; order from {meta.order}", ""]


def _md_counts(cmp: Comparison) -> list[str]:
    counts = cmp.health_counts()
    return [
        "| ok | warn | fail | error | unmatched |",
        "|---|---|---|---|---|",
        "| " + " | ".join(str(counts.get(h, 0)) for h in _TABLE_HEALTHS) + " |",
        "",
    ]


def _md_first(cmp: Comparison) -> list[str]:
    first = cmp.first_divergent()
    if first is None:
        return ["**No divergent layer**: every compared tensor is within its band."]
    r = cmp.frame.row(first, named=True)
    return [
        f"**First divergent layer**: #{r['index']} `{_md_escape(r['name'])}` ({r['op_type'] or '?'}) "
        f"is **{r['health']}**: {_md_escape(r['message'] or '')}"
    ]


def _md_warnings(cmp: Comparison) -> list[str]:
    warnings = cmp.warnings
    if not warnings:
        return []
    lines = ["", "## Warnings", ""] + [f"- {_md_escape(w)}" for w in warnings[:20]]
    if len(warnings) > 20:
        lines.append(f"- … and {len(warnings) - 20} more")
    return lines


def _md_worst(cmp: Comparison, worst: int) -> list[str]:
    bad = worst_rows(cmp, worst)
    if not bad.height:
        return []
    lines = [
        "",
        f"## Worst rows (up to {worst})",
        "",
        "| # | name | op | health | cosine | max abs err | rel. distance | NaN/Inf (t) | why |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in bad.iter_rows(named=True):
        lines.append(
            f"| {r['index']} | `{_md_escape(r['name'])}` | {r['op_type'] or ''} | {r['health']} | "
            f"{_num(r['cosine_similarity'])} | {_num(r['max_absolute_error'])} | "
            f"{_num(r['relative_euclidean_distance'])} | "
            f"{(r['nan_target'] or 0)}/{(r['inf_target'] or 0)} | {_md_escape(r['message'] or '')} |"
        )
    return lines


def _md_unmatched(cmp: Comparison) -> list[str]:
    ug, ut = cmp.meta.unmatched_golden or 0, cmp.meta.unmatched_target or 0
    if not (ug or ut):
        return []
    return [
        "",
        f"Unmatched tensors: {ug} golden, {ut} target (see `--format json`, rows with health `unmatched`).",
    ]


def _md_reproduce(command: str | None) -> list[str]:
    return (
        ["", "Reproduce (from the folder the command ran in):", "", f"```\n{command}\n```"] if command else []
    )


def write_markdown(cmp: Comparison, out: str | Path | TextIO, command: str | None = None) -> None:
    base = Path(out).resolve().parent if isinstance(out, (str, Path)) else None
    text = markdown_report(cmp, command, base=base)
    if isinstance(out, (str, Path)):
        with atomic_text(out) as fh:
            fh.write(text)
    else:
        out.write(text)


def write_sigmastar(cmp: Comparison, out: str | Path | TextIO) -> None:
    """SigmaStar's auto_dump_debug.sh listing (see :mod:`dumpscope.core.report.sigmastar`)."""
    from dumpscope.core.report.sigmastar import write_listing

    write_listing(cmp, out)


WRITERS = {"csv": write_csv, "json": write_json, "markdown": write_markdown, "sigmastar": write_sigmastar}


def to_text(cmp: Comparison, fmt: str) -> str:
    """A writer's output as a string (for stdout)."""
    buf = io.StringIO()
    WRITERS[fmt](cmp, buf)
    return buf.getvalue()
