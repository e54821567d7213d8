"""Polygraphy ``RunResults`` JSON (``polygraphy run ... --save-outputs out.json``) as a dump.

Layout (NVIDIA/TensorRT ``tools/Polygraphy``: ``polygraphy/comparator/struct.py`` and
``polygraphy/json/serde.py``)::

    {"lst": [[runner_name, [IterationResult, ...]], ...], "polygraphy_class": "RunResults"}
    IterationResult = {"outputs": {name: LazyArray}, "runtime": s, "runner_name": ...}
    LazyArray       = {"values": ndarray}          (older files: the ndarray directly)
    ndarray         = {"array": base64(np.save(arr)), "polygraphy_class": "ndarray"}

Older files mark types with ``"__polygraphy_encoded_<Type>": "polygraphy_serialized_json_type"``
and may hold the npy bytes as latin-1 text instead of base64.  Arrays are decoded
with ``np.load(..., allow_pickle=False)`` only, and only when a tensor is loaded;
shapes and dtypes come from the npy header alone.  A ``--save-inputs`` file (a list
of ``{name: ndarray}`` feeds) opens as a dump of graph inputs.

A file may hold several runners (``--onnxrt --trt``) and iterations: :func:`open`
reads the first runner's first iteration and says which others exist; use
:func:`open_runner` to pick one.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
import re
from functools import partial
from pathlib import Path

import numpy as np

from dumpscope.core.dumps import Dump, DumpError, DumpProblem, TensorInfo, TensorReadError, TensorRef
from dumpscope.core.formats.npyfile import check_shape

NAME = "polygraphy"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = 'a .json file opening as Polygraphy RunResults ("lst" first, or a "RunResults" marker), or a --save-inputs feed list'

TYPE_MARKER = "polygraphy_class"
LEGACY_MARKER = "polygraphy_serialized_json_type"
LEGACY_PREFIX = "__polygraphy_encoded_"
_HEADER_B64 = 4096  # base64 characters decoded to read an npy header (3 KB of bytes)
_RUN_RESULTS_START = re.compile(rb'\s*\{\s*"lst"\s*:\s*\[\s*(\]|\[\s*")')


def _type_of(obj: object) -> str | None:
    if not isinstance(obj, dict):
        return None
    marker = obj.get(TYPE_MARKER)
    if isinstance(marker, str):
        return marker
    for key, value in obj.items():
        if key.startswith(LEGACY_PREFIX) and value == LEGACY_MARKER:
            return key[len(LEGACY_PREFIX) :]
    return None


def _npy_bytes(encoded: str, limit: int | None = None) -> bytes:
    """The npy bytes of an encoded array (base64, or latin-1 text in old files)."""
    text = encoded if limit is None else encoded[: limit - limit % 4]
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return encoded.encode("latin-1") if limit is None else encoded[:limit].encode("latin-1", "replace")


def _header(encoded: str) -> tuple[tuple[int, ...], np.dtype] | str:
    """Shape and dtype from the npy header, without decoding the data; or why not."""
    try:
        fh = io.BytesIO(_npy_bytes(encoded, _HEADER_B64))
        version = np.lib.format.read_magic(fh)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(fh)
        else:
            shape, _, dtype = np.lib.format.read_array_header_2_0(fh)
        return check_shape(shape), dtype
    except TensorReadError as exc:
        return str(exc)
    except Exception:  # noqa: BLE001 - numpy's header parser raises tokenizer/AST errors too
        return "the encoded array has no readable npy header"


def _size_problem(encoded: str, shape: tuple[int, ...], dtype: np.dtype) -> str | None:
    """Why the array cannot hold what its header claims (checked before anything is decoded)."""
    need = math.prod(shape) * dtype.itemsize
    if need > len(encoded):  # base64 holds 3 bytes per 4 characters, latin-1 text 1 per character
        return f"the header claims {need} bytes of data, the encoded array holds at most {len(encoded)}"
    return None


def _load_array(encoded: str, where: str) -> np.ndarray:
    data = io.BytesIO(_npy_bytes(encoded))
    try:
        arr = np.load(data, allow_pickle=False)
    except ValueError as exc:
        raise ValueError(f"{where}: not a plain numpy array ({exc})") from exc
    if isinstance(arr, np.lib.npyio.NpzFile):  # very old files saved with np.savez
        with arr:
            arr = arr[arr.files[0]]
    return arr


def _array_field(value: object) -> str | None:
    """The encoded npy string of an ndarray / LazyArray JSON object."""
    kind = _type_of(value)
    if kind in ("LazyArray", "LazyNumpyArray") and isinstance(value, dict):
        return _array_field(value.get("values"))
    if kind == "ndarray" and isinstance(value, dict) and isinstance(value.get("array"), str):
        return value["array"]  # type: ignore[no-any-return]
    return None


def _tensor(name: str, value: object, source: str, position: int, kind: str) -> TensorRef:
    where = f"{source}:{name}"
    encoded = _array_field(value)
    if encoded is None:
        is_lazy = _type_of(value) in ("LazyArray", "LazyNumpyArray")
        inner = value.get("values") if is_lazy else value  # type: ignore[union-attr]
        found = _type_of(inner) or type(inner).__name__
        return TensorRef(
            TensorInfo(name=name, kind=kind, source=where, order=float(position)),  # type: ignore[arg-type]
            error=f"{name}: a {found}, not a numpy array (torch tensors and other types are not read)",
        )
    head = _header(encoded)
    error = None
    shape = dtype = None
    if isinstance(head, str):
        error = f"{name}: {head}"
    else:
        shape, dt = head
        dtype = dt.name
        if dt.hasobject:
            error = f"{name}: an object array (would need unpickling); refused"
        elif (why := _size_problem(encoded, shape, dt)) is not None:
            error = f"{name}: {why}"
    info = TensorInfo(
        name=name, dtype=dtype, shape=shape, kind=kind, source=where, order=float(position)  # type: ignore[arg-type]
    )
    return TensorRef(info, None if error else partial(_load_array, encoded, where), error)


def _read_json(path: Path) -> object:
    try:
        if not path.is_file():  # a FIFO or device is never opened: it could block forever
            raise DumpError(f"{path}: not a regular file; not opened")
        with io.open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise DumpError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except RecursionError:
        raise DumpError(f"{path}: JSON nested too deeply to read") from None
    except ValueError as exc:
        raise DumpError(f"{path}: not valid JSON ({exc})") from exc


def _runs(data: object, path: Path) -> list[tuple[str, list[object]]]:
    kind = _type_of(data)
    if kind == "AccuracyResult":
        raise DumpError(f"{path}: a Polygraphy accuracy-results file holds verdicts, not tensors; use --save-outputs")
    if kind != "RunResults" or not isinstance(data, dict) or not isinstance(data.get("lst"), list):
        raise DumpError(f"{path}: not a Polygraphy RunResults JSON (no 'lst' of runners)")
    runs = []
    for entry in data["lst"]:
        if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list):
            runs.append((str(entry[0]), entry[1]))
    if not runs:
        raise DumpError(f"{path}: the RunResults JSON holds no runner results")
    return runs


def runners(path: str | Path) -> list[tuple[str, int]]:
    """``(runner name, number of iterations)`` for every runner in a RunResults file."""
    p = Path(path)
    return [(name, len(its)) for name, its in _runs(_read_json(p), p)]


def _inputs_dump(data: list[object], path: Path) -> Dump:
    if not data or not isinstance(data[0], dict):
        raise DumpError(f"{path}: an empty Polygraphy input list")
    feed = data[0]
    tensors = {n: _tensor(n, v, str(path), i, "input") for i, (n, v) in enumerate(feed.items())}
    problems = []
    if len(data) > 1:
        problems.append(DumpProblem(str(path), f"{len(data)} input feeds; the first is used"))
    return Dump(path=path, format=NAME, tensors=tensors, problems=problems, meta={"polygraphy": "inputs"})


def _pick_runner(runs: list[tuple[str, list[object]]], runner: str | None, iteration: int, p: Path) -> tuple[str, list[object], dict]:  # type: ignore[type-arg]
    """``(runner name, its iterations, the chosen iteration's outputs)``; a missing one is a DumpError."""
    names = [name for name, _ in runs]
    if runner is not None and runner not in names:
        raise DumpError(f"{p}: no runner {runner!r} (runners: {', '.join(names)})")
    name, iterations = runs[0] if runner is None else runs[names.index(runner)]
    if not 0 <= iteration < len(iterations):
        raise DumpError(f"{p}: runner {name!r} has {len(iterations)} iteration(s); {iteration} does not exist")
    it = iterations[iteration]
    outputs = it.get("outputs") if isinstance(it, dict) else None
    if not isinstance(outputs, dict):
        raise DumpError(f"{p}: runner {name!r} iteration {iteration} has no outputs")
    return name, iterations, outputs


def _others_problem(runs: list[tuple[str, list[object]]], name: str, iterations: list[object], iteration: int, p: Path) -> list[DumpProblem]:
    others = [f"{n} ({len(its)} iteration(s))" for n, its in runs if n != name]
    if not others and len(iterations) <= 1:
        return []
    also = f"; the file also holds {', '.join(others)}" if others else ""
    return [DumpProblem(str(p), f"read runner {name!r} iteration {iteration} of {len(iterations)}{also}")]


def open_runner(path: str | Path, runner: str | None = None, iteration: int = 0) -> Dump:
    """One runner's iteration of a RunResults file (default: the first runner)."""
    p = Path(path)
    data = _read_json(p)
    if isinstance(data, list) and all(isinstance(x, dict) and _type_of(x) is None for x in data):
        return _inputs_dump(data, p)
    runs = _runs(data, p)
    name, iterations, outputs = _pick_runner(runs, runner, iteration, p)
    tensors = {str(n): _tensor(str(n), v, str(p), i, "activation") for i, (n, v) in enumerate(outputs.items())}
    meta: dict[str, object] = {"runner": name, "iteration": iteration, "runners": [n for n, _ in runs]}
    it = iterations[iteration]
    if isinstance(it, dict) and isinstance(it.get("runtime"), (int, float)):
        meta["runtime_s"] = it["runtime"]
    return Dump(path=p, format=NAME, tensors=tensors, problems=_others_problem(runs, name, iterations, iteration, p), meta=meta)


def sniff(path: Path) -> float:
    try:
        if not path.is_file() or path.suffix.lower() != ".json":
            return 0.0
        with io.open(path, "rb") as fh:
            head = fh.read(8192)
    except OSError:
        return 0.0
    # The encoder writes "lst" first; type markers follow the (possibly huge) arrays.
    if _RUN_RESULTS_START.match(head) or b'"RunResults"' in head:
        return 0.9
    if head.lstrip().startswith(b"[") and b'"ndarray"' in head:
        return 0.6  # a --save-inputs feed list
    return 0.0


def open(path: Path) -> Dump:  # noqa: A001 - the format-module protocol names it `open`
    return open_runner(path)
