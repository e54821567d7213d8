"""Write Ascend raw dump files without CANN: synthetic dumps for tests, demos and benchmarks.

The inverse of :func:`~dumpscope.core.formats.ascend_dump.open` (same layout as the device):
one file per op, layout v2 (header + raw chunks) or v1 (inline data), with the field numbers
the reader decodes (:data:`~dumpscope.core.formats.ascend_dump.ROLE_FIELDS`).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dumpscope.core.atomic import atomic_binary
from dumpscope.core.formats import protobuf as pb
from dumpscope.core.formats.ascend_dump import ROLE_FIELDS


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
    """One OpOutput/OpInput message, with the field numbers the reader decodes (:data:`ROLE_FIELDS`)."""
    nums = ROLE_FIELDS[role]
    raw = np.ascontiguousarray(t.data).tobytes()
    msg = pb.encode_int(1, t.dtype_code) + pb.encode_int(2, t.format_code)
    msg += pb.encode_bytes(3, pb.encode_packed(1, t.data.shape))
    if nums.original_op is not None and t.origin_name is not None:
        msg += pb.encode_bytes(nums.original_op, _encode_origin(t.origin_name, t))
    msg += (pb.encode_bytes(nums.data, raw) if inline else b"") + pb.encode_int(nums.size, len(raw))
    if t.original_shape and nums.original_shape is not None:
        msg += pb.encode_bytes(nums.original_shape, pb.encode_packed(1, t.original_shape))
    return msg


def _encode_origin(name: str, t: RawTensor) -> bytes:
    """The OriginalOp message of an output: framework op name (``name``), output index, format."""
    op = pb.encode_bytes(1, name) + pb.encode_int(2, t.origin_output_index)
    if t.origin_format_code is not None:
        op += pb.encode_int(4, t.origin_format_code)
    return op


def write_dump(
    path: Path,
    op_name: str,
    outputs: list[RawTensor],
    inputs: Sequence[RawTensor] = (),
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
    with atomic_binary(path) as fh:
        if inline:
            fh.write(header)
        else:
            fh.write(struct.pack("<Q", len(header)))
            fh.write(header)
            for t in [*inputs, *outputs]:
                fh.write(np.ascontiguousarray(t.data).tobytes())
    return path
