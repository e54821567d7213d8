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
shapes and dtypes come from the npy header alone.  The file is streamed, never read whole:
each long string (an encoded array) is stepped over and remembered as its place in the file,
read back when its header or data is needed, so memory follows one array, not the file.  A ``--save-inputs``
file (a list
of ``{name: ndarray}`` feeds) opens as a dump of graph inputs.

A file may hold several runners (``--onnxrt --trt``) and iterations: :func:`open`
reads the first runner's first iteration and says which others exist; use
:func:`open_runner` to pick one.
"""

from __future__ import annotations

import base64
import binascii
import builtins
import io
import json
import math
import re
from functools import partial
from pathlib import Path
from typing import TypeGuard

import numpy as np

from dumpscope.core.dumps import (
    Dump,
    DumpError,
    DumpProblem,
    TensorInfo,
    TensorKind,
    TensorReadError,
    TensorRef,
)
from dumpscope.core.formats.npyfile import check_shape
from dumpscope.core.formats.safe_fs import JsonStream, JsonTooDeep, StringSpan

NAME = "polygraphy"
#: One line for ``dumpscope formats``: how :func:`sniff` recognises this format.
SNIFF = (
    'a .json file opening as Polygraphy RunResults ("lst" first, or a "RunResults" marker), or a '
    "--save-inputs feed list"
)

TYPE_MARKER = "polygraphy_class"
LEGACY_MARKER = "polygraphy_serialized_json_type"
LEGACY_PREFIX = "__polygraphy_encoded_"
_HEADER_B64 = 4096  # base64 characters decoded to read an npy header (3 KB of bytes)
_RUN_RESULTS_START = re.compile(rb'\s*\{\s*"lst"\s*:\s*\[\s*(\]|\[\s*")')


_LAZY_TYPES = ("LazyArray", "LazyNumpyArray")


def _type_of(obj: object) -> str | None:
    """The Polygraphy type of a JSON object: its ``polygraphy_class``, or a legacy marker key."""
    if not isinstance(obj, dict):
        return None
    marker = obj.get(TYPE_MARKER)
    return marker if isinstance(marker, str) else _legacy_type(obj)


def _legacy_type(obj: dict[str, object]) -> str | None:
    """``Type`` of a ``"__polygraphy_encoded_<Type>": "polygraphy_serialized_json_type"`` key."""
    legacy = (key for key, value in obj.items() if key.startswith(LEGACY_PREFIX) and value == LEGACY_MARKER)
    return next((key[len(LEGACY_PREFIX) :] for key in legacy), None)


def _npy_bytes(encoded: str | _Encoded, limit: int | None = None) -> bytes:
    """The npy bytes of an encoded array (base64, or latin-1 text in old files)."""
    if isinstance(encoded, _Encoded):
        return encoded.npy_bytes(limit)
    text = encoded if limit is None else encoded[: limit - limit % 4]
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return encoded.encode("latin-1") if limit is None else encoded[:limit].encode("latin-1", "replace")


def _header(encoded: str | _Encoded) -> tuple[tuple[int, ...], np.dtype] | str:
    """Shape and dtype from the npy header, without decoding the data; or why not."""
    try:
        fh = io.BytesIO(_npy_bytes(encoded, _HEADER_B64))
        read_header = _HEADER_READERS.get(np.lib.format.read_magic(fh), np.lib.format.read_array_header_2_0)
        shape, _, dtype = read_header(fh)
        return check_shape(shape), dtype
    except TensorReadError as exc:
        return str(exc)
    except Exception:  # noqa: BLE001 - numpy's header parser raises tokenizer/AST errors too
        return "the encoded array has no readable npy header"


#: npy format version -> its header reader (versions after 1.0 share 2.0's).
_HEADER_READERS = {(1, 0): np.lib.format.read_array_header_1_0}


def _array_problem(encoded: str | _Encoded, shape: tuple[int, ...], dtype: np.dtype) -> str | None:
    """Why the array cannot be loaded as its header claims (checked before anything is decoded)."""
    if dtype.hasobject:
        return "an object array (would need unpickling); refused"
    need = math.prod(shape) * dtype.itemsize
    if need > len(encoded):  # base64 holds 3 bytes per 4 characters, latin-1 text 1 per character
        return f"the header claims {need} bytes of data, the encoded array holds at most {len(encoded)}"
    return None


def _load_array(encoded: str | _Encoded, where: str) -> np.ndarray:
    data = _npy_bytes(encoded)
    plain = _plain_array(data)
    if plain is not None:
        return plain
    try:
        arr = np.load(io.BytesIO(data), allow_pickle=False)
    except ValueError as exc:
        raise ValueError(f"{where}: not a plain numpy array ({exc})") from exc
    if isinstance(arr, np.lib.npyio.NpzFile):  # very old files saved with np.savez
        with arr:
            arr = arr[arr.files[0]]
    return arr


def _plain_array(data: bytes) -> np.ndarray | None:
    """The array of npy bytes with a plain dtype, viewing ``data`` (read-only, no copy: loading
    holds one copy of the array); None for anything else (``np.load`` then says why)."""
    try:
        fh = io.BytesIO(data)
        read_header = _HEADER_READERS.get(np.lib.format.read_magic(fh), np.lib.format.read_array_header_2_0)
        shape, fortran, dtype = read_header(fh)
    except Exception:  # noqa: BLE001 - numpy's header parser raises tokenizer/AST errors too
        return None
    count = math.prod(shape)
    if dtype.hasobject or len(data) < fh.tell() + count * dtype.itemsize:
        return None
    flat = np.frombuffer(data, dtype=dtype, count=count, offset=fh.tell())
    return flat.reshape(shape, order="F" if fortran else "C")


def _array_field(value: object) -> str | _Encoded | None:
    """The encoded npy string of an ndarray / LazyArray JSON object (only dicts have a type)."""
    if not isinstance(value, dict):
        return None
    kind = _type_of(value)
    if kind in _LAZY_TYPES:
        return _array_field(value.get("values"))
    array = value.get("array")
    return array if kind == "ndarray" and isinstance(array, (str, _Encoded)) else None


def _tensor(name: str, value: object, source: str, position: int, kind: TensorKind) -> TensorRef:
    where = f"{source}:{name}"
    encoded = _array_field(value)
    if encoded is None:
        return _not_an_array(name, value, where, position, kind)
    shape, dtype, error = _array_facts(name, encoded)
    info = TensorInfo(
        name=name,
        dtype=dtype,
        shape=shape,
        kind=kind,
        source=where,
        order=float(position),
    )
    return TensorRef(info, None if error else partial(_load_array, encoded, where), error)


def _not_an_array(name: str, value: object, where: str, position: int, kind: TensorKind) -> TensorRef:
    """A row saying what the value is instead (a torch tensor, a list...)."""
    inner = value.get("values") if isinstance(value, dict) and _type_of(value) in _LAZY_TYPES else value
    found = _type_of(inner) or ("str" if isinstance(inner, _Encoded) else type(inner).__name__)
    return TensorRef(
        TensorInfo(name=name, kind=kind, source=where, order=float(position)),
        error=f"{name}: a {found}, not a numpy array (torch tensors and other types are not read)",
    )


def _array_facts(name: str, encoded: str | _Encoded) -> tuple[tuple[int, ...] | None, str | None, str | None]:
    """``(shape, dtype name, error)`` of an encoded array, from its npy header alone."""
    head = _header(encoded)
    if isinstance(head, str):
        return None, None, f"{name}: {head}"
    shape, dtype = head
    why = _array_problem(encoded, shape, dtype)
    return shape, dtype.name, (None if why is None else f"{name}: {why}")


def _read_json(path: Path) -> object:
    """The file's JSON, streamed (:class:`JsonStream`): every value decoded except long strings
    (the encoded arrays), which stay in the file as :class:`_Encoded` places; never the whole
    file in memory, whatever its size."""
    try:
        if not path.is_file():  # a FIFO or device is never opened: it could block forever
            raise DumpError(f"{path}: not a regular file; not opened")
        with builtins.open(path, encoding="utf-8", newline="") as fh:
            stream = JsonStream(fh)
            data = _light_value(stream, str(path), 0)
            if not stream.at_end():
                raise ValueError(f"extra data at character {stream.offset}")
            return data
    except OSError as exc:
        raise DumpError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except (RecursionError, JsonTooDeep):
        raise DumpError(f"{path}: JSON nested too deeply to read") from None
    except ValueError as exc:
        raise DumpError(f"{path}: not valid JSON ({exc})") from exc


#: Strings longer than this stay in the file (:class:`_Encoded`): arrays of more than ~3 KB.
_INLINE_CHARS = 4096
#: RunResults nest 7 levels (lst, runner, iterations, iteration, outputs, LazyArray, ndarray).
_MAX_NESTING = 64


def _light_value(stream: JsonStream, path: str, depth: int) -> object:
    """The next JSON value as ``json.load`` gives it, long strings as :class:`_Encoded`."""
    if depth > _MAX_NESTING:
        raise JsonTooDeep(f"more than {_MAX_NESTING} levels")
    if stream.next_is("{"):
        stream.begin_object()
        return {key: _light_value(stream, path, depth + 1) for key in stream.members()}
    if stream.next_is("["):
        stream.begin_array()
        return [_light_value(stream, path, depth + 1) for _ in stream.items()]
    if stream.next_is('"'):
        found = stream.string_or_span(_INLINE_CHARS)
        return found if isinstance(found, str) else _Encoded(path, found)
    return stream.value()


class _Encoded:
    """An encoded array left in the file (a long JSON string): read when its header or data is
    needed, so opening a file holds none of its arrays and loading holds one."""

    __slots__ = ("path", "span")

    def __init__(self, path: str, span: StringSpan) -> None:
        self.path, self.span = path, span

    def __len__(self) -> int:
        """Its length in the file: at least the characters of the decoded string."""
        return self.span.length

    def npy_bytes(self, limit: int | None) -> bytes:
        """What :func:`_npy_bytes` gives for the string (its first ``limit`` characters' worth)."""
        span = self.span
        raw = self._raw(span.length if limit is None else min(span.length, 6 * limit + 16))
        if not span.escaped:  # the usual base64: decoded straight from the bytes read
            try:
                return base64.b64decode(raw if limit is None else raw[: limit - limit % 4], validate=True)
            except (binascii.Error, ValueError):
                pass
        return _npy_bytes(self._text(raw, whole=limit is None), limit)

    def _raw(self, count: int) -> bytes:
        with builtins.open(self.path, "rb") as fh:
            fh.seek(self.span.offset)
            raw = fh.read(count)
        if len(raw) != count:
            raise TensorReadError("the file is shorter than when it was opened (changed since?)")
        return raw

    def _text(self, raw: bytes, whole: bool) -> str:
        """The string the JSON text ``raw`` (its body, or the start of it) stands for."""
        if not self.span.escaped:
            return raw.decode("utf-8", "strict" if whole else "ignore")
        if whole:
            return json.loads(b'"' + raw + b'"')
        for cut in range(len(raw), max(len(raw) - 12, 0), -1):  # (not within an escape or a character)
            try:
                return json.loads(b'"' + raw[:cut] + b'"')
            except ValueError:
                continue
        return ""


def _runs(data: object, path: Path) -> list[tuple[str, list[object]]]:
    """``(runner name, iterations)`` of every well-formed entry of a RunResults ``lst``."""
    lst = _run_results(data, path)
    runs = [(str(entry[0]), entry[1]) for entry in lst if _is_runner_entry(entry)]
    if not runs:
        raise DumpError(f"{path}: the RunResults JSON holds no runner results")
    return runs


def _run_results(data: object, path: Path) -> list:
    """The ``lst`` of a RunResults object; raise unless ``data`` is one (typed objects are dicts)."""
    kind = _type_of(data)
    if kind == "AccuracyResult":
        raise DumpError(
            f"{path}: a Polygraphy accuracy-results file holds verdicts, not tensors; use --save-outputs"
        )
    lst = data.get("lst") if kind == "RunResults" and isinstance(data, dict) else None
    if not isinstance(lst, list):
        raise DumpError(f"{path}: not a Polygraphy RunResults JSON (no 'lst' of runners)")
    return lst


def _is_runner_entry(entry: object) -> bool:
    """``[runner_name, [IterationResult, ...]]``."""
    return isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], list)


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


