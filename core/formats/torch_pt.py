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

import math
import pickletools
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from dumpscope.core.dumps import TensorReadError

_STORAGE_DTYPES = {
    "FloatStorage": "float32",
    "HalfStorage": "float16",
    "BFloat16Storage": "bfloat16",
    "DoubleStorage": "float64",
    "LongStorage": "int64",
    "IntStorage": "int32",
    "ShortStorage": "int16",
    "CharStorage": "int8",
    "ByteStorage": "uint8",
    "BoolStorage": "bool",
}
_GLOBALS = {
    ("torch._utils", "_rebuild_tensor_v2"),
    ("torch._utils", "_rebuild_parameter"),
    ("collections", "OrderedDict"),
} | {("torch", name) for name in _STORAGE_DTYPES}
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
    """The items above the topmost mark, removed with it (found from the top: linear in what is
    popped, never a copy of the whole stack per opcode)."""
    i = len(stack) - 1
    while stack[i] is not _MARK:
        i -= 1
        if i < 0:
            raise IndexError("no MARK on the stack")
    items = stack[i + 1 :]
    del stack[i:]
    return items


def _reduce(func: object, args: object) -> object:
    """Apply one of the whitelisted constructors (:data:`_CONSTRUCTORS`; a storage or the tensor
    rebuild otherwise) to its arguments, inertly."""
    if not isinstance(func, _Global) or not isinstance(args, tuple):
        raise TensorReadError("data.pkl calls something that is not a known constructor; refused")
    return _CONSTRUCTORS.get(func.name, _rebuild_tensor)(args)


def _rebuild_tensor(args: tuple) -> TensorSpec:
    """``_rebuild_tensor_v2(storage, offset, shape, stride, ...)``."""
    storage, offset, shape, stride = args[:4]
    if not isinstance(storage, _Storage):
        raise TensorReadError("data.pkl: tensor without a storage; refused")
    return TensorSpec(storage, int(offset), tuple(int(d) for d in shape), tuple(int(s) for s in stride))


def _empty_ordered_dict(args: tuple) -> dict:
    return {}


def _rebuild_parameter(args: tuple) -> object:
    """A ``Parameter`` is its tensor (the first argument)."""
    return args[0]


_CONSTRUCTORS = {"OrderedDict": _empty_ordered_dict, "_rebuild_parameter": _rebuild_parameter}


def _persistent(pid: object) -> _Storage:
    if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage" and isinstance(pid[1], _Global)):
        raise TensorReadError(f"data.pkl: unknown persistent id {pid!r}; refused")
    return _Storage(_STORAGE_DTYPES[pid[1].name], str(pid[2]), int(pid[4]))


def _global(module: str, name: str) -> _Global:
    if (module, name) not in _GLOBALS:
        raise TensorReadError(f"data.pkl refers to {module}.{name}; refused (dumpscope never unpickles)")
    return _Global(module, name)


_PUSH = {
    "BININT",
    "BININT1",
    "BININT2",
    "LONG1",
    "BINFLOAT",
    "BINUNICODE",
    "SHORT_BINUNICODE",
    "BINUNICODE8",
    "BINSTRING",
    "SHORT_BINSTRING",
    "BINBYTES",
    "SHORT_BINBYTES",
}
_CONST = {"NONE": None, "NEWTRUE": True, "NEWFALSE": False, "EMPTY_TUPLE": ()}
_NOOP = {"PROTO", "FRAME", "STOP"}

#: What one opcode does: ``(arg, stack, memo) -> None``.
_Handler = Callable[[object, list, dict], None]


def _step(op: str, arg: object, stack: list, memo: dict) -> None:
    """Run one opcode of the whitelist (:data:`_OPCODES`); any other is refused."""
    handler = _OPCODES.get(op)
    if handler is None:
        raise TensorReadError(f"data.pkl uses pickle opcode {op}; refused (dumpscope never unpickles)")
    handler(arg, stack, memo)


def _push_arg(arg: object, stack: list, memo: dict) -> None:
    stack.append(arg)


def _push_value(value: object, arg: object, stack: list, memo: dict) -> None:
    stack.append(value)


def _push_new(factory: Callable[[], object], arg: object, stack: list, memo: dict) -> None:
    stack.append(factory())


