"""A pasted message read as its tool printed it (:mod:`dumpscope.core.knowledge.paste`): the forms a terminal,
a forum or an editor give a message undone before the look-up, and the bench's paste forms
(bench/paste_forms.py).  The messages are dev records' (no held-out text is read)."""

from __future__ import annotations

import pytest

from bench.paste_forms import PASTES, hard_wrap, html_entities, markdown_quote, measure, smart_quotes
from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.paste import as_printed, captures_as_pasted

ORT_OBJECT = "RuntimeError: Unable to handle object of type <class 'float'>"
"""microsoft/onnxruntime#1166 (dev)."""
COREML_CONST = (
    'Error during Core ML conversion: (\'Op "706" (op_type: conv_transpose) Input weight must be const at '
    "compile time', 'weight', 'wi_center')"
)
"""nipponjo/deepfillv2-pytorch#18 (dev)."""
MO_REPLACER = (
    '[ ERROR ]  Exception occurred during running replacer "REPLACEMENT_ID" (<class \'extensions.front.'
    "user_data_repack.UserDataRepack'>): No node with name Conv_416"
)
"""ultralytics/yolov5#5533 (dev)."""
ONNXSIM_PASS = (
    "RuntimeError: /project/third_party/onnx-optimizer/onnxoptimizer/passes/eliminate_shape_gather.h:48: "
    "runTransform: Assertion 'indices_val < dims.size()' failed."
)
"""Xiaobin-Rong/gtcrn#3 (dev)."""
MESSAGES = (ORT_OBJECT, COREML_CONST, MO_REPLACER, ONNXSIM_PASS)
COREML_NOTEBOOK = (
    '{\n\t"name": "ValueError",\n\t"message": "Op \\"identity_1\\" (op_type: identity) '
    'Input x=\\"classLabel_probs\\" expects list, tensor, or scalar but got dict[str,fp64]",'
)
"""apple/coremltools' issue of round33.jsonl:18 (dev): VS Code's copy of a notebook's error output, cut after
its message."""

UNDONE = (
    "spaces doubled",
    "spaces collapsed",
    "tabs between words",
    "no-break spaces",
    "CRLF line ends",
    "Markdown quote",
    "HTML entities",
    "smart quotes",
    "colour codes",
    "notebook error output",
)
"""The forms :func:`as_printed` undoes whole (a hard wrap only where the cut falls inside a word or on a space
before a lower-case word: see the tests below)."""


def test_a_text_without_paste_forms_is_returned_as_it_is() -> None:
    text = "E10001: Value [NCWH] for parameter [--input_format] is invalid.\n    indented: a b &amp x"
    assert as_printed(text) is text


def test_crlf_line_ends_read_as_lf() -> None:
    assert as_printed("first line\r\nsecond line") == "first line\nsecond line"


def test_markdown_quote_marks_are_removed_when_every_line_carries_them() -> None:
    assert as_printed("> first\n>\n> > second") == "first\n\n> second"
    assert as_printed("> > first\n> > second") == "first\nsecond"
    assert as_printed("first\n> second") == "first\n> second"  # not a quoted block


def test_pythons_prompt_is_no_quote_mark() -> None:
    assert as_printed(">>> import onnx\n>>> onnx.load(p)") == ">>> import onnx\n>>> onnx.load(p)"


def test_html_entities_are_decoded() -> None:
    assert as_printed("got &lt;class &#39;float&#x27;&gt; &quot;x&quot; a &amp;&amp; b") == (
        "got <class 'float'> \"x\" a && b"
    )


def test_incomplete_or_control_entities_are_left_alone() -> None:
    text = "see https://example.com/?a=1&para=2 and &#0; and &bogus;"
    assert as_printed(text) == text


def test_typographic_quotes_and_spaces_read_as_plain_ones() -> None:
    assert as_printed("type \u2018float\u2019 and \u201cx\u201d\u00a0y\u200bz") == "type 'float' and \"x\" yz"


def test_space_runs_between_words_read_as_one_space_and_indentation_stays() -> None:
    assert as_printed("a  b\tc \t d\n    indented  e") == "a b c d\n    indented e"


def test_a_terminals_hard_wrap_is_joined_back() -> None:
    line = "x" * 100 + " tail of the line"
    assert as_printed(hard_wrap(line)) == line
    assert as_printed(hard_wrap(line, 120)) == line


def test_a_line_as_wide_as_a_terminal_before_a_record_stays_apart() -> None:
    text = "a" * 80 + "\n[E] a new record\n" + "=" * 80 + "\nbelow the banner"
    assert as_printed(text) == text
    indented = "a" * 80 + '\n  File "x.py", line 3, in main'
    assert as_printed(indented) == indented


