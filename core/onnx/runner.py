"""Golden and hardware-free target dumps of an ONNX model with onnxruntime.

:func:`dump_model` runs a model on the CPU and writes every node output as a
``.npy`` file named with :func:`~dumpscope.core.names.to_filename`, the graph
inputs (given or generated from a seed) under ``inputs/``, the constants nodes
read, and ``manifest.json`` holding the true names and graph facts of each tensor.
The recipes for targets (fp16, int8, optimized) are in :mod:`dumpscope.core.onnx.targets`.

Its parts: the inputs (:mod:`~dumpscope.core.onnx.inputs`), the fetch groups that keep
memory bounded (:mod:`~dumpscope.core.onnx.fetch_groups`), the manifest
(:mod:`~dumpscope.core.onnx.manifest`) and the output folder swapped into place
(:mod:`~dumpscope.core.onnx.out_dir`); this module runs them and writes the tensors.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import onnx

from dumpscope.core.atomic import save_npy
from dumpscope.core.dumps import DumpError
from dumpscope.core.names import display, to_filename
from dumpscope.core.onnx.fetch_groups import (
    UNKNOWN_SIZE,
    GroupSessions,
    estimate_sizes,
    group_by_budget,
    run_group,
)
from dumpscope.core.onnx.graph import GraphFacts, graph_facts
from dumpscope.core.onnx.inputs import ModelInput, given_files, given_shapes, resolve_inputs, save_inputs
from dumpscope.core.onnx.manifest import (
    manifest_header,
    node_entries,
    sha256_of,
    tensor_entry,
    write_manifest,
)
from dumpscope.core.onnx.model_io import text_names
from dumpscope.core.onnx.out_dir import staged_out_dir
from dumpscope.core.onnx.targets import TARGETS, Prepared, open_session, prepare_golden

if TYPE_CHECKING:
    import onnxruntime as ort

DEFAULT_MAX_MEMORY_MB = 128

OnProgress = Callable[[int, int], None]
"""Called as ``progress(done, total)``: a dump's runs, a diagnosis's replays."""


def _not_numeric(value: object) -> str | None:
    """Why ``value`` cannot be stored as a plain .npy (None when it can)."""
    if isinstance(value, np.ndarray):
        return "strings" if value.dtype == object else None
    return "a sequence" if isinstance(value, list) else f"a {type(value).__name__}"


def _store(out_dir: Path, entry: dict[str, Any], arr: np.ndarray) -> None:
    rel = to_filename(entry["name"])
    save_npy(out_dir / rel, arr)
    entry.update(file=rel, dtype=str(arr.dtype), shape=list(arr.shape))


def _input_entries(
    prepared: Prepared, inputs: Sequence[ModelInput], input_entries: Mapping[str, dict[str, Any]], prefix: str
) -> list[dict[str, Any]]:
    """Manifest entries of the graph inputs (those not fetched point at ``inputs/``)."""
    facts = prepared.facts
    fetched = {n for n in prepared.fetch if n in facts.graph_inputs}
    entries = []
    for inp in inputs:
        entry = tensor_entry(facts, inp.name, "input", prefix=prefix)
        if inp.name not in fetched:
            src = input_entries[prefix + inp.name]
            entry.update(file=src["file"], dtype=src["dtype"], shape=src["shape"])
        entry.update(prepared.extra.get(inp.name, {}))
        entries.append(entry)
    return entries


def _constant_entries(
    prepared: Prepared, out_dir: Path, prefix: str, notes: list[str]
) -> list[dict[str, Any]]:
    """Write the constants nodes read; a constant that cannot be stored is a note."""
    entries = []
    for name, load in prepared.constants.items():
        entry = tensor_entry(prepared.facts, name, "constant", prefix=prefix)
        try:
            value = load()
        except (OSError, ValueError, onnx.checker.ValidationError) as exc:
            notes.append(f"constant {display(name)!r} not dumped: {exc}")
            continue
        if (why := _not_numeric(value)) is not None:
            notes.append(f"constant {display(name)!r} holds {why}; not dumped")
            continue
        _store(out_dir, entry, value)
        entry.update(prepared.extra.get(name, {}))
        entries.append(entry)
    return entries


def _fetched_kind(facts: GraphFacts, name: str) -> str:
    if name in facts.graph_inputs:
        return "input"
    return "constant" if name in facts.initializers | facts.constants else "activation"


def dump_prepared(
    prepared: Prepared,
    session: ort.InferenceSession,
    inputs: Sequence[ModelInput],
    out_dir: Path,
    *,
    sizes: Mapping[str, int],
    budget_bytes: int,
    input_entries: Mapping[str, dict[str, Any]],
    prefix: str = "",
    topo_offset: int = 0,
    progress: OnProgress | None = None,
    sessions: Callable[[list[str]], ort.InferenceSession] | None = None,
) -> tuple[list[dict[str, Any]], list[str], int]:
    """Run ``prepared`` and write its tensors; return (manifest entries, notes, number of runs).

    ``sessions(group)``: the session to fetch ``group`` with (default: ``session`` for
    every group; see :class:`GroupSessions` for bounded memory).
    """
    feeds = {prepared.feed_names.get(i.name, i.name): i.array for i in inputs}
    notes: list[str] = []
    entries = _input_entries(prepared, inputs, input_entries, prefix)
    entries += _constant_entries(prepared, out_dir, prefix, notes)
    written = _Written(prepared, out_dir, prefix, topo_offset, entries, notes)
    by_fetch = {fetch: true for true, fetch in prepared.fetch.items()}
    groups = group_by_budget(
        list(by_fetch), {f: sizes.get(t, UNKNOWN_SIZE) for f, t in by_fetch.items()}, budget_bytes
    )
    session_for = sessions or (lambda _group: session)
    for run, group in enumerate(groups):
        _report(progress, run, len(groups))
        for fetch_name, value in zip(group, run_group(session_for(group), group, feeds), strict=False):
            written.add(by_fetch[fetch_name], value)
    _report(progress, len(groups), len(groups))
    return entries, notes, len(groups)


def _report(progress: OnProgress | None, done: int, total: int) -> None:
    """Tell ``progress`` (when given) how many runs are done."""
    if progress is not None:
        progress(done, total)


@dataclass
class _Written:
    """The manifest entries and notes of one run's tensors, as they are written."""

    prepared: Prepared
    out_dir: Path
    prefix: str
    topo_offset: int
    entries: list[dict[str, Any]]
    """Inputs and constants first; a fetched tensor of the same name replaces its entry."""
    notes: list[str]

    def __post_init__(self) -> None:
        self.position = {e["name"]: k for k, e in enumerate(self.entries)}

    def add(self, true: str, value: object) -> None:
        """Write tensor ``true`` as fetched; a value that is not a numeric array is a note."""
        facts = self.prepared.facts
        if (why := _not_numeric(value)) is not None:
            self.notes.append(f"tensor {display(true)!r} holds {why}; not dumped")
            return
        assert isinstance(value, np.ndarray)  # _not_numeric found none else
        entry = tensor_entry(
            facts, true, _fetched_kind(facts, true), prefix=self.prefix, topo_offset=self.topo_offset
        )
        _store(self.out_dir, entry, value)
        entry.update(self.prepared.extra.get(true, {}))
        _place(self.entries, self.position, entry)


