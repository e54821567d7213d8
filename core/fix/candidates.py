"""The change kinds beyond keeping a node: where the search proposes them, each with the fact that points
at it (the report prints it as the change's reason; the trials decide whether it stays).

``keep_input`` / ``clip_input`` (fp16, bf16)
    A graph input beyond the float16 range (65504: stored as inf) when the baseline overflows: kept in
    float32 when every node reading it brings the values back into range (their golden outputs fit in
    float16: keeping the input is then enough), else clipped to the float16 range (the consumers would
    overflow in turn; a Clip at the input is one change instead of a chain of kept nodes).  And, as the
    growth's step, an input read by the node introducing the most error whose rounding (float16 or
    bfloat16 storage of the input, against the input) changes it, once keeping that node did not help.
``per_channel`` (int8)
    The node introducing the most error has a weight (Conv, ConvTranspose, MatMul, Gemm) whose output
    channels' ranges spread: the largest channel's ``max |w|`` at least :data:`SPREAD` times the median
    channel's, so one per-tensor scale leaves the median channel fewer than 127 / SPREAD levels.
``calibrate`` (int8)
    The node introducing the most error reads an activation whose calibration data has outliers: its
    ``max |x|`` at least :data:`SPREAD` times its :data:`PERCENTILE` th percentile of ``|x|``; its range
    is set to the ``100 - PERCENTILE`` th and ``PERCENTILE`` th percentiles of the calibration data (the
    golden tensor on the same inputs the int8 recipe calibrates on), so the outliers saturate and the
    rest keep their levels.

Each is proposed at most once per node (the search knows what it tried); when it does not help, the node
itself is kept next.  When the error is spread (the search's ranges), every outlier-stretched activation
of the failing outputs' ancestors gets its percentile range at once (int8), before any range of kept
nodes, and the kept range on fp16/bf16 is tried with its rounded graph inputs kept too.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import numpy as np

from dumpscope.core.fix.change import Change
from dumpscope.core.fix.trial import Evaluator, relative_distance
from dumpscope.core.onnx.graph import NodeFacts

#: How far the largest value (channel) may be from the typical one before its range is called spread.
SPREAD = 4.0
#: The percentile of ``|x|`` that stands for an activation's typical range, and of the range set.
PERCENTILE = 99.9
_WEIGHTED = {"Conv": 0, "ConvTranspose": 1, "MatMul": -1, "Gemm": 1}

Proposal = tuple[Change, str]


def input_overflow(ev: Evaluator) -> list[Proposal]:
    """``keep_input``/``clip_input`` for each float graph input beyond the float16 range (fp16 only)."""
    from dumpscope.core.onnx.targets import FP16_MAX

    if ev.target != "fp16":
        return []
    out: list[Proposal] = []
    for inp in ev.inputs:
        a = np.asarray(inp.array)
        big = _abs_max(a) if a.dtype.kind == "f" else 0.0
        if not big > FP16_MAX:
            continue
        readers = ev.facts.consumers.get(inp.name, ())
        worst = max(
            (_abs_max(ev.golden[o]) for n in readers for o in n.outputs if o in ev.golden), default=0.0
        )
        fact = f"input {inp.name!r} reaches {big:.4g}, beyond float16's {FP16_MAX:g}"
        if worst <= FP16_MAX:
            out.append((Change("keep_input", inp.name), f"{fact}; the nodes reading it stay within it"))
        else:
            why = f"{fact}, and so do the nodes reading it ({worst:.4g})"
            out.append((Change("clip_input", inp.name, -FP16_MAX, FP16_MAX), why))
    return out


def alternatives(ev: Evaluator, node: NodeFacts, tried: Collection[Change]) -> list[Proposal]:
    """The changes other than keeping ``node`` (the node introducing the most error) that its facts point
    at, not tried yet (see the module docstring); empty when none."""
    if ev.target in ("fp16", "bf16"):
        return [p for p in _rounded_inputs(ev, node) if p[0] not in tried]
    if ev.target != "int8":
        return []
    channel = _channel_spread(ev, node)
    if channel is not None and channel[0] not in tried:
        return [channel]
    return [p for p in _outliers(ev, node) if p[0] not in tried]


def outlier_ranges(ev: Evaluator, nodes: Iterable[NodeFacts]) -> list[Proposal]:
    """``calibrate`` for every activation ``nodes`` read whose calibration data has outliers, once each
    (int8 only): one value stretching the calibration (a hot pixel) travels through the float model the
    calibration runs, so every activation it reaches has its range stretched."""
    if ev.target != "int8":
        return []
    found: dict[Change, str] = {}
    for node in nodes:
        for change, why in _outliers(ev, node):
            found.setdefault(change, why)
    return list(found.items())


def _rounded_inputs(ev: Evaluator, node: NodeFacts) -> list[Proposal]:
    """``keep_input`` for the float graph inputs ``node`` reads that storage rounding changes (the search
    asks once keeping ``node`` did not help: its error comes with what it reads)."""
    return rounded_inputs(ev, node.inputs, f"keeping {node.name!r}, which reads it, in float32 did not help")


def rounded_inputs(ev: Evaluator, names: Iterable[str], because: str) -> list[Proposal]:
    """``keep_input`` for the float graph inputs among ``names`` that float16/bfloat16 storage changes,
    each with ``because`` and how far the storage moves it (fp16/bf16 targets; empty otherwise)."""
    from onnx import TensorProto

    from dumpscope.core.onnx.fp16_target import to_fp16_storage

    if ev.target not in ("fp16", "bf16"):
        return []
    half = TensorProto.FLOAT16 if ev.target == "fp16" else TensorProto.BFLOAT16
    given = {i.name: np.asarray(i.array) for i in ev.inputs}
    out: list[Proposal] = []
    for name in dict.fromkeys(names):
        a = given.get(name)
        if a is None or a.dtype.kind != "f":
            continue
        d = relative_distance(a, to_fp16_storage(name, a, None, half)[0])
        if d > 0:
            storage = "float16" if ev.target == "fp16" else "bfloat16"
            why = (
                f"input {name!r}: {because}, and {storage} storage moves it by a relative distance of {d:.4g}"
            )
            out.append((Change("keep_input", name), why))
    return out


def _channel_spread(ev: Evaluator, node: NodeFacts) -> Proposal | None:
    """``per_channel`` for ``node`` when its weight's output channels' ranges spread (None otherwise)."""
    axis = _WEIGHTED.get(node.op_type)
    if axis is None or len(node.inputs) < 2:
        return None
    w = _initializer(ev, node.inputs[1])
    if w is None or w.ndim < 2:
        return None
    if node.op_type == "Gemm" and _attr_int(ev, node, "transB"):
        axis = 0
    per = np.abs(np.moveaxis(w.astype(np.float64), axis, 0).reshape(w.shape[axis], -1)).max(axis=1)
    typical = float(np.median(per))
    top = float(per.max())
    if not (typical > 0 and top >= SPREAD * typical):
        return None
    levels = 127 * typical / top
    why = (
        f"the output channels of {node.name!r}'s weight spread: the largest max |w| {top:.4g} is "
        f"{top / typical:.3g} x the median channel's {typical:.4g} (one per-tensor scale leaves it "
        f"{levels:.3g} of 127 levels)"
    )
    return Change("per_channel", node.name), why


def _outliers(ev: Evaluator, node: NodeFacts) -> list[Proposal]:
    """``calibrate`` for each float activation ``node`` reads whose calibration data has outliers."""
    given = {i.name: np.asarray(i.array) for i in ev.inputs}
    out: list[Proposal] = []
    for name in dict.fromkeys(node.inputs):
        a = ev.golden.get(name, given.get(name))
        if a is None or a.dtype.kind != "f" or _initializer(ev, name) is not None:
            continue
        finite = np.asarray(a, dtype=np.float64)[np.isfinite(a)]
        if finite.size == 0:
            continue
        # order statistics (no interpolation, which would pull a lone outlier into a small tensor's range)
        typical = float(np.percentile(np.abs(finite), PERCENTILE, method="lower"))
        top = float(np.abs(finite).max())
        if not (typical > 0 and top >= SPREAD * typical):
            continue
        lo = float(np.percentile(finite, 100 - PERCENTILE, method="higher"))
        hi = float(np.percentile(finite, PERCENTILE, method="lower"))
        why = (
            f"{name!r}'s calibration data has outliers: max |x| {top:.4g} is {top / typical:.3g} x its "
            f"{PERCENTILE:g}th percentile {typical:.4g}; its range set to the {100 - PERCENTILE:g}th-"
            f"{PERCENTILE:g}th percentiles"
        )
        out.append((Change("calibrate", name, lo, hi), why))
    return out


def _initializer(ev: Evaluator, name: str) -> np.ndarray | None:
    """The value of the initializer ``name`` (external data read from the model's folder), else None."""
    from dumpscope.core.onnx.targets import tensor_loader

    if name not in ev.facts.initializers:
        return None
    t = next((t for t in ev.proto.graph.initializer if t.name == name), None)
    return None if t is None else np.asarray(tensor_loader(t, ev.source_dir)())


def _attr_int(ev: Evaluator, node: NodeFacts, name: str) -> int:
    """The integer attribute ``name`` of ``node`` (found by its outputs), 0 when absent."""
    proto = next((n for n in ev.proto.graph.node if tuple(o for o in n.output if o) == node.outputs), None)
    return next((a.i for a in proto.attribute if a.name == name), 0) if proto is not None else 0


def _abs_max(a: np.ndarray) -> float:
    finite = np.asarray(a)[np.isfinite(a)]
    return float(np.abs(finite).max()) if finite.size else 0.0
