"""Ascend raw dump files (one file per executed op), read without CANN.

Layouts (as CANN's ``toolkit.dumpdata`` writes them):

* **v2** (default): ``uint64 LE header_len`` + protobuf ``DumpData`` whose ``data``
  fields are empty + the raw bytes of input[0..], output[0..], buffer[0..], space[0..]
  in that order, each exactly its ``size``;
* **v1**: the whole file is one ``DumpData`` with the bytes inline in ``data``.

Only headers are parsed by :func:`open`; tensor bytes are viewed through a memory map
when :meth:`TensorRef.load` is called, then converted from the device format to the
dump's ``original_shape`` (:mod:`ascend_layout`).

Naming: output 0 of op ``X`` is tensor ``X``, output N is ``X:N``; inputs become
``kind="op_input"`` tensors ``X:input:N`` (their ``output_index`` is the input index).
The true op name comes from the protobuf ``op_name`` field (file names are lossy:
Ascend replaces ``. / \\`` and spaces by ``_`` and hashes names over 255 bytes, with
the real file name in ``mapping.csv``).  An op executed more than once (loops, several
steps) keeps its first execution under the plain name; later ones get ``#2``, ``#3``...

Synthetic dumps in this layout are written by :mod:`~dumpscope.core.formats.ascend_writer`.
"""

from __future__ import annotations

import builtins
import itertools
import math
import mmap
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import BinaryIO, NamedTuple

import numpy as np

from dumpscope.core.dumps import Dump, DumpError, DumpProblem, TensorInfo, TensorKind, TensorRef
from dumpscope.core.formats import ascend_layout as layout
from dumpscope.core.formats import protobuf as pb
from dumpscope.core.formats.ascend_tree import AscendRun, runs_of_files, several_runs_note
from dumpscope.core.formats.safe_fs import SNIFF_ENTRIES, read_csv_rows, regular_file_problem, walk_files

NAME = "ascend-dump"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = (
    "a file, or a folder of files, whose header parses as an Ascend dump (8-byte length + DumpData "
    "protobuf; named Op.name.task.stream.timestamp)"
)

OPDEBUG_PREFIX = "Opdebug.Node_OpDebug."
_NOT_DUMP_SUFFIXES = (
    ".npy", ".npz", ".csv", ".json", ".txt", ".log", ".onnx", ".om", ".pb", ".py", ".md",
    ".xlsx", ".bin", ".prototxt", ".h5", ".pt", ".png", ".svg",
)  # fmt: skip
_MAX_HEADER = 64 << 20  # a DumpData header is kilobytes; anything near this is not a dump
_SNIFF_FILES = 64
_TIMESTAMP_MIN_DIGITS = 10
_UINT8 = 4  # DataType code of buffers and workspaces (raw bytes)


class DumpFileError(ValueError):
    """A file is not a readable Ascend dump (the message says where it breaks)."""


@dataclass(frozen=True)
class DumpName:
    """The facts encoded in a dump file name (``{op_type}.{op_name}.{task}.{stream}.{ts}``,
    or the FFTS+ variant with task type, context, thread and device ids)."""

    op_type: str
    op_name: str
    task_id: int | None
    stream_id: int | None
    timestamp: int
    task_type: int | None = None
    context_id: int | None = None
    thread_id: int | None = None
    device_id: int | None = None


@dataclass(frozen=True)
class TensorDesc:
    """One input/output/buffer/workspace of a dump header."""

    role: str
    index: int
    dtype_code: int
    format_code: int
    shape: tuple[int, ...]
    original_shape: tuple[int, ...]
    size: int
    offset: int
    """Absolute byte offset of the data in the file."""
    origin_name: str | None = None
    origin_output_index: int | None = None
    origin_format_code: int | None = None


@dataclass(frozen=True)
class DumpHeader:
    path: Path
    layout_version: int
    """1 (inline data) or 2 (header + raw chunks)."""
    op_name: str
    dump_time: int
    version: str
    tensors: tuple[TensorDesc, ...]
    attrs: tuple[tuple[str, str], ...] = ()
    file_size: int = 0
    problems: tuple[str, ...] = field(default=())
    """Per-file oddities that do not stop reading (trailing bytes...)."""

    def role(self, role: str) -> list[TensorDesc]:
        return [t for t in self.tensors if t.role == role]


