"""Issue 23: onnxruntime is recognised from its own vocabulary, and shared words do not take it elsewhere.

Every message here was written for this test from a format string in onnxruntime's sources (the file is
named beside each case) or Triton's onnxruntime backend, not copied from an evaluation set.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.core.knowledge import KnowledgeBase, load_kb
from dumpscope.core.knowledge.family import detect_families


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_kb(user_dir=Path("/nonexistent-dumpscope-test"))


ORT_OWN_TEXT = [
    # include/onnxruntime/core/session/onnxruntime_cxx_api.h: the C++ API throws Ort::Exception
    "terminate called after throwing an instance of 'Ort::Exception'\n  what():  Load model from a.onnx",
    # csharp/src/Microsoft.ML.OnnxRuntime/NativeApiStatus.shared.cs
    "Microsoft.ML.OnnxRuntime.OnnxRuntimeException: [ErrorCode:Fail] something went wrong",
    # core/framework/execution_frame.cc / session/inference_session.cc: the input checks
    "Invalid rank for input: x Got: 2 Expected: 4 Please fix either the inputs/outputs or the model.",
    "Got invalid dimensions for input: x for the following indices\n index: 1 Got: 5 Expected: 3",
    "Unexpected input data type. Actual: (tensor(double)) , expected: (tensor(float))",
    # core/framework/kernel_registry.cc / session_state.cc
    "Could not find an implementation for Foo(13) node with name '/Foo_1'",
    # core/graph/model.cc
    "Unsupported model IR version: 11, max supported IR version: 10",
    # core/framework/bfc_arena.cc
    "bfc_arena.cc:376 onnxruntime::BFCArena::AllocateRawInternal Failed to allocate memory for requested",
    # include/onnxruntime/core/common/status.h: the status format without its "[ONNXRuntimeError]" head
    "RuntimeError: 10 : INVALID_GRAPH : Load model from m.onnx failed: bad graph",
    # core/framework/execution_frame.cc in a log line; the copy nodes ORT inserts between devices
    "execution_frame.cc:857 VerifyOutputSizes Expected shape from model of {} does not match actual shape",
    "Non-zero status code returned while running MemcpyToHost node. Name:'Memcpy_token_1'",
    # Triton onnxruntime_backend src/onnxruntime_utils.cc: "onnx runtime error <code>: <message>"
    "[StatusCode.INTERNAL] onnx runtime error 2: not enough space: expected 10, got 8",
]


@pytest.mark.parametrize("text", ORT_OWN_TEXT)
def test_ort_own_text_names_onnxruntime_first(text: str, kb: KnowledgeBase) -> None:
    assert detect_families(text)[:1] == ["onnxruntime"]
    assert kb.lookup(text, top=1)[0].entry.family == "onnxruntime"


def test_cuda_text_inside_an_ort_envelope_stays_onnxruntime(kb: KnowledgeBase) -> None:
    text = (
        "Non-zero status code returned while running Conv node. Name:'c1' Status Message: "
        "CUDA error cudaErrorNoKernelImageForDevice:no kernel image is available for execution on the device"
    )
    assert detect_families(text)[:1] == ["onnxruntime"]
    assert kb.lookup(text, top=1)[0].entry.family == "onnxruntime"


def test_tensorrt_ep_sentence_is_onnxruntime_not_tensorrt() -> None:
    """The word TensorRT inside the TensorRT EP's own sentence is weak; the EP's provider name (the
    ``ExecutionProvider`` marker) names onnxruntime."""
    text = (
        "Non-zero status code returned while running TRTKernel_graph_main_1 node. "
        "Name:'TensorrtExecutionProvider_TRTKernel_graph_main_1_0' Status Message: "
        "TensorRT EP failed to create engine from network."
    )
    assert detect_families(text) == ["onnxruntime"]


def test_tensorrt_builder_text_forwarded_by_the_ep_names_tensorrt_first_then_onnxruntime() -> None:
    """TensorRT's own builder text ([TRT], Error Code N, ForeignNode) outweighs the EP's envelope: TensorRT
    is named first and onnxruntime second (both layers are right, the `also` rule of the eval set)."""
    text = (
        "[TRT] [E] 4: [network.cpp::validate::2965] Error Code 4: Internal Error (Network has dynamic "
        "inputs, but no optimization profile has been defined.)\n"
        "[E:onnxruntime:Default, tensorrt_execution_provider.h:88 log] TensorRT EP failed to create engine "
        "from network."
    )
    assert detect_families(text) == ["tensorrt", "onnxruntime"]
