"""The log scanner on realistic layouts: prefixes, indented reports after unrelated lines, shared headers."""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log

QNN = (
    "     0.0ms [ ERROR ] QnnDsp <E> Failed to load skel, error: 4000\n"
    "     0.0ms [ ERROR ] QnnDsp <E> Transport layer setup failed: 14001\n"
)
NOISE = "Epoch 3: loss=0.012 acc=0.93 errors_corrected=0\n"


def starts(kb: KnowledgeBase, text: str) -> list[int]:
    return sorted(n for p in scan_log(io.BytesIO(text.encode()), kb) for n in p.line_numbers)


def test_an_indented_error_after_an_unrelated_line_is_its_own_report(kb: KnowledgeBase) -> None:
    # the noise line carries "error" (errors_corrected) and is a candidate; the QNN lines are indented
    found = starts(kb, "[INFO] begin\n" + NOISE + QNN)
    assert 3 in found and 2 not in found


def test_an_indented_detail_still_joins_its_header(kb: KnowledgeBase) -> None:
    text = 'Traceback (most recent call last):\n  File "run.py", line 3, in <module>\n'
    problems = scan_log(io.BytesIO(("[INFO] x\n" + text + "RuntimeError: boom\n").encode()), kb)
    assert all(len(p.block) != 1 or p.first_line_no != 3 for p in problems)


@pytest.mark.parametrize(
    "prefix",
    [
        "2024-05-17 18:46:14.123 ",
        "E0517 18:46:14.000123  4242 runner.cc:88] ",
        "[pid 4242] ",
        "\x1b[31m",
        "worker-3\t",
    ],
)
def test_prefixed_lines_are_found(kb: KnowledgeBase, prefix: str) -> None:
    line = "[TRT] [E] 3: [executionContext.cpp::setInputShape::2037] Error Code 3: API Usage Error (x)"
    log = "".join(f"{prefix}[INFO] step {i} done\n" for i in range(30)) + prefix + line + "\n"
    assert starts(kb, log) == [31]


def test_rknn_error_level_without_an_error_word_is_found(kb: KnowledgeBase) -> None:
    log = "I RKNN: set log level to 0\nE RKNN: [19:07:42.147] buffer overflow!!!\nAborted (core dumped)\n"
    assert 2 in starts(kb, log)


def test_reports_sharing_a_first_line_are_told_apart(kb: KnowledgeBase) -> None:
    a = 'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n'
    b = (
        "Traceback (most recent call last):\n"
        '  File "rknn/api/rknn_base.py", line 624, in rknn.api.rknn_base.RKNNBase.build\n'
        "    E Exception: RKNN init failed. error code: RKNN_ERR_MODEL_INVALID\n"
    )
    assert 3 in starts(kb, a + b)


def test_a_traceback_is_read_with_its_frames_and_its_exception(kb: KnowledgeBase) -> None:
    log = (
        "[INFO] start\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.10/site-packages/onnxsim/onnx_simplifier.py", line 120, in simplify\n'
        "    model_opt = run(model)\n"
        '  File "/opt/venv/lib/python3.10/site-packages/onnx/optimizer.py", line 40, in optimize\n'
        "    out = C.optimize(model_str, passes)\n"
        "KeyError: 'shape'\n"
        "[INFO] done\n"
    )
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.first_line_no for p in problems] == [2]
    assert problems[0].block[-1] == "KeyError: 'shape'" and len(problems[0].block) == 4
    assert problems[0].matches[0].entry.family == "onnxsim"


def test_a_coloured_ascend_code_line_is_found_and_reported_without_colour(kb: KnowledgeBase) -> None:
    log = (
        "[INFO] x\n\x1b[31mE19010: No parser is registered for Op [Foo_1, optype [ai.onnx::11::Foo]].\x1b[0m"
    )
    log += "\n"
    problems = scan_log(io.BytesIO(log.encode()), kb)
    assert [p.first_line_no for p in problems] == [2]
    assert problems[0].text.startswith("E19010:") and "\x1b" not in problems[0].text
