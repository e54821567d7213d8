"""TensorRT's API checks answered by the condition they print, not by the Error Code 3 card alone.

TensorRT 8 prints only 'Parameter check failed at: <file>::<function>::<line>, condition: <condition>'
for many checks of IExecutionContext / ICudaEngine / IOptimizationProfile; TensorRT 10 prints
'<interface>::<function>: Error Code 3: API Usage Error (<message>)'.  Each clause here reads one condition
or message and names the call, the condition and the values.  Vendor sources: NVIDIA/TensorRT
include/NvInferRuntime.h (8.x: setBindingDimensions, getBindingIndex, getNbBindings, getMaxBatchSize,
executeV2/enqueueV2 'only works for execution contexts built with full dimension networks'; 10.x:
IOptimizationProfile::setDimensions, setAuxStreams, setPersistentCacheLimit,
ExecutionContextAllocationStrategy) and the strings of libnvinfer_lean (tensorrt_lean_cu12_libs
11.4.0.106: the conditions and messages quoted below, the shape machine's instructions of
runtime/core/shapeMachine.cpp); MindSpore Lite's TensorRT delegate FAQ for TensorRT 7's shape machine
form.  The other entries: NVIDIA/TensorRT samples/common/common.h (loadLibrary), Polygraphy's
comparator (tools/Polygraphy/polygraphy/comparator/compare.py), DeepStream's nvdsinfer preparePreprocess,
and NVIDIA's answers in NVIDIA/TensorRT#2098 and #1866 (the Jetson device table).  Names and values are our
own."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

CODE3 = "tensorrt-ErrorCode-INVALID-ARGUMENT-builder-3"


def _trt8(function: str, condition: str, file: str = "runtime/api/executionContext.cpp") -> str:
    """TensorRT 8's parameter check line, as its logger prints it (made-up line numbers)."""
    base = file.rsplit("/", 1)[-1]
    return (
        f"[TRT] [E] 3: [{base}::{function}::1234] Error Code 3: API Usage Error (Parameter check failed at: "
        f"{file}::{function}::1234, condition: {condition})"
    )


