"""Overflow and fusion facts of one comparison row (core/inspect/overflow.py and fusion.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.inspect import overflow as overflow_mod
from dumpscope.core.inspect.fusion import fusion_facts
from dumpscope.core.inspect.overflow import first_positions, overflow_facts
from dumpscope.core.names import to_filename
from tests.core.diagnosis.test_diagnose import pair_dirs, write_dump
from tests.core.inspect.test_overflow import legacy_payload, op_dump, wrap
from tests.support.paths import SHARED as SHARED_DIR

SAMPLES = SHARED_DIR / "samples" / "ascend"  # shared/ sits beside the repo


def row_of(cmp: Comparison, name: str, side: str | None = None) -> int:
    frame = cmp.frame.with_row_index("row").filter(pl.col("name") == name)
    if side is not None:
        frame = frame.filter(pl.col("side") == side)
    assert frame.height == 1, f"{name!r} is on {frame.height} rows"
    return int(frame["row"][0])


@pytest.fixture(scope="module")
def demo_cmp(demo) -> Comparison:  # type: ignore[no-untyped-def]
    return compare(demo.golden, demo.target, model=demo.model)


def ascend_case(root: Path) -> Comparison:
    """An Ascend target whose Opdebug record (task 7, stream 1) names the op ``right``;
    ``other`` has no record; the golden of ``right`` does not fit float16."""
    g, t = root / "golden", root / "npu"
    g.mkdir()
    t.mkdir()
    np.save(g / "right.npy", np.array([1.0, 2.0, 1e5, -7e4], np.float32))
    np.save(g / "other.npy", np.full(4, 2.0, np.float32))
    op_dump(t / "Mul.right.7.1.1700000000000050", "right", 32752.0)  # output 2x = 65504, saturated
    op_dump(t / "Add.other.8.1.1700000000000060", "other", 1.0)
    wrap(
        t / "Opdebug.Node_OpDebug.99.1.1700000000000100",
        legacy_payload(aicore=0x20 | 0x100, task=7, stream=1),
    )
    return compare(g, t)


# ----------------------------------------------------------------------------- overflow


def test_demo_exp_row_shows_the_target_inf_and_the_golden_overflow_with_positions(
    demo_cmp: Comparison,
) -> None:
    facts = overflow_facts(demo_cmp, row_of(demo_cmp, "frame5/attn/exp:0"))
    assert facts.op_name == "frame5/attn/exp" and facts.flagged and facts.note is None
    target, golden = facts.ranges
    assert target.side == "target" and target.dtype == "float16"
    assert target.finding is not None and target.finding.inf == 1 and len(target.nonfinite_at) == 1
    assert golden.side == "golden" and golden.finding is not None and golden.finding.out_of_range >= 1
    assert golden.finding.max_abs is not None and golden.finding.max_abs > 65504
    # The golden value that overflows is where the target turned Inf.
    assert golden.out_of_range_at[0] == target.nonfinite_at[0]
    assert len(golden.out_of_range_at[0]) == 2  # indices in the tensor's shape, not flat
    assert facts.records == () and facts.opdebug_note is None  # npy dumps have no hardware records


def test_healthy_row_fits(demo_cmp: Comparison) -> None:
    facts = overflow_facts(demo_cmp, row_of(demo_cmp, "frame0/attn/q:0"))
    assert not facts.flagged
    assert [r.side for r in facts.ranges] == ["target", "golden"]
    assert all(
        r.finding is not None and not r.finding.flagged and r.out_of_range_at == () for r in facts.ranges
    )


def test_opdebug_record_is_linked_to_its_row_and_decoded(tmp_path: Path) -> None:
    cmp = ascend_case(tmp_path)
    facts = overflow_facts(cmp, row_of(cmp, "right"))
    (rec,) = facts.records
    assert rec.unit == "AI Core" and [b.mask for b in rec.bits] == [0x20, 0x100]
    assert "floating-point compute overflow" in rec.bits[0].meaning
    assert facts.op_file is not None and facts.op_file.endswith("Mul.right.7.1.1700000000000050")
    assert [(t.name, t.max) for t in facts.op_tensors] == [("input.0", 32752.0), ("output.0", 65504.0)]
    target, golden = facts.ranges
    assert target.finding is not None and target.finding.out_of_range == 4  # saturated at the fp16 limit
    assert golden.finding is not None and golden.finding.out_of_range == 2
    assert golden.out_of_range_at == ((2,), (3,))

    other = overflow_facts(cmp, row_of(cmp, "other"))
    assert (
        other.records == () and other.opdebug_note is not None and "none names this op" in other.opdebug_note
    )


def test_the_opdebug_scan_runs_once_per_target_dump(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cmp = ascend_case(tmp_path)
    from dumpscope.core.diagnosis.engine import diagnose
    from dumpscope.core.vendor import opdebug

    calls: list[Path] = []
    real = opdebug.scan

    def counting(path: Path, with_stats: bool = True) -> object:
        calls.append(path)
        return real(path, with_stats=with_stats)

    monkeypatch.setattr(opdebug, "scan", counting)
    diagnose(cmp)  # the diagnosis groups the same records: one scan serves both
    for _ in range(3):
        for name in ("right", "other"):
            overflow_facts(cmp, row_of(cmp, name))
    # A streamed snapshot is a new Comparison over the same dumps: still no new scan.
    overflow_facts(Comparison(cmp.frame, cmp.thresholds, cmp.meta, cmp.golden, cmp.target, cmp.pairing), 0)
    assert len(calls) == 1


def test_missing_target_dump_directory_is_a_note(tmp_path: Path) -> None:
    cmp = ascend_case(tmp_path)
    shutil.rmtree(tmp_path / "npu")
    facts = overflow_facts(cmp, row_of(cmp, "right"))
    assert facts.opdebug_note is not None and "no longer there" in facts.opdebug_note
    assert all(r.error for r in facts.ranges if r.side == "target")  # the tensor cannot be read either


@pytest.mark.skipif(not (SAMPLES / "opdebug_raw").is_dir(), reason="shared Ascend samples not present")
def test_shared_ascend_opdebug_samples(tmp_path: Path) -> None:
    (tmp_path / "g").mkdir()
    np.save(tmp_path / "g" / "conv1_mul.npy", np.full(16, 1e6, np.float32))
    np.save(tmp_path / "g" / "layer_add.npy", np.full(16, 2000.0, np.float32))
    cmp = compare(tmp_path / "g", SAMPLES / "opdebug_raw")
    add = overflow_facts(cmp, row_of(cmp, "layer_add"))
    assert [r.unit for r in add.records] == ["AIC"] and {b.mask for b in add.records[0].bits} == {0x20, 0x100}
    assert add.ranges[1].finding is not None and not add.ranges[1].finding.flagged  # 2000 fits fp16
    mul = overflow_facts(cmp, row_of(cmp, "conv1_mul"))
    assert [r.status for r in mul.records] == [0x20] and mul.ranges[1].flagged


def test_int8_targets_are_checked_with_their_scale(tmp_path: Path) -> None:
    wide = np.linspace(-25, 25, 256).astype(np.float32)
    q = (np.clip(np.round(wide / 0.1), -128, 127) * 0.1).astype(np.float32)
    cmp = pair_dirs(
        tmp_path,
        [
            {
                "name": "conv2",
                "op": "Conv",
                "data": wide,
                "target": q,
                "quant": {"scale": 0.1, "zero_point": 0, "dtype": "int8"},
            }
        ],
    )
    golden = overflow_facts(cmp, row_of(cmp, "conv2")).ranges[1]
    assert golden.dtype == "int8" and golden.scale == pytest.approx(0.1)
    assert golden.finding is not None and golden.finding.high == pytest.approx(12.7)
    assert golden.finding.out_of_range == int((wide >= 12.7).sum() + (wide <= -12.8).sum())


def test_integer_target_without_scale_does_not_judge_the_golden(tmp_path: Path) -> None:
    g = write_dump(tmp_path / "g", [{"name": "idx", "data": np.arange(8, dtype=np.float32)}])
    t = write_dump(tmp_path / "t", [{"name": "idx", "data": np.array([0, 1, 2, 3, 4, 5, 6, 127], np.int8)}])
    cmp = compare(g, t)
    target, golden = overflow_facts(cmp, 0).ranges
    assert (
        target.finding is not None and target.finding.out_of_range == 1 and target.out_of_range_at == ((7,),)
    )
    assert golden.error is not None and "scale" in golden.error


def test_reopened_comparison_and_bad_rows_give_notes(tmp_path: Path, demo_cmp: Comparison) -> None:
    demo_cmp.save(tmp_path / "c.parquet")
    reopened = Comparison.open(tmp_path / "c.parquet")
    facts = overflow_facts(reopened, 3)
    assert facts.note is not None and "reopened" in facts.note and facts.ranges == ()
    assert overflow_facts(demo_cmp, 10_000).note == "row 10000 is not in this comparison"
    assert overflow_facts(demo_cmp, -1).note is not None


def test_unreadable_tensor_and_odd_names(tmp_path: Path) -> None:
    odd = "blk/a.b:0@\udcff"  # an undecodable byte, kept as a surrogate escape
    g = write_dump(tmp_path / "g", [{"name": odd, "data": np.ones(4, np.float32)}])
    t = write_dump(tmp_path / "t", [{"name": odd, "data": np.ones(4, np.float16)}])
    cmp = compare(g, t)
    (t / to_filename(odd)).write_bytes(b"\x93NUMPY truncated")
    facts = overflow_facts(cmp, 0)
    assert facts.name == "blk/a.b:0@\\xff"
    assert facts.ranges[0].error and facts.ranges[1].finding is not None
    assert fusion_facts(cmp, 0).note  # no crash and a sentence, though nothing is fused


def test_first_positions_streams_and_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(overflow_mod, "_CHUNK", 4)
    a = np.zeros((3, 5), np.float32)
    a[0, 4] = a[1, 3] = a[2, 0] = a[2, 4] = np.inf
    assert first_positions(a, np.isinf, limit=3) == ((0, 4), (1, 3), (2, 0))
    assert first_positions(np.float32(np.nan), np.isnan) == ((0,),)  # a scalar
    assert first_positions(np.ones(7), np.isnan) == ()


# ----------------------------------------------------------------------------- fusion


def _atc_op(
    name: str,
    type_: str,
    id_: int,
    originals: list[str],
    origin: str | None = None,
    passes: tuple[str, ...] = (),
) -> dict[str, object]:
    out_attr = (
        []
        if origin is None
        else [
            {"key": "_datadump_origin_name", "value": {"s": origin}},
            {"key": "_datadump_origin_output_index", "value": {"i": 0}},
        ]
    )
    attr: list[dict[str, object]] = [
        {"key": "_datadump_original_op_names", "value": {"list": {"s": originals}}}
    ]
    if passes:
        attr.append({"key": "pass_name", "value": {"list": {"s": list(passes)}}})
    return {
        "name": name,
        "type": type_,
        "id": id_,
        "input": [],
        "attr": attr,
        "output_desc": [{"dtype": "DT_FLOAT16", "layout": "ND", "shape": {"dim": [8]}, "attr": out_attr}],
    }


def atc_case(root: Path) -> tuple[Path, Path, Path]:
    """Conv_1 + Relu_2 fused into an op that kept the name Conv_1 (and is wrong); a
    TransData the target inserted; Mul_3 + Add_4 fused without saying which it outputs."""
    rng = np.random.default_rng(0)
    conv = rng.standard_normal(8).astype(np.float32)
    relu = np.maximum(conv, 0)
    g, t = root / "golden", root / "npu"
    g.mkdir()
    t.mkdir()
    for i, (name, arr) in enumerate(
        (("Conv_1", conv), ("Relu_2", relu), ("Mul_3", relu * 2), ("Add_4", relu + 1))
    ):
        np.save(g / f"{name}.0.{1700000000000000 + i}.npy", arr)
    np.save(t / "Conv2D.Conv_1.1.1.1700000000000100.output.0.npy", (relu * 1.5).astype(np.float16))
    np.save(t / "TransData.trans_TransData_9.2.1.1700000000000101.output.0.npy", relu.astype(np.float16))
    np.save(t / "Mul.Mul_3.3.1.1700000000000102.output.0.npy", (relu + 1).astype(np.float16))
    graph = {
        "name": "m",
        "graph": [
            {
                "name": "g",
                "op": [
                    _atc_op(
                        "Conv_1",
                        "Conv2D",
                        1,
                        ["Conv_1", "Relu_2"],
                        origin="Relu_2",
                        passes=("ConvReluFusionPass",),
                    ),
                    _atc_op("trans_TransData_9", "TransData", 2, []),
                    _atc_op("Mul_3", "Mul", 3, ["Mul_3", "Add_4"]),
                ],
            }
        ],
    }
    (root / "graph.json").write_text(json.dumps(graph))
    return g, t, root / "graph.json"


def test_fused_row_lists_its_originals_with_their_rows(tmp_path: Path) -> None:
    g, t, graph = atc_case(tmp_path)
    cmp = compare(g, t, graph=graph)
    relu = row_of(cmp, "Relu_2")
    facts = fusion_facts(cmp, relu)
    assert facts.relation == "many-to-one" and facts.role == "fused" and facts.op_name == "Conv_1"
    assert facts.passes == ("ConvReluFusionPass",) and facts.source == "ATC graph graph.json"
    (fused,) = facts.fused
    assert (fused.name, fused.op_type, fused.row, fused.health) == ("Conv_1", "Conv2D", relu, "fail")
    assert fused.cosine is not None and fused.cosine > 0.99
    conv, relu_op = facts.originals
    assert (
        conv.row == row_of(cmp, "Conv_1")
        and conv.health == "unmatched"
        and "golden only" in (conv.note or "")
    )
    assert relu_op.row == relu and relu_op.health == "fail"


def test_golden_only_original_finds_its_group_and_target_only_op_has_no_originals(tmp_path: Path) -> None:
    g, t, graph = atc_case(tmp_path)
    cmp = compare(g, t, graph=graph)
    add = fusion_facts(cmp, row_of(cmp, "Add_4"))
    assert add.role == "original" and [op.name for op in add.fused] == ["Mul_3"]
    assert add.fused[0].row == row_of(cmp, "Mul_3", side="target")
    assert [op.name for op in add.originals] == ["Mul_3", "Add_4"]
    trans = fusion_facts(cmp, row_of(cmp, "trans_TransData_9"))
    assert trans.relation == "target-only" and trans.originals == ()


def test_fusion_facts_survive_a_reopened_comparison_and_a_broken_graph(tmp_path: Path) -> None:
    g, t, graph = atc_case(tmp_path)
    cmp = compare(g, t, graph=graph)
    cmp.save(tmp_path / "c.parquet")
    reopened = Comparison.open(tmp_path / "c.parquet")
    facts = fusion_facts(reopened, row_of(reopened, "Relu_2"))
    assert facts.relation == "many-to-one" and [op.name for op in facts.originals] == ["Conv_1", "Relu_2"]
    graph.write_text("{not json")
    # The live comparison keeps the graph it was parsed with; a reopened one reads the file.
    assert fusion_facts(cmp, row_of(cmp, "Relu_2")).relation == "many-to-one"
    reopened = Comparison.open(tmp_path / "c.parquet")
    broken = fusion_facts(reopened, row_of(reopened, "Relu_2"))
    assert broken.relation is None and broken.note is not None and "not valid JSON" in broken.note
    graph.unlink()
    gone = fusion_facts(reopened, row_of(reopened, "Relu_2"))
    assert gone.note is not None and "cannot read the ATC graph" in gone.note


def test_manifest_fused_from_gives_the_group(tmp_path: Path) -> None:
    x = np.linspace(-2, 2, 64).astype(np.float32)
    golden = [
        {"name": "x", "kind": "input", "data": x},
        {"name": "mid", "node": "tanh", "op": "Tanh", "inputs": ["x"], "data": np.tanh(x)},
        {"name": "out", "node": "mul", "op": "Mul", "inputs": ["mid"], "data": np.tanh(x) * 2},
    ]
    target = [
        {"name": "x", "kind": "input", "data": x.astype(np.float16)},
        {
            "name": "out",
            "node": "tanh_mul_fused",
            "op": "FusedTanhMul",
            "inputs": ["x"],
            "data": (np.tanh(x) * 2.2).astype(np.float16),
        },
    ]
    nodes = [
        {
            "name": "tanh_mul_fused",
            "op_type": "FusedTanhMul",
            "index": 0,
            "inputs": ["x"],
            "outputs": ["out"],
            "fused_from": ["tanh", "mul"],
        }
    ]
    cmp = compare(write_dump(tmp_path / "g", golden), write_dump(tmp_path / "t", target, nodes=nodes))
    facts = fusion_facts(cmp, row_of(cmp, "out"))
    assert facts.source is not None and facts.source.startswith("target manifest")
    assert facts.relation == "many-to-one" and facts.role == "fused"
    assert [(op.name, op.op_type) for op in facts.fused] == [("tanh_mul_fused", "FusedTanhMul")]
    tanh, mul = facts.originals
    assert tanh.row == row_of(cmp, "mid") and tanh.note is not None and "golden only" in tanh.note
    assert mul.row == row_of(cmp, "out") and mul.health == cmp.frame["health"][row_of(cmp, "out")]
    unfused = fusion_facts(cmp, row_of(cmp, "x"))
    assert unfused.relation is None and unfused.note is not None and unfused.note.startswith("not fused")


def test_no_fusion_source_says_what_to_give(demo_cmp: Comparison, tmp_path: Path) -> None:
    g = write_dump(tmp_path / "g", [{"name": "a", "data": np.ones(4, np.float32)}])
    cmp = compare(g, g)
    facts = fusion_facts(cmp, 0)
    assert facts.relation is None and facts.note is not None and "not fused" in facts.note
    bare = Comparison.from_frame(cmp.frame)
    assert "--graph" in (fusion_facts(bare, 0).note or "")
    assert fusion_facts(demo_cmp, 99_999).note == "row 99999 is not in this comparison"
