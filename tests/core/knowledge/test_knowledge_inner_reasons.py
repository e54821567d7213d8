"""The reason a message states leads its answer, not the wrapper, checklist or card around it (issue 23).

Three classes of the hand draws (s28f): a checklist entry (a file that is no ONNX protobuf: a truncated
download, an LFS pointer, another format...) answered a message whose own details pick one case
(:func:`.kb.narrower_first`); a tool's card answered a message whose inner line names the reason (an uncaught
C++ exception's ``what():``, a legacy shape check, an empty ``OrtValue``); a card over a reason any tool's
Python code prints (an attribute read on ``None``).  Each test uses a dev message or a vendor's wording."""

from __future__ import annotations

from typing import Any

import pytest

from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.kb import Match, narrower_first

PARSING = "Protobuf parsing failed."


def _top(kb: KnowledgeBase, text: str) -> Any:
    return kb.lookup(text, top=1)[0]


# --- a subcase keyed on the message's details outranks its checklist ---------------------------------------


def test_a_model_file_of_another_format_gets_the_not_onnx_case(kb: KnowledgeBase) -> None:
    text = "[ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Load model from weights/best.pt failed:" + PARSING
    top = _top(kb, text)
    assert top.entry.id == "onnxruntime-s28f-protobuf-not-an-onnx-file"
    assert "weights/best.pt" in top.cause and ".pt file" in top.cause and "torch.onnx.export" in top.fix


def test_an_onnx_file_that_does_not_parse_keeps_the_checklist(kb: KnowledgeBase) -> None:
    text = "[ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Load model from models/decoder.onnx failed:" + PARSING
    assert _top(kb, text).entry.id == "onnxruntime-protobuf-parsing-failed"


def _entry(i: str, pattern: str, family: str = "onnx") -> Entry:
    return Entry(i, "t", "run", "c", "f", "s", pattern=pattern, family=family)


def _match(e: Entry, score: float, captures: tuple[tuple[str, str], ...]) -> Match:
    return Match(entry=e, score=score, reason="pattern", captures=captures)


def test_narrower_first_moves_only_a_covering_match_that_read_more() -> None:
    text = "load of m.pt failed: bad bytes"
    broad = _match(_entry("broad", r"load of (?P<path>\S+) failed"), 50.0, (("path", "m.pt"),))
    narrow_entry = _entry("narrow", r"load of (?P<path>\S+\.(?P<value>pt)) failed: bad")
    narrow = _match(narrow_entry, 45.0, (("path", "m.pt"), ("value", "pt")))
    out = {m.entry.id: m.score for m in narrower_first([broad, narrow], text)}
    assert out["narrow"] > out["broad"]
    # Another tool's entry, or one that reads a part the other did not, is not a subcase of it.
    other = _match(
        _entry("other", r"load of (?P<path>\S+\.(?P<value>pt)) failed", "rknn"), 45.0, narrow.captures
    )
    assert {m.entry.id: m.score for m in narrower_first([broad, other], text)}["broad"] == 50.0
    sideways = _match(_entry("side", r"failed: (?P<detail>bad) bytes"), 45.0, (("detail", "bad"),))
    assert {m.entry.id: m.score for m in narrower_first([broad, sideways], text)}["broad"] == 50.0
    # An entry that read nothing is found by its own wording: another's generic parts do not refine it
    # (TensorRT's plugin-enqueue entry under the internal-assertion entry's file and condition).
    literal = _match(_entry("literal", r"load of m\.pt failed"), 50.0, ())
    assert {m.entry.id: m.score for m in narrower_first([literal, narrow], text)}["literal"] == 50.0
    # The same part with another value is another reading, not a narrower one.
    elsewhere = _match(narrow_entry, 45.0, (("path", "n.pt"), ("value", "pt")))
    assert {m.entry.id: m.score for m in narrower_first([broad, elsewhere], text)}["broad"] == 50.0


