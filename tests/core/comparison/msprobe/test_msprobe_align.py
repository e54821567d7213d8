"""The alignment of two msprobe call lists (core/comparison/msprobe/align.py): the identity on
identical lists, extra calls anywhere on either side, look-alike calls told apart by their data,
the banded programme against an unbanded reference, and the reasons of one-sided calls."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.msprobe import align as al
from dumpscope.core.comparison.msprobe.pairing import pair_ranks
from dumpscope.core.formats.msprobe import Entry, Record, read_rank
from tests.support.msprobe import entry, tensor, write_rank


def _calls(spec: list[tuple[str, int, float]], site: dict[int, str] | None = None) -> list[Entry]:
    """Entries named as msprobe counts them: ``(api, width, first input's Norm)`` per call."""
    counters: dict[str, int] = {}
    out = []
    for order, (api, width, norm) in enumerate(spec):
        n = counters[api] = counters.get(api, -1) + 1
        name = f"{api}.{n}.forward"
        recs = [
            Record(
                f"{name}.{role}.0", name, role, f"{role}.0", True, "float32", (1, width), (1.0, 0.0, 0.5, s)
            )
            for role, s in (("input", norm), ("output", 1.0))
        ]
        stack = (site or {}).get(order)
        out.append(Entry(name, order, recs, stack=stack))
    return out


def _aligned(npu: list[Entry], bench: list[Entry]) -> list[tuple[int, int]]:
    fa, codes = al.features(npu, [e.parts.key for e in npu], [e.parent for e in npu])
    fb, _ = al.features(bench, [e.parts.key for e in bench], [e.parent for e in bench], codes)
    return al.align(fa, fb)


_APIS = ("Tensor.__mul__", "Tensor.__add__", "Functional.linear")
_CALL = st.tuples(st.sampled_from(_APIS), st.sampled_from((4, 8)), st.floats(0.5, 1e4))


@settings(max_examples=60, deadline=None)
@given(st.lists(_CALL, min_size=0, max_size=40))
def test_identical_call_lists_pair_every_call_with_itself(spec) -> None:
    """No pair changes where both sides made the same calls, repeated look-alikes included."""
    calls = _calls(spec)
    assert _aligned(calls, _calls(spec)) == [(k, k) for k in range(len(spec))]


@settings(max_examples=60, deadline=None)
@given(st.lists(_CALL, min_size=1, max_size=40, unique_by=lambda c: round(c[2], 1)), st.data())
def test_extra_calls_on_either_side_leave_every_other_call_with_its_own_partner(spec, data) -> None:
    """Each side gets extra calls (the APIs and shapes of real calls, other data) at random
    places; every real call pairs with its own counterpart, the extras with nothing.  (The
    NPU's extras have width 4, the bench's width 8: two extras of one shape at one place
    would be one call on both sides, as far as any dump can tell.)"""
    npu_spec, bench_spec = list(spec), list(spec)
    npu_id, bench_id = list(range(len(spec))), list(range(len(spec)))
    for side, ids, width, base in ((npu_spec, npu_id, 4, 2e5), (bench_spec, bench_id, 8, 5e5)):
        for _ in range(data.draw(st.integers(0, 3))):
            at = data.draw(st.integers(0, len(side)))
            api = data.draw(st.sampled_from(_APIS))
            side.insert(at, (api, width, base + 1000 * at))  # data no real call has
            ids.insert(at, -1)
    pairs = _aligned(_calls(npu_spec), _calls(bench_spec))
    want = [(i, bench_id.index(k)) for i, k in enumerate(npu_id) if k >= 0]
    assert pairs == want


def test_look_alike_extras_crossing_in_a_repeated_block_are_told_apart_by_their_data() -> None:
    """NPU: an extra mul before three look-alike muls; bench: one after them.  Equal names pair
    every mul with the wrong one; the alignment pairs each with the call fed the same data."""
    real = [("Tensor.__mul__", 4, 10.0 + k) for k in range(3)]
    npu = _calls([("Tensor.__mul__", 4, 99.0)] + real)
    bench = _calls(real + [("Tensor.__mul__", 4, 77.0)])
    assert _aligned(npu, bench) == [(1, 0), (2, 1), (3, 2)]


def test_the_call_site_tells_look_alikes_apart_without_statistics() -> None:
    """No usable statistics (NaN); the extra NPU call comes from another line of code."""
    hook = 'File "/x/site-packages/msprobe/pytorch/hook_module/wrap_tensor.py", line 61, in op_template'
    model = 'File "/home/u/model.py", line {}, in forward'
    spec = [("Tensor.__mul__", 4, math.nan)] * 4
    npu = _calls(spec, {k: f"{hook}\n{model.format(10 if k == 2 else 20)}" for k in range(4)})
    bench = _calls(spec[:3], {k: f"{hook}\n{model.format(20)}" for k in range(3)})
    assert _aligned(npu, bench) == [(0, 0), (1, 1), (3, 2)]


def test_call_site_drops_framework_frames() -> None:
    text = (
        "File /usr/lib/python3/site-packages/msprobe/pytorch/hook_module/wrap_tensor.py, line 61, "
        "in tensor_op_template, \n return TensorOPTemplate(op_name, hook)(*args, **kwargs)\n"
        "File /opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py, line 1501, "
        "in _call_impl\n"
        "File /home/u/net/attn.py, line 88, in forward, \n q = x * self.scale"
    )
    assert al.call_site(text) == ("attn.py:88:forward",)
    assert al.call_site(None) is None and al.call_site("no frames here") is None


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 2),
            st.integers(-1, 3),
            st.integers(-1, 3),
            st.integers(-1, 3),
            st.sampled_from([math.nan, 1.0, 1.0005, 1.01, 2.0, math.inf]),
        ),
        min_size=2,
        max_size=12,
    )
)
def test_plain_python_scores_equal_the_numpy_scores(rows) -> None:
    """The small-gap path scores pairs in Python; it must agree with the NumPy scores."""

    def col(k: int) -> np.ndarray:
        return np.asarray([r[k] for r in rows], dtype=np.int64)

    f = al.Features(
        col(0),
        col(1),
        col(1),
        col(2),
        col(3),
        np.arange(len(rows)) % 3,
        np.asarray([r[4] for r in rows], dtype=np.float64),
    )
    i, j = np.meshgrid(np.arange(len(rows)), np.arange(len(rows)), indexing="ij")
    lists = al._Lists(f)
    assert al.scores(f, f, i, j).tolist() == [[al.score1(x, y) for y in lists.rows] for x in lists.rows]


