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

import argparse
import gc
import os
import stat
import time
from collections.abc import Iterator, Sequence, Set
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import polars as pl
from threadpoolctl import threadpool_limits

from dumpscope.core.comparison.msprobe.pairing import MODES, Mapping, Pairing, load_mapping, pair_ranks
from dumpscope.core.comparison.msprobe.statistics import (
    Divergence,
    compare_statistics_many,
    failing_rows,
    first_divergence,
)
from dumpscope.core.comparison.msprobe.triage import tensor_mode_triaged
from dumpscope.core.dumps import DumpError, DumpProblem
from dumpscope.core.formats.msprobe import MsprobeRank, discover, read_rank, skipped_key, step_rank_label
from dumpscope.core.formats.safe_fs import regular_file_problem


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
        return step_rank_label(self.step, self.rank)

    @property
    def failing(self) -> int:
        """Rows that fail by the app's rule (msprobe's errors and rows beyond the divergence bound)."""
        return 0 if self.frame is None else failing_rows(self.frame)

    @property
    def pairing_counts(self) -> dict[str, int]:
        """Pairs by how they were made (``exact``, ``aligned``, ``mapping``) and one-sided calls."""
        return self.pairing.counts() if self.pairing is not None else {}


@dataclass
class MsprobeReport:
    results: list[RankResult]

    @property
    def first(self) -> RankResult | None:
        """The step/rank that diverges first: earliest step, then earliest call."""
        bad = [
            (r.step if r.step is not None else -1, r.divergence.order, i)
            for i, r in enumerate(self.results)
            if r.divergence is not None
        ]
        return self.results[min(bad)[2]] if bad else None

    def summary(self) -> pl.DataFrame:
        """One row per step/rank: rows, failing rows (:func:`.statistics.failing_rows`, the
        app's rule), re-aligned pairs and one-sided calls, first divergence, problem."""
        rows = [
            {
                "step": r.step,
                "rank": r.rank,
                "entries": r.frame.height if r.frame is not None else 0,
                "errors": r.failing,
                **{k: r.pairing_counts.get(k, 0) for k in _COUNTED},
                "first divergence": r.divergence.describe() if r.divergence else None,
                "problem": r.error,
                "seconds": r.seconds,
            }
            for r in self.results
        ]
        return pl.DataFrame(
            rows,
            schema={
                "step": pl.Int64,
                "rank": pl.Utf8,
                "entries": pl.Int64,
                "errors": pl.Int64,
                **dict.fromkeys(_COUNTED, pl.Int64),
                "first divergence": pl.Utf8,
                "problem": pl.Utf8,
                "seconds": pl.Float64,
            },
        )


#: The pairing counts the summary shows (see :meth:`.pairing.Pairing.counts`).
_COUNTED = ("aligned", "npu-only", "bench-only")


def _select(
    found: list[tuple[int | None, str, Path]], steps: Sequence[int] | None, ranks: Sequence[int | str] | None
) -> dict[tuple[int | None, str], Path]:
    """The step/rank directories of ``found`` that the selection keeps (all when it is empty)."""
    wanted_steps, wanted_ranks = set(steps or ()), set(map(_rank_name, ranks or ()))
    return {(s, r): p for s, r, p in found if _kept(s, wanted_steps) and _kept(r, wanted_ranks)}


def _rank_name(rank: int | str) -> str:
    """``3`` -> ``rank3``; a name is kept as it is."""
    return rank if isinstance(rank, str) else f"rank{rank}"


T = TypeVar("T")


def _kept(value: T, wanted: Set[T]) -> bool:
    """An empty selection keeps everything."""
    return not wanted or value in wanted


