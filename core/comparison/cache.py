"""A signed index of per-tensor results, so reopening a comparison skips the tensors it knows.

**What a stored row is keyed by.**  The *content* of the two files it was read from (a BLAKE2b
digest of each file's bytes), the member inside each file and how its reader reads it (dtype,
shape, kind, the reader's facts), the row's context (band, Reshape spec, declared layouts) and
the run: dumpscope's version and every threshold (preset, bands, floors, rtol/atol; a row's
worst slice depends on its band's floor).  Any difference is a miss: the row is computed again.

**Digests are not recomputed needlessly.**  The index remembers, per file, the
``(device, inode, size, mtime, ctime)`` it had when it was hashed, and reuses that digest while
they are unchanged, but only for a file whose ctime was then at least :data:`SETTLED_NS` old.
The kernel sets ctime on every write, rename, truncate or ``utime`` and no user can set it
back, so a tensor rewritten with the same size and the same mtime is hashed again.  (A
filesystem that does not keep ctime, or a clock set back by root, defeats this memo; the rows
are still keyed by the digests.)

**The index is signed.**  A keyed BLAKE2b over its bytes, with a private 32-byte key in the
user's config folder (``cache-key``, mode 0600, made on first use).  Another user who can write
the dump's folder can delete or replace the index, which is a miss, but not make it say
anything: every edit, a re-signed one included, fails the signature and the whole index is
ignored.  An index signed for another pair of dumps is ignored too.  (Whoever can read your key
can also rewrite your dumps.)  An index of an earlier format, a truncated or foreign file, a
link, a FIFO or a folder at its path: a miss, said in :attr:`RowCache.note`, never an error, and
a FIFO is never opened for reading in a way that blocks.

**Where.**  Next to the target dump (``.dumpscope-index-<golden>-<target>.parquet``, and the
last judged frame ``.dumpscope-frame-...``), or in the one folder the caller names (``cache=DIR``,
``--cache-dir DIR``), never anywhere else: :func:`index_folder` says which, and refuses (a
:class:`CacheError`, before any file is read) a folder this user cannot write in.  A write that
fails later all the same is said in :attr:`RowCache.note` and nothing is written elsewhere.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import os
import stat
import struct
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from dumpscope import __version__
from dumpscope.core.atomic import atomic_binary
from dumpscope.core.comparison.result import CACHED_COLUMN, SCHEMA
from dumpscope.core.comparison.table import RowTable
from dumpscope.core.dumps import Dump, DumpError, TensorRef
from dumpscope.core.paths import config_dir

__all__ = [
    "CACHED_COLUMN",
    "CacheError",
    "RowCache",
    "ROW_COLUMNS",
    "index_folder",
    "last_frame",
    "save_last_frame",
]

#: The columns a computed row fills (what :func:`rows.compute_row` returns).
ROW_COLUMNS: tuple[str, ...] = tuple(
    c
    for c in SCHEMA
    if c
    not in (
        "index",
        "name",
        "target_name",
        "node_name",
        "op_type",
        "kind",
        "side",
        "band",
        "pairing",
        "golden_file",
        "target_file",
    )
)
_KEY = "_key"

#: The first bytes of a signed index (format 2; format 1 was a bare Parquet file: a miss).
MAGIC = b"dumpscope signed index 2\n"
_HEAD = struct.Struct("<QQ")  # lengths of the two Parquet parts (rows, file digests)
_MAC_SIZE = 32
#: A file's digest is reused from its stat only when its ctime was this much older than the hash.
SETTLED_NS = 2_000_000_000
#: An index or frame file larger than this is not read (a planted file costs no memory).
MAX_INDEX_BYTES = 1 << 30
_CHUNK = 1 << 20


# ------------------------------------------------------------------ the signed container


def key_path() -> Path:
    """Where the private key that signs this user's indexes is kept."""
    return config_dir() / "cache-key"


