"""Export a real network's run to msprobe's dump layout, a "bench" and an "npu" side.

    python bench/msprobe_export.py OUT [--model light_resnet50] [--modes statistics tensor]
                                       [--steps 2] [--ranks 2]

Runs an ONNX model from the onnx package's light models with onnxruntime, every node
output exposed, and writes ``OUT/{mode}/{bench,npu}/step{s}/rank{r}/`` with ``dump.json``
(statistics: Max/Min/Mean/Norm in float32, plus a CRC-32 ``md5`` as msprobe's md5 summary
mode writes), ``construct.json`` (API -> block module -> stage module), ``stack.json`` and
in tensor mode ``dump_tensor_data/*.npy``.  Each (step, rank) feeds a different seeded
input.  The light models carry constant weights (``ConstantOfShape``); they are replaced
by seeded random weights, identical on both sides.

The two sides differ only by what runs through onnxruntime, as GPU and NPU runs of one
network differ in practice (:data:`EXTRAS`): each side makes calls the other does not, so
the call counters of their APIs shift, and msprobe's equal names pair different calls:

* NPU: ``x + 0`` on the model input before the stem (every ``Tensor.__add__`` counter
  shifted from the start); an extra ``relu`` closing ``layer3.0`` (the ``Functional.relu``
  counters shifted from the middle); ``y + 0`` after the residual sum inside the repeated
  block ``layer4.2`` (same dtype and shapes as its neighbours' sums); an
  ``NPU.npu_format_cast`` after the stem's max pool (an NPU-only op);
* bench: an extra ``relu`` inside the repeated block ``layer2.1``; ``y + 0`` after the
  residual sum of ``layer3.2`` (the add counters agree again between ``layer3.2`` and
  ``layer4.2``); a ``Tensor.float`` after the average pool (an API the NPU never calls).

Faults (:data:`FAULTS`), one per faulty (step, rank), each after shifts: a convolution's
weight scaled on the NPU side (by 1.5, or by 3e38 which overflows to Inf); step 0 / rank 0
is healthy.  :func:`export` returns, per (step, rank), the true NPU -> bench pairs (the same
graph node on both sides) and the faulty call.  Nothing is hand-edited in a dump: every
number comes from an onnxruntime run.  Stacks name the model's code line of each call
(the same line for the same call of every repeated block) under msprobe's hook frame.
"""

from __future__ import annotations

import argparse
import functools
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
#: (step, rank) -> (weight scaled on the NPU side, factor).
FAULTS: dict[tuple[int, int], tuple[str, float]] = {
    (0, 1): ("gpu_0/res3_3_branch2a_w_0", 1.5),
    (1, 0): ("gpu_0/res4_3_branch2b_w_0", 1.5),
    (1, 1): (FAULT_WEIGHT, FAULT_SCALE),
}


@dataclass(frozen=True)
class Extra:
    """A call one side makes and the other does not: ``op`` on the output of ``after``
    (``("input", 0)``: the model input; ``(op_type, k)``: the k-th node of that type;
    ``("relu_after_sum", k)``: the relu closing residual block k)."""

    side: str
    op: str
    after: tuple[str, int]
    name: str


EXTRAS: tuple[Extra, ...] = (
    Extra("npu", "Add", ("input", 0), "npu_start_add"),
    Extra("npu", "Relu", ("relu_after_sum", 3), "npu_mid_relu"),
    Extra("npu", "Add", ("Sum", 9), "npu_block_add"),
    Extra("npu", "Identity", ("MaxPool", 0), "npu_format_cast"),
    Extra("bench", "Relu", ("Relu", 4), "bench_block_relu"),
    Extra("bench", "Add", ("Sum", 5), "bench_mid_add"),
    Extra("bench", "Cast", ("AveragePool", 0), "bench_float"),
)
_API = {
    "Conv": "Functional.conv2d",
    "BatchNormalization": "Functional.batch_norm",
    "Relu": "Functional.relu",
    "MaxPool": "Functional.max_pool2d",
    "AveragePool": "Functional.avg_pool2d",
    "Sum": "Tensor.__add__",
    "Add": "Tensor.__add__",
    "Reshape": "Tensor.reshape",
    "Gemm": "Functional.linear",
    "Softmax": "Functional.softmax",
    "Identity": "NPU.npu_format_cast",
    "Cast": "Tensor.float",
}
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
            g.initializer.append(
                numpy_helper.from_array(_random_weight(node.output[0], shape, rng), node.output[0])
            )
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