def compare_msprobe(
    npu_path: str | Path,
    bench_path: str | Path,
    *,
    steps: Sequence[int] | None = None,
    ranks: Sequence[int | str] | None = None,
    mapping: Mapping | None = None,
    mapping_path: str | Path | None = None,
    tensors: bool | None = None,
    workers: int = 1,
    pairing: str = "aligned",
) -> MsprobeReport:
    """Compare every selected (step, rank) of ``npu_path`` against ``bench_path`` separately.

    ``tensors``: compute per-tensor metrics where ``.npy``/``.pt`` files exist (default:
    when the NPU dump's task is ``tensor``).  ``workers`` > 1 compares that many step/rank
    pairs at once in worker processes (each owns whole ranks: no GIL contention); with a
    single step/rank in tensor mode, that many processes open its tensors instead.
    ``pairing``: ``aligned`` (the call lists aligned, see :mod:`.align`) or ``exact``
    (msprobe's equal names).  Raises
    DumpError only when one side holds no msprobe dump at all or nothing matches the
    selection."""
    if mapping is None and mapping_path is not None:
        mapping = _read_mapping(Path(mapping_path))
    if pairing not in MODES:
        raise ValueError(f"unknown pairing {pairing!r}: choose from {', '.join(MODES)}")
    skipped: list[RankResult] = []
    pairs = _selected_pairs(npu_path, bench_path, steps, ranks, skipped)
    jobs = [(k, n, b, mapping, tensors, pairing) for k, n, b in pairs]
    results = _in_workers(jobs, workers) if workers > 1 and len(jobs) > 1 else _in_batches(jobs, workers)
    return MsprobeReport(sorted(results + skipped, key=lambda r: _step_rank_order((r.step, r.rank))))


#: A mapping YAML larger than this is refused (msprobe's own are a few KB to a few MB).
MAX_MAPPING_BYTES = 64 << 20


def _read_mapping(path: Path) -> Mapping:
    """``--mapping``: opened only when it is a regular file of a sane size (a FIFO would block);
    bad or too deeply nested YAML is a ValueError with the reason, never an internal error."""
    import yaml

    try:
        st = os.stat(path)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the mapping ({exc.strerror or exc})") from None
    why = regular_file_problem(path.parent, path) if not stat.S_ISREG(st.st_mode) else None
    if why is not None or st.st_size > MAX_MAPPING_BYTES:
        raise ValueError(f"{path}: {why or f'{st.st_size} bytes, more than a mapping may hold'}; not read")
    try:
        return load_mapping(path)
    except (yaml.YAMLError, RecursionError) as exc:
        text = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).replace("\n", " ")
        raise ValueError(f"{path}: not a mapping YAML ({text[:300]})") from None


def _in_workers(jobs: list[tuple], workers: int) -> list[RankResult]:
    """Each step/rank in a worker process (each owns whole ranks)."""
    with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
        return list(pool.map(_compare_job, jobs))


def _in_batches(jobs: list[tuple], workers: int = 1) -> list[RankResult]:
    """The step/ranks in this process, :data:`BATCH` at a time, the collector paused."""
    with _gc_paused():
        return [r for k in range(0, len(jobs), BATCH) for r in _compare_batch(jobs[k : k + BATCH], workers)]


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


# : Step/rank pairs whose statistics are ruled in one Polars pass (bounded: each rank's records stay in
# memory).
BATCH = 16


@dataclass
class _Prepared:
    result: RankResult
    npu: MsprobeRank | None = None
    tensors: bool = False
    started: float = 0.0


def _prepare(
    key: tuple[int | None, str],
    npu: Path | None,
    bench: Path | None,
    mapping: Mapping | None,
    tensors: bool | None,
    pairing: str = "aligned",
) -> _Prepared:
    """Read and pair one step/rank; a missing side or unreadable dump is the result's error."""
    result, start = RankResult(*key), time.perf_counter()
    if npu is None or bench is None:
        result.error = _one_side_only(result.label, npu)
        return _Prepared(result)
    try:
        npu_rank, bench_rank = read_rank(npu), read_rank(bench)
    except DumpError as exc:
        result.error = str(exc)
        return _Prepared(result)
    result.pairing = pair_ranks(npu_rank, bench_rank, mapping, pairing)
    result.problems = _paired_as(result, bench_rank) + npu_rank.problems + bench_rank.problems
    result.error = _nothing_paired(result.pairing, npu_rank, bench_rank)
    use_tensors = npu_rank.task == "tensor" if tensors is None else tensors
    return _Prepared(result, npu_rank, use_tensors, start)


def _paired_as(result: RankResult, bench: MsprobeRank) -> list[DumpProblem]:
    """A note when the bench dump compared here is not named like the NPU one (see :func:`_aligned`)."""
    bench_label = bench.label
    if bench_label == result.label:
        return []
    return [
        DumpProblem(
            str(bench.path),
            f"bench {bench_label} compared with NPU {result.label} "
            "(one dump or one step on each side, named differently)",
        )
    ]


