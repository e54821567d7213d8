"""ncnn models made by pnnx from an ONNX model: the ``.param`` graph and its blobs paired with ONNX tensors.

``pnnx model.onnx inputshape=[1,3,H,W]`` writes ``model.ncnn.param`` (text): a magic line
``7767517``, ``layer_count blob_count``, then one line per layer::

    Type  name  n_in n_out  in_blob... out_blob...  k=v ...

Blobs are numbered (``in0``, ``1``, ``2`` ... ``out0``): no ONNX name survives, and pnnx fuses
(Conv+BatchNormalization+Relu is one ``Convolution`` with ``9=1``), rewrites (x*HardSigmoid(x) is a
``HardSwish``) and inserts ``Split`` layers (one blob copied for its consumers).  So blobs are paired
by the graph's structure (:func:`pair_blobs`): walking both graphs from the inputs, each layer's
output is looked for among the ONNX tensors a few nodes downstream of the tensors its input blobs
were paired with, computed from those alone; a candidate must hold the blob's element count, and
an ONNX op the ncnn layer type can stand for is preferred (narrowed by the layer's own params: a
BinaryOp's operation, a bias-free convolution's bare Conv).  The graph decides before the values: a
layer with a bias is the last node of the Conv->BatchNormalization / MatMul->Add chain pnnx folded
into it.  Where several candidates remain the values decide (the candidate closest to the blob),
unless they cannot tell them apart (:data:`TIED`): then the nearest node in the graph.  A scalar
BinaryOp pnnx inserted (``x * 1.2`` before a HardSigmoid) is explained when the blob holds the
paired tensor with that scalar applied; a MemoryData named after an ONNX constant pairs by name.
Every row says how it was paired (:attr:`BlobPairing.kind`, :data:`KINDS`), and every blob left
unpaired says why.  :func:`paired_dump` turns a folder of blobs a user extracted into a dump
under the ONNX names.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from dumpscope.core.dumps import Dump, DumpError, DumpProblem, TensorKind, TensorReadError, TensorRef

MAGIC = "7767517"
#: How many ONNX nodes downstream of a layer's paired inputs its output is looked for.
MAX_DEPTH = 8
#: Layers that stand for a longer chain of ONNX nodes (a LayerNormalization decomposed into ~10 nodes,
#: an attention block into dozens): how far downstream their output is looked for.
DEPTH: Mapping[str, int] = {"LayerNorm": 16, "GroupNorm": 16, "InstanceNorm": 16, "MultiHeadAttention": 64}
#: Largest .param file read (a real one is a few kB per 100 layers).
MAX_PARAM_BYTES = 16 << 20
#: A candidate within this relative distance of the blob (||g - b|| / ||g||) is confirmed by values
#: (ncnn's fp16 storage leaves ~1e-3; a scaled copy such as 6 x HardSwish is ~0.8 away).
VALUES_AGREE = 0.05

#: ncnn layer type -> ONNX ops whose output it can stand for (after pnnx's fusions).
OPS: Mapping[str, frozenset[str]] = {
    "Convolution": frozenset({"Conv", "BatchNormalization", "Add"}),
    "ConvolutionDepthWise": frozenset({"Conv", "BatchNormalization", "Add"}),
    "Deconvolution": frozenset({"ConvTranspose", "BatchNormalization", "Add"}),
    "DeconvolutionDepthWise": frozenset({"ConvTranspose", "BatchNormalization", "Add"}),
    "InnerProduct": frozenset({"Gemm", "MatMul", "Add", "Conv"}),  # a 1x1 Conv over a 1x1 map
    "Gemm": frozenset({"Gemm", "MatMul", "Add"}),
    "MatMul": frozenset({"MatMul"}),
    "Pooling": frozenset({"GlobalAveragePool", "GlobalMaxPool", "AveragePool", "MaxPool", "ReduceMean"}),
    "ReLU": frozenset({"Relu", "LeakyRelu"}),
    "Clip": frozenset({"Clip"}),
    "Sigmoid": frozenset({"Sigmoid"}),
    "Swish": frozenset({"Mul"}),
    "HardSwish": frozenset({"HardSwish", "Mul", "Div"}),
    "HardSigmoid": frozenset({"HardSigmoid", "Clip", "Div"}),
    "BinaryOp": frozenset({"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min"}),
    "UnaryOp": frozenset({"Abs", "Neg", "Floor", "Ceil", "Sqrt", "Exp", "Log", "Tanh", "Reciprocal"}),
    "Concat": frozenset({"Concat"}),
    "Reshape": frozenset({"Reshape", "Flatten", "Squeeze", "Unsqueeze"}),
    "Flatten": frozenset({"Flatten", "Reshape"}),
    "Permute": frozenset({"Transpose"}),
    "Interp": frozenset({"Resize", "Upsample"}),
    "Softmax": frozenset({"Softmax"}),
    "Crop": frozenset({"Slice"}),
    "Slice": frozenset({"Split", "Slice"}),
    "BatchNorm": frozenset({"BatchNormalization"}),
    "Eltwise": frozenset({"Add", "Mul", "Max"}),
    "Padding": frozenset({"Pad"}),
    "Mish": frozenset({"Mul"}),
    "TanH": frozenset({"Tanh"}),
    "ELU": frozenset({"Elu"}),
    "GELU": frozenset({"Gelu", "Mul"}),
    "LayerNorm": frozenset({"LayerNormalization", "Add"}),
    "Reduction": frozenset({"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin"}),
    "ShuffleChannel": frozenset({"Reshape", "Transpose"}),
}
#: Activations fused into Convolution/InnerProduct (param 9): ncnn's activation_type -> ONNX ops.
FUSED_ACTIVATION: Mapping[str, frozenset[str]] = {
    "1": frozenset({"Relu"}),
    "2": frozenset({"LeakyRelu"}),
    "3": frozenset({"Clip"}),
    "4": frozenset({"Sigmoid"}),
    "5": frozenset({"Mul"}),  # mish
    "6": frozenset({"HardSwish", "Mul", "Div"}),
}
#: Layers with a fused activation in param 9 (ncnn's Gemm uses 9 for K: it fuses none).
_FUSES = frozenset(
    {"Convolution", "ConvolutionDepthWise", "Deconvolution", "DeconvolutionDepthWise", "InnerProduct"}
)
#: ncnn BinaryOp's operation (param 0) -> the ONNX op it is (r-forms swap the operands).
BINARY_OP: Mapping[str, str] = {
    "0": "Add", "1": "Sub", "2": "Mul", "3": "Div", "4": "Max", "5": "Min",
    "6": "Pow", "7": "Sub", "8": "Div", "9": "Pow",
}  # fmt: skip
_SCALAR_OP: Mapping[str, Callable[[np.ndarray, float], np.ndarray]] = {
    "0": lambda x, k: x + k,
    "1": lambda x, k: x - k,
    "2": lambda x, k: x * k,
    "3": lambda x, k: x / k,
    "7": lambda x, k: k - x,
    "8": lambda x, k: k / x,
}
_SCALAR_WORDS = {
    "0": "{x} + {k}",
    "1": "{x} - {k}",
    "2": "{x} * {k}",
    "3": "{x} / {k}",
    "7": "{k} - {x}",
    "8": "{k} / {x}",
}
#: The ONNX op a bias-free layer (param 5=0, no fused activation) can only be: nothing was fused into it.
_BARE = {
    "Convolution": "Conv",
    "ConvolutionDepthWise": "Conv",
    "Deconvolution": "ConvTranspose",
    "DeconvolutionDepthWise": "ConvTranspose",
}


@dataclass(frozen=True)
class Layer:
    type: str
    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    params: Mapping[str, str] = field(default_factory=dict)
    line: int = 0

    def ops(self) -> frozenset[str]:
        """The ONNX ops this layer's output can be (a fused activation: that activation's)."""
        if self.activation() != "0":
            return FUSED_ACTIVATION.get(self.activation(), frozenset())
        return OPS.get(self.type, frozenset())

    def exact_ops(self) -> frozenset[str] | None:
        """The ONNX ops the layer's own params say it is, narrower than :meth:`ops` (None: they do not
        say): a BinaryOp's operation (param 0); a convolution with no bias and no activation is the
        bare Conv (a BatchNormalization or bias Add would have been fused into its bias)."""
        if self.type == "BinaryOp" and self.params.get("0", "0") in BINARY_OP:
            return frozenset({BINARY_OP[self.params.get("0", "0")]})
        if self.type in _BARE and self.params.get("5", "0") == "0" and self.activation() == "0":
            return frozenset({_BARE[self.type]})
        return None

    def has_bias(self) -> bool:
        """Whether a convolution or InnerProduct has a bias (param 5; InnerProduct's param 1), or a
        Gemm a constant C (6=1, broadcast 10 set), where pnnx folds a BatchNormalization or a bias Add."""
        if self.type == "Gemm":
            return self.params.get("6") == "1" and self.params.get("10", "-1") != "-1"
        key = "1" if self.type == "InnerProduct" else "5"
        return self.type in _FUSES and self.params.get(key) == "1"

    def activation(self) -> str:
        """The fused activation type (param 9 of a convolution or InnerProduct; "0": none)."""
        return (self.params.get("9", "0") or "0") if self.type in _FUSES else "0"

    def scalar(self) -> float | None:
        """The constant a BinaryOp applies to its one input blob (params 1=1, 2=k), else None."""
        if self.type != "BinaryOp" or self.params.get("1") != "1" or len(self.inputs) != 1:
            return None
        try:
            return float(self.params.get("2", "0"))
        except ValueError:
            return None

    def label(self) -> str:
        act = self.activation()
        return f"{self.type}" + (f" (+activation {act})" if act != "0" else "")


def is_param(path: str | Path) -> bool:
    """Whether ``path`` is a file starting with the ncnn ``.param`` magic line (reads 16 bytes)."""
    try:
        with Path(path).open("rb") as fh:
            head = fh.read(16)
    except OSError:
        return False
    return head.split(b"\n", 1)[0].strip() == MAGIC.encode()


def read_param(path: str | Path) -> tuple[list[Layer], list[str]]:
    """Layers of an ncnn ``.param`` file, in file order, and the lines not understood."""
    p = Path(path)
    with p.open("rb") as fh:
        data = fh.read(MAX_PARAM_BYTES + 1)
    if len(data) > MAX_PARAM_BYTES:
        raise DumpError(f"{p}: larger than {MAX_PARAM_BYTES >> 20} MiB: not an ncnn .param")
    lines = data.decode("utf-8", errors="replace").splitlines()
    if not lines or lines[0].strip() != MAGIC:
        raise DumpError(f"{p}: not an ncnn .param file (first line is not {MAGIC})")
    layers: list[Layer] = []
    problems: list[str] = []
    for lineno, line in enumerate(lines[2:], 3):
        parts = line.split()
        if not parts:
            continue
        try:
            n_in, n_out = int(parts[2]), int(parts[3])
            blobs = parts[4 : 4 + n_in + n_out]
            if len(blobs) != n_in + n_out:
                raise ValueError("fewer blobs than counted")
        except (IndexError, ValueError) as exc:
            problems.append(f"{p.name} line {lineno}: not understood ({exc}): {line.strip()[:80]!r}")
            continue
        params = dict(kv.split("=", 1) for kv in parts[4 + n_in + n_out :] if "=" in kv)
        layers.append(Layer(parts[0], parts[1], tuple(blobs[:n_in]), tuple(blobs[n_in:]), params, lineno))
    return layers, problems


@dataclass(frozen=True)
class BlobPairing:
    """One ncnn blob: the ONNX tensor it was paired with (None: unpaired) and how, or why not."""

    blob: str
    layer: Layer
    tensor: str | None
    how: str
    copy_of: str | None = None
    """For a Split output: the blob it copies (same values, no row of its own)."""
    kind: str = "unpaired"
    """How: one of :data:`KINDS`."""


#: BlobPairing.kind -> what it means (the counts a report gives per model).
KINDS: Mapping[str, str] = {
    "input": "an ncnn input, paired with the ONNX input of the same position",
    "structure": "paired by the graph's structure (one candidate left by position, element count and op)",
    "values": "paired by structure, the values choosing among several candidates",
    "name": "paired by name: a constant pnnx computed ahead, named after its ONNX tensor",
    "split": "an ncnn Split output: a copy of its input blob, no row of its own",
    "reshape": "a shape-only layer copying its input's values, no row of its own",
    "pnnx-made": "a step pnnx inserted (a scalar applied to a paired tensor), no ONNX tensor holds it",
    "constant": "constants pnnx computed ahead that no ONNX tensor holds",
    "unpaired": "no ONNX tensor could be confirmed: the row says why",
}


@dataclass(frozen=True)
class Graph:
    """What the pairing needs of the ONNX graph."""

    inputs: Sequence[str]
    producer: Mapping[str, tuple[str, str, tuple[str, ...], tuple[str, ...]]]
    """tensor -> (node name, op type, node inputs, node outputs)."""
    consumers: Mapping[str, Sequence[str]]
    """tensor -> names of the tensors its consumer nodes produce (their outputs)."""
    constant: frozenset[str]
    """Tensors that do not depend on a graph input's values (weights, Constant, Shape chains)."""


def graph_of(facts) -> Graph:
    """A :class:`Graph` from :class:`~dumpscope.core.onnx.graph.GraphFacts`."""
    producer = {o: (n.name, n.op_type, n.inputs, n.outputs) for n in facts.nodes for o in n.outputs}
    consumers: dict[str, list[str]] = {}
    for n in facts.nodes:
        for i in n.inputs:
            consumers.setdefault(i, []).extend(n.outputs)
    valued: set[str] = set(facts.graph_inputs)
    for n in facts.nodes:  # topological: a tensor depends on the input's values through a non-Shape op
        if n.op_type not in ("Shape", "Size") and any(i in valued for i in n.inputs):
            valued.update(n.outputs)
    every = set(producer) | set(facts.initializers) | set(facts.constants)
    return Graph(tuple(facts.graph_inputs), producer, consumers, frozenset(every - valued))


def _distance(g: np.ndarray, b: np.ndarray) -> float:
    """Relative Euclidean distance of the blob ``b`` from the ONNX tensor ``g`` (float64; a scale
    difference counts, unlike a cosine)."""
    g, b = g.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    ng = float(np.linalg.norm(g))
    diff = float(np.linalg.norm(g - b))
    if not math.isfinite(diff):
        return math.inf
    return diff / ng if ng > 0 else (0.0 if diff == 0 else math.inf)


def _downstream(graph: Graph, start: Sequence[str], limit: int = MAX_DEPTH) -> list[tuple[str, int]]:
    """ONNX tensors computed from ``start`` alone (and constants), at most ``limit`` nodes on, in the
    order reached: (tensor, depth)."""
    reached = dict.fromkeys(start, 0)
    out: list[tuple[str, int]] = []
    frontier = list(start)
    while frontier:
        nxt: list[str] = []
        for t in frontier:
            for o in graph.consumers.get(t, ()):
                if o in reached or o not in graph.producer:
                    continue
                _node, _op, ins, _outs = graph.producer[o]
                if not all(i in reached or i in graph.constant for i in ins):
                    continue
                depth = max(reached.get(i, 0) for i in ins) + 1
                if depth > limit:
                    continue
                reached[o] = depth
                out.append((o, depth))
                nxt.append(o)
        frontier = nxt
    return out


def pair_blobs(
    layers: Sequence[Layer],
    graph: Graph,
    blob_size: Callable[[str], int | None],
    tensor_size: Callable[[str], int | None],
    blob_values: Callable[[str], np.ndarray | None],
    tensor_values: Callable[[str], np.ndarray | None],
) -> list[BlobPairing]:
    """Every output blob of ``layers`` paired with an ONNX tensor or explained (see the module doc)."""
    walk = _Walk(layers, graph, (blob_size, tensor_size, blob_values, tensor_values))
    for layer in layers:
        walk.layer(layer)
    return walk.out


class _Walk:
    """The walk down both graphs, one ncnn layer at a time (in the .param's order: topological)."""

    def __init__(
        self, layers: Sequence[Layer], graph: Graph, readers: tuple[Callable[[str], Any], ...]
    ) -> None:
        self.graph, self.readers = graph, readers
        self.onnx_of: dict[str, str] = {}
        self.claimed: set[str] = set()
        self.anchor: dict[str, list[str]] = {}
        """Unpaired blob -> the ONNX tensors it was computed from (where its consumers look from)."""
        self.out: list[BlobPairing] = []
        self.inputs_seen = 0
        self.consumers: dict[str, list[Layer]] = {}
        for layer in layers:
            for b in layer.inputs:
                self.consumers.setdefault(b, []).append(layer)

    def layer(self, layer: Layer) -> None:
        if layer.type == "Input":
            self._input(layer)
        elif layer.type == "Split":
            src = layer.inputs[0] if layer.inputs else ""
            how = f"ncnn Split: a copy of blob {src} for one of its consumers (no row of its own)"
            self._alias(layer, src, how, "split")
        elif not layer.inputs:  # MemoryData: constants pnnx computed ahead (anchors, grids)
            for blob in layer.outputs:
                self.out.append(self._constant(layer, blob))
        else:
            self._computed(layer)

    def _constant(self, layer: Layer, blob: str) -> BlobPairing:
        """A blob with no input: pnnx names a constant it folded after the ONNX tensor that holds it."""
        name = layer.name
        size = self.readers[0](blob)
        if (
            len(layer.outputs) == 1
            and name in self.graph.constant
            and name not in self.claimed
            and size is not None
            and self.readers[1](name) == size
        ):
            best = _closest([(name, 0)], self.readers[2](blob), self.readers[3])
            check = "" if best is None else f"; values: relative distance {_fmt(best[0])}"
            how = (
                f"name: ncnn {layer.type} {name!r} holds constants pnnx computed ahead, named after the "
                f"ONNX tensor {name!r}, which depends on no input value{check}"
            )
            self.onnx_of[blob] = name
            self.claimed.add(name)
            return BlobPairing(blob, layer, name, how, kind="name")
        self.anchor[blob] = []
        how = f"ncnn {layer.type} with no input blob: constants pnnx computed ahead, no ONNX activation"
        return BlobPairing(blob, layer, None, how, kind="constant")

    def _input(self, layer: Layer) -> None:
        for blob in layer.outputs:
            k = self.inputs_seen
            self.inputs_seen += 1
            if k >= len(self.graph.inputs):
                self.out.append(
                    BlobPairing(blob, layer, None, "an ncnn input beyond the ONNX model's inputs")
                )
                continue
            self.onnx_of[blob] = self.graph.inputs[k]
            self.claimed.add(self.graph.inputs[k])
            how = f"structure: ncnn input {k} = ONNX input {k}"
            self.out.append(BlobPairing(blob, layer, self.graph.inputs[k], how, kind="input"))

    def _alias(self, layer: Layer, src: str, how: str, kind: str) -> None:
        """Outputs that hold ``src``'s values: no rows of their own, paired (or anchored) as it is."""
        for blob in layer.outputs:
            if src in self.onnx_of:
                self.onnx_of[blob] = self.onnx_of[src]
            elif src in self.anchor:
                self.anchor[blob] = self.anchor[src]
            self.out.append(BlobPairing(blob, layer, None, how, copy_of=src, kind=kind))

    def _computed(self, layer: Layer) -> None:
        missing = [b for b in layer.inputs if b not in self.onnx_of and b not in self.anchor]
        if missing:
            for blob in layer.outputs:
                why = f"not paired: its input blob {missing[0]} has no ONNX place to look from"
                self.out.append(BlobPairing(blob, layer, None, why))
            return
        same = _same_values(layer, self.readers[2])
        if same is not None:  # a reshape pnnx made: the values of its input in another shape
            where = f" ({self.onnx_of[same]!r})" if same in self.onnx_of else ""
            how = (
                f"ncnn {layer.type}: the very values of blob {same}{where} in another shape, no ONNX op "
                "of its own (no row of its own)"
            )
            self._alias(layer, same, how, "reshape")
            return
        # an unpaired input (an intermediate pnnx made, e.g. HardSigmoid(x) as mul(x, k) then
        # HardSigmoid) is looked past: from the ONNX tensors it was computed from
        start = list(
            dict.fromkeys(
                t for b in layer.inputs for t in ([self.onnx_of[b]] if b in self.onnx_of else self.anchor[b])
            )
        )
        found = _downstream(self.graph, start, DEPTH.get(layer.type, MAX_DEPTH))
        for j, blob in enumerate(layer.outputs):
            bp = _pair_one(layer, j, blob, start, found, self.graph, self.claimed, *self.readers)
            if bp.tensor is None:
                bp = self._pnnx_made(layer, blob) or bp
            self.out.append(bp)
            if bp.tensor is not None:
                self.onnx_of[blob] = bp.tensor
                self.claimed.add(bp.tensor)
            else:
                self.anchor[blob] = start

    def _pnnx_made(self, layer: Layer, blob: str) -> BlobPairing | None:
        """A scalar BinaryOp pnnx inserted on a paired tensor (HardSigmoid(alpha) rewritten as
        HardSigmoid(1/6) of x * 6 alpha): explained when the blob holds that tensor's values with the
        scalar applied; None otherwise."""
        k, src = layer.scalar(), layer.inputs[0] if layer.inputs else ""
        op = layer.params.get("0", "0")
        if k is None or op not in _SCALAR_OP or src not in self.onnx_of:
            return None
        tensor = self.onnx_of[src]
        g, b = self.readers[3](tensor), self.readers[2](blob)
        if g is None or b is None or g.size != b.size:
            return None
        with np.errstate(all="ignore"):
            expected = _SCALAR_OP[op](g.astype(np.float64), k)
        dist = _distance(expected, b)
        if not dist <= VALUES_AGREE:
            return None
        formula = _SCALAR_WORDS[op].format(x=repr(tensor), k=f"{k:g}")
        then = ""
        users = self.consumers.get(blob, [])
        if len(users) == 1 and users[0].type == "HardSigmoid":
            alpha = _float(users[0].params.get("0", "0.2"))
            onnx_hs = [
                t for t in self.graph.consumers.get(tensor, ()) if self.graph.producer[t][1] == "HardSigmoid"
            ]
            if alpha is not None and op == "2":
                then = (
                    f"; it feeds ncnn HardSigmoid {users[0].name} (alpha {alpha:g}; {k:g} * {alpha:g} = "
                    f"{k * alpha:g})"
                    + (
                        f", where the ONNX graph applies HardSigmoid {onnx_hs[0]!r} to {tensor!r} itself"
                        if onnx_hs
                        else ""
                    )
                )
        how = (
            f"pnnx-made: ncnn {layer.type} {layer.name} computes {formula}, a step pnnx inserted that no "
            f"ONNX tensor holds (values: relative distance {_fmt(dist)} from {formula} in float64){then}"
        )
        return BlobPairing(blob, layer, None, how, kind="pnnx-made")


def _float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _fused_heads(pool: Sequence[tuple[str, int]], graph: Graph) -> list[tuple[str, int]]:
    """The candidates no bias or BatchNormalization extends: for a layer with a bias and no fused
    activation, a candidate whose only consumer is another candidate, a BatchNormalization or an
    Add computed from it and constants alone (Conv -> BatchNormalization, MatMul -> bias Add), lies
    inside the group pnnx fused into the layer's bias, whose output is the group's last."""
    names = {t for t, _d in pool}
    inner = set()
    for t, _d in pool:
        _node, op, ins, _outs = graph.producer[t]
        if op not in ("BatchNormalization", "Add"):
            continue
        valued = [i for i in ins if i not in graph.constant]
        if len(valued) == 1 and valued[0] in names and list(graph.consumers.get(valued[0], ())) == [t]:
            inner.add(valued[0])
    return [(t, d) for t, d in pool if t not in inner]


def _pair_one(
    layer: Layer,
    k: int,
    blob: str,
    start: Sequence[str],
    found: Sequence[tuple[str, int]],
    graph: Graph,
    claimed: set[str],
    blob_size: Callable[[str], int | None],
    tensor_size: Callable[[str], int | None],
    blob_values: Callable[[str], np.ndarray | None],
    tensor_values: Callable[[str], np.ndarray | None],
) -> BlobPairing:
    """One output blob of ``layer`` paired with an ONNX tensor among ``found`` (or why not): the
    candidates of its size, narrowed by op type, then decided by the fused chain, the values or the order."""
    size = blob_size(blob)
    after = ", ".join(start)
    cands = [(t, d) for t, d in found if t not in claimed and (size is None or tensor_size(t) == size)]
    if not cands:
        return BlobPairing(
            blob,
            layer,
            None,
            f"not paired: no ONNX tensor within {DEPTH.get(layer.type, MAX_DEPTH)} nodes downstream of "
            f"{after!r}, computed from it alone, holds "
            f"its {size} values (an intermediate pnnx made, or a layout of ncnn's own)",
        )
    ask = _Ask.of(layer, k, blob, after, cands, graph, blob_values(blob), tensor_values)
    best_d = ask.closest(ask.pool)
    if not ask.typed and (best_d is None or best_d[0] > VALUES_AGREE):  # by count only when values agree
        near = "" if best_d is None else f"; the closest, {best_d[2]!r}, is {_fmt(best_d[0])} away (relative)"
        return BlobPairing(
            blob,
            layer,
            None,
            f"not paired: within {DEPTH.get(layer.type, MAX_DEPTH)} nodes downstream of {after!r} no output "
            f"of an op a {layer.type} stands for holds its {size} values, and no other tensor there matches "
            f"its values{near}: an intermediate of pnnx's own",
        )
    return ask.by_fused_chain(best_d) or ask.by_values(best_d) or ask.by_order(best_d)


@dataclass(frozen=True)
class _Ask:
    """One blob's candidates after the op-type filter, and how each decision is worded."""

    layer: Layer
    blob: str
    after: str
    head: str
    """``structure: LAYER [output k] after 'INPUTS'``: how every pairing's sentence starts."""
    pool: list[tuple[str, int]]
    why: str
    """How the pool was chosen (op type by its params, op type, or element count only)."""
    typed: bool
    graph: Graph
    values: np.ndarray | None
    tensor_values: Callable[[str], np.ndarray | None]

    @classmethod
    def of(
        cls,
        layer: Layer,
        k: int,
        blob: str,
        after: str,
        cands: list[tuple[str, int]],
        graph: Graph,
        values: np.ndarray | None,
        tensor_values: Callable[[str], np.ndarray | None],
    ) -> _Ask:
        ops, exact = layer.ops(), layer.exact_ops()
        typed = [(t, d) for t, d in cands if graph.producer[t][1] in ops]
        narrow = [(t, d) for t, d in cands if exact is not None and graph.producer[t][1] in exact]
        if narrow:
            pool, why = narrow, f"op type {'/'.join(sorted(exact or ()))} by its params"
        else:
            pool, why = (typed, "op type") if typed else (cands, "no op of its type: by element count")
        arity = "" if len(layer.outputs) == 1 else f" output {k}"
        head = f"structure: {layer.label()}{arity} after {after!r}"
        return cls(layer, blob, after, head, pool, why, bool(typed), graph, values, tensor_values)

    def closest(self, pool: Sequence[tuple[str, int]]) -> tuple[float, int, str] | None:
        return _closest(pool, self.values, self.tensor_values)

    def paired(self, tensor: str, detail: str, kind: str) -> BlobPairing:
        how = f"{self.head} -> {self.graph.producer[tensor][1]} {tensor!r} ({self.why}, {detail})"
        return BlobPairing(self.blob, self.layer, tensor, how, kind=kind)

    def by_fused_chain(self, best_d: tuple[float, int, str] | None) -> BlobPairing | None:
        """Several candidates in one chain pnnx fused into a layer with a bias: the graph decides, the
        chain's last node (unless the values clearly agree with another candidate and not with it)."""
        biased = self.layer.has_bias() and self.layer.activation() == "0"
        heads = _fused_heads(self.pool, self.graph) if self.typed and biased else self.pool
        if not (len(heads) == 1 and len(self.pool) > 1):
            return None
        own = self.closest(heads)
        if own is not None and own[0] > VALUES_AGREE and best_d is not None and best_d[0] <= VALUES_AGREE:
            return None
        check = "" if own is None else f"; values: relative distance {_fmt(own[0])}"
        detail = f"{len(self.pool)} candidates in one fused chain: the chain's last{check}"
        return self.paired(heads[0][0], detail, "structure")

    def by_values(self, best_d: tuple[float, int, str] | None) -> BlobPairing | None:
        """Several candidates and the blob's values: none close enough (unpaired), several the values
        cannot tell apart (the graph's nearest), or the closest."""
        if best_d is None or len(self.pool) < 2:
            return None
        dist, _depth, best = best_d
        if dist > VALUES_AGREE:
            return BlobPairing(
                self.blob,
                self.layer,
                None,
                f"not paired: {len(self.pool)} outputs of ops a {self.layer.type} stands for lie downstream "
                f"of {self.after!r} and none is within {VALUES_AGREE:g} (relative) of its values; the "
                f"closest, {best!r}, is {_fmt(dist)} away",
            )
        tied = _tied(self.pool, self.values, self.tensor_values, dist)
        if len(tied) > 1:  # values cannot tell them apart: the graph's nearest is the next ONNX node
            order = [t for t, _d in self.pool]
            near, depth = min(tied, key=lambda td: (td[1], order.index(td[0])))
            near_d = self.closest([(near, depth)])
            detail = (
                f"{len(self.pool)} candidates; the values cannot tell {len(tied)} of them apart (within "
                f"{TIED:g}x of the closest), so the graph chose the nearest, {depth} node(s) on; values: "
                f"relative distance {_fmt(near_d[0] if near_d else math.nan)}"
            )
            return self.paired(near, detail, "structure")
        detail = f"{len(self.pool)} candidates; values chose it: relative distance {_fmt(dist)}"
        return self.paired(best, detail, "values")

    def by_order(self, best_d: tuple[float, int, str] | None) -> BlobPairing:
        """The only candidate, or the nearest when there are no values to decide."""
        n = len(self.pool)
        which = "the only candidate" if n == 1 else f"the nearest of {n} candidates, no values"
        check = "" if best_d is None else f"; values: relative distance {_fmt(best_d[0])}"
        return self.paired(self.pool[0][0], f"{which}{check}", "structure")


#: Candidates whose distances from the blob are within this factor of the closest one's (and within
#: :data:`VALUES_AGREE`) are not told apart by the values (YOLOv8n's SPPF: MaxPool of a MaxPool).
TIED = 2.0


def _tied(
    pool: Sequence[tuple[str, int]],
    values: np.ndarray | None,
    tensor_values: Callable[[str], np.ndarray | None],
    best: float,
) -> list[tuple[str, int]]:
    """The candidates the values cannot tell from the closest one (itself included)."""
    if values is None or best > VALUES_AGREE:
        return []
    limit = min(VALUES_AGREE, max(best * TIED, 1e-12))
    out = []
    for t, d in pool:
        g = tensor_values(t)
        if g is not None and g.size == values.size and _distance(g, values) <= limit:
            out.append((t, d))
    return out


def _fmt(x: float) -> str:
    return "nan" if not math.isfinite(x) else f"{x:.5f}"


def _closest(
    pool: Sequence[tuple[str, int]],
    values: np.ndarray | None,
    tensor_values: Callable[[str], np.ndarray | None],
) -> tuple[float, int, str] | None:
    """(relative distance, depth, tensor) of the candidate closest to the blob's values (None: no values)."""
    if values is None:
        return None
    scored = []
    for t, d in pool:
        g = tensor_values(t)
        if g is not None and g.size == values.size:
            scored.append((_distance(g, values), d, t))
    return min(scored, default=None)


def _same_values(layer: Layer, blob_values: Callable[[str], np.ndarray | None]) -> str | None:
    """The input blob a one-in one-out layer copies value for value (a Reshape, a Flatten), else None."""
    if len(layer.inputs) != 1 or len(layer.outputs) != 1 or layer.type not in _SHAPE_ONLY:
        return None
    a, b = blob_values(layer.inputs[0]), blob_values(layer.outputs[0])
    if a is None or b is None or a.size != b.size:
        return None
    return layer.inputs[0] if np.array_equal(a.ravel(), b.ravel()) else None


#: Layers that may only re-shape their input.
_SHAPE_ONLY = frozenset({"Reshape", "Flatten", "Squeeze", "ExpandDims", "Noop"})


# ------------------------------------------------------------------ a blob folder as a paired dump


class _Reshaped:
    """A loader giving its blob in the golden tensor's shape (ncnn drops the batch dimension of 1)."""

    def __init__(self, loader: Callable[[], np.ndarray], shape: tuple[int, ...]) -> None:
        self.loader, self.shape = loader, shape

    def __call__(self) -> np.ndarray:
        return self.loader().reshape(self.shape)


def _values(dump: Dump) -> Callable[[str], np.ndarray | None]:
    def load(name: str) -> np.ndarray | None:
        ref = dump.tensors.get(name)
        if ref is None:
            return None
        try:
            return ref.load()
        except TensorReadError:
            return None

    return load


def _size(dump: Dump) -> Callable[[str], int | None]:
    def size(name: str) -> int | None:
        ref = dump.tensors.get(name)
        return None if ref is None or ref.info.shape is None else math.prod(ref.info.shape)

    return size


def paired_dump(target: Dump, golden: Dump, facts: Any, param: str | Path) -> Dump:
    """``target``'s blobs (named as in ``param``) under the golden's ONNX tensor names, paired by
    :func:`pair_blobs` against ``golden``'s values; an unpaired blob is ``ncnn:BLOB`` with why, a
    copy (Split, a reshape) has no row of its own, and a file naming no blob of the ``.param`` is
    kept as ``ncnn:NAME`` saying so.  Each tensor carries how it was paired (``vendor_pairing``)."""
    layers, bad = read_param(param)
    pname = Path(param).name
    paired = pair_blobs(
        layers, graph_of(facts), _size(target), _size(golden), _values(target), _values(golden)
    )
    tensors: dict[str, TensorRef] = {}
    problems = [*target.problems, *(DumpProblem(str(param), b) for b in bad)]
    counts = dict.fromkeys(KINDS, 0)
    for bp in paired:
        counts[bp.kind] += 1
        ref = target.tensors.get(bp.blob)
        if bp.copy_of is not None:
            continue
        if ref is None:
            problems.append(
                DumpProblem(str(target.path / f"{bp.blob}.npy"), f"blob {bp.blob} of {pname} has no file")
            )
            continue
        extra = (
            *ref.info.extra,
            ("vendor_pairing", bp.how),
            ("vendor_pairing_kind", bp.kind),
            ("vendor_ncnn_blob", bp.blob),
            ("vendor_ncnn_layer", f"{bp.layer.type} {bp.layer.name}"),
        )
        if bp.tensor is None:
            note = f"ncnn {bp.layer.type} blob {bp.blob}: {bp.how}"
            info = replace(
                ref.info,
                name=f"ncnn:{bp.blob}",
                op_type=bp.layer.type,
                extra=(*extra, ("unmatched_note", note)),
            )
            tensors[info.name] = replace(ref, info=info)
            continue
        gref = golden.tensors.get(bp.tensor)
        shape, loader = ref.info.shape, ref.loader
        if gref is not None and gref.info.shape is not None and shape is not None and loader is not None:
            if math.prod(gref.info.shape) == math.prod(shape) and gref.info.shape != shape:
                shape, loader = gref.info.shape, _Reshaped(loader, gref.info.shape)
        kind: TensorKind = "input" if bp.kind == "input" else "activation"
        info = replace(ref.info, name=bp.tensor, shape=shape, kind=kind, extra=extra)
        tensors[bp.tensor] = TensorRef(info, loader, ref.error)
    blobs = {b for layer in layers for b in layer.outputs}
    for name, ref in target.tensors.items():
        if name not in blobs:
            note = f"{name}: not a blob of {pname} (its blobs are named in0, 1, 2 ... out0 by pnnx)"
            info = replace(ref.info, name=f"ncnn:{name}", extra=(*ref.info.extra, ("unmatched_note", note)))
            tensors[info.name] = replace(ref, info=info)
    meta = {**target.meta, "ncnn_param": str(param), "ncnn_pairing": counts}
    return replace(target, tensors=tensors, problems=problems, meta=meta)
