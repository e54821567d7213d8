"""Session 37c: entries written from the tools' own failure strings for answers that were a family card or a
follow-on line under leave-source-out.

* ncnn: ``Net::load_param``'s ``SCAN_VALUE`` prints ``parse <field> failed`` for the second line's counts and
  a layer line's fields (src/net.cpp); ``network graph not ready`` (load_model after a failed load_param) is
  a consequence, answered under the parse failure printed before it.
* OpenVINO: the legacy Model Optimizer's internal-error banner (mo/main.py's unexpected-exception path), its
  exception captured; ovc's banner with ``DETAILED INFORMATION`` stays its own entry's.

Messages here are made up around the tools' own wording (no evaluation record is copied).
"""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase

NCNN_ID = "ncnn-s37c-param-field-parse-failed"
MO_ID = "openvino-s37c-mo-internal-error-legacy-banner"


def test_a_param_count_that_cannot_be_read_names_the_field_and_the_second_line(kb: KnowledgeBase) -> None:
    top = kb.lookup("ncnn: parse blob_count failed", top=1)[0]
    assert top.entry.id == NCNN_ID
    assert dict(top.captures) == {"value": "blob_count"}
    assert "could not read the field blob_count" in top.cause
    assert "look at where blob_count should be" in top.fix and "line 2 the layer count" in top.fix


def test_a_layer_field_is_read_as_well(kb: KnowledgeBase) -> None:
    top = kb.lookup("parse bottom_count failed", top=1)[0]
    assert top.entry.id == NCNN_ID and dict(top.captures) == {"value": "bottom_count"}


def test_the_parse_failure_answers_before_network_graph_not_ready(kb: KnowledgeBase) -> None:
    text = "W  parse layer_count failed\nW  network graph not ready"
    ids = [m.entry.id for m in kb.lookup(text, top=2)]
    assert ids == [NCNN_ID, "ncnn-network-graph-not-ready"]
    magic = [m.entry.id for m in kb.lookup("parse magic failed\nnetwork graph not ready", top=1)]
    assert magic == ["ncnn-s26g-parse-magic-failed"]
    # alone it is still the answer
    assert kb.lookup("network graph not ready", top=1)[0].entry.id == "ncnn-network-graph-not-ready"


def test_other_parse_failures_are_not_ncnns(kb: KnowledgeBase) -> None:
    for text in ("parse config failed", "failed to parse layer_count", "reparse layer_counts failed"):
        assert all(m.entry.id != NCNN_ID or m.reason == "words" for m in kb.lookup(text, top=5)), text


MO_BANNER = (
    "[ ERROR ]  -------------------------------------------------\n"
    "[ ERROR ]  ----------------- INTERNAL ERROR ----------------\n"
    "[ ERROR ]  Unexpected exception happened.\n"
    "[ ERROR ]  Please contact Model Optimizer developers and forward the following information:\n"
    "[ ERROR ]  list index out of range\n"
)


def test_the_legacy_mo_banner_captures_the_exception(kb: KnowledgeBase) -> None:
    top = kb.lookup(MO_BANNER, top=1)[0]
    assert top.entry.id == MO_ID
    assert dict(top.captures) == {"detail": "list index out of range"}
    assert "with its traceback: list index out of range" in top.cause
    assert "requirements_<framework>.txt" in top.fix and "ovc or openvino.convert_model" in top.fix


def test_a_bare_banner_says_the_exception_is_not_in_the_text(kb: KnowledgeBase) -> None:
    top = kb.lookup("main.py:337] ----------------- INTERNAL ERROR ----------------", top=1)[0]
    assert top.entry.id == MO_ID and "not in the text given" in top.cause


def test_ovcs_banner_stays_with_its_own_entry_and_other_banners_are_not_mos(kb: KnowledgeBase) -> None:
    ovc = (
        "[ ERROR ]  ----------------- INTERNAL ERROR ----------------\n"
        "[ ERROR ]  Unexpected exception happened.\n"
        "[ ERROR ]  Please verify parameters and environment.\n"
        "[ ERROR ]  -------------- DETAILED INFORMATION -------------\n"
        "[ ERROR ]  No module named 'torch'\n"
    )
    assert kb.lookup(ovc, top=1)[0].entry.id == "openvino-s25b-ovc-internal-error-banner"
    other = "console.error('----------------- INTERNAL ERROR -----------------', err)"
    assert all(m.entry.id != MO_ID or m.reason == "partial" for m in kb.lookup(other, top=5))
    # its anchor is the banner, not the words 'internal error' any tool prints
    trt = "[TRT] Error Code 2: Internal Error (Assertion failed)"
    assert all(m.entry.id != MO_ID for m in kb.lookup(trt, top=5))
