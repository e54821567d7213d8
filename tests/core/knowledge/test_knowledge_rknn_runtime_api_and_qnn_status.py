"""The RKNPU runtime's own C-API and memory texts, RKNN-Toolkit-Lite2's inference() argument checks, and the
QNN status a backend prints after a failure's colon.

Vendor sources: airockchip/rknn-toolkit2 release 2.3.2, the strings of
rknpu2/runtime/Linux/librknn_api/armhf-uclibc/librknnmrt.so (the runtime's "E RKNN:"/"W RKNN:" formats,
shared with librknnrt) and rknpu2/runtime/Linux/librknn_api/include/rknn_api.h; the rknn-toolkit-lite2 2.3.2
wheel (rknnlite/api/rknn_lite.py and the strings of rknnlite/api/rknn_runtime.*.so); the QNN SDK headers'
error codes (QnnDevice.h, QnnGraph.h, QnnContext.h: :data:`~dumpscope.core.knowledge.qnn_codes.QNN_ERROR_NAMES`)
for the "<what> failed: N" lines of the QnnHtp/QnnDsp backends.  Every message is ours, the format string
filled with names and numbers of our choosing, never an evaluation message.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.codes import extract_codes
from tests.support.advice import assert_answered

CASES = [
    (
        "E RKNN: [10:11:12.345] rknn_set_io_mem, input(images) memory size must be: 1228800, but is: 921600",
        "rknn-s21b-set-io-mem-size",
        ("images", "1228800", "921600", "size_with_stride"),
    ),
    (
        "E RKNN: rknn_set_io_mem, output(det_out) tensor layout must be: NC1HWC2, but is: NCHW",
        "rknn-s21b-set-io-mem-type-layout",
        ("det_out", "NC1HWC2", "NCHW", "RKNN_QUERY_NATIVE_OUTPUT_ATTR"),
    ),
    (
        "E RKNN: rknn_set_io_mem, input(pixel_values) tensor type : FLOAT16 not supported in pass_through == 1",
        "rknn-s21b-set-io-mem-type-layout",
        ("pixel_values", "FLOAT16"),
    ),
    (
        "E RKNN: [03:04:05.006] rknn_inputs_set, invalid dtype: INT16, request dtype: UINT8",
        "rknn-s21b-inputs-set-type-layout",
        ("INT16", "UINT8", "pass_through=1"),
    ),
    (
        "W RKNN: [03:04:05.006] rknn_outputs_get, param output num(3) != model output num(1)",
        "rknn-s21b-io-count-size",
        ("outputs_get", "3", "RKNN_QUERY_IN_OUT_NUM"),
    ),
    (
        "E RKNN: rknn_inputs_set, param input size(307200) < model input size(1228800)",
        "rknn-s21b-io-count-size",
        ("307200", "1228800"),
    ),
    (
        "E RKNN: rknn_query, RKNN_QUERY_OUTPUT_ATTR, p_attr->index(2) >= output_num(2)!",
        "rknn-s21b-query-index-out-of-range",
        ("RKNN_QUERY_OUTPUT_ATTR", "index 2", "RKNN_QUERY_IN_OUT_NUM"),
    ),
    (
        "E RKNN: rknn_query, cmd = 19 is not in [0, 16]!",
        "rknn-s21b-query-unknown-cmd",
        ("19", "rknn_api.h"),
    ),
    (
        "E RKNN: rknn_dup_context not supported in mini runtime!",
        "rknn-s21b-mini-runtime-api",
        ("rknn_dup_context", "librknnmrt", "rknn_set_io_mem"),
    ),
    (
        "E RKNN: You must set RKNN_FLAG_MEM_ALLOC_OUTSIDE on rknn_init() if you want to call rknn_set_weight_mem!",
        "rknn-s21b-mem-alloc-outside-order",
        ("rknn_set_weight_mem", "RKNN_QUERY_MEM_SIZE"),
    ),
    (
        "E RKNN: rknn_run, input(input_ids) tensor not attached to memory!",
        "rknn-s21b-run-tensor-not-attached",
        ("input_ids", "rknn_set_io_mem", "rknn_create_mem"),
    ),
    (
        "E RKNN: [11:22:33.444] failed to allocate handle, ret: -1, errno: 12, errstr: Cannot allocate memory",
        "rknn-s21b-npu-memory-alloc-failed",
        ("Cannot allocate memory", "CmaFree", "rknn_destroy_mem"),
    ),
    (
        "E RKNN: [11:22:33.444] failed to allocate weight memory!, size: 73400320, flags: #12",
        "rknn-s20b-npu-alloc-failed",
        ("weight", "73400320", "CMA"),
    ),
    (
        "E RKNN: failed to parse operator target in config!",
        "rknn-s21b-model-config-unreadable",
        ("operator target", "target_platform", "RKNN_QUERY_SDK_VERSION"),
    ),
    (
        "E RKNN: failed to read weight data!, read size: 65536 != 2097152, errno: Success",
        "rknn-s21b-model-read-short",
        ("65536", "2097152", "weight data", "git lfs pull"),
    ),
    (
        "W RKNN: [07:08:09.010] output operator can not find nchw task for: logits, it will fallback to cpu!",
        "rknn-s21b-output-layout-cpu-fallback",
        ("logits", "nchw", "RKNN_QUERY_NATIVE_OUTPUT_ATTR"),
    ),
    (
        "E RKNN: InputOperator: not support input dtype=FP32, layout=NCHW, output dtype=INT8 , layout=NC1HWC2, "
        "please try pass_through=1 mode in set_io_mem",
        "rknn-s21b-input-operator-no-conversion",
        ("FP32", "INT8", "NC1HWC2", "pass_through=1"),
    ),
    (
        "E RKNN: [01:02:03.004] Meet unsupported indices dtype 8 for scatternd",
        "rknn-s21b-cpu-op-unsupported-type",
        ("scatternd", "indices", "INT64"),
    ),
    (
        "W RKNN: Current driver version: 0.9.2, recommend to upgrade the driver to the new version: >= 0.9.8",
        "rknn-s21b-driver-older-than-recommended",
        ("0.9.2", "0.9.8", "librknnrt.so"),
    ),
    (
        "E inference: The lengths of inputs_pass_through and inputs are not equal.",
        "rknn-s21b-lite-inference-lists",
        ("inputs_pass_through", "astype"),
    ),
    (
        "E inference: inputs[1].dtype: float64 is not same as data_type[1]",
        "rknn-s21b-lite-inference-lists",
        ("float64", "data_type"),
    ),
]


@pytest.mark.parametrize(("message", "entry_id", "named"), CASES, ids=[c[1] for c in CASES])
def test_an_rknn_runtime_text_gets_its_own_answer(
    kb: KnowledgeBase, message: str, entry_id: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry_id)


@pytest.mark.parametrize(
    ("message", "key", "printed"),
    [
        ("QnnHtp <E> Failed to create device: 14001", "qnn:14001", "14001"),
        ("QnnDsp <E> Failed to finalize graph (id: 1): 6022", "qnn:6022", "6022"),
        ("QnnHtp <E> Failed to retrieve graph: 6002", "qnn:6002", "6002"),
        ("[QNN] <E> Context binary load failed, 5005", "qnn:5005", "5005"),
    ],
)
def test_a_qnn_status_after_a_failures_colon_is_its_code(message: str, key: str, printed: str) -> None:
    found = [c for c in extract_codes(message) if c.key == key]
    assert found, extract_codes(message)
    assert found[0].text.endswith(printed)


@pytest.mark.parametrize(
    "message",
    [
        "QnnHtp <E> Failed to map tensor: 4096",  # a size, not a header code
        "QnnDsp <E> Failed to create device: 14001.5",
        "Failed to create device: 14001",  # not a QNN line
    ],
)
def test_a_number_after_a_failure_that_is_no_qnn_code_is_not_taken(message: str) -> None:
    assert not [c for c in extract_codes(message) if c.key.startswith("qnn:")]


@pytest.mark.parametrize(
    ("message", "entry_id", "named"),
    [
        ("QnnHtp <E> Failed to create device: 14001", "qualcomm-qnn-14001", ("soc_model", "htp_arch")),
        ("QnnHtp <E> Failed to retrieve graph: 6002", "qualcomm-qnn-6002", ("qnn-context-binary-utility",)),
    ],
)
def test_a_qnn_status_after_a_colon_answers_with_its_code_card(
    kb: KnowledgeBase, message: str, entry_id: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry_id)
