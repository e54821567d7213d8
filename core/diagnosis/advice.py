"""Advice that fits the target: what to do about each class of root cause.

The advice depends on the kind of target: Ascend's
``fusion_switch.cfg`` only for an Ascend target, "keep in fp32" only for a target that
runs in a reduced float type, INT16 only where a check found a range too wide for 8
bits.  :func:`target_kind` reads the target once; :func:`advice_for` picks the text.
"""

from __future__ import annotations

from dataclasses import dataclass

from dumpscope.core import vocabulary as v
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.vendor.traits import traits_of

REDUCED_FLOATS = frozenset({"float16", "bfloat16"})


@dataclass(frozen=True)
class TargetKind:
    """What the advice needs to know about the target run."""

    ascend: bool = False
    """An Ascend (ATC/CANN) target: fusion passes are switched in ``fusion_switch.cfg``."""
    reduced_float: bool = False
    """Some target tensors are float16/bfloat16 (a mixed-precision target): keeping a node in fp32 helps."""
    toolkit: str | None = None
    """The vendor toolkit that made the target (``openvino-int8``: its manifest says so), for its
    own remedies."""


def target_kind(cmp: Comparison) -> TargetKind:
    """The kind of ``cmp``'s target, from its dump format and its tensors' dtypes."""
    dtypes = (
        set(cmp.frame["target_dtype"].drop_nulls().to_list())
        if "target_dtype" in cmp.frame.columns
        else set()
    )
    ascend = traits_of(cmp.target).fusion_switch or cmp.atc is not None  # an ATC graph: an Ascend build
    manifest = (getattr(cmp.target, "meta", None) or {}).get("manifest")  # a dump's; none without a target
    toolkit = manifest.get("target") if isinstance(manifest, dict) else None
    return TargetKind(
        ascend=ascend,
        reduced_float=bool(dtypes & REDUCED_FLOATS),
        toolkit=toolkit if toolkit in VENDOR_REMEDIES else None,
    )


_FUSION_ASCEND = (
    "Disable this fusion pattern and compare again (Ascend's fusion exception detection): set the pass to "
    '"off" in fusion_switch.cfg '
    "(GraphFusion / UBFusion), rebuild, dump, and compare the fusion-on and fusion-off dumps "
    "(msaccucmp compare -f ON.json -cf OFF.json); if accuracy recovers, keep the pass off and report it."
)
_FUSION_OTHER = (
    "The fused op does not compute what the original ops it replaces compute (the replay of the original "
    "subgraph differs): disable this fusion / graph-optimisation pass in the target's compiler or runtime "
    "(onnxruntime: a lower graph_optimization_level or disabled_optimizers), dump again and compare; if "
    "accuracy recovers, keep the pass off and report it."
)
_OWN: dict[str, str] = {
    v.PREPROCESSING: (
        "The graph inputs already differ: align pre-processing with the golden run before reading any layer "
        "(same input files, normalisation mean/std and its on/off flag, channel order RGB/BGR, dtype, "
        "resize) "
        "(Ascend's accuracy-issue guide)."
    ),
    v.LAYOUT: (
        "The target's tensor holds the golden values with its axes permuted: feed (or read) the layout the "
        "model expects (e.g. NCHW, not NHWC or H/W swapped); transpose in pre-processing or fix the "
        "converter's layout option."
    ),
    v.NOT_COMPARED: (
        "This tensor could not be compared (the message says why): fix or re-dump it; every judgement "
        "downstream of it is uncertain until then."
    ),
    v.OPERATOR: (
        "The error appears at this node and no check explains it; it was not replayed on the target's own "
        "inputs (that needs the golden ONNX model, --model, and both sides' inputs of the node), so whether "
        "the kernel differs is not measured: compare the op's attributes and version on both sides (a Resize "
        "coordinate/nearest mode, a Pad mode, a Pow kernel) and align the target's implementation or "
        "conversion options."
    ),
    v.DRIFT: (
        "No single layer breaks: the error accumulates along the network (SigmaStar IPU guide §3.2.5). "
        "Start from the first layer leaving the band; raise the precision of the layers whose error grows "
        "most, or recalibrate with quantisation-aware tools."
    ),
}
#: The advice of a cause whose replay was run, by the replay's verdict: these name what the replay measured.
_REPLAYED: dict[tuple[str, str], str] = {
    (v.OPERATOR, "differs"): (
        "At equal precision the target computes this node differently from the golden (the replay on the "
        "target's own inputs does not match): compare the op's attributes and version on both sides (a "
        "Resize "
        "coordinate/nearest mode, a Pad mode, a Pow kernel) and align the target's implementation or "
        "conversion options."
    ),
    (v.DRIFT, "faithful"): (
        "No single layer breaks: the error accumulates along the network (SigmaStar IPU guide §3.2.5); this "
        "node's replay on the target's own inputs matches the target: it computes faithfully what it is fed. "
        "Start from the first layer leaving the band; raise the precision of the layers whose error grows "
        "most, or recalibrate with quantisation-aware tools."
    ),
}
_NAN_FP32 = (
    "This is where NaN/Inf first appear with finite inputs: check the op's inputs and the constants it reads "
    "(an epsilon, a divisor, the argument of a Sqrt/Log) against the golden model; a negative under a Sqrt "
    "or "
    "a division by zero starts here or one node earlier."
)
_NAN_REDUCED = (
    "This is where NaN/Inf first appear with finite inputs: check the op for overflow or a division by zero "
    "in the target precision; keep it in fp32 to confirm."
)
_OVERFLOW_WIDE = (
    "Values leave the target dtype's range here: clip the values before the overflowing op, or rescale "
    "(fold a factor into a neighbouring op); for a hand-written softmax, subtract the row maximum before Exp."
)
_PRECISION = (
    "This node loses precision in the target dtype: keep it in fp32 (mixed precision) and compare again."
)


