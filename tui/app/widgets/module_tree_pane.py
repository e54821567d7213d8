"""The module pane: msprobe's construct.json tree as a collapsible hierarchy, and the per-rank summary.

Each module shows its worst child's health (``meta.msprobe["tree"]``, built by
:func:`dumpscope.core.comparison.msprobe.view.module_tree`).  Highlighting a node moves
the layer list to the first bad API call under it (the app's op jump), so a user walks
down from the model to the call that broke.  Above the tree, one line per step/rank
and which one diverges first.  Comparisons that are not msprobe dumps say so.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from dumpscope.core.vocabulary import Health
from dumpscope.tui.app.op_index import OpIndex
from dumpscope.tui.app.screens.lookup import LookupScreen
from dumpscope.tui.app.widgets.row_facts_pane import muted, name_text, section
from dumpscope.tui.app.widgets.summary_bar import health_text, styled

_GLYPH = {"ok": "✓", "warn": "!", "fail": "✗", "unmatched": "–"}


_STYLE = {"ok": "green", "warn": "yellow", "fail": "bold red", "unmatched": "dim"}


def _label(name: str, health: str) -> Text:
    """``✗ Module.layer3...`` (the Tree widget draws Rich text)."""
    return Text.assemble((_GLYPH.get(health, "?"), _STYLE.get(health, "")), " ", name_text(name))


def _summary(ranks: dict[str, Any]) -> Content:
    """One line per step/rank, then which diverges first."""
    lines = [section("Steps / ranks")]
    for r in ranks.get("results", []):
        what = r.get("problem") or r.get("entry") or "no divergence"
        health = "fail" if r.get("entry") or r.get("problem") else "ok"
        realigned = (r.get("pairing") or {}).get("aligned", 0)
        parts = [health_text(health, _GLYPH[health]), Content(str(r.get("label"))), muted(str(what))]
        if realigned:  # calls paired across shifted counters (one side made a call the other did not)
            parts.append(muted(f"({realigned} re-aligned)"))
        lines.append(Content(" ").join(parts))
    first = ranks.get("first")
    lines.append(styled("first divergence: [b]$first[/b]", first=first or "none"))
    return Content("\n").join(lines)


class ModuleTreePane(Vertical):
    """construct.json's module tree of the shown msprobe step/rank, worst health per module."""

    DEFAULT_CSS = """
    ModuleTreePane { height: 1fr; padding: 0 1; }
    ModuleTreePane > #module-ranks { height: auto; margin-bottom: 1; }
    ModuleTreePane > Tree { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static(muted("not an msprobe comparison: no module tree"), id="module-ranks")
        yield Tree("model", id="module-tree")

    def on_mount(self) -> None:
        self.refresh_tree()

    def refresh_tree(self) -> None:
        """(Re)build the tree from the app's comparison."""
        comparison = getattr(self.app, "comparison", None)
        info = (comparison.meta.msprobe if comparison is not None else None) or {}
        tree: Tree[str] = self.query_one(Tree)
        tree.clear()
        if not info:
            tree.display = False
            return
        tree.display = True
        self.query_one("#module-ranks", Static).update(_summary(info.get("ranks", {})))
        self._fill(tree, info["tree"], str(info.get("label", "model")))

    def _fill(self, tree: Tree[str], data: dict[str, Any], label: str) -> None:
        children: dict[str | None, list[str]] = {}
        for name in data["order"]:
            children.setdefault(data["parents"].get(name), []).append(name)
        self._first_bad: dict[str, str] = data["first_bad"]
        health = data["health"]
        tree.root.set_label(Text(name_text(label), style="bold"))
        tree.root.data = None
        stack: list[tuple[TreeNode[str], str]] = [(tree.root, n) for n in reversed(children.get(None, []))]
        while stack:
            parent, name = stack.pop()
            kids = children.get(name, [])
            node = parent.add(_label(name, health.get(name, "ok")), data=name, allow_expand=bool(kids))
            stack.extend((node, k) for k in reversed(kids))
        tree.root.expand()
        self._expand_bad(tree.root, health)

    def _expand_bad(self, node: TreeNode[str], health: dict[str, str]) -> None:
        """Open the path to the first failing call, top-down."""
        for child in node.children:
            if child.data is not None and health.get(child.data) == Health.FAIL and child.children:
                child.expand()
                self._expand_bad(child, health)
                return

    def first_bad(self, name: str | None) -> str | None:
        """The first bad API call at or under node ``name``."""
        if name is None:
            return None
        return getattr(self, "_first_bad", {}).get(name)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[str]) -> None:
        """Walking down the tree moves the layer list to the node's first bad call."""
        event.stop()
        target = self.first_bad(event.node.data)
        comparison = getattr(self.app, "comparison", None)
        if target is None or comparison is None:
            return
        position = OpIndex(comparison.frame).position(target)
        layer_list = getattr(self.app, "layer_list", None)
        if position is None or layer_list is None or not layer_list.select_position(position):
            self.post_message(LookupScreen.JumpToOp(target))  # the app clears a filter hiding it
