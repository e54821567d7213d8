"""Session s20d: Ascend's and OpenVINO's forms still missing, read from their own sources.

Ascend: torch_npu's own checks (Ascend/pytorch torch_npu/csrc: the caching allocator's memory-fraction
refusal and device-index check, the aclnn npu_format_cast's non-contiguous refusal, the task queue that could
not be emptied, a CANN function looked up at run time and not found) and llama.cpp's CANN backend envelope
(ggml/src/ggml-cann: "CANN error: ... current device: N, in function F at FILE:LINE / <statement>").
MindSpore on Ascend: its PyNative op runner's kernel memory (mindspore/ccsrc/runtime/pynative/op_runner.cc);
torch_npu's ProcessGroupHCCL watchdog timeout; msprobe's file checks (Ascend/mstt core/common/file_utils.py).
OpenVINO: the GPU plugin's device query (intel_gpu ocl_device_detector.cpp), openvino.genai's scheduler that
dropped a request for want of KV cache (src/cpp/src/utils.hpp) and its one-prompt paths (the NPU's static
pipeline, chat mode), NNCF's ignored scope, empty calibration dataset and backend detection
(src/nncf/scopes.py, common/tensor_statistics/aggregator.py, common/utils/backend.py), optimum-intel's
weight compression without NNCF and the old clDNN memory pool's "out of GPU resources"; NNCF's
"nncf.errors.ValidationError" is NNCF's, not onnx.checker's.

Each case is the source's own format string with made-up names and values filled in, never an eval message:
the entry that answers it, and the parts of the message its advice must name."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

PTA = "\n[ERROR] 2026-01-02-10:11:12 (PID:4321, Device:0, RankID:-1) "

ENTRIES = [
    # torch_npu/csrc/core/npu/NPUCachingAllocator.cpp
    (
        "torch.OutOfMemoryError: NPU out of memory. Allocation was preemptively rejected because it would "
        "exceed per_process_memory_fraction limit. Requested size: 768.00 MiB",
        "torch-npu-s20d-oom-memory-fraction",
        ("768.00 MiB", "set_per_process_memory_fraction"),
    ),
    (
        "RuntimeError: Invalid device argument 6: did you call init?"
        + PTA
        + "ERR00001 PTA invalid parameter",
        "torch-npu-s20d-allocator-device-index",
        ("device 6", "ASCEND_RT_VISIBLE_DEVICES", "torch.npu.device_count()"),
    ),
    (
        "RuntimeError: Allocator not initialized for device 2: did you call init?",
        "torch-npu-s20d-allocator-device-index",
        ("device 2", "torch.npu.set_device"),
    ),
    (
        "RuntimeError: Failed to empty NPU task queue, ret:FAILED" + PTA + "ERR00005 PTA internal error",
        "torch-npu-s20d-task-queue-not-emptied",
        ("ret FAILED", "'spawn'", "TASK_QUEUE_ENABLE=0"),
    ),
    # torch_npu/csrc/aten/common/FormatCastKernelNpu.cpp
    (
        "RuntimeError: npu_format_cast aclnn interface does not support non-contiguous tensor with internal "
        "format NC1HWC0." + PTA + "ERR01007 OPS feature not supported",
        "torch-npu-s20d-format-cast-non-contiguous",
        ("NC1HWC0", "x.contiguous()", "allow_internal_format"),
    ),
    # torch_npu/csrc/core/npu/interface/LcclInterface.cpp, AclInterface.cpp
    (
        "Failed to find function lcalCommInitRankLocal" + PTA + "ERR00008 PTA resource not found",
        "torch-npu-s20d-cann-function-missing",
        ("lcalCommInitRankLocal", "set_env.sh"),
    ),
    # ggml/src/ggml-cann/ggml-cann.cpp (ggml_cann_error)
    (
        "CANN error: \n  current device: 3, in function ggml_cann_get_device at "
        "/src/llama.cpp/ggml/src/ggml-cann/ggml-cann.cpp:79\n  aclrtGetDevice(&id)",
        "ascend-s20d-ggml-cann-call-failed",
        ("aclrtGetDevice(&id)", "ggml_cann_get_device", "device 3", "npu-smi info"),
    ),
    # openvino src/plugins/intel_gpu/src/runtime/ocl/ocl_device_detector.cpp
    (
        "RuntimeError: Exception from src/inference/src/cpp/core.cpp:112:\n"
        "Exception from src/inference/src/dev/plugin.cpp:54:\n"
        "[GPU] No supported OCL devices found or unexpected error happened during devices query.\n"
        "[GPU] Please check OpenVINO documentation for GPU drivers setup guide.",
        "openvino-s20d-gpu-no-ocl-devices",
        ("clinfo", "render", "/dev/dri"),
    ),
    # openvino.genai src/cpp/src/utils.hpp (assert_request_was_scheduled)
    (
        "RuntimeError: Check 'status != GenerationStatus::IGNORED' failed at src/cpp/src/utils.hpp:66:\n"
        "Request 7 was dropped by the scheduler because it did not fit in the available cache budget (out of "
        "memory). Increase cache_size / num_kv_blocks, reduce the prompt or generation length, or for hybrid "
        "(linear-attention) models raise cache_interval_multiplier to lower per-token cache usage.",
        "openvino-s20d-genai-request-dropped-cache",
        ("request 7", "SchedulerConfig.cache_size", "max_num_seqs"),
    ),
    # nncf src/nncf/scopes.py
    (
        "nncf.errors.ValidationError: \nIgnored nodes that matches types ['SoftMaxV8'] were not found in the "
        "NNCFGraph.\n",
        "openvino-s20d-nncf-ignored-scope-unmatched",
        ("types 'SoftMaxV8'", "validate=False", "get_friendly_name()"),
    ),
    # nncf src/nncf/common/tensor_statistics/aggregator.py
    (
        "nncf.errors.ValidationError: Calibration dataset must not be empty. Please provide calibration "
        "dataset with at least one sample.",
        "openvino-s20d-nncf-empty-calibration-dataset",
        ("nncf.Dataset(data_source, transform_fn)", "generator"),
    ),
    # nncf src/nncf/common/utils/backend.py
    (
        "nncf.errors.UnsupportedBackendError: Could not infer the backend framework from the model type "
        "because the framework is not available or corrupted, or the model type is unsupported. ",
        "openvino-s20d-nncf-backend-not-inferred",
        ("read_model", "compile_model", ".model"),
    ),
    # mindspore/ccsrc/runtime/pynative/op_runner.cc (LaunchKernels)
    (
        "Malloc for kernel input failed, Memory isn't enough, node:Default/net-TinyNet/Conv2D-op12",
        "ascend-s20d-ms-kernel-memory-not-enough",
        ("input of Default/net-TinyNet/Conv2D-op12", "max_device_memory", "npu-smi info"),
    ),
    # optimum-intel optimum/exporters/openvino, optimum/intel/openvino/modeling_base.py
    (
        "ImportError: Compression of the weights to OVWeightQuantizationConfig(bits=4, group_size=64) "
        "requires nncf, please install it with `pip install nncf`",
        "openvino-s20d-optimum-nncf-missing",
        ("OVWeightQuantizationConfig(bits=4, group_size=64)", "pip install nncf", "--weight-format fp16"),
    ),
    # openvino inference-engine/thirdparty/clDNN/src/memory_pool.cpp (2021 and earlier)
    (
        "RuntimeError: [CLDNN ERROR]. out of GPU resources",
        "openvino-s20d-cldnn-out-of-gpu-resources",
        ("CL_OUT_OF_RESOURCES", "clinfo", "FP16"),
    ),
    # torch_npu/csrc/distributed/ProcessGroupHCCL.cpp (WorkHCCL::checkTimeout)
    (
        "[Rank 5] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=48, OpType=BROADCAST, "
        "NumelIn=4096, NumelOut=4096, Timeout(ms)=600000) ran for 600123 milliseconds before timing out.",
        "torch-npu-s20d-hccl-watchdog-timeout",
        ("collective number 48 (BROADCAST)", "600123 ms", "init_process_group", "HCCL_EXEC_TIMEOUT"),
    ),
    # Ascend/mstt msprobe core/common/file_utils.py, exceptions.py
    (
        "[ERROR] The file path /work/dumps/s3/dump.json may be insecure because is does not belong to you.",
        "ascend-s20d-msprobe-file-check",
        ("/work/dumps/s3/dump.json", "is does not belong to you", "chown"),
    ),
    (
        "msprobe.core.common.exceptions.FileCheckException: [msprobe] 检测到软链接： ",
        "ascend-s20d-msprobe-file-check",
        ("检测到软链接", "realpath"),
    ),
    # openvino.genai src/cpp/src/llm/pipeline_static.cpp, pipeline_stateful.cpp
    (
        "RuntimeError: Check 'batch_size == 1u' failed at src/cpp/src/llm/pipeline_static.cpp:261:\n"
        "Currently only batch size=1 is supported",
        "openvino-s20d-genai-batch-size-one",
        ("device NPU", "once per prompt", "CPU or GPU"),
    ),
    (
        "Check 'input_vector->size() == 1' failed at src/cpp/src/llm/pipeline_stateful.cpp:166:\n"
        "Can't chat with multiple prompts",
        "openvino-s20d-genai-chat-multiple-prompts",
        ("start_chat()", "finish_chat()"),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), ENTRIES, ids=[f"{c[1]}-{i}" for i, c in enumerate(ENTRIES)]
)
def test_the_source_form_is_answered_by_its_entry(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_a_coded_cann_reason_in_the_ggml_envelope_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    """The ggml-cann envelope answers only where CANN's reason has nothing of its own: an EL0004 inside it is
    still the EL0004 entry's case."""
    message = (
        "CANN error: EL0004: [PID: 99] 2026-01-02-10:11:12.000.000 Failed to allocate memory.\n"
        "  current device: 0, in function ggml_cann_pool_alloc at ggml/src/ggml-cann/ggml-cann.cpp:321\n"
        "  aclrtMalloc(&ptr, size, ACL_MEM_MALLOC_HUGE_FIRST)"
    )
    assert kb.lookup(message, top=1)[0].entry.id == "ascend-EL0004"


def test_a_task_queue_status_is_not_taken_from_a_cann_code(kb: KnowledgeBase) -> None:
    """The queue's status is a word (FAILED, INTERNAL_ERROR): a CANN code after 'ret:' is not one."""
    for match in kb.lookup("Failed to empty NPU task queue, ret:EZ9999", top=3):
        assert ("value", "EZ") not in match.captures


@pytest.mark.parametrize(
    "message",
    [
        "nncf.errors.ValidationError: The subset_size value should be positive, but subset_size=0 is given.",
        "nncf.errors.InternalError: Not found statistics for conv_1_statistics",
    ],
)
def test_nncf_errors_are_openvinos(kb: KnowledgeBase, message: str) -> None:
    """NNCF's exception module names its tool: the class name ValidationError alone is also onnx.checker's."""
    assert kb.named_families(message)[0] == "openvino"


def test_msprobe_names_its_tool(kb: KnowledgeBase) -> None:
    """msprobe's own exception prefix is Ascend's (it was answered by another family's entry)."""
    message = "msprobe.core.common.exceptions.MsprobeException: [msprobe] 无效参数：task"
    assert kb.named_families(message)[0] == "ascend"
