"""``dumpscope compare`` starts computing before it loads Polars, and its workers never load it.

The command is run in a fresh interpreter with a probe that records, in every process, whether Polars was
loaded: in the parent when the workers are forked, and in each process after each task it computed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.comparison.execution import MIN_PARALLEL_ROWS
from dumpscope.tui.cli.main import main

#: Runs ``dumpscope ARGS...`` (argv[2:]) and appends ``PID WHEN polars=BOOL rich=BOOL`` lines to argv[1].
PROBE = r"""
import os, sys
from dumpscope.core.comparison import execution

log = sys.argv[1]

def note(when):
    with open(log, "a") as f:
        f.write(f"{os.getpid()} {when} polars={'polars' in sys.modules} rich={'rich' in sys.modules}\n")

real_part, real_fork = execution._run_part, execution._Forked.__init__

def run_part(compute, part):
    result = real_part(compute, part)
    note("task")
    return result

def fork(self, *args, **kwargs):
    note("fork")
    real_fork(self, *args, **kwargs)

execution._run_part, execution._Forked.__init__ = run_part, fork
from dumpscope.tui.cli.main import main
code = main(sys.argv[2:])
note("end")
sys.exit(code)
"""


@pytest.fixture(params=[(2, 3, 40), (64, 32, 20)], ids=["headers-first", "headers-in-workers"])
def pair(tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Path, Path]:
    """Enough float32-vs-float16 pairs for two workers (and one pair that fails, for a varied CSV);
    files under 64 KiB have their headers read before the fork, larger ones by the workers."""
    rng = np.random.default_rng(7)
    g, t = tmp_path / "golden", tmp_path / "target"
    g.mkdir()
    t.mkdir()
    for i in range(3 * MIN_PARALLEL_ROWS):
        a = rng.standard_normal(request.param, dtype=np.float32)
        b = a + rng.standard_normal(a.shape, dtype=np.float32) * (0.5 if i == 7 else 1e-3)
        np.save(g / f"layer_{i:03d}.npy", a)
        np.save(t / f"layer_{i:03d}.npy", b.astype(np.float16))
    return g, t


def _probe(args: list[str], log: Path, prelude: str = "") -> tuple[int, list[tuple[int, str, bool]]]:
    """Run the command under :data:`PROBE` (``prelude``: code run first); its exit code and events
    (pid, when, Polars loaded)."""
    code, events = _probe_all(args, log, prelude)
    return code, [(pid, when, polars) for pid, when, polars, _rich in events]


def _probe_all(
    args: list[str], log: Path, prelude: str = ""
) -> tuple[int, list[tuple[int, str, bool, bool]]]:
    """:func:`_probe`, the events with whether Rich was loaded too."""
    out = subprocess.run(
        [sys.executable, "-c", prelude + PROBE, str(log), *args], capture_output=True, text=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr
    lines = [line.split() for line in log.read_text().splitlines()]
    return out.returncode, [(int(p), when, pl == "polars=True", r == "rich=True") for p, when, pl, r in lines]


def _worker_tasks(events: list[tuple[int, str, bool]]) -> list[bool]:
    """Whether Polars was loaded after each task a forked worker (not the parent) computed."""
    parent = next(pid for pid, when, _ in events if when == "end")
    return [polars for pid, when, polars in events if when == "task" and pid != parent]


def test_workers_are_forked_before_polars_loads_and_never_load_it(
    pair: tuple[Path, Path], tmp_path: Path
) -> None:
    csv = tmp_path / "two.csv"
    code, events = _probe(
        ["compare", *map(str, pair), "--workers", "2", "--format", "csv", "-o", str(csv)], tmp_path / "log"
    )
    assert code == 1  # layer 7 fails
    assert [polars for _pid, when, polars in events if when == "fork"] == [False]  # once, before Polars
    worker = _worker_tasks(events)
    assert worker and not any(worker)  # the forked worker computed rows, without Polars
    assert [polars for _pid, when, polars in events if when == "end"] == [True]  # the frame is Polars'
    one = tmp_path / "one.csv"
    assert main(["compare", *map(str, pair), "--workers", "1", "--format", "csv", "-o", str(one)]) == 1
    assert csv.read_bytes() == one.read_bytes()


def test_the_probe_sees_polars_in_a_worker_forked_after_it_loaded(
    pair: tuple[Path, Path], tmp_path: Path
) -> None:
    """The probe itself tells: with Polars loaded before the command (as the app has it), the forked
    worker holds it."""
    args = ["compare", *map(str, pair), "--workers", "2", "--format", "csv", "-o", str(tmp_path / "x.csv")]
    code, events = _probe(args, tmp_path / "log", prelude="import polars\n")
    assert code == 1
    assert [polars for _pid, when, polars in events if when == "fork"] == [True]
    worker = _worker_tasks(events)
    assert worker and all(worker)


#: Code run before the probe: standard error is a terminal (compare then shows a progress bar).
ON_A_TERMINAL = """
import io, sys
class _Terminal(io.StringIO):
    def isatty(self):
        return True
sys.stderr = _Terminal()
"""


def test_on_a_terminal_the_progress_bar_loads_rich_only_once_the_workers_run(
    pair: tuple[Path, Path], tmp_path: Path
) -> None:
    args = ["compare", *map(str, pair), "--workers", "2", "--format", "csv", "-o", str(tmp_path / "x.csv")]
    code, events = _probe_all(args, tmp_path / "log", prelude=ON_A_TERMINAL)
    assert code == 1
    assert [(polars, rich) for _pid, when, polars, rich in events if when == "fork"] == [(False, False)]
    assert [rich for _pid, when, _polars, rich in events if when == "end"] == [True]  # the bar was shown


def test_the_progress_bar_loads_rich_at_its_first_tick() -> None:
    code = (
        "import sys; from dumpscope.tui.cli.args import ProgressBar; bar = ProgressBar(); bar.stop(); "
        "print('rich' in sys.modules); bar.rows(1, 2); bar.bytes(10, 20); "
        "print('rich' in sys.modules); bar.stop()"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
