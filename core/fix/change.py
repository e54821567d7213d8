"""One change to a model that the fix search tries (:class:`Change`), and its kinds (:data:`KINDS`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The kinds of :class:`Change`, and the targets each applies to.
KINDS = {
    "keep": ("fp16", "bf16", "int8"),
    "clip": ("fp16", "bf16", "int8"),
    "keep_input": ("fp16", "bf16"),
    "clip_input": ("fp16", "bf16", "int8"),
    "per_channel": ("int8",),
    "calibrate": ("int8",),
}
_RANGED = ("clip", "clip_input", "calibrate")


@dataclass(frozen=True, order=True)
class Change:
    """One change to the model (``kind``, see :data:`KINDS`): ``keep`` a node in float32 (left out of int8
    quantisation); ``clip`` a node's output to ``[low, high]``; ``keep_input``: a graph input not rounded
    to float16/bfloat16 (its consumers read it in float32); ``clip_input``: a Clip of a graph input to
    ``[low, high]``; ``per_channel``: an int8 node's weight quantised per output channel; ``calibrate``:
    an int8 tensor's calibration range set to ``[low, high]`` (a percentile range of the calibration data
    instead of its min/max).  ``node`` names the node, graph input or tensor."""

    kind: str
    node: str
    low: float = -math.inf
    high: float = math.inf

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown change kind {self.kind!r} (kinds: {', '.join(KINDS)})")

    def text(self, target: str = "fp16") -> str:
        bounds = f"[{self.low:.7g}, {self.high:.7g}]"
        if self.kind == "clip":
            return f"clip {self.node!r} to {bounds}"
        if self.kind == "keep_input":
            return f"keep input {self.node!r} in float32"
        if self.kind == "clip_input":
            return f"clip input {self.node!r} to {bounds}"
        if self.kind == "per_channel":
            return f"quantise the weight of {self.node!r} per channel"
        if self.kind == "calibrate":
            return f"calibrate {self.node!r} to {bounds} (int8 range)"
        return f"keep {self.node!r} in float32" if target != "int8" else f"leave {self.node!r} out of int8"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind, "node": self.node}
        if self.kind in _RANGED:
            out |= {"low": _json_float(self.low), "high": _json_float(self.high)}
        return out


def _json_float(v: float) -> float | str:
    return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")
