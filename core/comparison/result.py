"""The result of a comparison: one Polars frame plus what it was built from.

A :class:`Comparison` holds the frame (a row per tensor, in topological order), the
thresholds that judged it, the dumps and pairing behind its rows (for lazy access to
the tensors), and the parsed graph facts it was built with -- the ONNX model's
:class:`~dumpscope.core.onnx.graph.GraphFacts` and the vendor's ATC graph -- so that
every later step (diagnosis, row facts, fusion) reuses them instead of parsing again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

import numpy as np
import polars as pl

from dumpscope.core.comparison import judge
from dumpscope.core.comparison.judge import Thresholds
from dumpscope.core.comparison.metrics import COUNT_COLUMNS, FLOAT_COLUMNS
from dumpscope.core.comparison.pairing import Pairing
from dumpscope.core.dumps import Dump, TensorReadError
from dumpscope.core.vocabulary import Health

if TYPE_CHECKING:
    from dumpscope.core.onnx.graph import GraphFacts
    from dumpscope.core.vendor.atc_graph import AtcGraph

#: Columns of the comparison frame, in order, with their Polars types.
SCHEMA: dict[str, pl.DataType] = {
    "index": pl.Int64(),
    "name": pl.String(),
    "target_name": pl.String(),
    "node_name": pl.String(),
    "op_type": pl.String(),
    "kind": pl.String(),
    "shape": pl.List(pl.Int64()),
    "target_shape": pl.List(pl.Int64()),
    "dtype": pl.String(),
    "target_dtype": pl.String(),
    "size": pl.Int64(),
    **{c: pl.Float64() for c in FLOAT_COLUMNS},
    **{c: pl.Int64() for c in COUNT_COLUMNS},
    "worst_slice": pl.Int64(),
    "health": pl.String(),
    "side": pl.String(),
    "message": pl.String(),
    "band": pl.String(),
    "status": pl.String(),
    "hard_fail": pl.String(),
    "hard_warn": pl.String(),
    "notes": pl.String(),
    "pairing": pl.String(),
    "golden_file": pl.String(),
    "target_file": pl.String(),
}
#: The column a ``--cache`` run adds after :data:`SCHEMA`'s: True where the row was served from
#: the signed index (see :mod:`.cache`), not computed from the tensors in this run.
CACHED_COLUMN = "cached"
#: Internal columns that ``judge`` needs but users do not.
INTERNAL_COLUMNS: tuple[str, ...] = ("status", "hard_fail", "hard_warn", "notes")


class Row(TypedDict):
    """One row of the comparison frame (:data:`SCHEMA`), as :func:`row_at` reads it."""

    index: int
    name: str
    target_name: str | None
    node_name: str | None
    op_type: str | None
    kind: str | None
    shape: list[int] | None
    target_shape: list[int] | None
    dtype: str | None
    target_dtype: str | None
    size: int | None
    cosine_similarity: float | None
    max_absolute_error: float | None
    accumulated_relative_error: float | None
    relative_euclidean_distance: float | None
    kullback_leibler_divergence: float | None
    mean_absolute_error: float | None
    root_mean_square_error: float | None
    max_relative_error: float | None
    mean_relative_error: float | None
    sqnr_db: float | None
    within_tolerance: float | None
    mse: float | None
    sgs_rmse: float | None
    slice_cosine: float | None
    slice_relative_distance: float | None
    min_golden: float | None
    max_golden: float | None
    mean_golden: float | None
    std_golden: float | None
    min_target: float | None
    max_target: float | None
    mean_target: float | None
    std_target: float | None
    nan_golden: int | None
    nan_target: int | None
    inf_golden: int | None
    inf_target: int | None
    nonfinite_mismatch: int | None
    worst_slice: int | None
    health: str
    side: str | None
    message: str | None
    band: str | None
    status: str | None
    hard_fail: str | None
    hard_warn: str | None
    notes: str | None
    pairing: str | None
    golden_file: str | None
    target_file: str | None


def row_at(frame: pl.DataFrame, row: int) -> Row:
    """Row ``row`` of a comparison frame, typed (the frame follows :data:`SCHEMA`)."""
    return cast(Row, frame.row(row, named=True))


@dataclass(frozen=True)
class ComparisonMeta:
    """What a comparison was built from and how, as saved inside its Parquet file.

    Fields are written in this order, the unset (None) ones left out -- except that a computed
    comparison (one with a ``version``) always names its model, stage and graph (null when none).
    Keys an older or foreign file carries that are not fields here are kept, as read, in
    :attr:`extra`, and written back after the fields.
    """

    golden: str | None = None
    """The golden dump's path (an imported report's path for both sides)."""
    target: str | None = None
    imported: str | None = None
    """The tool whose report this comparison was imported from (msaccucmp CSV, RKNN analysis)."""
    golden_format: str | None = None
    target_format: str | None = None
    model: str | None = None
    """The ONNX model given (``--model``), else None."""
    stage: str | None = None
    """The SigmaStar stage compared (detected, or ``--stage``), else None."""
    preset: str | None = None
    order: str | None = None
    """Where the topological order came from, in words."""
    version: str | None = None
    """The dumpscope version that computed the comparison (None: imported or reopened without one)."""
    warnings: tuple[str, ...] | None = None
    """The comparison's own warnings (pairing, shapes, dtypes, inputs)."""
    unmatched_golden: int | None = None
    unmatched_target: int | None = None
    graph: str | None = None
    """The vendor (ATC) graph given, else None."""
    cache: str | None = None
    """Where the ``--cache`` index was read and written, or why it was not."""
    from_cache: str | None = None
    """Set on the first snapshot of a ``--cache`` run: the last run's rows, being checked."""
    format: str | None = None
    """``msprobe`` for a comparison read from an msprobe dump, else None."""
    msprobe: Mapping[str, object] | None = None
    """The msprobe step/rank shown, its module tree and the ranks' summary (plain JSON data)."""
    reopened: str | None = None
    """The saved file this comparison was reopened from."""
    preview: str | None = None
    """Set on the stream's first frame when it judges only the dumps' first tensors (what it covers):
    nothing final, such as the first divergent layer, is read from it."""
    extra: Mapping[str, object] = field(default_factory=dict)
    """Keys of a saved file that are not fields here, kept as read."""

    def to_dict(self) -> dict[str, object]:
        """The meta as saved (JSON-ready): see the class for which fields are written."""
        always = {"model", "stage", "graph"} if self.version is not None else set()
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "extra" or (value is None and f.name not in always):
                continue
            out[f.name] = list(value) if f.name == "warnings" else value
        return {**out, **{k: v for k, v in self.extra.items() if k not in out}}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ComparisonMeta:
        """The meta of a saved file or a caller's dict; values of the wrong type are dropped,
        keys that are not fields kept in :attr:`extra`."""
        known = {f.name: f for f in fields(cls) if f.name != "extra"}
        values: dict[str, object] = {}
        for key, value in data.items():
            if key in known:
                values[key] = _meta_value(key, value)
        extra = {k: v for k, v in data.items() if k not in known}
        return cls(**values, extra=extra)  # type: ignore[arg-type]  # each value checked by _meta_value


