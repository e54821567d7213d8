"""Seed 004's workflow on small synthetic SigmaStar dumps: the listing, the preset, the
bands, the three comparisons, the log/output reader and the §3.2 advice."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.comparison.result import ComparisonMeta
from dumpscope.core.diagnosis.checks.sigmastar import per_layer_ini, reading
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.formats import open_dump
from dumpscope.core.formats.sgs_output import image_of, write_output
from dumpscope.core.formats.sigmastar import SgsTensor, write_sigmastar
from dumpscope.core.report.sigmastar import format_values, listing
from dumpscope.core.vendor.sigmastar import detect_stage
from dumpscope.tui.cli.main import main
from tests.support.paths import SHARED as SHARED_DIR

RNG = np.random.default_rng(4)


def _chain(n: int = 6, shape: tuple[int, ...] = (1, 4, 4, 8), seed: int | None = None) -> list[np.ndarray]:
    rng = RNG if seed is None else np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(np.float32) * (k + 1) for k in range(n)]


def _dump(
    path: Path,
    values: list[np.ndarray],
    types: list[str] | None = None,
    quant: list[tuple[float, int]] | None = None,
    names: list[str] | None = None,
    ops: list[str] | None = None,
) -> Path:
    """A chain: op k reads tensor k-1 (an ``//in`` record) and writes tensor k."""
    names = names or [f"t{k}" for k in range(len(values))]
    ops = ops or [f"op{k}_conv" if k % 2 else f"op{k}_add" for k in range(len(values))]
    recs = []
    for k, v in enumerate(values):
        if k:
            recs.append(
                SgsTensor(
                    names[k - 1],
                    values[k - 1],
                    ops[k],
                    k,
                    role="in",
                    sgs_type=(types or ["float"] * len(values))[k - 1],
                    scale=(quant or [(1.0, 0)] * len(values))[k - 1][0],
                    zero_point=(quant or [(1.0, 0)] * len(values))[k - 1][1],
                )
            )
        s, z = (quant or [(1.0, 0)] * len(values))[k]
        recs.append(
            SgsTensor(
                names[k], v, ops[k], k, sgs_type=(types or ["float"] * len(values))[k], scale=s, zero_point=z
            )
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_sigmastar(path, recs, is_float=True)


def test_listing_shape_and_sample_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _chain(3)
    sample = [b + np.float32(0.01) for b in bench]
    b = _dump(tmp_path / "bench" / "sigma_outtensor_dump.bin", bench)
    s = _dump(tmp_path / "sample" / "sigma_outtensor_dump.bin", sample)
    main(["compare", str(s), str(b), "--format", "sigmastar"])
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(")")[0] for ln in lines] == ["0", "1", "2"]
    d, y = sample[1].astype(np.float64) - bench[1], bench[1].astype(np.float64)
    want = f"1) t1 MSE: {np.mean(d * d):.6f} COS: "
    assert lines[1].startswith(want)
    assert lines[1].endswith(f"RMSE: {np.abs(d).sum() / np.abs(y).sum():.6f}")


def test_listing_keeps_a_row_for_an_unreadable_pair(tmp_path: Path) -> None:
    bench = _chain(2)
    b = _dump(tmp_path / "b.bin", bench)
    s = _dump(tmp_path / "s.bin", [bench[0], np.zeros((1, 3, 3, 3), np.float32)])
    text = listing(compare(b, s))
    assert text.splitlines()[1].startswith("1) t1 ERROR: shape mismatch")


def test_values_sixteen_per_line_or_one() -> None:
    lines = list(format_values(np.arange(20, dtype=np.float32)))
    assert len(lines) == 2 and lines[0].count(",") == 16 and lines[1].startswith("16.000000, ")
    assert len(list(format_values(np.arange(5), one_row=True))) == 5


def test_seed_preset_uses_sigmastar_rmse(tmp_path: Path) -> None:
    """The issue's inversion: RMSE (SigmaStar) 0.008 passes, 0.5 fails, whatever √MSE says."""
    bench = [
        np.full((1, 2, 2, 4), 100.0, np.float32),
        np.linspace(0.1, 1, 16, dtype=np.float32).reshape(1, 2, 2, 4),
    ]
    sample = [bench[0] * np.float32(1.008), bench[1] * np.float32(1.5)]
    cmp = compare(_dump(tmp_path / "b.bin", bench), _dump(tmp_path / "s.bin", sample), preset="seed")
    assert cmp.frame["sgs_rmse"].to_list() == pytest.approx([0.008, 0.5], rel=1e-4)
    assert cmp.frame["health"].to_list() == ["ok", "fail"]
    assert "RMSE (SigmaStar) 0.5 > 0.1" in cmp.frame["message"][1]


def test_bands_and_stage_from_record_types(tmp_path: Path) -> None:
    vals = _chain(3)
    f = _dump(tmp_path / "float" / "sigma_outtensor_dump.bin", vals)
    q = _dump(
        tmp_path / "fixed" / "sigma_outtensor_dump.bin",
        vals,
        ["SGS_U8", "SGS_S16", "float"],
        [(0.1, 128), (0.001, 0), (1.0, 0)],
    )
    cmp = compare(f, q)
    assert cmp.frame["band"].to_list() == [
        "int8",
        "int16",
        "int8",
    ]  # a float record in an 8-bit run: the run's band
    assert cmp.meta.stage == "float-fixed"
    fw = _dump(tmp_path / "dumpData" / "onnx_NHWC_outtensor_dump.bin", vals)
    assert detect_stage(open_dump(fw), open_dump(f)) == "framework-float"
    assert detect_stage(open_dump(f), open_dump(tmp_path / "fixed")) == "float-fixed"


def test_log_output_folders_fixed_vs_offline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outs = {
        "boxes": RNG.standard_normal((1, 6, 6, 3)).astype(np.float32),
        "prob": RNG.random((1, 10)).astype(np.float32),
    }
    for image in ("a.jpg", "b.jpg"):
        write_output(tmp_path / "log_fixed" / "output", "net_fixed.sim", image, outs)
        write_output(tmp_path / "log_offline" / "output", "net_fixed.sim_sgsimg.img", image, outs)
    assert image_of(tmp_path / "x" / "unknown_net_fixed.sim_sgsimg.img_b.jpg.txt") == "b.jpg"
    cmp = compare(tmp_path / "log_fixed", tmp_path / "log_offline")
    assert cmp.frame.height == 4 and set(cmp.frame["health"]) == {"ok"} and cmp.meta.stage == "fixed-offline"
    assert main(["compare", str(tmp_path / "log_fixed"), str(tmp_path / "log_offline")]) == 0
    assert "fixed.sim vs offline/board outputs" in capsys.readouterr().out


def test_aligned_output_block_is_cut_to_its_original_shape(tmp_path: Path) -> None:
    folder = tmp_path / "output"
    folder.mkdir()
    vals = " ".join(f"{v:.6f}" for v in range(8))
    (folder / "unknown_m.sim_i.jpg.txt").write_text(
        "out Tensor:\n{\ntensor dim:2,  Original shape:[2 3],  Alignment shape:[2 4]\n"
        f"The following tensor data shape is alignment shape.\ntensor data:\n{vals}\n}}\n\n",
        encoding="utf-8",
    )
    got = open_dump(tmp_path).tensors["out"].load()
    assert got.tolist() == [[0, 1, 2], [4, 5, 6]]


def test_quantised_input_is_not_preprocessing(tmp_path: Path) -> None:
    x = RNG.uniform(-1, 1, (1, 8, 8, 3)).astype(np.float32)
    scale = 2 / 255
    q = ((np.clip(np.round(x / scale) + 128, 0, 255) - 128) * scale).astype(np.float32)
    rest = _chain(2)
    f = _dump(tmp_path / "f.bin", [x, *rest], names=["data", "c1", "c2"])
    fixed = _dump(
        tmp_path / "q.bin",
        [q, *rest],
        ["SGS_U8", "SGS_S16", "SGS_S16"],
        [(scale, 128), (0.01, 0), (0.01, 0)],
        names=["data", "c1", "c2"],
    )
    diag = diagnose(compare(f, fixed, preset="int8", thresholds=["cosine_similarity=0.99999999"]))
    top = diag.root_causes[0]
    assert top.name == "data" and top.cause == "quantisation"
    assert any("not a pre-processing error" in e for e in top.evidence)


def test_first_tensor_beyond_the_grid_points_at_preprocessing(tmp_path: Path) -> None:
    x = RNG.uniform(0, 1, (1, 8, 8, 3)).astype(np.float32)
    rest = _chain(2)
    f = _dump(tmp_path / "f.bin", [x, *rest], names=["data", "c1", "c2"])
    g = _dump(tmp_path / "g.bin", [x * 255, *rest], names=["data", "c1", "c2"])  # norm flag forgotten
    top = diagnose(compare(f, g)).root_causes[0]
    assert top.name == "data"
    text = " ".join(top.evidence)
    assert "norm=True" in text and "input_config.ini" in text


def test_wide_tensor_before_a_non_convolution(tmp_path: Path) -> None:
    """§3.2.6: the consumer is not a convolution -> the convolutions before and after it."""
    rng = np.random.default_rng(5)
    vals = _chain(5, seed=5)
    vals[2] = vals[2] * 10  # range > 20
    types = ["SGS_S16", "SGS_S16", "SGS_U8", "SGS_S16", "SGS_S16"]
    quant = [(0.001, 0), (0.001, 0), (float(np.ptp(vals[2])) / 255, 128), (0.001, 0), (0.001, 0)]
    noisy = [v.copy() for v in vals]
    for k in range(2, 5):
        noisy[k] = noisy[k] + rng.standard_normal(noisy[k].shape).astype(np.float32) * (
            10.0 if k == 2 else 0.3
        )
    names, ops = ["a", "b", "wide", "d", "e"], ["op0_conv", "op1_conv", "op2_mul", "op3_relu", "op4_conv"]
    cmp = compare(
        _dump(tmp_path / "f.bin", vals, names=names, ops=ops),
        _dump(tmp_path / "q.bin", noisy, types, quant, names=names, ops=ops),
        preset="seed",
    )
    assert cmp.frame["health"].to_list() == ["ok", "ok", "fail", "ok", "ok"]
    top = diagnose(cmp).root_causes[0]
    text = " ".join(top.evidence)
    assert top.name == "wide" and top.cause == "quantisation" and "before and after it" in text
    assert "'op1_conv'" in text and "'op4_conv'" in text and "tensor_arrays=a,d;" in text
    assert "MSE, COS and RMSE all change suddenly at 'wide'" in text


def test_per_layer_ini_form() -> None:
    assert per_layer_ini(["x", "y"]) == "[CONV_CONFIG]\ntensor_arrays=x,y;\ninput_format=INT16,INT16;"


def _frame(cos: list[float], rmse: list[float], mse: list[float]):  # type: ignore[no-untyped-def]
    import polars as pl

    n = len(cos)
    return pl.DataFrame(
        {
            "name": [f"t{k}" for k in range(n)],
            "side": ["both"] * n,
            "status": ["computed"] * n,
            "cosine_similarity": cos,
            "sgs_rmse": rmse,
            "mse": mse,
        }
    )


def test_reading_jump_decline_oscillation() -> None:
    jump = reading(
        _frame([0.9999, 0.9998, 0.95, 0.94], [0.01, 0.012, 0.3, 0.31], [1e-4, 1.1e-4, 0.02, 0.021])
    )
    assert jump.kind == "jump" and jump.row == 2
    decline = reading(
        _frame(
            [0.999, 0.996, 0.993, 0.989, 0.985],
            [0.05, 0.07, 0.09, 0.11, 0.13],
            [0.01, 0.012, 0.014, 0.016, 0.018],
        )
    )
    assert decline.kind == "decline" and decline.row == 3
    osc = reading(
        _frame(
            [0.995, 0.989, 0.993, 0.985, 0.992, 0.988, 0.991],
            [0.05, 0.09, 0.06, 0.095, 0.07, 0.08, 0.06],
            [0.01, 0.012, 0.011, 0.013, 0.012, 0.011, 0.012],
        )
    )
    assert osc.kind == "oscillation" and "torch_calibrator.py" in osc.text and "Q2" in osc.text
    assert reading(_frame([0.9999], [0.001], [0.0])).kind == "none"


def _raw_record(
    name: str, sgs_type: str, is_float_header: int, payload: bytes, shape: tuple[int, ...], scale: float
) -> bytes:
    head = (
        f"//out 0 s: {scale} z: 0 type: {sgs_type} name: {name} bConstant:0 "
        f"shape:[{', '.join(map(str, shape))}] "
        f"dims:{len(shape)}\nop_out[0] op_{name} = {{\n//buffer data size: {len(payload)}\n"
    ).encode()
    return head + payload + b"\n};\n"


@pytest.mark.parametrize("header", [0, 1])
def test_dequantfixed_read_by_what_the_bytes_are(tmp_path: Path, header: int) -> None:
    """isFloat says one thing, the record's size another: read by the size, and say so on the row."""
    x = np.linspace(-1, 1, 256, dtype=np.float32).reshape(1, 4, 8, 8)
    q = np.round(x / 0.01).astype(np.int16)
    ref = tmp_path / "f.bin"
    write_sigmastar(ref, [SgsTensor("t", x, "op_t", 0)], is_float=True)
    payload = q.tobytes() if header == 1 else x.tobytes()  # the opposite of what the header claims
    bad = tmp_path / "q.bin"
    bad.write_bytes(
        f"isFloat: {header}\n".encode() + _raw_record("t", "SGS_S16", header, payload, x.shape, 0.01)
    )
    cmp = compare(ref, bad)
    row = cmp.frame.row(0, named=True)
    assert row["cosine_similarity"] > 0.9999 and row["health"] in ("ok", "warn")
    assert "header (isFloat" in row["message"] and "record size disagree" in row["message"]


def test_tui_columns_and_pane_facts(tmp_path: Path) -> None:
    from dumpscope.core.vendor.sigmastar import both_sigmastar, quant_facts
    from dumpscope.tui.app.widgets.layer_list import layout_columns

    ids = [c.id for c in layout_columns(200, 4, 12, sigmastar=True)]
    assert "mse" in ids and "sgs_rmse" in ids and "max_abs" not in ids
    assert "sgs_rmse" not in [c.id for c in layout_columns(200, 4, 12)]
    vals = _chain(2)
    f = _dump(tmp_path / "f.bin", vals)
    q = _dump(tmp_path / "q.bin", vals, ["SGS_U8", "SGS_S16"], [(0.05, 128), (0.001, 0)])
    cmp = compare(f, q)
    assert both_sigmastar(cmp.meta) and not both_sigmastar(
        ComparisonMeta(golden_format="npz", target_format="sigmastar")
    )
    assert quant_facts(cmp.pairing.pairs[0].target.info) == ("SGS_U8", "0.05", "128.0")
    assert quant_facts(cmp.pairing.pairs[0].golden.info)[0] == "float"


SEEDS = SHARED_DIR / "seeds"  # shared/ sits beside the repo


@pytest.mark.skipif(not list(SEEDS.glob("004_*.txt")), reason="shared seeds not present")
def test_seed_004_listing_reads_as_oscillation() -> None:
    """Seed 004's own listing: metrics hover around COS 0.99 / RMSE 0.1 from layer to layer -> the training
    tool."""
    import re

    import polars as pl

    text = next(SEEDS.glob("004_*.txt")).read_text(encoding="utf-8")
    rows = re.findall(
        r"(\d+)\) (\S+) MSE: (\S+) COS: (\S+) RMSE: (\S+)",
        text[text.index("① 未开启") : text.index("② 开启")],
    )
    n = len(rows)
    frame = pl.DataFrame(
        {
            "name": [r[1] for r in rows],
            "side": ["both"] * n,
            "status": ["computed"] * n,
            "mse": [float(r[2]) for r in rows],
            "cosine_similarity": [float(r[3]) for r in rows],
            "sgs_rmse": [float(r[4]) for r in rows],
        }
    )
    read = reading(frame)
    assert n == 57 and read.kind == "oscillation" and "torch_calibrator.py" in read.text


def test_cli_export_and_stage_override(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    vals = _chain(2)
    b = _dump(tmp_path / "bench" / "sigma_outtensor_dump.bin", vals)
    s = _dump(tmp_path / "sample" / "sigma_outtensor_dump.bin", [v + np.float32(0.001) for v in vals])
    monkeypatch.setenv("SAVE_ONE_ROW", "1")
    main(
        [
            "compare",
            str(s),
            str(b),
            "--format",
            "sigmastar",
            "--export-values",
            str(tmp_path / "out"),
            "--stage",
            "fixed-offline",
        ]
    )
    err = capsys.readouterr().err
    assert "fixed.sim vs offline/board outputs" in err
    folder = tmp_path / "out" / "Undefined_sigma_outtensor_dump.bin_DumpDebug_out"
    assert sorted(p.name for p in folder.iterdir()) == ["0", "1"]
    sample = next((folder / "1").glob("*_sample.txt")).read_text().splitlines()
    assert len(sample) == vals[1].size and float(sample[0].rstrip(", ")) == pytest.approx(
        float(vals[1].flat[0]) + 0.001, abs=1e-6
    )
