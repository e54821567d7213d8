"""Builders of hostile dumps, one :class:`Case` each, from dumpscope's own writers.

A case writes a *clean* dump (``golden``) and a *hostile* one (``target``) of the same
format into a folder, beside a sentinel folder ``outside/`` that no command may read
or change.  ``good`` names the tensors every reader must still give as rows (the bad
file costs its own row only).  ``fast`` cases run in the normal pytest run; the rest
(big files, many members) only in ``python -m tests.fuzz.run``.
"""

from __future__ import annotations

import base64
import io
import json
import os
import random
import struct
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dumpscope.core.formats import ascend_writer as aw
from dumpscope.core.formats import sigmastar as sg
from dumpscope.core.names import to_filename

GOOD = ("a", "b", "c")
SECRET = b"\x93NUMPY sentinel: never read, never changed"


@dataclass(frozen=True)
class Case:
    """One hostile input: ``build(folder) -> (golden, target)`` and the names that must survive."""

    name: str
    format: str
    build: Callable[[Path], tuple[Path, Path]]
    good: tuple[str, ...] = GOOD
    fast: bool = True
    commands: tuple[str, ...] = ("compare", "diagnose")
    owner: str = "formats"


def good_array(name: str) -> np.ndarray:
    seed = sum(name.encode())
    return np.random.default_rng(seed).standard_normal((2, 3)).astype(np.float32)


def make_outside(folder: Path) -> Path:
    """The sentinel folder: files a hostile dump points at; they must stay unread and unchanged."""
    outside = folder / "outside"
    outside.mkdir(parents=True, exist_ok=True)
    np.save(outside / "secret.npy", np.full(4, 1234.5, np.float32))
    (outside / "notes.txt").write_bytes(SECRET)
    return outside


# ----------------------------------------------------------------- npy folders


def npy_dir(folder: Path, names: tuple[str, ...] = GOOD) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for n in names:
        np.save(folder / f"{n}.npy", good_array(n))
    return folder


def _pair(folder: Path, spoil: Callable[[Path], None], names: tuple[str, ...] = GOOD) -> tuple[Path, Path]:
    golden = npy_dir(folder / "golden", names)
    target = npy_dir(folder / "target", names)
    spoil(target)
    return golden, target


