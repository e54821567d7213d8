"""A comparison: what the CLI and the UI hold.

``compare(golden, target)`` runs four steps: **open** both dumps (:mod:`~dumpscope.core.formats`), **pair**
their tensors (:mod:`.pairing`), **fill** a row per pair (on every core: worker processes that each own whole
tensors, :mod:`.execution`, running :class:`~.rows.Rows` - the per-pair computation and its three row paths
are in :mod:`.rows`) and **judge** each row's health (:mod:`.judge`).  The result is a :class:`Comparison`:
one Polars frame with a row per tensor in topological order, plus lazy access to the tensors behind each
row.  ``compare_stream`` yields the same comparison while it fills in, for a UI that shows rows as they are
computed.

Polars (the frame, the judging, the ``--cache`` index) is imported only once the rows are being
computed: the workers are forked from a process without it (they never need it), and the parent
imports it and builds the row table on a thread of its own while the first tasks run
(:class:`_TableOnTheSide`).  In a fresh ``dumpscope compare`` that import is ~0.1-0.3 CPU s, which
came before any row was read.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from dumpscope import __version__
from dumpscope.core.comparison import judge
from dumpscope.core.comparison.bands import row_bands, run_band
from dumpscope.core.comparison.execution import (
    SCHEDULER_TIMEOUT_S,
    Scheduler,
    TaskResult,
    run_rows,
    single_threaded_blas,
)
from dumpscope.core.comparison.judge import Thresholds
from dumpscope.core.comparison.late import (
    Collected,
    LateContext,
    deferred,
    exact_names,
    read_one_sided,
)
from dumpscope.core.comparison.pairing import Pair, Pairing, pair_dumps
from dumpscope.core.comparison.rows import RowContext
from dumpscope.core.comparison.sanity import check_model, check_pairing
from dumpscope.core.comparison.shape_specs import shape_specs
from dumpscope.core.dumps import Dump, DumpError, TensorRef
from dumpscope.core.formats import check_dump, open_dump
from dumpscope.core.formats.npy_dir import deferred_headers
from dumpscope.core.formats.safe_fs import shared_listings
from dumpscope.core.heap import trim_free_heap
from dumpscope.core.names import display
from dumpscope.core.vendor.sigmastar import detect_stage
from dumpscope.core.vendor.traits import traits_of

if TYPE_CHECKING:
    import polars as pl

    from dumpscope.core.comparison.cache import RowCache
    from dumpscope.core.comparison.result import INTERNAL_COLUMNS, SCHEMA, Comparison, ComparisonMeta
    from dumpscope.core.comparison.table import RowTable
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

#: What this module re-exports from :mod:`.result`, loaded (with Polars) when first asked for.
_FROM_RESULT = ("INTERNAL_COLUMNS", "SCHEMA", "Comparison")


def __getattr__(name: str) -> object:
    if name in _FROM_RESULT:
        from dumpscope.core.comparison import result

        return getattr(result, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    first: Callable[[Comparison], Sequence[int] | None] | None = None,
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
    folder = _index_folder(target, cache)  # before a file opens (None without a cache)
    sides = None if folder is None else _cache_sides(golden, target, th)
    shown = [] if sides is None else _last_run(*sides, th, folder, wanted=not final_only)
    yield from shown  # a reopen paints the last run's rows before any file is read
    head = [] if final_only or shown or remote is not None else _head(golden, target, model, graph, th)
    yield from head  # the first rows judged while the whole dumps are opened
    late = final_only and remote is None and folder is None and model is None and graph is None
    run = _run_of(golden, target, model, graph, th, late)
    ticks = _Ticks(interval, progress, progress_bytes)
    if not final_only and not shown and not head:  # (not a frame of pending ones after rows were shown)
        yield run.snapshot(0)
        ticks.spaced(run.cost)
    where = (workers, remote)
    order = first(run.base) if first is not None else None
    for done in _fill(run, where, batch, run.cache(folder), order):
        if ticks.report(done, run.total, run.meter) and not final_only and done < run.total:
            yield run.snapshot(done)
            ticks.spaced(run.cost)
    yield run.finish(sides, folder)


def _run_of(
    golden: str | Path | Dump,
    target: str | Path | Dump,
    model: str | Path | None,
    graph: str | Path | None,
    th: Thresholds,
    late: bool,
) -> _Run:
    """The run, prepared: with the headers read by the workers where ``late`` allows it and the
    dumps are folders read by name paired by exact names (see :mod:`.late`), else every header
    read first."""
    base = _prepare(golden, target, model, graph, th, late=late)
    if not late or not deferred(base.golden, base.target):
        return _Run(base, th)
    if exact_names(base.pairing):
        return _LateRun(base, th)
    return _Run(_prepare(golden, target, model, graph, th), th)  # a looser link: chosen by the shapes


def _path_of(dump: str | Path | Dump) -> Path:
    return dump.path if isinstance(dump, Dump) else Path(dump)


def _index_folder(target: str | Path | Dump, cache: bool | str | Path) -> Path | None:
    """Where the ``--cache`` index of ``target`` is kept (see :func:`~.cache.index_folder`); None
    without a cache (and then nothing of the cache's, nor Polars, is loaded)."""
    if cache in (False, None):
        return None
    from dumpscope.core.comparison.cache import index_folder

    return index_folder(_path_of(target), cache)


def _cache_sides(
    golden: str | Path | Dump, target: str | Path | Dump, th: Thresholds
) -> tuple[Path, Path, str]:
    """What a ``--cache`` run's last frame is kept under: golden, target, the run's tag."""
    from dumpscope.core.comparison.cache import run_tag

    return _path_of(golden), _path_of(target), run_tag(th)


def _last_run(
    golden: Path, target: Path, tag: str, th: Thresholds, folder: Path | None, wanted: bool
) -> list[Progress]:
    """The frame the last ``--cache`` run of this pair kept (none when there is none or it
    is not ``wanted``), as a first snapshot with no row counted done: the rows are then
    checked against their files."""
    from dumpscope.core.comparison.cache import last_frame
    from dumpscope.core.comparison.result import Comparison, ComparisonMeta

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
    run = _Run(_Prepared(g, t, pairing, preview=covers), th)
    for _done in _fill(run, (1, None), HEAD_ROWS):
        pass
    return [Progress(0, 0, run.snapshot(run.total).comparison)]


def _thresholds(thresholds: Thresholds | Sequence[str] | None, preset: str) -> Thresholds:
    """The thresholds given, or the preset with the given overrides."""
    if isinstance(thresholds, Thresholds):
        return thresholds
    return Thresholds.from_preset(preset, thresholds or ())


@dataclass(frozen=True)
class _Prepared:
    """Both dumps opened, parsed (model and vendor graph) and paired: what the rows are computed
    from, before any frame (nothing here needs Polars)."""

    golden: Dump
    target: Dump
    pairing: Pairing
    facts: GraphFacts | None = None
    atc: AtcGraph | None = None
    model: str | Path | None = None
    graph: str | Path | None = None
    model_warnings: tuple[str, ...] = ()
    preview: str | None = None
    """What a preview frame covers (:func:`_head`); None for the whole comparison."""

    def comparison(self, th: Thresholds) -> Comparison:
        """The comparison with an empty frame (its meta, dumps, pairing and parsed graphs)."""
        import polars as pl

        from dumpscope.core.comparison.result import Comparison

        meta = _meta(self.golden, self.target, self.model, th, self.pairing, list(self.model_warnings))
        graph = str(self.graph) if self.graph is not None else None
        meta = replace(meta, graph=graph, preview=self.preview)
        return Comparison(
            pl.DataFrame(), th, meta, self.golden, self.target, self.pairing, self.facts, self.atc
        )


class _Run:
    """One comparison being filled in: what it was prepared from, its rows' bands, table and byte
    meter.  The table and the comparison (Polars) are built when first needed: the workers are
    started before (see :class:`_TableOnTheSide`)."""

    def __init__(self, prepared: _Prepared, th: Thresholds, bands: list[str] | None = None) -> None:
        """``bands``: the rows' bands when known otherwise than from the headers (:class:`_LateRun`)."""
        self.prepared, self.th = prepared, th
        self.golden, self.target = prepared.golden, prepared.target
        self.pairs = prepared.pairing.pairs
        trim_free_heap()  # the decoded listings and manifests: the Polars columns would not reuse them
        self.bands = row_bands(self.pairs, th, run_band(self.target)) if bands is None else bands
        self.total = len(self.pairs)
        self.meter = Throughput()
        self.cost = 0.0
        """Seconds the last snapshot took to build."""
        self.row_cache: RowCache | None = None

    def wants_aside(self) -> bool:
        """Whether :meth:`aside` has work (the table not built yet: a first snapshot or a cache
        may have needed it earlier)."""
        return "table" not in self.__dict__

    def aside(self) -> None:
        """What is built on a thread beside the first tasks (:class:`_TableOnTheSide`): the
        table and the comparison's meta (Polars)."""
        self.table  # noqa: B018 - built and kept by the cached properties
        self.base  # noqa: B018 - (its meta: what the last snapshot needs besides the rows)

    @cached_property
    def base(self) -> Comparison:
        """The comparison as prepared, with an empty frame."""
        return self.prepared.comparison(self.th)

    @cached_property
    def table(self) -> RowTable:
        """The rows' typed columns, the identity ones filled."""
        from dumpscope.core.comparison.table import RowTable

        table = RowTable(self.pairs, self.bands)
        trim_free_heap()  # the Python lists the identity columns were built from
        return table

    def snapshot(self, done: int) -> Progress:
        """The comparison as it stands, judged (with a ``cached`` column in a ``--cache`` run:
        True where the row was served from the index)."""
        start = time.monotonic()
        frame = judge.judge(_with_vendor_report(self.table.frame(), self.base), self.th)
        if self.row_cache is not None:
            import polars as pl

            from dumpscope.core.comparison.cache import CACHED_COLUMN

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
            from dumpscope.core.comparison.cache import save_last_frame

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
            from dumpscope.core.comparison.cache import RowCache, run_tag

            self.row_cache = RowCache.open(self.golden, self.target, run_tag(self.th), folder=folder)
        return self.row_cache

    def context(self) -> RowContext:
        """What every row's computation needs beyond its pair."""
        specs = shape_specs(self.golden, self.target, self.prepared.facts)
        return RowContext(specs)


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


class _LateRun(_Run):
    """A run whose workers read the headers (:mod:`.late`): the bands, the table and the
    pairing's size check once the rows are in.  Beside the first tasks only the table's modules
    (Polars) are loaded: the table needs every header."""

    def __init__(self, prepared: _Prepared, th: Thresholds) -> None:
        read_one_sided(prepared.pairing.pairs)
        self.rows = Collected(prepared.pairing.pairs, th)
        # the bands are not known yet: placeholders that make each row send its worst slice for every floor
        super().__init__(prepared, th, self.rows.bands)  # type: ignore[arg-type]
        self.table = self.rows  # type: ignore[assignment]  # put/flush until finish() builds the table

    def wants_aside(self) -> bool:
        return True

    def aside(self) -> None:
        import dumpscope.core.comparison.result  # noqa: F401 - Polars, loaded beside the first tasks
        import dumpscope.core.comparison.table  # noqa: F401

    def finish(self, sides: tuple[Path, Path, str] | None, folder: Path | None = None) -> Progress:
        from dumpscope.core.comparison.table import RowTable

        check_pairing(self.prepared.pairing, self.golden, self.target)  # the sizes are known now
        trim_free_heap()  # as _Run does around its table
        self.bands = row_bands(self.pairs, self.th, run_band(self.target))
        self.table = RowTable(self.pairs, self.bands)
        trim_free_heap()
        self.rows.into(self.table)
        return super().finish(sides, folder)

    def context(self) -> RowContext:
        return LateContext(super().context().specs)


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
    late: bool = False,
) -> _Prepared:
    """Open, parse (model and vendor graph, once) and pair: what a comparison is computed from
    (``late``: a folder read by name is opened without its headers, see :mod:`.late`)."""
    with shared_listings(), deferred_headers() if late else nullcontext():  # each folder listed once
        # both recognised before either is read, each sniffed once
        formats = [None if isinstance(side, Dump) else check_dump(side) for side in (golden, target)]
        g = golden if isinstance(golden, Dump) else open_dump(golden, formats[0])
        t = target if isinstance(target, Dump) else open_dump(target, formats[1])
    facts = _load_model(model)
    t, graph = _ncnn_blobs(g, t, facts, graph)
    model_warnings = check_model(model, g, t, facts)
    if facts is not None:  # plain .npy folders: real names and graph facts from the model
        from dumpscope.core.comparison.graph_names import internal_layouts, with_graph_names  # (imports onnx)

        g, t = with_graph_names(g, facts), with_graph_names(t, facts)
    tensor_order, node_order = _graph_order(facts)
    links: _Links = {"internal_layouts": internal_layouts(facts)} if facts is not None else {}
    atc = _load_atc(graph) if t.meta.get("ncnn_pairing") is None else None
    if atc is not None:
        t, vendor_links, atc_order = _vendor_graph(atc, t)
        links.update(vendor_links)
        node_order = node_order or atc_order
    pairing = pair_dumps(g, t, tensor_order=tensor_order, node_order=node_order, **links)
    check_pairing(pairing, g, t)
    return _Prepared(g, t, pairing, facts, atc, model, graph, tuple(model_warnings))


