"""Safe ``.npy`` access: header checks without reading data, lazy memory-mapped loads.

Never unpickles: an object array is refused at header time with a clear message.
"""

from __future__ import annotations

import io
import math
import mmap
import os
import re
import struct
import threading
import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

import numpy as np
from numpy.lib import format as npformat

from dumpscope.core.dumps import TensorReadError

_BF16_NAMES = {"bfloat16"}
#: The header numpy itself writes for a simple dtype; anything else goes to numpy's parser.
_SIMPLE_HEADER = re.compile(
    r"\{'descr': '([<>|=][a-zA-Z]\d{0,2})', 'fortran_order': (True|False), "
    r"'shape': \(((?:\d+, ?)*\d*)\), \}\s*"
)
#: " at 0x..>" in an object's repr: an address, different in every process.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")
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
    except TensorReadError:
        raise
    except Exception as exc:  # noqa: BLE001 - numpy's parser raises tokenizer and AST errors too
        # (the parser's text may quote an object's address, ``<ast.Name object at 0x7f..>``: never the same
        # twice, so it is dropped: the same file gives the same message)
        said = _ADDRESS.sub(">", str(exc))[:200]
        raise TensorReadError(f"corrupt .npy header ({type(exc).__name__}: {said})") from None
    if dtype.hasobject:
        raise TensorReadError("holds a pickled object array; refused (dumpscope never unpickles)")
    return check_shape(shape), bool(fortran), dtype


#: No dump holds more elements than this (2**48: 256 T elements); larger headers are corrupt.
MAX_ELEMENTS = 1 << 48


def check_shape(shape: object) -> tuple[int, ...]:
    """``shape`` as a tuple of ints, or TensorReadError for a negative or absurd shape."""
    if not isinstance(shape, tuple) or not all(isinstance(d, int) for d in shape):
        raise TensorReadError(f"corrupt .npy header: shape {str(shape)[:100]} is not a tuple of integers")
    if any(d < 0 for d in shape):
        raise TensorReadError(f"corrupt .npy header: negative dimension in shape {list(shape)[:16]}")
    if any(d > MAX_ELEMENTS for d in shape) or math.prod(shape) > MAX_ELEMENTS:
        raise TensorReadError(
            f"corrupt .npy header: shape {str(list(shape))[:200]} claims more than 2**48 elements"
        )
    return tuple(int(d) for d in shape)


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
    _remember_dtype(m[1], dtype)
    shape = tuple(int(d) for d in m[3].replace(" ", "").split(",") if d)
    return check_shape(shape), m[2] == "True", dtype


def resolve_dtype(dtype: np.dtype, declared: str | None) -> np.dtype:
    """The real dtype: ``.npy`` stores bfloat16 as an anonymous 2-byte void type."""
    if declared in _BF16_NAMES and dtype.kind == "V" and dtype.itemsize == 2:
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return dtype


#: Bytes read at once for a header: numpy writes headers padded to 64/128 bytes; a longer
#: one is read in a second call.
_HEADER_PEEK = 256


#: A file up to this size is read whole with its header (one ``pread`` either way): its
#: tensor then needs no second ``open`` (on a VM an ``open`` costs ~15 us, the read ~1 us),
#: while the dump's :class:`SmallFiles` budget lasts (16 MB: 20,000 tiny tensors fit; a
#: 100k-tensor dump keeps a fixed share, the rest is read again when compared).
SMALL_FILE_BYTES = 4096


class SmallFiles:
    """How many bytes of small files a reader may keep in memory (each dump gets one)."""

    __slots__ = ("left",)

    def __init__(self, budget: int = 16 << 20) -> None:
        self.left = budget

    def take(self, nbytes: int) -> bool:
        """Whether ``nbytes`` more may be kept (and count them)."""
        if nbytes > SMALL_FILE_BYTES or nbytes > self.left:
            return False
        self.left -= nbytes
        return True


class NpyFacts:
    """What one ``open`` of an ``.npy`` file tells: header facts, file identity and, for a
    small file within the budget, its bytes."""

    __slots__ = ("shape", "dtype", "offset", "fortran", "size", "mtime_ns", "data")

    def __init__(
        self,
        shape: tuple[int, ...],
        dtype: np.dtype,
        offset: int,
        fortran: bool,
        st: os.stat_result,
        data: bytes | None,
    ) -> None:
        self.shape, self.dtype, self.offset, self.fortran = shape, dtype, offset, fortran
        self.size, self.mtime_ns, self.data = st.st_size, st.st_mtime_ns, data


def inspect_npy(path: Path, declared_dtype: str | None = None) -> tuple[tuple[int, ...], np.dtype, int, bool]:
    """Shape, dtype, data offset and Fortran order of an ``.npy`` file (see :func:`npy_facts`)."""
    facts = npy_facts(path, declared_dtype)
    return facts.shape, facts.dtype, facts.offset, facts.fortran


