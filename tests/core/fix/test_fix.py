"""``dumpscope fix``: trials against the original golden, greedy growth, 1-minimisation, emitters."""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path

import numpy as np
import onnx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from onnx import TensorProto, helper, numpy_helper

from dumpscope.core.fix.search import Change, FixSearch, Tolerance, changes_from_commands
from dumpscope.core.fix.trial import Measured, relative_distance

# ------------------------------------------------------------ the distance, against a float64 reference


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float32, 12, elements=st.floats(-1e4, 1e4, width=32)),
    arrays(np.float32, 12, elements=st.floats(-1e4, 1e4, width=32)),
)
def test_relative_distance_is_the_float64_euclidean_ratio(g: np.ndarray, t: np.ndarray) -> None:
    diff = math.sqrt(sum((float(a) - float(b)) ** 2 for a, b in zip(g, t, strict=False)))
    norm = math.sqrt(sum(float(a) ** 2 for a in g))
    want = 0.0 if diff == 0 else (diff / norm if norm else math.inf)
    got = relative_distance(g, t)
    assert got == pytest.approx(want, rel=1e-9) or (math.isinf(want) and math.isinf(got))


def test_relative_distance_overflow_and_shape_are_infinite() -> None:
    g = np.array([1.0, 2.0], dtype=np.float32)
    assert relative_distance(g, np.array([1.0, np.inf], dtype=np.float32)) == math.inf
    assert relative_distance(g, np.array([1.0, 2.0, 3.0], dtype=np.float32)) == math.inf
    assert relative_distance(np.array([np.inf]), np.array([np.inf])) == 0.0
    assert (
        relative_distance(np.array([np.nan, 2.0]), np.array([np.nan, 2.0])) == 0.0
    )  # NaN where the golden has it
    assert relative_distance(np.array([np.nan, 2.0]), np.array([np.inf, 2.0])) == math.inf


# ------------------------------------------------------------ the search, on a stub evaluator


class _Facts:
    """Nodes a -> b -> c -> d in a chain (outputs ta..td), td the model output."""

    def __init__(self) -> None:
        from types import SimpleNamespace as NS

        names = ["a", "b", "c", "d"]
        self.nodes = [
            NS(name=n, op_type="Relu", inputs=(f"t{names[i - 1]}",) if i else ("x",), outputs=(f"t{n}",))
            for i, n in enumerate(names)
        ]
        self.producer = {n.outputs[0]: n for n in self.nodes}
        self.graph_outputs = ("td",)

    def tensor_order(self) -> dict[str, int]:
        return {n.outputs[0]: i for i, n in enumerate(self.nodes)}


class _StubEvaluator:
    """The output is within tolerance exactly when ``needed`` are all kept; node b introduces error."""

    target = "fp16"
    inputs = ()  # no graph input to keep: only nodes

    def __init__(self, needed: set[str]) -> None:
        self.facts = _Facts()
        self.golden = {n.outputs[0]: np.ones(2) for n in self.facts.nodes}
        self.layers = tuple(self.golden)
        self.needed = needed
        self.runs: list[frozenset[str]] = []

    def run(self, keep=(), clip=(), more=()):  # type: ignore[no-untyped-def]
        kept = frozenset(keep)
        self.runs.append(kept)
        missing = self.needed - kept
        bad = 0.5 if missing else 0.001
        introduced = {"a": 0.001, "b": 0.5 if "b" in missing else 0.001}
        return Measured(
            {"ta": introduced["a"], "tb": introduced["b"], "tc": max(introduced["b"], 0.001), "td": bad}
        )


def test_seeds_are_minimised_and_each_change_proven_needed() -> None:
    ev = _StubEvaluator({"b", "d"})
    seeds = [Change("keep", n) for n in ("a", "b", "c", "d")]
    result = FixSearch(ev, Tolerance(0.01), budget=20).run(seeds)  # type: ignore[arg-type]
    assert result.found and result.minimal
    assert [c.node for c in result.changes] == ["b", "d"]
    for n in result.needed:  # the proof of each: the final set without it, tried, and failing
        proof = result.trials[n.trial - 1]
        assert set(proof.changes) == set(result.changes) - {n.change} and not proof.passed
        assert n.breaks == (("td", 0.5),)
    assert len(ev.runs) == len(set(ev.runs)) == len(result.trials)  # no set tried twice


