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
    "one-to-one",
    "many-to-one",
    "one-to-many",
    "many-to-many",
    "target-only",
)


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
    groups = _UnionFind(len(entries))
    owner: dict[str, int] = {}
    for i, e in enumerate(entries):
        for k in _group_keys(e):
            if k in owner:
                groups.join(i, owner[k])
            else:
                owner[k] = i
    return [_fusion_map([entries[i] for i in idx]) for idx in groups.sets()]


def _group_keys(e: FusionEntry) -> list[str]:
    """What ties entries together: each original op, and the L1 group when there is one."""
    return [f"o:{n}" for n in e.originals] + ([f"l1:{e.link}"] if e.link else [])


class _UnionFind:
    """Disjoint sets of entry positions (path halving)."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(self, i: int, j: int) -> None:
        root = self.find(j)
        self.parent[self.find(i)] = root

    def sets(self) -> list[list[int]]:
        """Every set's positions in order, the sets ordered by their first position."""
        members: dict[int, list[int]] = {}
        for i in range(len(self.parent)):
            members.setdefault(self.find(i), []).append(i)
        return sorted(members.values(), key=lambda m: m[0])


def _fusion_map(es: list[FusionEntry]) -> FusionMap:
    """The map of one connected set of entries."""
    originals = tuple(dict.fromkeys(n for e in es for n in e.originals))
    fused = tuple(e.name for e in es)
    return FusionMap(
        fused=fused,
        originals=originals,
        relation=_relation(len(fused), len(originals)),
        passes=tuple(dict.fromkeys(p for e in es for p in e.passes)),
        op_types=tuple(e.op_type for e in es),
    )


#: (one target op?, one original op?) -> the relation.
_RELATIONS = {
    (True, True): ONE_TO_ONE,
    (True, False): MANY_TO_ONE,
    (False, True): ONE_TO_MANY,
    (False, False): MANY_TO_MANY,
}


def _relation(n_fused: int, n_originals: int) -> str:
    if n_originals == 0:
        return TARGET_ONLY
    return _RELATIONS[(n_fused == 1, n_originals == 1)]


def relation_counts(maps: Iterable[FusionMap]) -> dict[str, int]:
    out: dict[str, int] = {}
    for m in maps:
        out[m.relation] = out.get(m.relation, 0) + 1
    return out
