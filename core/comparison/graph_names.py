"""Graph facts for dumps that carry none: a plain ``{tensor}.npy`` folder read with ``--model``.

Such a folder knows only file names, and a name such as ``/encoder/conv/Conv_output_0``
cannot be a file name: tools write ``_encoder_conv_Conv_output_0.npy``.  With the model
at hand each tensor gets its real name back (the model tensor whose name, with ``/``
replaced by ``_`` -- or sanitised as Ascend does -- is the file's name; unambiguous
matches only, ambiguous ones are said), and every tensor the model knows gets its
producing node, op type, output index, topological index and kind (graph input,
constant) from it.  Node inputs are left to the graph itself (the diagnosis reads its
edges from the model, and says so).  Facts a dump already has (a manifest's) are kept.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Container
from dataclasses import dataclass, replace

from dumpscope.core.dumps import Dump, DumpProblem, TensorInfo, TensorKind, TensorRef
from dumpscope.core.names import ascend_sanitise
from dumpscope.core.onnx.graph import GraphFacts

__all__ = ["internal_layouts", "with_graph_names"]


def _spellings(name: str) -> set[str]:
    """The file-name spellings of a model tensor name."""
    return {name.replace("/", "_"), ascend_sanitise(name)} - {name}


def _renames(facts: GraphFacts) -> tuple[dict[str, str], dict[str, list[str]]]:
    """(spelling -> the one model name it stands for, spelling -> several candidates)."""
    found = _spelled(facts)
    unique = {s: next(iter(n)) for s, n in found.items() if len(n) == 1}
    ambiguous = {s: sorted(n) for s, n in found.items() if len(n) > 1}
    return unique, ambiguous


def _spelled(facts: GraphFacts) -> dict[str, set[str]]:
    """Each file-name spelling -> the model tensor names spelled so."""
    found: dict[str, set[str]] = defaultdict(set)
    for name in facts.tensor_order():
        for spelling in _spellings(name):
            found[spelling].add(name)
    return found


def _kind(facts: GraphFacts, name: str, current: TensorKind) -> TensorKind:
    if name in facts.graph_inputs:
        return "input"
    if name in facts.initializers or name in facts.constants:
        return "constant"
    return current


def _enrich(info: TensorInfo, facts: GraphFacts, order: dict[str, int]) -> TensorInfo:
    """``info`` with the model's facts where it has none."""
    kind = _kind(facts, info.name, info.kind)
    topo_index = order.get(info.name) if info.topo_index is None else info.topo_index
    node = facts.producer.get(info.name)
    if node is None:
        return replace(info, kind=kind, topo_index=topo_index)
    return replace(  # the producing node's name, op type and output index, where info has none
        info,
        kind=kind,
        topo_index=topo_index,
        node_name=info.node_name or node.name,
        op_type=info.op_type or node.op_type,
        output_index=node.outputs.index(info.name) if info.node_name is None else info.output_index,
    )


@dataclass(frozen=True)
class _Names:
    """The model's tensor names and how the dump's file-name spellings map to them."""

    facts: GraphFacts
    known: dict[str, int]
    """Model tensor name -> its topological position."""
    unique: dict[str, str]
    ambiguous: dict[str, list[str]]

    def real(self, name: str) -> str:
        """The model name a dumped name stands for (itself when it is one, or when no spelling maps it)."""
        return name if name in self.known else self.unique.get(name, name)

    def problems(self, name: str, real: str, ref: TensorRef) -> list[DumpProblem]:
        """A file name that could be several model tensors: left as is, and said so."""
        if real in self.known or name not in self.ambiguous:
            return []
        return [
            DumpProblem(
                ref.info.source or name,
                f"file name {name!r} could be any of "
                f"{', '.join(map(repr, self.ambiguous[name]))} in the model; left as is",
            )
        ]

    def info(self, ref: TensorRef, name: str, real: str, taken: Container[str]) -> TensorInfo:
        """The tensor's info under its model name with the model's facts; its own when another
        file already claimed that tensor."""
        if real in taken:
            return ref.info
        info = replace(ref.info, name=real) if real != name else ref.info
        return _enrich(info, self.facts, self.known) if real in self.known else info


def with_graph_names(dump: Dump, facts: GraphFacts) -> Dump:
    """``dump`` with file-name spellings resolved to model tensor names and the model's facts
    on every tensor it knows.  A dump with a manifest is returned unchanged."""
    if isinstance(dump.meta.get("manifest"), dict):
        return dump
    names = _Names(facts, facts.tensor_order(), *_renames(facts))
    tensors: dict[str, TensorRef] = {}
    problems = list(dump.problems)
    for name, ref in dump.tensors.items():
        real = names.real(name)
        problems += names.problems(name, real, ref)
        info = names.info(ref, name, real, tensors)
        tensors[info.name] = replace(ref, info=info)
    return replace(dump, tensors=tensors, problems=problems)


def internal_layouts(facts: GraphFacts) -> dict[str, str]:
    """Tensor -> why it holds a layout internal to the model's graph (onnxruntime's NCHWc
    blocked tensors of an ORT_ENABLE_ALL graph given as ``--model``); see
    :func:`~dumpscope.core.vendor.fusion.blocked_layout_tensors`."""
    from dumpscope.core.vendor.fusion import NCHWC_DOMAIN, blocked_layout_tensors

    if not any(n.domain == NCHWC_DOMAIN for n in facts.nodes):
        return {}
    nodes = [
        {
            "op_type": n.op_type,
            "domain": n.domain,
            "index": n.index,
            "inputs": list(n.inputs),
            "outputs": list(n.outputs),
        }
        for n in facts.nodes
    ]
    return blocked_layout_tensors(nodes)
