"""Peak RSS of `dumpscope compare` on Polygraphy RunResults JSON (issue 24: streamed inputs).

    python bench/bench_polygraphy_memory.py [--golden NPY_DIR] [--mb 1024] [--keep DIR]

Two Polygraphy ``--save-outputs`` files are written in the layout Polygraphy writes
(``{"lst": [[runner, [{"outputs": {name: LazyArray{ndarray{base64 npy}}}}]]], ...}``):
the golden in float32 and the target as its float16 rounding.  The tensors are the
``.npy`` files of ``--golden`` (e.g. a ``dumpscope dump`` of PP-OCRv4 det at 960x960),
or, without it, synthetic float32 tensors shaped like a detector's (``--mb`` MB in all).

Each contender runs as its own subprocess; its peak RSS comes from ``wait4``:
  * the imports alone (python, numpy, polars and dumpscope's pipeline: the floor);
  * ``json.load`` of the golden file (what reading the whole file costs: the reader did this
    before it was streamed);
  * ``dumpscope compare golden.json target.json`` (every tensor loaded and compared).
The load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

IMPORTS = "import numpy, polars, dumpscope.core.comparison.pipeline"
JSON_LOAD = "import json, sys; json.load(open(sys.argv[1]))"


def tensors(golden: Path | None, mb: int) -> list[tuple[str, np.ndarray]]:
    """The golden's tensors: an npy folder's, or synthetic ones (``mb`` MB of float32)."""
    if golden is not None:
        return [(p.stem, np.load(p, allow_pickle=False)) for p in sorted(golden.rglob("*.npy"))]
    rng, out, left, i = np.random.default_rng(0), [], mb << 20, 0
    shapes = [(1, 16, 480, 480), (1, 32, 240, 240), (1, 64, 120, 120), (1, 96, 60, 60), (1, 8, 960, 960)]
    while left > 0:
        shape = shapes[i % len(shapes)]
        arr = rng.standard_normal(shape).astype(np.float32)
        out.append((f"layer{i:04d}/conv:0", arr))
        left -= arr.nbytes
        i += 1
    return out


def write_run_results(path: Path, arrays: list[tuple[str, np.ndarray]], runner: str) -> None:
    """A Polygraphy RunResults file, written array by array (never whole in memory)."""
    with open(path, "w") as fh:
        fh.write('{"lst": [[' + json.dumps(runner) + ', [{"outputs": {')
        for i, (name, arr) in enumerate(arrays):
            buf = io.BytesIO()
            np.save(buf, arr, allow_pickle=False)
            fh.write(
                ("" if i == 0 else ", ")
                + json.dumps(name)
                + ': {"values": {"array": "'
                + base64.b64encode(buf.getvalue()).decode()
                + '", "polygraphy_class": "ndarray"}, "polygraphy_class": "LazyArray"}'
            )
        fh.write(
            '}, "runtime": 0.1, "runner_name": '
            + json.dumps(runner)
            + ', "polygraphy_class": "IterationResult"}]]], "polygraphy_class": "RunResults"}'
        )


def peak(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MB) of one child."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{cmd[:4]} failed: {proc.stderr.read().decode()[-500:]}")  # type: ignore[union-attr]
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--golden", type=Path, help="an npy dump folder (default: synthetic tensors)")
    parser.add_argument("--mb", type=int, default=1024, help="synthetic float32 MB (without --golden)")
    parser.add_argument("--keep", type=Path, help="write the JSON files here and keep them")
    parser.add_argument(
        "--skip-json-load", action="store_true", help="no json.load row (it needs ~2x the file)"
    )
    parser.add_argument("--write", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        arrays = tensors(args.golden, args.mb)
        write_run_results(args.write / "golden.json", arrays, "onnxrt-runner-N0")
        write_run_results(
            args.write / "target.json", [(n, a.astype(np.float16)) for n, a in arrays], "trt-runner-N0"
        )
        print(sum(a.nbytes for _n, a in arrays), max(a.nbytes for _n, a in arrays))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        g, t = root / "golden.json", root / "target.json"
        # written by a child: a parent this large would lend its peak RSS to every child it
        # forks (``ru_maxrss`` survives ``fork`` and ``exec``)
        write = [sys.executable, __file__, "--write", str(root), "--mb", str(args.mb)]
        facts = subprocess.run(
            write + (["--golden", str(args.golden)] if args.golden else []),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        total, largest = int(facts[0]), int(facts[1])
        print(
            f"load average {os.getloadavg()[0]:.2f}; {total / 1e6:,.0f} MB of float32 tensors "
            f"(largest {largest / 1e6:,.0f} MB); golden.json {g.stat().st_size / 1e6:,.0f} MB, "
            f"target.json {t.stat().st_size / 1e6:,.0f} MB\n"
        )
        print("| contender | wall s | peak RSS MB |\n|---|---|---|")
        rows = [("imports alone (floor)", [sys.executable, "-c", IMPORTS])]
        if not args.skip_json_load:
            rows.append(
                ("json.load of golden.json (the whole file)", [sys.executable, "-c", JSON_LOAD, str(g)])
            )
        out = root / "out.csv"
        rows.append(
            (
                "dumpscope compare golden.json target.json",
                [
                    sys.executable,
                    "-m",
                    "dumpscope",
                    "compare",
                    str(g),
                    str(t),
                    "--format",
                    "csv",
                    "-o",
                    str(out),
                ],
            )
        )
        for label, cmd in rows:
            wall, mb = peak(cmd)
            print(f"| {label} | {wall:.1f} | {mb:,.0f} |")
        print(f"\nload average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
