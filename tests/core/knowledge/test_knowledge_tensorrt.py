"""The knowledge tests of TensorRT (the builder, the ONNX parser, trtexec, TensorRT-LLM, Torch-TensorRT):
each case is a vendor's own wording with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From h23s2_sources (was test_knowledge_h23s2_sources.py):

* onnxruntime: providers/tensorrt/tensorrt_execution_provider.cc (``"TensorRT EP failed to create engine
  from network for fused node: "``, ``"TensorRT EP Failed to Build Engine."``, ``LOGS_DEFAULT(INFO) <<
  "[TensorRT EP] TensorRT subgraph MetaDef name "``, the fused nodes' ``"TRTKernel_" + graph_type + "_" +
  graph.Name() + "_" + id``);
  providers/nv_tensorrt_rtx (``"[NvTensorRTRTX EP] ..."``); DirectML.dll, which the DirectML EP loads;
* TensorRT's ONNX parser (onnx/onnx-tensorrt): onnx2trt_utils.cpp, ShapedWeights.cpp, importerUtils.cpp,
  onnxOpImporters.cpp, onnxOpCheckers.cpp lines, and the Myelin compiler's ``SSA validation FAIL``.

From qnn_setup (was test_knowledge_qnn_setup.py): described in test_knowledge_qualcomm.py's docstring.

From round10 (was test_knowledge_round10.py).

From round13 (was test_knowledge_round13.py):

* TensorRT's magic-tag check (the TensorRT 7 ``coreReadArchive.cpp (N) - Serialization Error in
  verifyHeader`` line and the later ``magicTag == kMAGIC_TAG`` assertions) says the file is no engine;

From round21_forms (was test_knowledge_round21_forms.py).

From round22_forms (was test_knowledge_round22_forms.py).

From round23_forms (was test_knowledge_round23_forms.py).

From s19f (was test_knowledge_round24_dev_s19f.py):

Issue 23, round 24's dev forms answered at their cause (s19f): TensorRT's lazily loaded libraries (and
glibc 2.41's executable-stack refusal).

From s20g (was test_knowledge_round25_dev_s20g.py):

Issue 23, round 25's dev forms answered at their cause (s20g): onnx-tensorrt's uncaught attribute lookup
and TensorRT 7's constant-only Range; the CoreML execution provider's zero-element input and
onnxruntime-gpu's TensorRT plugin registration.

From s18a (was test_knowledge_specific_s18a.py): described in test_knowledge_ascend.py's docstring.

From trt_ort_sources (was test_knowledge_trt_ort_sources.py):

Issue 23, TensorRT and onnxruntime from their own wording (branch h23x): one message per new entry,
written with names and values of our own from the wording of NVIDIA's "Understanding Error Messages" table,
the TensorRT lean runtime's strings and onnxruntime's sources (never an evaluation message).  Each must be
the top answer, carry the message's op/tensor/shape/value into its advice, and be judged specific by the
evaluation's judge; the envelope it used to be answered by stays below it.

From trt_parser_forms (was test_knowledge_trt_parser_forms.py):

Issue 23, TensorRT's ONNX parser (branch h23n2): its messages written from onnx-tensorrt's own format
strings (Status.hpp's ``ASSERT``/``ASSERT_NODE``, ModelImporter.cpp's ``While parsing node number`` and
``ERROR: file:line In function f:`` lines, TensorRT's pyOnnx.cpp ``In node N with name: X and operator: Y
(func): CODE: desc``) with names and values of our own (never an evaluation message).

An assertion under a file or graph ErrorCode (``MODEL_DESERIALIZE_FAILED``, ``INVALID_GRAPH``...) is no
requirement of a node: the importer's clauses stay silent there, and the failed deserialisation has its own
answer; a node's assertion names the node's number, name and importer.

From s19d (was test_knowledge_trt_rknn_ascend_s19d.py):

Branch s19d: TensorRT's, Rockchip's and Ascend's message classes no entry covered, from their own sources.

* TensorRT: trtexec's option and shape checks (NVIDIA/TensorRT samples/common/sampleOptions.cpp,
  sampleEngines.cpp, sampleInference.cpp, samples/trtexec/trtexec.cpp), Polygraphy's runner and surgeon
  checks (tools/Polygraphy), DeepStream's Gst-nvinfer (sources/libs/nvdsinfer, gst-nvinfer), Torch-TensorRT's
  missing converters (core/conversion/conversion.cpp, dynamo _TRTInterpreter.py), and two
  builder reasons read out of an ``Error Code N`` card (a dynamic input without profile dimensions, a
  concatenation whose inputs disagree);

From s20e (was test_knowledge_trt_trtllm_torch_onnx_s20e.py):

Branch s20e: TensorRT's ONNX parser, TensorRT-LLM and the dynamo-based torch.onnx exporter, the forms no
entry covered, from their own sources.

* TensorRT's ONNX parser (onnx/onnx-tensorrt 10.1: ModelImporter.cpp parseNode / parse / parseFromFile,
  onnxOpImporters.cpp Dropout and EyeLike importers);
* Polygraphy's engine loader and TensorRT runner (NVIDIA/TensorRT tools/Polygraphy: backend/trt/loader.py,
  runner.py);
* TensorRT-LLM (NVIDIA/TensorRT-LLM: cpp/tensorrt_llm/runtime/worldConfig.cpp, docs/source/reference/
  memory.md) and its Python package and CLIs as markers of the tensorrt family;

From h23 (was test_knowledge_vendor_forms_h23.py):

Issue 23: message forms that had no entry of their tool, each from the vendor's own wording (OpenVINO's GPU
plugin force exit, TensorRT's CASK runner failure, coremltools' numpy type mapping, the older ONNX parser's
unsupported node, MNN's missing module outputs, onnx's duplicate metadata keys, TFLite's arena size check),
and entries that now name what they captured (onnx2ncnn's unsupported attribute, TensorRT's
no-supported-formats assertion; its internal-assertion entry also without the source location); names and
values are our own, none is a message of the evaluation set.

From s21e (was test_knowledge_trt_api_conditions.py):

TensorRT's API checks answered by the condition they print, not by the Error Code 3 card alone (those
clauses are in test_knowledge_clause_forms.py).  The entries here: NVIDIA/TensorRT samples/common/common.h
(loadLibrary), Polygraphy's comparator (tools/Polygraphy/polygraphy/comparator/compare.py), DeepStream's
nvdsinfer preparePreprocess, libnvinfer's internal assertions (cuBLAS heuristic, plugin enqueue) and
NVIDIA's answers in NVIDIA/TensorRT#2098 and #1866 (the Jetson device table).  Names and values are our
own.
From s22g: Torch-TensorRT's TorchScript operator-support check (pytorch/TensorRT
core/conversion/conversion.cpp).
From s23g: samples/common/sampleOptions.cpp (trtexec's option values), onnx/onnx-tensorrt#759,
open-mmlab/mmdeploy#1958, pytorch/TensorRT#1995,
TensorRT-LLM's llmRequest.h.
From s24g: libnvinfer's Myelin, cuBLASLt and cuDLA texts (Error Code 1), TensorRT 5-7's engine/CUDA texts,
demo/Diffusion's engine build, mmdeploy/backend/tensorrt/utils.py.
From s25g: include/NvInfer.h (hardware/version compatibility), 19.12's NvInferRuntime.h (IPluginFactory).

From s29d (was test_knowledge_ort_trt_s29d.py):

onnxruntime and TensorRT (branch s29d): the pieces of s28d's backed-out change, redone one at a time.

* TensorRT's ``1: Cuda Runtime (<CUDA text>)`` line answers before the CUDA runtime's text it quotes, also
  when the marker words around it (``Error Code``, ``[TRT]``, ``.cpp::``) are missing; the CUDA entry stays
  in the answer under it (:func:`.kb.framed_runtime_under`).
* onnxruntime's CudaCall exception (``cuda_call.cc:N ... CudaCall(...)``) has its own entry; a ROCm text
  (``rocm_call.cc``, ``RocmCall``, ``HIP failure``) is not answered by it, and cuDNN/cuBLAS failures and
  CUDA's out of memory keep the entries and clause written for them.
* The Myelin version, tensor name, target SM and skipped-tactic texts that s28d duplicated stay with the
  reason clauses that already answer them.

The messages are written for these tests from the tools' format strings (TensorRT's logger and
NvInferRuntime.h, onnxruntime's cuda_call.cc / rocm_call.cc) with made-up names and values; none is copied
from the evaluation set.

From s29g (was test_knowledge_s29g_specific.py):

Branch s29g: answers that a hand judge of dev draws found not specific to their message, fixed in the
entries: a summary or consequence line that outranked the line stating the cause (a model-zoo demo's
``init_<model>_model fail!``, QNN's ``Failed to finalize graph``), task-code cards over the AI Core errorStr
that says why (``retCode=0x26``/``0x31`` and torch_npu's text for 507015), checklists where the message's
own words pick the case (OpenVINO's read_model with the frontend listed, TensorRT's ``unspecified launch
failure``, the legacy Model Optimizer's missing infer function), and lines no entry answered (HTP TCM
overflow and ``could not create op``, a null engine blob, the CoreML EP's NeuralNetwork prediction failure,
the newer plugin-enqueue assertion).  Every message is written from the vendor's format string with names
and values of our own (never an evaluation message).

Vendor texts: airockchip/rknn_model_zoo examples/*/cpp/main.cc (``init_%s_model fail! ret=%d
model_path=%s``); Qualcomm QNN HTP backend log lines (``A single op, "<op>" (Op ID: <id>), requires <n>
bytes of TCM, which is greater than the TCM size of <m>!``, ``"<Op>" generated: could not create op``);
hicann/runtime device_error_core_proc.cc (``The extend info: errcode:(...) errorStr: ...``);
openvinotoolkit/openvino src/inference/src/model_reader.cpp (read_model) and tools/mo/.../infer.py
(partial_infer); NVIDIA TensorRT runtime parameter checks and ``Error Code 1: Cuda Runtime (...)``;
microsoft/onnxruntime providers/coreml/model/model.mm (``Error executing model: `` + Core ML's error).

From s31d (was test_knowledge_s31d_sources.py):

onnxruntime, TensorRT, Qualcomm and Ascend (branch s31d): entries read from the tools' own sources.

* onnxruntime: the external-data path check that refuses a data file outside the model's folder (strings of
  the 1.32.0 wheel; the Hugging Face cache's links are its common case) and an execution provider's
  partition summary (coreml_execution_provider.cc), a context line;
* Torch-TensorRT (pytorch/TensorRT): the TorchScript partitioner's int64/float64 check and its truncation
  warning, the device-list warning at import, modelopt's optional converters and the missing-modelopt error,
  the engine build that returned None, the non-tensor output check, the engine's compatible-device check;
* TensorRT: the TensorRT 10 Python API removals with any module prefix, trtexec's closing FAILED line,
  TensorRT-LLM's bare world-size assertion, its prompt + new tokens > max_seq_len check and the weight shape
  check of its Python builder;
* Qualcomm: ExecuTorch's QNN delegate's step lines ('Fail to configure Qnn context' ...), the SNPE/QNN
  converters' IR graph ('Graph has no buffer ...'), the SDK's Python modules missing (envsetup not sourced,
  another Python version; markers for Python's sentence on 'qti' and libPyIrGraph);
* torch_npu and CANN: a CANN function missing at load time (a library, or libtorch_npu.so asking for an
  acl/aclnn/Hccl symbol: CANN older than torch_npu's; s30d's torch-mismatch entry keeps C++ symbols), the
  float64-to-float32 warning; an operator's tensors on the NPU and the CPU, and PyTorch's same check on
  other devices (a runtime entry, so that its sentence is any tool's text and no partial match of
  torch_npu's).

The messages are written for these tests from the tools' format strings with made-up names and values; none
is copied from the evaluation set.

Also from ort_trt_s28d_sources, s30d_sources and s30f_specific (test_knowledge_onnxruntime.py): their notes
stand in the docstrings named.
"""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.eval_explain import blank_markers, specific
from dumpscope.core.knowledge import KnowledgeBase, scan_log
from dumpscope.core.knowledge.answer import confidence_of
from dumpscope.core.knowledge.family import detect_families
from dumpscope.core.knowledge.kb import framed_runtime_under, named_families
from tests.support.advice import (
    Case,
    answered_by_entry,
    answered_first_with_values,
    answered_with_captures,
    assert_advice,
    assert_answered,
    entry_by_id,
    first_with_values,
    in_top3_with_values,
    keeps_its_entry,
    looked_up_with_captures,
    pattern_ids,
)

