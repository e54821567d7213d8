"""The ``optimized`` target recipe: onnxruntime's optimised graph, each node with what it replaced.

The optimised model is saved first and its own tensors dumped with optimisation disabled; each
optimised node records the original nodes it replaced (``fused_from``).  The whole recipe is
described in :mod:`dumpscope.core.onnx.targets`.
"""

from __future__ import annotations

from pathlib import Path

import onnx

from dumpscope.core.onnx.graph import GraphFacts, NodeFacts, graph_facts
from dumpscope.core.onnx.model_io import write_model
from dumpscope.core.onnx.targets import (
    Prepared,
    activation_names,
    control_flow_notes,
    copy_model,
    expose,
    external_data_dir,
    golden_constants,
    open_session,
)


def fused_from(original: GraphFacts, optimized: GraphFacts) -> dict[str, list[str]]:
    """Optimised node name -> the original nodes it replaced, in original topological order.

    Those are the original nodes lying between the optimised node's inputs and
    outputs: walking back from its outputs through original producers, stopping at
    its inputs, and keeping only nodes that are reachable from those inputs (so
    folded weight sub-graphs do not count).  A node whose outputs are all new
    tensors maps to the original node of the same name, if any.
    """
    names = {n.name for n in original.nodes}
    known = set(original.producer) | set(original.graph_inputs) | original.initializers
    return {node.name: _replaced(node, original, names, known) for node in optimized.nodes}


def _replaced(node: NodeFacts, original: GraphFacts, names: set[str], known: set[str]) -> list[str]:
    """The original nodes one optimised node replaced (see :func:`fused_from`)."""
    inputs = set(node.inputs)
    outs = [o for o in node.outputs if o in original.producer]
    if not outs or not inputs & known:
        return [node.name] if node.name in names else []
    reached = _reached_from(inputs, _producers_back_to(outs, inputs, original), original)
    return [n.name for n in original.nodes if n.name in reached]


def _producers_back_to(outs: list[str], inputs: set[str], original: GraphFacts) -> set[str]:
    """Original nodes met walking back from ``outs`` through producers, stopping at ``inputs``."""
    between: set[str] = set()
    stack = list(outs)
    while stack:
        t = stack.pop()
        p = None if t in inputs else original.producer.get(t)
        if p is not None and p.name not in between:
            between.add(p.name)
            stack.extend(p.inputs)
    return between


def _reached_from(inputs: set[str], between: set[str], original: GraphFacts) -> set[str]:
    """The nodes of ``between`` reachable forward from ``inputs`` through original consumers."""
    reached: set[str] = set()
    frontier = list(inputs)
    while frontier:
        t = frontier.pop()
        for c in original.consumers.get(t, ()):
            if c.name in between and c.name not in reached:
                reached.add(c.name)
                frontier.extend(c.outputs)
    return reached


def prepare_optimized(
    proto: onnx.ModelProto, facts: GraphFacts, work: Path, source_dir: Path | None
) -> Prepared:
    """onnxruntime's extended-optimised graph, dumped tensor by tensor (see the module docstring)."""
    float_path = write_model(copy_model(proto), work / "float.onnx")
    opt_path = work / "optimized.onnx"
    open_session(
        float_path,
        proto,
        data_dir=external_data_dir(proto, source_dir),
        optimize="extended",
        save_to=opt_path,
    )
    opt = onnx.load_model(str(opt_path), load_external_data=False)
    # IR < 4 models list initializers as graph inputs; onnxruntime drops the ones it folded
    # away but keeps them as inputs, which would then be required feeds.
    kept = set(facts.graph_inputs) | {t.name for t in opt.graph.initializer}
    inputs = [i for i in opt.graph.input if i.name in kept]
    del opt.graph.input[:]
    opt.graph.input.extend(inputs)
    opt_facts = graph_facts(opt.graph)
    names = activation_names(opt_facts)
    prepared = Prepared(
        path=work / "optimized_run.onnx",
        facts=opt_facts,
        fetch={n: n for n in names},
        constants=golden_constants(opt, opt_facts, work),
        fused_from=fused_from(facts, opt_facts),
        notes=control_flow_notes(opt_facts),
    )
    expose(opt.graph, names)
    write_model(opt, prepared.path)
    return prepared
