"""SigmaStar simulator outputs: the ``log/output`` (or ``output``) folder that
``simulator.py`` writes for a float.sim, fixed.sim or offline (``*_sgsimg.img``) model,
and the board results an RPC run writes back (SigmaStar IPU guide §4).

Each ``unknown_<model>_<image>.txt`` file holds the model's outputs as text blocks::

    <tensor name> Tensor:
    {
    tensor dim:4,  Original shape:[1 10 10 3]
    tensor data:
    0.123456  -1.500000  ... (16 values per line, two spaces apart)
    }

A fixed/offline output not cleaned of garbage says ``Alignment shape:[...]`` too and
prints the data in that (padded) shape; the tensor is its leading ``Original shape``
corner.  Several images give several files: tensors are then named
``<image>/<tensor>``, the image taken from the file name after the model's
``.sim_``/``.img_`` part, so the fixed.sim and the offline folders pair up.
(Layout from SGS_IPU_SDK ``Scripts/calibrator/utils/misc.py`` ``postUnknown``.)
"""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import numpy as np

from dumpscope.core.atomic import write_text
from dumpscope.core.dumps import Dump, DumpError, DumpProblem, TensorInfo, TensorRef
from dumpscope.core.formats.safe_fs import list_folder

NAME = "sgs-output"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = (
    "a SigmaStar simulator/board output folder (log/output) of unknown_<model>_<image>.txt files "
    "holding '<name> Tensor:' blocks"
)

_BLOCK = re.compile(
    r"^(?P<name>.+?) Tensor:\s*\n\{\s*\ntensor dim:\s*(?P<dim>\d+),\s*Original shape:\[(?P<shape>[^\]]*)\]"
    r"(?:,\s*Alignment shape:\[(?P<align>[^\]]*)\])?.*?\ntensor data:\s*\n(?P<data>[^}]*)\}",
    re.MULTILINE | re.DOTALL,
)
_MODEL_END = re.compile(r"\.(?:sim|img)_")


def _folder(path: Path) -> Path | None:
    """The folder holding ``unknown_*.txt`` files: ``path``, its ``output`` or ``log/output``."""
    for p in (path, path / "output", path / "log" / "output"):
        if p.is_dir() and _has_outputs(p):
            return p
    return None


def _has_outputs(folder: Path) -> bool:
    """An ``unknown_*.txt`` name in ``folder`` (its shared listing; no for a folder not listable)."""
    try:
        return any(n.startswith("unknown_") and n.endswith(".txt") for n in list_folder(folder)[0])
    except OSError:
        return False


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    folder = _folder(path)
    return sorted(folder.glob("unknown_*.txt")) if folder else []


def sniff(path: Path) -> float:
    try:
        return 0.9 if _has_tensor_block(path) else 0.0
    except OSError:
        return 0.0


def _has_tensor_block(path: Path) -> bool:
    """The first output file (an ``unknown_*.txt`` when named directly) shows a ``Tensor:`` block."""
    files = _files(path)
    if not files or (path.is_file() and not path.name.startswith("unknown_")):
        return False
    with files[0].open("rb") as fh:
        return b" Tensor:" in fh.read(4096)


def image_of(file: Path) -> str:
    """The image part of ``unknown_<model>_<image>.txt``."""
    stem = file.name.removeprefix("unknown_").removesuffix(".txt")
    parts = _MODEL_END.split(stem)
    return parts[-1] if len(parts) > 1 else stem


def _shape(text: str | None) -> tuple[int, ...]:
    return tuple(int(d) for d in (text or "").replace(",", " ").split())


def load_block(
    path: Path, start: int, end: int, shape: tuple[int, ...], aligned: tuple[int, ...]
) -> np.ndarray:
    """The values of one block, cut from the alignment shape to the original one."""
    text = path.read_text(encoding="utf-8", errors="replace")[start:end]
    values = np.array(text.split(), dtype=np.float64).astype(np.float32)
    full = aligned or shape
    need = int(np.prod(full))
    if values.size < need:
        raise ValueError(f"block holds {values.size} values, shape {list(full)} needs {need}")
    data = values[:need].reshape(full)
    if len(full) == len(shape):  # the original corner of the padded data (the whole of unpadded data)
        data = data[tuple(slice(0, d) for d in shape)]
    return np.ascontiguousarray(data).reshape(shape)


