"""The graph inputs of a dump: given (``--input NAME=FILE.npy``) or generated from a seed.

``--input`` and ``--input-shape`` are parsed and checked against the graph's inputs, data not given
is generated deterministically from (name, dtype, shape, seed), and :func:`save_inputs` writes them
under a dump's ``inputs/`` with their manifest entries.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper

from dumpscope.core.atomic import save_npy
from dumpscope.core.dumps import DumpError, TensorReadError
from dumpscope.core.formats.npyfile import open_npy
from dumpscope.core.names import to_filename
from dumpscope.core.onnx.graph import GraphFacts
from dumpscope.core.onnx.manifest import sha256_of


def parse_input_shapes(text: str | None) -> dict[str, tuple[int, ...]]:
    """``"x:1,3,224,224;y:1,16"`` (msit / ATC syntax) -> ``{"x": (1, 3, 224, 224), ...}``."""
    items = (item.strip() for item in (text or "").split(";"))
    return dict(_shape_item(item) for item in items if item)


def _shape_item(item: str) -> tuple[str, tuple[int, ...]]:
    """One ``NAME:D1,D2,...`` item of ``--input-shape``."""
    name, sep, dims = item.rpartition(":")
    if not sep or not name:
        raise DumpError(f"bad --input-shape item {item!r}: expected NAME:D1,D2,... (e.g. x:1,3,224,224)")
    shape = _int_dims(item, dims)
    if any(d < 0 for d in shape):
        raise DumpError(f"bad --input-shape item {item!r}: dimensions must be >= 0")
    return name, shape


def _int_dims(item: str, dims: str) -> tuple[int, ...]:
    """``"1,3,224"`` -> ``(1, 3, 224)``; empty text is a scalar's shape ``()``."""
    try:
        return tuple(int(d) for d in dims.split(",")) if dims.strip() else ()
    except ValueError:
        raise DumpError(f"bad --input-shape item {item!r}: dimensions must be integers") from None


def parse_input_files(items: Sequence[str], input_names: Sequence[str]) -> dict[str, Path]:
    """``["x=a.npy", ...]`` -> ``{"x": Path("a.npy")}``; a bare path is fine for a one-input model."""
    files: dict[str, Path] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep:
            if len(input_names) != 1:
                raise DumpError(f"--input {item!r}: give NAME=FILE.npy (inputs: {', '.join(input_names)})")
            name, path = input_names[0], item
        files[name] = Path(path)
    return files


def np_dtype(elem_type: int) -> np.dtype:
    return np.dtype(helper.tensor_dtype_to_np_dtype(elem_type))


