"""The side panes `p` cycles through, in order: one registration per pane.

The tensor pane is the first and is always mounted; every other pane is a widget mounted
on first use.  A pane that shows facts about the selected row subclasses
:class:`~dumpscope.tui.app.widgets.row_facts_pane.RowFactsPane` (the app calls its
``show(comparison, row)`` whenever the row or the comparison changes while it is shown).
Adding a pane is one widget plus one :func:`register_pane` call here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

from textual.widget import Widget

from dumpscope.core.comparison.result import Comparison
from dumpscope.tui.app.widgets.tensor_pane import TensorPane


def _always(_cmp: Comparison | None) -> bool:
    return True


@dataclass(frozen=True)
class SidePane:
    """A side pane: its widget id, the name its title shows, how to make it, and whether it has
    something to show for a comparison (`p` skips it when not)."""

    id: str
    title: str
    make: Callable[[str], Widget]
    """``make(id)`` -> the widget (called once, when the pane is first shown)."""
    useful: Callable[[Comparison | None], bool] = _always
    """Whether this comparison has anything for the pane (cheap: read from the frame and meta)."""
    help: str = ""
    """What the pane shows (the help screen lists it)."""


SIDE_PANES: list[SidePane] = []
"""Every side pane in `p` order; the first is shown at start."""


def register_pane(
    pane_id: str,
    title: str,
    make: Callable[[str], Widget],
    useful: Callable[[Comparison | None], bool] = _always,
    help: str = "",
) -> SidePane:
    """Add a side pane at the end of the `p` cycle."""
    if any(p.id == pane_id for p in SIDE_PANES):
        raise ValueError(f"side pane {pane_id!r} is registered twice")
    pane = SidePane(pane_id, title, make, useful, help)
    SIDE_PANES.append(pane)
    return pane


def pane(pane_id: str) -> SidePane:
    """The registered pane ``pane_id``."""
    return next(p for p in SIDE_PANES if p.id == pane_id)


def next_pane(current: str | None, comparison: Comparison | None = None) -> SidePane:
    """The pane after ``current`` in the cycle that has something to show for ``comparison`` (the
    first pane after the last or an unknown one; the tensor pane is always useful)."""
    ids = [p.id for p in SIDE_PANES]
    index = ids.index(current) if current in ids else 0
    for step in range(1, len(SIDE_PANES) + 1):
        candidate = SIDE_PANES[(index + step) % len(SIDE_PANES)]
        if candidate.useful(comparison):
            return candidate
    return SIDE_PANES[0]


def _later(module: str, name: str) -> Callable[[str], Widget]:
    """``make`` for a pane that is not on the first frame: its module loads when the pane is
    first shown (the four of them and the lookup screen cost ~25 ms of start-up CPU, under the
    GIL the comparison thread needs)."""

    def make(pane_id: str) -> Widget:
        widget_class = getattr(import_module(f"dumpscope.tui.app.widgets.{module}"), name)
        return widget_class(id=pane_id)  # type: ignore[no-any-return]

    return make


def _has_graph(cmp: Comparison | None) -> bool:
    """Rows know their producing node (a model, a graph, a manifest or msprobe's call order)."""
    return (
        cmp is not None
        and "node_name" in cmp.frame.columns
        and cmp.frame["node_name"].null_count() < cmp.frame.height
    )


def _has_fusion(cmp: Comparison | None) -> bool:
    """Fusion groups from an ATC graph or an optimised target's manifest."""
    from dumpscope.core.inspect.fusion import has_fusion

    return cmp is not None and has_fusion(cmp)


def _has_overflow(cmp: Comparison | None) -> bool:
    """NaN/Inf in a target, or a reduced-precision target (its range checks)."""
    if cmp is None:
        return False
    frame = cmp.frame
    nonfinite = any(
        c in frame.columns and (frame[c].fill_null(0) > 0).any() for c in ("nan_target", "inf_target")
    )
    narrow = "target_dtype" in frame.columns and frame["target_dtype"].is_in(["float16", "bfloat16"]).any()
    return bool(nonfinite or narrow)


def _is_msprobe(cmp: Comparison | None) -> bool:
    return cmp is not None and cmp.meta.format == "msprobe"


register_pane(
    "tensor",
    "tensor",
    lambda pane_id: TensorPane(id=pane_id),
    help="the selected row: shape, dtype, statistics of both sides, every metric and its band, histogram, "
    "worst elements",
)
register_pane(
    "neighbourhood",
    "neighbourhood",
    _later("neighbourhood_pane", "NeighbourhoodPane"),
    _has_graph,
    "the row's producer and consumers with their health (where an error comes from and goes)",
)
register_pane(
    "fusion",
    "fusion",
    _later("fusion_pane", "FusionPane"),
    _has_fusion,
    "the fused op the row belongs to and its original (unfused) ops, each with its health",
)
register_pane(
    "overflow",
    "overflow",
    _later("overflow_pane", "OverflowPane"),
    _has_overflow,
    "decoded overflow status: Ascend Opdebug records, NaN/Inf and the target dtype's range",
)
register_pane(
    "modules",
    "msprobe modules",
    _later("module_tree_pane", "ModuleTreePane"),
    _is_msprobe,
    "msprobe's module tree with each module's first bad call",
)
