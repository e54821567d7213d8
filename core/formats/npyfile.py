"""Safe ``.npy`` access: header checks without reading data, lazy memory-mapped loads.

Never unpickles: an object array is refused at header time with a clear message.
"""

from __future__ import annotations

import functools
import io
import math
import mmap
import os
import re
import struct
from pathlib import Path
from typing import BinaryIO

import numpy as np
from numpy.lib import format as npformat

from dumpscope.core.dumps import TensorReadError

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
    shape, fortran, dtype = _numpy_header(f)
    if dtype.hasobject:
        raise TensorReadError("holds a pickled object array; refused (dumpscope never unpickles)")
    return check_shape(shape), bool(fortran), dtype


#: .npy format version -> numpy's reader of that header.
_HEADER_READERS = {
    (1, 0): npformat.read_array_header_1_0,
    (2, 0): npformat.read_array_header_2_0,
    (3, 0): npformat.read_array_header_2_0,
}


def _numpy_header(f: BinaryIO) -> tuple[object, bool, np.dtype]:
    """``(shape, fortran, dtype)`` by numpy's own header parser (any version, any dtype)."""
    try:
        version = npformat.read_magic(f)
    except ValueError as exc:
        raise TensorReadError(f"not an .npy file ({exc})") from None
    reader = _HEADER_READERS.get(version)
    if reader is None:
        raise TensorReadError(f"unsupported .npy version {version}")
    try:
        return reader(f, max_header_size=1 << 20)  # type: ignore[no-any-return]
    except Exception as exc:  # noqa: BLE001 - numpy's parser raises tokenizer and AST errors too
        raise TensorReadError(f"corrupt .npy header ({type(exc).__name__}: {str(exc)[:200]})") from None


#: No dump holds more elements than this (2**48: 256 T elements); larger headers are corrupt.
MAX_ELEMENTS = 1 << 48


def check_shape(shape: object) -> tuple[int, ...]:
    """``shape`` as a tuple of ints, or TensorReadError for a negative or absurd shape."""
    if not isinstance(shape, tuple) or not all(isinstance(d, int) for d in shape):
        raise TensorReadError(f"corrupt .npy header: shape {str(shape)[:100]} is not a tuple of integers")
    if any(d < 0 for d in shape):
        raise TensorReadError(f"corrupt .npy header: negative dimension in shape {list(shape)[:16]}")
    if any(d > MAX_ELEMENTS for d in shape) or math.prod(shape) > MAX_ELEMENTS:
        raise TensorReadError(f"corrupt .npy header: shape {str(list(shape))[:200]} claims more than 2**48 elements")
    return tuple(int(d) for d in shape)


def _v1_header_end(head: bytes) -> int | None:
    """Where the header ends (10 + its length field) when ``head`` starts a version-1 ``.npy``; else None."""
    if len(head) < 10 or head[:6] != b"\x93NUMPY" or head[6] != 1:
        return None
    return 10 + struct.unpack("<H", head[8:10])[0]


def _fast_header(f: BinaryIO) -> tuple[tuple[int, ...], bool, np.dtype] | None:
    """The header numpy writes for a plain dtype, parsed by :data:`_SIMPLE_HEADER`; None for any other."""
    m = _simple_header(f)
    dtype = _simple_dtype(m[1]) if m is not None else None
    if dtype is None:
        return None
    shape = tuple(int(d) for d in m[3].replace(" ", "").split(",") if d)  # type: ignore[index]
    return check_shape(shape), m[2] == "True", dtype  # type: ignore[index]


def _simple_header(f: BinaryIO) -> re.Match[str] | None:
    head = f.read(10)
    end = _v1_header_end(head)
    if end is None:
        return None
    text = f.read(end - 10)
    return _SIMPLE_HEADER.fullmatch(text.decode("latin-1")) if len(text) == end - 10 else None


@functools.lru_cache(maxsize=64)
def _simple_dtype(descr: str) -> np.dtype | None:
    """The dtype of a plain ``descr``; None for an object dtype (numpy's path refuses it with its message).

    Cached: a dump repeats a handful of descriptors over thousands of files."""
    try:
        dtype = np.dtype(descr)
    except TypeError:
        return None
    return None if dtype.hasobject else dtype


def resolve_dtype(dtype: np.dtype, declared: str | None) -> np.dtype:
    """The real dtype: ``.npy`` stores bfloat16 as an anonymous 2-byte void type."""
    if declared in _BF16_NAMES and dtype.kind == "V" and dtype.itemsize == 2:
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return dtype


#: Bytes read at once for a header: numpy writes headers padded to 64/128 bytes; a longer
#: one is read in a second call.
_HEADER_PEEK = 256


