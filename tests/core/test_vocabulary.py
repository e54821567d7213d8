"""The vocabulary: health words, the metric registry and the one number formatter."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core import vocabulary as vocab
from dumpscope.core.comparison.metrics import FLOAT_COLUMNS, PairMetrics


def test_registry_covers_every_float_column_of_the_kernel() -> None:
    kernel_floats = [f.name for f in dataclasses.fields(PairMetrics) if f.type == "float | None"]
    assert list(FLOAT_COLUMNS) == kernel_floats == [m.name for m in vocab.METRICS]
    assert len(vocab.MSACCUCMP_CSV_NAMES) == 9
    assert {m.name for m in vocab.METRICS if m.higher_is_better} == {
        "cosine_similarity",
        "sqnr_db",
        "within_tolerance",
        "slice_cosine",
    }


def test_health_words_are_consistent() -> None:
    assert set(vocab.HEALTH_LABEL) == set(vocab.HEALTHS)
    assert vocab.DIVERGENT < vocab.UNHEALTHY < set(vocab.HEALTHS)


@pytest.mark.parametrize(
    ("value", "width", "want"),
    [
        (1e-30, 5, "1e-30"),
        (65504.0, 5, "65504"),
        (934496.0, 6, "934496"),
        (934496.0, 5, "9.3e5"),
        (1e38, 4, "1e38"),
        (math.inf, 8, "inf"),
        (-math.inf, 8, "-inf"),
        (math.nan, 8, "NaN"),
        (None, 3, "·"),
        (0.999987654321, 8, "0.999988"),
        (123.0, 8, "123"),
        (-1e-30, 3, "###"),
        (0.99999999, 8, "1.000000"),
        (-2.9999999999, 6, "-3.000"),
        (1.0, 8, "1"),
    ],
)
def test_format_number_known_values(value: float | None, width: int, want: str) -> None:
    assert vocab.format_number(value, width) == want


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True), st.integers(1, 24))
def test_format_number_never_exceeds_width(value: float, width: int) -> None:
    text = vocab.format_number(value, width)
    assert 0 < len(text) <= width


@settings(max_examples=500, deadline=None)
@given(st.floats(-1e307, 1e307), st.integers(10, 24))
def test_format_number_keeps_the_value(value: float, width: int) -> None:
    """With room for a mantissa digit and any exponent, the text reads back within rounding."""
    got = float(vocab.format_number(value, width))
    assert math.isclose(got, value, rel_tol=0.5e-1, abs_tol=0.0) or got == value