CASES = [
    # ---- round22_forms (test_knowledge_round22_forms.py) ----
    (
        "[01/02/2024-10:00:00] [TRT] [E] 3: getPluginCreator could not find plugin: MyRoiAlign_TRT "
        "version: 2",
        "tensorrt-plugin-registry-creator-not-found",
        ("MyRoiAlign_TRT", "version 2", "init_libnvinfer_plugins"),
    ),
    (
        "terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'\n"
        "  what():  [TensorRT-LLM][ERROR] CUDA runtime error in cudaGetDeviceCount(&count): "
        "initialization error (/build/cpp/tensorrt_llm/common/cudaUtils.h:123)",
        "tensorrt-trtllm-cuda-runtime-error",
        ("cudaGetDeviceCount", "'initialization error'", "cudaUtils.h:123", "nvidia-smi"),
    ),
    # ---- round23_forms (test_knowledge_round23_forms.py) ----
    (
        "RuntimeError: [Error thrown at core/util/trt_util.cpp:212] axis >= 0 && axis < d.nbDims "
        "ASSERT FAILED at core/util/trt_util.cpp:212, consider filing a bug: https://www.github.com/NVIDIA/Torch-TensorRT/issues\n"
        "    ERROR: Index to squeeze is out of bounds.",
        "tensorrt-torch-tensorrt-assert-failed",
        ("axis >= 0 && axis < d.nbDims", "core/util/trt_util.cpp:212", "torch_executed_ops"),
    ),
    # ---- s20e (test_knowledge_trt_trtllm_torch_onnx_s20e.py) ----
    # --- TensorRT's ONNX parser ---
    (
        "[E] [TRT] ModelImporter.cpp:954: ERROR: ModelImporter.cpp:253 In function parseNode:\n"
        "[6] Invalid Node - /zz/Cast_3\n"
        "Assertion failed: legalUINT8: TensorRT does not support UINT8 types for intermediate tensors!",
        "tensorrt-s20e-parser-uint8-intermediate",
        ("network input or output", "x.float()"),
    ),
    (
        "[8] Assertion failed: !trainingMode[0]: TensorRT does not support the Dropout operator in training "
        "mode.",
        "tensorrt-s20e-parser-dropout-training-mode",
        ("model.eval()", "training_mode"),
    ),
    (
        "In node 4 (importDropout): UNSUPPORTED_NODE: Assertion failed: inputs.at(2).is_weights(): "
        "This Version of TensorRT only supports the training_mode input as an initializer.",
        "tensorrt-s20e-parser-dropout-training-mode",
        ("--fold-constants", "TrainingMode.EVAL"),
    ),
    (
        "[8] Assertion failed: !isDynamic(dims): Eyelike does not work for dynamically shaped tensors.",
        "tensorrt-s20e-parser-eyelike-dynamic",
        ("EyeLike", "--override-input-shapes"),
    ),
    (
        'ERROR: ModelImporter.cpp:120 In function parseNode:\n[7] Assertion failed: false && "ONNX graph '
        'contains nested structures that exceed the maximum allowed by TensorRT!"',
        "tensorrt-s20e-parser-nested-subgraph-depth",
        ("24 levels", "inline_local_functions"),
    ),
    (
        "[E] [TRT] ModelImporter.cpp:902: Input is not a regular file: /zz/exported_dir",
        "tensorrt-s20e-parser-not-regular-file",
        ("/zz/exported_dir is a directory", "--onnx=/zz/exported_dir/model.onnx"),
    ),
    (
        "[E] [TRT] ModelImporter.cpp:704: Parse was called with a non-empty network definition",
        "tensorrt-s20e-parser-non-empty-network",
        ("new network and a new parser", "create_network"),
    ),
    # --- Polygraphy (NVIDIA/TensorRT tools/Polygraphy/polygraphy/backend/trt: loader.py, runner.py) ---
    (
        # its line alone: under TensorRT's own error it is a consequence that error's entry answers (s26g)
        "[!] Could not deserialize engine. See log for details.",
        "tensorrt-s20e-polygraphy-engine-deserialize-failed",
        ("deserialize_cuda_engine returned None", "--version-compatible", "--plugins"),
    ),
    (
        "[!] Invalid Context. See error log for details.",
        "tensorrt-s20e-polygraphy-invalid-context",
        ("create_execution_context", "--allocation-strategy profile"),
    ),
    (
        "[!] `execute_async_v3()` failed. Please see the logging output above for details.",
        "tensorrt-s20e-polygraphy-execute-failed",
        ("execute_async_v3", "CUDA_LAUNCH_BLOCKING=1"),
    ),
    # --- TensorRT-LLM ---
    (
        "[TensorRT-LLM][ERROR] Assertion failed: Can't allocate new blocks. No free blocks left. "
        "(/zz/cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp:77)",
        "tensorrt-s20e-trtllm-kv-cache-no-free-blocks",
        ("kv_cache_free_gpu_mem_fraction", "in-flight batching"),
    ),
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: MPI size 1 != TP size 4 * PP size 2 "
        "(/zz/cpp/tensorrt_llm/runtime/worldConfig.cpp:98)",
        "tensorrt-s20e-trtllm-mpi-size-tp-pp",
        ("tensor parallelism 4", "pipeline parallelism 2", "with 1 MPI process", "mpirun -n"),
    ),
    (
        "[TensorRT-LLM][ERROR] Assertion failed: MPI size 2 != TP size 1 * PP size 1 * CP Size 1 "
        "(/zz/worldConfig.cpp:90)",
        "tensorrt-s20e-trtllm-mpi-size-tp-pp",
        ("with 2 MPI process",),
    ),
    (
        "[TensorRT-LLM][ERROR] Assertion failed: Detect 3 GPUs, the GPU number is incompatible with 8 "
        "gpusPerNode when MPI size is 4 (/zz/cpp/tensorrt_llm/runtime/worldConfig.cpp:104)",
        "tensorrt-s20e-trtllm-gpus-per-node",
        ("sees 3 GPU", "4 MPI ranks", "8 GPUs per node", "CUDA_VISIBLE_DEVICES"),
    ),
    (
        '  File "/zz/site-packages/tensorrt_llm/commands/build.py", line 437, in build_model\n'
        "    assert architecture in MODEL_MAP, \\\n"
        "AssertionError: Unsupported model architecture: ZzForCausalLM",
        "tensorrt-s20e-trtllm-unsupported-architecture",
        ("architecture ZzForCausalLM", "convert_checkpoint.py"),
    ),
    # ---- s21e (test_knowledge_trt_api_conditions.py) ----
    # the strings of libnvinfer: ltWrapper.cpp's cuBLAS heuristic assertion
    (
        # a specific internal assertion ranks above the generic 'Assertion ... failed' entry of Error Code 2
        "[TRT] [E] 2: [ltWrapper.cpp::setupHeuristic::327] Error Code 2: Internal Error (Assertion "
        "cublasStatus == CUBLAS_STATUS_SUCCESS failed. )",
        "tensorrt-cublas-status-assert",
        ("--tacticSources=-CUBLAS,-CUBLAS_LT",),
    ),
    # the strings of libnvinfer: pluginV2Runner.cpp's enqueue assertion
    (
        "[TRT] [E] 2: [pluginV2Runner.cpp::execute::265] Error Code 2: Internal Error (Assertion status == "
        "kSTATUS_SUCCESS failed. )",
        "tensorrt-plugin-enqueue-failed",
        ("enqueue()", "compute-sanitizer"),
    ),
    # NVIDIA/TensorRT#2098 and #1866 (the Jetson device table)
    (
        "[E] [TRT] 2: [utils.cpp::checkMemLimit::380] Error Code 2: Internal Error (Assertion upperBound "
        "!= 0 failed. Unknown embedded device detected. Please update the table with the entry: "
        "{{2222, 4, 8}, 7777},)",
        "tensorrt-s21e-unknown-embedded-device",
        ("{{2222, 4, 8}, 7777}", "JetPack"),
    ),
    # NVIDIA/TensorRT samples/common/common.h (loadLibrary)
    (
        "[E] Could not load plugin library: /srv/p/libmy_roi.so, due to: /srv/p/libmy_roi.so: undefined "
        "symbol: _ZN8nvinfer115getPluginRegistryEv",
        "tensorrt-s21e-load-plugin-library",
        (
            "/srv/p/libmy_roi.so",
            "undefined symbol: _ZN8nvinfer115getPluginRegistryEv",
            "ldd /srv/p/libmy_roi.so",
        ),
    ),
    # DeepStream's nvdsinfer preparePreprocess
    (
        "0:00:01.2 ERROR nvinfer gstnvinfer.cpp:640:gst_nvinfer_logger:<sgie-face> NvDsInferContext[UID 3]: "
        "Error in NvDsInferContextImpl::preparePreprocess() <nvdsinfer_context_impl.cpp:874> [UID = 3]: GRAY "
        "input format specified but network input channels is not 1.",
        "tensorrt-s21e-deepstream-input-channels",
        ("GRAY", "1 channel(s)", "--inputs-as-nchw"),
    ),
    # tools/Polygraphy/polygraphy/comparator/compare.py
    (
        "[E]         FAILED | Output: 'seg_mask' | Difference exceeds tolerance (rel=0.001, abs=0.002)",
        "tensorrt-s21e-polygraphy-output-mismatch",
        ("seg_mask", "rel=0.001", "abs=0.002", "--trt-outputs mark all"),
    ),
    (
        "[E] Accuracy Summary | trt-runner-N0-05/05/25-10:00:00 vs. onnxrt-runner-N0-05/05/25-10:00:00 | "
        "Passed: 0/2 iterations | Pass Rate: 0.0%",
        "tensorrt-s21e-polygraphy-output-mismatch",
        ("trt-runner-N0-05/05/25-10:00:00", "onnxrt-runner-N0-05/05/25-10:00:00"),
    ),
    # ---- s22g: pytorch/TensorRT core/conversion/conversion.cpp (VerifyConverterSupportForBlock) ----
    (
        "ERROR: [Torch-TensorRT] - Method requested cannot be compiled end to end by "
        "Torch-TensorRT.TorchScript.\n"
        "Unsupported operators listed below:\n  - aten::zz_gather(Tensor self, int dim) -> Tensor",
        "tensorrt-s22g-torchtrt-ts-unsupported-ops",
        ("aten::zz_gather", "require_full_compilation=False", "torch_executed_ops"),
    ),
    # ---- the lead, s22: TensorRT 7/8's builder assertions (its logger's forms: the condition, then the
    # source file and line; '<file>.cpp (<line>) - Assertion Error in <function>: 0 (<condition>)') ----
    (
        "[01/02/2024-10:11:12] [F] [TRT] Assertion failed: zz.size() > 0\n"
        "../builder/zzPlanner.cpp:44\nAborting...",
        "tensorrt-s22-builder-assertion-at-source",
        ("zz.size() > 0", "../builder/zzPlanner.cpp:44", "not a check of the ONNX parser"),
    ),
    (
        "[E] [TRT] ../builder/zzGraph.cpp (55) - Assertion Error in addZz: 0 (zz.ok())",
        "tensorrt-s22-assertion-error-in-function",
        ("zz.ok()", "addZz", "../builder/zzGraph.cpp (55)"),
    ),
    # ---- s23g: TensorRT 10's Myelin autotuning allocation (onnx/onnx-tensorrt#759's form), a layer's inputs
    # of two types (open-mmlab/mmdeploy#1958, pytorch/TensorRT#1995), trtexec's option values
    # (samples/common/sampleOptions.cpp) ----
    (
        "[E] [TRT] 1: [zzBuilder.cpp::operator()::12] Error Code 1: Myelin ([zz_graph.cpp:create:34] "
        "autotuning: User allocator error allocating 4242-byte buffer)",
        "tensorrt-s23g-myelin-autotuning-allocation",
        ("4242 bytes", "--memPoolSize=workspace"),
    ),
    (
        "[W] [TRT] Skipping tactic 0 due to Myelin error: autotuning: CUDA error 3 allocating 0-byte "
        "buffer: ",
        "tensorrt-s23g-myelin-autotuning-allocation",
        ("CUDA error 3", "cudaErrorInitializationError", "support matrix"),
    ),
    (
        "ITensor::getDimensions: Error Code 4: API Usage Error (zz/Concat_7: concat input tensors 0 and 2 "
        "have incompatible types Int64 and Int32)",
        "tensorrt-s23g-layer-input-types-incompatible",
        ("zz/Concat_7", "Int64", "Int32", "Cast"),
    ),
    (
        "[TRT] [E] 4: [elementWiseLayer.cpp::validate::36] Error Code 4: Internal Error (zz_add_3: operation "
        "SUM has incompatible input types Int32 and Float)",
        "tensorrt-s23g-layer-input-types-incompatible",
        ("zz_add_3", "Int32", "Float", "add_cast"),
    ),
    (
        "[11/30/2026-10:00:00] [E] Unknown tactic source: CUBLAS_LT",
        "tensorrt-s23g-trtexec-option-value-unknown",
        ("CUBLAS_LT", "tactic source", "EDGE_MASK_CONVOLUTIONS"),
    ),
    (
        "[E] Unknown useRuntime: zzlean",
        "tensorrt-s23g-trtexec-option-value-unknown",
        ("zzlean", "useRuntime", "--useRuntime=full|dispatch|lean"),
    ),
    # TensorRT-LLM cpp/include/tensorrt_llm/batch_manager/llmRequest.h (LlmRequest::validate)
    (
        "[TensorRT-LLM][ERROR] Assertion failed: Prompt length (3333) exceeds maximum input length (1024). "
        "Set log level to info and check TRTGptModel logs for how maximum input length is set "
        "(/zz/cpp/include/tensorrt_llm/batch_manager/llmRequest.h:12)",
        "tensorrt-s23g-trtllm-prompt-exceeds-max-input-len",
        ("3333", "1024", "--max_input_len 3333"),
    ),
    # ---- s24g: libnvinfer's Myelin/cuBLAS/DLA texts under Error Code 1, TensorRT 5-7 builder/engine texts,
    # demo/Diffusion's polygraphy build, mmdeploy/backend/tensorrt/utils.py ----
    (
        "[TRT] [E] 1: [runner.cpp::executeMyelinGraph::700] Error Code 1: Myelin "
        "([cask.cpp:exec:1001] Platform (Cuda) error)",
        "tensorrt-s24g-myelin-cask-platform-error",
        ("cask.cpp:exec:1001", "Cuda", "compute-sanitizer"),
    ),
    (
        "[E] Error[1]: [runner.cpp::execute::801] Error Code 1: Myelin (Final synchronize failed (719))",
        "tensorrt-s24g-myelin-final-synchronize-failed",
        ("error 719", "CUDA error 719"),
    ),
    (
        "[TRT] [E] 1: [codeGenerator.cpp::compileGraph::1002] Error Code 1: Myelin (No Myelin Error exists)",
        "tensorrt-s24g-myelin-no-error-exists",
        ("ForeignNode", "--builderOptimizationLevel"),
    ),
    (
        "SSA validation FAIL: tensor mul_3_out'.1__t's uses list size does not match the actual use in the "
        "program:3 vs. 2",
        "tensorrt-s24g-myelin-ssa-validation-fail",
        ("mul_3_out'.1__t", "uses list size does not match the actual use in the program:3 vs. 2"),
    ),
    (
        "[TRT] [E] 1: [ltWrapper.cpp::CublasLtWrapper::70] Error Code 1: Cublas (Could not initialize "
        "cublasLt. Please check CUDA installation.)",
        "tensorrt-s24g-cublaslt-init-failed",
        ("cublasLtCreate", "--tacticSources=-CUBLAS,-CUBLAS_LT"),
    ),
    (
        "[E] Error[1]: [cudlaUtils.cpp::submit::101] Error Code 1: DLA (Failed to submit program to DLA "
        "engine.)",
        "tensorrt-s24g-dla-submit-failed",
        ("--useDLACore", "cuDLA"),
    ),
    (
        "[TensorRT] ERROR: (Unnamed Layer* 31) [ElementWise]: elementwise inputs must not be Int32",
        "tensorrt-s24g-elementwise-int32-inputs",
        ("(Unnamed Layer* 31)", "TensorRT 8"),
    ),
    (
        "zz_app: engine.cpp:1200: bool nvinfer1::rt::Engine::deserialize(const void*, std::size_t, "
        'nvinfer1::IGpuAllocator&, nvinfer1::IPluginFactory*): Assertion `size >= bsize && "Mismatch between '
        "allocated memory size and expected size of serialized engine.\"' failed.",
        "tensorrt-s24g-engine-size-mismatch",
        ("std::ios::binary", "deserializeCudaEngine"),
    ),
    (
        "RuntimeError: Failed to build TensorRT engine. Error details:\nCommand: polygraphy convert "
        "zz_onnx/vae.opt/model.onnx --convert-to trt --output zz_engine/vae.plan",
        "tensorrt-s24g-demo-engine-build-command-failed",
        ("polygraphy convert zz_onnx/vae.opt/model.onnx", "[E] lines"),
    ),
    (
        "[TRT] zz_engine.cpp (600) - Cuda Error in zzEnqueue: 11 (invalid argument)",
        "tensorrt-s24g-legacy-cuda-error-in-function",
        ("zzEnqueue", "zz_engine.cpp, line 600", "error 11"),
    ),
    (
        "ERROR: Calibration failure occured with no scaling factors detected. This could be due to no int8 "
        "calibrator or insufficient custom scales for network layers.",
        "tensorrt-int8-calibration-no-scales",
        ("setDynamicRange", "IInt8EntropyCalibrator2"),
    ),
    (
        '  File "/zz/mmdeploy/backend/tensorrt/utils.py", line 9, in from_onnx\n'
        "    assert engine is not None, 'Failed to create TensorRT engine'\n"
        "AssertionError: Failed to create TensorRT engine",
        "tensorrt-s24g-mmdeploy-engine-is-none",
        ("[TRT] error lines", "max_workspace_size"),
    ),
    # ---- s25g: engine version/platform mismatches and weight counts: include/NvInfer.h
    # (HardwareCompatibilityLevel, kVERSION_COMPATIBLE), TensorRT 6/7's include/NvInferRuntime.h
    # (deserializeCudaEngine with an IPluginFactory), the runtime's serialization checks as printed ----
    (
        "[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::34] Error Code 1: Serialization "
        "(Serialization assertion stdVersionRead == kSERIALIZATION_VERSION failed.)",
        "tensorrt-engine-version-tag-mismatch",
        ("stdVersionRead == kSERIALIZATION_VERSION", "--versionCompatible", "--hardwareCompatibilityLevel"),
    ),
    (
        "[E] [TRT] IRuntime::deserializeCudaEngine: Error Code 1: Serialization (Serialization assertion "
        "safeVersionRead == kSAFE_SERIALIZATION_VERSION failed.Version tag does not match. Note: Current "
        "Version: 77, Serialized Engine Version: 66)",
        "tensorrt-engine-version-tag-mismatch",
        ("tag to be 66", "runtime's is 77", "trtexec --onnx=model.onnx"),
    ),
    (
        "[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::58] Error Code 1: Serialization "
        "(Serialization assertion sizeRead == static_cast<uint64_t>(mEnd - mCurrent) failed.Size specified "
        "in header does not match archive size)",
        "tensorrt-s24g-engine-size-mismatch",
        ("header records", "binary mode"),
    ),
    (
        "[TensorRT] ERROR: zzUtils.cpp (123) - Serialization Error in load: 0 (Serialized engine contains "
        "plugin, but no plugin factory was provided. To deserialize an engine without a factory, please use "
        "IPluginV2 instead.)\n[TensorRT] ERROR: INVALID_CONFIG: Deserialize the cuda engine failed.",
        "tensorrt-s25g-plugin-factory-missing",
        ("deserializeCudaEngine(data, size, &pluginFactory)", "REGISTER_TENSORRT_PLUGIN"),
    ),
    (
        "[11/30/2026-09:00:00] [TRT] [W] Using an engine plan file across different models of devices is not "
        "recommended and is likely to affect performance or even cause errors.",
        "tensorrt-s25g-engine-from-another-gpu-model",
        ("another GPU model", "--hardwareCompatibilityLevel=ampere+"),
    ),
    (
        "zz_up (Output: zz_up.tmp_0): kernel weights has count 48 but 768 was expected",
        "tensorrt-s25g-kernel-weights-count-expected",
        ("Layer zz_up (Output: zz_up.tmp_0) was given 48 kernel weights", "needs 768", "groups"),
    ),
    (
        "[E] [TRT] (Unnamed Layer* 7) [Convolution]:bias weights has count 3 but 85 was expected",
        "tensorrt-s25g-kernel-weights-count-expected",
        ("(Unnamed Layer* 7) [Convolution] was given 3 bias weights", "needs 85"),
    ),
    (
        "[01/02/2024-10:11:12] [E] [TRT] Parameter check failed at: runtime.cpp::deserializeCudaEngine::30, "
        "condition: (blob) != nullptr",
        "tensorrt-s29g-deserialize-null-blob",
        ("deserializeCudaEngine",),
    ),
    (
        "[TRT] [E] 1: [resizingAllocator.cpp::deallocate::105] Error Code 1: Cuda Runtime (unspecified "
        "launch failure)",
        "tensorrt-s29g-cuda-unspecified-launch-failure",
        ("resizingAllocator.cpp::deallocate::105", "cudaErrorLaunchFailure"),
    ),
    (
        "[E] Error[2]: [pluginV2DynamicExtRunner.cpp::execute::115] Error Code 2: Internal Error (Assertion "
        "pluginUtils::isSuccess(status) failed. )",
        "tensorrt-plugin-enqueue-failed",
        ("enqueue",),
    ),
    (
        "[TRT]    detected model format - custom  (extension '.pth')\n"
        "[TRT]    model format 'custom' not supported by jetson-inference\n"
        "[TRT]    imageNet -- failed to initialize.",
        "tensorrt-s29g-jetson-inference-custom-format",
        ("'.pth'", "onnx_export.py"),
    ),
    (
        "[TensorRT] ERROR: UFFParser: Parser error: image_in: Invalid number of Dimensions 4",
        "tensorrt-s29g-uff-invalid-number-of-dimensions",
        ("image_in", "register_input"),
    ),
    (
        "[TRT] ERROR: INVALID_ARGUMENT: getPluginCreator could not find plugin DecodeBoxes_TRT version 2\n"
        "[TRT] ERROR: safeDeserializationUtils.cpp (322) - Serialization Error in load: 0 "
        "(Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin Registry)\n"
        "[TRT] ERROR: INVALID_CONFIG: Deserialize the cuda engine failed.",
        "tensorrt-s30f-deserialize-plugin-not-registered",
        ("DecodeBoxes_TRT", "initLibNvInferPlugins"),
    ),
]

