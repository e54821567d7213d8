"""Issue 23 (h23b3): TensorRT's runtime API checks answered by what the check says, not by the Error Code 3
card.  One clause per check of IExecutionContext / IRuntime, each tested on the vendor's own wording (the
strings of libnvinfer_lean 11.4 and the conditions of TensorRT 7/8's parameter checks, with names and values
of our own), never on a held-out message; the advice must carry the tensor, shape, range or version the
message gave."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

CODE3 = "tensorrt-ErrorCode-INVALID-ARGUMENT-builder-3"
CODE1 = "tensorrt-ErrorCode-UNSPECIFIED-ERROR-builder-1"

CASES = [
    (
        "[TRT] [E] IExecutionContext::setInputShape: Error Code 3: API Usage Error (Parameter check failed, "
        "condition: satisfyProfile. Set dimension [2,3,800,800] for tensor pixel_in does not satisfy any "
        "optimization profiles. Valid range for profile 0: [1,3,320,320]..[1,3,640,640].)",
        CODE3 + "+trt-api-shape-outside-profile",
        ("[2,3,800,800]", "pixel_in", "[1,3,320,320] .. [1,3,640,640]", "--maxShapes=pixel_in"),
    ),
    (
        "[E] [TRT] 3: [executionContext.cpp::setBindingDimensions::969] Error Code 3: API Usage Error "
        "(Parameter "
        "check failed at: runtime/api/executionContext.cpp::setBindingDimensions::969, condition: "
        "profileMinDims.d[i] <= dimensions.d[i]. Supplied binding dimensions [1,3,100,100] for bindings[0] "
        "exceed min..max range for profile 0, where min is [1,3,224,224], opt is [1,3,512,512], max is "
        "[1,3,1024,1024].)",
        CODE3 + "+trt-api-binding-dims-outside-profile",
        ("[1,3,100,100]", "bindings[0]", "[1,3,224,224] .. [1,3,1024,1024]", "profileMinDims.d[i]"),
    ),
    (
        "[E] [TRT] 3: [executionContext.cpp::setBindingDimensions::969] Error Code 3: API Usage Error "
        "(Supplied "
        "binding dimensions [4,3,96,96] for bindings[1] exceed min..max range for profile 2, where min is "
        "[1,3,32,32], opt is [1,3,64,64], max is [2,3,64,64].)",
        CODE3 + "+trt-api-binding-dims-exceed-range",
        ("[4,3,96,96]", "bindings[1]", "[1,3,32,32] .. [2,3,64,64]", "profile 2"),
    ),
    (
        "[TRT] [E] 3: [executionContext.cpp::setInputShape::2068] Error Code 3: API Usage Error (Parameter "
        "check "
        "failed at: runtime/api/executionContext.cpp::setInputShape::2068, condition: engineDims.nbDims == "
        "dims.nbDims. )",
        CODE3 + "+trt-api-input-rank",
        ("engineDims.nbDims == dims.nbDims", "batch dimension"),
    ),
    (
        "IExecutionContext::enqueueV3: Error Code 3: API Usage Error (Parameter check failed, condition: "
        "mContext.profileObliviousBindings.at(profileObliviousIndex) != nullptr. Address is not set for "
        "input "
        "tensor tok_ids. Call setInputTensorAddress or setTensorAddress before enqueue/execute.)",
        CODE3 + "+trt-api-input-address-not-set",
        ("input tok_ids", "set_tensor_address('tok_ids', ptr)"),
    ),
    (
        "IExecutionContext::enqueueV3: Error Code 3: API Usage Error (Parameter check failed, condition: "
        "mContext.profileObliviousBindings.at(profileObliviousIndex) || getPtrOrNull(mOutputAllocators, "
        "profileObliviousIndex). Neither address or allocator is set for output tensor logits_out. Call "
        "setOutputTensorAddress, setTensorAddress or setOutputAllocator before enqueue/execute.)",
        CODE3 + "+trt-api-output-address-not-set",
        ("output logits_out", "set_tensor_address('logits_out', ptr)", "set_output_allocator"),
    ),
    (
        "[TRT] [E] IExecutionContext::executeV2: Error Code 3: API Usage Error (Parameter check failed, "
        "condition: "
        'nullPtrAllowed. Tensor "det_boxes" is bound to nullptr, which is allowed only for an empty input '
        "tensor, shape tensor, or an output tensor associated with an IOuputAllocator.)",
        CODE3 + "+trt-api-tensor-bound-to-nullptr",
        ("Tensor det_boxes", "index of 'det_boxes'"),
    ),
    (
        "[TRT] [E] 3: [executionContext.cpp::enqueueInternal::795] Error Code 3: API Usage Error (Parameter "
        "check "
        "failed at: runtime/api/executionContext.cpp::enqueueInternal::795, condition: bindings[x] || "
        "nullBindingOK)",
        CODE3 + "+trt-api-null-binding",
        ("bindings[x] || nullBindingOK", "engine.num_bindings"),
    ),
    (
        "[TRT] [E] IExecutionContext::enqueueV3: Error Code 3: API Usage Error (Parameter check failed, "
        "condition: inputDimensionSpecified && inputShapesSpecified. Following input tensors' dimensions are "
        "not specified: ids_a, mask.b.)",
        CODE3 + "+trt-api-input-dims-not-specified",
        ("context: ids_a, mask.b.", "set_input_shape(name, shape) for ids_a, mask.b ("),
    ),
    (
        "IExecutionContext::setOptimizationProfileAsync: Error Code 3: API Usage Error (Parameter check "
        "failed, "
        "condition: (0) <= (profileIndex) && (profileIndex) < (mEngine.getNbOptimizationProfiles()). )",
        CODE3 + "+trt-api-profile-index",
        (
            "((0) <= (profileIndex) && (profileIndex) < (mEngine.getNbOptimizationProfiles()))",
            "num_optimization",
        ),
    ),
    (
        "[TRT] [E] 3: [executionContext.cpp::setOptimizationProfileInternal::1048] Error Code 3: API Usage "
        "Error "
        "(Parameter check failed at: runtime/api/executionContext.cpp::setOptimizationProfileInternal::1048, "
        "condition: profileIndex >= 0 && profileIndex < mEngine.getNbOptimizationProfiles())",
        CODE3 + "+trt-api-profile-index",
        (
            "(profileIndex >= 0 && profileIndex < mEngine.getNbOptimizationProfiles())",
            "add_optimization_profile",
        ),
    ),
    (
        "[TRT] [E] 3: [executionContext.cpp::setOptimizationProfileInternal::794] Error Code 3: Internal "
        "Error "
        "(Profile 3 has been chosen by another IExecutionContext. Use another profileIndex or destroy the "
        "IExecutionContext that use this profile.)",
        CODE3 + "+trt-api-profile-taken",
        ("profile 3", "its own profile"),
    ),
    (
        "[TRT] [E] IExecutionContext::setTensorAddress: Error Code 3: API Usage Error (Parameter check "
        "failed, "
        "condition: isAligned. setTensorAddress: data must be aligned on 128 byte boundary.)",
        CODE3 + "+trt-api-address-alignment",
        ("setTensorAddress is not a multiple of 128 bytes", "multiple of 128", ".contiguous()"),
    ),
    (
        "[TRT] [E] 3: [engine.cpp::getTensorShape::1234] Error Code 3: Internal Error (Given invalid tensor "
        "name: feat.x. Get valid tensor names with getIOTensorName())",
        CODE3 + "+trt-api-invalid-tensor-name",
        ("name feat.x given", "instead of feat.x", "getIOTensorName"),
    ),
    (
        "[TRT] [E] IExecutionContext::setTensorAddress: Error Code 3: API Usage Error (Parameter check "
        "failed, "
        "condition: isExecutionBinding || isShapeBinding. conv_mid is neither input nor output, cannot set "
        "address for this tensor.)",
        CODE3 + "+trt-api-neither-input-nor-output",
        ("cannot set address for it", "instead of conv_mid", "mark_output"),
    ),
    (
        "[TRT] [E] IExecutionContext::enqueueV3: Error Code 3: API Usage Error (Parameter check failed, "
        "condition: !noDeviceMemory. The engine requires 73400320 bytes of device memory. The "
        "IExecutionContext is created with ExecutionContextAllocationStrategy::kUSER_MANAGED. "
        "IExecutionContext::setDeviceMemoryV2 should be called before enqueue/execute.)",
        CODE3 + "+trt-api-user-managed-memory-not-set",
        ("73400320 bytes of device memory", "set_device_memory(ptr, size)"),
    ),
    (
        "[TRT] [E] IExecutionContext::setDeviceMemoryV2: Error Code 3: API Usage Error (Parameter check "
        "failed, condition: size >= expectedSize. setDeviceMemoryV2: The provided memory size is too small. "
        "Provided 2097152, but expected at least 6291456)",
        CODE3 + "+trt-api-device-memory-too-small",
        ("buffer of 2097152 bytes", "at least 6291456"),
    ),
    (
        "[TRT] [E] IRuntime::deserializeCudaEngine: Error Code 1: Serialization (Serialization assertion "
        "header.pad == expectedPlatformTag failed.Platform specific tag mismatch detected. TensorRT plan "
        "files "
        "are only supported on the target runtime platform they were created on.)",
        CODE1 + "+trt-plan-platform-tag",
        ("another platform", "on the platform that runs it"),
    ),
    (
        "[TRT] [E] IRuntime::deserializeCudaEngine: Error Code 1: Serialization (Serialization assertion "
        "stdVersionRead == kSERIALIZATION_VERSION failed.Trying to load an engine created with incompatible "
        "serialization version (77). Check that the engine was not created using safety runtime, same OS was "
        "used and version compatibility parameters were set accordingly and that it is a TRT engine file.)",
        CODE1 + "+trt-plan-serialization-version",
        ("(77)", "--getPlanVersionOnly", "--versionCompatible"),
    ),
    (
        "[TRT] [E] IRuntime::deserializeCudaEngine: Error Code 1: Serialization (Failed due to an old "
        "deserialization call on a newer plan file. This might happen when the plan file was built from an "
        "older TensorRT version.)",
        CODE1 + "+trt-plan-newer-than-runtime",
        ("'Failed due to an old deserialization call on a newer plan file'", "--getPlanVersionOnly"),
    ),
    (
        "[TRT] [E] Engine Version Forward Compatibility supported starting TensorRT 8.6. This Engine was "
        "created "
        "with TensorRT 8.4.9",
        "family-tensorrt+trt-plan-forward-compat",
        ("built with TensorRT 8.4.9", "from TensorRT 8.6 on", "run it with TensorRT 8.4.9"),
    ),
    (
        "[TRT] [E] IRuntime::deserializeCudaEngine: Error Code 3: API Usage Error (Cannot deserialize with "
        "an "
        "empty memory buffer.)",
        CODE3 + "+trt-plan-empty-blob",
        ("an empty memory buffer", "os.path.getsize"),
    ),
    (
        "[TRT] [E] IRuntime::deserializeCudaEngine: Error Code 3: API Usage Error (Cannot deserialize engine "
        "with lean runtime since IRuntime::getEngineHostCodeAllowed() is false.)",
        CODE3 + "+trt-plan-lean-host-code",
        ("engine_host_code_allowed = True",),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), CASES, ids=[c[1].split("+")[1] + str(i) for i, c in enumerate(CASES)]
)
def test_the_check_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_a_runtime_rank_check_is_not_read_as_an_onnx_importer_assertion(kb: KnowledgeBase) -> None:
    """``engineDims.nbDims`` holds the ONNX parser clause's literal ``nbdims``: the runtime's own clause,
    placed first, answers it (setInputShape's rank, not an importer's requirement on a node)."""
    top = kb.lookup(
        "[E] [TRT] IExecutionContext::setInputShape: Error Code 3: API Usage Error (Parameter check failed, "
        "condition: profileMaxDims.nbDims == dimensions.nbDims. )",
        top=1,
    )[0]
    assert top.entry.id == CODE3 + "+trt-api-input-rank"
    assert "importer" not in top.cause


def test_a_plain_parameter_check_line_without_its_code_is_answered_by_the_family_card(
    kb: KnowledgeBase,
) -> None:
    """TensorRT 7's form (no Error Code): the family card reads the condition and the clause answers."""
    assert_answered(
        kb,
        "[E] [TRT] Parameter check failed at: engine.cpp::setBindingDimensions::1046, condition: "
        "dimensions.d[i] <= profileMaxDims.d[i]",
        ("dimensions.d[i] <= profileMaxDims.d[i]", "get_profile_shape"),
        entry="family-tensorrt+trt-api-binding-dims-outside-profile",
    )


