"""Issue 23: the log scan finds errors no entry knows from their form alone (``[E]``, ``ERROR:``, glog's
``E1129``, a Python exception or traceback, a C++ ``terminate called after throwing``, OpenVINO's
``Exception from src/``...) and lists them as "no confident match", never as a guessed tool; lines whose error
words report no failure (``0 Error(s)``, ``error rate``, a metric ``Error: 0.0002``, warnings) stay out.

The messages are written for these tests in the tools' own forms, with made-up contents; none is copied from
the evaluation set.  s24b added the forms of C/C++ runtimes and compilers (ncnn's gpu.cpp ``vk... failed``,
gcc/clang's ``error:``), PyTorch's c10 log and c10::Error, Python's exception groups (traceback.py)."""

from __future__ import annotations

import io

import pytest

from bench.eval_explain import SCAN_NOISE
from dumpscope.core.knowledge import Entry, KnowledgeBase, scan_log
from dumpscope.core.knowledge.answer import shown_code
from dumpscope.core.knowledge.scan import Problem, _unwrapped, error_shaped

NOISE = [f"[I] step {i}: loading weights from /models/net_{i}.bin" for i in range(5)]
EMPTY = KnowledgeBase([])
"""No entry at all: every error the scan reports is one no entry fits."""


def scan(kb: KnowledgeBase, lines: list[str]) -> list[Problem]:
    return scan_log(io.BytesIO(("\n".join(lines) + "\n").encode()), kb)


UNSEEN = [
    ["[11/28/2026-12:00:03] [E] Widget pass gave up on node /blocks.3/Frob"],
    ["[E] frobnicator: no plan for tensor t_7"],
    ["ERROR: widget pass gave up on node /blocks.3/Frob"],
    ["[ERROR] GE(4242,atc):2026-11-28-12:00:00.123.456 [frob_pass.cc:42]4242 frob pass stopped"],
    ["2026-11-28 12:00:00,123 - ERROR - frob pass stopped on node 7"],
    ["E1129 12:00:00.123456  4242 frob.cc:42] frob pass failed on node 7"],  # (glog: no form without a cue)
    ["     12.3ms [ ERROR ] FrobLib <E> node 7 stopped"],
    ["FrobError: the widget frobnicator stopped on node 7"],
    ["wrapper.FrobException: the widget frobnicator stopped"],
    ["[FrobInferenceError] Unhandled value of attribute 'k' on node 7"],
    ["terminate called after throwing an instance of 'frob::stopped'", "  what():  node 7 stopped"],
    ["Exception from src/plugins/frob/src/node.cpp:42:", "frob node 7 stopped"],
    ["Check 'rank == 4' failed at src/frob/node.cpp:42:", "node 7"],
    ["frob: src/node.cpp:42: void run(): Assertion `rank == 4' failed."],
    ["frob.js:12 Uncaught Error: frob stopped on node 7"],
    ["Unhandled exception at 0x00007FF6 in frob.exe: Microsoft C++ exception: frob::stopped"],
    ["LLVM ERROR: frob pass stopped on node 7"],
    [
        "Traceback (most recent call last):",
        '  File "frob.py", line 3, in <module>',
        "FrobError: node 7 stopped",
    ],
    ["DCHECK(frob_ && widget_) failed"],  # a C++ check macro
    ["frob_node.cc:42 Check failed: rank == 4 (3 vs. 4)"],  # glog's CHECK without its F header
    ["[Frobber] Oops, some widget ops are not converted yet: Frob, Widget"],  # a tool's tag, then a failure
    ["Not Support FrobType [Widget7]"],
    ["Unsupported frob type: widget"],
    ["Failed to frob the widget on node 7"],
    ["[Frob] [Widget] Could not frob node 7"],
    ["Cannot frob node 7: the widget is missing"],
    ["frob.error.WidgetNotImplemented: node 7 has no frob"],  # a Python exception not named ...Error
    ["ValueError: 3 is not a valid frob"],  # a class's message may start with a number
    ["E Please frob the widget again"],  # a tool's bare E level (rknn-toolkit's E without a colon)
    ["E       assert frob(7) == widget"],  # pytest's failure lines
    ["[E:frobber] widget stopped on node 7"],
    ["模型转换失败：节点 7 的算子 Frob"],  # Chinese: "model conversion failed"
    ["无法加载模型 frob.om"],  # "cannot load the model"
    ["モデル frob.om の読み込みでエラーが発生しました"],  # Japanese: "an error occurred loading the model"
    ["모델 frob.om 로드 실패"],  # Korean: "loading the model failed"
    ["Ошибка загрузки модели frob.om"],  # Russian: "error loading the model"
    ["Frob Lite: widget node 7 (FROB_2D) failed to prepare."],  # a failure as the sentence's predicate
    ["Op type Widget of node frob_7 is not supported"],
    ["layer Widget not exists or registered"],
    [  # a traceback pasted without its header, ending in an exception no form names
        '  File "/opt/app/frob.py", line 3, in <module>',
        "    frob(widget)",
        "frob.FrobStop",
    ],
    # s24b: forms of C/C++ runtimes and compilers, PyTorch's c10 log, Python's exception groups
    ["vkFrobWidget failed  VK_ERROR_WIDGET_LOST"],  # a function reporting its own failure (ncnn's gpu.cpp)
    ["frob::Widget::init() failed"],
    ["src/frob.cc:42:7: error: no member named 'widget' in 'frob::Node'"],  # gcc / clang
    ["error: the widget frobnicator has no plan for node 7"],
    ["validator error: widget 'w' has an unspecified frob type"],  # a checker's own ``<what> error:``
    ["Error converting widget Frob, with inputs: [w7]"],  # an error that says what it was doing
    ["[rank0]:[E1129 12:00:00.123456789 frob_node.cpp:42] frob setup failed!"],  # c10's log header
    ["Exception raised from FrobSetup at frob/node.cpp:42 (most recent call first):"],  # c10::Error
    ["  | FrobError: the widget frobnicator stopped on node 7"],  # inside an exception group's box
    ["Widget weights have count 96 but 2304 were expected"],  # a mismatch as the sentence's predicate
    ["Unknown widget kind 'Frob9'"],  # an unknown thing named in quotes
]


