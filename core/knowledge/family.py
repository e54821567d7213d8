"""Which tool wrote a message: family detection from unmistakable markers, before any normalisation.

A marker is a lower-cased literal that only one tool prints: a log prefix (``e rknn:``,
``qnndsp <e>``, ``[e:onnxruntime:``, ``[trt]``), an API prefix (``rknn_init``, ``aclrt``,
``qnnbackend_``), a C++ namespace (``nvinfer1::``, ``ov::``, ``tflite::``) or a path inside
the tool's source tree (``onnxruntime/core/``, ``paddle2onnx``).  Paths are exactly what
:func:`~dumpscope.core.knowledge.words.normalise` blanks, which is why detection runs on
the raw text.  Detection is a handful of ``in`` tests per family: no regular expression.
The markers, their weights and where each was read are in :mod:`.markers`.

A tool is also recognised by its own wording when a message quotes one of its error texts without
any marker: the word 4-grams of the error texts compiled into the binaries it ships, less those
another family's binaries or entries also hold (``source_grams.json``, built by
``bench/build_source_grams.py`` from onnxruntime's (with its execution providers'), onnx's, QNN's (and
Qualcomm's Python packages'), OpenVINO's, TensorRT's (and Polygraphy's), RKNN-Toolkit2's and -Lite2's,
coremltools', LiteRT's, MNN's, ncnn's, Paddle2ONNX's, onnx-simplifier's, TVM's, onnxconverter-common's and
torch_npu's wheels, and torch's torch.onnx Python sources; torch's libraries', CUDA's, Cython's, pybind11's
and numpy's texts count for no family),
count as one marker of that family (:data:`SOURCE_COUNTS` distinct 4-grams: MEDIUM, then STRONG).
The compound names of a family's files (:data:`NAME`, ``source_names.bin`` from the same build) are no
marker: :mod:`.kb` counts them as 4-grams in its wording cue and wording order only
(:func:`source_name_counts`).

The result ranks families by evidence: first by the strongest single marker found, then by
the sum of the weights, so a tool named by a marker only it prints is not out-voted by a
big family's common words (three weak Ascend words do not outrank one OpenVINO check
format), and a CUDA error quoted inside an onnxruntime envelope still names onnxruntime first.
Between equals, the tool named first in the text comes first.

onnxruntime's TensorRT execution provider is onnxruntime's: its provider name
(``TensorrtExecutionProvider``) is an onnxruntime marker and the word TensorRT in its sentences is weak,
so they name onnxruntime.  When the EP forwards TensorRT's builder text
(``[TRT]``, ``Error Code N``, ``ForeignNode``...), TensorRT's own markers outweigh the envelope and
TensorRT is named first, onnxruntime second (both layers are right answers in the eval set).
"""

from __future__ import annotations

import bisect
import functools
import json
import re
import sys
import zlib

from dumpscope.core.knowledge import finder
from dumpscope.core.knowledge.markers import (
    LOG_FORMS,
    MARKERS,
    MEDIUM,
    STRONG,
    UNCOVERED,
    WEAK,
    WHOLE_WORDS,
    Markers,
)
from dumpscope.core.knowledge.package_data import package_buffer, package_bytes
from dumpscope.core.lazyre import LazyPattern

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every explain start)
if TYPE_CHECKING:
    from array import array

__all__ = [
    "MARKERS",
    "MAX_TEXT",
    "MEDIUM",
    "STRONG",
    "WEAK",
    "detect_families",
    "detect_uncovered",
    "family_evidence",
]

MAX_TEXT = 1 << 20
"""Only the first MiB of a message is examined (markers, codes, words); patterns use windows."""


def family_evidence(text: str, lowered: str | None = None) -> dict[str, int]:
    """Evidence weight per family found in ``text`` (families without evidence are left out)."""
    return {family: total for family, (_, total, _) in _evidence(text, lowered).items()}


def _evidence(
    text: str, lowered: str | None, table: dict[str, Markers] = MARKERS
) -> dict[str, tuple[int, int, int]]:
    """``family -> (strongest marker weight, summed weight, -first position)`` for the families with
    evidence."""
    low = _unlisted(_unescaped(text.lower() if lowered is None else lowered))
    if table is not MARKERS:
        found = {family: _found(markers, low) for family, markers in table.items()}
    else:
        named_ep = "provider" in low or "-ep]" in low or "_ep::" in low or "ep failed to call" in low
        others = _EP_NAME.sub(_blank_backend, low) if named_ep else low
        found = {
            family: _found(markers, low if family == "onnxruntime" else others)
            for family, markers in table.items()
        }
        for family, hits in _source_text(low).items():
            found.setdefault(family, []).extend(hits)
        for family, hits in _log_forms(low).items():
            found.setdefault(family, []).extend(hits)
    return {family: _summary(hits) for family, hits in found.items() if hits}


