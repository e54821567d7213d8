"""Issue 12: the family cue of the nine newly claimed tools, widened from their own sources.

Every message here was written for this test from a format string in the tool's source tree (the
file is named beside each group), not copied from the evaluation set.  Each widened family has
messages that carry none of the few literals it was detected by before (the tool's name, one
headline message), and cases where a big family's common words appear too.

Also from s28b_rknn_qualcomm (test_knowledge_rknn.py) and s28c_tflite_coreml_sources and s29c_sources
(test_knowledge_tflite.py): their notes stand in the docstrings named.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import KnowledgeBase, load_kb
from dumpscope.core.knowledge.codes import extract_codes
from dumpscope.core.knowledge.family import (
    MARKERS,
    MEDIUM,
    STRONG,
    WEAK,
    _log_forms,
    detect_families,
    family_evidence,
)
from dumpscope.core.knowledge.kb import credible_codes, named_families
from dumpscope.core.knowledge.markers import LOG_FORMS, UNCOVERED, WHOLE_WORDS
from tests.support.paths import REPO as REPO_DIR

NEW_FAMILIES = ("openvino", "tflite", "qualcomm", "mnn", "ncnn", "paddle2onnx", "torch_onnx", "tvm", "coreml")


SOURCE_FORMATS: list[tuple[str, str]] = [
    # OpenVINO: src/core/src/except.cpp, src/core/src/node.cpp, ie_common.h status names, tools/mo logger,
    # src/frontends/*/unconverted ops report, src/plugins/intel_cpu/src/node.cpp
    (
        "openvino",
        "[ GENERAL_ERROR ] Check 'false' failed at "
        "src\\plugins\\intel_gpu\\src\\plugin\\program_builder.cpp:176:\n[GPU] Operation: Foo_3 of type "
        "FooOp(opset1) is not supported",
    ),
    (
        "openvino",
        "Exception from src\\inference\\src\\cpp\\core.cpp:121:\nShape inference of Reshape node with name "
        "r1 failed",
    ),
    (
        "openvino",
        '[ ERROR ]  Cannot infer shapes or values for node "Resize_5".\n[ ERROR ]  It can happen due to bug '
        "in custom shape infer function",
    ),
    (
        "openvino",
        "While validating node 'v1::Reshape r (x[0]:f32[1,8], c[0]:i64[4]) -> (f32[?,?,?,?])' with "
        "friendly_name 'r':\nRequested output shape [1,2,3,4] is incompatible",
    ),
    ("openvino", "RuntimeError: Check 'my_rank == 4' failed at core/src/op/my_op.cpp:12"),
    ("openvino", "[ NOT_IMPLEMENTED ] Cannot create Interpolate layer: unsupported mode"),
    (
        "openvino",
        "Model wasn't fully converted.\nSummary:\n-- No conversion rule found for operations: aten::foo_bar",
    ),
    ("openvino", "Supported primitive descriptors list is empty for node: conv_17 type: Convolution"),
    # TFLite: core/subgraph.cc, core/interpreter_builder.cc, kernels/kernel_util.h, python interpreter
    # wrapper,
    # delegates/gpu, compiler/mlir/lite
    (
        "tflite",
        "tensorflow/lite/kernels/reshape.cc:85 num_input_elements != num_output_elements (1200 != "
        "4800)\nNode number 3 (RESHAPE) failed to prepare.",
    ),
    ("tflite", "Didn't find op for builtin opcode 'FOO_BAR' version '9'\nRegistration failed."),
    ("tflite", "ValueError: Cannot set tensor: Dimension mismatch. Got 3 but expected 4 for input 0."),
    ("tflite", "Encountered unresolved custom op: FooBarOp.\nNode number 5 (FooBarOp) failed to invoke."),
    (
        "tflite",
        "error: 'tf.FooOp' op is neither a custom op nor a flex op\nerror: failed while converting: 'main'",
    ),
    (
        "tflite",
        "Following operations are not supported by GPU delegate:\nSTRIDED_SLICE: Slice does not support "
        "shrink mask.",
    ),
    # MNN: source/geometry/GeometryComputerUtils.cpp, source/core/Schedule.cpp,
    # source/shape/ShapeConvolution.cpp,
    # source/core/Interpreter.cpp, source/core/Pipeline.cpp, tools/converter/source/common/cli.cpp
    ("mnn", "Compute Shape Error for /model/Reshape_1\ncode=3"),
    ("mnn", "Can't Find type=3 backend, use 0 instead"),
    ("mnn", "Error for compute convolution shape, inputCount:3, outputCount:16, KH:3, KW:3, group:1"),
    ("mnn", "Can't run session because not resized"),
    ("mnn", "Resize error for type = Convolution, name = conv1"),
    ("mnn", "[ERROR] Convert error, please check your file format.\nConverted Failed!"),
    (
        "mnn",
        "[12:00:00] /src/x/tools/converter/source/tflite/FooTflite.cpp:40: Check failed: creator ==> "
        "NOT_SUPPORTED_OP: [ FOO ]",
    ),
    # ncnn: src/net.cpp, tools/onnx/onnx2ncnn.cpp, tools/pnnx/src/main.cpp
    ("ncnn", 'find_blob_index_by_name data failed\nTry\nex.input("in0", in0);'),
    ("ncnn", "param is too old, please regenerate"),
    ("ncnn", "load_model error at layer 3, parameter file has inconsistent content."),
    ("ncnn", "network graph not ready"),
    ("ncnn", "Shape not supported yet!\nUnsupported unsqueeze axes !"),
    ("ncnn", "############# pass_level2\nignore aten::foo_bar\n############# pass_ncnn"),
    # Paddle2ONNX: paddle2onnx/converter.cc, paddle2onnx/mapper/mapper.h, paddle2onnx/command.py
    ("paddle2onnx", "Paddle model parsing failed."),
    (
        "paddle2onnx",
        "[ERROR][Paddle2ONNX] [pool2d: pool2d_0.tmp_0] Adaptive only support static input shape.",
    ),
    (
        "paddle2onnx",
        "While ShapeTensorList as input, requires opset_version>=9 for op fill_constant.\nDue to the "
        "unsupported operators, the conversion is aborted.",
    ),
    # torch.onnx: torch/onnx/utils.py, errors.py, symbolic_helper.py, _internal/exporter
    ("torch_onnx", "RuntimeError: ONNX export failed: Couldn't export operator aten::foo_bar"),
    (
        "torch_onnx",
        "torch.onnx.OnnxExporterError: Failed to export the model with torch.export. This is step 1/3 of "
        "exporting the model to ONNX.",
    ),
    (
        "torch_onnx",
        "UserWarning: Exporting aten::index operator of advanced indexing in opset 14 is achieved by "
        "combination of multiple ONNX operators, including Reshape, Transpose, Concat, and Gather.",
    ),
    # TVM: python/tvm/autotvm/task/dispatcher.py, src/tir/analysis/verify_memory.cc,
    # python/tvm/error.py, logging.h
    (
        "tvm",
        "Cannot find config for target=cuda -keys=cuda,gpu -arch=sm_86, workload=('conv2d_nchw.cuda', 1). A "
        "fallback configuration is used",
    ),
    ("tvm", "Did you forget to bind?\nVariable `T_relu` is directly accessed by host memory"),
    ("tvm", "OpAttributeUnImplemented: Attribute foo_mode is not supported in operator Resize."),
    ("tvm", "InternalError: Check failed: (ret == 0) is false: assert fail"),
    # Core ML: converters/mil/frontend/torch/converter.py, ops.py, mil/passes; Core ML runtime texts
    ("coreml", "ValueError: Torch var my_input.7 not found in context"),
    ("coreml", "NotImplementedError: Unsupported fx node _foo_bar, kind _foo_bar"),
    ("coreml", "RuntimeError: Error computing NN outputs."),
    (
        "coreml",
        "E5RT encountered an STL exception. msg = MILCompilerForANE error: failed to compile ANE model.",
    ),
    # Qualcomm: QNN HTP / FastRPC texts as quoted in Qualcomm's docs
    ("qualcomm", "E/QnnDsp: Failed to load skel, error: 4000\nE/QnnDsp: Transport layer setup failed: 14001"),
    (
        "qualcomm",
        "Failed to find available PD for contextId 3 on deviceId 0 coreId 0 with context size estimate "
        "123456789",
    ),
    ("qualcomm", "remote_handle64_open failed for libFooSkel.so, error 0x80000406"),
]


@pytest.mark.parametrize(("family", "text"), SOURCE_FORMATS)
def test_source_format_names_its_tool_and_its_entry_answers(
    kb: KnowledgeBase, family: str, text: str
) -> None:
    assert detect_families(text)[0] == family
    matches = kb.lookup(text, top=3)
    assert matches[0].entry.family == family


ROUND8_SOURCE_FORMATS: list[tuple[str, str]] = [
    # onnxruntime-web: js/web/lib/wasm/wasm-core-impl.ts and wasm-utils.ts (checkLastError's format)
    ("onnxruntime", "Error: failed to call OrtCreateSession(). error code = 7."),
    (
        "onnxruntime",
        "Uncaught Error: Can't access output tensor data on index 0. ERROR_CODE: 1, ERROR_MESSAGE: x",
    ),
    ("onnxruntime", "Error: Can't create a session. ERROR_CODE: 7, ERROR_MESSAGE: Failed to load model"),
    ("onnxruntime", "    at OnnxruntimeWebAssemblySessionHandler.run (session-handler-inference.ts:9:1)"),
    # Java's OrtException, Objective-C's NSError domain, the C API's OrtErrorCode names
    (
        "onnxruntime",
        "ai.onnxruntime.OrtException: Error code - ORT_NO_SUCHFILE - message: Load model from a failed",
    ),
    ("onnxruntime", "Error Domain=onnxruntime Code=2 \"input 'x' not found\""),
    ("onnxruntime", "session creation returned ORT_INVALID_GRAPH"),
    # onnxruntime-common's JS checks, the CUDA EP's call check
    ("onnxruntime", "Error: Tensor's size(12) does not match data length(8)."),
    ("onnxruntime", "Error: no available backend found. ERR: [wasm] TypeError: x is not a function"),
    ("onnxruntime", "Error: input 'input_ids' is missing in 'feeds'."),
    (
        "onnxruntime",
        "CUDNN failure 4: CUDNN_STATUS_INTERNAL_ERROR ; GPU=0 ; hostname=h ; file=f.cc ; line=1 ; expr=e; ",
    ),
    # onnx.load of a file that is not a model
    ("onnx", "google.protobuf.message.DecodeError: Error parsing message with type 'onnx.ModelProto'"),
    # the float16 converter: onnxconverter_common/float16.py, auto_mixed_precision.py
    ("float16", "UserWarning: the float32 number 1e+20 will be truncated to 10000.0"),
    (
        "float16",
        "ValueError: The model is already converted to float16, if convert again, the model might be wrong.",
    ),
    ("float16", "ValueError: validation failed for final fp16 model"),
    # TensorRT's tools: trtexec.cpp, sampleEngines.cpp, Polygraphy's TensorRT loader and runner
    ("tensorrt", "[03/01/2024-10:00:00] [E] Engine set up failed"),
    ("tensorrt", "[E] Failed to create engine from model or file."),
    ("tensorrt", "[!] Invalid Engine. Please ensure the engine was built correctly"),
    ("tensorrt", "polygraphy.exception.exception.PolygraphyException: Could not deserialize engine."),
    ("tensorrt", "getPluginCreator could not find plugin: Foo version: 1"),
    # onnx: onnx/defs/shape_inference.h (fail_type_inference), onnx/version_converter/BaseConverter.h,
    # onnx/checker.cc
    ("onnx", "[TypeInferenceError] Invalid attribute perm {1, 0, 2}, input shape = {3, 4}"),
    (
        "onnx",
        "BaseConverter.h:66: adapter_lookup: Assertion `false` failed: No Adapter To Version $9 for Upsample",
    ),
    ("onnx", "RuntimeError: No Adapter For Resize"),
    ("onnx", "Unrecognized attribute: foo for operator Relu\n\n==> Context: Bad node spec for node. Name: r"),
    (
        "onnx",
        "Graph must be in single static assignment (SSA) form, however 'x' has been used as output names",
    ),
]


@pytest.mark.parametrize(("family", "text"), ROUND8_SOURCE_FORMATS)
def test_round8_source_formats_name_their_tool(kb: KnowledgeBase, family: str, text: str) -> None:
    """Issue 23, round 8: the wording of onnxruntime's bindings, of onnx's type inference, version converter
    and checker and of TensorRT's tools, written from their format strings, names the tool alone."""
    assert detect_families(text)[0] == family
    assert kb.lookup(text, top=3)[0].entry.family == family


