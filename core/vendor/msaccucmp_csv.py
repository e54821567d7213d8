"""Import a msaccucmp / msit ``result_*.csv`` as a metrics table.

The CSV (as msaccucmp and msit write it) repeats column names (``DataType`` and ``Address``
once for each side), so columns are taken by position relative to ``NPUDump`` and
``GroundTruth``.  Optional columns (``OpSequence``, ``OverFlow``, the golden
``Address``, msit's ``IsNpuOps``/``IsOutputNode``/``IsPrecisionError``) may be absent.

Cells: ``NaN`` means *not computed* and becomes null; ``nan``/``inf`` are computed
values and stay NaN/Inf.  ``StandardDeviation`` ``"(mean;std),(mean;std)"`` (target
first) is split into four columns.

``blind_spot`` names the rows where msaccucmp's verdict cannot be trusted: metrics that
are NaN (msit's analyser skips them and calls the row fine) and an all-zero golden
(relative Euclidean distance reported as 0 although the target differs).
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import polars as pl

from dumpscope.core.dumps import DumpError
from dumpscope.core.vocabulary import MSACCUCMP_CSV_NAMES

METRIC_COLUMNS: dict[str, str] = MSACCUCMP_CSV_NAMES
STD_COLUMNS = ("mean_target", "std_target", "mean_golden", "std_golden")
FLAG_COLUMNS: dict[str, str] = {
    "OverFlow": "overflow",
    "IsNpuOps": "is_npu_ops",
    "IsOutputNode": "is_output_node",
    "IsPrecisionError": "is_precision_error",
}

SCHEMA: dict[str, pl.DataType] = {
    "index": pl.Int64(),
    "op_sequence": pl.Int64(),
    "name": pl.String(),
    "target_name": pl.String(),
    "node_name": pl.String(),
    "op_type": pl.String(),
    "kind": pl.String(),
    "tensor_index": pl.String(),
    "shape": pl.List(pl.Int64()),
    "dtype": pl.String(),
    "target_dtype": pl.String(),
    "target_address": pl.String(),
    "golden_address": pl.String(),
    **{c: pl.Float64() for c in METRIC_COLUMNS.values()},
    **{c: pl.Float64() for c in STD_COLUMNS},
    **{c: pl.Boolean() for c in FLAG_COLUMNS.values()},
    "message": pl.String(),
    "blind_spot": pl.String(),
    "printed": pl.Struct({c: pl.String() for c in METRIC_COLUMNS.values()}),
}
"""``printed``: each metric cell's text as the tool printed it (``1.000000``: its precision), for display;
the metric columns hold the numbers."""

_REQUIRED = ("Index", "OpType", "NPUDump", "GroundTruth", "TensorIndex", "CosineSimilarity")
_STD_RE = re.compile(r"\(\s*([^;()]*);\s*([^;()]*)\),\s*\(\s*([^;()]*);\s*([^;()]*)\)")
_MISSING = {"", "NaN", "N/A", "None"}

#: ``dumpscope formats``: this side file's name and how it is recognised.
SIDE_FILE = (
    "msaccucmp-result-csv",
    "a CSV whose header holds msaccucmp/msit result_*.csv columns (NPUDump, GroundTruth, TensorIndex, "
    "CosineSimilarity...); for open",
)


def _float(cell: str) -> float | None:
    """``NaN`` (not computed) -> None; ``nan``/``inf`` -> the float."""
    c = cell.strip()
    if c in _MISSING:
        return None
    try:
        return float(c)
    except ValueError:
        return None


def _flag(cell: str) -> bool | None:
    c = cell.strip().upper()
    return True if c == "YES" else False if c == "NO" else None


def _shape(cell: str) -> list[int] | None:
    c = cell.strip()
    if not (c.startswith("[") and c.endswith("]")):
        return None
    dims = _dims(c[1:-1])
    return dims if dims is not None and all(0 <= d < 2**63 for d in dims) else None


def _dims(inner: str) -> list[int] | None:
    """The comma-separated integers between a shape's brackets (None when one is not)."""
    try:
        return [int(d) for d in inner.replace(" ", "").split(",") if d]
    except ValueError:
        return None


def _text(cell: str) -> str | None:
    c = cell.strip()
    return None if c in _MISSING else c


