"""Pairing that survives optimisers: renamed, inlined and re-laid-out outputs pair with the
tensor they really are, by producer and value, never by a loosened name alone (issue 20, item 7)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import polars as pl
from onnx import TensorProto, helper, numpy_helper

from dumpscope.core import compare_frame
from dumpscope.core.comparison.pairing import pair_dumps
from dumpscope.core.dumps import Dump, TensorInfo, TensorRef
from dumpscope.core.onnx.runner import dump_model
from dumpscope.core.vendor.fusion import NCHWC_DOMAIN, blocked_layout_tensors

# ------------------------------------------------------------------ a real optimised graph


def _se_model(path: Path) -> Path:
    """A small CNN with what onnxruntime's ORT_ENABLE_ALL rewrites: an Add of two narrow
    (8-channel) convs read by a Conv and by a Mul, a Concat of two convs read only by a Conv,
    and a squeeze-excite block whose Conv + HardSigmoid is inlined."""
    rng = np.random.default_rng(0)

    def w(name: str, *shape: int) -> onnx.TensorProto:
        return numpy_helper.from_array((rng.standard_normal(shape) * 0.3).astype(np.float32), name)

    c, s = 16, 8
    inits = [
        w("c1.w", c, 3, 3, 3),
        w("c1.b", c),
        w("c2.w", c, c, 3, 3),
        w("c2.b", c),
        w("c3.w", c, c, 1, 1),
        w("c3.b", c),
        w("a1.w", s, c, 1, 1),
        w("a1.b", s),
        w("a2.w", s, c, 3, 3),
        w("a2.b", s),
        w("a3.w", c, s, 1, 1),
        w("a3.b", c),
        w("se1.w", 4, c, 1, 1),
        w("se1.b", 4),
        w("se2.w", c, 4, 1, 1),
        w("se2.b", c),
        w("c4.w", c, 2 * c, 1, 1),
        w("c4.b", c),
    ]
    node = helper.make_node
    nodes = [
        node("Conv", ["x", "c1.w", "c1.b"], ["conv1.out"], name="conv1", pads=[1, 1, 1, 1]),
        node("Relu", ["conv1.out"], ["relu1.out"], name="relu1"),
        node("Conv", ["relu1.out", "a1.w", "a1.b"], ["a1.out"], name="a1"),
        node("Conv", ["relu1.out", "a2.w", "a2.b"], ["a2.out"], name="a2", pads=[1, 1, 1, 1]),
        node("Add", ["a1.out", "a2.out"], ["narrow.out"], name="narrow_add"),
        node("Conv", ["narrow.out", "a3.w", "a3.b"], ["a3.out"], name="a3"),
        node("Mul", ["narrow.out", "narrow.out"], ["sq.out"], name="sq"),
        node("Conv", ["a3.out", "c2.w", "c2.b"], ["conv2.out"], name="conv2", pads=[1, 1, 1, 1]),
        node("Conv", ["a3.out", "c3.w", "c3.b"], ["conv3.out"], name="conv3"),
        node("Concat", ["conv2.out", "conv3.out"], ["cat.out"], name="cat", axis=1),
        node("Conv", ["cat.out", "c4.w", "c4.b"], ["c4.out"], name="conv4"),
        node("GlobalAveragePool", ["c4.out"], ["gap.out"], name="gap"),
        node("Conv", ["gap.out", "se1.w", "se1.b"], ["se1.out"], name="se1"),
        node("Relu", ["se1.out"], ["se_relu.out"], name="se_relu"),
        node("Conv", ["se_relu.out", "se2.w", "se2.b"], ["se2.out"], name="se2"),
        node("HardSigmoid", ["se2.out"], ["hsig.out"], name="hsig", alpha=1 / 6, beta=0.5),
        node("Mul", ["c4.out", "hsig.out"], ["y"], name="scale"),
    ]
    outputs = [
        helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, c, 8, 8]),
        helper.make_tensor_value_info("sq.out", TensorProto.FLOAT, [1, s, 8, 8]),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])
    graph = helper.make_graph(nodes, "se", [x], outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, path)
    return path


def _ort_optimised(src: Path, dst: Path, level: ort.GraphOptimizationLevel) -> Path:
    """onnxruntime's own optimised graph, saved with ``SessionOptions.optimized_model_filepath``."""
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    so.optimized_model_filepath = str(dst)
    so.log_severity_level = 3  # its warning that an ALL graph is machine-specific
    ort.InferenceSession(str(src), so, providers=["CPUExecutionProvider"])
    return dst


def _paired_twice(frame: pl.DataFrame) -> list[str]:
    both = frame.filter(pl.col("side") == "both")["name"].to_list()
    return [n for n, k in Counter(both).items() if k > 1]


