"""Issue 13, process lifetime: a worker still running never keeps dumpscope alive after its command ends."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

#: A command whose worker thread is stuck (as a comparison reading a blocked file when the UI quits).
_STUCK = """
import sys, threading, time
from dumpscope.tui.cli import main as cli
stuck = threading.Thread(target=time.sleep, args=(600,))  # non-daemon, like a thread-pool worker
real = cli._run
def run(args):
    stuck.start()
    return real(args)
cli._run = run
sys.argv = ["dumpscope", "formats"]
sys.exit(cli.main())
"""


def test_the_process_exits_promptly_with_a_worker_still_running(tmp_path: Path) -> None:
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", _STUCK], capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < 30  # not the worker's 600 s
    assert proc.returncode == 0 and "npy-dir" in proc.stdout  # output flushed before leaving


def test_main_called_from_python_never_exits_the_caller() -> None:
    import threading

    done = threading.Event()
    t = threading.Thread(target=done.wait, args=(5,))
    t.start()
    try:
        from dumpscope.tui.cli.main import main

        assert main(["formats"]) == 0  # argv given: no os._exit, the test process lives on
    finally:
        done.set()
        t.join()
