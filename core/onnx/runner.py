"""Golden and hardware-free target dumps of an ONNX model with onnxruntime.

:func:`dump_model` runs a model on the CPU and writes every node output as a
``.npy`` file named with :func:`~dumpscope.core.names.to_filename`, the graph
inputs (given or generated from a seed) under ``inputs/``, the constants nodes
read, and ``manifest.json`` holding the true names and graph facts of each tensor.
The recipes for targets (fp16, int8, optimized) are in :mod:`dumpscope.core.onnx.targets`.

Memory stays bounded: onnxruntime's Python API returns the requested outputs of a
run together, so outputs are fetched in groups whose estimated size (from shape
inference) stays under a budget, each group written and dropped before the next run.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import stat
import tempfile
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import onnx
from onnx import helper

from dumpscope.core.atomic import atomic_binary, write_bytes, write_text
from dumpscope.core.dumps import DumpError, TensorReadError
from dumpscope.core.formats.npyfile import open_npy
from dumpscope.core.heap import map_large_blocks, trim_free_heap
from dumpscope.core.names import display, to_filename
from dumpscope.core.onnx.graph import GraphFacts, NodeFacts, graph_facts, outer_scope_inputs
from dumpscope.core.onnx.model_io import text_names
from dumpscope.core.onnx.targets import TARGETS, Prepared, open_session, prepare_golden

if TYPE_CHECKING:
    import onnxruntime as ort

MANIFEST_FORMAT = "dumpscope-manifest"
MANIFEST_VERSION = 1
DEFAULT_MAX_MEMORY_MB = 128
_UNKNOWN_SIZE = 1 << 20  # bytes assumed for a tensor shape inference could not size

OnProgress = Callable[[int, int], None]
"""Called as ``progress(done, total)``: a dump's runs, a diagnosis's replays."""


# ----------------------------------------------------------------- inputs


def parse_input_shapes(text: str | None) -> dict[str, tuple[int, ...]]:
    """``"x:1,3,224,224;y:1,16"`` (msit / ATC syntax) -> ``{"x": (1, 3, 224, 224), ...}``."""
    items = (item.strip() for item in (text or "").split(";"))
    return dict(_shape_item(item) for item in items if item)


def _shape_item(item: str) -> tuple[str, tuple[int, ...]]:
    """One ``NAME:D1,D2,...`` item of ``--input-shape``."""
    name, sep, dims = item.rpartition(":")
    if not sep or not name:
        raise DumpError(f"bad --input-shape item {item!r}: expected NAME:D1,D2,... (e.g. x:1,3,224,224)")
    shape = _int_dims(item, dims)
    if any(d < 0 for d in shape):
        raise DumpError(f"bad --input-shape item {item!r}: dimensions must be >= 0")
    return name, shape


def _int_dims(item: str, dims: str) -> tuple[int, ...]:
    """``"1,3,224"`` -> ``(1, 3, 224)``; empty text is a scalar's shape ``()``."""
    try:
        return tuple(int(d) for d in dims.split(",")) if dims.strip() else ()
    except ValueError:
        raise DumpError(f"bad --input-shape item {item!r}: dimensions must be integers") from None


def parse_input_files(items: Sequence[str], input_names: Sequence[str]) -> dict[str, Path]:
    """``["x=a.npy", ...]`` -> ``{"x": Path("a.npy")}``; a bare path is fine for a one-input model."""
    files: dict[str, Path] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep:
            if len(input_names) != 1:
                raise DumpError(f"--input {item!r}: give NAME=FILE.npy (inputs: {', '.join(input_names)})")
            name, path = input_names[0], item
        files[name] = Path(path)
    return files


def _np_dtype(elem_type: int) -> np.dtype:
    return np.dtype(helper.tensor_dtype_to_np_dtype(elem_type))


