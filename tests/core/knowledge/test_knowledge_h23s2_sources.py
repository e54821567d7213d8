"""Issue 23 (branch h23s2): messages pasted without their tool's usual prefix, named by what the tool's own
source prints.  Each text is built from the vendor's format string with names and values of our own (never an
evaluation message):

* onnxruntime: providers/tensorrt/tensorrt_execution_provider.cc (``"TensorRT EP failed to create engine
  from network for fused node: "``, ``"TensorRT EP Failed to Build Engine."``, ``LOGS_DEFAULT(INFO) <<
  "[TensorRT EP] TensorRT subgraph MetaDef name "``, the fused nodes' ``"TRTKernel_" + graph_type + "_" +
  graph.Name() + "_" + id``);
  providers/nv_tensorrt_rtx (``"[NvTensorRTRTX EP] ..."``); DirectML.dll, which the DirectML EP loads;
* TensorRT's ONNX parser (onnx/onnx-tensorrt): onnx2trt_utils.cpp, ShapedWeights.cpp, importerUtils.cpp,
  onnxOpImporters.cpp, onnxOpCheckers.cpp lines, and the Myelin compiler's ``SSA validation FAIL``.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.kb import named_families

ORT = [
    # tensorrt_execution_provider.cc's sentences, its log prefix and its fused nodes' names
    "TensorRT EP Failed to Build Engine.",
    "TensorRT EP failed to create engine from network for fused node: TRTKernel_graph_torch_jit_9876_0",
    "[TensorRT EP] TensorRT subgraph MetaDef name TRTKernel_graph_main_graph_5551_2",
    "Non-zero status code returned while running TRTKernel_graph_main_graph_4242_0 node.",
    # the TensorRT-RTX EP's log prefix
    "[NvTensorRTRTX EP] Failed to build engine for fused node",
    # DirectML.dll, loaded by the DirectML EP (dml_provider_factory.cc)
    "Exception thrown at 0x00007FF800001234 (DirectML.dll) in detector.exe: 0xC0000005: Access violation "
    "reading location 0x0000000000000010.",
]


@pytest.mark.parametrize("message", ORT)
def test_onnxruntime_source_lines_name_onnxruntime(kb: KnowledgeBase, message: str) -> None:
    assert named_families(message)[:1] == ["onnxruntime"], named_families(message)
    found = kb.answer(message, top=3)
    assert found.confident, found.headline()
    assert found.matches[0].entry.family == "onnxruntime", found.matches[0].entry.id


def test_the_trt_ep_build_failure_alone_says_to_read_tensorrt_own_error(kb: KnowledgeBase) -> None:
    """The bare sentence (no "for fused node", no ExecutionProvider name) gets the provider's build advice."""
    top = kb.answer("TensorRT EP Failed to Build Engine.", top=3).matches[0]
    assert top.entry.id.endswith("+ort-trt-ep-engine-build"), top.entry.id
    for word in ("trtexec", "trt_op_types_to_exclude", "trt_max_workspace_size"):
        assert word in top.fix, word
    assert "tensorrt_execution_provider.cc" in top.source


TRT = [
    "onnx2trt_utils.cpp:374: Your ONNX model has been generated with INT64 weights, while TensorRT does not "
    "natively support INT64. Attempting to cast down to INT32.",
    "parsers/onnx/ShapedWeights.cpp:171: Weights conv_w has been transposed with permutation of (1, 0)! If "
    "you plan on overwriting the weights with the Refitter API, the new weights must be pre-transposed.",
    "importerUtils.cpp:2210: Found unsupported datatype (11) when importing initializer: scale",
    "onnxOpImporters.cpp:6128: Attribute caps_type not found in plugin node! Ensure that the plugin creator "
    "has a default value defined or the engine may fail to build.",
    "SSA validation FAIL: tensor add_7_out'.1__t's uses list size does not match the actual use in the "
    "program:2 vs. 1",
]


@pytest.mark.parametrize("message", TRT)
def test_tensorrt_parser_and_myelin_lines_name_tensorrt(kb: KnowledgeBase, message: str) -> None:
    assert named_families(message)[:1] == ["tensorrt"], named_families(message)
    ranked = kb.lookup(message, top=3)
    assert ranked[0].entry.family == "tensorrt", ranked[0].entry.id


def test_lookalikes_are_not_claimed() -> None:
    # TensorRT's own logger: "TensorRT" in it is no provider's sentence
    trt = "[TRT] [E] 4: [network.cpp::validate::3062] Error Code 4: Internal Error (TensorRT build failed)"
    assert named_families(trt)[:1] == ["tensorrt"]
    # an ONNX node whose name only looks like a file of the parser
    assert "tensorrt" not in named_families(
        "Node (ShapeTensor_3) has input size 0 not in range [min=1, max=1]."
    )


WEB = [
    # js/web/lib/wasm/jsep/backend-webgpu.ts and jsep/init.ts, and the WebNN backend's tensor check
    'Error: [WebGPU] Kernel "[GatherND] /head/GatherND_1" failed. Error: Unsupported data type: 7',
    'GPU validation error for kernel "[MatMul] /proj/MatMul": Buffer size exceeds the max',
    "Failed to generate kernel's output[0] with dims [1,16,4096,4096]. If you are running with pre-allocated "
    "output, please make sure the output type/dims are correct. Error: 1234",
    "WebNN backend does not support data type: int64",
]


@pytest.mark.parametrize("message", WEB)
def test_onnxruntime_web_provider_lines_name_onnxruntime(kb: KnowledgeBase, message: str) -> None:
    assert named_families(message)[:1] == ["onnxruntime"], named_families(message)
    found = kb.answer(message, top=3)
    assert found.confident and found.matches[0].entry.family == "onnxruntime"


def test_a_webgpu_kernel_failure_names_the_op_the_node_and_the_way_out(kb: KnowledgeBase) -> None:
    top = kb.answer(WEB[0], top=3).matches[0]
    assert top.entry.id == "onnxruntime-web-webgpu-kernel-failed"
    captures = dict(top.captures)
    assert captures["op_type"] == "GatherND"
    assert captures["op"] == "/head/GatherND_1"
    assert captures["detail"] == "Unsupported data type: 7"
    assert "GatherND" in top.cause and "/head/GatherND_1" in top.cause
    assert "executionProviders: ['wasm']" in top.fix and "ort.env.debug" in top.fix
    assert "backend-webgpu.ts" in top.source


@pytest.mark.parametrize(
    "message",
    [
        "Default DLA is enabled but layer head/conv_3 is not supported on DLA, falling back to GPU.",
        "act_4: ActivationLayer (with ActivationType = LEAKY_RELU) not supported for DLA.",
        "RuntimeError: [Error thrown at core/conversion/conversionctx/ConversionCtx.cpp:169] Building "
        "serialized network failed in TensorRT",
    ],
)
def test_tensorrt_dla_and_torch_tensorrt_lines_name_tensorrt(message: str) -> None:
    assert named_families(message)[:1] == ["tensorrt"], named_families(message)
