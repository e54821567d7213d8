"""Error codes: find them in a message and name them with normalised keys.

A key is ``<scheme>:<code>``; the same function names the codes of knowledge-base entries
(:func:`keys_for_code`) and the codes found in a message (:func:`extract_codes`), so a code
match is a set intersection.

Schemes: ``ascend`` (CANN ``E10001``/``EZ9999``/``W11001``), ``acl`` (AscendCL numbers such
as ``507015``), ``ts`` (task-scheduler ``retCode=0x26``), ``ort`` (ONNX Runtime status
numbers), ``rknn`` (``RKNN_ERR_*`` and their negative numbers), ``trt`` (onnx-tensorrt
``ErrorCode`` names), ``trtb`` (TensorRT builder/runtime ``Error Code N`` and the logger's ``Error[N]:``),
``onnx``
(``ValidationError``), ``qnn`` (Qualcomm QNN numbers after ``error``/``failed`` on a QNN line, and the SDK's
enum names, ``QNN_GRAPH_ERROR_FINALIZE_FAILED`` -> ``qnn:6022``: :data:`~.qnn_codes.QNN_ERROR_NAMES`),
``fastrpc`` (the Hexagon FastRPC/DSP codes under QNN and SNPE, ``0x80000406`` or ``AEE_EUNABLETOLOAD``:
:data:`~.qnn_codes.FASTRPC_ERROR_NAMES`), ``genie`` (Qualcomm Genie's ``GENIE_STATUS_ERROR_*`` /
``GENIE_STATUS_WARNING_*`` names, and an error status number after a Genie call, ``GenieDialog_create
returned: -1``: :data:`~.qnn_codes.GENIE_STATUS_NAMES`),
``cuda`` (CUDA/cuDNN/cuBLAS status names, ``CUDNN failure 5000``), ``torch_npu`` (``ERR00100``),
``ge`` (GE ``ErrorNo: N`` / ``errNo[0x..]``), ``mindie`` (MindIE ``[MIE04E02011C]``), ``snpe`` (SNPE
``error_code=N; error_message=...`` records and ``SNPE_ERRORCODE_*`` / ``ErrorCode::SNPE_*`` names).
"""

from __future__ import annotations

import re
from collections import namedtuple
from collections.abc import Callable, Iterable

from . import forms
from .qnn_codes import FASTRPC_ERROR_NAMES, GENIE_STATUS_NAMES, QNN_ERROR_NAMES

ORT_STATUS: dict[str, int] = {
    "FAIL": 1,
    "INVALID_ARGUMENT": 2,
    "NO_SUCHFILE": 3,
    "NO_MODEL": 4,
    "ENGINE_ERROR": 5,
    "RUNTIME_EXCEPTION": 6,
    "INVALID_PROTOBUF": 7,
    "MODEL_LOADED": 8,
    "NOT_IMPLEMENTED": 9,
    "INVALID_GRAPH": 10,
    "EP_FAIL": 11,
}
TRT_CODES: tuple[str, ...] = (
    "SUCCESS",
    "INTERNAL_ERROR",
    "MEM_ALLOC_FAILED",
    "MODEL_DESERIALIZE_FAILED",
    "INVALID_VALUE",
    "INVALID_GRAPH",
    "INVALID_NODE",
    "UNSUPPORTED_GRAPH",
    "UNSUPPORTED_NODE",
    "UNSUPPORTED_NODE_ATTR",
    "UNSUPPORTED_NODE_INPUT",
    "UNSUPPORTED_NODE_DATATYPE",
    "UNSUPPORTED_NODE_DYNAMIC",
    "UNSUPPORTED_NODE_SHAPE",
)
_TRT_NAMES = "|".join(sorted(TRT_CODES[1:], key=len, reverse=True))


class FoundCode(namedtuple("FoundCode", "key text start")):
    """A code found in a message: its key, the code as printed, and where it starts."""

    __slots__ = ()
    key: str
    text: str
    start: int


