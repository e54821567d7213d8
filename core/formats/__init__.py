"""Dump readers, one module per source format.

Each format module defines

* ``NAME: str`` - a short identifier shown to users (``npy-dir``, ``npz``...);
* ``sniff(path: Path) -> float`` - confidence in [0, 1] that ``path`` is in this
  format; it must be cheap (look at names and a few header bytes, never load data)
  and must not raise;
* ``open(path: Path) -> Dump`` - read the metadata of every tensor and return a
  :class:`~dumpscope.core.dumps.Dump` whose tensors load lazily.  Files that are not
  tensors become ``Dump.problems``; a tensor that is broken becomes a ``TensorRef``
  with ``error`` set.  Raise :class:`~dumpscope.core.dumps.DumpError` only when the
  whole input is unusable.

:func:`open_dump` picks the format with the highest confidence.  Later formats
(Ascend raw dumps, SigmaStar, Polygraphy) register by adding their module name to
``FORMAT_MODULES``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from dumpscope.core.dumps import Dump, DumpError

FORMAT_MODULES: tuple[str, ...] = (
    "npy_dir",
    "npz",
    "ascend_dump", "sigmastar", "polygraphy",
    "msprobe",  # issue 15: step*/rank*/dump.json trees (one rank per open; see msprobe_driver)
)


def _modules() -> list[ModuleType]:
    return [importlib.import_module(f"{__name__}.{m}") for m in FORMAT_MODULES]


def sniff(path: Path) -> list[tuple[float, str]]:
    """Confidence of every known format for ``path``, best first."""
    scores = [(float(mod.sniff(path)), mod.NAME) for mod in _modules()]
    return sorted(scores, key=lambda s: -s[0])


def open_dump(path: str | Path, format: str | None = None) -> Dump:
    """Open ``path`` as a dump, in ``format`` or in the best-sniffed format."""
    p = Path(path)
    if not p.exists():
        raise DumpError(f"{p}: no such file or directory")
    mods = _modules()
    if format is not None:
        for mod in mods:
            if mod.NAME == format:
                return mod.open(p)
        known = ", ".join(m.NAME for m in mods)
        raise DumpError(f"unknown dump format {format!r} (known: {known})")
    best = max(mods, key=lambda m: m.sniff(p))
    if best.sniff(p) <= 0:
        raise DumpError(
            f"{p}: not a dump dumpscope can read (expected a directory of .npy files, "
            "an .npz archive, or a vendor dump; see `dumpscope formats`)"
        )
    return best.open(p)