def _meta_value(key: str, value: object) -> object:
    """``value`` as field ``key`` of :class:`ComparisonMeta` holds it (None when it cannot be)."""
    if value is None:
        return None
    if key == "warnings":
        return tuple(str(w) for w in value) if isinstance(value, (list, tuple)) else None
    if key in ("unmatched_golden", "unmatched_target"):
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if key == "msprobe":
        return value if isinstance(value, Mapping) else None
    return str(value)


@dataclass
class Comparison:
    """One golden/target comparison: the frame plus lazy access to its tensors."""

    frame: pl.DataFrame
    thresholds: Thresholds = field(default_factory=Thresholds)
    meta: ComparisonMeta = field(default_factory=ComparisonMeta)
    golden: Dump | None = None
    target: Dump | None = None
    pairing: Pairing | None = None
    model_facts: GraphFacts | None = field(default=None, repr=False)
    """The parsed ONNX model the comparison was built with (``meta.model``)."""
    atc: AtcGraph | None = field(default=None, repr=False)
    """The parsed vendor (ATC) graph the comparison was built with (``meta.graph``)."""

    @property
    def has_tensors(self) -> bool:
        return self.golden is not None and self.target is not None

    @property
    def warnings(self) -> list[str]:
        """The comparison's own warnings (pairing, shapes, dtypes), from ``meta.warnings``."""
        return list(self.meta.warnings or ())

    def load_pair(self, row: int) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The tensors behind frame row ``row`` (None for a missing side).

        Raises TensorReadError when a side cannot be read, or when the comparison was
        reopened from a saved file and has no tensors.
        """
        if self.golden is None or self.target is None:
            raise TensorReadError(
                "this comparison was reopened from a saved file: its tensors are not available"
            )
        assert self.pairing is not None  # frame rows are the pairing's pairs, in order
        pair = self.pairing.pairs[row]
        g = pair.golden.load() if pair.golden is not None else None
        t = pair.target.load() if pair.target is not None else None
        return g, t

    def first_divergent(self) -> int | None:
        """Row position (in :attr:`frame`) of the first fail/error row in topological order, or None.
        The ``#`` the CLI and the UI print is that row's ``index``: :meth:`first_divergent_index`."""
        return judge.first_divergent(self.frame)

    def first_divergent_index(self) -> int | None:
        """The topological index (the ``#`` every output prints) of the first divergent row, or None."""
        row = self.first_divergent()
        return None if row is None else int(self.frame["index"][row])

    def health_counts(self) -> dict[str, int]:
        return judge.health_counts(self.frame)

    def unmatched(self) -> pl.DataFrame:
        """Every tensor without a partner, per side, with the reason."""
        rows = []
        if self.pairing is not None:
            for side, pairs in (
                ("golden", self.pairing.unmatched_golden),
                ("target", self.pairing.unmatched_target),
            ):
                for p in pairs:
                    ref = p.golden or p.target
                    assert ref is not None
                    rows.append({"side": side, "name": ref.name, "kind": ref.info.kind, "reason": p.how})
        elif "side" in self.frame.columns:
            rows = (
                self.frame.filter(pl.col("health") == Health.UNMATCHED)
                .select("side", "name", "kind", pl.col("message").alias("reason"))
                .to_dicts()
            )
        return pl.DataFrame(
            rows, schema={"side": pl.String, "name": pl.String, "kind": pl.String, "reason": pl.String}
        )

    def public_frame(self) -> pl.DataFrame:
        """The frame without internal bookkeeping columns."""
        return self.frame.drop([c for c in INTERNAL_COLUMNS if c in self.frame.columns])

    def save(self, path: str | Path) -> None:
        """Write the frame as Parquet, with the meta data and thresholds inside the file."""
        from dumpscope.core.atomic import atomic_path

        meta = {
            "dumpscope": json.dumps(
                {"meta": self.meta.to_dict(), "thresholds": _thresholds_json(self.thresholds)}, default=str
            )
        }
        with atomic_path(path) as tmp:
            self.frame.write_parquet(tmp, metadata=meta)

    @classmethod
    def open(cls, path: str | Path) -> Comparison:
        """Reopen a saved comparison (no tensors: ``has_tensors`` is False)."""
        frame = pl.read_parquet(path)
        info = json.loads(pl.read_parquet_metadata(path).get("dumpscope", "{}"))
        info = info if isinstance(info, dict) else {}  # odd metadata: the frame alone
        meta = info.get("meta")
        th = _thresholds_from_json(info.get("thresholds"))
        frame = _conform(frame)
        saved = ComparisonMeta.from_dict(meta if isinstance(meta, dict) else {})
        return cls(frame=frame, thresholds=th, meta=replace(saved, reopened=str(path)))

    @classmethod
    def from_frame(
        cls,
        frame: pl.DataFrame,
        meta: ComparisonMeta | Mapping[str, object] | None = None,
        thresholds: Thresholds | None = None,
    ) -> Comparison:
        """Wrap a frame (missing columns are added as nulls); for tests and imports (``meta`` may
        be a plain mapping, read once by :meth:`ComparisonMeta.from_dict`)."""
        if not isinstance(meta, ComparisonMeta):
            meta = ComparisonMeta.from_dict(meta or {})
        return cls(frame=_conform(frame), thresholds=thresholds or Thresholds(), meta=meta)


