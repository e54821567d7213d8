"""A Parquet index of per-tensor results, so reopening a comparison skips the tensors.

Each computed row is stored with the identity of the two files it was read from (path,
size, modification time) and of the run (dumpscope's version, ``rtol``/``atol``: the only
thresholds the kernel sees; health is judged afterwards).  A row whose files or run
changed is simply computed again.  The index lives next to the target dump
(``.dumpscope-index-<golden>.parquet``) or, when that folder is read-only, in the user's
cache folder (``$XDG_CACHE_HOME/dumpscope/index``).  A corrupt or foreign index is
ignored, never fatal: it is only a cache.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from dumpscope import __version__
from dumpscope.core.comparison.result import SCHEMA
from dumpscope.core.comparison.table import RowTable
from dumpscope.core.dumps import Dump, TensorRef

__all__ = ["RowCache", "ROW_COLUMNS", "last_frame", "save_last_frame"]

#: The columns a computed row fills (what :func:`pipeline.compute_row` returns).
ROW_COLUMNS: tuple[str, ...] = tuple(
    c for c in SCHEMA if c not in ("index", "name", "target_name", "node_name", "op_type", "kind", "side", "band",
                                   "pairing", "golden_file", "target_file")
)
_KEY = "_key"


@dataclass
class RowCache:
    """The stored rows of one golden/target pair of dumps, looked up by file identity."""

    path: Path
    run: str
    rows: pl.DataFrame
    """The stored rows of this run: ``_key`` plus :data:`ROW_COLUMNS` (one row per key)."""

    @classmethod
    def open(cls, golden: Dump, target: Dump, rtol: float, atol: float) -> RowCache:
        """The index for this pair of dumps (empty when there is none or it is unusable)."""
        run = f"{__version__}|rtol={rtol!r}|atol={atol!r}"
        path = _index_path(golden, target)
        return cls(path, run, _read(path, run))

    def key(self, golden: TensorRef, target: TensorRef) -> str | None:
        """The identity of a pair's two files (None when a side is not a plain file)."""
        g, t = _file_key(golden), _file_key(target)
        return None if g is None or t is None else f"{g}|{t}"

    def lookup(self, keys: Sequence[str | None], rows: Sequence[int]) -> pl.DataFrame:
        """The stored rows for ``keys`` (row ``rows[k]`` has key ``keys[k]``): ``_row`` plus
        :data:`ROW_COLUMNS`, one join (a reopen of 100k rows builds no Python row)."""
        wanted = pl.DataFrame({_KEY: keys, "_row": rows}, schema={_KEY: pl.String(), "_row": pl.Int64()})
        return wanted.join(self.rows, on=_KEY, how="inner").select("_row", *ROW_COLUMNS)

    def save(self, keys: Sequence[str | None], table: RowTable, rows: Sequence[int]) -> None:
        """Store the computed ``rows`` of ``table`` (with their ``keys``); failure is silent."""
        frame = table.frame().select(ROW_COLUMNS)[list(rows)]
        frame = frame.with_columns(pl.Series(_KEY, keys, dtype=pl.String()), pl.lit(self.run).alias("_run"))
        frame = frame.filter(pl.col(_KEY).is_not_null() & pl.col("status").is_in(["computed", "error"]))
        if not frame.height:
            return
        frame = frame.select(_KEY, "_run", *ROW_COLUMNS).unique(subset=_KEY, keep="last", maintain_order=True)
        _write_first(frame, self.path)


def _write_first(frame: pl.DataFrame, path: Path) -> None:
    """Write ``frame`` at ``path``, else under the same name in the user's cache folder."""
    for candidate in (path, _user_path(path.name)):
        if _write(frame, candidate):
            return


# ------------------------------------------------------------------ the last frame


def _frame_path(golden: Path, target: Path, tag: str) -> Path:
    """Where the last judged frame of this pair of dumps (for this run ``tag``) is kept."""
    index = _index_path(golden, target)
    digest = hashlib.sha1(tag.encode()).hexdigest()[:8]
    return index.with_name(index.name.replace(".dumpscope-index-", ".dumpscope-frame-").replace(".parquet", f"-{digest}.parquet"))


def save_last_frame(golden: Path, target: Path, tag: str, frame: pl.DataFrame) -> None:
    """Keep the judged ``frame`` of this run, so a reopen can show it before any file is
    read (see :func:`last_frame`); failure is silent."""
    _write_first(frame, _frame_path(golden, target, tag))


def last_frame(golden: Path, target: Path, tag: str) -> pl.DataFrame | None:
    """The judged frame the last run with this ``tag`` (version, thresholds) kept for this
    pair of dumps: what a reopen paints at once, while the files are checked and any
    changed row computed again.  None when there is none (or it is unusable)."""
    path = _frame_path(golden, target, tag)
    for candidate in (path, _user_path(path.name)):
        try:
            frame = pl.read_parquet(candidate)
        except Exception:  # noqa: BLE001 - a missing, corrupt or foreign file is a cache miss
            continue
        if dict(frame.schema) == SCHEMA:
            return frame
    return None


def _file_key(ref: TensorRef) -> str | None:
    """``path|size|mtime_ns`` of the file a tensor is read from (archives: the archive file
    and the member name)."""
    source = ref.info.source
    if not source:
        return None
    known = getattr(ref.loader, "identity", None)
    if known is not None:  # the reader's own fstat of the file it read: no second stat
        return f"{os.path.abspath(source)}:|{known[0]}|{known[1]}"
    path, _, member = source, "", ""
    if not os.path.isfile(path) and ":" in source:
        path, member = source.rsplit(":", 1)
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{os.path.abspath(path)}:{member}|{st.st_size}|{st.st_mtime_ns}"


def _index_path(golden: Dump | Path, target: Dump | Path) -> Path:
    """Next to the target dump (a folder, or the file's folder), named after the golden."""
    golden_path = golden.path if isinstance(golden, Dump) else golden
    target_path = target.path if isinstance(target, Dump) else target
    digest = hashlib.sha1(os.path.abspath(golden_path).encode("utf-8", "surrogateescape")).hexdigest()[:12]
    folder = target_path if target_path.is_dir() else target_path.parent
    tag = hashlib.sha1(os.path.abspath(target_path).encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return folder / f".dumpscope-index-{digest}-{tag}.parquet"


def _user_path(name: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dumpscope" / "index" / name


def _read(path: Path, run: str) -> pl.DataFrame:
    """The rows of the first usable index (next to the dump, else the user cache) for ``run``."""
    for candidate in (path, _user_path(path.name)):
        try:
            frame = pl.read_parquet(candidate)
        except Exception:  # noqa: BLE001 - a missing, corrupt or foreign index is a cache miss
            continue
        if not {_KEY, "_run", *ROW_COLUMNS} <= set(frame.columns):
            continue
        return frame.filter(pl.col("_run") == run).select(_KEY, *ROW_COLUMNS)  # one row per key (see save)
    return pl.DataFrame(schema={_KEY: pl.String(), **{c: SCHEMA[c] for c in ROW_COLUMNS}})


def _write(frame: pl.DataFrame, path: Path) -> bool:
    """Write atomically (a reader never sees half an index); False when the folder refuses."""
    from dumpscope.core.atomic import atomic_path

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path) as tmp:
            frame.write_parquet(tmp)
        return True
    except OSError:  # a read-only folder, a FIFO planted at the index's name (refused, never opened)
        return False
