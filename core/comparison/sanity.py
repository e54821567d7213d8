"""Are these two dumps (and this model) one model at all?  Checked before any number.

Two dumps of different models pair almost nothing; comparing what little does pair (a
graph input named ``x`` on both sides) and calling the rest healthy is a false pass.
So a comparison whose pairing covers too small a share is an input error, as is a
``--model`` whose sha256 is not the one the dumps' manifests record.

The share rule (:data:`MIN_PAIRED_SHARE`): of the *smaller* side's activations and
graph inputs (constants and operator inputs are recorded by one side only by design),
at least 10% must have a partner: a paired tensor of the same element count (two
Paddle exports share names such as ``conv2d_1.tmp_0`` with other shapes).  A target that dumps only a few
layers pairs all of
them (100% of the smaller side); two unrelated models pair a graph input or two
(0.1-1%).  Nothing to pair on either side is an empty dump, not this error.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from dumpscope.core.comparison.pairing import Pair, Pairing
from dumpscope.core.dumps import Dump, DumpError

if TYPE_CHECKING:
    from dumpscope.core.onnx.graph import GraphFacts

__all__ = ["MIN_PAIRED_SHARE", "DumpMismatch", "check_model", "check_pairing"]

#: The smallest share of the smaller side's tensors that must find a partner.
MIN_PAIRED_SHARE = 0.10
_ROW_KINDS = ("activation", "input")


class DumpMismatch(DumpError):
    """The two dumps (or the model) do not belong together: exit 2 with the message."""


def _rows(dump: Dump) -> int:
    """Tensors of a dump that pairing is expected to match (activations, graph inputs)."""
    return sum(ref.info.kind in _ROW_KINDS for ref in dump.tensors.values())


def _size(shape: tuple[int, ...] | None) -> int | None:
    return None if shape is None else math.prod(shape)


def _partners(p: Pair) -> bool:
    """A matched activation/input pair whose element counts agree (or are unknown).

    Paddle-exported models share names such as ``conv2d_1.tmp_0``: two different models
    pair hundreds of names whose shapes differ; those are not partners.
    """
    if p.golden is None or p.target is None or p.golden.info.kind not in _ROW_KINDS:
        return False
    return _sizes_agree(_size(p.golden.info.shape), _size(p.target.info.shape))


def _sizes_agree(gs: int | None, ts: int | None) -> bool:
    """Two element counts agree, or one is unknown."""
    return gs is None or ts is None or gs == ts


def check_pairing(pairing: Pairing, golden: Dump, target: Dump) -> None:
    """Raise :class:`DumpMismatch` when too few tensors have a partner."""
    n_golden, n_target = _rows(golden), _rows(target)
    smaller = min(n_golden, n_target)
    if smaller == 0:
        return
    paired = {p.golden.name for p in pairing.pairs if p.golden is not None and _partners(p)}
    if len(paired) >= MIN_PAIRED_SHARE * smaller:
        return
    raise DumpMismatch(
        f"{len(paired)} of {n_golden} golden tensors have a partner in the target ({n_target} tensors); "
        "are these dumps of the same model? (at least "
        f"{MIN_PAIRED_SHARE:.0%} of the smaller side must pair)"
    )


def _recorded(dump: Dump) -> str | None:
    manifest = dump.meta.get("manifest")
    sha = manifest.get("model_sha256") if isinstance(manifest, dict) else None
    return sha if isinstance(sha, str) and sha else None


def check_model(model: str | Path | None, golden: Dump, target: Dump, facts: GraphFacts | None) -> list[str]:
    """Raise :class:`DumpMismatch` when ``model`` is not the model the manifests record.

    Either side's hash matching is enough (a target made from a converted model records
    the converted file's hash); no manifest hash, nothing to check.  A different hash
    whose graph still names most of the golden's tensors is the same graph with other
    weights (a patched constant, a re-export): a warning saying both hashes, not an error.
    """
    recorded = {s for s in (_recorded(golden), _recorded(target)) if s}
    if model is None or not recorded:
        return []
    from dumpscope.core.onnx.manifest import sha256_of

    actual = sha256_of(Path(model))
    if actual in recorded:
        return []
    return _other_file(Path(model), actual, recorded, facts, golden)


def _other_file(
    model: Path, actual: str, recorded: set[str], facts: GraphFacts | None, golden: Dump
) -> list[str]:
    """A model whose hash the manifests do not record: a warning when its graph is the golden's
    (other weights), else :class:`DumpMismatch`."""
    said = f"its sha256 is {actual[:12]}, the manifest records {' / '.join(sorted(s[:12] for s in recorded))}"
    if facts is not None and _graph_share(facts, golden) >= MIN_GRAPH_SHARE:
        return [
            f"--model {model.name} is not the file the dumps were made from ({said}); "
            "its graph has the same tensors, so it is used for names and order: other weights?"
        ]
    raise DumpMismatch(f"--model {model.name} is not the model the dumps were made from: {said}")


#: A model whose tensor names cover at least this share of the golden's is the same graph.
MIN_GRAPH_SHARE = 0.5


def _graph_share(facts: GraphFacts, dump: Dump) -> float:
    """Share of the dump's activations and inputs the model's graph names."""
    names = [ref.name for ref in dump.tensors.values() if ref.info.kind in _ROW_KINDS]
    known = set(facts.tensor_order())
    return sum(n in known for n in names) / len(names) if names else 1.0
