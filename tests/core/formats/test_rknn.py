"""RKNN-Toolkit2 accuracy_analysis snapshots: the reader, the vendor's report beside our numbers,
pairing with an ONNX golden dump, the one-folder command line.

The fixtures in tests/data/rknn are real toolkit output (trimmed: see its README); the tests that
need the whole samples in ../shared/samples/rknn skip when they are absent.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from dumpscope.core.comparison.imported import open_rknn_report
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.formats import open_dump, sniff
from dumpscope.core.formats.rknn_snapshot import snapshot_sides
from dumpscope.core.vendor import rknn
from tests.support.paths import DATA as DATA_DIR
from tests.support.paths import SHARED as SHARED_DIR

DATA = DATA_DIR / "rknn"
SHARED = SHARED_DIR / "samples" / "rknn"  # shared/ sits beside the repo
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(), reason="shared RKNN samples (../shared/samples/rknn) not present"
)
MODES = ("int8", "fp16")


def _snap(mode: str, root: Path = DATA) -> Path:
    return root / mode / "snapshot"


def _cos64(g: np.ndarray, t: np.ndarray) -> float:
    """Independent float64 cosine."""
    g, t = g.astype(np.float64).ravel(), t.astype(np.float64).ravel()
    return float(g @ t / math.sqrt(float(g @ g) * float(t @ t)))


def _euc64(g: np.ndarray, t: np.ndarray) -> float:
    return float(np.linalg.norm(g.astype(np.float64).ravel() - t.astype(np.float64).ravel()))


# --- the report ------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_report_rows_cover_the_name_map_and_blank_rows_point_at_their_group_end(mode: str) -> None:
    report = rknn.read_report(_snap(mode) / rknn.REPORT)
    layers, bad = rknn.read_name_map(_snap(mode) / rknn.NAME_MAP)
    assert not bad and not report.problems
    assert [r.name for r in report.rows] == [name for name, _f in layers]  # the same layers, the same order
    assert all(file == rknn.file_stem(name) + ".txt" for name, file in layers)
    by_name = report.by_name()
    for r in report.rows:
        if r.blank:
            target = by_name[r.fused_into]  # type: ignore[index]
            assert not target.blank and target.position > r.position
            assert all(by_name[n].blank for n in report.group_of(target.name)[:-1])
        else:
            assert r.printed is not None and f"{r.entire_cos:.5f}" == r.printed[0]


def test_int8_report_facts() -> None:
    report = rknn.read_report(_snap("int8") / rknn.REPORT)
    assert len(report.rows) == 147
    blank = [r for r in report.rows if r.blank]
    assert len(blank) == 32 and {r.op_type for r in blank} == {"Conv"}
    assert report.by_name()["batch_norm_0.tmp_2"].fused_into == "hardswish_0.tmp_0"
    assert rknn.precision(r.name for r in report.rows) == "int8"
    assert rknn.precision(r.name for r in rknn.read_report(_snap("fp16") / rknn.REPORT).rows) == "fp16"
    worst = min((r for r in report.rows if not r.blank), key=lambda r: r.single_cos or 0.0)
    assert worst.name == "conv2d_92.tmp_1" and rknn.origin(worst) == "introduced"
    assert rknn.origin(report.by_name()["relu_3.tmp_0"]) == "inherited"  # single euc 1.43 of entire 3.19


def test_report_line_with_bad_numbers_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    text = (_snap("int8") / rknn.REPORT).read_text().replace("0.99998 | 1.34768", "0.99998 | oops", 1)
    (tmp_path / rknn.REPORT).write_text(text)
    report = rknn.read_report(tmp_path / rknn.REPORT)
    assert len(report.rows) == 147 and len(report.problems) == 1 and "oops" in report.problems[0]
    (tmp_path / "x.txt").write_text("hello\n")
    with pytest.raises(rknn.DumpError):
        rknn.read_report(tmp_path / "x.txt")


def test_tool_made_names_are_explained() -> None:
    assert "lowering of GlobalAveragePool #3" in rknn.tool_made_note("GlobalAveragePool@3_2conv1")
    assert "'x' to int8" in rknn.tool_made_note("x_int8")
    assert "'linear_1.tmp_0_rs_sw' to float16" in rknn.tool_made_note("linear_1.tmp_0_rs_sw__float16")
    assert rknn.is_tool_made("linear_1.tmp_1-rs_sw") and not rknn.is_tool_made("relu_3.tmp_0")


# --- the reader --------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_snapshot_and_its_sides_sniff_as_rknn(mode: str) -> None:
    snap = _snap(mode)
    for path in (snap, snap / "golden", snap / "simulator"):
        assert sniff(path)[0][1] == "rknn-snapshot"
    assert snapshot_sides(snap) == (snap / "golden", snap / "simulator")
    assert snapshot_sides(snap / "golden") is None
    assert open_dump(snap).meta["rknn_side"] == "simulator"  # the folder alone is the target side
    assert open_dump(snap / "golden").meta["rknn_side"] == "golden"


def test_reader_uses_true_names_and_keeps_every_listed_layer() -> None:
    dump = open_dump(_snap("int8") / "simulator")
    layers, _bad = rknn.read_name_map(_snap("int8") / rknn.NAME_MAP)
    assert list(dump.tensors) == [name for name, _f in layers]  # never silently dropped
    out = dump.tensors["save_infer_model/scale_0.tmp_1"]
    assert out.info.shape == (1, 2) and out.load().dtype == np.float32
    missing = dump.tensors["relu_0.tmp_0"]
    assert missing.error and "neither npy/relu_0_tmp_0.npy nor relu_0_tmp_0.txt" in missing.error
    extra = dict(dump.tensors["batch_norm_0.tmp_2"].info.extra)
    assert extra["rknn_fused_into"] == "hardswish_0.tmp_0"
    group = dict(dump.tensors["hardswish_0.tmp_0"].info.extra)["rknn_group"]
    assert group == "batch_norm_0.tmp_2, hardswish_0.tmp_0"
    assert dump.meta["quantised"] is True and "quantised" not in open_dump(_snap("fp16")).meta


def test_txt_layer_reads_as_the_values(tmp_path: Path) -> None:
    """fp16's output is kept only as .txt in the fixture; with its .npy gone, int8's reads the same."""
    dump = open_dump(_snap("fp16") / "golden")
    ref = dump.tensors["save_infer_model/scale_0.tmp_1"]
    assert ref.info.shape is None and dict(ref.info.extra)["rknn_data"].endswith(".txt")
    values = ref.load()
    assert values.shape == (2,) and values.dtype == np.float32
    snap = tmp_path / "snapshot"
    shutil.copytree(_snap("int8"), snap)
    stem = "save_infer_model_scale_0_tmp_1"
    npy = np.load(snap / "golden" / "npy" / f"{stem}.npy", allow_pickle=False)
    np.savetxt(snap / "golden" / f"{stem}.txt", npy.ravel(), fmt="%.6f")
    (snap / "golden" / "npy" / f"{stem}.npy").unlink()
    txt = open_dump(snap / "golden").tensors["save_infer_model/scale_0.tmp_1"].load()
    np.testing.assert_allclose(txt, npy.ravel(), atol=5e-7)


def test_unlisted_file_is_a_tensor_and_a_problem(tmp_path: Path) -> None:
    snap = tmp_path / "snapshot"
    shutil.copytree(_snap("fp16"), snap)
    np.save(snap / "simulator" / "npy" / "stray.npy", np.zeros(3, np.float32))
    dump = open_dump(snap)
    assert "stray" in dump.tensors and any("stray" in p.path for p in dump.problems)


# --- our numbers beside the vendor's ----------------------------------------------------------------


def _agreement(snap: Path) -> pl.DataFrame:
    cmp = compare(snap / "golden", snap / "simulator", workers=1)
    return cmp.frame.filter(pl.col("rknn_entire_cos").is_not_null() & (pl.col("status") == "computed"))


def _check_rows_against_vendor(snap: Path) -> int:
    """Every row with data on both sides and vendor numbers: ours print as the vendor's (5 decimals),
    and ours are an independent float64 computation's."""
    rows = _agreement(snap)
    golden, target = open_dump(snap / "golden"), open_dump(snap / "simulator")
    for r in rows.iter_rows(named=True):
        assert r["rknn_cos_agrees"] is True and r["rknn_euc_agrees"] is True, r["name"]
        g, t = golden.tensors[r["name"]].load(), target.tensors[r["name"]].load()
        assert f"{_cos64(g, t):.5f}" == f"{r['rknn_entire_cos']:.5f}"
        assert f"{_euc64(g, t):.5f}" == f"{r['rknn_entire_euc']:.5f}"
        assert r["euclidean_distance"] == pytest.approx(_euc64(g, t), rel=1e-9, abs=1e-12)
        assert "RKNN report: entire cos" in r["message"]
    return rows.height