CASES = [
    (
        _trt8("setBindingDimensions", "mEngine.bindingIsInput(bindingIndex)"),
        "trt-api-binding-not-input",
        ("setBindingDimensions", "mEngine.bindingIsInput(bindingIndex)", "binding_is_input(i)"),
    ),
    (
        _trt8(
            "getBindingDimensions",
            "bindingIndex >= 0 && bindingIndex < mEngine.getNbBindings()",
        ),
        "trt-api-binding-index-range",
        ("getBindingDimensions", "bindingIndex < mEngine.getNbBindings()", "get_binding_index(name) != -1"),
    ),
    (
        _trt8(
            "setBindingDimensions",
            "engineDims.d[i] == dimensions.d[i]. Static dimension mismatch while setting binding dimensions.",
        ),
        "trt-api-static-dims-mismatch",
        ("setBindingDimensions", "engineDims.d[i] == dimensions.d[i]", "engine.get_tensor_shape(name)"),
    ),
    (
        _trt8("enqueueV2", "!mEngine.hasImplicitBatchDimension()"),
        "trt-api-explicit-call-on-implicit-engine",
        ("enqueueV2", "!mEngine.hasImplicitBatchDimension()", "EXPLICIT_BATCH", "execute_async(batch_size"),
    ),
    (
        _trt8("execute", "batchSize > 0 && batchSize <= mEngine.getMaxBatchSize()"),
        "trt-api-batch-size-over-max",
        ("execute", "batchSize <= mEngine.getMaxBatchSize()", "execute_v2(bindings)", "max_batch_size"),
    ),
    (
        _trt8(
            "setDimensions",
            "std::all_of(dims.d, dims.d + dims.nbDims, [](int32_t x) noexcept { return x >= 0; })",
            "optimizer/api/optimizationProfile.cpp",
        ),
        "trt-api-profile-dims-negative",
        ("setDimensions", "return x >= 0;", "--minShapes=input:1x3x224x224", "min <= opt <= max"),
    ),
    (
        "IOptimizationProfile::setDimensions: Error Code 3: API Usage Error (Parameter check failed, "
        "condition: std::all_of(dims.d, dims.d + dims.nbDims, [](int64_t x) noexcept { return x >= 0; }). )",
        "trt-api-profile-dims-negative",
        ("IOptimizationProfile::setDimensions", "return x >= 0;"),
    ),
    (
        "IExecutionContext::executeV2: Error Code 3: API Usage Error (Parameter check failed, condition: "
        "bindings != nullptr. )",
        "trt-api-null-bindings-array",
        ("IExecutionContext::executeV2", "bindings != nullptr", "engine.get_binding_name(i)"),
    ),
    (
        _trt8(
            "enqueueInternal",
            "mContext.profileObliviousBindings.at(profileObliviousIndex) != nullptr",
        ),
        "trt-api-input-address-condition",
        ("profileObliviousBindings.at(profileObliviousIndex) != nullptr", "set_tensor_address(name, ptr)"),
    ),
    (
        _trt8(
            "enqueueV3",
            "mContext.profileObliviousBindings.at(profileObliviousIndex) || "
            "getPtrOrNull(mOutputAllocators, profileObliviousIndex)",
        ),
        "trt-api-output-address-condition",
        ("getPtrOrNull(mOutputAllocators, profileObliviousIndex)", "set_output_allocator"),
    ),
    (
        "IExecutionContext::setOutputTensorAddress: Error Code 3: API Usage Error (logits_in is not an "
        "output tensor, cannot set output address for it.)",
        "trt-api-not-an-output-tensor",
        ("logits_in", "set output address", "IExecutionContext::setOutputTensorAddress", "IOMode.OUTPUT"),
    ),
    (
        "IExecutionContext::getMaxOutputSize: Error Code 3: API Usage Error (pix_in is not an output tensor, "
        "cannot get its max output size.)",
        "trt-api-not-an-output-tensor",
        ("pix_in", "get its max output size"),
    ),
    (
        "IExecutionContext::setDeviceMemory: Error Code 3: API Usage Error (Parameter check failed, "
        "condition: mAllocationStrategy == ExecutionContextAllocationStrategy::kUSER_MANAGED. "
        "setDeviceMemory: Context not created with user managed device memory, cannot set buffer)",
        "trt-api-device-memory-not-user-managed",
        ("setDeviceMemory", "USER_MANAGED", "create_execution_context_without_device_memory"),
    ),
    (
        "IExecutionContext::setDeviceMemoryV2: Error Code 3: API Usage Error (Parameter check failed, "
        "condition: memory != nullptr || expectedSize == 0. setDeviceMemoryV2: Cannot set memory to "
        "nullptr.)",
        "trt-api-device-memory-null",
        ("setDeviceMemoryV2", "device_memory_size_v2"),
    ),
    (
        "IExecutionContext::setAuxStreams: Error Code 3: API Usage Error (Parameter check failed, condition: "
        "streamsDistinct. The aux streams must be all different to avoid deadlocks.)",
        "trt-api-aux-streams",
        ("be all different", "cudaStreamCreate", "engine.num_aux_streams"),
    ),
    (
        "IExecutionContext::setPersistentCacheLimit: Error Code 3: API Usage Error (Parameter check failed, "
        "condition: size <= static_cast<size_t>(mContext.getMaxPersistentL2CacheSize()). The set persistent "
        "cache limit size(67108864 bytes) is larger than cudaDeviceProp.persistingL2CacheMaxSize(31457280 "
        "bytes).)",
        "trt-api-persistent-cache-limit",
        ("67108864", "31457280"),
    ),
]


