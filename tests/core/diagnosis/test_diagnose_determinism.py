"""Issue 20 item 2: the same inputs give the same diagnosis, byte for byte, on any machine and load.

The replay of suspect nodes is bounded by work (count, nodes, elements), never by the clock:
a slowed clock and a busy CPU change nothing in the JSON or Markdown a diagnosis writes.
The dumps are made by the product's own ``dump_model`` from a small ONNX model run golden
and under the fp16 recipe (rounding everywhere: many suspects to replay).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.diagnosis import engine
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.diagnosis.markdown import markdown
from dumpscope.core.onnx.runner import dump_model

LAYERS = 12
#: How long the CPU hog may run at most (it is stopped as soon as the diagnosis is done).
HOG_S = 120


def _chain_model() -> onnx.ModelProto:
    """x[1,8,32] -> LAYERS x (MatMul(w_k) -> Tanh) -> y, weights that grow values past fp16's comfort."""
    rng = np.random.default_rng(3)
    nodes, inits, prev = [], [], "x"
    for k in range(LAYERS):
        w = (rng.standard_normal((32, 32)) * (0.9 if k % 3 else 3.0)).astype(np.float32)
        inits.append(onnx.numpy_helper.from_array(w, f"w{k}"))
        nodes.append(helper.make_node("MatMul", [prev, f"w{k}"], [f"m{k}"], name=f"matmul{k}"))
        nodes.append(helper.make_node("Tanh", [f"m{k}"], [f"t{k}"], name=f"tanh{k}"))
        prev = f"t{k}"
    nodes.append(helper.make_node("Identity", [prev], ["y"], name="out"))
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 32])
    graph = helper.make_graph(
        nodes, "chain", [x], [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=inits
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


@pytest.fixture(scope="module")
def fp16_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("determinism")
    model = root / "chain.onnx"
    onnx.save_model(_chain_model(), str(model))
    dump_model(model, root / "g")
    dump_model(model, root / "t", target="fp16")
    return model, root / "g", root / "t"


def _outputs(cmp: Comparison) -> tuple[str, str]:
    """What a diagnosis writes: its JSON and its Markdown report."""
    diag = diagnose(cmp)
    return json.dumps(diag.to_json(), indent=1, allow_nan=False, default=str), markdown(cmp, diag)


def test_the_diagnosis_replays_and_names_what_it_replayed(fp16_case: tuple[Path, Path, Path]) -> None:
    model, g, t = fp16_case
    diag = diagnose(compare(g, t, model=model))
    assert diag.replays, "the fp16 chain has suspects to replay"
    assert all(r.verdict in ("faithful", "differs") for r in diag.replays.values())
    text = json.dumps(diag.to_json())
    assert "seconds" not in text and "budget" not in text


def test_a_slowed_clock_changes_nothing(
    fp16_case: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    model, g, t = fp16_case
    cmp = compare(g, t, model=model)
    idle = _outputs(cmp)
    ticks = itertools.count()
    slow = lambda: 1000.0 * next(ticks)  # noqa: E731 - every reading of the clock 1000 s after the last
    monkeypatch.setattr(time, "perf_counter", slow)
    monkeypatch.setattr(time, "monotonic", slow)
    assert _outputs(cmp) == idle
    assert next(ticks) > 0, "the slowed clock was installed where the product reads it"


def test_a_busy_cpu_changes_nothing(fp16_case: tuple[Path, Path, Path]) -> None:
    model, g, t = fp16_case
    cmp = compare(g, t, model=model)
    idle = _outputs(cmp)
    spin = f"import time\nend = time.monotonic() + {HOG_S}\nwhile time.monotonic() < end: pass\n"
    hogs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(2)]
    try:
        loaded = [_outputs(compare(g, t, model=model)) for _ in range(2)]
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert loaded == [idle, idle]


def test_the_top_causes_are_replayed_whatever_the_first_pass(
    fp16_case: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ranking replays the causes it puts on top when the first pass (suspects by their numbers)
    did not: with no first pass at all, the answer is the same."""
    model, g, t = fp16_case
    cmp = compare(g, t, model=model)
    full = diagnose(cmp)
    monkeypatch.setattr(engine, "FIRST_REPLAYS", 0)
    lazy = diagnose(cmp)
    top = lazy.root_causes[: engine.REPLAYED_TOP]
    assert all(c.replay is not None for c in top if c.kind == "activation" and c.cause != "not-compared")
    assert (lazy.root_causes[0].name, lazy.root_causes[0].cause) == (
        full.root_causes[0].name,
        full.root_causes[0].cause,
    )
