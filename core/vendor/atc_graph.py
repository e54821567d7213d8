"""Which target (fused) ops stand for which original ops, and which golden tensor each
target output must be compared with.

Sources:

* the Ascend ATC graph JSON (``atc --mode=1`` for an .om, ``--mode=5`` for a GE build
  graph): each op's ``_datadump_original_op_names`` lists the
  framework ops it replaces (an empty list marks a target-only op such as
  ``TransData`` or an inserted ``trans_Cast``; a missing attribute means the op is its
  own original), ``pass_name``/``pass_name_ub`` name the fusion passes, and every
  ``output_desc`` carries ``_datadump_origin_name``/``_datadump_origin_output_index``
  - the original tensor the output reproduces;
* a dumpscope manifest of an onnxruntime-optimised target, whose nodes carry
  ``fused_from`` (written by :mod:`dumpscope.core.onnx.manifest`).

A fused op's output is compared with the golden output of the original op that
produces the *same* tensor (origin name and index), never with an intermediate of the
fused group; when the graph does not say which original produced an output of a
many-to-one group, no pairing is offered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dumpscope.core.dumps import DumpError
from dumpscope.core.formats.safe_fs import load_json
from dumpscope.core.vendor.groups import FusionEntry, FusionMap, group_entries

#: Op types that never produce a dump file (no task on the device).
NO_DUMP_TYPES = frozenset({"NetOutput", "Const", "Constant", "Variable", "If", "While", "PartitionedCall"})
#: Op types the graph JSON uses for model inputs.
INPUT_TYPES = frozenset({"Data", "AippData", "RefData"})

#: ``dumpscope formats``: this side file's name and how it is recognised.
SIDE_FILE = (
    "ascend-graph-json",
    'a JSON object with a "graph" list of {"name", "op": [...]} (atc --mode=1/5 output); for compare '
    "--graph and fusion",
)


@dataclass(frozen=True)
class OutputOrigin:
    """What one output of a target op reproduces."""

    index: int
    origin_name: str | None = None
    origin_output_index: int | None = None
    origin_format: str | None = None
    origin_shape: tuple[int, ...] | None = None
    dtype: str | None = None
    layout: str | None = None


@dataclass(frozen=True)
class AtcOp:
    name: str
    type: str
    id: int | None
    graph: str
    originals: tuple[str, ...] | None
    """Original op names; ``()`` = target-only; ``None`` = attribute absent (the op is its own original)."""
    passes: tuple[str, ...] = ()
    outputs: tuple[OutputOrigin, ...] = ()
    l1_group: str | None = None

    @property
    def target_only(self) -> bool:
        return self.originals == () and self.type not in INPUT_TYPES and self.type not in NO_DUMP_TYPES

    @property
    def effective_originals(self) -> tuple[str, ...]:
        if self.originals is None or (self.originals == () and self.type in INPUT_TYPES):
            return (self.name,)
        return self.originals


@dataclass
class AtcGraph:
    path: Path | None
    name: str
    ops: list[AtcOp]
    """In ``id`` order (input ops without an id first, other ops without one last)."""
    problems: list[str] = field(default_factory=list)
    inputs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Op name -> its data inputs (``"op:index"``; control edges ``:-1`` dropped), first
    occurrence of a name in file order."""


# --- ATC graph JSON ---


def _attrs(items: object) -> dict[str, dict[str, object]]:
    """An ``attr`` list of ``{"key": str, "value": {...}}`` as a dict (malformed items skipped)."""
    if not isinstance(items, list):
        return {}
    return {a["key"]: a["value"] for a in items if _is_attr(a)}


def _is_attr(a: object) -> bool:
    return isinstance(a, dict) and isinstance(a.get("key"), str) and isinstance(a.get("value"), dict)


