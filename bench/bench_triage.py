"""Triage first on a diverging .npy pair: when the first-divergence region is computed,
with and without triage, same run.

    python bench/bench_triage.py [--workers 1] [--repeat 2] [--keep DIR]

Generates 200 layers of 500k float32 vs float16 (0.6 GB); from layer 150 on the target
drifts by 30 %.  Streams ``compare_stream`` (plain) and ``triage.compare_triaged`` with a
frame after every task and records when every row of the region (layers 148-166: the
first divergence, REGION_BEFORE rows before it and REGION_AFTER after) is computed, and
when the whole comparison is.  Prints the times and the ratios triaged / plain.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import polars as pl

LAYERS, BAD, ELEMS = 200, 150, 500_000


def make_pair(root: Path) -> None:
    """The diverging pair (see the module docstring)."""
    rng = np.random.default_rng(5)
    (root / "golden").mkdir(parents=True)
    (root / "target").mkdir()
    for i in range(LAYERS):
        a = rng.standard_normal(ELEMS, dtype=np.float32)
        noise = 0.3 if i >= BAD else 1e-3
        np.save(root / "golden" / f"layer_{i:03d}.npy", a)
        np.save(
            root / "target" / f"layer_{i:03d}.npy",
            (a + rng.standard_normal(a.size, dtype=np.float32) * noise).astype(np.float16),
        )


def timed(stream: Callable[..., Iterator], root: Path, region: set[str], workers: int) -> tuple[float, float]:
    """Seconds until every region row is computed, and until the end."""
    start, at = time.perf_counter(), None
    for step in stream(root / "golden", root / "target", workers=workers, interval=0.0, batch=4):
        done = set(step.comparison.frame.filter(pl.col("health") != "pending")["name"].to_list())
        if at is None and region <= done:
            at = time.perf_counter() - start
    return at or 0.0, time.perf_counter() - start


def main() -> None:
    from dumpscope.core.comparison import triage
    from dumpscope.core.comparison.pipeline import compare, compare_stream

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--keep", metavar="DIR")
    args = ap.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="dumpscope-triage-"))
    if not (root / "golden").exists():
        make_pair(root)
    region = {f"layer_{i:03d}" for i in range(BAD - triage.REGION_BEFORE, BAD + triage.REGION_AFTER + 1)}
    compare(root / "golden", root / "target", workers=args.workers)  # warm: imports, page cache
    for _ in range(args.repeat):
        plain, tri = (
            timed(compare_stream, root, region, args.workers),
            timed(triage.compare_triaged, root, region, args.workers),
        )
        print(
            f"{args.workers} worker(s): region computed after {tri[0]:.2f} s triaged vs {plain[0]:.2f} s "
            "plain "
            f"({tri[0] / plain[0]:.2f}x); whole comparison {tri[1]:.2f} s vs {plain[1]:.2f} s "
            f"({tri[1] / plain[1]:.2f}x)"
        )
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
