"""A Python traceback through a vendor's wrapper is answered by its innermost failure.

RKNN-Toolkit2's ``rknn.api`` steps (``load_onnx``, ``build``, ``init_runtime``) catch the exception and print
it behind their own prefix (``E build: Catch exception when building RKNN model!``, ``E build: Traceback
(most recent call last):``, the forms of ``rknn/api/rknn_log``'s ``error_catch_decorator``).  What failed is
the exception line at the end and the frame that raised it: an entry found there answers first, the step's
card (``level`` ``context``) ranks like an envelope under any specific match of its tool, and alone it says
what its step does, not what another step does."""

from __future__ import annotations

import pytest

from dumpscope.core.knowledge import Entry, KnowledgeBase
from dumpscope.core.knowledge.kb import Match, innermost_first
from dumpscope.core.knowledge.tracebacks import failures, traceback_end

BUILD = """E build: Catch exception when building RKNN model!
E build: Traceback (most recent call last):
E build:   File "rknn/api/rknn_base.py", line 1979, in rknn.api.rknn_base.RKNNBase.build
E build:   File "rknn/api/rknn_base.py", line 1511, in rknn.api.rknn_base.RKNNBase._quantize2
E build: {exception}"""

V1_BUILD = """E Catch exception when building RKNN model!
E Traceback (most recent call last):
E   File "rknn/api/rknn_base.py", line 601, in rknn.api.rknn_base.RKNNBase.build
E   File "rknn/api/quant_utils.py", line 213, in rknn.api.quant_utils.cal_bias
E {exception}"""
NOT_FOUND = "FileNotFoundError: [Errno 2] No such file or directory: '{path}'"


def test_failures_reads_the_exception_and_the_frame_that_raised_it() -> None:
    text = BUILD.format(exception="KeyError: 'stem_conv'")
    assert failures(text) == [
        'File "rknn/api/rknn_base.py", line 1511, in rknn.api.rknn_base.RKNNBase._quantize2\n'
        "KeyError: 'stem_conv'"
    ]


def test_failures_skips_source_lines_and_keeps_continuation_lines() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "convert.py", line 12, in <module>\n'
        "    mlmodel = ct.convert(traced, inputs=[ct.TensorType(shape=x.shape)])\n"
        '  File "coremltools/converters/mil/frontend/torch/ops.py", line 88, in convert_nodes\n'
        "    raise RuntimeError(msg)\n"
        "RuntimeError: PyTorch convert function for op 'unfold' not implemented.\n"
        "second line of the message\n"
        "\n"
        "unrelated output after a blank line"
    )
    (found,) = failures(text)
    assert found.splitlines() == [
        'File "coremltools/converters/mil/frontend/torch/ops.py", line 88, in convert_nodes',
        "RuntimeError: PyTorch convert function for op 'unfold' not implemented.",
        "second line of the message",
    ]


def test_a_chained_traceback_gives_each_failure_innermost_first() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "a.py", line 1, in f\n'
        "ValueError: inner cause\n"
        "\n"
        "During handling of the above exception, another exception occurred:\n"
        "\n"
        "Traceback (most recent call last):\n"
        '  File "b.py", line 2, in g\n'
        "RuntimeError: outer wrapper"
    )
    assert [f.splitlines()[-1] for f in failures(text)] == [
        "ValueError: inner cause",
        "RuntimeError: outer wrapper",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "E build: Traceback (most recent call last):",  # cut before its frames
        # cut before the exception
        'Traceback (most recent call last):\n  File "a.py", line 1, in f\n    x = g()',
        # CANN's error stack is no Python traceback
        "EE9999: Inner Error!\n        TraceBack (most recent call last):\n        build op model failed",
        "KeyError: 'x' with no traceback at all",
        # a log line after the frames, nothing raised
        'Traceback (most recent call last):\n  File "a.py", line 1, in f\nI rknn building ...',
    ],
)
def test_no_failure_without_a_python_traceback_that_reached_its_exception(text: str) -> None:
    assert failures(text) == []


def _match(entry_id: str, pattern: str, score: float, reason: str = "pattern", level: str = "") -> Match:
    entry = Entry(entry_id, "T", "run", "c", "f", "s", family="rknn", pattern=pattern, level=level)
    return Match(entry, score, reason, ())


