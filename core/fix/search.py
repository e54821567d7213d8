"""The smallest verified fix: which nodes to keep in float32, which outputs to clip, and the other change
kinds of :class:`Change` (an input kept in float32 or clipped, int8 per-channel weights or a calibration
range), each proposed where a computed fact points at it (:mod:`dumpscope.core.fix.candidates`).

A deterministic search, bounded by a number of trials (never by the clock):

1. **baseline** - the target of the model as it is, against the original golden (trial 1);
2. **seed** - the fixes the diagnosis advises for its ranked causes (``--clip``/``--keep-fp32`` of
   its ``dumpscope patch`` commands), when an fp16 tensor overflows every node whose golden output is
   beyond the float16 range (65504: stored as inf on fp16 hardware) and each graph input beyond it kept
   in float32 or clipped to it, and the baseline's top two introducers (:meth:`FixSearch._ranked`: the
   nodes that add the most error in that one trial, an overflow to inf from finite inputs first), all at
   once (one trial);
3. **grow** - while the tolerance is not met and each step helps, add a block of the latest trial's
   ranked introducers, 2, then 4, 8, ... (doubling: n changes in about log2(n) trials), where the top
   node has another kind of change its facts point at, that first (:mod:`.candidates`; int8: its weight
   per channel or its input's calibration range; fp16/bf16: the rounded graph input it reads kept, once
   keeping it did not help); when that stops helping (the error is spread), a range of the failing
   outputs' ancestors that meets the tolerance (see :meth:`FixSearch._ranges`); a long range is first
   cut to its shortest passing run (:meth:`FixSearch._window`), the rest left to the minimisation;
4. **minimise** - delta debugging to a 1-minimal set: the changes a ranking or a range added are
   removed in chunks first (QuickXplain: the best ranked half alone first, then halves, quarters,
   ...); then each change is removed in turn and the set without it is tried; when that still meets the
   tolerance the change goes, otherwise the trial is the proof that it is needed (what breaks without
   it).  Passes repeat until no removal succeeds, so every change's proof is a trial of the final set
   minus that change (see :meth:`FixSearch._minimise`).

Each set of changes is tried at most once (trials are cached by set): a failing trial of exactly the final
set minus one change, made on the way (the baseline for a fix of one change), is that change's proof at no
further cost.  When the budget runs out, the result says how many nodes of the unmodified target each add
error (the error is spread) and keeps the smallest passing set found, marked unproven.  The tolerance is met
when every model output is within ``output`` and every marked layer within ``layer`` (relative distance,
see :mod:`dumpscope.core.fix.trial`).
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from dumpscope.core.fix.candidates import alternatives, input_overflow, outlier_ranges, rounded_inputs
from dumpscope.core.fix.change import Change, _json_float
from dumpscope.core.fix.trial import Evaluator, Measured

if TYPE_CHECKING:
    from dumpscope.core.onnx.graph import GraphFacts, NodeFacts

#: Default tolerances per target: the ``warn`` relative-distance limit of ``compare``'s band for that
#: precision (``core/comparison/judge.py``), i.e. what ``compare`` calls OK.
DEFAULT_TOLERANCE = {"fp16": 0.01, "bf16": 0.03, "int8": 0.1}
DEFAULT_BUDGET = 40

#: ``progress(trial number, budget, what the trial tries)``
FixProgress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Tolerance:
    output: float
    layer: float | None = None
    layers: tuple[str, ...] = ()
    """Marked layers (tensor names); ``("*",)`` marks every layer."""

    def marked(self, names: Sequence[str]) -> list[str]:
        return list(names) if "*" in self.layers else [n for n in self.layers if n in names]


@dataclass(frozen=True)
class Trial:
    number: int
    changes: tuple[Change, ...]
    step: str
    """``baseline``, ``seed``, ``grow``, ``minimise`` or ``bisect`` (the bench's baseline search)."""
    passed: bool
    worst_output: tuple[str, float] | None
    worst_layer: tuple[str, float] | None
    failing: tuple[tuple[str, float], ...]
    """Outputs and marked layers outside the tolerance (name, distance), in topological order."""
    error: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "trial": self.number,
            "step": self.step,
            "changes": [c.to_json() for c in self.changes],
            "passed": self.passed,
            "worst_output": _pair_json(self.worst_output),
            "worst_layer": _pair_json(self.worst_layer),
            "failing": [_pair_json(f) for f in self.failing],
            "error": self.error,
        }


