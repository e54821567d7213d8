"""Qualcomm forms: hexadecimal QNN codes, HTP context-binary load failures and AI Hub's QAIRT summary.

The HTP backend prints QNN error codes in hexadecimal (``Failed to create context from binary with err
0x138d`` is QNN_CONTEXT_ERROR_CREATE_FROM_BINARY, 5005, of QnnContext.h); the code found is the header's
number, shown as the message printed it.  A device that lacks the HTP arch or VTCM a binary asks for, and a
binary newer than the runtime, answer with their own cause; AI Hub's ``QAIRT converter failed with exit code
N`` names the tool whose log holds the error."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.answer import shown_code
from dumpscope.core.knowledge.codes import extract_codes


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("QnnDsp <E> Failed to create context from binary with err 0x138d", "qnn:5005"),
        (
            "[ERROR] [Qnn ExecuTorch]: QnnDsp <E> Failed to create context from binary with err 0x3ea",
            "qnn:1002",
        ),
        ("QnnDsp <E> Failed to validate op x with error 0xc26", "qnn:0xc26"),  # keyed as printed
        ("QnnDsp <E> graph prepare failed with error 0x1f", "qnn:0x1f"),  # 31: no QNN code, kept as printed
    ],
)
def test_a_hexadecimal_qnn_code_is_the_headers_number(text: str, key: str) -> None:
    """The printed form stays a key too (a code labelled as printed is still found)."""
    keys = [c.key for c in extract_codes(text)]
    assert key in keys
    printed = "qnn:" + text.rsplit(" ", 1)[-1]
    assert printed in keys
    assert [k for k in keys if k.startswith("qnn:")] in ([printed], [printed, key])


def test_the_hexadecimal_code_answers_with_its_entry_shown_as_printed(kb: KnowledgeBase) -> None:
    top = kb.lookup("QnnDsp <E> Failed to create context from binary with err 0x138d", top=1)[0]
    assert top.entry.id == "qualcomm-qnn-5005"
    assert shown_code(top).startswith("0x138d")


@pytest.mark.parametrize(
    ("text", "entry_id", "captures"),
    [
        (
            "[ERROR] [Qnn ExecuTorch]: Request feature arch with value 75 unsupported",
            "qualcomm-htp-request-feature-unsupported",
            {"arg": "arch", "value": "75"},
        ),
        (
            "QnnDsp <E> Request feature vtcm size with value 8 unsupported",
            "qualcomm-htp-request-feature-unsupported",
            {"arg": "vtcm size", "value": "8"},
        ),
        (
            "QnnDsp <E> Using newer context binary on old SDK",
            "qualcomm-htp-context-blob-newer-than-runtime",
            {},
        ),
        (
            "<E> Can't read future blob. Newest blob version supported: 3.2.2. Current blob version: 3.3.4.",
            "qualcomm-htp-context-blob-newer-than-runtime",
            {"version": "3.2.2", "version2": "3.3.4"},
        ),
        (
            "QAIRT quantizer failed with exit code 1",
            "qualcomm-aihub-qairt-tool-exit-code",
            {"arg": "quantizer", "value": "1"},
        ),
        (
            "Model compile failed due to an internal error.\nQAIRT converter failed with exit code 2",
            "qualcomm-aihub-qairt-tool-exit-code",
            {"arg": "converter", "value": "2"},
        ),
    ],
)
def test_the_form_answers_with_its_values(
    kb: KnowledgeBase, text: str, entry_id: str, captures: dict[str, str]
) -> None:
    answer = kb.answer(text, top=3)
    top = answer.matches[0]
    assert top.entry.id == entry_id and answer.confidence == "high"
    for name, value in captures.items():
        assert dict(top.captures)[name] == value and value in top.cause + top.fix


@pytest.mark.parametrize(
    "text",
    [
        "Request feature arch with value unsupported",  # no value: not the HTP's sentence
        "Using newer model on old runtime",
        "converter failed with exit code 1",  # no QAIRT
    ],
)
def test_near_misses_are_not_pattern_matches(kb: KnowledgeBase, text: str) -> None:
    new = {
        "qualcomm-htp-request-feature-unsupported",
        "qualcomm-htp-context-blob-newer-than-runtime",
        "qualcomm-aihub-qairt-tool-exit-code",
    }
    assert not any(m.entry.id in new and m.reason.startswith("pattern") for m in kb.lookup(text, top=5))