#: Issue 23, round 9: lines written from the vendors' own formats (synthetic: names and values invented).
ROUND9_SOURCE_FORMATS = [
    # onnxruntime's libraries and EP libraries, its EP source files, its log head without the bracket
    ("onnxruntime", "Exception thrown at 0x00007FF8 (onnxruntime.dll): invalid argument"),
    (
        "onnxruntime",
        "OSError: libonnxruntime.so.1: cannot open shared object file: No such file or directory",
    ),
    ("onnxruntime", "failed to load onnxruntime_providers_cuda.dll, error 126"),
    ("onnxruntime", "W:onnxruntime:Default, cuda_execution_provider.cc:120 Foo] something odd"),
    # the DirectML EP (dml/dml_provider_factory.cc, DmlExecutionProvider/src/*.cpp) and the cuDNN frontend
    ("onnxruntime", "C:\\w\\dml_provider_factory.cc(520)\\x.dll!0000: Exception(1) tid(1) 887A0004"),
    ("onnxruntime", "src\\MLOperatorAuthorImpl.cpp(1736): Exception(1) 80070057 The parameter is incorrect."),
    ("onnxruntime", "CUDNN_FE failure 11: CUDNN_BACKEND_API_FAILED ; GPU=0"),
    # Genie, the QAIRT SDK's LLM runtime (GenieDialog.h, GenieCommon.h)
    ("qualcomm", "GenieDialog_create returned: -1"),
    ("qualcomm", "status GENIE_STATUS_ERROR_GENERAL"),
    # AscendCL's recent-error text and torch_npu's check macros (acl_base.h, NPUException.h)
    ("ascend", "[ERROR] RecentErrMsg: [PID: 1] 2026-01-01-00:00:00.000.000 Failed to allocate memory."),
    ("ascend", "[W NPUStream.cpp:9] Warning: NPU warning, error code is 107020[Error]: ."),
    ("ascend", "RuntimeError: NPU error, error code is 507035"),
    # rknn-toolkit's API wrapper and its load_onnx opset check (rknn/api/rknn_base.py)
    ("rknn", "E Catch exception when building RKNN model!"),
    ("rknn", "Unsupport onnx opset 17, need <= 12!"),
    # onnx-tensorrt's error names and importer asserts; TensorRT's header location and builder sentences
    ("tensorrt", "In node 3 (importInputs): UNSUPPORTED_NODE: Assertion failed: x"),
    ("tensorrt", "[8] Assertion failed: convertOnnxWeights(initializer, &weights, ctx)"),
    ("tensorrt", "[5] Assertion failed: tensors.count(input_name)"),
    ("tensorrt", "Network has dynamic or shape inputs, but no optimization profile has been defined."),
    ("tensorrt", "[E] 2: [cgraph.h::assertIsValidSubscript::161] Error Code 2: Internal Error (x)"),
    # onnxruntime's session catch-alls (inference_session.cc)
    ("onnxruntime", "Encountered unknown exception in Run()"),
    ("onnxruntime", "RuntimeError: Exception during initialization: bad alloc"),
    # the HTP backend's log lines and Genie's ChatApp sample
    ("qualcomm", "[trace] graph_prepare.cc:204:ERROR:could not create op: q::flat_from_vtcm"),
    ("qualcomm", "<E> Failed to finalize graph (id: 1) with err 1002"),
    ("qualcomm", "Finalize Graph for Idx = 0 failed with error = 1002"),
    ("qualcomm", "initial_sequencer_dp.cc:149:ERROR:A single op requires 0x2400000 bytes of TCM"),
    ("qualcomm", "Exception in GenieWrapper constructor: Failed to create the Genie Dialog."),
    # OpenVINO's GPU plugin and InferenceEngine's Precision
    ("openvino", "[GPU] ProgramBuilder build failed!"),
    ("openvino", "GPU program build failed!"),
    ("openvino", "RuntimeError: cannot estimate element if precision is UNSPECIFIED"),
    # TFLite's interpreter builder and benchmark tool, the legacy Paddle2ONNX mapper, torch.onnx, TVM, Core ML
    ("tflite", "ERROR: Registration failed.\nFailed to initialize the interpreter"),
    ("paddle2onnx", "Exception: Error happened when mapping node ['x_0'] to onnx, which op_type is 'x'"),
    ("torch_onnx", "RuntimeError: Failed to export an ONNX attribute, since it's not constant"),
    ("tvm", "Check failed: a == b (1 vs. 2) : Input tensor shape and reshaped shape are not compatible"),
    ("coreml", "RuntimeWarning: You will not be able to run predict() on this Core ML model."),
    # the onnx package's Python modules in a traceback frame, installed, in an egg, on Windows
    ("onnx", '  File "/usr/lib/python3/site-packages/onnx/checker.py", line 32, in checker'),
    ("onnx", '  File "/e/onnx-1.7.0-py3.6.egg/onnx/shape_inference.py", line 35, in infer_shapes'),
    ("onnx", '  File "C:\\Python\\Lib\\site-packages\\onnx\\helper.py", line 9, in make_node'),
]


