"""Reading npy/npz dumps, pairing, ordering and the compare pipeline, bad input included."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from dumpscope.core import compare, compare_frame
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.dumps import DumpError
from dumpscope.core.formats import open_dump
from dumpscope.core.formats.npy_dir import parse_name
from dumpscope.core.names import from_filename, to_filename
from dumpscope.tui.cli.main import main


def save(directory: Path, name: str, array: np.ndarray) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.npy"
    np.save(path, array)
    return path


@pytest.fixture
def pair_dirs(tmp_path: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(0)
    g, t = tmp_path / "golden", tmp_path / "target"
    for i in range(4):
        a = rng.standard_normal((2, 8)).astype(np.float32)
        save(g, f"conv{i}.0.{1700000000000000 + i}", a)
        save(t, f"conv{i}.0.{1700000000009000 + i}", a.astype(np.float16))
    return g, t


def row(frame: pl.DataFrame, name: str) -> dict[str, object]:
    hits = frame.filter(pl.col("name") == name)
    assert hits.height == 1, (name, frame["name"].to_list())
    return hits.row(0, named=True)


# --- names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["a/b.c:0", "@x", "..", ".hidden", "", "über/名前", "a%2Fb", "x" * 400, "sp ace\\"]
)
def test_file_names_are_safe_and_reversible(name: str) -> None:
    fn = to_filename(name)
    assert "/" not in fn and not fn.startswith(".") and len(fn.encode()) <= 255
    if len(name) < 100:
        assert from_filename(fn[:-4]) == name


def test_non_utf8_names_round_trip() -> None:
    name = b"bad\xff\xfename".decode("utf-8", "surrogateescape")
    assert from_filename(to_filename(name)[:-4]) == name


# --- name conventions ---------------------------------------------------------------------


def test_parse_msit_and_msaccucmp_names() -> None:
    p = parse_name("Conv@44.0.1700000000123456")
    assert (p.name, p.node, p.index, p.order) == ("Conv@44", "Conv@44", 0, 1700000000123456.0)
    p = parse_name("Split_3.2.1700000000123456")
    assert (p.name, p.node, p.index) == ("Split_3:2", "Split_3", 2)
    p = parse_name("Conv2D.conv1_relu.12.1.1700000000000050.output.0")
    assert (p.name, p.node, p.op_type, p.kind) == ("conv1_relu", "conv1_relu", "Conv2D", "activation")
    p = parse_name("Conv2D.conv1.12.1.1700000000000050.input.1.1x3x224x224")
    assert (p.name, p.kind, p.index) == ("conv1:input:1", "op_input", 1)
    p = parse_name("MatMul.mm_lxslice1.3.7.1700000000000050.0.1.2.0.output.1")
    assert (p.name, p.node, p.index) == ("mm_lxslice1:1", "mm_lxslice1", 1)
    assert parse_name("plain.tensor:0").name == "plain.tensor:0"


# --- the pipeline -------------------------------------------------------------------------


def test_msit_named_dumps_pair_and_order_by_timestamp(pair_dirs: tuple[Path, Path]) -> None:
    g, t = pair_dirs
    frame = compare_frame(g, t)
    assert frame["name"].to_list() == ["conv0", "conv1", "conv2", "conv3"]
    assert set(frame["health"]) == {"ok"}
    assert frame["band"].to_list() == ["fp16"] * 4
    assert frame["index"].to_list() == [0, 1, 2, 3]


def test_order_comes_from_the_model_graph_not_file_names(tmp_path: Path) -> None:
    import onnx
    from onnx import TensorProto, helper

    nodes = [
        helper.make_node("Relu", ["x"], ["zeta"], name="n0"),
        helper.make_node("Neg", ["zeta"], ["alpha"], name="n1"),
        helper.make_node("Abs", ["alpha"], ["mid"], name="n2"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("mid", TensorProto.FLOAT, [4])],
    )
    model = tmp_path / "m.onnx"
    onnx.save(helper.make_model(graph), model)
    for side in ("g", "t"):
        for name in ("zeta", "alpha", "mid", "x"):
            save(tmp_path / side, name, np.ones(4, np.float32))
    frame = compare_frame(tmp_path / "g", tmp_path / "t", model=model)
    assert frame["name"].to_list() == ["x", "zeta", "alpha", "mid"]
    assert frame["op_type"].to_list()[0] is None or True
    assert frame["index"].to_list() == [-1, 0, 1, 2]


def test_sanitised_and_node_pairing(tmp_path: Path) -> None:
    save(tmp_path / "g", to_filename("blk.0/conv")[:-4], np.ones(3, np.float32))
    (tmp_path / "g" / "manifest.json").write_text(
        json.dumps(
            {
                "format": "dumpscope-manifest",
                "version": 1,
                "tensors": [
                    {
                        "name": "blk.0/conv",
                        "file": to_filename("blk.0/conv"),
                        "node_name": "blk.0/conv",
                        "op_type": "Conv",
                        "topo_index": 0,
                        "output_index": 0,
                        "dtype": "float32",
                        "shape": [3],
                    }
                ],
            }
        )
    )
    # Ascend replaced . and / by _ in the target op name.
    save(tmp_path / "t", "Conv2D.blk_0_conv.5.1.1700000000000001.output.0", np.ones(3, np.float16))
    frame = compare_frame(tmp_path / "g", tmp_path / "t")
    r = row(frame, "blk.0/conv")
    assert r["target_name"] == "blk_0_conv" and r["pairing"] == "sanitised name" and r["health"] == "ok"


def test_every_unmatched_tensor_is_listed_with_a_reason(pair_dirs: tuple[Path, Path]) -> None:
    g, t = pair_dirs
    save(g, "only_golden.0.1700000000000100", np.ones(2, np.float32))
    save(t, "only_target.0.1700000000000200", np.ones(2, np.float32))
    cmp = compare(g, t)
    un = cmp.unmatched()
    assert set(un["name"]) == {"only_golden", "only_target"}
    assert all(un["reason"].str.len_chars() > 10)
    assert row(cmp.frame, "only_golden")["health"] == "unmatched"
    assert row(cmp.frame, "only_target")["side"] == "target"


def test_bad_inputs_each_get_a_row_and_the_rest_is_compared(tmp_path: Path) -> None:
    g, t = tmp_path / "g", tmp_path / "t"
    good = np.arange(12, dtype=np.float32).reshape(3, 4)
    for d in (g, t):
        save(d, "good", good)
    # truncated data
    save(g, "truncated", good)
    p = save(t, "truncated", good)
    p.write_bytes(p.read_bytes()[:-7])
    # a pickled object array: refused, never loaded
    save(g, "pickled", good)
    (t / "pickled.npy").write_bytes(_object_npy())
    # header promising more data than there is
    save(g, "short_header", good)
    (t / "short_header.npy").write_bytes(_npy_header("<f4", (1000,)) + b"\0" * 16)
    # corrupt / not npy at all
    save(g, "garbage", good)
    (t / "garbage.npy").write_bytes(b"this is not numpy")
    # empty tensors, all-NaN, all-zero golden, shape and dtype mismatches
    save(g, "empty", np.zeros((0, 4), np.float32))
    save(t, "empty", np.zeros((0, 4), np.float16))
    save(g, "allnan", good)
    save(t, "allnan", np.full_like(good, np.nan))
    save(g, "zero_golden", np.zeros(5, np.float32))
    save(t, "zero_golden", np.ones(5, np.float32))
    save(g, "sizes", np.ones(6, np.float32))
    save(t, "sizes", np.ones(7, np.float32))
    save(g, "nchw", np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4))
    save(t, "nchw", np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4).transpose(0, 2, 3, 1).copy())
    save(g, "squeeze", np.ones((1, 5), np.float32))
    save(t, "squeeze", np.ones(5, np.float32))
    save(g, "strings", np.array(["a", "b"]))
    save(t, "strings", np.array(["a", "b"]))
    save(g, "ints", np.array([1, 2, 3], np.int64))
    save(t, "ints", np.array([1, 2, 4], np.int32))
    # unreadable: a dangling symlink
    save(g, "dangling", good)
    os.symlink(tmp_path / "nowhere.npy", t / "dangling.npy")
    # a name that is not valid UTF-8
    bad = os.fsdecode(b"bad\xffname")
    save(g, bad, good)
    save(t, bad, good)

    cmp = compare(g, t)
    f = cmp.frame
    assert row(f, "good")["health"] == "ok"
    assert row(f, "bad\\xffname")["health"] == "ok"  # undecodable bytes shown as \\xNN
    assert "truncated" in row(f, "truncated")["message"]
    assert "pickled" in row(f, "pickled")["message"] and row(f, "pickled")["health"] == "error"
    assert "truncated" in row(f, "short_header")["message"]
    assert row(f, "garbage")["health"] == "error"
    assert "empty" in row(f, "empty")["message"] and row(f, "empty")["health"] != "error"
    assert row(f, "allnan")["health"] == "fail" and row(f, "allnan")["nan_target"] == 12
    assert row(f, "zero_golden")["health"] == "fail"
    assert "golden is all zero" in row(f, "zero_golden")["message"]
    assert row(f, "sizes")["health"] == "error" and "6 vs 7" in row(f, "sizes")["message"]
    nchw = row(f, "nchw")
    assert nchw["health"] == "ok" and "NHWC" in nchw["message"]
    assert row(f, "squeeze")["health"] == "ok" and "size-1" in row(f, "squeeze")["message"]
    assert row(f, "strings")["health"] == "error" and "numeric" in row(f, "strings")["message"]
    ints = row(f, "ints")
    assert ints["band"] == "exact" and ints["health"] == "fail"
    assert row(f, "dangling")["health"] == "error"
    assert f.height == 15


def test_duplicate_names_are_kept(tmp_path: Path) -> None:
    g, t = tmp_path / "g", tmp_path / "t"
    save(g, "node.0.1700000000000001", np.ones(2, np.float32))
    save(g, "node.0.1700000000000009", np.full(2, 2.0, np.float32))
    save(t, "node.0.1700000000000003", np.ones(2, np.float32))
    dump = open_dump(g)
    assert set(dump.tensors) == {"node", "node#2"}
    assert any("duplicate" in p.message for p in dump.problems)
    frame = compare_frame(g, t)
    assert row(frame, "node")["health"] == "ok" and row(frame, "node#2")["health"] == "unmatched"


def test_npz_dump(tmp_path: Path) -> None:
    a = np.linspace(0, 1, 50, dtype=np.float32)
    np.savez(tmp_path / "g.npz", **{"x/y": a, "z": a * 2})
    np.savez(tmp_path / "t.npz", **{"x/y": a, "z": a * 2.5})
    frame = compare_frame(tmp_path / "g.npz", tmp_path / "t.npz")
    assert row(frame, "x/y")["health"] == "ok" and row(frame, "z")["health"] == "fail"


def test_not_a_dump_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(DumpError, match="no .npy files|not a dump"):
        open_dump(tmp_path / "empty")
    with pytest.raises(DumpError, match="no such file"):
        open_dump(tmp_path / "missing")


def test_saved_comparison_reopens_without_tensors(pair_dirs: tuple[Path, Path], tmp_path: Path) -> None:
    cmp = compare(*pair_dirs)
    cmp.save(tmp_path / "r.parquet")
    back = Comparison.open(tmp_path / "r.parquet")
    assert not back.has_tensors
    assert back.frame.equals(cmp.frame)
    assert back.thresholds.preset == "auto" and back.meta.golden == str(pair_dirs[0])
    with pytest.raises(Exception, match="reopened"):
        back.load_pair(0)
    g, t = cmp.load_pair(0)
    assert g is not None and t is not None and t.dtype == np.float16


def test_stream_yields_pending_then_final(pair_dirs: tuple[Path, Path]) -> None:
    from dumpscope.core.comparison.pipeline import compare_stream

    steps = list(compare_stream(*pair_dirs, interval=0.0, batch=1))
    assert steps[0].done == 0 and set(steps[0].comparison.frame["health"]) == {"pending"}
    assert steps[-1].done == steps[-1].total == 4
    assert set(steps[-1].comparison.frame["health"]) == {"ok"}
    assert all(
        s.comparison.frame["name"].to_list() == steps[-1].comparison.frame["name"].to_list() for s in steps
    )


@pytest.mark.parametrize(("build_cost", "expected"), [(1.0, [0, 4]), (0.001, [0, 1, 2, 3, 4])])
def test_streamed_tables_wait_ten_times_what_the_last_one_cost(
    pair_dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, build_cost: float, expected: list[int]
) -> None:
    """A fake clock: each table build costs ``build_cost`` s, each batch 0.5 s.  A 1 s build pushes the
    next table 10 s away (none in between); a cheap one leaves the 0.25 s interval in charge."""
    from types import SimpleNamespace

    from dumpscope.core.comparison import pipeline, table

    clock = SimpleNamespace(now=0.0)
    monkeypatch.setattr(pipeline, "time", SimpleNamespace(monotonic=lambda: clock.now))
    real_build = table.RowTable.frame

    def costly_build(*args, **kwargs):  # type: ignore[no-untyped-def]
        clock.now += build_cost
        return real_build(*args, **kwargs)

    def batch_done(done: int, total: int) -> None:
        clock.now += 0.5

    monkeypatch.setattr(table.RowTable, "frame", costly_build)
    steps = pipeline.compare_stream(*pair_dirs, interval=0.25, batch=1, workers=1, progress=batch_done)
    assert [s.done for s in steps] == expected


def test_presets_and_overrides(pair_dirs: tuple[Path, Path]) -> None:
    strict = compare(*pair_dirs, thresholds=["cosine_similarity=0.9999999999"])
    assert set(strict.frame["health"]) == {"fail"}
    assert "cosine" in strict.frame["message"][0]
    seed = compare(*pair_dirs, preset="seed")
    assert set(seed.frame["band"]) == {"all"} and set(seed.frame["health"]) == {"ok"}


# --- the command line -----------------------------------------------------------------------


def test_cli_formats_and_exit_codes(
    pair_dirs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    g, t = map(str, pair_dirs)
    assert main(["compare", g, t]) == 0
    assert "no divergent layer" in capsys.readouterr().out
    assert main(["compare", g, t, "--format", "json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert len(records) == 4 and {
        "cosine_similarity",
        "index",
        "name",
        "target_name",
        "health",
        "message",
    } <= set(records[0])
    assert main(["compare", g, t, "--format", "csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split(",")
    assert header[:3] == ["Index", "OpType", "NPUDump"] and header.count("DataType") == 2
    assert main(["compare", g, t, "--format", "parquet", "-o", str(tmp_path / "x.parquet")]) == 0
    assert pl.read_parquet(tmp_path / "x.parquet").height == 4
    assert main(["compare", g, t, "--format", "markdown"]) == 0
    assert "# dumpscope comparison" in capsys.readouterr().out
    assert main(["compare", g, t, "--threshold", "cosine_similarity=1.1"]) == 1
    capsys.readouterr()


def test_cli_usage_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(tmp_path / "nope"), str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err and "Traceback" not in err
    (tmp_path / "d").mkdir()
    assert main(["compare", str(tmp_path / "d"), str(tmp_path / "d"), "--threshold", "bogus=1"]) == 2
    assert "unknown metric" in capsys.readouterr().err


def _npy_header(descr: str, shape: tuple[int, ...]) -> bytes:
    header = repr({"descr": descr, "fortran_order": False, "shape": shape}).encode()
    header += b" " * (118 - len(header)) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header


def _object_npy() -> bytes:
    return _npy_header("|O", (1,)) + pickle.dumps([1, 2])


def test_progress_is_reported_per_batch(pair_dirs: tuple[Path, Path]) -> None:
    from dumpscope.core.comparison.pipeline import compare_stream

    seen: list[tuple[int, int]] = []
    steps = list(
        compare_stream(*pair_dirs, batch=1, final_only=True, progress=lambda d, t: seen.append((d, t)))
    )
    assert len(steps) == 1 and seen == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_a_model_that_does_not_name_the_tensors_does_not_scramble_the_order(
    pair_dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("Relu", ["a"], ["b"])],
        "g",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [1])],
    )
    onnx.save(helper.make_model(graph), tmp_path / "other.onnx")
    cmp = compare(*pair_dirs, model=tmp_path / "other.onnx")
    assert cmp.frame["name"].to_list() == ["conv0", "conv1", "conv2", "conv3"]
    assert "names only 0 of 4" in str(cmp.meta.order)


@pytest.mark.parametrize(
    "array",
    [
        np.zeros((2, 3), np.float32),
        np.zeros(5, ">f8"),
        np.zeros((), np.int64),
        np.zeros((4, 2), order="F"),
        np.zeros(0, np.float16),
        np.zeros(3, dtype=[("a", "<f4")]),
        np.zeros((1, 2, 3, 4, 5), np.uint8),
    ],
)
def test_npy_header_fast_path_agrees_with_numpy(array: np.ndarray, tmp_path: Path) -> None:
    import io

    from dumpscope.core.formats.npyfile import open_npy, read_header

    buf = io.BytesIO()
    np.save(buf, array)
    buf.seek(0)
    shape, fortran, dtype = read_header(buf)
    assert (
        shape == array.shape
        and dtype == array.dtype
        and fortran == (array.flags.f_contiguous and array.ndim > 1)
    )
    np.save(tmp_path / "a.npy", array)
    _s, _d, load = open_npy(tmp_path / "a.npy")
    assert np.array_equal(load(), array)


def test_float32_layers_of_a_float16_run_are_judged_as_float16(tmp_path: Path) -> None:
    """A float32 output after float16 layers carries float16 error: same band for the run."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal(1000).astype(np.float32)
    save(tmp_path / "g", "mid", a)
    save(tmp_path / "t", "mid", a.astype(np.float16))
    save(tmp_path / "g", "out", a * 2)
    save(
        tmp_path / "t",
        "out",
        (a.astype(np.float16) * 2).astype(np.float32)
        + np.float32(1e-3) * rng.standard_normal(1000).astype(np.float32),
    )
    frame = compare_frame(tmp_path / "g", tmp_path / "t")
    assert row(frame, "out")["band"] == "fp16" and row(frame, "out")["health"] == "ok"