def _tuple_from_mark(arg: object, stack: list, memo: dict) -> None:
    stack.append(tuple(_pop_mark(stack)))


def _tuple_of(n: int, arg: object, stack: list, memo: dict) -> None:
    """TUPLE1/2/3: the top ``n`` items become one tuple."""
    stack[-n:] = [tuple(stack[-n:])]


def _put(arg: object, stack: list, memo: dict) -> None:
    memo[arg] = stack[-1]


def _memoize(arg: object, stack: list, memo: dict) -> None:
    memo[len(memo)] = stack[-1]


def _get(arg: object, stack: list, memo: dict) -> None:
    stack.append(memo[arg])


def _global_op(arg: object, stack: list, memo: dict) -> None:
    module, name = str(arg).split(" ", 1)
    stack.append(_global(module, name))


def _stack_global(arg: object, stack: list, memo: dict) -> None:
    name, module = stack.pop(), stack.pop()
    stack.append(_global(str(module), str(name)))


def _persistent_id(arg: object, stack: list, memo: dict) -> None:
    stack.append(_persistent(stack.pop()))


def _reduce_op(arg: object, stack: list, memo: dict) -> None:
    args = stack.pop()
    stack[-1] = _reduce(stack[-1], args)


def _marked_items(arg: object, stack: list, memo: dict) -> None:
    """SETITEMS/APPENDS: the items above the mark go into the collection below it."""
    _add_items(stack, _pop_mark(stack))


def _top_items(n: int, arg: object, stack: list, memo: dict) -> None:
    """APPEND (n=1: a value) / SETITEM (n=2: a key and a value): the top ``n`` stack slots go into
    the collection below them."""
    items = stack[-n:]
    del stack[-len(items) :]
    _add_items(stack, items)


def _add_items(stack: list, items: list) -> None:
    """Extend a list, or update a dict with key/value pairs, at the top of the stack."""
    target = stack[-1]
    if isinstance(target, list):
        target.extend(items)
    elif isinstance(target, dict):
        target.update(zip(items[::2], items[1::2], strict=False))


def _noop(arg: object, stack: list, memo: dict) -> None:
    return None


#: The whitelist: every opcode dumpscope follows, and what it does on the inert stack machine.
_OPCODES: dict[str, _Handler] = {
    **dict.fromkeys(_PUSH, _push_arg),
    **{op: partial(_push_value, value) for op, value in _CONST.items()},
    "EMPTY_DICT": partial(_push_new, dict),
    "EMPTY_LIST": partial(_push_new, list),
    "MARK": partial(_push_value, _MARK),
    "TUPLE": _tuple_from_mark,
    **{f"TUPLE{n}": partial(_tuple_of, n) for n in (1, 2, 3)},
    "BINPUT": _put,
    "LONG_BINPUT": _put,
    "MEMOIZE": _memoize,
    "BINGET": _get,
    "LONG_BINGET": _get,
    "GLOBAL": _global_op,
    "STACK_GLOBAL": _stack_global,
    "BINPERSID": _persistent_id,
    "REDUCE": _reduce_op,
    "SETITEMS": _marked_items,
    "APPENDS": _marked_items,
    "APPEND": partial(_top_items, 1),
    "SETITEM": partial(_top_items, 2),
    **dict.fromkeys(_NOOP, _noop),
}


def _interpret(pickle_bytes: bytes) -> object:
    """Walk ``data.pkl``'s opcodes on an inert stack machine; return the top object."""
    stack: list = []
    memo: dict = {}
    try:
        for opcode, arg, _pos in pickletools.genops(pickle_bytes):
            _step(opcode.name, arg, stack, memo)
    except (ValueError, IndexError, KeyError, TypeError, OverflowError, AttributeError) as exc:
        raise TensorReadError(f"data.pkl is malformed ({type(exc).__name__}: {str(exc)[:200]})") from None
    if len(stack) != 1:
        raise TensorReadError("data.pkl does not describe one object")
    return stack[0]


def _member(zf: zipfile.ZipFile, suffix: str) -> str:
    for name in zf.namelist():
        if name.endswith(suffix) and name.count("/") == suffix.count("/") + 1:
            return name
    raise TensorReadError(f"no {suffix} in the archive (not a torch.save file)")


