"""Statistics-mode comparison: msprobe's columns against an independent float64
computation, its error/warning rules, and the first-divergence answer."""

from __future__ import annotations

import math
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.msprobe.pairing import pair_ranks
from dumpscope.core.comparison.msprobe.statistics import (
    REL,
    bad_entries,
    compare_statistics,
    first_divergence,
    module_health,
    msprobe_text,
    rel_err,
)
from dumpscope.core.formats.msprobe import read_rank
from tests.support.msprobe import entry, tensor, write_rank

finite = st.floats(min_value=-1e30, max_value=1e30, allow_nan=False, allow_infinity=False)


def _reference_rel(npu: float, bench: float) -> float:
    """|npu - bench| / |bench| * 100 in exact decimal arithmetic, then rounded to float."""
    if npu == bench:
        return 0.0
    if bench == 0:
        return math.inf
    return float(abs((Decimal(npu) - Decimal(bench)) / Decimal(bench)) * 100)


@given(finite, finite)
def test_relative_error_matches_an_exact_reference(npu: float, bench: float) -> None:
    got, want = rel_err(npu, bench), _reference_rel(npu, bench)
    if math.isinf(want):
        assert got == math.inf
    else:
        assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-300)


def test_relative_error_special_cases() -> None:
    assert rel_err(0.0, 0.0) == 0.0 and rel_err(1.0, 0.0) == math.inf and rel_err(None, 1.0) is None
    assert math.isnan(rel_err(math.nan, 1.0))
    assert [msprobe_text(v) for v in (0.0, math.inf, 12.5, None)] == ["0", "inf", "12.5%", "N/A"]


def _frame(tmp_path, npu: dict, bench: dict, construct: dict | None = None):
    n = read_rank(write_rank(tmp_path / "npu" / "rank0", npu, construct=construct))
    b = read_rank(write_rank(tmp_path / "bench" / "rank0", bench, construct=construct))
    return compare_statistics(pair_ranks(n, b)), n


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(finite, finite, finite, st.floats(0, 1e30)), min_size=2, max_size=2))
def test_columns_against_float64_reference(tmp_path_factory, stats) -> None:
    tmp_path = tmp_path_factory.mktemp("cols")
    npu_stats, bench_stats = stats
    frame, _ = _frame(
        tmp_path,
        {"Torch.sum.0.forward": entry([], [tensor(stats=npu_stats)])},
        {"Torch.sum.0.forward": entry([], [tensor(stats=bench_stats)])},
    )
    row = frame.row(0, named=True)
    for i, name in enumerate(("Max", "Min", "Mean", "L2norm")):
        assert row[f"{name} diff"] == float(npu_stats[i]) - float(bench_stats[i])
        want = _reference_rel(npu_stats[i], bench_stats[i])
        got = row[REL[i]]
        assert got == want or math.isclose(got, want, rel_tol=1e-12)


def test_error_and_warning_rules(tmp_path) -> None:
    good = (1.0, -1.0, 0.0, 10.0)
    npu = {
        "Functional.a.0.forward": entry(
            [tensor(stats=good)], [tensor(stats=(math.inf, -1.0, math.nan, math.inf))]
        ),
        "Functional.b.0.forward": entry([tensor(stats=good)], [tensor(stats=(1.0, -1.0, 0.0, 16.0))]),
        "Functional.c.0.forward": entry(
            [tensor(stats=(1.0, -1.0, 0.0, 10.1))], [tensor(stats=(1.0, -1.0, 0.0, 12.0))]
        ),
        "Functional.d.0.forward": entry(
            [tensor(stats=good, dtype="torch.float16")], [tensor(stats=good, shape=[3])]
        ),
        "Functional.e.0.forward": entry([{"type": "int", "value": 3}], [tensor(stats=good, md5="aaaa0000")]),
    }
    bench = {
        k: entry(
            [tensor(stats=good) if k != "Functional.e.0.forward" else {"type": "int", "value": 2}],
            [tensor(stats=good, md5="bbbb1111" if k == "Functional.e.0.forward" else None)],
        )
        for k in npu
    }
    frame, _ = _frame(tmp_path, npu, bench)
    msg = dict(zip(frame["NPU Name"], frame["Err_message"], strict=False))
    res = dict(zip(frame["NPU Name"], frame["Result"], strict=False))
    assert "inf/nan while the bench is finite" in msg["Functional.a.0.forward.output.0"]
    assert res["Functional.b.0.forward.output.0"] == "error"
    assert "input NormRelativeErr < 10% but output > 50%" in msg["Functional.b.0.forward.output.0"]
    assert (
        res["Functional.c.0.forward.output.0"] == "warning"
        and "10x" in msg["Functional.c.0.forward.output.0"]
    )
    assert "dtype mismatch" in msg["Functional.d.0.forward.input.0"]
    assert "shape mismatch" in msg["Functional.d.0.forward.output.0"]
    assert "argument differs" in msg["Functional.e.0.forward.input.0"]
    assert "md5" in msg["Functional.e.0.forward.output.0"]
    # msprobe's flat -da rule: finite > 50% only
    flags = dict(zip(frame["NPU Name"], frame["msprobe -da flags"], strict=False))
    assert flags["Functional.b.0.forward.output.0"] and not flags["Functional.a.0.forward.output.0"]


