"""The first rows of two flat ``.npy`` folders are judged and streamed before the whole dumps are opened
(``pipeline._head``): a preview marked so, then the whole comparison, whose final frame is ``compare()``'s."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from dumpscope.core import compare
from dumpscope.core.comparison import pipeline
from dumpscope.core.comparison.pipeline import compare_stream

TENSORS = 40
HEAD = 8


def _sides(root: Path, manifest: bool) -> tuple[Path, Path]:
    """Golden float32 tensors and their float16 copies, ``TENSORS`` a side (named in reverse of
    their manifest order, so a manifest's order is not the names')."""
    rng = np.random.default_rng(7)
    g, t = root / "golden", root / "target"
    g.mkdir(), t.mkdir()
    for i in range(TENSORS):
        a = rng.standard_normal(int(rng.integers(4, 64))).astype(np.float32)
        np.save(g / f"x{TENSORS - i:03d}.npy", a)
        np.save(t / f"x{TENSORS - i:03d}.npy", a.astype(np.float16))
    if manifest:
        for side in (g, t):
            entries = [
                {"name": f"x{TENSORS - i:03d}", "file": f"x{TENSORS - i:03d}.npy", "topo_index": i}
                for i in range(TENSORS)
            ]
            (side / "manifest.json").write_text(
                json.dumps({"format": "dumpscope-manifest", "tensors": entries})
            )
    return g, t


@pytest.fixture(autouse=True)
def small_head(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "HEAD_ROWS", HEAD)
    monkeypatch.setattr(pipeline, "HEAD_FROM", HEAD)  # (a preview needs thousands of tensors by default)


def _judged(frame: pl.DataFrame) -> int:
    return int((frame["health"] != "pending").sum())


@pytest.mark.parametrize("manifest", [False, True])
def test_first_rows_come_first_and_the_final_frame_is_compares(tmp_path: Path, manifest: bool) -> None:
    g, t = _sides(tmp_path, manifest)
    steps = list(compare_stream(g, t, interval=0.0, batch=4, workers=1))
    head, rest = steps[0], steps[1:]
    assert head.comparison.meta.preview and (head.done, head.total) == (0, 0)
    assert head.comparison.frame.height == HEAD == _judged(head.comparison.frame)
    assert not any(s.comparison.meta.preview for s in rest)
    final = compare(g, t, workers=1).frame
    assert rest[-1].done == rest[-1].total == TENSORS
    assert rest[-1].comparison.frame.equals(final)
    assert all(s.comparison.frame["name"].to_list() == final["name"].to_list() for s in rest)
    if manifest:  # the manifest gives the order: the preview is the final frame's first rows, same numbers
        assert head.comparison.frame.select(final.columns).equals(final.head(HEAD))
    else:  # the first files by name (their rows in the order the whole dump gives them)
        assert sorted(head.comparison.frame["name"]) == [f"x{i:03d}" for i in range(1, HEAD + 1)]


def test_the_preview_is_the_same_for_the_same_input(tmp_path: Path) -> None:
    g, t = _sides(tmp_path, manifest=False)
    first = [next(iter(compare_stream(g, t, workers=w))).comparison.frame for w in (1, 2)]
    assert first[0].equals(first[1])


def test_no_preview_of_an_npz_or_a_folder_with_subfolders(tmp_path: Path) -> None:
    g, t = _sides(tmp_path, manifest=False)
    (g / "sub").mkdir()  # not a flat npy folder: the whole dump decides how it is read
    assert not next(iter(compare_stream(g, t))).comparison.meta.preview
    np.savez(tmp_path / "g.npz", a=np.ones(3, np.float32))
    np.savez(tmp_path / "t.npz", a=np.ones(3, np.float32))
    first = next(iter(compare_stream(tmp_path / "g.npz", tmp_path / "t.npz")))
    assert not first.comparison.meta.preview and set(first.comparison.frame["health"]) == {"pending"}


def test_a_final_only_stream_has_no_preview(tmp_path: Path) -> None:
    g, t = _sides(tmp_path, manifest=True)
    steps = list(compare_stream(g, t, final_only=True, workers=1))
    assert len(steps) == 1 and not steps[0].comparison.meta.preview


def test_no_preview_of_few_tensors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A dump of fewer than ``HEAD_FROM`` tensors opens whole at once (and its big tensors go to triage)."""
    g, t = _sides(tmp_path, manifest=True)
    monkeypatch.setattr(pipeline, "HEAD_FROM", TENSORS + 1)
    first = next(iter(compare_stream(g, t, workers=1)))
    assert not first.comparison.meta.preview and set(first.comparison.frame["health"]) == {"pending"}


def test_the_manifest_head_is_read_as_far_as_its_first_entries(tmp_path: Path) -> None:
    """The preview reads the manifest's fields and first entries as a stream (never the whole list);
    a manifest that names its format only after the tensors is not previewed (the whole dump decides)."""
    from dumpscope.core.formats.npy_dir import open_head

    g, _t = _sides(tmp_path, manifest=True)
    head = open_head(g, HEAD, HEAD)
    assert head is not None and list(head.tensors) == [f"x{TENSORS - i:03d}" for i in range(HEAD)]
    assert "tensor_entries" not in head.meta["manifest"]  # (how many there are is not read)
    entries = json.loads((g / "manifest.json").read_text())["tensors"]
    (g / "manifest.json").write_text(json.dumps({"tensors": entries, "format": "dumpscope-manifest"}))
    assert open_head(g, HEAD, HEAD) is None
    (g / "manifest.json").write_text(json.dumps({"format": "other", "tensors": entries}))
    assert open_head(g, HEAD, HEAD) is None
    (g / "manifest.json").write_text(json.dumps({"format": "dumpscope-manifest", "tensors": entries[:3]}))
    assert open_head(g, HEAD, HEAD) is None  # fewer entries than asked for: no preview


def test_no_preview_of_a_folder_with_other_files(tmp_path: Path) -> None:
    g, t = _sides(tmp_path, manifest=False)
    (g / "mapping.csv").write_text("")  # an allowed companion
    assert next(iter(compare_stream(g, t, workers=1))).comparison.meta.preview
    (g / "notes.txt").write_text("x")  # anything else: the whole dump decides how it is read
    assert not next(iter(compare_stream(g, t, workers=1))).comparison.meta.preview