def _anchor(g: onnx.GraphProto, after: tuple[str, int]) -> str:
    """The tensor an extra call reads (see :class:`Extra`)."""
    kind, k = after
    if kind == "input":
        return g.input[0].name
    if kind == "relu_after_sum":
        total = [n for n in g.node if n.op_type == "Sum"][k].output[0]
        return next(n for n in g.node if n.op_type == "Relu" and n.input[0] == total).output[0]
    return [n for n in g.node if n.op_type == kind][k].output[0]


def _add_extra(g: onnx.GraphProto, extra: Extra, shapes: dict[str, tuple[int, ...]]) -> None:
    """Insert one extra call after its anchor; ``+ 0`` reads a zero tensor of the anchor's shape."""
    src = _anchor(g, extra.after)
    out = f"{extra.name}_out"
    if extra.op == "Add":
        zeros = f"{extra.name}_zeros"
        g.initializer.append(numpy_helper.from_array(np.zeros(shapes[src], np.float32), zeros))
        node = helper.make_node("Add", [src, zeros], [out], name=extra.name)
    elif extra.op == "Cast":
        node = helper.make_node("Cast", [src], [out], name=extra.name, to=TensorProto.FLOAT)
    else:
        node = helper.make_node(extra.op, [src], [out], name=extra.name)
    if extra.after[0] == "input":
        for n in g.node:
            n.input[:] = [out if t == src else t for t in n.input]
        g.node.insert(0, node)
    else:
        _insert_after(g, src, node, out)


def variant(model: onnx.ModelProto, side: str, fault: tuple[str, float] | None = None) -> onnx.ModelProto:
    """One side's model: its :data:`EXTRAS`, and (NPU) the ``fault`` weight scaled."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    shapes = _shapes(model)
    for extra in EXTRAS:
        if extra.side == side:
            _add_extra(g, extra, shapes)
    if fault is not None:
        weight, scale = fault
        for init in g.initializer:
            if init.name == weight:
                w = numpy_helper.to_array(init).copy()
                if scale > 1e30:
                    w[0] *= np.float32(scale)  # output channel 0 overflows to Inf
                else:
                    w *= np.float32(scale)
                init.CopyFrom(numpy_helper.from_array(w, init.name))
    return m


def npu_variant(model: onnx.ModelProto, fault: bool) -> onnx.ModelProto:
    """The NPU side with the step-1/rank-1 fault (:data:`FAULT_WEIGHT`) or none."""
    return variant(model, "npu", (FAULT_WEIGHT, FAULT_SCALE) if fault else None)


@functools.lru_cache(maxsize=4)
def _shapes_of(data: bytes) -> dict[str, tuple[int, ...]]:
    model = onnx.ModelProto()
    model.ParseFromString(data)
    inp = model.graph.input[0]
    feed = {inp.name: np.zeros([d.dim_value for d in inp.type.tensor_type.shape.dim], np.float32)}
    return {k: v.shape for k, v in run_all(model, feed).items()}


def _shapes(model: onnx.ModelProto) -> dict[str, tuple[int, ...]]:
    """Every tensor's shape (one run on zeros)."""
    return _shapes_of(model.SerializeToString())


