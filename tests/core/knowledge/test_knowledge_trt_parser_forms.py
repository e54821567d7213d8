"""Issue 23, TensorRT's ONNX parser (branch h23n2): its messages written from onnx-tensorrt's own format
strings (Status.hpp's ``ASSERT``/``ASSERT_NODE``, ModelImporter.cpp's ``While parsing node number`` and
``ERROR: file:line In function f:`` lines, TensorRT's pyOnnx.cpp ``In node N with name: X and operator: Y
(func): CODE: desc``) with names and values of our own (never an evaluation message).

An assertion under a file or graph ErrorCode (``MODEL_DESERIALIZE_FAILED``, ``INVALID_GRAPH``...) is no
requirement of a node: the importer's clauses stay silent there, and the failed deserialisation has its own
answer; a node's assertion names the node's number, name and importer."""

from __future__ import annotations

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase

DESERIALIZE = [
    # pyOnnx.cpp: a MODEL_DESERIALIZE_FAILED error is printed without its node part
    "(deserializeOnnxModel): MODEL_DESERIALIZE_FAILED: Assertion failed: "
    '(model->ParseFromCodedStream(&codedInput)) && "Failed to parse the ONNX model."',
    # the older short form, node -1
    "In node -1 (deserializeOnnxModel): MODEL_DESERIALIZE_FAILED: Assertion failed: "
    '(model->ParseFromCodedStream(&codedInput)) && "Failed to parse the ONNX model."',
    # ModelImporter's logged form, ErrorCode 3
    "[E] [TRT] ModelImporter.cpp:254: ERROR: onnxProtoUtils.hpp:69 In function deserializeOnnxModel:\n"
    '[3] Assertion failed: (model->ParseFromCodedStream(&codedInput)) && "Failed to parse the ONNX model."',
    # ModelRefitter.cpp
    'In node -1 (refitFromFile): MODEL_DESERIALIZE_FAILED: Assertion failed: fileLoadSuccess && "Failed to '
    'parse the ONNX model!"',
]


@pytest.mark.parametrize("message", DESERIALIZE)
def test_a_failed_deserialisation_is_answered_as_the_file_not_as_a_node(
    kb: KnowledgeBase, message: str
) -> None:
    top = kb.lookup(message)[0]
    assert top.entry.family == "tensorrt"
    assert top.entry.id.endswith("+onnx-trt-model-deserialize"), top.entry.id
    assert "node" not in top.cause.split(":")[0]  # it is about the file, before any node
    for word in ("truncated", "2 GB", "check_model", "save_as_external_data", "'rb'"):
        assert word in top.cause + top.fix, word
    assert "onnxProtoUtils.hpp" in top.source
    assert specific(top)[0], specific(top)[1]


GRAPH_LEVEL = [
    # kINVALID_GRAPH and kUNSUPPORTED_GRAPH asserts of ModelImporter.cpp: no node's requirement
    "ERROR: ModelImporter.cpp:327 In function parseGraph:\n"
    '[5] Assertion failed: toposort(graph.node(), &topoOrder) && "Failed to sort the model topologically."',
    "In node -1 (importModel): UNSUPPORTED_GRAPH: Assertion failed: "
    'model.opset_import().size() <= MAX_DOMAINS && "Model contains more than 1024 domains! Parsing will '
    'halt for security reasons."',
    'In node -1 (parseGraph): INVALID_GRAPH: Assertion failed: false && "Failed to import initialzer"',
]


@pytest.mark.parametrize("message", GRAPH_LEVEL)
def test_a_graph_errorcode_keeps_the_node_requirement_clauses_silent(kb: KnowledgeBase, message: str) -> None:
    for m in kb.lookup(message):
        assert "onnx-trt-stated-requirement" not in m.entry.id, m.entry.id
        assert "states what it requires" not in m.cause


NODE_FORMS = [
    (
        # TensorRT's pyOnnx.cpp parserErrorStr: node number, name and operator
        "In node 31 with name: /head/Resize_2 and operator: Resize (importResize): UNSUPPORTED_NODE: "
        'Assertion failed: mode != "cubic" && "This version of TensorRT does not support cubic '
        'interpolation!"',
        {"index": "31", "op": "/head/Resize_2", "op_type": "Resize"},
    ),
    (
        # the older short form
        'In node 7 (importGridSample): UNSUPPORTED_NODE: Assertion failed: alignCorners == 0 && "Only '
        'align_corners=0 is supported."',
        {"index": "7", "op_type": "GridSample"},
    ),
    (
        # ModelImporter's three lines: the node's number is on the first
        "[E] [TRT] ModelImporter.cpp:949: While parsing node number 57 "
        '[Squeeze -> "/blk/Squeeze_output_0"]:\n'
        "[E] [TRT] ModelImporter.cpp:954: ERROR: onnxOpImporters.cpp:4121 In function importSqueeze:\n"
        '[8] Assertion failed: !isDynamic(shape) && "Cannot infer squeeze dimensions from a dynamic shape! '
        'Please re-export your model with the Squeeze axes input set."',
        {"index": "57", "op_type": "Squeeze"},
    ),
]


