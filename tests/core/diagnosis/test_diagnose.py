"""Diagnosis: introduced vs inherited, side branches, jump vs drift, NaN/Inf origin, range and
overflow evidence, input mismatch, fusion suspects, quantisation loss, CLI and report."""

from __future__ import annotations

import hashlib
import json
import math
import shlex
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from onnx import TensorProto, helper

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.diagnosis.engine import Diagnosis, classify, diagnose
from dumpscope.core.diagnosis.markdown import markdown
from dumpscope.core.diagnosis.patch_commands import model_node
from dumpscope.core.diagnosis.replay import Replayer
from dumpscope.core.diagnosis.subgraph import model_source
from dumpscope.core.names import display, to_filename
from dumpscope.core.onnx.runner import dump_model
from dumpscope.tui.app.widgets.verdict_bar import verdict_text
from dumpscope.tui.cli.main import main
from tests.support.paths import SHARED as SHARED_DIR

SAMPLES = SHARED_DIR / "samples" / "ascend"  # shared/ sits beside the repo


# ----------------------------------------------------------------- synthetic dumps


def _golden(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) + 0.5).astype(np.float32)


def _with_error(g: np.ndarray, red: float, seed: int) -> np.ndarray:
    """``g`` plus noise whose relative Euclidean distance to ``g`` is exactly ``red``."""
    noise = np.random.default_rng(seed + 1000).standard_normal(g.shape)
    noise *= red * np.linalg.norm(g) / np.linalg.norm(noise)
    return (g.astype(np.float64) + noise).astype(np.float32)


def write_dump(root: Path, tensors: list[dict[str, object]], **manifest: object) -> Path:
    """A dumpscope npy directory: each tensor dict has name, data and optionally node, op,
    inputs, kind, quant; order in the list is the topological order."""
    root.mkdir(parents=True, exist_ok=True)
    entries = []
    topo = 0
    for t in tensors:
        data = np.asarray(t["data"])
        name = str(t["name"])
        kind = str(t.get("kind", "activation"))
        np.save(root / to_filename(name), data, allow_pickle=False)
        entry = {
            "name": name,
            "file": to_filename(name),
            "kind": kind,
            "node_name": t.get("node", None if kind != "activation" else f"{name}_node"),
            "op_type": t.get("op", None if kind != "activation" else "Relu"),
            "topo_index": topo if kind == "activation" else -1,
            "node_inputs": list(t.get("inputs", [])),  # type: ignore[call-overload]
            "output_index": 0,
            "dtype": str(data.dtype),
            "shape": list(data.shape),
        }
        if "quant" in t:
            entry["quant"] = t["quant"]
        topo += kind == "activation"
        entries.append(entry)
    body = {
        "format": "dumpscope-manifest",
        "version": 1,
        "tensors": entries,
        "inputs": [],
        "nodes": [],
        "clamped": [],
    }
    body.update(manifest)
    (root / "manifest.json").write_text(json.dumps(body), encoding="utf-8")
    return root


def pair_dirs(tmp_path: Path, layers: list[dict[str, object]], **target_manifest: object) -> Comparison:
    """Golden and fp16 target dumps from layer specs: ``red`` (relative error of the target),
    ``nan`` (NaN positions in the target), ``target`` (explicit target data)."""
    golden, target = [], []
    for k, spec in enumerate(layers):
        g = spec.get("data")
        if g is None:
            g = _golden((64,), k)
        g = np.asarray(g)
        t = spec.get("target")
        if t is None:
            t = _with_error(g, float(spec.get("red", 1e-4)), k).astype(np.float16)  # type: ignore[arg-type]
            if spec.get("nan"):
                t = t.copy()
                t[: int(spec["nan"])] = np.nan  # type: ignore[call-overload]
        base = {key: spec[key] for key in ("name", "node", "op", "inputs", "kind") if key in spec}
        golden.append({**base, "data": g})
        target.append(
            {**base, "data": np.asarray(t), **({"quant": spec["quant"]} if "quant" in spec else {})}
        )
    gdir = write_dump(tmp_path / "golden", golden)
    tdir = write_dump(tmp_path / "target", target, **target_manifest)
    return compare(gdir, tdir)