def generate_input(name: str, dtype: np.dtype, shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Deterministic data for one input: the same (name, dtype, shape, seed) gives the same bytes.

    Floats are standard normal; integers are small and non-negative (0..3, safe as
    indices and lengths); booleans are fair coin flips.
    """
    rng = np.random.default_rng([seed, zlib.crc32(name.encode("utf-8", "surrogateescape"))])
    if dtype == np.bool_:
        return np.asarray(rng.random(shape) < 0.5)  # asarray: shape () gives a numpy scalar
    if np.issubdtype(dtype, np.integer):
        return np.asarray(rng.integers(0, 4, size=shape), dtype=dtype)
    if np.issubdtype(dtype, np.floating) or dtype.kind == "V":
        return np.asarray(rng.standard_normal(shape), dtype=dtype)
    raise DumpError(f"input {name!r}: cannot generate data of type {dtype}; give it with --input")


def _dims(vi: onnx.ValueInfoProto) -> list[int | str] | None:
    tt = vi.type.tensor_type
    if not tt.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or "?") for d in tt.shape.dim]


@dataclass(frozen=True)
class ModelInput:
    name: str
    array: np.ndarray
    generated: bool


def _check_names(
    real: Mapping[str, object], files: Mapping[str, Path], shapes: Mapping[str, tuple[int, ...]]
) -> None:
    """``--input`` and ``--input-shape`` may only name real graph inputs."""
    for what, given in (("--input", files), ("--input-shape", shapes)):
        unknown = [n for n in given if n not in real]
        if unknown:
            raise DumpError(
                f"{what}: no graph input named {', '.join(map(repr, unknown))} "
                f"(inputs: {', '.join(map(repr, real)) or 'none'})"
            )


def _generated_shape(
    name: str, dims: list[int | str] | None, given: tuple[int, ...] | None
) -> tuple[int, ...]:
    """The shape of a generated input: ``--input-shape``, or the model's static dims."""
    if given is not None:
        _check_shape(name, dims, given, "--input-shape")
        return given
    if dims is not None and all(map(_is_known_dim, dims)):
        return tuple(int(d) for d in dims)
    raise DumpError(_needs_shape(name, dims))


def _is_known_dim(d: int | str) -> bool:
    """A dimension the model fixes (not symbolic, not -1 or 0 for "any")."""
    return isinstance(d, int) and d > 0


def _needs_shape(name: str, dims: list[int | str] | None) -> str:
    """Why an input's data cannot be generated, with an example ``--input-shape`` to give."""
    symbolic = [d for d in (dims or []) if not _is_known_dim(d)]
    example = ",".join(str(d) if _is_known_dim(d) else "1" for d in (dims or [1]))
    what_dims = f"dynamic dims {symbolic} (shape {dims})" if dims is not None else "no known shape"
    return (
        f"input {name!r} has {what_dims}: give its shape with --input-shape "
        f'"{name}:{example}" or its data with --input {name}=FILE.npy'
    )


def _one_input(
    name: str,
    vi: onnx.ValueInfoProto,
    files: Mapping[str, Path],
    shapes: Mapping[str, tuple[int, ...]],
    seed: int,
) -> ModelInput:
    if not vi.type.HasField("tensor_type"):
        raise DumpError(f"input {name!r} is not a tensor; only tensor inputs are supported")
    dtype = _np_dtype(vi.type.tensor_type.elem_type)
    dims = _dims(vi)
    if name in files:
        arr = _read_input_file(name, files[name], dtype)
        _check_shape(name, dims, tuple(arr.shape), f"file {files[name]}")
        return ModelInput(name, arr, False)
    shape = _generated_shape(name, dims, shapes.get(name))
    return ModelInput(name, generate_input(name, dtype, shape, seed), True)


def resolve_inputs(
    graph: onnx.GraphProto,
    facts: GraphFacts,
    files: Mapping[str, Path],
    shapes: Mapping[str, tuple[int, ...]],
    seed: int,
) -> list[ModelInput]:
    """The data of every real graph input: read from ``files`` or generated."""
    real = {vi.name: vi for vi in graph.input if vi.name in facts.graph_inputs}
    _check_names(real, files, shapes)
    return [_one_input(name, vi, files, shapes, seed) for name, vi in real.items()]


def _read_input_file(name: str, path: Path, dtype: np.dtype) -> np.ndarray:
    """One ``--input`` array: a regular ``.npy`` file (a FIFO is never opened), header checked first."""
    if not path.exists():
        raise DumpError(f"--input {name}: {path}: no such file")
    if not path.is_file():
        raise DumpError(f"--input {name}: {path} is not a regular file")
    return _as_model_dtype(name, path, _load_single_npy(name, path), dtype)


def _load_single_npy(name: str, path: Path) -> np.ndarray:
    """The array of a ``.npy`` file; an ``.npz`` (a zip: several arrays) is refused."""
    try:
        with path.open("rb") as fh:
            if fh.read(2) == b"PK":
                raise DumpError(f"--input {name}: {path} holds several arrays; give a single .npy file")
        _shape, _dtype, loader = open_npy(path)
        return np.array(loader())
    except (TensorReadError, OSError) as exc:
        raise DumpError(f"--input {name}: {path} is not a readable .npy file ({exc})") from None


def _as_model_dtype(name: str, path: Path, arr: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``arr`` cast to the input's type when that is a same-kind cast (int32 -> int64), else refused."""
    if arr.dtype == dtype:
        return arr
    if not np.can_cast(arr.dtype, dtype, casting="same_kind"):
        raise DumpError(f"--input {name}: {path} holds {arr.dtype}, the model expects {dtype}")
    return arr.astype(dtype)


def _check_shape(name: str, dims: list[int | str] | None, shape: tuple[int, ...], source: str) -> None:
    """Refuse a given shape (from ``source``) the model's known dims contradict."""
    if dims is not None and not _fits(dims, shape):
        raise DumpError(f"input {name!r}: {source} gives shape {list(shape)}, the model expects {dims}")


def _fits(dims: list[int | str], shape: tuple[int, ...]) -> bool:
    """``shape`` has the model's rank and agrees with every dimension the model fixes."""
    return len(dims) == len(shape) and not any(
        _is_known_dim(d) and d != s for d, s in zip(dims, shape, strict=False)
    )


def save_inputs(out_dir: Path, inputs: Sequence[ModelInput], prefix: str = "") -> list[dict[str, Any]]:
    """Write inputs under ``out_dir/inputs/`` and return their manifest entries."""
    entries = []
    (out_dir / "inputs").mkdir(parents=True, exist_ok=True)
    for inp in inputs:
        rel = f"inputs/{to_filename(prefix + inp.name)}"
        save_npy(out_dir / rel, inp.array)
        entries.append(
            {
                "name": prefix + inp.name,
                "file": rel,
                "sha256": _sha256(out_dir / rel),
                "generated": inp.generated,
                "dtype": str(inp.array.dtype),
                "shape": list(inp.array.shape),
            }
        )
    return entries


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# ----------------------------------------------------------------- onnxruntime


def estimate_sizes(proto: onnx.ModelProto, facts: GraphFacts, inputs: Sequence[ModelInput]) -> dict[str, int]:
    """Bytes of each node output, from shape inference with the inputs' real shapes.

    A tensor shape inference cannot size gets the largest size among its node's
    inputs (right for elementwise ops, the common case), else 1 MiB.
    """
    known: dict[str, int] = {i.name: i.array.nbytes for i in inputs}
    _add_inferred_sizes(_with_input_shapes(proto, inputs), known)
    for node in facts.nodes:
        fallback = max((known.get(i, 0) for i in node.inputs), default=0) or _UNKNOWN_SIZE
        for out in node.outputs:
            known.setdefault(out, fallback)
    return known


def _with_input_shapes(proto: onnx.ModelProto, inputs: Sequence[ModelInput]) -> onnx.ModelProto:
    """A copy of the model whose graph inputs declare the shapes of the data given to them."""
    graph = onnx.GraphProto()
    graph.CopyFrom(proto.graph)
    shapes = {i.name: i.array.shape for i in inputs}
    for vi in graph.input:
        if vi.name in shapes:
            _declare_shape(vi, shapes[vi.name])
    return helper.make_model(graph, opset_imports=proto.opset_import, ir_version=proto.ir_version)


def _declare_shape(vi: onnx.ValueInfoProto, shape: tuple[int, ...]) -> None:
    """Replace the declared shape of a graph input by ``shape``."""
    vi.type.tensor_type.ClearField("shape")
    for d in shape:
        vi.type.tensor_type.shape.dim.add().dim_value = d


def _add_inferred_sizes(model: onnx.ModelProto, known: dict[str, int]) -> None:
    """Bytes of every tensor shape inference gives a full static shape and a type."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False, data_prop=True)
        for vi in (*inferred.graph.value_info, *inferred.graph.output):
            size = _static_bytes(vi.type.tensor_type)
            if size is not None:
                known[vi.name] = size
    except Exception:  # noqa: BLE001 - inference is a best effort; sizes fall back in estimate_sizes
        pass


def _static_bytes(tt: onnx.TypeProto.Tensor) -> int | None:
    """Bytes of a tensor type with a known element type and only fixed dims, else None."""
    if not tt.elem_type or not tt.HasField("shape") or not all(d.HasField("dim_value") for d in tt.shape.dim):
        return None
    dims = [d.dim_value for d in tt.shape.dim]
    return int(np.prod(dims, dtype=np.int64)) * _np_dtype(tt.elem_type).itemsize


def group_by_budget(names: Sequence[str], sizes: Mapping[str, int], budget: int) -> list[list[str]]:
    """Consecutive groups whose summed size stays under ``budget`` (a bigger tensor goes alone)."""
    groups: list[list[str]] = []
    current: list[str] = []
    total = 0
    for name in names:
        size = sizes.get(name, _UNKNOWN_SIZE)
        if current and total + size > budget:
            groups.append(current)
            current, total = [], 0
        current.append(name)
        total += size
    if current:
        groups.append(current)
    return groups


# ----------------------------------------------------------------- dumping


def manifest_header(
    model_path: str | None, model_sha: str | None, target: str | None, seed: int
) -> dict[str, Any]:
    """The fields every manifest starts with (our dumps and the demo's)."""
    import onnxruntime as ort

    return {
        "format": MANIFEST_FORMAT,
        "version": MANIFEST_VERSION,
        "model": model_path,
        "model_sha256": model_sha,
        "producer": f"onnxruntime {ort.__version__}",
        "target": target,
        "seed": seed,
    }


def tensor_entry(
    facts: GraphFacts, name: str, kind: str, *, prefix: str = "", topo_offset: int = 0
) -> dict[str, Any]:
    """Manifest fields of one tensor that come from the graph."""
    made = _producer_fields(facts.producer.get(name), name, prefix)
    return {
        "name": prefix + name,
        "file": None,
        "kind": kind,
        "node_name": made["node_name"],
        "op_type": made["op_type"],
        "topo_index": _topo_index(facts, name, kind, topo_offset),
        "node_inputs": made["node_inputs"],
        "output_index": made["output_index"],
        "dtype": None,
        "shape": None,
    }


_NO_PRODUCER: dict[str, Any] = {"node_name": None, "op_type": None, "node_inputs": [], "output_index": 0}
"""The producer fields of a graph input or initializer."""


def _producer_fields(node: NodeFacts | None, name: str, prefix: str) -> dict[str, Any]:
    """The manifest fields saying which node made tensor ``name``."""
    if node is None:
        return {**_NO_PRODUCER, "node_inputs": []}
    return {
        "node_name": prefix + node.name,
        "op_type": node.op_type,
        "node_inputs": [prefix + i for i in node.inputs],
        "output_index": node.outputs.index(name),
    }


def _topo_index(facts: GraphFacts, name: str, kind: str, offset: int) -> int:
    """An activation's topological index (shifted by ``offset``); -1 for inputs and constants."""
    topo = facts.tensor_order().get(name, -1) if kind == "activation" else -1
    return topo + offset if topo >= 0 else -1


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


def _run(session: ort.InferenceSession, group: list[str], feeds: Mapping[str, np.ndarray]) -> list[Any]:
    try:
        return session.run(group, feeds)
    except Exception as exc:  # noqa: BLE001 - onnxruntime's pybind errors have no common base
        raise DumpError(
            f"onnxruntime failed while running the model: {str(exc).strip().splitlines()[0]}"
        ) from None


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
        list(by_fetch), {f: sizes.get(t, _UNKNOWN_SIZE) for f, t in by_fetch.items()}, budget_bytes
    )
    session_for = sessions or (lambda _group: session)
    for run, group in enumerate(groups):
        _report(progress, run, len(groups))
        for fetch_name, value in zip(group, _run(session_for(group), group, feeds), strict=False):
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


class GroupSessions:
    """One onnxruntime session per fetch group, whose graph outputs are only that group.

    onnxruntime keeps every *graph output* alive until the end of a run, whichever
    outputs are fetched: with every node output exposed, one run holds all activations
    at once (1.7 GB for PP-OCRv4 det at 960x960, against 215 MB for a plain run), and
    fetching in groups changed nothing.  A session per group lets the runtime free all
    other activations as usual, so the peak is a plain run plus the group (the
    ``--max-memory`` budget).  The price: each group re-runs the graph up to its last
    tensor (the nodes it depends on), and each session is built anew (the full session is dropped first).
    """

    def __init__(self, prepared: Prepared, proto: onnx.ModelProto, full: ort.InferenceSession) -> None:
        self.prepared, self.proto = prepared, proto
        self.full: ort.InferenceSession | None = full
        self._model: onnx.ModelProto | None = None

    def __call__(self, group: list[str]) -> ort.InferenceSession:
        if self.full is not None and len(group) == len(self.prepared.fetch):
            return self.full  # one group: the session already open
        self.full = None
        map_large_blocks()
        trim_free_heap()  # the previous group's session and tensors are gone by now
        return open_session(self._write(group), self.proto, data_dir=self.prepared.data_dir, arena=False)

    def _write(self, group: list[str]) -> Path:
        """The run model with only ``group`` as graph outputs, beside it (its external data resolves)."""
        if self._model is None:
            self._model = onnx.load_model(str(self.prepared.path), load_external_data=False)
            self._outputs = {o.name: o for o in self._model.graph.output}
        model = onnx.ModelProto()
        model.CopyFrom(self._model)
        del model.graph.output[:]
        model.graph.output.extend(self._outputs[name] for name in group)
        kept = _ancestors(model.graph, group)
        del model.graph.node[:]
        model.graph.node.extend(kept)
        _drop_unread_constants(model.graph, kept, group)
        path = self.prepared.path.with_name(f"{self.prepared.path.stem}.group.onnx")
        write_bytes(model.SerializeToString(), path)
        return path


def _ancestors(graph: onnx.GraphProto, wanted: Sequence[str]) -> list[onnx.NodeProto]:
    """The nodes ``wanted`` depend on, in file order: a group's run skips the rest of the graph.

    Outer-scope tensors read by If/Loop/Scan bodies count as inputs.
    """
    producer = {out: k for k, node in enumerate(graph.node) for out in node.output if out}
    keep: set[int] = set()
    todo = [producer[name] for name in wanted if name in producer]
    while todo:
        k = todo.pop()
        if k not in keep:
            keep.add(k)
            todo += _producers_of(graph.node[k], producer)
    return [node for k, node in enumerate(graph.node) if k in keep]


def _drop_unread_constants(
    graph: onnx.GraphProto, kept: Sequence[onnx.NodeProto], group: Sequence[str]
) -> None:
    """Remove the initializers no kept node reads, and their graph inputs.

    A pruned node leaves its initializers behind (an int8 model's zero points, say), and
    onnxruntime refuses an IR-3 model holding an initializer no node reads ("Graph ctor
    should have created NodeArg for initializer"); in IR 3 each initializer is also a
    graph input, which goes with it.
    """
    read = {*group}
    for node in kept:
        read.update(i for i in node.input if i)
        read |= outer_scope_inputs(node)
    dropped = {t.name for t in graph.initializer if t.name not in read}
    dropped |= {t.values.name for t in graph.sparse_initializer if t.values.name not in read}
    if not dropped:
        return
    for field in (graph.initializer, graph.sparse_initializer, graph.input):
        keep = [t for t in field if _name_of(t) not in dropped]
        del field[:]
        field.extend(keep)


def _name_of(entry: Any) -> str:
    return entry.values.name if isinstance(entry, onnx.SparseTensorProto) else entry.name


def _producers_of(node: onnx.NodeProto, producer: Mapping[str, int]) -> list[int]:
    """Indices of the nodes making what ``node`` reads (its bodies' outer-scope reads included)."""
    return [producer[i] for i in {*node.input, *outer_scope_inputs(node)} if i in producer]


def _place(entries: list[dict[str, Any]], position: Mapping[str, int], entry: dict[str, Any]) -> None:
    """A fetched tensor replaces the entry of the same name (an input or constant), else is appended."""
    if entry["name"] in position:
        entries[position[entry["name"]]] = entry
    else:
        entries.append(entry)


def node_entries(
    facts: GraphFacts,
    fused_from: Mapping[str, list[str]] | None,
    prefix: str = "",
    topo_offset: int = 0,
    constant_prefix: str | None = None,
) -> list[dict[str, Any]]:
    """The manifest's ``nodes``: each node's inputs and outputs as dumped.  ``constant_prefix``:
    where the initializers were dumped when it is not ``prefix`` (a per-frame dump keeps them
    once, under the first frame's prefix)."""
    nodes = []
    weights = constant_prefix if constant_prefix is not None else prefix
    for n in facts.nodes:
        entry: dict[str, Any] = {
            "name": prefix + n.name,
            "op_type": n.op_type,
            "index": n.index + topo_offset,
            "inputs": [(weights if i in facts.initializers else prefix) + i for i in n.inputs],
            "outputs": [prefix + o for o in n.outputs],
        }
        if n.domain:
            entry["domain"] = n.domain
        if fused_from is not None:
            entry["fused_from"] = [prefix + f for f in fused_from.get(n.name, [])]
        nodes.append(entry)
    return nodes


# ----------------------------------------------------------------- manifest


def write_manifest(out_dir: Path, manifest: Mapping[str, Any]) -> Path:
    path = out_dir / "manifest.json"
    write_text(json.dumps(manifest, indent=1, ensure_ascii=True, allow_nan=True), path)
    return path


def save_npy(path: Path, arr: np.ndarray) -> None:
    """One tensor as ``.npy`` (through :mod:`dumpscope.core.atomic`; never pickled)."""
    with atomic_binary(path) as fh:
        np.save(fh, arr, allow_pickle=False)


def read_manifest(path: str | Path) -> dict[str, Any]:
    """Read ``manifest.json`` (or the one in a dump directory) and check its format and version."""
    p = Path(path)
    if p.is_dir():
        p = p / "manifest.json"
    if p.exists() and not p.is_file():
        raise DumpError(f"{p}: not a regular file; not opened")
    return _check_manifest(p, _read_json(p))


def _read_json(p: Path) -> object:
    """The JSON document in ``p``; any failure is a one-line DumpError."""
    try:
        return json.loads(p.read_text(encoding="utf-8", errors="surrogateescape"))
    except FileNotFoundError:
        raise DumpError(f"{p}: no such file") from None
    except (OSError, ValueError) as exc:
        raise DumpError(f"{p}: not a readable manifest ({exc})") from None
    except RecursionError:
        raise DumpError(f"{p}: not a readable manifest (JSON nested too deeply)") from None


def _check_manifest(p: Path, data: object) -> dict[str, Any]:
    """``data``, refused unless it is a manifest of the version this dumpscope reads."""
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise DumpError(f"{p}: not a dumpscope manifest")
    if data.get("version") != MANIFEST_VERSION:
        raise DumpError(
            f"{p}: manifest version {data.get('version')!r} (this dumpscope reads {MANIFEST_VERSION})"
        )
    return data


def _listed_files(manifest: Mapping[str, Any]) -> set[str]:
    """Relative paths of the files an earlier dumpscope manifest says it wrote."""
    items = [item for key in ("tensors", "inputs") for item in _listed(manifest.get(key))]
    return {"manifest.json", *(f for item in items if isinstance(f := _file_of(item), str))}


def _listed(items: object) -> list[object]:
    """A manifest list (``tensors``, ``inputs``); anything else holds nothing."""
    return items if isinstance(items, list) else []


def _file_of(item: object) -> object:
    """The ``file`` field of a manifest entry (None when the entry is no object)."""
    return item.get("file") if isinstance(item, dict) else None


def _foreign_entry(out_dir: Path, listed: set[str]) -> str | None:
    """The first entry of ``out_dir`` a dumpscope dump would not hold (None when all are ours).

    Walked with ``lstat`` only: a symlink is always foreign, never followed.
    """
    for dirpath, dirnames, filenames in os.walk(out_dir, followlinks=False):
        rel_dir = Path(dirpath).relative_to(out_dir)
        foreign = next(
            chain(
                _foreign_dirs(dirpath, rel_dir, dirnames), _foreign_files(dirpath, rel_dir, filenames, listed)
            ),
            None,
        )
        if foreign is not None:
            return foreign
    return None


def _foreign_dirs(dirpath: str, rel_dir: Path, dirnames: list[str]) -> Iterator[str]:
    """Folders other than a real ``inputs/`` at the top."""
    for d in dirnames:
        rel = (rel_dir / d).as_posix()
        if rel != "inputs" or Path(dirpath, d).is_symlink():
            yield rel


def _foreign_files(dirpath: str, rel_dir: Path, filenames: list[str], listed: set[str]) -> Iterator[str]:
    """Files the earlier manifest does not list, and anything listed that is not a regular file."""
    for f in filenames:
        rel = (rel_dir / f).as_posix()
        if rel not in listed or not stat.S_ISREG(os.lstat(Path(dirpath, f)).st_mode):
            yield rel


def check_out_dir(out_dir: Path) -> bool:
    """Check that ``out_dir`` may be written; True when it holds an earlier dump to replace.

    Refuses a symlink, a non-directory, and a non-empty directory holding anything that
    an earlier ``dumpscope dump`` did not write (files not in its manifest, symlinks,
    folders other than ``inputs/``).  Nothing is followed, opened for writing or deleted.
    """
    if _absent_or_empty(out_dir):
        return False
    with _inspecting(out_dir):
        foreign = _foreign_in_earlier_dump(out_dir)
    if foreign is not None:
        raise DumpError(
            f"{out_dir}: holds {foreign!r}, which dumpscope did not write; refusing to replace it (choose a "
            "new -o directory)"
        )
    return True


def _absent_or_empty(out_dir: Path) -> bool:
    """True when ``out_dir`` does not exist or is an empty directory; a symlink or a file is refused."""
    if out_dir.is_symlink():
        raise DumpError(f"{out_dir}: is a symbolic link; give a real directory for -o")
    if not out_dir.exists():
        return True
    if not out_dir.is_dir():
        raise DumpError(f"{out_dir}: exists and is not a directory")
    with _inspecting(out_dir):
        return not any(out_dir.iterdir())


@contextmanager
def _inspecting(out_dir: Path) -> Iterator[None]:
    """An OSError while looking at the output directory becomes a one-line DumpError."""
    try:
        yield
    except OSError as exc:
        raise DumpError(f"{out_dir}: cannot inspect the output directory ({exc.strerror or exc})") from None


def _foreign_in_earlier_dump(out_dir: Path) -> str | None:
    """The first entry of a non-empty ``out_dir`` that an earlier dump did not write (None: all ours)."""
    manifest = out_dir / "manifest.json"
    if manifest.is_symlink() or not manifest.is_file():
        raise DumpError(f"{out_dir}: directory is not empty (choose a new -o directory)")
    return _foreign_entry(out_dir, _listed_files(read_manifest(out_dir)))


@contextmanager
def staged_out_dir(out_dir: Path) -> Iterator[Path]:
    """A fresh temporary folder beside ``out_dir``, renamed into place when the body succeeds.

    An earlier dump at ``out_dir`` (checked by :func:`check_out_dir`) is moved aside and
    removed only after the new one is in place.  On any error or Ctrl-C the temporary
    folder is removed and ``out_dir`` is left as it was.  ``shutil.rmtree`` never follows
    symlinks, and only folders this function created are removed.
    """
    out_dir = Path(os.path.abspath(out_dir))  # "." and "x/.." named; links are not resolved
    replace = check_out_dir(out_dir)
    work = _work_dir(out_dir)
    try:
        os.chmod(work, 0o777 & ~_umask())
        yield work
        _put_in_place(work, out_dir, replace)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def _work_dir(out_dir: Path) -> Path:
    """A new hidden temporary folder beside ``out_dir`` (its parent is created when missing)."""
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f".{out_dir.name[:40]}.dumpscope-tmp-", dir=out_dir.parent))
    except OSError as exc:
        raise DumpError(f"{out_dir}: cannot create the output directory ({exc.strerror or exc})") from None