test_the_vendor_form_is_answered_by_its_entry = answered_by_entry(CASES)


CONFIDENT_CASES = [
    # ---- s19d (test_knowledge_trt_rknn_ascend_s19d.py) ----
    # --- trtexec ---
    (
        "[11/29/2026-10:00:00] [E] Static model does not take explicit shapes since the shape of inference "
        "tensors will be determined by the model itself",
        "tensorrt-s19d-trtexec-static-model-shapes",
        ("--minShapes", "dynamic_axes"),
    ),
    (
        "[E] The engine was built with static shapes for input tensor zz_pixels but the provided shapes do "
        "not match the static shapes!",
        "tensorrt-s19d-trtexec-static-engine-shape-mismatch",
        ("zz_pixels", "--shapes=zz_pixels:"),
    ),
    (
        '[E] Cannot find input tensor with name "zz_in" in the engine bindings! Please make sure the input '
        "tensor names are correct.",
        "tensorrt-s19d-trtexec-input-name-not-found",
        ('"zz_in"', "engine bindings", "polygraphy inspect model"),
    ),
    (
        "[E] Invalid tensor names found in --loadInputs flag.",
        "tensorrt-s19d-trtexec-shapes-invalid-names",
        ("--loadInputs",),
    ),
    ("[E] Set optimization profile failed. ", "tensorrt-s19d-trtexec-set-profile-failed", ("--useProfile",)),
    (
        "[E] Unable to create execution context. ",
        "tensorrt-s19d-trtexec-context-creation-failed",
        ("--allocationStrategy", "--maxShapes"),
    ),
    (
        "[E] Unknown option: --zzWorkspace 4096",
        "tensorrt-s19d-trtexec-unknown-option",
        ("--zzWorkspace", "--memPoolSize=workspace"),
    ),
    (
        "[E] stoi conversion failure: failed to parse minShapes/optShapes/maxShapes. Please double check "
        "your "
        "input string.",
        "tensorrt-s19d-trtexec-shape-spec-parse",
        ("minShapes/optShapes/maxShapes", "1x3x640x640"),
    ),
    (
        "[E] Multiple --minShapes/--optShapes/--maxShapes without --profile are not allowed. ",
        "tensorrt-s19d-trtexec-multiple-shapes-without-profile",
        ("--profile=0",),
    ),
    (
        "[E] Unknown memory pool: zzPool",
        "tensorrt-s19d-trtexec-unknown-memory-pool",
        ("zzPool", "workspace"),
    ),
    (
        "[E] Cannot find plugin creator getter symbol from plugin library: libzz_plugin.so",
        "tensorrt-s19d-trtexec-plugin-getter-missing",
        ("libzz_plugin.so", 'extern "C"', "nm -D libzz_plugin.so"),
    ),
    (
        "[E] The --output flag should not be used with ONNX models.",
        "tensorrt-s19d-trtexec-output-flag-onnx",
        ("--output",),
    ),
    (
        "[E] Shape tensor zz_dims has unexpected type FP16",
        "tensorrt-s19d-trtexec-shape-tensor-type",
        ("zz_dims", "FP16", "INT64"),
    ),
    (
        "[W] Dynamic dimensions required for input: zz_in, but no shapes were provided. Automatically "
        "overriding shape to: 1x3x1x1",
        "tensorrt-s19d-trtexec-dynamic-dims-defaulted",
        ("zz_in", "1x3x1x1", "--minShapes=zz_in:"),
    ),
    # --- Polygraphy ---
    (
        "[!] For input: zz_in, failed to set shape to: (1, 3, 999, 999)",
        "tensorrt-s19d-polygraphy-input-shape-set-failed",
        ("zz_in", "(1, 3, 999, 999)", "--trt-max-shapes"),
    ),
    (
        "[!] Input tensor: zz_in | Received unexpected dtype: float64.\nNote: Expected type: float32",
        "tensorrt-s19d-polygraphy-input-incompatible",
        ("zz_in", "float64", "float32"),
    ),
    (
        "[!] Input tensor: zz_in | Received incompatible shape: (1, 3, 64).\nNote: Expected a shape "
        "compatible "
        "with: BoundedShape([1, 3, 64, 64])",
        "tensorrt-s19d-polygraphy-input-shape-incompatible",
        ("zz_in", "(1, 3, 64)", "--input-shapes zz_in:"),
    ),
    (
        "[E] In node 3 (importZz): UNSUPPORTED_NODE: Assertion failed: zz\n[!] Could not parse ONNX "
        "correctly",
        "tensorrt-s19d-polygraphy-onnx-parse-failed",
        ("polygraphy surgeon sanitize",),
    ),
    (
        "[!] Tensor: /zz/block/Conv_output_0 does not exist in the model.",
        "tensorrt-s19d-polygraphy-tensor-not-in-model",
        ("/zz/block/Conv_output_0", "name:auto"),
    ),
    (
        "[!] Failed to set optimization profile to: 3",
        "tensorrt-s19d-polygraphy-profile-set-failed",
        ("profile 3",),
    ),
    # --- Torch-TensorRT ---
    (
        "RuntimeError: [Error thrown at core/conversion/conversion.cpp:109] Expected converter to be true "
        "but "
        "got false\nUnable to convert node: %y.1 : Tensor = aten::zz_op(%x.1) (conversion.AddLayer)\nSchema: "
        "aten::zz_op(Tensor self) -> (Tensor)\nConverter for aten::zz_op requested, but no such converter "
        "was "
        "found.",
        "tensorrt-s19d-torchtrt-ts-no-converter",
        ("aten::zz_op", "torch_executed_ops=['aten::zz_op']"),
    ),
    (
        "torch_tensorrt.dynamo.conversion._TRTInterpreter.UnsupportedOperatorException: Conversion of "
        "function "
        "torch._ops.aten.zz_op.default not currently supported!",
        "tensorrt-s19d-torchtrt-fx-conversion-unsupported",
        ("torch._ops.aten.zz_op.default", "torch_executed_ops"),
    ),
    # --- DeepStream Gst-nvinfer ---
    (
        "ERROR from primary_gie: Failed to create NvDsInferContext instance\nDebug info: "
        "gstnvinfer.cpp(809): "
        "gst_nvinfer_start (): /GstPipeline:pipeline/GstBin:primary_gie_bin/GstNvInfer:primary_gie:\n"
        "Config file path: /zz/config_infer_zz.txt, NvDsInfer Error: NVDSINFER_CUSTOM_LIB_FAILED",
        "tensorrt-s19d-deepstream-context-create-failed",
        ("/zz/config_infer_zz.txt", "NVDSINFER_CUSTOM_LIB_FAILED"),
    ),
    (
        "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::buildModel() "
        "<nvdsinfer_context_impl.cpp:2000> "
        "[UID = 1]: build engine file failed",
        "tensorrt-s19d-deepstream-build-engine-failed",
        ("onnx-file", "trtexec --onnx"),
    ),
    (
        "ERROR: Cannot access ONNX file '/zz/models/zz_det.onnx'",
        "tensorrt-s19d-deepstream-model-file-missing",
        ("'/zz/models/zz_det.onnx'", "config file's folder"),
    ),
    (
        "WARNING: Deserialize engine failed because file path: /zz/zz_b1_gpu0_fp16.engine open error",
        "tensorrt-s19d-deepstream-engine-open-error",
        ("/zz/zz_b1_gpu0_fp16.engine", "model-engine-file"),
    ),
    (
        "NvDsInferContext[UID 1]: Warning from NvDsInferContextImpl::deserializeEngineAndBackend() "
        "<nvdsinfer_context_impl.cpp:1900> [UID = 1]: deserialize engine from file :/zz/zz.engine failed",
        "tensorrt-s19d-deepstream-deserialize-engine-failed",
        ("Delete /zz/zz.engine",),
    ),
    (
        "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::parseBoundingBox() "
        "<nvdsinfer_context_impl_output_parsing.cpp:59> [UID = 1]: Could not find output bbox layer for "
        "parsing objects",
        "tensorrt-s19d-deepstream-output-layer-not-found",
        ("no bbox layer", "parse-bbox-func-name"),
    ),
    (
        "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::fillDetectionOutput() "
        "<nvdsinfer_context_impl_output_parsing.cpp:725> [UID = 1]: Failed to parse bboxes using custom "
        "parse "
        "function",
        "tensorrt-s19d-deepstream-custom-parse-failed",
        ("num-detected-classes",),
    ),
    (
        "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::initialize() "
        "<nvdsinfer_context_impl.cpp:1100> "
        "[UID = 1]: Could not open custom lib: libzz_parser.so: cannot open shared object file: No such file "
        "or "
        "directory",
        "tensorrt-s19d-deepstream-custom-lib-open",
        ("custom-lib-path", "ldd"),
    ),
    (
        "NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::initialize() "
        "<nvdsinfer_context_impl.cpp:1053> "
        "[UID = 1]: Batch-size (16) more than maximum allowed batch-size (2)",
        "tensorrt-s19d-deepstream-batch-over-limit",
        ("(16)", "(2)", "at most 2"),
    ),
]