def _strings(value: dict[str, object] | None) -> tuple[str, ...] | None:
    """``{"list": {"s": [...]}}`` or ``{"s": "..."}`` as a tuple; None when absent."""
    if value is None:
        return None
    lst = value.get("list")
    if isinstance(lst, dict):
        return _string_list(lst.get("s"))
    return _single_string(value.get("s"))


def _string_list(items: object) -> tuple[str, ...]:
    return tuple(str(s) for s in items) if isinstance(items, list) else ()


def _single_string(s: object) -> tuple[str, ...]:
    return (str(s),) if isinstance(s, str) and s else ()


def _first(values: tuple[str, ...] | None) -> str | None:
    """The first of a string attribute's values (None when it has none)."""
    return values[0] if values else None


def _str_field(d: dict[str, object], key: str) -> str | None:
    value = d.get(key)
    return value if isinstance(value, str) else None


def _int(value: dict[str, object] | None) -> int | None:
    if value is None:
        return None
    i = value.get("i")
    if not isinstance(i, (int, float, str)):
        return None
    try:
        return int(i)
    except (TypeError, ValueError, OverflowError):
        return None


def _ints(value: dict[str, object] | None) -> tuple[int, ...] | None:
    if value is None:
        return None
    lst = value.get("list")
    if isinstance(lst, dict):
        try:
            return tuple(int(i) for i in lst.get("i", []) or [])
        except (TypeError, ValueError, OverflowError):
            return None
    return None


def _output(index: int, desc: object) -> OutputOrigin:
    d = desc if isinstance(desc, dict) else {}
    a = _attrs(d.get("attr"))
    return OutputOrigin(
        index=index,
        origin_name=_first(_strings(a.get("_datadump_origin_name"))),
        origin_output_index=_int(a.get("_datadump_origin_output_index")),
        origin_format=_first(_strings(a.get("_datadump_origin_format"))),
        origin_shape=_ints(a.get("origin_shape")),
        dtype=_str_field(d, "dtype"),
        layout=_str_field(d, "layout"),
    )


def _op(raw: dict[str, object], graph_name: str) -> AtcOp:
    a = _attrs(raw.get("attr"))
    raw_id = raw.get("id")
    return AtcOp(
        name=str(raw.get("name", "")),
        type=str(raw.get("type", "")),
        id=raw_id if isinstance(raw_id, int) else None,
        graph=graph_name,
        originals=_strings(a.get("_datadump_original_op_names")),
        passes=_passes(a),
        outputs=tuple(_output(i, d) for i, d in enumerate(_list(raw.get("output_desc")))),
        l1_group=_l1_group(a.get("_L1_fusion_sub_graph_no")),
    )


def _passes(a: dict[str, dict[str, object]]) -> tuple[str, ...]:
    """The fusion passes an op went through (``pass_name`` then ``pass_name_ub``), each once."""
    names = (name for key in ("pass_name", "pass_name_ub") for name in _strings(a.get(key)) or ())
    return tuple(dict.fromkeys(names))


def _l1_group(l1: dict[str, object] | None) -> str | None:
    """The L1 fusion sub-graph number, written as an int or a string attribute."""
    if l1 is None:
        return None
    value = _int(l1)
    return str(value) if value is not None else _first(_strings(l1))


def parse_graph(data: object, path: Path | None = None, consume: bool = False) -> AtcGraph:
    """An :class:`AtcGraph` from the decoded JSON of ``atc --mode=1/5``.

    ``consume``: ``data`` is the caller's private copy; its op objects are dropped as they
    are parsed (memory)."""
    where = str(path) if path else "graph JSON"
    if not isinstance(data, dict) or not isinstance(data.get("graph"), list):
        raise DumpError(
            f"{where}: not an ATC graph JSON (no 'graph' list; expected atc --mode=1 or --mode=5 output)"
        )
    reader = _GraphReader(consume)
    for g in data["graph"]:
        reader.read_graph(g)
    problems = reader.problems + _duplicate_problems(reader.ops)
    return AtcGraph(
        path=path,
        name=str(data.get("name", "")),
        ops=_in_id_order(reader.ops),
        problems=problems,
        inputs=reader.inputs,
    )


