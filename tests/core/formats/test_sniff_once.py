"""A comparison sniffs each side once: the check that both sides are dumps names the format the reader
then opens with, and the rows are those of a plain ``open_dump``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dumpscope.core import compare
from dumpscope.core.dumps import DumpError
from dumpscope.core.formats import check_dump, npy_dir, npz, open_dump


def _side(folder: Path, scale: float) -> Path:
    folder.mkdir()
    for i in range(3):
        np.save(folder / f"t{i}.npy", np.arange(1, 9, dtype=np.float32) * (1 + scale * i))
    return folder


def test_each_side_is_sniffed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    g, t = _side(tmp_path / "g", 0.0), _side(tmp_path / "t", 1e-3)
    seen: list[Path] = []
    real = npy_dir.sniff

    def counted(path: Path) -> float:
        seen.append(path)
        return real(path)

    monkeypatch.setattr(npy_dir, "sniff", counted)
    frame = compare(g, t, workers=1).frame
    assert sorted(seen) == sorted([g, t])
    assert sorted(frame["name"]) == ["t0", "t1", "t2"] and not set(frame["health"]) & {"error", "pending"}


def test_check_dump_names_the_format_open_dump_picks(tmp_path: Path) -> None:
    folder = _side(tmp_path / "g", 0.0)
    archive = tmp_path / "a.npz"
    np.savez(archive, x=np.ones(4, dtype=np.float32))
    assert check_dump(folder) == npy_dir.NAME == open_dump(folder).format
    assert check_dump(archive) == npz.NAME == open_dump(archive).format
    with pytest.raises(DumpError, match="no such file or directory"):
        check_dump(tmp_path / "missing")
