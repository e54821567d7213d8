"""SigmaStar SGS IPU dumps: ``sigma_outtensor_dump.bin`` (float.sim / fixed.sim) and the
framework-side ``onnx_NHWC_outtensor_dump.bin`` / ``caffe_NHWC_outtensor_dump.bin``, in
binary or text (``dumpasstring``, ``.txt``) form.

Binary layout: ``isFloat: <0|1>`` then per tensor an ASCII header line
``//out <i> s: <scale> z: <zp> type: <float|SGS_S16|SGS_S8|SGS_U8...> name: <name>
bConstant:<0|1> shape:[d0, ...] dims:<rank>`` (``//in`` for op inputs), a line
``op_out[<op index>] <op name> = {``, a line ``//buffer data size: <N>`` and N raw
bytes (float32 when the file or tensor is float, else int16/int8/uint8 per ``type``),
then for simulator dumps a ``};`` trailer.  N may exceed the tensor (alignment); the
first ``prod(shape)`` elements are the tensor.  The text form prints the values
comma-separated instead of the raw bytes, closed by ``}``.

Fixed-point tensors are dequantised on load: ``real = (q - z) * s`` (the mapping is
inferred from the header fields and not confirmed by SigmaStar documentation).  Records with
``bConstant:1`` become ``kind="constant"``; ``//in`` records of tensors no ``//out``
produces become graph inputs.  4-D tensors are NHWC in every one of these files (the
framework dumps transpose NCHW -> NHWC to line up with the simulator); the data is
kept as stored and ``extra`` says ``layout=NHWC`` - pairing transposes when the other
side is NCHW.
"""

from __future__ import annotations

import builtins
import io
import math
import mmap
import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from dumpscope.core.atomic import write_bytes
from dumpscope.core.dumps import Dump, DumpError, DumpProblem, TensorInfo, TensorKind, TensorRef
from dumpscope.core.formats.safe_fs import regular_file_problem

NAME = "sigmastar"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = (
    "sigma_outtensor_dump.bin/.txt (or onnx_/caffe_NHWC_outtensor_dump) starting with the SigmaStar "
    "dump magic"
)

DUMP_NAMES = (
    "sigma_outtensor_dump.bin",
    "sigma_outtensor_dump.txt",
    "onnx_NHWC_outtensor_dump.bin",
    "onnx_NHWC_outtensor_dump.txt",
    "caffe_NHWC_outtensor_dump.bin",
    "caffe_NHWC_outtensor_dump.txt",
    "tflite_outtensor_dump.bin",
)
_MAGIC = b"isFloat:"
# The header line is matched in two parts split at "bConstant:" so that no pattern has two
# adjacent runs that can both take spaces (that was quadratic on a line of 80k spaces).
_HEADER_HEAD_RE = re.compile(
    rb"^//(?P<role>in|out)\s+(?P<idx>\d{1,18})\s+s:\s*(?P<s>\S+)\s+z:\s*(?P<z>\S+)\s+type:\s*(?P<type>\S+)\s+"
    rb"name:\s?(?P<name>.*)$"
)
_HEADER_TAIL_RE = re.compile(rb"^bConstant:\s*(?P<const>\d)\s+shape:\s*\[(?P<shape>[^\]]*)\]")
_OP_RE = re.compile(rb"^(?:op_out|op_in|input|output)\[(?P<idx>\d{1,18})\]\s+(?P<name>.*?)\s*=\s*\{\s*$")
_SIZE_RE = re.compile(rb"^//buffer data size:\s*(?P<n>\d{1,18})\s*$")
_INT_TYPES: dict[str, np.dtype] = {
    "SGS_S16": np.dtype(np.int16),
    "SGS_S8": np.dtype(np.int8),
    "SGS_S32": np.dtype(np.int32),
}


@dataclass(frozen=True)
class Record:
    role: str
    index: int
    scale: float
    zero_point: float
    sgs_type: str
    name: str
    constant: bool
    shape: tuple[int, ...]
    op_index: int | None
    op_name: str | None
    start: int
    """Offset of the data bytes (binary) or of the first value line (text)."""
    length: int
    """Bytes of raw data (binary) or of the value text (text)."""
    is_float: bool
    text: bool = False
    """The record is in the text form (``length`` counts characters, not stored values)."""