def _finite(cell: str) -> float | None:
    """A cell's finite number (None when not computed, not a number, NaN or infinite)."""
    value = _float(cell)
    return value if value is not None and math.isfinite(value) else None


def _tensor_names(
    npu: str | None, truth: str | None, tensor_index: str | None
) -> tuple[str | None, str | None, str]:
    """``(golden name, target name, kind)`` from ``TensorIndex`` (``op:output:0`` / ``op:input:1``).

    Names follow the dump readers: output 0 is the op name, output N is ``op:N``,
    input N of a target op is ``op:input:N``."""
    role, idx = _role_index(tensor_index)
    if role == "input":
        return None, (f"{npu}:input:{idx}" if npu else None), "op_input"
    suffix = "" if idx == 0 else f":{idx}"
    return _golden_name(truth, suffix), (f"{npu}{suffix}" if npu else None), "activation"


def _role_index(tensor_index: str | None) -> tuple[str, int]:
    """``("output"|"input", index)`` of ``op:output:0``-style text; output 0 when it is not that."""
    parts = tensor_index.rsplit(":", 2) if tensor_index else []
    if len(parts) == 3 and parts[1] in ("output", "input") and parts[2].isdigit():
        return parts[1], int(parts[2])
    return "output", 0


def _golden_name(truth: str | None, suffix: str) -> str | None:
    """The golden tensor of a row; none for ``*`` (no golden) or a list of several ops."""
    if truth in (None, "*") or "," in truth:
        return None
    return f"{truth}{suffix}"


def _metrics(cell: Callable[[str], str]) -> dict[str, object]:
    """The metric cells as numbers, and under ``printed:<column>`` the text of each number as printed
    (gathered into the ``printed`` struct column at the end: no dict per row)."""
    values: dict[str, object] = {dst: _float(cell(src)) for src, dst in METRIC_COLUMNS.items()}
    values.update(
        {
            _PRINTED + dst: cell(src).strip() if values[dst] is not None else None
            for src, dst in METRIC_COLUMNS.items()
        }
    )
    return values


def _blind_spot(row: dict[str, object]) -> str | None:
    """Why msaccucmp's verdict on the row cannot be trusted (the first rule that finds a reason)."""
    for rule in _BLIND_SPOT_RULES:
        why = rule(row)
        if why is not None:
            return why
    return None


def _nan_metrics(row: dict[str, object]) -> str | None:
    if not any(isinstance(v, float) and math.isnan(v) for v in (row[c] for c in METRIC_COLUMNS.values())):
        return None
    return (
        "metrics are NaN: msaccucmp prints 'nan' and msit's analyser skips the row, so it is "
        "reported as fine; a side holds NaN/Inf"
    )


def _zero_golden(row: dict[str, object]) -> str | None:
    red, mae = row["relative_euclidean_distance"], row["max_absolute_error"]
    if red == 0.0 and isinstance(mae, float) and mae > 0:
        return (
            "golden is all zero: msaccucmp reports relative Euclidean distance 0 although the "
            f"target differs (max absolute error {mae:g})"
        )
    return None


_BLIND_SPOT_RULES = (_nan_metrics, _zero_golden)


def read_result_csv(path: str | Path) -> pl.DataFrame:
    """A msaccucmp/msit result CSV as a Polars frame with dumpscope's column names.

    Streamed: one CSV row at a time into per-column lists (no list of rows, no dict per
    row), so memory is the frame's plus a small constant."""
    p = Path(path)
    try:
        # Polars strings must be valid UTF-8: undecodable bytes become "\xNN" (as names.display).
        with open(p, newline="", encoding="utf-8-sig", errors="backslashreplace") as fh:
            return _columns_frame(p, csv.reader(fh))
    except OSError as exc:
        raise DumpError(f"{p}: cannot read: {exc.strerror or exc}") from exc
    except csv.Error as exc:
        raise DumpError(f"{p}: not a readable CSV ({exc})") from exc


def _columns_frame(p: Path, reader: Iterator[list[str]]) -> pl.DataFrame:
    """The frame of the rows ``reader`` yields after the header."""
    header = _header(p, next(reader, []))
    layout = _Layout(header)
    columns: dict[str, list[object]] = {c: [] for c in SCHEMA if c != "printed"}
    columns.update({_PRINTED + c: [] for c in METRIC_COLUMNS.values()})
    for line_no, raw in enumerate(reader, start=2):
        if not any(c.strip() for c in raw):
            continue
        record = _record(p, line_no, raw + [""] * (len(header) - len(raw)), layout)
        for key, values in columns.items():
            values.append(record.get(key))
    return pl.DataFrame([_series(name, dtype, columns) for name, dtype in SCHEMA.items()])


