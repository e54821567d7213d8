"""msaccucmp / msit result CSV import."""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pytest

from dumpscope.core.dumps import DumpError
from dumpscope.core.vendor.msaccucmp_csv import METRIC_COLUMNS, SCHEMA, read_result_csv
from tests.support.paths import SHARED as SHARED_DIR

SAMPLES = SHARED_DIR / "samples" / "ascend"  # shared/ sits beside the repo
needs_samples = pytest.mark.skipif(not SAMPLES.is_dir(), reason="shared Ascend samples not present")


def _sample(folder: str) -> Path:
    return next((SAMPLES / folder).glob("result_*.csv"))


@needs_samples
def test_msaccucmp_sample_with_overflow_column() -> None:
    df = read_result_csv(_sample("msaccucmp_out"))
    assert df.schema == pl.Schema(SCHEMA)
    assert df.height == 21 and df["index"].to_list() == list(range(21))
    data = df.row(0, named=True)
    assert (
        data["op_type"] == "Data" and data["cosine_similarity"] is None and "no dump file" in data["message"]
    )
    r = df.filter(pl.col("name") == "layer_0").row(0, named=True)
    assert r["target_name"] == "layer_0" and r["tensor_index"] == "layer_0:output:0" and r["shape"] == [1000]
    assert (r["dtype"], r["target_dtype"]) == ("float32", "float32")
    assert r["cosine_similarity"] == 1.0 and r["max_absolute_error"] == pytest.approx(0.000941)
    assert (
        r["kullback_leibler_divergence"] == 0.0 and math.copysign(1, r["kullback_leibler_divergence"]) == -1
    )
    assert (r["mean_target"], r["std_target"], r["mean_golden"], r["std_golden"]) == (
        0.011,
        1.015,
        0.011,
        1.015,
    )
    assert r["overflow"] is None  # "NaN": overflow detection only judges fp16 tensors
    assert r["is_precision_error"] is None and r["blind_spot"] is None


@needs_samples
def test_msit_nan_row_is_flagged_as_a_blind_spot() -> None:
    df = read_result_csv(_sample("msit_nan_case"))
    assert df.height == 21
    bad = df.filter(pl.col("blind_spot").is_not_null())
    assert bad["name"].to_list() == ["layer_5"]
    row = bad.row(0, named=True)
    assert row["is_precision_error"] is False  # what msit said
    assert all(math.isnan(row[c]) for c in METRIC_COLUMNS.values())
    assert math.isnan(row["mean_target"]) and row["mean_golden"] == 0.013
    assert "reported as fine" in row["blind_spot"]
    assert df.filter(pl.col("name") == "layer_6")["is_npu_ops"].to_list() == [False]


HEADER_NPU_NPU = (
    "Index,OpSequence,OpType,NPUDump,DataType,Address,GroundTruth,DataType,Address,TensorIndex,Shape,OverFlow,"
    "CosineSimilarity,MaxAbsoluteError,AccumulatedRelativeError,RelativeEuclideanDistance,KullbackLeiblerDivergence,"
    "StandardDeviation,MeanAbsoluteError,RootMeanSquareError,MaxRelativeError,MeanRelativeError,CompareFailReason"
)


def test_both_address_columns_inputs_fused_and_zero_golden(tmp_path: Path) -> None:
    rows = [
        '0,3,Conv2D,conv1/fused,float16,0x10,"Conv_1,Relu_2",float32,0x20,conv1/fused:output:1,"[1, 8]",YES,'
        '0.5,1,1,0.5,0.1,"(1.000;2.000),(3.000;4.000)",1,1,1,1,',
        "1,4,Add,add.x,float16,0x30,Add_3,float32,0x40,add.x:input:1,[4],NO,"
        '1.000000,0,0,0,0,"(0.000;0.000),(0.000;0.000)",0,0,0,0,',
        "2,5,Mul,mul,float16,0x50,Mul_4,float32,0x60,mul:output:0,[4],NO,"
        'NaN,100.000000,0.000000,0.000000,0.000000,"(100.000;0.000),(0.000;0.000)",100,100,0,0,"All the '
        'data is zero"',
        "3,6,TransData,trans_TransData_5,float16,0x70,*,NaN,NaN,trans_TransData_5:output:0,[4],NaN,"
        "NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,",
    ]
    p = tmp_path / "result_20260101000000.csv"
    p.write_text(HEADER_NPU_NPU + "\n" + "\n".join(rows) + "\n")
    df = read_result_csv(p)
    fused, inp, zero, trans = df.iter_rows(named=True)
    assert (fused["target_address"], fused["golden_address"]) == ("0x10", "0x20")
    assert fused["op_sequence"] == 3 and fused["overflow"] is True and fused["shape"] == [1, 8]
    assert fused["node_name"] == "Conv_1,Relu_2" and fused["name"] is None  # which original: unknown
    assert fused["target_name"] == "conv1/fused:1" and fused["dtype"] == "float32"
    assert (inp["kind"], inp["target_name"], inp["name"]) == ("op_input", "add.x:input:1", None)
    assert zero["cosine_similarity"] is None and "golden is all zero" in zero["blind_spot"]
    assert zero["max_absolute_error"] == 100.0 and zero["name"] == "Mul_4"
    assert trans["node_name"] == "*" and trans["name"] is None and trans["blind_spot"] is None


