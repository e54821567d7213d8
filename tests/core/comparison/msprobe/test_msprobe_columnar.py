"""The columnar statistics path (records into columns, rules as Polars expressions) gives
exactly the frame of the per-record reference, on generated entries full of edge cases
(NaN/Inf/0/missing statistics, dtype/shape/md5/requires_grad/argument mismatches,
missing bench records, skipped APIs and collectives)."""

from __future__ import annotations

import math
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from dumpscope.core.comparison.msprobe.pairing import Mapping, pair_ranks
from dumpscope.core.comparison.msprobe.statistics import (
    _TENSOR_METRICS,
    compare_statistics,
    compare_statistics_rows,
    first_divergence,
)
from dumpscope.core.formats.msprobe import read_rank
from tests.support.msprobe import write_rank

_VALUES = st.one_of(
    st.none(),
    st.sampled_from([0.0, -0.0, 1.0, -2.5, math.nan, math.inf, -math.inf]),
    st.floats(-1e6, 1e6, allow_nan=False),
)
_APIS = [
    "Functional.conv2d",
    "Tensor.__add__",
    "Torch.empty",
    "Distributed.all_to_all_single",
    "Functional.relu",
]


@st.composite
def _record(draw: st.DrawFn) -> dict[str, object]:
    if draw(st.integers(0, 6)) == 0:
        return {"type": "int", "value": draw(st.integers(0, 2))}
    rec: dict[str, object] = {
        "type": "torch.Tensor",
        "dtype": draw(st.sampled_from(["torch.float32", "torch.float16"])),
        "shape": draw(st.sampled_from([[2], [2, 3], []])),
    }
    for key in ("Max", "Min", "Mean", "Norm"):
        value = draw(_VALUES)
        if value is not None:
            rec[key] = value
    if draw(st.booleans()):
        rec["md5"] = draw(st.sampled_from(["aaaa0000", "bbbb1111", ""]))
    if draw(st.booleans()):
        rec["requires_grad"] = draw(st.booleans())
    return rec


@st.composite
def _side(draw: st.DrawFn, n: int) -> dict[str, object]:
    data = {}
    for k in range(n):
        body = {
            "input_args": draw(st.lists(_record(), max_size=3)),
            "output": draw(st.lists(_record(), max_size=2)),
        }
        data[f"{_APIS[k % len(_APIS)]}.{k}.forward"] = body
    return data


def _frames(tmp: Path, npu: dict, bench: dict, tensors: bool = False):  # type: ignore[no-untyped-def]
    n, b = read_rank(write_rank(tmp / "npu", npu)), read_rank(write_rank(tmp / "bench", bench))
    pairing = pair_ranks(n, b)
    return (
        compare_statistics(pairing, Mapping(), tensors=tensors),
        compare_statistics_rows(pairing, Mapping(), tensors=tensors),
        n,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), n=st.integers(0, 6))
def test_columnar_equals_the_per_record_reference(tmp_path: Path, data: st.DataObject, n: int) -> None:
    npu, bench = data.draw(_side(n)), data.draw(_side(n))
    columnar, reference, rank = _frames(tmp_path, npu, bench)
    assert_frame_equal(columnar, reference)
    assert first_divergence(columnar, rank) == first_divergence(reference, rank)


def test_columnar_equals_reference_in_tensor_mode_with_no_files(tmp_path: Path) -> None:
    rec = {
        "type": "torch.Tensor",
        "dtype": "torch.float32",
        "shape": [2],
        "Max": 1.0,
        "Min": 0.0,
        "Mean": 0.5,
        "Norm": 1.0,
        "data_name": "missing.npy",
    }
    columnar, reference, _ = _frames(
        tmp_path,
        {"Functional.relu.0.forward": {"input_args": [rec], "output": [rec]}},
        {"Functional.relu.0.forward": {"input_args": [rec], "output": [rec]}},
        tensors=True,
    )
    assert_frame_equal(columnar, reference)
    assert set(_TENSOR_METRICS) <= set(columnar.columns)


@given(st.lists(st.one_of(st.integers(0, 9), st.floats(0, 9), st.booleans(), st.just([1])), max_size=4))
def test_shape_accepts_only_lists_of_ints(dims: list) -> None:
    from dumpscope.core.formats.msprobe import _shape

    expected = tuple(dims) if all(type(d) is int for d in dims) else None
    assert _shape(dims) == expected and (expected is None or type(_shape(dims)) is tuple)
    assert _shape(tuple(dims)) is None and _shape("2,3") is None
