"""The per-pair computation: a pair's two tensors read, lined up and measured into its row's columns.

The three row paths are here, with what decides between them:

- **per pair** (:func:`compute_row`): one pair read, lined up (:func:`~.shapes.align`, a Reshape's shape
  input resolved by its :class:`~.shape_specs.ShapeSpec`) and measured by one kernel call;
- **segmented** (:func:`compute_rows`): the pairs of a worker's task that :func:`~.metrics.segmentable`
  allows (small float32/float64 pairs) measured together per dtype in one kernel call, bit for bit the
  per-pair result;
- **small lane** (:meth:`Rows.batch` with :class:`~.small.SmallLane`): tiny plain pairs read straight into
  one buffer per dtype, no per-pair objects, the same columns.

Every path returns the same columns and never raises: a bad pair costs its own row (:func:`error_row`).
:mod:`.pipeline` opens, pairs, fills (handing :class:`Rows` to the workers of :mod:`.execution`) and judges.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from copy import copy
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from dumpscope.core.comparison.execution import TaskResult
from dumpscope.core.comparison.judge import Thresholds
from dumpscope.core.comparison.metrics import (
    COUNT_COLUMNS,
    FLOAT_COLUMNS,
    PairMetrics,
    compare_arrays,
    compare_segments,
    segmentable,
)
from dumpscope.core.comparison.pairing import Pair
from dumpscope.core.comparison.shape_specs import ShapeSpec, resolve
from dumpscope.core.comparison.shapes import Aligned, align, declared_layouts
from dumpscope.core.comparison.slices import AXIS, slice_layout, slice_metrics
from dumpscope.core.comparison.small import Leftover, SmallLane, lane_values, small_dtype
from dumpscope.core.comparison.verdict import render_hard_fail
from dumpscope.core.dumps import TensorReadError, dtype_name
from dumpscope.core.formats.npyfile import NpyLoader, Scratch, read_ahead
from dumpscope.core.names import display

if TYPE_CHECKING:
    from pathlib import Path


@dataclass(frozen=True)
class RowContext:
    """What a row's computation needs beyond its pair: ``specs``, the golden names of
    Reshape shape inputs with the data shapes they resolve against."""

    specs: dict[str, ShapeSpec] = field(default_factory=dict)

    def compute(self, pairs: list[Pair], th: Thresholds, bands: list[str]) -> Rows:
        """The row function the workers run: row ``i`` -> its metric columns."""
        return Rows(pairs, th, bands, self)

    def key(self, pairs: list[Pair], bands: list[str], i: int) -> str:
        """The parts of row ``i``'s result that do not come from its files (for the cache key)."""
        return f"{bands[i]}|{self.specs.get(pairs[i].name)!r}"


