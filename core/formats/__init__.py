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
from dumpscope.core.formats.safe_fs import shared_listings

FORMAT_MODULES: tuple[str, ...] = (
    "npy_dir",
    "npz",
    "ascend_dump",
    "sigmastar",
    "polygraphy",
    # SigmaStar simulator log/output folders (fixed.sim vs offline/board, SigmaStar IPU guide §4)
    "sgs_output",
    "rknn_snapshot",  # RKNN-Toolkit2 accuracy_analysis golden/ and simulator/ folders
    "ncnn_blobs",  # a folder of BLOB.npy an ncnn user extracted, beside the model.ncnn.param
    "msprobe",  # step*/rank*/dump.json trees (one rank per open; see comparison.msprobe.driver)
)


def _modules() -> list[ModuleType]:
    return [importlib.import_module(f"{__name__}.{m}") for m in FORMAT_MODULES]


def _sniff_one(mod: ModuleType, path: Path) -> float:
    """A module's confidence; a sniffer that fails says 0 rather than stopping the others."""
    try:
        return float(mod.sniff(path))
    except Exception:  # noqa: BLE001 - sniffing must never raise
        return 0.0


def describe() -> list[tuple[str, str]]:
    """``(NAME, SNIFF)`` of every dump format: its name and the one-line rule its sniffer applies."""
    return [(mod.NAME, str(getattr(mod, "SNIFF", "") or _first_line(mod.__doc__))) for mod in _modules()]


def _first_line(doc: str | None) -> str:
    """A module docstring's first line (for a format that states no SNIFF rule)."""
    return (doc or "").strip().split("\n")[0]


def sniff(path: Path) -> list[tuple[float, str]]:
    """Confidence of every known format for ``path``, best first."""
    scores = [(_sniff_one(mod, path), mod.NAME) for mod in _modules()]
    return sorted(scores, key=lambda s: -s[0])


def open_dump(path: str | Path, format: str | None = None) -> Dump:
    """Open ``path`` as a dump, in ``format`` or in the best-sniffed format.

    Every failure of the input as a whole is a :class:`DumpError` naming the path and
    the reason (one line, exit 2 on the command line).
    """
    p = Path(path)
    mods = _modules()
    if format is not None:
        for mod in mods:
            if mod.NAME == format:
                with shared_listings():
                    return _open_with(mod, p)
        known = ", ".join(m.NAME for m in mods)
        raise DumpError(f"unknown dump format {format!r} (known: {known})")
    with shared_listings():  # every sniffer and the reader list each folder once
        return _open_with(_best(p, mods), p)


def check_dump(path: str | Path) -> str:
    """Raise the DumpError :func:`open_dump` would for a path no format claims, without reading it
    (sniffing is bounded): a comparison checks both sides first, so ``compare / /proc/self``
    fails at once instead of reading ``/`` before it looks at ``/proc/self``.  Returns the format
    :func:`open_dump` would pick, to pass it as ``format`` (each of nine sniffers looks at a folder
    once, not twice: 0.09 CPU s a side on a folder of 100k files)."""
    with shared_listings():
        return str(_best(Path(path), _modules()).NAME)


def _best(p: Path, mods: list[ModuleType]) -> ModuleType:
    """The best-sniffed format of ``p``; a one-line DumpError when it is missing or none claims it."""
    if not p.exists():
        raise DumpError(f"{p}: no such file or directory")
    score, best = max(((_sniff_one(m, p), m) for m in mods), key=lambda sm: sm[0])
    if score <= 0:
        raise DumpError(
            f"{p}: not a dump dumpscope can read (expected a directory of .npy files, "
            "an .npz archive, an Ascend raw dump, a SigmaStar dump, a Polygraphy JSON, an msprobe dump or an "
            "RKNN accuracy_analysis snapshot; "
            "`dumpscope formats` lists them with how each is recognised)"
        )
    return best


def _open_with(mod: ModuleType, path: Path) -> Dump:
    """``mod.open(path)``, with the failures of a whole input turned into one-line DumpErrors."""
    try:
        return mod.open(path)
    except DumpError:
        raise
    except RecursionError:
        raise DumpError(f"{path}: nested too deeply to read as {mod.NAME}") from None
    except MemoryError:
        raise DumpError(f"{path}: not enough memory to read it as {mod.NAME}") from None
    except OSError as exc:
        raise DumpError(f"{path}: cannot read: {exc.strerror or exc}") from None
