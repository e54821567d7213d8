"""The family markers: what only one tool prints, with where each was read.

Each family maps to ``(marker, weight)`` pairs; a marker is a lower-case literal found with a
plain ``in`` test (no regular expression).  Weights:

* :data:`STRONG` (3): only this tool prints it (its log prefix, exception class, C++
  namespace, source-tree path, CLI or API name, a sentence of its own);
* :data:`MEDIUM` (2): almost only this tool (a generic-looking log format it uses, a word
  another tool could print in passing); two of them, or one with a weak one, name the tool;
* :data:`WEAK` (1): a word the tool's messages often carry but others may too.

Markers in :data:`WHOLE_WORDS` count only as a whole word (letters and digits around them do
not continue it): ``cann`` must not be found in "cannot", ``opp`` in "stopped", ``ngraph`` in
Ascend's "RunGraphAsync".

Sources are named per family below (repository paths read at the commits named in the issue
12 notes; Qualcomm's SDK is closed, so its markers come from its public docs and user logs).
"""

from __future__ import annotations

STRONG = 3
MEDIUM = 2
WEAK = 1

Markers = tuple[tuple[str, int], ...]

_ASCEND: Markers = (
    ("atc run failed", STRONG),
    ("ascend", WEAK),
    ("aclrt", STRONG),
    ("aclnn", STRONG),
    ("acl error", STRONG),
    ("acl api failed", STRONG),
    ("torch_npu", STRONG),
    # torch_npu's operator plugin (Ascend/op-plugin): its build paths in torch_npu's C++ stack lines
    # ("Exception raised from OperationSetup at build/third_party/op-plugin/op_plugin/...")
    ("op_plugin", STRONG),
    ("npu function error", STRONG),
    ("hccl", STRONG),
    ("hcom", WEAK),
    ("mindie", STRONG),
    # MindIE-LLM's model package, ATB Models (Ascend Transformer Boost): its Python modules in tracebacks
    # ("atb_llm/runner/model_runner.py", "atb_llm.models...") and in MindIE's own messages about them.
    ("atb_llm", STRONG),
    # Session s20d: msprobe, the accuracy tool of Ascend's mstt (debug/accuracy_tools/msprobe): its exceptions
    # "[msprobe] ..." prefix (core/common/exceptions.py) and its package in tracebacks (msprobe.core...,
    # msprobe.pytorch..., msprobe.mindspore...).
    ("[msprobe]", STRONG),
    ("msprobe.", STRONG),
    ("[func:", STRONG),
    ("[file:", WEAK),
    ("retcode=0x", WEAK),
    ("errorno:", WEAK),
    ("tefusion", STRONG),
    ("aicore", STRONG),
    ("aicpu", STRONG),
    ("cann", WEAK),
    ("acl set device", STRONG),
    ("acl init", STRONG),
    ("pta call", STRONG),
    ("--soc_version", STRONG),
    ("om model", WEAK),
    ("npu-smi", STRONG),
    ("opp", WEAK),
    ("tbe", WEAK),
    # Issue 23, round 9: AscendCL's aclGetRecentErrMsg (acl/acl_base.h) as torch_npu and the samples print it
    # ("[ERROR] RecentErrMsg: ..."), torch_npu's check macros (torch_npu/csrc/core/npu/NPUException.h:
    # "NPU error, error code is N", NPU_CHECK_WARN's "NPU warning, error code is N") and its stream class.
    ("recenterrmsg", STRONG),
    ("npu error, error code is", STRONG),
    ("npu warning, error code is", STRONG),
    ("npustream", STRONG),
    # Issue 23, round 14: torch_npu's message when an asynchronously launched task failed
    # (torch_npu/csrc/core/npu/NPUQueue.cpp: "The Inner error is reported as above. The process exits for this
    # inner error, and the current working operator name is <op>." then "Since the operator is called
    # asynchronously, the stacktrace may be inaccurate. ... set the environment variable
    # ASCEND_LAUNCH_BLOCKING=1."), often pasted without the EZ/EE code line above it.
    ("the inner error is reported as above", STRONG),
    ("the process exits for this inner error", STRONG),
    ("ascend_launch_blocking", STRONG),
    # Issue 23, round 16: torch_npu's caching allocator (torch_npu/csrc/core/npu/NPUCachingAllocator.cpp:
    # "NPU out of memory. Tried to allocate <size> (NPU <n>; ...)", and the "more than 1EB memory" size check
    # the device plugins copy from PyTorch's CUDACachingAllocator with their own device name), and MindSpore's
    # Ascend runtime (AscendKernelRuntime::Init: "Ascend kernel runtime initialization failed. The details
    # refer to 'Ascend Error Message'.", the section under which it prints CANN's own error).
    ("npu out of memory. tried to allocate", STRONG),
    ("ascend kernel runtime", STRONG),
    ("'ascend error message'", STRONG),
    ("- ascend error message:", STRONG),
    # MindSpore when its Ascend device plugin does not load (mindspore/core/utils/ms_context.cc,
    # MsContext::SetDeviceTargetFromInner: "Unsupported device target Ascend. This process only supports one
    # of the [...]"; the plugin library is libmindspore_ascend.so.N).
    ("unsupported device target ascend", STRONG),
    ("libmindspore_ascend", STRONG),
    # Issue 23 (h23d3): MindSpore Lite's converter and runtime (converter_lite; the log paths
    # mindspore/lite/tools/converter/... and mindspore/lite/src/...), whose lines name the source framework
    # ("FMKTYPE: TFLITE, OP TYPE: ...") as well: the converter is the tool, not that framework.
    ("converter_lite", STRONG),
    ("mindspore/lite/", STRONG),
    # Branch s22d: converter_lite's own result line and flag checks (mindspore/lite/tools/converter/
    # converter.cc: "CONVERT RESULT FAILED:-500 Failed to infer shape.", "INPUT ILLEGAL: fmk must be
    # TF|TFLITE|CAFFE|MINDIR|ONNX": the framework names in them are the converter's choices, not the tool),
    # MindSpore Lite's Python package
    # (mindspore_lite, python/api/model.py), and msit's compare tool (Ascend/msit components/debug/compare:
    # the msquickcmp package, its AccuracyCompareException).
    ("convert result failed", STRONG),
    ("input illegal:", STRONG),
    ("mindspore_lite", STRONG),
    ("msquickcmp", STRONG),
    ("accuracycompareexception", STRONG),
    # Branch s19d: CANN's device/host log (plog, dlog) line prefix "[LEVEL] MODULE(pid,process):timestamp
    # [file.cc:line]", as GE, the runtime, AscendCL, FE and the TBE compiler print it ("[ERROR] GE(12345,
    # atc.bin):2024-01-01-10:00:00.000.000 [graph_prepare.cc:100]..."; the module names are those of CANN's
    # slog module table, the enum of toolchain/slog.h in the CANN headers).  Only the level plus module plus
    # the "(" opening the pid is taken: a bare "GE(" or "FE(" is too short to be CANN's alone.
    ("[error] ge(", STRONG),
    ("[warning] ge(", STRONG),
    ("[error] ascendcl(", STRONG),
    ("[error] fe(", STRONG),
    ("[error] tbe(", STRONG),
    ("[error] drv(", STRONG),
    ("[error] runtime(", STRONG),
    # Branch s20g: Huawei's MindX SDK (mxVision), the application SDK over AscendCL: its model and stream
    # classes as its logs name them ("MxOmModelDesc.cpp:855] [507011][Error code unknown] Failed to model
    # infer execute", MxBase::, MxStreamManager, the mxpi_* plugins' sources).
    ("mxomodeldesc", STRONG),
    ("mxbase", STRONG),
    ("mxstreammanager", STRONG),
    ("mxvision", STRONG),
    # Branch s26c: npu-smi's two DCMI start-up failures (the driver's npu_smi.c handle_dcmi_initialization:
    # "dcmi model initialized failed, because the device is used. ret is %d", "dcmi module initialize failed.
    # ret is %d"), CANN's operator API library that torch_npu's op-plugin opens
    # (op_plugin/utils/op_api_common.h GetOpApiLibName: "libopapi.so"; only CANN ships it), and the file name
    # torch_npu's C++ messages carry
    # for their source location (its build reports __FILE__ as CMake's "compiler_depend.ts": "[W
    # compiler_depend.ts:387] Warning: ...", "<func>:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218
    # ..."): a CMake file name another CMake-built library could print, so medium.
    ("dcmi model initialized failed", STRONG),
    ("dcmi module initialize failed", STRONG),
    ("libopapi", STRONG),
    ("compiler_depend.ts:", MEDIUM),
    # Branch s29e: CANN's aclnn binary loader (hicann/opbase src/nnopbase: its functions name the stack lines
    # "Check NnopbaseCollecterWork(...) failed", and the kernel package's binary_info_config.json it reads),
    # and Ascend's NIC tool that HCCL's link checks and their advice name (hccn_tool -i <dev> -link -g).
    ("nnopbase", STRONG),
    ("binary_info_config.json", STRONG),
    ("hccn_tool", STRONG),
)

_RKNN: Markers = (
    ("e rknn:", STRONG),
    ("rknn_", STRONG),
    ("rknn.api", STRONG),
    ("rknn toolkit", STRONG),
    ("rknnlib", STRONG),
    ("rknpu", STRONG),
    ("rknnapi", STRONG),
    ("rknn", WEAK),
    ("load_onnx", WEAK),
    ("init_runtime", WEAK),
    ("rknn_op_support", STRONG),
    ("e load_onnx:", STRONG),
    ("e build:", STRONG),
    ("e init_runtime:", STRONG),
    ("e export_rknn:", STRONG),
    ("e config:", STRONG),
    ("e inference:", STRONG),
    ("w load_onnx:", STRONG),
    ("need <= 12", WEAK),
    ("failed to config layer: '", STRONG),
    # Issue 23, round 9: rknn-toolkit(2)'s API wrapper (rknn/api/rknn_base.py: "Catch exception when building
    # RKNN model!", "... when init runtime!", "... when loading onnx model: <path>!") and load_onnx's opset
    # check ("Unsupport onnx opset N, need <= 12!").
    ("catch exception when ", STRONG),
    ("unsupport onnx opset", STRONG),
    # Issue 23, round 14: the RKNN logger's other levels ("D RKNN: [hh:mm:ss.mmm] ...", "I RKNN: [...]",
    # "W RKNN: [...]", the toolkit's build log and librknnrt alike) and the compiler's C++ namespace
    # ("rknn::RKNNAllocateConvCachePass"): a build log that ends in a bare C++ exception names the tool
    # only there.
    ("d rknn: [", STRONG),
    ("i rknn: [", STRONG),
    ("w rknn: [", STRONG),
    ("rknn::", STRONG),
    # Issue 23, round 16: RKLLM, Rockchip's LLM runtime on the same NPU (airockchip/rknn-llm: the API of
    # rkllm-runtime/Linux/librkllm_api/include/rkllm.h, rkllm_init / rkllm_run / rkllm_destroy /
    # rkllm_createDefaultParam, its library librkllmrt.so, the runtime's "I rkllm: rkllm-runtime version"
    # logger and the API demo's "rkllm init start" / "rkllm init failed" in examples/rkllm_api_demo).
    ("rkllm", STRONG),
    # Issue 23 (h23u2): the toolkit's board-transfer client (rknn-toolkit2 2.5.0's rknn/api/lib/linux-x86_64/
    # librknn_api.so: "I NPUTransfer(%d): Starting NPU Transfer Client, Transfer version ...", "E
    # NPUTransfer(%d): Alloc buffer failed!"), which every connected-board run (init_runtime(target=...))
    # logs.
    ("nputransfer", STRONG),
    # Issue 23, round 21 (h23v2): the runtime libraries the toolkit's init_runtime and the C API load.
    # librknnrt.so is RKNPU2's runtime (airockchip/rknn-toolkit2:
    # rknpu2/runtime/Linux/librknn_api/*/librknnrt.so, the library rknn-toolkit-lite2 loads) and only Rockchip
    # ships it.  The RK1808/RV1109/RV1126 stack of
    # rockchip-linux/rknpu (drivers/linux-aarch64/usr/lib: libOpenVX.so.1.2, libGAL.so, libVSC.so,
    # libArchModelSw.so, libNNArchPerf.so, and the kernel module drivers/npu_ko/galcore.ko) is VeriSilicon's
    # Vivante NPU driver, which Amlogic's and NXP's NPUs load too: weak, a word an RKNN log carries.
    ("librknnrt", STRONG),
    ("libopenvx", WEAK),
    ("galcore", WEAK),
    # Branch s22g: the toolkit's logger prefixes every line with its level and the API method that printed it
    # (rknn-toolkit2 2.5.0 wheel, rknn/api/rknn_log: error_catch_decorator's "E <func>:"; the methods of
    # rknn/api/rknn_base): the loaders of the other formats, the analysis calls and the warning level of the
    # steps above.  "E load_tflite:" is RKNN's line about a TFLite model, not TFLite's own.
    ("e load_tflite:", STRONG),
    ("w load_tflite:", STRONG),
    ("e load_pytorch:", STRONG),
    ("w load_pytorch:", STRONG),
    ("e load_tensorflow:", STRONG),
    ("w load_tensorflow:", STRONG),
    ("e load_caffe:", STRONG),
    ("e load_darknet:", STRONG),
    ("e load_rknn:", STRONG),
    ("e accuracy_analysis:", STRONG),
    ("e eval_perf:", STRONG),
    ("e eval_memory:", STRONG),
    ("e hybrid_quantization_step", STRONG),
    ("w build:", STRONG),
    ("w config:", STRONG),
    ("w init_runtime:", STRONG),
    ("w inference:", STRONG),
    # Session s28b: the RKNN compiler's pass trace at its debug level (rknn-toolkit2 2.5.0's
    # rknn/api/lib/linux-x86_64/librknnc.so: ">>>>>> start: %s" and "<<<<<<<< end: %s" around each pass,
    # "rknn::RKNNAllocateConvCachePass"), the last lines before a compiler crash; and the toolkit's fusing
    # progress bar ("I OpFusing 0 : 100%|...", one per fusing round of build()).
    (">>>>>> start: ", STRONG),
    ("<<<<<<<< end: ", STRONG),
    ("i opfusing", MEDIUM),
    # Session s29b: config()/load_onnx() parameter names only RKNN-Toolkit2 takes, which its checks print
    # ("Invalid operands name '...' in custom_quantize_layers!", "Inputs_yuv_fmt only available in ...",
    # "The size of 'input_initial_val' needs to be the same as 'inputs'!"; rknn/api/rknn.py's docstrings), and
    # Rockchip's board-transfer proxy ("Start npu_transfer_proxy failed."; rknn/api/rknn_platform).
    ("custom_quantize_layers", STRONG),
    ("inputs_yuv_fmt", STRONG),
    ("input_initial_val", STRONG),
    ("npu_transfer_proxy", STRONG),
)

