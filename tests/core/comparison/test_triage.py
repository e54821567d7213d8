"""Triage first: the suspect region's rows are computed first; the final frame is compare's."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from dumpscope.core import compare
from dumpscope.core.comparison import triage
from dumpscope.core.comparison.pairing import pair_dumps
from dumpscope.core.formats import open_dump

LAYERS, BAD = 60, 37


def _diverging_pair(root: Path) -> tuple[Path, Path]:
    """60 layers of 100k float32 vs float16; from layer 37 on the target drifts by 30 %."""
    rng = np.random.default_rng(5)
    g, t = root / "golden", root / "target"
    g.mkdir()
    t.mkdir()
    for i in range(LAYERS):
        a = rng.standard_normal(100_000, dtype=np.float32)
        noise = 0.3 if i >= BAD else 1e-3
        np.save(g / f"layer_{i:03d}.npy", a)
        np.save(
            t / f"layer_{i:03d}.npy",
            (a + rng.standard_normal(a.size, dtype=np.float32) * noise).astype(np.float16),
        )
    return g, t


@pytest.fixture()
def pair(tmp_path: Path) -> tuple[Path, Path]:
    return _diverging_pair(tmp_path)


def test_the_suspect_region_is_computed_first_and_the_final_frame_is_compares(
    pair: tuple[Path, Path],
) -> None:
    steps = list(triage.compare_triaged(*pair, workers=1, batch=1, interval=0.0))
    seen: list[str] = []  # row names in the order they were computed
    for step in steps:
        frame = step.comparison.frame
        seen += [n for n in frame.filter(pl.col("health") != "pending")["name"].to_list() if n not in seen]
    region = [f"layer_{i:03d}" for i in range(BAD - triage.REGION_BEFORE, BAD + triage.REGION_AFTER + 1)]
    assert seen[: len(region)] == region  # the first divergence and its neighbours, first
    assert len(seen) == LAYERS
    assert_frame_equal(steps[-1].comparison.frame, compare(*pair, workers=1).frame)


def test_triage_with_forked_workers_gives_compares_frame(pair: tuple[Path, Path]) -> None:
    final = list(triage.compare_triaged(*pair, workers=2, batch=2, final_only=True))[-1].comparison.frame
    assert_frame_equal(final, compare(*pair, workers=1).frame)


def test_sample_scores_find_the_drift_and_read_only_a_sample(pair: tuple[Path, Path]) -> None:
    pairs = pair_dumps(open_dump(pair[0]), open_dump(pair[1])).pairs
    scores = triage.scores(pairs, workers=1)
    assert all(s is not None and s < 0.01 for s in scores[:BAD])
    assert all(s is not None and 0.2 < s < 0.4 for s in scores[BAD:])  # the sample sees the 30 % drift


def test_small_pairs_and_other_readers_are_not_sampled(tmp_path: Path) -> None:
    g, t = tmp_path / "g", tmp_path / "t"
    g.mkdir()
    t.mkdir()
    np.save(g / "tiny.npy", np.ones(10, np.float32))
    np.save(t / "tiny.npy", np.ones(10, np.float32) * 2)
    pairs = pair_dumps(open_dump(g), open_dump(t)).pairs
    assert triage.scores(pairs, workers=1) == [None]
    assert triage.sample_score(pairs[0]) == pytest.approx(1.0)  # sampled on request: the whole tensor


def _reference(g: np.ndarray, t: np.ndarray) -> float:
    """Float64 reference of the sample distance, written independently with math.fsum."""
    pairs = [(float(a), float(b)) for a, b in zip(g, t, strict=False)]
    if any(math.isfinite(a) and not math.isfinite(b) for a, b in pairs):
        return math.inf
    kept = [(a, b) for a, b in pairs if math.isfinite(a) and math.isfinite(b)]
    norm = math.sqrt(math.fsum(a * a for a, _b in kept))
    diff = math.sqrt(math.fsum((b - a) ** 2 for a, b in kept))
    return (0.0 if diff == 0 else math.inf) if norm == 0 else diff / norm


finite = st.floats(-1e6, 1e6, allow_nan=False, width=32)
special = st.sampled_from([math.nan, math.inf, -math.inf, 0.0])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.one_of(finite, special), st.one_of(finite, special)), min_size=1, max_size=64))
def test_distance_matches_a_float64_reference(values: list[tuple[float, float]]) -> None:
    g = np.array([a for a, _b in values], dtype=np.float64)
    t = np.array([b for _a, b in values], dtype=np.float64)
    assert triage._distance(g, t) == pytest.approx(_reference(g, t), rel=1e-9, abs=1e-12)


@given(st.lists(st.one_of(st.none(), st.floats(0, 10), st.just(math.nan)), max_size=80))
def test_the_order_is_a_permutation_that_starts_with_the_first_suspect_region(
    values: list[float | None],
) -> None:
    order = triage.suspects_first(values)
    assert sorted(order) == list(range(len(values)))
    first = next((i for i, v in enumerate(values) if v is not None and v > triage.SUSPECT), None)
    if first is not None:
        assert first in order[: triage.REGION_BEFORE + 1]
        assert order[0] == max(0, first - triage.REGION_BEFORE)