def _secret(create: bool = False) -> tuple[bytes | None, str]:
    """This user's signing key and, when there is none, why ('' : none made yet).  With
    ``create``, one is made when there is none (only when an index is about to be written:
    a run that writes nothing leaves nothing in the home folder either)."""
    path = key_path()
    key, why = _read_key(path)
    if key is not None or why or not create:
        return key, why
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with atomic_binary(path) as fh:
            os.fchmod(fh.fileno(), 0o600)  # private whatever the umask (before a byte is written)
            fh.write(os.urandom(32))
    except OSError as exc:
        return None, f"no private key to sign it ({path}: {exc.strerror or exc})"
    return _read_key(path)


def _read_key(path: Path) -> tuple[bytes | None, str]:
    """The key at ``path``; (None, '') when there is none yet; (None, why) when it is unusable."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, ""
    except OSError as exc:
        return None, f"the key {path} cannot be read ({exc.strerror or exc})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077 or st.st_size != 32:
            return None, f"the key {path} is not a private 32-byte file of yours (mode 0600): it is not used"
        return os.pread(fd, 32, 0), ""
    finally:
        os.close(fd)


def _mac_start(key: bytes, bound: str, head: bytes) -> hashlib.blake2b:
    """The keyed digest of a container, fed with what it is for (``bound``) and its head."""
    h = hashlib.blake2b(key=key, digest_size=_MAC_SIZE, person=b"dumpscope-index")
    h.update(bound.encode("utf-8", "surrogateescape") + b"\0" + head)
    return h


def _mac(key: bytes, bound: str, head: bytes, parts: Iterable[bytes]) -> bytes:
    """The keyed digest of a container: what it is for (``bound``), its head, then its parts."""
    h = _mac_start(key, bound, head)
    for part in parts:
        h.update(part)
    return h.digest()


_UNSIGNED = "not signed by you for these dumps (edited, or another user's or pair's)"


def _seal(key: bytes, bound: str, rows: bytes, digests: bytes = b"") -> bytes:
    head = MAGIC + _HEAD.pack(len(rows), len(digests))
    return head + _mac(key, bound, head, (rows, digests)) + rows + digests


def _unseal(key: bytes, bound: str, data: bytes) -> tuple[bytes, bytes] | str:
    """The two parts of a container, or why it is not a valid one signed with ``key`` for ``bound``."""
    if not data.startswith(MAGIC):
        return "of another format (an earlier version's, or not an index)"
    head_end = len(MAGIC) + _HEAD.size
    if len(data) < head_end + _MAC_SIZE:
        return "truncated"
    n_rows, n_digests = _HEAD.unpack_from(data, len(MAGIC))
    body = data[head_end + _MAC_SIZE :]
    if len(body) != n_rows + n_digests:
        return "truncated or extended"
    rows, digests = body[:n_rows], body[n_rows:]
    signature = data[head_end : head_end + _MAC_SIZE]
    if not hmac.compare_digest(_mac(key, bound, data[:head_end], (rows, digests)), signature):
        return _UNSIGNED
    return rows, digests


def _open_sealed(path: Path, key: bytes, bound: str) -> tuple[bytes, bytes] | str | None:
    """The two parts of the signed container at ``path``; None when there is none; why it is
    not used otherwise.  A link, FIFO, device or folder is never opened in a way that blocks
    or follows; the signature is checked streaming before the file is held in memory (a
    planted file costs no memory), then again over the bytes held (the file may change)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be opened ({exc.strerror or exc}: a link or unreadable)"
    try:
        return _checked_then_read(fd, key, bound)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    finally:
        os.close(fd)


def _checked_then_read(fd: int, key: bytes, bound: str) -> tuple[bytes, bytes] | str:
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_size > MAX_INDEX_BYTES:
        return f"larger than {MAX_INDEX_BYTES >> 20} MB"
    head_end = len(MAGIC) + _HEAD.size
    head = os.pread(fd, head_end + _MAC_SIZE, 0)
    if not head.startswith(MAGIC):
        return "of another format (an earlier version's, or not an index)"
    if len(head) < head_end + _MAC_SIZE:
        return "truncated"
    n_rows, n_digests = _HEAD.unpack_from(head, len(MAGIC))
    if len(head) + n_rows + n_digests != st.st_size:
        return "truncated or extended"
    h = _mac_start(key, bound, head[:head_end])
    for at in range(len(head), st.st_size, _CHUNK):
        h.update(os.pread(fd, _CHUNK, at))
    if not hmac.compare_digest(h.digest(), head[head_end:]):
        return _UNSIGNED
    return _unseal(key, bound, head + os.pread(fd, n_rows + n_digests, len(head)))


