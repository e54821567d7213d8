"""Issue 23 (s26f): messages the log scan missed for their prefix or their form, buried in real noise.

Classes of dev scan misses (``eval_explain.py --leave-source-out --scan --misses``), each fixed in the
scanner, not for one text:

- Android logcat's header (``E/tag( pid): ``, ``threadtime``'s ``MM-DD hh:mm:ss.mmm pid tid E tag: ``) hid the
  level and the tool's own form behind it: it is now a log header, its level an error, a warning or an
  informational level;
- VS Code's debugger copies an exception as ``Exception has occurred: ImportError`` (no error form);
- a broken rule stated without an error word and split at a space by a logger (``Nodes in a graph must`` /
  ``be topologically sorted:``) is joined when an entry's pattern matches it whole (not at an informational or
  warning level), as the line read whole is found;
- a C++ check that failed says so without an error word: sentencepiece's ``CHECK`` (``file.cc(88) [cond]
  message``) and TFLite's ``TF_LITE_ENSURE_EQ`` (``file.cc:82 a != b (15840 != 0)``, which carries no cue word
  at all: `` != `` is one now).

The first examples are dev records of the evaluation set (their threads named); the others were written for
these tests in the same forms with made-up contents.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.eval_explain import WARNING_LINE, real_noise
from dumpscope.core.knowledge import Entry, KnowledgeBase, scan_log
from dumpscope.core.knowledge.scan import CUES, RULE, Problem, _joined_rule_needs, error_shaped

EMPTY = KnowledgeBase([])
"""No entry: what the scan reports is found by the message's form alone (as for a message no entry knows)."""
NOISE = real_noise()
RUN = 40


def scan(kb: KnowledgeBase, lines: list[str]) -> list[Problem]:
    return scan_log(io.BytesIO(("\n".join(lines) + "\n").encode()), kb)


DEV = {
    # github.com/google/flutter-mediapipe/issues/56 (round30, dev)
    "logcat": [
        "E/native  (32156): E0000 00:00:1721895466.207241    1280 llm_engine.cc:68] NOT_FOUND: "
        "ValidatedGraphConfig Initialization failed.",
        "E/native  (32156): No registered object with name: TokenizerCalculator; Unable to find Calculator "
        '"TokenizerCalculator"',
    ],
    # github.com/open-edge-platform/anomalib/issues/485 (round29, dev)
    "debugger": [
        "Exception has occurred: ImportError",
        "DLL load failed while importing ie_api: The specified module could not be found.",
    ],
    # github.com/tensorflow/tensorflow/issues/19026 (round29, dev)
    "ensure": ["tensorflow/contrib/lite/simple_memory_arena.cc:82 it->size != alloc.size (15840 != 0)"],
    # github.com/openvinotoolkit/openvino_tokenizers/issues/37 (round30, dev)
    "check": [
        "sentence_piece.cpp(88) [_status.ok()] Internal: C:\\Jenkins\\workspace\\b\\_deps"
        "\\sentencepiece-src\\src\\sentencepiece_processor.cc(1055) "
        "[!IsUnknown(PieceToId(absl::string_view(model_->bos_piece().data())))] id for `<s>` is not defined.",
        "Program terminated with an unrecoverable error.",
    ],
}


@pytest.mark.parametrize("shift", [0, 501, 1703])
@pytest.mark.parametrize("name", sorted(DEV))
def test_a_dev_message_buried_in_real_noise_is_found_by_its_form(name: str, shift: int) -> None:
    noise = NOISE[shift : shift + RUN]
    found = scan(EMPTY, [*noise, *DEV[name], *noise])
    assert found and found[0].first_line_no == RUN + 1
    assert all(RUN < p.first_line_no <= RUN + len(DEV[name]) and not p.confident for p in found)


@pytest.mark.parametrize("name", sorted(DEV))
def test_a_dev_message_buried_in_real_noise_is_found_with_the_whole_kb(kb: KnowledgeBase, name: str) -> None:
    found = scan(kb, [*NOISE[:RUN], *DEV[name], *NOISE[RUN : 2 * RUN]])
    starts = {n for p in found for n in p.line_numbers}
    assert starts & set(range(RUN + 1, RUN + 1 + len(DEV[name])))
    assert all(RUN < n <= RUN + len(DEV[name]) for n in starts if not _warning_noise(found, n))


def _warning_noise(found: list[Problem], line_no: int) -> bool:
    """The real noise holds warnings that some entries were written for (reported by their pattern)."""
    return any(line_no in p.line_numbers and WARNING_LINE.search(p.text) is not None for p in found)


