"""A small streaming model that overflows in fp16 at a known frame: the demo case.

It mirrors a typical porting bug (a Zipformer port whose first frames are right and a later one
is not): attention over a key cache that every frame adds to, with a hand-written
softmax *without* max-subtraction (``Exp -> ReduceSum -> Div``), as real exported
models have.  The scores grow with the cache, so ``Exp`` eventually exceeds 65504:
on fp16 storage it becomes inf, ``inf / inf`` gives NaN and the error spreads.

The score scale is chosen when the model is built (:func:`score_scale`) so that
frames ``0 .. overflow_frame`` stay below the fp16 limit and frame
``overflow_frame + 1`` goes over it, while fp32 stays finite.  Golden (fp32) and target
(fp16 emulation from :mod:`dumpscope.core.onnx.fp16_target`) each feed their own new cache
forward.  Every frame goes into one golden and one target directory, with tensor
names prefixed ``frame{k}/`` and ``topo_index = k * n_nodes + node index``.
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.fetch_groups import estimate_sizes
from dumpscope.core.onnx.graph import GraphFacts, graph_facts
from dumpscope.core.onnx.inputs import ModelInput, save_inputs
from dumpscope.core.onnx.manifest import manifest_header, node_entries, write_manifest
from dumpscope.core.onnx.model_io import write_model
from dumpscope.core.onnx.runner import dump_prepared, load_model, prepare_target
from dumpscope.core.onnx.targets import Prepared, open_session

ROWS, DIM = 4, 16
"""Rows per frame (time steps) and feature size; the cache has the same shape."""
MAX_FRAMES = 64
_FP16_EXP_LIMIT = math.log(65504.0)  # exp(x) > 65504 beyond this
_FP32_EXP_SAFE = 80.0  # exp(88.7) overflows float32
_SEED = 2024


@dataclass(frozen=True)
class DemoPaths:
    model: Path
    golden: Path
    target: Path


def _weights() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(_SEED)
    w = {name: (rng.standard_normal((DIM, DIM)) / math.sqrt(DIM)).astype(np.float32) for name in ("wv", "wo")}
    # Queries and keys share a near-identity projection: each row attends mostly to its
    # own key, so one score dominates each softmax row and grows with the cache.
    w["wq"] = w["wk"] = (np.eye(DIM) + 0.1 * rng.standard_normal((DIM, DIM))).astype(np.float32)
    return w


def frame_features(k: int) -> np.ndarray:
    """The input features of frame ``k``: one pattern, slightly different every frame.

    Row ``r`` is strong on its own block of features, so rows are distinct.
    """
    base = np.random.default_rng(_SEED + 1).uniform(0.0, 0.3, (ROWS, DIM))
    block = DIM // ROWS
    for r in range(ROWS):
        base[r, r * block : (r + 1) * block] += 1.0
    noise = np.random.default_rng([_SEED, k]).standard_normal((ROWS, DIM)) * 0.01
    return (base * (1.0 + noise)).astype(np.float32)


def _raw_scores(w: dict[str, np.ndarray], frames: int) -> list[np.ndarray]:
    """The unscaled attention scores of each frame, simulated in float64."""
    cache = np.zeros((ROWS, DIM))
    scores = []
    for k in range(frames):
        x = frame_features(k).astype(np.float64)
        cache = cache + x @ w["wk"]
        scores.append((x @ w["wq"]) @ cache.T)
    return scores


def _row_logsumexp(s: np.ndarray) -> float:
    top = s.max(axis=1, keepdims=True)
    return float((top[:, 0] + np.log(np.exp(s - top).sum(axis=1))).max())


def score_scale(w: dict[str, np.ndarray], frames: int, overflow_frame: int) -> float:
    """The score scale that makes frame ``overflow_frame + 1`` the first to overflow fp16.

    Up to ``overflow_frame`` every ``Exp`` output *and* every softmax row sum must stay
    below 65504 (with a 10 % margin for fp16 rounding); at ``overflow_frame + 1`` some
    ``Exp`` must exceed it by 10 %; fp32 must stay finite over all ``frames``.
    """
    scores = _raw_scores(w, max(frames, overflow_frame + 2))
    margin = math.log(1.1)
    lower = (_FP16_EXP_LIMIT + margin) / float(scores[overflow_frame + 1].max())
    lo, hi = 0.0, lower * 4
    for _ in range(60):  # bisection: the largest scale keeping frames 0..overflow_frame in range
        mid = (lo + hi) / 2
        ok = all(_row_logsumexp(mid * s) < _FP16_EXP_LIMIT - margin for s in scores[: overflow_frame + 1])
        lo, hi = (mid, hi) if ok else (lo, mid)
    upper = lo
    if upper <= lower:
        raise DumpError(
            f"the demo cannot place the first fp16 overflow at frame {overflow_frame + 1}; choose an "
            "earlier one"
        )
    scale = math.sqrt(lower * upper)
    safe = [scale * float(s.max()) <= _FP32_EXP_SAFE for s in scores]
    if not all(safe[:frames]):
        raise DumpError(
            f"with the fp16 overflow at frame {overflow_frame + 1}, {frames} frames would overflow fp32 too "
            f"(at most {safe.index(False)} frames)"
        )
    return scale


def build_model(frames: int, overflow_frame: int) -> onnx.ModelProto:
    """The streaming attention block: inputs ``x`` and ``cached_key``, outputs ``out`` and
    ``new_cached_key``."""
    w = _weights()
    scale = np.array(score_scale(w, frames, overflow_frame), dtype=np.float32)
    n = helper.make_node
    nodes = [
        n("MatMul", ["x", "attn/wq"], ["attn/q:0"], name="attn/q_proj"),
        n("MatMul", ["x", "attn/wk"], ["attn/k:0"], name="attn/k_proj"),
        n("Add", ["cached_key", "attn/k:0"], ["new_cached_key"], name="cache/update"),
        n("MatMul", ["x", "attn/wv"], ["attn/v:0"], name="attn/v_proj"),
        n("Transpose", ["new_cached_key"], ["attn/k_t:0"], name="attn/k_t", perm=[1, 0]),
        n("MatMul", ["attn/q:0", "attn/k_t:0"], ["attn/scores:0"], name="attn/scores"),
        n("Mul", ["attn/scores:0", "attn/scale"], ["attn/scaled:0"], name="attn/scale"),
        n("Exp", ["attn/scaled:0"], ["attn/exp:0"], name="attn/exp"),
        n("ReduceSum", ["attn/exp:0", "attn/axes"], ["attn/sum:0"], name="attn/sum", keepdims=1),
        n("Div", ["attn/exp:0", "attn/sum:0"], ["attn/probs:0"], name="attn/softmax"),
        n("MatMul", ["attn/probs:0", "attn/v:0"], ["attn/context:0"], name="attn/context"),
        n("MatMul", ["attn/context:0", "attn/wo"], ["attn/out:0"], name="attn/out_proj"),
        n("Add", ["x", "attn/out:0"], ["out"], name="residual"),
    ]
    inits = [numpy_helper.from_array(arr, f"attn/{name}") for name, arr in w.items()]
    inits += [
        numpy_helper.from_array(scale, "attn/scale"),
        numpy_helper.from_array(np.array([-1], np.int64), "attn/axes"),
    ]
    vi = helper.make_tensor_value_info
    graph = helper.make_graph(
        nodes,
        "streaming_attention",
        [vi("x", TensorProto.FLOAT, [ROWS, DIM]), vi("cached_key", TensorProto.FLOAT, [ROWS, DIM])],
        [vi("out", TensorProto.FLOAT, [ROWS, DIM]), vi("new_cached_key", TensorProto.FLOAT, [ROWS, DIM])],
        inits,
    )
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8, producer_name="dumpscope-demo"
    )


def _run_frames(
    prepared: Prepared, proto: onnx.ModelProto, facts: GraphFacts, out: Path, frames: int
) -> dict[str, Any]:
    """Run every frame, each feeding its new cache to the next; return the manifest body."""
    session = open_session(prepared.path, proto, data_dir=prepared.data_dir)
    n_nodes = len(facts.nodes)
    cache = np.zeros((ROWS, DIM), np.float32)
    inputs_all: list[dict[str, Any]] = []
    tensors: list[dict[str, Any]] = []
    nodes: list[dict[str, Any]] = []
    runs = 0
    for k in range(frames):
        prefix = f"frame{k}/"
        feeds = [ModelInput("x", frame_features(k), True), ModelInput("cached_key", cache, False)]
        entries = save_inputs(out, feeds, prefix=prefix)
        if k > 0:  # the model's own state, not external data: no checksum to compare across runs
            entries[1].update(sha256=None, fed_from=f"frame{k - 1}/new_cached_key")
        inputs_all += entries
        sizes = estimate_sizes(proto, facts, feeds)
        # Constants are the same in every frame: dumped once, with frame 0.
        frame_prepared = prepared if k == 0 else replace(prepared, constants={})
        frame_tensors, _, frame_runs = dump_prepared(
            frame_prepared,
            session,
            feeds,
            out,
            sizes=sizes,
            budget_bytes=1 << 26,
            input_entries={e["name"]: e for e in entries},
            prefix=prefix,
            topo_offset=k * n_nodes,
        )
        tensors += frame_tensors
        nodes += node_entries(facts, None, prefix=prefix, topo_offset=k * n_nodes, constant_prefix="frame0/")
        runs += frame_runs
        new_cache = next(t for t in frame_tensors if t["name"] == f"{prefix}new_cached_key")
        cache = np.load(out / new_cache["file"], allow_pickle=False).astype(np.float32)
    return {"ort_runs": runs, "inputs": inputs_all, "tensors": tensors, "nodes": nodes}


def make_demo(out_dir: str | Path, frames: int = 6, overflow_frame: int = 4) -> DemoPaths:
    """Write ``model.onnx``, ``golden/`` and ``target/`` (fp16) under ``out_dir``."""
    if not 0 <= overflow_frame:
        raise DumpError("the overflow frame must be >= 0")
    if not 1 <= frames <= MAX_FRAMES:
        raise DumpError(f"frames must be between 1 and {MAX_FRAMES}")
    out = Path(out_dir)
    paths = DemoPaths(out / "model.onnx", out / "golden", out / "target")
    _check_empty(paths)
    out.mkdir(parents=True, exist_ok=True)
    write_model(build_model(frames, overflow_frame), paths.model)
    dump_frames(paths, frames, {"frames": frames, "overflow_frame": overflow_frame})
    return paths


def verify_patched(demo: DemoPaths, patched_model: str | Path, out_dir: str | Path) -> DemoPaths:
    """Dump a patched demo model (``dumpscope patch``) the way the demo was dumped.

    The fix-and-verify loop: the same frames, golden in float32 and target in fp16, so
    ``compare`` on the result shows whether the patch removed the divergence.
    """
    manifest = json.loads((demo.golden / "manifest.json").read_text(encoding="utf-8"))
    info = manifest.get("demo") or {}
    frames = int(info.get("frames", 6))
    out = Path(out_dir)
    paths = DemoPaths(Path(patched_model), out / "golden", out / "target")
    _check_empty(paths)
    dump_frames(paths, frames, {**info, "patched_from": str(demo.model)})
    return paths


def _check_empty(paths: DemoPaths) -> None:
    for d in (paths.golden, paths.target):
        if d.is_symlink() or (d.exists() and not d.is_dir()):
            raise DumpError(
                f"{d}: a link or a file where the demo writes a folder (choose a new --out directory)"
            )
        if d.exists() and any(d.iterdir()):
            raise DumpError(f"{d}: directory is not empty (choose a new --out directory)")


def dump_frames(paths: DemoPaths, frames: int, demo_info: dict[str, Any]) -> None:
    """Run ``paths.model`` over ``frames`` streamed frames into ``paths.golden`` (float32)
    and ``paths.target`` (fp16 emulation), with complete manifests."""
    for d in (paths.golden, paths.target):
        d.mkdir(parents=True, exist_ok=True)
    proto, source_dir, model_path, model_sha = load_model(paths.model)
    facts = graph_facts(proto.graph)
    with tempfile.TemporaryDirectory(prefix="dumpscope-demo-") as tmp:
        for target, where in ((None, paths.golden), ("fp16", paths.target)):
            work = Path(tmp) / (target or "golden")
            work.mkdir()
            prepared = prepare_target(proto, facts, work, source_dir, target, [])
            body = _run_frames(prepared, proto, facts, where, frames)
            write_manifest(
                where,
                {
                    **manifest_header(model_path, model_sha, target, _SEED),
                    "ort_runs": body["ort_runs"],
                    "inputs": body["inputs"],
                    "tensors": body["tensors"],
                    "nodes": body["nodes"],
                    "clamped": prepared.clamped,
                    "notes": [
                        f"streaming demo: {frames} frames of {model_path}; tensor names are prefixed "
                        f"frame{{k}}/ "
                        "and each frame's cached_key is that run's new_cached_key of the frame before"
                    ],
                    "demo": demo_info,
                },
            )