def _not_regular(path: Path) -> str:
    """Why ``path`` cannot take an index ('' when it can: absent, or a regular file)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return exc.strerror or str(exc)
    if stat.S_ISREG(st.st_mode):
        return ""
    kind = (
        "a link"
        if stat.S_ISLNK(st.st_mode)
        else "a FIFO"
        if stat.S_ISFIFO(st.st_mode)
        else "a folder"
        if stat.S_ISDIR(st.st_mode)
        else "not a regular file"
    )
    return f"{kind} is there (left as it is)"


class _NoKey(Exception):
    """No key to sign with (the write is abandoned, its temporary removed)."""


def _write_sealed(path: Path, bound: str, rows: bytes, digests: bytes = b"") -> str:
    """Sign and write a container at ``path`` (atomically); '' when written, else why not.
    The key is made (on first use) only once the folder has taken the temporary file."""
    refused = _not_regular(path)
    if refused:
        return refused
    try:
        with atomic_binary(path) as fh:
            key, why = _secret(create=True)
            if key is None:
                raise _NoKey(why)
            fh.write(_seal(key, bound, rows, digests))
    except _NoKey as exc:
        return str(exc)
    except OSError as exc:
        return f"{exc.strerror or exc} (the folder is not writable: nothing was written elsewhere)"
    return ""


def _parquet(frame: pl.DataFrame) -> bytes:
    out = io.BytesIO()
    frame.write_parquet(out)
    return out.getvalue()


# ------------------------------------------------------------------ file digests


@dataclass
class FileDigests:
    """Content digests of tensor files, with the memo that skips hashing unchanged ones."""

    memo: dict[str, tuple[str, str]] = field(default_factory=dict)
    """path -> (stat identity, digest), as stored in the index (trusted only when settled)."""
    known: dict[str, str | None] = field(default_factory=dict)
    """This run's digests (None: not a regular file, or it changed while hashed)."""
    settled: dict[str, tuple[str, str]] = field(default_factory=dict)
    """This run's memo entries: what the next index keeps."""
    hashed_bytes: int = 0
    _stats: dict[str, os.stat_result | None] = field(default_factory=dict)

    def locate(self, source: str) -> tuple[str, str]:
        """(file, member) of a reader's ``source``: ``path``, ``path:member`` or ``path@offset``
        (the file's stat kept for :meth:`of`)."""
        if self._stat(source) is not None:
            return source, ""
        for sep in (":", "@"):
            path, found, member = source.rpartition(sep)
            if found and self._stat(path) is not None:
                return path, sep + member
        return source, ""

    def _stat(self, path: str) -> os.stat_result | None:
        """The stat of a regular file (not through a final link), once per run; None otherwise."""
        if path not in self._stats:
            try:
                st: os.stat_result | None = os.lstat(path)
            except (OSError, ValueError):
                st = None
            self._stats[path] = st if st is not None and stat.S_ISREG(st.st_mode) else None
        return self._stats[path]

    def of(self, paths: Iterable[str]) -> None:
        """Know the digest of every path of ``paths``: from the memo while its stat identity
        holds, else hashed (files over :data:`_CHUNK` in threads: hashlib and reads release the
        GIL; small ones here, a pool costs more than they do; the digests are the same)."""
        big: list[str] = []
        small: list[str] = []
        for path in dict.fromkeys(paths):
            if path in self.known:
                continue
            st, memo = self._stat(path), self.memo.get(path)
            if st is None:
                self.known[path] = None
            elif memo is not None and memo[0] == _identity(st):
                self.known[path], self.settled[path] = memo[1], memo
            else:
                (big if st.st_size > _CHUNK else small).append(path)
        for path in small:
            self._hashed(path, _hash_file(path))
        if big:
            with ThreadPoolExecutor(min(len(big), os.cpu_count() or 1, 8)) as pool:
                for path, hashed in zip(big, pool.map(_hash_file, big), strict=False):
                    self._hashed(path, hashed)

    def _hashed(self, path: str, hashed: tuple[str | None, tuple[str, str] | None, int]) -> None:
        digest, memo_entry, size = hashed
        self.known[path], self.hashed_bytes = digest, self.hashed_bytes + size
        if memo_entry is not None:
            self.settled[path] = memo_entry

    def frame(self) -> pl.DataFrame:
        paths = list(self.settled)
        return pl.DataFrame(
            {
                "path": paths,
                "stat": [self.settled[p][0] for p in paths],
                "digest": [self.settled[p][1] for p in paths],
            },
            schema={"path": pl.String(), "stat": pl.String(), "digest": pl.String()},
        )

    @classmethod
    def from_frame(cls, frame: pl.DataFrame) -> FileDigests:
        return cls(
            {p: (s, d) for p, s, d in zip(frame["path"], frame["stat"], frame["digest"], strict=False)}
        )


