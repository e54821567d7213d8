"""Find a comparison row by an op or tensor name as a log or an error message spells it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl


class OpIndex:
    """First frame row per node or tensor name, Ascend-sanitised spellings too (built on first use)."""

    def __init__(self, frame: pl.DataFrame) -> None:
        self._frame = frame
        self._index: dict[str, int] | None = None

    def position(self, name: str) -> int | None:
        """First row whose node or tensor name is ``name``, or None."""
        if self._index is None:
            self._index = self._build()
        return self._index.get(name)

    def _build(self) -> dict[str, int]:
        from dumpscope.core.names import ascend_sanitise

        index: dict[str, int] = {}
        for column in ("name", "node_name"):
            for pos, value in enumerate(self._frame[column].to_list()):
                if value:
                    index.setdefault(value, pos)
                    index.setdefault(ascend_sanitise(value), pos)
        return index