test_the_vendor_form_is_answered_confidently_by_its_entry = answered_by_entry(CONFIDENT_CASES, confident=True)


# ---- h23s2_sources (test_knowledge_h23s2_sources.py) ----

TRT = [
    "onnx2trt_utils.cpp:374: Your ONNX model has been generated with INT64 weights, while TensorRT does not "
    "natively support INT64. Attempting to cast down to INT32.",
    "parsers/onnx/ShapedWeights.cpp:171: Weights conv_w has been transposed with permutation of (1, 0)! If "
    "you plan on overwriting the weights with the Refitter API, the new weights must be pre-transposed.",
    "importerUtils.cpp:2210: Found unsupported datatype (11) when importing initializer: scale",
    "onnxOpImporters.cpp:6128: Attribute caps_type not found in plugin node! Ensure that the plugin creator "
    "has a default value defined or the engine may fail to build.",
    "SSA validation FAIL: tensor add_7_out'.1__t's uses list size does not match the actual use in the "
    "program:2 vs. 1",
]


@pytest.mark.parametrize("message", TRT)
def test_tensorrt_parser_and_myelin_lines_name_tensorrt(kb: KnowledgeBase, message: str) -> None:
    assert named_families(message)[:1] == ["tensorrt"], named_families(message)
    ranked = kb.lookup(message, top=3)
    assert ranked[0].entry.family == "tensorrt", ranked[0].entry.id


def test_lookalikes_are_not_claimed() -> None:
    # TensorRT's own logger: "TensorRT" in it is no provider's sentence
    trt = "[TRT] [E] 4: [network.cpp::validate::3062] Error Code 4: Internal Error (TensorRT build failed)"
    assert named_families(trt)[:1] == ["tensorrt"]
    # an ONNX node whose name only looks like a file of the parser
    assert "tensorrt" not in named_families(
        "Node (ShapeTensor_3) has input size 0 not in range [min=1, max=1]."
    )


@pytest.mark.parametrize(
    "message",
    [
        "Default DLA is enabled but layer head/conv_3 is not supported on DLA, falling back to GPU.",
        "act_4: ActivationLayer (with ActivationType = LEAKY_RELU) not supported for DLA.",
        "RuntimeError: [Error thrown at core/conversion/conversionctx/ConversionCtx.cpp:169] Building "
        "serialized network failed in TensorRT",
    ],
)
def test_tensorrt_dla_and_torch_tensorrt_lines_name_tensorrt(message: str) -> None:
    assert named_families(message)[:1] == ["tensorrt"], named_families(message)


# ---- qnn_setup (test_knowledge_qnn_setup.py) ----

CASES_QNN_SETUP = [
    (
        "tensorrt-runtime-destroyed-before-engines",
        "[TRT] [E] 3: [runtime.cpp::~Runtime::401] Error Code 3: API Usage Error (Parameter check failed at: "
        "runtime/rt/runtime.cpp::~Runtime::401, condition: mEngineCounter.use_count() == 1. Destroying a "
        "runtime before destroying deserialized engines created by the runtime leads to undefined behavior.)",
        "",
    ),
]


# (entry id, message, a value the advice must name or ""), checked as every entry row is.
test_the_setup_failure_is_answered_specifically = answered_by_entry(
    [(message, entry_id, (value,) if value else ()) for entry_id, message, value in CASES_QNN_SETUP]
)


# ---- round10 (test_knowledge_round10.py) ----

# (entry id, message from the source's wording with our own values, values the answer must show)
VALUE_CASES = [
    (
        "tensorrt-onnx-parser-not-an-onnx-file",
        "[libprotobuf ERROR google/protobuf/text_format.cc:298] Error parsing text-format "
        'onnx2trt_onnx.ModelProto: 1:1: Message type "onnx2trt_onnx.ModelProto" has no field named "html".',
        ("'html'", "git lfs pull"),
    ),
    (
        "tensorrt-engine-version-tag-mismatch",
        "[TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::42] Error Code 1: Serialization "
        "(Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not match. "
        "Note: Current Version: 228, Serialized Engine Version: 213)",
        ("213", "228", "--saveEngine"),
    ),
    (
        "tensorrt-cuda-runtime-error",
        "[TRT] [E] 1: [executionContext.cpp::enqueueInternal::842] Error Code 1: Cuda Runtime (an illegal "
        "memory access was encountered)",
        ("executionContext.cpp::enqueueInternal::842", "'an illegal memory access was encountered'"),
    ),
]


test_the_entry_answers_first_with_the_message_values = answered_first_with_values(VALUE_CASES)


# ---- round13 (test_knowledge_round13.py) ----


@pytest.mark.parametrize(
    "text",
    [
        "coreReadArchive.cpp (38) - Serialization Error in verifyHeader: 0 (Magic tag does not match)",
        "[E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::42] Error Code 1: Serialization "
        "(Serialization assertion magicTagRead == kMAGIC_TAG failed.Magic tag does not match)",
        "[TRT] [E] 1: [runtime.cpp::parsePlan::314] Error Code 1: Serialization (Serialization assertion "
        "plan->header.magicTag == rt::kPLAN_MAGIC_TAG failed.)",
    ],
)
def test_a_file_that_is_no_engine_gets_the_magic_tag_entry(kb: KnowledgeBase, text: str) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tensorrt-engine-magic-tag-mismatch"
    assert "trtexec" in top.fix


def test_an_engine_of_another_release_keeps_the_version_tag_entry(kb: KnowledgeBase) -> None:
    text = (
        "[E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::40] Error Code 1: Serialization "
        "(Serialization assertion stdVersionRead == serializationVersion failed.Version tag does not match. "
        "Note: Current Version: 205, Serialized Engine Version: 213)"
    )
    assert kb.lookup(text, top=1)[0].entry.id == "tensorrt-engine-version-tag-mismatch"


# ---- round21_forms (test_knowledge_round21_forms.py) ----

CAPTURE_CASES = [
    (
        "[TensorRT-LLM][ERROR] Assertion failed: Unsupported architecture (/src/cpp/tensorrt_llm/kernels/"
        "contextFusedMultiHeadAttention/fmhaRunner.cpp:90)",
        "tensorrt-h23v2-trtllm-unsupported-architecture",
        {"value": "/src/cpp/tensorrt_llm/kernels/contextFusedMultiHeadAttention/fmhaRunner.cpp:90"},
        "--context_fmha disable",
    ),
    (
        "MyelinCheckException: hfc.cpp:99: CHECK(false) failed. "
        "target_sm '121' does not have arch kind assigned.",
        "tensorrt-h23v2-myelin-target-sm-no-arch",
        {"value": "121"},
        "support matrix",
    ),
    (
        "ERROR: coreReadArchive.cpp (31) - Serialization Error in verifyHeader: 0 "
        "(Version tag does not match)",
        "tensorrt-h23v2-verifyheader-length",
        {"value": "Version tag does not match"},
        "binary mode",
    ),
]


test_the_form_gets_its_entry_captures_and_fix_words = answered_with_captures(CAPTURE_CASES)


# ---- s19f (test_knowledge_round24_dev_s19f.py) ----


@pytest.mark.parametrize(
    ("msg", "entry", "named"),
    [
        (
            "[TRT] [E] 6: "
            "[libLoader.cpp::nvinfer1::rt::DynamicLibrary::Impl::Impl::294] Error Code 6: Internal "
            "Error (Unable to load library: libnvinfer_builder_resource.so.10.3.0)",
            "tensorrt-unable-to-load-library",
            ("libnvinfer_builder_resource.so.10.3.0", "LD_LIBRARY_PATH"),
        ),
        (
            "createInferBuilder: Error Code 6: API Usage Error (Unable to load library: "
            "libnvinfer_builder_resource.so.10.2.0: libnvinfer_builder_resource.so.10.2.0: cannot enable "
            "executable stack as shared object requires: Invalid argument)",
            "tensorrt-builder-resource-execstack",
            ("patchelf --clear-execstack libnvinfer_builder_resource.so.10.2.0", "glibc"),
        ),
    ],
)
def test_tensorrt_library_loading(kb: KnowledgeBase, msg: str, entry: str, named: tuple[str, ...]) -> None:
    assert_answered(kb, msg, named, entry=entry)


def test_tensorrt_unsupported_sm_assertion(kb: KnowledgeBase) -> None:
    msg = "[F] [TRT] Assertion failed: Unsupported SM.\nC:\\src\\cuda\\caskUtils.cpp:80\nAborting..."
    top = kb.lookup(msg, top=1)[0]
    assert top.entry.id == "tensorrt-unsupported-sm"


def test_torch_tensorrt_check_reads_the_checks_message(kb: KnowledgeBase) -> None:
    msg = (
        "RuntimeError: [Error thrown at core/conversion/converters/impl/shuffle.cpp:57] Expected in.nbDims "
        "== 4 to be true but got false\nShuffle converter expects 4-D input, got 3"
    )
    top = kb.lookup(msg, top=1)[0]
    assert top.entry.id == "tensorrt-torch-tensorrt-check-failed"
    # the check's message is captured as its reason: an envelope, ranked under any specific entry of
    # Torch-TensorRT that answers that line (test_knowledge_clause_forms.py, and this file's tables)
    assert_advice(
        top,
        ("in.nbDims == 4", "Shuffle converter expects 4-D input, got 3", "torch_executed_ops"),
        judged_specific=False,
    )


# ---- s20g (test_knowledge_round25_dev_s20g.py) ----


def test_onnx_tensorrt_attribute_not_found(kb: KnowledgeBase) -> None:
    msg = (
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  Attribute not found: pads"
    )
    top = assert_answered(kb, msg, ("'pads'", "opset"), entry="tensorrt-s20g-onnx-attribute-not-found")
    assert top.entry.family == "tensorrt"


def test_attribute_not_found_alone_is_no_tensorrt_answer(kb: KnowledgeBase) -> None:
    """Other programs print 'Attribute not found: x' too; only the uncaught out_of_range form is
    the parser's pattern: the bare words are at most a partial match, and the answer says so."""
    top = kb.lookup("KeyError: Attribute not found: color", top=1)
    assert (
        not top
        or top[0].entry.id != "tensorrt-s20g-onnx-attribute-not-found"
        or (top[0].reason == "partial" and confidence_of(top[0])[0] != "high")
    )


def test_range_inputs_must_be_initializers(kb: KnowledgeBase) -> None:
    msg = (
        "ERROR: ModelImporter.cpp:162 In function parseGraph:\n[6] Invalid Node - Range_57\n"
        "All inputs to range should be initializers."
    )
    assert_answered(
        kb, msg, ("--fold-constants", "INT32"), entry="tensorrt-s20g-range-inputs-not-initializers"
    )


# ---- s18a (test_knowledge_specific_s18a.py) ----


def test_trt_profile_condition_reversed_form_under_tensorrt(kb: KnowledgeBase) -> None:
    # TensorRT 7 prints the kMAX condition with the profile first; TensorRT's own card reads it too.
    message = (
        "[TRT] [E] 3: [executionContext.cpp::setBindingDimensions::944] Error Code 3: API Usage Error "
        "(Parameter check failed at: runtime/api/executionContext.cpp::setBindingDimensions::944, condition: "
        "profileMaxDims.d[i] >= dimensions.d[i]. Supplied binding dimension [4,3,640,640] for bindings[0] "
        "exceed min ~ max range at index 0, maximum dimension in profile is 1, minimum dimension in profile "
        "is 1, but supplied dimension is 4.)"
    )
    top = kb.lookup(message, top=1)[0]  # Error Code 3's card, answered by the clause
    assert top.entry.id.endswith("+trt-api-binding-dims-outside-profile"), top.entry.id
    assert_advice(top, ("profileMaxDims.d[i] >= dimensions.d[i]", "get_profile_shape", "--maxShapes"))
    bare = "[E] [TRT] Parameter check failed at: engine.cpp::nvinfer1::rt::ExecutionContext::"
    bare += "setBindingDimensions::1136, condition: profileMaxDims.d[i] >= dimensions.d[i]"
    top = kb.lookup(bare, top=1)[0]
    assert top.entry.id == "family-tensorrt+trt-api-binding-dims-outside-profile", top.entry.id


