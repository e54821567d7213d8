"""Same input, same output: ``dumpscope diagnose`` on every corpus case, idle and under a CPU hog.

    python bench/bench_determinism.py [--case NAME ...] [--runs 3] [--hogs 2]

For every real-model corpus case (``bench/realmodels``; dumps built and cached as there) the
whole command ``dumpscope diagnose GOLDEN TARGET --model M --json`` and its ``--markdown``
twin run ``--runs`` times idle, then ``--runs`` times while ``--hogs`` busy subprocesses spin
(each stops by itself after :data:`HOG_S` seconds and is killed as soon as the case is done).
An output is its exit code, stdout and stderr; every output must equal the case's first idle
one.  Prints per case the differing outputs (must be 0), the best idle wall seconds of the
JSON command (start-up, compare, diagnose and its replays) and of ``diagnose()`` alone in this
process on the case's comparison (replays included; issue 20 asks < 2 s idle), and how many
replays ran, then the totals.  Exit 1 when any output differs.
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
from dumpscope.core.comparison.pipeline import compare  # noqa: E402
from dumpscope.core.diagnosis.engine import diagnose  # noqa: E402
from dumpscope.core.dumps import DumpError  # noqa: E402

#: A hog spins at most this long (seconds) even if this script dies.
HOG_S = 600
RUN_TIMEOUT_S = 300

Output = tuple[int, str, str]


def _run(args: Sequence[str]) -> tuple[Output, float]:
    """``dumpscope ARGS``: its output and wall seconds."""
    start = time.perf_counter()
    done = subprocess.run(
        [*dumpscope_cmd(), *args], capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False
    )
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


def in_process(golden: Path, target: Path, model: Path, runs: int) -> tuple[float, int] | None:
    """The best of ``runs`` seconds of ``diagnose()`` alone (replays included) on the case's comparison,
    and how many replays it ran; None when the comparison is refused (a mismatch case)."""
    try:
        cmp = compare(golden, target, model=model)
    except DumpError:
        return None
    best, replays = float("inf"), 0
    for _ in range(runs):
        start = time.perf_counter()
        replays = len(diagnose(cmp).replays)
        best = min(best, time.perf_counter() - start)
    return best, replays


def measure(case: Case, builder: Builder, runs: int, hogs: int) -> tuple[int, int, float, str] | str:
    """(differing outputs, outputs compared, best idle command seconds, in-process diagnose seconds and
    replays in words) of one case, or why it was skipped."""
    try:
        golden, target = case.build(builder, case)
    except ModelUnavailable as exc:
        return f"skipped: {exc}"
    model = model_path(case.model_flag or case.model)
    alone = in_process(golden, target, model, runs)
    args = ["diagnose", str(golden), str(target), "--model", str(model)]
    idle, seconds = _case_runs(args, runs)
    spinning = _hogs(hogs)
    try:
        loaded, _ = _case_runs(args, runs)
    finally:
        _stop(spinning)
    reference = idle[0]
    outputs = [o for pair in (*idle, *loaded) for o in pair]
    differing = sum(o != r for pair in (*idle, *loaded) for o, r in zip(pair, reference, strict=False))
    diagnosed = "-" if alone is None else f"{alone[0]:7.3f} {alone[1]:3d}"
    return differing, len(outputs), min(seconds), diagnosed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", default=[], help="only these cases")
    parser.add_argument("--runs", type=int, default=3, help="runs idle and runs under the hog (default 3)")
    parser.add_argument(
        "--hogs", type=int, default=2, help="busy subprocesses during the loaded runs (default 2)"
    )
    args = parser.parse_args()
    builder = Builder(cache_root() / "corpus")
    print(f"{'case':30s} {'differ':>6s} {'of':>4s} {'cmd s':>7s} {'diag s':>7s} {'replays':>3s}")
    differ = total = 0
    slowest = 0.0
    for case in CASES:
        if args.case and case.name not in args.case:
            continue
        result = measure(case, builder, args.runs, args.hogs)
        if isinstance(result, str):
            print(f"{case.name:30s} {result}")
            continue
        d, n, s, diagnosed = result
        differ, total, slowest = differ + d, total + n, max(slowest, s)
        print(f"{case.name:30s} {d:6d} {n:4d} {s:7.2f} {diagnosed}", flush=True)
    print(f"differing outputs: {differ} of {total}; slowest idle diagnose command: {slowest:.2f} s")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