def _identity(st: os.stat_result) -> str:
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"


def _hash_file(path: str) -> tuple[str | None, tuple[str, str] | None, int]:
    """(digest, memo entry or None, bytes read) of a regular file; no digest when it is not
    one (a link, FIFO or device is never followed or read) or when it changed while read."""
    started = time.time_ns()
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None, None, 0
    try:
        before = os.fstat(fd)
        if not stat.S_ISREG(before.st_mode):
            return None, None, 0
        # a buffer of the file's size and a page (to see it grow): zeroing 1 MB a tiny file cost more than
        # hashing it
        h, buf, size = hashlib.blake2b(digest_size=32), bytearray(min(_CHUNK, before.st_size + 4096)), 0
        view = memoryview(buf)
        while n := os.readv(fd, [buf]):
            h.update(view[:n])
            size += n
        after = os.fstat(fd)
    except OSError:
        return None, None, 0
    finally:
        os.close(fd)
    if _identity(before) != _identity(after) or size != after.st_size:
        return None, None, size  # written while it was read: no digest, the row is computed
    digest = h.hexdigest()
    settled = after.st_ctime_ns < started - SETTLED_NS
    return digest, ((_identity(after), digest) if settled else None), size


# ------------------------------------------------------------------ the row index


@dataclass
class RowCache:
    """The signed index of one golden/target pair of dumps, looked up by content."""

    path: Path
    run: str
    rows: pl.DataFrame
    """The stored rows: ``_key`` plus :data:`ROW_COLUMNS` (one row per key)."""
    digests: FileDigests
    usable: bool
    """False when this user's key is unusable (then nothing is read or written)."""
    bound: str
    note: str = ""
    """What happened to the index: where it is, what was reused, or why it was not used."""
    hits: list[int] = field(default_factory=list)
    """The rows filled from the index in this run."""

    @classmethod
    def open(
        cls, golden: Dump, target: Dump, run: str, pairs: int = 0, folder: Path | None = None
    ) -> RowCache:
        """The index for this pair of dumps and ``run`` (version and thresholds; empty when
        there is none or it is unusable: :attr:`note` says why), kept in ``folder`` (see
        :func:`index_folder`; default: next to the target dump)."""
        path = _index_path(golden, target, folder)
        bound = f"rows\0{os.path.abspath(golden.path)}\0{os.path.abspath(target.path)}"
        secret, why = _secret()
        empty = cls(path, run, _empty_rows(), FileDigests(), not why, bound)
        if why:
            empty.note = f"index {path} not used: {why}"
            return empty
        parts = _open_sealed(path, secret, bound) if secret is not None else None
        if parts is None:
            empty.note = (
                "the index there was ignored: not signed by you (no key of yours yet)"
                if os.path.lexists(path)
                else "no index yet"
            )
            return empty
        if isinstance(parts, str):
            empty.note = f"the index there was ignored: {parts}"
            return empty
        try:
            rows, digests = pl.read_parquet(io.BytesIO(parts[0])), pl.read_parquet(io.BytesIO(parts[1]))
            rows = rows.filter(pl.col("_run") == run).select(_KEY, *ROW_COLUMNS)
            memo = FileDigests.from_frame(digests)
        except Exception as exc:  # noqa: BLE001 - signed but unreadable (another build of ours): a miss
            empty.note = f"the index there was ignored: {type(exc).__name__}"
            return empty
        return cls(path, run, rows, memo, True, bound)

    def keys(self, refs: Sequence[tuple[TensorRef, TensorRef]], contexts: Sequence[str]) -> list[str | None]:
        """Each pair's row key from the content of its files and its ``contexts`` (None when
        a side is not a regular file, or its reader already refused it)."""
        sources = [
            [
                self.digests.locate(ref.info.source) if ref.info.source and ref.error is None else None
                for ref in pair
            ]
            for pair in refs
        ]
        self.digests.of(s[0] for pair in sources for s in pair if s is not None)
        out: list[str | None] = []
        for pair, files, context in zip(refs, sources, contexts, strict=False):
            sides = [
                _side_key(ref, f, self.digests.known.get(f[0])) if f is not None else None
                for ref, f in zip(pair, files, strict=False)
            ]
            known = [s for s in sides if s is not None]
            out.append(_row_key(self.run, known, context) if len(known) == len(sides) else None)
        return out

    def lookup(self, keys: Sequence[str | None], rows: Sequence[int]) -> pl.DataFrame:
        """The stored rows for ``keys`` (row ``rows[k]`` has key ``keys[k]``): ``_row`` plus
        :data:`ROW_COLUMNS`, one join (a reopen of 100k rows builds no Python row)."""
        wanted = pl.DataFrame({_KEY: keys, "_row": rows}, schema={_KEY: pl.String(), "_row": pl.Int64()})
        found = wanted.join(self.rows, on=_KEY, how="inner").select("_row", *ROW_COLUMNS)
        self.hits = found["_row"].to_list()
        return found

    def save(self, keys: Sequence[str | None], table: RowTable, rows: Sequence[int]) -> None:
        """Store the computed ``rows`` of ``table`` (with their ``keys``); :attr:`note` says
        where, or why not."""
        computed = len(rows) - len(self.hits)
        reused = f"{len(self.hits)} of {len(rows)} rows reused, {computed} computed"
        if not self.usable:
            return
        frame = table.frame().select(ROW_COLUMNS)[list(rows)]
        frame = frame.with_columns(pl.Series(_KEY, keys, dtype=pl.String()), pl.lit(self.run).alias("_run"))
        frame = frame.filter(pl.col(_KEY).is_not_null() & (pl.col("status") == "computed"))
        read = f" ({self.note})" if self.note and self.note != "no index yet" else ""
        if frame.height == len(self.hits) and self.digests.settled == self.digests.memo:
            self.note = (
                f"index {self.path}: {reused} (errors are never stored)"
                if computed
                else f"index {self.path}: all {len(rows)} rows reused"
            )
            return  # nothing new to keep: the index stays as it is
        frame = frame.select(_KEY, "_run", *ROW_COLUMNS).unique(subset=_KEY, keep="last", maintain_order=True)
        why = _write_sealed(self.path, self.bound, _parquet(frame), _parquet(self.digests.frame()))
        where = f"index {self.path}: {reused}"
        if why:
            where = f"index not written at {self.path}: {why}; {reused}"
        self.note = where + read