# ---- trt_ort_sources (test_knowledge_trt_ort_sources.py) ----

CASES_TRT_ORT_SOURCES = [
    (
        "[TRT] [E] 6: The engine plan file is not compatible with this version of TensorRT, "
        "expecting library "
        "version 10.1.0.27 got 10.4.0.26, please rebuild.",
        "tensorrt-plan-library-version-mismatch",
        {"version": "10.1.0.27", "version2": "10.4.0.26"},
    ),
    (
        "[TRT] [E] 6: The engine plan file is generated on an incompatible device, expecting compute 8.6 got "
        "compute 8.7, please rebuild.",
        "tensorrt-plan-incompatible-device",
        {"value": "8.6", "value2": "8.7"},
    ),
    (
        "[E] [TRT] 4: [runtime.cpp::deserializeCudaEngine::66] Error Code 4: Internal Error (Engine "
        "deserialization failed.)",
        "tensorrt-engine-deserialization-failed",
        {},
    ),
    (
        "[E] [TRT] 4: [graphShapeAnalyzer.cpp::analyzeShapes::2084] Error Code 4: Miscellaneous "
        "(IShuffleLayer "
        "/neck/flat/Reshape: reshape changes volume. Reshaping [2,64,9,9] to [2,4096].)",
        "tensorrt-reshape-changes-volume",
        {"op": "/neck/flat/Reshape"},
    ),
    (
        "[E] [TRT] 4: [shapeCompiler.cpp::evaluateShapeChecks::1180] Error Code 4: Internal Error "
        "(kMAX values "
        "for profile 1 violate shape constraints: IElementWiseLayer /blk3/Mul: dimensions not compatible)",
        "tensorrt-profile-violates-shape-constraints",
        {"value": "kMAX", "index": "1", "op": "/blk3/Mul"},
    ),
    (
        "[E] [TRT] 1: [caskUtils.cpp::trtSmToCask::171] Error Code 1: Internal Error (Unsupported "
        "SM: 0x1200)",
        "tensorrt-unsupported-sm",
        {"value": "0x1200"},
    ),
    (
        "[W] [TRT] CUDA initialization failure with error: 100. Please check your CUDA installation",
        "tensorrt-cuda-initialization-failure",
        {"value": "100"},
    ),
    (
        "[E] [TRT] Could not find scales for tensor /head/cls/Sigmoid_output_0.",
        "tensorrt-int8-calibration-no-scales",
        {"tensor": "/head/cls/Sigmoid_output_0"},
    ),
    (
        "[W] [TRT] Tensor /stem/act/Relu_output_0 is uniformly zero; network calibration failed.",
        "tensorrt-int8-tensor-uniformly-zero",
        {"tensor": "/stem/act/Relu_output_0"},
    ),
    (
        "[E] [TRT] 3: [executionContext.cpp::setInputShape::2068] Error Code 3: API Usage Error (Parameter "
        "check failed, condition: engineDims.d[i] == dims.d[i]. Static dimension mismatch while "
        "setting input "
        "shape for pixel_values. Set dimensions are [2,3,224,224]. Expected dimensions are [1,3,224,224].)",
        "tensorrt-static-dimension-mismatch-set-input-shape",
        {"input": "pixel_values"},
    ),
    (
        "[E] [TRT] GPU memory allocation failed during initialization of layer: /dec/attn/MatMul_2",
        "tensorrt-gpu-memory-insufficient-for-engine",
        {"layer": "/dec/attn/MatMul_2"},
    ),
    (
        "ERROR: Network needs native FP16 and platform does not have native FP16",
        "tensorrt-no-native-fp16",
        {},
    ),
    (
        "[E] [TRT] Builder was created on device different from current device.",
        "tensorrt-builder-on-other-device",
        {},
    ),
    (
        "[TRT] ERROR: Custom layer decode_boxes returned non-zero initialization",
        "tensorrt-plugin-nonzero-initialization",
        {"layer": "decode_boxes"},
    ),
    (
        "[TRT] ERROR: fc_out: bias weights has non-zero count but null values",
        "tensorrt-weights-count-values-mismatch",
        {"layer": "fc_out", "arg": "bias"},
    ),
    (
        "[E] [TRT] 3: [executionContext.cpp::setInputShape::2013] Error Code 3: API Usage Error "
        "(logits is not "
        "an input tensor. IExecutionContext::setInputShape can only be called for input tensors.)",
        "tensorrt-not-an-input-tensor",
        {"input": "logits"},
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : TensorRT input: /enc/Loop_output_1 has no shape "
        "specified. Please run "
        "shape inference on the onnx model first.",
        "onnxruntime-trt-ep-input-no-shape",
        {"input": "/enc/Loop_output_1"},
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Load model from net.onnx failed:Deserialize tensor enc.w3 failed."
        "tensorprotoutils.cc:1002 GetExtDataFromTensorProto External initializer: enc.w3 offset: 8192 size "
        "to read: 65536 given file_length: 40000 are out of bounds or can not be read in full.",
        "onnxruntime-external-data-out-of-bounds",
        {"tensor": "enc.w3", "value3": "40000"},
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Deserialize tensor dec.bias failed.GetFileLength for "
        "/srv/models/net.data failed:Invalid fd was supplied: -1",
        "onnxruntime-external-data-file-missing",
        {"tensor": "dec.bias", "path": "/srv/models/net.data"},
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running "
        "Reshape node. "
        "Name:'/tail/Reshape_7' Status Message: reshape_helper.h:39 i < "
        "input_shape.NumDimensions() was false. "
        "The dimension with value zero exceeds the dimension size of the input tensor.",
        "onnxruntime-non-zero-status-code-returned+ort-reshape-zero-past-rank",
        {"op": "/tail/Reshape_7"},
    ),
    (
        "[W:onnxruntime:, execution_frame.cc:870 VerifyOutputSizes] Expected shape from model of {1,25} does "
        "not match actual shape of {1,31} for output tokens",
        "onnxruntime-output-shape-differs-from-model",
        {"output": "tokens", "shape": "{1,25}"},
    ),
    (
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running Mul node. "
        "Name:'/att/Mul_4' Status Message: Shape mismatch attempting to re-use buffer. {4,77} != {4,93}. "
        "Validate usage of dim_value (values should be > 0) and dim_param",
        "onnxruntime-non-zero-status-code-returned+ort-buffer-reuse-shape-mismatch",
        {"op": "/att/Mul_4", "shape": "{4,77}"},
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : CUDA failure 35: CUDA driver version is insufficient for "
        "CUDA runtime "
        "version ; GPU=1 ; hostname=node7 ; file=cuda_execution_provider.cc ; line=290 ; "
        "expr=cudaSetDevice(info_.device_id);",
        "onnxruntime-1-FAIL+ort-cuda-call-failure",
        {"value": "35", "index": "1"},
    ),
    (
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Exception during initialization: "
        "tensorrt_execution_provider.cc:3310 TensorRT EP could not deserialize engine from cache: "
        "/var/trt/TensorrtExecutionProvider_TRTKernel_graph_net_77_0_0_sm89.engine",
        "onnxruntime-trt-ep-engine-cache-deserialize",
        {"path": "/var/trt/TensorrtExecutionProvider_TRTKernel_graph_net_77_0_0_sm89.engine"},
    ),
    (
        "[E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status code returned "
        "while running "
        "TRTKernel_graph_net_77_0 node. Name:'TensorrtExecutionProvider_TRTKernel_graph_net_77_0_0' Status "
        "Message: TensorRT EP execution context enqueue failed.",
        "onnxruntime-trt-ep-enqueue-failed",
        {},
    ),
    (
        "[ONNXRuntimeError] : 10 : INVALID_GRAPH : Load model from cut.onnx failed:This is an invalid model. "
        "Graph output (feat_p4) does not exist in the graph.",
        "onnxruntime-graph-output-not-in-graph",
        {"output": "feat_p4"},
    ),
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running "
        "MatMul node. "
        "Name:'/cls/fc2/MatMul' Status Message: matmul_helper.h:142 Compute MatMul dimension mismatch",
        "onnxruntime-non-zero-status-code-returned+ort-matmul-dimension-mismatch",
        {"op": "/cls/fc2/MatMul"},
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Attempting to get index by a name which does not exist:mel_spec for "
        "node: /front/Conv_1",
        "onnxruntime-index-by-missing-name",
        {"tensor": "mel_spec", "op": "/front/Conv_1"},
    ),
]


@pytest.mark.parametrize(
    ("message", "entry_id", "found"), CASES_TRT_ORT_SOURCES, ids=[c[1] for c in CASES_TRT_ORT_SOURCES]
)
def test_each_message_form_gets_its_entry_with_the_captures_in_the_advice(
    kb: KnowledgeBase, message: str, entry_id: str, found: dict[str, str]
) -> None:
    top = kb.lookup(message, top=2)
    assert top[0].entry.id == entry_id
    captures = dict(top[0].captures)
    for name, value in found.items():
        assert captures.get(name, "").strip("[]") == value.strip("[]")
    advice = f"{top[0].cause} {top[0].fix}"
    for name in ("op", "tensor", "input", "output", "layer"):
        if name in found:
            assert found[name] in advice
    assert not re.search(r"\{[a-z][a-z0-9_]*(?:\|[^{}]*)?\}", advice)  # every placeholder filled
    assert not re.search(r"\s[,;:)]|\s\.(?:\s|$)", advice.replace(" ...", ""))  # no part left out
    assert specific(top[0]) == (True, "")


def test_a_version_mismatch_does_not_say_which_side_is_the_engine(kb: KnowledgeBase) -> None:
    """The runtime's wording does not say whether 'expecting' is the engine's version or its own (users'
    logs show both readings), so the advice names both versions and claims neither."""
    m = kb.lookup(CASES_TRT_ORT_SOURCES[0][0], top=1)[0]
    assert "10.1.0.27 and 10.4.0.26" in m.cause
    assert "one the engine's and one this runtime's" in m.cause


def test_cuda_out_of_memory_stays_with_the_tool_neutral_clause(kb: KnowledgeBase) -> None:
    """The CUDA EP's call-failure clause leaves status 2 to the ``cuda-out-of-memory`` clause, which says
    more about memory; any other status of the same form is the CUDA EP clause's."""
    line = "; GPU=0 ; hostname=n1 ; file=cuda_allocator.cc ; line=52 ; expr=cudaMalloc((void**)&q, n);"
    assert kb.lookup(f"[E:onnxruntime:] CUDA failure 2: out of memory {line}", top=1)[0].entry.id.endswith(
        "+cuda-out-of-memory"
    )
    other = kb.lookup(f"[E:onnxruntime:] CUDA failure 700: an illegal memory access was encountered {line}")
    assert other[0].entry.id.endswith("+ort-cuda-call-failure")
    assert "cudaMalloc((void**)&q, n) on GPU 0 returned cudaError 700" in other[0].cause


def test_a_kernel_reason_pasted_without_its_envelope_still_gets_its_clause(kb: KnowledgeBase) -> None:
    """The three onnxruntime kernel reasons are clauses (the envelope's node is filled in); pasted alone, the
    line is onnxruntime's (its own wording) and the clause answers it without a node."""
    m = kb.lookup(
        "Shape mismatch attempting to re-use buffer. {8,12} != {8,15}. Validate usage of dim_value", top=1
    )
    assert m[0].entry.id.endswith("+ort-buffer-reuse-shape-mismatch")
    assert "{8,12} against {8,15}" in m[0].cause and "a node" in m[0].cause


def test_the_old_answers_stay_behind_the_specific_entry(kb: KnowledgeBase) -> None:
    """The envelope and code cards are still shown, below the entry that follows the message's reason."""
    reshape = [m.entry.id for m in kb.lookup(CASES_TRT_ORT_SOURCES[3][0], top=3)]
    assert reshape[0] == "tensorrt-reshape-changes-volume"
    assert "tensorrt-ErrorCode-INVALID-CONFIG-builder-4" in reshape
    ext = [m.entry.id for m in kb.lookup(CASES_TRT_ORT_SOURCES[18][0], top=3)]
    assert ext[0] == "onnxruntime-external-data-file-missing" and "onnxruntime-1-FAIL" in ext


@pytest.mark.parametrize("index", [0, 3, 16, 21])
def test_the_log_scan_reports_each_form_buried_in_a_log(kb: KnowledgeBase, index: int) -> None:
    message, entry_id, _ = CASES_TRT_ORT_SOURCES[index]
    log = "step 1 ok\nloading weights\n" + message + "\nshutting down\n"
    found = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.matches[0].entry.id for p in found if p.matches] == [entry_id]


# ---- trt_parser_forms (test_knowledge_trt_parser_forms.py) ----

DESERIALIZE = [
    # pyOnnx.cpp: a MODEL_DESERIALIZE_FAILED error is printed without its node part
    "(deserializeOnnxModel): MODEL_DESERIALIZE_FAILED: Assertion failed: "
    '(model->ParseFromCodedStream(&codedInput)) && "Failed to parse the ONNX model."',
    # the older short form, node -1
    "In node -1 (deserializeOnnxModel): MODEL_DESERIALIZE_FAILED: Assertion failed: "
    '(model->ParseFromCodedStream(&codedInput)) && "Failed to parse the ONNX model."',
    # ModelImporter's logged form, ErrorCode 3
    "[E] [TRT] ModelImporter.cpp:254: ERROR: onnxProtoUtils.hpp:69 In function deserializeOnnxModel:\n"
    '[3] Assertion failed: (model->ParseFromCodedStream(&codedInput)) && "Failed to parse the ONNX model."',
    # ModelRefitter.cpp
    'In node -1 (refitFromFile): MODEL_DESERIALIZE_FAILED: Assertion failed: fileLoadSuccess && "Failed to '
    'parse the ONNX model!"',
]


