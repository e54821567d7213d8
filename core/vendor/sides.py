"""Which of two dumps an ATC graph describes (msaccucmp's ``-f``/``-cf`` on two NPU dumps).

Seed 003 and msit's ``fusion_pass_cmp`` pass the fused run's graph with ``-f`` and the
fusion-off run's graph with ``-cf``, but they disagree on whether the fused dump is
``-g`` or ``-m``.  Rather than trust the flag order, dumpscope asks the files: the
dump holding tensors of the fused graph's multi-original ops (the ops only a fused run
has) is the fused one; failing that, the dump sharing the most op names with the graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dumpscope.core.dumps import Dump

__all__ = ["graph_owner", "op_name_overlap"]


def _op_names(dump: Dump) -> set[str]:
    """Op names of a dump's tensors (``op``, ``op:1`` -> ``op``)."""
    return {name.split(":", 1)[0] for name in dump.tensors}


def op_name_overlap(graph_ops: set[str], fused_ops: set[str], dump: Dump) -> tuple[int, int]:
    """(fused ops of the graph present in the dump, graph ops present in the dump)."""
    names = _op_names(dump)
    return len(fused_ops & names), len(graph_ops & names)


def graph_owner(graph: str | Path, dumps: Sequence[str | Path | Dump]) -> int:
    """Index in ``dumps`` of the dump that ``graph`` describes (ties go to the first)."""
    from dumpscope.core.formats import open_dump
    from dumpscope.core.vendor.atc_graph import load_graph

    g = load_graph(graph)
    ops = {op.name for op in g.ops}
    fused = {op.name for op in g.ops if len(op.effective_originals) > 1}
    scores = [op_name_overlap(ops, fused, d if isinstance(d, Dump) else open_dump(d)) for d in dumps]
    return max(range(len(scores)), key=lambda i: (scores[i], -i))
