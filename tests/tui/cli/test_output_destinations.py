"""What every writer does with its destination (issue 21): the umask is honoured (0644 under 022),
a character device is written in place and never replaced, ``-`` is standard output, a FIFO is
refused at once, a planted link is never written through, and a read-only folder is one line.

Each writer is a real command line (or the UI export's writer), parametrised below."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from fuzz.corpus import GOOD, npy_dir
from fuzz.outputs import _ascend, _model

from dumpscope.tui.cli.main import main
from tests.support import as_user
from tests.support.as_user import as_other_user, open_to_all, shared_folder

NEEDS_ROOT = pytest.mark.skipif(
    not as_user.ROOT, reason="mknod of a character device needs root (CI runs as root)"
)


def _dumps(tmp: Path) -> tuple[str, str, str]:
    g, t, b = npy_dir(tmp / "g"), npy_dir(tmp / "t"), npy_dir(tmp / "b")
    np.save(t / "b.npy", np.full((2, 3), np.inf, np.float32))
    return str(g), str(t), str(b)


def _msprobe(tmp: Path) -> str:
    from tests.support.msprobe import entry, tensor, write_rank

    same = {"Functional.relu.0.forward": entry([tensor()], [tensor()])}
    for side in ("npu", "bench"):
        write_rank(tmp / side / "step0" / "rank0", same)
    return str(tmp)


def _cli(*argv: str) -> Callable[[Path, str], list[str]]:
    """A command line over the dumps of ``tmp``, ``OUT`` replaced by the destination."""

    def build(tmp: Path, out: str) -> list[str]:
        g, t, b = _dumps(tmp)
        subs = {"G": g, "T": t, "B": b, "OUT": out}
        if "MODEL" in argv:
            subs["MODEL"] = _model(tmp)
        if "ASCEND" in argv:
            subs["ASCEND"] = _ascend(tmp)
        if "NPU" in argv:
            top = _msprobe(tmp)
            subs.update(NPU=f"{top}/npu", BENCH=f"{top}/bench")
        return [subs.get(a, a) for a in argv]

    return build


#: Writers of one file at ``-o``: name -> command line.
FILE_WRITERS: dict[str, Callable[[Path, str], list[str]]] = {
    "compare-table": _cli("compare", "G", "T", "-o", "OUT"),
    "compare-csv": _cli("compare", "G", "T", "--format", "csv", "-o", "OUT"),
    "compare-json": _cli("compare", "G", "T", "--format", "json", "-o", "OUT"),
    "compare-markdown": _cli("compare", "G", "T", "--format", "markdown", "-o", "OUT"),
    "compare-parquet": _cli("compare", "G", "T", "--format", "parquet", "-o", "OUT"),
    "compare-model-explorer": _cli("compare", "G", "T", "--format", "model-explorer", "-o", "OUT"),
    "compare-sigmastar": _cli("compare", "T", "G", "--format", "sigmastar", "-o", "OUT"),
    "diagnose-text": _cli("diagnose", "G", "T", "-o", "OUT"),
    "diagnose-json": _cli("diagnose", "G", "T", "--json", "-o", "OUT"),
    "diagnose-markdown": _cli("diagnose", "G", "T", "--markdown", "-o", "OUT"),
    "threeway-table": _cli("compare", "G", "T", "B", "-o", "OUT"),
    "threeway-csv": _cli("compare", "G", "T", "B", "--format", "csv", "-o", "OUT"),
    "threeway-json": _cli("compare", "G", "T", "B", "--format", "json", "-o", "OUT"),
    "threeway-parquet": _cli("compare", "G", "T", "B", "--format", "parquet", "-o", "OUT"),
    "msprobe-table": _cli("compare", "NPU", "BENCH", "-o", "OUT"),
    "msprobe-json": _cli("compare", "NPU", "BENCH", "--format", "json", "-o", "OUT"),
    "msprobe-csv": _cli("compare", "NPU", "BENCH", "--format", "csv", "-o", "OUT"),
    "patch": _cli("patch", "MODEL", "-o", "OUT", "--keep-fp32", "relu"),
}
#: Writers of files in a folder: name -> (command line with ``OUT`` the folder, a file it writes there).
FOLDER_WRITERS: dict[str, tuple[Callable[[Path, str], list[str]], str]] = {
    "convert-npy": (_cli("convert", "ASCEND", "-o", "OUT"), "Add.a.0.1.1700000000000000.output.0.npy"),
    "convert-txt": (
        _cli("convert", "ASCEND", "-o", "OUT", "--type", "txt"),
        "Add.a.0.1.1700000000000000.output.0.txt",
    ),
    "compare-out-dir": (_cli("compare", "G", "T", "-out", "OUT"), "result_*.csv"),
    "threeway-out-dir": (_cli("compare", "G", "T", "B", "-out", "OUT"), "threeway_*.csv"),
    "dump": (_cli("dump", "MODEL", "-o", "OUT"), "manifest.json"),
}


def _run(argv: list[str]) -> int:
    return main(argv)


@pytest.fixture
def umask_022():  # type: ignore[no-untyped-def]
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.mark.parametrize("writer", sorted(FILE_WRITERS))
def test_a_written_file_honours_the_umask(tmp_path: Path, writer: str, umask_022: None) -> None:
    out = tmp_path / "out" / "result"
    out.parent.mkdir()
    assert _run(FILE_WRITERS[writer](tmp_path, str(out))) in (0, 1)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert [p.name for p in out.parent.iterdir()] == ["result"]  # no temporary left beside it


@pytest.mark.parametrize("writer", sorted(FOLDER_WRITERS))
def test_files_written_into_a_folder_honour_the_umask(tmp_path: Path, writer: str, umask_022: None) -> None:
    build, pattern = FOLDER_WRITERS[writer]
    out = tmp_path / "out"
    assert _run(build(tmp_path, str(out))) in (0, 1)
    [written] = list(out.glob(pattern))
    assert stat.S_IMODE(written.stat().st_mode) == 0o644


def test_the_ui_export_and_the_api_writers_honour_the_umask(tmp_path: Path, umask_022: None) -> None:
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.report import writers

    g, t, _b = _dumps(tmp_path)
    cmp = compare(g, t)
    for fmt, writer in {**writers.WRITERS, "parquet": writers.write_parquet}.items():
        out = tmp_path / f"r.{fmt}"
        writer(cmp, out)
        assert stat.S_IMODE(out.stat().st_mode) == 0o644, fmt
    cmp.save(tmp_path / "saved.parquet")
    assert stat.S_IMODE((tmp_path / "saved.parquet").stat().st_mode) == 0o644


def _device(path: Path) -> Path:
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # the null device's numbers
    return path


@NEEDS_ROOT
@pytest.mark.parametrize("writer", sorted(FILE_WRITERS))
def test_a_character_device_at_o_stays_a_character_device(tmp_path: Path, writer: str) -> None:
    dev = _device(tmp_path / "dev")
    assert _run(FILE_WRITERS[writer](tmp_path, str(dev))) in (0, 1)
    assert stat.S_ISCHR(dev.lstat().st_mode) and dev.lstat().st_rdev == os.makedev(1, 3)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary beside it


@NEEDS_ROOT
@pytest.mark.parametrize("writer", sorted(FOLDER_WRITERS))
def test_a_character_device_in_an_output_folder_stays_one(tmp_path: Path, writer: str) -> None:
    build, pattern = FOLDER_WRITERS[writer]
    out = tmp_path / "out"
    out.mkdir()
    stamp = time.time()
    names = [pattern.replace("*", time.strftime("%Y%m%d%H%M%S", time.localtime(stamp + k))) for k in range(4)]
    devices = [_device(out / n) for n in dict.fromkeys(names)]  # the timestamped names of the next seconds
    _run(build(tmp_path, str(out)))
    assert all(stat.S_ISCHR(d.lstat().st_mode) for d in devices)


@NEEDS_ROOT
def test_the_api_writers_leave_a_device_a_device(tmp_path: Path) -> None:
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.report import writers

    g, t, _b = _dumps(tmp_path)
    cmp = compare(g, t)
    dev = _device(tmp_path / "dev")
    for writer in (*writers.WRITERS.values(), writers.write_parquet, lambda c, p: c.save(p)):
        writer(cmp, dev)
        assert stat.S_ISCHR(dev.lstat().st_mode)


def test_dev_null_is_written_in_place() -> None:
    """The issue's worst bug: ``-o /dev/null`` as root renamed a regular file over /dev/null."""
    before = os.lstat("/dev/null")
    if not stat.S_ISCHR(before.st_mode):
        pytest.skip("/dev/null on this machine is not a device (something replaced it before this test)")
    from dumpscope.core.atomic import atomic_path, write_text

    write_text("x\n", "/dev/null")
    with atomic_path("/dev/null") as tmp:
        tmp.write_bytes(b"parquet bytes")  # a test's own fixture
    after = os.lstat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