def _conform(frame: pl.DataFrame) -> pl.DataFrame:
    missing = [pl.lit(None, dtype=dt).alias(c) for c, dt in SCHEMA.items() if c not in frame.columns]
    if missing:
        frame = frame.with_columns(missing)
    if "health" in frame.columns:
        frame = frame.with_columns(pl.col("health").fill_null("ok"))
    return frame.select([*SCHEMA, *[c for c in frame.columns if c not in SCHEMA]])


def _thresholds_json(th: Thresholds) -> dict[str, object]:
    return {
        "preset": th.preset,
        "rtol": th.rtol,
        "atol": th.atol,
        "bands": {b: {m: [lim.warn, lim.fail] for m, lim in lims.items()} for b, lims in th.bands.items()},
    }


def _thresholds_from_json(data: object) -> Thresholds:
    """The saved thresholds; malformed ones (a hand-edited or foreign file) give the defaults."""
    if not isinstance(data, dict):
        return Thresholds()
    try:
        bands = {
            b: {m: judge.Limit(*v) for m, v in lims.items()} for b, lims in data.get("bands", {}).items()
        }
        rtol, atol = float(data.get("rtol", 1e-3)), float(data.get("atol", 1e-5))
    except (TypeError, ValueError, AttributeError):
        return Thresholds()
    return Thresholds(
        preset=str(data.get("preset", "auto")), bands=bands or Thresholds().bands, rtol=rtol, atol=atol
    )
