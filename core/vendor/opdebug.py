"""Ascend Opdebug status records: hardware overflow evidence.

* **Hardware records** (``Opdebug.Node_OpDebug.{task}.{stream}.{ts}``, written when
  ``dump_debug`` is on).  The file is itself a dump whose output[0] bytes hold the
  record, in the old 2048-byte layout or the newer one starting with magic
  0x5A5A5A5A (as CANN's dump tools write them).  :func:`parse_payload` gives the same dict
  msaccucmp writes to ``*.output.0.json``; :func:`scan` turns every non-zero status
  into an :class:`OverflowRecord` with each set bit decoded and links it to the op
  dump it names by (task_id, stream_id[, context_id, thread_id]) - never by the
  Opdebug file's own task id.

Whether a tensor fits a dtype (no hardware needed) is :mod:`dumpscope.core.inspect.ranges`.
"""

from __future__ import annotations

import json
import math
import os
import struct
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from dumpscope.core.dumps import Dump, PerObject
from dumpscope.core.formats import ascend_dump as ad
from dumpscope.core.formats.ascend_layout import LayoutError
from dumpscope.core.names import display
from dumpscope.core.vendor.traits import traits_of

MAGIC = 0x5A5A5A5A
LEGACY_SIZE = 2048

# --- status meanings (Ascend precision_tool and asc_get_status docs) ---

AICORE_BITS: dict[int, str] = {
    0x8: "signed integer NEG overflow (negating the minimum value)",
    0x10: "integer add/sub/mul/multiply-add overflow",
    0x20: "floating-point compute overflow",
    0x40: "floating-point underflow",
    0x80: "negative float converted to an unsigned integer",
    0x100: "FP32/INT32 -> FP16 conversion overflow (L0C -> UB)",
    0x200: "float -> half conversion underflow (L0C -> UB)",
    0x400: "CUBE accumulation overflow",
    0x800: "CUBE accumulation underflow",
    0x2000: "NaN/Inf input to a scalar instruction",
    0x4000: "NaN/Inf input to a vector instruction",
    0x8000: "NaN/Inf input to a CUBE instruction",
    1 << 61: "NaN/Inf in data movement",
}
DHA_STATUS: dict[int, str] = {
    0x9: "atomic add overflow",
    0xA: "atomic add underflow",
    0xB: "atomic add source operand is NaN",
    0xC: "atomic add destination operand is NaN",
    0xD: "atomic add source and destination are NaN",
}
L2_STATUS: dict[int, str] = {
    1: "atomic add overflow",
    2: "atomic add underflow",
    3: "atomic add source operand is NaN",
    4: "atomic add destination operand is NaN",
    5: "atomic add source and destination are NaN",
}

_ACC_TYPES = {0: "AIC", 1: "AIV", 2: "AICPU", 3: "SDMA"}
_HEX_FIELDS = {"pc_start", "para_base", "kernel_code", "src_addr", "dst_addr"}
_INFO_FIELDS = ("model_id", "stream_id", "task_id", "task_type", "pc_start", "para_base")
_NEW_FIELDS = {
    "AIC": (
        "model_id",
        "stream_id",
        "task_id",
        "task_type",
        "context_id",
        "thread_id",
        "pc_start",
        "para_base",
        "core_id",
        "block_id",
        "status",
    ),
    "SDMA": (
        "model_id",
        "stream_id",
        "task_id",
        "task_type",
        "context_id",
        "thread_id",
        "src_addr",
        "dst_addr",
        "channel_id",
        "status",
    ),
    "AICPU": ("model_id", "stream_id", "task_id", "task_type", "context_id", "cpu_id", "thread_id", "status"),
}
_NEW_FIELDS["AIV"] = _NEW_FIELDS["AIC"]
_LEGACY_UNITS = (("DHA Atomic Add", 0, 512), ("L2 Atomic Add", 128, 768))

#: ``dumpscope formats``: this side file's name and how it is recognised.
SIDE_FILE = (
    "opdebug",
    "Opdebug.Node_OpDebug.* files (raw protobuf dumps or their .json conversion) holding AI Core/DHA/L2 "
    "overflow status words; for overflow",
)


