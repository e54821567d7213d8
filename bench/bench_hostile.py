"""Memory and time of dumpscope on big hostile inputs (issue 13), against a tiny input in the same run.

    .venv/bin/python bench/bench_hostile.py [msprobe]     # every case, or those whose label holds the word

Each case runs as a fresh process (peak RSS from ``getrusage`` of the child, CPU seconds
from its user+system time); the tiny case (the same command on a three-tensor dump) is
the baseline measured in the same run.  Bound (issue 13): peak RSS within 4x the input
plus 200 MB; every reader linear (the 20k-op fusion group and 20k same-named-node patch
took 43 s when quadratic).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.fuzz (the corpus builders)

from tests.fuzz import corpus, run  # noqa: E402


def _child(argv: list[str]) -> tuple[int, float]:
    """(peak RSS bytes, CPU seconds) of ``python -m dumpscope argv`` (a fresh interpreter)."""
    code = (
        "import resource, subprocess, sys\n"
        "subprocess.call([sys.executable, '-m', 'dumpscope', *sys.argv[1:]], stdout=subprocess.DEVNULL, "
        "stderr=subprocess.DEVNULL)\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(u.ru_maxrss * 1024, u.ru_utime + u.ru_stime)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[0]), float(out[1])


def _cases(root: Path) -> list[tuple[str, list[str], list[Path]]]:
    many = root / "many"
    golden, target = corpus._many_manifest(many)
    tiny_g, tiny_t = corpus.npy_dir(root / "tiny" / "g"), corpus.npy_dir(root / "tiny" / "t")
    out: list[tuple[str, list[str], list[Path]]] = [
        (
            "compare json, 3 tensors (baseline)",
            ["compare", str(tiny_g), str(tiny_t), "--format", "json"],
            [tiny_g, tiny_t],
        ),
        (
            "compare json, 100k-entry manifest",
            ["compare", str(golden), str(target), "--format", "json"],
            [golden, target],
        ),
        (
            "diagnose json, 100k-entry manifest",
            ["diagnose", str(golden), str(target), "--json"],
            [golden, target],
        ),
    ]
    ms_golden, ms_target = corpus._ms_many(root / "msprobe")  # issue 21: dump.json streamed
    out += [
        (
            f"{cmd} json, msprobe 100k-entry dump.json each side",
            [cmd, str(ms_golden), str(ms_target), flag],
            [ms_golden, ms_target],
        )
        for cmd, flag in (("compare", "--format=json"), ("diagnose", "--json"))
    ]
    builders: list[tuple[str, Callable[[Path], list[str]]]] = [
        ("open, 100k-row result CSV", run._open_csv_100k_rows),
        ("fusion, 100k-op ATC graph", run._fusion_atc(100_000, shared=False)),
        ("fusion, one 20k-op group", run._fusion_atc(20_000, shared=True)),
        ("patch, 20k same-named nodes", run._patch_same_named),
    ]
    for k, (label, build) in enumerate(builders):
        folder = root / f"side{k}"
        (folder / "out").mkdir(parents=True)
        argv = build(folder)
        out.append((label, argv, [folder]))
    return out


def main() -> int:
    only = sys.argv[1] if len(sys.argv) > 1 else ""  # cases whose label holds this (e.g. msprobe)
    with tempfile.TemporaryDirectory(prefix="dumpscope-bench-hostile-") as tmp:
        print("| case | input MB | peak RSS MB | bound MB | CPU s |\n|---|---|---|---|---|")
        worst = 0.0
        for label, argv, inputs in _cases(Path(tmp)):
            if only not in label and "baseline" not in label:
                continue
            size = run.input_bytes(inputs)
            rss, cpu = _child(argv)
            bound = 4 * size + run.RSS_SLACK
            worst = max(worst, rss / bound)
            print(f"| {label} | {size / 2**20:.1f} | {rss / 2**20:.0f} | {bound / 2**20:.0f} | {cpu:.1f} |")
        print(f"\nworst peak RSS / bound: {worst:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