def _unescaped(low: str) -> str:
    """A path printed through an escaping layer (a Go or Rust debug print, a JSON string, a C# verbatim
    log) doubles its backslashes (``onnxruntime\\\\core\\\\``): markers are read as the tool wrote them."""
    return low.replace("\\\\", "\\") if "\\\\" in low else low


_NAME_LIST = LazyPattern(r"((?:available|supported) frontends:)([^\n]*)")
"""A tool's list of the formats it reads, as OpenVINO's ``read_model`` prints it on failure ("Available
frontends: tf onnx ir tflite paddle pytorch", frontend/src/manager.cpp): the names listed are what the tool
could read, not tools that speak in the message."""


def _unlisted(low: str) -> str:
    """The lower-cased text with the names of a :data:`_NAME_LIST` list blanked (same length, so positions
    stay); the words that announce the list stay, a marker of the tool that printed it."""
    if "frontends:" not in low:
        return low
    return _NAME_LIST.sub(lambda m: m.group(1) + " " * len(m.group(2)), low)


#: onnxruntime's names for its execution providers (onnxruntime/core/providers/<ep>/: the registered provider
#: name ``<Backend>ExecutionProvider``, its sources ``<backend>_execution_provider.cc``, the OpenVINO EP's
#: log prefix ``[OpenVINO-EP]`` and namespace ``openvino_ep::``, the EP shared libraries
#: ``onnxruntime_providers_<backend>``, and the spaced ``<backend> execution provider`` of its registration
#: errors, core/session/provider_registration.cc: "QNN execution provider is not supported in this build"),
#: and TensorRT's API name quoted by the TensorRT EP's run-time shape call ("<Name> EP failed to call
#: nvinfer1::IExecutionContext::setInputShape() ...", tensorrt_execution_provider.cc and nv_tensorrt_rtx).
#: The backend named inside them is onnxruntime's provider, not that backend's own tool speaking: for the
#: other families' markers it is blanked (same length, so positions stay), while the backend's own wording
#: elsewhere in the text still counts.
_EP_NAME = LazyPattern(
    r"[a-z0-9]+(?=executionprovider|_execution_provider| execution provider|-ep\]|_ep::)"
    r"|(?<=onnxruntime_providers_)[a-z0-9]+"
    r"|(?<=ep failed to call )nvinfer1::[a-z0-9_:]*"
)


def _blank_backend(m: re.Match[str]) -> str:
    return " " * len(m.group())


def _found(markers: Markers, low: str) -> list[tuple[int, int]]:
    """``(weight, position)`` of the markers present in the lower-cased text (found in one pass by the
    compiled finder, or one ``in`` per marker)."""
    if finder.compiled is None:
        return [(w, low.find(marker)) for marker, w in markers if marker in low and _counts(marker, low)]
    present = finder.compiled.present(_utf8(low), _needles(markers))
    return [(w, low.find(marker)) for marker, w in (markers[i] for i in present) if _counts(marker, low)]


@functools.lru_cache(maxsize=64)
def _needles(markers: Markers) -> tuple[bytes, ...]:
    """The markers' UTF-8, for the compiled finder."""
    return tuple(marker.encode("utf-8", "surrogatepass") for marker, _ in markers)


@functools.lru_cache(maxsize=4)
def _utf8(low: str) -> bytes:
    """``low``'s UTF-8 (each family's markers are looked for in the same one or two texts)."""
    return low.encode("utf-8", "surrogatepass")


def _summary(hits: list[tuple[int, int]]) -> tuple[int, int, int]:
    """Strongest weight, summed weight, and minus where the first marker starts (earlier ranks higher)."""
    weights = [w for w, _ in hits]
    return max(weights), sum(weights), -min(pos for _, pos in hits)


