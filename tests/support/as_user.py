"""Run a check as a user that is not root, from tests that run as root (CI runs as root).

Permissions (read-only folders, files others may read) only mean something to a user that is not
root. As root, :func:`as_other_user` runs ``func(*args)`` in a child process that drops to user
``nobody`` first (``setgroups([])``, ``setgid``, ``setuid``) and hands back its result, its exit
code and what it printed; as any other user it runs it as that user, who already meets permissions.

The child is forked, never a new interpreter: the interpreter may live where ``nobody`` cannot
enter (``/root/.pyenv`` here). It is forked from a forkserver that has imported every module
dumpscope imports anywhere (at the top of a file or inside a function) and has never run Polars:
a child forked from pytest itself would hang in the first Polars call (its thread pool does not
survive a fork), and a module first imported after the drop could not be read. ``func`` and its
arguments are pickled to reach the child, so ``func`` must be a module-level function.
"""

from __future__ import annotations

import ast
import functools
import io
import multiprocessing
import os
import pwd
import shutil
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import dumpscope

NOBODY = 65534
ROOT = os.geteuid() == 0
#: what a test that needs another user than the one running it (root) is marked with
NEEDS_ROOT = pytest.mark.skipif(not ROOT, reason="becoming another user needs root (CI runs as root)")
#: optional back ends no check as another user runs, left out of the preload: importing them is slow
#: (seconds each) or starts threads of their own
_NOT_PRELOADED = {"distributed", "nncf", "openvino", "rknn"}


class Ran(NamedTuple):
    """What the child did: ``func``'s return value (None when it raised), its exit code, its output."""

    value: Any
    code: int
    stdout: str
    stderr: str


def _imported_names(source: str) -> Iterator[str]:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


@functools.cache
def _modules() -> list[str]:
    """Every dumpscope module and every module any of them imports, by name (found or not)."""
    top = Path(dumpscope.__file__).parent
    names: set[str] = set()
    for path in top.rglob("*.py"):
        parts = path.relative_to(top).with_suffix("").parts
        if {"tests", "bench", ".venv"} & set(parts) or parts[-1] == "__main__":
            continue
        names.add(".".join(("dumpscope", *parts)).removesuffix(".__init__"))
        names.update(_imported_names(path.read_text(encoding="utf-8")))
    return sorted(n for n in names if not n.endswith("__main__") and n.split(".")[0] not in _NOT_PRELOADED)


@functools.cache
def _context() -> multiprocessing.context.BaseContext:
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(_modules())
    return ctx


def _child(
    conn: Any,
    func: Callable[..., Any],
    args: tuple[Any, ...],
    cwd: str | None,
    env: dict[str, str],
    umask: int,
) -> None:
    """In the forked child: the test's environment and umask (the forkserver keeps those it
    started with), fds 1 and 2 caught in files opened while still root, drop, run, report."""
    os.environ.clear()
    os.environ.update(env)
    os.umask(umask)
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), write_through=True)  # noqa: SIM115
    sys.stderr = io.TextIOWrapper(open(2, "wb", closefd=False), write_through=True)  # noqa: SIM115
    if ROOT:
        os.environ["HOME"] = pwd.getpwuid(NOBODY).pw_dir  # as a real login of that user has it
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    if cwd is not None:
        os.chdir(cwd)
    value, code = None, 0
    try:
        value = func(*args)
        code = value if isinstance(value, int) and not isinstance(value, bool) else 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - reported to the test, which fails on it
        traceback.print_exc()
        code = 3
    sys.stdout.flush()
    sys.stderr.flush()
    out.seek(0)
    err.seek(0)
    conn.send(Ran(value, code, out.read().decode(errors="replace"), err.read().decode(errors="replace")))
    conn.close()


def as_other_user(func: Callable[..., Any], *args: Any, cwd: str | Path | None = None) -> Ran:
    """``func(*args)`` as ``nobody`` when this is root, else as this user, with this process's
    environment (``HOME``: nobody's) and umask, in ``cwd``: what it did."""
    ctx = _context()
    receive, send = ctx.Pipe(duplex=False)
    umask = os.umask(0o022)
    os.umask(umask)
    where = None if cwd is None else str(cwd)
    child = ctx.Process(target=_child, args=(send, func, args, where, dict(os.environ), umask))
    child.start()
    send.close()
    try:
        ran = receive.recv()
    except EOFError:
        ran = Ran(None, -1, "", "the child died without a word")
    child.join()
    return ran


def shared_folder() -> Iterator[Path]:
    """A folder every user may enter (pytest's own tmp folders are 0700 to root), removed after."""
    top = Path(tempfile.mkdtemp(prefix="dumpscope-perm-", dir="/tmp"))
    top.chmod(0o755)
    try:
        yield top
    finally:
        for p in top.rglob("*"):  # a read-only folder left by the test must not stop the clean-up
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)
        shutil.rmtree(top, ignore_errors=True)


def open_to_all(top: Path) -> None:
    """Let every user read everything under ``top`` (and enter its folders); writes stay as they are."""
    for p in [top, *top.rglob("*")]:
        if not p.is_symlink():
            p.chmod(p.stat().st_mode | (0o555 if p.is_dir() else 0o444))
