"""Benchmark `dumpscope compare` against a naive float64 numpy loop over the same files.

    python bench/bench_compare.py [--quick] [--keep DIR] [--cases abcdef] [--repeat N]

Cases (generated in the same run, page cache warm for both contenders):
  (a) 500 float32 layers x 400 KB per side;
  (b) a pair of about 1 GB in total, float32 golden vs mostly float16 target;
  (c) a real topology from the onnx package's light models, dumped with `dumpscope dump`
      (golden and an fp16 target);
  (d) a real OCR detector (PP-OCRv4 det from rapidocr-onnxruntime, as cached by
      `python -m bench.realmodels`; skipped when not cached) at 640x640, golden vs fp16;
  (e) a 2 GiB pair (512 x 700k, float32 vs float16): the input rate against the read rate on a
      pair twice (b)'s size (not in the default run: ``--cases abcde``);
  (f) 40 x 4M float32 vs float16 (0.96 GB, tensors of 16 MiB a side): the read loop reuses one
      16 MiB buffer, as issue 24's figure; tensors larger than the caches (``--cases f``).
dumpscope's bytecode is compiled first, as an installed copy has it (see bench_cli_startup).
Both contenders run as subprocesses, so wall time, CPU time and peak RSS are measured the
same way (RUSAGE_CHILDREN).  One run prints, per case and measured in that run:

* ``naive s``: the naive loop (one BLAS thread); ``ours s`` and ``x naive``: ``dumpscope
  compare`` with every core, and its time over the naive loop's (lower is better);
* ``read GB/s``: the rate at which this machine reads the same files (page cache warm) into
  one reused buffer, as ``dd`` would: ``os.preadv`` of every file, best of three; ``% read``:
  compare's input rate (both sides' bytes over its wall time) as a share of it;
* ``CPU %rd``: the read loop's CPU seconds over compare's (every process): the share of
  compare's CPU that reading the bytes alone costs, a figure the load hardly moves (at 100 %
  compare would cost no more than reading);
* ``ns/pair``: compare's CPU time (every process) per element pair;
* ``1 w s``, ``2 w s``, ``2w x``: ``--workers 1`` and ``--workers 2``, and the speed-up;
* the 1-minute load average before and after each case: the box may be shared, and then
  wall-clock figures (not the CPU ones) are inflated (``--repeat N``: every contender run N
  times, alternating, each one's fastest run kept, with its CPU).

Then, in this process: the parent's share of the CPU with 2 workers on case (b) (what it
spends outside tasks: listing, pairing, forking, merging, the frame), and the metric
kernel's CPU per element pair on in-memory float32-vs-float16 and float32 pairs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np

NAIVE = r"""
import sys, glob, os, math, numpy as np
g_dir, t_dir = sys.argv[1], sys.argv[2]
rows = 0
for gp in sorted(glob.glob(os.path.join(g_dir, "*.npy"))):
    tp = os.path.join(t_dir, os.path.basename(gp))
    if not os.path.exists(tp):
        continue
    y = np.load(gp, allow_pickle=False).astype(np.float64).ravel()
    x = np.load(tp, allow_pickle=False).astype(np.float64).ravel()
    d = x - y
    ad = np.abs(d)
    ay = np.abs(y)
    nz = ay > 2.2e-16
    rel = np.where(nz, ad / np.where(nz, ay, 1.0), 0.0)
    cos = float(x @ y / math.sqrt((x @ x) * (y @ y)))
    red = math.sqrt(float(d @ d) / float(y @ y))
    px = np.maximum((x - x.min()) / (x.max() - x.min()), 1.19e-7); px /= px.sum()
    py = np.maximum((y - y.min()) / (y.max() - y.min()), 1.19e-7); py /= py.sum()
    kl = float(np.sum(px * np.log(px / py)))
    res = (cos, ad.max(), rel.sum(), red, kl, x.mean(), x.std(), y.mean(), y.std(), ad.mean(),
           math.sqrt(float(np.mean(d * d))), rel.max(), rel.mean(), np.isnan(x).sum(), np.isinf(x).sum())
    rows += 1
