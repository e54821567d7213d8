"""Root causes of a comparison: which node broke the target, with the numbers, and the fix.

``diagnose(cmp)`` reasons over the comparison frame it is given (no tensor is read twice):

1. **Edges** (:mod:`~dumpscope.core.diagnosis.edges`): each row's inputs, from the dump
   manifest, the ONNX graph or the ATC graph.
2. **Origin** (:mod:`~dumpscope.core.diagnosis.classify`): per row, its error against
   the worst error among its inputs: introduced, inherited, clean or unknown; the first
   NaN/Inf; jump vs drift along the topological order.
3. **Evidence** (:mod:`~dumpscope.core.diagnosis.checks`) for the strongest candidates
   only: range and overflow checks on their golden inputs, outputs and constants, the
   fp16 conversion's clamp records, decoded Opdebug records
   (:mod:`~dumpscope.core.diagnosis.vendor_facts`), fused ops, quantisation.
4. **Ranking and advice** from known porting fixes: clip before an overflowing exp or
   keep it in fp32, disable the fusion pattern, INT16 for a badly quantised layer, align
   pre-processing when the inputs already differ, with
   the ``dumpscope patch`` command when one applies (:mod:`~dumpscope.core.diagnosis.patch_commands`).
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import ml_dtypes
import numpy as np
import polars as pl

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.result import Comparison, Row, row_at
from dumpscope.core.comparison.shapes import RETRY_COSINE, Layout
from dumpscope.core.diagnosis.advice import TargetKind, advice_for, target_kind, vendor_remedy
from dumpscope.core.diagnosis.checks import (
    JUMP_FACTOR,
    WIDE_RANGE,
    CheckContext,
    Finding,
    PatchAction,
    check_row,
    clamp_records,
    consumers_of,
    quant_params,
)
from dumpscope.core.diagnosis.checks import advice as check_advice
from dumpscope.core.diagnosis.checks.base import clamp_max_abs
from dumpscope.core.diagnosis.checks.quantisation import output_step
from dumpscope.core.diagnosis.classify import (
    LEVEL_WORD,
    ClassRow,
    Trend,
    class_rows,
    classify_frame,
    nan_origin,
    trend,
)
from dumpscope.core.diagnosis.edges import Edges, build_edges, graph_sources
from dumpscope.core.diagnosis.effects import cause_share, constant_row_share, measured
from dumpscope.core.diagnosis.layout import row_layout
from dumpscope.core.diagnosis.msprobe import diagnose_msprobe, is_msprobe
from dumpscope.core.diagnosis.patch_commands import model_node_names, model_path, patch_commands
from dumpscope.core.diagnosis.replay import (
    MAX_REPLAYS,
    Replay,
    Replayer,
    replay_rows,
)
from dumpscope.core.diagnosis.subgraph import model_source
from dumpscope.core.diagnosis.vendor_facts import listed_field, manifest_of, opdebug_records
from dumpscope.core.diagnosis.verdict import Diagnosis, RootCause, row_info
from dumpscope.core.names import display
from dumpscope.core.onnx.graph import GraphFacts
from dumpscope.core.vendor.atc_graph import AtcGraph
from dumpscope.core.vendor.fusion import fused_ops
from dumpscope.core.vendor.opdebug import OverflowRecord
from dumpscope.core.vocabulary import DIVERGENT, FINDING_CLASS, Health, divergent_rows, is_divergent

if TYPE_CHECKING:
    from dumpscope.core.onnx.runner import OnProgress

#: Healths of a run that fails (a healthy run has root causes only where a row leaves its own band).
#: Candidates whose tensors the checks read (the strongest by the frame's numbers).
MAX_CHECKED = 12
MAX_CAUSES = 10
#: Suspects replayed first, in the order of their numbers; then the top causes not yet replayed
#: (:func:`_root_causes`), up to the replay module's work bound :data:`MAX_REPLAYS`.
FIRST_REPLAYS = 16
REPLAYED_TOP = 3
#: A quantised layer is listed as losing precision from this SQNR loss (dB) on, or when unhealthy.
MIN_LOSS_DB = 1.0

#: Advice each registered check brings for the kind of evidence it reports (``Finding.cause``).
ADVICE: dict[str, str] = check_advice()


def classify(cmp: Comparison, graph: GraphFacts | str | Path | None = None) -> pl.DataFrame:
    """Per frame row (same order): ``origin`` (introduced/inherited/clean/unknown), the worst
    input (row, name, health, error), the error ``growth`` over it and ``bad_constant``."""
    sources, _ = graph_sources(cmp, graph)
    return classify_frame(cmp.frame, build_edges(cmp, sources), _graph_outputs(cmp), cmp.thresholds)


def _is_graph_input(cmp: Comparison, r: Row) -> bool:
    """A graph input (by the dump's kind, or by the model's list of inputs): never an activation."""
    if r["kind"] == "input":
        return True
    facts = cmp.model_facts
    return facts is not None and str(r["name"]) in facts.graph_inputs


def _cause_of(run: _DiagnosisRun, row: int, r: Row, findings: list[Finding], replay: Replay | None) -> str:
    """The cause class of a candidate (``vocabulary.CAUSE_CLASSES``): a graph input's, a row not
    compared, the weightiest finding's, else what the node's own numbers say."""
    if (
        r["health"] == Health.ERROR
    ):  # an input not compared is not known to differ (RKNN's snapshot without x.npy)
        return v.NOT_COMPARED
    if _is_graph_input(run.cmp, r):
        return _input_cause(run, row, findings)
    if run.layouts.get(row) is not None:  # searched by _search_layout for the strongest candidates
        return v.LAYOUT
    return _finding_cause(findings) or _node_cause(run, row, r, replay)


def _search_layout(run: _DiagnosisRun, k: int, row: int, r: Row) -> None:
    """Search the axis order in which a node's output holds the golden's values (into
    ``run.layouts``): for the :data:`MAX_CHECKED` strongest candidates that introduced their
    error and agree poorly as compared, a bound by count, not by time."""
    cosine = r.get("cosine_similarity")
    if k >= MAX_CHECKED or run.classes["origin"][row] not in ("introduced", "unknown"):
        return
    if cosine is None or cosine < RETRY_COSINE:
        run.permutation(row)


def _input_cause(run: _DiagnosisRun, row: int, findings: list[Finding]) -> str:
    """A differing graph input: quantised (a SigmaStar fixed.sim's input), a layout, or pre-processing."""
    if any(f.cause == "quantisation" for f in findings):
        return v.QUANTISATION
    return v.LAYOUT if run.permutation(row) is not None else v.PREPROCESSING


def _weightiest(findings: list[Finding]) -> Finding | None:
    """The finding with the largest weight, None when no finding weighs anything."""
    weighty = [f for f in findings if f.weight > 0]
    return max(weighty, key=lambda f: f.weight) if weighty else None


def _finding_cause(findings: list[Finding]) -> str | None:
    """The class of the weightiest finding's kind of evidence (None without weighty findings)."""
    top = _weightiest(findings)
    return FINDING_CLASS.get(top.cause, v.OPERATOR) if top else None


def _node_cause(run: _DiagnosisRun, row: int, r: Row, replay: Replay | None) -> str:
    """A node with no weighty finding: the first NaN/Inf, drift (a faithful replay, or where the
    drift leaves the band), else its precision band's class."""
    if row == run.nan_row:
        return v.NAN_ORIGIN
    if (replay is not None and replay.faithful) or run.shape.marks(row, "drift"):
        return v.DRIFT
    return _BAND_CAUSE.get(r["band"] or "", v.OPERATOR)


#: The class of an error a node introduces with no other evidence: its precision band's.
_BAND_CAUSE = {"int8": v.QUANTISATION, "int16": v.QUANTISATION, "fp16": v.PRECISION, "bf16": v.PRECISION}


def _error_words(err: float | None, infinite: str, missing: str) -> str:
    """A relative error in words (``infinite`` for NaN/Inf on one side)."""
    if err is None:
        return missing
    return infinite if math.isinf(err) else f"relative error {err:.3g}"


def _origin_sentence(r: Row, c: ClassRow, has_graph: bool = False) -> str:
    here = _error_words(c["error"], "NaN/Inf on one side only", "no error measure")
    if r["kind"] in ("input", "constant") and r["health"] == Health.ERROR:
        return f"{'an input' if r['kind'] == 'input' else 'a constant'} that could not be compared"
    if r["kind"] in ("input", "constant"):
        return f"{'an input' if r['kind'] == 'input' else 'a constant'} that already differs ({here})"
    if c["worst_input"] is None:
        return _no_input_sentence(c, here, has_graph)
    there = _error_words(c["worst_input_error"], "NaN/Inf", "n/a")
    scale, health, own = _scale_words(r, c)
    return (
        f"{_origin_words(c)}{scale}: worst input {display(str(c['worst_input']))!r} is "
        f"{c['worst_input_health']} ({there}); "
        f"this output is {health} ({here}{_grown(c['growth'])}){own}"
    )


def _scale_words(r: Row, c: ClassRow) -> tuple[str, str, str]:
    """A row judged with its inputs in a stricter band than its own (classify's one scale per node): that
    band in words, the row's health there, and its own band's verdict when it differs; else ('', its
    health, '')."""
    band, level = c.get("judged_band"), c.get("judged_level")
    if not band or level is None:
        return "", str(r["health"]), ""
    health = LEVEL_WORD.get(level, str(r["health"]))
    scale = f" (judged in the {band} band, the strictest of this row's and its inputs')"
    own = f", {r['health']} in its own {r.get('band')} band" if health != r["health"] else ""
    return scale, health, own


def _origin_words(c: ClassRow) -> str:
    """How the classification reads the row: introduced here, or (a candidate for another reason) where an
    inherited error grows, or inherited."""
    if c["origin"] == "introduced":
        return "introduced here"
    growth = c["growth"]
    grows = isinstance(growth, float) and math.isfinite(growth) and growth > 1
    return f"{c['origin']}, the error grows here" if grows else str(c["origin"])


def _grown(growth: float | None) -> str:
    """How many times its worst input's error a row's is, when it grew (else empty)."""
    return (
        f", {growth:.3g}x its worst input's"
        if growth is not None and math.isfinite(growth) and growth > 1
        else ""
    )


def _no_input_sentence(c: ClassRow, here: str, has_graph: bool) -> str:
    if c["bad_constant"]:
        return f"its only bad input is the constant {display(str(c['bad_constant']))!r}; this output: {here}"
    if has_graph:
        return f"this output: {here}; its inputs are not compared rows (not dumped, or without a partner)"
    return (
        f"this output: {here}; its inputs are unknown or not compared (give --model or --graph to judge them)"
    )


def _candidate_rows(
    cmp: Comparison, classes: pl.DataFrame, opdebug: dict[str, list[OverflowRecord]], shape: Trend
) -> pl.Expr:
    """Rows that may be root causes: introduced ones; the first divergent row when its inputs
    are unknown (a dump without graph facts still gets an answer); unhealthy rows whose target
    op has an Opdebug record; the row where a drift first leaves the band (it inherits its error,
    so names the drift, never a culprit)."""
    rows = _opdebug_rows(cmp, classes, opdebug)
    if shape.kind == "drift" and shape.row is not None:
        rows.add(shape.row)
    first = cmp.first_divergent()
    if first is not None and classes["origin"][first] == "unknown":
        rows.add(first)
    # An empty tensor holds no value that could be wrong: never a root cause (a `[0]` Resize roi).
    empty = np.flatnonzero(
        (cmp.frame["size"] == 0).fill_null(False).to_numpy()
    ).tolist()  # not a Python object per row
    introduced = pl.col("origin") == "introduced"
    if not cmp.frame["health"].is_in(sorted(DIVERGENT)).any():
        # A row within its own band introduces an error only as judged on its inputs' stricter scale
        # (classify): it is a root cause of the failures that error brings, never of a run with none.
        introduced = introduced & (pl.col("level") > 0)
    return (introduced | pl.col("row").is_in(sorted(rows))) & ~pl.col("row").is_in(empty)


def _opdebug_rows(
    cmp: Comparison, classes: pl.DataFrame, opdebug: dict[str, list[OverflowRecord]]
) -> set[int]:
    """Unhealthy rows whose target op has an Opdebug record."""
    if not opdebug or cmp.pairing is None:
        return set()
    ops = [p.target.info.node_name if p.target is not None else None for p in cmp.pairing.pairs]
    levels = classes["level"].fill_null(0).to_list()
    return {i for i, (op, level) in enumerate(zip(ops, levels, strict=False)) if op in opdebug and level > 0}


def _preliminary(c: ClassRow, first: int | None, nan_row: int | None) -> float:
    """A candidate's score from its numbers: its level (on its inputs' scale), how much it grew its input's
    error, and a bonus for the first divergent row and for the first NaN/Inf."""
    # judged with its inputs on a stricter band's scale (classify), a row's level is the one there
    level = max(c["level"] or 0, c.get("judged_level") or 0)
    score = _level_score(level) + _growth_bonus(c["growth"])
    if c["row"] == first:
        score += 0.1
    if c["row"] == nan_row:
        score += 0.1
    return score


def _level_score(level: int | None) -> float:
    """0.5 for a failing row (level 2 and up), else 0.25."""
    return 0.5 if (level or 0) >= 2 else 0.25


def _growth_bonus(growth: float | None) -> float:
    """Up to 0.15 for an error grown over the worst input's (full from 1000x, or NaN/Inf), 0.05
    when there is no growth to judge."""
    if growth is None or math.isnan(growth):
        return 0.05
    if math.isinf(growth):
        return 0.15
    return 0.15 * min(1.0, math.log10(max(growth, 1.0)) / 3) if growth > 1 else 0.0


@dataclass(frozen=True)
class _DiagnosisRun:
    """What every step of one diagnosis shares."""

    cmp: Comparison
    edges: Edges
    classes: pl.DataFrame
    shape: Trend
    nan_row: int | None
    ctx: CheckContext
    model: str | None
    nodes: frozenset[str] | None
    kind: TargetKind = field(default_factory=TargetKind)
    replayer: Replayer | None = None
    replays: dict[int, Replay] = field(default_factory=dict)
    layouts: dict[int, Layout | None] = field(default_factory=dict)
    """Row -> the axis order decisively aligning its target with the golden (searched once)."""

    def permutation(self, row: int) -> Layout | None:
        if row not in self.layouts:
            self.layouts[row] = row_layout(self.cmp, row)
        return self.layouts[row]


def diagnose(
    cmp: Comparison,
    graph: GraphFacts | str | Path | None = None,
    *,
    limit: int = MAX_CAUSES,
    progress: OnProgress | None = None,
    replay: bool = True,
) -> Diagnosis:
    """Rank the root causes of ``cmp``'s unhealthy rows (see the module docstring).

    ``graph``: graph facts, an ONNX model path or an ATC graph JSON; by default the model
    or graph the comparison was made with, and the dump manifests' own node inputs.
    ``progress(done, total)`` is called after each replay of a suspect node; ``replay=False``
    skips the replays (introduced vs inherited is then judged from the errors alone).
    An msprobe statistics comparison is diagnosed by its first divergence
    (:func:`~dumpscope.core.diagnosis.msprobe.diagnose_msprobe`).
    """
    if is_msprobe(cmp):
        return diagnose_msprobe(cmp)
    frame = cmp.frame
    counts = cmp.health_counts()
    healthy = not is_divergent(counts)
    warnings = _warnings(cmp)
    opdebug, overflow_lines = opdebug_records(cmp)
    run = _prepare(cmp, graph, opdebug)
    ranked = _ranked_candidates(run, opdebug)
    run = replace(run, replays=_replays(run, ranked, progress) if replay else {})
    causes, overflow_found = _root_causes(run, ranked, replay)
    causes = _with_vendor_cause(cmp, causes)
    overflow_lines += overflow_found + _clamp_lines(run.ctx) + frame_range_findings(frame)
    first_info = _first_info(cmp, run.classes)
    summary = _summary(cmp, causes, first_info, run.shape, warnings, healthy, counts)
    return Diagnosis(
        root_causes=tuple(causes[:limit]),
        first_divergent=first_info,
        summary=summary,
        classification=_with_replays(run.classes, run.replays),
        trend=run.shape,
        nan_origin=run.nan_row,
        overflow=tuple(dict.fromkeys(overflow_lines)),
        quantisation=_quantisation_losses(cmp, run.classes),
        warnings=warnings,
        edges_source=run.edges.source,
        healthy=healthy,
        counts=counts,
        replays=run.replays,
    )


def _with_vendor_cause(cmp: Comparison, causes: list[RootCause]) -> list[RootCause]:
    """The cause the target's own per-layer replay names (RKNN's "single" column) first; our
    cause for the same row gives way to it (see :mod:`~dumpscope.core.diagnosis.rknn`)."""
    from dumpscope.core.diagnosis.rknn import vendor_cause

    vendor = vendor_cause(cmp)
    return causes if vendor is None else [vendor, *(c for c in causes if c.row != vendor.row)]


def _warnings(cmp: Comparison) -> tuple[str, ...]:
    """The comparison's own warnings (pairing, shapes, dtypes)."""
    return tuple(cmp.warnings)


def _root_causes(
    run: _DiagnosisRun, ranked: list[tuple[float, ClassRow]], replay: bool = False
) -> tuple[list[RootCause], list[str]]:
    """Every candidate as a root cause, best first (one drift entry), and the overflow findings they
    brought.  With ``replay``, the top :data:`REPLAYED_TOP` causes are replayed when they were not
    yet (a candidate ranked low by its numbers may rise once checked): each is judged again with its
    replay, until the top ones are all replayed or the work bound is reached."""
    entries = {int(c["row"]): (k, score, c) for k, (score, c) in enumerate(ranked)}
    judged = {row: _root_cause(run, k, score, c) for row, (k, score, c) in entries.items()}
    while replay and run.replayer is not None and (row := _unreplayed_top(run, judged)) is not None:
        run.replays.update(replay_rows(run.replayer, [row]))
        judged[row] = _root_cause(run, *entries[row])
    causes = [cause for cause, _ in judged.values()]
    overflow = [
        f.text
        for _, findings in judged.values()
        for f in findings
        if FINDING_CLASS.get(f.cause) == v.OVERFLOW and f.weight > 0
    ]
    return _best_first(causes), overflow


def _best_first(causes: list[RootCause]) -> list[RootCause]:
    """Root causes by score, then row (one drift entry)."""
    return _one_drift(sorted(causes, key=lambda c: (-c.score, c.row)))


def _unreplayed_top(run: _DiagnosisRun, judged: dict[int, tuple[RootCause, list[Finding]]]) -> int | None:
    """The best-ranked of the top :data:`REPLAYED_TOP` causes that can be replayed and was not, while
    fewer than :data:`MAX_REPLAYS` rows are; else None."""
    if run.replayer is None or len(run.replays) >= MAX_REPLAYS:
        return None
    top = _best_first([cause for cause, _ in judged.values()])[:REPLAYED_TOP]
    return next((c.row for c in top if c.row not in run.replays and _replayable(run, c.row)), None)


def _first_info(cmp: Comparison, classes: pl.DataFrame) -> dict[str, object] | None:
    """The first divergent row in words (None when every row is healthy)."""
    first = cmp.first_divergent()
    return row_info(cmp.frame, classes["origin"], first) if first is not None else None


def _with_replays(classes: pl.DataFrame, replays: dict[int, Replay]) -> pl.DataFrame:
    """The classification with a ``replay`` column: each replayed row's verdict (null elsewhere)."""
    if not replays:  # one broadcast null, not a Python list and a column of 100k nulls
        return classes.with_columns(pl.lit(None, pl.String).alias("replay"))
    verdicts: list[str | None] = [None] * classes.height
    for row, rep in replays.items():
        verdicts[row] = rep.verdict
    return classes.with_columns(pl.Series("replay", verdicts, dtype=pl.String))


def _one_drift(causes: list[RootCause]) -> list[RootCause]:
    """Accumulated drift names no culprit: one entry for it (the earliest row), not one per layer."""
    drift = [c for c in causes if c.cause == v.DRIFT]
    first = min(drift, key=lambda c: c.row, default=None)
    return [c for c in causes if c.cause != v.DRIFT or c is first]


def _graph_outputs(cmp: Comparison) -> frozenset[str]:
    """The model's graph outputs (empty without a model)."""
    return frozenset(cmp.model_facts.graph_outputs) if cmp.model_facts is not None else frozenset()


def _prepare(
    cmp: Comparison, graph: GraphFacts | str | Path | None, opdebug: dict[str, list[OverflowRecord]]
) -> _DiagnosisRun:
    """Edges, origins, trend, check context and replayer of one diagnosis."""
    sources, atc = graph_sources(cmp, graph)
    edges = build_edges(cmp, sources)
    classes = classify_frame(cmp.frame, edges, _graph_outputs(cmp), cmp.thresholds)
    ctx = _check_context(cmp, edges, opdebug, atc)
    src = model_source(cmp)
    model = model_path(cmp)
    return _DiagnosisRun(
        cmp,
        edges,
        classes,
        trend(cmp.frame, classes),
        nan_origin(cmp.frame, classes),
        ctx,
        model,
        model_node_names(cmp, model),
        target_kind(cmp),
        Replayer(cmp, src, ctx.fused) if src is not None else None,
    )


def _replays(
    run: _DiagnosisRun, ranked: list[tuple[float, ClassRow]], progress: OnProgress | None
) -> dict[int, Replay]:
    """Replay the strongest suspects that are node outputs (not inputs, constants or errors)."""
    if run.replayer is None:
        return {}
    rows = [row for _, c in ranked if _replayable(run, row := int(c["row"]))]
    return replay_rows(run.replayer, rows, limit=FIRST_REPLAYS, progress=progress)


def _replayable(run: _DiagnosisRun, row: int) -> bool:
    """A node output that was compared (not an input, a constant or an error row)."""
    frame = run.cmp.frame
    return frame["kind"][row] == "activation" and frame["health"][row] != Health.ERROR


def _check_context(
    cmp: Comparison, edges: Edges, opdebug: dict[str, list[OverflowRecord]], atc: AtcGraph | None
) -> CheckContext:
    """The vendor facts the checks read: clamp records, Opdebug records, fused ops."""
    manifest = manifest_of(cmp.target)
    return CheckContext(
        cmp,
        edges,
        clamped=clamp_records(listed_field(manifest.get("clamped"))),
        opdebug=opdebug,
        fused=fused_ops(atc, manifest),
    )


def _permuted_inputs(run: _DiagnosisRun) -> list[int]:
    """Graph inputs fed in the model's shape but with their axes permuted: a layout mismatch even
    when the comparison, aligning the axes, finds the values equal (a tensor merely *stored* in
    another layout has another shape and is no fault)."""
    frame = run.cmp.frame.select("name", "kind", "shape", "target_shape").with_row_index("_row")
    rows = frame.filter(_maybe_graph_input(run.cmp) & pl.col("shape").is_not_null())["_row"].to_list()
    return [row for row in rows if _permuted_input(run, row, row_at(run.cmp.frame, row))]


def _maybe_graph_input(cmp: Comparison) -> pl.Expr:
    """Rows :func:`_is_graph_input` may accept (it decides): only these become Python objects,
    not every row of a 100k-row frame."""
    facts = cmp.model_facts
    inputs = list(facts.graph_inputs) if facts is not None else []
    return (
        (pl.col("kind") == "input").fill_null(False) | pl.col("name").is_in(inputs) | pl.col("name").is_null()
    )


def _permuted_input(run: _DiagnosisRun, row: int, r: Row) -> bool:
    """A graph input of the model's shape whose target aligns with the golden only with its axes permuted."""
    if not _is_graph_input(run.cmp, r) or r["shape"] is None:
        return False
    return r["shape"] == r["target_shape"] and run.permutation(row) is not None


def _ranked_candidates(
    run: _DiagnosisRun, opdebug: dict[str, list[OverflowRecord]]
) -> list[tuple[float, ClassRow]]:
    """Candidate rows with their preliminary score, best first.  A constant read by a compared node is
    no candidate of its own: it is evidence at that node (the ``weights`` and ``constants`` checks)."""
    permuted = _permuted_inputs(run)
    rows = (
        _candidate_rows(run.cmp, run.classes, opdebug, run.shape)
        | pl.col("row").is_in(permuted)
        | _quantised_jumps(run)
    )
    candidates = run.classes.filter(rows & ~pl.col("row").is_in(_consumed_constants(run.edges)))
    first_introduced = int(candidates["row"][0]) if candidates.height else None
    prelim = [(_preliminary(c, first_introduced, run.nan_row), c) for c in class_rows(candidates)]
    prelim.sort(key=lambda sc: (-sc[0], sc[1]["row"]))
    return prelim


def _quantised_jumps(run: _DiagnosisRun) -> pl.Expr:
    """Unhealthy rows of an 8-bit target grid whose error grows :data:`JUMP_FACTOR` times over their worst
    input's: the quantisation check judges whether their grid is too wide (an inherited row may still be
    where the error jumps)."""
    hits = ((run.classes["growth"] >= JUMP_FACTOR) & (run.classes["level"] > 0)).fill_null(False).to_numpy()
    rows = [
        int(r)
        for r in np.flatnonzero(hits)
        if (quant_params(run.cmp, int(r)) or (0, 0, ""))[2] in ("uint8", "int8")
    ]
    return pl.col("row").is_in(rows)


def _consumed_constants(edges: Edges) -> list[int]:
    """Rows of constants that a compared row reads."""
    e = edges.frame
    return e.filter(e["constant"])["input_row"].unique().sort().to_list() if e.height else []


def _root_cause(run: _DiagnosisRun, k: int, score: float, c: ClassRow) -> tuple[RootCause, list[Finding]]:
    """One candidate as a root cause: checked (the strongest only), replayed, measured, explained, advised."""
    row = int(c["row"])
    r = row_at(run.cmp.frame, row)
    replay = run.replays.get(row)
    findings = _findings(run, k, row, str(r["target_dtype"] or ""))
    _search_layout(run, k, row, r)
    cause = _cause_of(run, row, r, findings, replay)
    effect = (
        _constant_row_effect(run, row, r) if r["kind"] == "constant" else cause_share(findings, replay, cause)
    )
    commands = _commands(run, cause, r, findings)
    total = _score(cause, score + min(0.3, sum(f.weight for f in findings)) + _jump_bonus(findings), effect)
    return RootCause(
        row=row,
        name=str(r["name"]),
        node_name=r["node_name"],
        op_type=r["op_type"],
        index=r["index"],
        kind=r["kind"],
        cause=cause,
        score=round(min(1.0, total), 3),
        evidence=tuple(_evidence(run, row, r, c, findings, cause)),
        advice=_advice(run, cause, _detail(findings), commands, replay, r["node_name"]),
        commands=tuple(commands),
        replay=replay,
        effect=effect,
    ), findings


def _findings(run: _DiagnosisRun, k: int, row: int, dtype: str) -> list[Finding]:
    """The checks' findings on the ``k``-th candidate (the :data:`MAX_CHECKED` strongest only, and only
    with tensors to read), each with its effect measured by replay."""
    if k >= MAX_CHECKED or not run.cmp.has_tensors:
        return []
    replay = run.replays.get(row)
    error = run.classes["error"][row]
    return [measured(f, replay, run.replayer, row, error, dtype) for f in check_row(run.ctx, row)]


#: Where the error jumps at a quantised layer whose grid is too wide, the problem starts (seed 004 §3.2.5):
#: it outranks the first layer of a slow decline and the layers that inherit the jump.
JUMP_BONUS = 0.2


def _jump_bonus(findings: list[Finding]) -> float:
    return JUMP_BONUS if any(f.cause == "quantisation-jump" and f.weight > 0 for f in findings) else 0.0


def _detail(findings: list[Finding]) -> str | None:
    """The kind of evidence the advice follows: a range too wide for 8 bits wins (INT16 helps
    exactly then), else the weightiest finding's."""
    weighty = [f for f in findings if f.weight > 0]
    if any(f.cause in ("quantisation-wide", "quantisation-jump") for f in weighty):
        return "quantisation-wide"
    return max(weighty, key=lambda f: f.weight).cause if weighty else None


def _score(cause: str, score: float, effect: float | None) -> float:
    """A candidate's score: graph inputs first; no cause above the share of the error it explains."""
    if cause in (v.PREPROCESSING, v.LAYOUT):
        return 1.0
    if cause == v.DRIFT:
        return min(score, 0.2)
    if effect is None or cause == v.NAN_ORIGIN:
        return score
    return score * min(1.0, max(effect, 0.05))


def _constant_row_effect(run: _DiagnosisRun, row: int, r: Row) -> float | None:
    """A differing constant's measured share of its unhealthy consumers' error."""
    if run.replayer is None:
        return None
    levels, errors = run.classes["level"].fill_null(0), run.classes["error"]
    consumers = [(c, errors[c]) for c in consumers_of(run.ctx, row) if levels[c] > 0]
    return constant_row_share(run.replayer, str(r["name"]), str(r["target_dtype"] or ""), consumers)


def _evidence(
    run: _DiagnosisRun, row: int, r: Row, c: ClassRow, findings: list[Finding], cause: str
) -> list[str]:
    """The sentences that support a root cause, strongest first."""
    has_graph = run.cmp.model_facts is not None or run.model is not None
    evidence = [
        f"{r['health']}: {r['message']}" if r["message"] else str(r["health"]),
        _origin_sentence(r, c, has_graph),
    ]
    evidence += _how_sentences(run, row, r, cause)
    evidence += [f.text for f in findings]
    unresolved = run.edges.unresolved.get(row)
    if unresolved:
        evidence.append("inputs not compared: " + ", ".join(repr(display(n)) for n in unresolved[:5]))
    return evidence


def _how_sentences(run: _DiagnosisRun, row: int, r: Row, cause: str | None = None) -> list[str]:
    """What the row is and how it broke: a graph input, its replay (in the terms of its ``cause``), the
    first NaN/Inf, the trend."""
    evidence = []
    if _is_graph_input(run.cmp, r) and r["health"] != Health.ERROR:
        evidence.append(_input_sentence(run, row))
    elif (layout := run.layouts.get(row)) is not None:
        evidence.append(_layout_sentence(layout))
    if row in run.replays:
        step = output_step(run.ctx, row) if cause == v.QUANTISATION and run.cmp.has_tensors else None
        evidence.append(run.replays[row].sentence(cause, step))
    if row == run.nan_row:
        evidence += _nan_sentences(run, row, r)
    if run.shape.marks(row, "drift", "jump"):
        evidence.append(run.shape.sentence(run.cmp.frame))
    return evidence


def _nan_sentences(run: _DiagnosisRun, row: int, r: Row) -> list[str]:
    """The first NaN/Inf: the counts on both sides, and where the fault entered when the replay reproduces
    it."""
    n = {k: r[k] or 0 for k in ("nan_target", "inf_target", "nan_golden", "inf_golden")}
    return [
        f"first NaN/Inf: the target has {n['nan_target']} NaN and {n['inf_target']} Inf here "
        f"(golden {n['nan_golden']} NaN, {n['inf_golden']} Inf) while its inputs are finite",
        *_upstream_sentence(run, row),
    ]


def _upstream_sentence(run: _DiagnosisRun, row: int) -> list[str]:
    """A NaN origin whose replay reproduces the NaN/Inf: the values fed were outside the op's domain."""
    replayed = run.replays.get(row)
    worst = run.classes["worst_input"][row]
    if replayed is None or not replayed.faithful or worst is None:
        return []
    return [
        "the replay reproduces the NaN/Inf from the target's own inputs: the values fed are outside the "
        "op's "
        f"domain (a negative under a Sqrt or Log, a zero divisor); the fault entered upstream, at its worst "
        f"input {display(str(worst))!r} (and the constants that node reads)"
    ]


def _input_sentence(run: _DiagnosisRun, row: int) -> str:
    """What a differing graph input means: pre-processing, or a layout when axes align it."""
    found = run.permutation(row)
    if found is not None:
        return (
            f"a graph input: the target holds the golden values with its axes permuted "
            f"(order {found.order()}; {found.agreement()}): a layout mismatch"
        )
    return "a graph input, not an activation: the values fed differ (pre-processing), no node computed them"


def _layout_sentence(found: Layout) -> str:
    """A node's output in another axis order, with what was measured under it."""
    same = "; the same values, moved" if found.exact else ""
    return (
        f"the target's output holds the golden's values with its axes permuted (order {found.order()}; "
        f"{found.agreement()}{same}): computed or reshaped in another axis order "
        f"(e.g. NHWC data read as NCHW), not a different computation"
    )


def _commands(run: _DiagnosisRun, cause: str, r: Row, findings: list[Finding]) -> list[str]:
    """``dumpscope patch`` commands for the fixes the findings (and the cause) suggest; keeping a
    node in fp32 only for a target that runs in a reduced float type."""
    fixes = [fx for f in findings if f.weight > 0 for fx in f.fixes]
    if _keeps_fp32(cause, r):
        fixes.append(PatchAction(str(r["node_name"]), keep_fp32=True))
    if not run.kind.reduced_float:
        fixes = [fx for fx in fixes if not fx.keep_fp32]
    return patch_commands(fixes, run.model, run.nodes) if fixes else []


def _keeps_fp32(cause: str, r: Row) -> bool:
    """A precision loss or NaN origin in a reduced float band, at a named node: keeping it in fp32 may fix
    it."""
    return cause in (v.PRECISION, v.NAN_ORIGIN) and r["band"] in ("fp16", "bf16") and bool(r["node_name"])


def _advice(
    run: _DiagnosisRun,
    cause: str,
    detail: str | None,
    commands: list[str],
    replay: Replay | None = None,
    node: str | None = None,
) -> str:
    text = advice_for(cause, run.kind, ADVICE, detail, replay.verdict if replay is not None else None)
    remedy = vendor_remedy(run.kind, cause, node)
    text = f"{text} {remedy}" if remedy else text
    if not commands:
        return text
    golden = shlex.quote(run.cmp.meta.golden or "GOLDEN")
    return (
        text
        + " Patch and verify: "
        + " or ".join(f"`{c}`" for c in commands)
        + ", then dump the target again from the patched model (the same inputs) and compare it with "
        f"the original golden: `dumpscope compare {golden} TARGET_PATCHED` (a golden dumped from the "
        "patched model shows only that the target follows the patch, not how far it is from the "
        "original)."
    )


def _clamp_lines(ctx: CheckContext) -> list[str]:
    """One line per fp16 clamp record of the target manifest."""
    return [
        f"fp16 conversion: {rec.get('action')} {rec.get('count')} value(s) of constant {display(name)!r} "
        f"(largest |x| {clamp_max_abs(rec):.6g})"
        for name, recs in ctx.clamped.items()
        for rec in recs
    ]


#: Largest finite value of the float types a target may run in.
FLOAT_MAX = {"float16": 65504.0, "bfloat16": float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)}


