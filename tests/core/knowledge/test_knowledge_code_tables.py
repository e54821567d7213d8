"""s32b: code tables -- the message's value picks the row of the library's own status table.

A status number that MNN, OpenVINO, ncnn, TensorRT, QNN, llama.cpp's Hexagon backend or TFLite's NNAPI
delegate prints is a row of OpenCL's ``cl_int``, Vulkan's ``VkResult``, CUDA's ``cudaError_t``, QNN's error
enums, FastRPC's AEE codes or NNAPI's ``ResultCode`` (:mod:`dumpscope.core.knowledge.code_tables`): the
answer names that row (its symbolic name, meaning and steps) with the value as printed; a value outside the
table is said to be outside it; the tool is still the one the message's markers and the entry's pattern
decide.  The messages follow the tools' own format strings (their sources cited by the entries) or a dev
record's line; none is a held-out text.
"""

from __future__ import annotations

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.code_tables import (
    CUDA,
    FASTRPC,
    OPENCL,
    QNN,
    TABLES,
    VULKAN,
    candidates,
    parse_value,
    row_of,
    rows_filled,
)
from dumpscope.core.knowledge.qnn_codes import FASTRPC_ERROR_NAMES, QNN_ERROR_NAMES

# (message, entry id, table row's name, the value as the message prints it)
ROW_CASES = [
    ("CL ERROR CODE : -36, info:image_to_nchw_buffer", "mnn-opencl-cl-error-code", "CL_INVALID_COMMAND_QUEUE",
     "-36"),
    ("Alloc Image 16384 x 8192 error, code:-40", "mnn-s27c-opencl-alloc-error-code", "CL_INVALID_IMAGE_SIZE",
     "-40"),
    ("Exception from src/plugins/intel_gpu/src/runtime/ocl/ocl_stream.cpp:310:\nclFinish, error code: -5",
     "openvino-s26a-gpu-opencl-call-error", "CL_OUT_OF_RESOURCES", "-5"),
    ("Check 'false' failed at src/plugins/intel_gpu/src/plugin/program.cpp:384:\nGPU program build failed!\n"
     "[GPU] clWaitForEvents, error code: -14", "openvino-gpu-program-build-failed",
     "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST", "-14"),
    ("vkAllocateMemory failed -2", "ncnn-h23o2-vulkan-call-failed", "VK_ERROR_OUT_OF_DEVICE_MEMORY", "-2"),
    ("vkQueueSubmit failed -4", "ncnn-h23o2-vulkan-call-failed", "VK_ERROR_DEVICE_LOST", "-4"),
    ("QnnDsp <E> Failed to load skel, error: 1008", "qualcomm-failed-to-load-skel",
     "QNN_COMMON_ERROR_INCOMPATIBLE_BINARIES", "1008"),
    ("[TRT] [E] CUDA initialization failure with error: 35. Please check your CUDA installation",
     "tensorrt-cuda-initialization-failure", "cudaErrorInsufficientDriver", "35"),
    ("[E] Error[1]: [runner.cpp::execute::718] Error Code 1: Myelin (Final synchronize failed (700))",
     "tensorrt-s24g-myelin-final-synchronize-failed", "cudaErrorIllegalAddress", "700"),
    ("ggml-hex: failed to open session 0 : error 0x72", "ggml-hexagon-open-session-failed",
     "AEE_ECONNREFUSED", "0x72"),
    ("NN API returned error ANEURALNETWORKS_BAD_DATA at line 1234 while adding operation.",
     "tflite-nnapi-error", "ANEURALNETWORKS_BAD_DATA", "ANEURALNETWORKS_BAD_DATA"),
    ("[ONNXRuntimeError] : 1 : FAIL : Load model from /models/a.onnx failed:system error number 24",
     "onnxruntime-s22e-load-model-system-error", "EMFILE", "24"),
]  # fmt: skip