def parse_dump_name(name: str) -> DumpName | None:
    """Split a dump file name into its fields, or None when it is not one.

    The op name is everything between the op type and the trailing run of numeric
    fields, so unusual characters never make a file disappear; the timestamp is the
    long (>= 10 digit) numeric field, which tells the classic and FFTS+ schemes apart.
    """
    parts = name.split(".")
    k = _numeric_tail(parts) if len(parts) >= 4 and parts[0] else 0
    if k < 2:
        return None
    nums = parts[len(parts) - k :]
    ts_i = _timestamp_index(nums)
    before, after = nums[:ts_i], nums[ts_i + 1 :]
    # More than two ids before the timestamp: the leading ones are part of the op name.
    op_name = ".".join(parts[1 : len(parts) - k] + before[:-2])
    if not before or not op_name:
        return None
    return _name_ids(parts[0], op_name, before[-2:], int(nums[ts_i]), [int(x) for x in after])


def _numeric_tail(parts: list[str]) -> int:
    """How many trailing dot-fields are ASCII digits (the op type and one name field never are)."""
    k = 0
    while k < len(parts) - 2 and parts[-1 - k].isdigit() and parts[-1 - k].isascii():
        k += 1
    return k


def _timestamp_index(nums: list[str]) -> int:
    """The last long (>= 10 digit) numeric field, else the last field."""
    long_idx = [i for i, p in enumerate(nums) if len(p) >= _TIMESTAMP_MIN_DIGITS]
    return long_idx[-1] if long_idx else len(nums) - 1


def _name_ids(op_type: str, op_name: str, before: list[str], ts: int, ids: list[int]) -> DumpName:
    """The ids around the timestamp: ``task[.stream]`` (classic) or FFTS+'s
    ``[stream.]task.ts.task_type.context.thread[.device]``."""
    if not ids:  # classic: task[.stream]
        stream = int(before[1]) if len(before) == 2 else None
        return DumpName(op_type, op_name, int(before[0]), stream, ts)
    stream = int(before[0]) if len(before) == 2 else None
    padded: list[int | None] = [*ids, None, None, None, None]
    return DumpName(op_type, op_name, int(before[-1]), stream, ts, *padded[:4])


def _shape(buf: pb.Bytes, fields: list[pb.Field]) -> tuple[int, ...]:
    dims: list[int] = []
    for f in fields:
        dims = pb.repeated_varints(buf, pb.message(buf, f).get(1, []))
    if any(d >= 1 << 63 for d in dims):
        raise DumpFileError(f"shape has an unknown (negative) dimension: {[pb.to_signed(x) for x in dims]}")
    return tuple(dims)


def _opt_int(fields: dict[int, list[pb.Field]], number: int | None) -> int | None:
    """The last value of an integer field, None when absent (or when the message has no such field)."""
    got = fields.get(number) if number is not None else None
    return pb.integer(got[-1]) if got else None


def _int(fields: dict[int, list[pb.Field]], number: int | None, default: int = 0) -> int:
    got = fields.get(number) if number is not None else None
    return pb.integer(got[-1]) if got else default


def _opt_text(buf: pb.Bytes, fields: dict[int, list[pb.Field]], number: int) -> str | None:
    """The last value of a string field, None when absent."""
    got = fields.get(number)
    return pb.text(buf, got[-1]) if got else None


def _text(buf: pb.Bytes, fields: dict[int, list[pb.Field]], number: int) -> str:
    """The last value of a string field, ``""`` when absent."""
    got = fields.get(number)
    return pb.text(buf, got[-1]) if got else ""


# DumpData fields and their wire types: a header that breaks these is not a dump.
_DUMPDATA_WIRE = {1: pb.LEN, 2: pb.VARINT, 3: pb.LEN, 4: pb.LEN, 5: pb.LEN, 6: pb.LEN, 7: pb.LEN, 8: pb.LEN}


@dataclass(frozen=True)
class _Fields:
    """Field numbers of one kind of tensor message (None: that message has no such field)."""

    data: int
    size: int
    dtype: int | None = None
    dtype_default: int = _UINT8
    format: int | None = None
    shape: int | None = None
    original_shape: int | None = None
    original_op: int | None = None


