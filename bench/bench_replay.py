"""Benchmark the replay of suspect nodes: ``diagnose`` with and without it, per corpus case.

    python bench/bench_replay.py [--case NAME ...] [--repeat 3]

For every real-model corpus case (``bench/realmodels``; the wheels are downloaded once and
cached, dumps built by ``dumpscope dump``) the comparison is made once, then ``diagnose``
runs with ``replay=False`` (the baseline, same process, same comparison) and with the
replay; prints the best of ``--repeat`` runs of each, the replays' own seconds and their
count, and the ratio.  Issue 10's budget is 2 s per case for a whole ``dumpscope
diagnose`` command; the CLI's start-up and compare come on top of the figures here
(``python -m bench.realmodels`` prints the whole command's time per case).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.realmodels.build import Builder  # noqa: E402
from bench.realmodels.cases import CASES  # noqa: E402
from bench.realmodels.models import ModelUnavailable, cache_root, model_path  # noqa: E402
from dumpscope.core.comparison.pipeline import compare  # noqa: E402
from dumpscope.core.diagnosis.engine import Diagnosis, diagnose  # noqa: E402


def _best(cmp: object, replay: bool, repeat: int) -> tuple[float, Diagnosis]:
    best, diag = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        diag = diagnose(cmp, replay=replay)  # type: ignore[arg-type]
        best = min(best, time.perf_counter() - start)
    assert diag is not None
    return best, diag


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", default=[], help="only these cases")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    builder = Builder(cache_root() / "corpus")
    print(f"{'case':30s} {'no replay':>10s} {'replay':>8s} {'replays':>8s} {'n':>3s} {'ratio':>6s}")
    worst = 0.0
    for case in CASES:
        if case.expect == "mismatch" or (args.case and case.name not in args.case):
            continue
        try:
            golden, target = case.build(builder, case)
        except ModelUnavailable as exc:
            print(f"{case.name:30s} skipped: {exc}")
            continue
        cmp = compare(golden, target, model=model_path(case.model_flag or case.model))
        base, _ = _best(cmp, False, args.repeat)
        with_replay, diag = _best(cmp, True, args.repeat)
        spent = sum(r.seconds for r in diag.replays.values())
        worst = max(worst, with_replay)
        print(
            f"{case.name:30s} {base:10.3f} {with_replay:8.3f} {spent:8.3f} {len(diag.replays):3d} "
            f"{with_replay / base if base else float('nan'):6.2f}"
        )
    print(f"slowest diagnose with replay: {worst:.3f} s (in process, after the comparison)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