class OpdebugError(ValueError):
    """An Opdebug record cannot be decoded (the message says why)."""


@dataclass(frozen=True)
class StatusBit:
    mask: int
    meaning: str


@dataclass(frozen=True)
class OpdebugTensor:
    name: str
    shape: tuple[int, ...] | None = None
    dtype: str | None = None
    format: str | None = None
    min: float | None = None
    max: float | None = None
    mean: float | None = None
    nan: int = 0
    inf: int = 0
    error: str | None = None


@dataclass(frozen=True)
class OverflowRecord:
    """One unit's non-zero status in one Opdebug file, linked to its op when found."""

    file: str
    layout: str
    """``legacy-2048``, ``magic-0x5a5a5a5a`` or ``msaccucmp-json``."""
    unit: str
    """``AI Core``, ``DHA``, ``L2`` (legacy layout) or ``AIC``, ``AIV``, ``AICPU``, ``SDMA``."""
    task_id: int
    stream_id: int
    status: int
    bits: tuple[StatusBit, ...]
    context_id: int | None = None
    thread_id: int | None = None
    timestamp: int | None = None
    fields: dict[str, object] = field(default_factory=dict)
    op_name: str | None = None
    op_type: str | None = None
    op_file: str | None = None
    tensors: tuple[OpdebugTensor, ...] = ()
    link_note: str | None = None
    """Why no op (or which of several) was linked."""

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict; undecodable bytes in names are shown as ``\\xNN``."""
        return {
            "file": display(self.file),
            "layout": self.layout,
            "unit": self.unit,
            "task_id": self.task_id,
            "stream_id": self.stream_id,
            "context_id": self.context_id,
            "thread_id": self.thread_id,
            "timestamp": self.timestamp,
            "status": self.status,
            "bits": [{"mask": b.mask, "meaning": b.meaning} for b in self.bits],
            "op_name": _display_or_none(self.op_name),
            "op_type": self.op_type,
            "op_file": _display_or_none(self.op_file),
            "link_note": self.link_note,
            "fields": self.fields,
            "tensors": [
                asdict(t) | {"shape": None if t.shape is None else list(t.shape)} for t in self.tensors
            ],
        }


def _display_or_none(name: str | None) -> str | None:
    return None if name is None else display(name)


@dataclass
class OverflowReport:
    records: list[OverflowRecord] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)
    """``(file, message)`` for Opdebug files that could not be decoded."""
    files: int = 0
    """Opdebug files (or msaccucmp JSONs) read, including those with all statuses zero."""
    duplicates: int = 0
    """Records dropped because another file holds the same event (msaccucmp's parsed JSON
    of a raw Opdebug file, wherever it lies): each event is counted once."""


@dataclass(frozen=True)
class OpdebugIndex:
    """A target dump's Opdebug records, grouped by the op they name: scanned once per dump."""

    records: tuple[OverflowRecord, ...] = ()
    """Every record, in time order (linked to an op or not)."""
    by_op: Mapping[str, tuple[OverflowRecord, ...]] = field(default_factory=dict)
    problems: tuple[tuple[str, str], ...] = ()
    """``(file, message)`` for Opdebug files that could not be decoded."""
    files: int = 0
    error: str | None = None
    """Why the dump folder could not be scanned (the OS error), if it could not."""

    @property
    def unlinked(self) -> int:
        """Records that name no op dump."""
        return sum(not rec.op_name for rec in self.records)


def index_report(report: OverflowReport) -> OpdebugIndex:
    """Group a scan's records by op name (records without one are kept, ungrouped)."""
    by_op: dict[str, list[OverflowRecord]] = {}
    for rec in report.records:
        if rec.op_name:
            by_op.setdefault(rec.op_name, []).append(rec)
    return OpdebugIndex(
        tuple(report.records), {k: tuple(v) for k, v in by_op.items()}, tuple(report.problems), report.files
    )