@pytest.mark.parametrize(
    "below", ("Failed to init the model", "parseModel: Failed to parse UFF model", " - Input(s) dynamic", "}")
)
def test_a_tools_own_next_line_after_a_line_as_wide_as_a_terminal_stays_apart(below: str) -> None:
    text = "x" * 99 + "y\n" + below
    assert as_printed(text) == text
    assert as_printed("x" * 99 + "'\nrkllm init failed") == "x" * 99 + "'\nrkllm init failed"


@pytest.mark.parametrize("form", UNDONE)
@pytest.mark.parametrize("message", MESSAGES)
def test_each_paste_form_finds_the_same_entry(kb: KnowledgeBase, message: str, form: str) -> None:
    before = kb.lookup(message, top=1)[0]
    assert "pattern" in before.reason
    assert kb.lookup(PASTES[form](message), top=1)[0].entry.id == before.entry.id


def test_the_answer_reads_the_message_as_printed(kb: KnowledgeBase) -> None:
    found = kb.answer(html_entities(ORT_OBJECT), top=1)
    assert found.confidence == "high"
    assert dict(found.matches[0].captures)["arg"] == "<class 'float'>"


def test_captures_are_the_printed_text(kb: KnowledgeBase) -> None:
    m = kb.lookup(markdown_quote(smart_quotes(COREML_CONST)), top=1)[0]
    assert dict(m.captures)["op"] == "706"


def test_measure_counts_the_records_whose_top_entry_changed(kb: KnowledgeBase) -> None:
    record = {"message": ORT_OBJECT, "family": "onnxruntime", "split": "dev"}
    found = [(record, kb.lookup(ORT_OBJECT, top=1)[0])]
    changed = measure(kb, found, {"same": lambda m: m, "other": lambda m: "E10001: Value [x] is invalid."})
    assert changed["same"] == []
    assert len(changed["other"]) == 1 and changed["other"][0][2] == "ascend"


def test_a_capture_keeps_the_pastes_quotes_and_spaces() -> None:
    pasted = "reason: The data couldn\u2019t  be read\r\nnext"
    assert captures_as_pasted((("detail", "The data couldn't be read"),), pasted) == (
        ("detail", "The data couldn\u2019t  be read"),
    )
    assert captures_as_pasted((("op", "other"),), pasted) == (("op", "other"),)  # not in the paste: as read


def test_a_tools_own_typographic_quote_stays_in_the_advice(kb: KnowledgeBase) -> None:
    message = (
        "[backend_delegate.mm:288] [Core ML] Model init failed The data couldn\u2019t be read because it is "
        "missing.\n[coreml_backend_delegate.mm:193] CoreMLBackend: Failed to init the model."
    )
    m = kb.lookup(message, top=1)[0]
    assert dict(m.captures)["detail"] == "The data couldn\u2019t be read because it is missing."


def test_a_notebooks_error_output_is_read_as_python_printed_it(kb: KnowledgeBase) -> None:
    assert as_printed(COREML_NOTEBOOK) == (
        '{\n\n\tValueError: Op "identity_1" (op_type: identity) Input x="classLabel_probs" '
        "expects list, tensor, or scalar but got dict[str,fp64]"
    ).replace("\t", "")
    m = kb.lookup(COREML_NOTEBOOK, top=1)[0]
    assert (m.entry.id, dict(m.captures)["op"]) == ("coreml-op-input-expects-type", "identity_1")


def test_a_notebooks_stack_replaces_its_message_and_loses_its_colour_codes() -> None:
    text = (
        '{\n "name": "RuntimeError",\n "message": "boom",\n'
        ' "stack": "\\u001b[0;31mRuntimeError\\u001b[0m Traceback'
        '\\n\\u001b[0;31mRuntimeError\\u001b[0m: boom"\n}'
    )
    assert as_printed(text) == "{\n\n\nRuntimeError Traceback\nRuntimeError: boom\n}"
    ipynb = '"ename": "KeyError",\n"evalue": "\'Conv_0\'",'
    assert as_printed(ipynb) == "\nKeyError: 'Conv_0'"


def test_a_field_that_is_no_json_string_is_left_as_pasted() -> None:
    text = '"message": "a \\q b",'
    assert as_printed(text) == text


def test_a_terminals_colour_codes_are_removed() -> None:
    assert as_printed("\x1b[1;31mE RKNN:\x1b[0m bad") == "E RKNN: bad"