def test_an_ort_enable_all_graph_dumped_as_a_model_is_healthy(tmp_path: Path) -> None:
    """The ALL graph's NCHWc tensors keep their node's name under a new tensor name; the
    model's tensor comes back under its own name after a ReorderOutput.  Before this fix:
    ``sq.out`` was paired with the blocked ``reorder_token`` too (an ERR row, listed twice)
    and ``cat.out`` with the blocked Concat (a FAIL, cosine 0.12)."""
    model = _se_model(tmp_path / "se.onnx")
    opt = _ort_optimised(model, tmp_path / "se-all.onnx", ort.GraphOptimizationLevel.ORT_ENABLE_ALL)
    golden = tmp_path / "golden"
    dump_model(model, golden)
    dump_model(opt, tmp_path / "target", inputs={"x": golden / "inputs" / "x.npy"})
    frame = compare_frame(golden, tmp_path / "target")
    assert frame.filter(pl.col("health").is_in(["fail", "error", "warn"])).height == 0
    assert not _paired_twice(frame)
    rows = {r["name"]: r for r in frame.filter(pl.col("side") == "both").iter_rows(named=True)}
    for name in ("y", "sq.out", "hsig.out"):  # the model's tensors, restored by name, compared and equal
        assert rows[name]["target_name"] == name and rows[name]["health"] == "ok"
        g = np.load(golden / rows[name]["golden_file"].split("/")[-1], allow_pickle=False).astype(np.float64)
        t = np.load(tmp_path / "target" / rows[name]["target_file"].split("/")[-1], allow_pickle=False)
        assert np.allclose(g, t, rtol=1e-4, atol=1e-5)  # independent: the pair really is the same tensor
    opt_domains = {n.domain for n in onnx.load(str(opt)).graph.node}
    if NCHWC_DOMAIN in opt_domains:  # x86 with AVX2 or better: the blocked tensors are said, not compared
        target_only = frame.filter(pl.col("side") == "target")
        blocked = target_only.filter(pl.col("message").str.contains("NCHWc blocked layout"))
        assert blocked.height >= 2
        assert set(blocked["op_type"].to_list()) >= {"Mul", "Concat"}  # plain ops run on the blocked copy


def test_the_cli_exits_0_on_the_ort_optimised_graph(tmp_path: Path) -> None:
    model = _se_model(tmp_path / "se.onnx")
    for level, name in (
        (ort.GraphOptimizationLevel.ORT_ENABLE_ALL, "all"),
        (ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED, "ext"),
    ):
        opt = _ort_optimised(model, tmp_path / f"se-{name}.onnx", level)
        golden = tmp_path / "golden"
        if not golden.exists():
            dump_model(model, golden)
        dump_model(opt, tmp_path / name, inputs={"x": golden / "inputs" / "x.npy"})
        cmd = [
            sys.executable,
            "-m",
            "dumpscope",
            "compare",
            str(golden),
            str(tmp_path / name),
            "--format",
            "json",
        ]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        assert done.returncode == 0, (name, done.stderr[-500:])
        rows = json.loads(done.stdout)
        assert not [r["name"] for r in rows if r["health"] in ("fail", "error")]


# ------------------------------------------------------------------ pairing rules, on built dumps


def _ref(name: str, arr: np.ndarray, *, node: str | None = None) -> TensorRef:
    info = TensorInfo(name, str(arr.dtype), tuple(arr.shape), node_name=node)
    return TensorRef(info, loader=lambda: arr)


def _dump(*refs: TensorRef, meta: dict[str, object] | None = None) -> Dump:
    return Dump(Path("mem"), "test", {r.name: r for r in refs}, meta=meta or {})


def _pairs(golden: Dump, target: Dump) -> dict[str, tuple[str | None, str]]:
    """Target name -> (its golden partner or None, how / why)."""
    pairing = pair_dumps(golden, target)
    out = {p.target.name: (p.golden.name if p.golden else None, p.how) for p in pairing.pairs if p.target}
    out.update({p.target.name: (None, p.how) for p in pairing.unmatched_target if p.target})
    return out


def test_a_loose_link_never_takes_a_golden_tensor_a_name_already_took() -> None:
    rng = np.random.default_rng(1)
    add = rng.standard_normal((1, 8, 2, 2)).astype(np.float32)
    blocked = np.zeros((1, 1, 2, 2, 16), np.float32)
    golden = _dump(_ref("add.out", add, node="add"))
    target = _dump(_ref("reshape_token_3", blocked, node="add"), _ref("add.out", add, node="ReorderOutput_1"))
    pairs = _pairs(golden, target)
    assert pairs["add.out"] == ("add.out", "name")
    partner, why = pairs["reshape_token_3"]
    assert partner is None and "already paired by name with 'add.out'" in why
    assert [p.golden.name for p in pair_dumps(golden, target).pairs if p.golden and p.target] == ["add.out"]


def test_of_several_golden_tensors_of_one_sanitised_spelling_the_one_whose_shape_fits_wins() -> None:
    """``hs.out`` and ``hs/out`` both sanitise to ``hs_out``; the first one met used to win."""
    rng = np.random.default_rng(2)
    mul = rng.standard_normal((1, 8, 4, 4)).astype(np.float32)
    hs = rng.uniform(0, 1, (1, 8, 1, 1)).astype(np.float32)
    golden = _dump(_ref("hs.out", mul, node="mul"), _ref("hs/out", hs, node="hsig"))
    target = _dump(_ref("hs_out", hs, node="fused_conv"))
    assert _pairs(golden, target)["hs_out"] == ("hs/out", "sanitised name")


