"""How a comparison's rows are scheduled: every core, each worker owning whole tensors.

The metric kernel does a pair in one C call with the GIL released, but the Python around
each row holds the GIL; in threads two ran at 1.0-1.1x one (measured with the earlier
kernel, which had Python around every 32k-element chunk).
Here each worker is a *process* (forked, so it inherits the opened dumps and the pairing
without pickling them), fed through its own pipe by the caller's thread (no helper
threads in the parent): it reads its own tensors (``TensorRef.load_transient`` into its
own scratch buffers) and sends back one compact :class:`TaskResult` per task: the rows
packed by column, with the CPU seconds and page faults the task cost.  The parent merges
a task with one slice assignment per column; up to :data:`PARENT_WORKS_UP_TO` workers it is
one of them (``workers=2``: the parent and one forked process), computing tasks between
collecting the others' results.  A row is computed by the same function
whatever the worker count, so the frame is identical for 1, 2 or 192 workers.

Where ``fork`` is not available (Windows, or ``DUMPSCOPE_WORKERS=threads``) the rows are
computed by a thread pool instead: same rows, less speed-up.

Contention
----------
* BLAS: one thread per worker (each worker owns one core; a threaded BLAS only contends).
* Memory: each worker reads into its own reusable scratch buffers (no page fault per
  tensor); the parent freezes its heap (``gc.freeze``) while it forks, so a worker's
  collector never writes to the pages it shares with the parent (copy-on-write faults).
* Results: one pickle per task, ~270 bytes per row, packed by column: the parent's share
  per row is ~4 us (unpickle 2 + merge 1.5; it was ~14 us as one dict per row).
* Balance: task sizes shrink as the work runs out (:func:`tasks`, guided scheduling), so
  the workers finish within one small task of each other.

On paper: a 192-core server
---------------------------
Measured here (``bench/bench_workers.py`` prints the CPU accounting): a worker reads and
compares ~1.4 GB/s of float32-vs-float16 tensor data per core (page cache to its scratch
buffer, then the kernel: 2.4-2.9 ns per element pair; measured at load 23 on the 2-core box,
so an idle core does more; it was ~0.9 GB/s before the one-call kernel).  The parent's
serial work is ~125 us *per row* whatever the tensor size
(both headers opened, pairing, the row's identity columns, frame build and judging) plus
~4 us per row merged, and ~20 ms per run to fork two workers.  On the 1 GB bench (240
rows of 4.2 MB) that was a serial share of 3-5 % (Amdahl: 1.91-1.94x on 2 cores); with the
rows now cheaper it measured 7.2-7.6 % (load 22-23; Amdahl 1.86x, the accounting 1.70-1.73x).

* **Tasks per worker.**  A task is at most :data:`TASK_BYTES` (32 MB, ~35 ms of one core),
  shrinking to :data:`MIN_TASK_BYTES` at the end.  A 300 GB msprobe rank is ~9,400 tasks:
  ~49 per worker at 192 workers; the tail is one 2 MB task (~2 ms).  Two tasks per worker
  are in flight, so a worker never waits for the parent.
* **Bytes per task.**  Out: the row indices (~5 B a row).  Back: ~270 B a row (33
  numbers and 5 short strings).  At 192 x 0.9 GB/s = 173 GB/s of 4 MB tensors that is
  ~43k rows/s: ~12 MB/s through the pipes and 0.17 s of merging per second, fine.
* **The serial share.**  Per 4 MB row the parent pays ~130 us, a worker ~4.6 ms: 2.7 %.
  That caps one comparison at 1 / (0.027 + 0.973 / 192) = 31x on 192 cores, not 192x:
  a 300 GB rank of 4 MB tensors (75k rows) is ~10 s of parent against 1.8 s of workers.
  To scale, the per-row set-up must leave the parent: read the headers in the workers (or
  from the Parquet row index) so that only the ~4 us merge stays serial (s = 0.09 %:
  ~165x).  Today the practical route is rank parallelism: msprobe's ranks are independent
  comparisons (``compare_msprobe(workers=...)``), each with its own parent, so 8 ranks
  x 24 workers give 8 x 1 / (0.027 + 0.973 / 24) = ~118x.
* **Memory bandwidth.**  Each tensor byte crosses DRAM about three times (page cache
  read, scratch write, kernel read: tensors over a few MB do not stay in cache), so 192
  workers at 0.9 GB/s need ~520 GB/s: about all of a 4-socket Kunpeng 920 (4 x 8
  DDR4-2933 channels, ~750 GB/s peak, ~500 GB/s sustained).  Past ~150 cores the run is
  memory-bound: ~150 GB/s of tensors, still 500-1,500x the 0.1-0.3 GB/s quoted for
  msprobe's compare on such a machine.  On the 2-core box here, two workers already cost
  1.1-1.2x the CPU of one for the same rows (``work x`` in the bench: shared cache and
  memory bandwidth).  Storage is the real limit: a 300 GB rank not in the page cache
  reads at the disks' speed (a few GB/s per NVMe drive).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import socket
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass, field
from itertools import islice
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as connection_wait
from typing import TYPE_CHECKING, Protocol

import numpy as np

from dumpscope.core.dumps import DumpError

if TYPE_CHECKING:  # (the thread pool is the fallback where fork is not: loaded only there)
    from concurrent.futures import Executor, Future

try:
    import resource
except ImportError:  # pragma: no cover - not on POSIX
    resource = None  # type: ignore[assignment]  # no resource module (Windows): page faults read as 0

__all__ = [
    "Aside",
    "Ledger",
    "RowFn",
    "Scheduler",
    "SchedulerError",
    "TaskResult",
    "accounting",
    "available_cores",
    "run_rows",
    "single_threaded_blas",
]

#: ``compute(i) -> row``: the columns of row ``i`` (never raises).
RowFn = Callable[[int], dict[str, object]]
#: Bytes of tensor data per task: large enough that the round trip is noise next to
#: reading the data, small enough to balance two workers on a few hundred tensors.
TASK_BYTES = 32 << 20
#: Below this many rows a pool costs more than it saves (fork + start-up ~20 ms).
MIN_PARALLEL_ROWS = 16
#: The smallest task at the end of a guided run (see :func:`tasks`): ~2 ms of one core.
MIN_TASK_BYTES = 2 << 20
#: Up to this many workers the calling process is one of them: it computes tasks between
#: collecting the forked workers' results, so ``workers=2`` forks one process, not two (a fork,
#: a worker's start-up and exit, and half the results through pipes saved: ~30 % of the serial
#: part on bench_workers' 1 GB pair).  With more workers the results it merges would wait
#: behind its own tasks and the workers' queues run dry, so from there it only coordinates.
PARENT_WORKS_UP_TO = 4

#: A task of this many rows or more sends its number columns as arrays
#: (:meth:`TaskResult.with_number_arrays`): for 42 rows the parent unpickles it in 22 us instead
#: of 37; for 8 rows (the 1 GB bench's tasks) the arrays cost the worker ~60 us more than the
#: lists (their making and pickling) and save the parent nothing.
ARRAY_ROWS = 32

_job: RowFn | None = None
_START = threading.Lock()
_USAGE_WHO = getattr(resource, "RUSAGE_THREAD", getattr(resource, "RUSAGE_SELF", 0))


@dataclass
class TaskResult:
    """One task's rows as a worker sends them back: packed by column, not a dict per row.

    ``values[column]`` holds one value per row of ``rows``; ``absent[column]`` lists the
    positions (in ``rows``) whose row did not set that column (an error row sets only a
    few).  ``cpu``/``faults``: CPU seconds and minor page faults the task cost its
    worker (process ``pid``), for the accounting in :class:`Ledger`.
    """

    rows: list[int]
    values: dict[str, list[object]] = field(default_factory=dict)
    absent: dict[str, list[int]] = field(default_factory=dict)
    cpu: float = 0.0
    faults: int = 0
    pid: int = 0

    @classmethod
    def pack(cls, rows: list[int], dicts: list[dict[str, object]]) -> TaskResult:
        """The rows ``dicts`` (one per index of ``rows``) packed by column."""
        keys = list(dicts[0]) if dicts else []
        if keys and all(list(row) == keys for row in dicts):  # (a task's rows, nearly always: none absent)
            transposed = zip(*(row.values() for row in dicts), strict=True)  # (a tuple of one value a row)
            return cls(rows, dict(zip(keys, map(list, transposed), strict=True)))
        columns = dict.fromkeys(key for row in dicts for key in row)
        values = {key: [row.get(key) for row in dicts] for key in columns}
        absent = {key: [p for p, row in enumerate(dicts) if key not in row] for key in columns}
        return cls(rows, values, {key: gaps for key, gaps in absent.items() if gaps})

    @classmethod
    def joined(cls, first: TaskResult, second: TaskResult) -> TaskResult:
        """One result holding the rows of both (a column one of them lacks is absent there)."""
        keys = dict.fromkeys([*first.values, *second.values])
        values = {key: _column(first, key) + _column(second, key) for key in keys}
        absent = {key: _absent(first, key, 0) + _absent(second, key, len(first)) for key in keys}
        return cls(first.rows + second.rows, values, {key: gaps for key, gaps in absent.items() if gaps})

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[tuple[int, dict[str, object]]]:
        """``(index, row)`` pairs, each row with exactly the columns it set."""
        for p, i in enumerate(self.rows):
            yield i, {key: vals[p] for key, vals in self.values.items() if p not in self.absent.get(key, ())}

    def with_number_arrays(self) -> TaskResult:
        """This result with each column whose values are all Python floats, or all Python ints,
        held as one numpy array (float64, int64): one buffer through a worker's pipe and into the
        row table (:meth:`~.table.RowTable.put`) instead of a boxed object per value, which the
        parent unpickled and then turned into an array itself, serially.  The values are exactly
        the same (a float64 or an int64 holds a Python float or an int64-sized int whole); any
        other column stays a list.  For a consumer that takes arrays (a row table): ``__iter__``,
        :meth:`joined` and :meth:`merge_into` are for lists."""
        for key, vals in self.values.items():
            array = _number_array(vals)
            if array is not None:
                self.values[key] = array  # type: ignore[assignment]  # a row table takes either
        return self

    def __getstate__(self) -> dict[str, object]:
        """What goes through a worker's pipe: the number arrays of one type as one 2-D array (one
        buffer to unpickle, not one per column: ~2 us each, 30 columns a task)."""
        state = dict(self.__dict__)
        arrays: dict[str, np.ndarray] = {}
        for key, vals in self.values.items():
            if isinstance(vals, np.ndarray) and vals.ndim == 1:
                arrays[key] = vals
        if len(arrays) > 1:
            state["values"] = {k: None if k in arrays else v for k, v in self.values.items()}  # (the order)
            by_type: dict[str, list[str]] = {}
            for key, array in arrays.items():
                by_type.setdefault(array.dtype.str, []).append(key)
            state["_stacked"] = [(keys, np.stack([arrays[k] for k in keys])) for keys in by_type.values()]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        stacked = state.pop("_stacked", None)
        self.__dict__.update(state)
        if stacked is not None:
            assert isinstance(stacked, list), "as __getstate__ packs them"
            for keys, matrix in stacked:
                self.values.update(zip(keys, matrix, strict=True))  # (a row of the 2-D array a column)

    def merge_into(self, columns: dict[str, list[object]]) -> None:
        """Write every row's values into ``columns`` (lists indexed by row)."""
        start = self.rows[0] if self.rows else 0
        contiguous = self.rows == list(range(start, start + len(self.rows)))
        for key, vals in self.values.items():
            if contiguous and key not in self.absent:
                columns[key][start : start + len(vals)] = vals
            else:
                _scatter(columns[key], self.rows, vals, set(self.absent.get(key, ())))


