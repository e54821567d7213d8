"""Issue 23: the most frequent failures of OpenVINO's AUTO/MULTI plugin, MNN's converter, ncnn's binary param
loader and Paddle2ONNX's abort lines, answered with their cause and fix instead of the family card.

Each message is written from the vendor's own format string (openvino src/plugins/auto/src/plugin.cpp,
plugin_config.cpp and auto_schedule.cpp; MNN tools/converter/source/onnx/onnxOpConverter.cpp and
onnxConverter.cpp, express/Executor.cpp; ncnn src/net.cpp load_param_bin; Paddle2ONNX
paddle2onnx/mapper/exporter.cc and select_input.cc) with names and values of our own; none is a message of
the evaluation set."""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log
from tests.support.advice import assert_answered

_OV_WRAP = "RuntimeError: Exception from src/inference/src/cpp/core.cpp:109:\n"

# (message, entry, what the advice must name)
CASES = [
    (
        "Start to Convert Other Model Format To MNN Model..., target version: 3\n[11:02:13] "
        "/src/MNN/tools/converter/source/onnx/onnxOpConverter.cpp:433: Don't support 19",
        "mnn-h23o2-converter-constant-dtype",
        ("data type 19", "t.data_type == 19", "FLOAT8 types 17-20"),
    ),
    (
        "[08:01:59] :433: Don't support 8",
        "mnn-h23o2-converter-constant-dtype",
        ("data type 8", "STRING 8"),
    ),
    (
        "Don't support 3",
        "mnn-h23o2-dont-support-number",
        ('"Don\'t support 3"', "3 OpenCL", "t.data_type == 3"),
    ),
    (
        "Check it out ==> /stage2/Resize_3_output_0 has empty input, the index is 1",
        "mnn-h23o2-empty-input-notice",
        ("/stage2/Resize_3_output_0", "input 1", "not the failure"),
    ),
    (
        "layer -1 not exists or registered",
        "ncnn-h23o2-layer-index-not-registered",
        ("index -1", "ncnn2mem", "load_param"),
    ),
    (
        "layer 257 not exists or registered",
        "ncnn-h23o2-layer-index-not-registered",
        ("index 257", "CustomBit", "register_custom_layer"),
    ),
    (
        "[ERROR] Due to the unsupported operators, the conversion is aborted.",
        "paddle2onnx-h23o2-unsupported-ops-aborted",
        ("Oops, there are some operators not supported yet", "op_list.md"),
    ),
    (
        "[ERROR] Due to the unsupported sub_block_idx, the conversion is aborted.",
        "paddle2onnx-h23o2-sub-block-aborted",
        ("conditional_block", "sub_block"),
    ),
    (
        _OV_WRAP + "[AUTO] compile model failed, GPU:[GPU] odd driver state 7; CPU:odd thing 9",
        "openvino-h23o2-auto-compile-failed",
        ("GPU:[GPU] odd driver state 7; CPU:odd thing 9", "AUTO:-GPU"),
    ),
    (
        "compile model failed, NPU:unknown level zero error 12; ",
        "openvino-h23o2-auto-compile-failed",
        ("NPU:unknown level zero error 12", "AUTO or MULTI"),
    ),
    (
        _OV_WRAP + "There is no device support the current configure",
        "openvino-h23o2-auto-no-device-for-config",
        ("enable_profiling", "SUPPORTED_PROPERTIES"),
    ),
    (
        _OV_WRAP + "The meta device should not in the device candidate list: MULTI,GPU",
        "openvino-h23o2-auto-meta-in-candidates",
        ("(MULTI,GPU)", "'AUTO:GPU,CPU'"),
    ),
    (
        "KEY_MULTI_DEVICE_PRIORITIES key is not set for MULTI",
        "openvino-h23o2-multi-priorities-not-set",
        ("'MULTI'", "MULTI:GPU,CPU"),
    ),
    (
        _OV_WRAP + "Please, check environment due to no supported devices can be used",
        "openvino-h23o2-auto-no-supported-devices",
        ("core.available_devices", "'AUTO:NPU,CPU'"),
    ),
    (
        "No available device to filter AUTO plugin",
        "openvino-h23o2-auto-no-available-device",
        ("AUTO's candidate list", "GPU.0"),
    ),
    (
        "Cannot select any device",
        "openvino-h23o2-auto-cannot-select",
        ("OPTIMIZATION_CAPABILITIES",),
    ),
    (
        "AUTO cumulative model doesn't support stateful model.",
        "openvino-h23o2-auto-cumulative-stateful",
        ("ReadValue/Assign", "CUMULATIVE_THROUGHPUT"),
    ),
    (
        "Check 'false' failed at src/plugins/auto/src/plugin_config.cpp:65:\nproperty: GPU_QUEUE_X: not "
        "supported",
        "openvino-h23o2-auto-property-not-supported",
        ("GPU_QUEUE_X", "ov::device::properties"),
    ),
    (
        "Invalid value for property PERFORMANCE_HINT: QUICK",
        "openvino-h23o2-invalid-property-value",
        ("PERFORMANCE_HINT", "QUICK", "LATENCY"),
    ),
]