def _pair_json(pair: tuple[str, float] | None) -> dict[str, object] | None:
    return None if pair is None else {"name": pair[0], "relative_distance": _json_float(pair[1])}


@dataclass(frozen=True)
class Needed:
    """Why one change of the fix is needed: the trial without it, and what it breaks."""

    change: Change
    trial: int
    breaks: tuple[tuple[str, float], ...]
    error: str | None = None


@dataclass
class FixResult:
    target: str
    tolerance: Tolerance
    budget: int
    changes: tuple[Change, ...] = ()
    found: bool = False
    minimal: bool = False
    """Proven 1-minimal: every change's removal was tried on the final set and fails."""
    before: Trial | None = None
    after: Trial | None = None
    needed: tuple[Needed, ...] = ()
    trials: list[Trial] = field(default_factory=list)
    seeds: tuple[Change, ...] = ()
    notes: list[str] = field(default_factory=list)
    reasons: dict[Change, str] = field(default_factory=dict)
    """Why the search proposed a change other than a kept node or an advised clip (the fact that points at
    it, :mod:`dumpscope.core.fix.candidates`)."""

    def to_json(self) -> dict[str, object]:
        return {
            "target": self.target,
            "found": self.found,
            "minimal": self.minimal,
            "tolerance": {
                "output": self.tolerance.output,
                "layer": self.tolerance.layer,
                "layers": list(self.tolerance.layers),
            },
            "budget": self.budget,
            "trials_made": len(self.trials),
            "changes": [c.to_json() for c in self.changes],
            "seeds": [c.to_json() for c in self.seeds],
            "before": self.before.to_json() if self.before else None,
            "after": self.after.to_json() if self.after else None,
            "needed": [
                {
                    "change": n.change.to_json(),
                    "trial": n.trial,
                    "breaks": [_pair_json(b) for b in n.breaks],
                    "error": n.error,
                    "reason": self.reasons.get(n.change),
                }
                for n in self.needed
            ],
            "trials": [t.to_json() for t in self.trials],
            "notes": list(self.notes),
        }


class _OutOfBudget(Exception):
    pass