def _number_array(values: Sequence[object]) -> np.ndarray | None:
    """``values`` as a float64 or int64 array when every one is a Python float, or every one a
    Python int that int64 holds (not a bool, not a numpy scalar: those keep their own types);
    None otherwise."""
    if not isinstance(values, list) or not values:
        return None
    kind = type(values[0])
    if (kind is not float and kind is not int) or any(type(v) is not kind for v in values):
        return None
    try:
        return np.array(values, dtype=np.float64 if kind is float else np.int64)
    except OverflowError:  # an int beyond int64: kept as it is
        return None


def _column(result: TaskResult, key: str) -> list[object]:
    """``result``'s values of ``key`` (None for every row when it has none)."""
    return result.values.get(key) or [None] * len(result)


def _absent(result: TaskResult, key: str, shift: int) -> list[int]:
    """Positions (shifted by ``shift``) of ``result``'s rows that do not set ``key``."""
    if key not in result.values:
        return list(range(shift, shift + len(result)))
    return [p + shift for p in result.absent.get(key, ())]


def _scatter(column: list[object], rows: list[int], vals: list[object], skip: set[int]) -> None:
    """``column[rows[p]] = vals[p]`` for every position ``p`` not in ``skip``."""
    for p, (i, value) in enumerate(zip(rows, vals, strict=False)):
        if p not in skip:
            column[i] = value


