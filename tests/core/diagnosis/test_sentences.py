"""Issue 20: every sentence the diagnosis prints comes from a fact.

The evidence, advice and verdict templates are enumerated from the code (every function of
the diagnosis modules below holding an f-string or a sentence literal): each must be rendered
by a case here, which a profiler confirms, so a new template without a case fails
:func:`test_every_template_has_a_case`.  Each case checks its sentences against the facts they
were built from: the numbers printed equal the computed values at print precision, and no
replay, layout or cause claim appears without the computed fact behind it.  The real cases
run small ONNX models through onnxruntime (a modified model for the target, never edited
numbers) and recompute their facts independently in float64.
"""

from __future__ import annotations

import ast
import functools
import math
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import onnx
import polars as pl
import pytest
from onnx import TensorProto, helper

import dumpscope.core.diagnosis as diagnosis_package
from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis import advice as advice_module
from dumpscope.core.diagnosis import effects, engine, patch_commands, vendor_facts
from dumpscope.core.diagnosis import replay as replay_module
from dumpscope.core.diagnosis.advice import TargetKind, advice_for
from dumpscope.core.diagnosis.checks import Finding, PatchAction
from dumpscope.core.diagnosis.checks import advice as check_advice
from dumpscope.core.diagnosis.checks import constants as constants_check
from dumpscope.core.diagnosis.checks import overflow as overflow_check
from dumpscope.core.diagnosis.checks.saturation import Rail, _finding, _held
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.diagnosis.replay import Replay, Replayer
from dumpscope.core.diagnosis.subgraph import model_source
from dumpscope.core.onnx.runner import dump_model

ROOT = Path(diagnosis_package.__file__).parent
#: The diagnosis modules whose sentences are checked here (evidence, advice, verdict).
TEMPLATE_MODULES = (
    "engine",
    "vendor_facts",
    "patch_commands",
    "replay",
    "effects",
    "classify",
    "checks/overflow",
    "checks/constants",
    "checks/saturation",
)
#: Claims that need a replay that ran, by the replay verdict that supports them.
REPLAY_CLAIMS = {
    "does not match the target": "differs",
    "replay on the target's own inputs does not match": "differs",
    "computes faithfully": "faithful",
    "computed faithfully": "faithful",
    "replay of the node on the target's inputs matches": "faithful",
}


def g3(x: float) -> str:
    return f"{x:.3g}"


# ----------------------------------------------------------------- the templates and their cases


def _sentences(fn: ast.FunctionDef) -> Iterable[ast.AST]:
    """The f-strings and sentence literals (three words or more) of a function, docstring aside."""
    doc = ast.get_docstring(fn, clean=False)
    for node in ast.walk(fn):
        if isinstance(node, ast.JoinedStr):
            yield node
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value != doc
            and len(node.value.split()) >= 3
        ):
            yield node


def template_functions() -> set[str]:
    """``module:function`` of every function of :data:`TEMPLATE_MODULES` that writes sentences."""
    found = set()
    for module in TEMPLATE_MODULES:
        tree = ast.parse((ROOT / f"{module}.py").read_text())
        found |= {
            f"{module}:{n.name}"
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef) and any(True for _ in _sentences(n))
        }
    return found


COVERS: dict[str, tuple[str, ...]] = {}