def _top(kb: KnowledgeBase, message: str):  # noqa: ANN202 - a Match
    matches = kb.lookup(message, top=3)
    assert matches, message
    return matches[0]


@pytest.mark.parametrize(("message", "entry_id", "name", "printed"), ROW_CASES)
def test_the_value_picks_the_row(
    kb: KnowledgeBase, message: str, entry_id: str, name: str, printed: str
) -> None:
    m = _top(kb, message)
    assert m.entry.id.split("+")[0] == entry_id or m.entry.id.endswith(entry_id), m.entry.id
    assert dict(m.captures)["value"] == printed
    assert name in m.cause  # the row's symbolic name
    assert f"{printed} is " in m.cause  # the value exactly as the message prints it
    assert "{" not in m.cause + m.fix and "@" not in m.cause + m.fix
    assert specific(m)[0], specific(m)


def test_a_row_with_steps_leads_the_fix(kb: KnowledgeBase) -> None:
    m = _top(kb, "vkAllocateMemory failed -2")
    assert m.fix.startswith("For VK_ERROR_OUT_OF_DEVICE_MEMORY: ")
    assert "opt.use_fp16_storage" in m.fix
    assert "GPU heap" in m.cause
    lost = _top(kb, "vkQueueSubmit failed -4")
    assert lost.fix.startswith("For VK_ERROR_DEVICE_LOST: ") and "opt.use_fp16_storage" not in lost.fix


def test_the_clause_row_for_openvino_gpu_enqueue(kb: KnowledgeBase) -> None:
    m = _top(kb, "[GPU] clEnqueueNDRangeKernel, error code: -54")
    assert m.entry.family == "openvino"
    assert "-54 is CL_INVALID_WORK_GROUP_SIZE" in m.cause
    assert m.fix.startswith("For CL_INVALID_WORK_GROUP_SIZE: ")


def test_a_printed_name_gives_its_number(kb: KnowledgeBase) -> None:
    m = _top(kb, "vkCreateDevice failed  VK_ERROR_INITIALIZATION_FAILED")
    assert "VK_ERROR_INITIALIZATION_FAILED is -3 in Khronos vulkan_core.h" in m.cause


def test_an_unknown_value_is_outside_the_table(kb: KnowledgeBase) -> None:
    m = _top(kb, "CL ERROR CODE : -77, info:run3d")
    assert m.entry.id == "mnn-opencl-cl-error-code"
    assert "-77 is not a code of Khronos CL/cl.h" in m.cause
    assert not any(row.name in m.cause for row in OPENCL.rows.values())  # no row is guessed
    assert not m.fix.startswith("For ")
    vk = _top(kb, "vkAllocateMemory failed -99")
    assert "-99 is not a code of Khronos vulkan_core.h" in vk.cause and "VK_ERROR_" not in vk.cause


def test_hex_and_decimal_name_the_same_row(kb: KnowledgeBase) -> None:
    dec = _top(kb, "QnnDsp <E> Failed to load skel, error: 4000")
    hexa = _top(kb, "QnnDsp <E> Failed to load skel, error: 0xfa0")
    for m, printed in ((dec, "4000"), (hexa, "0xfa0")):
        assert m.entry.id == "qualcomm-failed-to-load-skel"
        assert f"{printed} is QNN_BACKEND_ERROR_CANNOT_INITIALIZE" in m.cause
    assert row_of(OPENCL, "0xFFFFFFDC") == row_of(OPENCL, "-36")  # a signed 32-bit status printed unsigned
    assert row_of(FASTRPC, "0x80000406") == row_of(FASTRPC, "0x6") == row_of(FASTRPC, "-2147482618")
    assert row_of(FASTRPC, "0x6")[1].name == "AEE_EUNABLETOLOAD"  # type: ignore[index]