@dataclass(frozen=True)
class Rows:
    """The rows' computation as the workers run it: ``rows(i)`` is row ``i``'s columns
    (:func:`compute_row`); ``rows.batch(part)`` computes a whole task at once, the same
    columns, with every small float pair's metrics in one kernel call (see :func:`compute_rows`)."""

    pairs: Sequence[Pair]
    th: Thresholds
    bands: Sequence[object]
    """Each row's band (a :class:`LateBand` while the bands are not known yet)."""
    context: RowContext
    numbers_as_arrays: ClassVar[bool] = True
    """Its tasks' number columns come back as arrays (:meth:`~.execution.TaskResult.with_number_arrays`):
    they go into a row table."""

    def __call__(self, i: int) -> dict[str, object]:
        return compute_row(self.pairs[i], self.th, self.context.specs.get(self.pairs[i].name), self.bands[i])

    def batch(self, part: Sequence[int]) -> TaskResult:
        """The rows of ``part`` packed (what ``[rows(i) for i in part]`` gives): small pairs
        through :class:`~.small.SmallLane`, the others by :func:`compute_rows`."""
        lane = SmallLane()
        small: list[tuple[int, np.dtype]] = []
        other: list[tuple[int, None]] = []
        for pos, i in enumerate(part):
            dtype = small_dtype(self.pairs[i], self.pairs[i].name in self.context.specs)
            if dtype is not None:
                small.append((pos, dtype))
            else:
                other.append((pos, None))
        for dtype in {d for _pos, d in small}:
            lane.reserve(dtype, sum(lane_values(self.pairs[part[pos]]) for pos, d in small if d == dtype))
        with read_ahead(_files(self.pairs[part[pos]] for pos, _none in other)):  # (if not cached: see there)
            return self._lane_rows(part, lane, [pos for pos, _d in small], [pos for pos, _d in other])

    def _lane_rows(
        self, part: Sequence[int], lane: SmallLane, small: list[int], other: list[int]
    ) -> TaskResult:
        """Read the ``small`` positions into ``lane``, compute the rest as rows, and pack both."""
        rows: dict[int, dict[str, object]] = dict(
            zip(other, compute_rows(self, [part[pos] for pos in other]), strict=False)
        )
        for pos in small:
            loaded = read_plain(self.pairs[part[pos]])
            if isinstance(loaded, str):
                rows[pos] = error_row(loaded)
            else:
                lane.add(pos, loaded)
        clean, columns, leftovers = lane.finish(self.th, part.__getitem__)
        for left in leftovers:
            rows[left.pos] = self._leftover_row(part[left.pos], left)
        packed = TaskResult.pack([part[pos] for pos in rows], list(rows.values()))
        return TaskResult.joined(TaskResult(clean, columns), packed)

    def _leftover_row(self, i: int, left: Leftover) -> dict[str, object]:
        """A small pair with a finding, finished as a row (as :func:`compute_row` finishes it)."""
        g, t = left.golden, left.target
        shapes: dict[str, object] = {
            "shape": list(g.shape),
            "target_shape": list(t.shape),
            "dtype": dtype_name(g.dtype),
            "target_dtype": dtype_name(t.dtype),
        }
        return _Ready(shapes, Aligned(g, t), "", int(g.size)).row(
            self.pairs[i], self.th, self.bands[i], left.metrics
        )


_scratch = threading.local()


def compute_row(
    p: Pair, th: Thresholds, spec: ShapeSpec | None = None, band: object = None
) -> dict[str, object]:
    """Read both tensors of a pair and compute its metric columns; never raises.

    ``spec``: the pair is a Reshape's shape input; compared by the shapes it resolves to.
    ``band``: the row's band (its absolute floor bounds which channel slices compete).
    A same-shape pair whose values match the golden only with its axes permuted (decisively,
    see :func:`~.shapes.decisive`) is compared as it is and fails as a layout mismatch.
    """
    ready = _ready(p, spec)
    if isinstance(ready, dict):
        return ready
    return _measured(p, th, band, ready)


def compute_rows(rows: Rows, part: Sequence[int]) -> list[dict[str, object]]:
    """The columns of the rows ``part``, exactly as :func:`compute_row` gives them one by one.

    Each pair is read and lined up as usual; those that :func:`~.metrics.segmentable`
    allows (small float32/float64 pairs, the common case of a dump of many tiny tensors)
    are copied out of the read buffers and their metrics computed together per dtype by
    :func:`~.metrics.compare_segments` (one kernel call, bit for bit the per-pair result),
    the others pair by pair.  Never raises: a bad pair costs its own row.
    """
    out: list[dict[str, object] | None] = [None] * len(part)
    waiting: dict[np.dtype, list[tuple[int, _Ready]]] = {}
    for pos, i in enumerate(part):
        ready = _ready(rows.pairs[i], rows.context.specs.get(rows.pairs[i].name))
        if isinstance(ready, dict):
            out[pos] = ready
        elif segmentable(ready.aligned.golden, ready.aligned.target):
            waiting.setdefault(ready.aligned.golden.dtype, []).append((pos, ready.kept()))
        else:
            out[pos] = _finished(rows, i, ready)
    for group in waiting.values():
        _segmented(rows, part, group, out)
    done = [row for row in out if row is not None]
    assert len(done) == len(out), "every position is filled"
    return done


def _finished(rows: Rows, i: int, ready: _Ready) -> dict[str, object]:
    """Row ``i``'s columns from its lined-up pair, computed on its own."""
    return _measured(rows.pairs[i], rows.th, rows.bands[i], ready)