def _put_in_place(work: Path, out_dir: Path, replace: bool) -> None:
    """:func:`_swap_into_place`, an OSError there being a one-line DumpError."""
    try:
        _swap_into_place(work, out_dir, replace)
    except OSError as exc:
        raise DumpError(f"{out_dir}: cannot put the dump in place ({exc.strerror or exc})") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _swap_into_place(work: Path, out_dir: Path, replace: bool) -> None:
    """Rename ``work`` to ``out_dir``; an earlier dump there is checked again, moved aside, then removed."""
    if replace != check_out_dir(out_dir):
        raise DumpError(f"{out_dir}: changed while the dump was written; nothing replaced")
    if replace:
        _replace_earlier(work, out_dir)
    elif out_dir.exists():  # an empty folder (maybe the working directory): keep it, move our files in
        _move_into(work, out_dir)
    else:
        work.rename(out_dir)


def _move_into(work: Path, out_dir: Path) -> None:
    """Move the files of ``work`` into the empty ``out_dir``, the manifest last."""
    entries = sorted(work.iterdir(), key=lambda p: p.name == "manifest.json")
    for entry in entries:  # the manifest last: a dump without it is visibly incomplete
        entry.rename(out_dir / entry.name)
    work.rmdir()


def _replace_earlier(work: Path, out_dir: Path) -> None:
    """Move the earlier dump aside, put ``work`` in its place, then remove the earlier one."""
    old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name[:40]}.dumpscope-old-", dir=work.parent))
    old.rmdir()
    out_dir.rename(old)
    work.rename(out_dir)
    shutil.rmtree(old, ignore_errors=True)


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
    return text_names(proto), path.parent, str(path), _sha256(path)


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
    shapes = _given_shapes(input_shapes)
    files = _given_files(inputs, facts.graph_inputs)
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