def test_a_myelin_check_names_its_condition_file_and_message(kb: KnowledgeBase) -> None:
    """Myelin's CHECK(<condition>) failed. <message> (libnvinfer's MyelinCheckException) under a code card."""
    assert_answered(
        kb,
        "[TRT] [E] 10: Internal Error: MyelinCheckException: fuse_softmax.cpp:412: "
        "CHECK(node->outputs().size() "
        "== 1) failed. Expected 1 output, got 2",
        (
            "fuse_softmax.cpp:412",
            "CHECK(node->outputs().size() == 1)",
            "Expected 1 output, got 2",
            "polygraphy",
        ),
        clause="trt-myelin-check-exception",
    )


def test_a_reshape_with_two_wildcards_names_both_shapes(kb: KnowledgeBase) -> None:
    """NvInfer.h's IShuffleLayer::setReshapeDimensions: at most one -1; the shapes the check printed."""
    assert_answered(
        kb,
        "ERROR: [TRT] 4: [shapeContext.cpp::operator()::3602] Error Code 4: Shape Error (reshape dimension "
        "with "
        "more than one -1 wildcard. Reshaping [8,(# 1 (SHAPE x)),64] to [8,-1,-1].)",
        ("asks for [8,-1,-1]", "reshaping [8,(# 1 (SHAPE x)),64]", "at most one -1"),
        clause="trt-reshape-two-wildcards",
    )