def _runner_index(runs: list[tuple[str, list[object]]], runner: str | None, p: Path) -> int:
    """Where the asked runner is (the first when none is asked); a missing one is a DumpError."""
    names = [name for name, _ in runs]
    if runner is None:
        return 0
    if runner not in names:
        raise DumpError(f"{p}: no runner {runner!r} (runners: {', '.join(names)})")
    return names.index(runner)


def _pick_runner(
    runs: list[tuple[str, list[object]]], runner: str | None, iteration: int, p: Path
) -> tuple[str, list[object], dict]:
    """``(runner name, its iterations, the chosen iteration's outputs)``; a missing one is a DumpError."""
    name, iterations = runs[_runner_index(runs, runner, p)]
    if not 0 <= iteration < len(iterations):
        raise DumpError(
            f"{p}: runner {name!r} has {len(iterations)} iteration(s); {iteration} does not exist"
        )
    it = iterations[iteration]
    outputs = it.get("outputs") if isinstance(it, dict) else None
    if not isinstance(outputs, dict):
        raise DumpError(f"{p}: runner {name!r} iteration {iteration} has no outputs")
    return name, iterations, outputs


def _others_problem(
    runs: list[tuple[str, list[object]]], name: str, iterations: list[object], iteration: int, p: Path
) -> list[DumpProblem]:
    others = [f"{n} ({len(its)} iteration(s))" for n, its in runs if n != name]
    if not others and len(iterations) <= 1:
        return []
    also = f"; the file also holds {', '.join(others)}" if others else ""
    return [DumpProblem(str(p), f"read runner {name!r} iteration {iteration} of {len(iterations)}{also}")]


