"""SigmaStar listing speed: ``dumpscope compare SAMPLE BENCHMARK --format sigmastar`` against a naive
float64 reimplementation of SGS_IPU_SDK's dump_debug.py loop (regex the headers, read each record,
MSE / COS / relative-L1 per tensor) on the proof case's float.sim / fixed.sim dumps.

    python bench/bench_sigmastar.py [CASE_DIR]

Both run as subprocesses in the same run (page cache warm for both); the figure is the ratio of wall
times, best of three.  The case is built by ``bench/sigmastar_case.py`` when CASE_DIR has no dumps.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

NAIVE = r"""
import re, sys, numpy as np
HEAD = re.compile(
    rb"^//(in|out) \d+ s: \S+ z: \S+ type: \S+ name: (.*?) bConstant:\d shape:\[([^\]]*)\]", re.M
)
def read(path):
    data = open(path, "rb").read()
    out = {}
    for m in HEAD.finditer(data):
        at = data.index(b"//buffer data size: ", m.end()); nl = data.index(b"\n", at)
        shape = [int(d) for d in m.group(3).split(b",") if d.strip()]
        if m.group(1) == b"out":
            values = np.frombuffer(data, "<f4", int(np.prod(shape)), nl + 1)
            out[m.group(2).decode()] = values.astype(np.float64)
    return out
s, b = read(sys.argv[1]), read(sys.argv[2])
for i, name in enumerate(n for n in s if n in b):
    x, y = s[name], b[name]; d = x - y
    cos = float(x @ y / np.sqrt((x @ x) * (y @ y)))
    rmse = float(np.abs(d).sum() / np.abs(y).sum())
    print(f"{i}) {name} MSE: {float(d @ d) / d.size:.6f} COS: {cos:.6f} RMSE: {rmse:.6f}")
"""


def _best(cmd: list[str], runs: int = 3) -> tuple[float, str]:
    best, out = float("inf"), ""
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run(cmd, check=False, capture_output=True, text=True).stdout
        best = min(best, time.perf_counter() - start)
    return best, out


def main(argv: list[str]) -> int:
    root = Path(__file__).resolve().parents[1]
    case_dir = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="sgs-bench-"))
    fixed, flt = (
        case_dir / "fixed_sim" / "sigma_outtensor_dump.bin",
        case_dir / "float_sim" / "sigma_outtensor_dump.bin",
    )
    if not fixed.is_file():
        subprocess.run([sys.executable, "-m", "bench.sigmastar_case", str(case_dir)], cwd=root, check=True)
    ours, listing = _best(
        [sys.executable, "-m", "dumpscope", "compare", str(fixed), str(flt), "--format", "sigmastar"]
    )
    naive, reference = _best([sys.executable, "-c", NAIVE, str(fixed), str(flt)])
    ours_lines, ref_lines = listing.splitlines(), reference.splitlines()
    # two all-zero tensors: 0/0 = nan in the naive loop, "identical" (COS 1, RMSE 0) in dumpscope
    differ = [(a, b) for a, b in zip(ours_lines, ref_lines, strict=False) if a != b and "nan" not in b]
    zero = sum("nan" in b for b in ref_lines)
    print(f"{len(ours_lines)} tensors, {fixed.stat().st_size / 1e6:.1f} MB per side")
    print(
        f"dumpscope --format sigmastar: {ours:.2f} s; naive float64 loop: {naive:.2f} s; ratio "
        f"{ours / naive:.2f} "
        "(both as subprocesses: dumpscope's start-up included)"
    )
    print(f"lines that differ: {len(differ)} (plus {zero} all-zero tensors the naive loop prints as nan)")
    return 0 if not differ and len(ours_lines) == len(ref_lines) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
