"""A fix written in each toolchain's own terms (``dumpscope fix --emit DIR``).

Every file goes through :mod:`dumpscope.core.atomic`.  Where each format rule comes from
(tests/core/fix/test_fix.py checks each file against the same sources, field by field, or parses it back with
the tool where it installs):

The change kinds (:class:`~dumpscope.core.fix.search.Change`) in each toolchain's terms: a kept node is
named in every list; a graph input kept in float32 (``keep_input``) is, in a converter's terms, the input
left float32 and the nodes reading it computed in float32 (those nodes are listed with the kept ones, and
the file says why); a Clip of an input (``clip_input``) is in ``model.fixed.onnx`` only (convert that
file); per-channel weights and calibration ranges (int8) are onnxruntime quantizer options
(``onnxruntime_quantization.json``).  Where a toolchain has no way to say a change, its file says so in a
comment (a ``"_comment"`` list in JSON; the ATC files take no comment, so ``atc_command.txt`` carries
them), never dropping it silently.

``model.fixed.onnx``
    The model patched by :func:`dumpscope.core.onnx.patch.patch_model` (Clips inserted, the kept nodes
    marked in ``metadata_props``); onnx's checker validates it.
``onnxconverter_common.json``
    ``{"node_block_list": [...]}``: the keyword of ``onnxconverter_common.float16.convert_float_to_float16``
    (its signature: ``node_block_list=None``, a list of node names left in float32; ``keep_io_types``, a
    bool, true when an input is kept: the converter then leaves every float graph input float32).  Unnamed
    nodes are named in ``model.fixed.onnx`` (the converter matches ``node.name``), so convert that file.
    Pass every key but ``_comment`` as keyword arguments.
``atc_keep_dtype.cfg``
    ATC ``--keep_dtype=FILE``: one operator name per line, the operators keep their original precision;
    used with ``--precision_mode_v2`` (hiascend.com CANN ATC parameter reference, "--keep_dtype",
    atlasatcparam_16_0074: "lists operator names or operator types ... each operator in a separate
    line"; ``OpType::TYPE`` lines name a type, not used here; no comment syntax is documented, so none
    is written).
``atc_command.txt``
    The ``atc`` command line that reads the two files below (``--framework=5`` is ONNX,
    ``--precision_mode_v2``, ``--keep_dtype``, ``--modify_mixlist``: hiascend.com ATC parameter reference),
    and, as ``#`` lines, what ATC cannot say (an input clip: in the model; int8 changes: ATC does not
    quantise) and how an input stays float32 (ATC's ``--input_fp16_nodes`` names the inputs fed as float16;
    leaving the input out of it keeps it float32).
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
    the kept nodes' output tensor names, JSON-quoted (valid YAML whatever the name holds).  Step 2 refuses a
    name its step-1 cfg does not list, and RKNN fuses much (Conv with BatchNormalization, a bias Add, SiLU,
    HardSwish; shape arithmetic folded): given that cfg (``fix --rknn-cfg``), each name is the layer it
    lists; else a Conv read only by a BatchNormalization is named by the BN's output and the file says to
    check.  ``bench/rknn_hybrid_check.py`` has RKNN-Toolkit2 build the pasted file.
``nncf_ignored_scope.json``
    ``nncf.IgnoredScope(names=[...])`` (NNCF API: ``names`` are node names of the model); tests/test_fix.py
    has NNCF match them strictly against the fixed model's NNCF graph where NNCF is installed.
``onnxruntime_quantization.json``
    ``{"nodes_to_exclude": [...], "per_channel": false, "extra_options": {"TensorQuantOverrides":
    {tensor: [{"axis": A}] | [{"rmin": LO, "rmax": HI}]}}}``: the keywords of
    ``onnxruntime.quantization.quantize_static``
    (its docstring: ``TensorQuantOverrides``' ``axis`` makes one weight per channel, ``rmin``/``rmax``
    override the calibration range; onnxruntime wants them as ``numpy.float32``), as the int8 recipe
    passes them (:func:`dumpscope.core.onnx.int8_target.tensor_quant_overrides`); tests/core/fix quantise with
    them and run the result.  An int8 fix's file also says that ``dumpscope fix`` checks the QDQ graph as
    written, and what quantize_static's docstring advises on a host without VNNI (:data:`INT8_HOST_NOTE`).
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
from collections.abc import Mapping, Sequence
from pathlib import Path

import onnx

from dumpscope.core.atomic import write_text
from dumpscope.core.fix.change import Change
from dumpscope.core.onnx.graph import GraphFacts, graph_facts
from dumpscope.core.onnx.patch import patch_model

FILES = (
    "model.fixed.onnx",
    "onnxconverter_common.json",
    "atc_keep_dtype.cfg",
    "atc_modify_mixlist.json",
    "atc_command.txt",
    "sigmastar_input_config.ini",
    "rknn_hybrid_quantization.cfg",
    "nncf_ignored_scope.json",
    "onnxruntime_quantization.json",
    "tensorrt_layer_precisions.txt",
)


def kept_names(changes: Sequence[Change]) -> list[str]:
    return sorted({c.node for c in changes if c.kind == "keep"})


def patch_arguments(changes: Sequence[Change]) -> list[str]:
    """``changes`` as ``dumpscope patch`` options (every kind has one; the inverse of
    :func:`~dumpscope.core.fix.search.changes_from_commands` for keep and clip)."""
    options = {
        "keep": "--keep-fp32",
        "keep_input": "--keep-fp32-input",
        "per_channel": "--int8-per-channel",
        "clip": "--clip",
        "clip_input": "--clip",
        "calibrate": "--int8-range",
    }
    argv: list[str] = []
    for kind, option in options.items():
        chosen = [c for c in changes if c.kind == kind]
        if not chosen:
            continue
        ranged = kind in ("clip", "clip_input", "calibrate")
        values = [f"{c.node}={c.low!r},{c.high!r}" if ranged else c.node for c in chosen]
        argv += [option, *values]
    return argv


def input_readers(changes: Sequence[Change], facts: GraphFacts) -> dict[str, list[str]]:
    """Kept graph input -> the nodes reading it (kept in float32 too, in a converter's terms)."""
    return {
        c.node: [n.name for n in facts.consumers.get(c.node, ())] for c in changes if c.kind == "keep_input"
    }


def _unsaid(changes: Sequence[Change], readers: dict[str, list[str]], tool: str) -> list[str]:
    """One sentence for each change ``tool`` (a toolchain's list of nodes kept in float32) does not say as
    it is: how an input kept in float32 is said instead, a Clip of an input, the int8 quantizer options."""
    out = []
    for c in changes:
        if c.kind == "keep_input":
            out.append(
                f"input {c.node!r} kept in float32: its readers ({', '.join(readers[c.node]) or 'none'}) "
                f"are listed as kept, so they compute from it in float32"
            )
        elif c.kind == "clip_input":
            out.append(
                f"input {c.node!r} clipped to [{c.low:.7g}, {c.high:.7g}]: {tool} has no setting for it; "
                "the Clip is in model.fixed.onnx: convert that file"
            )
        elif c.kind in ("per_channel", "calibrate"):
            out.append(
                f"{c.text('int8')}: {tool} has no per-node setting for it; see onnxruntime_quantization.json"
            )
        elif c.kind == "clip":
            out.append(f"{c.text()}: the Clip is in model.fixed.onnx: convert that file")
    return out


def emit(
    proto: onnx.ModelProto,
    changes: Sequence[Change],
    out: Path,
    target: str = "fp16",
    rknn_tensors: Mapping[str, str] | None = None,
) -> list[Path]:
    """Write every file of :data:`FILES` for ``changes`` (a fix for ``target``) into ``out``; the paths.
    ``rknn_tensors``: those of RKNN's step-1 cfg (:func:`rknn_step1_tensors`), to name its layers."""
    from dumpscope.core.onnx.model_io import write_model
    from dumpscope.core.onnx.patch import _validate

    out.mkdir(parents=True, exist_ok=True)
    patched = patch_model(
        proto,
        keep_fp32=kept_names(changes),
        clip=[(c.node, c.low, c.high) for c in changes if c.kind in ("clip", "clip_input")],
        keep_inputs=[c.node for c in changes if c.kind == "keep_input"],
        per_channel=[c.node for c in changes if c.kind == "per_channel"],
        ranges=[(c.node, c.low, c.high) for c in changes if c.kind == "calibrate"],
    ).model
    _validate(patched)
    facts = graph_facts(patched.graph)
    readers = input_readers(changes, facts)
    keep = sorted({*kept_names(changes), *(n for names in readers.values() for n in names)})
    by_name = {n.name: n for n in facts.nodes}
    types = sorted({by_name[n].op_type for n in keep if n in by_name})
    written = [write_model(patched, out / "model.fixed.onnx")]
    converter: dict[str, object] = {"node_block_list": keep}
    if readers:
        converter["keep_io_types"] = True
    texts = {
        "onnxconverter_common.json": _json(converter, _unsaid(changes, readers, "onnxconverter-common")),
        "atc_keep_dtype.cfg": "".join(f"{n}\n" for n in keep),
        "atc_modify_mixlist.json": json.dumps({"black-list": {"to-add": types}}, indent=2) + "\n",
        "atc_command.txt": _atc(changes, readers, target),
        "sigmastar_input_config.ini": _sigmastar(keep, facts, _unsaid(changes, readers, "input_config.ini")),
        "rknn_hybrid_quantization.cfg": _rknn(keep, facts, _rknn_unsaid(changes, readers), rknn_tensors),
        "nncf_ignored_scope.json": _json(
            {"ignored_scope": {"names": keep}}, _unsaid(changes, readers, "NNCF's ignored_scope")
        ),
        "onnxruntime_quantization.json": _onnxruntime(patched, changes, target),
        "tensorrt_layer_precisions.txt": _tensorrt(keep, target, _trt_unsaid(changes, readers)),
    }
    for name, text in texts.items():
        write_text(text, out / name)
        written.append(out / name)
    return written


def _json(data: dict[str, object], notes: list[str]) -> str:
    """``data`` as indented JSON, with ``"_comment"``: ``notes`` when there are any."""
    return json.dumps(data | ({"_comment": notes} if notes else {}), indent=2) + "\n"


def _atc(changes: Sequence[Change], readers: dict[str, list[str]], target: str) -> str:
    """The atc command line reading the keep_dtype and modify_mixlist files, then what ATC cannot say."""
    mode = "mixed_bfloat16" if target == "bf16" else "mixed_float16"
    lines = [
        "atc --model=model.fixed.onnx --framework=5 --output=model --soc_version=SOC "
        f"--precision_mode_v2={mode} --keep_dtype=atc_keep_dtype.cfg --modify_mixlist=atc_modify_mixlist.json"
    ]
    if target == "int8":
        lines.append(
            "# int8: ATC does not quantise (Ascend's AMCT does); the kept nodes are for its skip list"
        )
    for c in changes:
        if c.kind == "keep_input":
            lines.append(
                f"# input {c.node!r} kept in float32: do not name it in --input_fp16_nodes (ATC then reads "
                f"it as the model declares it, float32); its readers "
                f"({', '.join(readers[c.node]) or 'none'}) are in atc_keep_dtype.cfg"
            )
    lines += [f"# {n}" for n in _unsaid([c for c in changes if c.kind != "keep_input"], readers, "ATC")]
    return "\n".join(lines) + "\n"


def _rknn_unsaid(changes: Sequence[Change], readers: dict[str, list[str]]) -> list[str]:
    """What RKNN-Toolkit2's custom_quantize_layers cannot say, and the rknn.config option that comes
    closest (``quantized_method``, ``quantized_algorithm``: one setting for every layer)."""
    out = []
    for c in changes:
        if c.kind == "per_channel":
            out.append(
                f"{c.text('int8')}: no per-layer setting here; rknn.config(quantized_method='channel') "
                "quantises every layer's weights per channel"
            )
        elif c.kind == "calibrate":
            out.append(
                f"{c.text('int8')}: no per-tensor range here; rknn.config(quantized_algorithm='mmse' or "
                "'kl_divergence') changes the calibration of every layer"
            )
        else:
            out += _unsaid([c], readers, "RKNN's custom_quantize_layers")
    return out


def _trt_unsaid(changes: Sequence[Change], readers: dict[str, list[str]]) -> list[str]:
    """What TensorRT's layer precisions cannot say (an input stays float32 as the ONNX model declares it
    unless ``--inputIOFormats`` says otherwise)."""
    out = []
    for c in changes:
        if c.kind == "calibrate":
            out.append(
                f"{c.text('int8')}: no layer-precision flag for it; TensorRT's network API sets one "
                "tensor's int8 range with ITensor.set_dynamic_range"
            )
        elif c.kind == "per_channel":
            out.append(f"{c.text('int8')}: no layer-precision flag for it")
        else:
            out += _unsaid([c], readers, "TensorRT")
    return out


#: How ``dumpscope fix`` checks an int8 fix (said of the product, not of the changes handed to :func:`emit`,
#: which may come from anywhere), and what onnxruntime's own quantize_static docstring says of
#: hosts whose CPU lacks VNNI: the CPU provider's fused int8 kernels there can lose accuracy that the QDQ
#: graph itself does not (measured 0.18 against a 0.1 tolerance on an AMD EPYC without VNNI,
#: tests/core/fix/test_change_kinds.py), and ``reduce_range`` (7-bit weights) "may improve the accuracy".
INT8_HOST_NOTE = (
    "dumpscope fix checks an int8 fix with the quantised QDQ graph run as written "
    "(onnxruntime, graph optimisations off); onnxruntime's CPU int8 kernels "
    "on an x86 CPU without VNNI can lose accuracy the graph does not: there, "
    "reduce_range=True (7-bit weights) may improve it (quantize_static's docstring)"
)


def _onnxruntime(patched: onnx.ModelProto, changes: Sequence[Change], target: str = "fp16") -> str:
    """``quantize_static``'s keywords for the int8 changes (see the module docstring); an int8 target's
    file says how ``dumpscope fix`` checks it (:data:`INT8_HOST_NOTE`)."""
    from dumpscope.core.onnx.int8_target import tensor_quant_overrides

    overrides = {
        t: [{k: float(v) if k in ("rmin", "rmax") else v for k, v in o.items()} for o in entries]  # type: ignore[arg-type]
        for t, entries in tensor_quant_overrides(patched).items()
    }
    data: dict[str, object] = {"nodes_to_exclude": kept_names(changes), "per_channel": False}
    if overrides:
        data["extra_options"] = {"TensorQuantOverrides": overrides}
    notes = ["rmin/rmax: pass each as numpy.float32"] if any(c.kind == "calibrate" for c in changes) else []
    notes += [
        f"{c.text()}: not a quantizer option; the change is in model.fixed.onnx: quantise that file"
        for c in changes
        if c.kind in ("clip", "clip_input", "keep_input")
    ]
    return _json(data, notes + [INT8_HOST_NOTE] * (target == "int8"))


def _sigmastar(keep: list[str], facts: GraphFacts, unsaid: Sequence[str] = ()) -> str:
    """``[CONV_CONFIG]`` with the first input tensor of each kept convolution, or of the convolutions that
    read or feed a kept non-convolution node; ``unsaid`` as comments."""
    tensors: list[str] = []
    notes: list[str] = [f"# {n}" for n in unsaid]
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


#: The largest step-1 cfg read (one short YAML block per tensor: a few hundred KB for a large model).
_RKNN_CFG_MAX = 64 << 20


def rknn_step1_tensors(path: Path) -> dict[str, str]:
    """Tensor -> its data type in the ``*.quantization.cfg`` written by ``rknn.hybrid_quantization_step1``
    (``quantize_parameters``): step 2 takes no other name (``Invalid operands name``)."""
    import stat

    import yaml

    try:
        st = Path(path).stat()
        if not stat.S_ISREG(st.st_mode):  # a FIFO or device would block or never end: never opened
            raise ValueError(f"{path}: not a regular file; not opened")
        if st.st_size > _RKNN_CFG_MAX:
            raise ValueError(
                f"{path}: {st.st_size} bytes, more than a step-1 cfg ({_RKNN_CFG_MAX >> 20} MiB)"
            )
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8", errors="replace"))
    except (OSError, yaml.YAMLError, RecursionError) as exc:
        raise ValueError(f"{path}: cannot read it as the step-1 cfg: {exc}") from exc
    params = data.get("quantize_parameters") if isinstance(data, dict) else None
    if not isinstance(params, dict):
        raise ValueError(f"{path}: no quantize_parameters mapping: not a cfg hybrid_quantization_step1 wrote")
    return {str(k): str(v.get("dtype")) if isinstance(v, dict) else "?" for k, v in params.items()}


def _rknn_layer(tensor: str, facts: GraphFacts, listed: Mapping[str, str]) -> str | None:
    """The tensor RKNN lists for the layer computing ``tensor``: itself, else the first listed one down its
    chain of sole readers (RKNN fuses a Conv with the BatchNormalization, bias Add or activation after it
    and lists the group's last tensor); None where the chain forks or ends first, or where the tensor is a
    shape another node reads (shape arithmetic RKNN folds at the fixed input size, no layer of its own)."""
    seen = set()
    while tensor not in listed and tensor not in seen:
        seen.add(tensor)
        readers = facts.consumers.get(tensor, ())
        if len(readers) != 1 or len(readers[0].outputs) != 1:
            return None
        if readers[0].op_type in _SHAPE_READERS and readers[0].inputs[:1] != (tensor,):
            return None
        tensor = readers[0].outputs[0]
    return tensor if tensor in listed else None


#: Ops whose inputs after the first are shapes, sizes or indices.
_SHAPE_READERS = frozenset({"Reshape", "Expand", "Tile", "Slice", "Resize", "Upsample", "Pad", "Range"})


def _rknn_refuses(tensor: str, dtype: str, facts: GraphFacts) -> bool:
    """Step 2 refuses (``Invalid operands name``) a listed tensor step 1 left int16 or int32, and a graph
    input; it took int8 ones, a float32 graph output (YOLOv8n) and a float16 one (PP-OCR cls; measured,
    RKNN-Toolkit2 2.5.0)."""
    return dtype in ("int16", "int32") or tensor in facts.graph_inputs


def _rknn(
    keep: list[str], facts: GraphFacts, unsaid: Sequence[str] = (), listed: Mapping[str, str] | None = None
) -> str:
    """Step 2 refuses a tensor its graph lacks (``Invalid operands name``).  With the step-1 cfg's tensors
    (``listed``), each kept node's output is named by the layer RKNN lists for it (:func:`_rknn_layer`), or
    left out with a comment; without them, a Conv whose output only a BatchNormalization reads is named by
    the BN's output (RKNN folds the two; measured, RKNN-Toolkit2 2.5.0) and the file says to check."""
    by_name = {n.name: n for n in facts.nodes}
    lines = [
        "# paste into the custom_quantize_layers section of the *.quantization.cfg written by",
        "# rknn.hybrid_quantization_step1, then run hybrid_quantization_step2; step 2 refuses a name",
        "# not listed under quantize_parameters there"
        + (
            " (each name below is)"
            if listed is not None
            else "; given that cfg, dumpscope fix --rknn-cfg FILE names the layers it lists"
        ),
        *(f"# {n}" for n in unsaid),
    ]
    named: list[str] = []
    for name in keep:
        node = by_name.get(name)
        for out in node.outputs if node is not None else (name,):
            readers = facts.consumers.get(out, ())
            layer: str | None = out
            if listed is not None:
                layer = _rknn_layer(out, facts, listed)
                if layer is not None and _rknn_refuses(layer, listed[layer], facts):
                    lines.append(
                        f"# {name}: RKNN's step-1 cfg has {layer!r} as {listed[layer]}, which step 2 refuses "
                        "to name: not named"
                    )
                    layer = None
                elif layer is None:
                    lines.append(
                        f"# {name}: RKNN's step-1 cfg lists no layer for {out!r} (folded, or fused where the "
                        "graph forks): not named, step 2 would refuse it"
                    )
                elif layer != out:
                    lines.append(
                        f"# {name}: {out!r} is not listed (fused); named by the first one down its chain: "
                        f"{layer!r}"
                    )
            elif (
                node is not None
                and node.op_type == "Conv"
                and [r.op_type for r in readers] == ["BatchNormalization"]
            ):
                layer = readers[0].outputs[0]
                lines.append(
                    f"# {name}: its output {out!r} is folded with {readers[0].name!r} into one layer"
                )
            if layer is not None and layer not in named:
                named.append(layer)
    lines += ["custom_quantize_layers:", *(f"    {json.dumps(t)}: float16" for t in named)]
    return "\n".join(lines) + "\n"


def _tensorrt(keep: list[str], target: str = "fp16", unsaid: Sequence[str] = ()) -> str:
    notes = [f"# {n}" for n in unsaid]
    if not keep:
        return "\n".join(["# nothing to keep in float32", *notes]) + "\n"
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
    return "\n".join([*lines, *notes]) + "\n"
