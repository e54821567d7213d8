"""onnxruntime's CUDA call check, TensorRT's CUDA-runtime line and the CUDA text they frame (branch s28d).

A text any tool prints (a :data:`dumpscope.core.knowledge.index.RUNTIME_FAMILIES` entry: ``an illegal memory
access was encountered``) found inside a tool's own line is that tool's report:
:func:`dumpscope.core.knowledge.kb.framed_runtime_under` scores it just under the tool's match that spans it.
The messages are written for these tests from the tools' format strings (onnxruntime's ``cuda_call.cc``:
``"%s failure %d: %s ; GPU=%d ; hostname=%s ; expr=%s; %s"`` thrown from ``CudaCall``; TensorRT's logger:
``[file::function::line] Error Code 1: Cuda Runtime (<cudaGetErrorString>)``; Myelin's library check) with
made-up paths, hosts and values; none is copied from the evaluation set."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import load_kb
from dumpscope.core.knowledge.index import RUNTIME_FAMILIES
from dumpscope.core.knowledge.kb import framed_runtime_under

NO_USER_DIR = Path("/nonexistent-dumpscope-test")

TRT_ILLEGAL = (
    "[11/02/2025-10:01:44] [TRT] [E] 1: [enqueueRunner.cpp::execute::312] Error Code 1: Cuda Runtime "
    "(an illegal memory access was encountered)"
)
TRT_NO_FRAME = "[11/02/2025-10:01:44] frame 12: an illegal memory access was encountered"
ORT_CUDA_CALL = (
    "terminate called after throwing an instance of 'Ort::Exception'\n"
    "  what():  /build/onnxruntime/core/providers/cuda/cuda_call.cc:121 std::conditional_t<THRW, void, "
    "onnxruntime::common::Status> onnxruntime::CudaCall(ERRTYPE, const char*, const char*, ERRTYPE, const "
    "char*, const char*, int) [with ERRTYPE = cudaError; bool THRW = true] CUDA failure 4: driver shutting "
    "down ; GPU=0 ; hostname=worker3 ; file=/build/onnxruntime/core/providers/cuda/gpu_data_transfer.cc ; "
    "line=73 ; expr=cudaStreamSynchronize(stream);"
)
ORT_CUDNN_CALL = (
    "[E:onnxruntime:Default, cuda_call.cc:118 onnxruntime::CudaCall] CUDNN failure 4: "
    "CUDNN_STATUS_INTERNAL_ERROR ; GPU=0 ; hostname=box ; expr=cudnnCreate(&handle);"
)
MYELIN = (
    "[TRT] [E] myelin/myelinGraphContext.h (26) - Myelin Error in MyelinGraphContext: 1 "
    "(myelinVersionMismatch : Compiled against cuBLAS 11.6.5.2 but running against cuBLAS 11.4.2.10003."
)


@pytest.fixture(scope="module")
def kb():  # type: ignore[no-untyped-def]
    return load_kb(user_dir=NO_USER_DIR)


def _first(kb, text: str):  # type: ignore[no-untyped-def]
    return kb.lookup(text, top=5)[0]


def test_trt_cuda_runtime_line_answers_before_the_cuda_text_it_frames(kb) -> None:  # type: ignore[no-untyped-def]
    ranked = kb.lookup(TRT_ILLEGAL, top=5)
    assert ranked[0].entry.id == "tensorrt-cuda-runtime-error"
    assert dict(ranked[0].captures)["arg"] == "an illegal memory access was encountered"
    assert dict(ranked[0].captures)["arg2"] == "enqueueRunner.cpp::execute::312"
    ids = [m.entry.id for m in ranked]
    assert "runtime-cuda-illegal-address" in ids  # still listed, under the tool's line


def test_trt_line_without_its_markers_still_frames_the_cuda_text(kb) -> None:  # type: ignore[no-untyped-def]
    bare = (
        "[enqueueRunner::execute::312] Error Code 1: Cuda Runtime (an illegal memory access was encountered)"
    )
    bare = bare.replace("Error Code", "          ")  # the wording proxy blanks the code, keeps the spaces
    assert _first(kb, bare).entry.family == "tensorrt"


def test_cuda_text_with_no_tool_line_around_it_stays_the_runtime_answer(kb) -> None:  # type: ignore[no-untyped-def]
    assert _first(kb, TRT_NO_FRAME).entry.id == "runtime-cuda-illegal-address"


def test_ort_cuda_call_failure_names_the_library_call_and_reason(kb) -> None:  # type: ignore[no-untyped-def]
    m = _first(kb, ORT_CUDA_CALL)
    assert m.entry.id.startswith("onnxruntime-s28d-cuda-call-failure")  # refined by the CUDA-call clause
    assert m.entry.family == "onnxruntime"
    entry = next(e for e in kb.entries if e.id == "onnxruntime-s28d-cuda-call-failure")
    found = entry.search(ORT_CUDA_CALL)
    assert found is not None and found["errtype"] == "cudaError" and found["line"] == "121"


def test_ort_cuda_call_failure_second_form_captures_stop_at_the_value(kb) -> None:  # type: ignore[no-untyped-def]
    text = (
        "CUDA failure 700: an illegal memory access was encountered ; GPU=1 ; hostname=h ; expr=cudaFree(a);"
    )
    found = next(e for e in kb.entries if e.id == "onnxruntime-s28d-cuda-call-failure").search(text)
    assert found is not None
    assert found["lib"] == "CUDA" and found["value"] == "700"
    assert found["reason"] == "an illegal memory access was encountered"
    assert found["gpu"] == "1" and found["expr"] == "cudaFree(a)"


def test_cudnn_failure_keeps_its_own_entry(kb) -> None:  # type: ignore[no-untyped-def]
    ids = [m.entry.id for m in kb.lookup(ORT_CUDNN_CALL, top=5)]
    assert ids[0] == "onnxruntime-cudnn-failure"
    entry = next(e for e in kb.entries if e.id == "onnxruntime-s28d-cuda-call-failure")
    assert entry.search(ORT_CUDNN_CALL) is None  # CUDNN and CUBLAS failures are their own entries' texts


def test_myelin_library_version_mismatch(kb) -> None:  # type: ignore[no-untyped-def]
    m = _first(kb, MYELIN)
    assert m.entry.id == "tensorrt-s28d-myelin-library-version-mismatch"
    caps = dict(m.captures)
    assert (caps["lib"], caps["version"], caps["version2"]) == ("cuBLAS", "11.6.5.2", "11.4.2.10003")


def test_none_engine_entry_needs_a_tensorrt_attribute(kb) -> None:  # type: ignore[no-untyped-def]
    entry = next(e for e in kb.entries if e.id == "tensorrt-python-engine-is-none")
    assert entry.search("AttributeError: 'NoneType' object has no attribute 'create_execution_context'")
    other = "AttributeError: 'NoneType' object has no attribute 'shape'"
    assert entry.search(other) is None
    assert all(
        m.entry.id != entry.id for m in kb.lookup(other, top=5)
    )  # no partial match of any NoneType text


def test_framed_runtime_under_moves_only_runtime_matches_inside_a_tool_match(kb) -> None:  # type: ignore[no-untyped-def]
    ranked = kb.lookup(TRT_ILLEGAL, top=10)
    again = framed_runtime_under(ranked, TRT_ILLEGAL)
    tool = next(m for m in again if m.entry.id == "tensorrt-cuda-runtime-error")
    for before, after in zip(ranked, again, strict=True):
        assert before.entry.id == after.entry.id
        if after.entry.family in RUNTIME_FAMILIES and after.entry.id == "runtime-cuda-illegal-address":
            assert after.score < tool.score
        elif after.entry.family not in RUNTIME_FAMILIES:
            assert after.score == before.score


@settings(max_examples=40, deadline=None)
@given(
    prefix=st.text(alphabet=st.characters(categories=["L", "N", "Zs"]), max_size=30),
    reason=st.sampled_from(["an illegal memory access was encountered", "out of memory", "invalid argument"]),
)
def test_framed_runtime_never_lifts_a_match_and_keeps_the_list(kb, prefix: str, reason: str) -> None:  # type: ignore[no-untyped-def]
    text = f"{prefix}\n[a.cpp::run::7] Error Code 1: Cuda Runtime ({reason})"
    ranked = kb.lookup(text, top=10)
    again = framed_runtime_under(ranked, text)
    assert [m.entry.id for m in again] == [m.entry.id for m in ranked]
    assert all(a.score <= b.score for a, b in zip(again, ranked, strict=True))
    assert framed_runtime_under(again, text) == again or all(
        a.score <= b.score for a, b in zip(framed_runtime_under(again, text), again, strict=True)
    )


# Entries from the tools' own texts (branch s28d): each answers its source form and captures up to the value.

SOURCE_FORMS = [
    (
        "[TRT] [E] 3: setTensorAddress given invalid tensor name: output",
        "tensorrt-s28d-invalid-tensor-name",
        {"call": "setTensorAddress", "tensor": "output"},
    ),
    (
        "[TRT] [E] 3: Given invalid tensor name: position_ids",
        "tensorrt-s28d-invalid-tensor-name",
        {"tensor": "position_ids"},
    ),
    (
        "[W] [TRT] The getMaxBatchSize() function should not be used with an engine built from a network"
        " created with NetworkDefinitionCreationFlag::kEXPLICIT_BATCH flag. This function will always"
        " return 1.",
        "tensorrt-s28d-getmaxbatchsize-explicit-batch",
        {},
    ),
    (
        "OnnxRuntimeException: [ErrorCode:InvalidArgument] Unknown provider name 'TensorRT'. Currently"
        " supported values are 'QNN'/'QNNExecutionProvider', and 'XNNPACK'/'XnnpackExecutionProvider'.",
        "onnxruntime-s28d-unknown-provider-name",
        {
            "value": "TensorRT",
            "allowed": "QNN'/'QNNExecutionProvider', and 'XNNPACK'/'XnnpackExecutionProvider",
        },
    ),
    (
        "[ONNXRuntimeError] : 1 : FAIL : Failed to add kernel for Inverse com.microsoft CPUExecutionProvider:"
        " Conflicting with a registered kernel with op versions.",
        "onnxruntime-s28d-kernel-registration-conflict",
        {"op": "Inverse", "domain": "com.microsoft", "provider": "CPUExecutionProvider"},
    ),
    (
        "[TRT] [E] IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM 61 is not"
        " supported by this TensorRT release.)",
        "tensorrt-s28d-target-sm-not-supported",
        {"value": "61"},
    ),
    (
        "Error: Failed to run the model: Unexpected input data type. Actual: (tensor(int32)) , expected:"
        " (tensor(int64))",
        "onnxruntime-INVALID-ARGUMENT-2",
        {"arg2": "tensor(int32)", "arg": "tensor(int64)"},
    ),
]


@pytest.mark.parametrize(("text", "entry_id", "captures"), SOURCE_FORMS)
def test_source_form_answered_with_its_captures(
    kb, text: str, entry_id: str, captures: dict[str, str]
) -> None:  # type: ignore[no-untyped-def]
    m = _first(kb, text)
    assert m.entry.id.split("+")[0] == entry_id
    got = dict(m.captures)
    for name, value in captures.items():
        assert got[name] == value


def test_skipping_tactic_entry_captures_the_tactic_and_exception(kb) -> None:  # type: ignore[no-untyped-def]
    entry = next(e for e in kb.entries if e.id == "tensorrt-s28d-skipping-tactic-exception")
    found = entry.search(
        "[TRT] [E] 9: Skipping tactic 0x00000000000003e8 due to exception unspecified launch failure"
    )
    assert found is not None
    assert found["tactic"] == "0x00000000000003e8" and found["reason"] == "unspecified launch failure"
    assert entry.search("Skipping tactic 0x0 due to insufficient memory on requested size of 1024") is None


def test_actual_expected_form_needs_onnxruntimes_spacing(kb) -> None:  # type: ignore[no-untyped-def]
    entry = next(e for e in kb.entries if e.id == "onnxruntime-INVALID-ARGUMENT-2")
    assert entry.search("Actual: (tensor(double)) , expected: (tensor(float))") is not None
    assert entry.search("Actual: 3, expected: 4") is None  # any tool's assertion wording is not onnxruntime's