def printed_code(found: FoundCode, text: str) -> str:
    """The code exactly as ``text`` prints it: the matched text when it is one token (``0x8000042C``,
    ``QNN_GRAPH_ERROR_FINALIZE_FAILED``, ``E19010``), else the key's value where the message has it, in the
    message's case (``ret=-6`` gives ``-6``; ``Error Code 1: `` gives ``1``), or the hexadecimal number
    that ends the match when the key holds its value in decimal (``err 0x138d`` gives ``0x138d`` for
    ``qnn:5005``)."""
    token = found.text.strip().rstrip(":,;.")
    if token and not any(ch.isspace() or ch == "=" for ch in token):
        return token
    value = found.key.split(":", 1)[-1]
    at = text.lower().find(value.lower(), found.start)
    if at >= 0:
        return text[at : at + len(value)]
    last = found.text.split()[-1].strip(":,;.=") if found.text.split() else ""
    return last if last.lower().startswith("0x") else value  # a hexadecimal form of the key's number


class _Extractor(namedtuple("_Extractor", "pattern scheme literals folded")):
    """One code shape: its pattern (compiled on first use), its scheme, and the literals one of which
    every match holds (``()``: always searched); ``folded``: those literals are matched
    ignoring case (they sit in a ``(?i:...)`` group), so they are looked for in the lower-cased text."""

    __slots__ = ()
    pattern: str
    scheme: str
    literals: tuple[str, ...]
    folded: bool


#: The first three digits of every AscendCL-style return code the CANN headers define: acl_base.h (100xxx
#: parameters, 148xxx dump/profiling configuration, 200xxx resources, 300xxx storage, 500xxx internal),
#: rt_error_codes.h (107xxx, 207xxx, 507xxx runtime), ge_error_codes.h (145xxx, 245xxx, 345xxx data flow,
#: 545xxx GE) and aclnn's status codes (161xxx parameters, 361xxx runtime, 561xxx inner: infershape, tiling,
#: kernel).  A six-digit number after "error" outside them (``Reshape error: 262144 elements``) is no AscendCL
#: code.
ACL_PREFIXES: tuple[str, ...] = (
    "100", "107", "145", "148", "161", "200", "207", "245", "300", "345", "361", "500", "507", "545", "561"
)  # fmt: skip