def test_coremltools_missing_ops_listing_names_core_ml(kb: KnowledgeBase) -> None:
    """coremltools' PyTorch frontend prints the ops it cannot translate under its own heading
    (converters/mil/frontend/torch/load.py): with the exception line after it, Core ML is the tool."""
    text = (
        "the following model ops are IMPLEMENTED:\n  add\n  conv2d\n"
        "the following model ops are MISSING:\n  grid_sampler_3d"
    )
    assert detect_families(text)[0] == "coreml"
    assert kb.lookup(text, top=3)[0].entry.family == "coreml"


def test_the_htp_op_namespace_counts_only_as_a_whole_word() -> None:
    assert "qualcomm" not in family_evidence("std::seq::iterator failed")
    assert family_evidence("op q::ForceFormat failed")["qualcomm"] == 2


@pytest.mark.parametrize(("family", "text"), ROUND9_SOURCE_FORMATS)
def test_round9_source_formats_name_their_tool(kb: KnowledgeBase, family: str, text: str) -> None:
    """Issue 23, round 9: onnxruntime's EP libraries and sources and Genie's API name their tool alone."""
    assert detect_families(text)[0] == family
    assert kb.lookup(text, top=3)[0].entry.family == family


@pytest.mark.parametrize(
    "text",
    [
        "ValueError: ['OpenVINOExecutionProvider'] does not contain a subset of available providers",
        "[W:onnxruntime:Default, openvino_execution_provider.cc:1 GetCapability] [OpenVINO-EP] rejected",
        "Failed to load library libonnxruntime_providers_openvino.so with error: undefined symbol",
        "providers=['CoreMLExecutionProvider'] failed",
        "QNNExecutionProvider: session failed",
    ],
)
def test_an_execution_provider_name_is_onnxruntime_not_its_backend(text: str) -> None:
    """onnxruntime's names for its EPs (``<Backend>ExecutionProvider``, ``<backend>_execution_provider.cc``,
    ``[OpenVINO-EP]``, ``onnxruntime_providers_<backend>``) are onnxruntime's: the backend they name is not
    speaking, so they do not count as that backend's markers."""
    families = detect_families(text)
    assert families[0] == "onnxruntime"
    assert not {"openvino", "coreml", "qualcomm"} & set(family_evidence(text))


