"""A family card over a message that states its own reason, and sentences broken by a missing part (s30b).

* When nothing but a tool's family card answers, the message's own reason line (an exception's text, a failed
  check with its file and line) leads, whole (:func:`.clauses.reason_line_answered`,
  :func:`.reasons.reason_line`); a message with no such line (a cut traceback, only a location, only how the
  process ended) keeps the card; what the card was found by, and so how sure the answer is, stays.
* A part that took a common English word where a name is expected (``listed``, ``the``, ``below``) is no
  name: it is said as missing (:func:`.words.is_common_word`).
* Every entry's and clause's cause and fix, rendered with its parts missing, has no hole in its grammar
  (``bench/audit_renders.py``).

Each example is a dev message or a vendor's own format with made-up values."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.audit_renders import BROKEN, broken_renders, clause_entries
from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.answer import confidence_of
from dumpscope.core.knowledge.clauses import REASON_LINE_ID, reason_line_answered
from dumpscope.core.knowledge.entry import entry_from_dict
from dumpscope.core.knowledge.kb import Match, fill
from dumpscope.core.knowledge.reasons import CHECK, CONSEQUENCE, MAX_REASON_LINE, named_parts, reason_line
from dumpscope.core.knowledge.words import COMMON_WORDS, NAMING_PARTS, is_common_word

# dev round30.jsonl:31 (RKNN-Toolkit2's Cython frames, then the exception)
RKNN_NAME_ERROR = (
    "File rknn/api/rknn_base.py:24, in init rknn.api.rknn_base()\n\n"
    "File rknn/api/graph_optimizer.py:1, in init rknn.api.graph_optimizer()\n\n"
    "NameError: name 'exit' is not defined"
)
# dev round30.jsonl:36 (OpenVINO's tokenizer extension: a sentencepiece status check)
OPENVINO_CHECK = (
    "sentence_piece.cpp(88) [_status.ok()] Internal: C:\\Jenkins\\workspace\\private-ci\\ie\\"
    "build-windows-vs2019@2\\b\\tmp\\tmpwymvb8fg\\build\\_deps\\sentencepiece-src\\src\\"
    "sentencepiece_processor.cc(1055) [!IsUnknown(PieceToId(absl::string_view(model_->bos_piece().data())))] "
    "id for `<s>` is not defined.\nProgram terminated with an unrecoverable error."
)
# dev round34.jsonl: only progress, version lines and how the process ended
RKNN_SIGFPE = (
    "Analysing : 100%|█████| 268/268 [00:00<00:00, 4775.95it/s]\n"
    "I RKNN: librknnc version: 1.1.0b0 (8d7e25ad@2021-06-30T18:33:39)\n"
    "I RKNN: set log level to 0\n"
    "Process finished with exit code 136 (interrupted by signal 8: SIGFPE)"
)
# dev messages.jsonl: a TVM traceback cut before its exception
TVM_CUT = (
    "tvm._ffi.base.TVMError: Traceback (most recent call last):\n  40: TVMFuncCall\n"
    "  38: tvm::relay::backend::RelayBuildModule::BuildRelay(tvm::IRModule, tvm::runtime::String const&)"
)
# dev round29.jsonl: OpenVINO's exception locations with no reason after them
OPENVINO_LOCATIONS = (
    "RuntimeError: Exception from src\\inference\\src\\cpp\\core.cpp:109:\n"
    "Exception from src\\inference\\src\\dev\\plugin.cpp:54:"
)


def _top(kb: KnowledgeBase, text: str) -> Match:
    return kb.lookup(text, top=1)[0]


# --- the reason line ---------------------------------------------------------------------------------------


def test_a_traceback_s_last_exception_is_its_reason_line() -> None:
    assert reason_line(RKNN_NAME_ERROR) == "NameError: name 'exit' is not defined"
    assert named_parts(reason_line(RKNN_NAME_ERROR)) == (("value", "exit"),)


def test_a_check_line_is_the_reason_and_names_its_file_and_line() -> None:
    line = reason_line(OPENVINO_CHECK)
    assert line.startswith("sentence_piece.cpp(88) [_status.ok()] Internal:")
    assert line.endswith("id for `<s>` is not defined.")
    parts = dict(named_parts(line))
    assert (parts["file"], parts["line"]) == ("sentence_piece.cpp", "88")


@pytest.mark.parametrize(
    "text",
    [RKNN_SIGFPE, TVM_CUT, OPENVINO_LOCATIONS, "QNN VAE  dec exec failed\nQNN UNET exec failed (uncond)", ""],
)
def test_a_message_with_no_reason_of_its_own_has_no_reason_line(text: str) -> None:
    """How the process ended, frames, locations and 'step failed' summaries state no reason."""
    assert reason_line(text) == ""


def test_a_log_prefix_is_not_part_of_the_reason() -> None:
    text = "app  |   2024-01-02 10:11:12.345 [ ERROR ] Check failed: dims.size() == 4 (3 vs. 4)"
    assert reason_line(text) == "Check failed: dims.size() == 4 (3 vs. 4)"


def test_the_first_strong_line_of_a_log_leads_over_later_consequences() -> None:
    text = (
        "E0101 conv.cc:42] Check failed: filter->type == input->type (3 vs. 1)\n"
        "E0101 interpreter.cc:9] Node number 3 (CONV_2D) failed to prepare.\n"
        "Aborted (core dumped)"
    )
    assert reason_line(text).endswith("Check failed: filter->type == input->type (3 vs. 1)")


_LINE = st.text(st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=80)


@given(st.lists(_LINE, max_size=8))
def test_a_reason_line_is_always_one_of_the_message_s_own_lines(lines: list[str]) -> None:
    text = "\n".join(lines)
    found = reason_line(text)
    assert len(found) <= MAX_REASON_LINE + 4
    if found:
        assert not CONSEQUENCE.search(found)
        assert any(found.rstrip(" .") in line or found[:-4] in line for line in lines)
        assert len(found.split()) >= 3


@given(st.lists(_LINE, max_size=6), _LINE)
def test_a_consequence_line_is_never_the_reason(lines: list[str], tail: str) -> None:
    text = "\n".join([*lines, f"Aborted (core dumped) {tail}", f"Process finished with exit code 134 {tail}"])
    assert "Aborted (core dumped)" not in reason_line(text)
    assert "Process finished" not in reason_line(text)


# --- the family card answered by it ------------------------------------------------------------------------


def test_a_family_card_over_a_python_exception_says_that_exception(kb: KnowledgeBase) -> None:
    top = _top(kb, RKNN_NAME_ERROR)
    assert top.entry.id == f"family-rknn+{REASON_LINE_ID}"
    assert "\"NameError: name 'exit' is not defined\"" in top.cause
    assert "'exit'" in top.fix
    assert "RKNN(verbose=True" in top.fix  # the card's own steps stay
    assert confidence_of(top)[0] == "medium"  # known by its markers: as sure as the card was


def test_a_family_card_over_a_check_names_its_file_and_line(kb: KnowledgeBase) -> None:
    top = _top(kb, OPENVINO_CHECK)
    assert top.entry.id == f"family-openvino+{REASON_LINE_ID}"
    assert "the check at sentence_piece.cpp, line 88" in top.cause
    assert "id for `<s>` is not defined" in top.cause
    assert "Program terminated" not in top.cause


def test_a_family_card_over_a_log_line_says_where_it_was_printed_not_a_check(kb: KnowledgeBase) -> None:
    # a log line's bracketed [file:line] is where it was printed: no condition was checked there
    text = "[ERROR] OpenVINO failed at [src/plugins/intel_cpu/src/graph.cpp:894] the graph could not be built"
    top = _top(kb, text)
    assert top.entry.id == f"family-openvino+{REASON_LINE_ID}"
    assert "(printed at src/plugins/intel_cpu/src/graph.cpp, line 894)" in top.cause
    assert "condition checked" not in top.fix


def test_a_reason_line_answer_cites_the_card_s_source_once(kb: KnowledgeBase) -> None:
    top = _top(kb, RKNN_NAME_ERROR)
    card = next(e for e in kb.entries if e.id == "family-rknn")
    assert top.entry.source.count(card.source) == 1


def test_check_reads_a_bracket_only_when_it_holds_a_condition() -> None:
    assert CHECK.search("Assertion failed: [_status.ok()]")
    assert CHECK.search("[!empty()] was violated")
    assert CHECK.search("[a == b] failed")
    assert not CHECK.search("[mindspore/lite/x.cc:894] BuildGraph] Convert graph to om failed.")
    assert not CHECK.search("[2024-01-01 10:00:00] [W] something went wrong")


@pytest.mark.parametrize("text", [RKNN_SIGFPE, TVM_CUT])
def test_a_family_card_over_a_message_with_no_reason_line_stays_the_card(
    kb: KnowledgeBase, text: str
) -> None:
    top = _top(kb, text)
    assert top.entry.level == "family"


def _card(entry_id: str = "family-t") -> Entry:
    cause = "The message comes from T. It prints many things."
    return Entry(entry_id, "T", "run", cause, "Run it with logs on.", "s", family="onnx", level="family")


def test_reason_line_answered_leaves_other_answers_alone() -> None:
    text = "ValueError: The updates tensor should have shape (11,). Got (4,)"
    card = Match(_card(), 30.0, "family")
    out = reason_line_answered([card], text)[0]
    assert out.entry.id == f"family-t+{REASON_LINE_ID}"
    assert out.cause.startswith(f'The message states its own reason in this line: "{text}".')
    assert out.cause.endswith("The message comes from T.")  # the card's first sentence only
    assert out.fix.endswith("Run it with logs on.")
    assert out.reason == "family+pattern"
    by_words = reason_line_answered([card._replace(reason="words")], text)[0]
    assert by_words.reason == "words"  # as sure as wording: the floor withholds it as it did the card
    specific = Match(Entry("e", "T", "run", "c", "f", "s", pattern="x", family="onnx"), 40.0, "pattern")
    generic = Match(Entry("g", "T", "run", "c", "f", "s", family="onnx", generic=True), 40.0, "pattern")
    for other in (specific, generic, out):  # a card already answered (by this or another clause) stays
        assert reason_line_answered([other], text) == [other]
    assert reason_line_answered([card], "Aborted (core dumped)") == [card]
    assert reason_line_answered([], text) == []


def test_a_reason_line_s_braces_are_quoted_not_filled() -> None:
    text = "RuntimeError: key {op} of the map {value} is not defined"
    out = reason_line_answered([Match(_card(), 30.0, "family")], text)[0]
    assert text in out.cause


# --- common words where a name is expected -----------------------------------------------------------------


@pytest.mark.parametrize("value", ["listed", "the", "below", "following", "Node", "operators", "'listed'"])
def test_a_common_word_is_no_name(value: str) -> None:
    assert is_common_word("op", value)
    assert is_common_word("op_type2", value)
    assert not is_common_word("value", value)  # only parts that name something


@pytest.mark.parametrize("value", ["Conv_3", "listed_op", "Gather", "/model/Add", "operator()", "gemm"])
def test_a_name_is_a_name(value: str) -> None:
    assert not is_common_word("op", value)


@given(st.sampled_from(sorted(NAMING_PARTS)), st.sampled_from(sorted(COMMON_WORDS)))
def test_no_naming_part_keeps_a_common_word(name: str, word: str) -> None:
    cause = "'{" + name + "}' is not converted."
    raw = {"id": "x", "tool": "T", "stage": "run", "cause": cause, "fix": "f", "source": "s"}
    kb = KnowledgeBase([entry_from_dict({**raw, "pattern": r"op (?P<" + name + r">\w+)!"})])
    matches = kb.lookup(f"op {word}!", top=1)
    assert matches
    assert word not in dict(matches[0].captures).values()
    assert f"'{word}'" not in matches[0].cause


def test_openvino_s_unsupported_operation_with_prose_for_its_names_says_no_name(kb: KnowledgeBase) -> None:
    """OpenVINO's CPU plugin wording (src/plugins/intel_cpu/src/node.cpp) with words where its names go."""
    top = _top(kb, "Unsupported operation of type: listed name: below")
    assert top.entry.id == "openvino-unsupported-operation-cpu"
    assert "'listed'" not in top.cause and " below" not in top.cause
    assert top.cause.startswith("The CPU plugin has no implementation for the operation (or for")