#: role -> the field numbers of its message (OpOutput, OpInput, OpBuffer, Workspace).
ROLE_FIELDS = {
    "output": _Fields(
        data=5, size=6, dtype=1, dtype_default=0, format=2, shape=3, original_shape=7, original_op=4
    ),
    "input": _Fields(data=4, size=5, dtype=1, dtype_default=0, format=2, shape=3, original_shape=6),
    "buffer": _Fields(data=2, size=3),
    "space": _Fields(data=2, size=3),
}


def _tensor_desc(
    buf: pb.Bytes, f: pb.Field, role: str, index: int, base: int, inline: bool
) -> tuple[TensorDesc, int]:
    """Decode one OpOutput/OpInput/OpBuffer/Workspace; return it and its byte size."""
    sub = pb.message(buf, f)
    nums = ROLE_FIELDS[role]
    size, offset = _placement(sub, nums, base, inline)
    origin_name, origin_index, origin_fmt = _origin_op(buf, sub, nums.original_op)
    desc = TensorDesc(
        role=role,
        index=index,
        dtype_code=_int(sub, nums.dtype, nums.dtype_default),
        format_code=_int(sub, nums.format, 2),
        shape=_shape(buf, sub.get(nums.shape, [])) if nums.shape else (size,),
        original_shape=_shape(buf, sub.get(nums.original_shape, [])) if nums.original_shape else (),
        size=size,
        offset=offset,
        origin_name=origin_name,
        origin_output_index=origin_index,
        origin_format_code=origin_fmt,
    )
    return desc, size


def _placement(sub: dict[int, list[pb.Field]], nums: _Fields, base: int, inline: bool) -> tuple[int, int]:
    """``(size, absolute offset)`` of a tensor's bytes: inline in its ``data`` field (v1), or the
    next chunk after the header (v2)."""
    if not inline:
        return _int(sub, nums.size), base
    data = sub.get(nums.data)
    return (data[-1].length, data[-1].value) if data else (0, 0)


def _origin_op(
    buf: pb.Bytes, sub: dict[int, list[pb.Field]], number: int | None
) -> tuple[str | None, int | None, int | None]:
    """``(name, output index, format code)`` of the framework op a tensor came from, if recorded."""
    if number not in sub:
        return None, None, None
    osub = pb.message(buf, sub[number][-1])
    return _opt_text(buf, osub, 1), _opt_int(osub, 2), _opt_int(osub, 4)


def _decode_dumpdata(
    buf: pb.Bytes, start: int, end: int, data_start: int, inline: bool, path: Path, file_size: int
) -> DumpHeader:
    top = pb.group(pb.iter_fields(buf, start, end))
    _check_dumpdata(top)
    descs, pos = _tensor_descs(buf, top, data_start, inline)
    attrs = [(_text(buf, a, 1), _text(buf, a, 2)) for a in (pb.message(buf, f) for f in top.get(7, []))]
    return DumpHeader(
        path=path,
        layout_version=1 if inline else 2,
        op_name=_text(buf, top, 6),
        dump_time=_int(top, 2),
        version=_text(buf, top, 1),
        tensors=tuple(descs),
        attrs=tuple(attrs),
        file_size=file_size,
        problems=_size_problems(pos, file_size, inline),
    )


def _check_dumpdata(top: dict[int, list[pb.Field]]) -> None:
    """Raise unless the top-level fields have DumpData's wire types and say something."""
    wrong = [
        n for n, fields in top.items() for f in fields if f.wire_type != _DUMPDATA_WIRE.get(n, f.wire_type)
    ]
    if wrong:
        raise DumpFileError(f"DumpData field {wrong[0]} has the wrong wire type")
    if not (top.keys() & {1, 3, 4, 6}):
        raise DumpFileError("no version, op name, input or output in the header")


def _tensor_descs(
    buf: pb.Bytes, top: dict[int, list[pb.Field]], data_start: int, inline: bool
) -> tuple[list[TensorDesc], int]:
    """Every tensor of the header, and the byte position after the last chunk."""
    descs: list[TensorDesc] = []
    pos = data_start
    # Chunk order on disk is input, output, buffer, space (not the field-number order).
    for role, number in (("input", 4), ("output", 3), ("buffer", 5), ("space", 8)):
        for i, f in enumerate(top.get(number, [])):
            desc, size = _tensor_desc(buf, f, role, i, pos, inline)
            descs.append(desc)
            pos += size
    return descs, pos