def _measured(p: Pair, th: Thresholds, band: object, ready: _Ready) -> dict[str, object]:
    """The row of a lined-up pair, measured by one kernel call (which also sums the golden's
    energy per channel slice of an activation, for :func:`_worst_slice`'s first test)."""
    g, t = ready.aligned.golden, ready.aligned.target
    sliced = p.golden is not None and p.golden.info.kind == "activation" and g.shape == t.shape
    try:
        m = compare_arrays(g, t, rtol=th.rtol, atol=th.atol, slices=slice_layout(g.shape) if sliced else None)
    except (ValueError, TypeError, OSError, MemoryError) as exc:
        return {**ready.shapes, **error_row(f"comparison failed: {exc}")}
    return ready.row(p, th, band, m)


def _segmented(
    rows: Rows, part: Sequence[int], group: list[tuple[int, _Ready]], out: list[dict[str, object] | None]
) -> None:
    """The rows of ``group`` (positions in ``part`` with their lined-up pairs, one dtype) into
    ``out``, their metrics from one :func:`compare_segments` call."""
    golden = [ready.aligned.golden.reshape(-1) for _pos, ready in group]
    target = [ready.aligned.target.reshape(-1) for _pos, ready in group]
    offsets = np.zeros(len(group) + 1, dtype=np.int64)
    np.cumsum([a.size for a in golden], out=offsets[1:])
    metrics = compare_segments(
        np.concatenate(golden), np.concatenate(target), offsets, rtol=rows.th.rtol, atol=rows.th.atol
    )
    for (pos, ready), m in zip(group, metrics, strict=False):
        i = part[pos]
        out[pos] = ready.row(rows.pairs[i], rows.th, rows.bands[i], m)


@dataclass
class _Ready:
    """A pair read and lined up, its metrics still to compute: ``shapes`` (its shape and
    dtype columns), ``aligned`` (what is compared), ``layout`` (a declared-layout mismatch,
    ''), ``size`` (the golden's elements as read)."""

    shapes: dict[str, object]
    aligned: Aligned
    layout: str
    size: int

    def kept(self) -> _Ready:
        """The same pair with its arrays copied out of the reusable read buffers (valid
        after the next pair is read)."""
        self.aligned = replace(
            self.aligned, golden=np.array(self.aligned.golden), target=np.array(self.aligned.target)
        )
        return self

    def row(self, p: Pair, th: Thresholds, band: object, m: PairMetrics) -> dict[str, object]:
        """The row's columns once its metrics ``m`` are known (with ``band`` a :class:`LateBand`,
        the worst slice of each floor it may have, see :func:`_late_worst`)."""
        notes = _row_notes(p, self.aligned, m)
        late: dict[float, LateSlice] | None = None
        if isinstance(band, LateBand):
            worst, late = _late_worst(p, band, self.aligned, m, notes)
        else:
            worst = _worst_of(p, band_floor(th, band), self.aligned, m, notes)
        hard = render_hard_fail(m) if m.flags else ""  # no flag: no hard failure (and no enum arithmetic)
        row = {
            **self.shapes,
            **{c: getattr(m, c) for c in _METRIC_COLUMNS},
            "size": self.size,
            "status": "computed",
            "notes": display("; ".join(notes)),
            "hard_fail": "; ".join(x for x in (self.layout, hard) if x),
            "hard_warn": self.aligned.warn,
            "worst_slice": worst,
        }
        if late is not None:
            row[LATE_SLICES] = late
        return row


def _ready(p: Pair, spec: ShapeSpec | None) -> _Ready | dict[str, object]:
    """The pair read and lined up for its metrics, or its finished (error) row."""
    loaded = load_pair(p)
    if isinstance(loaded, str):
        return error_row(loaded)
    g, t = loaded
    shapes: dict[str, object] = {
        "shape": list(g.shape),
        "target_shape": list(t.shape),
        "dtype": dtype_name(g.dtype),
        "target_dtype": dtype_name(t.dtype),
    }
    aligned = _resolved_specs(g, t, spec) or align(g, t, declared_layouts(p.golden, p.target))
    layout = _layout_mismatch(aligned)
    problem = _non_numeric(g, t) or aligned.error
    if problem:
        return {**shapes, **error_row(problem)}
    return _Ready(shapes, aligned, layout, int(g.size))


