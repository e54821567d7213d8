"""The one writer of every file dumpscope writes.

Every output (each ``-o`` format of every command, per-rank CSVs, ``-out`` folders, ``convert``,
``patch``, ``demo``, the UI export, fixture writers, the ``--cache`` index) goes through this
module; ``tests/test_architecture.py`` fails on any other ``open(..., "w")``, ``write_text``,
``np.save``... in the product.  What a destination gets:

- **absent, a regular file, or a symbolic link**: the file is written in a fresh private
  folder (``mkdtemp``, 0700) beside it, created with ``O_CREAT | O_EXCL | O_NOFOLLOW``, and
  renamed onto the destination when the body succeeds.  A run cut short (Ctrl-C, a full disk,
  an exception) leaves the old file, or none, never a half-written one, and no temporary.  A
  symbolic link at the destination is replaced, never written through.
- **its mode** is ``0o666 & ~umask`` (0644 under the usual umask 022), as ``>`` in a shell
  gives, so teammates on a shared server can read the results.
- **a character device** (``/dev/null``, a terminal) is written in place, never replaced;
  ``-`` and ``/dev/stdout`` / ``/dev/stderr`` mean this process's standard output / error.
- **a FIFO, a socket, a block device or a folder** is refused with :class:`OutputError` (one
  clear line, before anything is opened: nothing blocks).

The API (stable; the ``--cache`` index uses :func:`atomic_path`)::

    with atomic_path(dest) as tmp: writer(tmp)      # writers that want a path (Parquet, ONNX)
    with atomic_text(dest) as fh: fh.write(...)     # UTF-8 text
    with atomic_binary(dest) as fh: fh.write(...)   # bytes (np.save(fh, ...), ndarray.tofile)
    write_text(text, dest_or_None); write_bytes(data, dest)
    check_output(dest)                              # refuse a bad -o before the work starts
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "OutputError",
    "STDOUT",
    "atomic_binary",
    "atomic_path",
    "atomic_text",
    "check_output",
    "write_bytes",
    "write_text",
]

#: ``-o -``: standard output.
STDOUT = "-"

#: Names of this process's own standard streams (links into /proc on Linux): written to the stream.
_STREAMS = {"-": 1, "/dev/stdout": 1, "/dev/stderr": 2}

_TMP_SUFFIX = ".dumpscope-tmp"
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class OutputError(OSError):
    """A destination dumpscope will not write (a FIFO, a socket, a block device, a folder, a
    missing or read-only folder): one line naming it, exit 2 on the command line."""

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def _refusal(path: str, what: str) -> OutputError:
    why = f"is {what}; dumpscope writes only regular files, character devices or - (stdout)"
    return OutputError(0, why, path)


def _kind(dest: str | Path) -> str:
    """``"stream"`` (stdout/stderr), ``"device"`` (an existing character device) or ``"file"``;
    raises :class:`OutputError` for anything else."""
    name = os.fspath(dest)
    if name in _STREAMS:
        return "stream"
    if not name:
        raise OutputError(0, "an empty output name", name)
    try:
        st = os.lstat(name)
    except FileNotFoundError:
        parent = os.path.dirname(name) or "."
        if not os.path.isdir(parent):
            raise OutputError(2, "its folder does not exist", name) from None
        return "file"
    except OSError as exc:
        raise OutputError(exc.errno or 0, exc.strerror or str(exc), name) from None
    mode = st.st_mode
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return "file"
    if stat.S_ISCHR(mode):
        return "device"
    if stat.S_ISDIR(mode):
        raise IsAFolder(21, "is a folder, not a file", name)
    what = {stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFSOCK: "a socket", stat.S_IFBLK: "a block device"}
    raise _refusal(name, what.get(stat.S_IFMT(mode), "not a regular file"))


class IsAFolder(OutputError, IsADirectoryError):
    """The destination is a folder (also an :class:`IsADirectoryError`)."""


def check_output(dest: str | Path | None) -> None:
    """Raise :class:`OutputError` now if ``dest`` is a FIFO, a socket or a block device: the command
    line checks every output option before the work, so such a one is refused at once (a file or
    a folder there is the command's own business: some options name folders)."""
    if dest is None or os.fspath(dest) in ("", *_STREAMS):
        return
    try:
        mode = os.lstat(dest).st_mode
    except OSError:
        return
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISBLK(mode):
        _kind(dest)


def _open_device(name: str) -> int:
    """A write descriptor on the character device ``name``: no create, no truncate, no link
    followed, non-blocking open (a FIFO swapped in meanwhile cannot block), checked after."""
    try:
        fd = os.open(name, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | _NOFOLLOW | _CLOEXEC)
    except OSError as exc:
        raise OutputError(exc.errno or 0, exc.strerror or str(exc), name) from None
    if not stat.S_ISCHR(os.fstat(fd).st_mode):
        os.close(fd)
        raise _refusal(name, "no longer a character device")
    os.set_blocking(fd, True)
    return fd


def _stream(name: str) -> IO[bytes]:
    """The binary side of the standard stream ``name`` names (text written to it so far flushed)."""
    text = sys.stdout if _STREAMS[name] == 1 else sys.stderr
    text.flush()
    return text.buffer


def _private_folder(parent: str, name: str) -> str:
    """A fresh folder only this process can enter (0700), beside the destination."""
    try:
        return tempfile.mkdtemp(prefix=f".{name[:60]}.", suffix=_TMP_SUFFIX, dir=parent)
    except OSError as exc:
        raise OutputError(
            exc.errno or 0, f"cannot write in its folder ({exc.strerror or exc})", os.path.join(parent, name)
        ) from None


def _create(path: str) -> int:
    """A new file: never an existing one, never through a link; ``0o666 & ~umask``."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o666)


def _rename(tmp: str, dest: str, replace: bool) -> None:
    try:
        if replace:
            os.replace(tmp, dest)
        else:  # a hard link fails on any existing entry (a planted file or link): never replaced
            _link_new(tmp, dest)
    except OSError as exc:
        if _kind(dest) == "device":  # became a device meanwhile: leave it alone
            raise _refusal(dest, "a character device created while writing") from None
        raise OutputError(exc.errno or 0, exc.strerror or str(exc), dest) from None


def _link_new(tmp: str, dest: str) -> None:
    """``tmp`` as the new name ``dest``, failing (FileExistsError) if anything is there already."""
    try:
        os.link(tmp, dest, follow_symlinks=False)
    except OSError as exc:
        if exc.errno == errno.EEXIST or os.path.lexists(dest):
            raise FileExistsError(errno.EEXIST, "already exists; not replaced", dest) from None
        os.replace(tmp, dest)  # a file system without hard links: checked just before, then renamed


def _copy_into(tmp: str, name: str, kind: str) -> None:
    """The bytes of ``tmp`` written into the device or standard stream ``name``."""
    with open(tmp, "rb") as src, _sink(name, kind) as out:
        shutil.copyfileobj(src, out, 1 << 20)


@contextlib.contextmanager
def _sink(name: str, kind: str) -> Iterator[IO[bytes]]:
    """A binary file object on the device ``name`` (closed after) or the standard stream (flushed)."""
    if kind == "device":
        with os.fdopen(_open_device(name), "wb", closefd=True) as fh:
            yield fh
        return
    out = _stream(name)
    yield out
    out.flush()


@contextlib.contextmanager
def atomic_path(dest: str | Path, *, replace: bool = True) -> Iterator[Path]:
    """A fresh path to write; its file becomes ``dest`` when the body succeeds.

    For writers that want a path (``polars.write_parquet``, ``onnx.save``): the path lies in a
    private 0700 folder, so nothing can be planted at it.  ``dest`` a character device or a
    standard stream: the bytes are copied into it.  ``replace=False``: an existing ``dest`` (a
    file or a link) is refused rather than replaced (``FileExistsError`` as an OutputError).
    """
    name = os.fspath(dest)
    kind = _kind(name)
    base = os.path.basename(name) or "output"
    folder = (
        _private_folder(os.path.dirname(name) or ".", base)
        if kind == "file"
        else tempfile.mkdtemp(suffix=_TMP_SUFFIX)
    )
    tmp = os.path.join(folder, base)
    try:
        yield Path(tmp)
        if not os.path.lexists(tmp):  # the writer wrote nothing (or under another name)
            raise OutputError(2, "the writer left no file", name)
        if kind == "file":
            _rename(tmp, name, replace)
        else:
            _copy_into(tmp, name, kind)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def atomic_binary(dest: str | Path, *, replace: bool = True) -> Iterator[IO[bytes]]:
    """A file open for writing bytes; becomes ``dest`` on success (see :func:`atomic_path`).
    A character device or a standard stream is written directly."""
    name = os.fspath(dest)
    kind = _kind(name)
    if kind != "file":
        with _sink(name, kind) as fh:
            yield fh
        return
    with atomic_path(name, replace=replace) as tmp, os.fdopen(_create(str(tmp)), "wb") as fh:
        yield fh


@contextlib.contextmanager
def atomic_text(dest: str | Path, newline: str | None = None, *, replace: bool = True) -> Iterator[TextIO]:
    """A UTF-8 text file open for writing; becomes ``dest`` on success (see :func:`atomic_binary`)."""
    with atomic_binary(dest, replace=replace) as raw:
        import io

        fh = io.TextIOWrapper(raw, encoding="utf-8", newline=newline, write_through=False)
        try:
            yield fh
            fh.flush()
        finally:
            fh.detach()


def write_text(text: str, output: str | Path | None) -> None:
    """``text`` to ``output`` (see :func:`atomic_text`), or to standard output when there is none
    (a command's ``-o``)."""
    if not output:
        sys.stdout.write(text)
        return
    with atomic_text(output) as f:
        f.write(text)


def save_npy(path: str | Path, arr: np.ndarray) -> None:
    """One tensor as ``.npy`` at ``path`` (never pickled): the one way the product writes a tensor file."""
    import numpy as np

    with atomic_binary(path) as fh:
        np.save(fh, arr, allow_pickle=False)


def write_bytes(data: bytes | memoryview | np.ndarray, output: str | Path, *, replace: bool = True) -> None:
    """``data`` (any C-contiguous buffer) to ``output`` (see :func:`atomic_binary`)."""
    with atomic_binary(output, replace=replace) as f:
        f.write(data if isinstance(data, (bytes, memoryview)) else data.data)
