"""Same input, same output: ``dumpscope diagnose`` on every corpus case, idle and under a CPU hog.

    python bench/bench_determinism.py [--case NAME ...] [--runs 3] [--hogs 2]

For every real-model corpus case (``bench/realmodels``; dumps built and cached as there) the
whole command ``dumpscope diagnose GOLDEN TARGET --model M --json`` and its ``--markdown``
twin run ``--runs`` times idle, then ``--runs`` times while ``--hogs`` busy subprocesses spin
(each stops by itself after :data:`HOG_S` seconds and is killed as soon as the case is done).
An output is its exit code, stdout and stderr; every output must equal the case's first idle
one.  Prints per case the differing outputs (must be 0) and the best idle wall seconds of the
JSON command (start-up, compare, diagnose and its replays; issue 20 asks < 2 s idle), then the
totals.  Exit 1 when any output differs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.realmodels.build import Builder, dumpscope_cmd  # noqa: E402
from bench.realmodels.cases import CASES, Case  # noqa: E402
from bench.realmodels.models import ModelUnavailable, cache_root, model_path  # noqa: E402

#: A hog spins at most this long (seconds) even if this script dies.
HOG_S = 600
RUN_TIMEOUT_S = 300

Output = tuple[int, str, str]


def _run(args: Sequence[str]) -> tuple[Output, float]:
    """``dumpscope ARGS``: its output and wall seconds."""
    start = time.perf_counter()
    done = subprocess.run([*dumpscope_cmd(), *args], capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
                          check=False)
    return (done.returncode, done.stdout, done.stderr), time.perf_counter() - start


def _hogs(n: int) -> list[subprocess.Popen[bytes]]:
    spin = f"import time\nend = time.monotonic() + {HOG_S}\nwhile time.monotonic() < end: pass\n"
    return [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(n)]


def _stop(hogs: list[subprocess.Popen[bytes]]) -> None:
    for hog in hogs:
        hog.kill()
        hog.wait()


def _case_runs(args: list[str], runs: int) -> tuple[list[tuple[Output, Output]], list[float]]:
    """``runs`` pairs of (JSON, Markdown) outputs, and the JSON commands' seconds."""
    outputs, seconds = [], []
    for _ in range(runs):
        js, s = _run([*args, "--json"])
        md, _ = _run([*args, "--markdown"])
        outputs.append((js, md))
        seconds.append(s)
    return outputs, seconds


def measure(case: Case, builder: Builder, runs: int, hogs: int) -> tuple[int, int, float] | str:
    """(differing outputs, outputs compared, best idle seconds) of one case, or why it was skipped."""
    try:
        golden, target = case.build(builder, case)
    except ModelUnavailable as exc:
        return f"skipped: {exc}"
    args = ["diagnose", str(golden), str(target), "--model", str(model_path(case.model_flag or case.model))]
    idle, seconds = _case_runs(args, runs)
    spinning = _hogs(hogs)
    try:
        loaded, _ = _case_runs(args, runs)
    finally:
        _stop(spinning)
    reference = idle[0]
    outputs = [o for pair in (*idle, *loaded) for o in pair]
    differing = sum(o != r for pair in (*idle, *loaded) for o, r in zip(pair, reference))
    return differing, len(outputs), min(seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", default=[], help="only these cases")
    parser.add_argument("--runs", type=int, default=3, help="runs idle and runs under the hog (default 3)")
    parser.add_argument("--hogs", type=int, default=2,
                        help="busy subprocesses during the loaded runs (default 2)")
    args = parser.parse_args()
    builder = Builder(cache_root() / "corpus")
    print(f"{'case':30s} {'differ':>6s} {'of':>4s} {'idle s':>7s}")
    differ = total = 0
    slowest = 0.0
    for case in CASES:
        if args.case and case.name not in args.case:
            continue
        result = measure(case, builder, args.runs, args.hogs)
        if isinstance(result, str):
            print(f"{case.name:30s} {result}")
            continue
        d, n, s = result
        differ, total, slowest = differ + d, total + n, max(slowest, s)
        print(f"{case.name:30s} {d:6d} {n:4d} {s:7.2f}", flush=True)
    print(f"differing outputs: {differ} of {total}; slowest idle diagnose command: {slowest:.2f} s")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
