"""Bench <-> NPU pairing: full names, counter-shifted fuzzy match, YAML mappings, reasons."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.msprobe.pairing import Mapping, load_mapping, mapping_from_obj, pair_ranks
from dumpscope.core.formats.msprobe import read_rank
from tests.support.msprobe import entry, tensor, write_rank


def _conv(n: int, shape: list[int]) -> tuple[str, dict]:
    return f"Functional.conv2d.{n}.forward", entry([tensor(shape=shape)], [tensor(shape=shape)])


def _add(n: int, shape: list[int], other: list[int] | None = None) -> tuple[str, dict]:
    return f"Tensor.__add__.{n}.forward", entry(
        [tensor(shape=shape), tensor(shape=other or shape)], [tensor(shape=shape)]
    )


def _ranks(tmp_path, npu: list[tuple[str, dict]], bench: list[tuple[str, dict]]):
    return (
        read_rank(write_rank(tmp_path / "npu" / "rank0", dict(npu))),
        read_rank(write_rank(tmp_path / "bench" / "rank0", dict(bench))),
    )


def test_full_names_pair_exactly(tmp_path) -> None:
    calls = [_conv(0, [1, 4]), _add(0, [1, 4]), _conv(1, [1, 8])]
    pairing = pair_ranks(*_ranks(tmp_path, calls, calls))
    assert [(p.npu.name, p.bench.name, p.how) for p in pairing.pairs] == [(n, n, "exact") for n, _ in calls]
    assert pairing.unmatched == []


def test_an_extra_call_shifts_counters_and_the_alignment_pairs_by_order(tmp_path) -> None:
    # the NPU runs one extra add (x + scalar) first: every later add counter is one higher
    bench = [_add(0, [1, 4]), _conv(0, [1, 4]), _add(1, [1, 8]), _add(2, [1, 16])]
    npu = [_add(0, [1, 2], other=[]), _add(1, [1, 4]), _conv(0, [1, 4]), _add(2, [1, 8]), _add(3, [1, 16])]
    pairing = pair_ranks(*_ranks(tmp_path, npu, bench))
    got = {p.npu.name: (p.bench.name, p.how) for p in pairing.pairs}
    assert got["Tensor.__add__.1.forward"] == ("Tensor.__add__.0.forward", "aligned")
    assert got["Tensor.__add__.2.forward"] == ("Tensor.__add__.1.forward", "aligned")
    assert got["Tensor.__add__.3.forward"] == ("Tensor.__add__.2.forward", "aligned")
    assert got["Functional.conv2d.0.forward"] == ("Functional.conv2d.0.forward", "exact")
    [extra] = pairing.unmatched
    assert extra.entry.name == "Tensor.__add__.0.forward" and extra.side == "npu"
    assert extra.reason == (
        "NPU-only call: counters of later `Tensor.__add__` calls are shifted by one "
        "(Tensor.__add__.1.forward \u2194 Tensor.__add__.0.forward)"
    )


def test_unmatched_reasons_for_npu_only_and_bench_only(tmp_path) -> None:
    npu = [
        _conv(0, [1, 4]),
        ("NPU.npu_fusion_attention.0.forward", entry([tensor()], [tensor()])),
        ("Torch.npu_format_cast.0.forward", entry([tensor()], [tensor()])),
    ]
    bench = [
        _conv(0, [1, 4]),
        ("Functional.scaled_dot_product_attention.0.forward", entry([tensor()], [tensor()])),
        ("Functional.dropout.0.forward", entry([tensor()], [tensor()])),
    ]
    pairing = pair_ranks(*_ranks(tmp_path, npu, bench))
    reasons = {(u.entry.name, u.side): u.reason for u in pairing.unmatched}
    assert "NPU-only op" in reasons[("NPU.npu_fusion_attention.0.forward", "npu")]
    assert "NPU-only op" in reasons[("Torch.npu_format_cast.0.forward", "npu")]
    assert "bench-only" in reasons[("Functional.dropout.0.forward", "bench")]
    assert "bench-only" in reasons[("Functional.scaled_dot_product_attention.0.forward", "bench")]


def test_yaml_api_data_and_layer_mappings(tmp_path) -> None:
    npu = [
        ("NPU.npu_fusion_attention.0.forward", entry([tensor()], [tensor()])),
        ("Functional.gelu.0.forward", entry([tensor()], [tensor()])),
        ("Module.attn.linear_qkv.Linear.forward.0", entry([tensor()], [tensor()])),
    ]
    bench = [
        ("Functional.scaled_dot_product_attention.0.forward", entry([tensor()], [tensor()])),
        ("Functional.fast_gelu.0.forward", entry([tensor()], [tensor()])),
        ("Module.attn.query_key_value.Linear.forward.0", entry([tensor()], [tensor()])),
    ]
    api_yaml = tmp_path / "api.yaml"
    api_yaml.write_text(
        "- npu_api: NPU.npu_fusion_attention\n  bench_api: Functional.scaled_dot_product_attention\n"
    )
    data_yaml = tmp_path / "data.yaml"
    data_yaml.write_text("Functional.gelu.0.forward: Functional.fast_gelu.0.forward\n")
    layer_yaml = tmp_path / "layer.yaml"
    layer_yaml.write_text("SelfAttention:\n  linear_qkv: query_key_value\n")
    maps = [load_mapping(p) for p in (api_yaml, data_yaml, layer_yaml)]
    mapping = Mapping(api=maps[0].api, data=maps[1].data, layer=maps[2].layer)
    n, b = _ranks(tmp_path, npu, bench)
    assert len(pair_ranks(n, b).unmatched) == 6
    pairing = pair_ranks(n, b, mapping)
    assert pairing.unmatched == []
    assert {p.npu.name: p.bench.name for p in pairing.pairs} == {
        a: c for (a, _), (c, _) in zip(npu, bench, strict=False)
    }
    assert {p.how for p in pairing.pairs} == {"mapping"}


def test_mapping_shapes() -> None:
    assert mapping_from_obj({"Functional.a": "Functional.b"}).api == {"Functional.a": "Functional.b"}
    assert mapping_from_obj([{"ms_api": "Mint.mul", "pt_api": "Tensor.__mul__"}]).api == {
        "Mint.mul": "Tensor.__mul__"
    }
    assert mapping_from_obj({"x.0.forward.input.0": "y.0.forward.input.0"}).data
    with pytest.raises(ValueError):
        mapping_from_obj(["nonsense"])
    with pytest.raises(ValueError):
        mapping_from_obj(3)


def test_calls_whose_signatures_differ_still_pair_by_order_when_counts_agree(tmp_path) -> None:
    # one extra NPU call shifts the counters, and the NPU's third conv has another shape (a real
    # shape mismatch that must be reported, not hidden as unmatched)
    bench = [_conv(0, [1, 4]), _conv(1, [1, 8])]
    npu = [_conv(0, [1, 2]), _conv(1, [1, 4]), _conv(2, [1, 9])]
    pairing = pair_ranks(*_ranks(tmp_path, npu, bench))
    got = {p.npu.name: p.bench.name for p in pairing.pairs}
    assert got == {
        "Functional.conv2d.1.forward": "Functional.conv2d.0.forward",
        "Functional.conv2d.2.forward": "Functional.conv2d.1.forward",
    }
    assert [u.entry.name for u in pairing.unmatched] == ["Functional.conv2d.0.forward"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=12), st.data())
def test_one_extra_call_anywhere_leaves_every_other_call_correctly_paired(
    tmp_path_factory, widths, data
) -> None:
    """Bench: adds of distinct widths.  NPU: the same calls plus one extra add (a width no
    bench call has) inserted at any position; every bench call pairs with its own NPU call."""
    tmp_path = tmp_path_factory.mktemp("prop")
    shapes = [[1, 10 * k + w] for k, w in enumerate(widths)]
    at = data.draw(st.integers(0, len(shapes)))
    npu_shapes = shapes[:at] + [[1, 7]] + shapes[at:]
    bench = [_add(i, s) for i, s in enumerate(shapes)]
    npu = [_add(i, s) for i, s in enumerate(npu_shapes)]
    pairing = pair_ranks(*_ranks(tmp_path, npu, bench))
    got = {p.bench.name: p.npu.name for p in pairing.pairs}
    want = {
        f"Tensor.__add__.{i}.forward": f"Tensor.__add__.{i + (i >= at)}.forward" for i in range(len(shapes))
    }
    assert got == want
    assert [u.entry.name for u in pairing.unmatched] == [f"Tensor.__add__.{at}.forward"]


def test_mindspore_cells_pair_with_pytorch_modules_through_a_layer_mapping(tmp_path) -> None:
    """msprobe's cross-framework layout: a MindSpore ``Cell.<path>`` is a PyTorch ``Module.<path>``;
    the layer mapping renames the path segments that differ (here the top-level attribute)."""
    ms = {
        "Cell.net_with_loss.backbone.embed.Embedding.forward.0": entry(
            [tensor(dtype="Int32")], [tensor(dtype="BFloat16")]
        )
    }
    pt = {
        "Module.model.backbone.embed.Embedding.forward.0": entry(
            [tensor(dtype="torch.int32")], [tensor(dtype="torch.bfloat16")]
        )
    }
    n = read_rank(write_rank(tmp_path / "npu" / "rank0", ms, framework="mindspore"))
    b = read_rank(write_rank(tmp_path / "bench" / "rank0", pt))
    assert not pair_ranks(n, b).pairs  # the top-level attribute differs: no guess
    layer = tmp_path / "layer.yaml"
    layer.write_text("TopLayer:\n  net_with_loss: model\n")
    [pair] = pair_ranks(n, b, load_mapping(layer)).pairs
    assert (pair.npu.name, pair.bench.name, pair.how) == (*ms, *pt, "mapping")
    # the same prefix is never rewritten between two dumps of one framework
    b_ms = read_rank(
        write_rank(
            tmp_path / "bench_ms" / "rank0",
            {"Cell.model.backbone.embed.Embedding.forward.0": ms[next(iter(ms))]},
            framework="mindspore",
        )
    )
    assert len(pair_ranks(n, b_ms, load_mapping(layer)).pairs) == 1


def test_two_dumps_that_share_no_call_are_not_called_healthy(tmp_path) -> None:
    from dumpscope.core.comparison.msprobe.driver import compare_msprobe

    write_rank(
        tmp_path / "npu", {"Functional.relu.0.forward": entry([tensor()], [tensor()])}, framework="mindspore"
    )
    write_rank(tmp_path / "bench", {"Functional.gelu.0.forward": entry([tensor()], [tensor()])})
    [r] = compare_msprobe(tmp_path / "npu", tmp_path / "bench").results
    assert r.divergence is None and r.error.startswith("nothing paired: none of the 1 NPU and 1 bench calls")
    assert "mindspore against pytorch" in r.error and r.frame is not None and r.frame.height == 2
