"""Golden <-> target matching and topological ordering.

Target tensors find their golden partner, in this order:

1. an explicit origin (a vendor graph says which golden node output a target op
   produces: ATC ``_datadump_origin_name``/``_datadump_origin_output_index``);
2. the same tensor name;
3. the same name after Ascend's lossy sanitising (``. / \\ space`` -> ``_``);
4. for a fused target node (its manifest's ``fused_from`` names several original nodes),
   the output of the group's last original node -- never an intermediate of the group;
5. the same producing node and output index (msit golden dumps are named by node,
   our manifests by tensor), exact then sanitised.

1 and 2 are *strong* links and are made first.  3 to 5 are *loose*: an optimiser keeps
a node's name while renaming (or re-laying out) what it outputs -- onnxruntime's
ORT_ENABLE_ALL graph runs an ``Add`` named as in the model on its own NCHWc blocked
copy (``reshape_token_35``, shape ``[1,1,6,96,16]`` for ``[1,8,6,96]``) while the
``ReorderOutput`` after it restores the model's tensor under its own name.  So a loose
link never takes a golden tensor a strong link already took; never pairs a tensor the
target's own graph says is in an internal layout (:func:`~dumpscope.core.vendor.fusion.
blocked_layout_tensors`); and where several target tensors (or several golden tensors of
one sanitised spelling) compete, the one whose shape fits wins, then the one whose values
agree best (float64 relative distance; read only for such ties).  Each tensor left out
says which tensor it lost to and why.

Every tensor left without a partner is reported, per side, with the reason.  Rows are
ordered topologically: by the ONNX graph when one is given, else by the manifests'
topological indices, else by the dumps' own ids/timestamps -- never by file order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from dumpscope.core.dumps import Dump, TensorReadError, TensorRef
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
    """The golden tensors by name and by (node, output index), exact and sanitised.  Only the
    names are indexed at once: the other three maps serve loose links and vendor origins, and
    are built when first asked for (two dumps paired by exact names never need them: a
    sanitised spelling per tensor was a third of pairing them)."""

    def __init__(self, golden: Dump) -> None:
        self.refs = list(golden.tensors.values())
        self.by_name: dict[str, TensorRef] = {}
        for ref in self.refs:
            self.by_name.setdefault(ref.info.name, ref)

    @cached_property
    def by_sanitised(self) -> dict[str, list[TensorRef]]:
        self._index()
        return self.by_sanitised

    @cached_property
    def by_node(self) -> dict[NodeKey, TensorRef]:
        self._index()
        return self.by_node

    @cached_property
    def by_node_sanitised(self) -> dict[NodeKey, TensorRef]:
        self._index()
        return self.by_node_sanitised

    def _index(self) -> None:
        """The sanitised and node maps, in the dump's order (the first tensor of a key wins)."""
        self.__dict__.update(by_sanitised={}, by_node={}, by_node_sanitised={})
        for ref in self.refs:
            self._add(ref)

    def _add(self, ref: TensorRef) -> None:
        info = ref.info
        self.by_sanitised.setdefault(ascend_sanitise(info.name), []).append(ref)
        if info.node_name:
            side = _side(info.kind)
            self.by_node.setdefault((info.node_name, info.output_index, side), ref)
            self.by_node_sanitised.setdefault((ascend_sanitise(info.node_name), info.output_index, side), ref)

    def node_output(self, node: str, index: int, side: str) -> TensorRef | None:
        """The golden output ``index`` of ``node`` (exact name, then sanitised)."""
        return self.by_node.get((node, index, side)) or self.by_node_sanitised.get(
            (ascend_sanitise(node), index, side)
        )

    def origin(self, node: str, index: int, side: str) -> TensorRef | None:
        """The golden tensor a vendor graph names as a target tensor's origin."""
        partner = self.node_output(node, index, side)
        if partner is None and index == 0:
            sanitised = self.by_sanitised.get(ascend_sanitise(node))
            partner = self.by_name.get(node) or (sanitised[0] if sanitised else None)
        return partner

    def loose(self, ref: TensorRef) -> list[tuple[TensorRef, str]]:
        """The golden tensors ``ref`` may be by a loosened name (every golden tensor of its
        sanitised spelling), else by its producing node and output index."""
        info = ref.info
        found = [(g, "sanitised name") for g in self.by_sanitised.get(ascend_sanitise(info.name), ())]
        partner = None
        if info.node_name:
            partner = self.node_output(info.node_name, info.output_index, _side(info.kind))
        if partner is not None and all(g is not partner for g, _ in found):
            found.append((partner, "node output"))
        return found