def _given_shapes(input_shapes: str | Mapping[str, tuple[int, ...]] | None) -> dict[str, tuple[int, ...]]:
    """``input_shapes`` as a mapping: parsed from ``"x:1,3;y:2"`` text, or copied."""
    if isinstance(input_shapes, str) or input_shapes is None:
        return parse_input_shapes(input_shapes)
    return dict(input_shapes)


def _given_files(
    inputs: Mapping[str, str | Path] | Sequence[str] | None, names: Sequence[str]
) -> dict[str, Path]:
    """``inputs`` as ``{name: path}``: parsed from ``["x=a.npy", ...]``, or from a mapping."""
    if inputs is None:
        return {}
    if isinstance(inputs, Mapping):
        return {k: Path(v) for k, v in inputs.items()}
    return parse_input_files(list(inputs), names)


def prepare_target(
    proto: onnx.ModelProto,
    facts: GraphFacts,
    work: Path,
    source_dir: Path | None,
    target: str | None,
    inputs: Sequence[ModelInput],
) -> Prepared:
    """The :class:`Prepared` run for ``target`` (None = golden)."""
    from dumpscope.core.onnx import targets

    if target is None:
        return prepare_golden(proto, facts, work, source_dir)
    if target == "fp16":
        probe = prepare_golden(proto, facts, work, source_dir)
        session = open_session(probe.path, proto, data_dir=probe.data_dir)
        types = {o.name: o.type for o in session.get_outputs()} | {
            i.name: i.type for i in session.get_inputs()
        }
        del session
        return targets.prepare_fp16(proto, facts, work, source_dir, types)
    if target == "int8":
        return targets.prepare_int8(proto, facts, work, source_dir, [{i.name: i.array for i in inputs}])
    return targets.prepare_optimized(proto, facts, work, source_dir)
