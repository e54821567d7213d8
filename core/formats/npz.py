"""An ``.npz`` archive: one tensor per member, read lazily, never unpickled."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from dumpscope.core.formats.npyfile import read_header
from dumpscope.core.dumps import Dump, DumpError, DumpProblem, TensorInfo, TensorReadError, TensorRef

NAME = "npz"


def sniff(path: Path) -> float:
    try:
        if not path.is_file():
            return 0.0
        with path.open("rb") as f:
            magic = f.read(4)
    except OSError:
        return 0.0
    if magic[:2] != b"PK":
        return 0.0
    return 0.9 if path.suffix == ".npz" else 0.3


def open(path: Path) -> Dump:  # noqa: A001 - the format protocol's name
    try:
        archive = zipfile.ZipFile(path)
        members = archive.infolist()
    except (OSError, zipfile.BadZipFile) as exc:
        raise DumpError(f"{path}: not a readable .npz archive ({exc})") from None
    tensors: dict[str, TensorRef] = {}
    problems: list[DumpProblem] = []
    for order, member in enumerate(members):
        if member.is_dir():
            continue
        if not member.filename.endswith(".npy"):
            problems.append(DumpProblem(f"{path}:{member.filename}", "not an .npy member; ignored"))
            continue
        name = member.filename[: -len(".npy")]
        source = f"{path}:{member.filename}"
        try:
            with archive.open(member) as f:
                shape, _fortran, dtype = read_header(f)  # type: ignore[arg-type]
        except (TensorReadError, OSError, zipfile.BadZipFile, EOFError) as exc:
            tensors[name] = TensorRef(TensorInfo(name=name, source=source, order=order), None, f"{member.filename}: {exc}")
            continue
        info = TensorInfo(name=name, dtype=dtype.name, shape=shape, source=source, order=float(order))
        tensors[name] = TensorRef(info, _loader(path, member.filename))
    if not tensors and not problems:
        raise DumpError(f"{path}: the archive holds no tensors")
    return Dump(path=path, format=NAME, tensors=tensors, problems=problems, meta={"order_source": "archive order"})


def _loader(path: Path, member: str):  # type: ignore[no-untyped-def]
    def load() -> np.ndarray:
        try:
            with zipfile.ZipFile(path) as archive, archive.open(member) as f:
                return np.lib.format.read_array(f, allow_pickle=False)  # type: ignore[arg-type]
        except (zipfile.BadZipFile, EOFError, ValueError) as exc:
            raise TensorReadError(f"{path}:{member}: {exc}") from None

    return load