@pytest.mark.parametrize("mode, rows", [("int8", 3), ("fp16", 2)])
def test_our_entire_numbers_print_as_the_vendors_on_every_fixture_row(mode: str, rows: int) -> None:
    assert _check_rows_against_vendor(_snap(mode)) == rows


@needs_shared
@pytest.mark.parametrize("mode", MODES)
def test_our_entire_numbers_print_as_the_vendors_on_every_shared_row(mode: str) -> None:
    snap = _snap(mode, SHARED)
    with_data = len(list((snap / "golden" / "npy").glob("*.npy")))
    reported = {r.name for r in rknn.read_report(snap / rknn.REPORT).rows if not r.blank}
    dump = open_dump(snap / "golden")
    expected = sum(1 for n, ref in dump.tensors.items() if ref.error is None and n in reported)
    assert _check_rows_against_vendor(snap) == expected and expected <= with_data


def test_blank_fused_row_is_explained_and_still_compared() -> None:
    cmp = compare(_snap("int8") / "golden", _snap("int8") / "simulator", workers=1)
    row = cmp.frame.filter(pl.col("name") == "batch_norm_0.tmp_2").row(0, named=True)
    assert row["status"] == "computed" and row["rknn_entire_cos"] is None
    assert row["rknn_fused_into"] == "hardswish_0.tmp_0"
    assert "fused with the next layer(s) and reported at 'hardswish_0.tmp_0'" in row["message"]
    assert row["band"] == "int8"  # the quantised build is judged by the int8 band