def _fill(
    run: _Run,
    where: tuple[int | None, Scheduler | None],
    batch: int,
    cache: RowCache | None = None,
    first: Sequence[int] | None = None,
) -> Iterator[int]:
    """Compute every matched pair into ``run``'s table (each worker owns whole tensors, see
    :mod:`.execution`); yield the rows done after each finished task.  Rows found in
    ``cache`` (same files, same run, same context) are filled from it first and not read
    at all.  ``where``: (worker processes, Dask scheduler address or None); ``first``: rows
    to start first (triage: the order of work, not of the frame)."""
    pairs, context = run.pairs, run.context()
    todo = [i for i, p in enumerate(pairs) if p.golden is not None and p.target is not None]
    keys, hits = _cached(cache, run, context, todo)
    done = len(pairs) - len(todo) + len(hits)
    if hits:
        yield done
    rest = _first_in_order([i for i in todo if i not in hits], first)
    yield from _compute(context.compute(pairs, run.th, run.bands), rest, run, where, batch, done)
    if cache is not None:
        cache.save(keys, run.table, todo)


def _first_in_order(rows: list[int], first: Sequence[int] | None) -> list[int]:
    """``rows`` with those of ``first`` moved to the front, in ``first``'s order."""
    if not first:
        return rows
    rank = {i: k for k, i in enumerate(first)}
    return sorted(rows, key=lambda i: rank.get(i, len(rank)))