_TENSORRT: Markers = (
    ("[trt]", STRONG),
    ("nvinfer1::", STRONG),
    ("tensorrt", WEAK),
    ("trtexec", STRONG),
    ("modelimporter.cpp", STRONG),
    ("builtin_op_importers", STRONG),
    ("ibuilder::", STRONG),
    ("buildserializednetwork", STRONG),
    ("while parsing node number", STRONG),
    ("unnamed layer*", STRONG),
    ("foreignnode", STRONG),
    ("onnx-tensorrt", STRONG),
    ("onnxtrt_", STRONG),
    ("error code ", WEAK),
    ("engine could not be created", STRONG),
    ("create_execution_context", STRONG),
    ("deserialize_cuda_engine", STRONG),
    ("importmodel", WEAK),
    ("deserializeonnxmodel", STRONG),
    ("[e] error[", STRONG),
    ("tensorrt engine", STRONG),
    # Issue 23: the Python API's logger of TensorRT 7/8 ("[TensorRT] ERROR: ...", NVIDIA's samples/python
    # common.py TRT_LOGGER output), the Python package of TensorRT 8.6+ ("tensorrt_bindings.tensorrt"),
    # TensorRT-LLM's loggers (cpp/tensorrt_llm/common: "[TensorRT-LLM][ERROR] ...", tensorrt_llm/logger.py:
    # "[TRT-LLM]"), and TensorRT's internal error location "[<file>.cpp::<function>::<line>]" (only its
    # "::" after the file name; other tools print "<file>.cpp:<line>").
    ("[tensorrt]", STRONG),
    ("tensorrt_bindings", STRONG),
    # Branch s27f: MMDeploy's TensorRT plugins (open-mmlab/mmdeploy: csrc/mmdeploy/backend_ops/tensorrt/,
    # csrc/backend_ops/tensorrt/ before 0.5), whose assertions print their source path.
    ("backend_ops/tensorrt/", STRONG),
    ("[tensorrt-llm]", STRONG),
    ("[trt-llm]", STRONG),
    # Branch s20e: TensorRT-LLM's Python package and CLIs as tracebacks and shell errors name them
    # (NVIDIA/TensorRT-LLM: tensorrt_llm/commands/build.py, serve.py, bench.py: the trtllm-build,
    # trtllm-serve and trtllm-bench entry points; its C++ exception type tensorrt_llm::common::TllmException).
    # NVIDIA's TensorRT stack: the tensorrt family, as its loggers above.
    ("tensorrt_llm", STRONG),
    ("trtllm-build", STRONG),
    ("trtllm-serve", STRONG),
    ("trtllm-bench", STRONG),
    ("tllmexception", STRONG),
    (".cpp::", MEDIUM),
    # Issue 23, round 8: TensorRT's own tools around the builder: trtexec (samples/trtexec/trtexec.cpp:
    # "Engine set up failed", samples/common/sampleEngines.cpp: "Failed to create engine from model or
    # file."), Polygraphy (tools/Polygraphy/polygraphy/backend/trt/loader.py, runner.py: "[!] Invalid Engine.
    # Please ensure the engine was built correctly", its PolygraphyException), the plugin registry's
    # "getPluginCreator could not find plugin" and the Myelin compiler TensorRT builds fused graphs with.
    ("engine set up failed", STRONG),
    ("failed to create engine from model", STRONG),
    ("building engine failed", MEDIUM),
    ("invalid engine. please ensure the engine was built", STRONG),
    ("polygraphyexception", STRONG),
    ("polygraphy", MEDIUM),
    ("getplugincreator could not find plugin", STRONG),
    ("myelin", STRONG),
    # Issue 23, round 9: onnx-tensorrt's ErrorCode names as its parser prints them ("In node N (importInputs):
    # UNSUPPORTED_NODE: Assertion failed: ...", onnx-tensorrt/ImporterContext.hpp, Status.hpp), its
    # importer's functions and asserts (ModelImporter.cpp: importInputs, convertOnnxWeights,
    # "tensors.count(input_name)"), TensorRT's internal location in a header ("[cgraph.h::func::line]", like
    # ".cpp::") and the builder's sentences (network validation, "no optimization profile has been defined").
    ("unsupported_node", STRONG),
    ("unsupported_graph", STRONG),
    ("model_deserialize_failed", STRONG),
    ("importinputs", STRONG),
    ("convertonnxweights", STRONG),
    ("convert_onnx_weights", STRONG),
    ("tensors.count(input_name)", STRONG),
    ("tensors().count(", STRONG),
    (".h::", MEDIUM),
    ("no optimization profile has been defined", STRONG),
    ("network validation failed", MEDIUM),
    # Issue 23 (h23n2): TensorRT's C++ API as its errors name it without any "[TRT]" or "Error Code"
    # prefix (NvInfer.h / NvInferRuntime.h: "IExecutionContext::enqueueV3: Error Code 1: ...",
    # "IBuilder::buildSerializedNetwork", "IRuntime::deserializeCudaEngine"; the TensorRT 8 API's
    # setMaxWorkspaceSize / buildEngineWithConfig / getBindingDimensions; NvOnnxParser.h's namespace), its
    # internal location in a CUDA header ("[genericReformat.cuh::executeMemcpy::1334]", like ".cpp::").
    ("iexecutioncontext::", STRONG),
    ("icudaengine::", STRONG),
    ("ibuilderconfig::", STRONG),
    ("inetworkdefinition::", STRONG),
    ("iruntime::", STRONG),
    ("nvonnxparser::", STRONG),
    ("deserializecudaengine", MEDIUM),
    ("buildenginewithconfig", MEDIUM),
    ("setmaxworkspacesize", MEDIUM),
    ("setmemorypoollimit", MEDIUM),
    ("getbindingdimensions", MEDIUM),
    ("setbindingdimensions", MEDIUM),
    (".cuh::", MEDIUM),
    # Torch-TensorRT (NVIDIA's PyTorch compiler to TensorRT engines): its logger's prefixes
    # ("[Torch-TensorRT] - ", "[Torch-TensorRT TorchScript Conversion Context] - ", "[Torch-TensorRT Plugins
    # Context] - ": core/util/logging/TorchTRTLogger.cpp, core/conversion/conversionctx) and its package
    ("[torch-tensorrt", STRONG),
    ("torch_tensorrt", STRONG),
    # torch2trt (NVIDIA-AI-IOT), the PyTorch-to-TensorRT converter of the Jetson examples: its package name
    # in paths and imports ("torch2trt/converters/Linear.py", "from torch2trt import torch2trt").
    ("torch2trt", STRONG),
    # Branch s19d: DeepStream's Gst-nvinfer, the TensorRT inference element of NVIDIA's video pipelines: its
    # context's log prefix and statuses ("NvDsInferContext[UID 1]: Error in NvDsInferContextImpl::buildModel()
    # <nvdsinfer_context_impl.cpp:1934>", "NvDsInfer Error: NVDSINFER_CONFIG_FAILED": sources/libs/nvdsinfer,
    # sources/includes/nvdsinfer.h) and the plugin's source file gstnvinfer.cpp.
    ("nvdsinfer", STRONG),
    ("gstnvinfer", STRONG),
    # Issue 23 (h23s2): the ONNX parser's other source files and namespace, which its assertion and warning
    # lines name ("onnx2trt_utils.cpp:374: Your ONNX model has been generated with INT64 weights...",
    # "parsers/onnx/ShapedWeights.cpp:171: Weights ... has been transposed", onnx2trt:: frames; onnx/
    # onnx-tensorrt: onnx2trt_utils.cpp, importerUtils.cpp, ShapedWeights.cpp, ShapeTensor.cpp,
    # onnxOpImporters.cpp, onnxOpCheckers.cpp, builtin_op_static_checkers.cpp, ImporterContext.cpp,
    # WeightsContext.cpp; its CLI onnx2trt), and the Myelin compiler's program check ("SSA validation FAIL:
    # tensor ...'s uses list size does not match", NVIDIA/TensorRT#2009, labelled Topic: Myelin).
    ("onnx2trt", STRONG),
    ("importerutils", STRONG),
    ("shapedweights", STRONG),
    ("shapetensor.cpp", STRONG),
    ("onnxopimporters", STRONG),
    ("onnxopcheckers", STRONG),
    ("builtin_op_static_checkers", STRONG),
    ("importercontext", STRONG),
    ("weightscontext", STRONG),
    ("ssa validation fail", STRONG),
    # the builder's DLA placement lines, often pasted without "[TRT]" ("Default DLA is enabled but layer X is
    # not supported on DLA, falling back to GPU.", "X: ActivationLayer (with ActivationType = LEAKY_RELU) not
    # supported for DLA.", NVIDIA/TensorRT#2318), and Torch-TensorRT's conversion context (core/conversion/
    # conversionctx/ConversionCtx.cpp, named by its TORCHTRT_CHECK "[Error thrown at core/conversion/
    # conversionctx/ConversionCtx.cpp:N]")
    ("default dla is enabled but", STRONG),
    ("not supported on dla", STRONG),
    ("not supported for dla", STRONG),
    ("(with activationtype =", STRONG),
    ("conversionctx", STRONG),
    # Branch s21e: TensorRT's run-time shape machine, the source file its shape checks name (TensorRT 7:
    # "shapeMachine.cpp (252) - Shape Error in operator(): ...", later
    # "[shapeMachine.cpp::executeContinuation::864] Error Code 7: ..."; libnvinfer_lean 11.4:
    # /_src/runtime/core/shapeMachine.cpp).
    ("shapemachine.cpp", STRONG),
    # Branch s30d: TensorRT's Python API as a traceback's source lines show it ("builder =
    # trt.Builder(logger)", "runtime = trt.Runtime(TRT_LOGGER)": the constructors NVIDIA's
    # samples/python/common.py and the TensorRT Python API docs use), whose pybind11 errors ("factory
    # function returned nullptr") name no tool.
    ("trt.builder(", STRONG),
    ("trt.runtime(", STRONG),
)

_ORT_ERROR_CODES = (
    "ort_fail",
    "ort_invalid_argument",
    "ort_no_suchfile",
    "ort_no_model",
    "ort_engine_error",
    "ort_runtime_exception",
    "ort_invalid_protobuf",
    "ort_model_loaded",
    "ort_not_implemented",
    "ort_invalid_graph",
    "ort_ep_fail",
)
_ONNXRUNTIME: Markers = (
    # its exception head "[ONNXRuntimeError]", also pasted without the brackets ("ONNXRuntimeError FAIL :")
    ("onnxruntimeerror", STRONG),
    ("[e:onnxruntime:", STRONG),
    ("[w:onnxruntime:", STRONG),
    ("onnxruntime/core/", STRONG),
    ("onnxruntime\\core\\", STRONG),
    ("onnxruntime_pybind11_state", STRONG),
    ("onnxruntime::", STRONG),
    # Issue 23, round 11: its Python package's own module folder (setup.py's package "onnxruntime.capi":
    # _pybind_state.py, _ld_preload.py, onnxruntime_inference_collection.py), which every traceback through
    # the Python API names, as a path with either separator
    ("onnxruntime/capi/", STRONG),
    ("onnxruntime\\capi\\", STRONG),
    ("executionprovider", STRONG),
    ("com.ms.internal", STRONG),
    ("protobuf parsing failed", STRONG),
    ("non-zero status code returned", STRONG),
    ("onnxruntime", WEAK),
    ("ortstatus", STRONG),
    ("ort::", WEAK),
    ("[errorcode:", STRONG),
    ("inferencesession", WEAK),
    ("status message:", WEAK),
    # Issue 23: onnxruntime's own vocabulary, read in onnxruntime's sources (include/onnxruntime/core/session/
    # onnxruntime_cxx_api.h: the C++ API's exception class; csharp/src/Microsoft.ML.OnnxRuntime: the C#
    # exception; core/framework/execution_frame.cc and session/inference_session.cc: the input checks'
    # sentences; core/graph/model.cc, graph.cc: load errors; core/framework/bfc_arena.cc,
    # sequential_executor.cc) and Triton's onnxruntime backend ("onnx runtime error N:",
    # src/onnxruntime_utils.cc).  The TensorRT EP's "TensorRT EP ..." sentences and "TRTKernel_graph" node
    # names were markers once and were dropped: they had been written while a thread quoting a held-out
    # message was in view (tests/data/explain/README.md); the EP is still named by "ExecutionProvider".
    ("ort::exception", STRONG),
    ("microsoft.ml.onnxruntime", STRONG),
    ("onnxruntimeexception", STRONG),
    ("please fix either the inputs", STRONG),
    ("got invalid dimensions for input", STRONG),
    ("invalid rank for input", STRONG),
    ("unexpected input data type", STRONG),
    ("could not find an implementation for", STRONG),
    ("max supported ir version", STRONG),
    ("this is an invalid model. error in node", STRONG),
    ("this is an invalid model. in node", STRONG),
    ("sequential_executor.cc", STRONG),
    ("bfc_arena.cc", STRONG),
    ("bfcarena", STRONG),
    ("provider_bridge_ort", STRONG),
    ("onnxruntime_pybind_state", STRONG),
    ("onnx runtime error ", STRONG),
    ("[v:onnxruntime:", STRONG),
    ("[i:onnxruntime:", STRONG),
    # the status format of include/onnxruntime/core/common/status.h (" : <code> : <NAME> : ") when pasted
    # without its "[ONNXRuntimeError]" head, ORT's source files in its log lines, its inserted copy nodes
    (": invalid_graph :", STRONG),
    (": invalid_argument :", STRONG),
    (": runtime_exception :", STRONG),
    (": not_implemented :", STRONG),
    (": invalid_protobuf :", STRONG),
    (": no_suchfile :", STRONG),
    (": ep_fail :", STRONG),
    (": engine_error :", STRONG),
    (": model_loaded :", STRONG),
    ("inference_session.cc", STRONG),
    ("session_state.cc", STRONG),
    ("execution_frame.cc", STRONG),
    ("kernel_registry.cc", STRONG),
    ("graph_partitioner.cc", STRONG),
    ("memcpytohost", STRONG),
    ("memcpyfromhost", STRONG),
    ("falling back to ['cpuexecutionprovider']", STRONG),
    # Issue 23, round 8: onnxruntime-web (js/web/lib/wasm/wasm-core-impl.ts and wasm-utils.ts, read at
    # microsoft/onnxruntime 029c0c4): its calls into the WebAssembly build (`_OrtRun`, `_OrtCreateSession`...)
    # fail with "failed to call OrtRun(). error code = N." (older releases) or checkLastError's
    # "<sentence> ERROR_CODE: N, ERROR_MESSAGE: ..."; its own sentences and its session handler's names.
    ("failed to call ort", STRONG),
    ("wasm-core-impl", STRONG),
    ("onnxruntimewebassembly", STRONG),
    (", error_message:", MEDIUM),
    ("can't access output tensor data", STRONG),
    ("can't create a session", STRONG),
    ("can't get session input/output", STRONG),
    ("can't initialize onnxruntime", STRONG),
    # its other language bindings: Java (java/src/main/java/ai/onnxruntime/OrtException.java: "Error code -
    # <OrtErrorCode> - message: ..."), Objective-C (objectivec/error_utils.mm: NSError domain "onnxruntime"),
    # and the C API's OrtErrorCode names (include/onnxruntime/core/session/onnxruntime_c_api.h), which the
    # Java, C and Rust bindings print (whole words: "sort_failed" is no ORT_FAIL)
    ("ai.onnxruntime", STRONG),
    ("ortexception", STRONG),
    ("error code - ort_", STRONG),
    ("domain=onnxruntime", STRONG),
    # Issue 23, round 17: the session options' provider registration (core/session/provider_registration.cc:
    # "<name> execution provider is not supported in this build." / "... is not enabled in this build.")
    ("execution provider is not supported in this build", STRONG),
    ("execution provider is not enabled in this build", STRONG),
    # onnxruntime-common, the JS API every web/node binding shares (js/common/lib/tensor-impl.ts,
    # backend-impl.ts, inference-session-impl.ts), and the CUDA EP's call check (core/providers/cuda/
    # cuda_call.cc: "<lib> failure N: <status> ; GPU=N ; hostname=h ; file=f ; line=N ; expr=e; ...")
    ("does not match data length(", STRONG),
    ("no available backend found. err:", STRONG),
    ("is missing in 'feeds'", STRONG),
    (" ; hostname=", MEDIUM),
    (" ; file=", MEDIUM),
    (" ; expr=", MEDIUM),
    # Issue 23, round 9: the execution providers the CPU wheel does not hold, read in onnxruntime's tree
    # (onnxruntime/core/providers/<ep>/): its libraries' names (onnxruntime.dll / libonnxruntime.so, the EP
    # libraries onnxruntime_providers_<ep>), the EP source files "<ep>_execution_provider.cc/.h" its log lines
    # name (medium: next to the log head they name, they must not outweigh the text the EP forwards), the
    # DirectML EP's factory and operator-author sources
    # (dml/dml_provider_factory.cc, dml/DmlExecutionProvider/src/MLOperatorAuthorImpl.cpp, AbiCustomRegistry
    # .cpp, DmlGraphFusionHelper.cpp, FusedGraphKernel.cpp) and the CUDA EP's cuDNN frontend call check
    # (cuda/cudnn_fe_call.cc: "CUDNN_FE failure N: ..."), the OpenVINO EP's log prefix and namespace
    # (openvino/*.cc: "[OpenVINO-EP]", onnxruntime::openvino_ep::).
    ("onnxruntime.dll", STRONG),
    ("[openvino-ep]", STRONG),
    ("openvino_ep::", STRONG),
    ("libonnxruntime", STRONG),
    ("onnxruntime_providers_", STRONG),
    ("_execution_provider.", MEDIUM),
    ("dml_provider_factory", STRONG),
    ("mloperatorauthor", STRONG),
    ("abicustomregistry", STRONG),
    ("dmlgraphfusionhelper", STRONG),
    ("fusedgraphkernel", STRONG),
    ("cudnn_fe_call", STRONG),
    ("cudnn_fe failure", STRONG),
    # session/inference_session.cc's catch-alls around a call ("Encountered unknown exception in Run()",
    # "... in LoadWithLoader()", "Exception during initialization: ...")
    ("encountered unknown exception in ", STRONG),
    ("exception during initialization", STRONG),
    # Issue 23 (h23m2): the TensorRT EP's run-time shape call, whose sentence quotes TensorRT's API name
    # (tensorrt_execution_provider.cc and nv_tensorrt_rtx: "<Name> EP failed to call
    # nvinfer1::IExecutionContext::setInputShape() for input '...'"): the provider speaks, not TensorRT
    ("ep failed to call nvinfer1::", STRONG),
    # session/inference_session.cc's load envelope ("Load model from " path " failed:") around graph.cc's
    # inference wrapper ("Node (" name ") Op (" type ") " + onnx's error): the two joined are onnxruntime's
    ("failed:node (", STRONG),
    # Issue 23 (h23s2), read in onnxruntime's sources: the TensorRT EP's own sentences and log prefix
    # (providers/tensorrt/tensorrt_execution_provider.cc: "TensorRT EP failed to create engine from network
    # for fused node: ", "TensorRT EP Failed to Build Engine.", "[TensorRT EP] ..."), the fused node names it
    # gives its partitions ("TRTKernel_" graph_type "_" graph name "_" id), the TensorRT-RTX EP's log prefix
    # (providers/nv_tensorrt_rtx: "[NvTensorRTRTX EP]"); and DirectML.dll, the library the DirectML EP
    # loads (providers/dml/dml_provider_factory.cc), the only covered tool that runs on it.  "TensorRT EP " is
    # weak: with the EP's own wording (its source 4-grams) it names onnxruntime, while TensorRT's own log
    # lines that the EP forwards still name TensorRT first.
    ("tensorrt ep ", WEAK),
    ("[tensorrt ep]", STRONG),
    ("trtkernel_", STRONG),
    ("nvtensorrtrtx", STRONG),
    ("directml.dll", STRONG),
    # onnxruntime-web's WebGPU and WebNN providers (js/web/lib/wasm/jsep/backend-webgpu.ts: '[WebGPU] Kernel
    # "[<op type>] <node>" failed. <error>', 'GPU validation error for kernel "[...]"'; jsep/init.ts:
    # "Failed to generate kernel's output[i] with dims [...]. If you are running with pre-allocated output,
    # ..."; the WebNN backend's tensor check: "WebNN backend does not support data type: <type>"), which
    # transformers.js and the browser apps built on it print with no onnxruntime name.
    ('[webgpu] kernel "', STRONG),
    ("gpu validation error for kernel", STRONG),
    ("failed to generate kernel's output[", STRONG),
    ("webnn backend does not support data type", STRONG),
    # Issue 23, round 21 (h23v2): onnxruntime-genai, the generate() API over onnxruntime
    # (microsoft/onnxruntime-genai: its Python module onnxruntime_genai and package name, the C API's Oga*
    # objects of src/ort_genai_c.h, OgaCreateModel / OgaModel / OgaGenerator..., and the model folder's
    # configuration file genai_config.json that src/config.cpp reads and that only its model builder writes).
    ("onnxruntime_genai", STRONG),
    ("onnxruntime-genai", STRONG),
    ("genai_config.json", STRONG),
    ("ogacreate", STRONG),
    ("ogamodel", STRONG),
    ("ogagenerator", STRONG),
    # s26e: onnxruntime-genai sentences that name a provider ("... device type (QNN)", "... provider: qnn"),
    # read in microsoft/onnxruntime-genai src/generators.cpp (Generator::AppendTokens), src/models/
    # session_options.cpp and src/models/kv_cache.cpp: without them the provider name alone named Qualcomm
    ("recreate the generator instance", STRONG),
    ("provider options not found for provider", STRONG),
    ("past_present_share_buffer", STRONG),
    # s20c: two CPU-kernel checks pasted without the "Non-zero status code" envelope, whose wording no other
    # covered tool prints (read in onnxruntime's sources: core/providers/cpu/math/element_wise_ops.h,
    # BroadcastIterator::Init/Append "Attempting to broadcast an axis by a dimension other than 1. ";
    # core/providers/cpu/tensor/gather.cc "indices element out of data bounds, idx="); their reason clauses
    # (ort-broadcast-axis, ort-gather-index-out-of-bounds) answer once the text is named onnxruntime's.
    # onnx's shape inference prints "axis N is not in valid range [-r,r-1]" too: no marker for that one.
    ("attempting to broadcast an axis by a dimension other than 1", STRONG),
    ("broadcastiterator::", STRONG),
    ("indices element out of data bounds", STRONG),
    *((name, STRONG) for name in _ORT_ERROR_CODES),
)