_INDEXES: PerObject[OpdebugIndex] = PerObject()


def opdebug_index(target: Dump | None) -> OpdebugIndex | None:
    """The Opdebug index of a target dump, scanned on first use and kept while the dump lives.

    None when the dump's format carries no Opdebug records or its folder is gone.
    """
    if target is None or not traits_of(target).opdebug or not Path(target.path).exists():
        return None
    return _INDEXES.get(target, lambda: _scan_index(Path(target.path)))


def _scan_index(path: Path) -> OpdebugIndex:
    try:
        return index_report(scan(path, with_stats=False))
    except OSError as exc:
        return OpdebugIndex(error=str(exc))


# --- decoding ---


def decode_status(unit: str, status: int) -> tuple[StatusBit, ...]:
    """Every cause a status value encodes; unknown AI Core bits become ``reserved bit N``."""
    if status == 0:
        return ()
    return _STATUS_DECODERS.get(unit, _undocumented_status)(unit, status)


def _aicore_status(unit: str, status: int) -> tuple[StatusBit, ...]:
    """One cause per set bit of an AI Core status word."""
    masks = ((bit, 1 << bit) for bit in range(64))
    return tuple(
        StatusBit(mask, AICORE_BITS.get(mask, f"reserved bit {bit}")) for bit, mask in masks if status & mask
    )


def _dha_status(unit: str, status: int) -> tuple[StatusBit, ...]:
    return (StatusBit(status, DHA_STATUS.get(status, f"atomic add error, undocumented code {status:#x}")),)


def _l2_status(unit: str, status: int) -> tuple[StatusBit, ...]:
    return (StatusBit(status, L2_STATUS.get(status & 7, f"atomic add error, undocumented code {status:#x}")),)


def _undocumented_status(unit: str, status: int) -> tuple[StatusBit, ...]:
    return (
        StatusBit(status, f"{unit} reported a non-zero status ({status:#x}); its bits are not documented"),
    )


#: unit -> how its status value decodes (any other unit: one undocumented cause).
_STATUS_DECODERS = {
    "AI Core": _aicore_status,
    "AIC": _aicore_status,
    "AIV": _aicore_status,
    "DHA": _dha_status,
    "L2": _l2_status,
}


def _fmt(name: str, value: int) -> int | str:
    return f"{value:#x}" if name in _HEX_FIELDS else value


def _u64s(buf: bytes, offset: int, count: int) -> tuple[int, ...]:
    return struct.unpack_from(f"<{count}Q", buf, offset)


def parse_payload(buf: bytes) -> dict[str, object]:
    """Decode an Opdebug record into msaccucmp's JSON structure."""
    if len(buf) >= 4 and int.from_bytes(buf[:4], "little") == MAGIC:
        return _parse_new(buf)
    if len(buf) == LEGACY_SIZE:
        return _parse_legacy(buf)
    raise OpdebugError(
        f"{len(buf)}-byte record is neither the 2048-byte legacy layout nor starts with magic 0x5A5A5A5A"
    )


def _parse_legacy(buf: bytes) -> dict[str, object]:
    out: dict[str, object] = {}
    for unit, info_off, status_off in _LEGACY_UNITS:
        info = dict(zip(_INFO_FIELDS, _u64s(buf, info_off, 6), strict=False))
        out[unit] = {k: _fmt(k, v) for k, v in info.items()} | {"status": _u64s(buf, status_off, 1)[0]}
    core = {k: _fmt(k, v) for k, v in zip(_INFO_FIELDS, _u64s(buf, 256, 6), strict=False)}
    kernel_code, block_idx, status = _u64s(buf, 1024, 3)
    out["AI Core"] = core | {
        "kernel_code": _fmt("kernel_code", kernel_code),
        "block_idx": block_idx,
        "status": status,
    }
    return out


