"""A dump's ``manifest.json``: its header, tensor and node entries, written and read back.

The manifest holds the true name and graph facts of each tensor a dump wrote (the files are named
with :func:`~dumpscope.core.names.to_filename`); :func:`save_npy` writes those files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dumpscope.core.atomic import write_text
from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.graph import GraphFacts, NodeFacts

MANIFEST_FORMAT = "dumpscope-manifest"


MANIFEST_VERSION = 1


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


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


def write_manifest(out_dir: Path, manifest: Mapping[str, Any]) -> Path:
    path = out_dir / "manifest.json"
    write_text(json.dumps(manifest, indent=1, ensure_ascii=True, allow_nan=True), path)
    return path


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
