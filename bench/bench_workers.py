"""Benchmark the parallel compare: 1 vs N worker processes on the same pair, same run.

    python bench/bench_workers.py [--quick] [--workers 1,2] [--repeat 3] [--keep DIR]
                                  [--layers N --elems M]   (e.g. 5000 x 2000: many small tensors)
                                  [--target-dtype float32]  (the all-float32 set: 500 x 100k)

Generates a ~1 GB float32-vs-float16 pair (240 layers x 700k elements; ``--quick``: 64;
``--target-dtype float32 --layers 500 --elems 100000``: bench_compare's set (a), 0.4 GB)
and times ``compare(..., workers=n)`` in this process (imports and page cache warm),
alternating the worker counts and keeping each one's best of ``--repeat`` runs.

The machine may be shared, so the wall clock alone cannot say whether the code scales.
Each run is also accounted in CPU time (``execution.accounting``): the CPU each worker
spent on its tasks, the parent's *serial* CPU (opening, pairing, merging, frame build:
everything that is not a task) and the workers' overhead (fork, start-up, pickling).
From those the bench prints the speed-up the CPU accounting predicts for N idle cores,

    predicted(N) = (serial_1 + work_1) / (serial_N + (work_N + overhead_N) / N + last_task_N * (1 - 1/N))

(the tasks are handed out one by one and shrink towards the end, so idle cores share the
work evenly but for about one of the last, small tasks)
next to the wall-clock one, and Amdahl's bound from the serial share of the 1-worker run.
The wall columns come from each count's fastest run, the CPU columns from its run with
the lowest CPU-accounted time (the least disturbed by other processes' cache traffic).
``code x`` is the prediction had the rows cost the same CPU as in the 1-worker run: what
the code's own costs (serial share, worker overhead, tail) allow, apart from the machine.
``work x`` is the task CPU over the 1-worker run's: above 1, the same rows cost more CPU
when run side by side (shared cache and memory bandwidth; on a VM, perhaps hyper-threads
of one physical core).  ``got`` is the CPU the run received over what N busy cores give in its wall time: well
under 1 means other processes held the cores, and then only the prediction is meaningful.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

if (
    os.environ.get("DUMPSCOPE_BENCH_THREADED_BLAS") != "1"
):  # as the `dumpscope` command does before numpy loads
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # (tui/cli/main.one_blas_thread)

import numpy as np  # noqa: E402 - after the BLAS setting


def make_pair(root: Path, layers: int, elems: int, target_dtype: str = "float16") -> int:
    """A float32 golden and a ``target_dtype`` target of ``layers`` tensors; total bytes."""
    rng = np.random.default_rng(2)
    g, t = root / "golden", root / "target"
    g.mkdir(parents=True, exist_ok=True)
    t.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(layers):
        a = rng.standard_normal(elems, dtype=np.float32)
        b = (a + rng.standard_normal(elems, dtype=np.float32) * 1e-3).astype(target_dtype)
        np.save(g / f"layer_{i:04d}.npy", a)
        np.save(t / f"layer_{i:04d}.npy", b)
        total += a.nbytes + b.nbytes
    return total


@dataclass
class Run:
    """One compare, accounted: wall seconds and where the CPU seconds went."""

    workers: int
    wall: float
    parent_cpu: float
    """CPU of this process (every thread) during the compare."""
    children_cpu: float
    """CPU of the worker processes, reaped when the pool closed."""
    task_cpu: dict[int, float]
    """Per process: CPU spent computing rows (the ledger)."""
    faults: int
    """Minor page faults taken inside tasks (every process)."""
    last: float
    """CPU seconds of the task that finished last (the tail)."""

    @property
    def work(self) -> float:
        return sum(self.task_cpu.values())

    @property
    def serial(self) -> float:
        """The parent's CPU outside tasks: opening, pairing, merging, frame build, forking."""
        return self.parent_cpu - self.task_cpu.get(os.getpid(), 0.0)

    @property
    def overhead(self) -> float:
        """Worker CPU outside tasks (start-up, pickling, exit)."""
        return max(0.0, self.children_cpu - sum(v for pid, v in self.task_cpu.items() if pid != os.getpid()))

    @property
    def critical(self) -> float:
        """Wall seconds this run would take with one idle core per worker (and one for the parent)."""
        return self.critical_with(self.work)

    def critical_with(self, work: float) -> float:
        """:attr:`critical` had the rows cost ``work`` CPU seconds (e.g. the 1-worker run's)."""
        spread = (work + self.overhead) / self.workers
        return self.serial + spread + self.last * (1 - 1 / self.workers)

    @property
    def got(self) -> float:
        """CPU received over what ``workers`` busy cores give in the wall time (1.0 = all of it)."""
        return (self.parent_cpu + self.children_cpu) / (self.wall * self.workers)


