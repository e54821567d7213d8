"""What feeds the app its comparison: the request, the worker bodies that compute it, the messages they post.

:class:`CompareRequest` is what ``dumpscope GOLDEN TARGET`` passes the app.  The app runs
:func:`stream_comparison` (or :func:`compare_three_way` for a second target) in an exclusive thread
worker of group ``compare``; the worker posts :class:`Progressed` tables, cheap :class:`Counted`
ticks, :class:`ThreeWayReady` or :class:`LoadFailed` to the app.  The messages keep the app's
namespace, so their handlers stay ``on_dumpscope_app_progressed`` and so on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from time import monotonic
from typing import TYPE_CHECKING, Any

from textual.message import Message
from textual.worker import get_current_worker

if TYPE_CHECKING:
    from dumpscope.core.comparison.result import Comparison
    from dumpscope.core.comparison.threeway import ThreeWay

TABLE_INTERVAL_S = 1.0
"""How often the streamed table is rebuilt and shown while a comparison fills."""
COUNT_INTERVAL_S = 0.2
"""How often the summary's ``comparing N/M`` count moves."""
PREVIEW_PAINT_WAIT_S = 1.0
"""After posting the preview, the longest the comparison waits for the app to paint it before it opens
the whole dumps: opening them starts with reading a manifest of 100k entries whole, ~0.2-0.3 s that hold
the GIL and would hold back the preview's paint."""


class Throttle:
    """Call ``call(done, total)`` at most every ``interval`` seconds (a progress callback)."""

    def __init__(self, interval: float, call: Any) -> None:
        self.interval, self.call, self.last = interval, call, 0.0

    def __call__(self, done: int, total: int) -> None:
        now = monotonic()
        if now - self.last >= self.interval:
            self.last = now
            self.call(done, total)


@dataclass(frozen=True)
class CompareRequest:
    """Two dumps to compare in the background (what ``dumpscope GOLDEN TARGET`` passes)."""

    golden: Path
    target: Path
    model: Path | None = None
    preset: str = "auto"
    graph: Path | None = None
    thresholds: tuple[str, ...] = ()
    """``KEY=VALUE`` overrides, as ``--threshold`` takes them."""
    b: Path | None = None
    """A second target: a three-way compare (``target`` is side A, this side B)."""
    graph_b: Path | None = None
    """Side B's ATC graph (fusion on vs off: each run has its own)."""
    stage: str | None = None
    """SigmaStar: which of the SigmaStar IPU guide's three comparisons this is (``--stage``; None: told
    from the dumps)."""
    cache: bool | Path = False
    """``--cache`` (or ``--cache-dir``: the folder): reuse the signed row index; a reopen paints the
    last run's rows at once (marked)."""
    workers: int | None = None
    """``--workers``: processes computing the rows (None: every available core)."""
    scheduler: str | None = None
    """``--scheduler``: a Dask scheduler whose workers compute the rows."""
    scheduler_timeout: float = 5.0
    """``--scheduler-timeout``: seconds to reach it."""
    worse: tuple[str, float] | str = "health"
    """Three-way: how "worse" tells rows of the same health apart (``--worse``: ``(rule, factor)``)."""

    def options(self) -> dict[str, Any]:
        """How the rows are computed and kept, as :func:`compare` takes them."""
        return {
            "cache": self.cache,
            "workers": self.workers,
            "scheduler": self.scheduler,
            "scheduler_timeout": self.scheduler_timeout,
        }

    def worse_rule(self) -> dict[str, Any]:
        """``--worse`` as :func:`compare_three` takes it (``health``, or ``magnitude`` and its factor)."""
        if isinstance(self.worse, tuple):
            return {"worse_by": self.worse[0], "factor": self.worse[1]}
        return {"worse_by": self.worse}


class Progressed(Message, namespace="dumpscope_app"):
    """A newer state of the comparison arrived from the worker."""

    def __init__(self, comparison: Comparison, done: int, total: int) -> None:
        super().__init__()
        self.comparison, self.done, self.total = comparison, done, total

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, Progressed)


class Counted(Message, namespace="dumpscope_app"):
    """``done`` of ``total`` rows compared (cheap; the table arrives with :class:`Progressed`)."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done, self.total = done, total

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, Counted)


class ThreeWayReady(Message, namespace="dumpscope_app"):
    """Both sides of a three-way compare are in (the worker compared A, then B)."""

    def __init__(self, threeway: ThreeWay) -> None:
        super().__init__()
        self.threeway = threeway


class LoadFailed(Message, namespace="dumpscope_app"):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


Post = Callable[[Message], object]
"""Where a worker's messages go (the app's ``post_message``)."""


def compare_three_way(post: Post, request: CompareRequest) -> None:
    """In a thread worker: both comparisons of a three-way compare (posted when both are in)."""
    try:
        from dumpscope.core.comparison.threeway import compare_three

        threeway = compare_three(
            request.golden,
            request.target,
            request.b,
            model=request.model,
            graphs=(request.graph, request.graph_b),
            preset=request.preset,
            thresholds=list(request.thresholds),
            **request.worse_rule(),
            **request.options(),
        )
        if not get_current_worker().is_cancelled:
            post(ThreeWayReady(threeway))
    except Exception as exc:  # noqa: BLE001 - every failure becomes a message screen, never a traceback
        post(LoadFailed(describe_error(exc)))


def stream_comparison(post: Post, request: CompareRequest, painted: threading.Event | None = None) -> None:
    """In a thread worker: run the comparison, posting the growing table as it fills.

    ``painted``: set by the app once a posted preview is on screen; the whole dumps are opened after it
    (or after :data:`PREVIEW_PAINT_WAIT_S`).

    The growing table comes every :data:`TABLE_INTERVAL_S` (each one is a frame build in
    this thread and a column refresh on the UI thread: at 10k rows, four a second made the
    fill 2-9x slower than ``dumpscope compare``); the count of compared rows, which costs
    nothing, every :data:`COUNT_INTERVAL_S`.
    """
    worker = get_current_worker()
    try:
        from dumpscope.core.comparison.triage import compare_triaged  # the suspect region fills first

        counted = Throttle(COUNT_INTERVAL_S, lambda done, total: post(Counted(done, total)))
        stream = compare_triaged(
            request.golden,
            request.target,
            model=request.model,
            graph=request.graph,
            preset=request.preset,
            thresholds=list(request.thresholds),
            interval=TABLE_INTERVAL_S,
            progress=counted,
            **request.options(),
        )
        try:
            for progress in stream:
                if worker.is_cancelled:
                    return
                cmp = progress.comparison
                if request.stage:
                    cmp = replace(cmp, meta=replace(cmp.meta, stage=request.stage))
                post(Progressed(cmp, progress.done, progress.total))
                if painted is not None and cmp.meta.preview:
                    painted.wait(PREVIEW_PAINT_WAIT_S)
        finally:
            close = getattr(stream, "close", None)  # a generator holds the thread pool: release it now
            if close is not None:
                close()
    except Exception as exc:  # noqa: BLE001 - every failure becomes a message screen, never a traceback
        post(LoadFailed(describe_error(exc)))


def describe_error(exc: BaseException) -> str:
    """One readable paragraph for a failure to load or compare (no traceback)."""
    from dumpscope.core.dumps import DumpError

    if isinstance(exc, (DumpError, FileNotFoundError, PermissionError, NotADirectoryError)):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"
