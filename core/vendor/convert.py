"""Raw Ascend dumps to ``.npy`` or ``.txt`` files, named as ``msaccucmp.py convert`` names them.

Seed 002's step: ``msaccucmp.py convert -d DUMP -out DIR`` writes, for every dump file,
``{dump file name}.input.{i}.npy`` and ``{dump file name}.output.{i}.npy`` with the data
in its *device* shape (e.g. 5-D NC1HWC0; msaccucmp reshapes to the original shape only
with ``-f``), and the seed then turns a tensor into ``.txt`` with ``np.savetxt`` of the
flattened array: one value per line, no shape, no dtype.  :func:`convert_dump` does both
without CANN.  A file that is not an Ascend dump, or a tensor that cannot be read, costs
one problem line; the rest goes on.  Overflow records (``Opdebug.Node_OpDebug.*``) are
not tensors: they are listed as problems pointing at ``dumpscope overflow``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from dumpscope.core.atomic import atomic_binary, save_npy
from dumpscope.core.formats import ascend_dump
from dumpscope.core.formats.ascend_dump import OPDEBUG_PREFIX, DumpFileError, DumpHeader, TensorDesc

__all__ = ["TYPES", "ConvertResult", "convert_dump", "output_name"]

#: ``--type`` values.
TYPES: tuple[str, ...] = ("npy", "txt")


@dataclass
class ConvertResult:
    """What a conversion wrote, and what it could not convert (one line each)."""

    written: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def output_name(dump_file: str, role: str, index: int, kind: str) -> str:
    """msaccucmp's name: ``{dump file}.{input|output}.{i}.{npy|txt}``."""
    return f"{dump_file}.{role}.{index}.{kind}"


def _save_txt(path: Path, arr: np.ndarray) -> None:
    """``np.savetxt`` of the flattened values (half floats widened, as the seed's script does)."""
    flat = arr.reshape(-1)
    with atomic_binary(path) as fh:
        np.savetxt(fh, flat.astype(np.float64) if flat.dtype.kind == "f" and flat.itemsize < 4 else flat)


#: ``--type`` -> how one tensor is written.
_SAVERS = {"npy": save_npy, "txt": _save_txt}


def _tensor(header: DumpHeader, desc: TensorDesc) -> np.ndarray:
    problem = ascend_dump.tensor_problem(desc, header.file_size)
    if problem and "not converted" not in problem:
        raise ValueError(problem)
    return np.asarray(ascend_dump.read_raw(header, desc)).reshape(desc.shape)


def _convert_file(path: Path, out: Path, kind: str, result: ConvertResult) -> None:
    if path.name.startswith(OPDEBUG_PREFIX):
        result.problems.append(
            f"{path.name}: an overflow record, not tensors (read it with `dumpscope overflow`)"
        )
        return
    try:
        header = ascend_dump.parse_header(path)
    except DumpFileError as exc:
        result.problems.append(f"{path.name}: {exc}")
        return
    for desc in (*header.role("input"), *header.role("output")):
        _convert_tensor(header, desc, out, kind, result)


def _convert_tensor(
    header: DumpHeader, desc: TensorDesc, out: Path, kind: str, result: ConvertResult
) -> None:
    """Write one tensor (or note why it cannot be)."""
    name = header.path.name
    target = out / output_name(name, desc.role, desc.index, kind)
    try:
        _SAVERS[kind](target, _tensor(header, desc))
    except (ValueError, TypeError, OSError) as exc:  # ascend_layout.LayoutError is a ValueError
        result.problems.append(f"{name}: {desc.role} {desc.index}: {exc}")
        return
    result.written.append(target)


def _files(src: Path) -> list[Path]:
    """``src`` itself, or every regular file under it (hidden ones skipped), in name order."""
    if src.is_file():
        return [src]
    return sorted(
        p
        for p in src.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(src).parts)
    )


def convert_dump(src: str | Path, out_dir: str | Path, kind: str = "npy") -> ConvertResult:
    """Convert the Ascend dump file ``src`` (or every dump file under the folder ``src``) into ``out_dir``."""
    if kind not in TYPES:
        raise ValueError(f"type {kind!r}: choose from {', '.join(TYPES)}")
    src_path, out = Path(src), Path(out_dir)
    if not src_path.exists():
        raise FileNotFoundError(f"{src_path}: no such file or directory")
    if not (src_path.is_file() or src_path.is_dir()):
        raise FileNotFoundError(
            f"{src_path}: not a dump file or folder (a FIFO, a socket or a device); not opened"
        )
    out.mkdir(parents=True, exist_ok=True)
    result = ConvertResult()
    for path in _files(src_path):
        _convert_file(path, out, kind, result)
    return result
