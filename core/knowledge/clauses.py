"""Reason clauses: a vendor's own constraint wording, read out of a message that a card answers.

A card says what a code or a tool's error means in general: Ascend's ``EZ1001`` (an aclnn parameter check
failed), TensorRT's ``Error Code 3``, onnxruntime's status codes, an envelope that captured the message's
``Reason:``, the ONNX parser's importer assertion, a tool's family card.  The message usually says more: the
constraint the call broke, in the wording of the check that printed it (``The self tensor cannot be larger
than 8 dimensions.`` is CANN's ``OP_CHECK_MAX_DIM``).  A clause is one such wording with what it means and
what to do, its values filled in.  The best-ranked card of a tool whose own part of the message holds a
clause of that tool answers with the clause's cause and fix (:func:`refine`); it keeps its tool, code and
keys, so the code the message printed is still shown; its source names both.

A clause speaks only where its wording is present: a card without one keeps its own text.
Clauses are compiled on first use, only when their literal is in the text.
"""

from __future__ import annotations

import re
from collections import namedtuple

from dumpscope.core.knowledge.entry import Entry
from dumpscope.core.knowledge.index import RUNTIME_FAMILIES
from dumpscope.core.knowledge.reasons import CHECK, named_parts, reason_line
from dumpscope.core.knowledge.tracebacks import MAX_FRAMES_LINES, traceback_end
from dumpscope.core.knowledge.words import is_common_word

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from dumpscope.core.knowledge.kb import Match

ANY = "*"
"""A clause of text any tool prints (the dynamic loader, a missing file): it refines any tool's card."""


class Clause(
    namedtuple(
        "Clause", "id families literal pattern cause fix source context scope unless", defaults=("", "", "")
    )
):
    """One vendor wording: ``literal`` (lower-cased) must be in the text before ``pattern`` is compiled;
    ``context``, when set, is searched in the whole message for parts the card's own text does not hold
    (the ONNX parser's ``importConv`` names the op type of an assertion).  ``scope`` :data:`REASON`: a
    reason clause, one tool-neutral wording of why something failed (an operator or a data type not
    supported, an inferred shape that differs...), which answers only a card that says nothing of the
    message (a family card, a code-range or scheme entry, an envelope), never a code card.  ``unless``,
    when set, is a wording of the message's own line that says the clause's reading is not this failure's:
    the clause does not speak there (an ONNX parser assertion under a file or graph ErrorCode is no
    requirement of a node)."""

    __slots__ = ()
    id: str
    families: tuple[str, ...]
    literal: str
    pattern: str
    cause: str
    fix: str
    source: str
    context: str
    scope: str
    unless: str


REASON = "reason"
"""The :attr:`Clause.scope` of a reason clause."""

CALL = "call"
"""The :attr:`Clause.scope` of a call clause: what a code means for the API call that returned it (AscendCL's
``aclrtMalloc ... error code is 207001``).  Its pattern captures ``call`` and ``code``; it answers only a code
card (:func:`is_code_card`) of that very code.  In its cause and fix, ``{card}`` and ``{card_fix}`` stand for
the card's own cause and fix (a rendering that names the call and keeps what the card says of the code)."""


_OP_ERROR_CHECK = "CANN ops sources: opdev op_error_check.h (OP_CHECK_* parameter checks of every aclnn API)"
_ACLNN_HEAD = (
    "The aclnn API's parameter check rejected the call before any kernel ran (in GetWorkspaceSize): "
)
_ONNX_TRT = "onnx/onnx-tensorrt: builtin_op_importers.cpp (ASSERT conditions of each op importer)"
_TRT_IMPORT = (
    r"(?:(?:In node |While parsing node number )(?P<index>\d{1,9})(?: \[[^\n]{0,300}\n)?[^\n]{0,300}?)?"
    r"(?:with name: (?P<op>[^\s]{1,200}) and operator: \w{1,60} )?"
    r"(?:(?:\(|In function )import(?P<op_type>[A-Z]\w{0,60})|In function \w{1,80}:)"
)
"""Where the ONNX parser's message names the node of an importer's assertion: its number (``In node 12``,
``While parsing node number 12 [Op -> ...]`` the line before), its name and its importer
(``importResize``)."""
_TRT_NOT_A_NODE = (
    r"\b(?:MODEL_DESERIALIZE_FAILED|INVALID_GRAPH|UNSUPPORTED_GRAPH|MEM_ALLOC_FAILED|REFIT_FAILED)\b"
    r"|(?m:^[^\S\n]{0,8}\[(?:2|3|5|7|14)\] )|\((?:deserializeOnnxModel|parseFromFile|importModel)\)"
)
"""The ONNX parser's ErrorCodes of a failure of the file or of the whole graph (NvOnnxParser.h's
``kMODEL_DESERIALIZE_FAILED`` 3, ``kINVALID_GRAPH`` 5, ``kUNSUPPORTED_GRAPH`` 7, ``kMEM_ALLOC_FAILED`` 2,
``kREFIT_FAILED`` 14, by name or as ModelImporter's ``[N]``) and the functions that check the file before
any node: its op importers assert with the node codes (``kINVALID_NODE``, ``kUNSUPPORTED_NODE*``), so an
assertion under one of these is no requirement of a node."""

_TRT_BUILDER_ASSERT = _TRT_NOT_A_NODE + r"|Assertion `|nvinfer1::builder::"
"""Besides :data:`_TRT_NOT_A_NODE`: a C ``assert()`` (glibc's "file: function: Assertion `cond' failed.") or a
function of TensorRT's builder (``nvinfer1::builder::``, its tactic optimizer's format checks): TensorRT's own
library failed its check, so a ``cond && "text"`` in it is no requirement an ONNX parser importer stated."""

_TRT_REQUIREMENT = (
    "The ONNX parser's importer for {op_type|this op} (node number {index|not shown}) states what it "
    'requires in its own words: "{value}"; this graph does not meet it.',
    'Change the {op_type|failing} node {op|} to meet "{value}" (its attributes, the ranks or types of '
    "its inputs, or an input made constant by folding), or replace it with ops TensorRT imports; a "
    "newer TensorRT release may lift the restriction (the importer's release notes say so). "
    "The check is the parser's own ({arg|in onnx-tensorrt's op importers}).",
)
"""Cause and fix of a requirement the ONNX parser states in its own words (both assertion layouts)."""

_ORT_NODE = (
    r"Non-zero status code returned while running (?P<arg>\w{1,80}) node\.\s{0,4}Name:'(?P<op>[^'\n]{1,200})'"
)
"""Where onnxruntime's run-time envelope names the node whose kernel printed a clause's wording (read from the
whole message when the card that answers is a status-code card, which captures no node)."""

_ORT_LOCATION = (
    r"(?s:.*)(?P<path>onnxruntime[/\\]{}[/\\][^\s:'\"]{{1,200}}"
    r"\.(?:cc|cpp|cu|h|hpp)):(?P<line>\d{{1,6}})(?:[ \t]{{1,4}}|[ \t]{{0,4}}\n[ \t]{{0,8}})"
    r"(?P<detail>[^\s][^\n]{{2,300}})"
)
"""An onnxruntime exception's location (OnnxRuntimeException's what(): '<path>:<line> <function> [<cond> was
false.] <message>') under the component ``{}`` names, and the text after it on its line or the next."""
_ORT_BARE = (
    r"Non-zero status code returned while running (?P<arg>{}) node\."
    r"(?:\s{{0,4}}Name:'(?P<op>[^'\n]{{0,200}})'|(?!\s{{0,4}}Name:))"
    r"(?!\.?\s{{0,4}}Status Message:\s{{0,8}}\S)"
)
"""onnxruntime's run-time envelope around the op types ``{}`` names, with no Status Message after it (or an
empty one): what the op type alone says of the failure."""
_ORT_EXCEPTIONS = (
    "microsoft/onnxruntime: include/onnxruntime/core/common/exceptions.h (FormatErrorMessage: the "
    "location's path and line, the function, '<condition> was false.', the message)"
)

_TRT_LEAN = "tensorrt_lean_cu12_libs 11.4.0.106 wheel, libnvinfer_lean"
_TRT_RUNTIME_H = "NVIDIA/TensorRT: include/NvInferRuntime.h"
_TRT8_RUNTIME_H = "NVIDIA/TensorRT 8.x: include/NvInferRuntime.h"
_TRT_HEADERS_H = (
    "NVIDIA/TensorRT: include/NvInfer.h, include/NvInferRuntime.h (the interfaces and their methods)"
)
_TRT_CHECK_AT = (
    r"(?:Parameter check failed at: (?:[^\s,]{1,200}?::)?(?P<call>[A-Za-z_]\w{0,99})(?:::\d{1,6})?, "
    r"|Parameter check failed, )condition: "
)
"""Where TensorRT's parameter check names the function (TensorRT 8: 'Parameter check failed at:
<file>::<function>::<line>, condition: '; TensorRT 10: 'Parameter check failed, condition: ', the function
before the ErrorCode, read by :data:`_TRT_CALL_CONTEXT`)."""
_TRT_CALL_CONTEXT = r"(?P<call>I[A-Z]\w{2,40}::[A-Za-z]\w{1,60}): Error Code"
"""TensorRT 10's '<interface>::<function>: Error Code N: ...' (the function whose parameter check failed)."""
_TRT_PARAMETER_CHECK = (
    r"Parameter check failed(?: at: (?:[^\s,]{1,200}?::)?(?P<call>[A-Za-z_]\w{0,99})(?:::\d{1,6})?)?, "
    r"condition: (?P<value>[^\n]{1,300}?)[ \t.]{0,4}(?:\n|$)"
)
"""Any TensorRT parameter check, the function (TensorRT 8's form) and the condition: the generic clause's and
its stage clauses' pattern (:data:`TRT_CHECK_STAGES`)."""
_TRT_NULL_CAUSE = (
    "TensorRT reads and writes every input and output of the engine through an address the application "
    "gives it; a missing one stops the launch before any layer runs."
)
_TRT_NULL_FIX = (
    "allocate a buffer for every I/O tensor of the engine (for i in range(engine.num_io_tensors): "
    "engine.get_tensor_name(i)), outputs included, and keep the arrays that own them alive until the stream "
    "is synchronised."
)
"""The TensorRT runtime's checks of the addresses of an engine's inputs and outputs (enqueueV3, executeV2)."""

_VECTOR_CAUSE = (
    "A bounds check of the C++ standard library stopped the tool: it indexed past the end of a std::vector"
    " of {value|elements} (libstdc++'s assertions or MSVC's debug check; without the check the read would "
    "have gone out of bounds). In a model loader or a graph pass this is nearly always a node with fewer "
    "inputs or outputs, or a shape of lower rank, than the code reading it expects."
)
_VECTOR_FIX = (
    "Find that node: validate the model with onnx.checker.check_model(model, full_check=True) and "
    "onnx.shape_inference.infer_shapes(model, strict_mode=True), and compare the input and output count of "
    "the nodes the tool handles last with their operator's schema at the model's opset (an optional input "
    "left out in the middle, a missing output); re-export or repair that node."
)
_VECTOR_OF = r"\[with _Tp = (?P<value>[^;\]\n]{1,80})"

_NOT_A_VERB = (
    r"(?!(?:can|cannot|could|is|was|are|were|has|had|have|does|did|will|would|may|must|should|not|of|in|on|"
    r"with|for|from|to|by|at|the|a|an|that|which|this|it|type|types)\b)"
)
"""What follows "node" or "op" in running English ("node can not be handled") is no op's name: a verb or a
function word after the keyword is not captured as one."""

_NOT_SUPPORTED_CAUSE = (
    "{op} is an operation this tool cannot convert or run as installed: it has no converter or kernel for "
    "it, or none for these attributes, input types or this opset."
)
_NOT_SUPPORTED_FIX = (
    "Keep {op} out of what the tool sees: check the tool's list of supported operators for the version you "
    "run (another opset or a later release may list {op}); otherwise express {op} with operators the list "
    "has (rewrite that layer in the source model, or register a custom converter, symbolic or plugin for "
    "it), or, when {op} is only in pre- or post-processing, cut the model before it and run that part "
    "outside."
)
UNSUPPORTED_OP_CLAUSES = frozenset(
    {"operator-not-supported-list", "operator-is-not-supported", "operator-unsupported"}
)
"""The reason clauses of an operator a tool has no converter or kernel for, in any tool's wording: their fix
is tool-neutral, so the tool's own way to add or replace an operator (:data:`UNSUPPORTED_OP_STEPS`) follows
it."""
UNSUPPORTED_OP_STEPS = {
    "torch_onnx": "For torch.onnx: register a symbolic for {op} before exporting "
    "(torch.onnx.register_custom_op_symbolic('{op}', symbolic_fn, opset_version), the function building it "
    "from ONNX ops with g.op), export at a higher opset_version when the message says a later opset added "
    "it, or export with the dynamo-based exporter (torch.onnx.export(..., dynamo=True)), which decomposes "
    "many aten operators first.",
    "openvino": "For OpenVINO: map {op} with a frontend extension (openvino.frontend ConversionExtension or "
    "OpExtension, given to convert_model(extension=...) or core.add_extension) onto operations OpenVINO has, "
    "or check {op} in the frontend's supported-operations list of a newer release.",
    "tensorrt": "For TensorRT: implement {op} as a plugin (IPluginV2DynamicExt or IPluginV3, its creator in "
    "the plugin registry; the ONNX parser uses a registered plugin named as the node's op_type), or keep "
    "{op} out of the engine (onnxruntime's TensorRT EP leaves such nodes to CUDA or the CPU).",
    "qualcomm": "For QAIRT/SNPE: write an op package (UDO) for {op} and give it to the converter "
    "(--op_package_config / --udo_config_paths) and the runtime, or convert the model's ONNX export with "
    "qnn-onnx-converter / snpe-onnx-to-dlc, whose ONNX frontend covers other operators.",
    "rknn": "For RKNN-Toolkit2: give {op} a custom-operator class (shape_infer and compute) registered with "
    "rknn.reg_custom_op before load_onnx, and its kernel with rknn_register_custom_ops on the board; or "
    "replace {op} in the ONNX model.",
    "mnn": "For MNN: MNNConvert -f <framework> --OP lists the operators this converter takes; a missing one "
    "needs an op converter under tools/converter/source and an Execution for the backend.",
    "coreml": "For coremltools: register a translation for {op} built from MIL ops (@register_torch_op for a "
    "PyTorch op, @register_tf_op for a TensorFlow one) before ct.convert.",
    "onnxruntime": "For onnxruntime: give the session a custom-op library that implements {op} "
    "(SessionOptions.register_custom_ops_library; onnxruntime-extensions holds many), or check that the "
    "model's opset and the execution provider both support it.",
    "tflite": "For the TFLite converter: allow TensorFlow ops (converter.target_spec.supported_ops = "
    "[tf.lite.OpsSet.TFLITE_BUILTINS, tf.lite.OpsSet.SELECT_TF_OPS], run with the Flex delegate) or "
    "converter.allow_custom_ops = True with a custom kernel registered in the interpreter.",
}
"""Per tool, how it adds or replaces an operator it lacks, from its own documentation: torch.onnx's
register_custom_op_symbolic and dynamo exporter (pytorch.org 'torch.onnx'), OpenVINO's frontend extensions
('Frontend Extensions'), TensorRT's plugins (developer guide 'Extending TensorRT with Custom Layers'),
QAIRT/SNPE op packages (UDO), rknn-toolkit2's custom operators (examples/functions/custom_op:
rknn.reg_custom_op; rknn_custom_op.h), MNNConvert --OP and its converter sources, coremltools'
register_torch_op / register_tf_op ('Composite Operators'), onnxruntime's custom-op libraries, TFLite's Select
TF ops and custom ops.  The unsupported-operator clauses append the tool's line to their tool-neutral fix
(:func:`with_tool_steps`): that fix fits any tool, the line says how this one takes the operator."""


def with_tool_steps(clause_id: str, family: str, fix: str) -> str:
    """``fix`` of the clause ``clause_id``, followed by the tool's own way to add or replace an operator when
    the clause is an unsupported-operator one (:data:`UNSUPPORTED_OP_CLAUSES`) and the tool has one."""
    if clause_id not in UNSUPPORTED_OP_CLAUSES:
        return fix
    steps = UNSUPPORTED_OP_STEPS.get(family)
    return f"{fix} {steps}" if steps else fix


_DTYPE_CAUSE = (
    "The tool has no kernel or conversion for data type {dtype} where the message says: the types it "
    "takes there do not include {dtype} (int64, float64 and bool tensors are the ones accelerator "
    "toolchains most often lack)."
)
_DTYPE_FIX = (
    "Change {dtype} before the tool sees it: cast that input or constant to a type the tool lists (float32 "
    "or float16 for values, int32 for indices and shapes) in the source model or with a Cast at export, keep "
    "float64 out of the exported graph (model.float() in PyTorch, astype(np.float32) on inputs), and feed "
    "inputs in the type the model declares."
)

_RANK_CAUSE = (
    "{op|The operation} got a tensor of rank {value} (that many dimensions), more than the tool takes there "
    "({limit|its limit is lower}): its kernels and layouts are written for a fixed, smaller number of "
    "dimensions."
)
_RANK_FIX = (
    "Reshape so that {op|the operation} sees at most {limit|the supported number of} dimensions: merge "
    "adjacent dimensions it does not treat separately (batch and heads of an attention block, the leading "
    "dimensions of a Transpose or Softmax) in a Reshape before it and split them back after it; a Transpose "
    "of rank {value} can be done as two of lower rank."
)
_RANK_SOURCE = (
    "the tools' own wording of a rank limit ('Unsupported input rank N', 'rank N is not supported, max "
    "rank is M')"
)
_RANK_LIMIT = (
    r"(?:max(?:imum)? (?:supported )?rank|rank (?:must be |should be )?(?:<=|at most|up to))\s{0,4}"
    r"(?:is\s{1,4})?(?P<limit>\d{1,2})"
)
_NOT_A_MODEL_CAUSE = (
    "The file {path|given} is not a complete ONNX model: it could not be read as an ONNX ModelProto with "
    "a graph. Usual causes: a download that stopped early, a Git LFS pointer file in place of the "
    "model, an HTML error page saved under the model's name, a file of another format (a PyTorch .pt, a "
    "TensorFlow .pb), or a model over 2 GB saved without its external data."
)
_NOT_A_MODEL_FIX = (
    "Check the file's size and first bytes (ls -l, head -c 200 {path|the file}) against the published "
    "model; fetch it again (git lfs pull, or download it anew and compare its checksum); onnx.load and "
    "onnx.checker.check_model must pass before the tool can load it; a model over 2 GB must be saved "
    "with save_as_external_data=True and loaded with its data file beside it."
)
_IR_CAUSE = (
    "The model file has IR version {value}, newer than the newest this release of the tool reads "
    "({limit}): it was written by a newer onnx package (or exporter) than the one the tool was built with."
)
_IR_FIX = (
    "Upgrade the tool to a release that reads IR version {value} (onnxruntime's compatibility table maps "
    "each release to the IR versions and opsets it reads), or write the model with IR version {limit}: "
    "export with an onnx package of that age, or set model.ir_version = {limit} and onnx.save it when its "
    "opsets are ones IR version {limit} covers (onnx's Versioning doc lists them)."
)
_NO_SCHEMA_CAUSE = (
    "The model uses operator {op_type} (domain version {value|as the model declares}), for which the "
    "runtime's onnx has no schema: it is not a "
    "standard ONNX operator (a framework-private operator such as PyTorch's ATen fallback, a custom or "
    "contrib operator of another domain, a misspelt name), or the model declares an opset for its domain "
    "that this onnx release does not know for it."
)
_NO_SCHEMA_FIX = (
    "Check onnx.defs.has('{op_type}') and the model's opset_import: re-export with standard operators "
    "only (torch.onnx.export with the default operator_export_type, not ONNX_ATEN_FALLBACK; rewrite the "
    "layer that produced {op_type}); for a custom operator give its node its own domain and register the "
    "library that implements it (onnxruntime: SessionOptions.register_custom_ops_library); for a newer "
    "opset, upgrade the runtime or export at an older opset."
)
_XBYAK_LINE = r"(?:^|\n|\]\s{{0,3}}|:\s{{0,3}})(?P<value>{})[ \t.]{{0,4}}(?:\r?\n|$)"
"""An Xbyak error as the whole rest of its line (after a bracket or a colon): its what() is the bare text."""
_XBYAK_CAUSE = (
    "'{value}' is an error of Xbyak, the x86 JIT assembler with which OpenVINO's CPU plugin (and the "
    "oneDNN inside it) writes its kernels while the model is compiled: Xbyak refused an instruction "
    "the kernel generator asked for (bad combination: operands the instruction does not take; label is "
    "too far: a jump longer than its short form reaches; code is too big: a kernel larger than its "
    "buffer). The generator emitted code it should not have for this layer's sizes, precision or this "
    "CPU's instruction set: a fault of the plugin, not of the model."
)
_XBYAK_FIX = (
    "Make the CPU plugin choose other kernels: compile with ov::hint::inference_precision f32 (no bf16/"
    "f16 kernels), with static input shapes (model.reshape), or run on another device (GPU); try the "
    "previous and the next OpenVINO release, and report '{value}' with the model and the CPU's "
    "instruction sets (lscpu flags: avx2, avx512, amx) to OpenVINO."
)
_XBYAK_SOURCE = (
    "herumi/xbyak: xbyak/xbyak.h (enum Error and ConvertErrorToString: 'bad combination', 'label is too "
    "far', 'code is too big'...), bundled by openvinotoolkit/openvino's CPU plugin and its oneDNN fork "
    "(src/plugins/intel_cpu/thirdparty/onednn: cpu/x64/xbyak)"
)

_QNN_EP_IN_STATUS = r"\w{1,60}\.cc:\d{1,6} [\w:<>~`'-]{0,100}?qnn::[\w:<>~`'-]{1,200} "
"""What onnxruntime's status puts before a QNN EP op builder's reason: ``file.cc:NNN
onnxruntime::qnn::<Builder>::<function> ``."""


_QNN_EP_OWN = r"(?: EP[: ]| (?=[A-Z][A-Za-z0-9]{1,40}\b)| (?:doesn't|does not|requires|expects|only) )"
"""How a QNN EP op builder's reason goes on after its ``QNN``/``Qnn`` word: ``QNN EP:``, ``QNN <OpName>``
(``QNN BatchNorm``, ``Qnn Data Type``), ``QNN doesn't/requires/only ...``; not ``QNN runtime:`` or other
lower-case words of a QNN log."""
_QNN_EP_NOT_A_BUILDER = r"\(err \d{1,6}\)|QNN_ERROR|Qnn(?:Dsp|Htp|Gpu|Cpu|Saver)? <[EWIV]>|\[Qnn ExecuTorch\]"
"""A line of the QNN runtime or its SDK tools, not of onnxruntime's QNN EP: a bare reason clause does not read
it (an ``(err 1002)`` of QnnDevice_create is no op builder's refusal)."""


def _qnn_ep(clause_id: str, wording: str, cause: str, fix: str, source: str) -> tuple[Clause, Clause]:
    """A QNN EP op builder's reason class (``wording``, a regex of the words the class's reasons hold) in
    both forms it is printed in: after the ``file.cc:NNN onnxruntime::qnn::...`` onnxruntime's status puts
    before it (``clause_id``), and on its own, from its ``QNN``/``Qnn`` word on (``clause_id-bare``: a
    reason quoted without the status's location, on a line that is not the QNN runtime's own); the reason up
    to the line's end is ``value``."""
    body = rf"[^\n]{{0,200}}?{wording}[^\n]{{0,160}}"
    return (
        Clause(
            clause_id,
            ("qualcomm", "onnxruntime"),
            "qnn::",
            rf"{_QNN_EP_IN_STATUS}(?P<value>{body})",
            cause,
            fix,
            source,
            "",
            REASON,
        ),
        Clause(
            clause_id + "-bare",
            ("qualcomm", "onnxruntime"),
            "qnn",
            rf"(?<![\w:.])(?P<value>(?i:qnn){_QNN_EP_OWN}{body})",
            cause,
            fix,
            source,
            "",
            REASON,
            _QNN_EP_NOT_A_BUILDER,
        ),
    )


_QNN_EP_SOURCE = (
    "microsoft/onnxruntime: onnxruntime/core/providers/qnn/builder/opbuilder/*_op_builder.cc, "
    "qnn_model_wrapper.cc, qnn_utils.cc (IsOpSupported/ProcessInputs: ORT_RETURN_IF, ORT_RETURN_IF_NOT, "
    "ORT_MAKE_STATUS reasons); qnn_execution_provider.cc (IsNodeSupported: '<OpType> node `<name>` is not "
    "supported: <reason>'); the reasons as built in onnxruntime-qnn 2.7.0's onnxruntime_providers_qnn.dll"
)

_CUDNN_CAUSE = (
    "A cuDNN call of onnxruntime's CUDA provider ({call|the call is not in the message}) failed in "
    "{op|a node} with {status|an error status}. cuDNN's own meanings: CUDNN_STATUS_EXECUTION_FAILED, the GPU "
    "program failed to run; CUDNN_STATUS_NOT_SUPPORTED, this configuration (layout, data type, size) has no "
    "implementation; CUDNN_STATUS_ALLOC_FAILED, memory ran out; CUDNN_STATUS_ARCH_MISMATCH, the GPU is too "
    "old for the feature; CUDNN_STATUS_BAD_PARAM, an argument (a shape or descriptor) is invalid."
)
_CUDNN_FIX = (
    "Check that the cuDNN installed is the major version this onnxruntime-gpu release was built with (its "
    "CUDA provider requirements table) and that it supports this GPU; then narrow it down: run the same "
    "input on the CPU provider to confirm the model itself works, set the CUDA provider option "
    "cudnn_conv_algo_search to 'DEFAULT' (no algorithm search) or cudnn_conv_use_max_workspace to '0' for a "
    "convolution, and lower the batch or input size for an allocation failure."
)
_TRT_PROFILE_CONDITION = (
    r"condition: (?P<arg>profileMinDims\.d\[i\] <= dimensions\.d\[i\]|dimensions\.d\[i\] <= "
    r"profileMaxDims\.d\[i\]|profileMaxDims\.d\[i\] >= dimensions\.d\[i\]|dimensions\.d\[i\] >= "
    r"profileMinDims\.d\[i\])"
)
"""The conditions of setBindingDimensions that compare a shape with the optimization profile's kMIN and
kMAX, in both orders TensorRT's releases print them (``dimensions.d[i] <= profileMaxDims.d[i]``, TensorRT 7's
``profileMaxDims.d[i] >= dimensions.d[i]``)."""
_TRT_BINDING_DIMS_OUTSIDE_PROFILE = (
    "The shape {shape|} set with setBindingDimensions (TensorRT 7 and 8's setInputShape) on "
    "bindings[{index|i}] lies outside the range {value2|kMIN} .. {value3|kMAX} of the optimization "
    "profile {value|in use} ({arg|a dimension below the profile's kMIN or above its kMAX}).",
    "Read the profile's range (engine.get_profile_shape(profile, binding): min, opt, max) and feed "
    "shapes "
    "within it, or rebuild the engine with --minShapes/--optShapes/--maxShapes (IOptimizationProfile."
    "set_shape) covering the shapes you run; select the profile that covers them with "
    "set_optimization_profile_async before setting the shape.",
    _TRT_LEAN + " ('Supplied binding dimensions ', ' exceed min..max range for profile '); TensorRT 7/8 "
    "API IExecutionContext::setBindingDimensions (conditions profileMinDims.d[i] <= dimensions.d[i], "
    "dimensions.d[i] <= profileMaxDims.d[i])",
    r"Supplied binding dimensions (?P<shape>[\[(][-\d, ]{0,120}[\])]) for bindings\[(?P<index>\d{1,5})\] "
    r"exceed min ?(?:\.\.|~) ?max range for profile (?P<value>\d{1,4})(?:, where min is "
    r"(?P<value2>[\[(][-\d, ]{0,120}[\])]), opt is [\[(][-\d, ]{0,120}[\])], max is "
    r"(?P<value3>[\[(][-\d, ]{0,120}[\])]))?",
)
"""Cause, fix, source and extra pattern of both clauses of TensorRT 7/8's binding-dimension range check (its
condition, and the sentence that names the shapes)."""


def _ascend_call(calls: str, codes: str) -> str:
    """A call clause's pattern: one of ``calls`` named before one of ``codes`` on the same line."""
    return rf"\b(?P<call>(?:{calls}))\b[^\n]{{0,160}}?(?<![\w.])(?P<code>(?:{codes}))(?!\d)"


_ACL_CALL = r"(?:acl|Acl)(?:rt|mdl|op|nn|prof|tdt|dvpp)?[A-Z]\w{1,60}"
"""An AscendCL call as the C API spells it (``aclrtSynchronizeStream``) or as torch_npu's wrappers do
(``c10_npu::acl::AclrtSynchronizeStreamWithTimeout``)."""
_CALL_ANY = (
    "hicann/runtime: docs/zh/api_ref (each call's page: its parameters and constraints); "
    "include/external/acl/error_codes/rt_error_codes.h and include/external/acl/acl_base_rt.h (the codes)"
)
_MALLOC_CALLS = r"aclrtMalloc(?:Host|Cached|Align32|WithCfg)?|rtMalloc(?:Host|Cached)?"
_CALL_REF = (
    "hicann/runtime: docs/zh/api_ref/{} ({}); include/external/acl/error_codes/rt_error_codes.h and "
    "include/external/acl/acl_base_rt.h (the codes)"
)

_NOT_AN_OP = (
    r"(?:listed|below|above|found|detected|encountered|present|remaining|are|were|is|was|in|of|for|from|"
    r"with|that|which|here|exist)\b"
)
"""English words that follow "Unsupported operators" in a sentence ("Unsupported operators listed below:",
"... found in the graph"): after a space, not a colon, such a word is no op name."""


_GPU_PLATFORM_ADVICE = (
    "The GPU delegate could not set up the platform it runs on: {detail} ({api}). Before it "
    "looks at any op it needs an EGL display and context for its OpenGL ES backend, or a "
    "loadable OpenCL library and a context for its OpenCL backend; that step failed, so the "
    "model is not the cause. Typical reasons: no display or GLES 3.1 on the device (an "
    "emulator, a headless Linux box), an OpenCL library the app may not load (Android 12 "
    "and later hide vendor libraries from apps that do not declare them), or an EGL context "
    "already bound to this thread by another renderer.",
    "For an OpenCL failure on Android, declare the library in the app's manifest "
    '(<uses-native-library android:name="libOpenCL.so" android:required="false"/>) or let '
    "the delegate use OpenGL ES; for an EGL/GL failure, run the delegate on a device or "
    "thread with a usable EGL display (not an emulator or a process without one), create "
    "and use it on one thread, or force the other backend with the delegate's experimental "
    "flags (TFLITE_GPU_EXPERIMENTAL_FLAGS_CL_ONLY / GL_ONLY in TfLiteGpuDelegateOptionsV2); "
    "where neither backend is available, check for GPU support "
    "(CompatibilityList.isDelegateSupportedOnThisDevice) and fall back to XNNPACK on the "
    "CPU.",
    "tensorflow/tensorflow: tensorflow/lite/delegates/gpu/delegate.cc ('TfLiteGpuDelegate "
    "Init: ' + status message), delegates/gpu/gl/egl_environment.cc and egl_context.cc (EGL "
    "display and context set-up), delegates/gpu/cl/opencl_wrapper.cc (loading libOpenCL), "
    "delegates/gpu/delegate_options.h (TFLITE_GPU_EXPERIMENTAL_FLAGS_CL_ONLY / GL_ONLY); "
    "TensorFlow Lite GPU delegate docs (uses-native-library for OpenCL on Android 12, "
    "CompatibilityList)",
)
"""The cause, fix and source of the TFLite GPU delegate's platform clauses (EGL and OpenCL): one text."""


# --- s38c: a traceback whose last frame calls a native (compiled C++) function ----------------------------
# The last-resort traceback clauses send the reader to the raising frame's Python code ("the check just before
# the raise").  Where that frame only calls into a tool's C++ extension, or the exception is a class of one,
# there is no Python check to read: the text after the exception's name is the native library's status.  The
# calls are the tools' own Python sources': onnxruntime/python/onnxruntime_inference_collection.py
# (C.InferenceSession(...), sess.initialize_session(...), self._sess.run(...)), openvino's Python API
# (openvino/runtime/ie_api.py, openvino/_ov_api.py: super().compile_model(...), super().read_model(...)), and
# onnx's C++ extension classes (onnx.onnx_cpp2py_export.checker.ValidationError, ...shape_inference.
# InferenceError).  Left out: rknn (its frames are compiled Cython: no source line is printed to read a call
# from) and TensorRT's Python API (its native methods are called from the application's own frame).
_NATIVE_TAIL = (
    r"(?:(?![^\n]{{0,40}}File \")[^\n]{{0,300}}\n){{0,2}}?(?:E(?: \w{{1,30}}:)? )?"
    r"(?P<value>{value})(?::[ \t]{{0,4}}(?P<detail>[^\n]{{1,300}}))?[ \t]*(?:\n|$)"
)
"""After the last frame: at most two lines (the frame's source line, a caret line), then the exception
(``{value}``: its class) with its text, if any, to the end of its line."""
_NATIVE_FRAME = (
    r'File "(?P<file>[^"\n]{{0,300}}?{file})", line (?P<line>\d{{1,7}}), in (?P<call>[\w.<>]{{1,160}})\n'
    r"[^\n]{{0,200}}?(?P<native>{native})\([^\n]{{0,300}}\n"
)
"""A traceback's frame in ``{file}`` whose source line calls ``{native}``."""
_ANY_FRAME = r'File "(?P<file>[^"\n]{1,300})", line (?P<line>\d{1,7}), in (?P<call>[\w.<>]{1,160})\n'
_ANY_EXCEPTION = r"[A-Za-z_][\w.]{0,100}(?:Error|Exception)"
_NATIVE_CAUSE = (
    "The step failed with {value} ({detail|no message after its name}) out of native (compiled C++) code, "
    "not out of a check in Python: the traceback's last frame, {call} (line {line} of {file}), "
)
_NATIVE_FIX = (
    " There is no raise to read in {file}: that frame only passed the call on; the exception's text, when "
    "it has one, is the native library's own status (without one, look for the library's log lines just "
    "before the traceback). For the step in general: {card_fix}"
)


def _native_clause(key: str, where: str, does: str, step: str, source: str) -> Clause:
    """A last-resort clause (:data:`LAST_RESORT`) of a traceback that ends in native code: ``where`` the
    frame's and the exception's pattern, ``does`` what the native call does, ``step`` what to do first."""
    return Clause(
        f"python-native-call-{key}",
        (ANY,),
        'file "',
        where,
        _NATIVE_CAUSE + does,
        step + _NATIVE_FIX,
        "Python's traceback layout (the last frame and the exception after it); " + source,
        "",
        REASON,
    )


_ORT_COLLECTION = r"onnxruntime[/\\]capi[/\\](?:onnxruntime_inference_collection|session)\.py"
"""onnxruntime's Python session class (``capi/session.py`` before 1.5, as a dev message of 1.4 shows)."""
_ORT_PY = "microsoft/onnxruntime: onnxruntime/python/onnxruntime_inference_collection.py"
NATIVE_CALL_CLAUSES = (
    _native_clause(
        "ort-initialize-session",
        _NATIVE_FRAME.format(file=_ORT_COLLECTION, native=r"sess\.initialize_session")
        + _NATIVE_TAIL.format(value=_ANY_EXCEPTION),
        "calls {native}, the binding of onnxruntime's C++ InferenceSession initialisation: it registers "
        "the execution providers given in providers with their provider options, then optimises the graph "
        "as the session options say and assigns its nodes to those providers.",
        "Act on the status ({detail|none printed after the exception's name here}): the "
        "onnxruntime source file and function it names say which part failed; to tell the parts apart, "
        "create the session again with providers=['CPUExecutionProvider'] (an execution provider, its "
        "options or its libraries) and with SessionOptions.graph_optimization_level = "
        "onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL (a graph optimisation).",
        _ORT_PY + " (_create_inference_session: '# initialize the C++ InferenceSession', "
        "sess.initialize_session(providers, provider_options, disabled_optimizers)); "
        "onnxruntime/python/onnxruntime_pybind_state.cc (initialize_session: the providers registered, "
        "then InferenceSession::Initialize)",
    ),
    _native_clause(
        "ort-load-model",
        _NATIVE_FRAME.format(file=_ORT_COLLECTION, native=r"C\.InferenceSession")
        + _NATIVE_TAIL.format(value=_ANY_EXCEPTION),
        "calls {native}, the constructor of onnxruntime's C++ InferenceSession, which reads the model (from "
        "its path or its bytes) with the session options.",
        "Check the model it was given: the path as the process sees it, a complete .onnx file (with its "
        "external data files beside it), and onnx.checker.check_model(path, full_check=True) passing; the "
        "status text says which of these failed.",
        _ORT_PY + " (_create_inference_session: C.InferenceSession(session_options, self._model_path, "
        "True, ...) or the model's bytes)",
    ),
    _native_clause(
        "ort-run",
        _NATIVE_FRAME.format(file=_ORT_COLLECTION, native=r"_sess\.run(?:_with_[a-z_]{1,40})?")
        + _NATIVE_TAIL.format(value=_ANY_EXCEPTION),
        "calls {native}, onnxruntime's C++ InferenceSession run: it checks the feeds against the model's "
        "inputs and runs the nodes' kernels on the session's execution providers.",
        "Compare the feeds with sess.get_inputs() (names, shapes and element types: a float64 array for a "
        "float input is refused); when the status names a node, that node's kernel failed on these inputs: "
        "run the same feeds with providers=['CPUExecutionProvider'] to tell a provider's limit from the "
        "model's.",
        _ORT_PY + " (InferenceSession.run: self._sess.run(output_names, input_feed, run_options); "
        "run_with_iobinding, run_with_ort_values)",
    ),
    _native_clause(
        "openvino",
        _NATIVE_FRAME.format(
            file=r"openvino[/\\](?:runtime[/\\]ie_api|_ov_api)\.py",
            native=r"super\(\)\.(?:compile_model|read_model|import_model|query_model|infer|start_async)",
        )
        + _NATIVE_TAIL.format(value=_ANY_EXCEPTION),
        "calls {native}, a method of OpenVINO's C++ runtime under its Python API (the pybind11 module the "
        "Python classes extend).",
        "Read OpenVINO's exception text: its 'Exception from src/<path>' names the component that threw (a "
        "frontend while reading the model, a device plugin while compiling for or running on a device); "
        "for compile_model, compiling for 'CPU' tells a device plugin's limit from a model problem.",
        "openvinotoolkit/openvino: src/bindings/python/src/openvino/_ov_api.py (Core.compile_model, "
        "read_model: super().compile_model(...), super().read_model(...))",
    ),
    _native_clause(
        "tvm-ffi",
        _NATIVE_FRAME.format(
            file=r"tvm[/\\]_ffi[/\\]base\.py", native=r"_LIB\.TVMGetLastError|get_last_ffi_error"
        )
        + _NATIVE_TAIL.format(value=_ANY_EXCEPTION),
        "raises, through {native}, the error a C++ function called through TVM's FFI left behind: the "
        "exception's text is that C++ error.",
        "Act on the C++ error it quotes: its source file (src/...) and its 'Check failed' condition say "
        "which pass, target or operator failed; TVM_BACKTRACE=1 prints the C++ stack.",
        "apache/tvm: python/tvm/_ffi/base.py (check_call: raise TVMError(py_str(_LIB.TVMGetLastError())), "
        "later raise get_last_ffi_error())",
    ),
    _native_clause(
        "onnx-cpp",
        _ANY_FRAME
        + _NATIVE_TAIL.format(
            value=r"onnx\.onnx_cpp2py_export\.(?P<native>\w{1,40})\.\w{0,60}(?:Error|Exception)"
        ),
        "passed on {value}, a class of onnx's C++ extension (onnx_cpp2py_export.{native}): the check that "
        "failed is in onnx's C++ code that this frame calls.",
        "Run the check yourself to see its text: onnx.checker.check_model(model, full_check=True) (a "
        "ValidationError names the node and the rule it breaks) or "
        "onnx.shape_inference.infer_shapes(model, strict_mode=True) (an InferenceError names the node).",
        "onnx/onnx: onnx/checker.py, onnx/shape_inference.py (C.check_model, C.infer_shapes of "
        "onnx.onnx_cpp2py_export; ValidationError, InferenceError)",
    ),
)
"""The native-call clauses, tried before the other last-resort traceback clauses."""


CLAUSES: tuple[Clause, ...] = (
    # --- Ascend aclnn parameter checks (CANN's OP_CHECK_* macros, their own wording) -----------------
    Clause(
        "aclnn-max-dim",
        ("ascend",),
        "tensor cannot be larger than",
        r"The (?P<tensor>[\w.()\[\]*>-]{1,60}) tensor cannot be larger than (?P<value>\d{1,3}) dimensions",
        _ACLNN_HEAD + "its '{tensor}' tensor may have at most {value} dimensions and this call passed one of "
        "more (OP_CHECK_MAX_DIM).",
        "Bring '{tensor}' down to {value} dimensions or fewer before this op: merge leading dimensions "
        "with a reshape/view (for example flatten the batch dimensions into one) and restore them on the "
        "result, or split the call along a leading dimension.",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-min-dim",
        ("ascend",),
        "tensor must have at least",
        r"The (?P<tensor>[\w.()\[\]*>-]{1,60}) tensor must have at least (?P<value>\d{1,3}) dimensions",
        _ACLNN_HEAD + "its '{tensor}' tensor needs at least {value} dimensions and this call passed fewer "
        "(OP_CHECK_MIN_DIM).",
        "Give '{tensor}' {value} dimensions or more before this op: unsqueeze the missing leading dimensions "
        "(a batch of one) and squeeze them off the result.",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-promoted-dtype-not-supported",
        ("ascend",),
        "should be in dtype support list",
        r"(?:promote dtype|after promote is) (?P<dtype>DT_\w{1,24}),? (?:which )?should be in dtype support "
        r"list\s{0,4}(?P<value>\[[^\]\n]{0,300}\]?)",
        _ACLNN_HEAD + "the inputs' data types promote to {dtype}, which this operator has no kernel for on "
        "this device; it takes {value}.",
        "Cast the inputs to one type of {value} before the op so that they promote to it (mixed float16 and "
        "float32 inputs promote to float32; integer and float inputs to the float type).",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-dtype-not-supported",
        ("ascend",),
        "should be in dtype support list",
        r"(?:Tensor )?(?P<tensor>[\w.()\[\]*>-]{1,60}) (?:not implemented for|dtype) (?P<dtype>DT_\w{1,24})"
        r"(?:,\s{0,8}|\s{1,8})should be in dtype support list\s{0,4}(?P<value>\[[^\]\n]{0,300}\]?)",
        _ACLNN_HEAD + "its '{tensor}' tensor is {dtype}, a data type this operator has no kernel for on this "
        "device; it takes {value}.",
        "Cast '{tensor}' to one of {value} before the op (torch: tensor.to(torch.float16) or .float(); in "
        "a graph, a Cast node) and cast the result back if the model needs {dtype}; if no listed type can "
        "hold the values, run this op on the CPU.",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-dtype-expected",
        ("ascend",),
        "expected dtype is",
        r"Tensor (?P<tensor>[\w.()\[\]*>-]{1,60}) expected dtype is (?P<dtype>DT_\w{1,24}) but found "
        r"(?P<value>DT_\w{1,24})",
        _ACLNN_HEAD
        + "its '{tensor}' tensor must be {dtype} and this call passed {value} (OP_CHECK_DTYPE_NOT_"
        "MATCH).",
        "Cast '{tensor}' to {dtype} before the op (in a graph, a Cast node before it); for an output tensor, "
        "allocate it as {dtype}.",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-dtype-not-same",
        ("ascend",),
        "to have same dtype",
        r"Expected both tensors to have same dtype, but found (?P<tensor>[\w.()\[\]*>-]{1,60}) "
        r"(?P<dtype>DT_\w{1,24}) and (?P<tensor2>[\w.()\[\]*>-]{1,60}) (?P<value>DT_\w{1,24})",
        _ACLNN_HEAD + "'{tensor}' ({dtype}) and '{tensor2}' ({value}) must have one data type "
        "(OP_CHECK_DTYPE_NOT_SAME).",
        "Cast '{tensor2}' to {dtype} (or '{tensor}' to {value}) before the op, so both inputs have one type.",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-result-cast",
        ("ascend",),
        "can't be cast to the desired output type",
        r"Result type (?P<dtype>DT_\w{1,24}) can't be cast to the desired output type (?P<value>DT_\w{1,24})",
        _ACLNN_HEAD + "the op computes {dtype} and the output tensor given for it is {value}, a type "
        "{dtype} cannot be cast to (OP_CHECK_RESULT_DTYPE_CAST_FAILED).",
        "Give the op an output tensor of {dtype} (or a type {dtype} casts to) and convert it to {value} "
        "after the call; with torch's out= argument, allocate out as {dtype}.",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-broadcast",
        ("ascend",),
        "must match the size of tensor",
        r"The size of tensor (?P<tensor>[\w.()\[\]*>-]{1,60}) (?P<shape>\[[^\]\n]{0,80}\]) must match the "
        r"size of tensor (?P<tensor2>[\w.()\[\]*>-]{1,60}) (?P<shape2>\[[^\]\n]{0,80}\])",
        _ACLNN_HEAD + "'{tensor}' {shape} and '{tensor2}' {shape2} do not broadcast to one shape: each "
        "dimension must be equal or 1 (OP_CHECK_BROADCAST).",
        "Make {shape} and {shape2} broadcastable (equal sizes or 1 in every dimension, aligned from the "
        "last): reshape or expand '{tensor2}' to match '{tensor}', or fix the earlier op whose output has "
        "the wrong size.",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-shape-not-equal",
        ("ascend",),
        "to have same size as tensor for",
        r"Expected tensor for (?P<tensor>[\w.()\[\]*>-]{1,60}) to have same size as tensor for "
        r"(?P<tensor2>[\w.()\[\]*>-]{1,60}), but (?P<shape>\[[^\]\n]{0,80}\]) does not equal "
        r"(?P<shape2>\[[^\]\n]{0,80}\])",
        _ACLNN_HEAD + "'{tensor}' and '{tensor2}' must have the same shape, and they are {shape} and "
        "{shape2} (OP_CHECK_SHAPE_NOT_EQUAL).",
        "Give '{tensor}' and '{tensor2}' one shape: reshape the one that is wrong ({shape} vs {shape2}) or, "
        "for an output tensor, allocate it with the input's shape.",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-wrong-dimension",
        ("ascend",),
        "dimension input, but got",
        r"Expected (?P<value>\d{1,3}) dimension input, but got (?P<tensor>[\w.()\[\]*>-]{1,60}) with sizes "
        r"(?P<shape>\[[^\]\n]{0,80}\])",
        _ACLNN_HEAD + "its '{tensor}' tensor must have exactly {value} dimensions and it has shape {shape} "
        "(OP_CHECK_WRONG_DIMENSION).",
        "Reshape '{tensor}' (shape {shape}) to {value} dimensions before the op (unsqueeze or flatten "
        "dimensions) and restore the shape on the result.",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-null-argument",
        ("ascend",),
        "but got null for argument",
        r"Expected a proper (?P<type>Tensor(?:List)?) but got null for argument "
        r"(?P<arg>[\w.()\[\]*>-]{1,60})",
        _ACLNN_HEAD + "its argument '{arg}' must be a {type} and it was a null pointer (OP_CHECK_NULL): the "
        "caller passed nothing for a required input or output.",
        "Pass a created {type} for '{arg}' (aclCreateTensor for a direct call; in torch_npu, an optional "
        "argument this op does not accept as None, so give it a tensor).",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-out-shape",
        ("ascend",),
        "but current is",
        r"Shape of (?P<tensor>[\w.()\[\]*>-]{1,60}) should be (?P<shape>\[[^\]\n]{0,80}\]), but current is "
        r"(?P<shape2>\[[^\]\n]{0,80}\])",
        _ACLNN_HEAD
        + "the inputs broadcast to {shape}, so the output tensor '{tensor}' must have that shape, "
        "and the one given is {shape2}.",
        "Allocate '{tensor}' with the broadcast shape {shape} (torch: leave out= empty, or create it with "
        "that shape), or reshape the inputs so they broadcast to {shape2} if that is the shape meant.",
        "CANN ops sources: aclnn CheckShape of the element-wise and broadcasting ops ('Shape of out should "
        "be %s, but current is %s.')",
        "",
    ),
    Clause(
        "aclnn-tensorlist-size",
        ("ascend",),
        "tensorlist must have the same number of tensors",
        r"The (?P<tensor>[\w.()\[\]*>-]{1,60}) tensorlist and (?P<tensor2>[\w.()\[\]*>-]{1,60}) tensorlist "
        r"must have the same number of tensors, but got (?P<value>\d{1,9}) and (?P<value2>\d{1,9})",
        _ACLNN_HEAD + "the tensor lists '{tensor}' ({value} tensors) and '{tensor2}' ({value2}) must be of "
        "one length (OP_CHECK_TENSORLIST_SIZE_EQUAL).",
        "Pass '{tensor}' and '{tensor2}' with the same number of tensors ({value} and {value2} now): one per "
        "group or parameter, in the same order.",
        _OP_ERROR_CHECK,
        "",
    ),
    Clause(
        "aclnn-shape-larger-than-int32",
        ("ascend",),
        "shape cannot be larger than",
        r"The tensor's shape cannot be larger than (?P<value>\d{1,20})",
        _ACLNN_HEAD + "one dimension of a tensor is larger than {value}, the most this API indexes.",
        "Split the tensor along its largest dimension so each part stays at or under {value} elements in "
        "that dimension, run the op per part and concatenate the results.",
        _OP_ERROR_CHECK,
        "",
    ),
    # --- TensorRT runtime API checks: one clause per check of IExecutionContext / IRuntime, read from the
    # condition and the message the check prints (before the ONNX parser's clauses, whose literals such as
    # 'nbdims' a runtime condition also holds, and the generic 'Parameter check failed' clause) -------
    Clause(
        "trt-api-shape-outside-profile",
        ("tensorrt",),
        "does not satisfy any optimization profile",
        r"Set dimension (?P<shape>\[[-\d, ]{0,120}\]) for tensor (?P<tensor>[^\n]{1,200}?) does not satisfy "
        r"any optimization profiles?\.(?: ?Valid range for profile (?P<index>\d{1,4}): "
        r"(?P<value>\[[-\d, ]{0,120}\])\.\.(?P<value2>\[[-\d, ]{0,120}\]))?",
        "setInputShape was given {shape} for input {tensor}, which lies outside every optimization profile "
        "the "
        "engine was built with (profile {index|0} accepts {value|its kMIN} .. {value2|its kMAX}): each "
        "dynamic "
        "dimension must lie between the profile's kMIN and kMAX, and every static one must equal the "
        "engine's.",
        "Feed {tensor} within {value|kMIN} .. {value2|kMAX} (resize, pad or split the batch before "
        "inference), "
        "or rebuild the engine with a profile whose min/opt/max cover {shape} (trtexec "
        "--minShapes/--optShapes/"
        "--maxShapes={tensor}:..., IOptimizationProfile.set_shape), with several profiles for sizes far "
        "apart "
        "(chosen per context with set_optimization_profile_async).",
        _TRT_LEAN + " ('Set dimension ', ' does not satisfy any optimization profiles.', ' Valid range for "
        "profile ', condition satisfyProfile); " + _TRT_RUNTIME_H + " (IExecutionContext::setInputShape: "
        "'Each dimension must agree with the network dimension unless the latter was -1')",
    ),
    Clause(
        "trt-api-binding-dims-outside-profile",
        ("tensorrt",),
        "dims.d[i]",
        _TRT_PROFILE_CONDITION,
        *_TRT_BINDING_DIMS_OUTSIDE_PROFILE,
    ),
    Clause(
        "trt-api-binding-dims-exceed-range",
        ("tensorrt",),
        "max range for profile",
        r"exceed min ?(?:\.\.|~) ?max range for profile",
        *_TRT_BINDING_DIMS_OUTSIDE_PROFILE,
    ),
    Clause(
        "trt-api-input-rank",
        ("tensorrt",),
        "nbdims == d",
        r"condition: (?P<arg>(?:engineDims|profileMaxDims|profileMinDims)\.nbDims == (?:dims|dimensions)"
        r"\.nbDims)",
        "The shape passed to setInputShape (setBindingDimensions before TensorRT 8.5) has another number of "
        "dimensions than the engine's input ({arg}): a shape without the batch dimension, or with an extra "
        "one, is rejected before any dimension is compared.",
        "Pass a shape of the input's full rank: print engine.get_tensor_shape(name) (get_binding_shape) and "
        "give one value for each of its entries, the batch dimension included (a 3-D image as (1, 3, H, W) "
        "for an NCHW input); a model exported with another rank needs its engine rebuilt.",
        _TRT_LEAN + " (IExecutionContext::setInputShape: conditions engineDims.nbDims == dims.nbDims, "
        "profileMaxDims.nbDims == dimensions.nbDims); " + _TRT_RUNTIME_H + " (setInputShape)",
    ),
    Clause(
        "trt-api-input-address-not-set",
        ("tensorrt",),
        "address is not set for input tensor",
        r"Address is not set for input tensor (?P<tensor>[^\n]{1,200}?)\. Call setInputTensorAddress",
        "enqueueV3/executeV2 found no device address for input {tensor}: " + _TRT_NULL_CAUSE,
        "Call context.set_tensor_address('{tensor}', ptr) (setInputTensorAddress) with a device buffer of "
        "the input's size before every enqueue; " + _TRT_NULL_FIX,
        _TRT_LEAN + " ('Address is not set for input tensor ', '. Call setInputTensorAddress or "
        "setTensorAddress before enqueue/execute.'); " + _TRT_RUNTIME_H + " (setTensorAddress: 'each input "
        "must have a non-null address')",
    ),
    Clause(
        "trt-api-output-address-not-set",
        ("tensorrt",),
        "neither address or allocator is set for output tensor",
        r"Neither address or allocator is set for output tensor (?P<tensor>[^\n]{1,200}?)\. Call "
        r"setOutputTensorAddress",
        "enqueueV3/executeV2 found neither a device address nor an IOutputAllocator for output {tensor}: "
        + _TRT_NULL_CAUSE,
        "Call context.set_tensor_address('{tensor}', ptr) with a device buffer of the output's size "
        "(context.get_tensor_shape('{tensor}') after the input shapes are set), or set_output_allocator for "
        "an output whose size is only known at run time; " + _TRT_NULL_FIX,
        _TRT_LEAN + " ('Neither address or allocator is set for output tensor ', '. Call "
        "setOutputTensorAddress, setTensorAddress or setOutputAllocator before enqueue/execute.'); "
        + _TRT_RUNTIME_H
        + " (setTensorAddress: 'each output must have a non-null address or an "
        "IOutputAllocator')",
    ),
    Clause(
        "trt-api-tensor-bound-to-nullptr",
        ("tensorrt",),
        "is bound to nullptr",
        r"Tensor \"(?P<tensor>[^\"\n]{1,200})\" is bound to nullptr",
        "Tensor {tensor} is bound to a null address at enqueueV3/executeV2 (in executeV2's bindings array, "
        "or never given to setTensorAddress): null is allowed only for an empty input, a shape tensor or an "
        "output that has an IOutputAllocator. " + _TRT_NULL_CAUSE,
        "Give {tensor} a device buffer: in executeV2's bindings list put the buffer's address at the index "
        "of '{tensor}' (engine.get_tensor_name(i) gives each index's name), or call "
        "context.set_tensor_address('{tensor}', ptr) before enqueue_v3; " + _TRT_NULL_FIX,
        _TRT_LEAN + " ('Tensor \"', '\" is bound to nullptr, which is allowed only for an empty input "
        "tensor, shape tensor, or an output tensor associated with an IOuputAllocator.', condition "
        "nullPtrAllowed); " + _TRT_RUNTIME_H + " (executeV2, setTensorAddress)",
    ),
    Clause(
        "trt-api-null-binding",
        ("tensorrt",),
        "bindings[x]",
        r"condition: (?P<arg>bindings\[x\] (?:\|\| nullBindingOK|!= nullptr))",
        "enqueue/execute (enqueueV2, executeV2) found a null pointer in the bindings array ({arg}): an input "
        "or output of the engine has no device buffer. " + _TRT_NULL_CAUSE,
        "Build the bindings list with one device address per engine binding, in binding order (for i in "
        "range(engine.num_bindings): engine.get_binding_name(i)), outputs included; " + _TRT_NULL_FIX,
        "NVIDIA TensorRT 8 runtime: IExecutionContext::enqueueV2 / executeV2 parameter check (condition: "
        "bindings[x] || nullBindingOK); " + _TRT_RUNTIME_H + " (executeV2: 'an array of pointers to input "
        "and output buffers')",
    ),
    Clause(
        "trt-api-input-dims-not-specified",
        ("tensorrt",),
        "are not specified: ",
        r"Following input (?:tensors' dimensions|shape bindings) are not specified: "
        r"(?P<tensor>[^\s,)]{0,119}[^\s,).](?:, [^\s,)]{0,119}[^\s,).]){0,20})",
        "enqueueV3/executeV2 was called before the dimensions (for a shape tensor, the values) of these "
        "inputs were set on the context: {tensor}. An input with a -1 dimension has no shape until "
        "setInputShape gives it one.",
        "Call context.set_input_shape(name, shape) for {tensor} (every input with a -1 in "
        "engine.get_tensor_shape(name); set_input_shape / set_tensor_address for shape tensors) after "
        "set_optimization_profile_async and before each enqueue_v3/execute_v2, again whenever a shape "
        "changes.",
        _TRT_LEAN + " (\" Following input tensors' dimensions are not specified: \", ' Following input shape "
        "bindings are not specified: ', condition inputDimensionSpecified && inputShapesSpecified); "
        + _TRT_RUNTIME_H
        + " (setOptimizationProfileAsync: setInputShape 'must be called before "
        "executeV2()/enqueueV3()')",
    ),
    Clause(
        "trt-api-profile-index",
        ("tensorrt",),
        "getnboptimizationprofiles()",
        r"condition: (?P<arg>\(0\) <= \(profileIndex\)[^\n]{0,60}?getNbOptimizationProfiles\(\)\)"
        r"|profileIndex[^\n]{0,60}?getNbOptimizationProfiles\(\))",
        "The optimization profile index given to set_optimization_profile_async (setOptimizationProfile) is "
        "outside 0 .. engine.num_optimization_profiles - 1 ({arg}): the engine has fewer profiles than the "
        "index assumes.",
        "Print engine.num_optimization_profiles and pass an index below it (profiles count from 0; an engine "
        "built with one profile has only profile 0); to run more profiles, add one IOptimizationProfile per "
        "profile to the builder config (config.add_optimization_profile) and rebuild the engine.",
        _TRT_LEAN + " (IExecutionContext::setOptimizationProfileAsync, setOptimizationProfileInternal: "
        "condition (0) <= (profileIndex) && (profileIndex) < (mEngine.getNbOptimizationProfiles())); "
        + _TRT_RUNTIME_H
        + " (setOptimizationProfileAsync: 'The value must lie between 0 and "
        "getEngine().getNbOptimizationProfiles() - 1')",
    ),
    Clause(
        "trt-api-profile-taken",
        ("tensorrt",),
        "has been chosen by another iexecutioncontext",
        r"Profile (?P<index>\d{1,4}) has been chosen by another IExecutionContext",
        "Optimization profile {index} is already the profile of another execution context of this engine: "
        "in TensorRT 8 each profile may be held by one IExecutionContext at a time, and a second context "
        "created on the same engine cannot take it (it gets no profile, and its execute calls fail).",
        "Give each concurrent context its own profile (build the engine with as many profiles as contexts, "
        "config.add_optimization_profile, and call context.set_optimization_profile_async(i, stream) with a "
        "different i) or destroy the other context before selecting profile {index}; create one context per "
        "thread once, not one per inference.",
        "NVIDIA TensorRT 8 runtime (setOptimizationProfileInternal: 'Profile N has been chosen by another "
        "IExecutionContext. Use another profileIndex or destroy the IExecutionContext that use this "
        "profile.'); " + _TRT_RUNTIME_H + " (getOptimizationProfile: 'implicitly to 0 if no other execution "
        "context has been set to profile 0')",
    ),
    Clause(
        "trt-api-address-alignment",
        ("tensorrt",),
        "must be aligned on ",
        r"(?:(?P<call>\w{1,60}): )?(?:data|memory) must be aligned on (?P<value>\d{1,6})",
        "The address passed to {call|setTensorAddress} is not a multiple of {value} bytes: TensorRT needs "
        "every I/O buffer (and device memory it is given) to start on a {value}-byte boundary, which "
        "cudaMalloc gives but an offset into a larger buffer, a sliced or non-contiguous tensor's data_ptr() "
        "may not.",
        "Pass a buffer that starts on a {value}-byte boundary: allocate each tensor separately "
        "(cudaMalloc, torch.empty(...).cuda()), or round each offset inside a shared buffer up to a multiple "
        "of {value}; copy a sliced tensor with .contiguous() / .clone() before taking its data_ptr().",
        _TRT_LEAN + " ('setTensorAddress', ': data must be aligned on ', 'setDeviceMemory: memory must be "
        "aligned on '); " + _TRT_RUNTIME_H + " (setTensorAddress: 'The pointer must have at least 256-byte "
        "alignment')",
    ),
    Clause(
        "trt-api-invalid-tensor-name",
        ("tensorrt",),
        "invalid tensor name: ",
        r"Given invalid tensor name: (?P<tensor>[^\n]{1,200}?)\. Get valid tensor names with "
        r"(?P<call>get\w{1,20}Name)",
        "The name {tensor} given to a name-based call (get_tensor_shape, set_input_shape, "
        "set_tensor_address...) is not an input or output tensor of this engine: a misspelt name, an "
        "intermediate tensor's name, or a name from another export of the model.",
        "List the engine's I/O names (for i in range(engine.num_io_tensors): engine.get_tensor_name(i), "
        "{call}) and use exactly those, the ONNX graph's input and output names the engine was built from, "
        "instead of {tensor}; an output that should exist must be marked as an output before the build.",
        _TRT_LEAN + " ('Given invalid tensor name: ', '. Get valid tensor names with getIOTensorName()')",
    ),
    Clause(
        "trt-api-neither-input-nor-output",
        ("tensorrt",),
        "is neither input nor output",
        r"(?P<tensor>[^\s(:]{1,200}) is neither input nor output(?: tensor)?, cannot (?P<value>set "
        r"address|get shape"
        r"|[a-z]{1,12} [a-z]{1,12})",
        "{tensor} is not an input or output tensor of this engine, so TensorRT cannot {value} for it: the "
        "name is misspelt, an intermediate tensor's, or from another export of the model.",
        "Use the engine's own I/O names (for i in range(engine.num_io_tensors): engine.get_tensor_name(i)) "
        "instead of {tensor}; to read an intermediate tensor, mark it as a network output "
        "(network.mark_output) and rebuild the engine.",
        _TRT_LEAN + " (' is neither input nor output, cannot set address for this tensor.', ' is neither "
        "input nor output tensor, cannot get shape for the tensor.')",
    ),
    Clause(
        "trt-plan-platform-tag",
        ("tensorrt",),
        "platform specific tag mismatch",
        r"Platform specific tag mismatch detected",
        "The engine (plan) file was built on another platform (operating system or CPU architecture: a "
        "Windows engine loaded on Linux, an x86_64 engine on a Jetson) than the runtime loading it: plan "
        "files are only supported on the platform they were created on.",
        "Build the engine on the platform that runs it (trtexec --onnx=model.onnx --saveEngine=model.engine "
        "there, from the ONNX model) instead of copying the .engine/.plan file; ship the ONNX model and "
        "build on first run or in the deployment image.",
        _TRT_LEAN
        + " ('Serialization assertion header.pad == expectedPlatformTag failed.', 'Platform specific "
        "tag mismatch detected. TensorRT plan files are only supported on the target runtime platform they "
        "were created on.')",
    ),
    Clause(
        "trt-plan-serialization-version",
        ("tensorrt",),
        "incompatible serialization version",
        r"Trying to load an engine created with incompatible serialization version(?: \((?P<value>[^)\n]"
        r"{1,80})\))?",
        "The engine file was serialized by another TensorRT version ({value|its version differs}) than the "
        "runtime loading it, or by the safety runtime, on another OS, or it is no TensorRT engine at all: "
        "an engine is tied to the TensorRT release (and GPU) that built it unless built version compatible.",
        "Rebuild the engine with the TensorRT that loads it (check both with trtexec --getPlanVersionOnly "
        "and tensorrt.__version__), or build it version compatible (trtexec --versionCompatible, "
        "BuilderFlag.VERSION_COMPATIBLE) for TensorRT 8.6+ runtimes; make sure the file is the .engine and "
        "not the ONNX model.",
        _TRT_LEAN + " ('Trying to load an engine created with incompatible serialization version (', '). "
        "Check that the engine was not created using safety runtime, same OS was used and version "
        "compatibility parameters were set accordingly and that it is a TRT engine file.')",
    ),
    Clause(
        "trt-plan-newer-than-runtime",
        ("tensorrt",),
        "plan",
        r"(?P<arg>Failed due to an old deserialization call on a newer plan file|TensorRT plan major version "
        r"does not match runtime major version)",
        "The engine file and the TensorRT runtime loading it are of different releases ('{arg}'): a plan is "
        "read only by the TensorRT release that built it, or by a later one when it was built version "
        "compatible.",
        "Rebuild the engine with the installed TensorRT (trtexec --onnx=model.onnx --saveEngine=...), or "
        "install the TensorRT release that built it (trtexec --getPlanVersionOnly --loadEngine=... prints "
        "it); "
        "for engines meant to move between releases build with --versionCompatible (BuilderFlag."
        "VERSION_COMPATIBLE) on TensorRT 8.6 or later.",
        _TRT_LEAN
        + " ('Failed due to an old deserialization call on a newer plan file. This might happen when "
        "the plan file was built from an older TensorRT version.', 'TensorRT plan major version does not "
        "match runtime major version.')",
    ),
    Clause(
        "trt-plan-forward-compat",
        ("tensorrt",),
        "engine version forward compatibility",
        r"Engine Version Forward Compatibility supported starting TensorRT "
        r"(?P<version>\d{1,3}(?:\.\d{1,4}){0,3})"
        r"\. This Engine was created with TensorRT (?P<value>\d{1,3}(?:\.\d{1,4}){0,3})",
        "The engine was built with TensorRT {value}, and this runtime reads engines of other releases only "
        "from TensorRT {version} on (engines built version compatible): an engine built by TensorRT {value} "
        "is read only by that release.",
        "Rebuild the engine from the ONNX model with the installed TensorRT, or run it with TensorRT "
        "{value}; "
        "to move engines between releases, build them with --versionCompatible (BuilderFlag."
        "VERSION_COMPATIBLE) with TensorRT {version} or later.",
        _TRT_LEAN
        + " ('Engine Version Forward Compatibility supported starting TensorRT ', '. This Engine was "
        "created with TensorRT ')",
    ),
    Clause(
        "trt-plan-empty-blob",
        ("tensorrt",),
        "cannot deserialize",
        r"Cannot deserialize (?:with an )?empty (?P<value>memory buffer|blob)",
        "deserialize_cuda_engine was given an empty {value}: the engine file read as 0 bytes (a wrong path, "
        "a file opened in text mode or not yet written, an engine build that failed and saved nothing).",
        "Check the engine file before loading it (os.path.getsize(path) > 0; open(path, 'rb').read()), "
        "build it again if the build step failed (its log says why), and pass the bytes, not the path, to "
        "runtime.deserialize_cuda_engine.",
        _TRT_LEAN + " (IRuntime::deserializeCudaEngine: 'Cannot deserialize with an empty memory buffer.', "
        "'Cannot deserialize with an empty blob.', 'Cannot deserialize empty blob.')",
    ),
    Clause(
        "trt-plan-lean-host-code",
        ("tensorrt",),
        "getenginehostcodeallowed",
        r"Cannot deserialize engine with lean runtime since IRuntime::getEngineHostCodeAllowed\(\) is false",
        "The engine is version compatible (built with --versionCompatible, so it carries its own lean "
        "runtime as host code), and the runtime loading it does not allow an engine's host code to run "
        "(IRuntime::getEngineHostCodeAllowed() is false, its default).",
        "Allow it before deserializing when you trust the engine: runtime.engine_host_code_allowed = True "
        "(IRuntime::setEngineHostCodeAllowed(true); trtexec does this for --versionCompatible engines); or "
        "build the engine without --versionCompatible for the TensorRT that loads it.",
        _TRT_LEAN
        + " ('Cannot deserialize engine with lean runtime since IRuntime::getEngineHostCodeAllowed() "
        "is false.'); " + _TRT_RUNTIME_H + " (IRuntime::setEngineHostCodeAllowed)",
    ),
    Clause(
        "trt-api-user-managed-memory-not-set",
        ("tensorrt",),
        "is created with executioncontextallocationstrategy::kuser_managed",
        r"The engine requires (?P<value>[^\n]{1,40}?) device memory\. The IExecutionContext is created with "
        r"ExecutionContextAllocationStrategy::kUSER_MANAGED",
        "The execution context was created with user-managed device memory "
        "(ExecutionContextAllocationStrategy.USER_MANAGED, or "
        "create_execution_context_without_device_memory) "
        "and enqueue/execute ran before any memory was given to it: the engine needs {value} device memory "
        "for its activations.",
        "Before the first enqueue_v3/execute_v2, allocate engine.device_memory_size_v2 bytes (or "
        "get_device_memory_size_for_profile_v2(profile) for the profile in use, 256-byte aligned, e.g. with "
        "cudaMalloc) and give them to the context with context.set_device_memory(ptr, size) "
        "(setDeviceMemoryV2); or create the context with the default strategy (create_execution_context()) "
        "and let TensorRT allocate them.",
        _TRT_LEAN + " ('The engine requires ', ' device memory. The IExecutionContext is created with "
        "ExecutionContextAllocationStrategy::kUSER_MANAGED. IExecutionContext::setDeviceMemoryV2 should be "
        "called before enqueue/execute.'); " + _TRT_RUNTIME_H + " (ExecutionContextAllocationStrategy "
        "kUSER_MANAGED, ICudaEngine::getDeviceMemorySizeV2)",
    ),
    Clause(
        "trt-api-device-memory-too-small",
        ("tensorrt",),
        "the provided memory size is too small",
        r"The provided memory size is too small\. Provided (?P<value>\d{1,15})(?: bytes)?, but expected at "
        r"least (?P<value2>\d{1,15})",
        "setDeviceMemoryV2 was given a buffer of {value} bytes for the context's activations, and the engine "
        "needs at least {value2} for the optimization profile in use.",
        "Allocate at least {value2} bytes: size the buffer with engine.device_memory_size_v2 (the largest "
        "over all profiles) or get_device_memory_size_for_profile_v2(profile) for the profile the context "
        "uses, and allocate it again after set_optimization_profile_async switches to a larger profile.",
        _TRT_LEAN + " ('setDeviceMemoryV2: The provided memory size is too small. Provided ', ', but "
        "expected at least '); " + _TRT_RUNTIME_H + " (ICudaEngine::getDeviceMemorySizeV2, "
        "IExecutionContext::setDeviceMemoryV2)",
    ),
    # --- TensorRT runtime API checks read from the condition alone (the check's message may be absent, as in
    # TensorRT 8's 'Parameter check failed at: <file>::<function>::<line>, condition: <condition>'): after the
    # clauses that read a check's own message, before the generic 'Parameter check failed' clause -----------
    Clause(
        "trt-api-binding-not-input",
        ("tensorrt",),
        "bindingisinput(bindingindex)",
        _TRT_CHECK_AT + r"(?P<arg>mEngine\.bindingIsInput\(bindingIndex\))",
        "{call|setBindingDimensions} was given the index of an output binding ({arg} was false): only an "
        "input takes dimensions (setBindingDimensions / set_binding_shape, setInputShapeBinding); an "
        "output's shape follows from the inputs' once they are all set.",
        "Call set_binding_shape (setBindingDimensions) only for the indices where engine.binding_is_input(i) "
        "is true; read an output's shape with context.get_binding_shape(i) after every input is set. On "
        "TensorRT 8.5 and later use the name-based calls: context.set_input_shape(name, shape) for the names "
        "whose engine.get_tensor_mode(name) is TensorIOMode.INPUT, context.get_tensor_shape(name) for "
        "outputs. With several optimization profiles, the bindings of profile k start at k x (bindings per "
        "profile).",
        _TRT8_RUNTIME_H + " (IExecutionContext::setBindingDimensions: 'bindingIndex index of an input "
        "tensor'; ICudaEngine::bindingIsInput); " + _TRT_RUNTIME_H + " (setInputShape, getTensorIOMode)",
        _TRT_CALL_CONTEXT,
    ),
    Clause(
        "trt-api-binding-index-range",
        ("tensorrt",),
        "getnbbindings()",
        _TRT_CHECK_AT + r"(?P<arg>[^\n]{0,60}?bindingIndex[^\n]{0,60}?getNbBindings\(\))",
        "{call|The call} was given a binding index outside 0 .. engine.num_bindings - 1 ({arg} was false): "
        "get_binding_index(name) returns -1 for a name that is no input or output of this engine (a name "
        "from another export of the model, a renamed output), and an index counted for another "
        "optimization profile or engine is past the end.",
        "Take the indices from this engine: for i in range(engine.num_bindings): engine.get_binding_name(i) "
        "lists them; check get_binding_index(name) != -1 before using it, and use the names of the ONNX "
        "model this engine was built from. On TensorRT 8.5 and later use the name-based calls "
        "(get_tensor_shape(name), set_input_shape(name, shape), set_tensor_address(name, ptr)), which need "
        "no index.",
        _TRT8_RUNTIME_H + " (ICudaEngine::getBindingIndex: 'The binding index for the named tensor, or -1 "
        "if the name is not found'; getNbBindings: 'the first getNbBindings() / K bindings are used by "
        "profile number 0'); " + _TRT_RUNTIME_H + " (getNbIOTensors, getIOTensorName)",
        _TRT_CALL_CONTEXT,
    ),
    Clause(
        "trt-api-static-dims-mismatch",
        ("tensorrt",),
        "enginedims.d[i] == dimensions.d[i]",
        _TRT_CHECK_AT + r"(?P<arg>engineDims\.d\[i\] == dimensions\.d\[i\])",
        "The shape given to {call|setInputShape / setBindingDimensions} differs from the engine's in a "
        "dimension the engine has fixed ({arg} was false): only the dimensions built as -1 (dynamic, with "
        "an optimization profile) may change at run time; every other one must equal the engine's.",
        "Print engine.get_tensor_shape(name) (get_binding_shape(i) before TensorRT 8.5) and feed exactly "
        "its non -1 entries: batch, channels, height and width, in the engine's order (NCHW or NHWC); to "
        "accept other sizes, export the ONNX model with that dimension dynamic and rebuild the engine with "
        "--minShapes/--optShapes/--maxShapes that cover them.",
        _TRT8_RUNTIME_H + " (IExecutionContext::setBindingDimensions: 'only the wildcard dimension -1 can "
        "be replaced with a new dimension >= 0'); "
        + _TRT_LEAN
        + " ('Static dimension mismatch while setting "
        "input shape for '); " + _TRT_RUNTIME_H + " (setInputShape: 'Each dimension must agree with the "
        "network dimension unless the latter was -1')",
        _TRT_CALL_CONTEXT,
    ),
    Clause(
        "trt-api-explicit-call-on-implicit-engine",
        ("tensorrt",),
        "!mengine.hasimplicitbatchdimension()",
        _TRT_CHECK_AT + r"(?P<arg>!mEngine\.hasImplicitBatchDimension\(\))",
        "{call|enqueueV2 / executeV2} was called on an engine built with an implicit batch dimension ({arg} "
        "was false): the V2 calls work only for engines of full-dimension (explicit batch) networks, whose "
        "inputs carry the batch in their shape; an implicit-batch engine (a network created without the "
        "EXPLICIT_BATCH flag, from the Caffe or UFF parsers) takes the batch size as an argument.",
        "Call execute(batch_size, bindings) / execute_async(batch_size, bindings, stream) for this engine, "
        "or rebuild it from a network created with NetworkDefinitionCreationFlag.EXPLICIT_BATCH (what the "
        "ONNX parser needs, and the only mode of TensorRT 10) and keep enqueueV2/executeV2 (enqueueV3 on "
        "TensorRT 8.5 and later).",
        _TRT8_RUNTIME_H + " (IExecutionContext::executeV2 / enqueueV2: 'This method only works for "
        "execution contexts built with full dimension networks'; ICudaEngine::hasImplicitBatchDimension)",
        _TRT_CALL_CONTEXT,
    ),
    Clause(
        "trt-api-batch-size-over-max",
        ("tensorrt",),
        "getmaxbatchsize()",
        _TRT_CHECK_AT + r"(?P<arg>batchSize > 0 && batchSize <= mEngine\.getMaxBatchSize\(\))",
        "{call|execute / enqueue} was given a batch size of 0 or one above the engine's maximum ({arg} was "
        "false). An engine of an explicit-batch network (every engine built from ONNX) reports a maximum "
        "batch size of 1 and takes its batch from the input shapes, so these implicit-batch calls reject "
        "any batch size above 1 there.",
        "For an explicit-batch engine call execute_v2(bindings) / execute_async_v2(bindings, stream) "
        "(enqueueV3 with set_tensor_address on TensorRT 8.5 and later), with the batch in the input's shape "
        "and a device buffer for every input and output binding; for an implicit-batch engine keep the "
        "batch at or below the builder's max_batch_size of the build, or rebuild with a larger one.",
        _TRT8_RUNTIME_H + " (ICudaEngine::getMaxBatchSize: 'For an engine built from an INetworkDefinition "
        "without an implicit batch dimension, this will always return 1'; IExecutionContext::execute, "
        "executeV2); thread NVIDIA/TensorRT#1929 (NVIDIA: allocate the buffers of every input and output "
        "binding)",
        _TRT_CALL_CONTEXT,
    ),
    Clause(
        "trt-api-profile-dims-negative",
        ("tensorrt",),
        "std::all_of(dims.d",
        _TRT_CHECK_AT + r"(?P<arg>std::all_of\(dims\.d, dims\.d \+ dims\.nbDims[^\n]{0,80}?x >= 0;? ?\}\))",
        "A shape given to an optimization profile ({call|IOptimizationProfile::setDimensions}: "
        "profile.set_shape, trtexec's --minShapes/--optShapes/--maxShapes) holds a negative value, a -1 "
        "copied from the network's input ({arg} was false): a profile gives a concrete size for every "
        "dimension, the dynamic ones included.",
        "Replace each -1 with a size: profile.set_shape(name, min=(1, 3, 224, 224), opt=(8, 3, 224, 224), "
        "max=(16, 3, 224, 224)), with 0 <= min <= opt <= max in every dimension and the network's own value "
        "where it is not -1; for trtexec write each shape out in full (--minShapes=input:1x3x224x224).",
        _TRT_RUNTIME_H + " (IOptimizationProfile::setDimensions: '(2) 0 <= minDims.d[i] <= optDims.d[i] "
        "<= maxDims.d[i]', '(3) if networkDims.d[i] != -1, then minDims.d[i] == optDims.d[i] == "
        "maxDims.d[i] == networkDims.d[i]')",
        _TRT_CALL_CONTEXT,
    ),
    Clause(
        "trt-api-null-bindings-array",
        ("tensorrt",),
        "bindings != nullptr",
        _TRT_CHECK_AT + r"(?P<arg>bindings != nullptr)",
        "{call|executeV2 / enqueueV2} was given no bindings array at all ({arg} was false): the V2 calls "
        "read the address of every input and output from that array. " + _TRT_NULL_CAUSE,
        "Pass a list of device addresses, one per engine binding in binding order (for i in "
        "range(engine.num_bindings): engine.get_binding_name(i)), e.g. context.execute_v2([int(d_input), "
        "int(d_output)]); on TensorRT 8.5 and later set each address with set_tensor_address and call "
        "enqueue_v3; " + _TRT_NULL_FIX,
        _TRT_LEAN
        + " (IExecutionContext::executeV2: condition bindings != nullptr); "
        + _TRT8_RUNTIME_H
        + " (executeV2: 'An array of pointers to input and output buffers for the network')",
        _TRT_CALL_CONTEXT,
    ),
    Clause(
        "trt-api-input-address-condition",
        ("tensorrt",),
        "profileobliviousbindings.at(profileobliviousindex) != nullptr",
        _TRT_CHECK_AT + r"(?P<arg>mContext\.profileObliviousBindings\.at\(profileObliviousIndex\) != "
        r"nullptr)",
        "enqueueV3/executeV2 found an input without a device address ({arg} was false): " + _TRT_NULL_CAUSE,
        "Call context.set_tensor_address(name, ptr) (setInputTensorAddress) with a device buffer of the "
        "input's size for every input before each enqueue; " + _TRT_NULL_FIX,
        _TRT_LEAN + " (condition mContext.profileObliviousBindings.at(profileObliviousIndex) != nullptr, "
        "'Address is not set for input tensor '); " + _TRT_RUNTIME_H + " (setTensorAddress)",
        _TRT_CALL_CONTEXT,
    ),
    Clause(
        "trt-api-output-address-condition",
        ("tensorrt",),
        "getptrornull(moutputallocators",
        _TRT_CHECK_AT + r"(?P<arg>mContext\.profileObliviousBindings\.at\(profileObliviousIndex\) \|\| "
        r"getPtrOrNull\(mOutputAllocators, profileObliviousIndex\))",
        "enqueueV3/executeV2 found an output with neither a device address nor an IOutputAllocator ({arg} "
        "was false): " + _TRT_NULL_CAUSE,
        "Call context.set_tensor_address(name, ptr) for every output with a buffer of its size "
        "(context.get_tensor_shape(name) after the input shapes are set), or set_output_allocator for an "
        "output whose size is only known at run time; " + _TRT_NULL_FIX,
        _TRT_LEAN + " (condition mContext.profileObliviousBindings.at(profileObliviousIndex) || "
        "getPtrOrNull(mOutputAllocators, profileObliviousIndex), 'Neither address or allocator is set for "
        "output tensor '); " + _TRT_RUNTIME_H + " (setTensorAddress, setOutputAllocator)",
        _TRT_CALL_CONTEXT,
    ),
    Clause(
        "trt-api-not-an-output-tensor",
        ("tensorrt",),
        "is not an output tensor, cannot ",
        r"(?P<tensor>[^\s(:]{1,200}) is not an output tensor, cannot (?P<value>set output address|get its "
        r"output address|set output allocator|get its max output size)",
        "{tensor} is not an output of this engine, so TensorRT cannot {value} for it "
        "({call|setOutputTensorAddress, getOutputTensorAddress, setOutputAllocator, getMaxOutputSize}): an "
        "input's name, a misspelt name, or a name from another export of the model.",
        "List the engine's I/O names and modes (for i in range(engine.num_io_tensors): name = "
        "engine.get_tensor_name(i); engine.get_tensor_mode(name)) and use the TensorIOMode.OUTPUT names for "
        "the output calls; give an input its buffer with set_tensor_address / setInputTensorAddress "
        "instead of {tensor}'s output call; to read an intermediate tensor, mark it as a network output and "
        "rebuild.",
        _TRT_LEAN + " (' is not an output tensor, cannot set output address for it.', ' is not an output "
        "tensor, cannot get its output address.', ' is not an output tensor, cannot set output allocator for "
        "it.', ' is not an output tensor, cannot get its max output size.')",
        _TRT_CALL_CONTEXT,
    ),
    Clause(
        "trt-api-device-memory-not-user-managed",
        ("tensorrt",),
        "context not created with user managed device memory",
        r"(?P<call>setDeviceMemory(?:V2)?)?(?::\s)?Context not created with user managed device memory",
        "{call|setDeviceMemory} was called on an execution context that allocates its own device memory: "
        "only a context created with ExecutionContextAllocationStrategy kUSER_MANAGED "
        "(create_execution_context_without_device_memory) takes memory from the application.",
        "Create the context with user-managed memory (engine.create_execution_context("
        "trt.ExecutionContextAllocationStrategy.USER_MANAGED), or "
        "create_execution_context_without_device_memory) before calling set_device_memory, or drop the "
        "set_device_memory call and let the default context allocate its memory.",
        _TRT_LEAN + " ('setDeviceMemory: Context not created with user managed device memory, cannot set "
        "buffer', condition mAllocationStrategy == ExecutionContextAllocationStrategy::kUSER_MANAGED); "
        + _TRT_RUNTIME_H
        + " (ExecutionContextAllocationStrategy kUSER_MANAGED: 'The user supplies custom "
        "allocation to the execution context')",
    ),
    Clause(
        "trt-api-device-memory-null",
        ("tensorrt",),
        "cannot set memory to nullptr",
        r"(?P<call>setDeviceMemory(?:V2)?): Cannot set memory to nullptr",
        "{call} was given a null pointer while the engine needs device memory for its activations: the "
        "buffer meant for the context was never allocated (a failed or skipped cudaMalloc, a freed tensor's "
        "pointer).",
        "Allocate engine.device_memory_size_v2 bytes (or get_device_memory_size_for_profile_v2(profile)) "
        "on the GPU, check the allocation succeeded, and pass that pointer to {call}; keep the buffer alive "
        "as long as the context runs.",
        _TRT_LEAN + " ('setDeviceMemory: Cannot set memory to nullptr.', 'setDeviceMemoryV2: Cannot set "
        "memory to nullptr.'); " + _TRT_RUNTIME_H + " (ICudaEngine::getDeviceMemorySizeV2)",
    ),
    Clause(
        "trt-api-aux-streams",
        ("tensorrt",),
        "the aux streams must ",
        r"The aux streams must (?P<value>not be the default cuda stream|be all different)",
        "setAuxStreams was given auxiliary streams that break its rule: they must {value}. TensorRT "
        "synchronises the main stream of enqueueV3 with every auxiliary stream, so the default stream or "
        "one stream given twice would deadlock.",
        "Create one stream per auxiliary stream with cudaStreamCreate (torch.cuda.Stream(), "
        "cuda.cuStreamCreate), none of them the default stream (0) nor the stream passed to enqueueV3, and "
        "pass at most engine.num_aux_streams of them to set_aux_streams.",
        _TRT_LEAN + " ('The aux streams must not be the default cuda stream.', 'The aux streams must be all "
        "different to avoid deadlocks.'); " + _TRT_RUNTIME_H + " (IExecutionContext::setAuxStreams: 'The "
        "provided auxiliary streams must not be the default stream and must all be different to avoid "
        "deadlocks')",
    ),
    Clause(
        "trt-api-persistent-cache-limit",
        ("tensorrt",),
        "the set persistent cache limit size",
        r"The set persistent cache limit size\((?P<value>\d{1,15}) bytes\) is larger than "
        r"cudaDeviceProp\.persistingL2CacheMaxSize\((?P<value2>\d{1,15})",
        "setPersistentCacheLimit asked for {value} bytes of persistent L2 cache, more than this GPU has for "
        "persisting accesses (cudaDeviceProp.persistingL2CacheMaxSize {value2} bytes; 0 on GPUs without "
        "the feature).",
        "Pass at most {value2} bytes to context.persistent_cache_limit (read it from "
        "cudaDeviceProp.persistingL2CacheMaxSize of the GPU that runs the engine, not of the one that built "
        "it), or leave it at its default 0.",
        _TRT_LEAN + " ('The set persistent cache limit size(', ' bytes) is larger than "
        "cudaDeviceProp.persistingL2CacheMaxSize('); " + _TRT_RUNTIME_H + " "
        "(IExecutionContext::setPersistentCacheLimit)",
    ),
    Clause(
        "trt-engine-destroyed-before-contexts",
        ("tensorrt",),
        "destroying an engine object before destroying the ",
        r"Destroying an engine object before destroying the (?P<value>IExecutionContext|IEngineInspector) "
        r"objects it created",
        "The engine (ICudaEngine) was destroyed while {value} objects it created were still alive: a context "
        "or inspector uses its engine's memory, so TensorRT reports the order as undefined behaviour (at "
        "exit, or when the engine was released first: a Python engine object garbage-collected before its "
        "context, a C++ delete in the wrong order).",
        "Destroy in reverse order of creation: every {value} first, then the engine, then the runtime "
        "(C++: delete context; delete engine; delete runtime, or smart pointers declared runtime, engine, "
        "context so they go out of scope in reverse; Python: del context before del engine, and keep the "
        "engine referenced, e.g. on the same object, as long as any context is used).",
        _TRT_LEAN + " ('Destroying an engine object before destroying the IExecutionContext objects it "
        "created leads to undefined behavior.', '... the IEngineInspector objects it created ...', "
        "'Destroying a runtime before destroying deserialized engines created by the runtime leads to "
        "undefined behavior.')",
    ),
    Clause(
        "onnx-trt-model-deserialize",
        ("tensorrt",),
        "failed to parse the onnx model",
        r"Failed to parse the ONNX model(?:; input is not a regular file)?[.!]",
        "The ONNX parser could not read the bytes it was given as an ONNX model (protobuf's "
        "ParseFromCodedStream in {arg|onnxProtoUtils.hpp} failed: ErrorCode MODEL_DESERIALIZE_FAILED) "
        "before it looked at any node: what it read is not one whole ONNX ModelProto: a truncated file (a "
        "download or copy cut short, a Git LFS pointer in place of the model), a file of another format (a "
        "PyTorch .pt, a TensorRT engine, a text dump), one protobuf over its 2 GB limit, or a wrong path or "
        "bytes read in text mode.",
        "Check the file before TensorRT: its size against the original (git lfs pull when it is a small "
        "text pointer), then python -c \"import onnx; onnx.checker.check_model('model.onnx', "
        'full_check=True)" (by path, so a model over 2 GB is checked with its external data); save a model '
        "over 2 GB with onnx.save(model, 'model.onnx', save_as_external_data=True) and keep the .data file "
        "beside it; give the parser the path (trtexec --onnx=model.onnx, parser.parse_from_file) or the "
        "bytes read with open(path, 'rb'); re-export when onnx.load fails too.",
        "onnx/onnx-tensorrt: onnxProtoUtils.hpp (deserializeOnnxModel: ASSERT(model->ParseFromCodedStream"
        '(...) && "Failed to parse the ONNX model.", kMODEL_DESERIALIZE_FAILED)), ModelRefitter.cpp',
    ),
    Clause(
        "onnx-trt-input-must-be-weights",
        ("tensorrt",),
        "is_weights()",
        r"(?P<input>(?:inputs\.at\(\d{1,2}\)|inputs\[\d{1,2}\]|\w{1,40}))\.is_weights\(\)",
        "The ONNX parser's importer for {op_type|this op} (node number {index|not shown}) needs {input} as "
        "a constant initializer (weights known when the engine is built) and in this graph it is computed "
        "by other nodes (a Shape/Gather/Concat chain of a dynamic export, or a Cast/DequantizeLinear on the "
        "weights).",
        "Fold the computation into a constant before parsing: polygraphy surgeon sanitize model.onnx "
        "--fold-constants -o folded.onnx (or onnxsim with fixed input shapes); when it depends on the input "
        "shape, export with static shapes or do_constant_folding=True. "
        "The check is the parser's own ({arg|in onnx-tensorrt's op importers}).",
        _ONNX_TRT,
        _TRT_IMPORT,
        "",
        _TRT_NOT_A_NODE,
    ),
    Clause(
        "onnx-trt-axis-range",
        ("tensorrt",),
        "axis < nbdims",
        r"(?P<value>axis >= 0 && axis < nbDims)",
        "The ONNX parser's importer for {op_type|this op} (node number {index|not shown}) turns the node's "
        "axis attribute into a TensorRT axis (convertAxis: a negative axis has the input's rank added) and "
        "the result is outside [0, rank), so its check '{value}' failed: the axis names a dimension the "
        "input does not have as TensorRT sees it: the tensor reaching the node has a lower rank than the "
        "exporter assumed (a scalar or 1-D tensor, a rank lost in a Squeeze/Reshape of a dynamic export), "
        "or, in the implicit-batch parsers of TensorRT 6 and older, which strip the batch dimension (a "
        "positive axis has 1 taken off), the node works on axis 0, the batch.",
        "Compare the axis attribute of the {op_type|failing} node {op|} with the rank of its input "
        "(polygraphy inspect model model.onnx --show layers, or onnx.shape_inference.infer_shapes): fold "
        "the shape computations and fix the input shapes so the rank is known (polygraphy surgeon sanitize "
        "model.onnx --fold-constants --override-input-shapes name:[1,3,640,640]), or change the axis or "
        "the op in the source model and export again; with an implicit-batch TensorRT, keep the op off the "
        "batch axis or move to TensorRT 7+ with an explicit-batch network. "
        "The check is the parser's own ({arg|in onnx-tensorrt's op importers}).",
        "onnx/onnx-tensorrt: onnx2trt_utils.cpp (convertAxis / convert_axis: if (axis < 0) axis += nbDims; "
        "ASSERT(axis >= 0 && axis < nbDims, ErrorCode::kUNSUPPORTED_NODE); the implicit-batch releases "
        "subtract 1 from a positive axis)",
        _TRT_IMPORT,
        "",
        _TRT_NOT_A_NODE,
    ),
    Clause(
        "onnx-trt-rank",
        ("tensorrt",),
        "nbdims",
        r"(?P<value>(?:[\w.()>-]{0,60}\.)?nbDims\s{0,4}(?:[<>]=?|[=!]=)\s{0,4}(?:\d{1,2}|[\w()>-]{1,60}"
        r"(?:\.[\w()>-]{1,60}){0,3}\.nbDims)"
        r"(?:\s{0,4}&&\s{0,4}(?:[\w.()>-]{0,60}\.)?nbDims\s{0,4}(?:[<>]=?|[=!]=)\s{0,4}\d{1,2})?)",
        "The ONNX parser's importer for {op_type|this op} (node number {index|not shown}) only takes an "
        "input whose rank satisfies {value}; the tensor reaching it in this graph has another rank.",
        "Give the {op_type|failing} node {op|} an input of a rank that satisfies {value}: reshape or "
        "unsqueeze the input before it and squeeze the result after it in the ONNX graph (polygraphy "
        "inspect model --show layers shows the rank that reaches it), or export the layer in a form of that "
        "rank. "
        "The check is the parser's own ({arg|in onnx-tensorrt's op importers}).",
        _ONNX_TRT,
        _TRT_IMPORT,
        "",
        _TRT_NOT_A_NODE,
    ),
    Clause(
        "onnx-trt-data-type",
        ("tensorrt",),
        "datatype::k",
        r"(?P<value>[\w.()>-]{0,60}(?:getType\(\)|type\(\)|dtype)\s{0,4}[=!]=\s{0,4}(?:nvinfer1::)?"
        r"DataType::k(?P<dtype>[A-Z0-9]{2,12}))",
        "The ONNX parser's importer for {op_type|this op} (node number {index|not shown}) checks the data "
        "type of a tensor ({value}) and the tensor of this graph fails that check: its type is not what the "
        "importer takes.",
        "Insert a Cast in the ONNX graph so the tensor meets {value} (to or from {dtype}) before the "
        "{op_type|failing} node, and cast the result back after it if later nodes need the old type. "
        "The check is the parser's own ({arg|in onnx-tensorrt's op importers}).",
        _ONNX_TRT,
        _TRT_IMPORT,
        "",
        _TRT_NOT_A_NODE,
    ),
    Clause(
        "onnx-trt-static-shape",
        ("tensorrt",),
        "dynamic",
        r"(?P<value>!isDynamic\([\w.()]{1,60}\)|does not support dynamic axes[^\n\"]{0,40}|Dynamic shape for "
        r"[\w ]{1,40} is not supported|does not work for dynamically shaped tensors)",
        "The ONNX parser's importer for {op_type|this op} (node number {index|not shown}) needs a static "
        "shape at this point ({value}) and the model has a dynamic dimension there (an input exported with "
        "dynamic axes, or a size computed from one).",
        "Make the shape static before parsing: export with fixed input sizes, or fix the dynamic inputs with "
        "polygraphy surgeon sanitize model.onnx --override-input-shapes name:[1,3,640,640] --fold-constants, "
        "so the {op_type|failing} node {op|} sees fixed sizes and the computed ones fold to constants. "
        "The check is the parser's own ({arg|in onnx-tensorrt's op importers}).",
        _ONNX_TRT,
        _TRT_IMPORT,
        "",
        _TRT_NOT_A_NODE,
    ),
    Clause(
        "onnx-trt-stated-requirement",
        ("tensorrt",),
        '&& "',
        r'&& "(?P<value>[^"\n]{4,200})"',
        *_TRT_REQUIREMENT,
        _ONNX_TRT,
        _TRT_IMPORT,
        "",
        _TRT_BUILDER_ASSERT,
    ),
    # onnx-tensorrt's ASSERT_NODE (Status.hpp) prints 'Assertion failed: <condition>: <message>', ASSERT the
    # older '<condition> && "<message>"': the same requirement in its own words.
    Clause(
        "onnx-trt-stated-requirement-node",
        ("tensorrt",),
        "assertion failed: ",
        r"Assertion failed: [^\n:]{1,200}(?:::[^\n:]{1,100}){0,4}: (?P<value>[A-Z][^\n]{3,200}?)"
        r"\s{0,4}(?:\n|$)",
        *_TRT_REQUIREMENT,
        _ONNX_TRT,
        _TRT_IMPORT,
        "",
        _TRT_NOT_A_NODE,
    ),
    Clause(
        "trt-runtime-broadcast",
        ("tensorrt",),
        "broadcast has incompatible dimensions",
        r"(?:(?P<op>[^\s():]{1,200}): )?Broadcast has incompatible dimensions: (?P<value>-?\d{1,12}) != "
        r"(?P<value2>-?\d{1,12})",
        "At run time TensorRT computed the shapes of layer {op|of the engine} for the input shapes "
        "set, and two of its inputs do not broadcast: a dimension of size {value} meets one of size "
        "{value2} (they must be equal, or one of them 1). The input shapes set now give two branches of "
        "the network different sizes on an axis the model ties together.",
        "Set input shapes that agree with each other (set_input_shape for every dynamic input, the same "
        "size on the axes the model ties together), or rebuild with an export (dynamic_axes) and "
        "optimisation profile under which those branches keep one size; polygraphy run model.onnx --trt "
        "--onnxrt with the same inputs shows the shapes that reach {op|the layer}.",
        "NVIDIA TensorRT runtime (libnvinfer): shape checks of an engine at enqueue ('Broadcast has "
        "incompatible dimensions: ...')",
        "",
    ),
    Clause(
        "trt-shape-machine-check",
        ("tensorrt",),
        "instruction: ",
        r"(?:(?:Internal Error \()?(?P<value2>[^\n]{1,300}?)\s{0,4})?Instruction: (?P<arg>CHECK_BROADCAST|"
        r"CHECK_EQUAL|CHECK_LESS|CHECK_SLICE|CHECK_VOLUME|RESHAPE_ZERO_IS_PLACEHOLDER|RESHAPE|GATHER|SCATTER)"
        r"\b(?P<value>[^\n)]{0,80}?)\.?(?:\)|\n|$)",
        "A shape check that TensorRT compiled into the engine failed at run time for the input shapes "
        "given ('{value2|the shape machine's fault}', instruction {arg} {value|}): the shapes lie inside the "
        "optimization profile, yet for these sizes a layer's own rule does not hold: two dimensions that "
        "must be equal or broadcastable differ (CHECK_EQUAL, CHECK_BROADCAST), a slice or gather index falls "
        "past a dimension (CHECK_LESS, CHECK_SLICE, GATHER), or a Reshape's target volume differs from its "
        "input's (RESHAPE).",
        "Check the shapes fed against each other and against the model: inputs that share a dimension "
        "(input_ids and attention_mask of one sequence length, an image and its mask) must agree; run the "
        "ONNX model with the same shapes in onnxruntime (polygraphy run model.onnx --onnxrt --trt "
        "--input-shapes ...) to see whether the model itself rejects them. A size the exporter baked in as "
        "a constant (a Reshape or Slice traced at one input size) needs the model re-exported with that "
        "size computed from the input's shape (or constant-folded for one fixed size); otherwise narrow "
        "the optimization profile to the sizes the model accepts.",
        _TRT_LEAN + " (runtime/core/shapeMachine.cpp: executeContinuation, its fault messages ' "
        "Instruction: ', 'reshape would change volume ', \"Condition '<' violated: \", \"Condition '==' "
        'violated: " and the instructions CHECK_BROADCAST, CHECK_EQUAL, CHECK_LESS, CHECK_SLICE, '
        "CHECK_VOLUME, RESHAPE, GATHER); MindSpore Lite TensorRT delegate FAQ ('shapeMachine.cpp (252) - "
        "Shape Error in operator(): broadcast with incompatible Dimensions', 'Instruction: CHECK_BROADCAST')",
    ),
    # --- TensorRT's ONNX parser: conditions of the importer's ASSERTs -----------------------------------
    Clause(
        "trt-gpu-memory",
        ("tensorrt",),
        "requested amount of gpu memory",
        r"Requested amount of GPU memory \((?P<value>\d{1,20}) bytes\) could not be allocated",
        "TensorRT asked the GPU for {value} bytes and the allocation failed: the device has less free "
        "memory than the build or the engine needs (other processes, a large workspace, several engines or "
        "execution contexts at once).",
        "Free the device (nvidia-smi shows who holds it) or lower the need: a smaller workspace "
        "(--memPoolSize=workspace:N / config.set_memory_pool_limit), a smaller max shape of the optimisation "
        "profile or batch, one execution context per engine; {value} bytes is what this allocation needed.",
        "NVIDIA TensorRT: IGpuAllocator / builder memory pool (its 'Requested amount of GPU memory' message)",
        "",
    ),
    # --- onnxruntime's DirectML execution provider ------------------------------------------------------
    Clause(
        "ort-kernel-not-found",
        ("onnxruntime",),
        "failed to find kernel for",
        r"Failed to find kernel for (?P<op_type>\w{1,80})\((?P<value>\d{1,3})\)(?:[^\n]{0,20}?node:?\s?'?"
        r"(?P<op>[^'\n]{1,120})'?)?(?:[^\n]{0,20}?ep:?\s?'?(?P<option>\w{1,60}))?",
        "onnxruntime has no kernel for {op_type} at opset version {value} in the execution provider the "
        "node was assigned to ({option|see the ep named in the message}); every node needs a kernel of its "
        "provider for its op, opset version and input types.",
        "Give the {op_type} node {op|} a provider that implements {op_type}({value}) (the CPU provider "
        "registers the most; add it after the accelerator provider), convert the model to an opset the "
        "provider implements (onnx.version_converter.convert_version), or feed {op_type} a data type its "
        "kernel takes.",
        "onnxruntime: core/framework/kernel_registry.cc ('Failed to find kernel for ... Kernel not found')",
        "",
    ),
    Clause(
        "ort-reshape-size",
        ("onnxruntime",),
        "cannot be reshaped to the requested shape",
        r"The input tensor cannot be reshaped to the requested shape\. Input shape:\s{0,2}"
        r"(?P<shape>\{[^}\n]{0,120}\}),?\s{0,2}requested shape:\s{0,2}(?P<shape2>\{[^}\n]{0,120}\})",
        "onnxruntime's Reshape node {op|} received an input of shape {shape}, whose element count differs "
        "from that of the requested shape {shape2}: the shape input of the Reshape was computed for another "
        "input size (a model exported with fixed sizes fed another size, or a constant shape baked in at "
        "export).",
        "Feed the model the input size it was exported with, or re-export with that axis dynamic "
        "(dynamic_axes) so the Reshape's target ({shape2}) is computed from the input; where the target is a "
        "constant, use -1 for the dimension that varies.",
        "onnxruntime: core/providers/cpu/tensor/reshape_helper.h ('The input tensor cannot be reshaped to "
        "the requested shape. Input shape:..., requested shape:...')",
        "",
    ),
    # The whole message (both types in their parentheses) is onnxruntime-INVALID-ARGUMENT-2's; this clause
    # answers a card (a status card, the family card) that ranks first, in whole or cut short.
    Clause(
        "ort-unexpected-input-type",
        ("onnxruntime",),
        "unexpected input data type.",
        r"Unexpected input data type\.\s?Actual: \((?P<dtype>[^\n]{1,120}?)\) , expected: "
        r"\((?P<dtype2>tensor\([^()\n]{1,60}\)|(?:tensor\()?[^()\n]{1,120})(?:\)|(?=\n|\Z))",
        "The array fed for a model input has element type {dtype} where the model's input is {dtype2}: "
        "onnxruntime checks each feed's type against the graph's input before it runs and does not convert "
        "it (older releases print the C++ type: PrimitiveDataType<MLFloat16> is float16, <float> or <f> "
        "float32, <double> or <d> float64, <int64_t> or <l> int64, <int> or <i> int32).  Typical: float64 "
        "numpy arrays fed to a float32 model, or float32 fed to a model converted to float16.",
        "Cast the array to the input's type before run (numpy: .astype(np.float32) for tensor(float), "
        ".astype(np.float16) for tensor(float16)); session.get_inputs() lists each input's type.  A model "
        "converted to float16 with keep_io_types=True keeps float32 inputs and outputs.",
        "onnxruntime: core/session/inference_session.cc (ValidateInputsOutputs: 'Unexpected input data "
        "type. Actual: (...) , expected: (...)')",
        "",
    ),
    # The whole message (with "in node (...) is invalid") is onnxruntime-type-of-input-parameter-invalid's;
    # this clause answers a card (a status card) that ranks first, in whole or cut short before the node.
    Clause(
        "ort-type-of-input-parameter",
        ("onnxruntime",),
        "' of input parameter (",
        r"Type Error: Type '(?P<dtype>[^'\n]{1,60})' of input parameter \((?P<input>[^)\n]{1,200})\) of "
        r"operator \((?P<op_type>\w{1,80})(?!\w)(?:\) in node \((?P<node>[^)\n]{1,200})\))?",
        "Input {input} of a {op_type} node is {dtype}, a type the ONNX schema of {op_type} does not "
        "allow for that input at the model's opset, so onnxruntime's graph type check rejects the model "
        "when it loads it.",
        "Give {input} a type the schema lists for that input of {op_type} "
        "(onnx.defs.get_schema('{op_type}') prints each input's allowed types): insert a Cast before the "
        "node or export the value with that type; shape, index and count inputs are usually tensor(int64), "
        "and a float16 model may need a Cast to float32 where {op_type} has no float16 form at that opset.",
        "onnxruntime: core/graph/graph.cc (InferAndVerifyTypeMatch: 'Type Error: Type '...' of input "
        "parameter (...) of operator (...) in node (...) is invalid.')",
        "",
    ),
    Clause(
        "ort-trt-ep-engine-build",
        ("onnxruntime",),
        "tensorrt ep ",
        r"TensorRT EP (?:failed to create engine from network|Failed to Build Engine)"
        r"(?: for fused node: (?P<op>[A-Za-z0-9_]{1,200}))?",
        "The TensorRT execution provider handed its partition of the graph ({op|one fused node}) to the "
        "TensorRT builder and the build returned no engine. onnxruntime adds nothing to why: TensorRT's own "
        "reason is the [E] line the provider's TensorRT logger printed just before (a layer the builder "
        "cannot implement, too little workspace or GPU memory for any tactic, a precision this GPU lacks, a "
        "shape range no tactic covers).",
        "Read the TensorRT error logged before this line (session log_severity_level=0 shows it); build the "
        "same model with trtexec --onnx=model.onnx --verbose to see which layer fails; then keep those op "
        "types on the CUDA provider (trt_op_types_to_exclude, with CUDAExecutionProvider listed after "
        "TensorRT), raise trt_max_workspace_size, or turn off trt_fp16_enable / trt_int8_enable if the "
        "precision is the problem.",
        "onnxruntime: core/providers/tensorrt/tensorrt_execution_provider.cc ('TensorRT EP failed to create "
        "engine from network for fused node: ', 'TensorRT EP Failed to Build Engine.'); onnxruntime.ai docs "
        "'TensorRT Execution Provider' (trt_max_workspace_size, trt_op_types_to_exclude)",
        "",
    ),
    Clause(
        "directml-invalid-argument",
        ("onnxruntime",),
        "the parameter is incorrect",
        r"The parameter is incorrect",
        "DirectML rejected the description of the {op_type|} operator onnxruntime asked it to create "
        "(E_INVALIDARG, 'The parameter is incorrect.'): a rank, data type or attribute value that DirectML's "
        "operator does not take (most DirectML operators take at most 4 or 5 dimensions; some data types "
        "only on newer feature levels).",
        "Check the {op_type|failing} nodes' inputs (rank, data type) and attributes against DirectML's "
        "operator: run the model on the CPU execution provider to confirm the model itself is valid, then "
        "reshape the inputs to 4 dimensions around the op, or run that part of the model in a CPU session; "
        "a newer DirectML redistributable with onnxruntime-directml may take it.",
        "onnxruntime DirectML EP: DmlOperator*.cpp (the operator that failed is the DmlOperator<Op>.cpp "
        "frame); Win32 E_INVALIDARG text",
        r"DmlOperator(?P<op_type>[A-Z][A-Za-z]{1,60})\.cpp",
    ),
    # --- OpenVINO -------------------------------------------------------------------------------------
    Clause(
        "openvino-empty-any",
        ("openvino",),
        "any was not initialized",
        r"Any was not initialized",
        "OpenVINO read a value out of an empty ov::Any ('Any was not initialized'): a property, config entry "
        "or rt_info value that was asked for holds nothing: it was never set, or None was passed as its "
        "value.",
        "Check the properties passed to compile_model / set_property (every key with a value, no None) and "
        "the ones read with get_property / get_rt_info (read only keys the device lists in "
        "ov::supported_properties, or test with has_rt_info first).",
        "openvinotoolkit/openvino: src/core/src/any.cpp (OPENVINO_ASSERT(_impl != nullptr, 'Any was not "
        "initialized.'))",
        "",
    ),
    # --- any tool: the C++ runtime, CUDA, the dynamic loader (their own wording) ------------------------
    Clause(
        "libstdcxx-vector-subscript",
        (ANY,),
        "__n < this->size()",
        r"Assertion '__n < this->size\(\)' failed",
        _VECTOR_CAUSE,
        _VECTOR_FIX,
        "libstdc++ stl_vector.h operator[] (__glibcxx_requires_subscript under _GLIBCXX_ASSERTIONS)",
        _VECTOR_OF,
    ),
    Clause(
        "libstdcxx-vector-range-check",
        (ANY,),
        "vector::_m_range_check",
        r"vector::_M_range_check: __n \(which is (?P<index>\d{1,20})\) >= this->size\(\) "
        r"\(which is (?P<size>\d{1,20})\)",
        "A bounds check of the C++ standard library stopped the tool: it read item {index} of a std::vector "
        "that holds {size} (vector::at(), whose _M_range_check threw std::out_of_range). In a model loader "
        "or a graph pass this is nearly always a node with fewer inputs or outputs, or a shape of lower "
        "rank, than the code reading it expects.",
        _VECTOR_FIX,
        "libstdc++ stl_vector.h vector::_M_range_check ('vector::_M_range_check: __n (which is %zu) >= "
        "this->size() (which is %zu)', thrown as std::out_of_range by at())",
        "",
    ),
    Clause(
        "msvc-vector-subscript",
        (ANY,),
        "vector subscript out of range",
        r"vector subscript out of range",
        _VECTOR_CAUSE,
        _VECTOR_FIX,
        "Microsoft STL <vector> operator[] debug check ('vector subscript out of range')",
        "",
    ),
    Clause(
        "msvc-invalid-map-key",
        (ANY,),
        "<k, t> key",
        r"invalid (?P<value>unordered_map|map)<K, T> key",
        "Microsoft's C++ standard library (MSVC STL, so a Windows build of the tool) threw std::out_of_range "
        "from {value}::at(): code looked up a key that is not in the {value}. The text names neither the key "
        "nor the map; the step of the tool that printed the lines around it made the lookup (a Linux build "
        "reads '_Map_base::at' or 'map::at' for the same failure).",
        "Read the lines around it for the step that failed (OpenVINO's innermost 'Exception from src/...' "
        "line, a converter's op or tensor name) and check the names that step looks up: property keys and "
        "device names as the device lists them (SUPPORTED_PROPERTIES), input and output tensor names the "
        "model really has, op types or attributes of the source model; reproducing on Linux or with a debug "
        "build shows the key.",
        'microsoft/STL: stl/inc/unordered_map and stl/inc/map (at(): _Xout_of_range("invalid '
        'unordered_map<K, T> key"), _Xout_of_range("invalid map<K, T> key"))',
        "",
        "",
        r"E5RT encountered an STL exception",
    ),
    Clause(
        "stl-map-at-key-not-found",
        (ANY,),
        "key not found",
        r"(?P<value>unordered_map|map)::at:\s{0,2}key not found",
        "The C++ standard library's {value}::at() threw std::out_of_range: code looked up a key that is not "
        "in the {value}. The wording 'key not found' is LLVM's libc++ (the C++ library of Android NDK and "
        "macOS builds; libstdc++ says '_Map_base::at', MSVC 'invalid unordered_map<K, T> key'). The text "
        "names neither the key nor the map; the step of the tool that printed the lines around it made the "
        "lookup.",
        "Read the lines around it for the step that failed (onnxruntime's 'Exception during initialization' "
        "is the session's set-up of the model and its execution providers; an OpenVINO 'Exception from "
        "src/...' line; a converter's op or tensor name) and check the names that step looks up: the "
        "model's input, output and initializer names, the op types and domains of its nodes, provider "
        "options and property keys; loading the same model on a desktop build, where the failing step is "
        "logged in more detail, narrows it down.",
        "llvm/llvm-project: libcxx/include/unordered_map and libcxx/include/map (at(): "
        '__throw_out_of_range("unordered_map::at: key not found"), "map::at:  key not found")',
        "",
        "",
        r"E5RT encountered an STL exception",
    ),
    Clause(
        "cuda-out-of-memory",
        (ANY,),
        "out of memory",
        r"(?:(?:Cuda|CUDA) (?:Error in (?P<value>\w{1,60})|error|failure)[: ]{1,3}2\b[: ]{0,3}\(?"
        r"|cudaErrorMemoryAllocation\s{0,2}:?\s{0,2})out of memory",
        "The CUDA runtime could not allocate device memory (cudaErrorMemoryAllocation, 2: 'out of memory') "
        "in {value|an allocation}: the GPU has less free memory than this step needs (other processes on the "
        "GPU, a large batch or input, a large TensorRT workspace, several sessions or engines at once).",
        "See what holds the GPU (nvidia-smi) and free it, or lower the need: a smaller batch or input size, "
        "one session per GPU, a smaller TensorRT workspace (trt_max_workspace_size) or onnxruntime's "
        "gpu_mem_limit / arena_extend_strategy=kSameAsRequested for the CUDA arena.",
        "CUDA runtime API: cudaErrorMemoryAllocation = 2 ('out of memory')",
        "",
    ),
    # --- any tool: the dynamic loader ---------------------------------------------------------------------
    Clause(
        "shared-library-missing",
        (ANY,),
        "cannot open shared object file",
        r"(?P<path>[\w.+-]{1,120}\.so(?:\.\d{1,6}){0,4}): cannot open shared object file: No such file",
        "The dynamic loader could not find the library {path}: it is not installed, or its folder is not on "
        "the loader's search path (LD_LIBRARY_PATH, ldconfig), or it is of another version than the one "
        "this binary was linked against.",
        "Find it with ldconfig -p | grep {path} (or find / -name '{path}*'); install the package that ships "
        "it in the version this build expects, or add its folder to LD_LIBRARY_PATH (for a toolkit, source "
        "the toolkit's environment script first).",
        "glibc ld.so: 'cannot open shared object file' (dlopen/ld.so error wording)",
        "",
    ),
    Clause(
        "shared-library-symbol-version",
        (ANY,),
        "with link time reference",
        r"symbol (?P<value>[\w$@.]{1,200}),? version (?P<version>[\w.@-]{1,80}) not defined in file "
        r"(?P<path>[\w.+-]{1,120}) with link time reference",
        "The library loaded as {path} is not the version the library that needs it was linked against: it "
        "lacks the versioned symbol {value} ({version}). Two releases of one library are mixed, usually an "
        "older copy found first on the loader's search path (LD_LIBRARY_PATH, a conda or system folder) "
        "next to one from another release (cuBLAS with cuBLASLt, cuDNN's parts, a wheel's bundled copy).",
        "See which file is loaded (LD_DEBUG=libs, or ldd on the library that failed) and make both come from "
        "one release: remove or reorder the older folder on LD_LIBRARY_PATH, or install the versions this "
        "build expects (the tool's CUDA/cuDNN requirements).",
        "glibc ld.so (elf/dl-lookup.c): 'symbol %s, version %s not defined in file %s with link time "
        "reference'",
        "",
    ),
    Clause(
        "windows-library-missing",
        (ANY,),
        "loadlibrary failed with error 126",
        r'LoadLibrary failed with error 126[^\n]{0,40}?when trying to load "(?P<path>[^"\n]{1,300})"',
        "Windows could not load {path} or a DLL it depends on (error 126, ERROR_MOD_NOT_FOUND): usually a "
        "dependency of it (the CUDA, cuDNN or TensorRT DLLs, the MSVC runtime) is not on PATH.",
        "Put the folders of its dependencies on PATH (CUDA's bin, cuDNN's bin, TensorRT's lib) in versions "
        "this build expects, install the Visual C++ redistributable, and list what {path} still misses with "
        "a dependency walker (Dependencies.exe).",
        "Microsoft Win32 error codes: ERROR_MOD_NOT_FOUND (126)",
        "",
    ),
    # --- Ascend: what an AscendCL/runtime code means for the call that returned it (hicann/runtime's API
    # reference: each call's parameters and constraints; the codes' own cards say what the code is) ------
    Clause(
        "ascend-call-malloc-out-of-memory",
        ("ascend",),
        "malloc",
        _ascend_call(_MALLOC_CALLS, r"207001|200000"),
        "{call} returned {code}: the allocation itself failed. The memory it asks for (device memory; host "
        "memory for a *Host call) has no free block of the requested size left: what this process already "
        "holds counts (a framework's caching allocator, loaded models, earlier buffers never freed), and so "
        "does what other processes hold on the same device.",
        "Check the device's memory use at the moment of the failure (npu-smi info shows HBM use per chip and "
        "the processes holding it); free buffers you no longer need (aclrtFree) and ask for less: a smaller "
        "batch or sequence length, fewer models loaded at once. Under torch_npu, torch.npu.memory_summary() "
        "shows what the caching allocator holds, and PYTORCH_NPU_ALLOC_CONF=expandable_segments:True lowers "
        "fragmentation.",
        _CALL_REF.format("11-01_device_memory_malloc_and_free.md", "aclrtMalloc and its variants"),
        "",
        CALL,
    ),
    Clause(
        "ascend-call-malloc-invalid-argument",
        ("ascend",),
        "malloc",
        _ascend_call(_MALLOC_CALLS, r"100000|107000"),
        "{call} rejected its arguments ({code}) before allocating anything: its size may not be 0, the "
        "devPtr it writes the address to may not be null, and its policy must be a single "
        "aclrtMemMallocPolicy value (policies are not OR-ed together).",
        "Print the size this {call} is given (a size computed from a shape can come out 0 for an empty "
        "tensor: skip the allocation then) and pass the address of a pointer variable and one "
        "ACL_MEM_MALLOC_* policy.",
        _CALL_REF.format("11-01_device_memory_malloc_and_free.md", "aclrtMalloc: size not 0, one policy"),
        "",
        CALL,
    ),
    Clause(
        "ascend-call-memcpy-invalid-argument",
        ("ascend",),
        "memcpy",
        _ascend_call(r"aclrtMemcpy(?:Async|2d|2dAsync)?|rtMemcpy(?:Async)?", r"100000|107000"),
        "{call} rejected the copy ({code}): the runtime checks that count is not larger than destMax (the "
        "destination's size) and works out the copy's direction from the two pointers themselves, so a "
        "null or freed pointer, an address it does not know (a host address where a device one is "
        "expected, memory of another device) or a kind that contradicts the pointers fails this check.",
        "Check the {call} arguments in order: count <= destMax, dst and src allocated with aclrtMalloc "
        "(device) or aclrtMallocHost/malloc (host) and not freed yet, the kind matching where each pointer "
        "lives; "
        "between two devices, call aclrtDeviceCanAccessPeer and aclrtDeviceEnablePeerAccess first.",
        _CALL_REF.format(
            "11-03_memory_copy_and_set.md", "aclrtMemcpy/aclrtMemcpyAsync: dst, destMax, src, count, kind"
        ),
        "",
        CALL,
    ),
    Clause(
        "ascend-call-synchronize-task-failed",
        ("ascend",),
        "synchron",
        _ascend_call(
            r"aclrtSynchronize(?:Stream|Device|Event)(?:WithTimeout)?|rt(?:Stream|Device|Event)Synchronize\w{0,20}",
            r"5070(?:1[0-8]|3[4-6])",
        ),
        "{call} only waits for work launched before it: {code} is the failure of a task that ran earlier "
        "on that stream or device (an operator's kernel on the AI Core or AI CPU, a copy), reported here "
        "because launching is asynchronous: the call that launched it had already returned success.",
        "Find the task that failed: the runtime's error lines printed before this one (an 'aicore exception' "
        "or EZ9999/EE lines name the kernel and the stream); under torch_npu run with "
        "ASCEND_LAUNCH_BLOCKING=1 so the failing operator itself reports the error; in your own code, "
        "synchronize after each launch while you look for it.",
        _CALL_REF.format(
            "06_stream_management.md", "aclrtSynchronizeStream: blocks until all tasks of the stream are done"
        ),
        "",
        CALL,
    ),
    Clause(
        "ascend-call-set-device-id",
        ("ascend",),
        "setdevice",
        _ascend_call(r"aclrtSetDevice|rtSetDevice", r"107001|100000|107000"),
        "{call} was given a device id ({code}) outside the devices this process can see: ids run from 0 to "
        "aclrtGetDeviceCount() - 1, and ASCEND_RT_VISIBLE_DEVICES (or a container that maps only some "
        "chips) renumbers the visible ones from 0.",
        "Print the id passed to {call} and the device count (npu-smi info lists the chips; with "
        "ASCEND_RT_VISIBLE_DEVICES=4,5 they are devices 0 and 1 to the process); in distributed jobs set the "
        "device from the local rank, not the global one.",
        _CALL_REF.format("04_device_management.md", "aclrtSetDevice: deviceId in [0, device count - 1]"),
        "",
        CALL,
    ),
    Clause(
        "ascend-call-create-stream-limit",
        ("ascend",),
        "stream",
        _ascend_call(r"aclrtCreateStream(?:WithConfig)?|rtStreamCreate\w{0,20}", r"207008|207005"),
        "{call} found no stream left to create ({code}): a device has a fixed number of streams (1984 on "
        "Atlas A2/A3 and Ascend 950, 1024 on Atlas inference cards, 512 on Atlas 200I/500 A2), the default "
        "streams of each context included, and streams created and never destroyed count against it.",
        "Destroy streams you no longer use (aclrtDestroyStream) and reuse a few streams instead of creating "
        "one per request or per step; if several processes share the device, create their streams in "
        "batches.",
        _CALL_REF.format("06_stream_management.md", "aclrtCreateStream: the number of streams per device"),
        "",
        CALL,
    ),
    Clause(
        "ascend-call-create-event-limit",
        ("ascend",),
        "event",
        _ascend_call(r"aclrtCreateEvent\w{0,20}|rtEventCreate\w{0,20}", r"207007|207005"),
        "{call} found no event resource left ({code}): the device's events are a limited resource and "
        "every event created and never destroyed keeps one.",
        "Destroy events when done with them (aclrtDestroyEvent), reuse events instead of creating one per "
        "step, and look for a loop that creates an event each iteration.",
        _CALL_REF.format("07_event_management.md", "aclrtCreateEvent"),
        "",
        CALL,
    ),
    Clause(
        "ascend-call-model-load",
        ("ascend",),
        "aclmdlload",
        _ascend_call(r"aclmdlLoad\w{0,30}", r"100003|100005|100006|100012|100013|100014|100015"),
        "{call} could not read or parse the offline model ({code}): the path or memory does not hold a "
        "complete .om file, or the .om was built by atc for another SoC or another CANN release than the "
        "one that loads it.",
        "Check the path and size of the .om file, then rebuild it with atc on the CANN version you run it "
        "with and --soc_version set to the chip npu-smi info reports.",
        _CALL_REF.format("15_model_running_instance_management.md", "aclmdlLoadFromFile/aclmdlLoadFromMem"),
        "",
        CALL,
    ),
    Clause(
        "ascend-call-model-execute-dataset",
        ("ascend",),
        "aclmdlexecute",
        _ascend_call(r"aclmdlExecute\w{0,20}", r"100000|100017|100018|107000"),
        "{call} rejected the datasets it was given ({code}): the input (or output) aclmdlDataset must hold "
        "one buffer per model input (output), in order, each at least the size the model expects; a model "
        "with dynamic dimensions also needs its dynamic batch, image size or dims set for this run.",
        "Build the datasets from the model description: aclmdlGetNumInputs/aclmdlGetNumOutputs buffers, each "
        "of aclmdlGetInputSizeByIndex/aclmdlGetOutputSizeByIndex bytes; for a dynamic model call "
        "aclmdlSetDynamicBatchSize, aclmdlSetDynamicHWSize or aclmdlSetInputDynamicDims before {call}.",
        _CALL_REF.format(
            "15_model_running_instance_management.md", "aclmdlExecute: input and output datasets"
        ),
        "",
        CALL,
    ),
    Clause(
        "ascend-call-model-execute-task-failed",
        ("ascend",),
        "aclmdlexecute",
        _ascend_call(r"aclmdlExecute\w{0,20}", r"5070(?:1[0-8]|3[4-6])"),
        "{call} accepted the model's inputs, and then one of the model's tasks failed on the device while "
        "it ran ({code}): an operator of the model (AI Core or AI CPU kernel) met an exception or timed out.",
        "Read the runtime's error lines printed before this one: they name the operator and the stream; "
        "check the input data fed to the model (values and sizes the model was built for) and, if the "
        "model runs with one input set and fails with another, dump that operator's inputs.",
        _CALL_REF.format("15_model_running_instance_management.md", "aclmdlExecute"),
        "",
        CALL,
    ),
    Clause(
        "ascend-call-op-compile",
        ("ascend",),
        "aclopcompile",
        _ascend_call(r"aclopCompile\w{0,30}", r"100024|500002|100026|100027"),
        "{call} found no way to build this single operator ({code}): no operator of that type in the "
        "operator library this process reads, or none for the data types and formats of the inputs it was "
        "given.",
        "Check the operator type as the library spells it and that ASCEND_OPP_PATH points at the opp of the "
        "CANN version you run (set_env.sh sets it); then the input data types and formats against the "
        "operator's specification.",
        "hicann/runtime: include/external/acl/acl_base_rt.h (ACL_ERROR_OP_NOT_FOUND, "
        "ACL_ERROR_UNSUPPORTED_DATA_TYPE, ACL_ERROR_FORMAT_NOT_MATCH, ACL_ERROR_GE_FAILURE); CANN AscendCL "
        "API reference 'aclopCompile'",
        "",
        CALL,
    ),
    Clause(
        "ascend-call-rts-api",
        ("ascend",),
        "call rts api",
        r"\bcall rts api \[(?P<call>rt[A-Z]\w{1,60})\] failed, retCode is (?P<code>\d{6})(?!\d)",
        "The runtime call {call}, which the AscendCL or framework call above it made, returned {code}; the "
        "runtime's reason for it: {detail|none printed}. {card}",
        "{card_fix} The TraceBack lines above the {call} line say what the runtime was doing when it failed. "
        "For a copy (rtMemcpy, rtMemcpyAsync) where the driver could not map an address ('Convert memory "
        "address from virtual to dma physical failed', 'driver error:invalid handle' or 'invalid value'): "
        "an asynchronous copy between host and device needs its host buffer from aclrtMallocHost "
        "(page-locked), both addresses 64-byte aligned and still allocated, and the device buffer from the "
        "current device and context; check the pointers, sizes and stream the copy was given.",
        "the runtime's error lines ('[Call][Rts]call rts api [<rt call>] failed, retCode is <code>' from "
        "ReportCallError, '<rt call> execute failed, reason=[...]' from FuncErrorReason); CANN AscendCL API "
        "reference 'aclrtMemcpyAsync' (host memory from aclrtMallocHost, 64-byte aligned addresses); "
        + _CALL_ANY,
        r"\brt[A-Z]\w{1,60} execute failed, reason=\[(?P<detail>[^\]\n]{1,120})\]",
        CALL,
    ),
    Clause(
        "ascend-call-ops-function",
        ("ascend",),
        "ops function error",
        r"\bOPS function error: (?P<call>[A-Za-z]\w{0,80}), error code is (?P<code>\d{6})(?!\d)",
        "torch_npu ran the operator {call} through AscendCL's single-operator path (OpParamMaker's InnerRun, "
        "aclopCompileAndExecute) and got {code} back: the failure is that operator's, for the data types, "
        "formats and shapes of this call. {card}",
        "{card_fix} The lines after it (an EZ/EE code that names [{call}]) say whether no kernel of {call} "
        "exists for these data types and formats or its compile or run failed; run {call} alone on the "
        "NPU with the same input dtypes and shapes to confirm, and cast its inputs or run it on the CPU "
        "where this CANN release has no kernel for them.",
        "Ascend/pytorch: torch_npu/csrc/framework/OpParamMaker.cpp (InnerRun: 'OPS function error: <op>, "
        "error code is <code>' after aclopCompileAndExecute); " + _CALL_ANY,
        "",
        CALL,
    ),
    Clause(
        "ascend-call-returned",
        ("ascend",),
        "acl",
        _ascend_call(_ACL_CALL, r"[12]\d{5}"),
        "{call} returned {code}: the call itself refused or failed (its arguments, the state it needs set up "
        "before it, or a resource it asks for). {card}",
        "{card_fix} The page of {call} in the CANN AscendCL API reference lists the arguments it takes and "
        "their constraints (ranges, which device, context or stream they must belong to, what must be "
        "called before it): compare what this call passed with them.",
        _CALL_ANY,
        "",
        CALL,
    ),
    Clause(
        "ascend-call-returned-internal",
        ("ascend",),
        "acl",
        _ascend_call(_ACL_CALL, r"5\d{5}"),
        "{call} returned {code}, an internal or device-side failure: it may be this call's own, or the "
        "failure of a task launched before it (a kernel or a copy) that the runtime reports at the next call "
        "that uses or waits for the stream. {card}",
        "{card_fix} If {call} does not itself run work on the device, look for the task that failed in the "
        "error lines printed before it (under torch_npu, ASCEND_LAUNCH_BLOCKING=1 makes the failing launch "
        "report itself).",
        _CALL_ANY,
        "",
        CALL,
    ),
    # --- s28f: RKNN-Toolkit's build wrapper ('E build: Traceback', 'Catch exception when building'): the
    # frame that raised the exception names the part of build() that failed; its card lists every part -----
    Clause(
        "rknn-build-failed-in-quantisation",
        ("rknn",),
        "rknn/api/quant",
        r'File "rknn/api/quant\w{0,40}\.py", line \d{1,6}, in (?P<call>[\w.]{1,160})\n'
        r"(?:(?![^\n]{0,40}File \")[^\n]{0,300}\n){0,2}?"
        r"(?:E(?: \w{1,30}:)? )?(?P<detail>[A-Za-z_][\w.]{0,80}(?:Error|Exception)\b[^\n]{0,300})",
        "rknn.build() failed while quantising the model: {call}, in RKNN-Toolkit's quantisation code, raised "
        "{detail}. That code runs the calibration dataset through the model and computes each layer's "
        "scale and bias, so the dataset or a layer it cannot calibrate is the cause, not the NPU compiler.",
        "Check the calibration data: every line of the dataset file must be the path of an image or .npy "
        "with the model's input shape (several inputs: their paths space-separated on one line), readable "
        "from the working directory; then build with do_quantization=False: if that passes, the quantiser "
        "is the cause: try another quantized_algorithm or quantized_method in rknn.config(), a hybrid "
        "quantisation of the layer the exception names, or a newer rknn-toolkit2.",
        "airockchip/rknn-toolkit2: rknn/api/quant_utils and quantizer modules (the frames of build()'s "
        "quantisation step), API doc (build do_quantization/dataset, config quantized_algorithm, "
        "quantized_method, hybrid_quantization_step1/2); dev thread airockchip/rknn-toolkit2#528",
    ),
    Clause(
        "rknn-build-failed-in-graph-optimiser",
        ("rknn",),
        "rknn/api/graph_optimizer",
        r'File "rknn/api/graph_optimizer\.py", line \d{1,6}, in (?P<call>[\w.]{1,160})\n'
        r"(?:(?![^\n]{0,40}File \")[^\n]{0,300}\n){0,2}?"
        r"(?:E(?: \w{1,30}:)? )?(?P<detail>[A-Za-z_][\w.]{0,80}(?:Error|Exception)\b[^\n]{0,300})",
        "rknn.build() failed while optimising the graph, before quantisation and compilation: {call}, one of "
        "RKNN-Toolkit's graph rewrites (folding, fusing and reordering ops), raised {detail}. The model "
        "holds an op or an attribute in a form that rewrite does not expect.",
        "Simplify the model before loading it (onnxsim model.onnx model_sim.onnx) and export it with the "
        "opset the toolkit's docs recommend; lower rknn.config(optimization_level=...) to skip most "
        "rewrites; if the rewrite's name ({call}) points at one op type, replace that op in the source "
        "model; a newer rknn-toolkit2 fixes many of these rewrites.",
        "airockchip/rknn-toolkit2: rknn/api/graph_optimizer module (the frames of build()'s graph "
        "optimisation), API doc (config optimization_level); dev thread airockchip/rknn-toolkit2#43",
    ),
    # --- s29f: the TFLite GPU delegate's Init card over a failure of its platform (EGL, OpenCL), not of the
    # model: the platform's reason leads ---------------------------------------------------------------------
    Clause(
        "tflite-gpu-delegate-platform-egl",
        ("tflite",),
        "egl",
        r"(?P<detail>[^\n]{0,80}?(?P<api>\b(?:egl[A-Z]\w{0,40}|EGL(?:_\w{1,40})?)\b)[^\n]{0,240})",
        *_GPU_PLATFORM_ADVICE,
    ),
    Clause(
        "tflite-gpu-delegate-platform-opencl",
        ("tflite",),
        "opencl",
        r"(?P<detail>[^\n]{0,80}?(?P<api>\bOpenCL\b)[^\n]{0,240})",
        *_GPU_PLATFORM_ADVICE,
    ),
    # --- onnxruntime's QNN execution provider: why an op builder refused a node (its IsOpSupported /
    # ProcessInputs reasons, ORT_RETURN_IF / ORT_RETURN_IF_NOT wording); they answer the envelope of QNN EP's
    # "<OpType> node `<name>` is not supported: <reason>" warning and a family card that reads such a
    # reason; the first class whose wording the reason holds speaks ---------------------------------------
    *_qnn_ep(
        "qnn-ep-backend-limit",
        r"(?:on (?:the )?(?:NPU|HTP|QNN GPU backend|QNN CPU backend|GPU backend|CPU backend)"
        r"|\bQNN (?:HTP|GPU) |(?:by|for) (?:the )?(?:HTP|CPU|GPU|NPU) backend|HTP backend"
        r"|CPU backend only|GPU backend only)",
        "onnxruntime's QNN execution provider left the {op_type|} node {op|} off the QNN backend it runs "
        '("{value}"): the restriction is that backend\'s (the HTP, the NPU, computes in fixed point and '
        "fp16 and has a subset of each operator's modes; the GPU and CPU backends have op sets of their "
        "own), not the model's: the node is valid ONNX.",
        "If the session still runs nothing is broken: the node runs on the CPU execution provider instead "
        "(each partition boundary costs a copy). To keep it on the QNN backend change what the message "
        "names for that backend (a float node on the HTP: quantise the model to QDQ, or keep float with the "
        "provider option enable_htp_fp16_precision=1; a mode or attribute the NPU lacks: one it has), or "
        "run the model on another QNN backend (provider option backend_path QnnCpu / QnnGpu library).",
        _QNN_EP_SOURCE,
    ),
    *_qnn_ep(
        "qnn-ep-static-input",
        r"(?:(?:must|should) be (?:an? )?(?:constant |static )?initializers?|must be (?:a )?constant"
        r"|is not a constant initializer|(?:doesn't|does not|not) support dynamic"
        r"|[Dd]ynamic [\w /]{0,40}(?:is|are) not supported|requires static|dynamic shape|symbolic"
        r"|as a param|must be known|compile-time constant)",
        "onnxruntime's QNN execution provider builds the {op_type|} node {op|} into a QNN graph whose "
        "shapes and parameters are fixed when the session is created, and the node takes one of them from "
        'a tensor known only at run time ("{value}"): a scale, bias, mean or variance, axes, min/max, '
        "shape or index computed by another node or fed as a graph input, or a symbolic dimension.",
        "Make that input a constant initializer: fold the subgraph that computes it (onnxsim, or save "
        "onnxruntime's basic-optimised model with SessionOptions.optimized_model_filepath), export it as a "
        "constant rather than a computed tensor, and give symbolic dimensions fixed values (python -m "
        "onnxruntime.tools.make_dynamic_shape_fixed --dim_param NAME --dim_value N, or --input_name with "
        "--input_shape): QNN takes static shapes only. Left as it is, the node runs on the CPU execution "
        "provider.",
        _QNN_EP_SOURCE,
    ),
    *_qnn_ep(
        "qnn-ep-quantization",
        r"(?:[Qq]uantiz|[Qq]uant param|zero.point|[Pp]er-tensor|[Pp]er-channel|\bQDQ\b|16-bit|INT16|"
        r"[Ss]cale (?:count|size)|null scale)",
        "The {op_type|} node {op|}'s quantisation is not one QNN's fixed-point tensors take "
        '("{value}"): QNN runs a quantised ONNX model as a QDQ graph (DequantizeLinear -> op -> '
        "QuantizeLinear around each node) with the scale and zero-point layouts each QNN op accepts "
        "(per-tensor activations; per-channel weights only on the axis the op expects; 16-bit activations "
        "only with the weight types an op pairs them with).",
        "Quantise the float model with onnxruntime's QNN recipe, which writes the QDQ layout the QNN "
        "execution provider expects: onnxruntime.quantization.execution_providers.qnn's "
        "qnn_preprocess_model, then quantize(model, output, get_qnn_qdq_config(model, calibration_reader, "
        "activation_type=..., weight_type=...)); keep activations per-tensor and per-channel to weights. "
        "Otherwise the node runs on the CPU execution provider.",
        _QNN_EP_SOURCE + "; onnxruntime.quantization.execution_providers.qnn (get_qnn_qdq_config)",
    ),
    *_qnn_ep(
        "qnn-ep-data-type",
        r"(?:[Dd]ata ?[Tt]ype|datatype|\bdtypes?\b|Type not supported|only supports? (?:float|int)"
        r"|float input|int64|uint64|FP64|\bdouble\b|fixedpoint|not supported yet"
        r"|\b(?:U?INT_\d{1,2}|float(?:32|16)|bool8)\b)",
        "QNN has no form of the {op_type|} op for the data type the node {op|} has ("
        '"{value}"): the HTP (NPU) computes in fixed point (8/16-bit) and fp16, not in int64 or double; the '
        "CPU backend takes float; and an older onnxruntime-qnn converts fewer ONNX types to QNN types (its "
        "'Qnn Data Type ... not supported yet').",
        "Give the node a type QNN takes: quantise the model to QDQ (uint8/uint16 activations) for the HTP, "
        "run a float32 model on the HTP with the provider option enable_htp_fp16_precision=1, export index "
        "and shape tensors as int32 instead of int64, or use a newer onnxruntime-qnn; otherwise the node "
        "stays on the CPU execution provider.",
        _QNN_EP_SOURCE,
    ),
    *_qnn_ep(
        "qnn-ep-axis",
        r"\b[Aa]x(?:is|es)\b",
        "QNN's form of {op_type|the} op takes the axis it works on only where its op definition allows "
        '("{value}"): a negative or out-of-range axis, or a normalisation or reduction over an axis other '
        "than the last on the HTP.",
        "Rewrite the {op_type|} node {op|} so that its axis meets that: export it with a non-negative "
        "axis in [0, rank-1], or Transpose the axis to the last position before the node and back after "
        "it; otherwise the node runs on the CPU execution provider.",
        _QNN_EP_SOURCE,
    ),
    *_qnn_ep(
        "qnn-ep-rank",
        r"(?:\branks?\b|\brank-\d|\b\dD\b|-D\b|1D shape|dimensions? (?:must|of))",
        "QNN's {op_type|} op takes inputs of the ranks or shapes its op definition lists, and the node "
        '{op|} has another ("{value}"): QNN ops take at most 4 or 5 dimensions, many only 3 or 4, and '
        "per-channel tensors (scale, bias, mean, var) must be 1-D [channel].",
        "Reshape around the node to a rank QNN takes (merge leading dimensions into one with a Reshape "
        "before the node and restore them after it; Unsqueeze a 2-D input to 4-D), export per-channel "
        "tensors as 1-D [C], or leave the node on the CPU execution provider.",
        _QNN_EP_SOURCE,
    ),
    *_qnn_ep(
        "qnn-ep-unsupported-form",
        r"(?:attribute|\bmode\b|[Oo]nly supports?\b|(?:doesn't|does not|do not|don't) support"
        r"|not supported|[Uu]nsupported|must (?:be|have|match|equal)|requires? )",
        "onnxruntime's QNN execution provider maps the {op_type|} node {op|} onto a QNN op only for the "
        "attribute values, input counts and modes that op has in QNN, and this node uses another "
        '("{value}"); the node is valid ONNX, QNN\'s op has no such form.',
        "Either accept it (the node runs on the CPU execution provider; each partition boundary costs a "
        "copy) or give the node a form QNN takes: the attribute value or mode the message names (default "
        "dilations or activations, another resize mode or coordinate_transformation_mode), an equivalent "
        "decomposition into ops QNN has, or a newer onnxruntime-qnn, whose op builders take more forms "
        "(its release notes list them).",
        _QNN_EP_SOURCE,
    ),
    # --- reason clauses: why something failed, in the wording tools share; they answer only a card that
    # says nothing of the message (a family card, a code-range or scheme entry, an envelope) -------------
    Clause(
        "openvino-node-validation",
        ("openvino",),
        "while validating node '",
        r"While validating node '(?:\w{1,20}::)?(?P<op_type>\w{1,60}) (?P<node>[^\s'(]{1,200})"
        r"(?: \((?P<shape>[^)\n]{0,300})\))?[^\n]{0,400}?':\s{0,4}(?P<detail>[^\n]{3,300})",
        "OpenVINO validated node {node} (a {op_type}) while it read or reshaped the model, and the inputs "
        "that reach it break a rule of {op_type}: {detail} (its inputs: {shape|not printed}).",
        "Change the shapes that flow into {node}: if you set the model's input shape (model.reshape(), "
        "--input_shape, a smaller image or another layout) use one the network was built for, large enough "
        "that every pooling, stride and kernel before {node} still has data; if the model's own shapes "
        "disagree, re-export it with static shapes and check them with onnx.shape_inference first.",
        "openvinotoolkit/openvino: NODE_VALIDATION_CHECK (src/core/include/openvino/core/node.hpp, "
        "'While validating node ... with friendly_name ...')",
        "",
        REASON,
    ),
    Clause(
        "openvino-mo-cannot-infer-shapes",
        ("openvino",),
        "cannot infer shapes or values for node",
        r'Cannot infer shapes or values for node "(?P<node>[^"\n]{1,200})"\.?[^\n]{0,40}\n?'
        r"(?:\[ ERROR \]\s{0,4})?(?P<detail>[^\n\[]{3,300})?",
        "Model Optimizer could not compute the output shape or value of node {node} while it converted the "
        "model: {detail|its next lines say why}.",
        "Most often {node} gets an input whose shape is unknown or whose type it does not take: give Model "
        "Optimizer every input's shape (--input_shape, or --input name[shape]) so that the shapes up to "
        "{node} are static, cast float64 (double) tensors that feed it to float32 in the source model, and "
        "if {node} is an operation Model Optimizer has no shape function for, cut the model before it "
        "(--output) and run the rest outside OpenVINO.",
        "openvinotoolkit/openvino: Model Optimizer's partial_infer "
        "('Cannot infer shapes or values for node')",
        "",
        REASON,
    ),
    Clause(
        "openvino-mo-extracting-attributes",
        ("openvino",),
        "during extracting attributes for node",
        r"during extracting attributes for node (?P<node>[^\s]{0,299}[^\s.])\.?"
        r"(?:\s{0,4}\n[^\n]{0,12}?Original exception message:\s{0,4}(?P<detail>[^\n]{1,300}))?",
        "Model Optimizer's front end failed while reading the attributes of node {node}, before converting "
        "anything ({detail|its own exception follows}): the node's attributes or constant inputs are in a "
        "form the extractor of that operation does not expect.",
        "Give Model Optimizer the model in the form its documentation lists for the framework (for "
        "TensorFlow a frozen graph or SavedModel from a supported TF release, without training-only parts), "
        "or convert with the newer converter (openvino.convert_model / ovc); if {node} is only in pre- or "
        "post-processing, cut the model before it with --output and do that part outside.",
        "openvinotoolkit/openvino: Model Optimizer's extractor ('Unexpected exception happened during "
        "extracting attributes for node')",
        "",
        REASON,
    ),
    Clause(
        "openvino-onnx-node",
        ("openvino",),
        "while validating onnx node '<node(",
        r"While validating ONNX node '<Node\((?P<op_type>\w{1,60})\): (?P<node>[^>'\n]{1,200})>'"
        r"\s{0,4}:?\s{0,4}(?P<detail>[^\n]{3,300})?",
        "OpenVINO's ONNX front end failed while it converted node {node} ({op_type}) into OpenVINO "
        "operations: {detail|the next line says why}.",
        "Simplify the model first (python -m onnxsim) so that {node}'s shape and parameter inputs are "
        "constants rather than subgraphs, and export it at an ONNX opset this OpenVINO release supports for "
        "{op_type}; if {op_type} is a newer or custom-domain operator, export its older form or register an "
        "OpenVINO front-end extension for it.",
        "openvinotoolkit/openvino: the ONNX front end's node validation ('While validating ONNX node')",
        "",
        REASON,
    ),
    Clause(
        "openvino-ie-cannot-create-layer",
        ("openvino",),
        "cannot create",
        r"Cannot create (?P<op_type>\w{1,60}) layer (?P<layer>[^\s]{1,200}) id:\s{0,2}\d{1,8}",
        "The Inference Engine's IR reader cannot create layer {layer}: this runtime has no {op_type} in the "
        "opset the IR names (an IR made by another OpenVINO release, or an extension operation).",
        "Generate the IR with the Model Optimizer of the same OpenVINO release as the runtime that loads it; "
        "if {op_type} is a custom or extension operation, load its extension library (core.add_extension) "
        "before reading the model.",
        "openvinotoolkit/openvino (Inference Engine IR reader): 'Cannot create <type> layer <name> id:<n>'",
        "",
        REASON,
    ),
    Clause(
        "onnx-inferred-shape-differs",
        (ANY,),
        "inferred shape and existing shape differ in",
        r"(?:\(op_type:(?P<op_type>\w{1,60}), node name: (?P<node>[^)\n]{1,200})\):\s{0,4}"
        r"(?:\[ShapeInferenceError\]\s{0,4})?)?Inferred shape and existing shape differ in "
        r"(?P<what>rank|dimension \d{1,3}): \((?P<value>[^)\n]{0,40})\) vs \((?P<value2>[^)\n]{0,40})\)",
        "onnx shape inference, which the tool runs on the model, computes a {what} of ({value}) for the "
        "output of {node|a node} ({op_type|}) where the model records ({value2}): a shape stored in the "
        "model (its value_info or an output's type) disagrees with what the node produces.",
        "Drop the stored intermediate shapes and infer them again (del model.graph.value_info[:], then "
        "onnx.shape_inference.infer_shapes(model)), or re-export so they are written fresh: an edit that "
        "changed {node|the node} without updating the recorded shapes (graph surgery, a fixed batch size) "
        "is the usual source; if the clash is on a graph output, correct that output's declared shape.",
        "onnx/onnx: shape inference's mergeInShapeInfo ('Inferred shape and existing shape differ in ...')",
        "",
        REASON,
    ),
    Clause(
        "onnx-version-converter-no-adapter",
        (ANY,),
        "no adapter",
        r"No Adapter (?:From Version \$?(?P<version>\d{1,3}) )?[Ff]or (?P<op_type>\w{1,60})",
        "onnx's version converter cannot carry {op_type} to the target opset: it has no adapter for that "
        "operator at one of the opset steps the conversion needs.",
        "Export the model at the target opset from its framework instead of converting it "
        "(torch.onnx.export(..., opset_version=N), tf2onnx --opset N), or convert only as far as the "
        "adapters go and rewrite {op_type} by hand to its form at the target opset (the ONNX operator "
        "changelog lists it).",
        "onnx/onnx: version_converter BaseConverter.h adapter_lookup ('No Adapter For ...')",
        "",
        REASON,
    ),
    Clause(
        "onnx-attribute-out-of-rank",
        (ANY,),
        "invalid value of attribute",
        r"Invalid value of attribute '(?P<arg>\w{1,60})'\.?\s{0,4}Rank=(?P<rank>\d{1,3})\s{0,4}"
        r"Value=(?P<value>-?\d{1,6})",
        "onnx's shape inference rejected attribute '{arg}' = {value}: the input that reaches the node has "
        "rank {rank}, and an axis must be at least minus the rank and below the rank, so that input has "
        "fewer dimensions than the exporter assumed (rank 0 is a scalar).",
        "Find the node whose '{arg}' is {value} and the producer of its input: a Squeeze, Reshape or "
        "reduction that dropped the dimensions, or a value traced as a scalar; re-export with the shape the "
        "node expects (keepdims=True, an explicit reshape) or set '{arg}' to an axis the input has.",
        "onnx/onnx: shape inference's axis checks ('Invalid value of attribute ... Rank= ... Value=')",
        "",
        REASON,
    ),
    Clause(
        "ort-broadcast-axis",
        ("onnxruntime",),
        "attempting to broadcast an axis by a dimension other than 1",
        r"Attempting to broadcast an axis by a dimension other than 1\.\s{0,4}(?P<value>\d{1,12}) by "
        r"(?P<value2>\d{1,12})",
        "The element-wise node {op|} ({arg|an Add, Mul, Sub or Where}) got inputs whose sizes on one axis "
        "are {value} and {value2}: broadcasting needs them equal, or one of them 1, so the two branches that "
        "meet at this node computed different shapes.",
        "Find why the two inputs of {op|the node} differ: most often the model was exported for one input "
        "size and is fed another (feed the export size, or re-export with dynamic_axes for that dimension "
        "and no size computed at trace time), or a Reshape/Resize before it fixed a size; run "
        "onnx.shape_inference with the real input shape to see which input has {value} and which {value2}.",
        "microsoft/onnxruntime: core/providers/cpu/math/element_wise_ops.h (BroadcastIterator::Append)",
        "",
        REASON,
    ),
    Clause(
        "ort-concat-dims",
        ("onnxruntime",),
        "non concat axis dimensions must match",
        r"Non concat axis dimensions must match: Axis (?P<axis>\d{1,3}) has mismatched dimensions of "
        r"(?P<value>\d{1,12}) and (?P<value2>\d{1,12})",
        "The inputs of Concat node {op|} disagree on axis {axis} ({value} against {value2}); only the axis "
        "they are joined on may differ.",
        "Feed an input size that the network's strides divide exactly (with odd sizes a stride-2 branch "
        "rounds and an upsampled branch doubles, so the two sides of a skip connection differ by one: use "
        "multiples of the model's total stride, 32 for most detectors), or, if the model was exported at one "
        "size, feed that size or re-export with dynamic_axes.",
        "microsoft/onnxruntime: core/providers/cpu/tensor/concat.cc (ConcatBase::PrepareForCompute)",
        "",
        REASON,
    ),
    Clause(
        "ort-gather-index-out-of-bounds",
        ("onnxruntime",),
        "indices element out of data bounds",
        r"indices element out of data bounds, idx=(?P<value>-?\d{1,20}) must be within the inclusive range "
        r"\[(?P<low>-?\d{1,20}),\s{0,2}(?P<high>-?\d{1,20})\]",
        "Gather node {op|} was given index {value}, outside the range [{low}, {high}] of the axis it reads: "
        "an id larger than the table (a token id past the vocabulary, a position past the "
        "longest sequence the model was exported for).",
        "Check the values fed to {op|that node}: use the tokenizer that belongs to the model (same "
        "vocabulary size), keep sequences within the model's maximum length, and make sure padding or "
        "special ids are inside [{low}, {high}]; if the table itself is too small, re-export the model with "
        "the full embedding.",
        "microsoft/onnxruntime: core/providers/cpu/tensor/gather.cc ('indices element out of data bounds')",
        "",
        REASON,
    ),
    Clause(
        "ort-trt-ep-shape-outside-profile",
        ("onnxruntime",),
        "dims.d[i]",
        _TRT_PROFILE_CONDITION,
        "onnxruntime's TensorRT execution provider ran a TensorRT engine with an input shape outside the "
        "optimization profile the engine was built with (TensorRT's check {arg}): the engine covers only the "
        "range of shapes from its profile's kMIN to kMAX, and this input is larger (or smaller) in some "
        "dimension. The EP builds that profile from the shapes it has seen or from the trt_profile_* "
        "options, and an engine loaded from its engine cache keeps the profile it was built with.",
        "Give the TensorRT EP a profile that covers every shape you feed: the provider options "
        "trt_profile_min_shapes, trt_profile_opt_shapes and trt_profile_max_shapes (input:1x3x224x224, one "
        "entry per dynamic input); delete the cached engines in "
        "trt_engine_cache_path after changing them (or when a cached engine was built for smaller inputs) so "
        "they are rebuilt; or feed shapes within the range the engine was built for.",
        "microsoft/onnxruntime: docs/execution-providers/TensorRT-ExecutionProvider (trt_profile_min_shapes, "
        "trt_profile_max_shapes, trt_profile_opt_shapes, trt_engine_cache_enable); TensorRT 7/8 API "
        "IExecutionContext::setBindingDimensions (conditions profileMinDims.d[i] <= dimensions.d[i], "
        "dimensions.d[i] <= profileMaxDims.d[i])",
        "",
        REASON,
    ),
    # s36o: an exception thrown in an execution provider's own code (its source path) while the session
    # initialises: named before the clause that quotes any such exception.
    Clause(
        "ort-ep-exception-during-initialization",
        ("onnxruntime",),
        "exception during initialization:",
        r"Exception during initialization:\s{0,2}(?P<file>[^\s]{0,200}?onnxruntime[\\/]core[\\/]"
        r"providers[\\/](?!cpu[\\/]|shared)(?P<ep>[a-z][a-z_]{1,23})[\\/][\w\\/.-]{1,160}?\.(?:cc|cpp|h|hpp))[:(]"
        r"(?P<line>\d{1,6})",
        "onnxruntime's session initialisation (InferenceSession::Initialize, where the graph is partitioned "
        "among the execution providers and each one compiles the part it took) was stopped by an exception "
        "thrown in the code of the {ep} execution provider, at {file}, line {line}: that provider refused or "
        "failed on this model or on its own set-up (choosing the nodes it can run, building its engine or "
        "network for its subgraph, loading its runtime libraries or opening its device), not onnxruntime's "
        "own graph code. onnxruntime prefixes the exception with that location and the C++ function's "
        "signature; the text after the signature is the provider's own reason.",
        "Create the session once with providers=['CPUExecutionProvider'] alone: if the model loads, the {ep} "
        "provider is the cause. Then act on the provider's reason after the signature (the op, shape, layer "
        "or option its runtime names); install the {ep} provider's runtime (TensorRT, OpenVINO, CUDA and "
        "cuDNN, the QNN SDK: whichever core/providers/{ep} wraps) in the release this onnxruntime package "
        "was built against, as onnxruntime's page for that execution provider lists; and where one part of "
        "the model keeps failing in {ep}, run the model without {ep} in the providers list or keep those "
        "nodes on the CPU provider.",
        "microsoft/onnxruntime: onnxruntime/core/session/inference_session.cc (InferenceSession::Initialize: "
        "ORT_CATCH(const std::exception& ex) ... 'Exception during initialization: ' + ex.what()); "
        "include/onnxruntime/core/common/exceptions.h, code_location.h (OnnxRuntimeException: the message "
        "starts with the throwing file:line and function signature); onnxruntime/core/providers/<ep>/ (each "
        "execution provider's sources); onnxruntime.ai docs 'Execution Providers' (per-provider "
        "requirements)",
        "",
        REASON,
    ),
    Clause(
        "ort-exception-during-initialization",
        ("onnxruntime",),
        "exception during initialization: ",
        r"Exception during initialization: (?P<detail>[^\n]{1,200})",
        "onnxruntime caught an exception while it initialised the session (InferenceSession::Initialize: "
        "graph optimisation, partitioning the graph among the execution providers, and each provider's "
        "compile of the subgraph it took), and the exception's own text follows it: {detail}. That text is "
        "the failure; a Python traceback under 'At:' after it means a provider or custom op that runs "
        "Python code raised it (Vitis AI's pyxir, a Python custom op), and its last frame is the code that "
        "failed.",
        "Act on '{detail}': read the frames under 'At:' (or the provider's own error) for the op or node it "
        "was handling; create the session with providers=['CPUExecutionProvider'] alone to confirm the "
        "provider is the cause, then give that node a form the provider takes (another opset, attributes or "
        "padding mode), or keep the provider off it; with no provider involved, the graph optimiser failed "
        "on the model: load it with SessionOptions.graph_optimization_level = ORT_DISABLE_ALL to confirm.",
        "microsoft/onnxruntime: core/session/inference_session.cc (InferenceSession::Initialize: catch "
        "(const std::exception& ex) ... 'Exception during initialization: ', ex.what())",
        "",
        REASON,
    ),
    Clause(
        "onnx-schema-finalize-check",
        ("onnxruntime", "onnx"),
        ": failed validating the check: ",
        r"ONNX Schema (?P<op_type>[^\s:]{1,200}): failed validating the check: (?P<detail>[^\n]{1,200})",
        "onnx's OpSchema::Finalize rejected the schema of {op_type}: its check '{detail}' is false. "
        "Loading a model, onnxruntime builds such a schema for each model-local function (a FunctionProto "
        "in model.functions, as the torch.onnx dynamo exporter and other exporters write them) and each "
        "custom op registered with the session, so {op_type} itself breaks a rule every schema keeps: an "
        "input or output without a name (it.GetName().empty()), or input and output counts that do not "
        "add up.",
        "Look at the function {op_type} in the model (onnx.load(path).functions: its input, output and "
        "attribute lists) and give every input and output a name; or inline the model's local functions "
        "before loading it (onnx.inliner.inline_local_functions(model)) so no schema "
        "is built for them, or re-export with the exporter that writes a flat graph.",
        "onnx/onnx: onnx/defs/schema.cc (OpSchema::Finalize: ENFORCE(x) 'ONNX Schema ' + name_ + ': failed "
        "validating the check: ' + #x; ENFORCE(!(it.GetName().empty())) for each input and output); "
        "microsoft/onnxruntime: core/graph/function_utils.cc (CreateSchema for a model-local function)",
        "",
        REASON,
    ),
    Clause(
        "ort-reshape-zero-past-rank",
        ("onnxruntime",),
        "the dimension with value zero exceeds",
        r"The dimension with value zero exceeds the dimension size of the input tensor",
        "The target shape of Reshape node {op|} holds a 0 at a position where the input has no dimension: in "
        "ONNX Reshape a 0 means 'copy this dimension from the input' (allowzero=0), so a 0 past the input's "
        "rank cannot be resolved.  The shape tensor was computed for an input of another rank, or a real "
        "zero-length dimension was meant.",
        "Look at the shape input of {op|the Reshape} (Netron, or onnxruntime with it added as an output): if "
        "the 0 is meant as a zero-length dimension, export with allowzero=1 (opset 14 and later); otherwise "
        "fix the shape computation for the input's rank (feed the rank the model was exported for; no "
        "literal 0 in view()/reshape() targets).",
        "microsoft/onnxruntime: core/providers/cpu/tensor/reshape_helper.h ('The dimension with value zero "
        "exceeds the dimension size of the input tensor.'); onnx Operators.md Reshape (allowzero)",
        "",
        REASON,
    ),
    Clause(
        "ort-buffer-reuse-shape-mismatch",
        ("onnxruntime",),
        "shape mismatch attempting to re-use buffer",
        r"Shape mismatch attempting to re-use buffer\. (?P<shape>\{[^}\n]{0,120}\}) != "
        r"(?P<shape2>\{[^}\n]{0,120}\})",
        "onnxruntime's memory planner let the output of {op|a node} reuse a buffer it expected to have the "
        "same shape, but at run time the shapes differ ({shape} against {shape2}).  The planner equates "
        "dimensions by the model's shape annotations, so two axes given the same dim_param name (or a fixed "
        "dim_value) that really differ, e.g. batch or sequence axes named alike in two places, mislead it.",
        "Fix the model's shape annotations: different dim_param names for axes that can differ and no fixed "
        "dim_value on axes that change (re-export with correct dynamic_axes, or clear the intermediate "
        "value_info shapes); meanwhile feed the shapes the annotations say, or set SessionOptions."
        "enable_mem_pattern = False (and graph_optimization_level = ORT_DISABLE_ALL) to confirm the planner "
        "is the cause.",
        "microsoft/onnxruntime: core/framework/execution_frame.cc (AllocateMLValueTensorPreAllocateBuffer: "
        "'Shape mismatch attempting to re-use buffer. ... Validate usage of dim_value ... and dim_param')",
        "",
        REASON,
    ),
    Clause(
        "ort-matmul-dimension-mismatch",
        ("onnxruntime",),
        "matmul dimension mismatch",
        r"MatMul dimension mismatch",
        "MatMul node {op|} got operands whose inner dimensions differ (the last dimension of A must equal "
        "the second-to-last of B): the input fed is not the size the model was built for (another sequence "
        "length or feature size, or an image size that changes a flattened size before a Linear layer).",
        "Print the shapes reaching {op|the MatMul} (onnxruntime with its inputs added as outputs, or Netron) "
        "and feed inputs of the size the model was exported for; if that size should vary, re-export so the "
        "flattened dimension is computed, not fixed (e.g. adaptive pooling before the Linear layer).",
        "microsoft/onnxruntime: core/providers/cpu/math/matmul_helper.h (MatMulComputeHelper: 'MatMul "
        "dimension mismatch')",
        "",
        REASON,
    ),
    # --- onnxruntime: the CPU kernels' own shape checks (ORT_ENFORCE / ORT_MAKE_STATUS texts of
    # core/providers/cpu and core/providers/common.h), read inside the kernel envelope -----------------
    Clause(
        "ort-axis-out-of-range",
        ("onnxruntime",),
        "is not in valid range [-",
        r"axis (?P<axis>-?\d{1,6}) is not in valid range \[-(?P<rank>\d{1,3}),\s{0,2}(?P<high>-?\d{1,3})\]",
        "Node {op|} ({arg|}) was given axis {axis}, but the tensor that reaches it has rank {rank} (valid "
        "axes -{rank} to {high}): the tensor has fewer or more dimensions than when the model was exported "
        "(a batch dimension dropped or added, an input fed with another rank, or a graph edit or conversion "
        "that changed the rank without changing the axis).",
        "Feed the input with the rank the model declares (keep the batch dimension: x[None] or "
        "np.expand_dims), then follow the shapes to {op|the node} (onnx.shape_inference with the real input "
        "shape, or Netron) to find where the rank changes; if the model was exported for another rank, "
        "re-export it with the input rank you feed.",
        "microsoft/onnxruntime: core/providers/common.h (HandleNegativeAxis: ORT_ENFORCE(IsAxisInRange(axis, "
        "tensor_rank), 'axis ', axis, ' is not in valid range [-', tensor_rank, ',', tensor_rank - 1, ']'))",
        "",
        REASON,
    ),
    Clause(
        "ort-topk-k-too-large",
        ("onnxruntime",),
        "should not be greater than specified axis dim",
        r"k argu?m?e?nt \[(?P<value>\d{1,12})\] should not be greater than specified axis dim(?: value)? "
        r"\[(?P<value2>\d{1,12})\]",
        "TopK node {op|} asks for the k = {value} largest values along an axis that holds only {value2}: k "
        "was "
        "fixed when the model was exported (a detector's top-k or maximum detections), and the input fed now "
        "gives fewer candidates (a smaller image gives fewer anchors, a shorter sequence fewer tokens).",
        "Feed an input at least as large as the one the model was exported for, or re-export with k computed "
        "from the tensor (torch.topk(x, min(k, x.shape[dim])) exports a Min of k and the axis size), or "
        "lower "
        "k to at most {value2} for the smallest input you feed.",
        "microsoft/onnxruntime: core/providers/cpu/math/top_k.cc ('k argument [', k, '] should not be "
        "greater "
        "than specified axis dim value [', dim, ']')",
        "",
        REASON,
    ),
    # Issue 23, s29d: onnxruntime kernels' own reasons inside 'Non-zero status code returned while running X
    # node' that no clause read yet (the CPU provider's RNN, Pad and GatherND checks), and TensorRT's shuffle
    # layer refusing two inferred dimensions.
    Clause(
        "ort-rnn-input-rank",
        ("onnxruntime",),
        "must have 3 dimensions only. actual:",
        r"Input X must have 3 dimensions only\. Actual: ?(?P<shape>\{[^}\n]{0,120}\})",
        "The recurrent node {op|} ({arg|an LSTM, GRU or RNN}) takes its input X as three dimensions, "
        "[seq_length, batch_size, input_size] (batch first when its layout attribute is 1), and was fed a "
        "tensor of shape {shape}: an axis too many (a batch or channel axis added on top of one already "
        "there, a state output fed back as the next input with extra axes) or one missing.",
        "Reshape what reaches X to exactly three dimensions before run() (np.squeeze / reshape the array; "
        "compare with session.get_inputs() for the declared shape); when a model's state output is fed back "
        "in the next call, pass the array run() returned for it unchanged, not wrapped in another list or "
        "axis.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/rnn/rnn_helpers.h, deep_cpu_lstm.cc and "
        "deep_cpu_gru.cc (ORT_ENFORCE / INVALID_ARGUMENT 'Input X must have 3 dimensions only. Actual:' "
        "with X's shape); ONNX operator docs (LSTM, GRU, RNN: X is [seq_length, batch_size, input_size])",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-pad-mode-empty-dim",
        ("onnxruntime",),
        "mode to pad dimension with a value of 0",
        r"Cannot use '(?P<mode>reflect|edge)' mode to pad dimension with a value of 0\. Input shape: ?"
        r"(?P<shape>\{[^}\n]{0,120}\})",
        "Pad node {op|} pads in '{mode}' mode, which copies values from inside the tensor, but its input "
        "(shape {shape}) has a dimension of size 0 that is to be padded: there is nothing to reflect or "
        "repeat. The empty dimension usually comes from an earlier node that selected nothing for this input "
        "(an empty slice, a filter that kept no element) or from an input fed with a 0-size axis.",
        "Find why the input of {op|the Pad node} is empty for this input: feed a non-empty tensor, or skip "
        "the call when there is nothing to process; if an empty tensor is legitimate there, export that "
        "padding with mode='constant' (F.pad(x, pads, mode='constant')), which accepts it.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/pad.cc (ORT_MAKE_STATUS FAIL 'Cannot "
        "use 'reflect' / 'edge' mode to pad dimension with a value of 0. Input shape:', matching numpy)",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-gathernd-index-depth",
        ("onnxruntime",),
        "last dimension of indices must not be larger than rank of input tensor",
        r"last dimension of indices must not be larger than rank of input tensor",
        "GatherND node {op|} got indices whose last axis (plus the node's batch_dims) is longer than the "
        "number of dimensions of the data: each index tuple may address at most as many dimensions as the "
        "data has. GatherND is what PyTorch's advanced and boolean-mask indexing (x[mask], x[i, j]) exports "
        "to; the index tensor built at run time then has another shape than at export, often when the mask "
        "selects nothing or the data is fed with fewer dimensions.",
        "Compare the shapes of the data and indices inputs of {op|that node} for the failing input (add them "
        "as graph outputs, or run the model in PyTorch on the same input); in the model code replace "
        "x[mask] by torch.index_select(x, 0, mask.nonzero().flatten()), which exports as Gather and accepts "
        "an empty selection, and keep the data's rank the one used at export.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/gather_nd.cc (ORT_MAKE_STATUS "
        "INVALID_ARGUMENT 'last dimension of indices must not be larger than rank of input tensor'); ONNX "
        "operator docs (GatherND)",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-nms-boxes-scores-shape",
        ("onnxruntime",),
        "boxes and scores should have same ",
        r"boxes and scores should have same (?P<value>num_batches|spatial_dimension)",
        "NonMaxSuppression node {op|} checks its inputs against the operator's layout: boxes "
        "[num_batches, num_boxes, 4] and scores [num_batches, num_classes, num_boxes]; here their {value} "
        "differ. The scores usually arrive as [batch, boxes, classes] (a detector head's natural layout, "
        "fed to the operator without the transpose) or the boxes were flattened or sliced differently "
        "from the scores.",
        "Transpose the scores to [batch, classes, boxes] before the NonMaxSuppression node (in the model: "
        "scores.permute(0, 2, 1) before export, or a Transpose perm=[0, 2, 1] inserted in the graph) and "
        "keep boxes as [batch, boxes, 4] with the same batch and box count; compare the two inputs' shapes "
        "at the node (add them as graph outputs) to see which one changed.",
        "microsoft/onnxruntime: core/providers/cpu/object_detection/non_max_suppression.cc "
        "(NonMaxSuppressionBase::PrepareCompute: 'boxes and scores should have same num_batches.' / "
        "'... same spatial_dimension.'); onnx/onnx docs/Operators.md (NonMaxSuppression input shapes)",
        "",
        REASON,
    ),
    Clause(
        "ort-gemm-dimension-mismatch",
        ("onnxruntime",),
        "gemm: dimension mismatch, w: ",
        r"GEMM: Dimension mismatch, W: (?P<shape>\{[^}\n]{0,60}\}) K: (?P<value>\d{1,12}) N:\s?"
        r"(?P<value2>\d{1,12})",
        "Gemm node {op|} multiplies an input whose inner size K is {value} by a weight W of shape {shape}, "
        "which needs another K (N = {value2} outputs): the tensor reaching this fully connected layer has "
        "another size than at export, usually a flattened feature map of an input image of another size, or "
        "a batch whose Flatten/Reshape folded the batch into the features.",
        "Feed the input size the model was exported for (the layer's in_features fix the flattened size), "
        "or re-export with adaptive pooling before the flatten so that the size no longer depends on the "
        "image; with batches, flatten with axis=1 (torch.flatten(x, 1)) so the batch stays first.",
        "microsoft/onnxruntime: core/providers/cpu/math/gemm_helper.h (GemmHelper: 'GEMM: Dimension "
        "mismatch, W: ', right.ToString(), ' K: ', K, ' N:', N)",
        "",
        REASON,
    ),
    Clause(
        "ort-gemm-bias-broadcast",
        ("onnxruntime",),
        "invalid bias shape for broadcast",
        r"Gemm: Invalid bias shape for broadcast",
        "The bias C of Gemm node {op|} does not broadcast to the output's shape (M, N): Gemm takes a C of "
        "shape (N), (1, N), (M, 1) or (M, N), and this one has another shape, usually after graph surgery or "
        "a fusion that folded another tensor into C, or an input batch M that a C of shape (M, N) fixed at "
        "export does not match.",
        "Check the shape of {op|the Gemm}'s third input in Netron: make it (N) or (1, N) (re-export the "
        "Linear layer, or fix the edit that produced it); if it is (M, N) with M the export batch, feed that "
        "batch or re-export with a dynamic batch.",
        "microsoft/onnxruntime: core/providers/cpu/math/gemm_helper.h ('Gemm: Invalid bias shape for "
        "broadcast'); onnx Operators.md Gemm (C unidirectionally broadcastable to (M, N))",
        "",
        REASON,
    ),
    Clause(
        "ort-conv-channels-group",
        ("onnxruntime",),
        "is not equal to kernel channels * group",
        r"Input channels C is not equal to kernel channels \* group\. C: (?P<value>\d{1,9}) kernel "
        r"channels: (?P<value2>\d{1,9})(?: group: (?P<group>\d{1,6}))?",
        "Conv node {op|} gets an input with {value} channels, but its weight expects kernel channels x group "
        "= {value2} x {group|the group count}: the input fed has another channel count or layout than the "
        "model's (RGBA or grayscale for RGB, an NHWC image fed to an NCHW model so that axis 1 holds a "
        "width), or a layer before it was changed.",
        "Feed NCHW data with the channel count the model was exported for: transpose HWC images to CHW "
        "(img.transpose(2, 0, 1)[None]), drop an alpha channel or repeat a gray one; if {op|the Conv} is "
        "inside the network, check the layer that feeds it in the source model and re-export.",
        "microsoft/onnxruntime: core/providers/cpu/nn/conv_attributes.h (ValidateInputShape: 'Input channels "
        "C is not equal to kernel channels * group.')",
        "",
        REASON,
    ),
    Clause(
        "ort-transpose-perm-rank",
        ("onnxruntime",),
        "does not align with rank of input data",
        r"perm: \[(?P<value>[ \d-]{1,60})\] does not align with rank of input data: (?P<rank>\d{1,3})",
        "Transpose node {op|} has a permutation [{value}] written for an input of another rank than the rank "
        "{rank} it got: the tensor reaching it has a dimension more or less than when the model was "
        "exported.",
        "Feed the input with the rank the model declares (with its batch dimension), and follow the shapes "
        "to {op|the Transpose} to find where the rank changes; if the model was exported for another rank, "
        "re-export it for the one you feed.",
        "microsoft/onnxruntime: core/providers/cpu/tensor/transpose.h (TransposeBase::ComputeOutputShape: "
        "'perm: [ ... ] does not align with rank of input data: ')",
        "",
        REASON,
    ),
    Clause(
        "ort-squeeze-dim-not-one",
        ("onnxruntime",),
        "must be 1 instead of",
        r"Dimension of input (?P<axis>\d{1,3}) must be 1 instead of (?P<value>\d{1,12})",
        "Squeeze node {op|} removes axis {axis}, which must have size 1, but it has {value} at run time: the "
        "model was exported with that dimension equal to 1 (typically a batch of 1 traced as a constant "
        "squeeze), and a larger size is fed now.",
        "Feed size 1 on axis {axis} (one item per run), or re-export so the squeeze does not depend on that "
        "size: export with a dynamic axis for it (dynamic_axes / dynamic_shapes) and squeeze only the "
        "dimension that is always 1 (torch.squeeze(x, dim) rather than x.squeeze()).",
        "microsoft/onnxruntime: core/providers/cpu/tensor/squeeze.h (ComputeOutputShape: 'Dimension of "
        "input ', i, ' must be 1 instead of ', dim); onnx Operators.md Squeeze",
        "",
        REASON,
    ),
    Clause(
        "ort-layernorm-scale-size",
        ("onnxruntime",),
        "size of x.shape()[axis:] ==",
        r"Size of X\.shape\(\)\[axis:\] == (?P<value>\d{1,12})\. Size of scale and bias \(if provided\) must "
        r"match this[^\n]{0,60}?Got scale size of (?P<value2>\d{1,12})(?: and bias size of "
        r"(?P<value3>\d{1,12}))?",
        "LayerNormalization node {op|} normalises the input's dimensions from its axis on, {value} elements, "
        "but its scale has {value2}: the hidden size of the tensor that reaches it differs from the model's "
        "(an input of another feature size, or an axis attribute that a conversion or edit moved).",
        "Feed inputs whose normalised dimensions hold {value2} elements (the model's hidden size); if they "
        "do, check {op|the node}'s axis attribute (-1 normalises the last dimension only) in Netron and "
        "re-export with the normalized_shape of the source LayerNorm.",
        "microsoft/onnxruntime: core/providers/cpu/nn/layer_norm_impl.cc ('Size of X.shape()[axis:] == ', "
        "norm_size, '. Size of scale and bias (if provided) must match this. Got scale size of ...')",
        "",
        REASON,
    ),
    Clause(
        "ort-pad-size",
        ("onnxruntime",),
        "pads tensor size should be equal to twice",
        r"Pads tensor size should be equal to twice the (?P<detail>input dimension count|number of "
        r"explicitly provided axes)",
        "The pads input of Pad node {op|} does not hold two values, a begin and an end, per padded "
        "dimension (the kernel needs 2 x the {detail}): the pads were computed at export for an input of "
        "another rank, or came from a "
        "framework's short form (PyTorch's F.pad lists only the last dimensions, last first).",
        "Feed the input with the rank the model was exported for; if the pads were written by hand or by a "
        "converter, give 2 x rank values in ONNX order (all begins, then all ends), or at opset 18 and later "
        "give the axes input with the dimensions they pad; onnxsim folds a computed pads into a constant.",
        "microsoft/onnxruntime: core/providers/cpu/tensor/pad.cc ('Pads tensor size should be equal to "
        "twice the input dimension count '); onnx Operators.md Pad",
        "",
        REASON,
    ),
    Clause(
        "ort-tile-repeats-length",
        ("onnxruntime",),
        "input tensor must have the same length as the 'input' tensor",
        r"'repeat' input tensor must have the same length as the 'input' tensor",
        "The repeats input of Tile node {op|} has another length than the rank of its data input: Tile needs "
        "one repeat count per dimension, and the repeats were computed for an input of another rank.",
        "Feed the data input with the rank the model was exported for; in the source model give repeat "
        "counts for every dimension (x.repeat(1, 1, n) for a rank-3 tensor), then re-export.",
        "microsoft/onnxruntime: core/providers/cpu/tensor/tile.cc (''repeat' input tensor must have the same "
        "length as the 'input' tensor')",
        "",
        REASON,
    ),
    Clause(
        "ort-resize-rank-mismatch",
        ("onnxruntime",),
        "input/output value's dimension mismatch",
        r"(?P<value>Upsample|Resize): input/output value's dimension mismatch",
        "The {value} kernel of node {op|} ({arg|}) computed an output of another rank than its input: its "
        "scales or sizes input "
        "has one value per dimension of another rank (four values for an NCHW image given a rank-3 tensor, "
        "or only the spatial two where ONNX needs all of them).",
        "Give scales or sizes one value per input dimension (for NCHW: [1, 1, sh, sw]), or feed the input "
        "rank the model was exported for; re-export with a recent opset so the exporter writes full-rank "
        "scales.",
        "microsoft/onnxruntime: core/providers/cpu/tensor/upsample.cc ('Upsample: input/output value's "
        "dimension mismatch', 'Resize: ...')",
        "",
        REASON,
    ),
    Clause(
        "ort-pool-kernel-rank",
        ("onnxruntime",),
        "kernel_shape num_dims is not compatible with x num_dims",
        r"kernel_shape num_dims is not compatible with X num_dims",
        "The pooling node {op|} ({arg|}) has a kernel_shape with another number of spatial dimensions than "
        "its input (a 2-D kernel needs an NCHW input of rank 4): the tensor reaching it has another rank "
        "than at export.",
        "Feed the input with the rank the model was exported for (keep the batch and channel dimensions), "
        "or re-export with the pooling of the dimension count you feed (MaxPool1d for rank 3).",
        "microsoft/onnxruntime: core/providers/cpu/nn/pool.cc ('kernel_shape num_dims is not compatible with "
        "X num_dims.')",
        "",
        REASON,
    ),
    Clause(
        "ort-range-delta-zero",
        ("onnxruntime",),
        "delta in range operator can not be zero",
        r"delta in Range operator can not be zero",
        "Range node {op|} got a step (delta) of 0 at run time: the step is computed in the model (from a "
        "shape or a division that rounds to zero for this input), so it is 0 for the input fed now.",
        "Find where {op|the Range}'s delta comes from (Netron, or onnxruntime with it added as an output) "
        "and feed an input size for which it is not zero, or re-export with a constant step (arange with "
        "a Python int step, not a tensor).",
        "microsoft/onnxruntime: core/providers/cpu/generator/range.cc ('delta in Range operator can not be "
        "zero!')",
        "",
        REASON,
    ),
    Clause(
        "ort-cuda-kernel-error",
        ("onnxruntime",),
        "cuda error ",
        r"CUDA error (?P<value>cudaError(?!IllegalAddress|MemoryAllocation|NoKernelImage)\w{1,60}):\s{0,2}"
        r"(?P<detail>[^\n;]{1,200})",
        "A CUDA kernel or call of onnxruntime's CUDA execution provider failed with {value} ('{detail}') "
        "while node {op|} ran. Such an error is sticky and asynchronous: it may come from an earlier "
        "kernel, and the CUDA context cannot be used afterwards.",
        "Rerun with CUDA_LAUNCH_BLOCKING=1 to see the node whose kernel fails, and run the model with "
        "providers=['CPUExecutionProvider'] to tell a model problem from a GPU one; check that the driver "
        "and CUDA/cuDNN versions are those of the CUDA EP's requirements table for this onnxruntime-gpu "
        "release, and that the input shapes are those the model declares.",
        "microsoft/onnxruntime: core/providers/cuda/cuda_call.cc and cuda_common.h (CUDA_RETURN_IF_ERROR: "
        "'CUDA error ' + cudaGetErrorName + ':' + cudaGetErrorString); CUDA runtime API cudaError_t",
        "",
        REASON,
    ),
    Clause(
        "ort-cuda-path-not-loaded",
        ("onnxruntime",),
        "cuda_path is set but cuda wasn",
        r"CUDA_PATH is set but CUDA wasn'?t able to be loaded",
        "onnxruntime-gpu could not load its CUDA execution provider (onnxruntime_providers_cuda and the CUDA "
        "and cuDNN libraries it links: cudart, cublas, cudnn of the major versions this release was built "
        "for); CUDA_PATH being set only says that some CUDA toolkit is installed, not that it is the "
        "required version or that cuDNN's libraries can be found.",
        "Install the CUDA and cuDNN versions the CUDA Execution Provider requirements table lists for this "
        "onnxruntime-gpu release and put their bin folders on PATH (cuDNN's own bin too), or install the "
        "pip CUDA/cuDNN wheels and import torch, or call onnxruntime.preload_dlls() in releases that have "
        "it, before the session is created; or install the onnxruntime-gpu release built for the CUDA you "
        "have.",
        "microsoft/onnxruntime: onnxruntime/python/onnxruntime_pybind_state.cc "
        "(CreateExecutionProviderInstance:"
        " 'CUDA_PATH is set but CUDA wasnt able to be loaded. Please install the correct version of CUDA "
        "andcuDNN as mentioned in the GPU requirements page'); onnxruntime.ai docs 'CUDA Execution Provider' "
        "(requirements)",
        "",
        REASON,
    ),
    # --- Ascend: the TBE operators' parameter checks (tbe errormgr error_manager_vector: E80000, E80029),
    # seen inside MindSpore's or ATC's single-op compile failure -------------------------------------------
    Clause(
        "ascend-tbe-parameter-value",
        ("ascend",),
        "], the parameter[",
        r"In op\[(?P<op>[^\]\n]{1,120})\], the parameter\[(?P<arg>[^\n]{1,120}?)\] should be "
        r"(?P<expected>[^,\n]{0,80}), but actually is \[(?P<value>[^\]\n]{0,120})\]",
        "The TBE operator {op} rejected its parameter {arg} when it was compiled: it is {value}, which "
        "the operator's implementation does not take ({expected|the check prints no expected value}); the "
        "operator was selected for a node of the network whose attribute has that value.",
        "Find the node of {op} in the network (the MindSpore trace or the IR graph names the script line; "
        "for a gradient operator it is the forward op that produced it) and give it a value the operator "
        "takes for {arg}: e.g. a slice step of 1 instead of {value}, done as a reshape or a gather; or keep "
        "that part of the network off the AI Core (another formulation of the same computation).",
        "Ascend CANN tbe/common/utils/errormgr/error_manager_vector.py (raise_err_input_value_invalid: "
        "E80000 'In op[%s], the parameter[%s] should be %s, but actually is [%s].'); mindspore-ai/docs "
        "'CANN Common Error Analysis' (E80000: StridedSliceGradD illegal input value)",
        "",
        REASON,
    ),
    Clause(
        "ascend-tbe-inputs-shape-invalid",
        ("ascend",),
        "], the shape of inputs[",
        r"In op\[(?P<op>[^\]\n]{1,120})\], the shape of inputs\[(?P<input>[^\]\n]{1,80})\]\[(?P<input2>"
        r"[^\]\n]{1,80})\] are invalid, \[(?P<detail>[^\]\n]{1,200})\]",
        "The TBE operator {op} found the shapes of its inputs {input} and {input2} inconsistent when it "
        "was compiled: {detail}. The network feeds this operator tensors whose shapes its definition does "
        "not allow together.",
        "Find the node of {op} in the network (the MindSpore trace or the IR graph names the script line) "
        "and make {input} and {input2} agree as '{detail}' asks (for Assign, the value must have the "
        "parameter's shape: reshape or broadcast it first).",
        "Ascend CANN tbe/common/utils/errormgr/error_manager_vector.py (two-input shape check: E80029 "
        "'In op[%s], the shape of inputs[%s][%s] are invalid, [%s].'); mindspore-ai/docs 'CANN Common "
        "Error Analysis' (E80029: Assign operator shape inconsistency)",
        "",
        REASON,
    ),
    # The CUDA EP's CUDA_CALL form; 2 (out of memory) is the tool-neutral cuda-out-of-memory clause's.
    Clause(
        "ort-cuda-call-failure",
        ("onnxruntime",),
        "cuda failure",
        r"CUDA failure (?!2: )(?P<value>\d{1,6}): (?P<detail>[^;\n]{1,200}?) ; GPU=(?P<index>-?\d{1,3})"
        r"[^\n]{0,400}?; expr=(?P<expr>[^;\n]{1,200})",
        "A CUDA runtime call of onnxruntime's CUDA execution provider failed: {expr} on GPU {index} returned "
        "cudaError {value} ({detail}).  The usual ones: 100 'no CUDA-capable device is detected' (no GPU "
        "visible to the process), 35 'CUDA driver version is insufficient for CUDA runtime version' (a "
        "driver older than the CUDA this onnxruntime-gpu was built with), 209 'no kernel image is available' "
        "(no kernels for this GPU's architecture in this build), 700 'an illegal memory access' (an earlier "
        "kernel failed; the error is sticky).",
        "For 100 make the GPU visible (nvidia-smi, CUDA_VISIBLE_DEVICES, docker --gpus all) and check the "
        "CUDA EP's device_id option; for 35 install a driver that supports the CUDA version of the CUDA EP "
        "requirements table for your onnxruntime-gpu release; for 209 install an onnxruntime-gpu build whose "
        "CUDA supports this GPU; for 700 rerun with CUDA_LAUNCH_BLOCKING=1 to find the node that fails.",
        "microsoft/onnxruntime: core/providers/cuda/cuda_call.cc ('%s failure %d: %s ; GPU=%d ; "
        "hostname=%s ; file=%s ; line=%d ; expr=%s'); onnxruntime.ai docs 'CUDA Execution Provider' "
        "(requirements); CUDA runtime API cudaError_t",
        "",
        REASON,
    ),
    Clause(
        "ort-matmul-broadcast",
        ("onnxruntime",),
        "operand cannot broadcast on dim",
        r"(?P<side>left|right) operand cannot broadcast on dim (?P<axis>\d{1,3})",
        "MatMul node {op|} got operands whose batch dimensions (all but the last two) differ at dimension "
        "{axis} of the {side} operand and neither is 1, so they cannot be broadcast together.",
        "Check the two inputs of {op|that node}: the batch or head dimensions must be equal or 1; a model "
        "exported with a fixed batch or sequence size fed another one is the usual cause (feed the export "
        "size or re-export with dynamic_axes), as is a Transpose/Reshape before it that put the dimensions "
        "in another order.",
        "microsoft/onnxruntime: core/providers/cpu/math/matmul_helper.h (MatMulComputeHelper::Compute)",
        "",
        REASON,
    ),
    Clause(
        "ort-conv-input-rank",
        ("onnxruntime",),
        "num_dims does not match w num_dims",
        r"X num_dims does not match W num_dims\.\s{0,4}X: (?P<shape>\{[^}\n]{0,60}\}) W: "
        r"(?P<shape2>\{[^}\n]{0,60}\})",
        "Conv node {op|} got an input of shape {shape} whose rank differs from its weights' {shape2}: a "
        "Conv takes (N, C, spatial...) with as many dimensions as its kernel, so the input lacks a dimension "
        "(most often the batch) or has one too many.",
        "Feed the input with the rank the weights {shape2} call for: add the batch dimension "
        "(np.expand_dims(x, 0) or x.unsqueeze(0)) to a single image, or drop an extra one; if the rank was "
        "changed by a Reshape or Squeeze before {op|the Conv}, fix that node in the export.",
        "microsoft/onnxruntime: core/providers/cpu/nn/conv_attributes.h (ValidateInputShape)",
        "",
        REASON,
    ),
    Clause(
        "ort-invalid-expand-shape",
        ("onnxruntime",),
        "nvalid expand shape",
        r"[Ii]nvalid expand shape",
        "Expand node {op|} was asked for a shape its input cannot be broadcast to: each dimension of the "
        "target must equal the input's or be 1 there, and the shape it got (computed in the graph from the "
        "input sizes) breaks that.",
        "Look at the shape input of {op|the Expand node}: it is usually computed from a size traced as a "
        "constant at export (a batch or sequence length); feed the size the model was exported with, or "
        "re-export with dynamic_axes so that the size is read from the input rather than fixed.",
        "microsoft/onnxruntime: core/providers/cpu/tensor/expand.cc ('invalid expand shape')",
        "",
        REASON,
    ),
    # --- reason clauses of issue 23's leave-source-out pass: the failure classes the vendors' own sources
    # name (no kernel, an input of another rank or type, a model of a newer IR version or of another
    # opset's form, a file that is missing or is no model, memory, a GPU the build has no code for) -------
    Clause(
        "ort-no-kernel-for-node",
        ("onnxruntime",),
        "could not find an implementation for",
        r"Could not find an implementation for (?:the node (?:[^\n(]{0,200}?:)?)?"
        r"(?P<op_type>[A-Za-z_]\w{0,80})\((?P<value>\d{1,3})\)(?: node with name '(?P<op>[^'\n]{1,200})')?",
        "onnxruntime found no kernel for {op_type} at opset version {value} in any execution provider of "
        "the session (node {op|not named in the message}): each node needs a kernel registered for its "
        "operator, its domain's opset version and its input types. {op_type} is either not an operator "
        "these providers implement (a custom or framework-private operator such as ATen, a contrib "
        "operator of another build), or they implement it only for other opset versions or data types "
        "(an integer or float16 form the CPU provider lacks).",
        "Look {op_type} up in onnxruntime's OperatorKernels.md (docs/OperatorKernels.md of your release, one "
        "table per provider) for version {value} and the input types of node {op|named in the message}: "
        "if another provider has it, add that provider to the session; if only other types are listed, "
        "cast the inputs or re-quantize with a format the provider implements; if {op_type} is not listed "
        "at all, re-export the model without it (standard ONNX operators only) or register the custom-op "
        "library that implements it (SessionOptions.register_custom_ops_library).",
        "microsoft/onnxruntime: core/framework/kernel_registry_manager.cc and session_state.cc ('Could not "
        "find an implementation for <op>(<version>) node with name ...', earlier 'for the node ...'); "
        "docs/OperatorKernels.md",
        "",
        REASON,
    ),
    Clause(
        "ort-input-rank",
        ("onnxruntime",),
        "invalid rank for input:",
        r"Invalid rank for input: (?P<input>[^\s]{1,200}) Got: (?P<value>\d{1,2}) Expected: "
        r"(?P<value2>\d{1,2})",
        "The array fed as input '{input}' has {value} dimensions and the model declares {value2}: "
        "onnxruntime compares every feed with the graph's input before it runs and never adds or drops "
        "a dimension itself.",
        "Feed '{input}' with {value2} dimensions: when it has fewer, add the missing leading ones (a batch "
        "of one: x[np.newaxis] or np.expand_dims(x, 0)); when it has more, remove the extra ones "
        "(np.squeeze) or feed the items one at a time; session.get_inputs() lists each input's declared "
        "shape.",
        "microsoft/onnxruntime: core/session/inference_session.cc (ValidateInputsOutputs: 'Invalid rank for "
        "input: <name> Got: <n> Expected: <m> Please fix either the inputs or the model.')",
        "",
        REASON,
    ),
    Clause(
        "ort-input-dimensions",
        ("onnxruntime",),
        "got invalid dimensions for input:",
        r"Got invalid dimensions for input: (?P<input>[^\s]{1,200}) for the following indices\s{0,4}"
        r"index: (?P<index>\d{1,2}) Got: (?P<value>\d{1,12}) Expected: (?P<value2>\d{1,12})",
        "The array fed as input '{input}' has size {value} on dimension {index}, where the model fixes it at "
        "{value2}: that dimension was exported as a constant, and onnxruntime checks every feed's fixed "
        "dimensions before it runs.",
        "Feed '{input}' with {value2} on dimension {index} (resize or pad the data, or transpose it if the "
        "layout differs: NCHW against NHWC), or re-export the model with that dimension dynamic "
        "(name dimension {index} of '{input}' in torch.onnx.export's dynamic_axes) if it should vary.",
        "microsoft/onnxruntime: core/session/inference_session.cc (ValidateInputsOutputs: 'Got invalid "
        "dimensions for input: <name> for the following indices index: <i> Got: <n> Expected: <m>')",
        "",
        REASON,
    ),
    Clause(
        "ort-arena-out-of-memory",
        ("onnxruntime",),
        "failed to allocate memory for requested buffer of size",
        r"Failed to allocate memory for requested buffer of size (?P<value>\d{1,20})",
        "onnxruntime's memory arena (BFCArena, the pool of the CPU provider or of the CUDA provider's GPU) "
        "asked its device for {value} more bytes for {op|a node's output} and got none: the device's free "
        "memory is smaller than what this run needs at this input size, or other sessions and processes "
        "hold it.",
        "Lower what one run needs: a smaller batch or input size; for the CUDA provider set gpu_mem_limit "
        "and arena_extend_strategy='kSameAsRequested' (the arena otherwise grows in powers of two) and "
        "check nvidia-smi for other processes; for the CPU, SessionOptions.enable_cpu_mem_arena = False "
        "returns freed memory; when input shapes vary, enable_mem_pattern = False.",
        "microsoft/onnxruntime: core/framework/bfc_arena.cc (BFCArena::AllocateRawInternal: 'Failed to "
        "allocate memory for requested buffer of size '); onnxruntime.ai docs, CUDA Execution Provider "
        "options (gpu_mem_limit, arena_extend_strategy)",
        "",
        REASON,
    ),
    Clause(
        "ort-protobuf-unparsable",
        ("onnxruntime",),
        "protobuf parsing failed",
        r"(?:Load model from (?P<path>[^\n]{1,300}?) failed: ?)?Protobuf parsing failed",
        _NOT_A_MODEL_CAUSE,
        _NOT_A_MODEL_FIX,
        "microsoft/onnxruntime: core/graph/model.cc (Model::Load: 'Protobuf parsing failed.', status "
        "INVALID_PROTOBUF); onnx docs, External Data (models over 2 GB)",
        "",
        REASON,
    ),
    Clause(
        "ort-modelproto-without-graph",
        ("onnxruntime",),
        "modelproto does not have a graph",
        r"(?:Load model from (?P<path>[^\n]{1,300}?) failed: ?[^\n]{0,300}?)?"
        r"ModelProto does not have a graph",
        _NOT_A_MODEL_CAUSE,
        _NOT_A_MODEL_FIX,
        "microsoft/onnxruntime: core/graph/model.cc (Model::Model: 'ModelProto does not have a graph.')",
        "",
        REASON,
    ),
    Clause(
        "ort-model-file-missing",
        ("onnxruntime",),
        "file doesn't exist",
        r"Load model (?!from )(?P<path>(?:(?!Load model)[^\n]){1,300}?) failed\. ?File doesn't exist",
        "No file exists at {path} as this process sees it: onnxruntime opens the path as given, and a "
        "relative path is read from the process's current working directory, not from the script's folder.",
        "Print os.path.abspath('{path}') and os.getcwd() to see where it was looked for; build the path "
        "from the script's own folder (Path(__file__).parent / 'model.onnx') or pass an absolute path; if "
        "the model is downloaded or exported by an earlier step (a cache, git lfs, a build artifact), check "
        "that the step ran and finished.",
        "microsoft/onnxruntime: core/graph/model.cc (Model::Load: 'Load model <path> failed. File doesn't "
        "exist', status NO_SUCHFILE)",
        "",
        REASON,
    ),
    Clause(
        "ort-provider-not-available",
        ("onnxruntime",),
        "is not in available provider names",
        r"Specified provider '(?P<option>\w{1,80})' is not in available provider names\.?\s{0,4}"
        r"(?:Available providers: '(?P<value>[^'\n]{1,300})')?",
        "The installed onnxruntime package was not built with {option}: it offers only {value|the providers "
        "onnxruntime.get_available_providers() lists}, so the session runs on those (the request is "
        "dropped with this warning). Each provider ships in its own package: onnxruntime is CPU-only, "
        "onnxruntime-gpu carries CUDA and TensorRT, onnxruntime-directml, onnxruntime-openvino and "
        "onnxruntime-qnn the others; with two of them installed, the one installed last shadows the other.",
        "Install the package that carries {option}, alone: pip uninstall onnxruntime onnxruntime-gpu (and "
        "any other onnxruntime-* package), then pip install the one for {option} (onnxruntime-gpu for "
        "CUDAExecutionProvider) in a version built for your CUDA; then onnxruntime.get_available_providers()"
        " must list {option}.",
        "microsoft/onnxruntime: onnxruntime/python/onnxruntime_inference_collection.py ('Specified provider "
        "'{}' is not in available provider names.Available providers: '{}''); onnxruntime.ai docs, Install "
        "ONNX Runtime (one package per execution provider)",
        "",
        REASON,
    ),
    Clause(
        "ort-ep-create-failed",
        ("onnxruntime",),
        "failed to create",
        r"Failed to create (?P<option>\w{1,60}ExecutionProvider)\b",
        "onnxruntime has {option} built in but could not start it: the provider's own library "
        "(libonnxruntime_providers_*.so / onnxruntime_providers_*.dll) or a library it needs (for CUDA: the "
        "CUDA runtime, cuBLAS and cuDNN of the major versions this onnxruntime-gpu release was built with) "
        "failed to load, so the session falls back to the CPU provider.",
        "Compare the CUDA and cuDNN major versions installed with the requirements table of {option} for "
        "your onnxruntime release (a build for cuDNN 8 does not load cuDNN 9, nor the reverse) and install "
        "the matching ones: recent onnxruntime-gpu releases take pip install onnxruntime-gpu[cuda,cudnn] "
        "and onnxruntime.preload_dlls() (which can load an imported PyTorch's copies); the error line "
        "logged just before this one names the library that failed to load (libcudnn.so.9, "
        "libcublasLt.so.12...).",
        "microsoft/onnxruntime: onnxruntime/python/onnxruntime_pybind_state.cc "
        "(CreateExecutionProviderInstance: 'Failed to create CUDAExecutionProvider. Please reference "
        ".../CUDA-ExecutionProvider.html#requirements to ensure all dependencies are met.'); onnxruntime.ai "
        "docs, CUDA Execution Provider (requirements, preload DLLs)",
        "",
        REASON,
    ),
    Clause(
        "ort-format-model-unverifiable",
        ("onnxruntime",),
        "ort model verification failed",
        r"ORT model verification failed",
        "The file was read as an ORT-format model (.ort) and failed the flatbuffer verification onnxruntime "
        "runs before it reads one: it is not an ORT-format model (an .onnx file given the .ort suffix or "
        "loaded as ORT format), or it is truncated or damaged.",
        "Check that the file was written by onnxruntime's converter (python -m onnxruntime.tools."
        "convert_onnx_models_to_ort model.onnx) and copied whole (compare sizes; on Android check the asset "
        "is not compressed or cut); convert it again with the onnxruntime release that loads it, or load "
        "the .onnx model instead.",
        "microsoft/onnxruntime: onnxruntime/core/session/inference_session.cc (LoadOrtModelWithLoader: "
        "flatbuffers::Verifier, 'ORT model verification failed.'); onnxruntime.ai docs, ORT model format",
        "",
        REASON,
    ),
    Clause(
        "ort-cudnn-failure",
        ("onnxruntime",),
        "cudnn failure ",
        r"CUDNN failure (?P<value>\d{1,6}): (?P<status>CUDNN_STATUS_\w{1,60})"
        r"(?:[\s\S]{0,600}?expr=(?P<call>cudnn\w{1,80}))?",
        _CUDNN_CAUSE,
        _CUDNN_FIX,
        "microsoft/onnxruntime: core/providers/cuda/cuda_call.cc ('CUDNN failure %d: %s ; GPU=... ; expr=');"
        " NVIDIA cuDNN API reference, cudnnStatus_t; onnxruntime.ai docs, CUDA Execution Provider options",
        "",
        REASON,
    ),
    Clause(
        "ort-cudnn-error-executing",
        ("onnxruntime",),
        "cudnn error executing ",
        r"CUDNN error executing (?P<call>cudnn\w{1,80})",
        _CUDNN_CAUSE,
        _CUDNN_FIX,
        "microsoft/onnxruntime: core/providers/cuda/cudnn_common.h (CUDNN_RETURN_IF_ERROR: 'CUDNN error "
        "executing <expr>'); NVIDIA cuDNN API reference, cudnnStatus_t; onnxruntime.ai docs, CUDA Execution "
        "Provider options",
        "",
        REASON,
    ),
    Clause(
        "ort-cudnn-frontend-failure",
        ("onnxruntime",),
        "cudnn_fe failure ",
        r"CUDNN_FE failure (?P<value>\d{1,6}): (?P<status>[A-Z][A-Z_]{2,60})"
        r"(?:[\s\S]{0,600}?expr=(?P<call>[\w>.-]{1,80}))?",
        "The cuDNN frontend graph (cudnn_frontend, which onnxruntime's CUDA provider builds for "
        "{op|a node}'s convolution) failed with error {value} {status}. cudnn_frontend's error codes: "
        "HEURISTIC_QUERY_FAILED and GRAPH_EXECUTION_PLAN_CREATION_FAILED, cuDNN found no engine for this "
        "convolution (its size, data type or the workspace it may use); GRAPH_EXECUTION_FAILED, the plan "
        "failed on the GPU; CUDNN_BACKEND_API_FAILED, a call into the cuDNN library itself failed, most "
        "often a cuDNN whose engine sub-libraries (libcudnn_engines_*) are missing, of another release than "
        "the rest, or without kernels for this GPU.",
        "Load one whole cuDNN of the major version this onnxruntime-gpu release was built with (its CUDA "
        "provider requirements table; a cuDNN bundled by another package, such as torch's, must not be "
        "found first) with every libcudnn_engines_* library beside it, and one that supports this GPU; "
        "then set the CUDA provider options cudnn_conv_algo_search to 'DEFAULT' and leave "
        "cudnn_conv_use_max_workspace at '1' (cuDNN needs the workspace to find an engine); for "
        "HEURISTIC_QUERY_FAILED or a memory failure lower the batch or input size.",
        "microsoft/onnxruntime: core/providers/cuda/cuda_call.cc and nn/conv.cc ('CUDNN_FE failure %d: %s ; "
        "GPU=... ; expr=' around cudnn_frontend graph calls); NVIDIA/cudnn-frontend: cudnn_frontend_utils.h "
        "(error_code_t); onnxruntime.ai docs, CUDA Execution Provider options",
        "",
        REASON,
    ),
    Clause(
        "ort-subgraph-output-shape",
        ("onnxruntime",),
        "subgraph must have the shape set for all outputs",
        r"Subgraph must have the shape set for all outputs but (?P<tensor>[^\s]{1,200}) did not",
        "{arg|A control-flow} node {op|} runs a subgraph (an If branch, a Loop or Scan body) whose output "
        "'{tensor}' has no shape in the model: onnxruntime allocates the node's outputs from the shapes its "
        "subgraph declares (IfImpl/LoopImpl/ScanImpl AllocateOutputTensors) and fails when one has none, "
        "which happens when the exporter or an optimiser left that value without a type/shape (no "
        "value_info and nothing shape inference could infer).",
        "Give the subgraph output '{tensor}' a shape: run onnx.shape_inference.infer_shapes (or onnxruntime."
        "tools.symbolic_shape_infer for symbolic sizes) on the model and save the result, or set the "
        "output's type and shape by hand (onnx.helper.make_tensor_value_info, dims may be symbolic names); "
        "re-export with a newer opset and exporter, or simplify the model so that {arg|the control-flow "
        "node} is folded away (onnxsim with fixed input shapes).",
        "microsoft/onnxruntime: core/providers/cpu/controlflow/if.cc, loop.cc and scan_utils.cc "
        "(AllocateOutputTensors: 'Subgraph must have the shape set for all outputs but <name> did not.')",
        "",
        REASON,
    ),
    Clause(
        "trtllm-assertion-failed",
        ("tensorrt",),
        "[tensorrt-llm][error] assertion failed: ",
        r"\[TensorRT-LLM\]\[ERROR\] Assertion failed: (?P<value>[^\n]{1,200}?)"
        r"(?: \((?:[^()\n]{0,300}/)?(?P<unit>[\w.-]{1,80}\.(?:cpp|cu|h|cuh)):(?P<line>\d{1,6})\))?"
        r"[ \t]*(?:\n|$)",
        "A TLLM_CHECK of TensorRT-LLM's C++ runtime failed: the condition '{value}' was false in "
        "{unit|a source file the message does not name} (TLLM_CHECK throws TllmException 'Assertion "
        "failed: <condition>' with the file and line). It is TensorRT-LLM's own invariant, not TensorRT's "
        "ONNX parser: the engine, its build limits or the request did not meet what that part of the runtime "
        "(the file: batch_manager/kvCacheManager.cpp, the paged KV cache's blocks; runtime/, the "
        "session and engine loading; kernels/ and plugins/, a kernel's preconditions) expects, or it is a "
        "bug of that release.",
        "Make the engine and the runtime one TensorRT-LLM release (rebuild the engine with trtllm-build of "
        "the installed tensorrt_llm, and the same TensorRT underneath); keep requests within the limits the "
        "engine was built with (max_batch_size, max_input_len, max_seq_len, max_num_tokens) and the KV cache "
        "settings consistent with them (tokens_per_block, max_tokens_in_paged_kv_cache, "
        "kv_cache_free_gpu_mem_fraction); then search TensorRT-LLM's GitHub issues for '{value}', whose "
        "fix is usually the release that changed {unit|that file}.",
        "NVIDIA/TensorRT-LLM: cpp/include/tensorrt_llm/common/assert.h (TLLM_CHECK, throwRuntimeError: "
        "'[TensorRT-LLM][ERROR] Assertion failed: %s') and common/tllmException.h (file and line); "
        "TensorRT-LLM docs, trtllm-build and KV cache options",
        "",
        REASON,
    ),
    Clause(
        "myelin-version-mismatch",
        ("tensorrt",),
        "myelinversionmismatch",
        r"myelinVersionMismatch\s{0,3}:?\s{0,3}Compiled against (?P<lib>[\w-]{1,40}) "
        r"(?P<value>\d[\d.]{0,20}\d) but running against [\w-]{1,40} (?P<found>\d[\d.]{0,20}\d)",
        "TensorRT's Myelin (the graph compiler inside TensorRT that builds its fused regions) was compiled "
        "against {lib} {value} and the process loaded {lib} {found}: Myelin checks the library version it "
        "finds at run time and refuses a different one (myelinVersionMismatch), so the build or the "
        "deserialisation stops.",
        "Make the process load {lib} {value}, the version this TensorRT release was built with (the "
        "TensorRT Support Matrix and release notes list it): install that {lib}, and put its directory first "
        "in LD_LIBRARY_PATH (PATH on Windows) so that another copy ({found}, from another CUDA toolkit, a "
        "conda package or a framework's bundled libraries) is not found before it; or use the TensorRT "
        "release built against {lib} {found}.",
        "TensorRT: the Myelin error's own wording ('myelinVersionMismatch : Compiled against <lib> <version> "
        "but running against <lib> <version>', nvinfer1::MyelinError); NVIDIA TensorRT Support Matrix "
        "(the CUDA and cuBLAS versions of each release)",
        "",
        REASON,
    ),
    Clause(
        "trt-skipping-tactic",
        ("tensorrt",),
        "skipping tactic ",
        r"Skipping tactic (?P<value>0x[0-9a-fA-F]{1,16}|\d{1,20}) due to (?!insufficient memory)"
        r"(?:exception |Myelin error:? |)"
        r"(?P<error>[^\n]{0,159}[^\n.])",
        "TensorRT's builder was timing tactic {value} (one candidate kernel for a layer) when it failed with "
        "'{error}', so the builder dropped that tactic and went on with the others: tactic selection "
        "skips every candidate that fails or does not fit, and the build fails only when no tactic of a "
        "layer is left ('Could not find any implementation for node ...'). A CUDA call failing while a "
        "tactic is timed (cudaEventElapsedTime, an illegal address) means an earlier kernel broke the "
        "CUDA context or the GPU ran out of memory.",
        "If the build still ends with an engine these lines are not the failure: the skipped tactics are "
        "just not used. If it fails, read the last error after them: give the builder more workspace "
        "(config.set_memory_pool_limit(trt.MemoryPoolType.WORKSPACE, bytes); trtexec --memPoolSize="
        "workspace:N) and stop other processes using the GPU; leave out a tactic library that fails "
        "(IBuilderConfig.set_tactic_sources; trtexec --tacticSources=-CUBLAS,-CUBLAS_LT,-CUDNN); for a "
        "CUDA error rebuild once with CUDA_LAUNCH_BLOCKING=1 to find the layer whose kernel failed first.",
        "NVIDIA TensorRT Developer Guide (tactic selection, memory pools, tactic sources; trtexec "
        "--memPoolSize, --tacticSources); NVIDIA TensorRT API: IBuilderConfig::setTacticSources, "
        "setMemoryPoolLimit",
        "",
        REASON,
    ),
    Clause(
        "ov-cpu-reduce-no-jit-kernel",
        ("openvino",),
        "jit_uni_reduce",
        r"Reduce node with name '(?P<node>[^'\n]{1,200})' has not found (?P<value>jit_uni_reduce\w{0,40})",
        "OpenVINO's CPU plugin could not create the JIT kernel {value} for Reduce node '{node}': it builds "
        "that kernel only on an x86-64 CPU that reports AVX-512, AVX2 or SSE4.1 (mayiuse checks in the "
        "Reduce node), and for this one none of them was available - the CPU, or the virtual CPU a VM or "
        "an x86 emulator exposes, reports none of these instruction sets, or the plugin is not an x86-64 "
        "build and the node has post-operations fused into it (an activation, eltwise or FakeQuantize "
        "after the Reduce).",
        "Check the CPU flags the process sees (lscpu or /proc/cpuinfo: sse4_1, avx2, avx512f): in a VM "
        "expose the host CPU model (QEMU/KVM -cpu host, or a CPU type with SSE4.1 and AVX2); under x86 "
        "emulation on an ARM machine install the native arm64 OpenVINO instead; otherwise compile the "
        "model for another device (GPU) or keep node '{node}' apart from the operation fused after it.",
        "openvinotoolkit/openvino: src/plugins/intel_cpu/src/nodes/reduce.cpp (prepareParams: "
        "jit_uni_reduce_post_kernel_f32 built for avx512_core, avx2 or sse41 only; '<node> has not found "
        "jit_uni_reduce_post_kernel_f32.')",
        "",
        REASON,
    ),
    Clause(
        "aclnn-parse-dynamic-kernel-config",
        ("ascend",),
        "parse dynamic kernel config fail",
        r"Parse dynamic kernel config fail",
        "The aclnn kernel manager (AclOpKernelInit, ParseDynamicKernelConfig) found no usable description "
        "of {op_type|the operator}'s kernel binaries for this chip: it looks for the operator's config json "
        "in each custom opp path (ASCEND_CUSTOM_OPP_PATH, the vendors of opp/vendors/config.ini), then in "
        "the built-in opp's kernel config folders for this SoC, then in the static library, and none had "
        "it. The kernels (ops) package installed is for another chip (a 310P ops package on a 910B) or "
        "missing or partial, it is older than the operator the framework calls, or a custom operator's "
        "vendor path was not set when the process started.",
        "Install the CANN kernels (ops) package of the same version as the toolkit and for this chip "
        "(npu-smi info names it), then check that the opp's kernel config folder for this SoC holds "
        "{op_type|the operator}'s json; for a custom or plugin operator set ASCEND_CUSTOM_OPP_PATH to its "
        "vendor directory before the process starts (a path added after CANN read it is not seen); or call "
        "an operator that package has (an older aclnn API of the same op).",
        "CANN opbase: aclnn kernel manager (KernelMgr::AclOpKernelInit, ParseDynamicKernelConfig: custom "
        "opp paths, built-in config folders, static library, then 'Parse dynamic kernel config fail.')",
        r"\b(?P<op_type>[A-Z]\w{1,80})(?: does not has any binary| ADD_TO_LAUNCHER_LIST_AICORE failed)",
        REASON,
    ),
    Clause(
        "ggml-cann-assert",
        ("ascend",),
        "ggml_assert(",
        r"(?P<unit>ggml-cann/[\w.-]{1,80}):(?P<line>\d{1,6}): GGML_ASSERT\((?P<value>[^\n]{1,200})\) failed",
        "llama.cpp's CANN backend (ggml-cann) checked '{value}' on the tensors of an operation in {unit} "
        "and it was false (GGML_ASSERT prints the condition, then aborts): this operation's tensors (their "
        "shapes, data type or layout) are not what the CANN implementation of it handles - a model whose "
        "form of that operation (a RoPE or attention variant, a quantisation type) ggml-cann does not "
        "implement, or a bug of that llama.cpp revision.",
        "Run the same model with no layers offloaded (-ngl 0) or a CPU build to confirm it is the CANN "
        "backend; check the model's data type and architecture against what llama.cpp's "
        "docs/backend/CANN.md lists; build a llama.cpp whose {unit} handles '{value}' (its git log shows the "
        "changes), or use another quantisation of the model.",
        "ggml-org/llama.cpp: ggml/include/ggml.h (GGML_ASSERT: ggml_abort(__FILE__, __LINE__, "
        "'GGML_ASSERT(%s) failed')), ggml/src/ggml-cann (aclnn_ops.cpp), docs/backend/CANN.md",
        "",
        REASON,
    ),
    Clause(
        "coreml-protobuf-field-type",
        ("coreml",),
        ", but expected one of: ",
        r"(?P<value>[^\s:]{1,80}) has type (?:<class ')?(?P<dtype>\w{1,40})(?:'>)?, but expected one of: "
        r"(?P<expected>[\w, <>'()]{1,80}?)\s*(?:\n|$)",
        "A field of the Core ML model's protobuf spec was given {value}, a Python {dtype}, where protobuf "
        "accepts only {expected}: the spec's text fields and map keys (the model's user_defined_metadata, "
        "its author, license and descriptions, string class labels) take strings only, and protobuf "
        "refuses any other type instead of converting it.",
        "Convert the value to str before it is set: for metadata write "
        "model.user_defined_metadata[str(key)] = str(value) (a dict of class names keyed by int, "
        "0 for 'person', needs str(key)), and give short_description, author and license as strings; "
        "pass class labels all as str or all as int to ct.ClassifierConfig.",
        "protocolbuffers/protobuf: python/google/protobuf/internal/type_checkers.py (TypeChecker and "
        "UnicodeValueChecker: '<value> has type <type>, but expected one of: <types>'); apple/coremltools: "
        "MLModel.user_defined_metadata, short_description, ClassifierConfig (coremltools API reference)",
        "",
        REASON,
    ),
    Clause(
        "ort-node-input-not-produced",
        ("onnxruntime",),
        "is not a graph input, initializer, or output of a",
        r"Node input '(?P<input>[^'\n]{1,200})' is not a graph input, initializer, or output of a previous "
        r"node",
        "Node input '{input}' has no source in the graph: no node produces it, and it is neither a graph "
        "input nor an initializer (nor, inside a subgraph, a value of the enclosing graph). A node that "
        "produced it was removed or renamed (graph surgery, an optimiser or converter pass, a model cut "
        "out of a larger one), or an initializer was stored under another name.",
        "Find the nodes that read '{input}' ([n.name for n in model.graph.node if '{input}' in n.input]) "
        "and restore its producer, or add '{input}' as a graph input or initializer; "
        "onnx.checker.check_model(model, full_check=True) shows the same break before onnxruntime loads "
        "it; to cut a model, use onnx.utils.extract_model, which keeps every producer.",
        "microsoft/onnxruntime: core/graph/graph.cc (Graph::BuildConnections: 'Invalid model. Node input "
        "'<name>' is not a graph input, initializer, or output of a previous node.')",
        "",
        REASON,
    ),
    Clause(
        "openvino-onnx-batchnorm-training",
        ("openvino",),
        "training mode of batchnormalization is not supported",
        r"Training mode of BatchNormalization is not supported",
        "A BatchNormalization node of the ONNX model has more than one output: the running mean and "
        "variance outputs of training mode, which the model keeps when it is exported in training mode. "
        "OpenVINO's ONNX frontend converts BatchNormalization for inference only (one output).",
        "Export the model in inference mode: call model.eval() before torch.onnx.export, or pass "
        "training=torch.onnx.TrainingMode.EVAL; for an existing file, keep only the first output of each "
        "BatchNormalization node (drop the running-statistics outputs and the graph outputs that use "
        "them) with onnx and save it again.",
        "openvinotoolkit/openvino: src/frontends/onnx/frontend/src/op/batch_norm.cpp (CHECK_VALID_NODE("
        "node, node.get_outputs_size() == 1, 'Training mode of BatchNormalization is not supported.')); "
        "onnx Operators.md BatchNormalization (training_mode outputs)",
        "",
        REASON,
    ),
    Clause(
        "onnx-input-must-be-consumed",
        (ANY,),
        "must be set to consumed for operator",
        r"Input index (?P<index>\d{1,3}) must be set to consumed for operator (?P<op_type>\w{1,80})",
        "The {op_type} node is checked against the schema of {op_type} at the opset the model declares, an "
        "early version (before opset 6) whose input {index} is updated in place and must be listed in the "
        "node's consumed_inputs attribute; the node, written in a later version's form, has none. The "
        "model's opset_import says an older opset than the one its nodes were written for.",
        "Set the model's ONNX opset to the one its exporter wrote the nodes for (model.opset_import, the "
        "exporter's opset option), or convert the model with onnx.version_converter.convert_version to a "
        "current opset; onnx.defs.get_schema('{op_type}', opset) shows each version's attributes.",
        "onnx/onnx: onnx/defs/schema.cc (OpSchema::Verify, legacy consumed inputs: 'Input index <i> must be "
        "set to consumed for operator <op>'); onnx Changelog.md (consumed_inputs removed in opset 6)",
        "",
        REASON,
    ),
    Clause(
        "model-ir-version-too-new",
        (ANY,),
        "unsupported model ir version",
        r"Unsupported model IR version: (?P<value>\d{1,3}), max supported IR version: (?P<limit>\d{1,3})",
        _IR_CAUSE,
        _IR_FIX,
        "microsoft/onnxruntime: core/graph/model.cc (Model::Model: 'Unsupported model IR version: N, max "
        "supported IR version: M'); onnxruntime.ai docs, ONNX Runtime compatibility (IR version per release)",
        "",
        REASON,
    ),
    Clause(
        "onnx-checker-ir-version-too-new",
        (ANY,),
        "is higher than the checker's",
        r"[Yy]our model ir_version (?P<value>\d{1,3}) is higher than the checker's \((?P<limit>\d{1,3})\)",
        _IR_CAUSE,
        _IR_FIX,
        "onnx/onnx: onnx/checker.cc (check_model: 'Your model ir_version N is higher than the checker's "
        "(M).'); onnx docs, Versioning (IR versions and onnx releases)",
        "",
        REASON,
    ),
    Clause(
        "onnx-schema-input-count",
        (ANY,),
        "not in range [min=",
        r"Node \((?P<node>[^()\n]{0,200})\) has (?P<what>input|output) size (?P<value>\d{1,4}) not in range "
        r"\[min=(?P<low>\d{1,4}), max=(?P<high>\d{1,10})\]",
        "Node {node|(no name)} has {value} {what}s, where the schema of its operator at the opset the model "
        "declares takes {low} to {high}: the node was written in the form of another opset (operators "
        "whose attributes became inputs in later opsets, such as Pad's pads, the axes of Squeeze, Unsqueeze "
        "and the reductions, Split's split, Resize's scales) than the model's opset_import says, or a custom "
        "operator shares a standard operator's name, or a node that one of the runtime's own graph "
        "optimisations built (a fused node named after its provider).",
        "Make node {node|(no name)} and the model's opset agree: compare its {what}s with "
        "onnx.defs.get_schema(op_type, opset) for the opset in model.opset_import; re-export at the opset "
        "the node's form belongs to (opset_version=...), or convert the model with "
        "onnx.version_converter.convert_version; a node built by hand must use the form of the declared "
        "opset; for a fused node, load the model with graph optimisations off "
        "(SessionOptions.graph_optimization_level = ORT_DISABLE_ALL) to confirm it.",
        "onnx/onnx: onnx/defs/schema.cc (OpSchema::Verify: 'Node (<name>) has input size <n> not in range "
        "[min=<a>, max=<b>].'); onnx docs, Operators.md (each operator's versions)",
        "",
        REASON,
    ),
    Clause(
        "onnx-schema-required-attribute",
        (ANY,),
        "required attribute '",
        r"(?:Error in Node:(?P<node>[^\n:]{0,200}?) : )?Required attribute '(?P<arg>\w{1,80})' is missing",
        "Node {node|(not named)} lacks attribute '{arg}', which the schema of its operator requires at "
        "the opset the model declares: the node was written for another opset's form of the operator "
        "than the model's opset_import says, or it was built by hand without it.",
        "Compare node {node|(not named)} with onnx.defs.get_schema(op_type, opset) for the model's opset: "
        "re-export at the opset the node's form belongs to, convert the model with "
        "onnx.version_converter.convert_version, or set '{arg}' on the node (onnx.helper.make_attribute) "
        "with the value its schema describes.",
        "onnx/onnx: onnx/defs/schema.cc (OpSchema::Verify: 'Required attribute '<name>' is missing.')",
        "",
        REASON,
    ),
    Clause(
        "onnx-op-not-registered",
        (ANY,),
        "is not a registered function/op",
        r"(?:Fatal error: )?(?P<op_type>[A-Za-z_][\w.]{0,100}) is not a registered function/op",
        _NO_SCHEMA_CAUSE,
        _NO_SCHEMA_FIX,
        "microsoft/onnxruntime: core/graph/graph.cc and onnx/onnx: checker ('Fatal error: <op> is not a "
        "registered function/op'); torch.onnx.export docs (operator_export_type, ONNX_ATEN_FALLBACK)",
        "",
        REASON,
    ),
    # s37a: a domain version of 0 names the cause itself (placed before the general no-schema clause)
    Clause(
        "onnx-s37a-domain-version-zero",
        (ANY,),
        "with domain_version of 0",
        r"No Op registered for (?P<op_type>[A-Za-z_][\w.]{0,100}) with domain_version of 0(?!\d)",
        "The model declares opset version 0 for the domain of node {op_type}: the checker looks the "
        "operator up at the version the model's opset_import gives its domain, and no operator has a schema "
        "at version 0 (every ONNX operator's first version is 1 or later), so none is found for {op_type} "
        "whether or not it is a standard operator. The opset_import entry was written with version 0 or "
        "left unset (an unset version reads as 0) by whatever built or edited the model.",
        "Give the domain a real opset version in the model: for the default domain set the version of "
        "model.opset_import's entry with domain '' to the opset the graph was written for (e.g. 13; when "
        "building it, onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid('', 13)])), "
        "save it, and run onnx.checker.check_model on it before loading it again.",
        "onnx/onnx: onnx/checker.cc (check_node: the node's domain_version is the model's opset_import "
        "version for its domain; 'No Op registered for <op> with domain_version of <n>' when the schema "
        "registry has none at that version), onnx/defs/schema.h (OpSchema::SinceVersion, 1 or later)",
        "",
        REASON,
    ),
    Clause(
        "onnx-no-schema-registered",
        (ANY,),
        " registered for ",
        r"No (?:Op|[Ss]chema|Op or Function) registered for '?(?P<op_type>[A-Za-z_][\w.]{0,100})'?"
        r"(?: with domain_version of (?P<value>\d{1,3}))?",
        _NO_SCHEMA_CAUSE,
        _NO_SCHEMA_FIX,
        "onnx/onnx: onnx/checker.cc ('No Op registered for <op> with domain_version of <n>') and the Python "
        "defs (onnx.defs.get_schema: 'No schema registered for '<op>'!')",
        "",
        REASON,
    ),
    Clause(
        "cuda-no-kernel-image",
        (ANY,),
        "no kernel image is available for execution on the device",
        r"no kernel image is available for execution on the device",
        "The GPU code in this build of the tool was compiled for other GPU architectures than this GPU's "
        "(cudaErrorNoKernelImageForDevice, 209), and it carries no PTX the driver could compile for it: "
        "the kernel of {op|the failing node} cannot run on this GPU at all.",
        "Check this GPU's compute capability (nvidia-smi --query-gpu=compute_cap --format=csv) against the "
        "architectures the installed build lists in its release notes; install a build compiled for it "
        "(newer GPUs need builds with a recent CUDA, old GPUs are dropped by newer builds), or build the "
        "tool from source for that architecture (CMAKE_CUDA_ARCHITECTURES).",
        "NVIDIA CUDA Runtime API reference, cudaError_t (cudaErrorNoKernelImageForDevice = 209: 'no kernel "
        "image is available for execution on the device')",
        "",
        REASON,
    ),
    Clause(
        "openvino-shape-inference-check",
        ("openvino",),
        "_shape_inference.hpp",
        r"Check '(?P<value>[^'\n]{1,200})' failed at [^\n]{0,200}?shape_inference/include/"
        r"(?P<op_type>[a-z]\w{0,60}?)_shape_inference\.hpp",
        "OpenVINO's shape inference for {op_type} (its {op_type}_shape_inference.hpp) found the condition "
        "'{value}' false: the shapes, or the constant values such as a target shape or axes, that reach a "
        "{op_type} node of the model do not fit that operation. Most often the model now gets an input size "
        "other than the one its constants were computed for at export, or model.reshape() fixed a dimension "
        "to a value the graph does not fit.",
        "Find the {op_type} nodes whose inputs depend on the input size: feed (or reshape the model to) the "
        "input shape it was exported with; if the size must vary, re-export with that dimension dynamic so "
        "that shapes are computed from the input instead of stored as constants; the source model's own "
        "shape inference at the same input size (onnx.shape_inference.infer_shapes) shows the node whose "
        "shapes disagree.",
        "openvinotoolkit/openvino: src/core/shape_inference/include/<op>_shape_inference.hpp "
        "(NODE_VALIDATION_CHECK / NODE_SHAPE_INFER_CHECK, printed as 'Check '<condition>' failed at "
        "<file>:<line>')",
        "",
        REASON,
    ),
    Clause(
        "cuda-illegal-address",
        (ANY,),
        "an illegal memory access was encountered",
        r"an illegal memory access was encountered",
        "A GPU kernel read or wrote memory outside the buffers it was given (cudaErrorIllegalAddress, 700). "
        "The error is sticky: the CUDA context is unusable afterwards and every later call reports it, so "
        "the call named in the message ({op|the one reported here}) is often not the kernel that faulted: "
        "kernels run asynchronously.",
        "Find the faulting kernel: run once with CUDA_LAUNCH_BLOCKING=1 (the error is then reported at the "
        "launch that faulted) or under compute-sanitizer; then check the sizes the failing step was given: "
        "every input or output buffer must hold the shape the engine or model computes for it (a dynamic "
        "shape set on the context, a calibration or inference batch of the declared size and type).",
        "NVIDIA CUDA Runtime API reference, cudaError_t (cudaErrorIllegalAddress = 700: 'an illegal memory "
        "access was encountered'; the context cannot be used afterwards); NVIDIA compute-sanitizer",
        "",
        REASON,
    ),
    # --- float16: the clashes onnxruntime reports at load in a model an fp32-to-fp16 conversion left ------
    Clause(
        "float16-output-type-clash",
        ("float16",),
        "does not match expected type (tensor(",
        r"Type \(tensor\((?P<dtype>float16|float)\)\) of output arg \((?P<tensor>[^\n]{1,200}?)\) of node "
        r"\((?P<node>[^\n]{0,200}?)\) does not match expected type \(tensor\((?P<dtype2>float16|float)\)\)",
        "Node {node|(no name)} produces {dtype} for {tensor}, while the model declares {tensor} as "
        "{dtype2}: the float16 conversion changed the node's output type (or a Cast's 'to') without the "
        "recorded type of that value, or the reverse; onnxruntime checks the two agree when it loads the "
        "model.",
        "Convert again from the float32 model with onnxconverter_common.float16.convert_float_to_float16("
        "model, keep_io_types=True) and put {node|that node} in node_block_list (or its operator type in "
        "op_block_list) so it stays float32 with Casts around it; or clear the stale type: remove "
        "{tensor} from model.graph.value_info and run onnx.shape_inference.infer_shapes again.",
        "microsoft/onnxruntime: core/graph/graph.cc (InferAndVerifyTypeMatch: 'Type Error: Type (...) of "
        "output arg (...) of node (...) does not match expected type (...)'); microsoft/onnxconverter-common:"
        " onnxconverter_common/float16.py (convert_float_to_float16: keep_io_types, op_block_list, "
        "node_block_list)",
        "",
        REASON,
    ),
    Clause(
        "float16-type-parameter-clash",
        ("float16",),
        "bound to different types (tensor(",
        r"Type parameter \((?P<arg>\w{1,20})\)(?: of Optype \((?P<op_type>\w{1,80})\))? bound to different "
        r"types \(tensor\((?P<dtype>float16|float)\) and tensor\((?P<dtype2>float16|float)\) in node "
        r"\((?P<node>[^)\n]{0,200})\)",
        "Node {node|(no name)} ({op_type|its operator}) needs its inputs of type parameter {arg} to share "
        "one type, and after the float16 conversion one is {dtype} and another {dtype2}: one input stayed "
        "float32 (an initializer or a graph input kept by keep_io_types, the output of an operator in the "
        "block list, a Cast the converter kept) while the other became float16.",
        "Convert again from the float32 model with a current onnxconverter_common.float16."
        "convert_float_to_float16, which inserts a Cast where a kept-float32 value meets a float16 one; "
        "otherwise put {node|the node} in node_block_list so it runs in float32, or insert a Cast to one "
        "type on the input of {node|the node} that differs.",
        "microsoft/onnxruntime: core/graph/graph.cc (type parameter check: 'Type Error: Type parameter (T) "
        "of Optype (...) bound to different types (...) in node (...)'); microsoft/onnxconverter-common: "
        "onnxconverter_common/float16.py (convert_float_to_float16)",
        "",
        REASON,
    ),
    Clause(
        "float16-initializer-type-clash",
        ("float16",),
        "but usage of initializer in graph expects tensor(",
        r"Data in initializer '(?P<tensor>[^'\n]{1,200})' has element type tensor\((?P<dtype>float16|float)\)"
        r" but usage of initializer in graph expects tensor\((?P<dtype2>float16|float)\)",
        "Initializer '{tensor}' is stored as {dtype} and the node that reads it expects {dtype2}: the "
        "float16 conversion retyped the weight but not its consumer (or the reverse), typically a node "
        "kept in float32 by the block list that shares the weight, or a weight shared by two nodes "
        "converted differently.",
        "Convert again from the float32 model with onnxconverter_common.float16.convert_float_to_float16 "
        "and keep the consumers of '{tensor}' on one side (all in node_block_list, or none); or store "
        "'{tensor}' as {dtype2} (numpy_helper.to_array, astype, numpy_helper.from_array) so it matches "
        "the node that reads it.",
        "microsoft/onnxruntime: core/graph/graph.cc ('Data in initializer ... has element type ... but usage "
        "of initializer in graph expects ...'); microsoft/onnxconverter-common: onnxconverter_common/"
        "float16.py (convert_float_to_float16)",
        "",
        REASON,
    ),
    Clause(
        "operator-not-supported-list",
        (ANY,),
        "not supported",
        r"(?i:operators?|ops|operations|layers)\b[^\n:]{0,60}?\bnot supported[^\n:]{0,40}:\s{0,4}\[?"
        r"(?P<op>'?[A-Za-z_][\w:./-]{0,100}'?(?:,\s{0,2}'?[A-Za-z_][\w:./-]{0,100}'?){0,20})",
        "The tool has no converter or kernel, as installed, for {op}: it checked the model's operators "
        "before converting and stopped at these (or at these attributes, input types or this opset).",
        "Keep {op} out of what the tool sees: check the tool's list of supported operators for the version "
        "you run (another opset or a later release may list them); otherwise express {op} with operators "
        "the list has (rewrite those layers in the source model, or register a custom converter or plugin), "
        "or, when they are only in pre- or post-processing, cut the model before them and run that part "
        "outside.",
        "the tools' own wording: QAIRT/SNPE converters ('The following operators are not supported in "
        "frontend ...: ...'), RKNN and MNN converters",
        "",
        REASON,
    ),
    Clause(
        "operator-is-not-supported",
        (ANY,),
        "not supported",
        r"\b(?i:operator|op|operation|layer|node)\s{1,4}'?"
        + _NOT_A_VERB
        + r"(?P<op>[A-Za-z_][\w:./-]{0,100})'?"
        r"[^\n]{0,80}?\bis not supported",
        _NOT_SUPPORTED_CAUSE,
        _NOT_SUPPORTED_FIX,
        "the tools' own wording: torch.onnx ('Exporting the operator ... to ONNX opset version N is not "
        "supported'), OpenVINO, TVM and the NPU converters ('op ... is not supported')",
        "",
        REASON,
    ),
    Clause(
        "operator-unsupported",
        (ANY,),
        "nsupported",
        r"[Uu]nsupported (?i:ops?|operators?|operations?|layers?|primitives?|nodes?)\b(?: of type| types?)?"
        r"(?:\s{0,4}[:=]\s{0,4}|\s{1,4}(?!" + _NOT_AN_OP + r"))\[?'?(?P<op>[A-Za-z_][\w:./-]{0,100})",
        _NOT_SUPPORTED_CAUSE,
        _NOT_SUPPORTED_FIX,
        "the tools' own wording: tf-coreml ('Unsupported Ops of type: ...'), RKNN, OpenVINO and the NPU "
        "converters ('Unsupported operator/op/layer: ...')",
        "",
        REASON,
    ),
    Clause(
        "rank-unsupported",
        (ANY,),
        "nsupported",
        r"[Uu]nsupported (?:input |tensor |output )?rank:?\s{0,2}(?P<value>\d{1,2})\b"
        r"(?: for (?:node|op|layer) '?(?P<op>[^\s',]{1,200}))?",
        _RANK_CAUSE,
        _RANK_FIX,
        _RANK_SOURCE,
        _RANK_LIMIT,
        REASON,
    ),
    Clause(
        "rank-not-supported",
        (ANY,),
        "not supported",
        r"(?:(?P<op>[A-Z]\w{1,60}) with )?(?:input |tensor |output )?rank:?\s{0,2}(?P<value>\d{1,2}),? "
        r"(?:is )?not supported",
        _RANK_CAUSE,
        _RANK_FIX,
        _RANK_SOURCE,
        _RANK_LIMIT,
        REASON,
    ),
    Clause(
        "data-type-unsupported",
        (ANY,),
        "nsupported",
        r"[Uu]nsupported (?i:data ?type|dtype|element type|tensor type|input type)\b\s{0,4}[:=]?\s{0,4}'?"
        r"(?P<dtype>[\w:()<>]{1,60})",
        _DTYPE_CAUSE,
        _DTYPE_FIX,
        "the tools' own wording ('Unsupported data type: ...', 'unsupported dtype ...')",
        "",
        REASON,
    ),
    Clause(
        "data-type-not-supported",
        (ANY,),
        "not supported",
        r"(?i:data ?type|dtype|element type)\s{0,4}[:=]?\s{0,4}'?(?P<dtype>[\w:()<>]{1,60})'?\s{1,4}"
        r"(?:is\s{1,4})?not supported",
        _DTYPE_CAUSE,
        _DTYPE_FIX,
        "the tools' own wording ('data type ... is not supported', 'dtype ... not supported')",
        "",
        REASON,
    ),
    Clause(
        "ort-concat-rank",
        ("onnxruntime",),
        "ranks of input data are different, cannot concatenate them",
        r"Ranks of input data are different, cannot concatenate them[.,] expected rank: (?P<value>\d{1,2}) "
        r"got: (?P<value2>\d{1,2})",
        "The inputs of Concat node {op|} do not all have the same rank: the first has {value} dimensions "
        "and another has {value2}; Concat joins tensors along one axis and needs every input to have the "
        "same number of dimensions.",
        "Look at the inputs of {op|the Concat node} (onnx.shape_inference.infer_shapes shows their "
        "ranks): the one of rank {value2} usually comes from a size traced at export (x.item() or a shape "
        "read as a Python number, a Squeeze or Unsqueeze that depends on the input) or from a model input "
        "fed with another number of dimensions; feed the inputs with the ranks the model was exported "
        "with, or reshape that tensor to rank {value} before the concatenation in the source model and "
        "re-export.",
        "microsoft/onnxruntime: core/providers/cpu/tensor/concat.cc (ConcatBase::PrepareForCompute: "
        "'Ranks of input data are different, cannot concatenate them. expected rank: N got: M')",
        "",
        REASON,
    ),
    Clause(
        "ort-coreml-ep-prediction",
        ("onnxruntime",),
        "error executing model:",
        r"Error executing model: (?P<value>[^\n]{1,300}?)\s{0,2}(?:\(error code: (?P<status>-?\d{1,6})\))?\.?"
        r"(?:\n|$)",
        "The Core ML execution provider gave the partition {op|} to Core ML, and Core ML's prediction "
        "failed: '{value}' is Core ML's own error (the NSError of MLModel predictionFromFeatures, code "
        "{status|not printed}), which the provider passes on unchanged; onnxruntime itself found nothing "
        "wrong with the node.",
        "Run the same input with providers=['CPUExecutionProvider'] to confirm the model itself works; "
        "then keep the Neural Engine out with the CoreML provider option MLComputeUnits set to CPUOnly or "
        "CPUAndGPU, or switch its ModelFormat (MLProgram or NeuralNetwork), to find which Core ML path "
        "fails; feed inputs with the shapes and dtypes the model was exported with "
        "(RequireStaticInputShapes keeps dynamic-shape partitions on the CPU provider); if it persists "
        "run without the CoreML provider.",
        "microsoft/onnxruntime: onnxruntime/core/providers/coreml/model/model.mm (predict: 'Error "
        "executing model: ' with the NSError's localizedDescription); onnxruntime.ai docs 'CoreML "
        "Execution Provider' (provider options ModelFormat, MLComputeUnits, RequireStaticInputShapes)",
        "",
        REASON,
    ),
    Clause(
        "openvino-frontend-no-creator",
        ("openvino",),
        "no creator found for",
        r"No creator found for (?P<op_type>[\w.:/-]{1,100}) node",
        "OpenVINO's frontend has no converter (a 'creator') for the source framework's operator "
        "{op_type}: the Paddle and TensorFlow frontends look each operator type up in their table of "
        "converters and stop at the first one the table lacks (raised as OpConversionFailure).",
        "Check {op_type} against the supported-operations list of that frontend for your OpenVINO release "
        "(a later release may add it); otherwise replace {op_type} in the source model with operators the "
        "list has (an activation by its formula), convert the model to ONNX first (paddle2onnx, tf2onnx) "
        "and give OpenVINO the ONNX file, or register a ConversionExtension for {op_type}.",
        "openvinotoolkit/openvino: src/frontends/paddle/src/frontend.cpp (make_ng_node: "
        "FRONT_END_OP_CONVERSION_CHECK(creator_it != CREATORS_MAP.end(), 'No creator found for ', type, ' "
        "node.')) and the TensorFlow frontend's check of the same wording",
        "",
        REASON,
    ),
    Clause(
        "openvino-gpu-opencl-resources",
        ("openvino",),
        ", error code: ",
        r"\[GPU\] (?P<call>cl\w{2,60})\b[^\n]{0,120}?, error code: (?P<value>-(?:4|5|6|61))\b",
        "OpenVINO's GPU plugin got OpenCL error {value} from {call}; in Khronos' CL/cl.h -4 is "
        "CL_MEM_OBJECT_ALLOCATION_FAILURE, -5 CL_OUT_OF_RESOURCES, -6 CL_OUT_OF_HOST_MEMORY and -61 "
        "CL_INVALID_BUFFER_SIZE: the device, or its driver, had no memory or resources left for this "
        "model's buffers and kernels.",
        "Reduce what the GPU must hold at once, as the plugin's own CL_OUT_OF_RESOURCES message advises: "
        "a smaller batch or input size, fewer streams (ov::num_streams 1), a lower precision "
        "(ov::hint::inference_precision f16); close other programs that use the GPU; run the model on the "
        "CPU device to confirm that it is a GPU resource limit; update the GPU driver.",
        "openvinotoolkit/openvino: src/plugins/intel_gpu/src/runtime/ocl/ocl_common.hpp (OCL_ERR_MSG_FMT: "
        "'[GPU] ' + the call + ', error code: ' + the code; force_exit on CL_OUT_OF_RESOURCES); "
        "KhronosGroup/OpenCL-Headers: CL/cl.h (error codes)",
        "",
        REASON,
    ),
    Clause(
        "onednn-ocl-program-build",
        ("openvino",),
        "error during the build of opencl program",
        r"Error during the build of OpenCL program\.?"
        r"(?:[\s\S]{0,2000}?errcode (?P<value>-\d{1,3}),(?P<status>CL_[A-Z_]{3,60}))?",
        "oneDNN (the kernel library inside OpenVINO's GPU plugin) compiled one of its OpenCL kernels for "
        "this GPU (clBuildProgram) and the GPU driver's OpenCL compiler failed with "
        "{status|an error the line does not name}; the build log after the line is the compiler's own "
        "output, empty when it could not run at all. In Khronos' "
        "CL/cl.h -6 CL_OUT_OF_HOST_MEMORY is the compiler running out of host memory, -11 "
        "CL_BUILD_PROGRAM_FAILURE a kernel the compiler rejected (a driver compiler too old or with a bug "
        "for this kernel), -5 CL_OUT_OF_RESOURCES the device out of resources.",
        "Install an Intel GPU compute runtime (intel-opencl-icd / NEO with its IGC compiler) of a release "
        "this OpenVINO lists in its GPU configuration docs; for CL_OUT_OF_HOST_MEMORY free host memory or "
        "compile with fewer threads (ov::compilation_num_threads) and cache compiled kernels (ov::cache_dir) "
        "so later runs skip the build; run the model on the CPU device to confirm the model itself works.",
        "oneapi-src/oneDNN: src/gpu/intel/ocl (program build: VERROR(common, ocl, 'Error during the build "
        "of OpenCL program. Build log: ...'), ocl_gpu_engine.cpp errcode lines); "
        "KhronosGroup/OpenCL-Headers: CL/cl.h (error codes); docs.openvino.ai GPU device configuration "
        "and properties",
        "",
        REASON,
    ),
    Clause(
        "openvino-gpu-opencl-error",
        ("openvino",),
        ", error code: ",
        r"\[GPU\] (?P<call>cl\w{2,60})\b[^\n]{0,120}?, error code: (?P<value>-\d{1,4})\b",
        "OpenVINO's GPU plugin got OpenCL error {value} from {call}.{row@opencl} At an enqueue the driver "
        "refused a kernel the plugin built for a layer of this model, with its work sizes or arguments, or "
        "the queue had failed earlier (-9999 is a failure private to the driver).",
        "{steps@opencl} Run the model on the CPU device to confirm that the model itself works; on the GPU "
        "try a static input shape (model.reshape to the size you feed) and another precision "
        "(ov::hint::inference_precision f32), which change the kernels the plugin picks; then update the "
        "GPU driver and OpenVINO, and report OpenCL error {value} from {call} with the model if it "
        "persists.",
        "openvinotoolkit/openvino: src/plugins/intel_gpu/src/runtime/ocl/ocl_common.hpp (OCL_ERR_MSG_FMT: "
        "'[GPU] ' + the call + ', error code: ' + the code); KhronosGroup/OpenCL-Headers: CL/cl.h (error "
        "codes; core/knowledge/code_tables.py)",
        "",
        REASON,
    ),
    # --- s29f: the ONNX parser asserts that a network add*() call gave a layer; the builder's parameter
    # check logged just before says why it gave none ---------------------------------------------------------
    Clause(
        "trt-parser-assert-over-parameter-check",
        ("tensorrt",),
        "network()->",
        r"network\(\)->(?P<call>add[A-Z]\w{0,60})\(",
        "The ONNX parser asked TensorRT's network for a layer with {call}() and got none: TensorRT's own "
        "argument check of {call} refused the call (the condition '{value|that TensorRT logs as Parameter "
        "check failed before the assertion}' was false), and the parser's assertion that the layer exists "
        "only reports it. For addInput, the check is on the graph input's dimensions (isValidDims): a "
        "dynamic (-1) size in a network created without explicit batch, a size of 0 or below -1, or more "
        "dimensions than TensorRT takes; for another add call, an input or attribute of this node that the "
        "layer does not accept.",
        "Read the condition against the node's inputs: for addInput, build the network with explicit "
        "batch (TensorRT 7 to 9: builder.create_network(1 << "
        "int(trt.NetworkDefinitionCreationFlag.EXPLICIT_BATCH)), trtexec --explicitBatch; TensorRT 10 "
        "networks always are) and give the ONNX input a valid shape (only -1 for dynamic sizes, with an "
        "optimization profile for them); for another add call, change the node's input shapes, types or "
        "attributes that the condition names (polygraphy surgeon sanitize --fold-constants fixes inputs "
        "that should be constants).",
        "onnx/onnx-tensorrt: ModelImporter.cpp (importInput asserts on network()->addInput(...)), "
        "importerUtils (ASSERT on the layer a network add call returns); NVIDIA TensorRT: the API's "
        "parameter checks ('Parameter check failed at: <file>::<function>::<line>, condition: "
        "<expression>'), NetworkDefinitionCreationFlag.EXPLICIT_BATCH",
        r"Parameter check failed at: [^\s,]{0,200}::(?P<arg>add[A-Z]\w{0,60})::\d{1,6}, condition: "
        r"(?P<value>[^\n]{1,300}?)[ \t.]{0,4}(?:\n|$)",
        REASON,
    ),
    Clause(
        "trt-parameter-check",
        ("tensorrt",),
        "parameter check failed",
        _TRT_PARAMETER_CHECK,
        "TensorRT's argument check in {call|the call} rejected the call: its condition '{value}' was false, "
        "so the call returned without doing its work. This is an API usage error: the condition is written "
        "in terms of the call's own arguments and the state of the object it was called on.",
        "Read '{value}' against what the code passed to {call|the call}; the object the call belongs to "
        "says the stage (INetworkDefinition, ITensor and layer calls while the network is defined, IBuilder "
        "and IBuilderConfig while the build is configured, IExecutionContext at inference). A null pointer "
        "in the condition means an argument that was never set, or the result of an earlier call that "
        "failed and returned null; a comparison of sizes or dimensions means a value outside the range that "
        "object accepts.",
        "NVIDIA TensorRT: the API's parameter checks ('Parameter check failed at: "
        "<file>::<function>::<line>, condition: <expression>', reported as ErrorCode kINVALID_ARGUMENT); "
        + _TRT_HEADERS_H,
        _TRT_CALL_CONTEXT,
        REASON,
    ),
    Clause(
        "trt-myelin-check-exception",
        ("tensorrt",),
        "myelincheckexception",
        r"MyelinCheckException: (?P<arg>[\w.]{1,80}:\d{1,6}): CHECK\((?P<value>[^\n]{1,200}?)\) failed\.?"
        r"(?: (?P<value2>[^\n]{1,200}))?",
        "An internal check of Myelin (the TensorRT compiler that builds fused kernels for whole subgraphs: "
        "attention, transformer blocks, long pointwise chains) failed in {arg}: CHECK({value}) was false "
        "({value2|no message}). It is TensorRT's own invariant, met on a subgraph of this model it was not "
        "written for; no setting of the model is named.",
        "Change what Myelin is given: build once with fixed shapes (a profile with min = opt = max, or a "
        "model exported with static input shapes) and once without FP16/INT8, to see which one the check "
        "depends on; find the failing subgraph with polygraphy debug reduce and rewrite it in the model (an "
        "attention written with other ops, an op moved out of the fused block); a later TensorRT release "
        "changes the Myelin pass in {arg}.",
        "tensorrt_lean_cu12_libs 11.4.0.106 wheel, libnvinfer_lean ('[MyelinCheckException::what()]', "
        "'CHECK(err == myelinSuccess) failed. ': Myelin's CHECK(<condition>) failed. <message>); "
        "polygraphy debug reduce",
        "",
        REASON,
    ),
    Clause(
        "trt-reshape-two-wildcards",
        ("tensorrt",),
        "more than one -1 wildcard",
        r"reshape dimension with more than one -1 wildcard\.(?: Reshaping (?P<shape>\[[^\n]{1,200}?\]) to "
        r"(?P<value>\[[^\]\n]{1,120}\]))?",
        "A Reshape (IShuffleLayer) of the network asks for {value|reshape dimensions} with more than one -1: "
        "TensorRT infers at most one dimension from the input's volume, and here two are left to infer "
        "(reshaping {shape|the input}), usually because the exporter wrote a dynamic size as -1 instead of "
        "computing it from the input's shape.",
        "Give that Reshape at most one -1: export the target shape computed from the input (x.reshape(b, c, "
        "h, w) from x.shape, or flatten with -1 only once), keep a dimension that is unchanged as 0 (copy "
        "from input), or fold the shape computation with onnxsim and fixed input shapes so the target "
        "{value|shape} becomes concrete.",
        "NVIDIA/TensorRT: include/NvInfer.h (IShuffleLayer::setReshapeDimensions: 'only a maximum of one "
        "dimension is permitted to be specified as -1'); TensorRT's shape checks ('reshape dimension with "
        "more than one -1 wildcard')",
        "",
        REASON,
    ),
    Clause(
        "trt-shuffle-two-inferred-dims",
        ("tensorrt",),
        "at most one dimension may be inferred",
        r"(?:(?P<layer>\(Unnamed Layer\* ?\d{1,6}\) \[Shuffle\]|[^\s():]{1,200}(?: \[Shuffle\])?): )?"
        r"at most one dimension may be inferred",
        "TensorRT's shuffle (reshape) layer {layer|} was given reshape dimensions with more than one -1: it "
        "infers at most one dimension from the input's volume. The ONNX parser builds such reshapes itself "
        "too, e.g. around a BatchNormalization on a 2-D input (BatchNorm1d after a fully connected layer, "
        "N x C), which it turns into a 4-D scale.",
        "Give the Reshape at most one -1 (compute the other sizes from the input's shape at export, keep "
        "unchanged axes as 0); for a BatchNorm1d on [N, C] add the missing axis in the model "
        "(x.unsqueeze(-1) before it, squeeze after) so the node sees a 3-D input; or fold the shapes with "
        "onnxsim and fixed input shapes.",
        "NVIDIA/TensorRT: include/NvInfer.h (IShuffleLayer::setReshapeDimensions: at most one dimension may "
        "be -1); onnx/onnx-tensorrt: the BatchNormalization importer's scale helper (dims.nbDims == 4 || "
        "dims.nbDims == 5)",
        "",
        REASON,
    ),
    Clause(
        "trt-myelin-assertion",
        ("tensorrt",),
        "assertion ",
        r"myelin::(?:\w{1,60}::){0,4}(?P<call>\w{1,100})\b[^\n]{0,400}?"
        r"Assertion [`'](?P<value>[^`'’\n]{1,120})"
        r"|In function (?P<call2>\w{1,100}) -- [^\n]{0,300}?myelin[^\n]{0,300}?-- assertion failed",
        "An internal assertion of Myelin failed in {call|}{call2|} (condition: {value|not printed}). "
        "Myelin is the TensorRT compiler that builds fused kernels for whole subgraphs (attention and "
        "transformer blocks, long pointwise chains: the ForeignNode layers of a verbose build log); the "
        "check is TensorRT's own, so the message names no setting or node of the model.",
        "Change what Myelin is given for {call|}{call2|}: build once with fixed shapes (an optimisation "
        "profile with min = opt = max, or a model exported with static input shapes) to see whether the "
        "dynamic dimensions are the cause; build without the FP16/INT8 flags; find the failing subgraph "
        "with polygraphy debug reduce and rewrite it in the model; a newer TensorRT release changes "
        "Myelin.",
        "NVIDIA TensorRT: Myelin, its subgraph compiler (the ForeignNode layers of the verbose build log; "
        "'myelin' symbols and assertions of libnvinfer); polygraphy debug reduce",
        "",
        REASON,
    ),
    # --- OpenVINO: a debugger's first-chance exception notice of one of its exception types ----------------
    Clause(
        "openvino-first-chance-exception",
        ("openvino",),
        "ov::",
        r"(?:Microsoft C\+\+ (?:exception|异常)|C\+\+ (?:exception|Exception|异常)): "
        r"(?P<value>ov::(?:\w{1,60}::){0,3}\w{1,60})",
        "A debugger (Visual Studio's 'Exception thrown at ...') reported a C++ exception of type {value} "
        "thrown inside OpenVINO when it was thrown, before any handler ran. OpenVINO throws and catches "
        "such exceptions itself: plugins answer an API or property they do not implement with "
        "ov::NotImplemented, and the AUTO plugin and the core probe device ids, names and capabilities "
        "inside try/catch; so the line alone is no failure unless the program stops there.",
        "If the program goes on and its results are right, ignore the notice (untick {value} under "
        "Exception Settings); if it stops, the exception was not caught: wrap the OpenVINO calls in "
        "try { ... } catch (const ov::Exception& e) and print e.what(), which names the check or the "
        "property that failed, and act on that; link Release OpenVINO libraries to Release builds (the "
        "*d.dll ones only to Debug builds).",
        "openvinotoolkit/openvino: src/core/include/openvino/core/except.hpp (ov::Exception, "
        "ov::AssertFailure, ov::NotImplemented), src/plugins/auto/src/plugin.cpp (try/catch of "
        "ov::Exception around get_property, catch (ov::NotImplemented&) around get_context)",
        "",
        REASON,
    ),
    # --- OpenVINO's CPU plugin: an error of Xbyak, the JIT assembler its kernels are generated with ------
    Clause(
        "openvino-cpu-xbyak-bad",
        ("openvino",),
        "bad ",
        _XBYAK_LINE.format(
            r"bad combination|bad addressing|bad size of register|bad mem size|bad st combination"
            r"|bad vsib addressing|bad pNum|bad tNum|bad scale"
        ),
        _XBYAK_CAUSE,
        _XBYAK_FIX,
        _XBYAK_SOURCE,
        "",
        REASON,
    ),
    Clause(
        "openvino-cpu-xbyak-too",
        ("openvino",),
        " is too ",
        _XBYAK_LINE.format(r"label is too far|code is too big|imm is too big|offset is too big"),
        _XBYAK_CAUSE,
        _XBYAK_FIX,
        _XBYAK_SOURCE,
        "",
        REASON,
    ),
    # --- OpenVINO: its check/exception form, read by the component its path names (last resort); the
    # last such line is the innermost failure (each wrapper prints its own 'Exception from' line above it)
    Clause(
        "openvino-frontend-check",
        ("openvino",),
        "frontends",
        r"(?s:.*)(?:Check '(?P<value>[^'\n]{1,200})' failed at|Exception from) (?P<path>[^\s'\n]{0,200}?"
        r"src[/\\]frontends[/\\](?P<frontend>onnx|tensorflow_lite|tensorflow|pytorch|paddle|jax|ir)"
        r"[/\\][^\s:'\n]{1,200})(?::\d{1,6})?:?[ \t]{0,4}\n?(?P<detail>[^\n]{0,200})",
        "OpenVINO's {frontend} frontend stopped while it converted the source model into OpenVINO "
        "operations: its check '{value|}' failed in {path} ({detail|}); a frontend's checks test the "
        "source framework's operation, attribute or input form it is converting, and the lines after it "
        "name the node.",
        "Find the node the message names and give the frontend a form it takes: export the source model "
        "with static shapes and a common opset (onnx: onnxsim to fold constants and shape subgraphs), "
        "replace that operation in the source model, or convert through another frontend (torch to ONNX "
        "first, ovc on the ONNX file); a later OpenVINO release may convert it.",
        "openvinotoolkit/openvino: src/core/include/openvino/core/except.hpp and src/core/src/except.cpp "
        "(\"Check '<condition>' failed at <file>:<line>:\"), src/frontends/*/src "
        "(FRONT_END_GENERAL_CHECK, FRONT_END_OP_CONVERSION_CHECK)",
        "",
        REASON,
    ),
    Clause(
        "openvino-plugin-check",
        ("openvino",),
        "plugins",
        r"(?s:.*)(?:Check '(?P<value>[^'\n]{1,200})' failed at|Exception from) (?P<path>[^\s'\n]{0,200}?"
        r"src[/\\]plugins[/\\](?:intel_)?(?P<device>cpu|gpu|npu|gna|auto|hetero|auto_batch)"
        r"[/\\][^\s:'\n]{1,200})(?::\d{1,6})?:?[ \t]{0,4}\n?(?P<detail>[^\n]{0,200})",
        "OpenVINO's {device} device plugin failed while it compiled or ran the model: its check '{value|}' "
        "in {path} ({detail|}). A device plugin's checks test what that device supports (an operation, a "
        "shape, a precision or a property): the model was read and validated, but this device cannot "
        "take it as given.",
        "Compile the same model on another device (CPU, GPU) to tell a limit of the {device} plugin from a "
        "problem of the model; for the {device} device try static shapes (model.reshape to the sizes "
        "you feed) and another precision (ov::hint::inference_precision f32), or keep the node it names "
        "on another device with HETERO:{device},CPU.",
        "openvinotoolkit/openvino: src/core/src/except.cpp (\"Check '<condition>' failed at "
        '<file>:<line>:"; "Exception from <file>:<line>:"), src/plugins/<device> (OPENVINO_ASSERT / '
        "OPENVINO_THROW of the device plugins)",
        "",
        REASON,
        # s38c: a plugin's remote context or remote tensor code checks the application's shared context or
        # buffers, not the model (dev: intel_gpu remote_context.cpp 'Only one device expected in case of
        # context sharing'): the compile-the-model advice is not this failure's
        r"src[/\\]plugins[/\\]intel_\w{1,20}[/\\][^\s:'\n]{0,200}remote_(?:context|tensor)\.cpp",
    ),
    Clause(
        "openvino-core-check",
        ("openvino",),
        "failed at",
        r"(?s:.*)Check '(?P<value>[^'\n]{1,200})' failed at (?P<path>[^\s'\n]{0,200}?"
        r"(?:src[/\\]core|ngraph[/\\]core)[/\\][^\s:'\n]{1,200})(?::\d{1,6})?:?[ \t]{0,4}\n?"
        r"(?P<detail>[^\n]{0,200})",
        "OpenVINO's model validation found '{value}' false in {path} ({detail|}): while the model was read "
        "or reshaped, a node's inputs (their shapes, ranks or element types) broke the rule its operation "
        "checks, so the model is rejected before any device sees it.",
        "Read the node the lines after it name ('While validating node ...'); give the model the input "
        "shapes it expects (ovc --input name[1,3,224,224] or model.reshape before compile_model), check "
        "that node's inputs in the source model (a dynamic or -1 dimension, a rank the op does not take), "
        "and export the source model with static shapes if the dynamic ones are the cause.",
        "openvinotoolkit/openvino: src/core/src/except.cpp (\"Check '<condition>' failed at "
        '<file>:<line>:"), src/core/include/openvino/core/validation_util.hpp and '
        "src/core/shape_inference (NODE_VALIDATION_CHECK, shape inference checks)",
        "",
        REASON,
    ),
    Clause(
        "openvino-transformation-check",
        ("openvino",),
        "' failed at ",
        r"(?s:.*)Check '(?P<value>[^'\n]{1,200})' failed at (?P<path>[^\s'\n]{0,200}?src[/\\]common[/\\]"
        r"(?P<pass>transformations|low_precision_transformations|snippets|offline_transformations)"
        r"[/\\][^\s:'\n]{1,200})(?::(?P<line>\d{1,6}))?:?[ \t]{0,4}\n?(?P<detail>[^\n]{0,200})",
        "An internal check of one of OpenVINO's graph transformation passes failed: '{value}' was false "
        "in {path} ({detail|}). The file names the pass ({pass}: the passes that run when a model is "
        "converted or compiled for a device); it matched a part of the graph whose form it did not expect, "
        "so the model itself was read and validated but could not be transformed.",
        "Change what the pass sees: reshape the model to static input shapes before compile_model, convert "
        "without weight compression (ovc --compress_to_fp16=False), for low_precision_transformations "
        "quantize that node differently (or leave it out of NNCF's quantization with ignored_scope), and "
        "compile with another inference precision hint (f32); another OpenVINO release may carry the pass "
        "fixed.",
        "openvinotoolkit/openvino: src/core/src/except.cpp (\"Check '<condition>' failed at "
        '<file>:<line>:"), src/common/transformations and src/common/low_precision_transformations (the '
        "passes ov::pass::Manager runs at conversion and compile_model)",
        "",
        REASON,
    ),
    # the check form of any other component (src/inference, src/bindings...): what the form is, and where to
    # look by the component its path names
    Clause(
        "openvino-check-any-component",
        ("openvino",),
        "' failed at ",
        r"(?s:.*)Check '(?P<value>[^'\n]{1,200})' failed at (?P<path>(?:[^\s'\n]{0,200}?[/\\])?src[/\\]"
        r"[^\s:'\n]{1,200})(?::(?P<line>\d{1,6}))?:?[ \t]{0,4}\n?(?P<detail>[^\n]{0,200})",
        "An internal assertion of OpenVINO (OPENVINO_ASSERT; NGRAPH_CHECK in older releases) failed: "
        "'{value}' was false in {path} ({detail|}). The file's directory says which part of OpenVINO "
        "stopped: src/frontends/<framework> imports the source model's operations, src/core and its "
        "shape_inference validate node shapes and types, src/common/transformations holds the graph passes, "
        "src/plugins/intel_<device> compiles for a device, src/inference runs compile_model and the infer "
        "requests.",
        "Act by the component in {path}: a frontend check means an operation of the source model in a form "
        "it cannot import (export it with static shapes and a common opset, or replace that op); a core or "
        "shape_inference check means a node's input shapes or types (reshape the model to the input sizes "
        "you feed); a transformations check means a graph pass (compile with static shapes or another "
        "precision hint); a plugin or inference check means the device or the call (compile on another "
        "device, check the properties and the input tensors given to the infer request).",
        "openvinotoolkit/openvino: src/core/include/openvino/core/except.hpp and src/core/src/except.cpp "
        "(OPENVINO_ASSERT: \"Check '<condition>' failed at <file>:<line>:\" then the check's message)",
        "",
        REASON,
    ),
    # --- MNN: the converter's CHECK lines (logkit.h), read by the file and the reason they print ------------
    Clause(
        "mnn-converter-check-failed",
        ("mnn",),
        "check failed: ",
        r"(?:(?P<path>[\w.-]{1,80}\.(?:cpp|cc|hpp|h)):\d{1,6}: )?Check failed: (?P<value>[^\n]{1,200}?) ==> "
        r"(?P<detail>[^\n]{1,200})",
        "A check of MNNConvert failed in {path|its converter}: '{value}' was false, and the check's own "
        "message says '{detail}'. These CHECK lines (tools/converter/include/logkit.h) guard what the front "
        "end reads from the source model: an operator it has no converter for, or an attribute, input "
        "count or constant it does not take in this form.",
        "Act on '{detail}': list what this MNNConvert converts with 'MNNConvert -f ONNX --OP' (or -f TF / "
        "TFLITE / CAFFE); simplify the source model first (onnxsim folds constants and shape subgraphs), "
        "export it at another opset, or replace the operator it names in the source model; a newer MNN "
        "may take it.",
        "alibaba/MNN: tools/converter/include/logkit.h (CHECK(x): '[hh:mm:ss] file:line: Check failed: x ==> "
        "' + message), tools/converter/source/*/ (the front ends' CHECK/DCHECK conditions)",
        "",
        REASON,
    ),
    Clause(
        "tvm-op-attribute-invalid",
        ("tvm",),
        "in attribute",
        r"Value (?P<value>[^\s\"]{1,60}) in attribute \"(?P<option>\w{1,60})\" (?:of|is invalid for) "
        r"operator "
        r"(?P<op_type>\w{1,60})",
        "tvm.error.OpAttributeInvalid: TVM's ONNX frontend does not accept {value} as the {option} attribute "
        "of "
        "{op_type}: the converter handles only the values it lists for that attribute (auto_pad SAME_UPPER, "
        "SAME_LOWER, VALID or NOTSET; Pad's mode constant, edge or reflect).",
        "Re-export or edit the model so the {op_type} node's {option} attribute holds a value TVM converts "
        "instead of {value}: for auto_pad, export with explicit pads (auto_pad NOTSET: PyTorch's padding "
        "given "
        "as numbers); for Pad's mode, constant, edge or reflect (another mode as an explicit Concat of "
        "slices "
        "of the input).",
        "apache/tvm: python/tvm/relax/frontend/onnx/onnx_frontend.py and python/tvm/relay/frontend/onnx.py "
        '(raise tvm.error.OpAttributeInvalid(f\'Value {attr["auto_pad"]} in attribute "auto_pad" of '
        "operator Conv is invalid.'), 'Value ' + pad_mode + ' in attribute \"mode\" is invalid for operator "
        "Pad.'); python/tvm/error.py (OpAttributeInvalid)",
        "",
        REASON,
    ),
    Clause(
        "tvm-vm-shape-not-computed",
        ("tvm",),
        "computed",
        r"Check failed: \(slot->value_computed\) is false|PrimExpr [^\n]{1,100}? (?:has not been|is not) "
        r"computed",
        "Relax's VM shape lowering (VMShapeLower) met the symbolic shape {value|variable} (function {op|not "
        "named}) before any "
        "input defined its value: every symbolic dimension a function uses must be bound by the shape of one "
        "of its parameters (or by match_cast) before it is used, and this one is only introduced inside the "
        "function (an output or intermediate shape that depends on data, a symbolic variable the frontend "
        "created for a dimension no input carries).",
        "Bind the dimension to an input: give the frontend static or named input shapes (from_onnx(model, "
        "shape_dict={...}) so the dimension comes from an input), or make the data-dependent size explicit "
        "with R.match_cast on the value that carries it; print the module before relax.build "
        "(mod.show()) and look for {value|the symbolic variable} in the function's parameters' shapes.",
        "apache/tvm: src/relax/backend/vm/vm_shape_lower.cc (MakeSymbolicShapeArg: "
        "TVM_FFI_ICHECK(slot->value_computed) << 'PrimExpr ' << expr << ' in function ' << current_gvar_ "
        "<< ' has not been computed')",
        r"PrimExpr (?P<value>[^\n]{1,100}?)(?: in function (?P<op>[^\s]{1,100}))? (?:has not been|is not) "
        r"computed",
        REASON,
    ),
    Clause(
        "tvm-check-binary-op",
        ("tvm",),
        " vs. ",
        r"Check failed: (?P<cond>[^\n]{1,200}?) \((?P<value>[^()\n]{0,120}) vs\. "
        r"(?P<value2>[^()\n]{0,120})\) ?:"
        r"(?: (?P<reason>[^\n]{1,300}))?",
        "A comparison check in TVM's C++ code failed: {cond} was false, with {value} on the left against "
        "{value2} on the right ({reason|the check printed no message of its own}). These checks (ICHECK_EQ, "
        "CHECK_LT...) compare what an op's type relation, a pass or a packed function was given with what it "
        "needs: two shapes, ranks, counts or dtypes the model or the call makes differ.",
        "Find where the model or the call gives {value} where {value2} is needed: the sides of {cond} name "
        "it "
        "(a shape's size or rank of an op's input, an argument count of a compiled function, a layout's "
        "axes); fix that input (reshape or transpose it in the model, give from_onnx the input shapes it "
        "has, call the compiled function with its parameters); TVM_BACKTRACE=1 prints the op or pass that "
        "ran the check.",
        "apache/tvm: include/tvm/runtime/logging.h (TVM_CHECK_BINARY_OP: 'Check failed: ' #x ' ' #op ' ' #y "
        "' (' x ' vs. ' y ') : ' then the check's message)",
        "",
        REASON,
    ),
    Clause(
        "tvm-axis-out-of-range-for-rank",
        ("tvm",),
        "is out of range for rank",
        r"(?P<op_type>[A-Z][A-Za-z]{1,40}) axis (?P<axis>-?\d{1,3}) is out of range for rank "
        r"(?P<value>\d{1,3})",
        "TVM's Relax ONNX frontend read axis {axis} on the {op_type} node, whose input has rank {value}: an "
        "ONNX axis must lie in [-{value}, {value} - 1], so the converter cannot place the op (an axis "
        "written for another layout or rank, or an input whose rank TVM inferred differently).",
        "Check the {op_type} node's axis against its input's rank {value} (onnx.shape_inference.infer_shapes "
        "on the model shows it): re-export with the axis of that rank, or give from_onnx the input shapes "
        "(shape_dict) so the rank TVM infers is the model's.",
        'apache/tvm: python/tvm/relax/frontend/onnx/onnx_frontend.py (raise ValueError(f"{op_name} axis '
        '{axis} is out of range for rank {rank}."))',
        "",
        REASON,
    ),
    Clause(
        "tvm-check-failed-reason",
        ("tvm",),
        ") is false: ",
        r"Check failed: \((?P<cond>[^\n]{1,200}?)\) is false: (?P<reason>[^\n]{1,300})",
        "A check in TVM's C++ code failed: ({cond}) is false, and the check's own message says why: "
        "{reason}. These checks (CHECK, ICHECK, TVM_FFI_ICHECK) guard what an op, its type relation or a "
        "pass accepts (the kind of an argument, a shape, a dtype); the message names what was rejected.",
        "Change what the message names in the model or in the frontend call: give that argument in the form "
        "it asks for (a constant or PrimValue, a static shape via from_onnx(shape=...), the dtype it "
        "expects); if the model is valid, update TVM or report the check with its message "
        "(TVM_BACKTRACE=1 shows the pass or op that ran it).",
        "apache/tvm: include/tvm/runtime/logging.h and ffi/include/tvm/ffi/error.h (CHECK / ICHECK / "
        "TVM_FFI_ICHECK: 'Check failed: (' #x ') is false: ' then the check's message)",
        "",
        REASON,
    ),
    # --- s18e: TensorRT builder/runtime and onnxruntime session classes users hit most -------------------
    Clause(
        "trt-plugin-creator-missing-at-load",
        ("tensorrt",),
        "iplugincreator not found",
        r"Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin Registry",
        "The engine holds a plugin layer, and while deserializing it TensorRT looked for the creator of that "
        "plugin in its plugin registry and found none: a plugin's creator is registered only by the library "
        "that defines it (libnvinfer_plugin's initLibNvInferPlugins for TensorRT's own _TRT plugins such as "
        "EfficientNMS_TRT, ScatterND, InstanceNormalization_TRT; your or a framework's plugin library for "
        "the "
        "others), and the process that loads the engine never registered it, though the one that built it "
        "did.",
        "Register the plugins before deserialize_cuda_engine, as the build did: trt.init_libnvinfer_plugins"
        "(logger, '') (C++: initLibNvInferPlugins(&logger, \"\")) for TensorRT's plugins, ctypes.CDLL"
        "('libmy_plugin.so') or getPluginRegistry()->loadLibrary() for a custom one, trtexec --plugins= / "
        "--dynamicPlugins=; the plugin library must be built for this TensorRT release. To do without, "
        "rebuild the engine with the plugin included (IBuilderConfig setPluginsToSerialize / "
        "--setPluginsToSerialize in TensorRT 10) or replace the op with layers TensorRT has.",
        "NVIDIA TensorRT: include/NvInferPlugin.h (initLibNvInferPlugins), include/NvInferRuntime.h "
        "(IPluginRegistry::getCreator, loadLibrary; IBuilderConfig::setPluginsToSerialize); libnvinfer's "
        "pluginV2Runner wording 'Cannot deserialize plugin since corresponding IPluginCreator not found in "
        "Plugin Registry'",
        "",
        REASON,
    ),
    Clause(
        "trt-plugin-registry-cannot-find",
        ("tensorrt",),
        "cannot find plugin: ",
        r"Cannot find plugin: (?P<op>[\w.:/-]{1,120}), version: (?P<version>[\w.]{1,20})"
        r"(?:, namespace:\s?(?P<namespace>[\w.:-]{0,60}))?",
        "TensorRT's plugin registry has no creator for plugin {op} version {version} (namespace "
        "'{namespace|}'): the ONNX parser asks for one for an op it has no importer for, and the runtime for "
        "every plugin layer of an engine it deserializes; a creator exists only once the library defining it "
        "is loaded and registered (TensorRT's own plugins by initLibNvInferPlugins, custom ones by their "
        "library), under the same name, version and namespace.",
        "Load the library that defines {op} before parsing or deserializing: trt.init_libnvinfer_plugins"
        "(logger, '') for TensorRT's plugins, ctypes.CDLL('libmy_plugin.so') or getPluginRegistry()"
        "->loadLibrary(path) for a custom one (trtexec --dynamicPlugins=lib.so); check that its creator "
        "registers {op} with version {version} in the namespace the model or engine asks for; if no "
        "plugin of that name exists, replace the op in the model with ops TensorRT imports.",
        _TRT_LEAN
        + " ('Cannot find plugin: ', ', version: ', ', namespace:'); "
        + _TRT_RUNTIME_H
        + " (IPluginRegistry::getCreator)",
        "",
        REASON,
    ),
    Clause(
        "trt-plugin-scratch-space",
        ("tensorrt",),
        "bytes of scratch space",
        r"plugin node (?P<op>[^\n]{1,300}?) ?requires (?P<value>\d{1,20}) bytes of scratch space, but only "
        r"(?P<value2>\d{1,20}) is available",
        "The plugin layer {op} asked (through its getWorkspaceSize) for {value} bytes of workspace at the "
        "shapes of the optimisation profile, more than the builder's workspace pool of {value2} bytes, so "
        "no engine can hold it. A plugin's need grows with the batch and sequence sizes of the profile's "
        "maximum shapes.",
        "Raise the workspace pool above {value} bytes (config.set_memory_pool_limit(trt.MemoryPoolType."
        "WORKSPACE, N); trtexec --memPoolSize=workspace:NM; older releases setMaxWorkspaceSize), which the "
        "GPU must have free, or lower the profile's maximum shapes (batch, sequence length; trtexec "
        "--maxShapes=, trtllm-build --max_batch_size/--max_input_len/--max_num_tokens) so {op} asks for "
        "less.",
        "NVIDIA TensorRT: include/NvInfer.h (IBuilderConfig::setMemoryPoolLimit, "
        "MemoryPoolType::kWORKSPACE), "
        "include/NvInferRuntime.h (IPluginV2DynamicExt::getWorkspaceSize); threads NVIDIA/TensorRT#1363, "
        "NVIDIA/TensorRT-LLM#2688",
        "",
        REASON,
    ),
    Clause(
        "trt-tactics-short-of-workspace",
        ("tensorrt",),
        "do not have sufficient workspace memory",
        r"Some tactics do not have sufficient workspace memory to run\. Increasing workspace size "
        r"(?:will enable more tactics|may increase performance)",
        "A warning of TensorRT's builder, not a failure: some candidate kernels (tactics) of some layers "
        "need more scratch memory than the workspace pool allows, so they were not timed; the engine is "
        "built from the tactics that fit and may be slower than it could be.",
        "If the engine is fast enough, leave it. Otherwise raise the workspace pool "
        "(config.set_memory_pool_limit(trt.MemoryPoolType.WORKSPACE, 1 << 32); trtexec "
        "--memPoolSize=workspace:4096M), within the GPU's free memory; a verbose build "
        "(trt.Logger.VERBOSE, trtexec --verbose) lists the sizes the skipped tactics asked for.",
        "NVIDIA TensorRT: include/NvInfer.h (IBuilderConfig::setMemoryPoolLimit); NVIDIA TensorRT Developer "
        "Guide (memory pools, tactic selection); thread linghu8812/tensorrt_inference#56",
        "",
        REASON,
    ),
    Clause(
        "trt-fp16-weights-subnormal",
        ("tensorrt",),
        "when converted to fp16",
        r"Weights \[name=(?P<layer>[^\n\]]{1,300})\] had the following issues when converted to FP16",
        "A warning of TensorRT's FP16 build, not a failure: weights of layer {layer} have values FP16 "
        "cannot hold exactly: magnitudes under 6.1e-5 become subnormal or are raised to the smallest "
        "subnormal (6e-8), values over 65504 are clamped. Tiny weights rarely matter; clamped ones can "
        "change "
        "the output.",
        "Compare the FP16 engine's outputs with FP32 (polygraphy run model.onnx --trt --fp16 --onnxrt); if "
        "they agree, ignore the warning. If not, keep {layer} in FP32 (layer.precision = trt.float32 with "
        "BuilderFlag.OBEY_PRECISION_CONSTRAINTS; trtexec --precisionConstraints=obey "
        "--layerPrecisions=name:fp32), or retrain with weight decay so the weights fit FP16's range.",
        "NVIDIA TensorRT Developer Guide (reduced precision; layer precision constraints); threads "
        "Linaom1214/TensorRT-For-YOLO-Series#56, blakeblackshear/frigate#5268",
        "",
        REASON,
    ),
    Clause(
        "trt-fp16-values-detected",
        ("tensorrt",),
        "fp16",
        r"(?P<value>(?i:subnormal FP16 values|Values less than smallest positive FP16 Subnormal value"
        r"|Values out of range of FP16|FP16 values out of range))",
        "A warning of TensorRT's FP16 build, not a failure: some weights converted to FP16 hit '{value}': "
        "magnitudes under 6.1e-5 become subnormal or are raised to the smallest subnormal (6e-8), values "
        "over 65504 are clamped. Tiny weights rarely matter; clamped ones can change the output. The line "
        "before names the layer whose weights these are.",
        "Compare the FP16 engine's outputs with FP32 (polygraphy run model.onnx --trt --fp16 --onnxrt); if "
        "they agree, ignore the warning. If not, keep the layers named in the 'Weights [name=...]' lines in "
        "FP32 (layer.precision = trt.float32 with BuilderFlag.OBEY_PRECISION_CONSTRAINTS; trtexec "
        "--precisionConstraints=obey --layerPrecisions=name:fp32), or retrain with weight decay so the "
        "weights fit FP16's range.",
        "NVIDIA TensorRT Developer Guide (reduced precision; layer precision constraints); threads "
        "Linaom1214/TensorRT-For-YOLO-Series#56, blakeblackshear/frigate#5268",
        "",
        REASON,
    ),
    Clause(
        "trt-layernorm-fp16-overflow",
        ("tensorrt",),
        "layernorm",
        r"Detected layernorm nodes in FP16|Running layernorm after self-attention (?:in FP16|with FP16 "
        r"Reduce "
        r"or Pow) may cause overflow",
        "A warning of TensorRT's FP16 build, not a failure: the network has layer normalisations built from "
        "elementwise ops (ReduceMean, Pow, Sqrt: an export below opset 17), whose sum of squares can "
        "overflow FP16 after attention and give inf/NaN outputs; newer releases force those Reduce/Pow "
        "layers to FP32 themselves and say so on the same line.",
        "If the FP16 outputs match FP32 (polygraphy run model.onnx --trt --fp16 --onnxrt), nothing to do. "
        "Otherwise export with opset 17 or later so LayerNormalization becomes one INormalizationLayer, or "
        "keep the layernorm's Pow/ReduceMean layers in FP32 (trtexec --precisionConstraints=obey "
        "--layerPrecisions=*Pow*:fp32,*ReduceMean*:fp32; layer.precision with OBEY_PRECISION_CONSTRAINTS).",
        "NVIDIA TensorRT: include/NvInfer.h (INormalizationLayer, BuilderFlag::kOBEY_PRECISION_CONSTRAINTS); "
        "TensorRT's builder wording 'Detected layernorm nodes in FP16.' / 'Running layernorm after "
        "self-attention in FP16 may cause overflow. Exporting the model to the latest available ONNX opset "
        "(later than opset 17) to use the INormalizationLayer, or forcing layernorm layers to run in FP32 "
        "precision can help with preserving accuracy.'",
        "",
        REASON,
    ),
    Clause(
        "trt-int8-missing-scale",
        ("tensorrt",),
        "missing scale and zero-point for tensor",
        r"Missing scale and zero-point for tensor (?P<tensor>[^\n,]{1,200}?), expect fall back to non-int8",
        "A warning of TensorRT's INT8 build: tensor {tensor} has no INT8 scale (no dynamic range from the "
        "calibrator or cache, and no Q/DQ around it), so every layer that reads or writes it runs in FP16 "
        "or FP32. Calibration caches made for another graph, layers the calibrator never saw (outputs, "
        "shape tensors, plugin outputs), or a partly quantised Q/DQ model cause it.",
        "If speed is enough, it can stay. Otherwise give {tensor} a range: recalibrate with the same ONNX "
        "graph and delete a stale calibration cache, set it by hand (ITensor.set_dynamic_range(-a, a)), "
        "or add QuantizeLinear/DequantizeLinear around it in a Q/DQ model (pytorch-quantization, "
        "modelopt); outputs and index tensors are meant to stay non-INT8.",
        "NVIDIA TensorRT Developer Guide (INT8: calibration, setDynamicRange, explicit quantization); "
        "NVIDIA TensorRT: include/NvInfer.h (ITensor::setDynamicRange)",
        "",
        REASON,
    ),
    Clause(
        "trt-broadcast-not-conformable",
        ("tensorrt",),
        "broadcast dimensions must be conformable",
        r"(?:\bI\w{1,40}Layer )?(?P<op>[^\s():][^\n():]{0,200}?): broadcast dimensions must be conformable",
        "While computing shapes TensorRT found that the two inputs of {op} (an elementwise, select or "
        "matrix-multiply layer) cannot broadcast: on some axis their sizes differ and neither is 1. Most "
        "often the ONNX graph is itself inconsistent at these shapes (onnxruntime fails on the same node), "
        "or a shape computed from a dynamic input ends up different on the two branches that meet at "
        "{op}.",
        "Check the shapes that reach {op}: run the model in onnxruntime with the same inputs, or "
        "polygraphy inspect model model.onnx --show layers after folding; simplify the graph first "
        "(polygraphy surgeon sanitize --fold-constants, onnxsim) so shapes are static where they can be; "
        "for dynamic inputs, build a profile whose min/opt/max keep the two branches the same size, or "
        "fix the model (an explicit Unsqueeze/Reshape) so the sizes agree.",
        "NVIDIA TensorRT: graphShapeAnalyzer's wording 'broadcast dimensions must be conformable' (its "
        "IElementWiseLayer broadcast rule, NvInfer.h: dimensions equal or one of them 1); threads "
        "NVIDIA/TensorRT#3210, NVIDIA/TensorRT#1870 (maintainer: the two inputs' dims differ and cannot "
        "broadcast), pytorch/TensorRT#961",
        "",
        REASON,
    ),
    # Branch s19d: the builder's profile check of a dynamic input (network validation), and the shape
    # analyser's other wording of a concatenation whose inputs disagree.
    Clause(
        "trt-dynamic-input-missing-profile-dims",
        ("tensorrt",),
        "dynamic input is missing dimensions in profile",
        r"(?P<tensor>[^\s()][^\n()]{0,200}?): dynamic input is missing dimensions in profile "
        r"(?P<index>\d{1,4})",
        "Input {tensor} has a dynamic (-1) dimension, and optimization profile {index} gives it no "
        "min/opt/max shape: every dynamic input needs its three shapes in every profile, so network "
        "validation fails before any layer is built. Usual causes: the profile was filled for another "
        "input name (the ONNX export renamed {tensor}), only some of several dynamic inputs were given, or "
        "the profile was created but never added to the builder config.",
        "Add the shapes of {tensor} to profile {index}: profile.set_shape('{tensor}', min, opt, max) then "
        "config.add_optimization_profile(profile) (C++ IOptimizationProfile::setDimensions with kMIN, kOPT "
        "and kMAX), or with trtexec --minShapes/--optShapes/--maxShapes={tensor}:NxCxHxW for each dynamic "
        "input, names exactly as the network's (polygraphy inspect model model.onnx).",
        "NVIDIA TensorRT: network validation's wording '<input>: dynamic input is missing dimensions in "
        "profile N.' (network.cpp::validate); IOptimizationProfile (NvInferRuntime.h / Python API: 'users "
        "need to specify at least one optimization profile' with min, opt and max for each dynamic input); "
        "threads NVIDIA/TensorRT#1812, NVIDIA/TensorRT#939",
        "",
        REASON,
    ),
    Clause(
        "trt-concat-dims-not-compatible",
        ("tensorrt",),
        "dimensions not compatible for concatenation",
        r"(?:\bI\w{1,40}Layer )?(?P<op>[^\s():][^\n():]{0,200}?): dimensions not compatible for "
        r"concatenation",
        "While computing shapes TensorRT found that the inputs of concatenation {op} differ on an axis other "
        "than the one they are joined on (or differ in rank). Usual causes: an input size the network's "
        "strides do not divide (a stride-2 branch rounds down while the upsampled branch doubles, so a skip "
        "connection is off by one), or, with dynamic inputs, a profile whose shapes the model cannot take.",
        "Build and run with input sizes that are a multiple of the network's total stride (32 for most "
        "detectors and OCR backbones), also in the profile's min/opt/max; compare the shapes reaching {op} "
        "in onnxruntime at the same input size; if the model has dynamic inputs give trtexec "
        "--minShapes/--optShapes/--maxShapes rather than letting them default to 1.",
        "NVIDIA TensorRT: graphShapeAnalyzer's wording '<layer>: dimensions not compatible for "
        "concatenation' (include/NvInfer.h IConcatenationLayer: all inputs must have the same dimensions "
        "except along the concatenation axis); thread NVIDIA/TensorRT#1989 (maintainer: dynamic-shape model "
        "built without input profiles)",
        "",
        REASON,
    ),
    Clause(
        "trt-concat-dims-mismatch",
        ("tensorrt",),
        "all concat input tensors must have the same",
        r"(?:(?P<op>[^\s():][^\n():]{0,200}?): )?all concat input tensors must have the same "
        r"(?:dimensions except on the concatenation axis \((?P<axis>-?\d{1,3})\)|number of dimensions)"
        r"(?:[^\n]{0,80}?Input 0 shape: (?P<shape>\[[\d,-]{0,80}\]), Input (?P<index>\d{1,4}) shape: "
        r"(?P<shape2>\[[\d,-]{0,80}\]))?",
        "The inputs of concatenation {op|layer} disagree off the joining axis (axis {axis|not shown}; "
        "shapes {shape|not printed} and {shape2|not printed}): only the axis they are joined on may "
        "differ, and all must have the same rank. Usual causes: an input size the network's strides do "
        "not divide (a stride-2 branch rounds, the upsampled one doubles, so the skip connection is off "
        "by one), an axis counted without the batch dimension, or a branch that lost or gained a "
        "dimension (a missing Unsqueeze).",
        "Feed an input size that is a multiple of the network's total stride (32 for most detectors) or "
        "keep the profile's shapes to such sizes; check the concat axis of {op|the layer} counts the batch "
        "dimension (explicit batch networks do); for a rank mismatch add the Unsqueeze/Reshape the "
        "framework did implicitly; compare the shapes with onnxruntime on the same input.",
        "NVIDIA TensorRT: include/NvInfer.h (IConcatenationLayer: all inputs must have the same dimensions "
        "except along the concatenation axis); threads NVIDIA/TensorRT#1324, NVIDIA/TensorRT#1385, "
        "onnx/onnx-tensorrt#666",
        "",
        REASON,
    ),
    Clause(
        "trt-no-format-for-types",
        ("tensorrt",),
        "could not find any supported formats consistent with input/output data types",
        r"(?P<op>[^\s()][^\n()]{0,200}?)(?: \[\w{1,40}\])?: could not find any supported formats "
        r"consistent with input/output data types",
        "No implementation of {op} accepts the combination of data types and layouts its inputs and "
        "outputs have here. For a plugin, its supportsFormatCombination accepts none of the types the "
        "network gives it (FP16 or INT8 requested by --fp16/--int8 when the plugin takes only FP32, an "
        "INT64 or INT32 input it does not handle); for a built-in layer, the precision asked for it "
        "(layer precision, strongly typed network) has no kernel.",
        "For a plugin, make supportsFormatCombination accept the types and TensorFormat::kLINEAR layout "
        "{op} receives, or give its inputs the types it takes (a Cast before it; build without --int8/"
        "--fp16 to check, or keep {op} in FP32 with --layerPrecisions); for a built-in layer, drop the "
        "precision constraint on {op} or cast its inputs to a type it supports. The plugin library must "
        "be built for this TensorRT release.",
        "NVIDIA TensorRT: include/NvInferRuntime.h (IPluginV2DynamicExt::supportsFormatCombination); "
        "threads NVIDIA/TensorRT#1315 (maintainer: check supportsFormatCombination), NVIDIA/TensorRT#954, "
        "open-mmlab/mmdeploy#1928",
        "",
        REASON,
    ),
    Clause(
        "trt-duplicate-region-name",
        ("tensorrt",),
        "found duplicate region name",
        r"Found duplicate region name (?P<tensor>[^\n)']{1,200}(?:\) \[[^\n)']{1,80})?)",
        "A sanity check of TensorRT's builder found two memory regions (tensors of the optimised graph) "
        "named {tensor}: two tensors of the network share one name, or one tensor is read through two "
        "paths the builder named alike. It shows with ONNX graphs that reuse an output name or feed one "
        "constant to several consumers (paddle2onnx and mmdeploy exports), most often in INT8 or Q/DQ "
        "builds, and is a builder limitation rather than a model error.",
        "Give every tensor of the ONNX graph a unique name and fold constants so shared constants "
        "disappear: polygraphy surgeon sanitize model.onnx --fold-constants -o folded.onnx (or onnxsim), "
        "then rebuild; if {tensor} is an unnamed constant, duplicate it per consumer with "
        "onnx-graphsurgeon; a newer TensorRT release often builds the same graph.",
        "NVIDIA TensorRT builder wording (checkSanity: 'Found duplicate region name'); threads "
        "NVIDIA/TensorRT#2347, open-mmlab/mmdeploy#1418",
        "",
        REASON,
    ),
    Clause(
        "trt-linked-against-loaded",
        ("tensorrt",),
        "was linked against",
        r"TensorRT was linked against (?P<lib>cuBLAS/cuBLAS LT|cuDNN|cuBLAS LT|cuBLAS) "
        r"(?P<value>\d[\d.]{0,19})"
        r" but loaded (?:cuBLAS/cuBLAS LT |cuDNN |cuBLAS LT |cuBLAS )?(?P<value2>\d[\d.]{0,19}\d)",
        "A warning: this TensorRT was built against {lib} {value}, but the process loaded {lib} {value2} "
        "(another copy earlier on the library path, a framework's bundled one, or a different CUDA "
        "toolkit). Builds and runs usually still work; tactics from that library may fail or be skipped.",
        "Make the process load {lib} {value}: install the version the TensorRT release notes list, put its "
        "directory first on LD_LIBRARY_PATH/PATH (or import the framework that bundles it after "
        "TensorRT), or leave that tactic source out (config.set_tactic_sources; trtexec "
        "--tacticSources=-CUBLAS,-CUBLAS_LT,-CUDNN) so TensorRT does not use it.",
        "NVIDIA TensorRT: include/NvInfer.h (TacticSource, IBuilderConfig::setTacticSources); NVIDIA "
        "TensorRT support matrix (cuDNN/cuBLAS versions per release); thread NVIDIA/TensorRT#426",
        "",
        REASON,
    ),
    Clause(
        "trt-target-sm-not-supported",
        ("tensorrt",),
        "is not supported by this tensorrt release",
        r"Target GPU SM (?P<value>\d{2,3}) is not supported by this TensorRT release",
        "This TensorRT release has no kernels for the GPU's compute capability SM {value}: each release "
        "supports a range of GPU architectures (its support matrix), and TensorRT 10 dropped older ones "
        "that 8.x still ran; a GPU newer than the release (SM 120 on an early 10.x) is refused the same way.",
        "Use a TensorRT release whose support matrix lists SM {value}: an older line for an old GPU (the 8.6 "
        "line for Pascal SM 6x), a newer one, built for a CUDA that supports it, for a new GPU. Engines are "
        "built per GPU architecture, so build on the target GPU with that release; otherwise run the "
        "model with another backend (onnxruntime's CUDA provider).",
        "NVIDIA TensorRT support matrix and release notes (supported compute capabilities per release); "
        "libnvinfer builderHelpers checkCurrentSMEnabled wording 'Target GPU SM N is not supported by this "
        "TensorRT release.'",
        "",
        REASON,
    ),
    Clause(
        "trt-default-stream",
        ("tensorrt",),
        "using default stream in enqueue",
        r"Using default stream in enqueue(?P<value>[\w()/]{0,40}?) may lead to performance issues",
        "A TensorRT runtime warning, not an error: enqueue{value|} was called on CUDA's default (legacy) "
        "stream, so TensorRT adds synchronisations around the launch to stay correct, which costs time.",
        "Create a stream of your own and pass it: stream = torch.cuda.Stream() (or cuda.cuStreamCreate / "
        "cudaStreamCreate) and context.execute_async_v3(stream.cuda_stream), then synchronise that stream; "
        "with Polygraphy or pycuda, give the runner a non-default stream the same way.",
        _TRT_LEAN + " ('Using default stream in enqueueV3() may lead to performance issues due to additional "
        "calls to cudaStreamSynchronize() by TensorRT to ensure correct synchronization. Please use "
        "non-default stream instead.')",
        "",
        REASON,
    ),
    Clause(
        "trt-cudnn-status",
        ("tensorrt",),
        "cudnn_status_",
        r"\b(?P<status>CUDNN_STATUS_[A-Z_]{2,40})",
        "A cuDNN call TensorRT made for a layer using a cuDNN tactic (convolution, deconvolution, pooling, "
        "LRN) returned {status}. cuDNN's own meanings: EXECUTION_FAILED, the GPU program failed to run "
        "(an earlier bad access or a cuDNN build not made for this GPU); NOT_SUPPORTED, no implementation "
        "for this configuration; ALLOC_FAILED, memory ran out; ARCH_MISMATCH, the GPU is too old; "
        "BAD_PARAM, an invalid descriptor or shape. A cuDNN other than the one TensorRT was built against "
        "(its 'linked against cuDNN' warning) is the usual cause.",
        "Load the cuDNN version this TensorRT release was built with (its support matrix; the 'TensorRT was "
        "linked against cuDNN X but loaded Y' warning names both), or stop TensorRT from using cuDNN "
        "tactics: config.set_tactic_sources without TacticSource.CUDNN, trtexec --tacticSources=-CUDNN "
        "(TensorRT 10 leaves cuDNN out by default), then rebuild the engine; for ALLOC_FAILED free GPU "
        "memory or lower the batch.",
        "NVIDIA TensorRT: include/NvInfer.h (TacticSource::kCUDNN, IBuilderConfig::setTacticSources); NVIDIA "
        "cuDNN API reference (cudnnStatus_t values); NVIDIA TensorRT support matrix",
        "",
        REASON,
    ),
    Clause(
        "trt-lazy-loading-off",
        ("tensorrt",),
        "cuda lazy loading is not enabled",
        r"CUDA lazy loading is not enabled",
        "A TensorRT warning, not an error: CUDA's module lazy loading is off, so every CUDA kernel "
        "TensorRT ships is loaded at start-up, costing device memory and start-up time.",
        "Set CUDA_MODULE_LOADING=LAZY in the environment before the process starts (needs CUDA 11.7 or "
        "later; it is the default from CUDA 12.2), or ignore the warning: engines behave the same.",
        _TRT_LEAN + " ('CUDA lazy loading is not enabled. Enabling it can significantly reduce device memory "
        "usage and speed up TensorRT initialization.'); CUDA C Programming Guide (CUDA_MODULE_LOADING)",
        "",
        REASON,
    ),
    # onnxruntime session creation and feeds
    Clause(
        "ort-pybind-dll-load-failed",
        ("onnxruntime",),
        "importing onnxruntime_pybind11_state",
        r"DLL load failed while importing onnxruntime_pybind11_state: ?(?P<value>[^\n]{0,200})",
        "Python found onnxruntime but Windows could not load its native module or a DLL it needs "
        "({value|no reason given}): most often the Microsoft Visual C++ 2019+ runtime is missing, an "
        "onnxruntime.dll of another version is found first on PATH or in System32, both onnxruntime and "
        "onnxruntime-gpu are installed over each other, or (GPU builds) CUDA/cuDNN DLLs are not found.",
        "Install the latest Visual C++ Redistributable (x64); pip uninstall onnxruntime onnxruntime-gpu "
        "onnxruntime-directml, then install just one; remove stray onnxruntime.dll copies from "
        "PATH/System32; "
        "for onnxruntime-gpu put the CUDA and cuDNN bin folders on PATH (or, from 1.21, call "
        "onnxruntime.preload_dlls() before creating a session).",
        "microsoft/onnxruntime: onnxruntime/__init__.py (import of capi.onnxruntime_pybind11_state; "
        "preload_dlls); docs 'Install ONNX Runtime' (Windows requirements: Visual C++ redistributable)",
        "",
        REASON,
    ),
    Clause(
        "ort-nodes-not-on-preferred-ep",
        ("onnxruntime",),
        "some nodes were not assigned to the preferred execution providers",
        r"Some nodes were not assigned to the preferred execution providers",
        "A warning of session creation, not an error: some nodes run on a provider other than the first "
        "one asked for (usually the CPU), either because that provider has no kernel for them or because "
        "onnxruntime puts shape computations on the CPU on purpose.",
        "Nothing to fix if speed is fine. To see which nodes went where, create the session with "
        "so.log_severity_level = 0 (verbose) and read the node placement lines; for nodes with no kernel on "
        "your provider, change the op or its data type in the model (or use a build whose provider "
        "supports it).",
        "microsoft/onnxruntime: onnxruntime/core/framework/session_state.cc (VerifyEachNodeIsAssignedToAnEp)",
        "",
        REASON,
    ),
    Clause(
        "ort-memcpy-nodes-added",
        ("onnxruntime",),
        "memcpy nodes are added to the graph",
        r"(?P<value>\d{1,6}) Memcpy nodes are added to the graph (?P<graph>[^\s]{0,200}) ?for "
        r"(?P<provider>\w{1,60}ExecutionProvider)",
        "A warning, not an error: {value} copies between host and device were inserted into graph "
        "{graph|} because some nodes run on the CPU while their neighbours run on {provider} (no "
        "{provider} kernel for them, or shape ops kept on the CPU). Each copy costs time, and any of them "
        "stops CUDA graph capture.",
        "If speed is fine, ignore it. Otherwise set so.log_severity_level = 1 (or 0) to list the nodes "
        "assigned to the CPU, then change those ops or their data types in the model (int64 or double "
        "tensors often have no GPU kernel), keep I/O on the device with IOBinding, and avoid enable_cuda_"
        "graph while {value} copies remain.",
        "microsoft/onnxruntime: onnxruntime/core/optimizer/transformer_memcpy.cc "
        "(MemcpyTransformer::ApplyImpl "
        "warning)",
        "",
        REASON,
    ),
    Clause(
        "ort-initializer-in-graph-inputs",
        ("onnxruntime",),
        "appears in graph inputs and will not be treated",
        r"Initializer (?P<tensor>[^\s]{1,200}) appears in graph inputs and will not be treated as constant",
        "A warning, not an error: weight {tensor} is both an initializer and a graph input, so a caller "
        "could override it, and onnxruntime does not treat it as a constant: constant folding and fusions "
        "that need it are skipped (old exporters listed every weight as an input).",
        "Remove the initializers from the graph inputs with onnxruntime's script "
        "onnxruntime/tools/python/remove_initializer_from_input.py --input model.onnx --output fixed.onnx, "
        "or re-export (torch.onnx.export(..., keep_initializers_as_inputs=False)); the outputs do not "
        "change, the session gets faster.",
        "microsoft/onnxruntime: onnxruntime/core/graph/graph.cc (Graph::Graph initializer-in-inputs "
        "warning); "
        "onnxruntime/tools/python/remove_initializer_from_input.py",
        "",
        REASON,
    ),
    Clause(
        "ort-unused-initializer-removed",
        ("onnxruntime",),
        "it is not used by any node and should be removed",
        r"Removing initializer '(?P<tensor>[^'\n]{1,200})'\. It is not used by any node and should be "
        r"removed",
        "A warning, not an error: initializer {tensor} is in the model but no node reads it (often left "
        "by an exporter or after constant folding), so onnxruntime drops it when it loads the graph. "
        "Results are not affected.",
        "Ignore it, or clean the model once so the warning goes: onnx-simplifier or "
        "onnxruntime.transformers.onnx_model.OnnxModel(model).prune_graph(), or remove {tensor} from "
        "graph.initializer with the onnx API, then save the model again.",
        "microsoft/onnxruntime: onnxruntime/core/graph/graph.cc (Graph::CleanUnusedInitializersAndNodeArgs "
        "warning); onnxruntime/python/tools/transformers/onnx_model.py (prune_graph)",
        "",
        REASON,
    ),
    Clause(
        "ort-providers-parameter-required",
        ("onnxruntime",),
        "required to explicitly set the providers parameter",
        r"This ORT build has (?P<value>\[[^\]\n]{1,300}\]) enabled\. Since ORT 1\.9, you are required to "
        r"explicitly set the providers parameter",
        "The installed onnxruntime has providers other than the CPU one ({value}), and since 1.9 "
        "InferenceSession no longer picks among them: a session created without providers= is refused. "
        "Old code or libraries that call InferenceSession(path) alone hit this on a GPU build.",
        "Pass the providers in order of preference, e.g. onnxruntime.InferenceSession(path, providers="
        "['CUDAExecutionProvider', 'CPUExecutionProvider']) (pick from {value}); in a library that does not "
        "pass them, update it, or patch its InferenceSession call the same way.",
        "microsoft/onnxruntime: onnxruntime/python/onnxruntime_inference_collection.py "
        "(InferenceSession._create_inference_session)",
        "",
        REASON,
    ),
    Clause(
        "ort-feed-not-numpy",
        ("onnxruntime",),
        "input must be a list of dictionaries or a single numpy array",
        r"Input must be a list of dictionaries or a single numpy array(?: for input "
        r"'(?P<input>[^'\n]{1,200})')?",
        "The value fed for input {input|of the model} is neither a numpy array nor what a map or sequence "
        "input takes: a torch tensor, a list of arrays, a PIL image or a Python scalar was passed in the "
        "feed dict.",
        "Feed a numpy array of the model's dtype for {input|each input}: {'{input|name}': "
        "np.ascontiguousarray"
        "(x.detach().cpu().numpy(), dtype=np.float32)} (session.get_inputs() gives names and types); to "
        "keep data on the GPU use IOBinding or OrtValue.ortvalue_from_numpy instead of torch tensors.",
        "microsoft/onnxruntime: onnxruntime/python/onnxruntime_pybind_mlvalue.cc (CreateGenericMLValue / map "
        "inputs: 'Input must be a list of dictionaries or a single numpy array for input ')",
        "",
        REASON,
    ),
    Clause(
        "ort-external-data-needs-model-path",
        ("onnxruntime",),
        "model_path must not be empty",
        r"model_path must not be empty",
        "An initializer of the model keeps its data in an external file, located relative to the model's "
        "own path, but onnxruntime had no path: the model was given as bytes (InferenceSession(model."
        "SerializeToString()) or an in-memory ModelProto), or an execution provider rebuilt part of the "
        "graph without it (seen with the CoreML provider).",
        "Create the session from the .onnx file path, with its external data file beside it; or make the "
        "model self-contained before passing bytes (onnx.load(path) loads the external data, then "
        "onnx.save(model, out, save_as_external_data=False) below 2 GB); for the CoreML provider, load by "
        "path or inline the weights the same way.",
        "microsoft/onnxruntime: onnxruntime/core/optimizer/initializer.cc and core/framework/"
        "tensorprotoutils.cc (external data read relative to the model path: '!model_path.empty() was false. "
        "model_path must not be empty.')",
        "",
        REASON,
    ),
    Clause(
        "ort-dml-memory-pattern-off",
        ("onnxruntime",),
        "having memory pattern enabled is not supported",
        r"Having memory pattern enabled is not supported while using the DML Execution Provider",
        "A notice, not an error: the DirectML provider cannot use memory patterns (its memory is not byte "
        "addressable), so onnxruntime turned enable_mem_pattern off for this session and went on.",
        "To silence it, set so.enable_mem_pattern = False (and so.execution_mode = "
        "ort.ExecutionMode.ORT_SEQUENTIAL, which DirectML also needs) on the SessionOptions before creating "
        "the session with DmlExecutionProvider.",
        "microsoft/onnxruntime: onnxruntime/core/session/inference_session.cc (RegisterExecutionProvider: "
        "DML "
        "disables mem pattern and parallel execution)",
        "",
        REASON,
    ),
    # --- s19c: onnxruntime's own checks users hit that no clause read yet (Slice, Resize/Upsample, the
    # arena's memory limit, the ROCm EP's calls, an unknown output name) ----------------------------------
    Clause(
        "ort-slice-input-lengths",
        ("onnxruntime",),
        "starts and ",
        r"Starts and (?P<value>ends|axes|steps) shape mismatch",
        "The Slice node {op|} was given starts and {value} of different shapes: from opset 10 Slice takes "
        "starts, ends, axes and steps as 1-D tensors of the same length, one entry per sliced axis, and "
        "onnxruntime checks that before it slices. The exporter or converter computed one of them from a "
        "shape at run time (a dynamic x[..., a:b]) with another length, or a hand-edited graph left them "
        "unequal.",
        "Give the Slice node {op|} starts and {value} of one length (one entry per axis in 'axes'): "
        "inspect its inputs in Netron or with onnx.shape_inference, fix the Concat/Unsqueeze that builds "
        "them, or re-export with constant folding (do_constant_folding=True) or onnxsim so they become "
        "constants of the right length.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/slice_helper.h (FillVectorsFromInput: "
        "'Starts and ends shape mismatch', 'Starts and axes shape mismatch', 'Starts and steps shape "
        "mismatch')",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-slice-input-rank",
        ("onnxruntime",),
        "must be a 1-d array",
        r"(?P<value>Starts|Ends) must be a 1-D array",
        "The {value} input of the Slice node {op|} is not a 1-D tensor: from opset 10 Slice takes starts, "
        "ends, axes and steps as 1-D tensors (one entry per sliced axis), and onnxruntime checks that "
        "before it slices. A scalar (0-D) or a 2-D value reached it, usually a computed index the exporter "
        "or converter did not Unsqueeze to shape [1].",
        "Make the {value} input of the Slice node {op|} 1-D: Unsqueeze a scalar to shape [1] (or Reshape to "
        "[-1]) where it is computed, or re-export with constant folding or onnxsim so it becomes a 1-D "
        "constant; in PyTorch, slicing with a tensor index rather than a Python int is the usual source.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/slice_helper.h (FillVectorsFromInput: "
        "'Starts must be a 1-D array', 'Ends must be a 1-D array')",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-slice-step-zero",
        ("onnxruntime",),
        "'step' value cannot be 0",
        r"'step' value cannot be 0",
        "The Slice node {op|} has a step of 0 for one of its axes: a slice must move by at least one "
        "element (a negative step walks backwards), and onnxruntime checks every step before it slices. "
        "The steps input was computed at run time and came out 0, or was written as 0 by a converter.",
        "Find the steps input of the Slice node {op|} (Netron) and make every entry non-zero (1 for a plain "
        "slice, -1 to reverse); if it is computed, trace the value that gives 0 for this input size.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/slice_helper.h (PrepareForCompute: "
        "\"'step' value cannot be 0\")",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-slice-axes-invalid",
        ("onnxruntime",),
        "'axes' has ",
        r"'axes' has (?P<value>an axis outside of the tensor dimension count|duplicates)",
        "The axes of the Slice node {op|} are not valid for its input: the check says '{value}'. Each axis "
        "must lie in [-r, r-1] for an input of rank r and name a different dimension; the input reached the "
        "node with fewer dimensions than the axes were written for (a model exported for 4-D input fed 3-D, "
        "a batch dimension removed) or the axes list repeats a dimension.",
        "Check the rank of the Slice node {op|}'s input for this feed against its axes (Netron shows the "
        "axes input); feed the rank the model was exported with, or fix the axes so each names one "
        "existing dimension once.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/slice_helper.h (PrepareForCompute: "
        "\"'axes' has an axis outside of the tensor dimension count\", \"'axes' has duplicates\")",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-resize-scale-not-positive",
        ("onnxruntime",),
        "scale value should be greater than 0",
        r"Scale value should be greater than 0",
        "A scale of the Resize node {op|} is 0 or negative: onnxruntime requires every scale to be above "
        "0 (when the node gets sizes, each scale is output size / input size). The scales or sizes were "
        "computed in the graph from a value that came out 0 for this feed: an input that gives a size "
        "(an image-size input such as orig_im_size fed as zeros or in the wrong dtype), an empty or "
        "zero-sized dimension, or an integer division that rounds to 0.",
        "Print the values that reach the scales/sizes input of the Resize node {op|} (add them as graph "
        "outputs or check the inputs that carry sizes: right values, right dtype, non-zero); feed sizes "
        "the model expects; if the scales are constants, re-export with positive ones.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/upsamplebase.h (ScalesValidation: "
        "'Scale value should be greater than 0.' for Resize)",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-upsample-scale-below-one",
        ("onnxruntime",),
        "scale value should be greater than or equal to 1",
        r"Scale value should be greater than or equal to 1",
        "The Upsample node {op|} has a scale under 1: onnxruntime's Upsample (the pre-opset-10 op) only "
        "enlarges, so every scale must be 1 or more; shrinking needs Resize.",
        "Re-export the model at opset 11 or later so the layer becomes Resize (which takes scales below 1), "
        "or convert it: onnx.version_converter.convert_version(model, 13); otherwise give the Upsample node "
        "{op|} scales of at least 1.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/upsamplebase.h (ScalesValidation: "
        "'Scale value should be greater than or equal to 1.' for Upsample)",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-resize-linear-outer-scales",
        ("onnxruntime",),
        " only support",
        r"'(?P<value>Linear|Cubic)' mode(?: and 'Cubic' mode)? only supports?\b",
        "The Resize node {op|} uses {value} interpolation with scales this kernel cannot take: onnxruntime's "
        "linear and cubic modes interpolate over the last two dimensions (2-D input, or 4-D with the "
        "outer two scales 1; recent releases also take 3-D, 5-D and NHWC with the channel scale 1), so a "
        "scale other than 1 on the batch or channel dimension, or a rank the mode does not handle, is "
        "rejected.",
        "Make the scales of the Resize node {op|} 1 on the batch and channel dimensions (e.g. "
        "[1, 1, 2, 2] for NCHW); when the exporter resized another dimension, transpose around the "
        "Resize or re-export from an interpolate call on the spatial dimensions only; for 3-D or 5-D "
        "input use a newer onnxruntime or mode 'nearest'.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/upsamplebase.h (ScalesValidation: "
        "\"'Linear' mode and 'Cubic' mode only support 2-D inputs ('Bilinear', 'Bicubic') or 4-D inputs "
        "with the corresponding outermost 2 scale values being 1\"; later \"'Linear' mode only supports:"
        '...")',
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-arena-memory-limit",
        ("onnxruntime",),
        "is smaller than requested bytes of",
        r"Available memory of (?P<value>\d{1,20}) is smaller than requested bytes of (?P<value2>\d{1,20})",
        "onnxruntime's memory arena (BFCArena) has reached its memory limit: it may still grow by {value} "
        "bytes and {op|a node} needs {value2}. The limit is the arena's own (the CUDA provider's "
        "gpu_mem_limit, or an arena config's max_mem), not the device's free memory; the arena keeps what "
        "it has allocated for reuse and never returns it while the session lives, so a larger input later "
        "in a run can hit the limit even though earlier ones fit.",
        "Raise gpu_mem_limit (or max_mem) for this session if the device has the room, or lower what one "
        "run needs ({value2} bytes at once): a smaller batch or input size; arena_extend_strategy="
        "'kSameAsRequested' grows the arena by exactly what is asked instead of powers of two; to give "
        "memory back between runs, recreate the session or set a shrinkage run option "
        "(memory.enable_memory_arena_shrinkage).",
        "microsoft/onnxruntime: onnxruntime/core/framework/bfc_arena.cc (BFCArena::Extend: 'Available "
        "memory of <n> is smaller than requested bytes of <m>', memory_limit_); onnxruntime.ai docs, CUDA "
        "Execution Provider options (gpu_mem_limit, arena_extend_strategy) and RunOptions "
        "memory.enable_memory_arena_shrinkage",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-rocm-call-failure",
        ("onnxruntime",),
        " ; gpu=",
        r"(?P<lib>HIP|MIOPEN|ROCBLAS|HIPBLAS|HIPBLASLT|HIPFFT|RCCL|HIPRAND) failure (?P<value>-?\d{1,6}): "
        r"(?P<detail>[^;\n]{1,200}?) ; GPU=(?P<index>-?\d{1,3})[^\n]{0,300}?; expr=(?P<expr>[^;\n]{1,200})",
        "A call of onnxruntime's ROCm (AMD GPU) execution provider into {lib} failed while {op|a node} ran: "
        "{expr} on GPU {index} returned {value} ({detail}). For HIP this is the HIP runtime (2 is out "
        "of memory, 100 or 'no ROCm-capable device' no visible GPU, 98 'invalid device function' no "
        "kernels for this GPU's architecture); for MIOPEN and ROCBLAS the library rejected or could not "
        "run the operation the node asked for (miopenStatusBadParm, rocblas_status_invalid_size...).",
        "Check that the ROCm version installed is the one this onnxruntime ROCm build requires and that "
        "the GPU's gfx architecture is among those ROCm and the build support (rocminfo lists it; "
        "HSA_OVERRIDE_GFX_VERSION only for a close relative); for out of memory lower the batch or set "
        "gpu_mem_limit; for a {lib} failure on one node, run that model on the CPU provider to confirm it "
        "is the GPU path and report the node's shapes; recent onnxruntime releases replace the ROCm EP "
        "with the MIGraphX EP.",
        "microsoft/onnxruntime: onnxruntime/core/providers/rocm/rocm_call.cc (RocmCall: '%s failure %d: %s "
        "; GPU=%d ; hostname=%s ; expr=%s; %s', libName HIP / ROCBLAS / MIOPEN / HIPFFT / RCCL); "
        "onnxruntime.ai docs, ROCm Execution Provider (requirements)",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-invalid-output-name",
        ("onnxruntime",),
        "invalid output name:",
        r"Invalid Output Name:\s?(?P<output>[^\s,]{1,200})",
        "run() was asked for an output named '{output}', which is not an output of the model: onnxruntime "
        "checks each requested output name against the graph's outputs before it runs (a name from another "
        "export, a misspelt name, or an intermediate tensor that is not a graph output).",
        "Request the names from [o.name for o in session.get_outputs()] (or pass None / an empty list for "
        "all outputs); to read an intermediate tensor such as '{output}', add it to the graph's outputs "
        "first (onnx.helper.make_tensor_value_info and model.graph.output.append) and save the model.",
        "microsoft/onnxruntime: onnxruntime/core/session/inference_session.cc (ValidateOutputs: 'Invalid "
        "Output Name:' + name, INVALID_ARGUMENT)",
        "",
        REASON,
    ),
    # --- s21f: onnxruntime kernels' own input checks (Einsum, Resize/Upsample scales, the transformer
    # contrib operators' input ranks, SkipLayerNormalization, the CoreML EP's compile, Conv's output size) ---
    Clause(
        "ort-einsum-reduced-dims",
        ("onnxruntime",),
        "einsum op: input dimensions must be equal along an axis to be reduced",
        r"Einsum op: Input dimensions must be equal along an axis to be reduced across all inputs",
        "The Einsum node {op|} sums over a subscript letter that its operands hold at different sizes: the "
        "equation (for example 'bhid,bhjd->bhij') says both inputs share that axis, and the tensors that "
        "reached the node disagree there - an input of another hidden, head or sequence size than the "
        "weights or the other operand it is contracted with.",
        "Print the shapes of the inputs reaching {op|the Einsum node} (add them as graph outputs, or compare "
        "with session.get_inputs()) and feed sizes for which every letter repeated across the inputs has "
        "one size; if a size comes from a reshape traced at export, re-export with dynamic_axes so it "
        "follows the input.",
        "microsoft/onnxruntime: "
        "onnxruntime/core/providers/cpu/math/einsum_utils/einsum_compute_preprocessor.cc "
        "and einsum_auxiliary_ops.cc (ORT_ENFORCE: 'Einsum op: Input dimensions must be equal along an axis "
        "to be reduced across all inputs')",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-resize-scales-rank",
        ("onnxruntime",),
        "input tensor's dimension does not match the scales",
        r"(?P<value>Resize|Upsample): input tensor's dimension does not match the scales",
        "The {value} node {op|} was given a scales input with another number of values than its input has "
        "dimensions: ONNX {value} takes one scale per dimension, batch and channel included (four for an "
        "NCHW image: [1, 1, scale_h, scale_w]). A scales tensor of only the spatial two values (written by "
        "an older exporter or a converter from another framework), or an input of another rank than at "
        "export, breaks that.",
        "Give {op|the node} a scales (or sizes) input with one value per input dimension ([1, 1, sh, sw] for "
        "NCHW; edit the initializer with onnx, or re-export with opset 11 or later so the exporter writes "
        "full-rank scales), and feed the input rank the model was exported for.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/upsample.cc and upsamplebase.h "
        "(ScalesValidation / BaseCompute: 'Resize: input tensor's dimension does not match the scales.', "
        "'Upsample: ...')",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-contrib-input-rank",
        ("onnxruntime",),
        "is expected to have",
        r"(?:Input '(?P<input>[A-Za-z_][\w.]{0,80})'|\b(?P<tensor>input|skip|gamma|beta|bias|query|key|value"
        r"|mask_index|past|position_ids)) is expected to have (?P<value>\d{1,2}(?:,? (?:or )?\d{1,2}){0,3}) "
        r"dimensions?,? got (?P<value2>\d{1,3})",
        "A fused transformer operator of onnxruntime (node {op|}, {arg|an attention, layer-norm or rotary "
        "contrib operator}) checks the rank of each input before it runs: its input '{input|}{tensor|}' must "
        "have {value} dimensions and has {value2}. These operators (Attention, MultiHeadAttention, "
        "GroupQueryAttention, SkipLayerNormalization, RotaryEmbedding...) take fixed layouts, such as "
        "(batch, sequence, hidden) for a rank of 3; a feed without its batch axis, or a fusion the "
        "transformer optimizer made for another model layout, breaks that.",
        "Feed '{input|}{tensor|}' with {value} dimensions (add the batch axis with np.expand_dims, or "
        "reshape to (batch, sequence, hidden)); if your feeds match the original model, the fused node was "
        "made by onnxruntime's transformer optimizer (onnxruntime.transformers.optimizer) for another "
        "model type or layout: run the unoptimized model, or optimize again with the right model_type, "
        "num_heads and hidden_size.",
        "microsoft/onnxruntime: onnxruntime/contrib_ops/cpu/bert/attention_base.cc, "
        "multihead_attention_helper.h, skip_layer_norm.cc, rotary_embedding_helper.h (ORT_MAKE_STATUS "
        "INVALID_ARGUMENT: \"Input 'query' is expected to have 3 dimensions, got \", 'input is expected to "
        "have 3 dimensions, got ')",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-contrib-attention-input-dims",
        ("onnxruntime",),
        "input '",
        r"Input '(?P<input>[A-Za-z_]\w{0,60})' (?:dimension |and '[A-Za-z_]\w{0,60}' shall have "
        r"(?:the )?same dim )(?P<dim>\d)(?: should be (?:same as )?| \()(?P<value>[A-Za-z_][\w ]{0,40}?)"
        r"(?:, got -?\d{1,12}|\))",
        "A fused attention operator of onnxruntime (node {op|}, {arg|MultiHeadAttention, GroupQueryAttention "
        "or Attention}) checks, before it runs, that the dimensions of its inputs agree with each other and "
        "with the node's num_heads / kv_num_heads attributes, and input '{input}' does not (its dimension "
        "{dim} must be {value}). The past key and value caches must be (batch_size, num_heads or "
        "kv_num_heads, past_sequence_length, head_size), the BNSH layout, and query, key and value share the "
        "batch and sequence sizes: a cache built for another layout or head count, a batch size that differs "
        "between the feeds, or a node fused with another num_heads than the model has breaks that.",
        "Print session.get_inputs() and feed '{input}' with the shape listed there: build past_key and "
        "past_value as (batch, kv heads, past length, head size), with the batch of the query (zeros of past "
        "length 0 for the first step), and pass the present outputs back as the next step's past. If the "
        "feeds are right, the node was fused with the wrong head count: optimize the original model again "
        "(onnxruntime.transformers.optimizer with its real num_heads and hidden_size); for an "
        "onnxruntime-genai model, let its generator feed the cache as genai_config.json describes it.",
        "microsoft/onnxruntime: onnxruntime/contrib_ops/cpu/bert/multihead_attention_helper.h and "
        "group_query_attention_helper.h (CheckInputs: \"Input 'past_key' dimension 0 should be batch_size, "
        "got \", \"Input 'query' and 'key' shall have same dim 0 (batch size)\")",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-skip-layernorm-shape",
        ("onnxruntime",),
        "skip is expected to have same shape as input",
        r"skip is expected to have same shape as input",
        "The SkipLayerNormalization node {op|} adds its 'skip' input (the residual branch) to 'input' before "
        "normalizing, and the two reached it with different shapes. The node is a fusion of Add + "
        "LayerNormalization made by onnxruntime's transformer optimizer: it needs both operands of the "
        "original Add to have one shape, so a model whose Add broadcast (a residual of another sequence "
        "length or batch size) or feeds of another size than at optimization break it.",
        "Feed inputs of one batch and sequence size to both branches, as the model was exported for; if "
        "the original (unoptimized) model runs with these feeds, use it, or optimize again with "
        "onnxruntime.transformers.optimizer for the right model_type so the Add that broadcasts is not "
        "fused into {op|the SkipLayerNormalization node}.",
        "microsoft/onnxruntime: onnxruntime/contrib_ops/cpu/skip_layer_norm.cc and "
        "contrib_ops/cuda/bert/skip_layer_norm.cc ('skip is expected to have same shape as input')",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-coreml-ep-compile",
        ("onnxruntime",),
        "error compiling model",
        r"Error compiling model:?\s{0,2}(?P<detail>[^\n]{1,300})",
        "onnxruntime's CoreML execution provider turned the part of the graph it took into a Core ML "
        "model, and Core ML itself refused it while the session was created (compiling it with MLModel "
        "compileModelAtURL): '{detail}'. The EP's per-op checks let through "
        "a form this macOS/iOS version's Core ML cannot compile (a shape Core ML infers differently, an op "
        "attribute, a model format the OS lacks: ML Program needs macOS 12 / iOS 15), or the temporary "
        "directory it compiles into cannot be written.",
        "Confirm it is the CoreML EP by creating the session with CPUExecutionProvider only; then switch "
        "the CoreML EP's model format (provider option ModelFormat 'MLProgram' or 'NeuralNetwork'; flag "
        "COREML_FLAG_CREATE_MLPROGRAM in older releases) and allow static shapes only "
        "(RequireStaticInputShapes '1' / COREML_FLAG_ONLY_ALLOW_STATIC_INPUT_SHAPES), fixing the input "
        "sizes first with python -m onnxruntime.tools.make_dynamic_shape_fixed if the detail names a "
        "shape; a newer onnxruntime release checks more ops before handing them to Core ML.",
        "microsoft/onnxruntime: onnxruntime/core/providers/coreml/model/model.mm (loadModel: ORT_MAKE_STATUS "
        "FAIL 'Error compiling model ' / 'Error Creating MLModel ' + Core ML's localizedDescription); "
        "onnxruntime.ai docs, CoreML execution provider options",
        "",
        REASON,
    ),
    Clause(
        "ort-conv-output-size",
        ("onnxruntime",),
        "invalid input shape: ",
        r"Invalid input shape: (?P<shape>\{[^}\n]{0,120}\})",
        "The {arg|Conv} node {op|} computed an output size of zero or less from its input of shape {shape}: "
        "along a spatial axis the input plus its pads is smaller than the kernel's dilated extent, so no "
        "window fits - an image or feature map smaller than the model was built for (often after several "
        "stride-2 layers), or kernel, stride or pad attributes that do not fit this input.",
        "Feed a larger input (at least the size the model was exported with, or a multiple of its total "
        "stride), or resize or pad the image before inference; if the model should take this size, check "
        "{op|the node}'s kernel_shape, strides, dilations and pads in Netron.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/nn/conv_attributes.h "
        "(InferPadsAndOutputShape: 'Invalid input shape: ' + input_shape.ToString(), when an output "
        "dimension is <= 0)",
        _ORT_NODE,
        REASON,
    ),
    # --- onnxruntime: an exception's own location (OnnxRuntimeException: '<path>:<line> <function> ...'),
    # read by the component its path names (last resort; the last such location is the innermost failure) ---
    Clause(
        "ort-location-graph-optimizer",
        ("onnxruntime",),
        "optimizer",
        _ORT_LOCATION.format(r"core[/\\]optimizer"),
        "One of onnxruntime's graph optimizations failed while the session was created: the exception "
        "comes from {path}, a graph transformer (core/optimizer) that rewrites the loaded model before any "
        "kernel runs ({detail}). The model was read and resolved; the rewrite met a form of it the "
        "transformer did not expect (often a quantized or pre-optimized model from another release).",
        "Create the session with SessionOptions.graph_optimization_level = "
        "GraphOptimizationLevel.ORT_DISABLE_ALL (then ORT_ENABLE_BASIC) to confirm the optimization is the "
        "cause and run without it; in Python a single transformer can be left out with "
        "InferenceSession(path, sess_options, disabled_optimizers=['<its class name in {path}>']); a model "
        "made by onnxruntime's quantization or transformer-optimization tools should be regenerated with "
        "the release that runs it.",
        _ORT_EXCEPTIONS + "; onnxruntime/core/optimizer (graph transformers); python "
        "onnxruntime_inference_collection.py (InferenceSession kwargs 'disabled_optimizers'); onnxruntime.ai "
        "docs, Graph optimizations (graph_optimization_level)",
        "",
        REASON,
    ),
    Clause(
        "ort-location-execution-provider",
        ("onnxruntime",),
        "providers",
        _ORT_LOCATION.format(r"core[/\\]providers[/\\](?P<ep>(?!cpu[/\\]|shared_library[/\\])\w{2,40})"),
        "The {ep} execution provider's own code failed ({path}: {detail}): onnxruntime gave part of the "
        "graph to {ep}, and {ep} could not compile or run it (an op, shape, data type or memory request it "
        "does not handle, or its device or driver failed); the model's other part and the CPU kernels are "
        "not involved.",
        "Create the session with providers=['CPUExecutionProvider'] alone: if the model runs, {ep} is the "
        "cause; then give the node {op|it was running} a form {ep} takes (static input shapes, another "
        "opset or data type), keep that provider off it with its own provider options, or run with a "
        "release of onnxruntime whose {ep} provider supports it (its release notes list the fixes).",
        _ORT_EXCEPTIONS + "; onnxruntime/core/providers/<provider> (each execution provider's sources)",
        _ORT_NODE,
        REASON,
    ),
    Clause(
        "ort-location-graph-load",
        ("onnxruntime",),
        "graph",
        _ORT_LOCATION.format(r"core[/\\]graph"),
        "onnxruntime rejected the model while it loaded it: the exception comes from its graph code "
        "({path}: {detail}), which reads the ModelProto and resolves the graph (every node's inputs "
        "produced, its types and shapes inferred from the op schemas of the model's opset) before any "
        "optimization or execution provider sees it.",
        "Check the file itself: onnx.checker.check_model(path, full_check=True) and "
        "onnx.shape_inference.infer_shapes(onnx.load(path), strict_mode=True) name the node that breaks a "
        "rule; re-export the model with an opset and IR version this onnxruntime release supports (its "
        "versioning table), or run it with a newer onnxruntime if the model uses newer ones.",
        _ORT_EXCEPTIONS + "; onnxruntime/core/graph/graph.cc and model.cc (Graph::Resolve, type and shape "
        "inference at load); onnxruntime.ai docs, ONNX Runtime compatibility (opset and IR versions)",
        "",
        REASON,
    ),
    Clause(
        "ort-safeint-overflow",
        ("onnxruntime",),
        "integer overflow",
        r"safeint\.h:\d{1,6}[^\n]{0,300}?Integer overflow",
        "A size onnxruntime computed overflowed its integer type while {op|a node} ({arg|its operator}) "
        "ran: SafeInt throws 'Integer overflow' instead of wrapping, and the sizes it guards are element "
        "counts and byte sizes computed from tensor shapes, so a shape reaching that node is huge or holds "
        "a garbage or negative dimension.",
        "Check the shapes and shape values that reach {op|that node}: an output size computed from an input "
        "value (a Resize's sizes or scales, an Expand, Reshape or Tile target, a Range's limits) that is "
        "huge or negative; feed the input sizes the model was exported with and print the values feeding "
        "those inputs.",
        "microsoft/onnxruntime: onnxruntime/core/common/safeint.h "
        "(SafeIntExceptionHandler::SafeIntOnOverflow: ORT_THROW('Integer overflow'))",
        _ORT_NODE,
        REASON,
    ),
    # --- onnxruntime: its run-time envelope with nothing inside ('Non-zero status code returned while running
    # <Op> node. Name:'<n>'' with no Status Message), read by the op type it names (last resort: any error
    # printed on the lines after it is read first) ---------------------------------------------------------
    Clause(
        "ort-bare-envelope-memcpy",
        ("onnxruntime",),
        "memcpy",
        _ORT_BARE.format(r"Memcpy(?:To|From)Host"),
        "onnxruntime's {arg} node {op|} failed and its status carries no message. {arg} is a copy "
        "onnxruntime inserts where a device execution provider (CUDA, TensorRT, DirectML, ROCm) hands a "
        "tensor to the CPU or takes one from it (MemcpyTransformer); a copy to ordinary host memory waits "
        "for the device stream (cudaMemcpyAsync, then cudaStreamSynchronize). GPU kernels run "
        "asynchronously, so an error of an earlier kernel on that stream (an illegal memory access, an "
        "index out of range in a Gather or an embedding, a failed launch) is only reported here, at the "
        "first call that waits: the copy is rarely the cause itself.",
        "Rerun once with the environment variable CUDA_LAUNCH_BLOCKING=1 so that the kernel that fails "
        "reports itself, and read the provider's own error printed above this line (the CUDA EP's 'CUDA "
        "error ...' or 'CUDA failure N', the TensorRT EP's IExecutionContext error); run the same input "
        "with providers=['CPUExecutionProvider'] alone, where an index out of range or a bad shape is named "
        "by its own node (token ids beyond an embedding's vocabulary size are the usual one); "
        "compute-sanitizer python your_script.py names the kernel that reads out of bounds.",
        "microsoft/onnxruntime: onnxruntime/core/framework/memcpy.cc (Memcpy::Compute: "
        "DataTransferManager::CopyTensor, 'Copying <input> to <output>'); core/providers/cuda/"
        "gpu_data_transfer.cc (GPUDataTransfer::CopyTensor: 'copying from GPU to CPU memory, this is "
        "blocking': cudaMemcpyAsync then cudaStreamSynchronize); core/optimizer/transformer_memcpy.cc "
        "(MemcpyTransformer)",
        "",
        REASON,
    ),
    Clause(
        "ort-bare-envelope-tensorrt-ep",
        ("onnxruntime",),
        "trtkernel",
        _ORT_BARE.format(r"\w{0,80}TRTKernel\w{0,200}"),
        "{op|The node} is a fused node of onnxruntime's TensorRT execution provider: the part of the graph "
        "the EP gave to TensorRT, built (or loaded from trt_engine_cache_path) as one TensorRT engine and "
        "run as one kernel ({arg}). Its status carries no message here: TensorRT's own error is the line "
        "the TensorRT EP logged just before it ('[E:onnxruntime:Default, tensorrt_execution_provider.h:NN "
        "log] ... IExecutionContext::enqueueV3: Error Code N: ...' or an 'Error Code N' of the engine "
        "build).",
        "Read TensorRT's error on the lines above this one (set SessionOptions.log_severity_level = 0 to see "
        "every TensorRT EP line); run the same input with providers=['CUDAExecutionProvider', "
        "'CPUExecutionProvider'] to confirm that the TensorRT part fails; delete the cached engines "
        "(TensorrtExecutionProvider_TRTKernel_*.engine and .profile in trt_engine_cache_path) after any "
        "TensorRT, GPU or input-shape change so that the EP builds {op|the engine} again; keep the inputs "
        "within the trt_profile_min_shapes / trt_profile_max_shapes the engine was built for.",
        "microsoft/onnxruntime: onnxruntime/core/providers/tensorrt/tensorrt_execution_provider.cc (the "
        "fused node's compute function; ORT_MAKE_STATUS(ONNXRUNTIME, FAIL, 'TensorRT EP execution context "
        "enqueue failed.')); docs/execution-providers/TensorRT-ExecutionProvider (engine cache files "
        "TensorrtExecutionProvider_TRTKernel_graph_*.engine, trt_profile_*_shapes)",
        "",
        REASON,
    ),
    Clause(
        "ort-bare-envelope-ep-partition",
        ("onnxruntime",),
        "executionprovider_",
        r"Non-zero status code returned while running (?P<arg>\w{1,200}) node\.\s{0,4}Name:'(?P<op>"
        r"(?P<ep>[A-Za-z][A-Za-z0-9]{1,40})ExecutionProvider_[^'\n]{0,200})'"
        r"(?!\.?\s{0,4}Status Message:\s{0,8}\S)",
        "{op} is a node that onnxruntime's {ep} execution provider compiled for a part of the graph ({arg}): "
        "the whole partition runs as one kernel of {ep}, and it failed with no message in its status. {ep}'s "
        "own error is logged on the lines before this one; the model's nodes inside the partition are not "
        "named.",
        "Read {ep}'s error above this line (SessionOptions.log_severity_level = 0 prints every line of the "
        "provider); create the session without {ep} (providers=['CPUExecutionProvider']) to confirm the "
        "partition is the cause; then keep the failing ops off {ep} with its own provider options, give "
        "the model static input shapes, or use the onnxruntime release whose {ep} provider takes this graph.",
        "microsoft/onnxruntime: onnxruntime/core/framework/sequential_executor.cc (ExecuteKernel: 'Non-zero "
        "status code returned while running ', op type, ' node. Name:'); onnxruntime/core/providers/<ep> "
        "(each compiling provider names its fused nodes <ep>ExecutionProvider_<kernel>)",
        "",
        REASON,
    ),
    Clause(
        "ort-bare-envelope-control-flow",
        ("onnxruntime",),
        "status code returned while running",
        _ORT_BARE.format(r"If|Loop|Scan"),
        "{arg} node {op|} runs a subgraph (an If's then_branch or else_branch, a Loop's or Scan's body) with "
        "its own executor, and a node inside that subgraph failed: the {arg} node only passes the inner "
        "node's status on, so its own line names no reason. The inner node's error is the line logged just "
        "before it (the executor logs each failing kernel). An If branch that the exporter saw but never ran "
        "with these shapes, or a Loop body whose carried values change shape between iterations, are the "
        "usual causes.",
        "Read the inner node's 'Non-zero status code returned while running ...' line above this one (set "
        "SessionOptions.log_severity_level = 0 if there is none) and fix that node; print the shapes inside "
        "{op|the subgraph} with onnx.shape_inference.infer_shapes or onnxruntime.tools.symbolic_shape_infer "
        "on the model; if the {arg} came from torch.jit.script or data-dependent Python control flow, export "
        "with fixed inputs (tracing) so the branch or loop is unrolled, or simplify the model with onnxsim "
        "for fixed input shapes.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/controlflow/if.cc, loop.cc, "
        "scan_8.cc/scan_9.cc and utils.cc (ExecuteSubgraph: the subgraph's executor returns the inner "
        "node's status); core/framework/sequential_executor.cc (ExecuteKernel logs 'Non-zero status code "
        "returned while running <Op> node')",
        "",
        REASON,
    ),
    Clause(
        "ort-bare-envelope-shape-data",
        ("onnxruntime",),
        "status code returned while running",
        _ORT_BARE.format(r"Reshape|Expand|Concat|Gather(?:Elements|ND)?|Slice|Tile|Split"),
        "onnxruntime's {arg} kernel (node {op|}) failed at run time with no message in its status. {arg} "
        "moves data by sizes or indices that it reads from tensors at run time (Reshape's and Expand's shape "
        "input, the other dimensions of Concat's inputs, the indices of Gather, the starts/ends of Slice, "
        "Tile's repeats, Split's split sizes): computed from the input, they break when the input has a size "
        "other than the one the model was exported with, or an index lies outside its axis.",
        "Print what reaches {op|the node}: add its inputs as graph outputs (onnx.utils.extract_model, or "
        "Netron to find their names) and run the same input; check them against what {arg} needs (Reshape: "
        "equal element counts, 0 copies a dimension and -1 infers one; Expand: broadcastable shapes; "
        "Concat: equal dimensions except on the axis; Gather: indices within [-n, n-1] of the gathered "
        "axis); feed the input size the model was exported with, or re-export with dynamic_axes / "
        "dynamic_shapes so the values follow the input.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/tensor/reshape_helper.h, expand.cc, "
        "concat.cc, gather.cc, slice.cc, tile.cc, split.cc (the kernels' run-time checks of their shape and "
        "index inputs); core/framework/sequential_executor.cc (ExecuteKernel)",
        "",
        REASON,
    ),
    Clause(
        "ort-bare-envelope-qdq",
        ("onnxruntime",),
        "quantize",
        _ORT_BARE.format(r"(?:Dequantize|Quantize)Linear"),
        "onnxruntime's {arg} kernel (node {op|}) failed with no message in its status. {arg} checks its "
        "scale and zero point against its input (PrepareForQDQ): per-tensor quantization needs a scalar (or "
        "one-element) x_scale and x_zero_point, per-axis quantization a 1-D x_scale with one value per slice "
        "of the input along 'axis' (default 1), blocked quantization (block_size) an x_scale of the input's "
        "rank; and an execution provider other than the CPU may have no {arg} kernel for the quantized type "
        "(int4, int16, float8).",
        "Open the model in Netron and compare {op|the node}'s x_scale and x_zero_point with its input's "
        "shape along its axis (a per-channel scale on a weight transposed or reshaped after quantization no "
        "longer matches); regenerate the QDQ model with onnxruntime.quantization (quantize_static with "
        "per_channel and the matching axis) from the float model; run it with "
        "providers=['CPUExecutionProvider'] to see whether only another provider's kernel fails.",
        "microsoft/onnxruntime: onnxruntime/core/providers/cpu/quantization/quantize_linear.cc "
        "(PrepareForQDQ: 'x_zero_point must be null or a scalar or 1D tensor or size 1.', 'For per axis "
        "quantization, scale must be 1D tensor with size ', blocked quantization checks; kernels registered "
        "per type)",
        "",
        REASON,
    ),
    # --- s28f: a reason any tool's Python code prints (the tool's card answered it) ----------------------
    Clause(
        "python-none-has-no-attribute",
        (ANY,),
        "'nonetype' object has no attribute",
        r"'NoneType' object has no attribute '(?P<value>[\w.]{1,80})'",
        "The code read .{value} from a value that is None: the step that should have produced that object "
        "(an engine, a model, a session, a graph node) failed or returned nothing, and the code used its "
        "result without checking it. This line is a consequence; the failure is that earlier step's.",
        "Find the call whose result is used here (the traceback's last frame reads x.{value} on it) and "
        "check that result before using it (if x is None: stop and print the tool's log); then fix the "
        "reason that call failed, which the tool logged before this traceback (TensorRT's "
        "build_serialized_network or deserialize_cuda_engine return None after logging their error); "
        "{card_fix}",
        "Python's AttributeError wording for None; TensorRT Python API (IBuilder.build_serialized_network, "
        "IRuntime.deserialize_cuda_engine return None on failure); dev threads "
        "RizhaoCai/PyTorch_ONNX_TensorRT#3, hukkelas/DSFD-Pytorch-Inference#15",
        "",
        REASON,
    ),
    # --- s28f: last resorts: a traceback's last exception, a C++ what() line; after every other clause ------
    *NATIVE_CALL_CLAUSES,  # s38c: a last frame that calls native code, before the two below
    # --- s29f: a traceback that ends in an exception with no message: the raising frame is all there is -----
    Clause(
        "python-traceback-bare-exception",
        (ANY,),
        'file "',
        r'File "(?P<file>[^"\n]{1,300})", line (?P<line>\d{1,7}), in (?P<call>[\w.<>]{1,160})\n'
        r"(?:(?![^\n]{0,40}File \")[^\n]{0,300}\n){0,2}?(?:E(?: \w{1,30}:)? )?"
        r"(?P<value>[A-Za-z_][\w.]{0,100}(?:Error|Exception))[ \t]*(?:\n|$)",
        "The step failed with a bare {value}, an exception with no message, raised in {call} (line {line} of "
        "{file}): the traceback's last frame is the only thing that says where it failed. Code raises an "
        "exception without text after a check of its own (a status or return value it tested, a result "
        "that was empty) or re-raises a native error whose text went to the log instead.",
        "Open {file} at line {line} (in {call}) and read the check just before the raise: the condition it "
        "tests is the reason; the tool's own log lines printed before the traceback (warnings or errors of "
        "that step) usually say which value failed it. If that frame is the tool's, act on the step it "
        "belongs to: {card_fix}",
        "Python's traceback layout (the last 'File ..., line N, in f' frame, then the exception's class "
        "with no ': message' after it)",
        "",
        REASON,
    ),
    Clause(
        "python-traceback-last-exception",
        (ANY,),
        'file "',
        r'File "(?P<file>[^"\n]{1,300})", line \d{1,7}, in (?P<call>[\w.<>]{1,160})\n'
        r"(?:(?![^\n]{0,40}File \")[^\n]{0,300}\n){0,2}?(?:E(?: \w{1,30}:)? )?"
        r"(?P<value>[A-Za-z_][\w.]{0,100}(?:Error|Exception))"
        r"(?::[ \t]{0,4}(?P<detail>[^\n]{1,300}))?[ \t]*(?:\n|$)",
        "The step failed with {value} ({detail|no message}), raised in {call} ({file}): that exception, the "
        "traceback's last line, says what went wrong; the lines that report the step around it only say "
        "which step caught it.",
        "Start from the exception: its message names the value, file or op that was refused, and the "
        "frame's file says which part raised it (your own script, a loader, a quantiser, a graph pass of "
        "the tool). If it is your code, fix that line; if it is the tool's, act on that part: {card_fix}",
        "Python's traceback layout (the last 'File ..., line N, in f' frame, then 'Type: message')",
        "",
        REASON,
    ),
    Clause(
        "cpp-exception-what",
        (ANY,),
        "what():",
        r"terminate called after throwing an instance of '(?P<value>[^'\n]{1,160})'\s{0,8}\n"
        r"\s{0,8}what\(\):\s{1,4}(?P<detail>[^\n]{3,400})",
        "The process stopped on a C++ exception ({value}) that nothing caught; its message is the reason: "
        "{detail}.",
        "Act on that message: it names the check or the value that failed (a shape, a file, an op, a "
        "device); catch the exception around the call to keep the process alive (try/catch on "
        "std::exception in C++, the binding's exception in Python) and read its text; {card_fix}",
        "C++ runtime: std::terminate's 'terminate called after throwing an instance of ...' and the "
        "exception's what()",
        "",
        REASON,
    ),
)
"""The clauses, tried in this order: a tool's own before any tool's."""

# --- s38c: TensorRT's parameter check read by the API it names ---------------------------------------------
# The generic 'trt-parameter-check' clause read every check as a run-time one (bindings, input shapes, the
# profile in use), also where the message names a call of the network definition or the builder.  The call
# (TensorRT 8's '<file>::<function>::<line>', TensorRT 10's '<interface>::<function>: Error Code') says the
# stage; the interfaces and their methods are TensorRT's public headers' (NVIDIA/TensorRT include/NvInfer.h,
# NvInferRuntime.h, 8.6.1 and main).  A call of none of these keeps the generic clause, which says less.
_TRT_CHECK_SOURCE = (
    "NVIDIA TensorRT: the API's parameter checks ('Parameter check failed at: <file>::<function>::<line>, "
    "condition: <expression>'; TensorRT 10: '<interface>::<function>: Error Code 3: API Usage Error "
    "(Parameter check failed, condition: ...)', ErrorCode kINVALID_ARGUMENT); "
)
_TRT_CHECK_WHERE = re.compile(r"at: ([^\s,]{1,300}?)(?:::\d{1,6})?,")
"""The TensorRT 8 form's file and function ('runtime/api/executionContext.cpp::...::enqueueInternal')."""


def _trt_stage_clause(stage: str, cause: str, fix: str, source: str) -> Clause:
    """The clause of a parameter check of one stage's calls: the generic clause's wording with its own
    advice (:data:`TRT_CHECK_STAGES`)."""
    return Clause(
        f"trt-parameter-check-{stage}",
        ("tensorrt",),
        "parameter check failed",
        _TRT_PARAMETER_CHECK,
        cause,
        fix,
        _TRT_CHECK_SOURCE + source,
        _TRT_CALL_CONTEXT,
        REASON,
    )


TRT_CHECK_STAGES: tuple[tuple[str, Clause], ...] = (
    (
        r"\bIRefitter::|(?:^|::)(?:setNamedWeights|refitCudaEngine(?:Async)?)$",
        _trt_stage_clause(
            "refit",
            "TensorRT's refitter refused {call|the call}: its check '{value}' was false. Refitting replaces "
            "weights of an engine that was built refittable; the refitter takes new weights only under the "
            "name of refittable weights (or a layer and role) of that engine, with the same count and data "
            "type as the weights it was built with.",
            "Build the engine refittable (BuilderFlag.REFIT, trtexec --refit), take the names from "
            "refitter.get_all_weights() and what is still missing from refitter.get_missing_weights(), pass "
            "weights of the count and data type the engine was built with (refitter.get_weights_prototype("
            "name) shows both), then call refit_cuda_engine().",
            "NvInferRuntime.h (IRefitter::setNamedWeights / setWeights: rejected when the name is nullptr "
            "or no refittable weights, or the count or type is inconsistent with the original; "
            "getAllWeights, getMissingWeights, getWeightsPrototype); NvInfer.h (BuilderFlag::kREFIT)",
        ),
    ),
    (
        r"\bIRuntime::|(?:^|::)deserializeCudaEngine$",
        _trt_stage_clause(
            "deserialize",
            "IRuntime::deserializeCudaEngine refused the engine data it was given ({call|the call}): its "
            "check '{value}' was false, so no engine was created, and what uses the engine next (an "
            "assertion that it exists, a call on None) fails after it. The check is on the buffer passed: "
            "its address and size.",
            "Check what the program passed: the engine file read whole in binary mode (open(path, "
            "'rb').read(); in C++ std::ifstream with std::ios::binary and the size read), a path that exists "
            "from the working directory, and an engine file (trtexec --saveEngine, "
            "build_serialized_network), not the ONNX model. If the buffer is right and deserialization "
            "still fails, TensorRT's next lines name an engine built by another TensorRT version (rebuild "
            "it with this one) or a plugin that is not registered (load its library and call "
            "trt.init_libnvinfer_plugins(logger, '') before deserializing).",
            "NvInferRuntime.h (IRuntime::deserializeCudaEngine(void const* blob, std::size_t size): "
            "returns nullptr when the engine could not be deserialized)",
        ),
    ),
    (
        r"\bIOptimizationProfile::",
        _trt_stage_clause(
            "profile",
            "An optimization profile refused {call|the call}: its check '{value}' was false. A profile "
            "gives each dynamic input its minimum, optimum and maximum shape, with 0 <= min <= opt <= max "
            "in every dimension and the network's own size wherever the input's dimension is not -1.",
            "Give {call|the profile} consistent shapes: profile.set_shape(name, min, opt, max) with the "
            "rank of the network input, every dimension non-negative and min <= opt <= max, and the fixed "
            "(not -1) dimensions equal to the network's (trtexec: --minShapes/--optShapes/--maxShapes with "
            "each shape written out in full).",
            "NvInferRuntime.h (IOptimizationProfile::setDimensions: '0 <= minDims.d[i] <= optDims.d[i] <= "
            "maxDims.d[i]', 'if networkDims.d[i] != -1, then minDims.d[i] == optDims.d[i] == maxDims.d[i] "
            "== networkDims.d[i]')",
        ),
    ),
    (
        r"\bIBuilder(?:Config)?::|builderConfig\.cpp::|(?:^|::)(?:canRunOnDLA|setDefaultDeviceType|"
        r"setDeviceType|setMemoryPoolLimit|setMaxWorkspaceSize|buildSerializedNetwork|buildEngineWithConfig|"
        r"addOptimizationProfile)$",
        _trt_stage_clause(
            "builder",
            "TensorRT's builder refused {call|the call}: its check '{value}' was false. It is a call on the "
            "build or its configuration (IBuilder / IBuilderConfig: builder flags, the device type or DLA "
            "core, memory pool limits, optimization profiles), made before any engine exists: no execution "
            "context, binding or input buffer is involved.",
            "Read '{value}' against the value the code passes to {call|the call}: an enum value out of "
            "range (a flag, device type or tactic source) is one this TensorRT does not define: check that "
            "the Python tensorrt package and the libnvinfer it loads are the same release "
            "(tensorrt.__version__) and that the value comes from that release; a DLA check (canRunOnDLA, "
            "DLA cores) needs a device with DLA cores (builder.num_DLA_cores > 0: Jetson Xavier or Orin), so "
            "elsewhere build for the GPU (no --useDLACore, default_device_type GPU).",
            "NvInfer.h (IBuilderConfig::setFlag, getFlag, canRunOnDLA, setDLACore, setDefaultDeviceType; "
            "IBuilder::getNbDLACores)",
        ),
    ),
    (
        r"\bI(?:ExecutionContext|CudaEngine)::|executionContext\.cpp::|ExecutionContext::|"
        r"(?:^|::)(?:setBindingDimensions|setInputShape(?:Binding)?|set(?:Input|Output)?TensorAddress|"
        r"enqueue(?:V2|V3)?|execute(?:V2)?|enqueueInternal|executeInternal|setOptimizationProfile(?:Async)?|"
        r"resolveSlots)$",
        _trt_stage_clause(
            "context",
            "TensorRT's execution context refused {call|the call}: its check '{value}' was false, so the "
            "call returned without running. It is a run-time API usage error: the condition is written in "
            "terms of what the application gave the context (tensor addresses or bindings, input "
            "dimensions, the optimization profile, the stream), not a fault of the model or the engine.",
            "Read '{value}' against what was passed to {call|the call}: a null address (bindings[x], a "
            "tensor address) means an input or output has no device buffer: allocate one for every I/O "
            "tensor and set it (context.set_tensor_address for each engine.get_tensor_name(i)); a "
            "comparison of dimensions means a shape outside the profile's kMIN..kMAX or not set yet "
            "(set_input_shape before enqueue); a profile index means set_optimization_profile_async first.",
            "NvInferRuntime.h (IExecutionContext: setInputShape, setTensorAddress, enqueueV3, "
            "setOptimizationProfileAsync; TensorRT 8: setBindingDimensions, enqueueV2, executeV2)",
        ),
    ),
    (
        r"\bI(?:NetworkDefinition|Tensor|\w{0,40}Layer)::|(?:^|/)Network\.(?:h|cpp)::|"
        r"(?:^|::)(?:add[A-Z]\w{0,60}|markOutput)$",
        _trt_stage_clause(
            "network",
            "TensorRT's network definition refused {call|the call}: its check '{value}' was false, so the "
            "call did nothing (an add call returns no layer, and the code that uses that layer next, an "
            "assertion or a null pointer, only follows from it). This happens while the network is being "
            "defined, before any build or inference: the check is on what the code defining the network (a "
            "parser, a converter or your own API code) passed, typically a tensor or plugin that is null or "
            "not part of this network, a null name, weights whose count or values do not fit the layer, or "
            "dimensions the layer does not take.",
            "Find the {call|network} call in the code that defines the network and check its arguments "
            "against '{value}': every ITensor passed must come from this network (network.get_input(i), a "
            "layer's get_output(0)) and not be None; a plugin passed to add_plugin_v2 must not be None "
            "(get_plugin_creator returns None for a plugin whose library is not loaded: call "
            "trt.init_libnvinfer_plugins(logger, '') or load the library first); Weights must hold the "
            "number of values the layer needs (a scale layer's shift, scale and power: one in all, one per "
            "channel or one per element by its mode) and have values whenever their count is not 0; names "
            "must not be null. With a parser or converter (the ONNX parser, torch2trt, Torch-TensorRT) the "
            "arguments come from the model: check the node it was importing.",
            "NvInfer.h (INetworkDefinition::add* return nullptr when a parameter is invalid; IScaleLayer's "
            "ScaleMode kUNIFORM/kCHANNEL/kELEMENTWISE; ITensor::setName, ILayer::setName); "
            "NvInferRuntime.h (IPluginRegistry::getPluginCreator)",
        ),
    ),
)
"""The stage clauses of TensorRT's parameter check, each after the pattern of the calls it reads (the
interface of TensorRT 10's form, the file or function of TensorRT 8's), tried in this order."""
STAGED = {"trt-parameter-check": TRT_CHECK_STAGES}
"""The clauses whose reading depends on the call the message names: the first of their stage clauses whose
pattern the call matches answers in their place (:func:`_staged`)."""


def _staged(clause: Clause, found: re.Match[str], text: str) -> Clause:
    """``clause``, or the stage clause of :data:`STAGED` for the call its match names (TensorRT 8's
    ``at: <file>::<function>``, else TensorRT 10's ``<interface>::<function>: Error Code`` in ``text``)."""
    stages = STAGED.get(clause.id)
    if stages is None:
        return clause
    subject = _call_named(found, text)
    return next((c for rx, c in stages if subject and _regex(rx).search(subject)), clause)


def _call_named(found: re.Match[str], text: str) -> str:
    """The call a TensorRT parameter check names: its TensorRT 8 location, else its TensorRT 10 interface and
    function; "" when the message names neither."""
    where = _TRT_CHECK_WHERE.search(found.group(0))
    if where is not None:
        return where.group(1)
    context = _regex(_TRT_CALL_CONTEXT).search(text)
    return context.group("call") if context is not None else ""


_compiled: dict[str, re.Pattern[str]] = {}


def _regex(pattern: str) -> re.Pattern[str]:
    rx = _compiled.get(pattern)
    if rx is None:
        rx = _compiled[pattern] = re.compile(pattern)
    return rx


def refine(matches: list[Match], text: str) -> list[Match]:
    """``matches`` (ranked) with, for each tool, the best-ranked card whose own part of ``text``
    (:func:`card_text`) holds a clause of that tool answered by that clause; when a card of the same tool
    ranks above it, the answered card takes that card's place and score (it says what the other only
    names: a ``161002`` card above the ``EZ1001`` line that states the constraint); a family card, which
    reads the whole text, is answered only where no other card of its tool ranks above it.  A card ranked
    under a specific entry of its tool found by its pattern is not answered (the entry already says what
    the clause would: the advice is said once), nor by a clause of any tool's text under a specific entry of
    another tool found by its pattern (onnx's own entry for a check that onnxruntime's status card quotes).
    Every other match is as it was.  A call clause that only names the call over the card's own advice
    (``{card}``, :data:`CALL`) answers a tool's card only where no other clause answers a card of that tool
    (the ``EZ1001`` line's constraint says more than ``aclnnAdd returned 161002``)."""
    lowered = text.lower()
    if not any(c.literal in lowered for c in CLAUSES):
        return matches
    done: set[str] = set()
    unanswered: set[tuple[str, str, bool, bool, bool]] = set()
    out = _refine_pass(matches, text, done, naming=False, unanswered=unanswered)
    return _refine_pass(out, text, done, naming=True, unanswered=unanswered)


def _refine_pass(
    matches: list[Match],
    text: str,
    done: set[str],
    naming: bool,
    unanswered: set[tuple[str, str, bool, bool, bool]] | None = None,
) -> list[Match]:
    """One pass of :func:`refine` over the tools not in ``done`` (which it extends): with ``naming``, by the
    call clauses that name the call over the card's advice only; else by every other clause.  ``unanswered``
    holds what :func:`_refined` found no clause for (its result depends on the card only through these: a
    text with many cards of one tool, found by their words, reads the clauses once, not once per card)."""
    out = list(matches)
    answered_above = False  # a specific entry of some tool, found by its pattern, ranks above
    for i, m in enumerate(matches):
        family = m.entry.family
        if family in done:
            continue
        if not _is_card(m):
            if "pattern" in m.reason.split("+"):
                done.add(family)  # a specific entry of the tool already answers the message's own wording
                if is_bare_envelope(m):
                    out = _bare_answered(out, m, text, any_tool=not answered_above)
                answered_above = True
            continue
        first = next(j for j, o in enumerate(out) if o.entry.family == family and _is_card(o))
        if first != i and m.entry.level == "family":
            continue  # a family card reads the whole text: it never passes a card of a code
        answered = _refined(m, text, any_tool=not answered_above, naming=naming, unanswered=unanswered)
        if answered is None:
            continue
        done.add(family)
        if first == i:
            out[i] = answered
        else:
            del out[i]
            out.insert(first, answered._replace(score=max(answered.score, out[first].score)))
    return out


def runtime_answered(matches: list[Match], text: str) -> list[Match]:
    """``matches`` (ranked, after :func:`refine`) with a first match that is its tool's card (a family card, a
    code-range or scheme entry or a code card that no clause answered; not an envelope, whose advice says
    what the tool was doing around the reason it quotes and quotes it), found by the tool's
    markers, code or pattern, answered by an entry of text any tool prints (``runtime``: the C++ library,
    the dynamic loader, the OS) that its own part of ``text`` (:func:`card_text`) holds, found there by its
    pattern: ``OSError: /usr/lib/libx.so: invalid ELF header`` in a message that names RKNN says what failed
    (the file is no library), which the RKNN card does not.  The tool, code and keys stay the card's (a
    runtime entry answers first only where no tool is named); the runtime match leaves the list (its advice
    is the first answer's).  A process ending or another consequence (a signal, ``terminate called``), a
    generic runtime entry and wording alone answer nothing: they say how the process ended, not why."""
    if not matches:
        return matches
    top = matches[0]
    reasons = top.reason.split("+")
    if top.entry.family in RUNTIME_FAMILIES or "+" in top.entry.id or "words" in reasons or not _is_card(top):
        return matches
    if is_envelope(top):
        return matches  # it already says what the tool was doing around the reason it quotes (Core ML's E5RT)
    own: str | None = None
    for j, m in enumerate(matches[1:], 1):
        e = m.entry
        if (
            e.family not in RUNTIME_FAMILIES
            or e.consequence
            or e.generic
            or "pattern" not in m.reason.split("+")
        ):
            continue
        if own is None:
            own = card_text(top, text)
        found = e.search(own)
        if found is None:
            continue
        codes = [r for r in reasons if r in ("code", "shared code")]
        answered = _answered_as(top, e.id, e.cause, e.fix, e.source, m.captures, [*codes, "pattern"])
        return [answered, *matches[1:j], *matches[j + 1 :]]
    return matches


LAST_RESORT = frozenset(
    {"python-traceback-bare-exception", "python-traceback-last-exception", "cpp-exception-what"}
    | {c.id for c in NATIVE_CALL_CLAUSES}  # s38c
)
"""Clauses that only pass on the text of a failure (a traceback's last exception, an uncaught C++
exception's ``what()``): :func:`refine` never uses them; :func:`last_resort_answered` does, after every
clause and runtime entry had its turn."""


def last_resort_answered(matches: list[Match], text: str) -> list[Match]:
    """``matches`` (ranked, after :func:`refine` and :func:`runtime_answered`) with a first match that is a
    tool's family card or a wrapper's card (level ``context``) nothing answered, found by the tool's markers
    or its pattern, answered by a :data:`LAST_RESORT` clause read on its own part of ``text``: the failure the
    message ends with leads, the card's own advice stays in the fix.  A code card, a code-range entry or an
    entry already answered keeps its advice (it says what its code means; the failure's text says less)."""
    if not matches:
        return matches
    top = matches[0]
    if (
        "+" in top.entry.id
        or "words" in top.reason.split("+")
        or top.entry.level not in ("family", "context")
    ):
        return reason_line_answered(matches, text)
    own = card_text(top, text)
    low = own.lower()
    for clause in CLAUSES:
        if clause.id not in LAST_RESORT or clause.literal not in low:
            continue
        found = _regex(clause.pattern).search(own)
        if found is not None:
            return [_answered_by(top, clause, _parts(found, clause, text)), *matches[1:]]
    if top.entry.level == "family":
        return reason_line_answered(matches, text)
    return matches


REASON_LINE_ID = "message-reason-line"
"""The id a card answered by its message's own reason line takes after its own (``family-tflite+...``)."""
REASON_LINE_SOURCE = "the message's own text: the line that states its reason (an exception, a failed check)"


_WHERE_PRINTED = {
    (True, True): " (the check at {file}, line {line})",
    (True, False): " (printed at {file}, line {line})",
}
"""Where a reason line was printed, by (it names a source file, it states a checked condition)."""


def reason_line_answered(matches: list[Match], text: str) -> list[Match]:
    """``matches`` (ranked, after every clause, runtime entry and last resort) with a first match that is a
    tool's family card, or a generic card of no code that captured nothing (a checklist that fits any
    failure of a step), answered by the line of ``text`` that states the failure's own reason
    (:func:`.reasons.reason_line`): that line leads, whole, with the source file and line or the name it
    quotes (:func:`.reasons.named_parts`); the card's first sentence says which tool it is and its steps stay
    in the fix.  Nothing is said that the line does not say; a message with no such line (a traceback cut
    before its exception, only a location, only how the process ended) keeps the card.  How the card was
    found stays as it was (a card found by wording alone stays as sure as wording), with ``pattern`` added
    where the tool was known by its markers or code."""
    if not matches:
        return matches
    top = matches[0]
    e = top.entry
    if e.level != "family":  # a card already answered (``_answered_as``) has no level of its own
        return matches
    line = reason_line(text)
    if not line:
        return matches
    parts = (("detail", line), *named_parts(line))
    named = dict(parts)
    check = CHECK.search(line) is not None
    where = _WHERE_PRINTED.get(("file" in named, check), "")
    quote = f'The message states its own reason in this line: "{{detail}}"{where}.'
    reasons = top.reason.split("+")
    how = reasons if "words" in reasons else [*[r for r in reasons if r != "pattern"], "pattern"]
    from dumpscope.core.knowledge.reason_kinds import reason_kind  # only here: a quote's kind

    read = reason_kind(line)
    if read is not None:
        kind, values = read
        parts = (*[p for p in parts if p[0] not in dict(values)], *values)
        cause = f"{quote} {kind.cause} {_first_sentence(e.cause)}"
        fix = f"{kind.fix} For the step in general: {e.fix}"
        source = f"{REASON_LINE_SOURCE}, read as a reason of kind '{kind.name}' (dumpscope's reason kinds)"
        return [_answered_as(top, REASON_LINE_ID, cause, fix, source, parts, how), *matches[1:]]
    cause = f"{quote} {_first_sentence(e.cause)}"
    fix = _quote_fix(named, check, e.fix)
    answered = _answered_as(top, REASON_LINE_ID, cause, fix, REASON_LINE_SOURCE, parts, how)
    return [answered, *matches[1:]]


def _quote_fix(named: dict[str, str], check: bool, card_fix: str) -> str:
    """The fix of a reason line quoted with no kind read (:func:`reason_line_answered`): where to start by
    what the line names (a checked condition at a source file, a quoted name, or neither), then the card's
    steps (``card_fix``)."""
    if "file" in named and check:
        act = "read the condition checked at {file}, line {line}: the values it compares are"
    elif "value" in named:
        act = "it names '{value}'; that name and the check, shape, data type or file the line states are"
    else:
        act = "the check, value, shape, data type, op or file it names is"
    return (
        f"Start from that line: {act} where to look (in the model, its inputs, the call's arguments or the "
        "tool's options); the line is the tool's own text, which no more specific entry here explains. "
        f"For the step in general: {card_fix}"
    )


def _first_sentence(text: str) -> str:
    """The first sentence of a card's cause (``The message comes from OpenVINO.``): which tool it is."""
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


ENVELOPE_REASON = Clause(
    "envelope-inner-reason",
    (ANY,),
    "",
    "",
    'The failure\'s own reason, which the envelope around it only passes on: "{detail}". {card}',
    "Start from that reason: the check, value, shape, data type, file or provider limit it names is what to "
    "change (in the model, its inputs or the session's options); the envelope only says which step carried "
    "it. For that step: {card_fix}",
    "the envelope's own layout: the inner reason it quotes, read to the end of its line",
)
"""What an envelope card (:func:`is_envelope`, no code of its own) whose cause does not quote the reason it
captured says when nothing else answered it (:func:`envelope_reason_answered`): the reason leads, whole."""
MAX_REASON = 600
"""An inner reason is read to the end of its line, at most this many characters (cut at a space)."""

CODE_REASON = Clause(
    "code-own-reason",
    (ANY,),
    "",
    "",
    'The message states its own reason next to the code: "{detail}". That reason is what failed; the code '
    "only classifies it: {card}",
    "Start from that reason: {hint}. For the code in general: {card_fix}",
    "the code's own layout: the reason printed with the code, read to the end of its line",
)
"""What a code card (a code-range or status card, or a code card without a pattern of its own) says when the
message prints a reason with its code (TensorRT's ``Error Code 4: Internal Error (<reason>)``, onnxruntime's
``[ONNXRuntimeError] : 10 : INVALID_GRAPH : <reason>``) and nothing else answered it
(:func:`envelope_reason_answered`): the reason leads, whole, and the fix starts from it; what the card says of
the code follows."""
MIN_REASON_WORDS = 4
"""A captured reason of fewer words is no reason the card leads with: ``Non-zero`` (a line wrapped after the
status), or a short status phrase the card itself explains (``Protobuf serialization failed``: onnxruntime's
INVALID_PROTOBUF card says what a failed save means)."""


def without_reason_sentence(cause: str) -> str:
    """``cause`` without its sentences that quote the ``{reason}`` placeholder (:data:`CODE_REASON` quotes
    the reason first and whole)."""
    sentences = re.split(r"(?<=[.)'])\s+(?=[A-Z])", cause)
    kept = [s for s in sentences if "{reason" not in s]
    return " ".join(kept) if kept else cause


def states_own_reason(m: Match, reason: str) -> bool:
    """Whether ``m`` is a code's card (a code-range or status card, or a code card: what it says is true of
    any message with its code) over a message that prints its own reason with the code: the reason has at
    least :data:`MIN_REASON_WORDS` words, and the card captured nothing else that names the failure."""
    e = m.entry
    if not (e.generic or is_code_card(m)) or not e.keys:
        return False
    if len(re.findall(r"[A-Za-z][\w./:-]*", reason)) < MIN_REASON_WORDS:
        return False
    return all(k in ("reason", "category") for k, _ in m.captures)


def code_reason_answered(m: Match, reason: str) -> Match:
    """The code card ``m`` answered by :data:`CODE_REASON` with ``reason`` (read whole) leading: the card's
    cause follows without its own sentence about the reason, its fix after the reason's."""
    e = m.entry
    card = without_reason_sentence(e.cause)
    own = tuple((k, v) for k, v in m.captures if k != "reason")
    captures = (("detail", reason.rstrip().rstrip(".").rstrip()), *own)
    from dumpscope.core.knowledge.reason_kinds import reason_hint, reason_kind  # only here: a reason's kind

    source = CODE_REASON.source
    cause = CODE_REASON.cause.replace("{card}", card)
    read = reason_kind(reason)
    if read is not None:  # the kind's cause right after the reason it reads; its values fill cause and fix
        kind, values = read
        cause = cause.replace('"{detail}". ', f'"{{detail}}". {kind.cause} ', 1)
        captures = (*[c for c in captures if c[0] not in dict(values)], *values)
        source = f"{source}, read as a reason of kind '{kind.name}' (dumpscope's reason kinds)"
    fix = CODE_REASON.fix.replace("{hint}", reason_hint(reason)).replace("{card_fix}", e.fix)
    codes = [r for r in m.reason.split("+") if r in ("code", "shared code")]
    return _answered_as(m, CODE_REASON.id, cause, fix, source, captures, [*codes, "pattern"])


def whole_reason(reason: str, text: str) -> str:
    """``reason`` (a capture that a pattern's bound may have cut: ``[^\\n]{1,120}``) read on in ``text`` to
    the end of its line, without the final period, at most :data:`MAX_REASON` characters (cut at a space,
    with an ellipsis); ``reason`` itself when ``text`` does not hold it."""
    start = text.find(reason)
    if start < 0:
        return reason
    line = text[start:].split("\n", 1)[0].rstrip().rstrip(".").rstrip()
    if len(line) <= MAX_REASON:
        return line if len(line) >= len(reason.rstrip(" .")) else reason
    cut = line[:MAX_REASON].rsplit(" ", 1)[0]
    return f"{cut} ..."


def reason_ends_pattern(pattern: str) -> bool:
    """Whether ``pattern``'s ``reason`` group is the last thing it reads (only closing brackets and
    quantifiers after it) and reads any character but a newline up to a bound (``[^\\n]{1,120}``): only then
    did the pattern's bound, not a literal after the reason (``... Domain:``) or a class that stops at a
    period (``[^.\\n]``), end what it captured."""
    start = pattern.find("(?P<reason>")
    if start < 0:
        return False
    depth, i, in_class = 0, start, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                break
        i += 1
    body = pattern[start + len("(?P<reason>") : i]
    if re.fullmatch(r"\[\^\\n\]\{\d{1,4},\d{1,4}\}\??", body) is None:
        return False  # a class that stops at a period or bracket ends the reason itself, not its bound
    rest = pattern[i + 1 :].split("|", 1)[0]
    return re.fullmatch(r"[)?*+]*(?:\{\d{0,4},?\d{0,4}\})?[)?*+]*", rest) is not None


def envelope_reason_answered(matches: list[Match], text: str) -> list[Match]:
    """``matches`` (ranked, after every clause, runtime entry and last resort) with a first match that
    captured the inner reason, found by its pattern and answered by nothing, made to say that reason whole:
    a cause that quotes ``{reason}`` gets it read to the end of its line where the pattern's bound ended it
    (:func:`reason_ends_pattern`; onnxruntime's status cards stop at 300 characters); an envelope of no code
    (:func:`is_envelope`) whose cause does not quote it is answered by :data:`ENVELOPE_REASON`, the reason
    first and the card's own cause and fix after it (the node the card names stays in them: onnxruntime's
    ``Status Message:`` was cut at 120 characters and never quoted)."""
    if not matches:
        return matches
    top = matches[0]
    e = top.entry
    reason = dict(top.captures).get("reason", "")
    if (
        not reason
        or "+" in e.id
        or e.level in ("family", "context")
        or "pattern" not in top.reason.split("+")
    ):
        return matches
    whole = whole_reason(reason, text) if reason_ends_pattern(e.pattern) else reason
    if states_own_reason(top, whole):
        return [code_reason_answered(top, whole), *matches[1:]]
    if "{reason" in e.cause:
        captures = tuple((k, whole if k == "reason" else v) for k, v in top.captures)
        return [top._replace(captures=captures), *matches[1:]]
    if e.keys or e.generic:
        return matches  # a code's card: what it says of the code stays its answer
    own = tuple((k, v) for k, v in top.captures if k not in ("reason", "detail"))
    answered = _answered_by(top, ENVELOPE_REASON, (("detail", whole),))
    return [answered._replace(captures=(("detail", whole), *own)), *matches[1:]]


def is_envelope(m: Match) -> bool:
    """An entry that captured the inner message as ``reason``: without a code of its own, or with a code
    whose only part is that reason (``EE1001 ... Reason: ...``; an ``E10001`` that names the option and the
    value is no envelope), or what surrounds a failure (``level`` ``context``: a Python wrapper's step that
    caught the exception its traceback ends with, a warning printed before the failure).  A generic entry is
    capped below any specific match already."""
    if m.entry.level == "context":
        return True
    names = [name for name, _ in m.captures]
    if m.entry.generic or "reason" not in names:
        return False
    return not m.entry.keys or names == ["reason"]


def is_bare_envelope(m: Match) -> bool:
    """An envelope entry (its pattern captures the inner message as ``reason``; no code of its own) that
    matched with nothing inside: onnxruntime's 'Non-zero status code returned while running <Op> node.
    Name:'<n>'' with no Status Message.  It names what failed, not why: a clause of its tool read on its own
    lines (the op type it names, a line after it without a code) may say more (:func:`_bare_answered`)."""
    e = m.entry
    return (
        not e.keys
        and not e.generic
        and "(?P<reason>" in e.pattern
        and not any(name == "reason" for name, _ in m.captures)
    )


def _bare_answered(out: list[Match], m: Match, text: str, any_tool: bool) -> list[Match]:
    """``out`` with the bare envelope ``m`` (:func:`is_bare_envelope`) answered in its place by the first
    clause of its tool (and, with ``any_tool``, of any tool) on its own lines; ``out`` as it was when none
    speaks."""
    answered = _refined(m, text, any_tool=any_tool)
    if answered is None:
        return out
    return [answered if o is m else o for o in out]


def is_code_card(m: Match) -> bool:
    """A specific entry of one code whose pattern, if any, says nothing beyond the code (``\\bEZ1001\\b``, or
    ``level`` ``code``: the code in each form its tool prints, ``RKNN_ERR_FAIL`` or ``rknn_init ... ret=-1``):
    what it says is true of any message with that code, not of this message's reason."""
    e = m.entry
    if e.level == "code":
        return bool(e.keys) and not e.generic
    return bool(e.keys) and not e.generic and e.level != "family" and (not e.pattern or not e.words)


def _is_card(m: Match) -> bool:
    """A match whose advice is about a code or a tool in general: a family card, a code-range or scheme
    entry, a code card (its pattern, if any, says nothing beyond its code) or an envelope (it captured the
    message's own reason)."""
    return m.entry.level == "family" or m.entry.generic or is_code_card(m) or is_envelope(m)


def _refined(
    m: Match,
    text: str,
    any_tool: bool = True,
    naming: bool = False,
    unanswered: set[tuple[str, str, bool, bool, bool]] | None = None,
) -> Match | None:
    """``m`` answered by the first clause of its tool (and, with ``any_tool``, of any tool) whose wording is
    in its own part of ``text``; None when there is none.  With ``naming``, only by a call clause that names
    the call over the card's own advice; without, by any other clause.  ``unanswered``: the keys (tool, own
    text, any_tool, naming, code card) already found without a clause, skipped, and this one's added when it
    finds none; never a key where a call clause matched but printed another code than the card's (that
    answer depends on the card's own code)."""
    own = card_text(m, text)
    key = (m.entry.family, own, any_tool, naming, is_code_card(m))
    if unanswered is not None and key in unanswered:
        return None
    answered, by_code = _by_clause(m, own, text, any_tool, naming)
    if answered is None and unanswered is not None and not by_code:
        unanswered.add(key)
    return answered


def _by_clause(m: Match, own: str, text: str, any_tool: bool, naming: bool) -> tuple[Match | None, bool]:
    """:func:`_refined`'s search of the clauses on the card's own part ``own`` of ``text``: the answer (None
    when no clause answers), and whether a call clause matched but printed another code than the card's."""
    low = own.lower()
    by_code = False
    for clause in CLAUSES:
        if ("{card}" in clause.cause) != naming or clause.id in LAST_RESORT:
            continue
        if m.entry.family not in clause.families and (ANY not in clause.families or not any_tool):
            continue
        if clause.literal not in low or (clause.scope == REASON and is_code_card(m)):
            continue
        if clause.scope == CALL and not is_code_card(m):
            continue
        if clause.unless and _regex(clause.unless).search(_own_lines(own, text)):
            continue
        found = _regex(clause.pattern).search(own)
        if found is not None:
            if clause.scope != CALL or _of_card_code(m, found):
                clause = _staged(clause, found, text)  # s38c: the reading of the stage the call names
                return _answered_by(m, clause, _parts(found, clause, text)), by_code
            by_code = True
    return None, by_code


def _of_card_code(m: Match, found: re.Match[str]) -> bool:
    """Whether the code a call clause read after the call is the card's own code (a line may name a call and
    print another code than the one this card answers)."""
    code = found.group("code")
    return code == m.entry.code or any(k.split(":", 1)[-1] == code for k in m.entry.keys)


def answers_reason(m: Match, text: str) -> bool:
    """Whether a clause answers the card ``m`` on its own part of ``text`` (as :func:`refine` would, were no
    specific entry of its tool ranked above it)."""
    return _is_card(m) and m.entry.level != "family" and _refined(m, text) is not None


def _own_lines(own: str, text: str) -> str:
    """``own`` (a card's part of ``text``) from the start of the line it begins on: the ErrorCode or the
    function a tool prints before the reason it captured."""
    start = text.find(own)
    if start < 0:
        return own
    return text[text.rfind("\n", 0, start) + 1 : start + len(own)]


def _closed(value: str) -> str:
    """``value`` without the closing brackets it took from around it: a part read to the end of its line
    inside ``(... condition: f(x))`` ends with one ``)`` more than it opens."""
    while value.endswith(")") and value.count(")") > value.count("("):
        value = value[:-1].rstrip()
    return value


def _parts(found: re.Match[str], clause: Clause, text: str) -> tuple[tuple[str, str], ...]:
    parts = [
        (k, _closed(v.strip()))
        for k, v in found.groupdict().items()
        if v and v.strip() and not is_common_word(k, v)
    ]
    if clause.context:
        around = _regex(clause.context).search(text)
        if around is not None:
            parts += [(k, v) for k, v in around.groupdict().items() if v and k not in dict(parts)]
    return tuple(parts)


def _answered_by(m: Match, clause: Clause, parts: tuple[tuple[str, str], ...]) -> Match:
    """The card ``m`` answered by ``clause``: the card's tool, code and keys, the clause's cause and fix; the
    reason the card captured is replaced by the parts the clause read out of it."""
    names = {k for k, _ in parts}
    kept = tuple(c for c in m.captures if c[0] != "reason" and c[0] not in names)
    reasons = [r for r in m.reason.split("+") if r in ("code", "shared code")]
    if clause.scope == REASON and m.entry.level == "family":
        reasons = ["family"]  # the tool is known by its markers only: a log line is no problem for this alone
    cause = clause.cause.replace("{card}", m.entry.cause)
    fix = with_tool_steps(clause.id, m.entry.family, clause.fix.replace("{card_fix}", m.entry.fix))
    return _answered_as(m, clause.id, cause, fix, clause.source, parts + kept, [*reasons, "pattern"])


def _answered_as(
    m: Match,
    by: str,
    cause: str,
    fix: str,
    source: str,
    captures: tuple[tuple[str, str], ...],
    reasons: list[str],
) -> Match:
    """The card ``m`` answered by ``by`` (a clause or a runtime entry): the card's tool, code and keys with
    that cause, fix and captures, and ``reasons`` as how it was found."""
    e = m.entry
    entry = Entry(
        f"{e.id}+{by}",
        e.tool,
        e.stage,
        cause,
        fix,
        f"{source}; {e.source}",
        pattern=e.pattern,
        code=e.code,
        keys=e.keys,
        family=e.family,
        group=e.group,
        uncertain=e.uncertain,
        named_only=e.named_only,
        example=e.example,
        origin=e.origin,
        anchors=e.anchors,
        words=e.words,
        requires=e.requires,
    )
    return m._replace(entry=entry, captures=captures, reason="+".join(reasons))


MAX_CARD_LINES = 3
"""A code card's own part of a message: the line with its code and at most this many lines in all (a
wrapper's card, level ``context``, reads on to the end of the traceback that follows it:
:func:`.tracebacks.traceback_end`)."""


def card_text(m: Match, text: str) -> str:
    """The part of ``text`` that a card answers: from the reason it captured (read on past the pattern's
    bound), else from where its pattern or its code is, at most :data:`MAX_CARD_LINES` lines, ending before
    a line that holds another code of the message (an ``aclrtSetDevice ... 507033`` line is not answered by
    the ``EE1001 ... Reason:`` line after it); a family card answers the whole text."""
    e = m.entry
    reason = dict(m.captures).get("reason")
    if reason:
        start = text.find(reason)
        if start < 0:
            return reason
        first = text[start:].split("\n", 1)[0]
    elif e.level == "family":
        return text
    else:
        start = _card_start(e, text)
        if start < 0:
            return text
        first = text[start:].split("\n", 1)[0]
    lines = text[start:].split("\n")
    wrapped = traceback_end(lines[: MAX_CARD_LINES + MAX_FRAMES_LINES]) if e.level == "context" else 0
    lines = lines[: max(MAX_CARD_LINES, wrapped)]
    others = [k.split(":", 1)[1] for k in m.codes if ":" in k and not k.startswith("family:")]
    others = [c for c in others if c and c not in first and c != e.code]
    kept = [lines[0]]
    for line in lines[1:]:
        if any(c in line for c in others):
            break
        kept.append(line)
    return "\n".join(kept)


def _card_start(e: Entry, text: str) -> int:
    """Where the card's pattern matches, else where its code is printed; -1 when neither is found."""
    found = e.search(text) if e.pattern else None
    if found is not None:
        return text.rfind("\n", 0, found.start()) + 1
    for word in e.code.split()[:1]:
        pos = text.find(word)
        if pos >= 0:
            return text.rfind("\n", 0, pos) + 1
    return -1