@dataclass
class _GraphReader:
    """Collects the ops (in file order), their data inputs and the problems of one graph JSON."""

    consume: bool
    ops: list[AtcOp] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    inputs: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def read_graph(self, g: object) -> None:
        """Every op of one ``graph`` entry."""
        if not isinstance(g, dict):
            self.problems.append("a 'graph' entry is not an object; skipped")
            return
        gname = str(g.get("name", ""))
        raw_ops = _list(g.get("op"))
        for position in range(len(raw_ops)):
            self._read_op(raw_ops, position, gname)

    def _read_op(self, raw_ops: list[object], position: int, gname: str) -> None:
        raw = raw_ops[position]
        if self.consume:  # free each decoded op once parsed: a 100k-op graph is not held twice
            raw_ops[position] = None
        if not isinstance(raw, dict) or not raw.get("name"):
            self.problems.append(f"graph {gname!r}: an op without a name; skipped")
            return
        self.ops.append(_op(raw, gname))
        self.inputs.setdefault(self.ops[-1].name, _input_refs(raw.get("input")))


def _duplicate_problems(ops: list[AtcOp]) -> list[str]:
    """One problem per repeat of an op name (the first op of a name is used for pairing)."""
    seen: set[str] = set()
    problems = []
    for op in ops:
        if op.name in seen:
            problems.append(f"op name {op.name!r} appears more than once; the first is used for pairing")
        seen.add(op.name)
    return problems


def _id_rank(op: AtcOp, position: int) -> tuple[bool, int, int]:
    """Inputs often carry no id; they run first.  Other id-less ops keep their place at the end."""
    return (op.id is None and op.type not in INPUT_TYPES, op.id if op.id is not None else -1, position)


def _in_id_order(ops: list[AtcOp]) -> list[AtcOp]:
    order = sorted(range(len(ops)), key=lambda i: _id_rank(ops[i], i))
    return [ops[i] for i in order]


def _list(raw: object) -> list[object]:
    """``raw`` when it is a list, else empty (a hostile graph may hold anything)."""
    return raw if isinstance(raw, list) else []


def _input_refs(raw: object) -> tuple[str, ...]:
    """An op's data input references (control edges, ``"op:-1"``, dropped)."""
    if not isinstance(raw, list):
        return ()
    return tuple(r for r in raw if isinstance(r, str) and r and not r.endswith(":-1"))