def _origins(diag: Diagnosis, cmp: Comparison) -> dict[str, str]:
    return dict(zip(cmp.frame["name"].to_list(), diag.classification["origin"].to_list(), strict=False))


# ----------------------------------------------------------------- introduced vs inherited


def test_introduced_vs_inherited_with_side_branches(tmp_path: Path) -> None:
    cmp = pair_dirs(
        tmp_path,
        [
            {"name": "x", "kind": "input"},
            {"name": "a", "inputs": ["x"]},
            {"name": "k", "kind": "constant"},
            {"name": "b", "op": "Mul", "inputs": ["a", "k"], "red": 0.3},  # breaks here
            {"name": "c", "inputs": ["b"], "red": 0.3},  # inherits
            {"name": "s", "op": "Sigmoid", "inputs": ["x"]},  # clean side branch
            {
                "name": "d",
                "op": "Add",
                "inputs": ["c", "s"],
                "red": 0.25,
            },  # a clean branch does not make it fine
            {"name": "f", "op": "Neg", "inputs": ["s"], "red": 0.2},  # a second, independent break
        ],
    )
    diag = diagnose(cmp)
    origin = _origins(diag, cmp)
    assert origin == {
        "x": "clean",
        "a": "clean",
        "k": "clean",
        "b": "introduced",
        "c": "inherited",
        "s": "clean",
        "d": "inherited",
        "f": "introduced",
    }
    assert [c.name for c in diag.root_causes] == ["b", "f"]
    assert diag.first_divergent is not None and diag.first_divergent["name"] == "b"
    assert diag.first_divergent["origin"] == "introduced"
    row_d = cmp.frame["name"].to_list().index("d")
    assert diag.classification["worst_input"][row_d] == "c"
    assert diag.edges_source == "the dump manifest"
    top = diag.root_causes[0]
    assert top.cause == "precision" and top.kind == "activation" and top.index == 1
    assert any("worst input 'a' is ok" in e for e in top.evidence)
    assert any("--keep-fp32 b_node" in c for c in top.commands)
    # the per-row data the UI shows is the same through classify()
    assert classify(cmp)["origin"].to_list() == diag.classification["origin"].to_list()


def test_equal_health_but_tenfold_error_counts_as_introduced(tmp_path: Path) -> None:
    cmp = pair_dirs(
        tmp_path,
        [
            {"name": "a", "red": 0.06},
            {"name": "b", "inputs": ["a"], "red": 0.07},
            {"name": "c", "inputs": ["b"], "red": 0.9},
        ],
    )
    origin = _origins(diagnose(cmp), cmp)
    assert origin["b"] == "inherited" and origin["c"] == "introduced"
    assert origin["a"] == "unknown"  # unhealthy with no known input


# ----------------------------------------------------------------- jump vs drift


def test_drift_reports_first_layer_out_of_band_and_slope(tmp_path: Path) -> None:
    layers: list[dict[str, object]] = [{"name": "l0", "red": 1e-3}]
    for k in range(1, 30):
        layers.append({"name": f"l{k}", "inputs": [f"l{k - 1}"], "red": 1e-3 * 1.15**k})
    cmp = pair_dirs(tmp_path, layers)
    diag = diagnose(cmp)
    first_bad = next(k for k in range(30) if 1e-3 * 1.15**k > 0.01)  # the fp16 band warns above 0.01
    assert diag.trend.kind == "drift"
    assert cmp.frame["name"][diag.trend.row] == f"l{first_bad}"
    assert diag.trend.slope == pytest.approx(math.log10(1.15), rel=0.15)
    assert diag.root_causes[0].name == f"l{first_bad}" and diag.root_causes[0].cause == v.DRIFT
    assert "gradual decline" in diag.summary


