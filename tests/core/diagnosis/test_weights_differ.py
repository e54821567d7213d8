"""Issue 20 item 3: a weight that differs is evidence at the node reading it, measured, never rank 1 alone.

The measures (factor, sign-flipped channels, transpose, elements changed) are checked against
independent float64 references; the diagnosis against targets made by running a modified
model (a weight x1.5, flipped Conv channels, an LSTM recurrence weight x1.5) through onnxruntime.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from onnx import TensorProto, helper

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis.checks.weights import SCALE_RESIDUAL, weight_difference
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.onnx.runner import dump_model

OPSET, IR = 17, 8

_weights = hnp.arrays(
    np.float32,
    hnp.array_shapes(min_dims=2, max_dims=4, min_side=2, max_side=6),
    elements=st.floats(0.125, 4.0, width=32),
).map(lambda a: a * np.where(np.arange(a.size).reshape(a.shape) % 3 == 0, -1, 1).astype(np.float32))


@settings(max_examples=40, deadline=None)
@given(_weights, st.floats(0.2, 5.0).filter(lambda k: abs(k - 1) > 0.01))
def test_a_scaled_weight_gives_its_least_squares_factor(g: np.ndarray, k: float) -> None:
    t = (g * np.float32(k)).astype(np.float32)
    d = weight_difference(g, t)
    assert d is not None and d.cause == "weights-scaled"
    ref = np.linalg.lstsq(g.astype(np.float64).reshape(-1, 1), t.astype(np.float64).ravel(), rcond=None)[0][0]
    assert d.scale == pytest.approx(ref, rel=1e-9)
    assert d.residual <= SCALE_RESIDUAL
    assert f"{ref:.4g}" in d.words()


@settings(max_examples=40, deadline=None)
@given(_weights, st.data())
def test_sign_flipped_channels_are_counted_on_their_axis(g: np.ndarray, data: st.DataObject) -> None:
    n = g.shape[0]
    flip = data.draw(st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda f: any(f) and not all(f)))
    t = g.copy()
    t[np.array(flip)] *= -1
    d = weight_difference(g, t)
    assert d is not None and d.cause == "weights-sign"
    assert d.flipped == (0, sum(flip), n)
    assert d.changed == int((t != g).sum())  # every flipped element is nonzero here


@settings(max_examples=30, deadline=None)
@given(
    hnp.arrays(
        np.float32,
        st.tuples(st.integers(2, 6), st.integers(2, 6)).filter(lambda s: s[0] != s[1]),
        elements=st.floats(-3, 3, width=32),
    ).filter(lambda a: len(np.unique(a)) > 3)
)
def test_a_weight_stored_transposed_is_named_transposed(g: np.ndarray) -> None:
    d = weight_difference(g, np.ascontiguousarray(g.T))
    assert d is not None and d.cause == "weights-transposed" and d.transposed == (1, 0)


@settings(max_examples=30, deadline=None)
@given(_weights, st.data())
def test_scattered_changes_are_counted_and_fitted(g: np.ndarray, data: st.DataObject) -> None:
    flat = g.ravel()
    picks = data.draw(st.sets(st.integers(0, flat.size - 1), min_size=1, max_size=max(1, flat.size // 3)))
    t = flat.copy()
    for i in picks:
        t[i] = t[i] + np.float32(7.0)
    t = t.reshape(g.shape)
    d = weight_difference(g, t)
    assert d is not None
    assert d.changed == len(picks)  # independent count: every pick moved by 7, far beyond the tolerance
    gg, tt = g.astype(np.float64).ravel(), t.astype(np.float64).ravel()
    s = gg @ tt / (gg @ gg)
    assert d.residual == pytest.approx(np.linalg.norm(tt - s * gg) / np.linalg.norm(tt), rel=1e-9, abs=1e-12)


def test_one_differing_value_is_quoted_not_patterned() -> None:
    d = weight_difference(np.array(1e-5, np.float32), np.array(-1.0, np.float32))
    assert d is not None and d.cause == "weights-differ"
    assert d.words() == "the target holds [-1] where the golden holds [1e-05]"


def test_equal_weights_do_not_differ() -> None:
    g = np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4)
    assert weight_difference(g, g.copy()) is None
    assert weight_difference(g, np.full(5, 1.0, np.float32)) is None  # not comparable: no claim


# ------------------------------------------------------------------ diagnosis on modified models


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    inits: dict[str, np.ndarray],
    out: str = "y",
) -> onnx.ModelProto:
    outputs = [helper.make_tensor_value_info(out, TensorProto.FLOAT, None)]
    graph = helper.make_graph(
        nodes,
        "m",
        inputs,
        outputs,
        initializer=[onnx.numpy_helper.from_array(a, n) for n, a in inits.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR)


def _matmul(w: np.ndarray) -> onnx.ModelProto:
    nodes = [
        helper.make_node("Relu", ["x"], ["r"], name="pre"),
        helper.make_node("MatMul", ["r", "W"], ["m"], name="fc"),
        helper.make_node("Tanh", ["m"], ["y"], name="act"),
    ]
    return _model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])], {"W": w})


def _conv(w: np.ndarray) -> onnx.ModelProto:
    nodes = [
        helper.make_node("Relu", ["x"], ["r"], name="pre"),
        helper.make_node("Conv", ["r", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["y"], name="act"),
    ]
    return _model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 6, 6])], {"w": w})


def _lstm(r: np.ndarray) -> onnx.ModelProto:
    rng = np.random.default_rng(1)
    w = (rng.standard_normal((1, 16, 3)) * 0.5).astype(np.float32)
    nodes = [
        helper.make_node("Relu", ["x"], ["xr"], name="pre"),
        helper.make_node("LSTM", ["xr", "W", "R", "", "", "h0"], ["seq"], name="lstm", hidden_size=4),
        helper.make_node("Tanh", ["seq"], ["y"], name="act"),
    ]
    return _model(
        nodes,
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [5, 1, 3]),
            helper.make_tensor_value_info("h0", TensorProto.FLOAT, [1, 1, 4]),
        ],
        {"W": w, "R": r},
    )


def _diagnosed(
    tmp_path: Path,
    golden: onnx.ModelProto,  # type: ignore[no-untyped-def]
    target: onnx.ModelProto,
    feeds: dict[str, np.ndarray],
):
    paths = {}
    for name, value in feeds.items():
        paths[name] = tmp_path / f"{name}.npy"
        np.save(paths[name], value)
    for tag, model in (("g", golden), ("t", target)):
        onnx.save_model(model, str(tmp_path / f"{tag}.onnx"))
        dump_model(tmp_path / f"{tag}.onnx", tmp_path / tag, inputs=paths)
    cmp = compare(tmp_path / "g", tmp_path / "t", model=tmp_path / "g.onnx")
    return cmp, diagnose(cmp)


def _top_is_the_node(
    cmp,
    diag,
    output: str,
    constant: str,  # type: ignore[no-untyped-def]
    words: str,
) -> None:
    top = diag.root_causes[0]
    assert top.name == output and top.kind == "activation" and top.cause == v.WEIGHTS
    said = [e for e in top.evidence if e.startswith("weights differ:")]
    assert said and f"constant {constant!r}" in said[0] and words in said[0]
    assert all(c.kind != "constant" for c in diag.root_causes)  # the constant is evidence, not a candidate
    assert cmp.frame["kind"][cmp.first_divergent()] == "activation"  # `f` lands on an activation row
    assert "Resize" not in top.advice and "weight" in top.advice
    assert top.replay is not None and top.replay.constants_explain
    assert "implementation differs" not in top.replay.sentence()


def test_a_matmul_weight_times_1_5_is_weights_differ_at_the_matmul(tmp_path: Path) -> None:
    w = np.random.default_rng(0).standard_normal((8, 5)).astype(np.float32)
    x = np.random.default_rng(2).standard_normal((2, 8)).astype(np.float32)
    cmp, diag = _diagnosed(tmp_path, _matmul(w), _matmul(w * np.float32(1.5)), {"x": x})
    _top_is_the_node(cmp, diag, "m", "W", "the golden times 1.5")


def test_sign_flipped_conv_channels_are_weights_differ_at_the_conv(tmp_path: Path) -> None:
    w = np.random.default_rng(0).standard_normal((8, 3, 3, 3)).astype(np.float32)
    flipped = w.copy()
    flipped[:3] *= -1
    x = np.random.default_rng(2).standard_normal((1, 3, 6, 6)).astype(np.float32)
    cmp, diag = _diagnosed(tmp_path, _conv(w), _conv(flipped), {"x": x})
    _top_is_the_node(cmp, diag, "c", "w", "3 of 8 channels along axis 0 have their sign flipped")


def test_an_lstm_recurrence_weight_times_1_5_is_weights_differ_at_the_lstm(tmp_path: Path) -> None:
    r = (np.random.default_rng(0).standard_normal((1, 16, 4)) * 0.5).astype(np.float32)
    feeds = {
        "x": np.random.default_rng(2).standard_normal((5, 1, 3)).astype(np.float32),
        "h0": np.random.default_rng(3).standard_normal((1, 1, 4)).astype(np.float32),
    }
    cmp, diag = _diagnosed(tmp_path, _lstm(r), _lstm(r * np.float32(1.5)), feeds)
    _top_is_the_node(cmp, diag, "seq", "R", "the golden times 1.5")


async def test_the_app_lands_on_the_node_and_names_the_constant(tmp_path: Path) -> None:
    """`f` jumps to the MatMul reading the changed weight (an activation row, not the constant), and the
    verdict bar quotes the weight's measurement."""
    from dumpscope.tui.app.app import DumpscopeApp

    w = np.random.default_rng(0).standard_normal((8, 5)).astype(np.float32)
    x = np.random.default_rng(2).standard_normal((2, 8)).astype(np.float32)
    cmp, _ = _diagnosed(tmp_path, _matmul(w), _matmul(w * np.float32(1.5)), {"x": x})
    app = DumpscopeApp(cmp)
    async with app.run_test(size=(140, 40)) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            if app.diagnosis is not None:
                break
        assert app.diagnosis is not None
        await pilot.pause(0.2)
        bar = str(app.query_one("#verdict-text").render())
        assert "weights differ" in bar and "'W'" in bar and "times 1.5" in bar
        await pilot.press("g", "f")
        assert cmp.frame["name"][app.layer_list.selected] == "m"
        assert cmp.frame["kind"][app.layer_list.selected] == "activation"