def load_graph(path: str | Path) -> AtcGraph:
    p = Path(path)
    try:
        data = load_json(p)
    except OSError as exc:
        raise DumpError(f"{p}: cannot read: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise DumpError(f"{p}: not valid JSON ({exc})") from exc
    return parse_graph(data, p, consume=True)


def _as_graph(graph: AtcGraph | str | Path) -> AtcGraph:
    return graph if isinstance(graph, AtcGraph) else load_graph(graph)


def _first_ops(graph: AtcGraph) -> list[AtcOp]:
    """Ops with their first occurrence only (duplicate names are reported as problems)."""
    seen: set[str] = set()
    out = []
    for op in graph.ops:
        if op.name not in seen:
            seen.add(op.name)
            out.append(op)
    return out


def target_tensor_name(op_name: str, index: int) -> str:
    """The dump reader's name for output ``index`` of a target op."""
    return op_name if index == 0 else f"{op_name}:{index}"


def _resolve_outputs(g: AtcGraph) -> tuple[dict[str, tuple[str, int]], set[str]]:
    """``(origins, unresolved)``: known golden origins per target output, and the outputs
    of fused groups whose original producer the graph does not name."""
    group_size = _dumped_group_sizes(g)
    origins: dict[str, tuple[str, int]] = {}
    unresolved: set[str] = set()
    for op in _first_ops(g):
        if not (op.target_only or op.type in NO_DUMP_TYPES):
            _resolve_op(op, group_size, origins, unresolved)
    return origins, unresolved


def _dumped_group_sizes(g: AtcGraph) -> dict[str, int]:
    """Op name -> how many members of its fused group run on the device (a split-off Const
    produces no dump and no rival output)."""
    types = {op.name: op.type for op in g.ops}
    group_size: dict[str, int] = {}
    for grp in group_entries(_entries_from_graph(g)):
        size = sum(types.get(n) not in NO_DUMP_TYPES for n in grp.fused)  # once per group: linear
        group_size.update(dict.fromkeys(grp.fused, size))
    return group_size


def _resolve_op(
    op: AtcOp, group_size: dict[str, int], origins: dict[str, tuple[str, int]], unresolved: set[str]
) -> None:
    """File each output of one dumped op under ``origins`` or ``unresolved``."""
    for o in op.outputs:
        name = target_tensor_name(op.name, o.index)
        origin = _output_origin(op, o, group_size)
        if origin is None:
            unresolved.add(name)
        else:
            origins[name] = origin


def _output_origin(op: AtcOp, o: OutputOrigin, group_size: dict[str, int]) -> tuple[str, int] | None:
    """The golden ``(node, output index)`` an output reproduces: its own origin attributes, else
    the same output of the one original of an op alone in its group; None when unknown."""
    if o.origin_name:
        return o.origin_name, o.origin_output_index or 0
    originals = op.effective_originals
    if len(originals) == 1 and group_size.get(op.name, 1) == 1:
        return originals[0], o.index
    return None


def target_origins(graph: AtcGraph | str | Path) -> dict[str, tuple[str, int]]:
    """Target tensor name -> (golden node name, output index) for every output whose
    original is known: its ``_datadump_origin_*`` attributes, else - for an op that
    stands for exactly one original op with no other dumped op in its group - that op's
    output of the same index.
    Target-only ops are left out (see :func:`target_only`)."""
    return _resolve_outputs(_as_graph(graph))[0]


def unresolved_outputs(graph: AtcGraph | str | Path) -> set[str]:
    """Target outputs of fused groups whose original producer the graph does not name.

    A fused op often keeps the name of its *first* original op (a Conv fused with its
    Relu is still called ``Conv_1``), so pairing these by name would compare the fused
    output with an intermediate of the group; they are better left unpaired."""
    return _resolve_outputs(_as_graph(graph))[1]


def target_only(graph: AtcGraph | str | Path) -> set[str]:
    """Names of ops that exist only on the target (layout casts, TransData...)."""
    return {op.name for op in _as_graph(graph).ops if op.target_only}


def op_order(graph: AtcGraph | str | Path) -> dict[str, int]:
    """Op name -> position in execution (``id``) order, 0-based."""
    out: dict[str, int] = {}
    for op in _as_graph(graph).ops:
        out.setdefault(op.name, len(out))
    return out


def origin_formats(graph: AtcGraph | str | Path) -> dict[str, str]:
    """Target tensor name -> framework layout (``NCHW``...) of the original tensor, for
    converting device formats (the dump itself does not always say)."""
    out: dict[str, str] = {}
    for op in _first_ops(_as_graph(graph)):
        for o in op.outputs:
            if o.origin_format:
                out[target_tensor_name(op.name, o.index)] = o.origin_format
    return out


def _entries_from_graph(g: AtcGraph) -> list[FusionEntry]:
    return [
        FusionEntry(op.name, op.type, op.effective_originals, op.passes, op.l1_group)
        for op in _first_ops(g)
        # Constants and the like are listed only when the graph ties them to an original op.
        if op.type not in NO_DUMP_TYPES or op.originals
    ]


def fusion_maps(graph: AtcGraph | str | Path) -> list[FusionMap]:
    """Every group of target ops and the original ops they stand for, in execution order."""
    return group_entries(_entries_from_graph(_as_graph(graph)))