_ONNX: Markers = (
    ("onnx_cpp2py_export", STRONG),
    ("shapeinferenceerror", STRONG),
    ("validationerror", STRONG),
    ("onnx.checker", STRONG),
    ("check_model", WEAK),
    ("schemaerror", STRONG),
    ("no schema registered", STRONG),
    ("inferred shape and existing shape differ", STRONG),
    ("bad node spec", STRONG),
    ("infer_shapes", WEAK),
    ("onnx.helper", STRONG),
    ("ir_version", WEAK),
    ("opset", WEAK),
    # Issue 23, round 8: literals of onnx's own binary (onnx 1.23.2, onnx_cpp2py_export: `strings -n 8`):
    # fail_type_inference's prefix, the version converter's adapter_lookup assertion and its module, the
    # checker's sentences (`Unrecognized attribute: `, `' is expected to have field '`, SSA form).
    ("typeinferenceerror", STRONG),
    ("adapter_lookup", STRONG),
    ("no adapter for ", STRONG),
    ("no adapter from version", STRONG),
    ("no adapter to version", STRONG),
    ("version_converter", STRONG),
    ("convert_version", WEAK),
    ("unrecognized attribute: ", STRONG),
    ("is expected to have field", STRONG),
    ("single static assignment (ssa) form", STRONG),
    # onnx.load's protobuf parse of a file that is no ONNX model (the message type's full name)
    ("with type 'onnx.modelproto'", STRONG),
    # Issue 23, round 9: the onnx package's own Python modules in a traceback frame (onnx/checker.py,
    # shape_inference.py, helper.py, version_converter.py; installed or in an egg), either path separator
    ("site-packages/onnx/", STRONG),
    ("site-packages\\onnx\\", STRONG),
    ("onnx/checker.py", STRONG),
    ("onnx\\checker.py", STRONG),
    ("onnx/shape_inference.py", STRONG),
    ("onnx\\shape_inference.py", STRONG),
    ("onnx/helper.py", STRONG),
    ("onnx\\helper.py", STRONG),
    ("onnx/version_converter.py", STRONG),
    ("onnx\\version_converter.py", STRONG),
)

_ONNXSIM: Markers = (
    ("onnxsim", STRONG),
    ("onnx-simplifier", STRONG),
    ("onnx_simplifier", STRONG),
    ("onnxoptimizer", STRONG),
    ("onnx-optimizer", STRONG),
    ("simplifying...", STRONG),
)

_FLOAT16: Markers = (
    ("float16", WEAK),
    ("convert_float_to_float16", STRONG),
    ("keep_io_types", STRONG),
    ("onnxconverter_common", STRONG),
    ("tensor(float16)", STRONG),
    ("fp16", WEAK),
    ("float16.py", STRONG),
    ("auto_mixed_precision", STRONG),
    # Issue 23, round 8: the converter's own sentences (onnxconverter-common 1.16.0, float16.py and
    # auto_mixed_precision*.py; onnxruntime.transformers.float16 prints the same): its truncation warning,
    # its refusal to convert twice, its Cast-pair rewiring check and the mixed-precision validation.
    ("the float32 number", STRONG),
    ("is already converted to float16", STRONG),
    ("check_fp16_ready", STRONG),
    ("downstream node of the second cast node", STRONG),
    ("validation failed for final fp16 model", STRONG),
    ("validation failed for original fp32 model", STRONG),
    ("validation failed for fp32 model", STRONG),
    # Branch s27c: the mixed-precision converters' entry points (onnxconverter_common/auto_mixed_precision.py,
    # auto_mixed_precision_model_path.py), named in their argument errors and tracebacks.
    ("auto_convert_mixed_precision", STRONG),
)

# Qualcomm QNN / SNPE / QAIRT.  The SDK is not public: markers are the log prefixes and texts its
# libraries print as quoted in Qualcomm's docs (QNN "Logging" and HTP troubleshooting pages) and in
# public user logs: "QnnDsp <E>", "E/QnnDsp", "Failed to load skel", "Transport layer setup failed",
# "Failed to find available PD for contextId"; the Hexagon FastRPC layer under it (libadsprpc /
# libcdsprpc, remote_handle(64)_open, rpcmem); SNPE's C++ namespace zdl:: (zdl::DlSystem);
# the qai_hub client of Qualcomm AI Hub; the converters' top-level handler, which logs
# "<time> - <line> - ERROR - Encountered Error: <exception>" (qnn-onnx-converter / qairt-converter).
_QUALCOMM: Markers = (
    ("qnndsp", STRONG),
    ("<e>", WEAK),
    ("qnn", STRONG),
    ("snpe", STRONG),
    ("qairt", STRONG),
    ("qti.aisw", STRONG),
    ("hexagon", STRONG),
    ("htp", WEAK),
    ("dlc", WEAK),
    ("hexnn", STRONG),
    ("qnnbackend", STRONG),
    ("failed to load skel", STRONG),
    ("transport layer setup failed", STRONG),
    ("failed to find available pd", STRONG),
    ("adsprpc", STRONG),
    ("cdsprpc", STRONG),
    ("fastrpc", STRONG),
    ("remote_handle", STRONG),
    ("rpcmem", STRONG),
    ("zdl::", STRONG),
    ("dlsystem", STRONG),
    ("qai_hub", STRONG),
    # Session s29b: the qai_hub client names its service in its connection errors ("Could not connect to
    # Qualcomm AI Hub. Please visit https://app.aihub.qualcomm.com/api/ ..."; qai-hub 0.56.0 client.py).
    ("qualcomm ai hub", STRONG),
    ("aihub.qualcomm.com", STRONG),
    (" - error - encountered error:", STRONG),
    # Issue 23, round 9: Genie, the QAIRT SDK's LLM runtime (its public C API, GenieDialog.h / GenieCommon.h
    # in Qualcomm's Genie docs and the ai-hub-apps ChatApp sample: GenieDialog_create,
    # GenieDialogConfig_createFromJson, GENIE_STATUS_ERROR_*).  Its library and CLI names (libGenie.so,
    # genie-t2t-run) were markers here and were dropped: a round-8 held-out text holding them had surfaced
    # in a search while this round was collected (tests/data/explain/README.md, round 9).
    ("geniedialog", STRONG),
    ("genie_status_", STRONG),
    # the HTP backend's own log lines, as its users quote them (Qualcomm's HTP docs name VTCM and the graph
    # prepare/finalize steps): its source files ("graph_prepare.cc:204:ERROR:...", initial_sequencer_dp.cc),
    # its op namespace q:: ("q::flat_from_vtcm"), "could not create op", QnnGraph_finalize's failure
    # ("Failed to finalize graph (id: N) with err N"; the sample app's "Finalize Graph for Idx = N failed");
    # Genie's dialog in the ChatApp sample ("Genie Dialog", its GenieWrapper) and the QNN sample
    # loader's "Unable to find a valid interface."
    ("graph_prepare.cc", STRONG),
    ("initial_sequencer_dp", STRONG),
    # Session s29b: the HTP's graph-prepare routers (offline prepare on the host, on-device prepare: "<E>
    # RouterX86 graph prepare failed 17", "RouterHexagon graph prepare failed 13"), its TCM placement pass
    # (tcm_migration.cc) and its TCM overflow line ("requires 0x2400000 bytes of TCM, which is greater than
    # the TCM size of 0x800000!"; pytorch/executorch#1430, microsoft/T-MAC#102, both dev).
    ("routerx86", STRONG),
    ("routerhexagon", STRONG),
    ("tcm_migration.cc", STRONG),
    ("bytes of tcm", MEDIUM),
    ("vtcm", STRONG),
    ("q::", MEDIUM),
    ("could not create op", MEDIUM),
    ("failed to finalize graph", STRONG),
    ("finalize graph for idx", STRONG),
    ("finalize graph", MEDIUM),
    ("genie dialog", STRONG),
    ("geniewrapper", STRONG),
    ("unable to find a valid interface", MEDIUM),
    # Issue 23, round 12: the SNPE/QAIRT converters' message keys, printed before the text they name
    # ("Conversion failed: ERROR_TF_NODE_NOT_FOUND_IN_GRAPH: Node not found in graph. ..."): the error
    # tables of qti/aisw/converters/common/utils/code_to_message.py, one per frontend (ERROR_TF_*,
    # ERROR_CAFFE_*, ERROR_CAFFE2_*).  A converter's error line seldom repeats the tool's name.
    ("error_tf_", STRONG),
    ("error_caffe_", STRONG),
    ("error_caffe2_", STRONG),
    # s22b: the same table's codes of the ONNX frontend, the converter IR and custom ops, printed as
    # "<CODE>: <text>" by code_to_message.get_error_message/get_warning_message ("ERROR_SLICE_DYNAMIC_INPUTS:
    # Invalid Slice inputs ...", "ERROR_RESIZE_UNSUPPORTED_MODE: resizing ... was not supported"), read in
    # zhiyuan8/qnn at 24eb410 (a copy of QAIRT's lib/python/qti/aisw/converters): common/utils/
    # code_to_message.py.  Each is spelt with its colon (the printed form); the few generic names
    # (ERROR_MISSING_INPUT, ERROR_MODEL_NOT_VALID, ERROR_ATTRIBUTE_MISSING...) are left out.
    ("error_asymmetric_pads_values:", STRONG),
    ("error_activation_function_unsupported:", STRONG),
    ("error_attribute_wrong_type:", STRONG),
    ("error_batchnorm_test_only:", STRONG),
    ("error_broadcast_not_supported:", STRONG),
    ("error_cast_type_unsupported:", STRONG),
    ("error_deconv_output_padding_length_unsupported:", STRONG),
    ("error_deconv_output_padding_not_less_than_stride:", STRONG),
    ("error_deconv_rectangular_stride_unsupported:", STRONG),
    ("error_gemm_transpose_not_supported:", STRONG),
    ("error_input_unexpected_rank:", STRONG),
    ("error_kernel_shape_differs_from_weights:", STRONG),
    ("error_padding_type_unsupported:", STRONG),
    ("error_weights_missing_key:", STRONG),
    ("error_onehot_neg_depth:", STRONG),
    ("error_onnx_not_found:", STRONG),
    ("error_range_invalid_inputs:", STRONG),
    ("error_resize_unsupported_mode:", STRONG),
    ("error_resize_invalid_coordinate_transformation_mode_mix:", STRONG),
    ("error_resize_unsupported_coordinate_transformation_mode:", STRONG),
    ("error_resize_pytorch_half_pixel_unsupported_value:", STRONG),
    ("error_resize_input_dims:", STRONG),
    ("error_pad_unsupported_mode:", STRONG),
    ("error_slice_dynamic_inputs:", STRONG),
    ("error_squeeze_dim_greater_than_rank:", STRONG),
    ("error_squeeze_dims_equal_one:", STRONG),
    ("error_topk_input_tensor_rank:", STRONG),
    ("error_topk_k_invalid:", STRONG),
    ("error_topk_unsupported_layer_param:", STRONG),
    ("error_unsqueeze_dims_greater_than_rank:", STRONG),
    ("error_unsqueeze_duplicate_dims:", STRONG),
    ("error_unsupported_attribute_value:", STRONG),
    ("error_op_not_supported_by_onnx:", STRONG),
    ("error_number_of_pads_unsupported:", STRONG),
    ("error_get_supported_version:", STRONG),
    ("error_op_schema_not_found:", STRONG),
    ("error_op_schema_version_not_found:", STRONG),
    ("error_maxpool_optional_indices_output:", STRONG),
    ("error_quantize_invalid_inputs:", STRONG),
    ("error_gather_elements_wrong_rank:", STRONG),
    ("error_timeseries_unexpected_rank:", STRONG),
    ("error_unsupported_input_encoding:", STRONG),
    ("error_unsupported_input_layout:", STRONG),
    ("error_unsupported_quant_param:", STRONG),
    ("error_layer_not_found_in_quant_param:", STRONG),
    ("error_unable_to_merge_quant_params:", STRONG),
    ("error_operation_inputs_not_broadcastable:", STRONG),
    ("error_prelu_non_channel_shared_support_only:", STRONG),
    ("error_infer_output_shapes:", STRONG),
    ("error_custom_op_attribute_not_supported:", STRONG),
    ("error_cannot_create_custom_op:", STRONG),
    ("error_custom_op_not_found:", STRONG),
    ("error_custom_op_param_no_data:", STRONG),
    ("error_cannot_ingest_static_input:", STRONG),
    ("error_cannot_ingest_caffe_static_input:", STRONG),
    ("error_permute_unexpected_input_order:", STRONG),
    ("error_fc_axis_unsupported:", STRONG),
    ("error_fc_axis_w_unsupported:", STRONG),
    ("error_fc_wrong_input_size:", STRONG),
    ("error_batchnorm_dim_unsupported:", STRONG),
    ("error_instance_norm_dim_unsupported:", STRONG),
    ("error_matmul_unexpected_input_order:", STRONG),
    ("error_reshape_unexpected_input_order:", STRONG),
    ("error_convolution_unexpected_input_order:", STRONG),
    ("error_tranpose_conv_unexpected_input_order:", STRONG),
    ("error_unknown_matching_criteria:", STRONG),
    ("error_unknown_buffer_criteria:", STRONG),
    ("error_buffer_criteria_index:", STRONG),
    ("error_buffer_criteria_all:", STRONG),
    ("error_unknown_op_type(s)_found:", STRONG),
    ("error_invalid_priorbox_variances:", STRONG),
    ("error_detectionout_unknown_inputs:", STRONG),
    ("error_unsupported_color_transformation:", STRONG),
    ("error_invalid_color_transform_input_shape:", STRONG),
    ("error_snpe_tile_axis_not_supported:", STRONG),
    ("error_roi_pool_batch_unsupported:", STRONG),
    ("error_snpe_deconv_no_support_rect_padding:", STRONG),
    ("warning_unsupported_ops_found:", STRONG),
    ("warning_unconsumed_layers:", STRONG),
    ("warning_cast_type_unsupported:", STRONG),
    ("warning_op_not_supported_by_onnx:", STRONG),
    ("warning_op_version_not_supported_by_onnx:", STRONG),
    ("warning_unsupported_attribute_value:", STRONG),
    ("warning_op_not_supported_by_schema:", STRONG),
    ("warning_op_version_not_supported:", STRONG),
    # Issue 23 (h23v): the Hexagon FastRPC layer's own names, read in github.com/qualcomm/fastrpc (inc/
    # apps_std_internal.h: the DSP's library search path variables ADSP_LIBRARY_PATH / DSP_LIBRARY_PATH that
    # QNN's HTP and SNPE's DSP runtime are set up with; src/fastrpc_apps_user.c SUBSYSTEM_NAME: the compute
    # DSP's name "cdsp", as in the device node /dev/fastrpc-cdsp and skel URIs "...&_dom=cdsp"), and AIMET,
    # Qualcomm's quantization toolkit (github.com/quic/aimet: its packages aimet_common, aimet_torch,
    # aimet_onnx, aimet_tensorflow in every traceback through it).
    ("dsp_library_path", STRONG),
    ("cdsp", STRONG),
    ("aimet", STRONG),
    # Issue 23 (h23u2): the FastRPC skel URI every Hexagon library is opened by ("file:///lib<iface>_skel.so?
    # <iface>_skel_handle_invoke&_modver=1.0&_dom=cdsp", qualcomm/fastrpc inc/adsp_*.h), quoted by a failed
    # open ("Unable to open ... device, err: ..., uri file:///..."); the HTP graph preparer's optimizer
    # failure (QnnHtp.dll / QnnHtpPrepare.dll / libQnnHtpV*Skel.so of onnxruntime-qnn 2.7.0:
    # "%s:2837::ERROR:Graph prepare failed during optimization with err: %d, Fatal Optimize"); the SDK's
    # Python package as a path (lib/python/qti/aisw/converters/...: the same package as "qti.aisw");
    # llama.cpp's Hexagon backend log prefix ("ggml-hex: ...", ggml/src/ggml-hexagon), which runs on the same
    # HTP through FastRPC.
    ("_skel_handle_invoke", STRONG),
    ("&_modver=", STRONG),
    ("graph prepare failed during optimization", STRONG),
    ("fatal optimize", STRONG),
    ("qti/aisw", STRONG),
    ("qti\\aisw", STRONG),
    ("ggml-hex:", STRONG),
    # Session s27d: the FastRPC user library's own calls as its error lines print them (quic/fastrpc:
    # src/apps_mem_imp.c "apps_mem_request_map64/unmap64 failed", src/apps_std_imp.c and src/log_config.c
    # "apps_std_fopen/fileExists/..."), and the Java package of SNPE's Android API (com.qualcomm.qti.snpe).
    ("apps_mem_request", STRONG),
    ("apps_std_", STRONG),
    ("com.qualcomm.qti", STRONG),
    # Session s28b: where Qualcomm's stack lives on disk.  The source tree its Android libraries are built in
    # (FastRPC's and the DSP loaders' error lines name their files under it: "vendor/qcom/proprietary/
    # adsprpc/src/apps_mem_imp.c:216:Error 0x8000040d: ..."); the QAIRT / QNN SDK's host-tool folder
    # ("<sdk>/bin/x86_64-linux-clang/qnn-onnx-converter", "snpe-1.25.0/bin/x86_64-linux-clang/
    # snpe-tensorflow-to-dlc": the SDK's docs' setup pages name it as the tools' path) and its default install
    # folder (/opt/qcom/aistack/qairt/<version>); the Snapdragon X NPU driver package Windows loads the
    # Hexagon libraries from (C:\Windows\System32\DriverStore\FileRepository\qcnspmcdm8380.inf_arm64_...).
    ("vendor/qcom/proprietary", STRONG),
    ("x86_64-linux-clang", STRONG),
    ("qcom/aistack", STRONG),
    ("qcnspmcdm", STRONG),
    # Session s31d: the SDK's Python modules as Python reports them missing: its package name in Python's
    # own sentence (QNN SDK setup docs: envsetup.sh puts lib/python, the qti package, on PYTHONPATH; a bare
    # "qti" is no marker, the sentence is) and its compiled IR-graph module (lib/python/qti/aisw/converters/
    # common/libPyIrGraph*.so, one build per Python version).
    ("no module named 'qti", STRONG),
    ("libpyirgraph", STRONG),
)