def test_short_rows_blank_lines_and_odd_bytes(tmp_path: Path) -> None:
    header = "Index,OpType,NPUDump,DataType,Address,GroundTruth,DataType,TensorIndex,Shape,CosineSimilarity"
    p = tmp_path / "r.csv"
    p.write_bytes(
        ("\ufeff" + header + "\n\n").encode()
        + b"0,Add,op\xff@1,float16,NaN,op\xff@1,float32,op\xff@1:output:0,[2],0.9\n1,Relu,r\n"
    )
    df = read_result_csv(p)
    assert df.height == 2 and df["cosine_similarity"].to_list() == [0.9, None]
    assert df["target_name"][0] == "op\\xff@1"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty file"),
        ("a,b,c\n1,2,3\n", "missing columns: Index, OpType"),
        (
            "Index,OpType,NPUDump,GroundTruth,TensorIndex,CosineSimilarity\nx,Add,a,a,a:output:0,1\n",
            "line 2: Index 'x' is not a number",
        ),
    ],
)
def test_unusable_csv(tmp_path: Path, content: str, message: str) -> None:
    p = tmp_path / "r.csv"
    p.write_text(content)
    with pytest.raises(DumpError, match=message):
        read_result_csv(p)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DumpError, match="cannot read"):
        read_result_csv(tmp_path / "nope.csv")


def test_header_only_gives_an_empty_frame_with_the_schema(tmp_path: Path) -> None:
    p = tmp_path / "r.csv"
    p.write_text(HEADER_NPU_NPU + "\n")
    df = read_result_csv(p)
    assert df.height == 0 and df.schema == pl.Schema(SCHEMA)


@needs_samples
def test_a_result_csv_opens_as_a_judged_comparison(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dumpscope.core.comparison.imported import open_result
    from dumpscope.tui.cli.main import main

    csv_path = next((SAMPLES / "msit_nan_case").glob("result_*.csv"))
    cmp = open_result(csv_path)
    health = dict(zip(cmp.frame["name"].to_list(), cmp.frame["health"].to_list(), strict=False))
    assert health["layer_5"] == "fail"  # all-NaN target: msit said "no accuracy issue"
    assert health["input0"] == "unmatched" and health["layer_4"] == "ok"
    assert not cmp.has_tensors and cmp.first_divergent() is not None
    assert main(["open", str(csv_path), "--format", "json"]) == 1
    records = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in records if r["health"] == "fail"} == {"layer_5"}


# -- imported values at the precision they were printed with (issue 14) -------------------------

PRINTED_ROWS = (
    "0,1,Conv2D,conv1,float16,0x10,conv1,float32,0x20,conv1:output:0,[4],NO,"
    '0.5,0.123456789,0,0.000200,-0.000000,"(1.000;2.000),(3.000;4.000)",1,1,1,1,',
    "1,2,Relu,relu1,float16,0x30,relu1,float32,0x40,relu1:output:0,[4],NO,"
    "nan,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN,",
)


def _printed_csv(tmp_path: Path) -> Path:
    p = tmp_path / "result_20260101000001.csv"
    p.write_text(HEADER_NPU_NPU + "\n" + "\n".join(PRINTED_ROWS) + "\n")
    return p


def test_each_metric_keeps_the_text_it_was_printed_as(tmp_path: Path) -> None:
    first, second = read_result_csv(_printed_csv(tmp_path)).iter_rows(named=True)
    printed = first["printed"]
    assert printed["cosine_similarity"] == "0.5" and first["cosine_similarity"] == 0.5
    assert (
        printed["max_absolute_error"] == "0.123456789"
        and printed["relative_euclidean_distance"] == "0.000200"
    )
    assert printed["kullback_leibler_divergence"] == "-0.000000"
    assert second["printed"]["cosine_similarity"] == "nan"  # computed: NaN, and shown so
    assert second["printed"]["max_absolute_error"] is None  # "NaN": not computed, no text


def test_cli_table_shows_imported_values_as_printed_and_exports_keep_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dumpscope.tui.cli.main import main

    path = _printed_csv(tmp_path)
    main(["open", str(path), "--format", "table"])
    row = next(line for line in capsys.readouterr().out.splitlines() if " conv1 " in line)
    assert "0.5 " in row and "0.123456789" in row and "0.000200" in row  # not 0.50000000 / 0.123457
    assert "0.50000000" not in row
    main(["open", str(path), "--format", "json"])
    record = json.loads(capsys.readouterr().out)[0]
    assert record["cosine_similarity"] == 0.5 and record["max_absolute_error"] == 0.123456789
    main(["open", str(path), "--format", "csv"])
    exported = capsys.readouterr().out.splitlines()[1].split(",")
    assert "0.5" in exported and "0.123456789" in exported  # msaccucmp's columns: numbers


async def test_tui_shows_imported_values_as_printed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dumpscope.core.comparison.imported import open_result
    from dumpscope.tui.app.app import DumpscopeApp
    from dumpscope.tui.app.widgets.layer_list import LayerList

    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path))
    app = DumpscopeApp(open_result(_printed_csv(tmp_path)))
    async with app.run_test(size=(160, 30)) as pilot:
        lst = app.query_one(LayerList)
        for _ in range(100):
            await pilot.pause(0.05)
            if lst.view.size and lst.scrollable_content_region.height > 1:
                break
        lines = ["".join(seg.text for seg in lst.render_line(y)) for y in range(3)]
        row = next(line for line in lines if " conv1 " in line).split()
        assert "0.5" in row and "0.000200" not in row  # rel. distance is not a list column
        assert (
            app.rows is not None
            and app.rows.number("max_abs", app.rows.name_index("conv1"), 8) != "0.123456789"
        )
        assert app.rows.number("rmse", app.rows.name_index("conv1"), 8) == "1"  # printed "1"
        lst.select_position(app.rows.name_index("conv1"))
        await pilot.pause(0.4)
        metrics = str(app.query_one("#pane-metrics").render())
        assert "0.123456789" in metrics and "-0.000000" in metrics  # the pane has the room
