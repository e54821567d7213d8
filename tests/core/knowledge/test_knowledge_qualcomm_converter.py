"""Qualcomm's converter and runtime wording from its own sources: the QNN/SNPE converters' TranslationBank
errors (qti.aisw.converters' converter_ir/translation.py: "No translation registered for op type X",
"Converter does not support 'X' op type", a translation without a method), the skel-loading card naming the
QNN error number it captured, and a Genie call's status printed as a number.  The messages are our own, in
the tools' formats (op types and numbers of our choosing), never an evaluation message.
"""

from __future__ import annotations

import pytest

from bench.eval_explain import specific
from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.codes import extract_codes
from dumpscope.core.knowledge.qnn_codes import GENIE_STATUS_NAMES


@pytest.mark.parametrize(
    ("message", "entry_id", "op_type"),
    [
        (
            "KeyError: 'No translation registered for op type onnx_gridsample.'",
            "no-translation",
            "onnx_gridsample",
        ),
        ("raise KeyError: No translation registered for op type tf_cumprod", "no-translation", "tf_cumprod"),
        ("KeyError: \"Converter does not support 'Atanh' op type\"", "no-translation", "Atanh"),
        (
            "KeyError: \"Translation for 'onnx_roialign' does not define an indexed method 'INFER_SHAPE'\"",
            "translation-method-missing",
            "onnx_roialign",
        ),
        (
            "NotImplementedError: ADD_OP method not found for op type onnx_nonmaxsuppression.",
            "method-not-found",
            "onnx_nonmaxsuppression",
        ),
    ],
)
def test_a_converter_translation_error_names_its_op_type(
    kb: KnowledgeBase, message: str, entry_id: str, op_type: str
) -> None:
    top = kb.lookup(message, top=1)[0]
    assert top.entry.family == "qualcomm"
    assert entry_id in top.entry.id, top.entry.id
    assert dict(top.captures)["op_type"] == op_type
    assert op_type in top.cause and op_type in top.fix
    assert specific(top) == (True, ""), specific(top)


def test_the_older_converters_full_sentence_still_answers_qualcomm(kb: KnowledgeBase) -> None:
    text = (
        "No translation registered for op type HardSwish. Op is most likely not supported by the converter."
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "qualcomm"
    assert dict(top.captures).get("op_type") == "HardSwish"


@pytest.mark.parametrize(
    "text",
    [
        "Converter does not support dynamic shapes.",  # no quoted op type: not the converter's sentence
        "Converter does not support 'int4' quantization",
    ],
)
def test_other_does_not_support_sentences_are_not_the_converters(kb: KnowledgeBase, text: str) -> None:
    by_pattern = [m for m in kb.lookup(text, top=5) if "pattern" in m.reason]
    assert all("qualcomm-converter-" not in m.entry.id for m in by_pattern)


@pytest.mark.parametrize("number", ["1008", "4000", "0x3e8"])
def test_the_skel_card_names_the_number_it_captured(kb: KnowledgeBase, number: str) -> None:
    top = kb.lookup(f"QnnDsp <E> Failed to load skel, error: {number}", top=1)[0]
    assert top.entry.id == "qualcomm-failed-to-load-skel"
    assert dict(top.captures)["value"] == number  # the capture stops at the number
    assert f"error {number}" in top.cause and f"error {number}" in top.fix
    assert specific(top) == (True, ""), specific(top)


@pytest.mark.parametrize(("number", "name"), sorted(GENIE_STATUS_NAMES.items()))
def test_a_genie_status_number_after_a_genie_call_is_its_status(
    kb: KnowledgeBase, number: int, name: str
) -> None:
    text = f"E MyApp : GenieDialog_query returned: {number}"
    assert [c.key for c in extract_codes(text)] == [f"genie:{name}"]
    top = kb.lookup(text, top=1)[0]
    assert f"genie:{name}" in top.entry.keys, top.entry.id


@pytest.mark.parametrize(
    "text",
    [
        "GenieDialog_query returned: 0",  # GENIE_STATUS_SUCCESS
        "GenieDialog_query returned: 4",  # a warning, no failure
        "Genie status: -99",  # no status of GenieCommon.h
        "grep returned: -1",  # no Genie call
    ],
)
def test_numbers_that_are_no_genie_error_are_no_code(text: str) -> None:
    assert not [c for c in extract_codes(text) if c.key.startswith("genie:")]


def test_the_genie_table_is_genie_commons_error_block() -> None:
    assert sorted(GENIE_STATUS_NAMES) == list(range(-14, 0))
    assert all(name.startswith("GENIE_STATUS_ERROR_") for name in GENIE_STATUS_NAMES.values())


@pytest.mark.parametrize(
    ("message", "tensor"),
    [
        ("[WARNING] [Qnn ExecuTorch]: PreRegisterMem failed to get file descriptor.", ""),
        (
            "[WARNING] [Qnn ExecuTorch]: Tensor name input_0_tokens_0 failed to get file descriptor.",
            "input_0_tokens_0",
        ),
        (
            "[WARNING] [Qnn ExecuTorch]: Tensor name output_logits is failed to get file descriptor.",
            "output_logits",
        ),
    ],
)
def test_executorchs_shared_buffer_without_a_file_descriptor(
    kb: KnowledgeBase, message: str, tensor: str
) -> None:
    top = kb.lookup(message, top=1)[0]
    assert top.entry.id == "qualcomm-executorch-custom-mem-no-file-descriptor"
    assert "QnnExecuTorchAllocCustomMem" in top.fix
    if tensor:
        assert dict(top.captures)["tensor"] == tensor and tensor in top.cause and tensor in top.fix
    assert specific(top) == (True, ""), specific(top)