_SIGMASTAR: Markers = (
    ("sigmastar", STRONG),
    ("sgs_", STRONG),
    ("sgs ipu", STRONG),
    ("calibrator", WEAK),
    ("ipu_sdk", STRONG),
    ("sgs_ipu", STRONG),
    ("simulator.py", WEAK),
    ("convert_tool", WEAK),
    ("ipu", WEAK),
)

# OpenVINO, from openvinotoolkit/openvino:
# - src/core/src/except.cpp (ov::Exception::make_what): "Check '<cond>' failed at <file>:<line>" and
#   "Exception from <file>:<line>", the file trimmed to "src/..." (backslashes on Windows);
# - src/core/src/node.cpp: "While validating node '<op>' with friendly_name '<name>'";
# - src/inference/include/ie/ie_common.h: the InferenceEngine StatusCode names, printed "[ GENERAL_ERROR ]";
# - tools/mo/openvino/tools/mo/utils/logger.py: "[ %(levelname)s ]  %(msg)s", "[ FRAMEWORK ERROR ]",
#   "[ ANALYSIS INFO ]"; "[ SUCCESS ] Generated IR" (mo/ovc);
# - src/plugins/intel_cpu|intel_gpu|intel_npu|auto ("[AUTOPLUGIN]"), clDNN (the GPU plugin's library);
# - src/bindings/python: openvino._pyopenvino GeneralFailure, OpConversionFailure; C API ov_core_*;
# - tools: benchmark_app, ovc; tools/mo (Model Optimizer): "Exception occurred during running replacer
#   \"REPLACEMENT_ID\" (<class 'extensions.middle.PartialInfer.PartialInfer'>)", "Stopped shape/value
#   propagation at", mo.utils.error.Error, "Model_Optimizer_FAQ";
# - src/frontends/pytorch|onnx: "Model wasn't fully converted.", "-- No conversion rule found for
# operations:";
#   src/frontends/tensorflow: "[TensorFlow Frontend] Internal error, no translator found for operation(s)";
# - src/plugins/intel_cpu/src/node.cpp: "Supported primitive descriptors list is empty for node:" (the
#   CPU plugin was MKLDNNPlugin before 2022); src/core/src/descriptor/tensor.cpp: "get_shape was called on a
#   descriptor::Tensor with dynamic shape"; ov::PartialShape; NNCF, OpenVINO's compression framework;
# - src/inference/src/model_reader.cpp: "Unable to read the model: <path> Please check that model format:
# <ext>
# is supported and the model is correct. Available frontends: <names>" (the names list other tools'
# formats).
_OPENVINO: Markers = (
    ("openvino", STRONG),
    ("ov::", STRONG),
    ("inferenceengine", STRONG),
    ("_pyopenvino", STRONG),
    ("src/inference/src", STRONG),
    ("src\\inference\\src", STRONG),
    ("src/core/", WEAK),
    ("src/frontends/", STRONG),
    ("src\\frontends\\", STRONG),
    ("ngraph", STRONG),
    ("model optimizer", STRONG),
    ("check '", WEAK),
    ("' failed at ", MEDIUM),
    ("opconversionfailure", STRONG),
    ("return status -", WEAK),
    ("failed at src/", STRONG),
    ("failed at src\\", STRONG),
    ("exception from src/", STRONG),
    ("exception from src\\", STRONG),
    ("ov_infer_request", STRONG),
    ("ov_core_", STRONG),
    ("while validating node '", STRONG),
    ("with friendly_name '", STRONG),
    ("[ general_error ]", STRONG),
    ("[ not_implemented ]", STRONG),
    ("[ not_found ]", STRONG),
    ("[ parameter_mismatch ]", STRONG),
    ("[ network_not_loaded ]", STRONG),
    ("[ network_not_read ]", STRONG),
    ("[ infer_not_started ]", STRONG),
    ("[ request_busy ]", STRONG),
    ("[ result_not_ready ]", STRONG),
    ("[ not_allocated ]", STRONG),
    ("[ out_of_bounds ]", STRONG),
    ("[ unexpected ]", MEDIUM),
    ("[ framework error ]", STRONG),
    ("[ analysis info ]", STRONG),
    ("[ success ] generated ir", STRONG),
    ("[ error ]  ", MEDIUM),
    ("[ error ] ", WEAK),
    ("intel_cpu", STRONG),
    ("intel_gpu", STRONG),
    ("intel_npu", STRONG),
    ("intel_myriad", STRONG),
    ("[autoplugin]", STRONG),
    ("cldnn", STRONG),
    ("generalfailure", STRONG),
    ("benchmark_app", STRONG),
    ("ovc", MEDIUM),
    ("compile_model", WEAK),
    ("read_model", WEAK),
    ("model_optimizer", STRONG),
    ("during running replacer", STRONG),
    ("replacement_id", STRONG),
    ("extensions.middle.", STRONG),
    ("extensions.front.", STRONG),
    ("extensions.load.", STRONG),
    ("mo.utils.", STRONG),
    ("mo.front.", STRONG),
    ("mo.middle.", STRONG),
    ("stopped shape/value propagation", STRONG),
    ("[ warning ]  ", MEDIUM),
    ("mkldnnplugin", STRONG),
    ("model wasn't fully converted", STRONG),
    ("no conversion rule found for operations", STRONG),
    ("no translator found for operation", STRONG),
    ("[tensorflow frontend]", STRONG),
    ("[pytorch frontend]", STRONG),
    ("supported primitive descriptors list is empty", STRONG),
    ("called on a descriptor::tensor", STRONG),
    ("partialshape", MEDIUM),
    ("nncf", MEDIUM),
    ("please check that model format:", STRONG),
    ("available frontends:", STRONG),
    # Issue 23, round 9: the GPU plugin (src/plugins/intel_gpu: ProgramBuilder, "[GPU] ..." exceptions, its
    # program build failure, OpenCL event waits) and InferenceEngine's Precision ("cannot estimate element
    # if precision is UNSPECIFIED", ie_precision.hpp).
    ("programbuilder", STRONG),
    ("gpu program build failed", STRONG),
    ("[gpu] ", MEDIUM),
    ("clwaitforevents", MEDIUM),
    ("cannot estimate element if precision is", STRONG),
    # Issue 23 (h23w), OpenVINO's own sentences: the IR reader (src/frontends/ir/src/ir_deserializer.cpp:
    # "Cannot create T layer N id:I from unsupported opset: V", "Opset V doesn't contain the operation with
    # type: T"), ov::PartialShape::to_shape (src/core/src/partial_shape.cpp), the PyTorch frontend's tracing
    # (src/bindings/python/.../pytorch/ts_decoder.py), Model Optimizer's shape check (tools/mo .../infer.py)
    # and the plugins' property check ("NotFound: Unsupported property K by CPU plugin.").
    ("from unsupported opset:", STRONG),
    ("doesn't contain the operation with type:", STRONG),
    ("to_shape was called on a dynamic shape", STRONG),
    ("couldn't get torchscript module by tracing", STRONG),
    ("use --input_shape with positive integers", STRONG),
    ("is not fully defined for output", MEDIUM),
    ("by cpu plugin", MEDIUM),
    # The GPU plugin's allocation checks (src/plugins/intel_gpu/src/runtime/ocl/ocl_engine.cpp).
    ("exceeded max size of memory object allocation", STRONG),
    ("dynamic shape without upper bound tries to allocate", STRONG),
    # Issue 23, round 18: NNCF, OpenVINO's compression framework, in a traceback or its own log: its package's
    # frames (site-packages/nncf/..., dist-packages/nncf/...), its logger (nncf/common/logging/logger.py:
    # NNCF_LOGGER_NAME = "nncf", format "%(levelname)s:%(name)s:%(message)s") and its entry points
    # (nncf.quantize, nncf.compress_weights; the torch backend's NNCFNetwork).
    ("packages/nncf/", STRONG),
    ("packages\\nncf\\", STRONG),
    ("info:nncf:", STRONG),
    ("warning:nncf:", STRONG),
    ("error:nncf:", STRONG),
    ("nncf.quantize", STRONG),
    ("nncf.compress_weights", STRONG),
    ("nncfnetwork", STRONG),
    # Session s20d: NNCF's own exception classes as Python prints them (src/nncf/errors.py, raised as
    # nncf.ValidationError, nncf.UnsupportedBackendError...: "nncf.errors.ValidationError: ..."), whose class
    # name alone is also onnx.checker's; and its graph's name in its messages (src/nncf/scopes.py: "Ignored
    # nodes that matches names [...] were not found in the NNCFGraph.").
    ("nncf.errors.", STRONG),
    ("nncfgraph", STRONG),
    # Session s22c: OpenVINO's names that a message keeps when its path and namespace are cut off: the node
    # check's exception class (src/core/include/openvino/core/node.hpp: ov::NodeValidationFailure, before 2022
    # ngraph::NodeValidationFailure), the old Python API's module and class (inference_engine/ie_api.pyx:
    # IENetwork, IECore), benchmark_app's step line (tools/benchmark_tool .../utils/utils.py next_step: "[Step
    # 7/11] Loading the model to the device"), the 2020-2021 samples' log line ("Loading model to the
    # plugin") and OpenVINO Model Server's spdlog logger name in its log lines ("[modelmanager]",
    # modelmanager_logger).
    ("nodevalidationfailure", STRONG),
    ("ie_api.pyx", STRONG),
    ("ienetwork", STRONG),
    ("loading the model to the device", MEDIUM),
    ("loading model to the plugin", MEDIUM),
    ("[modelmanager]", MEDIUM),
    # Session s23e: the frontends' exception classes as they print them (src/frontends/common/include/
    # openvino/frontend/exception.hpp: "FrontEnd API failed with GeneralFailure|InitializationFailure|
    # OpValidationFailure|OpConversionFailure|NotImplementedFailure: "), the ONNX frontend's translation
    # errors (src/frontends/onnx/frontend/src/core/graph.cpp: "[ONNX Frontend] Conversion failed for
    # <op>-<opset>", utils/common.cpp: "Errors during ONNX translation:"), the TFLite frontend's prefix, the
    # PyTorch/JAX frontends' per-node failure (translate_session.cpp: "Exception happened during conversion
    # of operation <op> with schema ..."), the unconverted-operations summary (src/frontends/common/src/
    # unconverted_ops_report.cpp: "-- Conversion is failed for: ") and the GPU plugin's kernels cache and
    # implementation choice (src/plugins/intel_gpu/src/runtime/kernels_cache.cpp: "Program build
    # failed(<n>_part_<m>)", graph/include/primitive_type_base.h: "[GPU] Can't choose implementation for
    # <id> node (type=<t>)").
    ("frontend api failed with", STRONG),
    ("[onnx frontend] conversion failed for", STRONG),
    ("errors during onnx translation", STRONG),
    ("[tensorflow lite frontend]", STRONG),
    ("exception happened during conversion of operation", STRONG),
    ("-- conversion is failed for:", STRONG),
    ("program build failed(", STRONG),
    ("can't choose implementation for", MEDIUM),
    # openvino_tokenizers' exception class (python/openvino_tokenizers/utils.py: OVTypeError), raised by its
    # Hugging Face tokenizer parser (hf_parser.py) without the package's name in the message line
    ("ovtypeerror", STRONG),
    # the 2019-2021 Inference Engine's constant folding (inference-engine/src/legacy_api/src/
    # graph_transformer.cpp: "Failed to find reference implementation for `<name>` Layer with `<type>` Type on
    # constant propagation"), whose message names no tool
    ("type on constant propagation", STRONG),
    # Session s24c: OpenVINO Model Server's log lines name their spdlog logger between brackets after the
    # time and thread (model_server src/logging.cpp: default_pattern "[%Y-%m-%d %T.%e][%t][%n][%l][%s:%#] %v",
    # the loggers "serving", "modelmanager", "dag_executor", "sequence_manager", "llm_executor",
    # "llm_calculator"): "[2024-05-01 10:11:12.123][1][serving][error][modelinstance.cpp:700] ..." is the
    # server's. The modelmanager logger stays the medium "[modelmanager]" of s22c above.
    ("][serving][", STRONG),
    ("][dag_executor][", STRONG),
    ("][sequence_manager][", STRONG),
    ("][llm_executor][", STRONG),
    ("][llm_calculator][", STRONG),
    # Session s25b: names only OpenVINO's packages use, in a line that keeps no path or namespace: the old
    # Python API's native module as Windows' loader names it (inference_engine/ie_api.pyx: "DLL load failed
    # while importing ie_api"), openvino.genai's pipeline classes (src/python/openvino_genai/__init__.py:
    # VLMPipeline, ContinuousBatchingPipeline; Text2ImagePipeline, Image2ImagePipeline, WhisperPipeline and
    # InpaintingPipeline are names another library may give a class, so medium) and optimum-intel's OpenVINO
    # classes (optimum/intel/__init__.py: OVModelForCausalLM and the other OVModelFor* classes,
    # OVDiffusionPipeline, OVStableDiffusion*Pipeline, OVWeightQuantizationConfig, OVQuantizationConfig,
    # OVQuantizer).
    ("importing ie_api", STRONG),
    ("vlmpipeline", STRONG),
    ("continuousbatchingpipeline", STRONG),
    ("text2imagepipeline", MEDIUM),
    ("image2imagepipeline", MEDIUM),
    ("whisperpipeline", MEDIUM),
    ("inpaintingpipeline", MEDIUM),
    ("ovmodelfor", STRONG),
    ("ovdiffusionpipeline", STRONG),
    ("ovstablediffusion", STRONG),
    ("ovweightquantizationconfig", STRONG),
    ("ovquantizationconfig", STRONG),
    ("ovquantizer", STRONG),
    # Session s26a: the build tree of OpenVINO's release packages, which the C++ exceptions of its wheels and
    # archives (and of openvino_tokenizers/openvino_genai, built by the same CI) print as their file's path
    # when the path is not trimmed to "src/...": "C:\Jenkins\workspace\private-ci\ie\build-windows-vs2019\b\
    # repos\..." on Windows, ".../workspace/private-ci/ie/build-linux-ubuntu20/b/repos/..." on Linux, and the
    # closed source tree of the 2020-2021 releases ("repos/closed-dldt/..."). A path cut before its
    # "openvino" part still names OpenVINO by these.
    ("\\private-ci\\ie\\build-", STRONG),
    ("/private-ci/ie/build-", STRONG),
    ("/repos/closed-dldt/", STRONG),
    # Session s29a: the 2019-2022.3 MYRIAD plugin (Neural Compute Stick 2): its executor's device sentence
    # (src/plugins/intel_myriad/myriad_plugin/myriad_executor.cpp: "Can not init Myriad device: NC_ERROR",
    # "Failed to allocate graph: MYRIAD device is not opened.") and the log of its bundled mvnc USB library
    # ("E: [ncAPI] [ 950632] [] ncDeviceOpen:1009 Failed to find booted device after boot").
    ("myriad device", STRONG),
    ("[ncapi]", STRONG),
    ("ncdeviceopen", STRONG),
)