def test_a_band_crossed_with_little_growth_is_inherited_not_introduced(tmp_path: Path) -> None:
    """A row whose error is under twice its input's only carries an inherited error over the band's edge
    (a drift, a Split of the part of its input where the error is densest): it introduces nothing, and a
    drift's first row out of the band names the drift, not a culprit."""
    layers: list[dict[str, object]] = [{"name": "l0", "red": 1e-3}]
    for k in range(1, 30):
        layers.append({"name": f"l{k}", "inputs": [f"l{k - 1}"], "red": 1e-3 * 1.15**k})
    cmp = pair_dirs(tmp_path, layers)
    diag = diagnose(cmp)
    first_bad = cmp.frame["name"][diag.trend.row]
    errors = dict(zip(cmp.frame["name"], cmp.frame["relative_euclidean_distance"], strict=True))
    k = int(str(first_bad)[1:])
    assert errors[f"l{k}"] / errors[f"l{k - 1}"] < 2  # the independent check: it grew by under 2x here
    assert _origins(diag, cmp)[str(first_bad)] == "inherited"
    assert diag.root_causes[0].cause == v.DRIFT
    assert "Most likely root cause" not in diag.summary and "introduced here" not in str(diag.root_causes[0])


def test_a_healthy_run_names_no_root_cause_and_no_unmeasured_kernel(tmp_path: Path) -> None:
    """Every row within its band (one warns, its error 100x its input's, no model to replay it): the
    summary says which warning ranks first and that nothing explains it, never that an operator's
    implementation differs (no replay measured that) nor a root cause of a failure there is not."""
    reds = {"a": 1e-6, "b": 2e-3, "c": 2e-3}  # float32 on both sides: the band warns above 1e-3
    layers: list[dict[str, object]] = [
        {"name": n, "inputs": [p] if p else [], "target": _with_error(_golden((64,), k), reds[n], k)}
        for k, (n, p) in enumerate((("a", None), ("b", "a"), ("c", "b")))
    ]
    for k, spec in enumerate(layers):
        spec["data"] = _golden((64,), k)
    cmp = pair_dirs(tmp_path, layers)
    diag = diagnose(cmp)
    health = dict(zip(cmp.frame["name"], cmp.frame["health"], strict=True))
    assert health == {"a": "ok", "b": "warn", "c": "warn"}
    assert diag.root_causes[0].name == "b" and diag.root_causes[0].cause == v.OPERATOR
    assert diag.root_causes[0].replay is None
    assert "Top-ranked warning: 'b' (Relu): no check explains the error there" in diag.summary
    assert "Most likely root cause" not in diag.summary
    assert "implementation differs" not in diag.summary
    assert verdict_text(diag).plain.startswith("! top warning: #1 b (Relu)")  # the UI's one line says so too


def test_jump_is_told_apart_from_drift(tmp_path: Path) -> None:
    layers: list[dict[str, object]] = [{"name": "l0", "red": 2e-4}]
    for k in range(1, 20):
        layers.append({"name": f"l{k}", "inputs": [f"l{k - 1}"], "red": 0.4 if k >= 12 else 2e-4})
    cmp = pair_dirs(tmp_path, layers)
    diag = diagnose(cmp)
    assert diag.trend.kind == "jump" and cmp.frame["name"][diag.trend.row] == "l12"
    assert diag.trend.after == pytest.approx(0.4, rel=0.01)
    assert [c.name for c in diag.root_causes] == ["l12"]


# ----------------------------------------------------------------- NaN/Inf origin


def test_nan_origin_is_first_node_with_finite_inputs_and_nonfinite_output(tmp_path: Path) -> None:
    cmp = pair_dirs(
        tmp_path,
        [
            {"name": "a", "red": 1e-4},
            {"name": "b", "inputs": ["a"], "red": 1e-4},
            {"name": "c", "op": "Div", "inputs": ["b"], "red": 1e-4, "nan": 3},
            {"name": "d", "inputs": ["c"], "red": 1e-4, "nan": 5},
        ],
    )
    diag = diagnose(cmp)
    assert diag.nan_origin is not None and cmp.frame["name"][diag.nan_origin] == "c"
    top = diag.root_causes[0]
    assert top.name == "c" and top.cause == v.NAN_ORIGIN
    assert any("first NaN/Inf" in e and "3 NaN" in e for e in top.evidence)
    assert _origins(diag, cmp)["d"] == "inherited"


# ----------------------------------------------------------------- range, constants, overflow