def test_what_explains_the_failure_moves_above_what_only_explains_the_wrapper() -> None:
    text = "Build model failed!\n" + BUILD.format(exception="ValueError: zq7 widths differ")
    wrapper = _match("wrapper", r"Build model failed!", 60.0)
    inner = _match("inner", r"zq7 widths differ", 40.0)
    by_words = _match("words", r"zq7 widths differ", 50.0, reason="words")
    card = _match("card", "", 45.0, reason="family", level="family")
    scores = {m.entry.id: m.score for m in innermost_first([wrapper, inner, by_words, card], text)}
    assert scores == {"wrapper": 39.0, "inner": 40.0, "words": 39.0, "card": 39.0}


def test_nothing_moves_when_no_match_explains_the_failure() -> None:
    text = BUILD.format(exception="KeyError: 'stem_conv'")
    ranked = [_match("wrapper", r"Catch exception when building", 60.0), _match("other", r"zq7", 40.0)]
    assert innermost_first(ranked, text) == ranked
    assert innermost_first(ranked, "Catch exception when building, no traceback") == ranked


def test_rknn_build_traceback_is_answered_by_its_exception(kb: KnowledgeBase) -> None:
    """The calibration list that could not be opened answers, with its path, before the build step's card."""
    ranked = kb.lookup(V1_BUILD.format(exception=NOT_FOUND.format(path="./calib/dataset.txt")))
    ids = [m.entry.id for m in ranked]
    assert ids[0] == "rknn-no-such-file-or-directory"
    assert ("path", "./calib/dataset.txt") in ranked[0].captures
    assert ids.index("rknn-wrapper-build-step") > 0
    loading = [m for m in ranked if m.entry.id == "rknn-catch-exception-when-loading-onnx"]
    assert all(m.reason == "words" for m in loading)  # its pattern is the load step's only


def test_a_build_traceback_no_entry_explains_gets_the_build_step_card(kb: KnowledgeBase) -> None:
    """Not the load_onnx card: its advice is about loading, and the build step failed."""
    for text in (
        BUILD.format(exception="KeyError: 'stem_conv'"),
        V1_BUILD.format(exception="KeyError: 'c1'"),
    ):
        top = kb.lookup(text, top=1)[0]
        assert top.entry.id.startswith("rknn-wrapper-build-step")
        assert "quant" in top.fix and "load_onnx" not in top.fix + top.cause
        # s28f: the card passes on the exception that ends its traceback (issue 23's hand draws).
        assert "KeyError" in top.cause


def test_the_step_card_ranks_under_the_error_line_its_step_printed_first(kb: KnowledgeBase) -> None:
    """RKNN prints the step's own error line before a traceback cut short: that line's entry answers."""
    text = (
        "E build: Unsupport file #!\nE rknn-toolkit2 version: 2.2.0\n"
        "E build: Traceback (most recent call last):"
    )
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert ids[0] == "rknn-unsupport-file-home-model-onnx" and "rknn-wrapper-build-step" in ids[1:]


def test_each_step_has_its_own_card(kb: KnowledgeBase) -> None:
    load = (
        "E load_onnx: Traceback (most recent call last):\n"
        'E load_onnx:   File "x.py", line 1, in f\n'
        "E load_onnx: KeyError: 'zq'"
    )
    init = "E init_runtime: Catch exception when init runtime!"
    assert kb.lookup(load, top=1)[0].entry.id.startswith("rknn-catch-exception-when-loading-onnx")
    assert kb.lookup(init, top=1)[0].entry.id == "rknn-wrapper-init-runtime"


def test_the_runtime_code_of_an_init_traceback_answers_before_the_step(kb: KnowledgeBase) -> None:
    text = (
        "E init_runtime: Catch exception when init runtime!\n"
        "E init_runtime: Traceback (most recent call last):\n"
        'E init_runtime:   File "rknn/api/rknn_runtime.py", line 367, in '
        "rknn.api.rknn_runtime.RKNNRuntime.build_graph\n"
        "E init_runtime: Exception: RKNN init failed. error code: RKNN_ERR_DEVICE_UNAVAILABLE"
    )
    ids = [m.entry.id for m in kb.lookup(text, top=3)]
    assert ids[0] == "rknn-RKNN-ERR-DEVICE-UNAVAILABLE-3" and "rknn-wrapper-init-runtime" in ids[1:]