@pytest.mark.parametrize("lines", UNSEEN, ids=lambda lines: lines[0][:30])
def test_an_error_no_entry_knows_is_found_by_its_form_and_names_no_tool(lines: list[str]) -> None:
    found = scan(EMPTY, [*NOISE, *lines, *NOISE])
    assert [(p.first_line_no, p.confident, p.matches) for p in found] == [(len(NOISE) + 1, False, [])]
    assert found[0].block[0] == lines[0].strip()  # (lines without a cue word are not read: ``what():``)
    assert found[0].to_dict()["confident"] is False


BENIGN = [
    "[I]         Error Metrics: output",
    "[I] Accuracy Summary | a vs. b | Passed: 1/1 iterations | Pass Rate: 100.0%",
    "    0 Error(s)",
    "Checked 212 nodes: 0 errors, 0 failures, 3 warnings",
    "[E] summary: 0 errors, 0 failures",
    "INFO:root:eval: top-1 error rate 23.87%",
    "Error: 0.000211 (max abs), 0.000013 (mean abs)",
    "Error rate: 0.5%",
    "log level: ERROR",
    "export ORT_LOG_LEVEL=ERROR",
    "{'on_error': 'raise', 'error_limit': 10}",
    "[W] [TRT] Frob weights could not be cast; this is not an ERROR: they stay FP32",
    "WARNING: Logging before flag parsing goes to stderr.",
    "/opt/app/frob.py:7: UserWarning: frob failed to converge; FrobError may follow",
    "Exception handling: enabled (RuntimeError and ValueError are re-raised)",
    "    except RuntimeError:",
    "[I] Failed to find a cached frob engine; building one",  # a failure phrase at an informational level
    "INFO:  Unsupported ops: ai.onnx:Frob,ai.onnx:Widget",
    "W0000 00:00:1764331214.323456   24101 frob.cc:12] Cannot dlopen some frob libraries.",
    "Note: frob cannot run on the widget; it falls back to the CPU",  # the phrase is no sentence's head
    "E.g. frob the widget first",
    "[Conv] frob_failed_0.tmp_2                0.99999 | 0.23676",  # a layer table (rknn-toolkit)
    "Error: 7.5e-05 (max abs)",
    "编译完成，0 个错误，0 个警告",  # Chinese: "built, 0 errors, 0 warnings"
    "     ai.onnx:Frob:Input `widget` with scalar value is not supported.",  # an INFO record's detail
    # s24b: look-alikes of the forms above
    "train error: 0.0213 (epoch 7)",  # a metric after ``<what> error:``
    "Error handling: strict (a frob error stops the run)",  # not an error that says what it was doing
    "[I] vkFrobWidget failed over to the integrated GPU",  # at an informational level
    "[W1129 12:00:00.123456789 frob.cpp:42] frob setup failed!",  # c10's log header at a warning level
    "| epoch | train error | eval error |",  # a table's header, no exception group's box
    "step 7 done: errors=0, missing=0, unknown=0, ignored=0",  # counters
    "[I] 3 of 96 weights were expected to be zero",  # no mismatch predicate
    "Invalid samples: 0 of 128 (unknown labels: 0)",  # counters named like the quoted-name form
]


