"""The order a layer table shows rows in: activations first, constants after.

On PP-OCR, 420 constant rows (weights, shape tensors) come before the first activation
in topological order, so a table cut at N rows shows no layer at all.  The rule, shared
by the CLI table and the TUI: rows whose ``kind`` is ``constant`` move after every
other row; both groups keep their topological order.  Nothing is hidden - the rule only
reorders - and the frame itself (and so "first divergent") keeps topological order.
"""

from __future__ import annotations

import numpy as np
import polars as pl

__all__ = ["CONSTANT_KINDS", "display_order", "is_constant", "parse_range", "select_rows"]

#: ``kind`` values that move after the activations.
CONSTANT_KINDS: frozenset[str] = frozenset({"constant"})


def is_constant(frame: pl.DataFrame) -> np.ndarray:
    """Boolean mask of the constant rows of ``frame`` (rows without a ``kind`` are not constants)."""
    if "kind" not in frame.columns:
        return np.zeros(frame.height, dtype=bool)
    return frame["kind"].is_in(list(CONSTANT_KINDS)).fill_null(False).to_numpy()


def display_order(frame: pl.DataFrame) -> np.ndarray:
    """Row positions of ``frame`` in display order: non-constants, then constants (stable)."""
    return np.argsort(is_constant(frame), kind="stable").astype(np.int64)


def parse_range(spec: str) -> range:
    """msaccucmp's ``-r start,end[,step]`` over row indexes (inclusive end, like msaccucmp)."""
    parts = _integers(spec)
    if len(parts) not in (2, 3):
        raise _bad_range(spec)
    start, end, step = (*parts, 1)[:3]
    if step <= 0 or start > end:
        raise _bad_range(spec)
    return range(start, end + 1, step)


def _integers(spec: str) -> list[int]:
    """The comma-separated integers of a range spec."""
    try:
        return [int(p) for p in spec.split(",")]
    except ValueError:
        raise ValueError(f"range {spec!r}: expected start,end[,step] (integers)") from None


def _bad_range(spec: str) -> ValueError:
    return ValueError(f"range {spec!r}: expected start,end[,step] with start <= end and step > 0")


def select_rows(frame: pl.DataFrame, rows: range | None = None, ops: str | None = None) -> pl.DataFrame:
    """Rows of ``frame`` inside ``rows`` (by ``index``) and, with ``ops`` (msaccucmp's ``-s``:
    comma-separated row indexes or tensor/op names), only those."""
    keep = pl.lit(True)
    if rows is not None:
        keep = keep & pl.col("index").is_in(list(rows))
    if ops:
        keep = keep & _named(ops)
    return frame.filter(keep)


def _named(ops: str) -> pl.Expr:
    """Rows a ``-s`` list names: by row index (the integers) or by tensor, target or node name."""
    items = [o.strip() for o in ops.split(",") if o.strip()]
    numbers = [int(o) for o in items if o.lstrip("-").isdigit()]
    names = [o for o in items if not o.lstrip("-").isdigit()]
    by_name = (
        pl.col("name").is_in(names) | pl.col("target_name").is_in(names) | pl.col("node_name").is_in(names)
    )
    return pl.col("index").is_in(numbers) | by_name.fill_null(False)