_PRINTED = "printed:"


def _series(name: str, dtype: pl.DataType, columns: dict[str, list[object]]) -> pl.Series:
    """Column ``name`` of the frame from its gathered values (``printed``: a struct of the texts)."""
    if name != "printed":
        return pl.Series(name, columns.pop(name), dtype=dtype)
    texts = [pl.Series(c, columns.pop(_PRINTED + c), dtype=pl.String) for c in METRIC_COLUMNS.values()]
    return pl.DataFrame(texts).to_struct(name).cast(dtype)


def _header(p: Path, first: list[str]) -> list[str]:
    if not first:
        raise DumpError(f"{p}: empty file, not a msaccucmp result CSV")
    header = [h.strip() for h in first]
    missing = [c for c in _REQUIRED if c not in header]
    if missing:
        raise DumpError(f"{p}: not a msaccucmp result CSV (missing columns: {', '.join(missing)})")
    return header


class _Layout:
    """Where each column is: by name (first occurrence), and per side for repeated names."""

    def __init__(self, header: list[str]) -> None:
        self.header = header
        npu_at, truth_at, stop = (
            header.index("NPUDump"),
            header.index("GroundTruth"),
            header.index("TensorIndex"),
        )
        self.sides = {
            "target_dtype": self._between("DataType", npu_at, truth_at),
            "target_address": self._between("Address", npu_at, truth_at),
            "dtype": self._between("DataType", truth_at, stop),
            "golden_address": self._between("Address", truth_at, stop),
        }
        self.by_name = {h: i for i, h in reversed(list(enumerate(header)))}

    def _between(self, name: str, start: int, stop: int) -> int | None:
        return next((i for i in range(start, stop) if self.header[i] == name), None)

    def cell(self, cells: list[str], name: str) -> str:
        i = self.by_name.get(name)
        return cells[i] if i is not None else ""

    def side_cells(self, cells: list[str]) -> dict[str, str | None]:
        """The per-side columns (``dtype``/``target_dtype``, addresses) of one row."""
        return {key: _text(cells[i]) if i is not None else None for key, i in self.sides.items()}


def _record(p: Path, line_no: int, cells: list[str], layout: _Layout) -> dict[str, object]:
    """One CSV row as a frame record (a row whose Index is not a number is an error)."""
    cell = partial(layout.cell, cells)
    index = _row_index(p, line_no, cell("Index"))
    npu, truth, tidx = _text(cell("NPUDump")), _text(cell("GroundTruth")), _text(cell("TensorIndex"))
    golden_name, target_name, kind = _tensor_names(npu, truth, tidx)
    seq = _finite(cell("OpSequence"))
    rec: dict[str, object] = {
        "index": int(index),
        "op_sequence": None if seq is None else int(seq),
        "name": golden_name,
        "target_name": target_name,
        "node_name": truth,
        "op_type": _text(cell("OpType")),
        "kind": kind,
        "tensor_index": tidx,
        "shape": _shape(cell("Shape")),
    }
    rec.update(layout.side_cells(cells))
    rec.update(_metrics(cell))
    rec.update(_std_columns(cell("StandardDeviation")))
    rec.update({dst: _flag(cell(src)) for src, dst in FLAG_COLUMNS.items()})
    rec["message"] = _text(cell("CompareFailReason"))
    rec["blind_spot"] = _blind_spot(rec)
    return rec


def _row_index(p: Path, line_no: int, raw: str) -> float:
    """The row's Index; a row without a finite one is the file's error."""
    index = _finite(raw)
    if index is None:
        raise DumpError(f"{p}: line {line_no}: Index {raw[:40]!r} is not a number (a finite one)")
    return index


def _std_columns(raw: str) -> dict[str, float | None]:
    """``"(mean;std),(mean;std)"`` (target first) as the four :data:`STD_COLUMNS`."""
    m = _STD_RE.fullmatch(raw.strip())
    if m is None:
        return dict.fromkeys(STD_COLUMNS)
    return {dst: _float(value) for dst, value in zip(STD_COLUMNS, m.groups(), strict=False)}