class FixSearch:
    """The search of the module docstring over one :class:`Evaluator`."""

    def __init__(
        self,
        evaluator: Evaluator,
        tolerance: Tolerance,
        budget: int = DEFAULT_BUDGET,
        progress: FixProgress | None = None,
    ) -> None:
        if budget < 1:
            raise ValueError("the trial budget must be at least 1")
        self.ev = evaluator
        self.tol = tolerance
        self.budget = budget
        self.progress = progress
        self.outputs = [o for o in evaluator.facts.graph_outputs if o in evaluator.golden]
        self.marked = tolerance.marked(evaluator.layers)
        self.cache: dict[frozenset[Change], Trial] = {}
        self.measured: dict[frozenset[Change], Measured] = {}
        self.trials: list[Trial] = []
        self.added: list[Change] = []
        """Every change tried, in the order the search first tried it."""
        self.bulk: set[Change] = set()
        self.rank: dict[Change, int] = {}
        """Changes the growth took from a ranked list, by rank (the seeds first): minimised best first."""
        """Changes a range added all at once (:meth:`_ranges`): minimised in chunks first."""
        self.reasons: dict[Change, str] = {}
        """Why each change of another kind than ``keep`` was proposed (:mod:`.candidates`)."""

    # ------------------------------------------------------------ trials

    def trial(self, changes: Iterable[Change], step: str) -> Trial:
        if not isinstance(changes, (set, frozenset)):
            changes = tuple(changes)  # (read twice below)
        key = frozenset(changes)
        if key in self.cache:
            return self.cache[key]
        if len(self.trials) >= self.budget:
            raise _OutOfBudget
        ordered = tuple(sorted(key))
        # first tried in the order given (a set: sorted), so the growth's later additions go first
        given = ordered if isinstance(changes, (set, frozenset)) else tuple(dict.fromkeys(changes))
        self.added += [c for c in given if c not in self.added]
        if self.progress is not None:
            self.progress(len(self.trials) + 1, self.budget, f"{step}: {self._delta(key)}")
        m = self.ev.run(
            keep=[c.node for c in ordered if c.kind == "keep"],
            clip=[(c.node, c.low, c.high) for c in ordered if c.kind == "clip"],
            more=[c for c in ordered if c.kind not in ("keep", "clip")],
        )
        t = self._judge(len(self.trials) + 1, ordered, step, m)
        self.trials.append(t)
        self.cache[key] = t
        self.measured[key] = m
        return t

    def _delta(self, key: frozenset[Change]) -> str:
        """What a trial tries, relative to the last one (``+ keep 'a'``, ``- keep 'b'``), and its size."""
        last = frozenset(self.trials[-1].changes) if self.trials else frozenset()
        t = self.ev.target
        parts = [f"+ {c.text(t)}" for c in sorted(key - last)]
        parts += [f"- {c.text(t)}" for c in sorted(last - key)]
        shown = "; ".join(parts[:3]) + (f"; ... {len(parts) - 3} more" if len(parts) > 3 else "")
        return f"{shown or 'no change'} ({len(key)} change(s))"

    def _judge(self, number: int, changes: tuple[Change, ...], step: str, m: Measured) -> Trial:
        if m.error is not None:
            return Trial(number, changes, step, False, None, None, (), m.error)
        d = m.distances
        failing = [(o, d[o]) for o in self.outputs if not d[o] <= self.tol.output]
        if self.tol.layer is not None:
            layer = self.tol.layer
            failing += [(n, d[n]) for n in self.marked if n not in self.outputs and not d[n] <= layer]
        order = {n: i for i, n in enumerate(self.ev.layers)}
        failing.sort(key=lambda f: order.get(f[0], -1))
        return Trial(
            number,
            changes,
            step,
            not failing,
            _worst(d, self.outputs),
            _worst(d, self.ev.layers),
            tuple(failing),
        )

    # ------------------------------------------------------------ the search

    def run(self, seeds: Sequence[Change] = ()) -> FixResult:
        result = FixResult(
            self.ev.target,
            self.tol,
            self.budget,
            seeds=tuple(seeds),
            trials=self.trials,
            reasons=self.reasons,
        )
        if not self.outputs:
            result.notes.append("the model has no float output to judge")
            return result
        try:
            self._search(result, seeds)
        except _OutOfBudget:
            result.notes.append(f"the trial budget ({self.budget}) ran out")
            result.notes += self._spread_note(result)
        if result.after is None:
            result.after = min(self.trials, key=_badness) if self.trials else None
        return result

    def _spread_note(self, result: FixResult) -> list[str]:
        """Why no proven fix came within the budget: in the failing trial closest to the tolerance, how
        many nodes not kept still add error (:meth:`_ranked`: farther from the golden than their inputs and
        than a tenth of the tolerance; none after an infinite distance), and the passing set found, if
        any, unproven."""
        failing = [t for t in self.trials if not t.passed and t.error is None]
        if not failing:
            return []
        closest = min(failing, key=_badness)
        kept = {c.node for c in closest.changes if c.kind == "keep"}
        spread = len(self._ranked(closest, kept))
        found = (
            f"the smallest set found that meets the tolerance keeps {len(result.changes)} change(s), not "
            "proven 1-minimal"
            if result.found
            else "no set tried meets the tolerance"
        )
        where = (
            f"; the error is spread: in the failing trial closest to the tolerance (trial {closest.number}, "
            f"{len(closest.changes)} change(s)) {spread} more node(s) each add error (farther from the "
            "golden than their inputs)"
            if spread
            else ""
        )
        return [f"no small proven fix within the budget: {found}{where}"]

    def _search(self, result: FixResult, seeds: Sequence[Change]) -> None:
        base = self.trial((), "baseline")
        result.before = base
        if base.passed:
            result.found = result.minimal = True
            result.after = base
            result.notes.append("the target already meets the tolerance: nothing to change")
            return
        current = self._grow(base, seeds)
        if current is None:
            return
        result.found = True
        result.after = current
        result.changes = current.changes
        self._minimise(result)

    def _grow(self, base: Trial, seeds: Sequence[Change]) -> Trial | None:
        """Seeds (the diagnosis' advice, the fp16 overflow's nodes and the baseline's top introducers) in one
        trial, then blocks of the latest trial's ranked introducers, doubling, while each block helps; then
        (the error is spread over many nodes) a backward range; the first passing trial (None when none)."""
        seeds = list(seeds)
        overflowed = self.measured.get(frozenset(base.changes))
        if self.ev.target == "fp16" and overflowed and any(map(math.isinf, overflowed.distances.values())):
            seeds += [
                Change("keep", n.name)
                for n in self.ev.facts.nodes
                if n.op_type not in _NO_FLOAT_WORK and self._beyond_fp16(n.outputs)
            ]
            seeds += self._propose(input_overflow(self.ev))
        seeded = {c.node for c in seeds if c.kind == "keep"}
        top = [c for n in self._ranked(base, seeded)[:_SEED_TOP] for c in self._changes_for(n)]
        self.bulk |= set(top)
        for c in (*seeds, *top):
            self.rank.setdefault(c, len(self.rank))
        current = self.trial(dict.fromkeys([*seeds, *top]), "seed") if seeds or top else base
        if top and not _better(current, base):  # the top introducers did not help: not carried on
            current = self.trial(dict.fromkeys(seeds), "seed") if seeds else base
        block = _SEED_TOP
        while not current.passed:
            nxt = self._next_changes(current, block)
            if not nxt or frozenset((*current.changes, *nxt)) in self.cache:
                break  # nothing new to try (another kind of change to the node was tried and failed too)
            before = current
            current = self.trial((*current.changes, *nxt), "grow")
            self.bulk |= set(nxt)
            if not _better(current, before):
                current = before  # a block that did not help is not carried into the range; the top
                continue  # node's other kinds of change (:mod:`.candidates`) come next, when there are any
            for c in nxt:
                self.rank.setdefault(c, len(self.rank))
            block *= 2
        return current if current.passed else self._ranges(current)

    def _ranges(self, current: Trial) -> Trial | None:
        """The error is spread over many nodes: keep a range of the failing outputs' ancestors, in one trial.
        First the nodes now beyond the tolerance (trouble that starts near the input and travels, as a
        calibration range stretched by one input value); then every ancestor (rounding accumulated along
        the way); on fp16/bf16, then the graph inputs they read that storage rounding changes, kept in
        float32 (the input's own rounding is the trouble), first alone, then with every ancestor.  The
        range's changes are marked ``bulk``: minimising removes them in chunks (ddmin), which finds the few
        that matter in about log2(range) trials; None when no range meets it.  On int8, before any of
        these, every outlier-stretched activation they read calibrated to its percentile range
        (:func:`~dumpscope.core.fix.candidates.outlier_ranges`)."""
        facts = self.ev.facts
        kept = {c.node for c in current.changes if c.kind == "keep"}
        wanted = _ancestors([name for name, _ in current.failing], facts)
        usable = [
            n
            for n in facts.nodes
            if n.name in wanted and n.name not in kept and n.op_type not in _NO_FLOAT_WORK
        ]
        m = self.measured.get(frozenset(current.changes))
        floor = min(self.tol.output, self.tol.layer if self.tol.layer is not None else math.inf)
        d = m.distances if m is not None else {}
        beyond = [n.name for n in usable if any(d.get(o, 0.0) > floor for o in n.outputs)]
        everything = [n.name for n in usable]
        # int8: first every outlier-stretched activation they read, calibrated to its percentile range (the
        # nodes stay quantised); fp16/bf16: when every ancestor kept still fails, the rounded graph inputs
        # they read, kept too
        ranged = [c for c in self._propose(outlier_ranges(self.ev, usable)) if c not in current.changes]

        read = [i for n in facts.nodes if n.name in wanted for i in n.inputs]  # graph inputs among them
        inputs = [
            c
            for c in self._propose(
                rounded_inputs(self.ev, read, "every node depending on it kept still failed")
            )
            if c not in current.changes
        ]
        tried: tuple[list[str], list[Change]] | None = None
        attempts: list[tuple[list[str], list[Change]]] = [
            ([], ranged),
            (beyond, []),
            (everything, []),
            ([], inputs),
            (everything, inputs),
        ]
        for order, first in attempts:
            if not (order or first) or (order, first) == tried:
                continue
            tried = (order, first)
            added = [*first, *(Change("keep", n) for n in order)]
            t = self.trial((*current.changes, *added), "grow")
            if t.passed:
                held = frozenset(current.changes)
                window = self._window(held, added) if len(added) > _LONG_RANGE else added
                self.bulk |= set(window)
                return self.cache[held | frozenset(window)]
        return None

    def _window(self, held: frozenset[Change], added: list[Change]) -> list[Change]:
        """The shortest run of ``added`` (in topological order; the whole run passes with ``held``, ``held``
        alone fails) that still passes with ``held``: first the shortest prefix, then the shortest suffix of
        that prefix, each by halving (as a layer-range bisection does), about 2 log2(len(added)) trials.
        Trouble that starts at one place and travels (a calibration range stretched near the input, an
        overflow near the output) keeps a short run; every result is a trial that passed."""
        lo, hi = 0, len(added)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if self.trial(held | set(added[:mid]), "grow").passed else (mid, hi)
        prefix = added[:hi]
        lo, hi = 0, len(prefix)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if self.trial(held | set(prefix[-mid:]), "grow").passed else (mid, hi)
        return prefix[len(prefix) - hi :]

    def _next_changes(self, trial: Trial, block: int = 1) -> list[Change]:
        """Keep in float32 the ``block`` nodes introducing the most error in ``trial`` (:meth:`_ranked`).

        When the top node overflows (inf from finite inputs) on an fp16 target, every node whose golden
        output is beyond the float16 range (65504) is added at once: each would overflow in turn."""
        kept = {c.node for c in trial.changes if c.kind == "keep"}
        ranked = self._ranked(trial, kept)
        if not ranked:
            return []
        m = self.measured[frozenset(trial.changes)]
        first = next(n for n in self.ev.facts.nodes if n.name == ranked[0])
        if self.ev.target == "fp16" and any(math.isinf(m.distances.get(o, 0.0)) for o in first.outputs):
            beyond = [
                n.name for n in self.ev.facts.nodes if n.name not in kept and self._beyond_fp16(n.outputs)
            ]
            if ranked[0] in beyond:
                return [Change("keep", n) for n in beyond]
        other = self._other_kinds(first)
        return other or [Change("keep", n) for n in ranked[:block]]

    def _changes_for(self, name: str) -> list[Change]:
        """The first changes to try at a node introducing error: its other kinds (:meth:`_other_kinds`),
        else keeping it."""
        node = next(n for n in self.ev.facts.nodes if n.name == name)
        return self._other_kinds(node) or [Change("keep", name)]

    def _other_kinds(self, node: NodeFacts) -> list[Change]:
        """The changes other than keeping ``node`` that its facts point at, not tried yet: on int8 its
        per-channel weights or its input's calibration range (the node stays quantised); on fp16/bf16 the
        rounded input it reads kept, once keeping the node was tried and did not help."""
        if self.ev.target != "int8" and Change("keep", node.name) not in self.added:
            return []
        return self._propose(alternatives(self.ev, node, self.added))

    def _propose(self, proposals: Sequence[tuple[Change, str]]) -> list[Change]:
        """The changes of ``proposals`` (:mod:`.candidates`), their reasons recorded."""
        for change, why in proposals:
            self.reasons.setdefault(change, why)
        return [c for c, _ in proposals]

    def _ranked(self, trial: Trial, kept: set[str]) -> list[str]:
        """The nodes of ``trial`` by the error they introduce, the most first: an overflow (inf from finite
        inputs) first, then by how much farther from the golden a node's output is than its farthest input
        (graph inputs and weights count as exact), then by the output's distance; earliest first on a tie.

        Only nodes whose output is farther than a tenth of the tolerance count (smaller errors are
        rounding no fix needs), none downstream of an infinite distance (an overflow's aftermath measures
        nothing of the node), none computing from no float input (``Constant``, ``ConstantOfShape``,
        ``Shape``) and none already kept."""
        m = self.measured.get(frozenset(trial.changes))
        if m is None or not m.distances:
            return []
        facts = self.ev.facts
        order = facts.tensor_order()
        floor = min(self.tol.output, self.tol.layer if self.tol.layer is not None else math.inf)
        tainted: set[str] = set()
        scored: dict[str, tuple[float, float, int]] = {}
        seen = dict(m.distances)  # a tensor the target does not compute passes on its inputs' distance
        for name in sorted(m.distances, key=lambda n: order.get(n, -1)):
            node = facts.producer.get(name)
            if node is None:
                continue
            upstream = [seen.get(i, 0.0) for i in node.inputs]
            if name in m.missing:
                seen[name] = max(upstream, default=0.0)
                tainted |= {name} if any(i in tainted for i in node.inputs) else set()
                continue
            dist = m.distances[name]
            after_inf = any(i in tainted for i in node.inputs) or any(map(math.isinf, upstream))
            if after_inf or math.isinf(dist):
                tainted.add(name)
            if after_inf or node.name in kept or node.op_type in _NO_FLOAT_WORK or not dist > floor / 10:
                continue
            score = _introduced(dist, max(upstream, default=0.0))
            key = (-score, -dist if math.isfinite(dist) else -math.inf, order.get(name, -1))
            if score > 1.0 and (node.name not in scored or key < scored[node.name]):
                scored[node.name] = key
        return sorted(scored, key=lambda n: (scored[n], n))

    def _beyond_fp16(self, outputs: Sequence[str]) -> bool:
        from dumpscope.core.onnx.targets import FP16_MAX

        for o in outputs:
            g = self.ev.golden.get(o)
            finite = np.where(np.isfinite(g), g, 0) if g is not None else None
            if finite is not None and finite.size and float(np.abs(finite).max()) > FP16_MAX:
                return True
        return False

    def _minimise(self, result: FixResult) -> None:
        """Delta debugging to a 1-minimal set, then its proof.

        1. **chunks** - over the changes a range added in bulk (:meth:`_ranges`: most of them are there
           only because a few are needed), in halves, quarters, ... (:meth:`_ddmin`), the rest of the set
           held; a removal that passes shrinks the set;
        2. **singles** - each change is removed in turn (the latest added first): when the set still meets
           the tolerance the change goes, otherwise that trial is the change's proof.  Passes repeat until
           every change's proof is a trial of the final set without that change: a single removal tried
           by the chunks (a chunk of one) on the set as it still is counts (trials are cached by set), any
           other is tried again."""
        current = set(result.changes)
        order = {n.name: i for i, n in enumerate(self.ev.facts.nodes)}
        # the best ranked first (QuickXplain tries the first half alone first), a range in topological order
        bulk = sorted(
            (c for c in current if c in self.bulk),
            key=lambda c: (self.rank.get(c, len(self.rank)), order.get(c.node, -1)),
        )
        if bulk:  # (the ranked extras beside the seeds: all dropped in one trial when the seeds pass alone)
            cut = self._ddmin(current, bulk)
            # QuickXplain assumes that keeping more never hurts; its union is kept only once it passes itself
            # (a trial made on the way, as a rule: then this costs nothing).
            if self.trial(cut, "minimise").passed:
                current = cut
                self._smaller(result, current)  # (the budget may run out before the proofs)
        proofs: dict[Change, Trial] = {}
        stale = True
        while stale:
            stale = False
            for c in self._by_age(current):
                if c in proofs and set(proofs[c].changes) == current - {c}:
                    continue
                t = self.trial(current - {c}, "minimise")
                if t.passed:
                    current.discard(c)
                    self._smaller(result, current)
                    stale = True
                else:
                    proofs[c] = t
        result.changes = tuple(sorted(current))
        result.after = self.cache[frozenset(current)]
        result.needed = tuple(
            Needed(c, proofs[c].number, proofs[c].failing, proofs[c].error) for c in result.changes
        )
        result.minimal = True

    def _smaller(self, result: FixResult, current: set[Change]) -> None:
        """A smaller set passed: it is the result, proven or not."""
        result.changes = tuple(sorted(current))
        result.after = self.cache[frozenset(current)]

    def _by_age(self, changes: Iterable[Change]) -> list[Change]:
        """The latest added first (the growth's last resort is the likeliest to go)."""
        return sorted(changes, key=lambda x: -self.added.index(x))

    def _ddmin(self, current: set[Change], candidates: list[Change]) -> set[Change]:
        """The few ``candidates`` that matter, the rest of ``current`` held: first all removed at once, then
        Junker's QuickXplain divide and conquer (split in halves; the second half is cut down with the
        first half kept, then the first half with what the second kept), about 2 k log2(n / k) trials for k
        needed among n; the singles that follow prove (or disprove) each change on the final set."""
        held = frozenset(current - set(candidates))
        if self.trial(held, "minimise").passed:
            return set(held)
        return set(held) | set(self._quickxplain(held, False, list(candidates)))

    def _quickxplain(self, base: frozenset[Change], added: bool, cands: list[Change]) -> list[Change]:
        if added and self.trial(base, "minimise").passed:
            return []
        if len(cands) == 1:
            return cands
        half = len(cands) // 2
        first, second = cands[:half], cands[half:]
        kept_second = self._quickxplain(base | set(first), True, second)
        kept_first = self._quickxplain(base | set(kept_second), bool(kept_second), first)
        return kept_first + kept_second