SOURCE_COUNTS: dict[str, tuple[int, int]] = {
    "onnxruntime": (2, 4),
    "onnx": (2, 4),
    "qualcomm": (2, 4),
    "openvino": (2, 4),
    "tensorrt": (3, 4),
    "rknn": (2, 4),
    "coreml": (2, 4),
    "tflite": (2, 4),
    "mnn": (2, 4),
    "ncnn": (2, 4),
    "paddle2onnx": (3, 4),
    "onnxsim": (2, 4),
    "tvm": (2, 4),
    "float16": (2, 4),
    "ascend": (3, 4),
    "torch_onnx": (2, 4),
}
"""family -> the distinct 4-grams of its own binaries' error texts (``source_grams.json``) that count as a
:data:`MEDIUM` marker of that family, and as a :data:`STRONG` one. Set on the dev messages only
(``bench/build_source_grams.py --dev``): two is the lowest count that no other tool's dev message reaches for
onnx, QNN and OpenVINO (several reach one); onnxruntime's two (set before the other families were read) is
reached by one QNN Genie dev message, which QNN's own markers name first. TensorRT's is three since its
builder bindings and Polygraphy were read: two Core ML dev messages reach two of its 4-grams ("will not be
able to run", plain English), none reaches three. The families read next (RKNN, Core ML, LiteRT, MNN, ncnn,
onnx-simplifier, TVM, onnxconverter-common's float16, torch_npu's Ascend) take two as well, where no other
tool's dev message reaches more than one of their 4-grams, and three for Ascend and Paddle2ONNX, whose 4-grams
one other tool's dev message reaches twice ("please try to update the", "failed to load onnx model").
torch.onnx (its Python sources in torch's wheel, read since issue 23's branch h23c3) takes two: no other
tool's dev message reaches more than one of its 4-grams. Four, the STRONG count, is reached by no other tool's
dev message. A family absent here is not recognised by its wording (its 4-grams stay in the table, so they
count for no other family)."""
SOURCE_WINDOW = 32 * 1024
"""Only the first 32 KiB of a text are searched for a tool's wording (a word-by-word walk, unlike the
markers' ``in`` tests; an error message is far shorter, a whole pasted log is scanned line by line)."""
_WORD = re.compile(r"[a-z]+")


@functools.cache
def _source_grams() -> tuple[tuple[str, ...], memoryview | array[int], memoryview]:
    """The families of ``source_grams.json``, the CRC-32s of every family's own word 4-grams (sorted; the
    table ``source_grams.bin``) and each one's family index (mapped as stored, never read whole: a lookup's
    bisections touch a few pages; building a set of them would cost more than a message's few look-ups)."""
    return _table("table")


@functools.cache
def _source_names() -> tuple[tuple[str, ...], memoryview | array[int], memoryview]:
    """:func:`_source_grams` of the names' table (``source_names.bin``: :data:`NAME`)."""
    return _table("names_table")


def _table(field: str) -> tuple[tuple[str, ...], memoryview | array[int], memoryview]:
    """The families and the sorted CRC-32s and owners of the table ``source_grams.json`` names in ``field``
    (both tables one format: the keys, little-endian 32-bit, then one family byte each)."""
    doc = json.loads(package_bytes("source_grams.json"))
    table = package_buffer(doc[field])
    n = len(table) // 5
    keys: memoryview | array[int] = memoryview(table)[: 4 * n].cast("I")  # a view: ~540 KB never copied
    if sys.byteorder != "little":
        from array import array  # only here: a little-endian machine reads the table as it is stored

        keys = array("I", table[: 4 * n])
        keys.byteswap()
    return tuple(r["family"] for r in doc["families"]), keys, memoryview(table)[4 * n :]


def source_gram_counts(low: str) -> dict[str, tuple[int, int]]:
    """family -> (distinct 4-grams of its own binaries' error texts found in the lower-cased text, where
    the first starts), for the families with any."""
    return dict(_gram_counts(low[:SOURCE_WINDOW]))


@functools.lru_cache(maxsize=2)
def _gram_counts(low: str) -> tuple[tuple[str, tuple[int, int]], ...]:
    """:func:`source_gram_counts` of the examined window, kept for the last two texts: the family detection,
    the wording cue (:func:`.kb.wording_cue`) and the wording order (:func:`.kb.family_wording_order`) of one
    look-up read the same message."""
    table = _source_grams()
    words = list(_WORD.finditer(low))
    seen: set[int] = set()
    counts: dict[str, tuple[int, int]] = {}
    for i in range(len(words) - 3):
        key = zlib.crc32(" ".join(m.group() for m in words[i : i + 4]).encode())
        family = _new_owner(table, key, seen)
        if family:
            n, first = counts.get(family, (0, words[i].start()))
            counts[family] = (n + 1, first)
    return tuple(counts.items())