@dataclass
class Ledger:
    """Where a run's CPU time went, task by task: per process, the CPU seconds spent
    computing rows and the minor page faults taken (see :func:`accounting`)."""

    cpu: dict[int, float] = field(default_factory=dict)
    faults: dict[int, int] = field(default_factory=dict)
    tasks: int = 0
    rows: int = 0
    longest: float = 0.0
    """CPU seconds of the costliest task."""
    last: float = 0.0
    """CPU seconds of the task that finished last (with guided task sizes, about the tail
    a balanced run waits for at the end)."""

    def add(self, result: TaskResult) -> None:
        """Count one finished task."""
        self.cpu[result.pid] = self.cpu.get(result.pid, 0.0) + result.cpu
        self.faults[result.pid] = self.faults.get(result.pid, 0) + result.faults
        self.tasks += 1
        self.rows += len(result)
        self.longest, self.last = max(self.longest, result.cpu), result.cpu

    @property
    def task_cpu(self) -> float:
        """CPU seconds spent computing rows, every process together."""
        return sum(self.cpu.values())


_ledgers: list[Ledger] = []


@contextmanager
def accounting() -> Iterator[Ledger]:
    """Count every task finished while the block runs (e.g. one ``compare``), for a
    benchmark's CPU-time accounting: ``with accounting() as ledger: compare(...)``."""
    ledger = Ledger()
    _ledgers.append(ledger)
    try:
        yield ledger
    finally:
        _ledgers.remove(ledger)


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def tasks(todo: Sequence[int], sizes: Sequence[int], rows: int, workers: int = 1) -> list[list[int]]:
    """Cut the row indices into tasks of about :data:`TASK_BYTES` and at most ``rows`` rows.

    For several ``workers`` the budget shrinks as the work runs out (guided scheduling):
    a task is at most ``1 / (2 * workers)`` of the bytes left, down to
    :data:`MIN_TASK_BYTES`, so the workers finish within one small task of each other.
    """
    out: list[list[int]] = []
    part: list[int] = []
    weight, left = 0, sum(sizes)
    for i, size in zip(todo, sizes, strict=False):
        part.append(i)
        weight += size
        if weight >= _budget(left, workers) or len(part) >= rows:
            out.append(part)
            part, weight, left = [], 0, left - weight
    if part:
        out.append(part)
    return out