def frame_range_findings(frame: pl.DataFrame, limit: int = 20) -> list[str]:
    """Rows whose golden values (the frame's min/max, no tensor read) reach the maximum of the
    target's float type: likely overflows even where nothing is Inf yet."""
    top = pl.col("target_dtype").replace_strict(FLOAT_MAX, default=None, return_dtype=pl.Float64)
    reach = pl.max_horizontal(pl.col("min_golden").abs(), pl.col("max_golden").abs())
    hits = frame.select(
        "index", "name", "kind", "target_dtype", reach.alias("reach"), top.alias("top")
    ).filter(pl.col("top").is_not_null() & (pl.col("reach") >= pl.col("top")))
    lines = [
        f"golden {r['kind']} #{r['index']} {display(str(r['name']))!r} reaches |x| {r['reach']:.6g}, "
        f"at or beyond the {r['target_dtype']} maximum {r['top']:g}"
        for r in hits.head(limit).iter_rows(named=True)
    ]
    if hits.height > limit:
        lines.append(f"... and {hits.height - limit} more tensors beyond their target float range")
    return lines


def _quantisation_losses(
    cmp: Comparison, classes: pl.DataFrame, top: int = 5
) -> tuple[dict[str, object], ...]:
    """Quantised layers ranked by the SQNR they lose against their worst input (dB); only
    layers losing at least :data:`MIN_LOSS_DB`, or unhealthy ones."""
    q = cmp.frame.select("sqnr_db", "band", "status", "kind").with_columns(classes["worst_input_row"])
    sqnr = q["sqnr_db"].to_numpy().astype(np.float64)
    # fill_null: a frame imported or reopened from elsewhere may lack these columns' values
    mask = (
        ((q["band"] == "int8") & (q["status"] == "computed") & (q["kind"] == "activation"))
        .fill_null(False)
        .to_numpy()
    )
    mask &= np.isfinite(sqnr)
    if not mask.any():
        return ()
    lost = _sqnr_lost(sqnr, q["worst_input_row"].to_numpy())
    level = classes["level"].fill_null(0).to_numpy()
    rows = np.flatnonzero(mask & ((lost >= MIN_LOSS_DB) | ((lost > 0) & (level > 0))))
    rows = rows[np.argsort(-lost[rows], kind="stable")][:top]
    return tuple(_quantisation_loss(cmp, int(row), sqnr, lost, level) for row in rows)


