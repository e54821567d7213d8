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
"""

from __future__ import annotations

import io
import math
import mmap
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import numpy as np

from dumpscope.core.formats import protobuf as pb
from dumpscope.core.formats import ascend_layout as layout
from dumpscope.core.formats.ascend_tree import AscendRun, runs_of_files, several_runs_note
from dumpscope.core.formats.safe_fs import read_csv_rows, regular_file_problem, walk_files
from dumpscope.core.dumps import Dump, DumpError, DumpProblem, TensorInfo, TensorRef

NAME = "ascend-dump"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = 'a file, or a folder of files, whose header parses as an Ascend dump (8-byte length + DumpData protobuf; named Op.name.task.stream.timestamp)'

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
    if len(parts) < 4 or not parts[0]:
        return None
    k = 0
    while k < len(parts) - 2 and parts[-1 - k].isdigit() and parts[-1 - k].isascii():
        k += 1
    if k < 2:
        return None
    nums = parts[len(parts) - k :]
    long_idx = [i for i, p in enumerate(nums) if len(p) >= _TIMESTAMP_MIN_DIGITS]
    ts_i = long_idx[-1] if long_idx else len(nums) - 1
    before, after = nums[:ts_i], nums[ts_i + 1 :]
    if not before:
        return None
    # More than two ids before the timestamp: the leading ones are part of the op name.
    spill = before[:-2]
    before = before[-2:]
    op_name = ".".join(parts[1 : len(parts) - k] + spill)
    if not op_name:
        return None
    ts = int(nums[ts_i])
    ids = [int(x) for x in after]
    if not ids:  # classic: task[.stream]
        task, stream = int(before[0]), (int(before[1]) if len(before) == 2 else None)
        return DumpName(parts[0], op_name, task, stream, ts)
    # FFTS+: [stream.]task.ts.task_type.context.thread[.device]
    stream = int(before[0]) if len(before) == 2 else None
    task = int(before[-1])
    ids += [None] * (4 - len(ids))  # type: ignore[list-item]
    return DumpName(parts[0], op_name, task, stream, ts, *ids[:4])


def _shape(buf: bytes | memoryview, fields: list[pb.Field]) -> tuple[int, ...]:
    dims: list[int] = []
    for f in fields:
        sub = pb.group(pb.iter_fields(buf, f.value, f.value + f.length))
        dims = pb.repeated_varints(buf, sub.get(1, []))
    for d in dims:
        if d >= 1 << 63:
            raise DumpFileError(f"shape has an unknown (negative) dimension: {[pb.to_signed(x) for x in dims]}")
    return tuple(dims)


def _int(fields: dict[int, list[pb.Field]], number: int, default: int = 0) -> int:
    got = fields.get(number)
    return pb.integer(got[-1]) if got else default


# DumpData fields and their wire types: a header that breaks these is not a dump.
_DUMPDATA_WIRE = {1: pb.LEN, 2: pb.VARINT, 3: pb.LEN, 4: pb.LEN, 5: pb.LEN, 6: pb.LEN, 7: pb.LEN, 8: pb.LEN}


# Field numbers per message: (data_type, format, shape, data, size, original_shape, original_op)
_OUTPUT_FIELDS = (1, 2, 3, 5, 6, 7, 4)
_INPUT_FIELDS = (1, 2, 3, 4, 5, 6, None)


def _tensor_desc(
    buf: bytes | memoryview, f: pb.Field, role: str, index: int, base: int, inline: bool
) -> tuple[TensorDesc, int]:
    """Decode one OpOutput/OpInput/OpBuffer/Workspace; return it and its byte size."""
    sub = pb.group(pb.iter_fields(buf, f.value, f.value + f.length))
    if role in ("buffer", "space"):
        dt_n = fmt_n = shape_n = orig_n = op_n = None
        data_n, size_n = 2, 3
    else:
        dt_n, fmt_n, shape_n, data_n, size_n, orig_n, op_n = _OUTPUT_FIELDS if role == "output" else _INPUT_FIELDS
    data = sub.get(data_n, [])
    if inline:
        size = data[-1].length if data else 0
        offset = data[-1].value if data else 0
    else:
        size = _int(sub, size_n)
        offset = base
    origin_name = origin_index = origin_fmt = None
    if op_n is not None and op_n in sub:
        o = sub[op_n][-1]
        osub = pb.group(pb.iter_fields(buf, o.value, o.value + o.length))
        if 1 in osub:
            origin_name = pb.text(buf, osub[1][-1])
        origin_index = _int(osub, 2) if 2 in osub else None
        origin_fmt = _int(osub, 4) if 4 in osub else None
    desc = TensorDesc(
        role=role,
        index=index,
        dtype_code=_int(sub, dt_n) if dt_n else _UINT8,
        format_code=_int(sub, fmt_n, 2) if fmt_n else 2,
        shape=_shape(buf, sub.get(shape_n, [])) if shape_n else (size,),
        original_shape=_shape(buf, sub.get(orig_n, [])) if orig_n else (),
        size=size,
        offset=offset,
        origin_name=origin_name,
        origin_output_index=origin_index,
        origin_format_code=origin_fmt,
    )
    return desc, size


def _decode_dumpdata(
    buf: bytes | memoryview, start: int, end: int, data_start: int, inline: bool, path: Path, file_size: int
) -> DumpHeader:
    top = pb.group(pb.iter_fields(buf, start, end))
    for number, fields in top.items():
        expected = _DUMPDATA_WIRE.get(number)
        if expected is not None and any(f.wire_type != expected for f in fields):
            raise DumpFileError(f"DumpData field {number} has the wrong wire type")
    if not (top.keys() & {1, 3, 4, 6}):
        raise DumpFileError("no version, op name, input or output in the header")
    descs: list[TensorDesc] = []
    pos = data_start
    # Chunk order on disk is input, output, buffer, space (not the field-number order).
    for role, number in (("input", 4), ("output", 3), ("buffer", 5), ("space", 8)):
        for i, f in enumerate(top.get(number, [])):
            desc, size = _tensor_desc(buf, f, role, i, pos, inline)
            descs.append(desc)
            pos += size
    attrs: list[tuple[str, str]] = []
    for f in top.get(7, []):
        a = pb.group(pb.iter_fields(buf, f.value, f.value + f.length))
        attrs.append(
            (pb.text(buf, a[1][-1]) if 1 in a else "", pb.text(buf, a[2][-1]) if 2 in a else "")
        )
    problems: list[str] = []
    if not inline and pos != file_size:
        if pos < file_size:
            problems.append(f"{file_size - pos} trailing bytes after the last tensor")
        else:
            problems.append(f"file is truncated: the header describes {pos} bytes, the file has {file_size}")
    return DumpHeader(
        path=path,
        layout_version=1 if inline else 2,
        op_name=pb.text(buf, top[6][-1]) if 6 in top else "",
        dump_time=_int(top, 2),
        version=pb.text(buf, top[1][-1]) if 1 in top else "",
        tensors=tuple(descs),
        attrs=tuple(attrs),
        file_size=file_size,
        problems=tuple(problems),
    )


def parse_header(path: Path) -> DumpHeader:
    """Read a dump file's header (v2) or scan its single message (v1) without copying data."""
    try:
        with io.open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size < 8:
                raise DumpFileError(f"{size} bytes is too short for an Ascend dump")
            head = fh.read(8)
            (header_len,) = struct.unpack("<Q", head)
            v2_error: Exception | None = None
            if 0 < header_len <= min(size - 8, _MAX_HEADER):
                buf = fh.read(header_len)
                try:
                    return _decode_dumpdata(buf, 0, header_len, 8 + header_len, False, path, size)
                except (pb.ProtobufError, DumpFileError) as exc:
                    v2_error = exc
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
    except OSError as exc:
        raise DumpFileError(f"cannot read: {exc.strerror or exc}") from exc


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
    with io.open(header.path, "rb") as fh:
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
    """Why a tensor cannot be loaded, known from the header alone (None when fine)."""
    try:
        dtype = layout.numpy_dtype(desc.dtype_code)
    except layout.LayoutError as exc:
        return str(exc)
    if desc.offset + desc.size > file_size:
        return (
            f"truncated file: {desc.role} {desc.index} needs bytes {desc.offset}..{desc.offset + desc.size}, "
            f"the file has {file_size}"
        )
    expected = math.prod(desc.shape) * dtype.itemsize
    if expected != desc.size:
        return (
            f"{desc.role} {desc.index}: {desc.size} bytes but shape {list(desc.shape)} of "
            f"{layout.dtype_name(desc.dtype_code)} needs {expected}"
        )
    if layout.format_name(desc.format_code) not in layout.KNOWN_FORMATS:
        return (
            f"device format {layout.format_name(desc.format_code)} is not converted by dumpscope yet; "
            "the tensor is listed but not compared"
        )
    return None


