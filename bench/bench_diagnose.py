"""Benchmark `diagnose` against the `compare` it reasons over.

    python bench/bench_diagnose.py [--layers 700] [--quick] [--keep DIR]

Generates a CNN-shaped pair of dumps with manifests (the way `dumpscope dump` writes
them): a chain of conv/relu-like layers with a residual Add every third layer, each
activation 1 x 16 x 128 x 128 float32 on the golden side (1 MiB) and float16 on the
target side, about 1 GB in total for 700 layers.  The target carries fp16-sized noise,
a slow drift, one-layer breaks every 50 layers and a lasting break at 70 % depth, so the
diagnosis has a dozen candidates to check (it reads their tensors).  Prints compare time, diagnose time and
their ratio;
both run in this process on a warm page cache (the files were just written).
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

SHAPE = (1, 16, 128, 128)


def _entry(
    name: str, arr: np.ndarray, kind: str, topo: int, op: str | None, inputs: list[str]
) -> dict[str, object]:
    return {
        "name": name,
        "file": f"{name}.npy",
        "kind": kind,
        "node_name": f"{name}_node" if op else None,
        "op_type": op,
        "topo_index": topo,
        "node_inputs": inputs,
        "output_index": 0,
        "dtype": str(arr.dtype),
        "shape": list(arr.shape),
    }


def generate(root: Path, layers: int, shape: tuple[int, ...] = SHAPE) -> tuple[Path, Path, int]:
    """Write golden/ and target/ under ``root``; return them and the bytes written."""
    gdir, tdir = root / "golden", root / "target"
    gdir.mkdir(parents=True)
    tdir.mkdir(parents=True)
    rng = np.random.default_rng(0)
    g_entries: list[dict[str, object]] = []
    t_entries: list[dict[str, object]] = []
    written = 0
    x = rng.standard_normal(shape, dtype=np.float32)
    for d, e in ((gdir, g_entries), (tdir, t_entries)):
        np.save(d / "x.npy", x if d is gdir else x.astype(np.float16))
        e.append(_entry("x", x, "input", -1, None, []))
    prev, skip = "x", "x"
    jump_at = int(layers * 0.7)
    for k in range(layers):
        name = f"layer{k:04d}"
        residual = k % 3 == 2
        op = "Add" if residual else ("Conv" if k % 3 == 0 else "Relu")
        inputs = [prev, skip] if residual else [prev]
        g = rng.standard_normal(shape, dtype=np.float32)
        isolated = k % 50 == 25  # a one-layer break: more candidates whose tensors get read
        red = 2e-4 * (1.002**k) + (0.3 if k >= jump_at or isolated else 0.0)
        noise = rng.standard_normal(shape, dtype=np.float32) * np.float32(red)
        t = (g + noise).astype(np.float16)
        np.save(gdir / f"{name}.npy", g)
        np.save(tdir / f"{name}.npy", t)
        written += g.nbytes + t.nbytes
        g_entries.append(_entry(name, g, "activation", k, op, inputs))
        t_entries.append(_entry(name, t, "activation", k, op, inputs))
        if residual:
            skip = name
        prev = name
    for d, e in ((gdir, g_entries), (tdir, t_entries)):
        manifest = {
            "format": "dumpscope-manifest",
            "version": 1,
            "tensors": e,
            "inputs": [],
            "nodes": [],
            "clamped": [],
        }
        (d / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return gdir, tdir, written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layers", type=int, default=700)
    ap.add_argument("--quick", action="store_true", help="70 layers instead of --layers")
    ap.add_argument("--keep", metavar="DIR", help="generate into DIR and keep it")
    args = ap.parse_args()
    layers = 70 if args.quick else args.layers

    from dumpscope.core.comparison.pipeline import compare
    from dumpscope.core.diagnosis.engine import diagnose

    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="dumpscope-bench-diagnose-"))
    try:
        t0 = time.perf_counter()
        gdir, tdir, written = generate(root / "pair", layers)
        gen = time.perf_counter() - t0
        t0 = time.perf_counter()
        cmp = compare(gdir, tdir)
        t_compare = time.perf_counter() - t0
        t0 = time.perf_counter()
        diag = diagnose(cmp)
        t_diag = time.perf_counter() - t0
        top = diag.root_causes[0] if diag.root_causes else None
        print(f"pair: {layers} layers, {written / 1e9:.2f} GB of tensors, generated in {gen:.1f} s")
        print(f"compare : {t_compare:7.2f} s  ({cmp.frame.height} rows)")
        print(f"diagnose: {t_diag:7.2f} s  = {t_diag / t_compare:.3f} x compare")
        print(
            f"trend: {diag.trend.kind} at row {diag.trend.row}; top cause: "
            f"{top.name if top else None} ({top.cause if top else '-'}); "
            f"{len(diag.root_causes)} causes reported"
        )
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