print(rows)
"""


def child(cmd: list[str], blas_threads: int | None = None) -> tuple[float, float, str, float]:
    """Run ``cmd``; return wall seconds, that child's own peak RSS in MB, its stdout and its
    CPU seconds (user + system, its children included).

    The naive loop runs with one BLAS thread: OpenBLAS's threaded dot products are
    slower on a busy 2-core box, and the baseline should not be handicapped.
    """
    env = {**os.environ, "COLUMNS": "200"}
    if blas_threads:
        env["OPENBLAS_NUM_THREADS"] = str(blas_threads)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            err.seek(0)
            raise SystemExit(f"{cmd[:4]} failed ({proc.returncode}): {err.read()[-2000:]}")
        out.seek(0)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return wall, usage.ru_maxrss / 1024, out.read(), cpu


def read_rate(root: Path, repeat: int = 3) -> tuple[float, float]:
    """GB/s at which this machine reads every ``.npy`` under ``root`` (page cache warm) into
    one reused, pre-touched buffer: what ``dd if=FILE of=/dev/null bs=16M`` measures, file by
    file, best of ``repeat``; and the CPU seconds of the cheapest pass (a figure the load
    inflates far less than the wall clock)."""
    files = sorted(root.rglob("*.npy"))
    sizes = [f.stat().st_size for f in files]
    buf = memoryview(bytearray(max(sizes, default=1)))
    best = cpu = math.inf
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        for f, size in zip(files, sizes, strict=True):
            fd = os.open(f, os.O_RDONLY)
            try:
                got = 0
                while got < size:
                    n = os.preadv(fd, [buf[got:size]], got)
                    if n <= 0:
                        break
                    got += n
            finally:
                os.close(fd)
        best, cpu = min(best, time.perf_counter() - start), min(cpu, time.process_time() - start_cpu)
    return sum(sizes) / best / 1e9, cpu


def pairs_of(golden: Path) -> int:
    """Element pairs of a case: the golden tensors' elements (each has a target)."""
    return sum(int(np.load(f, mmap_mode="r").size) for f in golden.rglob("*.npy"))


def make_layers(root: Path, layers: int, elems: int, target_dtype: type, seed: int) -> int:
    rng = np.random.default_rng(seed)
    g, t = root / "golden", root / "target"
    g.mkdir(parents=True, exist_ok=True)
    t.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(layers):
        a = rng.standard_normal(elems, dtype=np.float32)
        noise = 1e-3 * (1 + i / layers)
        b = (a + rng.standard_normal(elems, dtype=np.float32) * noise).astype(target_dtype)
        np.save(g / f"layer_{i:04d}.npy", a)
        np.save(t / f"layer_{i:04d}.npy", b)
        total += a.nbytes + b.nbytes
    return total


def make_light_model(root: Path) -> int:
    import onnx

    light = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
    model = light / "light_resnet50.onnx"
    if not model.exists():
        model = sorted(light.glob("light_*.onnx"))[0]
    dumpscope = [sys.executable, "-m", "dumpscope"]
    subprocess.run(
        [*dumpscope, "dump", str(model), "-o", str(root / "golden")], check=True, capture_output=True
    )
    subprocess.run(
        [*dumpscope, "dump", str(model), "-o", str(root / "target"), "--target", "fp16"],
        check=True,
        capture_output=True,
    )
    (root / "model.txt").write_text(str(model))
    return sum(f.stat().st_size for f in root.rglob("*.npy"))


def make_ocr_det(root: Path) -> int:
    """PP-OCRv4 det at 640x640 dumped golden and fp16 (0 when the model is not cached)."""
    if __package__ in (None, ""):  # run as a script: the repository root holds the bench package
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.realmodels.models import cache_root

    model = cache_root() / "models" / "ppocr-det.onnx"
    if not model.exists():
        return 0
    dumpscope = [sys.executable, "-m", "dumpscope", "dump", str(model), "--input-shape", "x:1,3,640,640"]
    subprocess.run([*dumpscope, "-o", str(root / "golden")], check=True, capture_output=True)
    subprocess.run(
        [*dumpscope, "-o", str(root / "target"), "--target", "fp16"], check=True, capture_output=True
    )
    (root / "model.txt").write_text(str(model))
    return sum(f.stat().st_size for f in root.rglob("*.npy"))


