"""``--scheduler``: every way it cannot be used is one clear line and exit 2, never an internal error.

The servers here listen on 127.0.0.1 only and stop by themselves.
"""

from __future__ import annotations

import builtins
import importlib.util
import os
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from polars.testing import assert_frame_equal

from dumpscope.core import compare
from dumpscope.core.comparison.execution import Scheduler, SchedulerError
from dumpscope.core.dumps import DumpError
from tests.fuzz.run import foreign_server  # the fuzz corpus's non-Dask server, one copy


@pytest.fixture()
def pair(tmp_path: Path) -> tuple[Path, Path]:
    g, t = tmp_path / "golden", tmp_path / "target"
    g.mkdir()
    t.mkdir()
    rng = np.random.default_rng(3)
    for i in range(4):
        a = rng.standard_normal(50).astype(np.float32)
        np.save(g / f"t{i}.npy", a)
        np.save(t / f"t{i}.npy", a.astype(np.float16))
    return g, t


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dumpscope", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "NO_COLOR": "1"},
    )


needs_dask = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="the address is checked against a server only once Dask is found (pip install 'dumpscope[dask]'); "
    "without it the answer is the 'needs Dask' line, tested by test_dask_missing_is_one_line",
)


def _one_clear_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dumpscope: --scheduler"), done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    assert not done.stdout


@pytest.mark.parametrize(
    "address",
    [
        "",
        "nonsense address",
        "tcp://127.0.0.1:99999",
        "tcp://:8786",
        "ftp://127.0.0.1:21",
        "tcp://127.0.0.1:port",
        "127.0.0.1",
        "tcp://a\x1b[2J:1",
    ],
)
def test_a_bad_address_is_one_line(address: str) -> None:
    with pytest.raises(SchedulerError, match="not an address"):
        Scheduler.of(address)


def test_a_bad_address_from_the_cli(pair: tuple[Path, Path]) -> None:
    done = _cli("compare", *map(str, pair), "--scheduler", "tcp://127.0.0.1:99999")
    _one_clear_line(done, "not an address")


@needs_dask
def test_a_refused_connection_is_one_line(pair: tuple[Path, Path]) -> None:
    port = _free_port()
    _one_clear_line(_cli("compare", *map(str, pair), "--scheduler", f"127.0.0.1:{port}"), "cannot connect")


@needs_dask
def test_a_server_that_says_nothing_gives_up_after_the_timeout(pair: tuple[Path, Path]) -> None:
    with foreign_server(None) as address:
        done = _cli("compare", *map(str, pair), "--scheduler", address, "--scheduler-timeout", "0.5")
    _one_clear_line(done, "no answer within 0.5 s", "--scheduler-timeout")


@needs_dask
@pytest.mark.parametrize(
    "greeting", [b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", b"SSH-2.0-OpenSSH_9.6\r\n", b"\xff" * 64]
)
def test_a_server_that_is_not_dask_is_one_line(pair: tuple[Path, Path], greeting: bytes) -> None:
    with foreign_server(greeting) as address:
        done = _cli("compare", *map(str, pair), "--scheduler", address, "--scheduler-timeout", "2")
    _one_clear_line(done, "not a Dask scheduler")


def test_dask_missing_is_one_line(pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def without_dask(name: str, *args: object, **kwargs: object) -> object:
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError("No module named 'distributed'")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", without_dask)
    with pytest.raises(SchedulerError, match=r"needs Dask.*pip install 'dumpscope\[dask\]'") as raised:
        compare(*pair, scheduler="tcp://127.0.0.1:8786")
    assert isinstance(raised.value, DumpError)  # what the CLI says on one line with exit 2


def test_the_timeout_must_be_positive_seconds(pair: tuple[Path, Path]) -> None:
    for bad in ("0", "-1", "nan", "inf", "soon"):
        done = _cli("compare", *map(str, pair), "--scheduler", "127.0.0.1:1", "--scheduler-timeout", bad)
        assert done.returncode == 2 and "--scheduler-timeout" in done.stderr
        assert "internal error" not in done.stderr
    with pytest.raises(SchedulerError, match="positive number of seconds"):
        Scheduler.of("127.0.0.1:8786", timeout=float("nan"))


def test_a_real_dask_scheduler_over_tcp_gives_the_identical_frame(pair: tuple[Path, Path]) -> None:
    distributed = pytest.importorskip(
        "distributed", reason="Dask is an optional extra: pip install 'dumpscope[dask]'"
    )
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        remote = compare(*pair, scheduler=cluster.scheduler_address, scheduler_timeout=10).frame
    assert_frame_equal(compare(*pair, workers=1).frame, remote)