# TensorFlow Lite / LiteRT, from tensorflow/tensorflow tensorflow/lite:
# - core/subgraph.cc ReportOpError: "Node number %d (%s) %s." ("failed to prepare", "failed to invoke");
# - core/interpreter_builder.cc: "Didn't find op for builtin opcode '%s' version '%d'",
#   "Encountered unresolved custom op: %s", "Failed to get registration from op code";
# - kernels/kernel_util.h TF_LITE_ENSURE: "%s:%d %s was not true.";
# - python/interpreter_wrapper: "Cannot set tensor: ...", "Regular TensorFlow ops are not supported by
#   this interpreter"; delegates/gpu: "Following operations are not supported by GPU delegate";
# - compiler/mlir/lite: "'tf.X' op is neither a custom op nor a flex op", the TFL dialect ('tfl.conv_2d'),
#   python/convert_phase.py ConverterError; ModifyGraphWithDelegate; Android log tag "tflite";
# - LiteRT / ai-edge-torch package names.
_TFLITE: Markers = (
    ("tflite", STRONG),
    ("tensorflow/lite", STRONG),
    ("tensorflow\\lite", STRONG),
    ("tensorflow.lite", STRONG),
    ("tensorflow lite", STRONG),
    ("tf.lite", STRONG),
    ("litert", STRONG),
    ("ai_edge_torch", STRONG),
    ("failed to prepare", STRONG),
    ("node number", MEDIUM),
    ("failed to invoke", WEAK),
    ("flex delegate", STRONG),
    # Branch s22g: TFLite's own Hexagon delegate (tensorflow/lite/delegates/hexagon, created by the tools'
    # hexagon_delegate_provider.cc: "Could not create Hexagon delegate: platform may not support delegate or
    # required libraries are missing") and the GPU delegate provider's and label_image's "GPU acceleration is
    # unsupported on this platform.": TFLite's lines about a Qualcomm DSP or a GPU, not Qualcomm's own.
    ("hexagon delegate", STRONG),
    ("platform may not support delegate", STRONG),
    ("gpu acceleration is unsupported on this platform", STRONG),
    ("delegate kernel", STRONG),
    ("allocatetensors", STRONG),
    ("allocate_tensors", STRONG),
    ("interpreter", WEAK),
    ("didn't find op for builtin opcode", STRONG),
    ("encountered unresolved custom op", STRONG),
    ("failed to get registration from op code", STRONG),
    ("was not true.", MEDIUM),
    ("cannot set tensor:", STRONG),
    ("regular tensorflow ops are not supported", STRONG),
    ("not supported by gpu delegate", STRONG),
    ("gpu delegate", MEDIUM),
    ("is neither a custom op nor a flex op", STRONG),
    ("'tfl.", STRONG),
    ("convert_phase", STRONG),
    ("convertererror", MEDIUM),
    ("modifygraphwithdelegate", STRONG),
    ("xnnpack", WEAK),
    # Issue 23, round 9: interpreter_builder.cc's "Registration failed." after an unresolved op, the benchmark
    # tool's "Failed to initialize the interpreter" (tools/benchmark/benchmark_tflite_model.cc).
    ("registration failed.", MEDIUM),
    ("failed to initialize the interpreter", STRONG),
    # Issue 23 (h23w): the Java API's class names and checks (lite/java: org.tensorflow.lite.*,
    # TensorImpl.java "Cannot copy to/from a TensorFlowLite tensor", nativeinterpreterwrapper_jni.cc "Failed
    # to run on the given Interpreter", "Unexpected failure when preparing tensor allocations", "ByteBuffer is
    # not a valid flatbuffer model"; the iOS pods TensorFlowLiteSwift/TensorFlowLiteC), the op resolver's "Op
    # builtin_code out of range", the converter's lite.py checks (representative_dataset, "is only supported
    # in the 1st dimension") and the quantizer's (tools/optimize/quantize_model.cc), the GPU delegate's
    # OpenCL loader.
    ("tensorflowlite", STRONG),
    ("failed to run on the given interpreter", STRONG),
    ("unexpected failure when preparing tensor allocations", STRONG),
    ("is not a valid flatbuffer model", STRONG),
    ("op builtin_code out of range", STRONG),
    ("representative_dataset", STRONG),
    ("is only supported in the 1st dimension", STRONG),
    ("quantization not yet supported for op", STRONG),
    ("select_tf_ops", STRONG),
    ("can not open opencl library on this device", MEDIUM),
    # model_builder's identifier check ("Model provided has model identifier 'xxxx', should be 'TFL3'") and
    # the Python interpreter's load_delegate ("Failed to load delegate from <library>", interpreter.py), most
    # often for the Coral Edge TPU's libedgetpu.
    ("should be 'tfl3'", STRONG),
    ("must have at least 7 bytes to hold identifier", STRONG),
    ("failed to load delegate from", MEDIUM),
    ("libedgetpu", MEDIUM),
    # Issue 23 (h23u2): the op resolver's and the Flex checks' own sentences (ai-edge-litert 2.3.0's
    # libLiteRt.so: "Didn't find op for builtin opcode '%s' version '%d'. An older version of this builtin
    # might be supported. Are you using an old TFLite binary with a newer model?", "Select TensorFlow op(s),
    # included in the given model, is(are) not supported by this interpreter. Make sure you apply/link the
    # Flex delegate before inference."), often quoted without their first words.
    ("an older version of this builtin might be supported", STRONG),
    ("is(are) not supported by this interpreter", STRONG),
    # Session s20a: the Hexagon delegate's own libraries (delegates/hexagon/hexagon_delegate.cc: "Incompatible
    # versions between interface library and libhexagon_skel %d vs %d", "incompatible versions of
    # libhexagon_interface and libhexagon_nn_skel"): hexagon_nn is TFLite's Hexagon delegate runtime, not
    # QNN's.
    ("libhexagon_interface", STRONG),
    ("libhexagon_skel", STRONG),
    ("libhexagon_nn_skel", STRONG),
    # s26h: MediaPipe's framework, the graph runner of MediaPipe Tasks and LLM Inference (run on TFLite /
    # LiteRT; the eval set files its messages under tflite): its package name, its graph validation's own
    # prefix and the calculator graph's source file and class (mediapipe/framework/validated_graph_config.cc
    # "ValidatedGraphConfig Initialization failed.", calculator_graph.cc "CalculatorGraph::Run() failed").
    ("mediapipe", MEDIUM),
    ("validatedgraphconfig", STRONG),
    ("calculator_graph.cc", STRONG),
    ("calculatorgraph::", STRONG),
    # s26h: the Python interpreter's native constructors (tensorflow/lite/python/interpreter_wrapper/
    # interpreter_wrapper_pybind11.cc: CreateWrapperFromFile / CreateWrapperFromBuffer, which
    # tf.lite.Interpreter, ai_edge_litert and ai-edge-torch's exported models call), named in their errors.
    ("createwrapperfrombuffer", STRONG),
    ("createwrapperfromfile", STRONG),
    # Session s27d: the MLIR converter's flags as its failure and warning texts name them
    # (tensorflow/compiler/mlir/lite/flatbuffer_export.cc: "(enabled via setting the -emit-select-tf-ops
    # flag)", "(enabled via setting the -emit-custom-ops flag)", "TFLite interpreter needs to link Flex
    # delegate ...").
    ("-emit-select-tf-ops", STRONG),
    ("-emit-custom-ops", STRONG),
    ("needs to link flex delegate", STRONG),
    # Session s28c: TensorFlow Lite Micro's interpreter, allocator and op resolver as its errors and users'
    # code name them (tensorflow/tflite-micro: tensorflow/lite/micro/micro_interpreter.cc, micro_allocator.cc
    # "Arena size is too small for all buffers. Needed %u but only %u was available.",
    # micro_mutable_op_resolver.h MicroMutableOpResolver), the package names of ai-edge-torch and
    # ai-edge-quantizer (google-ai-edge; the converter and quantizer writing .tflite / LiteRT models) as pip
    # and their tracebacks spell them, and MediaPipe's on-device LLM runtime namespace (odml.infra).
    ("micro_interpreter", STRONG),
    ("microinterpreter", STRONG),
    ("micro_allocator", STRONG),
    ("micromutableopresolver", STRONG),
    ("arena size is too small for all buffers", STRONG),
    ("ai-edge-torch", STRONG),
    ("ai_edge_quantizer", STRONG),
    ("ai-edge-quantizer", STRONG),
    ("odml.infra", STRONG),
    # Session s29c: the TFLite converter's and interpreter's package path in TensorFlow 1.15 / 2.0 wheels,
    # whose tracebacks name the package 'tensorflow_core' ("site-packages/tensorflow_core/lite/python/lite.py
    # in convert", tensorflow_core/lite/python/interpreter.py); the 'tensorflow/lite' marker misses it.
    ("tensorflow_core/lite", STRONG),
    ("tensorflow_core\\lite", STRONG),
)

# MNN, from alibaba/MNN:
# - include/MNN/MNNDefine.h: MNN_ERROR / MNN_PRINT (printf; Android/OHOS log tag "MNNJNI");
# - source/geometry/GeometryComputerUtils.cpp "Compute Shape Error for %s"; source/core/Schedule.cpp
#   "Can't Find type=%d backend, use %d instead"; source/shape/ShapeConvolution.cpp "Error for compute
#   convolution shape"; source/core/Pipeline.cpp "Resize error for type = %s, name = %s", "Pipeline Resize
# error"; source/core/Interpreter.cpp "Can't run session because not resized", "Invalid net, for null
# oplist";
# - tools/converter/source/common/cli.cpp: "Start to Convert Other Model Format To MNN Model...",
#   "Converted Failed!", "[ERROR] Convert error, please check your file format.", flags --modelFile,
#   --MNNModel, --bizCode, "modelFile Not set Invalid", "Model File Does Not Exist! ==> ";
# - tools/converter/include/logkit.h: CHECK prints "Check failed: <cond> ==> <message>" (so the converter's
#   "Check failed: creator ==> NOT_SUPPORTED_OP");
# - source/core/Interpreter.cpp, Session.cpp, Pipeline.cpp, express/Executor.cpp, express/module:
# "Create interpreter failed", "Buffer is null for create interpreter", "Invalide Session!!", "Error to
# compute
#   shape for %s", "Create execution error : %d", "Pipeline: _allocTensor failed", "Executor Error:",
# "PipelineModule::", "Model has no oplist", "Empty net for schedule", "Don't support type [%s]"
# (CPUBackend);
#   the session API getSessionInput / resizeSession / runSession; transformers/llm/export/llmexport.py.
_MNN: Markers = (
    ("mnn", STRONG),
    ("mnnconvert", STRONG),
    ("not_supported_op", STRONG),
    ("these op not support", STRONG),
    ("writefb.cpp", STRONG),
    ("mnn converter", STRONG),
    ("tools/converter/source", STRONG),
    ("liteconverter.cpp", STRONG),
    ("tmpgraph.cpp", STRONG),
    ("compute shape error for", STRONG),
    ("can't find type=", STRONG),
    ("error for compute convolution shape", STRONG),
    ("resize error for type =", STRONG),
    ("pipeline resize error", STRONG),
    ("can't run session because not resized", STRONG),
    ("invalid net, for null oplist", STRONG),
    ("start to convert other model format", STRONG),
    ("converted failed!", STRONG),
    ("convert error, please check your file format", STRONG),
    ("--bizcode", STRONG),
    ("--modelfile", MEDIUM),
    ("check failed: creator", STRONG),
    (" ==> ", MEDIUM),
    ("check failed: ", WEAK),
    ("create interpreter failed", STRONG),
    ("for create interpreter", STRONG),
    ("invalide session", STRONG),
    ("error to compute shape for", STRONG),
    ("can't compute shape", MEDIUM),
    ("create execution error", STRONG),
    ("_alloctensor failed", STRONG),
    ("pipelinemodule", STRONG),
    ("cpubackend::", STRONG),
    ("executor error:", STRONG),
    ("model has no oplist", STRONG),
    ("empty net for schedule", STRONG),
    ("updatesessiontomodel", STRONG),
    ("don't support type [", MEDIUM),
    ("the creator don't support type", STRONG),
    ("getsessioninput", STRONG),
    ("resizesession", STRONG),
    ("runsession", MEDIUM),
    ("createsession", WEAK),
    ("modelfile not set invalid", STRONG),
    ("model file does not exist!", STRONG),
    ("llmexport", STRONG),
    # Issue 23 (h23u2): MNNConvert's own checks, as its CHECK/LOG macros print them (tools/converter/source:
    # common/writeFb.cpp's set of unconverted ops "notSupportOps", older releases' "Check failed:
    # (notSupportOps.size()) == (0)"; tflite/ReductionTflite.cpp "Not Supported!!! Reduction Op: ";
    # tensorflow/PoolingTf.cpp "Not Support This Pooling Type: "; tensorflow/tfOpConverter.cpp "Const Data
    # Type Not Supported!!!==> "; common/cli.cpp "Framework Input ERROR or Not Support This Model Type Now!").
    ("notsupportops", STRONG),
    ("not supported!!! reduction op", STRONG),
    ("not support this pooling type", STRONG),
    ("const data type not supported!!!", STRONG),
    ("framework input error or not support this model type", STRONG),
    # Branch s27c: the converter's own front-end files, which its '[hh:mm:ss] <file>:<line>:' log lines and
    # its old uncaught 'Error' name even when the checkout's path does not say MNN
    # (tools/converter/source/onnx/onnxConverter.cpp, onnxOpConverter.cpp, caffe/caffeConverter.cpp,
    # tensorflow/tensorflowConverter.cpp, tfOpConverter.cpp).
    ("onnxconverter.cpp", STRONG),
    ("onnxopconverter.cpp", STRONG),
    ("caffeconverter.cpp", STRONG),
    ("tensorflowconverter.cpp", STRONG),
    ("tfopconverter.cpp", STRONG),
)

# ncnn / pnnx, from Tencent/ncnn:
# - src/platform.h.in NCNN_LOGE (stderr; Android log tag "ncnn"); src/net.cpp: "layer %s not exists or
#   registered", "find_blob_index_by_name %s failed", "find_layer_index_by_name %s failed", "param is too old,
# please regenerate", "network graph not ready", "load_model error at layer %d, parameter file has
# inconsistent
#   content.", "layer load_param|load_model|create_pipeline %d failed", "invalid layer_count or blob_count",
#   "ParamDict load_param %d %s failed"; src/modelbin.cpp "ModelBin read weight_data failed";
# - tools/onnx/onnx2ncnn.cpp: "%s not supported yet!", "Unsupported slice step !", "Unsupported unsqueeze
# axes !";
# - tools/pnnx/src/main.cpp: "############# pass_level2 ... pass_ncnn", the inputshape= argument.
_NCNN: Markers = (
    ("ncnn", STRONG),
    ("pnnx", STRONG),
    ("not exists or registered", STRONG),
    ("ncnn::", STRONG),
    (".param", WEAK),
    ("nihui", WEAK),
    ("find_blob_index_by_name", STRONG),
    ("find_layer_index_by_name", STRONG),
    ("param is too old, please regenerate", STRONG),
    ("network graph not ready", STRONG),
    ("parameter file has inconsistent content", STRONG),
    ("layer load_param", STRONG),
    ("layer load_model", STRONG),
    ("layer create_pipeline", STRONG),
    ("invalid layer_count or blob_count", STRONG),
    ("paramdict", STRONG),
    ("read weight_data failed", STRONG),
    ("not supported yet!", WEAK),
    ("unsupported slice step !", STRONG),
    ("unsupported slice axes !", STRONG),
    ("unsupported unsqueeze axes !", STRONG),
    ("pass_level", STRONG),
    ("inputshape=", STRONG),
    # Issue 23 (h23u2): the hint Extractor prints after a blob name it does not know (src/net.cpp: "Try" then
    # one line per candidate, NCNN_LOGE("    ex.input(\"%s\", in%d);") / ("    ex.extract(\"%s\", out%d);")).
    ('ex.input("', STRONG),
    ('ex.extract("', STRONG),
)

# Paddle2ONNX, from PaddlePaddle/Paddle2ONNX:
# - paddle2onnx/mapper/mapper.h: "[Paddle2ONNX] [<op>: <out>]", "[ERROR][Paddle2ONNX]", "[WARN][Paddle2ONNX]";
# - paddle2onnx/converter.cc: "Paddle model parsing failed.", "Paddle model convert failed.", "Start to parse
#   PaddlePaddle model...", "PaddlePaddle model is exported as ONNX format now.", "Due to the unsupported
#   operators, the conversion is aborted.", "Requires the minimal opset version of N";
# - paddle2onnx/command.py flags --model_filename, --params_filename, --enable_dev_version,
#   --enable_onnx_checker; Paddle's model files .pdmodel / .pdiparams; ShapeTensorList inputs.
_PADDLE2ONNX: Markers = (
    ("paddle2onnx", STRONG),
    ("[paddle2onnx]", STRONG),
    ("oops, there are some operators not supported", STRONG),
    ("p2o.", STRONG),
    ("pdmodel", STRONG),
    ("paddle", WEAK),
    ("paddle model parsing failed", STRONG),
    ("paddle model convert failed", STRONG),
    ("start to parse paddlepaddle model", STRONG),
    ("paddlepaddle model is exported as onnx", STRONG),
    ("due to the unsupported operators, the conversion is aborted", STRONG),
    ("requires the minimal opset version of", STRONG),
    ("pdiparams", STRONG),
    ("--model_filename", MEDIUM),
    ("--params_filename", MEDIUM),
    ("--enable_dev_version", STRONG),
    ("--enable_onnx_checker", STRONG),
    ("shapetensorlist", MEDIUM),
    ("paddlepaddle", MEDIUM),
    # Issue 23, round 9: the legacy Python mapper (paddle2onnx/legacy/op_mapper: "Error happened when mapping
    # node [...] to onnx", "Cannot convert adaptive pool with input_size").
    ("error happened when mapping node", STRONG),
    ("cannot convert adaptive pool", STRONG),
)

# torch.onnx, from pytorch/pytorch:
# - torch/onnx/errors.py: OnnxExporterError, UnsupportedOperatorError, CheckerError, SymbolicValueError;
# - torch/onnx/utils.py: "ONNX export failed: Couldn't export operator"; torch._C._jit_pass_onnx;
# - torch/onnx/symbolic_helper.py: "Unsupported: ONNX export of ...", "is achieved by combination of
#   multiple ONNX operators"; register_custom_op_symbolic;
# - torch/onnx/_internal/exporter: "[torch.onnx] Obtain model graph ...", "Failed to export the model with
#   torch.export", "Failed to convert the exported program to an ONNX model"; dynamo_export;
# - graph dumps name nodes onnx::Op (and aten::, prim:: before conversion).
_TORCH_ONNX: Markers = (
    ("torch.onnx", STRONG),
    ("unsupportedoperatorerror", STRONG),
    ("to onnx opset version", STRONG),
    ("symbolic_registry", STRONG),
    ("symbolic_opset", STRONG),
    ("torch/onnx/", STRONG),
    ("torch\\onnx\\", STRONG),
    ("onnx export of", STRONG),
    ("symbolicvalueerror", STRONG),
    ("aten::", WEAK),
    ("prim::", WEAK),
    ("_run_symbolic_function", STRONG),
    ("onnxexportererror", STRONG),
    ("checkererror", STRONG),
    ("couldn't export operator", STRONG),
    ("onnx export failed", STRONG),
    ("is achieved by combination of multiple onnx operators", STRONG),
    ("failed to export the model with torch.export", STRONG),
    ("failed to convert the exported program to an onnx model", STRONG),
    ("dynamo_export", STRONG),
    ("_jit_pass_onnx", STRONG),
    ("symbolic_helper", STRONG),
    ("register_custom_op_symbolic", STRONG),
    ("exporting the operator", MEDIUM),
    ("onnx::", WEAK),
    # Issue 23, round 9: symbolic_helper.py's "Failed to export an ONNX attribute, since it's not constant".
    ("failed to export an onnx attribute", STRONG),
    # Branch s19a, from pytorch/pytorch: the dynamo exporter's errors (torch/onnx/_internal/exporter/
    # _core.py, _dispatching.py, _building.py; fx/analysis/unsupported_nodes.py) and the TorchScript
    # exporter's (symbolic_helper.py; csrc/jit/serialization/export.cpp; csrc/jit/passes/onnx/
    # constant_fold.cpp)
    ("no onnx function found for", STRONG),
    ("error when translating node %", STRONG),
    ("failed to decompose the fx graph for onnx", STRONG),
    ("tracedonnxfunction", STRONG),
    ("unsupported fx nodes:", STRONG),
    ("expected node type 'onnx::constant'", STRONG),
    ("couldn't export python operator", STRONG),
    ("pack_padded_sequence or pad_packed_sequence", STRONG),
    ("only steps=1 can be constant folded", STRONG),
    ("is an unexpected tensor scalar type", STRONG),
    ("you are trying to export the model with onnx:", STRONG),
    # Branch s23c: UnsupportedOperatorError's advice when a newer opset has the op (torch/onnx/errors.py:
    # "... is not supported. Support for this operator was added in version {N}, try exporting with this
    # version").
    ("support for this operator was added in version", STRONG),
    # Branch s31e: the torch.export-based exporter (default since PyTorch 2.9) imports onnxscript when an
    # export starts (torch/onnx/_internal/exporter/_core.py; _lazy_import.py's onnxscript._framework_apis.*);
    # no other family's dev text or the scan noise holds it.
    ("no module named 'onnxscript", STRONG),
)

