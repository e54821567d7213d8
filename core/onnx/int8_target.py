"""The ``int8`` target recipe: static QDQ quantisation calibrated on the dump's own inputs.

For a quantised tensor the ``DequantizeLinear`` output (what its consumers see) is dumped under
the original name, with its scale and zero point.  The whole recipe is described in
:mod:`dumpscope.core.onnx.targets`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from dumpscope.core.dumps import DumpError
from dumpscope.core.onnx.graph import GraphFacts
from dumpscope.core.onnx.model_io import PROTO_LIMIT as _PROTO_LIMIT
from dumpscope.core.onnx.model_io import iter_tensors, write_model
from dumpscope.core.onnx.patch import int8_overrides, kept_fp32_nodes
from dumpscope.core.onnx.targets import (
    Prepared,
    activation_names,
    control_flow_notes,
    copy_model,
    expose,
    external_data_dir,
    golden_constants,
    runtime_error_message,
    topo_sorted,
)


def _has_external_data(proto: onnx.ModelProto) -> bool:
    return any(t.data_location == TensorProto.EXTERNAL for t in iter_tensors(proto.graph))


def _scalar_or_list(arr: np.ndarray) -> float | int | list[float | int]:
    flat = arr.reshape(-1).tolist()
    return flat[0] if len(flat) == 1 else flat


def _quant_info(dq: onnx.NodeProto, inits: Mapping[str, onnx.TensorProto]) -> dict[str, object] | None:
    """Scale, zero point and integer dtype of a DequantizeLinear whose parameters are initializers."""
    scale_t = inits.get(dq.input[1]) if len(dq.input) > 1 else None
    if scale_t is None:
        return None
    zp_t = inits.get(dq.input[2]) if len(dq.input) > 2 and dq.input[2] else None
    zero_point, dtype = _zero_point(dq, zp_t, inits)
    return {
        "scale": _scalar_or_list(numpy_helper.to_array(scale_t)),
        "zero_point": zero_point,
        "dtype": dtype,
    }


def _zero_point(
    dq: onnx.NodeProto, zp_t: onnx.TensorProto | None, inits: Mapping[str, onnx.TensorProto]
) -> tuple[float | int | list[float | int], str]:
    """The zero point and the integer dtype: from the zero-point tensor, else 0 and the quantised input's
    type."""
    if zp_t is not None:
        return _scalar_or_list(numpy_helper.to_array(zp_t)), str(
            helper.tensor_dtype_to_np_dtype(zp_t.data_type)
        )
    x = inits.get(dq.input[0])
    return 0, str(helper.tensor_dtype_to_np_dtype(x.data_type)) if x is not None else "uint8"


def dequantized_sources(q: onnx.ModelProto, names: set[str]) -> dict[str, onnx.NodeProto]:
    """Original tensor name -> the DequantizeLinear node whose output its consumers now read.

    ``quantize_static`` (QDQ) turns an activation ``X`` into ``X -> QuantizeLinear ->
    DequantizeLinear -> consumers`` and an initializer ``W`` into ``W_quantized ->
    DequantizeLinear`` (whose output is usually named ``W`` again).
    """
    producer = {o: n for n in q.graph.node for o in n.output}
    inits = {t.name for t in q.graph.initializer}
    found: dict[str, onnx.NodeProto] = {}
    for node in q.graph.node:
        origin = _dequantized_origin(node, producer, inits, names)
        if origin in names:
            found.setdefault(origin, node)
    return found


def _dequantized_origin(
    node: onnx.NodeProto, producer: Mapping[str, onnx.NodeProto], inits: set[str], names: set[str]
) -> str | None:
    """The original tensor a DequantizeLinear node gives back (None for any other node)."""
    if node.op_type != "DequantizeLinear" or not node.input:
        return None
    src = node.input[0]
    q_node = producer.get(src)
    if q_node is not None and q_node.op_type == "QuantizeLinear":
        return q_node.input[0]
    if src not in inits:
        return None
    origin = src.removesuffix("_quantized")
    return origin if origin in names else node.output[0]


class _FeedReader:
    """A CalibrationDataReader over the dump's own inputs."""

    def __init__(self, feeds: list[dict[str, np.ndarray]]) -> None:
        self._feeds = feeds
        self._it = iter(feeds)

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._it, None)

    def rewind(self) -> None:
        self._it = iter(self._feeds)


def prepare_int8(
    proto: onnx.ModelProto,
    facts: GraphFacts,
    work: Path,
    source_dir: Path | None,
    feeds: list[dict[str, np.ndarray]],
) -> Prepared:
    """Static QDQ int8 quantisation calibrated on ``feeds`` (see the module docstring)."""
    q_path = work / "int8.onnx"
    overrides = tensor_quant_overrides(proto)
    _quantize(proto, source_dir, q_path, feeds, sorted(kept_fp32_nodes(proto)), overrides)
    q = onnx.load_model(str(q_path), load_external_data=False)
    prepared = Prepared(path=work / "int8_run.onnx", facts=facts, fetch={}, notes=control_flow_notes(facts))
    folded = _Int8Fetch(q, facts, golden_constants(proto, facts, source_dir)).fill(prepared)
    if folded:
        prepared.notes.append(_folded_note(folded, facts))
    prepared.fetch = topo_sorted(prepared.fetch, facts)
    expose(q.graph, list(prepared.fetch.values()))
    write_model(q, prepared.path)
    return prepared


#: The weight input and its per-channel axis (the output channels) of the operators a per-channel change
#: can name: Conv ``W`` is (M, C/group, k...), ConvTranspose (C, M/group, k...), MatMul ``B`` (..., K, N),
#: Gemm ``B`` (K, N), or (N, K) when ``transB``.
_WEIGHT_AXIS = {"Conv": 0, "ConvTranspose": 1, "MatMul": -1, "Gemm": 1}


