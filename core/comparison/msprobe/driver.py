"""Compare two msprobe dump trees (NPU vs bench) step by step and rank by rank.

:func:`compare_msprobe` is the one integration point for the CLI / TUI::

    from dumpscope.core.comparison.msprobe.driver import compare_msprobe
    report = compare_msprobe(npu_path, bench_path, steps=[1], ranks=[0], mapping_path=None)
    report.first                 # the RankResult that diverges first, or None
    report.summary()             # a small Polars frame: one row per step/rank
    for r in report.results:     # never merged: one frame per step/rank
        r.frame, r.divergence, r.pairing, r.problems

With several steps or ranks present and none chosen, each (step, rank) is compared
separately and the report says which diverges first (the earliest step; within it the
rank whose first divergence comes earliest in call order).  Ranks are paired by their
directory name (``rank3`` with ``rank3``); a step/rank present on one side only, or
unreadable, becomes one result with an ``error`` message.
"""

from __future__ import annotations

import gc
import time
from concurrent.futures import ProcessPoolExecutor
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
from threadpoolctl import threadpool_limits

from dumpscope.core.comparison.msprobe.pairing import Mapping, Pairing, load_mapping, pair_ranks
from dumpscope.core.comparison.msprobe.statistics import (Divergence, compare_statistics, compare_statistics_many,
                                                   first_divergence)
from dumpscope.core.dumps import DumpError, DumpProblem
from dumpscope.core.formats.msprobe import MsprobeRank, discover, read_rank


@dataclass
class RankResult:
    """The comparison of one (step, rank)."""

    step: int | None
    rank: str
    frame: pl.DataFrame | None = None
    pairing: Pairing | None = None
    divergence: Divergence | None = None
    problems: list[DumpProblem] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0

    @property
    def label(self) -> str:
        return f"step{'' if self.step is None else self.step}/{self.rank}"


@dataclass
class MsprobeReport:
    results: list[RankResult]

    @property
    def first(self) -> RankResult | None:
        """The step/rank that diverges first: earliest step, then earliest call."""
        bad = [r for r in self.results if r.divergence is not None]
        return min(bad, key=lambda r: (r.step if r.step is not None else -1, r.divergence.order), default=None)  # type: ignore[union-attr]

    def summary(self) -> pl.DataFrame:
        rows = [{"step": r.step, "rank": r.rank, "entries": r.frame.height if r.frame is not None else 0,
                 "errors": int((r.frame["Result"] == "error").sum()) if r.frame is not None else 0,
                 "first divergence": r.divergence.describe() if r.divergence else None,
                 "problem": r.error, "seconds": r.seconds} for r in self.results]
        return pl.DataFrame(rows, schema={"step": pl.Int64, "rank": pl.Utf8, "entries": pl.Int64, "errors": pl.Int64,
                                          "first divergence": pl.Utf8, "problem": pl.Utf8, "seconds": pl.Float64})


def _select(found: list[tuple[int | None, str, Path]], steps: Sequence[int] | None,
            ranks: Sequence[int | str] | None) -> dict[tuple[int | None, str], Path]:
    wanted_ranks = {r if isinstance(r, str) else f"rank{r}" for r in ranks or ()}
    return {(s, r): p for s, r, p in found
            if (not steps or s in steps) and (not wanted_ranks or r in wanted_ranks)}


def compare_msprobe(npu_path: str | Path, bench_path: str | Path, *, steps: Sequence[int] | None = None,
                    ranks: Sequence[int | str] | None = None, mapping: Mapping | None = None,
                    mapping_path: str | Path | None = None, tensors: bool | None = None,
                    workers: int = 1) -> MsprobeReport:
    """Compare every selected (step, rank) of ``npu_path`` against ``bench_path`` separately.

    ``tensors``: compute per-tensor metrics where ``.npy``/``.pt`` files exist (default:
    when the NPU dump's task is ``tensor``).  ``workers`` > 1 compares that many step/rank
    pairs at once in worker processes (each owns whole ranks: no GIL contention).  Raises
    DumpError only when one side holds no msprobe dump at all or nothing matches the
    selection."""
    if mapping is None and mapping_path is not None:
        mapping = load_mapping(mapping_path)
    jobs = [(k, n, b, mapping, tensors) for k, n, b in _selected_pairs(npu_path, bench_path, steps, ranks)]
    if workers > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
            return MsprobeReport(list(pool.map(_compare_job, jobs)))
    with _gc_paused():
        return MsprobeReport([r for k in range(0, len(jobs), BATCH) for r in _compare_batch(jobs[k:k + BATCH])])


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Reading a dump allocates millions of small acyclic objects (JSON trees, records), each
    allocation burst triggering the cyclic collector for nothing (~20 % of the time):
    pause it while comparing, then restore the caller's setting."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


#: Step/rank pairs whose statistics are ruled in one Polars pass (bounded: each rank's records stay in memory).
BATCH = 16


@dataclass
class _Prepared:
    result: RankResult
    npu: MsprobeRank | None = None
    tensors: bool = False
    started: float = 0.0


