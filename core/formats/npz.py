"""An ``.npz`` archive: one tensor per member, read lazily, never unpickled.

The archive's directory is read once (:class:`_Archive` keeps it, so loading every
member of a 4,000-member archive stays linear).  Before a member is inflated its
declared sizes are checked against its npy header, the compressed bytes in the archive
(deflate cannot expand more than ~1,032:1) and the memory of the machine; the data is
then streamed into an array of the header's size and never grows past it (zip bombs).
An encrypted member, an unknown compression method or corrupt compressed data costs
that member's row only.
"""

from __future__ import annotations

import math
import os
import struct
import threading
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dumpscope.core.dumps import Dump, DumpError, DumpProblem, TensorInfo, TensorReadError, TensorRef
from dumpscope.core.formats.npyfile import SMALL_FILE_BYTES, NpyLoader, SmallFiles, read_header, simple_header

if TYPE_CHECKING:  # (imported where an archive is read: sniffing a folder of .npy files, as every
    import zipfile  # comparison's opening does, leaves it out: ~2.5 ms of the start-up before the fork)

NAME = "npz"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = 'a file starting with the zip magic "PK" (best with the .npz suffix); one .npy member per tensor'
#: Deflate's largest possible expansion is about 1,032:1; bzip2 and lzma are allowed more (by
#: compression method: zipfile's ZIP_STORED, ZIP_DEFLATED).
_MAX_RATIO = {0: 1, 8: 1100}
_OTHER_RATIO = 50_000
_CHUNK = 1 << 20


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


def memory_budget() -> int:
    """Bytes one tensor may take: half the machine's physical memory (1 GiB when unknown)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    except (ValueError, OSError, AttributeError):
        return 1 << 30


class _Archive:
    """One open :class:`zipfile.ZipFile` shared by every member's loader (thread-safe reads)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._zip: zipfile.ZipFile | None = None
        self._pid = os.getpid()

    def open_member(self, info: zipfile.ZipInfo):
        if self._pid != os.getpid():  # a forked comparison worker: a file offset is shared across
            # fork, so two processes seeking one inherited ZipFile would read each other's bytes
            self._lock, self._zip, self._pid = threading.Lock(), None, os.getpid()
        with self._lock:
            if self._zip is None:
                import zipfile

                self._zip = zipfile.ZipFile(self.path)
            return self._zip.open(info)


def member_problem(member: zipfile.ZipInfo) -> str | None:
    """Why a member cannot be read, from the archive directory alone (None when fine)."""
    import zipfile

    if member.flag_bits & 0x1:
        return "the member is encrypted; not read"
    if member.compress_type not in (
        zipfile.ZIP_STORED,
        zipfile.ZIP_DEFLATED,
        zipfile.ZIP_BZIP2,
        zipfile.ZIP_LZMA,
    ):
        return f"unknown compression method {member.compress_type}; not read"
    ratio = _MAX_RATIO.get(member.compress_type, _OTHER_RATIO)
    if member.file_size > max(member.compress_size, 1) * ratio + 4096:
        return (
            f"declares {member.file_size} bytes from {member.compress_size} compressed bytes, "
            "more than the compression can produce (a damaged or hostile archive); not read"
        )
    return None


def _size_problem(member: zipfile.ZipInfo, header_bytes: int, data_bytes: int) -> str | None:
    if data_bytes > memory_budget():
        return f"claims {data_bytes} bytes of data, more than half this machine's memory; not read"
    if member.file_size < header_bytes + data_bytes:
        return f"holds {member.file_size} bytes, its npy header promises {header_bytes + data_bytes}"
    return None


def open(path: Path) -> Dump:  # noqa: A001 - the format protocol's name
    shared = _Archive(path)
    with _Stored(path) as stored:
        tensors, problems = _member_refs(shared, _members(path), stored)
    if not tensors and not problems:
        raise DumpError(f"{path}: the archive holds no tensors")
    return Dump(
        path=path, format=NAME, tensors=tensors, problems=problems, meta={"order_source": "archive order"}
    )


