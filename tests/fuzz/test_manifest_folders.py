"""Manifest entries in sub-folders: each folder is resolved once per manifest, and a link on the
way (a folder or the file itself) that leads outside the dump is still refused on its row."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from dumpscope.core.formats import npy_dir
from tests.fuzz.corpus import make_outside


def _dump(tmp_path: Path) -> Path:
    outside = make_outside(tmp_path)
    d = tmp_path / "dump"
    (d / "inner").mkdir(parents=True)
    np.save(d / "inner" / "x.npy", np.arange(6, dtype=np.float32))
    os.symlink(d / "inner", d / "inner_alias")  # a folder link that stays inside
    os.symlink(outside, d / "leakdir")  # a folder link leading out
    os.symlink(outside / "secret.npy", d / "inner" / "leak.npy")  # a file link leading out, in a sub-folder
    entries = [
        {"name": "x", "file": "inner/x.npy"},
        {"name": "x_again", "file": "inner/x.npy"},
        {"name": "via_alias", "file": "inner_alias/x.npy"},
        {"name": "via_leakdir", "file": "leakdir/secret.npy"},
        {"name": "leak", "file": "inner/leak.npy"},
        {"name": "gone", "file": "inner/gone.npy"},
    ]
    (d / "manifest.json").write_text(
        json.dumps({"format": "dumpscope-manifest", "version": 1, "tensors": entries})
    )
    return d


def test_folders_inside_are_read_links_out_are_refused(tmp_path: Path) -> None:
    dump = npy_dir.open(_dump(tmp_path))
    errors = {name: ref.error for name, ref in dump.tensors.items()}
    assert errors["x"] is None and errors["x_again"] is None and errors["via_alias"] is None
    assert dump.tensors["via_alias"].load().tolist() == list(range(6))
    assert "symbolic link leading outside" in (errors["via_leakdir"] or "")
    assert "symbolic link leading outside" in (errors["leak"] or "")
    assert errors["gone"] == "inner/gone.npy: listed in the manifest but missing"