_NO_NAME_FALLBACK = (
    "fused op output whose original tensor the graph does not name (not compared with an "
    "intermediate of the group)"
)
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
    internal_layouts: Mapping[str, str] | None = None,
) -> Pairing:
    """Match the tensors of two dumps and order the result.

    ``tensor_order``/``node_order``: topological index per tensor name / node name
    (from the ONNX graph).  ``origins``: target tensor name -> (golden node, output
    index) from a vendor graph.  ``target_only``: target ops a vendor graph says have no
    golden counterpart (TransData, inserted casts): unmatched by design, not an error.
    ``internal_layouts``: target tensor -> why it holds a layout of the target's own (from
    the ``--model`` graph; a manifest's own graph is read here), never loosely paired.
    """
    links = _VendorLinks(origins or {}, target_only, no_name_fallback)
    internal = {**(internal_layouts or {}), **_internal_layouts(target)}
    matched, unmatched_target, claimed = _Matcher(
        _GoldenIndex(golden), target, links, internal, _fused_last(target)
    ).run()
    unmatched_golden = [
        Pair(ref, None, _GOLDEN_ONLY.get(ref.info.kind, _GOLDEN_ONLY_OTHER))
        for ref in golden.tensors.values()
        if ref.name not in claimed
    ]
    rows = matched + [p for p in unmatched_golden + unmatched_target if _is_row(p)]
    ordered, source = _order(rows, tensor_order, node_order)
    return Pairing(ordered, unmatched_golden, unmatched_target, source)


@dataclass(frozen=True)
class _Loose:
    """A loose link: target ``ref`` (at ``position`` in its dump) taken for golden ``golden``."""

    position: int
    ref: TensorRef
    golden: TensorRef
    how: str


class _Matcher:
    """Strong links first, then loose ones (see the module docstring)."""

    def __init__(
        self,
        index: _GoldenIndex,
        target: Dump,
        links: _VendorLinks,
        internal: Mapping[str, str],
        fused: Mapping[str, str],
    ) -> None:
        self.index, self.target, self.links, self.internal, self.fused = index, target, links, internal, fused
        self.claimed: dict[str, str] = {}
        """Golden name -> the target name that took it."""
        self.placed: list[tuple[int, Pair, bool]] = []
        """(position in the target dump, pair, matched), put back in dump order at the end."""

    def run(self) -> tuple[list[Pair], list[Pair], dict[str, str]]:
        """(matched pairs, unmatched target tensors, golden name -> the target name that took it)."""
        loose: list[tuple[int, TensorRef]] = []
        for position, ref in enumerate(self.target.tensors.values()):
            if not self._strong(position, ref):
                loose.append((position, ref))
        self._loose(loose)
        self.placed.sort(key=lambda p: p[0])
        matched = [pair for _, pair, ok in self.placed if ok]
        return matched, [pair for _, pair, ok in self.placed if not ok], self.claimed

    def _take(self, position: int, partner: TensorRef, ref: TensorRef, how: str) -> None:
        if partner.name in self.claimed and (partner.info.kind not in _SIDE_ONLY_KINDS):
            how += f"; golden also paired with {self.claimed[partner.name]!r}"
        self.claimed.setdefault(partner.name, ref.info.name)
        self.placed.append((position, Pair(partner, ref, how), True))

    def _leave(self, position: int, ref: TensorRef, why: str) -> None:
        self.placed.append((position, Pair(None, ref, why), False))

    def _strong(self, position: int, ref: TensorRef) -> bool:
        """Pair ``ref`` by its vendor-graph origin or its exact name; True when settled
        (paired, or left out by the vendor graph's word)."""
        name = ref.info.name
        if name in self.links.origins:
            node, idx = self.links.origins[name]
            partner = self.index.origin(node, idx, _side(ref.info.kind))
            if partner is not None:
                self._take(position, partner, ref, "graph origin")
                return True
        if name in self.links.no_name_fallback:
            self._leave(position, ref, _NO_NAME_FALLBACK)
            return True
        if name in self.index.by_name:
            extra = ref.info.extra
            declared = next((v for k, v in extra if k == "vendor_pairing"), None) if extra else None
            self._take(position, self.index.by_name[name], ref, f"name, {declared}" if declared else "name")
            return True
        return False

    def _loose(self, refs: list[tuple[int, TensorRef]]) -> None:
        """Loose links for the tensors no strong link settled: one target tensor per golden
        tensor, the best fitting; side-only kinds (constants, op inputs) as before."""
        wanted: dict[str, list[_Loose]] = {}
        for position, ref in refs:
            link, why = self._loose_link(position, ref)
            if link is None:
                self._leave(position, ref, why)
            elif link.golden.info.kind in _SIDE_ONLY_KINDS:
                self._take(position, link.golden, ref, link.how)
            else:
                wanted.setdefault(link.golden.name, []).append(link)
        for links in wanted.values():
            best = links[0] if len(links) == 1 else min(links, key=lambda k: _fit(k.golden, k.ref, k.how))
            self._take(best.position, best.golden, best.ref, best.how)
            for other in links:
                if other is not best:
                    self._leave(other.position, other.ref, _lost_to(other, best))

    def _loose_link(self, position: int, ref: TensorRef) -> tuple[_Loose | None, str]:
        """``ref``'s best loose candidate, or None and why it has none."""
        found = self._provenance(ref, self.index.loose(ref))
        if not found:
            return None, _target_only_reason(ref, self.links)
        if ref.name in self.internal and ref.info.kind not in _SIDE_ONLY_KINDS:
            return None, (
                f"{self.internal[ref.name]}; its producing node's golden output is {found[0][0].name!r}"
            )
        free = [(g, how) for g, how in found if g.info.kind in _SIDE_ONLY_KINDS or g.name not in self.claimed]
        if not free:
            g, how = found[0]
            return None, (
                f"not paired by {how} with {g.name!r}: that golden tensor is already paired by "
                f"name with {self.claimed[g.name]!r} (this is another tensor of the target's "
                "graph)"
            )
        g, how = free[0] if len(free) == 1 else min(free, key=lambda c: _fit(c[0], ref, c[1]))
        return _Loose(position, ref, g, how), ""

    def _provenance(self, ref: TensorRef, found: list[tuple[TensorRef, str]]) -> list[tuple[TensorRef, str]]:
        """A fused target node's output is its group's output: the golden output of the group's last
        original node (a ``fused output`` link), never an intermediate of the group by node name."""
        last = self.fused.get(ref.info.node_name or "")
        if last is None:
            return found
        side = _side(ref.info.kind)
        kept = [(g, how) for g, how in found if how != "node output" or g.info.node_name == last]
        g = self.index.node_output(last, ref.info.output_index, side)
        if g is not None and all(x is not g for x, _ in kept):
            names = sum(how == "sanitised name" for _, how in kept)
            kept.insert(names, (g, "fused output"))
        return kept