def test_transient_reads_match_mapped_loads(pair_dirs: tuple[Path, Path], tmp_path: Path) -> None:
    from dumpscope.core.formats.npyfile import Scratch

    dump = open_dump(pair_dirs[0])
    scratch = Scratch()
    for ref in dump.tensors.values():
        assert np.array_equal(ref.load_transient(scratch), ref.load())
    big = np.arange(300_000, dtype=np.float32).reshape(300, 1000)  # mapped, not read, by load()
    save(tmp_path / "big", "x", np.asfortranarray(big))
    ref = open_dump(tmp_path / "big").tensors["x"]
    assert np.array_equal(ref.load(), big) and np.array_equal(ref.load_transient(scratch), big)
    p = tmp_path / "big" / "x.npy"
    p.write_bytes(p.read_bytes()[:-10])
    assert "truncated" in (open_dump(tmp_path / "big").tensors["x"].error or "")


def test_compare_hands_the_c_heap_back_around_the_row_table(
    pair_dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The opened dumps' and the identity lists' freed pages go back to the system before the
    Polars columns grow (measured: 5 MB of a 100k-entry manifest's peak); the rows are unchanged."""
    from dumpscope.core import heap
    from dumpscope.core.comparison import table

    plain = compare(*pair_dirs).frame
    events: list[str] = []
    monkeypatch.setattr(heap, "libc_function", lambda name: lambda *args: events.append(name) or 0)
    real = table.RowTable.__init__

    def spy(self: table.RowTable, *args: object, **kwargs: object) -> None:
        events.append("table")
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(table.RowTable, "__init__", spy)
    trimmed = compare(*pair_dirs).frame
    assert events == ["malloc_trim", "table", "malloc_trim"]
    assert trimmed.equals(plain)
