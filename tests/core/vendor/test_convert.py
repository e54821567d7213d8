"""``dumpscope convert``: raw Ascend dumps to .npy / .txt with msaccucmp convert's names (seed 002)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.formats import ascend_writer as aw
from dumpscope.core.vendor.convert import convert_dump, output_name
from dumpscope.tui.cli.main import main

FLOAT32, FLOAT16, INT32 = 1, 2, 7


def _dumps(folder: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    folder.mkdir()
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3)).astype(np.float16)
    y = rng.standard_normal((4,)).astype(np.float32)
    idx = np.arange(5, dtype=np.int32)
    aw.write_dump(
        folder / "Pooling.pool1.1147.1589195081588018",
        "pool1",
        [aw.RawTensor(x, FLOAT16)],
        inputs=[aw.RawTensor(idx, INT32)],
    )
    aw.write_dump(
        folder / "Relu.relu1.1148.1589195081588019", "relu1", [aw.RawTensor(y, FLOAT32)], layout_version=1
    )
    (folder / "notes.bin").write_bytes(b"not a dump at all, but long enough to be looked at")
    return x, y, idx


def test_npy_names_and_values_match_msaccucmp(tmp_path: Path) -> None:
    x, y, idx = _dumps(tmp_path / "dump")
    result = convert_dump(tmp_path / "dump", tmp_path / "out")
    names = sorted(p.name for p in result.written)
    assert names == [
        "Pooling.pool1.1147.1589195081588018.input.0.npy",
        "Pooling.pool1.1147.1589195081588018.output.0.npy",
        "Relu.relu1.1148.1589195081588019.output.0.npy",
    ]
    pool = np.load(tmp_path / "out" / names[1], allow_pickle=False)
    assert pool.dtype == np.float16 and np.array_equal(pool, x)
    assert np.array_equal(np.load(tmp_path / "out" / names[0], allow_pickle=False), idx)
    assert np.array_equal(np.load(tmp_path / "out" / names[2], allow_pickle=False), y)
    assert len(result.problems) == 1 and result.problems[0].startswith("notes.bin:")


def test_txt_is_one_value_per_line(tmp_path: Path) -> None:
    x, _, _ = _dumps(tmp_path / "dump")
    convert_dump(tmp_path / "dump" / "Pooling.pool1.1147.1589195081588018", tmp_path / "out", "txt")
    txt = tmp_path / "out" / output_name("Pooling.pool1.1147.1589195081588018", "output", 0, "txt")
    lines = txt.read_text().splitlines()
    assert len(lines) == x.size
    assert np.array_equal(
        np.array([float(v) for v in lines], dtype=np.float64), x.reshape(-1).astype(np.float64)
    )


def test_cli_reports_bad_files_and_goes_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _dumps(tmp_path / "dump")
    code = main(["convert", str(tmp_path / "dump"), "-o", str(tmp_path / "out"), "--type", "txt"])
    out = capsys.readouterr()
    assert code == 1 and "notes.bin" in out.err and "wrote 3 .txt file(s)" in out.out
    assert main(["convert", str(tmp_path / "missing"), "-out", str(tmp_path / "o2")]) == 2


def test_a_truncated_tensor_costs_one_line(tmp_path: Path) -> None:
    _dumps(tmp_path / "dump")
    victim = tmp_path / "dump" / "Pooling.pool1.1147.1589195081588018"
    data = victim.read_bytes()
    victim.write_bytes(data[:-6])  # the output's last bytes are gone; the input is still whole
    result = convert_dump(tmp_path / "dump", tmp_path / "out")
    assert any(p.startswith("Pooling.pool1.1147.1589195081588018: output 0:") for p in result.problems)
    assert {p.name for p in result.written} >= {"Relu.relu1.1148.1589195081588019.output.0.npy"}