def _reference(a: al.Features, b: al.Features) -> int:
    """The best total score by the unbanded textbook programme (float64, no shortcuts)."""
    n, m = len(a.key), len(b.key)
    s = al.scores(a, b, np.arange(n)[:, None], np.arange(m)[None, :]).astype(np.float64)
    d = np.zeros((n + 1, m + 1))
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i, j] = max(d[i - 1, j], d[i, j - 1], d[i - 1, j - 1] + s[i - 1, j - 1])
    return int(d[n, m])


@settings(max_examples=40, deadline=None)
@given(st.lists(_CALL, min_size=1, max_size=30), st.lists(_CALL, min_size=1, max_size=30), st.integers(1, 4))
def test_the_banded_programme_finds_the_best_score(spec_a, spec_b, margin) -> None:
    """Through the banded NumPy programme (no anchors): with a band as wide as the lists, the
    pairs it returns score exactly the unbanded reference's optimum; with a narrow band they
    are still a valid alignment (increasing on both sides, same keys) scoring no more."""
    a, b = _calls(spec_a), _calls(spec_b)
    fa, codes = al.features(a, [e.parts.key for e in a], [None] * len(a))
    fb, _ = al.features(b, [e.parts.key for e in b], [None] * len(b), codes)
    best = _reference(fa, fb)
    for band, exact in ((len(a) + len(b), True), (margin, False)):
        pairs = al._align_band(fa, fb, band)
        assert all(i1 < i2 and j1 < j2 for (i1, j1), (i2, j2) in zip(pairs, pairs[1:], strict=False))
        assert all(fa.key[i] == fb.key[j] for i, j in pairs)
        got = sum(int(al.scores(fa, fb, np.array([i]), np.array([j]))[0]) for i, j in pairs)
        assert got == best if exact else got <= best


def test_one_sided_calls_say_how_they_shift_the_later_counters(tmp_path) -> None:
    """NPU: an extra mul first; bench: an extra mul later.  Each reason names the shift it causes."""

    def mul(n: int, norm: float) -> tuple[str, dict]:
        return f"Tensor.__mul__.{n}.forward", entry([tensor(stats=(1.0, 0.0, 0.5, norm))], [tensor()])

    npu = dict([mul(0, 500.0), mul(1, 1.0), mul(2, 2.0), mul(3, 3.0)])
    bench = dict([mul(0, 1.0), mul(1, 2.0), mul(2, 700.0), mul(3, 3.0)])
    n = read_rank(write_rank(tmp_path / "npu", npu))
    b = read_rank(write_rank(tmp_path / "bench", bench))
    pairing = pair_ranks(n, b)
    assert [(p.npu.name[15], p.bench.name[15], p.how) for p in pairing.pairs] == [
        ("1", "0", "aligned"),
        ("2", "1", "aligned"),
        ("3", "3", "exact"),
    ]
    reasons = {(u.side, u.entry.name): u.reason for u in pairing.unmatched}
    assert reasons[("npu", "Tensor.__mul__.0.forward")] == (
        "NPU-only call: counters of later `Tensor.__mul__` calls are shifted by one "
        "(Tensor.__mul__.1.forward \u2194 Tensor.__mul__.0.forward)"
    )
    assert reasons[("bench", "Tensor.__mul__.2.forward")] == (
        "bench-only call: no counterpart in the call order; later `Tensor.__mul__` counters agree again "
        "(another call offsets it)"
    )
    assert pairing.pairs[0].label == (
        "aligned: NPU Tensor.__mul__.1.forward \u2194 bench Tensor.__mul__.0.forward"
    )
    assert pairing.counts() == {"exact": 1, "aligned": 2, "mapping": 0, "npu-only": 1, "bench-only": 1}
    exact = pair_ranks(n, b, mode="exact")  # msprobe's own: equal names, whatever the data
    assert [(p.npu.name, p.bench.name) for p in exact.pairs] == [(k, k) for k in npu]
    with pytest.raises(ValueError, match="unknown pairing"):
        pair_ranks(n, b, mode="fuzzy")


