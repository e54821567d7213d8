"""Issue 20 item 1: the numbers on a row are those of the layout it names, and the same two
tensors give the same numbers from a dumpscope manifest folder, a plain ``.npy`` folder and a
Polygraphy JSON -- for a pair no order explains (the best of bad orders is not adopted) and
for a pair that is decisively another axis order (a layout mismatch everywhere)."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import numpy as np
import pytest

from dumpscope.core.comparison.pipeline import compare

COLUMNS = ("health", "cosine_similarity", "max_absolute_error", "relative_euclidean_distance")


def _npy_folder(directory: Path, arr: np.ndarray, manifest: bool) -> Path:
    directory.mkdir(parents=True)
    np.save(directory / "t.npy", arr)
    if manifest:
        doc = {
            "format": "dumpscope-manifest",
            "version": 1,
            "producer": "onnxruntime 1.20",
            "tensors": [{"name": "t", "file": "t.npy", "kind": "activation"}],
        }
        (directory / "manifest.json").write_text(json.dumps(doc))
    return directory


def _polygraphy(path: Path, arr: np.ndarray) -> Path:
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=False)
    array = {"array": base64.b64encode(buf.getvalue()).decode(), "polygraphy_class": "ndarray"}
    out = {"t": {"values": array, "polygraphy_class": "LazyArray"}}
    it = {"outputs": out, "runtime": 0.01, "runner_name": "r", "polygraphy_class": "IterationResult"}
    path.write_text(json.dumps({"lst": [["r", [it]]], "polygraphy_class": "RunResults"}))
    return path


def _rows(tmp_path: Path, golden: np.ndarray, target: np.ndarray) -> dict[str, dict[str, object]]:
    made = {
        "manifest": (_npy_folder(tmp_path / "mg", golden, True), _npy_folder(tmp_path / "mt", target, True)),
        "plain": (_npy_folder(tmp_path / "pg", golden, False), _npy_folder(tmp_path / "pt", target, False)),
        "polygraphy": (_polygraphy(tmp_path / "g.json", golden), _polygraphy(tmp_path / "t.json", target)),
    }
    return {kind: compare(g, t).frame.row(0, named=True) for kind, (g, t) in made.items()}


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    return float(a @ b / np.sqrt((a @ a) * (b @ b)))


def test_the_best_of_bad_orders_gives_the_declared_numbers_in_every_container(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    g = rng.standard_normal((1, 24, 32, 32)).astype(np.float32)
    t = (-0.12 * g - 0.04 * g.transpose(0, 1, 3, 2) + rng.standard_normal(g.shape)).astype(np.float32)
    rows = _rows(tmp_path, g, t)
    for kind, r in rows.items():
        assert r["cosine_similarity"] == pytest.approx(_cos(g, t), abs=1e-6), kind  # as declared, float64
        assert "permuted" not in str(r["message"]) and "chosen by values" not in str(r["message"]), kind
    for col in COLUMNS:
        assert len({rows[k][col] for k in rows}) == 1, col


def test_a_decisive_other_order_is_a_layout_mismatch_in_every_container(tmp_path: Path) -> None:
    g = np.random.default_rng(1).standard_normal((1, 4, 8, 8)).astype(np.float32)
    t = np.ascontiguousarray(g.transpose(0, 1, 3, 2))
    rows = _rows(tmp_path, g, t)
    for kind, r in rows.items():
        assert r["health"] == "fail" and "layout mismatch" in str(r["message"]), kind
        assert "(0, 1, 3, 2)" in str(r["message"]) and "equal values" in str(r["message"]), kind
        assert r["cosine_similarity"] == pytest.approx(_cos(g, t), abs=1e-6), kind
    for col in COLUMNS:
        assert len({rows[k][col] for k in rows}) == 1, col
