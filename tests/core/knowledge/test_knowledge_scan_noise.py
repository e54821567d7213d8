"""Issue 23: benign log lines that mention errors are not reported, and a message next to them is still
found where it starts.  The lines were written for this test from the loggers' formats (glog, Python
logging, TensorRT's logger, tqdm), not copied from the evaluation set."""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, scan_log

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
    "Requirement already satisfied: onnx>=1.14 in ./venv/lib/python3.10/site-packages (1.16.0)",
    "[INFO] 17 out of 100 layers fused; expected speed-up 1.3x",
    "Note: inputs should be normalised to [0, 1]; the required mean/std come from config_17.yaml",
]


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


def test_every_error_word_holds_a_cue() -> None:
    """A line is looked up only when it holds a cue: an error word that held none could never be read."""
    from dumpscope.core.knowledge.scan import CUES, ERROR_WORDS

    assert [w for w in ERROR_WORDS if not any(c.decode() in w + " " for c in CUES)] == []


@pytest.mark.parametrize(
    "message",
    [
        "Resize scales must be an initializer!",
        "Network must have at least one output",
        "Required inputs (images) are missing from input feed (images).",
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc",
        "The address for VEC to read/write UB is out of bounds",
    ],
)
def test_a_message_without_an_error_word_is_found_by_its_constraint_words(
    kb: KnowledgeBase, message: str
) -> None:
    """Messages that state a broken rule (must, should, required, out of ...) rather than an error; found by
    their own pattern (a wording-only match on such a line still needs an error word)."""
    lines = message.split("\n")
    problems = scan_log(io.BytesIO(("\n".join([*BENIGN, *lines, *BENIGN]) + "\n").encode()), kb)
    assert [p.first_line_no for p in problems] == [len(BENIGN) + 1]
    assert any("pattern" in m.reason or "code" in m.reason for m in problems[0].matches)


@pytest.mark.parametrize(
    "message",
    [
        'The shape of input "images" has dynamic size, please set an input shape manually with '
        "--test-input-shape",
        "Inferred shape and existing shape differ in rank: (2) vs (3)",
        "CUDA driver version is insufficient for CUDA runtime version",
        "RKNN_ERR_TIMEOUT",
        "relay.concatenate requires all tensors have the same dtype",
    ],
)
def test_advice_differences_and_bare_vendor_codes_are_looked_up(kb: KnowledgeBase, message: str) -> None:
    problems = scan_log(io.BytesIO(("\n".join([*BENIGN, message, *BENIGN]) + "\n").encode()), kb)
    assert [p.first_line_no for p in problems] == [len(BENIGN) + 1]


@pytest.mark.parametrize(
    "header",
    [
        "E1128 12:00:00.123456  1234 session.cc:112] ",
        "2025-01-01 12:00:00,123 - converter - ERROR - ",
        "ERROR:converter:",
        "[2025-01-01T12:00:00.123Z] ",
        "[rank3]: 2025-01-01 12:00:00.123456 ",
    ],
)
def test_a_short_message_behind_a_generic_logger_header_is_found_as_without_it(
    kb: KnowledgeBase, header: str
) -> None:
    """MSVC's assertion dialog title is found by its wording; a logger's header words (file names, the
    logger's name) would drown it, so a report that matches nothing is read again without them."""
    message = "Debug Assertion Failed!"
    assert starts(kb, [*BENIGN, message, *BENIGN]) == [len(BENIGN) + 1]
    assert starts(kb, [*BENIGN, header + message, *BENIGN]) == [len(BENIGN) + 1]


def test_a_tool_prefix_is_not_a_generic_header() -> None:
    from dumpscope.core.knowledge.scan import _LOG_HEADER

    for line in (
        "E RKNN: failed",
        "[E:onnxruntime:Default, x.cc:1 f] bad",
        "[TRT] [E] 3: x",
        "E19010: No parser",
    ):
        assert _LOG_HEADER.sub("", line, count=1) == line