def test_the_backend_own_wording_still_counts_next_to_its_ep_name() -> None:
    """An OpenVINO check forwarded by the OpenVINO EP still names OpenVINO (the nested-layer label)."""
    text = "[OpenVINO-EP] Exception: Check 'x' failed at src/core/src/node.cpp:1: bad rank"
    assert family_evidence(text)["openvino"] >= 3
    assert "onnxruntime" in detect_families(text)


def test_doubled_backslashes_of_an_escaped_path_are_read_as_written() -> None:
    """A Go/Rust/JSON debug print doubles a Windows path's backslashes: the source marker still counts."""
    text = "D:\\\\a\\\\_work\\\\onnxruntime\\\\core\\\\session\\\\x.cc(1): failed"
    assert "\\\\" in text
    assert detect_families(text)[0] == "onnxruntime"


@pytest.mark.parametrize(
    "text",
    [
        # QNN SDK SampleApp src/Log/LogUtils.cpp logDefaultCallback: "%8.1fms [%-7s] " (qnn-net-run's form)
        "    12.5ms [ ERROR ] Zz graph could not be built",
        "   130.0ms [WARNING] zz tensor name changed\n    131.2ms [ ERROR ] Zz failed",
        # QAIRT converters' logger, common/utils/converter_utils.py:
        # '%(asctime)s - %(lineno)d - %(levelname)s - '
        "2030-02-03 04:05:06,789 - 411 - ERROR - Zz node has a form of its own",
        "2030-02-03 04:05:06,789 - 88 - DEBUG_3 - zz\n2030-02-03 04:05:07,001 - 240 - ERROR - Zz failed",
    ],
)
def test_qualcomm_tools_log_line_forms_name_qualcomm(text: str) -> None:
    assert detect_families(text)[:1] == ["qualcomm"]