def _declared_dtype(rec: Record) -> np.dtype:
    """What the header says the bytes are: float32 (``isFloat: 1`` or a float type), else the SGS type."""
    if rec.is_float or rec.sgs_type.lower().startswith("float"):
        return np.dtype("<f4")
    return _INT_TYPES.get(rec.sgs_type, np.dtype(np.uint8))


#: Alignment padding a record may carry beyond its tensor.
MAX_PADDING = 64


def _sized_dtype(rec: Record) -> np.dtype | None:
    """What the bytes are when the header and the record's size disagree (a ``dequantFixed``
    dump whose ``isFloat`` says one thing and the size another), else None.

    A float header whose record is too short for float32 but holds the tensor in its SGS
    integer type is read as that type; an integer header whose record holds exactly the
    tensor in float32 (up to alignment) and far more than the integers need is read as float32.
    """
    count = math.prod(rec.shape)
    if rec.text or rec.length < 0 or count == 0:
        return None
    declared = _declared_dtype(rec)
    if declared.kind == "f":
        return _short_float_as_integer(rec, count)
    return _long_integer_as_float(rec, count, declared)


def _short_float_as_integer(rec: Record, count: int) -> np.dtype | None:
    """A float header over a record too short for float32 that holds the tensor in its SGS integer type."""
    if rec.sgs_type not in QUANT_DTYPES:
        return None
    integer = _INT_TYPES.get(rec.sgs_type, np.dtype(np.uint8))
    return integer if count * integer.itemsize <= rec.length < count * 4 else None


def _long_integer_as_float(rec: Record, count: int, declared: np.dtype) -> np.dtype | None:
    """An integer header over a record that is exactly float32 (up to alignment) and far longer
    than the integers need."""
    fits_float = count * 4 <= rec.length < count * 4 + MAX_PADDING
    too_long = rec.length - count * declared.itemsize > MAX_PADDING
    return np.dtype("<f4") if fits_float and too_long else None


def _storage_dtype(rec: Record) -> np.dtype:
    """What the record's bytes are: the header's word, unless the size says otherwise."""
    return _sized_dtype(rec) or _declared_dtype(rec)


def storage_note(rec: Record) -> str | None:
    """The sentence a row shows when the bytes were read as something other than the header says."""
    sized = _sized_dtype(rec)
    if sized is None:
        return None
    head = f"isFloat: {int(rec.is_float)}, type {rec.sgs_type}"
    return (
        f"header ({head}) and record size disagree: {rec.length} bytes hold shape {list(rec.shape)} as "
        f"{sized.name}, so the data was read as {sized.name}"
    )


def _dequantised(rec: Record) -> bool:
    return _storage_dtype(rec).kind != "f" and rec.scale != 0.0


def _line(buf: mmap.mmap | bytes, pos: int) -> tuple[bytes, int]:
    end = buf.find(b"\n", pos)
    if end < 0:
        end = len(buf)
    return bytes(buf[pos:end]).rstrip(b"\r"), end + 1


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def _num(raw: bytes) -> float:
    try:
        return float(raw)
    except ValueError:
        return math.nan


#: A header line longer than this is junk (names are far shorter); the pattern is not tried on it,
#: which keeps a line of 80k spaces linear.
MAX_HEADER_LINE = 16 << 10
_MAX_DIGITS = 15  # a dimension of 10**15 elements is already absurd; more digits are corrupt


def _header_match(line: bytes) -> dict[str, bytes] | None:
    """The fields of a tensor header line (``//out 0 s: ... name: N bConstant:0 shape:[...]``), or None."""
    if not line.startswith((b"//in", b"//out")) or len(line) > MAX_HEADER_LINE:
        return None
    cut = line.find(b"bConstant:")
    if cut < 0:
        return None
    head, tail = _HEADER_HEAD_RE.match(line[:cut]), _HEADER_TAIL_RE.match(line[cut:])
    if head is None or tail is None or not line[cut - 1 : cut].isspace():
        return None
    return {**head.groupdict(), "name": head["name"].rstrip(), **tail.groupdict()}


def _parse_shape(text: bytes) -> tuple[int, ...] | str:
    """The dims of ``shape:[...]``, or why they are not a plausible shape."""
    dims = [d for d in text.replace(b" ", b"").split(b",") if d]
    if not all(d.isdigit() for d in dims):
        return "is not a list of integers"
    if any(len(d) > _MAX_DIGITS for d in dims) or math.prod(int(d) for d in dims) > 1 << 48:
        return "claims more than 2**48 elements (a corrupt header)"
    return tuple(int(d) for d in dims)