def _size_problems(pos: int, file_size: int, inline: bool) -> tuple[str, ...]:
    """A v2 file must end where its last chunk ends."""
    if inline or pos == file_size:
        return ()
    if pos < file_size:
        return (f"{file_size - pos} trailing bytes after the last tensor",)
    return (f"file is truncated: the header describes {pos} bytes, the file has {file_size}",)


def parse_header(path: Path) -> DumpHeader:
    """Read a dump file's header (v2) or scan its single message (v1) without copying data."""
    try:
        with builtins.open(path, "rb") as fh:
            return _parse_open_file(fh, path)
    except OSError as exc:
        raise DumpFileError(f"cannot read: {exc.strerror or exc}") from exc


def _parse_open_file(fh: BinaryIO, path: Path) -> DumpHeader:
    """Try the v2 layout (length-prefixed header) first, then v1 (one message)."""
    size = os.fstat(fh.fileno()).st_size
    if size < 8:
        raise DumpFileError(f"{size} bytes is too short for an Ascend dump")
    (header_len,) = struct.unpack("<Q", fh.read(8))
    v2_error: Exception | None = None
    if 0 < header_len <= min(size - 8, _MAX_HEADER):
        try:
            return _decode_dumpdata(fh.read(header_len), 0, header_len, 8 + header_len, False, path, size)
        except (pb.ProtobufError, DumpFileError) as exc:
            v2_error = exc
    return _parse_v1(fh, path, size, header_len, v2_error)


def _parse_v1(fh: BinaryIO, path: Path, size: int, header_len: int, v2_error: Exception | None) -> DumpHeader:
    """The whole file as one inline DumpData message, viewed through a memory map."""
    with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        try:
            return _decode_dumpdata(mm, 0, size, 0, True, path, size)
        except (pb.ProtobufError, DumpFileError) as exc:
            if v2_error is not None:
                raise DumpFileError(f"corrupt dump header: {v2_error}") from exc
            raise DumpFileError(
                f"not an Ascend dump (header length {header_len} does not fit a {size}-byte "
                f"file, and the file is not a v1 protobuf dump: {exc})"
            ) from exc


