"""Export a real network's run to msprobe's dump layout, a "bench" and an "npu" side.

    python bench/msprobe_export.py OUT [--model light_resnet50] [--modes statistics tensor]
                                       [--steps 2] [--ranks 2] [--fault-step 1] [--fault-rank 1]

Runs an ONNX model from the onnx package's light models with onnxruntime, every node
output exposed, and writes ``OUT/{mode}/{bench,npu}/step{s}/rank{r}/`` with ``dump.json``
(statistics: Max/Min/Mean/Norm in float32, plus a CRC-32 ``md5`` as msprobe's md5 summary
mode writes), ``construct.json`` (API -> block module -> stage module), ``stack.json`` and
in tensor mode ``dump_tensor_data/*.npy``.  Each (step, rank) feeds a different seeded
input.  The light models carry constant weights (``ConstantOfShape``); they are replaced
by seeded random weights, identical on both sides.

The NPU side differs from the bench only by what runs through onnxruntime:

* an NPU-only op: an ``Identity`` after the stem's max pool, recorded as
  ``NPU.npu_format_cast``;
* one extra call: ``x + 0`` after the stem's ReLU, recorded as a ``Tensor.__add__``, so
  every later ``Tensor.__add__`` counter is shifted by one (fuzzy pairing);
* the fault, in ONE step and ONE rank only: output channel 0 of the convolution
  ``FAULT_WEIGHT`` is scaled by ``FAULT_SCALE`` on the NPU side, which overflows to Inf.
  Nothing is hand-edited in the dump: every number comes from an onnxruntime run.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

FAULT_WEIGHT = "gpu_0/res3_1_branch2b_w_0"
FAULT_SCALE = 3e38
_API = {"Conv": "Functional.conv2d", "BatchNormalization": "Functional.batch_norm", "Relu": "Functional.relu",
        "MaxPool": "Functional.max_pool2d", "AveragePool": "Functional.avg_pool2d", "Sum": "Tensor.__add__",
        "Add": "Tensor.__add__", "Reshape": "Tensor.reshape", "Gemm": "Functional.linear",
        "Softmax": "Functional.softmax", "Identity": "NPU.npu_format_cast"}
_MODULE_CLASS = {"conv1": "Stem", "pred": "Linear"}


def light_model(name: str) -> onnx.ModelProto:
    path = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light" / f"{name}.onnx"
    return onnx.load(str(path))


def _random_weight(name: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """He-normal convolution/linear weights; BatchNorm scale ~1, variance > 0, shifts small."""
    if name.endswith("_riv_0"):
        return (1.0 + 0.1 * np.abs(rng.standard_normal(shape))).astype(np.float32)
    if name.endswith("_bn_s_0"):
        return (1.0 + 0.1 * rng.standard_normal(shape)).astype(np.float32)
    if len(shape) >= 2:
        fan_in = int(np.prod(shape[1:]))
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
    return (0.05 * rng.standard_normal(shape)).astype(np.float32)


def materialise_weights(model: onnx.ModelProto, seed: int = 0) -> onnx.ModelProto:
    """Replace every ConstantOfShape weight by a seeded random initializer."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    rng = np.random.default_rng(seed)
    keep = []
    for node in g.node:
        if node.op_type == "ConstantOfShape" and node.input[0] in inits:
            shape = tuple(int(d) for d in inits[node.input[0]])
            g.initializer.append(numpy_helper.from_array(_random_weight(node.output[0], shape, rng), node.output[0]))
        else:
            keep.append(node)
    del g.node[:]
    g.node.extend(keep)
    return m


def _insert_after(g: onnx.GraphProto, tensor: str, node: onnx.NodeProto, new_out: str) -> None:
    """Make every consumer of ``tensor`` read ``new_out``, produced by ``node``."""
    for n in g.node:
        for i, name in enumerate(n.input):
            if name == tensor:
                n.input[i] = new_out
    index = next(i for i, n in enumerate(g.node) if tensor in n.output)
    g.node.insert(index + 1, node)