def _row_notes(p: Pair, aligned: Aligned, m: PairMetrics) -> list[str]:
    """The reader's notes, the alignment's, then the kernel's (none without a flag)."""
    return [*reader_notes(p), *([aligned.note] if aligned.note else []), *(m.notes if m.flags else ())]


def band_floor(th: Thresholds, band: object) -> float:
    """The absolute floor of a row's band (0 for a band without one)."""
    return th.floors.get(band, 0.0) if isinstance(band, str) else 0.0


def _worst_of(p: Pair, floor: float, aligned: Aligned, m: PairMetrics, notes: list[str]) -> int | None:
    """The worst channel slice of an activation (see :func:`_worst_slice`); None otherwise."""
    if p.golden is None or p.golden.info.kind != "activation":
        return None
    return _worst_slice(aligned, m, notes, floor)


#: What the worst slice sets in a row: ``(worst_slice, slice_cosine, slice_relative_distance, notes)``.
LateSlice = tuple[int | None, float | None, float | None, str]
#: The internal column of a row computed before its band was known (:class:`LateBand`): the
#: :data:`LateSlice` of each floor, where they differ; the parent keeps its band's.
LATE_SLICES = "_late_slices"


@dataclass(frozen=True)
class LateBand:
    """A row's band decided after the rows (its run's band needs every target header, which
    the workers read: see :mod:`.late`).  Only the worst slice depends on it (through the
    band's floor), so the row is computed once and its worst slice for each of ``floors``
    (ascending, every floor the row's band may have)."""

    floors: tuple[float, ...]

    @classmethod
    def of(cls, th: Thresholds) -> LateBand:
        return cls(tuple(sorted({0.0, *th.floors.values()})))


def _late_worst(
    p: Pair, band: LateBand, aligned: Aligned, m: PairMetrics, notes: list[str]
) -> tuple[int | None, dict[float, LateSlice] | None]:
    """The worst slice at the lowest floor, into ``m`` and ``notes`` as :func:`_worst_of`;
    with the :data:`LateSlice` of every floor when there is one (None otherwise: then none
    at any floor, as a higher floor only leaves fewer slices to compete)."""
    cosine, distance, said = m.slice_cosine, m.slice_relative_distance, len(notes)  # (as they were)
    worst = _worst_of(p, band.floors[0], aligned, m, notes)
    if worst is None:  # (nothing was set: the usual case, no copy made)
        return None, None
    before = copy(m)
    before.slice_cosine, before.slice_relative_distance = cosine, distance
    late: dict[float, LateSlice] = {
        band.floors[0]: (worst, m.slice_cosine, m.slice_relative_distance, display("; ".join(notes)))
    }
    for floor in band.floors[1:]:
        mf, nf = copy(before), notes[:said]
        w = _worst_of(p, floor, aligned, mf, nf)
        late[floor] = (w, mf.slice_cosine, mf.slice_relative_distance, display("; ".join(nf)))
    return worst, late


_METRIC_COLUMNS = (*FLOAT_COLUMNS, *COUNT_COLUMNS)


def _layout_mismatch(aligned: Aligned) -> str:
    """Why a same-shape pair is a layout mismatch ('' when it is not): its values match the
    golden only with the target's axes permuted (decisively, measured)."""
    found = aligned.permuted
    if found is None:
        return ""
    return (
        f"layout mismatch: same shape {list(aligned.golden.shape)}, but the target holds the golden's "
        f"values with its axes permuted {found.order()} ({found.agreement()}): it was fed or computed in "
        f"another axis order"
    )


