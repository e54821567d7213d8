"""Issue 10, the comparison side: equivalent values compare equal, unrelated dumps are an
error, bands per row, empty tensors, whole-tensor statistics and the absolute floor."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from dumpscope.core import compare
from dumpscope.core.comparison.judge import ABS_FLOOR, Thresholds, judge
from dumpscope.core.comparison.metrics import compare_arrays, side_stats
from dumpscope.core.comparison.result import SCHEMA
from dumpscope.core.comparison.sanity import DumpMismatch
from dumpscope.core.comparison.shape_specs import resolve
from dumpscope.tui.cli.main import main


def save(directory: Path, name: str, array: np.ndarray) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    np.save(directory / f"{name}.npy", array)


def manifest(directory: Path, entries: list[dict[str, object]], **header: object) -> None:
    """A dumpscope manifest for ``entries`` (name, file, op_type, node_inputs...)."""
    doc = {"format": "dumpscope-manifest", "version": 1, **header, "tensors": entries}
    (directory / "manifest.json").write_text(json.dumps(doc))


# --- item 2: unrelated dumps and a model that is not the dumps' model -------------------------


def _model_dump(directory: Path, names: list[str], shape: tuple[int, ...] = (2, 3)) -> None:
    rng = np.random.default_rng(len(names))
    for n in names:
        save(directory, n, rng.standard_normal(shape).astype(np.float32))


def test_unrelated_dumps_are_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _model_dump(tmp_path / "g", [f"a{i}" for i in range(20)])
    _model_dump(tmp_path / "t", [f"b{i}" for i in range(20)] + ["a0"])
    with pytest.raises(DumpMismatch, match="1 of 20 golden tensors have a partner"):
        compare(tmp_path / "g", tmp_path / "t")
    for command in ("compare", "diagnose"):
        assert main([command, str(tmp_path / "g"), str(tmp_path / "t")]) == 2
        assert "same model" in capsys.readouterr().err


def test_names_shared_with_other_shapes_are_not_partners(tmp_path: Path) -> None:
    """Paddle exports of two models share names like conv2d_1.tmp_0 with other shapes."""
    _model_dump(tmp_path / "g", [f"conv{i}" for i in range(10)], (2, 3))
    _model_dump(tmp_path / "t", [f"conv{i}" for i in range(10)], (4, 5))
    with pytest.raises(DumpMismatch, match="0 of 10 golden tensors"):
        compare(tmp_path / "g", tmp_path / "t")


def test_a_target_that_dumps_a_few_layers_is_fine(tmp_path: Path) -> None:
    names = [f"a{i}" for i in range(40)]
    _model_dump(tmp_path / "g", names)
    _model_dump(tmp_path / "t", [])
    for n in names[:3]:
        save(tmp_path / "t", n, np.load(tmp_path / "g" / f"{n}.npy"))
    assert compare(tmp_path / "g", tmp_path / "t").health_counts()["ok"] == 3


def _relu_model(path: Path, tensor: str) -> Path:
    """A one-node ONNX model whose output tensor is ``tensor``."""
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], [tensor], name="relu")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info(tensor, TensorProto.FLOAT, [2, 3])],
    )
    onnx.save(helper.make_model(graph), path)
    return path


def test_a_model_other_than_the_manifests_is_an_input_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _model_dump(tmp_path / "g", ["a"])
    _model_dump(tmp_path / "t", ["a"])
    model = _relu_model(tmp_path / "other.onnx", "something_else")
    recorded = "ab" * 32
    manifest(tmp_path / "g", [{"name": "a", "file": "a.npy"}], model_sha256=recorded)
    for command in ("compare", "diagnose"):
        assert main([command, str(tmp_path / "g"), str(tmp_path / "t"), "--model", str(model)]) == 2
        err = capsys.readouterr().err
        assert "not the model" in err and recorded[:12] in err


def test_the_same_graph_with_other_weights_is_a_warning(tmp_path: Path) -> None:
    _model_dump(tmp_path / "g", ["a"])
    _model_dump(tmp_path / "t", ["a"])
    model = _relu_model(tmp_path / "patched.onnx", "a")
    manifest(tmp_path / "g", [{"name": "a", "file": "a.npy"}], model_sha256="cd" * 32)
    cmp = compare(tmp_path / "g", tmp_path / "t", model=model)
    assert any("cdcdcdcdcdcd" in w and "same tensors" in w for w in cmp.warnings)


# --- item 9: empty tensors -----------------------------------------------------------------------


def test_empty_tensors_on_both_sides_are_equal(tmp_path: Path) -> None:
    save(tmp_path / "g", "roi", np.zeros(0, np.float32))
    save(tmp_path / "t", "roi", np.zeros(0, np.float32))
    save(tmp_path / "g", "x", np.ones(3, np.float32))
    save(tmp_path / "t", "x", np.ones(3, np.float32))
    with _no_warning():
        frame = compare(tmp_path / "g", tmp_path / "t").frame
    r = frame.filter(pl.col("name") == "roi").row(0, named=True)
    assert r["health"] == "ok" and "empty on both sides" in r["message"]


class _no_warning:
    """Fail on any warning inside the block (numpy RuntimeWarnings included)."""

    def __enter__(self) -> None:
        import warnings

        self._ctx = warnings.catch_warnings()
        self._ctx.__enter__()
        warnings.simplefilter("error")

    def __exit__(self, *exc: object) -> None:
        self._ctx.__exit__(*exc)


# --- item 10: each side's statistics over its whole tensor ---------------------------------------

_values = st.one_of(st.floats(-1e6, 1e6, width=32), st.sampled_from([np.nan, np.inf, -np.inf]))


def _reference_stats(a: np.ndarray) -> tuple[float | None, ...]:
    f = a[np.isfinite(a)].astype(np.float64)
    if f.size == 0:
        return (None, None, None, None)
    return (float(f.min()), float(f.max()), float(f.mean()), float(f.std()))


def _close(a: float | None, b: float | None, scale: float) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-9 * max(1.0, scale)


def test_a_tensor_of_one_value_has_no_spread(tmp_path: Path) -> None:
    """E[x²] − E[x]² cancels to ~1e-18 on a tensor of one value (a std of 1.3e-9 for 35 × 0.12, found by
    the property test below): its deviation is 0 on every path (one pair, a NaN-holding side, and many
    small tensors finished together)."""
    golden, target = np.full(35, 0.12, np.float32), np.zeros(35, np.float32)
    m = compare_arrays(golden, target)
    assert (m.std_golden, m.std_target) == (0.0, 0.0)
    with_nan = target.copy()
    with_nan[0] = np.nan
    assert compare_arrays(golden, with_nan).std_golden == 0.0
    for side, value in (("g", 0.12), ("t", 0.7)):
        (tmp_path / side).mkdir()
        for k in range(40):
            np.save(tmp_path / side / f"c{k}.npy", np.full(8 + k, value + k, np.float32))
    frame = compare(tmp_path / "g", tmp_path / "t").frame
    assert frame["std_golden"].to_list() == [0.0] * 40 and frame["std_target"].to_list() == [0.0] * 40


@settings(max_examples=150, deadline=None)
@given(arrays(np.float32, st.integers(1, 40), elements=_values), st.data())
def test_side_stats_describe_the_whole_tensor(golden: np.ndarray, data: st.DataObject) -> None:
    target = data.draw(arrays(np.float32, golden.shape, elements=_values))
    m = compare_arrays(golden, target)
    scale = float(np.abs(np.where(np.isfinite(golden), golden, 0)).max(initial=0.0)) ** 2
    for got, want in zip(
        (m.min_golden, m.max_golden, m.mean_golden, m.std_golden), _reference_stats(golden), strict=False
    ):
        assert _close(got, want, scale)
    scale = float(np.abs(np.where(np.isfinite(target), target, 0)).max(initial=0.0)) ** 2
    for got, want in zip(
        (m.min_target, m.max_target, m.mean_target, m.std_target), _reference_stats(target), strict=False
    ):
        assert _close(got, want, scale)


def test_golden_max_is_not_hidden_by_a_target_overflow() -> None:
    golden = np.array([1.0, 48591.0, 199558.0], np.float32)
    target = np.array([1.0, 48591.0, np.inf], np.float32)
    m = compare_arrays(golden, target)
    assert m.max_golden == 199558.0 and m.max_target == 48591.0 and m.inf_target == 1


def test_side_stats_chunked_equals_one_pass() -> None:
    a = np.random.default_rng(1).standard_normal(1000).astype(np.float32)
    a[::7] = np.nan
    one = side_stats(a, chunk=1 << 20)
    chunked = side_stats(a, chunk=37)
    assert all(math.isclose(x, y, rel_tol=1e-12) for x, y in zip(one, chunked, strict=False))  # type: ignore[arg-type]


# --- item 8: bands per row -------------------------------------------------------------------------


def test_one_int8_tensor_does_not_move_float_rows_to_the_int8_band(tmp_path: Path) -> None:
    for side in ("g", "t"):
        save(tmp_path / side, "conv", np.ones((2, 4), np.float32))
        save(tmp_path / side, "idx", np.arange(4, dtype=np.int64))
    save(tmp_path / "t", "head", np.ones(4, np.int8))
    save(tmp_path / "g", "head", np.ones(4, np.float32))
    frame = compare(tmp_path / "g", tmp_path / "t").frame
    bands = dict(zip(frame["name"], frame["band"], strict=False))
    assert bands == {"conv": "fp32", "idx": "exact", "head": "int8"}


# --- item 1: Reshape shape inputs compared by the shape they resolve to ---------------------------


def _reference_resolve(spec: list[int], data: tuple[int, ...]) -> list[int] | None:
    """numpy's own reshape does the resolving (0 -> the data's dim)."""
    dims = [data[i] if d == 0 else d for i, d in enumerate(spec)]
    try:
        return list(np.empty(data).reshape(dims).shape)
    except ValueError:
        return None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.data())
def test_resolve_matches_numpy_reshape(data_shape: list[int], data: st.DataObject) -> None:
    total = math.prod(data_shape)
    target = data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=4))
    spec = [d for d in target]
    # spell some dims as 0 (copy) where the data has them, and at most one as -1
    for i in range(len(spec)):
        if i < len(data_shape) and data.draw(st.booleans()):
            spec[i] = 0
    if data.draw(st.booleans()):
        spec[data.draw(st.integers(0, len(spec) - 1))] = -1
    got = resolve(np.asarray(spec, np.int64), tuple(data_shape))
    want = _reference_resolve(spec, tuple(data_shape))
    if want is None:
        assert got is None or math.prod(got.tolist()) != total
    else:
        assert got is not None and got.tolist() == want


def test_reshape_specs_spelled_differently_compare_equal(tmp_path: Path) -> None:
    g, t = tmp_path / "g", tmp_path / "t"
    for side, spec in ((g, [0, 1, 20, 120]), (t, [0, 1, -1, 120])):
        save(side, "data", np.ones((1, 20, 120), np.float32))
        save(side, "shape", np.asarray(spec, np.int64))
        save(side, "out", np.ones((1, 1, 20, 120), np.float32))
        manifest(
            side,
            [
                {"name": "data", "file": "data.npy", "topo_index": 0, "op_type": "Add"},
                {"name": "shape", "file": "shape.npy", "topo_index": 1, "op_type": "Concat"},
                {
                    "name": "out",
                    "file": "out.npy",
                    "topo_index": 2,
                    "op_type": "Reshape",
                    "node_inputs": ["data", "shape"],
                },
            ],
        )
    r = compare(g, t).frame.filter(pl.col("name") == "shape").row(0, named=True)
    assert r["health"] == "ok" and "resolves to" in r["message"]


def test_reshape_specs_that_resolve_differently_fail(tmp_path: Path) -> None:
    g, t = tmp_path / "g", tmp_path / "t"
    for side, spec in ((g, [0, 20, 120]), (t, [0, 120, -1])):
        save(side, "data", np.ones((1, 20, 120), np.float32))
        save(side, "shape", np.asarray(spec, np.int64))
        save(side, "out", np.ones((1, 20, 120), np.float32))
        manifest(
            side,
            [
                {"name": "data", "file": "data.npy", "topo_index": 0},
                {"name": "shape", "file": "shape.npy", "topo_index": 1},
                {
                    "name": "out",
                    "file": "out.npy",
                    "topo_index": 2,
                    "op_type": "Reshape",
                    "node_inputs": ["data", "shape"],
                },
            ],
        )
    r = compare(g, t).frame.filter(pl.col("name") == "shape").row(0, named=True)
    assert r["health"] == "fail"


def test_any_axis_permutation_is_found_and_said(tmp_path: Path) -> None:
    a = np.random.default_rng(3).standard_normal((2, 3, 5, 7)).astype(np.float32)
    save(tmp_path / "g", "x", a)
    save(tmp_path / "t", "x", np.ascontiguousarray(np.transpose(a, (3, 1, 0, 2))))
    r = compare(tmp_path / "g", tmp_path / "t").frame.row(0, named=True)
    assert r["health"] == "ok" and r["max_absolute_error"] == 0.0 and "permuted" in r["message"]


# --- the absolute floor of a band ------------------------------------------------------------------


def _judged(
    golden: np.ndarray, target: np.ndarray, band: str, th: Thresholds | None = None
) -> dict[str, object]:
    th = th or Thresholds()
    m = compare_arrays(golden, target)
    row: dict[str, object] = {c: None for c in SCHEMA}
    row.update({k: v for k, v in m.as_dict().items() if k in SCHEMA})
    row.update(
        band=band, status="computed", hard_fail="", hard_warn="", notes="", health="pending", message=""
    )
    return judge(pl.DataFrame([row], schema=SCHEMA), th).row(0, named=True)


def test_a_saturated_sigmoid_is_not_a_fail() -> None:
    """PP-OCRv4 det's final Sigmoid: values <= 9.1e-6, moved by <= 8.9e-8."""
    rng = np.random.default_rng(0)
    golden = (rng.random(4096) ** 4 * 9.1e-6).astype(np.float32)
    target = (golden + rng.uniform(-8.9e-8, 8.9e-8, 4096)).astype(np.float32)
    r = _judged(golden, target, "fp32")
    assert r["health"] == "warn" and "absolute floor" in str(r["message"])
    # a user's own bound is applied as given
    strict = Thresholds.from_preset("auto", ["cosine_similarity=0.9999"])
    assert _judged(golden, target, "fp32", strict)["health"] == "fail"


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(ABS_FLOOR)), st.floats(1e-9, 1e3), st.floats(0.0, 4.0), st.integers(0, 2**31))
def test_the_floor_rule(band: str, scale: float, noise: float, seed: int) -> None:
    """FAIL on a relative metric iff the preset bound fails and some |diff| exceeds the floor
    (float64 reference for the metrics the bound reads)."""
    rng = np.random.default_rng(seed)
    golden = rng.standard_normal(256) * scale
    target = golden + rng.standard_normal(256) * scale * noise
    r = _judged(golden, target, band)
    g64, t64 = golden.astype(np.float64), target.astype(np.float64)
    diff = np.abs(g64 - t64).max()
    cos = float(g64 @ t64 / (np.linalg.norm(g64) * np.linalg.norm(t64)))
    red = float(np.linalg.norm(g64 - t64) / np.linalg.norm(g64))
    limits = Thresholds().bands[band]
    bad = cos < limits["cosine_similarity"].fail or red > limits["relative_euclidean_distance"].fail  # type: ignore[operator]
    margin = 1e-9  # keep away from the bound itself
    near = (
        abs(cos - limits["cosine_similarity"].fail) < margin
        or abs(red - limits["relative_euclidean_distance"].fail) < margin
    )  # type: ignore[operator]
    if near or abs(diff - ABS_FLOOR[band]) < 1e-15:
        return
    assert (r["health"] == "fail") == (bad and diff > ABS_FLOOR[band])
    if bad and diff <= ABS_FLOOR[band]:
        assert r["health"] == "warn"


