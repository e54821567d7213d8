"""Small data types shared by every part of the engine.

A *dump* is a set of named tensors read from one run (golden or target).  Readers
in :mod:`dumpscope.core.formats` produce a :class:`Dump` whose tensors are
:class:`TensorRef` objects: the metadata is known up front, the data is loaded
(memory-mapped where the format allows) only when :meth:`TensorRef.load` is called.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Literal, TypeVar

import numpy as np

TensorKind = Literal["activation", "input", "constant", "op_input"]
"""``input``: a graph input; ``constant``: an initializer or Constant output; ``op_input``: an
operator's input as a vendor dump records it (a copy of its producer's output)."""


class DumpError(Exception):
    """A whole input is unusable (not a dump, unreadable directory...).

    The message is shown to the user as is, on one line; the CLI exits with 2.
    """


class TensorReadError(Exception):
    """One tensor could not be read; its row carries the message and the run goes on."""


@dataclass(frozen=True, slots=True)  # slots: 100k-tensor dumps hold 100k of these
class TensorInfo:
    """What is known about a tensor without reading its data."""

    name: str
    """The true tensor name (as in the model), never a sanitised file name."""
    dtype: str | None = None
    """numpy dtype name (``float16``, ``bfloat16``, ``int64``...) or None when unknown."""
    shape: tuple[int, ...] | None = None
    node_name: str | None = None
    """Name of the node that produced the tensor."""
    op_type: str | None = None
    topo_index: int | None = None
    """Topological index of the producing node (graph inputs and constants: -1)."""
    node_inputs: tuple[str, ...] = ()
    """Input tensor names of the producing node."""
    output_index: int = 0
    """Which output of the producing node this tensor is."""
    kind: TensorKind = "activation"
    source: str | None = None
    """Where the data lives (a file path, ``archive.npz:member``...), for messages."""
    order: float | None = None
    """The dump's own ordering key (execution id, timestamp) when it has one."""
    extra: tuple[tuple[str, str], ...] = ()
    """Format-specific facts (device format, task id...) as ``(key, value)`` pairs."""


@dataclass(frozen=True, slots=True)
class TensorRef:
    """A tensor in a dump: metadata plus a lazy loader.

    ``error`` is set when the reader already knows the tensor is unusable (a
    truncated file, a pickled array...); ``load`` then raises
    :class:`TensorReadError` with that message.
    """

    info: TensorInfo
    loader: Callable[[], np.ndarray] | None = field(default=None, repr=False, compare=False)
    error: str | None = None

    @property
    def name(self) -> str:
        return self.info.name

    def load(self) -> np.ndarray:
        """Return the data (possibly a read-only memory map).  Never unpickles.

        Any failure while reading (a corrupt file, a layout that does not fit...) is raised
        as :class:`TensorReadError`, the message of that tensor's row; nothing else escapes.
        """
        return self._guarded(lambda loader: loader())

    def load_transient(self, scratch: object) -> np.ndarray:
        """Like :meth:`load`, but a loader that can (``read_into``) reads into the caller's
        reusable ``scratch`` buffer: the array is valid only until ``scratch`` is used
        again.  For a pass over many tensors, e.g. computing metrics."""
        read_into = getattr(self.loader, "read_into", None)  # NpyLoader and the npz loader have it
        if read_into is not None:
            return self._guarded(lambda _loader: read_into(scratch))
        return self.load()

    def _guarded(self, read: Callable[[Callable[[], np.ndarray]], np.ndarray]) -> np.ndarray:
        if self.error is not None or self.loader is None:
            raise TensorReadError(self.error or f"{self.info.name}: no data")
        try:
            return read(self.loader)
        except TensorReadError:
            raise
        except (OSError, ValueError, TypeError) as exc:
            raise TensorReadError(f"{self.info.source or self.info.name}: {exc}") from exc
        except MemoryError:
            raise TensorReadError(
                f"{self.info.source or self.info.name}: not enough memory to load it"
            ) from None
        except Exception as exc:  # noqa: BLE001 - one bad tensor costs its row, never the run
            raise TensorReadError(
                f"{self.info.source or self.info.name}: unreadable ({type(exc).__name__}: {exc})"
            ) from exc


@dataclass(frozen=True)
class DumpProblem:
    """A file in a dump that could not be interpreted as a tensor."""

    path: str
    message: str


@dataclass
class Dump:
    """The tensors of one run, keyed by true tensor name, in the dump's own order."""

    path: Path
    format: str
    tensors: dict[str, TensorRef]
    problems: list[DumpProblem] = field(default_factory=list)
    meta: dict[str, object] = field(default_factory=dict)
    """Format-specific facts: the manifest, the model path, fp16 clamp records..."""

    def __len__(self) -> int:
        return len(self.tensors)

    def __iter__(self):
        return iter(self.tensors.values())


T = TypeVar("T")


class PerObject(Generic[T]):
    """Values computed once per live object (by identity; dumps are unhashable dataclasses).

    An entry goes away with its object, so a closed comparison frees its scan.  A lock
    makes concurrent workers (a cancelled one may still be running) compute once.
    """

    def __init__(self) -> None:
        self._values: dict[int, T] = {}
        self._lock = threading.Lock()

    def get(self, obj: object, make: Callable[[], T]) -> T:
        key = id(obj)
        with self._lock:
            if key not in self._values:
                self._values[key] = make()
                weakref.finalize(obj, self._values.pop, key, None)
            return self._values[key]


_DTYPE_NAMES: dict[np.dtype, str] = {}


def dtype_name(dtype: np.dtype) -> str:
    """``dtype.name``, remembered per dtype (numpy computes it in Python each time: a few
    microseconds, paid twice a tensor when there are 20,000 of them)."""
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype.name)
    return name
