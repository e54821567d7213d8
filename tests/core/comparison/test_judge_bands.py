"""Judging builds the reasons of the bands its rows have only: the verdicts and messages are those of
judging with every band's reasons, for any mix of bands, metric values and thresholds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dumpscope.core import compare
from dumpscope.core.comparison import judge
from dumpscope.core.comparison.judge import Thresholds

ROWS = 12
METRICS = ("cosine_similarity", "relative_l2_error", "max_absolute_error", "max_relative_error")


@pytest.fixture(scope="module")
def computed(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    """A comparison's frame of ``ROWS`` computed rows (the columns judging reads, as compare fills them)."""
    root = tmp_path_factory.mktemp("judge-bands")
    rng = np.random.default_rng(5)
    for side in ("g", "t"):
        (root / side).mkdir()
    for i in range(ROWS):
        a = rng.standard_normal(64).astype(np.float32)
        np.save(root / "g" / f"x{i:02d}.npy", a)
        np.save(
            root / "t" / f"x{i:02d}.npy", a + rng.standard_normal(64).astype(np.float32) * 10.0 ** -(i % 6)
        )
    return compare(Path(root / "g"), Path(root / "t"), workers=1).frame


def _all_bands(thresholds: Thresholds, bands: object = None) -> tuple[list[pl.Expr], list[pl.Expr]]:
    return REAL_REASONS(thresholds, None)


REAL_REASONS = judge._reasons


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), preset=st.sampled_from(sorted(judge.PRESETS)))
def test_judged_as_with_every_band(
    computed: pl.DataFrame, monkeypatch: pytest.MonkeyPatch, data: st.DataObject, preset: str
) -> None:
    th = Thresholds.from_preset(preset)
    names = [*th.bands, "no-such-band", None]
    bands = data.draw(st.lists(st.sampled_from(names), min_size=ROWS, max_size=ROWS))
    changes = [pl.Series("band", bands, dtype=pl.String)]
    for metric in METRICS:
        values = data.draw(
            st.lists(st.none() | st.floats(0.0, 2.0, allow_nan=False), min_size=ROWS, max_size=ROWS)
        )
        changes.append(pl.Series(metric, values, dtype=pl.Float64))
    frame = computed.with_columns(changes, health=pl.lit("pending"), message=pl.lit(None, pl.String))
    ours = judge.judge(frame, th)
    with monkeypatch.context() as patch:
        patch.setattr(judge, "_reasons", _all_bands)
        every = judge.judge(frame, th)
    assert ours.equals(every)
    assert set(ours["health"]) <= {"ok", "warn", "fail"}