def _read_mapping(directory: Path, problems: list[DumpProblem] | None = None) -> dict[str, str]:
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
            if problems is not None:
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
    walk = walk_files(root, _wanted, _MAX_DEPTH, skip_hidden=True)
    if skipped is not None:
        skipped.extend(walk.skipped)
        skipped.extend(DumpProblem(str(p), why) for p, why in walk.refused.items())
    yield from (p for p in walk.files if p not in walk.refused)


def sniff(path: Path) -> float:
    try:
        for i, p in enumerate(_candidate_files(path)):
            if i >= _SNIFF_FILES:
                break
            try:
                parse_header(p)
            except DumpFileError:
                if path.is_file():
                    return 0.0
                continue
            named = parse_dump_name(p.name) is not None
            return 0.95 if named else 0.8
    except OSError:
        return 0.0
    return 0.0


@dataclass
class _Builder:
    root: Path
    tensors: dict[str, TensorRef] = field(default_factory=dict)
    problems: list[DumpProblem] = field(default_factory=list)
    opdebug: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    def read_file(self, p: Path, mapping: dict[str, str]) -> tuple[DumpHeader, DumpName | None, str] | None:
        """Parse one file's header; ``(header, parsed name, real file name)`` or None."""
        real_name = mapping.get(p.name, p.name)
        if real_name.startswith(OPDEBUG_PREFIX):
            self.opdebug.append(str(p))
            return None
        try:
            dname = parse_dump_name(real_name)
            header = parse_header(p)
        except (DumpFileError, ValueError, RecursionError) as exc:
            if dname is not None or self.root.is_file():
                self.problems.append(DumpProblem(str(p), str(exc)))
            return None
        for msg in header.problems:
            self.problems.append(DumpProblem(str(p), msg))
        return header, dname, real_name

    def add_op(self, header: DumpHeader, dname: DumpName | None, real_name: str) -> None:
        op_name = header.op_name or (dname.op_name if dname else real_name)
        occurrence = self.counts.get(op_name, 0) + 1
        self.counts[op_name] = occurrence
        base = op_name if occurrence == 1 else f"{op_name}#{occurrence}"
        for desc in header.tensors:
            if desc.role in ("input", "output"):
                try:
                    self._add_tensor(header, desc, base, op_name, dname)
                except (ValueError, IndexError, OverflowError) as exc:  # one tensor's odd header, not the dump's
                    self.problems.append(DumpProblem(f"{header.path}:{desc.role}.{desc.index}", f"unreadable tensor: {exc}"))

    def _add_tensor(
        self, header: DumpHeader, desc: TensorDesc, base: str, op_name: str, dname: DumpName | None
    ) -> None:
        if desc.role == "output":
            name = base if desc.index == 0 else f"{base}:{desc.index}"
            kind = "activation"
        else:
            name = f"{base}:input:{desc.index}"
            kind = "op_input"
        error = tensor_problem(desc, header.file_size)
        try:
            dtype: str | None = layout.numpy_dtype(desc.dtype_code).name
        except layout.LayoutError:
            dtype = None
        extra: list[tuple[str, str]] = [
            ("format", layout.format_name(desc.format_code)),
            ("device_shape", "x".join(map(str, desc.shape))),
            ("original_shape", "x".join(map(str, desc.original_shape))),
            ("data_type", layout.dtype_name(desc.dtype_code)),
            ("dump_layout", f"v{header.layout_version}"),
        ]
        if desc.origin_name is not None:
            extra.append(("origin_name", desc.origin_name))
        if dname is not None:
            for key in ("task_id", "stream_id", "timestamp", "task_type", "context_id", "thread_id", "device_id"):
                value = getattr(dname, key)
                if value is not None:
                    extra.append((key, str(value)))
        timestamp = dname.timestamp if dname is not None else header.dump_time
        info = TensorInfo(
            name=name,
            dtype=dtype,
            shape=layout.converted_shape(desc.format_code, desc.shape, desc.original_shape),
            node_name=op_name,
            op_type=dname.op_type if dname else None,
            output_index=desc.index,
            kind=kind,  # type: ignore[arg-type]
            source=f"{header.path}:{desc.role}.{desc.index}",
            order=float(timestamp) if timestamp else None,
            extra=tuple(extra),
        )
        loader = None if error else partial(load_tensor, header, desc)
        self.tensors[name] = TensorRef(info, loader, error)


