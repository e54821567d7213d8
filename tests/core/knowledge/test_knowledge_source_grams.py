"""Issue 23: each tool recognised by the wording of its own binaries (``bench/build_source_grams.py``).

The build is checked on tiny synthetic binaries (same input, same bytes; the three rules that decide which
family a 4-gram counts for), the shipped table on its own consistency, and the routing on sentences read
out of the vendors' binaries (the onnxruntime-qnn 2.7.0, openvino 2026.4.1, tensorrt-lean-cu12-libs
11.4.0.106 and onnx 1.23.2 wheels, copied here as their literals are), none of which carries a marker of
its tool, and on generic runtime text (C++ exceptions, signals, CUDA errors) that must name no tool.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from dumpscope.core.knowledge import family as family_module
from dumpscope.core.knowledge.family import SOURCE_COUNTS, detect_families, source_gram_counts
from dumpscope.core.knowledge.package_data import package_bytes

_BUILD = Path(__file__).resolve().parents[3] / "bench" / "build_source_grams.py"


@pytest.fixture(scope="module")
def build() -> Any:
    spec = importlib.util.spec_from_file_location("build_source_grams", _BUILD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up there
    spec.loader.exec_module(sys.modules[spec.name])
    module = sys.modules[spec.name]
    return module


def _crc(gram: str) -> int:
    return zlib.crc32(gram.encode())


# --- the build, on synthetic binaries ------------------------------------------------------------------

_A = b"\x00ELF\x00the widget failed to open the sideless channel\x00\x7f\x00a shared sentence is not here\x00"
_B = (
    b"MZ\x90\x00a shared sentence is not here\x00\x00gadget error: cannot bind the frobnicator now\x00"
    b"vendored lib text must never be counted\x00"
)
_LIB = b"\x00vendored lib text must never be counted\x00"
_RUNTIME = b"\x00gadget error: cannot bind\x00"


def _synthetic(build: Any) -> tuple[dict[str, Any], bytes]:
    strings = {
        "alpha": build.literals(_A),
        "beta": build.literals(_B),
        "lib": build.literals(_LIB),
        "runtime": build.literals(_RUNTIME),
    }
    grams = build.family_grams(
        strings,
        {"beta": ("lib",)},
        {"alpha": ["alpha entry: cannot bind the frobnicator now"]},
        generic=("runtime",),
    )
    return build.document(grams, {f: f"synthetic {f}" for f in grams})


def test_the_build_is_reproducible_on_synthetic_binaries(build: Any) -> None:
    """The same binaries and entries give the same document and the same table, byte for byte."""
    first, second = _synthetic(build), _synthetic(build)
    assert json.dumps(first[0], sort_keys=True) == json.dumps(second[0], sort_keys=True)
    assert first[1] == second[1]
    doc, table = first
    assert doc["table_bytes"] == len(table)
    assert doc["table_sha256"] == hashlib.sha256(table).hexdigest()


def test_the_build_keeps_each_family_s_own_error_grams_by_the_three_rules(build: Any) -> None:
    grams = build.family_grams(
        {
            "alpha": build.literals(_A),
            "beta": build.literals(_B),
            "lib": build.literals(_LIB),
            "runtime": build.literals(_RUNTIME),
        },
        {"beta": ("lib",)},
        {"alpha": ["alpha entry: cannot bind the frobnicator now"]},
        generic=("runtime",),
    )
    assert _crc("widget failed to open") in grams["alpha"]
    # rule 2: a sentence in both families' binaries counts for neither
    assert _crc("a shared sentence is") not in grams["alpha"] | grams["beta"]
    # rule 2, a runtime: "gadget error cannot bind" is also the runtime's text; the rest is beta's own
    assert _crc("gadget error cannot bind") not in grams["beta"]
    assert _crc("error cannot bind the") in grams["beta"]
    # rule 3: another family's entry holds "the frobnicator now" ("bind the frobnicator now" is beta's)
    assert _crc("bind the frobnicator now") not in grams["beta"]
    # rule 1: the linked library's text is its owner's (a family), not beta's; the runtime gets no set
    assert _crc("lib text must never") not in grams["beta"]
    assert set(grams) == {"alpha", "beta", "lib"}


def test_the_table_gives_a_colliding_key_to_no_family(build: Any) -> None:
    """Two families' different 4-grams with one CRC-32 (a collision) count for neither; the table is sorted
    and each key's family byte follows the keys."""
    doc, table = build.document({"a": {5, 1, 9}, "b": {7, 9}}, {"a": "x", "b": "y"})
    n = len(table) // 5
    keys = [int.from_bytes(table[4 * i : 4 * i + 4], "little") for i in range(n)]
    assert keys == [1, 5, 7]
    assert list(table[4 * n :]) == [0, 0, 1]
    assert [r["grams"] for r in doc["families"]] == [2, 1]


