"""The ``--cache`` index (issue 21): what keying rows by the files' content costs.

    python bench/bench_cache.py [--gb 1.0] [--tiny 20000] [--repeat 3] [--python PY]

Generated in the same run, page cache warm for every contender:
  * ``--gb`` of float32 tensors (both sides together, 16 files a side): BLAKE2b digest speed
    of :class:`~dumpscope.core.comparison.cache.FileDigests` (every file hashed, threads as
    the cache uses them) next to ``dumpscope compare`` itself on the same files;
  * ``compare --cache`` on those files and on ``--tiny`` tiny tensors a side: cold (no
    index), warm reopen (the index there, no file changed: digests reused from the settled
    stat identities) and a reopen after a ``utime`` on every file (content unchanged, ctime
    moved: every file hashed again).
``--python``: the interpreter whose ``dumpscope`` runs the commands (another checkout's
venv gives the "before" figures; there is no digest row then).  Wall seconds are the best of
``--repeat``; CPU seconds are the process's and its workers'.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import best, make_side, timed  # noqa: E402


def big_side(folder: Path, gb_per_side: float, seed: int, noise: float) -> list[Path]:
    folder.mkdir(parents=True)
    count = 16
    n = int(gb_per_side * 1e9 / 4 / count)
    paths = []
    for i in range(count):
        a = np.random.default_rng(i).standard_normal(n, dtype=np.float32)
        if noise:
            a += np.random.default_rng(seed + i).standard_normal(n, dtype=np.float32) * noise
        np.save(folder / f"t{i:02d}.npy", a)
        paths.append(folder / f"t{i:02d}.npy")
    return paths


def cmd(python: str, golden: Path, target: Path, *extra: str) -> list[str]:
    return [
        python,
        "-m",
        "dumpscope",
        "compare",
        str(golden),
        str(target),
        "--format",
        "csv",
        "-o",
        os.devnull if not extra else str(golden.parent / "out.csv"),
        *extra,
    ]


def digest_speed(paths: list[Path], repeat: int) -> tuple[float, float, int]:
    """(best wall s, CPU s of that run, bytes) to hash every file of ``paths`` from scratch."""
    from dumpscope.core.comparison.cache import FileDigests

    runs = []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        digests = FileDigests()
        digests.of(str(p) for p in paths)
        runs.append((time.perf_counter() - wall, time.process_time() - cpu, digests.hashed_bytes))
    return min(runs)


def touch_all(folder: Path) -> None:
    """Move every file's ctime, nothing else (the same bytes, the same mtime)."""
    for p in folder.iterdir():
        if p.suffix == ".npy":
            st = p.stat()
            os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))


def cache_rows(python: str, golden: Path, target: Path, repeat: int) -> list[tuple[str, float, float, float]]:
    """(run, wall s, CPU s, peak RSS MB) of compare --cache: cold, warm, after a utime."""
    for stale in target.glob(".dumpscope-*"):
        stale.unlink()
    cold = timed(cmd(python, golden, target, "--cache"))
    time.sleep(2.5)  # the files and the index settle (see cache.SETTLED_NS)
    timed(cmd(python, golden, target, "--cache"))  # the settled identities are kept
    warm = best(cmd(python, golden, target, "--cache"), repeat)
    rehash = []
    for _ in range(repeat):
        touch_all(golden)
        touch_all(target)
        rehash.append(timed(cmd(python, golden, target, "--cache")))
    return [
        ("cold (no index)", cold[0], cold[2], cold[1]),
        ("warm reopen", warm[0], warm[2], warm[1]),
        (
            "reopen after utime on every file (all hashed again)",
            min(rehash)[0],
            min(r[2] for r in rehash),
            min(rehash)[1],
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--gb", type=float, default=1.0, help="GB of tensor data, both sides together")
    parser.add_argument("--tiny", type=int, default=20_000, help="tiny tensors per side (0: skip)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", default=sys.executable, help="the interpreter whose dumpscope runs")
    args = parser.parse_args()
    mine = args.python == sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-cache-") as tmp:
        root = Path(tmp)
        os.environ["DUMPSCOPE_CONFIG_DIR"] = str(root / "config")
        g, t = root / "g", root / "t"
        paths = big_side(g, args.gb / 2, 0, 0.0) + big_side(t, args.gb / 2, 100, 1e-3)
        size = sum(p.stat().st_size for p in paths) / 1e9
        plain = best(cmd(args.python, g, t), args.repeat)  # also warms the page cache
        print(f"\n{size:.2f} GB of float32 tensors (both sides), load average {os.getloadavg()[0]:.1f}\n")
        print("| run | wall s | s per GB | CPU s | CPU s per GB | peak RSS MB |\n|---|---|---|---|---|---|")
        print(
            f"| compare (no cache) | {plain[0]:.2f} | {plain[0] / size:.2f} | {plain[2]:.2f} | "
            f"{plain[2] / size:.2f} | {plain[1]:.0f} |"
        )
        if mine:
            wall, cpu, hashed = digest_speed(paths, args.repeat)
            print(
                f"| BLAKE2b of every file (FileDigests, threads) | {wall:.2f} | {wall / size:.2f} | "
                f"{cpu:.2f} | {cpu / size:.2f} | |"
            )
            assert hashed == sum(p.stat().st_size for p in paths)
        for label, wall, cpu, mb in cache_rows(args.python, g, t, args.repeat):
            print(
                f"| compare --cache, {label} | {wall:.2f} | {wall / size:.2f} | {cpu:.2f} | "
                f"{cpu / size:.2f} | {mb:.0f} |"
            )
        if args.tiny:
            make_side(root / "sg", args.tiny, 2, 0.0)
            make_side(root / "st", args.tiny, 2, 1e-3)
            plain = best(cmd(args.python, root / "sg", root / "st"), args.repeat)
            load = os.getloadavg()[0]
            print(f"\n{args.tiny} tiny tensors per side (16-256 float32), load average {load:.1f}\n")
            print("| run | wall s | CPU s | peak RSS MB |\n|---|---|---|---|")
            print(f"| compare (no cache) | {plain[0]:.2f} | {plain[2]:.2f} | {plain[1]:.0f} |")
            for label, wall, cpu, mb in cache_rows(args.python, root / "sg", root / "st", args.repeat):
                print(f"| compare --cache, {label} | {wall:.2f} | {cpu:.2f} | {mb:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
