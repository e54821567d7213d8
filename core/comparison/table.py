"""The comparison's columns while its rows are computed: typed Polars series, not Python lists.

A 100,000-row comparison held as 33 Python lists of boxed values cost ~1 KB a row before
the first frame was built, and the frame build then held both copies (measured: a
100k-entry manifest peaked at 296 MB).  Here the columns known before any data is read
(:func:`identity_series`) are built one at a time, straight into typed series; computed
rows arrive in batches and are scattered into those series a chunk at a time; cached rows
are scattered from their Parquet frame without a Python object per value.  A snapshot
frame shares the series' buffers (Polars copies on write), so yielding one while the rows
fill in costs no copy of the columns.

The two shape columns are held as text (``"1,3,224,224"``) while filling: Polars cannot
scatter into a list column, and building a list column from Python lists is slow.  They
become ``List(Int64)`` in :meth:`RowTable.frame`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import cast

import numpy as np

# Polars builds every series made from numpy through numpy.ma (getmask; 8-25 ms to load): loaded with this
# module, which a fresh compare builds aside while the rows are computed (pipeline), not at the last flush.
import numpy.ma  # noqa: F401
import polars as pl

from dumpscope.core.comparison.execution import TaskResult
from dumpscope.core.comparison.pairing import Pair
from dumpscope.core.comparison.result import SCHEMA
from dumpscope.core.dumps import TensorInfo
from dumpscope.core.names import display as _display

__all__ = ["RowTable", "identity_series"]

#: List-typed columns, held as comma-joined text while the rows fill in.
SHAPE_COLUMNS: tuple[str, ...] = tuple(c for c, t in SCHEMA.items() if isinstance(t, pl.List))
#: The type each column has while filling (shapes as text).
FILL_TYPES: dict[str, pl.DataType] = {c: pl.String() if c in SHAPE_COLUMNS else t for c, t in SCHEMA.items()}
#: Computed rows gathered before they are scattered into the series.
CHUNK_ROWS = 4096

Row = dict[str, object]


def shape_text(shape: Sequence[int] | None) -> str | None:
    """A shape as the text a shape column holds while filling (None stays None)."""
    return None if shape is None else ",".join(map(str, shape))


def shape_texts(shapes: Iterable[Sequence[int] | None]) -> list[str | None]:
    """:func:`shape_text` of each shape, each distinct shape joined once (a dump's tensors
    share a few shapes: a join per row was most of building a shape column)."""
    texts: dict[tuple[int, ...], str] = {}
    out: list[str | None] = []
    for shape in shapes:
        if shape is None:
            out.append(None)
            continue
        key = shape if type(shape) is tuple else tuple(shape)
        text = texts.get(key)
        if text is None:
            text = texts[key] = ",".join(map(str, key))
        out.append(text)
    return out


def _shape_lists(column: str) -> pl.Expr:
    """A ``List(Int64)`` column from its text form (null stays null, ``""`` is ``[]``)."""
    parts = pl.col(column).str.split(",").list.eval(pl.element().filter(pl.element() != "").cast(pl.Int64))
    return parts.cast(pl.List(pl.Int64))


#: Text columns whose values repeat across rows (a pairing note, an unmatched row's message).
SHARED_TEXT_COLUMNS: tuple[str, ...] = ("pairing", "message")


def _series(name: str, values: Sequence[object]) -> pl.Series:
    if name in SHARED_TEXT_COLUMNS:
        return _shared_text(name, values)
    return pl.Series(name, values, dtype=FILL_TYPES[name])


def _shared_text(name: str, values: Sequence[object]) -> pl.Series:
    """A text column whose equal values share one copy of their bytes.  Built from a list,
    Polars stores every string longer than 12 bytes again: 100k rows of one 50-byte message
    held 6 MB; gathered from the distinct values, 1.6 MB (a 100k-row frame)."""
    codes: dict[object, int] = {}
    at = [codes.setdefault(v, len(codes)) for v in values]
    if all(_inline(v) for v in codes):  # nothing to share: built straight (a gather is a Polars query)
        return pl.Series(name, values, dtype=FILL_TYPES[name])
    return pl.Series(name, list(codes), dtype=FILL_TYPES[name]).gather(pl.Series(at, dtype=pl.UInt32))


#: Bytes of a string Polars holds inside its view: no buffer of its own, nothing to share.
_INLINE_BYTES = 12


def _inline(value: object) -> bool:
    """Whether Polars holds ``value`` (a text column's: str or None) inside its view."""
    return not isinstance(value, str) or len(value.encode("utf-8", "surrogatepass")) <= _INLINE_BYTES


def _nulls(name: str, height: int) -> pl.Series:
    """A column not known before the data is read: all null (one null repeated: ``pl.repeat``
    runs the lazy engine, 50x slower, serial work in the parent for every column)."""
    return pl.Series(name, [None], dtype=FILL_TYPES[name]).new_from_index(0, height)


class RowTable:
    """Every column of a comparison, typed, with rows filled in as they are computed."""

    def __init__(self, pairs: Sequence[Pair], bands: Sequence[str]) -> None:
        """``bands``: each pair's band (:func:`~.bands.row_bands`: decided before the workers start)."""
        self.height = len(pairs)
        self.bands: Sequence[str] = bands
        known = {
            s.name: s for s in identity_series(pairs, bands) if s.name == "index" or s.null_count() < len(s)
        }
        self.series: dict[str, pl.Series | None] = {c: known.get(c) for c in SCHEMA}
        """Each column; None while every value is null (nothing stored: a 100k-row dump of
        unmatched tensors has ~30 such columns).  ``index`` is always stored: it gives the
        frame its height."""
        self._pending: dict[str, tuple[list[Sequence[int]], list[Sequence[object]]]] = {}
        """Per column, the rows computed since the last flush that set it, and their values, a chunk
        per task (a number column's chunk may be a numpy array: :meth:`TaskResult.with_number_arrays`)."""
        self._count = 0

    def put(self, part: TaskResult | Sequence[tuple[int, Row]]) -> None:
        """Computed rows: a worker's :class:`TaskResult` (packed by column) or ``(index,
        columns)`` pairs; scattered into the series a chunk of rows at a time."""
        if not isinstance(part, TaskResult):
            part = TaskResult.pack([i for i, _row in part], [row for _i, row in part])
        for column, values in part.values.items():
            at, pending = self._pending.setdefault(column, ([], []))
            _gather(at, pending, part.rows, values, part.absent.get(column))
        self._count += len(part)
        if self._count >= CHUNK_ROWS:
            self.flush()

    def flush(self) -> None:
        """Scatter every pending row into the series (only the columns each row sets).  A number
        column met for the first time goes from the Python values to its buffer through numpy
        (:func:`_numbers`): no Polars series built and queried for it, ~0.2-1 ms a column of serial
        work in the parent (each Series query runs the lazy engine)."""
        pending, self._pending, self._count = self._pending, {}, 0
        positions: dict[
            tuple[int, ...], tuple[np.ndarray, np.ndarray | None]
        ] = {}  # (a task's columns share its rows)
        for column, (spans, chunks) in pending.items():
            unset = self.series[column] is None
            arrays = _arrays(column, chunks) if unset else None
            values = [] if arrays is not None else _listed(chunks)
            if unset and arrays is None and all(v is None for v in values):
                continue  # every value null, as the column already is (nothing stored)
            numbers = (None, arrays) if arrays is not None else _numbers(column, values) if unset else None
            if numbers is not None:
                key = tuple(map(id, spans))
                placed = positions.get(key)
                if placed is None:
                    placed = positions[key] = _positions(spans, self.height)
                self.series[column] = _numeric_buffer(column, placed[0], *numbers, self.height, placed[1])
            else:
                at_list = [i for span in spans for i in span]
                self.scatter(column, at_list, _series(column, _as_filled(column, values)))

    def scatter(self, column: str, at: Sequence[int] | pl.Series, values: pl.Series) -> None:
        """Set rows ``at`` of ``column`` to ``values`` (already in the column's fill type)."""
        if not len(values):
            return
        if self.series[column] is None and column in _NUMPY_TYPES:
            self.series[column] = _numeric_column(column, at, values, self.height)
        else:
            self.series[column] = self._column(column).scatter(at, values)

    def _column(self, column: str) -> pl.Series:
        """``column``'s series, materialised (all null) when nothing was stored yet."""
        s = self.series[column]
        return _nulls(column, self.height) if s is None else s

    def fill(self, rows: pl.DataFrame, columns: Sequence[str]) -> None:
        """Set ``columns`` of the rows at ``rows["_row"]`` from ``rows`` (cached rows: no
        Python object per value)."""
        at = rows["_row"]
        for column in columns:
            values = rows[column]
            if column in SHAPE_COLUMNS:
                values = values.cast(pl.List(pl.String)).list.join(",")
            self.scatter(column, at, values.cast(FILL_TYPES[column]))

    def frame(self) -> pl.DataFrame:
        """The frame as it stands (every :data:`SCHEMA` column, in order, shapes as lists): one
        Polars query over the stored series (each query costs the parent ~0.3-1 ms however few
        the rows; the shapes, the all-null columns and the order were five)."""
        self.flush()
        stored = pl.DataFrame([s for s in self.series.values() if s is not None])
        return stored.select(
            pl.lit(None, dtype=SCHEMA[c]).alias(c)
            if s is None
            else _shape_lists(c)
            if c in SHAPE_COLUMNS
            else c
            for c, s in self.series.items()
        )


#: Number columns first set by a scatter are built over a zeroed numpy buffer (see :func:`_numeric_column`).
_NUMPY_TYPES: dict[str, type[np.generic]] = {
    c: np.float64 if t == pl.Float64() else np.int64
    for c, t in FILL_TYPES.items()
    if t in (pl.Float64(), pl.Int64())
}


def _numeric_column(column: str, at: Sequence[int] | pl.Series, values: pl.Series, height: int) -> pl.Series:
    """An all-null number column with rows ``at`` set to ``values``, as a scatter into
    :func:`_nulls` would make it, without writing every row: the buffer is zeroed pages the
    system maps on first write, and Polars takes it (with the validity) without a copy.  A
    100k-row dump of unmatched tensors with 3 computed rows has 31 such columns: 24 MB of
    resident pages through a scatter, ~3 MB this way."""
    rows = at.to_numpy() if isinstance(at, pl.Series) else np.asarray(at, dtype=np.int64)
    if values.null_count():  # (each of these Series methods runs a Polars query: ~50 us)
        rows, values = rows[values.is_not_null().to_numpy()], values.drop_nulls()
    return _numeric_buffer(column, rows, None, values.to_numpy(), height)


def _numbers(column: str, values: list[object]) -> tuple[np.ndarray | None, np.ndarray] | None:
    """A number column's Python values as numpy: (positions set, None for all; the values set),
    or None where they are not what the column's type takes exactly (a number column's values
    are Python or numpy numbers and None; anything else goes through Polars, which says so)."""
    kind = _NUMPY_TYPES.get(column)
    if kind is None:
        return None
    present = None
    if None in values:  # (rows that did not compute this number: a slice metric of a 1-D tensor)
        keep = [v is not None for v in values]
        present, values = np.array(keep, dtype=bool), [v for v in values if v is not None]
    array = np.array(values) if values else np.zeros(0, dtype=kind)
    if array.ndim != 1 or array.dtype.kind not in ("iu" if kind is np.int64 else "iuf"):
        return None
    return present, array.astype(kind, copy=False)


def _numeric_buffer(
    column: str,
    rows: np.ndarray,
    present: np.ndarray | None,
    values: np.ndarray,
    height: int,
    absent: np.ndarray | None = None,
) -> pl.Series:
    """See :func:`_numeric_column`: ``values`` at ``rows`` (those where ``present``, when given);
    ``absent``: the rows ``rows`` leaves unset, when known (:func:`_positions`; an empty array: none)."""
    if present is not None:
        rows, absent = rows[present], None
    data = np.zeros(height, dtype=_NUMPY_TYPES[column])
    data[rows] = values
    if absent is None:
        absent = _unset(rows, height)
    if not len(absent):  # every row set (the usual case): no mask to build or read
        return pl.Series(column, data, dtype=FILL_TYPES[column])
    return pl.Series(column, np.ma.masked_array(data, absent), dtype=FILL_TYPES[column])


def _unset(rows: np.ndarray, height: int) -> np.ndarray:
    """The mask of the rows ``rows`` leaves unset; an empty array when it sets every row."""
    absent = np.ones(height, dtype=bool)
    absent[rows] = False
    return absent if absent.any() else np.zeros(0, dtype=bool)


def _positions(spans: list[Sequence[int]], height: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``spans`` as one array, and :func:`_unset` of them."""
    rows = np.fromiter((i for span in spans for i in span), dtype=np.int64, count=sum(map(len, spans)))
    return rows, _unset(rows, height)


def _gather(
    at: list[Sequence[int]],
    pending: list[Sequence[object]],
    rows: list[int],
    values: Sequence[object],
    gaps: list[int] | None,
) -> None:
    """Append a task's values of one column as a chunk (``gaps``: positions whose row did not set it)."""
    if not gaps:
        at.append(rows)
        pending.append(values)
        return
    skip = set(gaps)
    at.append([i for p, i in enumerate(rows) if p not in skip])
    if isinstance(values, np.ndarray):
        pending.append(np.delete(values, gaps))
    else:
        pending.append([v for p, v in enumerate(values) if p not in skip])


def _arrays(column: str, chunks: list[Sequence[object]]) -> np.ndarray | None:
    """A number column's chunks joined into its type, when every chunk is a numpy array whose
    values it takes exactly (what :func:`_numbers` makes of the same values as Python numbers:
    int chunks join a float one as floats, which an int column does not take); None otherwise
    (the values then go through :func:`_listed`)."""
    kind = _NUMPY_TYPES.get(column)
    if kind is None or not chunks:
        return None
    for chunk in chunks:
        if not isinstance(chunk, np.ndarray):
            return None
    arrays = cast("list[np.ndarray]", chunks)
    joined = np.concatenate(arrays) if len(arrays) > 1 else arrays[0]
    if joined.dtype.kind not in ("iu" if kind is np.int64 else "iuf"):
        return None
    return joined.astype(kind, copy=False)


def _listed(chunks: list[Sequence[object]]) -> list[object]:
    """Every chunk's values in one list (an array's as the Python numbers it was made from)."""
    out: list[object] = []
    for chunk in chunks:
        out.extend(chunk.tolist() if isinstance(chunk, np.ndarray) else chunk)
    return out


def _as_filled(column: str, values: list[object]) -> list[object]:
    """Values as their column holds them while filling (shapes as text)."""
    if column not in SHAPE_COLUMNS:
        return values
    shapes = cast("list[Sequence[int] | None]", values)  # a shape column's values are shapes
    return cast("list[object]", shape_texts(shapes))


# ------------------------------------------------------------------ identity


def _either(golden: TensorInfo | None, target: TensorInfo | None) -> TensorInfo:
    """A pair's golden tensor, else its target's (a pair has at least one side)."""
    info = golden or target
    assert info is not None, "a pair with neither side"
    return info


def identity_series(pairs: Sequence[Pair], bands: Sequence[str]) -> Iterator[pl.Series]:
    """The columns known before any data is read, one series at a time (each Python list
    lives only until its series is built); ``bands``: every row's band."""
    golden = [p.golden.info if p.golden is not None else None for p in pairs]
    target = [p.target.info if p.target is not None else None for p in pairs]
    first = [_either(g, t) for g, t in zip(golden, target, strict=False)]
    yield _series("index", [i if p.topo is None else p.topo for i, p in enumerate(pairs)])
    yield _series("name", [display(info.name) for info in first])
    yield _series(
        "target_name", [display(t.name) if t and g else None for g, t in zip(golden, target, strict=False)]
    )
    yield _series("node_name", [_text(info.node_name) for info in first])
    yield _series("op_type", [_text(_op_type(g, t)) for g, t in zip(golden, target, strict=False)])
    yield _series("kind", [info.kind for info in first])
    yield from _side_series(golden, "shape", "dtype", "golden_file")
    yield from _side_series(target, "target_shape", "target_dtype", "target_file")
    yield _series("pairing", [display(p.how) for p in pairs])
    yield _series("size", [None if info.shape is None else math.prod(info.shape) for info in first])
    yield from _status_series(pairs)
    yield _series("band", bands)


def _side_series(infos: list[TensorInfo | None], shape: str, dtype: str, file: str) -> Iterator[pl.Series]:
    """One side's shape, dtype and file columns (null for a missing side)."""
    yield _series(shape, shape_texts(i.shape if i else None for i in infos))
    yield _series(dtype, [i.dtype if i else None for i in infos])
    yield _series(file, [_text(i.source) if i else None for i in infos])


#: ``side``, ``health``, ``status`` of a row before any data is read: both sides, golden
#: only, target only.
_STATUS = {
    "both": ("both", "pending", "pending"),
    "golden": ("golden", "unmatched", "unmatched"),
    "target": ("target", "unmatched", "unmatched"),
}


def _status_series(pairs: Sequence[Pair]) -> Iterator[pl.Series]:
    """``side``, ``health``, ``status`` and ``message`` before any data is read."""
    sides = [_row_side(p) for p in pairs]
    for k, column in enumerate(("side", "health", "status")):
        yield _series(column, [_STATUS[s][k] for s in sides])
    yield _series(
        "message", ["" if s == "both" else display(p.how) for s, p in zip(sides, pairs, strict=False)]
    )


def _row_side(p: Pair) -> str:
    if p.golden is not None and p.target is not None:
        return "both"
    return "golden" if p.golden is not None else "target"


def _op_type(gi: TensorInfo | None, ti: TensorInfo | None) -> str | None:
    """The golden op type, else the target's."""
    if gi and gi.op_type:
        return gi.op_type
    return ti.op_type if ti else None


def _text(value: str | None) -> str | None:
    return None if value is None else display(value)


def display(name: str) -> str:
    """:func:`~dumpscope.core.names.display`, without a copy of a plain ASCII name (most)."""
    return name if name.isascii() else _display(name)


RowFn = Callable[[int], Row]