def test_growth_adds_the_node_that_introduces_the_error() -> None:
    ev = _StubEvaluator({"b"})
    result = FixSearch(ev, Tolerance(0.01), budget=10).run()  # type: ignore[arg-type]
    assert [c.node for c in result.changes] == ["b"] and result.minimal
    # the empty set is the baseline: no 3rd trial to prove the one change
    assert [t.step for t in result.trials] == ["baseline", "seed"]


class _LayerStub(_StubEvaluator):
    """The output needs ``d`` kept; layer ``tb`` is off unless ``b`` is kept too."""

    def run(self, keep=(), clip=(), more=()):  # type: ignore[no-untyped-def]
        m = super().run(keep, clip)
        return Measured({**m.distances, "tb": 0.001 if "b" in keep else 0.5})


def test_a_marked_layer_must_meet_its_own_tolerance() -> None:
    loose = FixSearch(_LayerStub({"d"}), Tolerance(0.01), budget=10).run()  # type: ignore[arg-type]
    assert [c.node for c in loose.changes] == ["d"]
    tol = Tolerance(0.01, 0.01, ("tb",))
    marked = FixSearch(_LayerStub({"d"}), tol, budget=20).run()  # type: ignore[arg-type]
    assert [c.node for c in marked.changes] == ["b", "d"] and marked.minimal
    assert {n.change.node: n.breaks for n in marked.needed}["b"] == (("tb", 0.5),)


class _ChainStub:
    """``n`` nodes n0 -> n1 -> ... in a chain, the last one's output the model output; the output is within
    tolerance exactly when every node of ``needed`` is kept, and no node stands out as introducing the error
    (every layer but the output is exact): the search must keep a range and minimise it."""

    target = "fp16"
    inputs = ()

    def __init__(self, n: int, needed: set[str]) -> None:
        from types import SimpleNamespace as NS

        names = [f"n{i}" for i in range(n)]
        self.facts = NS(
            nodes=[
                NS(name=m, op_type="Relu", inputs=(f"t{names[i - 1]}",) if i else ("x",), outputs=(f"t{m}",))
                for i, m in enumerate(names)
            ],
            graph_outputs=(f"t{names[-1]}",),
        )
        self.facts.producer = {node.outputs[0]: node for node in self.facts.nodes}
        self.facts.tensor_order = lambda: {f"t{m}": i for i, m in enumerate(names)}
        self.golden = {f"t{m}": np.ones(2) for m in names}
        self.layers = tuple(self.golden)
        self.needed = needed
        self.runs: list[frozenset[str]] = []

    def run(self, keep=(), clip=(), more=()):  # type: ignore[no-untyped-def]
        self.runs.append(frozenset(keep))
        out = 0.5 if self.needed - set(keep) else 0.001
        return Measured({**dict.fromkeys(self.layers, 0.0), self.layers[-1]: out})


@pytest.mark.parametrize("needed", [{"n4"}, {"n2", "n11"}, {"n0", "n7", "n8", "n13"}])
def test_a_range_is_cut_down_in_chunks_and_every_change_is_still_proven(needed: set[str]) -> None:
    ev = _ChainStub(16, needed)
    result = FixSearch(ev, Tolerance(0.01), budget=60).run()  # type: ignore[arg-type]
    assert result.found and result.minimal
    assert {c.node for c in result.changes} == needed
    for n in result.needed:  # each proof: a trial of exactly the final set without that change, failing
        proof = result.trials[n.trial - 1]
        assert set(proof.changes) == set(result.changes) - {n.change} and not proof.passed
    assert len(ev.runs) == len(set(ev.runs)) == len(result.trials)
    if len(needed) <= 2:  # a sparse range: one removal a node would take 15 trials (16 nodes, one grown)
        assert sum(t.step == "minimise" for t in result.trials) < 15


def test_a_long_range_is_first_cut_to_its_shortest_passing_run() -> None:
    """Trouble that travels (a stretched calibration near the input): a contiguous run of 6 among 100 nodes.
    The prefix and suffix halvings find the run in 2 x 7 trials; each of its 6 changes is then proven."""
    needed = {f"n{i}" for i in range(20, 26)}
    ev = _ChainStub(100, needed)
    result = FixSearch(ev, Tolerance(0.01), budget=80).run()  # type: ignore[arg-type]
    assert result.found and result.minimal
    assert {c.node for c in result.changes} == needed
    for n in result.needed:
        proof = result.trials[n.trial - 1]
        assert set(proof.changes) == set(result.changes) - {n.change} and not proof.passed
    assert len(ev.runs) == len(set(ev.runs)) == len(result.trials)
    # baseline, one grow, the whole range, 2 x ceil(log2(99)) halvings, then at most 2 trials a change
    assert len(result.trials) <= 3 + 2 * 7 + 2 * len(needed)


