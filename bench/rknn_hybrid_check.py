"""RKNN-Toolkit2 reads back the fix finder's ``rknn_hybrid_quantization.cfg`` (issue 28).

    /work/envs/rknn/bin/python bench/rknn_hybrid_check.py [-o WORK_DIR] [--model KEY] [--without-cfg]

Run with the RKNN venv's python (README, "Vendor toolchains"); this checkout's dumpscope is imported, not
the venv's.  On a small Conv/BatchNormalization/Relu model built with onnx.helper (or ``--model``, a
corpus model of bench/realmodels, every 4th computing node kept), int8, rk3588, the simulator, no board:
``rknn.config`` + ``load_onnx`` + ``hybrid_quantization_step1(dataset=...)`` write MODEL.model,
MODEL.data and MODEL.quantization.cfg; dumpscope's ``emit`` writes the cfg for the kept nodes, naming
the layers that step-1 cfg lists (as ``dumpscope fix --rknn-cfg`` does; ``--without-cfg``: without it);
its ``custom_quantize_layers`` block is pasted over the step-1 cfg's section, as the emitted file's
comment says; ``hybrid_quantization_step2`` builds the model.  Judged:

* step 2 returns 0, and RKNN echoes every named tensor (its log's ``Meet hybrid type, dtype: float16,
  tensor: NAME``);
* the built model: the layer computing each named tensor runs in FLOAT16 in RKNN's layer table (the
  layer whose ``FullName`` is the tensor's ONNX node, else the nearest upstream node it was fused into),
  and every other layer stays INT8 (control);
* the simulator (``accuracy_analysis(target=None)``) agrees: each named tensor's values are all exact
  float16 numbers (and, built model, the unkept Relu's lie on int8's 256-level grid, not float16's).

Prints one JSON verdict; exits 1 on a mismatch, 2 when RKNN-Toolkit2 is not importable.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
#: The nodes the fix keeps: the middle Conv and its Relu (RKNN fuses them, with the BatchNormalization
#: between them, into one ConvRelu layer).
KEEP = ("conv2", "relu2")
SHAPE = (1, 3, 16, 16)


def _import_checkout() -> None:
    """Import ``dumpscope`` from this checkout (the repository root is the package), not the venv's."""
    link = Path(tempfile.mkdtemp(prefix="dumpscope-path-")) / "dumpscope"
    link.symlink_to(ROOT, target_is_directory=True)
    sys.path.insert(0, str(link.parent))