def scan(buf: mmap.mmap | bytes, text: bool) -> tuple[bool, list[Record], list[str]]:
    """``(is_float, records, problems)`` of a whole dump; data is located, not read."""
    first, pos = _line(buf, 0)
    if not first.startswith(_MAGIC):
        raise DumpError("not a SigmaStar dump (the file does not start with 'isFloat:')")
    scanner = _Scanner(buf, text, first[len(_MAGIC) :].strip() == b"1")
    while pos < len(buf):
        pos = scanner.step(pos)
    return scanner.is_float, scanner.records, scanner.problems


@dataclass
class _Scanner:
    """One pass over a dump: each :meth:`step` reads one line, or one whole record from its header."""

    buf: mmap.mmap | bytes
    text: bool
    is_float: bool
    records: list[Record] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def step(self, pos: int) -> int:
        """Read the record whose header line is at ``pos`` (anything else is skipped: trailers
        ``};``, blank lines, junk resync on the next header); the position after it."""
        header_pos = pos
        line, nxt = _line(self.buf, pos)
        m = _header_match(line)
        if not m:
            return nxt
        op_index, op_name, pos = self._op_line(nxt)
        shape = _parse_shape(m["shape"])
        if isinstance(shape, str):
            self.problems.append(f"byte {header_pos}: shape [{_decode(m['shape'][:80])}] {shape}; skipped")
            return pos
        size, pos = self._size_line(pos)
        extent = (
            self._text_extent(pos)
            if self.text
            else self._binary_extent(pos, size, _decode(m["name"]), header_pos)
        )
        if extent is None:
            return pos
        start, length, end = extent
        self.records.append(_record(m, shape, op_index, op_name, start, length, self.is_float, self.text))
        return end

    def _op_line(self, pos: int) -> tuple[int | None, str | None, int]:
        """``(op index, op name, next position)`` of an ``op_out[i] name = {`` line, if one is at ``pos``."""
        line, nxt = _line(self.buf, pos)
        om = _OP_RE.match(line) if len(line) <= MAX_HEADER_LINE else None
        if not om:
            return None, None, pos
        return int(om["idx"]), _decode(om["name"]), nxt

    def _size_line(self, pos: int) -> tuple[int | None, int]:
        """``(N, next position)`` of a ``//buffer data size: N`` line, if one is at ``pos``."""
        line, nxt = _line(self.buf, pos)
        sm = _SIZE_RE.match(line)
        return (int(sm["n"]), nxt) if sm else (None, pos)

    def _text_extent(self, pos: int) -> tuple[int, int, int]:
        """``(start, length, end)`` of the value text: up to the closing ``}``."""
        end = self.buf.find(b"}", pos)
        end = len(self.buf) if end < 0 else end
        return pos, end - pos, end

    def _binary_extent(
        self, pos: int, size: int | None, name: str, header_pos: int
    ) -> tuple[int, int, int] | None:
        """``(start, length, end)`` of the raw bytes; None (a problem) without a size line; a
        length of -1 when the file ends first."""
        if size is None:
            self.problems.append(
                f"byte {header_pos}: tensor {name!r} has no '//buffer data size' line; skipped"
            )
            return None
        if pos + size > len(self.buf):
            self.problems.append(
                f"tensor {name!r}: the record claims {size} bytes at byte {pos}, "
                f"the file ends at {len(self.buf)} (truncated)"
            )
            return pos, -1, pos
        return pos, size, pos + size


def _record(
    m: dict[str, bytes], shape: tuple[int, ...], op_index: int | None, op_name: str | None,
    start: int, length: int, is_float: bool, text: bool,
) -> Record:  # fmt: skip
    """A :class:`Record` from the header line's fields and the located data."""
    return Record(
        role=m["role"].decode(),
        index=int(m["idx"]),
        scale=_num(m["s"]),
        zero_point=_num(m["z"]),
        sgs_type=m["type"].decode("ascii", "replace"),
        name=_decode(m["name"]),
        constant=m["const"] == b"1",
        shape=shape,
        op_index=op_index,
        op_name=op_name,
        start=start,
        length=length,
        is_float=is_float,
        text=text,
    )


def record_problem(rec: Record, text: bool) -> str | None:
    """Why a record cannot be loaded (None when it can)."""
    if rec.length < 0:
        return "truncated file: the tensor's bytes are missing"
    return _text_record_problem(rec) if text else _binary_record_problem(rec)