def _blocks(file: Path, prefix: str, problems: list[DumpProblem]) -> list[tuple[str, TensorRef]]:
    text = file.read_text(encoding="utf-8", errors="replace")
    out = []
    for k, m in enumerate(_BLOCK.finditer(text)):
        block = _block_ref(file, prefix, k, m, problems)
        if block is not None:
            out.append(block)
    if not out:
        problems.append(DumpProblem(str(file), "no '<name> Tensor:' block in this simulator output"))
    return out


def _block_ref(
    file: Path, prefix: str, k: int, m: re.Match[str], problems: list[DumpProblem]
) -> tuple[str, TensorRef] | None:
    """The ``k``-th block of a file as a named tensor row (None, and a problem, for a bad shape)."""
    try:
        shape, aligned = _shape(m["shape"]), _shape(m["align"])
    except ValueError:
        problems.append(
            DumpProblem(str(file), f"tensor {m['name']!r}: shape [{m['shape']}] is not a list of integers")
        )
        return None
    name = prefix + m["name"].strip()
    extra = (("layout", "NHWC"),) if len(shape) == 4 else ()
    info = TensorInfo(
        name=name,
        dtype="float32",
        shape=shape,
        topo_index=k,
        kind="activation",
        source=f"{file}@{m.start('data')}",
        order=float(k),
        extra=extra,
    )
    return name, TensorRef(info, partial(load_block, file, m.start("data"), m.end("data"), shape, aligned))


def open(path: Path) -> Dump:  # noqa: A001 - the format-module protocol names it `open`
    path = Path(path)
    files = _files(path)
    if not files:
        raise DumpError(f"{path}: no SigmaStar simulator output (unknown_*.txt in log/output)")
    problems: list[DumpProblem] = []
    tensors = _read_files(files, problems)
    if not tensors and not problems:
        raise DumpError(f"{path}: SigmaStar simulator output without tensors")
    return Dump(
        path=path, format=NAME, tensors=tensors, problems=problems, meta={"files": [str(f) for f in files]}
    )


def _read_files(files: list[Path], problems: list[DumpProblem]) -> dict[str, TensorRef]:
    """The tensors of every output file (named ``<image>/<tensor>`` when there are several)."""
    tensors: dict[str, TensorRef] = {}
    for file in files:
        prefix = f"{image_of(file)}/" if len(files) > 1 else ""
        tensors.update(_read_blocks(file, prefix, problems))
    return tensors


def _read_blocks(file: Path, prefix: str, problems: list[DumpProblem]) -> list[tuple[str, TensorRef]]:
    try:
        return _blocks(file, prefix, problems)
    except OSError as exc:
        problems.append(DumpProblem(str(file), f"cannot read: {exc.strerror or exc}"))
        return []


def write_output(folder: Path, model: str, image: str, tensors: dict[str, np.ndarray]) -> Path:
    """Write one ``unknown_<model>_<image>.txt`` as simulator.py does (test fixtures)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for name, data in tensors.items():
        flat = np.asarray(data, dtype=np.float64).reshape(-1)
        shape = " ".join(str(d) for d in data.shape)
        lines += [
            f"{name} Tensor:",
            "{",
            f"tensor dim:{data.ndim},  Original shape:[{shape}]",
            "tensor data:",
        ]
        lines += ["".join(f"{v:.6f}  " for v in flat[i : i + 16].tolist()) for i in range(0, flat.size, 16)]
        lines += ["}", ""]
    out = folder / f"unknown_{model}_{image}.txt"
    write_text("\n".join(lines) + "\n", out)
    return out
