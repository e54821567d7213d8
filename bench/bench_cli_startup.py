"""Start-up cost of the CLI: ``dumpscope explain "…"`` end to end against ``python -c pass``.

    .venv/bin/python bench/bench_cli_startup.py [--runs 15]

Both are timed in the same run, as fresh interpreters (the median of ``--runs``); the
difference is what dumpscope itself costs.  Also times ``dumpscope --help`` and
``dumpscope compare --help`` (the lazy parsers: only the chosen command's arguments are
built).  Target (issue 9): ``explain`` under 60 ms on this machine.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

MESSAGE = "Segmentation fault"


def _median_ms(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    entry = [sys.executable, "-c", "import sys; from dumpscope.tui.cli.main import main; sys.exit(main())"]
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "dumpscope --help": [*entry, "--help"],
        "dumpscope compare --help": [*entry, "compare", "--help"],
        f"dumpscope explain {MESSAGE!r}": [*entry, "explain", MESSAGE],
    }
    baseline = None
    for label, argv in cases.items():
        ms = _median_ms(argv, runs)
        baseline = ms if baseline is None else baseline
        print(f"{label:40s} {ms:7.1f} ms   (+{ms - baseline:6.1f} ms over python -c pass)")


if __name__ == "__main__":
    main()