@pytest.mark.parametrize("message", DESERIALIZE)
def test_a_failed_deserialisation_is_answered_as_the_file_not_as_a_node(
    kb: KnowledgeBase, message: str
) -> None:
    top = kb.lookup(message)[0]
    assert top.entry.family == "tensorrt"
    assert top.entry.id.endswith("+onnx-trt-model-deserialize"), top.entry.id
    assert "node" not in top.cause.split(":")[0]  # it is about the file, before any node
    for word in ("truncated", "2 GB", "check_model", "save_as_external_data", "'rb'"):
        assert word in top.cause + top.fix, word
    assert "onnxProtoUtils.hpp" in top.source
    assert specific(top)[0], specific(top)[1]


GRAPH_LEVEL = [
    # kINVALID_GRAPH and kUNSUPPORTED_GRAPH asserts of ModelImporter.cpp: no node's requirement
    "ERROR: ModelImporter.cpp:327 In function parseGraph:\n"
    '[5] Assertion failed: toposort(graph.node(), &topoOrder) && "Failed to sort the model topologically."',
    "In node -1 (importModel): UNSUPPORTED_GRAPH: Assertion failed: "
    'model.opset_import().size() <= MAX_DOMAINS && "Model contains more than 1024 domains! Parsing will '
    'halt for security reasons."',
    'In node -1 (parseGraph): INVALID_GRAPH: Assertion failed: false && "Failed to import initialzer"',
]


@pytest.mark.parametrize("message", GRAPH_LEVEL)
def test_a_graph_errorcode_keeps_the_node_requirement_clauses_silent(kb: KnowledgeBase, message: str) -> None:
    for m in kb.lookup(message):
        assert "onnx-trt-stated-requirement" not in m.entry.id, m.entry.id
        assert "states what it requires" not in m.cause


NODE_FORMS = [
    (
        # TensorRT's pyOnnx.cpp parserErrorStr: node number, name and operator
        "In node 31 with name: /head/Resize_2 and operator: Resize (importResize): UNSUPPORTED_NODE: "
        'Assertion failed: mode != "cubic" && "This version of TensorRT does not support cubic '
        'interpolation!"',
        {"index": "31", "op": "/head/Resize_2", "op_type": "Resize"},
    ),
    (
        # the older short form
        'In node 7 (importGridSample): UNSUPPORTED_NODE: Assertion failed: alignCorners == 0 && "Only '
        'align_corners=0 is supported."',
        {"index": "7", "op_type": "GridSample"},
    ),
    (
        # ModelImporter's three lines: the node's number is on the first
        "[E] [TRT] ModelImporter.cpp:949: While parsing node number 57 "
        '[Squeeze -> "/blk/Squeeze_output_0"]:\n'
        "[E] [TRT] ModelImporter.cpp:954: ERROR: onnxOpImporters.cpp:4121 In function importSqueeze:\n"
        '[8] Assertion failed: !isDynamic(shape) && "Cannot infer squeeze dimensions from a dynamic shape! '
        'Please re-export your model with the Squeeze axes input set."',
        {"index": "57", "op_type": "Squeeze"},
    ),
]


@pytest.mark.parametrize(("message", "parts"), NODE_FORMS)
def test_a_node_assertion_names_the_node_number_name_and_importer(
    kb: KnowledgeBase, message: str, parts: dict[str, str]
) -> None:
    top = kb.lookup(message)[0]
    assert top.entry.family == "tensorrt"
    assert "+onnx-trt-" in top.entry.id, top.entry.id
    captures = dict(top.captures)
    for name, value in parts.items():
        assert captures.get(name) == value, (name, captures)
    assert f"node number {parts['index']}" in top.cause
    assert parts["op_type"] in top.cause + top.fix
    if "op" in parts:
        assert parts["op"] in top.fix
    assert specific(top)[0], specific(top)[1]


def test_an_assertion_without_a_node_number_says_so_in_words(kb: KnowledgeBase) -> None:
    message = (
        "ERROR: onnxOpImporters.cpp:2210 In function importGridSample:\n"
        '[8] Assertion failed: alignCorners == 0 && "Only align_corners=0 is supported."'
    )
    top = kb.lookup(message)[0]
    assert top.entry.id.endswith("+onnx-trt-stated-requirement"), top.entry.id
    assert "(node number not shown)" in top.cause
    assert "{" not in top.cause + top.fix


PLUGIN_FORMS = [
    (
        "In node 5 with name: /det/NMS and operator: MyNMS_TRT (importFallbackPluginImporter): "
        'UNSUPPORTED_NODE: Assertion failed: creator && "Plugin not found, are the plugin name, version, and '
        'namespace correct?"',
        {"op_type": "MyNMS_TRT"},
    ),
    (
        "[E] [TRT] INVALID_ARGUMENT: getPluginCreator could not find plugin MyScatter version 2",
        {"arg": "MyScatter"},
    ),
    ("getPluginCreator() could not find Plugin MyScatter version 1", {"arg": "MyScatter"}),
]


@pytest.mark.parametrize(("message", "parts"), PLUGIN_FORMS)
def test_a_plugin_not_found_names_the_op_and_how_the_parser_looks_it_up(
    kb: KnowledgeBase, message: str, parts: dict[str, str]
) -> None:
    top = kb.lookup(message)[0]
    assert top.entry.id == "tensorrt-getplugincreator-could-not-find-plugin", top.entry.id
    assert dict(top.captures).items() >= parts.items(), top.captures
    assert next(iter(parts.values())) in top.cause + top.fix
    for word in ("plugin_version", "plugin_namespace", "--staticPlugins", "init_libnvinfer_plugins"):
        assert word in top.cause + top.fix, word
    assert specific(top)[0], specific(top)[1]


def test_the_while_parsing_line_leaves_the_answer_to_the_error_it_introduces(kb: KnowledgeBase) -> None:
    """``While parsing node number N [Op]`` only introduces the parser's error: the error's own answer
    comes first, the node's number still said."""
    message = (
        '[E] [TRT] ModelImporter.cpp:949: While parsing node number 3 [MyOp -> "/m/MyOp_output_0"]:\n'
        "[E] [TRT] ModelImporter.cpp:954: ERROR: onnxOpImporters.cpp:6448 In function "
        "importFallbackPluginImporter:\n"
        '[8] Assertion failed: creator && "Plugin not found, are the plugin name, version, and namespace '
        'correct?"'
    )
    ids = [m.entry.id for m in kb.lookup(message)]
    assert ids[0] == "tensorrt-getplugincreator-could-not-find-plugin", ids
    bare = '[E] [TRT] ModelImporter.cpp:949: While parsing node number 3 [MyOp -> "/m/MyOp_output_0"]:'
    assert kb.lookup(bare)[0].entry.id == "tensorrt-while-parsing-node-number-conv"


@pytest.mark.parametrize(
    ("message", "asked", "available"),
    [
        (
            "[W] [TRT] Tactic Device request: 4364MB Available: 3072MB. Device memory is insufficient to use "
            "tactic.",
            "4364MB",
            "3072",
        ),
        (
            "Skipping tactic 0x0000000000000003 due to insufficient memory on requested size of 911 detected "
            "for tactic 0x0000000000000004.",
            "911",
            "",
        ),
    ],
)
def test_a_skipped_tactic_says_how_much_it_asked_for_and_that_it_is_a_warning(
    kb: KnowledgeBase, message: str, asked: str, available: str
) -> None:
    top = kb.lookup(message)[0]
    assert top.entry.id == "tensorrt-h23n2-tactic-device-memory"
    assert f"asks for {asked} of device memory" in top.cause
    assert (f"in MB: {available})" if available else "not printed on this line") in top.cause
    assert "warning" in top.cause and "--memPoolSize=workspace:N" in top.fix


def test_the_build_error_outranks_the_skipped_tactic_warnings_before_it(kb: KnowledgeBase) -> None:
    message = (
        "[W] [TRT] Tactic Device request: 4364MB Available: 3072MB. Device memory is insufficient to use "
        "tactic.\n"
        "[E] [TRT] 10: [optimizer.cpp::computeCosts::3728] Error Code 10: Internal Error (Could not find any "
        "implementation for node /neck/Concat_3.)"
    )
    top = kb.lookup(message)[0]
    assert top.entry.id == "tensorrt-no-implementation-for-node"
    assert dict(top.captures)["op"] == "/neck/Concat_3"


def test_tensorrt_8s_enqueue_parameter_check_is_read_like_the_api_checks(kb: KnowledgeBase) -> None:
    message = (
        "[executionContext.cpp::enqueueInternal::795] Error Code 3: Internal Error (Parameter check failed, "
        "condition: bindings[x] || nullBindingOK)"
    )
    top = kb.lookup(message)[0]
    # the check's own clause (h23b3) reads this condition: a null pointer in the bindings array
    assert top.entry.id.endswith("+trt-api-null-binding"), top.entry.id
    assert "(bindings[x] || nullBindingOK)" in top.cause
    assert "engine.get_tensor_name(i)" in top.fix
    near_miss = (
        "[executionContext.cpp::enqueueInternal::795] Error Code 3: Internal Error (Parameter check failed)"
    )
    assert not kb.lookup(near_miss)[0].entry.id.endswith("+trt-parameter-check")


@pytest.mark.parametrize(
    "message",
    [
        "IRuntime::deserializeCudaEngine returned a null engine",
        "ICudaEngine::createExecutionContext: failed",
        "IBuilderConfig::setMemoryPoolLimit: the pool size exceeds the device memory",
        "[genericReformat.cuh::executeMemcpy::1334] Cuda Runtime (invalid argument) "
        "and IExecutionContext::enqueueV3 returned false",
    ],
)
def test_tensorrt_s_api_names_tell_its_family_without_a_prefix(message: str) -> None:
    from dumpscope.core.knowledge.family import detect_families

    assert detect_families(message)[:1] == ["tensorrt"]


def test_an_api_name_alone_is_no_strong_evidence() -> None:
    from dumpscope.core.knowledge.family import detect_families

    assert detect_families("config.setMaxWorkspaceSize(1 << 30) fails") == []


def test_a_parameter_check_in_a_namespaced_function_names_that_function(kb: KnowledgeBase) -> None:
    message = (
        "[E] [TRT] Parameter check failed at: engine.cpp::nvinfer1::rt::ExecutionContext::"
        "setBindingDimensions"
        "::1136, condition: bindingIndex >= 0 && bindingIndex < mEngine.getNbBindings"
    )
    # (a condition no dedicated clause reads: the profile conditions have their own clause, which
    # test_knowledge_tensorrt.py and test_knowledge_onnxruntime.py check)
    top = kb.lookup(message)[0]
    assert top.entry.family == "tensorrt"
    captures = dict(top.captures)
    assert captures.get("call") == "setBindingDimensions", top.captures
    assert captures.get("value") == "bindingIndex >= 0 && bindingIndex < mEngine.getNbBindings"


def test_the_assert_node_form_states_its_requirement_with_the_node(kb: KnowledgeBase) -> None:
    """onnx-tensorrt's ASSERT_NODE prints ``Assertion failed: <condition>: <message>``."""
    message = (
        "In node 9 with name: /m/Cast_2 and operator: Cast (importCast): UNSUPPORTED_NODE: Assertion failed: "
        "false: Unsupported cast!"
    )
    top = kb.lookup(message)[0]
    assert top.entry.id.endswith("+onnx-trt-stated-requirement-node"), top.entry.id
    assert dict(top.captures)["value"] == "Unsupported cast!"
    assert "node number 9" in top.cause and "/m/Cast_2" in top.fix
    graph = "In node -1 (parseGraph): INVALID_GRAPH: Assertion failed: false: Failed to import initializer"
    assert not any("onnx-trt-stated" in m.entry.id for m in kb.lookup(graph))


@pytest.mark.parametrize(
    "message",
    [
        "ERROR: [Torch-TensorRT] - Unsupported operator: aten::foo(Tensor self) -> (Tensor)",
        "ERROR: [Torch-TensorRT TorchScript Conversion Context] - 4: [network.cpp::validate::2997] Error 4",
        'File "/usr/lib/python3/site-packages/torch_tensorrt/dynamo/_compiler.py", line 10, in compile',
    ],
)
def test_torch_tensorrt_speaks_for_tensorrt(kb: KnowledgeBase, message: str) -> None:
    """Torch-TensorRT's logger prefixes (TorchTRTLogger: '[Torch-TensorRT] - ', '[Torch-TensorRT <context>]
    - ') and its package name are TensorRT's markers: NVIDIA's compiler builds TensorRT engines."""
    from dumpscope.core.knowledge.family import detect_families

    assert detect_families(message)[:1] == ["tensorrt"]


def test_an_unsupported_aten_op_under_torch_tensorrt_is_answered_with_the_op(kb: KnowledgeBase) -> None:
    found = kb.answer("ERROR: [Torch-TensorRT] - Unsupported operator: aten::foo(Tensor self) -> (Tensor)")
    assert found.confident and found.matches[0].entry.family == "tensorrt"
    assert "aten::foo" in found.matches[0].cause


# ---- s19d (test_knowledge_trt_rknn_ascend_s19d.py) ----

