"""Ascend dtype codes and device-format conversions.

An Ascend op stores its tensors in a *device format* (NC1HWC0, FRACTAL_NZ...) whose
channels or matrix edges are padded to blocks of ``C0``/16 lanes.  Before a target
tensor can be compared with a golden one it is converted back to the framework
layout given by the dump's ``original_shape``; the padding lanes may hold anything
and are sliced away, never averaged in.

Codes follow CANN's ``toolkit.dumpdata``.
"""

from __future__ import annotations

import math

import numpy as np


class LayoutError(ValueError):
    """A tensor's dtype or device format cannot be turned into a framework array."""


DTYPE_NAMES: dict[int, str] = {
    0: "UNDEFINED", 1: "FLOAT", 2: "FLOAT16", 3: "INT8", 4: "UINT8", 5: "INT16", 6: "UINT16",
    7: "INT32", 8: "INT64", 9: "UINT32", 10: "UINT64", 11: "BOOL", 12: "DOUBLE", 13: "STRING",
    14: "DUAL_SUB_INT8", 15: "DUAL_SUB_UINT8", 16: "COMPLEX64", 17: "COMPLEX128", 18: "QINT8",
    19: "QINT16", 20: "QINT32", 21: "QUINT8", 22: "QUINT16", 23: "RESOURCE", 24: "STRING_REF",
    25: "DUAL", 26: "VARIANT", 27: "BF16", 28: "INT4", 29: "UINT1", 30: "INT2", 31: "UINT2",
    32: "COMPLEX32", 33: "HIFLOAT8", 34: "FLOAT8_E5M2", 35: "FLOAT8_E4M3FN", 36: "FLOAT8_E8M0",
    37: "FLOAT6_E3M2", 38: "FLOAT6_E2M3", 39: "FLOAT4_E2M1", 40: "FLOAT4_E1M2",
}  # fmt: skip

#: Codes whose elements numpy (with ml_dtypes) holds one per byte-aligned slot.
_NUMPY_DTYPES: dict[int, np.dtype] = {
    1: np.dtype(np.float32), 2: np.dtype(np.float16), 3: np.dtype(np.int8), 4: np.dtype(np.uint8),
    5: np.dtype(np.int16), 6: np.dtype(np.uint16), 7: np.dtype(np.int32), 8: np.dtype(np.int64),
    9: np.dtype(np.uint32), 10: np.dtype(np.uint64), 11: np.dtype(np.bool_), 12: np.dtype(np.float64),
    16: np.dtype(np.complex64), 17: np.dtype(np.complex128),
    # Quantised integer types are plain integers on the wire.
    18: np.dtype(np.int8), 19: np.dtype(np.int16), 20: np.dtype(np.int32), 21: np.dtype(np.uint8),
    22: np.dtype(np.uint16),
}  # fmt: skip
#: Codes whose numpy type comes from ml_dtypes (imported at the first such tensor: ~6 ms that a
#: compare of other formats, which only sniffs for Ascend dumps, does not pay before its fork).
_ML_DTYPES = {27: "bfloat16", 34: "float8_e5m2", 35: "float8_e4m3fn", 36: "float8_e8m0fnu"}