def _members(path: Path) -> list[zipfile.ZipInfo]:
    """The archive's directory (the archive is closed again: members are opened when loaded)."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as archive:
            return archive.infolist()
    except (OSError, zipfile.BadZipFile, ValueError, EOFError) as exc:
        raise DumpError(f"{path}: not a readable .npz archive ({exc})") from None


def _member_refs(
    shared: _Archive, members: list[zipfile.ZipInfo], stored: _Stored | None = None
) -> tuple[dict[str, TensorRef], list[DumpProblem]]:
    """One row per ``.npy`` member; other files and repeated names are problems.  Small
    stored members are read whole through ``stored`` (see :class:`_Stored`)."""
    tensors: dict[str, TensorRef] = {}
    problems: list[DumpProblem] = []
    for order, member in enumerate(members):
        if member.is_dir():
            continue
        if not member.filename.endswith(".npy"):
            problems.append(DumpProblem(f"{shared.path}:{member.filename}", "not an .npy member; ignored"))
            continue
        ref = (stored and stored.ref(member, order)) or _member_ref(shared, member, order)
        if ref.name in tensors:
            problems.append(
                DumpProblem(f"{shared.path}:{member.filename}", "a second member of the same name; ignored")
            )
            continue
        tensors[ref.name] = ref
    return tensors, problems


def _member_ref(shared: _Archive, member: zipfile.ZipInfo, order: int) -> TensorRef:
    """One member's row: header facts and a streaming loader, or the reason it is unusable."""
    name = member.filename[: -len(".npy")]
    source = f"{shared.path}:{member.filename}"
    bare = TensorInfo(name=name, source=source, order=float(order))
    problem = member_problem(member)
    if problem is not None:
        return TensorRef(bare, None, f"{member.filename}: {problem}")
    try:
        with shared.open_member(member) as f:
            shape, fortran, dtype = read_header(f)
            header_bytes = f.tell()
    except Exception as exc:  # noqa: BLE001 - zipfile raises NotImplementedError, zlib.error, RuntimeError...
        return TensorRef(bare, None, f"{member.filename}: unreadable member ({type(exc).__name__}: {exc})")
    count = math.prod(shape)
    problem = _size_problem(member, header_bytes, count * dtype.itemsize)
    if problem is not None:
        return TensorRef(bare, None, f"{member.filename}: {problem}")
    info = TensorInfo(name=name, dtype=dtype.name, shape=shape, source=source, order=float(order))
    return TensorRef(info, _MemberLoader(shared, member, shape, dtype, fortran))


class _MemberLoader:
    """Streams one member into an array of exactly the size its header declares."""

    def __init__(
        self,
        shared: _Archive,
        member: zipfile.ZipInfo,
        shape: tuple[int, ...],
        dtype: np.dtype,
        fortran: bool,
    ) -> None:
        self.shared, self.member, self.shape, self.dtype, self.fortran = shared, member, shape, dtype, fortran

    def __call__(self) -> np.ndarray:
        import zipfile

        nbytes = math.prod(self.shape) * self.dtype.itemsize
        out = np.empty(nbytes, dtype=np.uint8)
        try:
            with self.shared.open_member(self.member) as f:
                read_header(f)
                got = _read_into(f, out.data)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
            raise TensorReadError(
                f"{self.shared.path}:{self.member.filename}: {type(exc).__name__}: {exc}"
            ) from None
        if got != nbytes:
            raise TensorReadError(
                f"{self.shared.path}:{self.member.filename}: truncated ({got} of {nbytes} bytes)"
            )
        return out.view(self.dtype).reshape(self.shape, order="F" if self.fortran else "C")


def _read_into(f, view: memoryview) -> int:
    """Fill ``view`` from ``f`` in chunks; never reads past its end."""
    got = 0
    while got < len(view):
        n = f.readinto(view[got : got + _CHUNK])
        if not n:
            break
        got += n
    return got


