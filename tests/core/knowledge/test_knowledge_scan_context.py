"""Issue 23: a report's context in a log — the stack frames below it, a logger header repeated on each of
its lines, the lines right above it — counts for it, and the same shapes in benign lines are not reported.

The messages were written for this test from the tools' formats (WIL's ``from:`` frames of DirectML, Java
and gdb frames, a job runner's ``[time]: job err:`` header, a runtime's ``Using libX.so`` banner), not
copied from the evaluation set.
"""

from __future__ import annotations

import io

import pytest

from dumpscope.core.knowledge import KnowledgeBase, Problem, scan_log
from dumpscope.core.knowledge import scan as scan_module

NOISE = [f"[INFO] {i}: loading weights from /models/net_{i}.bin" for i in range(6)]

DML = [
    'DirectML.dll/DmlCommandRecorder.cpp(120) Exception "The device was removed.".',
    "from: DirectML.dll/DmlDevice.cpp(88)",
    "from: onnxruntime.dll/ExecutionProvider.cpp(511)",
]
JAVA = [
    "java.lang.IllegalStateException: the session was closed",
    "\tat ai.onnxruntime.OrtSession.run(OrtSession.java:301)",
    "\tat com.example.App.main(App.java:12)",
]
GDB = [
    "Program received signal SIGSEGV, Segmentation fault.",
    "#0  0x0000007fb7e3a1c4 in rknn_outputs_get () from /usr/lib/librknnrt.so",
    "#1  0x0000005555555a10 in main ()",
]
HEADER = [
    "[2024-03-02 10:11:12Z]: job err: Traceback (most recent call last):",
    "[2024-03-02 10:11:12Z]: job out: Running /opt/snpe/bin/snpe-onnx-to-dlc --input_network m.onnx",
    '[2024-03-02 10:11:12Z]: job err:   File "/opt/convert.py", line 12, in <module>',
]
LEAD = [
    "Using libQnnHtp.so version 2.20",
    "",
    "Missing field: core_mask",
    "ERROR at line 12: Failed to create the context.",
]


def problems(kb: KnowledgeBase, lines: list[str]) -> list[Problem]:
    text = "\n".join([*NOISE, *lines, *NOISE]) + "\n"
    return scan_log(io.BytesIO(text.encode()), kb)


def families(problem: Problem) -> set[str]:
    return {m.entry.family for m in problem.matches}


@pytest.mark.parametrize(
    ("report", "family"),
    [(DML, "onnxruntime"), (JAVA, "onnxruntime"), (GDB, "rknn")],
    ids=["wil", "java", "gdb"],
)
def test_stack_frames_belong_to_the_report_above_them_and_name_its_tool(
    kb: KnowledgeBase, report: list[str], family: str
) -> None:
    found = problems(kb, report)
    assert [p.first_line_no for p in found] == [len(NOISE) + 1]  # no frame starts a problem of its own
    assert found[0].block == tuple(line.strip() for line in report)
    assert family in families(found[0])
    head = problems(kb, report[:1])
    if report is DML:  # DirectML.dll is a marker of onnxruntime (its DirectML EP loads it): the head names it
        assert any(family in families(p) for p in head)
    else:
        assert all(family not in families(p) for p in head)  # the head alone names no tool


@pytest.mark.parametrize(
    "lines",
    [
        # a warning's frames: its tool is not a failure's
        [
            "WARNING: the first run failed, retrying once",
            "\tat ai.onnxruntime.OrtSession.run(OrtSession.java:301)",
        ],
        # frames lend no error word (``OrtException``, ``ErrorReporter``) to a benign head
        [
            "Note: inputs should be normalised to [0, 1]; the required mean/std come from config_17.yaml",
            "\tat ai.onnxruntime.OrtException.<init>(OrtException.java:12)",
            "from: onnxruntime.dll/ErrorReporter.cpp(40)",
        ],
        # ``from:`` and ``at`` that are no frames
        [
            "[W] [TRT] Tensor 17 is not used by any layer; ignored",
            "Copying from: /data/a.bin to /data/b.bin",
            "  at 12:00 (every day)",
            "  at least (3 items) expected",
        ],
    ],
    ids=["warning-frames", "frames-error-words", "no-frames"],
)
def test_frame_like_lines_under_benign_lines_are_not_problems(kb: KnowledgeBase, lines: list[str]) -> None:
    assert problems(kb, lines) == []


def test_a_logger_header_on_every_line_is_read_past_and_an_interleaved_line_joins(kb: KnowledgeBase) -> None:
    """The traceback's lines are grouped as they would be without the header; the other stream's line
    between them (which names the tool) goes into the report."""
    found = problems(kb, HEADER)
    assert [p.first_line_no for p in found] == [len(NOISE) + 1]
    assert found[0].block == tuple(HEADER)
    assert "qualcomm" in families(found[0])
    assert problems(kb, HEADER[:1]) == []  # the header line alone is not enough


def test_lines_sharing_a_header_are_not_joined_into_a_problem(kb: KnowledgeBase) -> None:
    lines = [
        "[2024-03-02 10:11:12Z]: job out: retry_on_failure=False assert_finite=True",
        "[2024-03-02 10:11:12Z]: job out:   0 errors, 0 failures so far",
        "[2024-03-02 10:11:12Z]: job out: Running /opt/snpe/bin/snpe-onnx-to-dlc --input_network m.onnx",
        "[2024-03-02 10:11:12Z]: job out:   Note: a retry is required when the cache fails",
    ]
    assert problems(kb, lines) == []