def _budget(left: int, workers: int) -> int:
    """The bytes of the next task when ``left`` bytes remain for ``workers`` workers."""
    if workers <= 1:
        return TASK_BYTES
    return min(TASK_BYTES, max(MIN_TASK_BYTES, left // (2 * workers)))


def run_rows(
    compute: RowFn,
    todo: Sequence[int],
    sizes: Sequence[int],
    workers: int | None,
    batch: int = 64,
    scheduler: str | Scheduler | None = None,
    aside: Aside | None = None,
) -> Iterator[TaskResult]:
    """Compute every row of ``todo``; yield each finished task's :class:`TaskResult`.

    ``sizes``: each row's bytes (both sides), to balance tasks.  ``workers``: processes
    (None = every available core); ``batch``: rows per task at most.  ``scheduler``: the
    address of a Dask distributed scheduler to run the tasks on instead (the optional
    ``dask`` extra).  Tasks are started in the order of ``todo`` and finish in any order;
    each row is computed once.  ``aside``: the caller's own work, to overlap the rows (see
    :class:`Aside`).
    """
    count = min(workers or available_cores(), max(1, len(todo) // MIN_PARALLEL_ROWS))
    parts = tasks(todo, sizes, max(1, batch), count if scheduler is None else 1)
    with closing(_results(compute, parts, count, scheduler, aside or _NO_ASIDE)) as results:
        for result in results:  # a caller that stops iterating closes the pool at once
            for ledger in _ledgers:
                ledger.add(result)
            yield result


class Aside(Protocol):
    """Work of the caller's that can overlap the rows' computation (e.g. importing Polars and building
    the frame's table in a fresh process: the workers need neither).  :func:`run_rows` calls
    :meth:`start` once, in this process, when the rows are being computed (the workers forked and their
    first tasks sent, before any task runs in this process): a thread started then is never forked.
    While :meth:`running` says so, this process takes no task of its own when workers compute them."""

    def start(self) -> None: ...

    def running(self) -> bool: ...


class _NoAside:
    def start(self) -> None:
        pass

    def running(self) -> bool:
        return False


_NO_ASIDE = _NoAside()
#: Seconds between looks at whether the caller's work aside (:class:`Aside`) is done, while this
#: process only hands out tasks.
ASIDE_POLL_S = 0.005


def _results(
    compute: RowFn,
    parts: list[list[int]],
    count: int,
    scheduler: str | Scheduler | None,
    aside: Aside,
) -> Generator[TaskResult, None, None]:
    """The tasks' results from where they run: Dask, this process, or ``count`` workers."""
    if scheduler is not None:
        where = scheduler if isinstance(scheduler, Scheduler) else Scheduler.of(scheduler)
        return _dask_rows(compute, parts, where, aside)
    if count <= 1:
        return _in_process(compute, parts, aside)
    return _pooled(compute, parts, count, aside)


def _in_process(compute: RowFn, parts: list[list[int]], aside: Aside) -> Generator[TaskResult, None, None]:
    aside.start()  # (this process computes the tasks meanwhile: no worker would wait for it)
    for part in parts:
        yield _run_part(compute, part)


def _pooled(
    compute: RowFn, parts: list[list[int]], count: int, aside: Aside
) -> Generator[TaskResult, None, None]:
    """The tasks on ``count`` forked workers (a thread pool where fork is unavailable)."""
    if (
        os.environ.get("DUMPSCOPE_WORKERS") == "threads"
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(count) as pool:
            yield from _drain(pool, compute, parts, count, aside)
        return
    helping = count <= PARENT_WORKS_UP_TO  # the parent computes tasks too: one process fewer to fork
    workers = _Forked(compute, count - 1 if helping else count)
    try:
        yield from workers.run(parts, compute if helping else None, aside)
    finally:
        workers.close()


def _drain(
    pool: Executor, compute: RowFn, parts: list[list[int]], count: int, aside: Aside
) -> Iterator[TaskResult]:
    """Keep about two tasks per thread in flight (a cancelled run stops soon); yield as they finish."""
    from concurrent.futures import FIRST_COMPLETED, wait

    queue = iter(parts)
    running: set[Future[TaskResult]] = set()

    def submit(part: list[int]) -> Future[TaskResult]:
        return pool.submit(_run_part, compute, part)

    try:
        busy = _top_up(running, queue, submit, 2 * count)
        aside.start()
        while busy:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            yield from (future.result() for future in done)
            busy = _top_up(running, queue, submit, 2 * count)
    finally:
        for future in running:
            future.cancel()


def _top_up(
    running: set[Future[TaskResult]],
    queue: Iterator[list[int]],
    submit: Callable[[list[int]], Future[TaskResult]],
    limit: int,
) -> bool:
    """Submit tasks from ``queue`` until ``limit`` are in flight; whether any are."""
    for part in queue:
        running.add(submit(part))
        if len(running) >= limit:
            break
    return bool(running)


class _Forked:
    """``count`` forked worker processes, each fed through its own pipe by the caller's
    thread: no helper threads.  (``ProcessPoolExecutor``'s manager and feeder threads cost
    the parent ~40 ms of CPU per GB at two workers: serial time, which Amdahl punishes.)
    Each worker has at most two tasks queued, so a cancelled run stops within a task."""

    def __init__(self, compute: RowFn, count: int) -> None:
        global _job
        context = multiprocessing.get_context("fork")
        self.links: list[tuple[Connection, multiprocessing.process.BaseProcess]] = []
        self.finished = False
        self.stopped: set[Connection] = set()
        """The workers told to stop (see :meth:`_stop`)."""
        with _START:  # two comparisons started at once: each forks with its own row function
            _reap()
            _job = compute
            gc.freeze()  # the children inherit a frozen heap: their collector leaves the shared pages alone
            try:
                for _ in range(count):
                    self.links.append(self._start(context))
            finally:
                gc.unfreeze()

    def _start(
        self, context: multiprocessing.context.ForkContext
    ) -> tuple[Connection, multiprocessing.process.BaseProcess]:
        ours, theirs = context.Pipe()
        inherited = [conn for conn, _worker in self.links] + [ours]
        worker = context.Process(target=_serve, args=(theirs, inherited), daemon=True)
        worker.start()
        theirs.close()
        return ours, worker

    def run(
        self, parts: list[list[int]], helper: RowFn | None = None, aside: Aside | None = None
    ) -> Iterator[TaskResult]:
        """Every task's result, as the workers finish them; with a ``helper`` row function the
        calling process computes tasks too, between collecting the workers' results (each
        worker keeps two tasks queued while it does), except while ``aside`` runs (see
        :func:`run_rows`): its work and this process's tasks would share a core and the GIL, and
        the workers' queues, topped up only between this process's tasks, would run dry.  Once
        every task is handed out, each worker is told to stop behind its last one (:meth:`_stop`)."""
        queue = _Queue(parts)
        queued = {conn: _send(conn, queue, 2) for conn, _worker in self.links}
        if aside is not None:
            aside.start()
        while True:
            busy = [c for c, n in queued.items() if n]
            waiting = aside is not None and aside.running() and bool(busy)  # for it, not for the workers
            own = next(queue, None) if helper is not None and not waiting else None
            if own is None and not busy:
                break
            timeout = 0 if own is not None else ASIDE_POLL_S if waiting else None
            ready = connection_wait(busy, timeout=timeout) if busy else []
            for conn in [c for c in queued if c in ready]:  # ours, in the links' order
                yield _receive(conn)
                queued[conn] += _send(conn, queue, 1) - 1
            if queue.drained:
                self._stop()
            if own is not None:
                assert helper is not None, "a task is taken only with a helper"
                yield _run_part(helper, own)
        self.finished = True

    def _stop(self) -> None:
        """Tell every worker not told yet to stop after the tasks it has queued: it exits while this
        process computes or merges its last tasks, not after (its exit took ~2.5 ms of the end's
        wall time on the 2-core box), and this process's writes to the pages it shared with the
        worker stop being copies sooner."""
        for conn, _worker in self.links:
            if conn not in self.stopped:
                self.stopped.add(conn)
                with suppress(OSError):
                    conn.send_bytes(_STOP)

    def close(self) -> None:
        """Stop every worker: at once if the run was cancelled (its tasks are not wanted).  After a
        finished run each worker, told to stop, is exiting by itself (its last task's result came
        back): one still tearing down its copy of the address space (~4 ms of its CPU on bench_workers'
        (a)) is not waited for, so this process builds the frame meanwhile; it is joined before the
        next workers are forked (:func:`_reap`), or by ``multiprocessing`` at this process's exit."""
        self._stop()
        for conn, worker in self.links:
            conn.close()
            if worker.is_alive():
                if self.finished:
                    _EXITING.append(worker)
                else:
                    worker.terminate()
                    worker.join()


#: What tells a worker to stop: no rows (a task always has some).
_STOP = b""
#: Workers of finished runs that were still exiting when their run closed (:meth:`_Forked.close`).
_EXITING: list[multiprocessing.process.BaseProcess] = []


def _reap() -> None:
    """Join the workers of finished runs (each was told to stop and has no task left: they are gone
    or going), so that no run's workers outlive the next one's start; one that has not left within
    5 s (as :meth:`_Forked.close` waited before) is terminated."""
    while _EXITING:
        worker = _EXITING.pop()
        worker.join(timeout=5)
        if worker.is_alive():
            worker.terminate()
            worker.join()


class _Queue(Iterator[list[int]]):
    """The tasks still to hand out, in order; whether every one has been."""

    def __init__(self, parts: list[list[int]]) -> None:
        self.parts, self.at = parts, 0

    def __next__(self) -> list[int]:
        if self.at >= len(self.parts):
            raise StopIteration
        self.at += 1
        return self.parts[self.at - 1]

    @property
    def drained(self) -> bool:
        return self.at >= len(self.parts)


def _send(conn: Connection, queue: Iterator[list[int]], most: int) -> int:
    """Send up to ``most`` tasks from ``queue`` to a worker, each as its row indices' int64 bytes
    (a pickle through ``Connection.send`` cost the parent ~30 us a task: a copy of copyreg's
    table per pickler, and its allocations); how many were sent."""
    sent = 0
    for part in islice(queue, most):
        conn.send_bytes(np.asarray(part, dtype=np.int64).tobytes())
        sent += 1
    return sent


def _rows_of(message: bytes) -> list[int]:
    """The row indices :func:`_send` sent."""
    return np.frombuffer(message, dtype=np.int64).tolist()


def _receive(conn: Connection) -> TaskResult:
    """A worker's next result; a worker that died is an error, never a silent gap."""
    try:
        return conn.recv()
    except (EOFError, OSError):
        raise RuntimeError("a worker process died while comparing (out of memory, or killed)") from None


def _serve(conn: Connection, inherited: list[Connection]) -> None:
    """A forked worker: compute each task it is sent with the inherited row function."""
    for other in inherited:  # the parent's ends: only the parent may hold them open
        other.close()
    _worker_start()
    try:
        assert _job is not None, "a worker is forked after the row function is set"
        while (message := conn.recv_bytes()) != _STOP:
            conn.send(_run_part(_job, _rows_of(message)))
    except (EOFError, OSError, KeyboardInterrupt):  # the parent stopped the run: leave quietly
        return


#: Seconds to reach a Dask scheduler before ``--scheduler`` gives up (``--scheduler-timeout``).
SCHEDULER_TIMEOUT_S = 5.0
#: The address schemes Dask's comms speak; an address without one is ``tcp://``.
_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
NO_DASK = "--scheduler needs Dask, which is not installed: pip install 'dumpscope[dask]'"


class SchedulerError(DumpError):
    """``--scheduler`` cannot be used (Dask missing, a bad address, nothing or not Dask there):
    one line, exit 2."""


@dataclass(frozen=True)
class Scheduler:
    """A Dask distributed scheduler to run the rows on, and how long to try reaching it."""

    address: str
    timeout: float = SCHEDULER_TIMEOUT_S

    @classmethod
    def of(cls, address: str, timeout: float = SCHEDULER_TIMEOUT_S) -> Scheduler:
        """The scheduler at ``address``, checked before anything is opened: Dask installed,
        the address well formed, the timeout a positive number of seconds (else
        :class:`SchedulerError`)."""
        if not (isinstance(timeout, (int, float)) and 0 < timeout < 1e6):
            raise SchedulerError(f"--scheduler-timeout must be a positive number of seconds, not {timeout!r}")
        where = cls(_checked_address(address), float(timeout))
        try:
            import distributed  # noqa: F401 - only whether it is there
        except ImportError:
            raise SchedulerError(NO_DASK) from None
        return where

    @property
    def said(self) -> str:
        return repr(self.address)

    def host_port(self) -> tuple[str, int] | None:
        """Where a TCP connection goes (None for ``inproc://``)."""
        scheme, _, rest = self.address.partition("://")
        if scheme == "inproc":
            return None
        host, _, port = rest.rpartition(":")
        return host.strip("[]"), int(port)

    def reachable(self) -> None:
        """Someone at the address greets as a Dask scheduler within :attr:`timeout`, checked
        on a plain connection first (a Dask client alone retries for long, says little, and
        sizes its buffers from whatever a foreign server sends); :class:`SchedulerError` when
        the connection is refused, nothing answers, or what answers is not Dask."""

        where = self.host_port()
        if where is None:
            return
        try:
            with socket.create_connection(where, timeout=self.timeout) as conn:
                greeting = _first_bytes(conn, 16) if self.address.startswith("tcp://") else None
        except TimeoutError:
            raise SchedulerError(
                f"--scheduler {self.said}: no answer within {self.timeout:g} s "
                "(unreachable, or not a Dask scheduler; --scheduler-timeout sets the wait)"
            ) from None
        except OSError as exc:
            raise SchedulerError(f"--scheduler {self.said}: cannot connect ({exc.strerror or exc})") from None
        if greeting is not None and not _dask_greeting(greeting):
            said = f"it sent {greeting[:16]!r}" if greeting else "it closed the connection at once"
            raise SchedulerError(f"--scheduler {self.said}: not a Dask scheduler ({said})")


def _first_bytes(conn: socket.socket, n: int) -> bytes:
    """Up to ``n`` bytes the server sends first (a Dask scheduler greets at once); socket.timeout
    when it sends nothing."""
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def _dask_greeting(head: bytes) -> bool:
    """Whether ``head`` opens a Dask TCP message: a little-endian uint64 length, then a uint64
    count of frames (a scheduler's handshake: one frame of a few dozen bytes)."""
    if len(head) < 16:
        return False
    length, frames = int.from_bytes(head[:8], "little"), int.from_bytes(head[8:16], "little")
    return 8 <= length < (64 << 20) and 1 <= frames <= 1024


def _checked_address(address: object) -> str:
    """``address`` as Dask takes it (``tcp://`` added when no scheme is given); a malformed one
    is a :class:`SchedulerError` naming the expected form."""
    text = address if isinstance(address, str) else ""
    scheme, sep, rest = text.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", text.strip()
    expected = "expected tcp://HOST:PORT or HOST:PORT"
    if scheme not in _SCHEMES or not rest or not rest.isprintable() or any(c.isspace() for c in rest):
        raise SchedulerError(f"--scheduler {text!r}: not an address: {expected}")
    if scheme == "inproc":
        return f"{scheme}://{rest}"
    host, colon, port = rest.rpartition(":")
    if not colon or not host.strip("[]") or "/" in host or not port.isdigit() or not 0 < int(port) < 65536:
        raise SchedulerError(f"--scheduler {text!r}: not an address: {expected}, the port 1-65535")
    return f"{scheme}://{rest}"


def _dask_rows(
    compute: RowFn, parts: list[list[int]], scheduler: Scheduler, aside: Aside = _NO_ASIDE
) -> Generator[TaskResult, None, None]:
    """The same tasks on Dask workers: the row function (the pairing and the readers, not
    the data) is sent once; each worker reads its own tensors, so the dump's paths must be
    readable where the workers run (workers next to the data).  Every failure to reach or
    use the scheduler is one :class:`SchedulerError` line."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SchedulerError(NO_DASK) from None
    scheduler.reachable()
    try:
        client = Client(scheduler.address, timeout=scheduler.timeout)
    except Exception as exc:  # noqa: BLE001 - whatever answered, it was not a usable Dask scheduler
        raise SchedulerError(
            f"--scheduler {scheduler.said}: no Dask scheduler there (nothing answered as "
            f"one within {scheduler.timeout:g} s: {_one_line(exc)})"
        ) from None
    with client:  # the default client while it runs (as_completed needs one)
        try:
            [shared] = client.scatter([compute], broadcast=True, hash=False)
            futures = client.map(_run_part, [shared] * len(parts), parts, pure=False)
            aside.start()
            for future in as_completed(futures):
                yield future.result()
        except (GeneratorExit, KeyboardInterrupt):
            raise
        except Exception as exc:  # noqa: BLE001 - a worker lost, the scheduler gone: one line, no traceback
            failed = f"--scheduler {scheduler.said}: the run on Dask failed ({_one_line(exc)})"
            raise SchedulerError(failed) from None


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


class single_threaded_blas:
    """Limit BLAS to one thread for the run: OpenBLAS threads each dot product over
    10k elements, which on a busy 2-core machine made the kernel 10-100x slower.  A worker
    forked while it is in force inherits the limit (OpenBLAS keeps its thread count in its
    own memory and re-creates its pool from it after a fork), so it does not set one again
    (:func:`_worker_start`)."""

    active = 0
    """How many of these blocks are running in this process (a forked worker reads its parent's)."""

    def __enter__(self) -> None:
        self._ctx = None
        self._in_force = _openblas_told_one_thread()
        if not self._in_force:
            try:
                from threadpoolctl import threadpool_limits
            except ImportError:  # optional: speed only
                return
            self._ctx = threadpool_limits(limits=1, user_api="blas")
            self._in_force = True
        single_threaded_blas.active += 1

    def __exit__(self, *exc: object) -> None:
        if self._in_force:
            single_threaded_blas.active -= 1
        if self._ctx is not None:
            self._ctx.restore_original_limits()


def _openblas_told_one_thread() -> bool:
    """Whether numpy's OpenBLAS runs one thread now, asked of the library itself (the command sets
    ``OPENBLAS_NUM_THREADS=1`` before numpy loads: ``tui/cli/main.one_blas_thread``): then threadpoolctl
    has nothing to limit, and its first look at every loaded library (~5 ms of the parent's CPU before the
    fork on the 2-core box, its import included) is left out.  The variable alone is not trusted: one set
    after numpy loaded is never read by OpenBLAS, and a threaded BLAS would sum a long dot product in
    per-thread parts, whose rounding would then follow the core count.  Any doubt (another BLAS, no
    OpenBLAS mapped, no such symbol) answers False, and threadpoolctl sets the limit."""
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        return False
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            path = next((line.split()[-1] for line in maps if "openblas" in line.rsplit("/", 1)[-1]), None)
        if path is None:
            return False
        import ctypes

        lib = ctypes.CDLL(path, mode=getattr(os, "RTLD_NOLOAD", 0))
        for name in (
            "scipy_openblas_get_num_threads64_",
            "openblas_get_num_threads64_",
            "openblas_get_num_threads",
        ):
            get = getattr(lib, name, None)
            if get is not None:
                get.restype = ctypes.c_int
                return bool(get() == 1)
    except (OSError, ValueError, AttributeError):
        return False
    return False


def _worker_start() -> None:
    """Each worker owns one core: a threaded BLAS inside it would only contend.  Forked under
    :class:`single_threaded_blas`, it has one BLAS thread already: threadpoolctl's look at
    every loaded library is left out (~1.5 ms of the worker's CPU and ~150 pages it shared with
    the parent copied on write, on the 2-core box)."""
    if single_threaded_blas.active:
        return
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional, speed only
        return
    threadpool_limits(limits=1)


def _usage() -> tuple[float, int]:
    """CPU seconds (the thread's precise clock: getrusage's split is tick-sampled) and
    minor page faults of the calling thread so far."""
    faults = resource.getrusage(_USAGE_WHO).ru_minflt if resource is not None else 0
    return time.thread_time(), faults


def _run_part(compute: RowFn, part: list[int]) -> TaskResult:
    """The rows of ``part``, packed, with what they cost (in this process or a thread of it)."""
    cpu, faults = _usage()
    batch = getattr(compute, "batch", None)  # a row function that computes a whole task at once
    result = batch(part) if batch is not None else TaskResult.pack(part, [compute(i) for i in part])
    if len(part) >= ARRAY_ROWS and getattr(compute, "numbers_as_arrays", False):  # (into a row table)
        result.with_number_arrays()
    cpu_after, faults_after = _usage()
    result.cpu, result.faults, result.pid = cpu_after - cpu, faults_after - faults, os.getpid()
    return result
