"""Ascend raw-dump trees that hold several runs (``{time}/{device}/{model}/{model_id}/{step}/``):
each selected step/device compared separately against the golden, never merged.

:func:`compare_runs` is the Python API (the CLI's ``compare``/``diagnose`` call it for such a
tree): it returns one :class:`RunResult` per selected run, or None when the target is not a tree
with several runs (compare it as an ordinary dump).  The golden is either one dump for every run,
or a tree too, whose run of the same step/device is then each run's golden.  :func:`first_run` is
the run that diverges first (earliest step, then device, then its first divergent row).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dumpscope.core.formats.ascend_tree import AscendRun

if TYPE_CHECKING:  # (a type only: routing a plain pair of folders here must not load Polars)
    from dumpscope.core.comparison.result import Comparison


class NoRunSelected(ValueError):
    """A ``steps``/``devices`` selection that leaves no run of the tree (the message names those present)."""


@dataclass
class RunResult:
    """One Ascend step/device compared against the golden (or why it could not be)."""

    run: AscendRun
    comparison: Comparison | None = None
    error: str | None = None
    first_row: int | None = None
    """Row position of the run's first divergent row, None when it has none."""

    @property
    def label(self) -> str:
        return self.run.label

    @property
    def first_name(self) -> str | None:
        """The name of the run's first divergent tensor, None when it has none."""
        if self.comparison is None or self.first_row is None:
            return None
        return str(self.comparison.frame["name"][self.first_row])


def ascend_runs(
    path: str | Path, steps: Sequence[int] | None = None, devices: Sequence[int] | None = None
) -> list[AscendRun] | None:
    """The selected runs of an Ascend tree; None when ``path`` is not one with several (and no
    selection was asked for).  A selection that leaves none: :class:`NoRunSelected`."""
    from dumpscope.core.formats import ascend_dump
    from dumpscope.core.formats.ascend_tree import select_runs

    p = Path(path)
    if not (p.is_dir() and ascend_dump.sniff(p) > 0):
        return None
    runs = ascend_dump.discover_runs(p)
    if len(runs) < 2 and not (steps or devices):
        return None
    chosen = select_runs(runs, steps, devices)
    if not chosen:
        present = ", ".join(r.label for r in runs) or "none"
        raise NoRunSelected(
            f"{p}: no step/device matches --step {list(steps or [])} --device {list(devices or [])} "
            f"(present: {present})"
        )
    return chosen


def golden_for(run: AscendRun, golden_runs: Sequence[AscendRun], default: str | Path) -> str | Path | None:
    """The golden of ``run``: ``default`` when the golden is no tree, else the golden tree's run of
    the same step/device (None when it has none)."""
    if not golden_runs:
        return default
    same = [g for g in golden_runs if (g.step, g.device) == (run.step, run.device)]
    return str(same[0].path) if same else None


def compare_run(
    golden: str | Path, run: AscendRun, golden_runs: Sequence[AscendRun] = (), **options: Any
) -> RunResult:
    """``run`` compared against its golden (``options``: :func:`~.pipeline.compare`'s).  A dump
    that cannot be read is the run's ``error``; an option that cannot be honoured (a cache folder,
    a scheduler) raises, for the whole comparison."""
    from dumpscope.core.comparison.cache import CacheError
    from dumpscope.core.comparison.execution import SchedulerError
    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.dumps import DumpError

    paired = golden_for(run, golden_runs, golden)
    if paired is None:
        return RunResult(run, error=f"{run.label}: present on the target side only")
    try:
        cmp = compare(paired, run.path, **options)
    except (CacheError, SchedulerError):
        raise  # the option itself cannot be honoured: one error for the whole comparison, not one per run
    except (DumpError, ValueError, OSError) as exc:
        return RunResult(run, error=str(exc))
    return RunResult(run, cmp, first_row=cmp.first_divergent())


def compare_runs(
    golden: str | Path,
    target: str | Path,
    steps: Sequence[int] | None = None,
    devices: Sequence[int] | None = None,
    **options: Any,
) -> list[RunResult] | None:
    """Each selected run of the Ascend tree ``target`` compared separately against ``golden``
    (one dump, or a tree whose run of the same step/device is used); None when ``target`` is not
    a tree with several runs.  ``options`` are :func:`~.pipeline.compare`'s (model, graph,
    thresholds, workers, cache...)."""
    runs = ascend_runs(target, steps, devices)
    if runs is None:
        return None
    golden_runs = ascend_runs(golden, steps, devices) or []
    return [compare_run(golden, run, golden_runs, **options) for run in runs]


def first_run(results: Sequence[RunResult]) -> RunResult | None:
    """The run diverging first: earliest step, then device, then its first divergent row."""
    bad = [r for r in results if r.first_row is not None]
    return min(
        bad,
        key=lambda r: (
            r.run.step if r.run.step is not None else -1,
            r.run.device if r.run.device is not None else -1,
            r.first_row,
        ),
        default=None,
    )