def build_model(path: Path) -> Path:
    """x -> conv1 -> relu1 -> conv2 -> bn2 -> relu2 -> conv3 -> y (3x3, 8 channels, fixed seed): RKNN
    folds bn2 into conv2, so conv2's own output is no tensor of RKNN's graph."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    inits: list[Any] = []

    def init(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(value.astype(np.float32), name))
        return name

    def conv(name: str, inp: str, out: str, cin: int, cout: int) -> Any:
        w = init(f"{name}_w", rng.standard_normal((cout, cin, 3, 3)) * 0.3)
        b = init(f"{name}_b", rng.standard_normal(cout) * 0.1)
        return helper.make_node("Conv", [inp, w, b], [out], name=name, pads=[1] * 4)

    bn = [init(f"bn2_{k}", rng.random(8) + 0.5) for k in ("scale", "bias", "mean", "var")]
    nodes = [
        conv("conv1", "x", "c1", 3, 8),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        conv("conv2", "r1", "c2", 8, 8),
        helper.make_node("BatchNormalization", ["c2", *bn], ["b2"], name="bn2"),
        helper.make_node("Relu", ["b2"], ["r2"], name="relu2"),
        conv("conv3", "r2", "y", 8, 4),
    ]
    graph = helper.make_graph(
        nodes,
        "hybrid_check",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(SHAPE))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, *SHAPE[2:]])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return path


def merge(step1_cfg: str, emitted: str) -> str:
    """The step-1 cfg with its ``custom_quantize_layers`` section replaced by the emitted block (the
    emitted file's comment: paste it into that section)."""
    head = re.compile(r"^custom_quantize_layers:.*$", re.M)
    found = head.search(step1_cfg)
    if found is None or found.group(0).strip() != "custom_quantize_layers: {}":
        raise ValueError(
            f"step-1 cfg has no empty custom_quantize_layers section: {found and found.group(0)}"
        )
    return step1_cfg[: found.start()] + emitted.rstrip("\n") + step1_cfg[found.end() :]


def layer_table(log: str) -> list[dict[str, str]]:
    """RKNN's "Network Layer Information Table" (verbose build log): id, op type, data type, full name."""
    rows = []
    for m in re.finditer(
        r"^D RKNN: \[[^\]]*\] (\d+)\s+(\w+)\s+(INT8|INT16|FLOAT16|FLOAT)\s+(?:NPU|CPU)\s.*\s(\S+:\S+)\s*$",
        log,
        re.M,
    ):
        rows.append({"id": m[1], "op": m[2], "dtype": m[3], "full_name": m[4]})
    return rows


@contextlib.contextmanager
def _into(log: Path) -> Iterator[None]:
    """File descriptors 1 and 2 (RKNN's Python logger and its C++ library write there) appended to ``log``."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(log, "ab") as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def _real_model(key: str, work: Path) -> tuple[Path, tuple[int, ...], list[str]]:
    """A corpus model (bench/realmodels, cached), its one input's shape fixed, and every 4th of its
    computing nodes (graph order, in the names ``emit``'s ``model.fixed.onnx`` gives unnamed nodes)."""
    import onnx

    sys.path.insert(0, str(ROOT))
    from bench.realmodels.models import MODELS, model_path
    from dumpscope.core.fix.emit import emit

    name, _, dims = MODELS[key].shapes.partition(":")
    shape = tuple(int(d) for d in dims.split(","))
    proto = onnx.load(model_path(key))
    if len(proto.graph.input) != 1 or ";" in dims or proto.graph.input[0].name != name:
        raise SystemExit(f"{key}: one graph input is handled here ({MODELS[key].shapes})")
    for dim, size in zip(proto.graph.input[0].type.tensor_type.shape.dim, shape, strict=True):
        dim.ClearField("dim_param")
        dim.dim_value = size
    emit(proto, [], work / "named")  # the names emit gives unnamed nodes
    fixed = onnx.load(work / "named" / "model.fixed.onnx")
    computing = [n.name for n in fixed.graph.node if n.op_type != "Constant"]
    onnx.save(fixed, work / "hybrid.onnx")
    return work / "hybrid.onnx", shape, computing[::4]


def check(work: Path, key: str | None = None, with_cfg: bool = True) -> dict[str, Any]:
    """Step 1, the emitted block pasted (named from the step-1 cfg's tensors, as ``fix --rknn-cfg``
    does, unless ``with_cfg`` is false), step 2, and the verdict; ``key``: a corpus model instead of
    :func:`build_model`'s (judged on RKNN's echo and the simulator only)."""
    import onnx
    from rknn.api import RKNN

    from dumpscope.core.fix.change import Change
    from dumpscope.core.fix.emit import emit, rknn_step1_tensors

    work.mkdir(parents=True, exist_ok=True)
    if key is None:
        model, shape, keep = build_model(work / "hybrid.onnx"), SHAPE, list(KEEP)
    else:
        model, shape, keep = _real_model(key, work)
    rng = np.random.default_rng(1)
    data = []
    for k in range(4):
        data.append(work / f"calib{k}.npy")
        np.save(data[-1], rng.random(shape).astype(np.float32))
    (work / "dataset.txt").write_text("".join(f"{p}\n" for p in data))
    log = work / "rknn.log"
    log.write_bytes(b"")
    facts: dict[str, Any] = {"model": key or "built", "step1_cfg_given": with_cfg, "kept_nodes": len(keep)}
    reasons: list[str] = []
    proto = onnx.load(model)

    os.chdir(work)  # step 1 writes MODEL.* into the working directory
    snap = work / "snapshot"
    cfg = work / "hybrid.quantization.cfg"
    with _into(log):
        rknn = RKNN(verbose=True)
        rknn.config(target_platform="rk3588")
        facts["load_onnx"] = rknn.load_onnx(model=str(model))
        if facts["load_onnx"] == 0:
            facts["step1"] = rknn.hybrid_quantization_step1(dataset="dataset.txt", proposal=False)
        rknn.release()
    if facts.get("step1") == 0:
        listed = rknn_step1_tensors(cfg) if with_cfg else None
        emit(proto, [Change("keep", n) for n in keep], work / "emit", target="int8", rknn_tensors=listed)
        emitted = (work / "emit" / "rknn_hybrid_quantization.cfg").read_text()
        named = [json.loads(k) for k in re.findall(r'^\s+("(?:[^"\\]|\\.)*"): float16$', emitted, re.M)]
        facts["layers_named"] = named if key is None else len(named)
        facts["outputs_named_by_their_fused_layer"] = emitted.count(" is not listed (fused); named by ")
        facts["outputs_left_unnamed"] = {
            "no_layer_listed": emitted.count("lists no layer for"),
            "step2_refuses_its_dtype": emitted.count("which step 2 refuses to name"),
        }
        cfg.write_text(merge(cfg.read_text(), emitted))
        start = log.stat().st_size
        with _into(log):  # step 2 on a fresh RKNN object, as rknn-toolkit2's hybrid_quant/step2.py does
            rknn = RKNN(verbose=True)
            try:  # a name RKNN does not know raises ValueError("Invalid operands name ...")
                facts["step2"] = rknn.hybrid_quantization_step2(
                    model_input="hybrid.model", data_input="hybrid.data", model_quantization_cfg=str(cfg)
                )
            except Exception as exc:  # noqa: BLE001 - the verdict reports it
                facts["step2"] = f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1]}"
            if facts["step2"] == 0:
                facts["accuracy_analysis"] = rknn.accuracy_analysis(
                    inputs=[str(data[0])], output_dir=str(snap), target=None
                )
            rknn.release()
    for step in ("load_onnx", "step1", "step2", "accuracy_analysis"):
        if facts.get(step) != 0:
            reasons.append(f"{step} returned {facts.get(step, 'nothing (not run)')} (see {log})")
    if reasons:
        return {"ok": False, "facts": facts, "reasons": reasons}
    step2_log = log.read_bytes()[start:].decode("utf-8", "replace")

    echoed = re.findall(r"Meet hybrid type, dtype: (\w+), tensor: (\S+)", step2_log)
    facts["echoed_float16"] = sorted(t for d, t in echoed if d == "float16")
    accepted = [n for n in named if ("float16", n) in echoed]
    facts["layers_accepted"] = len(accepted)
    reasons += [f"RKNN did not echo {n!r} as float16" for n in named if n not in accepted]
    table = layer_table(step2_log)
    compute = [r for r in table if r["op"] not in ("InputOperator", "OutputOperator", "exDataConvert")]
    if key is not None:
        facts["echoed_float16"] = len(facts["echoed_float16"])
        facts["layers_in_build"] = len(compute)
        facts["float16_layers_in_build"] = sum(r["dtype"] == "FLOAT16" for r in compute)

    by_node = {row["full_name"].split(":", 1)[1]: row for row in table}
    producer = {o: n for n in proto.graph.node for o in n.output}

    def layer_of(tensor: str) -> dict[str, str] | None:
        node = producer.get(tensor)
        while node is not None and node.name not in by_node:
            node = producer.get(node.input[0]) if node.input else None
        return None if node is None else by_node[node.name]

    float16_layers = set()
    for name in named if key is None else ():
        row = layer_of(name)
        if row is None:
            reasons.append(f"no layer of RKNN's table computes {name!r}")
            continue
        float16_layers.add(row["id"])
        if row["dtype"] != "FLOAT16":
            reasons.append(f"{name!r} is computed by {row['full_name']} in {row['dtype']}, not FLOAT16")
    others = [r for r in compute if r["id"] not in float16_layers] if key is None else []
    if key is None:
        facts["float16_layers_in_build"] = [
            f"{r['full_name']} ({r['op']}, {r['dtype']})" for r in compute if r["id"] in float16_layers
        ]
        facts["other_layers_int8"] = f"{sum(r['dtype'] == 'INT8' for r in others)}/{len(others)}"
    reasons += [
        f"{r['full_name']} named nowhere but runs {r['dtype']}" for r in others if r["dtype"] != "INT8"
    ]

    from dumpscope.core.vendor.rknn import NAME_MAP, read_name_map

    files = dict(read_name_map(snap / NAME_MAP)[0])
    sim = snap / "simulator" / "npy"
    simulated = {}
    for name in [
        *named,
        *(n.output[0] for n in proto.graph.node if n.op_type == "Relu" and n.name not in KEEP),
    ]:
        values = np.load(sim / Path(files[name]).with_suffix(".npy").name, allow_pickle=False).ravel()
        half = bool(np.array_equal(values.astype(np.float16).astype(np.float32), values))
        simulated[name] = {"float16_exact": half, "distinct": int(np.unique(values).size)}
        if (name in named) != half:
            reasons.append(f"simulator {name!r}: float16-exact {half}, named {name in named}")
        if name not in named and simulated[name]["distinct"] > 256:
            reasons.append(f"simulator {name!r}: {simulated[name]['distinct']} distinct values, not int8")
    if key is None:
        facts["simulator"] = simulated
    else:
        facts["simulator_named_float16_exact"] = (
            f"{sum(simulated[n]['float16_exact'] for n in named)}/{len(named)}"
        )
    return {"ok": not reasons, "facts": facts, "reasons": reasons}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--work", type=Path, help="work folder (default: a new temporary one)")
    parser.add_argument("--model", metavar="KEY", help="a corpus model of bench/realmodels (e.g. ppocr-cls)")
    parser.add_argument(
        "--without-cfg", action="store_true", help="emit without the step-1 cfg's tensors (no --rknn-cfg)"
    )
    args = parser.parse_args(argv)
    _import_checkout()
    try:
        import rknn.api  # noqa: F401
    except ImportError as exc:
        print(json.dumps({"ok": False, "reasons": [f"RKNN-Toolkit2 is not importable here: {exc}"]}))
        return 2
    work = (args.work or Path(tempfile.mkdtemp(prefix="rknn-hybrid-"))).resolve()
    verdict = check(work, args.model, not args.without_cfg)
    verdict["work"] = str(work)
    print(json.dumps(verdict, indent=2))
    return 0 if verdict["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
