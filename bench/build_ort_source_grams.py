"""Build ``core/knowledge/ort_source_grams.json``: onnxruntime's own error wording, as hashed word 4-grams.

    .venv/bin/python bench/build_ort_source_grams.py

onnxruntime prints its errors from string literals compiled into its binaries (ORT_THROW /
ORT_MAKE_STATUS / ORT_ENFORCE pieces, the Python binding's checks).  This script reads those
literals out of the installed onnxruntime wheel (``libonnxruntime.so`` and the pybind module: runs
of at least 12 printable bytes, as ``strings -n 12`` does), keeps the error-like sentence pieces
(four words or more, a word such as "failed", "invalid", "expected", "not"; no mangled C++ names; no
pieces of the TLS/HTTP/compression libraries linked in), and keeps the word 4-grams that are
onnxruntime's alone: 4-grams that also occur in onnx's own binary (onnxruntime links onnx, so the
checker's and shape inference's texts are in both) or in any knowledge-base entry of another tool
are dropped.  :mod:`dumpscope.core.knowledge.family` counts a message's 4-grams found here as
onnxruntime evidence.  No message of the evaluation sets is read.

Each 4-gram is stored as the CRC-32 of its lower-case words joined by one space (a collision between
two of the ~25 000 grams and a message's grams is about one in 170 000 per gram; two are needed).
"""

from __future__ import annotations

import json
import re
import sys
import zlib
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUT = ROOT / "core" / "knowledge" / "ort_source_grams.json"
ERRISH = re.compile(
    r"\b(fail|failed|failure|invalid|error|not|cannot|can't|unsupported|mismatch|expected|must|should|unable"
    r"|missing|exceed|exceeds|doesn't|couldn't|got|only|unknown|unexpected|requires|required)\b",
    re.IGNORECASE,
)
LIBRARIES = re.compile(
    r"ssl|mbedtls|curl|socket|handshake|sqlite|database|http|mime|pollset|ecdhe|x509|certificate|tls|cipher"
    r"|proxy|cookie|url|dns|utf-?8|json|regex|locale|protobuf|zlib|absl|eigen",
    re.IGNORECASE,
)
PRINTABLE = re.compile(rb"[\x20-\x7e\t]{12,}")
WORD = re.compile(r"[a-z]+")


def literals(path: Path) -> set[str]:
    """The printable runs of at least 12 bytes in a binary (``strings -n 12``)."""
    return {m.group().decode("ascii") for m in PRINTABLE.finditer(path.read_bytes())}


def error_pieces(strings: set[str]) -> list[str]:
    """The error-like sentence pieces among a binary's literals."""
    kept = []
    for s in sorted(strings):
        if re.match(r"^_?Z?N?K?\d", s) or "::" in s or "__" in s:
            continue  # mangled C++ names, qualified symbols
        if not ERRISH.search(s) or LIBRARIES.search(s):
            continue
        if len(WORD.findall(s.lower())) < 4 or sum(c.isalpha() or c == " " for c in s) / len(s) < 0.8:
            continue
        kept.append(s)
    return kept


def grams(text: str, n: int = 4) -> set[str]:
    """The lower-case word n-grams of a text (the same split as the product's)."""
    words = WORD.findall(text.lower())
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


def ort_only_grams() -> tuple[set[str], set[str], str]:
    """onnxruntime's error-piece 4-grams less those of onnx's binary, onnx's binary's 4-grams, and the
    versions read (from the installed onnxruntime and onnx wheels)."""
    import onnx
    import onnxruntime

    capi = Path(onnxruntime.__file__).parent / "capi"
    ort = set().union(*(literals(p) for p in sorted(capi.glob("*.so*"))))
    onnx_strings = set().union(*(literals(p) for p in sorted(Path(onnx.__file__).parent.glob("*.so"))))
    kept: set[str] = set()
    for piece in error_pieces(ort - onnx_strings):
        kept |= grams(piece)
    shared: set[str] = set()
    for s in onnx_strings:
        shared |= grams(s)
    return (
        kept - shared,
        shared,
        f"onnxruntime {onnxruntime.__version__} wheel binaries minus onnx {onnx.__version__}'s",
    )


def build() -> dict[str, object]:
    """The grams document, from the installed onnxruntime and onnx wheels and the knowledge base."""
    kept, _, versions = ort_only_grams()
    other_tools: set[str] = set()
    with (ROOT / "core" / "knowledge" / "kb.jsonl").open(encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            if entry["family"] != "onnxruntime":
                fields = ("example", "cause", "fix", "tool", "pattern")
                other_tools |= grams(" ".join(str(entry.get(k) or "") for k in fields))
    hashes = array("I", sorted({zlib.crc32(g.encode()) for g in kept - other_tools}))
    return {
        "source": f"{versions} (bench/build_ort_source_grams.py)",
        "grams": len(hashes),
        "crc32_le_hex": hashes.tobytes().hex() if sys.byteorder == "little" else _little(hashes),
    }


def main() -> None:
    from dumpscope.core.atomic import write_text

    doc = build()
    write_text(json.dumps(doc) + "\n", OUT)
    print(f"{doc['grams']} onnxruntime-only 4-grams written to {OUT.relative_to(ROOT)}")


def _little(hashes: array) -> str:
    swapped = array("I", hashes)
    swapped.byteswap()
    return swapped.tobytes().hex()


if __name__ == "__main__":
    main()