_EXTRACTORS: tuple[_Extractor, ...] = (
    _Extractor(r"(?<![\w-])([EW][0-9A-Z]\d{4})\b", "ascend", ("E", "W"), False),
    _Extractor(r"retCode\s{0,2}[=:]\s{0,2}(0x[0-9a-fA-F]{1,8})\b", "ts", ("retCode",), False),
    # The process id that CANN's and MindSpore's log prefixes print first ("[ERROR] RUNTIME(185483,python)",
    # "[ERROR] LITE(108805,fffc6fc67430,converter_lite)") is no AscendCL code: a number opening "(" and
    # closed by "," is skipped.  Between the word and the number stand only separators and words ("error
    # code is", "ret =", "failed ("): a name with "_", or a bracket with text after it, there ("RuntimeError:
    # top_k (100000) must be", "error: top_k is 100000") makes the number a value of that name.
    _Extractor(
        r"(?i:err(?:or)?[ _]?code|errno|ret(?:urn)?(?:[ _]?code)?|result|failed|error)"
        r"[^\n\d_(]{0,16}?\(?\b(?!(?<=\()\d{6},)((?:" + "|".join(ACL_PREFIXES) + r")\d{3})\b",
        "acl",
        ("err", "ret", "result", "failed"),
        True,
    ),
    # The status an AscendCL/aclnn call returned, printed after the call's name ("aclnnAddGetWorkspaceSize
    # ... aclnnStatus = 161002", "aclrtMemcpy status: 507899"): "status" alone is too common a word, so the
    # call's name (acl...) must come first on the line; the number must still be one of ACL_PREFIXES'.
    _Extractor(
        r"(?i:\bacl\w{0,60})[^\n]{0,80}?(?i:status)\s{0,2}(?:[=:]|is)\s{0,2}((?:"
        + "|".join(ACL_PREFIXES)
        + r")\d{3})\b",
        "acl",
        ("acl",),
        True,
    ),
    _Extractor(
        r"\[ONNXRuntimeError\]\s{0,4}:\s{0,4}(\d{1,3})\s{0,4}:\s{0,4}([A-Z_]{1,40})",
        "ort",
        ("[ONNXRuntimeError]",),
        False,
    ),
    _Extractor(r"\b(RKNN_ERR_[A-Z_]{1,60})\b", "rknn", ("RKNN_ERR_",), False),
    _Extractor(r"(?i:rknn)[^\n]{0,80}?\b(?:ret|error)\s{0,2}=\s{0,2}(-\d{1,3})\b", "rknn", ("rknn",), True),
    _Extractor(rf"(?:ErrorCode::k|\):\s{{0,2}})({_TRT_NAMES})\b", "trt", ("ErrorCode::k", "):"), False),
    _Extractor(r"In function \w{1,120}:\s{0,8}\[(\d{1,2})\]", "trt", ("In function ",), False),
    _Extractor(r"\bError Code (\d{1,2}): ", "trtb", ("Error Code ",), False),
    _Extractor(r"\b(ValidationError)\b", "onnx", ("ValidationError",), False),
    _Extractor(r"(?i:qnn)[^\n]{0,120}?\b(3110|0xc26)\b", "qnn", ("qnn",), True),
    _Extractor(
        r"(?i:qnn|<e>)[^\n]{0,160}?\b(?i:err(?:or)?(?: "
        r"code)?|failed)[ \t:=]{0,3}(\d{3,5}|0x[0-9a-fA-F]{1,6})\b(?!-\d)",
        "qnn",
        ("qnn", "<e>"),
        True,
    ),
    # A QNN backend's failure line that prints the status after a colon or comma ("QnnHtp <E> Failed to create
    # device: 14001", "Transport layer setup failed: 14001", "Failed to finalize graph (id: 1): 6022"): the
    # number is a code only when the SDK's headers define it (``Failed to map tensor: 4096`` holds none).
    _Extractor(
        r"(?i:qnn|<e>)[^\n]{0,160}?\b(?i:failed)\b[^\n]{0,80}?[:,]\s{0,2}(\d{4,5})\b(?![.\w])",
        "qnnh",
        ("qnn", "<e>"),
        True,
    ),
    # onnxruntime's QNN EP prints the status a QNN call returned inside its own sentence, often with no
    # "QNN" on the line (qnn_backend_manager.cc, qnn_utils.cc): "Failed to create device. Error: 14001" (older
    # EPs), "Failed to create context from binary. Error code: 5000", "Failed to create context. Error:
    # <backend's text>, Code: 5005" (FormatQnnError) and "Unknown error. QNN error handle: 4000" (when the
    # backend has no text for it); qnn_model.cc's "NPU crashed. SSR detected. Recovery not supported (...).
    # Error code: N" is the graph execution's status.  The failing call names a QNN object (context, device,
    # backend, graph, profile, op package, log, DLC, platform info); the number must be a header's code.
    _Extractor(
        r"(?:\bFailed to [^\n.!]{0,40}?\b(?:context|device|backend|graph|profile|op package|DLC|logging|"
        r"log level|platform info)\b[^\n.!]{0,40}[.!] Error(?: code)?: (?:[^\n]{0,160}?"
        r"(?:, Code ?: ?|QNN error handle: ))?|\bQNN error handle: "
        r"|\bSSR detected\b[^\n]{0,120}?\. Error code: )"
        r"(\d{4,5})\b(?!\.\d|\w)",
        "qnnh",
        ("Failed to ", "QNN error handle: ", "SSR detected"),
        False,
    ),
    # Qualcomm's QnnApi (the QNN loader of Genie and the AI Hub apps, QnnApi.cpp createFromBinary) prints the
    # status of QnnContext_createFromBinary after the context's index: "Could not create context from binary
    # for context index = 0 : err 5000".
    _Extractor(
        r"\bcontext index = \d{1,4} : err (\d{4,5})\b(?!\.\d|\w)", "qnnh", ("context index = ",), False
    ),
    _Extractor(r"\b(QNN_[A-Z0-9_]{4,80})\b", "qnn", ("QNN_",), False),
    _Extractor(r"\b(0x8000[0-9a-fA-F]{4}|AEE_E[A-Z0-9_]{2,40})\b", "fastrpc", ("0x8000", "AEE_E"), False),
    _Extractor(r"\b(GENIE_STATUS_(?:ERROR|WARNING)_[A-Z_]{2,40})\b", "genie", ("GENIE_STATUS_",), False),
    _Extractor(
        r"\bGenie\w{0,40}[^\n]{0,60}?\b(?:returned|[Ss]tatus(?: code)?)[\s:=]{0,3}(-\d{1,2})\b",
        "genie",
        ("Genie",),
        False,
    ),
    _Extractor(r"\bError\[(\d{1,2})\]:", "trtb", ("Error[",), False),
    _Extractor(r"\[TRT\](?: \[[EWIV]\])?\s{1,3}(\d{1,2}):\s", "trtb", ("[TRT]",), False),
    _Extractor(
        r"\b(CUDNN_STATUS_[A-Z_]{2,40}|CUBLAS_STATUS_[A-Z_]{2,40}|CUDA_ERROR_[A-Z_]{2,40}|cudaError[A-Z]\w{2,40})\b",
        "cuda",
        ("CUDNN_STATUS_", "CUBLAS_STATUS_", "CUDA_ERROR_", "cudaError"),
        False,
    ),
    _Extractor(
        r"\b(CUDA|CUBLAS|CUDNN|CUFFT|CURAND|CUSPARSE|NCCL) failure (\d{1,5})\b",
        "cudafail",
        (" failure ",),
        False,
    ),
    _Extractor(r"(?<![A-Za-z])(ERR\d{5})\b", "torch_npu", ("ERR",), False),
    _Extractor(r"ErrorNo:\s{0,2}(\d{1,12})\b", "ge", ("ErrorNo:",), False),
    _Extractor(r"\b(MIE\d{2}[EWIC][0-9A-F]{5,7})\b", "mindie", ("MIE",), False),
    _Extractor(r"errNo\[(0x[0-9a-fA-F]{1,16})\]", "ge", ("errNo[",), False),
    _Extractor(r"\berror_code=(\d{1,4});\s{0,2}error_message=", "snpe", ("error_code=",), False),
    _Extractor(r"\b(SNPE_(?:ERRORCODE_)?[A-Z][A-Z_]{2,70})\b", "snpe", ("SNPE_",), False),
)
"""The code shapes, in the order their codes are kept when two name the same key.  Each pattern is
compiled the first time a text holds one of its literals (compiling all of them was ~2 ms of every
``dumpscope explain``); a test checks that no pattern can match a text without one of its literals."""
_COMPILED: list[re.Pattern[str] | None] = [None] * len(_EXTRACTORS)


