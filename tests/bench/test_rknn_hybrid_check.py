"""RKNN-Toolkit2 itself reads back the emitted ``rknn_hybrid_quantization.cfg`` (bench/rknn_hybrid_check.py,
run with the RKNN venv's python; skipped with the reason where that venv is absent)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_rknn_accepts_every_layer_the_emitted_cfg_names_and_builds_them_in_float16(tmp_path: Path) -> None:
    venv = Path(os.environ.get("DUMPSCOPE_RKNN_VENV", "/work/envs/rknn"))
    python = venv / "bin" / "python"
    if not python.is_file():
        pytest.skip(f"no RKNN-Toolkit2 venv at {venv} (set DUMPSCOPE_RKNN_VENV)")
    script = ROOT / "bench" / "rknn_hybrid_check.py"
    done = subprocess.run(
        [str(python), str(script), "-o", str(tmp_path / "work")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode == 2:
        pytest.skip(f"RKNN-Toolkit2 not importable in {venv}: {done.stdout.strip()[-300:]}")
    verdict = json.loads(done.stdout)
    assert done.returncode == 0, verdict["reasons"]
    facts = verdict["facts"]
    # the kept Conv (its output folded with the BatchNormalization after it: the BN's named) and Relu,
    # both echoed by RKNN as float16
    assert facts["layers_named"] == ["b2", "r2"]
    assert facts["layers_accepted"] == 2 and {"b2", "r2"} <= set(facts["echoed_float16"])
    # one fused ConvRelu layer computes both, in FLOAT16; the two other convolutions stay INT8
    assert facts["float16_layers_in_build"] == ["Conv:conv2 (ConvRelu, FLOAT16)"]
    assert facts["other_layers_int8"] == "2/2"
    sim = facts["simulator"]
    assert sim["b2"]["float16_exact"] and sim["r2"]["float16_exact"]
    assert not sim["r1"]["float16_exact"] and sim["r1"]["distinct"] <= 256
