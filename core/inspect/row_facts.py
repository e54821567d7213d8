"""The per-row facts, by their two homes: :mod:`.overflow` and :mod:`.fusion`.

Kept as a re-export while the TUI moves its imports to the two modules.
"""

from __future__ import annotations

from dumpscope.core.inspect.fusion import FusionFacts, OpFact, fused_rows, fusion_facts
from dumpscope.core.inspect.overflow import OverflowFacts, RangeFact, first_positions, overflow_facts

__all__ = [
    "FusionFacts", "OpFact", "OverflowFacts", "RangeFact", "first_positions", "fused_rows", "fusion_facts", "overflow_facts",
]  # fmt: skip