def tensor_quant_overrides(proto: onnx.ModelProto) -> dict[str, list[dict[str, object]]]:
    """onnxruntime's ``TensorQuantOverrides`` for the int8 marks of a patch (:func:`int8_overrides`): a
    per-channel node's weight gets ``{"axis": output channels}``, a ranged tensor ``{"rmin", "rmax"}``
    (its calibration range, instead of the calibration data's min/max; float32 scalars, as the quantizer
    computes with them).  A per-channel node without a
    weight initializer of a known operator is left as it is (the trial shows it changed nothing)."""
    per_channel, ranges = int8_overrides(proto)
    inits = {t.name for t in proto.graph.initializer}
    out: dict[str, list[dict[str, object]]] = {
        t: [{"rmin": np.float32(lo), "rmax": np.float32(hi)}] for t, (lo, hi) in sorted(ranges.items())
    }
    for node in proto.graph.node:
        axis = _WEIGHT_AXIS.get(node.op_type)
        if node.name not in per_channel or axis is None or len(node.input) < 2 or node.input[1] not in inits:
            continue
        if node.op_type == "Gemm" and any(a.name == "transB" and a.i for a in node.attribute):
            axis = 0
        out[node.input[1]] = [{"axis": axis}]
    return out


def _quantize(
    proto: onnx.ModelProto,
    source_dir: Path | None,
    q_path: Path,
    feeds: list[dict[str, np.ndarray]],
    exclude: list[str] | None = None,
    overrides: dict[str, list[dict[str, object]]] | None = None,
) -> None:
    """Write the QDQ int8 model to ``q_path`` (a quantizer failure is a one-line DumpError).

    ``exclude``: nodes left in float (``nodes_to_exclude``): those a ``--keep-fp32`` patch marked;
    ``overrides``: ``TensorQuantOverrides`` (:func:`tensor_quant_overrides`)."""
    import logging

    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    reader_cls = type("FeedReader", (_FeedReader, CalibrationDataReader), {})
    float_model = copy_model(proto)
    if external_data_dir(proto, source_dir) is not None:
        onnx.load_external_data_for_model(float_model, str(source_dir))
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # the quantizer warns on the root logger ("consider pre-processing")
    try:
        quantize_static(
            float_model,
            str(q_path),
            reader_cls(feeds),
            quant_format=QuantFormat.QDQ,
            per_channel=False,
            activation_type=QuantType.QInt8,
            weight_type=QuantType.QInt8,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=exclude or None,
            extra_options={"TensorQuantOverrides": overrides} if overrides else None,
            use_external_data_format=_has_external_data(proto) or proto.ByteSize() > _PROTO_LIMIT,
        )
    except DumpError:
        raise
    except Exception as exc:  # noqa: BLE001 - the quantizer raises anything from ValueError to ORT errors
        raise DumpError(f"int8 quantisation failed: {runtime_error_message(proto, str(exc))}") from None
    finally:
        root.setLevel(level)


class _Int8Fetch:
    """Where each original tensor of an int8 run comes from: a DequantizeLinear output, a golden
    constant, the tensor itself, or nowhere (folded away by the quantizer)."""

    def __init__(
        self, q: onnx.ModelProto, facts: GraphFacts, golden_consts: dict[str, Callable[[], np.ndarray]]
    ) -> None:
        self.facts = facts
        self.golden_consts = golden_consts
        self.q_inits = {t.name: t for t in q.graph.initializer}
        self.q_outputs = {o for n in q.graph.node for o in n.output if o}
        self.dq = dequantized_sources(q, set(facts.graph_inputs) | set(facts.consumers) | set(facts.producer))

    def fill(self, prepared: Prepared) -> list[str]:
        """Fill ``prepared``'s fetches, quant info and constants; returns the folded tensors' names."""
        names = (*self.facts.graph_inputs, *self.golden_consts, *activation_names(self.facts))
        return [name for name in names if not self._place(name, prepared)]

    def _place(self, name: str, prepared: Prepared) -> bool:
        """Record where ``name`` comes from; False when it is an activation folded away."""
        node = self.dq.get(name)
        if node is not None and node.output[0] in self.q_outputs:
            self._fetch_dequantized(name, node, prepared)
        elif name in self.golden_consts:
            prepared.constants[name] = self.golden_consts[name]
        elif name in self.q_outputs:
            prepared.fetch[name] = name
        else:
            return name in self.facts.graph_inputs
        return True

    def _fetch_dequantized(self, name: str, node: onnx.NodeProto, prepared: Prepared) -> None:
        """``name`` is dumped from the DequantizeLinear output, with its scale and zero point when known."""
        prepared.fetch[name] = node.output[0]
        info = _quant_info(node, self.q_inits)
        if info is not None:
            prepared.extra[name] = {"quant": info}


def _folded_note(folded: list[str], facts: GraphFacts) -> str:
    """The run's note naming (the first five of) the tensors the quantizer folded away, and the op types
    of the golden nodes that produced them (``BatchNormalization x3, Relu x2``): what was folded, not a
    guess."""
    shown = ", ".join(map(repr, folded[:5])) + (f" and {len(folded) - 5} more" if len(folded) > 5 else "")
    kinds = Counter(
        node.op_type if (node := facts.producer.get(name)) is not None else "?" for name in folded
    )
    ops = ", ".join(f"{op} x{n}" if n > 1 else op for op, n in kinds.most_common())
    return (
        f"{len(folded)} tensor(s) folded away by the quantizer (outputs of {ops}), not in the int8 dump: "
        f"{shown}"
    )