def npy_facts(
    path: Path | str, declared_dtype: str | None = None, keep: SmallFiles | None = None
) -> NpyFacts:
    """The header facts of an ``.npy`` file, with its size and modification time.

    Checks that the file holds all the data its header promises.  One ``open``, one
    ``fstat`` and one ``pread`` for the usual header (no buffered file object: opening
    20,000 tiny tensors is mostly this function).  A file of at most
    :data:`SMALL_FILE_BYTES` that ``keep`` allows is kept whole (``data``).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise TensorReadError(f"cannot read: {exc.strerror or exc}") from None
    try:
        st, head, (shape, fortran, dtype, offset) = _header_of(fd)
    except OSError as exc:
        raise TensorReadError(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    dtype = resolve_dtype(dtype, declared_dtype)
    _check_size(st.st_size, shape, dtype, offset)
    whole = len(head) == st.st_size and keep is not None and keep.take(len(head))
    return NpyFacts(shape, dtype, offset, fortran, st, head if whole else None)


def _check_size(size: int, shape: tuple[int, ...], dtype: np.dtype, offset: int) -> None:
    """TensorReadError when the file is shorter than its header promises."""
    count = math.prod(shape)
    need = offset + count * dtype.itemsize
    if size < need:
        raise TensorReadError(
            f"truncated: header promises {count} x {dtype.name} ({need - offset} bytes of data) "
            f"but the file has {max(size - offset, 0)}"
        )


def _header_of(fd: int) -> tuple[os.stat_result, bytes, tuple[tuple[int, ...], bool, np.dtype, int]]:
    """The stat of the ``.npy`` open on ``fd``, the bytes read (the whole file when it is
    small) and its header: (shape, fortran, dtype, data offset)."""
    st = os.fstat(fd)
    size = st.st_size
    head = os.pread(fd, size if size <= SMALL_FILE_BYTES else _HEADER_PEEK, 0)
    simple = _simple_header(head)
    if simple is not None:
        return st, head, simple
    if len(head) >= 10 and head[:6] == b"\x93NUMPY" and head[6] == 1:
        end = 10 + struct.unpack("<H", head[8:10])[0]
        if end > len(head) and size >= end:
            head = os.pread(fd, end, 0)
    f = io.BytesIO(head) if _complete(head) else os.fdopen(os.dup(fd), "rb")
    with f:
        shape, fortran, dtype = read_header(f)
        return st, head, (shape, fortran, dtype, f.tell())


_SIMPLE_HEADER_BYTES = re.compile(_SIMPLE_HEADER.pattern.encode("latin-1"))
#: dtypes of the simple headers met so far, by their ``descr`` (``np.dtype("<f4")`` costs
#: microseconds; a dump has a handful of dtypes and tens of thousands of files).
_SIMPLE_DTYPES: dict[bytes, np.dtype] = {}


#: Parsed simple headers by their bytes: the files of one dump share a few hundred headers
#: (one per shape and dtype), and a dict look-up costs a fraction of the pattern match.
_PARSED: dict[bytes, tuple[tuple[int, ...], bool, np.dtype, int]] = {}
_PARSED_MAX = 1 << 14


def simple_header(head: bytes) -> tuple[tuple[int, ...], bool, np.dtype, int] | None:
    """(shape, fortran, dtype, data offset) of ``head`` when it starts with the plain header
    numpy writes for a dtype already met; None otherwise (read it with :func:`read_header`)."""
    return _simple_header(head)


def _simple_header(head: bytes) -> tuple[tuple[int, ...], bool, np.dtype, int] | None:
    """The header numpy writes for a plain dtype, parsed straight from the bytes read
    (same pattern as :func:`_fast_header`, no file object): (shape, fortran, dtype, data
    offset), or None for anything else (the general path then reads it).  A header met
    before is not parsed again (:data:`_PARSED`)."""
    if head[:8] != b"\x93NUMPY\x01\x00" or len(head) < 10:
        return None
    end = 10 + int.from_bytes(head[8:10], "little")
    if len(head) < end:
        return None
    key = head[:end]
    parsed = _PARSED.get(key)
    if parsed is None:
        parsed = _parse_simple(head, end)
        if parsed is not None and len(_PARSED) < _PARSED_MAX:
            _PARSED[key] = parsed
    return parsed


def _parse_simple(head: bytes, end: int) -> tuple[tuple[int, ...], bool, np.dtype, int] | None:
    """:func:`_simple_header`'s pattern match on a header not met yet."""
    m = _SIMPLE_HEADER_BYTES.fullmatch(head, 10, end)
    dtype = _SIMPLE_DTYPES.get(m[1]) if m is not None else None
    if m is None or dtype is None:
        return None
    shape = tuple(int(d) for d in m[3].split(b",") if d.strip())
    if max(shape, default=0) > MAX_ELEMENTS or math.prod(shape) > MAX_ELEMENTS:
        shape = check_shape(shape)  # raises with its message
    return shape, m[2] == b"True", dtype, end


