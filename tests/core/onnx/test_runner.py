"""`dumpscope dump`: golden and target dumps of hand-made and light models."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from dumpscope.core.dumps import DumpError
from dumpscope.core.names import from_filename
from dumpscope.core.onnx.fp16_target import to_fp16_storage
from dumpscope.core.onnx.manifest import read_manifest
from dumpscope.core.onnx.runner import dump_model
from dumpscope.tui.cli.main import main
from tests.core.onnx.test_out_dir import _no_temp_left
from tests.support.models import ModelBuilder, build_model

F = TensorProto.FLOAT


def _tensors(manifest: dict) -> dict[str, dict]:
    return {t["name"]: t for t in manifest["tensors"]}


def _load(out: Path, entry: dict) -> np.ndarray:
    return np.load(out / entry["file"], allow_pickle=False)


def _ort_outputs(model: Path, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    sess = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    return dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds), strict=False))


# ----------------------------------------------------------------- golden


def test_golden_chain_names_values_and_manifest(chain_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "golden"
    manifest = dump_model(chain_model, out)
    t = _tensors(manifest)
    assert list(t) == ["x", "enc/w.0", "enc@b", "enc/mm:0", "enc/add.out", "enc/relu:0", "y"]
    assert manifest["format"] == "dumpscope-manifest" and manifest["version"] == 1
    assert manifest["model"] == str(chain_model.resolve()) and len(manifest["model_sha256"]) == 64
    assert manifest["producer"] == f"onnxruntime {ort.__version__}" and manifest["target"] is None
    assert [t[n]["kind"] for n in ("x", "enc/w.0", "enc/mm:0")] == ["input", "constant", "activation"]
    add = t["enc/add.out"]
    assert add["node_name"] == "Add_1" and add["op_type"] == "Add" and add["topo_index"] == 1
    assert add["node_inputs"] == ["enc/mm:0", "enc@b"] and add["output_index"] == 0
    assert add["dtype"] == "float32" and add["shape"] == [1, 8]
    # Files are named reversibly and live inside the dump.
    for entry in t.values():
        path = out / entry["file"]
        assert path.is_file() and path.resolve().is_relative_to(out.resolve())
        if entry["kind"] != "input":
            assert from_filename(Path(entry["file"]).stem) == entry["name"]
    x = _load(out, t["x"])
    w = _load(out, t["enc/w.0"])
    b = _load(out, t["enc@b"])
    expected = np.exp(np.maximum(x @ w + b, 0))
    np.testing.assert_allclose(_load(out, t["y"]), expected, rtol=1e-5)
    assert [n["name"] for n in manifest["nodes"]] == ["enc/MatMul", "Add_1", "enc/Relu", "head.exp"]
    assert all("fused_from" not in n for n in manifest["nodes"])
    assert manifest["inputs"][0]["generated"] is True and manifest["inputs"][0]["file"] == "inputs/x.npy"


def test_manifest_round_trip_and_bad_manifests(chain_model: Path, tmp_path: Path) -> None:
    manifest = dump_model(chain_model, tmp_path / "d")
    assert read_manifest(tmp_path / "d") == json.loads(json.dumps(manifest))
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "manifest.json").write_text('{"format": "other"}')
    with pytest.raises(DumpError, match="not a dumpscope manifest"):
        read_manifest(tmp_path / "bad")
    (tmp_path / "bad" / "manifest.json").write_text('{"format": "dumpscope-manifest", "version": 99}')
    with pytest.raises(DumpError, match="version 99"):
        read_manifest(tmp_path / "bad")
    (tmp_path / "bad" / "manifest.json").write_bytes(b"{\xff truncated")
    with pytest.raises(DumpError, match="not a readable manifest"):
        read_manifest(tmp_path / "bad")


@pytest.mark.parametrize(
    "args", [["--max-memory", "nan"], ["--max-memory", "inf"], ["--max-memory", "0"], ["--seed", "-1"]]
)
def test_bad_dump_options_are_usage_errors_and_write_nothing(
    chain_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    out = tmp_path / "d"
    assert main(["dump", str(chain_model), "-o", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and args[0] in err
    assert not out.exists()
    _no_temp_left(tmp_path)
    with pytest.raises(DumpError):
        dump_model(
            chain_model,
            out,
            max_memory_mb=float(args[1]) if args[0] == "--max-memory" else 512,
            seed=int(args[1]) if args[0] == "--seed" else 0,
        )
    assert not out.exists()


def _mixed_model(builder: ModelBuilder) -> Path:
    """Three inputs (float with a dynamic dim, int64 ids, bool mask), int64 and bool outputs."""
    nodes = [
        helper.make_node("Cast", ["mask"], ["mask_f"], to=F, name="cast"),
        helper.make_node("Mul", ["feat", "mask_f"], ["masked"], name="mul"),
        helper.make_node("Cast", ["ids"], ["ids_f"], to=F, name="ids_to_f"),
        helper.make_node("Add", ["masked", "ids_f"], ["sum"], name="add"),
        helper.make_node("ArgMax", ["sum"], ["best"], axis=1, keepdims=0, name="argmax"),
        helper.make_node("Greater", ["sum", "zero"], ["pos"], name="greater"),
    ]
    return builder(
        nodes,
        [
            helper.make_tensor_value_info("feat", F, ["batch", 3]),
            helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch", 3]),
            helper.make_tensor_value_info("mask", TensorProto.BOOL, ["batch", 3]),
        ],
        [
            helper.make_tensor_value_info("best", TensorProto.INT64, ["batch"]),
            helper.make_tensor_value_info("pos", TensorProto.BOOL, ["batch", 3]),
        ],
        {"zero": np.array(0.0, np.float32)},
        name="mixed.onnx",
    )


def test_int64_bool_several_inputs_and_dynamic_dims(model_builder: ModelBuilder, tmp_path: Path) -> None:
    model = _mixed_model(model_builder)
    with pytest.raises(DumpError, match=r"input 'feat' has dynamic dims \['batch'\].*--input-shape"):
        dump_model(model, tmp_path / "a")
    manifest = dump_model(model, tmp_path / "b", input_shapes="feat:2,3;ids:2,3;mask:2,3")
    t = _tensors(manifest)
    assert {n: t[n]["dtype"] for n in ("ids", "mask", "best", "pos")} == {
        "ids": "int64",
        "mask": "bool",
        "best": "int64",
        "pos": "bool",
    }
    ids = _load(tmp_path / "b", t["ids"])
    assert ids.shape == (2, 3) and ids.min() >= 0 and ids.max() <= 3
    feeds = {n: _load(tmp_path / "b", t[n]) for n in ("feat", "ids", "mask")}
    ref = _ort_outputs(model, feeds)
    np.testing.assert_array_equal(_load(tmp_path / "b", t["best"]), ref["best"])
    np.testing.assert_array_equal(_load(tmp_path / "b", t["pos"]), ref["pos"])


def test_input_files_fix_dynamic_dims_and_are_checked(model_builder: ModelBuilder, tmp_path: Path) -> None:
    model = _mixed_model(model_builder)
    feat = np.arange(12, dtype=np.float64).reshape(4, 3)  # float64 -> float32 is a same-kind cast
    np.save(tmp_path / "feat.npy", feat)
    np.save(tmp_path / "ids.npy", np.ones((4, 3), np.int64))
    manifest = dump_model(
        model,
        tmp_path / "d",
        inputs=[f"feat={tmp_path / 'feat.npy'}", f"ids={tmp_path / 'ids.npy'}"],
        input_shapes={"mask": (4, 3)},
    )
    inputs = {i["name"]: i for i in manifest["inputs"]}
    assert inputs["feat"]["generated"] is False and inputs["mask"]["generated"] is True
    stored = np.load(tmp_path / "d" / inputs["feat"]["file"])
    assert stored.dtype == np.float32 and stored.shape == (4, 3)

    np.save(tmp_path / "bad_rank.npy", np.zeros((4,), np.float32))
    with pytest.raises(DumpError, match=r"input 'feat'.*shape \[4\].*expects \['batch', 3\]"):
        dump_model(
            model, tmp_path / "e", inputs={"feat": tmp_path / "bad_rank.npy"}, input_shapes="ids:4,3;mask:4,3"
        )
    np.save(tmp_path / "floats.npy", np.zeros((4, 3), np.float32))
    with pytest.raises(DumpError, match="holds float32, the model expects int64"):
        dump_model(
            model, tmp_path / "f", inputs={"ids": tmp_path / "floats.npy"}, input_shapes="feat:4,3;mask:4,3"
        )
    np.save(tmp_path / "pickled.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(DumpError, match="not a readable .npy"):
        dump_model(
            model, tmp_path / "g", inputs={"ids": tmp_path / "pickled.npy"}, input_shapes="feat:4,3;mask:4,3"
        )
    with pytest.raises(DumpError, match="no graph input named 'nope'"):
        dump_model(model, tmp_path / "h", input_shapes="nope:1")


def test_if_node_is_noted(
    model_builder: ModelBuilder, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vi = helper.make_tensor_value_info
    then_g = helper.make_graph([helper.make_node("Relu", ["a"], ["t"])], "then", [], [vi("t", F, [2])])
    else_g = helper.make_graph([helper.make_node("Neg", ["a"], ["e"])], "else", [], [vi("e", F, [2])])
    model = model_builder(
        [
            helper.make_node("Abs", ["x"], ["a"], name="abs"),
            helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g, name="cond"),
        ],
        [vi("x", F, [2]), vi("c", TensorProto.BOOL, [])],
        [vi("y", F, [2])],
    )
    assert main(["dump", str(model), "-o", str(tmp_path / "d")]) == 0
    manifest = read_manifest(tmp_path / "d")
    assert any("If node 'cond'" in n and "not dumped" in n for n in manifest["notes"])
    assert "If node 'cond'" in capsys.readouterr().err
    assert "y" in _tensors(manifest)


def test_runtime_cannot_run_model_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = build_model(
        [helper.make_node("Relu", ["x"], ["y"])],
        [helper.make_tensor_value_info("x", F, [2])],
        [helper.make_tensor_value_info("y", F, [2])],
        ir_version=99,
    )
    path = tmp_path / "future.onnx"
    onnx.save_model(model, str(path))
    assert main(["dump", str(path), "-o", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    assert "IR version 99" in err and "ai.onnx 17" in err and "up to" in err


def test_external_data_model(tmp_path: Path) -> None:
    w = np.linspace(-1, 1, 64 * 64, dtype=np.float32).reshape(64, 64)
    model = build_model(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
        [helper.make_tensor_value_info("x", F, [1, 64])],
        [helper.make_tensor_value_info("y", F, [1, 64])],
        {"w": w},
    )
    src = tmp_path / "src"
    (src / "weights").mkdir(parents=True)
    onnx.save_model(
        model, str(src / "m.onnx"), save_as_external_data=True, location="weights/w.bin", size_threshold=0
    )
    manifest = dump_model(src / "m.onnx", tmp_path / "d")
    t = _tensors(manifest)
    np.testing.assert_array_equal(_load(tmp_path / "d", t["w"]), w)
    fp16 = dump_model(src / "m.onnx", tmp_path / "h", target="fp16")
    assert _load(tmp_path / "h", _tensors(fp16)["w"]).dtype == np.float16
    y = _load(tmp_path / "d", t["y"])
    for target in ("int8", "optimized"):
        other = _tensors(dump_model(src / "m.onnx", tmp_path / target, target=target))
        np.testing.assert_allclose(_load(tmp_path / target, other["y"]), y, atol=0.1)
    (src / "weights" / "w.bin").unlink()
    with pytest.raises(DumpError, match="external data file"):
        dump_model(src / "m.onnx", tmp_path / "e")


def test_memory_budget_sets_the_number_of_runs(chain_model: Path, tmp_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    # Each activation is 1x8 float32 = 32 bytes: a 64-byte budget fetches two per run.
    manifest = dump_model(
        chain_model, tmp_path / "d", max_memory_mb=64 / 2**20, progress=lambda d, n: calls.append((d, n))
    )
    assert manifest["ort_runs"] == 2
    assert calls == [(0, 2), (1, 2), (2, 2)]
    one = dump_model(chain_model, tmp_path / "e", max_memory_mb=1 / 2**20)
    assert one["ort_runs"] == 4  # every tensor exceeds the budget: one per run
    big = dump_model(chain_model, tmp_path / "f")
    assert big["ort_runs"] == 1
    for name in ("enc/relu:0", "y"):
        np.testing.assert_array_equal(
            _load(tmp_path / "d", _tensors(manifest)[name]), _load(tmp_path / "f", _tensors(big)[name])
        )


# ----------------------------------------------------------------- targets


def test_fp16_storage_rounding_records() -> None:
    arr = np.array([1.0, 1e6, -7e4, 1e-9, 0.0, np.inf, 3.14159], np.float32)
    stored, records = to_fp16_storage("w", arr, "mul")
    assert stored.dtype == np.float16
    assert stored[1] == 65504 and stored[2] == -65504 and stored[3] == 0 and np.isinf(stored[5])
    by_action = {r["action"]: r for r in records}
    assert by_action["clamp"]["count"] == 2 and by_action["clamp"]["max_abs"] == 1e6
    assert by_action["clamp"]["examples"][0] == [1, 1e6, 65504.0]
    assert by_action["flush"]["count"] == 1 and by_action["flush"]["node_name"] == "mul"


def test_fp16_target_clamps_constants_and_overflows_exp(model_builder: ModelBuilder, tmp_path: Path) -> None:
    big = np.array([[1e6, 1.0, 2.0, 1e-9]], np.float32)
    model = model_builder(
        [
            helper.make_node("Mul", ["x", "big"], ["scaled"], name="scale"),
            helper.make_node("Exp", ["x"], ["e"], name="exp"),
            helper.make_node("Add", ["scaled", "e"], ["y"], name="add"),
        ],
        [helper.make_tensor_value_info("x", F, [1, 4])],
        [helper.make_tensor_value_info("y", F, [1, 4])],
        {"big": big},
    )
    x = np.array([[0.5, 12.0, 1.0, 2.0]], np.float32)  # exp(12) = 162755 > 65504
    np.save(tmp_path / "x.npy", x)
    golden = dump_model(model, tmp_path / "g", inputs={"x": tmp_path / "x.npy"})
    target = dump_model(model, tmp_path / "t", inputs={"x": tmp_path / "x.npy"}, target="fp16")
    assert target["target"] == "fp16"
    assert golden["inputs"][0]["sha256"] == target["inputs"][0]["sha256"]
    g, t = _tensors(golden), _tensors(target)
    assert list(g) == list(t)
    assert {e["dtype"] for e in t.values()} == {"float16"}
    clamp = {(r["name"], r["action"]): r for r in target["clamped"]}
    assert clamp[("big", "clamp")]["count"] == 1 and clamp[("big", "clamp")]["max_abs"] == 1e6
    assert clamp[("big", "clamp")]["node_name"] == "scale"
    assert clamp[("big", "flush")]["count"] == 1
    e_gold, e_tgt = _load(tmp_path / "g", g["e"]), _load(tmp_path / "t", t["e"])
    assert np.isfinite(e_gold).all() and np.isinf(e_tgt[0, 1]) and np.isfinite(e_tgt[0, [0, 2, 3]]).all()
    np.testing.assert_allclose(e_tgt[0, [0, 2, 3]], e_gold[0, [0, 2, 3]], rtol=1e-3)
    assert _load(tmp_path / "t", t["big"])[0, 0] == 65504
    assert np.isinf(_load(tmp_path / "t", t["y"])[0, 1])


def test_int8_target_records_scale_and_zero_point(chain_model: Path, tmp_path: Path) -> None:
    golden = dump_model(chain_model, tmp_path / "g")
    target = dump_model(chain_model, tmp_path / "t", target="int8")
    g, t = _tensors(golden), _tensors(target)
    q = t["enc/mm:0"]["quant"]
    assert q["dtype"] == "int8" and q["scale"] > 0 and isinstance(q["zero_point"], int)
    assert "quant" in t["x"] and "quant" in t["enc/w.0"]
    gold, tgt = _load(tmp_path / "g", g["enc/mm:0"]), _load(tmp_path / "t", t["enc/mm:0"])
    assert np.abs(gold - tgt).max() <= q["scale"] * 4  # a few quantisation steps, not garbage
    assert not np.array_equal(gold, tgt)  # but really quantised
    steps = (tgt / q["scale"]) + q["zero_point"]
    np.testing.assert_allclose(steps, np.round(steps), atol=1e-3)  # values sit on the int8 grid


def test_optimized_target_records_fused_from(model_builder: ModelBuilder, tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    model = model_builder(
        [
            helper.make_node("Conv", ["img", "w", "b"], ["conv_out"], name="conv", pads=[1, 1, 1, 1]),
            helper.make_node("Relu", ["conv_out"], ["relu_out"], name="relu"),
            helper.make_node(
                "MaxPool", ["relu_out"], ["y"], name="pool", kernel_shape=[2, 2], strides=[2, 2]
            ),
        ],
        [helper.make_tensor_value_info("img", F, [1, 2, 6, 6])],
        [helper.make_tensor_value_info("y", F, [1, 4, 3, 3])],
        {
            "w": rng.standard_normal((4, 2, 3, 3)).astype(np.float32),
            "b": rng.standard_normal(4).astype(np.float32),
        },
    )
    golden = dump_model(model, tmp_path / "g")
    opt = dump_model(model, tmp_path / "o", target="optimized")
    fused = [n for n in opt["nodes"] if n["fused_from"] == ["conv", "relu"]]
    assert len(fused) == 1 and fused[0]["outputs"] == ["relu_out"]
    assert next(n for n in opt["nodes"] if n["name"] == "pool")["fused_from"] == ["pool"]
    t = _tensors(opt)
    assert "conv_out" not in t  # fused away
    np.testing.assert_allclose(
        _load(tmp_path / "o", t["y"]), _load(tmp_path / "g", _tensors(golden)["y"]), rtol=1e-5, atol=1e-6
    )


# ----------------------------------------------------------------- light models


@pytest.mark.parametrize("name", ["light_squeezenet", "light_shufflenet"])
def test_light_model_golden_matches_plain_run(light_models_dir: Path, tmp_path: Path, name: str) -> None:
    model = light_models_dir / f"{name}.onnx"
    manifest = dump_model(model, tmp_path / "d")
    t = _tensors(manifest)
    proto = onnx.load(str(model))
    outputs = [o for n in proto.graph.node for o in n.output if o]
    assert [n for n, e in t.items() if e["kind"] == "activation"] == outputs
    inp = next(e for e in t.values() if e["kind"] == "input")
    ref = _ort_outputs(model, {inp["name"]: _load(tmp_path / "d", inp)})
    for out_name, value in ref.items():
        np.testing.assert_allclose(_load(tmp_path / "d", t[out_name]), value, rtol=1e-4, atol=1e-6)
    indices = [e["topo_index"] for e in t.values() if e["kind"] == "activation"]
    assert indices == sorted(indices)


def test_light_model_targets(light_models_dir: Path, tmp_path: Path) -> None:
    """squeezenet's constant-valued weights make activations grow past 65504: fp16 must overflow there."""
    model = light_models_dir / "light_squeezenet.onnx"
    golden = dump_model(model, tmp_path / "g")
    fp16 = _tensors(dump_model(model, tmp_path / "h", target="fp16"))
    int8 = dump_model(model, tmp_path / "q", target="int8")
    overflowed = False
    for entry in golden["tensors"]:
        if entry["kind"] != "activation" or entry["dtype"] != "float32":
            continue
        g = _load(tmp_path / "g", entry)
        h = _load(tmp_path / "h", fp16[entry["name"]])
        assert h.dtype == np.float16
        if np.abs(g).max() > 65504:
            assert np.isinf(h).any() or np.isnan(h).any(), entry["name"]
            overflowed = True
        elif not overflowed:  # before the first overflow: fp16 rounding error only
            scale = float(np.abs(g).max()) or 1.0
            assert np.abs(h.astype(np.float32) - g).max() <= 0.02 * scale, entry["name"]
    assert overflowed
    assert sum("quant" in e for e in int8["tensors"]) > 20


