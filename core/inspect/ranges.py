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
        parts = [self._beyond()] if self.out_of_range else []
        parts += [f"{n} {label}" for n, label in ((self.nan, "NaN"), (self.inf, "Inf")) if n]
        return "; ".join(parts)

    def _beyond(self) -> str:
        return (
            f"{self.out_of_range} of {self.size} values reach or pass the {self.target_dtype} range "
            f"[{self.low:g}, {self.high:g}] (max |x| {self.max_abs:g})"
        )


_CHUNK = 1 << 20


def dtype_range(
    target_dtype: str, scale: float | None = None, zero_point: int = 0
) -> tuple[float, float, float]:
    """``(low, high, tiny)`` real-valued limits of ``target_dtype``; for integer types with a
    ``scale`` the limits are the dequantised ends ``(q_min - zp) * scale`` and ``(q_max - zp) * scale``.
    ``tiny`` is the smallest positive subnormal of a float type (0 for integers)."""
    dt = _dtype(target_dtype)
    if dt.kind == "f" or dt.name in _ML_FLOATS:
        return _float_range(dt)
    if dt.kind in "iu":
        return _int_range(dt, scale, zero_point)
    raise ValueError(f"no numeric range for dtype {dt.name}")


def _dtype(name: str) -> np.dtype:
    """The numpy dtype of ``name`` (``ml_dtypes`` names included); ValueError for an unknown one."""
    try:
        return np.dtype(getattr(ml_dtypes, name, None) or name)
    except TypeError as exc:
        raise ValueError(f"unknown target dtype {name!r}") from exc


def _float_range(dt: np.dtype) -> tuple[float, float, float]:
    """A float type's ``(-max, max, smallest subnormal)``."""
    info = ml_dtypes.finfo(dt) if dt.name in _ML_FLOATS else np.finfo(dt)
    return -float(info.max), float(info.max), float(info.smallest_subnormal)


def _int_range(dt: np.dtype, scale: float | None, zero_point: int) -> tuple[float, float, float]:
    """An integer type's dequantised ends (``scale`` 1 when None) and no subnormal."""
    info = np.iinfo(dt)
    s = 1.0 if scale is None else float(scale)
    if s <= 0 or not math.isfinite(s):
        raise ValueError(f"scale must be a positive finite number, got {scale}")
    return (info.min - zero_point) * s, (info.max - zero_point) * s, 0.0


_ML_FLOATS = {
    "bfloat16",
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e4m3fnuz",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
}


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
    tally = _Tally(low, high, tiny)
    for start in range(0, flat.size, _CHUNK):
        tally.add(flat[start : start + _CHUNK].astype(np.float64, copy=False), start)
    return RangeFinding(
        target_dtype,
        low,
        high,
        int(flat.size),
        tally.out,
        tally.nan,
        tally.inf,
        tally.max_abs,
        tally.under,
        tally.first,
    )


@dataclass
class _Tally:
    """The counts :func:`range_check` accumulates over the chunks of one tensor."""

    low: float
    high: float
    tiny: float
    out: int = 0
    nan: int = 0
    inf: int = 0
    under: int = 0
    max_abs: float | None = None
    first: int | None = None

    def add(self, chunk: np.ndarray, start: int) -> None:
        """Count one float64 chunk that starts at flat index ``start``."""
        isnan = np.isnan(chunk)
        isinf = np.isinf(chunk)
        finite = ~(isnan | isinf)
        beyond = finite & ((chunk >= self.high) | (chunk <= self.low))
        self.nan += int(isnan.sum())
        self.inf += int(isinf.sum())
        self.out += int(beyond.sum())
        if self.tiny:
            a = np.abs(chunk)
            self.under += int((finite & (a > 0) & (a < self.tiny)).sum())
        self._largest(chunk[finite])
        self._first_bad(start, beyond, isnan, isinf)

    def _largest(self, finite: np.ndarray) -> None:
        """Keep the largest |x| of the finite values seen."""
        if not finite.size:
            return
        m = float(np.abs(finite).max())
        self.max_abs = m if self.max_abs is None else max(self.max_abs, m)

    def _first_bad(self, start: int, beyond: np.ndarray, isnan: np.ndarray, isinf: np.ndarray) -> None:
        """Keep the flat index of the first out-of-range or non-finite value."""
        if self.first is not None:
            return
        bad = np.flatnonzero(beyond | isnan | isinf)
        if bad.size:
            self.first = start + int(bad[0])
