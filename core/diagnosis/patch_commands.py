"""The ``dumpscope patch`` commands a diagnosis proposes: clip before an overflow, keep a node in fp32.

Node names are the model's (a dump of several runs prefixes them, e.g. ``frame5/``), read from the
model the comparison was built with when it is at hand.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Sequence
from pathlib import Path

from dumpscope.core.comparison.result import Comparison
from dumpscope.core.diagnosis.checks import PatchAction
from dumpscope.core.diagnosis.subgraph import model_tail
from dumpscope.core.diagnosis.vendor_facts import manifest_of
from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.graph import load_graph


def model_path(cmp: Comparison) -> str | None:
    path = cmp.meta.model or manifest_of(cmp.golden).get("model")
    return str(path) if path else None


def model_node_names(cmp: Comparison, path: str | None) -> frozenset[str] | None:
    """Node names of the model (the comparison's parsed facts when it is that model)."""
    if cmp.model_facts is not None and path == cmp.meta.model:
        return frozenset(n.name for n in cmp.model_facts.nodes)
    return _read_node_names(path)


def _read_node_names(path: str | None) -> frozenset[str] | None:
    """Node names of the model file at ``path``; None when there is none or it cannot be read."""
    if path is None or not Path(path).is_file():
        return None
    try:
        return frozenset(n.name for n in load_graph(path).nodes)
    except DumpError:
        return None


def model_node(name: str, nodes: frozenset[str] | None) -> str:
    """The model's name for a dumped node: exact, else the longest model name the dump name
    ends with after a ``/`` (dumps of several runs prefix node names, e.g. ``frame5/``)."""
    return name if nodes is None else model_tail(name, nodes)


def _bound(v: float) -> str:
    return "-inf" if v == -math.inf else "inf" if v == math.inf else f"{v:.7g}"


def patch_commands(
    fixes: Sequence[PatchAction], model: str | None, nodes: frozenset[str] | None
) -> list[str]:
    """One ``dumpscope patch`` command per kind of fix (clip first, then keep-fp32)."""
    src = model or "MODEL.onnx"
    out = str(Path(src).with_suffix("")) + ".patched.onnx"
    head = f"dumpscope patch {shlex.quote(src)} -o {shlex.quote(out)}"
    options = (_clip_options(fixes, nodes), _keep_options(fixes, nodes))
    return [f"{head} {' '.join(dict.fromkeys(opts))}" for opts in options if opts]


def _clip_options(fixes: Sequence[PatchAction], nodes: frozenset[str] | None) -> list[str]:
    """One ``--clip NODE=LO,HI`` per clipping fix."""
    return [
        f"--clip {shlex.quote(model_node(f.node, nodes) + '=' + _bound(f.clip[0]) + ',' + _bound(f.clip[1]))}"
        for f in fixes
        if f.clip is not None
    ]


def _keep_options(fixes: Sequence[PatchAction], nodes: frozenset[str] | None) -> list[str]:
    """One ``--keep-fp32`` naming every node to keep (each once), or none."""
    kept = list(dict.fromkeys(shlex.quote(model_node(f.node, nodes)) for f in fixes if f.keep_fp32))
    return [f"--keep-fp32 {' '.join(kept)}"] if kept else []
