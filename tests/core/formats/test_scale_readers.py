"""Many tiny tensors (issue 15): one open per small file, headers parsed from the bytes read."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.dumps import TensorReadError
from dumpscope.core.formats import npyfile
from dumpscope.core.formats.npyfile import Scratch, SmallFiles, facts_loader, npy_facts, read_header

DTYPES = ("<f4", "<f2", "<f8", "|i1", "<i8", "|u1", "|b1", ">f4", "<c8")


@settings(max_examples=200, deadline=None)
@given(
    shape=st.lists(st.integers(0, 70_000), max_size=5), dtype=st.sampled_from(DTYPES), fortran=st.booleans()
)
def test_simple_header_reads_what_numpy_wrote(shape: list[int], dtype: str, fortran: bool) -> None:
    """The bytes-level parse gives numpy's own header facts (or defers to the general path)."""
    buf = io.BytesIO()
    header = {"descr": dtype, "fortran_order": fortran, "shape": tuple(shape)}
    np.lib.format.write_array_header_1_0(buf, header)
    head = buf.getvalue()
    got = _outcome(lambda: npyfile._simple_header(head))
    assert got is None or got == _outcome(lambda: _general(head))


def _general(head: bytes) -> tuple[object, ...]:
    """numpy-format header facts by the general path: (shape, fortran, dtype, data offset)."""
    f = io.BytesIO(head)
    shape, fortran, dtype = read_header(f)
    return shape, fortran, dtype, f.tell()


def _outcome(call):  # type: ignore[no-untyped-def]
    """What ``call`` returns, or the message it raises."""
    try:
        return call()
    except npyfile.TensorReadError as exc:
        return f"raised: {exc}"


def test_a_huge_shape_is_refused_by_the_simple_path_too() -> None:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": "<f4", "fortran_order": False, "shape": (1 << 40, 1 << 20)}
    )
    read_header(
        io.BytesIO(_header_of(np.zeros(1, np.float32)))
    )  # the general path teaches the simple one '<f4'
    assert npyfile._simple_header(_header_of(np.zeros(3, np.float32))) is not None
    with pytest.raises(npyfile.TensorReadError, match="2\\*\\*48"):
        npyfile._simple_header(buf.getvalue())