def _compute(
    compute: Callable[[int], dict[str, object]],
    rest: list[int],
    run: _Run,
    where: tuple[int | None, Scheduler | None],
    batch: int,
    done: int,
) -> Iterator[int]:
    """Compute the rows ``rest`` into ``run``'s table (built meanwhile when it is not yet: see
    :class:`_TableOnTheSide`); the rows done after each finished task."""
    meter = run.meter
    sizes = [_pair_bytes(run.pairs[i]) for i in rest]
    meter.total, meter.started = sum(sizes), time.monotonic()
    size_of = dict(zip(rest, sizes, strict=False))
    side = _TableOnTheSide(run)
    try:
        with single_threaded_blas():
            for part in side.in_order(run_rows(compute, rest, sizes, where[0], batch, where[1], aside=side)):
                run.table.put(part)
                meter.done += sum(size_of[i] for i in part.rows)
                done += len(part)
                yield done
    finally:
        side.close()
    run.table.flush()


class _TableOnTheSide:
    """A run's row table (and its comparison's meta) built on a thread of this process while its
    first tasks are computed, when it is not built yet (a fresh ``dumpscope compare``: Polars'
    import, ~0.1-0.3 CPU s, and the identity columns): the :class:`~.execution.Aside` of
    :func:`~.execution.run_rows`, which calls :meth:`start` once the workers are forked (never with
    this thread running: it is started after every fork).  Results that arrive before the table is
    ready wait here, in their order."""

    def __init__(self, run: _Run) -> None:
        self.run = run
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None
        self.waiting: list[TaskResult] = []

    def start(self) -> None:
        if self.thread is not None or not self.run.wants_aside():
            return
        self.thread = threading.Thread(target=self._build, name="dumpscope-row-table", daemon=True)
        self.thread.start()

    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def _build(self) -> None:
        try:
            self.run.aside()
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread (finish)
            self.error = exc

    def in_order(self, results: Iterator[TaskResult]) -> Iterator[TaskResult]:
        """``results`` as they can go into the table: held while it is being built."""
        for part in results:
            yield from self.arrived(part)
        yield from self.finish()

    def arrived(self, part: TaskResult) -> list[TaskResult]:
        """The results ready to go into the table: none while it is being built, then every one
        that waited, in order."""
        self.waiting.append(part)
        if self.running():
            return []
        return self.finish()

    def finish(self) -> list[TaskResult]:
        """Wait for the table (raising what building it raised); the results that waited."""
        self.close()
        if self.error is not None:
            raise self.error
        ready, self.waiting = self.waiting, []
        return ready

    def close(self) -> None:
        if self.thread is not None:
            self.thread.join()


