"""Issue 23: each tool recognised by the wording of its own binaries (``bench/build_source_grams.py``).

The build is checked on tiny synthetic binaries (same input, same bytes; the three rules that decide which
family a 4-gram counts for; Python sources read with ``ast``, never run), the shipped table on its own
consistency and on the knowledge base it was built with, and the routing on sentences read out of the
vendors' files (the onnxruntime-qnn 2.7.0, onnxruntime-gpu 1.31.1, onnxruntime-directml 1.24.4,
onnxruntime-openvino 1.24.1, openvino 2026.4.1, tensorrt-lean/-dispatch-cu12-libs and tensorrt-cu12-bindings
11.4.0.106, polygraphy 0.53.6, qai-hub 0.56.0, qai-hub-models 0.65.0, executorch 1.5.1, onnx 1.23.2,
rknn-toolkit2 2.5.0, coremltools 9.0, ai-edge-litert 2.3.0, mnn 3.6.1, ncnn 1.0.20261020, paddle2onnx 2.1.0,
onnxsim 0.4.36, apache-tvm 0.27.0.post1, onnxconverter-common 1.16.0 and torch-npu 2.14.0 wheels and torch
2.14.0's torch.onnx sources, copied
here as their literals are), none of which carries a marker of its tool, and on generic runtime text (C++
exceptions, signals, CUDA/cuDNN/cuBLAS errors, Python errors, torch's, Cython's, pybind11's and protobuf's
texts) that must name no tool.

Also from s29b_rknn_qualcomm (test_knowledge_rknn.py): their notes stand in the docstrings named.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.build_source_grams import CYTHON_COMPRESSED, cython_strings
from dumpscope.core.knowledge import family as family_module
from dumpscope.core.knowledge.family import SOURCE_COUNTS, detect_families, source_gram_counts
from dumpscope.core.knowledge.package_data import package_bytes
from tests.support.paths import bench_script


@pytest.fixture(scope="module")
def build() -> Any:
    return bench_script("build_source_grams")


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


def test_rule_3_spares_the_owner_s_text_quoted_by_an_entry_of_a_family_that_links_it(build: Any) -> None:
    """An entry of a family whose binaries link the owner's library (onnxruntime's load error carrying onnx's
    checker text) quotes the owner's text: the owner keeps those 4-grams; any other family's entry still
    takes them."""
    strings = {"owner": build.literals(b"\x00the gizmo schema must be registered first\x00")}
    entries = {"linker": ["linker envelope: the gizmo schema must be registered first"]}
    spared = build.family_grams(strings, {}, entries, quotes={"linker": {"owner"}})
    assert _crc("gizmo schema must be") in spared["owner"]
    assert _crc("gizmo schema must be") not in build.family_grams(strings, {}, entries)["owner"]
    assert build.linked_families()["onnxruntime"] >= {"onnx", "tensorrt", "openvino"}


def test_error_pieces_keep_a_tool_s_no_and_differ_sentences(build: Any) -> None:
    """Sentences an error is made of without the usual words ("failed", "invalid"): onnx's "No schema
    registered for", "Inferred shape and existing shape differ in rank" (onnx 1.23.2's literals)."""
    kept = build.error_pieces(
        [
            "No schema registered for op '",
            "Inferred shape and existing shape differ in rank: (",
            "Shape of the",
        ]
    )
    assert kept == ["Inferred shape and existing shape differ in rank: (", "No schema registered for op '"]


def test_an_integer_conversion_in_a_literal_reads_as_the_digits_it_prints(build: Any) -> None:
    """A binary's ``%d`` / ``%zu`` is where the message prints digits, no words: the words on either side
    meet, as they do in the message; ``%s`` prints a word and stays one."""
    literal = build.literals(b"\x00Cannot squeeze the gadget dim %d because %zu is expected by %s here\x00")
    grams = build.family_grams({"a": literal}, {}, {})["a"]
    message = "Cannot squeeze the gadget dim 3 because 1 is expected by the frobnicator"
    assert _crc("gadget dim because is") in grams
    assert len(grams & build.hashed([message])) == 6  # all but the two around %s
    assert _crc("gadget dim d because") not in grams
    assert _crc("expected by s here") in grams