def test_imported_report_shows_the_vendor_columns() -> None:
    cmp = open_rknn_report(_snap("int8") / rknn.REPORT)
    f = cmp.frame
    assert f.height == 147 and not cmp.has_tensors
    worst = f.filter(pl.col("name") == "conv2d_92.tmp_1").row(0, named=True)
    assert worst["cosine_similarity"] == 0.97479 and worst["rknn_single_cos"] == 0.97648
    assert worst["rknn_origin"] == "introduced" and worst["printed"]["cosine_similarity"] == "0.97479"
    blank = f.filter(pl.col("rknn_fused_into").is_not_null())
    assert blank.height == 32 and (blank["health"] == "unmatched").all()
    assert blank["message"].str.contains("fused with the next layer").all()


# --- paired with an ONNX golden dump -----------------------------------------------------------------


def test_onnx_names_pair_and_tool_made_layers_are_explained(tmp_path: Path) -> None:
    """A golden dump named by ONNX tensors (here: the snapshot's golden re-saved under the ONNX
    names, as `dumpscope dump` names them) pairs with the simulator by name; the toolkit's own
    layers are target-only rows that say what they are."""
    golden = tmp_path / "onnx_golden"
    golden.mkdir()
    snap = _snap("int8")
    onnx_named = {"hardswish_0.tmp_0", "batch_norm_0.tmp_2", "save_infer_model/scale_0.tmp_1"}
    for name in onnx_named:
        arr = open_dump(snap / "golden").tensors[name].load()
        path = golden / (name + ".npy")  # a plain folder: sub-folders give the '/' of a name
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(path, np.asarray(arr))
    cmp = compare(golden, snap, workers=1)
    f = cmp.frame
    matched = f.filter(pl.col("side") == "both")
    assert set(matched["name"]) == onnx_named and (matched["pairing"] == "name").all()
    target_only = f.filter(pl.col("side") == "target")
    assert target_only.height == 147 - 3
    gap = target_only.filter(pl.col("name") == "GlobalAveragePool@0_2conv0").row(0, named=True)
    assert "lowering of GlobalAveragePool #0" in gap["message"]
    tool_made = [n for n in target_only["name"] if rknn.is_tool_made(n)]
    assert len(tool_made) == 23  # 124 of the 147 layers are ONNX tensor names


def _make_rknn_analysis_input() -> np.ndarray:
    """The held-out input make_rknn.py fed accuracy_analysis (its c8), normalised as the model
    expects ((x - 127.5) / 127.5: the mean/std the toolkit's config applied)."""
    rng = np.random.default_rng(0)
    for _ in range(9):
        img = (rng.random((48, 192, 3)) * 255).astype(np.uint8)
        img[10:38:4, :, :] = 0
    x = img.transpose(2, 0, 1)[None].astype(np.float32)
    return ((x - 127.5) / 127.5).astype(np.float32)


