"""Triage first: cheap statistics for every tensor, full tensors for the suspect region first.

A tensor-mode dump can hold hundreds of GB; the user wants the first divergence, not the
whole table, first.  This module orders the work, never the result:

1. **Cheap statistics for every tensor.**  For ``.npy`` tensors (any reader whose loader
   is an :class:`~dumpscope.core.formats.npyfile.NpyLoader`) a strided sample:
   :data:`BLOCKS` blocks of :data:`BLOCK` elements at the same positions of both files,
   a few KB read per tensor whatever its size (:func:`sample_score`: the sample's relative
   distance).  Other readers have no cheap statistic: their rows keep their place.  For
   msprobe tensor mode, dump.json's statistics are the cheap statistics (see
   :mod:`.msprobe.triage`).
2. **The suspect region first.**  :func:`suspects_first`: the rows around the first row
   (in topological order) whose sample differs by more than :data:`SUSPECT` (the
   first-divergence region), then every other row, worst sample first.
3. **The rest in the background.**  :func:`compare_triaged` is :func:`.pipeline.compare_stream`
   with that order: the frames it yields fill the suspect rows first, and the final frame
   is identical to a plain compare (each row is computed by the same function; only the
   moment it is computed differs).

Sampling reads a few KB per tensor where the full compare reads all of it; for dumps of
tiny tensors (under :data:`MIN_BYTES` a pair) there is nothing to gain and those rows are
not sampled.  Many samples (:data:`PARALLEL_SAMPLES`) are read by the same workers as the
rows (every core); fewer are read here, faster than starting the workers.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dumpscope.core.comparison.execution import run_rows
from dumpscope.core.comparison.pairing import Pair
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.dumps import Dump
from dumpscope.core.formats.npyfile import NpyLoader

__all__ = [
    "BLOCK",
    "BLOCKS",
    "SUSPECT",
    "compare_triaged",
    "sample_score",
    "scores",
    "suspects_first",
    "worst_first",
]

#: Elements per sampled block, and blocks per tensor: 4,096 elements, spread evenly.
BLOCK = 512
BLOCKS = 8
#: A sample whose relative distance exceeds this is suspect (5 %: msprobe's "bad" NormRelativeErr).
SUSPECT = 0.05
#: Rows before and after the first suspect row that form the first-divergence region.
REGION_BEFORE, REGION_AFTER = 2, 16
#: Pairs smaller than this (both sides) are not sampled: their full compare costs as little.
MIN_BYTES = 256 << 10
#: Fewer pairs to sample than this are sampled in this process (~0.3 ms a pair): starting
#: worker processes would cost more than it saves.
PARALLEL_SAMPLES = 4096


def sample_score(p: Pair) -> float | None:
    """The relative distance ``|t - g| / |g|`` of a strided sample of both sides of ``p``
    (inf for a NaN/Inf only the target has); None when the pair has no cheap sample."""
    loaders = _npy_loaders(p)
    if loaders is None:
        return None
    try:
        return _distance(_sample(loaders[0]), _sample(loaders[1]))
    except (OSError, ValueError, TypeError):
        return None


def _npy_loaders(p: Pair) -> tuple[NpyLoader, NpyLoader] | None:
    """Both sides' ``.npy`` loaders when they can be sampled at the same positions."""
    g = p.golden.loader if p.golden is not None else None
    t = p.target.loader if p.target is not None else None
    if not (isinstance(g, NpyLoader) and isinstance(t, NpyLoader)):
        return None
    return (g, t) if (g.count, g.fortran) == (t.count, t.fortran) else None


def _positions(count: int) -> list[int]:
    """The first element of each sampled block: evenly spread over ``count`` elements."""
    if count <= BLOCK * BLOCKS:
        return [0]
    step = (count - BLOCK) / (BLOCKS - 1)
    return [int(k * step) for k in range(BLOCKS)]


