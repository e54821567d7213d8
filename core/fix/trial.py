"""One trial of the fix search: the target made from a patched model, measured against the ORIGINAL golden.

The golden (the model as it is, float32, onnxruntime's CPU provider) is run once and every node
output kept in memory.  A trial patches a copy of the model (:func:`dumpscope.core.onnx.patch.patch_model`:
nodes marked to stay in float32, Clips inserted), turns it into the target with the product's own
recipe (:mod:`dumpscope.core.onnx.fp16_target`: fp16 rounds every intermediate to float16 storage as fp16
hardware stores it - onnxruntime's CPU provider would otherwise run many float16 operators in float32
and hide an overflow; bf16 the same with bfloat16 storage (8 significant bits, float32's range); int8
is static QDQ quantisation with the marked nodes left in float), runs it and measures every float tensor
against the original golden.

The distance of one tensor is the relative Euclidean distance ``||t - g|| / ||g||`` in float64 (the
``relative_euclidean_distance`` of ``dumpscope compare``), infinite when the shapes differ or where a
value is not finite on one side only (an overflow), 0 for two identical tensors.
"""

from __future__ import annotations

import math
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import onnx

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.graph import GraphFacts, graph_facts
from dumpscope.core.onnx.inputs import ModelInput
from dumpscope.core.onnx.patch import patch_model

if TYPE_CHECKING:
    from dumpscope.core.fix.change import Change

#: The targets a fix can be searched for.
FIX_TARGETS = ("fp16", "bf16", "int8")


def relative_distance(golden: np.ndarray, target: np.ndarray) -> float:
    """``||t - g|| / ||g||`` in float64 (see the module docstring for the infinite and zero cases)."""
    if golden.shape != target.shape:
        return math.inf
    g = np.asarray(golden, dtype=np.float64).reshape(-1)
    t = np.asarray(target, dtype=np.float64).reshape(-1)
    gf, tf = np.isfinite(g), np.isfinite(t)
    if not np.array_equal(gf, tf) or not np.array_equal(g[~gf], t[~tf], equal_nan=True):
        return math.inf
    diff = float(np.linalg.norm(g[gf] - t[tf]))
    norm = float(np.linalg.norm(g[gf]))
    if diff == 0.0:
        return 0.0
    return diff / norm if norm > 0.0 else math.inf


@dataclass(frozen=True)
class Measured:
    """One trial's distances from the original golden: tensor name -> relative distance (topological
    order)."""

    distances: Mapping[str, float]
    error: str | None = None
    """Why the trial could not run (the target could not be made or run); distances are then empty."""
    missing: frozenset[str] = frozenset()
    """Tensors the target does not compute (a BatchNormalization folded into its Conv by the int8
    recipe): their distance is infinite, but nothing was measured there."""


