"""Python's cyclic collector while a comparison fills in: its full passes wait for the end.

A full (oldest-generation) pass walks every live object.  The UI process holds Textual's
~60k long-lived objects besides the comparison's, and its renders allocate steadily, so
while 10k tensors fill in it ran 5 full passes of ~43 ms (0.215 s, under the GIL the
comparison thread needs) where ``dumpscope compare`` runs 3 of ~24 ms (measured with
``gc.callbacks`` in ``bench/bench_tui.py --fill``'s child).  Textual pauses the collector
while scrolling (``App.PAUSE_GC_ON_SCROLL``) and the msprobe driver while reading a dump,
for the same reason.

Only the full passes wait: young passes go on, so short-lived cycles (most of Textual's
render garbage) are still freed at once.  What outlives them until the fill ends (~14k
objects, ~1.3 MB, Textual's line caches: the same at 3k and 10k tensors, it grows with
the fill's duration, not its rows) is freed by the first full pass after it.  The app
resumes the passes once the complete table is on screen: the first pass after a fill
walks the whole heap (~0.1 s at 10k tensors) and used to delay that frame by as much.
"""

from __future__ import annotations

import atexit
import gc

#: The oldest generation's threshold while paused: never reached.
PAUSED = 1 << 30


class FullPassPause:
    """Pause the collector's full passes (:meth:`pause`), then restore the thresholds found
    (:meth:`resume`; idempotent, so every way a fill ends may call it)."""

    def __init__(self) -> None:
        self._saved: tuple[int, int, int] | None = None

    @property
    def paused(self) -> bool:
        return self._saved is not None

    def pause(self) -> None:
        """Young passes as before, no full pass until :meth:`resume`."""
        if self._saved is None:
            self._saved = gc.get_threshold()
            gc.set_threshold(self._saved[0], self._saved[1], PAUSED)

    def resume(self) -> None:
        """The thresholds as they were before :meth:`pause` (nothing when not paused)."""
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None


_exit_freeze_registered = False


def freeze_at_exit() -> None:
    """When the process ends, freeze the heap first, so the interpreter's last full passes
    skip it (registered once per process; ``atexit`` runs before those passes).

    Those passes walk every object still alive to free cycles that no longer matter: at 10k
    tensors ~190k objects (Textual's and the comparison's), ~0.2 s between the user's quit
    and the shell prompt.  The cost: finalizers of objects in reference cycles do not run at
    exit (Python does not promise they do; the app's outputs are complete and closed before).
    """
    global _exit_freeze_registered
    if not _exit_freeze_registered:
        _exit_freeze_registered = True
        atexit.register(gc.freeze)
