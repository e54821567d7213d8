"""Three-way compare (golden vs A vs B) and seed 003's fusion on/off workflow, end to end."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.comparison.threeway import compare_three, join_sides, worse_mask, worse_side
from tests.support.fusion_onoff import make_fusion_data  # noqa: E402

HEALTH = st.sampled_from(["ok", "warn", "fail", "error", "unmatched", None])
DIST = st.one_of(st.none(), st.just(float("nan")), st.floats(min_value=0, max_value=1e6))


@pytest.fixture(scope="module")
def fusion(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_fusion_data(tmp_path_factory.mktemp("fusion"))


def test_fusion_on_off_names_the_fused_op_that_breaks(fusion) -> None:  # type: ignore[no-untyped-def]
    tw = compare_three(
        fusion.golden,
        fusion.on,
        fusion.off,
        graphs=(fusion.graph_on, fusion.graph_off),
        labels=("fusion on", "fusion off"),
    )
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
    # the same # as the two-way output of either side: the golden graph's order, not a row number
    two_way = dict(zip(tw.a.frame["name"].to_list(), tw.a.frame["index"].to_list(), strict=False))
    for name, index in zip(tw.frame["name"].to_list(), tw.frame["index"].to_list(), strict=False):
        if name in two_way:
            assert index == two_way[name], name


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
        return pl.DataFrame(
            {
                "index": list(range(len(rows))),
                "name": names,
                "health": health,
                "side": ["both" if h != "unmatched" else "golden" for h in health],
                "relative_euclidean_distance": [r[2 + k] for r in rows],
            },
            schema_overrides={"relative_euclidean_distance": pl.Float64},
        )

    frame = join_sides(side(0), side(1))
    expected = {
        n: worse_side(r[0] or "unmatched", r[1] or "unmatched", r[2], r[3])
        for n, r in zip(names, rows, strict=True)
    }
    assert dict(zip(frame["name"], frame["worse"], strict=True)) == expected
    for value in ("A", "B", "="):
        assert set(frame.filter(pl.Series(worse_mask(frame, value)))["name"]) == {
            n for n, w in expected.items() if w == value
        }


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
    from tests.support.fusion_onoff import _model

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


# -- the union: one row per tensor any of the three dumps holds --------------------------------

UNION = {
    "conv1": "all",
    "relu1": "not in B",
    "gonly": "not in A",
    "lost": "only in golden",
    "aonly": "only in A",
    "bonly": "only in B",
    "extra": "only in A and B",
}
"""Tensor -> which dumps hold it, for :func:`union_dumps`."""


def union_dumps(root: Path) -> tuple[Path, Path, Path]:
    """golden/A/B .npy folders whose tensors are spread as :data:`UNION` says (B off by 1e-3)."""
    import numpy as np

    rng = np.random.default_rng(0)
    dirs = tuple(root / d for d in ("g", "a", "b"))
    for d in dirs:
        d.mkdir()
    for name, where in UNION.items():
        value = rng.standard_normal(64).astype(np.float32)
        holders = {
            "all": "gab",
            "not in B": "ga",
            "not in A": "gb",
            "only in golden": "g",
            "only in A": "a",
            "only in B": "b",
            "only in A and B": "ab",
        }[where]
        for key, d in zip("gab", dirs, strict=True):
            if key in holders:
                np.save(d / f"{name}.npy", value + (1e-3 if key == "b" else 0))
    return dirs


def test_every_tensor_of_the_union_is_one_row_with_which_dumps_hold_it(tmp_path: Path) -> None:
    g, a, b = union_dumps(tmp_path)
    tw = compare_three(g, a, b)
    assert sorted(tw.frame["name"]) == sorted(UNION)  # B's own tensor too, once each
    assert dict(zip(tw.frame["name"], tw.frame["presence"], strict=True)) == UNION
    assert set(tw.frame.filter(pl.col("presence") != "all")["worse"]) == {""}  # not comparable


def test_side_a_listed_with_the_tensors_only_b_holds(tmp_path: Path) -> None:
    from dumpscope.core.comparison.threeway import union_a

    tw = compare_three(*union_dumps(tmp_path))
    listed = union_a(tw)
    n = tw.a.frame.height
    assert listed.frame.head(n).equals(tw.a.frame)  # A's rows keep their positions
    added = listed.frame.slice(n)
    assert added["name"].to_list() == ["bonly"] and added["side"].to_list() == ["absent"]
    assert "only in B" in added["message"][0]
    assert listed.pairing is not None and len(listed.pairing.pairs) == listed.frame.height
    golden, target = listed.load_pair(n)  # B's tensor is still there to look at
    assert golden is None and target is not None and target.shape == (64,)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()).filter(any), min_size=1, max_size=10))
def test_presence_is_set_membership(holders: list[tuple[bool, bool, bool]]) -> None:
    """Reference: plain set membership of each name in golden, A and B."""
    from dumpscope.core.comparison.threeway import PRESENCE

    names = [f"t{i}" for i in range(len(holders))]

    def side(k: int) -> pl.DataFrame:  # what a two-way comparison of golden vs side k has as rows
        rows = [(n, "both" if h[k] else "golden") for n, h in zip(names, holders, strict=True) if h[0]]
        rows += [(n, "target") for n, h in zip(names, holders, strict=True) if h[k] and not h[0]]
        return pl.DataFrame(
            {
                "index": list(range(len(rows))),
                "name": [r[0] for r in rows],
                "side": [r[1] for r in rows],
                "health": ["ok" if r[1] == "both" else "unmatched" for r in rows],
            },
            schema={"index": pl.Int64, "name": pl.String, "side": pl.String, "health": pl.String},
        )

    frame = join_sides(side(1), side(2))
    assert dict(zip(frame["name"], frame["presence"], strict=True)) == {
        n: PRESENCE[h] for n, h in zip(names, holders, strict=True)
    }


def test_presence_label_names_the_sides() -> None:
    from dumpscope.core.comparison.threeway import presence_label

    labels = ("fusion on", "fusion off")
    assert presence_label("only in B", labels) == "only in fusion off"
    assert presence_label("only in A and B", labels) == "only in fusion on and fusion off"
    assert presence_label("all", labels) == presence_label(None) == ""


def test_cli_table_lists_the_tensor_only_b_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dumpscope.tui.cli.main import main

    g, a, b = union_dumps(tmp_path)
    main(["compare", str(g), str(a), str(b)])  # piped: the plain full-width table
    lines = {line.split()[1]: line for line in capsys.readouterr().out.splitlines()[1:] if line[:1].isdigit()}
    assert set(lines) == set(UNION)
    assert lines["bonly"].rstrip().endswith("only in B") and lines["aonly"].rstrip().endswith(
        "only in A"
    )  # worse: blank
    assert lines["lost"].rstrip().endswith("only in golden") and not lines["conv1"].rstrip().endswith("all")


def test_terminal_table_says_under_each_name_which_dumps_lack_it(tmp_path: Path) -> None:
    from rich.console import Console

    from dumpscope.tui.cli.render import render_threeway

    tw = compare_three(*union_dumps(tmp_path))
    for width in (80, 140):
        console = Console(width=width, record=True, color_system=None)
        render_threeway(tw, console)
        lines = console.export_text().splitlines()
        assert all(len(line) <= width for line in lines)
        at = next(i for i, line in enumerate(lines) if " bonly " in line)
        assert "(only in B)" in lines[at + 1] and lines[at].rstrip().endswith(
            "·"
        )  # B's metrics missing, worse: blank
        assert not any("(all)" in line for line in lines)


def test_worse_by_magnitude_tells_two_passing_recipes_apart(light_models_dir: Path, tmp_path: Path) -> None:
    """fp16 and int8 targets of a real model: B/A is each row's distance ratio (recomputed from the two
    two-way frames), and ``worse_by="magnitude"`` names the side at least 2x further even when both pass."""
    from dumpscope.core.onnx.runner import dump_model

    model = light_models_dir / "light_shufflenet.onnx"
    dump_model(model, tmp_path / "g")
    dump_model(model, tmp_path / "h", target="fp16")
    dump_model(model, tmp_path / "q", target="int8")
    plain = compare_three(
        tmp_path / "g", tmp_path / "h", tmp_path / "q", model=model, labels=("fp16", "int8")
    )
    tw = compare_three(
        tmp_path / "g",
        tmp_path / "h",
        tmp_path / "q",
        model=model,
        labels=("fp16", "int8"),
        worse_by="magnitude",
        factor=2.0,
    )
    a = dict(
        zip(tw.a.frame["name"].to_list(), tw.a.frame["relative_euclidean_distance"].to_list(), strict=False)
    )
    b = dict(
        zip(tw.b.frame["name"].to_list(), tw.b.frame["relative_euclidean_distance"].to_list(), strict=False)
    )
    told_apart = 0
    for row, before in zip(tw.frame.iter_rows(named=True), plain.frame["worse"].to_list(), strict=False):
        da, db = a.get(row["name"]), b.get(row["name"])
        if da is None or db is None or row["a_health"] != row["b_health"]:
            continue
        if da > 0:
            assert row["b_over_a"] == pytest.approx(db / da, rel=1e-12)
        expected = "B" if db >= 2 * da and db > da else "A" if da >= 2 * db and da > db else "="
        assert row["worse"] == expected, row["name"]
        if row["a_health"] == "ok" and expected != "=":
            assert before == "="  # by health, two passing rows are the same
            told_apart += 1
    assert told_apart > 0  # int8 is several times further than fp16 on passing rows


def test_cli_worse_option_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from dumpscope.tui.cli import main as cli

    assert cli.main(["compare", "g", "a", "b", "--worse", "bogus"]) == 2
    assert "--worse" in capsys.readouterr().err
