"""Many tiny tensors (issue 15): tensors per second of `dumpscope compare` next to a naive numpy loop.

    python bench/bench_scale.py [--tensors 20000] [--reopen 100000] [--repeat 3] [--keep DIR]

Generated in the same run, page cache warm for every contender:
  * ``--tensors`` tiny float32 tensors per side (16-256 elements), target = golden + noise,
    as an ``.npy`` folder without a manifest, the same folder with a dumpscope manifest,
    and one ``.npz`` per side with the same members;
  * the baseline: a naive numpy loop (``np.load`` both files, a few float64 metrics) over
    the same npy files, as a subprocess like dumpscope (interpreter start included in both);
  * ``--reopen`` tiny tensors per side compared with ``--cache``: a cold run (no index)
    and a warm reopen (the index is there, no file changed), plus, warm, the time to the
    first streamed frame and to the first judged row of the TUI (``dumpscope GOLDEN
    TARGET --cache`` in a pty, as bench_tui.py's cold start).
Every figure is a wall-clock time (best of ``--repeat``) and a ratio to the baseline of
the same run, with the CPU seconds of each contender (its own and its workers', from
``wait4``: on a loaded box the wall clock mostly measures the other processes); peak RSS
of each child from ``wait4``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_tui import first_row_in_pty  # noqa: E402  (the pty timing of bench_tui.py's cold start)

NAIVE = r"""
import sys, os, math, numpy as np
g_dir, t_dir = sys.argv[1], sys.argv[2]
rows = 0
for name in sorted(os.listdir(g_dir)):
    if not name.endswith(".npy"):
        continue
    y = np.load(os.path.join(g_dir, name), allow_pickle=False).astype(np.float64).ravel()
    x = np.load(os.path.join(t_dir, name), allow_pickle=False).astype(np.float64).ravel()
    d = x - y
    ad = np.abs(d)
    cos = float(x @ y / math.sqrt((x @ x) * (y @ y)))
    res = (cos, ad.max(), math.sqrt(float(d @ d) / float(y @ y)), ad.mean(), x.mean(), y.mean())
    rows += 1
print(rows)
"""


def make_side(folder: Path, count: int, seed: int, noise: float) -> None:
    """``count`` tiny float32 tensors ``t00000.npy``... (sizes 16-256, the same for every side
    made with the same seed); ``noise`` is the target's perturbation (0 for the golden)."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(16, 257, count)
    folder.mkdir(parents=True)
    noisy = np.random.default_rng(seed + 1)
    for i, size in enumerate(sizes):
        a = np.random.default_rng(i).standard_normal(int(size)).astype(np.float32)
        if noise:
            a = a + noisy.standard_normal(a.shape).astype(np.float32) * noise
        np.save(folder / f"t{i:06d}.npy", a)


def with_manifest(src: Path, dst: Path) -> None:
    """A copy of the npy folder ``src`` with a dumpscope manifest naming every file."""
    shutil.copytree(src, dst)
    files = sorted(p.name for p in dst.glob("*.npy"))
    entries = [
        {
            "name": f[:-4],
            "file": f,
            "topo_index": i,
            "node_name": f"n{f[1:-4]}",
            "op_type": "Add",
            "kind": "activation",
        }
        for i, f in enumerate(files)
    ]
    manifest = {"format": "dumpscope-manifest", "version": 1, "producer": "bench_scale", "tensors": entries}
    (dst / "manifest.json").write_text(json.dumps(manifest))


def as_npz(src: Path, dst: Path) -> None:
    """The members of the npy folder ``src`` as one uncompressed ``.npz``."""
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as z:
        for p in sorted(src.glob("*.npy")):
            z.write(p, p.name)


def timed(cmd: list[str]) -> tuple[float, float, float]:
    """(wall seconds, peak RSS MB, CPU seconds of the process and the workers it waited for)."""
    with tempfile.TemporaryFile("w+") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{cmd[:4]} failed ({status})")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def best(cmd: list[str], repeat: int) -> tuple[float, float, float]:
    """(best wall seconds, peak RSS MB of that run, least CPU seconds) of ``cmd`` over
    ``repeat`` runs (CPU time: on a loaded box the wall clock mostly measures the others)."""
    runs = [timed(cmd) for _ in range(repeat)]
    wall, mb, _cpu = min(runs)
    return wall, mb, min(r[2] for r in runs)


def compare_cmd(golden: Path, target: Path, out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "dumpscope",
        "compare",
        str(golden),
        str(target),
        "--format",
        "csv",
        "-o",
        str(out),
        *extra,
    ]