def test_budget_bounds_the_trials_and_says_so() -> None:
    ev = _StubEvaluator({"b", "d"})
    seeds = [Change("keep", n) for n in "abcd"]
    result = FixSearch(ev, Tolerance(0.01), budget=2).run(seeds)  # type: ignore[arg-type]
    assert len(ev.runs) == 2 and result.found and not result.minimal
    assert any("budget (2) ran out" in n for n in result.notes)


class _ErrorChain(_ChainStub):
    """A chain n0 -> ... whose nodes each add ``adds[node]`` to the distance of everything after them unless
    kept; the output (the last node) is 0.2 farther for each of ``needed`` left unkept, within tolerance
    only when all are kept.  ``missing`` tensors are not computed by the target
    (infinite distance, in ``Measured.missing``): a BatchNormalization folded into its Conv."""

    def __init__(self, n: int, needed: set[str], adds: dict[str, float], missing: set[str] = frozenset()):  # type: ignore[assignment]
        super().__init__(n, needed)
        self.adds, self.missing = adds, {f"t{m}" for m in missing}

    def run(self, keep=(), clip=(), more=()):  # type: ignore[no-untyped-def]
        self.runs.append(frozenset(keep))
        d, total = {}, 0.0
        for t in self.layers[:-1]:
            total += 0.0 if t[1:] in keep else self.adds.get(t[1:], 0.0)
            d[t] = math.inf if t in self.missing else total
        left = self.needed - set(keep)
        d[self.layers[-1]] = 0.001 + 0.2 * len(left)
        return Measured(d, missing=frozenset(self.missing))


def _proofs_are_the_final_set_minus_one(result) -> None:  # type: ignore[no-untyped-def]
    assert result.found and result.minimal
    for n in result.needed:
        proof = result.trials[n.trial - 1]
        assert set(proof.changes) == set(result.changes) - {n.change} and not proof.passed


def test_a_needed_node_under_the_tolerance_is_seeded_from_the_baseline() -> None:
    """The node that matters adds 0.02 (under the 0.1 tolerance, over a tenth of it): the baseline's ranking
    seeds it with the output's node; QuickXplain tries the best ranked alone (passes), and the baseline is
    its proof: 2 trials after the baseline, where growing only nodes beyond the tolerance took a range."""
    ev = _ErrorChain(6, {"n2"}, {"n2": 0.02})
    result = FixSearch(ev, Tolerance(0.1), budget=20).run()  # type: ignore[arg-type]
    _proofs_are_the_final_set_minus_one(result)
    assert [c.node for c in result.changes] == ["n2"]
    assert [(t.step, len(t.changes), t.passed) for t in result.trials] == [
        ("baseline", 0, False),
        ("seed", 2, True),  # n2 (error from exact inputs) and n5 (the output: 0.201 over 0.02)
        ("minimise", 1, True),
    ]
    assert result.needed[0].trial == 1  # the baseline is the final set minus its one change


def test_a_tensor_the_target_does_not_compute_is_no_overflow() -> None:
    """t1 is missing from the target (infinite distance): n1 is not ranked as an overflow, nor is everything
    after it taken for an overflow's aftermath; n3's error is found behind it."""
    ev = _ErrorChain(6, {"n3"}, {"n3": 0.3}, missing={"n1"})
    result = FixSearch(ev, Tolerance(0.1), budget=20).run()  # type: ignore[arg-type]
    _proofs_are_the_final_set_minus_one(result)
    assert [c.node for c in result.changes] == ["n3"]
    # the output (0.201) adds nothing over n3's 0.3: n3 is the only one ranked, and the baseline its proof
    assert [(t.step, len(t.changes), t.passed) for t in result.trials] == [
        ("baseline", 0, False),
        ("seed", 1, True),
    ]
    assert Change("keep", "n1") not in {c for t in result.trials for c in t.changes}


