"""A comparison: what the CLI and the UI hold.

``compare(golden, target)`` opens both dumps, pairs their tensors, computes every
metric (on every core: worker processes that each own whole tensors) and judges health.  The
result is a :class:`Comparison`: one Polars frame with a row per tensor in
topological order, plus lazy access to the tensors behind each row.
``compare_stream`` yields the same comparison while it fills in, for a UI that shows
rows as they are computed.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np
import polars as pl

from dumpscope import __version__
from dumpscope.core.comparison import judge
from dumpscope.core.comparison.cache import (
    CACHED_COLUMN,
    ROW_COLUMNS,
    RowCache,
    index_folder,
    last_frame,
    run_tag,
    save_last_frame,
)
from dumpscope.core.comparison.execution import SCHEDULER_TIMEOUT_S, Scheduler, TaskResult, run_rows
from dumpscope.core.comparison.judge import Thresholds
from dumpscope.core.comparison.metrics import (
    COUNT_COLUMNS,
    FLOAT_COLUMNS,
    PairMetrics,
    compare_arrays,
    compare_segments,
    segmentable,
)
from dumpscope.core.comparison.pairing import Pair, Pairing, pair_dumps
from dumpscope.core.comparison.result import INTERNAL_COLUMNS, SCHEMA, Comparison, ComparisonMeta
from dumpscope.core.comparison.sanity import check_model, check_pairing
from dumpscope.core.comparison.shape_specs import ShapeSpec, resolve, shape_specs
from dumpscope.core.comparison.shapes import Aligned, align, declared_layouts
from dumpscope.core.comparison.slices import AXIS, slice_metrics
from dumpscope.core.comparison.small import Leftover, SmallLane, lane_values, small_dtype
from dumpscope.core.comparison.table import RowTable
from dumpscope.core.comparison.verdict import render_hard_fail
from dumpscope.core.dumps import Dump, TensorInfo, TensorReadError, dtype_name
from dumpscope.core.formats import check_dump, open_dump
from dumpscope.core.formats.npyfile import NpyLoader, Scratch
from dumpscope.core.formats.safe_fs import shared_listings
from dumpscope.core.heap import trim_free_heap
from dumpscope.core.names import display
from dumpscope.core.vendor.sigmastar import detect_stage
from dumpscope.core.vendor.traits import traits_of

if TYPE_CHECKING:
    from dumpscope.core.onnx.graph import GraphFacts
    from dumpscope.core.vendor.atc_graph import AtcGraph

__all__ = [
    "INTERNAL_COLUMNS",
    "SCHEMA",
    "Comparison",
    "Progress",
    "compare",
    "compare_frame",
    "compare_stream",
]

ProgressCallback = Callable[[int, int], None]


@dataclass
class Throughput:
    """Tensor bytes (both sides, from the metadata) read so far, for a GB/s display."""

    done: int = 0
    total: int = 0
    started: float = field(default_factory=time.monotonic)

    @property
    def gb_per_s(self) -> float:
        """GB/s since the reading started (0 before any time has passed)."""
        elapsed = time.monotonic() - self.started
        return self.done / elapsed / 1e9 if elapsed > 0 else 0.0


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    comparison: Comparison
    throughput: Throughput | None = None


def compare(
    golden: str | Path | Dump,
    target: str | Path | Dump,
    *,
    model: str | Path | None = None,
    graph: str | Path | None = None,
    preset: str = "auto",
    thresholds: Thresholds | Sequence[str] | None = None,
    progress: ProgressCallback | None = None,
    workers: int | None = None,
    cache: bool | str | Path = False,
    scheduler: str | None = None,
    progress_bytes: ProgressCallback | None = None,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_S,
) -> Comparison:
    """Compare a target dump with a golden dump, tensor by tensor.

    Parameters:
        golden: the reference dump - a folder of ``.npy`` files, an ``.npz``, a dumpscope
            manifest folder or a vendor dump (Ascend, SigmaStar, msprobe, Polygraphy...).
        target: the dump to check, in any of the same formats.
        model: the ONNX model both were made from (topological order, node names).
        graph: an Ascend ATC graph JSON (``atc --mode=1/5``) that pairs fused target ops
            with their golden originals.
        preset: health thresholds by name (``auto`` picks by dtype).
        thresholds: a :class:`Thresholds`, or overrides such as ``["cosine_similarity=0.999"]``.
        progress: called as ``progress(done, total)`` while tensors are compared.
        workers: worker processes comparing tensors, each owning whole tensors
            (default: one per available core; the frame is the same for any count).
        cache: reuse and update the signed index of per-tensor results next to the target
            dump (``True``) or in the folder given, keyed by the files' content (see
            :mod:`.cache`): rows of unchanged files are not computed again and are marked in a
            ``cached`` column; where the index is (or why it is not) is said in
            ``meta.cache``.  A folder this user cannot write in: a
            :class:`~.cache.CacheError` (one line) before any file is read.
        scheduler: a Dask distributed scheduler address: the rows are computed on its
            workers (``pip install 'dumpscope[dask]'``).  Dask missing, a bad address, nothing
            answering within ``scheduler_timeout`` seconds, or not Dask: a
            :class:`~.execution.SchedulerError` (a :class:`DumpError`, one line).
        progress_bytes: called as ``progress_bytes(done, total)`` in tensor bytes (GB/s).

    Returns a :class:`Comparison`: ``.frame`` is a Polars frame with one row per tensor in
    topological order (metrics, NaN/Inf counts, ``health``, ``message``);
    ``.first_divergent()`` and ``.health_counts()`` summarise it.
    """
    result: Comparison | None = None
    for step in compare_stream(
        golden,
        target,
        model=model,
        graph=graph,
        preset=preset,
        thresholds=thresholds,
        workers=workers,
        final_only=True,
        progress=progress,
        cache=cache,
        scheduler=scheduler,
        progress_bytes=progress_bytes,
        scheduler_timeout=scheduler_timeout,
    ):
        result = step.comparison
    assert result is not None
    return result


def compare_frame(golden: str | Path | Dump, target: str | Path | Dump, **kwargs: Any) -> pl.DataFrame:
    """The Python API's one-call form: the comparison frame (public columns only; ``kwargs``:
    :func:`compare`'s)."""
    return compare(golden, target, **kwargs).public_frame()