def read_raw(header: DumpHeader, desc: TensorDesc) -> np.ndarray:
    """The bytes of one tensor as a flat, read-only array of its device dtype."""
    dtype = layout.numpy_dtype(desc.dtype_code) if desc.role in ("input", "output") else np.dtype(np.uint8)
    if desc.offset + desc.size > header.file_size:
        raise layout.LayoutError(
            f"truncated: {desc.role} {desc.index} needs bytes {desc.offset}..{desc.offset + desc.size} "
            f"but the file has {header.file_size}"
        )
    if desc.size % dtype.itemsize:
        raise layout.LayoutError(f"{desc.size} bytes is not a whole number of {dtype.name} elements")
    if desc.size == 0:
        return np.empty(0, dtype)
    with builtins.open(header.path, "rb") as fh:
        mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    # The array keeps the map alive; the map is closed when the array is released.
    return np.frombuffer(mm, dtype=dtype, count=desc.size // dtype.itemsize, offset=desc.offset)


def load_tensor(header: DumpHeader, desc: TensorDesc, origin_format: str | None = None) -> np.ndarray:
    """A tensor converted from its device format to its original shape."""
    flat = read_raw(header, desc)
    hint = origin_format
    if hint is None and desc.origin_format_code is not None:
        hint = layout.format_name(desc.origin_format_code)
    return layout.to_original(flat, desc.format_code, desc.shape, desc.original_shape, hint)


def tensor_problem(desc: TensorDesc, file_size: int) -> str | None:
    """Why a tensor cannot be loaded, known from the header alone (None when fine).

    The checks run in order and the first that finds something speaks."""
    for check in _TENSOR_CHECKS:
        problem = check(desc, file_size)
        if problem is not None:
            return problem
    return None


def _dtype_problem(desc: TensorDesc, file_size: int) -> str | None:
    try:
        layout.numpy_dtype(desc.dtype_code)
    except layout.LayoutError as exc:
        return str(exc)
    return None


def _bounds_problem(desc: TensorDesc, file_size: int) -> str | None:
    if desc.offset + desc.size <= file_size:
        return None
    return (
        f"truncated file: {desc.role} {desc.index} needs bytes {desc.offset}..{desc.offset + desc.size}, "
        f"the file has {file_size}"
    )


def _byte_count_problem(desc: TensorDesc, file_size: int) -> str | None:
    expected = math.prod(desc.shape) * layout.numpy_dtype(desc.dtype_code).itemsize
    if expected == desc.size:
        return None
    return (
        f"{desc.role} {desc.index}: {desc.size} bytes but shape {list(desc.shape)} of "
        f"{layout.dtype_name(desc.dtype_code)} needs {expected}"
    )


def _format_problem(desc: TensorDesc, file_size: int) -> str | None:
    if layout.format_name(desc.format_code) in layout.KNOWN_FORMATS:
        return None
    return (
        f"device format {layout.format_name(desc.format_code)} is not converted by dumpscope yet; "
        "the tensor is listed but not compared"
    )


_TENSOR_CHECKS = (_dtype_problem, _bounds_problem, _byte_count_problem, _format_problem)


def _read_mapping(directory: Path, problems: list[DumpProblem]) -> dict[str, str]:
    """``mapping.csv``: ``hashed_file_name,real_file_name`` rows for over-long names.

    Names only: the real file name never becomes a path that is opened.  A bad line
    (over 64 KiB, not CSV) is a note in ``problems``.
    """
    path = directory / "mapping.csv"
    if not path.is_file() or regular_file_problem(directory, path) is not None:
        return {}
    out: dict[str, str] = {}
    for number, row in read_csv_rows(path):
        if isinstance(row, str):
            problems.append(DumpProblem(f"{path}:{number}", row))
        elif len(row) == 2:
            out[row[0].strip()] = row[1].strip()
    return out


_MAX_DEPTH = 16


def _wanted(name: str) -> bool:
    return not name.lower().endswith(_NOT_DUMP_SUFFIXES) and name != "mapping.csv"


def _candidate_files(root: Path, skipped: list[DumpProblem] | None = None) -> Iterator[Path]:
    """Regular files under ``root`` that may be dumps, depth-first in name order.

    Walked by :func:`safe_fs.walk_files`: hidden names skipped, FIFOs and devices never
    opened, symbolic links leading outside the folder not followed (all said in ``skipped``).
    """
    if root.is_file():
        yield root
        return
    if skipped is None:  # sniffing: the first few candidates of a bounded walk
        yield from _sniff_walk(root)
        return
    walk = walk_files(root, _wanted, _MAX_DEPTH, skip_hidden=True).whole(root)
    if skipped is not None:
        skipped.extend(walk.skipped)
        skipped.extend(DumpProblem(str(p), why) for p, why in walk.refused.items())
    yield from (p for p in walk.files if p not in walk.refused)


def _sniff_walk(root: Path) -> list[Path]:
    walk = walk_files(
        root, _wanted, _MAX_DEPTH, skip_hidden=True, max_entries=SNIFF_ENTRIES, stop_after=_SNIFF_FILES
    )
    return [p for p in walk.files if p not in walk.refused]


def sniff(path: Path) -> float:
    """0.95 when one of the first files parses as a dump and is named like one, 0.8 when it
    only parses, 0.0 otherwise."""
    try:
        return _sniff_files(path)
    except OSError:
        return 0.0


def _sniff_files(path: Path) -> float:
    for p in itertools.islice(_candidate_files(path), _SNIFF_FILES):
        score = _sniff_file(p)
        if score:
            return score
    return 0.0


def _sniff_file(p: Path) -> float:
    try:
        parse_header(p)
    except DumpFileError:
        return 0.0
    return 0.95 if parse_dump_name(p.name) is not None else 0.8


class _OpFile(NamedTuple):
    """One readable dump file: its header, its parsed file name (None when the name is not a
    dump name) and its real file name (from ``mapping.csv`` for hashed names)."""

    header: DumpHeader
    dname: DumpName | None
    real_name: str

    @property
    def order(self) -> int:
        """Execution order: the file name's timestamp, else the header's dump time."""
        return self.dname.timestamp if self.dname is not None else self.header.dump_time

    @property
    def op_name(self) -> str:
        """The header's op name; the file name's when the header has none."""
        return self.header.op_name or (self.dname.op_name if self.dname else self.real_name)


_NAME_IDS = ("task_id", "stream_id", "timestamp", "task_type", "context_id", "thread_id", "device_id")


@dataclass
class _Builder:
    root: Path
    tensors: dict[str, TensorRef] = field(default_factory=dict)
    problems: list[DumpProblem] = field(default_factory=list)
    opdebug: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    mappings: dict[Path, dict[str, str]] = field(default_factory=dict)

    def mapping(self, folder: Path) -> dict[str, str]:
        """The folder's ``mapping.csv`` (read once per folder)."""
        if folder not in self.mappings:
            self.mappings[folder] = _read_mapping(folder, self.problems)
        return self.mappings[folder]

    def read_file(self, p: Path) -> _OpFile | None:
        """Parse one file's header; None for an Opdebug file or an unreadable one (said in problems)."""
        real_name = self.mapping(p.parent).get(p.name, p.name)
        if real_name.startswith(OPDEBUG_PREFIX):
            self.opdebug.append(str(p))
            return None
        dname: DumpName | None = None
        try:
            dname = parse_dump_name(real_name)
            header = parse_header(p)
        except (DumpFileError, ValueError, RecursionError) as exc:
            self._unreadable(p, dname is not None or real_name != p.name, exc)
            return None
        self.problems.extend(DumpProblem(str(p), msg) for msg in header.problems)
        return _OpFile(header, dname, real_name)

    def _unreadable(self, p: Path, named_as_dump: bool, exc: Exception) -> None:
        """A file named like a dump (by itself or by mapping.csv), or the one file asked for, that
        does not parse is a problem; any other unparsable file is just not a dump."""
        if named_as_dump or self.root.is_file():
            self.problems.append(DumpProblem(str(p), str(exc)))

    def add_op(self, op: _OpFile) -> None:
        """Every input and output tensor of one executed op; repeats are named ``op#k``."""
        op_name = op.op_name
        occurrence = self.counts.get(op_name, 0) + 1
        self.counts[op_name] = occurrence
        base = op_name if occurrence == 1 else f"{op_name}#{occurrence}"
        for desc in op.header.tensors:
            if desc.role in ("input", "output"):
                self._try_add_tensor(op, desc, base)

    def _try_add_tensor(self, op: _OpFile, desc: TensorDesc, base: str) -> None:
        try:
            self._add_tensor(op, desc, base)
        except (ValueError, IndexError, OverflowError) as exc:  # one tensor's odd header, not the dump's
            self.problems.append(
                DumpProblem(f"{op.header.path}:{desc.role}.{desc.index}", f"unreadable tensor: {exc}")
            )

    def _add_tensor(self, op: _OpFile, desc: TensorDesc, base: str) -> None:
        name, kind = _tensor_name(base, desc)
        error = tensor_problem(desc, op.header.file_size)
        order = op.order
        info = TensorInfo(
            name=name,
            dtype=_dtype_or_none(desc.dtype_code),
            shape=layout.converted_shape(desc.format_code, desc.shape, desc.original_shape),
            node_name=op.op_name,
            op_type=op.dname.op_type if op.dname else None,
            output_index=desc.index,
            kind=kind,
            source=f"{op.header.path}:{desc.role}.{desc.index}",
            order=float(order) if order else None,
            extra=_tensor_extra(op, desc),
        )
        loader = None if error else partial(load_tensor, op.header, desc)
        self.tensors[name] = TensorRef(info, loader, error)


def _tensor_name(base: str, desc: TensorDesc) -> tuple[str, TensorKind]:
    """``(tensor name, kind)``: output 0 is the op's name, output N ``op:N``, input N ``op:input:N``."""
    if desc.role != "output":
        return f"{base}:input:{desc.index}", "op_input"
    return (base if desc.index == 0 else f"{base}:{desc.index}"), "activation"


def _dtype_or_none(code: int) -> str | None:
    try:
        return layout.numpy_dtype(code).name
    except layout.LayoutError:
        return None


def _tensor_extra(op: _OpFile, desc: TensorDesc) -> tuple[tuple[str, str], ...]:
    """Device facts shown beside a tensor: formats, shapes, layout, then the file name's ids."""
    extra = [
        ("format", layout.format_name(desc.format_code)),
        ("device_shape", "x".join(map(str, desc.shape))),
        ("original_shape", "x".join(map(str, desc.original_shape))),
        ("data_type", layout.dtype_name(desc.dtype_code)),
        ("dump_layout", f"v{op.header.layout_version}"),
    ]
    if desc.origin_name is not None:
        extra.append(("origin_name", desc.origin_name))
    ids = [(key, str(value)) for key in _NAME_IDS if (value := getattr(op.dname, key, None)) is not None]
    return (*extra, *ids)


def open(path: Path) -> Dump:  # noqa: A001 - the format-module protocol names it `open`
    path = Path(path)
    builder = _Builder(path)
    ops = _read_files(path, builder)
    # Execution order decides which run of a repeated op keeps the plain name.
    ops.sort(key=lambda op: op.order)
    _warn_several_runs(builder, [op.header.path for op in ops])
    for op in ops:
        builder.add_op(op)
    if not builder.tensors and not builder.opdebug:
        detail = f" ({builder.problems[0].message})" if builder.problems else ""
        raise DumpError(f"{path}: no Ascend dump files found{detail}")
    return Dump(
        path=path,
        format=NAME,
        tensors=builder.tensors,
        problems=builder.problems,
        meta={
            "opdebug_files": builder.opdebug,
            # Ops dumped more than once (loops, several steps): later runs are ``name#k``.
            "repeated_ops": {name: n for name, n in builder.counts.items() if n > 1},
        },
    )


def _read_files(path: Path, builder: _Builder) -> list[_OpFile]:
    """The header of every candidate file under ``path`` that parses (the rest are problems)."""
    try:
        ops = [builder.read_file(p) for p in _candidate_files(path, builder.problems)]
    except OSError as exc:
        raise DumpError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    return [op for op in ops if op is not None]


def _warn_several_runs(builder: _Builder, files: list[Path]) -> None:
    """Say so when the files span several steps/devices: they are merged (``--step``/``--device`` pick
    one)."""
    note = several_runs_note(files)
    if note is not None:
        builder.problems.append(DumpProblem(str(builder.root), note))


def discover_runs(root: str | Path) -> list[AscendRun]:
    """Every folder under ``root`` holding files named like Ascend dumps, as runs.

    A single dump file or a flat folder gives one run; a tree with several steps or
    devices gives one run per step folder.  Never raises for an unreadable folder."""
    p = Path(root)
    if p.is_file():
        return [AscendRun(None, None, p)]
    walk = walk_files(p, _wanted, _MAX_DEPTH, skip_hidden=True).whole(p)
    dumps = [f for f in walk.files if f not in walk.refused and parse_dump_name(f.name) is not None]
    return runs_of_files(dumps)


def with_origin_formats(dump: Dump, formats: dict[str, str]) -> Dump:
    """The dump with each named tensor converted to the given framework layout.

    ``formats`` (tensor name -> ``NCHW``/``NHWC``..., e.g. from
    :func:`dumpscope.core.vendor.atc_graph.origin_formats`) settles what a dump alone cannot: an
    NC1HWC0 tensor whose H, W and C are equal, or a plain NHWC device tensor whose
    original layout is NCHW.  Tensors not named keep their loaders."""
    tensors = dict(dump.tensors)
    for name, fmt in formats.items():
        if name in tensors and _loads_device_layout(tensors[name]):
            tensors[name] = _with_origin_format(tensors[name], fmt)
    return Dump(path=dump.path, format=dump.format, tensors=tensors, problems=dump.problems, meta=dump.meta)


def _loads_device_layout(ref: TensorRef) -> bool:
    """True for a tensor whose loader is this module's, not yet given an origin format."""
    loader = ref.loader
    return isinstance(loader, partial) and loader.func is load_tensor and len(loader.args) == 2


def _with_origin_format(ref: TensorRef, fmt: str) -> TensorRef:
    info = replace(ref.info, extra=(*ref.info.extra, ("origin_format", fmt)))
    assert isinstance(ref.loader, partial)  # see _loads_device_layout
    header, desc = ref.loader.args
    return TensorRef(info, partial(load_tensor, header, desc, fmt), ref.error)