def _is_feed_list(data: object) -> TypeGuard[list[object]]:
    """A ``--save-inputs`` file: a list of untyped ``{name: ndarray}`` feeds."""
    return isinstance(data, list) and all(isinstance(x, dict) and _type_of(x) is None for x in data)


def _runtime_meta(it: object) -> dict[str, object]:
    """``runtime_s`` of an iteration that records its runtime."""
    if isinstance(it, dict) and isinstance(it.get("runtime"), (int, float)):
        return {"runtime_s": it["runtime"]}
    return {}


def open_runner(path: str | Path, runner: str | None = None, iteration: int = 0) -> Dump:
    """One runner's iteration of a RunResults file (default: the first runner)."""
    p = Path(path)
    data = _read_json(p)
    if _is_feed_list(data):
        return _inputs_dump(data, p)
    runs = _runs(data, p)
    name, iterations, outputs = _pick_runner(runs, runner, iteration, p)
    tensors = {
        str(n): _tensor(str(n), v, str(p), i, "activation") for i, (n, v) in enumerate(outputs.items())
    }
    meta: dict[str, object] = {"runner": name, "iteration": iteration, "runners": [n for n, _ in runs]}
    meta.update(_runtime_meta(iterations[iteration]))
    return Dump(
        path=p,
        format=NAME,
        tensors=tensors,
        problems=_others_problem(runs, name, iterations, iteration, p),
        meta=meta,
    )


def _json_head(path: Path) -> bytes | None:
    """The first 8 KiB of a ``.json`` regular file (None for anything else)."""
    try:
        if not path.is_file() or path.suffix.lower() != ".json":
            return None
        with builtins.open(path, "rb") as fh:
            return fh.read(8192)
    except OSError:
        return None


def _looks_like_run_results(head: bytes) -> bool:
    """The encoder writes "lst" first; type markers follow the (possibly huge) arrays."""
    return _RUN_RESULTS_START.match(head) is not None or b'"RunResults"' in head


def _looks_like_feed_list(head: bytes) -> bool:
    """A ``--save-inputs`` feed list."""
    return head.lstrip().startswith(b"[") and b'"ndarray"' in head


_SNIFF_SCORES = ((0.9, _looks_like_run_results), (0.6, _looks_like_feed_list))


def sniff(path: Path) -> float:
    head = _json_head(path)
    if head is None:
        return 0.0
    return next((score for score, looks in _SNIFF_SCORES if looks(head)), 0.0)


def open(path: Path) -> Dump:  # noqa: A001 - the format-module protocol names it `open`
    return open_runner(path)
