"""``--cache``: a signed index keyed by the files' content, that can miss but never lie.

Every verdict a cached run gives is checked against a fresh run without the cache and, for
the tensor that fails, against an independent float64 cosine.
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dumpscope.core import compare
from dumpscope.core.comparison import cache
from dumpscope.core.comparison.pipeline import compare_stream
from dumpscope.tui.cli.main import main
from tests.support.as_user import as_other_user, open_to_all, shared_folder

FAILING = "layer_03"


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own signing key (never the user's)."""
    config = tmp_path / "config"
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(config))
    return config


@pytest.fixture()
def pair(tmp_path: Path) -> tuple[Path, Path]:
    """Healthy fp16 copies of six float32 layers, an unreadable target file and a golden-only tensor."""
    rng = np.random.default_rng(11)
    g, t = tmp_path / "golden", tmp_path / "target"
    g.mkdir()
    t.mkdir()
    for i in range(6):
        a = rng.standard_normal(64 + 100 * i).astype(np.float32)
        np.save(g / f"layer_{i:02d}.npy", a)
        np.save(t / f"layer_{i:02d}.npy", a.astype(np.float16))
    (t / "layer_05.npy").write_bytes(b"not an npy file")
    np.save(g / "golden_only.npy", np.zeros(3, np.float32))
    return g, t


