"""A comparison whose tensor headers the workers read: the parent opens a folder by names only.

Opening a folder of ``.npy`` files read every file's header in the parent (an ``open``, a
``pread`` and a ``close`` each, ~7 us, plus the header's objects): serial work that no
worker count divides, ~40 % of the parent's CPU on 500 tensors a side.  With
:func:`~dumpscope.core.formats.npy_dir.deferred_headers` the parent lists the files and
``stat`` s them (their order and size), pairs them by name, and each worker reads the
headers of the pairs it computes (:class:`LateRows`: the same reads the parent did, in the
same code, :func:`~dumpscope.core.formats.npy_dir.read_header`) and sends them back with
the rows.

What needed the headers before the first row now follows the rows (:class:`Collected`):

* **the bands.**  A float row's band is the least precise float dtype of the *whole*
  target run, so no row's band is known before every target header is read.  Only the
  worst channel slice depends on it (through the band's absolute floor), so a row is
  computed once, with its worst slice for each floor a band may have
  (:class:`~.rows.LateBand`; they differ only for a pair with a slice that could be
  destroyed), and the parent keeps its band's once the bands are known;
* **the identity columns** (shape, dtype, size, band): built from the completed infos
  after the rows; the one-sided rows' headers are read in the parent (they are no task's);
* **the pairing's size check** (:func:`~.sanity.check_pairing`): the names are checked as
  they pair, the sizes once the headers are known; the same error, after the rows.

Only where nothing else needs a header before the rows: a run that yields no frame before
the end (``compare``, not the UI's stream), of two folders read by name, no model or
vendor graph, no row cache, no Dask scheduler, and every pair made by an exact name (a
looser link is chosen by the shapes: such a run opens again with every header read); and
only for files of :data:`~dumpscope.core.formats.npy_dir.DEFER_MIN_BYTES` or more (a smaller
file's header is read at once, as without deferral: it is much of the file's whole cost).
The frame is byte-identical to the one read with every header first (tested).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, cast, overload

from dumpscope.core.comparison.execution import TaskResult
from dumpscope.core.comparison.judge import Thresholds
from dumpscope.core.comparison.pairing import Pair, Pairing
from dumpscope.core.comparison.rows import LATE_SLICES, LateBand, LateSlice, RowContext, Rows, band_floor
from dumpscope.core.dumps import Dump
from dumpscope.core.formats.npy_dir import DEFERRED_META, complete_header, read_header
from dumpscope.core.formats.npyfile import SmallFiles

if TYPE_CHECKING:
    from dumpscope.core.comparison.table import RowTable

__all__ = [
    "HEADERS",
    "Collected",
    "LateContext",
    "LateRows",
    "deferred",
    "exact_names",
    "read_one_sided",
]

#: The internal column of a row computed by :class:`LateRows`: the header facts its worker read,
#: ``(golden dtype, golden shape, target dtype, target shape)`` (None where a file could not be read).
HEADERS = "_headers"
#: The slice columns a row's band decides (see :data:`~.rows.LateSlice`).
_SLICE_COLUMNS = ("worst_slice", "slice_cosine", "slice_relative_distance", "notes")


def deferred(*dumps: Dump | None) -> bool:
    """Whether any of ``dumps`` was opened with its headers deferred."""
    return any(d is not None and d.meta.get(DEFERRED_META) is True for d in dumps)


def exact_names(pairing: Pairing) -> bool:
    """Whether every pair of two sides was made by its exact name (a looser link is chosen by
    the tensors' shapes: it needs the headers before the pairing)."""
    return all(p.how == "name" for p in pairing.pairs if p.golden is not None and p.target is not None)


class _Picked(Sequence[Pair]):
    """The run's pairs with a task's own replaced by their read versions (no copy of the list)."""

    def __init__(self, pairs: Sequence[Pair], read: dict[int, Pair]) -> None:
        self.pairs, self.read = pairs, read

    @overload
    def __getitem__(self, i: int) -> Pair: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Pair]: ...
    def __getitem__(self, i: int | slice) -> Pair | Sequence[Pair]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        pair = self.read.get(i)
        return self.pairs[i] if pair is None else pair

    def __len__(self) -> int:
        return len(self.pairs)


def _read(p: Pair, keep: SmallFiles) -> Pair:
    """The pair with both sides' headers read (as an eager open reads them)."""
    assert p.golden is not None and p.target is not None, "a computed row has both sides"
    return Pair(read_header(p.golden, keep), read_header(p.target, keep), p.how, p.topo, p.order)


#: A pair's header facts: golden dtype, golden shape, target dtype, target shape (None: not read).
Facts = tuple[str | None, tuple[int, ...] | None, str | None, tuple[int, ...] | None]


def _facts(p: Pair) -> Facts:
    g, t = p.golden, p.target
    assert g is not None and t is not None
    return (g.info.dtype, g.info.shape, t.info.dtype, t.info.shape)