def _remember_dtype(descr: str, dtype: np.dtype) -> None:
    """Let :func:`_simple_header` parse headers of ``descr`` (a plain, non-object dtype)."""
    _SIMPLE_DTYPES.setdefault(descr.encode("latin-1"), dtype)


def _complete(head: bytes) -> bool:
    """Whether ``head`` holds a whole version-1 header (else numpy's reader reads the file)."""
    if len(head) < 10 or head[:6] != b"\x93NUMPY" or head[6] != 1:
        return False
    return len(head) >= 10 + struct.unpack("<H", head[8:10])[0]


#: Files up to this size are mapped with MAP_POPULATE: one system call maps every page
#: instead of one page fault per 4 KB on first touch; larger files are mapped lazily so
#: memory stays bounded by the metric kernel's chunk.
POPULATE_MAX_BYTES = 64 << 20


def _map(path: Path | str, dtype: np.dtype, count: int, offset: int) -> np.ndarray:
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

    __slots__ = ("path", "shape", "dtype", "offset", "fortran", "count", "data", "identity")

    def __init__(
        self,
        path: Path | str,
        shape: tuple[int, ...],
        dtype: np.dtype,
        offset: int,
        fortran: bool = False,
        data: bytes | None = None,
    ) -> None:
        self.path, self.shape, self.dtype, self.offset, self.fortran = path, shape, dtype, offset, fortran
        self.count = math.prod(shape)
        self.data = data
        """The whole file, when the reader kept it (a small file): the metric pass
        (:meth:`read_into`) reads it from here, once, without a second ``open``; a later
        :meth:`__call__` (a pane, row facts) reads the file as it is then."""
        self.identity: tuple[int, int] | None = None
        """(size, modification time in ns) of the file when its header was read, if known."""

    def _kept(self, data: bytes) -> np.ndarray:
        return self._shaped(np.frombuffer(data, dtype=self.dtype, count=self.count, offset=self.offset))

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
        if self.data is not None:  # the metric pass reads each tensor once: the kept bytes serve it, then go
            kept, self.data = self._kept(self.data), None
            return kept
        buf = scratch.take(self.nbytes)
        got = _pread_into(self.path, buf, self.offset)
        if got != self.nbytes:
            raise TensorReadError(f"{self.path}: truncated while reading ({got} of {self.nbytes} bytes)")
        return self._shaped(np.frombuffer(buf, dtype=self.dtype, count=self.count))


