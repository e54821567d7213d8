"""The knowledge package's own data files (the KB, its index, onnxruntime's wording), read as bytes.

A module of its own, below every other one of the package, so that :mod:`.family` and :mod:`.loader`
both read through it without importing each other.
"""

from __future__ import annotations

from pathlib import Path


def package_bytes(name: str) -> bytes:
    """A package-data file of this package (a plain file beside this module when installed
    as files, else through :mod:`importlib.resources`, e.g. from a zip)."""
    path = Path(__file__).with_name(name)
    if path.is_file():
        return path.read_bytes()
    from importlib import resources

    return resources.files("dumpscope.core.knowledge").joinpath(name).read_bytes()