def test_growth_takes_doubling_blocks_of_the_ranked_list() -> None:
    """Four needed nodes, each adding 0.05: the seed takes the top two (n1 from exact inputs, the output's
    n9), then blocks of 2 and 4 of the re-ranked list: 3 growth trials for 5 changes where one node a trial
    takes 5; the output's node then goes and each of the 4 is proven on the final set."""
    needed = {"n1", "n3", "n5", "n7"}
    ev = _ErrorChain(10, needed, dict.fromkeys(needed, 0.05))
    result = FixSearch(ev, Tolerance(0.01), budget=40).run()  # type: ignore[arg-type]
    _proofs_are_the_final_set_minus_one(result)
    assert {c.node for c in result.changes} == needed
    growth = [(t.step, len(t.changes), t.passed) for t in result.trials if t.step in ("seed", "grow")]
    assert growth == [("seed", 2, False), ("grow", 4, False), ("grow", 5, True)]
    assert len(ev.runs) == len(set(ev.runs)) == len(result.trials)
    # 4 proofs (1-minimality of k changes costs k trials) and the output's node removed
    assert len(result.trials) - 1 - len(growth) >= len(needed)


def test_an_error_spread_over_many_nodes_is_said_so_when_the_budget_runs_out() -> None:
    needed = {f"n{i}" for i in range(1, 25, 2)}
    ev = _ErrorChain(28, needed, dict.fromkeys(needed, 0.05))
    result = FixSearch(ev, Tolerance(0.01), budget=4).run()  # type: ignore[arg-type]
    assert not result.minimal and len(result.trials) == 4
    # an independent count on the failing trial closest to the tolerance (the smallest output distance):
    # nodes not kept, farther than a tenth of the tolerance and than the node before them
    closest = min((t for t in result.trials if not t.passed), key=lambda t: t.failing[0][1])
    kept = {c.node for c in closest.changes}
    d = ev.run(keep=kept).distances
    names = list(d)
    adding = [
        n
        for i, n in enumerate(names)
        if n[1:] not in kept and d[n] > 0.001 and d[n] > (d[names[i - 1]] if i else 0.0)
    ]
    assert set(adding) == {f"t{n}" for n in needed - kept} and adding  # by construction: the needed left
    assert any(
        f"(trial {closest.number}, {len(kept)} change(s)) {len(adding)} more node(s) each add error" in n
        for n in result.notes
    )


def test_changes_from_patch_commands() -> None:
    cmds = ["dumpscope patch m.onnx -o p.onnx --clip attn/scale=-inf,9.5 --keep-fp32 attn/exp ghost"]
    assert changes_from_commands(cmds, {"attn/scale", "attn/exp"}) == [
        Change("clip", "attn/scale", -math.inf, 9.5),
        Change("keep", "attn/exp"),
    ]


# ------------------------------------------------------------ a real model: overflow under the fp16 recipe


def _overflow_model(path: Path) -> Path:
    """x -> Mul(300) -> ReduceSum of squares (Mul x x) -> Sqrt -> out; the sum of squares exceeds 65504 in
    fp16 for |x| ~ 1 (an unnamed node among them), while float32 is fine."""
    scale = numpy_helper.from_array(np.array(300.0, dtype=np.float32), "scale")
    nodes = [
        helper.make_node("Mul", ["x", "scale"], ["xs"], name="scale_mul"),
        helper.make_node("Mul", ["xs", "xs"], ["sq"]),  # unnamed: Mul_1
        helper.make_node("ReduceSum", ["sq"], ["ss"], name="sumsq", keepdims=1),
        helper.make_node("Sqrt", ["ss"], ["out"], name="norm"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 1])],
        [scale],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, path)
    return path


def test_fix_finds_the_minimal_set_on_a_real_overflow(tmp_path: Path) -> None:
    import onnxruntime as ort

    from dumpscope.core.fix import find_fix

    model = _overflow_model(tmp_path / "m.onnx")
    x = (np.arange(8, dtype=np.float32) / 8 + 0.5).reshape(1, 8)
    np.save(tmp_path / "x.npy", x)
    result = find_fix(model, "fp16", inputs=[f"x={tmp_path / 'x.npy'}"], budget=20)
    assert result.found and result.minimal
    kept = {c.node for c in result.changes}
    # Independently: in float64, which tensors exceed the float16 range? (those nodes must be kept)
    sq = (x.astype(np.float64) * 300) ** 2
    assert sq.max() > 65504 and sq.sum() > 65504
    assert kept == {"Mul_1", "sumsq"}  # the unnamed square is addressable by its msit name
    assert not result.before.passed and math.isinf(result.before.worst_output[1])
    golden = ort.InferenceSession(str(model)).run(None, {"x": x})[0]
    assert result.after.passed and result.after.worst_output[1] <= 0.01
    assert np.isfinite(golden).all()
    for n in result.needed:
        assert n.breaks and math.isinf(n.breaks[0][1])  # without either, the output overflows


