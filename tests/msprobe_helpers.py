"""Small builders of msprobe rank directories for the msprobe tests."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def tensor(x: np.ndarray | None = None, *, stats: tuple | None = None, dtype: str = "torch.float32",
           shape: list[int] | None = None, **extra: object) -> dict[str, object]:
    """A tensor record with statistics computed from ``x`` (or given as ``stats``)."""
    if x is not None:
        f = x.astype(np.float64)
        stats = (float(f.max()), float(f.min()), float(f.mean()), float(np.sqrt(np.sum(f * f))))
        shape = list(x.shape)
    mx, mn, mean, norm = stats or (1.0, 0.0, 0.5, 1.0)
    return {"type": "torch.Tensor", "dtype": dtype, "shape": shape if shape is not None else [2],
            "Max": mx, "Min": mn, "Mean": mean, "Norm": norm, "requires_grad": False, **extra}


def entry(inputs: list, outputs: list, **more: object) -> dict[str, object]:
    return {"input_args": inputs, "input_kwargs": {}, "output": outputs, **more}


def write_rank(path: Path, data: dict[str, object], *, task: str = "statistics", construct: dict | None = None,
               stack: dict | None = None, raw: str | None = None) -> Path:
    """Write dump.json (``raw`` text verbatim when given), construct.json and stack.json."""
    path.mkdir(parents=True, exist_ok=True)
    body = {"task": task, "level": "mix", "framework": "pytorch", "dump_data_dir": None, "data": data}
    (path / "dump.json").write_text(raw if raw is not None else json.dumps(body))
    if construct is not None:
        (path / "construct.json").write_text(json.dumps(construct))
    if stack is not None:
        (path / "stack.json").write_text(json.dumps(stack))
    return path
