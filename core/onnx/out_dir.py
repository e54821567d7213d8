"""A dump's output folder: checked, written under a temporary name, then swapped into place.

A non-empty folder is replaced only when it holds an earlier dump and nothing else (every file
listed in its manifest); on any error the folder is left as it was.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from itertools import chain
from pathlib import Path
from typing import Any

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.manifest import read_manifest


def _listed_files(manifest: Mapping[str, Any]) -> set[str]:
    """Relative paths of the files an earlier dumpscope manifest says it wrote."""
    items = [item for key in ("tensors", "inputs") for item in _listed(manifest.get(key))]
    return {"manifest.json", *(f for item in items if isinstance(f := _file_of(item), str))}


def _listed(items: object) -> list[object]:
    """A manifest list (``tensors``, ``inputs``); anything else holds nothing."""
    return items if isinstance(items, list) else []


def _file_of(item: object) -> object:
    """The ``file`` field of a manifest entry (None when the entry is no object)."""
    return item.get("file") if isinstance(item, dict) else None


def _foreign_entry(out_dir: Path, listed: set[str]) -> str | None:
    """The first entry of ``out_dir`` a dumpscope dump would not hold (None when all are ours).

    Walked with ``lstat`` only: a symlink is always foreign, never followed.
    """
    for dirpath, dirnames, filenames in os.walk(out_dir, followlinks=False):
        rel_dir = Path(dirpath).relative_to(out_dir)
        foreign = next(
            chain(
                _foreign_dirs(dirpath, rel_dir, dirnames), _foreign_files(dirpath, rel_dir, filenames, listed)
            ),
            None,
        )
        if foreign is not None:
            return foreign
    return None


def _foreign_dirs(dirpath: str, rel_dir: Path, dirnames: list[str]) -> Iterator[str]:
    """Folders other than a real ``inputs/`` at the top."""
    for d in dirnames:
        rel = (rel_dir / d).as_posix()
        if rel != "inputs" or Path(dirpath, d).is_symlink():
            yield rel


def _foreign_files(dirpath: str, rel_dir: Path, filenames: list[str], listed: set[str]) -> Iterator[str]:
    """Files the earlier manifest does not list, and anything listed that is not a regular file."""
    for f in filenames:
        rel = (rel_dir / f).as_posix()
        if rel not in listed or not stat.S_ISREG(os.lstat(Path(dirpath, f)).st_mode):
            yield rel


def check_out_dir(out_dir: Path) -> bool:
    """Check that ``out_dir`` may be written; True when it holds an earlier dump to replace.

    Refuses a symlink, a non-directory, and a non-empty directory holding anything that
    an earlier ``dumpscope dump`` did not write (files not in its manifest, symlinks,
    folders other than ``inputs/``).  Nothing is followed, opened for writing or deleted.
    """
    if _absent_or_empty(out_dir):
        return False
    with _inspecting(out_dir):
        foreign = _foreign_in_earlier_dump(out_dir)
    if foreign is not None:
        raise DumpError(
            f"{out_dir}: holds {foreign!r}, which dumpscope did not write; refusing to replace it (choose a "
            "new -o directory)"
        )
    return True


def _absent_or_empty(out_dir: Path) -> bool:
    """True when ``out_dir`` does not exist or is an empty directory; a symlink or a file is refused."""
    if out_dir.is_symlink():
        raise DumpError(f"{out_dir}: is a symbolic link; give a real directory for -o")
    if not out_dir.exists():
        return True
    if not out_dir.is_dir():
        raise DumpError(f"{out_dir}: exists and is not a directory")
    with _inspecting(out_dir):
        return not any(out_dir.iterdir())


@contextmanager
def _inspecting(out_dir: Path) -> Iterator[None]:
    """An OSError while looking at the output directory becomes a one-line DumpError."""
    try:
        yield
    except OSError as exc:
        raise DumpError(f"{out_dir}: cannot inspect the output directory ({exc.strerror or exc})") from None


def _foreign_in_earlier_dump(out_dir: Path) -> str | None:
    """The first entry of a non-empty ``out_dir`` that an earlier dump did not write (None: all ours)."""
    manifest = out_dir / "manifest.json"
    if manifest.is_symlink() or not manifest.is_file():
        raise DumpError(f"{out_dir}: directory is not empty (choose a new -o directory)")
    return _foreign_entry(out_dir, _listed_files(read_manifest(out_dir)))


@contextmanager
def staged_out_dir(out_dir: Path) -> Iterator[Path]:
    """A fresh temporary folder beside ``out_dir``, renamed into place when the body succeeds.

    An earlier dump at ``out_dir`` (checked by :func:`check_out_dir`) is moved aside and
    removed only after the new one is in place.  On any error or Ctrl-C the temporary
    folder is removed and ``out_dir`` is left as it was.  ``shutil.rmtree`` never follows
    symlinks, and only folders this function created are removed.
    """
    out_dir = Path(os.path.abspath(out_dir))  # "." and "x/.." named; links are not resolved
    replace = check_out_dir(out_dir)
    work = _work_dir(out_dir)
    try:
        os.chmod(work, 0o777 & ~_umask())
        yield work
        _put_in_place(work, out_dir, replace)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def _work_dir(out_dir: Path) -> Path:
    """A new hidden temporary folder beside ``out_dir`` (its parent is created when missing)."""
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{out_dir.name[:40]}.dumpscope-tmp-", dir=out_dir.parent))
    except OSError as exc:
        raise DumpError(f"{out_dir}: cannot create the output directory ({exc.strerror or exc})") from None


def _put_in_place(work: Path, out_dir: Path, replace: bool) -> None:
    """:func:`_swap_into_place`, an OSError there being a one-line DumpError."""
    try:
        _swap_into_place(work, out_dir, replace)
    except OSError as exc:
        raise DumpError(f"{out_dir}: cannot put the dump in place ({exc.strerror or exc})") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _swap_into_place(work: Path, out_dir: Path, replace: bool) -> None:
    """Rename ``work`` to ``out_dir``; an earlier dump there is checked again, moved aside, then removed."""
    if replace != check_out_dir(out_dir):
        raise DumpError(f"{out_dir}: changed while the dump was written; nothing replaced")
    if replace:
        _replace_earlier(work, out_dir)
    elif out_dir.exists():  # an empty folder (maybe the working directory): keep it, move our files in
        _move_into(work, out_dir)
    else:
        work.rename(out_dir)


def _move_into(work: Path, out_dir: Path) -> None:
    """Move the files of ``work`` into the empty ``out_dir``, the manifest last."""
    entries = sorted(work.iterdir(), key=lambda p: p.name == "manifest.json")
    for entry in entries:  # the manifest last: a dump without it is visibly incomplete
        entry.rename(out_dir / entry.name)
    work.rmdir()


def _replace_earlier(work: Path, out_dir: Path) -> None:
    """Move the earlier dump aside, put ``work`` in its place, then remove the earlier one."""
    old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name[:40]}.dumpscope-old-", dir=work.parent))
    old.rmdir()
    out_dir.rename(old)
    work.rename(out_dir)
    shutil.rmtree(old, ignore_errors=True)
