"""A paste with a logger's header before each line, and a tool's tag spaced another way
(:mod:`dumpscope.core.knowledge.paste`): the header is no part of the message and is read without it,
the tool's own prefix stays, the tag is read as its tool prints it.  The messages are dev records' (no
held-out text is read)."""

from __future__ import annotations

import pytest

from bench.paste_forms import PASTES, hard_wrap
from dumpscope.core.knowledge import KnowledgeBase, paste, scan
from dumpscope.core.knowledge.paste import as_printed, captures_as_pasted

ORT_OBJECT = "RuntimeError: Unable to handle object of type <class 'float'>"
"""microsoft/onnxruntime#1166 (dev)."""
MO_REPLACER = (
    '[ ERROR ]  Exception occurred during running replacer "REPLACEMENT_ID" (<class \'extensions.front.'
    "user_data_repack.UserDataRepack'>): No node with name Conv_416"
)
"""ultralytics/yolov5#5533 (dev)."""
TRT_AXIS = (
    "--- End node ---\nERROR: onnx2trt_utils.hpp:347 In function convert_axis:\n"
    "[8] Assertion failed: axis >= 0 && axis < nbDims\n"
    "[TRT]   failed to parse ONNX model 'cat_dog/resnet18.onnx'\n"
    "[TRT]   device GPU, failed to load cat_dog/resnet18.onnx\n"
    "[TRT]   failed to load cat_dog/resnet18.onnx\n"
    "[TRT]   imageNet -- failed to initialize.\n"
    "imagenet-console:   failed to initialize imageNet"
)
"""dusty-nv/jetson-inference#577 (dev): its top entry changed under each prefix form before session s33c."""
ORT_UNSPACED = (
    "onnxruntime.capi.onnxruntime_pybind11_state.Fail:[ONNXRuntimeError]:1:FAIL:Node(Split_1)Op (Split) "
    "[ShapeInferenceError] Neither 'split' input nor 'numOutputs' attribute has been given"
)
"""The dev message of onnx-split18 as its paste spaced it (messages.jsonl)."""

HEADERS = {
    "Python logging": (
        "2024-05-01 10:22:31,123 - root - ERROR - ",
        "2024-05-01 10:22:32,456 - root - ERROR - ",
    ),
    "bracketed time": ("[2024-05-01 10:22:31] ", "[2024-05-01 10:22:32] "),
    "bracketed time, level": ("[2025-01-01 12:00:00,123] ERROR ", "[2025-01-01 12:00:01,123] ERROR "),
    "glog": ("E0501 10:22:31.123456  1234 main.cc:42] ", "E0501 10:22:31.123999  1234 main.cc:57] "),
    "logcat": ("E/native  (12345): ", "E/native  (12345): "),
    "logcat threadtime": (
        "05-01 10:22:31.123  1234  1280 E native  : ",
        "05-01 10:22:31.124  1234  99 E native  : ",
    ),
    "Android Studio": (
        "2025-02-26 07:44:51.491 11521-11552 native   com.example.app   E  ",
        "2025-02-26 07:44:51.492 11521-11552 native   com.example.app   E  ",
    ),
    "Docker": ("web-1  | ", "web-1  | "),
    "journalctl": ("May 01 10:22:31 gpu-host python3[4321]: ", "May 01 10:22:32 gpu-host python3[4321]: "),
    "CI runner": ("2024-05-01T10:22:31.1234567Z ", "2024-05-01T10:22:31.1334567Z "),
    "torchrun": ("[rank0]: ", "[rank0]: "),
}
"""Each grammar's header on two lines (a time, a thread or a line number differing between them)."""


@pytest.mark.parametrize("grammar", HEADERS)
def test_each_loggers_header_before_every_line_is_read_without_it(grammar: str) -> None:
    first, second = HEADERS[grammar]
    text = f'{first}Traceback (most recent call last):\n{second}  File "x.py", line 3, in main'
    assert as_printed(text) == 'Traceback (most recent call last):\n  File "x.py", line 3, in main'


def test_a_known_header_is_removed_from_a_single_line_too() -> None:
    assert as_printed(f"E0501 10:22:31.123456  1234 main.cc:42] {ORT_OBJECT}") == ORT_OBJECT
    assert as_printed(f"2024-05-01T10:22:31.1234567Z {ORT_OBJECT}") == ORT_OBJECT


def test_a_prefix_of_no_known_grammar_seen_on_one_line_is_kept() -> None:
    for text in ("web-1  | failed to load", "worker 12: failed to load", "[12:00:01] failed to load"):
        assert as_printed(text) is text


def test_a_repeated_prefix_of_no_known_grammar_needs_a_time_or_a_column() -> None:
    assert as_printed("[12:00:01] first\n[12:00:02] second") == "first\nsecond"
    assert as_printed("job 12: first\njob 12: second") == "job 12: first\njob 12: second"


@pytest.mark.parametrize(
    "text",
    (
        "E RKNN: [10:22:31.123] failed to submit!\nE RKNN: [10:22:31.124] failed to submit!",
        "[E:onnxruntime:, sequential_executor.cc:318 Execute] Non-zero status code\n[E:onnxruntime:, x",
        "[TRT] 10:22:31 Error Code 4: Internal Error\n[TRT] 10:22:32 Error Code 4: Internal Error",
        "[ERROR] GE(14535,atc.bin):2023-08-14-15:22:33.123.456 [graph.cc:123]14535 Run: a\n"
        "[ERROR] GE(14535,atc.bin):2023-08-14-15:22:33.123.457 [graph.cc:123]14535 Run: b",
        "W/TFLite  (12345): Failed to apply delegate\nW/TFLite  (12345): Falling back to CPU",
        "2024-10-13 16:56:14,218 - 230 - ERROR - Encountered Error: The following operators are not",
    ),
)
def test_a_tools_own_prefix_is_kept(text: str) -> None:
    assert as_printed(text) == text