SNAPSHOT_SHARE = 10.0
"""A streamed table costs a frame build over every row; the next one waits at least this many
times the last build's cost, so building tables takes at most ~10 % of the fill however large
the comparison (a fixed interval made a 100k-row fill quadratic)."""


def compare_stream(
    golden: str | Path | Dump,
    target: str | Path | Dump,
    *,
    model: str | Path | None = None,
    graph: str | Path | None = None,
    preset: str = "auto",
    thresholds: Thresholds | Sequence[str] | None = None,
    workers: int | None = None,
    batch: int = 512,
    interval: float = 0.25,
    final_only: bool = False,
    progress: ProgressCallback | None = None,
    cache: bool | str | Path = False,
    scheduler: str | None = None,
    progress_bytes: ProgressCallback | None = None,
    first: Callable[[Comparison], Sequence[int] | None] = lambda _base: None,
    scheduler_timeout: float = SCHEDULER_TIMEOUT_S,
) -> Iterator[Progress]:
    """Yield the comparison as it fills in.

    Every yielded frame has all rows in their final order; rows not computed yet have
    health ``pending``.  Two flat ``.npy`` folders of thousands of tensors first yield a
    preview (``meta.preview``, ``Progress(0, 0)``): their first tensors judged while the whole
    dumps are opened (see :func:`_head`; never with ``final_only``).  A new frame is yielded at most
    every ``interval`` seconds (or every
    :data:`SNAPSHOT_SHARE` times the last frame's build time, when longer; ``interval=0``: after
    every batch) and always at the end (only at the end with ``final_only``);
    ``progress(done, total)`` is called after every batch.  Stop iterating to cancel.
    ``first(comparison)``: the rows to compute first, in order (triage, see :mod:`.triage`;
    the frame is the same).
    """
    th = _thresholds(thresholds, preset)
    remote = None if scheduler is None else Scheduler.of(scheduler, scheduler_timeout)  # before a file opens
    sides = (_path_of(golden), _path_of(target), run_tag(th))
    folder = index_folder(sides[1], cache) if cache not in (False, None) else None  # before a file opens
    shown = _last_run(*sides, th, folder, wanted=folder is not None and not final_only)
    yield from shown  # a reopen paints the last run's rows before any file is read
    head = [] if final_only or shown or remote is not None else _head(golden, target, model, graph, th)
    yield from head  # the first rows judged while the whole dumps are opened
    run = _Run(_prepare(golden, target, model, graph, th), th)
    ticks = _Ticks(interval, progress, progress_bytes)
    if not final_only and not shown and not head:  # (not a frame of pending ones after rows were shown)
        yield run.snapshot(0)
        ticks.spaced(run.cost)
    where = (workers, remote)
    for done in _fill(
        run.pairs, th, run.table, where, batch, run.cache(folder), run.meter, run.context(), first(run.base)
    ):
        if ticks.report(done, run.total, run.meter) and not final_only and done < run.total:
            yield run.snapshot(done)
            ticks.spaced(run.cost)
    yield run.finish(sides if folder is not None else None, folder)


def _path_of(dump: str | Path | Dump) -> Path:
    return dump.path if isinstance(dump, Dump) else Path(dump)


def _last_run(
    golden: Path, target: Path, tag: str, th: Thresholds, folder: Path | None, wanted: bool
) -> list[Progress]:
    """The frame the last ``--cache`` run of this pair kept (none when there is none or it
    is not ``wanted``), as a first snapshot with no row counted done: the rows are then
    checked against their files."""
    frame = last_frame(golden, target, tag, folder) if wanted else None
    if frame is None:
        return []
    meta = ComparisonMeta(
        golden=str(golden), target=str(target), from_cache="the last run's rows, being checked"
    )
    return [Progress(0, frame.height, Comparison(frame, th, meta))]


HEAD_ROWS = 256
"""Tensors a side read for :func:`_head`'s early frame (their pairs computed in this thread)."""
HEAD_FROM = 2000
"""Tensors a side from which :func:`_head` gives an early frame (fewer open whole in well under a
second, and a dump of few big tensors is better served by its triage, see :mod:`.triage`)."""


