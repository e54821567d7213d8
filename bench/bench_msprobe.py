"""Time read + compare of generated msprobe dumps against a naive baseline in the same run.

    python bench/bench_msprobe.py [--dir DIR] [--copies N]

Generates (or reuses, in ``DIR``) the ResNet-50 export of ``bench/msprobe_export.py``
(statistics and tensor modes, 2 steps x 2 ranks, fault in step 1 / rank 1), then runs in
subprocesses, so wall time and peak RSS are measured alike (RUSAGE_CHILDREN):

* statistics mode: ``compare_msprobe`` vs a naive loop that only ``json.load``s both
  sides' dump.json and subtracts the four statistics of same-named records;
* tensor mode: ``compare_msprobe`` (statistics + our per-tensor metrics) vs a naive
  float64 numpy loop over the same ``.npy`` pairs (cosine, max abs error).

* triage first (tensor mode, the diverging step/rank): time to the statistics frame and
  first divergence, to the suspect region's tensor metrics, and to every tensor, against
  a plain tensor-mode compare of that step/rank, in the same process.

``--copies N`` replicates the statistics tree's ranks N times (more ranks) to reach a
larger statistics dump.  Figures: seconds, GB/s of dump read, peak RSS, ratio to naive.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

OURS = r"""
import sys
from dumpscope.core.comparison.msprobe.driver import compare_msprobe
r = compare_msprobe(sys.argv[1], sys.argv[2], workers=int(sys.argv[3]))
first = r.first
print(first.label if first else "none", first.divergence.entry if first else "")
"""

IN_PROCESS = r"""
import glob, json, os, sys, time
from dumpscope.core.comparison.msprobe.driver import compare_msprobe
files = sorted(glob.glob(os.path.join(sys.argv[1], "step*", "rank*", "dump.json")) +
               glob.glob(os.path.join(sys.argv[2], "step*", "rank*", "dump.json")))
t = time.perf_counter(); [json.load(open(f)) for f in files]; naive = time.perf_counter() - t
t = time.perf_counter(); compare_msprobe(sys.argv[1], sys.argv[2]); ours = time.perf_counter() - t
print(f"{ours:.3f} {naive:.3f}")
"""

NAIVE_STATS = r"""
import sys, json, glob, os, math
n = 0
for npu in sorted(glob.glob(os.path.join(sys.argv[1], "step*", "rank*", "dump.json"))):
    bench = npu.replace(sys.argv[1], sys.argv[2], 1)
    a = json.load(open(npu))["data"]; b = json.load(open(bench))["data"]
    for name, e in a.items():
        f = b.get(name)
        if not f:
            continue
        for key in ("input_args", "output"):
            for x, y in zip(e.get(key, []), f.get(key, [])):
                if isinstance(x, dict) and "Max" in x and isinstance(y, dict) and "Max" in y:
                    [x[k] - y[k] for k in ("Max", "Min", "Mean", "Norm")]
                    n += 1
print(n)
"""

NAIVE_TENSOR = r"""
import sys, glob, os, numpy as np
n = 0
for npu in sorted(glob.glob(os.path.join(sys.argv[1], "step*", "rank*", "dump_tensor_data", "*.npy"))):
    bench = npu.replace(sys.argv[1], sys.argv[2], 1)
    if not os.path.exists(bench):
        continue
    x = np.load(npu, allow_pickle=False).astype(np.float64).ravel()
    y = np.load(bench, allow_pickle=False).astype(np.float64).ravel()
    if x.size != y.size:
        continue
    with np.errstate(all="ignore"):
        cos = float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y)))
        mae = float(np.max(np.abs(x - y))) if x.size else 0.0
    n += 1
print(n)
"""


TRIAGE = r"""
import sys, time
from pathlib import Path
from dumpscope.core.comparison.msprobe import triage
from dumpscope.core.comparison.msprobe.pairing import Mapping, pair_ranks
from dumpscope.core.comparison.msprobe.statistics import compare_statistics, ruled_statistics
from dumpscope.core.formats.msprobe import read_rank
npu_dir, bench_dir = Path(sys.argv[1]), Path(sys.argv[2])
def paired():
    npu = read_rank(npu_dir)
    return pair_ranks(npu, read_rank(bench_dir), None), npu
from threadpoolctl import threadpool_limits
paired()  # warm: imports, page cache
with threadpool_limits(limits=1, user_api="blas"):  # as compare_msprobe runs it
    t = time.perf_counter(); compare_statistics(paired()[0], tensors=True); plain = time.perf_counter() - t
t = time.perf_counter()
pairs, npu = paired()
steps = triage.tensor_mode_triaged(pairs, rank=npu, workers=1)
first = next(steps)
at_stats = time.perf_counter() - t
region = len(triage._region(ruled_statistics(pairs, Mapping())["Order"].to_list(), first.divergence))
at_region = None
for step in steps:
    if at_region is None and step.done >= region:
        at_region = time.perf_counter() - t