FORMAT_NAMES: dict[int, str] = {
    0: "NCHW", 1: "NHWC", 2: "ND", 3: "NC1HWC0", 4: "FRACTAL_Z", 5: "NC1C0HWPAD", 6: "NHWC1C0",
    7: "FSR_NCHW", 8: "FRACTAL_DECONV", 9: "C1HWNC0", 10: "FRACTAL_DECONV_TRANSPOSE",
    11: "FRACTAL_DECONV_SP_STRIDE_TRANS", 12: "NC1HWC0_C04", 13: "FRACTAL_Z_C04", 14: "CHWN",
    15: "FRACTAL_DECONV_SP_STRIDE8_TRANS", 16: "HWCN", 17: "NC1KHKWHWC0", 18: "BN_WEIGHT",
    19: "FILTER_HWCK", 20: "HASHTABLE_LOOKUP_LOOKUPS", 21: "HASHTABLE_LOOKUP_KEYS",
    22: "HASHTABLE_LOOKUP_VALUE", 23: "HASHTABLE_LOOKUP_OUTPUT", 24: "HASHTABLE_LOOKUP_HITS",
    25: "C1HWNCoC0", 26: "MD", 27: "NDHWC", 28: "FRACTAL_ZZ", 29: "FRACTAL_NZ", 30: "NCDHW",
    31: "DHWCN", 32: "NDC1HWC0", 33: "FRACTAL_Z_3D", 34: "CN", 35: "NC", 36: "DHWNC",
    37: "FRACTAL_Z_3D_TRANSPOSE", 38: "FRACTAL_ZN_LSTM", 39: "FRACTAL_Z_G", 40: "RESERVED",
    41: "ALL", 42: "NULL", 43: "ND_RNN_BIAS", 44: "FRACTAL_ZN_RNN", 45: "YUV", 46: "YUV_A",
    47: "NCL", 48: "FRACTAL_Z_WINO", 49: "C1HWC0", 255: "MAX",
}  # fmt: skip

#: Formats that are a plain permutation of named axes (no blocking, no padding).
_PLAIN_AXES = {
    "NCHW", "NHWC", "HWCN", "CHWN", "NCDHW", "NDHWC", "DHWCN", "DHWNC", "NC", "CN", "NCL",
}  # fmt: skip
_FLAT_FORMATS = {"ND", "MD", "NULL", "RESERVED", "ALL", "ND_RNN_BIAS"}
#: Formats without blocks or padding: their data only needs a transpose or a reshape.
_UNBLOCKED = _PLAIN_AXES | _FLAT_FORMATS


def dtype_name(code: int) -> str:
    return DTYPE_NAMES.get(code, f"code {code}")


def format_name(code: int) -> str:
    return FORMAT_NAMES.get(code, f"code {code}")


def numpy_dtype(code: int) -> np.dtype:
    """The numpy dtype of a DataType code, or :class:`LayoutError` saying why not."""
    if code in _ML_DTYPES:
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, _ML_DTYPES[code]))
    try:
        return _NUMPY_DTYPES[code]
    except KeyError:
        raise LayoutError(
            f"data type {dtype_name(code)} is not supported (sub-byte, string or vendor-specific "
            "encoding); the tensor is listed but not compared"
        ) from None


def converted_shape(fmt: int, shape: tuple[int, ...], original_shape: tuple[int, ...]) -> tuple[int, ...]:
    """The shape :func:`to_original` returns, known before any data is read."""
    name = format_name(fmt)
    if not original_shape or name not in KNOWN_FORMATS:
        return shape
    if name in _CONVERTERS or math.prod(original_shape) == math.prod(shape):
        return original_shape
    return shape


def to_original(
    flat: np.ndarray,
    fmt: int,
    shape: tuple[int, ...],
    original_shape: tuple[int, ...],
    origin_format: str | None = None,
) -> np.ndarray:
    """Turn the device-format elements ``flat`` into an array of ``original_shape``.

    ``origin_format`` (``NCHW``, ``NHWC``...) is the framework layout when known (from
    the dump's OriginalOp or the graph JSON); without it 4-D layouts are inferred from
    which original axes match the device's H and W.
    """
    name = format_name(fmt)
    if math.prod(shape) != flat.size:
        raise LayoutError(f"{flat.size} elements do not fill the device shape {list(shape)}")
    device = flat.reshape(shape)
    if name in _CONVERTERS:
        return _unblock(name, device, original_shape, origin_format)
    if name in _UNBLOCKED:
        return _rearrange(name, device, original_shape, origin_format)
    raise LayoutError(
        f"device format {name} is not converted by dumpscope yet; shape {list(shape)} "
        f"cannot be brought to the original shape {list(original_shape)}"
    )