def _head(
    golden: str | Path | Dump,
    target: str | Path | Dump,
    model: str | Path | None,
    graph: str | Path | None,
    th: Thresholds,
) -> list[Progress]:
    """A first frame of judged rows before the whole dumps are opened (listing, reading every
    header and pairing 100k files takes seconds): the first :data:`HEAD_ROWS` tensors of each
    side (:func:`~dumpscope.core.formats.npy_dir.open_head`), paired and computed as usual, when
    each side holds at least :data:`HEAD_FROM`.

    Only for two flat ``.npy`` folders without a model or a vendor graph (their order and names
    come with the whole dump); none otherwise.  The frame is a preview, marked so in its meta
    (``preview``) and yielded as ``Progress(0, 0)``: the whole dumps may order, pair or band
    these rows otherwise, so nothing final (the first divergent layer, a verdict) is read from
    it; the stream's later frames are the whole comparison, as without it.
    """
    if model is not None or graph is not None or isinstance(golden, Dump) or isinstance(target, Dump):
        return []
    from dumpscope.core.formats.npy_dir import open_head

    g = open_head(Path(golden), HEAD_ROWS, HEAD_FROM)
    t = open_head(Path(target), HEAD_ROWS, HEAD_FROM) if g is not None else None
    if g is None or t is None:
        return []
    pairing = pair_dumps(g, t)
    if not any(p.golden is not None and p.target is not None for p in pairing.pairs):
        return []
    covers = f"the first {len(pairing.pairs)} tensors, judged while the whole dumps are opened"
    meta = replace(_meta(g, t, None, th, pairing, []), preview=covers)
    run = _Run(Comparison(pl.DataFrame(), th, meta, g, t, pairing), th)
    for _done in _fill(run.pairs, th, run.table, (1, None), HEAD_ROWS, context=run.context()):
        pass
    return [Progress(0, 0, run.snapshot(run.total).comparison)]


def _thresholds(thresholds: Thresholds | Sequence[str] | None, preset: str) -> Thresholds:
    """The thresholds given, or the preset with the given overrides."""
    if isinstance(thresholds, Thresholds):
        return thresholds
    return Thresholds.from_preset(preset, thresholds or ())


class _Run:
    """One comparison being filled in: its prepared base, its rows' table and byte meter."""

    def __init__(self, base: Comparison, th: Thresholds) -> None:
        assert base.pairing is not None and base.golden is not None and base.target is not None, "prepared"
        self.base, self.th = base, th
        self.golden, self.target = base.golden, base.target
        self.pairs = base.pairing.pairs
        trim_free_heap()  # the decoded listings and manifests: the Polars columns would not reuse them
        self.table = RowTable(self.pairs, th, _run_band(base.target))
        trim_free_heap()  # the Python lists the identity columns were built from
        self.total = len(self.pairs)
        self.meter = Throughput()
        self.cost = 0.0
        """Seconds the last snapshot took to build."""
        self.row_cache: RowCache | None = None

    def snapshot(self, done: int) -> Progress:
        """The comparison as it stands, judged (with a ``cached`` column in a ``--cache`` run:
        True where the row was served from the index)."""
        start = time.monotonic()
        frame = judge.judge(_with_vendor_report(self.table.frame(), self.base), self.th)
        if self.row_cache is not None:
            served = np.zeros(frame.height, dtype=bool)
            served[self.row_cache.hits] = True  # (frame rows are the pairs, in order)
            frame = frame.with_columns(pl.Series(CACHED_COLUMN, served))
        self.cost = time.monotonic() - start
        return Progress(done, self.total, replace(self.base, frame=frame), self.meter)

    def finish(self, sides: tuple[Path, Path, str] | None, folder: Path | None = None) -> Progress:
        """The final snapshot; kept (in ``folder``) for the next reopen when ``sides`` (golden,
        target, run tag) are given, and where the index is (or why it is not) said in its meta
        (``cache``)."""
        final = self.snapshot(self.total)
        if sides is not None:
            unkept = save_last_frame(*sides, final.comparison.frame, folder)
            if self.row_cache is not None:
                unkept = f"; last frame not kept: {unkept}" if unkept else ""
                note = self.row_cache.note + unkept
                cmp = final.comparison
                final = replace(final, comparison=replace(cmp, meta=replace(cmp.meta, cache=note)))
        return final

    def cache(self, folder: Path | None) -> RowCache | None:
        """The row cache of this pair of dumps, kept in ``folder`` (none without one)."""
        if folder is not None:
            self.row_cache = RowCache.open(self.golden, self.target, run_tag(self.th), folder=folder)
        return self.row_cache

    def context(self) -> _RowContext:
        """What every row's computation needs beyond its pair."""
        specs = shape_specs(self.golden, self.target, self.base.model_facts)
        return _RowContext(specs)


def _with_vendor_report(frame: pl.DataFrame, base: Comparison) -> pl.DataFrame:
    """The frame with the target's own accuracy report beside our numbers (RKNN's
    ``error_analysis.txt``: its entire/single cosine and Euclidean distance per row)."""
    report = base.target.meta.get("rknn_report") if base.target is not None else None
    if report is None:
        return frame
    from dumpscope.core.vendor.rknn import Report, join_report

    assert isinstance(report, Report), "the RKNN reader's report"
    own = base.golden is not None and base.golden.meta.get("rknn_side") == "golden"
    return join_report(frame, report, own_golden=own)