def test_emit_writes_each_toolchain_and_onnxconverter_accepts_the_list(tmp_path: Path) -> None:
    from dumpscope.core.fix.emit import FILES, emit

    model = onnx.load(_overflow_model(tmp_path / "m.onnx"))
    written = emit(model, [Change("keep", "Mul_1"), Change("keep", "sumsq")], tmp_path / "out")
    assert [p.name for p in written] == list(FILES)
    out = tmp_path / "out"
    fixed = onnx.load(out / "model.fixed.onnx")
    onnx.checker.check_model(fixed)
    assert {n.name for n in fixed.graph.node} >= {"Mul_1", "sumsq"}  # the unnamed node got its name
    block = json.loads((out / "onnxconverter_common.json").read_text())["node_block_list"]
    assert block == ["Mul_1", "sumsq"]
    assert (out / "atc_keep_dtype.cfg").read_text().splitlines() == block
    mixlist = json.loads((out / "atc_modify_mixlist.json").read_text())
    assert mixlist == {"black-list": {"to-add": ["Mul", "ReduceSum"]}}
    assert json.loads((out / "nncf_ignored_scope.json").read_text()) == {"ignored_scope": {"names": block}}
    trt = (out / "tensorrt_layer_precisions.txt").read_text()
    assert "--layer-precisions Mul_1:float32 sumsq:float32" in trt
    assert "--layerPrecisions=Mul_1:fp32,sumsq:fp32" in trt
    line = shlex.split(trt.splitlines()[0])  # the Polygraphy command, parsed back by Polygraphy (installed)
    args = line[line.index("--layer-precisions") + 1 : line.index("-o")]
    assert line[line.index("--precision-constraints") + 1] == "obey"
    try:
        from polygraphy.tools.args import util as args_util
    except ImportError:
        args_util = None
    if args_util is not None:
        parsed = args_util.parse_arglist_to_dict(args, allow_empty_key=False)
        assert parsed == {"Mul_1": "float32", "sumsq": "float32"}
    rknn = (out / "rknn_hybrid_quantization.cfg").read_text()
    assert 'custom_quantize_layers:\n    "sq": float16\n    "ss": float16' in rknn
    assert (out / "sigmastar_input_config.ini").read_text().startswith("[CONV_CONFIG]\n")
    _nncf_matches(fixed, block)
    f16 = pytest.importorskip("onnxconverter_common.float16")
    converted = f16.convert_float_to_float16(fixed, keep_io_types=True, node_block_list=block)
    onnx.checker.check_model(converted)
    by_name = {n.name: n for n in converted.graph.node}
    assert "Mul_1" in by_name and "sumsq" in by_name  # the blocked nodes are still there, fed through Casts
    assert any(n.op_type == "Cast" for n in converted.graph.node)


def _nncf_matches(model: onnx.ModelProto, names: list[str]) -> None:
    """NNCF, where installed, matches every ignored_scope name to a node of the fixed model (strictly)."""
    try:
        import nncf
        from nncf.onnx.graph.nncf_graph_builder import GraphConverter
        from nncf.scopes import get_ignored_node_names_from_ignored_scope
    except ImportError:
        return
    graph = GraphConverter.create_nncf_graph(model)
    matched = get_ignored_node_names_from_ignored_scope(nncf.IgnoredScope(names=names), graph, strict=True)
    assert matched == set(names)
    with pytest.raises(nncf.ValidationError):  # and it does refuse a name that is not there
        get_ignored_node_names_from_ignored_scope(nncf.IgnoredScope(names=["ghost"]), graph, strict=True)