def test_a_data_mapping_pairs_first_and_the_rest_is_aligned(tmp_path) -> None:
    """msprobe's data mapping is honoured before anything: the mapped calls pair as told,
    even against the data; the alignment pairs what is left."""

    def call(api: str, n: int, norm: float) -> tuple[str, dict]:
        return f"{api}.{n}.forward", entry([tensor(stats=(1.0, 0.0, 0.5, norm))], [tensor()])

    npu = dict(
        [call("Functional.gelu", 0, 5.0), call("Tensor.__mul__", 0, 9.0), call("Tensor.__mul__", 1, 1.0)]
    )
    bench = dict([call("Functional.fast_gelu", 0, 5.0), call("Tensor.__mul__", 0, 1.0)])
    n = read_rank(write_rank(tmp_path / "npu", npu))
    b = read_rank(write_rank(tmp_path / "bench", bench))
    from dumpscope.core.comparison.msprobe.pairing import Mapping

    pairing = pair_ranks(n, b, Mapping(data={"Functional.gelu.0.forward": "Functional.fast_gelu.0.forward"}))
    assert {(p.npu.name, p.bench.name, p.how) for p in pairing.pairs} == {
        ("Functional.gelu.0.forward", "Functional.fast_gelu.0.forward", "mapping"),
        ("Tensor.__mul__.1.forward", "Tensor.__mul__.0.forward", "aligned"),
    }


def test_a_fault_on_a_shifted_call_names_both_calls(tmp_path) -> None:
    """The faulty NPU call is ``Tensor.__mul__.1`` (an extra mul came first); it is compared with
    the bench's ``Tensor.__mul__.0``, the call it corresponds to, and the answer says so."""
    from dumpscope.core.comparison.msprobe.driver import compare_msprobe

    x = np.linspace(0.5, 1.5, 16)
    npu = {
        "Tensor.__mul__.0.forward": entry([tensor(x * 7)], [tensor(x * 7)]),
        "Tensor.__mul__.1.forward": entry([tensor(x)], [tensor(x * 3)]),
    }
    bench = {"Tensor.__mul__.0.forward": entry([tensor(x)], [tensor(x * 2)])}
    write_rank(tmp_path / "npu", npu)
    write_rank(tmp_path / "bench", bench)
    [r] = compare_msprobe(tmp_path / "npu", tmp_path / "bench").results
    div = r.divergence
    assert (div.entry, div.bench_entry) == ("Tensor.__mul__.1.forward", "Tensor.__mul__.0.forward")
    assert div.describe().startswith(
        "Tensor.__mul__.1.forward (compared with bench Tensor.__mul__.0.forward: counters shifted): "
        "introduced jump, output NormRelativeErr 50%"
    )
    [exact] = compare_msprobe(tmp_path / "npu", tmp_path / "bench", pairing="exact").results
    assert exact.divergence.entry == "Tensor.__mul__.0.forward"  # equal names: the wrong call blamed


def test_a_stretch_too_long_for_the_table_pairs_by_key_order(monkeypatch) -> None:
    """Bounded memory: past MAX_CELLS the programme gives way to msprobe's order-per-key pairing,
    still increasing on both sides."""
    spec = [("Tensor.__mul__", 4, math.nan), ("Tensor.__add__", 4, math.nan)] * 6
    a, b = _calls(spec), _calls(spec[:5] + spec[6:])
    fa, codes = al.features(a, [e.parts.key for e in a], [None] * len(a))
    fb, _ = al.features(b, [e.parts.key for e in b], [None] * len(b), codes)
    monkeypatch.setattr(al, "MAX_CELLS", 10)
    pairs = al._align_band(fa, fb, 4)
    assert pairs[:5] == [(k, k) for k in range(5)]
    assert all(i1 < i2 and j1 < j2 for (i1, j1), (i2, j2) in zip(pairs, pairs[1:], strict=False))
    assert all(fa.key[i] == fb.key[j] for i, j in pairs) and len(pairs) >= 8