def _new_owner(
    table: tuple[tuple[str, ...], memoryview | array[int], memoryview], key: int, seen: set[int]
) -> str:
    """The family whose own text ``key`` (a CRC-32) is in ``table`` (:func:`_table`), or "" when no family
    owns it or ``seen`` already holds it (a key counts once per text; it is added to ``seen``)."""
    if key in seen:
        return ""
    seen.add(key)
    families, keys, owners = table
    j = bisect.bisect_left(keys, key)
    return families[owners[j]] if j < len(keys) and keys[j] == key else ""


NAME = LazyPattern(
    r"(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]*(?:[a-z][A-Z]|_[A-Za-z]))[A-Za-z][A-Za-z0-9_]{11,63}(?![A-Za-z0-9_])"
)
"""A compound name as a tool's API writes it: a whole run of 12 to 64 letters, digits and underscores that
starts with a letter and holds a lower-case letter before a capital (``getUserRegion``, ``ExecuteKernel``)
or an underscore before a letter (``allow_custom_ops``, ``RUNTIME_EXCEPTION``).  A plain word (``Error``,
``failed``) is no name; a run longer than 64 characters (a hash, a mangled symbol) holds none.  Twelve
characters at least: shorter names are two common words any program may join (``state_in``, ``ir_graph``,
``op_base``, ``ContextType``), which on ``bench/eval_explain.py --blank-markers`` moved four dev answers
from the right tool to another (from 6, 9 or 10 characters: two or three); from 12, none moved away."""


def source_name_counts(text: str) -> dict[str, int]:
    """family -> the distinct compound names (:data:`NAME`, as written) of its own files
    (``source_names.bin``, built by ``bench/build_source_grams.py``: its API's functions, classes, options
    and enum values that no other family's files or entries hold, nor PyTorch's Python sources) in the
    text's first :data:`SOURCE_WINDOW` characters."""
    return dict(_name_counts(text[:SOURCE_WINDOW]))


@functools.lru_cache(maxsize=2)
def _name_counts(text: str) -> tuple[tuple[str, int], ...]:
    """:func:`source_name_counts` of the examined window, kept for the last two texts (the wording cue and
    the wording order of one look-up read the same message)."""
    if "_" not in text and not any(c.isupper() for c in text):
        return ()
    table = _source_names()
    seen: set[int] = set()
    counts: dict[str, int] = {}
    for m in NAME.finditer(text):
        family = _new_owner(table, zlib.crc32(m.group().encode()), seen)
        if family:
            counts[family] = counts.get(family, 0) + 1
    return tuple(counts.items())


def _source_text(low: str) -> dict[str, list[tuple[int, int]]]:
    """A tool's own wording (a message that quotes its error texts without naming it): per family, one
    ``(weight, position)`` hit when enough distinct 4-grams of its binaries' error texts occur
    (:data:`SOURCE_COUNTS`)."""
    hits: dict[str, list[tuple[int, int]]] = {}
    for family, (n, first) in source_gram_counts(low).items():
        if family not in SOURCE_COUNTS:
            continue
        medium, strong = SOURCE_COUNTS[family]
        if n >= strong:
            hits[family] = [(STRONG, first)]
        elif n >= medium:
            hits[family] = [(MEDIUM, first)]
    return hits


_QNN_TOOL_LOG = LazyPattern(r"(?<![\w.])\d{1,9}\.\dms \[(?: error |warning|  info | debug |verbose)\] ")
"""The log line of QNN's command-line tools (qnn-net-run, qnn-context-binary-generator, qnn-sample-app: the
SDK's examples/QNN/SampleApp/src/Log/LogUtils.cpp ``logDefaultCallback``, ``"%8.1fms [%-7s] "`` with the
level padded to seven, " ERROR ", "WARNING", "  INFO ", " DEBUG ", "VERBOSE"): the milliseconds and the
padded level together are that callback's own (OpenVINO's "[ ERROR ]" has no time before it)."""