@needs_shared
def test_real_onnx_golden_dump_pairs_with_the_snapshot(tmp_path: Path) -> None:
    """`dumpscope dump` of the very model and input RKNN ran, against its int8 simulator: every
    layer with an ONNX name pairs by name, each of the 23 tool-made layers says what it is, and
    our cosine against the ONNX golden prints as the vendor's on every row with data."""
    from bench.realmodels.models import ModelUnavailable, model_path
    from dumpscope.core.onnx.runner import dump_model

    try:
        model = model_path("ppocr-cls")  # rapidocr-onnxruntime 1.4.4: the model make_rknn.py converted
    except ModelUnavailable as exc:
        pytest.skip(f"ppocr-cls model unavailable: {exc}")
    np.save(tmp_path / "x.npy", _make_rknn_analysis_input())
    dump_model(model, tmp_path / "golden", inputs=[f"x={tmp_path / 'x.npy'}"])
    snap = _snap("int8", SHARED)
    cmp = compare(tmp_path / "golden", snap, model=model, workers=1)
    f = cmp.frame
    report = rknn.read_report(snap / rknn.REPORT)
    target_rows = f.filter(pl.col("side").is_in(["both", "target"]))
    assert target_rows.height == len(report.rows)  # every vendor layer is a row
    only = target_rows.filter(pl.col("side") == "target")
    assert sorted(only["name"]) == sorted(r.name for r in report.rows if rknn.is_tool_made(r.name))
    assert only.height == 23 and not only["message"].str.contains("no golden tensor of this name").any()
    both = target_rows.filter((pl.col("side") == "both") & (pl.col("status") == "computed"))
    assert set(both["name"]) == {"batch_norm_0.tmp_2", "hardswish_0.tmp_0", "save_infer_model/scale_0.tmp_1"}
    checked = both.filter(pl.col("rknn_entire_cos").is_not_null())
    assert checked.height == 2 and checked["rknn_cos_agrees"].all() and checked["rknn_euc_agrees"].all()
    assert checked["message"].str.contains("against this golden, not RKNN's own").all()


# --- the command line --------------------------------------------------------------------------------


def test_one_snapshot_folder_compares_its_two_sides(capsys: pytest.CaptureFixture[str]) -> None:
    from dumpscope.tui.cli.main import main

    code = main(["compare", str(_snap("fp16")), "--format", "json", "--workers", "1"])
    out = capsys.readouterr().out
    assert code in (0, 1) and "GlobalAveragePool@0_2conv0" in out and "rknn_entire_cos" in out


def test_open_imports_error_analysis(capsys: pytest.CaptureFixture[str]) -> None:
    from dumpscope.tui.cli.main import main

    main(["open", str(_snap("int8") / rknn.REPORT), "--format", "table"])
    out = capsys.readouterr().out
    assert "conv2d_92.tmp_1" in out and "0.97479" in out


def test_formats_lists_the_snapshot_and_the_report(tmp_path: Path) -> None:
    from dumpscope.tui.cli.commands.formats import listing

    groups = listing()
    assert "rknn-snapshot" in dict(groups["dumps"]) and "rknn-error-analysis" in dict(groups["side files"])
    assert rknn.is_report(_snap("fp16") / rknn.REPORT)
    assert not rknn.is_report(_snap("fp16") / rknn.NAME_MAP)
    (tmp_path / "a.txt").write_text("layer_name,cos\n")
    assert not rknn.is_report(tmp_path / "a.txt")


def test_a_map_line_leading_outside_is_refused_on_its_row(tmp_path: Path) -> None:
    snap = tmp_path / "snapshot"
    shutil.copytree(_snap("fp16"), snap)
    secret = tmp_path / "secret.npy"
    np.save(secret, np.ones(3, np.float32))
    with (snap / rknn.NAME_MAP).open("a") as fh:
        fh.write("evil                      ../../../secret.txt\n")
    (snap / "simulator" / "npy" / "outlink.npy").symlink_to(secret)
    dump = open_dump(snap)
    evil = dump.tensors["evil"]
    assert evil.error is not None and "leads outside the dump folder" in evil.error
    link = dump.tensors["outlink"]  # an unlisted file: a row, but a link leading out is never followed
    assert link.error is not None and "symbolic link" in link.error