def test_the_converter_log_form_yields_to_another_tools_strong_marker() -> None:
    """The converters' Python log format is also a common script format: it names Qualcomm alone, not over a
    tool's own marker in the logged text; OpenVINO's "[ ERROR ]" without QNN's milliseconds is not QNN's."""
    text = "2030-02-03 04:05:06,789 - 52 - ERROR - [ONNXRuntimeError] : 1 : FAIL : zz"
    assert detect_families(text)[0] == "onnxruntime"
    assert "qualcomm" not in family_evidence("[ ERROR ] Zz failed")
    assert "qualcomm" not in family_evidence("2030-02-03 04:05:06,789 - zz.mod - ERROR - Zz failed")


def test_an_ort_error_code_name_counts_only_as_a_whole_word() -> None:
    assert "onnxruntime" not in family_evidence("resort_failed: retrying")


def test_every_widened_family_has_a_source_format_case() -> None:
    assert {f for f, _ in SOURCE_FORMATS} == set(NEW_FAMILIES)


# --- a big family's common words do not out-vote a tool-only marker -----------------------


BIG_FAMILY_WORDS = " (ascend, om model, ErrorNo: 3, hcom, [FILE: x])"
"""Five weak Ascend markers (weight 5), none of them Ascend-only."""


@pytest.mark.parametrize(
    ("family", "text"),
    [
        ("openvino", "Exception from src/inference/src/cpp/core.cpp:121: compile failed"),
        ("mnn", "Compute Shape Error for conv_3"),
        ("ncnn", "find_blob_index_by_name out0 failed"),
        ("tflite", "Didn't find op for builtin opcode 'FOO' version '3'"),
        ("coreml", "Torch var x.1 not found in context"),
        ("tvm", "Did you forget to bind?"),
        ("paddle2onnx", "Paddle model convert failed."),
        ("torch_onnx", "ONNX export failed: Couldn't export operator aten::foo"),
    ],
)
def test_big_family_weak_words_do_not_outvote_a_tool_marker(
    kb: KnowledgeBase, family: str, text: str
) -> None:
    mixed = text + BIG_FAMILY_WORDS
    evidence = family_evidence(mixed)
    assert evidence["ascend"] >= evidence[family] - 2  # the big family has as much (or more) weight in total
    assert detect_families(mixed)[0] == family
    assert kb.lookup(mixed, top=3)[0].entry.family == family


def test_strongest_marker_ranks_first_then_weight_then_position() -> None:
    # one strong OpenVINO marker against three weak Ascend ones: OpenVINO first
    assert detect_families("failed at src/x.cpp:1 ascend errorno: hcom")[:2] == ["openvino", "ascend"]
    # equal evidence: the tool named first (the envelope) comes first, whichever order MARKERS lists
    assert detect_families("tflite: x /mnn/y")[:2] == ["tflite", "mnn"]
    assert detect_families("mnn: x /tflite/y")[:2] == ["mnn", "tflite"]


@pytest.mark.parametrize(
    "text",
    [
        "cannot reshape: the stopped heartbeat was dropped",  # cann, opp, tbe
        "RunGraphAsync failed while manipulating a relaxed relayed buffer",  # ngraph, ipu, relax, relay
        "https://example.org/foo_htps?x=dlcx&topix=1 novcx",  # htp, dlc, topi, ovc inside other words
    ],
)
def test_common_word_pieces_are_not_markers(text: str) -> None:
    assert family_evidence(text) == {}


def test_whole_word_markers_still_count_as_words() -> None:
    assert family_evidence("CANN 8.0 opp tbe")["ascend"] == 3
    assert "openvino" in family_evidence("ngraph::op::v1::Reshape")


# --- bare numbers ------------------------------------------------------------------------


def test_bare_number_is_an_acl_code_only_when_ascend_or_no_tool_is_named() -> None:
    mnn = "Compute Shape Error for conv_1, failed 507033"
    assert "acl:507033" not in credible_codes(extract_codes(mnn), detect_families(mnn))
    ascend = "aclrtMalloc failed, error 507033"
    assert "acl:507033" in credible_codes(extract_codes(ascend), detect_families(ascend))
    anonymous = "call failed, error code 507033"
    assert "acl:507033" in credible_codes(extract_codes(anonymous), detect_families(anonymous))


def test_a_size_in_another_tools_message_does_not_pin_an_ascend_entry(kb: KnowledgeBase) -> None:
    text = "Resize error for type = Convolution, name = conv1, error 107002"
    matches = kb.lookup(text, top=3)
    assert matches[0].entry.family == "mnn"
    assert not any("acl:107002" in m.codes for m in matches)


# --- the table itself -------------------------------------------------------------------