def test_kept_nodes_are_left_out_of_int8_and_keep_their_fp32_weights(tmp_path: Path) -> None:
    from dumpscope.core.onnx.fp16_target import prepare_fp16
    from dumpscope.core.onnx.graph import graph_facts
    from dumpscope.core.onnx.int8_target import prepare_int8
    from dumpscope.core.onnx.patch import patch_model

    model = onnx.load(_overflow_model(tmp_path / "m.onnx"))
    patched = patch_model(model, keep_fp32=["scale_mul"]).model
    facts = graph_facts(patched.graph)
    (tmp_path / "w").mkdir()
    types = {o: "tensor(float)" for o in ("x", "xs", "sq", "ss", "out")}
    fp16 = prepare_fp16(patched, facts, tmp_path / "w", None, types)
    assert not fp16.clamped and "scale" not in {c["name"] for c in fp16.clamped}
    run = onnx.load(fp16.path)
    scale = next(t for t in run.graph.initializer if t.name == "scale")
    assert numpy_helper.to_array(scale).dtype == np.float32  # read only by the kept node: left in float32
    (tmp_path / "q").mkdir()
    x = np.ones((1, 8), dtype=np.float32)
    q = onnx.load(prepare_int8(patched, facts, tmp_path / "q", None, [{"x": x}]).path)
    mul = next(n for n in q.graph.node if n.name == "scale_mul")
    producers = {o: n.op_type for n in q.graph.node for o in n.output}
    assert all(producers.get(i) != "DequantizeLinear" for i in mul.input)  # left in float


# ------------------------------------------------------------ the command


def test_fix_command_json_and_usage_errors(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from dumpscope.core.fix.emit import FILES
    from dumpscope.tui.cli.main import main

    model = _overflow_model(tmp_path / "m.onnx")
    np.save(tmp_path / "x.npy", np.full((1, 8), 0.9, dtype=np.float32))
    assert main(["fix", str(model), "--target", "fp16", "--tolerance", "output=abc"]) == 2
    assert main(["fix", str(model), "--target", "fp16", "--budget", "0"]) == 2
    code = main(
        [
            "fix",
            str(model),
            "--target",
            "fp16",
            "--input",
            f"x={tmp_path / 'x.npy'}",
            "--json",
            "--no-diagnosis",
            "--emit",
            str(tmp_path / "e"),
        ]
    )
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert code == 0 and data["found"] and data["minimal"]
    assert [c["node"] for c in data["changes"]] == ["Mul_1", "sumsq"]
    assert data["before"]["worst_output"]["relative_distance"] == "inf"
    assert "fix: trial 1/" in out.err and len(data["emitted"]) == len(FILES)


def test_same_input_same_fix(tmp_path: Path) -> None:
    from dumpscope.core.fix import find_fix

    model = _overflow_model(tmp_path / "m.onnx")
    runs = [json.dumps(find_fix(model, "fp16", budget=12).to_json(), sort_keys=True) for _ in range(2)]
    assert runs[0] == runs[1]


# ------------------------------------------------------------ diagnose --fix: the search from a diagnosis


def test_diagnose_fix_runs_the_search_on_the_pair_and_proves_the_advised_clip(demo, capsys) -> None:  # type: ignore[no-untyped-def]
    """The demo's fp16 overflow (Exp of a scaled score): diagnose --fix seeds the search with its own advice,
    on the golden dump's inputs of the overflowing frame, and proves the set against the ORIGINAL golden."""
    from dumpscope.tui.cli.main import main

    code = main(
        ["diagnose", str(demo.golden), str(demo.target), "--model", str(demo.model), "--fix", "--json"]
    )
    out = capsys.readouterr()
    data = json.loads(out.out)
    fix = data["fix"]
    assert code == 1 and fix["found"] and fix["minimal"] and fix["target"] == "fp16"
    assert fix["before"]["worst_output"]["relative_distance"] == "inf"  # the frame that overflows
    assert fix["seeds"] and fix["changes"]
    assert set(map(json.dumps, fix["changes"])) <= set(map(json.dumps, fix["seeds"]))  # cut down from advice
    for need in fix["needed"]:  # each change's proof: a trial of the final set without it, failing
        proof = fix["trials"][need["trial"] - 1]
        assert not proof["passed"] and len(proof["changes"]) == len(fix["changes"]) - 1
    assert "fix: trial 1/" in out.err


def test_diagnose_fix_says_what_is_missing(tmp_path: Path, demo, capsys) -> None:  # type: ignore[no-untyped-def]
    from dumpscope.tui.cli.main import main

    assert main(["diagnose", str(demo.golden), str(demo.golden), "--fix"]) == 2  # a golden is no target
    assert "--fix: the target dump was made for no target" in capsys.readouterr().err


# ------------------------------------------------------------ bf16: a node kept in float32


def _cancellation_model(path: Path) -> Path:
    """out = (x + 1000) - 1000: bfloat16 storage of x + 1000 (8 significant bits: a step of 4 there) wipes x
    out, while float32 keeps it."""
    big = numpy_helper.from_array(np.array(1000.0, dtype=np.float32), "big")
    big2 = numpy_helper.from_array(np.array(1000.0, dtype=np.float32), "big2")
    nodes = [
        helper.make_node("Add", ["x", "big"], ["shifted"], name="shift"),
        helper.make_node("Sub", ["shifted", "big2"], ["out"], name="unshift"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 8])],
        [big, big2],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    return path