def _unblock(
    name: str, device: np.ndarray, original_shape: tuple[int, ...], origin_format: str | None
) -> np.ndarray:
    """A blocked, padded format (:data:`_CONVERTERS`) back to exactly ``original_shape``."""
    if not original_shape:
        raise LayoutError(f"device format {name} without an original_shape cannot be converted")
    try:
        out = _CONVERTERS[name](device, original_shape, origin_format)
    except (IndexError, ValueError) as exc:  # a header whose shapes do not fit each other
        raise LayoutError(
            f"{name} data of shape {list(device.shape)} cannot become {list(original_shape)}: {exc}"
        ) from None
    if out.shape != tuple(original_shape):
        raise LayoutError(f"{name} -> {list(original_shape)} gave {list(out.shape)}")
    return out


def _rearrange(
    name: str, device: np.ndarray, original_shape: tuple[int, ...], origin_format: str | None
) -> np.ndarray:
    """A plain (unblocked) format: transposed to the origin layout when that is a permutation of
    the device's axes, else reshaped to ``original_shape`` when the element counts agree."""
    if origin_format is not None and _is_permutation(name, origin_format):
        return device.transpose([name.index(a) for a in origin_format])
    if tuple(original_shape) in ((), device.shape):  # none given, or the device's own
        return device
    if math.prod(original_shape) == device.size:
        return device.reshape(original_shape)
    raise LayoutError(
        f"{name} tensor of shape {list(device.shape)} does not match its original shape "
        f"{list(original_shape)}"
    )


def _is_permutation(name: str, origin_format: str) -> bool:
    """Two different plain layouts of the same axes (NHWC on the device, NCHW in the framework)."""
    both_plain = {name, origin_format} <= _PLAIN_AXES
    return both_plain and name != origin_format and sorted(name) == sorted(origin_format)


def _nc1hwc0(device: np.ndarray, orig: tuple[int, ...], origin_format: str | None) -> np.ndarray:
    """(N, C1, H, W, C0) -> NCHW or NHWC, dropping the padded channels."""
    if device.ndim != 5:
        raise LayoutError(f"NC1HWC0 data must be 5-D, got shape {list(device.shape)}")
    n, c1, h, w, c0 = device.shape
    layout = _four_d_layout(orig, h, w, c1 * c0, origin_format)
    nchw = device.transpose(0, 1, 4, 2, 3).reshape(n, c1 * c0, h, w)
    if layout == "NCHW":
        c = orig[1] if len(orig) == 4 else orig[-1]
        out = nchw[:, :c]
    else:
        out = nchw[:, : orig[3]].transpose(0, 2, 3, 1)
    return out.reshape(orig)


#: 4-D layout -> the positions of its H, W and C axes.
_HWC_AXES = {"NCHW": (2, 3, 1), "NHWC": (1, 2, 3)}


def _four_d_layout(orig: tuple[int, ...], h: int, w: int, padded_c: int, hint: str | None) -> str:
    """The framework layout of NC1HWC0 data: the hint when it names one, else the layout whose H
    and W match the device's (and whose C fits in the padded channels)."""
    if len(orig) != 4:
        return _vector_layout(orig, h, w, padded_c)
    if hint in _HWC_AXES:
        return hint
    return _layout_by_axes(orig, h, w, padded_c)


def _layout_by_axes(orig: tuple[int, ...], h: int, w: int, padded_c: int) -> str:
    """The first 4-D layout whose H and W axes are the device's and whose C fits the padded channels."""
    for layout, (hi, wi, ci) in _HWC_AXES.items():
        if (orig[hi], orig[wi]) == (h, w) and orig[ci] <= padded_c:
            return layout
    raise LayoutError(f"original shape {list(orig)} fits neither NCHW nor NHWC for H={h}, W={w}")


def _vector_layout(orig: tuple[int, ...], h: int, w: int, padded_c: int) -> str:
    """(N, C) or (C,) vectors stored with H = W = 1 read as NCHW."""
    if math.prod(orig) <= padded_c * h * w:
        return "NCHW"
    raise LayoutError(f"cannot place original shape {list(orig)} in NC1HWC0 data")