def _worst_slice(aligned: Aligned, m: PairMetrics, notes: list[str], floor: float) -> int | None:
    """Per-slice metrics along the channel axis into ``m`` (only for a pair that differs at
    all, and where a slice could be destroyed: see :func:`slice_metrics`); the worst slice's
    index, said in ``notes`` when it is worse than the whole."""
    if not m.max_absolute_error:
        return None
    energy = m.root_mean_square_error**2 * m.compared if m.root_mean_square_error is not None else None
    s = slice_metrics(aligned.golden, aligned.target, floor, energy, m.golden_energy)
    if s is None:
        return None
    m.slice_cosine, m.slice_relative_distance = s.cosine, s.relative_distance
    if m.relative_euclidean_distance is not None and s.relative_distance > 2 * m.relative_euclidean_distance:
        notes.append(
            f"worst slice along axis {AXIS}: #{s.worst} of {s.slices} "
            f"(rel. distance {s.relative_distance:.3g}, whole tensor {m.relative_euclidean_distance:.3g})"
        )
    return s.worst


def _resolved_specs(g: np.ndarray, t: np.ndarray, spec: ShapeSpec | None) -> Aligned | None:
    """Both sides of a Reshape shape input resolved against their data shapes, when they
    resolve and their spellings differ (None: compare the tensors as they are)."""
    if spec is None or spec[0] is None or spec[1] is None or np.array_equal(g, t):
        return None
    rg, rt = resolve(np.asarray(g), spec[0]), resolve(np.asarray(t), spec[1])
    if rg is None or rt is None:
        return None
    note = (
        f"Reshape shape input: compared by the shape it resolves to (golden {g.tolist()} -> {rg.tolist()}, "
        f"target {t.tolist()} -> {rt.tolist()})"
    )
    return Aligned(rg, rt, note=note) if rg.shape == rt.shape else None


def _files(pairs: Iterable[Pair]) -> list[str | Path]:
    """The ``.npy`` files a task reads whole (not those kept in memory), both sides of each pair."""
    out: list[str | Path] = []
    for p in pairs:
        for ref in (p.golden, p.target):
            loader = ref.loader if ref is not None else None
            if isinstance(loader, NpyLoader) and loader.data is None:
                out.append(loader.path)
    return out


def load_pair(p: Pair) -> tuple[np.ndarray, np.ndarray] | str:
    """Both tensors of a pair, or why one cannot be read.

    Each worker thread reads into its own two reusable buffers (no page faults, no
    contention on the memory map lock between threads).
    """
    assert p.golden is not None and p.target is not None
    if not hasattr(_scratch, "pair"):
        _scratch.pair = (Scratch(), Scratch())
    out = []
    for side, ref, buf in (("golden", p.golden, _scratch.pair[0]), ("target", p.target, _scratch.pair[1])):
        try:
            out.append(ref.load_transient(buf))
        except TensorReadError as exc:
            return f"{side} unreadable: {exc}"
    return out[0], out[1]


def read_plain(p: Pair) -> tuple[np.ndarray, np.ndarray] | str:
    """:func:`load_pair` for a pair of plain ``.npy`` readers (the small-pair lane): their
    ``read_into`` straight away; any failure is left to :func:`load_pair` and its messages."""
    if not hasattr(_scratch, "pair"):
        _scratch.pair = (Scratch(), Scratch())
    g, t = p.golden.loader if p.golden else None, p.target.loader if p.target else None
    if not isinstance(g, NpyLoader) or not isinstance(t, NpyLoader):  # the lane takes only these
        return load_pair(p)
    try:
        return g.read_into(_scratch.pair[0]), t.read_into(_scratch.pair[1])
    except Exception:  # noqa: BLE001 - read again the checked way, which says why
        return load_pair(p)


def _non_numeric(g: np.ndarray, t: np.ndarray) -> str | None:
    """Why a side cannot be compared numerically (None when both can)."""
    for side, a in (("golden", g), ("target", t)):
        if a.dtype.kind not in "biuf" and a.dtype.name != "bfloat16":
            return f"{side} has dtype {a.dtype.name}, which has no numeric comparison"
    return None


def reader_notes(p: Pair) -> list[str]:
    """What a reader noted about how it read either side (``note`` facts), for the row."""
    return [
        f"{side}: {v}"
        for side, ref in (("golden", p.golden), ("target", p.target))
        if ref is not None
        for k, v in ref.info.extra
        if k == "note"
    ]


def error_row(message: str) -> dict[str, object]:
    return {"health": "error", "status": "error", "message": display(message)}