@pytest.mark.parametrize(
    "writer", ["compare-csv", "compare-json", "compare-parquet", "threeway-csv", "diagnose-json"]
)
def test_dash_is_standard_output(tmp_path: Path, writer: str, capfd: pytest.CaptureFixture[str]) -> None:
    argv = FILE_WRITERS[writer](tmp_path, "-")
    capfd.readouterr()
    assert _run(argv) in (0, 1)
    out = capfd.readouterr().out
    assert out.startswith("PAR1") or "b" in out
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("writer", sorted(FILE_WRITERS))
def test_a_fifo_at_o_is_refused_at_once(
    tmp_path: Path, writer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused before the work and never opened: nothing blocks (a reader never comes)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert _run(FILE_WRITERS[writer](tmp_path, str(fifo))) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"dumpscope: {fifo}: is a FIFO (named pipe); dumpscope writes only regular files, "
        "character devices or - (stdout)"
    ]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_fifo_planted_in_an_output_folder_costs_its_file_only(tmp_path: Path) -> None:
    build, name = FOLDER_WRITERS["convert-npy"]
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / name)
    assert _run(build(tmp_path, str(out))) in (0, 1, 2)
    assert stat.S_ISFIFO((out / name).lstat().st_mode)
    assert (out / name.replace("Add.a.0", "Add.b.1").replace("000.", "001.")).is_file()