def _text_record_problem(rec: Record) -> str | None:
    """Every value takes at least one character and a separator."""
    count = math.prod(rec.shape)
    return f"text record of {rec.length} bytes cannot hold {count} values" if count > rec.length else None


def _binary_record_problem(rec: Record) -> str | None:
    need = math.prod(rec.shape) * _storage_dtype(rec).itemsize
    if rec.length < need:
        return f"record holds {rec.length} bytes, shape {list(rec.shape)} of {rec.sgs_type} needs {need}"
    if _storage_dtype(rec).kind != "f" and not math.isfinite(rec.scale):
        return f"scale {rec.scale} is not a number; cannot dequantise"
    return None


def load_record(path: Path, rec: Record, text: bool) -> np.ndarray:
    """The tensor of one record: float32 as stored, or fixed-point dequantised."""
    raw = _stored_values(path, rec, text)
    if _dequantised(rec):
        raw = ((raw.astype(np.float64) - rec.zero_point) * rec.scale).astype(np.float32)
    return raw.reshape(rec.shape)


def _stored_values(path: Path, rec: Record, text: bool) -> np.ndarray:
    """The record's values as stored: parsed from the text form, or viewed through a memory map."""
    count = math.prod(rec.shape)
    dtype = _storage_dtype(rec)
    with builtins.open(path, "rb") as fh:
        if not text:
            mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            return np.frombuffer(mm, dtype=dtype, count=count, offset=rec.start)
        fh.seek(rec.start)
        values = _text_values(fh, rec.length, count)
    return values.astype(np.float32) if dtype.kind == "f" else values


def _op_inputs(records: list[Record]) -> dict[int | None, tuple[str, ...]]:
    """Op index -> the names of its ``//in`` records (constants included: the edges tell them apart)."""
    out: dict[int | None, list[str]] = {}
    for rec in records:
        if rec.role == "in" and rec.op_index is not None:
            names = out.setdefault(rec.op_index, [])
            if rec.name not in names:
                names.append(rec.name)
    return {k: tuple(v) for k, v in out.items()}


def _node_inputs(op_inputs: dict[int | None, tuple[str, ...]], rec: Record, kind: str) -> tuple[str, ...]:
    """The inputs of the op producing an activation record (none for inputs and constants)."""
    return op_inputs.get(rec.op_index, ()) if kind == "activation" else ()


#: SigmaStar's quantised types -> the integer dtype of their grid.
QUANT_DTYPES: dict[str, str] = {
    "SGS_U8": "uint8",
    "SGS_S8": "int8",
    "SGS_S16": "int16",
    "SGS_U16": "uint16",
    "SGS_S32": "int32",
}


def quant_extra(rec: Record) -> list[tuple[str, str]]:
    """The record's quantisation as the ``quant_*`` facts every check reads (scale, zero
    point, grid dtype), for a fixed-point type whether or not the bytes were dequantised
    (``dequantFixed``); none for float records or a scale that is not a positive number."""
    qdtype = QUANT_DTYPES.get(rec.sgs_type)
    if qdtype is None or not math.isfinite(rec.scale) or rec.scale <= 0 or not math.isfinite(rec.zero_point):
        return []
    return [
        ("quant_scale", repr(rec.scale)),
        ("quant_zero_point", repr(rec.zero_point)),
        ("quant_dtype", qdtype),
    ]


_TEXT_CHUNK = 1 << 20


def _text_values(fh: io.BufferedReader, length: int, count: int) -> np.ndarray:
    """The first ``count`` comma/newline-separated numbers of ``length`` bytes of text.

    Read in 1 MiB pieces into a preallocated array: memory is the array plus one piece,
    never a Python list of every value.
    """
    out = np.empty(count, dtype=np.float64)
    filled, left, carry = 0, length, b""
    while filled < count:
        piece = fh.read(min(_TEXT_CHUNK, left)) if left > 0 else b""
        left -= len(piece)
        # keep a value cut by the piece's end for the next round
        block, carry = _cut_after_last_value(carry + piece) if piece else (carry, b"")
        filled = _fill(out, filled, block)
        if not piece:
            break
    if filled < count:
        raise ValueError(f"text record holds {filled} values, shape needs {count}")
    return out


