"""The knowledge tests of the reason clauses and code cards answering a vendor check: each case is a
vendor's own wording with made-up names and values filled in, never an eval message.

The sessions that wrote the cases, and the vendor files each one read, follow (their notes as they wrote
them; a note may speak of another family too: those cases are in that family's file).

From s20f (was test_knowledge_card_reasons_s20f.py):

A card answered by the reason inside it (s20f): onnxruntime's exception location read by the component its
path names, and text any tool prints (the dynamic loader, the C++ library) inside a named tool's message.

onnxruntime's exceptions print where they were thrown (include/onnxruntime/core/common/exceptions.h,
FormatErrorMessage: '<path>:<line> <function> [<condition> was false.] <message>').  Where only a card
answers such a message (a status-code card, the run-time envelope, a Web API envelope), the path's component
says which part of onnxruntime stopped: a graph transformer (core/optimizer), an execution provider
(core/providers/<ep>), the graph loader (core/graph), or SafeInt's overflow check (core/common/safeint.h).
Each message here is written from that form with names and values of our own; none is a message of the
evaluation set.

From h23w2 (was test_knowledge_reason_clauses_h23w2.py):

Issue 23 (h23w2): reason clauses for forms whose dev answers were a card only: onnxruntime's cuDNN
frontend failure and a control-flow subgraph without output shapes inside the kernel envelope, onnx's
checker "No Schema registered for", TensorRT-LLM's TLLM_CHECK and TensorRT's Myelin library version check.
Each is tested on the vendor's own wording (the source's format string with our own names and values filled
in), not on a held-out message.

From h23b3 (was test_knowledge_trt_api_clauses_h23b3.py):

Issue 23 (h23b3): TensorRT's runtime API checks answered by what the check says, not by the Error Code 3
card.  One clause per check of IExecutionContext / IRuntime, each tested on the vendor's own wording (the
strings of libnvinfer_lean 11.4 and the conditions of TensorRT 7/8's parameter checks, with names and values
of our own), never on a held-out message; the advice must carry the tensor, shape, range or version the
message gave.

From s18e (was test_knowledge_trt_ort_common_s18e.py):

s18e: the TensorRT and onnxruntime failure and warning classes users report most, answered by what the
tool's own wording says instead of an Error Code card or a family card.  Each message is the vendor's
wording (the strings of libnvinfer and its plugin registry, TensorRT's builder warnings, onnxruntime's C++
and Python sources) with names and values of our own; the advice must carry the layer, tensor, size or
version the message gave.

From s21f (was test_knowledge_ort_graph_session_kernel_checks.py):

onnxruntime's own checks of the graph, the session, its kernels and its loaders, each answered from the
wording of the code that prints it (the checks answered by an entry are in test_knowledge_onnxruntime.py);
here the checks a reason clause reads:

* the kernels' input checks: Einsum (einsum_auxiliary_ops.cc), Resize/Upsample scales (upsamplebase.h),
  the transformer contrib operators' input ranks (contrib_ops/cpu/bert/*), SkipLayerNormalization
  (skip_layer_norm.cc), Conv's output size (conv_attributes.h);
* the CoreML execution provider's model compile (coreml/model/model.mm).

Each message is the vendor's wording with names and values of our own, in the forms users paste: bare,
inside the Python ``[ONNXRuntimeError] : N : NAME :`` status, inside the run-time envelope that names the
node, and with a traceback around it.  The advice must carry what the message gave.

From s21e (was test_knowledge_trt_api_conditions.py):

TensorRT's API checks answered by the condition they print, not by the Error Code 3 card alone.

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
own.
"""

from __future__ import annotations

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

# ---- s20f (test_knowledge_card_reasons_s20f.py) ----

_ORT = "onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : "


_ENV = (
    "[E:onnxruntime:, sequential_executor.cc:514 ExecuteKernel] Non-zero status code returned while running "
    "{op} node. Name:'{name}' Status Message: "
)


def test_optimizer_location_answers_with_the_optimization_level(kb: KnowledgeBase) -> None:
    top = assert_answered(
        kb,
        _ORT + "/onnxruntime_src/onnxruntime/core/optimizer/qdq_transformer/qdq_util.cc:88 "
        "bool onnxruntime::QDQ::IsQDQPairSupported() scale_a was false. Missing scale for node dq_41",
        ("onnxruntime/core/optimizer/qdq_transformer/qdq_util.cc", "ORT_DISABLE_ALL", "disabled_optimizers"),
        clause="ort-location-graph-optimizer",
    )
    assert ("line", "88") in top.captures


