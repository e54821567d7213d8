"""Issue 10 items 3, 4, 6, 7 and 9 (diagnosis side): replay of suspect nodes, measured effects,
cause classes and advice that fits the target, graph inputs, empty tensors.

Every dump here is made by the product's own ``dump_model`` from small ONNX models;
targets are *modified models* run through onnxruntime (a Resize mode, an epsilon, a
layout), never hand-edited numbers.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import onnx
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from onnx import TensorProto, helper

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.comparison.shapes import RETRY_COSINE, align, find_layout
from dumpscope.core.diagnosis import replay as replay_module
from dumpscope.core.diagnosis.advice import TargetKind, advice_for
from dumpscope.core.diagnosis.checks import advice as check_advice
from dumpscope.core.diagnosis.classify import Trend, classify_frame, trend
from dumpscope.core.diagnosis.edges import build_edges
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.diagnosis.replay import (
    Replayer,
    as_target_dtype,
    clamp_and_flush,
    rel_error,
    replay_rows,
)
from dumpscope.core.diagnosis.subgraph import model_source
from dumpscope.core.onnx.runner import dump_model

OPSET, IR = 17, 8


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    inits: dict[str, np.ndarray] | None = None,
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "m",
        inputs,
        outputs,
        initializer=[onnx.numpy_helper.from_array(a, n) for n, a in (inits or {}).items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR)


def _resize_model(nearest_mode: str) -> onnx.ModelProto:
    """x[1,1,6,6] -> Mul(w) -> Resize(x1.5 nearest) -> Relu -> y."""
    scales = np.array([1, 1, 1.5, 1.5], np.float32)
    w = np.full((1, 1, 1, 1), 1.5, np.float32)
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
    return _model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 6, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        {"scales": scales, "w": w},
    )


@pytest.fixture
def resize_case(tmp_path: Path) -> tuple[Path, Path, Path]:
    golden_model = tmp_path / "golden.onnx"
    onnx.save_model(_resize_model("floor"), str(golden_model))
    target_model = tmp_path / "target.onnx"
    onnx.save_model(_resize_model("ceil"), str(target_model))
    dump_model(golden_model, tmp_path / "g")
    dump_model(target_model, tmp_path / "t")
    return golden_model, tmp_path / "g", tmp_path / "t"


def test_replay_names_the_node_whose_implementation_differs(resize_case: tuple[Path, Path, Path]) -> None:
    model, g, t = resize_case
    cmp = compare(g, t, model=model)
    diag = diagnose(cmp)
    top = diag.root_causes[0]
    assert top.name == "resized" and top.cause == v.OPERATOR
    assert top.replay is not None and top.replay.differs and top.replay.nodes == ("resize",)
    assert top.replay.vs_target is not None and top.replay.vs_target > 0.05
    assert any("does not match the target" in e for e in top.evidence)
    assert diag.classification["replay"][top.row] == "differs"
    assert "fusion_switch" not in top.advice and "fp32" not in top.advice
    data = diag.to_json()
    assert data["root_causes"][0]["replay"]["verdict"] == "differs"  # type: ignore[index]
    assert data["root_causes"][0]["class"] == "operator implementation differs"  # type: ignore[index]
    assert any(r["row"] == top.row for r in data["replays"])  # type: ignore[union-attr]
    json.dumps(data, allow_nan=False)


def test_replay_of_a_faithful_node_matches_the_target(resize_case: tuple[Path, Path, Path]) -> None:
    model, g, t = resize_case
    cmp = compare(g, t, model=model)
    src = model_source(cmp)
    assert src is not None
    relu = cmp.frame["name"].to_list().index("y")
    seen: list[tuple[int, int]] = []
    replays = replay_rows(Replayer(cmp, src), [relu], progress=lambda done, total: seen.append((done, total)))
    assert replays[relu].faithful and replays[relu].precision == "float64"
    assert replays[relu].vs_target == pytest.approx(0.0, abs=1e-7)
    assert seen == [(1, 1)]


def test_replay_is_bounded_by_count_and_work_not_time(
    resize_case: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    model, g, t = resize_case
    cmp = compare(g, t, model=model)
    replayer = Replayer(cmp, model_source(cmp))  # type: ignore[arg-type]
    rows = list(range(cmp.frame.height))
    assert len(replay_rows(replayer, rows, limit=2)) == 2
    resized = cmp.frame["name"].to_list().index("resized")
    fed, out = cmp.frame["size"][cmp.frame["name"].to_list().index("scaled")], cmp.frame["size"][resized]
    monkeypatch.setattr(replay_module, "MAX_ELEMENTS", fed + out - 1)
    bounded = replay_rows(replayer, [resized])[resized]
    assert bounded.verdict == "not replayed"
    bound = fed + out - 1
    assert bounded.note == f"{fed + out} elements fed and computed, more than the bound of {bound} per replay"
    monkeypatch.setattr(replay_module, "MAX_ELEMENTS", fed + out)
    assert replay_rows(replayer, [resized])[resized].differs


def test_a_constant_effect_is_measured_by_replay(resize_case: tuple[Path, Path, Path]) -> None:
    model, g, t = resize_case
    cmp = compare(g, t, model=model)
    replayer = Replayer(cmp, model_source(cmp))  # type: ignore[arg-type]
    scaled = cmp.frame["name"].to_list().index("scaled")
    w = np.full((1, 1, 1, 1), 1.5, np.float32)
    assert replayer.constant_effect(scaled, "w", w) == pytest.approx(0.0, abs=1e-12)
    assert replayer.constant_effect(scaled, "w", w * 1.1) == pytest.approx(0.1, rel=1e-5)
    assert replayer.constant_effect(scaled, "w", w + np.float32(1e-9)) < 1e-8


def test_no_replay_without_a_model(resize_case: tuple[Path, Path, Path]) -> None:
    _, g, t = resize_case
    cmp = compare(g, t)
    diag = diagnose(cmp)
    assert diag.replays == {} and all(c.replay is None for c in diag.root_causes)


# ------------------------------------------------------------------ item 3: effects bound the ranking


def _cancel_model(eps_w: float) -> onnx.ModelProto:
    """x[1,2] -> Mul(a) -> MatMul(W) -> y: y = 1000 a x0 - 999.9 a x1 cancels, amplifying the error of
    its input about 10,000-fold; W holds one tiny value an fp16 conversion flushes to zero."""
    w = np.array([[1000.0, eps_w], [-999.9, 0.0]], np.float32)
    nodes = [
        helper.make_node("Mul", ["x", "a"], ["ax"], name="pre"),
        helper.make_node("MatMul", ["ax", "W"], ["y"], name="cancel"),
    ]
    return _model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        {"W": w, "a": np.array([1.0, 1.0], np.float32)},
    )


def test_a_flushed_constant_that_moves_nothing_does_not_outrank_the_inherited_error(tmp_path: Path) -> None:
    model = tmp_path / "m.onnx"
    onnx.save_model(_cancel_model(3e-9), str(model))
    x = tmp_path / "x.npy"
    np.save(x, np.array([[1.0, 1.0]], np.float32))
    dump_model(model, tmp_path / "g", inputs={"x": x})
    dump_model(model, tmp_path / "t", inputs={"x": x}, target="fp16")
    cmp = compare(tmp_path / "g", tmp_path / "t", model=model)
    diag = diagnose(cmp)
    y = next(c for c in diag.root_causes if c.name == "y")
    # fp16 rounds -999.9 to -1000 and the cancellation loses everything; the flush of 3e-9 moves nothing.
    flushed = [e for e in y.evidence if "flushed 1 value" in e]
    assert flushed and all("negligible" in e for e in flushed)
    assert y.cause != v.OVERFLOW and all(c.cause != v.OVERFLOW for c in diag.root_causes)
    assert y.replay is not None and y.replay.differs


# ------------------------------------------------------------------ items 6 and 7: inputs, classes, advice


def _conv_model() -> onnx.ModelProto:
    w = np.linspace(-1, 1, 2 * 3 * 3 * 3, dtype=np.float32).reshape(2, 3, 3, 3)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["y"], name="relu"),
    ]
    return _model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        {"w": w},
    )


@pytest.mark.parametrize(
    ("change", "cause"),
    [
        (lambda x: x[:, ::-1].copy(), v.PREPROCESSING),  # BGR for RGB
        (lambda x: x.transpose(0, 1, 3, 2).copy(), v.LAYOUT),  # H and W swapped
    ],
)
def test_a_differing_graph_input_is_preprocessing_or_layout(tmp_path: Path, change, cause: str) -> None:  # type: ignore[no-untyped-def]
    model = tmp_path / "m.onnx"
    onnx.save_model(_conv_model(), str(model))
    x = np.random.default_rng(0).standard_normal((1, 3, 8, 8)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "x2.npy", change(x))
    dump_model(model, tmp_path / "g", inputs={"x": tmp_path / "x.npy"})
    dump_model(model, tmp_path / "t", inputs={"x": tmp_path / "x2.npy"})
    diag = diagnose(compare(tmp_path / "g", tmp_path / "t", model=model))
    top = diag.root_causes[0]
    assert top.name == "x" and top.cause == cause and top.score == 1.0
    assert "optimisation" not in top.advice and "give --model" not in " ".join(top.evidence)


def test_advice_fits_the_target_kind() -> None:
    checks = check_advice()
    plain, ascend, fp16 = TargetKind(), TargetKind(ascend=True), TargetKind(reduced_float=True)
    assert "fusion_switch.cfg" in advice_for(v.FUSION, ascend, checks)
    assert "fusion_switch.cfg" not in advice_for(v.FUSION, plain, checks)
    assert "fp32" not in advice_for(v.NAN_ORIGIN, plain, checks)
    assert "fp32" in advice_for(v.NAN_ORIGIN, fp16, checks)
    assert "INT16" in advice_for(v.QUANTISATION, plain, checks, "quantisation-wide")
    assert "wider than 20" not in advice_for(v.QUANTISATION, plain, checks, "quantisation")
    assert "fp32" not in advice_for(v.OVERFLOW, plain, checks, "clamped")
    for c in v.CAUSE_CLASSES:
        assert advice_for(c.slug, plain, checks)


def test_every_issue_10_class_has_one_name() -> None:
    labels = {c.label for c in v.CAUSE_CLASSES}
    assert {
        "layout mismatch",
        "operator implementation differs",
        "pre-processing",
        "fusion",
        "overflow",
        "NaN origin",
        "quantisation",
        "accumulated precision drift",
    } <= labels
    assert len({c.slug for c in v.CAUSE_CLASSES}) == len(v.CAUSE_CLASSES)
    assert set(v.FINDING_CLASS.values()) <= set(v.CAUSE)
    assert not v.CAUSE[v.DRIFT].culprit


# ------------------------------------------------------------------ item 9: empty tensors, warnings


def test_empty_rows_are_no_root_cause_and_trend_survives_them() -> None:
    frame = pl.DataFrame(
        {
            "name": ["a", "empty", "b"],
            "kind": ["activation"] * 3,
            "status": ["computed"] * 3,
            "health": ["ok", "fail", "warn"],
            "relative_euclidean_distance": [1e-4, None, 0.02],
            "cosine_similarity": [1.0, None, 0.99],
            "nonfinite_mismatch": [0, 0, 0],
        }
    )

    class _Cmp:
        pairing = None

    edges = build_edges(_Cmp())  # type: ignore[arg-type]
    classes = classify_frame(frame, edges)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        shape = trend(frame, classes)
    assert isinstance(shape, Trend) and shape.row == 2


def test_an_error_that_does_not_grow_is_no_drift() -> None:
    errs = [0.05, 0.04, 0.03, 0.02, 0.011]
    frame = pl.DataFrame(
        {
            "name": [f"l{k}" for k in range(5)],
            "kind": ["activation"] * 5,
            "status": ["computed"] * 5,
            "health": ["warn"] * 4 + ["fail"],
            "relative_euclidean_distance": errs,
            "cosine_similarity": [0.99] * 5,
            "nonfinite_mismatch": [0] * 5,
        }
    )

    class _Cmp:
        pairing = None

    shape = trend(frame, classify_frame(frame, build_edges(_Cmp())))  # type: ignore[arg-type]
    assert shape.kind != "drift" or (shape.slope or 0) > 0


# ------------------------------------------------------------------ properties against float64 references

_arrays = hnp.arrays(
    np.float64,
    hnp.array_shapes(min_dims=1, max_dims=3, max_side=5),
    elements=st.floats(-1e6, 1e6, allow_nan=False),
)


@settings(max_examples=80, deadline=None)
@given(_arrays, st.floats(-3.0, 3.0))
def test_rel_error_against_a_float64_reference(a: np.ndarray, k: float) -> None:
    b = a * k
    norm = math.sqrt(sum(float(x) ** 2 for x in a.reshape(-1)))
    diff = math.sqrt(
        sum((float(x) - float(y)) ** 2 for x, y in zip(a.reshape(-1), b.reshape(-1), strict=False))
    )
    got = rel_error(a, b)
    if norm == 0:
        assert got == 0.0
    else:
        assert got == pytest.approx(diff / norm, rel=1e-9, abs=1e-12)


def test_rel_error_sees_nonfinite_positions() -> None:
    a = np.array([1.0, np.nan, 2.0])
    assert rel_error(a, a.copy()) == 0.0
    assert rel_error(a, np.array([1.0, 1.0, 2.0])) == math.inf
    assert rel_error(np.array([np.inf]), np.array([-np.inf])) == math.inf


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(
        np.float32,
        hnp.array_shapes(min_dims=2, max_dims=4, max_side=4),
        elements=st.floats(-100, 100, width=32),
    ),
    st.randoms(use_true_random=False),
)
def test_find_layout_undoes_a_transpose(arr: np.ndarray, rnd) -> None:  # type: ignore[no-untyped-def]
    """The diagnosis's search: the order it finds restores the golden; when it finds none, the
    pair as the comparison lines it up already agrees (float64 cosine, independent)."""
    perm = list(range(arr.ndim))
    rnd.shuffle(perm)
    moved = np.ascontiguousarray(arr.transpose(perm))
    found = find_layout(arr, moved)
    if found is not None:
        assert np.allclose(found.apply(moved).reshape(arr.shape), arr, rtol=1e-6, atol=0)
        return
    a = align(arr, moved)
    g, t = np.asarray(a.golden, np.float64).ravel(), np.asarray(a.target, np.float64).ravel()
    norm = float(np.sqrt((g @ g) * (t @ t)))
    assert a.permuted is None and (norm == 0 or float(g @ t) / norm >= RETRY_COSINE)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, st.integers(1, 20), elements=st.floats(-1e9, 1e9, width=32)))
def test_fp16_emulation_clamps_and_rounds_like_float16(a: np.ndarray) -> None:
    out = as_target_dtype(a, "float16")
    ref = np.clip(a.astype(np.float64), -65504.0, 65504.0).astype(np.float16).astype(np.float64)
    assert out.dtype == a.dtype and np.array_equal(out.astype(np.float64), ref)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, st.integers(1, 20), elements=st.floats(-1e9, 1e9, width=32)))
def test_clamp_and_flush_changes_only_out_of_range_values(a: np.ndarray) -> None:
    out = clamp_and_flush(a, "float16").astype(np.float64)
    ref = a.astype(np.float64)
    ref = np.where(np.abs(ref) > 65504.0, np.sign(ref) * 65504.0, ref)
    ref = np.where(np.abs(ref) < 2.0**-25, 0.0, ref)
    assert np.array_equal(out, ref)


# ------------------------------------------------------------------ item 7: overflow beyond Exp


def _overflow_model(op: str) -> tuple[onnx.ModelProto, np.ndarray]:
    """One op whose fp16 run leaves the float16 range (for the input returned with it)."""
    x_info = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])
    y_info = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    big = np.array([[300.0, 300.0], [200.0, 250.0]], np.float32)
    if op == "Pow":
        nodes, inits = (
            [helper.make_node("Pow", ["x", "p"], ["y"], name="pow")],
            {"p": np.array(2.0, np.float32)},
        )
    elif op == "ReduceSum":
        nodes = [
            helper.make_node("Mul", ["x", "k"], ["m"], name="scale"),
            helper.make_node("ReduceSum", ["m", "axes"], ["y"], name="sum", keepdims=0),
        ]
        inits = {"k": np.array(200.0, np.float32), "axes": np.array([1], np.int64)}
    else:  # a MatMul whose sums pass the float16 maximum
        nodes = [helper.make_node("MatMul", ["x", "w"], ["y"], name="matmul")]
        inits = {"w": np.array([[300.0, 1.0], [300.0, 1.0]], np.float32)}
    return _model(nodes, [x_info], [y_info], inits), big


@pytest.mark.parametrize("op", ["Pow", "ReduceSum", "MatMul"])
def test_overflow_is_found_on_every_op_that_leaves_the_range(tmp_path: Path, op: str) -> None:
    proto, x = _overflow_model(op)
    model = tmp_path / "m.onnx"
    onnx.save_model(proto, str(model))
    np.save(tmp_path / "x.npy", x)
    dump_model(model, tmp_path / "g", inputs={"x": tmp_path / "x.npy"})
    dump_model(model, tmp_path / "t", inputs={"x": tmp_path / "x.npy"}, target="fp16")
    cmp = compare(tmp_path / "g", tmp_path / "t", model=model)
    diag = diagnose(cmp)
    assert diag.root_causes, (diag.summary, cmp.frame.select("name", "health", "message").rows())
    top = diag.root_causes[0]
    assert top.name == "y" and top.cause == v.OVERFLOW, (top.cause, top.evidence)
    assert any("beyond the float16 maximum" in e or "cannot be stored in float16" in e for e in top.evidence)
    assert top.replay is not None and top.replay.differs  # float64 replay stays finite, the target does not
    if op == "MatMul":
        assert any("partial sums of 'matmul' can reach |x| 180000" in e for e in top.evidence)


def test_a_fused_target_op_is_replayed_as_its_original_subgraph(tmp_path: Path) -> None:
    model = tmp_path / "m.onnx"
    onnx.save_model(_conv_model(), str(model))
    dump_model(model, tmp_path / "g")
    dump_model(model, tmp_path / "t", target="optimized")
    cmp = compare(tmp_path / "g", tmp_path / "t", model=model)
    manifest = json.loads((tmp_path / "t" / "manifest.json").read_text())
    from dumpscope.core.vendor.fusion import fused_ops

    fused = fused_ops(None, manifest)
    replayer = Replayer(cmp, model_source(cmp), fused)  # type: ignore[arg-type]
    y = cmp.frame["name"].to_list().index("y")
    rep = replayer.replay(y)
    if any(set(orig) >= {"conv", "relu"} for orig, _ in fused.values()):
        assert rep.nodes == ("conv", "relu")
    else:  # onnxruntime did not fuse them: the node alone is replayed
        assert rep.nodes == ("relu",)
    assert rep.faithful and rep.vs_target is not None and rep.vs_target < 1e-6


# ------------------------------------------------------------------ item 5 (diagnosis side): a shared int8
# grid


def _head_model(qdq: bool) -> onnx.ModelProto:
    """boxes (0-316) and scores (0-1) concatenated on axis 1; the target Q/DQs the Concat with one scale."""
    cat_out = "cat_raw" if qdq else "out"
    nodes = [
        helper.make_node("Relu", ["a"], ["ra"], name="relu"),
        helper.make_node("Mul", ["ra", "k"], ["boxes"], name="scale"),
        helper.make_node("Sigmoid", ["b"], ["scores"], name="sigmoid"),
        helper.make_node("Concat", ["boxes", "scores"], [cat_out], name="concat", axis=1),
    ]
    inits = {"k": np.array(100.0, np.float32)}
    if qdq:
        nodes += [
            helper.make_node("QuantizeLinear", ["cat_raw", "s", "zp"], ["q"], name="q"),
            helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["out"], name="dq"),
        ]
        inits.update(s=np.array(316.0 / 255.0, np.float32), zp=np.array(0, np.uint8))
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 4, 64]) for n in ("a", "b")]
    return _model(nodes, inputs, [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)], inits)


def test_a_concat_input_starved_by_a_shared_grid_is_named(tmp_path: Path) -> None:
    from dumpscope.core.diagnosis.checks import CheckContext, check_row

    rng = np.random.default_rng(0)
    for name, value in (("a", rng.uniform(0, 3.16, (1, 4, 64))), ("b", rng.normal(0, 2, (1, 4, 64)))):
        np.save(tmp_path / f"{name}.npy", value.astype(np.float32))
    feeds = {n: tmp_path / f"{n}.npy" for n in ("a", "b")}
    for tag, qdq in (("g", False), ("t", True)):
        onnx.save_model(_head_model(qdq), str(tmp_path / f"{tag}.onnx"))
        dump_model(tmp_path / f"{tag}.onnx", tmp_path / tag, inputs=feeds)
    cmp = compare(tmp_path / "g", tmp_path / "t", model=tmp_path / "g.onnx")
    row = cmp.frame["target_name"].to_list().index("out")  # the Q/DQ output (not the raw Concat)
    findings = check_row(CheckContext(cmp, build_edges(cmp, [cmp.model_facts])), row)  # type: ignore[list-item]
    starved = [f for f in findings if "steps of the shared scale" in f.text]
    assert starved and all(f.cause == "quantisation" for f in starved)
    assert "'scores'" in starved[0].text and "'boxes'" not in " ".join(f.text for f in starved)
    assert "per-channel" in advice_for(v.QUANTISATION, TargetKind(), check_advice(), starved[0].cause)


def test_an_input_fed_with_its_axes_permuted_is_a_layout_mismatch_even_when_aligned(tmp_path: Path) -> None:
    """The comparison may align a permuted input by values (equal after a transpose, health ok);
    fed in the model's own shape, it is still the root cause: the model read it in the wrong layout."""
    model = tmp_path / "m.onnx"
    onnx.save_model(_conv_model(), str(model))
    x = np.random.default_rng(1).standard_normal((1, 3, 8, 8)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "xt.npy", x.transpose(0, 1, 3, 2).copy())
    dump_model(model, tmp_path / "g", inputs={"x": tmp_path / "x.npy"})
    dump_model(model, tmp_path / "t", inputs={"x": tmp_path / "xt.npy"})
    cmp = compare(tmp_path / "g", tmp_path / "t", model=model)
    diag = diagnose(cmp)
    assert diag.root_causes[0].name == "x" and diag.root_causes[0].cause == v.LAYOUT
    assert any("axes permuted (order (0, 1, 3, 2); equal values" in e for e in diag.root_causes[0].evidence)


