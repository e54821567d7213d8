"""The knowledge tests of generic runtime text (signals, the dynamic linker, process endings): each case is
a vendor's own wording with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From round13 (was test_knowledge_round13.py):

* a Windows access violation (0xC0000005) is the generic twin of a segmentation fault;

From round14 (was test_knowledge_round14.py): described in test_knowledge_rknn.py's docstring.

From round16 (was test_knowledge_round16.py):

* torch_npu's caching allocator ("NPU out of memory. Tried to allocate <size> (NPU <n>; ...)", and the
  "more than 1EB memory" size check) is Ascend's, with an entry of its own; the other devices' allocators
  (CUDA, MLU) keep their answers;

From round21_tools (was test_knowledge_round21_tools.py):
described in test_knowledge_onnxruntime.py's docstring.

From round22_forms (was test_knowledge_round22_forms.py):

Round 22's dev forms that got no entry, each given its cause and fix from the tool's own source, and the
rule that a process ending (a signal after a tool's own error line) ranks under what failed (issue 23).

From round23_forms (was test_knowledge_round23_forms.py).

From s19f (was test_knowledge_round24_dev_s19f.py):

Issue 23, round 24's dev forms answered at their cause (s19f): TensorRT's lazily loaded libraries (and
glibc 2.41's executable-stack refusal).

From s22e: Python's import system (a local file shadowing a package, circular imports), numpy's
import_array and Cython's size check, protobuf's descriptor.py, glibc ld.so's dl-version.c (GLIBC_/GLIBCXX_
version not found).

Also from ort_trt_s29d and s31d_sources (test_knowledge_tensorrt.py): their notes stand in the docstrings
named.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_families
from dumpscope.core.knowledge.kb import is_process_ending
from tests.support.advice import (
    answered_by_entry,
    first_answer,
)

CASES = [
    # ---- round23_forms (test_knowledge_round23_forms.py) ----
    (
        "OSError: /opt/app/lib/libfoo.so: invalid ELF header",
        "runtime-invalid-elf-header",
        ("/opt/app/lib/libfoo.so", "git lfs pull"),
    ),
    # ---- s22e: Python's import system (sys.path order; CPython's "partially initialized module" text),
    # numpy's import_array ('_ARRAY_API not found') and Cython's size check, protobuf's descriptor.py, glibc
    # ld.so's dl-version.c
    (
        "AttributeError: module 'numpy' has no attribute 'zeros'",
        "runtime-s22e-python-package-shadowed",
        ("numpy.py", "numpy.__file__", "zeros"),
    ),
    (
        "AttributeError: module 'torch' has no attribute 'from_numpy'",
        "runtime-s22e-python-package-shadowed",
        ("torch.py", "from_numpy"),
    ),
    (
        "AttributeError: partially initialized module 'onnx' has no attribute 'numpy_helper' (most likely "
        "due to a circular import)",
        "runtime-s22e-python-circular-import",
        ("'onnx'", "onnx.py", "onnx.__file__"),
    ),
    (
        "ImportError: cannot import name 'linalg' from partially initialized module 'numpy' "
        "(most likely due to a circular import) (/home/me/work/numpy.py)",
        "runtime-s22e-python-circular-import",
        ("numpy.py", "/home/me/work/numpy.py"),
    ),
    (
        "AttributeError: _ARRAY_API not found",
        "runtime-numpy-abi",
        ("numpy<2",),
    ),
    (
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C "
        "header, got 88 from PyObject",
        "runtime-numpy-abi",
        ("NumPy",),
    ),
    (
        "TypeError: Descriptors cannot be created directly.\nIf this call came from a _pb2.py file, your "
        "generated code is out of date and must be regenerated with protoc >= 3.19.0.",
        "runtime-s22e-protobuf-descriptors",
        ("protobuf<=3.20.3", "PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python"),
    ),
    (
        "OSError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by "
        "/opt/toolkit/lib/libconvert.so)",
        "runtime-s22e-glibc-version-not-found",
        ("GLIBCXX_3.4.32", "/opt/toolkit/lib/libconvert.so", "libstdcxx-ng"),
    ),
    (
        "/lib64/libc.so.6: version `GLIBC_2.34' not found (required by ./bin/mytool)",
        "runtime-s22e-glibc-version-not-found",
        ("GLIBC_2.34", "./bin/mytool", "newer OS"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


# ---- round13 (test_knowledge_round13.py) ----


def test_a_windows_access_violation_is_generic_runtime_text(kb: KnowledgeBase) -> None:
    text = "Exception thrown at 0x00007FF7AB12CD34 (libfoo.dll) in demo.exe: 0xC0000005: Access violation"
    top = kb.lookup(text + " reading location 0x0000000000000008.", top=1)[0]
    assert top.entry.id == "runtime-access-violation" and top.entry.family == "runtime"


# ---- round14 (test_knowledge_round14.py) ----


def test_the_same_exception_without_a_tool_stays_generic(kb: KnowledgeBase) -> None:
    text = (
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 5)"
    )
    assert kb.lookup(text, top=1)[0].entry.family == "runtime"


# ---- round16 (test_knowledge_round16.py) ----


def test_cudas_allocator_keeps_its_answer(kb: KnowledgeBase) -> None:
    text = "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.79 GiB total capacity)"
    assert kb.lookup(text, top=1)[0].entry.id == "runtime-cuda-oom"


# ---- round21_tools (test_knowledge_round21_tools.py) ----


def test_vivante_library_alone_stays_the_dynamic_linkers(kb: KnowledgeBase) -> None:
    # libOpenVX/libGAL are VeriSilicon's NPU driver, loaded on Amlogic and NXP boards too: with no RKNN name
    # in the message the RKNN entry (named_only) does not claim it.
    _, m = first_answer(
        kb, "OSError: libOpenVX.so.1.2: cannot open shared object file: No such file or directory"
    )
    assert m.entry.id == "runtime-missing-shared-object"
    assert "rknn" not in detect_families("OSError: libOpenVX.so.1.2: cannot open shared object file")


# ---- round22_forms (test_knowledge_round22_forms.py) ----


def test_a_signal_alone_is_still_answered_as_a_signal(kb: KnowledgeBase) -> None:
    assert kb.lookup("Segmentation fault (core dumped)", top=1)[0].entry.id == "runtime-segfault"


def test_a_signal_stays_first_when_only_wording_or_a_card_names_a_tool(kb: KnowledgeBase) -> None:
    """Only a specific match found by pattern or code moves a process ending down: words prove nothing."""
    text = "the converter stopped while converting layers\nSegmentation fault"
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "runtime-segfault"


def test_process_endings_are_runtime_consequence_entries(kb: KnowledgeBase) -> None:
    """The signals, ``terminate called``, the heap check and the OOM killer are marked ``consequence``."""
    ending = {e.id for e in kb.entries if is_process_ending(e)}
    assert {"runtime-segfault", "runtime-abort", "runtime-terminate-called", "runtime-oom-killed"} <= ending


@pytest.mark.parametrize(
    "message",
    [
        "[E] 2: [x.cpp::f::1] Error Code 2: Internal Error ([Widget 3] requires int8 I/O but node can not be "
        "handled by Myelin. Operation is not supported.)",
        "the layer was folded away, so this operation is not supported",
    ],
)
def test_a_verb_after_node_or_op_is_never_captured_as_the_op(kb: KnowledgeBase, message: str) -> None:
    """Running English after the keyword ("node can not be handled") names no op: no answer may say that "can"
    or "was" is an operation the tool cannot convert."""
    for m in kb.lookup(message, top=5):
        assert not any(k == "op" and v.lower() in {"can", "was"} for k, v in m.captures), m.entry.id


def test_an_op_named_after_the_keyword_is_still_captured(kb: KnowledgeBase) -> None:
    text = "[E] 2: [x.cpp::f::1] Error Code 2: Internal Error (node Frobnicate_7 is not supported.)"
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+operator-is-not-supported"), top.entry.id
    assert ("op", "Frobnicate_7") in top.captures, top.captures


# ---- s19f (test_knowledge_round24_dev_s19f.py) ----


def test_glibc_execstack_alone_is_the_loader(kb: KnowledgeBase) -> None:
    msg = (
        "ImportError: libfoo_ext.so.2: cannot enable executable stack as shared "
        "object requires: Invalid argument"
    )
    top = kb.lookup(msg, top=1)[0]
    assert top.entry.id == "runtime-glibc-execstack"


def test_a_cuda_text_alone_is_still_the_cuda_runtime_entry(kb: KnowledgeBase) -> None:
    top = kb.lookup("RuntimeError: CUDA error: an illegal memory access was encountered", top=1)[0]
    assert top.entry.id == "runtime-cuda-illegal-address"
    glued = kb.lookup("x11: Cuda Runtime (an illegal memory access was encountered)", top=1)[0]
    assert glued.entry.id == "runtime-cuda-illegal-address"  # '1:' inside a word is not TensorRT's line


@pytest.mark.parametrize(
    "text",
    [
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 "
        "and cpu! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)",
        "RuntimeError: Expected all tensors to be on the same device, but got index is on cuda:1, different "
        "from other tensors on cuda:0 (when checking argument in method wrapper_CUDA__index_select)",
    ],
)
def test_a_cuda_device_mismatch_is_pytorchs_answer_not_ascends(kb: KnowledgeBase, text: str) -> None:
    """The torch_npu entry reads only npu/cpu devices; PyTorch's own check on CUDA devices is the runtime
    entry's, whose sentence is then any tool's text (no partial match of the Ascend entry)."""
    ranked = kb.lookup(text, top=3)
    assert ranked[0].entry.id == "runtime-s31d-torch-tensors-on-two-devices"
    assert all(m.reason == "words" for m in ranked[1:] if m.entry.family == "ascend")
