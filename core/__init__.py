"""The dumpscope engine: formats, pairing, metrics, analysis.  No UI imports here.

Python API (every function returns typed objects or Polars frames)::

    import dumpscope.core as ds
    cmp = ds.compare("golden/", "target/", model="model.onnx")  # a Comparison; cmp.frame is Polars
    print(cmp.frame.filter(cmp.frame["health"] == "fail").select("name", "cosine_similarity"))
    diag = ds.diagnose(cmp)                                       # ranked root causes
    print(diag.root_causes[0].cause if diag.root_causes else "healthy")

Public functions: :func:`compare`, :func:`compare_three`, :func:`compare_runs` (each run of an
Ascend tree with several steps/devices), :func:`diagnose`, :func:`explain`,
:func:`overflow`, :func:`fusion`, :func:`dump`; classes :class:`Comparison`, :class:`ComparisonMeta`,
:class:`Diagnosis`, :class:`Thresholds`, :class:`ThreeWay`.  Heavy modules (numpy, polars,
onnx) are imported on first call, so ``import dumpscope.core`` stays cheap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every quick command)
if TYPE_CHECKING:
    from pathlib import Path  # at run time only where a function needs it (pathlib is ~3 ms of a start)
    from typing import Any

    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.diagnosis.engine import Diagnosis
    from dumpscope.core.knowledge import Match
    from dumpscope.core.vendor.fusion import FusionSource
    from dumpscope.core.vendor.opdebug import OverflowReport

__all__ = [
    "Comparison",
    "ComparisonMeta",
    "Diagnosis",
    "Thresholds",
    "ThreeWay",
    "compare",
    "compare_frame",
    "compare_runs",
    "compare_stream",
    "compare_three",
    "diagnose",
    "dump",
    "explain",
    "fusion",
    "open_dump",
    "overflow",
]

_HOME = {
    "compare": "dumpscope.core.comparison.pipeline",
    "compare_three": "dumpscope.core.comparison.threeway",
    "Comparison": "dumpscope.core.comparison.result",
    "ComparisonMeta": "dumpscope.core.comparison.result",
    "compare_runs": "dumpscope.core.comparison.runs",
    "compare_frame": "dumpscope.core.comparison.pipeline",
    "compare_stream": "dumpscope.core.comparison.pipeline",
    "Thresholds": "dumpscope.core.comparison.judge",
    "ThreeWay": "dumpscope.core.comparison.threeway",
    "open_dump": "dumpscope.core.formats",
    "Diagnosis": "dumpscope.core.diagnosis.engine",
}


def diagnose(comparison: Comparison, graph: str | Path | None = None, *, limit: int = 10) -> Diagnosis:
    """Rank the root causes of a comparison's unhealthy rows.

    Parameters:
        comparison: what :func:`compare` returned.
        graph: an ONNX model or ATC graph JSON for the data-flow edges; by default the one
            the comparison was made with, and the dump manifests' node inputs.
        limit: at most this many root causes.

    Returns a :class:`Diagnosis`: ``.root_causes`` in rank order, each with the row, the
    cause, its evidence and the commands that fix or confirm it.
    """
    from dumpscope.core.diagnosis.engine import diagnose as run

    return run(comparison, graph, limit=limit)


def explain(message: str, *, top: int = 5, kb: Sequence[str | Path] = ()) -> list[Match]:
    """Look an error message (one line or a whole log block) up in the knowledge base.

    Parameters:
        message: the text a tool printed (Ascend error codes, onnxruntime, TensorRT...).
        top: at most this many matches.
        kb: extra knowledge-base files (YAML/JSON) merged over the built-in one.

    Returns the ranked matches (each with the entry, its explanation and fixes); empty when
    nothing is known about the message.
    """
    from dumpscope.core.knowledge import load_kb

    return load_kb(extra=kb).lookup(message, top=top)


def overflow(path: str | Path, *, with_stats: bool = True) -> OverflowReport:
    """Read Ascend overflow records (``Opdebug.Node_OpDebug.*`` or msaccucmp's parsed JSON).

    Parameters:
        path: a dump folder, one Opdebug file or one msaccucmp JSON.
        with_stats: also read the linked op's input/output tensors (min/max/NaN/Inf).

    Returns an :class:`~dumpscope.core.vendor.opdebug.OverflowReport`: ``.records`` in time
    order, each event once, with decoded status bits and the op it is linked to;
    ``.problems`` lists files that could not be decoded.
    """
    from pathlib import Path

    from dumpscope.core.vendor.opdebug import scan

    return scan(Path(path), with_stats=with_stats)


def fusion(path: str | Path) -> FusionSource:
    """The fused <-> original op mapping of an ATC graph JSON or an optimised-target manifest.

    Parameters:
        path: an ATC graph JSON, a dumpscope manifest, or a dump folder holding one.

    Returns a :class:`~dumpscope.core.vendor.fusion.FusionSource`: ``.maps`` (one
    :class:`FusionMap` per op group: relation, fused ops, originals, passes), ``.origins``
    (target tensor -> golden node and output) and ``.problems``.
    """
    from dumpscope.core.vendor.fusion import load_source

    return load_source(path)


def dump(
    model: str | Path,
    out_dir: str | Path,
    *,
    target: str | None = None,
    inputs: Mapping[str, str | Path] | None = None,
    input_shapes: str | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Run an ONNX model with onnxruntime and dump every tensor (a golden or a target dump).

    Parameters:
        model: the ONNX model file.
        out_dir: the folder to write (new, empty, or a previous dump).
        target: ``None`` for the golden run, or ``fp16``, ``int8``, ``optimized`` for a
            hardware-free target.
        inputs: ``{input name: file.npy}``; inputs not given are generated from ``seed``.
        input_shapes: msit/ATC syntax for dynamic dims, ``"x:1,3,224,224;y:1,16"``.
        seed: seed of generated inputs.

    Returns the manifest written to ``out_dir`` (model sha256, inputs, one entry per tensor).
    """
    from dumpscope.core.onnx.runner import dump_model

    return dump_model(model, out_dir, inputs=inputs, input_shapes=input_shapes, seed=seed, target=target)


def __getattr__(name: str) -> Any:
    """The public names that live in their concept's home (loaded on first use)."""
    if name in _HOME:
        import importlib

        return getattr(importlib.import_module(_HOME[name]), name)
    raise AttributeError(f"module 'dumpscope.core' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