#: The tool family a code scheme belongs to (``cuda`` is printed by several: none).
SCHEME_FAMILY: dict[str, str] = {
    "ascend": "ascend",
    "acl": "ascend",
    "ts": "ascend",
    "ge": "ascend",
    "torch_npu": "ascend",
    "mindie": "ascend",
    "ort": "onnxruntime",
    "rknn": "rknn",
    "trt": "tensorrt",
    "trtb": "tensorrt",
    "onnx": "onnx",
    "qnn": "qualcomm",
    "qnnh": "qualcomm",
    "snpe": "qualcomm",
    "fastrpc": "qualcomm",
    "genie": "qualcomm",
}


def scheme_family(key: str) -> str:
    """The family of a code key (``acl:507015`` -> ``ascend``), "" when the scheme is shared."""
    return SCHEME_FAMILY.get(key.split(":", 1)[0], "")


def range_keys(key: str) -> list[str]:
    """Keys of the code ranges a code falls in, narrowest first.

    ``acl:507033`` -> ``acl:5070xx``, ``acl:507xxx``; ``ascend:EI0006`` -> ``ascend:EIxxxx``
    (CANN codes: E/W, a module letter or digit, four digits); ``qnn:6022`` -> ``qnn:6xxx``
    (QNN gives each API component a block of 1000 codes).
    """
    scheme, _, code = key.partition(":")
    rule = _RANGES.get(scheme)
    return rule(code) if rule else []


def _acl_ranges(code: str) -> list[str]:
    return [f"acl:{code[:4]}xx", f"acl:{code[:3]}xxx"] if len(code) == 6 else []


def _qnn_ranges(code: str) -> list[str]:
    return [f"qnn:{int(code) // 1000}xxx"] if code.isdigit() and len(code) >= 4 else []


_RANGES: dict[str, Callable[[str], list[str]]] = {
    "acl": _acl_ranges,
    "ascend": lambda code: [f"ascend:{code[:2]}xxxx"] if len(code) == 6 else [],
    "torch_npu": lambda code: [f"torch_npu:{code[:5]}xxx"],
    "mindie": lambda code: [f"mindie:{code[:5]}xxx"],
    "qnn": _qnn_ranges,
    "fastrpc": lambda code: ["fastrpc:0x8000xxxx"],
    "snpe": lambda code: [f"snpe:{int(code) // 100}xx"] if code.isdigit() and len(code) >= 3 else [],
}