CLAUSE_CASES = [
    (
        "[TRT] [E] 4: [network.cpp::validate::3000] Error Code 4: Internal Error (zz_images: dynamic input "
        "is "
        "missing dimensions in profile 1.)",
        "trt-dynamic-input-missing-profile-dims",
        ("zz_images", "profile 1", "set_shape('zz_images'"),
    ),
    (
        "[E] Error[4]: [graphShapeAnalyzer.cpp::processCheck::500] Error Code 4: Internal Error "
        "(/zz/Concat_7: "
        "dimensions not compatible for concatenation)",
        "trt-concat-dims-not-compatible",
        ("/zz/Concat_7", "multiple of the network's total stride"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), CLAUSE_CASES, ids=[c[1] for c in CLAUSE_CASES])
def test_error_code_card_answers_the_builder_reason(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    top = assert_answered(kb, message, named, clause=clause)
    assert top.entry.family == "tensorrt"
    assert "trtb:4" in top.entry.keys


def test_deepstream_status_capture_stops_at_the_status(kb: KnowledgeBase) -> None:
    message = (
        "ERROR from primary_gie: Failed to create NvDsInferContext instance\nDebug info: "
        "gstnvinfer.cpp(809): "
        "gst_nvinfer_start ():\nConfig file path: zz.txt, NvDsInfer Error: NVDSINFER_CONFIG_FAILED\n"
    )
    top = kb.lookup(message, top=1)[0]
    assert dict(top.captures) == {"file": "zz.txt", "value": "NVDSINFER_CONFIG_FAILED"}


# ---- s20e (test_knowledge_trt_trtllm_torch_onnx_s20e.py) ----


def test_the_parser_path_is_captured(kb: KnowledgeBase) -> None:
    top = kb.lookup("Input is not a regular file: /zz/models/yolo", top=1)[0]
    assert ("path", "/zz/models/yolo") in top.captures


@pytest.mark.parametrize(
    "text",
    [
        "trtllm-build: error: argument --gemm_plugin: invalid choice: 'zz'",
        "trtllm-serve: error: unrecognized arguments: --zz",
        '  File "/zz/site-packages/tensorrt_llm/commands/build.py", line 10, in main\nValueError: zz',
        "tensorrt_llm::common::TllmException: zz",
    ],
)
def test_tensorrt_llm_package_and_clis_name_tensorrt(kb: KnowledgeBase, text: str) -> None:
    """TensorRT-LLM is NVIDIA's TensorRT stack: its package and CLI names route to the tensorrt family."""
    assert detect_families(text)[0] == "tensorrt"
    assert kb.lookup(text, top=1)[0].entry.family == "tensorrt"


def test_the_build_summary_points_above(kb: KnowledgeBase) -> None:
    """trtllm-build's closing assertion follows the failing rank's own error: inside a tensorrt_llm traceback
    it is answered as that summary, pointing above."""
    top = assert_answered(
        kb,
        '  File "/zz/site-packages/tensorrt_llm/commands/build.py", line 380, in parallel_build\n'
        "AssertionError: Engine building failed, please check error log.",
        ("first traceback",),
        entry="tensorrt-s20e-trtllm-engine-building-failed",
    )
    assert top.entry.consequence


# ---- h23 (test_knowledge_vendor_forms_h23.py) ----

# (message, entry, what the advice must name)
CAPTURED_CASES = [
    (
        "[GPU] force exit.\n\tDue to the driver bug any subsequent OpenCL API call will cause application "
        "hang, so GPU plugin can't finish correctly.\n\tPlease try to update the driver or reduce memory "
        "consumption (use smaller batch size, less streams, lower precision, etc)"
        "to avoid CL_OUT_OF_RESOURCES",
        "openvino-gpu-force-exit-driver-bug",
        ("CL_OUT_OF_RESOURCES", "ov::num_streams"),
    ),
    (
        "[03/02/2026-10:11:12] [TRT] [E] Cask Deconvolution Runner Execute Failure",
        "tensorrt-cask-runner-execute-failure",
        ("Deconvolution", "optimisation profile"),
    ),
    (
        '  File "coremltools/converters/mil/mil/types/type_mapping.py", line 469, in '
        "numpy_type_to_builtin_type\nTypeError: Unsupported numpy type: <class 'numpy.ulonglong'>.",
        "coreml-unsupported-numpy-type",
        ("numpy.ulonglong", "astype(np.int32)"),
    ),
    (
        "ERROR: /src/onnx2trt/ModelImporter.cpp:120 In function importNode:\n[8] No importer registered for "
        "op: NonMaxSuppression",
        "tensorrt-no-importer-registered-unsupported-node",
        ("NonMaxSuppression", "kUNSUPPORTED_NODE"),
    ),
    (
        "PipelineModule:: Can't find enough output from the model, finded is:\n[ boxes ] [ scores ] ",
        "mnn-pipeline-missing-output",
        ("boxes ] [ scores", "getInfo()->outputNames"),
    ),
    (
        "Unsupported squeeze axes !\nUnsupported squeeze axes !",
        "onnx2ncnn-unsupported-attribute",
        ("squeeze axes", "pnnx"),
    ),
    (
        "Error Code 2: Internal Error (Assertion !n->candidateRequirements.empty() failed. "
        "No supported formats for /head/Resize_2)",
        "tensorrt-no-supported-formats",
        ("/head/Resize_2", "precisionConstraints"),
    ),
    (
        "[E] Error Code 2: Internal Error (Assertion mNodes.size() <= kMaxNodes failed. )",
        "tensorrt-internal-assertion",
        ("Assertion mNodes.size() <= kMaxNodes", "polygraphy debug reduce"),
    ),
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: Your model has duplicate keys in metadata_props.",
        "onnx-checker-duplicate-metadata-keys",
        ("set_model_props",),
    ),
    (
        "tensorflow/lite/simple_memory_arena.cc:95 it->size != alloc.size (1536 != 512)\n"
        "ERROR: Failed to allocate tensors.",
        "tflite-arena-deallocate-size-mismatch",
        ("1536 bytes", "(512)", "AllocateTensors() after every ResizeInputTensor"),
    ),
]


@pytest.mark.parametrize(("message", "entry", "named"), CAPTURED_CASES, ids=[c[1] for c in CAPTURED_CASES])
def test_the_form_is_answered_by_its_entry_with_what_it_captured(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    if entry != "tensorrt-internal-assertion":
        assert_answered(kb, message, named, entry=entry)
        return
    # the bare internal-assertion card: judged not specific by hand (s32h-lso) and by the judge since s32j
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == entry
    assert_advice(top, named, judged_specific=False)
    assert specific(top)[1].startswith("a frame entry")


def test_the_newer_parser_s_plugin_fallback_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    """The parser that tries a plugin first says so; its line is not the older parser's hard failure."""
    message = "[TRT] [I] No importer registered for op: GridSample. Attempting to import as plugin."
    assert kb.lookup(message, top=1)[0].entry.id == "tensorrt-no-importer-registered-for-op"


@pytest.mark.parametrize("message", [c[0] for c in CAPTURED_CASES[:2]], ids=["force-exit", "cask"])
def test_a_log_scan_reports_the_line_in_noise(kb: KnowledgeBase, message: str) -> None:
    log = "INFO loading model\n" + message + "\nINFO done\n"
    problems = scan_log(io.StringIO(log), kb)
    assert [p.matches[0].entry.id for p in problems] == [
        CAPTURED_CASES[[c[0] for c in CAPTURED_CASES].index(message)][1]
    ]


def test_the_older_parser_s_unsupported_node_keeps_the_code_it_printed(kb: KnowledgeBase) -> None:
    """``[8]`` is the parser's ErrorCode kUNSUPPORTED_NODE: the entry that explains the line is keyed by that
    code, so the code stays among the answers (it does not push the code card out of the top three)."""
    message = CAPTURED_CASES[3][0]
    top = kb.lookup(message, top=3)
    assert top[0].entry.id == "tensorrt-no-importer-registered-unsupported-node"
    assert "trt:UNSUPPORTED_NODE" in top[0].entry.keys


# ---- s24g: demo/Diffusion's 'Failed to build TensorRT engine. Error details: Command: polygraphy
# convert ...' repeats the command only; TensorRT's own error line printed above it answers first ----


def test_the_demo_build_failure_answers_after_the_tensorrt_error_printed_above_it(kb: KnowledgeBase) -> None:
    text = (
        "[E] 1: [ltWrapper.cpp::CublasLtWrapper::70] Error Code 1: Cublas (Could not initialize cublasLt. "
        "Please check CUDA installation.)\n"
        "RuntimeError: Failed to build TensorRT engine. Error details:\n"
        "Command: polygraphy convert zz_onnx/clip.opt/model.onnx --convert-to trt --output zz.plan"
    )
    ranked = [m.entry.id for m in kb.lookup(text, top=3)]
    assert ranked[0] == "tensorrt-s24g-cublaslt-init-failed"
    assert "tensorrt-s24g-demo-engine-build-command-failed" in ranked[1:]


# ---- s26h: torch2trt (NVIDIA-AI-IOT): its converters' own texts (torch2trt/converters/
# unimplemented_converters.py, torch2trt/torch2trt.py, torch2trt/misc_utils.py), made-up ops and values ----

TORCH2TRT_CASES: list[Case] = [
    (
        "Warning: Encountered known unsupported method torch.Tensor.new_zeros",
        "tensorrt-torch2trt-unsupported-method",
        ("torch.Tensor.new_zeros",),
    ),
    (
        '  File "/opt/torch2trt/torch2trt/converters/Conv.py", line 30, in convert_Conv\n'
        "    layer = ctx.network.add_convolution_nd(input=input._trt, num_output_maps=out_channels,\n"
        "AttributeError: 'Tensor' object has no attribute '_trt'",
        "tensorrt-torch2trt-no-trt-tensor",
        ("add_missing_trt_tensors",),
    ),
    (
        "TypeError: torch.float64 is not supported by tensorrt",
        "tensorrt-torch2trt-dtype-not-supported",
        ("torch.float64",),
    ),
    (
        "ValueError: Dataset must have at least one element to use for inference.",
        "tensorrt-torch2trt-empty-dataset",
        ("int8_calib_dataset",),
    ),
    (
        "ValueError: Dataset cannot have multiple shapes when using DLA",
        "tensorrt-torch2trt-dla-multiple-shapes",
        ("DLA",),
    ),
]
test_torch2trt_texts_are_answered_by_their_entry = answered_by_entry(TORCH2TRT_CASES, confident=True)


def test_torch2trt_s_package_path_marks_tensorrt(kb: KnowledgeBase) -> None:
    """A Python error raised inside a torch2trt converter, with no TensorRT word in it but the package's
    path, is told to be TensorRT's (torch2trt builds TensorRT networks)."""
    text = (
        '  File "/home/u/torch2trt/torch2trt/converters/getitem.py", line 51, in convert_tensor_getitem\n'
        "    output_trt = ctx.network.add_slice(input_trt, starts, sizes, strides).get_output(0)\n"
        "IndexError: tuple index out of range"
    )
    assert kb.lookup(text, top=1)[0].entry.family == "tensorrt"


LOOKUP_CAPTURE_CASES = [
    (
        "AttributeError: 'NoneType' object has no attribute 'create_execution_context'",
        "tensorrt-python-engine-is-none",
        {"option": "create_execution_context"},
    ),
]

test_the_source_form_is_looked_up_with_its_captures = looked_up_with_captures(LOOKUP_CAPTURE_CASES)


FIRST_VALUE_CASES = [
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Tensor 'input_ids' has invalid shape (6000), expected in range "
        "min (1), max (4096) (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:512)",
        "tensorrt-s30d-trtllm-tensor-shape-outside-profile",
        {"tensor": "input_ids", "shape": "(6000)", "shape2": "(1)", "shape3": "(4096)"},
    ),
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: prompt_embedding_table: expected type 1, "
        "provided type 7 (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:498)",
        "tensorrt-s30d-trtllm-input-dtype-mismatch",
        {"tensor": "prompt_embedding_table", "value": "1", "value2": "7"},
    ),
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Input tensor 'host_runtime_perf_knobs' not found; expected "
        "shape: (16) (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:472)",
        "tensorrt-s30d-trtllm-input-tensor-not-found",
        {"tensor": "host_runtime_perf_knobs", "shape": "(16)"},
    ),
    (
        '  File "infer.py", line 31, in allocate_buffers\n    stream = cuda.Stream()\n'
        "pycuda._driver.LogicError: explicit_context_dependent failed: invalid device context - no currently "
        "active context?",
        "tensorrt-s30d-pycuda-no-active-context",
        {"call": "explicit_context_dependent"},
    ),
    (
        "pycuda._driver.LogicError: cuMemcpyHtoDAsync failed: invalid argument",
        "tensorrt-s30d-pycuda-memcpy-invalid-argument",
        {"call": "cuMemcpyHtoDAsync"},
    ),
    (
        "[TRT] [W] CUDA initialization failure with error: 35. Please check your CUDA installation\n"
        "    runtime = trt.Runtime(TRT_LOGGER)\n"
        "TypeError: pybind11::init(): factory function returned nullptr",
        "tensorrt-s30d-python-factory-nullptr",
        {},
    ),
    (
        "[TRT] [E] 6: [cudaDriverHelpers.cpp::operator()::29] Error Code 6: Internal Error (CUDA driver is a "
        "stub library)",
        "tensorrt-s30d-cuda-driver-stub",
        {},
    ),
    (
        "ImportError: libnvinfer.so.10: cannot open shared object file: No such file or directory",
        "tensorrt-s30d-libnvinfer-missing",
        {"lib": "libnvinfer.so.10"},
    ),
    (
        "RuntimeError: [Error thrown at core/partitioning/shape_analysis.cpp:183] Unable to process subgraph "
        "input type of at::kLong/at::kDouble, try to compile model with truncate_long_and_double enabled",
        "tensorrt-s31d-torchtrt-long-double-input",
        {},
    ),
    (
        "WARNING: [Torch-TensorRT] - Truncating intermediate graph input type from at::kDouble to at::kFloat",
        "tensorrt-s31d-torchtrt-truncating-input-type",
        {"dtype": "at::kDouble", "dtype2": "at::kFloat"},
    ),
    (
        "WARNING: [Torch-TensorRT] - Unable to read CUDA capable devices. Return status: 100",
        "tensorrt-s31d-torchtrt-cuda-devices-unreadable",
        {"value": "100"},
    ),
    (
        "WARNING:torch_tensorrt.dynamo.conversion.aten_ops_converters:Unable to import quantize op. Please "
        "install modelopt library (https://github.com/NVIDIA/TensorRT-Model-Optimizer) to add support for "
        "compiling quantized models",
        "tensorrt-s31d-torchtrt-modelopt-optional-warning",
        {"value": "quantize"},
    ),
    (
        "ImportError: The provided model is quantized by ModelOpt, but ModelOpt is not installed.",
        "tensorrt-s31d-torchtrt-modelopt-not-installed",
        {},
    ),
    (
        "RuntimeError: TensorRT build_serialized_network returned None; engine build failed.",
        "tensorrt-s31d-torchtrt-build-returned-none",
        {},
    ),
    (
        "RuntimeError: TensorRT requires all outputs to be Tensor!",
        "tensorrt-s31d-torchtrt-outputs-not-tensors",
        {},
    ),
    (
        "RuntimeError: [Error thrown at core/runtime/TRTEngine.cpp:170] Expected most_compatible_device to "
        "be true but got false\nNo compatible device was found for instantiating TensorRT engine",
        "tensorrt-s31d-torchtrt-no-compatible-device",
        {},
    ),
    (
        "AttributeError: 'IExecutionContext' object has no attribute 'execute_async_v2'",
        "tensorrt-s31d-trt10-removed-api-any-module",
        {"cls": "IExecutionContext", "option": "execute_async_v2"},
    ),
    (
        "&&&& FAILED TensorRT.trtexec [TensorRT v100300] # trtexec --onnx=det.onnx --fp16",
        "tensorrt-s31d-trtexec-failed-summary",
        {"value": "100300"},
    ),
    (
        "[TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp (/app/tensorrt_llm/cpp/tensorrt_llm/"
        "runtime/worldConfig.cpp:91)",
        "tensorrt-s31d-trtllm-mpi-size-check-bare",
        {},
    ),
    (
        "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: Input length (3900) + max new tokens (512) + "
        "draft tokens (0) must be less than max sequence length (4096).",
        "tensorrt-s31d-trtllm-input-exceeds-max-seq-len",
        {"value": "3900", "value2": "512", "value4": "4096"},
    ),
    (
        "AssertionError: ('The value updated is not the same shape as the original. ', 'Updated: (1024, "
        "4096), original: (4096, 4096)')",
        "tensorrt-s31d-trtllm-weight-shape-mismatch",
        {"shape": "(1024, 4096)", "shape2": "(4096, 4096)"},
    ),
]

