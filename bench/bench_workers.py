"""Benchmark the parallel compare: 1 vs N worker processes on the same pair, same run.

    python bench/bench_workers.py [--quick] [--workers 1,2] [--repeat 3] [--keep DIR]

Generates a ~1 GB float32-vs-float16 pair (240 layers x 700k elements) and times
``compare(..., workers=n)`` in this process (imports and page cache warm), alternating
the worker counts and keeping each one's best of ``--repeat`` runs (the machine is
shared: the best run is the one least disturbed).  Also prints the CPU seconds spent
(parent + workers): when the speed-up falls short of N on a loaded machine, an equal CPU
total says the work was split without overhead and the cores were busy elsewhere.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np


def make_pair(root: Path, layers: int, elems: int) -> int:
    """A float32 golden and a float16 target of ``layers`` tensors; total bytes."""
    rng = np.random.default_rng(2)
    g, t = root / "golden", root / "target"
    g.mkdir(parents=True, exist_ok=True)
    t.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(layers):
        a = rng.standard_normal(elems, dtype=np.float32)
        b = (a + rng.standard_normal(elems, dtype=np.float32) * 1e-3).astype(np.float16)
        np.save(g / f"layer_{i:04d}.npy", a)
        np.save(t / f"layer_{i:04d}.npy", b)
        total += a.nbytes + b.nbytes
    return total


def cpu_seconds() -> float:
    """User + system CPU of this process and its reaped children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(golden: Path, target: Path, workers: int) -> tuple[float, float]:
    """Wall and CPU seconds of one compare with ``workers`` processes."""
    from dumpscope.core.comparison.pipeline import compare

    cpu, start = cpu_seconds(), time.perf_counter()
    frame = compare(golden, target, workers=workers).frame
    wall = time.perf_counter() - start
    assert frame.height and not (frame["health"] == "pending").any()
    return wall, cpu_seconds() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", metavar="DIR")
    args = ap.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="dumpscope-workers-"))
    size = make_pair(base, 24 if args.quick else 240, 700_000) if not (base / "golden").exists() else \
        sum(f.stat().st_size for f in base.rglob("*.npy"))
    counts = [int(w) for w in args.workers.split(",")]
    timed(base / "golden", base / "target", 1)  # warm: imports, page cache
    best: dict[int, tuple[float, float]] = {}
    for _ in range(args.repeat):
        for n in counts:
            wall, cpu = timed(base / "golden", base / "target", n)
            if n not in best or wall < best[n][0]:
                best[n] = (wall, cpu)
    load = os.getloadavg()[0]
    base_wall = best[counts[0]][0]
    print(f"pair: {size / 1e9:.2f} GB; cores available: {len(os.sched_getaffinity(0))}; load average {load:.1f}")
    print(f"{'workers':>7} {'wall s':>7} {'GB/s':>6} {'speed-up':>8} {'CPU s':>6}")
    for n in counts:
        wall, cpu = best[n]
        print(f"{n:7d} {wall:7.2f} {size / 1e9 / wall:6.2f} {base_wall / wall:7.2f}x {cpu:6.2f}")
    print(json.dumps({"bytes": size, "load": load, "best": {n: best[n] for n in counts}}))
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
