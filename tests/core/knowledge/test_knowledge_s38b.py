"""s38b: a neighbouring card reached by a partial match is no answer (core/knowledge/neighbours.py).

The messages are dev messages of tests/data/explain (round25.jsonl:52, round36.jsonl:5, round38.jsonl:23) or
built from the KB's own entries' texts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.neighbours import cut_in_quote, missing_terms, own_reason
from dumpscope.core.knowledge.words import tokens
from dumpscope.tui.cli import main as cli
from dumpscope.tui.cli.commands.explain import NEIGHBOUR, RELATED

MEDIAPIPE_CPU_CHECK = (
    "2024-04-09 18:25:38.304  3468-3678  native                  com.example.scigemma"
    "                 A  F0000 00:00:1712658338.304137    3678 llm_inference_engine_cpu.cc:263] Failed to "
    "create session: INTERNAL: ; RET_CHECK failure (mediapipe/tasks/cc/genai/inference/c/"
    'llm_inference_engine_cpu.cc:180) (backend)==("cpu")'
)
"""round25.jsonl:52 (dev): MediaPipe's signature card's phrase ``RET_CHECK failure (`` over a backend
check."""
RULE = "+---------+---------+" + "-" * 81 + "+"
OPENVINO_WRAPPED = "\n".join(
    [
        RULE,
        "| Model   | Version | Status" + " " * 74 + "|",
        RULE,
        "| mylayer | 1       | UNAVAILABLE: Internal: openvino error in reading network : "
        "Cannot create MyLaye |",
        "|         |         | r layer MyLayer_5 id:1 from unsupported opset: extension" + " " * 24 + "|",
        RULE,
    ]
)
"""round36.jsonl:5 (dev): OpenVINO's opset card, its pattern broken by the table's wrap, every word there."""
TORCH_ONNX_CUT = (
    '  File "env_python_obstacle_detection\\Lib\\site-packages\\torch\\onnx\\utils.py", line 1967, in '
    "_run_symbolic_function\n    raise errors.UnsupportedOperatorError(\n"
    "torch.onnx.errors.UnsupportedOperatorError: Exporting the operator 'aten::_upsample_bilinear2d_aa"
)
"""round38.jsonl:23 (dev): a paste cut inside the operator's quoted name."""
UNKNOWN_IN_RUN = "Encountered unknown exception in Run()"


def _without(kb: KnowledgeBase, *ids: str) -> KnowledgeBase:
    return kb.without(i for i, e in enumerate(kb.entries) if e.id in ids)


def test_a_partial_neighbour_gives_way_to_its_tools_card_quoting_the_reason(kb: KnowledgeBase) -> None:
    found = kb.lookup(MEDIAPIPE_CPU_CHECK, top=3)
    first, second = found[0], found[1]
    assert first.entry.id == "family-tflite+message-reason-line"
    assert first.entry.family == "tflite" and not first.neighbour
    assert '(backend)==("cpu")' in first.cause and "The message states its own reason" in first.cause
    assert "llm_inference_engine_cpu.cc" in dict(first.captures)["file"]
    assert "signature" not in first.cause  # the neighbour's case is not said as this message's
    assert second.entry.id == "tflite-mediapipe-llm-missing-signature"
    assert second.neighbour and second.reason == "partial" and second.score == first.score
    assert [m.entry.id for m in found].count("family-tflite") == 0  # the card answers once, first


def test_the_json_answer_says_the_related_cards_steps_are_not_this_messages(kb: KnowledgeBase) -> None:
    out = kb.answer(MEDIAPIPE_CPU_CHECK, top=3).to_dict()
    matches = out["matches"]
    assert out["confident"] and out["basis"] == "partial"
    assert matches[0]["id"] == "family-tflite+message-reason-line" and matches[0]["neighbour"] is False
    assert matches[1]["id"] == "tflite-mediapipe-llm-missing-signature"
    assert matches[1]["neighbour"] is True and matches[1]["related"] is True
    assert matches[1]["reason"] == "partial"
    assert '(backend)==("cpu")' in matches[0]["captures"]["detail"]


def test_the_text_answer_marks_the_neighbour_under_the_reason_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DUMPSCOPE_CONFIG_DIR", str(tmp_path / "config"))
    cli.main(["explain", MEDIAPIPE_CPU_CHECK, "--top", "2"])
    out = capsys.readouterr().out
    first, second = out.split("\n2. ", 1)
    assert '(backend)==("cpu")' in first and "matched by partial+pattern" in first
    assert "matched by partial;" in second and NEIGHBOUR in second and RELATED not in second
    assert "get_signature_list" in second  # still listed, whole
    cli.main(["explain", MEDIAPIPE_CPU_CHECK, "--json", "--top", "2"])
    assert [m["neighbour"] for m in json.loads(capsys.readouterr().out)["matches"]] == [False, True]


def test_a_session_creation_card_is_no_answer_to_an_exception_in_run(kb: KnowledgeBase) -> None:
    view = _without(kb, "onnxruntime-unknown-exception-in-run")
    found = view.lookup(UNKNOWN_IN_RUN, top=3)
    assert found[0].entry.id == "family-onnxruntime+message-reason-line"
    assert f'"{UNKNOWN_IN_RUN}"' in found[0].cause
    assert found[1].entry.id == "ortm2-unknown-exception-in-load-init" and found[1].neighbour


def test_a_partial_match_whose_words_are_all_in_the_message_is_unchanged(kb: KnowledgeBase) -> None:
    first = kb.lookup(OPENVINO_WRAPPED, top=3)[0]
    assert first.entry.id == "openvino-ir-unsupported-opset" and first.reason == "partial"
    assert not any(m.neighbour for m in kb.lookup(OPENVINO_WRAPPED, top=3))


def test_a_partial_match_of_a_paste_cut_inside_a_quoted_name_is_unchanged(kb: KnowledgeBase) -> None:
    first = kb.lookup(TORCH_ONNX_CUT, top=3)[0]
    assert first.entry.id == "torch-onnx-unsupported-operator" and first.reason == "partial"
    assert not first.neighbour


def test_a_full_match_is_unchanged(kb: KnowledgeBase) -> None:
    found = kb.lookup("Encountered unknown exception in Initialize()", top=3)
    assert found[0].entry.id == "ortm2-unknown-exception-in-load-init" and found[0].reason == "pattern"
    assert ("value", "Initialize") in found[0].captures
    assert not any(m.neighbour for m in found)


def test_missing_terms_are_the_required_words_the_message_never_says(kb: KnowledgeBase) -> None:
    e = next(e for e in kb.entries if e.id == "ortm2-unknown-exception-in-load-init")
    low = UNKNOWN_IN_RUN.lower()
    assert missing_terms(e, low, tokens(UNKNOWN_IN_RUN)) == {"initialize", "loadwithloader"}
    held = "Encountered unknown exception in Initialize()"
    assert missing_terms(e, held.lower(), tokens(held)) == frozenset()


def test_cut_in_quote_and_own_reason() -> None:
    assert cut_in_quote("Exporting the operator 'aten::_upsample_bil")
    assert cut_in_quote("line one\nType of input parameter (conf_thres) of operator (NonMaxSuppression")
    assert not cut_in_quote("Encountered unknown exception in Run()")
    assert not cut_in_quote("it doesn't load")
    truncated = "ValueError: Load model failed because the file is truncated"
    assert own_reason(truncated) == "the file is truncated"
    assert own_reason("RuntimeError: Building TensorRT engine failed") == "Building TensorRT engine failed"
    assert own_reason("   ") == ""
