"""Issue 21: names from dumps are escaped in every output (terminal escapes, C1, bidi controls);
folders that are not dumps fail fast; the first corpus's regressions (``patch`` on external data
outside its folder, names that are not UTF-8 in a ``--model``, manifests with wrong types)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.names import json_safe, printable
from dumpscope.tui.cli.main import main

#: A name of each kind of hostile character: OSC title, CSI clear, C1 CSI, bidi override and isolate.
HOSTILE = ("t\x1b]0;pwned\x07", "w\x1b[2J", "v\x9b2J", "u\u202ex", "s\u2067y\u2069", "r\u200fz")
#: What must never reach an output raw.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _dumps(tmp: Path) -> tuple[str, str, str]:
    sides = []
    for side in ("g", "t", "b"):
        d = tmp / side
        d.mkdir()
        for k, name in enumerate(HOSTILE):
            value = np.full((2, 3), k, np.float32)
            if side != "g" and k == 1:
                value[0, 0] = np.inf  # one failing row: its name goes into diagnoses and summaries too
            np.save(d / f"{name}.npy", value)  # the raw name as the file's name
        sides.append(str(d))
    return sides[0], sides[1], sides[2]


@pytest.mark.parametrize("printable_text", [printable, lambda t: printable(t, lines=True)])
def test_printable_escapes_every_control_and_bidi_character(printable_text) -> None:  # type: ignore
    for name in HOSTILE:
        shown = printable_text(name)
        assert not RAW.search(shown) and shown.isprintable()
    assert printable("u\u202ex") == "u\\u202ex" and printable("v\x9b2J") == "v\\x9b2J"
    assert printable("a\nb") == "a\\x0ab" and printable("a\nb", lines=True) == "a\nb"
    assert printable("层/卷积:0 × ok") == "层/卷积:0 × ok"  # printable text comes back as it is


def test_json_safe_is_the_same_json_value() -> None:
    value = {"n": list(HOSTILE), "层": "卷积"}
    text = json_safe(json.dumps(value, ensure_ascii=False))
    assert json.loads(text) == value and not RAW.search(text) and "卷积" in text


OUTPUTS = {
    "table": ["compare", "G", "T"],
    "csv": ["compare", "G", "T", "--format", "csv"],
    "json": ["compare", "G", "T", "--format", "json"],
    "markdown": ["compare", "G", "T", "--format", "markdown"],
    "sigmastar": ["compare", "T", "G", "--format", "sigmastar"],
    "model-explorer": ["compare", "G", "T", "--format", "model-explorer"],
    "diagnose": ["diagnose", "G", "T"],
    "diagnose-json": ["diagnose", "G", "T", "--json"],
    "diagnose-markdown": ["diagnose", "G", "T", "--markdown"],
    "threeway-table": ["compare", "G", "T", "B"],
    "threeway-csv": ["compare", "G", "T", "B", "--format", "csv"],
    "threeway-json": ["compare", "G", "T", "B", "--format", "json"],
}


@pytest.mark.parametrize("to_file", [False, True], ids=["stdout", "file"])
@pytest.mark.parametrize("output", sorted(OUTPUTS))
def test_no_output_holds_a_raw_control_or_bidi_character(
    tmp_path: Path, output: str, to_file: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    g, t, b = _dumps(tmp_path)
    argv = [{"G": g, "T": t, "B": b}.get(a, a) for a in OUTPUTS[output]]
    out = tmp_path / "out.txt"
    assert main([*argv, *(["-o", str(out)] if to_file else [])]) in (0, 1)
    captured = capsys.readouterr()
    text = out.read_text(encoding="utf-8") if to_file else captured.out
    text = text.replace("\r\n", "\n")  # a CSV's line ends
    assert text.strip() and not RAW.search(text), RAW.findall(text)
    assert not RAW.search(captured.err), RAW.findall(captured.err)
    if output in ("json", "threeway-json", "model-explorer"):  # every exact name, as JSON escapes
        assert [n for n in HOSTILE if json.dumps(n)[1:-1] not in text] == []


def test_the_csv_holds_the_printable_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A CSV (to a terminal or a file) holds each name as :func:`printable` shows it: the same bytes
    either way; the exact names are in JSON and Parquet."""
    import csv
    import io

    g, t, _b = _dumps(tmp_path)
    main(["compare", g, t, "--format", "csv", "-o", str(tmp_path / "r.csv")])
    main(["compare", g, t, "--format", "csv"])
    piped = capsys.readouterr().out
    assert piped == (tmp_path / "r.csv").read_bytes().decode()
    names = {row["GroundTruth"] for row in csv.DictReader(io.StringIO(piped))}
    assert names == {printable(n) for n in HOSTILE}


# The UI: tests/test_tui_app.py::test_odd_names_render_aligned_and_safe (bidi and controls as escapes).


# ---------------------------------------------------------------- walking


