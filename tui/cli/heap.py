"""Memory between the phases of a command (issue 13: peak RSS on a 100k-entry manifest)."""

from __future__ import annotations


def trim_free_heap() -> None:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim``; nothing elsewhere).

    Between two phases of a command: the comparison's temporary lists are freed in the middle
    of the heap, where glibc keeps them; the next phase allocates through Python's and Polars'
    own allocators, which would not reuse them (issue 13: 6 MB of ``diagnose``'s peak on a
    100k-entry manifest)."""
    import ctypes

    try:
        ctypes.CDLL(None).malloc_trim(0)  # the C library the interpreter runs on (no library search)
    except (OSError, AttributeError):  # not glibc
        pass
