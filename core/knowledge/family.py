"""Which tool wrote a message: family detection from unmistakable markers, before any normalisation.

A marker is a lower-cased literal that only one tool prints: a log prefix (``e rknn:``,
``qnndsp <e>``, ``[e:onnxruntime:``, ``[trt]``), an API prefix (``rknn_init``, ``aclrt``,
``qnnbackend_``), a C++ namespace (``nvinfer1::``, ``ov::``, ``tflite::``) or a path inside
the tool's source tree (``onnxruntime/core/``, ``paddle2onnx``).  Paths are exactly what
:func:`~dumpscope.core.knowledge.words.normalise` blanks, which is why detection runs on
the raw text.  Detection is a handful of ``in`` tests per family: no regular expression.
The markers, their weights and where each was read are in :mod:`.markers`.

onnxruntime is also recognised by its own wording when a message quotes one of its error texts
without any marker: the word 4-grams of the error texts compiled into its binaries, less those
onnx's binary or another tool's entries also hold (``ort_source_grams.json``, built by
``bench/build_ort_source_grams.py``), count as one marker (:data:`ORT_SOURCE_MEDIUM` /
:data:`ORT_SOURCE_STRONG` distinct 4-grams).

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
from array import array

from dumpscope.core.knowledge.markers import MARKERS, MEDIUM, STRONG, UNCOVERED, WEAK, WHOLE_WORDS, Markers
from dumpscope.core.knowledge.package_data import package_bytes

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
    low = _unescaped(text.lower() if lowered is None else lowered)
    if table is not MARKERS:
        found = {family: _found(markers, low) for family, markers in table.items()}
    else:
        named_ep = "provider" in low or "-ep]" in low or "_ep::" in low
        others = _EP_NAME.sub(_blank_backend, low) if named_ep else low
        found = {
            family: _found(markers, low if family == "onnxruntime" else others)
            for family, markers in table.items()
        }
        found["onnxruntime"] += _source_text(low)
    return {family: _summary(hits) for family, hits in found.items() if hits}


def _unescaped(low: str) -> str:
    """A path printed through an escaping layer (a Go or Rust debug print, a JSON string, a C# verbatim
    log) doubles its backslashes (``onnxruntime\\\\core\\\\``): markers are read as the tool wrote them."""
    return low.replace("\\\\", "\\") if "\\\\" in low else low


#: onnxruntime's names for its execution providers (onnxruntime/core/providers/<ep>/: the registered provider
#: name ``<Backend>ExecutionProvider``, its sources ``<backend>_execution_provider.cc``, the OpenVINO EP's
#: log prefix ``[OpenVINO-EP]`` and namespace ``openvino_ep::``, the EP shared libraries
#: ``onnxruntime_providers_<backend>``).  The backend named inside them is onnxruntime's provider, not that
#: backend's own tool speaking: for the other families' markers it is blanked (same length, so positions
#: stay), while the backend's own wording elsewhere in the text still counts.
_EP_NAME = re.compile(
    r"[a-z0-9]+(?=executionprovider|_execution_provider|-ep\]|_ep::)"
    r"|(?<=onnxruntime_providers_)[a-z0-9]+"
)


def _blank_backend(m: re.Match[str]) -> str:
    return " " * len(m.group())


def _found(markers: Markers, low: str) -> list[tuple[int, int]]:
    """``(weight, position)`` of the markers present in the lower-cased text."""
    return [(w, low.find(marker)) for marker, w in markers if marker in low and _counts(marker, low)]


def _summary(hits: list[tuple[int, int]]) -> tuple[int, int, int]:
    """Strongest weight, summed weight, and minus where the first marker starts (earlier ranks higher)."""
    weights = [w for w, _ in hits]
    return max(weights), sum(weights), -min(pos for _, pos in hits)


ORT_SOURCE_MEDIUM = 2
"""Distinct onnxruntime-only word 4-grams that count as a :data:`MEDIUM` marker of onnxruntime."""
ORT_SOURCE_STRONG = 4
"""... and as a :data:`STRONG` one (thresholds set on the dev messages: no other tool's dev message has
two; :mod:`bench.build_ort_source_grams` says how the 4-grams were read out of onnxruntime's binaries)."""
ORT_SOURCE_WINDOW = 32 * 1024
"""Only the first 32 KiB of a text are searched for onnxruntime's wording (a word-by-word walk, unlike
the markers' ``in`` tests; an error message is far shorter, a whole pasted log is scanned line by line)."""
_WORD = re.compile(r"[a-z]+")


@functools.cache
def _ort_grams() -> array[int]:
    """The CRC-32s of the word 4-grams only onnxruntime's own error texts contain, sorted (read once;
    searched by bisection: building a set of them would cost more than a message's few look-ups)."""
    packed = array("I", bytes.fromhex(json.loads(package_bytes("ort_source_grams.json"))["crc32_le_hex"]))
    if sys.byteorder != "little":
        packed.byteswap()
    return packed


def _is_ort_gram(key: int, known: array[int]) -> bool:
    i = bisect.bisect_left(known, key)
    return i < len(known) and known[i] == key


def _source_text(low: str) -> list[tuple[int, int]]:
    """onnxruntime's own wording (a message that quotes its error texts without naming it): one
    ``(weight, position)`` hit when enough distinct 4-grams of its binaries' error texts occur."""
    known = _ort_grams()
    words = list(_WORD.finditer(low[:ORT_SOURCE_WINDOW]))
    found: set[int] = set()
    first = -1
    for i in range(len(words) - 3):
        key = zlib.crc32(" ".join(m.group() for m in words[i : i + 4]).encode())
        if key not in found and _is_ort_gram(key, known):
            found.add(key)
            first = words[i].start() if first < 0 else first
    if len(found) >= ORT_SOURCE_STRONG:
        return [(STRONG, first)]
    return [(MEDIUM, first)] if len(found) >= ORT_SOURCE_MEDIUM else []


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
