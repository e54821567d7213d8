"""Steps and devices of an Ascend raw dump tree: ``{dump_path}/{time}/{device}/{model}/{model_id}/{step}/``.

CANN writes one folder per (device, model, step).  Opening the whole tree as one dump
would give every op executed in step 1, 2... the names ``op``, ``op#2``... so a later
step becomes unmatched rows.  :func:`~dumpscope.core.formats.ascend_dump.discover_runs` lists the folders that
hold dump
files with the step and device their path encodes, so the caller can select one
(``--step`` / ``--device``) or compare each separately; :func:`select_runs` applies a
selection.  Only file *names* are looked at (no header is parsed).  The walk itself is
:func:`dumpscope.core.formats.ascend_dump.discover_runs` (this module imports no reader).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

#: Path components from the step folder up to the device folder: step, model_id, model, device.
_DEVICE_DEPTH = 4


@dataclass(frozen=True)
class AscendRun:
    """One folder of dump files: one step of one model on one device."""

    step: int | None
    device: int | None
    path: Path

    @property
    def label(self) -> str:
        """``step3/device0``-style label (``?`` where the path encodes nothing)."""
        step = "?" if self.step is None else self.step
        device = "?" if self.device is None else self.device
        return f"step{step}/device{device}"


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def run_of(folder: Path) -> AscendRun:
    """The step (last path component) and device (four components up) of a dump folder."""
    parts = folder.resolve().parts
    step = _number(parts[-1]) if parts else None
    device = _number(parts[-_DEVICE_DEPTH]) if step is not None and len(parts) >= _DEVICE_DEPTH else None
    return AscendRun(step, device, folder)


def runs_of_files(files: Iterable[Path]) -> list[AscendRun]:
    """The distinct runs (folders) holding ``files``, sorted by step then device."""
    folders = {p.parent for p in files}
    runs = [run_of(f) for f in folders]
    return sorted(runs, key=_run_key)


def _run_key(run: AscendRun) -> tuple[int, int, str]:
    return (-1 if run.step is None else run.step, -1 if run.device is None else run.device, str(run.path))


def select_runs(
    runs: Sequence[AscendRun], steps: Sequence[int] | None, devices: Sequence[int] | None
) -> list[AscendRun]:
    """The runs whose step is in ``steps`` and device in ``devices`` (empty: any)."""
    return [r for r in runs if (not steps or r.step in steps) and (not devices or r.device in devices)]


def several_runs_note(files: Iterable[Path]) -> str | None:
    """A warning when ``files`` span several steps/devices (they would be merged)."""
    runs = runs_of_files(files)
    if len(runs) < 2:
        return None
    labels = ", ".join(r.label for r in runs[:6]) + (" ..." if len(runs) > 6 else "")
    return (
        f"this tree holds {len(runs)} steps/devices ({labels}); opened as one dump, later executions "
        "of an op become name#2, #3... rows: choose one with --step/--device, or let dumpscope compare "
        "each separately"
    )
