"""The fast part of the hostile corpus: every reader, every bad input, one row per bad file.

The whole corpus against the CLI commands (with timeouts, RSS and sentinel checks) is
``python -m tests.fuzz.run``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.dumps import DumpError, TensorReadError
from dumpscope.core.formats import open_dump

from .corpus import Case, fast_cases, make_outside, remove_tree


def _snapshot(folder: Path) -> dict[str, tuple[int, str]]:
    """Every file under ``folder``: (mtime, sha256), without following links."""
    out = {}
    for dirpath, _dirs, files in os.walk(folder):
        for f in files:
            p = Path(dirpath) / f
            st = p.lstat()
            out[str(p)] = (st.st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "")
    return out


def _rows(path: Path) -> dict[str, object]:
    """Every tensor the reader gives for ``path`` (a whole-input failure must be a DumpError)."""
    try:
        dump = open_dump(path)
    except DumpError as exc:
        assert "\n" not in str(exc) and str(path.name) in str(exc)
        return {}
    out: dict[str, object] = {}
    for ref in dump:
        try:
            out[ref.name] = ref.load()
        except TensorReadError as exc:
            assert str(exc)  # the row's message says why
            out[ref.name] = exc
    return out


@pytest.mark.parametrize("case", fast_cases(), ids=lambda c: c.name)
def test_a_bad_file_costs_one_row_and_nothing_outside_is_read_or_changed(case: Case, tmp_path: Path) -> None:
    try:
        _check_case(case, tmp_path)
    finally:
        remove_tree(tmp_path)  # 1,100-deep folders would break pytest's own (recursive) cleanup


def _check_case(case: Case, tmp_path: Path) -> None:
    outside = make_outside(tmp_path)
    golden, target = case.build(tmp_path)
    before = _snapshot(outside)
    rows = _rows(target)
    assert _snapshot(outside) == before
    reference = _rows(golden)
    for name in case.good:
        assert name in rows, f"good tensor {name!r} lost"
        assert isinstance(rows[name], np.ndarray), f"good tensor {name!r}: {rows[name]}"
        if name in reference:
            np.testing.assert_array_equal(rows[name], reference[name])
    for name, value in rows.items():
        if isinstance(value, np.ndarray) and value.size and value.dtype == np.float32:
            assert not np.any(value == 1234.5), f"{name} holds the outside sentinel"