@pytest.mark.parametrize("order", [0, 1])
def test_narrower_first_does_not_depend_on_the_order_of_its_input(order: int) -> None:
    text = "load of m.pt failed: bad bytes"
    broad = _match(_entry("broad", r"load of (?P<path>\S+) failed"), 50.0, (("path", "m.pt"),))
    narrow = _match(
        _entry("narrow", r"load of (?P<path>\S+\.(?P<value>pt)) failed"),
        45.0,
        (("path", "m.pt"), ("value", "pt")),
    )
    given = [broad, narrow] if order == 0 else [narrow, broad]
    assert sorted((m.entry.id, m.score) for m in narrower_first(given, text)) == [
        ("broad", 44.0),
        ("narrow", 45.0),
    ]


# --- a card answering a message whose inner line names the reason -------------------------------------------


def test_a_legacy_shape_check_under_an_uncaught_exception_names_the_layer(kb: KnowledgeBase) -> None:
    """Dev thread opencv/opencv#15094: OpenVINO's family card answered it."""
    text = (
        "terminate called after throwing an instance of "
        "'InferenceEngine::details::InferenceEngineException'\n"
        "  what():  Failed to infer shapes for Convolution layer (410) with error: New shapes "
        "[257,1,128,128] make Kernels(3x3), Channels(1), Output depth(64), Groups(1) not matching weights "
        "size: 576 vs 1728\n"
        "Aborted (core dumped)"
    )
    top = _top(kb, text)
    assert top.entry.id == "openvino-s28a-ie-reshape-infer-failed"
    assert "layer 410 (Convolution)" in top.cause and "576 vs 1728" in top.cause


def test_an_empty_ortvalue_read_as_a_tensor_is_named(kb: KnowledgeBase) -> None:
    """Dev thread pipeless-ai/pipeless#151: onnxruntime's family card answered it."""
    text = (
        "terminate called after throwing an instance of 'onnxruntime::OnnxRuntimeException'\n"
        "  what():  /home/user/onnxruntime/include/onnxruntime/core/framework/ort_value.h:85 const T& "
        "OrtValue::Get() const [with T = onnxruntime::Tensor] IsTensor() was false. Trying to get a Tensor, "
        "but got: (null)"
    )
    top = _top(kb, text)
    assert top.entry.id == "onnxruntime-s28f-ortvalue-not-a-tensor"
    assert "(null)" in top.cause and "IsTensor()" in top.fix


def test_rknn_s_dynamic_inputs_refusal_leads_over_its_wrapper(kb: KnowledgeBase) -> None:
    """Dev thread rockchip-linux/rknn-toolkit#193: the load_onnx wrapper's checklist answered it."""
    text = (
        "W python -m rknn.bin.freeze_inshape_for_onnx_model -h\n"
        "E Loading dynamic inputs model is not support, please fix it first\n"
        "E Catch exception when loading onnx model: /data/model.onnx!\n"
        "E Traceback (most recent call last):\n"
        'E   File "rknn/api/rknn_log.py", line 323, in rknn.api.rknn_log.RKNNLog.e\n'
        "E ValueError: Loading dynamic inputs model is not support, please fix it first"
    )
    top = _top(kb, text)
    assert top.entry.id == "rknn-s28f-load-onnx-dynamic-inputs"
    assert "freeze_inshape_for_onnx_model" in top.fix


# --- reasons any tool prints, under a wrapper or a card -----------------------------------------------------


def test_an_attribute_read_on_none_says_the_earlier_step_failed(kb: KnowledgeBase) -> None:
    """A tool's card over Python's AttributeError on None (dev thread openvinotoolkit/nncf#2374's wording)."""
    text = (
        "openvino\nTraceback (most recent call last):\n"
        '  File "/x/zz_helper.py", line 9, in go\n'
        "    storage = getattr(replica.zz, NAME)\n"
        "AttributeError: 'NoneType' object has no attribute 'zz'"
    )
    top = _top(kb, text)
    assert top.entry.family == "openvino"
    assert "is None" in top.cause and ".zz" in top.cause
