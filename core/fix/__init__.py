"""``dumpscope fix``: the smallest verified set of changes that brings a target within tolerance of the
ORIGINAL golden (:mod:`.search`), measured by trials (:mod:`.trial`), written in each toolchain's own
terms (:mod:`.emit`)."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

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
    "fix_from_comparison",
    "open_evaluator",
]

Inputs = Mapping[str, str | Path] | Sequence[str] | None
Shapes = str | Mapping[str, tuple[int, ...]] | None


def open_evaluator(
    model: str | Path, target: str, *, inputs: Inputs = None, input_shapes: Shapes = None, seed: int = 0
) -> Evaluator:
    """The golden run of ``model`` on its inputs (files, else generated from ``seed``), ready for trials."""
    from dumpscope.core.onnx.graph import graph_facts
    from dumpscope.core.onnx.inputs import given_files, given_shapes, resolve_inputs
    from dumpscope.core.onnx.runner import load_model

    proto, source_dir, _path, _sha = load_model(model)
    facts = graph_facts(proto.graph)
    model_inputs = resolve_inputs(
        proto.graph, facts, given_files(inputs, facts.graph_inputs), given_shapes(input_shapes), seed
    )
    return Evaluator(proto, target, model_inputs, source_dir)


def diagnosis_seeds(model: str | Path, ev: Evaluator) -> tuple[list[Change], list[str]]:
    """The changes ``dumpscope diagnose`` advises for the model's target (its ranked causes' ``patch``
    commands, in rank order), and notes; made from a golden and a target dump of the same inputs."""
    from dumpscope.core.atomic import save_npy
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.diagnosis.engine import diagnose
    from dumpscope.core.dumps import DumpError
    from dumpscope.core.onnx.runner import dump_model
    from dumpscope.core.onnx.targets import TARGETS

    if ev.target not in TARGETS:
        return [], [f"no diagnosis to seed the search: `dumpscope dump` makes no {ev.target} target"]
    with tempfile.TemporaryDirectory(prefix="dumpscope-fix-seed-") as tmp:
        work = Path(tmp)
        files: dict[str, Path] = {}
        for i in ev.inputs:
            files[i.name] = work / f"input{len(files)}.npy"
            save_npy(files[i.name], i.array)  # (a private temporary folder: the one writer all the same)
        try:
            dump_model(model, work / "golden", inputs=files)
            dump_model(model, work / "target", inputs=files, target=ev.target)
            causes = diagnose(compare(work / "golden", work / "target", model=model)).root_causes
        except DumpError as exc:
            return [], [f"no diagnosis to seed the search: {exc}"]
    known = {n.name for n in ev.facts.nodes} | set(ev.facts.producer)
    commands, why = causes_seeds(causes)
    return changes_from_commands(commands, known, ev.facts.graph_inputs), why


def causes_seeds(causes: Sequence[object]) -> tuple[list[str], list[str]]:
    """The ``dumpscope patch`` commands of a diagnosis' ranked causes, in rank order, and one note for each of
    the first three causes."""
    commands = [c for cause in causes for c in cause.commands]  # type: ignore[attr-defined]  # RootCause
    why = [
        f"diagnosis rank {k}: {cause.cause} at {cause.node_name or cause.name!r}"  # type: ignore[attr-defined]  # RootCause
        for k, cause in enumerate(causes[:3], 1)
    ]
    return commands, why


def fix_from_comparison(
    cmp: object,
    diagnosis: object | None = None,
    *,
    tolerance: Tolerance | None = None,
    budget: int = DEFAULT_BUDGET,
    progress: FixProgress | None = None,
) -> FixResult:
    """The fix search for the pair a comparison was made of: the model it names, the target its target dump
    was made for (``dumpscope dump --target fp16|int8``), the golden dump's own inputs; seeded by
    ``diagnosis`` (a :class:`~dumpscope.core.diagnosis.engine.Diagnosis` of that comparison) when given.
    A :class:`~dumpscope.core.dumps.DumpError` says what is missing."""
    from dumpscope.core.dumps import DumpError

    golden, target = getattr(cmp, "golden", None), getattr(cmp, "target", None)
    gm = golden.meta.get("manifest") if golden is not None else None
    tm = target.meta.get("manifest") if target is not None else None
    if not isinstance(gm, dict) or not isinstance(tm, dict):
        raise DumpError(
            "the fix search needs dumps made by `dumpscope dump` (their manifests name the model)"
        )
    kind = tm.get("target")
    if kind not in FIX_TARGETS:
        raise DumpError(
            f"the target dump was made for {kind or 'no target'!s}; the fix search works for "
            f"{', '.join(FIX_TARGETS)} (dumpscope dump --target ...)"
        )
    model = getattr(getattr(cmp, "meta", None), "model", None) or gm.get("model")
    if not model or not Path(str(model)).is_file():
        raise DumpError(f"the model {model or '(none named)'} is not there: give it with --model")
    causes = list(getattr(diagnosis, "root_causes", []) or [])
    frame = re.match(r"frame\d+/", str(causes[0].name)) if causes else None
    inputs = _frame_inputs(
        Path(str(golden.path)),  # type: ignore[union-attr]  # the manifest check above needs a golden
        gm.get("inputs", []),
        frame.group(0) if frame else None,
    )
    seeds = causes_seeds(causes) if diagnosis is not None else None
    return find_fix(
        str(model),
        str(kind),
        inputs=inputs,
        tolerance=tolerance,
        budget=budget,
        progress=progress,
        seeds=seeds,
    )


def _frame_inputs(folder: Path, entries: Sequence[object], frame: str | None) -> dict[str, Path]:
    """The golden dump's input files by input name; a dump of several frames (names ``frameN/x``, as the
    demo's) gives ``frame``'s (the frame of the diagnosis' first cause), else the first frame's."""
    files = [
        (e["name"], e["file"]) for e in entries if isinstance(e, dict) and e.get("name") and e.get("file")
    ]
    framed = [m.group(0) for n, _ in files if (m := re.match(r"frame\d+/", str(n)))]
    first = (frame if frame in framed else framed[0]) if framed and len(framed) == len(files) else ""
    return {n.removeprefix(first): folder / f for n, f in files if not first or n.startswith(first)}


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
    seeds: tuple[Sequence[str], Sequence[str]] | None = None,
) -> FixResult:
    """The smallest verified fix of ``model`` on ``target`` (see :mod:`dumpscope.core.fix.search`).
    ``seeds``: ``(patch commands, notes)`` of a diagnosis already made (:func:`causes_seeds`); else one is
    made when ``use_diagnosis``."""
    tol = tolerance or Tolerance(DEFAULT_TOLERANCE[target])
    with open_evaluator(model, target, inputs=inputs, input_shapes=input_shapes, seed=seed) as ev:
        if seeds is not None:
            known = {n.name for n in ev.facts.nodes} | set(ev.facts.producer)
            changes, notes = changes_from_commands(seeds[0], known, ev.facts.graph_inputs), list(seeds[1])
        else:
            changes, notes = diagnosis_seeds(model, ev) if use_diagnosis else ([], [])
        result = FixSearch(ev, tol, budget, progress).run(changes)
    result.notes[:0] = notes
    return result
