"""Our metrics against the real msaccucmp CSV for the shared Ascend samples.

Where msaccucmp is right, every metric equals its CSV to its printed precision (six
decimals).  Where it differs, it is msaccucmp's float32 ``|x/y - 1|`` that is off, and
ours equals an independent float64 computation.
"""

from __future__ import annotations

import csv

import numpy as np
import pytest

from dumpscope.core import compare
from dumpscope.core.comparison.metrics import MSACCUCMP_CSV_NAMES as COLUMNS
from tests.support.paths import SHARED as SHARED_DIR

SAMPLES = SHARED_DIR / "samples" / "ascend"

pytestmark = pytest.mark.skipif(not (SAMPLES / "npu").is_dir(), reason="shared samples not present")


def test_metrics_equal_msaccucmp_csv_to_printed_precision() -> None:
    cmp = compare(SAMPLES / "golden", SAMPLES / "npu")
    rows = {r["name"]: (i, r) for i, r in enumerate(cmp.frame.iter_rows(named=True))}
    csv_path = next((SAMPLES / "msaccucmp_out").glob("result_*.csv"))
    checked = float32_artifacts = 0
    for rec in csv.DictReader(csv_path.open()):
        if rec["OpType"] == "Data":  # msaccucmp's row for an input with no NPU dump
            continue
        i, r = rows[rec["NPUDump"]]
        assert r["health"] == "ok" and r["target_name"] == rec["NPUDump"]
        for col, key in COLUMNS.items():
            theirs, ours = float(rec[col]), r[key]
            if abs(round(ours, 6) - theirs) <= 1.01e-6:
                checked += 1
                continue
            # Only msaccucmp's float32 |x/y - 1| sum may differ: check ours in float64.
            assert col == "AccumulatedRelativeError", (rec["NPUDump"], col, theirs, ours)
            g, t = (a.astype(np.float64).ravel() for a in cmp.load_pair(i))
            ref = np.sum(np.abs(t - g)[np.abs(g) > 2.2e-16] / np.abs(g)[np.abs(g) > 2.2e-16])
            assert ours == pytest.approx(ref, rel=1e-7)
            assert abs(theirs - ours) < 1e-5
            float32_artifacts += 1
    assert checked >= 170 and float32_artifacts <= 5
