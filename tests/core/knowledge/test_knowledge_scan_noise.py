"""Issue 23: benign log lines that mention errors are not reported, and a message next to them is still
found where it starts.  The lines were written for this test from the loggers' formats (glog, Python
logging, TensorRT's logger, tqdm), not copied from the evaluation set."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from dumpscope.core.knowledge import KnowledgeBase, load_kb, scan_log

ASCEND = "E19010: No parser is registered for Op [Foo_1, optype [ai.onnx::11::FooBar]]."
BENIGN = [
    "INFO:root:eval step 7: error_rate=0.0 mAP=0.41 (0 errors, 0 warnings)",
    "I1128 12:00:05.123456  4242 session.cc:17] Validation finished: 0 errors, 3 samples skipped",
    "Running: converter --error-limit 3 --fail-fast=false --input model_17.onnx",
    "[I] [TRT] Tactic 17 time 0.03 ms; skipping tactics that failed before: none",
    "retry_on_failure=False assert_finite=True error_threshold=1e-3",
    "W1128 12:00:05.123456  4242 cache.cc:17] cache miss for key 17, recomputing",
    "\x1b[32m[INFO]\x1b[0m layer 17 fused with layer 3; no errors",
    "Epoch 3: loss=0.012 acc=0.93 errors_corrected=0 no failures",
]


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_kb(user_dir=Path("/nonexistent-dumpscope-test"))


def starts(kb: KnowledgeBase, lines: list[str]) -> list[int]:
    text = "\n".join(lines) + "\n"
    return sorted(n for p in scan_log(io.BytesIO(text.encode()), kb) for n in p.line_numbers)


def test_error_words_in_names_counts_and_informational_lines_are_not_problems(kb: KnowledgeBase) -> None:
    assert starts(kb, BENIGN * 3) == []


@pytest.mark.parametrize(
    "line",
    [
        "[E] [TRT] Tactic 17 failed: skipping it",  # the same words at an error level
        "[TRT] Conversion failed: retry_on_failure is not set",  # an error word outside the name
        "RKNN_ERR_FAIL returned by the runtime",  # an upper-case name is a code
    ],
)
def test_the_same_words_outside_names_or_at_an_error_level_are_found(kb: KnowledgeBase, line: str) -> None:
    assert starts(kb, [*BENIGN, line, *BENIGN]) == [len(BENIGN) + 1]


@pytest.mark.parametrize("before", BENIGN)
def test_a_code_line_behind_a_progress_bar_after_a_benign_line_is_its_own_problem(
    kb: KnowledgeBase, before: str
) -> None:
    """The bar's first piece is indented and the code line has no error word: it must neither be read as
    the benign line's continuation nor hide behind the bar's pieces."""
    bar = "".join(f"{p:3d}%|{'#' * (p // 10):10s}| {p}/100 [00:01<00:02]\r" for p in (3, 50, 97))
    found = starts(kb, ["[INFO] start", before, " " * 2 + bar + ASCEND, "[INFO] done"])
    assert found == [3]


def test_a_line_glued_to_a_message_as_wide_as_a_terminal_is_reported_where_the_message_starts(
    kb: KnowledgeBase,
) -> None:
    """A message line of exactly 120 columns without a cue word, then a benign line with one: the two are
    read as one wrapped line, and the problem starts on the message's line, not on the benign one."""
    message = "Window after dilation has dimension (dim: 2) larger than the data shape after padding (dim: 1)"
    line = ("[2025-01-01T12:00:00Z] " + message).ljust(120)
    assert len(line) == 120
    found = starts(kb, ["[INFO] start", line, BENIGN[2], "[INFO] done"])
    assert found == [2]
