"""Issue 23: a message buried in a log the way real logs hold it is still found, and noise is not reported.

The layouts: a terminal's hard wrap (the cue word on another piece than the tool's name), a progress bar
redrawn with carriage returns on the message's line, kilobytes of data before the message on its line,
CRLF line ends.  The messages were written for this test from the tools' formats, not copied from the
evaluation set.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumpscope.core.knowledge import KnowledgeBase, load_kb, scan_log
from dumpscope.core.knowledge.scan import LONG_LINE, MAX_LINE, WRAP_WIDTHS

RKNN = "E load_onnx: ValueError: Unsupport onnx opset 19, need <= 12! Please check the model opset version."
ASCEND = "E19010: No parser is registered for Op [Foo_1, optype [ai.onnx::11::FooBar]]."
NOISE = [f"[INFO] {i}: loading weights from /models/net_{i}.bin" for i in range(40)]


def scan(kb: KnowledgeBase, lines: list[str], newline: str = "\n") -> list[int]:
    text = newline.join(lines) + newline
    return sorted(n for p in scan_log(io.BytesIO(text.encode()), kb) for n in p.line_numbers)


def wrap(line: str, width: int) -> list[str]:
    return [line[i : i + width] for i in range(0, len(line), width)]


@pytest.mark.parametrize("width", sorted(WRAP_WIDTHS))
def test_a_message_wrapped_by_the_terminal_is_found_on_its_pieces(kb: KnowledgeBase, width: int) -> None:
    head = "[14:48:58] /home/u/MNN/tools/converter/source/common/writeFb.cpp:687:"
    message = head.ljust(width - 6) + "These Op Not Support: ONNX::Foo | ONNX::Bar"
    pieces = wrap(message, width)
    assert len(pieces) > 1 and "support" not in pieces[0].lower()
    found = scan(kb, NOISE + pieces + NOISE)
    assert found and all(41 <= n <= 40 + len(pieces) for n in found)


def test_wrapped_pieces_are_reported_once(kb: KnowledgeBase) -> None:
    pieces = wrap(RKNN + " error error error", 80)
    problems = scan_log(io.BytesIO(("\n".join(NOISE + pieces) + "\n").encode()), kb)
    assert len(problems) == 1 and problems[0].line_numbers == [41]
    assert problems[0].matches[0].entry.family == "rknn"


def test_a_message_behind_a_progress_bar_redrawn_with_cr_is_found(kb: KnowledgeBase) -> None:
    bar = "".join(f"{p:3d}%|{'#' * (p // 10):10s}| {p}/100\r" for p in (3, 50, 97))
    found = scan(kb, NOISE + [bar + RKNN] + NOISE)
    assert found == [41]


@pytest.mark.parametrize("message", [RKNN, ASCEND])
def test_a_message_after_kilobytes_of_data_on_its_line_is_found(kb: KnowledgeBase, message: str) -> None:
    line = "[" + "0.1234, " * 8750 + "] " + message
    assert LONG_LINE < len(line) and MAX_LINE < len(line)
    assert scan(kb, NOISE + [line] + NOISE) == [41]


def test_crlf_line_ends_change_nothing(kb: KnowledgeBase) -> None:
    assert scan(kb, NOISE + [RKNN] + NOISE, "\r\n") == scan(kb, NOISE + [RKNN] + NOISE) == [41]


def test_long_data_lines_without_an_error_are_not_reported(kb: KnowledgeBase) -> None:
    data = "[" + "0.1234, " * 8750 + "]"
    assert scan(kb, NOISE + [data, "x" * 80, "y" * 80, "done"] + NOISE) == []


@settings(max_examples=25, deadline=None)
@given(width=st.sampled_from(sorted(WRAP_WIDTHS)), cut=st.integers(min_value=1, max_value=60))
def test_wrapping_anywhere_finds_the_same_tool(kb: KnowledgeBase, width: int, cut: int) -> None:
    """Wherever the wrap falls in the message, the scan finds it and names the same tool as unwrapped."""
    message = ("x" * cut + " " + RKNN)[:width] + ("x" * cut + " " + RKNN)[width:]
    problems = scan_log(io.BytesIO(("\n".join(NOISE + wrap(message, width)) + "\n").encode()), kb)
    whole = scan_log(io.BytesIO(("\n".join(NOISE + [message]) + "\n").encode()), kb)
    assert [p.matches[0].entry.family for p in problems] == [p.matches[0].entry.family for p in whole]


def test_two_unmatched_reports_in_a_row_are_retried_as_one(tmp_path: Path) -> None:
    """A header without a colon and its unindented detail line: apart they match nothing specific,
    joined they match the entry's pattern, reported at the header's line."""
    entry = {
        "id": "two-lines",
        "family": "acme",
        "tool": "ACME NPU compiler",
        "stage": "convert",
        "code": "",
        "keys": [],
        "pattern": r"(?P<a>\d+) aborted (?P<b>\d+) in (?P<c>\d+)\s{1,4}"
        r"(?P<d>\d+) zorbix (?P<e>\d+) quellen (?P<f>\d+) not ready",
        "cause": "The tile allocator ran out of SRAM on the named core during scheduling.",
        "fix": "Lower the batch size or split the graph.",
        "source": "our wiki",
    }
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    kb = load_kb(extra=[path], user_dir=tmp_path / "none")
    log = "\n".join([*NOISE[:5], "job 4 aborted 2 in 9", "1 zorbix 2 quellen 3 not ready", *NOISE[:5]])
    problems = scan_log(io.BytesIO((log + "\n").encode()), kb)
    assert [(p.first_line_no, p.matches[0].entry.id) for p in problems] == [(6, "two-lines")]
    assert problems[0].block == ("job 4 aborted 2 in 9", "1 zorbix 2 quellen 3 not ready")


def test_a_warning_that_a_requested_provider_is_not_available_is_a_problem(kb: KnowledgeBase) -> None:
    """Round 8: onnxruntime's Python warning (onnxruntime_inference_collection.py) when the requested
    execution provider is missing is found in a log: it carries no error word but "not in available"."""
    warning = (
        "UserWarning: Specified provider 'FooExecutionProvider' is not in available provider names."
        "Available providers: 'CPUExecutionProvider'"
    )
    assert scan(kb, [*NOISE, warning, *NOISE]) == [len(NOISE) + 1]