def _fractal_nz(device: np.ndarray, orig: tuple[int, ...], _hint: str | None) -> np.ndarray:
    """(..., W1, H1, H0, W0) -> (..., H, W): 16x16 (or 16xC0) fractals in column-major blocks."""
    if device.ndim < 4:
        raise LayoutError(f"FRACTAL_NZ data must be at least 4-D, got shape {list(device.shape)}")
    *batch, w1, h1, h0, w0 = device.shape
    rows, cols = (1, *orig)[-2:]  # a vector is one row
    if rows > h1 * h0 or cols > w1 * w0:
        raise LayoutError(f"original shape {list(orig)} is larger than FRACTAL_NZ {list(device.shape)}")
    b = math.prod(batch)
    full = device.reshape(b, w1, h1, h0, w0).transpose(0, 2, 3, 1, 4).reshape(b, h1 * h0, w1 * w0)
    return full[:, :rows, :cols].reshape(orig)


def _fractal_z(device: np.ndarray, orig: tuple[int, ...], hint: str | None) -> np.ndarray:
    """(C1*H*W, N1, N0, C0) -> NCHW (or the origin layout): convolution weights."""
    if len(orig) != 4:
        raise LayoutError(f"FRACTAL_Z conversion needs a 4-D original shape, got {list(orig)}")
    layout = hint if hint in ("NCHW", "NHWC", "HWCN") else "NCHW"
    n, c, h, w = (orig[layout.index(a)] for a in "NCHW")
    c1 = _fractal_z_c1(device, orig, layout, (n, c, h, w))
    _, n1, n0, c0 = device.shape
    full = device.reshape(c1, h, w, n1, n0, c0).transpose(3, 4, 0, 5, 1, 2).reshape(n1 * n0, c1 * c0, h, w)
    nchw = full[:n, :c]
    return nchw.transpose(["NCHW".index(a) for a in layout])


def _fractal_z_c1(
    device: np.ndarray, orig: tuple[int, ...], layout: str, nchw: tuple[int, int, int, int]
) -> int:
    """The channel blocks C1 of FRACTAL_Z data, checked to hold the weights ``nchw``."""
    if device.ndim != 4:
        raise LayoutError(f"FRACTAL_Z data must be 4-D, got shape {list(device.shape)}")
    n, c, h, w = nchw
    _, n1, n0, c0 = device.shape
    c1 = device.shape[0] // max(h * w, 1)  # H*W = 0 holds no block (the check below says so)
    if c1 * h * w != device.shape[0] or c1 * c0 < c or n1 * n0 < n:
        raise LayoutError(f"FRACTAL_Z shape {list(device.shape)} does not hold {layout} {list(orig)}")
    return c1


def _ndc1hwc0(device: np.ndarray, orig: tuple[int, ...], hint: str | None) -> np.ndarray:
    """(N, D, C1, H, W, C0) -> NCDHW (or NDHWC when that is the origin layout)."""
    if device.ndim != 6 or len(orig) != 5:
        raise LayoutError(
            f"NDC1HWC0 needs 6-D data and a 5-D original shape, got {list(device.shape)} and {list(orig)}"
        )
    n, d, c1, h, w, c0 = device.shape
    ncdhw = device.transpose(0, 2, 5, 1, 3, 4).reshape(n, c1 * c0, d, h, w)
    if _is_ndhwc(orig, d, h, w, hint):
        return ncdhw[:, : orig[4]].transpose(0, 2, 3, 4, 1)
    return ncdhw[:, : orig[1]]


def _is_ndhwc(orig: tuple[int, ...], d: int, h: int, w: int, hint: str | None) -> bool:
    """NDHWC when the hint says so; without a hint, when original axes 1..3 are the device's D, H,
    W (and axis 4, the channels, is not W)."""
    if hint is not None:
        return hint == "NDHWC"
    return tuple(orig[1:4]) == (d, h, w) and orig[4] != w


_CONVERTERS = {
    "NC1HWC0": _nc1hwc0,
    "NC1HWC0_C04": _nc1hwc0,
    "FRACTAL_NZ": _fractal_nz,
    "FRACTAL_Z": _fractal_z,
    "NDC1HWC0": _ndc1hwc0,
}

#: Every format :func:`to_original` can handle.
KNOWN_FORMATS = frozenset(_CONVERTERS) | _PLAIN_AXES | _FLAT_FORMATS