@pytest.mark.parametrize("line", BENIGN)
def test_error_words_that_report_no_failure_are_no_error(line: str) -> None:
    assert not error_shaped([line])
    assert scan(EMPTY, [*NOISE, line, *NOISE]) == []


def test_the_noise_files_hold_no_error_form() -> None:
    """The real verbose logs and the look-alike lines of scan_noise/ hold error words, never an error."""
    lines = [line for f in sorted(SCAN_NOISE.glob("*.log")) for line in f.read_text("utf-8").splitlines()]
    assert (SCAN_NOISE / "lookalikes.log").exists()
    assert scan(EMPTY, lines) == []


def test_a_repeated_unknown_error_is_one_problem_with_its_lines() -> None:
    line = "FrobError: the widget frobnicator stopped on node 7"
    found = scan(EMPTY, [*NOISE, line, *NOISE, line.replace("7", "9")])
    assert [(p.first_line_no, p.count, p.line_numbers) for p in found] == [(6, 2, [6, 12])]


def test_a_known_message_is_still_answered_by_its_entry(kb: KnowledgeBase) -> None:
    message = "E19010: No parser is registered for Op [conv1, optype [Frob]]."
    found = scan(kb, [*NOISE, f"[ERROR] {message}", *NOISE])
    assert len(found) == 1 and found[0].confident and shown_code(found[0].matches[0]).startswith("E19010")
    assert dict(found[0].matches[0].captures)["op"] == "conv1"  # the entry whose wording names the node


def _entry(id: str, pattern: str) -> Entry:
    return Entry(
        id=id, tool="frob", stage="run", cause="c", fix="f", source="s", family="onnx", pattern=pattern
    )


def test_an_unknown_error_found_joined_to_the_next_report_is_not_listed_twice() -> None:
    """A report that matches nothing alone but whose next line completes a known message (the two read as
    one) is that message's problem only: its "no confident match" is taken back."""
    kb = KnowledgeBase([_entry("frob-two-lines", r"ERROR: frob stopped\nWidget loader failed")])
    found = scan(kb, [*NOISE, "ERROR: frob stopped", "Widget loader failed", *NOISE])
    assert [(p.first_line_no, p.confident) for p in found] == [(len(NOISE) + 1, True)]
    assert found[0].matches[0].entry.id == "frob-two-lines"


INFO_80 = 'INFO:root:Quantization parameters for tensor:"frob_weights_000000" not specified'
VERBOSE = (
    "2026-11-28 20:59:58.939626098 [V:onnxruntime:, graph_transformer_mgr.cc:49 ApplyTransformers] Skipping "
    "graph transformer FrobOptimizer on step 2 because it should only apply once"
)