class Evaluator:
    """The golden run of ``proto`` on ``inputs``, and trials of patched targets against it."""

    def __init__(
        self,
        proto: onnx.ModelProto,
        target: str,
        inputs: Sequence[ModelInput],
        source_dir: Path | None = None,
    ) -> None:
        if target not in FIX_TARGETS:
            raise DumpError(f"unknown fix target {target!r} (choose from {', '.join(FIX_TARGETS)})")
        self.proto = proto
        self.target = target
        self.inputs = list(inputs)
        self.source_dir = source_dir
        self.facts: GraphFacts = graph_facts(proto.graph)
        self._work = Path(tempfile.mkdtemp(prefix="dumpscope-fix-"))
        self._trials = 0
        self.golden, self._types = self._run_golden()
        order = self.facts.tensor_order()
        self.layers: tuple[str, ...] = tuple(
            sorted((n for n in self.golden if n in self.facts.producer), key=lambda n: order.get(n, -1))
        )
        """Float node outputs the golden computes, in topological order."""

    def close(self) -> None:
        shutil.rmtree(self._work, ignore_errors=True)

    def __enter__(self) -> Evaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run_golden(self) -> tuple[dict[str, np.ndarray], dict[str, str]]:
        from dumpscope.core.onnx.targets import open_session, prepare_golden

        work = self._work / "golden"
        work.mkdir()
        prepared = prepare_golden(self.proto, self.facts, work, self.source_dir)
        session = open_session(prepared.path, self.proto, data_dir=prepared.data_dir)
        types = {o.name: o.type for o in session.get_outputs()}
        types |= {i.name: i.type for i in session.get_inputs()}
        values = self._fetch(session, prepared.fetch, prepared.feed_names)
        return {n: v for n, v in values.items() if _is_float(v)}, types

    def _fetch(
        self, session: object, fetch: Mapping[str, str], feed_names: Mapping[str, str]
    ) -> dict[str, np.ndarray]:
        from dumpscope.core.onnx.fetch_groups import run_group

        feeds = {feed_names.get(i.name, i.name): i.array for i in self.inputs}
        names = list(fetch.values())
        values = run_group(session, names, feeds)
        by_fetch = dict(zip(names, values, strict=False))
        return {true: np.asarray(by_fetch[f]) for true, f in fetch.items()}

    def run(
        self,
        keep: Iterable[str] = (),
        clip: Iterable[tuple[str, float, float]] = (),
        more: Iterable[Change] = (),
    ) -> Measured:
        """The target of the model patched with ``keep`` (nodes in float32 / left out of int8), ``clip``
        and ``more`` (the other :class:`~dumpscope.core.fix.search.Change` kinds: ``keep_input``,
        ``clip_input``, ``per_channel``, ``calibrate``), measured against the original golden."""
        self._trials += 1
        work = self._work / f"trial{self._trials}"
        work.mkdir()
        more = list(more)
        try:
            patched = patch_model(
                self.proto,
                keep_fp32=list(keep),
                clip=[*clip, *((c.node, c.low, c.high) for c in more if c.kind == "clip_input")],
                keep_inputs=[c.node for c in more if c.kind == "keep_input"],
                per_channel=[c.node for c in more if c.kind == "per_channel"],
                ranges=[(c.node, c.low, c.high) for c in more if c.kind == "calibrate"],
            ).model
            values = self._run_target(patched, work)
        except DumpError as exc:
            return Measured({}, str(exc))
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return Measured(
            {
                n: relative_distance(self.golden[n], values[n]) if n in values else math.inf
                for n in self.layers
            },
            missing=frozenset(n for n in self.layers if n not in values),
        )

    def _run_target(self, patched: onnx.ModelProto, work: Path) -> dict[str, np.ndarray]:
        from dumpscope.core.onnx import fp16_target, int8_target, targets

        facts = graph_facts(patched.graph)
        if self.target in ("fp16", "bf16"):
            types = _clip_types(patched, self._types)
            half = onnx.TensorProto.FLOAT16 if self.target == "fp16" else onnx.TensorProto.BFLOAT16
            prepared = fp16_target.prepare_fp16(patched, facts, work, self.source_dir, types, half)
        else:
            prepared = int8_target.prepare_int8(
                patched, facts, work, self.source_dir, [{i.name: i.array for i in self.inputs}]
            )
        session = targets.open_session(prepared.path, patched, data_dir=prepared.data_dir)
        return self._fetch(session, prepared.fetch, prepared.feed_names)


def _is_float(v: np.ndarray) -> bool:
    return v.dtype.kind == "f"


def _clip_types(patched: onnx.ModelProto, types: Mapping[str, str]) -> dict[str, str]:
    """The golden's onnxruntime types, plus the renamed output each inserted Clip reads (its output's
    type), and the new output of a Clip of a graph input (the input's type)."""
    out = dict(types)
    for node in patched.graph.node:
        if node.op_type == "Clip" and node.output and node.output[0] in types and node.input[0] not in out:
            out[node.input[0]] = types[node.output[0]]
        elif node.op_type == "Clip" and node.output and node.input[0] in types and node.output[0] not in out:
            out[node.output[0]] = types[node.input[0]]
    return out