def npy_with_header(header: bytes, data: bytes = b"\0" * 24) -> bytes:
    """An ``.npy`` v1.0 file with ``header`` as its dict text (padded as numpy pads)."""
    text = header + b" " * ((64 - (10 + len(header) + 1) % 64) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text + data


def _header_case(header: bytes) -> Callable[[Path], tuple[Path, Path]]:
    def build(folder: Path) -> tuple[Path, Path]:
        return _pair(folder, lambda t: (t / "bad.npy").write_bytes(npy_with_header(header)))

    return build


def bit_flipped(seed: int, flips: int = 3) -> bytes:
    """A good ``.npy`` with ``flips`` random bits flipped in its header (deterministic per seed)."""
    buf = io.BytesIO()
    np.save(buf, good_array("x"))
    raw = bytearray(buf.getvalue())
    rng = random.Random(seed)
    for _ in range(flips):
        pos = rng.randrange(6, 128)
        raw[pos] ^= 1 << rng.randrange(8)
    return bytes(raw)


def _bitflips(folder: Path) -> tuple[Path, Path]:
    def spoil(t: Path) -> None:
        for seed in range(14):
            (t / f"flip{seed}.npy").write_bytes(bit_flipped(seed))

    return _pair(folder, spoil)


def _odd_dtypes(folder: Path) -> tuple[Path, Path]:
    arrays = {
        "empty": np.zeros((0, 3), np.float32),
        "scalar": np.array(2.5, np.float64),
        "f16": np.ones(4, np.float16),
        "bool": np.array([True, False]),
        "i8": np.arange(5, dtype=np.int8),
        "c64": np.ones(3, np.complex64),
        "u64": np.arange(3, dtype=np.uint64),
        "fortran": np.asfortranarray(np.ones((3, 2), np.float32)),
    }
    for side in ("golden", "target"):
        d = npy_dir(folder / side)
        for n, a in arrays.items():
            np.save(d / f"{n}.npy", a)
    return folder / "golden", folder / "target"


def _pickled(folder: Path) -> tuple[Path, Path]:
    return _pair(
        folder, lambda t: np.save(t / "obj.npy", np.array([{"x": 1}], dtype=object), allow_pickle=True)
    )


def _manifest(folder: Path, entries: list[object], extra: dict | None = None) -> None:  # type: ignore[type-arg]
    data = {"format": "dumpscope-manifest", "version": 1, "tensors": entries, **(extra or {})}
    (folder / "manifest.json").write_text(json.dumps(data))


def _good_entries() -> list[dict[str, object]]:
    return [
        {"name": n, "file": f"{n}.npy", "kind": "activation", "topo_index": i} for i, n in enumerate(GOOD)
    ]


def _manifest_outside(folder: Path) -> tuple[Path, Path]:
    outside = make_outside(folder)

    def spoil(t: Path) -> None:
        bad = [
            {"name": "up", "file": "../outside/secret.npy"},
            {"name": "abs", "file": str(outside / "secret.npy")},
            {"name": "passwd", "file": "/etc/passwd"},
            {"name": "environ", "file": "/proc/self/environ"},
            {"name": "link", "file": "link.npy"},
            {"name": "sub", "file": "inside/../../outside/secret.npy"},
        ]
        os.symlink(outside / "secret.npy", t / "link.npy")
        _manifest(t, [*_good_entries(), *bad])

    return _pair(folder, spoil)


def _symlinks_out(folder: Path) -> tuple[Path, Path]:
    outside = make_outside(folder)

    def spoil(t: Path) -> None:
        os.symlink(outside / "secret.npy", t / "leak.npy")
        os.symlink(outside, t / "leakdir")
        os.symlink(t / "a.npy", t / "alias.npy")  # a link inside the dump is fine

    return _pair(folder, spoil)


def _manifest_bad_fields(folder: Path) -> tuple[Path, Path]:
    def spoil(t: Path) -> None:
        np.save(t / "x.npy", good_array("x"))
        bad = [
            {"name": ["a", "list"], "file": "x.npy"},
            {"name": "huge", "file": "x.npy", "shape": [10**30, 10**30]},
            {"name": "shape_text", "file": "x.npy", "shape": "2x3"},
            {"name": "kind", "file": "x.npy", "kind": {"evil": 1}},
            {"name": "topo", "file": "x.npy", "topo_index": "first"},
            {"name": "inputs", "file": "x.npy", "node_inputs": 5},
            {"name": "file_int", "file": 7},
            12345,
            None,
            {"name": "nul", "file": "a\u0000.npy"},
        ]
        _manifest(t, [*_good_entries(), *bad])

    return _pair(folder, spoil)


def _manifest_junk_fields(folder: Path) -> tuple[Path, Path]:
    def spoil(t: Path) -> None:
        junk = {
            "inputs": 7,
            "nodes": 5,
            "clamped": "x",
            "notes": {"a": 1},
            "model": ["x"],
            "target": {"a": 1},
            "seed": "s",
            "version": True,
            "demo": [1],
        }
        _manifest(
            t,
            [*_good_entries(), {"name": "x", "file": "a.npy", "node_name": ["n"], "node_inputs": [1]}],
            junk,
        )

    return _pair(folder, spoil)


def _manifest_unreadable(folder: Path) -> tuple[Path, Path]:
    names = ("enc/a:0", "enc/b:1", "plain")
    for side in ("golden", "target"):
        d = folder / side
        d.mkdir(parents=True)
        for n in names:
            np.save(d / to_filename(n), good_array(n))
        _manifest(d, [{"name": n, "file": to_filename(n)} for n in names])
    (folder / "target" / "manifest.json").write_text('{"format": "dumpscope-manifest", "tensors": [')
    return folder / "golden", folder / "target"


def _manifest_deep(folder: Path) -> tuple[Path, Path]:
    def spoil(t: Path) -> None:
        (t / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)

    return _pair(folder, spoil)


def _fifo(folder: Path) -> tuple[Path, Path]:
    def spoil(t: Path) -> None:
        os.mkfifo(t / "pipe.npy")
        os.mkfifo(t / "manifest.json")
        os.mkfifo(t / "mapping.csv")

    return _pair(folder, spoil)


def _mapping_big_field(folder: Path) -> tuple[Path, Path]:
    def spoil(t: Path) -> None:
        np.save(t / "0001.npy", good_array("long"))
        (t / "mapping.csv").write_text("0001.npy,long\n" + "x" * (200 << 10) + ",y\n" + '"unterminated\n')

    golden, target = _pair(folder, spoil)
    np.save(golden / "long.npy", good_array("long"))
    return golden, target


def nest(top: Path, levels: int = 1100) -> Path:
    """``top/d/d/.../d`` ``levels`` deep (made one level at a time: os.makedirs recurses)."""
    deep = top
    for _ in range(levels):
        deep = deep / "d"
        deep.mkdir()
    return deep


def remove_tree(top: Path) -> None:
    """Remove ``top`` bottom-up without recursion (``shutil.rmtree`` recurses once per level)."""
    entries: list[Path] = []
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                for e in it:
                    entries.append(Path(e.path))
                    if e.is_dir(follow_symlinks=False):
                        stack.append(Path(e.path))
        except OSError:
            continue
    for p in sorted(entries, key=lambda p: -len(p.parts)):
        try:
            p.rmdir() if p.is_dir() and not p.is_symlink() else p.unlink()
        except OSError:
            pass


def _nested_deep(folder: Path) -> tuple[Path, Path]:
    def spoil(t: Path) -> None:
        np.save(nest(t) / "deep.npy", good_array("deep"))

    return _pair(folder, spoil)


def _many_manifest(folder: Path, count: int = 100_000) -> tuple[Path, Path]:
    def spoil(t: Path) -> None:
        _manifest(
            t, [*_good_entries(), *({"name": f"m{i}", "file": f"missing/{i}.npy"} for i in range(count))]
        )

    return _pair(folder, spoil)


# ----------------------------------------------------------------- npz


def _npz_bytes(members: dict[str, np.ndarray], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, arr in members.items():
            b = io.BytesIO()
            np.save(b, arr)
            z.writestr(f"{name}.npy", b.getvalue())
    return buf.getvalue()


def _patch_member(raw: bytes, member: str, patch: Callable[[bytearray, int, int], None]) -> bytes:
    """Apply ``patch(buf, local_header_offset, central_header_offset)`` to one member of a zip."""
    buf = bytearray(raw)
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        info = z.getinfo(member)
    central = raw.find(b"PK\x01\x02")
    while central >= 0:
        name_len = struct.unpack_from("<H", raw, central + 28)[0]
        if raw[central + 46 : central + 46 + name_len] == member.encode():
            break
        central = raw.find(b"PK\x01\x02", central + 4)
    patch(buf, info.header_offset, central)
    return bytes(buf)


def _set_flag(buf: bytearray, local: int, central: int) -> None:
    buf[local + 6] |= 1
    buf[central + 8] |= 1


def _set_method(buf: bytearray, local: int, central: int) -> None:
    struct.pack_into("<H", buf, local + 8, 99)
    struct.pack_into("<H", buf, central + 10, 99)


def _claim_400gb(buf: bytearray, local: int, central: int) -> None:
    struct.pack_into("<I", buf, central + 24, 0xFFFFFFF0)  # uncompressed size in the directory


def _corrupt_data(buf: bytearray, local: int, central: int) -> None:
    start = (
        local
        + 30
        + struct.unpack_from("<H", buf, local + 26)[0]
        + struct.unpack_from("<H", buf, local + 28)[0]
    )
    for k in range(start + 2, start + 12):
        buf[k] ^= 0x5A


def _npz_case(
    patch: Callable[[bytearray, int, int], None] | None, bomb_header: bool = False
) -> Callable[[Path], tuple[Path, Path]]:
    def build(folder: Path) -> tuple[Path, Path]:
        folder.mkdir(parents=True, exist_ok=True)
        members = {n: good_array(n) for n in GOOD}
        (folder / "golden.npz").write_bytes(_npz_bytes(members))
        bad = {**members, "bad": np.zeros(64, np.float32)}
        raw = _npz_bytes(bad)
        if patch is not None:
            raw = _patch_member(raw, "bad.npy", patch)
        if bomb_header:
            buf = io.BytesIO(raw)
            with zipfile.ZipFile(buf, "a", zipfile.ZIP_DEFLATED) as z:
                z.writestr(
                    "bomb.npy",
                    npy_with_header(
                        b"{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000,), }", b""
                    ),
                )
            raw = buf.getvalue()
        (folder / "target.npz").write_bytes(raw)
        return folder / "golden.npz", folder / "target.npz"

    return build


def _npz_many(folder: Path, count: int = 4000) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    members = {f"t{i}": np.full(4, i, np.float32) for i in range(count)}
    for side in ("golden", "target"):
        (folder / f"{side}.npz").write_bytes(_npz_bytes(members, zipfile.ZIP_STORED))
    return folder / "golden.npz", folder / "target.npz"


# ----------------------------------------------------------------- Polygraphy


def _encoded(arr: np.ndarray | bytes) -> dict[str, str]:
    if isinstance(arr, bytes):
        raw = arr
    else:
        b = io.BytesIO()
        np.save(b, arr)
        raw = b.getvalue()
    return {"array": base64.b64encode(raw).decode(), "polygraphy_class": "ndarray"}


def polygraphy_json(outputs: dict[str, object]) -> str:
    it = {"outputs": outputs, "runtime": 0.1, "runner_name": "onnxrt-runner"}
    return json.dumps({"lst": [["onnxrt-runner", [it]]], "polygraphy_class": "RunResults"})


def _poly_case(
    bad: dict[str, object] | None, raw_text: str | None = None
) -> Callable[[Path], tuple[Path, Path]]:
    def build(folder: Path) -> tuple[Path, Path]:
        folder.mkdir(parents=True, exist_ok=True)
        good = {n: _encoded(good_array(n)) for n in GOOD}
        (folder / "golden.json").write_text(polygraphy_json(good))
        (folder / "target.json").write_text(
            raw_text if raw_text is not None else polygraphy_json({**good, **(bad or {})})
        )
        return folder / "golden.json", folder / "target.json"

    return build


_CLAIM_400GB = npy_with_header(b"{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000,), }", b"")


# ----------------------------------------------------------------- SigmaStar


def _sg_tensors() -> list[sg.SgsTensor]:
    return [sg.SgsTensor(n, good_array(n), f"op_{n}", i) for i, n in enumerate(GOOD)]


def _sg_case(insert: bytes, text: bool = False) -> Callable[[Path], tuple[Path, Path]]:
    def build(folder: Path) -> tuple[Path, Path]:
        for side in ("golden", "target"):
            (folder / side).mkdir(parents=True)
            sg.write_sigmastar(
                folder / side / ("sigma_outtensor_dump.txt" if text else "sigma_outtensor_dump.bin"),
                _sg_tensors(),
                True,
                text=text,
            )
        target = folder / "target" / ("sigma_outtensor_dump.txt" if text else "sigma_outtensor_dump.bin")
        target.write_bytes(target.read_bytes() + insert)
        return folder / "golden", folder / "target"

    return build


def _sg_big_text(folder: Path) -> tuple[Path, Path]:
    big = sg.SgsTensor(
        "big", np.random.default_rng(0).standard_normal(4_000_000).astype(np.float32), "op_big", 9
    )
    for side in ("golden", "target"):
        (folder / side).mkdir(parents=True)
        sg.write_sigmastar(folder / side / "sigma_outtensor_dump.txt", [*_sg_tensors(), big], True, text=True)
    return folder / "golden", folder / "target"


# ----------------------------------------------------------------- Ascend raw dumps


def _ascend_dir(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, n in enumerate(GOOD):
        raw = aw.RawTensor(good_array(n), 1, 2, (2, 3))
        aw.write_dump(folder / f"Add.{n}.{i}.1.{1700000000000000 + i}", n, [raw])
    return folder


def _ascend_case(spoil: Callable[[Path], None]) -> Callable[[Path], tuple[Path, Path]]:
    def build(folder: Path) -> tuple[Path, Path]:
        golden, target = _ascend_dir(folder / "golden"), _ascend_dir(folder / "target")
        spoil(target)
        return golden, target

    return build


def _ascend_nhwc_short(t: Path) -> None:
    data = np.zeros((1, 1, 2, 2, 16), np.float16)
    raw = aw.RawTensor(data, 2, 3, (1, 4), origin_format_code=1)
    aw.write_dump(t / "Conv2D.conv.7.1.1700000000000099", "conv", [raw])


def _ascend_garbage(t: Path) -> None:
    (t / "Add.junk.9.1.1700000000000098").write_bytes(struct.pack("<Q", 12) + b"\xff" * 40)
    (t / "Add.huge.9.1.1700000000000097").write_bytes(struct.pack("<Q", 2**63) + b"\x00" * 40)


def _ascend_fifo(t: Path) -> None:
    os.mkfifo(t / "Add.pipe.9.1.1700000000000096")


def _ascend_deep(t: Path) -> None:
    (nest(t) / "Add.deep.9.1.1700000000000095").write_bytes(b"\0" * 16)


def _odd_entries(folder: Path) -> tuple[Path, Path]:
    def spoil(t: Path) -> None:
        (t / "dir.npy").mkdir()  # a folder named like a tensor
        (t / "empty.npy").write_bytes(b"")
        (t / "text.npy").write_text("not numpy at all")
        (t / "mapping.csv").write_bytes(b"0001.npy,a\x00b\n\xff\xfe,\n,,,\n")
        np.save(t / "strings.npy", np.array(["x", "y"]))
        np.save(t / "struct.npy", np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")]))

    return _pair(folder, spoil)


def _manifest_empty(folder: Path) -> tuple[Path, Path]:
    return _pair(folder, lambda t: (t / "manifest.json").write_bytes(b""))


def _manifest_bom_utf16(folder: Path) -> tuple[Path, Path]:
    def spoil(t: Path) -> None:
        text = json.dumps({"format": "dumpscope-manifest", "tensors": _good_entries()})
        (t / "manifest.json").write_bytes(text.encode("utf-16"))

    return _pair(folder, spoil)


def _npz_not_zip(folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "golden.npz").write_bytes(_npz_bytes({n: good_array(n) for n in GOOD}))
    (folder / "target.npz").write_bytes(b"PK\x03\x04" + b"\xff" * 100)
    return folder / "golden.npz", folder / "target.npz"


def _npz_odd_members(folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    members = {n: good_array(n) for n in GOOD}
    (folder / "golden.npz").write_bytes(_npz_bytes(members))
    buf = io.BytesIO(_npz_bytes(members))
    with zipfile.ZipFile(buf, "a") as z:
        z.writestr(
            "../../escape.npy",
            npy_with_header(b"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", bytes(8)),
        )
        z.writestr("/abs.npy", b"")
        z.writestr("readme.txt", "hello")
        z.writestr("dir/", b"")
    (folder / "target.npz").write_bytes(buf.getvalue())
    return folder / "golden.npz", folder / "target.npz"


def _ascend_header_beyond(t: Path) -> None:
    (t / "Add.beyond.9.1.1700000000000094").write_bytes(struct.pack("<Q", 10_000) + b"\x0a\x03" + b"2.0")
    (t / "Add.empty.9.1.1700000000000093").write_bytes(b"")


def _sg_empty_file(folder: Path) -> tuple[Path, Path]:
    golden, target = _sg_case(b"")(folder)
    (target / "sigma_outtensor_dump.bin").write_bytes(b"")
    return golden, target


# ---------------------------------------- msprobe and torch .pt (issue 21: readers confined, bounded)
#
# A msprobe pair is two ``step0/rank0`` trees (golden = bench, target = NPU) of three good calls
# (``MS_GOOD``) whose tensors are in ``dump_tensor_data``; a case adds calls whose target
# ``data_name`` is hostile (the golden side names a good file) or spoils the target tree.

MS_GOOD = tuple(f"Functional.relu.{i}.forward.{io}.0" for i in range(3) for io in ("input", "output"))


def _ms_record(arr: np.ndarray, data_name: str | None) -> dict[str, object]:
    f = arr.astype(np.float64)
    rec: dict[str, object] = {
        "type": "torch.Tensor",
        "dtype": "torch.float32",
        "shape": list(arr.shape),
        "Max": float(f.max()),
        "Min": float(f.min()),
        "Mean": float(f.mean()),
        "Norm": float(np.sqrt((f * f).sum())),
        "requires_grad": False,
    }
    if data_name is not None:
        rec["data_name"] = data_name
    return rec


def ms_rank(
    rank: Path, bad: dict[str, str] | None = None, golden: bool = False, task: str = "tensor"
) -> Path:
    """A msprobe rank folder: the three good calls, then one call per ``bad`` item (api -> the
    target's data_name for its input; the golden side gets a good file of that name instead)."""
    tensors = rank / "dump_tensor_data"
    tensors.mkdir(parents=True, exist_ok=True)
    data: dict[str, object] = {}
    for i in range(3):
        name = f"Functional.relu.{i}.forward"
        arr = good_array(name)
        rec = {}
        for side in ("input", "output"):
            np.save(tensors / f"{name}.{side}.0.npy", arr)
            rec[side] = _ms_record(arr, f"{name}.{side}.0.npy" if task == "tensor" else None)
        data[name] = {"input_args": [rec["input"]], "input_kwargs": {}, "output": [rec["output"]]}
    for k, (api, data_name) in enumerate((bad or {}).items()):
        arr = good_array(api)
        if golden:
            data_name = f"{api}.npy"
            np.save(tensors / data_name, arr)
        data[f"Functional.{api}.{k}.forward"] = {"input_args": [_ms_record(arr, data_name)], "output": []}
    body = {"task": task, "level": "L1", "framework": "pytorch", "dump_data_dir": str(tensors), "data": data}
    (rank / "dump.json").write_text(json.dumps(body))
    return rank


def _ms_case(
    bad: dict[str, str] | None = None,
    spoil: Callable[[Path, Path], None] | None = None,
) -> Callable[[Path], tuple[Path, Path]]:
    """A msprobe pair; ``spoil(target rank folder, outside)`` runs last."""

    def build(folder: Path) -> tuple[Path, Path]:
        outside = make_outside(folder)
        ms_rank(folder / "golden" / "step0" / "rank0", bad, golden=True)
        named = {api: name.replace("{outside}", str(outside)) for api, name in (bad or {}).items()}
        rank = ms_rank(folder / "target" / "step0" / "rank0", named)
        if spoil is not None:
            spoil(rank, outside)
        return folder / "golden", folder / "target"

    return build


def _ms_outside_links(rank: Path, outside: Path) -> None:
    os.symlink(outside / "secret.npy", rank / "dump_tensor_data" / "link.npy")
    os.symlink(outside, rank / "dump_tensor_data" / "leak")


def _ms_links_out(rank: Path, outside: Path) -> None:
    """rank1 a link to a rank folder outside; rank2's dump.json a link to one outside."""
    ms_rank(outside / "rank9")
    for k in (1, 2):
        ms_rank(rank.parents[2] / "golden" / "step0" / f"rank{k}")
    os.symlink(outside / "rank9", rank.parent / "rank1")
    (rank.parent / "rank2").mkdir()
    os.symlink(outside / "rank9" / "dump.json", rank.parent / "rank2" / "dump.json")
    os.symlink(outside / "rank9" / "dump.json", rank / "construct.json")


def _ms_step_loop(rank: Path, outside: Path) -> None:
    os.symlink("step1", rank.parents[1] / "step1")  # step1 -> itself
    os.symlink("step2", rank.parents[1] / "step3")
    os.symlink("step3", rank.parents[1] / "step2")


def _ms_unreadable(rank: Path, outside: Path) -> None:
    """The target's files of :data:`_MS_UNREADABLE`: missing, truncated, a folder, text, a FIFO, junk."""
    tensors = rank / "dump_tensor_data"
    header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }"
    (tensors / "trunc.npy").write_bytes(npy_with_header(header))
    (tensors / "dir.npy").mkdir()
    (tensors / "text.npy").write_text("not numpy")
    os.mkfifo(tensors / "pipe.npy")
    (tensors / "bad.pt").write_bytes(b"PK\x03\x04" + b"\xff" * 64)
    (tensors / "x.bin").write_bytes(b"\0" * 24)


_MS_UNREADABLE = {
    "missing": "nope.npy",
    "trunc": "trunc.npy",
    "folder": "dir.npy",
    "text": "text.npy",
    "fifo": "pipe.npy",
    "badpt": "bad.pt",
    "other": "x.bin",
}


def _ms_deep(rank: Path, outside: Path) -> None:
    """An entry nested 100k deep in dump.json (the others read), and deep construct/stack.json."""
    text = (rank / "dump.json").read_text()
    deep = '"Functional.deep.9.forward": {"input_args": ' + "[" * 100_000 + "]" * 100_000 + "}, "
    (rank / "dump.json").write_text(text.replace('"data": {', '"data": {' + deep, 1))
    (rank / "construct.json").write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    (rank / "stack.json").write_text("[" * 100_000)


def _ms_cut_short(rank: Path, outside: Path) -> None:
    text = (rank / "dump.json").read_text()
    (rank / "dump.json").write_text(text[: text.index('"Functional.cut.0.forward"') + 40])


def ms_big(rank: Path, entries: int = 100_000) -> Path:
    """A statistics-mode rank of ``entries`` calls, laid out as msprobe writes it (indent=1): ~66 MB."""
    rank.mkdir(parents=True, exist_ok=True)
    with open(rank / "dump.json", "w") as fh:
        fh.write(
            '{\n "task": "statistics",\n "level": "L1",\n "framework": "pytorch",\n'
            ' "dump_data_dir": null,\n "data": {\n'
        )
        for i in range(entries):
            recs = [_ms_record(np.full((2, 3), 1.0 + i * 1e-6 + k, np.float32), None) for k in range(2)]
            item = json.dumps({"input_args": recs[:1], "input_kwargs": {}, "output": recs[1:]}, indent=1)
            item = item.replace("\n", "\n  ")
            fh.write(("," if i else "") + f'\n  "Functional.linear.{i}.forward": ' + item)
        fh.write("\n }\n}\n")
    return rank


def _ms_many(folder: Path) -> tuple[Path, Path]:
    for side in ("golden", "target"):
        ms_big(folder / side / "step0" / "rank0")
    return folder / "golden", folder / "target"


def pt_pickle(shape: tuple[int, ...], stride: tuple[int, ...], numel: int, offset: int = 0) -> bytes:
    """``data.pkl`` of ``torch.save(tensor)`` written opcode by opcode (no torch, nothing pickled)."""

    def text(t: str) -> bytes:
        return b"X" + struct.pack("<I", len(t)) + t.encode()

    def ints(values: tuple[int, ...]) -> bytes:
        return b"(" + b"".join(b"J" + struct.pack("<i", v) for v in values) + b"t"

    storage = (
        b"("
        + text("storage")
        + b"ctorch\nFloatStorage\n"
        + text("0")
        + text("cpu")
        + b"J"
        + struct.pack("<i", numel)
        + b"tQ"
    )
    args = (
        b"("
        + storage
        + b"J"
        + struct.pack("<i", offset)
        + ints(shape)
        + ints(stride)
        + b"\x89ccollections\nOrderedDict\n)Rt"
    )
    return b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n" + args + b"R."


def pt_zip(path: Path, pkl: bytes, data: bytes = b"", bomb: tuple[str, int] | None = None) -> Path:
    """A ``.pt`` zip; ``bomb`` = (member, size): that member is ``size`` zero bytes, deflated (~1000:1)."""
    members = {"archive/data.pkl": pkl, "archive/data/0": data}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, raw in members.items():
            if bomb is None or name != bomb[0]:
                z.writestr(name, raw)
        if bomb is not None:
            info = zipfile.ZipInfo(bomb[0])
            info.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info, "w") as fh:
                chunk = bytes(16 << 20)
                for _ in range(bomb[1] // len(chunk)):
                    fh.write(chunk)
    return path


def _pt_case(make: Callable[[Path], None]) -> Callable[[Path], tuple[Path, Path]]:
    """A msprobe pair whose target names ``bad.pt`` (built by ``make(path)``) for one call."""

    def spoil(rank: Path, outside: Path) -> None:
        make(rank / "dump_tensor_data" / "bad.pt")

    return _ms_case({"pt": "bad.pt"}, spoil)


#: Inflated size of the bombs: 256 MiB from ~256 KB on disk (the RSS bound of a tiny dump is ~200 MB).
_BOMB = 256 << 20


def _pt_zip_bomb(path: Path) -> None:
    pt_zip(path, pt_pickle((2, 3), (3, 1), 6), bomb=("archive/data/0", _BOMB))


def _claim_24(buf: bytearray, local: int, central: int) -> None:
    struct.pack_into("<I", buf, central + 24, 24)  # the directory's uncompressed size


def _pt_zip_bomb_lying(path: Path) -> None:
    """The bomb with its directory claiming 24 bytes: reading must still stop at 24."""
    _pt_zip_bomb(path)
    path.write_bytes(_patch_member(path.read_bytes(), "archive/data/0", _claim_24))


def _pt_pickle_bomb(path: Path) -> None:
    pt_zip(path, b"", bomb=("archive/data.pkl", _BOMB))


def _pt_stride0(path: Path) -> None:
    """1 KB on disk, a 20000 x 20000 float32 view of one element: 1.6 GB once copied."""
    pt_zip(path, pt_pickle((20000, 20000), (0, 0), 1), struct.pack("<f", 1.5))


def _pt_odd(path: Path) -> None:
    """A view past its storage (6 elements of a 4-element one)."""
    pt_zip(path, pt_pickle((2, 3), (3, 1), 4), bytes(16))


def _pt_corrupt(path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("archive/data.pkl", pt_pickle((300,), (1,), 300))
        z.writestr("archive/data/0", np.arange(300, dtype=np.float32).tobytes())
    raw = _patch_member(buf.getvalue(), "archive/data/0", _corrupt_data)
    path.write_bytes(raw)


def msprobe_cases() -> list[Case]:
    """The msprobe and torch ``.pt`` cases (issue 21): confinement, bounds, one row per problem."""
    good = MS_GOOD
    return [
        Case(
            "msprobe-data-name-outside",
            "msprobe",
            _ms_case(
                {
                    "abs": "{outside}/secret.npy",
                    "up": "../../../../outside/secret.npy",
                    "link": "link.npy",
                    "sub": "leak/secret.npy",
                    "nul": "a\0.npy",
                    "etc": "/etc/passwd",
                },
                _ms_outside_links,
            ),
            good,
        ),
        Case("msprobe-rank-and-dump-json-link-out", "msprobe", _ms_case(None, _ms_links_out), good),
        Case("msprobe-looping-step-links", "msprobe", _ms_case(None, _ms_step_loop), good),
        Case("msprobe-unreadable-tensor-files", "msprobe", _ms_case(_MS_UNREADABLE, _ms_unreadable), good),
        Case("msprobe-json-100k-deep", "msprobe", _ms_case({"deep": "deep.npy"}, _ms_deep), good),
        Case("msprobe-dump-json-cut-short", "msprobe", _ms_case({"cut": "cut.npy"}, _ms_cut_short), good),
        Case("pt-zip-bomb-256mib", "msprobe", _pt_case(_pt_zip_bomb), good),
        Case("pt-zip-bomb-lying-directory", "msprobe", _pt_case(_pt_zip_bomb_lying), good),
        Case("pt-data-pkl-bomb-256mib", "msprobe", _pt_case(_pt_pickle_bomb), good),
        Case("pt-stride-0-view-1.6gb", "msprobe", _pt_case(_pt_stride0), good),
        Case("pt-view-past-storage", "msprobe", _pt_case(_pt_odd), good),
        Case("pt-corrupt-deflate", "msprobe", _pt_case(_pt_corrupt), good),
        Case(
            "msprobe-100k-entries-66mb",
            "msprobe",
            _ms_many,
            ("Functional.linear.0.forward.input.0", "Functional.linear.99999.forward.output.0"),
            fast=False,
        ),
    ]


# ----------------------------------------------------------------- the corpus


def cases() -> list[Case]:
    """Every case of the corpus (fast and slow)."""
    hdr = _header_case
    return [
        Case("npy-header-braces", "npy-dir", hdr(b"{{{{")),
        Case(
            "npy-dim-2**63",
            "npy-dir",
            hdr(b"{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775808,), }"),
        ),
        Case(
            "npy-dim-negative", "npy-dir", hdr(b"{'descr': '<f4', 'fortran_order': False, 'shape': (-4,), }")
        ),
        Case(
            "npy-shape-huge-product",
            "npy-dir",
            hdr(b"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
        ),
        Case(
            "npy-header-code",
            "npy-dir",
            hdr(b"{'descr': __import__('os').system('true'), 'fortran_order': False, 'shape': (1,), }"),
        ),
        Case("npy-header-not-dict", "npy-dir", hdr(b"[1, 2, 3]")),
        Case(
            "npy-descr-junk", "npy-dir", hdr(b"{'descr': '<q9999', 'fortran_order': False, 'shape': (1,), }")
        ),
        Case(
            "npy-truncated", "npy-dir", hdr(b"{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }")
        ),
        Case("npy-bit-flips", "npy-dir", _bitflips),
        Case("npy-pickled-object", "npy-dir", _pickled),
        Case(
            "npy-odd-dtypes-and-empty",
            "npy-dir",
            _odd_dtypes,
            good=(*GOOD, "empty", "scalar", "f16", "bool", "i8", "c64", "u64", "fortran"),
        ),
        Case("manifest-paths-outside", "npy-dir", _manifest_outside),
        Case("symlinks-leading-out", "npy-dir", _symlinks_out, good=(*GOOD, "alias")),
        Case("manifest-bad-fields", "npy-dir", _manifest_bad_fields),
        Case("manifest-junk-top-level-fields", "npy-dir", _manifest_junk_fields),
        Case(
            "manifest-unreadable-fallback-decodes",
            "npy-dir",
            _manifest_unreadable,
            good=("enc/a:0", "enc/b:1", "plain"),
        ),
        Case("manifest-json-100k-deep", "npy-dir", _manifest_deep),
        Case("fifo-in-dump", "npy-dir", _fifo),
        Case("mapping-csv-200k-field", "npy-dir", _mapping_big_field, good=(*GOOD, "long")),
        Case("folder-nested-1100-deep", "npy-dir", _nested_deep),
        Case("odd-entries-folder-empty-text-strings", "npy-dir", _odd_entries),
        Case("manifest-empty-file", "npy-dir", _manifest_empty),
        Case("manifest-utf16", "npy-dir", _manifest_bom_utf16),
        Case("npz-not-a-zip", "npz", _npz_not_zip, good=()),
        Case("npz-odd-member-names", "npz", _npz_odd_members),
        Case(
            "ascend-header-beyond-file",
            "ascend-dump",
            _ascend_case(_ascend_header_beyond),
            commands=("compare", "diagnose", "overflow"),
        ),
        Case("sigmastar-empty-file", "sigmastar", _sg_empty_file, good=()),
        Case("manifest-100k-entries", "npy-dir", _many_manifest, fast=False),
        Case("npz-encrypted-member", "npz", _npz_case(_set_flag)),
        Case("npz-unknown-compression", "npz", _npz_case(_set_method)),
        Case("npz-corrupt-deflate", "npz", _npz_case(_corrupt_data)),
        Case("npz-claims-4gb-in-directory", "npz", _npz_case(_claim_400gb)),
        Case("npz-header-claims-400gb", "npz", _npz_case(None, bomb_header=True)),
        Case("npz-4000-members", "npz", _npz_many, good=("t0", "t1999", "t3999"), fast=False),
        Case("polygraphy-claims-400gb", "polygraphy", _poly_case({"bomb": _encoded(_CLAIM_400GB)})),
        Case(
            "polygraphy-bad-base64",
            "polygraphy",
            _poly_case({"junk": {"array": "!!!notbase64", "polygraphy_class": "ndarray"}}),
        ),
        Case(
            "polygraphy-header-braces",
            "polygraphy",
            _poly_case({"braces": _encoded(npy_with_header(b"{{{{"))}),
        ),
        Case(
            "polygraphy-json-100k-deep",
            "polygraphy",
            _poly_case(None, raw_text='{"lst": [["r", ' + "[" * 100_000 + "]" * 100_000 + "]]}"),
            good=(),
        ),
        Case(
            "sigmastar-40-digit-dim",
            "sigmastar",
            _sg_case(
                b"//out 0 s: 1 z: 0 type: float name: huge bConstant:0 "
                b"shape:[1234567890123456789012345678901234567890] dims:1\n"
                b"op_out[9] h = {\n//buffer data size: 4\n\0\0\0\0\n};\n"
            ),
        ),
        Case(
            "sigmastar-80k-spaces",
            "sigmastar",
            _sg_case(
                b"//out 0 s: 1 z: 0 type: float name: "
                + b" " * 80_000
                + b"x\n"
                + b"op_out[1] "
                + b" " * 80_000
                + b"\n"
            ),
        ),
        Case(
            "sigmastar-truncated",
            "sigmastar",
            _sg_case(
                b"//out 0 s: 1 z: 0 type: float name: cut bConstant:0 shape:[1000] dims:1\nop_out[9] c = "
                b"{\n//buffer data size: 4000\n\0\0"
            ),
        ),
        Case("sigmastar-40mb-text", "sigmastar", _sg_big_text, good=(*GOOD, "big"), fast=False),
        Case(
            "ascend-nc1hwc0-nhwc-short-shape",
            "ascend-dump",
            _ascend_case(_ascend_nhwc_short),
            commands=("compare", "diagnose", "overflow"),
        ),
        Case(
            "ascend-garbage-headers",
            "ascend-dump",
            _ascend_case(_ascend_garbage),
            commands=("compare", "diagnose", "overflow"),
        ),
        Case(
            "ascend-fifo",
            "ascend-dump",
            _ascend_case(_ascend_fifo),
            commands=("compare", "diagnose", "overflow"),
        ),
        Case(
            "ascend-nested-1100-deep",
            "ascend-dump",
            _ascend_case(_ascend_deep),
            commands=("compare", "diagnose", "overflow"),
        ),
        *msprobe_cases(),
    ]


def fast_cases() -> list[Case]:
    return [c for c in cases() if c.fast]


# ----------------------------------------------------------------- --cache and --scheduler (issue 21)
#
# A cache case primes ``compare --cache`` twice on a clean pair, then ``spoil`` plays the other
# user (or a careless writer) on the target folder, the index or the key; the judged run with
# ``--cache`` must give the verdict a run without the cache gives (else a *forged verdict*),
# without hanging and without touching ``outside/``.  A scheduler case must end with one
# line naming the option, and exit 2.

CACHE_FAILING = "b"


@dataclass(frozen=True)
class CacheCase:
    """``spoil(golden, target, config)`` after two primed ``--cache`` runs; ``extra`` options
    for the judged run (and the fresh run it is checked against)."""

    name: str
    spoil: Callable[[Path, Path, Path], None]
    extra: tuple[str, ...] = ()


def cache_pair(folder: Path) -> tuple[Path, Path]:
    """Golden and an fp16 target of the same tensors: every row healthy."""
    golden = npy_dir(folder / "golden")
    target = folder / "target"
    target.mkdir(parents=True, exist_ok=True)
    for n in GOOD:
        np.save(target / f"{n}.npy", good_array(n).astype(np.float16))
    return golden, target


def _cache_index(target: Path, kind: str = "index") -> Path:
    return next(target.glob(f".dumpscope-{kind}-*.parquet"))


def _rewrite_same_size_mtime(golden: Path, target: Path, _config: Path) -> None:
    path = target / f"{CACHE_FAILING}.npy"
    before = path.stat()
    buf = io.BytesIO()
    np.save(buf, (-good_array(CACHE_FAILING)).astype(np.float16))
    with open(path, "r+b") as fh:
        fh.write(buf.getvalue())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _failing_then(edit: Callable[[Path, Path], None]) -> Callable[[Path, Path, Path], None]:
    """The target made to fail, its true rows stored by a third primed run, then ``edit(index, config)``."""

    def spoil(golden: Path, target: Path, config: Path) -> None:
        import subprocess
        import sys

        np.save(target / f"{CACHE_FAILING}.npy", (-good_array(CACHE_FAILING)).astype(np.float16))
        subprocess.run(
            [
                sys.executable,
                "-m",
                "dumpscope",
                "compare",
                str(golden),
                str(target),
                "--cache",
                "--format",
                "json",
            ],
            capture_output=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "DUMPSCOPE_CONFIG_DIR": str(config)},
        )
        edit(_cache_index(target), config)

    return spoil


def _perfect_rows(index: Path) -> tuple[bytes, bytes, bytes]:
    """The index's head, its rows rewritten as perfect matches (keys kept), and its digests part."""
    import polars as pl

    from dumpscope.core.comparison import cache

    data = index.read_bytes()
    n_rows, _n = cache._HEAD.unpack_from(data, len(cache.MAGIC))
    body = data[len(cache.MAGIC) + cache._HEAD.size + 32 :]
    rows = pl.read_parquet(io.BytesIO(body[:n_rows])).with_columns(
        pl.lit(1.0).alias("cosine_similarity"),
        pl.lit(0.0).alias("max_absolute_error"),
        pl.lit(0.0).alias("relative_euclidean_distance"),
        pl.lit("ok").alias("health"),
    )
    out = io.BytesIO()
    rows.write_parquet(out)
    head = cache.MAGIC + cache._HEAD.pack(len(out.getvalue()), len(body) - n_rows)
    return head, out.getvalue(), body[n_rows:]


def _edited_unsigned(index: Path, _config: Path) -> None:
    head, rows, digests = _perfect_rows(index)
    index.write_bytes(head + index.read_bytes()[len(head) : len(head) + 32] + rows + digests)


def _edited_resigned(index: Path, _config: Path) -> None:
    import hashlib

    head, rows, digests = _perfect_rows(index)
    index.write_bytes(head + hashlib.blake2b(head + rows + digests, digest_size=32).digest() + rows + digests)


def _old_format(index: Path, _config: Path) -> None:
    import polars as pl

    target = index.parent
    pl.DataFrame(
        {
            "_key": [f"{target / CACHE_FAILING}.npy:|1|2"],
            "_run": ["x"],
            "cosine_similarity": [1.0],
            "status": ["computed"],
        }
    ).write_parquet(index)


def _plant_at_index(kind: str) -> Callable[[Path, Path, Path], None]:
    def spoil(golden: Path, target: Path, config: Path) -> None:
        for which in ("index", "frame"):
            path = _cache_index(target, which)
            path.unlink()
            if kind == "fifo":
                os.mkfifo(path)
            elif kind == "symlink-out":
                path.symlink_to(target.parent / "outside" / "notes.txt")
            elif kind == "folder":
                path.mkdir()
            elif kind == "huge":
                with open(path, "wb") as fh:
                    fh.truncate(3 << 30)  # sparse: 3 GB claimed, nothing on disk
            elif kind == "900mb-signed-looking":  # under the size cap, a consistent head: a bad signature
                from dumpscope.core.comparison import cache

                size = 900 << 20
                head = cache.MAGIC + cache._HEAD.pack(size - len(cache.MAGIC) - cache._HEAD.size - 32, 0)
                with open(path, "wb") as fh:
                    fh.write(head + b"\0" * 32)
                    fh.truncate(size)
        _rewrite_same_size_mtime(golden, target, config)

    return spoil


def _key_readable(golden: Path, target: Path, config: Path) -> None:
    (config / "cache-key").chmod(0o644)
    _rewrite_same_size_mtime(golden, target, config)


def _another_pairs_index(golden: Path, target: Path, config: Path) -> None:
    """The index of a healthy copy of the pair, moved under this pair's name."""
    import shutil
    import subprocess
    import sys

    from dumpscope.core.comparison.cache import _index_path

    copy = target.parent / "copy"
    shutil.copytree(target, copy)
    subprocess.run(
        [sys.executable, "-m", "dumpscope", "compare", str(golden), str(copy), "--cache"],
        capture_output=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "DUMPSCOPE_CONFIG_DIR": str(config)},
    )
    _rewrite_same_size_mtime(golden, target, config)
    shutil.copy(_index_path(golden, copy), _index_path(golden, target))


def _nothing(golden: Path, target: Path, config: Path) -> None:
    _rewrite_same_size_mtime(golden, target, config)


def cache_cases() -> list[CacheCase]:
    return [
        CacheCase("cache-rewrite-same-size-mtime", _rewrite_same_size_mtime),
        CacheCase("cache-index-edited-unsigned", _failing_then(_edited_unsigned)),
        CacheCase("cache-index-resigned-naive-checksum", _failing_then(_edited_resigned)),
        CacheCase("cache-index-old-format", _failing_then(_old_format)),
        CacheCase("cache-index-fifo", _plant_at_index("fifo")),
        CacheCase("cache-index-symlink-outside", _plant_at_index("symlink-out")),
        CacheCase("cache-index-is-a-folder", _plant_at_index("folder")),
        CacheCase("cache-index-3gb-sparse", _plant_at_index("huge")),
        CacheCase("cache-index-900mb-head-consistent", _plant_at_index("900mb-signed-looking")),
        CacheCase("cache-key-readable-by-others", _key_readable),
        CacheCase("cache-index-of-another-pair", _another_pairs_index),
        CacheCase("cache-threshold-changed", _nothing, ("--threshold", "cosine_similarity=0.9999999")),
    ]


@dataclass(frozen=True)
class SchedulerCase:
    """``--scheduler`` options for ``compare``; ``greeting``: a foreign 127.0.0.1 server sends
    this (b"" nothing) and its address is given; ``no_dask``: distributed cannot be imported."""

    name: str
    options: tuple[str, ...] = ()
    greeting: bytes | None = None
    no_dask: bool = False


def scheduler_cases() -> list[SchedulerCase]:
    return [
        SchedulerCase("scheduler-bad-address", ("--scheduler", "not an address")),
        SchedulerCase("scheduler-port-99999", ("--scheduler", "tcp://127.0.0.1:99999")),
        SchedulerCase("scheduler-escape-in-address", ("--scheduler", "tcp://\x1b]0;x\x07:1")),
        SchedulerCase("scheduler-refused", ("--scheduler", "tcp://127.0.0.1:1")),
        SchedulerCase("scheduler-silent-server", ("--scheduler-timeout", "1"), greeting=b""),
        SchedulerCase(
            "scheduler-http-server",
            ("--scheduler-timeout", "2"),
            greeting=b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
        ),
        SchedulerCase("scheduler-claims-2**63-bytes", ("--scheduler-timeout", "2"), greeting=b"\xff" * 16),
        SchedulerCase("scheduler-timeout-nan", ("--scheduler", "127.0.0.1:1", "--scheduler-timeout", "nan")),
        SchedulerCase("scheduler-dask-missing", ("--scheduler", "tcp://127.0.0.1:8786"), no_dask=True),
    ]
