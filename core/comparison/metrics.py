"""The numeric kernels: every per-pair metric, defined once, here.

Conventions (as msaccucmp): ``x`` is the *target* ("my output"), ``y`` the *golden*
("ground truth"); both are flattened.  Formulas follow msaccucmp's algorithm modules and
differ from msaccucmp only where it is wrong:

* everything accumulates in float64 (msaccucmp casts to float32 first);
* NaN/Inf never silently pass: they are counted per side, metrics are computed over
  the positions where both sides are finite, and a position that is finite on one
  side only is a *non-finite mismatch* (always unhealthy, see ``judge``);
* an all-zero golden with a non-zero target is a mismatch: relative Euclidean
  distance is ``inf`` (msaccucmp reports 0) and cosine is undefined (null);
* a tensor of one element is compared by value: cosine is null, not "1".

Data is streamed in chunks, so memory is bounded by the chunk and not by the tensor;
inputs are read once (plus a second pass for the KL divergence, which needs the global
min/max, over memory only when a tensor spans several chunks).  The compiled kernel
(``_kernel.c``) does a pair in one call: each side read in place in its own type and
converted chunk by chunk in C, a vectorised moments pass, then a fused vectorised KL pass
(KL from sum a log(a/b), sum a and sum (b - a), see :func:`_kl_value`).  When it is not
built, the same arithmetic runs in numpy with float64 sums through BLAS.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields

import numpy as np

from dumpscope.core.comparison.verdict import PairFlag, render_notes
from dumpscope.core.vocabulary import METRICS, MSACCUCMP_CSV_NAMES, metrics_in

#: float64 epsilon used by msaccucmp to ignore golden values near zero in relative errors.
REL_EPS = float(np.finfo(np.float64).eps)
#: msaccucmp's floor for the min-max normalised KL distributions.
KL_FLOOR = float(np.finfo(np.float32).eps)
#: Elements per chunk: the work arrays of a chunk stay in a 2 MB L2 cache (measured:
#: 2^15 beats 2^18 by 1.5x, because the KL pass re-reads what the first pass wrote).
CHUNK = 1 << 15

try:  # the compiled kernel (core/comparison/_kernel.c) is optional; numpy does the same work slower
    from dumpscope.core.comparison import _kernel
except ImportError:  # pragma: no cover - depends on the build
    _kernel = None  # type: ignore[assignment]  # no C compiler at install: the numpy path runs

#: msaccucmp's ``StandardDeviation`` column, between KullbackLeiblerDivergence and
#: MeanAbsoluteError, is split into the per-side mean/std of :data:`STAT_COLUMNS`.
__all__ = ["MSACCUCMP_CSV_NAMES", "PairMetrics", "compare_arrays"]
MSACCUCMP_METRICS: tuple[str, ...] = metrics_in("msaccucmp")
EXTRA_METRICS: tuple[str, ...] = metrics_in("extra")
COUNT_COLUMNS: tuple[str, ...] = (
    "nan_golden",
    "nan_target",
    "inf_golden",
    "inf_target",
    "nonfinite_mismatch",
)
STAT_COLUMNS: tuple[str, ...] = metrics_in("stat")
#: Every float column of the frame, in the registry's order (:data:`vocabulary.METRICS`).
FLOAT_COLUMNS: tuple[str, ...] = tuple(m.name for m in METRICS)


@dataclass
class PairMetrics:
    """Every metric of one golden/target pair.  ``None`` = not defined for this pair."""

    cosine_similarity: float | None = None
    max_absolute_error: float | None = None
    accumulated_relative_error: float | None = None
    relative_euclidean_distance: float | None = None
    kullback_leibler_divergence: float | None = None
    mean_absolute_error: float | None = None
    root_mean_square_error: float | None = None
    max_relative_error: float | None = None
    mean_relative_error: float | None = None
    sqnr_db: float | None = None
    within_tolerance: float | None = None
    mse: float | None = None
    """Mean squared error, Σ(x − y)²/N (SigmaStar's "MSE")."""
    sgs_rmse: float | None = None
    """SigmaStar's "RMSE": the relative L1 error Σ|x − y| / Σ|y| (not √MSE)."""
    slice_cosine: float | None = None
    """Lowest cosine of a channel slice (set by the pipeline, see :mod:`slices`)."""
    slice_relative_distance: float | None = None
    """Largest relative distance of a channel slice."""
    min_golden: float | None = None
    max_golden: float | None = None
    mean_golden: float | None = None
    std_golden: float | None = None
    min_target: float | None = None
    max_target: float | None = None
    mean_target: float | None = None
    std_target: float | None = None
    nan_golden: int = 0
    nan_target: int = 0
    inf_golden: int = 0
    inf_target: int = 0
    nonfinite_mismatch: int = 0
    """Positions finite on one side only, or Inf of opposite signs."""
    compared: int = 0
    """Positions where both sides are finite (the ones the metrics cover)."""
    size: int = 0
    """Elements of the pair (each side)."""
    flags: PairFlag = PairFlag.NONE
    """What the kernel found beyond the numbers (all-zero golden, one element...)."""
    golden_energy: np.ndarray | None = field(default=None, repr=False, compare=False)
    """The golden's sum of squares per channel slice (its finite values, float64), when
    :func:`compare_arrays` was asked for it (``slices``) and the kernel is built: the worst slice's
    first test (:func:`~.slices.slice_metrics`) without a pass of its own.  Not a column."""

    @property
    def notes(self) -> tuple[str, ...]:
        """The flags as the sentences a user reads (rendered in :mod:`verdict`)."""
        return render_notes(self)

    def as_dict(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


_buffers = threading.local()


def _buffer(name: str, size: int, dtype: np.dtype | type = np.float64) -> np.ndarray:
    """A work array of at least ``size`` elements, reused by this thread from call to call.

    Fresh arrays of this size are mapped and unmapped on every call, and the page faults
    of two worker threads contend for the process's memory-map lock: that alone kept two
    threads from going faster than one.
    """
    key = (name, np.dtype(dtype).str)
    buf = getattr(_buffers, "cache", None)
    if buf is None:
        buf = _buffers.cache = {}
    arr = buf.get(key)
    if arr is None or arr.size < size:
        arr = buf[key] = np.empty(max(size, 1), dtype)
    return arr[:size]


_ADDED = (
    "n",
    "sxx",
    "syy",
    "sdd",
    "sad",
    "say",
    "sx",
    "sy",
    "srel",
    "sxy",
    "within",
    "nan_x",
    "nan_y",
    "inf_x",
    "inf_y",
    "mismatch",
    "matched_nonfinite",
)


class _Sums:
    """Running float64 sums over chunks (x = target, y = golden).

    Kept to plain attributes: with two worker threads the Python work around each kernel
    call holds the GIL, so it is what limits scaling (a heavier accumulator made two
    threads slower than one).
    """

    n: int
    sxx: float
    syy: float
    sdd: float
    sad: float
    say: float
    mad: float
    sx: float
    sy: float
    srel: float
    mrel: float
    within: int
    minx: float
    maxx: float
    miny: float
    maxy: float
    nan_x: int
    nan_y: int
    inf_x: int
    inf_y: int
    mismatch: int
    matched_nonfinite: int
    sxy: float

    def __init__(self) -> None:
        self.n = self.within = self.mismatch = self.matched_nonfinite = 0
        self.nan_x = self.nan_y = self.inf_x = self.inf_y = 0
        self.sxx = self.syy = self.sdd = self.sad = self.say = self.sx = self.sy = self.sxy = 0.0
        self.mad = self.srel = self.mrel = 0.0
        self.minx = self.miny = math.inf
        self.maxx = self.maxy = -math.inf

    def merge(self, part: dict[str, float]) -> None:
        """Add the sums of one chunk computed by the compiled kernel.

        ``part`` is keyed by this class's field names; they are updated through ``__dict__``
        because the per-chunk Python work is what limits threads (see the class docstring).
        """
        d = self.__dict__
        if not d["n"] and not d["mismatch"]:
            d.update(part)  # the first chunk (most tensors have one)
            return
        for key in _ADDED:
            d[key] += part[key]
        d["mad"] = max(d["mad"], part["mad"])
        d["mrel"] = max(d["mrel"], part["mrel"])
        d["minx"] = min(d["minx"], part["minx"])
        d["maxx"] = max(d["maxx"], part["maxx"])
        d["miny"] = min(d["miny"], part["miny"])
        d["maxy"] = max(d["maxy"], part["maxy"])


class _Acc(_Sums):
    """The numpy path's sums, plus its work arrays.

    Element-wise work runs in the narrowest float type that holds the inputs exactly
    (float32 for float16/bfloat16/float32 data: a difference or ratio of two float32
    values is correctly rounded, a relative error of 6e-8 on that one term), and every
    *sum* runs in float64 through BLAS dot products, which is where precision is
    otherwise lost.  The work arrays are reused (see :func:`_buffer`).
    """

    def __init__(self, chunk: int, work: np.dtype) -> None:
        super().__init__()
        self.ones = _buffer("ones", chunk)
        self.ones.fill(1.0)
        self.x64, self.y64, self.w64 = _buffer("x64", chunk), _buffer("y64", chunk), _buffer("w64", chunk)
        self.a, self.b, self.c = (_buffer(n, chunk, work) for n in ("a", "b", "c"))
        self.mask = _buffer("mask", chunk, bool)

    def total(self, v: np.ndarray) -> float:
        """float64 sum of ``v`` (a BLAS dot with ones: 3x faster than ``v.sum()``)."""
        n = v.size
        if v.dtype != np.float64:
            np.copyto(self.w64[:n], v)
            v = self.w64[:n]
        return float(v @ self.ones[:n])

    def add(self, x: np.ndarray, y: np.ndarray, sxx: float, syy: float, rtol: float, atol: float) -> None:
        """Accumulate one chunk of finite values in the working type.

        ``self.x64[:n]``/``self.y64[:n]`` already hold the chunk in float64 and
        ``sxx``/``syy`` its squared norms (the caller needed them for the finiteness test).
        """
        n = x.size
        x64, y64, ones = self.x64[:n], self.y64[:n], self.ones[:n]
        a, b, c, mask = self.a[:n], self.b[:n], self.c[:n], self.mask[:n]
        self.n += n
        self.sxx += sxx
        self.syy += syy
        self.sx += float(x64 @ ones)
        self.sy += float(y64 @ ones)
        self.sxy += float(x64 @ y64)
        self.minx = min(self.minx, float(x.min()))
        self.maxx = max(self.maxx, float(x.max()))
        self.miny = min(self.miny, float(y.min()))
        self.maxy = max(self.maxy, float(y.max()))
        np.subtract(x, y, out=a)
        np.abs(a, out=a)  # a = |x - y|
        self.mad = max(self.mad, float(a.max()))
        d64 = self.w64[:n]
        np.copyto(d64, a)
        self.sdd += float(d64 @ d64)
        self.sad += float(d64 @ ones)
        np.abs(y, out=b)  # b = |y|
        self.say += self.total(b)
        np.multiply(b, rtol, out=c)
        np.add(c, atol, out=c)
        np.less_equal(a, c, out=mask)
        self.within += int(np.count_nonzero(mask))
        np.divide(a, b, out=c)  # c = |x - y| / |y|
        np.less_equal(b, REL_EPS, out=mask)
        if mask.any():  # golden values at zero are left out, as msaccucmp does
            c[mask] = 0.0
        self.mrel = max(self.mrel, float(c.max()))
        self.srel += self.total(c)

    def kl_sums(self, x: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
        """Partial sums of msaccucmp's min-max-normalised KL divergence for one chunk.

        Needs the global min/max, so it runs after :meth:`add` has seen every chunk.
        Computed in float64: the normalised values of two close tensors differ in the
        7th digit, which float32 would round away.  Returns (sum a, sum b, sum (b - a),
        sum a log(a/b)), as the compiled kernel (see :func:`_kl_value`).
        """
        n = x.size
        a, b, c = self.x64[:n], self.y64[:n], self.w64[:n]
        for v, p, lo, hi in ((x, a, self.minx, self.maxx), (y, b, self.miny, self.maxy)):
            np.copyto(p, v)
            if hi > lo:
                np.subtract(p, lo, out=p)
                np.multiply(p, 1.0 / (hi - lo), out=p)
            # else: a constant tensor is not normalised (msaccucmp)
            np.maximum(p, KL_FLOOR, out=p)
        ones = self.ones[:n]
        np.subtract(b, a, out=c)
        sx, sy, sd = float(a @ ones), float(b @ ones), float(c @ ones)
        np.negative(c, out=c)
        np.divide(c, b, out=c)
        np.log1p(c, out=c)  # log(p/q) = log1p((p - q)/q): exact where p and q are close
        return sx, sy, sd, float(a @ c)


def _work_type(a: np.ndarray) -> np.dtype:
    """float32 for inputs that float32 holds exactly, float64 otherwise."""
    exact = a.dtype.itemsize <= _FLOAT32_EXACT.get(a.dtype.kind, 0) or a.dtype.name == "bfloat16"
    return np.dtype(np.float32 if exact else np.float64)


#: dtype kind -> the largest item size float32 holds exactly (float16/32, bool, 8/16-bit integers).
_FLOAT32_EXACT = {"f": 4, "b": 1, "i": 2, "u": 2}


def _finite_part(x: np.ndarray, y: np.ndarray, acc: _Acc) -> tuple[np.ndarray, np.ndarray]:
    """Count NaN/Inf of a chunk and return the positions finite on both sides."""
    fx, fy = np.isfinite(x), np.isfinite(y)
    nx, ny = np.isnan(x), np.isnan(y)
    acc.nan_x += int(np.count_nonzero(nx))
    acc.nan_y += int(np.count_nonzero(ny))
    acc.inf_x += int(np.count_nonzero(~fx & ~nx))
    acc.inf_y += int(np.count_nonzero(~fy & ~ny))
    both_bad = ~fx & ~fy
    # Both non-finite and equal (same-signed Inf, or NaN on both) is agreement, not mismatch.
    same = both_bad & ((x == y) | (nx & ny))
    acc.matched_nonfinite += int(np.count_nonzero(same))
    acc.mismatch += int(np.count_nonzero(fx != fy)) + int(np.count_nonzero(both_bad & ~same))
    keep = fx & fy
    return x[keep], y[keep]


def compare_arrays(
    golden: np.ndarray,
    target: np.ndarray,
    *,
    rtol: float = 1e-3,
    atol: float = 1e-5,
    chunk: int = CHUNK,
    slices: tuple[int, int] | None = None,
) -> PairMetrics:
    """Every metric of a golden/target pair of equal size (any shapes; flattened).

    ``within_tolerance`` is the share of elements with ``|x - y| <= atol + rtol*|y|``
    (positions that are non-finite on both sides with the same value count as within).
    For best speed call it with BLAS limited to one thread (``pipeline`` does): OpenBLAS
    threads every dot product over 10k elements, which is slower here, not faster.
    ``slices=(channels, inner)``: the pair is laid out as ``(N, channels, inner)``; the golden's
    energy per channel comes back in :attr:`PairMetrics.golden_energy` (kernel only).
    """
    g = np.asarray(golden).reshape(-1)
    t = np.asarray(target).reshape(-1)
    if g.size != t.size:
        raise ValueError(f"sizes differ: golden {g.size}, target {t.size}")
    size = g.size
    if size == 0:
        return PairMetrics(flags=PairFlag.EMPTY | PairFlag.NOTHING_COMPARED)
    with np.errstate(all="ignore"):  # NaN/Inf are counted explicitly, never warned about
        return _compare(g, t, rtol, atol, chunk, slices)


def _compare(
    g: np.ndarray, t: np.ndarray, rtol: float, atol: float, chunk: int, slices: tuple[int, int] | None = None
) -> PairMetrics:
    work = np.promote_types(_work_type(g), _work_type(t))
    energy = None
    if _kernel is not None:
        energy = np.empty(slices[0]) if slices is not None else None
        acc, kl = _compare_native(g, t, rtol, atol, chunk, work, slices, energy)
    else:
        acc, kl = _compare_numpy(g, t, rtol, atol, chunk, work)
    m = _finished(acc, kl, g, t, chunk)
    m.golden_energy = energy
    return m


def _finished(acc: _Sums, kl: float | None, g: np.ndarray, t: np.ndarray, chunk: int = CHUNK) -> PairMetrics:
    """The metrics from a pair's sums; a side's statistics are measured again from its values where
    the sums cannot give them: some NaN/Inf (each side over its own finite values), or a side so flat
    around a large mean that its variance cancels in the sums (:func:`flat`)."""
    m = _finish(acc, g.size)
    if kl is not None:
        m.kullback_leibler_divergence = 0.0 if abs(kl) < REL_EPS else kl
    nonfinite = m.compared < g.size
    if nonfinite or (acc.n and flat(acc.sy, acc.syy, acc.n)):
        m.min_golden, m.max_golden, m.mean_golden, m.std_golden = _side(
            g, chunk, nonfinite, acc.miny, acc.maxy
        )
    if nonfinite or (acc.n and flat(acc.sx, acc.sxx, acc.n)):
        m.min_target, m.max_target, m.mean_target, m.std_target = _side(
            t, chunk, nonfinite, acc.minx, acc.maxx
        )
    return m


def _side(a: np.ndarray, chunk: int, nonfinite: bool, lo: float, hi: float) -> Stats:
    """:func:`side_stats` of a side whose extremes over every position are ``lo`` and ``hi`` when
    no position was left out (``nonfinite`` false): for a side of one non-zero value (a constant
    weight: most of an untrained model's), from that value alone, bit for bit what reading it
    again gives (:func:`constant_stats`)."""
    if not nonfinite and lo == hi and lo != 0.0 and math.isfinite(lo):
        return constant_stats(lo, a.size, chunk)
    return side_stats(a, chunk)


def constant_stats(value: float, n: int, chunk: int = CHUNK) -> Stats:
    """:func:`side_stats` of ``n`` copies of ``value``, without reading them: the same chunk sums
    (numpy's pairwise sum of a chunk depends only on its values; every whole chunk is the same),
    added in the same order.  (Zero is left to :func:`side_stats`: -0.0 and 0.0 compare equal
    but sum to different signs.)"""
    whole, rest = divmod(n, chunk)
    each = float(np.full(chunk, value, dtype=np.float64).sum()) if whole else 0.0
    s1 = 0.0
    for _ in range(whole):
        s1 += each
    if rest:
        s1 += float(np.full(rest, value, dtype=np.float64).sum())
    return value, value, s1 / n, 0.0


Stats = tuple[float | None, float | None, float | None, float | None]


def side_stats(a: np.ndarray, chunk: int = CHUNK) -> Stats:
    """(min, max, mean, std) of one side's finite values, in float64, chunk by chunk.

    A side's statistics describe its whole tensor, not only the positions finite on
    both sides (a golden's 199,558 must not read 48,591 because the target overflowed
    there).  All None when the side has no finite value.
    """
    n, s1, lo, hi = 0, 0.0, math.inf, -math.inf
    for part in _finite_values(a, chunk):
        n += part.size
        s1 += float(part.sum())
        lo, hi = min(lo, float(part.min())), max(hi, float(part.max()))
    if n == 0:
        return None, None, None, None
    mean = s1 / n
    if lo == hi:
        return lo, hi, mean, 0.0
    # two passes: the squares about the mean, which never cancel as E[x²] − E[x]² can
    c2 = 0.0
    for part in _finite_values(a, chunk):
        part -= mean
        c2 += float(part @ part)
    return lo, hi, mean, min(math.sqrt(c2 / n), (hi - lo) / 2.0)


def _finite_values(a: np.ndarray, chunk: int) -> Iterator[np.ndarray]:
    """The finite values of ``a``, chunk by chunk, as float64 copies."""
    for start in range(0, a.size, chunk):
        part = np.asarray(a[start : start + chunk], dtype=np.float64)
        part = part[np.isfinite(part)]
        if part.size:
            yield part


#: The variance, relative to the mean square, below which E[x²] − E[x]² has lost more than about a
#: millionth of its value to rounding (2.2e-16 / 2.2e-10): a side that flat around a large mean.
FLAT = 2.2e-10


def flat(s1: float | np.ndarray, s2: float | np.ndarray, n: float | np.ndarray) -> np.bool_ | np.ndarray:
    """Whether a side's moments (its sum ``s1``, sum of squares ``s2``, count ``n``: floats, or arrays of
    them, one per segment) cannot give its deviation (see :data:`FLAT`; so also where they are not finite)."""
    with np.errstate(all="ignore"):
        mean, mean_square = np.divide(s1, n), np.divide(s2, n)
        return np.logical_not(mean_square - mean * mean >= FLAT * mean_square)


def spread(mean: float, mean_square: float, lo: float, hi: float) -> float:
    """The standard deviation from a side's moments (``E[x²] − E[x]²``), within what its range allows.

    The moments cancel: a tensor of one value leaves ~1e-9 where the deviation is 0.  So a tensor
    whose smallest and largest values are equal has deviation 0, and none exceeds half its range
    (Popoviciu's inequality, σ ≤ (max − min) / 2).
    """
    if lo == hi:
        return 0.0
    return min(math.sqrt(max(mean_square - mean * mean, 0.0)), (hi - lo) / 2.0)


def _compare_native(
    g: np.ndarray,
    t: np.ndarray,
    rtol: float,
    atol: float,
    chunk: int,
    work: np.dtype,
    slices: tuple[int, int] | None = None,
    energy: np.ndarray | None = None,
) -> tuple[_Sums, float | None]:
    """The compiled kernel: one call, each side read in place and converted chunk by chunk
    in C (no numpy copy), one vectorised pass for the moments and one fused pass for KL (and,
    with ``slices``, the golden's energy per channel into ``energy``)."""
    assert _kernel is not None
    x, cx = _raw(t, work)
    y, cy = _raw(g, work)
    layout = (*slices, energy) if slices is not None else ()
    part = _kernel.pair(x, y, cx, cy, work == np.float64, g.size, rtol, atol, chunk, KL_FLOOR, *layout)
    kl = (part.pop("kl_t"), part.pop("kl_a"), part.pop("kl_b"), part.pop("kl_d"))
    acc = _Sums()
    acc.__dict__.update(part)
    return acc, _kl_value(*kl) if acc.n else None


#: The kernel's type codes (``_kernel.c``'s enum), by numpy type.
_CODES = {
    np.dtype(t): k
    for k, t in enumerate(
        (
            np.bool_,
            np.int8,
            np.uint8,
            np.int16,
            np.uint16,
            np.int32,
            np.uint32,
            np.int64,
            np.uint64,
            np.float16,
        )
    )
}
_CODE_F32, _CODE_F64, _CODE_BF16 = 11, 12, 10


def _raw(a: np.ndarray, work: np.dtype) -> tuple[np.ndarray, int]:
    """``a`` as contiguous bytes the kernel reads in place, and its type code; a type the kernel
    does not know (another byte order, a type numpy only) is cast by numpy first."""
    code = _CODES.get(a.dtype)
    if code is None:
        if a.dtype == np.float32:
            code = _CODE_F32
        elif a.dtype == np.float64:
            code = _CODE_F64
        elif a.dtype.name == "bfloat16":
            code, a = _CODE_BF16, a.view(np.uint16)
        else:
            a = a.astype(work)
            code = _CODE_F64 if work == np.float64 else _CODE_F32
    return np.ascontiguousarray(a).view(np.uint8), code


#: The kernel's sums in the order ``_kernel.moments_segments`` writes them, one row per tensor.
SEGMENT_FIELDS: tuple[str, ...] = (
    "n",
    "sxx",
    "syy",
    "sdd",
    "sad",
    "say",
    "mad",
    "sx",
    "sy",
    "srel",
    "mrel",
    "minx",
    "maxx",
    "miny",
    "maxy",
    "within",
    "nan_x",
    "nan_y",
    "inf_x",
    "inf_y",
    "mismatch",
    "matched_nonfinite",
    "sxy",
)
_SEGMENT_COUNTS = frozenset(
    ("n", "within", "nan_x", "nan_y", "inf_x", "inf_y", "mismatch", "matched_nonfinite")
)
#: Float types the segmented kernel takes (both sides of a batch in the same one).
SEGMENT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


#: Pairs of at most this many values go through the segmented kernel: below it the Python
#: around a per-pair kernel call costs more than the call; and a task of 512 such pairs
#: holds at most 1M values per side, so the batch's work arrays stay small (~32 MB).
SEGMENT_VALUES = 2048


def segmentable(golden: np.ndarray, target: np.ndarray, chunk: int = SEGMENT_VALUES) -> bool:
    """Whether a pair can go through :func:`compare_segments`: one float32 or float64 type on
    both sides (native byte order), 1 to ``chunk`` (at most :data:`CHUNK`) elements, and the
    compiled kernel built."""
    return (
        _kernel is not None
        and golden.dtype == target.dtype
        and golden.dtype in SEGMENT_DTYPES
        and golden.dtype.isnative
        and 0 < golden.size == target.size <= min(chunk, CHUNK)
    )


def compare_segments(
    golden: np.ndarray, target: np.ndarray, offsets: np.ndarray, *, rtol: float = 1e-3, atol: float = 1e-5
) -> list[PairMetrics]:
    """Every metric of many small pairs at once: ``golden``/``target`` are the pairs' flat
    data concatenated, ``offsets`` (int64, rising from 0 to their length) where each starts.

    Each pair must pass :func:`segmentable` (at most :data:`CHUNK` elements, so the per-pair
    path is a single kernel call).  The kernel runs the per-pair loops segment by segment,
    so the result is bit for bit ``[compare_arrays(g, t) for each pair]``: one C call per
    batch instead of a few Python calls per pair.
    """
    assert _kernel is not None
    with np.errstate(all="ignore"):  # NaN/Inf are counted explicitly, never warned about
        return _compare_segments(golden, target, offsets, rtol, atol)


def _compare_segments(
    golden: np.ndarray, target: np.ndarray, offsets: np.ndarray, rtol: float, atol: float
) -> list[PairMetrics]:
    sums, kls = segment_sums(golden, target, offsets, rtol, atol)
    bounds = offsets.tolist()
    return [
        _segment_metrics(_segment_sums(row), kl, golden[lo:hi], target[lo:hi])
        for row, kl, lo, hi in zip(sums.tolist(), kls, bounds, bounds[1:], strict=False)
    ]


def segment_sums(
    golden: np.ndarray, target: np.ndarray, offsets: np.ndarray, rtol: float = 1e-3, atol: float = 1e-5
) -> tuple[np.ndarray, list[float | None]]:
    """The kernel's sums of every segment (one row of :data:`SEGMENT_FIELDS` each) and each
    segment's KL divergence (None where nothing was compared); see :func:`compare_segments`."""
    assert _kernel is not None
    sums = np.empty((len(offsets) - 1, len(SEGMENT_FIELDS)))
    with np.errstate(all="ignore"):
        _kernel.moments_segments(target, golden, offsets, rtol, atol, sums)
        return sums, _segment_kl(golden, target, offsets, sums)


#: Columns of :data:`SEGMENT_FIELDS` by name.
_F = {name: k for k, name in enumerate(SEGMENT_FIELDS)}
#: The NaN/Inf counters: all zero in a clean segment.
_NONFINITE = [_F[k] for k in ("nan_x", "nan_y", "inf_x", "inf_y", "mismatch", "matched_nonfinite")]


def clean_segments(sums: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Which segments :func:`clean_columns` finishes: every position finite on both sides,
    at least two elements, neither side all zero (no :class:`PairFlag` at all) nor :func:`flat`."""
    n = sums[:, _F["n"]]
    return (
        (~sums[:, _NONFINITE].any(axis=1))
        & (n == sizes)
        & (sizes >= 2)
        & (sums[:, _F["sxx"]] > 0)
        & (sums[:, _F["syy"]] > 0)
        & ~flat(sums[:, _F["sx"]], sums[:, _F["sxx"]], n)
        & ~flat(sums[:, _F["sy"]], sums[:, _F["syy"]], n)
    )


def clean_columns(sums: np.ndarray, kls: list[float | None]) -> dict[str, list[object]]:
    """The metric columns (:data:`FLOAT_COLUMNS` and :data:`COUNT_COLUMNS`) of clean segments
    (see :func:`clean_segments`), vectorised; bit for bit what :func:`_finish` gives one by one
    (the same IEEE operations in the same order; ``log10``/``log`` and ``**`` per value by
    :mod:`math`, as there)."""
    c = {name: sums[:, k] for name, k in _F.items()}
    n = c["n"]
    out: dict[str, np.ndarray] = {
        "max_absolute_error": c["mad"],
        "mean_absolute_error": c["sad"] / n,
        "root_mean_square_error": np.sqrt(c["sdd"] / n),
        "mse": c["sdd"] / n,
        "sgs_rmse": c["sad"] / c["say"],
        "accumulated_relative_error": c["srel"],
        "max_relative_error": c["mrel"],
        "mean_relative_error": c["srel"] / n,
        "min_golden": c["miny"],
        "max_golden": c["maxy"],
        "min_target": c["minx"],
        "max_target": c["maxx"],
        "within_tolerance": c["within"] / n,
        "relative_euclidean_distance": np.sqrt(c["sdd"] / c["syy"]),
        "cosine_similarity": np.clip(c["sxy"] / (np.sqrt(c["sxx"]) * np.sqrt(c["syy"])), -1.0, 1.0),
    }
    cols = {k: v.tolist() for k, v in out.items()}
    cols.update(
        _side_columns(c["sy"] / n, c["syy"] / n, c["miny"], c["maxy"], "golden"),
        **_side_columns(c["sx"] / n, c["sxx"] / n, c["minx"], c["maxx"], "target"),
    )
    cols["sqnr_db"] = [
        _sqnr(syy, sdd) for syy, sdd in zip(c["syy"].tolist(), c["sdd"].tolist(), strict=False)
    ]
    cols["kullback_leibler_divergence"] = [
        None if kl is None else 0.0 if abs(kl) < REL_EPS else kl for kl in kls
    ]
    cols.update({name: [None] * len(n) for name in ("slice_cosine", "slice_relative_distance")})
    cols.update({name: [0] * len(n) for name in COUNT_COLUMNS})
    return cols


def _side_columns(
    mean: np.ndarray, square: np.ndarray, lo: np.ndarray, hi: np.ndarray, side: str
) -> dict[str, list[object]]:
    """A side's mean and standard deviation columns (per value by :func:`spread`, as :func:`_moments`)."""
    means = mean.tolist()
    rows = zip(means, square.tolist(), lo.tolist(), hi.tolist(), strict=True)
    return {f"mean_{side}": means, f"std_{side}": [spread(m, q, a, b) for m, q, a, b in rows]}


def _sqnr(syy: float, sdd: float) -> float:
    """SQNR of a segment with a non-zero golden (as :func:`_distances`)."""
    return math.inf if sdd == 0.0 else 10.0 * math.log10(syy / sdd)


def _segment_sums(row: list[float]) -> _Sums:
    """One segment's kernel sums as the accumulator the per-pair path fills (counts as ints)."""
    acc = _Sums()
    acc.__dict__.update(
        (k, int(v) if k in _SEGMENT_COUNTS else v) for k, v in zip(SEGMENT_FIELDS, row, strict=False)
    )
    return acc


def _segment_kl(
    golden: np.ndarray, target: np.ndarray, offsets: np.ndarray, sums: np.ndarray
) -> list[float | None]:
    """Each segment's KL divergence as :func:`_compare_native` computes it (None where nothing
    was compared): the same fused kernel pass, segment by segment."""
    assert _kernel is not None
    c = {name: sums[:, _F[name]] for name in ("n", "minx", "maxx", "miny", "maxy")}
    params = np.column_stack(
        [c["minx"], _inverse_spans(c["minx"], c["maxx"]), c["miny"], _inverse_spans(c["miny"], c["maxy"])]
    )
    parts = np.empty((len(sums), 4))
    _kernel.kl_segments(target, golden, offsets, params, KL_FLOOR, parts)
    return [
        _kl_value(tt, sa, sb, sd) if n else None
        for n, (sa, sb, sd, tt) in zip(c["n"].tolist(), parts.tolist(), strict=False)
    ]


def _inverse_spans(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """:func:`_inverse_span` of every segment (the same IEEE division)."""
    return np.where(hi > lo, 1.0 / (hi - lo), 0.0)


def _kl_value(tt: float, sa: float, sb: float, sd: float) -> float:
    """KL divergence from its sums: sa = sum a, sb = sum b, sd = sum (b - a) summed directly,
    tt = sum a log(a / b).  log(sb / sa) is log1p(sd / sa) when the sums are within a factor
    of two: KL's error is then relative to the sides' differences, not to their sums (see
    ``kl_fused`` in ``_kernel.c``)."""
    ratio = sd / sa
    return tt / sa + (math.log1p(ratio) if abs(ratio) < 0.5 else math.log(sb / sa))


def segment_metrics(
    sums: np.ndarray, kl: float | None, golden: np.ndarray, target: np.ndarray
) -> PairMetrics:
    """One segment's metrics from its row of :func:`segment_sums` (any segment, findings too)."""
    return _segment_metrics(_segment_sums(sums.tolist()), kl, golden, target)


def _segment_metrics(acc: _Sums, kl: float | None, g: np.ndarray, t: np.ndarray) -> PairMetrics:
    """One segment's metrics, finished exactly as :func:`_compare` finishes a pair."""
    return _finished(acc, kl, g, t)


def _inverse_span(lo: float, hi: float) -> float:
    """``1 / (hi - lo)``, 0 for a constant side."""
    return 1.0 / (hi - lo) if hi > lo else 0.0


def _compare_numpy(
    g: np.ndarray, t: np.ndarray, rtol: float, atol: float, chunk: int, work: np.dtype
) -> tuple[_Sums, float | None]:
    """The same computation with numpy only (when the compiled kernel is not built)."""
    size = g.size
    acc = _Acc(min(chunk, size), work)
    clean = True  # no chunk had a NaN/Inf
    kept: list[tuple[np.ndarray, np.ndarray]] = []  # the finite data when it is one chunk
    for x, y in _chunks(g, t, chunk, work):
        sxx, syy = _load64(acc, x, y)
        if not (math.isfinite(sxx) and math.isfinite(syy)):
            clean = False
            x, y = _finite_part(x, y, acc)
            if x.size == 0:
                continue
            sxx, syy = _load64(acc, x, y)
        acc.add(x, y, sxx, syy, rtol, atol)
        if size <= chunk:
            kept.append((x, y))
    if not acc.n:
        return acc, None
    # KL needs the global min/max: a second pass, over memory only for big tensors.
    return acc, _numpy_kl(acc, kept or _finite_chunks(g, t, chunk, work, _scratch(clean, work)))


def _scratch(clean: bool, work: np.dtype) -> _Acc | None:
    """A throw-away accumulator to filter NaN/Inf again in the second pass (None: there were none)."""
    return None if clean else _Acc(1, work)


def _numpy_kl(acc: _Acc, parts: Iterable[tuple[np.ndarray, np.ndarray]]) -> float:
    """KL divergence of the min-max normalised sides over ``parts`` (numpy's second pass)."""
    sa = sb = sd = tt = 0.0
    for x, y in parts:
        a, b, d, c = acc.kl_sums(x, y)
        sa, sb, sd, tt = sa + a, sb + b, sd + d, tt + c
    return _kl_value(tt, sa, sb, sd)


def _load64(acc: _Acc, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Copy a chunk into acc's float64 buffers; return both squared norms."""
    n = x.size
    x64, y64 = acc.x64[:n], acc.y64[:n]
    np.copyto(x64, x)
    np.copyto(y64, y)
    return float(x64 @ x64), float(y64 @ y64)


def _chunks(g: np.ndarray, t: np.ndarray, chunk: int, work: np.dtype):
    """(target, golden) chunks in the working float type.

    Conversion (float16 -> float32 is exact) goes into two reused buffers; a chunk
    already in the working type is a view, not a copy.
    """
    bufs = {
        id(a): _buffer(f"in{i}", min(chunk, a.size), work) for i, a in enumerate((t, g)) if a.dtype != work
    }
    for start in range(0, g.size, chunk):
        pair = []
        for a in (t, g):
            part = a[start : start + chunk]
            buf = bufs.get(id(a))
            if buf is not None:
                np.copyto(buf[: part.size], part, casting="unsafe")
                part = buf[: part.size]
            pair.append(part)
        yield pair[0], pair[1]


def _finite_chunks(g: np.ndarray, t: np.ndarray, chunk: int, work: np.dtype, scratch: _Acc | None):
    for x, y in _chunks(g, t, chunk, work):
        if scratch is not None:
            x, y = _finite_part(x, y, scratch)
        if x.size:
            yield x, y


def _finish(acc: _Sums, size: int) -> PairMetrics:
    m = PairMetrics(
        nan_golden=acc.nan_y,
        nan_target=acc.nan_x,
        inf_golden=acc.inf_y,
        inf_target=acc.inf_x,
        nonfinite_mismatch=acc.mismatch,
        compared=acc.n,
        size=size,
        flags=_count_flags(acc),
    )
    m.within_tolerance = (acc.within + acc.matched_nonfinite) / size
    if acc.n == 0:
        m.flags |= PairFlag.NOTHING_COMPARED
        return m
    if acc.n < size:
        m.flags |= PairFlag.PARTIAL_FINITE
    _moments(m, acc)
    _distances(m, acc)
    _cosine(m, acc, size)
    return m


def _count_flags(acc: _Sums) -> PairFlag:
    """Flags of the NaN/Inf counts."""
    flags = PairFlag.NONE
    if acc.mismatch:
        flags |= PairFlag.NONFINITE_MISMATCH
    if acc.nan_y + acc.inf_y:
        flags |= PairFlag.GOLDEN_NONFINITE
    return flags


def _moments(m: PairMetrics, acc: _Sums) -> None:
    """Error and per-side statistics over the ``acc.n`` compared positions."""
    n = acc.n
    m.max_absolute_error = acc.mad
    m.mean_absolute_error = acc.sad / n
    m.root_mean_square_error = math.sqrt(acc.sdd / n)
    m.mse = acc.sdd / n
    m.sgs_rmse = _relative_l1(acc.sad, acc.say)
    m.accumulated_relative_error = acc.srel
    m.max_relative_error = acc.mrel
    m.mean_relative_error = acc.srel / n
    m.min_golden, m.max_golden, m.min_target, m.max_target = acc.miny, acc.maxy, acc.minx, acc.maxx
    m.mean_golden, m.mean_target = acc.sy / n, acc.sx / n
    m.std_golden = spread(m.mean_golden, acc.syy / n, acc.miny, acc.maxy)
    m.std_target = spread(m.mean_target, acc.sxx / n, acc.minx, acc.maxx)


def _relative_l1(sad: float, say: float) -> float:
    """SigmaStar's "RMSE", Σ|x − y| / Σ|y|: 0 for two all-zero tensors, inf for an all-zero golden only."""
    if say == 0.0:
        return 0.0 if sad == 0.0 else math.inf
    return sad / say


def _distances(m: PairMetrics, acc: _Sums) -> None:
    """Relative Euclidean distance and SQNR (an all-zero golden makes both infinite)."""
    if acc.syy == 0.0:
        m.relative_euclidean_distance = 0.0 if acc.sdd == 0.0 else math.inf
        m.sqnr_db = math.inf if acc.sdd == 0.0 else -math.inf
    else:
        m.relative_euclidean_distance = math.sqrt(acc.sdd / acc.syy)
        m.sqnr_db = math.inf if acc.sdd == 0.0 else 10.0 * math.log10(acc.syy / acc.sdd)


def _cosine(m: PairMetrics, acc: _Sums, size: int) -> None:
    """Cosine similarity, or the flag that says why it is not defined."""
    golden_zero, target_zero = acc.syy == 0.0, acc.sxx == 0.0
    if size == 1:
        m.flags |= PairFlag.SINGLE_ELEMENT
    elif golden_zero and target_zero:
        m.cosine_similarity = 1.0
    elif golden_zero:
        m.flags |= PairFlag.ALL_ZERO_GOLDEN
    elif target_zero:
        m.cosine_similarity = 0.0
        m.flags |= PairFlag.ALL_ZERO_TARGET
    else:
        m.cosine_similarity = _cosine_value(acc)


def _cosine_value(acc: _Sums) -> float:
    """The cosine of two sides with non-zero norms, clipped to [-1, 1], from x.y accumulated
    directly by both paths.  (x.y = (|x|^2 + |y|^2 - |x-y|^2) / 2, which the kernel once used to
    save a product, errs by eps64 * (|x|^2 + |y|^2) / (|x| |y|): a cosine of 1 read as 0 where
    one side's norm is 1e30 times the other's.)"""
    cos = acc.sxy / (math.sqrt(acc.sxx) * math.sqrt(acc.syy))
    return max(-1.0, min(1.0, cos))