def _parse_new(buf: bytes) -> dict[str, object]:
    if len(buf) < 24:
        raise OpdebugError(f"record with magic 0x5A5A5A5A is only {len(buf)} bytes (header needs 24)")
    magic, version, valid, acc_code, rsv, data_len = struct.unpack_from("<6I", buf, 0)
    acc_type = _acc_type(acc_code)
    names = _NEW_FIELDS[acc_type]
    status_words = _status_word_count(version, acc_type)
    _check_data_len(buf, acc_type, data_len, (len(names) - 1 + status_words) * 8)
    values = _u64s(buf, 24, len(names) - 1 + status_words)
    data: dict[str, object] = {k: _fmt(k, v) for k, v in zip(names[:-1], values, strict=False)}
    data["status"] = values[-status_words] if status_words == 1 else list(values[-status_words:])
    return {
        "magic": f"{magic:#x}",
        "version": version,
        "acc_list": {"valid": valid, "acc_type": acc_type, "rsv": rsv, "data_len": data_len, "data": data},
    }


def _acc_type(acc_code: int) -> str:
    acc_type = _ACC_TYPES.get(acc_code)
    if acc_type is None:
        raise OpdebugError(f"unknown accelerator type {acc_code} (known: 0 AIC, 1 AIV, 2 AICPU, 3 SDMA)")
    return acc_type


def _status_word_count(version: int, acc_type: str) -> int:
    """Version 1 AI Core/Vector records carry four status words; every other record one."""
    return 4 if version == 1 and acc_type in ("AIC", "AIV") else 1


def _check_data_len(buf: bytes, acc_type: str, data_len: int, need: int) -> None:
    """Raise unless the header's ``data_len`` and the bytes present both cover ``need``."""
    if 24 + min(data_len, need) > len(buf) or data_len < need:
        raise OpdebugError(
            f"{acc_type} record needs {need} data bytes; data_len is {data_len} and {len(buf) - 24} are "
            "present"
        )


_LEGACY_KEYS = (("AI Core", "AI Core"), ("DHA Atomic Add", "DHA"), ("L2 Atomic Add", "L2"))


def records_from_parsed(
    parsed: dict[str, object], file: str, layout: str, timestamp: int | None
) -> list[OverflowRecord]:
    """Non-zero statuses of a parsed record (msaccucmp JSON structure) as records."""
    units = _acc_units(parsed["acc_list"]) if "acc_list" in parsed else _legacy_units(parsed)
    records = (_unit_record(unit, data, file, layout, timestamp) for unit, data in units)
    return [rec for rec in records if rec is not None]


def _acc_units(acc: object) -> list[tuple[str, dict[str, object]]]:
    """The one unit of a new-layout ``acc_list`` (none when it is marked invalid)."""
    if not isinstance(acc, dict) or not isinstance(acc.get("data"), dict):
        raise OpdebugError("acc_list has no data")
    if not acc.get("valid", 1):
        return []
    return [(str(acc.get("acc_type")), acc["data"])]


def _legacy_units(parsed: dict[str, object]) -> list[tuple[str, dict[str, object]]]:
    """The AI Core, DHA and L2 units of a legacy record."""
    units = [(unit, found) for key, unit in _LEGACY_KEYS if isinstance(found := parsed.get(key), dict)]
    if not units:
        raise OpdebugError("no 'AI Core', 'DHA Atomic Add', 'L2 Atomic Add' or 'acc_list' entry")
    return units


def _unit_record(
    unit: str, data: dict[str, object], file: str, layout: str, timestamp: int | None
) -> OverflowRecord | None:
    """A record for a unit whose status words are not all zero (None otherwise)."""
    words = [_status_word(w) for w in _status_values(data.get("status", 0))]
    if not any(words):
        return None
    return OverflowRecord(
        file=file,
        layout=layout,
        unit=unit,
        task_id=_id(data.get("task_id")),
        stream_id=_id(data.get("stream_id")),
        status=words[0],
        bits=tuple(b for w in words for b in decode_status(unit, w)),
        context_id=_opt_int(data.get("context_id")),
        thread_id=_opt_int(data.get("thread_id")),
        timestamp=timestamp,
        fields=dict(data),
    )