def test_bf16_fix_keeps_the_cancelling_node_in_float32(tmp_path: Path) -> None:
    import ml_dtypes

    from dumpscope.core.fix import find_fix

    model = _cancellation_model(tmp_path / "m.onnx")
    x = (np.arange(8, dtype=np.float32) / 8 + 0.5).reshape(1, 8)
    np.save(tmp_path / "x.npy", x)
    result = find_fix(model, "bf16", inputs=[f"x={tmp_path / 'x.npy'}"], budget=10)
    # Independently, in numpy: bf16 storage of every tensor (ml_dtypes), then the same with 'shift' in float32
    bf = lambda a: np.asarray(a, np.float32).astype(ml_dtypes.bfloat16).astype(np.float64)  # noqa: E731
    golden = (x.astype(np.float64) + 1000) - 1000
    stored = bf(bf(bf(x) + 1000) - 1000)
    kept = bf((bf(x).astype(np.float32) + np.float32(1000)) - 1000)
    dist = lambda t: float(np.linalg.norm(t - golden) / np.linalg.norm(golden))  # noqa: E731
    assert dist(stored) > 0.03 >= dist(kept)
    assert result.found and result.minimal and result.target == "bf16"
    assert [c.node for c in result.changes] == ["shift"]
    assert result.before.worst_output[1] == pytest.approx(dist(stored), rel=1e-6)
    assert result.after.worst_output[1] == pytest.approx(dist(kept), rel=1e-3)
    assert result.needed[0].breaks[0][0] == "out"


# ------------------------------------------------------------ emitted files against the vendors' docs


def _conv_model(path: Path) -> Path:
    """x -> Conv (named 'c1') -> Relu ('act') -> Conv ('c2') -> out."""
    w1 = numpy_helper.from_array(np.ones((2, 1, 1, 1), dtype=np.float32), "w1")
    w2 = numpy_helper.from_array(np.ones((1, 2, 1, 1), dtype=np.float32), "w2")
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["y1"], name="c1"),
        helper.make_node("Relu", ["y1"], ["y2"], name="act"),
        helper.make_node("Conv", ["y2", "w2"], ["out"], name="c2"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 2])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 1, 2, 2])],
        [w1, w2],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    return path


def test_a_batchnorm_the_int8_recipe_folds_is_missing_not_an_overflow() -> None:
    """The int8 recipe folds a BatchNormalization into its Conv: its output is not in the target (infinite
    distance, named in ``missing``); the ranking reads the Relu after it against the Conv's distance."""
    from dumpscope.core.fix.trial import Evaluator
    from dumpscope.core.onnx.inputs import ModelInput

    rng = np.random.default_rng(0)
    params = {"s": (0.5, 2.0), "b": (-1.0, 1.0), "m": (-1.0, 1.0), "v": (0.5, 2.0)}
    inits = [numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "w")]
    inits += [numpy_helper.from_array(rng.uniform(*r, 4).astype(np.float32), n) for n, r in params.items()]
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["bn"], name="bn"),
        helper.make_node("Relu", ["bn"], ["out"], name="act"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 4, 8, 8])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    x = rng.standard_normal((1, 3, 8, 8)).astype(np.float32)
    with Evaluator(model, "int8", [ModelInput("x", x, False)]) as ev:
        search = FixSearch(ev, Tolerance(0.001), budget=2)
        base = search.trial((), "baseline")
        m = search.measured[frozenset()]
        assert m.missing == {"bn"} and m.distances["bn"] == math.inf
        assert 0 < m.distances["c"] < 1 and 0 < m.distances["out"] < 1  # both measured, quantisation error
        ranked = search._ranked(base, set())
    # the Conv adds error to exact inputs; the Relu is judged against the Conv's distance (the BN passes it
    # on), not taken for an overflow's aftermath; the BN itself is not ranked
    ratio = m.distances["out"] / m.distances["c"]
    assert ranked == (["conv", "act"] if ratio > 1 else ["conv"])