def test_provider_location_names_the_provider_and_the_node(kb: KnowledgeBase) -> None:
    top = assert_answered(
        kb,
        _ENV.format(op="MatMul", name="/blocks.3/attn/MatMul_1")
        + "C:\\a\\_work\\1\\s\\onnxruntime\\core\\providers\\webgpu\\program_manager.cc:120 "
        "onnxruntime::webgpu::ProgramManager::Build shader compilation failed",
        ("webgpu", "/blocks.3/attn/MatMul_1", "CPUExecutionProvider", "shader compilation failed"),
        clause="ort-location-execution-provider",
    )
    assert ("ep", "webgpu") in top.captures


def test_provider_location_on_the_next_line(kb: KnowledgeBase) -> None:
    """The Web API prints the location alone on its line and the condition on the next."""
    assert_answered(
        kb,
        "Error: failed to call OrtRun(). ERROR_CODE: 1, ERROR_MESSAGE:\n"
        "/mnt/build/onnxruntime/core/providers/js/js_kernel.cc:77\n"
        "kernel_ptr != nullptr was false.",
        ("The js execution provider", "kernel_ptr != nullptr was false."),
        clause="ort-location-execution-provider",
    )


def test_cpu_kernels_are_not_read_as_a_provider(kb: KnowledgeBase) -> None:
    """core/providers/cpu holds the default kernels, not an execution provider that took part of the graph."""
    top = kb.lookup(
        _ENV.format(op="Gather", name="gather_9")
        + "/onnxruntime_src/onnxruntime/core/providers/cpu/tensor/gather.cc:55 Status Prepare zzz qqq",
        top=1,
    )[0]
    assert not top.entry.id.endswith("+ort-location-execution-provider")


def test_graph_location_sends_the_user_to_the_checker(kb: KnowledgeBase) -> None:
    assert_answered(
        kb,
        _ORT + "Load model from net.onnx failed:/onnxruntime_src/onnxruntime/core/graph/model.cc:140 "
        "onnxruntime::Model::Model something unexpected in the proto",
        ("onnxruntime/core/graph/model.cc", "onnx.checker.check_model", "strict_mode=True"),
        clause="ort-location-graph-load",
    )


@pytest.mark.parametrize("op, name", [("Expand", "/decoder/Expand_7"), ("Tile", "tile_out")])
def test_safeint_overflow_points_at_the_node_shapes(kb: KnowledgeBase, op: str, name: str) -> None:
    """Looked up as a message of this form the KB was not written from would be: without the entry written
    for SafeInt's overflow, the clause answers the run-time envelope (the node and its shapes)."""
    own = [i for i, e in enumerate(kb.entries) if e.id == "onnxruntime-safeint-overflow"]
    assert own
    top = assert_answered(
        kb.without(own),
        _ENV.format(op=op, name=name) + "/onnxruntime_src/onnxruntime/core/common/safeint.h:17 static void "
        "SafeIntExceptionHandler<onnxruntime::OnnxRuntimeException>::SafeIntOnOverflow() Integer overflow",
        (name, "Integer overflow", "negative"),
        clause="ort-safeint-overflow",
    )
    assert ("op", name) in top.captures


def test_runtime_text_answers_the_named_tools_card(kb: KnowledgeBase) -> None:
    """The dynamic loader's 'invalid ELF header' in a message that names RKNN: the tool stays RKNN, the
    advice is the loader's (the file is no library), with the file named."""
    top = assert_answered(
        kb,
        "I RKNN: set log level to 3\nOSError: /opt/board/lib/librknnrt.so: invalid ELF header",
        ("/opt/board/lib/librknnrt.so", "git lfs pull"),
        entry="family-rknn+runtime-invalid-elf-header",
    )
    assert top.entry.family == "rknn"
    assert ("path", "/opt/board/lib/librknnrt.so") in top.captures
    assert top.reason == "pattern"


def test_runtime_text_alone_is_still_its_own_answer(kb: KnowledgeBase) -> None:
    """No tool named: the runtime entry answers first, as before."""
    top = kb.lookup("OSError: /opt/board/lib/libfoo.so: invalid ELF header", top=1)[0]
    assert top.entry.id == "runtime-invalid-elf-header"


