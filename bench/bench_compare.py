"""Benchmark `dumpscope compare` against a naive float64 numpy loop over the same files.

    python bench/bench_compare.py [--quick] [--keep DIR]

Cases (generated in the same run, page cache warm for both contenders):
  (a) 500 float32 layers x 400 KB per side;
  (b) a pair of about 1 GB in total, float32 golden vs mostly float16 target;
  (c) a real topology from the onnx package's light models, dumped with `dumpscope dump`
      (golden and an fp16 target);
  (d) a real OCR detector (PP-OCRv4 det from rapidocr-onnxruntime, as cached by
      `python -m bench.realmodels`; skipped when not cached) at 640x640, golden vs fp16.
Both contenders run as subprocesses, so wall time and peak RSS are measured the same
way (RUSAGE_CHILDREN).  Figures are printed as ratios to the naive loop, plus the
metric kernel's throughput per core on float32 pairs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def child(cmd: list[str], blas_threads: int | None = None) -> tuple[float, float, str]:
    """Run ``cmd``; return wall seconds, that child's own peak RSS in MB, and its stdout.

    The naive loop runs with one BLAS thread: OpenBLAS's threaded dot products are
    slower on a busy 2-core box, and the baseline should not be handicapped.
    """
    env = {**os.environ, "COLUMNS": "200"}
    if blas_threads:
        env["OPENBLAS_NUM_THREADS"] = str(blas_threads)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            err.seek(0)
            raise SystemExit(f"{cmd[:4]} failed ({proc.returncode}): {err.read()[-2000:]}")
        out.seek(0)
        return wall, usage.ru_maxrss / 1024, out.read()


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


def copy_bandwidth(mb: int = 256, repeat: int = 5) -> float:
    """GB/s of a numpy copy between two arrays far larger than the caches (read + write bytes)."""
    src = np.ones(mb << 18, np.float32)
    dst = np.empty_like(src)
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        np.copyto(dst, src)
        best = min(best, time.perf_counter() - start)
    return 2 * src.nbytes / best / 1e9


def kernel_throughput(repeat: int = 40) -> float:
    """GB/s of float32 pair data through compare_arrays on one core (CPU time)."""
    from threadpoolctl import threadpool_limits

    from dumpscope.core.comparison.metrics import compare_arrays

    rng = np.random.default_rng(0)
    g = rng.standard_normal(1_000_000, dtype=np.float32)
    t = g + rng.standard_normal(1_000_000, dtype=np.float32) * 1e-3
    with threadpool_limits(1, "blas"):
        compare_arrays(g, t)
        start = time.process_time()
        for _ in range(repeat):
            compare_arrays(g, t)
        cpu = (time.process_time() - start) / repeat
    return (g.nbytes + t.nbytes) / cpu / 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller cases (a smoke run)")
    ap.add_argument("--keep", metavar="DIR", help="generate into DIR and keep the data")
    args = ap.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="dumpscope-bench-"))
    scale = 10 if args.quick else 1
    cases = {
        "(a) 500 x 400 KB float32": lambda d: make_layers(d, 500 // scale, 100_000, np.float32, 1),
        "(b) ~1 GB float32 vs float16": lambda d: make_layers(d, 240 // scale, 700_000, np.float16, 2),
        "(c) onnx light model, fp16 target": make_light_model,
        "(d) PP-OCRv4 det 640x640, fp16 target": make_ocr_det,
    }
    results = []
    for label, make in cases.items():
        d = base / label.split()[0].strip("()")
        if not (d / "golden").exists():
            size = make(d)
            if not size:
                print(f"{label}: skipped (model not cached; run `python -m bench.realmodels`)")
                continue
        else:
            size = sum(f.stat().st_size for f in d.rglob("*.npy"))
        extra = []
        model_file = d / "model.txt"
        if model_file.exists():
            extra = ["--model", model_file.read_text()]
        naive = child([sys.executable, "-c", NAIVE, str(d / "golden"), str(d / "target")], blas_threads=1)
        ours = child(
            [
                sys.executable,
                "-m",
                "dumpscope",
                "compare",
                str(d / "golden"),
                str(d / "target"),
                *extra,
                "--format",
                "csv",
                "-o",
                str(d / "result.csv"),
            ]
        )
        rows = sum(1 for _ in open(d / "result.csv")) - 1
        results.append(
            {
                "case": label,
                "bytes": size,
                "rows": rows,
                "naive_s": naive[0],
                "naive_rss_mb": naive[1],
                "dumpscope_s": ours[0],
                "dumpscope_rss_mb": ours[1],
            }
        )
    print(
        f"{'case':38} {'MB':>7} {'rows':>5} {'naive s':>8} {'ours s':>7} {'speed-up':>8} {'GB/s':>6} {'RSS MB':>7}"
    )
    for r in results:
        mb = r["bytes"] / 1e6
        print(
            f"{r['case']:38} {mb:7.0f} {r['rows']:5d} {r['naive_s']:8.2f} {r['dumpscope_s']:7.2f} "
            f"{r['naive_s'] / r['dumpscope_s']:7.1f}x {mb / 1e3 / r['dumpscope_s']:6.2f} {r['dumpscope_rss_mb']:7.0f}"
        )
    bandwidth = copy_bandwidth()
    print(f"metric kernel, float32 pairs, one core: {kernel_throughput():.2f} GB/s")
    print(
        f"memory bandwidth (numpy copy, read+write): {bandwidth:.1f} GB/s; compare's share per case: "
        + ", ".join(f"{r['case'][:3]} {r['bytes'] / 1e9 / r['dumpscope_s'] / bandwidth:.0%}" for r in results)
    )
    print(json.dumps(results))
    if not args.keep:
        import shutil

        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