def test_emitted_vendor_files_follow_their_documented_formats(tmp_path: Path) -> None:
    """Each file checked against its public format description (core/fix/emit.py names the sources):
    ATC --keep_dtype (hiascend atlasatcparam_16_0074: one operator name per line), --modify_mixlist
    (atlasatcparam_16_0071: black-list/white-list/gray-list, each to-add/to-remove, op types), SigmaStar
    input_config.ini [CONV_CONFIG] (IPU toolchain docs §1.1; tensor_arrays='a,b'; of convolution inputs),
    RKNN-Toolkit2 hybrid quantisation (rockchip-linux/rknn-toolkit2 examples/functions/hybrid_quant/step1.py:
    custom_quantize_layers: {output tensor name: int8|int16|float16}), trtexec --layerPrecisions
    (TensorRT samples/common/sampleOptions.cpp: spec ::= layerName":"precision[","spec])."""
    import configparser

    yaml = pytest.importorskip("yaml")
    from dumpscope.core.fix.emit import emit

    model = onnx.load(_conv_model(tmp_path / "m.onnx"))
    emit(model, [Change("keep", "act"), Change("keep", "c2")], tmp_path / "e", target="bf16")
    e = tmp_path / "e"
    names = {n.name for n in onnx.load(e / "model.fixed.onnx").graph.node}
    keep_lines = (e / "atc_keep_dtype.cfg").read_text().splitlines()
    assert keep_lines == ["act", "c2"] and set(keep_lines) <= names  # one operator name a line, nothing else
    mix = json.loads((e / "atc_modify_mixlist.json").read_text())
    assert set(mix) <= {"black-list", "white-list", "gray-list"}
    assert all(set(v) <= {"to-add", "to-remove"} for v in mix.values())
    assert mix["black-list"]["to-add"] == ["Conv", "Relu"]
    ini = configparser.ConfigParser(comment_prefixes=("#",))
    ini.read_string((e / "sigmastar_input_config.ini").read_text())
    assert ini.sections() == ["CONV_CONFIG"]
    value = ini["CONV_CONFIG"]["tensor_arrays"]
    assert value.startswith("'") and value.endswith("';")
    conv_inputs = {"x", "y2"}  # c2 is kept itself; 'act' is no convolution: the convolutions around it
    assert set(value[1:-2].split(",")) == conv_inputs
    rknn = yaml.safe_load((e / "rknn_hybrid_quantization.cfg").read_text())
    assert rknn == {"custom_quantize_layers": {"y2": "float16", "out": "float16"}}
    assert set(rknn["custom_quantize_layers"].values()) <= {"int8", "int16", "float16"}
    lines = (e / "tensorrt_layer_precisions.txt").read_text().splitlines()
    trtexec = shlex.split(lines[1])
    assert trtexec[:3] == ["trtexec", "--onnx=MODEL.onnx", "--bf16"]
    assert "--precisionConstraints=obey" in trtexec
    spec = next(a for a in trtexec if a.startswith("--layerPrecisions=")).split("=", 1)[1]
    parsed = [layer.rsplit(":", 1) for layer in spec.split(",")]
    assert parsed == [["act", "fp32"], ["c2", "fp32"]]
    assert all(p in {"fp32", "fp16", "bf16", "int32", "int8"} and n.count("*") <= 1 for n, p in parsed)


def test_trtexec_cannot_name_a_layer_with_a_comma_and_says_so(tmp_path: Path) -> None:
    from dumpscope.core.fix.emit import _tensorrt

    text = _tensorrt(["a,b", "c"])
    assert "trtexec --onnx" not in text and "cannot name 'a,b'" in text
    assert "--layer-precisions a,b:float32 c:float32" in text  # Polygraphy takes it (one argument each)
