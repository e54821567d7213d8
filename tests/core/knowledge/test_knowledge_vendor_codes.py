"""Vendor code tables and tool markers added for issue 23, on messages written here from the vendors'
formats with values of our own (none is a copy of an evaluation message)."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.answer import answer


@pytest.mark.parametrize("code", ["161002", "561002", "561003", "561103", "561107", "561112"])
def test_each_aclnn_return_code_has_its_own_entry(kb: KnowledgeBase, code: str) -> None:
    msg = f"RuntimeError: run:op_api.cpp:12 NPU function error: call aclnnFoo failed, error code is {code}"
    best = kb.lookup(msg, top=1)[0]
    assert best.entry.id == f"ascend-aclnn-{code}"
    assert f"acl:{code}" in best.codes


def test_rknn_error_equals_negative_number_is_a_code(kb: KnowledgeBase) -> None:
    best = kb.lookup("Create RKNN model fail, error=-7 while loading", top=3)
    assert any("rknn:-7" in m.codes for m in best)
    assert best[0].entry.family == "rknn"


def test_rknn_failed_to_config_layer_captures_the_layer_only(kb: KnowledgeBase) -> None:
    best = kb.lookup(
        "E RKNN: [01:02:03.004] Failed to config layer: 'Conv:/net/stem/Conv_9' using 3Core", top=1
    )[0]
    assert best.entry.id == "rknn-failed-to-config-layer"
    assert dict(best.captures).get("op") == "Conv:/net/stem/Conv_9"


@pytest.mark.parametrize(
    ("message", "tool"),
    [
        ("[UNILOG][FATAL][XCOM_SHAPE_FAIL][shape check failed for node conv9]", "vitis_ai"),
        (
            "Exception from src/inference/src/cpp/core.cpp:90:\n"
            "Exception from src/plugins/intel_npu/src/compiler/src/zero_compiler_in_driver.cpp:700:\n"
            "L0 pfnCreate2 result: ZE_RESULT_ERROR_UNKNOWN, code 0x7ffffffe",
            "intel_npu",
        ),
    ],
)
def test_uncovered_tools_are_said_to_be_uncovered(kb: KnowledgeBase, message: str, tool: str) -> None:
    found = answer(kb, message)
    assert found.uncovered is not None and found.uncovered[0] == tool


def test_a_plain_openvino_error_stays_openvino(kb: KnowledgeBase) -> None:
    msg = 'Exception from src/inference/src/cpp/core.cpp:99:\nDevice with "GPU.3" name is not registered'
    found = answer(kb, msg)
    assert found.uncovered is None and found.matches[0].entry.family == "openvino"


def test_family_answers_name_specific_causes_before_verbose_logs(kb: KnowledgeBase) -> None:
    level = {e.family: e for e in kb.entries if e.level == "family"}
    for family in ("paddle2onnx", "onnxsim"):
        first = level[family].fix.split(". ")[0].lower()
        assert "verbose" not in first and "more detail" not in first, family


@pytest.mark.parametrize(
    ("message", "entry_id"),
    [
        (
            "[TRT] [E] 3: [executionContext.cpp::setInputShape::1999] Error Code 3: API Usage Error "
            "(Parameter check failed, condition: satisfyProfile Runtime dimension does not satisfy "
            "any optimization profile.)",
            "tensorrt-runtime-shape-outside-profile",
        ),
        (
            "[E] 3: [executionContext.cpp::resolveSlots::100] Error Code 3: API Usage Error (Parameter check "
            "failed, condition: allInputDimensionsSpecified(routine) )",
            "tensorrt-input-dimensions-not-specified",
        ),
        (
            "Error: Exception occurred during running replacer "
            '"ObjectDetectionAPIPreprocessor2Replacement" (x)',
            "openvino-mo-replacer-exception",
        ),
        (
            "NotImplementedError: Unsupported Ops of type: RandomShuffleQueueV2",
            "coreml-tfcoreml-unsupported-ops",
        ),
        ("E RKNN: [08:00:01.002] buffer overflow!!!", "rknn-compiler-buffer-overflow"),
    ],
)
def test_frequent_failures_have_specific_entries(kb: KnowledgeBase, message: str, entry_id: str) -> None:
    found = answer(kb, message)
    assert found.confident and found.matches[0].entry.id == entry_id
    assert found.matches[0].entry.level != "family"
