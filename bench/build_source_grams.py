"""Build ``core/knowledge/source_grams.json``: each tool's own error wording, as hashed word 4-grams.

    .venv/bin/python bench/build_source_grams.py [--cache DIR]

The tools print their errors from string literals compiled into the binaries they ship.  This script
reads those literals (runs of at least 12 printable bytes, as ``strings -n 12`` does) out of each
family's own binaries, keeps the error-like sentence pieces (four words or more, a word such as
"failed", "invalid", "expected", "not"; no mangled C++ names; no pieces of the TLS/HTTP/compression
libraries linked in) and stores their word 4-grams per family.  :mod:`dumpscope.core.knowledge.family`
counts a message's 4-grams found in a family's set as evidence of that family.  No message of the
evaluation sets is read.

Sources (:data:`SOURCES`; wheels are fetched once with ``pip download --no-deps`` into
``~/.cache/dumpscope/source_grams/wheels`` and read in place, never installed or imported):

* onnxruntime: the installed onnxruntime wheel's ``capi`` libraries, and the QNN execution provider's
  library (``onnxruntime_providers_qnn.dll``: onnxruntime's own source, shipped in onnxruntime-qnn);
* onnx: the installed onnx wheel's extension module;
* qualcomm: the QNN SDK libraries onnxruntime-qnn ships (QnnHtp, QnnSystem, QnnIr, QnnSaver, QnnGpu,
  Genie, HtpPrepare and the Hexagon ``libQnnHtpV*Skel.so`` the HTP runs);
* openvino: the openvino wheel's runtime, plugin and frontend libraries;
* tensorrt: the TensorRT lean runtime (``libnvinfer_lean``; the full builder library's wheel,
  tensorrt-cu12-libs, is not a plain wheel on the registry: its runtime texts only);
* no family: CUDA's runtime (``libcudart``, nvidia-cuda-runtime-cu12), which TensorRT links statically:
  its error texts ("operation not permitted when stream is capturing") are CUDA's, not TensorRT's.

Which family a 4-gram counts for:

1. a library linked into another family's binaries belongs to its owner: onnx's literals are removed
   from onnxruntime's and OpenVINO's (both link onnx) before anything is compared (:attr:`Source.embeds`);
2. a 4-gram found in the literals of two families' binaries (any literal, not only error pieces), or in
   those of a runtime they link (CUDA's), counts for neither;
3. a 4-gram found in a knowledge-base entry of another family counts for neither.

Each 4-gram is stored as the CRC-32 of its lower-case words joined by one space, in one table for
every family, ``source_grams.bin``: the sorted CRC-32s (little-endian 32-bit), then one byte per CRC-32,
the index of its family in ``source_grams.json``'s ``families`` (which also says where each family's
binaries were read, how many 4-grams it owns and the table's SHA-256).  One format, one loader and one
look-up per 4-gram for every family; the table is read as it is stored (no decoding at start-up).  The
same binaries and knowledge base give the same files, byte for byte.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import re
import subprocess
import sys
import zipfile
import zlib
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUT = ROOT / "core" / "knowledge" / "source_grams.json"
TABLE = OUT.with_suffix(".bin")
CACHE = Path.home() / ".cache" / "dumpscope" / "source_grams" / "wheels"
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


@dataclass(frozen=True)
class Wheel:
    """A wheel fetched from the registry by exact version and platform, read without installing it."""

    name: str
    version: str
    platform: str
    members: tuple[str, ...]
    """``fnmatch`` patterns of the wheel's files to read."""

    def path(self, cache: Path) -> Path:
        """The cached wheel (downloaded once with ``pip download --no-deps``)."""
        stem = self.name.replace("-", "_")
        found = sorted(cache.glob(f"{stem}-{self.version}-*.whl"))
        if not found:
            cache.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
                + ["--platform", self.platform, "--python-version", "3.11"]
                + [f"{self.name}=={self.version}", "-d", str(cache), "-q"],
                check=True,
            )
            found = sorted(cache.glob(f"{stem}-{self.version}-*.whl"))
        return found[0]

    def binaries(self, cache: Path) -> Iterator[tuple[str, bytes]]:
        with zipfile.ZipFile(self.path(cache)) as z:
            for name in sorted(z.namelist()):
                if any(fnmatch.fnmatch(name, m) for m in self.members):
                    yield name, z.read(name)

    def describe(self, cache: Path) -> str:
        return f"{self.path(cache).name} ({self.path(cache).stat().st_size // 1_000_000} MB)"


