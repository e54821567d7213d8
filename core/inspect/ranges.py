"""Does a tensor fit a target dtype?  Range checks that need no hardware.

:func:`range_check` flags a tensor whose values reach or pass what a target dtype can
represent (float16's 65504, an int8 grid after scale/zero point), or that holds NaN/Inf,
and counts the non-zero values a float type flushes to zero.  The overflow facts of a
row (:mod:`~dumpscope.core.inspect.overflow`) and the diagnosis checks both use it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import ml_dtypes
import numpy as np


@dataclass(frozen=True)
class RangeFinding:
    """How a tensor fits a target dtype.  ``flagged`` when anything is at or past the
    representable range, or not finite."""

    target_dtype: str
    low: float
    high: float
    size: int
    out_of_range: int
    nan: int
    inf: int
    max_abs: float | None
    underflow: int = 0
    """Non-zero values that flush to zero in the target float type (informational)."""
    first_index: int | None = None
    """Flat index of the first out-of-range or non-finite element."""

    @property
    def flagged(self) -> bool:
        return bool(self.out_of_range or self.nan or self.inf)

    @property
    def message(self) -> str:
        if not self.flagged:
            return f"fits {self.target_dtype} [{self.low:g}, {self.high:g}]"
        parts = []
        if self.out_of_range:
            parts.append(
                f"{self.out_of_range} of {self.size} values reach or pass the {self.target_dtype} range "
                f"[{self.low:g}, {self.high:g}] (max |x| {self.max_abs:g})"
            )
        if self.nan:
            parts.append(f"{self.nan} NaN")
        if self.inf:
            parts.append(f"{self.inf} Inf")
        return "; ".join(parts)


_CHUNK = 1 << 20


def dtype_range(target_dtype: str, scale: float | None = None, zero_point: int = 0) -> tuple[float, float, float]:
    """``(low, high, tiny)`` real-valued limits of ``target_dtype``; for integer types with a
    ``scale`` the limits are the dequantised ends ``(q_min - zp) * scale`` and ``(q_max - zp) * scale``.
    ``tiny`` is the smallest positive subnormal of a float type (0 for integers)."""
    try:
        dt = np.dtype(getattr(ml_dtypes, target_dtype, None) or target_dtype)
    except TypeError as exc:
        raise ValueError(f"unknown target dtype {target_dtype!r}") from exc
    if dt.kind == "f" or dt.name in _ML_FLOATS:
        info = ml_dtypes.finfo(dt) if dt.name in _ML_FLOATS else np.finfo(dt)
        return -float(info.max), float(info.max), float(info.smallest_subnormal)
    if dt.kind in "iu":
        info_i = np.iinfo(dt)
        s = 1.0 if scale is None else float(scale)
        if s <= 0 or not math.isfinite(s):
            raise ValueError(f"scale must be a positive finite number, got {scale}")
        lo, hi = (info_i.min - zero_point) * s, (info_i.max - zero_point) * s
        return lo, hi, 0.0
    raise ValueError(f"no numeric range for dtype {dt.name}")


_ML_FLOATS = {"bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"}


def range_check(
    array: np.ndarray, target_dtype: str, scale: float | None = None, zero_point: int = 0
) -> RangeFinding:
    """Does ``array`` fit ``target_dtype`` (``float16``, ``bfloat16``, ``int8``...)?

    Streams over the data in chunks, so a memory-mapped tensor is read once and
    memory stays bounded.  Values *equal* to the limit count too: fp16's 65504 is the
    saturation value a clamped overflow leaves behind.
    """
    low, high, tiny = dtype_range(target_dtype, scale, zero_point)
    flat = np.asarray(array).reshape(-1)
    if flat.dtype.kind == "c":
        raise ValueError("range checks need real values, got a complex tensor")
    out = nan = inf = under = 0
    max_abs: float | None = None
    first: int | None = None
    for start in range(0, flat.size, _CHUNK):
        chunk = flat[start : start + _CHUNK].astype(np.float64, copy=False)
        isnan = np.isnan(chunk)
        isinf = np.isinf(chunk)
        finite = ~(isnan | isinf)
        beyond = finite & ((chunk >= high) | (chunk <= low))
        nan += int(isnan.sum())
        inf += int(isinf.sum())
        out += int(beyond.sum())
        if tiny:
            a = np.abs(chunk)
            under += int((finite & (a > 0) & (a < tiny)).sum())
        if finite.any():
            m = float(np.abs(chunk[finite]).max())
            max_abs = m if max_abs is None else max(max_abs, m)
        if first is None:
            bad = np.flatnonzero(beyond | isnan | isinf)
            if bad.size:
                first = start + int(bad[0])
    return RangeFinding(target_dtype, low, high, int(flat.size), out, nan, inf, max_abs, under, first)
