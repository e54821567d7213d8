"""Build ``core/knowledge/source_grams.json``: each tool's own error wording, as hashed word 4-grams.

    .venv/bin/python bench/build_source_grams.py [--cache DIR]   # after any change of kb.jsonl too
    .venv/bin/python bench/build_source_grams.py --dev           # the dev counts SOURCE_COUNTS is set on

The tools print their errors from string literals compiled into the binaries they ship.  This script
reads those literals (runs of at least 12 printable bytes, as ``strings -n 12`` does) out of each
family's own binaries, keeps the error-like sentence pieces (four words or more, a word such as
"failed", "invalid", "expected", "not", "differ", "unrecognized", or a piece that starts with "No ", as
onnx's "No schema registered for" does; no mangled C++ names; no pieces of the TLS/HTTP/compression
libraries linked in) and stores their word 4-grams per family (an integer conversion such as ``%d`` is read
as the digits a message prints there, no word: :data:`INT_FIELD`).  :mod:`dumpscope.core.knowledge.family`
counts a message's 4-grams found in a family's set as evidence of that family.  No message of the
evaluation sets is read.

Sources (:data:`SOURCES`; wheels are fetched once with ``pip download --no-deps`` into
``~/.cache/dumpscope/source_grams/wheels`` and read in place, never installed or imported; a Python file is
parsed with :mod:`ast`, never run, and only the messages it raises, asserts or logs at warning level or
above are its texts, split at their format fields):

* onnxruntime: the installed onnxruntime wheel's ``capi`` libraries, and its execution providers'
  libraries (onnxruntime's own source): QNN's (``onnxruntime_providers_qnn.dll``, onnxruntime-qnn),
  CUDA's and TensorRT's (onnxruntime-gpu), DirectML's (built into onnxruntime-directml's
  ``onnxruntime.dll``) and OpenVINO's (onnxruntime-openvino's ``libonnxruntime_providers_openvino.so``);
* onnx: the installed onnx wheel's extension module;
* qualcomm: the QNN SDK libraries onnxruntime-qnn ships (QnnHtp, QnnSystem, QnnIr, QnnSaver, QnnGpu,
  Genie, HtpPrepare and the Hexagon ``libQnnHtpV*Skel.so`` the HTP runs), and Qualcomm's Python packages:
  the AI Hub client (qai-hub), its model zoo (qai-hub-models) and ExecuTorch's QNN backend (its Python
  sources and ``PyQnnManagerAdaptor``);
* openvino: the openvino wheel's runtime, plugin and frontend libraries;
* tensorrt: the TensorRT lean and dispatch runtimes (``libnvinfer_lean``, ``libnvinfer_dispatch``), the
  Python bindings (``tensorrt_bindings/tensorrt.so``: the builder's, parser's and runtime's Python API) and
  Polygraphy's Python sources.  The full builder library's wheels (tensorrt-cu12-libs, tensorrt-cu13-libs)
  are no plain wheels on the registry: the builder's own C++ wording is not in;
* rknn: RKNN-Toolkit2's wheel alone (its Cython-compiled Python: the API, graph rules, quantizer,
  extended ops; and the RKNN compiler ``librknnc.so``), not the third-party converters it bundles (tf2onnx,
  the Caffe and PyTorch converters) nor Android's adb; and RKNN-Toolkit-Lite2's runtime API (its aarch64
  wheel: no wheel ships librknnrt, which the board's image provides);
* coreml: coremltools' Python sources (the converters' frontends, the MIL passes, the model and optimize
  APIs; not its tests) and its native modules;
* tflite: LiteRT's wheel (ai-edge-litert, TensorFlow Lite's runtime under its new name: ``libLiteRt.so``,
  the Python bindings' common library with the interpreter, converter and calibrator, and the Python API);
  not its vendor plugins (they quote Qualcomm's, OpenVINO's, MediaTek's... backends), its WebGPU accelerator
  (Dawn's text) or its tools.  Not tensorflow's wheel (hundreds of MB);
* mnn: the MNN wheel's engine and converter/tools modules and Python package; ncnn: the ncnn wheel's module
  (the glslang compiler it links for its Vulkan shaders counts as ncnn's: no other covered tool compiles
  GLSL at run time) and Python package; paddle2onnx: its wheel's module and Python sources;
* onnxsim: onnx-simplifier 0.4.36's module and Python sources (the release its users run; 0.8's wheel is
  another, much larger package of quantizers).  What it owns after the rules is little (~90 4-grams): its
  own messages, the build paths its checks print (``/project/third_party/onnx-optimizer``) and the joints of
  an older onnx's texts it links (the 4-grams within them stay onnx's, rule 1);
* tvm: Apache TVM's wheel (apache-tvm 0.27.0.post1, 100 MB): its runtime libraries and Python sources (the
  Relax frontends, transforms, meta-schedule); not its compiler library (259 MB with LLVM linked in: LLVM's
  texts are no TVM wording), its tests or its bundled CUTLASS;
* float16: onnxconverter-common's Python sources (float16.py, auto_mixed_precision and its other helpers);
* torch_onnx: torch.onnx's Python sources in torch 2.14.0's macOS wheel (the one read for torch's libraries,
  below): the TorchScript-based exporter's symbolic functions and utils and the dynamo-based exporter under
  ``torch/onnx/_internal``; its C++ passes in ``libtorch_cpu`` are read as torch's (no family);
* ascend: torch_npu's wheel (43.7 MB): ``libtorch_npu.so`` (the ACL/CANN calls' wording), the ATB plugin,
  torchair's modules (GE graph mode) and its Python sources; not its fork of torch's Inductor, its headers
  (torch's and CANN's) or its tests.  The torch texts it carries are torch's: removed by rule 2 (below);
* no family: CUDA's runtime (``libcudart``, nvidia-cuda-runtime-cu12), which TensorRT links statically:
  its error texts ("operation not permitted when stream is capturing") are CUDA's, not TensorRT's; cuDNN's
  and cuBLAS's API libraries (nvidia-cudnn-cu12, nvidia-cublas-cu12; not their kernel libraries); and
  DirectML (``DirectML.dll``, which onnxruntime-directml ships); numpy's C API (its core extension and
  headers, whose import-failure texts every extension built against numpy carries) and its Cython modules;
  Cython's own compiled modules (the texts every Cython extension, RKNN's among them, carries); pybind11's
  headers (2.9.2's, 2.10.4's and 3.0.1's wording); protobuf's runtime (its upb module and Python
  sources); PyTorch's libraries (torch 2.14.0's macOS wheel, 127 MB: the Linux ones are CUDA builds of
  ~900 MB), whose c10/ATen/JIT checks torch_npu carries.  Not read: the TensorRT builder library (no plain
  wheel), tensorflow (too big), tlcpack (apache-tvm is read instead).

Which family a 4-gram counts for:

1. a library linked into another family's binaries belongs to its owner: onnx's literals are removed
   from onnxruntime's, OpenVINO's, RKNN's, MNN's, Paddle2ONNX's, onnx-simplifier's and torch's (each
   links onnx or reads its models with onnx's sources) before anything is compared (:attr:`Source.embeds`),
   and so are OpenVINO's from onnxruntime's OpenVINO execution provider and TensorRT's from its TensorRT
   one (:attr:`Wheel.embeds`); the owner's 4-grams also count as the owner's when the linked copy is of
   another version (its texts differ by a word);
2. a 4-gram found in the texts of two families' files (any literal of a binary, not only error pieces), or
   in those of a runtime they link (CUDA's), counts for neither;
3. a 4-gram found in a knowledge-base entry of another family counts for neither.

Each 4-gram is stored as the CRC-32 of its lower-case words joined by one space, in one table for
every family, ``source_grams.bin``: the sorted CRC-32s (little-endian 32-bit), then one byte per CRC-32,
the index of its family in ``source_grams.json``'s ``families`` (which also says where each family's
binaries were read, how many 4-grams it owns, the table's SHA-256 and the SHA-256 of the knowledge-base
texts rule 3 read: after the entries change, rerun this script, which rebuilds both files from the cached
wheels).  One format, one loader and one
look-up per 4-gram for every family; the table is read as it is stored (no decoding at start-up).  The
same binaries and knowledge base give the same files, byte for byte.

The same build writes a second table of that format, ``source_names.bin`` (named in the document as
``names_table`` with its size and SHA-256; each family's count as ``names``): the compound names of each
family's files (:data:`.family.NAME`: ``getUserRegion``, ``allow_custom_ops``, ``RUNTIME_EXCEPTION``, 12 to
64 characters), from every literal of its files by the same three rules, less the ONNX and PaddlePaddle
operator types (any converter prints them: :data:`PADDLE_OPERATORS`) and the names PyTorch's Python sources
spell (:data:`COMMON_CODE`: any model code's), a runtime's versioned symbol read without its ``_vN`` too.
Each is stored as the CRC-32 of the name as written.  Word 3-grams and 2-grams of the error texts were
measured for this and left out: on the wording proxy's dev misses they pointed to a wrong tool as often as to
the right one (see :func:`family_names`).
"""

