"""Triage first for an msprobe tensor-mode step/rank.

msprobe writes Max/Min/Mean/Norm for every tensor into dump.json even in tensor mode:
those are the cheap statistics, so msprobe's rules and our first-divergence answer are
known before any tensor file is opened.  :func:`tensor_mode_triaged` yields that
statistics frame at once, then fills in our full per-tensor metrics for the suspect
region first (the calls around the first divergence), then the rest, worst record first,
on every core (:func:`.execution.run_rows`).  Its last frame is the frame
``compare_statistics(pairing, mapping, tensors=True)`` returns.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import polars as pl
from threadpoolctl import threadpool_limits

from dumpscope.core.comparison.execution import run_rows
from dumpscope.core.comparison.msprobe.pairing import Mapping, Pairing
from dumpscope.core.comparison.msprobe.statistics import (
    _TENSOR_METRICS,
    Divergence,
    MetricRow,
    _Row,
    _tensor_metrics,
    finish,
    first_divergence,
    records,
    ruled_statistics,
)
from dumpscope.core.comparison.triage import worst_first
from dumpscope.core.formats.msprobe import MsprobeRank

__all__ = ["TriageStep", "suspect_order", "tensor_mode_triaged"]

#: Calls before and after the first divergence whose records form the suspect region.
REGION_BEFORE, REGION_AFTER = 2, 16
#: Frames yielded while filling in, at most (each is a frame build).
FRAMES = 20


@dataclass(frozen=True)
class TriageStep:
    """One state of a triaged step/rank: ``frame`` with ``done`` of ``total`` records'
    tensor metrics computed (the others null), and the first divergence (from the
    statistics: it does not change while the metrics fill in)."""

    frame: pl.DataFrame
    done: int
    total: int
    divergence: Divergence | None


def suspect_order(ruled: pl.DataFrame, divergence: Divergence | None) -> list[int]:
    """Record indices of ``ruled`` in the order to open their tensors: the records of the
    calls from ``REGION_BEFORE`` before the first divergence to ``REGION_AFTER`` after it,
    then every other record, the largest statistics deviation first."""
    region = _region(ruled["Order"].to_list(), divergence)
    chosen, deviation = set(region), ruled["Deviation"].to_list()
    rest = sorted(
        (i for i in range(ruled.height) if i not in chosen), key=lambda i: worst_first(deviation[i])
    )
    return region + rest


def _region(order: list[int | None], divergence: Divergence | None) -> list[int]:
    """The records of the calls around the first divergence (none without one)."""
    if divergence is None:
        return []
    low, high = divergence.order - REGION_BEFORE, divergence.order + REGION_AFTER
    return [i for i, o in enumerate(order) if o is not None and low <= o <= high]


def tensor_mode_triaged(
    pairing: Pairing,
    mapping: Mapping | None = None,
    rank: MsprobeRank | None = None,
    workers: int | None = 1,
    batch: int = 16,
    frames: int = FRAMES,
) -> Iterator[TriageStep]:
    """The tensor-mode comparison of one step/rank, suspect region first (module docstring).

    ``workers``: processes opening the tensors (None: every core); ``batch``: records per
    task; ``frames``: steps yielded while filling in, at most (1: only the last)."""
    filling = _Filling(pairing, mapping or Mapping(), rank)
    yield filling.step(0)
    with threadpool_limits(limits=1, user_api="blas"):  # threaded BLAS dots: 10x slower on a busy box
        yield from filling.fill(workers, batch, frames)


class _Filling:
    """One step/rank's statistics frame whose tensor metrics fill in record by record."""

    def __init__(self, pairing: Pairing, mapping: Mapping, rank: MsprobeRank | None) -> None:
        self.pairing, self.mapping = pairing, mapping
        self.ruled, self.rows = ruled_statistics(pairing, mapping), records(pairing, mapping)
        self.metrics: list[MetricRow] = [dict.fromkeys(_TENSOR_METRICS) for _ in self.rows]
        self.divergence = first_divergence(self.frame(), rank)  # from the statistics alone

    def frame(self) -> pl.DataFrame:
        return finish(self.ruled, self.pairing, self.mapping, self.metrics)

    def step(self, done: int) -> TriageStep:
        return TriageStep(self.frame(), done, len(self.rows), self.divergence)

    def compute(self, i: int) -> MetricRow:
        """Record ``i``'s tensor metrics (in a worker)."""
        return _tensor_metrics(self.rows[i])

    def fill(self, workers: int | None, batch: int, frames: int) -> Iterator[TriageStep]:
        """Open the tensors in :func:`suspect_order`; a step every 1/``frames`` of the records."""
        order = suspect_order(self.ruled, self.divergence)
        done, every = 0, max(1, math.ceil(len(order) / max(1, frames)))
        for task in run_rows(
            self.compute, order, [_record_bytes(self.rows[i]) for i in order], workers, batch
        ):
            for i, values in task:
                self.metrics[i] = values
            done += len(task)
            if done // every > (done - len(task)) // every or done == len(order):
                yield self.step(done)


def _record_bytes(row: _Row) -> int:
    """Both sides' tensor bytes as dump.json declares them (4 bytes an element), to balance tasks."""
    sizes = [math.prod(rec.shape or ()) * 4 for rec in (row.npu, row.bench) if rec is not None]
    return sum(sizes)