def _cut_after_last_value(block: bytes) -> tuple[bytes, bytes]:
    """``(whole values, the cut value after the last separator)`` of a piece of text."""
    cut = max(block.rfind(b","), block.rfind(b"\n"))
    if len(block) - cut - 1 > _TEXT_CHUNK:
        raise ValueError("a text value longer than 1 MiB")
    return block[: cut + 1], block[cut + 1 :]


def _fill(out: np.ndarray, filled: int, block: bytes) -> int:
    """Parse the values of ``block`` into ``out`` from ``filled``; the new fill level."""
    tokens = [v for v in block.replace(b"\n", b",").split(b",") if v.strip()][: out.size - filled]
    out[filled : filled + len(tokens)] = [float(v) for v in tokens]
    return filled + len(tokens)


def _dump_file(path: Path) -> Path | None:
    """The dump itself, or the first of :data:`DUMP_NAMES` in the folder or its ``dumpData``."""
    if path.is_file():
        return path
    if not path.is_dir():
        return None
    candidates = (p for name in DUMP_NAMES for p in (path / name, path / "dumpData" / name))
    return next((p for p in candidates if _file_inside(path, p)), None)


def _file_inside(folder: Path, p: Path) -> bool:
    """A regular file, not a link leading out of the folder."""
    return p.is_file() and regular_file_problem(folder, p) is None


def sniff(path: Path) -> float:
    try:
        p = _dump_file(path)
        if p is None:
            return 0.0
        with builtins.open(p, "rb") as fh:
            return 0.95 if fh.read(len(_MAGIC)) == _MAGIC else 0.0
    except OSError:
        return 0.0


