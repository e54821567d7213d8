"""Batch commands let Polars' allocator return freed pages at once; the app and a user's own setting are
left alone."""

from __future__ import annotations

import os
import subprocess
import sys

from dumpscope.core.heap import trim_free_heap
from dumpscope.tui.cli.main import ALLOCATOR_CONF

_PROBE = (
    "import contextlib, io, os, sys\n"
    "from dumpscope.tui.cli.main import main\n"
    "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
    "    try:\n"
    "        main(sys.argv[1:])\n"
    "    except SystemExit:\n"
    "        pass\n"
    f"print(os.environ.get({ALLOCATOR_CONF!r}, '<unset>'))\n"
)


def _conf_after(argv: list[str], preset: str | None = None) -> str:
    """The allocator setting a fresh interpreter has after ``dumpscope ARGV``."""
    env = {k: v for k, v in os.environ.items() if k != ALLOCATOR_CONF}
    if preset is not None:
        env[ALLOCATOR_CONF] = preset
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, env=env, check=True
    )
    return out.stdout.strip()


#: Polars puts its own defaults first when it loads; jemalloc takes the last value of each option.
def _last(conf: str, option: str) -> str | None:
    values = [part.split(":", 1)[1] for part in conf.split(",") if part.startswith(option + ":")]
    return values[-1] if values else None


def test_a_batch_command_returns_freed_pages_at_once() -> None:
    conf = _conf_after(["formats"])
    assert (_last(conf, "dirty_decay_ms"), _last(conf, "muzzy_decay_ms")) == ("0", "0")


def test_the_app_keeps_the_default() -> None:
    assert _conf_after(["view", "--help"]) == "<unset>"


def test_a_users_own_setting_wins() -> None:
    conf = _conf_after(["formats"], preset="dirty_decay_ms:7")
    assert _last(conf, "dirty_decay_ms") == "7" and _last(conf, "muzzy_decay_ms") != "0"


def test_trimming_the_heap_is_harmless() -> None:
    trim_free_heap()  # glibc: frees pages; elsewhere: nothing
    trim_free_heap()