@pytest.mark.parametrize(
    ("message", "entry", "named"), CASES, ids=[f"{i}-{c[1]}" for i, c in enumerate(CASES)]
)
def test_the_form_is_answered_by_its_entry_with_what_it_captured(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_an_inner_failure_of_a_device_wins_over_auto_s_wrapper(kb: KnowledgeBase) -> None:
    """AUTO lists each device's own error: where one of them has its entry, that entry answers."""
    message = _OV_WRAP + "[AUTO] compile model failed, CPU:Cannot get length of dynamic dimension"
    assert kb.lookup(message, top=1)[0].entry.id == "openvino-dynamic-dimension-length"


def test_the_named_layer_type_keeps_its_own_entry(kb: KnowledgeBase) -> None:
    """The text loader names the type: that is not the binary loader's index."""
    top = kb.lookup("layer pnnx.Expression not exists or registered", top=1)[0]
    assert top.entry.id == "ncnn-layer-not-registered"
    assert dict(top.captures)["op_type"] == "pnnx.Expression"


@pytest.mark.parametrize(
    "message",
    [
        "Don't support 3 for arm82 unary",
        "Don't support broadcast for MatMulOp, i0=2, i1=3",
        "layer 5x not exists or registered",
        "There is no device to support the current configure",
        "[ERROR] Due to the opset, the conversion is aborted.",
        "compile model failed, please retry",
    ],
)
def test_near_misses_are_not_answered_by_the_new_entries(kb: KnowledgeBase, message: str) -> None:
    ids = [m.entry.id for m in kb.lookup(message, top=3) if "pattern" in m.reason.split("+")]
    assert not [i for i in ids if "-h23o2-" in i], ids


def test_a_log_scan_reports_the_abort_line_in_noise(kb: KnowledgeBase) -> None:
    log = "INFO loading model\n" + CASES[6][0] + "\nINFO done\n"
    problems = scan_log(io.StringIO(log), kb)
    assert [p.matches[0].entry.id for p in problems] == [CASES[6][1]]


# (message, clause that answers the family card, what the advice must name)
CLAUSE_CASES = [
    (
        _OV_WRAP + "Check 'node_count > 2' failed at src/frontends/pytorch/src/translate_session.cpp:212:\n"
        "prim::Foo has no translation",
        "openvino-frontend-check",
        ("pytorch frontend", "'node_count > 2'", "translate_session.cpp", "prim::Foo has no translation"),
    ),
    (
        _OV_WRAP + "Exception from src/inference/src/dev/plugin.cpp:53:\n"
        "Exception from src/plugins/intel_npu/src/plugin/src/plugin.cpp:717:\nZe compile failure 0x7800000f",
        "openvino-plugin-check",
        (
            "npu device plugin",
            "intel_npu/src/plugin/src/plugin.cpp",
            "Ze compile failure 0x7800000f",
            "HETERO",
        ),
    ),
    (
        "Check 'rank_a == 4' failed at src/core/src/op/foo_op.cpp:77:\n"
        "While validating node 'opset1::Foo Foo_1'",
        "openvino-core-check",
        ("'rank_a == 4'", "src/core/src/op/foo_op.cpp", "model.reshape"),
    ),
    (
        "Exception thrown at 0x00007FF712345678 in MyApp.exe: Microsoft C++ exception: ov::AssertFailure at "
        "memory location 0x0000001234ABCD00.",
        "openvino-first-chance-exception",
        ("ov::AssertFailure", "catch (const ov::Exception& e)"),
    ),
    (
        _OV_WRAP + "Exception from src/plugins/intel_cpu/src/nodes/foo.cpp:12:\ncode is too big",
        "openvino-cpu-xbyak-too",
        ("'code is too big'", "Xbyak", "inference_precision f32"),
    ),
    (
        "[ GENERAL_ERROR ] bad size of register",
        "openvino-cpu-xbyak-bad",
        ("'bad size of register'", "Xbyak"),
    ),
    (
        "[10:01:02] /src/MNN/tools/converter/source/onnx/FooOnnx.cpp:64: "
        "Check failed: (weightShape.size() == 4) ==> Foo weight must be 4 dims for now",
        "mnn-converter-check-failed",
        ("FooOnnx.cpp", "'(weightShape.size() == 4)'", "'Foo weight must be 4 dims for now'", "--OP"),
    ),
]


@pytest.mark.parametrize(("message", "clause", "named"), CLAUSE_CASES, ids=[c[1] for c in CLAUSE_CASES])
def test_the_family_card_says_the_check_the_message_printed(
    kb: KnowledgeBase, message: str, clause: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, clause=clause)


@pytest.mark.parametrize(
    "message",
    [
        # the inference wrapper alone names no component that failed
        _OV_WRAP + "Exception from src/inference/src/dev/plugin.cpp:53:\nsomething odd",
        # Xbyak's wording inside a sentence is not its error line
        "[ GENERAL_ERROR ] something bad combination happened",
        # a CHECK line without MNN's ' ==> ' reason is not the converter's form
        "[10:01:02] Check failed: x == y",
    ],
)
def test_the_check_clauses_need_their_component_s_form(kb: KnowledgeBase, message: str) -> None:
    ids = [m.entry.id for m in kb.lookup(message, top=3)]
    own = (
        "openvino-frontend-check",
        "openvino-plugin-check",
        "openvino-core-check",
        "mnn-converter-check-failed",
    )
    assert not [i for i in ids if i.endswith(own)], ids


@pytest.mark.parametrize(
    ("message", "entry", "named"),
    [
        (
            "vkCreateInstance failed -9",
            "ncnn-h23o2-vulkan-call-failed",
            ("vkCreateInstance", "-9", "vulkaninfo"),
        ),
        (
            "[0 llvmpipe]  queueC=0[1]  queueG=0[1]  queueT=0[1]\nno vulkan device",
            "ncnn-h23o2-no-vulkan-device",
            ("get_gpu_count()", "vulkaninfo"),
        ),
        (
            "TfLiteGpuDelegate Invoke: GpuDelegate must run on the same thread where it was initialized.",
            "tflite-h23o2-gpu-delegate-thread",
            ("same thread", "EGL context"),
        ),
        (
            "TfLiteGpuDelegate Invoke: Odd buffer state 42Node number 9 (TfLiteGpuDelegateV2) failed to "
            "invoke.",
            "tflite-h23o2-gpu-delegate-invoke",
            ("'Odd buffer state 42'", "resize_input_tensor"),
        ),
        (
            "[ERROR] Cannot find output: Boxes in operator: my_fused_nms",
            "paddle2onnx-h23o2-cannot-find-output",
            ("Boxes", "my_fused_nms"),
        ),
    ],
)
def test_ncnn_vulkan_paddle2onnx_slot_and_tflite_gpu_delegate_forms(
    kb: KnowledgeBase, message: str, entry: str, named: tuple[str, ...]
) -> None:
    assert_answered(kb, message, named, entry=entry)


def test_a_log_scan_finds_mnnconvert_s_empty_input_notice(kb: KnowledgeBase) -> None:
    """The notice carries no error word: its own wording is a cue of the scan's prefilter."""
    log = (
        "INFO step 1\nStart to Convert Other Model Format To MNN Model..., target version: 3\n"
        "[10:00:01] /src/MNN/tools/converter/source/onnx/onnxConverter.cpp:46: ONNX Model ir version: 8\n"
        "[10:00:01] /src/MNN/tools/converter/source/onnx/onnxConverter.cpp:146: Check it out ==> "
        "/blk/Pad_output_0 has empty input, the index is 1\nINFO done\n"
    )
    problems = scan_log(io.StringIO(log), kb)
    assert [p.matches[0].entry.id for p in problems] == ["mnn-h23o2-empty-input-notice"]


def test_the_innermost_component_line_is_the_one_said(kb: KnowledgeBase) -> None:
    """Each wrapper prints its own 'Exception from' line above the failure: the last line is the failure."""
    message = (
        _OV_WRAP + "Exception from src/plugins/intel_gpu/src/plugin/plugin.cpp:200:\n"
        "Exception from src/plugins/intel_gpu/src/plugin/compiled_model.cpp:61:\n"
        "Check 'ok == 7' failed at src/plugins/intel_gpu/src/graph/foo_stage.cpp:99:\nfoo stage gave up"
    )
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id.endswith("+openvino-plugin-check")
    parts = dict(top.captures)
    assert parts["path"] == "src/plugins/intel_gpu/src/graph/foo_stage.cpp"
    assert (parts["value"], parts["detail"]) == ("ok == 7", "foo stage gave up")