@dataclass(frozen=True)
class Installed:
    """An installed package's binaries (the wheels the project's tests already install)."""

    module: str
    members: tuple[str, ...]

    def binaries(self, cache: Path) -> Iterator[tuple[str, bytes]]:
        import importlib

        root = Path(importlib.import_module(self.module).__file__ or "").parent
        for pattern in self.members:
            for p in sorted(root.glob(pattern)):
                yield str(p.relative_to(root.parent)), p.read_bytes()

    def describe(self, cache: Path) -> str:
        import importlib

        return f"{self.module} {importlib.import_module(self.module).__version__} (installed)"


@dataclass(frozen=True)
class Source:
    """Where one family's binaries are read, and which other families' libraries they link."""

    family: str
    parts: tuple[Wheel | Installed, ...]
    embeds: tuple[str, ...] = ()
    generic: bool = False
    """Not a family: a runtime other tools link (CUDA's), whose texts count for no family (rule 2)."""


_QNN = Wheel("onnxruntime-qnn", "2.7.0", "win_amd64", ())
SOURCES: tuple[Source, ...] = (
    Source(
        "onnxruntime",
        (
            Installed("onnxruntime", ("capi/*.so*",)),
            Wheel(
                _QNN.name,
                _QNN.version,
                _QNN.platform,
                ("onnxruntime_qnn/libs/amd64/onnxruntime_providers_*",),
            ),
        ),
        embeds=("onnx",),
    ),
    Source("onnx", (Installed("onnx", ("*.so",)),)),
    Source(
        "qualcomm",
        (
            Wheel(
                _QNN.name,
                _QNN.version,
                _QNN.platform,
                (
                    "onnxruntime_qnn/libs/*/Qnn*.dll",
                    "onnxruntime_qnn/libs/*/HtpPrepare.dll",
                    "onnxruntime_qnn/libs/*/Genie.dll",
                    "onnxruntime_qnn/libs/*/libQnn*.so",
                ),
            ),
        ),
    ),
    Source(
        "openvino",
        (
            Wheel(
                "openvino",
                "2026.4.1",
                "manylinux_2_28_x86_64",
                ("openvino/libs/libopenvino*", "openvino/_pyopenvino*.so", "openvino/frontend/*/*.so"),
            ),
        ),
        embeds=("onnx",),
    ),
    Source(
        "tensorrt",
        (
            Wheel(
                "tensorrt-lean-cu12-libs",
                "11.4.0.106",
                "manylinux_2_28_x86_64",
                ("tensorrt_lean_libs/*.so*",),
            ),
        ),
    ),
    Source(
        "cuda",
        (
            Wheel(
                "nvidia-cuda-runtime-cu12",
                "12.9.79",
                "manylinux2014_x86_64",
                ("nvidia/cuda_runtime/lib/*.so*",),
            ),
        ),
        generic=True,
    ),
)


def literals(data: bytes) -> set[str]:
    """The printable runs of at least 12 bytes in a binary (``strings -n 12``)."""
    return {m.group().decode("ascii") for m in PRINTABLE.finditer(data)}


def error_pieces(strings: Iterable[str]) -> list[str]:
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


def hashed(texts: Iterable[str]) -> set[int]:
    """The CRC-32s of the word 4-grams of the texts (the key the product looks up)."""
    out: set[int] = set()
    for t in texts:
        words = WORD.findall(t.lower())
        if len(words) >= 4:
            out.update(zlib.crc32(" ".join(words[i : i + 4]).encode()) for i in range(len(words) - 3))
    return out