def _place(entries: list[dict[str, Any]], position: Mapping[str, int], entry: dict[str, Any]) -> None:
    """A fetched tensor replaces the entry of the same name (an input or constant), else is appended."""
    if entry["name"] in position:
        entries[position[entry["name"]]] = entry
    else:
        entries.append(entry)


def _check_target(target: str | None) -> None:
    """An unknown ``--target`` is a usage error."""
    if target is not None and target not in TARGETS:
        raise DumpError(f"unknown target {target!r} (choose from {', '.join(TARGETS)})")


def _check_options(max_memory_mb: float, seed: int) -> None:
    """Usage errors caught before anything is read or written."""
    if not isinstance(max_memory_mb, (int, float)) or not math.isfinite(max_memory_mb) or max_memory_mb <= 0:
        raise DumpError(f"--max-memory must be a positive, finite number of MB (got {max_memory_mb!r})")
    if not isinstance(seed, int) or seed < 0:
        raise DumpError(f"--seed must be a non-negative integer (got {seed!r})")


def load_model(
    model: str | Path | onnx.ModelProto,
) -> tuple[onnx.ModelProto, Path | None, str | None, str | None]:
    """(proto without external data, its directory, absolute path, sha256 of the file)."""
    if isinstance(model, onnx.ModelProto):
        return model, None, None, None
    path = Path(model).resolve()
    if not path.is_file():
        raise DumpError(f"{model}: no such model file")
    try:
        proto = onnx.load_model(str(path), load_external_data=False)
    except Exception as exc:  # noqa: BLE001 - protobuf raises DecodeError and friends
        raise DumpError(f"{model}: not a readable ONNX model ({type(exc).__name__})") from None
    return text_names(proto), path.parent, str(path), sha256_of(path)


