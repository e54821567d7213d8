"""Replay a suspect node on the CPU: did the target compute faithfully what it was fed?

For a suspect row, the node producing its golden tensor is cut out of the golden ONNX
model (with its constants: initializers and ``Constant`` nodes) and run alone in
onnxruntime on the **target's** input tensors with the **golden** weights -- RKNN's
"single" mode, without a board.  A fused target op is replayed as the original
subgraph it replaces.  The replay runs in float64 where every op of the subgraph allows
it, else in float32.  A dump of several runs of a one-run model names each run's tensors
with a prefix (the streaming demo's ``frame5/attn/exp:0``): such a row is the model's
``attn/exp:0``, replayed on that run's own dumped inputs (``frame5/...``), never another run's.
The model is read and its nodes are cut out and run by :mod:`~dumpscope.core.diagnosis.subgraph`.

* the replay matches the target's output: the node computed faithfully what it was
  fed; its error is inherited (or amplified) from upstream -- ``faithful``;
* it does not: the target's implementation of this node differs -- ``differs``
  (the error is introduced here).

:func:`constant_effect` measures what a changed constant alone does: the node replayed
on the golden inputs with the original constant and with the target's (or the target
dtype's clamped/flushed) constant, as a relative change of the output.

Replays are bounded by work, never by the clock (the same inputs replay the same nodes on any
machine and load): suspects only, at most :data:`MAX_REPLAYS` of them, each of at most
:data:`MAX_NODES` nodes and :data:`MAX_ELEMENTS` elements fed and computed, with a progress
callback.  Nothing here reads the network or unpickles anything.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.comparison.shapes import align, declared_layouts
from dumpscope.core.diagnosis.checks.saturation import Saturated, held_all, past
from dumpscope.core.diagnosis.subgraph import ModelSource, run_nodes, subgraph_inputs
from dumpscope.core.dumps import TensorReadError, TensorRef
from dumpscope.core.onnx.lazy import onnx
from dumpscope.core.vocabulary import FUSION, NAN_ORIGIN, OPERATOR, OVERFLOW, PRECISION, QUANTISATION, WEIGHTS

if TYPE_CHECKING:
    from dumpscope.core.onnx.runner import OnProgress

#: Suspect rows replayed at most per diagnosis (a work bound: never the clock).
MAX_REPLAYS = 32
#: Nodes at most in one replay (a fused op's original subgraph), and elements at most fed to it and
#: computed by it (inputs plus output): larger replays are not run, the same way on every machine.
MAX_NODES = 64
MAX_ELEMENTS = 1 << 25
#: The target differs from the replay by at least this share of its own error: introduced here.
DIFFERS_SHARE = 0.5
#: Relative differences below this are rounding, whatever the row's error.
ROUNDING = 1e-5
_FLOAT = frozenset({"float16", "float32", "float64", "bfloat16"})
_CASTABLE = _FLOAT - {"bfloat16"}
#: Differences at most this large (absolute, by the target's dtype: two units in the last place
#: next to 1.0) are rounding, however small the values (a saturated Sigmoid's outputs near 1e-6).
ABS_FLOOR: dict[str, float] = {"float32": 2 * 2.0**-23, "float16": 2 * 2.0**-10, "bfloat16": 2 * 2.0**-7}

#: Root-cause classes whose differing replay reads as a kernel computing differently (None: no class yet).
KERNEL_CLASSES = frozenset({None, OPERATOR, FUSION, PRECISION, NAN_ORIGIN, WEIGHTS})


@dataclass(frozen=True)
class Replay:
    """The replay of one suspect row's node(s)."""

    row: int
    nodes: tuple[str, ...]
    """The golden nodes replayed (one, or the originals a fused target op replaces)."""
    verdict: str
    """``faithful`` (inherited), ``differs`` (introduced) or ``not replayed``."""
    precision: str = ""
    """``float64`` or ``float32``: the precision the replay ran in."""
    vs_target: float | None = None
    """Relative error of the target's output against the replay."""
    target_error: float | None = None
    """Relative error of the target's output against the golden one (the row's error)."""
    seconds: float = field(default=0.0, compare=False, repr=False)
    """Wall seconds the replay took: for benches only, never printed (it depends on the load)."""
    note: str = ""
    constants: tuple[str, ...] = ()
    """Constants the node reads whose target version differs from the golden one."""
    vs_target_constants: float | None = None
    """Relative error of the target against the replay fed the target's own ``constants``."""
    max_diff: float | None = None
    """The largest ``|target - replay|`` (a differing replay; in the golden's units)."""
    held: tuple[Saturated, ...] = ()
    """A differing replay: the rails of its dtype (a float16 limit, a quantisation rail) the target is held
    at while the replay of its own inputs goes beyond them."""
    held_rest: float | None = None
    """The target against the replay at every other position (relative error), with ``held``."""

    @property
    def faithful(self) -> bool:
        return self.verdict == "faithful"

    @property
    def differs(self) -> bool:
        return self.verdict == "differs"

    def sentence(self, cause: str | None = None, step: tuple[float, str] | None = None) -> str:
        """One line of evidence (also what the tensor pane shows); ``cause``: the class of the root cause the
        replay supports, ``step``: the (scale, dtype) of the target's output grid, when known."""
        if self.verdict == "not replayed":
            return (
                f"replay of {self._what()}: not replayed ({self.note})"
                if self.nodes
                else f"not replayed: {self.note}"
            )
        what = self._what()
        numbers = f"target vs replay {_num(self.vs_target)}, target vs golden {_num(self.target_error)}"
        if self.faithful:
            return (
                f"replay ({self.precision}, target inputs, golden weights) of {what} matches the target "
                f"({numbers}): the node computed faithfully what it was fed, its error is inherited"
            )
        return (
            f"replay ({self.precision}, target inputs, golden weights) of {what} does not match the target "
            f"({numbers}): {self._why(cause, step)}" + self._constants_clause()
        )

    def _why(self, cause: str | None, step: tuple[float, str] | None) -> str:
        """What the differing replay measured, in the terms of the root cause's class (``cause``): the
        target held at a rail the replay goes beyond (overflow), its distance from the replay in steps of
        its grid (quantisation), else a kernel that differs -- a class with no such measure claims only
        that the error enters here."""
        if self.constants_explain:
            return "the error is introduced here"
        if cause == OVERFLOW and self.held:
            return self._held_words()
        if cause == QUANTISATION:
            if step is not None and self.max_diff is not None and step[0] > 0:
                return self._step_words(*step)
            return (
                "the target's quantised computation departs from the float one, the error is introduced here"
            )
        if cause in KERNEL_CLASSES:
            return "the target's implementation differs, the error is introduced here"
        return "the error is introduced here"

    def _held_words(self) -> str:
        """The saturation the replay measured: target values held at each rail where the replay goes
        beyond."""
        rails = " and ".join(
            f"at the {s.rail.dtype} limit {_rail(s)} at {s.held} of the {s.beyond} positions where the "
            "replay "
            f"goes beyond it (the replay reaches {s.golden_max:.6g})"
            for s in self.held
        )
        said = f"the target is held {rails}"
        rest = self.held_rest
        if rest is None:
            return said + ", the saturation is introduced here"
        if _differs(rest, self.target_error or 0.0):
            return said + f"; elsewhere it still differs ({_num(rest)}): more than the saturation enters here"
        return (
            said
            + f"; elsewhere the target matches the replay ({_num(rest)}): the saturation is introduced here"
        )

    def _step_words(self, scale: float, dtype: str) -> str:
        """The target's distance from the replay in steps of its output grid."""
        steps = (self.max_diff or 0.0) / scale
        said = (
            f"the target departs from it by at most {steps:.3g} steps of its {dtype} grid (one step "
            f"{scale:.4g})"
        )
        if steps <= 1.0:
            return said + ": the error is of the size of that quantisation step, introduced here"
        return (
            said + ": more than one step, so rounding to that grid alone does not explain it; introduced here"
        )

    @property
    def constants_explain(self) -> bool:
        """Fed the target's own constants, the replay matches the target: the constants differ, not the
        kernel."""
        return (
            bool(self.constants)
            and self.vs_target_constants is not None
            and not _differs(self.vs_target_constants, self.target_error or 0.0)
        )

    def _what(self) -> str:
        """The node(s) replayed, in words."""
        if len(self.nodes) > 1:
            return f"{len(self.nodes)} original nodes"
        return repr(self.nodes[0]) if self.nodes else "?"

    def _constants_clause(self) -> str:
        """What the replay with the target's own constants says (empty when there was none)."""
        if not self.constants or self.vs_target_constants is None:
            return ""
        names = ", ".join(repr(n) for n in self.constants[:3])
        if not self.constants_explain:
            return (
                f"; with the target's own constants ({names}) it still differs "
                f"({_num(self.vs_target_constants)})"
            )
        return (
            f"; fed the target's own constants ({names}) the replay matches "
            f"({_num(self.vs_target_constants)}): "
            "the constants differ, not the kernel"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "nodes": list(self.nodes),
            "verdict": self.verdict,
            "precision": self.precision,
            "target_vs_replay": self.vs_target,
            "target_vs_golden": self.target_error,
            "differing_constants": list(self.constants),
            "target_vs_replay_with_target_constants": self.vs_target_constants,
            "target_vs_replay_max_abs": self.max_diff,
            "held_at_limit": sum(s.held for s in self.held),
            "note": self.note,
        }


