"""Issue 20 item 5: a target that stops exactly at a dtype's limit where the golden goes beyond is
saturation (class overflow), named with its numbers, not an operator that computes differently.

The target is a modified model run by onnxruntime (a ``Clip`` at the float16 maximum after the
node), never edited numbers; the counts are checked against an independent float64 count.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import onnx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from onnx import TensorProto, helper

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis.checks.saturation import Rail, _held
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.onnx.runner import dump_model

FP16_MAX = 65504.0


def _model(clip: bool) -> onnx.ModelProto:
    """x[1,4,8] -> Mul(w = 3e4) -> (Clip at +-65504 when ``clip``) -> Tanh -> y."""
    w = np.full((1, 1, 1), 3e4, np.float32)
    inits = [onnx.numpy_helper.from_array(w, "w")]
    nodes = [helper.make_node("Mul", ["x", "w"], ["big_raw" if clip else "big"], name="scale")]
    if clip:
        inits += [
            onnx.numpy_helper.from_array(np.array(v, np.float32), n)
            for n, v in (("lo", -FP16_MAX), ("hi", FP16_MAX))
        ]
        nodes.append(helper.make_node("Clip", ["big_raw", "lo", "hi"], ["big"], name="saturate"))
    nodes.append(helper.make_node("Tanh", ["big"], ["y"], name="tanh"))
    graph = helper.make_graph(
        nodes,
        "m",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializer=inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


@pytest.fixture
def saturated(tmp_path: Path) -> tuple[Path, Path, Path, np.ndarray]:
    golden, target = tmp_path / "golden.onnx", tmp_path / "target.onnx"
    onnx.save_model(_model(False), str(golden))
    onnx.save_model(_model(True), str(target))
    x = np.linspace(-4, 4, 32, dtype=np.float32).reshape(1, 4, 8)
    np.save(tmp_path / "x.npy", x)
    dump_model(golden, tmp_path / "g", inputs={"x": str(tmp_path / "x.npy")})
    dump_model(target, tmp_path / "t", inputs={"x": str(tmp_path / "x.npy")})
    return golden, tmp_path / "g", tmp_path / "t", x.astype(np.float64) * 3e4


def test_a_target_clipped_at_the_fp16_limit_is_saturation(
    saturated: tuple[Path, Path, Path, np.ndarray],
) -> None:
    model, g, t, golden_big = saturated
    diag = diagnose(compare(g, t, model=model))
    top = diag.root_causes[0]
    assert top.name == "big" and top.cause == v.OVERFLOW
    sentence = next(e for e in top.evidence if e.startswith("saturation"))
    beyond = int(np.count_nonzero(golden_big > FP16_MAX))  # independent: float64 golden past +65504
    assert beyond > 0
    m = re.search(
        r"(\d+) of (\d+) target values sit exactly at the float16 limit 65504 .*\(golden reaches "
        r"([\d.e+]+); (\d+) golden values past the limit, (\d+) of them held",
        sentence,
    )
    assert m is not None, sentence
    assert (int(m[1]), int(m[2]), int(m[4]), int(m[5])) == (beyond, golden_big.size, beyond, beyond)
    assert float(m[3]) == pytest.approx(golden_big.max(), rel=1e-5)
    assert "saturate" in top.advice and "keep" not in top.advice.lower()


def test_an_unclipped_difference_is_not_saturation(tmp_path: Path) -> None:
    """Golden and target both past the limit (no clip): nothing sits at the rail."""
    golden = np.array([1e5, -2e5, 3.0])
    assert _held(golden, golden.astype(np.float32) * 1.01, Rail("float16", FP16_MAX, FP16_MAX, True)) is None


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 64), elements=st.floats(-2e5, 2e5)), st.floats(0.0, 1.0))
def test_held_counts_match_an_independent_count(golden: np.ndarray, share: float) -> None:
    """Clip a share of the golden values past +65504 to the rail (the rest keep their value): the finding's
    counts are those of a plain count, and it is made exactly when at least half of them are held."""
    past = np.flatnonzero(golden > FP16_MAX)
    clipped = past[: int(round(share * past.size))]
    target = golden.astype(np.float32)
    target[clipped] = np.float32(FP16_MAX)
    found = _held(golden, target, Rail("float16", FP16_MAX, FP16_MAX, True))
    held = sum(1 for i in past if target[i] == FP16_MAX)
    if past.size == 0 or 2 * held < past.size or held == 0:
        assert found is None
        return
    assert found is not None
    assert (found.beyond, found.held) == (past.size, held)
    assert found.at_rail == sum(1 for x in target if x == FP16_MAX)
    assert found.golden_max == max(golden[past])


def test_an_int8_tensor_held_at_its_quantisation_rail_is_saturation(monkeypatch: pytest.MonkeyPatch) -> None:
    """An int8 target (scale 0.1, zero point 3) at 127 where the golden passes (127 - 3) * 0.1 = 12.4."""
    from dumpscope.core.diagnosis.checks import saturation

    monkeypatch.setattr(saturation, "quant_params", lambda cmp, row: (0.1, 3, "int8"))
    golden = np.array([1.0, 12.3, 12.5, 30.0, -20.0])
    target = np.clip(np.round(golden / 0.1) + 3, -128, 127).astype(np.int8)
    rails = saturation._rails(SimpleNamespace(cmp=None), 0, target)  # type: ignore[arg-type]
    assert [(r.stored, r.value, r.up) for r in rails] == [
        (127, pytest.approx(12.4), True),
        (-128, pytest.approx(-13.1), False),
    ]
    top = _held(golden, target, rails[0])
    assert top is not None and (top.at_rail, top.beyond, top.held, top.golden_max) == (2, 2, 2, 30.0)
    bottom = _held(golden, target, rails[1])
    assert bottom is not None and (bottom.at_rail, bottom.beyond, bottom.golden_max) == (1, 1, -20.0)