UNSEEN = [
    ["E/frobnative( 4242): widget graph setup failed on node 7"],
    ["E/FrobEngine  ( 4242): E0000 00:00:1764331214.323456    4280 frob_engine.cc:68] widget setup failed."],
    ["11-28 12:00:00.123 E/FrobEngine( 4242): widget graph setup failed on node 7"],
    ["11-28 12:00:00.123  4242  4280 E FrobEngine: widget graph setup failed on node 7"],
    ["F/libfrob ( 4242): frob_widget.cc:42 Check failed: rank == 4"],
    ["Exception has occurred: FrobError", "the widget frobnicator stopped on node 7"],
    [
        "Exception has occurred: FrobError       (note: full exception trace is shown but execution is "
        "paused at: <module>)",
        "the widget frobnicator stopped on node 7",
    ],
    ["frob_widget.cpp(42) [_status.ok()] Internal: src/frob.cc(7) [!IsFrob(w)] id for `<w>` is not defined."],
    ["src/frob/widget_arena.cc:82 it->size != alloc.size (4242 != 0)"],
    ["frob/kernels/widget.cc:117 NumInputs(node) != 2 (3 != 2)"],
]


@pytest.mark.parametrize("lines", UNSEEN, ids=lambda lines: lines[0][:30])
def test_an_error_in_these_forms_is_found_and_names_no_tool(lines: list[str]) -> None:
    noise = NOISE[900 : 900 + RUN]
    found = scan(EMPTY, [*noise, *lines, *noise])
    assert [(p.first_line_no, p.confident, p.matches) for p in found] == [(RUN + 1, False, [])]
    assert found[0].block[0] == lines[0].strip()


BENIGN = [
    "I/frobnative( 4242): widget init failed over to the CPU; no error",
    "D/FrobEngine( 4242): Failed to find a cached frob plan; building one",
    "W/frobnative( 4242): Failed to frob widget 7; retrying",
    "11-28 12:00:00.123  4242  4280 I FrobEngine: frob failed over to the CPU",
    "11-28 12:00:00.123  4242  4280 W FrobEngine: Unable to use the widget delegate; using the CPU",
    "Exception has occurred: 3 times in 10 runs",
    "frob/kernels/widget.cc:117 widget 7 ready",
    "if (a != b) { frob(); }  // widget.cc:117",
    "frob/widget.cc:117 kept a != b (7 != 7)? no",
]


@pytest.mark.parametrize("line", BENIGN)
def test_look_alikes_of_these_forms_are_no_error(line: str) -> None:
    assert not error_shaped([line])
    assert scan(EMPTY, [*NOISE[:RUN], line, *NOISE[:RUN]]) == []


def test_the_failed_comparison_is_a_cue() -> None:
    assert b" != " in CUES


LOGCAT_LEVELS = ("V", "D", "I", "W")


@settings(max_examples=40, deadline=None)
@given(
    start=st.integers(min_value=0, max_value=len(NOISE) - 1),
    size=st.integers(min_value=1, max_value=120),
    level=st.sampled_from(("", *LOGCAT_LEVELS)),
    threadtime=st.booleans(),
)
def test_real_noise_alone_reports_nothing_also_behind_a_logcat_header(
    start: int, size: int, level: str, threadtime: bool
) -> None:
    """Any run of the real noise, as it is or behind logcat's header below the error level, holds no error."""
    lines = (NOISE + NOISE)[start : start + size]
    if level:
        header = (
            f"11-28 12:00:00.123  4242  4280 {level} FrobTag: " if threadtime else f"{level}/FrobTag( 4242): "
        )
        lines = [header + line for line in lines]
    assert scan(EMPTY, lines) == []


RULE_KB = KnowledgeBase(
    [
        Entry(
            id="frob-widgets-sorted",
            tool="frob",
            stage="check",
            cause="c",
            fix="f",
            source="s",
            family="onnx",
            pattern=r"Widgets in a frob must be sorted by rank",
        )
    ]
)
"""One entry for a broken rule stated without an error word (as onnx's ``Nodes in a graph must be
topologically sorted``, round7's dev record of github.com/ZhangGe6/onnx-modifier/issues/61)."""


@pytest.mark.parametrize("shift", [0, 13, 27])
def test_a_rule_split_at_a_space_is_found_joined_by_its_pattern(shift: int) -> None:
    """A logger split the line at a space (``... must be`` / ``sorted by rank:``): joined, the entry's
    pattern matches it, as it matches the line read whole; the rule carries no error word."""
    noise = NOISE[shift : shift + RUN]
    found = scan(RULE_KB, [*noise, "Widgets in a frob must be", "sorted by rank:", *noise])
    assert [(p.first_line_no, p.matches[0].entry.id) for p in found] == [(RUN + 1, "frob-widgets-sorted")]


@pytest.mark.parametrize("head", ["[I] Widgets in a frob must be", "[W] Widgets in a frob must be"])
def test_a_rule_split_at_an_informational_or_warning_level_is_not_joined(head: str) -> None:
    found = scan(RULE_KB, [*NOISE[:RUN], head, "sorted by rank:", *NOISE[:RUN]])
    assert found == []


def test_what_a_joined_line_needs() -> None:
    assert _joined_rule_needs(["Widgets in a frob must be sorted"], "Widgets in a frob must be") == RULE
    assert _joined_rule_needs(["[I] Widgets in a frob must be sorted"], "[I] Widgets in a frob must be") == ()
    assert _joined_rule_needs(["[W] Widgets must be sorted"], "[W] Widgets must be") == ()
    assert "partial" in _joined_rule_needs(["Widget 7 failed to load"], "Widget 7 failed")