def _rail(s: Saturated) -> str:
    """A rail as the target stores it (and in the golden's units when they differ)."""
    rail = s.rail
    return f"{rail.stored:g}" if rail.stored == rail.value else f"{rail.stored:g} (= {rail.value:.6g})"


def _num(v: float | None) -> str:
    if v is None:
        return "n/a"
    return "NaN/Inf" if math.isinf(v) else f"{v:.3g}"


def rel_error(ref: np.ndarray, x: np.ndarray) -> float:
    """``||x - ref|| / ||ref||`` in float64 over positions finite on both sides; ``inf`` when
    NaN/Inf sit at different positions (or differ in sign); 0 for two equal empty tensors."""
    pair = _finite_pair(ref, x)
    if pair is None:
        return math.inf
    a, b = pair
    return _ratio(float(np.sqrt(np.sum((a - b) ** 2))), float(np.sqrt(np.sum(a * a))))


def _finite_pair(ref: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Both tensors flat in float64 at their finite positions; None when the sizes differ or NaN/Inf
    sit at different positions (or differ in sign)."""
    a = np.asarray(ref, dtype=np.float64).reshape(-1)
    b = np.asarray(x, dtype=np.float64).reshape(-1)
    if a.size != b.size:
        return None
    fa, fb = np.isfinite(a), np.isfinite(b)
    if not np.array_equal(fa, fb) or not np.array_equal(a[~fa], b[~fb], equal_nan=True):
        return None
    return a[fa], b[fb]


def _ratio(diff: float, norm: float) -> float:
    """``diff / norm``; 0 for 0/0 and inf for a difference from a zero reference."""
    if norm == 0.0:
        return 0.0 if diff == 0.0 else math.inf
    return diff / norm


#: Tensors with more channel slices (axis 1) than this are judged whole only.
MAX_SLICES = 1024


def worst_rel_error(ref: np.ndarray, x: np.ndarray) -> float:
    """The larger of the whole-tensor :func:`rel_error` and the worst one over the slices along
    axis 1 (a channel mixing ranges, such as [0, 1] scores next to box coordinates, is judged
    on its own: whole-tensor norms hide its damage)."""
    whole = rel_error(ref, x)
    a, b = np.asarray(ref), np.asarray(x)
    if math.isinf(whole) or not _sliceable(a, b):
        return whole
    return max(whole, _worst_slice(a, b))


def _worst_slice(a: np.ndarray, b: np.ndarray) -> float:
    """The largest :func:`rel_error` over the slices along axis 1, in one pass (NaN/Inf sit at the
    same positions on both sides: the whole tensor's error is finite)."""
    a64 = np.moveaxis(np.asarray(a, dtype=np.float64), 1, 0).reshape(a.shape[1], -1)
    b64 = np.moveaxis(np.asarray(b, dtype=np.float64), 1, 0).reshape(b.shape[1], -1)
    keep = np.isfinite(a64)
    a64, b64 = np.where(keep, a64, 0.0), np.where(keep, b64, 0.0)
    diff = np.sqrt(np.sum((a64 - b64) ** 2, axis=1))
    norm = np.sqrt(np.sum(a64 * a64, axis=1))
    return max(_ratio(float(d), float(n)) for d, n in zip(diff, norm, strict=False))


def _sliceable(a: np.ndarray, b: np.ndarray) -> bool:
    """Two tensors of one shape with 2 to :data:`MAX_SLICES` channel slices along axis 1."""
    return a.shape == b.shape and a.ndim >= 2 and 2 <= a.shape[1] <= MAX_SLICES


# ------------------------------------------------------------------ feeds from the dumps


class _Tensors:
    """Model tensor name -> the dumped tensor of one side (by row name, then by file name)."""

    def __init__(self, cmp: Comparison) -> None:
        self.cmp = cmp
        self.rows: dict[str, int] = {}
        assert cmp.pairing is not None
        for i, p in enumerate(cmp.pairing.pairs):
            self.rows.setdefault(str(cmp.frame["name"][i]), i)
            for name in [ref.name for ref in (p.golden, p.target) if ref is not None]:
                self.rows.setdefault(name, i)

    def load(self, name: str, side: str) -> np.ndarray | None:
        """The ``side`` tensor of model tensor ``name`` in the golden dtype and shape, else None."""
        row = self.rows.get(name)
        return None if row is None else self.load_row(row, side)

    def load_row(self, row: int, side: str) -> np.ndarray | None:
        """The ``side`` tensor of frame row ``row`` in the golden dtype and shape, else None."""
        ref = self._ref(row, side)
        if ref is None:
            return None
        try:
            data = np.asarray(ref.load())
        except TensorReadError:
            return None
        data = _float_cast(data, self.cmp.frame["dtype"][row])
        shape = self.cmp.frame["shape"][row]
        if shape is None or tuple(data.shape) == tuple(shape):
            return data
        return self._lined_up(row, data, tuple(shape)) if side == "target" else None

    def _lined_up(self, row: int, data: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
        """A target stored in another shape, in the golden's: lined up exactly as the comparison
        lines it up (:func:`~dumpscope.core.comparison.shapes.align`), None when it cannot be
        (only a flat comparison, with its warning, would fit)."""
        golden = self.load_row(row, "golden")
        if golden is None or golden.size != data.size or self.cmp.pairing is None:
            return None
        pair = self.cmp.pairing.pairs[row]
        aligned = align(golden, data, declared_layouts(pair.golden, pair.target))
        if aligned.error or aligned.warn:
            return None
        return np.ascontiguousarray(aligned.target).reshape(shape)

    def _ref(self, row: int, side: str) -> TensorRef | None:
        """The ``side`` tensor reference of frame row ``row`` (None without a pairing or partner)."""
        if self.cmp.pairing is None:
            return None
        pair = self.cmp.pairing.pairs[row]
        return pair.golden if side == "golden" else pair.target


def _float_cast(data: np.ndarray, dtype: str | None) -> np.ndarray:
    """A float tensor in the float ``dtype`` (not bfloat16, which numpy cannot name); others as they are."""
    if dtype in _CASTABLE and data.dtype.name in _FLOAT:
        return data.astype(dtype, copy=False)
    return data


# ------------------------------------------------------------------ replaying rows


@dataclass(frozen=True)
class Found:
    """The golden node(s) a row's tensor comes from."""

    nodes: list[onnx.NodeProto]
    output: str
    """The tensor's name in the model."""
    prefix: str = ""
    """The run prefix of the row's name in the dump (``frame5/``), "" for a one-run dump."""


@dataclass
class Replayer:
    """Replays suspect rows of one comparison against its golden model."""

    cmp: Comparison
    src: ModelSource
    fused: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    _tensors: _Tensors | None = None

    @property
    def tensors(self) -> _Tensors:
        if self._tensors is None:
            self._tensors = _Tensors(self.cmp)
        return self._tensors

    def nodes_of(self, row: int) -> Found | str:
        """The golden node(s) producing ``row``'s tensor, that tensor's model name and the row's run
        prefix, or why not."""
        name = str(self.cmp.frame["name"][row])
        prefix, tensor = self.src.run_prefix(name)
        node = self.src.producer(tensor)
        if node is None:
            return f"{name!r} is not a node output of the model"
        return Found(self._fused_group(row, tensor) or [node], tensor, prefix)

    def _fused_group(self, row: int, tensor: str) -> list[onnx.NodeProto]:
        """The original nodes a fused target op replaces, when they produce ``tensor`` (else empty)."""
        op = self._target_op(row)
        originals = self.fused.get(op, ((),))[0] if op is not None else ()
        group = [n for n in (self.src.node(o) for o in originals) if n is not None]
        if len(group) > 1 and any(tensor in n.output for n in group):
            return _topological(group, self.src.proto().graph.node)
        return []

    def _target_op(self, row: int) -> str | None:
        pair = self.cmp.pairing.pairs[row] if self.cmp.pairing is not None else None
        return pair.target.info.node_name if pair is not None and pair.target is not None else None

    def feeds(
        self, nodes: Sequence[onnx.NodeProto], side: str, prefix: str = ""
    ) -> dict[str, np.ndarray] | str:
        """The flowing inputs of ``nodes`` from the ``side`` dump (the run ``prefix``'s tensors), or
        which one is missing."""
        feeds: dict[str, np.ndarray] = {}
        for name in subgraph_inputs(nodes):
            if self.src.is_constant(name):
                continue
            data = self.tensors.load(prefix + name, side)
            if data is None:
                return f"input {prefix + name!r} is not in the {side} dump (or not in its shape)"
            feeds[name] = data
        return feeds

    def replay(self, row: int) -> Replay:
        """Replay ``row`` (see the module docstring)."""
        start = time.perf_counter()
        found = self.nodes_of(row)
        if isinstance(found, str):
            return Replay(row, (), "not replayed", note=found)
        names = tuple(n.name or n.op_type for n in found.nodes)
        if len(found.nodes) > MAX_NODES:
            return Replay(
                row,
                names,
                "not replayed",
                note=f"{len(found.nodes)} nodes, more than the bound of {MAX_NODES} per replay",
            )
        try:
            return self._compare(row, found, names, start)
        except RuntimeError as exc:
            return Replay(
                row, names, "not replayed", note=f"onnxruntime: {exc}", seconds=time.perf_counter() - start
            )

    def _compare(self, row: int, found: Found, names: tuple[str, ...], start: float) -> Replay:
        """Run the node(s) on the target's inputs and judge the target's output against the replay."""
        inputs = self._inputs(row, found)
        if isinstance(inputs, str):
            return Replay(row, names, "not replayed", note=inputs, seconds=time.perf_counter() - start)
        feeds, target, golden = inputs
        elements = sum(a.size for a in feeds.values()) + target.size
        if elements > MAX_ELEMENTS:
            note = f"{elements} elements fed and computed, more than the bound of {MAX_ELEMENTS} per replay"
            return Replay(row, names, "not replayed", seconds=time.perf_counter() - start, note=note)
        replayed, precision = run_nodes(self.src, found.nodes, feeds, found.output)
        vs_target, error = worst_rel_error(replayed, target), worst_rel_error(golden, target)
        if self._faithful(row, replayed, target, vs_target, error):
            return Replay(row, names, "faithful", precision, vs_target, error, time.perf_counter() - start)
        changed = self.target_constants(found.nodes, found.prefix)
        again = (
            rel_error(run_nodes(self.src, found.nodes, feeds, found.output, changed)[0], target)
            if changed
            else None
        )
        held, rest = self._held(row, replayed, target)
        return Replay(
            row,
            names,
            "differs",
            precision,
            vs_target,
            error,
            time.perf_counter() - start,
            constants=tuple(changed),
            vs_target_constants=again,
            max_diff=max_abs_diff(replayed, target),
            held=held,
            held_rest=rest,
        )

    def _held(
        self, row: int, replayed: np.ndarray, target: np.ndarray
    ) -> tuple[tuple[Saturated, ...], float | None]:
        """The rails the target is held at while the replay goes beyond them (the saturation check's rails
        and rule, the replay in the golden's place), and the target against the replay at every other
        position."""
        ref = np.asarray(replayed, dtype=np.float64).reshape(-1)
        flat = np.asarray(target).reshape(-1)
        if ref.size != flat.size or not flat.size or not np.isfinite(ref).all():
            return (), None
        found = held_all(self.cmp, row, ref, flat)
        if not found:
            return (), None
        keep = np.ones(flat.size, dtype=bool)
        for s in found:
            keep &= ~((flat == s.rail.stored) & past(ref, s.rail))
        return tuple(found), rel_error(ref[keep], flat[keep]) if keep.any() else None

    def _inputs(self, row: int, found: Found) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray] | str:
        """The target's feeds and the row's target and golden outputs, or what is missing."""
        feeds = self.feeds(found.nodes, "target", found.prefix)
        target, golden = self.tensors.load_row(row, "target"), self.tensors.load_row(row, "golden")
        if isinstance(feeds, str):
            return feeds
        if target is None or golden is None:
            return "the output is missing on one side (or in another shape)"
        return feeds, target, golden

    def _faithful(
        self, row: int, replayed: np.ndarray, target: np.ndarray, vs_target: float, error: float
    ) -> bool:
        """The target matches the replay: within a fair share of its error, or within rounding of its
        dtype."""
        floor = ABS_FLOOR.get(str(self.cmp.frame["target_dtype"][row]), ABS_FLOOR["float32"])
        return not _differs(vs_target, error) or max_abs_diff(replayed, target) <= floor

    def target_constants(self, nodes: Sequence[onnx.NodeProto], prefix: str = "") -> dict[str, np.ndarray]:
        """The constants ``nodes`` read whose target dump (of the run ``prefix``) differs from the golden
        value."""
        return {
            name: changed
            for name in subgraph_inputs(nodes)
            if (changed := self.changed_constant(name, prefix)) is not None
        }

    def changed_constant(self, name: str, prefix: str = "") -> np.ndarray | None:
        """The target's dump of constant ``name`` (of the run ``prefix``) in the golden dtype when it differs
        from the golden value, else None."""
        golden = self.src.constant_value(name) if self.src.is_constant(name) else None
        if golden is None:
            return None
        target = self.tensors.load(prefix + name, "target")
        if target is None or target.shape != golden.shape or np.array_equal(target, golden):
            return None
        return target.astype(golden.dtype, copy=False)

    def constant_effect(self, row: int, constant: str, changed: np.ndarray) -> float | None:
        """Relative change of ``row``'s output when its node reads ``changed`` for ``constant``
        (golden inputs otherwise); None when the node cannot be replayed."""
        found = self.nodes_of(row)
        if isinstance(found, str):
            return None
        feeds = self.feeds(found.nodes, "golden", found.prefix)
        if isinstance(feeds, str):
            return None
        try:
            plain, _ = run_nodes(self.src, found.nodes, feeds, found.output)
            moved, _ = run_nodes(self.src, found.nodes, feeds, found.output, {constant: changed})
        except RuntimeError:
            return None
        return rel_error(plain, moved)


def max_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    """The largest ``|a - b|`` (float64) over positions finite on both; inf when NaN/Inf differ."""
    x = np.asarray(a, dtype=np.float64).reshape(-1)
    y = np.asarray(b, dtype=np.float64).reshape(-1)
    if x.size != y.size:
        return math.inf
    keep = np.isfinite(x) & np.isfinite(y)
    if not np.array_equal(x[~keep], y[~keep], equal_nan=True):
        return math.inf
    return float(np.abs(x[keep] - y[keep]).max(initial=0.0))


def _differs(vs_target: float, error: float) -> bool:
    """The target is off the faithful replay by more than rounding and by a fair share of its own
    error (NaN/Inf the replay does not produce always differ)."""
    return math.isinf(vs_target) or vs_target > max(ROUNDING, DIFFERS_SHARE * error)


def _topological(group: Iterable[onnx.NodeProto], order: Iterable[onnx.NodeProto]) -> list[onnx.NodeProto]:
    """``group`` in the model's node order (the golden model is topologically sorted)."""
    ids = {id(n) for n in group}
    return [n for n in order if id(n) in ids]


def replay_rows(
    replayer: Replayer, rows: Sequence[int], *, limit: int = MAX_REPLAYS, progress: OnProgress | None = None
) -> dict[int, Replay]:
    """Replay the first ``limit`` of ``rows`` (in order; the same ones on any machine and load)."""
    out: dict[int, Replay] = {}
    todo = list(dict.fromkeys(rows))[:limit]
    for k, row in enumerate(todo):
        out[row] = replayer.replay(row)
        if progress is not None:
            progress(k + 1, len(todo))
    return out


def as_target_dtype(value: np.ndarray, dtype: str) -> np.ndarray:
    """What a float16/bfloat16 conversion makes of a constant: clamped to the type's maximum,
    tiny values flushed, rounded -- back in the constant's own dtype."""
    if value.dtype.kind != "f" or dtype not in ("float16", "bfloat16"):
        return value
    import ml_dtypes

    kind = np.float16 if dtype == "float16" else ml_dtypes.bfloat16
    top = float(ml_dtypes.finfo(kind).max)
    return np.clip(value, -top, top).astype(kind).astype(value.dtype)


def clamp_and_flush(value: np.ndarray, dtype: str) -> np.ndarray:
    """Only what an fp16/bf16 conversion's clamp and flush records say: values beyond the type's
    maximum clamped to it, values below its smallest subnormal flushed to zero (no rounding)."""
    if value.dtype.kind != "f" or dtype not in ("float16", "bfloat16"):
        return value
    import ml_dtypes

    info = ml_dtypes.finfo(np.float16 if dtype == "float16" else ml_dtypes.bfloat16)
    top, tiny = float(info.max), float(info.smallest_subnormal)
    out = np.clip(value, -top, top)
    return np.where(np.abs(out) < tiny / 2, np.zeros_like(out), out).astype(value.dtype)
