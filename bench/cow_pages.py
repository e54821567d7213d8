"""Which pages a compare's first task copies on write, in the parent and in its forked worker.

    python bench/cow_pages.py GOLDEN TARGET [--workers 2]

Runs ``compare(GOLDEN, TARGET, workers=N)`` twice in this process (the first warms imports and
caches), and around the first task of each process in the second run reads ``/proc/self/pagemap``
for every private writable mapping: a page present and shared with the other process before the
task (not "exclusively mapped", bit 56) and its own after it was written during the task: copied
on write, or (the second writer of a page the first one copied) taken back with a cheaper fault.
Each such page is counted by its mapping (``[anon]``: CPython's object arenas and numpy's small
buffers; ``[heap]``: malloc's; a library: its data) and by the kind of Python object found on it
(the most frequent one of a map taken before the run: every object the collector tracks, each
function's code object and the strings that key a dict).  The task's own minor faults are printed
beside them (they also count the fresh pages of its scratch buffers).  Linux only; nothing is
changed in what is computed.
"""

from __future__ import annotations

import argparse
import collections
import gc
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the command does (tui/cli/main.one_blas_thread)

import numpy as np  # noqa: E402 - after the BLAS setting

Region = tuple[int, int, str]


def writable_regions() -> list[Region]:
    """This process's private writable mappings: (start, end, name)."""
    out = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            parts = line.split()
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            if "w" in parts[1] and parts[1][3] == "p":
                out.append((lo, hi, parts[5] if len(parts) > 5 else "[anon]"))
    return out


def page_states() -> dict[Region, np.ndarray]:
    """Each writable region's pagemap entries (one uint64 a page)."""
    states = {}
    with open("/proc/self/pagemap", "rb") as pagemap:
        for region in writable_regions():
            lo, hi, _name = region
            pagemap.seek(lo // 4096 * 8)
            states[region] = np.frombuffer(pagemap.read((hi - lo) // 4096 * 8), dtype=np.uint64)
    return states


def object_kinds() -> dict[int, str]:
    """Page number -> the most frequent kind of Python object on it."""
    kinds: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for obj in gc.get_objects():
        kinds[id(obj) >> 12][type(obj).__name__] += 1
        code = getattr(obj, "__code__", None) if type(obj).__name__ == "function" else None
        if code is not None:
            kinds[id(code) >> 12]["code"] += 1
        if isinstance(obj, dict):
            for key in obj:
                if type(key) is str:
                    kinds[id(key) >> 12]["str (a dict key)"] += 1
    return {page: counter.most_common(1)[0][0] for page, counter in kinds.items()}


def taken(before: dict[Region, np.ndarray], after: dict[Region, np.ndarray], kinds: dict[int, str]) -> str:
    """The pages shared before and this process's own after, by mapping and by object kind."""
    by_region: collections.Counter[str] = collections.Counter()
    by_kind: collections.Counter[str] = collections.Counter()
    for region, now in after.items():
        was = before.get(region)
        if was is None or len(was) != len(now):
            continue
        shared_then = ((was >> np.uint64(63)) & np.uint64(1)) & ~((was >> np.uint64(56)) & np.uint64(1))
        own_now = (now >> np.uint64(56)) & np.uint64(1)
        pages = np.nonzero(shared_then & own_now)[0]
        if not len(pages):
            continue
        by_region[os.path.basename(region[2])] += len(pages)
        for index in pages:
            by_kind[kinds.get((region[0] >> 12) + int(index), "(no object the map knows)")] += 1
    total = sum(by_region.values())
    regions = ", ".join(f"{name} {n}" for name, n in by_region.most_common(6))
    objects = ", ".join(f"{name} {n}" for name, n in by_kind.most_common(8))
    return f"{total} pages: by mapping {regions}\n    by object on the page: {objects}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("golden")
    ap.add_argument("target")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    from dumpscope.core.comparison import execution
    from dumpscope.core.comparison.pipeline import compare

    compare(args.golden, args.target, workers=args.workers)  # warm
    kinds = object_kinds()
    parent, seen = os.getpid(), set()
    run_part = execution._run_part

    def first_task_watched(compute: execution.RowFn, part: list[int]) -> execution.TaskResult:
        if os.getpid() in seen:
            return run_part(compute, part)
        seen.add(os.getpid())
        before = page_states()
        result = run_part(compute, part)
        who = "parent" if os.getpid() == parent else f"worker {os.getpid()}"
        said = taken(before, page_states(), kinds)
        print(f"{who}, first task ({len(part)} rows, {result.faults} minor faults): {said}", file=sys.stderr)
        return result

    execution._run_part = first_task_watched  # type: ignore[assignment]  # (forked workers inherit it)
    compare(args.golden, args.target, workers=args.workers)


if __name__ == "__main__":
    main()
