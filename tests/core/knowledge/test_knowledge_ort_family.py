"""Issue 23: onnxruntime is recognised from its own vocabulary, and shared words do not take it elsewhere.

Every message here was written for this test from a format string in onnxruntime's sources (the file is
named beside each case) or Triton's onnxruntime backend, not copied from an evaluation set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_families
from tests.support.paths import bench_script

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


# --- onnxruntime's own wording, read out of its binaries (bench/build_source_grams.py) ---------------


def _build_module() -> Any:
    return bench_script("build_source_grams")


@pytest.fixture(scope="module")
def ort_pieces() -> list[str]:
    """Long error pieces of onnxruntime's binaries, less onnx's (skipped without both wheels)."""
    pytest.importorskip("onnxruntime", reason="onnxruntime's binaries are the source of the 4-grams")
    pytest.importorskip("onnx", reason="onnx's binary is subtracted from onnxruntime's")
    import onnx
    import onnxruntime

    build = _build_module()
    ort = set().union(
        *(build.literals(p.read_bytes()) for p in (Path(onnxruntime.__file__).parent / "capi").glob("*.so*"))
    )
    onnx_strings = set().union(
        *(build.literals(p.read_bytes()) for p in Path(onnx.__file__).parent.glob("*.so"))
    )
    return [p for p in build.error_pieces(ort - onnx_strings) if len(p.split()) >= 8]


def test_the_shipped_grams_are_onnxruntime_s_own(ort_pieces: list[str]) -> None:
    """onnxruntime's 4-grams in source_grams.bin come from its binaries (none was added by hand): most of
    them are 4-grams of the installed wheel's error pieces (the rest, of its execution providers'
    libraries: QNN's from onnxruntime-qnn, CUDA's and TensorRT's from onnxruntime-gpu, DirectML's and
    OpenVINO's from their packages), none is a 4-gram of onnx's binary, and the file names the
    installed version.  The file is also less the other tools' entries of the KB it was built with:
    after the KB changes, ``bench/build_source_grams.py`` rebuilds it."""
    import onnx
    import onnxruntime

    from dumpscope.core.knowledge.family import _source_grams

    build = _build_module()
    families, keys, owners = _source_grams()
    ort = {k for k, o in zip(keys, owners, strict=True) if families[o] == "onnxruntime"}
    assert len(ort) > 10_000
    ort_strings = set().union(
        *(build.literals(p.read_bytes()) for p in (Path(onnxruntime.__file__).parent / "capi").glob("*.so*"))
    )
    onnx_strings = set().union(
        *(build.literals(p.read_bytes()) for p in Path(onnx.__file__).parent.glob("*.so"))
    )
    installed = build.hashed(build.error_pieces(ort_strings - onnx_strings))
    assert len(ort & installed) >= 0.6 * len(ort)
    assert not ort & build.hashed(onnx_strings)
    from dumpscope.core.knowledge.package_data import package_bytes

    doc = json.loads(package_bytes("source_grams.json"))
    source = next(r["source"] for r in doc["families"] if r["family"] == "onnxruntime")
    assert f"onnxruntime {onnxruntime.__version__} (installed)" in source


def test_onnxruntime_error_texts_without_markers_are_evidence_of_onnxruntime(ort_pieces: list[str]) -> None:
    """Sentences of onnxruntime's binaries, pasted bare (no log prefix, no path, no class name), still give
    onnxruntime evidence: nearly all long ones reach the MEDIUM count of distinct 4-grams."""
    from dumpscope.core.knowledge.family import _source_text

    assert len(ort_pieces) > 200
    with_evidence = [p for p in ort_pieces if "onnxruntime" in _source_text(p.lower())]
    assert len(with_evidence) >= 0.9 * len(ort_pieces)


def test_other_tools_texts_give_no_onnxruntime_source_evidence(kb: KnowledgeBase) -> None:
    """No other tool's entry example (the subtraction's other side) nor onnx's checker text counts as
    onnxruntime's wording; an English sentence of a few common words does not either."""
    from dumpscope.core.knowledge.family import _source_text

    others = [e.example for e in kb.entries if e.family != "onnxruntime" and e.example]
    assert len(others) > 500
    assert [x for x in others if "onnxruntime" in _source_text(x.lower())] == []
    assert (
        _source_text("the input is not valid and the model failed to load because it is not supported") == {}
    )


def test_source_grams_rank_by_where_the_text_starts() -> None:
    """The wording's hit carries where its first 4-gram starts, the position the ranking compares between
    families of equal weight (the one named first comes first), like any marker's."""
    from dumpscope.core.knowledge.family import _source_text

    text = "Must specify a valid array of 1 or more supported nodes"
    hits = _source_text(("x" * 40 + " " + text).lower())["onnxruntime"]
    assert hits and hits[0][1] == 41


TENSORRT_OWN_FORMATS = [
    # TensorRT 7/8 Python logger (samples/python common.py TRT_LOGGER): "[TensorRT] ERROR: ..."
    "[TensorRT] ERROR: Network must have at least one output",
    # TensorRT 8.6+ Python package name in an AttributeError of the bindings
    "AttributeError: 'tensorrt_bindings.tensorrt.IBuilderConfig' object has no attribute 'max_workspace'",
    # TensorRT-LLM cpp/tensorrt_llm/common/cudaUtils.h and tensorrt_llm/logger.py
    "[TensorRT-LLM][ERROR] CUDA runtime error in cudaMalloc(&ptr, size): out of memory",
    "[TRT-LLM] [E] Engine building failed, please check the error log.",
]


@pytest.mark.parametrize("text", TENSORRT_OWN_FORMATS)
def test_tensorrt_python_and_llm_loggers_name_tensorrt(text: str) -> None:
    assert detect_families(text)[:1] == ["tensorrt"]


def test_tensorrt_error_location_is_medium_evidence_and_other_tools_locations_are_none() -> None:
    """TensorRT's "[file.cpp::function::line]" with its "Error Code N" names TensorRT; the one-colon
    "file.cpp:line" of OpenVINO or MNN is no TensorRT evidence."""
    from dumpscope.core.knowledge.family import family_evidence

    assert detect_families("2: [pluginV2Runner.cpp::execute::115] Error Code 2: Internal Error") == [
        "tensorrt"
    ]
    assert "tensorrt" not in family_evidence("Check 'false' failed at src/inference/src/core.cpp:114:")
    assert "tensorrt" not in family_evidence("/home/MNN/tools/converter/source/common/writeFb.cpp:687: x")
