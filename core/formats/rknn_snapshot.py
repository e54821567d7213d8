"""Rockchip RKNN-Toolkit2 ``accuracy_analysis`` snapshots: a snapshot folder's ``golden/`` and ``simulator/``.

One side per dump: ``SNAPSHOT/golden`` and ``SNAPSHOT/simulator`` open as that side; the
snapshot folder itself opens as its ``simulator`` side (the target; ``dumpscope SNAPSHOT``
compares the two sides, see :func:`snapshot_sides`).  Tensor names are the layer names of
``map_name_to_file.txt`` (the true names: ``save_infer_model/scale_0.tmp_1``, not the file's
``save_infer_model_scale_0_tmp_1``); data comes from ``npy/NAME.npy`` (float32, NCHW), else
from ``NAME.txt`` (one value per line, no shape).  Rows follow ``error_analysis.txt`` (the
simulator's order); each tensor carries its RKNN op type, its fused group and, for a name the
toolkit made, what it stands for.  The file formats are described in :mod:`dumpscope.core.vendor.rknn`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from dumpscope.core.dumps import (
    Dump,
    DumpError,
    DumpProblem,
    TensorInfo,
    TensorKind,
    TensorReadError,
    TensorRef,
    dtype_name,
)
from dumpscope.core.formats.npyfile import open_npy
from dumpscope.core.formats.safe_fs import member_path, regular_file_problem
from dumpscope.core.vendor import rknn

NAME = "rknn-snapshot"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = (
    "an RKNN-Toolkit2 accuracy_analysis folder (map_name_to_file.txt or error_analysis.txt beside "
    "golden/ and simulator/), or its golden/ or simulator/ folder"
)
#: Largest ``.txt`` tensor read when a layer has no ``.npy`` (values, one per line).
MAX_TXT_BYTES = 1 << 30


def _root_and_side(path: Path) -> tuple[Path, str] | None:
    """(snapshot folder, side) for a snapshot folder (its simulator side) or one of its side folders."""
    if rknn.is_snapshot_root(path):
        return path, "simulator"
    if path.name in rknn.SIDES and rknn.is_snapshot_root(path.parent):
        return path.parent, path.name
    return None


def sniff(path: Path) -> float:
    try:
        return 0.97 if path.is_dir() and _root_and_side(path) is not None else 0.0
    except OSError:
        return 0.0


def snapshot_sides(path: str | Path) -> tuple[Path, Path] | None:
    """``(golden, simulator)`` folders when ``path`` is an RKNN snapshot folder holding both, else None."""
    p = Path(path)
    if rknn.is_snapshot_root(p) and all((p / s).is_dir() for s in rknn.SIDES):
        return p / "golden", p / "simulator"
    return None


def open(path: Path) -> Dump:  # noqa: A001 - the format protocol's name
    found = _root_and_side(path)
    if found is None:
        raise DumpError(
            f"{path}: not an RKNN accuracy_analysis snapshot (no {rknn.NAME_MAP} beside golden/, simulator/)"
        )
    root, side = found
    folder = root / side
    if not folder.is_dir():
        raise DumpError(f"{root}: the snapshot has no {side}/ folder")
    problems: list[DumpProblem] = []
    report = _report(root, problems)
    layers = _layers(root, folder, report, problems)
    rows = report.by_name() if report is not None else {}
    tensors: dict[str, TensorRef] = {}
    for order, (layer, stem) in enumerate(layers):
        tensors.setdefault(layer, _tensor(folder, layer, stem, rows.get(layer), report, order))
    meta: dict[str, object] = {"rknn_side": side, "rknn_snapshot": str(root)}
    if report is not None:
        meta["rknn_report"] = report
    precision = rknn.precision(name for name, _stem in layers)
    meta["rknn_precision"] = precision
    if side == "simulator" and precision == "int8":
        meta["quantised"] = True  # values dequantised, scales not written: the run's band is int8
    elif side == "simulator":
        meta["computed_dtype"] = "float16"  # do_quantization=False runs in float16; files are float32
    return Dump(path=path, format=NAME, tensors=tensors, problems=problems, meta=meta)


def _report(root: Path, problems: list[DumpProblem]) -> rknn.Report | None:
    path = root / rknn.REPORT
    if not path.is_file():
        problems.append(
            DumpProblem(
                str(path),
                "no error_analysis.txt: rows are in map_name_to_file.txt "
                "order, without the vendor's own numbers",
            )
        )
        return None
    try:
        report = rknn.read_report(path)
    except DumpError as exc:
        problems.append(DumpProblem(str(path), f"vendor report not used: {exc}"))
        return None
    problems.extend(DumpProblem(str(path), msg) for msg in report.problems)
    return report


def _layers(
    root: Path, folder: Path, report: rknn.Report | None, problems: list[DumpProblem]
) -> list[tuple[str, str]]:
    """``(layer name, file stem)`` in the simulator's order: the name map's layers (ordered by the
    report where it lists them), then files no map line names (named by their file name)."""
    map_path = root / rknn.NAME_MAP
    if map_path.is_file():
        pairs, bad = rknn.read_name_map(map_path)
        problems.extend(DumpProblem(str(map_path), msg) for msg in bad)
    else:
        problems.append(
            DumpProblem(
                str(map_path),
                "no map_name_to_file.txt: layer names taken from the "
                "report, file names rebuilt ('.' and '/' -> '_')",
            )
        )
        pairs = [(r.name, rknn.file_stem(r.name) + ".txt") for r in (report.rows if report else ())]
    position = {r.name: r.position for r in report.rows} if report is not None else {}
    layers = [(name, file[: -len(".txt")]) for name, file in pairs]
    layers.sort(key=lambda nf: position.get(nf[0], len(position)))  # stable: unreported ones keep map order
    named = {stem for _n, stem in layers}
    for stem in sorted(_stems(folder) - named):
        layers.append((stem, stem))
        problems.append(
            DumpProblem(
                str(folder / stem), "a layer file no map_name_to_file.txt line names: named by its file name"
            )
        )
    return layers


def _stems(folder: Path) -> set[str]:
    """Stems of the ``.txt`` and ``npy/*.npy`` files of a side folder."""
    stems = {p.name[:-4] for p in folder.glob("*.txt")}
    npy = folder / "npy"
    if npy.is_dir():
        stems |= {p.name[:-4] for p in npy.glob("*.npy")}
    return stems


def _extra(
    layer: str, row: rknn.ReportRow | None, report: rknn.Report | None, source: str
) -> tuple[tuple[str, str], ...]:
    """RKNN facts of a layer: its op, fused group, and what the name stands for when unmatched."""
    op = row.op_type if row is not None else None
    extra = [("rknn_layer", layer), ("rknn_data", source)]
    if row is not None and row.blank and row.fused_into:
        extra.append(("rknn_fused_into", row.fused_into))
    elif report is not None and row is not None:
        group = report.group_of(layer)
        if len(group) > 1:
            extra.append(("rknn_group", ", ".join(group)))
    extra.append(
        (
            "unmatched_note",
            f"RKNN {op or 'layer'} {layer!r}: {rknn.tool_made_note(layer, op)}"
            if rknn.is_tool_made(layer)
            else f"RKNN {op or 'layer'} {layer!r}: no golden tensor of this name "
            "(a layer the golden dump lacks)",
        )
    )
    return tuple(extra)


def _tensor(
    folder: Path, layer: str, stem: str, row: rknn.ReportRow | None, report: rknn.Report | None, order: int
) -> TensorRef:
    op = row.op_type if row is not None else None
    kind: TensorKind = "input" if op == "Input" else "activation"
    position = float(row.position if row is not None else order)
    for rel, reader in ((f"npy/{stem}.npy", _npy), (f"{stem}.txt", _txt)):
        path, refused = member_path(folder, rel)  # the map names the file: it must stay inside the folder
        if path is None:
            return _broken(layer, op, kind, position, str(folder), f"{rel[:200]!r}: {refused}", row, report)
        if not (path.exists() or path.is_symlink()):
            continue
        problem = regular_file_problem(folder, path)
        if problem is not None:
            return _broken(layer, op, kind, position, str(path), f"{path.name}: {problem}", row, report)
        try:
            shape, dtype, loader = reader(path)
        except TensorReadError as exc:
            return _broken(layer, op, kind, position, str(path), f"{path.name}: {exc}", row, report)
        info = TensorInfo(
            name=layer,
            dtype=dtype,
            shape=shape,
            op_type=op,
            kind=kind,
            source=str(path),
            order=position,
            extra=_extra(layer, row, report, path.name),
        )
        return TensorRef(info, loader)
    missing = f"listed in {rknn.NAME_MAP}, but neither npy/{stem}.npy nor {stem}.txt is in {folder.name}/"
    return _broken(layer, op, kind, position, str(folder), missing, row, report)


def _broken(
    layer: str,
    op: str | None,
    kind: TensorKind,
    position: float,
    source: str,
    message: str,
    row: rknn.ReportRow | None,
    report: rknn.Report | None,
) -> TensorRef:
    info = TensorInfo(
        name=layer,
        op_type=op,
        kind=kind,
        source=source,
        order=position,
        extra=_extra(layer, row, report, "none"),
    )
    return TensorRef(info, None, message)


def _npy(path: Path) -> tuple[tuple[int, ...], str, Callable[[], np.ndarray]]:
    shape, dtype, loader = open_npy(path)
    return shape, dtype_name(dtype), loader


def _txt(path: Path) -> tuple[tuple[int, ...] | None, str, Callable[[], np.ndarray]]:
    """A ``.txt`` layer: float32 values, one per line; the shape is not written (counted on load)."""
    size = path.stat().st_size
    if size > MAX_TXT_BYTES:
        raise TensorReadError(f"larger than {MAX_TXT_BYTES >> 20} MiB")
    return None, "float32", partial(_load_txt, path)


def _load_txt(path: Path) -> np.ndarray:
    with path.open("rb") as fh:
        text = fh.read(MAX_TXT_BYTES + 1)
    try:
        return np.array(text.split(), dtype=np.float64).astype(np.float32)
    except ValueError as exc:
        raise TensorReadError(f"{path.name}: not one number per line ({exc})") from None
