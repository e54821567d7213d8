"""Issue 23 (branch h23m2): onnxruntime's execution providers and onnx's shape check from their own sources.

One message per new entry, written with names and values of our own from the format strings of
onnxruntime's TensorRT and OpenVINO providers (tensorrt_execution_provider.cc, openvino/ov_interface.cc,
backends/basic_backend.cc, and the shipped providers' libraries) and of onnx's shape inference
(shape_inference/implementation.cc), never from an evaluation message.  Each must be the top answer with or
without onnxruntime's status prefix, carry the message's node, input, path or sizes into its advice and be
judged specific by the evaluation's judge; near misses must not fire it."""

from __future__ import annotations

import re

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.family import detect_families

_NODE = "TensorrtExecutionProvider_TRTKernel_graph_main_42_0_0"

CASES = [
    (
        f"TensorRT EP failed to create engine from network for fused node: {_NODE}",
        "+ort-trt-ep-engine-build",
        {"op": _NODE},
    ),
    (
        f"TensorRT EP failed to deserialize engine for fused node: {_NODE}",
        "ortep-trt-engine-deserialize-failed",
        {"op": _NODE},
    ),
    (
        f"TensorRT EP could not build execution context for fused node: {_NODE}",
        "ortep-trt-execution-context-failed",
        {"op": _NODE},
    ),
    (
        "TensorRT EP failed to call nvinfer1::IExecutionContext::setInputShape() for input 'mel'",
        "ortep-trt-set-input-shape-failed",
        {"input": "mel"},
    ),
    (
        "[TensorRT EP] The format of provider option 'trt_profile_opt_shapes' is wrong, please follow the "
        "format of 'input1:dim1xdimd2...,input2:dim1xdim2...,...'",
        "ortep-trt-profile-option-format",
        {"option": "trt_profile_opt_shapes"},
    ),
    (
        "TensorRT EP can't find engine cache: /srv/ctx/net_ctx.engine. Please make sure engine cache is in "
        "the same directory or sub-directory of context model.",
        "ortep-trt-engine-cache-not-found",
        {"path": "/srv/ctx/net_ctx.engine"},
    ),
    (
        f"TensorRT EP could not set INT8 dynamic range for fused node: {_NODE}",
        "ortep-trt-int8-calibration-table",
        {"op": _NODE},
    ),
    (
        "[OpenVINO-EP]  Exception while Loading Network for graph: OpenVINOExecutionProvider_OpenVINO-EP-"
        "subgraph_3_1Exception from src/inference/src/cpp/core.cpp:121:",
        "ortep-openvino-compile-failed",
        {
            "op": "OpenVINOExecutionProvider_OpenVINO-EP-subgraph_3_1",
            "detail": "Exception while Loading Network",
        },
    ),
    (
        "[W:onnxruntime:Default, openvino_execution_provider.cc:470 GetCapability] [OpenVINO-EP] Rejecting "
        "as graph has unsupported operations.",
        "ortep-openvino-rejecting-graph",
        {"detail": "graph has unsupported operations"},
    ),
    (
        "Model failed to compile on NPU. Enable CPU fallback or try another device.",
        "ortep-openvino-npu-compile-failed",
        {},
    ),
    (
        "Load model from m.onnx failed:Node (/dec/up3/Add) Op (Add) [ShapeInferenceError] Incompatible "
        "dimensions",
        "ortm2-node-inference-failed",
        {"op": "/dec/up3/Add", "op_type": "Add", "detail": "Incompatible dimensions"},
    ),
    (
        "[W:onnxruntime:, graph.cc:108 MergeShapeInfo] Error merging shape info for output. 'scores' "
        "source:{1,80,8400} target:{1,84,8400}. Falling back to lenient merge.",
        "ortm2-merge-shape-info-lenient",
        {"output": "scores", "shape": "{1,80,8400}", "shape2": "{1,84,8400}"},
    ),
    (
        "Did not find an arena based allocator registered for device-id  combination in the memory arena "
        "shrink list: gpu:1",
        "ortm2-arena-shrink-device",
        {"value": "gpu:1"},
    ),
    (
        "Encountered unknown exception in Initialize()",
        "ortm2-unknown-exception-in-load-init",
        {"value": "Initialize"},
    ),
    (
        "onnx.onnx_cpp2py_export.shape_inference.InferenceError: [ShapeInferenceError] Inference error(s): "
        "(op_type:Conv, node name: /enc/stem/Conv): [ShapeInferenceError] Inferred shape and existing shape "
        "differ in dimension 3: (56) vs (112)",
        "onnx-shape-differs-in-dimension",
        {"op": "/enc/stem/Conv", "op_type": "Conv", "index": "3", "value": "56", "value2": "112"},
    ),
    (
        "[ShapeInferenceError] (op_type:Mul, node name: /ffn/Mul): [ShapeInferenceError] Can't merge shape "
        "info. Both inferred and declared dimension have values but they differ. Inferred=96 Declared=64 "
        "Dimension=2",
        "onnx-cant-merge-declared-dimension",
        {"op": "/ffn/Mul", "value": "96", "value2": "64", "index": "2"},
    ),
    (
        "[ShapeInferenceError] Mismatch between number of inferred and declared dimensions. inferred=2 "
        "declared=3",
        "onnx-inferred-declared-rank-mismatch",
        {"value": "2", "value2": "3"},
    ),
    (
        "[TypeInferenceError] (op_type:Cast, node name: /c1): [TypeInferenceError] Inferred elem type "
        "differs from existing elem type: (INT32) vs (INT64)",
        "onnx-inferred-elem-type-differs",
        {"op": "/c1", "dtype": "INT32", "dtype2": "INT64"},
    ),
    (
        "RuntimeError: Inferred shape and existing shape differ in rank: (3) vs (4)",
        "onnx-inferred-shape-and-existing-shape",
        {"value": "3", "value2": "4"},
    ),
]


