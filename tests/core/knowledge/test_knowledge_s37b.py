"""Session s37b: a tool's core phrase that is only a runtime entry's words is no partial match of the tool,
and onnxruntime's status form cues it when its marker is gone (most of its status names are markers
themselves: ``FAIL``, ``NO_MODEL`` and ``NOT_FOUND`` are not).

The messages are written for these tests in the tools' public forms with made-up contents; none is copied from
the evaluation set."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase
from dumpscope.core.knowledge.inner_forms import INNER_CUES, ORT_STATUS
from dumpscope.core.knowledge.kb import _plain_words, _words_within
from tests.support.inner_forms import assert_cued_alone, cued

S37B_CUES = [cue for cue in INNER_CUES if cue[2] is ORT_STATUS]


def _ids(kb: KnowledgeBase, text: str, reason: str) -> set[str]:
    return {m.entry.id for m in kb.lookup(text, top=10) if m.reason.split("+", 1)[0] == reason}


def test_the_c_librarys_strerror_is_no_partial_match_of_rknn(kb: KnowledgeBase) -> None:
    # Python's OSError text around a path that is no calibration list: RKNN's phrase is the OS's sentence
    text = "Frob export failed. Exception: [Errno 2] No such file or directory: '/tmp/frob/widget.model'"
    assert "rknn-no-such-file-or-directory" not in _ids(kb, text, "partial")
    assert all(m.entry.family != "rknn" for m in kb.lookup(text, top=3))


def test_rknns_own_sentence_still_matches_by_its_pattern(kb: KnowledgeBase) -> None:
    text = "E build: Catch exception when building RKNN!\nNo such file or directory: './frob_dataset.txt'"
    assert "rknn-no-such-file-or-directory" in _ids(kb, text, "pattern")


def test_the_loaders_undefined_symbol_is_no_partial_match_of_torch_npu(kb: KnowledgeBase) -> None:
    text = "unable to load shared library: /opt/frob/libwidget_frob.so: undefined symbol: _ZN4frob6widgetEv"
    assert not _ids(kb, text, "partial") & {
        "torch-npu-s30d-undefined-symbol-torch-mismatch",
        "ascend-s31d-cann-undefined-symbol",
    }
    assert kb.lookup(text, top=1)[0].entry.id == "runtime-undefined-symbol"


def test_torch_npus_own_library_still_matches_by_its_pattern(kb: KnowledgeBase) -> None:
    text = "ImportError: /x/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol: _ZN4frob6widgetEv"
    assert "torch-npu-s30d-undefined-symbol-torch-mismatch" in _ids(kb, text, "pattern")


@pytest.mark.parametrize(
    ("anchor", "others", "within"),
    [
        ("no such file or directory: '", ["filenotfounderror: [errno 2] no such file or directory: '"], True),
        (": undefined symbol:", ["undefined symbol:"], True),
        # the names in quotes are the tool's own: kept, so another module's attribute is not within
        ("module 'tvm' has no attribute 'relay'", ["module 'torch' has no attribute 'npu'"], False),
        # a word the runtime text lacks
        ("failed to frob the widget", ["failed to allocate the widget"], False),
        # too short to be a core phrase at all
        ("no such", ["no such file or directory"], False),
    ],
)
def test_words_within(anchor: str, others: list[str], within: bool) -> None:
    assert _words_within(anchor, [_plain_words(o) for o in others]) is within


@pytest.mark.parametrize(
    "text",
    [
        "onnxruntime_frob.Fail: [                ] : 1 : FAIL : the widget frobbed twice",
        "Frob: [                ] : 4 : NO_MODEL : the widget frobbed twice",
        "Frob: [                ] : 1 : FAIL : Load frob widget.bin failed",
    ],
)
def test_onnxruntimes_status_form_cues_it_without_its_marker(kb: KnowledgeBase, text: str) -> None:
    assert_cued_alone(kb, "onnxruntime", text, S37B_CUES)


@pytest.mark.parametrize(
    "text",
    [
        # no bracket's end before the number
        "error : 1 : FAIL : the widget frobbed",
        # a name that is not one of StatusCodeToString's
        "[frob] : 1 : FROBBED : the widget frobbed",
        # a number too long for a status code, and colons without spaces
        "[frob] : 123 : FAIL : the widget frobbed",
        "[frob]:1:FAIL:the widget frobbed",
    ],
)
def test_look_alikes_of_onnxruntimes_status_form_cue_nothing(text: str) -> None:
    assert cued(text, S37B_CUES) == []


def test_this_sessions_cue_is_onnxruntimes_alone() -> None:
    assert [(family, literal) for family, literal, _ in S37B_CUES] == [("onnxruntime", " : ")]