@pytest.mark.parametrize(("message", "parts"), NODE_FORMS)
def test_a_node_assertion_names_the_node_number_name_and_importer(
    kb: KnowledgeBase, message: str, parts: dict[str, str]
) -> None:
    top = kb.lookup(message)[0]
    assert top.entry.family == "tensorrt"
    assert "+onnx-trt-" in top.entry.id, top.entry.id
    captures = dict(top.captures)
    for name, value in parts.items():
        assert captures.get(name) == value, (name, captures)
    assert f"node number {parts['index']}" in top.cause
    assert parts["op_type"] in top.cause + top.fix
    if "op" in parts:
        assert parts["op"] in top.fix
    assert specific(top)[0], specific(top)[1]


def test_an_assertion_without_a_node_number_says_so_in_words(kb: KnowledgeBase) -> None:
    message = (
        "ERROR: onnxOpImporters.cpp:2210 In function importGridSample:\n"
        '[8] Assertion failed: alignCorners == 0 && "Only align_corners=0 is supported."'
    )
    top = kb.lookup(message)[0]
    assert top.entry.id.endswith("+onnx-trt-stated-requirement"), top.entry.id
    assert "(node number not shown)" in top.cause
    assert "{" not in top.cause + top.fix


PLUGIN_FORMS = [
    (
        "In node 5 with name: /det/NMS and operator: MyNMS_TRT (importFallbackPluginImporter): "
        'UNSUPPORTED_NODE: Assertion failed: creator && "Plugin not found, are the plugin name, version, and '
        'namespace correct?"',
        {"op_type": "MyNMS_TRT"},
    ),
    (
        "[E] [TRT] INVALID_ARGUMENT: getPluginCreator could not find plugin MyScatter version 2",
        {"arg": "MyScatter"},
    ),
    ("getPluginCreator() could not find Plugin MyScatter version 1", {"arg": "MyScatter"}),
]


@pytest.mark.parametrize(("message", "parts"), PLUGIN_FORMS)
def test_a_plugin_not_found_names_the_op_and_how_the_parser_looks_it_up(
    kb: KnowledgeBase, message: str, parts: dict[str, str]
) -> None:
    top = kb.lookup(message)[0]
    assert top.entry.id == "tensorrt-getplugincreator-could-not-find-plugin", top.entry.id
    assert dict(top.captures).items() >= parts.items(), top.captures
    assert next(iter(parts.values())) in top.cause + top.fix
    for word in ("plugin_version", "plugin_namespace", "--staticPlugins", "init_libnvinfer_plugins"):
        assert word in top.cause + top.fix, word
    assert specific(top)[0], specific(top)[1]


def test_the_while_parsing_line_leaves_the_answer_to_the_error_it_introduces(kb: KnowledgeBase) -> None:
    """``While parsing node number N [Op]`` only introduces the parser's error: the error's own answer
    comes first, the node's number still said."""
    message = (
        '[E] [TRT] ModelImporter.cpp:949: While parsing node number 3 [MyOp -> "/m/MyOp_output_0"]:\n'
        "[E] [TRT] ModelImporter.cpp:954: ERROR: onnxOpImporters.cpp:6448 In function "
        "importFallbackPluginImporter:\n"
        '[8] Assertion failed: creator && "Plugin not found, are the plugin name, version, and namespace '
        'correct?"'
    )
    ids = [m.entry.id for m in kb.lookup(message)]
    assert ids[0] == "tensorrt-getplugincreator-could-not-find-plugin", ids
    bare = '[E] [TRT] ModelImporter.cpp:949: While parsing node number 3 [MyOp -> "/m/MyOp_output_0"]:'
    assert kb.lookup(bare)[0].entry.id == "tensorrt-while-parsing-node-number-conv"


@pytest.mark.parametrize(
    ("message", "asked", "available"),
    [
        (
            "[W] [TRT] Tactic Device request: 4364MB Available: 3072MB. Device memory is insufficient to use "
            "tactic.",
            "4364MB",
            "3072",
        ),
        (
            "Skipping tactic 0x0000000000000003 due to insufficient memory on requested size of 911 detected "
            "for tactic 0x0000000000000004.",
            "911",
            "",
        ),
    ],
)
def test_a_skipped_tactic_says_how_much_it_asked_for_and_that_it_is_a_warning(
    kb: KnowledgeBase, message: str, asked: str, available: str
) -> None:
    top = kb.lookup(message)[0]
    assert top.entry.id == "tensorrt-h23n2-tactic-device-memory"
    assert f"asks for {asked} of device memory" in top.cause
    assert (f"in MB: {available})" if available else "not printed on this line") in top.cause
    assert "warning" in top.cause and "--memPoolSize=workspace:N" in top.fix


def test_the_build_error_outranks_the_skipped_tactic_warnings_before_it(kb: KnowledgeBase) -> None:
    message = (
        "[W] [TRT] Tactic Device request: 4364MB Available: 3072MB. Device memory is insufficient to use "
        "tactic.\n"
        "[E] [TRT] 10: [optimizer.cpp::computeCosts::3728] Error Code 10: Internal Error (Could not find any "
        "implementation for node /neck/Concat_3.)"
    )
    top = kb.lookup(message)[0]
    assert top.entry.id == "tensorrt-no-implementation-for-node"
    assert dict(top.captures)["op"] == "/neck/Concat_3"


