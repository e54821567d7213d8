"""Small builders of msprobe rank directories for the msprobe tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def tensor(
    x: np.ndarray | None = None,
    *,
    stats: tuple | None = None,
    dtype: str = "torch.float32",
    shape: list[int] | None = None,
    **extra: object,
) -> dict[str, object]:
    """A tensor record with statistics computed from ``x`` (or given as ``stats``)."""
    if x is not None:
        f = x.astype(np.float64)
        stats = (float(f.max()), float(f.min()), float(f.mean()), float(np.sqrt(np.sum(f * f))))
        shape = list(x.shape)
    mx, mn, mean, norm = stats or (1.0, 0.0, 0.5, 1.0)
    return {
        "type": "torch.Tensor",
        "dtype": dtype,
        "shape": shape if shape is not None else [2],
        "Max": mx,
        "Min": mn,
        "Mean": mean,
        "Norm": norm,
        "requires_grad": False,
        **extra,
    }


def entry(inputs: list, outputs: list, **more: object) -> dict[str, object]:
    return {"input_args": inputs, "input_kwargs": {}, "output": outputs, **more}


def write_rank(
    path: Path,
    data: dict[str, object],
    *,
    task: str = "statistics",
    construct: dict | None = None,
    stack: dict | None = None,
    raw: str | None = None,
    framework: str = "pytorch",
) -> Path:
    """Write dump.json (``raw`` text verbatim when given), construct.json and stack.json."""
    path.mkdir(parents=True, exist_ok=True)
    body = {"task": task, "level": "mix", "framework": framework, "dump_data_dir": None, "data": data}
    (path / "dump.json").write_text(raw if raw is not None else json.dumps(body))
    if construct is not None:
        (path / "construct.json").write_text(json.dumps(construct))
    if stack is not None:
        (path / "stack.json").write_text(json.dumps(stack))
    return path


def write_pt(
    path: Path,
    arr: np.ndarray,
    storage: str = "FloatStorage",
    offset: int = 0,
    stride: tuple[int, ...] | None = None,
    payload: object = None,
    numel: int | None = None,
) -> Path:
    """A ``torch.save``-like zip written with Python's pickler and no torch: protocol 2,
    the tensor as ``torch._utils._rebuild_tensor_v2(storage, offset, size, stride, False,
    OrderedDict())`` with the storage as a persistent id, as torch lays it out.
    ``payload`` pickles that object instead (for refusal tests)."""
    import collections
    import io
    import pickle
    import sys
    import types
    import zipfile

    def _fake(module: str, name: str, obj: object) -> object:
        mod = sys.modules.setdefault(module, types.ModuleType(module))
        obj.__module__, obj.__qualname__, obj.__name__ = module, name, name  # type: ignore[attr-defined]
        setattr(mod, name, obj)
        return obj

    storage_cls = _fake("torch", storage, type(storage, (), {}))
    rebuild = _fake("torch._utils", "_rebuild_tensor_v2", lambda *a: None)

    class _StorageRef:
        pass

    class _Tensor:
        def __reduce__(self):  # type: ignore[no-untyped-def]
            strides = stride or tuple(s // arr.itemsize for s in arr.strides)
            return rebuild, (
                _StorageRef(),
                offset,
                tuple(arr.shape),
                strides,
                False,
                collections.OrderedDict(),
            )

    class _Pickler(pickle.Pickler):
        def persistent_id(self, obj):  # type: ignore[no-untyped-def]
            if isinstance(obj, _StorageRef):
                return ("storage", storage_cls, "0", "cpu", numel if numel is not None else arr.size + offset)
            return None

    buf = io.BytesIO()
    try:
        _Pickler(buf, protocol=2).dump(_Tensor() if payload is None else payload)
    finally:  # the stand-in modules must not outlive the pickling (other tests may look for torch)
        for name in ("torch._utils", "torch"):
            if isinstance(sys.modules.get(name), types.ModuleType) and not hasattr(
                sys.modules[name], "__file__"
            ):
                del sys.modules[name]
    flat = np.concatenate([np.zeros(offset, arr.dtype), np.ascontiguousarray(arr).ravel()])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("archive/data.pkl", buf.getvalue())
        zf.writestr("archive/byteorder", "little")
        zf.writestr("archive/data/0", flat.tobytes())
    return path