#: A range longer than this is first cut to its shortest passing run (:meth:`FixSearch._window`, about
#: 2 log2(n) trials) before QuickXplain, whose about 2 k log2(n / k) trials for k needed among n would
#: spend the budget when k is a long run of nodes (YOLOv8n int8: 226 ancestors, budget out); a short range
#: goes to QuickXplain whole (Silero VAD fp16: 23 ancestors, 15 trials whole, 19 with the window).
_LONG_RANGE = 32

#: How many of the baseline's top introducers (:meth:`FixSearch._ranked`) join the seeds, and the first block
#: of the growth (then 4, 8, ...): one more costs at most a trial to remove; a block of 2 finds a single
#: needed node among its two in 2 trials (QuickXplain) where growing one node a trial may take more.
_SEED_TOP = 2

#: Nodes that compute from no float input: keeping them in float32 changes nothing the search can use.
_NO_FLOAT_WORK = frozenset({"Constant", "ConstantOfShape", "Shape", "Size"})


def _ancestors(tensors: Sequence[str], facts: GraphFacts) -> set[str]:
    """Names of the nodes ``tensors`` depend on (their producers, transitively)."""
    producer = facts.producer
    seen: set[str] = set()
    stack = list(tensors)
    while stack:
        node = producer.get(stack.pop())
        if node is not None and node.name not in seen:
            seen.add(node.name)
            stack.extend(node.inputs)
    return seen


