"""Tensor names <-> file names.

Real tensor names contain ``/ . : @`` and worse.  Our own dumps store each tensor
under a *safe and reversible* file name: every byte outside ``[A-Za-z0-9_.~-]`` is
percent-encoded (``%`` itself too), a leading dot is encoded so no file is hidden,
and names too long for a file system are shortened with a hash (the manifest keeps
the true name, so nothing is lost).

Ascend tools instead *replace* ``.``, ``/``, ``\\`` and space by ``_`` (lossy); pairing
uses :func:`ascend_sanitise` to match such names.
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

MAX_STEM = 180  # bytes; leaves room for suffixes under the usual 255-byte limit


def to_filename(name: str, suffix: str = ".npy") -> str:
    """Encode a tensor name as a file name that :func:`from_filename` reverses.

    Names longer than :data:`MAX_STEM` bytes once encoded are cut and tagged
    with a hash of the full name; they are not reversible from the file name
    alone, which is why every dump we write also has a manifest.
    """
    # quote() keeps only letters, digits and "_.-~"; everything else becomes %XX.
    stem = quote(name, safe="", encoding="utf-8", errors="surrogateescape")
    if stem.startswith("."):
        stem = "%2E" + stem[1:]
    if not stem:
        stem = "%00empty"
    if len(stem) > MAX_STEM:
        import hashlib  # only for over-long names: not a cost of every start

        digest = hashlib.sha1(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]
        stem = f"{stem[: MAX_STEM - 20]}~{digest}"
    return stem + suffix


def from_filename(stem: str) -> str:
    """Reverse :func:`to_filename` (given the file name without its suffix)."""
    if stem == "%00empty":
        return ""
    return unquote(stem, encoding="utf-8", errors="surrogateescape")


_ASCEND_RE = re.compile(r"[./\\ ]")


def ascend_sanitise(name: str) -> str:
    """The lossy replacement Ascend applies to op names in dump file names."""
    return _ASCEND_RE.sub("_", name)


def display(name: str) -> str:
    """Valid UTF-8 text for a name that may hold undecodable bytes (surrogate escapes).

    Undecodable bytes become ``\\xNN``, so two names that differ only in such bytes
    still read differently; Polars, JSON and terminals then accept the text.
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