def test_the_tools_prefix_after_a_loggers_header_is_kept() -> None:
    text = "[12:00:01] E RKNN: failed to submit!\n[12:00:02] E RKNN: failed to submit!"
    assert as_printed(text) == "E RKNN: failed to submit!\nE RKNN: failed to submit!"


def test_crlf_line_ends_and_a_header_before_each_line() -> None:
    text = (
        "2024-05-01 10:22:31,123 - root - ERROR - first\r\n2024-05-01 10:22:31,124 - root - ERROR - 2nd\r\n"
    )
    assert as_printed(text) == "first\n2nd\n"


def test_a_terminals_cut_of_a_line_with_its_header_is_joined_back() -> None:
    header = "E0918 18:03:22.582442 11896 infer.py:160] "
    line = header + "Shape [-1 -1 -1  3] is not fully defined for output 0 of image_tensor, use --input_shape"
    assert as_printed(hard_wrap(line)) == line[len(header) :]


def test_an_indented_line_keeps_its_indentation_under_a_header() -> None:
    text = "[2024-05-01 10:22:31]     at Foo.bar(Foo.java:12)\n[2024-05-01 10:22:31] Caused by: x"
    assert as_printed(text) == "    at Foo.bar(Foo.java:12)\nCaused by: x"


PREFIX_FORMS = tuple(name for name in PASTES if "prefix" in name)


@pytest.mark.parametrize("form", PREFIX_FORMS)
@pytest.mark.parametrize("message", (ORT_OBJECT, MO_REPLACER, TRT_AXIS))
def test_each_prefix_form_finds_the_same_answer(kb: KnowledgeBase, message: str, form: str) -> None:
    before = kb.lookup(message, top=1)[0]
    after = kb.lookup(PASTES[form](message), top=1)[0]
    assert "pattern" in before.reason
    assert after.entry.id == before.entry.id
    assert after.captures == before.captures


def test_captures_are_shown_as_the_user_had_them(kb: KnowledgeBase) -> None:
    pasted = "E/native  (12345): RuntimeError: Unable to handle object of type <class \u2018float\u2019>"
    m = kb.lookup(pasted, top=1)[0]
    assert dict(m.captures)["arg"] == "<class \u2018float\u2019>"
    typographic = (("arg", "<class \u2018float\u2019>"),)
    assert captures_as_pasted((("arg", "<class 'float'>"),), pasted) == typographic


@pytest.mark.parametrize(
    ("spaced", "printed"),
    (
        (
            "[E: onnxruntime: Default, tensorrt_execution_provider.h: 51 onnxruntime::TensorrtLogger::log] x",
            "[E:onnxruntime:Default, tensorrt_execution_provider.h:51 onnxruntime::TensorrtLogger::log] x",
        ),
        ("[E:onnxruntime: , executor.cc:318 Execute] x", "[E:onnxruntime:, executor.cc:318 Execute] x"),
        ("Fail:[ONNXRuntimeError]:1:FAIL:Node(S)", "Fail:[ONNXRuntimeError] : 1 : FAIL : Node(S)"),
        ("[ONNXRuntimeError]: 2: INVALID_ARGUMENT: Got", "[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Got"),
        ("[FUNC: Run][FILE: range.cc][LINE: 113]", "[FUNC:Run][FILE:range.cc][LINE:113]"),
        ("Exception: [ErrorCode: InvalidArgument] x", "Exception: [ErrorCode:InvalidArgument] x"),
        (
            "1: [stdArchiveReader.cpp:: StdArchiveReader:: 35]",
            "1: [stdArchiveReader.cpp::StdArchiveReader::35]",
        ),
        ("Myelin ([cask.cpp: exec: 972] Platform", "Myelin ([cask.cpp:exec:972] Platform"),
    ),
)
def test_a_tools_tag_spaced_another_way_is_read_as_printed(spaced: str, printed: str) -> None:
    assert as_printed(spaced) == printed
    assert as_printed(printed) is printed


def test_the_unspaced_ort_status_is_read_by_its_entrys_pattern(kb: KnowledgeBase) -> None:
    status = next(m for m in kb.lookup(ORT_UNSPACED, top=3) if m.entry.id == "onnxruntime-1-FAIL")
    assert "pattern" in status.reason.split("+")
    assert dict(status.captures)["reason"].startswith("Node(Split_1)Op (Split)")


def test_the_log_scan_and_the_paste_share_one_header_grammar() -> None:
    assert scan._LOG_HEADER is paste.LOG_HEADER
    assert scan._LOG_HEADER.sub("", "May 01 10:22:31 gpu-host python3[4321]: x failed", count=1) == "x failed"


def test_a_paste_of_many_header_shapes_reads_the_first_ones_only() -> None:
    tags = [f"t{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(paste.MAX_HEADER_SHAPES + 2)]
    lines = [f"E/{tag}  ( 1234): failed to load" for tag in tags]
    bare = as_printed("\n".join(lines)).split("\n")
    assert bare[: paste.MAX_HEADER_SHAPES] == ["failed to load"] * paste.MAX_HEADER_SHAPES
    assert bare[paste.MAX_HEADER_SHAPES :] == lines[paste.MAX_HEADER_SHAPES :]
