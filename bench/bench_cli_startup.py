"""Start-up cost of the CLI: ``dumpscope explain "…"`` end to end against ``python -c pass``.

    .venv/bin/python bench/bench_cli_startup.py [--runs 15] [--compare-with PYTHONPATH_DIR]

Every case is a fresh interpreter; the cases are run interleaved (one of each per round), so
a busy machine slows them alike, and the best and the median of ``--runs`` rounds are printed
with the difference to ``python -c pass`` (the bare interpreter of the same venv).  On a
loaded machine read the best-of-N: load only ever adds time.  Also times ``dumpscope --help``
and ``dumpscope compare --help`` (the lazy parsers: only the chosen command's arguments are
built).  ``--compare-with DIR`` also times ``explain`` with another dumpscope tree put first on
``PYTHONPATH`` (e.g. a checkout of main, to measure a change in the same run).

The packages' bytecode is compiled first (``compileall``, into the git-ignored ``__pycache__``),
as ``pip install`` does and as any second run would: with ``PYTHONDONTWRITEBYTECODE=1`` in the
environment, every run would otherwise compile dumpscope's sources again (~20-30 ms here), a
cost no installed copy pays.
Target (issue 12): ``explain`` under 60 ms on this machine.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import resource
import statistics
import subprocess
import sys
import time

MESSAGE = "Segmentation fault"
ENTRY = "import sys; from dumpscope.tui.cli.main import main; sys.exit(main())"


def _ms(argv: list[str], env: dict[str, str] | None) -> tuple[float, float]:
    """Wall and CPU (user + system) milliseconds of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def _cases(other: str | None) -> dict[str, tuple[list[str], dict[str, str] | None]]:
    entry = [sys.executable, "-c", ENTRY]
    cases: dict[str, tuple[list[str], dict[str, str] | None]] = {
        "python -c pass": ([sys.executable, "-c", "pass"], None),
        "dumpscope --help": ([*entry, "--help"], None),
        "dumpscope compare --help": ([*entry, "compare", "--help"], None),
        f"dumpscope explain {MESSAGE!r}": ([*entry, "explain", MESSAGE], None),
    }
    if other:
        env = {**os.environ, "PYTHONPATH": other}
        cases[f"  same, dumpscope from {other}"] = ([*entry, "explain", MESSAGE], env)
    return cases


def compile_bytecode(extra: str | None = None) -> None:
    """Write the bytecode of this dumpscope (and of the ``--compare-with`` tree)."""
    for folder, depth in [*_package_folders(), *([(extra, 10)] if extra else [])]:
        compileall.compile_dir(folder, maxlevels=depth, quiet=1)


def _package_folders() -> list[tuple[str, int]]:
    """``(folder, depth)`` of the installed packages: the root package's own files only (an
    editable install maps it to the repository root), ``core`` and ``tui`` whole."""
    folders = [(path, 0) for path in _locations("dumpscope")]
    return folders + [(path, 10) for sub in ("dumpscope.core", "dumpscope.tui") for path in _locations(sub)]


def _locations(package: str) -> list[str]:
    spec = importlib.util.find_spec(package)
    return list(spec.submodule_search_locations or []) if spec else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--compare-with", metavar="DIR", help="another dumpscope tree (first on PYTHONPATH)")
    args = parser.parse_args()
    compile_bytecode(args.compare_with)
    cases = _cases(args.compare_with)
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in cases}
    for _ in range(args.runs):
        for label, (argv, env) in cases.items():
            times[label].append(_ms(argv, env))
    _report(times, args.runs)


def _report(times: dict[str, list[tuple[float, float]]], runs: int) -> None:
    """Best and median wall time, and best CPU time, each with its difference to ``python -c pass``."""
    base = _figures(times["python -c pass"])
    print(
        f"{'':44s} {'wall best':>10s} {'+pass':>7s}  {'median':>8s} {'+pass':>7s}  {'CPU best':>9s} "
        f"{'+pass':>7s}"
    )
    for label, values in times.items():
        fig = _figures(values)
        cells = "  ".join(f"{v:7.1f}ms {v - b:+7.1f}" for v, b in zip(fig, base, strict=False))
        print(f"{label:44s} {cells}")
    print(f"({runs} interleaved rounds; load only ever adds time, so read the best-of-N)")


def _figures(values: list[tuple[float, float]]) -> tuple[float, float, float]:
    walls, cpus = [w for w, _ in values], [c for _, c in values]
    return min(walls), statistics.median(walls), min(cpus)


if __name__ == "__main__":
    main()
