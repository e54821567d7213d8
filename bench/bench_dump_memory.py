"""Peak RSS of `dumpscope dump` against a plain onnxruntime run of the same model, same run.

    python -m bench.bench_dump_memory [--model PATH] [--shape x:1,3,960,960] [--max-memory 64,512]
    (or python bench/bench_dump_memory.py from the repository root)

Default model: PP-OCRv4 det from rapidocr-onnxruntime (cached by `python -m bench.realmodels`;
this script only reads the cache).  Each contender runs as its own subprocess and its
peak RSS is read from ``wait4`` (RUSAGE of that child alone).  The plain run creates one
onnxruntime session and runs it once on the same generated input; the largest tensor
of the dump is reported too, since the target is "within 1.5x a plain run plus the
largest tensor".

Two more rows explain the gap: the imports alone (numpy, onnxruntime, onnx and the dump
module: the floor under any dump), and the plain run set up as `dump` runs the model
(graph optimisation off, so no Conv+BN+activation fusion and more, larger live tensors;
arena off; onnxruntime's default threads).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: `bench` is then not importable
    sys.path.insert(0, str(ROOT))

IMPORTS = "import numpy, onnxruntime, onnx, dumpscope.core.onnx.runner"

PLAIN = r"""
import sys, numpy as np, onnxruntime as ort
model, name, shape = sys.argv[1], sys.argv[2], [int(d) for d in sys.argv[3].split(",")]
so = ort.SessionOptions()
if sys.argv[4:] == ["as-dump"]:
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.enable_cpu_mem_arena = False
else:
    so.intra_op_num_threads = 1
s = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
out = s.run(None, {name: x})
print(sum(o.nbytes for o in out))
"""


def child(cmd: list[str]) -> tuple[float, float, str]:
    """Wall seconds, that child's peak RSS in MB, and its stdout."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"{cmd[:4]} failed: {err.read()[-2000:]}")
        out.seek(0)
        return wall, usage.ru_maxrss / 1024, out.read()


def default_model() -> Path:
    from bench.realmodels.models import cache_root

    path = cache_root() / "models" / "ppocr-det.onnx"
    if not path.exists():
        raise SystemExit(f"{path} is not cached: run `python -m bench.realmodels` first")
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model")
    ap.add_argument("--shape", default="x:1,3,960,960", help="NAME:d0,d1,... of the one input")
    ap.add_argument("--max-memory", default="64,512", help="budgets (MB) to run `dump` with")
    args = ap.parse_args()
    model = Path(args.model) if args.model else default_model()
    name, dims = args.shape.split(":")
    plain = child([sys.executable, "-c", PLAIN, str(model), name, dims])
    rows = [{"run": "plain onnxruntime", "wall_s": plain[0], "peak_rss_mb": plain[1]}]
    for label, cmd in (
        ("imports only", ["-c", IMPORTS]),
        ("plain, set up as dump", ["-c", PLAIN, str(model), name, dims, "as-dump"]),
    ):
        wall, rss, _ = child([sys.executable, *cmd])
        rows.append({"run": label, "wall_s": wall, "peak_rss_mb": rss})
    largest = 0
    for budget in args.max_memory.split(","):
        with tempfile.TemporaryDirectory(prefix="dumpscope-dumpmem-") as tmp:
            out = Path(tmp) / "dump"
            wall, rss, _ = child(
                [
                    sys.executable,
                    "-m",
                    "dumpscope",
                    "dump",
                    str(model),
                    "-o",
                    str(out),
                    "--input-shape",
                    args.shape,
                    "--max-memory",
                    budget,
                ]
            )
            sizes = [f.stat().st_size for f in out.rglob("*.npy")]
            largest = max(largest, max(sizes))
            rows.append(
                {
                    "run": f"dumpscope dump --max-memory {budget}",
                    "wall_s": wall,
                    "peak_rss_mb": rss,
                    "tensors": len(sizes),
                    "dump_mb": sum(sizes) / 2**20,
                }
            )
    bound = 1.5 * plain[1] + largest / 2**20
    print(
        f"model {model.name}, input {args.shape}; largest tensor {largest / 2**20:.0f} MB; "
        f"target: peak <= 1.5 x plain + largest = {bound:.0f} MB"
    )
    print(f"{'run':34} {'wall s':>7} {'peak RSS MB':>11} {'x plain':>8}")
    for r in rows:
        print(
            f"{r['run']:34} {r['wall_s']:7.2f} {r['peak_rss_mb']:11.0f} {r['peak_rss_mb'] / plain[1]:7.2f}x"
        )
    print(json.dumps({"largest_mb": largest / 2**20, "bound_mb": bound, "rows": rows}))


if __name__ == "__main__":
    main()