def _empty_rows() -> pl.DataFrame:
    return pl.DataFrame(schema={_KEY: pl.String(), **{c: SCHEMA[c] for c in ROW_COLUMNS}})


def _side_key(ref: TensorRef, file: tuple[str, str], digest: str | None) -> str | None:
    """One side of a row key: its file's digest, the member, and how the reader reads it."""
    if digest is None:
        return None
    info = ref.info
    reader = type(ref.loader).__name__
    return f"{digest}{file[1]}|{info.dtype}|{info.shape}|{info.kind}|{info.extra!r}|{reader}"


def _row_key(run: str, sides: Sequence[str], context: str) -> str:
    h = hashlib.blake2b(digest_size=32)
    for part in (run, *sides, context):
        h.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return h.hexdigest()


#: Bumped whenever a metric's value changes for the same files (2: cosines from x.y summed directly), so
#: rows an earlier build stored are a miss, never shown as this build's numbers.
METRICS_REVISION = 2


def run_tag(thresholds: object) -> str:
    """What a stored row depends on beyond its files and context: this dumpscope, its metrics' revision and
    every threshold."""
    return f"{__version__}|m{METRICS_REVISION}|{thresholds!r}"


# ------------------------------------------------------------------ the last frame


def _frame_path(golden: Path, target: Path, tag: str, folder: Path | None) -> Path:
    """Where the last judged frame of this pair of dumps (for this run ``tag``) is kept."""
    index = _index_path(golden, target, folder)
    digest = hashlib.sha1(tag.encode()).hexdigest()[:8]
    name = index.name.replace(".dumpscope-index-", ".dumpscope-frame-")
    name = name.replace(".parquet", f"-{digest}.parquet")
    return index.with_name(name)