def test_end_to_end_compare_light_model(light_models_dir: Path, tmp_path: Path) -> None:
    """Dump squeezenet, make the three targets, compare each with the lead's comparison."""
    session = pytest.importorskip("dumpscope.core.comparison.pipeline")
    model = light_models_dir / "light_squeezenet.onnx"
    golden = dump_model(model, tmp_path / "g")
    first_over = next(
        t["name"]
        for t in sorted(golden["tensors"], key=lambda t: t["topo_index"])
        if t["kind"] == "activation"
        and t["dtype"] == "float32"
        and np.abs(_load(tmp_path / "g", t)).max() > 65504
    )
    results = {}
    for target in ("fp16", "int8", "optimized"):
        dump_model(model, tmp_path / target, target=target)
        results[target] = session.compare(tmp_path / "g", tmp_path / target, model=model)
        assert results[target].warnings == []  # same generated inputs on both sides
        assert results[target].health_counts()["error"] == 0

    fp16 = results["fp16"]
    first = fp16.first_divergent()
    assert first is not None and fp16.frame.row(first, named=True)["name"] == first_over
    assert set(fp16.frame.head(first)["health"].to_list()) <= {"ok", "warn"}

    optimized = results["optimized"].health_counts()
    assert optimized["fail"] == 0 and optimized["warn"] == 0 and optimized["ok"] > 50

    int8 = results["int8"].health_counts()
    assert int8["ok"] > 0.8 * (int8["ok"] + int8["warn"] + int8["fail"])