def kernel_ns(repeat: int = 20) -> dict[str, float]:
    """The metric kernel's CPU ns per element pair on one core, in memory (no reading):
    ``compare_arrays`` on 1M float32 golden vs float16 and vs float32 targets."""
    from threadpoolctl import threadpool_limits

    from dumpscope.core.comparison.metrics import compare_arrays

    rng = np.random.default_rng(0)
    g = rng.standard_normal(1_000_000, dtype=np.float32)
    out = {}
    for name, dtype in (("fp32 vs fp16", np.float16), ("fp32 vs fp32", np.float32)):
        t = (g + rng.standard_normal(g.size, dtype=np.float32) * 1e-3).astype(dtype)
        with threadpool_limits(1, "blas"):
            compare_arrays(g, t)
            best = math.inf
            for _ in range(repeat):
                start = time.process_time()
                compare_arrays(g, t)
                best = min(best, time.process_time() - start)
        out[name] = best / g.size * 1e9
    return out


def sibling(name: str) -> ModuleType:
    """Another script of this folder, as a module (``bench`` is not a package)."""
    import importlib.util

    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def parent_share(d: Path) -> tuple[float, float, float]:
    """The parent's CPU outside tasks, its share of all CPU, and the tasks' CPU seconds (reading,
    kernel, the Python per row), compare with 2 workers in this process (best of three, by
    share): see bench_workers.timed."""
    timed = sibling("bench_workers").timed
    runs = [timed(d / "golden", d / "target", 2) for _ in range(3)]
    run = min(runs, key=lambda r: r.serial / (r.parent_cpu + r.children_cpu))
    return run.serial, run.serial / (run.parent_cpu + run.children_cpu), run.work


def ours(d: Path, extra: list[str], workers: int | None = None) -> tuple[float, float, str, float]:
    cmd = [sys.executable, "-m", "dumpscope", "compare", str(d / "golden"), str(d / "target"), *extra]
    if workers:
        cmd += ["--workers", str(workers)]
    return child([*cmd, "--format", "csv", "-o", str(d / "result.csv")])


def load() -> float:
    return os.getloadavg()[0]


HEADER = (
    f"{'case':38} {'MB':>6} {'rows':>5} {'naive s':>7} {'ours s':>6} {'x naive':>7} {'read GB/s':>9} "
    f"{'% read':>6} {'CPU %rd':>7} {'ns/pair':>7} "
    f"{'1 w s':>6} {'2 w s':>6} {'2w x':>5} {'RSS MB':>6} {'load':>9}"
)