def _sqnr_lost(sqnr: np.ndarray, worst: np.ndarray) -> np.ndarray:
    """Per row, the SQNR (dB) lost against its worst input's; NaN without an input or a finite pair
    (an infinite SQNR, an exact input, loses nothing measurable)."""
    has_in = ~np.isnan(worst.astype(np.float64))
    in_sqnr = np.full(sqnr.shape, np.nan)
    in_sqnr[has_in] = sqnr[worst[has_in].astype(np.int64)]
    lost = np.full(sqnr.shape, np.nan)
    both = np.isfinite(in_sqnr) & np.isfinite(sqnr)
    lost[both] = in_sqnr[both] - sqnr[both]
    return lost


def _quantisation_loss(
    cmp: Comparison, row: int, sqnr: np.ndarray, lost: np.ndarray, level: np.ndarray
) -> dict[str, object]:
    """One quantised layer's entry: its SQNR and loss, golden range, quantisation parameters."""
    r = row_at(cmp.frame, row)
    scale, zero_point, _ = quant_params(cmp, row) or (None, None, None)
    return {
        "row": row,
        "name": display(str(r["name"])),
        "node_name": r["node_name"],
        "op_type": r["op_type"],
        "sqnr_db": float(sqnr[row]),
        "sqnr_lost_db": float(lost[row]),
        "golden_min": r["min_golden"],
        "golden_max": r["max_golden"],
        "scale": scale,
        "zero_point": zero_point,
        "int16_advised": _int16_advised(level[row] > 0, r),
    }