def _status_values(raw: object) -> list[object]:
    """A status is one word, or a list of words (version 1 AI Core records)."""
    return raw if isinstance(raw, list) else [raw]


def _status_word(value: object) -> int:
    """A status word as an int: JSON numbers, or text such as ``"0x20"``; anything else is the file's
    error."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip(), 0)
        except ValueError:
            pass
    raise OpdebugError(f"status {str(value)[:40]!r} is not an integer")


def _id(value: object) -> int:
    """A task/stream id (-1 when missing or not an integer)."""
    try:
        return _status_word(value)
    except OpdebugError:
        return -1


def _opt_int(value: object) -> int | None:
    return int(value) if isinstance(value, int) else None


def read_opdebug(path: Path) -> tuple[dict[str, object], str]:
    """The parsed record of an Opdebug file (wrapped in a dump, or the bare payload)
    or of msaccucmp's ``*.output.0.json``; returns ``(parsed, layout)``."""
    if path.name.endswith(".json"):
        return _read_msaccucmp_json(path), "msaccucmp-json"
    payload = _bare_payload(path)
    if payload is None:
        payload = _wrapped_payload(path)
    parsed = parse_payload(payload)
    return parsed, "legacy-2048" if "AI Core" in parsed else "magic-0x5a5a5a5a"


def _read_msaccucmp_json(path: Path) -> dict[str, object]:
    try:
        with open(path, encoding="utf-8") as fh:
            parsed = json.load(fh)
    except (OSError, ValueError, RecursionError) as exc:
        raise OpdebugError(f"cannot read msaccucmp JSON: {exc}") from exc
    if not isinstance(parsed, dict):
        raise OpdebugError("msaccucmp JSON is not an object")
    return parsed


def _bare_payload(path: Path) -> bytes | None:
    """The whole file when it is a bare record (magic, or the legacy size) of at most 1 MiB."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
            size = os.fstat(fh.fileno()).st_size
            if not _is_bare_record(head, size) or size > 1 << 20:
                return None
            return head + fh.read()
    except OSError as exc:
        raise OpdebugError(f"cannot read: {exc.strerror or exc}") from exc


def _is_bare_record(head: bytes, size: int) -> bool:
    return (len(head) == 4 and int.from_bytes(head, "little") == MAGIC) or size == LEGACY_SIZE


def _wrapped_payload(path: Path) -> bytes:
    try:
        header = ad.parse_header(path)
        outputs = header.role("output")
        if not outputs:
            raise OpdebugError("the Opdebug dump has no output[0] holding the record")
        return ad.read_raw(header, outputs[0]).tobytes()
    except (ad.DumpFileError, LayoutError) as exc:
        raise OpdebugError(str(exc)) from exc


# --- linking to op dumps ---


@dataclass(frozen=True)
class _OpFile:
    path: Path
    name: ad.DumpName


def _op_files(paths: Iterable[Path]) -> list[_OpFile]:
    out = []
    for p in paths:
        if p.name.startswith(ad.OPDEBUG_PREFIX):
            continue
        name = ad.parse_dump_name(p.name)
        if name is not None:
            out.append(_OpFile(p, name))
    return out


def _same_or_unknown(a: int | None, b: int | None) -> bool:
    return a is None or b is None or a == b


def _names_task(o: _OpFile, rec: OverflowRecord) -> bool:
    """The op file has the record's task and stream (and context/thread when both carry them)."""
    return (
        o.name.task_id == rec.task_id
        and o.name.stream_id in (rec.stream_id, None)
        and _same_or_unknown(o.name.context_id, rec.context_id)
        and _same_or_unknown(o.name.thread_id, rec.thread_id)
    )


def _link(rec: OverflowRecord, ops: list[_OpFile]) -> tuple[_OpFile | None, str | None]:
    """The op dump a record names: same task and stream (and context/thread when the op
    file carries them); of several executions, the last one before the record."""
    cands = [o for o in ops if _names_task(o, rec)]
    if not cands:
        return None, f"no op dump with task_id {rec.task_id} on stream {rec.stream_id} next to the record"
    cands = _not_after(cands, rec.timestamp)
    best = max(cands, key=lambda o: o.name.timestamp)
    note = f"{len(cands)} executions match; linked the latest before the record" if len(cands) > 1 else None
    return best, note


