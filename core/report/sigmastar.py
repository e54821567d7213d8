"""SigmaStar's own DumpDebug output: the ``auto_dump_debug.sh`` listing and the
``<net_type>_<benchmark>.bin_DumpDebug_out/`` folders of per-layer values.

The listing reads ``idx) name MSE: x COS: y RMSE: z`` with six decimals, one line per
tensor both dumps hold, in the sample's order; SigmaStar's argument order is sample
(the model under test: dumpscope's *target*) first, benchmark (the reference: the
*golden*) second.  "RMSE" is SigmaStar's relative L1 error (the ``sgs_rmse`` column).
A pair that could not be compared keeps its number and says why instead of numbers.

The export folder holds one sub-folder per listing number (``0/``, ``1/`` ...) with the
sample's and the benchmark's values as text, ``%.6f`` separated by ``, ``, 16 values
per line, or one per line when ``one_row`` is set (SigmaStar's ``SAVE_ONE_ROW=1``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from dumpscope.core.atomic import atomic_text, write_text
from dumpscope.core.comparison.result import Comparison
from dumpscope.core.dumps import TensorReadError
from dumpscope.core.names import display, printable

#: Values per line of an exported tensor (SigmaStar's text dumps).
VALUES_PER_LINE = 16
#: The ``net_type`` auto_dump_debug.sh puts in front of its output folder when comparing two bins.
NET_TYPE = "Undefined"


@dataclass(frozen=True)
class ListingRow:
    """One line of the listing: its number, the frame row, the tensor and its three numbers."""

    number: int
    row: int
    name: str
    mse: float | None
    cos: float | None
    rmse: float | None
    problem: str = ""
    """Why the pair has no numbers (empty when it was compared)."""


def listing_rows(cmp: Comparison) -> list[ListingRow]:
    """The paired tensors in listing order (the frame's order), numbered from 0."""
    out: list[ListingRow] = []
    for row, r in enumerate(cmp.frame.iter_rows(named=True)):
        if r["side"] != "both" or r["kind"] == "constant":
            continue
        problem = "" if r["status"] == "computed" else display(str(r["message"] or r["status"]))
        out.append(
            ListingRow(
                len(out),
                row,
                display(str(r["name"])),
                r["mse"],
                r["cosine_similarity"],
                r["sgs_rmse"],
                problem,
            )
        )
    return out


def _number(v: float | None) -> str:
    """SigmaStar's ``%f``: six decimals (``nan``/``inf`` as C prints them)."""
    if v is None or math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:.6f}"


def listing_line(item: ListingRow) -> str:
    """``idx) name MSE: x COS: y RMSE: z`` (or ``idx) name ERROR: why``); the name :func:`printable`."""
    if item.problem:
        return f"{item.number}) {printable(item.name)} ERROR: {printable(item.problem)}"
    numbers = f"MSE: {_number(item.mse)} COS: {_number(item.cos)} RMSE: {_number(item.rmse)}"
    return f"{item.number}) {printable(item.name)} {numbers}"


def listing(cmp: Comparison) -> str:
    """The whole listing, one line per paired tensor."""
    return "".join(listing_line(item) + "\n" for item in listing_rows(cmp))


def write_listing(cmp: Comparison, out: str | Path | TextIO) -> None:
    """The listing to a path or an open text stream."""
    text = listing(cmp)
    if isinstance(out, (str, Path)):
        write_text(text, out)
    else:
        out.write(text)


def export_folder_name(benchmark: str | Path) -> str:
    """``Undefined_<benchmark file name>_DumpDebug_out`` as auto_dump_debug.sh names it."""
    return f"{NET_TYPE}_{Path(str(benchmark)).name}_DumpDebug_out"


def format_values(values: np.ndarray, one_row: bool = False) -> Iterator[str]:
    """Lines of ``%.6f, `` values: 16 per line, or one per line."""
    flat = np.asarray(values, dtype=np.float64).reshape(-1)
    per = 1 if one_row else VALUES_PER_LINE
    for start in range(0, flat.size, per):
        yield "".join(f"{v:.6f}, " for v in flat[start : start + per].tolist()).rstrip() + "\n"


def _safe(name: str) -> str:
    """A tensor name as a file name (SigmaStar replaces ``/`` and spaces by ``_``)."""
    return re.sub(r"[^\w.\-]+", "_", name).strip("_") or "tensor"


def export_values(cmp: Comparison, out_dir: str | Path, one_row: bool = False) -> tuple[Path, list[str]]:
    """Write ``out_dir/<Undefined_..._DumpDebug_out>/<n>/`` per listing number.

    Returns the folder and the problems met (a tensor that cannot be read costs its own
    folder's files, not the export).
    """
    root = Path(out_dir) / export_folder_name(
        cmp.meta.golden if cmp.meta.golden is not None else "benchmark.bin"
    )
    problems: list[str] = []
    for item in listing_rows(cmp):
        folder = root / str(item.number)
        folder.mkdir(parents=True, exist_ok=True)
        try:
            benchmark, sample = cmp.load_pair(item.row)
        except (TensorReadError, OSError, ValueError) as exc:
            problems.append(f"{item.number}) {item.name}: {exc}")
            continue
        for side, values in (("sample", sample), ("benchmark", benchmark)):
            if values is not None:
                try:
                    with atomic_text(folder / f"{_safe(item.name)}_{side}.txt") as fh:
                        fh.writelines(format_values(values, one_row))
                except OSError as exc:  # a FIFO or a folder planted at the name: that file only
                    problems.append(f"{item.number}) {item.name}: {exc}")
    return root, problems