def test_constant_out_of_fp16_range_is_named_as_the_cause(tmp_path: Path, model_builder) -> None:  # type: ignore[no-untyped-def]
    w = np.full((1, 8), 0.5, np.float32)
    w[0, 3] = 1e6  # beyond fp16: the conversion clamps it
    model = model_builder(
        [
            helper.make_node("Relu", ["x"], ["r"], name="relu"),
            helper.make_node("Mul", ["r", "scale/w"], ["y"], name="scale_mul"),
            helper.make_node("Tanh", ["y"], ["z"], name="tanh"),
        ],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 8])],
        {"scale/w": w},
    )
    dump_model(model, tmp_path / "g")
    dump_model(model, tmp_path / "t", target="fp16")
    cmp = compare(tmp_path / "g", tmp_path / "t")
    diag = diagnose(cmp)
    top = diag.root_causes[0]
    assert top.name == "y" and top.node_name == "scale_mul" and top.cause == v.OVERFLOW
    assert any("constant 'scale/w'" in e and "clamped 1 value" in e for e in top.evidence)
    assert any(
        "only bad input is the constant 'scale/w'" in e or "worst input 'r' is ok" in e for e in top.evidence
    )
    assert _origins(diag, cmp)["y"] == "introduced"
    assert any("fp16 conversion: clamp 1 value(s) of constant 'scale/w'" in line for line in diag.overflow)
    assert any(
        line.startswith("golden constant #-1 'scale/w' reaches |x| 1e+06, at or beyond the float16 maximum")
        for line in diag.overflow
    )
    assert top.commands == (
        f"dumpscope patch {shlex.quote(str(model))} -o "
        f"{shlex.quote(str(model.with_suffix('')) + '.patched.onnx')} --keep-fp32 scale_mul",
    )


def test_golden_activation_beyond_fp16_is_an_overflow(tmp_path: Path) -> None:
    big = np.linspace(-1, 1, 64).astype(np.float32) * 1e5
    t = np.clip(big, -65504, 65504).astype(np.float16).astype(np.float32)
    t[np.abs(big) > 65504] = np.inf
    cmp = pair_dirs(
        tmp_path,
        [
            {"name": "a", "red": 1e-4},
            {"name": "s", "op": "ReduceSum", "inputs": ["a"], "data": big, "target": t.astype(np.float16)},
        ],
    )
    diag = diagnose(cmp)
    top = diag.root_causes[0]
    assert top.name == "s" and top.cause == "overflow"
    assert any("golden sum of 's_node'" in e and "float16 range" in e for e in top.evidence)


# ----------------------------------------------------------------- input mismatch, fusion, quantisation


def test_inputs_that_already_differ_come_first(tmp_path: Path) -> None:
    x = _golden((32,), 1)
    golden_inputs = [{"name": "x", "sha256": hashlib.sha256(b"golden").hexdigest()}]
    target_inputs = [{"name": "x", "sha256": hashlib.sha256(b"target").hexdigest()}]
    g = write_dump(
        tmp_path / "golden",
        [{"name": "x", "kind": "input", "data": x}, {"name": "a", "inputs": ["x"], "data": x * 2}],
        inputs=golden_inputs,
    )
    xt = (x * 255).astype(np.float32)  # not normalised on the target side
    t = write_dump(
        tmp_path / "target",
        [{"name": "x", "kind": "input", "data": xt}, {"name": "a", "inputs": ["x"], "data": xt * 2}],
        inputs=target_inputs,
    )
    cmp = compare(g, t)
    diag = diagnose(cmp)
    assert diag.summary.startswith("input 'x' differs between golden and target")
    top = diag.root_causes[0]
    assert top.name == "x" and top.cause == v.PREPROCESSING and top.score == 1.0
    assert "pre-processing" in top.advice
    assert _origins(diag, cmp)["a"] == "inherited"


