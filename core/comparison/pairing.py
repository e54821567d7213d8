"""Golden <-> target matching and topological ordering.

Target tensors find their golden partner, in this order:

1. an explicit origin (a vendor graph says which golden node output a target op
   produces: ATC ``_datadump_origin_name``/``_datadump_origin_output_index``);
2. the same tensor name;
3. the same name after Ascend's lossy sanitising (``. / \\ space`` -> ``_``);
4. the same producing node and output index (msit golden dumps are named by node,
   our manifests by tensor), exact then sanitised.

Every tensor left without a partner is reported, per side, with the reason.  Rows are
ordered topologically: by the ONNX graph when one is given, else by the manifests'
topological indices, else by the dumps' own ids/timestamps -- never by file order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from dumpscope.core.dumps import Dump, TensorRef
from dumpscope.core.names import ascend_sanitise


@dataclass(frozen=True, slots=True)
class Pair:
    """One row of a comparison: both sides, or one side with the reason it has no partner."""

    golden: TensorRef | None
    target: TensorRef | None
    how: str
    """How the pair was made (``name``, ``sanitised name``, ``node output``, ``graph origin``)
    or, for an unmatched tensor, why it has no partner."""
    topo: int | None = None
    order: float | None = None

    @property
    def ref(self) -> TensorRef:
        """The side the row is named after: the golden tensor, else the target's."""
        ref = self.golden or self.target
        assert ref is not None
        return ref

    @property
    def name(self) -> str:
        return self.ref.name


@dataclass
class Pairing:
    pairs: list[Pair]
    """Matched pairs and unmatched activations/graph inputs, in topological order."""
    unmatched_golden: list[Pair] = field(default_factory=list)
    unmatched_target: list[Pair] = field(default_factory=list)
    order_source: str = "dump order"


_SIDE_ONLY_KINDS = ("constant", "op_input")


NodeKey = tuple[str, int, str]


def _side(kind: str) -> str:
    """Inputs of an op and outputs are matched separately."""
    return "op_input" if kind == "op_input" else "out"


class _GoldenIndex:
    """The golden tensors by name and by (node, output index), exact and sanitised."""

    def __init__(self, golden: Dump) -> None:
        self.by_name: dict[str, TensorRef] = {}
        self.by_sanitised: dict[str, TensorRef] = {}
        self.by_node: dict[NodeKey, TensorRef] = {}
        self.by_node_sanitised: dict[NodeKey, TensorRef] = {}
        for ref in golden.tensors.values():
            self._add(ref)

    def _add(self, ref: TensorRef) -> None:
        info = ref.info
        self.by_name.setdefault(info.name, ref)
        self.by_sanitised.setdefault(ascend_sanitise(info.name), ref)
        if info.node_name:
            side = _side(info.kind)
            self.by_node.setdefault((info.node_name, info.output_index, side), ref)
            self.by_node_sanitised.setdefault((ascend_sanitise(info.node_name), info.output_index, side), ref)

    def node_output(self, node: str, index: int, side: str) -> TensorRef | None:
        """The golden output ``index`` of ``node`` (exact name, then sanitised)."""
        return self.by_node.get((node, index, side)) or self.by_node_sanitised.get((ascend_sanitise(node), index, side))

    def origin(self, node: str, index: int, side: str) -> TensorRef | None:
        """The golden tensor a vendor graph names as a target tensor's origin."""
        partner = self.node_output(node, index, side)
        if partner is None and index == 0:
            partner = self.by_name.get(node) or self.by_sanitised.get(ascend_sanitise(node))
        return partner

    def by_fallbacks(self, ref: TensorRef) -> tuple[TensorRef | None, str]:
        """Name, sanitised name, then producing node and output index."""
        info = ref.info
        if info.name in self.by_name:
            return self.by_name[info.name], "name"
        sanitised = ascend_sanitise(info.name)
        if sanitised in self.by_sanitised:
            return self.by_sanitised[sanitised], "sanitised name"
        if info.node_name:
            return self.node_output(info.node_name, info.output_index, _side(info.kind)), "node output"
        return None, ""