def test_the_init_exception_alone_acts_on_its_code(kb: KnowledgeBase) -> None:
    """Without the code's own entry (a code this KB has no card for), the init exception's entry names the
    code it captured and says what that code means, not only "look at the lines before"."""
    without_cards = kb.without(frozenset(i for i, e in enumerate(kb.entries) if e.keys))
    text = "E init_runtime: Exception: RKNN init failed. error code: RKNN_ERR_MODEL_INVALID"
    top = without_cards.lookup(text, top=1)[0]
    assert top.entry.id == "rknn-rknn-init-failed-error-code"
    assert ("arg", "RKNN_ERR_MODEL_INVALID") in top.captures
    assert "RKNN_ERR_MODEL_INVALID" in top.cause and "target_platform" in top.fix


# s28f: a wrapper's card reads its traceback to the end, and its exception leads the advice.


def test_traceback_end_counts_the_lines_up_to_the_exception() -> None:
    lines = BUILD.format(exception="KeyError: 'c1'").split("\n") + ["", "I next step"]
    assert traceback_end(lines) == 5
    assert traceback_end(["E build: Traceback (most recent call last):"]) == 0  # cut short
    assert traceback_end(["no traceback", "here"]) == 0
    chained = V1_BUILD.format(exception="ValueError: bad\n  continued").split("\n")
    assert traceback_end(chained) == 6


def test_a_wrapper_card_answers_with_the_part_of_build_its_last_frame_names(kb: KnowledgeBase) -> None:
    """RKNN's build wrapper over a traceback whose last frame is in quant_utils (dev thread
    airockchip/rknn-toolkit2#528) or graph_optimizer (#43): the part of build() and the exception lead."""
    quant = V1_BUILD.format(exception="KeyError: 'input_conv'")
    top = kb.lookup(quant, top=1)[0]
    assert top.entry.id == "rknn-wrapper-build-step+rknn-build-failed-in-quantisation"
    assert "cal_bias" in top.cause and "KeyError: 'input_conv'" in top.cause and "do_quantization" in top.fix
    graph = (
        "E build: Catch exception when building RKNN model!\n"
        "E build: Traceback (most recent call last):\n"
        'E build:   File "rknn/api/rknn_base.py", line 1979, in rknn.api.rknn_base.RKNNBase.build\n'
        'E build:   File "rknn/api/graph_optimizer.py", line 1365, in '
        "rknn.api.graph_optimizer.GraphOptimizer.correct_ops\n"
        "E build: TypeError: '>' not supported between instances of 'numpy.ndarray' and 'str'"
    )
    top = kb.lookup(graph, top=1)[0]
    assert top.entry.id == "rknn-wrapper-build-step+rknn-build-failed-in-graph-optimiser"
    assert "correct_ops" in top.cause and "optimization_level" in top.fix


def test_a_wrapper_card_with_a_long_traceback_still_reads_its_exception(kb: KnowledgeBase) -> None:
    """The card's own part used to stop after three lines: a traceback of many frames hid its exception."""
    frames = "".join(f'E build:   File "rknn/api/step{k}.py", line {k}, in f{k}\n' for k in range(12))
    text = (
        "E build: Catch exception when building RKNN model!\nE build: Traceback (most recent call last):\n"
        + frames
        + "E build: ValueError: The channel of mean_values (3) does not match the input (1)"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.id.startswith("rknn-wrapper-build-step")
    assert "The channel of mean_values (3) does not match the input (1)" in top.cause


def test_a_family_card_over_a_traceback_passes_on_its_exception(kb: KnowledgeBase) -> None:
    """A tool's card (here found by its marker only) over a traceback no entry explains: the exception, its
    frame and file lead; the tool's own advice follows in the fix."""
    text = (
        "qnn-onnx-converter failed\nTraceback (most recent call last):\n"
        '  File "/opt/qcom/aistack/qairt/lib/python/qti/aisw/converters/zz/build_step.py", line 44, in run\n'
        "    assert ret == 0\n"
        "AssertionError"
    )
    top = kb.lookup(text, top=1)[0]
    assert top.entry.family == "qualcomm"
    assert "AssertionError" in top.cause and "build_step.py" in top.cause and "run" in top.cause


def test_an_uncaught_cpp_exception_passes_on_its_what_line(kb: KnowledgeBase) -> None:
    text = (
        "terminate called after throwing an instance of 'ov::Exception'\n"
        "  what():  zz_widget could not be frobnicated for input 7\n"
        "Aborted (core dumped)\nopenvino"
    )
    top = kb.lookup(text, top=1)[0]
    assert "zz_widget could not be frobnicated for input 7" in top.cause, top