def test_markers_are_lower_case_unique_and_weighted() -> None:
    for family, markers in MARKERS.items():
        names = [m for m, _ in markers]
        assert all(m == m.lower() and m for m in names), family
        assert len(names) == len(set(names)), family
        assert {w for _, w in markers} <= {STRONG, MEDIUM, WEAK}, family
    uncovered = {m for _, markers in UNCOVERED.values() for m, _ in markers}
    assert WHOLE_WORDS <= {m for markers in MARKERS.values() for m, _ in markers} | uncovered


def test_each_new_family_names_its_sources() -> None:
    """The marker table says where each new family's markers were read."""
    source = REPO_DIR / "core" / "knowledge" / "markers.py"
    text = source.read_text(encoding="utf-8")
    for repo in (
        "openvinotoolkit/openvino",
        "tensorflow/tensorflow",
        "alibaba/MNN",
        "Tencent/ncnn",
        "PaddlePaddle/Paddle2ONNX",
        "pytorch/pytorch",
        "apache/tvm",
        "apple/coremltools",
        "Qualcomm",
    ):
        assert repo in text


def test_family_entries_say_how_to_get_more_detail_and_where_errors_are_documented(kb: KnowledgeBase) -> None:
    level = {e.family: e for e in kb.entries if e.level == "family"}
    for family in NEW_FAMILIES:
        fix = level[family].fix
        assert re.search(r"verbose|log|debug|TVM_BACKTRACE", fix, re.I), family
        assert re.search(
            r"defined in|listed in|explained in|documented|enums|error codes|FAQ",
            fix + level[family].source,
            re.I,
        ), family


_STRONG = sorted(
    {(f, m) for f, markers in MARKERS.items() for m, w in markers if w == STRONG and m not in WHOLE_WORDS}
)
_FILLER = st.text(alphabet=st.sampled_from(list("abcdefghij .,:;\n0123456789")), max_size=40)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_STRONG), _FILLER, _FILLER)
def test_a_strong_marker_anywhere_names_its_family(pair: tuple[str, str], before: str, after: str) -> None:
    family, marker = pair
    text = f"{before} {marker.upper()} {after}"
    assert family in detect_families(text)
    assert family_evidence(text)[family] >= STRONG


def test_a_literal_pattern_means_its_letter_case() -> None:
    """CANN's ``TraceBack (most recent call last):`` (its own call chain) is not Python's ``Traceback``: an
    entry whose whole pattern is that literal is no partial match for Python's header."""
    from dumpscope.core.knowledge.entry import literal_only

    kb = load_kb(user_dir=Path("/nonexistent-dumpscope-test"))
    cann = kb.lookup("TraceBack (most recent call last):", top=1)[0]
    assert (cann.entry.id, cann.reason) == ("ascend-TRACEBACK", "pattern")
    python = kb.lookup("Traceback (most recent call last):", top=3)
    assert all(m.reason != "partial" for m in python)
    assert literal_only(r"TraceBack \(most recent call last\):") == "traceback (most recent call last):"
    assert literal_only(r"(?i)TraceBack") is None
    assert literal_only(r"failed (\d+)") is None


def test_one_content_word_is_no_core_phrase(kb: KnowledgeBase) -> None:
    """ "not supported" / "not implemented" are any tool's English: an entry whose anchor is only that is no
    partial match (a longer core phrase still is: see test_partial_paste_of_the_core_phrase...)."""
    for text in ("feature X is not supported on this device", "method foo is not implemented"):
        assert all(m.reason != "partial" for m in kb.lookup(text, top=5)), text


