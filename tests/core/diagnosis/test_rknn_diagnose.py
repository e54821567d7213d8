"""`diagnose` on RKNN-Toolkit2 snapshots: the layer the vendor's "single" column shows worst, the class,
the int8 grid and rails of a dequantised tensor, and RKNN's own remedies."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.imported import open_rknn_report
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.diagnosis.rknn import int8_grid, vendor_cause
from dumpscope.core.formats import open_dump
from tests.support.paths import DATA as DATA_DIR

DATA = DATA_DIR / "rknn"
_ROW = re.compile(r"^\[(\w+)\] (\S+)\s+([\d.]+) \| ([\d.]+)\s+([\d.]+) \| ([\d.]+)\s*$")


def _worst_single(report: Path) -> tuple[str, float]:
    """Independent reading of the report: the layer with the lowest single cosine (first on ties)."""
    rows = [m for m in (_ROW.match(line) for line in report.read_text().splitlines()) if m]
    best = min(rows, key=lambda m: float(m[5]))
    return best[2], float(best[5])


def test_int8_snapshot_names_the_vendors_worst_layer_with_rknn_remedies() -> None:
    snap = DATA / "int8" / "snapshot"
    name, single = _worst_single(snap / "error_analysis.txt")
    assert (name, single) == ("conv2d_92.tmp_1", 0.97648)
    cmp = compare(snap / "golden", snap / "simulator", workers=1)
    d = diagnose(cmp, replay=False)
    top = d.root_causes[0]
    assert top.name == name and top.cause == v.QUANTISATION
    assert "single cos 0.97648" in top.evidence[0] and "introduced at this layer" in top.evidence[0]
    for word in (
        "hybrid_quantization_step1",
        "hybrid_quantization_step2",
        "custom_quantize_layers",
        "quantized_algorithm",
        "quantized_method",
        "'conv2d_92.tmp_1'",
        "'conv2d_88.tmp_1'",
    ):
        assert word in top.advice
    assert "'conv2d_68.tmp_1'" not in top.advice  # single cos 0.99470: within the int8 band's warn limit
    assert "Most likely root cause: 'conv2d_92.tmp_1'" in d.summary
    x = next(c for c in d.root_causes if c.name == "x")  # no x.npy in the trimmed snapshot
    assert x.cause == v.NOT_COMPARED and not any("pre-processing" in e for e in x.evidence)


def test_imported_report_is_diagnosed_the_same_way() -> None:
    cause = vendor_cause(open_rknn_report(DATA / "int8" / "snapshot" / "error_analysis.txt"))
    assert cause is not None and cause.name == "conv2d_92.tmp_1" and cause.cause == v.QUANTISATION
    assert any("not measured" in e for e in cause.evidence)  # no tensors: no grid claimed


def test_fp16_snapshot_names_no_vendor_culprit() -> None:
    snap = DATA / "fp16" / "snapshot"
    cmp = compare(snap / "golden", snap / "simulator", workers=1)
    assert vendor_cause(cmp) is None
    summary = diagnose(cmp, replay=False).summary
    assert "RKNN's own per-layer replay finds every layer within its band" in summary


def test_real_int8_tensor_sits_on_a_grid_with_one_clipped_value() -> None:
    snap = DATA / "int8" / "snapshot"
    g = open_dump(snap / "golden").tensors["hardswish_0.tmp_0"].load().astype(np.float64).ravel()
    t = open_dump(snap / "simulator").tensors["hardswish_0.tmp_0"].load().astype(np.float64).ravel()
    grid = int8_grid(g, t)
    assert grid is not None
    levels = np.unique(t)
    step = np.diff(levels).min()
    assert grid.step == pytest.approx(step) and grid.levels == 256
    assert grid.clipped_high == int((g > t.max() + step / 2).sum()) == 1 and grid.clipped_low == 0
    assert "1 golden values" in grid.sentence() and "above the top rail" in grid.sentence()
    bn = open_dump(snap / "simulator").tensors["batch_norm_0.tmp_2"].load()  # the fused Conv: not int8
    assert int8_grid(open_dump(snap / "golden").tensors["batch_norm_0.tmp_2"].load(), bn) is None


@settings(max_examples=60, deadline=None)
@given(
    scale=st.floats(1e-4, 10.0),
    zp=st.integers(-128, 127),
    seed=st.integers(0, 2**32 - 1),
    spread=st.floats(0.5, 3.0),
)
def test_grid_recovers_the_scale_and_the_clipped_values(
    scale: float, zp: int, seed: int, spread: float
) -> None:
    rng = np.random.default_rng(seed)
    golden = rng.standard_normal(4000) * spread * 40 * scale + (0 - zp) * scale
    q = np.clip(np.round(golden / scale) + zp, -128, 127)
    target = (q - zp) * scale  # dequantised int8, as RKNN writes it
    grid = int8_grid(golden, target)
    if np.unique(target).size < 16:
        assert grid is None
        return
    assert grid is not None and grid.step == pytest.approx(scale, rel=1e-6)
    hi, lo = (127 - zp) * scale, (-128 - zp) * scale
    top, bottom = target.max(), target.min()
    assert grid.clipped_high == int((golden > top + scale / 2).sum())
    assert grid.clipped_low == int((golden < bottom - scale / 2).sum())
    if top < hi:  # the top rail was not reached: nothing above it was clipped
        assert grid.clipped_high == 0
    if bottom > lo:
        assert grid.clipped_low == 0