#: A zip local file header: signature, then (at 26) the name and extra field lengths.
_LOCAL = struct.Struct("<4s22xHH")
_LOCAL_SIGNATURE = b"PK\x03\x04"


class _Stored:
    """Small stored (uncompressed) members read whole with one ``pread`` each from one open
    archive: no ``ZipFile.open`` per member (~30 us: a file object, its own header read and
    numpy's header parser), so an ``.npz`` opens as fast as the same ``.npy`` folder.

    A member is taken only when nothing about it could make the general path read it
    differently: stored, not encrypted, at most :data:`~.npyfile.SMALL_FILE_BYTES` within the
    archive's :class:`~.npyfile.SmallFiles` budget, a valid local header, the CRC-32 the
    directory declares, and the plain header numpy writes.  Any other member (or any
    surprise) goes the general way, with its checks and messages (:func:`_member_ref`).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.keep = SmallFiles()
        try:
            self.fd: int | None = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            self.fd = None

    def __enter__(self) -> _Stored:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)

    def ref(self, member: zipfile.ZipInfo, order: int) -> TensorRef | None:
        """The member's row read here, or None to read it the general way."""
        if not self._takes(member):
            return None
        try:
            found = self._read(member)
        except OSError:
            return None
        if found is None or not self.keep.take(member.file_size):
            return None
        return _stored_ref(self.path, member, order, *found)

    def _takes(self, member: zipfile.ZipInfo) -> bool:
        import zipfile

        return (
            self.fd is not None
            and member.compress_type == zipfile.ZIP_STORED
            and not member.flag_bits & 0x1
            and member.file_size == member.compress_size <= SMALL_FILE_BYTES
        )

    def _read(self, member: zipfile.ZipInfo) -> tuple[bytes, int] | None:
        """(the member's bytes, where they start in the archive) when its local header is sound
        and its CRC matches; None otherwise."""
        if self.fd is None:  # see _takes
            return None
        name = len(member.filename.encode("utf-8" if member.flag_bits & 0x800 else "cp437"))
        head = os.pread(self.fd, _LOCAL.size + name + 64 + member.file_size, member.header_offset)
        if len(head) < _LOCAL.size:
            return None
        signature, name_len, extra_len = _LOCAL.unpack_from(head)
        start = _LOCAL.size + name_len + extra_len
        if signature != _LOCAL_SIGNATURE or len(head) < start + member.file_size:
            return None
        data = head[start : start + member.file_size]
        return (data, member.header_offset + start) if zlib.crc32(data) == member.CRC else None


def _stored_ref(path: Path, member: zipfile.ZipInfo, order: int, data: bytes, start: int) -> TensorRef | None:
    """The row of a stored member read whole (None when its npy header is not the plain one)."""
    parsed = simple_header(data)
    if parsed is None:
        return None
    shape, fortran, dtype, offset = parsed
    count = math.prod(shape)
    if len(data) < offset + count * dtype.itemsize:
        return None  # the general path says how it is short
    source = f"{path}:{member.filename}"
    info = TensorInfo(
        name=member.filename[: -len(".npy")], dtype=dtype.name, shape=shape, source=source, order=float(order)
    )
    return TensorRef(info, StoredMember(str(path), shape, dtype, start + offset, fortran, data, offset))


class StoredMember(NpyLoader):
    """A stored member's tensor: a plain ``.npy`` at ``offset`` in the archive file, its
    member's bytes kept for the metric pass (the tensor starts at ``start`` in them)."""

    __slots__ = ("start",)

    def __init__(
        self,
        path: str,
        shape: tuple[int, ...],
        dtype: np.dtype,
        offset: int,
        fortran: bool,
        data: bytes,
        start: int,
    ) -> None:
        super().__init__(path, shape, dtype, offset, fortran, data)
        self.start = start

    def _kept(self, data: bytes) -> np.ndarray:
        return self._shaped(np.frombuffer(data, dtype=self.dtype, count=self.count, offset=self.start))