def _int16_advised(unhealthy: bool, r: Row) -> bool:
    """Bad metrics *and* a golden range wider than :data:`WIDE_RANGE` still in 8 bits: the layer needs
    INT16."""
    lo, hi = r["min_golden"], r["max_golden"]
    return bool(unhealthy and lo is not None and hi is not None and hi - lo > WIDE_RANGE)


def _top_sentence(top: RootCause, healthy: bool = False) -> str:
    """The summary's sentence on the rank-1 cause (drift names no culprit).  A run with no failing row
    has no root cause of a failure: its rank 1 is the top-ranked warning.  An operator's
    implementation is named as differing only where a replay measured it; otherwise the sentence says
    that nothing explains the error there."""
    lead = "Top-ranked warning:" if healthy else "Most likely root cause:"
    if top.cause == v.DRIFT:
        replayed = top.replay is not None and top.replay.faithful
        faithful = ", which computes faithfully what it is fed (replayed)" if replayed else ""
        return (
            f"Most likely: {top.label} - no single culprit; the error accumulates and first leaves the band "
            "at "
            f"{display(top.name)!r} ({top.op_type or '?'}){faithful}."
        )
    where = f"{lead} {display(top.name)!r} ({top.op_type or '?'})"
    if top.cause == v.OPERATOR and (top.replay is None or top.replay.verdict != "differs"):
        return f"{where}: no check explains the error there (its kernel was not measured by a replay)."
    return f"{where}, {top.label}."


