"""What the target's own records say, beside its tensors: Opdebug overflow records and manifest fields.

The Opdebug records of an Ascend target dump, by the op they link to and as one line each for the
diagnosis's warnings, and the fields a dump's manifest records (the fp16 conversion's clamps).
"""

from __future__ import annotations

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.names import display
from dumpscope.core.vendor.opdebug import OverflowRecord


def listed_field(value: object) -> list[object]:
    """A manifest field that should be a list (anything else: empty)."""
    return value if isinstance(value, list) else []


def manifest_of(dump: object) -> dict[str, object]:
    meta = getattr(dump, "meta", None)
    m = meta.get("manifest") if isinstance(meta, dict) else None
    return m if isinstance(m, dict) else {}


def opdebug_records(cmp: Comparison) -> tuple[dict[str, list[OverflowRecord]], list[str]]:
    """Opdebug records of the target dump, by linked op name, plus one line each."""
    from dumpscope.core.vendor.opdebug import opdebug_index

    index = opdebug_index(cmp.target)
    if index is None:
        return {}, []
    if index.error is not None:  # an index is only made for a target dump
        return {}, [f"Opdebug scan of {cmp.target.path if cmp.target else '?'} failed: {index.error}"]
    return {op: list(recs) for op, recs in index.by_op.items()}, [_opdebug_line(rec) for rec in index.records]


def _opdebug_line(rec: OverflowRecord) -> str:
    bits = ", ".join(b.meaning for b in rec.bits) or f"status 0x{rec.status:x}"
    op = display(rec.op_name) if rec.op_name else "an op not found in the dump"
    return f"Opdebug: {rec.unit} task {rec.task_id} stream {rec.stream_id} ({op}): {bits}"