def npu_variant(model: onnx.ModelProto, fault: bool) -> onnx.ModelProto:
    """The NPU side: an npu_format_cast, one extra add, and (when ``fault``) the bad conv."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    relu = next(n for n in g.node if n.op_type == "Relu").output[0]
    pool = next(n for n in g.node if n.op_type == "MaxPool").output[0]
    g.initializer.append(numpy_helper.from_array(np.zeros((), np.float32), "npu_zero"))
    _insert_after(g, relu, helper.make_node("Add", [relu, "npu_zero"], ["npu_extra_add"], name="extra_add"), "npu_extra_add")
    _insert_after(g, pool, helper.make_node("Identity", [pool], ["npu_cast"], name="npu_format_cast"), "npu_cast")
    if fault:
        for init in g.initializer:
            if init.name == FAULT_WEIGHT:
                w = numpy_helper.to_array(init).copy()
                w[0] *= np.float32(FAULT_SCALE)
                init.CopyFrom(numpy_helper.from_array(w, init.name))
    return m


def run_all(model: onnx.ModelProto, feed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Every tensor of one run: graph inputs, initializers and every node output."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    outputs = {o.name for o in m.graph.output}
    for n in m.graph.node:
        m.graph.output.extend(helper.make_empty_tensor_value_info(o) for o in n.output if o and o not in outputs)
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.log_severity_level = 3
    sess = ort.InferenceSession(m.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    values = dict(zip(names, sess.run(names, feed)))
    values.update({i.name: numpy_helper.to_array(i) for i in m.graph.initializer})
    values.update(feed)
    return values


def _stats(x: np.ndarray) -> dict[str, object]:
    with np.errstate(all="ignore"):
        f = x.astype(np.float32, copy=False)
        norm = np.sqrt(np.sum(np.square(f, dtype=np.float32), dtype=np.float32))
        return {"Max": float(f.max()), "Min": float(f.min()), "Mean": float(f.mean(dtype=np.float32)),
                "Norm": float(norm), "md5": f"{zlib.crc32(np.ascontiguousarray(x).tobytes()):08x}"}


def _tensor_record(x: np.ndarray, data_name: str | None) -> dict[str, object]:
    rec: dict[str, object] = {"type": "torch.Tensor", "dtype": f"torch.{x.dtype}", "shape": list(x.shape),
                              **_stats(x), "requires_grad": False}
    if data_name:
        rec["data_name"] = data_name
    return rec


def _module_path(weight: str) -> tuple[str, ...]:
    """``gpu_0/res3_1_branch2b_w_0`` -> (``res3``, ``res3.1``); ``conv1_w_0`` -> (``conv1``,)."""
    base = weight.split("/")[-1].removeprefix("res_")
    m = re.match(r"res(\d+)_(\d+)_", base)
    if m:
        return (f"layer{m[1]}", f"layer{m[1]}.{m[2]}")
    head = base.split("_")[0]
    return (head,) if head in _MODULE_CLASS else ()


def _module_entry(path: str) -> str:
    cls = "Sequential" if "." not in path else "Bottleneck"
    return f"Module.{path}.{_MODULE_CLASS.get(path, cls)}.forward.0"


@dataclass
class _Writer:
    tensor_dir: Path | None
    data: dict[str, dict] = field(default_factory=dict)
    construct: dict[str, str | None] = field(default_factory=dict)
    stack: dict[str, list] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)

    def record(self, name: str, x: np.ndarray) -> dict[str, object]:
        data_name = None
        if self.tensor_dir is not None:
            data_name = f"{name}.npy"
            np.save(self.tensor_dir / data_name, x, allow_pickle=False)
        return _tensor_record(x, data_name)

    def api(self, node: onnx.NodeProto, values: dict[str, np.ndarray]) -> str:
        api = _API.get(node.op_type, f"Functional.{node.op_type.lower()}")
        n = self.counters.get(api, 0)
        self.counters[api] = n + 1
        entry = f"{api}.{n}.forward"
        args = [self.record(f"{entry}.input.{i}", values[t]) if t else None for i, t in enumerate(node.input)]
        args += [{"type": "int" if a.type == onnx.AttributeProto.INT else "str", "value": helper.get_attribute_value(a)
                  if a.type == onnx.AttributeProto.INT else str(helper.get_attribute_value(a))}
                 for a in node.attribute if a.type in (onnx.AttributeProto.INT, onnx.AttributeProto.INTS)]
        outs = [self.record(f"{entry}.output.{i}", values[t]) for i, t in enumerate(node.output)]
        self.data[entry] = {"input_args": args, "input_kwargs": {}, "output": outs}
        self.stack[entry] = [f"File model.py, line {100 + len(self.data)}, in forward, \n {node.op_type}({', '.join(node.input)})"]
        return entry


def _module_of(node: onnx.NodeProto, current: tuple[str, ...]) -> tuple[str, ...]:
    weights = [t for t in node.input[1:] if t.startswith("gpu_0/")]
    return _module_path(weights[0]) if weights else current


def write_rank(model: onnx.ModelProto, values: dict[str, np.ndarray], out: Path, task: str) -> None:
    """One rank directory: dump.json, construct.json, stack.json (+ tensors)."""
    out.mkdir(parents=True, exist_ok=True)
    tensor_dir = out / "dump_tensor_data" if task == "tensor" else None
    if tensor_dir:
        tensor_dir.mkdir(exist_ok=True)
    w = _Writer(tensor_dir)
    modules: dict[str, list[str]] = {}
    current: tuple[str, ...] = ()
    for node in model.graph.node:
        current = _module_of(node, current)
        entry = w.api(node, values)
        w.construct[entry] = _module_entry(current[-1]) if current else None
        for depth, path in enumerate(current):
            modules.setdefault(path, []).append(entry)
            w.construct.setdefault(_module_entry(path), _module_entry(current[depth - 1]) if depth else None)
    _add_modules(w, modules)
    body = {"task": task, "level": "mix", "framework": "pytorch",
            "dump_data_dir": str(tensor_dir) if tensor_dir else None, "data": w.data}
    (out / "dump.json").write_text(json.dumps(body, indent=1))
    (out / "construct.json").write_text(json.dumps(w.construct, indent=1))
    (out / "stack.json").write_text(json.dumps(w.stack, indent=1))


def _add_modules(w: _Writer, modules: dict[str, list[str]]) -> None:
    """Module entries: their first call's first input and last call's first output."""
    for path, entries in modules.items():
        first, last = w.data[entries[0]], w.data[entries[-1]]
        w.data[_module_entry(path)] = {"input_args": first["input_args"][:1], "input_kwargs": {},
                                       "output": last["output"][:1]}


def _input(model: onnx.ModelProto, step: int, rank: int) -> dict[str, np.ndarray]:
    inp = model.graph.input[0]
    shape = [d.dim_value for d in inp.type.tensor_type.shape.dim]
    rng = np.random.default_rng(1000 * step + rank)
    return {inp.name: rng.standard_normal(shape).astype(np.float32)}


def cells(steps: int, ranks: int) -> Iterator[tuple[int, int]]:
    return ((s, r) for s in range(steps) for r in range(ranks))


def export(out: Path, model_name: str = "light_resnet50", modes: tuple[str, ...] = ("statistics",),
           steps: int = 2, ranks: int = 2, fault: tuple[int, int] = (1, 1)) -> dict[str, float]:
    """Write every mode/side/step/rank; return timings and sizes."""
    bench = materialise_weights(light_model(model_name))
    npu_ok, npu_bad = npu_variant(bench, False), npu_variant(bench, True)
    t0 = time.perf_counter()
    for s, r in cells(steps, ranks):
        feed = _input(bench, s, r)
        sides = {"bench": run_all(bench, feed), "npu": run_all(npu_bad if (s, r) == fault else npu_ok, feed)}
        for mode in modes:
            for side, values in sides.items():
                model = bench if side == "bench" else npu_ok
                write_rank(model, values, out / mode / side / f"step{s}" / f"rank{r}", mode)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return {"seconds": time.perf_counter() - t0, "bytes": float(size)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--model", default="light_resnet50")
    ap.add_argument("--modes", nargs="+", default=["statistics", "tensor"], choices=["statistics", "tensor"])
    ap.add_argument("--steps", type=int, default=2)
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--fault-step", type=int, default=1)
    ap.add_argument("--fault-rank", type=int, default=1)
    a = ap.parse_args(argv)
    info = export(a.out, a.model, tuple(a.modes), a.steps, a.ranks, (a.fault_step, a.fault_rank))
    print(f"wrote {info['bytes'] / 1e6:.1f} MB in {info['seconds']:.1f} s to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
