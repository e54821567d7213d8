"""Session 36t: family entries that read the failing check of a message whose own thread wrote no entry.

* TensorRT: an internal assertion on the status of a cuBLAS/cuBLASLt or cuDNN call (``<x> ==
  CUBLAS_STATUS_SUCCESS`` / ``CUDNN_STATUS_SUCCESS``), at any runner and with any status variable: the
  library's release or memory, and the tactic source to leave out (TensorRT's TacticSource).
* onnx-simplifier: an assertion in any onnx-optimizer source (a pass header or a helper such as
  tensor_util.cc), with its file, function and condition: onnxsim's ``--skip-optimization``.

Messages here are made up around the tools' own wording (no evaluation record is copied).
"""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase

CUDNN = (
    "[E] [TRT] 2: [cudnnPoolingRunner.cpp::execute::88] Error Code 2: Internal Error "
    "(Assertion poolStatus == CUDNN_STATUS_SUCCESS failed. )"
)


def _answer(kb: KnowledgeBase, text: str, entry_id: str):  # type: ignore[no-untyped-def]
    found = [m for m in kb.lookup(text, top=5) if m.entry.id == entry_id]
    assert found, [m.entry.id for m in kb.lookup(text, top=5)]
    return found[0]


def test_a_cudnn_status_assertion_names_the_status_and_its_tactic_source(kb: KnowledgeBase) -> None:
    top = kb.lookup(CUDNN, top=1)[0]
    assert top.entry.id == "tensorrt-s36t-cuda-library-status-assert"
    assert dict(top.captures) == {
        "arg": "cudnnPoolingRunner.cpp::execute",
        "value": "poolStatus",
        "value2": "CUDNN_STATUS_SUCCESS",
    }
    assert "poolStatus" in top.fix and "--tacticSources=-CUDNN" in top.fix
    assert "CUDNN_STATUS_SUCCESS belongs to" in top.fix


def test_a_cublas_status_assertion_without_a_location_still_reads_the_status(kb: KnowledgeBase) -> None:
    m = _answer(
        kb,
        "Error Code 2: Internal Error (Assertion ltStatus == CUBLAS_STATUS_SUCCESS failed.)",
        "tensorrt-s36t-cuda-library-status-assert",
    )
    assert dict(m.captures)["value"] == "ltStatus"
    assert "the location printed" in m.cause
    assert "-CUBLAS,-CUBLAS_LT" in m.fix


def test_other_tensorrt_assertions_are_not_read_as_a_library_status(kb: KnowledgeBase) -> None:
    for text in (
        "Error Code 2: Internal Error (Assertion status == kSTATUS_SUCCESS failed.)",
        "Error Code 2: Internal Error (Assertion cudaStatus == cudaSuccess failed.)",
        "Error Code 2: Internal Error (Assertion engine != nullptr failed.)",
    ):
        ours = [m for m in kb.lookup(text, top=5) if m.entry.id == "tensorrt-s36t-cuda-library-status-assert"]
        assert all("pattern" not in m.reason and not m.captures for m in ours)  # its shared code only


def test_an_optimizer_helper_assertion_is_read_with_file_function_and_condition(kb: KnowledgeBase) -> None:
    text = (
        "RuntimeError: /src/third_party/onnx-optimizer/onnxoptimizer/passes/pass_util.cc:120: "
        "FetchSoleIntValueOfTensor: Assertion `t.sizes().size() == 0` failed."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "onnxsim-s36t-optimizer-source-assertion"
    assert dict(top.captures) == {
        "path": "pass_util.cc",
        "arg": "FetchSoleIntValueOfTensor",
        "value": "t.sizes().size() == 0",
    }
    assert "--skip-optimization" in top.fix and "perform_optimization=False" in top.fix
    assert "FetchSoleIntValueOfTensor" in top.fix


def test_an_optimizer_pass_assertion_with_windows_paths_and_quotes(kb: KnowledgeBase) -> None:
    text = (
        "D:\\b\\onnx-optimizer\\onnxoptimizer\\passes\\fuse_pad_into_conv.h:91: runTransform: "
        "Assertion 'pads_initializer.sizes().size() == 1' failed."
    )
    m = _answer(kb, text, "onnxsim-s36t-optimizer-source-assertion")
    assert dict(m.captures)["path"] == "fuse_pad_into_conv.h"
    assert dict(m.captures)["value"] == "pads_initializer.sizes().size() == 1"


def test_an_assertion_outside_onnx_optimizer_is_not_read_as_one(kb: KnowledgeBase) -> None:
    text = "/src/onnx/onnx/defs/shape_inference.h:120: foo: Assertion `x == 1` failed."
    ours = [m for m in kb.lookup(text, top=5) if m.entry.id == "onnxsim-s36t-optimizer-source-assertion"]
    assert all("pattern" not in m.reason for m in ours)
