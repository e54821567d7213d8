"""The fix loop closes: a patched target is verified against the ORIGINAL golden, with how far it
is from it (outputs, farthest layer) and whether the fix is complete (issue 20, item 9)."""

from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.comparison.fixcheck import COMPLETE, INCOMPLETE, PARTIAL, check_fix
from dumpscope.core.comparison.pipeline import compare
from dumpscope.core.diagnosis.engine import diagnose
from dumpscope.core.onnx.demo import verify_patched
from dumpscope.core.onnx.manifest import read_manifest
from dumpscope.tui.cli.main import main


@pytest.fixture(scope="module")
def fixed(demo, tmp_path_factory):  # type: ignore[no-untyped-def]
    """The demo patched as its diagnosis advises, dumped again (golden and fp16 target)."""
    out = tmp_path_factory.mktemp("fixed")
    top = diagnose(compare(demo.golden, demo.target, model=demo.model)).root_causes[0]
    command = shlex.split(next(c for c in top.commands if "--clip" in c))
    command[command.index("-o") + 1] = str(out / "fixed.onnx")
    assert main(command[1:]) == 0
    return verify_patched(demo, out / "fixed.onnx", out / "fixed")


def _file(root: Path, name: str) -> np.ndarray:
    entry = next(t for t in read_manifest(root)["tensors"] if t["name"] == name)
    return np.load(root / entry["file"], allow_pickle=False).astype(np.float64)


def _rel(g: np.ndarray, t: np.ndarray) -> float:
    return float(np.linalg.norm(t - g) / np.linalg.norm(g))


def test_the_patched_target_is_measured_against_the_original_golden(demo, fixed) -> None:  # type: ignore
    patched = compare(fixed.golden, fixed.target, model=fixed.model)
    assert set(patched.frame["health"].to_list()) <= {"ok", "unmatched"}  # half the loop: all healthy
    check = check_fix(compare(demo.golden, fixed.target, model=demo.model), patched)
    assert check.verdict == PARTIAL  # the outputs are back, the clipped intermediates are not the original's
    assert check.off and check.patched_ok == len(check.off)
    assert {d.health for d in check.outputs} == {"ok"} and len(check.outputs) == 6  # frame{k}/out
    worst, out = check.worst_layer, check.worst_output
    assert worst is not None and out is not None
    assert worst.health == "fail" and worst.name == "frame5/attn/exp:0"
    # the numbers are the files' own (float64, independent of dumpscope)
    for d in (worst, out):
        g, t = _file(demo.golden, d.name), _file(fixed.target, d.name)
        assert d.relative_distance == pytest.approx(_rel(g, t), rel=1e-4)
        assert d.max_abs == pytest.approx(float(np.abs(t - g).max()), rel=1e-4)
    rels = {}
    for entry in read_manifest(demo.golden)["tensors"]:
        if entry["kind"] == "activation" and entry["name"].startswith("frame"):
            rels[entry["name"]] = _rel(_file(demo.golden, entry["name"]), _file(fixed.target, entry["name"]))
    assert max(rels, key=rels.__getitem__) == worst.name
    text = "\n".join(check.sentences())
    assert "the fix is partial" in text and "frame5/attn/exp:0" in text and "frame5/out" in text


def test_an_unpatched_target_is_not_a_fix_and_a_golden_against_itself_is_complete(demo) -> None:
    unpatched = check_fix(compare(demo.golden, demo.target, model=demo.model))
    assert unpatched.verdict == INCOMPLETE and unpatched.worst_output is not None
    assert unpatched.worst_output.health != "ok"
    assert f"output {unpatched.worst_output.name!r}" in unpatched.verdict_sentence()
    same = check_fix(compare(demo.golden, demo.golden, model=demo.model))
    assert same.verdict == COMPLETE and same.off == () and "complete" in same.verdict_sentence()


def test_demo_fix_says_how_far_the_patched_target_is_from_the_original_golden(tmp_path: Path, capsys) -> None:
    assert main(["demo", "--fix", "--headless", "--out", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out
    verify = " ".join(out.split("6. verify")[1].split())  # rich wraps long lines
    assert "the ORIGINAL golden vs the patched target" in verify
    assert "farthest layer: #72 'frame5/attn/exp:0' (Exp): FAIL, relative distance" in verify
    assert "outputs: 6 of 6 OK; farthest" in verify and "the fix is partial" in verify
    original, patched = tmp_path / "d" / "golden", tmp_path / "d" / "fixed" / "target"
    assert f"compare {original} {patched}" in " ".join(out.split())


def test_the_advice_verifies_a_patch_against_the_original_golden(demo) -> None:  # type: ignore
    top = diagnose(compare(demo.golden, demo.target, model=demo.model)).root_causes[0]
    assert top.commands
    assert f"dumpscope compare {shlex.quote(str(demo.golden))} TARGET_PATCHED" in top.advice
    assert "original golden" in top.advice


def test_patch_prints_the_verification_against_the_original_golden(demo, tmp_path, capsys):  # type: ignore
    assert main(["patch", str(demo.model), "-o", str(tmp_path / "p.onnx"), "--clip", "attn/scale=,9"]) == 0
    out = capsys.readouterr().out
    assert "verify against the original golden" in out and "dumpscope compare GOLDEN target_patched" in out
    assert "compare golden_patched target_patched" not in out


def test_demo_fix_opens_the_ui_on_the_original_golden_and_the_patched_target(tmp_path: Path, capsys) -> None:
    from dumpscope.core.onnx.demo import make_demo
    from dumpscope.tui.cli.commands.demo import fix_and_verify

    paths = make_demo(tmp_path / "d")
    shown = fix_and_verify(paths, tmp_path / "d")
    capsys.readouterr()
    assert shown.golden == paths.golden and shown.model == paths.model
    assert shown.target == tmp_path / "d" / "fixed" / "target"
