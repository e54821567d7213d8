"""Safe ``.npy`` access: header checks without reading data, lazy memory-mapped loads.

Never unpickles: an object array is refused at header time with a clear message.
"""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np
from numpy.lib import format as npformat

from dumpscope.core.model import TensorReadError

_BF16_NAMES = {"bfloat16"}
#: The header numpy itself writes for a simple dtype; anything else goes to numpy's parser.
_SIMPLE_HEADER = re.compile(
    r"\{'descr': '([<>|=][a-zA-Z]\d{0,2})', 'fortran_order': (True|False), 'shape': \(((?:\d+, ?)*\d*)\), \}\s*"
)
#: Data smaller than this is read into memory; a memory map costs more to set up.
MMAP_MIN_BYTES = 1 << 16


def read_header(f: BinaryIO) -> tuple[tuple[int, ...], bool, np.dtype]:
    """Read an ``.npy`` header from ``f``; raise TensorReadError with the reason.

    numpy's own parser runs ``ast.literal_eval`` (about 50 us a file); the header numpy
    writes for plain dtypes is parsed here by a strict pattern first, which matters
    for dumps of tens of thousands of tensors.
    """
    start = f.tell()
    fast = _fast_header(f)
    if fast is not None:
        return fast
    f.seek(start)
    try:
        version = npformat.read_magic(f)
    except ValueError as exc:
        raise TensorReadError(f"not an .npy file ({exc})") from None
    try:
        if version == (1, 0):
            shape, fortran, dtype = npformat.read_array_header_1_0(f, max_header_size=1 << 20)
        elif version in ((2, 0), (3, 0)):
            shape, fortran, dtype = npformat.read_array_header_2_0(f, max_header_size=1 << 20)
        else:
            raise TensorReadError(f"unsupported .npy version {version}")
    except (ValueError, SyntaxError, EOFError) as exc:
        raise TensorReadError(f"corrupt .npy header ({exc})") from None
    if dtype.hasobject:
        raise TensorReadError("holds a pickled object array; refused (dumpscope never unpickles)")
    return tuple(int(d) for d in shape), bool(fortran), dtype


def _fast_header(f: BinaryIO) -> tuple[tuple[int, ...], bool, np.dtype] | None:
    head = f.read(10)
    if len(head) < 10 or head[:6] != b"\x93NUMPY" or head[6] != 1:
        return None
    (length,) = struct.unpack("<H", head[8:10])
    text = f.read(length)
    m = _SIMPLE_HEADER.fullmatch(text.decode("latin-1")) if len(text) == length else None
    if m is None:
        return None
    try:
        dtype = np.dtype(m[1])
    except TypeError:
        return None
    if dtype.hasobject:
        return None  # numpy's path raises the refusal with its message
    shape = tuple(int(d) for d in m[3].replace(" ", "").split(",") if d)
    return shape, m[2] == "True", dtype


def resolve_dtype(dtype: np.dtype, declared: str | None) -> np.dtype:
    """The real dtype: ``.npy`` stores bfloat16 as an anonymous 2-byte void type."""
    if declared in _BF16_NAMES and dtype.kind == "V" and dtype.itemsize == 2:
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return dtype


def inspect_npy(path: Path, declared_dtype: str | None = None) -> tuple[tuple[int, ...], np.dtype, int, bool]:
    """Shape, dtype, data offset and Fortran order of an ``.npy`` file.

    Checks that the file holds all the data its header promises.
    """
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            shape, fortran, dtype = read_header(f)
            offset = f.tell()
    except OSError as exc:
        raise TensorReadError(f"cannot read: {exc.strerror or exc}") from None
    dtype = resolve_dtype(dtype, declared_dtype)
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    need = offset + count * dtype.itemsize
    if size < need:
        raise TensorReadError(
            f"truncated: header promises {count} x {dtype.name} ({need - offset} bytes of data) "
            f"but the file has {max(size - offset, 0)}"
        )
    return shape, dtype, offset, fortran


def npy_loader(path: Path, shape: tuple[int, ...], dtype: np.dtype, offset: int, fortran: bool = False) -> Callable[[], np.ndarray]:
    """A loader that memory-maps the data (read-only) when it is called."""

    def load() -> np.ndarray:
        count = int(np.prod(shape)) if shape else 1
        if count * dtype.itemsize < MMAP_MIN_BYTES:  # mmap cannot map zero bytes, and costs more for small data
            with open(path, "rb") as f:
                f.seek(offset)
                data = np.frombuffer(f.read(dtype.itemsize * count), dtype=dtype)
            return data.reshape(shape, order="F" if fortran else "C")
        try:
            return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape, order="F" if fortran else "C")
        except OSError as exc:
            raise TensorReadError(f"{path}: cannot map: {exc.strerror or exc}") from None

    return load


def open_npy(path: Path, declared_dtype: str | None = None) -> tuple[tuple[int, ...], np.dtype, Callable[[], np.ndarray]]:
    """Header facts plus a lazy loader; raises TensorReadError for an unusable file."""
    shape, dtype, offset, fortran = inspect_npy(path, declared_dtype)
    return shape, dtype, npy_loader(path, shape, dtype, offset, fortran)