def _fused_last(target: Dump) -> Mapping[str, str]:
    """Fused target node -> the last of the original nodes it replaced (its manifest's ``fused_from``)."""
    manifest = target.meta.get("manifest")
    nodes = manifest.get("nodes") if isinstance(manifest, dict) else None
    if not isinstance(nodes, list):
        return {}
    return {
        str(n["name"]): str(n["fused_from"][-1])
        for n in nodes
        if isinstance(n, dict)
        and isinstance(n.get("fused_from"), list)
        and len(n["fused_from"]) > 1
        and "name" in n
    }


def _internal_layouts(target: Dump) -> Mapping[str, str]:
    """Target tensor -> why its values are in a layout of the target's own (from its manifest's graph)."""
    manifest = target.meta.get("manifest")
    nodes = manifest.get("nodes") if isinstance(manifest, dict) else None
    if not isinstance(nodes, list) or not any(isinstance(n, dict) and n.get("domain") for n in nodes):
        return {}
    from dumpscope.core.vendor.fusion import blocked_layout_tensors

    return blocked_layout_tensors(nodes)


#: Loose link kinds, best first: a name that matches once sanitised, the fused node's group output,
#: then the producing node.
_LOOSE_TIERS = ("sanitised name", "fused output", "node output")


def _fit(golden: TensorRef, target: TensorRef, how: str) -> tuple[bool, bool, int, float]:
    """How well ``target`` fits as ``golden``'s partner, lower is better: the same shape (size-1
    dimensions aside), the same size, the link's kind, then the float64 relative distance of
    the values."""
    gs, ts = golden.info.shape, target.info.shape
    same = gs is not None and ts is not None and _unit_free(gs) == _unit_free(ts)
    size = gs is not None and ts is not None and math.prod(gs) == math.prod(ts)
    return (not same, not size, _LOOSE_TIERS.index(how), _distance(golden, target) if size else math.inf)


def _unit_free(shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(d for d in shape if d != 1)


def _distance(golden: TensorRef, target: TensorRef) -> float:
    """``|t - g| / |g|`` in float64 over the flattened values; inf when either cannot be read
    or holds a non-finite value."""
    try:
        g = np.asarray(golden.load(), dtype=np.float64).ravel()
        t = np.asarray(target.load(), dtype=np.float64).ravel()
    except (TensorReadError, ValueError, TypeError, OSError):
        return math.inf
    if g.size != t.size or not (np.isfinite(g).all() and np.isfinite(t).all()):
        return math.inf
    return float(np.linalg.norm(t - g) / max(float(np.linalg.norm(g)), 1e-300))


def _lost_to(loser: _Loose, winner: _Loose) -> str:
    """Why a loose candidate was left out for another."""
    return (
        f"not paired by {loser.how} with {loser.golden.name!r}: {winner.ref.name!r} fits it better "
        f"(shape, then values)"
    )


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
        node = ref.info.node_name
        return self.node_order.get(node) if self.node_order and node is not None else None

    @staticmethod
    def manifest_index(p: Pair) -> int | None:
        """The golden side's manifest index, else the target's."""
        found = p.golden.info.topo_index if p.golden is not None else None
        return p.target.info.topo_index if found is None and p.target is not None else found

    @staticmethod
    def dump_order(p: Pair) -> float | None:
        """The golden side's dump order, else the target's."""
        found = p.golden.info.order if p.golden is not None else None
        return p.target.info.order if found is None and p.target is not None else found

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


def _topo_source(
    rows: list[Pair], keys: _OrderKeys, graph_hits: int
) -> tuple[Callable[[Pair], int | None], str]:
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
