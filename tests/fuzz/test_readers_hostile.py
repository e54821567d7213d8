"""One test per bullet of issue 13 that belongs to the readers (see also test_corpus.py)."""

from __future__ import annotations

import io
import json
import os
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dumpscope.core.dumps import DumpError, TensorReadError
from dumpscope.core.formats import npz, open_dump
from dumpscope.core.formats.npyfile import read_header
from dumpscope.core.formats.safe_fs import member_path, read_csv_rows
from dumpscope.core.formats.sigmastar import scan
from dumpscope.core.names import to_filename

from .corpus import (
    GOOD,
    _encoded,
    _npz_bytes,
    _sg_tensors,
    bit_flipped,
    good_array,
    make_outside,
    npy_dir,
    npy_with_header,
    polygraphy_json,
)

_FAST = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _error(dump, name: str) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(TensorReadError) as info:
        dump.tensors[name].load()
    return str(info.value)


def test_manifest_paths_outside_the_folder_are_refused_on_their_rows(tmp_path: Path) -> None:
    outside = make_outside(tmp_path)
    d = npy_dir(tmp_path / "d")
    os.symlink(outside / "secret.npy", d / "link.npy")
    entries = [
        {"name": "a", "file": "a.npy"},
        {"name": "up", "file": "../outside/secret.npy"},
        {"name": "abs", "file": str(outside / "secret.npy")},
        {"name": "passwd", "file": "/etc/passwd"},
        {"name": "environ", "file": "/proc/self/environ"},
        {"name": "link", "file": "link.npy"},
    ]
    (d / "manifest.json").write_text(
        json.dumps({"format": "dumpscope-manifest", "version": 1, "tensors": entries})
    )
    dump = open_dump(d)
    np.testing.assert_array_equal(dump.tensors["a"].load(), good_array("a"))
    assert "leads outside" in _error(dump, "up")
    for name in ("abs", "passwd", "environ"):
        assert "absolute path" in _error(dump, name)
    assert "outside the dump folder" in _error(dump, "link") and "not followed" in _error(dump, "link")
    assert dump.tensors["b"].load().shape == (2, 3)  # files not in the manifest are still read


def test_member_path_rules(tmp_path: Path) -> None:
    assert member_path(tmp_path, "x/y.npy") == (tmp_path / "x/y.npy", None)
    for bad in ("../x.npy", "/etc/passwd", "a/../../x", "", None, 5, ["x"], "a\0b"):
        path, why = member_path(tmp_path, bad)
        assert path is None and why


def test_symlink_inside_the_dump_is_followed_one_leading_out_is_a_row(tmp_path: Path) -> None:
    outside = make_outside(tmp_path)
    d = npy_dir(tmp_path / "d")
    os.symlink(d / "a.npy", d / "alias.npy")
    os.symlink(outside / "secret.npy", d / "leak.npy")
    os.symlink(outside, d / "leakdir")
    dump = open_dump(d)
    np.testing.assert_array_equal(dump.tensors["alias"].load(), good_array("a"))
    assert "not followed" in _error(dump, "leak")
    assert not any("leakdir/" in n for n in dump.tensors)
    assert any("folder; not followed" in p.message for p in dump.problems)


def test_fifo_is_skipped_with_a_note_never_opened(tmp_path: Path) -> None:
    d = npy_dir(tmp_path / "d")
    os.mkfifo(d / "pipe.npy")
    os.mkfifo(d / "manifest.json")
    started = time.monotonic()
    dump = open_dump(d)
    assert time.monotonic() - started < 10
    assert set(dump.tensors) == set(GOOD)
    messages = " | ".join(f"{p.path}: {p.message}" for p in dump.problems)
    assert "pipe.npy: a FIFO; skipped, never opened" in messages and "manifest not used" in messages


def test_damaged_manifest_keeps_the_good_entries_and_marks_the_bad_ones(tmp_path: Path) -> None:
    d = npy_dir(tmp_path / "d")
    entries = [
        {"name": "a", "file": "a.npy", "topo_index": 0},
        {"name": ["list"], "file": "b.npy"},
        {"name": "huge", "file": "c.npy", "shape": [10**30]},
        7,
    ]
    (d / "manifest.json").write_text(json.dumps({"format": "dumpscope-manifest", "tensors": entries}))
    dump = open_dump(d)
    assert dump.tensors["a"].info.topo_index == 0 and dump.tensors["a"].load().shape == (2, 3)
    assert "'name' is a list" in _error(dump, "b")  # named by its file: the row pairs, nothing is lost
    assert "2**48" in _error(dump, "huge")
    assert "entry is a int" in _error(dump, "<manifest entry 3>")


