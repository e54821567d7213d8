"""A folder of ncnn blobs a user extracted: one ``BLOB.npy`` per blob, beside the ``.param``.

The convention (README, "ncnn blobs you extracted yourself")::

    mkdir ncnn_dump && cp model.ncnn.param ncnn_dump/
    for name in net.output_names() + intermediate blob names:     # every blob of the .param
        ret, mat = ex.extract(name)                               # light mode off
        np.save(f"ncnn_dump/{name}.npy", np.array(mat))           # ncnn's c,h,w: no batch

The blobs are numbered by pnnx (``in0``, ``1`` ... ``out0``), so the folder is read here under
those names and paired with the golden's ONNX tensors by the graph's structure when the comparison
has the ONNX model (``--model``): :func:`dumpscope.core.vendor.ncnn.paired_dump`.  The ``.param``
may also be given as ``--graph model.ncnn.param`` for a folder of ``.npy`` files alone.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from dumpscope.core.dumps import Dump, DumpError
from dumpscope.core.formats import npy_dir
from dumpscope.core.formats.safe_fs import FOLDER, list_folder

NAME = "ncnn-blobs"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = (
    "a folder holding an ncnn .param (first line 7767517) and one BLOB.npy per blob it extracted "
    "(no manifest.json); paired with the golden by the ONNX graph given as --model"
)


def param_file(path: Path) -> Path | None:
    """The one ncnn ``.param`` directly in the folder ``path`` (None: none, or several)."""
    try:
        names, kinds = list_folder(path)
    except OSError:
        return None
    if not any(n.endswith(".param") for n in names):  # (the usual answer, without loading ncnn's reader)
        return None
    from dumpscope.core.vendor.ncnn import is_param

    params = [
        path / n
        for n, k in zip(names, kinds, strict=True)
        if n.endswith(".param") and k != FOLDER and is_param(path / n)
    ]
    return params[0] if len(params) == 1 else None


def sniff(path: Path) -> float:
    try:
        if not path.is_dir() or (path / npy_dir.MANIFEST).exists():
            return 0.0
        names, _kinds = list_folder(path)
        if not any(n.endswith(".npy") for n in names):
            return 0.0
        return 0.9 if param_file(path) is not None else 0.0
    except OSError:
        return 0.0


def open(path: Path) -> Dump:  # noqa: A001 - the format protocol's name
    """The folder's ``.npy`` files under their blob names, and its ``.param`` (``meta["ncnn_param"]``)."""
    param = param_file(path)
    if param is None:
        raise DumpError(f"{path}: no single ncnn .param file in the folder (first line 7767517)")
    dump = npy_dir.open(path)
    return replace(dump, format=NAME, meta={**dump.meta, "ncnn_param": str(param)})