def _fusion(kind: TargetKind, checks: dict[str, str], detail: str | None) -> str | None:
    return _FUSION_ASCEND if kind.ascend else _FUSION_OTHER


def _nan(kind: TargetKind, checks: dict[str, str], detail: str | None) -> str | None:
    return _NAN_REDUCED if kind.reduced_float else _NAN_FP32


def _overflow(kind: TargetKind, checks: dict[str, str], detail: str | None) -> str | None:
    if detail == "saturation":
        return checks[detail]
    return None if kind.reduced_float else _OVERFLOW_WIDE


def _quantisation(kind: TargetKind, checks: dict[str, str], detail: str | None) -> str | None:
    return checks["quantisation-wide" if detail == "quantisation-wide" else "quantisation"]


def _precision(kind: TargetKind, checks: dict[str, str], detail: str | None) -> str:
    return _PRECISION


#: Causes whose advice depends on the target's kind (None: fall through to the evidence's advice).
_BY_KIND = {
    v.FUSION: _fusion,
    v.NAN_ORIGIN: _nan,
    v.OVERFLOW: _overflow,
    v.QUANTISATION: _quantisation,
    v.PRECISION: _precision,
}
#: Evidence whose own advice says "keep in fp32": for reduced-float targets only.
_FP32_ADVICE = frozenset({"clamped", "constant-range", "overflow", "opdebug"})
#: Evidence whose own advice names Ascend's tools (fusion_switch.cfg): for Ascend targets only.
_ASCEND_ADVICE = frozenset({"fusion"})


def _nncf_remedy(node: str) -> str:
    return (
        f"With NNCF: keep this layer out of quantisation, nncf.quantize(model, dataset, ignored_scope="
        f"nncf.IgnoredScope(names=[{node!r}])) (its OpenVINO op name: the ONNX node name), or "
        "calibrate on a larger representative subset_size; then dump again with --target openvino-int8 "
        "and compare."
    )


#: Toolkit -> causes its own remedy applies to, and the remedy for a node.
VENDOR_REMEDIES = {"openvino-int8": ((v.QUANTISATION, v.DRIFT, v.PRECISION), _nncf_remedy)}


def vendor_remedy(kind: TargetKind, cause: str, node: str | None) -> str | None:
    """The target toolkit's own remedy for a cause at ``node`` (None: no toolkit, or not for this cause)."""
    causes, remedy = VENDOR_REMEDIES.get(kind.toolkit or "", ((), None))
    return remedy(node) if remedy is not None and cause in causes and node else None


def advice_for(
    cause: str,
    kind: TargetKind,
    check_advice: dict[str, str],
    detail: str | None = None,
    replay: str | None = None,
) -> str:
    """The advice text for a root cause of class ``cause`` on a target of ``kind``.

    ``detail`` is the kind of evidence behind it (a check's ``Finding.cause``) whose
    own advice (``check_advice``) fits best when it applies.  ``replay`` is the verdict of
    the node's replay (``faithful``, ``differs``, ``not replayed``; None without one): only
    a replay that ran lets the advice say what it measured.
    """
    text = _by_kind(cause, kind, check_advice, detail)
    if text is None:
        text = _evidence_advice(kind, check_advice, detail)
    if text is None:
        text = _REPLAYED.get((cause, replay or ""))
    return text if text is not None else _OWN.get(cause, check_advice.get(cause, _OWN[v.OPERATOR]))


def _by_kind(cause: str, kind: TargetKind, check_advice: dict[str, str], detail: str | None) -> str | None:
    """The advice of a cause whose advice depends on the target's kind (None: none, or it falls through)."""
    pick = _BY_KIND.get(cause)
    return pick(kind, check_advice, detail) if pick is not None else None


def _evidence_advice(kind: TargetKind, check_advice: dict[str, str], detail: str | None) -> str | None:
    """The advice of the evidence behind the cause; "keep in fp32" advice only for a reduced-float target."""
    if detail not in check_advice or (detail in _ASCEND_ADVICE and not kind.ascend):
        return None
    return check_advice[detail] if kind.reduced_float or detail not in _FP32_ADVICE else None