def run_all(model: onnx.ModelProto, feed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Every tensor of one run: graph inputs, initializers and every node output."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    outputs = {o.name for o in m.graph.output}
    for n in m.graph.node:
        m.graph.output.extend(
            helper.make_empty_tensor_value_info(o) for o in n.output if o and o not in outputs
        )
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.log_severity_level = 3
    sess = ort.InferenceSession(m.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    names = [o.name for o in sess.get_outputs()]
    values = dict(zip(names, sess.run(names, feed), strict=False))
    values.update({i.name: numpy_helper.to_array(i) for i in m.graph.initializer})
    values.update(feed)
    return values


def _stats(x: np.ndarray) -> dict[str, object]:
    with np.errstate(all="ignore"):
        f = x.astype(np.float32, copy=False)
        norm = np.sqrt(np.sum(np.square(f, dtype=np.float32), dtype=np.float32))
        return {
            "Max": float(f.max()),
            "Min": float(f.min()),
            "Mean": float(f.mean(dtype=np.float32)),
            "Norm": float(norm),
            "md5": f"{zlib.crc32(np.ascontiguousarray(x).tobytes()):08x}",
        }


def _tensor_record(x: np.ndarray, data_name: str | None) -> dict[str, object]:
    rec: dict[str, object] = {
        "type": "torch.Tensor",
        "dtype": f"torch.{x.dtype}",
        "shape": list(x.shape),
        **_stats(x),
        "requires_grad": False,
    }
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


#: msprobe's hook frame on top of every stack (a framework frame: the call site is below it).
_HOOK = (
    "File /usr/local/lib/python3.10/site-packages/msprobe/pytorch/hook_module/wrap_functional.py, "
    "line 97, in functional_op_template, \n return FunctionalOPTemplate(op_name, hook)(*args, **kwargs)"
)


def _call_site(node: onnx.NodeProto, module: tuple[str, ...], ordinal: int) -> str:
    """The model's code line of a call: the same for the same call in every repeated block
    (a bottleneck's first conv is one line of ``Bottleneck.forward``); extra calls have their own."""
    if node.name.startswith(("npu_", "bench_")):
        patches = f"/work/model/{node.name.split('_')[0]}_patches.py"
        return f"File {patches}, line {20 + len(node.name)}, in {node.name}"
    weights = [t.split("/")[-1] for t in node.input[1:] if t.startswith("gpu_0/")]
    role = re.sub(r"^res\d+_\d+_", "", weights[0]) if weights else f"{node.op_type}#{ordinal}"
    where = "Bottleneck.forward" if len(module) > 1 else "ResNet.forward"
    line = 100 + zlib.crc32(role.encode()) % 400
    return f"File /work/model/resnet.py, line {line}, in {where}, \n {node.op_type}(...)"


@dataclass
class _Writer:
    tensor_dir: Path | None
    tensor_modules: frozenset[str] | None = None
    """Tensor mode: save ``.npy`` files only for calls under these modules (msprobe's ``list``); None: all."""
    data: dict[str, dict] = field(default_factory=dict)
    construct: dict[str, str | None] = field(default_factory=dict)
    stack: dict[str, list] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)

    def record(self, name: str, x: np.ndarray, save: bool) -> dict[str, object]:
        data_name = None
        if self.tensor_dir is not None and save:
            data_name = f"{name}.npy"
            np.save(self.tensor_dir / data_name, x, allow_pickle=False)
        return _tensor_record(x, data_name)

    def api(
        self,
        node: onnx.NodeProto,
        values: dict[str, np.ndarray],
        module: tuple[str, ...],
        ordinal: int,
        weights: set[str],
    ) -> str:
        api = _API.get(node.op_type, f"Functional.{node.op_type.lower()}")
        n = self.counters.get(api, 0)
        self.counters[api] = n + 1
        entry = f"{api}.{n}.forward"
        save = self.tensor_modules is None or bool(module) and module[-1] in self.tensor_modules
        args = [
            self.record(f"{entry}.input.{i}", values[t], save and t not in weights) if t else None
            for i, t in enumerate(node.input)
        ]
        args += [
            {
                "type": "int" if a.type == onnx.AttributeProto.INT else "str",
                "value": helper.get_attribute_value(a)
                if a.type == onnx.AttributeProto.INT
                else str(helper.get_attribute_value(a)),
            }
            for a in node.attribute
            if a.type in (onnx.AttributeProto.INT, onnx.AttributeProto.INTS)
        ]
        outs = [self.record(f"{entry}.output.{i}", values[t], save) for i, t in enumerate(node.output)]
        self.data[entry] = {"input_args": args, "input_kwargs": {}, "output": outs}
        self.stack[entry] = [_HOOK, _call_site(node, module, ordinal)]
        return entry


def _module_of(node: onnx.NodeProto, current: tuple[str, ...]) -> tuple[str, ...]:
    weights = [t for t in node.input[1:] if t.startswith("gpu_0/")]
    return _module_path(weights[0]) if weights else current


def write_rank(
    model: onnx.ModelProto,
    values: dict[str, np.ndarray],
    out: Path,
    task: str,
    tensor_modules: frozenset[str] | None = None,
) -> dict[str, str]:
    """One rank directory: dump.json, construct.json, stack.json (+ tensors).  Returns every
    call's entry name by its graph node (first output) and module entry by its path."""
    out.mkdir(parents=True, exist_ok=True)
    tensor_dir = out / "dump_tensor_data" if task == "tensor" else None
    if tensor_dir:
        tensor_dir.mkdir(exist_ok=True)
    w = _Writer(tensor_dir, tensor_modules)
    modules: dict[str, list[str]] = {}
    current: tuple[str, ...] = ()
    names: dict[str, str] = {}
    ordinals: dict[tuple[tuple[str, ...], str], int] = {}
    weights = {i.name for i in model.graph.initializer}
    for node in model.graph.node:
        current = _module_of(node, current)
        ordinal = ordinals.get((current, node.op_type), -1) + 1
        if not node.name.startswith(("npu_", "bench_")):  # an extra call is no line of the model's own code
            ordinals[(current, node.op_type)] = ordinal
        entry = names[node.output[0]] = w.api(node, values, current, ordinal, weights)
        w.construct[entry] = _module_entry(current[-1]) if current else None
        for depth, path in enumerate(current):
            modules.setdefault(path, []).append(entry)
            w.construct.setdefault(_module_entry(path), _module_entry(current[depth - 1]) if depth else None)
    _add_modules(w, modules)
    names.update({f"module:{path}": _module_entry(path) for path in modules})
    body = {
        "task": task,
        "level": "mix",
        "framework": "pytorch",
        "dump_data_dir": str(tensor_dir) if tensor_dir else None,
        "data": w.data,
    }
    (out / "dump.json").write_text(json.dumps(body, indent=1))
    (out / "construct.json").write_text(json.dumps(w.construct, indent=1))
    (out / "stack.json").write_text(json.dumps(w.stack, indent=1))
    return names


def _add_modules(w: _Writer, modules: dict[str, list[str]]) -> None:
    """Module entries: their first call's first input and last call's first output."""
    for path, entries in modules.items():
        first, last = w.data[entries[0]], w.data[entries[-1]]
        w.data[_module_entry(path)] = {
            "input_args": first["input_args"][:1],
            "input_kwargs": {},
            "output": last["output"][:1],
        }


def _input(model: onnx.ModelProto, step: int, rank: int) -> dict[str, np.ndarray]:
    inp = model.graph.input[0]
    shape = [d.dim_value for d in inp.type.tensor_type.shape.dim]
    rng = np.random.default_rng(1000 * step + rank)
    return {inp.name: rng.standard_normal(shape).astype(np.float32)}


def cells(steps: int, ranks: int) -> Iterator[tuple[int, int]]:
    return ((s, r) for s in range(steps) for r in range(ranks))


@dataclass
class Truth:
    """What a (step, rank) of the export must yield: the true NPU -> bench pairs (the same
    graph node or module on both sides) and the faulty call (None: healthy)."""

    pairs: dict[str, str]
    npu_only: list[str]
    bench_only: list[str]
    fault: str | None


def _truth(
    npu: dict[str, str], bench: dict[str, str], fault: tuple[str, float] | None, npu_model: onnx.ModelProto
) -> Truth:
    pairs = {npu[k]: bench[k] for k in npu if k in bench}
    faulty = None
    if fault is not None:
        node = next(n for n in npu_model.graph.node if fault[0] in n.input)
        faulty = npu[node.output[0]]
    npu_only = sorted(npu[k] for k in npu if k not in bench)
    return Truth(pairs, npu_only, sorted(bench[k] for k in bench if k not in npu), faulty)


def export(
    out: Path,
    model_name: str = "light_resnet50",
    modes: tuple[str, ...] = ("statistics",),
    steps: int = 2,
    ranks: int = 2,
    faults: dict[tuple[int, int], tuple[str, float]] | None = None,
    tensor_modules: frozenset[str] | None = None,
) -> dict[str, object]:
    """Write every mode/side/step/rank; return timings, sizes and the :class:`Truth` per (step, rank).
    ``faults``: default :data:`FAULTS`; ``tensor_modules``: tensor mode saves ``.npy`` files
    only for calls under these modules (default: every call)."""
    faults = FAULTS if faults is None else faults
    bench = materialise_weights(light_model(model_name))
    bench_side = variant(bench, "bench")
    t0 = time.perf_counter()
    truth: dict[tuple[int, int], Truth] = {}
    for s, r in cells(steps, ranks):
        feed = _input(bench, s, r)
        npu_model = variant(bench, "npu", faults.get((s, r)))
        sides = {
            "bench": (bench_side, run_all(bench_side, feed)),
            "npu": (npu_model, run_all(npu_model, feed)),
        }
        for mode in modes:
            names = {
                side: write_rank(
                    model, values, out / mode / side / f"step{s}" / f"rank{r}", mode, tensor_modules
                )
                for side, (model, values) in sides.items()
            }
        truth[(s, r)] = _truth(names["npu"], names["bench"], faults.get((s, r)), npu_model)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return {"seconds": time.perf_counter() - t0, "bytes": float(size), "truth": truth}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--model", default="light_resnet50")
    ap.add_argument("--modes", nargs="+", default=["statistics", "tensor"], choices=["statistics", "tensor"])
    ap.add_argument("--steps", type=int, default=2)
    ap.add_argument("--ranks", type=int, default=2)
    a = ap.parse_args(argv)
    info = export(a.out, a.model, tuple(a.modes), a.steps, a.ranks)
    print(f"wrote {info['bytes'] / 1e6:.1f} MB in {info['seconds']:.1f} s to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