# --- the render audit --------------------------------------------------------------------------------------


def test_no_entry_or_clause_renders_a_broken_sentence_with_its_parts_missing(kb: KnowledgeBase) -> None:
    found = broken_renders([*kb.entries, *clause_entries()])
    assert found == [], "\n".join(f"{i} [{c}; missing {m}]: {t[:200]}" for i, c, m, t in found[:20])


@pytest.mark.parametrize(
    ("template", "captures", "said"),
    [
        ("The ATB operation {op} failed with atb::Status {value}.", (), "with atb::Status (not shown"),
        ("for the {device} device try static shapes", (), "for the device try"),
        ("failed in {call|}{call2|} (condition: x)", (), "failed (condition: x)"),
        ("no implementation for operation {op|} of type {op_type|} (or for", (), "for the operation (or for"),
        ("An ATB communication operation {value} failed", (), "operation failed"),
    ],
)
def test_a_missing_part_leaves_no_hole(
    template: str, captures: tuple[tuple[str, str], ...], said: str
) -> None:
    text = fill(template, captures)
    assert said in text
    assert not any(rx.search(text) for rx in BROKEN.values()), text


def test_the_audit_finds_each_class_of_hole() -> None:
    """The audit's marks are no dead code: each finds the hole it names."""
    for text in (
        "a value () here",
        "a value  here",
        "kept node , here",
        "named for. Then",
        "the the node",
        "value value here",
        "a {op} left",
        "returned error the value here",
        "ran operation the node here",
    ):
        assert any(rx.search(text) for rx in BROKEN.values()), text
    assert not any(re.search(rx, "The node Conv_3 (type Conv) was asked for, then") for rx in BROKEN.values())


