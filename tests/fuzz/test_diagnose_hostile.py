"""Issue 13: diagnose goes wherever compare goes (empty tensors on both sides, odd manifest fields)."""

from __future__ import annotations

import json
from pathlib import Path

from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis.engine import diagnose

from .corpus import _manifest_junk_fields, _odd_dtypes


def test_diagnose_on_empty_tensors_on_both_sides(tmp_path: Path) -> None:
    golden, target = _odd_dtypes(tmp_path)  # "empty" is (0, 3) on both sides: no error measure
    cmp = compare(golden, target)
    diag = diagnose(cmp)
    assert json.dumps(diag.to_json(), allow_nan=False, default=str)
    assert "empty" in cmp.frame["name"].to_list()


def test_diagnose_with_a_list_typed_node_name_in_the_manifest(tmp_path: Path) -> None:
    golden, target = _manifest_junk_fields(tmp_path)
    cmp = compare(golden, target)
    diag = diagnose(cmp)
    assert json.dumps(diag.to_json(), allow_nan=False, default=str)
    assert {"a", "b", "c"} <= set(cmp.frame["name"].to_list())