def test_a_big_family_s_wording_only_matches_are_scaled_by_its_size(tmp_path: Path) -> None:
    """The best wording match among 656 entries beats the best among 25 by number alone: a family over
    WORDS_SIZE_REF entries has its wording-only scores scaled by (REF / size) ** EXP; the sizes come with
    the index and follow user entries."""
    import json

    from dumpscope.core.knowledge.kb import WORDS_SIZE_EXP, WORDS_SIZE_REF, _words_factors

    factors = _words_factors({"ascend": 4 * WORDS_SIZE_REF, "tvm": WORDS_SIZE_REF // 2, "none": 0})
    assert factors["ascend"] == pytest.approx(0.25**WORDS_SIZE_EXP) and factors["tvm"] == 1.0
    assert "none" not in factors
    builtin = load_kb(user_dir=tmp_path / "none")
    sizes = builtin._words_factor  # from the shipped index's family sizes
    assert sizes["ascend"] < 1.0 and sizes["tvm"] == 1.0
    raw = {
        "tool": "mine",
        "stage": "run",
        "cause": "c",
        "fix": "f",
        "source": "me",
        "pattern": "acme-7 broke",
    }
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(raw) + "\n", encoding="utf-8")
    with_user = load_kb(extra=[path], user_dir=tmp_path / "none")
    added = set(with_user._words_factor) - set(sizes)
    assert len(added) == 1 and with_user._words_factor[added.pop()] == 1.0  # the user entry's family
    assert with_user._words_factor["ascend"] == sizes["ascend"]


# Issue 23: OpenVINO's read_model failure lists the frontends it has (frontend/src/manager.cpp, "Available
# frontends: " and the names); the listed names are formats it could read, not tools that speak.
OV_UNREADABLE = (
    "Unable to read the model: /models/det.xml Please check that model format: xml is supported and the "
    "model is correct. Available frontends: {names}"
)


@pytest.mark.parametrize("names", ["tf onnx ir tflite paddle pytorch", "tflite", "paddle tflite onnx jax"])
def test_a_frontend_list_names_no_tool(names: str, kb: KnowledgeBase) -> None:
    text = OV_UNREADABLE.format(names=names)
    assert detect_families(text) == ["openvino"]
    # the listed names count for nothing, wherever they are: the same text without them has the same cue
    assert family_evidence(text) == family_evidence(OV_UNREADABLE.format(names=""))
    assert kb.lookup(text, top=1)[0].entry.family == "openvino"


def test_a_tool_named_outside_the_list_still_counts() -> None:
    text = "tflite: Didn't find op for builtin opcode 'X'\nAvailable frontends: onnx ir"
    assert "tflite" in detect_families(text)


# Session s22c: OpenVINO's own names where the namespace and the source path are cut off (node.hpp's
# NodeValidationFailure, the old Python API's ie_api.pyx and IENetwork)
# name OpenVINO alone; benchmark_app's step line, the old samples' log line and OpenVINO Model Server's
# modelmanager logger are medium evidence, added to whatever else the message holds. The texts are written
# from those sources with made-up names.
@pytest.mark.parametrize(
    "text",
    [
        "terminate called after throwing an instance of 'NodeValidationFailure'\n  what():  Check 'k > 0'",
        '  File "ie_api.pyx", line 1000, in inference_engine.ie_api.IECore.read_network\nRuntimeError: bad',
        "RuntimeError: IENetwork could not be created: unknown layer type",
    ],
)
def test_openvino_names_without_their_namespace_name_openvino(text: str) -> None:
    assert detect_families(text)[0] == "openvino"


@pytest.mark.parametrize(
    "text",
    [
        "[Step 7/11] Loading the model to the device\nterminate called after throwing an instance of 'X'",
        "[ INFO ] Loading model to the plugin\nSegmentation fault (core dumped)",
        "[2026-01-02 03:04:05.678][77][modelmanager][error][model.cpp:10] Cannot reload model: my_net",
    ],
)
def test_openvino_tool_log_lines_are_medium_evidence(text: str) -> None:
    assert family_evidence(text)["openvino"] == MEDIUM


# s22b: the QAIRT/SNPE converters print their ONNX-frontend and IR checks as "<CODE>: <text>"
# (qti/aisw/converters/common/utils/code_to_message.py, read in zhiyuan8/qnn at 24eb410); the code names
# Qualcomm even where the text alone reads like another tool's, and the bare code name, without its colon,
# names nothing.
@pytest.mark.parametrize(
    "text",
    [
        "ValueError: ERROR_PAD_UNSUPPORTED_MODE: Unsupported mode zz_wrap set in Pad layer",
        "ERROR_SQUEEZE_DIM_GREATER_THAN_RANK: Squeeze dims [5] greater than input rank 4",
        "ERROR_KERNEL_SHAPE_DIFFERS_FROM_WEIGHTS: kernel_shape parameter differs from weights shape",
        "WARNING_OP_NOT_SUPPORTED_BY_ONNX: Unable to register converter supported Operation "
        "[ZzOp:Version 13] with your Onnx installation. Got: zz. "
        "Converter will bail if Model contains this Op.",
    ],
)
def test_a_qairt_converter_code_names_qualcomm(text: str, kb: KnowledgeBase) -> None:
    assert detect_families(text)[0] == "qualcomm"
    assert kb.lookup(text, top=1)[0].entry.family == "qualcomm"


def test_a_converter_code_name_without_its_colon_names_no_tool() -> None:
    assert "qualcomm" not in detect_families("see the enum ERROR_PAD_UNSUPPORTED_MODE in the docs")


# s23c: coremltools' PyTorch frontend progress bar (converters/mil/frontend/torch/ops.py) and its MIL
# blob storage module (converters/mil/backend/mil/load.py), the Neural Engine compiler's entry point and
# NSError's description key as coremltools' _MLModelProxy raises it point at Core ML; torch.onnx's
# UnsupportedOperatorError advice (torch/onnx/errors.py) names torch.onnx.  NSError's key is medium: any
# Apple framework's error has it.
@pytest.mark.parametrize(
    ("text", "family", "weight"),
    [
        ("Converting PyTorch Frontend ==> X:  40%|####  | 8/20 [00:00<00:00, 99.1 ops/s]", "coreml", STRONG),
        ("ImportError: cannot import name 'Zz' from 'zz.libmilstoragepython'", "coreml", STRONG),
        ("ANECCompileOffline() failed: OSStatus=0, Status=3", "coreml", STRONG),
        ('RuntimeError: {\n    NSLocalizedDescription = "The zz layer failed.";\n}', "coreml", MEDIUM),
        (
            "Exporting the operator 'zz::op' to ONNX opset version 9 is not supported. Support for this "
            "operator was added in version 13, try exporting with this version.",
            "torch_onnx",
            STRONG,
        ),
    ],
)
def test_core_ml_and_torch_onnx_wordings_name_their_tool(text: str, family: str, weight: int) -> None:
    assert family_evidence(text)[family] >= weight
    # a strong marker names its tool alone; a medium one only leans towards it
    assert (detect_families(text)[:1] == [family]) == (weight == STRONG)


def test_every_log_form_is_lower_case_data_with_a_weight() -> None:
    """A form is tried on the lower-cased text after its literal is found there: the literal is lower case,
    the pattern compiles, and the weight is one of the marker weights."""
    for family, forms in LOG_FORMS.items():
        assert forms, family
        for literal, pattern, weight in forms:
            assert literal == literal.lower() and literal
            re.compile(pattern)
            assert weight in (WEAK, MEDIUM, STRONG)


@pytest.mark.parametrize(
    "text",
    [
        "fa_alloc.cc:3866:ERROR:graph requires estimated allocation of 2100000 KB, limit is 2097152 KB",
        "graph_prepare.cc:742:ERROR:error during serialize: memory usage too large",
        "prepare.cc:91::ERROR:op config file: 12: Bad line",
        "E  vendor/src/apps_mem_imp.c:216:Error 0x8000040d: unmap failed for size 753664",
        "mod_table.c:863: Error 0x8000040d: open_mod_table_handle_invoke failed for handle:0x3c105ea8",
    ],
)
def test_hexagon_and_fastrpc_lines_lean_to_qualcomm(text: str) -> None:
    """Each line counts as a MEDIUM marker of Qualcomm, wherever it starts in the text."""
    hits = _log_forms(text.lower())
    assert list(hits) == ["qualcomm"]
    assert MEDIUM in [w for w, _ in hits["qualcomm"]]
    assert family_evidence(text)["qualcomm"] >= MEDIUM


@pytest.mark.parametrize(
    "text",
    [
        "model.cc:12:5: error: expected ';' after expression",  # a compiler's line: column and a space
        "main.c:40: error: 'x' undeclared",
        "Error 0x80004005: unspecified failure",  # a Windows HRESULT without a file and line
        "handler.cpp:88:ERROR: something",  # a space after the level
    ],
)
def test_compiler_and_windows_lines_are_no_qualcomm_form(text: str) -> None:
    assert "qualcomm" not in _log_forms(text.lower())


def test_a_qairt_log_line_still_adds_to_a_hexagon_line() -> None:
    """The converters' Python log format adds its MEDIUM and WEAK marks to the Hexagon line's (it yields only
    to the command-line tools' STRONG line), so both name Qualcomm together."""
    text = (
        "2025-02-01 10:00:00,123 - 230 - ERROR - conversion failed\n"
        "graph_prepare.cc:742:ERROR:error during serialize: memory usage too large"
    )
    weights = sorted(w for w, _ in _log_forms(text.lower())["qualcomm"])
    assert weights == [WEAK, MEDIUM, MEDIUM]
    assert detect_families(text)[0] == "qualcomm"


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("D [14:05:56.085] >>>>>> start: OpEmit\nterminate called after throwing an instance of 'x'", "rknn"),
        ("<<<<<<<< end: AllocateConvCachePass", "rknn"),
        ("> /opt/qcom/aistack/qairt/2.31.0.250130/bin/python3 convert.py\nAssertionError", "qualcomm"),
        ("Executing python /opt/sdk-2.20/bin/x86_64-linux-clang/converter --graph model.pb", "qualcomm"),
        ("E  vendor/qcom/proprietary/android/src/loader.c:10: load failed", "qualcomm"),
        (
            "Loading driver C:\\Windows\\System32\\DriverStore\\FileRepository\\"
            "qcnspmcdm8380.inf_arm64_1\\x.dll",
            "qualcomm",
        ),
    ],
)
def test_new_path_and_trace_markers_name_their_tool(text: str, family: str) -> None:
    assert detect_families(text)[:1] == [family]