from __future__ import annotations

import argparse
import ast
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
NAMES_TABLE = OUT.with_name("source_names.bin")
CACHE = Path.home() / ".cache" / "dumpscope" / "source_grams" / "wheels"
ERRISH = re.compile(
    r"\b(fail|failed|failure|invalid|error|not|cannot|can't|unsupported|mismatch|expected|must|should|unable"
    r"|missing|exceed|exceeds|doesn't|couldn't|got|only|unknown|unexpected|requires|required|differ|differs"
    r"|unrecognized|unrecognised|incompatible|illegal|duplicate|duplicated|inconsistent|conflicting)\b"
    r"|^No ",
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
    """``fnmatch`` patterns of the wheel's files to read (``*.py`` files are parsed: :func:`python_texts`)."""
    embeds: tuple[str, ...] = ()
    """Families whose library these files link (rule 1, for these files only: an execution provider's
    library quoting its backend's header texts)."""
    exclude: tuple[str, ...] = ("*/test/*", "*/tests/*", "*/test_*.py")
    """``fnmatch`` patterns of files not read (a package's own tests)."""

    def path(self, cache: Path) -> Path:
        """The cached wheel (downloaded once with ``pip download --no-deps``)."""
        stem = self.name.replace("-", "_")
        found = sorted(cache.glob(f"{stem}-{self.version}-*{self.platform}*.whl"))
        if not found:
            cache.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
                + ["--platform", self.platform, "--python-version", "3.11"]
                + [f"{self.name}=={self.version}", "-d", str(cache), "-q"],
                check=True,
            )
            found = sorted(cache.glob(f"{stem}-{self.version}-*{self.platform}*.whl"))
        return found[0]

    def binaries(self, cache: Path) -> Iterator[tuple[str, bytes]]:
        with zipfile.ZipFile(self.path(cache)) as z:
            for name in sorted(z.namelist()):
                if any(fnmatch.fnmatch(name, m) for m in self.members) and not any(
                    fnmatch.fnmatch(name, m) for m in self.exclude
                ):
                    yield name, z.read(name)

    def describe(self, cache: Path) -> str:
        return f"{self.path(cache).name} ({self.path(cache).stat().st_size / 1e6:.1f} MB)"