def test_negative_values_and_value_parsing() -> None:
    assert parse_value("-36") == -36 and parse_value("0x24") == 36 and parse_value("4000") == 4000
    assert parse_value("-0x24") == -36
    assert parse_value("VK_ERROR_DEVICE_LOST") is None and parse_value("12abc") is None
    assert -36 in candidates(OPENCL, 0xFFFFFFDC) and 0x80000406 in candidates(FASTRPC, 6)
    assert row_of(VULKAN, "-1000069000")[1].name == "VK_ERROR_OUT_OF_POOL_MEMORY"  # type: ignore[index]
    assert row_of(CUDA, "-35") is None  # cudaError_t has no negative rows: nothing is guessed
    assert row_of(OPENCL, "36") is None  # the sign matters in a signed table
    assert row_of(TABLES["errno"], "-12") == row_of(TABLES["errno"], "12")  # a kernel driver's -ENOMEM
    assert row_of(TABLES["errno"], "-12")[1].name == "ENOMEM"  # type: ignore[index]


def test_another_tools_message_with_the_same_number_takes_no_row(kb: KnowledgeBase) -> None:
    """The number never routes: a TensorRT, ONNX Runtime or QNN line carrying -36, -2 or 1008 is answered by
    its own tool's entry, whose text names no OpenCL, Vulkan or QNN row."""
    for message, family in (
        ("[TRT] [E] 1: [defaultAllocator.cpp::deallocate::42] Error Code 1: Cuda Runtime (error code: -36)",
         "tensorrt"),
        ("[E:onnxruntime:, sequential_executor.cc:514 ExecuteKernel] Non-zero status code returned while "
         "running Conv node. Name:'conv1' Status Message: vkAllocateMemory failed -2", "onnxruntime"),
    ):  # fmt: skip
        m = _top(kb, message)
        assert m.entry.family == family, (m.entry.id, message)
        assert "CL_INVALID_COMMAND_QUEUE" not in m.cause and "VK_ERROR_OUT_OF_DEVICE_MEMORY" not in m.cause
    rows = rows_filled("error {value}.{row@opencl}", (("value", "-36"),))
    assert "CL_INVALID_COMMAND_QUEUE" in rows  # the same value does take the row inside a table card


def test_placeholders_without_a_value_say_nothing() -> None:
    assert rows_filled("It failed.{row@opencl} Then.", ()) == "It failed. Then."
    assert rows_filled("{steps@vulkan} Check the driver.", (("value", "-2"),)).startswith(
        "For VK_ERROR_OUT_OF_DEVICE_MEMORY: "
    )
    assert rows_filled("{steps@vulkan} Check the driver.", (("value", "-6"),)) == "Check the driver."
    assert rows_filled("x{row@nosuchtable}", (("value", "1"),)) == "x"


def test_the_tables_follow_their_headers() -> None:
    """Spot checks against the vendors' headers, and the derived tables against :mod:`.qnn_codes`."""
    assert (
        OPENCL.rows[-5].name == "CL_OUT_OF_RESOURCES"
        and OPENCL.rows[-1001].name == "CL_PLATFORM_NOT_FOUND_KHR"
    )
    assert (
        VULKAN.rows[-9].name == "VK_ERROR_INCOMPATIBLE_DRIVER" and VULKAN.rows[-13].name == "VK_ERROR_UNKNOWN"
    )
    assert CUDA.rows[209].name == "cudaErrorNoKernelImageForDevice" and CUDA.rows[803].name.endswith(
        "Mismatch"
    )
    assert TABLES["nnapi"].rows[5].name == "ANEURALNETWORKS_OP_FAILED"
    assert {n for n in QNN_ERROR_NAMES.values()} == set(QNN.rows)
    assert all(QNN_ERROR_NAMES[r.name] == n for n, r in QNN.rows.items())
    assert all(FASTRPC_ERROR_NAMES[r.name] == n for n, r in FASTRPC.rows.items())
    for table in TABLES.values():
        for row in table.rows.values():
            assert row.meaning and not row.meaning.endswith("."), row
            assert not row.steps.endswith("."), row