def test_manifest_fields_of_the_wrong_type_are_dropped_and_said(tmp_path: Path) -> None:
    d = npy_dir(tmp_path / "d")
    manifest = {
        "format": "dumpscope-manifest",
        "tensors": [{"name": "a", "file": "a.npy"}],
        "inputs": 7,
        "notes": ["ok", 3],
        "target": None,
    }
    (d / "manifest.json").write_text(json.dumps(manifest))
    dump = open_dump(d)
    kept = dump.meta["manifest"]
    assert "inputs" not in kept and kept["notes"] == ["ok"] and kept["target"] is None
    messages = [p.message for p in dump.problems]
    assert "manifest field 'inputs' is a int; ignored" in messages and any(
        "'notes': 1 malformed" in m for m in messages
    )


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "dumpscope-manifest", "tensors": [',
        "[" * 100_000 + "]" * 100_000,
        '{"format": "dumpscope-manifest", "tensors": 5}',
    ],
)
def test_unusable_manifest_falls_back_to_decoded_names_and_says_why(tmp_path: Path, text: str) -> None:
    d = tmp_path / "d"
    (d / "inputs").mkdir(parents=True)
    names = ("enc/a:0", "b c", "plain")
    for n in names:
        np.save(d / to_filename(n), good_array(n))
    np.save(d / "inputs" / to_filename("in/x"), good_array("x"))
    (d / "manifest.json").write_text(text)
    dump = open_dump(d)
    assert set(dump.tensors) == {*names, "in/x"}
    assert dump.tensors["in/x"].info.kind == "input"
    assert dump.problems[0].message.startswith("manifest not used:")
    assert dump.meta["manifest_unused"]


@given(header=st.binary(min_size=0, max_size=200))
@_FAST
def test_any_npy_header_bytes_are_a_row_error_or_a_valid_header(header: bytes) -> None:
    try:
        shape, _fortran, dtype = read_header(io.BytesIO(npy_with_header(header)))
    except TensorReadError as exc:
        assert str(exc)
        return
    assert all(isinstance(d, int) and d >= 0 for d in shape) and dtype.itemsize >= 0


@given(shape=st.lists(st.integers(min_value=-(2**70), max_value=2**70), max_size=6))
@_FAST
def test_any_npy_shape_is_checked(shape: list[int]) -> None:
    dims = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
    text = f"{{'descr': '<f4', 'fortran_order': False, 'shape': ({dims}), }}"
    try:
        got, _f, _d = read_header(io.BytesIO(npy_with_header(text.encode())))
    except TensorReadError:
        assert (
            any(d < 0 for d in shape)
            or np.prod([float(d) for d in shape]) > 2**48
            or any(d > 2**48 for d in shape)
        )
        return
    assert list(got) == shape


def test_fourteen_random_bit_flips_cost_only_their_rows(tmp_path: Path) -> None:
    d = npy_dir(tmp_path / "d")
    for seed in range(14):
        (d / f"flip{seed}.npy").write_bytes(bit_flipped(seed))
    dump = open_dump(d)
    for name in GOOD:
        dump.tensors[name].load()
    for seed in range(14):
        try:
            dump.tensors[f"flip{seed}"].load()
        except TensorReadError:
            pass


@given(names=st.lists(st.text(min_size=0, max_size=40), min_size=1, max_size=8, unique=True))
@_FAST
def test_any_names_survive_our_manifest_and_the_fallback(tmp_path: Path, names: list[str]) -> None:
    d = tmp_path / f"d{abs(hash(tuple(names)))}"
    d.mkdir()
    files = {n: to_filename(n) for n in names}
    if len(set(files.values())) < len(files):
        return
    for _n, f in files.items():
        np.save(d / f, good_array("a"))
    entries = [{"name": n, "file": f} for n, f in files.items()]
    (d / "manifest.json").write_text(json.dumps({"format": "dumpscope-manifest", "tensors": entries}))
    assert set(open_dump(d).tensors) == set(names)
    (d / "manifest.json").write_text("{")
    assert set(open_dump(d).tensors) == set(names)


def test_mapping_csv_long_field_is_a_note(tmp_path: Path) -> None:
    d = npy_dir(tmp_path / "d")
    np.save(d / "0001.npy", good_array("x"))
    (d / "mapping.csv").write_text("0001.npy,real/name\n" + "x" * (200 << 10) + ",y\n")
    dump = open_dump(d)
    assert "real/name" in dump.tensors
    assert any("over 64 KiB" in p.message for p in dump.problems)
    rows = list(read_csv_rows(d / "mapping.csv"))
    assert rows[0] == (1, ["0001.npy", "real/name"]) and isinstance(rows[1][1], str)


def test_folder_nested_1100_deep_is_read_to_the_limit(tmp_path: Path) -> None:
    from .corpus import nest, remove_tree

    d = npy_dir(tmp_path / "d")
    np.save(nest(d) / "deep.npy", good_array("deep"))
    try:
        dump = open_dump(d)
        assert set(dump.tensors) == set(GOOD)
        assert any("nested deeper" in p.message for p in dump.problems)
    finally:
        remove_tree(d)


# ----------------------------------------------------------------- npz