def test_a_process_ending_answers_no_card(kb: KnowledgeBase) -> None:
    """A signal says how the process ended, not why: the tool's card is not answered by it."""
    for m in kb.lookup(
        "I RKNN: set log level to 3\nE RKNN: zzz qqq\nSegmentation fault (core dumped)", top=5
    ):
        assert "+runtime-" not in m.entry.id, m.entry.id


# ---- h23w2 (test_knowledge_reason_clauses_h23w2.py) ----

FORM_CLAUSE_CASES = [
    # microsoft/onnxruntime core/providers/cuda: CUDNN_FE failure %d: %s ; GPU=... ; expr=...
    (
        "Non-zero status code returned while running Conv node. Name:'enc/conv3' Status Message: "
        "CUDNN_FE failure 8: HEURISTIC_QUERY_FAILED ; GPU=1 ; hostname=box ; file=conv.cc ; line=225 ; "
        "expr=s_.cudnn_fe_graph->create_execution_plans({heur_mode});",
        "onnxruntime-non-zero-status-code-returned+ort-cudnn-frontend-failure",
        ("enc/conv3", "8 HEURISTIC_QUERY_FAILED", "cudnn_conv_algo_search", "libcudnn_engines_"),
    ),
    # onnxruntime controlflow/if.cc, loop.cc, scan_utils.cc AllocateOutputTensors
    (
        "Non-zero status code returned while running Loop node. Name:'decoder_loop' Status Message: "
        "Subgraph must have the shape set for all outputs but cond_out_7 did not.",
        "onnxruntime-non-zero-status-code-returned+ort-subgraph-output-shape",
        ("Loop node decoder_loop", "'cond_out_7'", "onnx.shape_inference.infer_shapes"),
    ),
    # onnx checker.cc (older releases): No Schema registered for <op>
    (
        "onnx.onnx_cpp2py_export.checker.ValidationError: No Schema registered for MyGelu",
        "family-onnx+onnx-no-schema-registered",
        ("operator MyGelu", "onnx.defs.has('MyGelu')"),
    ),
    # NVIDIA/TensorRT-LLM common/assert.h throwRuntimeError + tllmException (file:line)
    (
        "[TensorRT-LLM][ERROR] Assertion failed: numBlocks > 0 "
        "(/src/cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp:412)",
        "family-tensorrt+trtllm-assertion-failed",
        ("'numBlocks > 0'", "kvCacheManager.cpp", "trtllm-build", "max_tokens_in_paged_kv_cache"),
    ),
    # TensorRT's Myelin: myelinVersionMismatch : Compiled against <lib> <v> but running against <lib> <v>
    (
        "[TRT] [E] Myelin Error in MyelinGraphContext: 1 (myelinVersionMismatch : Compiled against cuBLASLt "
        "12.1.3.1 but running against cuBLASLt 12.0.2.224.)",
        "family-tensorrt+myelin-version-mismatch",
        ("cuBLASLt 12.1.3.1", "cuBLASLt 12.0.2.224", "LD_LIBRARY_PATH"),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), FORM_CLAUSE_CASES, ids=[c[1].split("+")[1] for c in FORM_CLAUSE_CASES]
)
def test_the_form_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_a_tensorrt_llm_check_is_not_read_as_an_onnx_parser_assertion(kb: KnowledgeBase) -> None:
    """TLLM_CHECK prints the same 'Assertion failed:' as onnx-tensorrt's ASSERT: the parser's importer
    entry no longer claims it; the TensorRT-LLM clause names the condition and that it has no file."""
    top = kb.lookup("[TensorRT-LLM][ERROR] Assertion failed: mEngine != nullptr", top=1)[0]
    assert top.entry.id == "family-tensorrt+trtllm-assertion-failed"
    assert "ONNX parser's importer" not in top.cause
    assert "'mEngine != nullptr'" in top.cause and "does not name" in top.cause
    parser = kb.lookup("[8] Assertion failed: inputs.at(1).is_weights()", top=1)[0]
    assert parser.entry.id.startswith("tensorrt-assertion-failed-abc")


