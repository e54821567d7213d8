"""What ``dumpscope compare`` of two ``.npy`` folders has imported when it forks its workers: the
readers of other formats that it only sniffs for (msprobe's ``.pt`` reader, ml_dtypes for Ascend's
bfloat16/float8 codes, ncnn's ``.param`` reader, ``zipfile`` for ``.npz`` archives) are not among them;
they load at their first tensor (or ``.param`` file, or archive) of that kind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from dumpscope.core.comparison.execution import MIN_PARALLEL_ROWS

#: Runs ``dumpscope ARGS...`` (argv[2:]) and writes the modules loaded when the workers fork to argv[1].
PROBE = r"""
import sys
from dumpscope.core.comparison import execution

real_fork = execution._Forked.__init__

def fork(self, *args, **kwargs):
    with open(sys.argv[1], "a") as f:
        f.write("\n".join(sorted(sys.modules)) + "\n")
    real_fork(self, *args, **kwargs)

execution._Forked.__init__ = fork
from dumpscope.tui.cli.main import main
sys.exit(main(sys.argv[2:]))
"""

LATER = ("ml_dtypes", "dumpscope.core.formats.torch_pt", "dumpscope.core.vendor.ncnn", "zipfile", "polars")


def test_readers_of_other_formats_load_after_the_fork(tmp_path: Path) -> None:
    g, t = tmp_path / "golden", tmp_path / "target"
    g.mkdir()
    t.mkdir()
    rng = np.random.default_rng(0)
    for i in range(3 * MIN_PARALLEL_ROWS):
        a = rng.standard_normal(64, dtype=np.float32)
        np.save(g / f"l{i:03d}.npy", a)
        np.save(t / f"l{i:03d}.npy", a.astype(np.float16))
    log = tmp_path / "modules"
    args = ["compare", str(g), str(t), "--workers", "2", "--format", "csv", "-o", str(tmp_path / "x.csv")]
    out = subprocess.run([sys.executable, "-c", PROBE, str(log), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    loaded = set(log.read_text().split())
    assert "dumpscope.core.formats.msprobe" in loaded and "dumpscope.core.formats.ascend_dump" in loaded
    assert [m for m in LATER if m in loaded] == []


def test_an_ascend_bfloat16_code_still_reads_as_bfloat16() -> None:
    import ml_dtypes

    from dumpscope.core.formats.ascend_layout import LayoutError, numpy_dtype

    assert numpy_dtype(27) == np.dtype(ml_dtypes.bfloat16)
    assert numpy_dtype(35) == np.dtype(ml_dtypes.float8_e4m3fn)
    assert numpy_dtype(1) == np.dtype(np.float32)
    try:
        numpy_dtype(39)  # FLOAT4_E1M2: sub-byte, not read
    except LayoutError as exc:
        assert "FLOAT4" in str(exc)
    else:
        raise AssertionError("a sub-byte code has no numpy type")
