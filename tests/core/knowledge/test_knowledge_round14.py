"""Issue 23, round 14 (messages copied from web pages): what its dev misses taught, each written from the
tool's own wording with values of our own (never an evaluation message).

* the RKNN logger's other levels (``D RKNN: [...]``, ``I RKNN: [...]``, ``W RKNN: [...]``) and the
  compiler's ``rknn::`` namespace name RKNN, so a build log ending in a bare C++ exception is answered as
  RKNN's, not as generic runtime text;
* torch_npu's "The Inner error is reported as above. The process exits for this inner error, and the current
  working operator name is <op>." is Ascend's, with an entry of its own (the real error is the line above);
* onnx's version converter range check ("invalid version (must be between 1 and N)") is onnx's, not
  Paddle2ONNX's by wording.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log


@pytest.mark.parametrize("level", ["D", "I", "W"])
def test_a_bare_cpp_exception_after_the_rknn_logger_is_rknns(kb: KnowledgeBase, level: str) -> None:
    text = (
        f"{level} RKNN: [09:15:02.417] >>>>>> start: rknn::FuseTwoLayersPass\n"
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 5)\nAborted"
    )
    assert kb.lookup(text, top=1)[0].entry.family == "rknn"


def test_the_rknn_namespace_alone_names_rknn(kb: KnowledgeBase) -> None:
    text = (
        "terminate called after throwing an instance of 'std::out_of_range' in rknn::SplitConvPass\n"
        "what(): vector::_M_range_check: __n (which is 7) >= this->size() (which is 1)"
    )
    assert kb.lookup(text, top=1)[0].entry.family == "rknn"


def test_the_same_exception_without_a_tool_stays_generic(kb: KnowledgeBase) -> None:
    text = (
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 5)"
    )
    assert kb.lookup(text, top=1)[0].entry.family == "runtime"


def test_an_info_line_of_the_rknn_logger_is_no_problem(kb: KnowledgeBase) -> None:
    log = "I RKNN: [09:15:02.417] compress = 0, conv_eltwise_activation_fuse = 1\nstep done\n"
    assert scan_log(io.BytesIO(log.encode()), kb) == []


@pytest.mark.parametrize(
    ("tail", "found"),
    [
        ("working operator name is FooBarV3.", ("op_type", "FooBarV3")),
        ("copy params are srclen=64, dstlen=32, kind=2.", ("detail", "srclen=64, dstlen=32, kind=2")),
    ],
)
def test_torch_npus_inner_error_line_is_ascends_with_the_op(
    kb: KnowledgeBase, tail: str, found: tuple[str, str]
) -> None:
    text = (
        "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and "
        f"the current {tail}"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "torch-npu-inner-error-reported-above"
    assert found in top.captures
    assert "ASCEND_LAUNCH_BLOCKING=1" in top.fix
    assert "lines above" in top.cause


def test_torch_npus_async_note_alone_names_ascend(kb: KnowledgeBase) -> None:
    text = (
        "Since the operator is called asynchronously, the stacktrace may be inaccurate. If you want to get "
        "the accurate stacktrace, please set the environment variable ASCEND_LAUNCH_BLOCKING=1."
    )
    assert kb.lookup(text, top=1)[0].entry.family == "ascend"


@pytest.mark.parametrize(
    "text",
    [
        "invalid version (must be between 1 and 18)",
        "RuntimeError: onnx/version_converter/BaseConverter.h:41: assertInVersionRange: Assertion "
        "`version >= version_range.first && version <= version_range.second` failed: Warning: invalid "
        "version (must be between 1 and 22)",
    ],
)
def test_the_version_converters_range_check_is_onnxs_with_the_newest_opset(
    kb: KnowledgeBase, text: str
) -> None:
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id == "onnx-version-converter-invalid-version"
    newest = text.rsplit("and ", 1)[1].rstrip(")")
    assert ("value", newest) in top.captures
    assert f"between 1 and {newest}" in top.fix


@pytest.mark.parametrize(
    "text",
    [
        "ArgumentError: Invalid version (must be between 1 and 40)",
        "Error: Invalid version (must be between 0 and 31)",
    ],
)
def test_other_libraries_version_ranges_are_not_the_converters(kb: KnowledgeBase, text: str) -> None:
    """A QR-code library's 1..40 and a checksum library's 0..31 are no opset range: the entry's pattern does
    not take them (its wording still ranks it as a partial paste, below a pattern match)."""
    for m in kb.lookup(text, top=3):
        if m.entry.id == "onnx-version-converter-invalid-version":
            assert m.reason != "pattern" and "value" not in dict(m.captures)


@pytest.mark.parametrize(
    "line",
    [
        "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the "
        "current working operator name is FooBarV3.",
        "RuntimeError: invalid version (must be between 1 and 18)",
    ],
)
def test_the_log_scan_reports_each_new_single_line_among_plain_lines(kb: KnowledgeBase, line: str) -> None:
    log = "step 1 done\nloading model\n" + line + "\nstep 2 done\n"
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.first_line_no for p in problems] == [3]
