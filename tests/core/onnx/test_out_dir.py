"""A dump's output folder: refused when it holds anything dumpscope did not write, replaced atomically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.manifest import read_manifest
from dumpscope.core.onnx.runner import dump_model
from dumpscope.tui.cli.main import main


def test_out_dir_rules(chain_model: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "keep.txt").write_text("mine")
    with pytest.raises(DumpError, match="not empty"):
        dump_model(chain_model, other)
    out = tmp_path / "d"
    dump_model(chain_model, out)
    stale = out / "enc%2Fmm%3A0.npy"
    assert stale.exists()
    dump_model(chain_model, out, target="optimized")  # a previous dump is replaced, stale files go
    assert not stale.exists()
    assert read_manifest(out)["target"] == "optimized"


def _no_temp_left(parent: Path) -> None:
    assert not [p.name for p in parent.iterdir() if ".dumpscope-" in p.name]


def test_out_dir_planted_symlinks_are_refused_and_nothing_outside_changes(
    chain_model: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.npy"
    secret.write_bytes(b"precious")
    out = tmp_path / "d"
    dump_model(chain_model, out)
    tensor_file = next(t["file"] for t in read_manifest(out)["tensors"] if t["kind"] == "activation")
    for plant in (tensor_file, "manifest.json.tmp", "inputs"):
        victim = out / plant
        if victim.is_dir():
            import shutil

            shutil.rmtree(victim)
        else:
            victim.unlink(missing_ok=True)
        victim.symlink_to(outside if plant == "inputs" else secret)
        with pytest.raises(DumpError, match="did not write"):
            dump_model(chain_model, out)
        assert secret.read_bytes() == b"precious"
        assert sorted(p.name for p in outside.iterdir()) == ["secret.npy"]
        victim.unlink()
        dump_model(chain_model, tmp_path / "fresh")  # unrelated: still works
    _no_temp_left(tmp_path)


def test_out_dir_old_manifest_naming_a_symlinked_folder_deletes_nothing_outside(
    chain_model: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.npy").write_bytes(b"precious")
    out = tmp_path / "d"
    dump_model(chain_model, out)
    (out / "sub").symlink_to(outside)
    manifest = read_manifest(out)
    manifest["tensors"].append({"name": "evil", "file": "sub/x.npy"})
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DumpError, match="did not write"):
        dump_model(chain_model, out)
    assert (outside / "x.npy").read_bytes() == b"precious"


def test_out_dir_symlink_itself_is_refused(chain_model: Path, tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    with pytest.raises(DumpError, match="symbolic link"):
        dump_model(chain_model, tmp_path / "link")
    assert not any(real.iterdir())


def test_failed_or_interrupted_dump_leaves_no_temp_folder_and_keeps_the_old_dump(
    chain_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dumpscope.core.onnx import runner

    out = tmp_path / "d"
    dump_model(chain_model, out)
    before = sorted(p.name for p in out.rglob("*"))

    def interrupted(*_a: object, **_k: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "write_manifest", interrupted)
    with pytest.raises(KeyboardInterrupt):
        dump_model(chain_model, out, target="optimized")
    with pytest.raises(KeyboardInterrupt):
        dump_model(chain_model, tmp_path / "new")
    assert sorted(p.name for p in out.rglob("*")) == before
    assert read_manifest(out)["target"] is None
    assert not (tmp_path / "new").exists()
    _no_temp_left(tmp_path)


def test_empty_out_dir_is_kept_and_filled(
    chain_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    inode = out.stat().st_ino
    monkeypatch.chdir(out)
    assert main(["dump", str(chain_model), "-o", "."]) == 0
    assert out.stat().st_ino == inode and read_manifest(out)["target"] is None
    _no_temp_left(tmp_path)