def test_the_floor_does_not_hide_a_real_fault_of_small_values() -> None:
    """Small values that are wrong by more than the floor still fail."""
    golden = np.linspace(1e-4, 2e-4, 100, dtype=np.float32)
    assert _judged(golden, golden * 0.5, "fp32")["health"] == "fail"


# --- item 5: per-slice metrics along the channel axis ---------------------------------------------


def _reference_slices(golden: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-slice relative distance and cosine along axis 1, float64, slice by slice."""
    red, cos = [], []
    for c in range(golden.shape[1]):
        g = np.take(golden, c, axis=1).astype(np.float64).ravel()
        t = np.take(target, c, axis=1).astype(np.float64).ravel()
        red.append(np.linalg.norm(t - g) / np.linalg.norm(g) if g.any() else np.nan)
        cos.append(
            g @ t / (np.linalg.norm(g) * np.linalg.norm(t))
            if g.any() and t.any()
            else (0.0 if g.any() else np.nan)
        )
    return np.asarray(red), np.asarray(cos)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 2), st.integers(2, 9), st.integers(2, 30), st.integers(0, 2**31), st.floats(1.0, 1e3))
def test_slice_metrics_match_a_float64_reference(n: int, c: int, r: int, seed: int, spread: float) -> None:
    from dumpscope.core.comparison.slices import slice_metrics

    rng = np.random.default_rng(seed)
    scales = rng.uniform(1.0, spread, c)[None, :, None]
    golden = (rng.standard_normal((n, c, r)) * scales).astype(np.float32)
    target = (golden + rng.standard_normal((n, c, r)) * rng.uniform(0, 0.5, c)[None, :, None]).astype(
        np.float32
    )
    s = slice_metrics(golden, target)
    red, cos = _reference_slices(golden, target)
    assert s is not None and s.slices == c
    assert math.isclose(s.relative_distance, np.nanmax(red), rel_tol=1e-5, abs_tol=1e-9)
    assert s.worst == int(np.nanargmax(red)) or math.isclose(red[s.worst], np.nanmax(red), rel_tol=1e-5)
    assert s.cosine is not None and math.isclose(s.cosine, np.nanmin(cos), rel_tol=1e-5, abs_tol=1e-6)


def test_a_destroyed_slice_fails_a_tensor_whose_whole_metrics_pass(tmp_path: Path) -> None:
    """The YOLO head: boxes 0-316 and class scores 0-1 in one tensor, class scores lost."""
    rng = np.random.default_rng(0)
    head = np.concatenate([rng.uniform(0, 316, (1, 4, 525)), rng.uniform(0, 1, (1, 18, 525))], axis=1).astype(
        np.float32
    )
    broken = head.copy()
    broken[:, 4:] = (
        np.round(broken[:, 4:] / 1.24) * 1.24
    )  # one int8 scale for both: class scores -> 0 or 1.24
    save(tmp_path / "g", "output0", head)
    save(tmp_path / "t", "output0", broken)
    r = compare(tmp_path / "g", tmp_path / "t").frame.row(0, named=True)
    assert r["cosine_similarity"] > 0.999
    assert r["health"] == "fail" and r["worst_slice"] >= 4 and "worst slice along axis 1" in r["message"]


def test_no_slice_within_the_floor_competes() -> None:
    """A channel of ~1e-8 values that fp16 flushes to zero moves nothing."""
    from dumpscope.core.comparison.slices import slice_metrics

    golden = np.ones((1, 3, 8), np.float32)
    golden[0, 1] = 1e-8
    target = golden.copy()
    target[0, 1] = 0.0
    assert slice_metrics(golden, target, floor=ABS_FLOOR["fp16"]) is None
    s = slice_metrics(golden, target)
    assert s is not None and s.worst == 1 and s.relative_distance == 1.0 and s.cosine == 0.0


# --- item 6 (pairing part): plain {tensor}.npy folders with --model --------------------------------


def _chain_model(path: Path, outputs: list[str]) -> Path:
    """Relu nodes in a chain from graph input ``x`` through ``outputs``."""
    import onnx
    from onnx import TensorProto, helper

    nodes, prev = [], "x"
    for i, out in enumerate(outputs):
        nodes.append(helper.make_node("Relu", [prev], [out], name=f"/blk{i}/Relu"))
        prev = out
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [2, 3])],
    )
    onnx.save(helper.make_model(graph), path)
    return path


def test_plain_folder_file_names_are_matched_to_the_model(tmp_path: Path) -> None:
    names = ["/enc/conv/Relu_output_0", "/enc/pad/Pad_output_0", "a/b_c", "a_b/c"]
    model = _chain_model(tmp_path / "m.onnx", names)
    x = np.ones((2, 3), np.float32)
    for side in ("g", "t"):
        save(tmp_path / side, "x", x)
        for n in names:
            save(tmp_path / side, n.replace("/", "_"), x)
    cmp = compare(tmp_path / "g", tmp_path / "t", model=model)
    rows = {r["name"]: r for r in cmp.frame.iter_rows(named=True)}
    r = rows["/enc/pad/Pad_output_0"]
    assert r["node_name"] == "/blk1/Relu" and r["op_type"] == "Relu"
    assert rows["x"]["kind"] == "input"
    # 'a/b_c' and 'a_b/c' are both spelled a_b_c: ambiguous, left as is and said
    assert "a_b_c" in rows and "a/b_c" not in rows
    assert any("a_b_c" in w and "could be any of" in w for w in cmp.warnings)


def test_report_worst_rows_put_nan_rows_first(tmp_path: Path) -> None:
    from dumpscope.core.report.writers import worst_rows

    rng = np.random.default_rng(0)
    a = rng.standard_normal(64).astype(np.float32)
    save(tmp_path / "g", "bad_cosine", a)
    save(tmp_path / "t", "bad_cosine", -a)
    save(tmp_path / "g", "one_nan", a)
    nan = a.copy()
    nan[3] = np.nan
    save(tmp_path / "t", "one_nan", nan)  # cosine over the finite positions: 1.0
    assert worst_rows(compare(tmp_path / "g", tmp_path / "t"))["name"].to_list()[0] == "one_nan"


def test_same_shape_permuted_values_of_an_onnxruntime_dump_are_a_layout_mismatch(tmp_path: Path) -> None:
    """det-layout-input: the image fed with H and W swapped (64x64, same shape)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 3, 8, 8)).astype(np.float32)
    for side, data in (("g", x), ("t", np.ascontiguousarray(x.transpose(0, 1, 3, 2)))):
        save(tmp_path / side, "x", data)
        manifest(
            tmp_path / side, [{"name": "x", "file": "x.npy", "kind": "input"}], producer="onnxruntime 1.32"
        )
    r = compare(tmp_path / "g", tmp_path / "t").frame.row(0, named=True)
    assert r["health"] == "fail" and "layout mismatch" in r["message"] and "(0, 1, 3, 2)" in r["message"]
    assert r["cosine_similarity"] < 0.5 and "equal values" in r["message"]  # judged as declared
    # a plain folder or a Polygraphy JSON: the same tensors, the same numbers and the same finding
    for side in ("g", "t"):
        (tmp_path / side / "manifest.json").unlink()
    plain = compare(tmp_path / "g", tmp_path / "t").frame.row(0, named=True)
    assert plain["health"] == "fail" and "layout mismatch" in plain["message"]
    for col in ("cosine_similarity", "max_absolute_error", "relative_euclidean_distance"):
        assert plain[col] == r[col], col


def test_the_target_runs_precision_sets_the_band_of_its_float32_rows(tmp_path: Path) -> None:
    """A float32 layer after float16 layers carries float16 error: an fp16 run's rows are fp16."""
    for side, dtype in (("g", np.float32), ("t", np.float16)):
        save(tmp_path / side, "conv", np.ones((2, 4), dtype))
        save(tmp_path / side, "out", np.ones((2, 4), np.float32))
        save(tmp_path / side, "idx", np.arange(3, dtype=np.int64))
    bands = dict(
        zip(
            *compare(tmp_path / "g", tmp_path / "t")
            .frame.select("name", "band")
            .to_dict(as_series=False)
            .values(),
            strict=False,
        )
    )
    assert bands == {"conv": "fp16", "out": "fp16", "idx": "exact"}