def test_optimized_ir3_model_with_initializers_as_inputs(light_models_dir: Path, tmp_path: Path) -> None:
    """onnxruntime keeps folded initializers of IR < 4 models as graph inputs; they must not become feeds."""
    manifest = dump_model(light_models_dir / "light_shufflenet.onnx", tmp_path / "o", target="optimized")
    assert [t["name"] for t in manifest["tensors"] if t["kind"] == "input"] == ["gpu_0/data_0"]
    fused = [n for n in manifest["nodes"] if len(n["fused_from"]) > 1]
    assert fused and all(n["op_type"] in ("FusedConv", "Conv", "FusedGemm", "Gemm") for n in fused)


def test_strings_and_sequences_are_noted_not_dumped(model_builder: ModelBuilder, tmp_path: Path) -> None:
    vi = helper.make_tensor_value_info
    model = model_builder(
        [
            helper.make_node("SequenceConstruct", ["x", "x"], ["seq"], name="pack"),
            helper.make_node("ConcatFromSequence", ["seq"], ["cat"], axis=0, name="concat"),
            helper.make_node(
                "Constant",
                [],
                ["s"],
                value=helper.make_tensor("sv", TensorProto.STRING, [1], [b"hi"]),
                name="text",
            ),
            helper.make_node("Identity", ["s"], ["s2"], name="copy"),
        ],
        [vi("x", F, [2])],
        [vi("cat", F, [4]), vi("s2", TensorProto.STRING, [1])],
    )
    manifest = dump_model(model, tmp_path / "d")
    assert [t["name"] for t in manifest["tensors"]] == ["x", "cat"]
    notes = " ".join(manifest["notes"])
    assert (
        "'seq' holds a sequence" in notes and "'s2' holds strings" in notes and "'s' holds strings" in notes
    )


