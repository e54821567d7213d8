"""Completion in the filter box: the last term completed to a filter key or a metric name."""

from __future__ import annotations

from textual.suggester import Suggester

from dumpscope.tui.app.filters import completion


class FilterSuggester(Suggester):
    """Suggests :func:`~dumpscope.tui.app.filters.completion` of what was typed (right arrow accepts)."""

    def __init__(self) -> None:
        super().__init__(use_cache=True, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return completion(value)