@dataclass(frozen=True)
class LateRows:
    """The workers' row function of a run with deferred headers: each task reads its pairs'
    headers, computes the rows as :class:`~.rows.Rows` does (every band a
    :class:`~.rows.LateBand`) and sends the headers back in :data:`HEADERS`."""

    rows: Rows
    numbers_as_arrays: ClassVar[bool] = True  # (as :class:`~.rows.Rows`: its tasks go into a row table)

    def __call__(self, i: int) -> dict[str, object]:
        result = self.batch([i])
        return next(iter(result))[1]

    def batch(self, part: Sequence[int]) -> TaskResult:
        keep = SmallFiles()  # a small file is read whole with its header: one open a file, as before
        read = {i: _read(self.rows.pairs[i], keep) for i in part}
        rows = replace(self.rows, pairs=_Picked(self.rows.pairs, read))
        batch = getattr(rows, "batch", None)  # (as execution runs a row function: whole, else row by row)
        result = batch(part) if batch is not None else TaskResult.pack(list(part), [rows(i) for i in part])
        facts = [_facts(read[i]) for i in result.rows]
        result.values[HEADERS] = cast("list[object]", facts)
        _without_header_facts(result, facts)
        return result


#: A row's columns that say what its header says: where the header facts (:data:`HEADERS`) hold it,
#: and the type its value has there (a shape is sent as a list, the header's is a tuple).
_FROM_HEADERS: tuple[tuple[str, int, type], ...] = (
    ("dtype", 0, str),
    ("shape", 1, list),
    ("target_dtype", 2, str),
    ("target_shape", 3, list),
)


def _without_header_facts(result: TaskResult, facts: list[Facts]) -> None:
    """Leave out of ``result`` each column whose every value is its header's fact: the parent builds
    the identity columns (shapes, dtypes, size) from the headers the task sends, so these values would
    be scattered over equal ones (the parent's shape texts and scatters, ~0.5 ms of its serial work on
    500 rows, and the lists' pickles both ways).  A column with any other value (a reader whose
    data disagrees with its header) is sent whole, as before."""
    for column, k, kind in _FROM_HEADERS:
        if _repeats(result, column, [f[k] for f in facts], kind):
            _drop(result, column)
    if "shape" not in result.values:  # (the size column holds the golden's)
        sizes: list[object] = [None if f[1] is None else math.prod(f[1]) for f in facts]
        if _repeats(result, "size", sizes, int):
            _drop(result, "size")


def _repeats(result: TaskResult, column: str, facts: list[object], kind: type) -> bool:
    """Whether every value ``result`` sets in ``column`` is a ``kind`` equal to its row's fact (a
    list as a tuple)."""
    values = result.values.get(column)
    if values is None:
        return False
    gaps = set(result.absent.get(column, ()))
    for pos, (value, fact) in enumerate(zip(values, facts, strict=True)):
        if pos in gaps:
            continue
        if fact is None or type(value) is not kind:
            return False
        if (tuple(value) if isinstance(value, list) else value) != fact:
            return False
    return True


def _drop(result: TaskResult, column: str) -> None:
    del result.values[column]
    result.absent.pop(column, None)


@dataclass(frozen=True)
class LateContext(RowContext):
    """A :class:`~.rows.RowContext` whose row function is :class:`LateRows`."""

    def compute(self, pairs: list[Pair], th: Thresholds, bands: list[str]) -> Rows:
        return LateRows(Rows(pairs, th, bands, self))  # type: ignore[return-value]  # the same protocol


class Collected:
    """The rows of a run with deferred headers, as the workers send them: their headers go
    into the run's infos at once; the rows wait for the table, which needs the bands, which
    need every header (:meth:`into`)."""

    def __init__(self, pairs: Sequence[Pair], th: Thresholds) -> None:
        self.pairs, self.th = pairs, th
        self.bands: list[object] = [LateBand.of(th)] * len(pairs)
        """What the row function is handed as the bands: not known yet."""
        self.parts: list[TaskResult] = []

    def put(self, part: TaskResult) -> None:
        """A finished task: its headers completed into the pairs' infos, its rows kept."""
        heads = part.values.pop(HEADERS, None)
        part.absent.pop(HEADERS, None)
        pairs = self.pairs
        for i, facts in zip(part.rows, heads or (), strict=False):
            p = pairs[i]
            assert p.golden is not None and p.target is not None and isinstance(facts, tuple)
            g_dtype, g_shape, t_dtype, t_shape = facts
            complete_header(p.golden.info, g_dtype, g_shape)
            complete_header(p.target.info, t_dtype, t_shape)
        self.parts.append(part)

    def flush(self) -> None:
        """Nothing to do until :meth:`into`."""

    def into(self, table: RowTable) -> None:
        """Every row into ``table`` (whose bands are known), each with its band's worst slice."""
        for part in self.parts:
            late = part.values.pop(LATE_SLICES, None)
            gaps = set(part.absent.pop(LATE_SLICES, ()))
            if late is not None:
                for pos, (i, by_floor) in enumerate(zip(part.rows, late, strict=False)):
                    if pos not in gaps and isinstance(by_floor, dict):
                        self._chosen(part, pos, by_floor[band_floor(self.th, table.bands[i])])
            table.put(part)
        self.parts = []

    @staticmethod
    def _chosen(part: TaskResult, pos: int, chosen: LateSlice) -> None:
        for column, value in zip(_SLICE_COLUMNS, chosen, strict=True):
            values = part.values[column]
            if not isinstance(values, list):  # a number column sent as an array: the band's value may be None
                values = part.values[column] = list(values.tolist())
            values[pos] = value


def read_one_sided(pairs: Sequence[Pair]) -> None:
    """Read the headers of the rows no task computes (one side only), into their infos: their
    identity columns and the run's band need them."""
    for p in pairs:
        if p.golden is None or p.target is None:
            read_header(p.ref)