@dataclass
class _Ticks:
    """The callbacks after every batch, and when the next snapshot is due (every ``interval``,
    or :data:`SNAPSHOT_SHARE` times the last snapshot's cost when that is longer)."""

    interval: float
    progress: ProgressCallback | None
    progress_bytes: ProgressCallback | None
    last: float = field(default_factory=lambda: time.monotonic())
    spacing: float = 0.0
    """Seconds between snapshots beyond ``interval`` (0 until a snapshot's cost is known)."""

    def spaced(self, cost: float) -> None:
        """The next snapshot waits :data:`SNAPSHOT_SHARE` x ``cost`` (never less than ``interval``;
        ``interval=0`` asks for every batch)."""
        self.spacing = max(self.interval, SNAPSHOT_SHARE * cost) if self.interval > 0 else 0.0

    def report(self, done: int, total: int, meter: Throughput) -> bool:
        """Call the callbacks (cheap, every batch); True when a snapshot is due."""
        if self.progress is not None:
            self.progress(done, total)
        if self.progress_bytes is not None:
            self.progress_bytes(meter.done, meter.total)
        if time.monotonic() - self.last < max(self.spacing, self.interval):
            return False
        self.last = time.monotonic()
        return True


def _prepare(
    golden: str | Path | Dump,
    target: str | Path | Dump,
    model: str | Path | None,
    graph: str | Path | None,
    th: Thresholds,
) -> Comparison:
    """Open, parse (model and vendor graph, once) and pair: a Comparison without a frame yet."""
    with shared_listings():  # each folder listed once for the checks, every sniffer and the reader
        for side in (golden, target):  # both recognised before either is read
            if not isinstance(side, Dump):
                check_dump(side)
        g = golden if isinstance(golden, Dump) else open_dump(golden)
        t = target if isinstance(target, Dump) else open_dump(target)
    facts = _load_model(model)
    model_warnings = check_model(model, g, t, facts)
    if facts is not None:  # plain .npy folders: real names and graph facts from the model
        from dumpscope.core.comparison.graph_names import internal_layouts, with_graph_names  # (imports onnx)

        g, t = with_graph_names(g, facts), with_graph_names(t, facts)
    tensor_order, node_order = _graph_order(facts)
    links: _Links = {"internal_layouts": internal_layouts(facts)} if facts is not None else {}
    atc = _load_atc(graph)
    if atc is not None:
        t, vendor_links, atc_order = _vendor_graph(atc, t)
        links.update(vendor_links)
        node_order = node_order or atc_order
    pairing = pair_dumps(g, t, tensor_order=tensor_order, node_order=node_order, **links)
    check_pairing(pairing, g, t)
    meta = _meta(g, t, model, th, pairing, model_warnings)
    meta = replace(meta, graph=str(graph) if graph is not None else None)
    return Comparison(pl.DataFrame(), th, meta, g, t, pairing, facts, atc)


@dataclass(frozen=True)
class _RowContext:
    """What a row's computation needs beyond its pair: ``specs``, the golden names of
    Reshape shape inputs with the data shapes they resolve against."""

    specs: dict[str, ShapeSpec] = field(default_factory=dict)

    def compute(self, pairs: list[Pair], th: Thresholds, bands: list[str]) -> _Rows:
        """The row function the workers run: row ``i`` -> its metric columns."""
        return _Rows(pairs, th, bands, self)

    def key(self, pairs: list[Pair], bands: list[str], i: int) -> str:
        """The parts of row ``i``'s result that do not come from its files (for the cache key)."""
        return f"{bands[i]}|{self.specs.get(pairs[i].name)!r}"


@dataclass(frozen=True)
class _Rows:
    """The rows' computation as the workers run it: ``rows(i)`` is row ``i``'s columns
    (:func:`compute_row`); ``rows.batch(part)`` computes a whole task at once, the same
    columns, with every small float pair's metrics in one kernel call (see :func:`compute_rows`)."""

    pairs: list[Pair]
    th: Thresholds
    bands: list[str]
    context: _RowContext

    def __call__(self, i: int) -> dict[str, object]:
        return compute_row(self.pairs[i], self.th, self.context.specs.get(self.pairs[i].name), self.bands[i])

    def batch(self, part: Sequence[int]) -> TaskResult:
        """The rows of ``part`` packed (what ``[rows(i) for i in part]`` gives): small pairs
        through :class:`~.small.SmallLane`, the others by :func:`compute_rows`."""
        lane = SmallLane()
        small: list[tuple[int, np.dtype]] = []
        other: list[tuple[int, None]] = []
        for pos, i in enumerate(part):
            dtype = small_dtype(self.pairs[i], self.pairs[i].name in self.context.specs)
            if dtype is not None:
                small.append((pos, dtype))
            else:
                other.append((pos, None))
        for dtype in {d for _pos, d in small}:
            lane.reserve(dtype, sum(lane_values(self.pairs[part[pos]]) for pos, d in small if d == dtype))
        return self._lane_rows(part, lane, [pos for pos, _d in small], [pos for pos, _d in other])

    def _lane_rows(
        self, part: Sequence[int], lane: SmallLane, small: list[int], other: list[int]
    ) -> TaskResult:
        """Read the ``small`` positions into ``lane``, compute the rest as rows, and pack both."""
        rows: dict[int, dict[str, object]] = dict(
            zip(other, compute_rows(self, [part[pos] for pos in other]), strict=False)
        )
        for pos in small:
            loaded = _read_plain(self.pairs[part[pos]])
            if isinstance(loaded, str):
                rows[pos] = _error(loaded)
            else:
                lane.add(pos, loaded)
        clean, columns, leftovers = lane.finish(self.th, part.__getitem__)
        for left in leftovers:
            rows[left.pos] = self._leftover_row(part[left.pos], left)
        packed = TaskResult.pack([part[pos] for pos in rows], list(rows.values()))
        return TaskResult.joined(TaskResult(clean, columns), packed)

    def _leftover_row(self, i: int, left: Leftover) -> dict[str, object]:
        """A small pair with a finding, finished as a row (as :func:`compute_row` finishes it)."""
        g, t = left.golden, left.target
        shapes: dict[str, object] = {
            "shape": list(g.shape),
            "target_shape": list(t.shape),
            "dtype": dtype_name(g.dtype),
            "target_dtype": dtype_name(t.dtype),
        }
        return _Ready(shapes, Aligned(g, t), "", int(g.size)).row(
            self.pairs[i], self.th, self.bands[i], left.metrics
        )


