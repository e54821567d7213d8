"""Issue 23 (h23w2): reason clauses for forms whose dev answers were a card only: onnxruntime's cuDNN
frontend failure and a control-flow subgraph without output shapes inside the kernel envelope, onnx's
checker "No Schema registered for", TensorRT-LLM's TLLM_CHECK and TensorRT's Myelin library version check.
Each is tested on the vendor's own wording (the source's format string with our own names and values filled
in), not on a held-out message."""

from __future__ import annotations

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase
from tests.support.advice import assert_answered

CASES = [
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


@pytest.mark.parametrize(("message", "entry", "named"), CASES, ids=[c[1].split("+")[1] for c in CASES])
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