def test_the_table_gives_a_colliding_key_to_no_family(build: Any) -> None:
    """Two families' different 4-grams with one CRC-32 (a collision) count for neither; the table is sorted
    and each key's family byte follows the keys."""
    doc, table = build.document({"a": {5, 1, 9}, "b": {7, 9}}, {"a": "x", "b": "y"})
    n = len(table) // 5
    keys = [int.from_bytes(table[4 * i : 4 * i + 4], "little") for i in range(n)]
    assert keys == [1, 5, 7]
    assert list(table[4 * n :]) == [0, 0, 1]
    assert [r["grams"] for r in doc["families"]] == [2, 1]


_PYTHON_SOURCE = b'''"""A module docstring: the widget failed to parse the frobnicator, no error text."""
import logging

raise SystemExit("never run: the build must not execute a source")


def load(path, n):
    """Load the model: raises when the file cannot be read by the frobnicator."""
    if n > 3:
        raise ValueError(f"Model {path} must have at most three gadget inputs but got {n}")
    assert n >= 0, "the gadget count must not be negative at all"
    logging.getLogger(__name__).error("Failed to compile the gadget graph %s for the %s device", path, n)
    log.warning("Unsupported gadget layout {} was requested by the caller".format(n))
    log.info("loading the model is not finished yet, please wait for it")
    ok = "a constant that no error message uses is not read at all"
    return ok
'''


def test_a_python_source_gives_its_raised_asserted_and_logged_messages(build: Any) -> None:
    """Parsed, never run (the module raises SystemExit at import); the messages are split at their format
    fields; docstrings, info logs and other constants are no texts of the file."""
    texts, errors = build.member_texts("pkg/gadget.py", _PYTHON_SOURCE)
    assert texts == errors
    assert errors == {
        "never run: the build must not execute a source",
        "Model ",
        " must have at most three gadget inputs but got ",
        "the gadget count must not be negative at all",
        "Failed to compile the gadget graph ",
        " for the ",
        " device",
        "Unsupported gadget layout ",
        " was requested by the caller",
    }
    grams = build.hashed(build.error_pieces(errors))
    assert _crc("must have at most") in grams
    assert _crc("gadget layout was requested") not in grams  # no gram spans a format field
    assert build.member_texts("pkg/broken.py", b"def (:\n") == (set(), set())


def test_a_python_source_s_message_routes_like_a_binary_literal(build: Any) -> None:
    """A Python source's raised message is a family's own text as a binary literal is (rule 2 on both)."""
    texts, errors = build.member_texts("pkg/gadget.py", _PYTHON_SOURCE)
    grams = build.family_grams(
        {"py": texts, "bin": build.literals(b"\x00the gadget count must not be negative\x00")},
        {},
        {},
        errors={"py": errors, "bin": build.literals(b"\x00the gadget count must not be negative\x00")},
    )
    assert _crc("have at most three") in grams["py"]
    assert _crc("gadget count must not") not in grams["py"] | grams["bin"]  # in both: neither


def test_a_linked_library_of_another_version_stays_its_owner_s(build: Any) -> None:
    """Rule 1 on the 4-grams: an older copy of the owner's text inside another family's binary (one word
    differs, so the literals differ) leaves the owner's 4-grams the owner's, and gives the linking family
    none of them."""
    owner = b"\x00Nodes in a graph must be topologically sorted, however input\x00"
    older = b"\x00Nodes in a graph must be topologically sorted however input was\x00"
    grams = build.family_grams(
        {"owner": build.literals(owner), "linker": build.literals(older)}, {"linker": ("owner",)}, {}
    )
    assert _crc("must be topologically sorted") in grams["owner"]
    assert _crc("sorted however input was") in grams["linker"]
    assert not grams["linker"] & build.hashed(build.literals(owner))


