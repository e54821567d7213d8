"""A fix written in each toolchain's own terms (``dumpscope fix --emit DIR``).

Every file goes through :mod:`dumpscope.core.atomic`.  Where each format rule comes from (tests/test_fix.py
checks each file against the same sources, field by field, or parses it back with the tool where it installs):

``model.fixed.onnx``
    The model patched by :func:`dumpscope.core.onnx.patch.patch_model` (Clips inserted, the kept nodes
    marked in ``metadata_props``); onnx's checker validates it.
``onnxconverter_common.json``
    ``{"node_block_list": [...]}``: the keyword of ``onnxconverter_common.float16.convert_float_to_float16``
    (its signature: ``node_block_list=None``, a list of node names left in float32).  Unnamed nodes are
    named in ``model.fixed.onnx`` (the converter matches ``node.name``), so convert that file.
``atc_keep_dtype.cfg``
    ATC ``--keep_dtype=FILE``: one operator name per line, the operators keep their original precision;
    used with ``--precision_mode_v2`` (hiascend.com CANN ATC parameter reference, "--keep_dtype",
    atlasatcparam_16_0074: "lists operator names or operator types ... each operator in a separate
    line"; ``OpType::TYPE`` lines name a type, not used here; no comment syntax is documented, so none
    is written).
``atc_modify_mixlist.json``
    ATC ``--modify_mixlist=FILE`` with ``--precision_mode_v2=mixed_float16`` (``mixed_bfloat16`` for
    bf16): ``{"black-list": {"to-add": [TYPES]}}`` moves those operator *types* to the blocklist, whose
    "original precision float32 will be preserved" (atlasatcparam_16_0071, the ``ops_info.json``
    example; keys ``black-list``/``white-list``/``gray-list``, each ``to-add``/``to-remove``).  The list
    holds Ascend IR op types, so it widens the fix to every node of a type; ONNX type names are written
    and Ascend IR's may differ (Conv is Conv2D there); no other JSON key is documented, so that caveat is
    said here, not in the file.
``sigmastar_input_config.ini``
    ``[CONV_CONFIG]`` ``tensor_arrays='T1,T2';``: convolutions whose input tensor is listed are quantised
    INT16.  The section is the optional one "to configure the quantization information for convolution"
    (SigmaStar IPU toolchain docs, doc.comake.online IPU_Sigdoc_en "Model Conversion" §1.1); only
    convolution inputs can be set to INT16, so for a non-convolution node configure the convolutions
    before and after it (SigmaStar's precision guide §3.2.6, ../shared/seeds/004); the quoted,
    comma-separated, ``;``-terminated value as a public SGS_IPU_SDK v1.7 walk-through writes it
    (``tensor_arrays='conv1-1,conv2-1';``); ``input_format=ALL_INT16;`` (§3.2.2, every convolution) is
    left as a comment.
``rknn_hybrid_quantization.cfg``
    The ``custom_quantize_layers:`` block of the ``*.quantization.cfg`` that RKNN-Toolkit2's
    ``hybrid_quantization_step1`` writes, for step 2: YAML, one ``<output tensor name>: float16`` per
    layer, data types ``int8``, ``int16``, ``float16`` (rockchip-linux/rknn-toolkit2
    ``rknn-toolkit2/examples/functions/hybrid_quant/step1.py``, its printed instructions).  Keys are
    the kept nodes' output tensor names, JSON-quoted (valid YAML whatever the name holds).
``nncf_ignored_scope.json``
    ``nncf.IgnoredScope(names=[...])`` (NNCF API: ``names`` are node names of the model); tests/test_fix.py
    has NNCF match them strictly against the fixed model's NNCF graph where NNCF is installed.
``tensorrt_layer_precisions.txt``
    Polygraphy ``--layer-precisions NAME:float32 ...`` with ``--precision-constraints obey`` (Polygraphy's
    ``tools/args/backend/trt/loader.py``: ``<layer_name>:<layer_precision>``, precisions are TensorRT type
    aliases such as ``float32``, parsed by ``args_util.parse_arglist_to_dict``; tests/test_fix.py parses
    the line back with it), and trtexec ``--layerPrecisions=NAME:fp32,...`` with
    ``--precisionConstraints=obey`` (trtexec ``--help``, NVIDIA/TensorRT ``samples/common/sampleOptions.cpp``:
    ``spec ::= layerPrecision[","spec]``, ``layerPrecision ::= layerName":"precision``, ``precision ::=
    "fp32"|"fp16"|"bf16"|"int32"|"int8"``; later specs override earlier ones; a name may hold at most one
    ``*`` wildcard).  A name with ``,`` cannot be written in that spec: the line says so instead.
    TensorRT's ONNX parser names layers after ONNX node names.  Names are shell-quoted.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import onnx

from dumpscope.core.atomic import write_text
from dumpscope.core.fix.search import Change
from dumpscope.core.onnx.graph import GraphFacts, NodeFacts, graph_facts
from dumpscope.core.onnx.patch import patch_model

FILES = (
    "model.fixed.onnx",
    "onnxconverter_common.json",
    "atc_keep_dtype.cfg",
    "atc_modify_mixlist.json",
    "sigmastar_input_config.ini",
    "rknn_hybrid_quantization.cfg",
    "nncf_ignored_scope.json",
    "tensorrt_layer_precisions.txt",
)


def kept_names(changes: Sequence[Change]) -> list[str]:
    return sorted({c.node for c in changes if c.kind == "keep"})


def emit(proto: onnx.ModelProto, changes: Sequence[Change], out: Path, target: str = "fp16") -> list[Path]:
    """Write every file of :data:`FILES` for ``changes`` (a fix for ``target``) into ``out``; the paths."""
    from dumpscope.core.onnx.model_io import write_model
    from dumpscope.core.onnx.patch import _validate

    out.mkdir(parents=True, exist_ok=True)
    patched = patch_model(
        proto,
        keep_fp32=kept_names(changes),
        clip=[(c.node, c.low, c.high) for c in changes if c.kind == "clip"],
    ).model
    _validate(patched)
    keep = kept_names(changes)
    facts = graph_facts(patched.graph)
    by_name = {n.name: n for n in facts.nodes}
    types = sorted({by_name[n].op_type for n in keep if n in by_name})
    written = [write_model(patched, out / "model.fixed.onnx")]
    texts = {
        "onnxconverter_common.json": json.dumps({"node_block_list": keep}, indent=2) + "\n",
        "atc_keep_dtype.cfg": "".join(f"{n}\n" for n in keep),
        "atc_modify_mixlist.json": json.dumps({"black-list": {"to-add": types}}, indent=2) + "\n",
        "sigmastar_input_config.ini": _sigmastar(keep, facts),
        "rknn_hybrid_quantization.cfg": _rknn(keep, by_name),
        "nncf_ignored_scope.json": json.dumps({"ignored_scope": {"names": keep}}, indent=2) + "\n",
        "tensorrt_layer_precisions.txt": _tensorrt(keep, target),
    }
    for name, text in texts.items():
        write_text(text, out / name)
        written.append(out / name)
    return written


def _sigmastar(keep: list[str], facts: GraphFacts) -> str:
    """``[CONV_CONFIG]`` with the first input tensor of each kept convolution, or of the convolutions that
    read or feed a kept non-convolution node."""
    tensors: list[str] = []
    notes: list[str] = []
    by_name = {n.name: n for n in facts.nodes}
    for name in keep:
        node = by_name.get(name)
        if node is None:
            continue
        if node.op_type == "Conv":
            tensors.append(node.inputs[0])
            continue
        after = [c for o in node.outputs for c in facts.consumers.get(o, ())]
        before = [facts.producer.get(i) for i in node.inputs]
        near = [c for c in (*after, *before) if c is not None and c.op_type == "Conv"]
        tensors += [c.inputs[0] for c in near]
        notes.append(
            f"# {name} ({node.op_type}) is not a convolution: "
            + (
                f"the convolutions next to it: {', '.join(c.name for c in near)}"
                if near
                else "no convolution next to it; INT16 cannot be set for it here"
            )
        )
    tensors = list(dict.fromkeys(tensors))
    body = (
        [f"tensor_arrays='{','.join(tensors)}';"] if tensors else ["# no convolution input to set to INT16"]
    )
    every = "# or every convolution in INT16: input_format=ALL_INT16;"
    return "\n".join(["[CONV_CONFIG]", *notes, *body, every]) + "\n"


def _rknn(keep: list[str], by_name: dict[str, NodeFacts]) -> str:
    lines = [
        "# paste into the custom_quantize_layers section of the *.quantization.cfg written by",
        "# rknn.hybrid_quantization_step1, then run hybrid_quantization_step2",
        "custom_quantize_layers:",
    ]
    for name in keep:
        node = by_name.get(name)
        for out in node.outputs if node is not None else (name,):
            lines.append(f"    {json.dumps(out)}: float16")
    return "\n".join(lines) + "\n"


def _tensorrt(keep: list[str], target: str = "fp16") -> str:
    if not keep:
        return "# nothing to keep in float32\n"
    import shlex

    flag = {"fp16": "--fp16", "bf16": "--bf16", "int8": "--int8"}.get(target, "--fp16")
    poly = " ".join(shlex.quote(f"{n}:float32") for n in keep)
    obey = "--precision-constraints obey"
    lines = [f"polygraphy convert MODEL.onnx {flag} {obey} --layer-precisions {poly} -o model.engine"]
    commas = [n for n in keep if "," in n]
    if commas:
        lines.append(
            f"# trtexec --layerPrecisions cannot name {', '.join(map(repr, commas))} (a ',' in the name)"
        )
    else:
        trt = shlex.quote("--layerPrecisions=" + ",".join(f"{n}:fp32" for n in keep))
        lines.append(f"trtexec --onnx=MODEL.onnx {flag} --precisionConstraints=obey {trt}")
    return "\n".join(lines) + "\n"