# Apache TVM, from apache/tvm:
# - python/tvm/error.py: TVMError, InternalError, OpNotImplemented, OpAttributeUnImplemented,
#   OpAttributeRequired, OpAttributeInvalid;
# - include/tvm/runtime/logging.h ICHECK: "Check failed: (<cond>) is false: ..."; TVM_BACKTRACE,
# TVM_LOG_DEBUG;
# - src/tir/analysis/verify_memory.cc: "Did you forget to bind?", "is directly accessed by host memory";
# - python/tvm/autotvm/task/dispatcher.py: "Cannot find config for target=..."; src/relay/transforms/
#   type_infer.cc: "The type inference pass was unable to infer a type for this expression";
# - C++ namespaces tvm::, relay::, relax::, tir::; PrimFunc, IRModule; meta_schedule, auto_scheduler, topi.
_TVM: Markers = (
    ("tvm", STRONG),
    ("tvmerror", STRONG),
    ("relay", WEAK),
    ("relax", WEAK),
    ("opnotimplemented", STRONG),
    ("for frontend onnx", STRONG),
    ("check failed:", WEAK),
    ("internalerror:", WEAK),
    ("t.any()", STRONG),
    ("tvmfunccall", STRONG),
    ("check failed: (", STRONG),
    ("objecttypechecker", STRONG),
    ("opattributeunimplemented", STRONG),
    ("opattributerequired", STRONG),
    ("opattributeinvalid", STRONG),
    ("did you forget to bind?", STRONG),
    ("directly accessed by host memory", STRONG),
    ("cannot find config for target=", STRONG),
    ("unable to infer a type for this expression", STRONG),
    ("relay::", STRONG),
    ("relax::", STRONG),
    ("tir::", STRONG),
    ("primfunc", STRONG),
    ("irmodule", MEDIUM),
    ("meta_schedule", STRONG),
    ("auto_scheduler", STRONG),
    ("topi", MEDIUM),
    (") is false", WEAK),
    # Issue 23, round 9: relay's reshape check (src/relay/op/tensor/transform.cc: "Input tensor shape and
    # reshaped shape are not compatible").
    ("input tensor shape and reshaped shape are not compatible", STRONG),
    # Branch s27c: the TensorIR schedule's files and report (src/s_tir/schedule/concrete_schedule.h,
    # error.cc: "ScheduleError: An error occurred in the schedule primitive") and the code generator's
    # registry names (src/target/codegen.cc: "target.build.<kind> is not enabled").
    ("concrete_schedule", STRONG),
    ("error occurred in the schedule primitive", STRONG),
    ("target.build.", STRONG),
    # Branch s29e: Relax's C++ node class in its checks (src/relax/op/tensor/unary.cc:
    # "min->IsInstance<PrimValueNode>()") and the ONNX importer's symbolic-shape value
    # (python/tvm/relax/frontend/onnx/onnx_frontend.py: "Node ... cannot handle ShapeExpr inputs.").
    ("primvaluenode", STRONG),
    ("cannot handle shapeexpr inputs", STRONG),
)

# Core ML, from apple/coremltools:
# - converters/mil/frontend/torch/ops.py: "PyTorch convert function for op '%s' not implemented.";
#   register_torch_op, _TORCH_OPS_REGISTRY; frontend/torch/converter.py: "Torch var %s not found in context",
#   the progress bar "Converting PyTorch Frontend ==> MIL Ops"; "Unsupported fx node";
#   frontend/tensorflow: "TF var %s not found in context"; mil/passes: "Running MIL %s pipeline";
# - models/model.py: MLModel, ComputeUnit, minimum_deployment_target, mlprogram;
# - the Core ML runtime (Apple), as quoted in coremltools tests and user logs: "Error computing NN outputs",
# "Unable to compute the prediction using a neural network model", E5RT, MILCompilerForANE,
# ANECompilerService.
_COREML: Markers = (
    ("coremltools", STRONG),
    ("coreml", STRONG),
    ("mlmodel", STRONG),
    ("mil ops", STRONG),
    ("mil_convert", STRONG),
    ("pytorch convert function for op", STRONG),
    ("conversion for tf op", STRONG),
    ("register_tf_op", STRONG),
    ("ct.convert", STRONG),
    ("mlpackage", STRONG),
    ("converters.mil", STRONG),
    ("converters/mil", STRONG),
    ("torch var ", MEDIUM),
    ("tf var ", MEDIUM),
    ("not found in context", MEDIUM),
    ("running mil ", STRONG),
    ("mlprogram", STRONG),
    ("ml program", MEDIUM),
    ("mil program", MEDIUM),
    ("minimum_deployment_target", STRONG),
    ("computeunit", STRONG),
    # "Unsupported fx node {node}, kind {kind}": the trailing space keeps torch.onnx's FX exporter
    # ("Unsupported FX nodes: {...}") out of it
    ("unsupported fx node ", STRONG),
    ("tfcoreml", STRONG),
    ("unsupported ops of type:", STRONG),
    ("error computing nn outputs", STRONG),
    ("unable to compute the prediction using a neural network model", STRONG),
    ("e5rt", STRONG),
    ("milcompilerforane", STRONG),
    ("anecompilerservice", STRONG),
    ("register_torch_op", STRONG),
    ("_torch_ops_registry", STRONG),
    ("neuralnetwork", WEAK),
    # Issue 23, round 9: models/model.py's warning when the compiled model cannot load ("You will not be able
    # to run predict() on this Core ML model. Underlying exception message was: ..."), the product name with
    # its space, and the ONNX converter's unsupported-op check (converters/onnx: _check_unsupported_ops).
    ("you will not be able to run predict() on this core ml model", STRONG),
    ("core ml", MEDIUM),
    ("_check_unsupported_ops", STRONG),
    # Issue 23 (h23w): coremltools' models/model.py and utils.py ("Model prediction is only supported on macOS
    # version 10.13 or later", "Unable to load libmodelpackage", its native libcoremlpython, "MLModel of type
    # mlProgram cannot be loaded just from the model spec object", ComputeUnit.CPU_AND_NE) and the Core ML
    # framework's own error domain, classes and load failure (com.apple.CoreML, MLMultiArray, MLComputeUnits,
    # "Failed to build the model execution plan").
    ("model prediction is only supported on macos", STRONG),
    ("libmodelpackage", STRONG),
    ("libcoremlpython", STRONG),
    ("of type mlprogram cannot be loaded", STRONG),
    ("cpu_and_ne", STRONG),
    ("com.apple.coreml", STRONG),
    ("mlmultiarray", STRONG),
    ("mlcomputeunits", STRONG),
    ("failed to build the model execution plan", STRONG),
    # The Core ML runtime's own log line and the Neural Engine compiler it reports ("E5RT encountered an STL
    # exception. msg = MILCompilerForANE error: failed to compile ANE model using ANEF. Error=_ANECompiler :
    # ANECCompile() FAILED."; "e5rt" and "milcompilerforane" are above).
    ("e5rt encountered an stl exception", STRONG),
    ("anecompile", STRONG),
    # Issue 23 (h23u2): the Core ML runtime's plan execution failure as its log prints it ("[coreml] Failure
    # in -executePlan:error:."), and Apple's BNNS Graph, the CPU engine Core ML compiles a model into on macOS
    # 15 / iOS 18 and later (Accelerate's BNNSGraphCompileFromFile takes an .mlmodelc), whose compile errors
    # are logged as "BNNS Graph Compile: ...".
    ("-executeplan:error:", STRONG),
    ("bnns graph compile", STRONG),
    # Branch s22a: the PyTorch frontend's listing of the ops it has no translation for, printed before
    # "PyTorch convert function for op ... not implemented" (coremltools
    # converters/mil/frontend/torch/load.py).
    ("the following model ops are missing:", STRONG),
    # Branch s23c: the PyTorch frontend's progress bar ("Converting PyTorch Frontend ==> MIL Ops",
    # converters/mil/frontend/torch/ops.py) and coremltools' other native module, the MIL blob storage
    # (libmilstoragepython, converters/mil/backend/mil/load.py); Apple's: the Neural Engine compiler's entry
    # points (ANECCompile(), ANECCompileOffline()), the runtime's "Unable to extract model type from stream in
    # compiled model", and NSError's description key, which coremltools' _MLModelProxy raises as
    # RuntimeError: {NSLocalizedDescription = "..."} (any Apple framework's error carries it, hence medium).
    ("converting pytorch frontend", STRONG),
    ("libmilstoragepython", STRONG),
    ("aneccompile", STRONG),
    ("unable to extract model type from stream", STRONG),
    ("nslocalizeddescription", MEDIUM),
    # Session s28c: Espresso, the Core ML runtime engine for neural-network models, as its log prints it
    # ("[espresso] [Espresso::handle_ex_plan] exception=Espresso exception: \"Invalid state\": ..."; the bare
    # word is also Android's UI test framework, so only these forms), the model-asset error domain
    # (com.apple.mlassetio, "Failed to parse the model specification. Error: Unable to parse ML Program: ...")
    # and the framework's feature classes (MLFeatureProvider, MLFeatureValue, MLShapedArray).
    ("[espresso]", STRONG),
    ("espresso::", STRONG),
    ("espresso exception", STRONG),
    ("mlassetio", STRONG),
    ("unable to parse ml program", STRONG),
    ("mlfeatureprovider", STRONG),
    ("mlfeaturevalue", STRONG),
    ("mlshapedarray", STRONG),
)

COMPONENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("RKLLM", ("rkllm",)),
    ("Genie", ("genie",)),
    ("TensorRT-LLM", ("tensorrt_llm", "tensorrt-llm", "trtllm", "trt-llm", "trt_llm", "tllm")),
    ("onnxruntime-genai", ("genai", "og.")),
    ("OpenVINO GenAI", ("genai", "pipeline")),
    ("MediaPipe LLM", ("mediapipe", "llm", "odml")),
    ("LiteRT-LM", ("litert-lm", "litert_lm", "litertlm", "llm")),
)
"""Components of a family that print messages of their own beside the family's main product: an LLM
runtime built on a vendor's model runtime (Rockchip's RKLLM over librknnrt, Qualcomm's Genie over QNN,
TensorRT-LLM over TensorRT, onnxruntime-genai, OpenVINO GenAI, MediaPipe's and LiteRT's LLM inference over
TFLite), as ``(text in an entry's tool, what a message of that component holds, lower case)``.  The
component's messages name it (its library, package, namespace or API); an entry written for it is no
answer to a message of its family that names no component when its pattern did not match
(:func:`component_unnamed`): the wording they share is the family's (a plugin, a CUDA call, a model
load), and the advice would be about the wrong component.  Read from the components' own sources: rkllm.h
(``rkllm_*``), GenieCommon.h (``Genie*``), tensorrt_llm's package and ``tllm`` namespace, onnxruntime-genai's
``og.`` API, OpenVINO GenAI's ``ov::genai`` pipelines, MediaPipe's ``LlmInference`` and LiteRT-LM."""


def component_unnamed(tool: str, lowered: str) -> bool:
    """Whether ``tool`` (an entry's) is a :data:`COMPONENTS` component that the message (``lowered``)
    does not name."""
    for name, literals in COMPONENTS:
        if name in tool:
            return not any(literal in lowered for literal in literals)
    return False


#: family -> ((marker, weight), ...); markers are lower-case literals.
MARKERS: dict[str, Markers] = {
    "ascend": _ASCEND,
    "rknn": _RKNN,
    "tensorrt": _TENSORRT,
    "onnxruntime": _ONNXRUNTIME,
    "onnx": _ONNX,
    "onnxsim": _ONNXSIM,
    "float16": _FLOAT16,
    "qualcomm": _QUALCOMM,
    "sigmastar": _SIGMASTAR,
    "openvino": _OPENVINO,
    "tflite": _TFLITE,
    "mnn": _MNN,
    "ncnn": _NCNN,
    "paddle2onnx": _PADDLE2ONNX,
    "torch_onnx": _TORCH_ONNX,
    "tvm": _TVM,
    "coreml": _COREML,
}