def _cached(
    cache: RowCache | None, run: _Run, context: RowContext, todo: list[int]
) -> tuple[list[str | None], set[int]]:
    """The cache keys of the rows ``todo`` (from their files' content and their context) and
    the rows filled from ``cache`` (none without one)."""
    if cache is None:
        return [], set()
    pairs = run.pairs
    keys = cache.keys(
        [(pairs[i].golden, pairs[i].target) for i in todo],  # type: ignore[misc]  # rows to compute have both sides
        [context.key(pairs, run.bands, i) for i in todo],
    )
    return keys, _from_cache(cache, keys, todo, run.table)


def _from_cache(cache: RowCache, keys: list[str | None], todo: list[int], table: RowTable) -> set[int]:
    """Fill the rows ``cache`` holds (column by column, no Python object per value); the
    row indices filled."""
    from dumpscope.core.comparison.cache import ROW_COLUMNS

    found = cache.lookup(keys, todo)
    table.fill(found, ROW_COLUMNS)
    return set(found["_row"].to_list())


def _pair_bytes(p: Pair) -> int:
    """Bytes of both sides of a pair, from the metadata (1 MB a side when unknown)."""
    g, t = p.golden, p.target  # (no generator: one pair a row, before any task starts)
    return (0 if g is None else _tensor_bytes(g)) + (0 if t is None else _tensor_bytes(t))