def _fill(
    pairs: list[Pair],
    th: Thresholds,
    table: RowTable,
    where: tuple[int | None, Scheduler | None],
    batch: int,
    cache: RowCache | None = None,
    meter: Throughput | None = None,
    context: _RowContext | None = None,
    first: Sequence[int] | None = None,
) -> Iterator[int]:
    """Compute every matched pair into ``table`` (each worker owns whole tensors, see
    :mod:`.execution`); yield the rows done after each finished task.  Rows found in
    ``cache`` (same files, same run, same context) are filled from it first and not read
    at all.  ``where``: (worker processes, Dask scheduler address or None); ``meter``
    counts the bytes; ``first``: rows to start first (triage: the order of work, not of the frame)."""
    context = context or _RowContext()
    todo = [i for i, p in enumerate(pairs) if p.golden is not None and p.target is not None]
    keys, hits = _cached(cache, pairs, table, context, todo)
    done = len(pairs) - len(todo) + len(hits)
    if hits:
        yield done
    rest = _first_in_order([i for i in todo if i not in hits], first)
    yield from _compute(
        context.compute(pairs, th, table.bands), rest, pairs, table, where, batch, meter or Throughput(), done
    )
    if cache is not None:
        cache.save(keys, table, todo)


def _first_in_order(rows: list[int], first: Sequence[int] | None) -> list[int]:
    """``rows`` with those of ``first`` moved to the front, in ``first``'s order."""
    if not first:
        return rows
    rank = {i: k for k, i in enumerate(first)}
    return sorted(rows, key=lambda i: rank.get(i, len(rank)))


def _compute(
    compute: Callable[[int], dict[str, object]],
    rest: list[int],
    pairs: list[Pair],
    table: RowTable,
    where: tuple[int | None, Scheduler | None],
    batch: int,
    meter: Throughput,
    done: int,
) -> Iterator[int]:
    """Compute the rows ``rest`` into ``table``; the rows done after each finished task."""
    sizes = [_pair_bytes(pairs[i]) for i in rest]
    meter.total, meter.started = sum(sizes), time.monotonic()
    size_of = dict(zip(rest, sizes, strict=False))
    with _single_threaded_blas():
        for part in run_rows(compute, rest, sizes, where[0], batch, where[1]):
            table.put(part)
            meter.done += sum(size_of[i] for i in part.rows)
            done += len(part)
            yield done
    table.flush()


def _cached(
    cache: RowCache | None, pairs: list[Pair], table: RowTable, context: _RowContext, todo: list[int]
) -> tuple[list[str | None], set[int]]:
    """The cache keys of the rows ``todo`` (from their files' content and their context) and
    the rows filled from ``cache`` (none without one)."""
    if cache is None:
        return [], set()
    keys = cache.keys(
        [(pairs[i].golden, pairs[i].target) for i in todo],  # type: ignore[misc]  # rows to compute have both sides
        [context.key(pairs, table.bands, i) for i in todo],
    )
    return keys, _from_cache(cache, keys, todo, table)


def _from_cache(cache: RowCache, keys: list[str | None], todo: list[int], table: RowTable) -> set[int]:
    """Fill the rows ``cache`` holds (column by column, no Python object per value); the
    row indices filled."""
    found = cache.lookup(keys, todo)
    table.fill(found, ROW_COLUMNS)
    return set(found["_row"].to_list())


def _pair_bytes(p: Pair) -> int:
    """Bytes of both sides of a pair, from the metadata (1 MB a side when unknown)."""
    return sum(_tensor_bytes(ref.info) for ref in (p.golden, p.target) if ref is not None)


def _tensor_bytes(info: TensorInfo) -> int:
    if info.shape is None or info.dtype is None:
        return 1 << 20
    return math.prod(info.shape) * _itemsize(info.dtype)


_ITEMSIZES: dict[str, int] = {}


def _itemsize(dtype: str) -> int:
    """Bytes per value of a dtype name, remembered (``np.dtype(name)`` costs microseconds a row);
    2 for a dtype numpy does not know by name (bfloat16 without ml_dtypes)."""
    size = _ITEMSIZES.get(dtype)
    if size is None:
        try:
            size = np.dtype(dtype).itemsize
        except TypeError:
            size = 2
        _ITEMSIZES[dtype] = size
    return size


def _load_model(model: str | Path | None) -> GraphFacts | None:
    """The model's graph facts, parsed once for the whole comparison (None without a model)."""
    if model is None:
        return None
    from dumpscope.core.onnx.graph import load_graph

    return load_graph(model)


def _load_atc(graph: str | Path | None) -> AtcGraph | None:
    """The vendor graph, parsed once for the whole comparison (None without one)."""
    if graph is None:
        return None
    from dumpscope.core.vendor.atc_graph import load_graph

    return load_graph(graph)


