"""Issue 20, item 10: origins judged on one scale per node (``classify.classify_frame`` with the
comparison's thresholds).  A row and its inputs in different tolerance bands are judged again in the
strictest of them; rows of one band are judged as before.  Properties over random chains, each band
verdict recomputed here from the preset's limits."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.judge import PRECISION_ORDER, PRESETS, Thresholds, judge
from dumpscope.core.diagnosis.classify import CROSSING, classify_frame
from dumpscope.core.diagnosis.edges import Edges

BANDS = PRESETS["auto"][1]


def _level(band: str, cos: float, red: float) -> int:
    """The level of a row's metrics in ``band``, from the preset's limits (no floor: int bands)."""
    c, r = BANDS[band]["cosine_similarity"], BANDS[band]["relative_euclidean_distance"]
    if cos < c.fail or red > r.fail:
        return 2
    return 1 if cos < c.warn or red > r.warn else 0


def _chain(bands: list[str], reds: list[float]) -> tuple[pl.DataFrame, Edges]:
    n = len(bands)
    frame = pl.DataFrame(
        {
            "name": [f"t{i}" for i in range(n)],
            "op_type": ["Conv"] * n,
            "kind": ["activation"] * n,
            "status": ["computed"] * n,
            "health": ["ok"] * n,
            "message": [""] * n,
            "hard_fail": [""] * n,
            "hard_warn": [""] * n,
            "notes": [""] * n,
            "band": bands,
            "relative_euclidean_distance": reds,
            "cosine_similarity": [1.0 - r * r / 2 for r in reds],
            "max_absolute_error": [1.0] * n,
            "slice_relative_distance": reds,
            "nonfinite_mismatch": [0] * n,
        }
    )
    frame = judge(frame, Thresholds())
    edges = pl.DataFrame(
        {"row": list(range(1, n)), "input_row": list(range(n - 1)), "constant": [False] * (n - 1)},
        schema={"row": pl.Int64, "input_row": pl.Int64, "constant": pl.Boolean},
    )
    return frame, Edges(edges, {}, {}, frozenset(range(1, n)), "test")


chains = st.integers(2, 8).flatmap(
    lambda n: st.tuples(
        st.lists(st.sampled_from(["int16", "int8"]), min_size=n, max_size=n),
        st.lists(st.floats(1e-4, 0.5), min_size=n, max_size=n),
    )
)


@settings(max_examples=60, deadline=None)
@given(chains)
def test_each_row_is_judged_with_its_input_in_the_stricter_band(chain: tuple[list[str], list[float]]) -> None:
    bands, reds = chain
    frame, edges = _chain(bands, reds)
    classes = classify_frame(frame, edges, thresholds=Thresholds())
    for i in range(1, len(bands)):
        strict = min(bands[i - 1], bands[i], key=PRECISION_ORDER.index)
        mixed = bands[i - 1] != bands[i]
        assert classes["judged_band"][i] == (strict if mixed else None)
        cos = [1.0 - r * r / 2 for r in reds]
        own, there = _level(bands[i], cos[i], reds[i]), _level(strict, cos[i], reds[i])
        if mixed:
            assert classes["judged_level"][i] == max(own, there)
        level = max(own, there)
        below = _level(strict, cos[i - 1], reds[i - 1])
        if level == 0:
            assert classes["origin"][i] == "clean"
        elif below == 0:  # from a healthy input: introduced where the error at least doubles here
            growth = reds[i] / reds[i - 1]
            if abs(growth - CROSSING) > 1e-9:
                assert classes["origin"][i] == ("introduced" if growth > CROSSING else "inherited")
        else:
            assert classes["worst_input_health"][i] == ("ok", "warn", "fail")[below]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["fp16", "int16", "int8"]), st.lists(st.floats(1e-4, 0.5), min_size=2, max_size=8))
def test_a_run_of_one_band_is_judged_as_before(band: str, reds: list[float]) -> None:
    frame, edges = _chain([band] * len(reds), reds)
    with_scale = classify_frame(frame, edges, thresholds=Thresholds())
    assert with_scale.equals(classify_frame(frame, edges))
    assert with_scale["judged_band"].null_count() == len(reds)
