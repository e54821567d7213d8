"""onnxruntime and TensorRT (branch s29d): the pieces of s28d's backed-out change, redone one at a time.

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
from the evaluation set."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.eval_explain import blank_markers
from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.kb import framed_runtime_under

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


def test_a_cuda_text_alone_is_still_the_cuda_runtime_entry(kb: KnowledgeBase) -> None:
    top = kb.lookup("RuntimeError: CUDA error: an illegal memory access was encountered", top=1)[0]
    assert top.entry.id == "runtime-cuda-illegal-address"
    glued = kb.lookup("x11: Cuda Runtime (an illegal memory access was encountered)", top=1)[0]
    assert glued.entry.id == "runtime-cuda-illegal-address"  # '1:' inside a word is not TensorRT's line


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


CUDACALL = (
    "terminate called after throwing an instance of 'onnxruntime::OnnxRuntimeException'\n"
    "  what():  /onnxruntime_src/onnxruntime/core/providers/cuda/cuda_call.cc:121 std::conditional_t<THRW, "
    "void, onnxruntime::common::Status> onnxruntime::CudaCall(ERRTYPE, const char*, const char*, ERRTYPE, "
    "const char*, const char*, int) [with ERRTYPE = {errtype}; bool THRW = true; std::conditional_t<THRW, "
    "void, onnxruntime::common::Status> = void] {failure} ; GPU=0 ; hostname=node7 ; "
    "file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_execution_provider.cc ; line=280 ; "
    "expr={expr};"
)


def test_the_cudacall_exception_has_its_entry_with_its_values(kb: KnowledgeBase) -> None:
    text = CUDACALL.format(
        errtype="cudaError",
        failure="CUDA failure 35: CUDA driver version is insufficient",
        expr="cudaSetDevice(0)",
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "onnxruntime-s29d-cudacall-check-threw"
    found = dict(top.captures)
    assert (found["lib"], found["value"], found["expr"]) == ("CUDA", "35", "cudaSetDevice(0)")
    assert found["detail"] == "CUDA driver version is insufficient"
    assert "cudaSetDevice(0) returned CUDA failure 35" in top.cause


def test_the_cudacall_exception_without_its_markers_is_still_onnxruntime(kb: KnowledgeBase) -> None:
    text = blank_markers(
        CUDACALL.format(errtype="cudaError", failure="CUDA failure 4: driver shutting down", expr="e")
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "onnxruntime", top.entry.id


@pytest.mark.parametrize(
    ("errtype", "failure", "want"),
    [
        ("cudnnStatus_t", "CUDNN failure 4: CUDNN_STATUS_INTERNAL_ERROR", "onnxruntime-cudnn-failure"),
        ("cublasStatus_t", "CUBLAS failure 3: CUBLAS_STATUS_ALLOC_FAILED", "onnxruntime-cublas-failure"),
    ],
)
def test_cudnn_and_cublas_failures_keep_their_own_entries(
    kb: KnowledgeBase, errtype: str, failure: str, want: str
) -> None:
    text = CUDACALL.format(errtype=errtype, failure=failure, expr="cudnnCreate(&h)")
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert ids[0] == want, ids
    assert "onnxruntime-s29d-cudacall-check-threw" not in ids


def test_cuda_out_of_memory_in_the_cudacall_form_stays_with_the_memory_clause(kb: KnowledgeBase) -> None:
    text = CUDACALL.format(
        errtype="cudaError", failure="CUDA failure 2: out of memory", expr="cudaMalloc(&p, n)"
    )
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert "onnxruntime-s29d-cudacall-check-threw" not in ids
    assert ids[0].endswith("+cuda-out-of-memory"), ids


def test_a_rocm_text_is_not_answered_as_cuda(kb: KnowledgeBase) -> None:
    text = (
        "terminate called after throwing an instance of 'onnxruntime::OnnxRuntimeException'\n"
        "  what():  /onnxruntime_src/onnxruntime/core/providers/rocm/rocm_call.cc:121 onnxruntime::RocmCall("
        "ERRTYPE, const char*, const char*, ERRTYPE, const char*) [with ERRTYPE = hipError_t; bool THRW = "
        "true] HIP failure 98: invalid device function ; GPU=0 ; hostname=n ; expr=hipLaunchKernel(k);"
    )
    for shown in (text, blank_markers(text)):
        for m in kb.lookup(shown, top=5):
            assert m.entry.id != "onnxruntime-s29d-cudacall-check-threw"
            assert "cuda" not in m.entry.id or m.entry.family == "runtime" and m.score < 20, m.entry.id


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


KERNEL_REASONS = [
    (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Non-zero status code returned while running LSTM node. "
        "Name:'/enc/lstm/LSTM' Status Message: Input X must have 3 dimensions only. Actual:{1,1,1,128,64}",
        "ort-rnn-input-rank",
        ("/enc/lstm/LSTM", "{1,1,1,128,64}", "[seq_length, batch_size, input_size]"),
    ),
    (
        "[E:onnxruntime:, sequential_executor.cc:514 ExecuteKernel] Non-zero status code returned while "
        "running Pad node. Name:'/up/Pad_3' Status Message: Cannot use 'reflect' mode to pad dimension with "
        "a value of 0. Input shape:{0,64,32}",
        "ort-pad-mode-empty-dim",
        ("/up/Pad_3", "'reflect'", "{0,64,32}", "mode='constant'"),
    ),
    (
        "Non-zero status code returned while running GatherND node. Name:'/head/GatherND_2' Status Message: "
        "last dimension of indices must not be larger than rank of input tensor",
        "ort-gathernd-index-depth",
        ("/head/GatherND_2", "index_select", "batch_dims"),
    ),
    (
        "[E] Error[9]: [standardEngineBuilder.cpp::buildEngine::2427] Error Code 9: Internal Error ((Unnamed "
        "Layer* 17) [Shuffle]: at most one dimension may be inferred)",
        "trt-shuffle-two-inferred-dims",
        ("(Unnamed Layer* 17) [Shuffle]", "more than one -1", "BatchNorm1d"),
    ),
]


@pytest.mark.parametrize(("text", "clause", "named"), KERNEL_REASONS, ids=[c[1] for c in KERNEL_REASONS])
def test_a_kernel_or_layer_reason_is_read_with_its_values(
    kb: KnowledgeBase, text: str, clause: str, named: tuple[str, ...]
) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+" + clause), top.entry.id
    advice = top.cause + " " + top.fix
    for part in named:
        assert part in advice, (part, advice)
    assert "{" + "op" not in advice and "  " not in advice


def test_a_kernel_reason_without_its_node_reads_whole(kb: KnowledgeBase) -> None:
    """The status card alone (no executor envelope, so no node): the clause reads without a node's name."""
    text = (
        "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : last dimension of indices must not be larger than rank "
        "of input tensor"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.endswith("+ort-gathernd-index-depth"), top.entry.id
    assert top.cause.startswith("GatherND node got indices") and "of that node" in top.fix


def test_the_shuffle_clause_does_not_read_other_tools_wording(kb: KnowledgeBase) -> None:
    text = "ValueError: At most one dimension may be inferred. (Parameter 'shape')"
    for m in kb.lookup(text, top=3):
        assert not m.entry.id.endswith("+trt-shuffle-two-inferred-dims"), m.entry.id
