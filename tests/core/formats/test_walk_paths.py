"""The walk names each file it lists as ``Path(os.path.join(folder, name))`` would, whichever way the
path is made (pathlib's child constructor, or the plain one where a Python lacks it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dumpscope.core.formats import safe_fs
from dumpscope.core.formats.safe_fs import walk_files

NAMES = ("a.npy", "b c.npy", ".hidden.npy", "x.y.z.npy", "ü.npy")


def _tree(root: Path) -> None:
    (root / "sub" / "deeper").mkdir(parents=True)
    for folder in (root, root / "sub", root / "sub" / "deeper"):
        for name in NAMES:
            (folder / name).write_bytes(b"")


def _expected(root: Path) -> list[Path]:
    out = []
    for folder in (root, Path(os.path.join(root, "sub")), Path(os.path.join(root, "sub", "deeper"))):
        out += [Path(os.path.join(folder, name)) for name in sorted(NAMES)]
    return out


@pytest.mark.parametrize("plain", [False, True], ids=["pathlib-child", "plain-constructor"])
@pytest.mark.parametrize("where", ["absolute", "relative", "dot"])
def test_walked_paths_equal_joined_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plain: bool, where: str
) -> None:
    _tree(tmp_path / "dump")
    if plain:
        monkeypatch.setattr(safe_fs, "_CHILD_OF", None)
    root = {"absolute": tmp_path / "dump", "relative": Path("dump"), "dot": Path(".")}[where]
    monkeypatch.chdir(tmp_path if where != "dot" else tmp_path / "dump")
    files = walk_files(root, lambda name: name.endswith(".npy"), 4).files
    expected = _expected(root)
    assert sorted(map(str, files)) == sorted(map(str, expected))
    assert sorted(files) == sorted(expected)
    assert {hash(f) for f in files} == {hash(f) for f in expected}
    assert all(f.is_file() and f.name in NAMES for f in files)


@pytest.mark.parametrize("where", ["absolute", "relative", "dot", "trailing-slash"])
def test_a_walk_by_text_gives_each_path_s_text_and_the_same_refusals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """``walk_files(..., text=True)`` (no Path per file) lists ``str(path)`` of every file the Path
    walk lists, in the same order, with the same refused links and skipped entries."""
    _tree(tmp_path / "dump")
    outside = tmp_path / "outside.npy"
    outside.write_bytes(b"")
    (tmp_path / "dump" / "out.npy").symlink_to(outside)  # leads out: listed, refused
    (tmp_path / "dump" / "sub" / "in.npy").symlink_to(tmp_path / "dump" / "a.npy")  # stays in: listed
    (tmp_path / "dump" / "gone.npy").symlink_to(tmp_path / "dump" / "nowhere.npy")  # dangling: refused
    (tmp_path / "dump" / "dirlink").symlink_to(tmp_path / "dump" / "sub")  # a folder link: skipped
    os.mkfifo(tmp_path / "dump" / "pipe.npy")  # never opened: skipped
    roots = {
        "absolute": tmp_path / "dump",
        "relative": Path("dump"),
        "dot": Path("."),
        "trailing-slash": None,
    }
    root = roots[where] or Path(str(tmp_path / "dump") + os.sep)
    monkeypatch.chdir(tmp_path if where != "dot" else tmp_path / "dump")
    wanted = lambda name: name.endswith(".npy")  # noqa: E731
    paths = walk_files(root, wanted, 4)
    texts = walk_files(root, wanted, 4, text=True)
    assert texts.files == [str(p) for p in paths.files] and all(type(f) is str for f in texts.files)
    assert texts.refused == {str(p): why for p, why in paths.refused.items()} and len(texts.refused) == 2
    assert texts.skipped == paths.skipped and len(texts.skipped) == 2
    assert (texts.entries, texts.folders, texts.cut_short) == (paths.entries, paths.folders, paths.cut_short)