def generate_input(name: str, dtype: np.dtype, shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Deterministic data for one input: the same (name, dtype, shape, seed) gives the same bytes.

    Floats are standard normal; integers are small and non-negative (0..3, safe as
    indices and lengths); booleans are fair coin flips.
    """
    rng = np.random.default_rng([seed, zlib.crc32(name.encode("utf-8", "surrogateescape"))])
    if dtype == np.bool_:
        return np.asarray(rng.random(shape) < 0.5)  # asarray: shape () gives a numpy scalar
    if np.issubdtype(dtype, np.integer):
        return np.asarray(rng.integers(0, 4, size=shape), dtype=dtype)
    if np.issubdtype(dtype, np.floating) or dtype.kind == "V":
        return np.asarray(rng.standard_normal(shape), dtype=dtype)
    raise DumpError(f"input {name!r}: cannot generate data of type {dtype}; give it with --input")


def _dims(vi: onnx.ValueInfoProto) -> list[int | str] | None:
    tt = vi.type.tensor_type
    if not tt.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or "?") for d in tt.shape.dim]


@dataclass(frozen=True)
class ModelInput:
    name: str
    array: np.ndarray
    generated: bool


def _check_names(
    real: Mapping[str, object], files: Mapping[str, Path], shapes: Mapping[str, tuple[int, ...]]
) -> None:
    """``--input`` and ``--input-shape`` may only name real graph inputs."""
    for what, given in (("--input", files), ("--input-shape", shapes)):
        unknown = [n for n in given if n not in real]
        if unknown:
            raise DumpError(
                f"{what}: no graph input named {', '.join(map(repr, unknown))} "
                f"(inputs: {', '.join(map(repr, real)) or 'none'})"
            )


def _generated_shape(
    name: str, dims: list[int | str] | None, given: tuple[int, ...] | None
) -> tuple[int, ...]:
    """The shape of a generated input: ``--input-shape``, or the model's static dims."""
    if given is not None:
        _check_shape(name, dims, given, "--input-shape")
        return given
    if dims is not None and all(map(_is_known_dim, dims)):
        return tuple(int(d) for d in dims)
    raise DumpError(_needs_shape(name, dims))


def _is_known_dim(d: int | str) -> bool:
    """A dimension the model fixes (not symbolic, not -1 or 0 for "any")."""
    return isinstance(d, int) and d > 0


def _needs_shape(name: str, dims: list[int | str] | None) -> str:
    """Why an input's data cannot be generated, with an example ``--input-shape`` to give."""
    symbolic = [d for d in (dims or []) if not _is_known_dim(d)]
    example = ",".join(str(d) if _is_known_dim(d) else "1" for d in (dims or [1]))
    what_dims = f"dynamic dims {symbolic} (shape {dims})" if dims is not None else "no known shape"
    return (
        f"input {name!r} has {what_dims}: give its shape with --input-shape "
        f'"{name}:{example}" or its data with --input {name}=FILE.npy'
    )


def _one_input(
    name: str,
    vi: onnx.ValueInfoProto,
    files: Mapping[str, Path],
    shapes: Mapping[str, tuple[int, ...]],
    seed: int,
) -> ModelInput:
    if not vi.type.HasField("tensor_type"):
        raise DumpError(f"input {name!r} is not a tensor; only tensor inputs are supported")
    dtype = np_dtype(vi.type.tensor_type.elem_type)
    dims = _dims(vi)
    if name in files:
        arr = _read_input_file(name, files[name], dtype)
        _check_shape(name, dims, tuple(arr.shape), f"file {files[name]}")
        return ModelInput(name, arr, False)
    shape = _generated_shape(name, dims, shapes.get(name))
    return ModelInput(name, generate_input(name, dtype, shape, seed), True)


def resolve_inputs(
    graph: onnx.GraphProto,
    facts: GraphFacts,
    files: Mapping[str, Path],
    shapes: Mapping[str, tuple[int, ...]],
    seed: int,
) -> list[ModelInput]:
    """The data of every real graph input: read from ``files`` or generated."""
    real = {vi.name: vi for vi in graph.input if vi.name in facts.graph_inputs}
    _check_names(real, files, shapes)
    return [_one_input(name, vi, files, shapes, seed) for name, vi in real.items()]


def _read_input_file(name: str, path: Path, dtype: np.dtype) -> np.ndarray:
    """One ``--input`` array: a regular ``.npy`` file (a FIFO is never opened), header checked first."""
    if not path.exists():
        raise DumpError(f"--input {name}: {path}: no such file")
    if not path.is_file():
        raise DumpError(f"--input {name}: {path} is not a regular file")
    return _as_model_dtype(name, path, _load_single_npy(name, path), dtype)


def _load_single_npy(name: str, path: Path) -> np.ndarray:
    """The array of a ``.npy`` file; an ``.npz`` (a zip: several arrays) is refused."""
    try:
        with path.open("rb") as fh:
            if fh.read(2) == b"PK":
                raise DumpError(f"--input {name}: {path} holds several arrays; give a single .npy file")
        _shape, _dtype, loader = open_npy(path)
        return np.array(loader())
    except (TensorReadError, OSError) as exc:
        raise DumpError(f"--input {name}: {path} is not a readable .npy file ({exc})") from None


def _as_model_dtype(name: str, path: Path, arr: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``arr`` cast to the input's type when that is a same-kind cast (int32 -> int64), else refused."""
    if arr.dtype == dtype:
        return arr
    if not np.can_cast(arr.dtype, dtype, casting="same_kind"):
        raise DumpError(f"--input {name}: {path} holds {arr.dtype}, the model expects {dtype}")
    return arr.astype(dtype)


def _check_shape(name: str, dims: list[int | str] | None, shape: tuple[int, ...], source: str) -> None:
    """Refuse a given shape (from ``source``) the model's known dims contradict."""
    if dims is not None and not _fits(dims, shape):
        raise DumpError(f"input {name!r}: {source} gives shape {list(shape)}, the model expects {dims}")


def _fits(dims: list[int | str], shape: tuple[int, ...]) -> bool:
    """``shape`` has the model's rank and agrees with every dimension the model fixes."""
    return len(dims) == len(shape) and not any(
        _is_known_dim(d) and d != s for d, s in zip(dims, shape, strict=False)
    )


def save_inputs(out_dir: Path, inputs: Sequence[ModelInput], prefix: str = "") -> list[dict[str, Any]]:
    """Write inputs under ``out_dir/inputs/`` and return their manifest entries."""
    entries = []
    (out_dir / "inputs").mkdir(parents=True, exist_ok=True)
    for inp in inputs:
        rel = f"inputs/{to_filename(prefix + inp.name)}"
        save_npy(out_dir / rel, inp.array)
        entries.append(
            {
                "name": prefix + inp.name,
                "file": rel,
                "sha256": sha256_of(out_dir / rel),
                "generated": inp.generated,
                "dtype": str(inp.array.dtype),
                "shape": list(inp.array.shape),
            }
        )
    return entries


def given_shapes(input_shapes: str | Mapping[str, tuple[int, ...]] | None) -> dict[str, tuple[int, ...]]:
    """``input_shapes`` as a mapping: parsed from ``"x:1,3;y:2"`` text, or copied."""
    if isinstance(input_shapes, str) or input_shapes is None:
        return parse_input_shapes(input_shapes)
    return dict(input_shapes)


def given_files(
    inputs: Mapping[str, str | Path] | Sequence[str] | None, names: Sequence[str]
) -> dict[str, Path]:
    """``inputs`` as ``{name: path}``: parsed from ``["x=a.npy", ...]``, or from a mapping."""
    if inputs is None:
        return {}
    if isinstance(inputs, Mapping):
        return {k: Path(v) for k, v in inputs.items()}
    return parse_input_files(list(inputs), names)