test_the_source_form_is_answered_with_its_values = in_top3_with_values(FIRST_VALUE_CASES)
test_the_entry_answers_first_with_its_values_quoted = first_with_values(FIRST_VALUE_CASES)


def test_none_engine_entry_needs_a_tensorrt_attribute(kb) -> None:  # type: ignore[no-untyped-def]
    entry = entry_by_id(kb, "tensorrt-python-engine-is-none")
    other = "AttributeError: 'NoneType' object has no attribute 'shape'"
    assert entry.search(other) is None
    assert all(
        m.entry.id != entry.id for m in kb.lookup(other, top=5)
    )  # no partial match of any NoneType text


TRT_CUDA = "[11/02/2025-10:00:00] [TRT] [E] 1: [runner.cpp::execute::416] Error Code 1: Cuda Runtime ({})"


CUDA_TEXTS = ("an illegal memory access was encountered", "invalid argument", "out of memory")


@pytest.mark.parametrize("cuda", CUDA_TEXTS)
def test_the_trt_cuda_runtime_line_answers_before_the_cuda_text_it_frames(
    kb: KnowledgeBase, cuda: str
) -> None:
    text = TRT_CUDA.format(cuda)
    ranked = kb.lookup(text, top=4)
    assert ranked[0].entry.id == "tensorrt-cuda-runtime-error"
    assert dict(ranked[0].captures)["arg"] == cuda
    ids = [m.entry.id for m in ranked]
    if "runtime-cuda-illegal-address" in ids:  # the CUDA text's own entry stays in the answer, under it
        assert ids.index("runtime-cuda-illegal-address") > 0


@pytest.mark.parametrize("cuda", CUDA_TEXTS)
def test_the_trt_cuda_runtime_line_without_its_markers_is_still_tensorrt(
    kb: KnowledgeBase, cuda: str
) -> None:
    """Markers and codes blanked (the wording proxy): '1: Cuda Runtime (' is TensorRT's own wording."""
    text = blank_markers(TRT_CUDA.format(cuda) + "\nSegmentation fault (core dumped)")
    assert "Error Code" not in text and "[TRT]" not in text
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tensorrt-cuda-runtime-error", top.entry.id


def test_framing_moves_only_runtime_matches_inside_a_tool_match(kb: KnowledgeBase) -> None:
    """Two lines side by side: the CUDA text on its own line is not inside TensorRT's match, so it keeps
    its score; inside the line it goes just under TensorRT's match."""
    alone = "RuntimeError: CUDA error: an illegal memory access was encountered"
    text = TRT_CUDA.format("invalid argument") + "\n" + alone
    matches = kb.lookup(text, top=10)
    framed = {m.entry.id: m.score for m in framed_runtime_under(matches, text)}
    before = {m.entry.id: m.score for m in matches}
    assert framed.get("runtime-cuda-illegal-address") == before.get("runtime-cuda-illegal-address")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["segfault", "illegal", "trt", "noise"]), min_size=1, max_size=4))
def test_framing_never_moves_a_tool_match_and_keeps_the_order_of_tools(
    kb: KnowledgeBase, parts: list[str]
) -> None:
    lines = {
        "segfault": "Segmentation fault (core dumped)",
        "illegal": "CUDA error: an illegal memory access was encountered",
        "trt": TRT_CUDA.format("an illegal memory access was encountered"),
        "noise": "[I] loading weights",
    }
    text = "\n".join(lines[p] for p in parts)
    matches = kb.lookup(text, top=10)
    out = framed_runtime_under(matches, text)
    assert [m.entry.id for m in out] == [m.entry.id for m in matches]
    for a, b in zip(matches, out, strict=True):
        if a.entry.family not in ("runtime",):
            assert a.score == b.score
    tools = {m.score for m in out if m.entry.family == "tensorrt" and "pattern" in m.reason.split("+")}
    for before, after in zip(matches, out, strict=True):
        if after.score != before.score:  # moved: only down, to just under a TensorRT pattern match
            assert after.score < before.score and after.score + 1.0 in tools


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "[E] [TRT] 1: [myelinVersionMismatch] myelinVersionMismatch : Compiled against cuBLASLt "
            "12.3.4.1 but running against cuBLASLt 12.1.3.1.",
            "12.1.3.1",
        ),
        (
            "[TRT] [E] 3: [executionContext.cpp::setTensorAddress::123] Error Code 3: API Usage Error "
            "(Parameter check failed, condition: Given invalid tensor name: input0. Get valid tensor names "
            "with getIOTensorName())",
            "input0",
        ),
        (
            "[TRT] [E] 1: [caskBuilderUtils.cpp::trtSmToCask::114] Error Code 1: Internal Error (Target GPU "
            "SM 61 is not supported by this TensorRT release.)",
            "SM 61",
        ),
    ],
)
def test_texts_a_reason_clause_answers_need_no_entry_of_their_own(
    kb: KnowledgeBase, text: str, value: str
) -> None:
    """s28d's entries for these took the clauses' answers; the clauses still answer them under the card."""
    top = kb.lookup(text, top=1)[0]
    assert "+" in top.entry.id, top.entry.id  # a card refined by a clause
    assert value in top.cause
    assert not any(e.id.startswith("tensorrt-s28d-") for e in kb.entries)


#: A message its subcase was not written for: the general entry (or another case's) answers, the subcase's
#: pattern does not match.
KEEPS_ITS_ENTRY = [
    (
        "[TRT] [E] 1: [defaultAllocator.cpp::deallocate::42] Error Code 1: Cuda Runtime (an illegal memory "
        "access was encountered)",
        "tensorrt-cuda-runtime-error",
        "tensorrt-s29g-cuda-unspecified-launch-failure",
    ),
    (
        # Without the deserialization line the ONNX parser's fallback importer is the reading.
        "[TRT] ERROR: INVALID_ARGUMENT: getPluginCreator could not find plugin GridSample_TRT version 1",
        "tensorrt-getplugincreator-could-not-find-plugin",
        "tensorrt-s30f-deserialize-plugin-not-registered",
    ),
]

test_a_lookalike_keeps_its_entry_and_not_the_subcase = keeps_its_entry(KEEPS_ITS_ENTRY)


def test_another_parameter_check_is_not_the_null_blob(kb: KnowledgeBase) -> None:
    message = "Parameter check failed at: engine.cpp::enqueueV3::2761, condition: bindings[x] != nullptr"
    assert "tensorrt-s29g-deserialize-null-blob" not in pattern_ids(kb, message)


def test_the_nullptr_text_alone_is_no_confident_tensorrt_answer(kb: KnowledgeBase) -> None:
    """pybind11 prints it for any binding's constructor: alone it is no TensorRT message (named_only)."""
    answer = kb.answer("TypeError: pybind11::init(): factory function returned nullptr", top=3)
    assert not answer.confident


def test_the_profile_sentence_cut_after_but_is_still_the_profile_entry(kb: KnowledgeBase) -> None:
    for text in (
        "[E] Network has dynamic or shape inputs, but no optimization profile has been defined.",
        "[E] Network has dynamic or shape inputs, but",
    ):
        assert kb.lookup(text, top=1)[0].entry.id == "tensorrt-no-optimization-profile"


_NAME = st.from_regex(r"[A-Za-z_](?:[A-Za-z0-9_./:]{0,40}[A-Za-z0-9_])?", fullmatch=True)


@settings(max_examples=40, deadline=None)
@given(name=_NAME, got=st.integers(1, 10**6), low=st.integers(1, 64), high=st.integers(1, 10**6))
def test_the_trtllm_shape_capture_stops_at_each_value(
    kb: KnowledgeBase, name: str, got: int, low: int, high: int
) -> None:
    text = (
        f"[TensorRT-LLM][ERROR] Tensor '{name}' has invalid shape ({got}), expected in range min ({low}), "
        f"max ({high}) (/src/cpp/tensorrt_llm/runtime/tllmRuntime.cpp:1)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tensorrt-s30d-trtllm-tensor-shape-outside-profile"
    caps = dict(top.captures)
    assert (caps["tensor"], caps["shape"], caps["shape2"], caps["shape3"]) == (
        name,
        f"({got})",
        f"({low})",
        f"({high})",
    )


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        (
            "AttributeError: 'tensorrt_bindings.tensorrt.ICudaEngine' object has no attribute 'num_bindings'",
            "tensorrt-s31d-trt10-removed-api-any-module",
        ),
        (
            "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, "
            "npu:1 and npu:0!",
            "ascend-s31d-torch-npu-tensors-on-two-devices",
        ),
        (
            "RuntimeError: [ONNXRuntimeError] External data path for model loaded from bytes escapes working "
            "directory.",
            "onnxruntime-s31d-external-data-escapes-model-dir",
        ),
    ],
)
def test_the_source_forms_keep_their_entry_with_the_markers_blanked(
    kb: KnowledgeBase, message: str, entry: str
) -> None:
    """The wording proxy: with the tool names blanked the message's own sentence still finds its entry."""
    assert kb.lookup(blank_markers(message), top=1)[0].entry.id == entry


def test_an_attribute_error_of_another_class_is_not_the_tensorrt_api_answer(kb: KnowledgeBase) -> None:
    """The removed names are read on TensorRT's own classes only."""
    text = "AttributeError: 'Trainer' object has no attribute 'execute_async_v2'"
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert "tensorrt-s31d-trt10-removed-api-any-module" not in ids


def test_the_summary_and_step_lines_are_generic_consequences(kb: KnowledgeBase) -> None:
    """trtexec's FAILED line, Torch-TensorRT's 'returned None' and ExecuTorch's step line only report the
    outcome: after the tool's own error they leave the first place to the entry of that error."""
    text = (
        "[06/01/2024-10:00:00] [E] [TRT] 4: [network.cpp::validate::3062] Error Code 4: Internal Error "
        "(Network has dynamic or shape inputs, but no optimization profile has been defined.)\n"
        "&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=model.onnx"
    )
    assert kb.lookup(text, top=1)[0].entry.id == "tensorrt-no-optimization-profile"
    for entry in (
        "tensorrt-s31d-trtexec-failed-summary",
        "tensorrt-s31d-torchtrt-build-returned-none",
        "qualcomm-s31d-executorch-qnn-step-failed",
    ):
        found = next(e for e in kb.entries if e.id == entry)
        assert found.generic and found.consequence


_SHAPE = st.lists(st.integers(1, 65536), min_size=1, max_size=4).map(
    lambda d: "(" + ", ".join(map(str, d)) + ")"
)


@settings(max_examples=40, deadline=None)
@given(updated=_SHAPE, original=_SHAPE)
def test_the_trtllm_weight_shapes_are_captured_whole(kb: KnowledgeBase, updated: str, original: str) -> None:
    text = (
        "AssertionError: The value updated is not the same shape as the original. "
        f"Updated: {updated}, original: {original}"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tensorrt-s31d-trtllm-weight-shape-mismatch"
    assert dict(top.captures) == {"shape": updated, "shape2": original}


@settings(max_examples=40, deadline=None)
@given(prompt=st.integers(1, 10**6), new=st.integers(1, 10**5), limit=st.integers(1, 10**6))
def test_the_trtllm_lengths_are_captured(kb: KnowledgeBase, prompt: int, new: int, limit: int) -> None:
    text = (
        f"[TensorRT-LLM][ERROR] Assertion failed: Input length ({prompt}) + max new tokens ({new}) must be "
        f"less than max sequence length ({limit})."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "tensorrt-s31d-trtllm-input-exceeds-max-seq-len"
    captures = dict(top.captures)
    assert (captures["value"], captures["value2"], captures["value4"]) == (str(prompt), str(new), str(limit))