def test_replay_can_be_switched_off(
    resize_case: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from dumpscope.tui.cli.main import main

    model, g, t = resize_case
    assert diagnose(compare(g, t, model=model), replay=False).replays == {}
    assert main(["diagnose", str(g), str(t), "--model", str(model), "--json", "--no-replay"]) == 1
    assert json.loads(capsys.readouterr().out)["replays"] == []
    assert main(["diagnose", str(g), str(t), "--model", str(model), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["replays"] and data["root_causes"][0]["replay"]["verdict"] == "differs"
    assert "give --model" not in json.dumps(data)


def test_the_target_kind_comes_from_the_vendor_traits_and_dtypes() -> None:
    from types import SimpleNamespace

    from dumpscope.core.diagnosis.advice import target_kind

    frame = pl.DataFrame({"target_dtype": ["float32", None, "float16"]})
    ascend = SimpleNamespace(frame=frame, target=SimpleNamespace(format="ascend-dump"), atc=None)
    plain = SimpleNamespace(frame=frame.head(2), target=SimpleNamespace(format="manifest"), atc=None)
    assert target_kind(ascend) == TargetKind(ascend=True, reduced_float=True)  # type: ignore[arg-type]
    assert target_kind(plain) == TargetKind(ascend=False, reduced_float=False)  # type: ignore[arg-type]


def _eps_model(eps: float) -> onnx.ModelProto:
    """x -> Add(eps) -> Sqrt -> y: an epsilon of -1 puts negatives under the Sqrt."""
    nodes = [
        helper.make_node("Add", ["x", "eps"], ["v"], name="add_eps"),
        helper.make_node("Sqrt", ["v"], ["y"], name="sqrt"),
    ]
    return _model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        {"eps": np.array(eps, np.float32)},
    )


def test_a_nan_origin_that_replays_faithfully_points_upstream_to_the_changed_constant(tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", np.linspace(0.05, 2, 16, dtype=np.float32).reshape(1, 16))
    for tag, eps in (("g", 1e-5), ("t", -1.0)):
        onnx.save_model(_eps_model(eps), str(tmp_path / f"{tag}.onnx"))
        dump_model(tmp_path / f"{tag}.onnx", tmp_path / tag, inputs={"x": tmp_path / "x.npy"})
    diag = diagnose(compare(tmp_path / "g", tmp_path / "t", model=tmp_path / "g.onnx"))
    by_name = {c.name: c for c in diag.root_causes}
    sqrt, add = by_name["y"], by_name["v"]
    assert sqrt.cause == v.NAN_ORIGIN and sqrt.replay is not None and sqrt.replay.faithful
    assert any("fault entered upstream, at its worst input 'v'" in e for e in sqrt.evidence)
    assert "fp32" not in sqrt.advice and "--keep-fp32" not in " ".join(sqrt.commands)
    assert add.replay is not None and add.replay.differs and add.replay.constants == ("eps",)
    assert add.replay.vs_target_constants is not None and add.replay.vs_target_constants < 1e-6
    assert any("the constants differ, not the kernel" in e for e in add.evidence)


def test_an_empty_tensor_first_divergent_row_is_no_root_cause_and_nothing_warns(tmp_path: Path) -> None:
    """Item 9: an empty `[0]` constant that differs in shape (the first divergent row), an empty
    activation, then a real fault: diagnose names the fault, never the empty tensors, and is silent."""
    from tests.core.diagnosis.test_diagnose import pair_dirs

    empty = np.zeros((0,), np.float32)
    layers: list[dict[str, object]] = [
        {"name": "roi", "kind": "constant", "data": empty, "target": np.zeros((0, 4), np.float32)},
        {"name": "nothing", "inputs": ["roi"], "data": empty, "target": np.zeros((0, 2), np.float16)},
        {"name": "a", "red": 1e-4},
        {"name": "b", "inputs": ["a"], "red": 0.3},
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cmp = pair_dirs(tmp_path, layers)
        diag = diagnose(cmp)
        json.dumps(diag.to_json(), allow_nan=False)
    assert all(c.name not in ("roi", "nothing") for c in diag.root_causes)
    assert diag.root_causes and diag.root_causes[0].name == "b"


def test_a_fused_intermediate_beyond_float16_is_an_overflow(tmp_path: Path) -> None:
    from tests.core.diagnosis.test_diagnose import write_dump

    x = np.linspace(1, 2, 64, dtype=np.float32)
    mid = x * 1e5  # beyond float16: the fused kernel cannot hold it
    out = mid * 1e-3
    golden = [
        {"name": "x", "kind": "input", "data": x},
        {"name": "mid", "node": "big", "op": "Mul", "inputs": ["x"], "data": mid},
        {"name": "out", "node": "small", "op": "Mul", "inputs": ["mid"], "data": out},
    ]
    bad = out.astype(np.float16)
    bad[:8] = np.inf
    target = [
        {"name": "x", "kind": "input", "data": x.astype(np.float16)},
        {"name": "out", "node": "fused_mul", "op": "FusedMulMul", "inputs": ["x"], "data": bad},
    ]
    nodes = [
        {
            "name": "fused_mul",
            "op_type": "FusedMulMul",
            "index": 0,
            "inputs": ["x"],
            "outputs": ["out"],
            "fused_from": ["big", "small"],
        }
    ]
    cmp = compare(write_dump(tmp_path / "g", golden), write_dump(tmp_path / "t", target, nodes=nodes))
    top = diagnose(cmp).root_causes[0]
    assert top.name == "out" and top.cause == v.OVERFLOW
    assert any("intermediate 'mid' of fused op 'fused_mul'" in e and "float16" in e for e in top.evidence)


@settings(max_examples=60, deadline=None)
@given(
    hnp.arrays(np.float64, st.integers(1, 30), elements=st.floats(-1e6, 1e6)),
    hnp.arrays(np.float64, st.integers(1, 30), elements=st.floats(-1e6, 1e6)),
)
def test_max_abs_diff_against_a_reference(a: np.ndarray, b: np.ndarray) -> None:
    from dumpscope.core.diagnosis.replay import max_abs_diff

    n = min(a.size, b.size)
    a, b = a[:n], b[:n]
    assert max_abs_diff(a, b) == max(abs(float(x) - float(y)) for x, y in zip(a, b, strict=False))


def test_tiny_values_within_the_rounding_floor_replay_as_faithful(
    resize_case: tuple[Path, Path, Path],
) -> None:
    """A saturated output (values near 1e-6) that differs by less than float32 rounding next to 1.0
    is computed faithfully, although its relative difference is large."""
    from dumpscope.core.diagnosis.replay import ABS_FLOOR, max_abs_diff

    tiny = np.full(8, 1e-6)
    assert max_abs_diff(tiny, tiny * 1.05) <= ABS_FLOOR["float32"] < 1e-6
    assert max_abs_diff(np.array([np.nan]), np.array([1.0])) == math.inf


def test_a_destroyed_channel_slice_makes_the_row_introduced() -> None:
    """Item 5 (diagnosis side): with the comparison's worst-slice distance, a Concat whose whole-tensor
    error is below its inputs' but whose class-score slice is destroyed introduces the error."""
    frame = pl.DataFrame(
        {
            "name": ["boxes", "scores", "out"],
            "op_type": ["Mul", "Sigmoid", "Concat"],
            "kind": ["activation"] * 3,
            "status": ["computed"] * 3,
            "health": ["warn", "ok", "fail"],
            "relative_euclidean_distance": [0.02, 0.001, 0.0008],
            "cosine_similarity": [0.9998, 1.0, 0.99999],
            "nonfinite_mismatch": [0, 0, 0],
            "slice_relative_distance": [0.03, 0.002, 0.56],
        }
    )
    edges = pl.DataFrame({"row": [2, 2], "input_row": [0, 1], "constant": [False, False]})
    from dumpscope.core.diagnosis.edges import Edges

    classes = classify_frame(frame, Edges(edges, {}, {}, frozenset({2}), "test"))
    assert classes["error"][2] == pytest.approx(0.56) and classes["origin"][2] == "introduced"
    without = classify_frame(
        frame.drop("slice_relative_distance"), Edges(edges, {}, {}, frozenset({2}), "test")
    )
    assert without["origin"][2] == "inherited"


def test_replay_judges_the_worst_channel_slice() -> None:
    from dumpscope.core.diagnosis.replay import worst_rel_error

    golden = np.concatenate([np.full((1, 4, 8), 300.0), np.full((1, 2, 8), 3e-4)], axis=1)
    target = golden.copy()
    target[:, 4:] = 0.0  # the score slices quantised to zero: the whole tensor barely moves
    assert rel_error(golden, target) < 1e-5
    assert worst_rel_error(golden, target) == pytest.approx(1.0)
    assert worst_rel_error(golden, golden) == 0.0
    assert worst_rel_error(golden[0, 0], target[0, 0]) == rel_error(
        golden[0, 0], target[0, 0]
    )  # 1-D: whole only


def test_a_faint_feature_map_channel_is_no_slice_culprit() -> None:
    """A Conv's faint channel lost to int8 is drift; only a Concat or a graph output is judged per slice."""
    frame = pl.DataFrame(
        {
            "name": ["a", "conv", "out"],
            "op_type": ["Relu", "Conv", "Relu"],
            "kind": ["activation"] * 3,
            "status": ["computed"] * 3,
            "health": ["warn", "fail", "fail"],
            "relative_euclidean_distance": [0.2, 0.13, 0.14],
            "cosine_similarity": [0.98, 0.99, 0.99],
            "nonfinite_mismatch": [0, 0, 0],
            "slice_relative_distance": [0.25, 1.0, 0.9],
        }
    )
    from dumpscope.core.diagnosis.edges import Edges

    edges = Edges(
        pl.DataFrame({"row": [1, 2], "input_row": [0, 1], "constant": [False, False]}),
        {},
        {},
        frozenset({1, 2}),
        "test",
    )
    classes = classify_frame(frame, edges)
    assert classes["error"][1] == pytest.approx(0.13) and classes["origin"][1] == "inherited"
    assert classify_frame(frame, edges, frozenset({"out"}))["error"][2] == pytest.approx(0.9)


def test_without_a_model_nothing_claims_a_replay(resize_case: tuple[Path, Path, Path]) -> None:
    """Issue 20 item 8: without ``--model`` no replay runs, and no sentence says what one measured."""
    _, g, t = resize_case
    diag = diagnose(compare(g, t))
    top = diag.root_causes[0]
    assert top.name == "resized" and top.cause == v.OPERATOR and top.replay is None and not diag.replays
    said = [diag.summary, *(s for c in diag.root_causes for s in (*c.evidence, c.advice))]
    claims = (
        "replay on the target",
        "does not match the target",
        "computes faithfully",
        "computed faithfully",
    )
    assert not [s for s in said if any(claim in s for claim in claims)]
    assert "not replayed" in top.advice


def test_the_advice_names_only_the_replay_that_ran() -> None:
    plain, checks = TargetKind(), check_advice()
    assert "does not match" in advice_for(v.OPERATOR, plain, checks, replay="differs")
    for verdict in (None, "not replayed"):
        assert "does not match" not in advice_for(v.OPERATOR, plain, checks, replay=verdict)
        assert "faithfully" not in advice_for(v.DRIFT, plain, checks, replay=verdict)
    assert "faithfully" in advice_for(v.DRIFT, plain, checks, replay="faithful")