def _prepare(key: tuple[int | None, str], npu: Path | None, bench: Path | None,
             mapping: Mapping | None, tensors: bool | None) -> _Prepared:
    """Read and pair one step/rank; a missing side or unreadable dump is the result's error."""
    result, start = RankResult(*key), time.perf_counter()
    if npu is None or bench is None:
        result.error = f"{result.label} present on the {'bench' if npu is None else 'NPU'} side only"
        return _Prepared(result)
    try:
        npu_rank, bench_rank = read_rank(npu), read_rank(bench)
    except DumpError as exc:
        result.error = str(exc)
        return _Prepared(result)
    result.pairing = pair_ranks(npu_rank, bench_rank, mapping)
    result.problems = npu_rank.problems + bench_rank.problems
    use_tensors = npu_rank.task == "tensor" if tensors is None else tensors
    return _Prepared(result, npu_rank, use_tensors, start)


def _compare_batch(jobs: list[tuple]) -> list[RankResult]:
    """Several statistics-mode step/ranks with one columnar pass of msprobe's rules (the
    fixed cost of a Polars query is paid once, not per rank); tensor mode one by one."""
    prepared = [_prepare(*job) for job in jobs]
    stats = [p for p in prepared if p.npu is not None and not p.tensors]
    mapping = jobs[0][3] if jobs else None
    for p, frame in zip(stats, compare_statistics_many([p.result.pairing for p in stats], mapping) if stats else []):
        _conclude(p, frame)
    for p in prepared:
        if p.npu is not None and p.tensors:
            with threadpool_limits(limits=1, user_api="blas"):
                _conclude(p, compare_statistics(p.result.pairing, mapping, tensors=True))  # type: ignore[arg-type]
    return [p.result for p in prepared]


def _conclude(p: _Prepared, frame: pl.DataFrame) -> None:
    p.result.frame = frame
    p.result.divergence = first_divergence(frame, p.npu)
    p.result.seconds = time.perf_counter() - p.started


def _selected_pairs(npu_path: str | Path, bench_path: str | Path, steps: Sequence[int] | None,
                    ranks: Sequence[int | str] | None) -> list[tuple[tuple[int | None, str], Path | None, Path | None]]:
    """Every selected (step, rank) with its NPU and bench directories (None on a missing side)."""
    npu_found, bench_found = discover(npu_path), discover(bench_path)
    for path, found in ((npu_path, npu_found), (bench_path, bench_found)):
        if not found:
            raise DumpError(f"{path}: no msprobe dump.json found")
    npu_sel, bench_sel = _select(npu_found, steps, ranks), _select(bench_found, steps, ranks)
    keys = sorted(set(npu_sel) | set(bench_sel), key=lambda k: (-1 if k[0] is None else k[0], k[1]))
    if not keys:
        raise DumpError(f"no step/rank matches --step {list(steps or [])} --rank {list(ranks or [])}")
    return [(k, npu_sel.get(k), bench_sel.get(k)) for k in keys]


def _compare_job(job: tuple) -> RankResult:
    return _compare_one(*job)


def _compare_one(key: tuple[int | None, str], npu: Path | None, bench: Path | None,
                 mapping: Mapping | None, tensors: bool | None) -> RankResult:
    result = RankResult(*key)
    if npu is None or bench is None:
        result.error = f"{result.label} present on the {'bench' if npu is None else 'NPU'} side only"
        return result
    start = time.perf_counter()
    try:
        npu_rank, bench_rank = read_rank(npu), read_rank(bench)
    except DumpError as exc:
        result.error = str(exc)
        return result
    result.pairing = pair_ranks(npu_rank, bench_rank, mapping)
    use_tensors = npu_rank.task == "tensor" if tensors is None else tensors
    with threadpool_limits(limits=1, user_api="blas"):  # threaded BLAS dots are slower here, and workers share cores
        result.frame = compare_statistics(result.pairing, mapping, tensors=use_tensors)
    result.divergence = first_divergence(result.frame, npu_rank)
    result.problems = npu_rank.problems + bench_rank.problems
    result.seconds = time.perf_counter() - start
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dumpscope.core.comparison.msprobe.driver NPU BENCH [--step N] [--rank N]``:
    a plain-text stand-in until ``dumpscope compare`` routes msprobe trees here.
    Exit 1 when a step/rank diverges, 2 on unusable input."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m dumpscope.core.comparison.msprobe.driver", description="compare msprobe dumps per step and rank")
    ap.add_argument("npu")
    ap.add_argument("bench")
    ap.add_argument("--step", type=int, action="append")
    ap.add_argument("--rank", type=int, action="append")
    ap.add_argument("--mapping", help="msprobe data/api/layer mapping YAML")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--csv", type=Path, help="write one CSV per step/rank into this folder")
    a = ap.parse_args(argv)
    try:
        report = compare_msprobe(a.npu, a.bench, steps=a.step, ranks=a.rank, mapping_path=a.mapping, workers=a.workers)
    except (DumpError, ValueError, OSError) as exc:
        print(f"error: {exc}")
        return 2
    for r in report.results:
        print(f"{r.label}: {r.error or (r.divergence.describe() if r.divergence else 'no divergence')}")
        if a.csv is not None and r.frame is not None:
            a.csv.mkdir(parents=True, exist_ok=True)
            r.frame.drop("NPU_Stack_Info").write_csv(a.csv / f"step{r.step}_{r.rank}.csv")
    first = report.first
    print(f"first divergence: {first.label if first else 'none'}")
    return 1 if first else 0


if __name__ == "__main__":
    raise SystemExit(main())