def test_of_same_shape_candidates_the_one_whose_values_agree_wins() -> None:
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal((1, 4, 3, 3)).astype(np.float32) for _ in range(2))
    golden = _dump(_ref("x.a", a), _ref("x/a", b))
    near_b = (b + np.float32(1e-6)).astype(np.float32)
    assert _pairs(golden, _dump(_ref("x_a", near_b)))["x_a"][0] == "x/a"
    assert _pairs(golden, _dump(_ref("x_a", a)))["x_a"][0] == "x.a"


def test_two_target_tensors_of_one_node_the_fitting_shape_wins_and_the_other_says_why() -> None:
    rng = np.random.default_rng(4)
    conv = rng.standard_normal((1, 8, 2, 2)).astype(np.float32)
    golden = _dump(_ref("conv.out", conv, node="conv"))
    target = _dump(
        _ref("tok_a", np.zeros((1, 1, 2, 2, 16), np.float32), node="conv"), _ref("tok_b", conv, node="conv")
    )
    pairs = _pairs(golden, target)
    assert pairs["tok_b"] == ("conv.out", "node output")
    assert pairs["tok_a"][0] is None and "'tok_b' fits it better" in pairs["tok_a"][1]


def test_a_tensor_the_targets_graph_says_is_blocked_is_never_loosely_paired() -> None:
    rng = np.random.default_rng(5)
    cat = rng.standard_normal((1, 32, 2, 2)).astype(np.float32)
    nodes = [
        {
            "name": "c1_nchwc",
            "op_type": "Conv",
            "index": 0,
            "inputs": ["x"],
            "outputs": ["tok_1"],
            "domain": NCHWC_DOMAIN,
        },
        {"name": "cat", "op_type": "Concat", "index": 1, "inputs": ["tok_1", "tok_1"], "outputs": ["tok_2"]},
    ]
    golden = _dump(_ref("cat.out", cat, node="cat"))
    target = _dump(_ref("tok_2", cat[:, np.r_[16:32, 0:16]], node="cat"), meta={"manifest": {"nodes": nodes}})
    partner, why = _pairs(golden, target)["tok_2"]
    assert partner is None and "NCHWc blocked layout" in why and "'cat.out'" in why


def test_blocked_layout_tensors_follow_the_blocked_data_until_reorder_output() -> None:
    n = NCHWC_DOMAIN
    nodes = [
        {"op_type": "ReorderInput", "domain": n, "index": 0, "inputs": ["x"], "outputs": ["r0"]},
        {"op_type": "Conv", "domain": n, "index": 1, "inputs": ["r0", "w"], "outputs": ["r1"]},
        {"op_type": "Reshape", "index": 2, "inputs": ["r1", "shape"], "outputs": ["reshape_token_1"]},
        {"op_type": "Add", "index": 3, "inputs": ["reshape_token_1", "bias"], "outputs": ["reshape_token_2"]},
        {"op_type": "ReorderOutput", "domain": n, "index": 4, "inputs": ["r1"], "outputs": ["conv.out"]},
        {"op_type": "Relu", "index": 5, "inputs": ["conv.out"], "outputs": ["relu.out"]},
    ]
    blocked = set(blocked_layout_tensors(list(reversed(nodes))))
    assert blocked == {"r0", "r1", "reshape_token_1", "reshape_token_2"}
    assert blocked_layout_tensors([{"op_type": "Conv", "index": 0, "inputs": ["x"], "outputs": ["y"]}]) == {}


def test_a_renamed_output_of_a_fused_node_pairs_with_its_groups_output_not_an_intermediate() -> None:
    """A FusedConv keeps the Conv's name; its (renamed) output is the HardSigmoid's, not the Conv's."""
    rng = np.random.default_rng(6)
    conv = rng.standard_normal((1, 8, 1, 1)).astype(np.float32)
    hsig = np.clip(conv / 6 + 0.5, 0, 1).astype(np.float32)
    golden = _dump(_ref("conv.out", conv, node="conv"), _ref("hsig.out", hsig, node="hsig"))
    nodes = [
        {
            "name": "conv",
            "op_type": "FusedConv",
            "index": 0,
            "inputs": ["x"],
            "outputs": ["fused_0"],
            "fused_from": ["conv", "hsig"],
        }
    ]
    target = _dump(_ref("fused_0", hsig, node="conv"), meta={"manifest": {"nodes": nodes}})
    assert _pairs(golden, target)["fused_0"] == ("hsig.out", "fused output")
    off = (hsig + 1).astype(np.float32)  # a faulty fused kernel: still the group's output
    wrong = _dump(_ref("fused_0", off, node="conv"), meta={"manifest": {"nodes": nodes}})
    assert _pairs(golden, wrong)["fused_0"] == ("hsig.out", "fused output")  # by provenance, not by values