def extract_codes(text: str, extractors: Iterable[int] | None = None) -> list[FoundCode]:
    """Every code in ``text`` in order of appearance, each key once.  ``extractors``: the only extractors
    that may match (:func:`possible_extractors` of a text that holds this one), in their order; None: all."""
    found: dict[str, FoundCode] = {}
    lowered = ""
    for i in range(len(_EXTRACTORS)) if extractors is None else extractors:
        _, scheme, literals, folded = _EXTRACTORS[i]
        if folded:
            lowered = lowered or text.lower()
        if not may_match(literals, folded, text, lowered):
            continue
        for m in _compiled(i).finditer(text):
            for key in keys_of(scheme, m):
                if key not in found:
                    found[key] = FoundCode(key, m.group(0), m.start())
    return sorted(found.values(), key=lambda c: c.start)


def possible_extractors(text: str, lowered: str) -> list[int]:
    """The extractors whose literals ``text`` holds (``lowered``: ``text.lower()``): in a text inside it (a
    substring, whose lower-cased form is inside ``lowered``) no other one can match, so a pasted block's
    lines are searched by these alone (:func:`extract_codes`), not by every extractor again."""
    return [i for i, (_, _, lits, folded) in enumerate(_EXTRACTORS) if may_match(lits, folded, text, lowered)]


def may_match(literals: tuple[str, ...], folded: bool, text: str, lowered: str = "") -> bool:
    """Whether ``text`` may match an extractor whose matches hold one of ``literals`` (all texts when
    there are none); ``folded``: they are matched ignoring case, and looked for in ``lowered``
    (``text.lower()``).  A text that is not ASCII always may then: ``re`` matches some non-ASCII letters
    (dotless i, long s) to an ASCII letter that ``str.lower`` does not turn them into."""
    if not literals:
        return True
    if folded:
        return any(lit in lowered for lit in literals) or not text.isascii()
    return any(lit in text for lit in literals)


def _compiled(i: int) -> re.Pattern[str]:
    """The compiled pattern of extractor ``i`` (compiled once, on first use)."""
    rx = _COMPILED[i]
    if rx is None:
        rx = _COMPILED[i] = forms.compile(_EXTRACTORS[i].pattern)
    return rx


def extractor_patterns() -> list[str]:
    """Every code extractor's pattern, in order (their compiled forms are stored: :mod:`.forms`)."""
    return [x.pattern for x in _EXTRACTORS]


def keys_of(scheme: str, m: re.Match[str]) -> list[str]:
    """The keys of one code found by the extractor of ``scheme``: its key, and for a hexadecimal QNN code
    the header's number too (:func:`_decimal_qnn_key`); [] when it is not a code after all."""
    key = _key(scheme, m)
    if not key:
        return []
    decimal = _decimal_qnn_key(key) if scheme == "qnn" else None
    return [key, decimal] if decimal else [key]


def _key(scheme: str, m: re.Match[str]) -> str | None:
    """The normalised key of a code found by the extractor of ``scheme`` (None: not a code after all)."""
    rule = _KEY_RULES.get(scheme)
    return rule(m) if rule else f"{scheme}:{m.group(1)}"


def _ts_key(m: re.Match[str]) -> str:
    return f"ts:{int(m.group(1), 16):#x}"


def _trt_key(m: re.Match[str]) -> str | None:
    """onnx-tensorrt codes: a name as printed, or the ``[N]`` number turned into its name."""
    value = m.group(1)
    if not value.isdigit():
        return f"trt:{value}"
    number = int(value)
    return f"trt:{TRT_CODES[number]}" if 0 < number < len(TRT_CODES) else None


def _ort_key(m: re.Match[str]) -> str:
    return f"ort:{int(m.group(1))}"


def _snpe_key(m: re.Match[str]) -> str | None:
    """SNPE codes: the number of ``error_code=N;`` or the enum name, old C++ names (``SNPE_DSP_...``) and
    C names (``SNPE_ERRORCODE_DSP_...``) alike; ``SNPE_SUCCESS`` is not an error."""
    value = m.group(1)
    if value.startswith("SNPE_SUCCESS"):
        return None
    return f"snpe:{value.replace('SNPE_ERRORCODE_', 'SNPE_', 1)}"


def _qnn_key(m: re.Match[str]) -> str | None:
    """A QNN number as printed (``0xc26`` lower-cased), or an enum name turned into its number (a
    ``QNN_...`` name that is not an error code of the SDK's headers: not a code)."""
    value = m.group(1)
    if value.startswith("QNN_"):
        number = QNN_ERROR_NAMES.get(value)
        return f"qnn:{number}" if number is not None else None
    return f"qnn:{value.lower()}"