def _patched_npz(tmp_path: Path, patch) -> Path:  # type: ignore[no-untyped-def]
    from .corpus import _patch_member

    members = {n: good_array(n) for n in GOOD} | {"bad": np.zeros(64, np.float32)}
    path = tmp_path / "t.npz"
    path.write_bytes(_patch_member(_npz_bytes(members), "bad.npy", patch))
    return path


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ("_set_flag", "encrypted"),
        ("_set_method", "unknown compression"),
        ("_corrupt_data", "unreadable"),
        ("_claim_400gb", "more than the compression"),
    ],
)
def test_npz_bad_member_costs_its_row(tmp_path: Path, patch: str, message: str) -> None:
    from . import corpus

    dump = open_dump(_patched_npz(tmp_path, getattr(corpus, patch)))
    for name in GOOD:
        np.testing.assert_array_equal(dump.tensors[name].load(), good_array(name))
    assert message in _error(dump, "bad")


def test_npz_header_claiming_400gb_is_refused_before_inflating(tmp_path: Path) -> None:
    buf = io.BytesIO(_npz_bytes({"a": good_array("a")}))
    with zipfile.ZipFile(buf, "a") as z:
        z.writestr(
            "bomb.npy",
            npy_with_header(b"{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000,), }", b""),
        )
    (tmp_path / "t.npz").write_bytes(buf.getvalue())
    dump = open_dump(tmp_path / "t.npz")
    assert "more than half this machine's memory" in _error(dump, "bomb") or "promises" in _error(
        dump, "bomb"
    )


def test_npz_member_larger_than_the_machine_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "t.npz").write_bytes(_npz_bytes({"a": good_array("a"), "big": np.zeros(4096, np.float32)}))
    monkeypatch.setattr(npz, "memory_budget", lambda: 1000)
    dump = open_dump(tmp_path / "t.npz")
    assert "memory" in _error(dump, "big")
    dump.tensors["a"].load()


def test_npz_with_many_members_reads_the_directory_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "t.npz").write_bytes(
        _npz_bytes({f"t{i}": np.full(2, i, np.float32) for i in range(300)}, zipfile.ZIP_STORED)
    )
    opened = []
    real = zipfile.ZipFile.__init__

    def counting(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "__init__", counting)
    dump = open_dump(tmp_path / "t.npz")
    assert all(dump.tensors[f"t{i}"].load()[0] == i for i in range(300))
    assert len(opened) <= 3  # sniff, open, the shared archive: never once per member


# ----------------------------------------------------------------- Polygraphy, SigmaStar


def test_polygraphy_array_claiming_400gb_is_a_row(tmp_path: Path) -> None:
    claim = npy_with_header(b"{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000,), }", b"")
    outputs = {"a": _encoded(good_array("a")), "bomb": _encoded(claim)}
    (tmp_path / "r.json").write_text(polygraphy_json(outputs))
    dump = open_dump(tmp_path / "r.json")
    dump.tensors["a"].load()
    assert "claims" in _error(dump, "bomb")


def test_polygraphy_json_nested_100k_deep_is_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text('{"lst": [["r", ' + "[" * 100_000 + "]" * 100_000 + "]]}")
    with pytest.raises(DumpError, match="nested too deeply"):
        open_dump(tmp_path / "r.json")


def test_sigmastar_80k_spaces_is_linear_and_40_digit_dims_are_refused() -> None:
    head = b"isFloat: 1\n"
    spaces = b"//out 0 s: 1 z: 0 type: float name: " + b" " * 80_000 + b"x bConstant:0 shape:[1] dims:1\n"
    spaces += b"op_out[1] " + b" " * 80_000 + b"\n"
    huge = b"//out 0 s: 1 z: 0 type: float name: h bConstant:0 shape:[" + b"9" * 40 + b"] dims:1\n"
    started = time.monotonic()
    _is_float, records, problems = scan(head + spaces * 20 + huge, text=False)
    assert time.monotonic() - started < 2
    assert records == [] and any("2**48" in p for p in problems)


def test_sigmastar_text_values_are_parsed_in_pieces(tmp_path: Path) -> None:
    from dumpscope.core.formats import sigmastar as sg

    big = sg.SgsTensor("big", np.arange(300_000, dtype=np.float32) / 7, "op", 5)
    sg.write_sigmastar(tmp_path / "sigma_outtensor_dump.txt", [*_sg_tensors(), big], True, text=True)
    dump = open_dump(tmp_path)
    np.testing.assert_allclose(
        dump.tensors["big"].load(), big.data, rtol=1e-6, atol=1e-6
    )  # written with %.6f
    np.testing.assert_allclose(dump.tensors["a"].load(), good_array("a"), rtol=1e-5)


@pytest.mark.parametrize("status", ["0x20", None, "junk", [1, "x"], True])
def test_opdebug_odd_status_costs_its_file_only(tmp_path: Path, status: object) -> None:
    from dumpscope.core.vendor.opdebug import scan as overflow_scan

    for k, word in enumerate((status, 32)):
        record = {"AI Core": {"status": word, "task_id": k, "stream_id": "1"}}
        (tmp_path / f"Opdebug.Node_OpDebug.{k}.1.170000000000000{k}.output.0.json").write_text(
            json.dumps(record)
        )
    report = overflow_scan(tmp_path, with_stats=False)
    assert any(r.task_id == 1 and r.status == 32 for r in report.records)
    assert report.problems or any(r.task_id == 0 for r in report.records)