_QAIRT_PY_LOG = LazyPattern(
    r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - \d{1,5} - (?:error|warning|info|debug(?:_[123])?|verbose) - "
)
"""The log line of the QAIRT / QNN / SNPE converters' Python logger (qti/aisw/converters/common/utils/
converter_utils.py: ``'%(asctime)s - %(lineno)d - %(levelname)s - %(message)s'``, levels including its own
DEBUG_1..3 and VERBOSE).  Other Python scripts use the same format, so it counts as a MEDIUM and a WEAK
marker: it names Qualcomm on its own, and yields to any tool's STRONG marker in the same text (a user's
script logging onnxruntime's error in this format is onnxruntime's)."""


_LOG_FORMS: tuple[tuple[str, str, LazyPattern, int], ...] = tuple(
    (family, literal, LazyPattern(pattern), weight)
    for family, forms in LOG_FORMS.items()
    for literal, pattern, weight in forms
)
"""Every family's log-line forms of :data:`.markers.LOG_FORMS` as ``(family, literal, pattern, weight)``,
each pattern compiled on first use."""


def _log_forms(low: str) -> dict[str, list[tuple[int, int]]]:
    """The log-line forms that a literal marker cannot hold: each family's of :data:`.markers.LOG_FORMS`
    (Rockchip's build stamp, the toolkit's error-level traceback, the runtime's banner, the example
    scripts' progress lines; the Hexagon libraries' and FastRPC's file-and-line lines), then Qualcomm's
    tools' (a number before the level: the command-line tools' line names the tool and replaces the rest,
    the converters' Python logger adds to them)."""
    hits: dict[str, list[tuple[int, int]]] = {}
    for family, literal, form, weight in _LOG_FORMS:
        if literal in low:
            m = form.search(low, 0, MAX_TEXT)
            if m:
                hits.setdefault(family, []).append((weight, m.start()))
    if "ms [" in low:
        m = _QNN_TOOL_LOG.search(low, 0, MAX_TEXT)
        if m:
            hits["qualcomm"] = [(STRONG, m.start())]
    if " - " in low and all(weight != STRONG for weight, _ in hits.get("qualcomm", ())):
        m = _QAIRT_PY_LOG.search(low, 0, MAX_TEXT)
        if m:
            hits.setdefault("qualcomm", []).extend(((MEDIUM, m.start()), (WEAK, m.start())))
    return hits


def _counts(marker: str, low: str) -> bool:
    """A marker found in the text counts, unless it must be a whole word and never is one."""
    return marker not in WHOLE_WORDS or _whole_word(marker, low)


def _whole_word(word: str, low: str) -> bool:
    """``word`` occurs in ``low`` with no letter or digit right before or after it (a side where the word
    itself ends in punctuation, as ``q::`` does, needs no boundary)."""
    check_left, check_right = word[:1].isalnum(), word[-1:].isalnum()
    pos = low.find(word)
    while pos >= 0:
        end = pos + len(word)
        left = check_left and low[pos - 1 : pos].isalnum()
        right = check_right and low[end : end + 1].isalnum()
        if not (left or right):
            return True
        pos = low.find(word, pos + 1)
    return False


def detect_families(text: str, lowered: str | None = None) -> list[str]:
    """Families with strong enough evidence (a summed weight of at least :data:`STRONG`), best first:
    the family named by the strongest single marker, then by the most evidence, then the one named
    first (a log prefix or an envelope comes before what it quotes)."""
    evidence = _evidence(text, lowered)
    ranked = sorted(evidence.items(), key=lambda kv: kv[1], reverse=True)
    return [family for family, (_, total, _) in ranked if total >= STRONG]


_UNCOVERED_MARKERS: dict[str, Markers] = {family: markers for family, (_, markers) in UNCOVERED.items()}


def detect_uncovered(text: str, lowered: str | None = None) -> list[tuple[str, tuple[int, int, int]]]:
    """Tools dumpscope does not cover that the text names (summed weight of at least :data:`STRONG`),
    best first, each with its evidence ``(strongest weight, summed weight, -first position)``."""
    evidence = _evidence(text, lowered, _UNCOVERED_MARKERS)
    ranked = sorted(evidence.items(), key=lambda kv: kv[1], reverse=True)
    return [(family, ev) for family, ev in ranked if ev[1] >= STRONG]


def strongest_covered(text: str, lowered: str | None = None) -> tuple[int, int, int] | None:
    """The evidence of the best-evidenced covered family (None when no family reaches :data:`STRONG`)."""
    ranked = sorted((ev for ev in _evidence(text, lowered).values() if ev[1] >= STRONG), reverse=True)
    return ranked[0] if ranked else None