at_all = time.perf_counter() - t
print(f"{plain:.3f} {at_stats:.3f} {at_region:.3f} {at_all:.3f} {region} {first.total}",
      first.divergence.entry if first.divergence else "none")
"""


def _triage(root: Path) -> None:
    """Triage first on the tensor dump's diverging step/rank (step1/rank1), 1 worker."""
    _, _, out = _run(TRIAGE, str(root / "npu" / "step1" / "rank1"), str(root / "bench" / "step1" / "rank1"))
    plain, stats, region, whole, n_region, total, entry = out.split()
    print(
        f"triage first (step1/rank1, {total} records, 1 worker): statistics + first divergence {entry} in "
        f"{float(stats):.2f} s ({float(stats) / float(plain):.3g}x a plain tensor compare of "
        f"{float(plain):.2f} s), "
        f"its region's {n_region} records' tensors by {float(region):.2f} s "
        f"({float(region) / float(plain):.3g}x), "
        f"every tensor by {float(whole):.2f} s ({float(whole) / float(plain):.3g}x)"
    )


def _run(code: str, *args: str) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MB) of the child, stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True, text=True)
    wall = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(rss, before) / 1024, out.stdout.strip()


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _replicate(stats: Path, copies: int) -> None:
    """More ranks: copy each side's rank directories as rank{k}."""
    for side in ("npu", "bench"):
        for step in sorted((stats / side).glob("step*")):
            base = sorted(step.glob("rank*"))
            for k in range(len(base), len(base) * copies):
                dst = step / f"rank{k}"
                if not dst.exists():
                    shutil.copytree(base[k % len(base)], dst)


_ITEMSIZE = {
    "float64": 8,
    "float32": 4,
    "float16": 2,
    "bfloat16": 2,
    "int64": 8,
    "int32": 4,
    "int16": 2,
    "int8": 1,
    "uint8": 1,
    "bool": 1,
}


def _described(root: Path) -> int:
    """Bytes of the tensors the dump.json files describe (numel x itemsize, both sides):
    what a statistics-mode dump stands for, though the tensors themselves are not saved."""
    total = 0

    def walk(node: object) -> None:
        nonlocal total
        if isinstance(node, dict):
            if isinstance(node.get("shape"), list) and "dtype" in node:
                n = 1
                for d in node["shape"]:
                    n *= int(d)
                total += n * _ITEMSIZE.get(str(node["dtype"]).rsplit(".", 1)[-1], 4)
                return
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for dump in root.rglob("dump.json"):
        walk(json.loads(dump.read_text())["data"])
    return total


def _case(name: str, root: Path, naive: str) -> None:
    size = _size(root)
    described = _described(root) if name == "statistics" else size
    if name == "statistics":
        print(f"statistics mode: the dump.json files describe {described / 1e9:.1f} GB of tensors")
    naive_s, naive_rss, naive_out = _run(naive, str(root / "npu"), str(root / "bench"))
    for workers in (1, 2):
        ours_s, ours_rss, ours_out = _run(OURS, str(root / "npu"), str(root / "bench"), str(workers))
        print(
            f"{name}, {workers} worker(s): {size / 1e6:.1f} MB (both sides)  ours {ours_s:.2f} s = "
            f"{size / 1e6 / ours_s:.1f} MB/s of dump = {described / 1e9 / ours_s:.2f} GB/s described, "
            f"peak RSS {ours_rss:.0f} MB  |  naive {naive_s:.2f} s, "
            f"{naive_rss:.0f} MB  |  ratio {ours_s / naive_s:.2f}x  |  first divergence: {ours_out}"
        )
    if name == "statistics":  # last: peak RSS of children is a running maximum
        _, _, out = _run(IN_PROCESS, str(root / "npu"), str(root / "bench"))
        ours, json_s = map(float, out.split())
        print(
            f"statistics, in-process after imports: compare {ours:.2f} s vs json.load of every dump.json "
            f"{json_s:.2f} s: ratio {ours / json_s:.2f}x"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=Path("/tmp/dumpscope-msprobe-bench"))
    ap.add_argument("--copies", type=int, default=1)
    ap.add_argument("--statistics-only", action="store_true")
    ap.add_argument("--triage-only", action="store_true", help="only the triage-first figures")
    a = ap.parse_args(argv)
    if not (a.dir / "tensor").is_dir():
        sys.path.insert(0, str(HERE))
        import msprobe_export

        info = msprobe_export.export(a.dir, modes=("statistics", "tensor"))
        print(f"generated {info['bytes'] / 1e9:.2f} GB in {info['seconds']:.1f} s")
    if a.copies > 1:
        _replicate(a.dir / "statistics", a.copies)
    print(f"cores: {os.cpu_count()}")
    if a.triage_only:
        _triage(a.dir / "tensor")
        return 0
    _case("statistics", a.dir / "statistics", NAIVE_STATS)
    if not a.statistics_only:
        _case("tensor", a.dir / "tensor", NAIVE_TENSOR)
        _triage(a.dir / "tensor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