# TensorRT's builder (tactic selection): 'Skipping tactic <id> due to exception <what>'
# OpenVINO intel_cpu nodes/reduce.cpp: '<prefix> has not found jit_uni_reduce_post_kernel_f32.'
MORE = [
    (
        "[TRT] [E] 9: Skipping tactic 0x00000000000003ea due to exception out of memory.",
        "trt-skipping-tactic",
        ("tactic 0x00000000000003ea", "'out of memory'", "--memPoolSize", "--tacticSources"),
    ),
    (
        "RuntimeError: Reduce node with name 'head/ReduceMean_2' has not found "
        "jit_uni_reduce_post_kernel_f32.",
        "ov-cpu-reduce-no-jit-kernel",
        ("Reduce node 'head/ReduceMean_2'", "jit_uni_reduce_post_kernel_f32", "sse4_1", "-cpu host"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), MORE, ids=[c[1] for c in MORE])
def test_the_card_is_answered_by_the_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


# CANN opbase KernelMgr::ParseDynamicKernelConfig; llama.cpp ggml.h GGML_ASSERT in ggml/src/ggml-cann
ASCEND = [
    (
        "EZ9999: Inner Error!\n"
        "EZ9999: [PID: 11] 2026-01-02-03:04:05.678.901 Parse dynamic kernel config fail.\n"
        "        TraceBack (most recent call last):\n        AclOpKernelInit failed opType\n"
        "        GroupedMatmulSwigluQuant ADD_TO_LAUNCHER_LIST_AICORE failed.",
        "aclnn-parse-dynamic-kernel-config",
        ("GroupedMatmulSwigluQuant's kernel binaries", "kernels (ops) package", "ASCEND_CUSTOM_OPP_PATH"),
    ),
    (
        "/src/llama.cpp/ggml/src/ggml-cann/aclnn_ops.cpp:1234: "
        "GGML_ASSERT(src0->type == GGML_TYPE_F16) failed",
        "ggml-cann-assert",
        ("'src0->type == GGML_TYPE_F16'", "ggml-cann/aclnn_ops.cpp", "-ngl 0", "docs/backend/CANN.md"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), ASCEND, ids=[c[1] for c in ASCEND])
def test_an_ascend_card_is_answered_by_the_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    top = assert_answered(kb, message, named, clause=clause)
    assert top.entry.family == "ascend"


def test_onednn_s_opencl_build_failure_under_openvino_names_its_code(kb: KnowledgeBase) -> None:
    """oneDNN's VERROR lines (src/gpu/intel/ocl): the program build failure and the OpenCL code after it."""
    message = (
        "onednn_verbose,v1,common,error,ocl,Error during the build of OpenCL program. Build log:\n"
        "error: backend compiler failed build.\n"
        "onednn_verbose,v1,primitive,error,ocl,errcode -11,CL_BUILD_PROGRAM_FAILURE,src/gpu/intel/ocl/x.cpp:9"
    )
    top = kb.lookup(message, top=1)[0]
    assert top.entry.family == "openvino"
    assert top.entry.id.endswith("+onednn-ocl-program-build")
    assert dict(top.captures)["value"] == "-11"
    assert "failed with CL_BUILD_PROGRAM_FAILURE" in top.cause
    assert "intel-opencl-icd" in top.fix
    assert specific(top) == (True, "")


def test_a_protobuf_type_error_of_a_core_ml_export_names_the_value(kb: KnowledgeBase) -> None:
    """protobuf's type checker (type_checkers.py) when a Core ML spec field is set: the value and types."""
    top = kb.lookup("CoreML: export failure: 3 has type int, but expected one of: bytes, str", top=1)[0]
    assert top.entry.family == "coreml"
    assert top.entry.id.endswith("+coreml-protobuf-field-type")
    assert ("value", "3") in top.captures and ("dtype", "int") in top.captures
    assert "given 3, a Python int" in top.cause and "user_defined_metadata[str(key)]" in top.fix
    assert specific(top) == (True, "")


# ---- h23b3 (test_knowledge_trt_api_clauses_h23b3.py) ----

CODE3 = "tensorrt-ErrorCode-INVALID-ARGUMENT-builder-3"


CODE1 = "tensorrt-ErrorCode-UNSPECIFIED-ERROR-builder-1"


TRT_CHECK_CLAUSE_CASES = [
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
    ("message", "entry", "named"),
    TRT_CHECK_CLAUSE_CASES,
    ids=[c[1].split("+")[1] + str(i) for i, c in enumerate(TRT_CHECK_CLAUSE_CASES)],
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


# ---- s18e (test_knowledge_trt_ort_common_s18e.py) ----

CLASS_CLAUSE_CASES = [
    (
        "[TRT] [E] 1: [pluginV2Runner.cpp::load::300] Error Code 1: Serialization (Serialization assertion "
        "creator failed.Cannot deserialize plugin since corresponding IPluginCreator not found in Plugin "
        "Registry)",
        "trt-plugin-creator-missing-at-load",
        ("init_libnvinfer_plugins", "deserialize_cuda_engine"),
    ),
    (
        "IPluginRegistry::getCreator: Error Code 4: API Usage Error (Cannot find plugin: GridWarp_TRT, "
        "version: 2, namespace:.)",
        "trt-plugin-registry-cannot-find",
        ("GridWarp_TRT", "version 2", "loadLibrary"),
    ),
    (
        "[TRT] [E] 4: [pluginV2Builder.cpp::makeRunner::519] Error Code 4: Internal Error (Internal error: "
        "plugin node blk3/attn/PLUGIN_V2_Fused_0 requires 8589934592 bytes of scratch space, but only "
        "1073741824 is available. Try increasing the workspace size with "
        "IBuilderConfig::setMemoryPoolLimit().",
        "trt-plugin-scratch-space",
        ("blk3/attn/PLUGIN_V2_Fused_0", "8589934592 bytes", "1073741824 bytes", "memPoolSize"),
    ),
    (
        "[TRT] [W] Some tactics do not have sufficient workspace memory to run. Increasing workspace size "
        "will "
        "enable more tactics, please check verbose output for requested sizes.",
        "trt-tactics-short-of-workspace",
        ("set_memory_pool_limit", "not a failure"),
    ),
    (
        "[TRT] [W] Weights [name=/neck/c3/Conv + /neck/c3/Relu.weight] had the following issues when "
        "converted to FP16:",
        "trt-fp16-weights-subnormal",
        ("/neck/c3/Conv + /neck/c3/Relu.weight", "--layerPrecisions"),
    ),
    (
        "[TRT] [W]  - Values less than smallest positive FP16 Subnormal value detected. Converting to FP16 "
        "minimum subnormalized value.",
        "trt-fp16-values-detected",
        ("Values less than smallest positive FP16 Subnormal value", "OBEY_PRECISION_CONSTRAINTS"),
    ),
    (
        "[TRT] [W] Running layernorm after self-attention in FP16 may cause overflow. Exporting the model to "
        "the latest available ONNX opset (later than opset 17) to use the INormalizationLayer, or forcing "
        "layernorm layers to run in FP32 precision can help with preserving accuracy.",
        "trt-layernorm-fp16-overflow",
        ("opset 17", "INormalizationLayer"),
    ),
    (
        "[TRT] [W] Missing scale and zero-point for tensor /head/cls/Sigmoid_output_0, expect fall back to "
        "non-int8 implementation for any layer consuming or producing given tensor",
        "trt-int8-missing-scale",
        ("/head/cls/Sigmoid_output_0", "set_dynamic_range"),
    ),
    (
        "[TRT] [E] 4: [graphShapeAnalyzer.cpp::analyzeShapes::1285] Error Code 4: Miscellaneous "
        "(IElementWiseLayer Mul_731: broadcast dimensions must be conformable)",
        "trt-broadcast-not-conformable",
        ("Mul_731", "neither is 1"),
    ),
    (
        "[TRT] [W] TensorRT was linked against cuDNN 8.9.2 but loaded cuDNN 8.6.0",
        "trt-linked-against-loaded",
        ("cuDNN 8.9.2", "cuDNN 8.6.0", "--tacticSources"),
    ),
    (
        "[TRT] [E] IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM 61 is not "
        "supported by this TensorRT release.)",
        "trt-target-sm-not-supported",
        ("SM 61", "support matrix"),
    ),
    (
        "[TRT] [W] CUDA lazy loading is not enabled. Enabling it can significantly reduce device memory "
        "usage "
        "and speed up TensorRT initialization.",
        "trt-lazy-loading-off",
        ("CUDA_MODULE_LOADING=LAZY",),
    ),
    (
        "2024-05-02 10:11:12.345 [W:onnxruntime:, session_state.cc:1166 VerifyEachNodeIsAssignedToAnEp] Some "
        "nodes were not assigned to the preferred execution providers which may or may not have an negative "
        "impact on performance. e.g. ORT explicitly assigns shape related ops to CPU to improve perf.",
        "ort-nodes-not-on-preferred-ep",
        ("log_severity_level",),
    ),
    (
        "[W:onnxruntime:, transformer_memcpy.cc:74 ApplyImpl] 7 Memcpy nodes are added to the graph "
        "main_graph "
        "for CUDAExecutionProvider. It might have negative impact on performance (including unable to run "
        "CUDA graph). Set session_options.log_severity_level=1 to see the detail logs before this message.",
        "ort-memcpy-nodes-added",
        ("7 copies", "main_graph", "CUDAExecutionProvider", "IOBinding"),
    ),
    (
        "[W:onnxruntime:, graph.cc:1283 Graph] Initializer backbone.fc.bias appears in graph inputs and will "
        "not be treated as constant value/weight. This may prevent some of the graph optimizations, like "
        "const folding.",
        "ort-initializer-in-graph-inputs",
        ("backbone.fc.bias", "remove_initializer_from_input.py", "keep_initializers_as_inputs=False"),
    ),
    (
        "ValueError: This ORT build has ['TensorrtExecutionProvider', 'CUDAExecutionProvider', "
        "'CPUExecutionProvider'] enabled. Since ORT 1.9, you are required to explicitly set the providers "
        "parameter when instantiating InferenceSession.",
        "ort-providers-parameter-required",
        ("['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider']", "providers="),
    ),
    (
        "ImportError: DLL load failed while importing onnxruntime_pybind11_state: A dynamic link library "
        "(DLL) "
        "initialization routine failed.",
        "ort-pybind-dll-load-failed",
        ("A dynamic link library (DLL) initialization routine failed", "Visual C++ Redistributable"),
    ),
    (
        "RuntimeError: Input must be a list of dictionaries or a single numpy array for input "
        "'pixel_values'.",
        "ort-feed-not-numpy",
        ("pixel_values", ".numpy()"),
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : /onnxruntime_src/onnxruntime/core/optimizer/initializer.cc:43 "
        "onnxruntime::Initializer::Initializer(const onnx::TensorProto&, const std::filesystem::path&) "
        "!model_path.empty() was false. model_path must not be empty. Ensure that a path is provided when "
        "the "
        "model is created or loaded.",
        "ort-external-data-needs-model-path",
        ("external data file", "save_as_external_data=False"),
    ),
    (
        "[W:onnxruntime:, inference_session.cc:491 RegisterExecutionProvider] Having memory pattern enabled "
        "is "
        "not supported while using the DML Execution Provider. So disabling it for this session since it "
        "uses "
        "the DML Execution Provider.",
        "ort-dml-memory-pattern-off",
        ("enable_mem_pattern = False", "ORT_SEQUENTIAL"),
    ),
]


@pytest.mark.parametrize(
    ("message", "clause", "named"), CLASS_CLAUSE_CASES, ids=[c[1] for c in CLASS_CLAUSE_CASES]
)
def test_the_class_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


def test_a_specific_entry_still_answers_before_a_warning_clause(kb: KnowledgeBase) -> None:
    """The FP16 clause's literal ``fp16`` is in many TensorRT messages: one a specific entry answers keeps "
    "it."""
    top = kb.lookup("[TRT] ERROR: Network needs native FP16 and platform does not have native FP16", top=1)[0]
    assert top.entry.id == "tensorrt-no-native-fp16"


@pytest.mark.parametrize(
    ("message", "clause", "named"),
    [
        (
            "[TRT] [E] 4: [concatenationNode.cpp::computeOutputExtents::30] Error Code 4: Internal Error "
            "(neck_cat_2: all concat input tensors must have the same dimensions except on the concatenation "
            "axis (1), but dimensions mismatched at index 2. Input 0 shape: [1,128,38,38], Input 1 shape: "
            "[1,256,37,37])",
            "trt-concat-dims-mismatch",
            ("neck_cat_2", "axis 1", "[1,128,38,38]", "[1,256,37,37]"),
        ),
        (
            "[TRT] [E] 9: [pluginV2Builder.cpp::reportPluginError::23] Error Code 9: Internal Error "
            "(RoiWarp_17: could not find any supported formats consistent with input/output data types)",
            "trt-no-format-for-types",
            ("RoiWarp_17", "supportsFormatCombination"),
        ),
    ],
    ids=["concat", "formats"],
)
def test_a_builder_shape_or_format_check_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


@pytest.mark.parametrize(
    ("message", "clause", "named"),
    [
        (
            "[TRT] [W] Using default stream in enqueueV3() may lead to performance issues due to additional "
            "calls to cudaStreamSynchronize() by TensorRT to ensure correct synchronization. Please use "
            "non-default stream instead.",
            "trt-default-stream",
            ("enqueueV3()", "execute_async_v3"),
        ),
        (
            "[TRT] [E] 1: [convolutionRunner.cpp::executeConv::465] Error Code 1: Cudnn "
            "(CUDNN_STATUS_ARCH_MISMATCH)",
            "trt-cudnn-status",
            ("CUDNN_STATUS_ARCH_MISMATCH", "--tacticSources=-CUDNN"),
        ),
        (
            "2024-03-01 10:00:00.1 [W:onnxruntime:, graph.cc:3553 CleanUnusedInitializersAndNodeArgs] "
            "Removing "
            "initializer 'head.anchor_grid'. It is not used by any node and should be removed from the "
            "model.",
            "ort-unused-initializer-removed",
            ("head.anchor_grid", "prune_graph"),
        ),
    ],
    ids=["default-stream", "cudnn-status", "unused-initializer"],
)
def test_a_runtime_or_load_notice_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


def test_a_torch_tensorrt_input_on_the_cpu_is_answered_with_the_device_it_was_on(kb: KnowledgeBase) -> None:
    """pytorch/TensorRT's execute_engine.cpp checks the device, then the type, of every input."""
    assert_answered(
        kb,
        "RuntimeError: [Error thrown at core/runtime/execute_engine.cpp:101] Expected inputs[i].is_cuda() to "
        "be true but got false\nExpected input tensors to have device cuda, found device cpu",
        ("device cpu", ".to('cuda')"),
        entry="tensorrt-torch-tensorrt-input-device-type",
    )
    assert_answered(
        kb,
        "Expected input tensors to have type Half, found type float",
        ("type float", "Half"),
        entry="tensorrt-torch-tensorrt-input-device-type",
    )


def test_a_quantizer_without_a_weight_type_is_answered_with_the_tensor(kb: KnowledgeBase) -> None:
    """onnxruntime.quantization's get_tensor_type, when shape inference gave the tensor no type."""
    assert_answered(
        kb,
        "RuntimeError: Unable to find data type for weight_name='/dec/blk2/ffn/MatMul_output_0'. "
        "shape_inference failed to return a type probably this node is from a different domain or using an "
        "input produced by such an operator. This may happen if you quantize a model already quantized.",
        ("/dec/blk2/ffn/MatMul_output_0", "DefaultTensorType", "preprocess"),
        entry="onnxruntime-quantization-weight-type-unknown",
    )


def test_a_duplicate_region_is_answered_with_the_tensor_it_named(kb: KnowledgeBase) -> None:
    assert_answered(
        kb,
        "[TRT] [E] 2: [checkSanity.cpp::checkSanity::107] Error Code 2: Internal Error (Assertion "
        "inserted.second failed. Found duplicate region name (Unnamed Layer* 88) [Constant]_output')",
        ("(Unnamed Layer* 88) [Constant]_output", "--fold-constants"),
        clause="trt-duplicate-region-name",
    )


def test_a_duplicate_region_name_stops_at_the_name(kb: KnowledgeBase) -> None:
    top = kb.lookup(
        "[TRT] [E] 2: [checkSanity.cpp::checkSanity::106] Error Code 2: Internal Error (Assertion "
        "regionNames.find(r->name) == regionNames.end() failed. Found duplicate region name "
        "/neck/Concat_3_output_0)",
        top=1,
    )[0]
    assert ("tensor", "/neck/Concat_3_output_0") in top.captures


# ---- s21f (test_knowledge_ort_graph_session_kernel_checks.py) ----

_TRACEBACK = (
    'Traceback (most recent call last):\n  File "infer.py", line 31, in <module>\n'
    "    out = sess.run(None, feeds)\n"
    "onnxruntime.capi.onnxruntime_pybind11_state.Fail: "
)


ORT_KERNEL_CLAUSE_CASES = [
    # einsum_utils/einsum_auxiliary_ops.cc
    (
        "[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running Einsum "
        "node. "
        "Name:'/attn/Einsum_2' Status Message: /onnxruntime_src/onnxruntime/core/providers/cpu/math/"
        "einsum_utils/einsum_auxiliary_ops.cc:298 std::unique_ptr<onnxruntime::Tensor> onnxruntime::"
        "EinsumOp::MatMul(...) Einsum op: Input dimensions must be equal along an axis to be reduced across "
        "all "
        "inputs",
        "ort-einsum-reduced-dims",
        ("/attn/Einsum_2", "dynamic_axes"),
    ),
    (
        "Einsum op: Input dimensions must be equal along an axis to be reduced across all inputs",
        "ort-einsum-reduced-dims",
        ("subscript letter",),
    ),
    # upsamplebase.h (Resize/Upsample scales)
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running Upsample "
        "node. "
        "Name:'up_blk_2' Status Message: Upsample: input tensor's dimension does not match the scales.",
        "ort-resize-scales-rank",
        ("up_blk_2", "Upsample", "[1, 1, sh, sw]"),
    ),
    (
        _TRACEBACK + "[ONNXRuntimeError] : 1 : FAIL : Resize: input tensor's dimension does not match the "
        "scales.",
        "ort-resize-scales-rank",
        ("Resize", "[1, 1, scale_h, scale_w]"),
    ),
    # contrib_ops/cpu/bert/* and skip_layer_norm.cc (input ranks)
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running "
        "MultiHeadAttention node. Name:'mha_layer_5' Status Message: Input 'query' is expected to have 3, "
        "4, or 5 "
        "dimensions, got 2",
        "ort-contrib-input-rank",
        ("mha_layer_5", "MultiHeadAttention", "'query'", "3, 4, or 5", "has 2"),
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running SkipLayerNormalization "
        "node. Name:'SkipLayerNorm_11' Status Message: input is expected to have 3 dimensions, got 2",
        "ort-contrib-input-rank",
        ("SkipLayerNorm_11", "'input'", "np.expand_dims"),
    ),
    # skip_layer_norm.cc
    (
        "[ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running SkipLayerNormalization "
        "node. Name:'SkipLayerNorm_3' Status Message: skip is expected to have same shape as input",
        "ort-skip-layernorm-shape",
        ("SkipLayerNorm_3", "onnxruntime.transformers.optimizer"),
    ),
    # conv_attributes.h (Conv's output size)
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running Conv node. "
        "Name:'/stem/conv3/Conv' Status Message: Invalid input shape: {1,64,2,2}",
        "ort-conv-output-size",
        ("/stem/conv3/Conv", "{1,64,2,2}", "kernel_shape"),
    ),
    # the CoreML execution provider's coreml/model/model.mm
    (
        "[ONNXRuntimeError] : 1 : FAIL : Error compiling model compiler error:  Encountered an error while "
        "compiling a neural network model: validator error: Model output 'boxes' has a different shape than "
        "its "
        "corresponding return value to main.",
        "ort-coreml-ep-compile",
        ("Model output 'boxes' has a different shape", "ModelFormat", "CPUExecutionProvider"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), ORT_KERNEL_CLAUSE_CASES)
def test_ort_kernel_checks_answered_by_clause(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


# ---- s21e (test_knowledge_trt_api_conditions.py) ----


def _trt8(function: str, condition: str, file: str = "runtime/api/executionContext.cpp") -> str:
    """TensorRT 8's parameter check line, as its logger prints it (made-up line numbers)."""
    base = file.rsplit("/", 1)[-1]
    return (
        f"[TRT] [E] 3: [{base}::{function}::1234] Error Code 3: API Usage Error (Parameter check failed at: "
        f"{file}::{function}::1234, condition: {condition})"
    )


TRT_CONDITION_CASES = [
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
TRT_OTHER_CARDS = [
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


@pytest.mark.parametrize("message, card, clause, named", TRT_OTHER_CARDS, ids=[c[2] for c in TRT_OTHER_CARDS])
def test_another_trt_card_is_answered_by_its_clause(
    kb: KnowledgeBase, message: str, card: str, clause: str, named: tuple[str, ...]
) -> None:
    """A card of another code (or TensorRT's family card) answered by the clause of its message."""
    top = assert_answered(kb, message, named, clause=clause)
    assert top.entry.id == f"{card}+{clause}"


@pytest.mark.parametrize(
    "message, clause, named",
    TRT_CONDITION_CASES,
    ids=[f"{c[1]}-{i}" for i, c in enumerate(TRT_CONDITION_CASES)],
)
def test_a_trt_api_check_is_answered_by_its_condition(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    """The Error Code 3 card answered by the clause of its condition, with the call, the condition and the
    values in the advice."""
    top = assert_answered(kb, message, named, clause=clause)
    assert top.entry.id == f"{CODE3}+{clause}"


def test_a_condition_no_clause_knows_keeps_the_generic_reading(kb: KnowledgeBase) -> None:
    """A parameter check without a clause of its own is still read by the generic clause, which quotes it."""
    # s38c: a file of no stage TensorRT's headers name (executionContext.cpp now reads as the context's check)
    message = _trt8("someFutureCall", "mSomething.isReady()", file="common/api/someFutureObject.cpp")
    assert_answered(kb, message, ("someFutureCall", "mSomething.isReady()"), clause="trt-parameter-check")