def _sample(loader: NpyLoader) -> np.ndarray:
    """The sampled blocks of one ``.npy`` file, as float64 (one ``pread`` per block)."""
    size = loader.dtype.itemsize
    length = loader.count if loader.count <= BLOCK * BLOCKS else BLOCK
    fd = os.open(Path(loader.path), os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        raw = [
            os.pread(fd, length * size, loader.offset + start * size) for start in _positions(loader.count)
        ]
    finally:
        os.close(fd)
    if any(len(block) != length * size for block in raw):
        raise ValueError("truncated")
    return np.frombuffer(b"".join(raw), dtype=loader.dtype).astype(np.float64)


def _distance(g: np.ndarray, t: np.ndarray) -> float:
    """Relative L2 distance of two samples; a non-finite value only the target has is inf."""
    finite = np.isfinite(g)
    if not np.isfinite(t[finite]).all():
        return math.inf
    both = finite & np.isfinite(t)
    norm, diff = _l2(g[both]), _l2(t[both] - g[both])
    if norm == 0.0:
        return 0.0 if diff == 0.0 else math.inf
    return diff / norm


def _l2(x: np.ndarray) -> float:
    """The L2 norm without BLAS (a threaded BLAS dot is slow on a busy machine)."""
    return math.sqrt(float(np.sum(x * x)))


def scores(pairs: Sequence[Pair], workers: int | None = None) -> list[float | None]:
    """Every pair's :func:`sample_score` (None: not sampled), read on every core."""
    todo = [i for i, p in enumerate(pairs) if _worth_sampling(p)]
    out: list[float | None] = [None] * len(pairs)
    workers = workers if len(todo) >= PARALLEL_SAMPLES else 1
    for task in run_rows(
        lambda i: {"score": sample_score(pairs[i])}, todo, [BLOCK * BLOCKS] * len(todo), workers
    ):
        for i, row in task:
            score = row["score"]
            out[i] = score if isinstance(score, float) else None  # sample_score: float or None
    return out


def _worth_sampling(p: Pair) -> bool:
    """Both sides present and large enough that a sample is much cheaper than the compare."""
    loaders = [ref.loader for ref in (p.golden, p.target) if ref is not None]
    return len(loaders) == 2 and sum(getattr(x, "nbytes", 0) for x in loaders) >= MIN_BYTES


def suspects_first(values: Sequence[float | None]) -> list[int]:
    """Row indices in the order to compute them: the first-divergence region (the rows
    around the first row whose score exceeds :data:`SUSPECT`), then the others, highest
    score first (unsampled rows last, in their own order)."""
    first = next((i for i, v in enumerate(values) if v is not None and v > SUSPECT), None)
    region = (
        []
        if first is None
        else list(range(max(0, first - REGION_BEFORE), min(len(values), first + REGION_AFTER + 1)))
    )
    chosen = set(region)
    rest = sorted((i for i in range(len(values)) if i not in chosen), key=lambda i: worst_first(values[i]))
    return region + rest


def worst_first(value: float | None) -> tuple[bool, float]:
    """Sort key: sampled rows by descending score (NaN as the worst), then the unsampled."""
    if value is None:
        return True, 0.0
    return False, -math.inf if math.isnan(value) else -value


def triage_order(comparison: Comparison, workers: int | None = None) -> list[int]:
    """The order in which to compute the rows of ``comparison`` (its pairing's rows)."""
    return suspects_first(scores(comparison.pairing.pairs if comparison.pairing else [], workers))


def compare_triaged(golden: str | Path | Dump, target: str | Path | Dump, **options: Any) -> Iterator[Any]:
    """:func:`.pipeline.compare_stream` with the suspect region computed first.

    Takes and yields the same as ``compare_stream`` (every frame has all rows, pending
    ones ``pending``); the frames fill in the suspect rows first, the final frame is
    identical to ``compare``'s."""
    from dumpscope.core.comparison.pipeline import compare_stream

    workers = options.get("workers")
    return compare_stream(golden, target, first=lambda base: triage_order(base, workers), **options)
