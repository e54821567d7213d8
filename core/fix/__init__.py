"""``dumpscope fix``: the smallest verified set of changes that brings a target within tolerance of the
ORIGINAL golden (:mod:`.search`), measured by trials (:mod:`.trial`), written in each toolchain's own
terms (:mod:`.emit`)."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from dumpscope.core.fix.search import (
    DEFAULT_BUDGET,
    DEFAULT_TOLERANCE,
    Change,
    FixProgress,
    FixResult,
    FixSearch,
    Tolerance,
    changes_from_commands,
)
from dumpscope.core.fix.trial import FIX_TARGETS, Evaluator

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_TOLERANCE",
    "FIX_TARGETS",
    "Change",
    "Evaluator",
    "FixResult",
    "Tolerance",
    "diagnosis_seeds",
    "find_fix",
    "open_evaluator",
]

Inputs = Mapping[str, str | Path] | Sequence[str] | None
Shapes = str | Mapping[str, tuple[int, ...]] | None


def open_evaluator(
    model: str | Path, target: str, *, inputs: Inputs = None, input_shapes: Shapes = None, seed: int = 0
) -> Evaluator:
    """The golden run of ``model`` on its inputs (files, else generated from ``seed``), ready for trials."""
    from dumpscope.core.onnx.graph import graph_facts
    from dumpscope.core.onnx.runner import _given_files, _given_shapes, load_model, resolve_inputs

    proto, source_dir, _path, _sha = load_model(model)
    facts = graph_facts(proto.graph)
    model_inputs = resolve_inputs(
        proto.graph, facts, _given_files(inputs, facts.graph_inputs), _given_shapes(input_shapes), seed
    )
    return Evaluator(proto, target, model_inputs, source_dir)


def diagnosis_seeds(model: str | Path, ev: Evaluator) -> tuple[list[Change], list[str]]:
    """The changes ``dumpscope diagnose`` advises for the model's target (its ranked causes' ``patch``
    commands, in rank order), and notes; made from a golden and a target dump of the same inputs."""
    from dumpscope.core.atomic import atomic_binary
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.diagnosis.engine import diagnose
    from dumpscope.core.dumps import DumpError
    from dumpscope.core.onnx.runner import dump_model

    with tempfile.TemporaryDirectory(prefix="dumpscope-fix-seed-") as tmp:
        work = Path(tmp)
        files: dict[str, Path] = {}
        for i in ev.inputs:
            files[i.name] = work / f"input{len(files)}.npy"
            with atomic_binary(
                files[i.name]
            ) as fh:  # (a private temporary folder: the one writer all the same)
                np.save(fh, i.array, allow_pickle=False)
        try:
            dump_model(model, work / "golden", inputs=files)
            dump_model(model, work / "target", inputs=files, target=ev.target)
            causes = diagnose(compare(work / "golden", work / "target", model=model)).root_causes
        except DumpError as exc:
            return [], [f"no diagnosis to seed the search: {exc}"]
    known = {n.name for n in ev.facts.nodes} | set(ev.facts.producer)
    seeds = changes_from_commands([c for cause in causes for c in cause.commands], known)
    why = [
        f"diagnosis rank {k}: {cause.cause} at {cause.node_name or cause.name!r}"
        for k, cause in enumerate(causes[:3], 1)
    ]
    return seeds, why


def find_fix(
    model: str | Path,
    target: str,
    *,
    inputs: Inputs = None,
    input_shapes: Shapes = None,
    seed: int = 0,
    tolerance: Tolerance | None = None,
    budget: int = DEFAULT_BUDGET,
    progress: FixProgress | None = None,
    use_diagnosis: bool = True,
) -> FixResult:
    """The smallest verified fix of ``model`` on ``target`` (see :mod:`dumpscope.core.fix.search`)."""
    tol = tolerance or Tolerance(DEFAULT_TOLERANCE[target])
    with open_evaluator(model, target, inputs=inputs, input_shapes=input_shapes, seed=seed) as ev:
        seeds, notes = diagnosis_seeds(model, ev) if use_diagnosis else ([], [])
        result = FixSearch(ev, tol, budget, progress).run(seeds)
    result.notes[:0] = notes
    return result