# --- the reason line looked up alone ------------------------------------------------------------------------


def test_a_reason_line_answered_by_an_entry_when_looked_up_alone_takes_that_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """:meth:`.kb.KnowledgeBase.reason_line_searched`: the line alone may reach an entry the whole log's
    ranking left under the card (a pattern anchored at its line's start, behind a log prefix); only a specific
    entry of the card's tool (or of text any tool prints) found there by its pattern replaces the card."""
    kb = KnowledgeBase([])
    line = "Zorblax quuxed conv1 fully: invalid shape"
    text = f"I RKNN: librknnc version: 1.1.0\napp  |   {line}"
    card = Match(
        Entry(f"family-rknn+{REASON_LINE_ID}", "RKNN", "run", "c", "f", "s", family="rknn"),
        30.0,
        "family+pattern",
        (("detail", line),),
    )

    def entry(family: str, **kw: object) -> Entry:
        return Entry("e", "T", "run", "Layer {op} was quuxed.", "f", "s", pattern="x", family=family, **kw)  # type: ignore[arg-type]

    specific = Match(entry("rknn"), 40.0, "pattern", (("op", "conv1"),))
    asked: list[str] = []

    def lookup(inner: list[Match]):  # type: ignore[no-untyped-def]
        def _lookup(message: str, top: int) -> list[Match]:
            asked.append(message)
            return inner

        return _lookup

    monkeypatch.setattr(kb, "_lookup", lookup([specific]))
    assert kb.reason_line_searched([card], text) == [specific]
    assert asked == [line]
    runtime = Match(entry("runtime"), 40.0, "pattern")
    monkeypatch.setattr(kb, "_lookup", lookup([runtime]))
    assert (
        kb.reason_line_searched([card], text)[0].score == card.score
    )  # text any tool prints: the card's rank
    for other in (
        specific._replace(entry=entry("tensorrt")),
        specific._replace(reason="words"),
        specific._replace(entry=entry("rknn", level="family")),
        specific._replace(entry=entry("rknn", generic=True)),
        card,
    ):
        monkeypatch.setattr(kb, "_lookup", lookup([other]))
        assert kb.reason_line_searched([card], text) == [card]
    monkeypatch.setattr(kb, "_lookup", lookup([specific]))
    assert kb.reason_line_searched([card], line) == [card]  # the line is the whole message: nothing new
    plain = card._replace(entry=entry("rknn"))
    assert kb.reason_line_searched([plain], text) == [plain]