def _not_after(cands: list[_OpFile], timestamp: int | None) -> list[_OpFile]:
    """The candidates executed no later than ``timestamp`` (all of them when none was, or no time is
    known)."""
    if timestamp is None:
        return cands
    return [o for o in cands if o.name.timestamp <= timestamp] or cands


def tensor_stats(path: Path) -> tuple[OpdebugTensor, ...]:
    """Shape, dtype, range and NaN/Inf counts of every input and output of an op dump."""
    try:
        header = ad.parse_header(path)
    except ad.DumpFileError as exc:
        return (OpdebugTensor(name=path.name, error=str(exc)),)
    return tuple(_desc_stats(header, desc) for desc in header.tensors if desc.role in ("input", "output"))


def _desc_stats(header: ad.DumpHeader, desc: ad.TensorDesc) -> OpdebugTensor:
    """One tensor's stats, or the reason it cannot be loaded."""
    name = f"{desc.role}.{desc.index}"
    fmt = ad.layout.format_name(desc.format_code)
    problem = ad.tensor_problem(desc, header.file_size)
    if problem:
        return OpdebugTensor(name=name, format=fmt, error=problem)
    try:
        arr = ad.load_tensor(header, desc)
    except (LayoutError, OSError, ValueError) as exc:
        return OpdebugTensor(name=name, format=fmt, error=str(exc))
    return _stats(name, fmt, arr)


def _stats(name: str, fmt: str, arr: np.ndarray) -> OpdebugTensor:
    values = _comparable_values(arr)
    finite = np.isfinite(values)
    nan = int(np.isnan(values).sum())
    inf = int(values.size - nan - finite.sum())
    low, high, mean = _finite_range(values[finite])
    return OpdebugTensor(
        name=name,
        shape=tuple(arr.shape),
        dtype=arr.dtype.name,
        format=fmt,
        min=low,
        max=high,
        mean=mean,
        nan=nan,
        inf=inf,
    )


def _comparable_values(arr: np.ndarray) -> np.ndarray:
    """Integers and narrow floats as float64; complex values as their magnitudes."""
    kind = arr.dtype.kind
    values = arr.astype(np.float64) if kind not in "fc" or arr.dtype.itemsize < 4 else arr
    return np.abs(values) if kind == "c" else values


def _finite_range(good: np.ndarray) -> tuple[float | None, float | None, float | None]:
    """``(min, max, mean)`` of the finite values (None when there are none)."""
    if not good.size:
        return None, None, None
    return float(good.min()), float(good.max()), float(good.mean(dtype=np.float64))


def _walk(root: Path) -> Iterator[Path]:
    """Regular files under ``root``: iterative and depth-bounded, FIFOs and links leading out skipped."""
    if root.is_file():
        yield root
        return
    from dumpscope.core.formats.safe_fs import walk_files

    walk = walk_files(root, lambda _name: True, 16, skip_hidden=True).whole(root)
    yield from (p for p in walk.files if p not in walk.refused)


def is_opdebug(path: Path) -> bool:
    return path.name.startswith(ad.OPDEBUG_PREFIX)


def scan(path: Path, with_stats: bool = True) -> OverflowReport:
    """Every overflow record under ``path`` (a dump directory, an Opdebug file or a
    msaccucmp JSON), in time order, each linked to the op dump in its directory."""
    files, debug_files = _debug_files(Path(path))
    by_dir = _by_folder(files)
    ops: dict[Path, list[_OpFile]] = {}
    report = OverflowReport()
    for p in debug_files:
        recs = _read_records(p, report)
        if recs is None:
            continue
        if p.parent not in ops:
            ops[p.parent] = _op_files(by_dir.get(p.parent, []))
        report.records += [_linked(rec, ops[p.parent], with_stats) for rec in recs]
    report.records, report.duplicates = dedupe(report.records)
    report.records.sort(key=lambda r: (r.timestamp if r.timestamp is not None else math.inf, r.file))
    return report