def row_line(r: dict) -> str:
    """One case's figures as a line under :data:`HEADER`."""
    mb = r["bytes"] / 1e6
    rate = r["bytes"] / r["dumpscope_s"] / 1e9
    return (
        f"{r['case']:38} {mb:6.0f} {r['rows']:5d} {r['naive_s']:7.2f} {r['dumpscope_s']:6.2f} "
        f"{r['dumpscope_s'] / r['naive_s']:6.2f}x {r['read_gb_s']:9.2f} {rate / r['read_gb_s']:6.0%} "
        f"{r['read_cpu_s'] / r['dumpscope_cpu_s']:7.0%} "
        f"{r['dumpscope_cpu_s'] / r['pairs'] * 1e9:7.2f} {r['workers_1_s']:6.2f} {r['workers_2_s']:6.2f} "
        f"{r['workers_1_s'] / r['workers_2_s']:4.2f}x {r['dumpscope_rss_mb']:6.0f} "
        f"{r['load'][0]:4.1f}-{r['load'][1]:<4.1f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller cases (a smoke run)")
    ap.add_argument("--keep", metavar="DIR", help="generate into DIR and keep the data")
    ap.add_argument("--cases", default="abcd", help="which cases to run (default: abcd)")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="run each contender N times, alternating, and keep each one's fastest run (a shared box)",
    )
    args = ap.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="dumpscope-bench-"))
    scale = 10 if args.quick else 1
    cases = {
        "(a) 500 x 400 KB float32": lambda d: make_layers(d, 500 // scale, 100_000, np.float32, 1),
        "(b) ~1 GB float32 vs float16": lambda d: make_layers(d, 240 // scale, 700_000, np.float16, 2),
        "(c) onnx light model, fp16 target": make_light_model,
        "(d) PP-OCRv4 det 640x640, fp16 target": make_ocr_det,
        "(e) 2 GiB float32 vs float16": lambda d: make_layers(d, 512 // scale, 700_000, np.float16, 3),
        "(f) 40 x 4M float32 vs float16": lambda d: make_layers(d, 40 // scale, 4_000_000, np.float16, 4),
    }
    sibling("bench_cli_startup").compile_bytecode()  # as installed: see the module's docstring
    print(f"cores available: {len(os.sched_getaffinity(0))}; load average at start {load():.2f}")
    results = []
    print(HEADER, flush=True)
    for label, make in cases.items():
        key = label.split()[0].strip("()")
        if key not in args.cases:
            continue
        d = base / key
        if not (d / "golden").exists():
            size = make(d)
            if not size:
                print(f"{label}: skipped (model not cached; run `python -m bench.realmodels`)", flush=True)
                continue
        else:
            size = sum(f.stat().st_size for f in d.rglob("*.npy"))
        extra = []
        model_file = d / "model.txt"
        if model_file.exists():
            extra = ["--model", model_file.read_text()]
        load_before = load()
        rate, rate_cpu = read_rate(d)  # also warms the page cache for both contenders
        naive_cmd = [sys.executable, "-c", NAIVE, str(d / "golden"), str(d / "target")]
        runs: dict[str, list[tuple[float, float, str, float]]] = {k: [] for k in ("naive", "every", "1", "2")}
        for _ in range(max(1, args.repeat)):  # alternating, so that a busy spell hits every contender
            runs["naive"].append(child(naive_cmd, blas_threads=1))
            runs["every"].append(ours(d, extra))
            runs["1"].append(ours(d, extra, 1))
            runs["2"].append(ours(d, extra, 2))
        naive, every, one, two = (min(runs[k], key=lambda r: r[0]) for k in ("naive", "every", "1", "2"))
        rows = sum(1 for _ in open(d / "result.csv")) - 1
        results.append(
            {
                "case": label,
                "bytes": size,
                "pairs": pairs_of(d / "golden"),
                "rows": rows,
                "read_gb_s": rate,
                "read_cpu_s": rate_cpu,
                "naive_s": naive[0],
                "naive_rss_mb": naive[1],
                "dumpscope_s": every[0],
                "dumpscope_cpu_s": every[3],
                "dumpscope_rss_mb": every[1],
                "workers_1_s": one[0],
                "workers_2_s": two[0],
                "load": [load_before, load()],
            }
        )
        print(row_line(results[-1]), flush=True)
    if (base / "b" / "golden").exists():
        serial, share, work = parent_share(base / "b")
        print(f"parent CPU outside tasks, case (b), 2 workers: {serial:.3f} s, {share:.1%} of all CPU")
        print(
            f"case (b) in tasks (reading, kernel, Python per row; no start-up): "
            f"{work / pairs_of(base / 'b' / 'golden') * 1e9:.2f} CPU ns per element pair"
        )
    kernel = kernel_ns()
    print(
        "metric kernel, one core, in memory: " + ", ".join(f"{k} {v:.2f} ns/pair" for k, v in kernel.items())
    )
    print(f"load average at the end {load():.2f}")
    print(json.dumps({"cases": results, "kernel_ns_per_pair": kernel}))
    if not args.keep:
        import shutil

        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
