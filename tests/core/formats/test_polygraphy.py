"""Polygraphy RunResults / input JSON as dumps (layout per polygraphy/comparator/struct.py)."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.dumps import DumpError, TensorReadError
from dumpscope.core.formats import polygraphy as pg

rng = np.random.default_rng(3)


def ndarray(arr: np.ndarray, legacy: bool = False, pickle: bool = False) -> dict[str, object]:
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=pickle)
    if legacy:
        return {
            "array": buf.getvalue().decode("latin-1"),
            "__polygraphy_encoded_ndarray": "polygraphy_serialized_json_type",
        }
    return {"array": base64.b64encode(buf.getvalue()).decode(), "polygraphy_class": "ndarray"}


def lazy(arr: np.ndarray) -> dict[str, object]:
    return {"values": ndarray(arr), "polygraphy_class": "LazyArray"}


def iteration(outputs: dict[str, object], runner: str) -> dict[str, object]:
    return {"outputs": outputs, "runtime": 0.01, "runner_name": runner, "polygraphy_class": "IterationResult"}


def run_results(runs: list[tuple[str, list[dict[str, object]]]]) -> dict[str, object]:
    return {"lst": [[name, its] for name, its in runs], "polygraphy_class": "RunResults"}


def save(tmp_path: Path, doc: object, name: str = "outputs.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


def test_single_runner_round_trip(tmp_path: Path) -> None:
    arrays = {
        "logits": rng.standard_normal((2, 10)).astype(np.float32),
        "conv/1:0@x": rng.standard_normal((1, 3, 4, 4)).astype(np.float16),
        "idx": np.arange(5, dtype=np.int64),
        "mask": np.array([True, False]),
    }
    p = save(
        tmp_path,
        run_results([("onnxrt-runner-N0", [iteration({k: lazy(v) for k, v in arrays.items()}, "onnxrt")])]),
    )
    assert pg.sniff(p) == 0.9
    dump = pg.open(p)
    assert list(dump.tensors) == list(arrays) and not dump.problems
    assert dump.meta["runner"] == "onnxrt-runner-N0" and dump.meta["runtime_s"] == 0.01
    for name, arr in arrays.items():
        ref = dump.tensors[name]
        assert ref.info.shape == arr.shape and ref.info.dtype == arr.dtype.name  # from the npy header
        np.testing.assert_array_equal(ref.load(), arr)
    assert [t.info.order for t in dump] == [0.0, 1.0, 2.0, 3.0]


def test_sniff_sees_a_run_results_file_whose_first_array_is_large(tmp_path: Path) -> None:
    big = np.zeros(50_000, np.float32)
    p = tmp_path / "out.json"
    p.write_text(json.dumps(run_results([("r", [iteration({"y": lazy(big)}, "r")])]), indent=4))
    assert pg.sniff(p) == 0.9
    assert pg.open(p).tensors["y"].info.shape == (50_000,)


def test_several_runners_and_iterations(tmp_path: Path) -> None:
    a0, a1, b0 = (rng.standard_normal(4).astype(np.float32) for _ in range(3))
    doc = run_results([
        ("onnxrt", [iteration({"y": lazy(a0)}, "onnxrt"), iteration({"y": lazy(a1)}, "onnxrt")]),
        ("trt", [iteration({"y": lazy(b0)}, "trt")]),
    ])  # fmt: skip
    p = save(tmp_path, doc)
    assert pg.runners(p) == [("onnxrt", 2), ("trt", 1)]
    first = pg.open(p)
    np.testing.assert_array_equal(first.tensors["y"].load(), a0)
    assert "also holds trt (1 iteration(s))" in first.problems[0].message
    np.testing.assert_array_equal(pg.open_runner(p, "onnxrt", 1).tensors["y"].load(), a1)
    np.testing.assert_array_equal(pg.open_runner(p, "trt").tensors["y"].load(), b0)
    with pytest.raises(DumpError, match="no runner 'tf'"):
        pg.open_runner(p, "tf")
    with pytest.raises(DumpError, match="has 1 iteration"):
        pg.open_runner(p, "trt", 3)


def test_legacy_markers_latin1_arrays_and_pre_lazy_outputs(tmp_path: Path) -> None:
    x = rng.standard_normal((3, 2)).astype(np.float32)
    doc = {
        "lst": [["old", [{"outputs": {"x": ndarray(x, legacy=True)}, "runtime": 1, "runner_name": "old",
                          "__polygraphy_encoded_IterationResult": "polygraphy_serialized_json_type"}]]],
        "__polygraphy_encoded_RunResults": "polygraphy_serialized_json_type",
    }  # fmt: skip
    p = save(tmp_path, doc)
    assert pg.sniff(p) == 0.9
    ref = pg.open(p).tensors["x"]
    assert ref.info.shape == (3, 2)
    np.testing.assert_array_equal(ref.load(), x)


def test_object_arrays_are_never_unpickled(tmp_path: Path) -> None:
    evil = np.array([{"a": 1}, None], dtype=object)
    outputs = {
        "evil": {"values": ndarray(evil, pickle=True), "polygraphy_class": "LazyArray"},
        "ok": lazy(np.ones(2)),
    }
    dump = pg.open(save(tmp_path, run_results([("r", [iteration(outputs, "r")])])))
    assert "object array" in (dump.tensors["evil"].error or "")
    with pytest.raises(TensorReadError, match="unpickling"):
        dump.tensors["evil"].load()
    np.testing.assert_array_equal(dump.tensors["ok"].load(), np.ones(2))


def test_unreadable_values_are_messages_on_their_tensor(tmp_path: Path) -> None:
    outputs = {
        "torch": {"values": {"tensor": "...", "polygraphy_class": "Tensor"}, "polygraphy_class": "LazyArray"},
        "garbage": {"array": "!!!!not npy", "polygraphy_class": "ndarray"},
        "fine": lazy(np.zeros(3, np.float32)),
    }
    dump = pg.open(save(tmp_path, run_results([("r", [iteration(outputs, "r")])])))
    assert "Tensor, not a numpy array" in (dump.tensors["torch"].error or "")
    assert "no readable npy header" in (dump.tensors["garbage"].error or "")
    assert dump.tensors["fine"].load().shape == (3,)


def test_input_feed_list(tmp_path: Path) -> None:
    x = rng.standard_normal((1, 3)).astype(np.float32)
    p = save(tmp_path, [{"x": ndarray(x)}, {"x": ndarray(x * 2)}], "inputs.json")
    assert pg.sniff(p) == 0.6
    dump = pg.open(p)
    assert dump.tensors["x"].info.kind == "input"
    np.testing.assert_array_equal(dump.tensors["x"].load(), x)
    assert "2 input feeds" in dump.problems[0].message


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"polygraphy_class": "AccuracyResult", "lst": []}, "accuracy-results file"),
        ({"hello": 1}, "not a Polygraphy RunResults"),
        ({"lst": [], "polygraphy_class": "RunResults"}, "no runner results"),
        ([], "empty Polygraphy input list"),
    ],
)
def test_unusable_json(tmp_path: Path, doc: object, message: str) -> None:
    with pytest.raises(DumpError, match=message):
        pg.open(save(tmp_path, doc))


def test_not_json_and_sniff(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text("{")
    with pytest.raises(DumpError, match="not valid JSON"):
        pg.open(bad)
    assert pg.sniff(bad) == 0.0
    assert pg.sniff(tmp_path) == 0.0
    other = save(tmp_path, {"graph": []}, "graph.json")
    assert pg.sniff(other) == 0.0


# ----------------------------------------------------------------- streamed reading (issue 24)


def big(shape: tuple[int, ...], dtype: type = np.float32) -> np.ndarray:
    """An array whose encoding is far longer than the strings decoded in place (``_INLINE_CHARS``)."""
    return rng.standard_normal(shape).astype(dtype)


def test_long_arrays_stay_in_the_file_and_load_exactly(tmp_path: Path) -> None:
    arrays = {
        "é/conv:0": big((3, 1000)),
        "half": big((7, 999), np.float16),
        "fortran": np.asfortranarray(big((40, 50))),
    }
    outputs = {k: lazy(v) for k, v in arrays.items()}
    p = (
        tmp_path / "o.json"
    )  # a non-ASCII name before the arrays, CRLF white space: byte offsets, not characters
    p.write_text(
        json.dumps(run_results([("r", [iteration(outputs, "r")])]), ensure_ascii=False, indent=1).replace(
            "\n", "\r\n"
        ),
        encoding="utf-8",
    )
    data = pg._read_json(p)
    lazy_value = data["lst"][0][1][0]["outputs"]["half"]["values"]  # type: ignore[index]
    assert isinstance(lazy_value["array"], pg._Encoded)
    dump = pg.open(p)
    for name, arr in arrays.items():
        ref = dump.tensors[name]
        assert (ref.info.shape, ref.info.dtype) == (arr.shape, arr.dtype.name)
        loaded = ref.load()
        assert loaded.dtype == arr.dtype
        np.testing.assert_array_equal(loaded, arr)


@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_long_legacy_latin1_arrays_with_escapes_load_exactly(tmp_path: Path, ensure_ascii: bool) -> None:
    x = big((2, 3000))
    doc = {
        "lst": [["old", [{"outputs": {"x": ndarray(x, legacy=True)}, "runtime": 1, "runner_name": "old",
                          "__polygraphy_encoded_IterationResult": "polygraphy_serialized_json_type"}]]],
        "__polygraphy_encoded_RunResults": "polygraphy_serialized_json_type",
    }  # fmt: skip
    p = tmp_path / "old.json"
    p.write_text(json.dumps(doc, ensure_ascii=ensure_ascii), encoding="utf-8")
    ref = pg.open(p).tensors["x"]
    assert ref.info.shape == (2, 3000)
    np.testing.assert_array_equal(ref.load(), x)


def test_opening_holds_no_array_and_loading_one_copy(tmp_path: Path) -> None:
    import tracemalloc

    arrays = {f"t{i}": big((1 << 20,)) for i in range(4)}  # 4 x 4 MiB of float32, 22 MB of base64
    p = save(tmp_path, run_results([("r", [iteration({k: lazy(v) for k, v in arrays.items()}, "r")])]))
    tracemalloc.start()
    try:
        dump = pg.open(p)
        opened = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        loaded = dump.tensors["t2"].load()
        loading = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert opened < 8 << 20  # a read chunk or two (1 MiB of text each) and the names, not 22 MB
    assert loading < 16 << 20  # the base64 of one array and its bytes, viewed (not copied again)
    np.testing.assert_array_equal(loaded, arrays["t2"])


@pytest.mark.parametrize(
    ("cut", "message"), [(-10, "cut short"), (-3, "not valid JSON"), (None, "extra data")]
)
def test_a_file_cut_short_or_with_extra_data_is_one_error(
    tmp_path: Path, cut: int | None, message: str
) -> None:
    text = json.dumps(run_results([("r", [iteration({"a": lazy(big((5000,)))}, "r")])]))
    p = tmp_path / "bad.json"
    p.write_text(text[: len(text) // 2] if cut == -10 else text[:cut] if cut else text + " {}")
    with pytest.raises(DumpError, match=message):
        pg.open(p)