def _usage(who: int) -> tuple[float, int]:
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime, used.ru_minflt


def timed(golden: Path, target: Path, workers: int) -> Run:
    """One accounted compare with ``workers`` processes."""
    from dumpscope.core.comparison import execution
    from dumpscope.core.comparison.pipeline import compare

    own, kids, start = (
        _usage(resource.RUSAGE_SELF)[0],
        _usage(resource.RUSAGE_CHILDREN)[0],
        time.perf_counter(),
    )
    with execution.accounting() as ledger:
        frame = compare(golden, target, workers=workers).frame
    wall = time.perf_counter() - start
    for worker in multiprocessing.active_children():  # a worker still exiting: reaped, so its CPU counts
        worker.join()
    assert frame.height and not (frame["health"] == "pending").any()
    return Run(
        workers,
        wall,
        _usage(resource.RUSAGE_SELF)[0] - own,
        _usage(resource.RUSAGE_CHILDREN)[0] - kids,
        dict(ledger.cpu),
        sum(ledger.faults.values()),
        ledger.last,
    )


def best_runs(
    golden: Path, target: Path, counts: list[int], repeat: int
) -> tuple[dict[int, Run], dict[int, Run]]:
    """Each worker count's least disturbed runs, the counts alternating: the one with the
    lowest wall time, and the one with the lowest predicted (CPU-accounted) time."""
    timed(golden, target, 1)  # warm: imports, page cache
    runs: dict[int, list[Run]] = {n: [] for n in counts}
    for _ in range(repeat):
        for n in counts:
            runs[n].append(timed(golden, target, n))
    return (
        {n: min(r, key=lambda run: run.wall) for n, r in runs.items()},
        {n: min(r, key=lambda run: run.critical) for n, r in runs.items()},
    )


def report(best: dict[int, Run], lean: dict[int, Run], size: int) -> dict[str, object]:
    """Print the table and the accounting (``best``: lowest wall per count, ``lean``:
    lowest CPU-accounted time); the figures as JSON-able data."""
    one, first = best[min(best)], lean[min(lean)]
    share = first.serial / (first.serial + first.work)
    print(
        f"pair: {size / 1e9:.2f} GB; cores available: {len(os.sched_getaffinity(0))}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"serial share (1 worker, CPU): {share:.1%} = {first.serial:.3f} s of "
        f"{first.serial + first.work:.3f} s"
    )
    for n, run in sorted(lean.items()):
        whole = run.parent_cpu + run.children_cpu
        print(f"parent outside tasks, {n} worker(s): {run.serial:.3f} s, {run.serial / whole:.1%} of all CPU")
    print(
        f"{'workers':>7} {'wall s':>7} {'GB/s':>6} {'wall x':>7} {'CPU x':>6} {'Amdahl':>6} {'got':>5} "
        f"{'code x':>6} {'serial s':>8} {'overhead':>8} {'work x':>6} {'faults/GB':>9}  task CPU per worker"
    )
    for n, run in sorted(best.items()):
        amdahl, cpu = 1 / (share + (1 - share) / n), lean[n]
        per = " ".join(f"{v:.2f}" for _pid, v in sorted(cpu.task_cpu.items()))
        print(
            f"{n:7d} {run.wall:7.2f} {size / 1e9 / run.wall:6.2f} {one.wall / run.wall:6.2f}x "
            f"{first.critical / cpu.critical:5.2f}x {amdahl:5.2f}x {run.got:5.2f} "
            f"{first.critical / cpu.critical_with(first.work):5.2f}x {cpu.serial:8.3f} "
            f"{cpu.overhead:8.3f} {cpu.work / first.work:6.2f} {cpu.faults / (size / 1e9):9.0f}  {per}"
        )
    return {
        "bytes": size,
        "serial_share": share,
        "runs": {n: asdict(r) | {"wall_x": one.wall / r.wall} for n, r in best.items()},
        "predicted": {n: first.critical / r.critical for n, r in lean.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", metavar="DIR")
    ap.add_argument("--layers", type=int, help="tensors per side (default 240, --quick 64)")
    ap.add_argument("--elems", type=int, default=700_000, help="elements per tensor")
    ap.add_argument("--target-dtype", default="float16", choices=("float16", "float32"))
    args = ap.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="dumpscope-workers-"))
    layers = args.layers or (64 if args.quick else 240)
    size = (
        make_pair(base, layers, args.elems, args.target_dtype)
        if not (base / "golden").exists()
        else sum(f.stat().st_size for f in base.rglob("*.npy"))
    )
    counts = [int(w) for w in args.workers.split(",")]
    figures = report(*best_runs(base / "golden", base / "target", counts, args.repeat), size)
    print(json.dumps(figures, default=str))
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