def _read_records(p: Path, text: bool) -> tuple[bool, list[Record], list[str]]:
    """:func:`scan` of the file ``p``; an unusable file is a DumpError naming it."""
    try:
        with builtins.open(p, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            return scan(mm, text)
    except ValueError as exc:  # an empty file cannot be mapped
        raise DumpError(f"{p}: not a SigmaStar dump ({exc})") from exc
    except DumpError as exc:
        raise DumpError(f"{p}: {exc}") from exc
    except OSError as exc:
        raise DumpError(f"{p}: cannot read: {exc.strerror or exc}") from exc


def _record_extra(rec: Record) -> tuple[tuple[str, str], ...]:
    extra = [
        ("sgs_type", rec.sgs_type),
        ("scale", repr(rec.scale)),
        ("zero_point", repr(rec.zero_point)),
        ("is_float", str(int(rec.is_float))),
        ("dequantised", str(int(_dequantised(rec)))),
        *quant_extra(rec),
        *((("note", note),) if (note := storage_note(rec)) else ()),
    ]
    if len(rec.shape) == 4:
        extra.append(("layout", "NHWC"))
    return tuple(extra)


def _record_kind(rec: Record) -> TensorKind:
    if rec.constant:
        return "constant"
    return "activation" if rec.role == "out" else "input"


def _record_dtype(rec: Record) -> str:
    """float32 once dequantised or stored as float; else the stored integer type."""
    return "float32" if _dequantised(rec) or _storage_dtype(rec).kind == "f" else _storage_dtype(rec).name


def _record_ref(
    p: Path, rec: Record, text: bool, op_inputs: dict[int | None, tuple[str, ...]] | None = None
) -> TensorRef:
    """One record as a tensor row (an unusable record: a row with the reason); ``op_inputs``:
    each op's ``//in`` names, the inputs of the op that produced the record."""
    error = record_problem(rec, text)
    loader = None if error else partial(load_record, p, rec, text)
    return TensorRef(_record_info(p, rec, op_inputs or {}), loader, error)


def _record_info(p: Path, rec: Record, op_inputs: dict[int | None, tuple[str, ...]]) -> TensorInfo:
    kind = _record_kind(rec)
    return TensorInfo(
        name=rec.name,
        dtype=_record_dtype(rec),
        shape=rec.shape,
        node_name=rec.op_name,
        topo_index=rec.op_index if kind == "activation" else -1,
        output_index=rec.index if rec.role == "out" else 0,
        kind=kind,
        source=f"{p}@{rec.start}",
        order=float(rec.op_index) if rec.op_index is not None else None,
        node_inputs=_node_inputs(op_inputs, rec, kind),
        extra=_record_extra(rec),
    )


def open(path: Path) -> Dump:  # noqa: A001 - the format-module protocol names it `open`
    path = Path(path)
    p = _dump_file(path)
    if p is None:
        raise DumpError(f"{path}: no SigmaStar dump ({', '.join(DUMP_NAMES[:3])}...)")
    text = p.suffix.lower() == ".txt"
    is_float, records, messages = _read_records(p, text)
    problems = [DumpProblem(str(p), m) for m in messages]
    tensors = _record_refs(p, records, text, problems)
    if not tensors and not problems:
        raise DumpError(f"{p}: a SigmaStar dump header but no tensor records")
    return Dump(
        path=path,
        format=NAME,
        tensors=tensors,
        problems=problems,
        meta={"file": str(p), "is_float": is_float},
    )


def _record_refs(
    p: Path, records: list[Record], text: bool, problems: list[DumpProblem]
) -> dict[str, TensorRef]:
    """One row per tensor name: an op input that repeats its producer's output is left out, and a
    name dumped twice keeps its first record (said in ``problems``)."""
    produced = {r.name for r in records if r.role == "out"}
    op_inputs = _op_inputs(records)
    tensors: dict[str, TensorRef] = {}
    for rec in records:
        if _repeats_producer(rec, produced):
            continue
        if rec.name in tensors:
            problems.append(
                DumpProblem(str(p), f"tensor {rec.name!r} is dumped twice; the first record is used")
            )
            continue
        tensors[rec.name] = _record_ref(p, rec, text, op_inputs)
    return tensors


def _repeats_producer(rec: Record, produced: set[str]) -> bool:
    """An ``//in`` record of a (non-constant) tensor some ``//out`` record already gives."""
    return rec.role == "in" and not rec.constant and rec.name in produced


# --- writing (test fixtures and demos; follows the documented layout) ---


@dataclass(frozen=True)
class SgsTensor:
    name: str
    data: np.ndarray
    """Stored values: float32, or int8/uint8/int16 for fixed-point tensors."""
    op_name: str
    op_index: int
    sgs_type: str = "float"
    scale: float = 1.0
    zero_point: int = 0
    constant: bool = False
    role: str = "out"
    index: int = 0
    pad_bytes: int = 0
    """Alignment bytes appended after the data (binary form)."""


def write_sigmastar(
    path: Path, tensors: list[SgsTensor], is_float: bool, text: bool = False, trailer: bool = True
) -> Path:
    """Write a SigmaStar dump in the binary or text form.

    Public API: the inverse of :func:`open`, for building synthetic SigmaStar dumps (test
    fixtures, minimal reproductions of a reader bug) without the SGS tools.
    """
    out = io.BytesIO()
    out.write(f"isFloat: {int(is_float)}\n".encode())
    for t in tensors:
        out.write(_header_lines(t))
        if text:
            _write_text_values(out, t.data.reshape(-1))
        else:
            _write_raw(out, t, trailer)
    write_bytes(out.getvalue(), path)
    return path


def _header_lines(t: SgsTensor) -> bytes:
    """The ``//out ...`` header line and the ``op_out[i] name = {`` line of one tensor."""
    shape = ", ".join(str(d) for d in t.data.shape)
    head = (
        f"//{t.role} {t.index} s: {t.scale:.6f} z: {t.zero_point} type: {t.sgs_type} name: {t.name} "
        f"bConstant:{int(t.constant)} shape:[{shape}] dims:{t.data.ndim}\n"
    )
    prefix = "op_out" if t.role == "out" else "op_in"
    return (head + f"{prefix}[{t.op_index}] {t.op_name} = {{\n").encode("utf-8", "surrogateescape")


def _write_text_values(out: io.BytesIO, flat: np.ndarray) -> None:
    """The text form: 16 values a line, closed by ``}``."""
    fmt = "%.6f, " if flat.dtype.kind == "f" else "%6d, "
    out.write(b"\n")
    for i in range(0, flat.size, 16):
        out.write("".join(fmt % v for v in flat[i : i + 16].tolist()).encode() + b"\n")
    out.write(b"}\n")


def _write_raw(out: io.BytesIO, t: SgsTensor, trailer: bool) -> None:
    """The binary form: a size line, the bytes and their alignment padding, then ``};``."""
    raw = t.data.reshape(-1).tobytes() + b"\0" * t.pad_bytes
    out.write(f"//buffer data size: {len(raw)}\n".encode())
    out.write(raw)
    if trailer:
        out.write(b"\n};\n")
