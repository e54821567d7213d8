"""Read a tensor saved by ``torch.save`` (a ``.pt`` zip) without torch and without unpickling.

A ``.pt`` file is a zip archive: ``{archive}/data.pkl`` describes the object, and each
storage's raw bytes are in ``{archive}/data/{key}``.  ``data.pkl`` is a pickle, which
dumpscope never executes: :func:`_interpret` walks its opcodes with
:func:`pickletools.genops` (a parser, it runs nothing) on a small stack machine that
knows a whitelist of opcodes and only these globals, kept as inert names:

* ``torch._utils._rebuild_tensor_v2`` (and ``_rebuild_parameter``), the tensor itself;
* ``torch.{Float,Half,BFloat16,Double,Long,Int,Short,Char,Byte,Bool}Storage`` (dtype);
* ``collections.OrderedDict`` (the empty backward-hooks argument).

Anything else (another global, an opcode outside the list) refuses the file with a
message; the tensor is then rebuilt from the storage bytes with numpy, bounds checked.
"""

from __future__ import annotations

import pickletools
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dumpscope.core.dumps import TensorReadError

_STORAGE_DTYPES = {
    "FloatStorage": "float32", "HalfStorage": "float16", "BFloat16Storage": "bfloat16", "DoubleStorage": "float64",
    "LongStorage": "int64", "IntStorage": "int32", "ShortStorage": "int16", "CharStorage": "int8",
    "ByteStorage": "uint8", "BoolStorage": "bool",
}
_GLOBALS = {("torch._utils", "_rebuild_tensor_v2"), ("torch._utils", "_rebuild_parameter"),
            ("collections", "OrderedDict")} | {("torch", name) for name in _STORAGE_DTYPES}
_MARK = object()


@dataclass(frozen=True)
class _Global:
    module: str
    name: str


@dataclass(frozen=True)
class _Storage:
    dtype: str
    key: str
    numel: int


@dataclass(frozen=True)
class TensorSpec:
    """What ``data.pkl`` says about the tensor: its storage and its view of it."""

    storage: _Storage
    offset: int
    shape: tuple[int, ...]
    stride: tuple[int, ...]


def _pop_mark(stack: list) -> list:
    i = len(stack) - 1 - stack[::-1].index(_MARK)
    items = stack[i + 1:]
    del stack[i:]
    return items


def _reduce(func: object, args: object) -> object:
    if not isinstance(func, _Global) or not isinstance(args, tuple):
        raise TensorReadError("data.pkl calls something that is not a known constructor; refused")
    if func.name == "OrderedDict":
        return {}
    if func.name == "_rebuild_parameter":
        return args[0]
    storage, offset, shape, stride = args[:4]
    if not isinstance(storage, _Storage):
        raise TensorReadError("data.pkl: tensor without a storage; refused")
    return TensorSpec(storage, int(offset), tuple(int(d) for d in shape), tuple(int(s) for s in stride))


def _persistent(pid: object) -> _Storage:
    if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage" and isinstance(pid[1], _Global)):
        raise TensorReadError(f"data.pkl: unknown persistent id {pid!r}; refused")
    return _Storage(_STORAGE_DTYPES[pid[1].name], str(pid[2]), int(pid[4]))


def _global(module: str, name: str) -> _Global:
    if (module, name) not in _GLOBALS:
        raise TensorReadError(f"data.pkl refers to {module}.{name}; refused (dumpscope never unpickles)")
    return _Global(module, name)


_PUSH = {"BININT", "BININT1", "BININT2", "LONG1", "BINFLOAT", "BINUNICODE", "SHORT_BINUNICODE", "BINUNICODE8",
         "BINSTRING", "SHORT_BINSTRING", "BINBYTES", "SHORT_BINBYTES"}
_CONST = {"NONE": None, "NEWTRUE": True, "NEWFALSE": False, "EMPTY_TUPLE": ()}
_NOOP = {"PROTO", "FRAME", "STOP"}


def _step(op: str, arg: object, stack: list, memo: dict) -> None:  # noqa: C901 - one opcode table
    if op in _PUSH:
        stack.append(arg)
    elif op in _CONST:
        stack.append(_CONST[op])
    elif op in ("EMPTY_DICT", "EMPTY_LIST"):
        stack.append({} if op == "EMPTY_DICT" else [])
    elif op == "MARK":
        stack.append(_MARK)
    elif op == "TUPLE":
        stack.append(tuple(_pop_mark(stack)))
    elif op in ("TUPLE1", "TUPLE2", "TUPLE3"):
        n = int(op[-1])
        stack[-n:] = [tuple(stack[-n:])]
    elif op in ("BINPUT", "LONG_BINPUT", "MEMOIZE"):
        memo[arg if op != "MEMOIZE" else len(memo)] = stack[-1]
    elif op in ("BINGET", "LONG_BINGET"):
        stack.append(memo[arg])
    else:
        _step_objects(op, arg, stack)