def _tensor_bytes(ref: TensorRef) -> int:
    info = ref.info
    if info.shape is None or info.dtype is None:
        listed = getattr(ref.loader, "file_bytes", None)  # a header not read yet: the file's size
        return listed if isinstance(listed, int) else 1 << 20
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


def _ncnn_blobs(
    g: Dump, t: Dump, facts: GraphFacts | None, graph: str | Path | None
) -> tuple[Dump, str | Path | None]:
    """An ncnn blob folder (its own ``.param``, or ``--graph model.ncnn.param``) paired with the
    golden by the ONNX graph (:func:`~dumpscope.core.vendor.ncnn.paired_dump`); others as they are."""
    if graph is None and t.meta.get("ncnn_param") is None:  # (nothing of ncnn's: its module is not loaded)
        return t, graph
    from dumpscope.core.vendor import ncnn

    given = graph is not None and ncnn.is_param(graph)
    param = graph if given else t.meta.get("ncnn_param")
    if not isinstance(param, str | Path):
        return t, graph
    if facts is None:
        raise DumpError(
            f"{t.path}: ncnn blobs are numbered by pnnx; pairing them with the golden needs the ONNX "
            "model they were converted from: pass --model MODEL.onnx"
        )
    return ncnn.paired_dump(t, g, facts, param), graph


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
    from dumpscope.core.comparison.result import ComparisonMeta

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