def inspect_npy(path: Path, declared_dtype: str | None = None) -> tuple[tuple[int, ...], np.dtype, int, bool]:
    """Shape, dtype, data offset and Fortran order of an ``.npy`` file.

    Checks that the file holds all the data its header promises.  One ``open``, one
    ``fstat`` and one ``pread`` for the usual header (no buffered file object: opening
    20,000 tiny tensors is mostly this function).
    """
    fd = _open_read_only(path)
    try:
        size, shape, fortran, dtype, offset = _header_of(fd)
    except OSError as exc:
        raise TensorReadError(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    dtype = resolve_dtype(dtype, declared_dtype)
    count = math.prod(shape)
    need = offset + count * dtype.itemsize
    if size < need:
        raise TensorReadError(
            f"truncated: header promises {count} x {dtype.name} ({need - offset} bytes of data) "
            f"but the file has {max(size - offset, 0)}"
        )
    return shape, dtype, offset, fortran


def _open_read_only(path: Path) -> int:
    try:
        return os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise TensorReadError(f"cannot read: {exc.strerror or exc}") from None


def _header_of(fd: int) -> tuple[int, tuple[int, ...], bool, np.dtype, int]:
    """File size and the header of the ``.npy`` open on ``fd``: (size, shape, fortran, dtype, offset)."""
    size = os.fstat(fd).st_size
    head = os.pread(fd, _HEADER_PEEK, 0)
    end = _v1_header_end(head)
    if end is not None and len(head) < end <= size:  # a long header the file holds: read it whole
        head = os.pread(fd, end, 0)
    f = io.BytesIO(head) if _complete(head) else os.fdopen(os.dup(fd), "rb")
    with f:
        shape, fortran, dtype = read_header(f)
        return size, shape, fortran, dtype, f.tell()


def _complete(head: bytes) -> bool:
    """Whether ``head`` holds a whole version-1 header (else numpy's reader reads the file)."""
    end = _v1_header_end(head)
    return end is not None and len(head) >= end


#: Files up to this size are mapped with MAP_POPULATE: one system call maps every page
#: instead of one page fault per 4 KB on first touch; larger files are mapped lazily so
#: memory stays bounded by the metric kernel's chunk.
POPULATE_MAX_BYTES = 64 << 20


def _map(path: Path, dtype: np.dtype, count: int, offset: int) -> np.ndarray:
    """A read-only memory map of ``count`` values at ``offset`` (the file stays mapped
    while the array lives)."""
    with open(path, "rb") as f:
        length = offset + count * dtype.itemsize
        flags = mmap.MAP_SHARED
        if length <= POPULATE_MAX_BYTES:
            flags |= getattr(mmap, "MAP_POPULATE", 0)
        mapped = mmap.mmap(f.fileno(), length, flags=flags, prot=mmap.PROT_READ)
    return np.frombuffer(mapped, dtype=dtype, count=count, offset=offset)


class NpyLoader:
    """Loads one ``.npy`` tensor: memory-mapped (read-only) when called, or read into a
    caller's reusable buffer with :meth:`read_into`."""

    __slots__ = ("path", "shape", "dtype", "offset", "fortran", "count")

    def __init__(self, path: Path, shape: tuple[int, ...], dtype: np.dtype, offset: int, fortran: bool = False) -> None:
        self.path, self.shape, self.dtype, self.offset, self.fortran = path, shape, dtype, offset, fortran
        self.count = math.prod(shape)

    @property
    def nbytes(self) -> int:
        return self.count * self.dtype.itemsize

    def _shaped(self, flat: np.ndarray) -> np.ndarray:
        return flat.reshape(self.shape, order="F" if self.fortran else "C")

    def __call__(self) -> np.ndarray:
        if self.nbytes < MMAP_MIN_BYTES:  # mmap cannot map zero bytes, and costs more for small data
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                return self._shaped(np.frombuffer(f.read(self.nbytes), dtype=self.dtype))
        try:
            return self._shaped(_map(self.path, self.dtype, self.count, self.offset))
        except OSError as exc:
            raise TensorReadError(f"{self.path}: cannot map: {exc.strerror or exc}") from None

    def read_into(self, scratch: Scratch) -> np.ndarray:
        """The data read into ``scratch`` (valid until the scratch is used again).

        A plain ``read`` into a warm buffer that is reused for every tensor costs no page
        faults at all; mapping takes a fault per page, and the faults of two threads
        contend for the process's memory map lock.
        """
        buf = scratch.take(self.nbytes)
        got = _pread_into(self.path, buf, self.offset)
        if got != self.nbytes:
            raise TensorReadError(f"{self.path}: truncated while reading ({got} of {self.nbytes} bytes)")
        return self._shaped(np.frombuffer(buf, dtype=self.dtype, count=self.count))


def _pread_into(path: Path, buf: memoryview, offset: int) -> int:
    """Read ``len(buf)`` bytes at ``offset`` into ``buf``; the bytes read (no buffered file
    object: for tiny tensors its set-up cost more than the read)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        got = 0
        while got < len(buf):
            n = _read_at(fd, buf[got:], offset + got)
            if n <= 0:
                break
            got += n
        return got
    finally:
        os.close(fd)


def _preadv_at(fd: int, buf: memoryview, offset: int) -> int:
    return os.preadv(fd, [buf], offset)


def _pread_copy_at(fd: int, buf: memoryview, offset: int) -> int:  # pragma: no cover - platforms without preadv
    data = os.pread(fd, len(buf), offset)
    buf[: len(data)] = data
    return len(data)


#: One positioned read into ``buf``: straight into it where the platform has ``preadv``.
_read_at = _preadv_at if hasattr(os, "preadv") else _pread_copy_at


class Scratch:
    """A growable byte buffer that one thread reuses for tensor after tensor."""

    def __init__(self) -> None:
        self._buf = bytearray()

    def take(self, nbytes: int) -> memoryview:
        if len(self._buf) < nbytes:
            self._buf = bytearray(max(nbytes, 2 * len(self._buf)))
        return memoryview(self._buf)[:nbytes]


def npy_loader(path: Path, shape: tuple[int, ...], dtype: np.dtype, offset: int, fortran: bool = False) -> NpyLoader:
    return NpyLoader(path, shape, dtype, offset, fortran)


def open_npy(path: Path, declared_dtype: str | None = None) -> tuple[tuple[int, ...], np.dtype, NpyLoader]:
    """Header facts plus a lazy loader; raises TensorReadError for an unusable file."""
    shape, dtype, offset, fortran = inspect_npy(path, declared_dtype)
    return shape, dtype, npy_loader(path, shape, dtype, offset, fortran)
