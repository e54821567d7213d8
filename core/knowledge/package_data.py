"""The knowledge package's own data files (the KB, its index, onnxruntime's wording), read as bytes.

A module of its own, below every other one of the package, so that :mod:`.family` and :mod:`.loader`
both read through it without importing each other.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    import mmap


def package_bytes(name: str) -> bytes:
    """A package-data file of this package (a plain file beside this module when installed
    as files, else through :mod:`importlib.resources`, e.g. from a zip)."""
    path = os.path.join(os.path.dirname(__file__), name)  # os.path, not pathlib: ~3 ms of an explain start
    if os.path.isfile(path):
        with open(path, "rb") as f:
            return f.read()
    from importlib import resources

    return resources.files("dumpscope.core.knowledge").joinpath(name).read_bytes()


def package_buffer(name: str) -> bytes | mmap.mmap:
    """A package-data file mapped read-only into memory (its pages read as a look-up touches them, never
    copied: reading the whole 906 KB of ``source_grams.bin`` for the few places a bisection visits cost
    ~0.5 ms of every ``explain``), else its bytes (:func:`package_bytes`: an empty file, a zip, a system
    without ``mmap``).  A mapping shows a file rewritten in place (a truncated one can even fault), so it is
    only for a file its writer replaces (a new file renamed over the old one, as :mod:`dumpscope.core.atomic`
    writes ``source_grams.bin``), or in a process that answers one message and ends (``explain MESSAGE``
    maps ``kb.jsonl``, which a curator's tool rewrites in place)."""
    try:
        import mmap

        with open(os.path.join(os.path.dirname(__file__), name), "rb") as f:
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (ImportError, OSError, ValueError):  # no such file beside the module, an empty one, no mmap
        return package_bytes(name)