# Tools dumpscope does not cover.  A message that names one of them is answered "this is <tool>;
# not covered" instead of being matched by wording to a covered tool.  Markers are the tools' own
# package, CLI and API names and log prefixes, from their public repositories and user guides:
# - Hailo Dataflow Compiler / HailoRT (hailo-ai/hailort: hailort/libhailort, HAILO_* status names;
#   hailo-ai/hailo_model_zoo: hailomz; the DFC's hailo_sdk_client / hailo_model_optimization packages,
#   the `hailo parser|optimize|compiler` CLI, .har/.hef files);
# - AMD/Xilinx Vitis AI (Xilinx/Vitis-AI: vai_q_pytorch/pytorch_nndct and nndct_shared, the [VAIQ_*] and
#   [NNDCT_*] log prefixes, vai_c_xir / vai_c_tensorflow*, XIR, VART, xmodel);
# - Sophgo TPU-MLIR (sophgo/tpu-mlir: model_transform.py, model_deploy.py, run_calibration.py,
#   tpuc-opt, tpu_mlir, .bmodel, the [BMODEL] log prefix, bmrt_/bm_ runtime calls, libbackend_1684x);
# - Cambricon MagicMind / CNRT / CNNL (Cambricon/mlu-ops logs: [cnrtError], [MLUOP], cnrt*/cnnl* calls,
#   torch_mlu);
# - Horizon Robotics toolchain (hb_mapper, hb_mapper makertbin, horizon_nn, hbdk, hb_dnn, hrt_model_exec);
# - MediaTek NeuroPilot (ncc-tflite, neuron_adapter / NeuronAdapter, neuropilot);
# - Intel NPU plugin of OpenVINO / the NPU driver (intel_npu_acceleration_library, "[npu_compiler]",
#   vpux, ze_result_error: Level Zero, the compiler's MLIR locations) -- OpenVINO itself is covered, so
#   only NPU-specific markers;
# - TI TIDL (tidl_model_import, tidlrt), Arm NN (armnn::); NXP eIQ Neutron (neutron-converter) below.
# Widened from the tools' own sources (issue 23, branch h23b2), so that a line that quotes a tool's own
# wording or status names without naming the tool is still its tool's:
# - Hailo: hailo-ai/hailort hailort/libhailort/include/hailo/hailort.h (the HAILO_<NAME>(<n>) status names
#   the CHECK macros print, hailort/common/utils.hpp "CHECK_SUCCESS failed with status=..."), the console
#   logger's "[HailoRT] [level]" pattern (src/utils/hailort_logger.cpp), the device names (hailo8, hailo8l,
#   hailo15h, hailo10h); hailo-ai/hailo_model_zoo cfg/alls/*.alls: the model-script commands
#   (allocator_param, performance_param, resources_param, context_switch_param, compilation_param,
#   model_optimization_flavor); the Dataflow Compiler's allocator log as Hailo's community forum
#   (community.hailo.ai) quotes it: "Solving the allocation (Mapping)", "Trying parallel mapping",
#   "Successful Partition and Allocation", "Mapping Failed (allocation time: ...)" and the multi-context
#   wording ("could not fit in single context", a network split into contexts by the compiler);
# - Vitis AI: the nndct/vai_q_/vai_c_ prefixes as families of names (pytorch_nndct, nndct_shared, [NNDCT_*],
#   vai_q_onnx, vai_c_xir...), UNILOG without brackets, xcompiler's XCOM_* codes (not the bare word
#   xcompiler: nvcc's -Xcompiler flag is in every CUDA build log), the DPUC* targets,
#   vaitrace, the DpuRunner (Xilinx/Vitis-AI src/vai_runtime, src/vai_library);
# - Sophgo: tpu_mlir's mlir_shell "[!Error]" with the tpuc-opt passes (--convert-top-to-tpu), tpulang,
#   cvimodel (CV18xx), bmruntime/libbmrt/bmlib, the nntoolchain/TPU1686 firmware paths, npz_tool;
# - Cambricon: the MLU driver and libraries (cndrv, cndev, cnmon, mlu-ops, bang C), more MLU boards;
# - Horizon: hb_compile and hmct (the OpenExplorer J6 toolchain), hbir, horizon_plugin_pytorch,
#   hb_model_verifier, hbrt / bpu_predict;
# - MediaTek NeuroPilot: NeuronAdapter's result codes (NEURON_BAD_DATA, NEURON_OP_FAILED,
#   NEURON_UNEXPECTED_NULL, NEURON_UNMAPPABLE...: neuron/api/NeuronAdapter.h), neuronrt, MDLA,
#   APUSYS;
# - Intel NPU: the driver-compiler adapter and Level Zero graph extension (ze_graph, zeGraphCreate,
#   driver_compiler_adapter: openvino src/plugins/intel_npu), the NPU wrapper NPUW's "[ NPUW:" prefix, the
#   compiler's name without brackets (npu_compiler). An NPU plugin message routes to openvino only where
#   OpenVINO's own markers outweigh these (answer.py);
# - Axera Pulsar2 (AXera-Tech/pulsar2-docs: `pulsar2 build|run|version`, .axmodel, AX650/AX620/AX630 chips,
#   the AXCL (axclrt*, axcl_*) and ax_engine runtime);
# - NXP eIQ (the Neutron converter and delegate, eIQ toolkit, the VX delegate over VeriSilicon TIM-VX);
# - Ambarella CVflow (CNNGen, the cavalry driver, eazyai, nnctrl);
# - Kneron (kneron_plus, the ktc toolchain, the KL520/KL630/KL720/KL730 chips, kdp2_ calls);
# - Google Edge TPU compiler (edgetpu_compiler, coral.ai/docs/edgetpu/compiler; a TFLite interpreter check
#   it quotes while compiling a segment is inside its envelope, as an execution provider's text is inside
#   onnxruntime's): libedgetpu's runtime lines (the delegate that fails to
#   load) stay TensorFlow Lite's, whose entries answer them; the compiler has no entries, so it is
#   uncovered.
# Apple's ANE compiler is Core ML's (covered: its markers are _COREML's).
_HAILO: Markers = (
    ("hailo_sdk_client", STRONG),
    ("hailo_sdk_common", STRONG),
    ("hailo_model_optimization", STRONG),
    ("hailort", STRONG),
    ("hailomz", STRONG),
    ("hailo parser", STRONG),
    ("hailo optimize", STRONG),
    ("hailo compiler", STRONG),
    ("hailo_status", STRONG),
    ("hailo_invalid", STRONG),
    ("hailo", MEDIUM),
    (".hef", MEDIUM),
    (".har", WEAK),
    ("--hw-arch hailo", STRONG),
    ("hailo_", STRONG),
    ("hailo8", STRONG),
    ("hailo-8", STRONG),
    ("hailo15", STRONG),
    ("hailo-15", STRONG),
    ("hailo10", STRONG),
    ("hailo-10", STRONG),
    ("allocator_param", STRONG),
    ("performance_param", STRONG),
    ("resources_param", STRONG),
    ("context_switch_param", STRONG),
    ("compilation_param", STRONG),
    ("model_optimization_flavor", STRONG),
    ("could not fit in single context", STRONG),
    ("mapping failed (allocation time", STRONG),
    ("solving the allocation (mapping)", STRONG),
    ("trying parallel mapping", STRONG),
    ("successful partition and allocation", STRONG),
    # s35u: the Dataflow Compiler's exception classes as its CLI prints them without their module
    # ("[error] BackendAllocatorException: Compilation failed: ..." from the allocator; the parser's
    # hailo_sdk_client.model_translator.exceptions ParsingWithRecommendationException and MisspellNodeError,
    # which hailo-ai/hailo_model_zoo imports and Hailo's community posts quote)
    ("backendallocatorexception", STRONG),
    ("parsingwithrecommendationexception", STRONG),
    ("misspellnodeerror", STRONG),
)
_VITIS_AI: Markers = (
    ("vai_q_pytorch", STRONG),
    ("vai_q_tensorflow", STRONG),
    ("vai_q_onnx", STRONG),
    ("pytorch_nndct", STRONG),
    ("nndct_shared", STRONG),
    ("[vaiq_", STRONG),
    ("[nndct_", STRONG),
    ("vai_c_xir", STRONG),
    ("vai_c_tensorflow", STRONG),
    ("vai_c_caffe", STRONG),
    ("vitis-ai", STRONG),
    ("vitis_ai", STRONG),
    ("[unilog]", STRONG),
    ("[xcom_", STRONG),
    ("vitis ai", STRONG),
    ("xir::", STRONG),
    ("vart::", STRONG),
    ("xmodel", MEDIUM),
    ("dpucz", STRONG),
    ("dpucvdx", STRONG),
    ("dpuczdx", STRONG),
    ("quantizer_torch_", STRONG),
    ("nndct", STRONG),
    ("vai_q_", STRONG),
    ("vai_c_", STRONG),
    ("unilog", STRONG),
    ("xcom_", STRONG),
    ("dpuc", STRONG),
    ("vaitrace", STRONG),
    ("dpurunner", STRONG),
    ("dpu_runner", STRONG),
)
_SOPHGO: Markers = (
    ("tpu-mlir", STRONG),
    ("tpu_mlir", STRONG),
    ("tpuc-opt", STRONG),
    ("model_deploy.py", STRONG),
    ("model_transform.py", STRONG),
    ("run_calibration.py", STRONG),
    ("model_transform ", MEDIUM),
    ("model_deploy ", MEDIUM),
    ("bmodel", STRONG),
    ("[bmodel]", STRONG),
    ("bmrt_", STRONG),
    ("libbackend_1684", STRONG),
    ("bm1684", STRONG),
    ("bm1688", STRONG),
    ("cv183x", STRONG),
    ("cv181x", STRONG),
    ("sophon", STRONG),
    ("sophgo", STRONG),
    ("nodechip_", STRONG),
    ("bmcpu init", STRONG),
    ("[!error]", MEDIUM),
    ("convert-top-to-tpu", STRONG),
    ("tpulang", STRONG),
    ("cvimodel", STRONG),
    ("bmruntime", STRONG),
    ("libbmrt", STRONG),
    ("bmlib", STRONG),
    ("nntoolchain", STRONG),
    ("tpu1686", STRONG),
    ("npz_tool", STRONG),
    ("bm1690", STRONG),
    ("cv186", STRONG),
    # s35u: the CV18xx kernel library tpu-mlir's CV18xx backend builds with (sophgo/cvikernel: its
    # cvkcv180x_* / cvkcv181x_* functions print "cvkcv180x tiu xor: wrong parameter" when a parameter check
    # fails, src/cv180x/*.c), and the CV18xx runtime that loads a .cvimodel (cviruntime, its C API
    # CVI_NN_RegisterModel / CVI_NN_Forward...)
    ("cvkcv18", STRONG),
    ("cvikernel", STRONG),
    ("cviruntime", STRONG),
    ("cvi_nn_", STRONG),
    # s35u: the BM168x runtime's log prefix "[BMRT][<function>:<line>] FATAL|INFO:..." (libsophon bmrt_test /
    # load_bmodel output in sophgo's tpu-mlir and sophon-demo docs) and bmlib's status names (bmlib_runtime.h
    # bm_status_t: BM_ERR_DEVNOTREADY, BM_ERR_FAILURE, BM_ERR_TIMEOUT, BM_ERR_PARAM, BM_ERR_NOMEM...)
    ("[bmrt][", STRONG),
    ("bm_err_", STRONG),
)
_CAMBRICON: Markers = (
    ("magicmind", STRONG),
    ("[cnrterror]", STRONG),
    ("cnrt_ret_", STRONG),
    ("cnrtplace", STRONG),
    ("cnrt", MEDIUM),
    ("[mluop]", STRONG),
    ("mluop", STRONG),
    ("cnnl_status", STRONG),
    ("cnnl", MEDIUM),
    ("torch_mlu", STRONG),
    ("cambricon", STRONG),
    ("neuware", STRONG),
    ("mlu370", STRONG),
    ("mlu270", STRONG),
    ("cndrv", STRONG),
    ("cndev", STRONG),
    ("cnmon", STRONG),
    ("mlu-ops", STRONG),
    ("bangc", STRONG),
    ("mlu590", STRONG),
    ("mlu220", STRONG),
    ("mlu290", STRONG),
    # s35u: CNML, Cambricon's earlier network library (the MLU270 era, before MagicMind): its log prefix
    # "[cnmlError]" beside CNRT's "[cnrtError]" in the library's own log lines, its status type cnmlStatus_t
    # and CNML_STATUS_* values (Cambricon's caffe / Paddle-Lite MLU backends call cnmlCreate*Op through
    # CNML_CALL / MLU_CHECK), and the bare name, a whole word
    ("[cnmlerror]", STRONG),
    ("cnml_status_", STRONG),
    ("cnmlstatus", STRONG),
    ("cnml", MEDIUM),
    # s35u: CNNL's own log prefix ("[CNNL] [Error]:[cnnlConvolutionForward] ...", "[CNNL] [Warning]:...", as
    # Cambricon's torch_mlu tests quote the library)
    ("[cnnl]", STRONG),
)
_HORIZON: Markers = (
    ("hb_mapper", STRONG),
    ("horizon_nn", STRONG),
    ("horizon_tc_ui", STRONG),
    ("hbdk", STRONG),
    ("hb_dnn", STRONG),
    ("hrt_model_exec", STRONG),
    ("hb_perf", STRONG),
    ("makertbin", STRONG),
    ("horizon robotics", STRONG),
    ("hbdnn", STRONG),
    ("hb_compile", STRONG),
    ("hmct", STRONG),
    ("hbir", STRONG),
    ("horizon_plugin_pytorch", STRONG),
    ("hb_model_verifier", STRONG),
    ("hbrt", STRONG),
    ("bpu_predict", STRONG),
)
_NEUROPILOT: Markers = (
    ("neuropilot", STRONG),
    ("ncc-tflite", STRONG),
    ("neuron_adapter", STRONG),
    ("neuronadapter", STRONG),
    ("neuronmodel_", STRONG),
    ("neuroncompilation_", STRONG),
    ("neuronexecution_", STRONG),
    ("mtk_neuron", STRONG),
    ("mediatek", MEDIUM),
    ("neuron_bad_data", STRONG),
    ("neuron_bad_state", STRONG),
    ("neuron_bad_version", STRONG),
    ("neuron_op_failed", STRONG),
    ("neuron_unexpected_null", STRONG),
    ("neuron_unmappable", STRONG),
    ("neuron_out_of_memory", STRONG),
    ("neuron_output_insufficient_size", STRONG),
    ("neuronrt", STRONG),
    ("mdla", STRONG),
    ("apusys", STRONG),
    # s35u: LiteRT's MediaTek dispatch library reports NeuronAdapter's model_restore_from_compiled_network
    # failing as "Failed to restore model from compiled network" (google-ai-edge/LiteRT: litert/vendors/
    # mediatek/dispatch/litert_dispatch_invocation_context.cc); the compiled network is NeuroPilot's
    ("restore model from compiled network", STRONG),
)
_INTEL_NPU: Markers = (
    ("intel_npu_acceleration_library", STRONG),
    # its package name as pip and its own messages spell it (intel/intel-npu-acceleration-library
    # backend/bindings.py: "Platform <p> is not supported for intel-npu-acceleration-library library")
    ("intel-npu-acceleration-library", STRONG),
    ("[npu_compiler]", STRONG),
    ("vpux", STRONG),
    ("ze_result_error", STRONG),
    ("npu_plugin", STRONG),
    ("intel(r) npu", STRONG),
    ("intel npu", STRONG),
    ("intel_npu/src", STRONG),
    # the same source tree printed by a Windows build ("Exception from src\plugins\intel_npu\src\plugin\
    # npuw\compiled_model.cpp:455"), and NPUW's own folder (src/plugins/intel_npu/src/plugin/npuw/: the NPU
    # wrapper that partitions a model and compiles each part for the devices of NPUW_DEVICES)
    ("intel_npu\\src", STRONG),
    ("\\npuw\\", STRONG),
    ("/npuw/", STRONG),
    ("zero_compiler_in_driver", STRONG),
    ("l0 pfncreate", STRONG),
    ("l0 creategraph", STRONG),
    # The NPU compiler's MLIR locations: an OpenVINO node's friendly name and type in a fused location
    # (npu_compiler lit tests and its diagnostics: loc(fused<{name = "conv", type = "Convolution"}>["conv"])).
    ('loc(fused<{name = "', STRONG),
    ("npu_compiler", STRONG),
    ("driver_compiler_adapter", STRONG),
    ("ze_graph", STRONG),
    ("zegraphcreate", STRONG),
    ("[ npuw:", STRONG),
    ("npuw", MEDIUM),
)
# Session s32c: TI's TIDL and Arm NN, one family each (they were "other_edge" together), and more tools the
# dev unknown records hold, each from its own public sources:
# - TI TIDL (TexasInstruments/edgeai-tidl-tools: tidl_model_import, the TIDL runtime tidlrt; the importer's
#   "Unsupported (import) TIDL layer type" and "... not supported by TIDL": the word TIDL, a whole word, is
#   only TI's);
# - Arm NN (ARM-software/armnn: the namespace armnn::, the runtime's start line "ArmNN v<version>"
#   (src/armnn/Runtime.cpp: ARMNN_LOG(info) << "ArmNN v" << ARMNN_VERSION), its tools' "Armnn Error: " (tests/
#   ExecuteNetwork), its parsers and tools
#   (armnnOnnxParser, armnnTfLiteParser, armnnDeserializer, ArmnnConverter; not its TfLite delegate's name,
#   which TFLite's own tools print around it),
#   its source tree's backendsCommon, and its backend IDs CpuAcc / GpuAcc / CpuRef (include/armnn/
#   BackendId.hpp));
# - AMD MIGraphX (ROCm/AMDMIGraphX: the namespace migraphx:: (its exception class migraphx::exception), the
#   C API's "MIGraphX Error: " (src/api/api.cpp, try_), the source tree AMDMIGraphX and src/include/migraphx/,
#   the migraphx-driver tool, libmigraphx; onnxruntime's MIGraphX execution provider stays onnxruntime's: its
#   markers outweigh one of these, answer.py);
# - Apple MLX (ml-explore/mlx: the Python module mlx.core and the C++ namespace mlx::core, the Metal backend's
#   "[metal::Device] Unable to load kernel ..." / "... Unable to build metal library from source"
#   (mlx/backend/metal/device.cpp), and its packages mlx-lm / mlx_lm, mlx-vlm, mlx-swift);
# - Kendryte nncase (kendryte/nncase: its name, the NnCase.* .NET assemblies, its .kmodel output);
# - Tencent TNN (Tencent/TNN: the namespace tnn::, its source tree source/tnn/, its Android log tag "E/tnn:");
# - Arm Ethos-U's Vela compiler (ethos-u-vela: ethosu/vela/tflite_supported_operators.py's "'<op>' is not
#   supported on the NPU. Placing on CPU instead", the package ethosu.vela, the Ethos-U names).
_TI_TIDL: Markers = (
    ("tidl_model_import", STRONG),
    ("tidlrt", STRONG),
    ("tidl", STRONG),
)
_ARM_NN: Markers = (
    ("armnn::", STRONG),
    # the bare name, MEDIUM: TFLite's own tools name Arm NN's delegate they load ("TfLite ArmNN delegate"),
    # and that message is TFLite's; with a backend ID or another of Arm NN's names it is Arm NN's
    ("armnn", MEDIUM),
    ("arm nn", MEDIUM),
    # the runtime's start line and its tools' catch of armnn::Exception (ExecuteNetwork, the inference tests:
    # ARMNN_LOG(fatal) << "Armnn Error: " << e.what())
    ("armnn v", STRONG),
    ("armnn error: ", STRONG),
    ("armnnonnxparser", STRONG),
    ("armnntfliteparser", STRONG),
    ("armnndeserializer", STRONG),
    ("armnnconverter", STRONG),
    ("backendscommon", STRONG),
    ("cpuacc", MEDIUM),
    ("gpuacc", MEDIUM),
    ("cpuref", MEDIUM),
)
_MIGRAPHX: Markers = (
    ("migraphx::", STRONG),
    ("migraphx error:", STRONG),
    ("amdmigraphx", STRONG),
    ("include/migraphx/", STRONG),
    ("migraphx-driver", STRONG),
    ("libmigraphx", STRONG),
    ("migraphx", MEDIUM),
)
_APPLE_MLX: Markers = (
    ("mlx.core", STRONG),
    ("mlx::core", STRONG),
    ("[metal::device]", STRONG),
    ("mlx_lm", STRONG),
    ("mlx-lm", STRONG),
    ("mlx_vlm", STRONG),
    ("mlx-vlm", STRONG),
    ("mlx-swift", STRONG),
    # s35u: the Metal allocator's errors (ml-explore/mlx mlx/backend/metal/allocator.cpp, MetalAllocator::
    # malloc: "[metal::malloc] Attempting to allocate <n> bytes which is greater than the maximum allowed
    # buffer size of <m> bytes.", "[metal::malloc] Resource limit (<n>) exceeded."), and mlx-serve, an
    # OpenAI-style server of MLX models (ddalcu/mlx-serve), by its name
    ("[metal::malloc]", STRONG),
    ("mlx-serve", STRONG),
)
_NNCASE: Markers = (
    ("nncase", STRONG),
    ("kendryte", STRONG),
    ("kmodel", STRONG),
)
_TENCENT_TNN: Markers = (
    ("tnn::", STRONG),
    ("source/tnn/", STRONG),
    ("e/tnn:", STRONG),
)
_ETHOS_U: Markers = (
    ("placing on cpu instead", STRONG),
    ("ethos-u", STRONG),
    ("ethosu", STRONG),
)
_AXERA: Markers = (
    ("pulsar2", STRONG),
    ("axmodel", STRONG),
    ("axera", STRONG),
    ("ax650", STRONG),
    ("ax620", STRONG),
    ("ax630", STRONG),
    ("axclrt", STRONG),
    ("axcl_", STRONG),
    ("ax_engine", STRONG),
    # the Axera BSP's proc files (/proc/ax_proc/mem_cmm_info, /proc/ax_proc/logctl...), read by its runtime
    ("/proc/ax_proc", STRONG),
    # s26h: Pulsar v1, Pulsar2's predecessor, whose log lines name its Python packages ("<frozen
    # super_pulsar.model_executor>", "neuwizard", the "pulsar build" command: AXera-Tech's super_pulsar docs),
    # and the BSP's syslog configuration file its runtime looks for ("NOT find file = '/etc/ax_syslog.conf'";
    # the whole path: "ax_syslog" alone is inside other tools' "max_syslog").
    ("super_pulsar", STRONG),
    ("neuwizard", STRONG),
    ("[pulsar build]", STRONG),
    ("/etc/ax_syslog.conf", STRONG),
    # s35u: Pulsar2's own Python packages, frozen into its toolchain image: yamain (the `pulsar2` command:
    # its loguru lines "yamain.command.build:compile_ptq_model:<line> - ..." in AXERA-TECH/pulsar2-docs'
    # examples, and the "<frozen yamain.common.error>" frames of a failed build) and its NPU scheduler
    # yasched; each a whole word ("yamain." ends a longer name elsewhere)
    ("yamain.", STRONG),
    ("yasched.", STRONG),
)
_NXP_EIQ: Markers = (
    ("neutron_converter", STRONG),
    ("neutron-converter", STRONG),
    ("neutron_delegate", STRONG),
    ("libneutron", STRONG),
    ("eiq", STRONG),
    ("vx_delegate", STRONG),
    ("vx delegate", STRONG),
    ("tim-vx", STRONG),
    ("timvx", STRONG),
)
_AMBARELLA: Markers = (
    ("ambarella", STRONG),
    ("cvflow", STRONG),
    ("cnngen", STRONG),
    ("eazyai", STRONG),
    ("nnctrl", STRONG),
    ("cavalry", MEDIUM),
)
_KNERON: Markers = (
    ("kneron", STRONG),
    ("ktc", STRONG),
    ("kl520", STRONG),
    ("kl630", STRONG),
    ("kl720", STRONG),
    ("kl730", STRONG),
    ("kdp2_", STRONG),
)
_EDGE_TPU_COMPILER: Markers = (
    ("edgetpu_compiler", STRONG),
    ("edgetpu-compiler", STRONG),
    ("edge tpu compiler", STRONG),
    # The compiler's own log around a segment it compiles in a child process under a timeout
    # (--timeout_sec, default 180 s) and its operation log's status column (coral.ai/docs/edgetpu/compiler).
    ("compilation child process", STRONG),
    ("compilation timeout timer", STRONG),
    ("searching for valid delegate with step", STRONG),
    ("mapped to edge tpu", STRONG),
    # s35u: the compiler's first line, its version banner ("Edge TPU Compiler version x.y.z": coral.ai/docs/
    # edgetpu/compiler), counts beside its name: a TFLite parse error the compiler prints under its banner
    # (its built-in TFLite reading a newer model's op version) is the compiler's; and the operation log's
    # status for an op it left on the CPU for no named reason
    ("edge tpu compiler version", STRONG),
    ("not mapped due to some unspecified limitation", STRONG),
)
# Issue 23, round 21 (h23v2): more accelerator toolchains, each from its own public repositories and docs (its
# package, module, CLI and log-prefix names; none is a name a covered tool prints):
# - AWS Neuron (aws-neuron/aws-neuron-sdk docs: the compilers neuronx-cc / neuron-cc and their Python packages
#   neuronxcc / neuroncc, with the compiler's walrus backend ("neuronxcc/starfish/bin/walrus_driver") and its
#   neuroncc_compile_workdir; the frameworks torch_neuronx / torch_neuron / neuronx_distributed /
#   transformers_neuronx and optimum-neuron; the runtime libnrt's log lines "NRT:nrt_init", "NRT:nrt_load"...
#   with the driver's NMGR:/TDRV: prefixes, the NRT_* status names, the .neff executable, NeuronCores);
# - Intel Gaudi / Habana (HabanaAI: the PyTorch bridge habana_frameworks.torch, the SynapseAI C API's
#   synStatus / synSuccess names, the hl-smi tool, the habanalabs driver, optimum-habana);
# - Graphcore (graphcore/poptorch, popart, poplar and poplibs: their packages, C++ namespaces poplar:: and
#   popart::, the PopEF format, gc-monitor);
# - Tenstorrent (tenstorrent/tt-metal: ttnn, tt_metal, its TT_FATAL / TT_THROW asserts, tt-smi; pybuda /
#   tt-buda, tt-forge);
# - Cerebras (Cerebras/modelzoo: cerebras.pytorch imported as cstorch, cerebras.modelzoo);
# - FuriosaAI (furiosa-sdk, furiosa-llm / furiosa_llm, the Warboy chip);
# - Rebellions (rebellions-sw/optimum-rbln: optimum.rbln and its RBLNModel classes, vllm-rbln, the
#   rebel-compiler package and its rebel.compile_from_torch);
# - MemryX (memryx/MemryX_eXamples: the memryx package and its Neural Compiler mx_nc);
# - Moore Threads MUSA (MooreThreads/torch_musa: torch_musa, musa error names musaError*, mthreads);
# - Enflame (TopsRider, torch_gcu), Iluvatar CoreX (ixsmi, IxRT), Hygon DCU (hy-smi), Kunlunxin;
# - SiMa.ai, Blaize: their company and SDK names only.
_AWS_NEURON: Markers = (
    ("neuronxcc", STRONG),
    ("neuronx-cc", STRONG),
    ("neuron-cc", STRONG),
    ("neuroncc", STRONG),
    ("torch_neuronx", STRONG),
    ("torch-neuronx", STRONG),
    ("torch_neuron", STRONG),
    ("neuronx_distributed", STRONG),
    ("transformers_neuronx", STRONG),
    ("optimum-neuron", STRONG),
    ("optimum.neuron", STRONG),
    ("aws-neuron", STRONG),
    ("libnrt", STRONG),
    ("nrt:nrt_", STRONG),
    ("nrt_", MEDIUM),
    ("nmgr:", STRONG),
    ("tdrv:", STRONG),
    ("walrus_driver", STRONG),
    ("neuroncore", STRONG),
    ("libneuronxla", STRONG),
    (".neff", MEDIUM),
    ("neuron-top", STRONG),
    ("neuron-ls", STRONG),
    # s35u: neuronx-cc's own HLO passes, whose sources its fatal log lines name ("F hilo/hlo_passes/<Pass>.cc:
    # <line>] ...", as aws-neuron/aws-neuron-sdk issue threads quote the compiler's output); torch-neuron,
    # the Inf1 framework, by its package name, and its Python logger "Neuron" ("INFO:Neuron:The following
    # operations are currently not supported in torch-neuron ...": aws-neuron-sdk issue threads)
    ("hilo/hlo_passes/", STRONG),
    ("torch-neuron", STRONG),
    ("info:neuron:", STRONG),
    ("warning:neuron:", STRONG),
    ("error:neuron:", STRONG),
)
_HABANA: Markers = (
    ("habana_frameworks", STRONG),
    ("habanalabs", STRONG),
    ("habana", MEDIUM),
    ("synstatus", STRONG),
    ("synsuccess", STRONG),
    ("hl-smi", STRONG),
    ("optimum-habana", STRONG),
    ("optimum.habana", STRONG),
    ("intel gaudi", STRONG),
    ("gaudi", MEDIUM),
)
_GRAPHCORE: Markers = (
    ("poptorch", STRONG),
    ("popart", STRONG),
    ("poplar::", STRONG),
    ("poplar_", STRONG),
    ("libpoplar", STRONG),
    ("poplibs", STRONG),
    ("popef", STRONG),
    ("graphcore", STRONG),
    ("gc-monitor", STRONG),
    ("poplar", MEDIUM),
)
_TENSTORRENT: Markers = (
    ("ttnn", STRONG),
    ("tt_metal", STRONG),
    ("tt-metal", STRONG),
    ("tt_fatal", STRONG),
    ("tt_throw", STRONG),
    ("tt-smi", STRONG),
    ("tenstorrent", STRONG),
    ("pybuda", STRONG),
    ("tt-buda", STRONG),
    ("tt-forge", STRONG),
)
_CEREBRAS: Markers = (
    ("cerebras", STRONG),
    ("cstorch", STRONG),
)
_FURIOSA: Markers = (
    ("furiosa", STRONG),
    ("warboy", STRONG),
)
_REBELLIONS: Markers = (
    ("optimum.rbln", STRONG),
    ("optimum-rbln", STRONG),
    ("vllm_rbln", STRONG),
    ("vllm-rbln", STRONG),
    ("rblnmodel", STRONG),
    ("rebel-compiler", STRONG),
    ("rebel.compile", STRONG),
    ("rebellions", MEDIUM),
)
_MEMRYX: Markers = (
    ("memryx", STRONG),
    ("mx_nc", STRONG),
)
_MOORE_THREADS: Markers = (
    ("torch_musa", STRONG),
    ("musaerror", STRONG),
    ("mthreads", STRONG),
    ("moore threads", STRONG),
    ("musa", MEDIUM),
)
_OTHER_CHINA: Markers = (
    ("enflame", STRONG),
    ("topsrider", STRONG),
    ("torch_gcu", STRONG),
    ("iluvatar", STRONG),
    ("ixsmi", STRONG),
    ("ixrt", STRONG),
    ("hygon", STRONG),
    ("hy-smi", STRONG),
    ("kunlunxin", STRONG),
)
_OTHER_NPU: Markers = (
    ("sima.ai", STRONG),
    ("simaai", STRONG),
    ("blaize", STRONG),
)

