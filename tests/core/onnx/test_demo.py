"""The streaming demo: fp16 Exp overflows at a known frame, both dumps complete."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.demo import make_demo
from dumpscope.core.onnx.manifest import read_manifest
from dumpscope.tui.cli.main import main


def _first_nonfinite(root: Path) -> str | None:
    manifest = read_manifest(root)
    for t in sorted(manifest["tensors"], key=lambda t: t["topo_index"]):
        if t["kind"] == "activation" and not np.isfinite(np.load(root / t["file"])).all():
            return t["name"]
    return None


def test_manifests_are_complete_and_streaming_ordered(demo) -> None:  # type: ignore[no-untyped-def]
    golden, target = read_manifest(demo.golden), read_manifest(demo.target)
    assert golden["target"] is None and target["target"] == "fp16"
    g_names = [t["name"] for t in golden["tensors"]]
    assert g_names == [t["name"] for t in target["tensors"]]
    assert len(g_names) == len(set(g_names))
    n_nodes = len(golden["nodes"]) // 6
    acts = [t for t in golden["tensors"] if t["kind"] == "activation"]
    assert len(acts) == 6 * n_nodes
    for t in acts:
        frame = int(t["name"].split("/")[0].removeprefix("frame"))
        assert frame * n_nodes <= t["topo_index"] < (frame + 1) * n_nodes
        assert t["node_name"].startswith(f"frame{frame}/")
    exp5 = next(t for t in acts if t["name"] == "frame5/attn/exp:0")
    assert exp5["op_type"] == "Exp" and exp5["topo_index"] == 5 * n_nodes + [
        n["name"] for n in golden["nodes"]
    ].index("frame0/attn/exp")
    assert {t["dtype"] for t in target["tensors"] if t["kind"] == "activation"} == {"float16"}
    assert {t["dtype"] for t in acts} == {"float32"}
    for root, manifest in ((demo.golden, golden), (demo.target, target)):
        for t in manifest["tensors"]:
            assert (root / t["file"]).is_file()
    # Frame 0's inputs are the same data on both sides; later caches are each run's own state.
    g_in = {i["name"]: i for i in golden["inputs"]}
    t_in = {i["name"]: i for i in target["inputs"]}
    assert g_in["frame0/cached_key"]["sha256"] == t_in["frame0/cached_key"]["sha256"]
    assert g_in["frame3/x"]["sha256"] == t_in["frame3/x"]["sha256"]
    assert t_in["frame3/cached_key"]["fed_from"] == "frame2/new_cached_key"
    # every node input of every frame is a dumped tensor or a model input: constants are dumped
    # once, with frame 0, and later frames' nodes name them there (not a frame5/ name nobody wrote)
    known = set(g_names) | set(g_in)
    assert all(i in known for n in golden["nodes"] for i in n["inputs"])
    assert (
        "frame0/attn/scale" in next(n for n in golden["nodes"] if n["name"] == "frame5/attn/scale")["inputs"]
    )


def test_fp16_exp_overflows_first_at_the_overflow_frame(demo) -> None:  # type: ignore[no-untyped-def]
    assert _first_nonfinite(demo.golden) is None
    assert _first_nonfinite(demo.target) == "frame5/attn/exp:0"
    golden = {t["name"]: t for t in read_manifest(demo.golden)["tensors"]}
    target = {t["name"]: t for t in read_manifest(demo.target)["tensors"]}
    for k in range(5):  # frames before the overflow agree to fp16 rounding
        name = f"frame{k}/out"
        g = np.load(demo.golden / golden[name]["file"])
        t = np.load(demo.target / target[name]["file"]).astype(np.float32)
        np.testing.assert_allclose(t, g, rtol=1e-2, atol=1e-2)
    probs = np.load(demo.target / target["frame5/attn/probs:0"]["file"])
    assert np.isnan(probs).any()  # inf / inf
    assert (
        read_manifest(demo.target)["clamped"] == []
    )  # the weights fit fp16: the overflow is the activation's


def test_demo_is_small_and_deterministic(demo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    files = [p for p in demo.model.parent.rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) < 400_000
    again = make_demo(tmp_path / "again")

    def digest(root: Path) -> dict[str, str]:
        return {
            str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*.npy")
        }

    assert digest(demo.golden) == digest(again.golden)
    assert digest(demo.target) == digest(again.target)


def test_other_overflow_frame(tmp_path: Path) -> None:
    paths = make_demo(tmp_path, frames=4, overflow_frame=1)
    assert _first_nonfinite(paths.target) == "frame2/attn/exp:0"
    assert _first_nonfinite(paths.golden) is None


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(DumpError, match="frames"):
        make_demo(tmp_path / "a", frames=0)
    with pytest.raises(DumpError, match="fp32 too"):
        make_demo(tmp_path / "b", frames=60, overflow_frame=4)
    (tmp_path / "c" / "golden").mkdir(parents=True)
    (tmp_path / "c" / "golden" / "x.txt").write_text("mine")
    with pytest.raises(DumpError, match="not empty"):
        make_demo(tmp_path / "c")


def test_compare_finds_the_exp_at_the_overflow_frame(demo) -> None:  # type: ignore[no-untyped-def]
    session = pytest.importorskip("dumpscope.core.comparison.pipeline")
    cmp = session.compare(demo.golden, demo.target)
    first = cmp.first_divergent()
    assert first is not None
    row = cmp.frame.row(first, named=True)
    assert row["name"] == "frame5/attn/exp:0" and row["op_type"] == "Exp"
    assert cmp.warnings == []  # no false "different inputs" warning for fed-forward caches
    early = cmp.frame.filter(cmp.frame["name"].str.starts_with("frame4/"))
    assert set(early["health"].to_list()) == {"ok"}


def test_cli_headless(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    assert main(["demo", "--headless", "--out", str(tmp_path / "out"), "--frames", "6"]) == 0
    out = capsys.readouterr().out
    assert "frame5/attn/exp:0" in out
    assert f"dumpscope compare {tmp_path / 'out' / 'golden'} {tmp_path / 'out' / 'target'}" in out
    assert out.rstrip().endswith(f"dumpscope {tmp_path / 'out' / 'golden'} {tmp_path / 'out' / 'target'}")
    assert list(cwd.iterdir()) == []
    assert main(["demo", "--headless", "--frames", "0"]) == 2


def test_streaming_fix_and_verify_loop(tmp_path: Path, demo) -> None:  # type: ignore[no-untyped-def]
    """demo -> diagnose -> patch -> the same frames again -> every row healthy."""
    import shlex

    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.diagnosis.engine import diagnose
    from dumpscope.core.onnx.demo import verify_patched
    from dumpscope.tui.cli.main import main

    top = diagnose(compare(demo.golden, demo.target, model=demo.model)).root_causes[0]
    assert top.name == "frame5/attn/exp:0"
    command = shlex.split(next(c for c in top.commands if "--clip" in c))
    command[command.index("-o") + 1] = str(tmp_path / "fixed.onnx")
    assert main(command[1:]) == 0
    fixed = verify_patched(demo, tmp_path / "fixed.onnx", tmp_path / "fixed")
    after = compare(fixed.golden, fixed.target)
    assert set(after.frame["health"]) == {"ok"} and after.frame.height > 90


def test_demo_fix_runs_the_whole_loop_from_the_command_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from dumpscope.tui.cli.main import main

    assert main(["demo", "--fix", "--headless", "--out", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out
    assert "root cause: #72 frame5/attn/exp:0 (Exp): overflow" in out
    assert "--clip attn/scale=-inf," in out
    fix = out.split("3. fix")[1].split("4. re-dump")[0]  # the fix search, seeded by that advice
    assert "1 change(s), proven 1-minimal" in fix and "- clip 'attn/scale' to [-inf, 9.703125]" in fix
    assert "without it (trial 1): 'out' at inf" in fix  # the proof: the baseline, where the output overflows
    # and the patch applied that set
    assert "clip: 'attn/scaled:0' (output of 'attn/scale') to [-inf, 9.703125]" in fix
    assert "outputs: 6 of 6 OK" in out.split("6. verify")[1]
    commands = [line for line in out.splitlines() if " patch " in line and " -o " in line]
    assert all(
        "--clip attn/scale=-inf," in line for line in commands
    )  # each command on one line: copy-pasteable
    assert "5. compare" in out and "no divergent layer" in out.split("5. compare")[1]
    assert (tmp_path / "d" / "fixed" / "target" / "manifest.json").is_file()