def test_first_divergence_introduced_vs_inherited_and_module_tree(tmp_path) -> None:
    s1, s2, s3 = (1.0, 0.0, 0.5, 10.0), (2.0, 0.0, 1.0, 20.0), (3.0, 0.0, 1.5, 30.0)
    bad2, bad3 = (math.inf, 0.0, math.inf, math.inf), (3.0, 0.0, 1.5, 45.0)
    bench = {
        "Functional.relu.0.forward": entry([tensor(stats=s1)], [tensor(stats=s2)]),
        "Functional.gelu.0.forward": entry([tensor(stats=s2)], [tensor(stats=s3)]),
        "Module.block.Block.forward.0": entry([tensor(stats=s1)], [tensor(stats=s3)]),
    }
    npu = {
        "Functional.relu.0.forward": entry([tensor(stats=s1)], [tensor(stats=bad2)]),
        "Functional.gelu.0.forward": entry([tensor(stats=bad2)], [tensor(stats=bad3)]),
        "Module.block.Block.forward.0": entry([tensor(stats=s1)], [tensor(stats=bad3)]),
    }
    construct = {
        "Functional.relu.0.forward": "Module.block.Block.forward.0",
        "Functional.gelu.0.forward": "Module.block.Block.forward.0",
        "Module.block.Block.forward.0": None,
    }
    frame, rank = _frame(tmp_path, npu, bench, construct)
    div = first_divergence(frame, rank)
    assert div.entry == "Functional.relu.0.forward" and div.kind == "introduced" and div.nonfinite
    assert div.missed_by_msprobe and div.module_path == ("Module.block.Block.forward.0",)
    # after the introduced one, the next call is inherited
    [first, later] = bad_entries(frame, rank)
    assert first == div
    assert later.entry == "Functional.gelu.0.forward" and later.kind == "inherited" and not later.nonfinite
    assert module_health(frame, rank)["Module.block.Block.forward.0"] == "error"


def test_identical_dumps_have_no_divergence(tmp_path) -> None:
    data = {
        "Functional.relu.0.forward": entry(
            [tensor(stats=(1.0, 0.0, 0.5, 2.0))], [tensor(stats=(1.0, 0.0, 0.5, 2.0))]
        )
    }
    frame, rank = _frame(tmp_path, data, data)
    assert first_divergence(frame, rank) is None
    assert set(frame["Result"]) == {"pass"}


def test_backward_after_forward_and_requires_grad_rule(tmp_path) -> None:
    s, bad = (1.0, 0.0, 0.5, 10.0), (1.0, 0.0, 0.5, 20.0)
    npu = {
        "Functional.relu.0.backward": {"input": [tensor(stats=s)], "output": [tensor(stats=bad)]},
        "Functional.relu.0.forward": entry([tensor(stats=s)], [tensor(stats=s, requires_grad=True)]),
    }
    bench = {
        "Functional.relu.0.backward": {"input": [tensor(stats=s)], "output": [tensor(stats=s)]},
        "Functional.relu.0.forward": entry([tensor(stats=s)], [tensor(stats=s)]),
    }
    frame, rank = _frame(tmp_path, npu, bench)
    msg = dict(zip(frame["NPU Name"], frame["Err_message"], strict=False))
    assert "requires_grad differs" in msg["Functional.relu.0.forward.output.0"]
    assert first_divergence(frame, rank).entry == "Functional.relu.0.backward"


def test_module_tree_from_construct(tmp_path) -> None:
    data = {
        "Functional.relu.0.forward": entry([tensor()], [tensor()]),
        "Module.block.Block.forward.0": entry([tensor()], [tensor()]),
    }
    rank = read_rank(
        write_rank(
            tmp_path / "rank0",
            data,
            construct={
                "Functional.relu.0.forward": "Module.block.Block.forward.0",
                "Module.block.Block.forward.0": "Module.model.Net.forward.0",
            },
        )
    )
    tree = rank.children()
    assert tree["Module.block.Block.forward.0"] == ["Functional.relu.0.forward"]
    assert tree["Module.model.Net.forward.0"] == ["Module.block.Block.forward.0"]
    assert tree[None] == ["Module.model.Net.forward.0"]


def test_msprobe_skip_lists(tmp_path) -> None:
    s, other = (1.0, 0.0, 0.5, 10.0), (9.0, -9.0, 3.0, 99.0)
    npu = {
        "Torch.empty.0.forward": entry([], [tensor(stats=other)]),
        "Distributed.all_to_all_single.0.forward": entry(
            [tensor(stats=other)], [tensor(stats=(1.0, 0.0, 0.5, 16.0))]
        ),
        "Functional.relu.0.forward": entry([tensor(stats=s)], [tensor(stats=(1.0, 0.0, 0.5, 16.0))]),
    }
    bench = {
        "Torch.empty.0.forward": entry([], [tensor(stats=s)]),
        "Distributed.all_to_all_single.0.forward": entry([tensor(stats=s)], [tensor(stats=s)]),
        "Functional.relu.0.forward": entry([tensor(stats=s)], [tensor(stats=s)]),
    }
    frame, rank = _frame(tmp_path, npu, bench)
    res = dict(zip(frame["NPU Name"], zip(frame["Result"], frame["Err_message"], strict=False), strict=False))
    assert (
        res["Torch.empty.0.forward.output.0"][0] == "pass"
        and "not compared" in res["Torch.empty.0.forward.output.0"][1]
    )
    # the input-based rule (inputs < 10 % but output > 50 %) is skipped for the collective, kept for relu
    assert res["Distributed.all_to_all_single.0.forward.output.0"][0] == "pass"
    assert res["Functional.relu.0.forward.output.0"][0] == "error"
    assert first_divergence(frame, rank).entry == "Distributed.all_to_all_single.0.forward"