def tiny_table(root: Path, count: int, repeat: int) -> None:
    """Tensors per second: naive loop vs dumpscope on the npy folder, manifest folder and npz."""
    make_side(root / "g", count, 1, 0.0)
    make_side(root / "t", count, 1, 1e-3)
    for side in ("g", "t"):
        with_manifest(root / side, root / f"{side}m")
        as_npz(root / side, root / f"{side}.npz")
    naive_s, naive_mb, naive_cpu = best(
        [sys.executable, "-c", NAIVE, str(root / "g"), str(root / "t")], repeat
    )
    print(f"\n{count} tiny tensors per side (16-256 float32 elements)\n")
    print(
        "| contender | wall s | tensors/s | x naive loop | CPU s (all processes) | x naive CPU | peak RSS "
        "MB |\n"
        "|---|---|---|---|---|---|---|"
    )
    print(
        f"| naive numpy loop (baseline) | {naive_s:.2f} | {count / naive_s:,.0f} | 1.00 | {naive_cpu:.2f} | "
        f"1.00 | {naive_mb:.0f} |"
    )
    cases = (("npy folder", "g", "t"), ("npy folder + manifest", "gm", "tm"), (".npz", "g.npz", "t.npz"))
    for label, g, t in cases:
        wall, mb, cpu = best(compare_cmd(root / g, root / t, root / "out.csv"), repeat)
        print(
            f"| dumpscope compare, {label} | {wall:.2f} | {count / wall:,.0f} | {wall / naive_s:.2f} | "
            f"{cpu:.2f} | "
            f"{cpu / naive_cpu:.2f} | {mb:.0f} |"
        )


FIRST_SNAPSHOT = r"""
import sys, time
start = float(sys.argv[3])
from dumpscope.core.comparison.pipeline import compare_stream
stream = compare_stream(sys.argv[1], sys.argv[2], cache=True)
first = next(stream)
print(time.time() - start, first.comparison.frame.height, bool(first.comparison.meta.from_cache))
stream.close()
"""


def first_snapshot(golden: Path, target: Path) -> tuple[float, int, bool]:
    """Seconds from process start to the first streamed frame (what a UI paints first), its
    rows, and whether it came from the cache."""
    out = subprocess.run(
        [sys.executable, "-c", FIRST_SNAPSHOT, str(golden), str(target), repr(time.time())],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(out[0]), int(out[1]), out[2] == "True"


def first_paint(golden: Path, target: Path, timeout: float = 120.0) -> float:
    """Seconds until ``dumpscope GOLDEN TARGET --cache`` shows a judged row in a pty (as
    bench_tui.py's cold start: the first OK/FAIL mark on screen)."""
    env = {**os.environ, "TERM": "xterm-256color"}
    argv = [sys.executable, "-m", "dumpscope", str(golden), str(target), "--cache"]
    first, _ = first_row_in_pty(argv, env, (160, 50), timeout)
    return float("nan") if first is None else first


def reopen_table(root: Path, count: int) -> None:
    """``compare --cache`` cold vs warm, and ``dumpscope open``'s first paint cold vs warm."""
    make_side(root / "rg", count, 2, 0.0)
    make_side(root / "rt", count, 2, 1e-3)
    g, t = root / "rg", root / "rt"
    naive_s, _, naive_cpu = best([sys.executable, "-c", NAIVE, str(g), str(t)], 1)
    cold, cold_mb, cold_cpu = timed(compare_cmd(g, t, root / "r.csv", "--cache"))
    warm, warm_mb, warm_cpu = best(compare_cmd(g, t, root / "r.csv", "--cache"), 2)
    print(
        f"\n{count} tiny tensors per side, `compare --cache` (naive loop {naive_s:.2f} s, {naive_cpu:.2f} "
        "CPU s)\n"
    )
    print("| run | wall s | x naive loop | CPU s | x naive CPU | peak RSS MB |\n|---|---|---|---|---|---|")
    print(
        f"| cold (no index) | {cold:.2f} | {cold / naive_s:.2f} | {cold_cpu:.2f} | "
        f"{cold_cpu / naive_cpu:.2f} | {cold_mb:.0f} |"
    )
    print(
        f"| warm reopen (index, no file changed) | {warm:.2f} | {warm / naive_s:.2f} | {warm_cpu:.2f} | "
        f"{warm_cpu / naive_cpu:.2f} | {warm_mb:.0f} |"
    )
    snap, rows, cached = first_snapshot(g, t)
    print(
        f"\nwarm reopen, first streamed frame (process start to frame): {snap:.2f} s, {rows} rows, from the "
        f"cache: {cached}"
    )
    print(
        "warm reopen, `dumpscope GOLDEN TARGET --cache` first judged row on screen: "
        f"{first_paint(g, t):.2f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tensors", type=int, default=20_000)
    parser.add_argument(
        "--reopen", type=int, default=100_000, help="tensors per side for the cache reopen (0: skip)"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    parser.add_argument(
        "--paint-only",
        nargs=2,
        type=Path,
        metavar=("GOLDEN", "TARGET"),
        help="only the warm first-frame and first-paint times of an already cached pair",
    )
    args = parser.parse_args()
    if args.paint_only:
        snap, rows, cached = first_snapshot(*args.paint_only)
        print(
            f"first streamed frame: {snap:.2f} s ({rows} rows, from the cache: {cached}); "
            f"first judged row on screen: {first_paint(*args.paint_only):.2f} s"
        )
        return 0
    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-scale-"))
    try:
        if args.tensors:
            tiny_table(root / "tiny", args.tensors, args.repeat)
        if args.reopen:
            reopen_table(root / "reopen", args.reopen)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    print(f"\nmachine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
