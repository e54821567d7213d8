"""Output files are written to a temporary name beside them and renamed into place.

A run cut short (Ctrl-C, a full disk, an exception) leaves the old file, or none, never a
half-written one, and no temporary file: the temporary is removed on any exception,
``KeyboardInterrupt`` included.  A symbolic link at the destination is replaced by the
new file, never written through (``os.replace`` renames over the link itself).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TextIO

__all__ = ["atomic_binary", "atomic_path", "atomic_text", "write_text"]


@contextlib.contextmanager
def atomic_path(dest: str | Path) -> Iterator[Path]:
    """A fresh temporary path beside ``dest``; renamed onto ``dest`` when the body succeeds.

    For writers that want a path (``polars.write_parquet``, ``onnx.save``).  A ``dest`` that
    is an existing folder is refused with IsADirectoryError (never replaced).
    """
    target = Path(dest)
    if target.is_dir() and not target.is_symlink():
        raise IsADirectoryError(21, "is a folder, not a file", str(target))
    fd, name = tempfile.mkstemp(prefix=f".{target.name[:60]}.", suffix=".dumpscope-tmp", dir=target.parent or ".")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


@contextlib.contextmanager
def atomic_text(dest: str | Path, newline: str | None = None) -> Iterator[TextIO]:
    """A UTF-8 text file open for writing under a temporary name, renamed onto ``dest`` on success."""
    with atomic_path(dest) as tmp, open(tmp, "w", encoding="utf-8", newline=newline) as fh:
        yield fh


@contextlib.contextmanager
def atomic_binary(dest: str | Path) -> Iterator[IO[bytes]]:
    """:func:`atomic_text` for bytes."""
    with atomic_path(dest) as tmp, open(tmp, "wb") as fh:
        yield fh


def write_text(text: str, output: str | Path | None) -> None:
    """``text`` to ``output`` (atomically, see :func:`atomic_text`), or to standard output when
    there is none (a command's ``-o``)."""
    if not output:
        sys.stdout.write(text)
        return
    with atomic_text(output) as f:
        f.write(text)
