"""Three-way compare (golden vs A vs B) and seed 003's fusion on/off workflow, end to end."""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.threeway import compare_three, join_sides, worse_mask, worse_side

sys.path.insert(0, str(Path(__file__).parent))
from fusion_onoff_data import make_fusion_data  # noqa: E402

HEALTH = st.sampled_from(["ok", "warn", "fail", "error", "unmatched", None])
DIST = st.one_of(st.none(), st.just(float("nan")), st.floats(min_value=0, max_value=1e6))


@pytest.fixture(scope="module")
def fusion(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_fusion_data(tmp_path_factory.mktemp("fusion"))


def test_fusion_on_off_names_the_fused_op_that_breaks(fusion) -> None:  # type: ignore[no-untyped-def]
    tw = compare_three(fusion.golden, fusion.on, fusion.off, graphs=(fusion.graph_on, fusion.graph_off),
                       labels=("fusion on", "fusion off"))
    blame = tw.first_blame("A")
    assert blame is not None and blame.target_op == fusion.bad_op
    assert blame.originals == fusion.bad_originals and len(blame.originals) > 1
    assert "only in fusion on" in blame.sentence(tw.labels)
    assert tw.blame("B") == []  # nothing breaks only with fusion off
    # Fused ops line up with their unfused originals on both sides: every golden tensor that the
    # fused side still produces is compared on both sides.
    both = tw.frame.filter(pl.col("a_side") == "both")
    assert both.height >= 4 and (both["b_side"] == "both").all()
    assert tw.worse_counts()["A"] == 1 and tw.worse_counts()["B"] == 0
    assert tw.frame["index"].to_list() == list(range(tw.frame.height))


def test_without_graphs_the_fused_output_meets_the_wrong_golden_tensor(fusion) -> None:  # type: ignore[no-untyped-def]
    tw = compare_three(fusion.golden, fusion.on, fusion.off)
    blame = tw.first_blame("A")
    # The trap the graphs avoid: the fused conv1 (= relu1's value) is compared with golden conv1,
    # and nothing says it is fused.
    assert blame is not None and blame.name == "conv1" and blame.originals == ()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(HEALTH, HEALTH, DIST, DIST), min_size=1, max_size=12))
def test_worse_column_matches_the_scalar_rule(rows: list[tuple]) -> None:  # type: ignore[type-arg]
    names = [f"t{i}" for i in range(len(rows))]

    def side(k: int) -> pl.DataFrame:
        health = [r[k] or "unmatched" for r in rows]
        return pl.DataFrame({
            "index": list(range(len(rows))), "name": names, "health": health,
            "side": ["both" if h != "unmatched" else "golden" for h in health],
            "relative_euclidean_distance": [r[2 + k] for r in rows],
        }, schema_overrides={"relative_euclidean_distance": pl.Float64})

    frame = join_sides(side(0), side(1))
    expected = {n: worse_side(r[0] or "unmatched", r[1] or "unmatched", r[2], r[3]) for n, r in zip(names, rows, strict=True)}
    assert dict(zip(frame["name"], frame["worse"], strict=True)) == expected
    for value in ("A", "B", "="):
        assert set(frame.filter(pl.Series(worse_mask(frame, value)))["name"]) == {n for n, w in expected.items() if w == value}


def test_worse_rule_is_antisymmetric() -> None:
    for a in ("ok", "warn", "fail", "error"):
        for b in ("ok", "warn", "fail", "error"):
            flipped = {"A": "B", "B": "A"}.get(worse_side(a, b, 0.5, 0.1), worse_side(a, b, 0.5, 0.1))
            assert worse_side(b, a, 0.1, 0.5) == flipped
    assert worse_side("unmatched", "fail", None, 1.0) == ""
    assert worse_side("fail", "fail", float("nan"), 1.0) == "A"


def test_worse_filter_rejects_unknown_sides() -> None:
    with pytest.raises(ValueError, match="worse:C"):
        worse_mask(pl.DataFrame({"worse": ["A"]}), "C")


@settings(max_examples=300, deadline=None)
@given(HEALTH, HEALTH, DIST, DIST)
def test_swapping_the_sides_swaps_the_verdict(ha, hb, da, db) -> None:  # type: ignore[no-untyped-def]
    swap = {"A": "B", "B": "A", "=": "=", "": ""}
    assert worse_side(hb, ha, db, da) == swap[worse_side(ha, hb, da, db)]


def test_two_nan_distances_are_the_same() -> None:
    assert worse_side("fail", "fail", float("nan"), float("nan")) == "="


def test_fused_op_is_named_from_an_optimised_target_manifest(tmp_path: Path) -> None:
    """`dumpscope dump --target optimized` records fused_from per node; a tensor's producer comes
    from the manifest, so the fused node is named without an ATC graph."""
    import numpy as np
    import onnx

    from dumpscope.core import compare, dump
    from dumpscope.core.comparison.threeway import fused_culprit
    from fusion_onoff_data import _model

    onnx.save(_model(), tmp_path / "m.onnx")
    dump(tmp_path / "m.onnx", tmp_path / "g")
    dump(tmp_path / "m.onnx", tmp_path / "opt", target="optimized")
    dump(tmp_path / "m.onnx", tmp_path / "fp16", target="fp16")
    r1 = tmp_path / "opt" / "r1.npy"
    np.save(r1, np.load(r1) * 1.5 + 0.2)  # the fused Conv+Relu kernel is wrong
    blame = fused_culprit(compare(tmp_path / "g", tmp_path / "opt", model=tmp_path / "m.onnx"))
    assert blame is not None and blame.target_op == "conv1" and blame.originals == ("conv1", "relu1")
    tw = compare_three(tmp_path / "g", tmp_path / "opt", tmp_path / "fp16", model=tmp_path / "m.onnx")
    assert tw.first_blame("A").originals == ("conv1", "relu1") and tw.first_blame("B") is None