def test_tensorrt_8s_enqueue_parameter_check_is_read_like_the_api_checks(kb: KnowledgeBase) -> None:
    message = (
        "[executionContext.cpp::enqueueInternal::795] Error Code 3: Internal Error (Parameter check failed, "
        "condition: bindings[x] || nullBindingOK)"
    )
    top = kb.lookup(message)[0]
    # the check's own clause (h23b3) reads this condition: a null pointer in the bindings array
    assert top.entry.id.endswith("+trt-api-null-binding"), top.entry.id
    assert "(bindings[x] || nullBindingOK)" in top.cause
    assert "engine.get_tensor_name(i)" in top.fix
    near_miss = (
        "[executionContext.cpp::enqueueInternal::795] Error Code 3: Internal Error (Parameter check failed)"
    )
    assert not kb.lookup(near_miss)[0].entry.id.endswith("+trt-parameter-check")


@pytest.mark.parametrize(
    "message",
    [
        "IRuntime::deserializeCudaEngine returned a null engine",
        "ICudaEngine::createExecutionContext: failed",
        "IBuilderConfig::setMemoryPoolLimit: the pool size exceeds the device memory",
        "[genericReformat.cuh::executeMemcpy::1334] Cuda Runtime (invalid argument) "
        "and IExecutionContext::enqueueV3 returned false",
    ],
)
def test_tensorrt_s_api_names_tell_its_family_without_a_prefix(message: str) -> None:
    from dumpscope.core.knowledge.family import detect_families

    assert detect_families(message)[:1] == ["tensorrt"]


def test_an_api_name_alone_is_no_strong_evidence() -> None:
    from dumpscope.core.knowledge.family import detect_families

    assert detect_families("config.setMaxWorkspaceSize(1 << 30) fails") == []


def test_a_parameter_check_in_a_namespaced_function_names_that_function(kb: KnowledgeBase) -> None:
    message = (
        "[E] [TRT] Parameter check failed at: engine.cpp::nvinfer1::rt::ExecutionContext::"
        "setBindingDimensions"
        "::1136, condition: bindingIndex >= 0 && bindingIndex < mEngine.getNbBindings"
    )
    # (a condition no dedicated clause reads: the profile conditions have their own clause, which
    # test_knowledge_tensorrt.py and test_knowledge_onnxruntime.py check)
    top = kb.lookup(message)[0]
    assert top.entry.family == "tensorrt"
    captures = dict(top.captures)
    assert captures.get("call") == "setBindingDimensions", top.captures
    assert captures.get("value") == "bindingIndex >= 0 && bindingIndex < mEngine.getNbBindings"


def test_the_assert_node_form_states_its_requirement_with_the_node(kb: KnowledgeBase) -> None:
    """onnx-tensorrt's ASSERT_NODE prints ``Assertion failed: <condition>: <message>``."""
    message = (
        "In node 9 with name: /m/Cast_2 and operator: Cast (importCast): UNSUPPORTED_NODE: Assertion failed: "
        "false: Unsupported cast!"
    )
    top = kb.lookup(message)[0]
    assert top.entry.id.endswith("+onnx-trt-stated-requirement-node"), top.entry.id
    assert dict(top.captures)["value"] == "Unsupported cast!"
    assert "node number 9" in top.cause and "/m/Cast_2" in top.fix
    graph = "In node -1 (parseGraph): INVALID_GRAPH: Assertion failed: false: Failed to import initializer"
    assert not any("onnx-trt-stated" in m.entry.id for m in kb.lookup(graph))


@pytest.mark.parametrize(
    "message",
    [
        "ERROR: [Torch-TensorRT] - Unsupported operator: aten::foo(Tensor self) -> (Tensor)",
        "ERROR: [Torch-TensorRT TorchScript Conversion Context] - 4: [network.cpp::validate::2997] Error 4",
        'File "/usr/lib/python3/site-packages/torch_tensorrt/dynamo/_compiler.py", line 10, in compile',
    ],
)
def test_torch_tensorrt_speaks_for_tensorrt(kb: KnowledgeBase, message: str) -> None:
    """Torch-TensorRT's logger prefixes (TorchTRTLogger: '[Torch-TensorRT] - ', '[Torch-TensorRT <context>]
    - ') and its package name are TensorRT's markers: NVIDIA's compiler builds TensorRT engines."""
    from dumpscope.core.knowledge.family import detect_families

    assert detect_families(message)[:1] == ["tensorrt"]


def test_an_unsupported_aten_op_under_torch_tensorrt_is_answered_with_the_op(kb: KnowledgeBase) -> None:
    found = kb.answer("ERROR: [Torch-TensorRT] - Unsupported operator: aten::foo(Tensor self) -> (Tensor)")
    assert found.confident and found.matches[0].entry.family == "tensorrt"
    assert "aten::foo" in found.matches[0].cause