def _frame_bound(golden: Path, target: Path, tag: str) -> str:
    return f"frame\0{os.path.abspath(golden)}\0{os.path.abspath(target)}\0{tag}"


def save_last_frame(
    golden: Path, target: Path, tag: str, frame: pl.DataFrame, folder: Path | None = None
) -> str:
    """Keep the judged ``frame`` of this run (signed, in ``folder``: see :func:`index_folder`), so
    a reopen can show it before any file is read (see :func:`last_frame`); '' when kept, else why not."""
    frame = frame.drop(CACHED_COLUMN) if CACHED_COLUMN in frame.columns else frame
    path = _frame_path(golden, target, tag, folder)
    return _write_sealed(path, _frame_bound(golden, target, tag), _parquet(frame))


def last_frame(golden: Path, target: Path, tag: str, folder: Path | None = None) -> pl.DataFrame | None:
    """The judged frame the last run with this ``tag`` (version, thresholds) kept for this
    pair of dumps, every row marked cached: what a reopen paints at once, while the files
    are checked and any changed row computed again.  None when there is none, or it is
    unusable or not signed by this user for this pair and tag."""
    secret, _why = _secret()
    if secret is None:
        return None
    parts = _open_sealed(_frame_path(golden, target, tag, folder), secret, _frame_bound(golden, target, tag))
    if not isinstance(parts, tuple):
        return None
    try:
        frame = pl.read_parquet(io.BytesIO(parts[0]))
    except Exception:  # noqa: BLE001 - signed but unreadable: a miss
        return None
    if dict(frame.schema) != SCHEMA:
        return None
    return frame.with_columns(pl.lit(True).alias(CACHED_COLUMN))


class CacheError(DumpError):
    """The index cannot be kept where it is to be kept (one line, before any file is read)."""


def index_folder(target: str | Path, cache: bool | str | Path) -> Path:
    """The folder the index of ``target`` is kept in: the one ``cache`` names (``--cache-dir``),
    else the target dump's own folder.  :class:`CacheError` when this user cannot write there
    (nothing is ever written anywhere else instead)."""
    target = Path(target)
    named = isinstance(cache, (str, os.PathLike))
    folder = (
        Path(cache)
        if isinstance(cache, (str, os.PathLike))
        else (target if target.is_dir() else target.parent)
    )
    try:
        is_folder = stat.S_ISDIR(os.stat(folder).st_mode)
        why = "" if is_folder else "not a folder"
    except OSError as exc:
        why = exc.strerror or str(exc)
    if not why and not os.access(
        folder, os.W_OK | os.X_OK, effective_ids=os.access in os.supports_effective_ids
    ):
        why = "you cannot write in it"
    if why:
        hint = "a folder you can write" if named else "give --cache-dir DIR, a folder you can write"
        raise CacheError(f"--cache: the index cannot be kept in {folder}: {why} ({hint})")
    return folder


def _index_path(golden: Dump | Path, target: Dump | Path, folder: Path | None = None) -> Path:
    """In ``folder`` (default: next to the target dump, a folder or the file's folder), named
    after both dumps."""
    golden_path = golden.path if isinstance(golden, Dump) else golden
    target_path = target.path if isinstance(target, Dump) else target
    digest = hashlib.sha1(os.path.abspath(golden_path).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    if folder is None:
        folder = target_path if target_path.is_dir() else target_path.parent
    tag = hashlib.sha1(os.path.abspath(target_path).encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return folder / f".dumpscope-index-{digest}-{tag}.parquet"