_QNN_CODES = frozenset(QNN_ERROR_NAMES.values())
QNN_PRINTED_HEX = frozenset({"qnn:0xc26"})
"""Hexadecimal QNN numbers known by their printed form only: the HTP op validation's ``error 0xc26`` (3110)
has its own entry, keyed as printed."""


def _decimal_qnn_key(key: str) -> str | None:
    """The header's number of a hexadecimal QNN code (``qnn:0x138d`` -> ``qnn:5005``: the HTP backend prints
    ``Failed to create context from binary with err 0x138d`` for QNN_CONTEXT_ERROR_CREATE_FROM_BINARY), when
    its value is an error code of the SDK's headers; None otherwise."""
    if not key.startswith("qnn:0x") or key in QNN_PRINTED_HEX:
        return None
    number = int(key[4:], 16)
    return f"qnn:{number}" if number in _QNN_CODES else None


def _qnn_header_key(m: re.Match[str]) -> str | None:
    """A decimal QNN status printed after a failure's colon (``Failed to create device: 14001``): its key when
    the SDK's headers define that number, None for any other number."""
    number = int(m.group(1))
    return f"qnn:{number}" if number in _QNN_CODES else None


_FASTRPC_CODES = frozenset(FASTRPC_ERROR_NAMES.values())


def _fastrpc_key(m: re.Match[str]) -> str | None:
    """A FastRPC code, printed as its number or its ``AEE_E*`` name, keyed by the number; a number or name
    that AEEStdErr.h does not define is not one (``0x80004005`` is a Windows HRESULT)."""
    value = m.group(1)
    number = FASTRPC_ERROR_NAMES.get(value) if value.startswith("AEE_") else int(value, 16)
    return f"fastrpc:{number:#x}" if number in _FASTRPC_CODES else None


def _genie_key(m: re.Match[str]) -> str | None:
    """A Genie status: its name as printed, or the number a Genie call returned turned into its name
    (a number GenieCommon.h gives no error: not a code)."""
    value = m.group(1)
    if value.startswith("GENIE_"):
        return f"genie:{value}"
    name = GENIE_STATUS_NAMES.get(int(value))
    return f"genie:{name}" if name else None


def _cuda_key(m: re.Match[str]) -> str | None:
    """A CUDA-library status name (``..._SUCCESS`` is not an error)."""
    value = m.group(1)
    return None if value.endswith("SUCCESS") else f"cuda:{value}"


def _cudafail_key(m: re.Match[str]) -> str:
    return f"cuda:{m.group(1)}:{m.group(2)}"


def _ge_key(m: re.Match[str]) -> str:
    return f"ge:{int(m.group(1), 0):#x}"


#: Schemes whose printed code is not already the key (the rest: ``scheme:code`` as printed).
_KEY_RULES: dict[str, Callable[[re.Match[str]], str | None]] = {
    "ts": _ts_key,
    "trt": _trt_key,
    "ort": _ort_key,
    "qnn": _qnn_key,
    "qnnh": _qnn_header_key,
    "fastrpc": _fastrpc_key,
    "genie": _genie_key,
    "snpe": _snpe_key,
    "cuda": _cuda_key,
    "cudafail": _cudafail_key,
    "ge": _ge_key,
}


def keys_for_code(code: str) -> list[str]:
    """Keys named by an entry's ``code`` field (``507015/retCode=0x26`` -> acl and ts keys)."""
    keys = [f"ascend:{c}" for c in re.findall(r"(?<![\w-])([EW][0-9A-Z]\d{4})\b", code)]
    keys += [f"acl:{c}" for c in re.findall(r"(?<![\w-])([1-5]\d{5})\b", code)]
    keys += [f"ts:{int(c, 16):#x}" for c in re.findall(r"retCode=(0x[0-9a-fA-F]+)", code)]
    keys += [f"rknn:{c}" for c in re.findall(r"\b(RKNN_ERR_[A-Z_]+)", code)]
    keys += [f"trt:{c}" for c in re.findall(r"ErrorCode::k(\w+)", code)]
    keys += [f"torch_npu:{c}" for c in re.findall(r"(?<![A-Za-z])(ERR\d{5})\b", code)]
    return keys