@dataclass(frozen=True)
class Installed:
    """An installed package's binaries (the wheels the project's tests already install)."""

    module: str
    members: tuple[str, ...]
    embeds: tuple[str, ...] = ()

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
_ORT_GPU = Wheel("onnxruntime-gpu", "1.31.1", "manylinux_2_28_x86_64", ())
_ORT_OPENVINO = Wheel("onnxruntime-openvino", "1.24.1", "manylinux_2_28_x86_64", ())
_TRT = ("11.4.0.106", "manylinux_2_28_x86_64")
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
            # the CUDA and TensorRT execution providers (onnxruntime's own sources, built against CUDA and
            # TensorRT: what they quote of TensorRT's headers stays TensorRT's)
            Wheel(
                _ORT_GPU.name,
                _ORT_GPU.version,
                _ORT_GPU.platform,
                ("onnxruntime/capi/libonnxruntime_providers_cuda.so",),
            ),
            Wheel(
                _ORT_GPU.name,
                _ORT_GPU.version,
                _ORT_GPU.platform,
                ("onnxruntime/capi/libonnxruntime_providers_tensorrt.so",),
                embeds=("tensorrt",),
            ),
            # the DirectML execution provider is built into the DirectML package's onnxruntime.dll
            Wheel("onnxruntime-directml", "1.24.4", "win_amd64", ("onnxruntime/capi/onnxruntime.dll",)),
            # the OpenVINO execution provider's library (the OpenVINO libraries the wheel also ships are
            # OpenVINO's: not read here, and what the provider quotes of OpenVINO's headers stays OpenVINO's)
            Wheel(
                _ORT_OPENVINO.name,
                _ORT_OPENVINO.version,
                _ORT_OPENVINO.platform,
                ("onnxruntime/capi/libonnxruntime_providers_openvino.so",),
                embeds=("openvino",),
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
            # Qualcomm's own Python packages: the AI Hub client and its model zoo, and ExecuTorch's QNN
            # backend (Qualcomm's contribution: its Python sources and its QNN manager binding)
            Wheel("qai-hub", "0.56.0", "any", ("qai_hub/*.py",)),
            Wheel("qai-hub-models", "0.65.0", "any", ("qai_hub_models/*.py",)),
            Wheel(
                "executorch",
                "1.5.1",
                "manylinux_2_28_x86_64",
                ("executorch/backends/qualcomm/*.py", "executorch/backends/qualcomm/python/*.so"),
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
            Wheel("tensorrt-lean-cu12-libs", *_TRT, ("tensorrt_lean_libs/*.so*",)),
            Wheel("tensorrt-dispatch-cu12-libs", *_TRT, ("tensorrt_dispatch_libs/*.so*",)),
            # the Python bindings (the builder's and parser's Python API texts)
            Wheel(
                "tensorrt-cu12-bindings", "11.4.0.106", "manylinux_2_28_x86_64", ("tensorrt_bindings/*.so",)
            ),
            # Polygraphy, NVIDIA's TensorRT debugging tool (its Python sources)
            Wheel("polygraphy", "0.53.6", "any", ("polygraphy/*.py",)),
        ),
    ),
    Source(
        "rknn",
        (
            # RKNN-Toolkit2: its compiled Python (Cython modules: the API, the graph rules, the quantizer,
            # the extended ops) and the RKNN compiler (librknnc).  Its converters' embedded third-party
            # code (tf2onnx, the Caffe and PyTorch converters) and Android's adb are not Rockchip's wording
            Wheel(
                "rknn-toolkit2",
                "2.5.0",
                "manylinux2014_x86_64",
                (
                    "rknn/api/*.so",
                    "rknn/api/*.py",
                    "rknn/api/lib/linux-x86_64/librknnc.so",
                    "rknn/base/extend_op/*.so",
                    "rknn/base/from_compiler/*.so",
                    "rknn/utils/*.so",
                ),
            ),
            # RKNN-Toolkit-Lite2: the board-side runtime API (its wheels are built for aarch64 only; it
            # ships no librknnrt, which the board's image provides)
            Wheel("rknn-toolkit-lite2", "2.5.0", "manylinux2014_aarch64", ("rknnlite/*.so", "rknnlite/*.py")),
        ),
        embeds=("onnx",),
    ),
    Source(
        "coreml",
        (
            # coremltools: its Python sources' raised and logged messages (the converters' frontends, the
            # MIL passes, the model API, the optimizers) and its native modules; not its tests
            Wheel(
                "coremltools",
                "9.0",
                "manylinux1_x86_64",
                ("coremltools/*.py", "coremltools/*.so"),
                exclude=("coremltools/test/*", "*/test/*", "*/tests/*", "*/test_*.py"),
            ),
        ),
    ),
    Source(
        "tflite",
        (
            # LiteRT (TensorFlow Lite's runtime under its new name): the runtime library, the Python
            # bindings' common library (the interpreter, the converter, the calibrator) and the Python API.
            # Not its vendor plugins (Qualcomm's, OpenVINO's, MediaTek's...: they quote their backends), its
            # WebGPU accelerator (Dawn's text) or its command-line tools
            Wheel(
                "ai-edge-litert",
                "2.3.0",
                "manylinux_2_27_x86_64",
                (
                    "ai_edge_litert/libLiteRt.so",
                    "ai_edge_litert/libpywrap_litert_common.so",
                    "ai_edge_litert/*.py",
                ),
                exclude=(
                    "ai_edge_litert/vendors/*",
                    "ai_edge_litert/aot/vendors/*",
                    "ai_edge_litert/tools/*",
                    "*/test/*",
                    "*/tests/*",
                ),
            ),
        ),
    ),
    Source(
        "mnn",
        (
            # MNN's engine and its converter/tools module (MNNConvert), and the Python package
            Wheel(
                "mnn",
                "3.6.1",
                "manylinux2014_x86_64",
                ("_mnncengine*.so", "_tools*.so", "MNN/*.py"),
            ),
        ),
        embeds=("onnx",),
    ),
    Source(
        "ncnn",
        (Wheel("ncnn", "1.0.20261020", "manylinux_2_28_x86_64", ("ncnn/*.so", "ncnn/*.py")),),
    ),
    Source(
        "paddle2onnx",
        (
            Wheel(
                "paddle2onnx",
                "2.1.0",
                "manylinux_2_28_x86_64",
                ("paddle2onnx/*.so", "paddle2onnx/*.py"),
            ),
        ),
        embeds=("onnx",),
    ),
    Source(
        "onnxsim",
        (
            # onnx-simplifier 0.4.36, the release its users run (0.8's wheel is another, much larger
            # package of quantizers under the same name); its module links onnx and onnx-optimizer
            Wheel("onnxsim", "0.4.36", "manylinux2014_x86_64", ("onnxsim/*.so", "onnxsim/*.py")),
        ),
        embeds=("onnx",),
    ),
    Source(
        "tvm",
        (
            # Apache TVM: its runtime libraries and its Python sources (the Relax frontends, the
            # transforms, the meta-schedule); not its compiler library (259 MB, LLVM linked in: LLVM's
            # texts are no TVM wording), its tests or its bundled CUTLASS
            Wheel(
                "apache-tvm",
                "0.27.0.post1",
                "manylinux_2_28_x86_64",
                ("tvm/lib/libtvm_runtime*.so", "tvm/*.py"),
                exclude=("tvm/3rdparty/*", "tvm/testing/*", "tvm/topi/testing/*", "*/test/*", "*/tests/*"),
            ),
        ),
    ),
    Source(
        "float16",
        (
            # onnxconverter-common: float16.py, auto_mixed_precision and the other converter helpers
            Wheel("onnxconverter-common", "1.16.0", "any", ("onnxconverter_common/*.py",)),
        ),
    ),
    Source(
        "ascend",
        (
            # torch_npu, Huawei's PyTorch backend for Ascend: its library (the ACL/CANN calls' wording)
            # and Python sources (torchair's GE graph mode among them); torch's texts it carries are
            # removed by rule 2 (the torch source below).  Not its fork of torch's Inductor, its headers
            # (torch's and CANN's) or its tests
            Wheel(
                "torch-npu",
                "2.14.0",
                "manylinux_2_28_x86_64",
                (
                    "torch_npu/lib/libtorch_npu.so",
                    "torch_npu/lib/libop_plugin_atb.so",
                    "torch_npu/_C*.so",
                    "torch_npu/dynamo/*.so",
                    "torch_npu/*.py",
                ),
                exclude=(
                    "torch_npu/_inductor/*",
                    "torch_npu/include/*",
                    "torch_npu/testing/*",
                    "*/test/*",
                    "*/tests/*",
                    "*/test_*.py",
                ),
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
            # cuDNN's and cuBLAS's API libraries (their kernel libraries hold no message texts)
            Wheel(
                "nvidia-cudnn-cu12",
                "9.28.0.42",
                "manylinux_2_27_x86_64",
                tuple(
                    f"nvidia/cudnn/lib/libcudnn{part}.so*"
                    for part in ("", "_graph", "_ops", "_cnn", "_ext", "_heuristic")
                ),
            ),
            Wheel(
                "nvidia-cublas-cu12",
                "12.9.3.13",
                "manylinux_2_27_x86_64",
                ("nvidia/cublas/lib/libcublas.so*", "nvidia/cublas/lib/libnvblas.so*"),
            ),
        ),
        generic=True,
    ),
    # numpy's C API texts, which every Python extension built against numpy's headers carries
    # ("numpy.core.multiarray failed to import" in onnxruntime's bindings), and Cython's (numpy.random's
    # modules are Cython's output, as RKNN's compiled Python is: "Argument ... has incorrect type"): no family
    Source(
        "numpy",
        (
            Wheel(
                "numpy",
                "2.4.6",
                "manylinux_2_28_x86_64",
                (
                    "numpy/_core/_multiarray_umath*.so",
                    "numpy/_core/include/numpy/*.h",
                    "numpy/linalg/*.so",
                    "numpy/random/*.so",
                ),
            ),
        ),
        generic=True,
    ),
    # Cython's compiled modules: the texts every Cython extension carries (CPython's argument and import
    # checks, "Module 'x' has already been imported. Re-initialisation is not supported."), which RKNN's
    # compiled Python carries too: no family
    Source(
        "cython",
        (Wheel("cython", "3.3.1", "manylinux2014_x86_64", ("Cython/*.so",)),),
        generic=True,
    ),
    # pybind11's headers, whose texts every extension built with them carries ("Unable to cast Python
    # instance to C++ type (compile in debug mode for details)"): an old release's wording (onnx-simplifier's
    # and MNN's modules were built with one), a later one's and a current one's; no family
    Source(
        "pybind11",
        tuple(
            Wheel("pybind11", v, "any", ("pybind11/include/pybind11/*.h",))
            for v in ("2.9.2", "2.10.4", "3.0.1")
        ),
        generic=True,
    ),
    # protobuf's runtime (its upb module and Python sources), whose texts the tools that read protobuf
    # models may link in ("is not a singular message field"): no family.  pybind11_protobuf's caster, which
    # LiteRT links ("Cannot construct a protocol buffer message type"), is on no registry: it stays LiteRT's
    Source(
        "protobuf",
        (Wheel("protobuf", "7.36.2", "manylinux2014_x86_64", ("google/_upb/*.so", "google/protobuf/*.py")),),
        generic=True,
    ),
    # torch.onnx, PyTorch's ONNX exporter: its Python sources in the same torch wheel (the TorchScript-based
    # exporter's symbolic functions and utils, the dynamo-based exporter under _internal); not its tests.
    # Its C++ passes (libtorch_cpu's ONNX shape inference) are read with torch's libraries below: no family
    Source(
        "torch_onnx",
        (Wheel("torch", "2.14.0", "macosx_14_0_arm64", ("torch/onnx/*.py",)),),
        embeds=("onnx",),
    ),
    # PyTorch's own libraries (c10's and ATen's checks, the JIT's, the Python binding's): torch_npu links
    # them and its library carries their texts ("Expected all tensors to be on the same device"), which are
    # torch's, not Ascend's.  The macOS wheel of the version torch_npu is built for (the Linux ones are CUDA
    # builds of ~900 MB): no family
    Source(
        "torch",
        (
            Wheel(
                "torch",
                "2.14.0",
                "macosx_14_0_arm64",
                ("torch/lib/libc10.dylib", "torch/lib/libtorch_cpu.dylib", "torch/lib/libtorch_python.dylib"),
            ),
        ),
        embeds=("onnx",),
        generic=True,
    ),
    # DirectML (Microsoft's library the DirectML execution provider calls): no family
    Source(
        "directml",
        (Wheel("onnxruntime-directml", "1.24.4", "win_amd64", ("onnxruntime/capi/DirectML.dll",)),),
        generic=True,
    ),
)
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%[-#+ 0-9.]*[a-zA-Z]")
"""A ``str.format`` field or a ``%`` conversion in a Python message: a gram never spans one."""
LOG_CALLS = frozenset({"error", "warning", "warn", "critical", "exception", "fatal"})
"""The methods whose first argument is a message a user sees as an error (``logger.error``,
``warnings.warn``, Polygraphy's ``G_LOGGER.critical``, which raises)."""


def python_texts(source: bytes) -> tuple[set[str], set[str]]:
    """A Python file's every string constant, and the pieces of the messages it raises, asserts or logs at
    warning level or above (read with :mod:`ast`, never run; split at their format fields)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set(), set()
    everything = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    errors: set[str] = set()
    for node in ast.walk(tree):
        args: list[ast.expr] = []
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            args = node.exc.args
        elif isinstance(node, ast.Assert) and node.msg is not None:
            args = [node.msg]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in LOG_CALLS
        ):
            args = node.args[:1]
        for arg in args:
            errors.update(p for p in _message_pieces(arg) if p.strip())
    return everything, errors


def _message_pieces(node: ast.expr) -> Iterator[str]:
    """The literal text of a message expression: constants, f-strings' literal parts, both sides of ``%`` and
    ``+``, a ``"...".format(...)`` template; each split at its format fields."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield from PLACEHOLDER.split(node.value)
    elif isinstance(node, ast.JoinedStr):
        for value in node.values:
            yield from _message_pieces(value)
    elif isinstance(node, ast.BinOp):
        yield from _message_pieces(node.left)
        yield from _message_pieces(node.right)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        yield from _message_pieces(node.func.value)


def member_texts(name: str, data: bytes) -> tuple[set[str], set[str]]:
    """A file's texts and the texts its error pieces are chosen from: a Python file's string constants and
    its raised/logged messages; a binary's literals, both."""
    if name.endswith(".py"):
        errors = python_texts(data)[1]
        return errors, errors
    found = literals(data) | cython_strings(data)
    return found, found


def literals(data: bytes) -> set[str]:
    """The printable runs of at least 12 bytes in a binary (``strings -n 12``)."""
    return {m.group().decode("ascii") for m in PRINTABLE.finditer(data)}


CYTHON_COMPRESSED = b"CYTHON_COMPRESS_STRINGS"
"""Text of the runtime check every Cython 3.1+ module built with compressed string constants carries: such a
module keeps its Python string constants, its error messages among them, in one zlib stream that ``strings``
cannot read (RKNN-Toolkit2 2.5.0's compiled API: ``rknn/api/rknn_base`` holds "Feed {} inputs, but the model
has {} inputs!" only there)."""
_ZLIB_HEADER = re.compile(rb"\x78[\x01\x5e\x9c\xda]")
_SENTENCE_JOIN = re.compile(r"(?<=[!.?)\]'}])(?=[A-Z]|# )|[\x00-\x08\x0b-\x1f\x7f-\uffff]+")
"""Where two constants of a decompressed table meet (they are stored end to end, no separator): a sentence's
end before a capital letter, or bytes no message prints."""
_REPORT_TEXT = re.compile(r"^(?:#|[IDW] |[-=*]{3})|results? (?:save|saved) to|\bof each layer\b")
"""A table's constant that the tool prints as a report or progress line, not as a failure: a commented header
('# simulator_error: calculate the output error of each layer ...' of RKNN's accuracy analysis), a line with
its own info/debug/warning level letter ('I Quantizating {}'), a rule, where results were saved.  Their words
(error, failed) name columns and outcomes: as wording they would make the real report look like a problem."""


def cython_strings(data: bytes) -> set[str]:
    """The string constants of a Cython module built with compressed strings (:data:`CYTHON_COMPRESSED`):
    the longest zlib stream in the file, decompressed (bounded: at most 16 MiB out), cut where two constants
    meet and at the message's format fields, without the report lines of :data:`_REPORT_TEXT`; a file
    without the marker gives nothing."""
    if CYTHON_COMPRESSED not in data:
        return set()
    best = b""
    for m in _ZLIB_HEADER.finditer(data):
        inflater = zlib.decompressobj()
        try:
            out = inflater.decompress(data[m.start() :], 16 << 20)
        except zlib.error:
            continue
        if inflater.eof and len(out) > len(best):
            best = out
    text = best.decode("utf-8", "replace")
    constants = (c.strip() for c in _SENTENCE_JOIN.split(text))
    pieces = (p for c in constants if c and not _REPORT_TEXT.search(c) for p in PLACEHOLDER.split(c))
    return {p.strip() for p in pieces if len(p.strip()) >= 12}


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


INT_FIELD = re.compile(r"%[-+ #0]*\d*(?:hh|h|ll|l|z|j|t)?[diu](?![A-Za-z])")
"""An integer conversion in a binary's literal (``%d``, ``%zu``, ``%lld``).  The message prints digits there,
which are no words, so the words on either side of it meet: the literal ``dim[%d], 1 is expected, %d is
got`` is read as the message ``dim[1], 1 is expected, 3 is got`` is (``%d`` read as the word "d" gave 4-grams
no message holds).  Other conversions (``%s``) print words and stay where they are."""


def hashed(texts: Iterable[str]) -> set[int]:
    """The CRC-32s of the word 4-grams of the texts (the key the product looks up), integer conversions
    read as the digits they print (:data:`INT_FIELD`)."""
    out: set[int] = set()
    for t in texts:
        words = WORD.findall(INT_FIELD.sub("", t).lower())
        if len(words) >= 4:
            out.update(zlib.crc32(" ".join(words[i : i + 4]).encode()) for i in range(len(words) - 3))
    return out


def family_grams(
    strings: dict[str, set[str]],
    embeds: dict[str, tuple[str, ...]],
    kb_texts: dict[str, list[str]],
    generic: Iterable[str] = (),
    errors: dict[str, set[str]] | None = None,
    quotes: dict[str, set[str]] | None = None,
) -> dict[str, set[int]]:
    """Each family's own error-piece 4-grams (hashed) from its binaries' literals, by the three rules of
    the module's docstring.  ``strings``: family -> its binaries' literals; ``embeds``: family -> the
    families whose libraries it links; ``kb_texts``: family -> its knowledge-base entries' texts;
    ``generic``: the runtimes in ``strings`` that are no family (their texts only take part in rule 2);
    ``errors``: family -> the texts its error pieces are chosen from, when not all of ``strings`` (a
    Python source's raised and logged messages, not its docstrings); ``quotes``: family -> the families
    whose libraries some of its binaries link (:func:`linked_families`): rule 3 does not take a 4-gram from
    its owner for an entry of such a family, whose messages quote the owner's text (onnxruntime's load
    error carrying onnx's checker text, its TensorRT EP forwarding TensorRT's builder text)."""

    def linked(f: str) -> list[set[str]]:
        return [strings[e] for e in embeds.get(f, ()) if e in strings]

    own = {f: s.difference(*linked(f)) for f, s in strings.items()}
    candidates = own if errors is None else {f: errors.get(f, set()).difference(*linked(f)) for f in strings}
    # rule 1 on the 4-grams too: a linked library's text of another version than its owner's (an older onnx
    # inside onnxruntime) shares the owner's 4-grams, which stay the owner's
    everything = {f: hashed(s).difference(*map(hashed, linked(f))) for f, s in own.items()}
    kb = {f: hashed(t) for f, t in kb_texts.items()}
    out: dict[str, set[int]] = {}
    for f in sorted(set(own).difference(generic)):
        kept = hashed(error_pieces(candidates[f]))
        for g in sorted(set(everything) | set(kb)):
            if g != f:
                kept -= everything.get(g, set())
                if f not in (quotes or {}).get(g, ()):
                    kept -= kb.get(g, set())
        out[f] = kept
    return out


VERSIONED = re.compile(r"_v\d+$")
"""The version suffix of a C library's exported symbol (cuBLAS's ``cublasCreate_v2``, which a caller's source
spells ``cublasCreate``)."""


def source_names(texts: Iterable[str]) -> set[str]:
    """The compound names in the texts (:data:`.family.NAME`: ``camelCase``, ``PascalCase`` of two words or
    more, ``snake_case``; 12 to 64 characters), as written: the product finds them with the same pattern."""
    from dumpscope.core.knowledge.family import NAME

    return {m.group() for t in texts for m in NAME.finditer(t)}


COMMON_CODE = Wheel("torch", "2.14.0", "macosx_14_0_arm64", ("torch/*.py",), exclude=("torch/onnx/*",))
"""PyTorch's Python sources (the wheel the ``torch`` and ``torch_onnx`` sources are read from; not
torch.onnx, which is the ``torch_onnx`` family's): the names any model code spells (``input_var``,
``channel_dim``, ``main_thread``, ``is_dynamic``), read from the whole source text, identifiers and all
(:func:`common_names`)."""


def common_names(cache: Path) -> set[str]:
    """Every compound name (:func:`source_names`) in :data:`COMMON_CODE`'s files, as text: a name that a
    program's own code may spell names no tool (:func:`family_names`'s ``common``)."""
    return {
        n for _, data in COMMON_CODE.binaries(cache) for n in source_names([data.decode("utf-8", "replace")])
    }


PADDLE_OPERATORS = (
    "arg_max assign assign_value batch_norm bicubic_interp_v2 bilinear_interp_v2 bilinear_interp bmm "
    "box_coder cast ceil clip concat conditional_block conv2d conv2d_transpose cos cumsum deformable_conv "
    "deformable_conv_v1 depthwise_conv2d depthwise_conv2d_transpose dequantize_linear elementwise_add "
    "elementwise_div elementwise_floordiv elementwise_mod elementwise_mul elementwise_max elementwise_min "
    "elementwise_sub dropout elementwise_pow equal exp expand_v2 fill_any_like fill_constant "
    "fill_constant_batch_size_like flatten_contiguous_range flip floor gather gather_nd gelu "
    "generate_proposals_v2 greater_equal greater_than grid_sampler group_norm hard_sigmoid hard_swish "
    "index_select layer_norm leaky_relu less_than linear_interp_v2 linspace lod_array_length log "
    "logical_and logical_not logical_or logical_xor lookup_table_v2 matmul matmul_v2 "
    "max_pool2d_with_index max_pool3d_with_index matrix_nms memcpy meshgrid multiclass_nms3 "
    "nearest_interp_v2 nearest_interp not_equal one_hot_v2 p_norm pad3d partial_concat partial_sum pow "
    "pool2d pool3d prior_box quantize_linear range reduce_all reduce_max reduce_mean reduce_min "
    "reduce_prod reduce_sum relu relu6 reshape2 reverse rnn roi_align roll round rsqrt scale select_input "
    "set_value shape share_data sigmoid silu sin slice softmax softplus softshrink split sqrt squeeze2 "
    "stack strided_slice sum swish sync_batch_norm tanh tanh_shrink tensor_array_to_tensor tile top_k_v2 "
    "transpose2 tril_triu trilinear_interp_v2 unsqueeze2 unique unstack where while write_to_array "
    "where_index yolo_box"
).split()
"""PaddlePaddle's operator types that OpenVINO's Paddle frontend converts: the keys of its
``get_supported_ops`` (openvinotoolkit/openvino src/frontends/paddle/src/op_table.cpp at a1291150).  A Paddle
program's node type (``fill_any_like``, ``write_to_array``) is printed by every tool that reads a Paddle model
(Paddle itself, Paddle2ONNX, OpenVINO's frontend), so it names no tool, as an ONNX operator type names none
(:func:`operator_names`).  Session s32c measured the two ways such a shared name could count on
``bench/eval_explain.py --blank-markers`` (dev): for no tool, or for every tool that spells it (OpenVINO and
Paddle2ONNX): first tool right the same either way (openvino 61/87, paddle2onnx 9/16, confident and wrong the
same), while counted for OpenVINO alone (its frontend's library is the only one read that spells most of
them) such a name put a Paddle2ONNX dev message under OpenVINO.  For no tool needs no table of several
owners: kept."""


def operator_names() -> set[str]:
    """The ONNX operator types, lower-cased (every opset of the installed onnx's schemas), and
    PaddlePaddle's (:data:`PADDLE_OPERATORS`): a node's type is printed by every converter and runtime that
    meets it (``LeakyRelu``, ``MatMulInteger``, ``fill_any_like``), so it names no tool however few binaries
    spell it."""
    import onnx.defs

    return {s.name.lower() for s in onnx.defs.get_all_schemas_with_history()} | set(PADDLE_OPERATORS)


def family_names(
    strings: dict[str, set[str]],
    embeds: dict[str, tuple[str, ...]],
    kb_texts: dict[str, list[str]],
    generic: Iterable[str] = (),
    quotes: dict[str, set[str]] | None = None,
    operators: Iterable[str] = (),
    common: Iterable[str] = (),
) -> dict[str, set[int]]:
    """Each family's own compound names (:func:`source_names`: its API's functions, classes, options, enum
    values, source files' stems), hashed as written (CRC-32), by the three rules of the 4-grams (module
    docstring) over every literal of its files: a name in another family's or a runtime's files, or in
    another family's entries, counts for neither; a name a linked library's files hold is its owner's.  An
    ONNX operator type (``operators``, lower-cased) or a name of common code (``common``:
    :func:`common_names`) counts for no family.  A message that names no tool and holds none of its
    4-grams may still name its API (``getUserRegion``, ``allow_custom_ops``)."""
    ops = {o.lower() for o in operators}
    shared = set(common)

    def linked(f: str) -> list[set[str]]:
        return [strings[e] for e in embeds.get(f, ()) if e in strings]

    everything = {
        f: source_names(s.difference(*linked(f))).difference(*map(source_names, linked(f)))
        for f, s in strings.items()
    }
    for f in generic:  # a runtime's versioned symbol (cublasCreate_v2) is also its name without the version
        everything[f] = everything[f] | {VERSIONED.sub("", n) for n in everything[f]}
    kb = {f: source_names(t) for f, t in kb_texts.items()}
    out: dict[str, set[int]] = {}
    for f in sorted(set(strings).difference(generic)):
        kept = {n for n in everything[f] if n.lower() not in ops and n not in shared}
        for g in sorted(set(everything) | set(kb)):
            if g != f:
                kept -= everything.get(g, set())
                if f not in (quotes or {}).get(g, ()):
                    kept -= kb.get(g, set())
        out[f] = {zlib.crc32(n.encode()) for n in kept}
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
    grams_by_family: dict[str, set[int]],
    described: dict[str, str],
    names: bytes | None = None,
) -> tuple[dict[str, object], bytes]:
    """The JSON document (the families in table order, each with where its binaries were read and how many
    4-grams it owns; the table's size and SHA-256) and the table itself.  With ``names`` (the names table:
    :func:`pack` of :func:`family_names` over the same families, written as :data:`NAMES_TABLE`), its file,
    size and SHA-256 and each family's count of names are in the document too."""
    table = pack(grams_by_family)
    owners = table[len(table) // 5 * 4 :]
    families = sorted(grams_by_family)
    records: list[dict[str, object]] = [
        {"family": f, "source": described[f], "grams": owners.count(i)} for i, f in enumerate(families)
    ]
    doc: dict[str, object] = {
        "built_by": "bench/build_source_grams.py",
        "families": records,
        "table": TABLE.name,
        "table_bytes": len(table),
        "table_sha256": hashlib.sha256(table).hexdigest(),
    }
    if names is not None:
        name_owners = names[len(names) // 5 * 4 :]
        assert max(name_owners, default=0) < len(families), "the names table indexes the 4-grams' families"
        for i, record in enumerate(records):
            record["names"] = name_owners.count(i)
        doc |= {
            "names_table": NAMES_TABLE.name,
            "names_table_bytes": len(names),
            "names_table_sha256": hashlib.sha256(names).hexdigest(),
        }
    return doc, table


def kb_texts() -> dict[str, list[str]]:
    """Each family's knowledge-base entries' texts (example, cause, fix, tool, pattern)."""
    out: dict[str, list[str]] = {}
    with (ROOT / "core" / "knowledge" / "kb.jsonl").open(encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            fields = ("example", "cause", "fix", "tool", "pattern")
            out.setdefault(entry["family"], []).append(" ".join(str(entry.get(k) or "") for k in fields))
    return out


Texts = tuple[dict[str, set[str]], dict[str, set[str]], dict[str, str]]


def read_sources(cache: Path) -> Texts:
    """family -> the texts of its files (binaries' literals, Python sources' string constants), family ->
    the texts its error pieces are chosen from, and family -> where they were read.  A part's own linked
    families' texts (:attr:`Wheel.embeds`, rule 1) are removed from that part's texts."""
    parts: list[tuple[str, tuple[str, ...], set[str], set[str]]] = []
    described: dict[str, str] = {}
    for source in SOURCES:
        for part in source.parts:
            texts: set[str] = set()
            errors: set[str] = set()
            for name, data in part.binaries(cache):
                found, errs = member_texts(name, data)
                texts |= found
                errors |= errs
            parts.append((source.family, part.embeds, texts, errors))
        described[source.family] = "; ".join(dict.fromkeys(part.describe(cache) for part in source.parts))
    raw: dict[str, set[str]] = {}
    for family, _, texts, _ in parts:
        raw.setdefault(family, set()).update(texts)
    strings: dict[str, set[str]] = {f: set() for f in raw}
    errors_by_family: dict[str, set[str]] = {f: set() for f in raw}
    for family, linked, texts, errors in parts:
        others = [raw[e] for e in linked if e in raw]
        strings[family] |= texts.difference(*others)
        errors_by_family[family] |= errors.difference(*others)
    return strings, errors_by_family, described


def linked_families() -> dict[str, set[str]]:
    """family -> the families whose libraries its binaries link, the whole family's (:attr:`Source.embeds`)
    or one part's (:attr:`Wheel.embeds`)."""
    return {s.family: {*s.embeds, *(e for part in s.parts for e in part.embeds)} for s in SOURCES}


def kb_digest(texts: dict[str, list[str]]) -> str:
    """The SHA-256 of the knowledge-base texts a build excluded (rule 3): the shipped table is stale when
    the entries' texts change (``test_the_table_was_built_from_the_current_entries``)."""
    return hashlib.sha256(json.dumps(texts, sort_keys=True).encode()).hexdigest()


def build(cache: Path = CACHE) -> tuple[dict[str, object], bytes, bytes]:
    """The document, the 4-grams' table and the names' table."""
    strings, errors, described = read_sources(cache)
    embeds = {s.family: s.embeds for s in SOURCES}
    generic = [s.family for s in SOURCES if s.generic]
    kb = kb_texts()
    quotes = linked_families()
    by_family = family_names(strings, embeds, kb, generic, quotes, operator_names(), common_names(cache))
    grams = family_grams(strings, embeds, kb, generic, errors, quotes)
    assert sorted(by_family) == sorted(grams), "the names table indexes the 4-grams' families"
    names = pack(by_family)  # packed once: the document counts its owners, the caller writes it
    doc, table = document(grams, described, names)
    doc["kb_sha256"] = kb_digest(kb)
    return doc, table, names


def dev_counts(data: Path = ROOT / "tests" / "data" / "explain") -> None:
    """How many distinct own 4-grams of each family the dev messages reach (the shipped table): for each
    family, its own dev messages reaching 1..5, and the other dev messages (other tools', uncovered tools',
    generic texts) reaching 1..5 and at most.  Only ``"split": "dev"`` records are kept, before anything is
    computed; no message text is printed (the thresholds, :data:`SOURCE_COUNTS`, are set from this)."""
    from dumpscope.core.knowledge.family import source_gram_counts

    dev = []
    for path in sorted(data.glob("*.jsonl")):
        with path.open(encoding="utf-8") as f:
            for line in f:
                record = json.loads(line) if line.strip() else {}
                if record.get("split") == "dev":
                    right = {record["family"], *record.get("also", ())} if "family" in record else set()
                    dev.append((right, source_gram_counts(record["message"].lower())))
    families = sorted({f for _, counts in dev for f in counts})
    print(f"{len(dev)} dev messages; columns: messages reaching 1..5 distinct own 4-grams")
    for family in families:
        own = [counts.get(family, (0, 0))[0] for right, counts in dev if family in right]
        other = [counts.get(family, (0, 0))[0] for right, counts in dev if family not in right]
        reach = lambda xs: " ".join(f"{sum(x >= k for x in xs):3d}" for k in range(1, 6))  # noqa: E731
        print(
            f"{family:12s} own {len(own):3d}: {reach(own)}   others {len(other):3d}: {reach(other)}  "
            f"max {max(other, default=0)}"
        )


def main() -> None:
    from dumpscope.core.atomic import write_bytes, write_text

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=CACHE, help="where the wheels are kept")
    parser.add_argument(
        "--dev", action="store_true", help="only print how many own 4-grams the dev messages reach"
    )
    args = parser.parse_args()
    if args.dev:
        dev_counts()
        return
    doc, table, names = build(args.cache)
    write_bytes(table, TABLE)
    write_bytes(names, NAMES_TABLE)
    write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", OUT)
    for record in doc["families"]:  # type: ignore[attr-defined]
        print(
            f"{record['family']:12s} {record['grams']:7d} 4-grams {record['names']:6d} names"
            f"  {record['source']}"
        )
    print(
        f"written to {OUT.relative_to(ROOT)}, {TABLE.relative_to(ROOT)} ({len(table)} bytes) and"
        f" {NAMES_TABLE.relative_to(ROOT)} ({len(names)} bytes)"
    )


if __name__ == "__main__":
    main()