def renders(*functions: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a case rendering ``functions`` (``module:function``); the profiler checks it calls each."""

    def wrap(case: Callable[..., None]) -> Callable[..., None]:
        COVERS[case.__name__] = functions

        @functools.wraps(case)
        def run(*args: Any, **kwargs: Any) -> None:
            called: set[str] = set()

            def profile(frame: Any, event: str, arg: Any) -> None:
                if event == "call":
                    path = Path(frame.f_code.co_filename)
                    if path.is_relative_to(ROOT):
                        module = path.relative_to(ROOT).with_suffix("").as_posix()
                        called.add(f"{module}:{frame.f_code.co_name}")

            sys.setprofile(profile)
            try:
                case(*args, **kwargs)
            finally:
                sys.setprofile(None)
            assert set(functions) <= called, f"not rendered: {sorted(set(functions) - called)}"

        return run

    return wrap


def no_unfounded_replay_claim(sentence: str, replay: Replay | None) -> None:
    """A sentence claims what a replay measured only when a replay with that verdict ran."""
    for claim, verdict in REPLAY_CLAIMS.items():
        if claim in sentence:
            assert replay is not None and replay.verdict == verdict, (claim, sentence)


# ----------------------------------------------------------------- real cases (onnxruntime)


def _resize_model(nearest_mode: str) -> onnx.ModelProto:
    """x[1,1,6,6] -> Mul(w) -> Resize(x1.5 nearest) -> Relu -> y."""
    inits = [
        onnx.numpy_helper.from_array(np.array([1, 1, 1.5, 1.5], np.float32), "scales"),
        onnx.numpy_helper.from_array(np.full((1, 1, 1, 1), 1.5, np.float32), "w"),
    ]
    nodes = [
        helper.make_node("Mul", ["x", "w"], ["scaled"], name="scale"),
        helper.make_node(
            "Resize",
            ["scaled", "", "scales"],
            ["resized"],
            name="resize",
            mode="nearest",
            coordinate_transformation_mode="asymmetric",
            nearest_mode=nearest_mode,
        ),
        helper.make_node("Relu", ["resized"], ["y"], name="relu"),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 6, 6])
    graph = helper.make_graph(
        nodes, "m", [x], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=inits
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _chain_model() -> onnx.ModelProto:
    """x[1,8,32] -> 10 x (MatMul -> Tanh) -> y: the fp16 recipe drifts along it."""
    rng = np.random.default_rng(5)
    nodes, inits, prev = [], [], "x"
    for k in range(10):
        w = (rng.standard_normal((32, 32)) * 0.9).astype(np.float32)
        inits.append(onnx.numpy_helper.from_array(w, f"w{k}"))
        nodes += [
            helper.make_node("MatMul", [prev, f"w{k}"], [f"m{k}"], name=f"matmul{k}"),
            helper.make_node("Tanh", [f"m{k}"], [f"t{k}"], name=f"tanh{k}"),
        ]
        prev = f"t{k}"
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 32])
    y = helper.make_tensor_value_info(prev, TensorProto.FLOAT, None)
    graph = helper.make_graph(nodes, "chain", [x], [y], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


@pytest.fixture(scope="module")
def resize(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("sentences-resize")
    onnx.save_model(_resize_model("floor"), str(root / "golden.onnx"))
    onnx.save_model(_resize_model("ceil"), str(root / "target.onnx"))
    dump_model(root / "golden.onnx", root / "g")
    dump_model(root / "target.onnx", root / "t")
    return root / "golden.onnx", root / "g", root / "t"


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("sentences-chain")
    onnx.save_model(_chain_model(), str(root / "chain.onnx"))
    dump_model(root / "chain.onnx", root / "g")
    dump_model(root / "chain.onnx", root / "t", target="fp16")
    return root / "chain.onnx", root / "g", root / "t"


def _load(dump: Path, name: str) -> np.ndarray:
    return np.load(dump / f"{name}.npy", allow_pickle=False).astype(np.float64)


def _rel(ref: np.ndarray, x: np.ndarray) -> float:
    """Independent float64 relative error, whole tensor and per slice along axis 1 (the worst)."""
    whole = float(np.linalg.norm(x - ref) / np.linalg.norm(ref))
    if ref.ndim < 2 or ref.shape[1] < 2:
        return whole
    slices = [
        np.linalg.norm(np.take(x, k, 1) - np.take(ref, k, 1)) / np.linalg.norm(np.take(ref, k, 1))
        for k in range(ref.shape[1])
    ]
    return max(whole, *map(float, slices))


def _check_cause_facts(cmp: Any, diag: Any, golden_dir: Path, target_dir: Path) -> None:
    """Every root cause's evidence and advice against the facts: the frame, the classes, the replay,
    and the tensors recomputed in float64."""
    classes, frame = diag.classification, cmp.frame
    for c in diag.root_causes:
        r = frame.row(c.row, named=True)
        assert c.evidence[0] == (f"{r['health']}: {r['message']}" if r["message"] else str(r["health"]))
        origin = c.evidence[1]
        if origin.startswith("introduced here"):
            judged = classes["judged_level"][c.row]
            health = r["health"] if judged is None else ("ok", "warn", "fail")[judged]
            assert f"this output is {health} (relative error {g3(classes['error'][c.row])}" in origin
            worst = classes["worst_input_row"][c.row]
            assert f"relative error {g3(classes['error'][int(worst)])})" in origin
        for sentence in (*c.evidence, c.advice):
            no_unfounded_replay_claim(sentence, c.replay)
        if c.replay is not None and c.replay.verdict != "not replayed":
            said = next(e for e in c.evidence if e.startswith("replay ("))
            assert f"target vs golden {g3(c.replay.target_error)}" in said  # type: ignore[arg-type]
            assert f"target vs replay {g3(c.replay.vs_target)}" in said  # type: ignore[arg-type]
            independent = _rel(_load(golden_dir, c.name), _load(target_dir, c.name))
            assert c.replay.target_error == pytest.approx(independent, rel=1e-6)
    counts = diag.counts
    bad = counts.get("fail", 0) + counts.get("error", 0)
    assert (f"Unhealthy: {bad} of {frame.height} rows" in diag.summary) == (not diag.healthy)


@renders(
    "engine:_evidence",
    "engine:_origin_sentence",
    "engine:_error_words",
    "engine:_grown",
    "engine:_advice",
    "engine:_top_sentence",
    "engine:_health_sentence",
    "engine:_summary",
    "replay:sentence",
    "replay:_what",
    "replay:_num",
    "replay:replay",
    "replay:_compare",
    "classify:sentence",
    "classify:_num",
)
def test_a_replayed_operator_fault_says_what_was_measured(resize: tuple[Path, Path, Path]) -> None:
    model, g, t = resize
    cmp = compare(g, t, model=model)
    diag = diagnose(cmp)
    top = diag.root_causes[0]
    assert top.name == "resized" and top.cause == v.OPERATOR and top.replay is not None and top.replay.differs
    _check_cause_facts(cmp, diag, g, t)
    assert f"Most likely root cause: 'resized' ({top.op_type}), {top.label}." in diag.summary
    if diag.trend.kind == "jump":
        text = diag.trend.sentence(cmp.frame)
        assert f"-> {g3(diag.classification['error'][diag.trend.row])}" in text


@renders("engine:_evidence", "engine:_advice", "engine:_summary")
def test_without_a_model_no_sentence_claims_a_replay(resize: tuple[Path, Path, Path]) -> None:
    _, g, t = resize
    cmp = compare(g, t)
    diag = diagnose(cmp)
    assert not diag.replays and diag.root_causes
    _check_cause_facts(cmp, diag, g, t)
    for sentence in (diag.summary, *(s for c in diag.root_causes for s in (*c.evidence, c.advice))):
        no_unfounded_replay_claim(sentence, None)


@renders("engine:_top_sentence", "classify:sentence", "classify:_num", "engine:_summary")
def test_drift_names_the_faithful_node_only_when_replayed(chain: tuple[Path, Path, Path]) -> None:
    model, g, t = chain
    for with_model in (True, False):
        cmp = compare(g, t, model=model) if with_model else compare(g, t)
        diag = diagnose(cmp)
        _check_cause_facts(cmp, diag, g, t)
        if diag.trend.kind == "drift":
            text = diag.trend.sentence(cmp.frame)
            assert f"over {diag.trend.layers} layers" in text
            assert f"({g3(diag.trend.after)})" in text
            assert diag.trend.after == diag.classification["error"][diag.trend.row]
        top = diag.root_causes[0] if diag.root_causes else None
        if top is not None and top.cause == v.DRIFT:
            faithful = top.replay is not None and top.replay.faithful
            assert ("computes faithfully" in diag.summary) == faithful


@renders(
    "replay:nodes_of",
    "replay:feeds",
    "replay:replay",
    "replay:_inputs",
    "replay:_compare",
    "replay:sentence",
    "replay:_constants_clause",
    "replay:_what",
    "replay:_num",
)
def test_a_replay_that_did_not_run_says_why_and_claims_nothing(
    resize: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    model, g, t = resize
    cmp = compare(g, t, model=model)
    src = model_source(cmp)
    assert src is not None
    names = cmp.frame["name"].to_list()
    x, resized = names.index("x"), names.index("resized")
    replayer = Replayer(cmp, src)
    assert src.producer("x") is None
    assert replayer.replay(x).note == "'x' is not a node output of the model"
    notes = []
    with monkeypatch.context() as m:  # the target dump without the node's input
        m.setattr(replayer.tensors, "load", lambda name, side: None)
        notes.append(replayer.replay(resized))
    assert notes[-1].note == "input 'scaled' is not in the target dump (or not in its shape)"
    with monkeypatch.context() as m:  # the row's output missing on one side
        real = replayer.tensors.load_row
        m.setattr(
            replayer.tensors,
            "load_row",
            lambda row, side: None if (row, side) == (resized, "target") else real(row, side),
        )
        notes.append(replayer.replay(resized))
    assert notes[-1].note == "the output is missing on one side (or in another shape)"
    with monkeypatch.context() as m:  # onnxruntime fails
        m.setattr(replay_module, "run_nodes", _raise)
        notes.append(replayer.replay(resized))
    assert notes[-1].note == "onnxruntime: no kernel"
    fed, out = cmp.frame["size"][names.index("scaled")], cmp.frame["size"][resized]
    with monkeypatch.context() as m:  # the work bound
        m.setattr(replay_module, "MAX_ELEMENTS", fed + out - 1)
        notes.append(replayer.replay(resized))
    bound = fed + out - 1
    assert notes[-1].note.startswith(f"{fed + out} elements fed and computed, more than the bound of {bound}")
    for rep in notes:
        assert rep.verdict == "not replayed"
        assert rep.sentence() == f"replay of 'resize': not replayed ({rep.note})"
    for again, still in ((0.5, True), (1e-9, False)):
        rep = Replay(
            resized, ("resize",), "differs", "float64", 0.4, 0.4, constants=("w",), vs_target_constants=again
        )
        said = rep.sentence()
        assert f"({g3(again)})" in said and ("still differs" in said) == still
        assert ("the constants differ, not the kernel" in said) == (not still)


def _raise(*args: object, **kwargs: object) -> None:
    raise RuntimeError("no kernel")


def _saturating_model(clip: bool) -> onnx.ModelProto:
    """x[1,4,16] -> Mul(3e4) -> MatMul(w) -> [Clip(+-65504): the target] -> Relu -> y."""
    rng = np.random.default_rng(7)
    inits = [
        onnx.numpy_helper.from_array(np.array(3e4, np.float32), "k"),
        onnx.numpy_helper.from_array(rng.standard_normal((16, 8)).astype(np.float32), "w"),
        onnx.numpy_helper.from_array(np.array(-65504.0, np.float32), "lo"),
        onnx.numpy_helper.from_array(np.array(65504.0, np.float32), "hi"),
    ]
    nodes = [
        helper.make_node("Mul", ["x", "k"], ["s"], name="scale"),
        helper.make_node("MatMul", ["s", "w"], ["mm_raw" if clip else "mm"], name="matmul"),
        *([helper.make_node("Clip", ["mm_raw", "lo", "hi"], ["mm"], name="clip")] if clip else []),
        helper.make_node("Relu", ["mm"], ["y"], name="relu"),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 16])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph(nodes, "sat", [x], [y], initializer=inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


@renders(
    "replay:sentence",
    "replay:_why",
    "replay:_held_words",
    "replay:_rail",
)
def test_a_saturating_target_s_replay_says_where_it_is_held(tmp_path: Path) -> None:
    """Item 5 (issue 20): the replay of a node whose target is clipped at +-65504 names the rails the target
    is held at where the replay goes beyond, and that it matches the replay elsewhere -- not "the target's
    implementation differs"; every count recomputed in float64 from the dumps."""
    onnx.save_model(_saturating_model(False), str(tmp_path / "golden.onnx"))
    onnx.save_model(_saturating_model(True), str(tmp_path / "target.onnx"))
    x = np.random.default_rng(3).standard_normal((1, 4, 16)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    dump_model(tmp_path / "golden.onnx", tmp_path / "g", inputs={"x": tmp_path / "x.npy"})
    dump_model(tmp_path / "target.onnx", tmp_path / "t", inputs={"x": tmp_path / "x.npy"})
    cmp = compare(tmp_path / "g", tmp_path / "t", model=tmp_path / "golden.onnx")
    diag = diagnose(cmp)
    top = diag.root_causes[0]
    assert top.name == "mm" and top.cause == v.OVERFLOW and top.replay is not None and top.replay.differs
    _check_cause_facts(cmp, diag, tmp_path / "g", tmp_path / "t")
    said = next(e for e in top.evidence if e.startswith("replay ("))
    assert "implementation differs" not in said
    ref = _load(tmp_path / "g", "s") @ onnx.numpy_helper.to_array(
        _saturating_model(False).graph.initializer[1]
    )
    target = _load(tmp_path / "t", "mm")
    keep = np.ones(target.shape, dtype=bool)
    for limit in (65504.0, -65504.0):
        beyond = ref > limit if limit > 0 else ref < limit
        held = int(np.count_nonzero(beyond & (target == limit)))
        assert held and int(beyond.sum()) == held
        extreme = float(ref[beyond].max() if limit > 0 else ref[beyond].min())
        assert (
            f"at the float16 limit {limit:g} at {held} of the {held} positions where the replay goes beyond "
            "it "
            f"(the replay reaches {extreme:.6g})"
        ) in said
        keep &= ~(beyond & (target == limit))
    rest = float(np.linalg.norm(target[keep] - ref[keep]) / np.linalg.norm(ref[keep]))
    assert f"elsewhere the target matches the replay ({g3(rest)}): the saturation is introduced here" in said
    # the same replay read as another class claims only what it measured
    rep = top.replay
    assert "implementation differs" in rep.sentence(v.OPERATOR)
    assert rep.sentence(v.LAYOUT).endswith(": the error is introduced here")
    still = replace(rep, held_rest=0.9 * (rep.target_error or 0))
    assert "elsewhere it still differs" in still.sentence(v.OVERFLOW)
    assert replace(rep, held_rest=None).sentence(v.OVERFLOW).endswith(", the saturation is introduced here")


@renders("replay:sentence", "replay:_why", "replay:_step_words")
def test_a_quantised_replay_is_measured_in_steps_of_the_output_grid() -> None:
    """A quantisation cause: the target's largest distance from the replay in steps of its output grid, and
    whether one step explains it; without a known grid no kernel claim either."""
    for max_diff, scale in ((0.02, 0.04127), (0.0656, 0.04127)):
        rep = Replay(4, ("conv",), "differs", "float32", 0.0135, 0.0135, max_diff=max_diff)
        said = rep.sentence(v.QUANTISATION, (scale, "int8"))
        steps = max_diff / scale
        assert f"at most {g3(steps)} steps of its int8 grid (one step {scale:.4g})" in said
        assert ("the size of that quantisation step" in said) == (steps <= 1)
        assert "implementation differs" not in said
    bare = Replay(4, ("conv",), "differs", "float32", 0.0135, 0.0135, max_diff=0.02).sentence(v.QUANTISATION)
    assert "quantised computation departs from the float one" in bare and "implementation" not in bare


# ----------------------------------------------------------------- engine sentences from their facts


@renders(
    "engine:_origin_sentence",
    "engine:_no_input_sentence",
    "engine:_error_words",
    "engine:_grown",
    "engine:_origin_words",
    "engine:_scale_words",
)
def test_origin_sentences_print_their_facts() -> None:
    r = {"kind": "activation", "health": "fail"}
    c = {
        "error": 0.01234567,
        "worst_input": "a",
        "worst_input_health": "ok",
        "worst_input_error": 1.5e-7,
        "growth": 82304.8,
        "bad_constant": None,
        "origin": "introduced",
    }
    said = engine._origin_sentence(r, c)
    assert said == (
        "introduced here: worst input 'a' is ok (relative error 1.5e-07); this output is fail "
        f"(relative error {g3(c['error'])}, {g3(c['growth'])}x its worst input's)"
    )
    assert "x its worst" not in engine._origin_sentence(r, {**c, "growth": 0.5})
    assert "NaN/Inf on one side only" in engine._origin_sentence(r, {**c, "error": math.inf})
    alone = {**c, "worst_input": None}
    assert engine._origin_sentence(r, {**alone, "bad_constant": "eps"}).startswith(
        "its only bad input is the constant 'eps'; this output: relative error 0.0123"
    )
    assert "not compared rows" in engine._origin_sentence(r, alone, has_graph=True)
    assert "give --model or --graph" in engine._origin_sentence(r, alone, has_graph=False)
    said = engine._origin_sentence({"kind": "input", "health": "fail"}, c)
    assert said == f"an input that already differs (relative error {g3(c['error'])})"
    assert (
        engine._origin_sentence({"kind": "input", "health": "error"}, c)
        == "an input that could not be compared"
    )
    # a candidate the classification calls inherited is never said to be introduced here
    inherited = engine._origin_sentence(r, {**c, "origin": "inherited"})
    assert inherited.startswith("inherited, the error grows here:") and "introduced" not in inherited
    assert engine._origin_sentence(r, {**c, "origin": "inherited", "growth": 0.5}).startswith("inherited:")
    # judged on one scale with its inputs (classify): the band, the level there, its own band's verdict
    ok8 = {"kind": "activation", "health": "ok", "band": "int8"}
    said = engine._origin_sentence(ok8, {**c, "growth": 2.5, "judged_band": "int16", "judged_level": 1})
    assert said == (
        "introduced here (judged in the int16 band, the strictest of this row's and its inputs'): worst "
        f"input 'a' is ok (relative error 1.5e-07); this output is warn (relative error {g3(c['error'])}, "
        "2.5x its worst input's), ok in its own int8 band"
    )
    same = engine._origin_sentence(r, {**c, "judged_band": "int16", "judged_level": 2})
    assert "judged in the int16 band" in same and "in its own" not in same
    assert "judged" not in engine._origin_sentence(r, {**c, "judged_band": None, "judged_level": None})


@renders("engine:_nan_sentences", "engine:_upstream_sentence")
def test_nan_sentences_print_the_counts_and_claim_upstream_only_after_a_faithful_replay() -> None:
    r = {"nan_target": 7, "inf_target": 2, "nan_golden": 0, "inf_golden": None}
    for verdict in ("faithful", "differs", None):
        rep = Replay(3, ("sqrt",), verdict, "float64", 0.0, math.inf) if verdict else None
        run = SimpleNamespace(replays={3: rep} if rep else {}, classes={"worst_input": {3: "var"}})
        said = engine._nan_sentences(run, 3, r)  # type: ignore[arg-type]
        assert said[0] == (
            "first NaN/Inf: the target has 7 NaN and 2 Inf here (golden 0 NaN, 0 Inf) "
            "while its inputs are finite"
        )
        assert (len(said) == 2) == (verdict == "faithful")
        for sentence in said:
            no_unfounded_replay_claim(sentence, rep)
        if verdict == "faithful":
            assert "'var'" in said[1] and "replay reproduces" in said[1]


@renders("engine:_input_sentence", "engine:_layout_sentence")
def test_the_input_sentence_names_a_layout_only_with_a_permutation() -> None:
    from dumpscope.core.comparison.shapes import Layout

    measured = Layout((0, 1, 3, 2), (1, 3, 8, 8), exact=False, cosine=0.9995, runner_up=0.12, candidates=4)
    for found in (measured, None):
        run = SimpleNamespace(permutation=lambda row, f=found: f)
        said = engine._input_sentence(run, 0)  # type: ignore[arg-type]
        assert ("permuted" in said) == (found is not None)
        if found is not None:
            assert f"(order {found.order()}; {found.agreement()})" in said
        else:
            assert "pre-processing" in said
    node = engine._layout_sentence(measured)
    assert f"order {measured.order()}" in node and measured.agreement() in node and "same values" not in node
    assert "the same values, moved" in engine._layout_sentence(
        Layout((1, 0), (4, 2), exact=True, candidates=2)
    )


@renders("vendor_facts:opdebug_records", "vendor_facts:_opdebug_line")
def test_opdebug_lines_print_the_records(monkeypatch: pytest.MonkeyPatch) -> None:
    from dumpscope.core.vendor import opdebug

    rec = SimpleNamespace(
        bits=(SimpleNamespace(meaning="float overflow"),),
        status=0x40,
        op_name="Conv_7",
        unit="AI Core",
        task_id=12,
        stream_id=3,
    )
    monkeypatch.setattr(
        opdebug,
        "opdebug_index",
        lambda target: SimpleNamespace(error=None, records=[rec], by_op={"Conv_7": [rec]}),
    )
    _, lines = vendor_facts.opdebug_records(SimpleNamespace(target=None))  # type: ignore[arg-type]
    assert lines == ["Opdebug: AI Core task 12 stream 3 (Conv_7): float overflow"]
    monkeypatch.setattr(opdebug, "opdebug_index", lambda target: SimpleNamespace(error="bad magic"))
    _, lines = vendor_facts.opdebug_records(SimpleNamespace(target=SimpleNamespace(path="/dumps/t")))
    assert lines == ["Opdebug scan of /dumps/t failed: bad magic"]
    bare = SimpleNamespace(bits=(), status=0x40, op_name=None, unit="AIV", task_id=1, stream_id=0)
    said = vendor_facts._opdebug_line(bare)
    assert said == "Opdebug: AIV task 1 stream 0 (an op not found in the dump): status 0x40"


@renders(
    "patch_commands:patch_commands",
    "patch_commands:_clip_options",
    "patch_commands:_keep_options",
    "patch_commands:_bound",
)
def test_patch_commands_print_the_fixes() -> None:
    fixes = [
        PatchAction("exp_in", clip=(-math.inf, 11.08984375)),
        PatchAction("exp", keep_fp32=True),
        PatchAction("exp", keep_fp32=True),
    ]
    clip, keep = patch_commands.patch_commands(fixes, "m.onnx", frozenset({"exp_in", "exp"}))
    assert clip == "dumpscope patch m.onnx -o m.patched.onnx --clip exp_in=-inf,11.08984"
    assert keep == "dumpscope patch m.onnx -o m.patched.onnx --keep-fp32 exp"


@renders("engine:_clamp_lines", "engine:frame_range_findings")
def test_range_lines_print_the_records_and_the_frame() -> None:
    ctx = SimpleNamespace(clamped={"w": [{"action": "clamp", "count": 3, "max_abs": 97912345.0}]})
    lines = engine._clamp_lines(ctx)
    assert lines == ["fp16 conversion: clamp 3 value(s) of constant 'w' (largest |x| 9.79123e+07)"]
    frame = pl.DataFrame(
        {
            "index": [0, 1, 2],
            "name": ["a", "b", "c"],
            "kind": ["activation"] * 3,
            "target_dtype": ["float16", "float16", "float32"],
            "min_golden": [-70000.5, -1.0, -1e9],
            "max_golden": [3.0, 65000.0, 1e9],
        }
    )
    lines = engine.frame_range_findings(frame)
    assert lines == ["golden activation #0 'a' reaches |x| 70000.5, at or beyond the float16 maximum 65504"]
    many = pl.concat([frame.head(1)] * 3)
    last = engine.frame_range_findings(many, limit=2)[-1]
    assert last == "... and 1 more tensors beyond their target float range"


# ----------------------------------------------------------------- effects and checks


@renders("effects:_unexplained", "effects:_with_share")
def test_measured_effects_print_the_replayed_numbers() -> None:
    f = Finding("overflow", "golden output of 'n' cannot be stored")
    faithful = Replay(0, ("n",), "faithful", "float64", 1e-7, 0.2)
    for rep in (faithful, Replay(0, ("n",), "differs", "float64", 0.2, 0.2), None):
        said = effects.measured(f, rep, None, 0, 0.2, "float16").text
        no_unfounded_replay_claim(said, rep)
        assert ("matches the target" in said) == (rep is faithful)
    for effect, negligible in ((0.0123, True), (0.15, False)):
        m = effects._with_share(Finding("clamped", "constant 'w' clamped", subject="w"), effect, 0.2)
        assert f"moves the output by a relative {g3(effect)} against the row's error {g3(0.2)}" in m.text
        assert m.text.endswith(": negligible") == negligible and m.share == pytest.approx(effect / 0.2)


def _fake_row(
    arrays: dict[int, np.ndarray],
    frame: pl.DataFrame,
    edges: list[tuple[int, int]],
    row: int,
    node: str = "n",
) -> SimpleNamespace:
    """An overflow check's row (duck-typed ``_Row``) over hand-given golden arrays and edges."""
    edge_frame = pl.DataFrame(
        {"row": [a for a, _ in edges], "input_row": [b for _, b in edges], "constant": [False] * len(edges)},
        schema={"row": pl.Int64, "input_row": pl.Int64, "constant": pl.Boolean},
    )
    ctx = SimpleNamespace(
        cmp=SimpleNamespace(frame=frame, golden=None), edges=SimpleNamespace(frame=edge_frame), fused={}
    )
    first = [b for a, b in edges if a == row][:1]
    return SimpleNamespace(
        ctx=ctx,
        row=row,
        node=node,
        target="float16",
        top=65504.0,
        first_input=lambda: first[0] if first else None,
        golden=lambda j: arrays.get(j),
    )


@renders(
    "checks/overflow:_exp_sentence",
    "checks/overflow:_softmax_input",
    "checks/overflow:_partial_sums",
    "checks/overflow:_stored_output",
    "checks/overflow:_intermediate",
)
def test_overflow_findings_print_independent_counts() -> None:
    rng = np.random.default_rng(1)
    x = rng.uniform(-20, 20, (4, 16)).astype(np.float32)
    frame = pl.DataFrame(
        {
            "name": ["x", "e", "s"],
            "node_name": ["xn", "en", "sn"],
            "op_type": ["Add", "Exp", "Sum"],
            "size": [64, 64, 64],
        }
    )
    o = _fake_row({0: x}, frame, [(1, 0)], 1, "en")
    (exp,) = overflow_check._exp_input(o)  # type: ignore[arg-type]
    over = int(np.count_nonzero(x.astype(np.float64) > math.log(65504.0)))
    assert over > 0
    assert f"{over} of {x.size} golden values exceed ln(65504) = {math.log(65504):.4g}" in exp.text
    assert f"(max {float(x.max()):.4g})" in exp.text
    (soft,) = overflow_check._softmax_input(o)  # type: ignore[arg-type]
    assert f"{over} golden input values exceed ln(65504)" in soft.text
    a, b = rng.uniform(0, 300, (2, 8, 40)), rng.uniform(0, 300, (40, 6))
    (sums,) = overflow_check._partial_sums(_fake_row({0: a, 2: b}, frame, [(1, 0), (1, 2)], 1))
    assert f"can reach |x| {float(np.max(np.abs(a) @ np.abs(b))):.6g} (|A| @ |B|)" in sums.text
    y = np.array([1.0, 7e4, -9e4, 3.0], np.float32)
    (stored,) = overflow_check._stored_output(_fake_row({1: y}, frame, [], 1), "Exp")
    assert "2 of 4 values reach or pass the float16 range" in stored.text and "max |x| 90000" in stored.text
    ctx = SimpleNamespace(golden_of=lambda ref: y)
    (inner,) = overflow_check._intermediate(ctx, SimpleNamespace(name="mid"), "fused_op", "float16")
    assert "intermediate 'mid' of fused op 'fused_op': 2 of 4 values" in inner.text


@renders("checks/constants:_clamped", "checks/constants:_out_of_range")
def test_constant_findings_print_their_records_and_ranges() -> None:
    f = constants_check._clamped("w", {"action": "clamp", "count": 5, "max_abs": 1.234567e8}, "bn")
    assert f.text == "constant 'w': the fp16 conversion clamped 5 value(s) (largest |x| 1.23457e+08)"
    big = np.array([1.0, -2e5, 7e4], np.float32)
    ref = SimpleNamespace(name="w")
    ctx = SimpleNamespace(
        cmp=SimpleNamespace(golden=SimpleNamespace(tensors={"w": ref})), golden_of=lambda r: big
    )
    (rng,) = constants_check._out_of_range(ctx, "w", "bn", "float16")  # type: ignore[arg-type]
    assert rng.text.startswith("constant 'w' feeding 'bn': 2 of 3 values reach or pass the float16 range")


@renders("checks/saturation:_finding")
def test_the_saturation_sentence_prints_independent_counts() -> None:
    golden = np.array([1e5, 7e4, 3.0, -8e4, 65504.0, 2e5])
    target = np.minimum(golden, 65504.0).astype(np.float32)
    target[0] = 1e5  # one golden value past the limit is not held there
    rail = Rail("float16", 65504.0, 65504.0, True)
    s = _held(golden, target, rail)
    assert s is not None
    said = _finding("node", s, golden.size).text
    at, past = int(np.count_nonzero(target == 65504.0)), golden > 65504.0
    held = int(np.count_nonzero(past & (target == 65504.0)))
    assert (
        f"{at} of 6 target values sit exactly at the float16 limit 65504 where the golden goes beyond it "
        f"(golden reaches {golden[past].max():.6g}; {int(past.sum())} golden values past the limit, "
        f"{held} of them held at it)"
    ) in said


@renders("checks/saturation:_input_finding")
def test_the_quantised_input_saturation_sentence_prints_independent_counts() -> None:
    from dumpscope.core.diagnosis.checks.saturation import _input_finding

    golden = np.array([0.5, 4.0, -1.0, 9.0, 3.2])
    scale = 3.0 / 127
    ints = np.clip(np.round(golden / scale), -128, 127).astype(np.int8)
    rail = Rail("int8", 127, 127 * scale, True, scale / 2)
    s = _held(golden, ints, rail)
    assert s is not None
    said = _input_finding("relu", "y", "y_q", s, golden.size).text
    past = golden > 127 * scale + scale / 2
    held = int(np.count_nonzero(past & (ints == 127)))
    assert said == (
        f"saturation at the input 'y' of 'relu': {int(np.count_nonzero(ints == 127))} of 5 values of the "
        f"target's int8 copy 'y_q' sit exactly at 127 (= {127 * scale:.6g}) where the golden goes beyond it "
        f"(golden reaches {golden[past].max():.6g}; {int(past.sum())} golden values past the grid, {held} of "
        "them held at it): the node reads values clipped at the quantisation range"
    )


# ----------------------------------------------------------------- advice


def _advice_texts() -> set[str]:
    """Every advice text the diagnosis can give: its own and the checks'."""
    own = {
        t
        for name, t in vars(advice_module).items()
        if name.startswith("_") and not name.startswith("__") and isinstance(t, str)
    }
    own |= set(advice_module._OWN.values()) | set(advice_module._REPLAYED.values())
    return own | set(check_advice().values())


def test_every_advice_is_given_only_with_its_facts() -> None:
    """Every cause x target kind x evidence x replay verdict: a replay claim only with that replay, "keep in
    fp32" only for a reduced-float target, Ascend's fusion_switch.cfg only for an Ascend target; and every
    advice text is reachable."""
    checks, given = check_advice(), set()
    kinds = [TargetKind(ascend, reduced) for ascend in (False, True) for reduced in (False, True)]
    for cause in [c.slug for c in v.CAUSE_CLASSES]:
        # reduced precision is the class of a float16/bfloat16 band only (engine._BAND_CAUSE)
        for kind in [k for k in kinds if k.reduced_float or cause != v.PRECISION]:
            for detail in (None, *checks):
                for verdict in (None, "not replayed", "faithful", "differs"):
                    text = advice_for(cause, kind, checks, detail, verdict)
                    given.add(text)
                    rep = Replay(0, ("n",), verdict) if verdict else None
                    no_unfounded_replay_claim(text, rep)
                    if re.search(r"(?i)keep (it|this node|the node|the op|this op)s? in fp32", text):
                        assert kind.reduced_float, (cause, detail, text)
                    if "fusion_switch.cfg" in text:
                        assert kind.ascend, (cause, detail, text)
    assert _advice_texts() <= given, sorted(_advice_texts() - given)


def test_every_template_has_a_case() -> None:
    rendered = {f for functions in COVERS.values() for f in functions}
    assert template_functions() == rendered, {
        "templates without a case": sorted(template_functions() - rendered),
        "cases for no template": sorted(rendered - template_functions()),
    }
