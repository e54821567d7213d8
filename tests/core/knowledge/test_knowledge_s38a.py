"""s38a: the condition of a quoted failed check read into a sentence with its names filled in
(:mod:`dumpscope.core.knowledge.conditions`), added to the answers whose advice is a tool's generic check
steps; a condition no form reads leaves the answer as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from dumpscope.core.knowledge import load_kb
from dumpscope.core.knowledge.conditions import FRAMES, condition_in, read
from dumpscope.core.knowledge.kb import KnowledgeBase


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_kb(user_dir=Path("/nonexistent"))


def _top(kb: KnowledgeBase, text: str):  # type: ignore[no-untyped-def]
    matches = kb.lookup(text, top=1)
    assert matches
    return matches[0]


def test_a_stream_that_is_false_is_a_file_that_did_not_open(kb: KnowledgeBase) -> None:
    m = _top(
        kb, "InternalError: Check failed: (config_istream) is false: Cannot open file /m/mlc-chat-config.json"
    )
    assert m.entry.id == "family-tvm+tvm-check-failed-reason"
    assert ("cond_subject", "config_istream") in m.captures
    assert (
        "config_istream, a file stream or handle, was null or false: the file it was to open could not"
        in m.cause
    )
    assert m.fix.startswith("Check the path that config_istream opens: print it just before the call")


def test_an_engine_that_is_null_was_not_created_by_an_earlier_step(kb: KnowledgeBase) -> None:
    m = _top(
        kb,
        "[06/18/2024-12:59:43] [TRT] [E] 2: [builder.cpp::buildSerializedNetwork::609] Error Code 2: "
        "Internal Error (Assertion enginePtr != nullptr failed. )",
    )
    assert m.entry.id == "tensorrt-internal-assertion"
    assert "The condition it checked reads: enginePtr was null when this check ran" in m.cause
    assert m.fix.startswith(
        "Look for the first error printed before this line: it says why enginePtr was not"
    )


def test_a_null_blob_is_data_that_was_not_read(kb: KnowledgeBase) -> None:
    m = _top(
        kb,
        "[08/21/2022-07:30:27] [E] [TRT] Parameter check failed at: runtime.cpp::loadPlan::30, "
        "condition: (plan) != nullptr",
    )
    assert m.entry.id.endswith("+trt-parameter-check")
    assert ("cond_subject", "plan") in m.captures
    assert "plan, the data passed in, was null" in m.cause
    assert m.fix.startswith("Check the step that fills plan: that the file it reads exists and is not empty")
    assert read("(blob) != nullptr") is not None


def test_a_status_that_is_not_success_is_a_failed_call(kb: KnowledgeBase) -> None:
    m = _top(
        kb,
        "[TensorRT] ERROR: 2: [pluginV2DynamicExtRunner.cpp::execute::115] Error Code 2: Internal Error "
        "(Assertion status == kSTATUS_SUCCESS failed.)",
    )
    cause, fix, captures = read("status == kSTATUS_SUCCESS") or ("", "", ())
    assert dict(captures) == {"cond_subject": "status", "cond_right": "kSTATUS_SUCCESS"}
    assert "{cond_subject} is the status a call returned just before this check" in cause
    assert "{cond_right}" in fix
    assert m.entry.family == "tensorrt"


def test_a_comparison_names_both_sides_and_the_printed_values() -> None:
    cond, left, right = condition_in(
        "TVMError: Check failed: shape[0] == fill_count (7 vs. 6) : Requested shape"
    )
    assert (cond, left, right) == ("shape[0] == fill_count", "7", "6")
    cause, fix, captures = read(cond, left, right) or ("", "", ())
    assert dict(captures) == {
        "cond_left": "shape[0]",
        "cond_op": "equal",
        "cond_right": "fill_count",
        "cond_sign": "==",
        "cond_left_value": "7",
        "cond_right_value": "6",
    }
    assert cause.endswith("the message prints {cond_left_value} against {cond_right_value}.")
    assert "make them meet" in fix


def test_a_comparison_in_a_code_reason_is_rendered_with_its_operands(kb: KnowledgeBase) -> None:
    m = _top(
        kb,
        "[TensorRT] ERROR: 2: [graph.cpp::getDefinition::336] Error Code 2: Internal Error (Assertion "
        "outputs.size() == 1 failed. a graph with two outputs)",
    )
    assert m.entry.id.endswith("+code-own-reason")
    assert (
        "The condition it checked reads: outputs.size() was required to equal 1, and it did not." in m.cause
    )
    assert m.fix.startswith("Start from that reason: ")  # the quoted reason still leads the fix
    assert "Find what outputs.size() and 1 are at this step" in m.fix.split("For the code in general:")[0]
    assert "make them meet outputs.size() == 1. For the code in general:" in m.fix


def test_a_comparison_of_the_tools_own_members_is_not_read() -> None:
    assert read("mIndex >= 0") is None
    assert read("mNodes.size() <= kMaxNodes") is None
    assert read("m_count == n") is None


def test_an_empty_container_and_a_lookup_that_found_nothing(kb: KnowledgeBase) -> None:
    m = _top(kb, "InternalError: Check failed: (!output_ids_.empty()) is false: ")
    assert "output_ids_ was empty where this code needs at least one element." in m.cause
    assert (
        "Find what should have filled output_ids_ before this step"
        in m.fix.split("For the step in general:")[0]
    )
    _, _, captures = read("it != format_traits_map.end()") or ("", "", ())
    assert dict(captures) == {"cond_subject": "it", "cond_right": "format_traits_map"}


def test_predicates_of_a_type_and_of_a_definition() -> None:
    cause, _, captures = read("min->IsInstance<PrimValueNode>()") or ("", "", ())
    assert dict(captures) == {"cond_subject": "min", "cond_right": "PrimValueNode"}
    assert cause.startswith("{cond_subject} was not a {cond_right}")
    cause, _, captures = read("(fload_exec.defined())") or ("", "", ())
    assert dict(captures) == {"cond_subject": "fload_exec"}
    assert cause.startswith("{cond_subject} was not defined")


@pytest.mark.parametrize(
    "condition",
    [
        "false",
        "convertOnnxWeights(initializer, &weights, ctx)",
        "type != nullptr",
        "(n) != nullptr",
        "pval != nullptr",
        "isValidDims(dims)",
        "!transp_src_ten->is_mod()",
    ],
)
def test_a_condition_no_form_reads_is_not_read(condition: str) -> None:
    assert read(condition) is None


def test_an_unreadable_condition_leaves_the_answer_as_it_was(kb: KnowledgeBase) -> None:
    text = (
        "[TRT] 2: [x.cpp::f::1] Error Code 2: Internal Error (Assertion validateCask(buffer.size) failed. )"
    )
    m = _top(kb, text)
    assert m.entry.id.rsplit("+", 1)[-1] in FRAMES
    assert not any(k.startswith("cond_") for k, _ in m.captures)
    assert "The condition it checked reads" not in m.cause


def test_an_answer_that_is_no_frame_keeps_its_own_advice(kb: KnowledgeBase) -> None:
    m = _top(
        kb,
        "[TensorRT] ERROR: Parameter check failed at: engine.cpp::enqueueV2::552, "
        "condition: bindings[x] != nullptr",
    )
    assert m.entry.id.rsplit("+", 1)[-1] == "trt-api-null-binding"
    assert "The condition it checked reads" not in m.cause


def test_a_c_assert_with_a_message_string_reads_the_condition_before_it() -> None:
    cond, _, _ = condition_in(
        "python: engine.cpp:1104: bool nvinfer1::rt::Engine::deserialize(const void*): Assertion "
        '`size >= bsize && "Mismatch between allocated memory size and expected size of engine."\' '
        "failed."
    )
    _, _, captures = read(cond) or ("", "", ())
    assert dict(captures)["cond_left"] == "size"
    assert dict(captures)["cond_right"] == "bsize"
    _, _, captures = read(
        'creator && "Plugin not found, are the plugin name, version, and namespace correct?"'
    ) or (
        "",
        "",
        (),
    )
    assert dict(captures) == {"cond_subject": "creator"}


def test_a_type_limit_a_range_and_an_either_check() -> None:
    cause, fix, captures = read("size <= std::numeric_limits<int32_t>::max()") or ("", "", ())
    assert dict(captures) == {"cond_subject": "size", "cond_right": "int32_t"}
    assert cause.startswith("{cond_subject} was over the largest value of {cond_right}")
    _, _, captures = read("int(builderFlag) >= 0 && int(builderFlag) < EnumMax<BuilderFlag>()") or (
        "",
        "",
        (),
    )
    assert dict(captures) == {
        "cond_subject": "int(builderFlag)",
        "cond_low": "0",
        "cond_high": "EnumMax<BuilderFlag>()",
    }
    cause, _, captures = read("args.size() == 22 || args.size() == 23") or ("", "", ())
    assert dict(captures) == {"cond_left": "args.size()", "cond_right": "22", "cond_other": "23"}
    assert cause.startswith("{cond_left} was neither {cond_right} nor {cond_other}")


@pytest.mark.parametrize("condition", ["scores == 0", "address == 0", "progress == 0"])
def test_a_value_whose_name_only_ends_like_a_status_is_a_comparison_not_a_status(condition: str) -> None:
    reading = read(condition)
    assert reading is not None
    cause, _fix, captures = reading
    assert "status a call returned" not in cause and dict(captures)["cond_sign"] == "=="