@pytest.mark.parametrize(
    ("message", "entry_id", "found"), CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)]
)
@pytest.mark.parametrize("prefix", ["", "[ONNXRuntimeError] : 11 : EP_FAIL : "])
def test_each_form_gets_its_entry_with_the_captures_in_the_advice(
    kb: KnowledgeBase, message: str, entry_id: str, found: dict[str, str], prefix: str
) -> None:
    if prefix and entry_id.startswith("onnx-"):
        prefix = "[ONNXRuntimeError] : 1 : FAIL : Load model from net.onnx failed:"
    top = kb.lookup(prefix + message, top=2)
    assert top[0].entry.id.endswith(entry_id) if entry_id.startswith("+") else top[0].entry.id == entry_id
    assert dict(top[0].captures).items() >= found.items()
    advice = f"{top[0].cause} {top[0].fix}"
    for name in ("op", "input", "output", "path", "option", "value", "value2", "shape", "detail", "dtype"):
        if name in found:
            assert found[name] in advice
    assert not re.search(r"\{[a-z][a-z0-9_]*(?:\|[^{}]*)?\}", advice)  # every placeholder filled
    assert specific(top[0]) == (True, "")


def test_the_dimension_and_both_sizes_are_said_not_the_word_dimension(kb: KnowledgeBase) -> None:
    """onnx's format is 'differ in dimension %d: (%d) vs (%d)', inferred first: the index and both sizes are
    captured in that order (the capture used to hold the word "dimension")."""
    m = kb.lookup("Inferred shape and existing shape differ in dimension 1: (64) vs (32)", top=1)[0]
    assert dict(m.captures) == {"index": "1", "value": "64", "value2": "32"}
    assert "size 64 in dimension 1 where the model already records size 32" in m.cause


def test_the_provider_speaks_when_its_sentence_quotes_tensorrt_api(kb: KnowledgeBase) -> None:
    """'TensorRT EP failed to call nvinfer1::...' is onnxruntime's sentence: onnxruntime is named first, while
    TensorRT's own setInputShape error stays TensorRT's."""
    shape = next(c[0] for c in CASES if c[1] == "ortep-trt-set-input-shape-failed")
    assert detect_families(shape)[0] == "onnxruntime"
    trt = "[E] [TRT] 3: [executionContext.cpp::setInputShape::2068] Error Code 3: API Usage Error"
    assert detect_families(trt) == ["tensorrt"]
    assert kb.lookup(trt, top=1)[0].entry.family == "tensorrt"


@pytest.mark.parametrize(
    ("text", "entry_id"),
    [
        (
            "TensorRT EP could not deserialize engine from cache: /a/b.engine",
            "ortep-trt-engine-deserialize-failed",
        ),
        ("[OpenVINO-EP] Model is fully supported by OpenVINO", "ortep-openvino-rejecting-graph"),
        ("[OpenVINO-EP] Exception while creating the model", "ortep-openvino-compile-failed"),
        (
            "Inferred elem type differs from existing elem type: (FLOAT) vs (INT64)",
            "onnx-shape-differs-in-dimension",
        ),
    ],
)
def test_near_misses_do_not_fire(kb: KnowledgeBase, text: str, entry_id: str) -> None:
    assert all(m.entry.id != entry_id or "pattern" not in m.reason.split("+") for m in kb.lookup(text, top=3))