def test_a_part_s_linked_family_is_removed_from_that_part_only(
    build: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An execution provider's library quoting its backend's text: the backend keeps it; the provider's
    family keeps the same text read from another of its own parts (then rule 2 makes it neither's)."""

    class Part:
        def __init__(self, data: bytes, embeds: tuple[str, ...] = ()) -> None:
            self.data, self.embeds = data, embeds

        def binaries(self, cache: Path) -> Any:
            yield "lib.so", self.data

        def describe(self, cache: Path) -> str:
            return "synthetic"

    quoted = b"\x00the backend could not compile the given network\x00"
    own = b"\x00the provider failed to register its kernels\x00"
    sources = (
        build.Source("provider", (Part(quoted + own, embeds=("backend",)),)),
        build.Source("backend", (Part(quoted),)),
        build.Source("other", (Part(quoted), Part(quoted, embeds=("backend",)))),
    )
    monkeypatch.setattr(build, "SOURCES", sources)
    strings, errors, described = build.read_sources(Path("/nonexistent"))
    assert strings["provider"] == errors["provider"] == build.literals(own)
    assert strings["other"] == build.literals(quoted)
    assert described == {"provider": "synthetic", "backend": "synthetic", "other": "synthetic"}


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
    assert [bytes(owners).count(i) for i in range(len(families))] == [r["grams"] for r in doc["families"]]
    assert set(SOURCE_COUNTS) <= set(families)
    # the first five families' sets are large; the tools read later own fewer (onnx-simplifier's module is
    # mostly the onnx it links, onnxconverter-common is a few Python files)
    sizes = {r["family"]: r["grams"] for r in doc["families"]}
    assert all(sizes[f] > 5_000 for f in ("onnxruntime", "onnx", "qualcomm", "openvino", "tensorrt"))
    assert all(n > 50 for n in sizes.values())
    sources = {r["family"]: r["source"] for r in doc["families"]}
    assert "onnxruntime_qnn-2.7.0" in sources["qualcomm"]
    assert "openvino-2026.4.1" in sources["openvino"]
    assert "tensorrt_lean_cu12_libs-11.4.0.106" in sources["tensorrt"]
    for wheel in ("onnxruntime_gpu-1.31.1", "onnxruntime_directml-1.24.4", "onnxruntime_openvino-1.24.1"):
        assert wheel in sources["onnxruntime"]
    for wheel in ("qai_hub-0.56.0", "qai_hub_models-0.65.0", "executorch-1.5.1"):
        assert wheel in sources["qualcomm"]
    for wheel in (
        "tensorrt_cu12_bindings-11.4.0.106",
        "tensorrt_dispatch_cu12_libs-11.4.0.106",
        "polygraphy",
    ):
        assert wheel in sources["tensorrt"]
    for family, wheel in (
        ("rknn", "rknn_toolkit2-2.5.0"),
        ("rknn", "rknn_toolkit_lite2-2.5.0"),
        ("coreml", "coremltools-9.0"),
        ("tflite", "ai_edge_litert-2.3.0"),
        ("mnn", "mnn-3.6.1"),
        ("ncnn", "ncnn-1.0.20261020"),
        ("paddle2onnx", "paddle2onnx-2.1.0"),
        ("onnxsim", "onnxsim-0.4.36"),
        ("tvm", "apache_tvm-0.27.0.post1"),
        ("float16", "onnxconverter_common-1.16.0"),
        ("ascend", "torch_npu-2.14.0"),
        ("torch_onnx", "torch-2.14.0"),
    ):
        assert wheel in sources[family]
    # runtimes and libraries no family owns
    assert not {"cuda", "numpy", "directml", "cython", "pybind11", "protobuf", "torch"} & set(sources)


def test_every_covered_family_with_wheels_is_read_and_embedded_text_stays_its_owner_s(build: Any) -> None:
    """Each family whose binaries or sources are on the registry is a source; what a wheel bundles of another
    project is not read as the family's (RKNN's tf2onnx, Caffe and PyTorch converters and adb; torch_npu's
    fork of torch's Inductor and its headers; LiteRT's vendor plugins; TVM's compiler library with LLVM
    and its CUTLASS); the families that link onnx have it removed (rule 1); torch's text is no family's."""
    sources = {s.family: s for s in build.SOURCES}
    covered = {"onnxruntime", "onnx", "qualcomm", "openvino", "tensorrt", "rknn", "coreml", "tflite", "mnn"}
    covered |= {"ncnn", "paddle2onnx", "onnxsim", "tvm", "float16", "ascend", "torch_onnx"}
    assert covered <= {f for f, s in sources.items() if not s.generic}
    assert {f for f, s in sources.items() if s.generic} >= {"torch", "cython", "pybind11", "protobuf"}
    for family in ("onnxruntime", "openvino", "rknn", "mnn", "paddle2onnx", "onnxsim", "torch"):
        assert "onnx" in sources[family].embeds

    def reads(family: str, name: str) -> bool:
        return any(
            isinstance(p, build.Wheel)
            and any(fnmatch.fnmatch(name, m) for m in p.members)
            and not any(fnmatch.fnmatch(name, m) for m in p.exclude)
            for p in sources[family].parts
        )

    assert reads("rknn", "rknn/api/rknn_base.cpython-311-x86_64-linux-gnu.so")
    assert reads("rknn", "rknn/api/lib/linux-x86_64/librknnc.so")
    assert reads("rknn", "rknnlite/api/rknn_runtime.cpython-311-aarch64-linux-gnu.so")
    assert not reads("rknn", "rknn/base/convertor/tensorflow2onnx/tf2onnx/onnx_opset/nn.cpython-311.so")
    assert not reads("rknn", "rknn/3rdparty/platform-tools/adb/linux-x86_64/adb")
    assert reads("ascend", "torch_npu/lib/libtorch_npu.so")
    assert reads("ascend", "torch_npu/dynamo/torchair/_ge_concrete_graph/utils.py")
    assert not reads("ascend", "torch_npu/_inductor/codegen/triton.py")
    assert not reads("ascend", "torch_npu/include/torch/csrc/api/include/torch/all.h")
    assert not reads("ascend", "torch_npu/lib/libtensorpipe.so")
    assert reads("tflite", "ai_edge_litert/libLiteRt.so") and reads("tflite", "ai_edge_litert/interpreter.py")
    assert not reads("tflite", "ai_edge_litert/vendors/qualcomm/compiler/libLiteRtCompilerPlugin_Qualcomm.so")
    assert not reads("tflite", "ai_edge_litert/libLiteRtWebGpuAccelerator.so")
    assert reads("tvm", "tvm/lib/libtvm_runtime.so") and reads(
        "tvm", "tvm/relax/frontend/onnx/onnx_frontend.py"
    )
    assert not reads("tvm", "tvm/lib/libtvm_compiler.so")
    assert not reads("tvm", "tvm/3rdparty/cutlass/python/cutlass/op/op.py")
    assert reads("coreml", "coremltools/converters/mil/frontend/torch/ops.py")
    assert not reads("coreml", "coremltools/test/api/test_api_examples.py")
    # torch.onnx's Python sources are torch_onnx's; torch's libraries stay no family's
    assert reads("torch_onnx", "torch/onnx/_internal/exporter/_core.py") and reads(
        "torch_onnx", "torch/onnx/utils.py"
    )
    assert not reads("torch_onnx", "torch/lib/libtorch_cpu.dylib") and not reads(
        "torch_onnx", "torch/nn/modules/conv.py"
    )
    assert "onnx" in sources["torch_onnx"].embeds


def test_the_table_was_built_from_the_current_entries(build: Any) -> None:
    """Rule 3 reads the knowledge base's entries: after they change, the table is rebuilt (one command,
    ``.venv/bin/python bench/build_source_grams.py``, from the cached wheels)."""
    doc = json.loads(package_bytes("source_grams.json"))
    assert doc["kb_sha256"] == build.kb_digest(build.kb_texts()), (
        "kb.jsonl changed since source_grams.bin was built: run .venv/bin/python bench/build_source_grams.py"
    )


# --- routing by the vendors' own wording --------------------------------------------------------------

VENDOR_TEXT = {
    # QNN's libraries in onnxruntime-qnn 2.7.0 (QnnHtp.dll, QnnSystem.dll...), log level prefix dropped
    "qualcomm": [
        "Failed to get graph sizes after shared weights processing",
        "ElementWiseBinary operation 'OR' does not support BFLOAT_16 datatype for output tensor 0",
        "Calling setup on already setup const tracking mechanism is unsupported",
        # qai-hub-models 0.65.0 (utils), qai-hub 0.56.0 (zipped_model.py), executorch 1.5.1's QNN backend
        "Model must be compiled with AI Hub Workbench to extract tool versions.",
        "Incorrect archived model. Expecting only one model asset at base path model.onnx",
        "col2im can only be converted when padding equals to (0, 0)",
        "DecomposePDist requires static shapes but got symbolic dimension N=s0",
        "Attempting to create context binary from a de-serialized context is illegal.",
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
        # tensorrt-cu12-bindings 11.4.0.106's tensorrt.so, polygraphy 0.53.6's backend/onnx/loader.py
        "[ERROR] User aborted the operation, the read function in streamReaderV2 returned 0 bytes.",
        "Constant folding pass failed. Skipping subsequent passes.",
        "size_threshold is set, but external data path has not been set. No external data will be written.",
        "It is illegal to remove a tensor that is the input or output of a layer.",
    ],
    # the execution providers' libraries: CUDA's (onnxruntime-gpu 1.31.1), DirectML's (onnxruntime-directml
    # 1.24.4's onnxruntime.dll), OpenVINO's (onnxruntime-openvino 1.24.1), TensorRT's (onnxruntime-gpu)
    "onnxruntime": [
        "Unified SDPA node doesn't yet support inputs other than Q, K, V, Attn_scale",
        "GroupNorm in CUDA does not support the input: n=3",
        "Expected at least one main context node when embedded EP context nodes are present.",
        "TensorRT EP could not set INT8 dynamic range for fused node: conv1",
    ],
    # onnx 1.23.2's onnx_cpp2py_export
    "onnx": [
        "Only one of the attributes 'class_weights', 'class_weights_as_tensor' should be specified.",
        "In case axis is not provided, input is flattened before elements are selected.",
        # kept since a piece with "differ(s)", "unrecognized", "incompatible", "illegal"... or starting with
        # "No " counts as an error piece
        "Inferred elem type differs from existing elem type: (1) vs (10)",
    ],
    # rknn-toolkit2 2.5.0's compiled modules and librknnc.so
    "rknn": [
        "Not support max/min Pool KernelH/W Larger than FeatureH/W && OutputH/W != 1",
        "SubGraphManager: has no SubGraphMap, Cannot init ComputeZoneMap!",
        "Cannot redirect dw ktile to ytile, switch to ktile(For multi core)",
        "LSTM: Not support batch_size(3) unaligned to 4 for NPU, fallback to CPU.",
    ],
    # coremltools 9.0's converters (Python sources)
    "coreml": [
        "Cannot determine the scale factor for the resize layer. Please make sure the target size is known "
        "statically, or use mul op to get the target size.",
        'ROI input to the "crop_resize" op must be of rank 5, provided 4',
    ],
    # ai-edge-litert 2.3.0's libLiteRt.so and libpywrap_litert_common.so
    "tflite": [
        "Failed to mmap the given model buffer.",
        "Quantized and sparse fully-connected format supports symmetric weight quantization only.",
    ],
    # mnn 3.6.1's engine and converter modules
    "mnn": [
        "parameter paddings must be 2-D w/ shape [M, 2]",
        # the literal prints integers (%d): the words around them meet, as in the message
        "Cannot Squeeze dim[1], 1 is expected, 3 is got. input shape:",
        "ReadQuanData_c return weightLength is 0, maybe the weight data is invalid",
    ],
    # ncnn 1.0.20261020's module (ncnn's own Vulkan code, not the glslang it links)
    "ncnn": [
        "pipeline specialization count mismatch, expect 3 but got 2",
        "Gemm_vulkan int8 dynamic int8 A is not supported without input scale",
    ],
    # paddle2onnx 2.1.0's module
    "paddle2onnx": [
        "Cannot convert split op, while there's -1 in sections and cannot be infered by input shape.",
        "Due to the operator multiclass_nms3, the exported ONNX model will only supports inference with "
        "input batch_size == 1.",
    ],
    # onnxsim 0.4.36 (its Python sources)
    "onnxsim": ["tensor_size_threshold should be less than 2GB"],
    # apache-tvm 0.27.0.post1's Relax frontends (Python sources)
    "tvm": [
        "STABLEHLO_CONVOLUTION with batch_group_count > 1 is not supported",
        "Mode must be avg or max. Please pass in a valid mode.",
    ],
    # onnxconverter-common 1.16.0's float16.py and auto_mixed_precision.py
    "float16": [
        "Argument `validate_fn` and `rtol` cannot both be `None`.",
    ],
    # torch-npu 2.14.0's torchair converters and libtorch_npu.so
    "ascend": [
        "torch.ops.aten.sin.Scalar ge_converter is not implemented!",
        "Captured updatable ACLGraph operators but missing ACLGraph update plan: graph_0",
    ],
    # torch 2.14.0's torch.onnx Python sources (the dynamo-based exporter's _building.py and _core.py)
    "torch_onnx": [
        "ValueError: Could not determine the number of outputs for Split. num_outputs must be provided",
        "The target should be an ATen operator now, but node target frob.default is not",
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
    # cuDNN's and cuBLAS's texts (their API libraries count for no family), numpy's C API, Python's errors
    "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED",
    "CUDNN_STATUS_BAD_PARAM: the requested functionality is not supported",
    "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared "
    "object file: No such file or directory",
    "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, "
    "m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc)`",
    "RuntimeError: CUDA error: device-side assert triggered\nCompile with `TORCH_USE_CUDA_DSA` to enable "
    "device-side assertions.",
    "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 "
    "and cpu!",
    "RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1",
    "ImportError: numpy.core.multiarray failed to import",
    "ValueError: 'images' is not in list",
    "FileNotFoundError: [Errno 2] No such file or directory: 'model.onnx'",
    "ModuleNotFoundError: No module named 'torch'",
    "TypeError: forward() missing 1 required positional argument: 'x'",
    "AssertionError: Torch not compiled with CUDA enabled",
    "AttributeError: 'NoneType' object has no attribute 'shape'",
    "IndexError: list index out of range",
    "OSError: [Errno 28] No space left on device",
    "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
    "ValueError: only one element tensors can be converted to Python scalars",
    "Illegal instruction (core dumped)",
    "double free or corruption (out)\nAborted (core dumped)",
    "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries "
    "exceeded with url",
    "PermissionError: [Errno 13] Permission denied: '/usr/local/lib/python3.10/site-packages'",
    "ERROR: Could not find a version that satisfies the requirement torch==1.8.0 (from versions: none)",
    # torch's own checks, which torch_npu's library carries (torch 2.14.0's libraries): torch's, not Ascend's
    "RuntimeError: pad should be smaller than or equal to half of kernel size, but got padW = 2, padH = 2, "
    "kW = 3, kH = 3",
    "RuntimeError: add(sparse, dense) is not supported. Use add(dense, sparse) instead.",
    "RuntimeError: set_static_graph() should be called before training loop starts and after "
    "DistributedDataParallel is constructed.",
    # texts every Cython extension (RKNN's compiled modules) or pybind11 extension (onnx-simplifier's, MNN's)
    # carries: theirs, not the tool's
    "ImportError: Module 'gadget' has already been imported. Re-initialisation is not supported.",
    "RuntimeError: Unable to cast Python instance to C++ type (compile in debug mode for details)",
]


@pytest.mark.parametrize("text", GENERIC_TEXT)
def test_generic_runtime_text_is_no_tool_s_wording(text: str) -> None:
    assert family_module._source_text(text.lower()) == {}
    assert detect_families(text) == []


def _module(constants: list[str]) -> bytes:
    """A stand-in for a compiled Cython module: the marker and the constants end to end in one zlib stream."""
    table = "".join(constants).encode("utf-8")
    return b"\x7fELF padding " + CYTHON_COMPRESSED + b" more " + zlib.compress(table) + b" tail"


def test_cython_strings_reads_the_messages_and_leaves_report_lines_out() -> None:
    """The messages come out cut at their format fields; the accuracy-analysis header, an info line and a
    'results save to' line do not."""
    data = _module(
        [
            "Feed {} inputs, but the model has {} inputs!",
            "# simulator_error: calculate the output error of each layer of the simulator.",
            "I Quantizating {}",
            "The error analysis results save to: {}",
            "Unsupport target_platform: {}!",
        ]
    )
    found = cython_strings(data)
    assert "inputs, but the model has" in found
    assert "Unsupport target_platform:" in found
    assert not [p for p in found if "simulator_error" in p or "Quantizating" in p or "save to" in p]


def test_cython_strings_needs_the_marker() -> None:
    table = zlib.compress(b"Feed {} inputs, but the model has {} inputs!")
    assert cython_strings(b"no marker here " + table) == set()


_PRINTABLE = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=60)


@given(st.lists(_PRINTABLE, max_size=8), st.from_regex(r"[a-z]{6,10}", fullmatch=True), st.integers(0, 8))
def test_no_piece_holds_a_report_line_or_a_format_field(constants: list[str], tag: str, at: int) -> None:
    """Whatever else the table holds, a report header put among its lines gives no piece, and every piece is
    stripped, at least 12 characters and free of format fields."""
    lines = [*constants]
    lines.insert(min(at, len(lines)), f"# {tag}_error: calculate the output error of each layer")
    for piece in cython_strings(_module(["\n".join(lines)])):
        assert f"{tag}_error" not in piece
        assert piece == piece.strip() and len(piece) >= 12
        assert "{}" not in piece