@pytest.mark.parametrize(
    "error",
    [
        "[ShapeInferenceError] Inferred shape and existing shape differ in dimension 0: (1024) vs (1000)",
        "[TensorRT] ERROR: 2: [frobRunner.cpp::execute::115] Error Code 2: Internal Error (Assertion failed)",
        "[TensorRT-LLM][ERROR] 3: [frobContext.cpp::setInputShape::2309] Error Code 3: API Usage Error",
        "what():  [12:00:00] /src/frob/WidgetOp.cpp:64: Frob Converter Not Supported!!! Widget Op:",
    ],
)
def test_an_error_record_below_a_line_as_wide_as_a_terminal_is_no_piece_of_it(
    kb: KnowledgeBase, error: str
) -> None:
    """An 80-column INFO line whose next line starts an error record (a tool's tag then its level, a
    bracketed error name) was read as a wrapped line: the error was reported on the INFO line."""
    assert len(INFO_80) == 80
    found = scan(kb, [*NOISE, INFO_80, error, *NOISE])
    assert [p.first_line_no for p in found] == [len(NOISE) + 2]


def test_a_verbose_record_is_not_joined_to_the_error_record_below_it(kb: KnowledgeBase) -> None:
    error = "[ERROR] ASCENDCL(1,python3):2026-11-28-12:00:00.123.456 [frob.cpp:1]1 ValueError: frob stopped"
    found = scan(EMPTY, [*NOISE, VERBOSE, error, *NOISE])
    assert [(p.first_line_no, p.confident) for p in found] == [(len(NOISE) + 2, False)]


def test_a_message_after_data_on_its_line_is_not_lent_to_the_info_line_above(kb: KnowledgeBase) -> None:
    """A long line is read around its cue words; the window cut inside it starts with a space, which is no
    indentation: the line is no continuation of the ``[INFO]`` record above it."""
    message = '"The downstream node of the second cast node should be graph output" (float16.py:557)'
    data = "[" + "0.1234, " * 9000 + "] " + message
    found = scan(kb, [*NOISE, "[INFO] 16 out of 100 layers fused; expected speed-up 1.6x", data, *NOISE])
    assert [p.first_line_no for p in found] == [len(NOISE) + 2]


def test_an_informational_line_as_wide_as_a_terminal_does_not_go_on_into_an_error_below_it() -> None:
    """An 80-column INFO line above an error line that starts no record of its own (no level, no exception
    name) was read as that error's first piece: the error was reported on the INFO line, found joined."""
    kb = KnowledgeBase([_entry("frob-prepare", r"widget node \d+ \(\w+\) failed to prepare")])
    error = "Frob Lite: widget node 7 (FROB_2D) failed to prepare."
    found = scan(kb, [*NOISE, INFO_80, error, *NOISE])
    assert [(p.first_line_no, p.matches[0].entry.id) for p in found] == [(len(NOISE) + 2, "frob-prepare")]


def test_a_line_as_wide_as_a_terminal_still_goes_on_into_its_next_piece() -> None:
    """A wrapped error line is still read whole: its first piece is no informational record."""
    kb = KnowledgeBase([_entry("frob-prepare", r"widget node \d+ \(\w+\) failed to prepare")])
    line = "Frob Lite: " + "x" * 50 + " while frobbing: widget node 7 (FROB_2D) failed to prepare."
    pieces = [line[:80], line[80:]]
    found = scan(kb, [*NOISE, *pieces, *NOISE])
    assert [(p.first_line_no, p.matches[0].entry.id) for p in found] == [(len(NOISE) + 1, "frob-prepare")]


@pytest.mark.parametrize(
    "below",
    [
        "/home/user/envs/frob/lib/python3.11/site-packages/frobtools/models/widget_model.py:116: "
        "RuntimeWarning: You will not be able to run predict() on this frob model",
        "Frob Lite: widget node 7 (FROB_2D) failed to prepare.",
    ],
)
def test_a_verbose_line_as_wide_as_a_terminal_is_no_first_piece_of_a_record_below(below: str) -> None:
    """A line exactly 160 columns wide above a Python warning (its path is longer than 80 columns) or above a
    line that reads as an error, below an informational record: each line is read as it is, not joined."""
    above = (VERBOSE + " " * 160)[:160]
    assert len(above) == 160
    buf = f"{above}\n{below}\n".encode()
    start = len(above) + 1
    assert _unwrapped(buf, start) == (start, len(buf) - 1)