def open(path: Path) -> Dump:  # noqa: A001 - the format-module protocol names it `open`
    path = Path(path)
    builder = _Builder(path)
    mappings: dict[Path, dict[str, str]] = {}
    ops: list[tuple[DumpHeader, DumpName | None, str]] = []
    try:
        for p in _candidate_files(path, builder.problems):
            if p.parent not in mappings:
                mappings[p.parent] = _read_mapping(p.parent, builder.problems)
            item = builder.read_file(p, mappings[p.parent])
            if item is not None:
                ops.append(item)
    except OSError as exc:
        raise DumpError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    # Execution order decides which run of a repeated op keeps the plain name.
    ops.sort(key=lambda item: item[1].timestamp if item[1] is not None else item[0].dump_time)
    _warn_several_runs(builder, [item[0].path for item in ops])
    for item in ops:
        builder.add_op(*item)
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


def _warn_several_runs(builder: _Builder, files: list[Path]) -> None:
    """Say so when the files span several steps/devices (issue 15): they are merged."""
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
    walk = walk_files(p, _wanted, _MAX_DEPTH, skip_hidden=True)
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
        ref = tensors.get(name)
        loader = ref.loader if ref is not None else None
        if isinstance(loader, partial) and loader.func is load_tensor and len(loader.args) == 2:
            info = replace(ref.info, extra=(*ref.info.extra, ("origin_format", fmt)))  # type: ignore[union-attr]
            tensors[name] = TensorRef(info, partial(load_tensor, *loader.args, fmt), ref.error)  # type: ignore[union-attr]
    return Dump(path=dump.path, format=dump.format, tensors=tensors, problems=dump.problems, meta=dump.meta)