def test_each_fetch_group_runs_a_session_exposing_only_that_group(
    chain_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """onnxruntime keeps every graph output alive for a whole run: a group's session must
    expose only its own tensors, or fetching in groups bounds nothing."""
    from dumpscope.core.onnx import fetch_groups

    seen: list[tuple[list[str], list[str]]] = []
    real = fetch_groups.GroupSessions.__call__

    def spy(self: fetch_groups.GroupSessions, group: list[str]):  # type: ignore[no-untyped-def]
        session = real(self, group)
        seen.append((list(group), [o.name for o in session.get_outputs()]))
        return session

    monkeypatch.setattr(fetch_groups.GroupSessions, "__call__", spy)
    small = dump_model(chain_model, tmp_path / "d", max_memory_mb=64 / 2**20, target="fp16")
    assert len(seen) == small["ort_runs"] >= 2
    assert all(group == outputs for group, outputs in seen)
    big = dump_model(chain_model, tmp_path / "f", target="fp16")
    for name in _tensors(big):
        np.testing.assert_array_equal(
            _load(tmp_path / "d", _tensors(small)[name]), _load(tmp_path / "f", _tensors(big)[name])
        )


def test_int8_note_names_the_ops_whose_outputs_were_folded(light_models_dir: Path, tmp_path: Path) -> None:
    """The note says which ops' outputs the quantizer folded away (from the graph), not a guessed example."""
    import onnx

    model = light_models_dir / "light_resnet50.onnx"
    golden = _tensors(dump_model(model, tmp_path / "g"))
    int8 = dump_model(model, tmp_path / "q", target="int8")
    dumped = {e["name"] for e in int8["tensors"]}
    folded = [n for n, e in golden.items() if e["kind"] == "activation" and n not in dumped]
    if not folded:
        pytest.skip("this onnxruntime's quantizer folded nothing in resnet50")
    producer = {out: node.op_type for node in onnx.load(str(model)).graph.node for out in node.output}
    note = next(n for n in int8["notes"] if "folded away by the quantizer" in n)
    assert note.startswith(f"{len(folded)} tensor(s) folded away")
    for op in {producer[n] for n in folded}:
        assert op in note
    assert "e.g." not in note