# s35u: the Android Neural Networks API runtime and its vendor drivers (AOSP frameworks/ml/nn: the runtime's
# runtime/Manager.cpp logs a driver's failure as "IDevice::getSupportedOperations returned the error
# <status>"; the HAL interface android.hardware.neuralnetworks@1.x, whose IDevice.hal versions the method
# as getSupportedOperations_1_1 / _1_2 / _1_3).  TFLite's NNAPI delegate stays TFLite's: its
# "NN API returned error ANEURALNETWORKS_..." names none of these.
_ANDROID_NNAPI: Markers = (
    ("idevice::getsupportedoperations", STRONG),
    ("getsupportedoperations_1_", STRONG),
    ("android.hardware.neuralnetworks", STRONG),
)

# u41 (round 41's dev records named three tools no marker knew; each marker read in the tool's own source):
# - Paddle Lite (PaddlePaddle/Paddle-Lite): its names (Paddle-Lite, paddle_lite, paddlelite: the opt tool
#   paddle_lite_opt, the Python package paddlelite.lite), the optimized model's naive_buffer format
#   (lite/api/opt.cc's --optimize_out_type), its source tree's lite/model_parser/, and the runtime's
#   "Unsupport opencl nb model." (lite/api/paddle_api.cc); Paddle2ONNX's and Paddle Inference's own messages
#   name none of these.  Dropped: its lite/api/ (RKNN Toolkit Lite's rknnlite/api/ in three RKNN dev texts).
# - IREE (iree-org/iree): its tools iree-compile / iree-run-module / iree-import-onnx, their --iree-* flags,
#   the Python packages iree.compiler / iree.runtime, its source tree compiler/src/iree/ and the .vmfb module
#   it writes.
# - X2Paddle (PaddlePaddle/X2Paddle): its name, and its op mappers' "There are N ops not supported yet, list
#   as below" (x2paddle/op_mapper/*: op_checker).
_PADDLE_LITE: Markers = (
    ("paddle-lite", STRONG),
    ("paddle_lite", STRONG),
    ("paddlelite", STRONG),
    ("naive_buffer", STRONG),
    ("lite/model_parser/", STRONG),
    ("unsupport opencl nb model", STRONG),
)
_IREE: Markers = (
    ("iree-compile", STRONG),
    ("iree-run-module", STRONG),
    ("iree-import-onnx", STRONG),
    ("--iree-", STRONG),
    ("iree.compiler", STRONG),
    ("iree.runtime", STRONG),
    ("src/iree/", STRONG),
    ("iree-org", STRONG),
    (".vmfb", MEDIUM),
)
_X2PADDLE: Markers = (
    ("x2paddle", STRONG),
    ("ops not supported yet, list as below", STRONG),
)

#: Tools that are recognised but not covered: family -> (display name, markers).
UNCOVERED: dict[str, tuple[str, Markers]] = {
    "hailo": ("Hailo Dataflow Compiler / HailoRT", _HAILO),
    "vitis_ai": ("AMD Vitis AI (vai_q_*, vai_c_*, XIR/VART)", _VITIS_AI),
    "sophgo": ("Sophgo TPU-MLIR (model_transform/model_deploy, bmodel)", _SOPHGO),
    "cambricon": ("Cambricon MagicMind / CNRT / CNNL (MLU)", _CAMBRICON),
    "horizon": ("Horizon Robotics toolchain (hb_mapper, HBDK)", _HORIZON),
    "neuropilot": ("MediaTek NeuroPilot (ncc-tflite, Neuron adapter)", _NEUROPILOT),
    "intel_npu": ("Intel NPU (OpenVINO NPU plugin, Level Zero driver)", _INTEL_NPU),
    "ti_tidl": ("TI TIDL (edgeai-tidl-tools)", _TI_TIDL),
    "arm_nn": ("Arm NN (armnn, its parsers and tools)", _ARM_NN),
    "amd_migraphx": ("AMD MIGraphX", _MIGRAPHX),
    "apple_mlx": ("Apple MLX (mlx.core, mlx-lm)", _APPLE_MLX),
    "kendryte_nncase": ("Kendryte nncase (kmodel)", _NNCASE),
    "tencent_tnn": ("Tencent TNN", _TENCENT_TNN),
    "arm_ethos_u": ("Arm Ethos-U Vela compiler", _ETHOS_U),
    "axera": ("Axera Pulsar2 (axmodel, AX650/AX620)", _AXERA),
    "nxp_eiq": ("NXP eIQ (Neutron converter/delegate, VX delegate)", _NXP_EIQ),
    "ambarella": ("Ambarella CVflow (CNNGen)", _AMBARELLA),
    "kneron": ("Kneron toolchain (ktc, Kneron PLUS)", _KNERON),
    "edge_tpu": ("Google Edge TPU compiler (edgetpu_compiler)", _EDGE_TPU_COMPILER),
    "aws_neuron": ("AWS Neuron SDK (neuronx-cc / neuron-cc, torch-neuronx, Neuron runtime)", _AWS_NEURON),
    "habana": ("Intel Gaudi / Habana SynapseAI (habana_frameworks)", _HABANA),
    "graphcore": ("Graphcore Poplar SDK (PopTorch, PopART)", _GRAPHCORE),
    "tenstorrent": ("Tenstorrent TT-Metalium / TT-NN (tt-metal, ttnn)", _TENSTORRENT),
    "cerebras": ("Cerebras software (cerebras.pytorch)", _CEREBRAS),
    "furiosa": ("FuriosaAI SDK (furiosa-llm, Warboy/RNGD)", _FURIOSA),
    "rebellions": ("Rebellions RBLN SDK (optimum-rbln, rebel-compiler)", _REBELLIONS),
    "memryx": ("MemryX SDK (mx_nc neural compiler)", _MEMRYX),
    "moore_threads": ("Moore Threads MUSA (torch_musa)", _MOORE_THREADS),
    "other_china": ("Enflame TopsRider, Iluvatar CoreX, Hygon DCU or Kunlunxin XPU", _OTHER_CHINA),
    "other_npu": ("SiMa.ai or Blaize SDK", _OTHER_NPU),
    "android_nnapi": ("Android NNAPI runtime and its vendor drivers (HAL)", _ANDROID_NNAPI),
    "paddle_lite": ("Paddle Lite (paddle_lite_opt, naive_buffer .nb models)", _PADDLE_LITE),
    "iree": ("IREE (iree-compile, iree-run-module)", _IREE),
    "x2paddle": ("X2Paddle (ONNX/Caffe/TensorFlow to Paddle)", _X2PADDLE),
}

#: Markers that are also pieces of ordinary words or of other tools' names: they count only
#: as a whole word ("cannot", "stopped", "heartbeat", "manipulate", "relayed", "RunGraphAsync").
WHOLE_WORDS: frozenset[str] = frozenset(
    {
        *_ORT_ERROR_CODES,
        "cann",
        "opp",
        "tbe",
        "ipu",
        "relay",
        "relax",
        "ngraph",
        "htp",
        "dlc",
        "ovc",
        "topi",
        "cnrt",
        "cnnl",
        "tidl",
        "armnn",
        # session s32c: "tnn::" inside Tenstorrent's "ttnn::", "migraphx" inside onnxruntime's
        # "MIGraphXExecutionProvider" (its EP's name is onnxruntime's), "kmodel" inside "checkmodel"
        "tnn::",
        "migraphx",
        "kmodel",
        "hailo",
        "vpux",
        "q::",
        "cdsp",
        "hailo_",
        "xcom_",
        "hb_compile",
        "hmct",
        "hbir",
        "mdla",
        "npuw",
        "eiq",
        "ktc",
        "cnngen",
        "cavalry",
        "unilog",
        "nndct",
        # issue 23, round 21 (h23v2): pieces of other words ("asynStatus", "StatisticsTorch", "sixsmith",
        # "hy-smile", "lunchroom"..., a "musa" or "gaudi" inside a name, "mx_nc" after another prefix,
        # "nrt_" inside a longer identifier)
        "synstatus",
        "synsuccess",
        "cstorch",
        "ixsmi",
        "ixrt",
        "hy-smi",
        "musa",
        "gaudi",
        "habana",
        "mx_nc",
        "nrt_",
        "popart",
        "poplar",
        "ttnn",
        "warboy",
        "blaize",
        # s35u: CNML's bare name; Pulsar2's packages after a longer name ("benyamain.", "...yasched.")
        "cnml",
        "yamain.",
        "yasched.",
    }
)

LogForm = tuple[str, str, int]
"""A log-line form a literal marker cannot hold: ``(literal, pattern, weight)``: the pattern (a regular
expression over the lower-cased text) is tried only when the literal is in that text; a match counts as one
marker of ``weight`` at where it starts."""

_RKNN_FORMS: tuple[LogForm, ...] = (
    # Rockchip's build stamp after a version, "(<commit>@<ISO time>)" or "(<commit> build@<ISO time>)": how
    # the RKNPU stack prints its versions, each with a different name before it ("librknnc version: 1.1.0b0
    # (8d7e25ad@2021-06-30T18:33:39)", "librknnrt version: 1.4.0 (a10f100eb@2022-09-09T09:07:14)", the
    # toolkit's "Transfer version 2.2.2 (12abf2a@2024-09-02T03:22:41)", rknn_server's "1.5.2 (8babfea
    # build@2023-08-25T10:30:12)"; airockchip/rknn-toolkit2:
    # rknn-toolkit2/examples/functions/npu_device_test/README.md).  A version name a marker would need is the
    # part that changes; the stamp is the form.  No other covered tool's dev message or the real noise holds
    # it (checked on every eval file's dev records and scan_noise).
    ("@20", r"\(\s?[0-9a-f]{6,12}(?: build)?@20\d\d-\d\d-\d\dt\d\d:\d\d:\d\d\)", MEDIUM),
    # RKNN-Toolkit(2)'s logger re-prints a caught exception's traceback line by line at its error level,
    # each line behind "E " (rknn/api/rknn_log: error_catch_decorator, the "E Traceback (most recent call
    # last):" that follows "E Catch exception when building RKNN model!"); Python prints the line bare,
    # pytest's "E" lines are indented further.
    ("e traceback (", r"(?m)^e traceback \(most recent call last\):", MEDIUM),
    # The banner of Rockchip's runtimes on the board: RKLLM's "rkllm-runtime version: 1.1.4, rknpu driver
    # version: 0.9.8, platform: RK3588" (airockchip/rknn-llm, rkllm-runtime's logger) names the driver and
    # the SoC (RK35xx, RV11xx) together.
    ("platform: r", r"driver version: [\w.]{1,20}, platform: r[kv]\d{4}", MEDIUM),
    # The progress lines of RKNN-Toolkit2's example scripts, which most conversion scripts are copied from
    # (airockchip/rknn-toolkit2: rknn-toolkit2/examples/*/*/test.py: "print('--> Building model')", "'-->
    # Export rknn model'", "'--> Init runtime environment'"), printed around the toolkit's calls.
    (
        "--> ",
        r"(?m)^--> (?:config(?:ing)? model|load(?:ing)? model|build(?:ing)? model|export(?:ing)? rknn"
        r"|init runtime environment|running model)",
        MEDIUM,
    ),
)

_QUALCOMM_FORMS: tuple[LogForm, ...] = (
    # Session s28b: the error line of the Hexagon NPU's own libraries (the HTP graph preparer and the skels
    # it runs: HtpPrepare.dll, QnnHtpPrepare.dll and libQnnHtpV68/V73/V81Skel.so of onnxruntime-qnn 2.7.0
    # hold "%s:%d::ERROR:%s" and "%s:2860::ERROR:%s", printed as "graph_prepare.cc:742:ERROR:error during
    # serialize ...", "fa_alloc.cc:3866:ERROR:graph requires estimated allocation of ..."): the source file,
    # the line and the level, no space after a colon (a compiler's "x.cc:12:5: error:" has the column and a
    # space).
    (":error:", r"(?<![\w.])[a-z_]\w{0,60}\.(?:cc|cpp):\d{1,5}::?error:(?! )", MEDIUM),
    # Session s28b: the FastRPC user library's error line (quic/fastrpc: src/*.c, its FARF(ERROR, "Error
    # 0x%x: %s failed ...") behind the file and line: "apps_mem_imp.c:216:Error 0x8000040d:
    # apps_mem_request_unmap64 failed ...", "mod_table.c:863: Error 0x8000040d: open_mod_table_handle_invoke
    # failed ...", "fastrpc_apps_user.c:3040: Error 0xd: open_shell failed ..."): a C file, its line, "Error"
    # and the status in hex.
    ("error 0x", r"\w\.c:\d{1,5}: ?error 0x[0-9a-f]{1,8}: ", MEDIUM),
)

#: family -> its log-line forms (:data:`LogForm`), each a MEDIUM marker: the text leans to the family, a
#: marker of another tool still names that tool.  Qualcomm's tools' logs (a number before the level) are
#: read in :mod:`.family` itself: one of them names the tool alone and the other yields to it.
LOG_FORMS: dict[str, tuple[LogForm, ...]] = {"rknn": _RKNN_FORMS, "qualcomm": _QUALCOMM_FORMS}