def _health_sentence(cmp: Comparison, healthy: bool, counts: dict[str, int]) -> str:
    """The summary's verdict: healthy (with its warnings), or how many rows fail."""
    if healthy:
        warn = counts.get(Health.WARN, 0)
        return "Healthy: every compared tensor is within its band" + (f" ({warn} warn)" if warn else "") + "."
    bad = divergent_rows(counts)
    return f"Unhealthy: {bad} of {cmp.frame.height} rows fail or could not be compared."


def _summary(
    cmp: Comparison,
    causes: list[RootCause],
    first: dict[str, object] | None,
    shape: Trend,
    warnings: tuple[str, ...],
    healthy: bool,
    counts: dict[str, int],
) -> str:
    parts = [w for w in warnings if "differs between golden and target" in w]
    parts.append(_health_sentence(cmp, healthy, counts))
    if first is not None:
        parts.append(
            f"First divergent: #{first['index']} {first['name']!r} ({first['op_type'] or '?'}), "
            f"{first['origin']}."
        )
    if causes:
        top = causes[0]
        parts.append(_top_sentence(top, healthy))
    if shape.kind != "none":
        text = shape.sentence(cmp.frame)
        parts.append(text[0].upper() + text[1:] + ".")
    from dumpscope.core.diagnosis.rknn import report_summary

    vendor = report_summary(cmp)
    return " ".join([*parts, vendor] if vendor else parts)