def _nothing_paired(pairing: Pairing, npu: MsprobeRank, bench: MsprobeRank) -> str | None:
    """Two dumps that share no call are not "without divergence": they are unrelated, or
    named by different frameworks (a mapping pairs them)."""
    if pairing.pairs or not (npu.entries and bench.entries):
        return None
    frameworks = {npu.framework, bench.framework}
    hint = (
        f"{npu.framework} against {bench.framework}: give a layer/api mapping (--mapping)"
        if len(frameworks) > 1
        else "different models or runs? (a --mapping pairs calls named otherwise)"
    )
    return (
        f"nothing paired: none of the {len(npu.entries)} NPU and {len(bench.entries)} bench calls share "
        f"a name - {hint}"
    )


def _one_side_only(label: str, npu: Path | None) -> str:
    """Why a step/rank cannot be compared because a side lacks it."""
    return f"{label} present on the {'bench' if npu is None else 'NPU'} side only"


def _compare_batch(jobs: list[tuple], workers: int = 1) -> list[RankResult]:
    """Several statistics-mode step/ranks with one columnar pass of msprobe's rules (the
    fixed cost of a Polars query is paid once, not per rank); tensor mode one by one."""
    prepared = [_prepare(*job) for job in jobs]
    readable = [p for p in prepared if p.npu is not None]
    mapping = jobs[0][3] if jobs else None
    _statistics_pass([p for p in readable if not p.tensors], mapping)
    _tensor_pass([p for p in readable if p.tensors], mapping, workers)
    return [p.result for p in prepared]


def _statistics_pass(stats: list[_Prepared], mapping: Mapping | None) -> None:
    """Conclude every statistics-mode step/rank of ``stats`` with one pass of the rules."""
    if not stats:
        return
    for p, frame in zip(stats, compare_statistics_many([_pairing(p) for p in stats], mapping), strict=False):
        _conclude(p, frame)


def _tensor_pass(prepared: list[_Prepared], mapping: Mapping | None, workers: int = 1) -> None:
    """Conclude every tensor-mode step/rank, one by one, its tensors opened by ``workers``
    processes (BLAS on one thread: its dots are slower threaded here)."""
    if not prepared:
        return
    with threadpool_limits(limits=1, user_api="blas"):
        for p in prepared:
            *_, last = tensor_mode_triaged(_pairing(p), mapping, p.npu, workers, frames=1)
            _conclude(p, last.frame)


def _pairing(p: _Prepared) -> Pairing:
    """The pairing of a step/rank whose two dumps were read (:func:`_prepare` set it)."""
    assert p.result.pairing is not None, p.result.label
    return p.result.pairing


def _conclude(p: _Prepared, frame: pl.DataFrame) -> None:
    p.result.frame = frame
    p.result.divergence = first_divergence(frame, p.npu)
    p.result.seconds = time.perf_counter() - p.started


def _selected_pairs(
    npu_path: str | Path,
    bench_path: str | Path,
    steps: Sequence[int] | None,
    ranks: Sequence[int | str] | None,
    skipped: list[RankResult] | None = None,
) -> list[tuple[tuple[int | None, str], Path | None, Path | None]]:
    """Every selected (step, rank) with its NPU and bench directories (None on a missing side);
    a step or rank folder that could not be entered (a link, a loop) goes into ``skipped`` as a
    result of its own with the reason, when the selection keeps it."""
    npu_skipped: list[DumpProblem] = []
    bench_skipped: list[DumpProblem] = []
    npu_found, bench_found = discover(npu_path, npu_skipped), discover(bench_path, bench_skipped)
    for path, found, why in ((npu_path, npu_found, npu_skipped), (bench_path, bench_found, bench_skipped)):
        if not found:
            notes = "; ".join(f"{p.path}: {p.message}" for p in why[:3])
            raise DumpError(f"{path}: no msprobe dump.json found" + (f" ({notes})" if notes else ""))
    if skipped is not None:
        skipped += _skipped_results(
            [("NPU", p) for p in npu_skipped] + [("bench", p) for p in bench_skipped], steps, ranks
        )
    npu_sel, bench_sel = _select(npu_found, steps, ranks), _select(bench_found, steps, ranks)
    npu_sel, bench_sel = _aligned(npu_sel, bench_sel)
    keys = sorted(set(npu_sel) | set(bench_sel), key=_step_rank_order)
    if not keys:
        raise DumpError(f"no step/rank matches --step {list(steps or [])} --rank {list(ranks or [])}")
    return [(k, npu_sel.get(k), bench_sel.get(k)) for k in keys]