def _step_objects(op: str, arg: object, stack: list) -> None:
    if op == "GLOBAL":
        module, name = str(arg).split(" ", 1)
        stack.append(_global(module, name))
    elif op == "STACK_GLOBAL":
        name, module = stack.pop(), stack.pop()
        stack.append(_global(str(module), str(name)))
    elif op == "BINPERSID":
        stack.append(_persistent(stack.pop()))
    elif op == "REDUCE":
        args = stack.pop()
        stack[-1] = _reduce(stack[-1], args)
    elif op in ("SETITEMS", "APPENDS", "SETITEM", "APPEND"):
        _collection(op, stack)
    elif op not in _NOOP:
        raise TensorReadError(f"data.pkl uses pickle opcode {op}; refused (dumpscope never unpickles)")


def _collection(op: str, stack: list) -> None:
    items = _pop_mark(stack) if op.endswith("S") else stack[-2 if op == "APPEND" else -3:]
    if not op.endswith("S"):
        del stack[-len(items):]
    target = stack[-1]
    if isinstance(target, list):
        target.extend(items)
    elif isinstance(target, dict):
        target.update(zip(items[::2], items[1::2]))


def _interpret(pickle_bytes: bytes) -> object:
    """Walk ``data.pkl``'s opcodes on an inert stack machine; return the top object."""
    stack: list = []
    memo: dict = {}
    try:
        for opcode, arg, _pos in pickletools.genops(pickle_bytes):
            _step(opcode.name, arg, stack, memo)
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        raise TensorReadError(f"data.pkl is malformed ({exc})") from None
    if len(stack) != 1:
        raise TensorReadError("data.pkl does not describe one object")
    return stack[0]


def _member(zf: zipfile.ZipFile, suffix: str) -> str:
    for name in zf.namelist():
        if name.endswith(suffix) and name.count("/") == suffix.count("/") + 1:
            return name
    raise TensorReadError(f"no {suffix} in the archive (not a torch.save file)")


def read_spec(path: Path) -> TensorSpec:
    """The tensor's storage and view, read from ``data.pkl`` without executing it."""
    try:
        with zipfile.ZipFile(path) as zf:
            spec = _interpret(zf.read(_member(zf, "data.pkl")))
    except (OSError, zipfile.BadZipFile) as exc:
        raise TensorReadError(f"{path.name}: not a readable .pt zip ({exc})") from None
    if not isinstance(spec, TensorSpec):
        raise TensorReadError(f"{path.name}: holds {type(spec).__name__}, not one tensor")
    return spec


def load_pt(path: Path) -> np.ndarray:
    """The tensor in ``path`` as a numpy array (bounds checked against the storage)."""
    spec = read_spec(path)
    dtype = _np_dtype(spec.storage.dtype)
    with zipfile.ZipFile(path) as zf:
        raw = zf.read(_member(zf, f"data/{spec.storage.key}"))
    storage = np.frombuffer(raw, dtype=dtype, count=min(len(raw) // dtype.itemsize, spec.storage.numel))
    return _view(storage, spec)


def _np_dtype(name: str) -> np.dtype:
    if name == "bfloat16":
        import ml_dtypes

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name).newbyteorder("<")


def _last_element(spec: TensorSpec) -> int:
    """Index of the last storage element the view touches (offset - 1 for an empty view)."""
    if not all(spec.shape):
        return spec.offset - 1
    return spec.offset + sum((d - 1) * s for d, s in zip(spec.shape, spec.stride))


def _view(storage: np.ndarray, spec: TensorSpec) -> np.ndarray:
    """The tensor as a copy of its strided view of the storage, bounds checked first."""
    if len(spec.shape) != len(spec.stride) or min(spec.shape + spec.stride + (spec.offset,), default=0) < 0:
        raise TensorReadError("data.pkl: negative or inconsistent shape/stride/offset")
    last = _last_element(spec)
    if last >= storage.size:
        raise TensorReadError(f"tensor view reaches element {last} of a {storage.size}-element storage (truncated file?)")
    strides = tuple(s * storage.itemsize for s in spec.stride)
    return np.lib.stride_tricks.as_strided(storage[spec.offset:], shape=spec.shape, strides=strides,
                                           writeable=False).copy()