def _graph_order(facts: GraphFacts | None) -> tuple[dict[str, int] | None, dict[str, int] | None]:
    if facts is None:
        return None, None
    return facts.tensor_order(), {n.name: n.index for n in facts.nodes}


class _Links(TypedDict, total=False):
    """What a model or a vendor graph adds to the pairing (:func:`~.pairing.pair_dumps`' arguments)."""

    origins: Mapping[str, tuple[str, int]]
    target_only: frozenset[str]
    no_name_fallback: frozenset[str]
    internal_layouts: Mapping[str, str]


def _vendor_graph(atc: AtcGraph, target: Dump) -> tuple[Dump, _Links, dict[str, int]]:
    """Pairing facts from an ATC graph, and the target with framework layouts applied."""
    from dumpscope.core.vendor import atc_graph as fusion

    if traits_of(target).device_layouts:
        from dumpscope.core.formats.ascend_dump import with_origin_formats

        target = with_origin_formats(target, fusion.origin_formats(atc))
    links: _Links = {
        "origins": fusion.target_origins(atc),
        "target_only": frozenset(fusion.target_only(atc)),
        "no_name_fallback": frozenset(fusion.unresolved_outputs(atc)),
    }
    return target, links, fusion.op_order(atc)


def _meta(
    g: Dump, t: Dump, model: str | Path | None, th: Thresholds, pairing: Pairing, model_warnings: list[str]
) -> ComparisonMeta:
    warnings = [*model_warnings] + [
        display(f"{side}: {p.path}: {p.message}")
        for side, d in (("golden", g), ("target", t))
        for p in d.problems
    ]
    warnings += _input_mismatch(g, t)
    return ComparisonMeta(
        golden=str(g.path),
        target=str(t.path),
        golden_format=g.format,
        target_format=t.format,
        model=str(model) if model else None,
        stage=detect_stage(g, t),
        preset=th.preset,
        order=pairing.order_source,
        version=__version__,
        warnings=tuple(warnings),
        unmatched_golden=len(pairing.unmatched_golden),
        unmatched_target=len(pairing.unmatched_target),
    )


def _input_mismatch(g: Dump, t: Dump) -> list[str]:
    """When golden and target were fed different inputs, say so first: no layer can be read then."""
    gm, tm = g.meta.get("manifest"), t.meta.get("manifest")
    if not isinstance(gm, dict) or not isinstance(tm, dict):
        return []
    gi = {i.get("name"): i.get("sha256") for i in gm.get("inputs", []) if isinstance(i, dict)}
    ti = {i.get("name"): i.get("sha256") for i in tm.get("inputs", []) if isinstance(i, dict)}
    return [
        f"input {name!r} differs between golden and target runs (different data was fed): "
        "check pre-processing before reading any layer"
        for name in sorted(set(gi) & set(ti), key=str)
        if gi[name] and ti[name] and gi[name] != ti[name]
    ]


def _run_band(target: Dump) -> str:
    """The precision of the target run: its least precise *float* activations, or int8
    when the run is quantised (a manifest that says so, or quantisation parameters).

    Integer activations do not count: one int8 tensor (an index, a mask, one quantised
    head) must not move every float row of an fp32 run to the int8 band.
    """
    manifest = target.meta.get("manifest")
    quantised = isinstance(manifest, dict) and manifest.get("target") == "int8"
    quantised = quantised or target.meta.get("quantised") is True  # a vendor run that says so (RKNN int8)
    quantised = quantised or any(
        k.startswith("quant_") for ref in target.tensors.values() for k, _v in ref.info.extra
    )
    floats = [
        d
        for ref in target.tensors.values()
        if ref.info.kind == "activation" and _is_float(d := ref.info.dtype)
    ]
    # a vendor run that computed in float16 but wrote float32 files (RKNN's fp16 simulator)
    computed = target.meta.get("computed_dtype")
    if computed is None and isinstance(manifest, dict):
        computed = manifest.get("computed_dtype")
    if isinstance(computed, str) and _is_float(computed):
        floats.append(computed)
    return judge.precision_band(floats, quantised)


def _is_float(dtype: str | None) -> bool:
    return dtype is not None and (dtype.startswith("float") or dtype == "bfloat16")


_scratch = threading.local()


def compute_row(
    p: Pair, th: Thresholds, spec: ShapeSpec | None = None, band: object = None
) -> dict[str, object]:
    """Read both tensors of a pair and compute its metric columns; never raises.

    ``spec``: the pair is a Reshape's shape input; compared by the shapes it resolves to.
    ``band``: the row's band (its absolute floor bounds which channel slices compete).
    A same-shape pair whose values match the golden only with its axes permuted (decisively,
    see :func:`~.shapes.decisive`) is compared as it is and fails as a layout mismatch.
    """
    ready = _ready(p, spec)
    if isinstance(ready, dict):
        return ready
    try:
        m = compare_arrays(ready.aligned.golden, ready.aligned.target, rtol=th.rtol, atol=th.atol)
    except (ValueError, TypeError, OSError, MemoryError) as exc:
        return {**ready.shapes, **_error(f"comparison failed: {exc}")}
    return ready.row(p, th, band, m)