def test_the_fusing_progress_bar_leans_to_rknn_without_naming_it_alone() -> None:
    """``I OpFusing N :`` is a MEDIUM marker: evidence for RKNN, not a STRONG name by itself."""
    evidence = family_evidence("I OpFusing 1 : 100%|#####| 100/100 [00:01<00:00, 80.00it/s]")
    assert evidence["rknn"] == MEDIUM


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("zz.cc:12 MicroMutableOpResolver has no room for another op", "tflite"),
        ("E micro_interpreter.cc:88 zz", "tflite"),
        ("ERROR: Arena size is too small for all buffers", "tflite"),
        ("pip install ai-edge-torch failed: zz", "tflite"),
        ("import ai_edge_quantizer  # zz", "tflite"),
        ("Run() failed: odml.infra.ZzCalculator", "tflite"),
        ('[espresso] [Espresso::handle_ex_plan] exception=Espresso exception: "Zz": zz', "coreml"),
        ('Error Domain=com.apple.mlassetio Code=1 "zz"', "coreml"),
        ("zz Unable to parse ML Program: at zz", "coreml"),
        ("-[MLFeatureValue zz]: nil value", "coreml"),
    ],
)
def test_the_new_markers_name_their_family(text: str, family: str) -> None:
    assert named_families(text)[:1] == [family]


def test_espresso_alone_is_not_core_ml() -> None:
    """Android's UI test framework is also called Espresso: the bare word names no tool."""
    assert "coreml" not in named_families("androidx.test.espresso.NoMatchingViewException: zz")


@pytest.mark.parametrize(
    "text",
    [
        '  File "C:\\Anaconda3\\site-packages\\tensorflow_core\\lite\\python\\lite.py", line 98, in convert',
        '  File "/usr/lib/python3/site-packages/tensorflow_core/lite/python/interpreter.py", line 206, in zz',
    ],
)
def test_the_tensorflow_core_package_path_names_tflite(text: str) -> None:
    assert named_families(text)[:1] == ["tflite"]
