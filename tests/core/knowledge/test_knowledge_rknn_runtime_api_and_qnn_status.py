"""The RKNPU runtime's own C-API and memory texts, RKNN-Toolkit-Lite2's inference() argument checks, SNPE's
error codes, and the QNN status a backend prints after a failure's colon.

Vendor sources: airockchip/rknn-toolkit2 release 2.3.2, the strings of
rknpu2/runtime/Linux/librknn_api/armhf-uclibc/librknnmrt.so (the runtime's "E RKNN:"/"W RKNN:" formats,
shared with librknnrt) and rknpu2/runtime/Linux/librknn_api/include/rknn_api.h; the rknn-toolkit-lite2 2.3.2
wheel (rknnlite/api/rknn_lite.py and the strings of rknnlite/api/rknn_runtime.*.so); the QNN SDK headers'
error codes (QnnDevice.h, QnnGraph.h, QnnContext.h:
:data:`~dumpscope.core.knowledge.qnn_codes.QNN_ERROR_NAMES`) for the "<what> failed: N" lines of the
QnnHtp/QnnDsp backends; SNPE's Snpe_ErrorCode_t of zdl/DlSystem/DlError.h (as vendored in
quic/ai-hub-models, ai-solutions/android/SNPE), every code of which has its own card.  Every message is
ours, the format string filled with names and numbers of our choosing, never an evaluation message.
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
        "E RKNN: rknn_set_io_mem, input(pixel_values) tensor type : FLOAT16 not supported "
        "in pass_through == 1",
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
        "E RKNN: You must set RKNN_FLAG_MEM_ALLOC_OUTSIDE on rknn_init() "
        "if you want to call rknn_set_weight_mem!",
        "rknn-s21b-mem-alloc-outside-order",
        ("rknn_set_weight_mem", "RKNN_QUERY_MEM_SIZE"),
    ),
    (
        "E RKNN: rknn_run, input(input_ids) tensor not attached to memory!",
        "rknn-s21b-run-tensor-not-attached",
        ("input_ids", "rknn_set_io_mem", "rknn_create_mem"),
    ),
    (
        "E RKNN: [11:22:33.444] failed to allocate handle, ret: -1, errno: 12, "
        "errstr: Cannot allocate memory",
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
        "E RKNN: InputOperator: not support input dtype=FP32, layout=NCHW, "
        "output dtype=INT8 , layout=NC1HWC2, please try pass_through=1 mode in set_io_mem",
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
        "W inference: The input[1] need NHWC data format, but the shape is not 4D, no data transpose.",
        "rknn-s21b-lite-input-data-format",
        ("input[1]", "img[None, ...]"),
    ),
    (
        "E inference: Set shape for input[0] failed. input data format = nchw, required = nhwc",
        "rknn-s21b-lite-set-shape-format",
        ("input[0]", "nchw", "nhwc", "dynamic_input"),
    ),
    (
        "W init_runtime: Query dynamic range failed. Ret code: -5. "
        "(If it is a static shape RKNN model, please ignore the above warning message.)",
        "rknn-s21b-lite-dynamic-range-query",
        ("-5", "static-shape", "RKNN_QUERY_SDK_VERSION"),
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


#: Snpe_ErrorCode_t of SNPE's zdl/DlSystem/DlError.h (quic/ai-hub-models@b31d2ec, ai-solutions/android/SNPE/
#: 03-ObjectDetection/app/src/main/cpp/inc/zdl/DlSystem/DlError.h): number and name without SNPE_ERRORCODE_.
#: 915 (DSP_UDO_INVALID_QUANTIZATION_TYPE_ERROR) is left to the 9xx range card: test_knowledge_sources.py
#: keeps it as the code without an entry of its own.
SNPE_ERROR_CODES = """
10 CAPI_CREATE_FAILURE
11 CAPI_HANDLEGEN_FAILURE
12 CAPI_DELETE_FAILURE
13 CAPI_BAD_HANDLE
14 CAPI_BAD_ARGUMENT
15 CAPI_BAD_ALLOC
100 CONFIG_MISSING_PARAM
101 CONFIG_INVALID_PARAM
102 CONFIG_MISSING_FILE
103 CONFIG_NNCONFIG_NOT_SET
104 CONFIG_NNCONFIG_INVALID
105 CONFIG_WRONG_INPUT_NAME
106 CONFIG_INCORRECT_INPUT_DIMENSIONS
107 CONFIG_DIMENSIONS_MODIFICATION_NOT_SUPPORTED
108 CONFIG_BOTH_OUTPUT_LAYER_TENSOR_NAMES_SET
120 CONFIG_NNCONFIG_ONLY_TENSOR_SUPPORTED
121 CONFIG_NNCONFIG_ONLY_USER_BUFFER_SUPPORTED
200 DLSYSTEM_MISSING_BUFFER
201 DLSYSTEM_TENSOR_CAST_FAILED
202 DLSYSTEM_FIXED_POINT_PARAM_INVALID
203 DLSYSTEM_SIZE_MISMATCH
204 DLSYSTEM_NAME_NOT_FOUND
205 DLSYSTEM_VALUE_MISMATCH
206 DLSYSTEM_INSERT_FAILED
207 DLSYSTEM_TENSOR_FILE_READ_FAILED
208 DLSYSTEM_DIAGLOG_FAILURE
209 DLSYSTEM_LAYER_NOT_SET
210 DLSYSTEM_WRONG_NUMBER_INPUT_BUFFERS
211 DLSYSTEM_RUNTIME_TENSOR_SHAPE_MISMATCH
212 DLSYSTEM_TENSOR_MISSING
213 DLSYSTEM_TENSOR_ITERATION_UNSUPPORTED
214 DLSYSTEM_BUFFER_MANAGER_MISSING
215 DLSYSTEM_RUNTIME_BUFFER_SOURCE_UNSUPPORTED
216 DLSYSTEM_BUFFER_CAST_FAILED
217 DLSYSTEM_WRONG_TRANSITION_TYPE
218 DLSYSTEM_LAYER_ALREADY_REGISTERED
219 DLSYSTEM_TENSOR_DIM_INVALID
240 DLSYSTEM_BUFFERENCODING_UNKNOWN
241 DLSYSTEM_BUFFER_INVALID_PARAM
300 DLCONTAINER_MODEL_PARSING_FAILED
301 DLCONTAINER_UNKNOWN_LAYER_CODE
302 DLCONTAINER_MISSING_LAYER_PARAM
303 DLCONTAINER_LAYER_PARAM_NOT_SUPPORTED
304 DLCONTAINER_LAYER_PARAM_INVALID
305 DLCONTAINER_TENSOR_DATA_MISSING
306 DLCONTAINER_MODEL_LOAD_FAILED
307 DLCONTAINER_MISSING_RECORDS
308 DLCONTAINER_INVALID_RECORD
309 DLCONTAINER_WRITE_FAILURE
310 DLCONTAINER_READ_FAILURE
311 DLCONTAINER_BAD_CONTAINER
312 DLCONTAINER_BAD_DNN_FORMAT_VERSION
313 DLCONTAINER_UNKNOWN_AXIS_ANNOTATION
314 DLCONTAINER_UNKNOWN_SHUFFLE_TYPE
315 DLCONTAINER_TEMP_FILE_FAILURE
400 NETWORK_EMPTY_NETWORK
401 NETWORK_CREATION_FAILED
402 NETWORK_PARTITION_FAILED
403 NETWORK_NO_OUTPUT_DEFINED
404 NETWORK_MISMATCH_BETWEEN_NAMES_AND_DIMS
405 NETWORK_MISSING_INPUT_NAMES
406 NETWORK_MISSING_OUTPUT_NAMES
407 NETWORK_EXECUTION_FAILED
500 HOST_RUNTIME_TARGET_UNAVAILABLE
600 CPU_LAYER_NOT_SUPPORTED
601 CPU_LAYER_PARAM_NOT_SUPPORTED
602 CPU_LAYER_PARAM_INVALID
603 CPU_LAYER_PARAM_COMBINATION_INVALID
604 CPU_BUFFER_NOT_FOUND
605 CPU_NETWORK_NOT_SUPPORTED
606 CPU_UDO_OPERATION_FAILED
700 CPU_FXP_LAYER_NOT_SUPPORTED
701 CPU_FXP_LAYER_PARAM_NOT_SUPPORTED
702 CPU_FXP_LAYER_PARAM_INVALID
703 CPU_FXP_OPTION_INVALID
800 GPU_LAYER_NOT_SUPPORTED
801 GPU_LAYER_PARAM_NOT_SUPPORTED
802 GPU_LAYER_PARAM_INVALID
803 GPU_LAYER_PARAM_COMBINATION_INVALID
804 GPU_KERNEL_COMPILATION_FAILED
805 GPU_CONTEXT_NOT_SET
806 GPU_KERNEL_NOT_SET
807 GPU_KERNEL_PARAM_INVALID
808 GPU_OPENCL_CHECK_FAILED
809 GPU_OPENCL_FUNCTION_ERROR
810 GPU_BUFFER_NOT_FOUND
811 GPU_TENSOR_DIM_INVALID
812 GPU_MEMORY_FLAGS_INVALID
813 GPU_UNEXPECTED_NUMBER_OF_IO
814 GPU_LAYER_PROXY_ERROR
815 GPU_BUFFER_IN_USE
816 GPU_BUFFER_MODIFICATION_ERROR
817 GPU_DATA_ARRANGEMENT_INVALID
818 GPU_UDO_OPERATION_FAILED
900 DSP_LAYER_NOT_SUPPORTED
901 DSP_LAYER_PARAM_NOT_SUPPORTED
902 DSP_LAYER_PARAM_INVALID
903 DSP_LAYER_PARAM_COMBINATION_INVALID
904 DSP_STUB_NOT_PRESENT
905 DSP_LAYER_NAME_TRUNCATED
906 DSP_LAYER_INPUT_BUFFER_NAME_TRUNCATED
907 DSP_LAYER_OUTPUT_BUFFER_NAME_TRUNCATED
908 DSP_RUNTIME_COMMUNICATION_ERROR
909 DSP_RUNTIME_INVALID_PARAM_ERROR
910 DSP_RUNTIME_SYSTEM_ERROR
911 DSP_RUNTIME_CRASHED_ERROR
912 DSP_BUFFER_SIZE_ERROR
913 DSP_UDO_EXECUTE_ERROR
914 DSP_UDO_LIB_NOT_REGISTERED_ERROR
1000 MODEL_VALIDATION_LAYER_NOT_SUPPORTED
1001 MODEL_VALIDATION_LAYER_PARAM_NOT_SUPPORTED
1002 MODEL_VALIDATION_LAYER_PARAM_INVALID
1003 MODEL_VALIDATION_LAYER_PARAM_MISSING
1004 MODEL_VALIDATION_LAYER_PARAM_COMBINATION_INVALID
1005 MODEL_VALIDATION_LAYER_ORDERING_INVALID
1006 MODEL_VALIDATION_INVALID_CONSTRAINT
1007 MODEL_VALIDATION_MISSING_BUFFER
1008 MODEL_VALIDATION_BUFFER_REUSE_NOT_SUPPORTED
1009 MODEL_VALIDATION_LAYER_COULD_NOT_BE_ASSIGNED
1010 MODEL_VALIDATION_UDO_LAYER_FAILED
1100 UDL_LAYER_EMPTY_UDL_NETWORK
1101 UDL_LAYER_PARAM_INVALID
1102 UDL_LAYER_INSTANCE_MISSING
1103 UDL_LAYER_SETUP_FAILED
1104 UDL_EXECUTE_FAILED
1105 UDL_BUNDLE_INVALID
1106 UDO_REGISTRATION_FAILED
1107 UDO_GET_PACKAGE_FAILED
1108 UDO_GET_IMPLEMENTATION_FAILED
1200 STD_LIBRARY_ERROR
1210 UNKNOWN_EXCEPTION
1300 STORAGE_INVALID_KERNEL_REPO
1400 AIP_LAYER_NOT_SUPPORTED
1401 AIP_LAYER_PARAM_NOT_SUPPORTED
1402 AIP_LAYER_PARAM_INVALID
1403 AIP_LAYER_PARAM_COMBINATION_INVALID
1404 AIP_STUB_NOT_PRESENT
1405 AIP_LAYER_NAME_TRUNCATED
1406 AIP_LAYER_INPUT_BUFFER_NAME_TRUNCATED
1407 AIP_LAYER_OUTPUT_BUFFER_NAME_TRUNCATED
1408 AIP_RUNTIME_COMMUNICATION_ERROR
1409 AIP_RUNTIME_INVALID_PARAM_ERROR
1410 AIP_RUNTIME_SYSTEM_ERROR
1411 AIP_RUNTIME_TENSOR_MISSING
1412 AIP_RUNTIME_TENSOR_SHAPE_MISMATCH
1413 AIP_RUNTIME_BAD_AIX_RECORD
1500 DLCACHING_INVALID_METADATA
1501 DLCACHING_INVALID_INITBLOB
1600 INFRA_CLUSTERMGR_INSTANCE_INVALID
1601 INFRA_CLUSTERMGR_EXECUTE_SYNC_FAILED
1700 MEMORY_CORRUPTION_ERROR
"""


@pytest.mark.parametrize(
    ("number", "name"), [tuple(line.split()) for line in SNPE_ERROR_CODES.strip().splitlines()]
)
def test_every_snpe_error_code_has_its_own_card(kb: KnowledgeBase, number: str, name: str) -> None:
    """A code printed as SNPE's record (error_code=N) or by name answers with that code's own card and
    specific advice, never with a neighbour's or the range's."""
    for message in (
        f"error_code={number}; error_message=made-up text; error_component=System; line_no=12; thread_id=1",
        f"zdl::DlSystem::ErrorCode::SNPE_{name}",
    ):
        top = assert_answered(kb, message, entry=f"snpe-{number}")
        assert not top.entry.generic