def test_fused_op_wrong_while_its_inputs_are_healthy(tmp_path: Path) -> None:
    x = _golden((64,), 3)
    mid = np.tanh(x)
    out = mid * 2
    golden = [
        {"name": "x", "kind": "input", "data": x},
        {"name": "mid", "node": "tanh", "op": "Tanh", "inputs": ["x"], "data": mid},
        {"name": "out", "node": "mul", "op": "Mul", "inputs": ["mid"], "data": out},
    ]
    target = [
        {"name": "x", "kind": "input", "data": x.astype(np.float16)},
        {
            "name": "out",
            "node": "tanh_mul_fused",
            "op": "FusedTanhMul",
            "inputs": ["x"],
            "data": _with_error(out, 0.2, 3).astype(np.float16),
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
    diag = diagnose(cmp)
    top = diag.root_causes[0]
    assert top.name == "out" and top.cause == "fusion"
    assert any("fuses 2 original ops ('tanh', 'mul')" in e for e in top.evidence)
    # Issue 10 item 7: Ascend's fusion_switch.cfg only for an Ascend target; this one is a plain dump.
    assert "fusion_switch.cfg" not in top.advice and "disable this fusion" in top.advice
    assert _origins(diag, cmp)["out"] == "introduced"


def test_quantisation_loss_ranks_layers_and_advises_int16(tmp_path: Path) -> None:
    narrow = _golden((256,), 4)
    wide = np.linspace(-25, 25, 256).astype(np.float32)

    def q(a: np.ndarray, scale: float) -> np.ndarray:
        return (np.clip(np.round(a / scale), -128, 127) * scale).astype(np.float32)

    s1, s2 = float(np.abs(narrow).max() / 127), 0.1  # the wide tensor saturates at +-12.7
    cmp = pair_dirs(
        tmp_path,
        [
            {
                "name": "x",
                "kind": "input",
                "data": narrow,
                "target": q(narrow, s1),
                "quant": {"scale": s1, "zero_point": 0, "dtype": "int8"},
            },
            {
                "name": "conv1",
                "op": "Conv",
                "inputs": ["x"],
                "data": narrow * 1.5,
                "target": q(narrow * 1.5, s1 * 1.5),
                "quant": {"scale": s1 * 1.5, "zero_point": 0, "dtype": "int8"},
            },
            {
                "name": "conv2",
                "op": "Conv",
                "inputs": ["conv1"],
                "data": wide,
                "target": q(wide, s2),
                "quant": {"scale": s2, "zero_point": 0, "dtype": "int8"},
            },
        ],
    )
    diag = diagnose(cmp)
    assert diag.quantisation and diag.quantisation[0]["name"] == "conv2"
    assert diag.quantisation[0]["int16_advised"] is True and diag.quantisation[0]["scale"] == pytest.approx(
        0.1
    )
    top = diag.root_causes[0]
    assert top.name == "conv2" and top.cause == "quantisation"
    assert any("try INT16" in e for e in top.evidence)
    assert any("reach or pass the int8 range" in e for e in top.evidence)
    assert "INT16" in top.advice


# ----------------------------------------------------------------- graph sources


def test_edges_from_the_onnx_graph_when_dumps_have_no_manifest(tmp_path: Path, model_builder) -> None:  # type: ignore[no-untyped-def]
    model = model_builder(
        [
            helper.make_node("Relu", ["x"], ["a"], name="relu"),
            helper.make_node("Exp", ["a"], ["b"], name="exp"),
            helper.make_node("Add", ["b", "a"], ["c"], name="add"),
        ],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("c", TensorProto.FLOAT, [1, 8])],
    )
    dump_model(model, tmp_path / "g")
    dump_model(model, tmp_path / "t", target="fp16")
    for side in ("g", "t"):  # plain npy directories: no manifest, names from the file names
        (tmp_path / side / "manifest.json").unlink()
    cmp = compare(tmp_path / "g", tmp_path / "t", model=model)
    diag = diagnose(cmp, model)
    assert diagnose(cmp).edges_source == "the ONNX graph"  # the model the comparison was made with
    assert diag.edges_source == "the ONNX graph"
    worst = dict(zip(cmp.frame["name"].to_list(), diag.classification["worst_input"].to_list(), strict=False))
    assert worst["b"] == "a" and worst["c"] in ("a", "b")
    assert _origins(diag, cmp)["c"] == "clean"


@pytest.mark.skipif(not (SAMPLES / "graph.json").is_file(), reason="shared Ascend samples not present")
def test_edges_from_an_atc_graph() -> None:
    cmp = compare(SAMPLES / "golden", SAMPLES / "npu", graph=SAMPLES / "graph.json")
    diag = diagnose(cmp)
    assert diag.edges_source == "the ATC graph"
    assert diag.classification.filter(pl.col("inputs") > 0).height >= 19


def test_model_node_strips_run_prefixes() -> None:
    nodes = frozenset({"attn/exp", "exp"})
    assert model_node("frame5/attn/exp", nodes) == "attn/exp"
    assert model_node("attn/exp", nodes) == "attn/exp"
    assert model_node("other", nodes) == "other" and model_node("x/y", None) == "x/y"


def test_reopened_comparison_without_tensors(tmp_path: Path) -> None:
    cmp = pair_dirs(tmp_path, [{"name": "a"}, {"name": "b", "inputs": ["a"], "red": 0.3}])
    cmp.save(tmp_path / "c.parquet")
    diag = diagnose(Comparison.open(tmp_path / "c.parquet"))
    assert diag.edges_source.startswith("none") and set(diag.classification["origin"]) <= {"clean", "unknown"}
    assert not diag.healthy and diag.first_divergent is not None


# ----------------------------------------------------------------- the demo loop


@pytest.fixture(scope="module")
def demo_diagnosis(demo):  # type: ignore[no-untyped-def]
    return demo, diagnose(compare(demo.golden, demo.target))


def _verify(demo, command: str, tmp_path: Path) -> dict[str, dict[str, str]]:  # type: ignore[no-untyped-def]
    """Run a ``dumpscope patch`` command, dump golden and fp16 target of the original and the
    patched model on frame 5's inputs, compare; name -> health per model, and dtypes after."""
    args = shlex.split(command)[1:]
    patched = tmp_path / "patched.onnx"
    args[args.index("-o") + 1] = str(patched)
    assert main(args) == 0
    feeds = [
        f"x={demo.golden / 'inputs' / to_filename('frame5/x')}",
        f"cached_key={demo.golden / 'inputs' / to_filename('frame5/cached_key')}",
    ]
    out: dict[str, dict[str, str]] = {}
    for label, model in (("before", demo.model), ("after", patched)):
        dump_model(model, tmp_path / f"{label}_g", inputs=feeds)
        manifest = dump_model(model, tmp_path / f"{label}_t", inputs=feeds, target="fp16")
        cmp = compare(tmp_path / f"{label}_g", tmp_path / f"{label}_t")
        out[label] = dict(zip(cmp.frame["name"].to_list(), cmp.frame["health"].to_list(), strict=False))
        out[f"{label}_dtypes"] = {t["name"]: t["dtype"] for t in manifest["tensors"]}
    return out


def test_demo_diagnosis_names_the_frame5_exp_overflow(demo_diagnosis) -> None:  # type: ignore[no-untyped-def]
    _demo, diag = demo_diagnosis
    top = diag.root_causes[0]
    assert top.name == "frame5/attn/exp:0" and top.op_type == "Exp" and top.cause == "overflow"
    assert diag.first_divergent is not None and diag.first_divergent["name"] == "frame5/attn/exp:0"
    assert diag.nan_origin == diag.first_divergent["row"] and diag.trend.kind == "jump"
    assert any("exceed ln(65504) = 11.09" in e for e in top.evidence)
    assert "keep the op in fp32" in top.advice and "Clip" in top.advice
    assert any(c.endswith("--keep-fp32 attn/exp attn/sum attn/softmax") for c in top.commands)
    assert any("--clip attn/scale=-inf," in c for c in top.commands)


def test_demo_root_cause_is_replayed_on_its_own_frame(demo) -> None:  # type: ignore[no-untyped-def]
    """The streaming demo dumps frame k's tensors as ``frame{k}/x`` of a one-frame model: a row is
    replayed as the model's node fed that frame's own dumped inputs."""
    cmp = compare(demo.golden, demo.target, model=demo.model)
    top = diagnose(cmp).root_causes[0]
    assert top.name == "frame5/attn/exp:0" and top.replay is not None
    assert top.replay.verdict == "differs" and top.replay.nodes == ("attn/exp",)
    assert top.replay.vs_target == math.inf and top.effect == 1.0
    replayer = Replayer(cmp, model_source(cmp))  # type: ignore[arg-type]
    rows = {n: i for i, n in enumerate(cmp.frame["name"].to_list())}
    for k in range(5):  # another frame's inputs would be far off: each frame replays within rounding
        rep = replayer.replay(rows[f"frame{k}/attn/exp:0"])
        assert rep.faithful and rep.vs_target is not None and rep.vs_target < 1e-2, (k, rep)
    assert replayer.src.run_prefix("frame5/attn/exp:0") == ("frame5/", "attn/exp:0")
    assert replayer.src.run_prefix("attn/exp:0") == ("", "attn/exp:0")
    assert (
        replayer.replay(rows["frame0/attn/scale"]).note
        == "'frame0/attn/scale' is not a node output of the model"
    )


def test_a_run_prefix_without_that_runs_inputs_is_not_replayed(demo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A prefixed row is fed only its own run's inputs: when those are missing it says which."""
    import shutil

    target = tmp_path / "target"
    shutil.copytree(demo.target, target)
    (target / to_filename("frame3/attn/scaled:0")).with_suffix(".npy").unlink()
    cmp = compare(demo.golden, target, model=demo.model)
    row = cmp.frame["name"].to_list().index("frame3/attn/exp:0")
    rep = Replayer(cmp, model_source(cmp)).replay(row)  # type: ignore[arg-type]
    assert rep.verdict == "not replayed" and "'frame3/attn/scaled:0' is not in the target dump" in rep.note


def test_demo_loop_clip_fixes_the_exp(demo_diagnosis, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    demo, diag = demo_diagnosis
    health = _verify(demo, next(c for c in diag.root_causes[0].commands if "--clip" in c), tmp_path)
    assert health["before"]["attn/exp:0"] == "fail"
    assert health["after"]["attn/exp:0"] == "ok"
    assert set(health["after"].values()) == {"ok"}


def test_demo_loop_keep_fp32_fixes_the_exp(demo_diagnosis, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    demo, diag = demo_diagnosis
    health = _verify(demo, next(c for c in diag.root_causes[0].commands if "--keep-fp32" in c), tmp_path)
    assert health["after_dtypes"]["attn/exp:0"] == "float32"  # the fp16 recipe honours the mark
    assert health["before"]["attn/exp:0"] == "fail"
    assert set(health["after"].values()) == {"ok"}


# ----------------------------------------------------------------- CLI and report


@pytest.fixture
def broken_pair(tmp_path: Path) -> tuple[Path, Path]:
    pair_dirs(
        tmp_path, [{"name": "in/x:0", "kind": "input"}, {"name": "a@b.c", "inputs": ["in/x:0"], "red": 0.3}]
    )
    return tmp_path / "golden", tmp_path / "target"


def test_cli_json_markdown_and_exit_codes(
    broken_pair: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g, t = broken_pair
    assert main(["diagnose", str(g), str(t), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "unhealthy" and data["first_divergent"]["name"] == "a@b.c"
    cause = data["root_causes"][0]
    assert {"name", "node_name", "op_type", "index", "kind", "score", "evidence", "advice"} <= set(cause)
    assert cause["name"] == "a@b.c" and cause["evidence"]
    assert main(["diagnose", str(g), str(t), "--markdown", "-o", str(tmp_path / "r.md")]) == 1
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    for heading in ("**Verdict: unhealthy.**", "## Root causes", "## First divergent layer", "## Worst rows"):
        assert heading in text
    assert main(["diagnose", str(g), str(t)]) == 1
    assert "UNHEALTHY" in capsys.readouterr().out
    assert main(["diagnose", str(g), str(g), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "healthy"


def test_cli_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagnose", str(tmp_path / "nope"), str(tmp_path / "nope2")]) == 2
    assert "dumpscope:" in capsys.readouterr().err
    (tmp_path / "g").mkdir()
    assert (
        main(["diagnose", str(tmp_path / "g"), str(tmp_path / "g"), "--graph", str(tmp_path / "bad.json")])
        == 2
    )


def test_markdown_lists_overflow_and_unmatched(tmp_path: Path) -> None:
    cmp = pair_dirs(tmp_path, [{"name": "a"}, {"name": "b", "inputs": ["a"], "red": 0.3}])
    text = markdown(cmp, diagnose(cmp), "dumpscope diagnose g t --markdown")
    assert "## Reproduce" in text and "dumpscope diagnose g t --markdown" in text
    assert "`b`" in text


@pytest.mark.skipif(not (SAMPLES / "opdebug_raw").is_dir(), reason="shared Ascend samples not present")
def test_opdebug_records_are_evidence_without_graph_edges(tmp_path: Path) -> None:
    import shutil

    target = tmp_path / "npu"
    shutil.copytree(SAMPLES / "opdebug_raw", target)
    golden = write_dump(
        tmp_path / "golden",
        [
            {"name": "conv1_mul", "node": "conv1_mul", "op": "Mul", "data": np.full(16, 1e6, np.float32)},
            {
                "name": "layer_add",
                "node": "layer_add",
                "op": "Add",
                "inputs": ["conv1_mul"],
                "data": np.full(16, 1.001e6, np.float32),
            },
        ],
    )
    cmp = compare(golden, target)
    diag = diagnose(cmp)
    assert [c.name for c in diag.root_causes] == ["conv1_mul", "layer_add"]
    top = diag.root_causes[0]
    assert top.cause == v.OVERFLOW
    assert any("Opdebug record" in e and "floating-point compute overflow" in e for e in top.evidence)
    assert any("inputs are unknown" in e for e in top.evidence)
    assert any(line.startswith("Opdebug: AI Core task") for line in diag.overflow)
    assert _origins(diag, cmp)["layer_add"] == "inherited"


def test_bad_rows_and_odd_names_never_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = "enc/blk.0:mul@1\udcff"  # a name with / . : @ and an undecodable byte
    cmp = pair_dirs(
        tmp_path,
        [
            {"name": "x", "kind": "input"},
            {"name": odd, "op": "Mul", "inputs": ["x", "missing/w"], "red": 0.5},
            {
                "name": "nan_both",
                "inputs": [odd],
                "data": np.full(8, np.nan, np.float32),
                "target": np.full(8, np.nan, np.float16),
            },
            {"name": "trunc", "inputs": ["nan_both"]},
            {"name": "tail", "inputs": ["trunc"], "red": 0.5},
        ],
    )
    (tmp_path / "target" / to_filename("trunc")).write_bytes(b"\x93NUMPY")  # truncated after reading
    cmp = compare(tmp_path / "golden", tmp_path / "target")
    diag = diagnose(cmp)
    health = dict(zip(cmp.frame["name"].to_list(), cmp.frame["health"].to_list(), strict=False))
    assert health["trunc"] == "error"
    origin = _origins(diag, cmp)
    assert origin["trunc"] == "unknown" and origin["tail"] == "unknown"  # nothing known upstream of it
    assert [(c.name, c.cause) for c in diag.root_causes] == [(display(odd), "precision")]
    assert any("inputs not compared: 'missing/w'" in e for e in diag.root_causes[0].evidence)
    text = json.dumps(diag.to_json(), allow_nan=False)
    assert "\\\\xff" in text or "\\xff" in text
    markdown(cmp, diag)
    assert main(["diagnose", str(tmp_path / "golden"), str(tmp_path / "target")]) == 1
    assert "UNHEALTHY" in capsys.readouterr().out


def test_quantised_tensor_smaller_than_one_step_rounds_to_zero(tmp_path: Path) -> None:
    bias = np.linspace(-0.9, 0.9, 64).astype(np.float32)
    cmp = pair_dirs(
        tmp_path,
        [
            {
                "name": "b",
                "kind": "constant",
                "data": bias,
                "target": np.zeros(64, np.float32),
                "quant": {"scale": 7.5, "zero_point": 0, "dtype": "int32"},
            },
        ],
    )
    top = diagnose(cmp).root_causes[0]
    assert top.name == "b" and top.cause == "quantisation" and top.kind == "constant"
    assert any("one int32 step is 7.5" in e and "every value rounds to zero" in e for e in top.evidence)
