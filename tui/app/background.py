"""One way to do work off the UI thread: a thread worker whose answer comes back as a message,
and a guard that drops answers the user no longer waits for.

A pane asks for facts about the row under the cursor; the cursor moves on; the old answer
arrives late and must not overwrite the new one.  :class:`StaleGuard` hands out a token per
request and tells whether an answer's token is still the newest; :func:`run_in_background`
runs ``compute`` in an exclusive thread worker (a newer request of the same group cancels
the older) and posts ``reply(result, problem)`` unless the worker was cancelled.  A failure
becomes ``problem`` (one readable line), never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from textual.message import Message
from textual.widget import Widget
from textual.worker import get_current_worker

T = TypeVar("T")


class Superseded(Exception):
    """Raised inside ``compute`` to give up quietly: a newer request has cancelled this one."""


def cancelled() -> bool:
    """In a background ``compute``: has a newer request cancelled this one?"""
    return get_current_worker().is_cancelled


def describe(exc: BaseException) -> str:
    """``TypeName: message`` (the default wording of a failure)."""
    return f"{type(exc).__name__}: {exc}"


class StaleGuard:
    """Tokens for requests; only the newest request's answer counts."""

    def __init__(self) -> None:
        self.token = 0

    def begin(self) -> int:
        """A new request: its token (every earlier answer is now stale)."""
        self.token += 1
        return self.token

    def invalidate(self) -> None:
        """No answer in flight counts any more."""
        self.token += 1

    def is_current(self, token: int) -> bool:
        return token == self.token


def run_in_background(
    widget: Widget,
    compute: Callable[[], T],
    reply: Callable[[T | None, str | None], Message],
    *,
    group: str = "default",
    explain: Callable[[BaseException], str] = describe,
) -> None:
    """Run ``compute()`` in a thread worker of ``widget``; post ``reply(result, None)`` or
    ``reply(None, explain(exc))`` to ``widget`` unless the worker was cancelled meanwhile."""

    def job() -> None:
        try:
            result, problem = compute(), None
        except Superseded:
            return
        except Exception as exc:  # noqa: BLE001 - shown where the answer would be, never raised
            result, problem = None, explain(exc)
        if not cancelled():
            widget.post_message(reply(result, problem))

    widget.run_worker(job, thread=True, exclusive=True, group=group, exit_on_error=False)