def test_an_error_line_is_read_with_the_lines_above_it_when_it_matches_nothing_alone(
    kb: KnowledgeBase,
) -> None:
    found = problems(kb, LEAD)
    assert [p.first_line_no for p in found] == [len(NOISE) + len(LEAD)]  # where the error line is
    assert found[0].text == LEAD[-1]
    assert "qualcomm" in families(found[0])
    alone = problems(kb, LEAD[-1:])  # alone it names no tool: an error no entry fits, no tool guessed
    assert [(p.text, p.confident, p.matches) for p in alone] == [(LEAD[-1], False, [])]


@pytest.mark.parametrize("plain", ["Missing field: core_mask", "the config needs a core_mask", "unknown key"])
def test_a_plain_line_with_a_cue_word_right_above_still_counts_as_the_error_lines_context(
    kb: KnowledgeBase, plain: str
) -> None:
    """s24b: a line with a cue word (``missing``, ``needs``, ``unknown``) is read as a report of its own; when
    it matches nothing, it and the lines above it are still the context of the error line below it (before,
    only lines no report held were)."""
    lines = [LEAD[0], plain, LEAD[-1]]
    found = problems(kb, lines)
    assert [p.first_line_no for p in found] == [len(NOISE) + len(lines)]
    assert "qualcomm" in families(found[0])


@pytest.mark.parametrize(
    "lines",
    [
        ["Using libQnnHtp.so version 2.20", "[E] summary: 0 errors, 0 failures"],  # no error at all
        ["Using libQnnHtp.so version 2.20", "Note: a failed download is retried"],  # not at an error level
        ["Using libQnnHtp.so version 2.20", "[W] could not open the cache file, rebuilding it"],  # a warning
    ],
)
def test_lines_above_do_not_make_a_benign_line_a_problem(kb: KnowledgeBase, lines: list[str]) -> None:
    assert problems(kb, lines) == []


@pytest.mark.parametrize("chunk", [16, 97, 256, 1 << 20])
def test_the_problems_do_not_depend_on_where_the_chunks_are_cut(
    kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    lines = [*DML, *NOISE, *HEADER, *NOISE, *LEAD, *NOISE, *JAVA]
    whole = [(p.first_line_no, p.block) for p in problems(kb, lines)]
    assert len(whole) == 4
    monkeypatch.setattr(scan_module, "CHUNK", chunk)
    assert [(p.first_line_no, p.block) for p in problems(kb, lines)] == whole


@pytest.mark.parametrize(
    "prefix",
    [
        "[rank0]: ",
        "E1128 12:00:00.123456  1234 session.cc:112] ",
        "[2025-01-01T12:00:00.123Z] ",
        "\x1b[1;31m",
    ],
    ids=["torchrun", "glog", "timestamp", "ansi"],
)
@pytest.mark.parametrize(
    ("report", "family"), [(DML, "onnxruntime"), (JAVA, "onnxruntime")], ids=["wil", "java"]
)
def test_frames_behind_the_header_of_every_line_still_join_their_report(
    kb: KnowledgeBase, prefix: str, report: list[str], family: str
) -> None:
    found = problems(kb, [prefix + line for line in report])
    assert [p.first_line_no for p in found] == [len(NOISE) + 1]
    assert len(found[0].block) == len(report)
    assert family in families(found[0])


def test_a_frame_behind_another_header_than_its_report_line_is_not_joined(kb: KnowledgeBase) -> None:
    """Only the header the report's own line carries is read past: a frame-shaped line of another logger
    after it stays out (and names no tool for it)."""
    lines = [JAVA[0], "[2025-01-01T12:00:00.123Z] " + JAVA[1]]
    found = problems(kb, lines)
    assert all(len(p.block) == 1 for p in found)
    assert all("onnxruntime" not in families(p) for p in found)


def test_an_indented_error_under_an_informational_header_starts_its_own_problem(kb: KnowledgeBase) -> None:
    """s24b: an informational record that announces detail lines (``INFO: ... supported:``, onnxruntime's
    usability checker) takes in the indented line below it; when that line alone is an entry's specific
    problem (Core ML's espresso line, as apple/coremltools#1106 quotes it, made-up path), the problem starts
    at it, not at the INFO line (which is no error); a repeat is counted at its own error line too."""
    info = (
        "INFO:  \tCaveats that have not been checked and may result in a node not actually being supported:"
    )
    error = " [espresso] [Espresso::handle_ex_plan] exception=ANECF error: ANECCompile(/tmp/frob/) FAILED"
    log = [*NOISE, info, error, *NOISE, info, error]
    problems = scan_log(io.BytesIO("\n".join(log).encode()), kb)
    assert [(p.first_line_no, p.line_numbers, p.matches[0].entry.id) for p in problems] == [
        (8, [8, 16], "coreml-s19b-espresso-ane-plan-failed")
    ]
    assert problems[0].text == error.strip()
    # the INFO record's own detail (no entry's specific problem) is still no problem of its own
    detail = "     ai.onnx:Frob:Input `widget` with scalar value is not supported."
    assert scan_log(io.BytesIO("\n".join([*NOISE, info, detail, *NOISE]).encode()), kb) == []