_NO_NAME_FALLBACK = "fused op output whose original tensor the graph does not name (not compared with an intermediate of the group)"
#: Why a golden tensor has no target partner, by its kind.
_GOLDEN_ONLY = {
    "constant": "constant: the target dump does not record it",
    "op_input": "operator input: the target dump does not record it",
}
_GOLDEN_ONLY_OTHER = "no target tensor with this name or producing node (fused away, or not dumped)"


@dataclass(frozen=True)
class _VendorLinks:
    """What a vendor graph adds to pairing (see :func:`pair_dumps`)."""

    origins: Mapping[str, tuple[str, int]]
    target_only: frozenset[str] | set[str]
    no_name_fallback: frozenset[str] | set[str]


def pair_dumps(
    golden: Dump,
    target: Dump,
    *,
    tensor_order: Mapping[str, int] | None = None,
    node_order: Mapping[str, int] | None = None,
    origins: Mapping[str, tuple[str, int]] | None = None,
    target_only: frozenset[str] | set[str] = frozenset(),
    no_name_fallback: frozenset[str] | set[str] = frozenset(),
) -> Pairing:
    """Match the tensors of two dumps and order the result.

    ``tensor_order``/``node_order``: topological index per tensor name / node name
    (from the ONNX graph).  ``origins``: target tensor name -> (golden node, output
    index) from a vendor graph.  ``target_only``: target ops a vendor graph says have no
    golden counterpart (TransData, inserted casts): unmatched by design, not an error.
    """
    links = _VendorLinks(origins or {}, target_only, no_name_fallback)
    matched, unmatched_target, claimed = _match_targets(_GoldenIndex(golden), target, links)
    unmatched_golden = [
        Pair(ref, None, _GOLDEN_ONLY.get(ref.info.kind, _GOLDEN_ONLY_OTHER))
        for ref in golden.tensors.values()
        if ref.name not in claimed
    ]
    rows = matched + [p for p in unmatched_golden + unmatched_target if _is_row(p)]
    ordered, source = _order(rows, tensor_order, node_order)
    return Pairing(ordered, unmatched_golden, unmatched_target, source)


def _match_targets(index: _GoldenIndex, target: Dump, links: _VendorLinks) -> tuple[list[Pair], list[Pair], dict[str, str]]:
    """(matched pairs, unmatched target tensors, golden name -> the target name that took it)."""
    claimed: dict[str, str] = {}
    matched: list[Pair] = []
    unmatched: list[Pair] = []
    for ref in target.tensors.values():
        partner, how = _partner(index, ref, links)
        if partner is None:
            unmatched.append(Pair(None, ref, how))
            continue
        if partner.name in claimed and (partner.info.kind not in _SIDE_ONLY_KINDS):
            how += f"; golden also paired with {claimed[partner.name]!r}"
        claimed.setdefault(partner.name, ref.info.name)
        matched.append(Pair(partner, ref, how))
    return matched, unmatched, claimed


def _partner(index: _GoldenIndex, ref: TensorRef, links: _VendorLinks) -> tuple[TensorRef | None, str]:
    """A target tensor's golden partner and how it was found, or None and why there is none."""
    name = ref.info.name
    if name in links.origins:
        node, idx = links.origins[name]
        partner = index.origin(node, idx, _side(ref.info.kind))
        if partner is not None:
            return partner, "graph origin"
    if name in links.no_name_fallback:
        return None, _NO_NAME_FALLBACK
    partner, how = index.by_fallbacks(ref)
    return (partner, how) if partner is not None else (None, _target_only_reason(ref, links))