@pytest.mark.parametrize("writer", sorted(FILE_WRITERS))
def test_a_planted_link_is_replaced_never_written_through(tmp_path: Path, writer: str) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    out = tmp_path / "out"
    out.symlink_to(victim)
    assert _run(FILE_WRITERS[writer](tmp_path, str(out))) in (0, 1)
    assert victim.read_text() == "keep" and not out.is_symlink() and out.stat().st_size > 0


def test_a_timestamped_out_name_planted_in_advance_is_refused(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    out = tmp_path / "out"
    out.mkdir()
    stamp = time.time()
    for k in range(4):
        for stem in ("result", "threeway"):
            link = out / f"{stem}_{time.strftime('%Y%m%d%H%M%S', time.localtime(stamp + k))}.csv"
            if not link.is_symlink():
                link.symlink_to(victim)
    for writer in ("compare-out-dir", "threeway-out-dir"):
        assert _run(FOLDER_WRITERS[writer][0](tmp_path, str(out))) == 2
    assert victim.read_text() == "keep"


@pytest.fixture
def shared_tmp():  # type: ignore[no-untyped-def]
    yield from shared_folder()


def _write_one(dest: Path, how: str) -> int:
    """One atomic write of ``dest`` the way ``how`` says, reported as the command line reports it."""
    from dumpscope.core import atomic
    from dumpscope.tui.cli.main import _report

    try:
        if how == "path":
            with atomic.atomic_path(dest) as tmp:
                tmp.write_bytes(b"x")  # the temporary atomic_path hands out
        else:
            with (atomic.atomic_text if how == "text" else atomic.atomic_binary)(dest) as fh:
                fh.write("x" if how == "text" else b"x")  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001 - the command line's own report of it
        return _report(exc)
    return 0


@pytest.mark.parametrize("how", ["text", "binary", "path"])
def test_a_read_only_folder_is_one_line_as_a_normal_user(shared_tmp: Path, how: str) -> None:
    """Permissions only matter to a user that is not root: the writer runs as ``nobody`` (or as the
    normal user running the tests)."""
    ro = shared_tmp / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    dest = ro / "r.out"
    ran = as_other_user(_write_one, dest, how)
    assert ran.code == 2, ran
    assert ran.stderr.splitlines() == [f"dumpscope: {dest}: cannot write in its folder (Permission denied)"]
    assert list(ro.iterdir()) == []


@pytest.mark.parametrize("writer", ["compare-csv", "threeway-json", "diagnose-text"])
def test_a_read_only_folder_as_a_normal_user_on_the_command_line(shared_tmp: Path, writer: str) -> None:
    ro = shared_tmp / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    argv = FILE_WRITERS[writer](shared_tmp, str(ro / "r.out"))
    open_to_all(shared_tmp)
    ran = as_other_user(main, argv, cwd=shared_tmp)
    assert ran.code == 2 and ran.stderr.strip().splitlines() == [
        f"dumpscope: {ro / 'r.out'}: cannot write in its folder (Permission denied)"
    ], ran
    assert list(ro.iterdir()) == []


def _lines_of(path: Path) -> int:
    return path.read_text().count("\n")


@as_user.NEEDS_ROOT
def test_a_result_written_by_one_user_is_readable_by_another(shared_tmp: Path) -> None:
    """The issue's usability defect: results were 0600, teammates could not read them."""
    old = os.umask(0o022)
    try:
        out = shared_tmp / "r.csv"
        assert _run(FILE_WRITERS["compare-csv"](shared_tmp, str(out))) in (0, 1)
    finally:
        os.umask(old)
    for p in shared_tmp.rglob("*"):
        if p.is_dir():
            p.chmod(0o755)
    ran = as_other_user(_lines_of, out)
    assert ran.code == 1 + len(GOOD), ran


def test_the_other_user_is_nobody_when_root() -> None:
    """What the tests above rely on: as root the check really runs as ``nobody``, groups dropped."""
    ran = as_other_user(os.getresuid)
    assert ran.code == 0, ran
    want = as_user.NOBODY if as_user.ROOT else os.geteuid()
    assert ran.value == (want, want, want)
    assert as_other_user(os.getgroups).value == ([] if as_user.ROOT else os.getgroups())
