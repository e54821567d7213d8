"""RKNN-Toolkit2 itself reads back the emitted ``rknn_hybrid_quantization.cfg`` (bench/rknn_hybrid_check.py,
run with the RKNN venv's python; skipped with the reason where that venv is absent)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _check(tmp_path: Path, *args: str) -> dict[str, Any]:
    venv = Path(os.environ.get("DUMPSCOPE_RKNN_VENV", "/work/envs/rknn"))
    python = venv / "bin" / "python"
    if not python.is_file():
        pytest.skip(f"no RKNN-Toolkit2 venv at {venv} (set DUMPSCOPE_RKNN_VENV)")
    script = ROOT / "bench" / "rknn_hybrid_check.py"
    done = subprocess.run(
        [str(python), str(script), "-o", str(tmp_path / "work"), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode == 2:
        pytest.skip(f"RKNN-Toolkit2 not importable in {venv}: {done.stdout.strip()[-300:]}")
    verdict = json.loads(done.stdout)
    assert done.returncode == 0, verdict["reasons"]
    return verdict["facts"]


@pytest.mark.parametrize("args", [(), ("--without-cfg",)])
def test_rknn_accepts_every_layer_the_emitted_cfg_names_and_builds_them_in_float16(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    facts = _check(tmp_path, *args)
    # the kept Conv (its output folded with the BatchNormalization after it: the BN's is named) and Relu,
    # both echoed by RKNN as float16
    assert facts["layers_named"] == ["b2", "r2"]
    assert facts["layers_accepted"] == 2 and {"b2", "r2"} <= set(facts["echoed_float16"])
    assert facts["outputs_named_by_their_fused_layer"] == (1 if not args else 0)  # c2 -> b2, said so
    # one fused ConvRelu layer computes both, in FLOAT16; the two other convolutions stay INT8
    assert facts["float16_layers_in_build"] == ["Conv:conv2 (ConvRelu, FLOAT16)"]
    assert facts["other_layers_int8"] == "2/2"
    sim = facts["simulator"]
    assert sim["b2"]["float16_exact"] and sim["r2"]["float16_exact"]
    assert not sim["r1"]["float16_exact"] and sim["r1"]["distinct"] <= 256


def test_on_a_real_model_rknn_accepts_every_layer_named_from_its_step1_cfg(tmp_path: Path) -> None:
    """PP-OCR cls (bench/realmodels, downloaded once and cached; skipped where it cannot be): every 4th
    computing node kept;
    RKNN fuses HardSwish, BatchNormalization and bias Adds, so many outputs are named by their layer."""
    import sys

    sys.path.insert(0, str(ROOT))
    from bench.realmodels.models import ModelUnavailable, model_path

    try:
        model_path("ppocr-cls")
    except ModelUnavailable as exc:
        pytest.skip(f"ppocr-cls unavailable: {exc}")
    facts = _check(tmp_path, "--model", "ppocr-cls")
    assert facts["kept_nodes"] == 65 and facts["layers_named"] == 63
    assert facts["layers_accepted"] == 63 and facts["simulator_named_float16_exact"] == "63/63"
    assert facts["outputs_named_by_their_fused_layer"] == 27
    assert facts["outputs_left_unnamed"] == {"no_layer_listed": 2, "step2_refuses_its_dtype": 0}