def _target_only_reason(ref: TensorRef, links: _VendorLinks) -> str:
    info = ref.info
    if info.name in links.target_only or (info.node_name or "") in links.target_only:
        return "target-only op (inserted by the target compiler; no golden counterpart)"
    if info.kind in _SIDE_ONLY_KINDS:
        return f"{info.kind.replace('_', ' ')}: the golden dump has no such tensor"
    note = next((value for key, value in info.extra if key == "unmatched_note"), None)
    return note or "no golden tensor with this name or producing node"


def _is_row(p: Pair) -> bool:
    """Unmatched activations and graph inputs are rows; constants and op inputs are listed only."""
    return p.ref.info.kind not in _SIDE_ONLY_KINDS


@dataclass(frozen=True)
class _OrderKeys:
    """The three sources of a row's position, best first."""

    tensor_order: Mapping[str, int] | None
    node_order: Mapping[str, int] | None

    def graph_index(self, p: Pair) -> int | None:
        """The model graph's topological index of the row's tensor (or of its node)."""
        for ref in (p.golden, p.target):
            found = self._ref_index(ref) if ref is not None else None
            if found is not None:
                return found
        return None

    def _ref_index(self, ref: TensorRef) -> int | None:
        """The graph's index of one side's tensor, else of its producing node."""
        if self.tensor_order and ref.name in self.tensor_order:
            return self.tensor_order[ref.name]
        return self.node_order.get(ref.info.node_name) if self.node_order else None  # type: ignore[arg-type]

    @staticmethod
    def manifest_index(p: Pair) -> int | None:
        return next((ref.info.topo_index for ref in (p.golden, p.target) if ref is not None and ref.info.topo_index is not None), None)

    @staticmethod
    def dump_order(p: Pair) -> float | None:
        return next((ref.info.order for ref in (p.golden, p.target) if ref is not None and ref.info.order is not None), None)

    @staticmethod
    def none(p: Pair) -> int | None:
        return None


def _order(
    rows: list[Pair],
    tensor_order: Mapping[str, int] | None,
    node_order: Mapping[str, int] | None,
) -> tuple[list[Pair], str]:
    keys = _OrderKeys(tensor_order, node_order)
    graph_given = bool(tensor_order or node_order)
    graph_hits = sum(keys.graph_index(p) is not None for p in rows) if graph_given else 0
    topo, source = _topo_source(rows, keys, graph_hits)
    placed = [_placed(p, topo(p), keys.dump_order(p)) for p in rows]
    placed.sort(key=_sort_key)  # stable: rows that tie keep their dump order
    if graph_given and topo != keys.graph_index:
        source += f" (the model graph names only {graph_hits} of {len(rows)} tensors)"
    return placed, source


def _topo_source(rows: list[Pair], keys: _OrderKeys, graph_hits: int) -> tuple[Callable[[Pair], int | None], str]:
    """Which index orders the rows.  A graph whose names do not match the dumps (another
    model, frame-prefixed names...) must not scramble an order the manifest knows: it is
    used only where it covers most rows."""
    if graph_hits and graph_hits * 2 >= len(rows):
        return keys.graph_index, "the model graph"
    if any(keys.manifest_index(p) is not None for p in rows):
        return keys.manifest_index, "the dump manifest"
    return keys.none, "the dumps' own ids/timestamps"


def _placed(p: Pair, t: int | None, o: float | None) -> Pair:
    """``p`` with its topological index and dump order (the same object when it has them
    already: a 100k-row dump keeps one Pair per unmatched row, not two)."""
    if p.topo is t and p.order is o:
        return p
    return Pair(p.golden, p.target, p.how, t, o)


def _sort_key(p: Pair) -> tuple[float, ...]:
    """Outputs of one node stay together in output order; without a topological index
    the dump's own order decides."""
    out_idx, t, o = p.ref.info.output_index, p.topo, p.order
    inf = float("inf")
    return (inf if t is None else t, 0 if t is None else out_idx, inf if o is None else o, out_idx)