def _by_folder(files: list[Path]) -> dict[Path, list[Path]]:
    by_dir: dict[Path, list[Path]] = {}
    for f in files:
        by_dir.setdefault(f.parent, []).append(f)
    return by_dir


def event_key(rec: OverflowRecord) -> tuple[object, ...]:
    """What identifies one overflow event: unit, task, stream, FFTS context/thread, status and
    the Opdebug file's timestamp (the raw file and msaccucmp's JSON of it share all of them)."""
    return (rec.unit, rec.task_id, rec.stream_id, rec.context_id, rec.thread_id, rec.status, rec.timestamp)


def dedupe(records: list[OverflowRecord]) -> tuple[list[OverflowRecord], int]:
    """``records`` with each event once (the raw file's record preferred over a parsed JSON's,
    then a linked one); and how many were dropped.  Records without a timestamp are kept."""
    best: dict[tuple[object, ...], OverflowRecord] = {}
    kept: list[OverflowRecord] = []
    for rec in records:
        if rec.timestamp is None:
            kept.append(rec)
        else:
            _keep_best(best, rec)
    unique = kept + list(best.values())
    return unique, len(records) - len(unique)


def _keep_best(best: dict[tuple[object, ...], OverflowRecord], rec: OverflowRecord) -> None:
    """Keep ``rec`` for its event unless a better-ranked record already holds it."""
    key = event_key(rec)
    if key not in best or _rank(rec) < _rank(best[key]):
        best[key] = rec


def _rank(rec: OverflowRecord) -> tuple[bool, bool]:
    return rec.layout == "msaccucmp-json", rec.op_name is None


def _debug_files(path: Path) -> tuple[list[Path], list[Path]]:
    """(every file to link records with, the Opdebug files to read)."""
    if path.is_file():
        return [c for c in path.parent.iterdir() if c.is_file()], [path]
    files = list(_walk(path))
    return files, _opdebug_files(files)


def _opdebug_files(files: list[Path]) -> list[Path]:
    """The Opdebug files, less msaccucmp's parsed JSON of a raw file that is there too (it
    would repeat the same record)."""
    debug = [p for p in files if is_opdebug(p)]
    raw = {p for p in debug if not p.name.endswith(".json")}
    return [p for p in debug if p in raw or p.with_name(p.name.split(".output.")[0]) not in raw]


def _read_records(p: Path, report: OverflowReport) -> list[OverflowRecord] | None:
    """The records of one Opdebug file (None, and a problem noted, when it cannot be decoded)."""
    dname = ad.parse_dump_name(p.name.removesuffix(".json").split(".output.", 1)[0])
    try:
        parsed, layout = read_opdebug(p)
        recs = records_from_parsed(parsed, str(p), layout, dname.timestamp if dname else None)
    except OpdebugError as exc:
        report.problems.append((str(p), str(exc)))
        return None
    report.files += 1
    return recs


def _linked(rec: OverflowRecord, ops: list[_OpFile], with_stats: bool) -> OverflowRecord:
    op, note = _link(rec, ops)
    stats = tensor_stats(op.path) if op is not None and with_stats else ()
    return _replace(rec, op, note, stats)


def _replace(
    rec: OverflowRecord, op: _OpFile | None, note: str | None, stats: tuple[OpdebugTensor, ...]
) -> OverflowRecord:
    if op is None:
        return replace(rec, link_note=note)
    return replace(
        rec,
        op_name=_true_op_name(op),
        op_type=op.name.op_type,
        op_file=str(op.path),
        tensors=stats,
        link_note=note,
    )


def _true_op_name(op: _OpFile) -> str:
    """The op name in the dump's header (file names are lossy); the file name's when unreadable."""
    try:
        return ad.parse_header(op.path).op_name or op.name.op_name
    except ad.DumpFileError:
        return op.name.op_name
