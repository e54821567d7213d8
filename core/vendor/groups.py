"""Fusion groups: target ops that together stand for a set of original ops.

Source-independent: :mod:`~dumpscope.core.vendor.atc_graph` (an Ascend ATC graph) and
:mod:`~dumpscope.core.vendor.fusion` (either source, including an onnxruntime-optimised
target's manifest) describe each target op as a :class:`FusionEntry`, and
:func:`group_entries` connects entries that share an original op into :class:`FusionMap`s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dumpscope.core.names import display

ONE_TO_ONE, MANY_TO_ONE, ONE_TO_MANY, MANY_TO_MANY, TARGET_ONLY = (
    "one-to-one", "many-to-one", "one-to-many", "many-to-many", "target-only",
)  # fmt: skip


@dataclass(frozen=True)
class FusionMap:
    """A group of target ops and the original ops they replace."""

    fused: tuple[str, ...]
    originals: tuple[str, ...]
    relation: str
    passes: tuple[str, ...] = ()
    op_types: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict; undecodable bytes in names are shown as ``\\xNN``."""
        return {
            "fused": [display(n) for n in self.fused],
            "originals": [display(n) for n in self.originals],
            "relation": self.relation,
            "passes": list(self.passes),
            "op_types": list(self.op_types),
        }


@dataclass(frozen=True)
class FusionEntry:
    name: str
    op_type: str
    originals: tuple[str, ...]
    passes: tuple[str, ...] = ()
    link: str | None = None
    """An extra grouping key (L1 fusion sub-graph number)."""


def group_entries(entries: list[FusionEntry]) -> list[FusionMap]:
    """Connect target ops that share an original op (or an L1 group); each connected
    set is one :class:`FusionMap`.  Target-only ops stay single."""
    parent = list(range(len(entries)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, e in enumerate(entries):
        keys = [f"o:{n}" for n in e.originals] + ([f"l1:{e.link}"] if e.link else [])
        for k in keys:
            if k in owner:
                parent[find(i)] = find(owner[k])
            else:
                owner[k] = i
    members: dict[int, list[int]] = {}
    for i in range(len(entries)):
        members.setdefault(find(i), []).append(i)
    maps = []
    for idx in sorted(members.values(), key=lambda m: m[0]):
        es = [entries[i] for i in idx]
        originals = tuple(dict.fromkeys(n for e in es for n in e.originals))
        fused = tuple(e.name for e in es)
        maps.append(
            FusionMap(
                fused=fused,
                originals=originals,
                relation=_relation(len(fused), len(originals)),
                passes=tuple(dict.fromkeys(p for e in es for p in e.passes)),
                op_types=tuple(e.op_type for e in es),
            )
        )
    return maps


def _relation(n_fused: int, n_originals: int) -> str:
    if n_originals == 0:
        return TARGET_ONLY
    if n_fused == 1:
        return ONE_TO_ONE if n_originals == 1 else MANY_TO_ONE
    return ONE_TO_MANY if n_originals == 1 else MANY_TO_MANY


def relation_counts(maps: Iterable[FusionMap]) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in maps:
        out[m.relation] = out.get(m.relation, 0) + 1
    return out