def _header_of(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def test_a_small_file_is_opened_once_for_the_metric_pass(tmp_path: Path) -> None:
    """Its bytes are kept with the header and serve the metric pass once; a later load reads
    the file as it is then (a file spoiled after the comparison is an error, not old data)."""
    a = np.arange(32, dtype=np.float32)
    path = tmp_path / "a.npy"
    np.save(path, a)
    facts = npy_facts(path, None, SmallFiles())
    assert facts.data is not None and facts.size == path.stat().st_size
    loader = facts_loader(str(path), facts)
    assert loader.identity == (path.stat().st_size, path.stat().st_mtime_ns)
    path.write_bytes(b"spoiled")
    np.testing.assert_array_equal(loader.read_into(Scratch()), a)  # the bytes read with the header
    assert loader.data is None  # ... used once, then freed
    with pytest.raises(ValueError):  # the file is no npy any more
        loader()


def test_the_small_file_budget_bounds_what_is_kept(tmp_path: Path) -> None:
    np.save(tmp_path / "a.npy", np.zeros(16, np.float32))
    np.save(tmp_path / "big.npy", np.zeros(4096, np.float32))  # over SMALL_FILE_BYTES: never kept
    keep = SmallFiles(budget=0)
    assert npy_facts(tmp_path / "a.npy", None, keep).data is None
    keep = SmallFiles()
    assert npy_facts(tmp_path / "big.npy", None, keep).data is None
    assert npy_facts(tmp_path / "a.npy", None, keep).data is not None
    assert keep.left == (16 << 20) - (tmp_path / "a.npy").stat().st_size


def _scandirs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every folder ``os.scandir`` lists from now on (recorded, then listed as usual)."""
    import os

    listed: list[str] = []
    real = os.scandir

    def scandir(path):  # type: ignore[no-untyped-def]
        listed.append(os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    return listed


def test_a_comparison_lists_each_folder_once_for_every_sniffer_and_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sniffing every format and reading both sides list each dump folder once (issue 24: a
    folder of 100k files was listed, sorted and classified a dozen times), and the rows are
    those of folders listed afresh by each reader."""
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.formats import open_dump

    for side, noise in (("g", 0.0), ("t", 1e-3)):
        (tmp_path / side / "sub").mkdir(parents=True)
        for i in range(5):
            np.save(tmp_path / side / f"t{i}.npy", np.arange(8, dtype=np.float32) + noise * i)
        np.save(tmp_path / side / "sub" / "deep.npy", np.ones(3, np.float32))
    alone = {s: sorted(open_dump(tmp_path / s).tensors) for s in ("g", "t")}
    listed = _scandirs(monkeypatch)
    result = compare(tmp_path / "g", tmp_path / "t")
    assert sorted(listed) == sorted({str(tmp_path / s / d).rstrip("/.") for s in "gt" for d in ("", "sub")})
    assert sorted(result.frame["name"].to_list()) == alone["g"] == alone["t"]


def test_a_listing_is_shared_only_within_one_open(tmp_path: Path) -> None:
    """A file added after one open is seen by the next (no listing outlives its open)."""
    from dumpscope.core.formats import open_dump

    np.save(tmp_path / "a.npy", np.ones(2, np.float32))
    assert list(open_dump(tmp_path).tensors) == ["a"]
    np.save(tmp_path / "b.npy", np.ones(2, np.float32))
    assert list(open_dump(tmp_path).tensors) == ["a", "b"]


def test_a_forked_child_reads_into_an_inherited_scratch_safely(tmp_path: Path) -> None:
    """A scratch's big buffer is not inherited by a fork (no copy-on-write of it in the parent): the
    child's scratch starts empty and reads the same data, and the parent's buffer is untouched."""
    import multiprocessing

    a = np.arange(200_000, dtype=np.float32)  # 800 KB: over UNSHARED_MIN_BYTES
    np.save(tmp_path / "a.npy", a)
    loader = facts_loader(str(tmp_path / "a.npy"), npy_facts(tmp_path / "a.npy"))
    scratch = Scratch()
    first = loader.read_into(scratch)
    np.testing.assert_array_equal(first, a)
    context = multiprocessing.get_context("fork")
    ours, theirs = context.Pipe()
    child = context.Process(target=_read_in_child, args=(theirs, loader, scratch))
    child.start()
    theirs.close()  # a child that dies closes the pipe: recv() fails rather than waits
    assert ours.recv() == (0, float(a.sum()))  # an empty buffer after the fork, then the data
    child.join(timeout=30)
    assert child.exitcode == 0
    np.testing.assert_array_equal(first, a)  # the parent's buffer as it was


def _read_in_child(conn: object, loader: object, scratch: Scratch) -> None:
    held = len(scratch._buf)  # noqa: SLF001 - what the fork left it
    data = loader.read_into(scratch)  # type: ignore[attr-defined]
    conn.send((held, float(data.sum())))  # type: ignore[attr-defined]


def test_a_corrupt_header_is_said_the_same_way_every_time(tmp_path: Path) -> None:
    """numpy's parser may quote an object's address (``<ast.Name object at 0x7f..>``); the message
    keeps the parser's words but never the address, so the same file gives the same row."""
    bad = tmp_path / "bad.npy"
    bad.write_bytes(b"\x93NUMPY\x01\x00\x10\x00{'descr': x}   \n")
    with bad.open("rb") as f, pytest.raises(TensorReadError) as caught:
        read_header(f)
    said = str(caught.value)
    assert said.startswith("corrupt .npy header (ValueError: malformed node or string")
    assert " at 0x" not in said and "<ast.Name object>" in said


def test_a_large_scratch_asks_for_huge_pages_and_reads_the_same(tmp_path: Path, monkeypatch) -> None:
    """A scratch buffer of 2 MiB or more asks for transparent huge pages (fewer page faults and TLB
    misses reading a big tensor); a small one does not; either reads the data exactly."""
    import mmap

    if npyfile._HUGEPAGE is None or npyfile._DONTFORK is None:
        pytest.skip("no MADV_HUGEPAGE / MADV_DONTFORK on this system")
    asked: list[int] = []

    class Recording(mmap.mmap):
        def madvise(self, option: int, *args: int) -> None:
            asked.append(option)
            super().madvise(option, *args)

    monkeypatch.setattr(npyfile.mmap, "mmap", Recording)
    for n, huge in ((200_000, False), (1_000_000, True)):  # 0.8 MB, 4 MB
        asked.clear()
        a = np.arange(n, dtype=np.float32)
        np.save(tmp_path / f"{n}.npy", a)
        loader = facts_loader(str(tmp_path / f"{n}.npy"), npy_facts(tmp_path / f"{n}.npy"))
        np.testing.assert_array_equal(loader.read_into(Scratch()), a)
        assert (mmap.MADV_HUGEPAGE in asked) == huge
        assert mmap.MADV_DONTFORK in asked


@pytest.mark.skipif(not npyfile._NOWAIT, reason="no preadv RWF_NOWAIT on this system")
@pytest.mark.parametrize("cached", [True, False], ids=["cached", "not-cached"])
def test_a_read_that_misses_the_page_cache_asks_for_the_tasks_files_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cached: bool
) -> None:
    """Inside read_ahead(files), the first read whose data the page cache does not hold asks the
    kernel for every file once (WILLNEED) and then reads the data; a cached read asks nothing."""
    import os

    arrays = [np.arange(300_000, dtype=np.float32) * k for k in range(3)]
    paths = []
    for k, a in enumerate(arrays):
        np.save(tmp_path / f"{k}.npy", a)
        paths.append(str(tmp_path / f"{k}.npy"))
    real_preadv, asked = os.preadv, []

    def preadv(fd: int, buffers: list, offset: int, flags: int = 0) -> int:
        if flags and not cached:  # not in the page cache: nothing without waiting
            raise BlockingIOError(11, "Resource temporarily unavailable")
        return real_preadv(fd, buffers, offset, flags)

    monkeypatch.setattr(os, "preadv", preadv)
    monkeypatch.setattr(os, "posix_fadvise", lambda fd, off, n, advice: asked.append((off, n, advice)))
    loaders = [facts_loader(p, npy_facts(p)) for p in paths]
    with npyfile.read_ahead(paths):
        for loader, a in zip(loaders, arrays, strict=True):
            np.testing.assert_array_equal(loader.read_into(Scratch()), a)
    assert asked == ([] if cached else [(0, 0, os.POSIX_FADV_WILLNEED)] * 3)
    asked.clear()
    np.testing.assert_array_equal(loaders[0].read_into(Scratch()), arrays[0])  # outside: no files to ask for
    assert asked == []
