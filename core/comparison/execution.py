"""How a comparison's rows are scheduled: every core, each worker owning whole tensors.

The metric kernel streams a tensor in 32k-element chunks, with a little Python around
each chunk; in threads that Python holds the GIL and two threads ran at 1.0-1.1x one.
Here each worker is a *process* (forked, so it inherits the opened dumps and the pairing
without pickling them): it reads its own tensors (``TensorRef.load_transient`` into its
own scratch buffers) and sends back only the small per-row dicts.  The parent merges
them into the frame's columns.  A row is computed by the same function whatever the
worker count, so the frame is identical for 1, 2 or 192 workers.

Where ``fork`` is not available (Windows, or ``DUMPSCOPE_WORKERS=threads``) the rows are
computed by a thread pool instead: same rows, less speed-up.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait

__all__ = ["RowFn", "available_cores", "run_rows"]

#: ``compute(i) -> row``: the columns of row ``i`` (never raises).
RowFn = Callable[[int], dict[str, object]]
#: Bytes of tensor data per task: large enough that the round trip is noise next to
#: reading the data, small enough to balance two workers on a few hundred tensors.
TASK_BYTES = 32 << 20
#: Below this many rows a pool costs more than it saves (fork + start-up ~20 ms).
MIN_PARALLEL_ROWS = 16

_job: RowFn | None = None
_START = threading.Lock()


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def tasks(todo: Sequence[int], sizes: Sequence[int], rows: int) -> list[list[int]]:
    """Cut the row indices into tasks of about :data:`TASK_BYTES` and at most ``rows`` rows."""
    out: list[list[int]] = []
    part: list[int] = []
    weight = 0
    for i, size in zip(todo, sizes):
        part.append(i)
        weight += size
        if weight >= TASK_BYTES or len(part) >= rows:
            out.append(part)
            part, weight = [], 0
    if part:
        out.append(part)
    return out


def run_rows(compute: RowFn, todo: Sequence[int], sizes: Sequence[int], workers: int | None,
             batch: int = 64, scheduler: str | None = None) -> Iterator[list[tuple[int, dict[str, object]]]]:
    """Compute every row of ``todo``; yield each finished task's ``(index, row)`` list.

    ``sizes``: each row's bytes (both sides), to balance tasks.  ``workers``: processes
    (None = every available core); ``batch``: rows per task at most.  ``scheduler``: the
    address of a Dask distributed scheduler to run the tasks on instead (the optional
    ``dask`` extra).  Tasks finish in any order; each row is computed once.
    """
    parts = tasks(todo, sizes, max(1, batch))
    if scheduler is not None:
        yield from _dask_rows(compute, parts, scheduler)
        return
    count = min(workers or available_cores(), max(1, len(todo) // MIN_PARALLEL_ROWS))
    if count <= 1:
        for part in parts:
            yield [(i, compute(i)) for i in part]
        return
    with _pool(compute, count) as pool:
        yield from _drain(pool, compute, parts, count)


def _drain(pool: Executor, compute: RowFn, parts: list[list[int]], count: int) -> Iterator[list[tuple[int, dict[str, object]]]]:
    """Keep about two tasks per worker in flight (a cancelled run stops soon); yield as they finish."""
    queue = iter(parts)
    running: set[Future[list[tuple[int, dict[str, object]]]]] = set()
    forked = isinstance(pool, ProcessPoolExecutor)
    try:
        while True:
            for part in queue:
                running.add(pool.submit(_run_task, part) if forked else pool.submit(_run_part, compute, part))
                if len(running) >= 2 * count:
                    break
            if not running:
                return
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        for future in running:
            future.cancel()


def _dask_rows(compute: RowFn, parts: list[list[int]], scheduler: str) -> Iterator[list[tuple[int, dict[str, object]]]]:
    """The same tasks on Dask workers: the row function (the pairing and the readers, not
    the data) is sent once; each worker reads its own tensors, so the dump's paths must be
    readable where the workers run (workers next to the data)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RuntimeError("--scheduler needs Dask: pip install 'dumpscope[dask]'") from None
    with Client(scheduler) as client:  # the default client while it runs (as_completed needs one)
        [shared] = client.scatter([compute], broadcast=True, hash=False)
        futures = client.map(_run_part, [shared] * len(parts), parts, pure=False)
        for future in as_completed(futures):
            yield future.result()


def _pool(compute: RowFn, count: int) -> Executor:
    """Forked processes that inherit ``compute`` (threads where fork is unavailable)."""
    if os.environ.get("DUMPSCOPE_WORKERS") == "threads" or "fork" not in multiprocessing.get_all_start_methods():
        return ThreadPoolExecutor(count)
    global _job
    with _START:  # two comparisons started at once: each pool forks with its own row function
        _job = compute
        pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork"), initializer=_one_blas_thread)
        pool.submit(_run_task, []).result()  # the workers fork here, while ``_job`` is ours
        return pool


def _one_blas_thread() -> None:
    """Each worker owns one core: a threaded BLAS inside it would only contend."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional, speed only
        return
    threadpool_limits(limits=1)


def _run_part(compute: RowFn, part: list[int]) -> list[tuple[int, dict[str, object]]]:
    """The rows of ``part`` (in a thread of this process)."""
    return [(i, compute(i)) for i in part]


def _run_task(part: list[int]) -> list[tuple[int, dict[str, object]]]:
    """A forked worker's task: the rows of ``part``."""
    assert _job is not None, "the row function is set before the workers fork"
    return _run_part(_job, part)
