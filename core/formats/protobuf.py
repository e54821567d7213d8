"""A minimal protobuf wire-format decoder (no protoc, no generated code).

Vendor dump headers (Ascend ``DumpData``) are small protobuf messages; reading them
needs only the wire format: a key varint ``(field_number << 3) | wire_type`` followed
by a varint, a fixed 32/64-bit value or a length-delimited payload.  Every length is
checked against the buffer, so a truncated or corrupt header raises
:class:`ProtobufError` instead of reading past the end.

Length-delimited values are returned as ``(offset, length)`` into the original
buffer, never copied, so large inline tensors (dump v1) can later be viewed with
``np.frombuffer`` at that offset.
"""

from __future__ import annotations

import mmap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import NoReturn

Bytes = bytes | memoryview | mmap.mmap
"""What the decoder reads: a file's bytes, a view of them, or its memory map."""

VARINT, FIXED64, LEN, START_GROUP, END_GROUP, FIXED32 = 0, 1, 2, 3, 4, 5
_MAX_VARINT_BYTES = 10


class ProtobufError(ValueError):
    """The bytes are not a well-formed protobuf message."""


@dataclass(frozen=True)
class Field:
    """One decoded field.  ``value`` is an int, or for ``LEN`` fields the payload offset."""

    number: int
    wire_type: int
    value: int
    length: int = 0
    """Payload length of a ``LEN`` field (0 otherwise)."""


def read_varint(buf: Bytes, pos: int, end: int) -> tuple[int, int]:
    """Decode one varint at ``pos``; return ``(value, next_pos)``."""
    result = 0
    shift = 0
    for i in range(_MAX_VARINT_BYTES):
        if pos + i >= end:
            raise ProtobufError(f"varint runs past the end of the message at byte {pos}")
        byte = buf[pos + i]
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos + i + 1
        shift += 7
    raise ProtobufError(f"varint longer than {_MAX_VARINT_BYTES} bytes at byte {pos}")


def iter_fields(buf: Bytes, start: int = 0, end: int | None = None) -> Iterator[Field]:
    """Yield the fields of the message in ``buf[start:end]`` in wire order."""
    stop = _checked_stop(buf, start, end)
    pos = start
    while pos < stop:
        key, pos = read_varint(buf, pos, stop)
        reader = _VALUE_READERS.get(key & 7) if key >> 3 else None
        if reader is None:
            _refuse_key(key, pos)
        field, pos = reader(buf, pos, stop, key >> 3)
        yield field


def _checked_stop(buf: Bytes, start: int, end: int | None) -> int:
    """The end of the message, checked to lie inside ``buf`` after ``start``."""
    stop = len(buf) if end is None else end
    if stop > len(buf) or start < 0 or start > stop:
        raise ProtobufError(f"message bounds {start}..{stop} outside a buffer of {len(buf)} bytes")
    return stop


def _refuse_key(key: int, pos: int) -> NoReturn:
    """A key with field number 0, or with a wire type no reader handles."""
    number, wire_type = key >> 3, key & 7
    if number == 0:
        raise ProtobufError(f"field number 0 at byte {pos}")
    # Groups (3/4) are deprecated and never used by the schemas we read.
    raise ProtobufError(f"unsupported wire type {wire_type} for field {number}")


def _varint_value(buf: Bytes, pos: int, stop: int, number: int) -> tuple[Field, int]:
    value, pos = read_varint(buf, pos, stop)
    return Field(number, VARINT, value), pos


def _fixed_value(
    buf: Bytes, pos: int, stop: int, number: int, wire_type: int, width: int
) -> tuple[Field, int]:
    """A little-endian fixed32/fixed64 value of ``width`` bytes."""
    if pos + width > stop:
        raise ProtobufError(f"fixed{width * 8} field {number} runs past the end")
    return Field(number, wire_type, int.from_bytes(bytes(buf[pos : pos + width]), "little")), pos + width


def _len_value(buf: Bytes, pos: int, stop: int, number: int) -> tuple[Field, int]:
    """A length-delimited payload, kept as ``(offset, length)`` into ``buf``."""
    length, pos = read_varint(buf, pos, stop)
    if pos + length > stop:
        raise ProtobufError(f"field {number} claims {length} bytes but only {stop - pos} remain")
    return Field(number, LEN, pos, length), pos + length


#: wire type -> reader of the value that follows the key: ``(buf, pos, stop, number) -> (field, next_pos)``.
_VALUE_READERS: dict[int, Callable[[Bytes, int, int, int], tuple[Field, int]]] = {
    VARINT: _varint_value,
    FIXED64: partial(_fixed_value, wire_type=FIXED64, width=8),
    FIXED32: partial(_fixed_value, wire_type=FIXED32, width=4),
    LEN: _len_value,
}


def packed_varints(buf: Bytes, field: Field) -> list[int]:
    """Values of a packed ``repeated uint64`` field."""
    out: list[int] = []
    pos, end = field.value, field.value + field.length
    while pos < end:
        value, pos = read_varint(buf, pos, end)
        out.append(value)
    return out


def repeated_varints(buf: Bytes, fields: list[Field]) -> list[int]:
    """A ``repeated`` integer field, packed or not (parsers must accept both)."""
    out: list[int] = []
    for f in fields:
        if f.wire_type == LEN:
            out.extend(packed_varints(buf, f))
        elif f.wire_type == VARINT:
            out.append(f.value)
        else:
            raise ProtobufError(f"field {f.number}: expected an integer, got wire type {f.wire_type}")
    return out


def integer(field: Field) -> int:
    """An integer (varint) field; any other wire type means the bytes are not this schema."""
    if field.wire_type != VARINT:
        raise ProtobufError(f"field {field.number}: expected an integer, got wire type {field.wire_type}")
    return field.value


def text(buf: Bytes, field: Field) -> str:
    """A ``string`` field; undecodable bytes survive as surrogate escapes."""
    if field.wire_type != LEN:
        raise ProtobufError(f"field {field.number}: expected a string, got wire type {field.wire_type}")
    return bytes(buf[field.value : field.value + field.length]).decode("utf-8", "surrogateescape")


def group(fields: Iterator[Field]) -> dict[int, list[Field]]:
    """Fields by number, keeping the wire order of repeated ones."""
    out: dict[int, list[Field]] = {}
    for f in fields:
        out.setdefault(f.number, []).append(f)
    return out


def message(buf: Bytes, field: Field) -> dict[int, list[Field]]:
    """The fields of an embedded message (a ``LEN`` field), grouped by number."""
    return group(iter_fields(buf, field.value, field.value + field.length))


def to_signed(value: int) -> int:
    """A signed ``int32``/``int64`` varint (negative values are 10-byte two's complement)."""
    value &= 0xFFFFFFFFFFFFFFFF
    return value - (1 << 64) if value >= 1 << 63 else value


# --- encoding (used to write synthetic vendor dumps for tests, demos and benchmarks) ---


def encode_varint(value: int) -> bytes:
    """Encode a non-negative integer (negative int32/int64 as 10-byte two's complement)."""
    value &= 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def encode_int(number: int, value: int) -> bytes:
    return encode_varint(number << 3 | VARINT) + encode_varint(value)


def encode_bytes(number: int, payload: bytes | str) -> bytes:
    data = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else payload
    return encode_varint(number << 3 | LEN) + encode_varint(len(data)) + data


def encode_packed(number: int, values: list[int] | tuple[int, ...]) -> bytes:
    return encode_bytes(number, b"".join(encode_varint(v) for v in values))