def compute_rows(rows: _Rows, part: Sequence[int]) -> list[dict[str, object]]:
    """The columns of the rows ``part``, exactly as :func:`compute_row` gives them one by one.

    Each pair is read and lined up as usual; those that :func:`~.metrics.segmentable`
    allows (small float32/float64 pairs, the common case of a dump of many tiny tensors)
    are copied out of the read buffers and their metrics computed together per dtype by
    :func:`~.metrics.compare_segments` (one kernel call, bit for bit the per-pair result),
    the others pair by pair.  Never raises: a bad pair costs its own row.
    """
    out: list[dict[str, object] | None] = [None] * len(part)
    waiting: dict[np.dtype, list[tuple[int, _Ready]]] = {}
    for pos, i in enumerate(part):
        ready = _ready(rows.pairs[i], rows.context.specs.get(rows.pairs[i].name))
        if isinstance(ready, dict):
            out[pos] = ready
        elif segmentable(ready.aligned.golden, ready.aligned.target):
            waiting.setdefault(ready.aligned.golden.dtype, []).append((pos, ready.kept()))
        else:
            out[pos] = _finished(rows, i, ready)
    for group in waiting.values():
        _segmented(rows, part, group, out)
    done = [row for row in out if row is not None]
    assert len(done) == len(out), "every position is filled"
    return done


def _finished(rows: _Rows, i: int, ready: _Ready) -> dict[str, object]:
    """Row ``i``'s columns from its lined-up pair, computed on its own."""
    try:
        m = compare_arrays(ready.aligned.golden, ready.aligned.target, rtol=rows.th.rtol, atol=rows.th.atol)
    except (ValueError, TypeError, OSError, MemoryError) as exc:
        return {**ready.shapes, **_error(f"comparison failed: {exc}")}
    return ready.row(rows.pairs[i], rows.th, rows.bands[i], m)


def _segmented(
    rows: _Rows, part: Sequence[int], group: list[tuple[int, _Ready]], out: list[dict[str, object] | None]
) -> None:
    """The rows of ``group`` (positions in ``part`` with their lined-up pairs, one dtype) into
    ``out``, their metrics from one :func:`compare_segments` call."""
    golden = [ready.aligned.golden.reshape(-1) for _pos, ready in group]
    target = [ready.aligned.target.reshape(-1) for _pos, ready in group]
    offsets = np.zeros(len(group) + 1, dtype=np.int64)
    np.cumsum([a.size for a in golden], out=offsets[1:])
    metrics = compare_segments(
        np.concatenate(golden), np.concatenate(target), offsets, rtol=rows.th.rtol, atol=rows.th.atol
    )
    for (pos, ready), m in zip(group, metrics, strict=False):
        i = part[pos]
        out[pos] = ready.row(rows.pairs[i], rows.th, rows.bands[i], m)


@dataclass
class _Ready:
    """A pair read and lined up, its metrics still to compute: ``shapes`` (its shape and
    dtype columns), ``aligned`` (what is compared), ``layout`` (a declared-layout mismatch,
    ''), ``size`` (the golden's elements as read)."""

    shapes: dict[str, object]
    aligned: Aligned
    layout: str
    size: int

    def kept(self) -> _Ready:
        """The same pair with its arrays copied out of the reusable read buffers (valid
        after the next pair is read)."""
        self.aligned = replace(
            self.aligned, golden=np.array(self.aligned.golden), target=np.array(self.aligned.target)
        )
        return self

    def row(self, p: Pair, th: Thresholds, band: object, m: PairMetrics) -> dict[str, object]:
        """The row's columns once its metrics ``m`` are known."""
        notes = _row_notes(p, self.aligned, m)
        worst = _worst_of(p, th, band, self.aligned, m, notes)
        hard = render_hard_fail(m) if m.flags else ""  # no flag: no hard failure (and no enum arithmetic)
        return {
            **self.shapes,
            **{c: getattr(m, c) for c in _METRIC_COLUMNS},
            "size": self.size,
            "status": "computed",
            "notes": display("; ".join(notes)),
            "hard_fail": "; ".join(x for x in (self.layout, hard) if x),
            "hard_warn": self.aligned.warn,
            "worst_slice": worst,
        }


def _ready(p: Pair, spec: ShapeSpec | None) -> _Ready | dict[str, object]:
    """The pair read and lined up for its metrics, or its finished (error) row."""
    loaded = _load_pair(p)
    if isinstance(loaded, str):
        return _error(loaded)
    g, t = loaded
    shapes: dict[str, object] = {
        "shape": list(g.shape),
        "target_shape": list(t.shape),
        "dtype": dtype_name(g.dtype),
        "target_dtype": dtype_name(t.dtype),
    }
    aligned = _resolved_specs(g, t, spec) or align(g, t, declared_layouts(p.golden, p.target))
    layout = _layout_mismatch(aligned)
    problem = _non_numeric(g, t) or aligned.error
    if problem:
        return {**shapes, **_error(problem)}
    return _Ready(shapes, aligned, layout, int(g.size))


def _row_notes(p: Pair, aligned: Aligned, m: PairMetrics) -> list[str]:
    """The reader's notes, the alignment's, then the kernel's (none without a flag)."""
    return [*reader_notes(p), *([aligned.note] if aligned.note else []), *(m.notes if m.flags else ())]


def _worst_of(
    p: Pair, th: Thresholds, band: object, aligned: Aligned, m: PairMetrics, notes: list[str]
) -> int | None:
    """The worst channel slice of an activation (see :func:`_worst_slice`); None otherwise."""
    if p.golden is None or p.golden.info.kind != "activation":
        return None
    return _worst_slice(aligned, m, notes, th.floors.get(band, 0.0) if isinstance(band, str) else 0.0)