#: ``data.pkl`` larger than this (inflated) is refused: a tensor's is a few hundred bytes.
MAX_PICKLE_BYTES = 1 << 20
#: A view may reach more elements than its storage holds (a broadcast, stride 0) up to this many.
MAX_BROADCAST_ELEMENTS = 1 << 20
#: What reading a damaged zip raises (bad CRC, encryption, an unknown method, a corrupt stream, bad sizes).
_ZIP_ERRORS = (
    OSError,
    EOFError,
    zipfile.BadZipFile,
    zlib.error,
    RuntimeError,
    NotImplementedError,
    ValueError,
    OverflowError,
    struct.error,
    KeyError,
    UnicodeDecodeError,
)


def read_spec(path: Path) -> TensorSpec:
    """The tensor's storage and view, read from ``data.pkl`` without executing it."""
    try:
        with zipfile.ZipFile(path) as zf:
            spec = _interpret(_bounded(zf, _member(zf, "data.pkl"), MAX_PICKLE_BYTES, "data.pkl"))
    except _ZIP_ERRORS as exc:
        raise TensorReadError(f"{path.name}: not a readable .pt zip ({type(exc).__name__}: {exc})") from None
    if not isinstance(spec, TensorSpec):
        raise TensorReadError(f"{path.name}: holds {type(spec).__name__}, not one tensor")
    return spec


def _bounded(zf: zipfile.ZipFile, name: str, limit: int, what: str) -> bytes:
    """Member ``name``, refused before inflating when its directory entry claims more than ``limit``
    bytes, and read no further than ``limit`` + 1 (a member that inflates past its claim is refused too)."""
    claimed = zf.getinfo(name).file_size
    if claimed > limit:
        raise TensorReadError(
            f"{what} claims {claimed} bytes, more than the {limit} it may hold; not inflated"
        )
    with zf.open(name) as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise TensorReadError(f"{what} inflates past {limit} bytes (a zip bomb?); not read")
    return data


def load_pt(path: Path) -> np.ndarray:
    """The tensor in ``path`` as a numpy array: the storage member read no further than its
    ``numel x itemsize`` bytes, the view checked against it before anything is copied."""
    spec = read_spec(path)
    dtype = _np_dtype(spec.storage.dtype)
    _check_view(spec)
    need = spec.storage.numel * dtype.itemsize
    try:
        with zipfile.ZipFile(path) as zf:
            member = _member(zf, f"data/{spec.storage.key}")
            raw = _bounded(zf, member, need, f"storage data/{spec.storage.key}")
    except _ZIP_ERRORS as exc:
        raise TensorReadError(f"{path.name}: not a readable .pt zip ({type(exc).__name__}: {exc})") from None
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
    return spec.offset + sum((d - 1) * s for d, s in zip(spec.shape, spec.stride, strict=False))


def _check_view(spec: TensorSpec) -> None:
    """The view's shape, strides and offset are sane, and the copy it makes is bounded by its storage
    (a stride-0 view of a few bytes may not become gigabytes): before any member is read."""
    if len(spec.shape) != len(spec.stride) or min(spec.shape + spec.stride + (spec.offset,), default=0) < 0:
        raise TensorReadError("data.pkl: negative or inconsistent shape/stride/offset")
    if spec.storage.numel < 0:
        raise TensorReadError(f"data.pkl: storage of {spec.storage.numel} elements")
    last = _last_element(spec)
    if last >= spec.storage.numel:
        raise TensorReadError(f"tensor view reaches element {last} of a {spec.storage.numel}-element storage")
    numel = math.prod(spec.shape)
    if numel > max(spec.storage.numel, MAX_BROADCAST_ELEMENTS):
        raise TensorReadError(
            f"tensor view of {numel} elements over a storage of {spec.storage.numel} "
            f"(strides {list(spec.stride)}): more than it holds; not expanded"
        )


def _view(storage: np.ndarray, spec: TensorSpec) -> np.ndarray:
    """The tensor as a copy of its strided view of the storage, bounds checked first."""
    _check_view(spec)
    last = _last_element(spec)
    if last >= storage.size:
        raise TensorReadError(
            f"tensor view reaches element {last} of a {storage.size}-element storage (truncated file?)"
        )
    strides = tuple(s * storage.itemsize for s in spec.stride)
    return np.lib.stride_tricks.as_strided(
        storage[spec.offset :], shape=spec.shape, strides=strides, writeable=False
    ).copy()