@pytest.mark.parametrize("pair", [("/", "/proc/self"), ("/proc/self", "/"), ("/proc", "/proc"), ("/", "/")])
def test_folders_that_are_not_dumps_fail_at_once_with_one_line(pair: tuple[str, str]) -> None:
    """``compare / /proc/self`` walked the whole machine (past 60 s): each side is recognised before
    either is read, sniffing lists a bounded number of entries, a walk stops at 10,000 folders."""
    done = subprocess.run(
        [sys.executable, "-m", "dumpscope", "compare", *pair], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "not a dump" in done.stderr and "internal error" not in done.stderr


def test_a_walk_is_bounded_in_folders_and_says_so(tmp_path: Path) -> None:
    from dumpscope.core.dumps import DumpError
    from dumpscope.core.formats import safe_fs

    for i in range(30):
        (tmp_path / f"d{i:02}" / "e").mkdir(parents=True)
    (tmp_path / "d00" / "a.npy").write_bytes(b"")
    walk = safe_fs.walk_files(tmp_path, lambda n: n.endswith(".npy"), 8, max_entries=25)
    assert walk.cut_short and walk.folders < 61
    with pytest.raises(DumpError, match="not a dump folder"):
        walk.whole(tmp_path)
    whole = safe_fs.walk_files(tmp_path, lambda n: n.endswith(".npy"), 8)
    assert not whole.cut_short and whole.whole(tmp_path).files == [tmp_path / "d00" / "a.npy"]
    assert whole.folders == 61  # each folder listed once


# ---------------------------------------------------------------- first-corpus regressions


def _external_model(folder: Path, location: str) -> Path:
    """``folder/m.onnx`` whose initializer ``w`` lies in external data at ``location``."""
    from fuzz.outputs import _onnx
    from onnx import TensorProto, helper, numpy_helper

    folder.mkdir(parents=True, exist_ok=True)
    w = numpy_helper.from_array(np.ones((2, 3), np.float32), "w")
    w.ClearField("raw_data")
    w.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", "0"), ("length", "24")):
        w.external_data.add(key=k, value=v)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    path = folder / "m.onnx"
    add = helper.make_node("Add", ["x", "w"], ["y"], name="add")
    path.write_bytes(_onnx([add], x, y, [w]).SerializeToString())
    return path


@pytest.mark.parametrize("kind", ["climbs-out", "absolute", "link-out", "folder", "fifo", "missing"])
def test_patch_on_external_data_outside_its_folder_is_one_line(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "w.bin").write_bytes(np.ones(6, np.float32).tobytes())
    location = {"climbs-out": "../outside/w.bin", "absolute": str(outside / "w.bin")}.get(kind, "w.bin")
    model = _external_model(tmp_path / "m", location)
    if kind == "link-out":
        (model.parent / "w.bin").symlink_to(outside / "w.bin")
    elif kind == "folder":
        (model.parent / "w.bin").mkdir()
    elif kind == "fifo":
        os.mkfifo(model.parent / "w.bin")
    assert main(["patch", str(model), "-o", str(tmp_path / "p.onnx"), "--keep-fp32", "add"]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"dumpscope: {model}: cannot read its external data (")
    assert not (tmp_path / "p.onnx").exists()


def test_a_model_with_names_that_are_not_utf8_loses_no_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Protobuf hands a name that is not UTF-8 over as bytes: it is read as text, with ``\\xff`` shown."""
    import onnx
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    from fuzz.outputs import _onnx

    nodes = [
        helper.make_node("Relu", ["x"], ["hQQ"], name="rQQ"),
        helper.make_node("Neg", ["hQQ"], ["y"], name="neg"),
    ]
    path = tmp_path / "bad.onnx"
    path.write_bytes(_onnx(nodes, x, y).SerializeToString().replace(b"QQ", b"\xff\xfe"))
    for side in ("g", "t"):
        d = tmp_path / side
        d.mkdir()
        for name in ("x", "y", "a"):
            np.save(d / f"{name}.npy", np.ones((2, 3), np.float32))
        (d / "h\udcff\udcfe.npy").write_bytes((d / "x.npy").read_bytes())  # a file name that is not UTF-8
    g, t = str(tmp_path / "g"), str(tmp_path / "t")
    assert main(["compare", g, t, "--model", str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in rows} == {"x", "y", "a", "h\\xff\\xfe"}
    assert next(r for r in rows if r["name"] == "y")["node_name"] == "neg"  # the model is read and used
    assert onnx.load(str(path)).graph.node[0].name == b"r\xff\xfe"  # (the file itself is as it was)


def test_a_manifest_entry_whose_name_is_not_text_keeps_its_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for side in ("g", "t"):
        d = tmp_path / side
        d.mkdir()
        entries = []
        for i, n in enumerate(("a", "b", "c")):
            np.save(d / f"{n}.npy", np.full((2, 3), i, np.float32))
            entries.append({"name": 5 if n == "b" else n, "file": f"{n}.npy", "topo_index": i})
        (d / "manifest.json").write_text(
            json.dumps({"format": "dumpscope-manifest", "version": 1, "tensors": entries})
        )
    main(["compare", str(tmp_path / "g"), str(tmp_path / "t"), "--format", "json"])
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == {"a", "b", "c"} and "'name' is a int" in rows["b"]["message"]


def test_demo_refuses_links_where_it_writes_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "demo"
    out.mkdir()
    (out / "golden").symlink_to(outside)
    assert main(["demo", "--out", str(out), "--headless", "--frames", "2"]) == 2
    assert "a link or a file where the demo writes a folder" in capsys.readouterr().err
    assert list(outside.iterdir()) == []
