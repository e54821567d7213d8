"""The key footer, rebuilt only when the keys it shows change.

Textual's :class:`~textual.widgets.Footer` removes and re-mounts every key widget on each
bindings change.  At start-up four changes arrive before the first idle moment (auto focus,
the list taking focus, the screen's resume, the idle refresh), and all four rebuilds read
the same final bindings: ~12 ms of CPU each, spent under the GIL the comparison thread
needs while it opens the dumps.  Moving focus between widgets that show the same keys does
not change the footer either.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer


class KeysFooter(Footer):
    """A :class:`~textual.widgets.Footer` that skips a rebuild showing what it already shows."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple[object, ...] | None = None
        """What the last rebuild showed (:meth:`_keys`), None before the first."""

    def _keys(self) -> tuple[object, ...]:
        """Everything :meth:`compose` reads: each active binding as it would be drawn, and the options."""
        active = self.screen.active_bindings.values()
        drawn = tuple(
            (b.key, self.app.get_key_display(b), b.description, b.action, b.show, b.group, enabled, tip)
            for _node, b, enabled, tip in active
        )
        return drawn, self.show_command_palette, self.combine_groups, self._bindings_ready

    async def recompose(self) -> None:
        """Rebuild the key widgets, unless they would show the same keys as now."""
        if not self.is_attached:
            return
        keys = self._keys()
        if keys == self._shown:
            return
        self._shown = keys
        await super().recompose()