def dump_model(
    model: str | Path | onnx.ModelProto,
    out_dir: str | Path,
    *,
    inputs: Mapping[str, str | Path] | Sequence[str] | None = None,
    input_shapes: str | Mapping[str, tuple[int, ...]] | None = None,
    seed: int = 0,
    target: str | None = None,
    max_memory_mb: float = DEFAULT_MAX_MEMORY_MB,
    progress: OnProgress | None = None,
) -> dict[str, Any]:
    """Dump every tensor of ``model`` run by onnxruntime into ``out_dir``; return the manifest.

    ``inputs``: ``{name: file.npy}`` or ``["name=file.npy", ...]``; inputs not given are
    generated from ``seed``.  ``input_shapes``: ``"x:1,3;y:2"`` or ``{name: shape}`` for
    inputs with dynamic dims.  ``target``: None (golden), ``fp16``, ``int8`` or
    ``optimized``.  Raises :class:`DumpError` with a one-line message on bad input.
    """
    _check_target(target)
    _check_options(max_memory_mb, seed)
    proto, source_dir, model_path, model_sha = load_model(model)
    facts = graph_facts(proto.graph)
    shapes = given_shapes(input_shapes)
    files = given_files(inputs, facts.graph_inputs)
    model_inputs = resolve_inputs(proto.graph, facts, files, shapes, seed)
    with staged_out_dir(Path(out_dir)) as out:
        input_entries = save_inputs(out, model_inputs)
        with tempfile.TemporaryDirectory(prefix="dumpscope-") as tmp:
            prepared = prepare_target(proto, facts, Path(tmp), source_dir, target, model_inputs)
            session = open_session(prepared.path, proto, data_dir=prepared.data_dir)
            reported = (
                proto
                if prepared.facts is facts
                else onnx.load_model(str(prepared.path), load_external_data=False)
            )
            sizes = estimate_sizes(reported, prepared.facts, model_inputs)
            groups = GroupSessions(prepared, proto, session)
            del session  # held by ``groups`` only, so it is freed once a group needs its own
            entries, notes, runs = dump_prepared(
                prepared,
                None,
                model_inputs,
                out,
                sizes=sizes,
                budget_bytes=int(max_memory_mb * (1 << 20)),
                input_entries={e["name"]: e for e in input_entries},
                progress=progress,
                sessions=groups,
            )
            del groups
        manifest: dict[str, Any] = {
            **manifest_header(model_path, model_sha, target, seed),
            "ort_runs": runs,
            "inputs": input_entries,
            "tensors": entries,
            "nodes": node_entries(prepared.facts, prepared.fused_from),
            "clamped": prepared.clamped,
            "notes": [*prepared.notes, *(f"graph problem: {p}" for p in facts.problems), *notes],
        }
        write_manifest(out, manifest)
    return manifest


def prepare_target(
    proto: onnx.ModelProto,
    facts: GraphFacts,
    work: Path,
    source_dir: Path | None,
    target: str | None,
    inputs: Sequence[ModelInput],
) -> Prepared:
    """The :class:`Prepared` run for ``target`` (None = golden)."""
    from dumpscope.core.onnx import fp16_target, int8_target, optimized_target

    if target is None:
        return prepare_golden(proto, facts, work, source_dir)
    if target == "fp16":
        probe = prepare_golden(proto, facts, work, source_dir)
        session = open_session(probe.path, proto, data_dir=probe.data_dir)
        types = {o.name: o.type for o in session.get_outputs()} | {
            i.name: i.type for i in session.get_inputs()
        }
        del session
        return fp16_target.prepare_fp16(proto, facts, work, source_dir, types)
    if target == "int8":
        return int8_target.prepare_int8(proto, facts, work, source_dir, [{i.name: i.array for i in inputs}])
    return optimized_target.prepare_optimized(proto, facts, work, source_dir)