# --- writing (synthetic dumps for tests, demos and benchmarks; same layout as the device) ---


@dataclass(frozen=True)
class RawTensor:
    """A tensor to write: ``data`` is already in the device format and dtype."""

    data: np.ndarray
    dtype_code: int
    format_code: int = 2
    original_shape: tuple[int, ...] = ()
    origin_name: str | None = None
    origin_output_index: int = 0
    origin_format_code: int | None = None


def _encode_tensor(t: RawTensor, role: str, inline: bool) -> bytes:
    raw = np.ascontiguousarray(t.data).tobytes()
    shape = pb.encode_bytes(3, pb.encode_packed(1, t.data.shape))
    orig = pb.encode_packed(1, t.original_shape) if t.original_shape else b""
    msg = pb.encode_int(1, t.dtype_code) + pb.encode_int(2, t.format_code) + shape
    if role == "output":
        if t.origin_name is not None:
            op = pb.encode_bytes(1, t.origin_name) + pb.encode_int(2, t.origin_output_index)
            if t.origin_format_code is not None:
                op += pb.encode_int(4, t.origin_format_code)
            msg += pb.encode_bytes(4, op)
        msg += (pb.encode_bytes(5, raw) if inline else b"") + pb.encode_int(6, len(raw))
        msg += pb.encode_bytes(7, orig) if t.original_shape else b""
    else:
        msg += (pb.encode_bytes(4, raw) if inline else b"") + pb.encode_int(5, len(raw))
        msg += pb.encode_bytes(6, orig) if t.original_shape else b""
    return msg


def write_dump(
    path: Path,
    op_name: str,
    outputs: list[RawTensor],
    inputs: list[RawTensor] = (),  # type: ignore[assignment]
    dump_time: int = 0,
    layout_version: int = 2,
) -> Path:
    """Write one op's dump file in layout v2 (header + raw chunks) or v1 (inline data).

    Public API: the inverse of :func:`open`, for building synthetic Ascend dumps (test
    fixtures, minimal reproductions of a reader bug) without CANN.
    """
    inline = layout_version == 1
    header = pb.encode_bytes(1, "2.0") + pb.encode_int(2, dump_time)
    header += b"".join(pb.encode_bytes(3, _encode_tensor(t, "output", inline)) for t in outputs)
    header += b"".join(pb.encode_bytes(4, _encode_tensor(t, "input", inline)) for t in inputs)
    header += pb.encode_bytes(6, op_name)
    with io.open(path, "wb") as fh:
        if inline:
            fh.write(header)
        else:
            fh.write(struct.pack("<Q", len(header)))
            fh.write(header)
            for t in [*inputs, *outputs]:
                fh.write(np.ascontiguousarray(t.data).tobytes())
    return path