def _plain(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.drop(cache.CACHED_COLUMN) if cache.CACHED_COLUMN in frame.columns else frame


def _row(frame: pl.DataFrame, name: str) -> dict[str, object]:
    return frame.filter(pl.col("name") == name).row(0, named=True)


def _cosine64(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    return float(a @ b / np.sqrt((a @ a) * (b @ b)))


def _rewrite_keeping_size_and_mtime(path: Path, values: np.ndarray) -> None:
    """Replace a tensor's bytes in place with ``values``: same size, same mtime (as a hostile
    or careless writer can), only the kernel's ctime moves."""
    before = path.stat()
    buf = io.BytesIO()
    np.save(buf, values)
    assert len(buf.getvalue()) == before.st_size
    with open(path, "r+b") as fh:
        fh.write(buf.getvalue())
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def _index(target: Path) -> Path:
    (found,) = target.glob(".dumpscope-index-*.parquet")
    return found


def _parts(data: bytes) -> tuple[bytes, bytes, bytes]:
    """(head, rows Parquet, digests Parquet) of a signed index."""
    head_end = len(cache.MAGIC) + cache._HEAD.size
    n_rows, _n_digests = cache._HEAD.unpack_from(data, len(cache.MAGIC))
    body = data[head_end + 32 :]
    return data[:head_end], body[:n_rows], body[n_rows:]


def _assert_true_verdict(pair: tuple[Path, Path], failing: str | None = None) -> pl.DataFrame:
    """A cached run gives the frame a run without the cache gives; ``failing`` fails and was computed."""
    cached = compare(*pair, cache=True).frame
    assert_frame_equal(_plain(cached), compare(*pair).frame)
    if failing is not None:
        row = _row(cached, failing)
        assert row["health"] == "fail" and row["cached"] is False
    return cached


# ------------------------------------------------------------------ reuse


def test_a_reopen_reuses_every_computed_row_and_marks_them(pair: tuple[Path, Path]) -> None:
    first = compare(*pair, cache=True)
    assert not first.frame["cached"].any()
    assert str(_index(pair[1])) in str(first.meta.cache)
    again = compare(*pair, cache=True)
    assert_frame_equal(_plain(again.frame), _plain(first.frame))
    computed = again.frame["status"] == "computed"
    assert computed.sum() == 5 and (again.frame["cached"] == computed).all()  # the unreadable row: read again
    assert "5 of 6 rows reused, 1 computed" in str(again.meta.cache)


def test_rows_an_earlier_metrics_revision_stored_are_a_miss(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build whose metrics changed (cache.METRICS_REVISION) never shows rows an earlier one stored."""
    compare(*pair, cache=True)
    monkeypatch.setattr(cache, "METRICS_REVISION", cache.METRICS_REVISION + 1)
    again = compare(*pair, cache=True)
    assert not again.frame["cached"].any()
    assert_frame_equal(_plain(again.frame), compare(*pair).frame)


def test_a_reopen_reads_no_tensor_it_reuses(pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from dumpscope.core.comparison import rows

    compare(*pair, cache=True)
    read: list[str] = []
    real = rows.load_pair
    monkeypatch.setattr(rows, "load_pair", lambda p: read.append(p.name) or real(p))
    monkeypatch.setattr(rows, "read_plain", lambda p: read.append(p.name) or real(p))
    compare(*pair, cache=True, workers=1)
    assert read == ["layer_05"]  # only the row that is an error (errors are never stored)


def test_settled_files_are_not_hashed_again(pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "SETTLED_NS", 0)  # every file counts as settled at once
    compare(*pair, cache=True)  # hashes every file and keeps their stat identities
    hashed: list[str] = []
    real = cache._hash_file
    monkeypatch.setattr(cache, "_hash_file", lambda p: hashed.append(p) or real(p))
    again = compare(*pair, cache=True).frame
    assert hashed == [] and again["cached"].sum() == 5


# ------------------------------------------------------------------ content, not stat


@pytest.mark.parametrize("settled", [True, False])
def test_a_tensor_rewritten_with_the_same_size_and_mtime_gives_the_true_verdict(
    pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, settled: bool
) -> None:
    if settled:  # the digest memo is trusted at once: only ctime can tell the rewrite
        monkeypatch.setattr(cache, "SETTLED_NS", 0)
    first = compare(*pair, cache=True).frame
    assert _row(first, FAILING)["health"] == "ok"
    golden = np.load(pair[0] / f"{FAILING}.npy")
    broken = (-golden).astype(np.float16)  # the same shape and dtype: the same file size
    _rewrite_keeping_size_and_mtime(pair[1] / f"{FAILING}.npy", broken)
    assert _cosine64(golden, broken) < 0  # an independent check: this tensor must fail
    _assert_true_verdict(pair, FAILING)


# ------------------------------------------------------------------ a forged index


def _forge(index: Path, edit: str, forgery: str) -> None:
    """Edit the stored rows so every tensor reads as a perfect match, keeping their keys (the
    keys hold no secret), and sign the result as ``forgery`` says."""
    head, rows, digests = _parts(index.read_bytes())
    frame = pl.read_parquet(io.BytesIO(rows))
    if edit == "flip-health":
        frame = frame.with_columns(
            pl.lit("ok").alias("health"), pl.lit("").alias("message"), pl.lit("").alias("hard_fail")
        )
    perfect = {
        "cosine_similarity": 1.0,
        "max_absolute_error": 0.0,
        "relative_euclidean_distance": 0.0,
        "mean_relative_error": 0.0,
        "root_mean_square_error": 0.0,
        "within_tolerance": 1.0,
    }
    frame = frame.with_columns(pl.lit(v).alias(c) for c, v in perfect.items())
    out = io.BytesIO()
    frame.write_parquet(out)
    rows = out.getvalue()
    old_signature = index.read_bytes()[len(head) : len(head) + 32]
    head = cache.MAGIC + cache._HEAD.pack(len(rows), len(digests))
    golden, target = index.parent.parent / "golden", index.parent
    bound = f"rows\0{os.path.abspath(golden)}\0{os.path.abspath(target)}"
    secret, _why = cache._secret()
    assert secret is not None
    mac = {
        "unsigned": old_signature,
        "naive-checksum": hashlib.blake2b(head + rows + digests, digest_size=32).digest(),
        "sha256": hashlib.sha256(head + rows + digests).digest(),
        "another-key": cache._mac(b"k" * 32, bound, head, (rows, digests)),
        "the-users-key": cache._mac(secret, bound, head, (rows, digests)),
    }[forgery]
    index.write_bytes(head + mac + rows + digests)


def _failing_and_stored(pair: tuple[Path, Path]) -> None:
    """Make one tensor fail (an fp16 copy of the negated golden) and store its true row."""
    golden = np.load(pair[0] / f"{FAILING}.npy")
    target = (-golden).astype(np.float16)
    np.save(pair[1] / f"{FAILING}.npy", target)
    assert _cosine64(golden, target) < 0  # an independent check: this tensor must fail
    assert _row(compare(*pair, cache=True).frame, FAILING)["health"] == "fail"


@pytest.mark.parametrize("edit", ["flip-health", "numbers"])
@pytest.mark.parametrize("forgery", ["unsigned", "naive-checksum", "sha256", "another-key"])
def test_an_edited_index_is_a_miss_never_another_verdict(
    pair: tuple[Path, Path], edit: str, forgery: str
) -> None:
    _failing_and_stored(pair)
    _forge(_index(pair[1]), edit, forgery)
    cached = compare(*pair, cache=True)
    assert "not signed by you" in str(cached.meta.cache)
    assert not cached.frame["cached"].any()  # the whole index is a miss
    assert_frame_equal(_plain(cached.frame), compare(*pair).frame)
    assert _row(cached.frame, FAILING)["health"] == "fail"


def test_the_signature_is_what_stops_the_forgery(pair: tuple[Path, Path]) -> None:
    """The control: the same edit signed with the user's own key is believed (whoever holds
    the key can also rewrite the dumps), so the tests above pass only through the signature."""
    _failing_and_stored(pair)
    _forge(_index(pair[1]), "numbers", "the-users-key")
    assert _row(compare(*pair, cache=True).frame, FAILING)["health"] == "ok"


def test_the_rows_of_an_index_without_its_signature_are_a_miss(pair: tuple[Path, Path]) -> None:
    """Rows copied from the signed index into a bare Parquet file (the earlier format) are a miss."""
    compare(*pair, cache=True)
    index = _index(pair[1])
    _head, rows, _digests = _parts(index.read_bytes())
    index.write_bytes(rows)
    cached = compare(*pair, cache=True)
    assert "another format" in str(cached.meta.cache) and not cached.frame["cached"].any()


def test_an_index_signed_for_another_pair_is_a_miss(pair: tuple[Path, Path], tmp_path: Path) -> None:
    import shutil

    compare(*pair, cache=True)
    other = tmp_path / "other"
    shutil.copytree(pair[1], other)
    for f in other.glob(".dumpscope-*"):
        f.unlink()
    index = _index(pair[1])
    moved = cache._index_path(pair[0], other)
    shutil.copy(index, moved)
    cached = compare(pair[0], other, cache=True)
    assert "not signed" in str(cached.meta.cache) and not cached.frame["cached"].any()


def test_an_edited_last_frame_is_not_painted(pair: tuple[Path, Path]) -> None:
    """The UI paints the last frame before any file is read: an edited one is never shown."""
    compare(*pair, cache=True)
    assert next(iter(compare_stream(*pair, cache=True))).comparison.meta.from_cache
    (frame_file,) = pair[1].glob(".dumpscope-frame-*.parquet")
    data = bytearray(frame_file.read_bytes())
    data[-40] ^= 0xFF
    frame_file.write_bytes(bytes(data))
    assert not next(iter(compare_stream(*pair, cache=True))).comparison.meta.from_cache


def test_a_painted_last_frame_is_marked_cached_then_checked(pair: tuple[Path, Path]) -> None:
    first = compare(*pair, cache=True).frame
    stream = compare_stream(*pair, cache=True)
    early = next(stream)
    assert early.comparison.meta.from_cache and early.comparison.frame["cached"].all()
    assert_frame_equal(_plain(early.comparison.frame), _plain(first))
    last = list(stream)[-1]
    assert last.comparison.meta.from_cache is None and last.done == last.total


# ------------------------------------------------------------------ misses


def test_another_version_is_a_miss(pair: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    compare(*pair, cache=True)
    monkeypatch.setattr(cache, "__version__", "99.0")
    assert not compare(*pair, cache=True).frame["cached"].any()


@pytest.mark.parametrize("override", ["rtol=0.5", "cosine_similarity=0.5", "fp16.max_absolute_error.fail=9"])
def test_other_thresholds_are_a_miss_with_their_own_verdict(pair: tuple[Path, Path], override: str) -> None:
    compare(*pair, cache=True)
    cached = compare(*pair, cache=True, thresholds=[override]).frame
    assert not cached["cached"].any()
    assert_frame_equal(_plain(cached), compare(*pair, thresholds=[override]).frame)


def test_another_preset_is_a_miss(pair: tuple[Path, Path]) -> None:
    compare(*pair, cache=True)
    assert not compare(*pair, cache=True, preset="int8").frame["cached"].any()


def test_an_earlier_format_index_is_a_miss_not_an_error(pair: tuple[Path, Path]) -> None:
    """The index as dumpscope wrote it before: a bare Parquet file keyed by path, size, mtime."""
    compare(*pair, cache=True)
    index = _index(pair[1])
    old = pl.DataFrame(
        {
            "_key": [f"{pair[1]}/{FAILING}.npy:|1|2"],
            "_run": ["0.0|rtol=0.001|atol=1e-05"],
            "cosine_similarity": [1.0],
            "status": ["computed"],
        }
    )
    old.write_parquet(index)
    golden = np.load(pair[0] / f"{FAILING}.npy")
    np.save(pair[1] / f"{FAILING}.npy", (-golden).astype(np.float16))
    cached = compare(*pair, cache=True)
    assert "another format" in str(cached.meta.cache)
    assert _row(cached.frame, FAILING)["health"] == "fail"
    assert index.read_bytes().startswith(cache.MAGIC)  # replaced by a signed one


def test_a_truncated_index_is_a_miss(pair: tuple[Path, Path]) -> None:
    compare(*pair, cache=True)
    index = _index(pair[1])
    index.write_bytes(index.read_bytes()[:100])
    cached = compare(*pair, cache=True)
    assert "truncated" in str(cached.meta.cache) and not cached.frame["cached"].any()


def test_a_key_others_can_read_is_not_used(pair: tuple[Path, Path], private_config: Path) -> None:
    compare(*pair, cache=True)
    key = private_config / "cache-key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    key.chmod(0o644)
    cached = compare(*pair, cache=True)
    assert "not used" in str(cached.meta.cache) and not cached.frame["cached"].any()
    assert_frame_equal(_plain(cached.frame), compare(*pair).frame)


# ------------------------------------------------------------------ where it is written


def test_a_write_that_fails_after_the_check_is_said_and_nothing_goes_elsewhere(
    pair: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folder passed the check, then refused the write (a race, a full disk): said, results whole."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    real = cache.atomic_binary

    def refusing(path: Path):  # type: ignore[no-untyped-def]
        if Path(path).parent == pair[1]:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(cache, "atomic_binary", refusing)
    cmp = compare(*pair, cache=True)
    assert "not written" in str(cmp.meta.cache) and str(pair[1]) in str(cmp.meta.cache)
    assert not list(pair[1].glob(".dumpscope-*")) and not home.exists()
    assert_frame_equal(_plain(cmp.frame), compare(*pair).frame)


# ------------------------------------------------------------------ where it is kept: stated, never moved


@pytest.fixture()
def shared_pair() -> Iterator[tuple[Path, Path]]:
    """:func:`pair` in a folder every user may read, the target folder read-only."""
    for top in shared_folder():
        rng = np.random.default_rng(5)
        g, t = top / "golden", top / "target"
        g.mkdir()
        t.mkdir()
        for i in range(3):
            a = rng.standard_normal(50).astype(np.float32)
            np.save(g / f"layer_{i:02d}.npy", a)
            np.save(t / f"layer_{i:02d}.npy", -a if i == 1 else a)
        open_to_all(top)
        t.chmod(0o555)
        yield g, t


#: A reopen that reused every row (the second form while the files' digests were too fresh to memo)
REUSED_ALL_3 = ("all 3 rows reused", "3 of 3 rows reused, 0 computed")


def _cached_compare(golden: Path, target: Path, where: bool | str) -> dict[str, object]:
    """In the other user's process: the verdicts and where the index is, or the one line refusing it."""
    try:
        cmp = compare(golden, target, cache=where)
    except cache.CacheError as exc:
        return {"refused": str(exc)}
    return {"health": cmp.frame["health"].to_list(), "cache": cmp.meta.cache}


def test_a_folder_you_cannot_write_in_is_refused_before_any_file_is_read(
    shared_pair: tuple[Path, Path],
) -> None:
    """As a user that is not root (``nobody`` when the tests run as root): one line, no index
    anywhere, nothing in the home folder."""
    g, t = shared_pair
    ran = as_other_user(_cached_compare, g, t, True)
    assert ran.value == {
        "refused": f"--cache: the index cannot be kept in {t}: you cannot write in it "
        "(give --cache-dir DIR, a folder you can write)"
    }, ran
    assert sorted(p.name for p in t.iterdir()) == ["layer_00.npy", "layer_01.npy", "layer_02.npy"]
    cli = as_other_user(main, ["compare", str(g), str(t), "--cache", "--format", "csv"])
    assert cli.code == 2 and cli.stdout == "", cli
    assert cli.stderr.splitlines() == [f"dumpscope: {ran.value['refused']}"]


def test_cache_dir_keeps_the_index_there_when_the_dumps_are_not_yours(
    shared_pair: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone else's dumps, read-only: ``--cache-dir`` puts the index where this user can write,
    says so, reuses it, and the verdicts are those of a run without the cache."""
    g, t = shared_pair
    mine = g.parent / "mine"
    mine.mkdir()
    mine.chmod(0o777)
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(mine / "config"))
    first = as_other_user(_cached_compare, g, t, str(mine))
    again = as_other_user(_cached_compare, g, t, str(mine))
    [index] = mine.glob(".dumpscope-index-*.parquet")
    assert first.value["cache"] == f"index {index}: 0 of 3 rows reused, 3 computed", first
    assert again.value["cache"] in (f"index {index}: {n}" for n in REUSED_ALL_3), again
    truth = compare(g, t).frame["health"].to_list()
    assert first.value["health"] == again.value["health"] == truth and truth.count("fail") == 1
    assert sorted(p.name for p in t.iterdir()) == ["layer_00.npy", "layer_01.npy", "layer_02.npy"]
    cli = as_other_user(main, ["compare", str(g), str(t), "--cache-dir", str(mine), "--format", "csv"])
    said = {f"dumpscope: cache: index {index}: {n}" for n in REUSED_ALL_3}
    assert cli.code == 1 and said & set(cli.stderr.splitlines()), cli


def test_the_cli_states_where_the_index_is_read_and_written(pair: tuple[Path, Path], tmp_path: Path) -> None:
    here = _run_cli("compare", *map(str, pair), "--cache", "--format", "csv")
    elsewhere = tmp_path / "indexes"
    elsewhere.mkdir()
    there = _run_cli("compare", *map(str, pair), "--cache-dir", str(elsewhere), "--format", "csv")
    [index] = elsewhere.glob(".dumpscope-index-*.parquet")
    assert [line for line in here.stderr.splitlines() if "cache" in line] == [
        f"dumpscope: cache: index {_index(pair[1])}: 0 of 6 rows reused, 6 computed"
    ]
    assert [line for line in there.stderr.splitlines() if "cache" in line] == [
        f"dumpscope: cache: index {index}: 0 of 6 rows reused, 6 computed"
    ]
    assert index.name == _index(pair[1]).name  # the same name: only the folder differs
    assert here.stdout == there.stdout  # the same rows, none cached yet


@pytest.mark.parametrize("given", ["missing", "file"])
def test_a_cache_dir_that_is_no_folder_is_refused(
    pair: tuple[Path, Path], tmp_path: Path, given: str
) -> None:
    where = tmp_path / given
    if given == "file":
        where.write_text("x")
    done = _run_cli("compare", *map(str, pair), "--cache-dir", str(where))
    why = "No such file or directory" if given == "missing" else "not a folder"
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"dumpscope: --cache: the index cannot be kept in {where}: {why} (a folder you can write)"
    ]
    assert not list(pair[1].glob(".dumpscope-*"))


def _run_cli(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dumpscope", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "NO_COLOR": "1"},
    )


@pytest.mark.parametrize("planted", ["index", "frame"])
def test_a_fifo_at_the_index_path_does_not_hang(pair: tuple[Path, Path], planted: str) -> None:
    compare(*pair, cache=True)
    victim = _index(pair[1]) if planted == "index" else next(pair[1].glob(".dumpscope-frame-*.parquet"))
    victim.unlink()
    os.mkfifo(victim)
    done = _run_cli("compare", *map(str, pair), "--cache", "--format", "json", timeout=120)
    assert done.returncode == 1, done.stderr  # the unreadable row fails the run, as without the cache
    assert "internal error" not in done.stderr and stat.S_ISFIFO(victim.lstat().st_mode)
    if planted == "index":
        assert "dumpscope: cache: index not written" in done.stderr and "FIFO" in done.stderr


def test_a_link_at_the_index_path_is_not_followed(pair: tuple[Path, Path], tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.parquet"
    elsewhere.write_bytes(b"keep")
    compare(*pair, cache=True)
    index = _index(pair[1])
    index.unlink()
    index.symlink_to(elsewhere)
    cmp = compare(*pair, cache=True)
    assert "link" in str(cmp.meta.cache) and elsewhere.read_bytes() == b"keep" and index.is_symlink()


def test_the_cli_says_where_the_index_is_and_marks_cached_rows(pair: tuple[Path, Path]) -> None:
    first = _run_cli("compare", *map(str, pair), "--cache", "--format", "csv")
    assert f"dumpscope: cache: index {_index(pair[1])}" in first.stderr
    again = _run_cli("compare", *map(str, pair), "--cache", "--format", "csv")
    header, *rows = again.stdout.splitlines()
    assert header.split(",")[-1] == "cached"
    assert sorted(r.rsplit(",", 1)[1] for r in rows) == ["false"] * 2 + ["true"] * 5
    table = _run_cli("compare", *map(str, pair), "--cache", "--limit", "0")
    assert table.stdout.count("OK (cached)") == 5 and "served from the --cache index" in table.stdout
    plain = _run_cli("compare", *map(str, pair), "--format", "csv")
    assert "cached" not in plain.stdout.splitlines()[0] and "cache:" not in plain.stderr


# ------------------------------------------------------------------ the terminal UI


async def test_the_ui_with_fifos_at_the_index_paths_fills_marks_and_quits(pair: tuple[Path, Path]) -> None:
    from dumpscope.tui.app.app import DumpscopeApp
    from dumpscope.tui.app.feed import CompareRequest
    from tests.support.tui import SIZE, settle

    compare(*pair, cache=True)
    compare(*pair, cache=True)  # an index to reuse: the UI marks its rows
    app = DumpscopeApp(CompareRequest(*pair, cache=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.comparison is not None and app.rows is not None
        assert "pending" not in app.comparison.frame["health"].to_list()
        marked = [app.rows.health_label(p) for p in range(app.rows.n)]
        assert marked.count("✓↺OK") == 5
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code is not None
    for planted in [_index(pair[1]), *pair[1].glob(".dumpscope-frame-*.parquet")]:
        planted.unlink()
        os.mkfifo(planted)
    app = DumpscopeApp(CompareRequest(*pair, cache=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.comparison is not None and "pending" not in app.comparison.frame["health"].to_list()
        assert "FIFO" in str(app.comparison.meta.cache)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code is not None


def test_a_run_that_writes_no_index_leaves_nothing_in_the_home_folder(
    pair: tuple[Path, Path], private_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is made only when an index is about to be written."""
    real = cache.atomic_binary

    def refusing(path: Path):  # type: ignore[no-untyped-def]
        if Path(path).parent == pair[1]:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(cache, "atomic_binary", refusing)
    cmp = compare(*pair, cache=True)
    assert "not written" in str(cmp.meta.cache) and not private_config.exists()