def _better(new: Trial, old: Trial) -> bool:
    """``new`` is clearly closer to the tolerance than ``old``: fewer infinite distances among the failing,
    or a worst failing distance at least 10 % smaller."""

    def key(t: Trial) -> tuple[int, float]:
        worst = max((d for _, d in t.failing), default=0.0)
        return (
            sum(math.isinf(d) for _, d in t.failing) if t.error is None else 1 << 30,
            worst if math.isfinite(worst) else 0.0,
        )

    (ni, nw), (oi, ow) = key(new), key(old)
    return new.passed or ni < oi or (ni == oi and nw < 0.9 * ow)


def _introduced(dist: float, upstream: float) -> float:
    """How much error a node adds: its distance over its inputs' largest (inf from finite inputs: inf)."""
    if math.isinf(dist):
        return 0.0 if math.isinf(upstream) else math.inf
    return dist / upstream if upstream > 0 else (math.inf if dist > 0 else 0.0)


def _worst(d: Mapping[str, float], names: Sequence[str]) -> tuple[str, float] | None:
    present = [(n, d[n]) for n in names if n in d]
    if not present:
        return None
    return max(present, key=lambda p: math.inf if math.isnan(p[1]) else p[1])


def _badness(t: Trial) -> tuple[int, float]:
    worst = t.worst_output[1] if t.worst_output else math.inf
    return (len(t.failing) if t.error is None else 1 << 30, worst)


# ------------------------------------------------------------ seeds from the diagnosis


def changes_from_commands(
    commands: Iterable[str], known: Iterable[str], inputs: Iterable[str] = ()
) -> list[Change]:
    """The ``--keep-fp32``/``--clip`` changes of ``dumpscope patch`` command lines (a diagnosis'
    advice), for nodes or tensors in ``known``; a ``--clip`` of one of the graph ``inputs`` is a
    ``clip_input``; anything else in the lines is ignored."""
    from dumpscope.core.onnx.patch import parse_clip

    names = set(known)
    graph_inputs = set(inputs) - names
    out: list[Change] = []
    for command in commands:
        try:
            words = shlex.split(command)
        except ValueError:
            continue
        option = None
        for w in words:
            if w.startswith("-"):
                option = w
                continue
            if option == "--keep-fp32" and w in names:
                out.append(Change("keep", w))
            elif option == "--clip":
                try:
                    node, lo, hi = parse_clip(w)
                except ValueError:
                    continue
                if node in names:
                    out.append(Change("clip", node, lo, hi))
                elif node in graph_inputs:
                    out.append(Change("clip_input", node, lo, hi))
    return list(dict.fromkeys(out))
