"""Float64 numpy references the corpus grades dumpscope with (no dumpscope code involved)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np


def rel_error(g: np.ndarray, t: np.ndarray) -> float:
    """||t - g|| / ||g|| over finite positions, inf when non-finite values differ (float64)."""
    finite = np.isfinite(g) & np.isfinite(t)
    if (np.isfinite(g) != np.isfinite(t)).any():
        return float("inf")
    den = float(np.linalg.norm(g[finite]))
    num = float(np.linalg.norm((t - g)[finite]))
    return num / den if den > 0 else (0.0 if num == 0 else float("inf"))


def cosine(g: np.ndarray, t: np.ndarray) -> float | None:
    """Cosine similarity in float64 over finite positions (None when undefined)."""
    finite = np.isfinite(g) & np.isfinite(t)
    a, b = g[finite].ravel(), t[finite].ravel()
    den = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(a @ b / den) if den > 0 else None


def aligning_permutation(g: np.ndarray, t: np.ndarray, tol: float = 0.0) -> tuple[int, ...] | None:
    """The first axis permutation p (identity excluded) with t.transpose(p) equal to g, if any.

    ``tol`` = 0 asks for exact equality, else a relative error (float64) of at most ``tol``.
    """
    if g.size != t.size or g.ndim != t.ndim or g.ndim > 6:
        return None
    for perm in itertools.permutations(range(t.ndim)):
        moved = t.transpose(perm)
        if perm == tuple(range(t.ndim)) or moved.shape != g.shape:
            continue
        if np.array_equal(moved, g) or (tol > 0 and rel_error(g, moved) <= tol):
            return perm
    return None


def slice_errors(g: np.ndarray, t: np.ndarray) -> dict[str, Any]:
    """Relative error of every index along axis 1; the worst slice and the whole tensor's cosine."""
    errs = [rel_error(g[:, k], t[:, k]) for k in range(g.shape[1])]
    worst = int(np.argmax(errs))
    return {
        "worst_slice": worst,
        "worst_slice_rel_error": errs[worst],
        "whole_cosine": cosine(g, t),
        "whole_rel_error": rel_error(g, t),
    }


def layout_is_decisive(
    g: np.ndarray, t: np.ndarray, perm: tuple[int, ...], min_cosine: float, margin: float
) -> bool:
    """Whether ``t`` with its axes permuted by ``perm`` agrees with ``g`` decisively, recomputed
    on the whole tensors in float64: equal values (relative 1e-6), or a cosine of at least
    ``min_cosine`` with every other axis order of ``t`` giving ``g``'s shape (the identity
    included) at least ``margin`` times further from 1.  Size-1 axes are dropped first when
    ``perm`` is of the squeezed rank (how a squeezed pair is reported)."""
    if len(perm) != t.ndim:
        g, t = g.reshape([d for d in g.shape if d != 1]), t.reshape([d for d in t.shape if d != 1])
    if len(perm) != t.ndim or t.transpose(perm).shape != g.shape:
        return False
    if np.allclose(t.transpose(perm), g, rtol=1e-6, atol=0.0, equal_nan=True):
        return True
    best = cosine(g, t.transpose(perm))
    if best is None or best < min_cosine:
        return False
    for other in itertools.permutations(range(t.ndim)):
        moved = t.transpose(other)
        if other == tuple(perm) or moved.shape != g.shape:
            continue
        cos = cosine(g, moved)
        if cos is not None and (cos >= best or 1.0 - cos < margin * (1.0 - best)):
            return False
    return True
