"""The knowledge tests of Huawei Ascend (CANN, torch_npu, MindSpore): each case is a vendor's own wording
with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From s20d (was test_knowledge_ascend_openvino_s20d.py):

Session s20d: Ascend's and OpenVINO's forms still missing, read from their own sources.

Ascend: torch_npu's own checks (Ascend/pytorch torch_npu/csrc: the caching allocator's memory-fraction
refusal and device-index check, the aclnn npu_format_cast's non-contiguous refusal, the task queue that
could not be emptied, a CANN function looked up at run time and not found) and llama.cpp's CANN backend
envelope (ggml/src/ggml-cann: "CANN error: ... current device: N, in function F at FILE:LINE /
<statement>"). MindSpore on Ascend: its PyNative op runner's kernel memory
(mindspore/ccsrc/runtime/pynative/op_runner.cc); torch_npu's ProcessGroupHCCL watchdog timeout;
msprobe's file checks (Ascend/mstt core/common/file_utils.py). OpenVINO: the GPU plugin's device query
(intel_gpu ocl_device_detector.cpp), openvino.genai's scheduler that dropped a request for want of KV
cache (src/cpp/src/utils.hpp) and its one-prompt paths (the NPU's static pipeline, chat mode), NNCF's
ignored scope, empty calibration dataset and backend detection (src/nncf/scopes.py,
common/tensor_statistics/aggregator.py, common/utils/backend.py), optimum-intel's weight compression
without NNCF and the old clDNN memory pool's "out of GPU resources".

From h23d3_sources (was test_knowledge_h23d3_sources.py):

Issue 23 (h23d3): causes and fixes read from the tools' own sources for Core ML (coremltools' torch
frontend, ct.convert and MIL checks), onnxruntime (the CPU kernels' shape checks, the CUDA EP), OpenVINO
(ov::Tensor, openvino.genai) with MSVC's map lookup, and MindSpore / MindSpore Lite on Ascend with the TBE
operators' checks.

From mindspore_ascend (was test_knowledge_mindspore_ascend.py):

MindSpore's "Unsupported device target Ascend" (ms_context.cc) is answered as an Ascend set-up failure.

The message carries a "Device load error message" block naming a library that failed to load; generic
runtime text (a missing shared object) must not answer before the MindSpore sentence that says the Ascend
plugin is what is missing.

From round14 (was test_knowledge_round14.py):

* torch_npu's "The Inner error is reported as above. The process exits for this inner error, and the current
  working operator name is <op>." is Ascend's, with an entry of its own (the real error is the line above);

From round16 (was test_knowledge_round16.py):

Issue 23, round 16 (Qualcomm, RKNN, Ascend): what its dev misses taught, each written from the tool's own
source with values of our own (never an evaluation message).

* torch_npu's caching allocator ("NPU out of memory. Tried to allocate <size> (NPU <n>; ...)", and the
  "more than 1EB memory" size check) is Ascend's, with an entry of its own; the other devices' allocators
  (CUDA, MLU) keep their answers;
* MindSpore's Ascend runtime ("Ascend kernel runtime initialization failed. The details refer to 'Ascend
  Error Message'.") is Ascend's, with an entry that names the device and sends the reader to the block below;
* a process id in CANN's and MindSpore's log prefix (``[ERROR] LITE(108805,...)``) is no AscendCL code.

From round22_forms (was test_knowledge_round22_forms.py).

From round23_forms (was test_knowledge_round23_forms.py).

From s19f (was test_knowledge_round24_dev_s19f.py):

Issue 23, round 24's dev forms answered at their cause (s19f): onnxruntime-node's provider list, the C#
API's element-type check and the CANN execution provider's CannCall lines.

From s20g (was test_knowledge_round25_dev_s20g.py):

Issue 23, round 25's dev forms answered at their cause (s20g): HCCL's task timeout and MindX SDK's model
execution over AscendCL.

From s18a (was test_knowledge_specific_s18a.py):

Issue 23, advice specific to messages the KB was not written from: three reason clauses (TensorRT's
optimization-profile check quoted by onnxruntime's TensorRT execution provider, the session's 'Exception
during initialization: <what>', onnx's OpSchema::Finalize check of a model-local function), TensorRT 7's
reversed profile condition, TFLite's TF_LITE_ENSURE_EQ with its values, and the log files the Ascend bare
inner-error cards send the reader to.

Each message is written from the vendor's own wording (TensorRT's setBindingDimensions conditions and
onnxruntime's TensorrtLogger prefix, inference_session.cc, onnx's schema.cc, tensorflow/lite/core/c/common.h,
CANN's '<code>: Inner Error!' layout) with names and values of our own; none is a message of the evaluation
set.

From s19d (was test_knowledge_trt_rknn_ascend_s19d.py):

Branch s19d: TensorRT's, Rockchip's and Ascend's message classes no entry covered, from their own sources.

* Ascend: vllm-ascend's device and extension checks, the AscendCL samples' model-load error, and CANN's
  plog line prefix as a marker.

From s21c (was test_knowledge_ascend_code_tables.py):

Ascend code tables answered code by code: the AscendCL return codes that the CANN table gives (runtime
and Graph Engine codes passed through AscendCL) and HCCL's ``HcclResult`` codes as torch_npu prints them.

Vendor sources: hicann/runtime ``docs/03_api_ref/aclError.md`` (table 1 acl, table 2 returned-through
RUNTIME, table 3 returned-through GE) and CANN's public header ``ge/ge_error_codes.h``; hicann/hccl
``docs/api/context/HcclResult.md`` (the ``HcclResult`` enum); Ascend/pytorch
``torch_npu/csrc/distributed/HCCLUtils.hpp`` (``HCCL_CHECK_ERROR``: ``HCCL function error: <call>, error
code is <n>``).  The texts below are the vendors' line forms with made-up names.

From s22d: Ascend/pytorch torch_npu/csrc (NPUQueue.cpp, OptionsManager.cpp, NPUAllocatorConfig.cpp,
OpPreparation.cpp), mindspore-ai/mindspore lite/ (errorcode.h, converter.cc, python/api/model.py), Ascend/msit
(debug/compare msquickcmp/common/utils.py), ATB's include/atb/types.h and Ascend/op-plugin's AtbCommon.cpp.

From s23b: hicann/opbase src/nnopbase (aclnn's tiling, binary and dtype checks, EZ1006/EZ1008/EZ1010) and
mindspore-ai/graphengine's ge_inner_error_codes.h (GE's decimal ErrorNo forms).

From s24a: Ascend/pytorch torch_npu/csrc (NPUException.h/.cpp's ERR lines after TORCH_CHECK texts;
NPUStream.cpp, NPUEvent.cpp, NPUAllocatorConfig.cpp) and Ascend/op-plugin (op_api_common.h's aclnn
dispatch, ops' checks).

From s25a: hicann/runtime docs/zh/api_ref (each AscendCL call's parameters and constraints) with
its error-code headers, to say what a code means for the call that returned it; Ascend/op-plugin's
remaining TORCH_CHECK texts (ranks, empty tensors, argument forms, FlashAttention's TND sequence
lengths); hicann/runtime device_error_proc.cc and aicpusd_status.h (the AI CPU errcodes of a device
exception).

From s28e (was test_knowledge_s28e_sources.py):

Branch s28e: Ascend's torch_npu error location, MNN's aborting MNN_ASSERT and its converter's release-build
log prefix, and torch.export's fake-tensor failures, each case written from the vendor's format string with
names and values of our own (never an evaluation message).

Vendor files read: hicann/ge graph_metadef/graph/refiner/shape_refiner.cc (infer-function lookup and call);
Ascend/pytorch torch_npu/csrc/core/npu/NPUException.h (NPU_CHECK_ERROR / OPS_CHECK_ERROR:
``__func__ ":" __FILE__ ":" __LINE__ " NPU function error: " ... ", error code is "``); alibaba/MNN
include/MNN/MNNDefine.h (``MNN_ASSERT``: ``int res = (x); ... assert(res)``) and tools/converter/include/
logkit.h before 1.2.0 (``[hh:mm:ss] file:line: ``, ``[hh:mm:ss] :line: `` under NDEBUG, ``throw Error``);
pytorch/pytorch torch/fx/experimental/symbolic_shapes.py (PendingUnbackedSymbolNotFound) and
torch/_dynamo/utils.py (``Failed running call_function ...`` on fake tensors); apache/tvm commit ccaa534b2c
(Relay, autotvm, auto_scheduler and tvmc removed before v0.20.0).

Also from s29e_sources (test_knowledge_converters.py), s30d_sources and s30f_specific
(test_knowledge_onnxruntime.py) and s29g_specific and s31d_sources (test_knowledge_tensorrt.py): their notes
stand in the docstrings named.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.codes import extract_codes
from tests.support.advice import (
    answer_ids,
    answered_by_entry,
    answers_first,
    answers_first_above,
    assert_answered,
    first_with_values,
    in_top3_with_values,
    not_among_answers,
)

PTA = "\n[ERROR] 2026-01-02-10:11:12 (PID:4321, Device:0, RankID:-1) "

TORCH_NPU_HCCL = (
    "RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: "
    "hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is {n}\n"
    "[ERROR] 2025-04-01-08:04:31 (PID:1234, Device:1, RankID:-1) ERR02200 DIST call hccl api failed."
)


CASES = [
    # ---- s20d (test_knowledge_ascend_openvino_s20d.py) ----
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
    # mindspore/ccsrc/runtime/pynative/op_runner.cc (LaunchKernels)
    (
        "Malloc for kernel input failed, Memory isn't enough, node:Default/net-TinyNet/Conv2D-op12",
        "ascend-s20d-ms-kernel-memory-not-enough",
        ("input of Default/net-TinyNet/Conv2D-op12", "max_device_memory", "npu-smi info"),
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
    # ---- h23d3_sources (test_knowledge_h23d3_sources.py) ----
    # mindspore-ai/mindspore and the MindSpore docs' CANN and MindSpore Lite troubleshooting guides
    (
        "[ERROR] DEVICE(4242,ffff0000,python):2025-01-01-00:00:00.000.000 "
        "[mindspore/ccsrc/plugin/device/ascend/"
        "hal/device/ascend_stream_manager.cc:321] SyncStream] Call runtime aclrtSynchronizeStreamWithTimeout "
        "error.",
        "ascend-h23d3-ms-sync-stream-failed",
        ("aclrtSynchronizeStreamWithTimeout", "mindspore.runtime.launch_blocking()", "Sync run failed"),
    ),
    (
        "[ERROR] DEVICE(5150,ffff0000,python):2025-01-01-00:00:00.000.000 [mindspore/ccsrc/runtime/device/"
        "kernel_runtime_manager.cc:138] WaitTaskFinishOnDevice] SyncStream failed, exception:The "
        "pointer[stream] "
        "is null.",
        "ascend-h23d3-ms-stream-null-card-occupied",
        ("The pointer[stream] is null", "npu-smi info", "less than half"),
    ),
    (
        "RuntimeError: Launch kernel failed, name:Default/network/MatMul-op77",
        "ascend-h23d3-ms-launch-kernel-failed",
        ("Default/network/MatMul-op77",),
    ),
    (
        "Out of Memory!!! Request memory size: 2147483648B, Memory Statistic:\nDevice HBM memory size: "
        "65536M",
        "ascend-h23d3-ms-out-of-memory",
        ("2147483648", "65536M", "max_device_memory"),
    ),
    (
        "Malloc device memory failed, free memory size is less than half of total memory size.Device 3 "
        "Device HBM "
        "total size:68719476736 Device HBM free size:1073741824 may be other processes occupying this card",
        "ascend-h23d3-ms-device-memory-half-used",
        ("device 3", "1073741824 of 68719476736", "python_multiprocessing=False"),
    ),
    (
        "MindSpore version 2.4.0 and Ascend AI software package (Ascend Data Center Solution)version 7.1 "
        "does not "
        "match, the version of software package expect one of ['7.5', '7.6']. Please refer to the match info "
        "on: "
        "https://www.mindspore.cn/install",
        "ascend-h23d3-ms-cann-version-mismatch",
        ("MindSpore 2.4.0", "first: 7.5", "CANN 7.1", "set_env.sh"),
    ),
    (
        "[mindspore/lite/tools/converter/converter_context.h:88] PrintOps] FMKTYPE: TFLITE, OP TYPE: "
        "MyCustomOp",
        "ascend-h23d3-mslite-unsupported-op",
        ("TFLITE", "MyCustomOp", "NodeParserRegistry"),
    ),
    (
        "[mindspore/lite/tools/converter/parser/caffe/caffe_model_parser.cc:310] ConvertLayers] parse node "
        "conv5_dw failed.",
        "ascend-h23d3-mslite-parse-node-failed",
        ("conv5_dw", "NodeParser"),
    ),
    (
        "WARNING [mindspore/lite/src/lite_model.cc:80] ConstructModel] model version is MindSpore Lite "
        "2.0.0, "
        "inference version is MindSpore Lite 2.3.1 not equal",
        "ascend-h23d3-mslite-version-not-equal",
        ("MindSpore Lite 2.0.0", "MindSpore Lite 2.3.1"),
    ),
    (
        "[mindspore/lite/src/common/tensor_util.cc:210] CheckTensorsInvalid] The shape of tensor contains "
        "negative "
        "dimension, check the model and assign the input shape with method Resize().",
        "ascend-h23d3-mslite-negative-dim",
        ("Resize()", "--inputShapes"),
    ),
    # ---- round22_forms (test_knowledge_round22_forms.py) ----
    (
        "RuntimeError: Can not find any available kernel info for: Default/MyOp-op7. "
        "Maybe the operator is not supported on Ascend platform.",
        "ascend-mindspore-no-available-kernel-info",
        ("Default/MyOp-op7", "CheckSupport"),
    ),
    (
        "TypeError: Can not select a valid kernel info for [Default/network/Gather-op12] in AI CORE or "
        "AI CPU kernel info candidates list: Kernel Info Candidates List: ...",
        "ascend-mindspore-no-valid-kernel-info",
        ("Default/network/Gather-op12", "float32"),
    ),
    # ---- round23_forms (test_knowledge_round23_forms.py) ----
    (
        "[rank3]:[E1201 08:00:01.000000001 compiler_depend.ts:422] setup failed!\n"
        "Exception raised from OperationSetup at build/third_party/op-plugin/op_plugin/CMakeFiles/"
        "op_plugin_atb.dir/compiler_depend.ts:131 (most recent call first):",
        "ascend-torch-npu-atb-operation-setup-failed",
        ("nnal/atb/set_env.sh", "ASCEND_GLOBAL_LOG_LEVEL"),
    ),
    (
        "[ERROR] LITE(42,converter_lite):2026-01-01-10:00:00.000.000 [mindspore/lite/tools/anf_importer/"
        "import_from_mindir.cc:911] ReadOnnxFromBinary] Read onnx model file failed, which is not a matched "
        "onnx model",
        "ascend-mindspore-lite-converter-not-matched-model",
        ("--fmk=MINDIR", "mindspore.export"),
    ),
    # ---- s21c (test_knowledge_ascend_code_tables.py) ----
    # hicann/runtime docs/03_api_ref/aclError.md: AscendCL codes the CANN table lists that had no entry of
    # their own
    (
        "aclmdlExecute failed, error code is 507056",
        "ascend-507056+ascend-call-returned-internal",
        ("communication link", "hccn_tool"),
    ),
    (
        "aclrtSynchronizeStream failed, ret=507055",
        "ascend-507055+ascend-call-returned-internal",
        ("peer device",),
    ),
    (
        "aclmdlRICaptureEnd failed, error code is 507903",
        "ascend-507903+ascend-call-returned-internal",
        ("capture",),
    ),
    (
        "aclrtHostRegister failed, error code: 507910",
        "ascend-507910+ascend-call-returned-internal",
        ("already registered",),
    ),
    ("aclmdlBundleUnload failed, ret = 148053", "ascend-148053+ascend-call-returned", ("bundle model id",)),
    (
        "aclmdlRIUpdate failed, error code is 207019",
        "ascend-207019+ascend-call-returned",
        ("driver", "25.0.RC1"),
    ),
    # Graph Engine codes passed through AscendCL (CANN ge/ge_error_codes.h, aclError.md table 3)
    ("aclmdlLoadFromFile failed, ret=145002", "ascend-145002+ascend-call-returned", ("model path",)),
    (
        "aclmdlSetDynamicBatchSize failed, error code is 145013",
        "ascend-145013+ascend-call-returned",
        ("--dynamic_batch_size",),
    ),
    ("aclmdlExecute failed, error code: 145021", "ascend-145021+ascend-call-returned", ("shape",)),
    (
        "aclmdlGetFirstAippInfo failed, error code is 145015",
        "ascend-145015+ascend-call-returned",
        ("--insert_op_conf",),
    ),
    ("aclmdlLoadFromFile failed, ret=245002", "ascend-245002+ascend-call-returned", ("device memory",)),
    ("FetchDataFlowGraph failed, error code:345104", "ascend-345104", ("output",)),
    ("aclmdlExecute failed, error code is ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT", "ascend-545601", ("timeout",)),
    (
        "aclmdlLoadFromFile failed, ret=545005",
        "ascend-545005+ascend-call-returned-internal",
        ("--soc_version",),
    ),
    # hicann/hccl HcclResult.md through torch_npu HCCLUtils.hpp HCCL_CHECK_ERROR, the call captured
    (
        TORCH_NPU_HCCL.format(n=7),
        "ascend-hccl-e-unavail",
        ("hcclCommInitRootInfoConfig", "HCCL_HOST_SOCKET_PORT_RANGE"),
    ),
    (TORCH_NPU_HCCL.format(n=1), "ascend-hccl-e-para", ("hcclCommInitRootInfoConfig", "set_device")),
    (TORCH_NPU_HCCL.format(n=15), "ascend-hccl-e-runtime", ("hcclCommInitRootInfoConfig", "runtime")),
    (
        "HCCL function error :HcclGetRootInfo(&hcclID), error code is 11",
        "ascend-hccl-e-tcp-connect",
        ("HcclGetRootInfo", "HCCL_IF_IP"),
    ),
    (
        "HCCL function error: HcclAllReduce(input, output, count, type, op, comm, stream), error code is 9",
        "ascend-hccl-e-timeout",
        ("HcclAllReduce", "HCCL_EXEC_TIMEOUT"),
    ),
    (
        "HcclCommInitClusterInfo returned HCCL_E_OPEN_FILE_FAILURE",
        "ascend-hccl-e-open-file-failure",
        ("RANK_TABLE_FILE",),
    ),
    ("HcclSend failed: HCCL_E_REMOTE", "ascend-hccl-e-remote", ("peer rank",)),
    # ---- the lead, round 26's dev forms (the Fusion Engine's plugin loader; CANN's set_env.sh)
    (
        '[ERROR] FE(1234,app):2024-01-02-03:04:05.678.901 [plugin_manager.cc:62]1234 OpenPlugin:"[FEInit]'
        "[OpPluginSo] Fail to load so file /opt/cann/opp/fusion_pass/built_in/libops_fusion_pass_demo.so, "
        'error message is libdemo.so: cannot open shared object file."',
        "ascend-fe-fusion-pass-so-load-failed",
        ("/opt/cann/opp/fusion_pass/built_in/libops_fusion_pass_demo.so", "libdemo.so", "set_env.sh"),
    ),
    # ---- s22d: torch_npu's own checks (Ascend/pytorch torch_npu/csrc), MindSpore Lite's converter and
    # Python API (mindspore-ai/mindspore lite/), msit debug compare (Ascend/msit), ATB's ErrorType
    # (include/atb/types.h)
    # torch_npu/csrc/core/npu/NPUQueue.cpp (deviceErrorMap)
    (
        "RuntimeError: UCE ERROR, " + PTA.strip() + " ERR00100 PTA call acl api failed",
        "torch-npu-s22d-device-memory-fault",
        ("UCE ERROR", "npu-smi info -t health"),
    ),
    (
        "[ERROR] HCCS LINK ERROR happened, set task queue status to HCCS_LINK_EXIT",
        "torch-npu-s22d-device-link-fault",
        ("HCCS LINK ERROR", "hccn_tool"),
    ),
    (
        "RuntimeError: FORCE STOP." + PTA + "ERR00100 PTA call acl api failed",
        "torch-npu-s22d-force-stop",
        ("stop_device", "restart_device"),
    ),
    (
        "[ERROR] Task queue thread is exit, can't call Enqueue() for executing and op name is=aclnnMyOp.",
        "torch-npu-s22d-queue-exit-after-error",
        ("(aclnnMyOp)", "ASCEND_LAUNCH_BLOCKING=1"),
    ),
    # torch_npu/csrc/core/npu/register/OptionsManager.cpp
    (
        "RuntimeError: TASK_QUEUE_ENABLE should be 0, 1 or 2" + PTA + "ERR00003 PTA invalid value",
        "torch-npu-s22d-env-option-value",
        ("TASK_QUEUE_ENABLE", "0, 1 or 2", "unset TASK_QUEUE_ENABLE"),
    ),
    # torch_npu/csrc/core/npu/NPUAllocatorConfig.cpp
    (
        "ValueError: Unrecognized key 'expandable_segment' in NPU allocator config, "
        + PTA.strip()
        + " ERR01003 OPS invalid value",
        "torch-npu-s22d-alloc-conf-unknown-key",
        ("expandable_segment", "PYTORCH_NPU_ALLOC_CONF"),
    ),
    (
        "RuntimeError: CachingAllocator option segment_size_mb error, must be [20, 512], dtype is int",
        "torch-npu-s22d-alloc-conf-option-value",
        ("segment_size_mb", "20, 512"),
    ),
    (
        "RuntimeError: Both PYTORCH_NPU_ALLOC_CONF and PYTORCH_ALLOC_CONF have been set, "
        "please set only one of them.",
        "torch-npu-s22d-both-alloc-conf",
        ("unset PYTORCH_ALLOC_CONF",),
    ),
    # torch_npu/csrc/framework/utils/OpPreparation.cpp
    (
        "RuntimeError: Expected all tensors to be on the same device. Expected NPU tensor, please check "
        "whether the input tensor device is correct." + PTA + "ERR01002 OPS invalid type",
        "torch-npu-s22d-expected-npu-tensor",
        ("device=x.device", "torch.npu.set_device"),
    ),
    # mindspore/lite/include/errorcode.h, tools/converter/converter.cc
    (
        "[mindspore/lite/tools/converter/converter.cc:123] RunConverter] "
        "CONVERT RESULT FAILED:-500 Failed to infer shape.",
        "ascend-s22d-mslite-convert-infer-shape",
        ("-500", "--inputShape"),
    ),
    (
        "CONVERT RESULT FAILED:-600 Invalid input param by user.",
        "ascend-s22d-mslite-convert-input-param",
        ("-600", "INPUT ILLEGAL"),
    ),
    (
        "CONVERT RESULT FAILED:-200 Failed to verify graph file.",
        "ascend-s22d-mslite-convert-graph-file",
        ("-200", "--fmk"),
    ),
    (
        "CONVERT RESULT FAILED:-302 Invalid operator attr.",
        "ascend-s22d-mslite-convert-op-attr",
        ("-302", "Invalid operator attr", "NodeParser"),
    ),
    (
        "INPUT ILLEGAL: fmk must be TF|TFLITE|CAFFE|MINDIR|ONNX",
        "ascend-s22d-mslite-converter-flag-illegal",
        ("fmk", "TF|TFLITE|CAFFE|MINDIR|ONNX"),
    ),
    # mindspore/lite/python/api/model.py
    (
        "RuntimeError: build_from_file failed! Error is Common error code.",
        "ascend-s22d-mslite-build-from-file",
        ("Common error code", "libascend_kernel_plugin.so"),
    ),
    # Ascend/msit msit/components/debug/compare/msquickcmp/common/utils.py
    (
        'ERROR - The directory "/data/out/dump_data/npu" does not contain dump data',
        "ascend-s22d-msit-no-dump-data",
        ("/data/out/dump_data/npu", "--dump True"),
    ),
    (
        'ERROR - Input shape "img 1,3,224,224" format mismatch,the format like: '
        "input_name1:1,224,224,3;input_name2:3,300",
        "ascend-s22d-msit-input-shape",
        ("img 1,3,224,224", "input_name1:1,3,224,224"),
    ),
    (
        'ERROR - Input tensor name "pixels" not in model',
        "ascend-s22d-msit-input-name",
        ("pixels", "graph.input"),
    ),
    (
        "ERROR - Model file /data/my_model.pth suffix not valid, supported ones are ['.onnx', '.pb', '.om']",
        "ascend-s22d-msit-model-suffix",
        ("/data/my_model.pth", ".onnx"),
    ),
    # ascend-transformer-boost include/atb/types.h; Ascend/op-plugin op_plugin/utils/AtbCommon.cpp
    (
        "Check in tensor desc fail, ErrorType: ERROR_INVALID_TENSOR_DTYPE",
        "ascend-s22d-atb-tensor-check",
        ("ERROR_INVALID_TENSOR_DTYPE", "Supported Combs"),
    ),
    (
        "Setup fail, ErrorType: ERROR_OUT_OF_DEVICE_MEMORY",
        "ascend-s22d-atb-out-of-memory",
        ("ERROR_OUT_OF_DEVICE_MEMORY", "KV-cache"),
    ),
    (
        "Execute fail, ErrorType: ERROR_COMM_EMPTY",
        "ascend-s22d-atb-hccl",
        ("ERROR_COMM_EMPTY", "rankSize"),
    ),
    (
        "RuntimeError: MyAttentionOperation setup failed!",
        "ascend-torch-npu-atb-operation-setup-failed",
        ("MyAttentionOperation", "nnal/atb/set_env.sh"),
    ),
    # torch_npu/csrc/distributed/ProcessGroupHCCL.cpp
    (
        "RuntimeError: [5] is setting up HCCL communicator and retrieving hcclUniqueId from [0] via c10d "
        "key-value store by key 'grp_7', but store->get('grp_7') got error: Socket Timeout. This may "
        "indicate a possible application crash on rank 0 or a network set up issue.",
        "torch-npu-s22d-hccl-root-info-store",
        ("rank 5", "key grp_7", "MASTER_ADDR"),
    ),
    (
        "RuntimeError: Tensors must be NPU and dense",
        "torch-npu-s22d-hccl-tensors-npu-dense",
        ("cpu:gloo,npu:hccl",),
    ),
    (
        "RuntimeError: ProcessGroupHCCL does not support gather"
        + PTA
        + "ERR02007 DIST feature not supported",
        "torch-npu-s22d-hccl-unsupported-call",
        ("gather", "all_gather", "TORCH_NPU_USE_COMPATIBLE_IMPL=1"),
    ),
    # MindIE ATB models pytorch/adapter/operation/operation_torch.cpp
    (
        "[error] MyModel_layer3 setup fail, not call execute, error code: 6",
        "ascend-s22d-atb-speed-status",
        ("MyModel_layer3", "atb::Status 6", "INVALID_TENSOR_DTYPE"),
    ),
    (
        "RuntimeError: MyLinear execute fail, operation is null. Enable log: export ASDOPS_LOG_LEVEL=ERROR, "
        "export ASDOPS_LOG_TO_STDOUT=1 to find the first error.",
        "ascend-s22d-atb-speed-operation-null",
        ("MyLinear", "create operation fail"),
    ),
    # ---- s23b: hicann/opbase src/nnopbase (indv_executor.cpp, composite_op/aclnn_engine/op_kernel.h,
    # common/inc/nnopbase_error_msg.h), the ops' op_host *_tiling.cpp [FUNC][FILE] lines, and
    # mindspore-ai/graphengine inc/framework/common/ge_inner_error_codes.h (GE ErrorNo decimals) ----
    (
        "EZ9999: Inner Error!\nEZ9999: [PID: 11] 2026-01-01-00:00:00.000.000 Input y shape invalid, "
        "shape is not equal x shape.[FUNC:CheckShapes][FILE:zq_norm_tiling.cpp][LINE:17]",
        "ascend-s23b-op-tiling-check",
        ("Input y shape invalid, shape is not equal x shape.", "CheckShapes", "zq_norm_tiling.cpp"),
    ),
    (
        "RuntimeError: call aclnnZqNorm failed, detail:EZ9999: Inner Error!\n"
        "EZ9999[PID: 5] 2026-01-01-00:00:00.000.000 AclNN_Inner_Error(EZ9999):  "
        "ZqNorm do tiling failed, ret is -1.\n"
        "        TraceBack (most recent call last):\n       Check NnopbaseExecutorDoTiling(executor) failed",
        "ascend-s23b-aclnn-do-tiling-failed",
        ("ZqNorm", "_tiling.cpp"),
    ),
    (
        "EZ1008: Failed to execute operator aclnnZqNorm. Reason: Failed to execute tiling function.",
        "ascend-s23b-aclnn-do-tiling-failed",
        ("aclnnZqNorm",),
    ),
    (
        "EZ9999: Inner Error!\nEZ9999: [PID: 1] Op ZqOp does not has any binary.",
        "ascend-s23b-aclnn-op-no-binary",
        ("ZqOp", "ASCEND_OPP_PATH"),
    ),
    (
        "EZ9999: Inner Error!\nEZ9999[PID: 7] Io input dtype or format is not supported, "
        "get io input info is x(DT_INT8, ND) y(DT_FLOAT, ND) but supported list is:",
        "ascend-s23b-aclnn-io-dtype-format-unsupported",
        ("x(DT_INT8, ND) y(DT_FLOAT, ND)", "SupportInfo"),
    ),
    (
        "EZ9999: Inner Error!\nEZ9999[PID: 7] Op ZqOp not support soc version Ascend310P3.",
        "ascend-s23b-aclnn-op-soc-unsupported",
        ("ZqOp", "Ascend310P3"),
    ),
    (
        "EZ1006: Operator aclnnZq does not support data type DT_INT16. The supported data type range is "
        "[DT_FLOAT, DT_FLOAT16].",
        "ascend-s23b-EZ1006-dtype-unsupported",
        ("aclnnZq", "DT_INT16", "DT_FLOAT16"),
    ),
    (
        "EZ1010: Value 9 for parameter zqDim is invalid. Reason: it must be smaller than 8.",
        "ascend-s23b-EZ1010-invalid-parameter-value",
        ("9", "zqDim", "it must be smaller than 8"),
    ),
    (
        "[ERROR] GE(1,zq):2026-01-01-00:00:00.000.000 [graph_prepare.cc:1]1 InferShape: ErrorNo: "
        "1343242270(Prepare Graph infershape failed) [Call][InferShape] failed",
        "ascend-s23b-ge-graph-infershape-failed",
        ("GE_GRAPH_INFERSHAPE_FAILED", "1343242270", "--input_shape"),
    ),
    (
        "GenerateModel: ErrorNo: 1343266819(Graph manager build graph failed.) "
        "[COMP][DEFAULT]Build model failed.",
        "ascend-s23b-ge-build-graph-failed",
        ("1343266819", "first error"),
    ),
    ("ErrorNo: 1343225857(Parameter invalid!)", "ascend-s23b-ge-param-invalid", ("PARAM_INVALID", "E10001")),
    ("ErrorNo: 4294967295(failed)", "ascend-s23b-ge-failed", ("0xFFFFFFFF",)),
    # Ascend/pytorch torch_npu/csrc/distributed/ProcessGroupHCCL.cpp (TORCH_CHECK ... DIST_ERROR)
    (
        "RuntimeError: Tensor list operands to scatter/gather must have the same length"
        + PTA
        + "ERR02001 DIST invalid parameter",
        "torch-npu-s23b-hccl-collective-tensor-check",
        ("Tensor list operands to scatter/gather must have the same length", ".contiguous()"),
    ),
    # s24a: Ascend/pytorch torch_npu/csrc (TORCH_CHECK text, then NPUException.cpp's ERR line) and
    # Ascend/op-plugin op_plugin/ops/**/*KernelNpu*.cpp checks, op_plugin/utils/op_api_common.h
    # (DO_COMPATIBILITY)
    (
        "RuntimeError: dtype of zq_idx should be Int, but got Float" + PTA + "ERR01002 OPS invalid type",
        "torch-npu-s24a-check-dtype",
        ("dtype of zq_idx should be Int, but got Float", "ERR01002", "x.to(torch.float16)"),
    ),
    (
        "RuntimeError: The last dim of zq_x must be divisible by 32, but got 7"
        + PTA
        + "ERR01001 OPS invalid parameter",
        "torch-npu-s24a-check-shape",
        ("The last dim of zq_x must be divisible by 32, but got 7", "ERR01001", "x.shape"),
    ),
    (
        "RuntimeError: zq_w only supports NZ format." + PTA + "ERR01001 OPS invalid parameter",
        "torch-npu-s24a-check-format",
        ("zq_w only supports NZ format.", "torch_npu.npu_format_cast"),
    ),
    (
        "RuntimeError: Event device 1 does not match recording stream's device 0."
        + PTA
        + "ERR00001 PTA invalid parameter",
        "torch-npu-s24a-check-stream-event",
        ("Event device 1 does not match recording stream's device 0.", "ERR00001", "torch.npu.set_device"),
    ),
    (
        "RuntimeError: zq_bins must be > 0" + PTA + "ERR00001 PTA invalid parameter",
        "torch-npu-s24a-check-value",
        ("zq_bins must be > 0", "ERR00001"),
    ),
    (
        "RuntimeError: Current CANN version do not support this api: npu_zq_op. "
        "Please try to update the version of CANN." + PTA + "ERR01007 OPS feature not supported",
        "torch-npu-s24a-check-cann-version",
        ("npu_zq_op", "ERR01007", "version.cfg"),
    ),
    (
        "RuntimeError: zq_mode must be 'first' or 'second', but got: third"
        + PTA
        + "ERR01001 OPS invalid parameter",
        "torch-npu-s24a-check-value",
        ("zq_mode must be 'first' or 'second', but got: third", "ERR01001"),
    ),
    (
        "RuntimeError: per_process_memory_fraction is invalid, set it in [0.0, 1.0]"
        + PTA
        + "ERR00001 PTA invalid parameter",
        "torch-npu-s24a-check-memory",
        ("per_process_memory_fraction is invalid, set it in [0.0, 1.0]", "PYTORCH_NPU_ALLOC_CONF"),
    ),
    (
        "RuntimeError: Current device only support aclnn operators, "
        "but aclnnZqOp or aclnnZqOpGetWorkspaceSize not found" + PTA + "ERR01007 OPS feature not supported",
        "torch-npu-s24a-aclnn-only-not-found",
        ("aclnnZqOp", "libopapi.so"),
    ),
    (
        "[W compiler_depend.ts:62] Warning: aclnnZqOp or aclnnZqOpGetWorkspaceSize not in libopapi.so, "
        "or libopapi.so not found. Will call at_npu::native::zq_op",
        "torch-npu-s24a-aclnn-fallback-warning",
        ("aclnnZqOp", "libopapi.so", "at_npu::native::zq_op"),
    ),
    # hicann/ge api/acl/acl_op_compiler/single_op/compile/op_compile_processor.cpp, local_compiler.cpp
    (
        "EH9999: Inner Error!\n"
        "EH9999  [Init][Env]init env failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:1]",
        "ascend-s24a-op-compiler-init-env-failed",
        ("OpCompileProcessor", "GEInitialize", "restart the process"),
    ),
    # hicann/ge ModelHelper::InitRuntimePlatform (PlatformInfoManager::InitRuntimePlatformInfos)
    (
        "EH9999: [PID: 5] 2026-01-01-00:00:00.000.000 [Init][PlatformInfo]init runtime platform info failed, "
        "SocVersion = Ascend910Z7[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:1]",
        "ascend-s24a-ge-runtime-platform-info",
        ("Ascend910Z7", "platform_config/Ascend910Z7.ini"),
    ),
    # CANN TSD client process_mode_manager.cpp (ProcessModeManager::WaitRsp)
    (
        "tsd client wait response fail, device response code[3]. unknown device error."
        "[FUNC:WaitRsp][FILE:process_mode_manager.cpp][LINE:1]",
        "ascend-s24a-tsd-wait-response-fail",
        ("response code 3", "npu-smi info"),
    ),
    # CANN Error Code Reference EI0002 (both Symptom wordings)
    (
        "EI0002: The wait execution of the Notify register times out. "
        "Reason: The Notify register has not received the Notify record from remote rank: [6]. "
        "base information: [streamID:[2]].",
        "ascend-s24a-hccl-notify-wait-peer",
        ("rank 6", "HCCL_EXEC_TIMEOUT"),
    ),
    (
        "EI0002: An timeout occurs when the Notify register waits for execution. Waiting peer rank: 11; "
        "task information: zq; communication operator information: zq; communicator: zq_group.",
        "ascend-s24a-hccl-notify-wait-peer",
        ("rank 11", "error cqe"),
    ),
    # s25a: what an AscendCL code means for the call that returned it (hicann/runtime docs/zh/api_ref:
    # each call's parameters and constraints; Ascend/pytorch NPUException.h's 'NPU function error: <call>,
    # error code is <n>'; hicann/runtime example util_mstx.h's '<call> call failed, error code: <n>')
    (
        "RuntimeError: malloc:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77 NPU function error: "
        "aclrtMalloc(&zq_ptr, zq_size, ACL_MEM_MALLOC_HUGE_FIRST), error code is 207001",
        "ascend-207001+ascend-call-malloc-out-of-memory",
        ("aclrtMalloc returned 207001", "npu-smi info"),
    ),
    (
        "aclrtMallocHost(&zq_host, 0) call failed, error code: 107000",
        "ascend-107000+ascend-call-malloc-invalid-argument",
        ("aclrtMallocHost rejected its arguments (107000)", "size may not be 0"),
    ),
    (
        "aclrtMemcpyAsync(zq_dst, 64, zq_src, 128, ACL_MEMCPY_HOST_TO_DEVICE, zq_stream) call failed, "
        "error code: 107000",
        "ascend-107000+ascend-call-memcpy-invalid-argument",
        ("aclrtMemcpyAsync rejected the copy (107000)", "count <= destMax"),
    ),
    (
        "RuntimeError: synchronize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:503 NPU function error: "
        "aclrtSynchronizeStream(zq_stream), error code is 507015",
        "ascend-507015+ascend-call-synchronize-task-failed",
        ("aclrtSynchronizeStream only waits", "507015", "ASCEND_LAUNCH_BLOCKING=1"),
    ),
    (
        "aclrtSetDevice(9) call failed, error code: 107001",
        "ascend-acl-107001+ascend-call-set-device-id",
        ("aclrtSetDevice was given a device id (107001)", "ASCEND_RT_VISIBLE_DEVICES"),
    ),
    (
        "aclrtCreateStream(&zq_stream) call failed, error code: 207008",
        "ascend-acl-207008+ascend-call-create-stream-limit",
        ("aclrtCreateStream found no stream left", "aclrtDestroyStream"),
    ),
    (
        "aclrtCreateEvent(&zq_event) call failed, error code: 207007",
        "ascend-acl-207007+ascend-call-create-event-limit",
        ("aclrtCreateEvent found no event resource left", "aclrtDestroyEvent"),
    ),
    (
        'aclmdlLoadFromFile("./zq.om", &zq_id) call failed, error code: 100013',
        "ascend-100013+ascend-call-model-load",
        ("aclmdlLoadFromFile could not read or parse", "--soc_version"),
    ),
    (
        "aclmdlExecute(zq_id, zq_in, zq_out) call failed, error code: 100017",
        "ascend-100017+ascend-call-model-execute-dataset",
        ("aclmdlExecute rejected the datasets", "aclmdlGetInputSizeByIndex"),
    ),
    (
        "aclmdlExecute(zq_id, zq_in, zq_out) call failed, error code: 507011",
        "ascend-507011+ascend-call-model-execute-task-failed",
        ("aclmdlExecute accepted the model's inputs", "507011"),
    ),
    (
        'aclopCompile("ZqOp", 1, zq_desc, 1, zq_out, zq_attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL) call '
        "failed, error code: 100024",
        "ascend-100024+ascend-call-op-compile",
        ("aclopCompile found no way to build", "ASCEND_OPP_PATH"),
    ),
    (
        "RuntimeError: zq:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:9 NPU function error: "
        "aclrtPointerGetAttributes(zq_ptr, &zq_attr), error code is 107000",
        "ascend-107000+ascend-call-returned",
        (
            "aclrtPointerGetAttributes returned 107000",
            "ACL_ERROR_RT_PARAM_INVALID",
            "aclrtPointerGetAttributes",
        ),
    ),
    # s25a: op-plugin's remaining TORCH_CHECK texts (op_plugin/ops/opapi/*KernelNpuOpApi.cpp, OPS_ERROR after
    # them)
    # read by s24a's class entries, and FlashAttentionKernelNpuOpApi.cpp's TND check
    (
        "RuntimeError: The zq_a input of mm is required to be 2D, but the actual zq_a input is 3D."
        + PTA
        + "ERR01001 OPS invalid parameter",
        "torch-npu-s24a-check-shape",
        ("required to be 2D", "ERR01001", "reshape"),
    ),
    (
        "RuntimeError: torch.nn.functional.linear() zq_w must be at least two-dimensional."
        + PTA
        + "ERR01001 OPS invalid parameter",
        "torch-npu-s24a-check-shape",
        ("at least two-dimensional",),
    ),
    (
        "RuntimeError: The input tensor [zq_count] is an empty tensor."
        + PTA
        + "ERR01001 OPS invalid parameter",
        "torch-npu-s24a-check-shape",
        ("[zq_count] is an empty tensor",),
    ),
    (
        "RuntimeError: zq_pool2d: padding must either be a single int, or a tuple of two ints"
        + PTA
        + "ERR01001 OPS invalid parameter",
        "torch-npu-s24a-check-value",
        ("padding must either be a single int",),
    ),
    (
        "RuntimeError: npu_fusion_attention_v3_out with workspace and TND layout requires actual_seq_qlen "
        "and actual_seq_kvlen." + PTA + "ERR01001 OPS invalid parameter",
        "torch-npu-s25a-fusion-attention-tnd-seqlen",
        ("npu_fusion_attention_v3_out", "input_layout='TND'", "actual_seq_kvlen"),
    ),
    # s25a: hicann/runtime device_error_proc.cc (ProcessStarsAicpuErrorInfo) with aicpusd_status.h's
    # errcodes
    (
        "An exception occurred during AI CPU execution, stream_id:3, task_id:12, errcode:21007, "
        "msg:task execute timeout.",
        "ascend-AICPU-device-exception",
        ("task 12 on stream 3", "21007 it timed out"),
    ),
    (
        "Launch kernel failed: Default/zq_net/Unique-op3\n\nThe error from device(chipId:1, dieId:0), "
        "serial number is 4, an exception occurred during AICPU execution, stream_id:6, task_id:91, "
        "errcode:21001, msg:param invalid.[FUNC:ProcessStarsAicpuErrorInfo][FILE:device_error_proc.cc]"
        "[LINE:1]",
        "ascend-AICPU-device-exception",
        ("task 91 on stream 6", "errcode 21001 ('param invalid'", "21001 a kernel parameter invalid"),
    ),
    (
        "ATC run failed, Please check the detail log, Try 'atc --help' for more information\n"
        "E20001: Failed to compile Op [/backbone/Gather_7_ascend_mbatch_batch_2]. (optype: [GatherV2D])",
        "ascend-s30f-E20001-multi-batch-gear",
        ("/backbone/Gather_7", "GatherV2D", "gear 2"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


CONFIDENT_CASES = [
    # ---- s19d (test_knowledge_trt_rknn_ascend_s19d.py) ----
    # --- Ascend ---
    (
        "WARNING 11-29 10:00:00 camem.py:67] Failed to import vllm_ascend_C:No module named "
        "'vllm_ascend.vllm_ascend_C'. Sleep mode will be disabled. ",
        "ascend-s19d-vllm-ascend-custom-op-import",
        ("set_env.sh",),
    ),
    (
        "ValueError: local_rank 5 is out of bounds for the available NPU devices: [0, 1]",
        "ascend-s19d-vllm-ascend-no-npu-visible",
        ("local rank 5", "0, 1", "ASCEND_RT_VISIBLE_DEVICES"),
    ),
    (
        "[ERROR]  load model from file failed, model file is ./zz_model/zz.om, errorCode is 145002",
        "ascend-s19d-acl-sample-load-model-failed",
        ("./zz_model/zz.om", "145002", "--soc_version"),
    ),
    (
        "RuntimeError: call aclnnRmsNorm failed, detail:EZ1001: [PID: 9] 2025-06-01-10:00:00.000.001 Get "
        "path and read binary_info_config.json failed, please check if the opp_kernel package is installed!",
        "ascend-s29e-opp-kernel-binary-info",
        ("aclnnRmsNorm", "config.ini"),
    ),
    (
        "EZ1001: [PID: 77] 2025-06-01-10:00:00.000.002 May not set ASCEND_OPP_PATH or ASCEND_CUSTOM_OPP_PATH "
        "in env!",
        "ascend-s29e-opp-path-env-missing",
        ("set_env.sh",),
    ),
    (
        "[Rank 11] Work WorkHCCL(SeqNum=77, OpType=REDUCE_SCATTER, Timeout(ms)=900000) timed out in blocking "
        "wait (TORCH_HCCL_BLOCKING_WAIT=1 or HCCL_BLOCKING_WAIT=1).",
        "torch-npu-s29e-hccl-blocking-wait-timeout",
        ("rank 11", "REDUCE_SCATTER"),
    ),
    (
        "[W compiler_depend.ts:944] Warning: Process group work ALLGATHER, seq_num 5120 dispatch timeout. "
        "(function checkDispatch)",
        "torch-npu-s29e-hccl-dispatch-timeout",
        ("ALLGATHER", "5120"),
    ),
    (
        "UserWarning: The watchdog timeout 120000ms(which is set by init_process_group) is less than or "
        "equal to HCCL execution timeout 600000ms! The plog may not be recorded.",
        "torch-npu-s29e-hccl-watchdog-under-exec-timeout",
        ("120000ms", "600000ms"),
    ),
]

test_the_vendor_form_is_answered_confidently_by_its_entry = answered_by_entry(CONFIDENT_CASES, confident=True)


# ---- s20d (test_knowledge_ascend_openvino_s20d.py) ----


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


def test_msprobe_names_its_tool(kb: KnowledgeBase) -> None:
    """msprobe's own exception prefix is Ascend's (it was answered by another family's entry)."""
    message = "msprobe.core.common.exceptions.MsprobeException: [msprobe] 无效参数：task"
    assert kb.named_families(message)[0] == "ascend"


# ---- h23d3_sources (test_knowledge_h23d3_sources.py) ----


def test_a_sync_line_yields_to_the_cann_error_printed_with_it(kb: KnowledgeBase) -> None:
    """MindSpore's stream-sync line is context: the AI Core error block after it answers first."""
    text = (
        "[ERROR] DEVICE(7,ffff,python):2025-01-01 [mindspore/ccsrc/plugin/device/ascend/hal/device/"
        "ascend_stream_manager.cc:321] SyncStream] Call runtime aclrtSynchronizeStreamWithTimeout error.\n"
        "EZ9999: Inner Error!\n        Aicore kernel execute failed, device_id=0, stream_id=3, "
        "report_stream_id=3, "
        "task_id=9, fault kernel_name=mul_0123456789_0__kernel0"
    )
    assert kb.lookup(text, top=1)[0].entry.id != "ascend-h23d3-ms-sync-stream-failed"


# ---- mindspore_ascend (test_knowledge_mindspore_ascend.py) ----

HEAD = (
    "RuntimeError: Unsupported device target Ascend. This process only supports one of the ['CPU']. "
    "Please check whether the Ascend environment is installed and configured correctly, and check whether "
    'current mindspore wheel package was built with "-e Ascend". For details, please refer to "Device load '
    'error message".'
)


def test_the_mindspore_sentence_answers_with_the_devices_it_has(kb: KnowledgeBase) -> None:
    answer = kb.answer(HEAD, top=3)
    top = answer.matches[0]
    assert top.entry.id == "ascend-mindspore-unsupported-device-target-ascend"
    assert answer.confidence == "high" and dict(top.captures)["arg"] == "CPU"
    assert "set_env.sh" in top.fix


def test_it_answers_before_the_library_the_load_block_names(kb: KnowledgeBase) -> None:
    text = (
        HEAD + "\n\n----------------------------------------------------\n- Device load error message:\n"
        "----------------------------------------------------\n"
        "Load dynamic library: libmindspore_ascend.so.2 failed. libge_runner.so: cannot open shared object "
        "file: No such file or directory"
    )
    ranked = kb.lookup(text, top=3)
    assert ranked[0].entry.id == "ascend-mindspore-unsupported-device-target-ascend"
    assert ranked[0].entry.family == "ascend"


def test_another_device_target_is_not_this_entry(kb: KnowledgeBase) -> None:
    text = "RuntimeError: Unsupported device target GPU. This process only supports one of the ['CPU']."
    ids = [m.entry.id for m in kb.lookup(text, top=5) if m.reason.startswith("pattern")]
    assert "ascend-mindspore-unsupported-device-target-ascend" not in ids


# ---- round14 (test_knowledge_round14.py) ----


@pytest.mark.parametrize(
    ("tail", "found"),
    [
        ("working operator name is FooBarV3.", ("op_type", "FooBarV3")),
        ("copy params are srclen=64, dstlen=32, kind=2.", ("detail", "srclen=64, dstlen=32, kind=2")),
    ],
)
def test_torch_npus_inner_error_line_is_ascends_with_the_op(
    kb: KnowledgeBase, tail: str, found: tuple[str, str]
) -> None:
    text = (
        "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and "
        f"the current {tail}"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "torch-npu-inner-error-reported-above"
    assert found in top.captures
    assert "ASCEND_LAUNCH_BLOCKING=1" in top.fix
    assert "lines above" in top.cause


def test_torch_npus_async_note_alone_names_ascend(kb: KnowledgeBase) -> None:
    text = (
        "Since the operator is called asynchronously, the stacktrace may be inaccurate. If you want to get "
        "the accurate stacktrace, please set the environment variable ASCEND_LAUNCH_BLOCKING=1."
    )
    assert kb.lookup(text, top=1)[0].entry.family == "ascend"


# ---- round16 (test_knowledge_round16.py) ----


def _keys(text: str) -> list[str]:
    return [c.key for c in extract_codes(text)]


@pytest.mark.parametrize(
    ("text", "size"),
    [
        (
            "RuntimeError: NPU out of memory. Tried to allocate 1.25 GiB (NPU 2; 31.00 GiB total capacity; "
            "28.40 GiB already allocated; 28.40 GiB current active; 0.90 GiB free; 29.70 GiB reserved in "
            "total by PyTorch)",
            "1.25 GiB",
        ),
        ("torch.OutOfMemoryError: NPU out of memory. Tried to allocate 96.00 MiB", "96.00 MiB"),
        ("NPU out of memory. Tried to allocate more than 1EB memory.", "more than 1EB memory"),
    ],
)
def test_torch_npus_allocator_is_ascends_with_the_size(kb: KnowledgeBase, text: str, size: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "torch-npu-out-of-memory" and top.entry.family == "ascend"
    assert ("value", size) in top.captures
    assert size in top.cause
    assert "PYTORCH_NPU_ALLOC_CONF" in top.fix


@pytest.mark.parametrize(
    "text",
    [
        "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.79 GiB total capacity)",
        "RuntimeError: MLU out of memory. Tried to allocate more than 1EB memory.",
    ],
)
def test_other_devices_allocators_are_not_matched_as_torch_npus(kb: KnowledgeBase, text: str) -> None:
    """The entry's pattern and the Ascend marker take only the "NPU" sentence: another device's is at most a
    wording match (a partial paste, under the confidence floor), never a pattern match with its size."""
    for m in kb.lookup(text, top=3):
        if m.entry.id == "torch-npu-out-of-memory":
            assert m.reason == "words" and not m.captures


@pytest.mark.parametrize(
    ("text", "device"),
    [
        (
            "RuntimeError: Ascend kernel runtime initialization failed. The details refer to 'Ascend Error "
            "Message'.",
            None,
        ),
        (
            "RuntimeError: Ascend kernel runtime initialization failed, device id: 11. The details refer to "
            "'Ascend Error Message'.",
            "11",
        ),
    ],
)
def test_mindsporess_ascend_runtime_init_is_ascends(kb: KnowledgeBase, text: str, device: str | None) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "mindspore-ascend-kernel-runtime-init-failed" and top.entry.family == "ascend"
    assert "'Ascend Error Message'" in top.fix
    if device is None:
        assert "index" not in dict(top.captures) and "device for this process" in top.cause
    else:
        assert ("index", device) in top.captures and f"device {device} for" in top.cause


def test_the_ascend_error_message_block_alone_names_ascend(kb: KnowledgeBase) -> None:
    text = (
        "----------------------------------------------------\n"
        "- Ascend Error Message:\n"
        "----------------------------------------------------\n"
        "Call rtSetDevice failed: device is busy"
    )
    assert kb.lookup(text, top=1)[0].entry.family == "ascend"


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        (
            "[ERROR] LITE(204711,ffff8a1c0010,converter_lite):2025-01-02-03:04:05.678.901 "
            "[acl_pass.cc:37] Run] Acl pass impl run failed.",
            [],
        ),
        (
            "[ERROR] ME(318204,fffe2c0b1120,python):2025-01-02 Call aclgrphBuildModel fail: EE1001: The "
            "argument is invalid.",
            ["ascend:EE1001"],
        ),
        (
            "[ERROR] RUNTIME(215407,python):2025-01-02 Init device failed, error code is 507033",
            ["acl:507033"],
        ),
        ("aclrtSetDevice failed (507033), see the plog", ["acl:507033"]),
        ("rtStreamSynchronize failed, ret=507011, stream 3", ["acl:507011"]),
    ],
)
def test_a_process_id_in_the_log_prefix_is_no_acl_code(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


# ---- s19f (test_knowledge_round24_dev_s19f.py) ----


def test_cann_runtime_feature_not_support(kb: KnowledgeBase) -> None:
    msg = (
        "EE9999: Inner Error!\n"
        "EE9999  get device msg feature can not support offline mode.[FUNC:GetDevMsg][FILE:api_impl.cc]\n"
        "        rtGetDevMsg execute failed, reason=[feature not support][FUNC:FuncErrorReason]"
        "[FILE:error_message_manage.cc][LINE:49]"
    )
    assert_answered(kb, msg, ("rtGetDevMsg", "207000", "npu-smi info"), entry="ascend-rt-feature-not-support")


def test_the_runtime_reason_entry_says_a_device_exception_only_for_one(kb: KnowledgeBase) -> None:
    top = kb.lookup("rtMalloc execute failed, reason=[memory allocation failed]", top=1)[0]
    assert top.entry.id == "ascend-sync-failed-reason"
    assert "any other reason is the runtime's own check of this call" in top.cause
    assert "memory allocation failed" in top.cause


# ---- s20g (test_knowledge_round25_dev_s20g.py) ----


def test_hccl_task_timeout(kb: KnowledgeBase) -> None:
    msg = (
        "EI9999: Inner Error!\nEI9999: The error from device(chipId:1, dieId:0), serial number "
        "is 4, hccl fftsplus task timeout occurred during task execution, stream_id:3, sq_id:3, "
        "task_id:900, stuck notify num:1, timeout:20min(default)."
        "[FUNC:ProcessStarsHcclFftsPlusTimeoutErrorInfo]"
    )
    assert_answered(kb, msg, ("20min", "HCCL_EXEC_TIMEOUT"), entry="ascend-s20g-hccl-task-timeout")


def test_mindx_model_infer_execute(kb: KnowledgeBase) -> None:
    msg = (
        "E20240301 08:00:00.000001  101 MxOmModelDesc.cpp:855] [507011][Error code unknown] "
        "Failed to model infer execute, details seen in CANN document.\n"
        "E20240301 08:00:00.000002  101 MxOmModelDesc.cpp:129] Model Infer failed."
    )
    top = assert_answered(
        kb,
        msg,
        ("507011", "ACL_ERROR_RT_MODEL_EXECUTE"),
        entry="ascend-s20g-mindx-model-infer-execute",
    )
    assert top.entry.family == "ascend"


# ---- s18a (test_knowledge_specific_s18a.py) ----


def test_exception_during_initialization_names_what_was_thrown(kb: KnowledgeBase) -> None:
    message = (
        "2023-01-05 08:09:10.111 [E:onnxruntime:, inference_session.cc:1532 operator()] Exception during "
        "initialization: KeyError: 'pads_mode'\n\nAt:\n  /opt/venv/lib/python3.9/site-packages/acme_ep/"
        "frontend/conv.py(212): convert"
    )
    assert_answered(
        kb,
        message,
        ("KeyError: 'pads_mode'", "CPUExecutionProvider", "'At:'"),
        clause="ort-exception-during-initialization",
    )


def test_ascend_inner_error_cards_name_the_log_files(kb: KnowledgeBase) -> None:
    message = (
        "EE9999: Inner Error!\nEE9999  rtStreamSynchronize execute failed, reason=[vector core exception]"
        "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:50]\n        TraceBack (most recent call "
        "last):\n        synchronize stream failed, runtime result = 507035[FUNC:ReportCallError]"
        "[FILE:log_inner.cpp][LINE:161]"
    )
    ids = [m.entry.id for m in kb.lookup(message, top=5)]
    card = next(m for m in kb.lookup(message, top=5) if m.entry.id == "ascend-EE9999")
    assert "ascend-EE9999" in ids
    for part in (
        "TraceBack (most recent call last):",
        "debug/plog/plog-<pid>",
        "device-<id>",
        "ASCEND_PROCESS_LOG_PATH",
    ):
        assert part in card.fix, (part, card.fix)


def test_schema_finalize_check_names_the_function_and_its_check(kb: KnowledgeBase) -> None:
    message = (
        "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Load model from "
        "/data/m/model.onnx failed:ONNX Schema pkg_acme_Block_forward_3: failed validating the check: "
        "!(it.GetName().empty())"
    )
    assert_answered(
        kb,
        message,
        ("pkg_acme_Block_forward_3", "!(it.GetName().empty())", "inline_local_functions"),
        clause="onnx-schema-finalize-check",
    )


# ---- s19d (test_knowledge_trt_rknn_ascend_s19d.py) ----


@pytest.mark.parametrize(
    ("message", "family"),
    [
        # the nvinfer context's own prefix names DeepStream (a TensorRT element) without '[TRT]'
        (
            "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::zzStep() <nvdsinfer_context_impl.cpp:1> "
            "[UID = 1]: zz went wrong",
            "tensorrt",
        ),
        # CANN's plog prefix names the module and pid of GE / TBE, no other marker on the line
        (
            "[ERROR] GE(4321,zz.bin):2026-11-29-10:00:00.000.000 [zz_pass.cc:10]4321 Run: ErrorNo: "
            "-1(failed) "
            "zz failed",
            "ascend",
        ),
        ("[ERROR] TBE(4321,python):2026-11-29-10:00:00.000.000 zz step failed", "ascend"),
    ],
)
def test_tool_prefix_names_the_family(kb: KnowledgeBase, message: str, family: str) -> None:
    found = kb.answer(message)
    assert found.matches and found.matches[0].entry.family == family


# ---- s21c (test_knowledge_ascend_code_tables.py) ----


def test_hccl_code_is_not_a_neighbour_code(kb: KnowledgeBase) -> None:
    """``error code is 19`` names HCCL_E_NETWORK, not HCCL_E_PARA (1) whose number starts it."""
    text = "HCCL function error: HcclBroadcast(buf, count, type, root, comm, stream), error code is 19"
    assert kb.lookup(text, top=1)[0].entry.id == "ascend-hccl-e-network"


def test_a_ge_errorno_without_its_own_entry_is_read_by_the_ge_scheme_card(kb: KnowledgeBase) -> None:
    """mindspore-ai/graphengine ge_inner_error_codes.h: a decimal ErrorNo with no entry of its own is answered
    by GE's scheme card, which names the number and GE's description as printed (not the family card)."""
    text = "[ERROR] GE(1,zq):2026 [zq.cc:1]1 Zq: ErrorNo: 1343250437(Failed to GenerateTask.) [Zq] failed"
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "ascend-s23b-ge-errorno"
    assert dict(top.captures) == {"value": "1343250437", "detail": "Failed to GenerateTask."}
    assert "1343250437" in top.cause and "Failed to GenerateTask." in top.cause
    assert "ge:0x50106005" in top.codes


def test_a_collective_tensor_check_needs_torch_npu_dist_code_after_it(kb: KnowledgeBase) -> None:
    """PyTorch's own process groups print 'Tensors must be contiguous' too: without torch_npu's DIST code
    line after it the HCCL entry does not answer."""
    top = kb.lookup("RuntimeError: Tensors must be contiguous", top=1)
    assert not top or top[0].entry.id != "torch-npu-s23b-hccl-collective-tensor-check"


def test_ez9903_is_read_as_the_aclnn_runtime_catch_all_not_as_one_cause(kb: KnowledgeBase) -> None:
    """hicann/runtime's error_code.json: EZ9903 is AclNN_Runtime_Error, message '%s', cause N/A: every aclnn
    runtime-class error is reported under it.  Its card names no single cause (it once said 'a kernel launch
    wrapper' whatever followed), is a scheme entry, and a runtime code the line carries answers first."""
    top = kb.lookup("EZ9903: [PID: 4242] aclnnFooBar failed with an unexpected state", top=1)[0]
    assert top.entry.id == "ascend-EZ9903", top.entry.id
    assert top.entry.generic
    assert "the message printed after it" in top.entry.cause and "none of these" in top.entry.cause
    wrapped = kb.lookup("EZ9903: [PID: 4242] rtKernelLaunchWithHandleV2 failed: 507015", top=2)
    assert wrapped[0].entry.id != "ascend-EZ9903", [m.entry.id for m in wrapped]
    assert "507015" in wrapped[0].entry.cause


def test_a_torch_npu_check_answers_before_its_err_code_and_keeps_it(kb: KnowledgeBase) -> None:
    """torch_npu prints the ERR line after its check's own text: the check's class entry answers first with
    the text read back and the code shown; the ERR code card comes after it."""
    text = "RuntimeError: zq_scale dtype must be FLOAT32, but got Half" + PTA + "ERR01002 OPS invalid type"
    ranked = kb.lookup(text, top=3)
    assert ranked[0].entry.id == "torch-npu-s24a-check-dtype"
    assert dict(ranked[0].captures) == {
        "detail": "zq_scale dtype must be FLOAT32, but got Half",
        "code": "01002",
    }
    assert "torch_npu:ERR01002" in ranked[0].codes
    assert "torch-npu-ERR01002" in [m.entry.id for m in ranked[1:]]


# ---- s26c: Ascend set-up and load failures read from the vendors' sources ----
#
# torch_npu's import-time checks (Ascend/pytorch torch_npu/__init__.py, _init/core/module_loader.py,
# _init/registry/registry_manager.py, _init/registry/backend.py, csrc/core/npu/NpuVariables.cpp), op-plugin's
# operator-library lookup (Ascend/op-plugin op_plugin/utils/op_api_common.cpp) and its npu:: operators, GE's
# model-load chip check and platform lookup (hicann/ge base/common/helper/om_file_helper.cc, model_helper.cc),
# GE's device allocator (runtime/v2/kernel/memory/device/device_allocator.cc) and npu-smi's DCMI start-up
# (the driver's npu_smi.c, dcmi_interface_api.h).  Names and values are made up.

S26C_CASES = [
    (
        "Exception: ASCEND_OPP_PATH : /opt/zq/cann/opp does not exist. Please check whether the opp "
        "package has been installed. If exist, please run 'source set_env.sh' in the CANN installation path.",
        "torch-npu-s26c-cann-env-path-missing",
        {"env": "OPP", "path": "/opt/zq/cann/opp"},
    ),
    (
        "Exception: ASCEND_OPP_PATH environment variable is not set. Please check whether the opp "
        "package has been installed.",
        "torch-npu-s26c-cann-env-unset",
        {"env": "OPP"},
    ),
    (
        "ImportError: libhccl.so: cannot open shared object file: No such file or directory. Please "
        "check that the compiler package is installed. Please run 'source set_env.sh' in the CANN "
        "installation path.",
        "torch-npu-s26c-cann-lib-not-loaded",
        {"lib": "hccl", "pkg": "compiler"},
    ),
    (
        "RuntimeError: Two accelerators cannot be used at the same time in PyTorch: npu and xpu. You can "
        "install the cpu version of PyTorch to use your npu device",
        "torch-npu-s26c-two-accelerators",
        {"value": "xpu"},
    ),
    (
        "Warning: CANN package version 6.0.RC1 and PyTorch version 1.11.0.post9 do not match.",
        "torch-npu-s26c-cann-pytorch-version-mismatch",
        {"value": "6.0.RC1", "version": "1.11.0.post9"},
    ),
    ("RuntimeError: Unsupported soc version: Ascend910 9999", "torch-npu-s26c-unsupported-soc", {}),
    (
        "RuntimeError: aclnnZqAttention or aclnnZqAttentionGetWorkspaceSize not in libopapi.so, or "
        "libopapi.sonot found." + PTA + "ERR01004 OPS invalid pointer",
        "torch-npu-s26c-opapi-symbol-missing",
        {"op": "aclnnZqAttention", "lib": "libopapi.so"},
    ),
    (
        "NotImplementedError: Could not run 'npu::npu_zq_rope' with arguments from the 'CPU' backend. This "
        "could be because the operator doesn't exist for this backend",
        "torch-npu-s26c-npu-op-on-cpu-tensor",
        {"op": "npu_zq_rope", "backend": "CPU"},
    ),
    ("AttributeError: module 'torch' has no attribute 'npu'", "torch-npu-s26c-torch-npu-not-imported", {}),
    (
        "[ERROR] GE(4321,zq):2026-11-30-10:00:00.000.000 [om_file_helper.cc:284]4321 "
        "CheckModelCompatibility: Model soc version[Ascend310B1] is not support in this device",
        "ascend-s26c-om-soc-mismatch",
        {"value": "Ascend310B1"},
    ),
    (
        "Unable to get platform info of soc_version: Ascend999Z.",
        "ascend-s26c-platform-info-soc",
        {"value": "Ascend999Z"},
    ),
    (
        "Call aclrtMalloc fail, purpose: page caching, type = 2, size:1234567890, device_id:3",
        "ascend-s26c-ge-device-malloc-failed",
        {"purpose": "page caching", "size": "1234567890", "device": "3"},
    ),
    (
        "Call rtMalloc fail, purpose:zq weights, size:4096, device_id:0",
        "ascend-s26c-ge-device-malloc-failed",
        {"purpose": "zq weights", "size": "4096", "device": "0"},
    ),
    (
        "dcmi model initialized failed, because the device is used. ret is -8020",
        "ascend-s26c-dcmi-device-in-use",
        {"value": "-8020"},
    ),
    ("dcmi module initialize failed. ret is -8008", "ascend-s26c-dcmi-init-failed", {"value": "-8008"}),
    ("npu get board type failed. ret is -9001", "ascend-s26c-npu-smi-board-type", {"value": "-9001"}),
    (
        "Failed to open device, retCode=0x7020010, deviceId=5."
        "[FUNC:InitRawDriver][FILE:raw_device.cc][LINE:1]",
        "ascend-s26c-runtime-open-device-failed",
        {"value": "0x7020010", "device": "5"},
    ),
]


@pytest.mark.parametrize(("message", "entry_id", "captures"), S26C_CASES)
def test_s26c_vendor_wording_has_its_own_entry(
    kb: KnowledgeBase, message: str, entry_id: str, captures: dict[str, str]
) -> None:
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == entry_id, top.entry.id
    found = dict(top.captures)
    for name, value in captures.items():
        assert found.get(name) == value, (name, found)
    filled = top.cause + " " + top.fix
    assert "{" not in filled, filled
    for value in captures.values():
        assert value in filled, (value, filled)


def test_s26c_load_time_chip_mismatch_answers_before_the_generic_e10001(kb: KnowledgeBase) -> None:
    """GE reports the .om's chip check as E10001 on soc_version: the load-time entry answers with the chip
    named; another option's E10001 keeps the option card first."""
    text = (
        "E10001: Value [Ascend310P1] for parameter [soc_version] is invalid. Reason: Model soc version "
        "is not support in this device."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "ascend-s26c-om-soc-mismatch"
    assert "Ascend310P1" in top.cause and "atc --soc_version" in top.fix
    other = kb.lookup("E10001: Value [ZQ] for parameter [--input_format] is invalid. Reason: zq", top=1)[0]
    assert other.entry.id == "ascend-E10001"


@pytest.mark.parametrize(
    ("message", "entry_id"),
    [
        # a chip name without Ascend's prefix is not torch_npu's check (other SDKs print "soc version" too)
        ("RuntimeError: Unsupported soc version: 69", "torch-npu-s26c-unsupported-soc"),
        # PyTorch's own operators on a backend without a kernel are not torch_npu's
        ("NotImplementedError: Could not run 'aten::zq' with arguments from the 'CUDA' backend.", None),
        # the host allocation of the dump tool is not GE's device allocator
        ("Call rtMallocHost failed, size: 4096, ret: 0x7", "ascend-s26c-ge-device-malloc-failed"),
    ],
)
def test_s26c_entries_stay_off_lookalikes(kb: KnowledgeBase, message: str, entry_id: str | None) -> None:
    """Nothing shown for these texts is the s26c entry (wording alone may rank it, under the floor)."""
    ids = [m.entry.id for m in kb.answer(message).matches]
    if entry_id is None:
        assert "torch-npu-s26c-npu-op-on-cpu-tensor" not in ids, ids
    else:
        assert entry_id not in ids, ids


@pytest.mark.parametrize(
    "message",
    [
        "dcmi module initialize failed. ret is -8005",
        "zq: symbol lookup in libopapi.so went wrong",
        "[W compiler_depend.ts:42] Warning: zq went wrong in CANN",
    ],
)
def test_s26c_markers_name_ascend(kb: KnowledgeBase, message: str) -> None:
    assert "ascend" in kb.named_families(message)


TOP3_VALUE_CASES = [
    (
        "RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 NPU function error: "
        "call aclnnFlashAttentionScore failed, error code is 561002",
        "ascend-s28e-torch-npu-error-location",
        {"call": "InnerRun", "line": "218", "api": "call aclnnFlashAttentionScore failed", "value": "561002"},
    ),
    (
        "RuntimeError: operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:47 NPU function error: "
        "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507018",
        "ascend-s28e-torch-npu-error-location",
        {"call": "operator()", "line": "47", "value": "507018"},
    ),
    (
        "RuntimeError: copy_:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:91 OPS function error: "
        "InplaceCopy, error code is 500002",
        "ascend-s28e-torch-npu-error-location",
        {"call": "copy_", "api": "InplaceCopy", "value": "500002"},
    ),
    (
        "E18888: Failed to Get InferFunc. Reason: ASCEND_OPP_PATH is not set or it's invalid; Or the infer "
        "func of RoiAlignRotated is not registered.",
        "ascend-s28e-ge-infer-func-not-registered",
        {"op_type": "RoiAlignRotated"},
    ),
    (
        "[ERROR] GE(77,atc.bin):2025-02-03-04:05:06.789.012 [shape_refiner.cc:825]77 InferShapeAndType: "
        "ErrorNo: 4294967295(failed) [Get][InferFunc] failed. type is GridSample3D",
        "ascend-s28e-ge-infer-func-not-registered",
        {"op_type": "GridSample3D"},
    ),
    (
        "[Call][InferFunction] failed, node:/head/Concat_2(ConcatD).",
        "ascend-s28e-ge-call-infer-function-failed",
        {"op": "/head/Concat_2", "op_type": "ConcatD"},
    ),
    (
        "EZ8888: Gather_41(GatherV2) call infer function failed.",
        "ascend-s28e-ge-call-infer-function-failed",
        {"op2": "Gather_41", "op_type2": "GatherV2"},
    ),
]

test_the_tools_own_text_gets_its_entry_with_the_values = in_top3_with_values(TOP3_VALUE_CASES)


FIRST_VALUE_CASES = [
    (
        "[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::unique2' is not currently "
        "supported on the NPU backend and will fall back to run on the CPU. This may have performance "
        "implications. (function npu_cpu_fallback)",
        "torch-npu-s30d-op-falls-back-to-cpu",
        {"op": "aten::unique2"},
    ),
    (
        "RuntimeError: The operator 'aten::unique2' would execute its main computation on CPU through "
        "dispatcher backend fallback because no kernel is registered for the NPU PrivateUse1 backend, "
        "but CPU fallback is disabled by TORCH_NPU_FALLBACK_CPU_DISABLE=1.",
        "torch-npu-s30d-cpu-fallback-disabled",
        {"op": "aten::unique2", "value": "dispatcher backend fallback"},
    ),
    (
        "ImportError: /opt/py/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol: "
        "_ZN3c1017RegisterOperatorsD1Ev",
        "torch-npu-s30d-undefined-symbol-torch-mismatch",
        {"value": "_ZN3c1017RegisterOperatorsD1Ev"},
    ),
    (
        "ImportError: /usr/local/Ascend/ascend-toolkit/latest/lib64/libhccl.so: undefined symbol: "
        "HcclCommInitRootInfoConfig",
        "ascend-s31d-cann-undefined-symbol",
        {"value": "HcclCommInitRootInfoConfig"},
    ),
    (
        "ImportError: /opt/py/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol: "
        "aclnnGroupedMatmulGetWorkspaceSize",
        "ascend-s31d-cann-undefined-symbol",
        {"value2": "aclnnGroupedMatmulGetWorkspaceSize"},
    ),
    (
        "[W ToKernelNpu.cpp:41] Warning: Device do not support double dtype now, dtype cast repalce with "
        "float. (function operator())",
        "torch-npu-s31d-double-cast-to-float",
        {},
    ),
    (
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:0 "
        "and cpu! (when checking argument for argument index in method wrapper_NPU__index_select)",
        "ascend-s31d-torch-npu-tensors-on-two-devices",
        {"device": "npu:0", "device2": "cpu", "arg": "index"},
    ),
    (
        "RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different "
        "from other tensors on npu:1 (when checking argument in method wrapper_NPU__native_layer_norm)",
        "ascend-s31d-torch-npu-tensors-on-two-devices",
        {"device3": "cpu", "device4": "npu:1"},
    ),
]

test_the_source_form_is_answered_with_its_values = in_top3_with_values(FIRST_VALUE_CASES)
test_the_entry_answers_first_with_its_values_quoted = first_with_values(FIRST_VALUE_CASES)


def test_the_torch_npu_location_ranks_under_the_code_it_carries(kb: KnowledgeBase) -> None:
    """The location line is context: the error code's own entry answers first."""
    message = (
        "RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 NPU function error: "
        "call aclnnConvolution failed, error code is 561103"
    )
    ids = [m.entry.id for m in kb.answer(message, top=3).matches]
    assert ids[0] != "ascend-s28e-torch-npu-error-location"
    assert "ascend-s28e-torch-npu-error-location" in ids


test_cmake_build_lines_are_not_torch_npu = not_among_answers(
    [
        # CMake's own build lines name CMakeFiles folders without a function prefix and line.
        ('See also "/home/u/proj/build/CMakeFiles/CMakeOutput.log".', "ascend-s28e-torch-npu-error-location"),
        (
            "make[2]: *** [CMakeFiles/app.dir/build.make:76: CMakeFiles/app.dir/main.cpp.o] Error 1",
            "ascend-s28e-torch-npu-error-location",
        ),
    ]
)


#: torch_npu prints the CANN code (EZ1001, whose card speaks of any rejected parameter) with the inner reason
#: after it: the reason's own entry answers, the code's card stays in the answer below it.
test_the_aclnn_inner_reason_leads_over_its_code_card = answers_first_above(
    [
        (
            "ERROR 06-01 10:00:00 worker.py:88] call aclnnMoeGatingTopK failed, detail:EZ1001: [PID: 31] "
            "2025-06-01-10:00:00.000.003 Get path and read binary_info_config.json failed, please check if "
            "the opp_kernel package is installed!\n"
            "[ERROR] 2025-06-01-10:00:00 (PID:31, Device:0, RankID:-1) ERR01100 OPS call acl api failed",
            "ascend-s29e-opp-kernel-binary-info",
            "ascend-EZ1001",
        )
    ]
)


def test_the_hccl_teardown_notice_ranks_under_the_collective_that_timed_out(kb: KnowledgeBase) -> None:
    """The tear-down line only follows from a failed collective: the watchdog line before it answers, the
    notice answers alone when nothing else was pasted."""
    notice = (
        "Some HCCL operations have failed or timed out. Due to the asynchronous nature of ASCEND kernels, "
        "subsequent NPU operations might run on corrupted/incomplete data."
    )
    watchdog = (
        "[Rank 2] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=9, OpType=ALLREDUCE, "
        "NumelIn=64, NumelOut=64, Timeout(ms)=600000) ran for 600031 milliseconds before timing out."
    )
    ids = [m.entry.id for m in kb.answer(watchdog + "\n" + notice, top=3).matches]
    assert ids[:2] == ["torch-npu-s20d-hccl-watchdog-timeout", "torch-npu-s29e-hccl-ops-failed-teardown"]
    alone = kb.answer(notice, top=3)
    assert alone.matches[0].entry.id == "torch-npu-s29e-hccl-ops-failed-teardown"


@pytest.mark.parametrize(
    ("head", "tail", "entry"),
    [
        (
            "there is an exception of aicore error",
            "retCode=0x26, [aicore exception]",
            "ascend-L0C-rw-conflict",
        ),
        (
            "there is an exception of aivec error",
            "retCode=0x31, [vector core exception]",
            "ascend-UB-out-of-bounds-VEC",
        ),
    ],
)
def test_the_errorstr_answers_before_the_task_code_card(
    kb: KnowledgeBase, head: str, tail: str, entry: str
) -> None:
    """The task-code cards (0x26 AI Core, 0x31 Vector core) say 'find the errorStr line'; with it in the
    paste, the errorStr's own entry answers and the cards stay in the answer."""
    reason = (
        "L0C read/write conflict" if "0x26" in tail else "The address for VEC to access UB is out of bounds"
    )
    message = (
        "[Error]: The aicore execution is abnormal.\n"
        f"EZ9999: The error from device(chipId:1, dieId:0), serial number is 3, {head}, core id is 5, "
        "error code = 0x800000, dump info: pc start: 0x1240000.\n"
        f"The extend info: errcode:(0x800000, 0x4, 0) errorStr: {reason}. fixp_error0 info: 0x1\n"
        f"Kernel task happen error, {tail}."
    )
    ids = answer_ids(kb, message)
    assert ids[0] == entry
    assert any(i.startswith(("ascend-507015-retCode-0x26", "ascend-507035-retCode-0x31")) for i in ids)


test_the_task_code_card_alone_still_answers = answers_first(
    [("Kernel task happen error, retCode=0x26, [aicore exception].", "ascend-507015-retCode-0x26")]
)


def test_a_warning_before_the_torch_npu_error_leaves_the_error_first(kb: KnowledgeBase) -> None:
    """The CPU fallback warning is context: the error the round trip raised answers first."""
    text = (
        "[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::linalg_lstsq.out' is not currently "
        "supported on the NPU backend and will fall back to run on the CPU. This may have performance "
        "implications. (function npu_cpu_fallback)\n"
        "RuntimeError: _copy_from_and_resize now only support copy with same size!\n"
        "[ERROR] 2025-01-01-10:00:00 (PID:1, Device:0, RankID:-1) ERR01007 OPS feature not supported"
    )
    assert kb.lookup(text, top=1)[0].entry.id != "torch-npu-s30d-op-falls-back-to-cpu"


def test_an_op_of_a_static_model_keeps_the_older_wording_entry(kb: KnowledgeBase) -> None:
    message = "E20001: Failed to compile Op [/head/Conv_12]. (optype: [Conv2D])"
    top = kb.answer(message, top=1).matches[0]
    assert top.entry.id == "ascend-E20001-older-wording"
    assert "/head/Conv_12" in top.cause
    assert "gear" not in top.cause


def test_a_cpp_symbol_missing_from_torch_npu_is_still_the_torch_mismatch(kb: KnowledgeBase) -> None:
    """A mangled C++ symbol is torch's (torch and torch_npu versions); an acl/aclnn/Hccl one is CANN's."""
    text = (
        "ImportError: /opt/py/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol: "
        "_ZNK3c1010TensorImpl15incref_pyobjectEv"
    )
    assert kb.lookup(text, top=1)[0].entry.id == "torch-npu-s30d-undefined-symbol-torch-mismatch"


MINDIE_UNSUPPORTED = (
    "[2026-05-14 18:06:16.762] [34] [281473586159104] [llm] [ERROR] [model_deploy_config.cpp:101] Failed to "
    "get vocab size from tokenizer wrapper with exception: NotImplementedError: unsupported model type: "
    "qwen3_vl_moe；请确认atb_llm.models路径下是否存在名为qwen3_vl_moe的文件夹。"
)


def test_mindie_s_unsupported_model_type_names_the_type_and_the_release_to_install(kb: KnowledgeBase) -> None:
    """MindIE-LLM's own sentence (dev gpustack#5317): the model type is captured and said in cause and fix."""
    found = kb.answer(MINDIE_UNSUPPORTED, top=3)
    top = found.matches[0]
    assert found.confident and top.entry.id == "ascend-mindie-unsupported-model-type"
    assert dict(top.captures) == {"value": "qwen3_vl_moe"}
    assert "no folder named qwen3_vl_moe" in top.cause and "qwen3_vl_moe folder" in top.fix


@pytest.mark.parametrize(
    "text",
    [
        "ValueError: Unsupported model type: resnet_optimized",
        "NotImplementedError: unsupported model type: llama4",
        "unsupported model type: foo; please check the models folder",
    ],
)
def test_another_tool_s_unsupported_model_type_is_not_mindie_s(kb: KnowledgeBase, text: str) -> None:
    """The phrase alone is every other program's too: only MindIE's sentence about atb_llm.models reads it
    (its words may still rank it low, never as an answer)."""
    ours = [m for m in kb.lookup(text, top=5) if m.entry.id == "ascend-mindie-unsupported-model-type"]
    assert all(m.reason == "words" and not m.captures for m in ours)
    found = kb.answer(text, top=3)
    assert not (found.confident and found.matches[0].entry.id == "ascend-mindie-unsupported-model-type")