def family_grams(
    strings: dict[str, set[str]],
    embeds: dict[str, tuple[str, ...]],
    kb_texts: dict[str, list[str]],
    generic: Iterable[str] = (),
) -> dict[str, set[int]]:
    """Each family's own error-piece 4-grams (hashed) from its binaries' literals, by the three rules of
    the module's docstring.  ``strings``: family -> its binaries' literals; ``embeds``: family -> the
    families whose libraries it links; ``kb_texts``: family -> its knowledge-base entries' texts;
    ``generic``: the runtimes in ``strings`` that are no family (their texts only take part in rule 2)."""
    own = {
        f: s.difference(*(strings[e] for e in embeds.get(f, ()) if e in strings)) for f, s in strings.items()
    }
    everything = {f: hashed(s) for f, s in own.items()}
    kb = {f: hashed(t) for f, t in kb_texts.items()}
    out: dict[str, set[int]] = {}
    for f in sorted(set(own).difference(generic)):
        kept = hashed(error_pieces(own[f]))
        for g in sorted(set(everything) | set(kb)):
            if g != f:
                kept -= everything.get(g, set())
                kept -= kb.get(g, set())
        out[f] = kept
    return out


def pack(grams_by_family: dict[str, set[int]]) -> bytes:
    """All families' CRC-32s in one sorted table (little-endian 32-bit), then beside each the index of its
    family in sorted family order (one byte each): the stored form the product reads.  A CRC-32 two
    families' 4-grams share (a hash collision of two different 4-grams) counts for neither."""
    families = sorted(grams_by_family)
    owner: dict[int, int] = {}
    for i, f in enumerate(families):
        for key in grams_by_family[f]:
            owner[key] = -1 if key in owner else i
    keys = sorted(k for k, i in owner.items() if i >= 0)
    packed = array("I", keys)
    if sys.byteorder != "little":
        packed.byteswap()
    return packed.tobytes() + bytes(owner[k] for k in keys)


def document(
    grams_by_family: dict[str, set[int]], described: dict[str, str]
) -> tuple[dict[str, object], bytes]:
    """The JSON document (the families in table order, each with where its binaries were read and how many
    4-grams it owns; the table's size and SHA-256) and the table itself."""
    table = pack(grams_by_family)
    owners = table[len(table) // 5 * 4 :]
    families = sorted(grams_by_family)
    return {
        "built_by": "bench/build_source_grams.py",
        "families": [
            {"family": f, "source": described[f], "grams": owners.count(i)} for i, f in enumerate(families)
        ],
        "table": TABLE.name,
        "table_bytes": len(table),
        "table_sha256": hashlib.sha256(table).hexdigest(),
    }, table


def kb_texts() -> dict[str, list[str]]:
    """Each family's knowledge-base entries' texts (example, cause, fix, tool, pattern)."""
    out: dict[str, list[str]] = {}
    with (ROOT / "core" / "knowledge" / "kb.jsonl").open(encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            fields = ("example", "cause", "fix", "tool", "pattern")
            out.setdefault(entry["family"], []).append(" ".join(str(entry.get(k) or "") for k in fields))
    return out


def read_sources(cache: Path) -> tuple[dict[str, set[str]], dict[str, str]]:
    """family -> the literals of its binaries, and family -> where they were read."""
    strings: dict[str, set[str]] = {}
    described: dict[str, str] = {}
    for source in SOURCES:
        found: set[str] = set()
        for part in source.parts:
            for _, data in part.binaries(cache):
                found |= literals(data)
        strings[source.family] = found
        described[source.family] = "; ".join(part.describe(cache) for part in source.parts)
    return strings, described


def build(cache: Path = CACHE) -> tuple[dict[str, object], bytes]:
    strings, described = read_sources(cache)
    embeds = {s.family: s.embeds for s in SOURCES}
    generic = [s.family for s in SOURCES if s.generic]
    return document(family_grams(strings, embeds, kb_texts(), generic), described)


def main() -> None:
    from dumpscope.core.atomic import write_bytes, write_text

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the wheels are kept")
    args = parser.parse_args()
    doc, table = build(args.cache)
    write_bytes(table, TABLE)
    write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", OUT)
    for record in doc["families"]:  # type: ignore[attr-defined]
        print(f"{record['family']:12s} {record['grams']:7d} 4-grams  {record['source']}")
    print(f"written to {OUT.relative_to(ROOT)} and {TABLE.relative_to(ROOT)} ({len(table)} bytes)")


if __name__ == "__main__":
    main()