#: Cards of other codes answered by a clause: (vendor text, card id, clause, named parts).
OTHER_CARDS = [
    (
        "[TRT] [E] 3: [engine.cpp::~Engine::1146] Error Code 3: API Usage Error (Parameter check failed at: "
        "runtime/api/engine.cpp::~Engine::1146, condition: mExecutionContextCounter.use_count() == 1. "
        "Destroying an engine object before destroying the IExecutionContext objects it created leads to "
        "undefined behavior.)",
        CODE3,
        "trt-engine-destroyed-before-contexts",
        ("IExecutionContext", "del context before del engine"),
    ),
    (
        "[TRT] [E] 7: [shapeMachine.cpp::executeContinuation::864] Error Code 7: Internal Error "
        "(/blk/Slice_3: ISliceLayer has out of bounds access on axis 1 Instruction: CHECK_LESS 40 32.)",
        "tensorrt-ErrorCode-FAILED-EXECUTION-builder-7",
        "trt-shape-machine-check",
        (
            "/blk/Slice_3: ISliceLayer has out of bounds access on axis 1",
            "CHECK_LESS 40 32",
            "--onnxrt --trt",
        ),
    ),
    (
        # TensorRT 7's form, without any '[TRT]' or 'Error Code': named TensorRT by its shape machine's file
        "ERROR: shapeMachine.cpp (252) - Shape Error in operator(): broadcast with incompatible Dimensions\n"
        "Instruction: CHECK_BROADCAST 7 5",
        "family-tensorrt",
        "trt-shape-machine-check",
        ("broadcast with incompatible Dimensions", "CHECK_BROADCAST 7 5"),
    ),
]


@pytest.mark.parametrize("message, card, clause, named", OTHER_CARDS, ids=[c[2] for c in OTHER_CARDS])
def test_another_trt_card_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, card: str, clause: str, named: tuple[str, ...]
) -> None:
    """A card of another code (or TensorRT's family card) answered by the clause of its message."""
    top = assert_answered(kb, message, named, clause=clause)
    assert top.entry.id == f"{card}+{clause}"


@pytest.mark.parametrize("message, clause, named", CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_a_trt_api_check_is_answered_by_its_condition(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    """The Error Code 3 card answered by the clause of its condition, with the call, the condition and the
    values in the advice."""
    top = assert_answered(kb, message, named, clause=clause)
    assert top.entry.id == f"{CODE3}+{clause}"


def test_a_condition_no_clause_knows_keeps_the_generic_reading(kb: KnowledgeBase) -> None:
    """A parameter check without a clause of its own is still read by the generic clause, which quotes it."""
    message = _trt8("someFutureCall", "mSomething.isReady()")
    assert_answered(kb, message, ("someFutureCall", "mSomething.isReady()"), clause="trt-parameter-check")


#: Entries of TensorRT's tools answered on their own wording: (vendor text, entry id, named parts).
ENTRIES = [
    (
        # a specific internal assertion ranks above the generic 'Assertion ... failed' entry of Error Code 2
        "[TRT] [E] 2: [ltWrapper.cpp::setupHeuristic::327] Error Code 2: Internal Error (Assertion "
        "cublasStatus == CUBLAS_STATUS_SUCCESS failed. )",
        "tensorrt-cublas-status-assert",
        ("--tacticSources=-CUBLAS,-CUBLAS_LT",),
    ),
    (
        "[TRT] [E] 2: [pluginV2Runner.cpp::execute::265] Error Code 2: Internal Error (Assertion status == "
        "kSTATUS_SUCCESS failed. )",
        "tensorrt-plugin-enqueue-failed",
        ("enqueue()", "compute-sanitizer"),
    ),
    (
        "[E] [TRT] 2: [utils.cpp::checkMemLimit::380] Error Code 2: Internal Error (Assertion upperBound "
        "!= 0 failed. Unknown embedded device detected. Please update the table with the entry: "
        "{{2222, 4, 8}, 7777},)",
        "tensorrt-s21e-unknown-embedded-device",
        ("{{2222, 4, 8}, 7777}", "JetPack"),
    ),
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
    (
        "0:00:01.2 ERROR nvinfer gstnvinfer.cpp:640:gst_nvinfer_logger:<sgie-face> NvDsInferContext[UID 3]: "
        "Error in NvDsInferContextImpl::preparePreprocess() <nvdsinfer_context_impl.cpp:874> [UID = 3]: GRAY "
        "input format specified but network input channels is not 1.",
        "tensorrt-s21e-deepstream-input-channels",
        ("GRAY", "1 channel(s)", "--inputs-as-nchw"),
    ),
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
]


@pytest.mark.parametrize("message, entry, named", ENTRIES, ids=[e[1] for e in ENTRIES])
def test_a_trt_tool_message_is_answered_by_its_entry(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    """The entry written from the tool's own source answers its message first, with the parts it named."""
    assert_answered(kb, message, named, entry=entry)
