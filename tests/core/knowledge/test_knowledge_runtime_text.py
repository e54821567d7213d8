"""Issue 23: text any tool prints (Python, glibc, NumPy, the OS, CUDA) answered as such.

The messages are written for this test from the printers' own formats: CPython's import system
(``No module named '%U'``) and ``OSError`` strings (``[Errno %d] %s: %R``), glibc's ``malloc_printerr``
texts (malloc/malloc.c), NumPy's C-API import failure and its removed-alias ``AttributeError``, the
shells' signal reports and CUDA's ``cudaErrorAssert`` string.
"""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import KnowledgeBase


@pytest.mark.parametrize(
    ("message", "entry_id", "captured"),
    [
        ("ModuleNotFoundError: No module named 'rknn'", "runtime-python-module-missing", ("value", "rknn")),
        ("ImportError: No module named tensorrt", "runtime-python-module-missing", ("value", "tensorrt")),
        ("double free or corruption (out)", "runtime-glibc-heap-corruption", None),
        ("free(): invalid pointer\nAborted (core dumped)", "runtime-glibc-heap-corruption", None),
        ("malloc(): corrupted top size", "runtime-glibc-heap-corruption", None),
        ("Aborted (core dumped)", "runtime-abort", None),
        ("Bus error (core dumped)", "runtime-bus-error", None),
        ("OSError: [Errno 28] No space left on device", "runtime-no-space-left", None),
        (
            "FileNotFoundError: [Errno 2] No such file or directory: 'weights/model.onnx'",
            "runtime-python-file-not-found",
            ("path", "weights/model.onnx"),
        ),
        (
            "PermissionError: [Errno 13] Permission denied: '/data/out.om'",
            "runtime-permission-denied",
            ("path", "/data/out.om"),
        ),
        ("ImportError: numpy.core.multiarray failed to import", "runtime-numpy-abi", None),
        (
            "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.1 as it may crash.",
            "runtime-numpy-abi",
            None,
        ),
        (
            "AttributeError: module 'numpy' has no attribute 'bool'",
            "runtime-numpy-removed-alias",
            ("value", "bool"),
        ),
        ("RuntimeError: CUDA error: device-side assert triggered", "runtime-cuda-device-assert", None),
        ("RuntimeError: CUDA error: out of memory", "runtime-cuda-oom", None),
    ],
)
def test_text_any_tool_prints_is_answered_as_such(
    kb: KnowledgeBase, message: str, entry_id: str, captured: tuple[str, str] | None
) -> None:
    found = kb.answer(message)
    first = found.matches[0]
    assert found.confident and first.entry.id == entry_id
    assert "(no tool named)" in first.entry.tool
    if captured is not None:
        assert captured in first.captures
        shown = found.to_dict()["matches"][0]
        assert captured[1] in shown["cause"] + shown["fix"]  # the captured value is filled into the advice


def test_a_tool_named_by_the_message_still_comes_first(kb: KnowledgeBase) -> None:
    message = "E RKNN: [10:02:11.233] failed to submit!, op id: 3\nAborted (core dumped)"
    matches = kb.answer(message).matches
    assert matches[0].entry.family == "rknn"
    abort = [m for m in matches if m.entry.id == "runtime-abort"]
    assert not abort or abort[0].score < matches[0].score


def test_a_tools_phrase_inside_python_text_is_no_partial_match_of_the_tool(kb: KnowledgeBase) -> None:
    """RKNN's calibration-list entry has the core phrase ``no such file or directory: '``; inside Python's
    own FileNotFoundError for any file it is Python's text, not a sign of RKNN (it was a medium-confidence
    second answer saying rknn.build could not open its calibration list)."""
    ranked = kb.lookup("FileNotFoundError: [Errno 2] No such file or directory: 'model.onnx'", top=10)
    assert ranked[0].entry.id == "runtime-python-file-not-found"
    assert not [m for m in ranked if m.entry.family == "rknn" and m.reason != "words"]


def test_the_tools_own_calibration_list_form_still_matches(kb: KnowledgeBase) -> None:
    ranked = kb.lookup("E RKNN: No such file or directory: './dataset.txt'", top=3)
    assert ranked[0].entry.id == "rknn-no-such-file-or-directory"
    assert ("path", "./dataset.txt") in ranked[0].captures


def test_a_protobuf_decode_error_of_no_named_type_is_not_claimed_as_onnx(kb: KnowledgeBase) -> None:
    """Any protobuf user (a Caffe prototxt, a TensorFlow graph) prints the bare text."""
    found = kb.answer("google.protobuf.message.DecodeError: Error parsing message")
    assert not (found.confident and found.matches[0].reason == "pattern")