# --- the shipped table and its loader --------------------------------------------------------------------


def test_the_shipped_table_is_consistent_with_its_document() -> None:
    doc = json.loads(package_bytes("source_grams.json"))
    table = package_bytes(doc["table"])
    assert len(table) == doc["table_bytes"]
    assert hashlib.sha256(table).hexdigest() == doc["table_sha256"]
    families, keys, owners = family_module._source_grams()
    assert families == tuple(r["family"] for r in doc["families"])
    assert len(keys) == len(owners) == len(table) // 5
    assert all(a < b for a, b in zip(keys, keys[1:], strict=False))
    assert [owners.count(i) for i in range(len(families))] == [r["grams"] for r in doc["families"]]
    assert set(SOURCE_COUNTS) <= set(families)
    assert all(r["grams"] > 5_000 for r in doc["families"])
    sources = {r["family"]: r["source"] for r in doc["families"]}
    assert "onnxruntime_qnn-2.7.0" in sources["qualcomm"]
    assert "openvino-2026.4.1" in sources["openvino"]
    assert "tensorrt_lean_cu12_libs-11.4.0.106" in sources["tensorrt"]


# --- routing by the vendors' own wording --------------------------------------------------------------

VENDOR_TEXT = {
    # QNN's libraries in onnxruntime-qnn 2.7.0 (QnnHtp.dll, QnnSystem.dll...), log level prefix dropped
    "qualcomm": [
        "Failed to get graph sizes after shared weights processing",
        "ElementWiseBinary operation 'OR' does not support BFLOAT_16 datatype for output tensor 0",
        "Calling setup on already setup const tracking mechanism is unsupported",
    ],
    # openvino 2026.4.1's libopenvino*.so
    "openvino": [
        "Requires both start and stop to be defined for static shapes.",
        "[GPU] Couldn't create concat operation: unsupported mixed inputs/output data types",
        "New subgraph is created due to outputs of a subgraph not broadcastable.",
    ],
    # tensorrt-lean-cu12-libs 11.4.0.106's libnvinfer_lean.so.11
    "tensorrt": [
        "Called with invalid parameter to collect stride value (nullptr).",
        "input_1 is neither input nor output, cannot set address for this tensor.",
        "Failed to allocate weight streaming device scratch memory of size 1048576",
    ],
    # onnx 1.23.2's onnx_cpp2py_export
    "onnx": [
        "Only one of the attributes 'class_weights', 'class_weights_as_tensor' should be specified.",
        "In case axis is not provided, input is flattened before elements are selected.",
    ],
}


@pytest.mark.parametrize(("family", "text"), [(f, t) for f, texts in VENDOR_TEXT.items() for t in texts])
def test_a_vendor_s_own_sentence_names_its_tool_without_any_marker(
    family: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert detect_families(text)[:1] == [family]
    assert source_gram_counts(text.lower())[family][0] >= SOURCE_COUNTS[family][1]
    monkeypatch.setattr(family_module, "SOURCE_COUNTS", {})
    assert family not in detect_families(text)  # the wording alone named it


GENERIC_TEXT = [
    "terminate called after throwing an instance of 'std::out_of_range'\n"
    "  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 5)",
    "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc",
    "Segmentation fault (core dumped)",
    "free(): invalid pointer\nAborted (core dumped)",
    "RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be "
    "asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
    "CUDA error: no kernel image is available for execution on the device",
    "CUDA driver version is insufficient for CUDA runtime version",
    # CUDA runtime texts TensorRT links statically (libcudart's): CUDA's, not TensorRT's
    "the provided PTX was compiled with an unsupported toolchain.",
    "operation not permitted when stream is capturing",
    "system has unsupported display driver / cuda driver combination",
    "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 11.17 GiB total capacity)",
    "CUBLAS_STATUS_NOT_INITIALIZED when calling cublasCreate(handle)",
    "std::runtime_error: failed to open file: model.bin: No such file or directory",
    "OSError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
    "ValueError: not enough values to unpack (expected 2, got 1)",
    "the input is not valid and the model failed to load because it is not supported",
]


@pytest.mark.parametrize("text", GENERIC_TEXT)
def test_generic_runtime_text_is_no_tool_s_wording(text: str) -> None:
    assert family_module._source_text(text.lower()) == {}
    assert detect_families(text) == []