_METRIC_COLUMNS = (*FLOAT_COLUMNS, *COUNT_COLUMNS)


def _layout_mismatch(aligned: Aligned) -> str:
    """Why a same-shape pair is a layout mismatch ('' when it is not): its values match the
    golden only with the target's axes permuted (decisively, measured)."""
    found = aligned.permuted
    if found is None:
        return ""
    return (
        f"layout mismatch: same shape {list(aligned.golden.shape)}, but the target holds the golden's "
        f"values with its axes permuted {found.order()} ({found.agreement()}): it was fed or computed in "
        f"another axis order"
    )


def _worst_slice(aligned: Aligned, m: PairMetrics, notes: list[str], floor: float) -> int | None:
    """Per-slice metrics along the channel axis into ``m`` (only for a pair that differs at
    all, and where a slice could be destroyed: see :func:`slice_metrics`); the worst slice's
    index, said in ``notes`` when it is worse than the whole."""
    if not m.max_absolute_error:
        return None
    energy = m.root_mean_square_error**2 * m.compared if m.root_mean_square_error is not None else None
    s = slice_metrics(aligned.golden, aligned.target, floor, energy)
    if s is None:
        return None
    m.slice_cosine, m.slice_relative_distance = s.cosine, s.relative_distance
    if m.relative_euclidean_distance is not None and s.relative_distance > 2 * m.relative_euclidean_distance:
        notes.append(
            f"worst slice along axis {AXIS}: #{s.worst} of {s.slices} "
            f"(rel. distance {s.relative_distance:.3g}, whole tensor {m.relative_euclidean_distance:.3g})"
        )
    return s.worst


def _resolved_specs(g: np.ndarray, t: np.ndarray, spec: ShapeSpec | None) -> Aligned | None:
    """Both sides of a Reshape shape input resolved against their data shapes, when they
    resolve and their spellings differ (None: compare the tensors as they are)."""
    if spec is None or spec[0] is None or spec[1] is None or np.array_equal(g, t):
        return None
    rg, rt = resolve(np.asarray(g), spec[0]), resolve(np.asarray(t), spec[1])
    if rg is None or rt is None:
        return None
    note = (
        f"Reshape shape input: compared by the shape it resolves to (golden {g.tolist()} -> {rg.tolist()}, "
        f"target {t.tolist()} -> {rt.tolist()})"
    )
    return Aligned(rg, rt, note=note) if rg.shape == rt.shape else None


def _load_pair(p: Pair) -> tuple[np.ndarray, np.ndarray] | str:
    """Both tensors of a pair, or why one cannot be read.

    Each worker thread reads into its own two reusable buffers (no page faults, no
    contention on the memory map lock between threads).
    """
    assert p.golden is not None and p.target is not None
    if not hasattr(_scratch, "pair"):
        _scratch.pair = (Scratch(), Scratch())
    out = []
    for side, ref, buf in (("golden", p.golden, _scratch.pair[0]), ("target", p.target, _scratch.pair[1])):
        try:
            out.append(ref.load_transient(buf))
        except TensorReadError as exc:
            return f"{side} unreadable: {exc}"
    return out[0], out[1]


def _read_plain(p: Pair) -> tuple[np.ndarray, np.ndarray] | str:
    """:func:`_load_pair` for a pair of plain ``.npy`` readers (the small-pair lane): their
    ``read_into`` straight away; any failure is left to :func:`_load_pair` and its messages."""
    if not hasattr(_scratch, "pair"):
        _scratch.pair = (Scratch(), Scratch())
    g, t = p.golden.loader if p.golden else None, p.target.loader if p.target else None
    if not isinstance(g, NpyLoader) or not isinstance(t, NpyLoader):  # the lane takes only these
        return _load_pair(p)
    try:
        return g.read_into(_scratch.pair[0]), t.read_into(_scratch.pair[1])
    except Exception:  # noqa: BLE001 - read again the checked way, which says why
        return _load_pair(p)


def _non_numeric(g: np.ndarray, t: np.ndarray) -> str | None:
    """Why a side cannot be compared numerically (None when both can)."""
    for side, a in (("golden", g), ("target", t)):
        if a.dtype.kind not in "biuf" and a.dtype.name != "bfloat16":
            return f"{side} has dtype {a.dtype.name}, which has no numeric comparison"
    return None


def reader_notes(p: Pair) -> list[str]:
    """What a reader noted about how it read either side (``note`` facts), for the row."""
    return [
        f"{side}: {v}"
        for side, ref in (("golden", p.golden), ("target", p.target))
        if ref is not None
        for k, v in ref.info.extra
        if k == "note"
    ]


def _error(message: str) -> dict[str, object]:
    return {"health": "error", "status": "error", "message": display(message)}


class _single_threaded_blas:
    """Limit BLAS to one thread for the run: OpenBLAS threads each dot product over
    10k elements, which on a busy 2-core machine made the kernel 10-100x slower."""

    def __enter__(self) -> None:
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:  # optional: speed only
            self._ctx = None
            return
        self._ctx = threadpool_limits(limits=1, user_api="blas")

    def __exit__(self, *exc: object) -> None:
        if self._ctx is not None:
            self._ctx.restore_original_limits()