def _pread_into(path: Path | str, buf: memoryview, offset: int) -> int:
    """Read ``len(buf)`` bytes at ``offset`` into ``buf``; the bytes read (no buffered file
    object: for tiny tensors its set-up cost more than the read).

    Where the system can (``RWF_NOWAIT``), the first read takes only what the page cache holds, in
    the same one system call when it holds it all; when it does not, the files of
    :func:`read_ahead` are asked for first, and then the rest is read, waiting for the disk."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        got = _cached_part(fd, buf, offset) if _NOWAIT and len(buf) else 0
        while got < len(buf):
            n = (
                os.preadv(fd, [buf[got:]], offset + got)
                if hasattr(os, "preadv")
                else _read_at(fd, buf[got:], offset + got)
            )
            if n <= 0:
                break
            got += n
        return got
    finally:
        os.close(fd)


#: ``preadv``'s flag to take only what the page cache holds (Linux 4.14+; 0: not available).
_NOWAIT = getattr(os, "RWF_NOWAIT", 0) if hasattr(os, "preadv") else 0
_AHEAD = threading.local()


def _cached_part(fd: int, buf: memoryview, offset: int) -> int:
    """The bytes of ``buf`` read from the page cache without waiting; when that is not all of them,
    the files of the enclosing :func:`read_ahead` are asked for (once)."""
    try:
        got = os.preadv(fd, [buf], offset, _NOWAIT)
    except OSError:  # EAGAIN: nothing cached; EOPNOTSUPP: a file system without it (read as usual)
        got = 0
    if got < len(buf):
        _ask_ahead()
    return got


@contextmanager
def read_ahead(paths: Iterable[Path | str]) -> Iterator[None]:
    """While the block runs in this thread, the first read of :func:`_pread_into` that finds its data
    not all in the page cache asks the kernel to read every file of ``paths`` ahead
    (``posix_fadvise(WILLNEED)``, asynchronous): the disk reads a task's next tensors while this one
    is compared, instead of each read waiting for it in turn.  Data already cached costs nothing
    (the question is not asked)."""
    before = getattr(_AHEAD, "paths", None)
    _AHEAD.paths = paths
    try:
        yield
    finally:
        _AHEAD.paths = before


def _ask_ahead() -> None:
    paths, _AHEAD.paths = getattr(_AHEAD, "paths", None), None  # (once per block)
    advise = getattr(os, "posix_fadvise", None)
    if not paths or advise is None:
        return
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            continue
        try:
            advise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
        except OSError:
            pass
        finally:
            os.close(fd)


def _read_at(fd: int, buf: memoryview, offset: int) -> int:  # pragma: no cover - platforms without preadv
    data = os.pread(fd, len(buf), offset)
    buf[: len(data)] = data
    return len(data)


class Scratch:
    """A growable byte buffer that one thread reuses for tensor after tensor.

    A forked process does not inherit it (``MADV_DONTFORK``, from :data:`UNSHARED_MIN_BYTES`,
    where the system has it): while a forked worker lived, every page of it that the parent
    wrote again was copied first (copy-on-write; ~1,000 faults on bench_workers' (a) at two
    workers, in the parent's own tasks), and the worker got no use of the copy, as its own
    reads write it too.  In the child, every scratch starts empty (:func:`_forget_after_fork`)
    and takes a buffer of its own at its first read."""

    def __init__(self) -> None:
        self._buf: bytearray | mmap.mmap = bytearray()
        _SCRATCHES.add(self)

    def take(self, nbytes: int) -> memoryview:
        if len(self._buf) < nbytes:
            self._buf = _unshared(max(nbytes, 2 * len(self._buf)))
        return memoryview(self._buf)[:nbytes]

    def forget(self) -> None:
        """Drop the buffer (a forked child's: its memory was not inherited)."""
        self._buf = bytearray()


#: Scratch buffers from this size up are private anonymous memory that a fork does not inherit.
UNSHARED_MIN_BYTES = 1 << 16
_DONTFORK = getattr(mmap, "MADV_DONTFORK", None)
#: Scratch buffers from this size up ask for transparent huge pages (``MADV_HUGEPAGE``; the default
#: where the system's setting is ``madvise``): a 16 MiB tensor read into a fresh buffer takes ~10
#: page faults instead of ~4,100, and reading it and the kernel's passes over it miss the TLB less.
HUGE_MIN_BYTES = 2 << 20
_HUGEPAGE = getattr(mmap, "MADV_HUGEPAGE", None)
_SCRATCHES: weakref.WeakSet[Scratch] = weakref.WeakSet()


def _unshared(size: int) -> bytearray | mmap.mmap:
    """``size`` writable bytes; from :data:`UNSHARED_MIN_BYTES`, memory a fork does not inherit."""
    if _DONTFORK is None or size < UNSHARED_MIN_BYTES:
        return bytearray(size)
    buf = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        buf.madvise(_DONTFORK)
    except OSError:  # pragma: no cover - refused: a plain buffer, copied on write after a fork as before
        buf.close()
        return bytearray(size)
    if _HUGEPAGE is not None and size >= HUGE_MIN_BYTES:
        with suppress(OSError):  # (speed only: transparent huge pages off, or not for this mapping)
            buf.madvise(_HUGEPAGE)
    return buf


def _forget_after_fork() -> None:
    """In a forked child: every scratch's memory is unmapped there (``MADV_DONTFORK``), so none is
    used again; each takes a new buffer at its next read."""
    for scratch in list(_SCRATCHES):
        scratch.forget()


if _DONTFORK is not None:
    os.register_at_fork(after_in_child=_forget_after_fork)


def npy_loader(
    path: Path, shape: tuple[int, ...], dtype: np.dtype, offset: int, fortran: bool = False
) -> NpyLoader:
    return NpyLoader(path, shape, dtype, offset, fortran)


def open_npy(path: Path, declared_dtype: str | None = None) -> tuple[tuple[int, ...], np.dtype, NpyLoader]:
    """Header facts plus a lazy loader; raises TensorReadError for an unusable file."""
    shape, dtype, offset, fortran = inspect_npy(path, declared_dtype)
    return shape, dtype, npy_loader(path, shape, dtype, offset, fortran)


def facts_loader(path: Path | str, facts: NpyFacts) -> NpyLoader:
    """The loader of a file :func:`npy_facts` read (its kept bytes, if any)."""
    loader = NpyLoader(path, facts.shape, facts.dtype, facts.offset, facts.fortran, facts.data)
    loader.identity = (facts.size, facts.mtime_ns)
    return loader
