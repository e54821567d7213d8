"""The C heap between the phases of a run: freed pages handed back to the system, large blocks
mapped on their own (glibc's ``malloc_trim`` and ``mallopt``; no-ops with another C library).

What bounds the peak RSS of a grouped dump and of ``diagnose`` on a 100k-entry manifest: the
pages a phase frees in the middle of the heap stay resident otherwise, and the next phase
allocates through Python's, Polars' or onnxruntime's own allocators, which would not reuse them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
_MMAP_THRESHOLD = 1 << 20  # bytes: a block this large gets its own mapping


@functools.cache
def libc_function(name: str) -> Callable[..., int] | None:
    """A function of the C library when it has one (glibc), else None: the memory steps are then no-ops.

    Looked up once per name, among the symbols the process has loaded (``dlopen(NULL)``: the C
    library is one of them).  ``ctypes.util.find_library`` ran ``ldconfig -p`` in a subprocess on
    every call: two trims per ``compare`` cost 8-11 ms of wall time in the parent (~3 ms of its CPU
    and as much in the subprocesses), serial, where the lookup now costs well under 1 ms."""
    import ctypes

    try:
        return getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError, TypeError):  # not there (musl, macOS), or no dlopen(NULL) (Windows)
        pass
    import ctypes.util

    lib = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(lib), name) if lib else None
    except (OSError, AttributeError):
        return None


def trim_free_heap() -> None:
    """Hand the C heap's free pages back to the system (measured: 6 MB of ``diagnose``'s peak
    on a 100k-entry manifest; each group's activations in a grouped dump)."""
    trim = libc_function("malloc_trim")
    if trim is not None:
        trim(0)


def map_large_blocks() -> None:
    """Give every block of 1 MiB or more its own mapping, unmapped when it is freed.

    glibc raises its mmap threshold each time such a block is freed (up to 32 MiB); after
    that, onnxruntime's activations (arena off) are carved from the heap, whose holes stay
    resident: on PP-OCRv4 det at 960x960 one run's peak grows from ~100 MB of live
    tensors to 160-230 MB.  A fixed threshold stops that, for a few tenths of a second of
    page faults per run.  It holds for the rest of the process (glibc cannot go back to its
    moving threshold); a no-op where there is no ``mallopt``.
    """
    mallopt = libc_function("mallopt")
    if mallopt is not None:
        mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)