_Selected = dict[tuple[int | None, str], Path]


def _skipped_results(
    skipped: list[tuple[str, DumpProblem]], steps: Sequence[int] | None, ranks: Sequence[int | str] | None
) -> list[RankResult]:
    """One result with an error per step/rank folder :func:`discover` could not enter (``*``:
    every rank of a step folder), kept when the selection keeps its step and rank."""
    wanted_steps, wanted_ranks = set(steps or ()), set(map(_rank_name, ranks or ()))
    out = []
    for side, problem in skipped:
        step, rank = skipped_key(problem.path)
        if _kept(step, wanted_steps) and (rank == "*" or _kept(rank, wanted_ranks)):
            out.append(RankResult(step, rank, error=f"{side} {problem.path}: {problem.message}"))
    return out


def _aligned(npu: _Selected, bench: _Selected) -> tuple[_Selected, _Selected]:
    """Pair what the user evidently means when the two sides are named differently.

    One dump on each side (two rank directories or two ``dump.json`` files, whatever
    their folder names) is one pair, as msprobe's own compare takes it.  One step on
    each side (``step0`` of the bench against ``step3`` of the NPU) pairs rank by rank.
    The bench side is re-keyed to the NPU's names; :func:`_prepare` says so on the row."""
    if set(npu) == set(bench) or not npu or not bench:
        return npu, bench
    if len(npu) == 1 and len(bench) == 1:
        return npu, {next(iter(npu)): next(iter(bench.values()))}
    npu_steps, bench_steps = {s for s, _ in npu}, {s for s, _ in bench}
    if len(npu_steps) == 1 and len(bench_steps) == 1:
        step = next(iter(npu_steps))
        return npu, {(step, rank): path for (_, rank), path in bench.items()}
    return npu, bench


def _step_rank_order(key: tuple[int | None, str]) -> tuple[int, str]:
    """Steps in order (a dump without steps first), then ranks by name."""
    return (-1 if key[0] is None else key[0]), key[1]


def _compare_job(job: tuple) -> RankResult:
    """One step/rank in a worker process (the same steps as a batch of one)."""
    return _compare_batch([job])[0]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dumpscope.core.comparison.msprobe.driver NPU BENCH [--step N] [--rank N]``:
    a plain-text stand-in until ``dumpscope compare`` routes msprobe trees here.
    Exit 1 when a step/rank diverges, 2 on unusable input."""
    a = _parser().parse_args(argv)
    try:
        report = compare_msprobe(
            a.npu,
            a.bench,
            steps=a.step,
            ranks=a.rank,
            mapping_path=a.mapping,
            workers=a.workers,
            pairing=a.pairing,
        )
    except (DumpError, ValueError, OSError) as exc:
        print(f"error: {exc}")
        return 2
    for r in report.results:
        print(f"{r.label}: {r.error or (r.divergence.describe() if r.divergence else 'no divergence')}")
        _write_csv(r, a.csv)
    first = report.first
    print(f"first divergence: {first.label if first else 'none'}")
    return 1 if first else 0


def _parser() -> argparse.ArgumentParser:
    """The plain-text entry point's arguments."""
    ap = argparse.ArgumentParser(
        prog="python -m dumpscope.core.comparison.msprobe.driver",
        description="compare msprobe dumps per step and rank",
    )
    ap.add_argument("npu")
    ap.add_argument("bench")
    ap.add_argument("--step", type=int, action="append")
    ap.add_argument("--rank", type=int, action="append")
    ap.add_argument("--mapping", help="msprobe data/api/layer mapping YAML")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--pairing", choices=MODES, default="aligned")
    ap.add_argument("--csv", type=Path, help="write one CSV per step/rank into this folder")
    return ap


def _write_csv(r: RankResult, folder: Path | None) -> None:
    """One step/rank's frame as ``step{N}_rank{M}.csv`` in ``folder`` (nothing without one)."""
    if folder is None or r.frame is None:
        return
    from dumpscope.core.report.writers import write_frame

    folder.mkdir(parents=True, exist_ok=True)
    write_frame(r.frame.drop("NPU_Stack_Info"), "csv", folder / f"step{r.step}_{r.rank}.csv")


if __name__ == "__main__":
    raise SystemExit(main())
